"""identify's confidence, calibrated: engines of rules of their own, served in process
(the machinery of tests/test_identify_calibration.py and benchmarks/identify_calibration.py).

Each engine is the reference playing one rule set whatever a request names (as most real
engines do), with, as drawn: a hand table of its own; one to three options played
`other` (the engine switches between two known values of each by the seat to move, and
by the round when it deals: a behaviour no known value describes); a bug of the mutants
catalogue switched on. identify's answer is judged option by option against what is
served:

- the served value is right; for an option played `other`, `other` is right; for an
  option a bug's clauses speak about, `other` is right too;
- any other value is right only when the engine with that option played by that value
  (the rest as served: its other options, its split and its bug) plays every fixture of
  the corpus exactly as the engine does, or when the whole rule
  set identify found does: no fixture can tell them apart, so conform under the file
  sees what it would see under the truth. This is computed by playing the corpus, never
  read from identify.

Wrong values are counted by their confidence: none may be `sure` or `measured`.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mtrain.conformance.adapter import JSON, ruleset_json
from mtrain.conformance.fixture import FIXTURE_ROOT, Fixture, load_corpus
from mtrain.conformance.identify import Identification, identify, observe
from mtrain.conformance.identify.measure import ruleset_of
from mtrain.conformance.mutants import MUTANTS, Mutant, MutantImplementation
from mtrain.conformance.selection import read_rules
from mtrain.conformance.serve import FixedRules
from mtrain.reference.rules import Rules
from mtrain.spec import tiles as T
from mtrain.spec.ruleset import CUSTOM, MAX_PLAYERS, OTHER, Ruleset
from mtrain.spec.scope import Space
from mtrain.spec.tilesets import highest

SPACE = Space()
LATER = {"tile_set": ("double-8", "double-10", "double-16", "double-7", "double-11",
                      "double-13", "double-14", "double-17"),
         "hand_sizes": ("custom:double-8", "custom:double-10", "custom:double-16",
                        "custom:double-7", "custom:double-11", "custom:double-13",
                        "custom:double-14", "custom:double-17")}
"""Values the space gained after the benchmark's cases were drawn: the cases are drawn
from the space without them, as they were (the calibration was measured on those);
tests/test_identify.py draws double-8's rule sets."""
EARLIER = {o: tuple(v for v in vs if v not in LATER.get(o, ())) for o, vs in
           SPACE.options.items()}
CAT = SPACE.cat
NO_BUG = Mutant("none", "no bug", (), "nothing")
CONFIDENT = ("sure", "measured")


class Served(MutantImplementation):
    """The reference playing `rs` whatever a request names; with `split`, the rules of
    `split` at odd seats (and in even rounds' deals), those of `rs` elsewhere; with
    `bug`, that mutant switched on."""

    def __init__(self, rs: Ruleset, split: Ruleset | None = None,
                 bug: Mutant = NO_BUG) -> None:
        super().__init__(bug)
        self.sides = (Rules.of(rs), Rules.of(split) if split is not None else Rules.of(rs))
        self.current = self.sides[0]

    def rules(self, ruleset: JSON) -> Rules:
        hook = self.mutant.rules
        if hook is None:
            return self.current
        found = self._mutated.get(id(self.current))
        if found is None:
            found = self._mutated[id(self.current)] = hook(self.current)
        return found

    def _side(self, key: Any) -> None:
        self.current = self.sides[key % 2 if isinstance(key, int) else 0]

    def deal(self, ruleset: JSON, players: int, round: int, order: list[str],
             draw: list[list[str]] | None = None) -> JSON:
        self._side(round + 1)
        return super().deal(ruleset, players, round, order, draw)

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        self._side(state.get("seat") if isinstance(state, dict) else 0)
        return super().legal(ruleset, state)

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        self._side(state.get("seat") if isinstance(state, dict) else 0)
        return super().apply(ruleset, state, action)

    def score(self, ruleset: JSON, state: JSON, winner: int | None) -> list[int]:
        self._side(state.get("seat") if isinstance(state, dict) else 0)
        return super().score(ruleset, state, winner)

    def winners(self, ruleset: JSON, state: JSON) -> list[int]:
        self._side(state.get("seat") if isinstance(state, dict) else 0)
        return super().winners(ruleset, state)


