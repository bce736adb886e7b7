"""The pages that rest on slow computations, and the stored results behind them.

Two pages rest on slow computations: the consistency report (`mtrain check`, about a
minute) and the mutants page (the corpus against every mutant, half a minute). Their
results are kept in docs/data/*.json, each with a digest of the files it was computed
from (the spec/, reference/ and, for the mutants, conformance/ packages). `mtrain docs`
reuses a result whose digest still matches and recomputes it otherwise; `mtrain docs
--check` never recomputes: a result whose inputs changed is reported stale at once. The
results keep nothing that depends on the machine: timings are dropped.

This module holds those two pages (ReportPages, a part of mtrain.docgen's Docs), the
snapshots they are written from (`snapshot`), the digest of a result's inputs
(`inputs_digest`, over `import_closure`) and the computations themselves
(`consistency_data`, `mutants_data`).
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import json
import os
import re
from collections.abc import Callable, Iterable, Iterator
from importlib import metadata
from pathlib import Path
from typing import Any

from mtrain.conformance.fixture import Fixture, load_corpus
from mtrain.spec.catalog import Catalog

SNAPSHOTS = "data"


def _natural(text: str) -> tuple[Any, ...]:
    """A sort key that puts doubles-9 before doubles-10."""
    return tuple(int(p) if p.isdigit() else p for p in re.split(r"(\d+)", text))


def clause_links(ids: Iterable[str], known: Iterable[str], up: str = "") -> str:
    """Clause ids linked to their pages (`DEAL-8:pagat:4p` to DEAL-8); `up` leads from
    the page's folder to docs/."""
    have = set(known)
    out = []
    for cid in ids:
        base = cid.split(":")[0]
        out.append(f"[{cid}]({up}rules/{base}.md)" if base in have else f"`{cid}`")
    return ", ".join(out)


