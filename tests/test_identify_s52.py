"""identify asks round ends from raised running totals where the match length is weak
(session 52, sleeper): a match that ends once a total reaches a cap of its own (sleeper's
first to 200 points on a double-15 box) never shows it on tables whose totals are 0 or
small, and was written `full` (likely, a large margin). Round ends of rounds before the
last, started from totals up to a thousand, leave the match going under every known
value (MATCH-1) and let the engine's own answer show where it ends it; a match going on
then shows `full` only past where the engine ended one. And a tie given to the highest
tied seat (waybill's bug 3, sixes' house rule) breaks no clause the tie rules share."""

from __future__ import annotations

import random
import sys
from pathlib import Path

from mtrain.conformance.fixture import Expectation, Fixture, load_file
from mtrain.conformance.identify import pins, shared
from mtrain.conformance.identify.cells import Piece
from mtrain.conformance.identify.found import Observation, OptionFinding
from mtrain.conformance.identify.from_play import _situations
from mtrain.conformance.identify.measure import Deals
from mtrain.conformance.identify.observe import observe
from mtrain.conformance.process import ProcessImplementation
from mtrain.conformance.situations import raised_totals
from mtrain.spec.catalog import catalog
from mtrain.spec.ruleset import CUSTOM
from mtrain.spec.scope import Scope, Space

SPACE = Space()
SLEEPER = Path(__file__).parent / "examples" / "sleeper_engine.py"
FIXTURES = Path(__file__).parent.parent / "conformance" / "fixtures"
SLEEPER_TABLE = ((4, 15), (5, 13), (6, 12), (7, 11), (8, 10))
"""sleeper's hand table, as identify measures it (its docstring)."""
MEASURED = {"tile_set": frozenset({"double-15"}), "hand_sizes": frozenset({CUSTOM}),
            "engine_procedure": frozenset({"set-aside"}),
            "starting_seat": frozenset({"rotate"})}
VALUES = {**dict(catalog().ruleset("pagat").choices), "tile_set": "double-15",
          "hand_sizes": CUSTOM, "engine_procedure": "set-aside", "starting_seat": "rotate"}
"""An answer of pagat's rules on sleeper's measured set, table, procedure and start."""


def asked(weak: list[str]) -> tuple[list[Fixture], dict[str, list[Piece]]]:
    """The situations asked of VALUES with `weak` left weak (each with its next value as
    the rival), and their pieces."""
    findings = [OptionFinding(o, v, "likely", 1, [],
                              [next(x for x in SPACE.options[o] if x != v)])
                for o, v in VALUES.items() if len(SPACE.options[o]) > 1]
    parts: dict[str, list[Piece]] = {}
    out = _situations(SPACE, findings, VALUES, weak, Deals(), SLEEPER_TABLE, MEASURED, parts)
    return out, parts


def test_a_weak_match_length_asks_round_ends_from_raised_totals_and_sleeper_ends_there(
        ) -> None:
    """With match_length alone weak, round ends are asked under the answer; some start
    from totals one round can take past 200 and still expect the match to go on (the
    answer's `full`, MATCH-1). Played on sleeper, those it ends are over early
    (shared.over_early: what shared.own_match reads as a match of its own), and each
    one it ends holds a total that its round took to 200 or more (its docstring's
    rule, checked on its own state, not on ours)."""
    out, _ = asked(["match_length"])
    ends = [fx for fx in out if fx.id.startswith("play-end-") and fx.id.endswith(".0")]
    raised = [fx for fx in ends if fx.table and "scores" in fx.table]
    assert raised, [fx.id for fx in out]
    assert all(fx.expect[0].match_over is False and "MATCH-1" in fx.clauses
               for fx in raised)
    plain, _ = SPACE.catalog_form(VALUES)
    sent = SPACE.cat.from_values(plain, "answer", SLEEPER_TABLE)
    with ProcessImplementation([sys.executable, str(SLEEPER)]) as impl:
        seen = observe(ends, impl, sent)
    early = {o.fixture.id for o in seen if o.over_early}
    # ended only where the totals were raised: never from totals of 0, one round's scores
    assert early and early <= {fx.id for fx in raised}, early


