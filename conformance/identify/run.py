"""identify: measure what the deals show, then infer the rest from the fixtures.

The deals measure the tile set, the hand table, the engine procedure and the starting
seat (measure.py). Every fixture that still tells rule sets apart under what was
measured is then played once, under the engine's own measured rules (its table sent
as a table of its own), and each of its entries passes or fails. The scope partition
(cells.py) says which rule sets pass and fail each fixture's entries; z3 finds the valid
rule set that agrees with the most fixtures (solve.py), and for every option the margin
(how many more fixtures any other known value contradicts) says how sure it is. A value
is `sure` only when that margin is SURE or more, as many independent checks show it (a
situation from play counts as half a fixture), and no fixture left unexplained reads
the option (an unexplained fixture is a bug or a rule played its own way, and either
may be in that option); an option nothing tells apart keeps the base rule set's value
and is `undetermined`. Fixtures no rule set explains are likely bugs, left for `mtrain
conform --rules` to report; so are values the catalogue's rules between options forbid.
"""

from __future__ import annotations

import dataclasses
import functools
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import z3

from mtrain.conformance.adapter import (
    Implementation,
    RefusedSetup,
)
from mtrain.conformance.fixture import Fixture, load_corpus
from mtrain.conformance.identify import bugs, solve
from mtrain.conformance.identify.cells import ANY, Piece, corpus_pieces, explore_in, narrowed
from mtrain.conformance.identify.found import Identification as Identification
from mtrain.conformance.identify.found import Observation as Observation
from mtrain.conformance.identify.found import OptionFinding as OptionFinding
from mtrain.conformance.identify.found import counted
from mtrain.conformance.identify.interrupted import IdentifyInterrupted, measured_so_far
from mtrain.conformance.identify.measure import Deals, measure, ruleset_of
from mtrain.conformance.identify.observe import SETUP_ONLY as SETUP_ONLY
from mtrain.conformance.identify.observe import _escapable as _escapable
from mtrain.conformance.identify.observe import observe as observe
from mtrain.conformance.identify.observe import tables_had
from mtrain.conformance.identify.solve import FIXTURE, NO_OTHER, Model, Solution, Solver, constraint
from mtrain.conformance.identify.watch import Watched
from mtrain.conformance.partition import Partition
from mtrain.spec.catalog import Catalog, RulesetError, catalog
from mtrain.spec.errors import InputError
from mtrain.spec.ruleset import CUSTOM, OTHER, Ruleset
from mtrain.spec.scope import Region, Space, example_value

SURE = 2
"""A value is `sure` when every other value contradicts at least this many more fixtures
(and no unexplained fixture reads its option), counted as independent checks (_checks)."""
SITUATION_WEIGHT = 0.5
"""What a situation from play counts for, as a check towards `sure`, against a corpus
fixture's 1. A fixture is written by hand to check its clauses, each a table of its own; the
situations are random tables of a few kinds (an open double, a tile just drawn, ...), many
alike, so one bug in a kind's clauses answers all of its tables alike: junction's planted
DBL-4 bug (the tile after a double let onto the Mexican Train) answered two open-double
situations as ordinary doubles would, and nothing else told the two apart at 5 to 8 seats:
`doubles: ordinary` was found sure at margin 2, against the truth. Situations alone make a
value sure only at twice the margin."""

Progress = Callable[[str, int, int], None]
"""progress(stage, done, total): how far a run is, for a progress bar."""


# --- what was measured, as a region of the option space ------------------------------


def table_value(space: Space, table: Mapping[int, int]) -> str:
    """The hand_sizes value of the space for a measured table: a named table's, an example
    file's (`custom:NAME`), else `custom`."""
    rows = tuple(sorted(table.items()))
    for v in space.options["hand_sizes"]:
        if v != CUSTOM and space.table_of(v) == dict(rows):
            return v
    return CUSTOM


def measured_region(space: Space, deals: Deals) -> Region:
    """The region the deals leave: the set, the table, and the procedure and seat where
    measured; the procedures that can deal the table (DEAL-8) otherwise."""
    cat = space.cat
    allowed: Region = {}
    if deals.tile_set is not None or deals.read_set is not None:
        allowed["tile_set"] = frozenset([deals.tile_set or deals.read_set or ""])
    if deals.table:
        value = table_value(space, deals.table)
        if deals.tile_set is not None and space.complete(
                {"tile_set": frozenset([deals.tile_set]), "hand_sizes": frozenset([value])}
                ) is None:  # a named table of another set (DEAL-10): the engine's own
            deals.problems.append(f"the engine deals the {value} table on a "
                                  f"{deals.tile_set} set, for which it is not published: "
                                  "written as a table of its own (DEAL-10)")
            value = CUSTOM
        allowed["hand_sizes"] = frozenset([value])
        rows = tuple(sorted(deals.table.items()))
        sets = allowed.get("tile_set", frozenset(space.options["tile_set"]))
        allowed["engine_procedure"] = frozenset(
            p for p in space.options["engine_procedure"]
            if any(not cat.conflicts({"tile_set": s, "hand_sizes": CUSTOM,
                                      "engine_procedure": p}, rows) for s in sets))
    else:  # no deal seen: a named table, never the probe that stands for any
        allowed["hand_sizes"] = frozenset(v for v in space.options["hand_sizes"]
                                          if v != CUSTOM)
    if deals.procedure is not None:
        allowed["engine_procedure"] = frozenset([deals.procedure]) & allowed.get(
            "engine_procedure", frozenset([deals.procedure]))
    if deals.seat is not None:
        allowed["starting_seat"] = frozenset([deals.seat])
    return {o: vs for o, vs in allowed.items() if vs}


