"""Faults the 39th example engine showed the suite (tests/examples/rust/ballbridge.rs, a
tournament site's rules core in Rust on double-13, or double-12 with --set=12, a hand-size
table of its own, three house rules and three planted bugs written in its header before
any run).

- conform ran the entries bracket_alone.py lets in under `follow_up: other` (both ends of
  the known follow-ups give the entry's answer) for a follow-up that lies outside that
  bracket: ballbridge's "hand it on" never covers the double just laid, which every known
  follow-up allows, and 14 of its results failed with its bugs off (11 charged to DBL-2,
  3 to TURN-3). The implementation is now asked (follow_probe.py): refusing that cover, a
  failure of the follow-up's moment is not applicable.
- identify read the same fixtures as bugs: the engine refused the cover where every known
  follow-up allows it, and a follow-up of one's own explained only where the known values
  differ (bracket_alone.BRACKETS), so the fixtures showed `doubles: ordinary` instead
  (end-005, turn-027: doubles "contradicted", the declared open doubles doubted). Seen
  refusing that cover (Observation.uncovered), the follow-up is no longer held to its
  bracket there.
"""

from __future__ import annotations

import argparse
import copy
from pathlib import Path

import z3

from mtrain.conformance.adapter import JSON, ReferenceImplementation
from mtrain.conformance.follow_probe import OUTSIDE, covering_play, outside_bracket
from mtrain.conformance.identify.cells import Piece
from mtrain.conformance.identify.observe import observe
from mtrain.conformance.identify.solve import NO_OTHER, Model, constraint
from mtrain.conformance.interface import Refused
from mtrain.conformance.pool import Runner, run_tasks
from mtrain.conformance.report import Result
from mtrain.conformance.runner import Outcome
from mtrain.conformance.selection import load_fixtures, select
from mtrain.conformance.target import Target
from mtrain.spec.catalog import catalog
from mtrain.spec.ruleset import OTHER, Ruleset
from mtrain.spec.scope import Space

# end-005 of conformance/fixtures/round-end/going-out.yaml: the follow-up covers the double
# just laid with the layer's last tile, the same under every known follow-up (its scope
# names none), so bracket_alone runs it under a follow-up of one's own.
COVER_OUT = """\
- id: hand-on-001
  description: "A double and then its cover as the last tile: the player goes out on the follow-up"
  clauses: [END-1, DBL-1, SCORE-5]
  source: [pagat, puremco]
  note: >-
    Seat 0 lays [4-4] on its own 4 (phase follow) and covers it with [4-1], its last tile.
    Scores: 0; 12+8 = 20; 10+1 = 11.
  table:
    engine: 9
    hands:
      0: [4-4, 4-1]
      1: [6-6, 5-3]
      2: [8-2, 1-0]
    trains:
      0: [9-4]
      1: [9-6]
      2: [9-2]
      mexican: [9-7]
  steps: [play 4-4 on 0, play 4-1 on 0]
  expect:
    - variants: [pagat, puremco, puremco-d9]
      when:
        - tile_set: [double-12, double-9, double-10, double-15, double-18]
          doubles: [open]
          scoring: [penalty, penalty-blocked-winner]
          blank_values: [face, double-blank-50, double-blank-25]
          match_length: [full]
        - tile_set: [double-9]
          doubles: [open]
          scoring: [penalty, penalty-blocked-winner]
          blank_values: [face, double-blank-50, double-blank-25]
      result: {end: domino, winner: 0, scores: [0, 20, 11]}
      state:
        phase: over
        trains:
          0: [9-4, 4-4, 4-1]
        turn_doubles: []
"""

OWN_FOLLOW = "name: hand-on\nbase: puremco\noptions:\n  follow_up: other\n"


class HandItOn(ReferenceImplementation):
    """The reference, but the layer of a double never covers it (ballbridge's house rule
    1): a play on a double laid this turn is refused, with no clause (a rule of its own)."""

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        if (state.get("phase") == "follow" and action.get("type") == "play"
                and action.get("train") in (state.get("turn_doubles") or [])):
            raise Refused("the layer of a double hands it on (house rule)")
        return super().apply(ruleset, state, action)


def _run(tmp_path: Path, impl: ReferenceImplementation) -> list[Result]:
    fixture = tmp_path / "cover-out.yaml"
    fixture.write_text(COVER_OUT, encoding="utf-8")
    rules = tmp_path / "rules.yaml"
    rules.write_text(OWN_FOLLOW, encoding="utf-8")
    fixtures, errors = load_fixtures(str(fixture))
    assert not errors
    tasks, _ = select(fixtures, [catalog().rules_file(str(rules))], [])
    args = argparse.Namespace(impl=None, adapter=None, timeout=10.0, fixtures=str(fixture),
                              require_clauses=False, format="text")
    runner = Runner(args, Target(lambda: impl, {}, "hand-on", True), impl.info(), [])
    return run_tasks(tasks, runner, impl, 1)


def test_a_follow_up_refusing_to_cover_the_double_just_laid_is_its_own_rule(
        tmp_path: Path) -> None:
    """Before: `fail`, step 2 refused, charged to DBL-2 (the bracket's entry judged a rule
    outside the bracket). Now not applicable, the probe's refusal quoted."""
    [result] = _run(tmp_path, HandItOn())
    assert result.status == "not-applicable", result.messages
    assert result.messages[0] == OUTSIDE
    assert "[4-1] on train 0" in result.messages[1]
    assert result.charged == ()


