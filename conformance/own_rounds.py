"""The rounds a match of one's own has, asked of the implementation before conform's
situations from play are chosen.

Under `match_length: other` the situations are dealt at any round of a full match (the
stand-in's), and each one at a round the implementation's match lacks is refused and not
applicable (partition.round_of_its_own): reefer, whose match is five rounds of a
double-8 set's nine, had 423 of its 1,047 results so, and 593 ran where the floor asks
800. So conform asks the implementation for the deal of a round, halving between round 1
and the full match's last, once for each player count of its table (a match's length may
depend on it, viaduct's), and leaves out the deals of later rounds (the count is raised
to the floor with those alone); the tables of later rounds too, but only where it refuses
one, or answers it `unsupported` while it plays one of a round it has (a table of the
first later round it lacks is asked; tipper answers so): signalbox deals eight rounds
of sixteen yet plays any table, and those tables ran (1,409 results; 941 with them left
out). Nothing is left out for a count whose round 1 is not dealt, or where a deal fails
otherwise: its rounds stay unknown.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from mtrain.conformance.adapter import JSON, Implementation
from mtrain.conformance.fixture import Fixture
from mtrain.conformance.interface import Unsupported
from mtrain.conformance.partition import round_of_its_own
from mtrain.conformance.runner import play, run_one
from mtrain.spec.ruleset import OTHER, Ruleset
from mtrain.spec.tilesets import highest


@dataclass(frozen=True)
class LastRounds:
    """What an implementation's own match has: `rounds`, player count -> the last round
    it deals at that count; `tables`, whether it refuses a table of a later round too
    (else only the deals of later rounds are left out)."""

    rounds: Mapping[int, int]
    tables: bool = True


def last_rounds(impl: Implementation, rs: Ruleset, sent: Ruleset) -> dict[int, int]:
    """For a rule set with a match length of its own (`rs`, played as `sent` on the
    wire): the last round `impl` deals at each count of its table; {} otherwise."""
    if rs["match_length"] != OTHER:
        return {}
    top = highest(rs["tile_set"])
    out: dict[int, int] = {}
    for n in rs.player_counts:
        last = _last_round(impl, sent, n, top)
        if last is not None:
            out[n] = last
    return out


def _last_round(impl: Implementation, sent: Ruleset, n: int, top: int) -> int | None:
    return last_dealt(lambda r: deals_round(impl, sent, n, top - r + 1), top + 1)


def deals_round(impl: Implementation, sent: Ruleset, players: int, engine: int,
                rj: JSON | None = None) -> bool | None:
    """Whether `impl` deals `players` the round whose engine is `engine` under `sent`
    (played as `rj` where given): True, False where it refuses, None where it is unknown
    (a crash, an unsupported answer)."""
    fx = Fixture(id="own-round", description="", clauses=(), source=(), path="<own-round>",
                 line=None, table=None, steps=(), expect=(),
                 deal={"players": players, "engine": engine, "order": "sorted"})
    try:
        played = play(fx, sent, impl, rj)
    except Exception:  # a crash, an unsupported answer: its rounds stay unknown
        return None
    if isinstance(played, tuple):
        return True
    return False if played.refusal is not None else None


def last_dealt(dealt: Callable[[int], bool | None], rounds: int) -> int | None:
    """The last round (1 to `rounds`, a full match's) that `dealt` says is dealt, halving
    between round 1 and the last: None where round 1 is not, or an answer is unknown."""
    lo, hi = 1, rounds
    if dealt(lo) is not True:
        return None
    if dealt(hi) is True:
        return hi
    while hi - lo > 1:  # round lo is dealt, round hi refused
        mid = (lo + hi) // 2
        got = dealt(mid)
        if got is None:
            return None
        lo, hi = (mid, hi) if got else (lo, mid)
    return lo


def within(made: Sequence[Fixture], rs: Ruleset, last: LastRounds | None) -> list[Fixture]:
    """The situations of `made` at rounds the implementation's match has (`last`, from
    by_ruleset): one whose round or count it does not know is kept, and a table wherever
    the implementation plays tables of rounds it does not deal."""
    if last is None or not last.rounds:
        return list(made)
    return [fx for fx in made if (fx.table is not None and not last.tables)
            or not _past(fx, rs, last.rounds)]


def _past(fx: Fixture, rs: Ruleset, rounds: Mapping[int, int]) -> bool:
    """Whether `fx` is set in a round after the last `rounds` gives at its count."""
    round_no = round_of_its_own(fx, rs)
    if fx.table is not None:
        players = len(fx.table.get("hands") or {})
    else:
        players = int((fx.deal or {}).get("players", 0))
    return round_no is not None and round_no > rounds.get(players, round_no)


def _refuses_tables(impl: Implementation, rs: Ruleset, sent: Ruleset,
                    rounds: Mapping[int, int], made: Sequence[Fixture]) -> bool:
    """Whether `impl` refuses the first situation of `made` set at a table of a round
    after its last (no such table: nothing to leave out, True): its setup refused, or
    the table answered `unsupported`, as one its own rules never reach (docs/protocol.md,
    errors), where it answers a table of a round its match has (tipper: 507 of 1,362
    results were such tables answered so, not applicable, until this read them)."""
    past = next((fx for fx in made if fx.table is not None and _past(fx, rs, rounds)), None)
    if past is None:
        return True
    asked = _asked(impl, sent, past)
    if asked != "unsupported":
        return asked == "refused"
    kept = next((fx for fx in made if fx.table is not None and not _past(fx, rs, rounds)),
                None)  # unsupported for its round, not for what every table has
    return kept is not None and _asked(impl, sent, kept) not in ("unsupported", "unknown")


def _asked(impl: Implementation, sent: Ruleset, fx: Fixture) -> str:
    """How `impl` answers `fx`'s table, asked as conform asks it (its entry's questions):
    "refused" (its setup), "unsupported", "unknown" (a crash, any other error) or
    "played"."""
    try:
        outcome = run_one(fx, sent, fx.expect[0], impl)
    except Unsupported:
        return "unsupported"
    except Exception:  # a crash, another error: not a refused round
        return "unknown"
    return "refused" if outcome.refusal is not None else "played"


def by_ruleset(impl: Implementation, rulesets: Sequence[Ruleset], count: int
               ) -> dict[str, LastRounds]:
    """The rounds of each rule set with a match length of its own (last_rounds), by its
    name, and whether `impl` refuses its tables past them, asked of one of its `count`
    situations (those whose rounds stay unknown left out)."""
    from mtrain.conformance.situations import situations, stand_in_for  # z3: only if asked

    out: dict[str, LastRounds] = {}
    for rs in rulesets:
        sent = stand_in_for(rs) if rs["match_length"] == OTHER else None
        found = last_rounds(impl, rs, sent) if sent is not None else {}
        if found and sent is not None:
            made = situations(rs, count)
            out[rs.name] = LastRounds(found, _refuses_tables(impl, rs, sent, found, made))
    return out
