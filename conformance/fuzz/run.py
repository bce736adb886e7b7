"""A fuzz run: games played (in worker processes with --jobs), findings grouped by
signature, known findings set apart, each new finding shrunk and written out, and the
signatures of one bug made one finding (findings.py groups and folds them).
"""

from __future__ import annotations

import argparse
import itertools
import multiprocessing
import multiprocessing.util
import os
import shlex
import signal
import time
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, overload

from mtrain.conformance import watchdog
from mtrain.conformance.adapter import JSON, Implementation, ReferenceImplementation
from mtrain.conformance.child import exit_code_of, kill_all_at_once
from mtrain.conformance.declaration import declared_ruleset, unsupported
from mtrain.conformance.defaults import DEFAULT_TIMEOUT, FUZZ_OUT
from mtrain.conformance.forking import (
    EXIT_SECONDS,
    WorkerDied,
    finish,
    imap,
    new_pool,
    pool_context,
)
from mtrain.conformance.fuzz.asking import Session
from mtrain.conformance.fuzz.findings import Group, _add, _remove, one_per_bug
from mtrain.conformance.fuzz.plans import GamePlan, first_of_rule_set, plan_game, tables
from mtrain.conformance.fuzz.play import play_game
from mtrain.conformance.fuzz.possible import table_problems
from mtrain.conformance.fuzz.reproducer import (
    Checked,
    check,
    free_id,
    render,
    reproducer,
    slug,
    write_rules_file,
)
from mtrain.conformance.fuzz.results import GameResult, Occurrence
from mtrain.conformance.fuzz.rulesets import (
    Chooser,
    Context,
    adopt,
    context,
    declared_context,
    known_here,
)
from mtrain.conformance.fuzz.setups import match_rounds
from mtrain.conformance.fuzz.shrink import Shrinker
from mtrain.conformance.gc_freeze import settle_heap
from mtrain.conformance.known_failures import SkipEntry
from mtrain.conformance.outputs import write_file
from mtrain.conformance.process import ConfigurationError, HarnessError

DEFAULT_OUT = FUZZ_OUT


@dataclass(frozen=True)
class Target:
    """How to build the implementation under test, again in every worker process.

    kind: "mutant" (a name in conformance.mutants), "impl" (a command speaking the
    protocol), "adapter" (MODULE:OBJECT, as for conform),
    "reference", or "object" (an instance handed in: not rebuildable, so no --jobs).
    """

    kind: str
    value: str = ""
    label: str = ""
    instance: Any = field(default=None, compare=False, repr=False)
    timeout: float | None = None  # per request, for --impl and --adapter
    start_timeout: float | None = None  # for the hello at each start (--start-timeout)
    # the rule-set files the run's rule sets were read from (--rules, --variant FILE), by
    # rule set name: a rule set played `other` is run again under its own file
    sources: tuple[tuple[str, str], ...] = ()

    @staticmethod
    def of(impl: Implementation, label: str) -> Target:
        return Target("object", "", label, impl)

    @property
    def rebuildable(self) -> bool:
        return self.kind != "object"

    def make(self) -> Implementation:
        if self.kind == "object":
            impl: Implementation = self.instance
            return impl
        if self.kind == "reference":
            return ReferenceImplementation()
        if self.kind == "mutant":
            from mtrain.conformance.mutants import mutant

            made: Implementation = mutant(self.value)
            return made
        return load_implementation(self.kind, self.value, self.timeout, self.start_timeout)

    def commands(self, path: Path, ctx: Context | None = None) -> list[str]:
        """Commands that run a reproducer against this implementation (and the reference),
        found under the rule set `ctx` (when known)."""
        file = shlex.quote(str(path))
        reference = f"mtrain conform --fixtures {file}"
        if self.kind == "mutant":
            return [f"{reference}  # the reference engine: passes",
                    f"mtrain mutants {file} -m {shlex.quote(self.value)}"
                    "  # the mutant: killed"]
        if self.kind in ("impl", "adapter"):
            return [f"{reference} --{self.kind} {shlex.quote(self.value)}"
                    + self.rules_option(path, ctx)]
        return [reference]

    def rules_option(self, path: Path, ctx: Context | None) -> str:
        """` --rules FILE` for the command that runs a reproducer, or "".

        The rule-set file written beside a reproducer holds a known stand-in for each rule
        played `other`: conform run under it judges what those rules decide as the
        stand-in plays it (boxcar's blanks, worth 7 by its own rule, charged to SCORE-1 on
        a round it scored right). Rules of one's own are run as they were fuzzed: under
        the file they came from, or, declared in the hello, with no --rules at all."""
        if ctx is None or not ctx.unknown:
            return named_rules(path)
        source = dict(self.sources).get(ctx.name)
        return f" --rules {shlex.quote(source)}" if source is not None else ""


