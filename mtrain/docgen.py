"""`mtrain docs`: the documentation generated from spec/ and conformance/.

Every generated page is rebuilt from the data each time, so it cannot drift from what
is checked; `mtrain docs --check` fails when docs/ differs from what would be written.
Hand-written pages (the fixture format, the protocol, the implementer's guide) live in
docs/ beside them and are left alone; the generated ones are listed in GENERATED.

Two pages rest on slow computations: the consistency report (`mtrain check`, about a
minute) and the mutants page (the corpus against every mutant, half a minute). Their
results are kept in docs/data/*.json, each with a digest of the files it was computed
from (the spec/, reference/ and, for the mutants, conformance/ packages). `mtrain docs`
reuses a result whose digest still matches and recomputes it otherwise; `mtrain docs
--check` never recomputes: a result whose inputs changed is reported stale at once. The
results keep nothing that depends on the machine: timings are dropped.
"""

from __future__ import annotations

import hashlib
import importlib
import itertools
import json
import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

from mtrain import __version__
from mtrain.conformance.adapter import ReferenceImplementation
from mtrain.conformance.fixture import Expectation, Fixture, action_json, load_corpus
from mtrain.conformance.protocol import PROTOCOL_VERSION
from mtrain.render import Highlight, fixture_state, highlight_from_actions, render_state
from mtrain.spec import facts as F
from mtrain.spec.catalog import Catalog, Clause, catalog, max_pip_of
from mtrain.spec.ruleset import Ruleset
from mtrain.spec.tilesets import highest

PICTURES_PER_CLAUSE = 2
TOUR_EXAMPLE = ("doubles-054", "pagat")
SNAPSHOTS = "data"
SEED_QUESTIONS = (
    ("How many tiles each?", "hand_sizes"),
    ("May the first turn lay a whole train?", "first_turn"),
    ("Who must cover an open double, and what does it block?", "follow_up"),
    ("Are blanks penalised?", "blank_values"),
)


@dataclass(frozen=True)
class Scene:
    """A fixture drawn under one rule set: the state its expectations speak about."""

    fixture: Fixture
    variant: str
    expectation: Expectation
    state: dict[str, Any]
    legal: list[dict[str, Any]] | None


def _natural(text: str) -> tuple[Any, ...]:
    """A sort key that puts doubles-9 before doubles-10."""
    return tuple(int(p) if p.isdigit() else p for p in re.split(r"(\d+)", text))


def _slug(text: str) -> str:
    return text.lower().replace("+", "-plus-")


