"""identify: measure what the deals show, then infer the rest from the fixtures.

The deals measure the tile set, the hand table, the engine procedure and the starting
seat (measure.py). Every fixture that still tells rule sets apart under what was
measured is then played once, under the engine's own measured rules (its table sent
as a table of its own; a table those rules build otherwise under some values once per
table built, tables.py), and each of its entries passes or fails. The scope partition
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
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from mtrain.conformance.adapter import Implementation, RefusedSetup
from mtrain.conformance.fixture import Fixture, load_corpus
from mtrain.conformance.identify import carried, shared, solve
from mtrain.conformance.identify.additive import Additive
from mtrain.conformance.identify.cells import Piece, corpus_pieces, explore_in, narrowed
from mtrain.conformance.identify.conclude import Until, _conclude, unexplained
from mtrain.conformance.identify.found import Identification as Identification
from mtrain.conformance.identify.found import Observation as Observation
from mtrain.conformance.identify.found import OptionFinding as OptionFinding
from mtrain.conformance.identify.found import counted
from mtrain.conformance.identify.from_play import ROUNDS, _situations
from mtrain.conformance.identify.interrupted import IdentifyInterrupted, measured_so_far
from mtrain.conformance.identify.measure import Deals, measure
from mtrain.conformance.identify.measured import (
    SAMPLE,
    _read_set,
    _ruleset,
    _sent,
    base_values,
    measured_region,
    solving_region,
)
from mtrain.conformance.identify.observe import SETUP_ONLY as SETUP_ONLY
from mtrain.conformance.identify.observe import _escapable as _escapable
from mtrain.conformance.identify.observe import observe as observe
from mtrain.conformance.identify.observe import stand_ins, tables_had
from mtrain.conformance.identify.pins import _values_with_bugs
from mtrain.conformance.identify.solve import NO_OTHER, Model, Solution, constraint, moment_options
from mtrain.conformance.identify.tables import asked_alike, once_each, per_table
from mtrain.conformance.identify.watch import EngineFailed, Watched
from mtrain.conformance.partition import Partition
from mtrain.spec.catalog import catalog
from mtrain.spec.errors import InputError
from mtrain.spec.ruleset import CUSTOM, OTHER, Ruleset
from mtrain.spec.scope import Region, Space
from mtrain.spec.tilesets import highest

Progress = Callable[[str, int, int], None]
"""progress(stage, done, total): how far a run is, for a progress bar."""


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

    # (the measured set's pieces alone: narrowed keeps no other set's)
    pieces = corpus_pieces(fixtures, space, partitions,
                           step("reading the scope partition", len(fixtures)), deals.tile_set)
    if deals.tile_set is None:  # it dealt nothing: the set whose tables it reads
        deals.read_set = _read_set(fixtures, pieces, watched, space, base,
                                   deals.read_counts)
        if deals.read_set is None and watched.only_unsupported():
            # every fixture would be asked under these same rules, each `unsupported` (876
            # requests more, for "nothing identified" and a table of undetermined values)
            raise EngineFailed(
                f"the implementation answered `unsupported` to all {watched.requests} "
                "requests: deals of every tile set under every engine procedure, at every "
                f"player count, and up to {SAMPLE} tables of each tile set; it plays nothing "
                "identify can ask about, so identify stopped before playing the fixtures")
    allowed = measured_region(space, deals)
    solving = solving_region(allowed, deals)
    own = (tuple(sorted(deals.table.items()))
           if allowed.get("hand_sizes") == frozenset([CUSTOM]) else None)
    fixed = {o: next(iter(vs)) for o, vs in allowed.items() if len(vs) == 1}
    parts: dict[str, list[Piece]] = {}
    for fx in fixtures:
        parts[fx.id] = narrowed(fx, pieces[fx.id], allowed, space, own)
    telling = [fx for fx in fixtures if len({p.outcomes for p in parts[fx.id]}) > 1]
    sent = _sent(space, allowed, base, deals, dealt)
    # a table the rules build otherwise under some values: asked once per table (tables.py)
    others = per_table(telling, parts, sent, allowed, space)
    advance = step("playing the fixtures", len(telling) + sum(len(fs) for _, fs in others))
    own_rules = frozenset(o for o, v in (declared.choices if declared else ()) if v == OTHER)
    sums = Additive.of(declared)  # scores that do not add up, under a known scoring: a bug
    observations = observe(telling, watched, sent, lambda: advance(1), own_rules, sums)
    for rs, asked in others:
        observations += observe(asked, watched, rs, lambda: advance(1), own_rules, sums)
    # the tables of rounds its match never deals, asked at rounds it does (carried.py)
    rounds = _carried(observations, watched, sent, space, allowed, own, parts, step,
                      own_rules, sums)
    now[:] = ["weighing the fixtures played", 0, 0]
    model = Model.of(space)
    # what the solver prefers: the base, and `other` where the engine declares it so
    judged = {**base, **{o: v for o, v in (declared.choices if declared else ()) if v == OTHER}}
    escapable = [o for o in space.options if o not in NO_OTHER and o not in fixed]
    having = tables_had(sent, space)
    # the options the engine declares a known value of: its word (shared.shared_failure),
    # kept while the answer keeps each value declared (shared.doubted)
    word = {o for o, v in (declared.choices if declared else ())
            if v in space.options.get(o, ())}
    # a follow-up seen refusing to cover the double just laid lies outside the known
    # follow-ups' bracket (observe.py, Observation.uncovered)
    unbracketed = frozenset({"follow_up"} if any(o.uncovered for o in observations) else ())

    def weighed(seen: Sequence[Observation]) -> list[tuple[Any, str]]:
        """Each observation's soft constraint, with the fixture's id."""
        out = []
        # the values the engine was seen to play their own way, in everything played so far
        shown = solve.played((parts[o.fixture.id], o.outcomes) for o in observations)
        for o in seen:
            pieces = parts[o.fixture.id]
            free, only, lacking = stand_ins(o, escapable, pieces, having, space)
            o.stands = only
            free = shared.escaping(o, cat, free, only, word)
            c = constraint(model, pieces, o.outcomes, free, own_rules - o.judged, only, lacking,
                           moment_options(o.fixture.clauses, cat), unbracketed, shown)
            if c is not None:
                out.append((shared.own_match(
                    model, c, o, [opt for opt in free if opt not in only], cat),
                    o.fixture.id))
        return out
    soft = weighed(observations)

    def concluded(region: Region, dropped: solve.Bugs, until: Until | None = None
                  ) -> tuple[Solution, list[OptionFinding], list[str]] | None:
        """The answer within `region`, the fixtures `dropped` read as bugs in the options
        named (explained there: no option is called `other`, nor contradicted, for them)."""
        kept = [(solve.read_as_bug(model, c, dropped.get(fid, ())), fid) for c, fid in soft]
        return _conclude(model, kept, fixed, region, judged, space, own, deals,
                         observations, parts, until)
    def weighed_whole(
            ) -> tuple[Solution, list[OptionFinding], list[str]]:
        """The answer with its values with bugs (pins.py), read again where a value it
        found won on the price of the rules of one's own another reading needs (_fewer)."""
        return _fewer(lambda region: _values_with_bugs(
            concluded, region, space, declared, observations, parts), solving, space)

    def trusted() -> tuple[Solution, list[OptionFinding], list[str]]:
        """weighed_whole, weighed again without the engine's word on each option whose
        declared value the answer leaves for another known value (shared.doubted), until
        the answer keeps every word still taken."""
        nonlocal soft
        got = weighed_whole()
        while away := shared.doubted(word, declared, got[0].values):
            word.difference_update(away)
            soft = weighed(observations)
            got = weighed_whole()
        return got
    found = trusted()
    situations = 0

    def result() -> Identification:
        """The answer of the latest conclusion (`found`, as it stands when called)."""
        best, findings, problems = found
        problems = [*problems, *shared.problems(observations)]
        findings = _as_declared(best, findings, declared, deals)
        # the likely bugs of what is written, `other` where _as_declared wrote it
        best.violated = unexplained(model, soft, best.values, best.violated)
        # a fixture asked under two tables is one fixture: listed once, by its corpus id
        findings = [dataclasses.replace(f, evidence=once_each(f.evidence)) for f in findings]
        rs = _ruleset(cat, space, best.values, deals, own)
        return Identification(rs, findings, once_each(best.violated), len(telling),
                              len(telling),
                              time.perf_counter() - started,
                              dict(deals.table) if deals.table else None, declared,
                              sent.name, base_name, problems, watched.summary(),
                              watched.requests, len(fixtures), sent, situations,
                              watched.broke())
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
                           parts, round_no, rounds)
        for fx in more:  # (a situation's table writes its starter: asked alike, as a rule)
            parts[fx.id] = asked_alike(fx, parts[fx.id], sent, allowed, space)
        seen = observe(more, watched, sent,
                       functools.partial(step("playing situations from play", len(more)), 1),
                       own_rules, sums)
        observations += seen
        now[:] = ["weighing the situations played", 0, 0]
        soft += weighed(seen)
        found = trusted()
        situations += len(more)  # weighed in `found` now
    return result()


