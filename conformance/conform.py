"""`mtrain conform`: run the fixtures against an implementation; `mtrain serve`.

    mtrain conform                                   the embedded reference engine
    mtrain conform --impl "./my-engine --serve"      a program speaking protocol v1
    mtrain conform --adapter my_pkg.engine:Adapter   an in-process Python adapter

Every fixture runs under every rule set it names (or those chosen with --variant),
each giving one result: pass, fail, error, timeout, crash, skip or not-applicable
(report.py). Exit code 0 when nothing failed, 1 when something did, 2 for a usage or
configuration error.
"""

from __future__ import annotations

import argparse
import contextlib
import fnmatch
import importlib
import importlib.util
import math
import os
import shlex
import sys
import threading
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mtrain.cli import quiet_stdout
from mtrain.conformance.adapter import JSON, Implementation, ReferenceImplementation, Unsupported
from mtrain.conformance.declaration import DeclarationError, declared_ruleset, unsupported
from mtrain.conformance.fixture import FIXTURE_ROOT, Expectation, Fixture, load_corpus
from mtrain.conformance.inprocess import TimedImplementation
from mtrain.conformance.outputs import check_output
from mtrain.conformance.partition import applies, stand_in
from mtrain.conformance.process import (
    ConfigurationError,
    HarnessError,
    ProcessImplementation,
    command_argv,
    exit_code_of,
    stoppable,
)
from mtrain.conformance.report import FORMATS, RENDERERS, Report, Result, render_text, write_json
from mtrain.conformance.report_html import render_html
from mtrain.conformance.runner import run_one
from mtrain.conformance.situations import SITUATION_PATH, situations, stand_in_for
from mtrain.spec.catalog import RulesetError, catalog
from mtrain.spec.errors import InputError
from mtrain.spec.ruleset import Ruleset
from mtrain.spec.scope import Space
from mtrain.spec.yamlload import SpecError, file_problem
from mtrain.spec.yamlload import load as load_yaml

__all__ = ["cmd_conform", "register", "unsupported"]

DEFAULT_TIMEOUT = 10.0
SITUATIONS = 700
"""Situations from play per run, shared among its rule sets (see situation_count)."""
SITUATIONS_MIN = 25
METHODS = ("info", "deal", "legal", "apply", "winners")


# --- loading the fixtures -------------------------------------------------------------


def load_fixtures(root: str | None) -> tuple[list[Fixture], list[SpecError]]:
    """The fixtures under `root` (default: the shipped corpus), and every load error."""
    return load_corpus(root)


# --- choosing what to run ------------------------------------------------------------


@dataclass(frozen=True)
class Task:
    """One fixture under one rule set: the entry that speaks about it, or why none can."""

    index: int
    fixture: Fixture
    ruleset: Ruleset
    expectation: Expectation | None
    sent: Ruleset | None = None
    """The rule set sent to the implementation: `ruleset`, or for one with rules of its
    own (`other`), a known rule set that plays this fixture the same."""
    why: str | None = None
    """Set when the fixture depends on a rule the implementation plays its own way."""

    @property
    def variant(self) -> str:
        return self.ruleset.name


@dataclass(frozen=True)
class SkipEntry:
    fixture: str
    variant: str | None
    reason: str

    def matches(self, fixture: str, variant: str) -> bool:
        return (fnmatch.fnmatchcase(fixture, self.fixture)
                and (self.variant is None or fnmatch.fnmatchcase(variant, self.variant)))


