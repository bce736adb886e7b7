"""`mtrain lint`: the fixture corpus checked as data, before any engine runs it.

Checks: every file loads (schema, duplicate keys, action syntax); ids are unique;
descriptions are short and unique; every named clause exists; every rule set named
composes; every starting table is possible under each rule set it names (the
invariants of spec/data/invariants.yaml, via the reference codec) and one the rules can
reach (spec/model/reachable.py); every `when` condition holds for some rule set
(dead_scopes.py); every entry's scope holds wherever it says (scopes.py), and the
widest scope is proposed; and coverage:
every clause is exercised under every shipped variant where it applies (clauses that
apply to no shipped variant: under at least one rule set where they do), and every
pair of values of every option is told apart by at least one fixture.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mtrain.conformance.checked_fields import after, unchecked
from mtrain.conformance.fixture import Expectation, Fixture, load_corpus
from mtrain.conformance.lint.dead_scopes import dead_conditions
from mtrain.conformance.lint.scopes import ScopeReport, check_scopes
from mtrain.reference import codec
from mtrain.reference.invariants import violations
from mtrain.reference.rules import Rules
from mtrain.spec.catalog import Catalog, RulesetError, catalog
from mtrain.spec.model.reachable import reachable_problems
from mtrain.spec.notation import FixtureError, max_pip_of
from mtrain.spec.ruleset import Ruleset
from mtrain.spec.scope import Space
from mtrain.spec.yamlload import SpecError

MAX_DESCRIPTION = 120
KEEPER_SHARE = 10
"""A scope check that explored at least 1 fixture in KEEPER_SHARE hands its partitions to
identify's cache."""


@dataclass
class LintReport:
    fixtures: int = 0
    clauses: int = 0
    errors: list[str] = field(default_factory=list)
    uncovered: list[dict[str, str]] = field(default_factory=list)
    pairs_missing: list[dict[str, str]] = field(default_factory=list)
    pairs: int = 0
    coverage: dict[str, list[str]] = field(default_factory=dict)
    scopes: ScopeReport | None = None
    coverage_checked: bool = True
    warnings: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not (self.errors or self.uncovered or self.pairs_missing)

    def to_json(self) -> dict[str, Any]:
        scopes = None if self.scopes is None else self.scopes.to_json(Space())
        return {
            "scopes": scopes,
            "steps_played": self.scopes is not None,  # only the scope check plays them
            "fixtures": self.fixtures,
            "clauses": self.clauses,
            "uncovered": self.uncovered,
            "option_pairs": self.pairs,
            "option_pairs_missing": self.pairs_missing,
            "coverage_checked": self.coverage_checked,
            "errors": self.errors,
            "warnings": self.warnings,
            "ok": self.ok,
        }


