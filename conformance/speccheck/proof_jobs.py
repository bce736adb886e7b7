"""The jobs of `mtrain check` that prove with z3: termination and deadlock freedom of
each small round model (and its enabled actions against the engine's), the parametric
proofs and their assumptions, the reachability of every clause, the shortest trace to
an uncoverable double."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import Any

from mtrain.conformance.speccheck.verdicts import Check, finding, verdict


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
        verdict("termination", "fail" if term_fail else "pass", seconds - t_compare, term),
        verdict("deadlock", "fail" if dead_fail else "pass", 0.0, dead),
        verdict("model-vs-engine", "fail" if problems else "pass", t_compare,
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


def _bounds(reports: Sequence[tuple[str, Any]]) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for name, r in reports:
        out.setdefault(name, {})[f"d{r.max_pip}:{r.players}:{r.hand}"] = r.rank_bound
    return out


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
    check = verdict("parametric-proofs", "fail" if bad else "pass", time.perf_counter() - t0,
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
    return verdict(name, "fail" if failed else "pass", seconds, findings)


def job_shipped_assumptions(name: str) -> dict[str, Any]:
    """`--full`: the parametric proof's assumptions on one shipped rule set (or a rule-set
    file given with ``--rules``) on its own set, at every table size it deals
    (spec/proofs/assumptions.py ``run_shipped``)."""
    from mtrain.spec.catalog import catalog
    from mtrain.spec.proofs import assumptions as A
    from mtrain.spec.proofs.termination import Prover

    own = catalog().ruleset(name).unknown
    if own:  # the model reads no rule of one's own: a proof there would be of another rule
        return {"checks": [verdict(
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
    checks.append(verdict("reachability", status, rep.seconds, findings))
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
    checks.append(verdict("uncoverable-double", "fail" if ufail else "pass",
                          time.perf_counter() - t1, uf))
    return {"checks": checks, "summary": {"uncoverable": [u.to_json() for u in unc]}}