def load_skips(path: str) -> list[SkipEntry]:
    """The --skip file: a YAML list of {fixture, variant (optional), reason}."""
    try:  # the project's loader: file:line errors, no duplicate keys, aliases bounded
        doc = load_yaml(path)
    except SpecError as e:
        if e.message == "empty file":
            return []
        raise InputError(f"--skip {e}") from None
    data = doc.data
    if not isinstance(data, list):
        raise InputError(f"--skip {path}: expected a list of {{fixture, variant, reason}}")
    out = []
    for i, item in enumerate(data, 1):
        where = f"--skip {path}:{doc.line_of((i - 1,))}: entry {i}"
        if not isinstance(item, dict):
            raise InputError(f"{where}: expected {{fixture, variant, reason}}, got {item!r}")
        extra = set(item) - {"fixture", "variant", "reason"}
        if extra:
            raise InputError(f"{where}: unknown key {sorted(extra)[0]!r}")
        fixture, variant, reason = item.get("fixture"), item.get("variant"), item.get("reason")
        if not isinstance(fixture, str) or not fixture:
            raise InputError(f"{where}: 'fixture' (a fixture id) is required")
        if variant is not None and not isinstance(variant, str):
            raise InputError(f"{where}: 'variant' must be a variant name")
        if not isinstance(reason, str) or not reason.strip():
            raise InputError(f"{where}: every known failure needs a 'reason'")
        out.append(SkipEntry(fixture, variant, reason.strip()))
    return out


def id_matches(fixture_id: str, patterns: Sequence[str]) -> bool:
    """-k: a substring of the id, or a glob (*, ?, [...]) matching the whole id."""
    for p in patterns:
        if any(c in p for c in "*?[") and fnmatch.fnmatchcase(fixture_id, p):
            return True
        if p in fixture_id:
            return True
    return not patterns


def normalize_variant(name: str) -> str:
    return "+".join(part.strip() for part in name.split("+"))


def check_variants(names: Sequence[str]) -> list[Ruleset]:
    out = []
    cat = catalog()
    for raw in names:
        try:
            out.append(cat.ruleset(normalize_variant(raw)))
        except (RulesetError, SpecError) as e:
            raise InputError(f"--variant {raw}: {e}") from None
    return out


def read_rules_files(paths: Sequence[str]) -> list[Ruleset]:
    return [rs for rs, _ in read_rules(paths)]


def read_rules(paths: Sequence[str], asked: Sequence[Ruleset] = ()
               ) -> list[tuple[Ruleset, str]]:
    """The rule set of each --rules file, with its path: a file given twice is read once,
    and two rule sets of one name (two files, or a file and a --variant in `asked`)
    are refused, naming both, unless they are the same rules."""
    out: list[tuple[Ruleset, str]] = []
    by_name: dict[str, tuple[Ruleset, str]] = {rs.name: (rs, f"--variant {rs.name}")
                                               for rs in asked}
    seen: set[str] = set()
    for path in paths:
        problem = file_problem(path)
        if problem is not None:
            raise InputError(f"--rules {path}: {problem}")
        real = os.path.realpath(path)
        if real in seen:
            continue
        seen.add(real)
        rs = catalog().rules_file(path)  # a SpecError names the file and line
        other = by_name.get(rs.name)
        if other is not None:
            if same_rules(rs, other[0]):
                continue
            raise InputError(f"--rules {path}: rule set {rs.name!r} is also the name of "
                             f"{other[1]}, with other rules; give each a name of its own "
                             "(`name:` in the file)")
        by_name[rs.name] = (rs, path)
        out.append((rs, path))
    return out


def same_rules(a: Ruleset, b: Ruleset) -> bool:
    return dict(a.choices) == dict(b.choices) and a.hand_table == b.hand_table


def default_rulesets(fixtures: Sequence[Fixture]) -> list[Ruleset]:
    """The shipped variants, each with every overlay that applies to it, and every rule set
    a fixture names: what `mtrain conform` runs when nothing narrows it."""
    cat = catalog()
    names: list[str] = []
    for base in cat.variants:
        names.append(base)
        for overlay in cat.overlays:
            names.append(f"{base}+{overlay}")
    names += [n for fx in fixtures for n, _ in fx.rulesets()]
    out: dict[str, Ruleset] = {}
    for name in names:
        if name in out:
            continue
        try:
            out[name] = cat.ruleset(name)
        except (RulesetError, SpecError):
            continue  # an overlay that does not apply to that base
    return list(out.values())


def choose_rulesets(asked: Sequence[Ruleset], declared: Ruleset | None,
                    fixtures: Sequence[Fixture]) -> tuple[list[Ruleset], str, list[str]]:
    """(the rule sets to run, why those, warnings): those asked for (--variant, --rules),
    else the one the implementation declares, else the default matrix."""
    if asked:
        warn = [] if declared is None else [
            f"the implementation declares its rules ({declared.name}); running the rule "
            "sets asked for instead"]
        return list(asked), "as asked", warn
    if declared is not None:
        return [declared], "declared by the implementation", []
    return default_rulesets(fixtures), "the default matrix", []