def named_rules(path: Path) -> str:
    """` --rules FILE` for a reproducer that names a rule-set file of its own (a table of
    its own, `rules:`), else "": an implementation that declares other rules in its hello
    is run under those alone without it, and the reproducer would run nothing (reefer,
    fuzzed under its rule-set file, declared `own_train_first: required`)."""
    try:
        import yaml

        entries = yaml.safe_load(path.read_text(encoding="utf-8"))
        named = entries[0].get("rules") if isinstance(entries, list) and entries else None
    except (OSError, ValueError, AttributeError, yaml.YAMLError):
        return ""
    if not isinstance(named, str):
        return ""
    return f" --rules {shlex.quote(str(path.parent / named))}"


def load_implementation(kind: str, value: str, timeout: float | None = None,
                        start_timeout: float | None = None) -> Implementation:
    """An implementation from --impl COMMAND or --adapter MODULE:OBJECT, built the way
    `mtrain conform` builds it (its loader, time limit and error messages)."""
    from mtrain.conformance.target import target_of

    args = argparse.Namespace(impl=value if kind == "impl" else None,
                              adapter=value if kind == "adapter" else None,
                              timeout=timeout or DEFAULT_TIMEOUT,
                              start_timeout=start_timeout)
    return target_of(args).make()


def close_implementation(impl: Implementation) -> None:
    close = getattr(impl, "close", None)
    if callable(close):
        close()


@dataclass
class FuzzReport:
    games: int = 0
    skipped: int = 0
    not_applicable: int = 0
    steps: int = 0
    rounds: int = 0
    blocked: int = 0  # rounds the reference ended blocked (END-2, END-3), by its rules
    steered: int = 0  # games steered toward a blocked end (steer.py)
    answered: int = 0  # questions the implementation answered, judged or not
    seconds: float = 0.0
    groups: list[Group] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    unsupported: dict[str, int] = field(default_factory=dict)
    """reason -> questions answered `unsupported` (each one not applicable; play went on)"""
    not_applicable_why: dict[str, int] = field(default_factory=dict)  # reason -> games
    own: dict[str, int] = field(default_factory=dict)
    """`other` options -> answers they decide (not judged: rules of one's own)"""
    own_differ: dict[str, int] = field(default_factory=dict)
    """`other` options with the values played in their place -> the answers not judged
    that differ from those values' (GameResult.own_differ)"""
    own_cut: dict[str, int] = field(default_factory=dict)
    """`other` options -> answers they read, judged all the same as conform cuts such an
    entry (GameResult.own_cut): among those `judged`"""
    own_scores: int = 0  # `score` answers judged against its own result (GameResult's)
    cut: dict[str, int] = field(default_factory=dict)  # why -> games ended early
    setups: dict[str, str] = field(default_factory=dict)
    """`variant: N players` -> what the implementation did with a setup its table lacks
    (refused, by DEAL-7: right; dealt: a finding), each asked once (setups.py)"""
    match_rounds: dict[str, int] = field(default_factory=dict)
    """A match length of its own: `rule set: N players` -> the last round its match has
    at that count (no game started after it; setups.match_rounds)"""
    stopped: str | None = None  # why games were left unplayed
    broken: bool = False  # the implementation failed too often: play stopped
    interrupted: KeyboardInterrupt | None = None  # SIGINT or SIGTERM stopped the run
    harness_error: str | None = None  # the harness itself failed (a worker died): cut short
    errors: list[str] = field(default_factory=list)
    """Errors of the protocol no step's answer showed: a line written after the last
    answer of the games (that request answered twice), found at a shutdown (_settled)"""

    @property
    def new(self) -> list[Group]:
        return [g for g in self.groups if g.known is None]

    @property
    def known(self) -> list[Group]:
        return [g for g in self.groups if g.known is not None]

    @property
    def judged(self) -> int:
        """Answers held against the rules: those no rule played `other` decided."""
        return max(0, self.answered - sum(self.own.values()))

    @property
    def disagreements(self) -> int:
        return sum(g.count for g in self.new)