SAMPLE = 24
"""Tables read under each tile set when the engine deals none."""


def _read_set(fixtures: Sequence[Fixture], pieces: Mapping[str, Sequence[Piece]],
              impl: Implementation, space: Space, base: Mapping[str, str]) -> str | None:
    """The tile set under which the engine answers the most of a sample of the tables
    that tell rule sets of that set apart (an engine reads only tables of its own set),
    for an engine that deals none."""
    best: tuple[int, str] | None = None
    for tile_set in space.options["tile_set"]:
        values = space.complete({"tile_set": frozenset([tile_set])}, base)
        if values is None:
            continue
        only = {"tile_set": frozenset([tile_set])}
        tables = [fx for fx in fixtures if fx.table is not None and len(
            {p.outcomes for p in narrowed(fx, pieces[fx.id], only, space, None)}) > 1]
        plain, table = space.catalog_form(values)
        rs = ruleset_of(space.cat, plain, table)
        read = sum(o not in (None, "error") for ob in observe(tables[:SAMPLE], impl, rs)
                   for o in ob.outcomes)
        if best is None or read > best[0]:
            best = (read, tile_set)
    return best[1] if best is not None and best[0] > 0 else None


def base_values(cat: Catalog, declared: Ruleset | None) -> tuple[str, dict[str, str]]:
    """The base rule set: the declared rules where the engine declares them (a value
    `other` there: the first variant's), else the first shipped variant."""
    first = next(iter(cat.variants))
    values = dict(cat.ruleset(first).choices)
    if declared is None:
        return first, values
    mine = {o: v for o, v in declared.choices if v != OTHER and v != CUSTOM}
    return "the declared rules", {**values, **mine}


# --- identify --------------------------------------------------------------------------


def identify(impl: Implementation, fixtures: Sequence[Fixture] | None = None,
             partitions: Mapping[str, Partition] | None = None,
             declared: Ruleset | None = None,
             progress: Progress | None = None) -> Identification:
    """Which rules `impl` plays (the module docstring). Interrupted, it raises
    IdentifyInterrupted with the answer of the last conclusion, if one was reached, and
    what the deals had measured."""
    deals, now = Deals(), ["measuring the deals", 0, 0]
    answer: list[Callable[[], Identification]] = []
    try:
        return _identify(impl, fixtures, partitions, declared, progress, deals, now, answer)
    except KeyboardInterrupt as stop:
        played = f"{now[1]} of {now[2]}" if now[2] else ""
        raise IdentifyInterrupted(stop, str(now[0]), answer[0]() if answer else None,
                                  measured_so_far(deals), played) from None


def _identify(impl: Implementation, fixtures: Sequence[Fixture] | None,
              partitions: Mapping[str, Partition] | None, declared: Ruleset | None,
              progress: Progress | None, deals: Deals, now: list[Any],
              answer: list[Callable[[], Identification]]) -> Identification:
    """identify, filling in `deals` as measured, `now` (the stage, done, total) as it
    goes, and `answer` with the answer of its latest conclusion."""
    started = time.perf_counter()
    cat = catalog()
    space = Space(cat)
    watched = impl if isinstance(impl, Watched) else Watched(impl)
    if fixtures is None:
        fixtures, errors = load_corpus()
        if errors:
            raise InputError(f"the fixture corpus does not load: {errors[0]}")
    base_name, base = base_values(cat, declared)
    report = progress or (lambda stage, done, total: None)

    report("measuring the deals", 0, 1)
    watched.measuring = True  # a failure asked again: one that comes and goes stops it
    try:
        deals, dealt = measure(watched, space, base, declared, deals)
    finally:
        watched.measuring = False
    report("measuring the deals", 1, 1)
    done = [0]

    def step(stage: str, total: int) -> Callable[[int], None]:
        done[0] = 0
        now[:] = [stage, 0, total]

        def advance(k: int = 1) -> None:
            done[0] += k
            now[1] = done[0]
            report(stage, done[0], total)
        return advance

    pieces = corpus_pieces(fixtures, space, partitions,
                           step("reading the scope partition", len(fixtures)))
    if deals.tile_set is None:  # it dealt nothing: the set whose tables it reads
        deals.read_set = _read_set(fixtures, pieces, watched, space, base)
    allowed = measured_region(space, deals)
    own = (tuple(sorted(deals.table.items()))
           if allowed.get("hand_sizes") == frozenset([CUSTOM]) else None)
    fixed = {o: next(iter(vs)) for o, vs in allowed.items() if len(vs) == 1}
    parts: dict[str, list[Piece]] = {}
    for fx in fixtures:
        parts[fx.id] = narrowed(fx, pieces[fx.id], allowed, space, own)
    telling = [fx for fx in fixtures if len({p.outcomes for p in parts[fx.id]}) > 1]
    sent = _sent(space, allowed, base, deals, dealt)
    advance = step("playing the fixtures", len(telling))
    own_rules = frozenset(o for o, v in (declared.choices if declared else ()) if v == OTHER)
    observations = observe(telling, watched, sent, lambda: advance(1), own_rules)
    now[:] = ["weighing the fixtures played", 0, 0]
    model = Model.of(space)
    # what the solver prefers: the base, and `other` where the engine declares it so
    judged = {**base, **{o: v for o, v in (declared.choices if declared else ()) if v == OTHER}}
    escapable = [o for o in space.options if o not in NO_OTHER and o not in fixed]
    having = tables_had(sent, space)

    def weighed(seen: Sequence[Observation]) -> list[tuple[Any, str]]:
        """Each observation's soft constraint, with the fixture's id."""
        out = []
        for o in seen:
            pieces = parts[o.fixture.id]
            free, only = _escapable(o.fixture, escapable, pieces, o.refused, having, space)
            o.stands = only
            # a deal refused where some values have the table: against those values
            lacking = {opt: vs for opt, vs in only.items()
                       if o.lacks and vs and vs != frozenset(space.options[opt])}
            c = constraint(model, pieces, o.outcomes, free, own_rules, only, lacking)
            if c is not None:
                out.append((c, o.fixture.id))
        return out
    soft = weighed(observations)

    def concluded(region: Region, dropped: solve.Bugs, until: Until | None = None
                  ) -> tuple[Solution, list[OptionFinding], list[str]] | None:
        """The answer within `region`, the fixtures `dropped` read as bugs in the options
        named (explained there: no option is called `other`, nor contradicted, for them)."""
        kept = [(solve.read_as_bug(model, c, dropped.get(fid, ())), fid) for c, fid in soft]
        return _conclude(model, kept, fixed, region, judged, space, own, deals,
                         observations, parts, until)
    found = _values_with_bugs(concluded, allowed, space, declared, observations, parts)
    situations = 0

    def result() -> Identification:
        """The answer of the latest conclusion (`found`, as it stands when called)."""
        best, findings, problems = found
        findings = _as_declared(best, findings, declared, deals)
        rs = _ruleset(cat, space, best.values, deals, own)
        return Identification(rs, findings, best.violated, len(telling), len(telling),
                              time.perf_counter() - started,
                              dict(deals.table) if deals.table else None, declared,
                              sent.name, base_name, problems, watched.summary(),
                              watched.requests, len(fixtures), sent, situations)
    answer.append(result)
    # an engine that answered no fixture (each entry unseen or an error, no setup refused)
    # would answer no table from play either: they ask it the same requests
    answered = any(o.refused or "pass" in o.outcomes or "fail" in o.outcomes
                   for o in observations)
    # tables of real play under the answer and its rivals
    for round_no in range(ROUNDS if answered else 0):
        weak = [f.option for f in found[1]
                if f.status in ("undetermined", "likely", "contradicted")]
        if not weak:
            break
        more = _situations(space, found[1], found[0].values, weak, deals, own, allowed,
                           parts, round_no)
        seen = observe(more, watched, sent,
                       functools.partial(step("playing situations from play", len(more)), 1),
                       own_rules)
        observations += seen
        now[:] = ["weighing the situations played", 0, 0]
        soft += weighed(seen)
        found = _values_with_bugs(concluded, allowed, space, declared, observations, parts)
        situations += len(more)  # weighed in `found` now
    return result()