def select(fixtures: Sequence[Fixture], rulesets: Sequence[Ruleset],
           patterns: Sequence[str], space: Space | None = None
           ) -> tuple[list[Task], dict[str, int]]:
    """Every fixture under every rule set one of its entries speaks about; and, per rule
    set, how many selected fixtures speak only about other rules."""
    space = space or Space()
    tasks: list[Task] = []
    outside: dict[str, int] = {rs.name: 0 for rs in rulesets}
    for fx in fixtures:
        if not id_matches(fx.id, patterns):
            continue
        for rs in rulesets:
            exp, why = entry_for(fx, rs, space)
            if exp is None and why is None:
                outside[rs.name] += 1
                continue
            sent = None if exp is None else stand_in(rs, exp, space)
            tasks.append(Task(len(tasks), fx, rs, exp, sent, why))
    return tasks, outside


def situation_count(asked: int | None, fixtures_given: bool, rulesets: Sequence[Ruleset]) -> int:
    """Situations per rule set: as asked; else none beside a corpus of one's own; else
    SITUATIONS shared among the rule sets run, at least SITUATIONS_MIN each."""
    if asked is not None:
        return asked
    if fixtures_given or not rulesets:
        return 0
    return max(SITUATIONS_MIN, SITUATIONS // len(rulesets))


def situation_tasks(rulesets: Sequence[Ruleset], count: int, patterns: Sequence[str],
                    first: int) -> tuple[list[Task], list[str]]:
    """Tables from play under each rule set (conformance/situations.py), as tasks; and a
    warning for each rule set that gets fewer than asked."""
    tasks: list[Task] = []
    warnings = []
    for rs in rulesets:
        sent = stand_in_for(rs) if count else None
        made = situations(rs, count, lambda fid: id_matches(fid, patterns)) if sent else []
        tasks += [Task(first + len(tasks) + k, fx, rs, fx.expect[0], sent)
                  for k, fx in enumerate(made)]
        if count and rs.unknown and (not patterns or not made):
            warnings.append(
                f"{len(made)} situations from play under {rs.name} (of {count} asked): "
                f"only rounds that never read {', '.join(rs.unknown)} (played its own "
                "way) speak about it")
    return tasks, warnings


def entry_for(fx: Fixture, rs: Ruleset, space: Space) -> tuple[Expectation | None, str | None]:
    """(the entry that speaks about `rs`, None), (None, why it cannot run), or (None, None)
    when every entry speaks about other rules."""
    if not rs.unknown and not rs.custom_table:
        values = dict(rs.choices)
        return next((e for e in fx.expect if e.scope.contains(values)), None), None
    reasons = []
    for exp in fx.expect:
        why = applies(exp, fx, rs, space)
        if why is None:
            return exp, None
        if why.startswith("its outcome depends"):
            reasons.append(why)
    return None, (reasons[0] if reasons else None)


# --- implementations -----------------------------------------------------------------


def load_adapter(spec: str) -> tuple[Any, Callable[[], Any], bool]:
    """(an instance, a factory for more, whether instances are shared) from MODULE:OBJECT.

    MODULE is a module name (importable from the current folder) or a path to a .py
    file; OBJECT is an attribute (dotted for nested ones): an instance, or a class that
    takes no arguments. Anything wrong is a InputError naming what.
    """
    module_name, sep, attr = spec.rpartition(":")
    if not sep or not module_name or not attr:
        raise InputError(f"--adapter {spec}: expected MODULE:OBJECT, e.g. "
                         "my_engine.conformance:Adapter")
    try:
        if module_name.endswith(".py") or os.sep in module_name or "/" in module_name:
            path = Path(module_name)
            problem = file_problem(path)
            if problem == "file not found":
                raise InputError(f"--adapter {spec}: no such file {module_name}")
            if problem is not None:  # a FIFO would be waited on for ever
                raise InputError(f"--adapter {spec}: {module_name}: {problem}")
            mspec = importlib.util.spec_from_file_location(path.stem, path)
            assert mspec is not None and mspec.loader is not None
            module = importlib.util.module_from_spec(mspec)
            sys.modules[path.stem] = module
            mspec.loader.exec_module(module)
        else:
            if "" not in sys.path and os.getcwd() not in sys.path:
                sys.path.insert(0, os.getcwd())
            module = importlib.import_module(module_name)
    except InputError:
        raise
    except ImportError as e:
        raise InputError(f"--adapter {spec}: cannot import {module_name}: {e}") from None
    except Exception as e:
        raise InputError(f"--adapter {spec}: importing {module_name} failed: "
                         f"{type(e).__name__}: {e}") from None
    obj: Any = module
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise InputError(f"--adapter {spec}: {module_name} has no attribute {attr!r}"
                             ) from None
    if isinstance(obj, type):
        cls = obj
        try:
            instance = cls()
        except Exception as e:
            raise InputError(f"--adapter {spec}: {attr}() failed: {type(e).__name__}: {e}"
                             ) from None
        factory: Callable[[], Any] = cls
        shared = False
    else:
        instance, shared = obj, True

        def factory() -> Any:
            return instance
    missing = [m for m in METHODS if not callable(getattr(instance, m, None))]
    if missing:
        raise InputError(f"--adapter {spec}: {attr} is not an implementation: it lacks "
                         f"{', '.join(missing)} (see mtrain.conformance.adapter.Implementation)")
    return instance, factory, shared


@dataclass
class Target:
    """How to get implementations for the workers, and how to describe them."""

    make: Callable[[], Implementation]
    describe: dict[str, Any]
    kind: str  # reference | adapter | process
    shared: bool = False


def target_of(args: argparse.Namespace) -> Target:
    if args.impl is not None:
        try:
            argv = command_argv(args.impl)
        except ConfigurationError as e:
            raise InputError(f"--impl: {e}") from None
        timeout = args.timeout

        def make_process() -> Implementation:
            return ProcessImplementation(argv, timeout=timeout)
        return Target(make_process, {"command": shlex.join(argv)}, "process")
    if args.adapter is not None:
        instance, factory, shared = load_adapter(args.adapter)
        timeout, spec = args.timeout, args.adapter
        first: list[Any] = [instance]

        def make_adapter() -> Implementation:
            inner = first.pop() if first else factory()
            return TimedImplementation(inner, timeout, spec)
        return Target(make_adapter, {"adapter": args.adapter}, "adapter", shared)
    reference = ReferenceImplementation()
    return Target(lambda: reference, {"adapter": "embedded reference engine"}, "reference",
                  True)


def greet(impl: Implementation, target: Target) -> tuple[JSON | None, str | None]:
    """The implementation's info, or None and a warning when it cannot give it now."""
    try:
        info = impl.info()
    except ConfigurationError as e:
        raise InputError(str(e)) from None
    except HarnessError as e:
        return None, f"the implementation did not answer the hello ({e.status}): {e.message}"
    except Exception as e:
        raise InputError(f"the adapter's info() failed: {type(e).__name__}: {e}") from None
    if not isinstance(info, dict):
        raise InputError(f"the implementation's info is not an object: {info!r}")
    return info, None


# --- running -------------------------------------------------------------------------


class Runner:
    def __init__(self, args: argparse.Namespace, target: Target, info: JSON | None,
                 skips: Sequence[SkipEntry]) -> None:
        self.args = args
        self.target = target
        self.info = info
        self.skips = skips
        self._support: dict[str, str | None] = {}
        self._lock = threading.Lock()

    def support(self, rs: Ruleset) -> str | None:
        with self._lock:
            if rs.name not in self._support:
                self._support[rs.name] = unsupported(self.info, rs.name, rs)
            return self._support[rs.name]

    def run(self, task: Task, impl: Implementation) -> Result:
        fx, name = task.fixture, task.variant
        result = Result(fx.id, name, "pass", path=fx.path, line=fx.line, clauses=fx.clauses,
                        description=fx.description, source=fx.source,
                        decisions=decisions_of(fx))
        why = task.why or self.support(task.ruleset)
        skip = next((s for s in self.skips if s.matches(fx.id, name)), None)
        if why is not None or task.expectation is None or task.sent is None:
            result.status, result.messages = "not-applicable", [why or "no entry applies"]
            result.rerun = rerun_command(self.args, fx, task.ruleset)
            return result
        result.checks = task.expectation.checks
        start = time.perf_counter()
        try:
            outcome = run_one(fx, task.sent, task.expectation, impl,
                              require_clauses=getattr(self.args, "require_clauses", False))
            result.status, result.messages = outcome.status, list(outcome.messages)
            result.null_refusals = outcome.null_refusals
            result.charged = tuple(outcome.charged)
            result.refused_step, result.diverged = outcome.step, outcome.diverged
            result.unreached = outcome.unreached
        except ConfigurationError:
            raise
        except HarnessError as e:
            result.status, result.messages, result.stderr = e.status, [e.message], e.stderr
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
        result.duration = time.perf_counter() - start
        if result.status != "pass":
            result.rerun = rerun_command(self.args, fx, task.ruleset)
        if skip is not None:
            result.skip_reason = skip.reason
            if result.status != "pass":
                result.messages.insert(0, f"known failure ({result.status}): {skip.reason}")
                result.status = "skip"
        return result


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
    parts = ["mtrain", "conform"]
    if args.impl is not None:
        parts += ["--impl", args.impl]
    elif args.adapter is not None:
        parts += ["--adapter", args.adapter]
    if args.timeout != DEFAULT_TIMEOUT:
        parts += ["--timeout", f"{args.timeout:g}"]
    # shown relative to the project (fixture.py), so made absolute: a rerun from anywhere
    where = Path(fx.path) if Path(fx.path).is_absolute() else FIXTURE_ROOT.parent.parent / fx.path
    situation = fx.path.startswith(SITUATION_PATH)
    if not situation and (args.fixtures is not None or where.is_file()):
        parts += ["--fixtures", str(where)]
    if situation:  # made again by the same count
        parts += ["--situations", str(getattr(args, "situations_run", SITUATIONS))]
    parts += ["-k", fx.id]
    rules_from = getattr(args, "rules_from", {})
    if rs.name in rules_from:
        parts += ["--rules", rules_from[rs.name]]
    elif _composable(rs.name):
        parts += ["--variant", rs.name]
    return shlex.join(parts)


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
    lock = threading.Lock()

    def worker(impl: Implementation) -> None:
        while not abort:
            with lock:
                i = next(next_task, None)
            if i is None:
                return
            try:
                results[i] = runner.run(tasks[i], impl)
            except BaseException as e:  # ConfigurationError, KeyboardInterrupt, bugs
                abort.append(e)
                return

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
        for impl in made:
            close = getattr(impl, "close", None)
            if callable(close):
                with contextlib.suppress(Exception):
                    close()
    if abort:
        e = abort[0]
        if isinstance(e, ConfigurationError):
            raise InputError(str(e)) from None
        raise e
    out: list[Result] = []
    for task, r in zip(tasks, results, strict=True):
        out.append(r if r is not None else Result(
            task.fixture.id, task.variant, "error", ["not run (the harness stopped)"],
            path=task.fixture.path, line=task.fixture.line, clauses=task.fixture.clauses))
    return out


# --- the command ---------------------------------------------------------------------


def cmd_conform(args: argparse.Namespace) -> int:
    started = time.perf_counter()
    if args.fixtures is not None and not Path(args.fixtures).exists():
        raise InputError(f"--fixtures: no such file or folder: {args.fixtures}")
    if args.output:
        check_output(args.output, "--output")
    asked = check_variants(args.variant)
    from_files = read_rules(args.rules, asked)
    args.rules_from = {rs.name: path for rs, path in from_files}
    asked += [rs for rs, _ in from_files]
    skips = load_skips(args.skip) if args.skip else []
    fixtures, load_errors = load_fixtures(args.fixtures)
    if not fixtures and not load_errors:
        raise InputError(f"no fixtures found under {args.fixtures or 'the shipped corpus'}")
    target = target_of(args)
    first = target.make()
    try:
        info, warning = greet(first, target)
        declared = declared_ruleset(info)
    except DeclarationError as e:
        _close(first)
        raise InputError(f"the implementation's declared rules: {e}") from None
    except BaseException:
        _close(first)
        raise
    warnings = [warning] if warning else []
    rulesets, chosen, more = choose_rulesets(asked, declared, fixtures)
    warnings += more
    try:
        tasks, outside = select(fixtures, rulesets, args.pattern or [])
    except BaseException:
        _close(first)
        raise
    count = situation_count(args.situations, args.fixtures is not None, rulesets)
    args.situations_run = count
    played, more = situation_tasks(rulesets, count, args.pattern or [], len(tasks))
    tasks += played
    warnings += more
    if args.pattern and not any(id_matches(t.fixture.id, args.pattern) for t in tasks):
        warnings.append(f"no fixture id matches -k {' '.join(args.pattern)}")
    for s in skips:
        if not any(s.matches(t.fixture.id, t.variant) for t in tasks):
            warnings.append(f"skip entry {s.fixture}"
                            + (f" [{s.variant}]" if s.variant else "")
                            + " matches no selected fixture")
    runner = Runner(args, target, info, skips)
    try:
        results = run_tasks(tasks, runner, first, args.jobs)
    except KeyboardInterrupt as e:
        print("mtrain conform: interrupted", file=sys.stderr)
        return exit_code_of(e)
    described = {**(info or {}), **target.describe}
    for key in ("id", "ok", "rules"):
        described.pop(key, None)
    report = Report(results, described, [str(e) for e in load_errors], warnings,
                    time.perf_counter() - started, outside=outside,
                    rulesets=f"{len(rulesets)} rule sets, {chosen}")
    try:
        emit(report, args, tasks)
    except BrokenPipeError:  # `mtrain conform | head`: the verdict stands, not exit 0
        quiet_stdout()
    return report.exit_code


def _close(impl: Any) -> None:
    close = getattr(impl, "close", None)
    if callable(close):
        with contextlib.suppress(Exception):
            close()


class FixtureIllustrator:
    """For the HTML report: a failure's expected legal actions, and its table drawn by
    mtrain.conformance.render as the reference engine sets it up, with the expected legal plays and
    the implementation's wrong ones marked."""

    def __init__(self, tasks: Sequence[Task]) -> None:
        self.tasks = {(t.fixture.id, t.variant): t for t in tasks}

    def expected_legal(self, result: Result) -> list[str] | None:
        task = self.tasks.get((result.fixture, result.variant))
        exp = None if task is None else task.expectation
        return None if exp is None or exp.legal is None else list(exp.legal)

    def picture(self, result: Result, missing: list[str], extra: list[str]) -> str | None:
        from mtrain.conformance.render import draw_fixture

        task = self.tasks.get((result.fixture, result.variant))
        if task is None or task.sent is None:
            return None
        # Any: mypy sees this package both as conformance.* and, from mtrain.conformance.render, as
        # mtrain.conformance.*; the two Fixture classes are one at run time.
        fx: Any = task.fixture
        sent: Any = task.sent
        upto = _drawn_step(result)
        if upto is not None and upto < len(fx.steps):  # an earlier table: no legal marks
            return draw_fixture(fx, sent, upto=upto,
                                title=f"{fx.id} under {result.variant}, {_step_name(upto)}")
        return draw_fixture(fx, sent, missing=missing, extra=extra,
                            title=f"{fx.id} under {result.variant}")


def _drawn_step(result: Result) -> int | None:
    """The steps played for a failure's picture: up to the step the implementation
    refused (the state before it), or to the step after which its state departed; None
    for the fixture's own state after every step."""
    if result.refused_step:
        return result.refused_step - 1
    return result.diverged


def _step_name(k: int) -> str:
    return "before step 1" if k == 0 else f"after step {k}"


def emit(report: Report, args: argparse.Namespace, tasks: Sequence[Task] = ()) -> None:
    if args.format == "text":
        if args.output:
            try:
                with open(args.output, "w", encoding="utf-8") as f:
                    render_text(report, f, verbose=args.verbose)
            except OSError as e:
                raise InputError(f"--output {args.output}: {e.strerror or e}") from None
        else:
            render_text(report, sys.stdout, rich=sys.stdout.isatty(), verbose=args.verbose)
            sys.stdout.flush()
        if args.output:
            print(report.headline())
        return
    if args.format == "json":  # written as it is made: the largest report there is
        if args.output:
            try:
                with open(args.output, "w", encoding="utf-8") as f:
                    write_json(report, f)
            except OSError as e:
                raise InputError(f"--output {args.output}: {e.strerror or e}") from None
            print(report.headline())
        else:
            write_json(report, sys.stdout)
            sys.stdout.flush()
        return
    if args.format == "html":
        text = render_html(report, FixtureIllustrator(tasks))
    else:
        text = RENDERERS[args.format](report)
    if args.output:
        try:
            Path(args.output).write_text(text, encoding="utf-8")
        except OSError as e:
            raise InputError(f"--output {args.output}: {e.strerror or e}") from None
        print(report.headline())
    else:
        sys.stdout.write(text)
        sys.stdout.flush()


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0 < value < math.inf:
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds: {text!r}")
    return value


def _whole(least: int) -> Callable[[str], int]:
    """An argparse type: a whole number of at least `least`."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
        if value < least:
            raise argparse.ArgumentTypeError(f"must be at least {least}: {text!r}")
        return value
    return parse


_positive_int = _whole(1)
_count = _whole(0)


def register(sub: Any) -> None:
    """Add `conform` and `serve` (conformance/serve.py) to the `mtrain` command line."""
    p = sub.add_parser(
        "conform", help="run the conformance fixtures against an implementation",
        description="Run the fixtures against an implementation (default: the embedded "
        "reference engine) under every rule set they name. Exit 0 when nothing failed, "
        "1 when something failed, 2 for a usage or configuration error.")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--impl", metavar="COMMAND",
                       help="a program speaking protocol v1 on stdin/stdout (split like a "
                       "shell does, run without one), e.g. \"mtrain serve\"")
    which.add_argument("--adapter", metavar="MODULE:OBJECT",
                       help="an in-process Python implementation: an instance or a "
                       "zero-argument class (MODULE may be a .py path)")
    p.add_argument("--variant", action="append", default=[], metavar="VARIANT",
                   help="run under this rule set, e.g. puremco or pagat+blanks-25 "
                   "(repeatable)")
    p.add_argument("--rules", action="append", default=[], metavar="FILE",
                   help="run under the rule set of this rule-set file (repeatable; "
                   "`mtrain identify` writes one)")
    p.add_argument("--fixtures", metavar="PATH", help="a fixture file or folder "
                   "(default: the shipped corpus)")
    p.add_argument("-k", dest="pattern", action="append", metavar="PATTERN",
                   help="only fixtures whose id contains PATTERN or matches it as a glob "
                   "(repeatable)")
    p.add_argument("--situations", type=_count, default=None, metavar="N",
                   help="also run N tables from play per rule set, legal sets from the "
                   f"formalisation (default: {SITUATIONS} shared among the rule sets, at "
                   f"least {SITUATIONS_MIN} each; none with --fixtures; 0: none)")
    p.add_argument("--format", choices=FORMATS, default="text", help="report format")
    p.add_argument("--output", metavar="FILE", help="write the report to FILE")
    p.add_argument("--skip", metavar="FILE", help="known failures: a YAML list of "
                   "{fixture, variant (optional), reason}")
    p.add_argument("--timeout", type=_positive_float, default=DEFAULT_TIMEOUT,
                   metavar="SECONDS", help=f"per request (default {DEFAULT_TIMEOUT:g})")
    p.add_argument("--jobs", "-j", type=_positive_int, default=1, metavar="N",
                   help="N implementation processes at once (for --adapter, N worker "
                   "processes)")
    p.add_argument("--require-clauses", action="store_true",
                   help="a refusal must name the clause that refuses it (a refusal naming "
                   "none passes by default; the summary counts them)")
    p.add_argument("-v", "--verbose", action="store_true", help="list every result")
    p.set_defaults(func=stoppable(cmd_conform, "conform"))

    from mtrain.conformance.serve import register as register_serve

    register_serve(sub)
