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
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Callable, Collection, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path
from typing import Any

Check = dict[str, Any]
Job = Callable[..., dict[str, Any]]


def finding(message: str, clauses: Sequence[str] = ()) -> dict[str, Any]:
    return {"message": message, "clauses": list(clauses)}


def _check(name: str, status: str, seconds: float, findings: list[dict[str, Any]],
           **extra: Any) -> Check:
    return {"name": name, "status": status, "seconds": round(seconds, 4),
            "findings": findings, **extra}


def _guard(name: str, body: Callable[[], Check]) -> Check:
    t0 = time.perf_counter()
    try:
        return body()
    except Exception as exc:  # a check that crashes fails, with the reason
        return _check(name, "fail", time.perf_counter() - t0,
                      [finding(f"{type(exc).__name__}: {exc}")])


# -- jobs (each runs in a worker process and returns JSON-able data) ---------------------


def job_options(variant_files: Sequence[str] = (), rules_files: Sequence[str] = (),
                only: Collection[str] | None = None) -> dict[str, Any]:
    """The option space, the invariants' texts and the files given; `only`: the checks of
    these names alone (spec/optionspace/checks.py CHECKS, ``invariants``,
    ``variant-files``, ``rules-files``), each as it runs among the rest."""
    from mtrain.spec.optionspace import checks as optionspace_checks

    def wanted(name: str) -> bool:
        return only is None or name in only

    space = [n for n in optionspace_checks.CHECKS if wanted(n)]
    report: dict[str, Any] = {"checks": [], "summary": {}, "queries": 0}
    if only is None:
        report = optionspace_checks.run_all()
    elif space:
        report = optionspace_checks.run_all(only=space)
    checks: list[Check] = list(report["checks"])
    if wanted("invariants"):
        checks.append(_guard("invariants", _invariants))
    if variant_files and wanted("variant-files"):
        checks.append(_guard("variant-files", lambda: _variant_files(variant_files)))
    if rules_files and wanted("rules-files"):
        checks.append(_guard("rules-files", lambda: _rules_files(rules_files)))
    return {"checks": checks, "summary": {"options": report["summary"],
                                          "z3_queries": report["queries"]}}


def _invariants() -> Check:
    """spec/data/invariants.yaml against reference/invariants.py, by their examples."""
    from mtrain.conformance.crosscheck.invariant_texts import check_invariants

    t0 = time.perf_counter()
    bad, passed = check_invariants()
    findings = [finding(f.message, f.clauses) for f in bad]
    if passed:
        findings.append(finding(f"{len(passed)} invariants: each example state (written from "
                                "the text) is flagged by exactly the invariants it lists, and "
                                "the unchanged state by none: " + ", ".join(passed)))
    return _check("invariants", "fail" if bad else "pass", time.perf_counter() - t0, findings)


def _variant_files(paths: Sequence[str]) -> Check:
    """Each file's option values (base, overlays, its own), asked of the option space."""
    from mtrain.spec.catalog import catalog
    from mtrain.spec.catalog_entries import read_variant_file
    from mtrain.spec.optionspace import features as optionspace
    from mtrain.spec.yamlload import SpecError, load

    t0 = time.perf_counter()
    cat, sp = catalog(), optionspace.space()
    findings, failed = [], False
    for path in paths:
        try:
            vf = read_variant_file(load(path))
            values: dict[str, str] = dict(cat.ruleset(vf.base)) if vf.base else {}
            for name in vf.overlays:
                values.update(cat.overlays[name].options)
            values.update(vf.options)
            res = sp.satisfiable(values, vf.name)
        except (SpecError, KeyError, ValueError, optionspace.AnalysisError) as exc:
            failed = True
            findings.append(finding(f"{path}: cannot be read: {exc}"))
            continue
        if res.sat:
            findings.append(finding(f"{path} ({vf.name}): satisfiable"))
        else:
            failed = True
            findings.append(finding(
                f"{path} ({vf.name}): CONTRADICTORY, core {', '.join(res.core)}", res.clauses))
    return _check("variant-files", "fail" if failed else "pass",
                  time.perf_counter() - t0, findings)