SITUATIONS = 24
"""Situations from play (conformance/situations.py) generated under the answer and under
each rival of an option left weak: tables of real play the fixtures may not show."""
ROUNDS = 2
"""Rounds of situations, each from fresh seeds, while options are left weak."""


def _situations(space: Space, findings: Sequence[OptionFinding], values: Mapping[str, str],
                weak: Sequence[str], deals: Deals, own: tuple[tuple[int, int], ...] | None,
                allowed: Region, parts: dict[str, list[Piece]], round_no: int = 0
                ) -> list[Fixture]:
    """Situations under the answer and under each weak option's runner-up (round
    `round_no`'s seeds), those that tell rule sets of the measured region apart (their
    pieces put in `parts`)."""
    from mtrain.conformance.situations import SEED, legal_only, situations

    by = {f.option: f for f in findings}
    candidates = [dict(values)]
    for o in weak:
        for alt in by[o].alternatives or [v for v in space.options[o] if v != values[o]][:1]:
            if alt != OTHER:
                candidates.append({**values, o: alt})
    out: list[Fixture] = []
    full = {**space.full(), **allowed}
    for k, cand in enumerate(candidates):
        # an option found `other` stays `other`: situations() plays a known stand-in
        # (Space.complete's, in the space's order) and keeps only the tables whose legal
        # set reads none of those options. (Not any value of the option: a value taken
        # from a set of strings changed with PYTHONHASHSEED, and with it whether the
        # answer's own situations were asked at all, and what identify wrote.)
        plain, table = space.catalog_form(cand)
        try:
            rs = space.cat.from_values(plain, f"answer-{k}", own or table)
        except RulesetError:
            continue
        # the deals are measured (measure.py); a round's end and what a pass does (the
        # same under every rule set, TURN-4), not yet: none of them is made
        for fx in situations(rs, SITUATIONS, seed=SEED + round_no, ends=False):
            fx = dataclasses.replace(legal_only(fx), id=f"{fx.id}@{round_no}.{k}")
            try:
                pieces = explore_in(fx, dict(full), allowed, space, own)
            except (RefusedSetup, ValueError, KeyError, TypeError):
                continue  # a table some rule set of the region cannot have: not asked
            if len({p.outcomes for p in pieces}) > 1:
                parts[fx.id] = pieces
                out.append(fx)
    return out


PINS = 3
"""Options at most read as a known value with a bug in one answer (bugs.py), one re-solve
each: pinning one may move `other` to the option whose rule it really is."""


Until = Callable[[Solution, OptionFinding], bool]
"""until(best, finding): whether an answer's findings may stop at this one (_conclude)."""


