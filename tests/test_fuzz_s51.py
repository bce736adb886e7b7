"""Session 51's charges and cuts where house rules live: a double of an earlier turn
judged under a doubles rule of one's own only where the implementation's own rule keeps
such a double open (conformance/double_alone.py); the totals a round carries (MATCH-1)
said once, as the reference's step invariant; a blocked round scored by differences
charged to who scores what, not to a tile's value."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mtrain.cli import main
from mtrain.conformance.adapter import JSON
from mtrain.conformance.attribution import Referee
from mtrain.conformance.double_alone import UNHELD, before_laid
from mtrain.conformance.fixture import FIXTURE_ROOT, load_file
from mtrain.conformance.mutants import MUTANTS
from mtrain.conformance.mutants.implementation import CheckedMutant
from mtrain.conformance.reference_adapter import ReferenceImplementation
from mtrain.conformance.runner import resolve, run_one
from mtrain.conformance.score_charges import _values_only
from mtrain.reference.engine import carried
from mtrain.reference.invariants import carried_totals

# --- a double of an earlier turn under a doubles rule of one's own -----------------------

MEXICAN_DOUBLE = """\
- id: fzs51-duty-001
  description: "An earlier double open on the Mexican; seat 1 holds a cover and a tile for its own"
  clauses: [DBL-6]
  source: [pagat, puremco, decision]
  note: >-
    Seat 0 laid [8-8] on the Mexican Train on an earlier turn and it is still open. Seat 1
    holds [8-2], which covers it, and [4-1], which fits its own train (ending 4). While a
    double of an earlier turn is open the player to move may play only by covering it
    (DBL-6): [8-2] on the Mexican Train is the one legal action, [4-1] on its own train
    is refused.
  table:
    engine: 9
    seat: 1
    starter: 0
    hands:
      0: [3-3]
      1: [8-2, 4-1]
      2: [6-0]
    trains:
      0: [9-5]
      1: [9-4]
      2: [9-7]
      mexican: [9-8, 8-8]
    marked: [0]
    open_doubles: [mexican]
    first_turns: []
  expect:
    - variants: [puremco-d9]
      when:
        tile_set: [double-9]
        doubles: [open]
        uncoverable_double: [stays-open, released, released-when-boneyard-empty]
      legal: [play 8-2 on mexican]
      refused:
        play 4-1 on 1: DBL-6
"""
"""Worked by hand (the note)."""

FLAT_MEXICAN = """\
name: flat-mexican
base: puremco-d9
options:
  doubles: other
