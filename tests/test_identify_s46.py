"""identify must not read a bug as another option's rule of its own (session 46): a table
a known value never has says nothing of what an engine answers on it, so neither that
value nor a rule of one's own standing for it gains a failure there."""

from __future__ import annotations

import pytest
import z3
from calibration import Served

from mtrain.conformance.adapter import IMPOSSIBLE, JSON
from mtrain.conformance.fixture import FIXTURE_ROOT, load_corpus
from mtrain.conformance.identify import identify
from mtrain.conformance.identify.cells import ANY, Piece, _outcomes
from mtrain.conformance.identify.found import Observation
from mtrain.conformance.identify.shared import PLAYED_ON_LAPS, never_ends, shared_failure
from mtrain.conformance.identify.solve import Model, constraint, lacks_table
from mtrain.conformance.mutants.catalogue import MUTANTS
from mtrain.conformance.traced import Run
from mtrain.spec.catalog import catalog
from mtrain.spec.ruleset import OTHER
from mtrain.spec.scope import Space

CAT = catalog()


def test_a_situation_the_rules_cannot_hold_is_any_answer_whether_it_fails_or_errs() -> None:
    # a round's end asked after a step (`play 8-8 on 0`) under open doubles, its trains
    # ending in doubles no open double names: the reference's step raises, and the run's
    # outcome is `error`, not `fail`, with the same impossible-state message. interlock's
    # end situations made under ordinary doubles were read as evidence against open
    # (the engine answered them, its dry siding releasing those doubles), and
    # `doubles: ordinary` won the rivals that name its uncoverable double's nearest value
    said = (f"{IMPOSSIBLE}: INV-OPEN-DOUBLES open doubles listed on trains [], trains "
            "ending in a double: [1, mexican]",)
    run = Run({}, ("error", "fail", "error"), (), (said, said, ("a crash",)))
    assert _outcomes(run) == (ANY, ANY, "error")
    # the corpus's own pieces too: an impossible table has no play to keep (cells.py,
    # _outcomes; tests/test_house47b.py)
    assert _outcomes(run, impossible=False) == (ANY, ANY, "error")


# play-drawn-002@0.1 as interlock met it: a drawn tile's table under open doubles (the
# tile after the double anywhere or restricted passes, cover-own fails), which no rule
# set of ordinary doubles has (ANY there); single-round refuses its round
DRAWN = [Piece({"doubles": frozenset({"open"}), "follow_up": frozenset({f}),
                "match_length": frozenset({"full"})}, (out,), ("doubles", "follow_up"))
         for f, out in (("anywhere", "pass"), ("restricted", "pass"), ("cover-own", "fail"))]
DRAWN += [Piece({"doubles": frozenset({"open"}), "match_length": frozenset({"single-round"})},
                ("fail",), ("doubles", "match_length")),
          Piece({"doubles": frozenset({"ordinary"}), "match_length": frozenset({"full"})},
                (ANY,), ("doubles", "match_length")),
          Piece({"doubles": frozenset({"ordinary"}),
                 "match_length": frozenset({"single-round"})}, (ANY,), ("doubles",))]


def test_the_option_whose_value_lacks_a_table_is_the_one_a_neighbour_differs_in() -> None:
    seen = [(0, "fail")]
    ordinary_full = DRAWN[4]
    # ordinary lacks it where open has it; the match's length is not why (both of
    # ordinary's pieces lack it, and single-round's refusal is no table either way)
    assert lacks_table(ordinary_full, DRAWN, seen) == frozenset({"doubles"})
    # a piece with an outcome there lacks nothing
    assert lacks_table(DRAWN[0], DRAWN, seen) == frozenset()
    # nor one whose entry was not seen
    assert lacks_table(ordinary_full, DRAWN, []) == frozenset()


def test_a_failure_on_a_table_one_value_lacks_is_no_rule_of_ones_own_standing_for_it() -> None:
    # interlock's drawn-tile bug (TURN-3) fails that table under open doubles, as it
    # fails tables only ordinary doubles have: `doubles: other`, taking whichever value
    # lacked each table, explained both kinds at once, and was found over the open
    # doubles it declares (signalbox's bug 1 the same: 23 tables read `doubles: other`)
    space = Space(CAT)
    model = Model.of(space)
    escapable = ["doubles", "follow_up", "match_length"]

    def holds(outcome: str, **values: str) -> bool:
        solver = z3.Solver(ctx=model.ctx)
        solver.add(*model.hard)
        c = constraint(model, DRAWN, [outcome], escapable)
        assert c is not None
        solver.add(c, *(model.eq(o, v) for o, v in values.items()))
        return bool(solver.check() == z3.sat)

    # the known value that never has the table is not contradicted by it
    assert holds("fail", doubles="ordinary", match_length="full")
    # a rule of one's own for doubles takes no value's absence of the table
    assert not holds("fail", doubles=OTHER, follow_up="anywhere", match_length="full")
    # it still takes a value whose outcome it is (open's pass), and a rule of its own of
    # the option that tells the table apart may stand for cover-own's failure
    assert holds("pass", doubles=OTHER, follow_up="anywhere", match_length="full")
    assert holds("fail", doubles="open", follow_up=OTHER, match_length="full")


