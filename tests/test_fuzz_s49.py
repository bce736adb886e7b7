"""Session 49's conform and fuzz work under rules of one's own: a step's legality traced
apart from what it does, so that an entry whose rule of one's own decides only whether its
steps are moves runs (step_alone.py), its refusal of such a step not applicable; fuzz
asking the score of the heaviest hand a round's end allows (gantry's eight-bit sum); a
reproducer shrunk to show its finding alone (layover's totals, charged MATCH-1)."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path
from typing import Any

import pytest

from mtrain.cli import main
from mtrain.conformance.adapter import JSON, ReferenceImplementation
from mtrain.conformance.fixture import Fixture, load_file
from mtrain.conformance.fuzz import own_rules
from mtrain.conformance.fuzz.asking import Session
from mtrain.conformance.fuzz.judge import Disagreement, Probe
from mtrain.conformance.fuzz.possible import table_problems
from mtrain.conformance.fuzz.results import GameResult
from mtrain.conformance.fuzz.round_end import heaviest
from mtrain.conformance.fuzz.rulesets import context, declared_context
from mtrain.conformance.fuzz.shrink import Shrinker
from mtrain.conformance.fuzz.steps import Position, _their_move, play_step
from mtrain.conformance.fuzz.tables import table_of
from mtrain.conformance.move_charges import allowing, dead_duty, dead_rule
from mtrain.conformance.selection import entry_for
from mtrain.conformance.step_alone import OWN_STEP
from mtrain.conformance.traced import TracedReference, _ask_again, logged_run
from mtrain.reference import codec
from mtrain.reference.deal import deal
from mtrain.reference.engine import DRAW, legal_actions, perform
from mtrain.reference.rules import Rules
from mtrain.spec.catalog import catalog
from mtrain.spec.notation import REST, table_state
from mtrain.spec.scope import Space, values_of

# --- a pass after a drawn tile that fits nowhere, under a draw rule of one's own --------

PASS_AFTER_DRAW = """\
- id: fzs49-pass-001
  description: "A pass after a drawn tile that fits nowhere, tiles left: a marker, no pass counted"
  clauses: [TURN-2, TURN-3, TURN-4, END-3, MARK-1]
  source: [pagat, decision]
  note: >-
    Seat 0 holds [1-1] and [2-3]: its own train ends in 6, the Mexican Train in 9 (the
    other trains are closed to it, unmarked), so it draws (TURN-2) [10-11], which fits
    no open end (TURN-3: only it may be played), and passes (TURN-4): its marker goes up
    (MARK-1), the turn goes to seat 1, and with a tile still in the boneyard the pass is
    not counted (END-3 counts passes on an empty boneyard). Under draw-until-playable the
    pass is refused (TURN-5): the scope names draw-one.
  table:
    engine: 12
    hands:
      0: [1-1, 2-3]
      1: [4-4]
      2: [rest]
    trains:
      0: [12-6]
      1: [12-7]
      2: [12-8]
      mexican: [12-9]
    boneyard: [10-11, 5-5]
    first_turns: []
  steps: [draw, pass]
  expect:
    - variants: [pagat]
      when: {tile_set: [double-12], draw_rule: [draw-one]}
      state: {seat: 1, passes: 0, marked: [0], drawn: null}
- id: fzs49-pass-002
  description: "The same table after the draw: the drawn tile fits nowhere, a pass alone"
  clauses: [TURN-2, TURN-3, TURN-4]
  source: [pagat, decision]
  note: >-
    As fzs49-pass-001, up to the draw: seat 0 holds [10-11] as its drawn tile (TURN-2),
    which fits no open end; under draw-one it may only pass (TURN-3, TURN-4).
  table:
    engine: 12
    hands:
      0: [1-1, 2-3]
      1: [4-4]
      2: [rest]
    trains:
      0: [12-6]
      1: [12-7]
      2: [12-8]
      mexican: [12-9]
    boneyard: [10-11, 5-5]
    first_turns: []
  steps: [draw]
  expect:
    - variants: [pagat]
      when: {tile_set: [double-12], draw_rule: [draw-one]}
      legal: [pass]
      state: {drawn: 10-11}
