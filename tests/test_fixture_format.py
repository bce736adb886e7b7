"""The fixture format's refused setups, `match_over` and `next-round` step (issue 11, item 5):
each is checked against the implementation's answers, and an implementation that gets it
wrong fails. Expected values come from the rule text (DEAL-2, DEAL-3, DEAL-7, ENG-1, SEAT-2,
SEAT-3, MATCH-1), worked out in the YAML below; the corpus fixtures using them are
conformance/fixtures/deal/refused.yaml and conformance/fixtures/match/rounds.yaml."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mtrain.conformance.adapter import (
    JSON,
    ReferenceImplementation,
    RefusedSetup,
    ruleset_json,
)
from mtrain.conformance.fixture import Fixture, load_file
from mtrain.conformance.lint import lint
from mtrain.conformance.process import ProcessImplementation
from mtrain.conformance.protocol import ErrorAnswer, check_answer
from mtrain.conformance.runner import Outcome, resolve, run_fixture, run_one
from mtrain.conformance.serve import Server
from mtrain.spec.yamlload import SpecErrors

NINE = """
- id: nine-001
  description: Nine players
  clauses: [DEAL-7, DEAL-2]
  source: [pagat, puremco, decision]
  deal: {players: 9}
  expect:
    - variants: [puremco]
      refused_setup: DEAL-7
    - variants: [pagat]
      state:
        hand_sizes: [8, 8, 8, 8, 8, 8, 8, 8, 8]
"""

# Round 1 (engine [12-12]) of three players: seat 0 lays its last tile, [5-3], on its own
# train and goes out; seats 1 and 2 keep 22 and 16 pips (SCORE-5). A double-12 match has
# 13 rounds (MATCH-1), so it goes on. Dealt from the pool in descending order, round 2's
# engine [11-11] is the 14th tile, in seat 0's hand under pagat (15 each, DEAL-2): seat 0
# places it and starts (SEAT-2); where the start rotates, round 2 starts at seat 1 (SEAT-3).
ROUNDS = """
- id: rounds-901
  description: Round 1 ends, round 2 is dealt
  clauses: [MATCH-1, SEAT-2, SEAT-3]
  source: [pagat, puremco]
  table:
    hands: {0: [5-3], 1: [9-8, 3-2], 2: [7-7, 1-1]}
    trains: {0: [12-5], 1: [12-4], 2: [12-8], mexican: [12-6]}
  steps: [play 5-3 on 0%s]
  expect:
    - variants: [pagat]
      %s
"""


def fixture(text: str) -> Fixture:
    (fx,) = load_file("format.yaml", text)
    return fx


def rounds(step: str, expect: str) -> Fixture:
    return fixture(ROUNDS % (step, expect))


def outcomes(fx: Fixture, impl: Any, **kw: Any) -> dict[str, Outcome]:
    return {o.variant: o for o in run_fixture(fx, impl, **kw)}


# --- refused_setup -------------------------------------------------------------------


class DealsAnything(ReferenceImplementation):
    """Deals 9 players under puremco with 8 tiles each, by pagat's table: refuses nothing."""

    def deal(self, ruleset: JSON, players: int, round: int, order: list[str],
             draw: list[list[str]] | None = None) -> JSON:
        if str(players) not in ruleset["hand_sizes"]:  # puremco's pool: the engine aside
            ruleset = resolve_json("pagat+engine-aside")
        return super().deal(ruleset, players, round, order, draw)


class RefusesBy(ReferenceImplementation):
    """Refuses every deal of 5 players or more, naming `clause`."""

    def __init__(self, clause: str | None) -> None:
        super().__init__()
        self.clause = clause

    def deal(self, ruleset: JSON, players: int, round: int, order: list[str],
             draw: list[list[str]] | None = None) -> JSON:
        if players > 4:
            raise RefusedSetup(f"no {players}-player game", self.clause)
        return super().deal(ruleset, players, round, order, draw)


def resolve_json(name: str) -> JSON:
    return ruleset_json(resolve(name))


def test_the_reference_refuses_what_the_rules_refuse_and_deals_the_rest() -> None:
    got = outcomes(fixture(NINE), ReferenceImplementation())
    assert {v: o.status for v, o in got.items()} == {"puremco": "pass", "pagat": "pass"}


def test_an_implementation_that_deals_a_refused_setup_fails() -> None:
    got = outcomes(fixture(NINE), DealsAnything())
    assert got["puremco"].status == "fail"
    assert "accepted; the rules refuse it (DEAL-7)" in got["puremco"].message
    assert got["puremco"].charged == ["DEAL-7"]