class ReportPages:
    """The consistency report and the mutants page, drawn from their snapshots.

    A part of Docs (mtrain.docgen), which sets what it reads: the catalog, the fixtures,
    the docs folder and whether to compute (see Docs), and `files`, the pages written.
    """

    cat: Catalog
    fixtures: list[Fixture]
    files: dict[str, str]
    out: Path | None
    compute: bool
    log: Callable[[str], None]

    # -- stored results of slow computations -----------------------------------------------

    def snapshot(self, name: str, inputs: tuple[tuple[str, ...], tuple[str, ...]],
                 run: Callable[[], dict[str, Any]], what: str) -> dict[str, Any] | None:
        """The result of a slow computation, from docs/data/<name>.json when its inputs
        (modules, data packages: see inputs_digest) have not changed, else computed afresh
        (or, when not computing, None: stale)."""
        rel = f"{SNAPSHOTS}/{name}.json"
        digest = inputs_digest(*inputs)
        stored: dict[str, Any] | None = None
        if self.out is not None and (self.out / rel).is_file():
            try:
                stored = json.loads((self.out / rel).read_text(encoding="utf-8"))
            except ValueError:
                stored = None
        if stored is not None and stored.get("inputs") == digest:
            data: dict[str, Any] = stored["data"]
        elif self.compute:
            self.log(f"computing {what} (its inputs changed) ...")
            data = run()
        else:
            self.files[rel] = (f"stale: the inputs of {what} changed; run `mtrain docs` to "
                               "recompute\n")
            return None
        self.files[rel] = json.dumps(
            {"about": f"{what}: the data behind docs/{name}.md; written by `mtrain docs`, "
                      "reused while `inputs` (a digest of the files it depends on) matches",
             "inputs": digest, "data": data}, indent=1) + "\n"
        return data

    @staticmethod
    def _stale_page(title: str, what: str) -> str:
        return (f"# {title}\n\nStale: the inputs of {what} changed since this page was "
                "written. Run `mtrain docs` to recompute it.\n")

    # -- the consistency report ----------------------------------------------------------------

    def consistency(self) -> None:
        what = "the consistency report (`mtrain check`)"
        data = self.snapshot("consistency", (("mtrain.conformance.speccheck.run",), ("spec",)),
                             consistency_data, what)
        if data is None:
            self.files["consistency.md"] = self._stale_page("Consistency", what)
            return
        checks: list[dict[str, Any]] = data["checks"]
        clauses = list(self.cat.clauses)
        counts = {s: sum(c["status"] == s for c in checks) for s in ("pass", "info", "fail")}
        from mtrain.conformance.speccheck.claims import rows

        out = ["# Consistency: what `mtrain check` finds", "",
               "`mtrain check` puts the specification through plain enumeration, z3 and the "
               "engine. The option space is small enough to enumerate outright, so its "
               "verdicts are exhaustive and z3 explains them (minimal cores) and cross-checks "
               "them; the game itself is explored and proved on small sets only, as the table "
               "below says. A check fails on a defect (the command exits 1), is `info` when it "
               "only has facts worth reading, and passes otherwise. `mtrain check --only "
               "options` runs the option-space checks alone (seconds); most of the time of "
               "the whole check goes to the bounded model checking of the uncoverable "
               "double, the termination proofs, the small-game exploration and the engine "
               "played against the model on full-size games, which "
               "`mtrain check` runs in two worker processes. This page is the "
               f"report of `mtrain check` without `--full` and without timings; "
               f"z3 {data['z3_version']}.", "",
               f"**{len(checks)} checks: {counts['pass']} pass, {counts['info']} with "
               f"findings worth reading, {counts['fail']} failed.**", "",
               "| check | status | findings |", "|---|---|---|"]
        for c in checks:
            out.append(f"| [`{c['name']}`](#{c['name']}) | {c['status']} | "
                       f"{len(c['findings'])} |")
        out += ["", "## What each check proves", "",
                "| check | decides | over | does not cover |", "|---|---|---|---|"]
        out += [f"| {name} | {what} | {over} | {gap} |" for name, what, over, gap in rows()]
        out += ["", "## What the engine-vs-model checks and the proofs cover", "",
                "- `engine-vs-model` plays random rounds with the engine on every rule set "
                "(each shipped variant and each variant with one overlay that composes), on "
                "its own set (double-12 or double-9), every player count it allows: 60 states "
                "per rule set by default, 10,000 with `--full`. On each state the legal "
                "actions (spec/model/legality.py), the clause that permits each legal action and "
                "the clause that refuses each illegal candidate (spec/model/decisions.py) and the "
                "END-2/END-3 verdict must equal the engine's, and the ranking function of "
                "the parametric proof must fall on every transition. It is a sample: it "
                "proves nothing about states it does not meet.",
                "- Its z3 part asks, for every decision path of the model (which clause "
                "answers a play of a held tile on the own train, another train or the "
                "Mexican Train, a draw, a pass, an end-chain), for a well-formed situation "
                "with 4 players (numbers 0 to 9, up to 3 tiles in the mover's hand) that "
                "takes it, writes it as a table and compares the engine there. An unsat "
                "answer proves the path impossible within the well-formedness constraints; "
                "a sat one tests the engine on one table per path, not on every table.",
                "- `parametric-proofs`: termination and deadlock freedom with the sizes as "
                "z3 integers (any number of players, any tile set) and every value of every "
                "option, from spec/model/legality.py's draw, pass and end-chain. They assume how "
                "each action changes the counts (a play takes a tile from a hand, a draw "
                "moves one from the boneyard to a hand, a pass or an end-chain moves none and "
                "ends the turn, passes counted on an empty boneyard, a pass one turn nearer "
                "the next play), that a chain is the mover's first turn and never draws, and "
                "that in the engine phase the engine's double is in the boneyard.",
                "- `parametric-assumptions` proves each of those assumptions on the round "
                "model (spec/model/transitions.py) with one z3 query per action: every play of "
                "every tile on every train, every draw, the pass and the end-chain "
                "(spec/proofs/assumptions.py). The facts of reachable states they need are an "
                "invariant of their own, proved to hold at every deal and to be kept by "
                "every action; the successor's counts are the state's counts plus the "
                "change at the tiles the action moves. By default it runs the shipped "
                "variants on a double-3 set with 2 players; `--full` adds every rule set on "
                "double-3 with 2 and 3 players and, as checks of their own, every shipped "
                "rule set on its own set (double-6 to double-18) at every table size it "
                "deals. It proves round 1 (the engine of the first round); in the END-2 "
                "lemmas each seat's start-of-turn test is a free Boolean, so they prove how "
                "the tests combine into the blocked test and d, and only d-mover relates a "
                "test to the legal plays.",
                "- `effects-vs-engine` checks the engine's effects against the round model's, "
                "field by field, for every legal action of sampled states: on explored small "
                "games (the model's z3 terms evaluated in the state, and the same model on "
                "plain values) and on random full-size rounds of the shipped variants and "
                "their double-15 overlays (double-9, double-12, double-15; every player "
                "count), so the model the proofs reason about is the engine's on those "
                "states. It is a sample: states it does not meet are not compared.",
                "- `termination` and `deadlock` unroll every tile of a double-3 set with 2 "
                "players (more sizes with `--full`); `small-games` explores small games with "
                "the engine, sampling deals where there are too many to explore.",
                "", "## Dead clauses", "",
                "A dead clause never fires under a rule set it applies to: its condition is "
                "never met in any reachable state. `reachability` settles every clause with a "
                "firing condition under every shipped variant: a witness (a random round or a "
                "small game where it fires) or a proof that it cannot (z3, on a small model: "
                "it fires at no deal and no action makes it fire). A dead clause fails the "
                "check unless clauses.yaml marks it `expected_dead` with the reason:", ""]
        expected: dict[str, str] = data.get("expected_dead", {})
        out += [f"- {clause_links([cid], clauses)}: {why}"
                for cid, why in expected.items()] or ["- none"]
        out.append("")
        dead: list[dict[str, str]] = data["dead"]
        if dead:
            out += ["| clause | rule set | why |", "|---|---|---|"]
            out += [f"| {clause_links([d['clause']], clauses)} | {d['ruleset']} | "
                    f"{d['detail']} |" for d in dead]
        else:
            out.append("None.")
        option_dead = data.get("option_dead_clauses", [])
        out += ["", "In the option space (a clause whose `when` no valid rule set meets): "
                + (clause_links(option_dead, clauses) if option_dead else "none") + ".",
                "", "## The uncoverable double", "",
                "A double can be left open with no tile of its number still out: nobody can "
                "ever cover it. What happens then is an option, `uncoverable_double`: under "
                "`stays-open` the duty stands and the round ends blocked "
                "([DBL-10](rules/DBL-10.md), [END-2](rules/END-2.md)); under `released` play "
                "goes on elsewhere ([DBL-9](rules/DBL-9.md)). `mtrain check` finds a short "
                "way to reach each outcome twice, by exploring sampled deals of a small game "
                "with the engine and by bounded model checking in z3, and the two lengths "
                "must agree; that none is shorter is asked only with `--full`.", "",
                "| rule set | policy | outcome reached | small game | engine | z3 | agree |",
                "|---|---|---|---|---|---|---|"]
        for u in data["uncoverable"]:
            out.append(f"| {u['ruleset']} | `{u['uncoverable_double']}` | {u['target']} | "
                       f"{u['small_game']} | {u['engine_depth']} actions | {u['z3_depth']} "
                       f"actions | {'yes' if u['agree'] else 'NO'} |")
        for u in data["uncoverable"]:
            out += ["", f"**{u['ruleset']}** ({u['small_game']}, tiles dealt in the order "
                    f"{' '.join(u['deal'])}):", ""]
            out += [f"{k}. `{a}`" for k, a in enumerate(u["trace"], 1)]
        out += ["", "## Findings, check by check", ""]
        for c in checks:
            out += [f"### {c['name']}", "", f"Status: **{c['status']}**.", ""]
            items = []
            for f in c["findings"]:
                cl = f" ({clause_links(f['clauses'], clauses)})" if f["clauses"] else ""
                items.append(f"- {f['message']}{cl}")
            if not items:
                out += ["No findings.", ""]
            elif len(items) > 12:
                out += ["<details>", f"<summary>{len(items)} findings</summary>", "",
                        *items, "", "</details>", ""]
            else:
                out += [*items, ""]
        self.files["consistency.md"] = "\n".join(out).rstrip("\n") + "\n"

    # -- the mutants -----------------------------------------------------------------------

    def mutants_page(self) -> None:
        what = "the mutants report (`mtrain mutants`)"
        data = self.snapshot("mutants", (("mtrain.conformance.mutants",),
                                         ("spec", "conformance")), mutants_data, what)
        if data is None:
            self.files["mutants.md"] = self._stale_page("The suite's own strength", what)
            return
        mutants: list[dict[str, Any]] = [
            {**m, "killed_by": sorted(m["killed_by"], key=_natural)} for m in data["mutants"]]
        clauses = list(self.cat.clauses)
        killed = [m for m in mutants if m["killed_by"]]
        out = ["# The suite's own strength: mutants", "",
               "A conformance suite is only as good as the bugs it catches. A *mutant* is the "
               "reference engine with one realistic rule bug switched on: a marker that never "
               "comes off, a double that ends the turn, hands dealt from the wrong row. Every "
               "fixture is run against every mutant; a fixture *kills* a mutant when it passes "
               "under the reference and fails (or errs) under the mutant. A mutant no fixture "
               "kills is a hole in the suite.", "",
               f"**{len(mutants)} mutants, {len(killed)} killed, "
               f"{len(mutants) - len(killed)} survived; the fewest fixtures that kill one: "
               f"{min((len(m['killed_by']) for m in mutants), default=0)}**, over "
               f"{data['runs']} fixture and rule "
               "set runs that pass under the reference. Rerun with `mtrain mutants` "
               "(`-m NAME` for one; `mtrain fuzz --mutant NAME` hunts it with random games).",
               "", "| mutant | the bug | clauses | killed by |", "|---|---|---|---|"]
        for m in mutants:
            ids = m["killed_by"]
            shown = ", ".join(f"`{i}`" for i in ids[:4])
            more = f" and {len(ids) - 4} more" if len(ids) > 4 else ""
            verdict = f"{len(ids)}: {shown}{more}" if ids else "**nothing: survived**"
            out.append(f"| `{m['name']}` | {m['description']} | "
                       f"{clause_links(m['clauses'], clauses)} | {verdict} |")
        by_fixture: dict[str, list[str]] = {}
        for m in mutants:
            for i in m["killed_by"]:
                by_fixture.setdefault(i, []).append(m["name"])
        sole = [(m["name"], m["killed_by"][0]) for m in mutants if len(m["killed_by"]) == 1]
        out += ["", "## Mutants only one fixture catches", "",
                "Remove that fixture and the bug goes unnoticed: these are the corpus's "
                "load-bearing fixtures.", ""]
        out += [f"- `{name}`: only `{fid}`" for name, fid in sole] or ["None."]
        top = sorted(by_fixture.items(), key=lambda kv: (-len(kv[1]), kv[0]))[:10]
        out += ["", "## The fixtures that catch the most", "", "| fixture | mutants killed |",
                "|---|---|"]
        out += [f"| `{fid}` | {len(names)} |" for fid, names in top]
        idle = [fx.id for fx in self.fixtures if fx.id not in by_fixture]
        out += ["", f"{len(by_fixture)} of {len(self.fixtures)} fixtures kill at least one "
                f"mutant; the other {len(idle)} guard behaviour no mutant breaks yet.", "",
                "## Every kill", ""]
        for m in mutants:
            ids = m["killed_by"]
            out += ["<details>", f"<summary><code>{m['name']}</code>: {len(ids)} "
                    f"fixture{'s' if len(ids) != 1 else ''}</summary>", "",
                    f"{m['mechanism']}.", "",
                    ", ".join(f"`{i}`" for i in ids) or "None.", "", "</details>", ""]
        if data["baseline_failures"]:
            out += ["## Not used", "", "These runs fail under the reference itself, so they "
                    "cannot judge a mutant:", ""]
            out += [f"- {x}" for x in data["baseline_failures"]]
        self.files["mutants.md"] = "\n".join(out).rstrip("\n") + "\n"