class Docs:
    """Builds every generated page in memory: {relative path: text}.

    `out` is the docs folder, where the stored results of the slow computations are
    looked for; `compute` says whether a missing or outdated one is recomputed (`mtrain
    docs`) or reported stale (`mtrain docs --check`). `log` hears about slow steps.
    """

    def __init__(self, out: Path | None = None, compute: bool = True,
                 log: Callable[[str], None] | None = None) -> None:
        self.cat: Catalog = catalog()
        self.fixtures, errors = load_corpus()
        if errors:
            raise ValueError("the fixture corpus does not load:\n"
                             + "\n".join(str(e) for e in errors))
        self.reference = ReferenceImplementation()
        self.files: dict[str, str] = {}
        self.shipped = {name: self.cat.ruleset(name) for name in self.cat.variants}
        self._scenes: dict[tuple[str, str], Scene | None] = {}
        self.out = out
        self.compute = compute
        self.log = log or (lambda message: None)

    # -- scenes and pictures -------------------------------------------------------

    def scene(self, fx: Fixture, variant: str, exp: Expectation) -> Scene | None:
        key = (fx.id, variant)
        if key not in self._scenes:
            self._scenes[key] = self._play(fx, variant, exp)
        return self._scenes[key]

    def _play(self, fx: Fixture, variant: str, exp: Expectation) -> Scene | None:
        state = fixture_state(fx, variant, self.reference)
        if state is None:
            return None
        legal = None
        if exp.legal is not None:  # the fixture's own expected set, not the engine's
            legal = [action_json(a) for a in exp.legal]
        return Scene(fx, variant, exp, state, legal)

    def picture(self, scene: Scene) -> str:
        """Writes the SVG of a scene and returns its path relative to docs/."""
        path = f"img/{scene.fixture.id}--{_slug(scene.variant)}.svg"
        if path not in self.files:
            hl: Highlight | None = None
            if scene.legal is not None:
                hl = highlight_from_actions(scene.legal)
            title = f"{scene.fixture.id} under {scene.variant}"
            self.files[path] = render_state(scene.state, hl, title)
        return path

    # -- pages ---------------------------------------------------------------------

    def build(self) -> dict[str, str]:
        pages: list[Callable[[], None]] = [
            self.tour, self.rulebook, self.matrix, self.differences, self.facts_page,
            self.consistency, self.mutants_page, self.versioning]
        for page in pages:
            page()
        return dict(sorted(self.files.items()))

    def tour(self) -> None:
        n_fx = len(self.fixtures)
        lines = [
            "# mtrain: a tour",
            "",
            "Mexican Train has no governing body, and its written rule sets disagree on hand",
            "sizes, the first turn, who covers a double, markers and scoring. This project writes",
            "the rules down precisely, as data, and makes them checkable:",
            "",
            f"- **The specification** (`spec/`): {len(self.cat.clauses)} clauses with stable ids,",
            f"  {len(self.cat.options)} options on which rule sets differ, "
            f"{len(self.cat.variants)} variants and {len(self.cat.overlays)} overlays.",
            "- **The reference engine** (`reference/`): plays any rule set exactly; every refusal",
            "  names the clause it enforces.",
            f"- **The conformance suite** (`conformance/`): {n_fx} fixtures, each a situation at",
            "  the table with what the rules expect under each rule set, and a harness that runs",
            "  them against any implementation through a JSON protocol; beside them, tables",
            "  reached by random rounds of whatever rule set is tested, their legal actions",
            "  computed by the formalisation of the clauses (`conformance/situations.py`).",
            "",
            "It is for authors of Mexican Train apps and bots who want to validate their engine,",
            "for players and rule writers who want to see exactly where two rule sets part, and",
            "for anyone changing a rule who needs to see what changes.",
            "",
            "## Two commands",
            "",
            "```sh",
            "pip install . && mtrain conform          # the suite against the reference engine",
            "pip install -e '.[test]' && ruff check . && mypy && pytest -n auto  # the tests",
            "```",
            "",
            "## Where things are",
            "",
            "| page | what it holds |",
            "|---|---|",
            "| [The rule book](rules/README.md) | every clause: its text, sources, options, "
            "and the fixtures that show it, drawn |",
            "| [The variant matrix](variants.md) | options down, variants across, and the "
            "four questions to settle before you sit down |",
            "| [Differences](differences/README.md) | every situation where two shipped "
            "variants part, drawn for both |",
            "| [Facts](facts.md) | the numbers of the game, computed exactly |",
            "| [Consistency](consistency.md) | `mtrain check`: the option space, dead "
            "clauses, the uncoverable double |",
            "| [Implementer's guide](implementers-guide.md) | validating your own engine: "
            "adapter, pytest plugin, CI, fuzzing |",
            "| [Protocol](protocol.md) | protocol v1, JSON Lines, for engines in any "
            "language |",
            "| [Fixture format](fixture-format.md) | how a situation is written down |",
            "| [The suite's strength](mutants.md) | the rule bugs the suite must catch, and "
            "which fixtures catch each |",
            "| [Versioning](versioning.md) | the suite and protocol versions; what stays "
            "stable |",
            "",
            "The pictures draw the table as a player sees it: the engine at the hub, every "
            "train a line of tiles with its owner and marker, open doubles crosswise and "
            "ringed in amber, and the legal plays in green. `mtrain render FIXTURE-ID "
            "[--variant V] [--out FILE]` draws any fixture.",
        ]
        example = self._tour_example()
        if example is not None:
            lines += ["", f"For example, `{example.fixture.id}` under {example.variant}: "
                      f"{example.fixture.description}", "",
                      f"![{example.fixture.id} under {example.variant}]"
                      f"({self.picture(example)})"]
        lines += [
            "",
            "## Checking an engine",
            "",
            "```sh",
            "mtrain conform --adapter my_engine.adapter:Engine          # a Python engine",
            'mtrain conform --impl "./my-engine --serve"                # any language',
            "mtrain conform --impl ... --format html --output report.html  # one page, "
            "with pictures",
            "mtrain conform --impl ... --format junit --output results.xml # for CI",
            "```",
            "",
            "The [implementer's guide](implementers-guide.md) walks through it.",
        ]
        self.files["README.md"] = "\n".join(lines) + "\n"

    def _tour_example(self) -> Scene | None:
        for fx in self.fixtures:
            if fx.id == TOUR_EXAMPLE[0]:
                exp = next((e for n, e in fx.rulesets() if n == TOUR_EXAMPLE[1]), None)
                if exp is not None:
                    return self.scene(fx, TOUR_EXAMPLE[1], exp)
        return None

    def _clause_fixtures(self, clause: Clause) -> list[Fixture]:
        return [fx for fx in self.fixtures if clause.id in fx.clauses]

    def rulebook(self) -> None:
        index = ["# The rule book", "",
                 "Every rule as a numbered clause. Ids are stable: never renumbered, never reused.",
                 "The sources column says where each comes from (the labels are defined "
                 "[below](#where-each-rule-comes-from)).", "",
                 "| clause | title | sources | applies under | fixtures |",
                 "|---|---|---|---|---|"]
        for clause in self.cat.clauses.values():
            fixtures = self._clause_fixtures(clause)
            where = ", ".join(n for n, rs in self.shipped.items() if clause.applies(rs))
            index.append(f"| [{clause.id}]({clause.id}.md) | {clause.title} | "
                         f"{', '.join(clause.sources)} | {where or 'overlays only'} | "
                         f"{len(fixtures)} |")
            self.files[f"rules/{clause.id}.md"] = self.clause_page(clause, fixtures)
        index += ["", "## Where each rule comes from", "",
                  "Every clause, option value, variant and overlay names its origin with these "
                  "labels (spec/data/sources.yaml). A `decision` gives its reason and a "
                  "`common` house rule says which it is and where it is reported.", "",
                  "| label | kind | meaning |", "|---|---|---|"]
        index += [f"| `{lb.name}` | {lb.kind} | {lb.text} |" for lb in self.cat.sources.values()]
        index += ["", "## Option values", "",
                  "| option | value | sources | reason or origin |", "|---|---|---|---|"]
        for option in self.cat.options.values():
            for value in option.values.values():
                why = " ".join(" ".join(x.split()) for x in (value.decision, value.origin) if x)
                index.append(f"| `{option.name}` | `{value.name}` | "
                             f"{', '.join(value.source)} | {why} |")
        index += ["", "## Set aside", "",
                  "Rules a source gives that no rule set here encodes "
                  "(spec/data/set-aside.yaml).", ""]
        for aside in self.cat.set_aside:
            index += [f"### {aside.id}: {aside.title}", "", " ".join(aside.text.split()), "",
                      f"- Sources: {', '.join(aside.sources)}"]
            if aside.origin:
                index.append(f"- Where from: {' '.join(aside.origin.split())}")
            index += [f"- What it would change: {' '.join(aside.changes.split())}",
                      f"- Why it is set aside: {' '.join(aside.reason.split())}", ""]
        self.files["rules/README.md"] = "\n".join(index).rstrip() + "\n"

    def clause_page(self, clause: Clause, fixtures: list[Fixture]) -> str:
        out = [f"# {clause.id}: {clause.title}", "", clause.text, "",
               f"- Sources: {', '.join(clause.sources)} "
               "([labels](README.md#where-each-rule-comes-from))"]
        if clause.decision:
            out.append(f"- Decision of this specification: {clause.decision}")
        if clause.origin:
            out.append(f"- Where from: {' '.join(clause.origin.split())}")
        if clause.when:
            conds = "; ".join(f"`{o}` is {' or '.join(f'`{v}`' for v in sorted(vs))}"
                              for o, vs in clause.when.items())
            out.append(f"- Applies when {conds}")
        else:
            out.append("- Applies under every rule set")
        if clause.requires:
            req = "; ".join(f"`{o}` is {' or '.join(sorted(vs))}"
                            for o, vs in clause.requires.items())
            out.append(f"- Requires {req}")
        shipped = [n for n, rs in self.shipped.items() if clause.applies(rs)]
        out.append(f"- Shipped variants: {', '.join(shipped) or 'none (overlays only)'}")
        options = sorted(set(clause.when) | set(clause.requires))
        out.append("- Options it depends on: "
                   + (", ".join(f"[`{o}`](../variants.md)" for o in options) or "none"))
        scenes = [sc for sc in (self._clause_scene(clause, fx) for fx in fixtures)
                  if sc is not None]
        out += ["", f"## Fixtures ({len(fixtures)})", "",
                "Each fixture is a situation at the table and what the rules expect; each is "
                "drawn below under a rule set this clause applies to, its legal plays marked "
                "in green.", ""]
        for fx in fixtures:
            where = f"{fx.path}:{fx.line}" if fx.line else fx.path
            out.append(f"- `{fx.id}` (`{where}`): {fx.description}")
            if len(fx.expect) > 1 or fx.expect[0].scope.products:
                out += [f"  - entry {k}: holds where {e.scope.text(self.cat)}"
                        for k, e in enumerate(fx.expect, 1)]
        for k, sc in enumerate(scenes):
            if k == PICTURES_PER_CLAUSE:
                rest = len(scenes) - k
                out += ["", "<details>", f"<summary>{rest} more fixture"
                        f"{'s' if rest != 1 else ''}, drawn</summary>"]
            fx, name = sc.fixture, sc.variant
            out += ["", f"### {fx.id} under {name}", "", fx.description, "",
                    f"![{fx.id} under {name}](../{self.picture(sc)})", "",
                    *self.expectation_lines(sc.expectation)]
        if len(scenes) > PICTURES_PER_CLAUSE:
            out += ["", "</details>"]
        return "\n".join(out) + "\n"

    def _clause_scene(self, clause: Clause, fx: Fixture) -> Scene | None:
        """The fixture under the first of its rule sets the clause applies to (or, if it
        applies to none of them, the first that sets up)."""
        entries = list(fx.rulesets())
        applying = [(n, e) for n, e in entries if clause.applies(self.cat.ruleset(n))]
        for name, _ in applying:  # a picture already drawn serves again
            drawn = self._scenes.get((fx.id, name))
            if drawn is not None:
                return drawn
        for name, exp in applying + entries:
            sc = self.scene(fx, name, exp)
            if sc is not None:
                return sc
        return None

    def expectation_lines(self, exp: Expectation) -> list[str]:
        out = [f"Holds where: {exp.scope.text(self.cat)}"]
        if exp.legal is not None:
            out.append("Legal: " + (", ".join(f"`{a}`" for a in sorted(exp.legal)) or "none"))
        for action, clauses in exp.refused.items():
            out.append(f"Refused: `{action}` ({' or '.join(clauses)})")
        if exp.state:
            out.append("State: " + ", ".join(f"{k} = {v}" for k, v in exp.state.items()))
        if exp.result is not ...:
            out.append(f"Result: {exp.result if exp.result is not None else 'the round goes on'}")
        if exp.winners is not None:
            out.append(f"Winners: {list(exp.winners)}")
        if exp.match_over is not None:
            out.append("The match is over" if exp.match_over else "The match goes on")
        if exp.refused_setup is not None:
            out.append(f"The setup is refused ({' or '.join(exp.refused_setup)})")
        return [f"- {line}" for line in out]

    def matrix(self) -> None:
        names = list(self.shipped)
        out = ["# The variant matrix", "", "## Before you sit down", "",
               "The four questions that settle most disputes at the table, answered for each "
               "shipped variant.", "",
               "| question | " + " | ".join(names) + " |",
               "|---|" + "---|" * len(names)]
        for question, name in SEED_QUESTIONS:
            cells = [self.answer(name, rs) for rs in self.shipped.values()]
            out.append(f"| {question} | " + " | ".join(cells) + " |")
        out += ["", "## Every option", "",
                "| option | " + " | ".join(names) + " |", "|---|" + "---|" * len(names)]
        for option in self.cat.options.values():
            cells = []
            for rs in self.shipped.values():
                value = rs[option.name]
                links = " ".join(f"[{c.id}](rules/{c.id}.md)"
                                 for c in self.cat.clauses_for(option.name, value))
                cells.append(f"`{value}` {links}".strip())
            out.append(f"| {option.title} (`{option.name}`) | " + " | ".join(cells) + " |")
        out += ["", "## Which expectations hold for which values", "",
                "Every fixture entry holds under the rule sets its scope names (`variants` "
                "and `when`, checked by `mtrain lint` over the whole option space). Per "
                "option value: the entries that hold under some rule set with this value, and "
                "how many of them say which values of the option they need.", "",
                "| option | value | entries that hold under it | of which name the option |",
                "|---|---|---|---|"]
        entries = [e for fx in self.fixtures for e in fx.expect]
        for option in self.cat.options.values():
            o = option.name
            for value in option.values:
                holds = [e for e in entries if any(
                    value in dict(p.allowed).get(o, (value,)) for p in e.scope.products)]
                named = [e for e in holds if all(o in dict(p.allowed)
                                                 for p in e.scope.products)]
                out.append(f"| `{o}` | `{value}` | {len(holds)} | {len(named)} |")
        out += ["", "## Overlays", "", "| overlay | sets | applies to |", "|---|---|---|"]
        for name, ov in self.cat.overlays.items():
            sets = ", ".join(f"`{k}` = `{v}`" for k, v in ov.options.items())
            applies = ", ".join(ov.applies_to) if ov.applies_to else "any variant"
            out.append(f"| `{name}`: {ov.title} | {sets} | {applies} |")
        self.files["variants.md"] = "\n".join(out) + "\n"

    def answer(self, option: str, rs: Ruleset) -> str:
        text = self.cat.options[option].values[rs[option]].text
        if option == "hand_sizes":
            return ", ".join(f"{n} players: {h}" for n, h in rs.hand_table)
        if option == "follow_up":
            release = self.cat.options["uncoverable_double"].values[rs["uncoverable_double"]]
            return (f"The tile after a double: {text[0].lower()}{text[1:]} From the next turn "
                    "on, the player to move must cover it, and every other train is closed to "
                    f"them until someone does ([DBL-6](rules/DBL-6.md)). If no tile left can "
                    f"cover it: {release.text[0].lower()}{release.text[1:]}")
        return text

    def differences(self) -> None:
        index = ["# Where the shipped variants part", "",
                 "One page per pair of shipped variants: every fixture whose expectations differ "
                 "between the two, drawn for both sides.", ""]
        for a, b in itertools.combinations(self.shipped, 2):
            page = f"{a}-vs-{b}.md"
            found = self.parting(a, b)
            index.append(f"- [{a} vs {b}]({page}): {len(found)} situations")
            self.files[f"differences/{page}"] = self.pair_page(a, b, found)
        self.files["differences/README.md"] = "\n".join(index) + "\n"

    def parting(self, a: str, b: str) -> list[tuple[Fixture, Expectation, Expectation]]:
        """The fixtures with one entry holding under `a` and another under `b` (by scope)."""
        out = []
        va, vb = dict(self.shipped[a].choices), dict(self.shipped[b].choices)
        for fx in self.fixtures:
            ea = next((e for e in fx.expect if e.scope.contains(va)), None)
            eb = next((e for e in fx.expect if e.scope.contains(vb)), None)
            if ea is not None and eb is not None and ea is not eb:
                out.append((fx, ea, eb))
        return out

    def pair_page(self, a: str, b: str,
                  found: Iterable[tuple[Fixture, Expectation, Expectation]]) -> str:
        ra, rb = self.shipped[a], self.shipped[b]
        differ = [o for o in self.cat.options if ra[o] != rb[o]]
        out = [f"# {a} vs {b}", "", "## Options that differ", "",
               f"| option | {a} | {b} |", "|---|---|---|"]
        out += [f"| `{o}` | `{ra[o]}` | `{rb[o]}` |" for o in differ]
        found = list(found)
        out += ["", f"## Situations where they part ({len(found)})", "",
                "Each situation is one fixture whose expectations differ between the two: "
                "first what differs, then the table under each, its legal plays marked in "
                "green.", ""]
        clauses = list(self.cat.clauses)
        for fx, ea, eb in found:
            where = f"{fx.path}:{fx.line}" if fx.line else fx.path
            out += [f"### {fx.id}: {fx.description}", "",
                    f"Clauses: {self._clause_links(fx.clauses, clauses, '../')}. "
                    f"Fixture: `{where}`.", ""]
            parting = self._parting(a, ea, b, eb)
            if parting:
                out += ["**Where they part:**", "", *parting, ""]
            for name, exp in ((a, ea), (b, eb)):
                sc = self.scene(fx, name, exp)
                out.append(f"**Under {name}**")
                out.append("")
                if sc is not None:
                    out += [f"![{fx.id} under {name}](../{self.picture(sc)})", ""]
                out += [*self.expectation_lines(exp), ""]
        return "\n".join(out) + "\n"

    def _parting(self, a: str, ea: Expectation, b: str, eb: Expectation) -> list[str]:
        """What the two expectations say differently, one line each."""
        out = []
        only_a, only_b = self._legal_split(ea, eb)
        if only_a or only_b:
            out.append(f"- Legal only under {a}: {', '.join(only_a) or 'none'}; "
                       f"only under {b}: {', '.join(only_b) or 'none'}.")
        for action in sorted(set(ea.refused) | set(eb.refused)):
            ca, cb = ea.refused.get(action), eb.refused.get(action)
            if ca != cb:
                said = []
                for n, c, e in ((a, ca, ea), (b, cb, eb)):
                    if c:
                        said.append(f"{n} refuses it ({' or '.join(c)})")
                    elif e.legal is not None and action in e.legal:
                        said.append(f"legal under {n}")
                    else:
                        said.append(f"{n}'s expectations do not say")
                out.append(f"- `{action}`: {'; '.join(said)}.")
        for key in sorted(set(ea.state) | set(eb.state), key=str):
            va, vb = ea.state.get(key, ...), eb.state.get(key, ...)
            if va != vb:
                shown = [f"{v!s}" if v is not ... else "not checked" for v in (va, vb)]
                out.append(f"- `{key}`: {shown[0]} under {a}; {shown[1]} under {b}.")
        if ea.result != eb.result:
            out.append(f"- Result: {self._result_text(ea.result)} under {a}; "
                       f"{self._result_text(eb.result)} under {b}.")
        if ea.winners != eb.winners:
            out.append(f"- Winners: {list(ea.winners) if ea.winners is not None else '-'} "
                       f"under {a}; {list(eb.winners) if eb.winners is not None else '-'} "
                       f"under {b}.")
        if ea.refused_setup != eb.refused_setup:
            said = [f"refused ({' or '.join(e.refused_setup)}) under {n}" if e.refused_setup
                    else f"allowed under {n}" for n, e in ((a, ea), (b, eb))]
            out.append(f"- The setup: {'; '.join(said)}.")
        return out

    @staticmethod
    def _result_text(result: Any) -> str:
        if result is ...:
            return "not checked"
        return "the round goes on" if result is None else str(result)

    @staticmethod
    def _legal_split(ea: Expectation, eb: Expectation) -> tuple[list[str], list[str]]:
        if ea.legal is None or eb.legal is None:
            return [], []
        sa, sb = set(ea.legal), set(eb.legal)
        return sorted(f"`{x}`" for x in sa - sb), sorted(f"`{x}`" for x in sb - sa)

    def facts_page(self) -> None:
        out = ["# Facts", "", "The numbers of the game, each computed exactly from the tile set "
               "(no simulation) and checked against the published figure.", "",
               "| fact | | published | computed | agrees |", "|---|---|---|---|---|"]
        texts = {f.id: f.text for f in F.load_facts()}
        for fid, expected, computed, ok in F.check_facts():
            value = float(computed) if not isinstance(computed, int) else computed
            shown = f"{value:.4g}" if isinstance(value, float) else str(value)
            out.append(f"| `{fid}` | {texts.get(fid, '')} | {expected} | {shown} | "
                       f"{'yes' if ok else 'NO'} |")
        out += ["", "## No starting tile in the hand", "",
                "The chance that a hand dealt from the pool (engine set aside) holds no tile "
                "bearing the engine's number: C(pool - starters, k) / C(pool, k).", ""]
        out += self._no_starter(highest("double-12"), [8, 10, 12, 15, 16], "The seed's table")
        for name, rs in self.shipped.items():
            sizes = sorted({h for _, h in rs.hand_table})
            out += self._no_starter(max_pip_of(rs), sizes, f"Every hand size {name} deals")
        tables = {v.name: v.table for v in catalog().options["hand_sizes"].values.values()}
        d15 = tables["ourpastimes-d15"]
        out += self._no_starter(highest("double-15"), sorted({h for _, h in d15}),
                                "Every hand size the double-15 table (DEAL-9) deals")
        out += ["## Every tile set", "",
                "Counted tile by tile for each `tile_set` value (spec/data/options.yaml gives "
                "only its highest number). The pool and the starters are those of a round "
                "with the engine set aside (ENG-2); the starters are the same in every round.",
                "", *set_facts_table(catalog().options["tile_set"].values)]
        self.files["facts.md"] = "\n".join(out) + "\n"

    @staticmethod
    def _no_starter(max_pip: int, sizes: list[int], title: str) -> list[str]:
        out = [f"### {title} (double-{max_pip})", "", "| tiles in hand | exact | percent |",
               "|---|---|---|"]
        for row in F.no_starter_table(max_pip, sizes):
            out.append(f"| {row.hand} | {row.probability} | {row.percent:.1f} % |")
        return [*out, ""]

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

    @staticmethod
    def _clause_links(ids: Iterable[str], known: Iterable[str], up: str = "") -> str:
        """Clause ids linked to their pages (`DEAL-8:pagat:4p` to DEAL-8); `up` leads from
        the page's folder to docs/."""
        have = set(known)
        out = []
        for cid in ids:
            base = cid.split(":")[0]
            out.append(f"[{cid}]({up}rules/{base}.md)" if base in have else f"`{cid}`")
        return ", ".join(out)

    # -- the consistency report ----------------------------------------------------------------

    def consistency(self) -> None:
        what = "the consistency report (`mtrain check`)"
        data = self.snapshot("consistency", (("mtrain.spec.check",), ("spec",)),
                             consistency_data, what)
        if data is None:
            self.files["consistency.md"] = self._stale_page("Consistency", what)
            return
        checks: list[dict[str, Any]] = data["checks"]
        clauses = list(self.cat.clauses)
        counts = {s: sum(c["status"] == s for c in checks) for s in ("pass", "info", "fail")}
        from mtrain.spec.checkscope import rows

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
                "actions (spec/legality.py), the clause that permits each legal action and "
                "the clause that refuses each illegal candidate (spec/decisions.py) and the "
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
                "option, from spec/legality.py's draw, pass and end-chain. They assume how "
                "each action changes the counts (a play takes a tile from a hand, a draw "
                "moves one from the boneyard to a hand, a pass or an end-chain moves none and "
                "ends the turn, passes counted on an empty boneyard, a pass one turn nearer "
                "the next play), that a chain is the mover's first turn and never draws, and "
                "that in the engine phase the engine's double is in the boneyard.",
                "- `parametric-assumptions` proves each of those assumptions on the round "
                "model (spec/roundmodel.py) as a two-state z3 query per action "
                "(spec/assumptions.py): the shipped variants on a double-3 set with 2 players "
                "by default, every rule set on double-3 with 2 and 3 players under `--full`. "
                "It does not prove them for larger sets or tables: each query unrolls every "
                "tile; on a double-4 set with 2 players the draw's query exhausts its resource "
                "limit (z3 answers unknown), with 3 players it does not finish in minutes. "
                "For the shipped sets (double-6 to double-18) the assumptions rest on the "
                "samples below, not on a proof.",
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
        out += [f"- {self._clause_links([cid], clauses)}: {why}"
                for cid, why in expected.items()] or ["- none"]
        out.append("")
        dead: list[dict[str, str]] = data["dead"]
        if dead:
            out += ["| clause | rule set | why |", "|---|---|---|"]
            out += [f"| {self._clause_links([d['clause']], clauses)} | {d['ruleset']} | "
                    f"{d['detail']} |" for d in dead]
        else:
            out.append("None.")
        option_dead = data.get("option_dead_clauses", [])
        out += ["", "In the option space (a clause whose `when` no valid rule set meets): "
                + (self._clause_links(option_dead, clauses) if option_dead else "none") + ".",
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
                cl = f" ({self._clause_links(f['clauses'], clauses)})" if f["clauses"] else ""
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
                       f"{self._clause_links(m['clauses'], clauses)} | {verdict} |")
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

    def versioning(self) -> None:
        self.files["versioning.md"] = "\n".join([
            "# Versioning", "",
            f"This is mtrain {__version__}: suite version {__version__} "
            f"({len(self.fixtures)} fixtures over {len(self.cat.clauses)} clauses), "
            f"protocol version {PROTOCOL_VERSION}. `mtrain --version` prints the first; "
            "the protocol version is exchanged in every `hello` "
            "([protocol](protocol.md)).", "",
            "## The promise", "",
            "- **Clause ids** (`DBL-6`) are stable: a clause is never renumbered, and the id of a "
            "retired clause is never given to another.",
            "- **Fixture ids** (`doubles-007`) are stable in the same way; a fixture whose "
            "expectations change keeps its id and says why in its note.",
            "- **Option and value names** are stable; a new value may be added to an option.",
            "- **The protocol** carries its own version (`protocol: 1`); an incompatible change "
            "gets a new number, and `mtrain conform` refuses a mismatch with a clear message. "
            "An addition that leaves every earlier exchange valid, with the same meaning, "
            "keeps the number and is listed under [changes within version 1]"
            "(protocol.md#changes-within-version-1): since 0.1.0 the `refused-setup` error, "
            "the empty `winners` answer while the match goes on, and the next round as a "
            "`deal`.",
            "- **The suite version** follows semantic versioning: a new fixture or clause is a "
            "minor release, a changed expectation a major one.",
        ]) + "\n"


