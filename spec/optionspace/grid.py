"""The option space enumerated in plain Python, and the spec's own consistency rules.

Every constraint of the option space (a clause's ``when -> requires``, and DEAL-8: a
hand-size table must be dealable) names a few options; options that no constraint links
are independent. So the valid rule sets are the product, over the groups of linked
options ("components"), of each group's valid assignments, and each group is small
enough to enumerate outright. The verdict on an assignment is the catalog's own
(`Catalog.conflicts`), so this is the Python side of the option space; spec/optionspace/features.py
is the z3 side, asked here only to explain (minimal unsat cores) and to cross-check.

What is decided here, each exhaustively over what it names (the findings fail the run):

* dead option values (in no valid rule set);
* dead clauses: a `when` that no valid rule set meets;
* option values that no clause gives meaning to: no clause's `when` names them, and the
  value does not say (`meant_by` in options.yaml) which clauses give it its meaning;
* every combination of overlays on every shipped variant: each subset that composes
  (`applies_to` met, no two overlays setting one option differently) is valid, unless a
  clause declares it refused (`refuses` in clauses.yaml, with its reason);
* what each source says (`says` in sources.yaml): every variant or overlay citing that
  source takes, for each option the source speaks of, a value the source gives, and the
  clause that carries the source's wording applies under that value and cites the source;
* clauses marked `expected_dead` (with the reason) are well-formed; whether they are dead
  is for `reachability` (conformance/speccheck/run.py) to find.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from mtrain.spec.catalog import Catalog, RulesetError, catalog
from mtrain.spec.data_folder import load_data
from mtrain.spec.ruleset import CUSTOM
from mtrain.spec.yamlload import Document, SpecError

DEAL8_OPTIONS: Final = ("hand_sizes", "tile_set", "engine_procedure")
"""The options DEAL-8 (a table must be dealable) reads."""

_CLAUSE: Final = re.compile(r"\b[A-Z]+-\d+\b")


@dataclass(frozen=True)
class Finding:
    """One defect: a one-line cause and the clauses (or values) it involves."""

    message: str
    clauses: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"message": self.message, "clauses": list(self.clauses)}


@dataclass(frozen=True)
class Refusal:
    """A clause's declaration that it refuses some overlay combinations (clauses.yaml)."""

    clause: str
    overlays: frozenset[str]
    bases: frozenset[str] | None
    reason: str
    where: str


@dataclass(frozen=True)
class Combo:
    """A subset of the overlays touching constrained options, on one base."""

    base: str
    overlays: tuple[str, ...]
    kind: str
    """``ok``, ``applies-to``, ``conflict`` (two overlays answer one option differently),
    ``clause`` (a requires or DEAL-8 breaks), ``other``."""
    message: str
    clauses: tuple[str, ...]
    others: int
    """How many subsets of the remaining overlays compose with it (each gives the same
    verdict: they set only options that no constraint reads)."""

    @property
    def name(self) -> str:
        return "+".join((self.base, *self.overlays))


@dataclass
class Report:
    """Everything found, with the counts the docs quote."""

    grid: Grid
    findings: dict[str, list[Finding]] = field(default_factory=dict)
    info: dict[str, list[Finding]] = field(default_factory=dict)
    summary: dict[str, Any] = field(default_factory=dict)