def _rules_files(paths: Sequence[str]) -> Check:
    """Each rule-set file (spec/schemas/rules.schema.json) composed by the catalog, which
    refuses contradictory values and broken `requires` at file:line; z3 adds the core."""
    import re

    from mtrain.spec.catalog import catalog
    from mtrain.spec.optionspace import features as optionspace
    from mtrain.spec.ruleset import CUSTOM, OTHER
    from mtrain.spec.yamlload import SpecError

    t0 = time.perf_counter()
    cat = catalog()
    findings, failed = [], False
    for path in paths:
        try:
            rs = cat.rules_file(path)
        except (SpecError, ValueError) as exc:
            failed = True
            for line in str(exc).splitlines():
                # a message ending in its clauses, "[DEAL-8]", keeps them once: the finding
                # writes its clauses after its text
                text = re.sub(r"\s*\[[A-Z]+-\d+(?:, [A-Z]+-\d+)*\]$", "", line)
                findings.append(finding(text, [c for c in re.findall(r"\b[A-Z]+-\d+\b", line)
                                               if c in cat.clauses]))
            continue
        known = {o: v for o, v in rs.choices if v not in (OTHER, CUSTOM)}
        res = optionspace.space().satisfiable(known, rs.name)
        if res.sat:
            findings.append(finding(f"{path} ({rs.name}): consistent"
                                    + (f"; {', '.join(rs.unknown)} `other`, not judged"
                                       if rs.unknown else "")))
        else:  # the catalog composed it, z3 refuses it: the two disagree
            failed = True
            findings.append(finding(f"{path} ({rs.name}): DISAGREEMENT: the catalog composes "
                                    f"it, z3 finds it contradictory, core {', '.join(res.core)}",
                                    res.clauses))
    return _check("rules-files", "fail" if failed else "pass", time.perf_counter() - t0,
                  findings)


def job_explore(full: bool) -> dict[str, Any]:
    from mtrain.reference.explore import explore_all

    t0 = time.perf_counter()
    games = explore_all(full)
    findings, failed = [], False
    states = transitions = 0
    longest: dict[str, dict[str, int]] = {}
    same: dict[str, list[str]] = {}
    for g in games:
        if g.same_as:
            same.setdefault(g.same_as, []).append(g.name)
    for g in games:
        if g.same_as:
            continue
        parts = []
        for r in g.sizes:
            states += r.states
            transitions += r.transitions
            longest.setdefault(g.name, {})[f"d{r.max_pip}:{r.players}:{r.hand}"] = r.longest
            deals = (f"all {r.deals} deals" if r.exhaustive
                     else f"{r.deals}/{r.deals_total} deals")
            ends = "/".join(f"{r.endings.get(k, 0)}" for k in ("domino", "blocked"))
            parts.append(f"d{r.max_pip} {r.players}p x{r.hand}: {deals}, {r.states} states, "
                         f"{r.final_states} final (domino/blocked {ends}), longest {r.longest}")
            for f in r.findings:
                failed = True
                findings.append(finding(f"{g.name} d{r.max_pip} {r.players}p x{r.hand}: "
                                        f"{f.kind.upper()}: {f.message}; after "
                                        f"{' / '.join(f.trace) or 'the deal'}", f.clauses))
        also = f" (also {', '.join(same[g.name])})" if g.name in same else ""
        findings.append(finding(f"{g.name}{also}: " + "; ".join(parts)))
    findings.insert(0, finding(f"{sum(not g.same_as for g in games)} distinct small games, "
                               f"{states} states, {transitions} transitions: "
                               + ("problems found" if failed
                                  else "no deadlock, no cycle, every invariant holds")))
    check = _check("small-games", "fail" if failed else "pass", time.perf_counter() - t0,
                   findings)
    return {"checks": [check], "summary": {"small_games": {
        "states": states, "transitions": transitions, "longest": longest,
        "games": [g.to_json() for g in games]}}}