# --- the slow computations ---------------------------------------------------------------

_TIMING = re.compile(r",? \d+(?:\.\d+)? s\b")


def _untimed(text: str) -> str:
    """A message without its timings ("(9 queries, 7.32 s)" -> "(9 queries)")."""
    return _TIMING.sub("", text)


NOT_INPUTS = frozenset({"mtrain.cli", "mtrain.docgen", "mtrain.docs_reports",
                        "mtrain.conformance.render"})
"""Modules that never change a computed result: the command line (imported for its
InputError), the pages (mtrain.docgen, this module) and the pictures."""

NOT_DATA_INPUTS = frozenset({"spec/data/rulebooks.yaml", "spec/schemas/rulebooks.schema.json",
                             "conformance/shipped/situations.json",
                             "conformance/shipped/identify-pieces.json",
                             "conformance/shipped/lint-scopes.json"})
"""Data files that no computed result reads: the surveyed rule books feed only their page
(docs/rule-books.md), so editing them does not send `mtrain docs` into z3 and the mutants;
the shipped situations' index (conformance/shipped.py), identify's shipped pieces'
(conformance/identify/shipped_pieces.py) and the lint's shipped scope checks'
(conformance/lint/shipped_scopes.py) are what the code and data already digested make,
so making them again does not either (the pieces' index, made after the docs, made them
read stale in a clean clone)."""