def _values_with_bugs(conclude: Callable[[Region, solve.Bugs, Until | None],
                                         tuple[Solution, list[OptionFinding], list[str]] | None],
                      allowed: Region, space: Space, declared: Ruleset | None,
                      observations: Sequence[Observation],
                      parts: Mapping[str, Sequence[Piece]]
                      ) -> tuple[Solution, list[OptionFinding], list[str]]:
    """The answer, and again, each option found `other` whose fixtures have the shape of
    a known value played with a bug (bugs.py) kept to its known values: written so, at
    most `likely`, the fixtures against it read as bugs (unexplained, and so not moved
    to `other` on a neighbouring option). An answer in which such an option is found is
    weighed no further than that option: the rest of its findings would be thrown away
    (half of identify's solving where it pins one), and those before are asked as ever,
    in the same order (z3 breaks ties by what its context has seen)."""
    seen = {obs.fixture.id: obs.outcomes for obs in observations}
    own = frozenset(o for o, v in (declared.choices if declared else ()) if v == OTHER)
    region: Region = dict(allowed)
    notes: dict[str, tuple[str, str]] = {}
    dropped: dict[str, frozenset[str]] = {}  # a fixture read as a bug: in which options
    pin: tuple[str, str, bugs.Shape, dict[str, str]] | None = None

    def pinned(best: Solution, f: OptionFinding) -> bool:
        """Whether `f` is the first option found `other` with a known value's shape with
        a bug (the findings are asked in the options' order): the pin, if so."""
        nonlocal pin
        value = f.alternatives[0] if f.alternatives else OTHER
        if f.value != OTHER or value == OTHER or f.option in notes:
            return False
        s = bugs.shape(f.option, value, best.values, space, frozenset(best.violated), seen,
                       parts)
        if bugs.with_a_bug(s, bugs.declared_value(declared, f.option), value):
            pin = f.option, value, s, {**best.values, f.option: value}
        return pin is not None

    for _ in range(PINS):
        pin = None
        got = conclude(region, dropped, pinned)
        if pin is None:
            assert got is not None  # weighed whole where nothing was pinned
            found = got
            break
        option, value, s, values = pin
        region[option] = frozenset(v for v in region.get(option, space.options[option])
                                   if v != OTHER)
        notes[option] = (value, bugs.note(option, value, s, functools.partial(
            _broken, {o.fixture.id: o for o in observations}, own, space.cat,
            values=values, parts=parts)))
        dropped |= {fid: dropped.get(fid, frozenset()) | {option}
                    for fid in (*s.against, *s.alike)}
    else:  # the last pin's answer, where none is looked for
        whole = conclude(region, dropped, None)
        assert whole is not None
        found = whole
    if not notes:
        return found
    best, findings, problems = found
    # the bugs are unexplained fixtures: the options they read are never `sure`
    suspects = {o for fid in dropped for p in parts.get(fid, ())
                if all(best.values[o] in vs or best.values[o] == OTHER
                       for o, vs in p.region.items()) for o in p.read}
    out = []
    for f in findings:
        if f.option in notes and best.values[f.option] == notes[f.option][0]:
            f = OptionFinding(f.option, f.value, "likely" if f.margin >= 1 else f.status,
                              f.margin, [notes[f.option][1]], [OTHER])
        elif (f.option in notes or f.option in suspects) and f.status == "sure":
            f = dataclasses.replace(f, status="likely", evidence=[
                *f.evidence, "(a fixture read as a bug involves this option)"])
        out.append(f)
    best.violated = sorted({*best.violated, *dropped})
    return best, out, problems


def _broken(observed: Mapping[str, Observation], own: frozenset[str], cat: Catalog,
            fid: str, values: Mapping[str, str] | None = None,
            parts: Mapping[str, Sequence[Piece]] | None = None) -> frozenset[str]:
    """The clauses fixture `fid`, read as a bug, breaks: those its failed entries were
    charged to (observe.py), at the answer `values` only the entries it fails against
    them (bugs.astray: not those of other rules, which it fails as they say), but those
    of a rule the engine declares its own (a stand-in was sent for it, whose answers its
    own rule need not give); else those it is about."""
    obs = observed.get(fid)
    if obs is None:
        return frozenset()
    found = obs.charged
    if obs.by_entry:
        gone = (None if values is None or parts is None
                else bugs.astray(values, parts.get(fid, ()), obs.outcomes))
        picked = [obs.by_entry[i] for i in sorted(gone or obs.by_entry) if i in obs.by_entry]
        if picked and not any(picked):
            return frozenset()  # it fails only in the worth of a round's end of its own
        found = [c for clauses in picked for c in clauses] or found
    charged = [c for c in found if c not in cat.clauses or not own & set(
        cat.clauses[c].when)]
    return frozenset(charged or obs.fixture.clauses)