# --- games, here or in worker processes -------------------------------------------------


_WORKER: dict[str, Any] = {}


def _worker_init(target: Target, stop: Any, follow: str, deadline: float | None,
                 cut_short: Any = None, known: Any = None) -> None:
    signal.signal(signal.SIGTERM, _worker_stop)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a Ctrl-C is the parent's: it stops us
    _WORKER.update(stop=stop, error=None, cut_short=cut_short)
    try:
        if known is not None:  # the parent's rule sets of its own (not forked: not had)
            adopt(known)
        impl = target.make()
        impl.info()  # started and greeted here, so that a failure is reported, not retried
    except BaseException as e:  # reported by the first game: an initializer must not fail
        _WORKER["error"] = _start_error(e)
        return
    _WORKER["session"] = Session(impl, follow, deadline)
    settle_heap()
    multiprocessing.util.Finalize(None, close_implementation, args=(impl,), exitpriority=10)


def _worker_stop(signum: int, frame: object) -> None:
    """Pool.terminate sends SIGTERM: take this worker's implementation along, and count
    what the game under way had played (its findings go with the worker). Nothing here
    may take a lock the interrupted main thread could hold (kill_all_at_once), nor wait
    without bound for one another process holds (the counts' own)."""
    # a second SIGTERM (one to the whole group, then the pool's) ran this handler again
    # inside this one, whose os._exit left the counts' lock held for good: ignored now
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    kill_all_at_once()
    session = _WORKER.get("session")
    game = session.under_way if session is not None else None
    counts = _WORKER.get("cut_short")
    if game is not None and game.steps and counts is not None:
        lock = counts.get_lock()
        # another worker adds its own in microseconds; one killed while it added holds it
        # for good, and this worker would never exit: its game goes uncounted
        if lock.acquire(timeout=COUNT_WAIT):
            try:
                held = counts.get_obj()
                for i, n in enumerate((1, game.steps, game.rounds, game.answered)):
                    held[i] += n
            finally:
                lock.release()
    watchdog.stop_at_once()  # its own child: reaped, not left to whoever adopts it
    os._exit(1)


COUNT_WAIT = 1.0
"""Seconds a stopped worker waits for the lock on the games cut short (a bound on a lock a
dead worker holds; another worker holds it for microseconds)."""


def _worker_game(plan: GamePlan) -> GameResult:
    if _WORKER["error"] is not None:
        return GameResult(plan.index, plan.variant, fatal=_WORKER["error"])
    if plan.index > _WORKER["stop"].value:
        return GameResult(plan.index, plan.variant, skipped=True)
    result: GameResult = play_game(_WORKER["session"], plan)
    return result


def _start_error(e: BaseException) -> str:
    if isinstance(e, HarnessError):
        tail = f"\n{e.stderr.rstrip()}" if e.stderr.strip() else ""
        return f"the implementation did not start ({e.status}): {e.message}{tail}"
    if isinstance(e, ConfigurationError):
        return str(e)
    return f"the implementation did not start: {type(e).__name__}: {e}"


def _results(target: Target, session: Session, plans: Sequence[GamePlan], jobs: int,
             warnings: list[str], cut_short: list[int]
             ) -> Generator[tuple[GameResult, Callable[[int], None]], None, None]:
    """Each game's result, in game order, with a function that stops later games (a worker
    that would not exit after its games, into `warnings`; interrupted, the games the
    workers had under way, with their steps, rounds and answers, into `cut_short`)."""
    jobs = min(jobs, len(plans))
    if _serial(target, plans, jobs):
        stopped = [len(plans)]

        def stop_serial(index: int) -> None:
            stopped[0] = index

        for plan in plans:
            if plan.index > stopped[0]:
                return  # the games left are counted as skipped (fuzz), not each planned
            yield play_game(session, plan), stop_serial
        return
    ctx = pool_context()  # fork only when no other thread could hold a lock (forking.py)
    stop = ctx.Value("i", len(plans) + 1)
    counts = ctx.Array("q", 4)  # games cut short, their steps, rounds and answers

    def stop_pool(index: int) -> None:
        stop.value = index

    with new_pool(ctx, jobs, _worker_init, (target, stop, session.follow, session.deadline,
                                          counts, known_here())) as pool:
        try:
            for result in imap(pool, _worker_game, plans):  # WorkerDied: not waited for
                yield result, stop_pool
        except BaseException:  # an interrupt: do not wait for the games under way
            pool.terminate()  # (which waits for the workers, each adding to `counts`)
            cut_short[:] = [int(n) for n in counts.get_obj()]  # not under its lock: a worker
            # killed in its handler, holding it, would hold it for good
            raise
        finally:
            stuck = finish(pool)
            if stuck:
                warnings.append(f"{stuck} worker process(es) did not exit within "
                                f"{EXIT_SECONDS:g} s of their last game: killed")