def import_closure(roots: Iterable[str]) -> list[Path]:
    """The source files of the mtrain modules `roots` import, directly or not (read from
    their source, function-level imports included), with their packages' __init__."""
    import importlib.util

    seen: dict[str, Path] = {}
    todo = list(roots)
    while todo:
        name = todo.pop()
        if name in seen or not name.startswith("mtrain") or name in NOT_INPUTS:
            continue
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            spec = None
        if spec is None or spec.origin is None or not spec.origin.endswith(".py"):
            continue
        seen[name] = Path(spec.origin)
        parent = name.rpartition(".")[0]
        if parent:
            todo.append(parent)
        package = name if spec.submodule_search_locations is not None else parent
        todo += _imports(package, Path(spec.origin).read_bytes())
    return sorted(set(seen.values()))


@functools.cache
def _imports(package: str, source: bytes) -> tuple[str, ...]:
    """The modules a source imports (and the names it imports from them, which may be
    modules), relative imports read from `package`. Kept by the source's bytes: the pages
    take two closures that share most files."""
    import ast

    out: list[str] = []
    for node in _statements(ast.parse(source).body):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")
                up = up[:len(up) - node.level + 1]
                base = ".".join([*up, base]) if base else ".".join(up)
            out.append(base)
            out += [f"{base}.{a.name}" for a in node.names]
    return tuple(out)