"""
"""hopper's "flat Mexican" (tests/examples/js/hopper_engine.js) as a rule set: a double on
the Mexican Train an ordinary tile, elsewhere open, which no known value describes."""


def _flat(state: JSON) -> JSON:
    """`state` with a double of an earlier turn open on the Mexican Train made an ordinary
    tile, for the reference to list the legal actions: the reference refuses a train
    ending in a double not listed open, so the double is moved to the boneyard's end (the
    Mexican Train's end is the same number; the boneyard, not empty in these tests, still
    lets a player draw, and its first tile is unchanged)."""
    if "mexican" not in state["open_doubles"] or "mexican" in state["turn_doubles"]:
        return state
    tiles = state["mexican"]["tiles"]
    return {**state, "open_doubles": [t for t in state["open_doubles"] if t != "mexican"],
            "mexican": {**state["mexican"], "tiles": tiles[:-1]},
            "boneyard": [*state["boneyard"], tiles[-1]]}


class FlatMexican(ReferenceImplementation):
    """The reference, but a double on the Mexican Train is an ordinary tile: one listed
    open binds nobody, and one laid there is not listed open (hopper's rule, as far as
    these tests ask: nothing is played after it)."""

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        return super().legal(ruleset, _flat(state))

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        after = super().apply(ruleset, state, action)
        if action["type"] == "play" and action["train"] == "mexican":
            after["open_doubles"] = [t for t in after["open_doubles"] if t != "mexican"]
            after["turn_doubles"] = [t for t in after["turn_doubles"] if t != "mexican"]
        return after


class EscapesMexican(ReferenceImplementation):
    """The reference, which keeps every double open, but a double open on the Mexican
    Train binds nobody: its duty ignored (tandem's bug 2, DBL-6, in kind)."""

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        return super().legal(ruleset, _flat(state))


class Honest(ReferenceImplementation):
    """The reference as it is, for the control."""


def _duty(tmp_path: Path, adapter: str) -> dict[str, Any]:
    (tmp_path / "duty.yaml").write_text(MEXICAN_DOUBLE, encoding="utf-8")
    (tmp_path / "rules.yaml").write_text(FLAT_MEXICAN, encoding="utf-8")
    out = tmp_path / f"{adapter}.json"
    main(["conform", "--adapter", f"{__file__}:{adapter}", "--fixtures",
          str(tmp_path / "duty.yaml"), "--rules", str(tmp_path / "rules.yaml"),
          "--format", "json", "--output", str(out)])
    (result,) = json.loads(out.read_text(encoding="utf-8"))["results"]
    assert isinstance(result, dict)
    return result


def test_a_mexican_double_its_own_rule_never_opens_sets_the_duty_aside(tmp_path: Path) -> None:
    """hopper's flat Mexican answered a table with a Mexican double open as its rule says
    (binding nobody) and was judged by DBL-6 (71 of 1,228 failing): laid again, its state
    lists that double closed, so the duty is no rule of its own."""
    result = _duty(tmp_path, "FlatMexican")
    assert result["status"] == "not-applicable", result
    assert result["messages"][0] == UNHELD
    assert "[8-8] on the Mexican Train" in result["messages"][1]


def test_a_duty_ignored_where_its_own_rule_keeps_the_double_open_still_fails(
        tmp_path: Path) -> None:
    """The same answer from an implementation that lists a double laid there open (its
    own rule keeps it open) is its duty ignored: charged DBL-6 as before."""
    result = _duty(tmp_path, "EscapesMexican")
    assert result["status"] == "fail" and result["charged"] == ["DBL-6"], result
    assert result["messages"] == [
        "legal actions not allowed by the rules: play 4-1 on 1",
        # DBL-6 is the stand-in's rule, not one of those declared (tests/test_fuzz_s53b.py)
        "charged DBL-6, a clause of the reference's stand-in for doubles, not of these "
        "rules, which play it their own way (`other`): their own rule decides here, judged "
        "as DBL-6"]


def test_the_honest_engine_passes_the_duty_under_a_doubles_rule_of_its_own(
        tmp_path: Path) -> None:
    assert _duty(tmp_path, "Honest")["status"] == "pass"


def test_the_table_before_the_double_gives_it_back_to_a_player_who_may_lay_it() -> None:
    state: JSON = {"seat": 1, "phase": "start", "hands": [["3-3"], ["8-2"]], "drawn": "8-2",
                 "trains": [{"tiles": ["9-5", "5-5"], "end": 5, "marker": True},
                            {"tiles": ["9-4"], "end": 4, "marker": False}],
                 "mexican": {"tiles": ["9-8", "8-8"], "end": 8},
                 "open_doubles": [0, "mexican"], "turn_doubles": [], "first_turns": [1],
                 "passes": 1}
    made = before_laid(state, 0, "5-5")
    assert made is not None
    probe, action = made
    assert action == {"type": "play", "tile": "5-5", "train": 0}
    assert probe["seat"] == 0 and probe["hands"][0] == ["3-3", "5-5"]  # the owner's turn
    assert probe["trains"][0]["tiles"] == ["9-5"] and probe["trains"][0]["end"] == 5
    assert probe["open_doubles"] == [] and probe["first_turns"] == [] and probe["drawn"] is None
    assert state["trains"][0]["tiles"] == ["9-5", "5-5"]  # the table asked about is kept
    mexican = before_laid(state, "mexican", "8-8")
    assert mexican is not None and mexican[0]["seat"] == 1  # anyone's train: the mover's
    assert mexican[0]["mexican"]["tiles"] == ["9-8"] and mexican[0]["hands"][1] == ["8-2", "8-8"]


# --- MATCH-1 said once: the reference's step invariant ------------------------------------

def test_the_totals_carried_across_a_round_are_the_references_step_invariant() -> None:
    """The totals after a round are those before it plus its round scores, whatever those
    are: one check (invariants.carried_totals) that the engine's own adding (carried)
    answers, asked by conform under a scoring of one's own and by the charges alike."""
    assert carried([10, 5], [20, 0]) == [30, 5]
    assert carried_totals([10, 5], [20, 0], [30, 5]) == []
    ((clause, message),) = carried_totals([10, 5], [20, 0], [10, 5])
    assert clause == "MATCH-1" and message.endswith("plus its scores [20, 0]: [30, 5]")
    # the charges: a total not carried is MATCH-1's, whatever the round scores
    assert not Referee._adds_up([10, 5], [10, 5], {"result": {"scores": [20, 0]}})
    assert Referee._adds_up([10, 5], [31, 5], {"result": {"scores": [21, 0]}})


# --- a blocked round scored by differences: who scores what, not a tile's value ----------

def test_every_hand_off_by_one_amount_is_who_scores_what_not_a_tiles_value() -> None:
    """A blocked round scored as the differences from the lowest hand (the mutant
    mut21-blocked-scores-differences) takes that hand's value from every scoring hand:
    charged SCORE-1 before, as a tile valued wrongly. A tile is in the hands that hold it
    alone; every scoring seat short by the value of a hand the rules score nothing (the
    lowest, SCORE-7) is who scores what."""
    three = "a blocked round: round scores [0, 25, 62], the hands left give [0, 30, 67]"
    assert not _values_only(three, unscored=(5,))
    one = "a blocked round: round scores [0, 828, 0], the hands left give [0, 848, 0]"
    assert not _values_only(one, unscored=(20, 0))
    # short by another amount, or with nothing to read it by: a tile's value, as before
    # (two hands each holding one tile valued wrongly are short alike)
    assert _values_only(three, unscored=(7,)) and _values_only(three)
    assert _values_only(one, unscored=(0, 7)) and _values_only(one)
    # a tile's value still: one seat off, another right (session 50's twelve as ten)
    assert _values_only("a round gone out: round scores [0, 26, 8], the hands left give "
                        "[0, 28, 8]", went_out=0)


def test_the_blocked_round_scored_by_differences_is_charged_to_its_scoring_rule() -> None:
    """The mutant on the two tables its reading names (s50-blocked-001, three hands;
    score-021, one hand scoring): SCORE-7, the rule of a blocked round's scores."""
    mutant = CheckedMutant(MUTANTS["mut21-blocked-scores-differences"].implementation())
    fixtures = {fx.id: fx for path in ("match/house-rules-session50.yaml",
                                       "scoring/blocked-winner.yaml")
                for fx in load_file(str(FIXTURE_ROOT / path))}
    for fid, variant in (("s50-blocked-001", "pagat+celko-double-6+blocked-winner"),
                         ("score-021", "pagat+blocked-winner")):
        fx = fixtures[fid]
        exp = next(e for v, e in fx.rulesets() if v == variant)
        out = run_one(fx, resolve(variant), exp, mutant)
        assert out.status == "fail" and out.charged == ["SCORE-7"], (fid, out)
