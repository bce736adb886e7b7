"""The option-space checks of `mtrain check`: decided by enumeration, explained by z3.

spec/optionspace/grid.py enumerates the option space and the spec's declarations and decides;
spec/optionspace/features.py (z3) gives each finding its minimal unsat core and cross-checks the
enumeration: the same model count, the same dead values, the same verdict on every
shipped variant with each single overlay. A check's status is ``fail`` when it has a
defect to report (every finding of spec/optionspace/grid.py is one, and so is a disagreement
between z3 and the enumeration), ``info`` when it only has facts worth reading.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Iterable, Sequence
from itertools import combinations
from typing import Any

import z3

from mtrain.spec.optionspace import grid as optiongrid
from mtrain.spec.optionspace.features import OptionSpace, clause_ids, ov, space

Finding = dict[str, Any]


def _finding(message: str, clauses: Iterable[str] = ()) -> Finding:
    return {"message": message, "clauses": list(dict.fromkeys(clauses))}


def _core_text(core: Sequence[str]) -> str:
    return ", ".join(core) if core else "(no constraint needed)"


def _fails(found: Sequence[optiongrid.Finding]) -> list[Finding]:
    return [_finding(f.message, f.clauses) for f in found]


CHECKS = ("shipped-variants", "overlay-combinations", "values", "value-meaning",
          "contradictory-pairs", "clause-usage", "sources", "atomic-sets",
          "redundant-constraints", "model-count", "deal-feasibility")
"""The option-space checks, in the order they run and print."""

NEEDS = {"contradictory-pairs": "values", "atomic-sets": "values"}
"""A check that reads what another found (the dead values), which runs first for it."""


def run_all(sp: OptionSpace | None = None,
            only: Collection[str] | None = None) -> dict[str, Any]:
    """Every option-space check (`only`: these of CHECKS alone, each as it runs among the
    rest), timed (wall clock per check; wall and CPU in total), on `sp` (default: the
    shipped option space)."""
    unknown = set(only or ()) - set(CHECKS)
    if unknown:
        raise ValueError(f"no option-space check {', '.join(sorted(unknown))}")
    wanted = set(CHECKS if only is None else only)
    wanted |= {NEEDS[n] for n in wanted if n in NEEDS}
    sp = sp if sp is not None else space()
    started, cpu = time.perf_counter(), time.process_time()
    queries = sp.queries
    checks: list[dict[str, Any]] = []
    summary: dict[str, Any] = {}
    grid_holder: list[optiongrid.Report] = []

    def run(name: str, body: Callable[[], tuple[str, list[Finding]]]) -> None:
        if name not in wanted:
            return
        t0 = time.perf_counter()
        try:
            status, findings = body()
        except Exception as exc:  # an analysis that errors is a failed check
            status, findings = "fail", [_finding(f"{type(exc).__name__}: {exc}")]
        checks.append({"name": name, "status": status,
                       "seconds": round(time.perf_counter() - t0, 4), "findings": findings})

    def grid() -> optiongrid.Report:
        if not grid_holder:
            grid_holder.append(optiongrid.analyse(sp.catalog))
        return grid_holder[0]

    def shipped() -> tuple[str, list[Finding]]:
        results = sp.shipped_variants()
        findings = [_finding(f"{r.name}: " + ("satisfiable" if r.sat else
                                             f"UNSATISFIABLE, core {_core_text(r.core)}"),
                             r.clauses) for r in results]
        return ("pass" if all(r.sat for r in results) else "fail"), findings

    def overlays() -> tuple[str, list[Finding]]:
        rep = grid()
        totals = rep.summary["overlay_combinations"]
        summary["overlay_combinations"] = dict(totals)
        findings = []
        for f in rep.findings["overlay-combinations"]:
            core = ""
            name = f.message.split(" ", 1)[0]
            base, *names = name.split("+")
            if base in sp.catalog.variants and all(n in sp.catalog.overlays for n in names):
                res = sp.combination(base, names).z3
                if not res.sat:
                    core = f"; z3 core {_core_text(res.core)}"
            findings.append(_finding(f.message + core, f.clauses))
        failed = bool(findings)
        # z3 and the catalog on each single overlay: the same verdict, the same clause
        singles = sp.overlay_combinations(pairs=False)
        bad = [c for c in singles if not c.agree]
        summary["overlay_combinations"]["z3_singles_disagree"] = [c.name for c in bad]
        findings += [_finding(f"DISAGREEMENT: {c.name}: z3 "
                              f"{'sat' if c.z3.sat else 'unsat ' + _core_text(c.z3.core)}, "
                              f"catalog {'composes' if c.catalog_ok else c.catalog_kind}",
                              c.z3.clauses) for c in bad]
        for r in rep.summary["refusals"]:
            findings.append(_finding(
                f"{r['clause']} refuses {'+'.join(r['overlays'])}"
                + (f" on {', '.join(r['on'])}" if r["on"] else " on every base")
                + f", as declared: {r['reason']}", [r["clause"]]))
        findings.append(_finding(
            f"all {totals['subsets']} subsets of the {len(sp.catalog.overlays)} overlays on "
            f"the {len(sp.catalog.variants)} shipped variants: {totals['composable']} compose "
            f"(applies_to met, no two answering one option differently), "
            f"{totals['contradictory']} of them refused by a clause, "
            + ("each as a clause declares" if not totals["undeclared"]
               else f"{totals['undeclared']} of those undeclared")
            + f"; z3 agrees with the catalog on all {len(singles)} single overlays"
            + (f" but {len(bad)}" if bad else "")))
        return ("fail" if failed or bad else "info"), findings

    def values() -> tuple[str, list[Finding]]:
        rep = grid()
        report = sp.values()
        summary["dead_values"] = [f.text for f in report.dead]
        summary["backbone"] = [f.text for f in report.backbone]
        findings = _fails(rep.findings["values"])
        for f in report.dead:
            findings.append(_finding(f"z3: dead value {f.text}, core {_core_text(f.core)}",
                                     clause_ids(f.core)))
        g = rep.grid
        py_dead = {ov(o, v) for o, vs in g.options.items() for v in vs
                   if not g.exists({o: [v]})}
        if py_dead != set(summary["dead_values"]):
            findings.append(_finding(f"DISAGREEMENT on dead values: enumeration "
                                     f"{sorted(py_dead)}, z3 {summary['dead_values']}"))
        failed = bool(findings)
        findings += [_finding(f"forced value (backbone) {f.text}: core {_core_text(f.core)}",
                              clause_ids(f.core)) for f in report.backbone]
        return ("fail" if failed else "info" if findings else "pass"), findings

    def meaning() -> tuple[str, list[Finding]]:
        found = _fails(grid().findings["value-meaning"])
        return ("fail" if found else "pass"), found or [_finding(
            "every option value is named by a clause's `when` or says which clauses mean it")]

    def pairs() -> tuple[str, list[Finding]]:
        g = grid().grid
        found = []
        dead = set(summary.get("dead_values", ()))
        for o1, o2 in combinations(g.options, 2):
            for v1 in g.options[o1]:
                for v2 in g.options[o2]:
                    if ov(o1, v1) in dead or ov(o2, v2) in dead:
                        continue
                    if not g.exists({o1: [v1], o2: [v2]}):
                        res, _ = sp.check([sp.eq(o1, v1), sp.eq(o2, v2)], model=False)
                        found.append((ov(o1, v1), ov(o2, v2), res.core))
        summary["contradictory_pairs"] = [[a, b, list(core)] for a, b, core in found]
        return ("info" if found else "pass"), [
            _finding(f"{a} with {b}: core {_core_text(core)}", clause_ids(core))
            for a, b, core in found]

    def clauses() -> tuple[str, list[Finding]]:
        rep = grid()
        findings = []
        for f in rep.findings["clause-usage"]:
            cid = f.clauses[0] if f.clauses else ""
            clause = sp.catalog.clauses.get(cid)
            core = ""
            if clause is not None and clause.when:
                res, _ = sp.check([sp.holds(clause.when)], model=False)
                core = f"; z3 core {_core_text(res.core)}" if not res.sat else " (z3: SAT?)"
            findings.append(_finding(f.message + core, f.clauses))
        failed = bool(findings)
        usage = [c for c in sp.catalog.clauses.values() if c.when]
        forced = []
        for c in usage:
            res, _ = sp.check([z3.Not(sp.holds(c.when))], model=False)
            if not res.sat:
                forced.append(c.id)
                findings.append(_finding(f"false-optional: {c.id} applies in every valid rule "
                                         f"set (core {_core_text(res.core)})",
                                         [c.id, *clause_ids(res.core)]))
        summary["false_optional_clauses"] = forced
        summary["dead_clauses"] = [f.clauses[0] for f in rep.findings["clause-usage"]
                                   if f.message.startswith("dead clause")]
        summary["expected_dead"] = rep.summary["expected_dead"]
        findings.append(_finding(f"{len(usage)} clauses with a `when` checked, every valid "
                                 "rule set enumerated"))
        return ("fail" if failed else "info" if len(findings) > 1 else "pass"), findings

    def sources() -> tuple[str, list[Finding]]:
        found = _fails(grid().findings["sources"])
        return ("fail" if found else "pass"), found or [_finding(
            "every variant and overlay takes, for each option its sources speak of, a value "
            "they give, carried by a clause that applies under it and cites them")]

    def atomic() -> tuple[str, list[Finding]]:
        sets = sp.atomic_sets(summary.get("dead_values", ()))
        summary["atomic_sets"] = [list(s) for s in sets]
        return ("info" if sets else "pass"), [
            _finding("always together: " + " <-> ".join(s)) for s in sets]

    def redundancy() -> tuple[str, list[Finding]]:
        report = sp.redundant_constraints()
        summary["redundant_constraints"] = {
            "tautologies": [r.name for r in report.redundant if r.tautology],
            "implied": {r.name: list(r.implied_by) for r in report.redundant
                        if not r.tautology},
            "basis": list(report.basis)}
        findings = [_finding(f"{r.name} is a tautology (no rule set can violate it)"
                             if r.tautology else
                             f"{r.name} is implied by {_core_text(r.implied_by)}",
                             [r.name, *r.implied_by]) for r in report.redundant]
        findings.append(_finding(
            f"an irredundant equivalent basis ({len(report.basis)} of "
            f"{len(sp.constraints)} constraints): {', '.join(report.basis)}", report.basis))
        return "info", findings

    def count() -> tuple[str, list[Finding]]:
        mc = sp.count_models()
        enumerated = grid().summary["valid_rule_sets"]
        summary["model_count"] = mc.total
        findings = [_finding(f"{mc.total} valid rule sets of {grid().summary['assignments']} "
                             "assignments (z3 with blocking clauses; the enumeration finds "
                             f"{enumerated})")]
        findings += [_finding(f"{', '.join(c.options)}: {c.count} of {c.size}")
                     for c in mc.components if c.count != c.size]
        free = [c for c in mc.components if c.count == c.size]
        findings.append(_finding("unconstrained: " + ", ".join(
            f"{'+'.join(c.options)} ({c.size})" for c in free)))
        if mc.total != enumerated:
            findings.insert(0, _finding(f"DISAGREEMENT: z3 counts {mc.total} valid rule sets, "
                                        f"the enumeration {enumerated}"))
            return "fail", findings
        return "info", findings

    def deal() -> tuple[str, list[Finding]]:
        rows = sp.deal_feasibility()
        bad: dict[tuple[str, str], list[str]] = {}
        for r in rows:
            bad.setdefault((r.table, r.tile_set), [])
            if not r.dealable:
                bad[(r.table, r.tile_set)].append(
                    f"{r.players}p {r.players}x{r.hand}"
                    f"{'+1' if r.engine_procedure == 'set-aside' else ''}={r.needed}"
                    f">{r.available} ({r.engine_procedure})")
        summary["undealable_rows"] = {f"{t}@{ts}": v for (t, ts), v in bad.items() if v}
        findings = []
        for (table, tile_set), entries in bad.items():
            lits = sorted({r.literal for r in rows if r.table == table
                           and r.tile_set == tile_set and not r.dealable},
                          key=lambda s: int(s.rsplit(":", 1)[1][:-1]))
            findings.append(_finding(
                f"{table} on {tile_set}: " + ("; ".join(entries) if entries
                                              else "every row can be dealt"), lits))
        return "info", findings

    run("shipped-variants", shipped)
    run("overlay-combinations", overlays)
    run("values", values)
    run("value-meaning", meaning)
    run("contradictory-pairs", pairs)
    run("clause-usage", clauses)
    run("sources", sources)
    run("atomic-sets", atomic)
    run("redundant-constraints", redundancy)
    run("model-count", count)
    run("deal-feasibility", deal)
    if only is not None:  # a check run only for another's sake is not reported
        checks = [c for c in checks if c["name"] in only]
    return {"checks": checks, "summary": summary,
            "constraints": [{"name": c.name, "text": c.text} for c in sp.constraints],
            "queries": sp.queries - queries, "z3_version": z3.get_version_string(),
            "seconds": round(time.perf_counter() - started, 4),
            "cpu_seconds": round(time.process_time() - cpu, 4)}
