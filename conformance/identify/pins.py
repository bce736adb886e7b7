"""Options found `other` whose fixtures have the shape of a known value played with a
bug (bugs.py): pinned to their known values, one re-solve each.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Mapping, Sequence

from mtrain.conformance.fixture import Fixture
from mtrain.conformance.identify import bugs, solve
from mtrain.conformance.identify.cells import Piece
from mtrain.conformance.identify.conclude import Until, _broken
from mtrain.conformance.identify.found import Observation, OptionFinding
from mtrain.conformance.identify.observe import SETUP_ONLY
from mtrain.conformance.identify.solve import Solution
from mtrain.spec.ruleset import OTHER, Ruleset
from mtrain.spec.scope import Region, Space

PINS = 3
"""Options at most read as a known value with a bug in one answer (bugs.py), one re-solve
each: pinning one may move `other` to the option whose rule it really is."""


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
    moments = {obs.fixture.id: solve.moment_options(obs.fixture.clauses, space.cat)
               for obs in observations}
    cited = {obs.fixture.id: frozenset(obs.fixture.clauses) for obs in observations}
    own = frozenset(o for o, v in (declared.choices if declared else ()) if v == OTHER)
    region: Region = dict(allowed)
    notes: dict[str, tuple[str, str]] = {}
    dropped: dict[str, frozenset[str]] = {}  # a fixture read as a bug: in which options
    pin: tuple[str, str, bugs.Shape, dict[str, str], bool] | None = None
    unsure: set[str] = set()  # pinned on no evidence either way (bugs.unopposed)
    past_early = past_an_early_end(observations)

    def pinned(best: Solution, f: OptionFinding) -> bool:
        """Whether `f` is the first option found `other` with a known value's shape with
        a bug (the findings are asked in the options' order): the pin, if so. Both the
        solver's rival value and the engine's declared one are asked: trolley's tie rule,
        declared shared, was tried only as the rival lowest-seat, which its scoring bug
        contradicts as much, and read `other` on fixtures no tie rule decides."""
        nonlocal pin
        if f.value != OTHER or f.option in notes:
            return False
        said = bugs.declared_value(declared, f.option)
        rival = f.alternatives[0] if f.alternatives else None
        for value in dict.fromkeys(v for v in (rival, said)
                                   if v is not None and v in space.options[f.option]):
            s = bugs.shape(f.option, value, best.values, space, frozenset(best.violated),
                           seen, parts, moments)
            if f.option in SETUP_ONLY:
                # a table that reads the option only for whether its round exists shows
                # nothing of a rule of one's own (observe.SETUP_ONLY): sleeper's match to
                # 200 points, declared `full`, was "shown" full by 500 tables of later
                # rounds
                s = dataclasses.replace(s, shows=tuple(
                    fid for fid in s.shows
                    if cited.get(fid, frozenset()) & SETUP_ONLY[f.option] and past_early(fid)))
            values = {**best.values, f.option: value}
            if said != value:  # an undeclared value stays weighed on everything (RATIO)
                if bugs.with_a_bug(s, said, value):
                    pin = f.option, value, s, values, False
                    break
                continue
            # the engine's own word is contradicted by no fixture that a rule of its own
            # on another option explains (bugs.explained_elsewhere), nor by one read as a
            # bug in another option's clauses: weighed without them
            weighed = bugs.owned_elsewhere_aside(s, f.option, values, space, seen, parts,
                                                 _elsewhere(f.option))
            if bugs.with_a_bug(weighed, said, value):
                pin = f.option, value, s, values, False
                break
            if bugs.unopposed(weighed, f.option, value, best.values, space,
                              frozenset(best.violated), seen, parts, moments):
                # nothing against the declared value, and nothing for any value: `other`
                # would be earned on no evidence of the option (principle: bugs.unopposed)
                pin = f.option, value, s, values, True
                break
        return pin is not None

    def _elsewhere(option: str) -> frozenset[str]:
        """The fixtures read as bugs in options other than `option` (a neighbouring
        clause's bug, not evidence about it)."""
        return frozenset(fid for fid, os in dropped.items() if os - {option})

    for _ in range(PINS):
        pin = None
        got = conclude(region, dropped, pinned)
        if pin is None:
            assert got is not None  # weighed whole where nothing was pinned
            found = got
            break
        option, value, s, values, empty = pin
        if empty:
            unsure.add(option)
        region[option] = frozenset(v for v in region.get(option, space.options[option])
                                   if v != OTHER)
        # read as bugs in the option, but for those a rule of the engine's own on another
        # option explains (bugs.explained_elsewhere): not bugs, so neither counted against
        # the value in its note nor listed as likely bugs
        clauses = functools.partial(_broken, {o.fixture.id: o for o in observations}, own,
                                    space.cat, values=values, parts=parts)
        if empty:
            notes[option] = (value, bugs.unopposed_note(option, value, s, clauses))
            continue  # nothing read as a bug in it: the fixtures against it are elsewhere's
        s = bugs.owned_elsewhere_aside(s, option, values, space, seen, parts)
        notes[option] = (value, bugs.note(option, value, s, clauses))
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
            status = ("undetermined" if f.option in unsure
                      else "likely" if f.margin >= 1 else f.status)
            f = OptionFinding(f.option, f.value, status, f.margin, [notes[f.option][1]],
                              [OTHER])
        elif (f.option in notes or f.option in suspects) and f.status == "sure":
            f = dataclasses.replace(f, status="likely", evidence=[
                *f.evidence, "(a fixture read as a bug involves this option)"])
        out.append(f)
    best.violated = sorted({*best.violated, *dropped})
    return best, out, problems


Position = tuple[int, int, int]
"""Where a match stands after a round: its number, the highest total, the most rounds won."""


def past_an_early_end(observations: Sequence[Observation]) -> Callable[[str], bool]:
    """past(fid): whether the fixture `fid`'s match is as far on as one the engine ended
    early (an entry over early, shared.over_early): no earlier round, no lower highest
    total, no fewer rounds won. Every fixture is, where none ended early. A match of the
    engine's own ends once a round, a total or a count of rounds won reaches its mark, and
    stays ended past it; a match going on only where no early end's mark is reached is
    what such a rule plays, no sign of `full` (sleeper's first to 200 points: 63 round
    ends of low totals "showed" full against 52 it had ended, and it was read `full`
    with bugs). Fixtures whose table is unknown are not past."""
    ends = [p for o in observations if o.over_early and (p := position(o.fixture)) is not None]
    if not ends:  # (no fixture's table read: none needed)
        return lambda fid: True
    at = {o.fixture.id: position(o.fixture) for o in observations}

    def past(fid: str) -> bool:
        here = at.get(fid)
        return here is not None and any(all(h >= e for h, e in zip(here, end, strict=True))
                                        for end in ends)
    return past


def position(fx: Fixture) -> Position | None:
    """Where the match of `fx`'s table stands after its round (Position): the totals its
    start holds plus the round's scores its first entry expects, where it does; None
    where no start was built (a deal, or a table not played)."""
    starts = fx.kept_starts()
    if not starts:
        return None
    start = next(iter(starts.values()))
    totals = list(start.get("scores") or [0])
    result = fx.expect[0].result if fx.expect else None
    scores = result.get("scores") if isinstance(result, dict) else None
    if isinstance(scores, list) and len(scores) == len(totals):
        totals = [t + s for t, s in zip(totals, scores, strict=True)]
    return int(start.get("round", 1)), max(totals), max(start.get("outs") or [0])
