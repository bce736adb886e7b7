"""The runner pool: each task (selection.Task) run against the implementation by one of
`jobs` workers, each with an implementation of its own, giving one Result per task; a
known failure (known_failures.py) marked as such, and every result that is not a pass
with the command that reruns it."""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import itertools
import shlex
import signal
import threading
import time
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mtrain.conformance.adapter import (
    JSON,
    Implementation,
    ReferenceImplementation,
    Unsupported,
    ruleset_json,
)
from mtrain.conformance.corpus_files import FIXTURE_ROOT
from mtrain.conformance.declaration import unsupported
from mtrain.conformance.defaults import DEFAULT_TIMEOUT, SITUATIONS
from mtrain.conformance.double_alone import unheld_double
from mtrain.conformance.fixture import Fixture
from mtrain.conformance.follow_probe import outside_bracket
from mtrain.conformance.known_failures import SkipEntry
from mtrain.conformance.lookahead import TASKS_AHEAD, Lookahead
from mtrain.conformance.own_checks import own_checks
from mtrain.conformance.partition import REFUSED_ROUND, round_of_its_own
from mtrain.conformance.process import ConfigurationError, HarnessError
from mtrain.conformance.report import Result
from mtrain.conformance.resultmemo import ResultMemo
from mtrain.conformance.runner import not_a_move, run_one
from mtrain.conformance.selection import Task
from mtrain.conformance.situations import SITUATION_PATH
from mtrain.conformance.step_alone import own_step_refused
from mtrain.conformance.target import Target
from mtrain.spec.catalog import RulesetError, catalog
from mtrain.spec.errors import InputError
from mtrain.spec.ruleset import Ruleset
from mtrain.spec.yamlload import SpecError


