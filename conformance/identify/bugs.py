"""A known value with a bug, or a rule of the engine's own: what the fixtures say.

The solver (solve.py) calls an option `other` wherever that explains more fixtures than
it costs (PRIOR_OTHER). A planted bug does the same: the engine plays a known value, but
fails a few tables, and `other` absorbs them. The two differ in the shape of the failures
(issue 21):

- a failure that occurs under every value of the option alike (the values agree on the
  fixture, or only one of them can hold its table) is no evidence about the option at all:
  a bug in a neighbouring clause, which `other` on any option the outcome reads absorbs;
- a bug is a narrow deviation: the engine plays the value on the tables its clauses
  decide, failing a few of them; a rule of its own differs from the value on a large part
  of those tables.

So an option found `other`, with a known value v the fixtures show, is written v (never
more than `likely`, the fixtures against it left unexplained, as likely bugs) when no
fixture against v is evidence about the option, or when the fixtures that show v (where
the engine gives v's outcome and no other known value's: one that tells only other values
apart says nothing of a rule near v) outnumber those against it RATIO times
(DECLARED_RATIO times where the engine declares v itself, counting against it no
fixture that a rule of the engine's own on another option explains: explained_elsewhere).
An engine that declares the option `other` keeps it. An option found `other` whose
declared value nothing contradicts once those fixtures are set aside, where no fixture
shows any of its values, is written as declared, undetermined (`unopposed`: when `other`
is earned).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from mtrain.conformance.identify import solve
from mtrain.conformance.identify.cells import ANY, Piece
from mtrain.conformance.identify.found import counted
from mtrain.spec.ruleset import OTHER, Ruleset
from mtrain.spec.scope import Space

RATIO = 6
"""Fixtures showing the value per fixture against it, for an undeclared option to be read
as the value with a bug. Set where a fixture showed a value wherever the values told it
apart (a bug gave 7.8 to 24, a rule of its own 1.1 to 5.3). Measured again (session 51,
eleven example engines) since one shows it only where no other known value gives the
engine's outcome: a rule of its own 0.5 to 3.1 (tender's doubles, declared `other`;
undeclared, 0.5 to 1.8), a bug 0.16 to 1.8 (railyard's chain first turn, a bug through
the rule's every table, 0.16): no count tells them apart now, so an undeclared value
is read with a bug only where the evidence for it is overwhelming, as before."""
DECLARED_RATIO = 1
"""The same where the engine declares the value: its own word tips an even count (measured,
session 51: the declared value with a bug 1.0 and 1.2 to 1.8, caboose's tie rule and
tandem's blank values, both written `other` at 3; the declared value where the engine
plays a rule of its own near it 0.33 to 0.6, marshal's scoring; at 1 no other reading
of the eleven engines changed)."""


@dataclass(frozen=True)
class Shape:
    """The fixtures about one option, by what the engine's outcomes fit (the other
    options at the answer's values, an option answered `other` at any)."""

    shows: tuple[str, ...]  # the engine gives v's outcome, which no other value gives
    like_another: tuple[str, ...]  # against v: the outcome of another known value only
    unlike_all: tuple[str, ...]  # against v: the values differ, the engine fits none
    alike: tuple[str, ...]  # against v: fits none, the values agree (no evidence)

    @property
    def against(self) -> tuple[str, ...]:
        """The fixtures against v that are evidence about the option."""
        return self.like_another + self.unlike_all


def fits(option: str, values: Mapping[str, str], known: Sequence[str],
         outcomes: Sequence[str | None], pieces: Sequence[Piece]
         ) -> tuple[frozenset[str], bool] | None:
    """The known values of `option` whose outcomes (not only ANY) the engine's match,
    the rest at `values`; and whether the values tell the fixture apart (two of them give
    different outcomes, other than ANY). None when nothing was seen."""
    found = _by_value(option, values, known, outcomes, pieces)
    if found is None:
        return None
    fit, by_value = found
    # told apart where two values give different outcomes: not where the outcomes differ
    # only by another option's value, as each value of this one gives them all alike (a
    # deal telling starting seats apart said nothing of own_train_first, and counted
    # against its value in ballast's run, where the seat is the engine's own)
    told = len({frozenset(outs) for outs in by_value.values() if outs}) > 1
    return fit, told


def _by_value(option: str, values: Mapping[str, str], known: Sequence[str],
              outcomes: Sequence[str | None], pieces: Sequence[Piece]
              ) -> tuple[frozenset[str], dict[str, set[tuple[str, ...]]]] | None:
    """fits' values that fit, and each known value's outcomes at the entries seen (none
    for a value whose rules never hold the table); None when nothing was seen."""
    seen = [(i, o) for i, o in enumerate(outcomes) if o is not None]
    if not seen:
        return None
    by_value: dict[str, set[tuple[str, ...]]] = {v: set() for v in known}
    for p in pieces:
        if not all(values[o] in vs or values[o] == OTHER
                   for o, vs in p.region.items() if o != option):
            continue
        got = tuple(p.outcomes[i] for i, _ in seen)
        if all(g == ANY for g in got):
            continue  # a table these rules cannot hold: any answer fits
        for v in p.region.get(option, known):
            if v in by_value:
                by_value[v].add(got)
    fit = frozenset(v for v, outs in by_value.items()
                    if any(all(g in (o, ANY) for g, (_, o) in zip(t, seen, strict=True))
                           for t in outs))
    return fit, by_value


def agreement(option: str, values: Mapping[str, str], known: Sequence[str],
              seen: Mapping[str, Sequence[str | None]], parts: Mapping[str, Sequence[Piece]]
              ) -> dict[str, tuple[int, int]]:
    """For each known value of `option` (the rest at `values`, an option at `other` any
    value): of the entries seen that check its answer (on a fixture whose outcomes the
    values differ in, an entry some piece of it passes: the value with the rest of the
    answer, its rules of its own read as any value, gives the expected answer), how many
    the engine passes too, and how many there are (entries, not fixtures: a rule of one's
    own near the value fails some entries of most of its tables, and passes the rest).
    An entry the value fails says only that its answer is not the one expected, not what
    it is: an engine failing it too does not agree with it (a house scoring fails the
    corpus's many penalty tables as positive scoring does). The nearest value to a rule
    of the engine's own is the one it agrees with most often, not the one the fewest
    fixtures contradict: that one is often a value the corpus checks little (dolly's
    tile tax, pips plus 5 a tile, penalty-like, was named nearest positive, which 12
    fixtures contradict and none shows)."""
    out = {v: (0, 0) for v in known}
    for fid, outcomes in seen.items():
        found = _by_value(option, values, known, outcomes, parts.get(fid, ()))
        if found is None:
            continue
        _, by_value = found
        if len({frozenset(outs) for outs in by_value.values()}) < 2:
            continue  # every value gives the same outcomes: nothing to tell them by
        got = [o for o in outcomes if o is not None]
        for v, outs in by_value.items():
            checked = [k for k in range(len(got)) if any(t[k] == "pass" for t in outs)]
            if checked:
                agreed, told = out[v]
                out[v] = (agreed + sum(got[k] == "pass" for k in checked),
                          told + len(checked))
    return out


def shape(option: str, value: str, values: Mapping[str, str], space: Space,
          violated: frozenset[str], seen: Mapping[str, Sequence[str | None]],
          parts: Mapping[str, Sequence[Piece]],
          moments: Mapping[str, frozenset[str]] | None = None) -> Shape:
    """The fixtures seen, sorted for `option` and its known `value` (Shape): against it,
    those the answer `values` explains (`other` on the option, or elsewhere) and `value`
    does not; `violated`: those the answer leaves unexplained (no evidence either way).
    A fixture whose known values agree is evidence all the same where the option decides
    its moment (`moments`: the options its clauses name, solve.moment_options) and the
    runs at the answer read it: a rule of one's own there is what conform would not run
    (trestle's drawn tile played anywhere, on 32 tables both draw rules agree on)."""
    known = list(space.options[option])
    shows: list[str] = []
    like: list[str] = []
    unlike: list[str] = []
    alike: list[str] = []
    for fid, outcomes in seen.items():
        if fid in violated:
            continue
        found = fits(option, values, known, outcomes, parts.get(fid, ()))
        if found is None:
            continue
        fit, told = found
        if value not in fit:
            if fit:
                like.append(fid)
            elif told or (option in (moments or {}).get(fid, ())
                          and reads_at(option, values, parts.get(fid, ()), outcomes)):
                unlike.append(fid)
            else:
                alike.append(fid)
        elif told and fit == {value}:
            # v's outcome and no other known value's: a table that tells v from a rule of
            # the engine's own near it. One that tells only other values apart (positive
            # scoring from both penalty rules) passes as well where the engine breaks v's
            # own clauses: marshal's blocked round, the hand worth least scoring 0, was
            # "shown" penalty-blocked-winner by 68 such tables and 3 of its own
            shows.append(fid)
    return Shape(tuple(sorted(shows)), tuple(sorted(like)), tuple(sorted(unlike)),
                 tuple(sorted(alike)))


def reads_at(option: str, values: Mapping[str, str], pieces: Sequence[Piece],
             outcomes: Sequence[str | None]) -> bool:
    """Whether a run at the answer `values` (any value of `option`, an option at `other`
    any value) read `option`, no value of which lacks the table (its pieces' outcomes
    ANY where seen: such an option opens the moment, another decides it, as
    solve.moment says)."""
    seen = [i for i, o in enumerate(outcomes) if o is not None]
    if any(option in p.region and all(p.outcomes[i] == ANY for i in seen) for p in pieces):
        return False
    return any(option in p.read for p in pieces
               if all(values[o] in vs or values[o] == OTHER
                      for o, vs in p.region.items() if o != option))


def astray(values: Mapping[str, str], pieces: Sequence[Piece],
           outcomes: Sequence[str | None]) -> frozenset[int] | None:
    """The entries whose outcome no piece at `values` gives (an option at `other`: any
    value): those a fixture read as a bug fails against the answer, not the entries of
    other rules, which it fails as those rules say. None where no piece has `values`."""
    at = [p for p in pieces if all(values[o] in vs or values[o] == OTHER
                                   for o, vs in p.region.items())]
    if not at:
        return None
    return frozenset(i for i, o in enumerate(outcomes)
                     if o is not None and not any(p.outcomes[i] in (o, ANY) for p in at))


def with_a_bug(s: Shape, declared: str | None, value: str) -> bool:
    """Whether the shape is that of `value` played with a bug (the module docstring)."""
    if declared == OTHER:
        return False
    if not s.against:
        return bool(s.shows)
    ratio = DECLARED_RATIO if declared == value else RATIO
    return len(s.shows) >= ratio * len(s.against)


def note(option: str, value: str, s: Shape, clauses: Callable[[str], frozenset[str]]
         ) -> str:
    """The evidence line of an option written as a value with a bug."""
    against = [*s.against, *s.alike]
    # where the bugs lie: the fixtures that tell the values apart say it, where there are
    # any; those that fail alike under every value are no evidence about the option (a
    # rule of the engine's own, another bug), and outnumbered them in bogie's note, whose
    # bug 1 (DBL-12, 7 of the 8) was said to lie in TRAIN-4, TURN-4, TRAIN-2.
    # (each fixture's clauses in order: most_common keeps ties in the order first met,
    # which a set's iteration would leave to the string hashing of the process)
    told = s.against or against
    common = Counter(c for fid in told for c in sorted(clauses(fid))).most_common(3)
    where = ", ".join(c for c, _ in common) + (
        f" (the {len(s.against)} that tell the values apart)"
        if common and s.against and s.alike else "")
    one = len(against) == 1
    return (f"{counted(len(s.shows), verb='show')} {value} ({', '.join(s.shows[:3])}"
            f"{' ...' if len(s.shows) > 3 else ''}); {len(against)} against it "
            f"({', '.join(against[:3])}{' ...' if len(against) > 3 else ''}"
            + (("; it fails" if one else f"; {len(s.alike)} of them "
                + ("fails" if len(s.alike) == 1 else "fail"))
               + f" under every value of {option} alike" if s.alike else "")
            + f") {'is read as a bug' if one else 'are read as bugs'}"
            f"{f' in {where}' if where else ''}: written {value}, or other if "
            f"{'it is' if one else 'they are'} a rule of its own")


def explained_elsewhere(option: str, values: Mapping[str, str], known: Sequence[str],
                        outcomes: Sequence[str | None], pieces: Sequence[Piece]) -> bool:
    """Whether the engine's outcomes, which no known value of `option` gives (`fits`),
    are given by a rule of its own on another option the fixture reads, `other` in the
    answer `values` (solve.constraint takes any outcome there): a deal whose starting
    seat is the engine's own fails alike under every value of own_train_first, and is no
    bug in it, nor a likely bug at all."""
    found = fits(option, values, known, outcomes, pieces)
    if found is None:
        return False
    if found[0]:
        # fitted only as every entry fails: the values the fixture has no entry for (an
        # answer none of its entries gives), which a rule of one's own on an option its
        # outcomes depend on gives as well: tramway's blanks and ties of its own failed
        # every entry of 22 scoring tables, 14 of which "showed" positive scoring, all
        # against its declared penalty (16 show it): with its bug, the out player scoring
        # the double gone out on, it was read as scoring: other on a margin of one
        seen = [o for o in outcomes if o is not None]
        return all(o == "fail" for o in seen) and any(
            values.get(o) == OTHER for o in solve.depends(pieces) if o != option)
    reads = {o for p in pieces for o in (*p.region, *p.read)}
    return any(values.get(o) == OTHER for o in reads if o != option)


def owned_elsewhere_aside(s: Shape, option: str, values: Mapping[str, str], space: Space,
                          seen: Mapping[str, Sequence[str | None]],
                          parts: Mapping[str, Sequence[Piece]],
                          bugged: frozenset[str] = frozenset()) -> Shape:
    """Shape `s` without the fixtures against its value that a rule of the engine's own
    on another option explains (`explained_elsewhere`), nor those of `bugged` (read as
    bugs in another option's clauses)."""
    known = list(space.options[option])

    def kept(fids: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(f for f in fids if f not in bugged and not explained_elsewhere(
            option, values, known, seen.get(f, ()), parts.get(f, ())))
    return Shape(s.shows, kept(s.like_another), kept(s.unlike_all), kept(s.alike))


def unopposed(weighed: Shape, option: str, value: str, values: Mapping[str, str],
              space: Space, violated: frozenset[str], seen: Mapping[str, Sequence[str | None]],
              parts: Mapping[str, Sequence[Piece]],
              moments: Mapping[str, frozenset[str]] | None = None) -> bool:
    """Whether the declared `value` of an option found `other` stands on no evidence
    either way: nothing against it (`weighed`, the fixtures another option's rule of its
    own or bugs explain set aside) and no fixture showing any known value of the option.

    The principle: `other` is earned by fixtures that tell the option's values apart and
    that the engine fails under every known value (or answers as another value does)
    where no other option's rule of its own or bug explains the failure. Fixtures that
    fit no value only because another clause changed what they check (trolley's scoring
    bug moved every total its tie tables compare) are evidence of that clause, not of
    this one: `other` would accept them as it accepts any outcome, and would do so for a
    bug in any neighbouring clause. With nothing for or against any value, the engine's
    word is all there is: its value, undetermined."""
    if weighed.against or weighed.shows:
        return False
    return not any(shape(option, v, values, space, violated, seen, parts, moments).shows
                   for v in space.options[option] if v != value)


def declared_value(declared: Ruleset | None, option: str) -> str | None:
    if declared is None:
        return None
    try:
        return declared[option]
    except KeyError:
        return None


def shows(value: str, shown: Sequence[str],
          fit: Callable[[str], frozenset[str] | None]) -> tuple[list[str], str]:
    """The fixtures of `shown` that show `value` (its outcome, given the rest of the
    answer), and in words what all of `shown` show: each group by the values it fits,
    never `value` for a fixture it does not fit ("13 fixtures show blank-25" said of
    tables an engine counting blanks 10 fails under every known value)."""
    groups: dict[tuple[str, ...], list[str]] = {}
    for fid in shown:
        got = fit(fid)
        key = ("",) if got is None else tuple(sorted(got, key=lambda v: (v != value, v)))
        groups.setdefault(key, []).append(fid)
    ordered = sorted(groups.items(), key=lambda kv: (value not in kv[0], -len(kv[1])))
    parts = []
    for key, fids in ordered:
        what = ("no known value" if key == () else "nothing seen" if key == ("",)
                else " or ".join(key))
        parts.append(f"{counted(len(fids), verb='show')} {what} ({', '.join(fids[:3])}"
                     f"{' ...' if len(fids) > 3 else ''})")
    mine = [fid for key, fids in groups.items() if value in key for fid in fids]
    return mine, "; ".join(parts)


def unopposed_note(option: str, value: str, s: Shape,
                   clauses: Callable[[str], frozenset[str]]) -> str:
    """The evidence line of a declared value written on no evidence either way
    (`unopposed`): the fixtures against it, which other clauses explain, and theirs."""
    against = [*s.against, *s.alike]
    common = Counter(c for fid in against for c in sorted(clauses(fid))).most_common(3)
    where = f", in {', '.join(c for c, _ in common)}" if common else ""
    return (f"no fixture shows any value of {option}; "
            + (f"the {len(against)} against the declared {value} "
               f"({', '.join(against[:3])}{' ...' if len(against) > 3 else ''}) fail under "
               f"another option's rule of its own or bug{where}, no evidence about it"
               if against else f"none is against the declared {value}")
            + f": written {value}, as declared, undetermined")