"""
"""Worked by hand (the notes); `mtrain lint` holds both over the option space."""

OWN_DRAW = """\
name: drawn-anywhere
base: pagat
options:
  draw_rule: other
  blocked_round: full-round-of-passes
"""
"""pagat with a draw rule of its own (trestle's kind: a drawn tile may go further), and a
blocked round after a full round of passes, whose count END-3 keeps."""


def _files(tmp_path: Path) -> tuple[Path, Path]:
    fixtures, rules = tmp_path / "pass.yaml", tmp_path / "drawn-anywhere.yaml"
    fixtures.write_text(PASS_AFTER_DRAW, encoding="utf-8")
    rules.write_text(OWN_DRAW, encoding="utf-8")
    return fixtures, rules


def _fixtures(tmp_path: Path) -> list[Fixture]:
    return load_file(str(_files(tmp_path)[0]))


def test_a_steps_legality_is_traced_apart_from_what_it_does(tmp_path: Path) -> None:
    """Whether the pass after the draw is legal reads the draw rule (TURN-3, TURN-5); what
    the pass does reads it nowhere. The legal set after the draw, a check, reads it too."""
    passed, drawn = _fixtures(tmp_path)
    pagat = catalog().ruleset("pagat")
    values = values_of(catalog(), pagat)
    run, log = logged_run(passed, pagat, list(passed.expect), values)
    assert run.outcomes == ("pass",)
    assert "draw_rule" in log.decides and "draw_rule" not in log.effects
    run, log = logged_run(drawn, pagat, list(drawn.expect), values)
    assert run.outcomes == ("pass",)
    assert "draw_rule" in log.effects


def test_a_run_replayed_from_its_questions_logs_the_legality_as_legality(
        tmp_path: Path) -> None:
    """The memo of runs serves a run from the questions another asked (traced._ask_again):
    a read judging a step's legality is replayed as one, not as deciding what it does."""
    passed, _ = _fixtures(tmp_path)
    pagat = catalog().ruleset("pagat")
    _, log = logged_run(passed, pagat, list(passed.expect), values_of(catalog(), pagat))
    assert any(kind == "legal" for kind, _ in log.asked)
    again = TracedReference(pagat)
    _ask_again(tuple(log.asked), again)
    assert (again.log.decides, again.log.effects) == (log.decides, log.effects)
    assert set(again.log.read) == set(log.read)


def test_an_entry_whose_own_rule_decides_only_a_steps_legality_runs(tmp_path: Path) -> None:
    """Under a draw rule of one's own the pass after the draw runs, knowing its step 2 is
    the draw rule's to allow, and its step 1 too (a first draw by a player with no play:
    draw or pass is the draw rule's, draw_alone.py); the legal set after the draw stays
    not applicable."""
    fixtures, rules = _files(tmp_path)
    passed, drawn = load_file(str(fixtures))
    rs = catalog().rules_file(str(rules))
    exp, why = entry_for(passed, rs, Space())
    assert why is None and exp is not None
    assert exp.own_steps == ((1, ("draw_rule",)), (2, ("draw_rule",)))
    exp, why = entry_for(drawn, rs, Space())
    assert exp is None and why == "its outcome depends on draw_rule (played its own way)"


class EveryPassCounted(ReferenceImplementation):
    """Counts every pass, tiles left to draw or not (trestle's bug 2, END-3)."""

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        new = super().apply(ruleset, state, action)
        if action.get("type") == "pass" and new["passes"] == state["passes"]:
            new = {**new, "passes": new["passes"] + 1}
        return new


class DrawsOn(ReferenceImplementation):
    """Honest, with a draw rule of its own that draws on while the boneyard holds tiles
    (played as draw-until-playable): it refuses the pass after a drawn tile that fits
    nowhere."""

    def rules(self, ruleset: JSON) -> Rules:
        options = {**ruleset["options"], "draw_rule": "draw-until-playable"}
        return super().rules({**ruleset, "options": options})


def _conform(tmp_path: Path, adapter: str) -> dict[str, Any]:
    fixtures, rules = _files(tmp_path)
    out = tmp_path / f"{adapter}.json"
    main(["conform", "--adapter", f"{__file__}:{adapter}", "--fixtures", str(fixtures),
          "-k", "fzs49-pass-001", "--rules", str(rules), "--format", "json",
          "--output", str(out)])
    report: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return report


def test_what_a_step_its_own_rule_allows_does_is_judged(tmp_path: Path) -> None:
    """The pass counted with a tile left to draw fails, charged END-3: the engine played
    the step, whose effects no draw rule decides (trestle's bug 2 went unseen so)."""
    (result,) = _conform(tmp_path, "EveryPassCounted")["results"]
    assert result["status"] == "fail", result
    assert result["charged"] == ["END-3"]
    assert "passes: expected 0, got 1" in "\n".join(result["messages"])


def test_a_step_its_own_rule_refuses_is_not_applicable(tmp_path: Path) -> None:
    (result,) = _conform(tmp_path, "DrawsOn")["results"]
    assert result["status"] == "not-applicable", result
    assert result["messages"][0] == OWN_STEP
    assert "step 2 (draw_rule played its own way)" in result["messages"][1]
    assert "TURN-5" in result["messages"][1]


def test_the_honest_engine_passes(tmp_path: Path) -> None:
    (result,) = _conform(tmp_path, "ReferenceImplementation")["results"]
    assert result["status"] == "pass", result


# --- the score of the heaviest hand a round's end allows --------------------------------


def test_the_heaviest_hand_gathers_every_tile_off_the_trains_but_the_movers() -> None:
    table = {"seat": 1, "hands": {0: ["1-1", "2-2"], 1: ["3-3"], 2: ["4-4", "5-5", "6-6"],
                                  3: ["7-7"]},
             "boneyard": ["8-8", "9-9"]}
    heavy = heaviest(table, 1)
    assert heavy is not None
    # the mover (seat 1) keeps its hand; seats 0 and 3 a tile each; seat 2 the rest
    assert heavy["hands"] == {0: ["1-1"], 1: ["3-3"],
                              2: ["4-4", "5-5", "6-6", "8-8", "9-9", "2-2"], 3: ["7-7"]}
    assert heavy["boneyard"] == []
    assert heaviest({"seat": 0, "hands": {0: ["1-1"], 1: ["2-2"]}, "boneyard": []}, 0) is None


class EightBitScore(ReferenceImplementation):
    """Honest, but a `score` kept in eight bits (gantry's bug 1, SCORE-1): a hand of 256
    pips or more scores its value mod 256."""

    def score(self, ruleset: JSON, state: JSON, winner: int | None) -> list[int]:
        return [s % 256 for s in super().score(ruleset, state, winner)]


@pytest.mark.slow  # plays two games: ~1.4 CPU s
def test_fuzz_asks_the_score_of_the_heaviest_hand_a_round_end_allows(tmp_path: Path) -> None:
    """Random rounds seldom end with a hand of 256 pips (gantry's bug 1 met none in 60
    games); fuzz also asks each round end's score with every tile off the trains in one
    seat's hand, and writes the finding's reproducer."""
    out = tmp_path / "found"
    code = main(["fuzz", "--adapter", f"{__file__}:EightBitScore", "--variant", "pagat",
                 "--games", "2", "--seed", "2", "--out", str(out), "--json"])
    assert code == 1
    written = sorted(out.glob("*.yaml"))
    assert written
    (fx,) = load_file(str(written[0]))
    assert fx.expect[0].result["scores"] and max(fx.expect[0].result["scores"]) >= 256


# --- a reproducer that shows its finding alone ------------------------------------------


class TwoFindings:
    """A judge for the shrinker: `totals` on every table, `tens` wherever a hand holds a
    tile of 12 or the rest of the set (which holds them)."""

    def judge(self, probe: Probe) -> list[Disagreement]:
        assert probe.table is not None
        if table_problems(probe.table, context(probe.variant)):
            return []  # no table to ask about (as rejudge.Judge)
        found = [Disagreement("totals", ("the totals",), clauses=("MATCH-1",))]
        held = [t for h in probe.table["hands"].values() for t in h]
        if any(t == REST or "12" in t.split("-") for t in held):
            found.append(Disagreement("twelves", ("a 12 miscounted",), clauses=("SCORE-1",)))
        return found


def _dealt_table() -> dict[str, Any]:
    """A pagat deal of three, its boneyard drawn into the hands (none left to draw)."""
    ctx = context("pagat")
    state = codec.state_to_json(deal(ctx.rules, 3, 1, seed=7))
    table = table_of(state)
    table["hands"][1] = [*table["hands"][1], *table["boneyard"]]
    table["boneyard"] = []
    return table


def test_a_finding_shown_with_another_is_shrunk_to_show_it_alone() -> None:
    """layover's totals replaced (MATCH-1) were shrunk to a table whose rest, in a hand,
    held its tiles of 10 miscounted too, and the reproducer was charged SCORE-1: the
    shrinker now tries the rest in the boneyard as well and keeps a cut showing the
    finding alone."""
    probe = Probe("legal", "pagat", _dealt_table())
    shrinker = Shrinker(TwoFindings(), probe, "totals", None, 400)  # type: ignore[arg-type]
    best = shrinker.run()
    assert {d.signature for d in TwoFindings().judge(best)} == {"totals"}
    assert best.table is not None and REST in best.table["boneyard"]


# --- a round's end its own rules decide, not what it is worth ---------------------------

class OwnRule(ReferenceImplementation):
    """A house rule of its own where `unchecked`: any move it is asked is carried out;
    else the reference's legality. Its totals right."""

    unchecked = False

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        if not self.unchecked:
            return super().apply(ruleset, state, action)
        st = self.state(ruleset, state)
        perform(st, codec.action_from_json(st, action))
        return codec.state_to_json(st)


class TotalsReplaced(OwnRule):
    """The same, but at a round's end the totals replaced by the round's scores
    (layover's bug 1, MATCH-1)."""

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        out = super().apply(ruleset, state, action)
        if out["phase"] == "over":
            out = {**out, "scores": list(out["result"]["scores"])}
        return out


class Releasing(OwnRule):
    unchecked = True


class ReleasingTotalsReplaced(TotalsReplaced):
    unchecked = True


def _own(option: str, table: dict[str, Any], impl: ReferenceImplementation
         ) -> tuple[Any, Session, Position]:
    """pagat playing `option` its own way; `impl` asked about `table`, totals 5, 7 and 9."""
    base = context("pagat").rs
    ctx = declared_context(dataclasses.replace(base, name=f"own {option}", choices=tuple(
        (o, "other" if o == option else v) for o, v in base.choices)))
    cur = table_state({**table, "scores": [5, 7, 9]}, ctx.rs)
    session = Session(impl)
    session.asker.begin(cur)
    return ctx, session, Position(ctx.name, codec.state_from_json(ctx.rules, cur), cur)


RELEASED = {"engine": 12, "seat": 0, "hands": {0: ["3-9"], 1: ["4-4"], 2: ["rest"]},
            "trains": {0: ["12-6"], 1: ["12-7", "7-7"], 2: ["12-8"], "mexican": ["12-3"]},
            "open_doubles": [1], "boneyard": [], "first_turns": []}
"""Seat 0, holding only [3-9], cannot cover the open [7-7] on train 1: under
`uncoverable_double: other` the stand-in has it pass (DBL-6), its own rule may release the
double and let it go out on the Mexican Train (ending in 3)."""


def _released(impl: ReferenceImplementation) -> GameResult:
    ctx, session, pos = _own("uncoverable_double", RELEASED, impl)
    legal, own = own_rules.on_state(ctx, pos.st, legal_actions)
    out = {"type": "play", "tile": "3-9", "train": "mexican"}
    assert codec.action_from_json(pos.st, out) not in legal and own == ("uncoverable_double",)
    res = GameResult(0, ctx.name)
    _their_move(session, ctx, pos, res, [out], random.Random(0), own, (1, 1))
    return res


def test_a_round_end_only_its_own_rule_makes_a_move_has_its_totals_judged() -> None:
    """The move is the house rule's; what the round it ends is worth is not: seat 1's [4-4]
    scores 8 on its 7 whatever releases the double, 15, and the totals replaced by the
    round's scores are found (no reproducer: the reference refuses the move)."""
    found = _released(ReleasingTotalsReplaced()).found
    assert set(found) == {"round end: scores"}, found
    d = found["round end: scores"][1].disagreement
    assert d.expect["state"]["scores"][:2] == [5, 15] and "MATCH-1" in d.clauses
    assert d.no_reproducer is not None and d.own == ("uncoverable_double",)
    assert not _released(Releasing()).found


MARKED_OUT = {"engine": 12, "seat": 0, "hands": {0: ["6-3"], 1: ["4-4"], 2: ["rest"]},
              "trains": {0: ["12-6"], 1: ["12-7"], 2: ["12-8"], "mexican": ["12-11"]},
              "marked": [0], "boneyard": [], "first_turns": []}
"""Seat 0 goes out on its own marked train: whether the marker comes off is read
(`marker_removal: other`), and the round is over whatever it says."""


def _marked_out(impl: ReferenceImplementation) -> GameResult:
    ctx, session, pos = _own("marker_removal", MARKED_OUT, impl)
    (act,) = legal_actions(pos.st)
    assert own_rules.step(ctx, pos.st, act, perform)[1] == ("marker_removal",)
    res = GameResult(0, ctx.name)
    assert play_step(session, ctx, pos, res, random.Random(0), 1, 1)
    return res


def test_a_round_end_whose_step_reads_its_own_rule_has_its_totals_judged() -> None:
    """The step that ends the round reads the marker rule of its own (left unjudged as a
    whole before, totals with it); what the round is worth reads no rule of its own."""
    found = _marked_out(TotalsReplaced()).found
    assert set(found) == {"round end: scores"}, found
    d = found["round end: scores"][1].disagreement
    assert d.expect["state"]["scores"][:2] == [5, 15] and d.own == ("marker_removal",)
    assert not _marked_out(OwnRule()).found


# --- a draw owed under a double nobody can cover, refused ------------------------------

def _bound(hand: str) -> Any:
    """pagat, seat 0 to move holding `hand`, bound by [7-7] open on train 1 though every
    other 7 is on the Mexican Train (nobody can cover it), one tile in the boneyard."""
    mex = ["12-0", "0-7", "7-1", "1-2", "2-7", "7-3", "3-4", "4-7", "7-5", "5-6", "6-7",
           "7-8", "8-9", "9-7", "7-10", "10-11", "11-7"]
    table = {"engine": 12, "seat": 0, "hands": {0: [hand], 1: ["rest"], 2: ["5-5"]},
             "trains": {0: ["12-6"], 1: ["12-7", "7-7"], 2: ["12-8"], "mexican": mex},
             "open_doubles": [1], "boneyard": ["4-4"], "first_turns": []}
    rules = Rules.of(catalog().ruleset("pagat"))
    return codec.state_from_json(rules, table_state(table, rules.ruleset))


def test_a_draw_owed_whatever_binds_the_dead_double_is_charged_to_the_draw() -> None:
    """dandy refused the draw with one tile left ("the boneyard is empty"), charged DBL-10
    (the double still binds): released, the double would leave it no play either, so the
    draw is owed whatever that rule says (TURN-2). Where the release would leave a play
    (its [6-3] on its own train), the binding rule is charged, as before."""
    nothing = _bound("2-3")
    assert dead_duty(nothing) and allowing(nothing, DRAW) == "TURN-2"
    freed = _bound("6-3")
    assert dead_duty(freed) and allowing(freed, DRAW) == dead_rule(freed)