class Runner:
    def __init__(self, args: argparse.Namespace, target: Target, info: JSON | None,
                 skips: Sequence[SkipEntry]) -> None:
        self.args = args
        self.target = target
        self.info = info
        self.skips = skips
        self._support: dict[str, str | None] = {}
        self._lock = threading.Lock()
        self._sent: dict[tuple[int, int], tuple[Ruleset, JSON, JSON]] = {}
        self._decisions: dict[int, tuple[Fixture, tuple[tuple[str, str], ...]]] = {}
        self._by_clauses: dict[tuple[str, ...], tuple[tuple[str, str], ...]] = {}
        self.problems: list[str] = []
        """Misbehaviours no result could hold, found by `run_tasks` (the report's
        `problems`: each fails the run)."""
        self.notes: list[str] = []
        """What the implementations did outside the protocol that no result depends on
        (ProcessImplementation's `notes`: the shutdown unanswered), each once: the
        report's warnings, which fail nothing."""
        self.memo: ResultMemo | None = None
        """The passes of the embedded reference engine, kept by what the rule sets read
        (resultmemo.py): set by `mtrain conform` for its tasks."""

    def sent_json(self, rs: Ruleset, impl: Implementation) -> JSON:
        """The rule set as sent to `impl` (adapter.ruleset_json): one object for all its
        tasks, which lets an implementation know it by identity, made again should a
        task have changed it. The embedded reference, which writes into no request, is
        spared the comparison (a dict of dicts, 80,000 times a default run: 2 %)."""
        key = (id(impl), id(rs))
        kept = self._sent.get(key)
        if kept is None or kept[0] is not rs or (
                type(impl) is not ReferenceImplementation and kept[1] != kept[2]):
            kept = self._sent[key] = (rs, ruleset_json(rs), ruleset_json(rs))
        return kept[1]

    def decisions(self, fx: Fixture) -> tuple[tuple[str, str], ...]:
        kept = self._decisions.get(id(fx))
        if kept is None or kept[0] is not fx:
            # a function of the clauses alone: the situations, a fixture each, share a few
            found = self._by_clauses.get(fx.clauses)
            if found is None:
                found = self._by_clauses[fx.clauses] = decisions_of(fx)
            kept = self._decisions[id(fx)] = (fx, found)
        return kept[1]

    def support(self, rs: Ruleset) -> str | None:
        known = self._support.get(rs.name, self)  # asked once per task: no lock once known
        if known is not self:
            return known  # type: ignore[return-value]
        with self._lock:
            if rs.name not in self._support:
                files = getattr(self.args, "rules_from", {})
                asked = bool(getattr(self.args, "variant", None) or files)
                self._support[rs.name] = unsupported(self.info, rs.name, rs, asked=asked,
                                                     from_file=rs.name in files)
            return self._support[rs.name]

    def run(self, task: Task, impl: Implementation) -> Result:
        fx, name = task.fixture, task.variant
        result = Result.of(fx.id, name, fx.path, fx.line, fx.clauses, fx.description,
                           fx.source, self.decisions(fx))
        why = task.why or self.support(task.ruleset)
        skip = (next((s for s in self.skips if s.matches(fx.id, name)), None)
                if self.skips else None)
        if why is not None or task.expectation is None or task.sent is None:
            result.status, result.messages = "not-applicable", [why or "no entry applies"]
            result.rerun = rerun_command(self.args, fx, task.ruleset)
            return result
        result.checks = task.expectation.checks
        start = time.perf_counter()
        kept = self.memo.kept(task, impl) if self.memo is not None else None
        if kept is not None:  # a pass of the embedded reference's, as `memo.run` gives it
            messages, nulls, charged, step, diverged, unreached = kept
            result.messages, result.null_refusals, result.charged = list(messages), nulls, charged
            result.refused_step, result.diverged, result.unreached = step, diverged, unreached
            return self._finish(result, start, skip, task)
        try:
            rj = self.sent_json(task.sent, impl)
            require = getattr(self.args, "require_clauses", False)
            outcome = (self.memo.run(task, impl, rj, require, looked=True)
                       if self.memo is not None else
                       run_one(fx, task.sent, task.expectation,
                               own_checks(impl, task.sent, task.ruleset), rj,
                               require_clauses=require, own=task.ruleset.unknown))
            outcome = not_a_move(outcome, task.sent) or outcome
            result.status, result.messages = outcome.status, list(outcome.messages)
            own = (round_of_its_own(fx, task.ruleset) if outcome.refusal is not None
                   and outcome.status == "fail" and task.expectation.refused_setup is None
                   else None)
            if own is not None:  # its match has no such round: nothing to judge
                # the reason first, the same for every round: the report counts by it
                result.status = "not-applicable"
                result.messages = [REFUSED_ROUND, f"round {own}: {'; '.join(outcome.messages)}"]
                outcome.charged = []
            elif (moved := own_step_refused(outcome, task.expectation)) is not None:
                result.status, result.messages = "not-applicable", moved  # its rule's move
                outcome.charged = []
            elif (unheld := unheld_double(outcome, task.ruleset, impl, rj)) is not None:
                result.status, result.messages = "not-applicable", unheld  # no such double
                outcome.charged = []
            elif (beyond := outside_bracket(outcome, task.ruleset, impl, rj)) is not None:
                result.status, result.messages = "not-applicable", beyond  # its own follow-up
                outcome.charged = []
            result.null_refusals = outcome.null_refusals
            result.charged, result.early = tuple(outcome.charged), outcome.early
            result.refused_step, result.diverged = outcome.step, outcome.diverged
            result.unreached = outcome.unreached
            if getattr(self.args, "format", None) == "html":  # only the page draws it
                result.actual = drawn_state(outcome.states, result)
        except ConfigurationError:
            raise
        except HarnessError as e:
            result.status, result.messages, result.stderr = e.status, [e.message], e.stderr
            if e.starting:  # nothing of the fixture was asked: it rests on no decision
                result.decisions = ()
        except Unsupported as e:  # an adapter run without a worker
            result.status, result.messages = "not-applicable", [e.reason]
        except (KeyboardInterrupt, GeneratorExit):
            raise
        except SystemExit as e:
            result.status = "crash"
            result.messages = [f"the adapter called exit({e.code!r})"]
        except Exception as e:
            result.status = "error"
            result.messages = [f"the implementation's answer could not be used: "
                               f"{type(e).__name__}: {e}{_origin(e)}"]
        return self._finish(result, start, skip, task)

    def _finish(self, result: Result, start: float, skip: SkipEntry | None, task: Task
                ) -> Result:
        """`result` with its duration, its rerun command if it did not pass, and what
        the skip file says of it."""
        result.duration = time.perf_counter() - start
        if result.status != "pass":
            result.rerun = rerun_command(self.args, task.fixture, task.ruleset)
        if skip is not None:
            result.skip_reason = skip.reason
            if result.status != "pass":
                result.messages.insert(0, f"known failure ({result.status}): {skip.reason}")
                result.status = "skip"
        return result


