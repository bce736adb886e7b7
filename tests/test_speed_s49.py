"""Session 49's speed-ups to traced runs keep what they find: a flag peeked again through a
traced view (TracedRules.peek) is answered from the view, logging nothing more, and a
traced run logs what it logged with every peek made afresh; conform's memo of results
keeps a run's peeks as the flags themselves (runmemo.as_flags), and serves what playing
gives."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import pytest

from mtrain.conformance import traced
from mtrain.conformance.adapter import DecodedStates, ReferenceImplementation
from mtrain.conformance.fixture import Fixture, load_corpus
from mtrain.conformance.partition import Partition, explore
from mtrain.conformance.pool import Runner, run_tasks
from mtrain.conformance.report import Result
from mtrain.conformance.resultmemo import ResultMemo, TracedChecks
from mtrain.conformance.runmemo import Node, Question, as_flags
from mtrain.conformance.runner import run_one
from mtrain.conformance.selection import default_rulesets, load_fixtures, select
from mtrain.conformance.target import Target
from mtrain.conformance.traced import (
    MEMO_TRACED,
    Log,
    TracedReference,
    TracedRules,
    TracedRuleset,
    _rules_of,
)
from mtrain.reference.rules import FLAG_OPTIONS
from mtrain.spec.catalog import catalog
from mtrain.spec.scope import Space

FIXTURES = Path(__file__).resolve().parent.parent / "conformance" / "fixtures"


class _CountingLog(Log):
    __slots__ = ("adds",)

    def __init__(self) -> None:
        super().__init__()
        self.adds = 0

    def add(self, options: Any, decides: bool = True, rows: bool = False) -> None:
        self.adds += 1
        super().add(options, decides, rows)


def _view(name: str, log: Log) -> TracedRules:
    rs = catalog().ruleset(name)
    return TracedRules(_rules_of(rs), TracedRuleset.wrap(rs, log), log)


def _differing_flag(a: str, b: str) -> str:
    """A flag whose value differs between the rule sets `a` and `b`."""
    ra, rb = (_rules_of(catalog().ruleset(n)) for n in (a, b))
    return next(f for f in FLAG_OPTIONS if f != "ruleset" and getattr(ra, f) != getattr(rb, f))


def test_a_flag_peeked_again_is_answered_by_the_view_without_logging() -> None:
    flag = _differing_flag("pagat", "puremco")
    log = _CountingLog()
    view = _view("pagat", log)
    first = view.peek(flag)
    after_one = (dict(log.read), set(log.decides), dict(log.asked))
    assert view.peek(flag) == first == getattr(_rules_of(catalog().ruleset("pagat")), flag)
    assert log.adds == 1  # the second peek logged nothing (it called add before)
    assert (dict(log.read), set(log.decides), dict(log.asked)) == after_one
    assert list(log.asked) == [("peek", flag)] and not log.decides
    # another view (its own rules and log) answers its own value, never the first's
    other_log = _CountingLog()
    other = _view("puremco", other_log)
    assert other.peek(flag) != first
    assert other.peek(flag) == getattr(_rules_of(catalog().ruleset("puremco")), flag)
    assert other_log.adds == 1 and list(other_log.asked) == [("peek", flag)]
    # a peek does not keep the flag as read by the engine: reading it logs it as deciding
    assert getattr(view, flag) == first
    assert list(log.asked) == [("peek", flag), ("flag", flag)] and log.decides


def _traced_logs(fixtures: list[Fixture], names: list[str]) -> list[tuple[Any, ...]]:
    """Each fixture's first entry played traced under each rule set, checks and all (as
    conform's memo of results plays a first run), with a fresh memo of traced states:
    each run's log and its outcome."""
    out: list[tuple[Any, ...]] = []
    for fx in fixtures:
        for name in names:
            rs = catalog().ruleset(name)
            traced = TracedReference(rs)
            got = run_one(fx, traced.ruleset, fx.expect[0], TracedChecks(traced), None)
            log = traced.log
            out.append((fx.id, name, got.status, got.messages, list(log.read),
                        sorted(log.decides), sorted(log.sizes), sorted(log.rows),
                        log.counts, list(log.asked)))
    return out