def _carried(observations: list[Observation], watched: Watched, sent: Ruleset,
             space: Space, allowed: Region, own: tuple[tuple[int, int], ...] | None,
             parts: dict[str, list[Piece]], step: Callable[[str, int], Callable[[int], None]],
             own_rules: frozenset[str], sums: Additive) -> dict[int, int]:
    """The tables the engine refused at rounds its match never deals, carried to rounds it
    deals (carried.py) and played, those that tell rule sets apart, their observations
    added to `observations`; the last round it deals at each player count of those tables
    ({} where it refused none after round 1), for the situations from play."""
    top = highest(sent["tile_set"])
    refused = carried.to_carry(observations, top)
    if not refused:
        return {}
    watched.probing = True  # deals past its last round are meant to be refused
    try:
        # every count it deals, for the round ends from play too, and those of the tables
        rounds = carried.dealt_rounds(watched, sent, [*sent.player_counts, *(
            len(o.fixture.table.get("hands") or {}) for o in refused
            if o.fixture.table is not None)])
    finally:
        watched.probing = False
    full = {**space.full(), **allowed}
    asked = []
    for fx in carried.carry_all(refused, top, rounds):
        try:
            pieces = explore_in(fx, dict(full), allowed, space, own)
        except (RefusedSetup, ValueError, KeyError, TypeError):
            continue  # a table no rule set of the region can have: not asked
        pieces = asked_alike(fx, pieces, sent, allowed, space)
        if len({p.outcomes for p in pieces}) > 1:
            parts[fx.id] = pieces
            asked.append(fx)
    advance = step("playing fixtures carried to the rounds it deals", len(asked))
    observations += observe(asked, watched, sent, lambda: advance(1), own_rules, sums)
    return rounds