@dataclass
class Case:
    """One engine and the truth about it."""

    name: str
    rs: Ruleset
    split: dict[str, str] = field(default_factory=dict)  # option -> the other side's value
    bug: Mutant = NO_BUG

    def engine(self, **playing: str) -> Served:
        """The engine; with `playing` (option=value), the same engine with those options
        played by that value on both sides."""
        table = self.rs.hand_table if self.rs.custom_table else None
        rs = ruleset_of(CAT, {**dict(self.rs.choices), **playing}, table, self.rs.name)
        other = None
        if self.split:
            other = ruleset_of(CAT, {**dict(self.rs.choices), **self.split, **playing}, table)
        return Served(rs, other, self.bug)

    def touched(self) -> set[str]:
        """The options the bug's clauses speak about."""
        return {o for c in self.bug.clauses if c in CAT.clauses for o in CAT.clauses[c].when}

    def tables(self) -> set[tuple[tuple[int, int], ...]]:
        """The tables the engine deals by: the rule set's, or the one its bug has."""
        hooked = self.engine().rules(ruleset_json(self.rs))
        return {self.rs.hand_table, hooked.ruleset.hand_table,
                tuple(sorted(hooked.hand_table.items()))}


# --- drawing engines ---------------------------------------------------------------------


def random_table(rng: random.Random, tile_set: str, aside: bool) -> tuple[tuple[int, int], ...]:
    """A hand table of its own that the set can deal (DEAL-8): 2 to k players, sizes
    falling as players are added; never one tile each (the probe table)."""
    size = T.set_size(highest(tile_set)) - (1 if aside else 0)
    top = min(MAX_PLAYERS, size // 3)
    last = rng.randint(min(4, top), min(top, rng.choice([6, 8, 10, 20])))
    rows, cap = [], size // 2 - rng.randint(0, 3)
    for n in range(2, last + 1):
        h = max(2, min(cap, size // n - rng.randint(0, 2)))
        rows.append((n, h))
        cap = h
    return tuple(rows)


def draw_case(rng: random.Random, k: int, splits: int, bug: Mutant) -> Case:
    tile_set = EARLIER["tile_set"][k % len(EARLIER["tile_set"])]
    while True:
        region = {o: frozenset([rng.choice(vs)]) for o, vs in EARLIER.items()}
        region["tile_set"] = frozenset([tile_set])
        own = k % 2 == 0 or tile_set == "double-18"
        region["hand_sizes"] = frozenset([CUSTOM]) if own else frozenset(
            v for v in EARLIER["hand_sizes"] if v != CUSTOM and not v.startswith("custom:"))
        values = SPACE.complete(region) or SPACE.complete(
            {**{o: frozenset(vs) for o, vs in EARLIER.items()},
             "tile_set": frozenset([tile_set]), "hand_sizes": region["hand_sizes"]})
        assert values is not None
        plain, table = SPACE.catalog_form(values)
        if own:
            table = random_table(rng, tile_set, values["engine_procedure"] == "set-aside")
        try:
            rs = CAT.from_values(plain, f"case-{k}", table)
        except ValueError:
            continue
        split: dict[str, str] = {}
        options = [o for o in CAT.options if o not in ("tile_set", "hand_sizes")]
        for o in rng.sample(options, len(options)):
            if len(split) == splits:
                break
            for v in rng.sample(list(CAT.options[o].values), len(CAT.options[o].values)):
                if v == rs[o]:
                    continue
                try:
                    CAT.from_values({**dict(rs.choices), **split, o: v}, "b", rs.hand_table
                                    if rs.custom_table else None)
                except ValueError:
                    continue
                split[o] = v
                break
        if len(split) == splits:
            return Case(f"case-{k}", rs, split, bug)


def random_cases(n: int, seed: int) -> list[Case]:
    rng = random.Random(seed)
    bugs = sorted(MUTANTS)
    return [draw_case(rng, k, splits=k % 4, bug=MUTANTS[rng.choice(bugs)]
                      if k % 3 == 0 else NO_BUG) for k in range(n)]


def mutant_cases(names: Sequence[str]) -> list[Case]:
    bases = [CAT.ruleset(v) for v in CAT.variants]
    return [Case(f"mutant {name}", bases[k % len(bases)], bug=MUTANTS[name])
            for k, name in enumerate(names)]


# --- judging -------------------------------------------------------------------------------


@dataclass
class Verdict:
    case: Case
    found: Identification
    wrong: list[tuple[str, str, str, str]]  # option, value found, its status, served
    exact: int  # right: the served value, or one no fixture tells from it
    strict: int  # the served value itself


class Judge:
    def __init__(self, fixtures: Sequence[Fixture]) -> None:
        self.fixtures = fixtures
        # what each case's own engine plays under each rule set sent: a verdict compares
        # it with one other engine per value in question (and the whole set found), and
        # the engine's play is the same each time (observe is pure: a fresh Served plays
        # the corpus alike), so it is played once a case, not once a comparison
        self._seen: dict[tuple[int, str], list[tuple[str | None, ...]]] = {}

    def outcomes(self, engine: Any, sent: Ruleset) -> list[tuple[str | None, ...]]:
        return [o.outcomes for o in observe(self.fixtures, engine, sent)]

    def plays_alike(self, case: Case, other: Any, sent: Ruleset) -> bool:
        """Whether `other` plays every fixture as the case's engine does."""
        key = (id(case), repr(ruleset_json(sent)))
        if key not in self._seen:
            self._seen[key] = self.outcomes(case.engine(), sent)
        return self._seen[key] == self.outcomes(other, sent)

    def verdict(self, case: Case, found: Identification, sent: Ruleset) -> Verdict:
        served = dict(case.rs.choices)
        touched = case.touched()
        wrong, exact, strict = [], 0, 0
        joint: bool | None = None
        for f in found.findings:
            o, v = f.option, found.ruleset[f.option]
            if o == "hand_sizes":
                right = found.ruleset.hand_table in case.tables()
            elif o in case.split:
                right = v == OTHER
            else:
                right = v == served[o] or (v == OTHER and o in touched)
            if right:
                exact += 1
                strict += 1
                continue
            if v != OTHER and o != "hand_sizes":
                if joint is None:
                    joint = self._joint(case, found, sent)
                if joint or self.plays_alike(case, case.engine(**{o: v}), sent):
                    exact += 1
                    continue
            wrong.append((o, v, f.status, (case.split.get(o) and OTHER) or served[o]))
        return Verdict(case, found, wrong, exact, strict)

    def _joint(self, case: Case, found: Identification, sent: Ruleset) -> bool:
        """Whether the whole rule set found (`other` as served) plays like the engine."""
        values = {o: (dict(case.rs.choices)[o] if v == OTHER else v)
                  for o, v in found.ruleset.choices}
        alike = ruleset_of(CAT, values, found.ruleset.hand_table
                           if found.ruleset.custom_table else None)
        return self.plays_alike(case, FixedRules(alike), sent)


def run_cases(cases: Sequence[Case], tmp: Path, folders: Sequence[str] = ()
              ) -> tuple[list[Verdict], Counter[str]]:
    """identify on each case, judged; with `folders`, on those folders of the corpus only."""
    fixtures: list[Fixture] = []
    for folder in folders or [""]:
        some, errors = load_corpus(FIXTURE_ROOT / folder) if folder else load_corpus()
        assert some and not errors
        fixtures += some
    judge = Judge(fixtures)
    verdicts = []
    for case in cases:
        found = identify(case.engine(), fixtures)
        assert found.sent_rules is not None
        verdicts.append(judge.verdict(case, found, found.sent_rules))
        round_trip(found, tmp / f"{case.name.replace(' ', '-')}.yaml")
    wrong = Counter(status for v in verdicts for _, _, status, _ in v.wrong)
    return verdicts, wrong


def round_trip(found: Identification, path: Path) -> None:
    """The file identify writes loads as conform loads --rules, with the values found;
    each undetermined option keeps the base's value and says so on its line."""
    path.write_text(found.file_text(CAT), encoding="utf-8")
    ((loaded, _),) = read_rules([str(path)])
    assert dict(loaded.choices) == dict(found.ruleset.choices), path.read_text()
    assert loaded.hand_table == found.ruleset.hand_table
    base = dict(CAT.ruleset(next(iter(CAT.variants))).choices)
    lines = path.read_text(encoding="utf-8").splitlines()
    for f in found.findings:
        if f.status == "undetermined":
            assert f.value == base[f.option] or f.alternatives, (f, path.read_text())
            assert any(line.startswith(f"  {f.option}: ") and line.endswith("# undetermined")
                       for line in lines), path.read_text()


def summary(verdicts: Sequence[Verdict], wrong: Counter[str]) -> str:
    lines = [f"{v.case.name} ({v.case.rs['tile_set']}): {v.exact}/16 right, {v.strict} "
             "the served value" + (f"; wrong: {v.wrong}" if v.wrong else "")
             for v in verdicts]
    mean = sum(v.exact for v in verdicts) / len(verdicts)
    served = sum(v.strict for v in verdicts) / len(verdicts)
    lines.append(f"wrong by confidence: {dict(wrong)}; mean right {mean:.2f} of 16, "
                 f"{served:.2f} the served value")
    return "\n".join(lines)


def check(verdicts: Sequence[Verdict], wrong: Counter[str]) -> None:
    text = summary(verdicts, wrong)
    assert not any(wrong[c] for c in CONFIDENT), text
    assert sum(v.exact for v in verdicts) / len(verdicts) >= 15, text
