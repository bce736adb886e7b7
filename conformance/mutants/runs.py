"""Running the corpus against the mutants: which fixtures kill which mutant.

A fixture kills a mutant when it passes under the reference and at least one of its
outcomes is `fail` or `error` (a crash included) under the mutant. Only runs that pass
under the reference are used; a run that never reaches a mutant's hooks is skipped, since
the mutant would play it exactly as the reference does, and so is one whose every request
the mutant answers as the reference did (replay.py): it is the reference's run again.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, TypeVar

from mtrain.conformance import runner
from mtrain.conformance.adapter import JSON, Implementation, ruleset_json
from mtrain.conformance.child import quiet_worker
from mtrain.conformance.fixture import Fixture
from mtrain.conformance.forking import imap, new_pool, pool_context
from mtrain.conformance.mutants.catalogue import MUTANTS, check_names
from mtrain.conformance.mutants.implementation import (
    CheckedMutant,
    Mutant,
    MutantImplementation,
    SwappedReference,
)
from mtrain.conformance.mutants.replay import Asked, Recorder, answers_alike, asked_again
from mtrain.conformance.runner import run_fixture
from mtrain.reference import deal as deal_module
from mtrain.reference import engine, refusals


@dataclass
class MutantReport:
    """Which fixtures kill which mutant."""

    kills: dict[str, list[str]]  # mutant name -> ids of the fixtures that kill it
    runs: int = 0  # fixture x rule set runs that pass under the reference
    baseline_failures: list[str] = field(default_factory=list)  # "id [variant]"
    first_only: bool = False  # True: each mutant stopped at its first kill
    seconds: float = 0.0

    @property
    def killed(self) -> list[str]:
        return [name for name, ids in self.kills.items() if ids]

    @property
    def survived(self) -> list[str]:
        return [name for name, ids in self.kills.items() if not ids]

    @property
    def min_kills(self) -> tuple[int, list[str]]:
        """The fewest fixtures that kill a mutant, and the mutants killed by that few."""
        if not self.kills:
            return 0, []
        low = min(len(ids) for ids in self.kills.values())
        return low, [name for name, ids in self.kills.items() if len(ids) == low]

    def to_json(self) -> JSON:
        details = []
        for name, ids in self.kills.items():
            details.append({**MUTANTS[name].to_json(), "killed": bool(ids), "killed_by": ids})
        return {
            "mutants": {"count": len(self.kills), "details": details},
            "killed": self.killed,
            "survived": self.survived,
            "min_kills": self.min_kills[0],
            "min_kills_by": self.min_kills[1],
            "runs": self.runs,
            "baseline_failures": self.baseline_failures,
            "first_only": self.first_only,
            "seconds": round(self.seconds, 3),
        }


def _statuses(fx: Fixture, variant: str, impl: Implementation) -> list[str]:
    try:
        return [o.status for o in run_fixture(fx, impl, [variant])]
    except Exception:  # a mutant may crash where the reference does not: that is a kill
        return ["error"]


def run_mutants(fixtures: Sequence[Fixture], names: Sequence[str] | None = None, *,
                first_only: bool = False, jobs: int = 1,
                enough: int | None = None) -> MutantReport:
    """Play every fixture against every mutant (or those in `names`).

    Only the (fixture, rule set) runs that pass under the reference count. With
    `first_only` a mutant stops at its first kill (faster; one killer per mutant), with
    `enough` at that many kills. `jobs` > 1 shares the mutants out among that many forked
    worker processes.
    """
    if first_only:
        enough = 1
    start = time.perf_counter()
    chosen = list(MUTANTS) if names is None else list(names)
    check_names(chosen)
    runs, failures = passing_runs(fixtures)
    if jobs > 1 and len(chosen) > 1:
        ctx = pool_context()  # fork only when no other thread could hold a lock
        forked = ctx.get_start_method() == "fork"
        _FORKED[:] = [runs, enough]  # a forked worker has them; others are sent them
        try:
            with new_pool(ctx, min(jobs, len(chosen)), _worker_init,
                          () if forked else (runs, enough)) as pool:
                lists = list(imap(pool, _forked_kills, chosen))  # a worker's death: raised
        finally:
            _FORKED.clear()
    else:
        lists = [_kills(MUTANTS[name], runs, enough) for name in chosen]
    kills = dict(zip(chosen, lists, strict=True))
    return MutantReport(kills, len(runs), failures, first_only, time.perf_counter() - start)


class Run(NamedTuple):
    """A (fixture, rule set) run that passes under the reference."""

    fixture: Fixture
    variant: str
    ruleset: JSON
    called: frozenset[str]
    """The hooks it reaches."""
    asked: tuple[Asked, ...] | None
    """The requests the harness made of the reference (None: some could not be noted)."""


_FORKED: list[Any] = []  # [runs, enough], read by forked workers


_T = TypeVar("_T")


class _TracingReference(SwappedReference):
    """The reference, noting which hooks a run reaches (the engine functions any mutant
    swaps, and the deal and winners calls) and the requests it is asked."""

    def __init__(self, record: bool = False) -> None:
        self.called: set[str] = set()
        self.now: set[str] = set()  # those of the request being answered
        self.recorder = Recorder() if record else None
        names = sorted({name for m in MUTANTS.values() for name in m.patches})
        # a function of the engine, or of the refusals or the deal module where the engine
        # has none
        super().__init__({name: self._tracer(name, getattr(engine, name, None)
                                             or getattr(refusals, name, None)
                                             or getattr(deal_module, name))
                          for name in names})

    def _tracer(self, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        called, now = self.called, self.now

        def traced(*args: Any, **kwargs: Any) -> Any:
            called.add(name)
            now.add(name)
            return fn(*args, **kwargs)

        return traced

    def clear(self) -> None:
        self.called.clear()
        if self.recorder is not None:
            self.recorder.clear()

    def _ask(self, method: str, call: Callable[..., _T], *args: Any, **kwargs: Any) -> _T:
        self.now.clear()
        if method in ("deal", "winners"):  # the mutants' hooks of those names
            self.called.add(method)
            self.now.add(method)
        if self.recorder is None:
            return call(*args, **kwargs)
        return self.recorder.ask(method, self.now, call, *args, **kwargs)

    def info(self) -> JSON:
        return self._ask("info", super().info)

    def deal(self, *args: Any, **kwargs: Any) -> JSON:
        return self._ask("deal", super().deal, *args, **kwargs)

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        return self._ask("legal", super().legal, ruleset, state)

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        return self._ask("apply", super().apply, ruleset, state, action)

    def winners(self, ruleset: JSON, state: JSON) -> list[int]:
        return self._ask("winners", super().winners, ruleset, state)

    def score(self, ruleset: JSON, state: JSON, winner: int | None) -> list[int]:
        return self._ask("score", super().score, ruleset, state, winner)


def passing_runs(fixtures: Sequence[Fixture]) -> tuple[list[Run], list[str]]:
    """The (fixture, rule set) runs that pass under the reference, each with the hooks it
    reaches and the requests it makes; and the runs that do not pass."""
    reference = _TracingReference(record=True)
    runs: list[Run] = []
    failures: list[str] = []
    rulesets: dict[str, JSON] = {}
    for fx in fixtures:
        for variant in dict.fromkeys(v for v, _ in fx.rulesets()):
            reference.clear()
            if all(s == "pass" for s in _statuses(fx, variant, reference)):
                if variant not in rulesets:
                    rulesets[variant] = ruleset_json(runner.resolve(variant))
                asked = reference.recorder.asked if reference.recorder else None
                runs.append(Run(fx, variant, rulesets[variant], frozenset(reference.called),
                                None if asked is None else tuple(asked)))
            else:
                failures.append(f"{fx.id} [{variant}]")
    return runs, failures


def touches(m: Mutant) -> frozenset[str] | None:
    """The hooks through which `m` acts, or None when it may act anywhere (its rules)."""
    if m.rules is not None:
        return None
    extra = {"deal"} if m.post_deal else set()
    if m.winners:
        extra.add("winners")
    return frozenset(m.patches) | extra


def reachable(impl: MutantImplementation, runs: Sequence[Run]) -> Iterator[Run]:
    """The runs the mutant may play differently from the reference.

    A run that never reaches any hook of the mutant is skipped: up to the first call of a
    swapped function the mutant runs exactly as the reference, and that call never comes.
    A mutant of the rules alone is skipped under the rule sets it leaves as they are.
    """
    hooks = touches(impl.mutant)
    for run in runs:
        if hooks is not None and hooks.isdisjoint(run.called):
            continue
        if hooks is None and not impl.differs_under(run.ruleset):
            continue
        yield run


def as_reference(impl: MutantImplementation, run: Run) -> bool:
    """Whether the mutant answers every request of `run` as the reference did (replay.py):
    then it plays the reference's run, which passes."""
    return (asked_again(impl.mutant) and run.asked is not None
            and answers_alike(impl, touches(impl.mutant), run.asked))


def played(impl: MutantImplementation, runs: Sequence[Run]) -> Iterator[Run]:
    """The runs the mutant may end otherwise than the reference: those `reachable`, less
    those it plays as the reference does (`as_reference`)."""
    return (run for run in reachable(impl, runs) if not as_reference(impl, run))


def _kills(m: Mutant, runs: Sequence[Run], enough: int | None) -> list[str]:
    """Ids of the fixtures that kill `m`, in corpus order."""
    impl = m.implementation()
    checked = CheckedMutant(impl)
    ids: list[str] = []
    for run in reachable(impl, runs):
        fx = run.fixture
        if (ids and ids[-1] == fx.id) or as_reference(impl, run):
            continue
        if any(s != "pass" for s in _statuses(fx, run.variant, checked)):
            ids.append(fx.id)
            if enough is not None and len(ids) >= enough:
                break
    return ids


def _worker_init(*sent: Any) -> None:
    quiet_worker()
    if sent:
        _FORKED[:] = sent


def _forked_kills(name: str) -> list[str]:
    runs, enough = _FORKED
    return _kills(MUTANTS[name], runs, enough)