def _conclude(model: Model, soft: list[tuple[Any, str]], fixed: Mapping[str, str],
              allowed: Region, base: Mapping[str, str], space: Space,
              own: tuple[tuple[int, int], ...] | None, deals: Deals,
              observations: Sequence[Observation], parts: Mapping[str, Sequence[Piece]],
              until: Until | None = None
              ) -> tuple[Solution, list[OptionFinding], list[str]] | None:
    """The answer, each option's finding, and the likely bugs; None where `until` stops
    the findings at one (the answer is then left unfinished)."""
    solver = Solver(model, soft, fixed, allowed, base)
    best = solver.solve()
    if best is None:
        raise InputError("no rule set is consistent with the option space and what the deals "
                         "measured (a bug in the catalogue's constraints)")
    problems = list(deals.problems)
    played = frozenset(obs.fixture.id for obs in observations if _from_play(obs.fixture))
    seat_bugs, seat_note = _seat_bugs(model, [(c, fid) for c, fid in soft if fid not in played],
                                      fixed, allowed, base, best, deals)
    problems += seat_bugs
    forbidden, conflicting = _forbidden(model, soft, fixed, allowed, base, best, space, own)
    problems += forbidden
    declared = frozenset(o for o, v in base.items() if v == OTHER)  # the engine's word
    suspects = _suspects(best, observations, parts, declared)
    for o in conflicting | deals.conflicting:
        suspects.setdefault(o, [])
    checks = functools.partial(_checks, frozenset(
        obs.fixture.id for obs in observations if _from_play(obs.fixture)))
    findings = []
    for o in model.options:
        findings.append(_finding(o, best, solver, model, deals, fixed, suspects, base, checks))
        if until is not None and until(best, findings[-1]):
            return None
    # what each fixture speaks of: the clauses it was seen to break, else those it is about
    observed = {obs.fixture.id: obs for obs in observations}
    speaks = {fid: _broken(observed, declared, space.cat, fid, best.values, parts)
              for fid in observed}
    existence = {obs.fixture.id: frozenset(obs.stands) for obs in observations}
    seen = {obs.fixture.id: obs.outcomes for obs in observations}

    def alone(fid: str, option: str) -> bool:
        """Whether another value of `option` alone would explain fixture `fid`."""
        got = [(i, o) for i, o in enumerate(seen.get(fid, ())) if o is not None]
        return any(all(p.outcomes[i] == o for i, o in got)
                   and best.values[option] not in p.region.get(option, {best.values[option]})
                   and all(best.values[o] in vs for o, vs in p.region.items() if o != option)
                   for p in parts.get(fid, ()))
    def fit(fid: str, option: str) -> frozenset[str] | None:
        """The known values of `option` whose outcomes fixture `fid`'s are (bugs.fits)."""
        found = bugs.fits(option, best.values, list(space.options[option]),
                          seen.get(fid, ()), parts.get(fid, ()))
        return None if found is None else found[0]
    # a rule the engine declares its own and is found so is no contradiction where some
    # tables agree with a known value: a house rule differs from each on some tables only
    findings = [f if f.option in declared and f.value == OTHER else
                _contradicted(f, best, solver, model, space.cat, speaks, alone, fit,
                              existence) for f in findings]
    undecided = frozenset(f.option for f in findings if f.status == "undetermined")
    for f in findings:
        if f.status == "undetermined":
            f.evidence.append(_settling(f.option, best.values, space, parts, seen, undecided))
        if f.option == "starting_seat" and seat_note is not None:
            f.evidence.append(seat_note)
    return best, findings, problems


def _seat_bugs(model: Model, soft: list[tuple[Any, str]], fixed: Mapping[str, str],
               allowed: Region, base: Mapping[str, str], best: Solution, deals: Deals
               ) -> tuple[list[str], str | None]:
    """The likely bugs of a starting seat the deals showed with a procedure the rules do
    not allow it with (measure.py), where the fixtures of the corpus (`soft`) agree with
    that seat: they are explained as well under it, the rules between options set aside,
    as by the answer. Where they contradict it, the designed deals agreed with it by
    chance and the seat is a rule of the engine's own, no bug (signalbox: the player
    dealt the most doubles leads, as after-engine's would on the deals designed, which
    set-aside forbids): a note on the seat's finding says so instead. (Not situations
    from play: made under rule sets the rules allow, their tables say nothing of what
    the forbidden pair plays.)"""
    if deals.forbidden_seat is None:
        return [], None
    seat, lines = deals.forbidden_seat
    shown = Solver(model, soft, {**fixed, "starting_seat": seat}, allowed, base,
                   valid=False).solve()
    ids = {fid for _, fid in soft}
    answer = sum(fid in ids for fid in best.violated) * FIXTURE + best.cost - len(
        best.violated) * FIXTURE  # the answer's cost over those fixtures
    if shown is not None and shown.cost <= answer:
        return lines, None
    against = sorted(set(shown.violated) - set(best.violated)) if shown is not None else []
    return [], (f"(the designed deals started where {seat} starts, which the rules do not "
                f"allow with {deals.procedure}; {len(against)} fixtures contradict {seat} "
                f"({', '.join(against[:3])}{' ...' if len(against) > 3 else ''}): a seat "
                "of its own that agrees with it there, not a bug)")


def _tells(option: str, values: Mapping[str, str], pieces: Sequence[Piece],
           unpinned: frozenset[str] = frozenset()) -> bool:
    """Whether two values of `option` give the fixture different outcomes where the rest
    of the rules are the same and the answer's (`other` there: any value); with
    `unpinned`, only where the outcome pins none of those options."""
    mine = [p for p in pieces if option in p.region and unpinned.isdisjoint(p.region) and all(
        values[o] in vs or values[o] == OTHER for o, vs in p.region.items() if o != option)]
    for i, p in enumerate(mine):
        for q in mine[i + 1:]:
            if (not p.region[option] & q.region[option]
                    and all(p.region[o] & q.region[o] for o in p.region.keys() & q.region.keys()
                            if o != option)
                    and any(a != b and ANY not in (a, b)
                            for a, b in zip(p.outcomes, q.outcomes, strict=True))):
                return True
    return False


