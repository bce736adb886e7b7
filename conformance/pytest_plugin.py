"""A pytest plugin: the conformance fixtures as tests in an implementer's own suite.

    pytest --mtrain-adapter my_engine.conformance:Adapter
    pytest --mtrain-impl "./my-engine --serve"

adds one test per fixture and rule set the engine plays, named
`mtrain::<fixture id>[<variant>]`, e.g. `mtrain::doubles-007[puremco]`; `-k doubles`,
`-k puremco` or `-k DBL-6` (a clause) pick some. A result that is not a pass fails the
test with the fixture's file and line, its clauses, and what differs. The rule sets the
engine does not play (its hello's `rules`, `variants`, `options`) give no test at all:
they are counted once in the header, with the reasons, so that the session's result is
the conformance result (an `unsupported` answer at run time is still a skip). Options:
--mtrain-fixtures PATH (default: the shipped corpus), --mtrain-variant V (repeatable),
--mtrain-situations N (situations from play, as `mtrain conform --situations`),
--mtrain-timeout SECONDS (per request), --mtrain-start-timeout SECONDS (the hello that
opens each process, which waits on its start; as `mtrain conform --start-timeout`).
Without --mtrain-adapter or --mtrain-impl the plugin does nothing. It is registered under
the pytest11 entry point "mtrain".
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from mtrain.conformance.defaults import (
    DEFAULT_START_TIMEOUT,
    DEFAULT_TIMEOUT,
    SITUATIONS_MAX,
    START_HELP,
)

if TYPE_CHECKING:
    from mtrain.conformance.pool import Runner
    from mtrain.conformance.report import Result
    from mtrain.conformance.selection import Task


def _seconds(text: str) -> float:
    """--mtrain-timeout and --mtrain-start-timeout: a time a request or a start can take, as
    `mtrain conform --timeout` reads it
    (float() took nan, which failed the hello with a ValueError, and 0 or -1, which timed
    out every request; 0 was read as the default)."""
    import argparse
    import math

    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 < value < math.inf:
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds: {text!r}")
    return value


def _count(text: str) -> int:
    """--mtrain-situations: a number of situations, 0 to SITUATIONS_MAX, as `mtrain
    conform --situations` reads it (-5 was taken as none)."""
    import argparse

    if not (text.isascii() and text.isdigit() and int(text) <= SITUATIONS_MAX):
        raise argparse.ArgumentTypeError(f"must be a whole number from 0 to "
                                         f"{SITUATIONS_MAX:,}: {text!r}")
    return int(text)


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("mtrain", "Mexican Train conformance fixtures (mtrain)")
    group.addoption("--mtrain-adapter", metavar="MODULE:OBJECT", default=None,
                    help="run the mtrain fixtures against this in-process implementation "
                    "(an instance or a zero-argument class)")
    group.addoption("--mtrain-impl", metavar="COMMAND", default=None,
                    help="run the mtrain fixtures against a program speaking protocol v1")
    group.addoption("--mtrain-fixtures", metavar="PATH", default=None,
                    help="a fixture file or folder (default: the shipped corpus)")
    group.addoption("--mtrain-variant", metavar="VARIANT", action="append", default=[],
                    help="only this rule set (repeatable)")
    group.addoption("--mtrain-situations", metavar="N", type=_count, default=None,
                    help="situations from play per rule set (default as `mtrain conform`: "
                    "700 shared among the rule sets, none with --mtrain-fixtures)")
    group.addoption("--mtrain-timeout", metavar="SECONDS", type=_seconds,
                    default=DEFAULT_TIMEOUT,
                    help=f"per request (default {DEFAULT_TIMEOUT:g})")
    # the hello waits on the program's start: bounded by --mtrain-timeout, a JVM's start
    # made every request's bound as long, and every hang as slow to find
    group.addoption("--mtrain-start-timeout", metavar="SECONDS", type=_seconds,
                    default=DEFAULT_START_TIMEOUT, help=START_HELP)


class _State:
    """What the plugin set up for this session."""

    def __init__(self, runner: Runner, tasks: list[Task], impl: Any,
                 left_out: Counter[str], rulesets: str) -> None:
        self.runner = runner
        self.tasks = tasks
        self.impl = impl
        self.left_out = left_out
        """Why results were not collected (the engine does not play them), with counts."""
        self.rulesets = rulesets


_KEY = pytest.StashKey[_State]()


def pytest_configure(config: pytest.Config) -> None:
    adapter = config.getoption("mtrain_adapter")
    impl = config.getoption("mtrain_impl")
    if adapter is None and impl is None:
        return
    given = [f"--mtrain-{name}" for name, value in (("adapter", adapter), ("impl", impl))
             if value is not None]
    if len(given) > 1:  # as conform's: the run took one and said nothing of the other
        raise pytest.UsageError("mtrain: --mtrain-adapter and --mtrain-impl name two "
                                "implementations: give one")
    if not (adapter or impl).strip():  # an unset shell variable: the plugin did nothing
        raise pytest.UsageError(f"mtrain: {given[0]} is empty: name the implementation")
    import argparse

    from mtrain.conformance.declaration import DeclarationError, declared_ruleset
    from mtrain.conformance.pool import Runner
    from mtrain.conformance.selection import (
        check_variants,
        choose_rulesets,
        impossible_tables,
        load_fixtures,
        select,
        shipped_fixtures,
        situation_count,
        situation_tasks,
    )
    from mtrain.conformance.target import greet, target_of
    from mtrain.spec.errors import InputError

    fixtures_path = config.getoption("mtrain_fixtures")
    args = argparse.Namespace(
        impl=impl, adapter=adapter, fixtures=fixtures_path, pattern=None,
        timeout=config.getoption("mtrain_timeout"),
        start_timeout=config.getoption("mtrain_start_timeout"),
        variant=config.getoption("mtrain_variant"),
        # a message about a bound names the plugin's option, not conform's --start-timeout
        flags=("--mtrain-timeout", "--mtrain-start-timeout"))
    try:
        if fixtures_path is not None and not Path(fixtures_path).exists():
            raise InputError(f"--mtrain-fixtures: no such file or folder: {fixtures_path}")
        variants = check_variants(args.variant)
        fixtures, errors = load_fixtures(fixtures_path)
        if errors:
            raise InputError("the fixtures do not load:\n" + "\n".join(map(str, errors)))
        if not fixtures:  # no test, and no word of why
            from mtrain.conformance.corpus_files import none_found

            raise InputError("--mtrain-fixtures: " + none_found(
                str(fixtures_path), [fixtures_path] if fixtures_path else []))
        target = target_of(args)
        first = target.make()
        info = greet(first, target)  # a hello that fails is said once, as a usage error
        try:
            declared = declared_ruleset(info)
        except DeclarationError as e:
            raise InputError(f"the implementation's declared rules: {e}") from None
    except InputError as e:
        raise pytest.UsageError(f"mtrain: {plugin_words(str(e))}") from None
    rulesets, why, _warnings = choose_rulesets(variants, declared, fixtures)
    tasks, _outside = select(fixtures, rulesets, [])
    if fixtures_path is not None and not shipped_fixtures(fixtures_path):
        # a table that cannot be is the fixture's fault, as conform says (it was a test
        # of the implementation's, failed as an error)
        tasks, faults = impossible_tables(tasks)
        if faults:
            raise pytest.UsageError("mtrain: the fixtures do not load:\n" + "\n".join(faults))
    count = situation_count(config.getoption("mtrain_situations"), fixtures_path is not None,
                            rulesets)
    args.situations_run = count
    tasks += situation_tasks(rulesets, count, [], len(tasks))[0]
    runner = Runner(args, target, info, [])
    played, left_out = _played(tasks, runner)
    config.stash[_KEY] = _State(runner, played, first, left_out,
                                f"{len(rulesets)} rule sets, {why}")


_CONFORM_FLAG = re.compile(r"^--(variant|adapter|impl|fixtures|timeout|start-timeout)\b")


def plugin_words(message: str) -> str:
    """`message` with the conform option it opens with (the libraries' errors name the
    command line's: "--variant Pagat: unknown variant") named as the plugin's, the only
    one its user can give (--variant is an unknown argument to pytest)."""
    return _CONFORM_FLAG.sub(r"--mtrain-\1", message)


def _played(tasks: list[Task], runner: Runner) -> tuple[list[Task], Counter[str]]:
    """The tasks the engine plays, and why the others are left out (as conform would
    report them not applicable), with how many each reason leaves out."""
    played: list[Task] = []
    left_out: Counter[str] = Counter()
    for task in tasks:
        why = task.why or runner.support(task.ruleset)
        if why is None and (task.expectation is None or task.sent is None):
            why = "no entry applies"
        if why is None:
            played.append(task)
        else:
            left_out[why] += 1
    return played, left_out


def pytest_report_header(config: pytest.Config) -> list[str]:
    state = config.stash.get(_KEY, None)
    if state is None:
        return []
    lines = [f"mtrain: {len(state.tasks)} fixture results collected ({state.rulesets})"]
    if state.left_out:
        total = sum(state.left_out.values())
        lines.append(f"mtrain: {total} results not collected, not applicable to the "
                     "implementation:")
        lines += [f"  {n:>6}  {why}" for why, n in state.left_out.most_common(5)]
        if len(state.left_out) > 5:
            lines.append(f"  (and {len(state.left_out) - 5} reasons more)")
    return lines


def pytest_unconfigure(config: pytest.Config) -> None:
    state = config.stash.get(_KEY, None)
    if state is not None:
        close = getattr(state.impl, "close", None)
        if callable(close):
            close()


class ConformanceFailure(Exception):
    def __init__(self, result: Result) -> None:
        super().__init__(result.message)
        self.result = result


class MtrainCollector(pytest.Collector):
    def collect(self) -> Iterable[pytest.Item | pytest.Collector]:
        state = self.config.stash[_KEY]
        for task in state.tasks:
            yield FixtureItem.from_parent(self, name=f"{task.fixture.id}[{task.variant}]",
                                          task=task)


class FixtureItem(pytest.Item):
    def __init__(self, *, task: Task, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.task = task
        self.extra_keyword_matches.update(task.fixture.clauses)
        self.extra_keyword_matches.add(task.variant)

    def runtest(self) -> None:
        state = self.config.stash[_KEY]
        result = state.runner.run(self.task, state.impl)
        if result.status == "not-applicable":
            pytest.skip(result.message)
        if result.status != "pass":
            raise ConformanceFailure(result)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException],
                     style: Any = None) -> Any:
        if isinstance(excinfo.value, ConformanceFailure):
            r = excinfo.value.result
            lines = [f"{r.status}: {r.fixture} [{r.variant}] {r.where}"]
            if r.description:
                lines.append(f"  {r.description}")
            lines.append(f"  clauses: {', '.join(r.clauses)}")
            lines += [f"  - {m}" for m in r.messages]
            if r.stderr:
                lines.append("  stderr (last lines):")
                lines += [f"    | {x}" for x in r.stderr.splitlines()]
            return "\n".join(lines)
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Path, int | None, str]:
        fx = self.task.fixture
        return Path(fx.path), (fx.line or 1) - 1, f"{fx.id} [{self.task.variant}]"


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config,
                                  items: list[pytest.Item]) -> None:
    if _KEY not in config.stash:
        return
    collector = MtrainCollector.from_parent(session, name="mtrain", nodeid="mtrain")
    items.extend(x for x in collector.collect() if isinstance(x, pytest.Item))