def set_facts_table(tile_sets: Iterable[str], aside: bool = True) -> list[str]:
    """A Markdown table of the computed facts of each tile set (spec.facts.set_facts)."""
    out = ["| set | numbers | tiles | pips | pips per tile | tiles per number | rounds | "
           "pool | starters |", "|---|---|---|---|---|---|---|---|---|"]
    for name in tile_sets:
        f = F.set_facts(highest(name), aside)
        out.append(f"| `{name}` | 0-{f.max_pip} | {f.tiles} | {f.pips:,} | {f.mean_pips} | "
                   f"{f.tiles_per_number} | {f.rounds} | {f.pool} | {f.starters} |")
    return [*out, ""]


def ruleset_page(rs: Ruleset, fixtures: Iterable[Fixture]) -> str:
    """One rule set as a page of the rule book: its options, the clauses that apply, and
    the fixtures that speak about it (`mtrain rules NAME|FILE`)."""
    cat = catalog()
    values = dict(rs.choices)
    closest = cat.describe(values).split(",")[0]
    base = dict(cat.ruleset(closest).choices)
    out = [f"# The rule set {rs.name}", "",
           f"Closest shipped variant: `{closest}`; it differs in "
           + (", ".join(f"`{o}`" for o in cat.options if values[o] != base[o]) or "nothing")
           + ".", "", "## Options", "", "| option | value | what it means | source |",
           "|---|---|---|---|"]
    for name, option in cat.options.items():
        v = values[name]
        known = option.values.get(v)
        if name == "hand_sizes":
            text = ", ".join(f"{n} players: {h}" for n, h in rs.hand_table)
        else:
            text = known.text if known else "played in a way no known value describes"
        source = ", ".join(known.source) if known else "its own"
        mark = " **(differs)**" if v != base[name] else ""
        out.append(f"| {option.title} (`{name}`) | `{v}`{mark} | {text} | {source} |")
    aside = values["engine_procedure"] == "set-aside"
    top = max_pip_of(values)
    out += ["", "## Facts of its tile set", "",
            "Computed exactly from the set and the hand-size table (spec/facts.py); pool and "
            "starters are those of round 1"
            + (", with the engine set aside." if aside else ", every tile dealt."), "",
            *set_facts_table([values["tile_set"]], aside),
            "| players | tiles each | left in the boneyard | chance of no starter |",
            "|---|---|---|---|"]
    pool = F.pool_size(top, aside=aside)
    for n, h in rs.hand_table:
        if n * h > pool:
            continue  # DEAL-8 refuses such a table when it is loaded
        p = F.no_starter_probability(top, h, aside=aside)
        out.append(f"| {n} | {h} | {pool - n * h} | {p} ({float(100 * p):.1f} %) |")
    applying = [c for c in cat.clauses.values() if c.applies(values)]
    out += ["", f"## The clauses that apply ({len(applying)})", ""]
    out += [f"- [{c.id}](rules/{c.id}.md) {c.title}" for c in applying]
    fixtures = list(fixtures)
    speak = [fx for fx in fixtures if any(e.scope.contains(values) for e in fx.expect)]
    out += ["", f"## Fixtures that speak about it ({len(speak)} of {len(fixtures)})", "",
            "Run them with `mtrain conform --rules FILE` (rule sets with a table or a rule of "
            "their own also run every fixture that does not depend on it).", ""]
    by_topic: dict[str, int] = {}
    for fx in speak:
        topic = fx.id.rpartition("-")[0] or fx.id
        by_topic[topic] = by_topic.get(topic, 0) + 1
    out += [f"- {topic}: {n}" for topic, n in sorted(by_topic.items())]
    return "\n".join(out) + "\n"