def test_raised_totals_stay_within_what_the_rounds_before_could_give() -> None:
    """Round 2 of a double-6 match: no seat above one round's most (the set's 168 pips);
    a later round of a double-15 set reaches the hundreds; someone leads."""
    rules = catalog().ruleset("pagat")
    six = catalog().from_values({**dict(rules.choices), "tile_set": "double-6",
                                "hand_sizes": "celko-d6"}, "six")
    rng = random.Random(1)
    for _ in range(50):
        got = raised_totals(rng, 2, 4, six)
        assert len(got) == 4 and all(0 <= t <= 168 for t in got)
    fifteen = catalog().from_values({**dict(rules.choices), "tile_set": "double-15",
                                     "hand_sizes": "celko-d15"}, "fifteen")
    leaders = [max(raised_totals(rng, 9, 5, fifteen)) for _ in range(50)]
    assert min(leaders) >= 60 and max(leaders) > 200


def ended_at(fid: str, round_no: int, totals: list[int], early: bool) -> Observation:
    """An observation of a round's end at round `round_no` from `totals`, the match
    ended there by the engine (`early`) or going on, as situations.end_situations writes
    one (its start kept, the round's scores in its entry)."""
    fx = match_goes_on_fixture(fid, round_no, totals)
    return Observation(fx, ("fail" if early else "pass",),
                       over_early=frozenset([0]) if early else frozenset())


def match_goes_on_fixture(fid: str, round_no: int, totals: list[int]) -> Fixture:
    fx = Fixture(id=fid, description="", clauses=("MATCH-1",), source=("computation",),
                 path="", line=None, table={"engine": 6}, deal=None, steps=(),
                 expect=(Expectation(variants=(), scope=Scope(()), match_over=False,
                                     result={"scores": [5, 0]}),))
    fx.keep_starts({"double-6": {"round": round_no, "scores": totals, "outs": [0, 0]}})
    return fx


def test_a_match_going_on_shows_full_only_past_where_the_engine_ended_one() -> None:
    """pins.past_an_early_end: sleeper ended its match after a round that took a total
    to 205; round ends going on from lower totals are what a match to 200 plays and show
    nothing of `full` (they had outnumbered the early ends and `full` was read with
    bugs), one going on from a later round and a higher total does. With no early end,
    every fixture may show the value."""
    seen = [ended_at("ended", 5, [200, 90], True), ended_at("low", 7, [150, 40], False),
            ended_at("earlier", 3, [260, 0], False), ended_at("past", 9, [240, 10], False)]
    past = pins.past_an_early_end(seen)
    assert [past(o.fixture.id) for o in seen] == [True, False, False, True]
    assert not past("never-played")
    going = pins.past_an_early_end(seen[1:])
    assert all(going(o.fixture.id) for o in seen[1:])


def test_winners_on_the_lowest_total_chosen_as_no_known_tie_rule_does_break_no_shared_clause(
        ) -> None:
    """waybill's bug 3 names the highest of the seats level on the lowest total, alone;
    sixes' house rule (tie_rule: other, declared so) names exactly that seat. Winners on
    the winning total break neither MATCH-2 nor anything every tie rule shares, so
    shared.off_the_total leaves them to the tie rule (a rule of the engine's own, or a bug
    in the declared value: the fixtures cannot say which); winners off it are MATCH-2's."""
    fx = next(f for f in load_file(FIXTURES / "match" / "ties-third-extra.yaml")
              if f.id == "tiesx-001")  # seats 1 and 2 level on 122, seat 0 on 130
    exp = fx.expect[0]
    totals = exp.state["scores"]
    assert shared.off_the_total(exp, totals, [2], catalog()) is None
    assert shared.off_the_total(exp, totals, [0], catalog()) == "MATCH-2"