def observation(outcomes: tuple[str | None, ...], by_entry: dict[int, tuple[str, ...]]
                ) -> Observation:
    fx = next(iter(load_corpus(FIXTURE_ROOT / "seats")[0]))
    return Observation(fx, outcomes, by_entry=by_entry)


def test_a_failure_only_shared_clauses_decide_is_told_by_its_charges() -> None:
    # TRAIN-4 and TURN-3 hold under every value of every option (no `when`); DBL-6
    # only under open doubles; a failure charged to nothing is not known to be one
    assert not CAT.clauses["TRAIN-4"].when and CAT.clauses["DBL-6"].when
    assert shared_failure(observation(("fail", "pass"), {0: ("TRAIN-4",)}), CAT)
    assert shared_failure(observation(("fail", "fail"), {0: ("TRAIN-4",), 1: ("TURN-3",)}),
                          CAT)
    assert not shared_failure(observation(("fail", "fail"), {0: ("TRAIN-4",),
                                                             1: ("DBL-6",)}), CAT)
    assert not shared_failure(observation(("fail", None), {}), CAT)  # charged to nothing
    assert not shared_failure(observation(("pass", None), {}), CAT)  # nothing failed
    assert not shared_failure(observation(("fail",), {0: ("INV-ROUND-SCORE",)}), CAT)


# the blocked-never-detected mutant's tables: end-011 and end-012 (one lap of passes
# after nobody could play), score-022 (its scoring at such an end)
PLAYED_ON = ("end-011", "end-012", "score-022")


@pytest.mark.slow  # identify plays an engine over three fixtures, ~1 CPU s
def test_a_round_played_on_where_every_blocked_rule_has_ended_it_is_a_likely_bug() -> None:
    # nobody-can-play (END-2) and full-round-of-passes (END-3) have both ended these
    # rounds blocked; the engine passes on for ever. Its entries were read as evidence
    # on blocked_round and as bugs under scoring (written "or other"), and no line named
    # the clauses: now they are left unread and named once
    fixtures = [fx for fx in load_corpus(FIXTURE_ROOT / "round-end")[0]
                + load_corpus(FIXTURE_ROOT / "scoring")[0] if fx.id in PLAYED_ON]
    assert len(fixtures) == len(PLAYED_ON)
    found = identify(Served(CAT.ruleset("pagat"), bug=MUTANTS["blocked-never-detected"]),
                     fixtures)
    named = [p for p in found.problems if p.endswith("[END-2, END-3]")]
    assert len(named) == 1 and all(fid in named[0] for fid in PLAYED_ON), found.problems
    assert found.unexplained == []
    scoring = found.finding("scoring")
    assert (scoring.value, scoring.status, OTHER in scoring.alternatives) != (
        "penalty", "likely", True)
    assert found.finding("blocked_round").status != "contradicted"


class Laps:
    """An engine at a blocked table offering only a pass, whose round ends (or not)
    after `laps` laps of passes: the protocol calls never_ends makes, and no more."""

    def __init__(self, laps: int | None) -> None:
        self.laps, self.passed = laps, 0

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        return [{"type": "pass"}]

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        self.passed += 1
        over = self.laps is not None and self.passed >= self.laps * len(state["hands"])
        return {**state, "phase": "over" if over else "play"}


def test_a_round_ended_laps_later_is_a_rule_of_ones_own_one_never_ended_is_not() -> None:
    # viaduct's round is blocked after two laps of passes (`blocked_round: other`): at
    # the end of one lap it plays on, as the mutant does, but its round ends
    table = {"hands": [["1-2"], ["3-4"], ["5-6"]], "phase": "play"}
    assert not never_ends({}, table, Laps(2))  # type: ignore[arg-type]
    assert not never_ends({}, table, Laps(PLAYED_ON_LAPS))  # type: ignore[arg-type]
    never = Laps(None)
    assert never_ends({}, table, never)  # type: ignore[arg-type]
    assert never.passed == PLAYED_ON_LAPS * 3