def lint(root: str | Path | Sequence[str | Path] | None = None, scopes: bool = True,
         coverage: bool | None = None) -> LintReport:
    """Every check, on the fixtures under `root` (a file or folder, several taken as one
    corpus: ids unique across them; default: the shipped corpus); `scopes` adds the
    scope check, which plays each fixture over the option space with the reference
    engine (conformance/lint/scopes.py). Coverage (every clause under every variant,
    every value pair told apart) is a property of the whole corpus: checked for the
    shipped corpus, and for other fixtures only when asked."""
    cat = catalog()
    if isinstance(root, str | Path) or root is None:
        fixtures, load_errors = load_corpus(root)
    else:
        fixtures, load_errors = [], []
        for one in root:
            found, errors = load_corpus(one)
            fixtures += found
            load_errors += errors
    report = LintReport(fixtures=len(fixtures), clauses=len(cat.clauses))
    report.errors += [str(e) for e in load_errors]
    if scopes:
        # (imported here: identify's package imports this one's scopes module)
        from mtrain.conformance.identify.cells import Keeper

        keeper = Keeper(Space(cat))  # identify reads the partitions explored here
        report.scopes = check_scopes(fixtures, Space(cat), explored=keeper.add)
        if report.scopes.explored * KEEPER_SHARE >= max(report.scopes.fixtures, 1):
            # Identify's entry is one file for the corpus (tens of MB): rewritten when
            # the check explored a good share of it (a cold cache; identify would
            # explore it all again), not for a fixture or two (identify explores those
            # it lacks itself, in less time than reading and writing the entry takes).
            keeper.save()
        report.errors += report.scopes.errors
    rulesets: dict[str, Ruleset | None] = {}

    def ruleset(name: str) -> Ruleset | None:
        if name not in rulesets:
            try:
                rulesets[name] = cat.ruleset(name)
            except (RulesetError, SpecError) as e:
                rulesets[name] = None
                report.errors.append(f"rule set {name!r}: {e}")
        return rulesets[name]

    seen_ids: dict[str, str] = {}
    seen_desc: dict[str, str] = {}
    for fx in fixtures:
        key = fx.description.strip().lower()
        # a fixture copied whole: one fault, its id, said once (its description, the same
        # as the first's under that id, is part of the copy, not a second fault)
        copied = fx.id in seen_ids and seen_desc.get(key) == fx.id
        if fx.id in seen_ids:
            report.errors.append(f"{fx.where}: id {fx.id} is also used at {seen_ids[fx.id]}"
                                 + (" (with the same description: a fixture copied whole?)"
                                    if copied else ""))
        if key in seen_desc and not copied:
            report.errors.append(f"{fx.where}: {fx.id} has the same description as "
                                 f"{seen_desc[key]}")
        seen_ids.setdefault(fx.id, fx.where)
        seen_desc.setdefault(key, fx.id)
        if len(fx.description) > MAX_DESCRIPTION:
            report.errors.append(f"{fx.where}: {fx.id} description is longer than "
                                 f"{MAX_DESCRIPTION} characters")
        seen_names: set[str] = set()
        for name, exp in fx.rulesets():
            if name in seen_names:
                report.errors.append(f"{fx.where}: {fx.id} names rule set {name} twice")
            seen_names.add(name)
            rs = ruleset(name)
            if rs is not None:
                report.errors += check_start(fx, exp, name, rs)
                missing = unchecked(fx, exp, cat.clauses, rs)
                if missing:  # docs/fixture-format.md: check what the clauses set
                    report.warnings.append(f"{fx.where}: {fx.id} [{name}] leaves unchecked "
                                           f"what its clauses set: {', '.join(missing)}"
                                           f"{_suggest(fx, rs, missing)}")
    space = Space(cat)
    # a `when` condition no valid rule set lies in: never played, never failed (dead text)
    report.errors += dead_conditions(fixtures, space)
    # Pairs of the catalogue's values that some valid rule set takes: the space's
    # stand-ins for a table of one's own (`custom`, `custom:NAME`) are no value a rule set
    # names, so they pair with nothing (a file's table is hand_sizes=custom). Nor does a
    # value no rule set a fixture can name takes (a set of `every_double`, double-11: only
    # a rule-set file of one's own plays it): no two entries can tell it from another;
    # the scope check speaks for it, and each must lie in some entry's scope.
    space_options = space.options
    nameable = nameable_values(cat)
    named = {o: tuple(v for v in vs if v in cat.options[o].values and v in nameable[o])
             for o, vs in space_options.items()}
    all_pairs = [(o, a, b) for o, vs in named.items() for a, b in itertools.combinations(vs, 2)]
    report.pairs = len(all_pairs)
    if not (root is None if coverage is None else coverage):
        report.coverage_checked = False
        return report
    report.uncovered = uncovered(cat, fixtures, ruleset)
    covered_pairs = pairs_told_apart(cat, fixtures, ruleset)
    report.pairs_missing = [{"option": o, "values": f"{a} / {b}"} for o, a, b in all_pairs
                            if (o, frozenset((a, b))) not in covered_pairs]
    unnamed = [(o, v) for o, vs in space_options.items() for v in vs
               if v in cat.options[o].values and v not in nameable[o]]
    report.errors += [f"no fixture's scope names {o}={v}, which only a rule-set file of "
                      "one's own takes: no fixture that depends on it holds there (write "
                      "one; `mtrain lint --write-scopes` names it in the scope)"
                      for o, v in unnamed if not in_some_scope(fixtures, space, o, v)]
    return report