def _seat_measured(best: Solution, findings: list[OptionFinding], declared: Ruleset | None,
                   deals: Deals | None) -> list[OptionFinding]:
    """Deals that start at a seat no known value gives (measure.py: the hands dealt as one
    procedure deals them, the first player where no known starting seat puts it) rule out
    every known starting seat on the deals themselves, whatever the fixtures lean to: the
    value written is `other` (layover's lead moving right, round r at seat (n - r) mod n,
    was written heaviest-in-hand, which its own deals contradict). Where the engine
    declares a known value, its deals contradict that too: a rule of its own, or a bug in
    that value's clause on every deal, which the fixtures cannot tell apart (`contradicted`,
    the declared value its rival). A declared `other` is `_as_declared`'s."""
    if deals is None or not deals.unseated:
        return findings
    said = None if declared is None else declared["starting_seat"]
    if said == OTHER:
        return findings
    return _measured_other("starting_seat", best, findings, said, deals, "clause")


def _procedure_measured(best: Solution, findings: list[OptionFinding],
                        declared: Ruleset | None, deals: Deals | None) -> list[OptionFinding]:
    """Deals whose hands no known procedure deals, whatever the first player, though each
    is its slice of the pool but for the engine and tiles of the boneyard (measure.py:
    `unmatched`), rule out every known engine procedure on the deals themselves, as
    `_seat_measured` does the seat: the value written is `other`. The fixtures left alone
    chose a procedure whose pools the engine refused (waybill's holder taking the
    boneyard's last tile answers a pool without the engine `unsupported`: set-aside, which
    nothing then contradicted, was written `likely`). Where the engine declares a known
    value, its deals contradict that too (`contradicted`, the declared value its rival)."""
    if deals is None or not deals.unmatched:
        return findings
    said = None if declared is None else declared["engine_procedure"]
    return _measured_other("engine_procedure", best, findings,
                           None if said == OTHER else said, deals, "deal")