def job_termination(full: bool, dump: str | None) -> dict[str, Any]:
    from mtrain.conformance.crosscheck import driver
    from mtrain.conformance.crosscheck.round_effects import compare_states
    from mtrain.spec.proofs.termination import Prover, prove

    t0 = time.perf_counter()
    prover = Prover(dump)
    reports, compared, problems = [], 0, []
    t_compare = 0.0
    for name, rs in driver.distinct(driver.rule_sets(full)):
        for n, p, h in driver.FULL_MODELS if full else driver.QUICK_MODELS:
            game = driver.small_game(rs, n, p, h)
            model = game.model()
            reports.append((name, prove(model, f"{name}@d{n}x{p}", prover)))
            tc = time.perf_counter()
            sample = driver.explored(game, 0, 200 if full else 60)
            compared += len(sample)
            problems += [f"{name} d{n} {p}p: {m}" for m in compare_states(model, sample)]
            t_compare += time.perf_counter() - tc
    term, dead = [], []
    term_fail = dead_fail = False
    absorbing = {}
    for name, rep in reports:
        where = f"{name} d{rep.max_pip} {rep.players}p x{rep.hand}"
        qs = {q.name.rsplit(":", 1)[-1] if ":" in q.name else q.name: q for q in rep.queries}
        tq = [q for q in rep.queries if q.name.split(":", 1)[1].split(":")[0]
              in ("init", "inductive", "ranking")]
        bad = [q for q in tq if not q.ok]
        term_fail |= bool(bad)
        term.append(finding(
            f"{where}: " + ("invariant inductive and ranking function decreasing on every "
                            f"action ({len(tq)} queries); "
                            f"longest round <= {rep.rank_bound} actions" if not bad else
                            "FAILED: " + "; ".join(f"{q.name} {q.answer}: "
                                                   f"{json.dumps(q.detail)[:600]}" for q in bad)),
            ["END-1", "END-2", "END-3"] if not bad else ["END-2"]))
        dq = qs.get("deadlock")
        if dq is not None:
            dead_fail |= not dq.ok
            dead.append(finding(f"{where}: " + ("no well-formed non-final state without a "
                                                "legal action" if dq.ok else
                                                f"DEADLOCK {json.dumps(dq.detail)[:600]}"),
                                ["TURN-1", "TURN-2", "TURN-4"]))
        for key in ("uncoverable-absorbing", "uncoverable-released"):
            if key in qs:
                absorbing[where] = {"property": key, "ok": qs[key].ok}
    seconds = time.perf_counter() - t0
    checks = [
        _check("termination", "fail" if term_fail else "pass", seconds - t_compare, term),
        _check("deadlock", "fail" if dead_fail else "pass", 0.0, dead),
        _check("model-vs-engine", "fail" if problems else "pass", t_compare,
               [finding(f"{compared} explored engine states: the model's enabled actions equal "
                        "the engine's legal actions and the abstract invariant holds"
                        if not problems else f"{len(problems)} disagreements")]
               + [finding(p) for p in problems[:20]]),
    ]
    # deadlock queries' time is part of the proofs: report it on its own line
    checks[1]["seconds"] = round(sum(q.seconds for _, r in reports for q in r.queries
                                     if q.name.endswith(":deadlock")), 4)
    return {"checks": checks, "summary": {
        "models": [r.to_json() for _, r in reports], "absorbing": absorbing,
        "rank_bounds": _bounds(reports)}}