def test_a_refusal_naming_another_clause_fails_and_one_naming_none_needs_no_clause() -> None:
    fx = fixture(NINE)
    exp = fx.expect[0]
    wrong = run_one(fx, resolve("puremco"), exp, RefusesBy("DEAL-3"))
    assert wrong.status == "fail" and "refused by DEAL-3, expected DEAL-7" in wrong.message
    silent = run_one(fx, resolve("puremco"), exp, RefusesBy(None))
    assert silent.status == "pass" and silent.null_refusals == 1
    strict = run_one(fx, resolve("puremco"), exp, RefusesBy(None), require_clauses=True)
    assert strict.status == "fail"


def test_refusing_a_setup_the_rules_allow_fails() -> None:
    got = outcomes(fixture(NINE), RefusesBy("DEAL-7"))
    assert got["pagat"].status == "fail"
    assert "refused the setup" in got["pagat"].message and "the rules allow it" in \
        got["pagat"].message


class AllowsEveryTable(ReferenceImplementation):
    """Plays a table of any number of seats: never refuses one (DEAL-7 ignored)."""

    def state(self, ruleset: JSON, state: JSON) -> Any:
        from mtrain.reference import codec

        return codec.state_from_json(self.rules(ruleset), state)


def test_a_table_the_rule_set_cannot_have_is_refused_when_first_asked() -> None:
    fx = next(f for f in corpus("deal/refused.yaml") if f.id == "refused-002")
    assert outcomes(fx, ReferenceImplementation(), variants=["puremco-d9"])[
        "puremco-d9"].status == "pass"
    lax = outcomes(fx, AllowsEveryTable(), variants=["puremco-d9"])["puremco-d9"]
    assert lax.status == "fail" and "accepted" in lax.message


def corpus(path: str) -> list[Fixture]:
    root = Path(__file__).parent.parent / "conformance" / "fixtures"
    return load_file(root / path)


def test_a_refused_setup_entry_checks_nothing_else() -> None:
    text = NINE.replace("      refused_setup: DEAL-7\n",
                        "      refused_setup: DEAL-7\n      state: {phase: start}\n")
    with pytest.raises(SpecErrors, match="checks nothing else"):
        fixture(text)


def test_lint_accepts_a_refused_setup_it_would_reject_as_a_start(tmp_path: Path) -> None:
    (tmp_path / "nine.yaml").write_text(NINE)
    assert lint(tmp_path).errors == []
    (tmp_path / "nine.yaml").write_text(NINE.replace("refused_setup: DEAL-7",
                                                     "state: {phase: start}"))
    assert any("no hand size for 9 players" in e for e in lint(tmp_path).errors)


def test_the_protocol_carries_a_refused_setup_as_an_error_with_its_clause() -> None:
    server = Server()
    answer, _ = server.handle(json.dumps({"id": 1, "type": "deal", "players": 9, "round": 1,
                                          "ruleset": resolve_json("puremco"), "order": []}))
    assert answer["ok"] is False
    assert answer["error"]["kind"] == "refused-setup"
    assert answer["error"]["clause"] == "DEAL-7"
    assert answer["error"]["message"].startswith("no hand size for 9 players: the hand-size "
                                                "table (hand_sizes=puremco-d12) lists 2, 3")
    with pytest.raises(ErrorAnswer) as err:
        check_answer("deal", 1, answer)
    assert err.value.kind == "refused-setup"


def test_the_process_harness_raises_a_refused_setup_for_that_error() -> None:
    impl = ProcessImplementation("mtrain serve")
    try:
        with pytest.raises(RefusedSetup) as err:
            impl.deal(resolve_json("puremco"), 9, 1, [])
    finally:
        impl.close()
    assert err.value.clause == "DEAL-7"


# --- match_over ----------------------------------------------------------------------


class LeadersAlways(ReferenceImplementation):
    """Names the leaders on the totals so far whether or not the match is over."""

    def winners(self, ruleset: JSON, state: JSON) -> list[int]:
        from mtrain.reference.deal import match_winners

        return match_winners(self.state(ruleset, state))


def test_match_over_false_is_asked_of_the_implementation() -> None:
    fx = rounds("", "match_over: false")
    assert outcomes(fx, ReferenceImplementation())["pagat"].status == "pass"
    wrong = outcomes(fx, LeadersAlways())["pagat"]
    assert wrong.status == "fail" and "the match should go on" in wrong.message
    assert wrong.charged == ["MATCH-1"]


