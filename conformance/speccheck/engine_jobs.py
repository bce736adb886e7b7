"""The jobs of `mtrain check` that play the engine and compare it with the model: every
state of small games explored, the effects of each action, and the legal actions and
clauses on random full-size games and on z3's situations."""

from __future__ import annotations

import time
from typing import Any

from mtrain.conformance.speccheck.verdicts import finding, verdict


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
    check = verdict("small-games", "fail" if failed else "pass", time.perf_counter() - t0,
                    findings)
    return {"checks": [check], "summary": {"small_games": {
        "states": states, "transitions": transitions, "longest": longest,
        "games": [g.to_json() for g in games]}}}


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
    check = verdict("effects-vs-engine", "fail" if diffs else "pass",
                    time.perf_counter() - t0, findings)
    return {"checks": [check], "summary": {"effects": {
        "small": {"states": small.states, "actions": small.actions,
                  "seconds": round(t_small, 3)},
        "full_size": {"rule_sets": big_names, "states": big.states, "actions": big.actions},
        "differences": len(diffs)}}}


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
    check = verdict("engine-vs-model", status, time.perf_counter() - t0, findings)
    return {"checks": [check], "summary": {"engine_vs_model": {
        "sampled": [r.to_json() for r in reports],
        "z3_paths": {"rule_sets": len(z3_names), "paths": len(paths), "found": len(found),
                     "impossible": len(none), "open": len(open_),
                     "seconds": round(sum(p.seconds for p in paths), 3)}}}}