def test_an_engine_inside_the_bracket_is_still_judged(tmp_path: Path) -> None:
    """The same entry under the same rules against an engine that covers the double but
    scores the round wrong: the probe sees the cover played, so the failure stands."""

    class MiscountsOut(ReferenceImplementation):
        def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
            new = super().apply(ruleset, state, action)
            if new.get("phase") == "over" and isinstance(new.get("result"), dict):
                new = copy.deepcopy(new)
                new["result"]["scores"][1] += 1  # SCORE-5 broken: a pip too many
                new["scores"][1] += 1
            return new

    [result] = _run(tmp_path, MiscountsOut())
    assert result.status == "fail"
    assert OUTSIDE not in result.messages


def _follow_state() -> JSON:
    """Seat 0 has laid [4-4] on its own train this turn and holds [4-1] and [7-3]."""
    return {"round": 4, "engine": 9, "engine_placed": True, "phase": "follow", "seat": 0,
            "starter": 0, "hands": [["4-1", "7-3"], ["6-6"]], "boneyard": [],
            "trains": [{"tiles": ["9-4", "4-4"], "end": 4, "marker": False},
                       {"tiles": ["9-6"], "end": 6, "marker": False}],
            "mexican": {"tiles": ["9-7"], "end": 7},
            "open_doubles": [0], "turn_doubles": [0], "drawn": None, "first_turns": [],
            "passes": 0, "scores": [0, 0], "outs": [0, 0], "result": None}


def test_the_probe_covers_the_double_just_laid_with_a_tile_that_fits() -> None:
    assert covering_play(_follow_state()) == {"type": "play", "tile": "4-1", "train": 0}
    earlier = _follow_state()
    earlier["open_doubles"] = [1, 0]  # a double of an earlier turn open too: DBL-6 binds
    assert covering_play(earlier) is None
    drawn = _follow_state()
    drawn["drawn"] = "7-3"  # only the drawn tile may be played, and it does not fit
    assert covering_play(drawn) is None


def test_a_failure_charged_beyond_the_follow_up_stands(tmp_path: Path) -> None:
    """A marker bug on a follow-up table is no follow-up rule's, whatever the probe says."""
    rs: Ruleset = catalog().ruleset("puremco")
    own = Ruleset("hand-on", tuple((o, "other" if o == "follow_up" else v)
                                   for o, v in rs.choices), rs.hand_table)
    (tmp_path / "cover-out.yaml").write_text(COVER_OUT, encoding="utf-8")
    [fx], _ = load_fixtures(str(tmp_path / "cover-out.yaml"))
    outcome = Outcome(fx, "hand-on", "fail", ["marked: expected [0], got []"],
                      charged=["MARK-3"], states=[_follow_state()])
    assert outside_bracket(outcome, own, HandItOn(), {}) is None
    outcome.charged = ["DBL-2"]
    assert outside_bracket(outcome, own, HandItOn(), {}) is not None
    assert outside_bracket(outcome, rs, HandItOn(), {}) is None  # a known follow-up


# --- identify: a follow-up seen outside its bracket explains what its values agree on ----


def test_identify_sees_an_engine_refuse_to_cover_the_double_just_laid(tmp_path: Path) -> None:
    (tmp_path / "cover-out.yaml").write_text(COVER_OUT, encoding="utf-8")
    fixtures, _ = load_fixtures(str(tmp_path / "cover-out.yaml"))
    sent = catalog().ruleset("puremco")
    [own] = observe(fixtures, HandItOn(), sent)
    assert own.outcomes == ("fail",) and own.uncovered
    [plain] = observe(fixtures, ReferenceImplementation(), sent)
    assert plain.outcomes == ("pass",) and not plain.uncovered


COVER_PIECES = [Piece({"doubles": frozenset(["open"])}, ("pass",), ("doubles", "follow_up")),
                Piece({"doubles": frozenset(["ordinary"])}, ("fail",), ("doubles",))]
"""end-005's partition, as identify reads it: under open doubles every known follow-up
covers the double just laid and goes out (follow_up read, its values agreeing); under
ordinary doubles the second step is another player's, and the entry fails."""


def _holds(model: Model, c: object, values: dict[str, str]) -> bool:
    solver = z3.Solver(ctx=model.ctx)
    solver.add(*model.hard, c, *(model.eq(o, v) for o, v in values.items()))
    return bool(solver.check() == z3.sat)


def test_a_follow_up_outside_its_bracket_explains_a_refused_cover() -> None:
    """Before: the failed fixture held only under ordinary doubles (ballbridge's open
    doubles "contradicted" by end-005 and turn-027); with the follow-up unbracketed, a
    follow-up of its own under open doubles explains it too."""
    space = Space()
    model = Model.of(space)
    escapable = [o for o in space.options if o not in NO_OTHER]
    answer = {"doubles": "open", "follow_up": OTHER}
    c = constraint(model, COVER_PIECES, ("fail",), escapable,
                   unbracketed=frozenset({"follow_up"}))
    assert _holds(model, c, answer)
    assert not _holds(model, c, {"doubles": "open", "follow_up": "anywhere"})
    bare = constraint(model, COVER_PIECES, ("fail",), escapable)
    assert not _holds(model, bare, answer)
    assert _holds(model, bare, {"doubles": "ordinary"})
