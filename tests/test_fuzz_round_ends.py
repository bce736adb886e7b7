"""Fuzz at round ends and in ties (viaduct's blind spots, tests/examples/viaduct_engine.py).

- Its bug 2 (a blocked round scores the hands at face value, where positive scoring gives
  nobody anything: SCORE-6) failed conform's `score` requests and was no fuzz finding:
  fuzz never asked `score`. It now asks it at every round end it reaches.
- Its match (the largest multiple of n rounds up to 19) was measured at its fewest
  players only (16 rounds at 4), so games at 10 players started at rounds 11 to 16 and
  ended at their deal. It is now measured at each count played.
- Its bug 3 writes a tie-break into the totals at the match's last round (MATCH-1): the
  made-up tied totals were asked only of `winners`, which asks nothing once the step's
  totals differ. The totals that step leaves are now asked too.

The in-process adapters below carry the same bugs on the reference, so that each run is
short; their expected values are the rules' (SCORE-6, MATCH-1), not the code's output.
"""

from __future__ import annotations

from pathlib import Path

from mtrain.conformance import fuzz as F
from mtrain.conformance.adapter import JSON, ReferenceImplementation
from mtrain.conformance.fuzz import setups
from mtrain.conformance.fuzz.findings import cause
from mtrain.conformance.fuzz.rulesets import declared_context
from mtrain.conformance.fuzz.run import load_implementation
from mtrain.conformance.fuzz.scoring import compare_score
from mtrain.reference.engine import hand_value
from mtrain.spec.catalog import catalog

EXAMPLES = Path(__file__).parent / "examples"
POSITIVE = "pagat+positive-scoring"


class BlockedPips(ReferenceImplementation):
    """viaduct's bug 2 alone: `score` with no winner gives each hand's pips."""

    def score(self, ruleset: JSON, state: JSON, winner: int | None) -> list[int]:
        if winner is not None:
            return super().score(ruleset, state, winner)
        st = self.state(ruleset, state)
        return [hand_value(st, s) for s in range(st.players)]


class TieNudge(ReferenceImplementation):
    """viaduct's bug 3 alone: at the end of the match's last round, the lowest seat among
    those tied on the winning (lowest) total gets one point more."""

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        after = super().apply(ruleset, state, action)
        if after["phase"] != "over" or after["round"] != self.rules(ruleset).rounds:
            return after
        totals = list(after["scores"])
        best = [s for s, t in enumerate(totals) if t == min(totals)]
        if len(best) > 1:
            totals[best[0]] += 1
        return {**after, "scores": totals}


def test_a_blocked_rounds_scores_are_asked_and_judged() -> None:
    """SCORE-6: under positive scoring a blocked round scores nobody anything."""
    ctx = F.context(POSITIVE)
    over: JSON = {"phase": "over", "result": {"end": "blocked", "winner": None,
                                              "scores": [0, 0, 0]}}
    found = compare_score(ctx, "pass", over, [0, 0, 0], [5, 12, 0], None)
    assert [d.signature for d in found] == ["score (blocked)"]
    assert found[0].clauses[0] == "SCORE-6"
    assert compare_score(ctx, "pass", over, [0, 0, 0], [0, 0, 0], None) == []


def test_a_rounds_scores_wrong_at_its_end_and_in_score_are_one_cause() -> None:
    """flagstop's [0-0] forgotten (SCORE-3) showed as two findings, the round's end and
    the `score` answer: one bug, folded into one where conform charges both alike."""
    causes = {cause(s) for s in ("round end: INV-ROUND-SCORE", "round end: result.scores",
                                 "score (gone out)", "score (blocked)")}
    assert len(causes) == 1
    assert cause("round end: scores") not in causes  # the totals (MATCH-1): another cause


def test_fuzz_finds_blocked_pips_with_a_reproducer_and_nothing_on_the_reference(
        tmp_path: Path) -> None:
    """8 games (seed 4): a blocked round is reached (in game 0 first) and its
    `score` answer is a finding, shrunk to a reproducer conform runs (checked by fuzz:
    it passes on the reference and fails on the engine), charged to SCORE-6."""
    report = F.fuzz(F.Target.of(BlockedPips(), "blocked-pips"), [POSITIVE], 8, 4,
                    out=tmp_path / "on")
    groups = {g.signature: g for g in report.groups}
    assert list(groups) == ["score (blocked)"], list(groups)
    found = groups["score (blocked)"]
    assert found.path is not None and found.path.exists() and found.problems == []
    assert found.charged == ("SCORE-6",)
    clean = F.fuzz(F.Target("reference", "", "reference"), [POSITIVE], 8, 4,
                   out=tmp_path / "off")
    assert clean.groups == []


def test_fuzz_asks_the_totals_a_made_up_tie_leaves_at_the_last_round(tmp_path: Path) -> None:
    """MATCH-1: a total is the sum of the round scores, whatever breaks a tie on it."""
    report = F.fuzz(F.Target.of(TieNudge(), "tie-nudge"), ["pagat"], 12, 1,
                    out=tmp_path / "on")
    groups = {g.signature: g for g in report.groups}
    assert "round end: scores" in groups, list(groups)
    found = groups["round end: scores"]
    assert found.path is not None and found.problems == []
    assert "MATCH-1" in found.charged


def test_a_match_of_its_own_is_measured_at_each_count() -> None:
    """viaduct's match is the largest multiple of n rounds up to 19 (its docstring): 16
    at 4 players, 10 at 10; measured at 4 alone, games at 10 started at rounds 11-16."""
    name = declared_context(catalog().rules_file(str(EXAMPLES / "viaduct-rules.yaml"))).name
    viaduct = load_implementation("impl", f"python {EXAMPLES / 'viaduct_engine.py'}")
    try:
        rounds = setups.match_rounds(viaduct, [(name, 4), (name, 10), (name, 4)])
    finally:
        viaduct.close()  # type: ignore[attr-defined]
    assert rounds == {setups.round_key(name, 4): 16, setups.round_key(name, 10): 10}
    chooser = F.Chooser([name])
    plans = [F.plan_game(i, 1, chooser, 10, rounds) for i in range(40)]
    assert max(p.first_round + p.rounds - 1 for p in plans) == 10
    assert sum(p.first_round == 10 for p in plans) >= 5  # a quarter at the last: its ties
