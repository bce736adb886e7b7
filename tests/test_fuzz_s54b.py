"""Session 54 (fuzz54b): who wins at a round's end a rule of one's own reached.

hostler (tests/examples/js/hostler_engine.js, `--house=lone-double --bugs`, with
hostler-lone-rules.yaml) plays `blocked_round: other`: the round ends, blocked, at the end
of any turn that leaves the boneyard empty; its bug 3 gives a tie on the lowest total to
the lowest seat alone (MATCH-4). Fuzz found the bug 6 times in 12 games (seed 1), every
time at such an end, and wrote no reproducer: "its own rules (blocked_round) decided the
step `pass` that ended the round, so no fixture can ask of the end it reached". Who wins
on given totals reads no rule of how the round ended, so the finding is now asked of the
finished table itself (an "over" probe: `phase: over`, its `result` written, no step),
which REACH-OVER's END-2/END-3 part no longer refuses under a blocked round of one's own.

`YardCloses` is hostler's case in process, on a double-6 set and a one-round match (every
round is a match's last, so every end is asked who wins): the reference, but for its own
blocked round and the planted tie bug.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
import yaml
from rule_texts import rules_text

from mtrain.conformance.adapter import JSON, ReferenceImplementation
from mtrain.conformance.fixture import load_file
from mtrain.conformance.fuzz import Target, fuzz
from mtrain.conformance.fuzz.rulesets import declared_context
from mtrain.conformance.lint import check_start, lint
from mtrain.conformance.runner import run_fixture
from mtrain.spec.catalog import catalog
from mtrain.spec.notation import FixtureError

GAMES, SEED = 12, 1

RULES = rules_text("yard-closes", "puremco", blocked_round="other")
"""A double-6 set, one round a match, and a blocked round of its own (YardCloses)."""


def _pips(hand: list[str]) -> int:
    return sum(int(n) for tile in hand for n in tile.split("-"))


class YardCloses(ReferenceImplementation):
    """hostler's blocked round (`blocked_round: other`): a turn that leaves the boneyard
    empty ends the round, blocked, each hand scoring its pips (SCORE-1, blanks 0: face);
    and hostler's bug 3 (MATCH-4 shares a tie), planted where only its own rule ends a
    round (a blocked end: nobody goes out while the yard is open, as in most of hostler's
    rounds): a tie on the lowest total goes to the lowest seat alone."""

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        after = super().apply(ruleset, state, action)
        if (after["phase"] == "over" or after["boneyard"]
                or after["seat"] == state["seat"]):  # the turn goes on, or the yard is open
            return after
        scores = [_pips(h) for h in after["hands"]]
        return {**after, "phase": "over", "drawn": None, "turn_doubles": [],
                "scores": [t + s for t, s in zip(after["scores"], scores, strict=True)],
                "result": {"end": "blocked", "winner": None, "scores": scores}}

    def winners(self, ruleset: JSON, state: JSON) -> list[int]:
        shared = super().winners(ruleset, state)
        blocked = (state.get("result") or {}).get("end") == "blocked"
        return shared[:1] if blocked else shared  # the bug: the lowest seat of a tie alone


def test_a_tie_at_its_own_blocked_end_is_reproduced_and_charged(tmp_path: Path) -> None:
    rules = tmp_path / "yard-closes.yaml"
    rules.write_text(RULES, encoding="utf-8")
    name = declared_context(catalog().rules_file(str(rules))).name
    impl = YardCloses()
    report = fuzz(Target.of(impl, "yard-closes"), [name], GAMES, SEED, out=tmp_path / "out")
    assert [g.signature for g in report.new] == ["winners"]
    found = report.new[0]
    assert found.problems == [] and found.charged == ("MATCH-4",)
    assert found.path is not None
    # the reproducer: the finished table, no step, the tied seats all winners
    [fx] = yaml.safe_load(found.path.read_text(encoding="utf-8"))
    table = fx["table"]
    assert table["phase"] == "over" and table["result"]["end"] == "blocked"
    assert "steps" not in fx
    totals = table["scores"]
    tied = [s for s, t in enumerate(totals) if t == min(totals)]
    assert len(tied) > 1 and fx["expect"][0]["winners"] == tied
    # honest: it passes on the reference under the rules it names, fails on the engine
    [loaded] = load_file(str(found.path), found.path.read_text(encoding="utf-8"))
    assert [o.status for o in run_fixture(loaded, ReferenceImplementation())] == ["pass"]
    failed = list(run_fixture(loaded, YardCloses()))
    assert [o.status for o in failed] == ["fail"] and list(failed[0].charged) == ["MATCH-4"]
    # and lint takes it under the stand-in its rules file writes (blocked_round
    # nobody-can-play, whose END-2 would not have ended it): only who wins is asked
    assert lint(found.path.parent).errors == []



BLOCKED_OPEN = """\
- id: over54b-001
  description: "A blocked end where seat 0 can still play, asked only who wins"
  clauses: [MATCH-2]
  source: [computation]
  note: >-
    Seat 1 holds the rest of the double-6 set: 168 pips less the engine's 12, [4-3]'s 7
    and [6-4]'s 10, 139. The totals of a one-round match, 7 and 139: the lowest, seat 0,
    wins (MATCH-2). Its [4-3] still goes on the Mexican 4, so END-2 would not end it.
  table:
    engine: 6
    phase: over
    hands:
      0: [4-3]
      1: [rest]
    trains:
      mexican: [6-4]
    boneyard: []
    scores: [7, 139]
    result: {end: blocked, winner: null, scores: [7, 139]}
  expect:
    - variants: [double-6]
      winners: [0]
"""
"""A finished table END-2 would not have ended, under ONE_ROUND_D6."""

ONE_ROUND_D6 = """\
name: one-round-d6
base: puremco
options: {tile_set: double-6, hand_sizes: {2: 8, 3: 7, 4: 6}, match_length: single-round}
"""


def test_lint_asks_a_finished_table_how_it_ended_only_where_more_than_the_winners_is_asked(
        ) -> None:
    rs = catalog().rules_file("one-round-d6.yaml", ONE_ROUND_D6)
    [fx] = load_file("over54b.yaml", BLOCKED_OPEN)
    exp = fx.expect[0]
    assert check_start(fx, exp, rs.name, rs) == []  # who wins: the totals alone
    asked_more = dataclasses.replace(exp, state={"phase": "over"})
    assert any("REACH-OVER" in p and "END-2" in p
               for p in check_start(fx, asked_more, rs.name, rs))


def test_a_table_writes_its_result_exactly_when_it_is_over() -> None:
    rs = catalog().rules_file("one-round-d6.yaml", ONE_ROUND_D6)
    [fx] = load_file("over54b.yaml", BLOCKED_OPEN.replace("    phase: over\n", ""))
    with pytest.raises(FixtureError, match="phase `over` writes its `result`"):
        fx.start(rs)