def job_effects(full: bool) -> dict[str, Any]:
    """The engine's effects against the round model's (conformance/crosscheck/round_effects.py):
    on explored
    small games, as z3 terms and on plain values; on random full-size rounds, on plain
    values (every shipped rule set: the variants, their double-15 overlays, the rule-set
    files; `full`: every rule set)."""
    from mtrain.conformance.crosscheck import driver
    from mtrain.conformance.crosscheck import round_effects as RE
    from mtrain.spec.catalog import catalog
    from mtrain.spec.tilesets import highest

    t0 = time.perf_counter()
    cat = catalog()
    models = driver.FULL_MODELS if full else driver.QUICK_MODELS
    small, plain = RE.EffectReport(), RE.EffectReport()
    distinct = list(driver.distinct(driver.rule_sets(full)))
    for _, rs in distinct:
        for n, p, h in models:
            game = driver.small_game(rs, n, p, h)
            model = game.model()
            sample = driver.explored(game, 1, 200 if full else RE.SMALL_STATES)
            RE.compare_effects(model, sample, small, symbolic=True)
            RE.compare_effects(model, sample, plain)
    t_small = time.perf_counter() - t0
    big_names = driver.full_size(full)
    big = RE.EffectReport()
    per = RE.GAME_STATES * (10 if full else 1)
    sets: dict[int, list[str]] = {}
    for name in big_names:
        rs = cat.ruleset(name)
        sets.setdefault(highest(rs["tile_set"]), []).append(name)
        RE.game_effects(rs, per, report=big)
    diffs = small.differences + plain.differences + big.differences
    sizes = ", ".join(f"d{n} {p}p x{h}" for n, p, h in models)
    findings = [
        finding(f"small games ({len(distinct)} distinct rule sets, {sizes}"
                f"): {small.states} explored states, {small.actions} successors: the z3 terms "
                f"of the model's effects, evaluated in the state, and the same model on "
                f"plain values both equal the engine's successor field by field "
                f"({small.fields + plain.fields} fields)" if not small.differences
                + plain.differences else f"small games: {len(small.differences)} "
                f"differences (z3 terms), {len(plain.differences)} (plain values)"),
        finding(f"random full-size rounds, every player count, {len(big_names)} rule sets ("
                + ", ".join(f"double-{n}: {len(v)}" for n, v in sorted(sets.items()))
                + f"), {per} states each: {big.states} states, {big.actions} successors, "
                f"{big.fields} fields: " + ("the model's successor equals the engine's"
                                           if not big.differences
                                           else f"{len(big.differences)} differences"))]
    findings += [finding(d.message()[:1500], [d.clause]) for d in diffs[:20]]
    check = _check("effects-vs-engine", "fail" if diffs else "pass",
                   time.perf_counter() - t0, findings)
    return {"checks": [check], "summary": {"effects": {
        "small": {"states": small.states, "actions": small.actions,
                  "seconds": round(t_small, 3)},
        "full_size": {"rule_sets": big_names, "states": big.states, "actions": big.actions},
        "differences": len(diffs)}}}


def _bounds(reports: Sequence[tuple[str, Any]]) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for name, r in reports:
        out.setdefault(name, {})[f"d{r.max_pip}:{r.players}:{r.hand}"] = r.rank_bound
    return out