def _settling(option: str, values: Mapping[str, str], space: Space,
              parts: Mapping[str, Sequence[Piece]],
              seen: Mapping[str, Sequence[str | None]],
              undecided: frozenset[str] = frozenset()) -> str:
    """What would settle an option nothing told apart: the fixtures whose outcome its
    values change under the rest of the answer (bugs.fits), whose answers were not seen,
    or that the engine's own rules decide (the outcome also pins an option the answer has
    `other`, or one left `undecided`: its answer there is its rule's, no bug), or that
    were read as bugs; or none, so a table of another kind."""
    told = [fid for fid, pieces in parts.items() if _tells(option, values, pieces)]
    if not told:
        return (f"(no fixture's outcome changes with {option} under the rest of the rules "
                "found: a table where its values differ under them would settle it)")
    unseen = [fid for fid in told if not any(o is not None for o in seen.get(fid, ()))]
    if unseen:
        return (f"({len(unseen)} fixtures would tell its values apart, but the engine's "
                f"answers to them were not seen: {', '.join(sorted(unseen)[:3])}"
                f"{' ...' if len(unseen) > 3 else ''})")
    own = (frozenset(o for o, v in values.items() if v == OTHER) | undecided) - {option}
    bugs = [fid for fid in told if _tells(option, values, parts[fid], own)]
    decided = sorted(set(told) - set(bugs))
    said = []
    if decided:
        pinned = sorted({o for fid in decided for p in parts[fid] for o in own & p.region.keys()})
        named = ", ".join(f"{o}: {OTHER}" if values[o] == OTHER else f"{o} undetermined"
                          for o in pinned)
        said.append(f"{len(decided)} decided by its own rules ({named}), not read as "
                    f"bugs: {_some(decided)}")
    if bugs:
        said.append(f"{len(bugs)} read as bugs or split evenly: {_some(bugs)}")
    return f"(of the {len(told)} fixtures that tell its values apart here, {'; '.join(said)})"


def _some(fids: Sequence[str]) -> str:
    return f"{', '.join(sorted(fids)[:3])}{' ...' if len(fids) > 3 else ''}"


def _contradicted(f: OptionFinding, best: Solution, solver: Solver, model: Model,
                  cat: Catalog, speaks: Mapping[str, frozenset[str]],
                  alone: Callable[[str, str], bool],
                  fit: Callable[[str, str], frozenset[str] | None] | None = None,
                  existence: Mapping[str, frozenset[str]] | None = None) -> OptionFinding:
    """A value that fixtures show, contradicted by fixtures of the same clauses (those
    the option's values bring in): a rule of the engine's own looks so, and so does a bug
    in those clauses that the engine makes everywhere. identify cannot tell which, and
    says so rather than naming the value (or `other`) as found: status `contradicted`,
    the value kept as the solver found it, both sets of fixtures in the evidence. For a
    known value, a fixture against it is one left unexplained that another value of the
    option alone would explain (`alone`)."""
    if f.status not in ("sure", "likely", "other"):
        return f
    own = {c.id for c in cat.clauses.values() if f.option in c.when}
    if f.value != OTHER:
        shown, value = [e for e in f.evidence if not e.startswith("(")], f.value
        # an unexplained fixture of the same clauses that another value of this option
        # alone would explain (not one that some other option's difference explains)
        against = [fid for fid in best.violated
                   if speaks.get(fid, frozenset()) & own and alone(fid, f.option)]
    elif f.alternatives and f.alternatives[0] != OTHER:
        value = f.alternatives[0]
        against = [e for e in f.evidence if speaks.get(e, frozenset()) & own]
        keep = [z3.Not(model.eq(o, OTHER)) for o in model.options
                if best.values[o] != OTHER and o != f.option]
        taking = solver.solve([model.eq(f.option, value), *keep])
        rest = solver.solve([z3.Not(model.eq(f.option, value)),
                             z3.Not(model.eq(f.option, OTHER)), *keep])
        if taking is None or rest is None:
            return f
        # a fixture that reads the option only for whether its table exists shows that
        # the engine has the table, which a rule of its own may as well (SETUP_ONLY):
        # no evidence for the value against `other`
        shown = sorted(fid for fid in set(rest.violated) - set(taking.violated)
                       if f.option not in (existence or {}).get(fid, ()))
    else:
        return f
    told = f"{counted(len(shown), verb='show')} {value} ({', '.join(shown[:3])}" \
        f"{' ...' if len(shown) > 3 else ''})"
    if fit is not None:  # named by the values each fixture shows (bugs.shows)
        shown, told = bugs.shows(value, shown, lambda fid: fit(fid, f.option))
    if not shown or not against:
        return f
    clauses = sorted({c for fid in against for c in speaks.get(fid, frozenset()) & own})
    return OptionFinding(f.option, f.value, "contradicted", f.margin, [
        f"{told}, {len(against)} of the same clauses "
        f"({', '.join(clauses)}) contradict{'s' if len(against) == 1 else ''} it "
        f"({', '.join(against[:3])}"
        f"{' ...' if len(against) > 3 else ''}): a bug in {', '.join(clauses)} the engine "
        f"makes on every such table, or a rule of its own"], [value])