def drawn_state(states: Sequence[JSON], result: Result) -> JSON | None:
    """Of a failure's states (the start, then after each step), the one its picture
    shows: before the refused step, after the step where it departed, or the last."""
    if not states:
        return None
    k = (result.refused_step - 1 if result.refused_step else
         result.diverged if result.diverged is not None else len(states) - 1)
    return states[k] if 0 <= k < len(states) else None


def decisions_of(fx: Fixture) -> tuple[tuple[str, str], ...]:
    """The decisions of this specification among the fixture's clauses, with reasons:
    shown beside a failure so that a decision does not read as a published rule."""
    clauses = catalog().clauses
    return tuple((c, clauses[c].decision or "") for c in fx.clauses
                 if c in clauses and clauses[c].decision)


def _origin(e: BaseException) -> str:
    frames = traceback.extract_tb(e.__traceback__)
    if not frames:
        return ""
    f = frames[-1]
    return f" (at {Path(f.filename).name}:{f.lineno})"


def rerun_command(args: argparse.Namespace, fx: Fixture, rs: Ruleset) -> str:
    """The command that runs one result again, from anywhere: the implementation, the
    fixture by its id, and its rule set as the user gave it (a shipped name, or the
    --rules file). A fixture of the shipped corpus is found by its id alone: its path
    would be an install path (site-packages, build/__editable__), not one to keep."""
    parts = ["mtrain", "conform"]
    if args.impl is not None:
        parts += ["--impl", args.impl]
    elif args.adapter is not None:
        parts += ["--adapter", args.adapter]
    if args.timeout != DEFAULT_TIMEOUT:
        parts += ["--timeout", f"{args.timeout:g}"]
    situation = fx.path.startswith(SITUATION_PATH)
    if args.fixtures is not None and not situation:  # the user's own file, made absolute
        parts += ["--fixtures", _own_file(fx.path)]
    if situation:  # made again by the same count
        parts += ["--situations", str(getattr(args, "situations_run", SITUATIONS))]
    parts += ["-k", fx.id]
    rules_from = getattr(args, "rules_from", {})
    if rs.name in rules_from:
        parts += ["--rules", rules_from[rs.name]]
    elif rs.name != getattr(args, "declared_run", None) and _composable(rs.name):
        parts += ["--variant", rs.name]
    if getattr(args, "require_clauses", False):
        parts.append("--require-clauses")
    return shlex.join(parts)


def _own_file(shown: str) -> str:
    """A fixture file of one's own, absolute: shown relative to the project when it lies
    in it (fixture.py), else as given (relative to where the run started)."""
    path = Path(shown)
    if not path.is_absolute() and not path.is_file():
        path = FIXTURE_ROOT.parent.parent / path
    return str(path.absolute())


def _composable(name: str) -> bool:
    try:
        catalog().ruleset(name)
    except (RulesetError, SpecError, ValueError):
        return False
    return True