class Grid:
    """The valid assignments of each component of the option space, enumerated."""

    def __init__(self, cat: Catalog | None = None) -> None:
        self.catalog = cat if cat is not None else catalog()
        # a rule-set file's own hand table is one value more (spec/optionspace/features.py counts it
        # too): DEAL-8 judges it, and the sets with no published table (double-6, 18) need it
        self.options = {o: tuple(opt.values) + ((CUSTOM,) if o == "hand_sizes" else ())
                        for o, opt in self.catalog.options.items()}
        links: list[tuple[str, ...]] = [
            (*c.when, *c.requires) for c in self.catalog.clauses.values() if c.requires]
        links.append(DEAL8_OPTIONS)
        self.constrained = frozenset(o for link in links for o in link)
        parent = {o: o for o in self.options}

        def find(x: str) -> str:
            while parent[x] != x:
                x = parent[x]
            return x

        for first, *rest in links:
            for o in rest:
                parent[find(o)] = find(first)
        groups: dict[str, list[str]] = {}
        for o in self.options:
            groups.setdefault(find(o), []).append(o)
        self.components = tuple(tuple(g) for g in groups.values())
        self.valid: dict[tuple[str, ...], list[dict[str, str]]] = {}
        for comp in self.components:
            rows = []
            for combo in itertools.product(*(self.options[o] for o in comp)):
                values = dict(zip(comp, combo, strict=True))
                if not self.catalog.conflicts(values):
                    rows.append(values)
            self.valid[comp] = rows

    @property
    def count(self) -> int:
        """The number of valid rule sets (assignments of every option)."""
        return math.prod(len(rows) for rows in self.valid.values())

    @property
    def size(self) -> int:
        return math.prod(len(vs) for vs in self.options.values())

    def exists(self, cond: Mapping[str, Iterable[str]]) -> bool:
        """Does some valid rule set take, for each listed option, one of its values?"""
        want = {o: frozenset(vs) for o, vs in cond.items()}
        return all(any(all(row[o] in want[o] for o in comp if o in want) for row in rows)
                   for comp, rows in self.valid.items())

    # -- the analyses ----------------------------------------------------------------

    def dead_values(self) -> list[Finding]:
        return [Finding(f"dead option value {o}={v}: no valid rule set takes it "
                        f"({self._why(o, v)})", self._blamed(o, v))
                for o, vs in self.options.items() for v in vs if not self.exists({o: [v]})]

    def _blamed(self, option: str, value: str) -> tuple[str, ...]:
        """The clauses whose `requires` the value breaks in some assignment of its group."""
        comp = next(c for c in self.components if option in c)
        found: dict[str, None] = {}
        for combo in itertools.product(*(self.options[o] for o in comp)):
            values = dict(zip(comp, combo, strict=True))
            if values[option] == value:
                for _, message in self.catalog.conflicts(values):
                    for cid in _CLAUSE.findall(message):
                        if cid in self.catalog.clauses:
                            found[cid] = None
        return tuple(found)

    def _why(self, option: str, value: str) -> str:
        blamed = self._blamed(option, value)
        return ("every completion breaks one of " + ", ".join(blamed)) if blamed else "?"

    def dead_clauses(self) -> list[Finding]:
        out = []
        for c in self.catalog.clauses.values():
            if c.when and not self.exists(c.when):
                cond = "; ".join(f"{o} in {sorted(v)}" for o, v in c.when.items())
                out.append(Finding(f"dead clause {c.id}: no valid rule set meets its `when` "
                                   f"({cond})", (c.id, *self._when_blame(c.when))))
        return out

    def _when_blame(self, when: Mapping[str, Iterable[str]]) -> tuple[str, ...]:
        found: dict[str, None] = {}
        for o, vs in when.items():
            for v in vs:
                for cid in self._blamed(o, v):
                    found[cid] = None
        return tuple(found)

    def meaningless_values(self, meant_by: Mapping[tuple[str, str], tuple[str, ...]]
                           ) -> list[Finding]:
        out = []
        for o, opt in self.catalog.options.items():
            for v in opt.values:
                if self.catalog.clauses_for(o, v) or meant_by.get((o, v)):
                    continue
                out.append(Finding(
                    f"option value {o}={v} has no clause: no clause's `when` names it and "
                    "options.yaml gives no `meant_by`, so it would play like another value",
                    ()))
        return out

    def combinations(self) -> tuple[list[Combo], dict[str, int]]:
        """Every subset of the overlays on every shipped variant, in classes.

        The overlays that set a constrained option (or share an option with one that
        does) are enumerated as subsets; any subset of the rest that composes on its own
        and with them leaves the verdict unchanged, so it is counted, not re-checked. A
        subset holding an overlay that does not apply to the base, or two overlays that
        set one option to two values, is refused before any rule is read (the catalogue's
        applies-to and conflict errors), so only the others are composed and listed: the
        work grows with the subsets that compose, not with 2 ** overlays.
        """
        ovs = self.catalog.overlays
        relevant = {n for n, v in ovs.items() if set(v.options) & self.constrained}
        grew = True
        while grew:  # closure: an overlay sharing an option with a relevant one is relevant
            extra = {n for n, v in ovs.items() if n not in relevant
                     and any(set(v.options) & set(ovs[r].options) for r in relevant)}
            relevant |= extra
            grew = bool(extra)
        rel = sorted(relevant)
        rest = sorted(set(ovs) - relevant)
        combos: list[Combo] = []
        totals = {"subsets": 0, "composable": 0, "contradictory": 0}
        for base in self.catalog.variants:
            lineage = self._lineage(base)
            usable = [n for n in rest if self._applies(n, lineage)]
            free = math.prod(len(self._agreeing_subsets(part))
                             for part in self._linked_parts(usable))
            totals["subsets"] += 2 ** len(ovs)
            for subset in self._agreeing_subsets([n for n in rel if self._applies(n, lineage)]):
                kind, message, cited = self._compose(base, subset)
                if kind in ("ok", "clause"):
                    totals["composable"] += free
                if kind == "clause":
                    totals["contradictory"] += free
                combos.append(Combo(base, subset, kind, message, cited, free))
        return combos, totals

    def _agreeing_subsets(self, names: Sequence[str]) -> list[tuple[str, ...]]:
        """Every subset of `names` whose overlays never set one option to two values, in
        the order of itertools.combinations by size (so the findings keep their order)."""
        ovs = self.catalog.overlays
        found: list[tuple[int, ...]] = []

        def grow(start: int, chosen: tuple[int, ...], seen: dict[str, str]) -> None:
            found.append(chosen)
            for i in range(start, len(names)):
                sets = ovs[names[i]].options
                if all(seen.get(o, v) == v for o, v in sets.items()):
                    grow(i + 1, (*chosen, i), {**seen, **sets})

        grow(0, (), {})
        found.sort(key=lambda chosen: (len(chosen), chosen))
        return [tuple(names[i] for i in chosen) for chosen in found]

    def _linked_parts(self, names: Sequence[str]) -> list[list[str]]:
        """`names` split into groups linked by a shared option: two overlays of different
        groups never conflict, so the agreeing subsets are the products of each group's."""
        ovs = self.catalog.overlays
        parts: list[tuple[set[str], list[str]]] = []
        for n in names:
            options = set(ovs[n].options)
            joined = [p for p in parts if p[0] & options]
            merged = (options.union(*(p[0] for p in joined)),
                      [m for p in joined for m in p[1]] + [n])
            parts = [p for p in parts if all(p is not j for j in joined)] + [merged]
        return [members for _, members in parts]

    def _applies(self, overlay: str, lineage: set[str]) -> bool:
        scope = self.catalog.overlays[overlay].applies_to
        return scope is None or bool(set(scope) & lineage)

    def _lineage(self, base: str) -> set[str]:
        out: set[str] = set()
        name: str | None = base
        while name is not None:
            out.add(name)
            name = self.catalog.variants[name].base
        return out

    def _compose(self, base: str, overlays: Sequence[str]) -> tuple[str, str, tuple[str, ...]]:
        try:
            self.catalog.ruleset(base, overlays)
        except (RulesetError, SpecError) as exc:
            message = str(exc).splitlines()[0]
            cited = tuple(dict.fromkeys(c for c in _CLAUSE.findall(message)
                                        if c in self.catalog.clauses))
            kind = ("applies-to" if "applies only to" in message
                    else "conflict" if " conflict: " in message
                    else "clause" if cited else "other")
            return kind, message, cited
        return "ok", "", ()