def nameable_values(cat: Catalog) -> dict[str, frozenset[str]]:
    """Per option, the values that a rule set a fixture can name takes: a variant's, an
    overlay's, a rule-set file's of spec/data/rulesets/ (variant+overlay composes no
    value none of them gives)."""
    found: dict[str, set[str]] = {o: set() for o in cat.options}
    for rs in [*(cat.ruleset(name) for name in cat.variants), *cat.examples.values()]:
        for o, v in rs.choices:
            found.setdefault(o, set()).add(v)
    for ov in cat.overlays.values():
        for o, v in ov.options.items():
            found.setdefault(o, set()).add(v)
    return {o: frozenset(vs) for o, vs in found.items()}


def in_some_scope(fixtures: Iterable[Fixture], space: Space, option: str, value: str) -> bool:
    """Whether some entry's written scope names `option` (its outcome depends on it) and
    holds a valid rule set with `option`=`value` there."""
    one = frozenset((value,))
    for fx in fixtures:
        for exp in fx.expect:
            for product in exp.scope.products:
                region = product.region()
                if value in region.get(option, ()) and space.complete(
                        {**region, option: one}) is not None:
                    return True
    return False


def _suggest(fx: Fixture, rs: Ruleset, missing: list[str]) -> str:
    """What the steps give for the missing fields, by the model (checked_fields.after)."""
    try:
        values = after(fx, rs)
    except Exception:  # a table that does not set up is reported elsewhere
        return ""
    fields = [m.split(" (")[0] for m in missing]
    return "; the steps give " + ", ".join(f"{f}: {values[f]!r}" for f in fields if f in values)


def _check_draw(fx: Fixture, rs: Ruleset, players: int) -> None:
    """SEAT-5: a deal's draw for the start must be one the rule can produce, where the
    rule set reads it (an entry expecting the setup refused may hold any draw)."""
    draw = fx.deal_draw()
    if draw is None or rs["starting_seat"] != "highest-draw":
        return
    from mtrain.reference.deal import draw_winner
    from mtrain.spec import tiles as T

    try:
        ids = [[T.parse(t, max_pip_of(rs)) for t in seat] for seat in draw]
        draw_winner(Rules.of(rs), players, ids)
    except (T.TileError, ValueError) as e:
        raise FixtureError(f"the draw for the start cannot be: {e} (an entry that expects "
                           "it refused says refused_setup: SEAT-5)", ("deal", "draw")) from None


def check_start(fx: Fixture, exp: Expectation, name: str, rs: Ruleset,
                reach: bool = True) -> list[str]:
    """The starting table must exist under the rule set: invariants, not the engine, and
    (`reach`) the rules must be able to reach it. Under an entry that expects the setup
    refused, the player count is what the rule set refuses (DEAL-7), so only that
    condition is waived: the rest must hold, so that the refusal has no other cause."""
    where = f"{fx.where}: {fx.id} [{name}]"
    refused = exp.refused_setup is not None
    if fx.deal is not None:
        try:
            players = fx.deal_request(rs)[0]
            if not refused:
                rs.hand_size(players)
                _check_draw(fx, rs, players)
        except FixtureError as e:
            return [f"{fx.where_in_table(e.at)}: {fx.id} [{name}]: {e}"]
        except ValueError as e:
            return [f"{where}: {e}"]
        return []
    try:
        table = fx.start(rs)
        state = codec.state_from_json(Rules.of(rs), table)
    except FixtureError as e:
        return [f"{fx.where_in_table(e.at)}: {fx.id} [{name}]: {e}"]
    except codec.StateError as e:
        if e.clause == "MATCH-7" and "MATCH-7" in (exp.refused_setup or ()):
            return []  # a round its match never reaches: the refusal the entry expects
        return [f"{where}: {e}"]
    broken = [f"{where}: impossible table: {inv} {msg}{_default_open_hint(fx, rs, inv)}"
              for inv, msg in violations(state)]
    if not reach and not refused:  # (lint's reachability below says it of every table)
        try:  # a table of more seats than the rules deal: conform charged the refusal
            rs.hand_size(len(state.hands))  # to the implementation, "the rules allow it"
        except ValueError as e:
            broken.append(f"{where}: {e}")
    if broken or not reach:
        return broken
    # the rules must also be able to reach it (docs/fixture-format.md)
    problems = reachable_problems(table, rs, players=not refused)
    if winners_alone(fx, exp):
        problems = [p for p in problems if not how_blocked(p)]
    return broken or [f"{where}: unreachable table: {p}" for p in problems]


