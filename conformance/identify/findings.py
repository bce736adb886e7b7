"""Each option's finding in an answer: its margin over the best rival value, how sure
that makes it, and whether fixtures of its own clauses contradict it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

import z3

from mtrain.conformance.identify import bugs
from mtrain.conformance.identify.cells import ANY, Piece
from mtrain.conformance.identify.found import OptionFinding, counted
from mtrain.conformance.identify.measure import Deals
from mtrain.conformance.identify.solve import FIXTURE, NO_OTHER, Model, Solution, Solver
from mtrain.spec.catalog import Catalog
from mtrain.spec.ruleset import CUSTOM, OTHER
from mtrain.spec.scope import Space

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

def _checks(situations: frozenset[str], evidence: Sequence[str],
            erred: frozenset[str] = frozenset()) -> float:
    """The fixtures of `evidence` counted as independent checks: a fixture of the corpus
    one, a situation from play SITUATION_WEIGHT, one the engine answered with an error
    alone (`erred`) none: an error, like a crash, is no evidence that a rule is played
    (an engine that dies on some tables errs there under any rules), though it may rule
    out values under which the table plays. (A fixture asked again under another table,
    tables.py, is put in `erred` too: the same fixture, no check of its own.)"""
    return sum(0.0 if fid in erred else SITUATION_WEIGHT if fid in situations else 1.0
               for fid in evidence)


def answered_alike(deals: Deals) -> list[str]:
    """Dealing nothing, the tile sets besides the one read whose sampled tables the engine
    answers as fully as that one's: an engine answers the tables of any set whose tiles it
    can hold, so these tell its set no better than the one read."""
    read, asked = deals.read_counts.get(deals.read_set or "", (0, 0))
    if not asked:
        return []
    share = read / asked
    return [s for s, (n, k) in deals.read_counts.items()
            if s != deals.read_set and k and n / k >= share * 0.9]


def _set_read(option: str, value: str, deals: Deals) -> OptionFinding | None:
    """The tile set, and the hand table that follows from it, of an engine that dealt
    nothing: likely where one set's tables alone are answered; undetermined where several
    sets' are alike (a set the suite lacks looks so: tramway's double-11 answered every
    table up to double-10, dealt none, and was read `double-8, likely`)."""
    alike = answered_alike(deals)
    if option == "hand_sizes":
        if not alike:
            return None  # the set is read: its table as the fixtures weigh it
        return OptionFinding(option, value, "undetermined", 0, [
            f"it dealt nothing, so no table was measured; {value} only follows the tile "
            f"set read from its tables, itself undetermined"])
    if not alike:
        return OptionFinding(option, value, "likely", 0, [
            "it dealt nothing: the set whose tables it answers most"])
    refused = [s for s, (n, k) in deals.read_counts.items() if k and not n]
    return OptionFinding(option, value, "undetermined", 0, [
        f"it dealt nothing (every deal refused or left unanswered) and answers the tables "
        f"of {', '.join([value, *alike])} alike"
        + (f" and none of those of {', '.join(refused)}" if refused else "")
        + ": its set cannot be told from them, and may be one the suite does not know"],
        alternatives=alike)


def _finding(option: str, best: Solution, solver: Solver, model: Model, deals: Deals,
             fixed: Mapping[str, str], suspects: Mapping[str, Sequence[str]],
             base: Mapping[str, str],
             checks: Callable[[Sequence[str]], float] = len) -> OptionFinding:
    value = best.values[option]
    if option in deals.evidence and option in fixed:
        return OptionFinding(option, CUSTOM if option == "hand_sizes" and (
            value == CUSTOM or value.startswith(f"{CUSTOM}:")) else value, "measured", 0,
            [deals.evidence[option]])
    if option in ("tile_set", "hand_sizes") and deals.read_set is not None and (
            option == "tile_set" or not deals.table):
        read = _set_read(option, value, deals)
        if read is not None:
            return read
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


def _nearest(f: OptionFinding, best: Solution, solver: Solver, model: Model,
             fixed: Mapping[str, str], agree: Mapping[str, tuple[int, int]]
             ) -> OptionFinding:
    """An option found `other` with its rival named by agreement (bugs.agreement): the
    known value whose outcomes the engine's answers fit most often, over the fixtures that
    tell the values apart, as the nearest to its rule of its own; the evidence, the
    fixtures that value alone leaves unexplained. The solver's rival is the value the
    fewest fixtures contradict, which favours a value the corpus checks little. Kept
    where no fixture tells the values apart, or no rule set has the value (the margin
    stays the solver's: what `other` wins by over any known value)."""
    if f.value != OTHER or not f.alternatives or f.alternatives[0] == OTHER:
        return f
    rival = f.alternatives[0]
    order = list(model.options[f.option])
    ranked = sorted((v for v, (_, told) in agree.items() if told),
                    key=lambda v: (-nearness(*agree[v]), -agree[v][0], v != rival,
                                   order.index(v) if v in order else len(order)))
    if not ranked:
        return f
    said = tuple((v, *agree[v]) for v in ranked)
    near = ranked[0]
    if near == rival:
        return replace(f, agreement=said)
    keep = [z3.Not(model.eq(o, OTHER)) for o in model.options
            if best.values[o] != OTHER and o not in fixed]
    taking = solver.solve([model.eq(f.option, near), *keep], ties=True)
    if taking is None:
        return replace(f, agreement=said)
    return replace(f, evidence=sorted(set(taking.violated) - set(best.violated)),
                   alternatives=[near], agreement=said)


def nearness(agreed: int, told: int) -> float:
    """How near a value is by its agreement: the share of the entries checking its
    answers that the engine passes (ties: the more entries passed, then the solver's
    rival). (Laplace's smoothing was tried: it set a value checked on 6 entries and
    passed on none above one passed on 1 of 30.)"""
    return agreed / told


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
        # each rule with the number of those fixtures it pins: a union of names alone
        # read as if each decided them all (reefer's 33 scoring fixtures named its
        # `blank_values: other`, which pins 3 of them; its match length of its own, 31)
        pins = {o: sum(any(o in p.region for p in parts[fid]) for fid in decided)
                for o in own}
        named = ", ".join(
            (f"{o}: {OTHER}" if values[o] == OTHER else f"{o} undetermined") + f" in {n}"
            for o, n in sorted(pins.items()) if n)
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
                  existence: Mapping[str, frozenset[str]] | None = None,
                  reached: Callable[[str], bool] = lambda fid: True) -> OptionFinding:
    """A value that fixtures show, contradicted by fixtures of the same clauses (those
    the option's values bring in): a rule of the engine's own looks so, and so does a bug
    in those clauses that the engine makes everywhere. identify cannot tell which, and
    says so rather than naming the value (or `other`) as found: status `contradicted`,
    the value kept as the solver found it, both sets of fixtures in the evidence. For a
    known value, a fixture against it is one left unexplained that another value of the
    option alone would explain (`alone`). Never a fixture whose table the answer's rules
    never reach (`reached`): what an engine answers there is no rule's."""
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
    against = [fid for fid in against if reached(fid)]
    told = f"{counted(len(shown), verb='show')} {value} ({', '.join(shown[:3])}" \
        f"{' ...' if len(shown) > 3 else ''})"
    if fit is not None:  # named by the values each fixture shows (bugs.shows)
        shown, told = bugs.shows(value, shown, lambda fid: fit(fid, f.option))
    if not shown or not against:
        return f
    clauses = sorted({c for fid in against for c in speaks.get(fid, frozenset()) & own})
    fewer = None
    if f.value != OTHER:  # the other reading: what it needs read as bugs (_fewer_bugs)
        fewer = _fewer_bugs(f.option, f.value, best, solver, model, against)
    # weighed by their counts, as bugs.with_a_bug weighs a value with a bug: a few
    # fixtures against many are a bug in those tables, or a rule of its own differing on
    # them alone, and say so; never `sure` (gantry, bugs on: `blank_values: face` shown by
    # 43 fixtures, match-009 against it; ballbridge's follow-up of its own, `other`, shown
    # the known value by 3 against 32 to 36)
    if f.value != OTHER and fewer is None and len(shown) >= bugs.RATIO * len(against):
        one = len(against) == 1
        return replace(f, status="likely", evidence=[*f.evidence, (
            f"(not sure: {counted(len(against))} of the same clauses ({', '.join(clauses)}) "
            f"against it ({_some(against)}) {'is read as a bug' if one else 'are read as bugs'}"
            f" against {len(shown)} that show it: a bug on such tables, or a rule of its own "
            "that differs there alone)")])
    if f.value == OTHER and len(against) >= bugs.RATIO * len(shown):
        return f  # its own rule; the few that show the value: bugs, or tables alike
    return OptionFinding(f.option, f.value, "contradicted", f.margin, [
        f"{told}, {len(against)} of the same clauses "
        f"({', '.join(clauses)}) contradict{'s' if len(against) == 1 else ''} it "
        f"({', '.join(against[:3])}"
        f"{' ...' if len(against) > 3 else ''}): a bug in {', '.join(clauses)} the engine "
        f"makes on every such table, or a rule of its own"],
        # what else it may be: the value's rival, or (the value kept) a rule of its own
        [value] if value != f.value else [OTHER], fewer, f.agreement)