def _as_declared(best: Solution, findings: list[OptionFinding],
                 declared: Ruleset | None, deals: Deals | None = None) -> list[OptionFinding]:
    """An option no fixture tells apart for the engine keeps the base's value; where the
    engine declares it `other`, that is its base: the rule is its own (never a known value
    nothing showed it plays). `best` is changed to match. A known value the fixtures show
    against the known value the engine declares is at most `likely`: a bug that plays
    another value on every table of its clauses looks just like that value, and the
    engine's word is the evidence against it (tandem's planted redraw is
    draw-until-playable on every drawn table; it declares draw-one)."""
    if declared is None:
        return findings
    out = []
    for f in findings:
        if (f.option == "starting_seat" and deals is not None and deals.unseated
                and declared[f.option] == OTHER):
            best.values[f.option] = OTHER
            f = OptionFinding(f.option, OTHER, "other", 0, [
                "as the engine declares: its deals start at a seat no known value gives"])
        elif (f.option == "engine_procedure" and deals is not None and deals.own_elsewhere
              and declared[f.option] == OTHER):
            best.values[f.option] = OTHER
            f = OptionFinding(f.option, OTHER, "other", 0, [
                f"as the engine declares: it deals {f.value}'s pools as {f.value} does, and "
                "the whole set as no known procedure does"])
        elif f.status == "undetermined" and declared[f.option] == OTHER:
            best.values[f.option] = OTHER
            f = OptionFinding(f.option, OTHER, "other", 0, [
                "as the engine declares: no fixture tells its values apart for it"])
        elif f.status == "sure" and declared[f.option] not in (OTHER, CUSTOM, f.value):
            f = dataclasses.replace(f, status="likely", evidence=[
                *f.evidence, f"(not sure: the engine declares {declared[f.option]}; a bug "
                f"playing {f.value} on every table of its clauses looks the same, and "
                "`mtrain conform` under the declaration shows which)"])
        out.append(f)
    return out


def _sent(space: Space, allowed: Region, base: Mapping[str, str], deals: Deals,
          dealt: Ruleset | None) -> Ruleset:
    """The rule set every fixture is asked under: what was measured (the table as the
    engine's own), the rest the base's where valid."""
    prefer = {**base, **(dict(dealt.choices) if dealt is not None else {}),
              **{o: next(iter(vs)) for o, vs in allowed.items() if len(vs) == 1}}
    values = space.complete(allowed, prefer)
    if values is None:
        raise InputError("no valid rule set has what the deals measured: "
                         + "; ".join(f"{o} in {sorted(vs)}" for o, vs in allowed.items()))
    plain, table = space.catalog_form(values)
    if values["hand_sizes"] == CUSTOM:
        table = tuple(sorted(deals.table.items()))
    return ruleset_of(space.cat, plain, table, space.cat.describe(values))


def _suspects(best: Solution, observations: Sequence[Observation],
              parts: Mapping[str, Sequence[Piece]],
              declared: frozenset[str] = frozenset()) -> dict[str, list[str]]:
    """The options an unexplained fixture's outcome reads where the answer lies: a bug,
    or a rule played its own way, may be in any of them; each with those fixtures (what
    would settle it: whether they are bugs). A fixture whose outcome reads a rule the
    engine declares its own (`declared`, found `other`) is that rule's to decide, as
    conform makes its entries not applicable: it casts no doubt on the other options it
    reads."""
    out: dict[str, list[str]] = {}

    def add(options: Iterable[str], fid: str) -> None:
        for o in options:
            if fid not in out.setdefault(o, []):
                out[o].append(fid)
    bad = set(best.violated)
    for obs in observations:
        pieces = parts.get(obs.fixture.id, ())
        if obs.fixture.id in bad:
            for p in pieces:
                if all(best.values[o] in vs or best.values[o] == OTHER
                       for o, vs in p.region.items()):
                    add(p.read, obs.fixture.id)
            continue
        # Explained only by a rule played `other` taking the known value that fits: the
        # other options its outcome reads may be where the difference lies just as well
        # (the fixture counts for them only because the `other` rule absorbed it).
        # (An option read only for whether the table exists stands for the values that
        # have it, as a known value would: it absorbs nothing, SETUP_ONLY.)
        # (Not where the rule absorbing it is one the engine declares its own: the open
        # double on chaindbl-014's table is tandem's doubles rule's to judge, and its
        # `first_turn: single`, which that table's answer agrees with, was left `likely`
        # as if no known rule set explained it.)
        if any(o in declared and best.values[o] == OTHER for p in pieces for o in p.read):
            continue
        seen = [(i, o) for i, o in enumerate(obs.outcomes) if o is not None]
        cells = [p for p in pieces if all(p.outcomes[i] == o for i, o in seen)]
        if seen and cells and not any(all(best.values[o] in vs or (
                best.values[o] == OTHER and vs & obs.stands.get(o, frozenset()))
                for o, vs in p.region.items()) for p in cells):
            for p in cells:
                if all(best.values[o] in vs or best.values[o] == OTHER
                       for o, vs in p.region.items()):
                    add((o for o in p.read if best.values.get(o) != OTHER), obs.fixture.id)
    return out


def _from_play(fx: Fixture) -> bool:
    """Whether `fx` is a situation from play (_situations), not a fixture of the corpus."""
    from mtrain.conformance.situations import SITUATION_PATH

    return fx.path.startswith(SITUATION_PATH)


def _checks(situations: frozenset[str], evidence: Sequence[str]) -> float:
    """The fixtures of `evidence` counted as independent checks: a fixture of the corpus
    one, a situation from play SITUATION_WEIGHT."""
    return sum(SITUATION_WEIGHT if fid in situations else 1.0 for fid in evidence)