def how_blocked(problem: str) -> bool:
    """Whether a reachability problem is REACH-OVER's part on how a blocked round ended
    (END-2: nobody could play; END-3: a full round of passes; either on an empty
    boneyard)."""
    return problem.startswith("REACH-OVER") and (
        "END-2" in problem or "END-3" in problem or BONEYARD_LEFT in problem)


BONEYARD_LEFT = "a round with tiles in the boneyard is not blocked"
"""REACH-OVER's words for a blocked end with tiles still to draw (spec/model/reachable)."""


def winners_alone(fx: Fixture, exp: Expectation) -> bool:
    """Whether `exp` asks of `fx`'s finished table (phase `over`, no step) only who wins
    the match: an answer read off the totals and the round (MATCH-1..7), never off how
    the round ended, so that a blocked end END-2 or END-3 would not have made (a blocked
    round of one's own, as fuzz reproduces it: fuzz/round_end.over_probe) asks the same."""
    return (fx.table is not None and fx.table.get("phase") == "over" and not fx.steps
            and exp.checks == (exp.winners is not None) + (exp.match_over is not None))


def _default_open_hint(fx: Fixture, rs: Any, inv: str) -> str:
    """What to write where the open doubles a table leaves to its default (every train
    ending in a double) are none under ordinary doubles (DBL-11): the author wrote none."""
    if (inv != "INV-OPEN-DOUBLES" or fx.table is None or "open_doubles" in fx.table
            or not rs.says("doubles", "ordinary")):
        return ""
    return ("; open_doubles is not written, and its default lists every train ending in "
            "a double: where doubles are ordinary (DBL-11) none is open, so write "
            "`open_doubles: []`")


def uncovered(cat: Catalog, fixtures: Iterable[Fixture],
              ruleset: Any) -> list[dict[str, str]]:
    """Clause/variant pairs with no fixture."""
    bases = {name: cat.ruleset(name) for name in cat.variants}
    have: set[tuple[str, str]] = set()
    anywhere: set[str] = set()
    for fx in fixtures:
        for name, _ in fx.rulesets():
            rs = ruleset(name)
            if rs is None:
                continue
            for cid in fx.clauses:
                clause = cat.clauses.get(cid)
                if clause is None or not clause.applies(rs):
                    continue
                anywhere.add(cid)
                if name in bases:
                    have.add((cid, name))
    out = []
    space = Space(cat)
    for cid, clause in cat.clauses.items():
        if space.complete(dict(clause.when)) is None:
            continue  # only rule-set files with a table of their own: no fixture names one
        where = [name for name, rs in bases.items() if clause.applies(rs)]
        if where:
            out += [{"clause": cid, "variant": v} for v in where if (cid, v) not in have]
        elif cid not in anywhere:
            out.append({"clause": cid, "variant": "(any rule set where it applies)"})
    return out


def _content(exp: Expectation) -> tuple[Any, ...]:
    return (sorted(exp.legal) if exp.legal is not None else None,
            sorted(exp.refused.items()), repr(sorted(exp.state.items(), key=str)),
            repr(exp.result), exp.winners)


def pairs_told_apart(cat: Catalog, fixtures: Iterable[Fixture],
                     ruleset: Any) -> set[tuple[str, frozenset[str]]]:
    """(option, {a, b}) for which some fixture expects different things under a and b.

    A fixture tells a and b apart when two of its rule sets take a and b, their
    expectations differ, and the option is one that the fixture's own clauses depend
    on (so a deal fixture does not count for the doubles rule).
    """
    out: set[tuple[str, frozenset[str]]] = set()
    for fx in fixtures:
        relevant = {o for cid in fx.clauses if cid in cat.clauses
                    for o in cat.clauses[cid].when}
        entries = [(ruleset(name), _content(exp)) for name, exp in fx.rulesets()]
        for (r1, c1), (r2, c2) in itertools.combinations(entries, 2):
            if r1 is None or r2 is None or c1 == c2:
                continue
            for o in relevant:
                if r1[o] != r2[o]:
                    out.add((o, frozenset((r1[o], r2[o]))))
    return out