def job_engine_model(full: bool, states: int | None = None, z3: bool = True) -> dict[str, Any]:
    """The engine against the model (conformance/crosscheck/legal_sets.py): on random full-size
    games,
    and (unless `z3` is false) on z3's situations for every decision path of the model."""
    from mtrain.conformance.crosscheck import legal_sets as EM
    from mtrain.reference.explore import rule_set_names
    from mtrain.spec.catalog import catalog

    t0 = time.perf_counter()
    n = states if states is not None else EM.FULL_STATES if full else EM.DEFAULT_STATES
    reports = EM.compare_all(n)
    diffs = [d for r in reports for d in r.differences]
    total = sum(r.states for r in reports if not r.same_as)
    findings = [finding(
        f"{len(reports)} rule sets x {n} states of random games on their own sets, "
        f"{sum(not r.same_as for r in reports)} distinct ({total} states, "
        f"{sum(r.actions for r in reports if not r.same_as)} actions, "
        f"{sum(r.ends for r in reports if not r.same_as)} END verdicts, "
        f"{sum(r.blocked for r in reports if not r.same_as)} blocked): "
        + ("legal actions, permitting and refusing clauses and END-2/END-3 equal the model's, "
           "the rank falls on every transition" if not diffs
           else f"{len(diffs)} differences"))]
    findings += [finding(d.message(), [d.clause]) for d in diffs[:20]]
    findings += [finding(f"{r.ruleset}: " + (
        f"the same games as {r.same_as} (scoring aside)" if r.same_as else
        f"{r.states} states, {r.actions} actions, {r.ends} END verdicts ({r.blocked} "
        f"blocked), {r.ranked} transitions on which the rank falls")) for r in reports]
    # z3: a situation for every decision path of the model, with 4 players, on the engine
    cat = catalog()
    z3_names = [] if not z3 else rule_set_names() if full else list(cat.variants)
    paths = [p for name in z3_names
             for p in EM.z3_search(name, cat.ruleset(name))]
    zdiffs = [d for p in paths for d in p.differences]
    diffs += zdiffs
    found = [p for p in paths if p.answer == "sat"]
    none = [p for p in paths if p.answer == "unsat"]
    open_ = [p for p in paths if p.answer not in ("sat", "unsat")]
    findings.insert(1, finding(
        f"z3, {EM.Z3_PLAYERS} players, up to {EM.Z3_SLOTS} tiles in hand, {len(z3_names)} rule "
        f"sets: {len(paths)} decision paths of the model (the clause that permits or refuses "
        f"a play on the own, another or the Mexican Train, a draw, a pass, an end-chain): "
        f"{len(found)} met by a well-formed situation, written as a table and answered by "
        f"the engine ({len(zdiffs)} differences), {len(none)} impossible in any well-formed "
        f"situation, {len(open_)} not settled"))
    findings[2:2] = [finding(d.message(), [d.clause]) for d in zdiffs[:20]]
    findings += [finding(f"NOT SETTLED: {p.ruleset}: {p.action} "
                         f"{'permitted' if p.legal else 'refused'} by {p.clause}: z3 {p.answer}",
                         [p.clause]) for p in open_]
    status = "fail" if diffs else "info" if open_ else "pass"
    check = _check("engine-vs-model", status, time.perf_counter() - t0, findings)
    return {"checks": [check], "summary": {"engine_vs_model": {
        "sampled": [r.to_json() for r in reports],
        "z3_paths": {"rule_sets": len(z3_names), "paths": len(paths), "found": len(found),
                     "impossible": len(none), "open": len(open_),
                     "seconds": round(sum(p.seconds for p in paths), 3)}}}}


def job_parametric(full: bool = False) -> dict[str, Any]:
    """Termination and deadlock freedom for symbolic sizes and rule sets
    (spec/proofs/parametric.py),
    and what that proof assumes of the round, proved on the round model
    (spec/proofs/assumptions.py)."""
    from mtrain.reference.explore import rule_set_names
    from mtrain.spec.catalog import catalog
    from mtrain.spec.proofs import assumptions as A
    from mtrain.spec.proofs.parametric import parametric_proofs
    from mtrain.spec.proofs.termination import Prover

    t0 = time.perf_counter()
    proofs = parametric_proofs()
    bad = [p for p in proofs if not p.ok]
    findings = [finding(
        f"any number of players, any tile set, every value of every option: {len(proofs)} z3 "
        "queries (chain-cover lemma, deadlock, the ranking (2B + H, F, turn) decreasing on "
        "play, draw, pass and end-chain and bounded below, each action enabled somewhere): "
        + ("all as expected" if not bad else "FAILED " + ", ".join(
            f"{p.name} {p.answer} (expected {p.expect})" for p in bad)),
        ["END-1", "END-2", "END-3", "TURN-1", "TURN-2", "TURN-4"])]
    check = _check("parametric-proofs", "fail" if bad else "pass", time.perf_counter() - t0,
                   findings)
    names = rule_set_names() if full else list(catalog().variants)
    sizes = A.FULL_SIZES if full else A.SIZES
    reps, seconds = A.run(names, sizes, Prover())
    models = f"{len({r.label.split('@')[0] for r in reps})} distinct rule sets x " + ", ".join(
        f"d{n} {p}p" for n, p in sizes)
    acheck = _assumptions_check("parametric-assumptions", reps, seconds, models)
    return {"checks": [check, acheck], "summary": {"parametric": [
        {"name": p.name, "answer": p.answer, "expect": p.expect} for p in proofs],
        "parametric_assumptions": [q.to_json() for r in reps for q in r.queries]}}