def run_tasks(tasks: Sequence[Task], runner: Runner, first: Implementation,
              jobs: int) -> list[Result]:
    """Every task's result, in task order; `jobs` workers, each with its own
    implementation (process targets: one process each)."""
    results: list[Result | None] = [None] * len(tasks)
    made: list[Implementation] = [first]
    abort: list[BaseException] = []
    next_task = iter(range(len(tasks)))
    taken = [0]  # tasks handed out
    workers = max(1, min(jobs, len(tasks)))
    lock = threading.Lock()
    stopping = threading.Event()

    # id of an implementation -> the last task that asked it something: a line found
    # after its last answer is that task's (one not applicable, or a known failure's skip
    # not asked, sent nothing: each worker's run ends with such tasks as often as not)
    last: dict[int, int] = {}

    def worker(impl: Implementation) -> None:
        # behind the protocol, the first requests of the next tasks go out at once
        ahead = Lookahead.of(impl)
        while not abort:
            with lock:
                # a share of what is left, so that every worker has some to the end (in
                # process too: a lock and a slice per task were a tenth of a served one)
                size = max(1, min(TASKS_AHEAD, (len(tasks) - taken[0]) // (2 * workers)))
                chunk = list(itertools.islice(next_task, size))
                taken[0] += len(chunk)
            if not chunk:
                return
            try:
                if ahead is not None:
                    ahead.write(runner.run, [tasks[i] for i in chunk], chunk)
            except BaseException as e:  # KeyboardInterrupt, bugs
                abort.append(e)
                return
            for i in chunk:
                if abort:
                    return
                if ahead is not None:
                    ahead.begin(i)
                asked = getattr(impl, "asked", None)
                try:
                    result = runner.run(tasks[i], impl)
                except BaseException as e:  # ConfigurationError, KeyboardInterrupt, bugs
                    abort.append(e)
                    return
                if stopping.is_set():  # cut short by the harness closing it: no verdict
                    return
                results[i] = result
                if asked is None or getattr(impl, "asked", None) != asked:
                    last[id(impl)] = i

    def run_workers(jobs: int) -> None:
        try:
            jobs = max(1, min(jobs, len(tasks)))
            if jobs == 1:
                worker(first)
            else:
                threads = []
                for k in range(jobs):
                    impl = first if k == 0 else runner.target.make()
                    if k:
                        made.append(impl)
                    t = threading.Thread(target=worker, args=(impl,), daemon=True,
                                         name=f"mtrain-conform-{k}")
                    threads.append(t)
                    t.start()
                for t in threads:
                    while t.is_alive():
                        t.join(0.2)
        finally:
            stopping.set()
            for impl in made:
                close = getattr(impl, "close", None)
                if callable(close):
                    with contextlib.suppress(Exception):
                        close()
                runner.notes += [n for n in getattr(impl, "notes", None) or []
                                 if n not in runner.notes]
                stray = getattr(impl, "strays", None)
                done = results[last.get(id(impl), -1)] if id(impl) in last else None
                if stray and done is not None:
                    task = tasks[last[id(impl)]]
                    results[last[id(impl)]] = _with_stray(
                        done, stray[0], rerun_command(runner.args, task.fixture, task.ruleset))
                elif stray and id(impl) not in last:  # its hello answered twice, say
                    runner.problems.append(
                        f"{stray[0]}; no task asked this process anything after its hello "
                        "(every task it took was not applicable): no result holds the line")

    try:
        run_workers(jobs)
    except KeyboardInterrupt as stop:  # in the main thread, workers of their own
        abort.insert(0, stop)
    if abort:
        first_error = abort[0]
        if isinstance(first_error, ConfigurationError):
            raise InputError(str(first_error)) from None
        if isinstance(first_error, KeyboardInterrupt):  # what finished before it is kept
            raise RunInterrupted(first_error, [r for r in results if r is not None],
                                 len(tasks))
        raise first_error
    out: list[Result] = []
    for task, r in zip(tasks, results, strict=True):
        out.append(r if r is not None else Result(
            task.fixture.id, task.variant, "error", ["not run (the harness stopped)"],
            path=task.fixture.path, line=task.fixture.line, clauses=task.fixture.clauses))
    return out


def _with_stray(result: Result, stray: str, rerun: str) -> Result:
    """`result`, the last its process ran, with the line found after its last answer (a
    ProcessImplementation's `strays`): an error of the protocol, as the same line read by
    a later request would have been; a pass of a known failure is a skip again. A
    result not applicable that asked (its round refused) is an error too: its request was
    answered twice all the same."""
    if result.status not in ("pass", "not-applicable"):
        return dataclasses.replace(result, messages=[*result.messages, stray])
    if result.skip_reason is not None:
        return dataclasses.replace(result, status="skip", rerun=rerun, messages=[
            f"known failure (error): {result.skip_reason}", *result.messages, stray])
    return dataclasses.replace(result, status="error", rerun=rerun,
                               messages=[*result.messages, stray])


class RunInterrupted(KeyboardInterrupt):
    """An interrupt (SIGINT, or SIGTERM as child.Interrupted) during run_tasks, with the
    results that finished before it: a report of them beats a bare 'interrupted'."""

    def __init__(self, cause: KeyboardInterrupt, done: list[Result], total: int) -> None:
        super().__init__(str(cause))
        self.signum = getattr(cause, "signum", signal.SIGINT)
        self.done = done
        self.total = total


def close(impl: Any) -> None:
    close = getattr(impl, "close", None)
    if callable(close):
        with contextlib.suppress(Exception):
            close()