def _finding(option: str, best: Solution, solver: Solver, model: Model, deals: Deals,
             fixed: Mapping[str, str], suspects: Mapping[str, Sequence[str]],
             base: Mapping[str, str],
             checks: Callable[[Sequence[str]], float] = len) -> OptionFinding:
    value = best.values[option]
    if option in deals.evidence and option in fixed:
        return OptionFinding(option, CUSTOM if option == "hand_sizes" and (
            value == CUSTOM or value.startswith(f"{CUSTOM}:")) else value, "measured", 0,
            [deals.evidence[option]])
    if option == "tile_set" and deals.read_set is not None:
        return OptionFinding(option, value, "likely", 0, [
            "it dealt nothing: the set whose tables it answers most"])
    if option in fixed:  # left one value by what was measured (DEAL-8)
        return OptionFinding(option, value, "measured", 0,
                             ["the only value under which the measured table can be dealt "
                              "(DEAL-8)"])
    keep = [z3.Not(model.eq(o, OTHER)) for o in model.options
            if best.values[o] != OTHER and o not in fixed]
    # the rival of a rule found `other` is the one its line names: the same every run
    rival = solver.solve([z3.Not(model.eq(option, value)), *keep], ties=value == OTHER)
    if rival is None:
        return OptionFinding(option, value, "likely" if option in suspects else "sure", 99,
                             ["the only valid value"])
    margin = (rival.cost - best.cost) // FIXTURE
    evidence = sorted(set(rival.violated) - set(best.violated))
    if value == OTHER and margin <= 0:
        margin, evidence, rival = _own_weighed(option, best, solver, model, fixed, rival)
    if value == OTHER:
        status = "other"
    elif margin >= SURE and checks(evidence) >= SURE and option not in suspects:
        status = "sure"
    elif margin >= 1:
        status = "likely"
    else:
        status = "undetermined"
    alternatives = [rival.values[option]] if margin <= 0 or value == OTHER else []
    if status == "likely" and margin >= SURE and option in suspects:
        evidence.append(_unsettled(suspects[option]))
    elif status == "likely" and margin >= SURE:
        evidence.append("(too few independent checks: a situation from play counts as "
                        "half a fixture, as one bug answers all tables of its kind alike)")
    return OptionFinding(option, value, status, margin, evidence, alternatives)


def _own_weighed(option: str, best: Solution, solver: Solver, model: Model,
                 fixed: Mapping[str, str], rival: Solution) -> tuple[int, list[str], Solution]:
    """The margin, evidence and rival of `option` found `other`, weighed with every other
    option at a known value: where another rule of the answer is `other` too (semaphore
    declares its scoring and its blank values its own), that one takes whichever known
    value explains a fixture both read, and no fixture seemed to tell the option's values
    apart. Unchanged (`rival`'s) where the rest cannot all be known values."""
    known = [z3.Not(model.eq(o, OTHER)) for o in model.options
             if o != option and o not in fixed and o not in NO_OTHER]
    own = solver.solve([model.eq(option, OTHER), *known])
    alone = solver.solve([z3.Not(model.eq(option, OTHER)), *known], ties=True)
    if own is None or alone is None:
        return (rival.cost - best.cost) // FIXTURE, sorted(
            set(rival.violated) - set(best.violated)), rival
    return ((alone.cost - own.cost) // FIXTURE,
            sorted(set(alone.violated) - set(own.violated)), alone)


def _unsettled(fixtures: Sequence[str]) -> str:
    """Why an option with the margin of `sure` is not: what would settle it."""
    if not fixtures:
        return "(a likely bug, a value the catalogue's rules forbid, involves this option)"
    return (f"(not sure: {len(fixtures)} fixtures that no rule set of known values "
            f"explains read this option ({', '.join(fixtures[:3])}"
            f"{' ...' if len(fixtures) > 3 else ''}): whether they are bugs elsewhere or "
            "a rule of this option's own would settle it)")


def _forbidden(model: Model, soft: list[tuple[Any, str]], fixed: Mapping[str, str],
               allowed: Region, base: Mapping[str, str], best: Solution, space: Space,
               own: tuple[tuple[int, int], ...] | None) -> tuple[list[str], set[str]]:
    """Where the fixtures are explained better by values the catalogue's rules between
    options forbid: a likely bug, named by its clause, and what was written instead;
    and the options such a bug is in."""
    free = Solver(model, soft, fixed, allowed, base, valid=False).solve()
    if free is None or free.cost >= best.cost:
        return [], set()
    plain, table = space.catalog_form({o: v for o, v in free.values.items()})
    out, options = [], set()
    for involved, message in space.cat.conflicts(plain, own or table):
        options |= set(involved)
        written = ", ".join(f"{o}: {best.values[o]}" for o in involved
                            if best.values[o] != free.values[o])
        shown = ", ".join(f"{o}={free.values[o]}" for o in involved)
        out.append(f"likely bug: the fixtures show {shown}, which the rules do not allow "
                   f"({message}); written as the nearest rule set they allow"
                   + (f" ({written})" if written else "") + ".")
    return out, options


def _ruleset(cat: Catalog, space: Space, values: Mapping[str, str], deals: Deals,
             own: tuple[tuple[int, int], ...] | None) -> Ruleset:
    """The rule set found, with the measured table (a table of its own unless a named
    table deals the same)."""
    chosen = dict(values)
    table: tuple[tuple[int, int], ...] | None = None
    hs = chosen["hand_sizes"]
    if own is not None:
        chosen["hand_sizes"], table = CUSTOM, own
    elif hs in space.tables:
        chosen["hand_sizes"], table = CUSTOM, space.tables[hs]
    name = cat.describe(chosen)
    if table is not None and any(example_value(n) == hs for n in cat.examples):
        name = cat.describe({**chosen, "hand_sizes": hs})
    try:
        return cat.from_values(chosen, name=name, table=table)
    except RulesetError:  # the solver keeps to valid rule sets: not expected
        return ruleset_of(cat, chosen, table, name)