def _assumptions_check(name: str, reps: list[Any], seconds: float, models: str) -> Check:
    lemmas = [q for r in reps for q in r.queries]
    failed = [q for q in lemmas if not q.ok]
    kinds = sorted({q.name.split(":", 1)[1] for q in lemmas})
    actions = sum(r.actions for r in reps)
    findings = [finding(
        f"{len(reps)} round models ({models}): {len(lemmas)} lemmas ({', '.join(kinds)}), "
        f"each action of each model ({actions:,}) a z3 query of its own: "
        + ("every assumption of the parametric proof holds of the round model" if not failed
           else f"{len(failed)} FAILED"), ["END-2", "END-3", "FIRST-1", "FIRST-6", "ENG-4"])]
    findings += [finding(f"FAILED {q.name}: {q.answer}" + (
        f", breaks {'; '.join(q.detail)}" if isinstance(q.detail, list) else
        f" ({q.detail})" if q.detail else ""), ["END-2"]) for q in failed]
    return _check(name, "fail" if failed else "pass", seconds, findings)


def job_shipped_assumptions(name: str) -> dict[str, Any]:
    """`--full`: the parametric proof's assumptions on one shipped rule set (or a rule-set
    file given with ``--rules``) on its own set, at every table size it deals
    (spec/proofs/assumptions.py ``run_shipped``)."""
    from mtrain.spec.catalog import catalog
    from mtrain.spec.proofs import assumptions as A
    from mtrain.spec.proofs.termination import Prover

    own = catalog().ruleset(name).unknown
    if own:  # the model reads no rule of one's own: a proof there would be of another rule
        return {"checks": [_check(
            f"parametric-assumptions:{name}", "info", 0.0,
            [finding(f"not checked: {name} plays rules of its own ({', '.join(own)}: "
                     "`other`), which the model cannot state, so no proof of its round "
                     "model would be a proof of its rules")])],
            "summary": {f"parametric_assumptions:{name}": []}}
    reps, seconds = A.run_shipped([name], Prover())
    sizes = ", ".join(str(r.players) for r in reps)
    check = _assumptions_check(f"parametric-assumptions:{name}", reps, seconds,
                               f"{name} on double-{reps[0].max_pip if reps else '?'}, "
                               f"{sizes} players")
    return {"checks": [check], "summary": {f"parametric_assumptions:{name}": [
        q.to_json() for r in reps for q in r.queries]}}


