"""Session 64 (conf64): the cuts audited for a check dropped whole where part is judged.

A cut under a rule of one's own leaves out what that rule decides. Where it dropped a
whole check (the legal set) because every action the entry lists was the rule's, an
action no rule between the known values allows, offered, passed unseen: the legal set
is judged now without the rule's actions alone (`Expectation.own_actions`), as
mexican_alone has been since session 63 (tests/test_conform_s61.py's Offers99).

- bracket_alone.bracket_cut (own_train_first: other): every listed action one end's alone
  (first-032: the Mexican Train's play or a draw; s54-003: the drawn tile's play or a
  pass) dropped the legal set whole.
- mexican_with.pair_entry (both rules of one's own): where no play but one some pair
  alone offers was left (s64-pair-001), the legal set was dropped whole.
- round_end_alone.worth_aside (a scoring or blank values of one's own, the cut of every
  entry reading them): whether the match is over went with the winners, though the
  match's length counts rounds whatever they are worth (MATCH-1): an engine ending the
  match a round early, or naming nobody at its end, passed.

benchmarks/house_not_applicable.py --reference, not applicable, the three fixes together:
4188 -> 4077 over the house engines (hump 38 -> 25, flagstop 17 -> 6, tenwheeler 57 -> 45,
marshal 37 -> 27, drover 80 -> 67, tanker 92 -> 79, wagonway 41 -> 31, wye 151 -> 139,
reefer 22 -> 14, eight more one less); with the engines themselves, bugs off, nothing new
failing.

Each false-pass test fails without its fix (the buggy engine passed).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_conform_s62 import TwoHouse, _read_both
from test_conform_s62 import _rules as two_house_rules

from mtrain.conformance.adapter import JSON, ReferenceImplementation
from mtrain.conformance.fixture import FIXTURE_ROOT, Fixture, load_file
from mtrain.conformance.partition import stand_in
from mtrain.conformance.runner import run_one
from mtrain.conformance.selection import entry_for
from mtrain.spec.catalog import catalog
from mtrain.spec.scope import Space

EXAMPLES = Path(__file__).parent / "examples"
DROVER = EXAMPLES / "java" / "drover-rules.yaml"
"""own_train_first and follow_up of one's own: entries reading the first alone run
bracket_alone.bracket_cut."""


def _fixture(rel: str, fid: str) -> Fixture:
    (fx,) = [f for f in load_file(FIXTURE_ROOT / rel) if f.id == fid]
    return fx


def _end(ruleset: JSON, value: str) -> JSON:
    return {**ruleset, "options": {**ruleset["options"], "own_train_first": value}}


class End(ReferenceImplementation):
    """The reference under one known end of own_train_first: a house rule between the
    ends may play as either does on these tables."""

    def __init__(self, value: str) -> None:
        super().__init__()
        self.value = value

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        return super().legal(_end(ruleset, self.value), state)

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        return super().apply(_end(ruleset, self.value), state, action)


class OffersToo(End):
    """A planted bug: the legal set offers `extra` besides, an action both ends refuse."""

    def __init__(self, value: str, extra: JSON) -> None:
        super().__init__(value)
        self.extra = extra

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        return [*super().legal(ruleset, state), self.extra]


@pytest.mark.parametrize("rel, fid, own, extra, words, ends", [
    # first-032 (its note): seat 1, own train empty, holds [7-2] (fits the Mexican
    # Train's 7), [4-3] (fits seat 0's unmarked 4: closed, TRAIN-4) and [9-9]. The wide
    # end offers [7-2] there, the narrow one (TRAIN-7) nothing to play: a draw. Both
    # refuse [4-3] on seat 0's train, so every rule between them does.
    ("first-turn/own-train-mexican.yaml", "first-032",
     ("draw", "play 7-2 on mexican"), {"type": "play", "tile": "4-3", "train": 0},
     "play 4-3 on 0", ("not-required",)),
    # s54-003 (its note): the last tile drawn, [4-3], fits the Mexican Train alone; the
    # wide end plays it there, the narrow one passes. The boneyard is empty: a draw is
    # refused under both (TURN-2), so under every rule between them.
    ("turns/s54-own-train-empty-boneyard.yaml", "s54-003",
     ("pass", "play 4-3 on mexican"), {"type": "draw"}, "draw", ("required", "not-required")),
])
def test_an_entry_whose_listed_actions_are_all_the_rules_still_judges_the_rest(
        rel: str, fid: str, own: tuple[str, ...], extra: JSON, words: str,
        ends: tuple[str, ...]) -> None:
    """Every action the entry lists is one end's alone, so the rule's: before session 64
    the legal set was dropped whole and an engine offering an action both ends refuse
    passed. Now the rule's actions alone are left out: the ends pass, the offer fails,
    charged to the legal set. (first-032's narrow end is not run: it refuses [4-3] by
    TRAIN-7, a clause the stand-in `not-required` does not put in force, and fails that
    refusal whether or not the legal set is judged; left open, session 64's report.)"""
    rs = catalog().rules_file(str(DROVER))
    assert "own_train_first" in rs.unknown
    fx = _fixture(rel, fid)
    space = Space()
    exp, why = entry_for(fx, rs, space)
    assert exp is not None, why
    assert exp.legal is not None and set(exp.legal) <= set(exp.own_actions)
    assert exp.own_actions == own
    sent = stand_in(rs, exp, space)
    for value in ends:
        ok = run_one(fx, sent, exp, End(value), own=rs.unknown)
        assert ok.status == "pass", (value, ok.messages)
        bad = run_one(fx, sent, exp, OffersToo(value, extra), own=rs.unknown)
        assert bad.status == "fail", (value, bad.messages)
        assert any(f"legal actions not allowed by the rules: {words}" in m
                   for m in bad.messages), bad.messages


PAIR_LAST = """\
- id: s64-pair-001
  description: "After the Mexican Train's opening, the next mover's one play is on a marked train"
  clauses: [TRAIN-4, TRAIN-5, TRAIN-7, TURN-1]
  source: [computation]
  note: >-
    Engine 9, first turns over. Seat 0 (its train [9-5, 5-7] started) opens the empty
    Mexican Train with [9-4], the only place it fits. Seat 1 then holds [8-3] and [7-1];
    its own train is empty (9), the Mexican Train ends in 4, seat 2's marked train in 8,
    seat 0's unmarked one in 7. [8-3] fits seat 2's train alone, [7-1] seat 0's alone,
    which is closed (TRAIN-4). Not required: [8-3] on seat 2's train, so no draw.
  table:
    engine: 9
    seat: 0
    hands:
      0: [9-4, 6-6]
      1: [8-3, 7-1]
      2: [rest]
    trains:
      0: [9-5, 5-7]
      2: [9-8]
    marked: [2]
    first_turns: []
  steps: [play 9-4 on mexican]
  expect:
    - when:
        tile_set: [double-12]
        mexican_first_turn: [anyone]
        own_train_first: [not-required]
      legal: [play 8-3 on 2]
      refused:
        play 7-1 on 0: TRAIN-4
        draw: TURN-1
"""


class OffersClosed(TwoHouse):
    """A planted bug no rule of one's own excuses: a play on another's unmarked train
    offered (TRAIN-4), as drawbar's open empty trains."""

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        return [*super().legal(ruleset, state), {"type": "play", "tile": "7-1", "train": 0}]


def test_the_pair_cut_judges_the_legal_set_where_whether_one_plays_is_the_rules(
        tmp_path: Path) -> None:
    """s64-pair-001 (worked in its note) reads both rules: the opening step the Mexican
    rule's, the last table one's own train first (seat 2's marked train while seat 1's
    own is empty). The only play left is one a pair alone offers, so whether seat 1 draws
    is the rules' own: the play, the draw, the pass and the end of a chain are left out,
    the refused draw not judged. [7-1] on seat 0's unmarked train is refused whatever
    they say (TRAIN-4): offering it failed nothing while the legal set was dropped whole
    (before session 64), and fails now; the house rules played right pass."""
    rs = two_house_rules(tmp_path)
    path = tmp_path / "pair.yaml"
    path.write_text(PAIR_LAST, encoding="utf-8")
    (fx,) = load_file(path)
    space = Space()
    _read_both(fx, rs, space)
    exp, why = entry_for(fx, rs, space)
    assert exp is not None, why
    assert exp.legal == ("play 8-3 on 2",)
    assert exp.own_actions == ("draw", "end-chain", "pass", "play 8-3 on 2")
    assert set(exp.refused) == {"play 7-1 on 0"}
    sent = stand_in(rs, exp, space)
    ok = run_one(fx, sent, exp, TwoHouse(), own=rs.unknown)
    assert ok.status == "pass", ok.messages
    bad = run_one(fx, sent, exp, OffersClosed(), own=rs.unknown)
    assert bad.status == "fail", bad.messages
    assert any("legal actions not allowed by the rules: play 7-1 on 0" in m
               for m in bad.messages), bad.messages


def test_the_inline_fixture_is_possible(tmp_path: Path) -> None:
    """The reference plays s64-pair-001's entry as written under a known rule set of its
    scope (a check of the fixture's possibility, not the source of its values)."""
    path = tmp_path / "pair.yaml"
    path.write_text(PAIR_LAST, encoding="utf-8")
    (fx,) = load_file(path)
    (exp,) = fx.expect
    space = Space()
    sample = space.complete(exp.scope.products[0].region())
    assert sample is not None
    out = run_one(fx, space.ruleset(sample), exp, ReferenceImplementation())
    assert out.status == "pass", out.messages


OWN_SCORING = "name: own-scoring\nbase: pagat\noptions:\n  scoring: other\n"
"""pagat, but for a scoring no known value describes."""


class NeverOver(ReferenceImplementation):
    """A planted bug: no match ever ends (it names no winner, MATCH-1)."""

    def winners(self, ruleset: JSON, state: JSON) -> list[int]:
        return []


class AlwaysOver(ReferenceImplementation):
    """A planted bug: the match ends with any round, the lowest totals winning."""

    def winners(self, ruleset: JSON, state: JSON) -> list[int]:
        totals = state.get("scores") or [0]
        return [s for s, t in enumerate(totals) if t == min(totals)]


@pytest.mark.parametrize("rel, fid, over, bug", [
    # s61-round-001 (its note): [1-1]'s round ends and [0-0]'s is dealt: rounds remain
    ("engine/s61-lowering.yaml", "s61-round-001", False, AlwaysOver),
    # match-016 (its note): round 10 of 10 on a double-9 set ends: the match is over
    ("match/bounds.yaml", "match-016", True, NeverOver),
])
def test_whether_the_match_is_over_is_judged_under_a_scoring_of_ones_own(
        tmp_path: Path, rel: str, fid: str, over: bool, bug: type) -> None:
    """The winners are the scoring's (the totals decide them), but not whether the match
    is over: the entry keeps that part (as written, or as its winners say). Before
    session 64 it was dropped with the winners and the planted bug passed; the reference
    (scoring as a known value does, which a scoring of one's own may) still passes."""
    path = tmp_path / "own-scoring.yaml"
    path.write_text(OWN_SCORING, encoding="utf-8")
    rs = catalog().rules_file(str(path))
    fx = _fixture(rel, fid)
    space = Space()
    exp, why = entry_for(fx, rs, space)
    assert exp is not None, why
    assert exp.winners is None and exp.match_over is over
    sent = stand_in(rs, exp, space)
    ok = run_one(fx, sent, exp, ReferenceImplementation(), own=rs.unknown)
    assert ok.status == "pass", ok.messages
    bad = run_one(fx, sent, exp, bug(), own=rs.unknown)
    assert bad.status == "fail", bad.messages
    assert "MATCH-1" in bad.charged, (bad.charged, bad.messages)
