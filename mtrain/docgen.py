"""`mtrain docs`: the documentation generated from spec/ and conformance/.

Every generated page is rebuilt from the data each time, so it cannot drift from what
is checked; `mtrain docs --check` fails when docs/ differs from what would be written.
Hand-written pages (the fixture format, the protocol, the implementer's guide) live in
docs/ beside them and are left alone; the generated ones are listed in GENERATED.

This module holds Docs, which builds every page in memory (the tour, the rule book, the
variant matrix, the differences, the facts, versioning; the two pages that rest on slow
computations come from mtrain.docs_reports, the rule books' page from
mtrain.docs_rulebooks), and `generate`, `stale` and `write`, which build the pages,
compare them with a docs folder and write them there. The rule-set page of `mtrain rules`
is mtrain.ruleset_page's.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from mtrain import __version__
from mtrain.conformance.adapter import ReferenceImplementation
from mtrain.conformance.fixture import Expectation, Fixture, load_corpus
from mtrain.conformance.outputs import write_file
from mtrain.conformance.protocol import PROTOCOL_VERSION
from mtrain.conformance.render import Highlight, fixture_state, highlight_from_actions, render_state
from mtrain.docs_reports import ReportPages, clause_links
from mtrain.docs_rulebooks import rulebooks_page
from mtrain.ruleset_page import set_facts_table
from mtrain.spec import facts as F
from mtrain.spec.catalog import Catalog, catalog, max_pip_of
from mtrain.spec.catalog_entries import Clause
from mtrain.spec.notation import action_json
from mtrain.spec.rulebooks import load_rulebooks
from mtrain.spec.ruleset import Ruleset
from mtrain.spec.tilesets import highest

PICTURES_PER_CLAUSE = 2
TOUR_EXAMPLE = ("doubles-054", "pagat")
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


def _slug(text: str) -> str:
    return text.lower().replace("+", "-plus-")


class Docs(ReportPages):
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

    def build(self, clauses: Collection[str] | None = None) -> dict[str, str]:
        """Every page; of the clause pages only those of `clauses`, when given (the
        fast test loop checks a few: they are most of the cost, in their pictures)."""
        pages: list[Callable[[], None]] = [
            self.tour, functools.partial(self.rulebook, clauses), self.matrix,
            self.differences, self.facts_page, self.consistency, self.mutants_page,
            self.versioning, self.rule_books, self.refusals]
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
            "| [Rule books](rule-books.md) | every published rule text and engine surveyed, "
            "against every option |",
            "| [Consistency](consistency.md) | `mtrain check`: the option space, dead "
            "clauses, the uncoverable double |",
            "| [Implementer's guide](implementers-guide.md) | validating your own engine: "
            "adapter, pytest plugin, CI, fuzzing |",
            "| [Protocol](protocol.md) | protocol v1, JSON Lines, for engines in any "
            "language |",
            "| [Refusals](refusals.md) | for each action kind, the clauses that can refuse "
            "it, in the order the reference cites them, and those that allow it |",
            "| [Fixture format](fixture-format.md) | how a situation is written down |",
            "| [The suite's strength](mutants.md) | the rule bugs the suite must catch, and "
            "which fixtures catch each |",
            "| [Versioning](versioning.md) | the suite and protocol versions; what stays "
            "stable |",
            "| [Architecture](architecture.md) | the layers, and where each rule's meaning "
            "lives |",
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

    def rulebook(self, clauses: Collection[str] | None = None) -> None:
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
            if clauses is None or clause.id in clauses:
                self.files[f"rules/{clause.id}.md"] = self.clause_page(clause, fixtures)
            else:  # its scenes, not drawn: a later page shows a scene drawn before
                for fx in fixtures:
                    self._clause_scene(clause, fx)
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
        if exp.blocked_scores is not None:
            out.append(f"Scored as a blocked round: {list(exp.blocked_scores)}")
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
        # each entry's products, as {option: values allowed}, made once (not per value)
        entries = [[dict(p.allowed) for p in e.scope.products]
                   for fx in self.fixtures for e in fx.expect]
        for option in self.cat.options.values():
            o = option.name
            for value in option.values:
                holds = [products for products in entries
                         if any(value in p.get(o, (value,)) for p in products)]
                named = [products for products in holds if all(o in p for p in products)]
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
        if option == "follow_up" and rs["doubles"] == "ordinary":  # DBL-11: nothing to cover
            return self.cat.options["doubles"].values["ordinary"].text
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
                    f"Clauses: {clause_links(fx.clauses, clauses, '../')}. "
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

    def rule_books(self) -> None:
        self.files["rule-books.md"] = rulebooks_page(load_rulebooks(self.cat), self.cat)

    def refusals(self) -> None:
        from mtrain.docs_refusals import page, survey

        self.files["refusals.md"] = page(survey(self.fixtures, self.cat), self.cat)

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


def generate(out: Path | None = None, compute: bool = True,
             log: Callable[[str], None] | None = None,
             clauses: Collection[str] | None = None) -> dict[str, str]:
    """Every generated file, {path relative to docs/: text}; see Docs for the arguments
    and Docs.build for `clauses`."""
    return Docs(out, compute, log).build(clauses)


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
    """Write the generated files under `out`, each whole or not at all (a full disk leaves
    a page missing, which `--check` reports, never one cut short), the manifest last."""
    manifest = out / "GENERATED"
    if manifest.exists():
        for old in manifest.read_text(encoding="utf-8").split():
            if old not in files and (out / old).exists():
                (out / old).unlink()
    for rel, text in files.items():
        path = out / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            write_file(path, functools.partial(_put, text))
    write_file(manifest, functools.partial(_put, "\n".join(files) + "\n"))
    return len(files)


def _put(text: str, f: TextIO) -> None:
    f.write(text)