def job_reach(full: bool, dump: str | None) -> dict[str, Any]:
    from mtrain.conformance.crosscheck import witnesses as R
    from mtrain.spec.catalog import catalog
    from mtrain.spec.optionspace.grid import expected_dead
    from mtrain.spec.proofs.termination import Prover

    prover = Prover(dump)
    checks = []
    rep = R.search(rounds=400 if full else 150, prover=prover)
    findings = [finding(
        f"{len({(w.clause, w.ruleset) for w in rep.witnesses})} clause/rule-set pairs settled: "
        f"{sum(w.how == 'play' for w in rep.witnesses)} by random play on the real set, "
        f"{sum(w.how == 'small' for w in rep.witnesses)} by small games, "
        f"{sum(w.how == 'z3' for w in rep.witnesses)} by a z3 state, "
        f"{len(rep.dead)} dead; {len(rep.missing)} not settled")]
    dead_by: dict[str, list[str]] = {}
    for w in rep.dead:
        dead_by.setdefault(w.clause, []).append(w.ruleset)
    expected, _ = expected_dead(catalog())
    unexpected = []
    for clause, where in dead_by.items():
        why = next(w.detail for w in rep.dead if w.clause == clause)
        if clause in expected:
            findings.append(finding(f"dead as expected: {clause} never fires "
                                    f"({R.FIRES[clause].when}) under {', '.join(where)}: {why}; "
                                    f"clauses.yaml says why: {expected[clause]}", [clause]))
        else:  # a dead clause fails unless the spec says it is meant to be
            unexpected.append(clause)
            findings.append(finding(f"DEAD: {clause} never fires ({R.FIRES[clause].when}) under "
                                    f"{', '.join(where)}: {why}; clauses.yaml does not mark it "
                                    "expected_dead", [clause]))
    fired = {w.clause for w in rep.witnesses if w.how != "dead"}
    for clause in sorted(set(expected) & fired):
        unexpected.append(clause)
        findings.append(finding(f"NOT DEAD: {clause} is marked expected_dead in clauses.yaml but "
                                "fires: " + "; ".join(f"{w.ruleset} by {w.how}"
                                                      for w in rep.witnesses
                                                      if w.clause == clause), [clause]))
    for w in rep.witnesses:
        if w.how == "z3":
            findings.append(finding(f"{w.clause} under {w.ruleset}: only a z3 state "
                                    f"({w.detail})", [w.clause]))
    for c, name in rep.missing:
        findings.append(finding(f"NOT SETTLED: {c} under {name}: no witness, no proof", [c]))
    status = "fail" if rep.missing or unexpected else ("info" if rep.dead else "pass")
    checks.append(_check("reachability", status, rep.seconds, findings))
    return {"checks": checks, "summary": {"reachability": rep.to_json()}}


def job_uncoverable(full: bool, dump: str | None) -> dict[str, Any]:
    """The uncoverable double: a job of its own, so that two workers finish together."""
    from mtrain.conformance.crosscheck import witnesses as R
    from mtrain.spec.proofs.termination import Prover

    prover = Prover(dump)
    checks = []
    t1 = time.perf_counter()
    unc = R.uncoverable(prover, full)
    uf, ufail = [], False
    for u in unc:
        clauses = ["DBL-10", "END-2"] if u.rule == "stays-open" else ["DBL-9"]
        if u.problems:
            ufail = True
            uf += [finding(f"{u.ruleset}: {p}", clauses) for p in u.problems]
        what = ("the round ends blocked with the double open" if u.rule == "stays-open"
                else "a tile is played elsewhere while the double is open")
        over = ("every deal" if u.size.deals is None
                else f"{u.size.deals} sampled deals")
        uf.append(finding(
            f"{u.ruleset} ({u.rule}), {u.size.label}: fewest actions until {what}, over "
            f"{over}: engine {u.engine_depth} ({' / '.join(u.engine_trace)}); z3 BMC: a "
            f"trace of {u.z3_depth} from a deal of its choosing"
            + (", and none shorter (unsat at every smaller depth)" if full else "")
            + f", replayed on the engine: {'reaches it' if u.z3_replayed else 'MISSES'}",
            clauses))
        if u.rule == "stays-open":
            uf.append(finding(
                f"{u.ruleset}: {u.bound_states} explored states where a duty binds on a double "
                f"nobody can cover: {u.plays_from_bound} plays followed, endings "
                f"{dict(sorted(u.endings_from_bound.items()))}", ["DBL-10", "END-2"]))
    checks.append(_check("uncoverable-double", "fail" if ufail else "pass",
                         time.perf_counter() - t1, uf))
    return {"checks": checks, "summary": {"uncoverable": [u.to_json() for u in unc]}}


# -- running and printing ---------------------------------------------------------------


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
        checks.append(_guard("agreement", lambda: _agreement(checks, summary)))
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
        out = {"checks": [_check(name, "fail", time.perf_counter() - t0,
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
    return _check("agreement", "fail" if failed else "pass", time.perf_counter() - t0,
                  findings)