def generate(out: Path | None = None, compute: bool = True,
             log: Callable[[str], None] | None = None) -> dict[str, str]:
    """Every generated file, {path relative to docs/: text}; see Docs for the arguments."""
    return Docs(out, compute, log).build()


# --- the slow computations ---------------------------------------------------------------

_TIMING = re.compile(r",? \d+(?:\.\d+)? s\b")


def _untimed(text: str) -> str:
    """A message without its timings ("(9 queries, 7.32 s)" -> "(9 queries)")."""
    return _TIMING.sub("", text)


NOT_INPUTS = frozenset({"mtrain.cli", "mtrain.docgen", "mtrain.render"})
"""Modules that never change a computed result: the command line (imported for its
UsageError), the pages and the pictures."""


def import_closure(roots: Iterable[str]) -> list[Path]:
    """The source files of the mtrain modules `roots` import, directly or not (read from
    their source, function-level imports included), with their packages' __init__."""
    import ast
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
        tree = ast.parse(Path(spec.origin).read_bytes())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                todo += [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")
                    up = up[:len(up) - node.level + 1]
                    base = ".".join([*up, base]) if base else ".".join(up)
                todo.append(base)
                todo += [f"{base}.{a.name}" for a in node.names]
    return sorted(set(seen.values()))


def inputs_digest(roots: Iterable[str], data: Iterable[str] = ()) -> str:
    """A digest of what a slow result depends on: the source of the modules `roots` import
    (import_closure), every data file (*.yaml, *.json) under the packages named in `data`
    (spec, conformance), and the z3 version."""
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
        files += [(f"{pkg}/{p.relative_to(root).as_posix()}", p) for p in root.rglob("*")
                  if p.suffix in (".yaml", ".json") and p.is_file()]
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
    """`mtrain check` (spec/check.py), reduced to what does not depend on the machine:
    statuses and findings without timings, dead clauses, the uncoverable-double traces
    found by the engine and the depth z3 agrees on (z3's own trace may differ from run to
    run, its depth may not)."""
    from mtrain.spec import check

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


def stale(out: Path, files: dict[str, str]) -> list[str]:
    """Generated files that are missing, differ, or should no longer exist."""
    bad = [p for p, text in files.items()
           if not (out / p).exists() or (out / p).read_text(encoding="utf-8") != text]
    manifest = out / "GENERATED"
    if manifest.exists():
        listed = manifest.read_text(encoding="utf-8").split()
        bad += [p for p in listed if p not in files]
    want = "\n".join(files) + "\n"
    if not manifest.exists() or manifest.read_text(encoding="utf-8") != want:
        bad.append("GENERATED")
    return sorted(set(bad))


def write(out: Path, files: dict[str, str]) -> int:
    manifest = out / "GENERATED"
    if manifest.exists():
        for old in manifest.read_text(encoding="utf-8").split():
            if old not in files and (out / old).exists():
                (out / old).unlink()
    for rel, text in files.items():
        path = out / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
    manifest.write_text("\n".join(files) + "\n", encoding="utf-8")
    return len(files)