def _fewer_bugs(option: str, value: str, best: Solution, solver: Solver, model: Model,
                against: Sequence[str]) -> tuple[str, tuple[str, ...], tuple[str, ...]] | None:
    """The best reading without `value` (another known value of `option`, the rest free:
    rules of their own where the fixtures show them), where it leaves fewer fixtures
    unexplained than the fixtures of the option's clauses that contradict `value`
    (`against`): its value, the fixtures it reads as bugs, and `against`. The answer
    chose `value` then not for the fixtures but for the price of the rules of one's own
    the other reading needs (trestle, its bugs on: `doubles: ordinary`, contradicted by 7
    fixtures, won over open doubles with 2 bugs because a double that ends the turn makes
    its follow-up and double-order rules, both its own, nobody's business). None where
    the answer's reading needs no more."""
    # (a known value: `other` would read the fixtures against `value` as a rule of its
    # own, the bugs the comparison is about; the rest free)
    rival = solver.solve([z3.Not(model.eq(option, value)), z3.Not(model.eq(option, OTHER))],
                         ties=True)
    if rival is None:
        return None
    bugs_needed = tuple(sorted(set(rival.violated) - set(best.violated)))
    if len(bugs_needed) >= len(against):
        return None
    return rival.values[option], bugs_needed, tuple(against)
