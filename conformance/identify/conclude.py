"""An answer and its findings over the fixtures seen: the weighted MaxSAT's best rule
set (solve.py), each option's finding (findings.py), and the likely bugs (a seat
the rules forbid, values the catalogue's rules between options forbid).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import z3

from mtrain.conformance.fixture import Fixture
from mtrain.conformance.identify import bugs
from mtrain.conformance.identify.cells import Piece
from mtrain.conformance.identify.findings import (
    _checks,
    _contradicted,
    _finding,
    _nearest,
    _settling,
)
from mtrain.conformance.identify.found import Observation, OptionFinding
from mtrain.conformance.identify.from_play import _from_play
from mtrain.conformance.identify.measure import Deals
from mtrain.conformance.identify.solve import FIXTURE, Model, Solution, Solver
from mtrain.conformance.identify.tables import asked_again
from mtrain.conformance.selection import readings, unreached
from mtrain.spec.catalog import Catalog, RulesetError
from mtrain.spec.errors import InputError
from mtrain.spec.model.reachable import reachable_problems
from mtrain.spec.notation import FixtureError
from mtrain.spec.ruleset import OTHER, Ruleset
from mtrain.spec.scope import Region, Space

Until = Callable[[Solution, OptionFinding], bool]
"""until(best, finding): whether an answer's findings may stop at this one (_conclude)."""

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
    best = declared_kept(solver, model, base, fixed, best)
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
    checks = functools.partial(
        _checks, frozenset(obs.fixture.id for obs in observations if _from_play(obs.fixture)),
        erred=frozenset(obs.fixture.id for obs in observations
                        if obs.erred or asked_again(obs.fixture)))
    # what the answers fit, for the nearest known value to a rule found `other` (not an
    # answer of errors alone: an engine that cannot go on errs under any rules, _checks)
    judged = {obs.fixture.id: obs.outcomes for obs in observations if not obs.erred}
    findings = []
    for o in model.options:
        f = _finding(o, best, solver, model, deals, fixed, suspects, base, checks)
        if f.value == OTHER and f.alternatives:
            f = _nearest(f, best, solver, model, fixed, bugs.agreement(
                o, best.values, list(space.options[o]), judged, parts))
        findings.append(f)
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
                              existence, _reached(best, space, own, observed))
                for f in findings]
    undecided = frozenset(f.option for f in findings if f.status == "undetermined")
    for f in findings:
        if f.status == "undetermined":
            f.evidence.append(_settling(f.option, best.values, space, parts, seen, undecided))
        if f.option == "starting_seat" and seat_note is not None:
            f.evidence.append(seat_note)
    return best, findings, problems


def _reached(best: Solution, space: Space, own: tuple[tuple[int, int], ...] | None,
             observed: Mapping[str, Observation]) -> Callable[[str], bool]:
    """Whether the answer's rules may have fixture `fid`'s table (selection.unreached):
    an answer on a table they never reach says nothing for or against them (gandy's first
    commit answered bad-request on chain tables, end-025..029, read as contradicting
    `doubles: open` under `first_turn: single`, which never has them)."""
    plain, table = space.catalog_form(best.values)
    try:
        rs = space.cat.from_values(plain, "answer", own or table)
    except RulesetError:
        return lambda fid: True

    @functools.cache
    def reached(fid: str) -> bool:
        obs = observed.get(fid)
        return obs is None or (unreached(obs.fixture, rs) is None
                               and not _never_played_to(obs.fixture, rs))
    return reached


def _never_played_to(fx: Fixture, rs: Ruleset) -> bool:
    """Whether no round under `rs` (each `other` read as each known value) comes to
    `fx`'s table by the model's every condition of reach (reachable_problems, as lint asks
    it of a table in scope), not its shapes alone: wagonway's open double of an earlier
    turn, still binding under `uncoverable_double: stays-open` when a follow-up is due
    (doubles-072, REACH-FOLLOW), read as contradicting stays-open. False where some reading
    may reach it, or the table does not build under one (the run says so)."""
    if fx.table is None:
        return False  # a deal: every rule set deals
    read = False
    for reading in readings(rs):
        try:
            table = fx.start(reading)
        except (FixtureError, ValueError, KeyError):
            return False
        if not reachable_problems(table, reading):
            return False
        read = True
    return read  # (no reading at all past READINGS_MAX: nothing said)


def declared_kept(solver: Solver, model: Model, base: Mapping[str, str],
                  fixed: Mapping[str, str], best: Solution) -> Solution:
    """`best` with each option the engine declares its own (`other` in `base`) played
    `other` wherever that explains the fixtures as well, the rest of the answer as it is:
    the engine's word is one tie-break (solve.BASE), and the solver's lean (a fixture
    explained by known values rather than by `other`, BASE each) outweighed it wherever
    another rule of its own explained the same fixtures. coaling declares its scoring its
    own (a double its train ends in charged to the owner); its `doubles: other` explained
    those round ends as well, `scoring: other` cost exactly what penalty did at each of
    its three answers, and the lean wrote penalty: "the fixtures lean away from the
    declared rules", which no fixture did."""
    for o in model.options:
        if base.get(o) != OTHER or o in fixed or best.values[o] == OTHER:
            continue
        same = solver.solve([model.eq(o, OTHER), *(model.eq(k, v) for k, v in
                                                  best.values.items() if k != o)])
        if same is not None and same.cost <= best.cost:
            best = same
    return best


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


def unexplained(model: Model, soft: Sequence[tuple[Any, str]], values: Mapping[str, str],
                violated: Sequence[str]) -> list[str]:
    """Of the fixtures the solver's answer left unexplained (`violated`), those the final
    reading `values` leaves unexplained too: some constraint of theirs (solve.constraint,
    as seen, none read as a bug) fails there. The likely bugs follow what is written, not
    the answer before run._as_declared changed it: a failure an option written `other`
    there can decide is that rule's, as conform makes it not applicable, and no bug
    (layover's lead moving right, written `other` on its deals after the fixtures had
    leaned to heaviest-in-hand, left 40 likely bugs, seat-007 and winx-002 among them, on
    an engine with none; 10 now). None is added: a fixture the answer explained passed
    or failed as a known value says, which `other` there plays as well."""
    at = z3.Solver(ctx=model.ctx)
    at.add(*(model.eq(o, v) if values[o] == v else z3.Not(model.eq(o, v))
             for o, known in model.options.items() for v in [*known, OTHER]))
    if at.check() != z3.sat:  # one value per option: always a model
        raise AssertionError("the final reading is no assignment of the option space")
    terms = [c for c, _ in soft]
    held = model.held(at.model(), terms, [t.get_id() for t in terms])
    asked = {fid for _, fid in soft}
    failing = {fid for (_, fid), true in zip(soft, held, strict=True) if not true}
    return [fid for fid in violated if fid in failing or fid not in asked]
