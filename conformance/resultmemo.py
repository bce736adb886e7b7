"""conform's memo of results, for the embedded reference engine: a fixture's entry plays
alike under every rule set that answers alike what its run asked of the rules.

The default `mtrain conform` plays each fixture under every rule set one of its entries
speaks about (dozens each), and most of them read the fixture the same way. The reference
engine and the harness see a rule set only through the questions a traced run records
(partition.py: the flags of reference/rules.py, the options and hand-table rows of the
Ruleset); `mtrain lint` partitions the option space on that ground. Here the first run of
an entry is traced, its answers checked as every answer is (schemas, reading, invariants:
through the traced view of the rules, so that the checks' reads are logged too), and a
pass is kept under the questions it asked (runmemo.QuestionTree); a later rule set that
answers every one of them alike is given that pass without playing. A run that does not
pass keeps nothing, and is played again untraced, so that a failure reads as it always
did. Only for the embedded ReferenceImplementation itself (not a subclass: a mutant or an
engine of its own reads otherwise), and only for an entry that runs more than once.
MTRAIN_RESULT_MEMO=off plays every result.

An entry is known by what a run reads of it (`entry_key`), not by the object: the
situations from play are made per rule set, and the deals among them (a seventh of them
and the later rounds' deals, half of a default run's situations) are the same table and
expectation under the many rule sets of one hand table.
"""

from __future__ import annotations

import os
import threading
from collections import Counter
from collections.abc import Hashable, Sequence
from typing import Any

from mtrain.conformance.adapter import JSON, Implementation, ReferenceImplementation
from mtrain.conformance.answers import (
    CheckedImplementation,
    Problem,
    exact_text,
    state_problems,
)
from mtrain.conformance.fixture import Expectation, Fixture
from mtrain.conformance.runmemo import Question, QuestionTree, as_flags
from mtrain.conformance.runner import Outcome, run_one
from mtrain.conformance.selection import Task
from mtrain.conformance.traced import TracedReference, _rules_of
from mtrain.spec.ruleset import Ruleset

MEMO_ENV = "MTRAIN_RESULT_MEMO"
MEMO_OFF = ("0", "off", "no", "false")
MEMO_ON = ("", "1", "on", "yes", "true")
"""What MEMO_ENV may say, case aside; anything else is warned of (mtrain/cli.py) and
leaves the memo on."""


class TracedChecks(CheckedImplementation):
    """The traced reference with every answer checked, the checks reading the rules
    through its traced view (so that what they read is in its log)."""

    inner: TracedReference

    def state_problems(self, ruleset: JSON, state: Any, dealt: bool = False) -> list[Problem]:
        return state_problems(ruleset, state, dealt=dealt,
                              read_by=(self.inner._traced, self.inner._states))


_Kept = tuple[tuple[str, ...], int, tuple[str, ...], int, int | None, bool]
"""A pass as kept: (messages, null refusals, charged, step, diverged, unreached)."""


def entry_key(fx: Fixture, exp: Expectation) -> bytes | None:
    """Everything a run of the entry `exp` of `fx` reads of them (runner.run_one: the start,
    the steps, what is checked, and the id and clauses its messages and charges name), as
    one exact text (a pickle: equal texts are equal values of equal types); None for one
    pickle cannot write. Not its scope nor its place in a file, which no run reads."""
    return exact_text((fx.id, fx.clauses, fx.table, fx.deal, fx.steps, fx.probes_setup,
                       fx.starts_text(), exp.legal, exp.refused, exp.state,
                       exp.result is ..., None if exp.result is ... else exp.result,
                       exp.winners, exp.match_over, exp.winners_unless_going_on,
                       exp.refused_setup, exp.blocked_scores, exp.own_draw,
                       exp.own_doubles, exp.own_actions, exp.only_actions, exp.own_end,
                       exp.own_totals))


