"""Session 62's house engine, drawbar (tests/examples/rust/drawbar.rs): a bot league's Rust
engine on a double-17 set for 2 to 8 players with a table of its own and three house rules
no known value describes: the first pass made with the boneyard empty ends the round
(`blocked_round: other`), a double left in hand costs twice its pips (`scoring: other`),
of equal lowest totals the least paid in the last round wins (`tie_rule: other`).

- Its planted bug 1, a pass offered beside the plays once the boneyard is empty (TURN-1),
  went unseen by fuzz in 12 games (seed 1) and was met once in 40: steered games under a
  round-end rule of one's own on a big set were not scripted (a blocked end sought
  there would leave more answers to that rule, unjudged), and random or steered play on
  double-17 seldom runs the boneyard dry while somebody still holds a play (the
  reference alone, drawbar's stand-in, 100 rounds: 10 steered, 4 at random). The random
  games of such a rule set (the steered ones keep to their blocked ends, which
  viaduct's blocked-scores bug needs) now follow a round the reference plays alone up to
  the first turn with the boneyard empty and a play in hand (steer.dry_script), and go
  on at random from there: the dry stretch's moves are judged whatever ends the round.
- A situation of an empty boneyard whose mover had just drawn the last tile listed no
  TURN-3, though a pass kept beside that tile is charged to it: such a table lists it
  now, whatever its kind (reached_fixtures._fixture).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from mtrain.cli import main
from mtrain.conformance.adapter import JSON, ReferenceImplementation
from mtrain.conformance.fuzz.rulesets import stand_in
from mtrain.conformance.fuzz.steer import dry_script, dry_scripted, scripted
from mtrain.conformance.situations import situations
from mtrain.reference import codec, deal, engine
from mtrain.reference.rules import Rules
from mtrain.reference.state import BLOCKED
from mtrain.spec.catalog import catalog

DRAWBAR_RULES = Path(__file__).parent / "examples" / "rust" / "drawbar-rules.yaml"
DRY_YARD = """
name: dry-yard-d15
base: puremco
options:
  tile_set: double-15
  hand_sizes: {2: 15, 3: 15, 4: 13, 5: 12, 6: 11}
  doubles: ordinary
  blocked_round: other
"""
"""puremco on a double-15 set (a big set: steer.BIG_SET) with a table of its own, doubles
ordinary tiles as drawbar's (so that no pass is charged to a double's release), its
round's end on an empty boneyard played its own way."""


class DryYardPassOffered(ReferenceImplementation):
    """The first pass made on an empty boneyard ends the round blocked (its own rule), and
    a bug beside it: with the boneyard empty a pass is offered, and taken, beside the
    plays (breaks TURN-1), drawbar's bug 1."""

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        found = super().legal(ruleset, state)
        if (not state["boneyard"] and any(a["type"] == "play" for a in found)
                and {"type": "pass"} not in found):
            found = [*found, {"type": "pass"}]
        return found

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        if action.get("type") != "pass" or state["boneyard"] or state["result"] is not None:
            return super().apply(ruleset, state, action)
        st = self.state(ruleset, state).copy()
        st.markers |= 1 << st.seat  # TURN-4, MARK-1: the passer's marker up
        st.passes += 1
        st.drawn = -1
        engine._finish(st, BLOCKED, -1)  # its own END: blocked at once
        return codec.state_to_json(st)


@pytest.fixture()
def dry_yard(tmp_path: Path) -> Path:
    path = tmp_path / "dry-yard-d15.yaml"
    path.write_text(DRY_YARD, encoding="utf-8")
    return path


def test_a_big_sets_steered_games_under_a_round_end_rule_of_its_own_run_the_boneyard_dry(
        dry_yard: Path) -> None:
    """Where a blocked end is not scripted (a round-end rule of its own), a random game's
    script runs to the first turn with the boneyard empty and a play in the mover's hand; under
    round-end rules all known the blocked script stays, and a small set is not scripted."""
    rs = catalog().rules_file(str(dry_yard))
    unknown = frozenset(rs.unknown)
    assert dry_scripted(unknown, 15) and not scripted(unknown, 15)
    assert not dry_scripted(unknown, 12) and not dry_scripted(frozenset(), 18)
    rules = Rules.of(stand_in(rs))
    reached = 0
    for k in range(6):
        st = deal.deal(rules, 4, 1, seed=k)
        moves = dry_script(st, random.Random(k))
        for act in moves:  # every move the rules' own, the round going on
            assert act in engine.legal_actions(st), act
            engine.perform(st, act)
            assert st.phase != engine.OVER
        if moves:
            reached += 1
            assert not st.boneyard
            assert any(a.kind == "play" for a in engine.legal_actions(st))
    assert reached >= 5, reached  # (measured: 6 of 6)


@pytest.mark.slow  # one fuzz run, ~7 CPU s
def test_fuzz_finds_a_pass_offered_beside_plays_on_an_empty_boneyard(
        dry_yard: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """drawbar's bug 1 over the reference, on a double-15 set under a blocked rule of its
    own: 12 games (seed 1) find it, charged to TURN-1 (or TURN-3, a playable drawn tile
    kept), and nothing else (its blocked ends are its own rule's, not judged)."""
    capsys.readouterr()
    code = main(["fuzz", "--adapter", f"{Path(__file__)}:DryYardPassOffered", "--rules",
                 str(dry_yard), "--games", "12", "--seed", "1", "--out",
                 str(tmp_path / "out"), "--json"])
    report = json.loads(capsys.readouterr().out)
    signatures = [f["signature"] for f in report["findings"]]
    assert code == 1 and signatures, report["findings"]
    assert all(s in ("allows pass (TURN-1)", "allows pass (TURN-3)") for s in signatures), (
        signatures)


def test_a_dry_situation_with_a_tile_just_drawn_lists_turn_3() -> None:
    """A table of an empty boneyard where the mover drew its last tile: a pass offered
    beside that tile is charged to TURN-3 (move_charges.drawn_refusal), so the situation
    lists it, as the drawn kind's do; drawbar's play-dry-045 was charged TURN-3 while
    listing TRAIN-2, TRAIN-4, TURN-1 and TURN-4 alone. A dry table without one does not."""
    rs = catalog().rules_file(str(DRAWBAR_RULES))
    dry = situations(rs, 700, wanted=lambda fid: fid.startswith("play-dry-"))
    drawn = [fx for fx in dry if (fx.table or {}).get("drawn")]
    plain = [fx for fx in dry if not (fx.table or {}).get("drawn")]
    assert drawn and plain, [fx.id for fx in dry]  # (measured: 70 and 64 of 134)
    assert all("TURN-3" in fx.clauses for fx in drawn), [
        (fx.id, fx.clauses) for fx in drawn if "TURN-3" not in fx.clauses]
    assert not any("TURN-3" in fx.clauses for fx in plain)
