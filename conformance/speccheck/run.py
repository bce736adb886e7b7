"""`mtrain check`: every analysis of the specification, timed, with one verdict each.

Checks, in the order printed:

* the option space (spec/optionspace/checks.py ``run_all``): decided
  by enumerating it (spec/optionspace/grid.py), explained and cross-checked by z3: shipped
  variants satisfiable; every combination of overlays (a contradictory one fails unless a
  clause declares the refusal); dead values; values no clause gives meaning to;
  contradictory pairs; dead clauses; the variants against what their sources say; atomic
  sets, redundant constraints, the model count, deal feasibility;
* ``invariants``: spec/data/invariants.yaml against reference/invariants.py, one example
  state each (conformance/crosscheck/invariant_texts.py);
* ``variant-files`` and ``rules-files``: files given with ``--variant`` / ``--rules``;
* ``small-games``: every reachable state of small games (double-2 to double-4 sets) for
  every distinct rule set, explored with the engine: no deadlock, no cycle, invariants;
* ``termination`` and ``deadlock``: z3 proofs on the abstract round model (a ranking
  function under an inductive invariant; no well-formed non-final state without an action);
* ``model-vs-engine``: on explored states, the abstract model enables exactly the engine's
  legal actions and satisfies the invariant;
* ``effects-vs-engine``: for every legal action, the engine's successor equals the round
  model's field by field, and the scores of a round that ends
  (conformance/crosscheck/round_effects.py), on explored small games (z3 terms and plain
  values) and on random full-size rounds of every shipped rule set (the cross-check
  driver's states, conformance/crosscheck/driver.py);
* ``reachability``: a witness for every clause with a firing condition under every rule
  set it applies to, or a proof that it is dead (which fails unless clauses.yaml marks
  the clause ``expected_dead``);
* ``uncoverable-double``: the shortest traces to an uncoverable double, by the engine and by
  bounded model checking, which must agree; under stays-open, no play after it binds;
* ``engine-vs-model``: on random full-size games of every rule set, the engine's legal
  actions, permitting and refusing clauses and END-2/END-3 verdicts equal the model's
  (conformance/crosscheck/legal_sets.py; a sample by default, 10,000 states per rule set with
  ``--full``);
* ``parametric-proofs``: termination and deadlock freedom for any tile set, any number of
  players and every rule set, z3 over symbolic sizes (spec/proofs/parametric.py);
* ``parametric-assumptions``: what that proof assumes of each action's effect on the
  counts, proved on the round model, one query per action, for the shipped variants on a
  small set (spec/proofs/assumptions.py); with ``--full`` also every rule set on small sets and,
  as ``parametric-assumptions:<name>``, each shipped rule set on its own set at every
  table size it deals;
* ``agreement``: the engine and z3 agree: no deadlock found by either, every explored round
  within the ranking function's bound.

A check's status is ``fail`` (a defect: the command exits 1), ``info`` (facts worth
reading, nothing wrong) or ``pass``. ``--only options`` runs the option space (and the
files given) alone, in seconds. Independent jobs run in parallel worker processes
(``--jobs``); every z3 query is deterministic (fixed seed, ``rlimit``), so the verdicts do
not depend on the machine. What each check covers, and what not: conformance/speccheck/claims.py.

This module plans the jobs and runs them; the jobs are option_jobs.py (the option space,
the invariants' texts, the files given), engine_jobs.py (the engine explored and compared
with the model) and proof_jobs.py (z3's proofs, witnesses and traces), each check's form
verdicts.py.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path
from typing import Any

from mtrain.conformance.speccheck.engine_jobs import job_effects, job_engine_model, job_explore
from mtrain.conformance.speccheck.option_jobs import job_options
from mtrain.conformance.speccheck.proof_jobs import (
    job_parametric,
    job_reach,
    job_shipped_assumptions,
    job_termination,
    job_uncoverable,
)
from mtrain.conformance.speccheck.verdicts import Check, finding, guarded, verdict

# the jobs and verdicts, as the tests and `mtrain check` reach them through this module
__all__ = [
    "Check", "Job", "finding", "job_effects", "job_engine_model", "job_explore", "job_options",
    "job_parametric", "job_reach", "job_shipped_assumptions", "job_termination",
    "job_uncoverable", "plan_jobs", "run", "verdict",
]

Job = Callable[..., dict[str, Any]]


def plan_jobs(full: bool, dump: str | None, variant_files: Sequence[str] = (),
              rules_files: Sequence[str] = ()) -> tuple[list[tuple[Job, tuple[Any, ...]]],
                                                       list[int]]:
    """The jobs, longest first (measured: benchmarks/check_speed.py), so that two workers
    finish together, and the order their results print in (indices into the jobs)."""
    plan: list[tuple[Job, tuple[Any, ...]]] = [
        (job_uncoverable, (full, dump)),
        (job_termination, (full, dump)),
        (job_reach, (full, dump)),
        (job_parametric, (full,)),
        (job_explore, (full,)),
        (job_engine_model, (full,)),
        (job_effects, (full,)),
        (job_options, (tuple(variant_files), tuple(rules_files))),
    ]
    printed = [job_options, job_termination, job_effects, job_parametric, job_explore,
               job_reach, job_uncoverable, job_engine_model]
    order = [next(i for i, (fn, _) in enumerate(plan) if fn is want) for want in printed]
    if full:  # the shipped sets' assumptions (and the files given): the longest jobs,
        # printed after the proofs
        shipped = _shipped_by_size() + list(rules_files)
        order = [i + len(shipped) for i in order]
        at = printed.index(job_parametric) + 1
        order[at:at] = range(len(shipped))
        plan[:0] = [(job_shipped_assumptions, (name,)) for name in shipped]
    return plan, order


def run(full: bool = False, dump: str | None = None, jobs: int | None = None,
        variant_files: Sequence[str] = (), rules_files: Sequence[str] = (),
        only: str | None = None) -> dict[str, Any]:
    """Every check (`only="options"`: the option space alone); JSON-able (see the module
    docstring)."""
    started = time.perf_counter()
    if dump:
        Path(dump).mkdir(parents=True, exist_ok=True)
    plan, order = plan_jobs(full, dump, variant_files, rules_files)
    workers = jobs if jobs is not None else min(2, os.cpu_count() or 1)
    results: list[dict[str, Any]] = []
    warnings: list[str] = []
    if only == "options":
        results = [_safe(job_options, tuple(variant_files), tuple(rules_files))]
    elif workers <= 1:
        results = [_safe(fn, *args) for fn, args in plan]
        results = [results[i] for i in order]
    else:
        # fork: workers start at once, without importing __main__ again; nothing in this
        # process has touched z3 yet, so there is no solver state to inherit. Only from
        # a single-threaded process, else a forkserver (forking.py)
        from mtrain.conformance import forking
        from mtrain.conformance.child import quiet_worker
        from mtrain.conformance.forking import finish, pool_context, start_worker

        # workers that die with this process, killed outright or not
        pool = ProcessPoolExecutor(max_workers=workers, mp_context=pool_context(),
                                   initializer=start_worker,
                                   initargs=(os.getpid(), quiet_worker, ()))
        try:
            futures: list[Future[dict[str, Any]]] = [pool.submit(_safe, fn, *args)
                                                     for fn, args in plan]
            results = [f.result() for f in futures]
        except BaseException:  # an interrupt: no job is waited for, no worker left running
            _stop(pool)
            raise
        stuck = finish(pool)  # a worker stuck at its exit is killed, not waited for
        if stuck:
            warnings.append(f"{stuck} worker process(es) did not exit within "
                            f"{forking.EXIT_SECONDS:g} s of their last job: killed")
        results = [results[i] for i in order]
    checks: list[Check] = []
    summary: dict[str, Any] = {}
    for r in results:
        checks += r["checks"]
        summary.update(r.get("summary", {}))
    if only is None:
        checks.append(guarded("agreement", lambda: _agreement(checks, summary)))
    import z3

    out = {"checks": checks,
           "findings": [{"check": c["name"], **f} for c in checks for f in c["findings"]],
           "summary": summary, "full": full, "z3_version": z3.get_version_string(),
           "seconds": round(time.perf_counter() - started, 4),
           "jobs": [r["job"] for r in results if "job" in r],
           "plan": [fn.__name__.removeprefix("job_") for fn, _ in plan],
           "warnings": warnings}
    return out


def _stop(pool: ProcessPoolExecutor) -> None:
    """The pool's workers killed and reaped, its jobs not yet begun dropped. Leaving the
    pool's block would wait for every job planned (SIGINT: minutes); a worker left
    running computes on, then writes a traceback as its result finds no reader."""
    workers = list((pool._processes or {}).values())  # the executor names no other way
    manager: threading.Thread | None = pool._executor_manager_thread  # type: ignore[assignment]
    pool.shutdown(wait=False, cancel_futures=True)
    for worker in workers:
        worker.kill()
    for worker in workers:
        worker.join()
    # the manager, seeing its workers gone, closes its pipes and ends: joined here, not
    # at the interpreter's exit, whose wake-up call could write on a pipe it was closing
    # that moment ("OSError: [Errno 9] Bad file descriptor" after "interrupted")
    if manager is not None:
        manager.join()


def _shipped_by_size() -> list[str]:
    """The shipped rule sets, one per distinct game (scoring aside), the most work first
    (tiles times the largest table)."""
    from mtrain.reference.explore import shipped_names
    from mtrain.spec import tiles as T
    from mtrain.spec.catalog import catalog
    from mtrain.spec.model.alike import distinct_in_play
    from mtrain.spec.tilesets import highest

    def work(name: str) -> int:
        rs = catalog().ruleset(name)
        return T.set_size(highest(rs["tile_set"])) * max(rs.player_counts)
    names = [name for name, _ in distinct_in_play(shipped_names(), sized=True)]
    return sorted(names, key=work, reverse=True)


def _safe(fn: Job, *args: Any) -> dict[str, Any]:
    """Run one job; its CPU time is kept (benchmarks/check_speed.py plans the workers)."""
    t0, cpu = time.perf_counter(), time.process_time()
    name = fn.__name__.removeprefix("job_")
    try:
        out = fn(*args)
    except Exception as exc:
        out = {"checks": [verdict(name, "fail", time.perf_counter() - t0,
                                  [finding(f"{type(exc).__name__}: {exc}")])]}
    out["job"] = {"name": name, "cpu_seconds": round(time.process_time() - cpu, 3)}
    return out


def _agreement(checks: list[Check], summary: dict[str, Any]) -> Check:
    """The engine's exploration and z3's proofs say the same things."""
    t0 = time.perf_counter()
    by = {c["name"]: c for c in checks}
    findings, failed = [], False
    explored = by.get("small-games", {}).get("status") == "pass"
    proved = by.get("deadlock", {}).get("status") == "pass"
    if explored and proved:
        findings.append(finding("no deadlock: none among the explored states, and z3 proves "
                                "none exists in the abstract model", ["TURN-1"]))
    else:
        failed = True
        findings.append(finding(f"deadlock: exploration {by.get('small-games', {}).get('status')}"
                                f", z3 {by.get('deadlock', {}).get('status')}", ["TURN-1"]))
    longest = summary.get("small_games", {}).get("longest", {})
    for name, bounds in summary.get("rank_bounds", {}).items():
        for key, bound in bounds.items():
            if key not in longest.get(name, {}):
                continue
            got = longest[name][key]
            ok = got <= bound
            failed |= not ok
            n, p, h = key.split(":")
            findings.append(finding(
                f"{name}, double-{n[1:]}, {p} players x{h}: longest explored round {got} "
                f"actions {'<=' if ok else '> (CONTRADICTION)'} ranking bound {bound}",
                ["END-1", "END-2"]))
    for u in summary.get("uncoverable", []):
        ok = u["agree"]
        failed |= not ok
        findings.append(finding(
            f"{u['ruleset']}: uncoverable double, fewest actions by the engine "
            f"{u['engine']['depth']}, z3 BMC trace {u['z3']['depth']}: "
            + ("agree" if ok else "DISAGREE"),
            ["DBL-9"] if u["uncoverable_double"] == "released" else ["DBL-10", "END-2"]))
    for where, a in summary.get("absorbing", {}).items():
        if a["property"] == "uncoverable-absorbing":
            findings.append(finding(
                f"{where}: z3 proves a binding uncoverable double stops all play "
                + ("(the engine saw no play after one)" if a["ok"] else "FAILED"),
                ["DBL-10", "END-2"]))
            failed |= not a["ok"]
    return verdict("agreement", "fail" if failed else "pass", time.perf_counter() - t0,
                   findings)