class ResultMemo:
    """The passes found so far, per fixture entry, by what their rule sets answered."""

    def __init__(self, tasks: Sequence[Task]) -> None:
        # each entry by what a run reads of it: equal situations of several rule sets
        # are one entry (an entry pickle cannot write stays one of its own)
        self._keys: dict[tuple[int, int], Hashable] = {}
        runs: Counter[Hashable] = Counter()
        for t in tasks:
            if t.expectation is None or t.sent is None:
                continue
            ident = (id(t.fixture), id(t.expectation))
            key = self._keys.get(ident)
            if key is None:
                key = self._keys[ident] = entry_key(t.fixture, t.expectation) or ident
            runs[key] += 1
        self._shared = {key for key, n in runs.items() if n > 1}
        self._trees: dict[Hashable, QuestionTree] = {}
        # what each rule set answered, by question: every tree asks it the same ones
        self._answers: dict[int, tuple[Ruleset, dict[Question, Any]]] = {}
        self._lock = threading.Lock()
        self.served = 0
        """Results given from the memo (for the benchmarks and tests)."""

    @staticmethod
    def serves(impl: Implementation) -> bool:
        return type(impl) is ReferenceImplementation

    @staticmethod
    def wanted() -> bool:
        """Unless MTRAIN_RESULT_MEMO says off (every result played: the run to set beside
        one through the protocol, which has no such memo)."""
        return os.environ.get(MEMO_ENV, "").strip().lower() not in MEMO_OFF

    def kept(self, task: Task, impl: Implementation) -> _Kept | None:
        """The pass kept for `task`'s entry under a rule set that answered alike what its
        run asked, if any (None: `run` plays it): (messages, null refusals, charged,
        step, diverged, unreached). The pool fills a result in from it directly, as
        `run` would from its Outcome (five results in six of a default run)."""
        fx, exp, rs = task.fixture, task.expectation, task.sent
        if exp is None or rs is None or not self.serves(impl):
            return None
        key = self._keys.get((id(fx), id(exp)))
        if key not in self._shared:
            return None
        rules = _rules_of(rs)
        with self._lock:
            tree = self._trees.get(key)
            if tree is None:
                return None
            said = self._answers.get(id(rs))
            if said is None or said[0] is not rs:
                said = self._answers[id(rs)] = (rs, {})
            found: _Kept | None = tree.find(rules, rs, said[1])[0]
            if found is not None:
                self.served += 1
        return found

    def run(self, task: Task, impl: Implementation, rj: JSON,
            require_clauses: bool = False, looked: bool = False) -> Outcome:
        """The outcome of `task` (as runner.run_one gives it) against `impl` (`looked`:
        the caller found nothing `kept` for it just now, so it is played)."""
        fx, exp, rs = task.fixture, task.expectation, task.sent
        assert exp is not None and rs is not None
        key = self._keys.get((id(fx), id(exp)))
        if key not in self._shared or not self.serves(impl):
            return run_one(fx, rs, exp, impl, rj, require_clauses=require_clauses)
        found = None if looked else self.kept(task, impl)
        if found is not None:
            messages, nulls, charged, step, diverged, unreached = found
            return Outcome.passed(fx, rs.name, list(messages), nulls, list(charged), step,
                                  diverged, unreached)
        with self._lock:
            tree = self._trees.get(key)
            if tree is None:
                tree = self._trees[key] = QuestionTree()
        rules = _rules_of(rs)
        traced = TracedReference(rs)
        try:
            out: Outcome | None = run_one(fx, traced.ruleset, exp, TracedChecks(traced), rj,
                                          require_clauses=require_clauses)
        except Exception:  # played again below, to fail as it would untraced
            out = None
        if out is None or out.status != "pass":
            return run_one(fx, rs, exp, impl, rj, require_clauses=require_clauses)
        kept: _Kept = (tuple(out.messages), out.null_refusals, tuple(out.charged), out.step,
                       out.diverged, out.unreached)
        with self._lock:
            tree.keep(as_flags(traced.log.asked), rules, rs, kept)
        return Outcome(fx, rs.name, "pass", list(out.messages), null_refusals=out.null_refusals,
                       charged=list(out.charged), step=out.step, diverged=out.diverged,
                       unreached=out.unreached)