def _statements(body: list[Any]) -> Iterator[Any]:
    """Every statement of `body` and of the blocks nested in it (functions, classes,
    branches, handlers, match cases): an import is a statement, so the expressions, most
    of a module's nodes, are not walked (ast.walk over them took most of a closure's
    0.3 CPU s)."""
    import ast

    todo = list(body)
    while todo:
        node = todo.pop()
        yield node
        for name in node._fields:
            value = getattr(node, name, None)
            if isinstance(value, list) and value and isinstance(
                    value[0], ast.stmt | ast.excepthandler | ast.match_case):
                todo += value


def inputs_digest(roots: Iterable[str], data: Iterable[str] = ()) -> str:
    """A digest of what a slow result depends on: the source of the modules `roots` import
    (import_closure), every data file (*.yaml, *.json) under the packages named in `data`
    (spec, conformance) but NOT_DATA_INPUTS, and the z3 version."""
    h = hashlib.sha256()
    try:
        h.update(f"z3-solver {metadata.version('z3-solver')}\n".encode())
    except metadata.PackageNotFoundError:  # pragma: no cover - z3 is a dependency
        h.update(b"z3-solver absent\n")
    top = importlib.import_module("mtrain")
    assert top.__file__ is not None
    files: list[tuple[str, Path]] = []
    for path in import_closure(roots):
        files.append((_package_relative(path), path))
    for pkg in data:
        module = importlib.import_module(f"mtrain.{pkg}")
        assert module.__file__ is not None
        root = Path(module.__file__).parent
        found = [(f"{pkg}/{p.relative_to(root).as_posix()}", p) for p in root.rglob("*")
                 if p.suffix in (".yaml", ".json") and p.is_file()]
        files += [(rel, p) for rel, p in found if rel not in NOT_DATA_INPUTS]
    for rel, path in sorted(set(files)):
        h.update(f"{rel}\n".encode())
        h.update(path.read_bytes().replace(b"\r\n", b"\n"))
    return h.hexdigest()


