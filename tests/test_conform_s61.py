"""Session 61 (conf61): conform judges what a Mexican opening rule of one's own leaves.

Under `mexican_first_turn: other` a fixture whose entry reads that rule was not applicable
whole, though fuzz judged such answers but for the plays opening the empty Mexican Train
(fuzz/own_mexican.py). conform now runs the same cut, from one meaning both read
(conformance/mexican_alone.py), with round-end rules of one's own besides too. Bugs off,
--situations 0: caboose 78 not applicable -> 23, layover 81 -> 67, dandy 97 -> 75, hump
110 -> 103, yardmaster 171 -> 165, flagstop 33 -> 32; nothing new failing, bugs on or off.

Under `scoring: other` match-003 (its totals and winners all it checks) was not applicable:
MATCH-1's carry is now asked of the engine's own round scores (Expectation.own_totals).

Each test fails without its fix (entry_for gave no entry).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from mtrain.conformance import mexican_alone
from mtrain.conformance.adapter import JSON, ReferenceImplementation
from mtrain.conformance.fixture import FIXTURE_ROOT, Fixture, load_file
from mtrain.conformance.interface import Refused
from mtrain.conformance.own_checks import own_checks
from mtrain.conformance.partition import stand_in
from mtrain.conformance.round_end_alone import carried_entry, worth_aside
from mtrain.conformance.runner import run_one
from mtrain.conformance.selection import entry_for
from mtrain.conformance.step_alone import own_step_refused
from mtrain.reference import codec
from mtrain.reference.engine import legal_actions
from mtrain.reference.rules import Rules
from mtrain.spec.catalog import catalog
from mtrain.spec.notation import action_json, table_state
from mtrain.spec.ruleset import Ruleset
from mtrain.spec.scope import Space

SECOND_RAIL = "name: second-rail\nbase: pagat\noptions:\n  mexican_first_turn: other\n"
"""pagat, but for a house rule on opening the Mexican Train: only a player whose own train
is started may open it (so never on one's first turn)."""


def _rules(tmp_path: Path) -> Ruleset:
    path = tmp_path / "second-rail.yaml"
    path.write_text(SECOND_RAIL, encoding="utf-8")
    return catalog().rules_file(str(path))


def _anyone(ruleset: JSON) -> JSON:
    return {**ruleset, "options": {**ruleset["options"], "mexican_first_turn": "anyone"}}


def _shut(state: JSON, action: JSON) -> bool:
    """Whether `action` opens the empty Mexican Train of a mover whose own train is empty:
    what the house rule refuses."""
    return (action.get("type") == "play" and action.get("train") == "mexican"
            and not state["mexican"]["tiles"] and not state["trains"][state["seat"]]["tiles"])


class SecondRail(ReferenceImplementation):
    """The house rule, played right: `anyone`, but no opening before one's own train."""

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        return [a for a in super().legal(_anyone(ruleset), state) if not _shut(state, a)]

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        return super().apply(_anyone(ruleset), state, action)


class ForgetsHome(SecondRail):
    """The planted bug: holding a tile that opens the Mexican Train, it offers no play on
    its own train (TRAIN-1 allows it whatever the Mexican rule)."""

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        actions = super().legal(ruleset, state)
        opens = any(a.get("train") == "mexican" for a in
                    ReferenceImplementation.legal(self, _anyone(ruleset), state))
        seat = state["seat"]
        return [a for a in actions if not (opens and a.get("train") == seat)]


def _fixture(path: Path, fid: str) -> Fixture:
    (fx,) = [f for f in load_file(path) if f.id == fid]
    return fx


def test_an_entry_the_mexican_rule_reads_runs_but_for_the_opening(tmp_path: Path) -> None:
    """engine-002 (pagat's scope, engine 5, first turns over): seat 0, own train empty and
    marked, holds [5-3], [9-9], [6-1]. By hand: [5-3] fits its own train (5) and the empty
    Mexican Train (5); [9-9] and [6-1] fit nothing (seat 1's train ends in 8, seat 2's in
    4). So under any rule of opening: `play 5-3 on 0` is legal (TRAIN-1), a draw is
    refused while it plays (TURN-1), [9-9] home and [6-1] on the Mexican Train are refused
    by TRAIN-2; `play 5-3 on mexican` alone is the house rule's. Before the cut the entry
    was not applicable whole under `mexican_first_turn: other`."""
    rs = _rules(tmp_path)
    assert rs.unknown == ("mexican_first_turn",)
    fx = _fixture(FIXTURE_ROOT / "engine" / "engine.yaml", "engine-002")
    space = Space()
    exp, why = entry_for(fx, rs, space)
    assert exp is not None, why
    assert exp.own_actions == ("play 5-3 on mexican",)
    assert exp.legal is not None and "play 5-3 on 0" in exp.legal
    assert dict(exp.refused) == {"play 9-9 on 0": ("TRAIN-2",),
                                 "play 6-1 on mexican": ("TRAIN-2",), "draw": ("TURN-1",)}
    sent = stand_in(rs, exp, space)
    ok = run_one(fx, sent, exp, SecondRail(), own=rs.unknown)
    assert ok.status == "pass", ok.messages
    bad = run_one(fx, sent, exp, ForgetsHome(), own=rs.unknown)
    assert bad.status == "fail"
    assert any("legal actions missing: play 5-3 on 0" in m for m in bad.messages), bad.messages


OPENING_ONLY = """\
- id: s61-mexonly-001
  description: "The only play opens the Mexican Train: whether to draw is the rule's"
  clauses: [TRAIN-5, TURN-1]
  source: [computation]
  note: >-
    Engine 5, first turns over. Seat 0 holds [5-3] and [9-9]; its own train ends in 2,
    seat 1's in 8 (unmarked): [5-3] fits the empty Mexican Train alone, [9-9] nothing.
  table:
    engine: 5
    seat: 0
    hands:
      0: [5-3, 9-9]
      1: [8-2, 4-1]
    trains:
      0: [5-2]
      1: [5-8]
  expect:
    - when:
        tile_set: [double-12]
        mexican_first_turn: [anyone]
      legal: [play 5-3 on mexican]
      refused:
        play 9-9 on 0: TRAIN-2
        draw: TURN-1
"""


def test_where_the_opening_is_the_only_play_the_draw_is_the_rules(tmp_path: Path) -> None:
    """A table whose only play opens the Mexican Train (worked in the fixture's note):
    whether the mover draws is the rule's (TURN-1 ties the draw to whether a play
    exists), so the opening and the draw are left out of the legal set and the refused
    draw is not judged; [9-9] home is refused whatever the rule (TRAIN-2) and stays. An
    engine that keeps the Mexican Train shut there and draws passes; one that also
    accepts [9-9] home fails, and so does one offering it (session 63: the legal set was
    dropped whole, and such an offer passed)."""
    rs = _rules(tmp_path)
    path = tmp_path / "only.yaml"
    path.write_text(OPENING_ONLY, encoding="utf-8")
    fx = _fixture(path, "s61-mexonly-001")
    space = Space()
    exp, why = entry_for(fx, rs, space)
    assert exp is not None, why
    assert exp.legal == ("play 5-3 on mexican",)
    assert exp.own_actions == ("draw", "end-chain", "pass", "play 5-3 on mexican")
    assert dict(exp.refused) == {"play 9-9 on 0": ("TRAIN-2",)}

    class Offers99(SecondRail):
        def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
            return [*super().legal(ruleset, state), {"type": "play", "tile": "9-9", "train": 0}]

    class Accepts99(SecondRail):
        def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
            if action.get("tile") in ("9-9",):
                return state  # accepted, nothing done: TRAIN-2 broken
            return super().apply(ruleset, state, action)

    sent = stand_in(rs, exp, space)
    assert run_one(fx, sent, exp, SecondRail(), own=rs.unknown).status == "pass"
    assert run_one(fx, sent, exp, Accepts99(), own=rs.unknown).status == "fail"
    offers = run_one(fx, sent, exp, Offers99(), own=rs.unknown)
    assert offers.status == "fail"
    assert any("legal actions not allowed by the rules: play 9-9 on 0" in m
               for m in offers.messages), offers.messages


@pytest.mark.parametrize("text, judged", [
    ("play 5-3 on mexican", False),  # opens it: the rule's
    ("play 6-1 on mexican", True),   # fits it not: TRAIN-2 whatever the rule
    ("play 5-3 on 0", True),         # elsewhere: TRAIN-1 whatever the rule
    ("draw", True),                  # a play elsewhere is left: TURN-1
])
def test_the_meaning_fuzz_and_conform_share(text: str, judged: bool) -> None:
    """engine-002's table (the first test's hand computation), under pagat: which actions'
    legality mexican_alone judges whatever the rule of opening."""
    fx = _fixture(FIXTURE_ROOT / "engine" / "engine.yaml", "engine-002")
    pagat = catalog().ruleset("pagat")
    st = codec.state_from_json(Rules.of(pagat), table_state(fx.table or {}, pagat))
    legal = legal_actions(st)
    assert mexican_alone.judged_action(st, legal, action_json(text)) is judged
    assert mexican_alone.mexican_plays(st) == ("play 5-3 on mexican",)


DOUBLED = "name: doubled\nbase: pagat\noptions:\n  scoring: other\n"
"""pagat, but for a scoring of one's own: every round's penalty counts twice."""


def _penalty(ruleset: JSON) -> JSON:
    return {**ruleset, "options": {**ruleset["options"], "scoring": "penalty"}}


class Doubled(ReferenceImplementation):
    """The house scoring, played right: penalty scores twice over, carried (MATCH-1)."""

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        after = super().apply(_penalty(ruleset), state, action)
        result = after.get("result")
        if state.get("result") is None and isinstance(result, dict):
            scores = [2 * v for v in result["scores"]]
            after = {**after, "result": {**result, "scores": scores},
                     "scores": [t + v for t, v in zip(state["scores"], scores, strict=True)]}
        return after

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        return super().legal(_penalty(ruleset), state)

    def winners(self, ruleset: JSON, state: JSON) -> list[int]:
        """Whether the match is over as penalty says it (the rounds decide, MATCH-1: since
        session 64 it is judged), on the state its scores halved back; then the lowest of
        its own totals win (MATCH-2, shared)."""
        result = state.get("result")
        if not isinstance(result, dict) or not result.get("scores"):
            return super().winners(_penalty(ruleset), state)
        doubled = result["scores"]
        plain = {**state, "result": {**result, "scores": [v // 2 for v in doubled]},
                 "scores": [t - v // 2 for t, v in zip(state["scores"], doubled, strict=True)]}
        if not super().winners(_penalty(ruleset), plain):
            return []
        low = min(state["scores"])
        return [seat for seat, total in enumerate(state["scores"]) if total == low]


class Uncarried(Doubled):
    """The planted bug: the round's own scores are the totals, those before forgotten."""

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        after = super().apply(ruleset, state, action)
        result = after.get("result")
        if state.get("result") is None and isinstance(result, dict):
            after = {**after, "scores": list(result["scores"])}
        return after


def test_match_003_judges_the_carry_under_a_scoring_of_ones_own(tmp_path: Path) -> None:
    """match-003: totals [150, 100, 106] on the table; seat 0 plays its last tile [6-2]
    (END-1) and the round is over. What it is worth is the house scoring's, so the
    entry's totals [150, 122, 122] and winners [1, 2] were cut and nothing was left: not
    applicable. MATCH-1 still says the totals are [150, 100, 106] plus the round's scores,
    whatever they are: the doubled penalty's [0, 44, 32] make [150, 144, 138], and an
    engine that forgets the totals before ([0, 44, 32]) fails, charged to MATCH-1."""
    path = tmp_path / "doubled.yaml"
    path.write_text(DOUBLED, encoding="utf-8")
    rs = catalog().rules_file(str(path))
    fx = _fixture(FIXTURE_ROOT / "match" / "match.yaml", "match-003")
    space = Space()
    exp, why = entry_for(fx, rs, space)
    assert exp is not None, why
    assert exp.own_totals == (150, 100, 106)
    assert exp.state == {} and exp.winners is None  # the worth stays the rule's
    assert exp.match_over is True  # but not whether the match is over (session 64)
    sent = stand_in(rs, exp, space)
    # (checked as conform checks an engine of rules of its own: pool.py)
    ok = run_one(fx, sent, exp, own_checks(Doubled(), sent, rs), own=rs.unknown)
    assert ok.status == "pass", ok.messages
    bad = run_one(fx, sent, exp, own_checks(Uncarried(), sent, rs), own=rs.unknown)
    assert bad.status == "fail"
    assert any("[150, 144, 138]" in m and "[0, 44, 32]" in m for m in bad.messages), \
        bad.messages
    assert "MATCH-1" in bad.charged


def test_the_carry_is_asked_only_where_the_entry_ends_a_round() -> None:
    """An entry whose totals are the table's (no round ended in its steps) gets no carry
    check: the round's end would be asked of a round that goes on."""
    fx = _fixture(FIXTURE_ROOT / "match" / "match.yaml", "match-003")
    (exp,) = fx.expect
    same = dataclasses.replace(exp, state={"scores": [150, 100, 106]})
    cut = worth_aside(same, {"scoring"})
    assert carried_entry(same, cut, fx, {"scoring"}) is None
    cut = worth_aside(exp, {"scoring"})
    assert carried_entry(exp, cut, fx, {"tie_rule"}) is None  # a tie rule adds nothing
    assert carried_entry(exp, cut, fx, {"scoring"}) is not None


BLANKS_TOO = ("name: second-rail-blanks\nbase: pagat\noptions:\n  mexican_first_turn: other\n"
              "  blank_values: other\n")
"""As SECOND_RAIL, with blank tiles worth a value of one's own (caboose's two rules)."""


class Shut(SecondRail):
    """SecondRail refusing the opening it does not offer (its own train empty)."""

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        if _shut(state, action):
            raise Refused("the Mexican Train opens once one's own train is started")
        return super().apply(ruleset, state, action)


class GoesOn(SecondRail):
    """The planted bug: a last tile laid on the Mexican Train leaves the round going on."""

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        after = super().apply(ruleset, state, action)
        if action.get("train") == "mexican" and isinstance(after.get("result"), dict):
            return state  # (nothing laid, nothing over)
        return after


def test_an_entry_reading_blank_values_too_runs_without_its_worth(tmp_path: Path) -> None:
    """generated-scoring-001: engine 9, seat 0 holds [9-8] alone, its own train empty and
    marked; its step opens the Mexican Train with it. By hand: the tile fits (9), seat 0
    has gone out (END-1: end domino, winner 0); its scores [0, 1] are the blank values'
    and scoring's (the worth). Under both rules of one's own it was not applicable
    whole; it now runs without the scores, its step the opening rule's: an engine that
    refuses the opening is not applicable, one that takes it and ends nothing fails."""
    path = tmp_path / "rules.yaml"
    path.write_text(BLANKS_TOO, encoding="utf-8")
    rs = catalog().rules_file(str(path))
    fx = _fixture(FIXTURE_ROOT / "generated" / "scoring.yaml", "generated-scoring-001")
    space = Space()
    exp, why = entry_for(fx, rs, space)
    assert exp is not None, why
    assert exp.result == {"end": "domino", "winner": 0}
    assert dict(exp.own_steps) == {1: ("mexican_first_turn",)}
    sent = stand_in(rs, exp, space)
    for impl, status in ((SecondRail(), "pass"), (Shut(), "not-applicable"),
                         (GoesOn(), "fail")):
        out = run_one(fx, sent, exp, own_checks(impl, sent, rs), own=rs.unknown)
        # (a refused step the rule decides is not applicable, as pool.py reports it)
        got = "not-applicable" if own_step_refused(out, exp) is not None else out.status
        assert got == status, (type(impl).__name__, out.messages)
