"""`mtrain docs`: the documentation generated from spec/ and conformance/.

Every generated page is rebuilt from the data each time, so it cannot drift from what
is checked; `mtrain docs --check` fails when docs/ differs from what would be written.
Hand-written pages (the fixture format, the protocol, the implementer's guide) live in
docs/ beside them and are left alone; the generated ones are listed in GENERATED.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mtrain import __version__
from mtrain.conformance.adapter import ReferenceImplementation, ruleset_json
from mtrain.conformance.fixture import Expectation, Fixture, FixtureError, action_json, load_corpus
from mtrain.conformance.runner import start_state
from mtrain.render import Highlight, highlight_from_actions, render_state
from mtrain.spec import facts as F
from mtrain.spec.catalog import Catalog, Clause, catalog
from mtrain.spec.ruleset import Ruleset

PICTURES_PER_CLAUSE = 2
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


class Docs:
    """Builds every generated page in memory: {relative path: text}."""

    def __init__(self) -> None:
        self.cat: Catalog = catalog()
        self.fixtures, errors = load_corpus()
        if errors:
            raise ValueError("the fixture corpus does not load:\n"
                             + "\n".join(str(e) for e in errors))
        self.reference = ReferenceImplementation()
        self.files: dict[str, str] = {}
        self.shipped = {name: self.cat.ruleset(name) for name in self.cat.variants}
        self._scenes: dict[tuple[str, str], Scene | None] = {}

    # -- scenes and pictures -------------------------------------------------------

    def scene(self, fx: Fixture, variant: str, exp: Expectation) -> Scene | None:
        key = (fx.id, variant)
        if key not in self._scenes:
            self._scenes[key] = self._play(fx, variant, exp)
        return self._scenes[key]

    def _play(self, fx: Fixture, variant: str, exp: Expectation) -> Scene | None:
        try:
            rs = self.cat.ruleset(variant)
            rj = ruleset_json(rs)
            state = start_state(fx, rs, rj, self.reference)
            for step in fx.steps:
                state = self.reference.apply(rj, state, action_json(step))
        except (FixtureError, ValueError, KeyError):
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
            self.versioning]
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
            "  them against any implementation through a JSON protocol.",
            "",
            "It is for authors of Mexican Train apps and bots who want to validate their engine,",
            "for players and rule writers who want to see exactly where two rule sets part, and",
            "for anyone changing a rule who needs to see what changes.",
            "",
            "## Two commands",
            "",
            "```sh",
            "pip install . && mtrain conform          # the suite against the reference engine",
            "pip install -e '.[test]' && ruff check . && mypy && pytest   # the project's tests",
            "```",
            "",
            "## Where things are",
            "",
            "| page | what it holds |",
            "|---|---|",
            "| [The rule book](rules/README.md) | every clause: sources, options, fixtures |",
            "| [The variant matrix](variants.md) | options down, variants across |",
            "| [Differences](differences/README.md) | every situation where two variants part |",
            "| [Facts](facts.md) | the numbers of the game, computed exactly |",
            "| [Fixture format](fixture-format.md) | how a situation is written down |",
            "| [Versioning](versioning.md) | what stays stable |",
        ]
        for extra, what in (("protocol.md", "the JSON Lines protocol for engines under test"),
                            ("implementers-guide.md", "validating your own engine"),
                            ("consistency.md", "the z3 checks of the option space"),
                            ("mutants.md", "the rule bugs the suite must catch")):
            lines.append(f"| [{extra}]({extra}) | {what} |")
        self.files["README.md"] = "\n".join(lines) + "\n"

    def _clause_fixtures(self, clause: Clause) -> list[Fixture]:
        return [fx for fx in self.fixtures if clause.id in fx.clauses]

    def rulebook(self) -> None:
        index = ["# The rule book", "",
                 "Every rule as a numbered clause. Ids are stable: never renumbered, never reused.",
                 "", "| clause | title | applies under | fixtures |", "|---|---|---|---|"]
        for clause in self.cat.clauses.values():
            fixtures = self._clause_fixtures(clause)
            where = ", ".join(n for n, rs in self.shipped.items() if clause.applies(rs))
            index.append(f"| [{clause.id}]({clause.id}.md) | {clause.title} | "
                         f"{where or 'overlays only'} | {len(fixtures)} |")
            self.files[f"rules/{clause.id}.md"] = self.clause_page(clause, fixtures)
        self.files["rules/README.md"] = "\n".join(index) + "\n"

    def clause_page(self, clause: Clause, fixtures: list[Fixture]) -> str:
        out = [f"# {clause.id}: {clause.title}", "", clause.text, "",
               f"- Sources: {', '.join(clause.sources)}"]
        if clause.decision:
            out.append(f"- Decision of this specification: {clause.decision}")
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
        out += ["", f"## Fixtures ({len(fixtures)})", ""]
        drawn = 0
        for fx in fixtures:
            out.append(f"- `{fx.id}` ({fx.path}): {fx.description}")
        for fx in fixtures:
            if drawn >= PICTURES_PER_CLAUSE:
                break
            for name, exp in fx.rulesets():
                rs = self.cat.ruleset(name)
                if not clause.applies(rs):
                    continue
                sc = self.scene(fx, name, exp)
                if sc is None:
                    continue
                out += ["", f"### {fx.id} under {name}", "", fx.description, "",
                        f"![{fx.id} under {name}](../{self.picture(sc)})", "",
                        *self.expectation_lines(exp)]
                drawn += 1
                break
        return "\n".join(out) + "\n"

    @staticmethod
    def expectation_lines(exp: Expectation) -> list[str]:
        out = []
        if exp.legal is not None:
            out.append("Legal: " + (", ".join(f"`{a}`" for a in sorted(exp.legal)) or "none"))
        for action, clause in exp.refused.items():
            out.append(f"Refused: `{action}` ({clause})")
        if exp.state:
            out.append("State: " + ", ".join(f"{k} = {v}" for k, v in exp.state.items()))
        if exp.result is not ...:
            out.append(f"Result: {exp.result if exp.result is not None else 'the round goes on'}")
        if exp.winners is not None:
            out.append(f"Winners: {list(exp.winners)}")
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
                    f"them until someone does ([DBL-6](rules/DBL-6.md)). {release.text}")
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
        out = []
        for fx in self.fixtures:
            ea = next((e for n, e in fx.rulesets() if n == a), None)
            eb = next((e for n, e in fx.rulesets() if n == b), None)
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
        out += ["", "## Situations where they part", ""]
        for fx, ea, eb in found:
            out += [f"### {fx.id}: {fx.description}", "",
                    f"Clauses: {', '.join(fx.clauses)}. Fixture: `{fx.path}`.", ""]
            for name, exp in ((a, ea), (b, eb)):
                sc = self.scene(fx, name, exp)
                out.append(f"**Under {name}**")
                out.append("")
                if sc is not None:
                    out += [f"![{fx.id} under {name}](../{self.picture(sc)})", ""]
                out += [*self.expectation_lines(exp), ""]
            only_a, only_b = self._legal_split(ea, eb)
            if only_a or only_b:
                out.append(f"Legal only under {a}: {', '.join(only_a) or 'none'}; "
                           f"only under {b}: {', '.join(only_b) or 'none'}.")
                out.append("")
        return "\n".join(out) + "\n"

    @staticmethod
    def _legal_split(ea: Expectation, eb: Expectation) -> tuple[list[str], list[str]]:
        if ea.legal is None or eb.legal is None:
            return [], []
        sa, sb = set(ea.legal), set(eb.legal)
        return sorted(f"`{x}`" for x in sa - sb), sorted(f"`{x}`" for x in sb - sa)

    def facts_page(self) -> None:
        out = ["# Facts", "", "The numbers of the game, each computed exactly from the tile set "
               "(no simulation) and checked against the published figure.", "",
               "| fact | published | computed | agrees |", "|---|---|---|---|"]
        for fid, expected, computed, ok in F.check_facts():
            value = float(computed) if not isinstance(computed, int) else computed
            shown = f"{value:.4g}" if isinstance(value, float) else str(value)
            out.append(f"| `{fid}` | {expected} | {shown} | {'yes' if ok else 'NO'} |")
        out += ["", "## No starting tile in the hand", "",
                "The chance that a hand dealt from the pool (engine set aside) holds no tile "
                "bearing the engine's number: C(pool - starters, k) / C(pool, k).", ""]
        out += self._no_starter(12, [8, 10, 12, 15, 16], "Double-12, the seed's table")
        for name, rs in self.shipped.items():
            max_pip = 12 if rs["tile_set"] == "double-12" else 9
            sizes = sorted({h for _, h in rs.hand_table})
            out += self._no_starter(max_pip, sizes, f"Every hand size {name} deals")
        self.files["facts.md"] = "\n".join(out) + "\n"

    @staticmethod
    def _no_starter(max_pip: int, sizes: list[int], title: str) -> list[str]:
        out = [f"### {title} (double-{max_pip})", "", "| tiles in hand | exact | percent |",
               "|---|---|---|"]
        for row in F.no_starter_table(max_pip, sizes):
            out.append(f"| {row.hand} | {row.probability} | {row.percent:.1f} % |")
        return [*out, ""]

    def versioning(self) -> None:
        self.files["versioning.md"] = "\n".join([
            "# Versioning", "",
            f"This is mtrain {__version__}.", "",
            "- **Clause ids** (`DBL-6`) are stable: a clause is never renumbered, and the id of a "
            "retired clause is never given to another.",
            "- **Fixture ids** (`doubles-007`) are stable in the same way; a fixture whose "
            "expectations change keeps its id and says why in its note.",
            "- **Option and value names** are stable; a new value may be added to an option.",
            "- **The protocol** carries its own version (`protocol: 1`); an incompatible change "
            "gets a new number, and `mtrain conform` refuses a mismatch with a clear message.",
            "- **The suite version** follows semantic versioning: a new fixture or clause is a "
            "minor release, a changed expectation a major one.",
        ]) + "\n"


def generate() -> dict[str, str]:
    return Docs().build()


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