def _serial(target: Target, plans: Sequence[GamePlan], jobs: int) -> bool:
    """Whether the games are played here, by the run's own implementation, not in worker
    processes (a worker without a game would only start an engine)."""
    return min(jobs, len(plans)) <= 1 or not target.rebuildable or len(plans) <= 1


def _settled(impl: Implementation, last: GameResult | None) -> list[str]:
    """What `impl`, a program, wrote after its last answer, found by shutting it down
    (ProcessImplementation.settle; the next request starts it again): its last request
    answered twice, which no later request of the games read, as an error of `last`, the
    game that asked it (None: no game was played here, the run's own last request)."""
    settle = getattr(impl, "settle", None)
    if not callable(settle):  # in-process: nothing is written between answers
        return []
    where = "" if last is None else f"game {last.index} ({last.variant}), its last request: "
    return [f"{where}{stray}" for stray in settle()]


def declared(names: Sequence[str], info: JSON, players: int | None = None) -> Chooser:
    """The rule sets to play among `names` (none: the default draw, or the rule set the
    implementation declares it plays, as conform runs it), within what the implementation
    declares: the rule sets conform would run (conform.unsupported)."""
    mine = declared_ruleset(info)  # a DeclarationError for rules that describe none
    if mine is not None and not names:
        ctx = declared_context(mine)
        if players is not None and players not in ctx.rs.player_counts:
            raise ValueError(f"the implementation's declared rules ({ctx.name}) deal no "
                             f"hand to {players} players [DEAL-7]")
        return Chooser([ctx.name])

    def supported(name: str, asked: bool = False) -> bool:
        rs = context(name).rs
        return unsupported(info, name, rs, asked=asked) is None and (
            players is None or players in rs.player_counts)

    # a rule set asked for is played even where it differs from the declared rules
    chooser = Chooser([n for n in names if supported(n, asked=True)], supported)
    if chooser.empty or (names and not chooser.names):
        raise ValueError("the implementation supports none of the rule sets asked for")
    return chooser


class _Plans(Sequence[GamePlan]):
    """The run's game plans, each made when it is reached: a run stopped early (by
    --max-seconds or --max-findings) never plans the games it leaves."""

    def __init__(self, games: int, seed: int, chooser: Chooser, players: int | None,
                 rounds: dict[str, int] | None = None) -> None:
        self.games, self.seed, self.chooser, self.players = games, seed, chooser, players
        self.rounds = rounds or {}

    def __len__(self) -> int:
        return self.games

    @overload
    def __getitem__(self, index: int) -> GamePlan: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[GamePlan]: ...

    def __getitem__(self, index: int | slice) -> GamePlan | Sequence[GamePlan]:
        if isinstance(index, slice):
            return list(itertools.islice(self, *index.indices(self.games)))
        if not 0 <= index < self.games:
            raise IndexError(index)
        return next(itertools.islice(self, index, None))

    def __iter__(self) -> Iterator[GamePlan]:
        seen: set[str] = set()  # the first game of each rule set: first_of_rule_set
        for i in range(self.games):
            plan = plan_game(i, self.seed, self.chooser, self.players, self.rounds)
            if plan.variant not in seen:
                seen.add(plan.variant)
                plan = first_of_rule_set(plan)
            yield plan


class StartError(Exception):
    """The implementation could not be started (in a worker): a configuration error."""