# -- the spec's own declarations (fields the catalog does not read) ---------------------


def _docs(cat: Catalog) -> dict[str, Document]:
    return {name: load_data(cat.data_dir, f"{name}.yaml")
            for name in ("clauses", "options", "sources")}


def expected_dead(cat: Catalog, docs: Mapping[str, Document] | None = None
                  ) -> tuple[dict[str, str], list[Finding]]:
    """Clauses marked `expected_dead: <reason>` in clauses.yaml, and malformed marks."""
    doc = (docs or _docs(cat))["clauses"]
    out: dict[str, str] = {}
    bad = []
    for i, body in enumerate(doc.data):
        if "expected_dead" not in body:
            continue
        reason = body["expected_dead"]
        if not isinstance(reason, str) or not reason.strip():
            bad.append(Finding(f"{doc.path}:{doc.line_of((i, 'expected_dead'))}: "
                               f"{body.get('id')}: expected_dead must give the reason as text",
                               (str(body.get("id")),)))
            continue
        out[str(body["id"])] = " ".join(reason.split())
    return out, bad


def refusals(cat: Catalog, docs: Mapping[str, Document]) -> tuple[list[Refusal], list[Finding]]:
    """The `refuses` declarations of clauses.yaml: which overlay combinations a clause
    refuses on purpose, on which bases, and why."""
    doc = docs["clauses"]
    out, bad = [], []
    for i, body in enumerate(doc.data):
        for k, r in enumerate(body.get("refuses") or ()):
            where = f"{doc.path}:{doc.line_of((i, 'refuses', k))}"
            cid = str(body.get("id"))
            if not isinstance(r, dict) or not r.get("overlays") or not r.get("reason"):
                bad.append(Finding(f"{where}: {cid}: a refusal needs `overlays` and a `reason`",
                                   (cid,)))
                continue
            unknown = [n for n in [*r["overlays"], *(r.get("bases") or ())]
                       if n not in cat.overlays and n not in cat.variants]
            if unknown:
                bad.append(Finding(f"{where}: {cid}: unknown overlay or variant "
                                   f"{', '.join(map(str, unknown))}", (cid,)))
                continue
            out.append(Refusal(cid, frozenset(r["overlays"]),
                               frozenset(r["bases"]) if r.get("bases") else None,
                               " ".join(str(r["reason"]).split()), where))
    return out, bad


