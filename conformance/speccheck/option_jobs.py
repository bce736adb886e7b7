"""The jobs of `mtrain check` that read the specification's data: the option space, the
invariants' texts, and the variant and rule-set files given (``--variant``, ``--rules``)."""

from __future__ import annotations

import time
from collections.abc import Collection, Sequence
from typing import Any

from mtrain.conformance.speccheck.verdicts import Check, finding, guarded, verdict


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
        checks.append(guarded("invariants", _invariants))
    if variant_files and wanted("variant-files"):
        checks.append(guarded("variant-files", lambda: _variant_files(variant_files)))
    if rules_files and wanted("rules-files"):
        checks.append(guarded("rules-files", lambda: _rules_files(rules_files)))
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
    return verdict("invariants", "fail" if bad else "pass", time.perf_counter() - t0, findings)


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
    return verdict("variant-files", "fail" if failed else "pass",
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
    return verdict("rules-files", "fail" if failed else "pass", time.perf_counter() - t0,
                   findings)