def fuzz(target: Target, variants: Sequence[str] | Chooser, games: int, seed: int, *,
         jobs: int = 1, out: str | Path = DEFAULT_OUT, players: int | None = None,
         shrink_seconds: float | None = 10.0, shrink_tries: int | None = None,
         progress: Callable[[int], None] | None = None,
         impl: Implementation | None = None, follow: str = "ref",
         known: Sequence[SkipEntry] = (), max_findings: int | None = None,
         max_seconds: float | None = None) -> FuzzReport:
    """Fuzz `target` against the reference: every game played (or until `max_findings`
    new signatures, or `max_seconds`), each new finding shrunk and written to `out`.

    `variants`: the rule sets, played in turn; empty, the default draw (rulesets.Chooser).
    Each finding's shrinking stops after `shrink_tries` candidates (a budget that cuts the
    same at any load) or `shrink_seconds` (wall time, an outer bound), whichever comes
    first; None: no such bound.
    """
    report = FuzzReport()
    impl = impl if impl is not None else target.make()
    try:
        info = impl.info()  # started and greeted before any game
    except (ConfigurationError, HarnessError) as e:
        raise StartError(_start_error(e)) from None
    label = slug(target.label or str(info.get("name", "impl")))
    chooser = variants if isinstance(variants, Chooser) else declared(variants, info, players)
    # the rounds a match of its own has, asked before any game is planned
    report.match_rounds = match_rounds(impl, tables(games, seed, chooser, players))
    plans = _Plans(games, seed, chooser, players, report.match_rounds)
    start = time.perf_counter()
    deadline = None if max_seconds is None else time.monotonic() + max_seconds
    session = Session(impl, follow, deadline)
    groups: dict[tuple[str, str | None], Group] = {}
    fresh = 0
    out = Path(out)
    taken: set[str] = set()
    in_workers: list[int] = []
    results = _results(target, session, plans, jobs, report.warnings, in_workers)
    last: GameResult | None = None  # the last game played here (not in a worker)
    try:
        for result, stop in results:
            if result.steps or result.answered:
                last = result
            if result.fatal is not None:
                stop(-1)
                raise StartError(result.fatal)
            fresh += _count_result(report, groups, result, known)
            for group in groups.values():
                if group.known is None and group.path is None:
                    _write_found(group, label, seed, out, taken)
            if max_findings is not None and fresh >= max_findings and report.stopped is None:
                report.stopped = f"--max-findings {max_findings} reached"
                stop(result.index)
            if result.stopped and report.stopped is None:
                report.stopped = f"--max-seconds {max_seconds:g} reached"
                stop(result.index)
            if result.broken and not report.broken:
                report.broken = True
                report.stopped = report.stopped or (
                    f"the implementation failed {session.max_failed} requests (crashes, "
                    "timeouts or broken answers); more games would only repeat them")
                stop(result.index)
            if progress is not None:
                progress(1)
    except WorkerDied as e:  # the harness's own failure: charged to no implementation
        report.harness_error = str(e)
        report.stopped = "a worker process of the harness died"
    except KeyboardInterrupt as e:  # SIGINT, SIGTERM: what was found so far is kept
        report.interrupted = e
        report.stopped = f"interrupted ({exit_name(e)})"
        cut_short = session.under_way
        if cut_short is not None and cut_short.steps:  # its steps ran: they are reported
            session.under_way = None
            cut_short.cut = f"the run was {report.stopped}"
            _count_result(report, groups, cut_short, known)
    finally:
        results.close()  # an interrupt in this loop: the pool's workers go too
    if report.interrupted is None:  # before shrinking asks it more
        report.errors += _settled(impl, last if _serial(target, plans, jobs) else None)
    if in_workers and in_workers[0]:  # games under way in workers (their findings are lost)
        games, steps, rounds, answered = in_workers
        report.games += games
        report.steps, report.rounds = report.steps + steps, report.rounds + rounds
        report.answered += answered
        _count_into(report.cut, {f"the run was {report.stopped}": games})
    report.seconds = time.perf_counter() - start
    report.skipped = len(plans) - report.games - report.not_applicable  # stopped early too
    report.groups = sorted(groups.values(), key=lambda g: (g.first.game, g.first.round,
                                                           g.first.step, g.signature))
    for group in report.new:
        if report.interrupted is not None or report.broken or report.harness_error:
            why = ("the run was interrupted" if report.interrupted is not None
                   else "a worker process of the harness died" if report.harness_error
                   else "the implementation kept failing")
            group.problems.append(f"written as found, not shrunk or checked: {why}")
        else:
            _shrink_and_write(group, session, label, seed, out,
                              (shrink_seconds, shrink_tries), taken,
                              target if target.kind in ("impl", "adapter") else None)
    report.groups = one_per_bug(report.groups)
    return report