def _measured_other(option: str, best: Solution, findings: list[OptionFinding],
                    said: str | None, deals: Deals, what: str) -> list[OptionFinding]:
    """`option` written `other`, as the deals measured it: plainly where the engine
    declares no known value (`said` None), else contradicted with the declared value its
    rival (a rule of its own, or a bug in that value's `what` on every deal)."""
    out = []
    for f in findings:
        if f.option == option and f.value != OTHER:
            best.values[f.option] = OTHER
            seen = (f"measured: {deals.evidence.get('engine_procedure', 'the deals')}; the "
                    f"fixtures leaned to {f.value}, which these deals contradict")
            if said is None:
                f = OptionFinding(f.option, OTHER, "other", 0, [seen])
            else:
                f = OptionFinding(f.option, OTHER, "contradicted", 0, [
                    f"{seen}, as they do the declared {said}: a rule of its own, or a bug "
                    f"in {said}'s {what} on every deal"], [said])
        out.append(f)
    return out


Found = tuple[Solution, list[OptionFinding], list[str]]


def _fewer(conclude: Callable[[Region], Found], allowed: Region, space: Space) -> Found:
    """The answer, read again without a known value that fixtures of its clauses
    contradict, where that reading leaves fewer fixtures unexplained than contradict the
    value (findings._fewer_bugs): a value must not win on the price of the rules of one's
    own the other reading needs (PRIOR_OTHER each), explaining for free what that reading
    calls bugs. The option is then at most `likely`, both readings in its evidence."""
    region: Region = dict(allowed)
    found = conclude(region)
    notes: dict[str, str] = {}
    for _ in range(2):  # (a second value of another option at most)
        f = next((f for f in found[1] if f.fewer_bugs is not None
                  and f.option not in notes), None)
        if f is None or f.fewer_bugs is None:
            break
        _, bugs, against = f.fewer_bugs
        region[f.option] = frozenset(region.get(f.option, space.options[f.option])) - {
            f.value, OTHER}  # another known value (findings._fewer_bugs)
        notes[f.option] = (
            f"(the fixtures' other reading, {f.option}: {f.value}, is contradicted by "
            f"{counted(len(against))} of its clauses ({', '.join(against[:3])}"
            f"{' ...' if len(against) > 3 else ''}); this one leaves "
            f"{counted(len(bugs))} unexplained ({', '.join(bugs[:3])}"
            f"{' ...' if len(bugs) > 3 else ''}), and rules of the engine's own where "
            "the fixtures show them)")
        found = conclude(region)
    if not notes:
        return found
    best, findings, problems = found
    out = []
    for f in findings:
        if f.option in notes:
            f = dataclasses.replace(
                f, status="likely" if f.status == "sure" else f.status,
                evidence=[*f.evidence, notes[f.option]])
        out.append(f)
    return best, out, problems


def _as_declared(best: Solution, findings: list[OptionFinding],
                 declared: Ruleset | None, deals: Deals | None = None) -> list[OptionFinding]:
    """An option no fixture tells apart for the engine keeps the base's value; where the
    engine declares it `other`, that is its base: the rule is its own (never a known value
    nothing showed it plays). `best` is changed to match. A known value the fixtures show
    against the known value the engine declares is at most `likely`: a bug that plays
    another value on every table of its clauses looks just like that value, and the
    engine's word is the evidence against it (tandem's planted redraw is
    draw-until-playable on every drawn table; it declares draw-one). So is a known value
    found where the engine declares a rule of its own: no fixture contradicts `other`."""
    findings = _seat_measured(best, findings, declared, deals)
    findings = _procedure_measured(best, findings, declared, deals)
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
        elif (f.status == "sure" and declared[f.option] == OTHER
              and f.option not in ("tile_set", "hand_sizes")):
            # a house rule differs from each known value on some tables only: where the
            # fixtures hold none of them it answers as that value does, and no fixture
            # can tell the two apart (drover's own train first while the boneyard holds
            # tiles was `required`, sure, on 40 fixtures, none with the boneyard empty)
            f = dataclasses.replace(f, status="likely", evidence=[
                *f.evidence, f"(not sure: the engine declares a rule of its own, which "
                f"plays as {f.value} does on every table these fixtures hold and may differ "
                "on others; `mtrain conform` under the declaration runs the rest)"])
        out.append(f)
    return out