def test_match_over_true_fails_while_rounds_remain() -> None:
    got = outcomes(rounds("", "match_over: true"), ReferenceImplementation())["pagat"]
    assert got.status == "fail" and "should be over" in got.message


# --- next-round ----------------------------------------------------------------------


NEXT = "state: {engine: 11, seat: 0, starter: 0, scores: [0, 22, 16], outs: [1, 0, 0]}"


class SameEngine(ReferenceImplementation):
    """Deals every round with the set's highest double as its engine (ENG-1 ignored)."""

    def deal(self, ruleset: JSON, players: int, round: int, order: list[str],
             draw: list[list[str]] | None = None) -> JSON:
        return super().deal(ruleset, players, 1, sorted(order), draw)


class AlwaysRotates(ReferenceImplementation):
    """Starts round r at seat (r - 1) mod n whoever holds the engine (SEAT-2 ignored)."""

    def deal(self, ruleset: JSON, players: int, round: int, order: list[str],
             draw: list[list[str]] | None = None) -> JSON:
        state = super().deal(ruleset, players, round, order, draw)
        if state["phase"] == "start":
            state["seat"] = state["starter"] = (round - 1) % players
        return state


def test_next_round_deals_the_next_engine_and_starter_and_carries_the_totals() -> None:
    fx = rounds(", next-round reversed", NEXT)
    assert fx.steps[-1] == "next-round reversed"
    assert outcomes(fx, ReferenceImplementation())["pagat"].status == "pass"


@pytest.mark.parametrize(("impl", "wrong", "clause"), [(SameEngine(), "engine", "ENG-1"),
                                                       (AlwaysRotates(), "seat", "SEAT-2")])
def test_an_implementation_that_deals_the_next_round_wrong_fails(impl: Any, wrong: str,
                                                                 clause: str) -> None:
    got = outcomes(rounds(", next-round reversed", NEXT), impl)["pagat"]
    assert got.status == "fail" and f"{wrong}: expected" in got.message
    assert got.charged == [clause]  # the deal of the next round is blamed, by its clause


def test_the_next_round_is_dealt_with_the_fixtures_draw_only_under_highest_draw() -> None:
    """SEAT-5: the draw goes with every round's deal. Seat 1 of 2 won it ([2-2] 4 to
    [3-0] 3), so round 2 starts at (1 + 2 - 1) mod 2 = 0; a rule set that does not play
    highest-draw is not sent it (AlwaysRotates takes no draw) and starts at seat 1."""
    from mtrain.conformance.runner import next_round_deal
    from mtrain.spec.catalog import catalog

    rs = catalog().ruleset("puremco-d9+highest-draw-start")
    rj = ruleset_json(rs)
    order = [f"{a}-{b}" for a in range(10) for b in range(a + 1) if (a, b) != (9, 9)]
    over = {**ReferenceImplementation().deal(rj, 2, 1, order, draw=[["3-0"], ["2-2"]]),
            "result": {"end": "domino", "winner": 0, "scores": [0, 5]}}
    dealt = next_round_deal(ReferenceImplementation(), rj, rs, over, "next-round",
                            [["3-0"], ["2-2"]])
    assert (dealt["round"], dealt["starter"], dealt["scores"]) == (2, 0, over["scores"])
    plain = catalog().ruleset("puremco-d9")
    dealt = next_round_deal(AlwaysRotates(), ruleset_json(plain), plain, over, "next-round",
                            [["3-0"], ["2-2"]])
    assert dealt["starter"] == 1


def test_next_round_before_the_round_is_over_fails() -> None:
    fx = fixture(ROUNDS.replace("[5-3], 1:", "[5-3, 2-2], 1:") % (", next-round", NEXT))
    got = outcomes(fx, ReferenceImplementation())["pagat"]
    assert got.status == "fail" and "the round is not over" in got.message


def test_next_round_after_the_last_round_is_a_fixture_error() -> None:
    last = ROUNDS.replace("12-", "0-").replace("  table:\n", "  table:\n    engine: 0\n")
    fx = fixture(last % (", next-round", "match_over: true"))
    got = outcomes(fx, ReferenceImplementation())["pagat"]
    assert got.status == "error" and "MATCH-1" in got.message


def test_a_step_that_is_neither_an_action_nor_next_round_does_not_load() -> None:
    with pytest.raises(SpecErrors):
        rounds(", next-round sideways", NEXT)


def test_a_match_that_goes_on_has_no_winners_to_expect() -> None:
    with pytest.raises(SpecErrors, match="a match that goes on has no winners"):
        rounds("", "match_over: false\n      winners: [0]")
