"""The suite's faults found while writing and running bogey (tests/examples/tcl/bogey.tcl,
a double-16 engine in Tcl for 6 to 12 players with a table of its own, ordinary doubles,
and a match length and a tie rule of its own), each fixed with a test that failed before
the fix.

A play on a train the table does not have (train n at a table of n seats) is refused by
TRAIN-1, and the corpus asked it at a table of three alone (first-026): an engine whose
hand-size table has no row for three seats never met the question, so bogey's planted
bug 2, which keeps the Mexican Train as train n and so takes a play on train n for one on
the Mexican Train, passed every result of conform. Now every mid-round situation from play
asks the refusal of a held tile on train n, at whatever table the rule set deals
(situations._fixture), where no option decides it; identify's situations leave it out
(legal_only: it reads no option, so it tells no rule sets apart). The engine here is the
reference in process with that bug, under a table of its own for 5 to 7 seats.

Under a tie rule of its own (`tie_rule: other`, bogey's "last out takes it") conform never
judged an engine's match winners at a round's end from play (own_match_winners.py left
every such entry as it was), though a tie rule speaks only of players level on the winning
total: where one seat alone holds it, it wins under any tie rule (MATCH-2, MATCH-3). Now
those are judged, and the ties left to the rule of one's own. The engines here are the
reference in process with a match of three rounds and bogey's tie rule."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from match_of_three import MatchOfThree, conform_report, failures

from mtrain.conformance.adapter import JSON, ReferenceImplementation
from mtrain.conformance.situations import _from_data, _to_data, legal_only, situations
from mtrain.spec.catalog import catalog
from mtrain.spec.notation import action_json

RULES = """name: long-table
base: pagat
options:
  hand_sizes: {5: 12, 6: 11, 7: 10}
  first_turn: single
"""


class MexicanAtN(ReferenceImplementation):
    """A planted bug: the Mexican Train kept as train n, so a play on train n is taken
    as one on the Mexican Train (breaks TRAIN-1)."""

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        if action.get("type") == "play" and action.get("train") == len(state["hands"]):
            action = {**action, "train": "mexican"}
        return super().apply(ruleset, state, action)


def _rules(tmp_path: Path) -> Path:
    path = tmp_path / "long-table.yaml"
    path.write_text(RULES, encoding="utf-8")
    return path


def _conform(adapter: str, tmp_path: Path) -> dict[str, Any]:
    return conform_report(f"{__file__}:{adapter}", _rules(tmp_path), "play-mid-00*",
                          tmp_path / "report.json")


def test_a_play_on_the_train_past_the_last_seat_is_asked_at_every_table(
        tmp_path: Path) -> None:
    """Before, no situation asked a refusal; now each mid-round one asks the play of a tile
    the mover holds on train n (TRAIN-1), kept through the cache's form, and left out of
    what identify asks."""
    rs = catalog().rules_file(str(_rules(tmp_path)))
    mids = situations(rs, 70, wanted=lambda fid: fid.startswith("play-mid-"))
    assert len(mids) >= 5
    for fx in mids:
        assert fx.table is not None and "TRAIN-1" in fx.clauses
        seats = len(fx.table["hands"])
        [(text, clauses)] = fx.expect[0].refused.items()
        action = action_json(text)
        assert action["train"] == seats and clauses == ("TRAIN-1",), (fx.id, text)
        mover = fx.table["hands"][fx.table.get("seat", 0)]
        assert action["tile"] in mover or "-".join(action["tile"].split("-")[::-1]) in mover
        assert _from_data(_to_data(fx), rs).expect[0].refused == fx.expect[0].refused
        assert legal_only(fx).expect[0].refused == {}


def test_an_engine_taking_train_n_for_the_mexican_train_fails_charged_to_train_1(
        tmp_path: Path) -> None:
    """Before, it passed every mid-round situation (no fixture of the corpus asks train n
    at 5 to 7 seats); now each fails, charged to TRAIN-1, and the reference passes."""
    fails = failures(_conform("MexicanAtN", tmp_path))
    assert len(fails) >= 5
    assert all(charged == ["TRAIN-1"] and "TRAIN-1" in text for _, text, charged in fails), fails
    right = _conform("ReferenceImplementation", tmp_path)
    assert failures(right) == [] and right["summary"]["pass"] >= 5


TIE_RULES = """name: three-rounds-last-out
base: pagat
options:
  tile_set: double-6
  hand_sizes: {2: 7, 3: 6, 4: 5}
  first_turn: single
  tie_rule: other
  match_length: other
"""


class LastOutTakesIt(MatchOfThree):
    """A match of three rounds, [6-6] to [4-4]; the lowest total wins, and of players level
    on it the one who went out in the last round wins alone, else they share."""

    def winners(self, ruleset: JSON, state: JSON) -> list[int]:
        if state["phase"] != "over" or state["round"] < self.LAST:
            return []  # its match goes on
        best = self.best(state["scores"])
        level = [seat for seat, total in enumerate(state["scores"]) if total == best]
        out = state["result"]["winner"]
        return [out] if len(level) > 1 and out in level else level

    def best(self, totals: list[int]) -> int:
        return min(totals)


class HighestWinsOwnTie(LastOutTakesIt):
    """A planted bug: the highest total wins (breaks MATCH-2)."""

    def best(self, totals: list[int]) -> int:
        return max(totals)


def _conform_ends(adapter: str, tmp_path: Path) -> dict[str, Any]:
    rules = tmp_path / "three-rounds-last-out.yaml"
    rules.write_text(TIE_RULES, encoding="utf-8")
    return conform_report(f"{__file__}:{adapter}", rules, "play-end-*", tmp_path / "ends.json")


def test_a_tie_rule_of_its_own_leaves_the_winner_on_a_total_alone_judged(
        tmp_path: Path) -> None:
    """Before, the bug failed nothing: no round end from play asked `winners` under a tie
    rule of one's own. Now it fails where one seat holds the winning total, charged to
    MATCH-2; the engine playing its rule right fails nothing."""
    fails = failures(_conform_ends("HighestWinsOwnTie", tmp_path))
    assert fails
    assert all(charged == ["MATCH-2"] and "winners: expected [" in text
               for _, text, charged in fails), fails
    right = _conform_ends("LastOutTakesIt", tmp_path)
    assert failures(right) == [] and right["summary"]["pass"] >= 10