def meant_by(cat: Catalog, docs: Mapping[str, Document]
             ) -> tuple[dict[tuple[str, str], tuple[str, ...]], list[Finding]]:
    """`meant_by: [clause, ...]` on option values: the clauses (without a `when` on that
    option) that give a value its meaning, e.g. the value under which a restriction is off."""
    doc = docs["options"]
    out: dict[tuple[str, str], tuple[str, ...]] = {}
    bad = []
    for o, body in doc.data.items():
        for v, vbody in (body.get("values") or {}).items():
            ids = vbody.get("meant_by") if isinstance(vbody, dict) else None
            if ids is None:
                continue
            where = f"{doc.path}:{doc.line_of((o, 'values', v, 'meant_by'))}"
            # a clause with a `when` on this option that leaves the value out cannot mean it
            wrong = [c for c in ids if c not in cat.clauses
                     or v not in cat.clauses[c].when.get(o, {v})]
            if not ids or wrong:
                bad.append(Finding(f"{where}: {o}={v}: meant_by names clauses that do not "
                                   f"exist or do not apply under it: {wrong or '(none given)'}",
                                   tuple(map(str, wrong))))
                continue
            out[(o, v)] = tuple(ids)
    return out, bad


def source_claims(cat: Catalog, docs: Mapping[str, Document]) -> list[Finding]:
    """Each variant and overlay against what its sources say (`says` in sources.yaml)."""
    doc = docs["sources"]
    out = []
    claims: dict[str, dict[str, tuple[dict[str, str], str]]] = {}
    for label, body in doc.data.items():
        for option, said in (body.get("says") or {}).items():
            where = f"{doc.path}:{doc.line_of((label, 'says', option))}"
            values = said.get("values") if isinstance(said, dict) else None
            if option not in cat.options or not isinstance(values, dict) or not said.get(
                    "reason"):
                out.append(Finding(f"{where}: {label} says {option}: needs a known option, "
                                   "`values` (value: clause) and a `reason`"))
                continue
            claims.setdefault(label, {})[option] = (dict(values), where)
            for value, cid in values.items():
                if value not in cat.options[option].values:
                    out.append(Finding(f"{where}: {label} says {option}={value}: no such value"))
                    continue
                clause = cat.clauses.get(cid)
                if clause is None:
                    out.append(Finding(f"{where}: {label} says {option}={value} by {cid}: "
                                       "no such clause"))
                    continue
                if value not in clause.when.get(option, ()):
                    out.append(Finding(
                        f"{cid} does not apply under {option}={value}, yet it carries what "
                        f"{label} says of {option} ({where}); its `when` is "
                        f"{ {k: sorted(w) for k, w in clause.when.items()} }", (cid,)))
                if label not in clause.sources:
                    out.append(Finding(f"{cid} carries what {label} says of {option} ({where}) "
                                       f"but does not cite {label}", (cid,)))
                if label not in cat.options[option].values[value].source:
                    out.append(Finding(f"{option}={value} is what {label} says ({where}) but "
                                       f"options.yaml does not give {label} as its source"))
    files: list[tuple[str, tuple[str, ...], Mapping[str, str]]] = [
        (f"variant {n}", vf.source, dict(cat.ruleset(n))) for n, vf in cat.variants.items()]
    files += [(f"overlay {n}", vf.source, vf.options) for n, vf in cat.overlays.items()]
    for what, labels, values in files:
        for label in labels:
            for option, (allowed, where) in claims.get(label, {}).items():
                if option in values and values[option] not in allowed:
                    said = ", ".join(f"{v} ({c})" for v, c in allowed.items())
                    out.append(Finding(
                        f"{what} cites {label} but sets {option}={values[option]}; {label} "
                        f"says {said} ({where})", tuple(dict.fromkeys(allowed.values()))))
    return out