def _count_result(report: FuzzReport, groups: dict[tuple[str, str | None], Group],
                  result: GameResult, known: Sequence[SkipEntry]) -> int:
    """A game's result counted into the run's; the number of new signatures it brought."""
    _count_into(report.unsupported, result.unsupported)
    _count_into(report.own, result.own)
    _count_into(report.own_differ, result.own_differ)
    _count_into(report.own_cut, result.own_cut)
    report.setups.update(result.setups)
    report.answered += result.answered
    report.own_scores += result.own_scores
    if result.skipped:
        report.skipped += 1
    elif result.not_applicable is not None:
        report.not_applicable += 1
        _count_into(report.not_applicable_why, {result.not_applicable: 1})
    else:
        if result.cut is not None:
            _count_into(report.cut, {result.cut: 1})
        report.games += 1
        report.steps += result.steps
        report.rounds += result.rounds
        report.blocked += len(result.blocked)
        report.steered += result.steered
        report.warnings += result.warnings
    return _add(groups, result, known)


def _count_into(total: dict[str, int], more: dict[str, int]) -> None:
    for key, n in more.items():
        total[key] = total.get(key, 0) + n


def exit_name(e: KeyboardInterrupt) -> str:
    return signal.Signals(exit_code_of(e) - 128).name


def _alone(checked: Checked, path: Path, text: str, target: Target, label: str,
           ctx: Context) -> Checked:
    """The reproducer that fails against the running implementation, checked against a
    fresh one, as conform runs it: one that passes there (an answer that depends on what
    the implementation was asked before: a table it keeps between requests and does not
    reset, gantry's markers kept into the next deal) is not a reproducer."""
    try:
        fresh = target.make()
    except (ConfigurationError, HarnessError) as e:
        return Checked([*checked.problems, f"a fresh {label} to check it against could not "
                        f"be started: {e}"], checked.charged)
    try:
        again = check(path, text, fresh, label, ctx)
    finally:
        close_implementation(fresh)
    if not again.problems:
        return again
    return Checked([f"it fails against the running {label} but passes against a fresh one, "
                    "as conform runs it: the answer depends on what it was asked before (a "
                    "table kept between requests and not reset, as a deal that keeps the "
                    "last table's markers), which no table it is sent shows"
                    if any("did not reproduce" in p for p in again.problems)
                    else p for p in again.problems], checked.charged)


def _write_found(group: Group, label: str, seed: int, out: Path, taken: set[str]) -> None:
    """A new finding written at once, as first seen (unshrunk, unchecked), so that a run
    cut short (an interrupt, a kill, a crash of the harness) keeps it; at the end of the
    run it is shrunk, checked and written again in its place, or removed."""
    occ = group.best
    if occ.disagreement.no_reproducer is not None:
        return  # none can be written (_shrink_and_write says why)
    fid = free_id(out, label, seed, taken)
    try:
        text = render(reproducer(occ, occ.probe, occ.disagreement, label, seed, fid))
    except Exception:  # written once shrunk, then, like any finding that cannot be yet
        return
    taken.add(fid)
    path = out / f"{fid}.yaml"
    try:
        out.mkdir(parents=True, exist_ok=True)
        write_rules_file(out, context(occ.probe.variant))
        write_file(path, lambda f: f.write(text))
    except OSError:  # a full disk: tried again at the end, and reported then
        taken.discard(fid)  # (its name too: nothing holds it)
        return
    group.path = path


LISTED_OWN = (
    "why no table of it can be run: an action listed and then refused shows in the legal "
    "set of its table or in a step of it, and the reference decides both by the whole "
    "legal set (refusals.apply); conform runs a table only where every value of its own "
    "rules answers that set alike, and there fuzz judges the listing (or the refusal) "
    "against the rules, a finding of its own (`allows ...`, `forbids ...`) with its "
    "reproducer; an engine that lists and refuses only where its own rule decides (as "
    "here: shrunk, no cut left a table that rule does not decide) has none")


def _unshown(occ: Occurrence) -> str:
    """Why a finding's probe did not show it again: its table no round reaches under the
    stand-in (a state only the rules of its own reached, as a draw they allowed: no
    fixture can start there), else it did not show."""
    p = occ.probe
    ctx = context(p.variant)
    why = table_problems(p.table, ctx) if p.table is not None else []
    if why and ctx.unknown:
        return (f"no reproducer: its table is one only its own rules "
                f"({', '.join(sorted(ctx.unknown))}) reach: {why[0].rsplit(']: ', 1)[-1]}")
    return "the disagreement did not show again when asked again"