def test_traced_runs_log_alike_with_peeks_answered_by_the_view(
        monkeypatch: pytest.MonkeyPatch) -> None:
    fixtures, errors = load_corpus()
    assert not errors
    # tables with steps (their states read again and again through the traced memo)
    chosen = [f for f in fixtures if f.table is not None and len(f.steps) >= 3][:12]
    names = ["pagat", "puremco", "puremco-d9"]
    monkeypatch.setattr(TracedReference, "_shared_states", DecodedStates(MEMO_TRACED, True))
    kept = _traced_logs(chosen, names)
    assert any(("peek" in {k for k, _ in row[-1]}) for row in kept)  # (so it can differ)
    peek = TracedRules.peek

    def afresh(self: TracedRules, name: str) -> Any:
        object.__getattribute__(self, "_peeked").clear()  # every peek as the first
        return peek(self, name)

    monkeypatch.setattr(TracedRules, "peek", afresh)
    monkeypatch.setattr(TracedReference, "_shared_states", DecodedStates(MEMO_TRACED, True))
    assert _traced_logs(chosen, names) == kept


def test_a_run_s_peeks_are_kept_as_its_flags_once_in_order() -> None:
    asked: list[Question] = [("peek", "a"), ("option", "x"), ("flag", "a"), ("peek", "b"),
                             ("flag", "c"), ("peek", "c"), ("size", 4)]
    assert as_flags(asked) == (("flag", "a"), ("option", "x"), ("flag", "b"),
                               ("flag", "c"), ("size", 4))
    assert as_flags([]) == ()


def _questions(node: Node) -> set[Question]:
    found: set[Question] = set()
    todo = [node]
    while todo:
        n = todo.pop()
        for question, kids in n.branches:
            found.add(question)
            todo += kids.values()
    return found


def _seen(results: list[Result]) -> list[tuple[object, ...]]:
    return [(r.fixture, r.variant, r.status, tuple(r.messages), r.charged, r.null_refusals,
             r.refused_step, r.diverged, r.unreached) for r in results]


def test_the_memo_keeps_no_peek_and_gives_what_playing_gives() -> None:
    path = FIXTURES / "chain-doubles" / "chain.yaml"
    fixtures, errors = load_fixtures(str(path))
    assert not errors
    tasks, _ = select(fixtures, default_rulesets(fixtures), [])
    args = argparse.Namespace(impl=None, adapter=None, timeout=10.0, fixtures=str(path),
                              require_clauses=False, format="text")

    def results(memo: bool) -> tuple[list[Result], ResultMemo | None]:
        ref = ReferenceImplementation()
        runner = Runner(args, Target(lambda: ref, {}, "reference", True), ref.info(), [])
        if memo:
            runner.memo = ResultMemo(tasks)
        return run_tasks(tasks, runner, ref, 1), runner.memo

    played, _ = results(memo=False)
    kept, memo = results(memo=True)
    assert _seen(kept) == _seen(played)
    assert memo is not None and 0 < memo.served < len(played)
    asked = set().union(*(_questions(tree.root) for tree in memo._trees.values()))
    assert any(kind == "flag" for kind, _ in asked)
    assert not any(kind == "peek" for kind, _ in asked)
    # (the premise: played traced, these runs peek)
    assert any("peek" in {k for k, _ in row[-1]} for row in _traced_logs(fixtures[:3], ["pagat"]))


def _cells(part: Partition) -> list[tuple[object, ...]]:
    return [(sorted((o, sorted(vs)) for o, vs in c.region.items()), c.run.outcomes,
             c.run.read, c.run.messages, c.run.values) for c in part.cells]


def test_the_scope_check_s_runs_keep_peeks_as_flags_and_partition_alike(
        monkeypatch: pytest.MonkeyPatch) -> None:
    fixtures, errors = load_corpus()
    assert not errors
    fx = next(f for f in fixtures if f.table is not None and f.steps)
    seen: list[tuple[Question, ...]] = []

    def recorded(asked: Any) -> tuple[Question, ...]:
        asked = tuple(asked)
        seen.append(asked)
        return as_flags(asked)

    monkeypatch.setattr(traced, "as_flags", recorded)
    kept = _cells(explore(fx, Space()))
    assert any(kind == "peek" for asked in seen for kind, _ in asked)  # (the premise)
    monkeypatch.setattr(traced, "as_flags", tuple)  # the runs' questions as asked
    assert _cells(explore(fx, Space())) == kept