CLONE_FOLDERS = {"spec": "mtrain/spec", "reference": "mtrain/reference",
                 "conformance": "mtrain/conformance"}
"""Where the folders of a clone sit in the installed namespace (pyproject's package-dir)."""


def _package_relative(path: Path) -> str:
    """`.../mtrain/spec/check.py` -> `mtrain/spec/check.py`, wherever it is installed (in
    a clone's own folders, `.../spec/check.py` too)."""
    parts = path.parts
    found = [i for i, p in enumerate(parts) if p == "mtrain"]
    if found:
        return "/".join(parts[found[-1]:])
    for i in range(len(parts) - 1, -1, -1):
        if parts[i] in CLONE_FOLDERS:
            return "/".join([CLONE_FOLDERS[parts[i]], *parts[i + 1:]])
    raise ValueError(f"{path} is not a file of the mtrain namespace")


def consistency_data() -> dict[str, Any]:
    """`mtrain check` (conformance/speccheck/run.py), reduced to what does not depend on the
    machine:
    statuses and findings without timings, dead clauses, the uncoverable-double traces
    found by the engine and the depth z3 agrees on (z3's own trace may differ from run to
    run, its depth may not)."""
    from mtrain.conformance.speccheck import run as check

    result = check.run()
    summary = result.get("summary", {})
    checks = [{"name": c["name"], "status": c["status"],
               "findings": [{"message": _untimed(f["message"]), "clauses": f["clauses"]}
                            for f in c["findings"]]}
              for c in result["checks"]]
    uncoverable = [{"ruleset": u["ruleset"], "uncoverable_double": u["uncoverable_double"],
                    "target": u["target"], "small_game": u["small_game"],
                    "engine_depth": u["engine"]["depth"], "deal": u["engine"]["deal"],
                    "trace": u["engine"]["trace"], "z3_depth": u["z3"]["depth"],
                    "agree": u["agree"]}
                   for u in summary.get("uncoverable", [])]
    reach = summary.get("reachability", {})
    options = summary.get("options", {})
    return {"z3_version": result.get("z3_version", "?"), "checks": checks,
            "dead": [{k: d[k] for k in ("clause", "ruleset", "detail")}
                     for d in reach.get("dead", [])],
            "option_dead_clauses": list(options.get("dead_clauses", [])),
            "expected_dead": dict(options.get("expected_dead", {})),
            "uncoverable": uncoverable}


def mutants_data() -> dict[str, Any]:
    """`mtrain mutants` over the corpus: every mutant and the fixtures that kill it."""
    from mtrain.conformance.mutants import run_mutants

    fixtures, _ = load_corpus()
    report = run_mutants(fixtures, jobs=os.cpu_count() or 1).to_json()
    return {"mutants": [{k: m[k] for k in ("name", "description", "clauses", "mechanism",
                                           "killed_by")}
                        for m in report["mutants"]["details"]],
            "runs": report["runs"], "baseline_failures": report["baseline_failures"]}