def _shrink_and_write(group: Group, session: Session, label: str, seed: int, out: Path,
                      budget: tuple[float | None, int | None], taken: set[str],
                      alone: Target | None = None) -> None:
    """Shrink `group`'s finding and write its reproducer, checked against the running
    implementation, and against a fresh one built from `alone` (an --impl or --adapter,
    None for those that keep nothing between requests) where it shows there. A deal whose
    reproducer cannot be written so (one that shows only after the requests before it, as
    gantry's markers kept from the last table) is asked again as the next round after the
    step that ended the round before (Probe.next_round), which a fixture writes."""
    had = list(group.problems)
    _shrink_and_write_once(group, session, label, seed, out, budget, taken, alone)
    occ = group.best
    nxt = occ.probe.next_round()
    if len(group.problems) == len(had) or nxt is None or group.path is not None:
        return
    first = group.problems
    group.problems = list(had)
    group.best = Occurrence(nxt, occ.disagreement, occ.game, occ.round, occ.step, occ.players)
    group.first = group.best if group.first is occ else group.first
    _shrink_and_write_once(group, session, label, seed, out, budget, taken, alone)
    if len(group.problems) > len(had):  # neither way: said as the deal's first was
        group.best = occ
        group.problems = first + [f"asked again as the next round after the step that "
                                  f"ended the round before: {p}" for p in group.problems[len(had):]]


def _shrink_and_write_once(group: Group, session: Session, label: str, seed: int, out: Path,
                           budget: tuple[float | None, int | None], taken: set[str],
                           alone: Target | None = None) -> None:
    began = time.perf_counter()
    shrinker = None
    seen = [group.best] + ([group.first] if group.first is not group.best else [])
    tries = [occ for occ in seen if occ.disagreement.no_reproducer is None]
    for occ in tries:  # the smallest occurrence, else the first
        try:
            shrinker = Shrinker(session.judge, occ.probe, group.signature, *budget)
        except ValueError:
            continue
        group.best = occ
        break
    if shrinker is None:
        group.problems.append(f"no reproducer: {seen[0].disagreement.no_reproducer}"
                              if not tries  # none of them can be asked again
                              else _unshown(tries[0]))
        _remove(group)
        return
    group.shrunk = shrinker.run()
    group.verdict = shrinker.verdict
    group.shrink_tries = shrinker.tries
    group.shrink_seconds = time.perf_counter() - began
    if group.path is not None:  # written as found: the shrunk one takes its place
        path, fid = group.path, group.path.stem
    else:
        fid = free_id(out, label, seed, taken)
        taken.add(fid)
        path = out / f"{fid}.yaml"
    text = render(reproducer(group.best, group.shrunk, group.verdict, label, seed, fid))
    try:  # the rule-set file it names is read when it is checked
        write_rules_file(out, context(group.shrunk.variant))
    except OSError as e:
        group.problems.append(f"the rule-set file of the reproducer could not be written to "
                              f"{out}: {e.strerror or e}")
    checked = check(path, text, session.impl, label, context(group.shrunk.variant))
    if checked.problems and group.shrunk is not group.best.probe:
        # a shrink that left a reproducer its check refuses (a cut that held the signature
        # but not what conform runs): the probe as found, where that one passes the check
        found = group.best
        whole = render(reproducer(found, found.probe, found.disagreement, label, seed, fid))
        again = check(path, whole, session.impl, label, context(found.probe.variant))
        if not again.problems:
            group.shrunk, group.verdict, text, checked = (found.probe, found.disagreement,
                                                          whole, again)
    if not checked.problems and alone is not None:
        checked = _alone(checked, path, text, alone, label, context(group.shrunk.variant))
    group.problems += checked.problems
    group.charged = checked.charged
    if group.problems and group.shrunk.kind == "listed" and group.verdict.own:
        group.problems.append(LISTED_OWN)
    if not group.problems:
        try:
            out.mkdir(parents=True, exist_ok=True)
            write_file(path, lambda f: f.write(text))
            group.path = path
        except OSError as e:  # --out was writable at the start: a full disk, say
            group.problems.append(f"the reproducer could not be written to {path}: "
                                  f"{e.strerror or e}")
    else:
        _remove(group)