def analyse(cat: Catalog | None = None) -> Report:
    """Every analysis of this module; findings are defects (the run fails on any)."""
    cat = cat if cat is not None else catalog()
    grid = Grid(cat)
    docs = _docs(cat)
    rep = Report(grid)
    rep.summary["valid_rule_sets"] = grid.count
    rep.summary["assignments"] = grid.size
    rep.summary["components"] = [
        {"options": list(c), "valid": len(grid.valid[c]),
         "size": math.prod(len(grid.options[o]) for o in c)} for c in grid.components]
    rep.findings["values"] = grid.dead_values()
    rep.findings["clause-usage"] = grid.dead_clauses()
    mb, bad_mb = meant_by(cat, docs)
    rep.findings["value-meaning"] = bad_mb + grid.meaningless_values(mb)
    marks, bad_marks = expected_dead(cat, docs)
    rep.summary["expected_dead"] = marks
    rep.findings["clause-usage"] += bad_marks
    refs, bad_refs = refusals(cat, docs)
    combos, totals = grid.combinations()
    rep.summary["overlay_combinations"] = totals
    contradictions: list[Finding] = []
    used: set[str] = set()
    undeclared: list[Combo] = []
    for c in combos:
        if c.kind == "other":
            contradictions.append(Finding(f"{c.name}: cannot be composed: {c.message}"))
        if c.kind != "clause":
            continue
        why = [r for r in refs if r.clause in {x.split(":")[0] for x in c.clauses}
               and r.overlays <= set(c.overlays) and (r.bases is None or c.base in r.bases)]
        used.update(r.where for r in why)
        if not why:
            undeclared.append(c)
    totals["undeclared"] = sum(c.others for c in undeclared)
    # one finding per smallest undeclared combination; the larger ones that contain it
    # are counted on its line (each fails too). Smallest first: a combination holding an
    # undeclared one holds a smallest one, so only those are compared (a fault can leave
    # tens of thousands undeclared, each pair compared was quadratic)
    held = [(c, frozenset(c.overlays)) for c in undeclared]
    smallest: dict[str, list[frozenset[str]]] = {}
    for c, mine in sorted(held, key=lambda h: len(h[1])):
        below = smallest.setdefault(c.base, [])
        if any(m < mine for m in below):
            continue
        below.append(mine)
        more = sum(d.others for d, theirs in held if d.base == c.base and mine < theirs)
        contradictions.append(Finding(
            f"{c.name} is contradictory and no clause declares the refusal "
            f"(with any of {c.others} compatible sets of the other overlays"
            + (f"; {more} larger combinations containing it too" if more else "")
            + f"): {c.message}", c.clauses))
    contradictions += bad_refs
    contradictions += [Finding(f"{r.where}: {r.clause} declares it refuses "
                               f"{'+'.join(sorted(r.overlays))}"
                               f"{' on ' + ', '.join(sorted(r.bases)) if r.bases else ''}, "
                               "but no such combination is contradictory", (r.clause,))
                       for r in refs if r.where not in used]
    rep.findings["overlay-combinations"] = contradictions
    unheld = {id(c) for c in undeclared}
    rep.info["overlay-combinations"] = [
        Finding(f"{c.name}: refused by {', '.join(c.clauses)} as declared"
                + (f" (and with any of {c.others} compatible sets of the other overlays)"
                   if c.others > 1 else ""), c.clauses)
        for c in combos if c.kind == "clause" and id(c) not in unheld]
    rep.summary["refusals"] = [{"clause": r.clause, "overlays": sorted(r.overlays),
                                "on": sorted(r.bases) if r.bases else None, "reason": r.reason}
                               for r in refs]
    rep.findings["sources"] = source_claims(cat, docs)
    return rep
