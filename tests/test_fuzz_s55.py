"""Session 55 (fuzz55): who wins where a round's worth is a rule of one's own.

caboose (tests/examples/caboose_engine.py) prices a blank its own way (`blank_values:
other`); its bug 3 gives a tie on totals and outs to the lower seat alone (MATCH-5). Fuzz
found it at round ends whose hands held a blank and wrote no reproducer: the finished
table written with the engine's own round scores broke INV-ROUND-SCORE under the stand-in
(`blank_values: face`). Who wins reads the totals (and the rounds gone out), never the
round's scores, so the finished table is now written with the stand-in's worth of its
hands and the same totals (round_end.over_probe): the same question, on a table lint and the
reference take, that an engine reading the totals answers alike.

Under a scoring of one's own the winners read the scoring too (the lowest total or the
highest, MATCH-2, MATCH-3), so none was judged. Where every known scoring names the same
seats (the totals all level: the tie rule alone decides, MATCH-4..6) they are the rules'
whatever the scoring (own_rules.winners_alike); the made-up tied totals of a round a
worth rule of one's own ended are asked of the finished table itself.

The over probes are shrunk now (fewer seats, smaller totals, shorter trains), each cut
kept only where it is a possible table and still shows.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from rule_texts import rules_text

from mtrain.conformance.adapter import JSON, ReferenceImplementation
from mtrain.conformance.fixture import load_file
from mtrain.conformance.fuzz import Group, Target, fuzz, own_rules
from mtrain.conformance.fuzz.rulesets import declared_context
from mtrain.conformance.lint import lint
from mtrain.conformance.runner import run_fixture
from mtrain.reference import codec
from mtrain.spec.catalog import catalog
from mtrain.spec.notation import table_state

GAMES, SEED = 1, 1
"""One game (one round: every round end asks who wins): under seed 1 its end holds blanks
in hand, so its winners were found, before, only without a reproducer (8 of seeds 1 to
11; 1 since: a blocked end whose hands hold nothing but blanks, no tile to give them)."""

BASE = rules_text(base="puremco", scoring=None, blank_values=None)
"""A double-6 set, one round a match (every round end asks who wins), equal totals shared."""

DEAR_BLANKS = f"name: dear-blanks\n{BASE}  scoring: penalty\n  blank_values: other\n"
"""Blanks priced its own way (DearBlanks plays `blank-25`)."""

OWN_SCORING = f"name: own-scoring\n{BASE}  scoring: other\n  blank_values: face\n"
"""A scoring of its own (LowBlocked plays `penalty-blocked-winner`)."""


class DearBlanks(ReferenceImplementation):
    """caboose's case in process: a blank end priced its own way (the reference under
    `blank-25`, a rule its file calls its own), and caboose's tie bug: the lowest seat of a
    tie on the lowest total wins alone (MATCH-4). `fixed`: the bug off."""

    def __init__(self, fixed: bool = False) -> None:
        super().__init__()
        self.fixed = fixed

    @staticmethod
    def _own(ruleset: JSON) -> JSON:
        return {**ruleset, "options": {**ruleset["options"], "blank_values": "blank-25"}}

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        return super().apply(self._own(ruleset), state, action)

    def winners(self, ruleset: JSON, state: JSON) -> list[int]:
        shared = super().winners(self._own(ruleset), state)
        return shared if self.fixed else shared[:1]

    def score(self, ruleset: JSON, state: JSON, winner: int | None) -> list[int]:
        # under its own rules too: asked at each round's end against its own result
        # (fuzz58b); under the rules sent, `other`, the reference raised StateError
        return super().score(self._own(ruleset), state, winner)


class LowBlocked(DearBlanks):
    """A scoring of its own (the reference under `penalty-blocked-winner`), lowest total
    winning; its bug: the lowest seat of any tie wins alone (MATCH-4)."""

    @staticmethod
    def _own(ruleset: JSON) -> JSON:
        return {**ruleset, "options": {**ruleset["options"],
                                       "scoring": "penalty-blocked-winner"}}


def _found(tmp_path: Path, rules: str, impl: ReferenceImplementation,
           seed: int = SEED) -> list[Group]:
    """The new findings of GAMES games of `impl` under `rules`."""
    path = tmp_path / "rules.yaml"
    path.write_text(rules, encoding="utf-8")
    name = declared_context(catalog().rules_file(str(path))).name
    report = fuzz(Target.of(impl, name), [name], GAMES, seed, out=tmp_path / "out")
    return report.new


def _honest(found: Group, impl: type[DearBlanks]) -> dict[str, Any]:
    """The reproducer of `found`: lint takes it, the reference passes it, the engine
    fails it (charged as `found`), the engine with its bug off passes it."""
    assert found.problems == [] and found.path is not None
    [fx] = yaml.safe_load(found.path.read_text(encoding="utf-8"))
    [loaded] = load_file(str(found.path), found.path.read_text(encoding="utf-8"))
    assert [o.status for o in run_fixture(loaded, ReferenceImplementation())] == ["pass"]
    failed = list(run_fixture(loaded, impl()))
    assert [o.status for o in failed] == ["fail"]
    assert tuple(failed[0].charged) == found.charged
    assert [o.status for o in run_fixture(loaded, impl(fixed=True))] == ["pass"]
    assert lint(found.path.parent).errors == []
    return dict(fx)


def test_a_tie_where_blanks_are_priced_its_own_way_is_reproduced(tmp_path: Path) -> None:
    found = _found(tmp_path, DEAR_BLANKS, DearBlanks())
    assert [g.signature for g in found] == ["winners"]
    assert found[0].charged == ("MATCH-4",)
    fx = _honest(found[0], DearBlanks)
    table = fx["table"]
    assert table["phase"] == "over" and "steps" not in fx
    totals = table["scores"]
    assert fx["expect"][0]["winners"] == [s for s, t in enumerate(totals) if t == min(totals)]


def test_a_tie_under_a_scoring_of_its_own_is_judged_where_every_scoring_agrees(
        tmp_path: Path) -> None:
    """Found and charged; its reproducer, a finished table, writes the round's scores,
    which the scorings known price otherwise (positive scoring gives them to the one who
    went out): conform runs it under none of its own, and says so."""
    found = _found(tmp_path, OWN_SCORING, LowBlocked(), seed=2)
    assert [g.signature for g in found] == ["winners"]
    assert found[0].charged == ("MATCH-4",)
    assert found[0].shrunk is not None and found[0].shrunk.table is not None
    assert len(set(found[0].shrunk.table["scores"])) == 1  # the totals all level
    assert [p.split(" (")[0] for p in found[0].problems] == [
        "conform would not run it under own-scoring"]


def test_winners_alike_only_where_no_known_scoring_tells_the_seats_apart(
        tmp_path: Path) -> None:
    path = tmp_path / "rules.yaml"
    path.write_text(OWN_SCORING, encoding="utf-8")
    ctx = declared_context(catalog().rules_file(str(path)))
    table = {"hands": {0: ["6-5"], 1: ["6-4"], 2: ["rest"]}}
    st = codec.state_from_json(ctx.rules, table_state(table, ctx.rs))
    st.scores[:] = [20, 20, 20]
    assert own_rules.winners_alike(ctx, st, ("scoring",)) == [0, 1, 2]
    st.scores[:] = [20, 20, 31]  # the lowest wins under penalty, the highest under positive
    assert own_rules.winners_alike(ctx, st, ("scoring",)) is None
    assert own_rules.winners_alike(ctx, st, ()) is None  # nothing of its own read
    st.scores[:] = [20, 20, 20]
    assert own_rules.winners_alike(ctx, st, ("scoring", "tie_rule")) is None


def test_a_finished_table_is_shrunk_and_stays_honest(tmp_path: Path) -> None:
    """hostler's case (test_fuzz_s54b: a blocked round of its own, a tie bug): its over
    probe was written whole (52 tiles, 3 seats); now cut down, its totals lowered as far
    as the earlier rounds allow, and still passed by the reference, failed by the
    engine, and taken by lint."""
    from test_fuzz_s54b import RULES, YardCloses

    rules = tmp_path / "yard-closes.yaml"
    rules.write_text(RULES, encoding="utf-8")
    name = declared_context(catalog().rules_file(str(rules))).name
    report = fuzz(Target.of(YardCloses(), name), [name], 12, 1, out=tmp_path / "out")
    [found] = report.new
    assert found.shrunk is not None and found.shrunk.kind == "over"
    assert found.shrunk.size < found.best.probe.size
    table = found.shrunk.table
    assert table is not None
    assert min(t - r for t, r in zip(table["scores"], table["result"]["scores"],
                                     strict=True)) == 0
    assert found.problems == [] and found.path is not None
    [loaded] = load_file(str(found.path), found.path.read_text(encoding="utf-8"))
    assert [o.status for o in run_fixture(loaded, ReferenceImplementation())] == ["pass"]
    assert [o.status for o in run_fixture(loaded, YardCloses())] == ["fail"]
    assert lint(found.path.parent).errors == []


BLOCKED_BONEYARD = """\
- id: over55-001
  description: "A blocked end with tiles left to draw, asked only who wins"
  clauses: [MATCH-2]
  source: [computation]
  note: >-
    Totals of a one-round match, 7 and 9: the lowest, seat 0, wins (MATCH-2). Seat 0
    holds [4-3] (7), seat 1 [6-3] (9), each marked for a pass; the rest of the set lies
    in the boneyard, so no blocked round (END-2, END-3) would have ended here: who wins
    reads the totals alone.
  table:
    engine: 6
    phase: over
    hands:
      0: [4-3]
      1: [6-3]
    marked: [0, 1]
    boneyard: [rest]
    scores: [7, 9]
    result: {end: blocked, winner: null, scores: [7, 9]}
  expect:
    - variants: [double-6]
      winners: [0]
"""
"""A finished table a blocked round never leaves (fuzz writes such a table where a blank
rule of one's own priced the hands: steps._priced_as_known)."""


def test_lint_asks_a_finished_table_with_a_boneyard_only_who_wins() -> None:
    import dataclasses

    from test_fuzz_s54b import ONE_ROUND_D6

    from mtrain.conformance.lint import check_start

    rs = catalog().rules_file("one-round-d6.yaml", ONE_ROUND_D6)
    [fx] = load_file("over55.yaml", BLOCKED_BONEYARD)
    exp = fx.expect[0]
    assert check_start(fx, exp, rs.name, rs) == []
    asked_more = dataclasses.replace(exp, state={"phase": "over"})
    assert any("tiles in the boneyard" in p for p in check_start(fx, asked_more, rs.name, rs))
