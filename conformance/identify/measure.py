"""What the deals show directly: the tile set, the hand table, the engine procedure and
the starting seat.

A deal is asked for with an explicit pool (docs/protocol.md), so its answer can be
compared with what the rules would deal from that pool, exactly. The set is the highest
number dealt ([N-(N-1)] is never the engine: SET-1). The table is the hand size dealt
at every player count the engine accepts (DEAL-1, DEAL-7). The engine procedure and the
starting seat come from a few deals designed to tell them apart (the engine in the first
hand, in the second, last or first in the boneyard, or left out of the pool; rounds 1 and
2; in round 2 also beside the set's top double; and, left out, with the heaviest tile
dealt apart from the highest doubles and most pips, so that a start of one's own that
goes to a strong hand is not heaviest-in-hand's): the engine's answers (hands, boneyard,
where the engine is, who moves first, and where the players look for the engine, the
first steps they may take and the table after the first draw) are compared with the
reference engine's under each pair of values of the catalogue. A value is
measured only when every pair that matches every answer has it; an engine that lays the
engine from the holder's hand at once, which leaves it in the centre, is told from one
that sets it aside by whose hand it came from. An engine that refuses a deal for want of
the draw for the start (SEAT-5, refused-setup) plays highest-draw: it is asked again with
a draw the last seat wins, and the rules' deals are predicted with the same draw.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from mtrain.conformance.adapter import JSON, RefusedSetup, Unsupported, ruleset_json
from mtrain.conformance.process import FAILURES, HarnessError
from mtrain.reference import codec
from mtrain.reference.deal import deal as reference_deal
from mtrain.reference.engine import DRAW, ENGINE, legal_actions, perform
from mtrain.reference.rules import Rules
from mtrain.spec import tiles as T
from mtrain.spec.catalog import Catalog
from mtrain.spec.distinguish.solve_deal import draw_for_start
from mtrain.spec.ruleset import CUSTOM, MAX_PLAYERS, Ruleset
from mtrain.spec.scope import Space
from mtrain.spec.tilesets import highest, highest_numbers

NOT_DEALT = (HarnessError, RefusedSetup, Unsupported, ValueError, KeyError, TypeError,
             AttributeError)
"""What an answer to a deal may be instead of a state: each says the deal was not made."""

COMPARED = ("engine_placed", "phase", "seat", "starter", "first_turns")
"""The fields of a dealt state compared with the rules' deal, besides hands and boneyard:
who has a first turn to come too (reachstacker lays the highest double dealt as its
holder's first turn, dealt as highest-double-held deals and read so, measured, before)."""
SEATING = ("seat", "starter")
"""The fields of COMPARED that say who moves first (the starting seat's, and the search's
first drawer): _unseated sets them aside, never the rest."""


@dataclass
class Deals:
    """What the deals measured: each value is None where the deals do not tell it."""

    tile_set: str | None = None
    table: dict[int, int] = field(default_factory=dict)
    procedure: str | None = None
    seat: str | None = None
    evidence: dict[str, str] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)  # likely bugs the deals show
    unsupported_rows: list[int] = field(default_factory=list)
    grown: str = ""  # counts measured beside a hand that grew before play (measure_table)
    conflicting: set[str] = field(default_factory=set)  # options a likely bug is in
    read_set: str | None = None  # dealing nothing, the set whose tables it reads
    # dealing nothing: per tile set, of a sample of its tables, (answers read, asked)
    read_counts: dict[str, tuple[int, int]] = field(default_factory=dict)
    unseated: bool = False  # the deals' first player fits no known starting seat
    # the procedure measured was compared on some deals only (set-aside: the pools without
    # the engine), and the engine dealt the others as no known procedure does
    own_elsewhere: bool = False
    # no known procedure deals the hands as the engine did, whatever the first player, yet
    # each hand is its slice of the pool but for the engine and tiles of the boneyard (the
    # moves an engine procedure makes, DEAL-1 kept): a procedure of the engine's own
    unmatched: bool = False
    # no known procedure deals as the engine did, whatever the first player, but each
    # deal is set-aside's of a round whose engine is its own (_own_ladder): the fixtures
    # may read a procedure of its own (measured.solving_region), priced as any
    unknown: bool = False
    # the seat the deals showed with a procedure the rules do not allow it with, and the
    # likely bugs that says: a bug, or a seat of the engine's own that agrees with it on
    # the designed deals; the fixtures tell which (conclude.py, _seat_bugs)
    forbidden_seat: tuple[str, list[str]] | None = None


def ruleset_of(cat: Catalog, values: Mapping[str, str],
               table: Sequence[tuple[int, int]] | None = None, name: str = "") -> Ruleset:
    """A rule set of these values, checked or not (a prediction may need a pair the
    catalogue forbids, to recognise an engine that plays it): with `table`, its own."""
    choices = tuple((o, values[o]) for o in cat.options)
    if table is not None:
        choices = tuple((o, CUSTOM if o == "hand_sizes" else v) for o, v in choices)
        rows = tuple(sorted(table))
    else:
        rows = cat.options["hand_sizes"].values[values["hand_sizes"]].table
    return Ruleset(name or cat.describe(values), choices, rows)


def with_table(cat: Catalog, rs: Ruleset, table: Sequence[tuple[int, int]]) -> Ruleset:
    """`rs` dealing `table`: by the name of a named table that is the same, else as a
    table of its own (what a request then carries: the engine's own measured rules)."""
    rows = tuple(sorted(table))
    named = [v.name for v in cat.options["hand_sizes"].values.values() if v.table == rows]
    value = named[0] if named else CUSTOM
    return Ruleset(rs.name, tuple((o, value if o == "hand_sizes" else v)
                                  for o, v in rs.choices), rows)


def _tiles(state: JSON) -> list[str] | None:
    """Every tile a dealt state shows (hands, boneyard, trains), or None if not a state."""
    try:
        out = [str(t) for h in state["hands"] for t in h] + [str(t) for t in state["boneyard"]]
        for train in [*state["trains"], state["mexican"]]:
            out += [str(t) for t in train["tiles"]]
    except (KeyError, TypeError):
        return None
    return out


def _canonical(name: str) -> str:
    a, _, b = name.partition("-")
    return f"{max(int(a), int(b))}-{min(int(a), int(b))}" if a.isdigit() and b.isdigit() else name


def possible_deal(state: Any, max_pip: int, players: int, lossy: bool = False) -> str | None:
    """Why `state` is not a deal of a double-`max_pip` set to `players` seats (None if it
    is one): every tile once, the engine aside from the rest and one of the set (SET-1,
    DEAL-1). With `lossy`, tiles missing are allowed where the tiles dealt still show the
    set's highest number: a deal that loses tiles (a bug: INV-CONSERVATION) still shows
    its set and its hands (lost_tiles says how many)."""
    if not isinstance(state, dict):
        return "the answer is not a state"
    shown = _tiles(state)
    if shown is None or not isinstance(state.get("hands"), list):
        return "the answer is not a state"
    if len(state["hands"]) != players:
        return f"{len(state['hands'])} hands dealt for {players} players"
    names = [_canonical(t) for t in shown]
    twice = sorted(t for t, k in Counter(names).items() if k > 1)
    if twice:
        return f"tiles dealt twice: {', '.join(twice[:4])}"
    whole = {T.name(t) for t in range(T.set_size(max_pip))}
    extra = sorted(set(names) - whole)
    if extra:
        return f"tiles not in the set: {', '.join(extra[:4])}"
    missing = whole - set(names)
    if len(missing) > 1 and not (lossy and _top(names) == max_pip):
        return f"{len(missing)} tiles of the set missing"
    engine = state.get("engine")
    if isinstance(engine, int) and not isinstance(engine, bool) and engine > max_pip:
        # an engine of a larger set that deals any pool it is given as it comes still
        # names its own engine (caboose, a double-15 engine, dealt a double-12 pool)
        return f"the engine [{engine}-{engine}] is no tile of the set"
    return None


def _top(names: list[str]) -> int:
    return max((int(x) for t in names for x in t.split("-")), default=-1)


def lost_tiles(state: Any, max_pip: int) -> int:
    """How many tiles of the set a deal lost: those missing beyond the one engine that
    may be set aside (possible_deal's `lossy`)."""
    shown = {_canonical(t) for t in _tiles(state) or []}
    return max(0, T.set_size(max_pip) - len(shown) - 1)


def hand_size(state: JSON) -> int | None:
    """The size every hand was dealt (the holder who laid the engine has one less: ENG-3),
    or None when the hands are not dealt alike (DEAL-1)."""
    sizes = sorted(len(h) for h in state["hands"])
    top = sizes[-1]
    short = [s for s in sizes if s != top]
    if short and (short != [top - 1] or not state.get("engine_placed")):
        return None
    return top


def size_beside_a_grown_hand(state: JSON) -> int | None:
    """The size dealt where every hand but one holds it and that one holds more: a hand
    that grew before play, as an engine procedure of the engine's own may make it (its
    starter drawing for the engine), or a bug in the deal (DEAL-1); None otherwise."""
    sizes = sorted(len(h) for h in state["hands"])
    if len(sizes) < 2 or sizes[-1] <= sizes[0] or sizes[-2] != sizes[0]:
        return None
    return sizes[0]


class Dealer:
    """Deal requests to the engine, each answered once (a state, or None). `probing`:
    deals meant to be refused by some engines (Watched.probing)."""

    def __init__(self, impl: Any) -> None:
        self.impl = impl
        self.asked: dict[Any, Any] = {}
        self.refused = False  # the last deal asked was a refused setup
        self.unsupported = False  # the last deal asked was answered `unsupported`
        self.drawn: list[list[str]] | None = None  # the draw the last deal was given
        # how the last deal broke (FAILURES: it crashed, hung or answered no answer), if
        # it did: unlike a refusal, `unsupported` or an error answer, no word on the deal
        self.broke: str | None = None
        self.answered = False  # some deal was answered otherwise than `unsupported`

    def deal(self, rs: Ruleset, players: int, round_no: int, order: list[str],
             probing: bool = False) -> Any:
        """The engine's deal (None: not dealt). A deal refused for want of the draw for
        the start (SEAT-5: an engine that plays highest-draw whatever it is told) is asked
        again with a draw the last seat wins, kept in `drawn` for the predictions."""
        key = (rs.choices, rs.hand_table, players, round_no, tuple(order))
        if key not in self.asked:
            was = getattr(self.impl, "probing", None)
            if was is not None:
                self.impl.probing = probing
            draw = None
            try:
                try:
                    state = self.impl.deal(ruleset_json(rs), players, round_no, order)
                except RefusedSetup as e:
                    draw = draw_for_start(players, highest(rs["tile_set"]))
                    if e.clause != "SEAT-5" or draw is None:
                        raise
                    state = self.impl.deal(ruleset_json(rs), players, round_no, order,
                                           draw=draw)
                self.asked[key] = (state, "", draw)
            except RefusedSetup:
                self.asked[key] = (None, "refused")
            except Unsupported:
                self.asked[key] = (None, "unsupported")
            except FAILURES as e:
                self.asked[key] = (None, f"broke: {e.status}: {e.message}")
            except NOT_DEALT:
                self.asked[key] = (None, "error")
            finally:
                if was is not None:
                    self.impl.probing = was
        state, why, *drawn = self.asked[key]
        self.refused, self.unsupported = why == "refused", why == "unsupported"
        self.answered = self.answered or not self.unsupported
        self.broke = why.removeprefix("broke: ") if why.startswith("broke: ") else None
        self.drawn = drawn[0] if drawn else None
        return state

    def deal_own(self, rs: Ruleset, players: int, order: list[str], sizes: Sequence[int],
                 table: Mapping[int, int], probing: bool = False) -> Any:
        """A round-1 deal under `rs`; if answered `unsupported`, asked again under tables
        of its own that give `players` each of `sizes` in turn (an engine may deal only
        under its own table), the rest of the table as `table`."""
        state = self.deal(rs, players, 1, order, probing)
        if state is not None or not self.unsupported:
            return state
        for size in sizes:
            own = tuple(sorted({**table, players: size}.items()))
            state = self.deal(Ruleset(rs.name, rs.choices, own), players, 1, order, True)
            if state is not None or self.refused:
                return state
        return None


def pool(max_pip: int, engine: int | None) -> list[str]:
    """The tiles of the set in order, without the double `engine` (None: all of them)."""
    tiles = [T.name(t) for t in range(T.set_size(max_pip))]
    return [t for t in tiles if engine is None or t != f"{engine}-{engine}"]


FIRST_COUNTS = (4, 3, 2, *range(5, MAX_PLAYERS + 1))
"""The player counts a first deal is asked for, until the engine deals one: the corpus's
counts first, then every count a table may list (an engine for 5 to 8 players refuses
2 to 4, DEAL-7, and was found to deal nothing: its set and table were then guessed)."""


def find_set(dealer: Dealer, space: Space, base: Mapping[str, str],
             declared: Ruleset | None = None) -> tuple[str | None, Ruleset | None, bool]:
    """The tile set the engine deals, and a rule set it deals under (its set, with a
    procedure whose pool it accepts), trying the base's set and procedure first; and
    whether its deals lose tiles: where no deal is whole, one whose only fault is tiles
    missing still shows the set by its highest number (tender's boneyard one short made
    every deal "not a deal of the set", and identify named double-8, likely and wrong).
    Every set and procedure is first offered, at each count, the tables of their own of the
    sizes the known tables (and the declared one) give there; only where some deal was
    answered otherwise than `unsupported` is every other size offered: an engine that
    says `unsupported` to all of those deals says nothing more to the rest (it was asked
    11,021 deals, 3,402 now, before identify stopped on it: run.py)."""
    sets = sorted(space.options["tile_set"], key=lambda v: v != base.get("tile_set"))
    procedures = sorted(space.options["engine_procedure"],
                        key=lambda v: v != base.get("engine_procedure"))
    first: Ruleset | None = None
    tops: set[int] = set()
    lossy = False
    # deals that lose tiles only where no deal is whole; every size only where some deal
    # of the known sizes was answered at all
    for lossy, known in ((False, True), (False, False), (True, False)):
        for tile_set, procedure in itertools.product(sets, procedures):
            found = _dealt_under(dealer, space, base, tile_set, procedure, lossy, known,
                                 declared)
            if found is not None:
                tops.add(found[0])
                first = first or found[1]
                break
        if first is not None or not dealer.answered:
            break
    names = [v for v, n in highest_numbers().items() if tops == {n}]
    return (names[0] if len(names) == 1 else None), first, lossy


def _dealt_under(dealer: Dealer, space: Space, base: Mapping[str, str], tile_set: str,
                 procedure: str, lossy: bool, known: bool = False,
                 declared: Ruleset | None = None) -> tuple[int, Ruleset] | None:
    """The highest number dealt and the rule set, where the engine deals a pool of
    `tile_set` under `procedure` (FIRST_COUNTS tried in turn, each offered tables of its
    own where the rules' is `unsupported`: with `known`, those of the sizes a known or the
    declared table gives alone); None if it deals none."""
    values = space.complete({"tile_set": frozenset([tile_set]),
                             "engine_procedure": frozenset([procedure])}, base)
    if values is None:
        return None
    plain, table = space.catalog_form(values)
    rs = ruleset_of(space.cat, plain, table)
    n = highest(tile_set)
    order = pool(n, n if procedure == "set-aside" else None)
    for players in FIRST_COUNTS:
        offered = sizes(space, players, len(order), declared)
        if known:  # the sizes the known tables give (and the declared one) alone
            offered = offered[:len(known_sizes(space, players, declared))]
        state = dealer.deal_own(rs, players, order, offered, {}, probing=True)
        if state is not None and possible_deal(state, n, players, lossy) is None:
            return _top([_canonical(t) for t in _tiles(state) or []]), rs
    return None


def measure_table(dealer: Dealer, space: Space, rs: Ruleset, deals: Deals,
                  declared: Ruleset | None, lossy: bool = False) -> None:
    """The hand size at each player count the engine deals (2 to MAX_PLAYERS). A count
    it answers `unsupported` for is asked again under tables that list it (Dealer.
    deal_own): a size it then deals is measured, else the count is not dealt. A refused
    setup (DEAL-7) is taken at its word; a deal the engine crashed on, hung on or gave no
    answer to is not, and its count, left out unmeasured, is said to be. A deal that is
    not one of the set (a tile twice, hands dealt unlike) is a likely bug, and its count
    is left out."""
    n = highest(rs["tile_set"])
    order = pool(n, n if rs["engine_procedure"] == "set-aside" else None)
    bad: list[str] = []
    grown: list[str] = []
    lost: list[str] = []  # with `lossy` (find_set): the deals measured that lost tiles
    broke: dict[int, str] = {}  # counts whose deal broke: not measured, nor found undealt
    for players in range(2, MAX_PLAYERS + 1):
        state = dealer.deal_own(rs, players, order, sizes(space, players, len(order), declared),
                                deals.table)
        if state is None and dealer.unsupported:
            deals.unsupported_rows.append(players)
        if state is None and dealer.broke is not None:
            broke[players] = dealer.broke
        if state is None:
            continue
        wrong = possible_deal(state, n, players, lossy)
        if wrong is None and lossy and (k := lost_tiles(state, n)):
            lost.append(f"{players}p: {k}")
        size = hand_size(state) if wrong is None else None
        if wrong is None and size is None and (
                size := size_beside_a_grown_hand(state)) is not None:
            grown.append(f"{players}p: one of {max(len(h) for h in state['hands'])}")
        if wrong is None and size is None:
            wrong = "hands of " + ", ".join(str(len(x)) for x in state["hands"]) + " tiles"
        if wrong is not None or size is None:
            bad.append(f"{players} players: {wrong}")
            continue
        deals.table[players] = size
    if bad:
        deals.problems.append(f"likely bug: {len(bad)} deals are not deals of the "
                              f"{rs['tile_set']} set ({'; '.join(bad[:3])}"
                              f"{' ...' if len(bad) > 3 else ''}) [DEAL-1, DEAL-8]; those "
                              "counts are left out of the table")
    if broke:  # the table found lists no row there, as if the count were refused
        one = len(broke) == 1
        deals.problems.append(
            f"likely bug: the deal{'' if one else 's'} for {', '.join(map(str, broke))} "
            f"players failed ({'' if one else 'the first: '}{next(iter(broke.values()))}); "
            f"{'that count is' if one else 'those counts are'} left out of the table "
            "unmeasured, not found undealt [DEAL-1, DEAL-7]")
    if lost:
        deals.problems.append(f"likely bug: the deals lose tiles, measured all the same from "
                              f"the tiles they show ({'; '.join(lost[:3])}"
                              f"{' ...' if len(lost) > 3 else ''} tiles of the "
                              f"{rs['tile_set']} set nowhere) [INV-CONSERVATION, DEAL-1]")
    if grown:  # measured from the other hands; said beside the table (measure_deals)
        deals.grown = ("one hand held more than the others before play (its engine "
                       "procedure's draws, or a bug [DEAL-1]): " + ", ".join(grown))


def sizes(space: Space, players: int, tiles: int, declared: Ruleset | None = None
          ) -> list[int]:
    """The hand sizes to try for `players` from a pool of `tiles`: those the known tables
    (named, the example files', the declared one) give first, then every other."""
    likely = known_sizes(space, players, declared)
    return [*likely, *(h for h in range(1, tiles // players + 1) if h not in likely)]


def known_sizes(space: Space, players: int, declared: Ruleset | None = None) -> list[int]:
    """The hand sizes the known tables (named, the example files', the declared one) give
    `players`, in order."""
    tables = [v.table for v in space.cat.options["hand_sizes"].values.values()]
    tables += [ex.hand_table for ex in space.cat.examples.values()]
    if declared is not None:
        tables.append(declared.hand_table)
    return sorted({h for table in tables for n, h in table if n == players})


def _designs(n: int, players: int, size: int) -> list[tuple[int, list[str]]]:
    """(round, pool) of the deals that tell engine procedures and starting seats apart."""
    out: list[tuple[int, list[str]]] = []
    for round_no in (1, 2):
        engine = n - round_no + 1
        tile = f"{engine}-{engine}"
        rest = pool(n, engine)
        out.append((round_no, rest))  # set aside (ENG-2)
        out.append((round_no, [tile, *rest]))  # in seat 0's hand (ENG-3)
        out.append((round_no, [*rest[:size], tile, *rest[size:]]))  # in seat 1's hand
        if round_no == 1 and players * size < len(rest) + 1:
            out.append((round_no, [*rest, tile]))  # in the boneyard (ENG-4)
        if round_no == 1 and players * size < len(rest):  # the search's first draw: ENG-4
            out.append((round_no, [*rest[:players * size], tile, *rest[players * size:]]))
        if round_no == 2 and size >= 2:
            # the round's double and the set's top one both in seat 0's hand: ENG-7 opens
            # on the top one, ENG-1's procedures on the round's, and a procedure of one's
            # own that takes the round's double when held and another otherwise (tramway's
            # "next double down") deals the other designs as ENG-7 does
            top = f"{n}-{n}"
            out.append((round_no, [tile, top, *(t for t in rest if t != top)]))
        if round_no == 2 and players >= 2:
            # the set's top double in seat 0's hand, the round's in seat 1's: where the
            # engine is dealt, a start of one's own that goes to the highest double dealt
            # is the engine's holder's in every other design (the round's double is the
            # highest dealt there), and was measured engine-holder
            top = f"{n}-{n}"
            others = [t for t in rest if t != top]
            out.append((round_no, [top, *others[:size - 1], tile, *others[size - 1:]]))
    if players >= 2 and n >= 2:
        out.append((1, _strong_apart(pool(n, n), n, size)))
    return out  # places it at once, ENG-6 at the end of the lap


def _strong_apart(rest: list[str], n: int, size: int) -> list[str]:
    """A set-aside pool of round 1 (the engine [n-n] left out, ENG-2) where the heaviest
    tile, [n-(n-1)], is dealt to seat 1 among the lightest tiles, and seat 0 is dealt the
    highest doubles and the heaviest tiles besides: the seat of the heaviest tile (SEAT-6)
    is then not the seat of the strongest hand, as it is in the ascending pools, so a start
    of one's own that goes to a strong hand (the highest double, the most pips) is not
    taken for heaviest-in-hand."""
    top = f"{n}-{n - 1}"
    doubles = [t for t in reversed(rest) if len(set(t.split("-"))) == 1]
    heavy = [t for t in reversed(rest) if t != top and t not in doubles]
    strong = [*doubles, *heavy][:size]
    light = [t for t in rest if t != top and t not in strong][:size - 1]
    return [*strong, top, *light, *(t for t in rest if t != top and t not in strong
                                     and t not in light)]


def _shown(state: Any) -> Any:
    """What a deal's answer is compared by: hands (as sets), boneyard, the engine's place
    and who moves first; None for no deal."""
    if not isinstance(state, dict):
        return None
    try:
        return (tuple(tuple(sorted(_canonical(str(t)) for t in h)) for h in state["hands"]),
                tuple(_canonical(str(t)) for t in state["boneyard"]),
                tuple(_field(state.get(k)) for k in COMPARED))
    except (KeyError, TypeError, ValueError, AttributeError):
        return None


def _field(value: Any) -> Any:
    """A compared field's value, a list read in any order (first_turns: docs/protocol.md)."""
    return tuple(sorted(value, key=str)) if isinstance(value, list) else value


def predicted(rs: Ruleset, players: int, round_no: int, order: list[str],
              draw: list[list[str]] | None = None) -> Any:
    """The reference engine's deal of `order` under `rs` (checked or not), compared form,
    with the first steps where the players still look for the engine (ENG-4)."""
    rules = Rules.of(rs)
    try:
        ids = [T.parse(x, rules.max_pip) for x in order]
        drawn = [[T.parse(x, rules.max_pip) for x in seat] for seat in draw or ()] or None
        st = reference_deal(rules, players, round_no, order=ids, draw=drawn)
    except (ValueError, KeyError):
        return None
    shown, steps = _shown(codec.state_to_json(st)), None
    if st.phase == ENGINE:
        legal = legal_actions(st)
        texts = frozenset(_action_text(codec.action_to_json(st, a)) for a in legal)
        if DRAW in legal:
            perform(st, DRAW)  # the search's first draw (ENG-4, ENG-6)
        steps = texts, _shown(codec.state_to_json(st))
    return shown, steps


def _action_text(action: Any) -> str:
    return json.dumps(action, sort_keys=True)


def answered(dealer: Dealer, rs: Ruleset, players: int, round_no: int,
             order: list[str]) -> Any:
    """The engine's deal in the form `predicted` gives, its first steps asked where the
    players look for the engine (its legal actions then)."""
    state = dealer.deal(rs, players, round_no, order, probing=True)
    shown = _shown(state)
    if shown is None:
        return None
    steps = None
    if state.get("phase") == "engine":
        texts: frozenset[str] = frozenset()
        after: Any = None
        try:
            legal = dealer.impl.legal(ruleset_json(rs), state)
            texts = frozenset(_action_text(a) for a in legal)
            draw = next((a for a in legal if isinstance(a, dict) and a.get("type") == "draw"),
                        None)
            if draw is not None:  # the search's first draw (ENG-4, ENG-6)
                after = _shown(dealer.impl.apply(ruleset_json(rs), state, draw))
        except NOT_DEALT:
            pass
        steps = texts, after
    return shown, steps


def measure_start(dealer: Dealer, space: Space, rs: Ruleset, deals: Deals) -> None:
    """The engine procedure and the starting seat, from designed deals compared with the
    rules' deals under each pair of their values (see the module docstring)."""
    cat = space.cat
    if not deals.table:
        return
    players = min(deals.table)
    size = deals.table[players]
    n = highest(rs["tile_set"])
    designs = _designs(n, players, size)
    table = tuple(sorted(deals.table.items()))
    sent = with_table(cat, rs, table)
    answers, draws = [], []  # each design's answer, and the draw it was given (SEAT-5)
    for r, order in designs:
        answers.append(answered(dealer, sent, players, r, order))
        draws.append(dealer.drawn)
    if all(a is None for a in answers):
        return
    procedures = cat.options["engine_procedure"].values
    seats = cat.options["starting_seat"].values
    # A round-2 deal refused may be a single-round game's (MATCH-7: there is no round 2),
    # whatever the rule set asked under says: the guesses are then of either length, or
    # a single-round engine would match no guess and its procedure go unmeasured.
    second = [a for (r, _), a in zip(designs, answers, strict=True) if r == 2]
    lengths = [rs["match_length"]]
    if any(a is None for a in second) and all(a is None for a in second):
        lengths = list(cat.options["match_length"].values)
    matching = []
    # the seat values under which some procedure's deals put the first player where the
    # engine's do, the hands aside
    seated: set[str] = set()
    for p, s, m in itertools.product(procedures, seats, lengths):
        guess = ruleset_of(cat, {**dict(rs.choices), "engine_procedure": p,
                                 "starting_seat": s, "match_length": m}, table)
        # A pool the procedure does not deal from (the engine in it, for set-aside; left
        # out, for the others) is no request an engine of that procedure can get: what
        # it answers there (a deal of it as it comes, an error) tells nothing about it.
        compared = [(want, a) for (r, order), a, d in zip(designs, answers, draws, strict=True)
                    if (want := predicted(guess, players, r, order, d)) is not None]
        if compared and all(want == a for want, a in compared):
            matching.append((p, s))
        if compared and all(_first_player(want) == _first_player(a) for want, a in compared):
            seated.add(s)
    what = (f"{len(designs)} deals for {players} players (the engine in the first hand, "
            "the second, the boneyard, first or last, or set aside; rounds 1 and 2, and "
            "beside the top double in round 2 or in another hand than it; the heaviest tile "
            "apart from the strongest hand)")
    if len({p for p, _ in matching}) == 1:
        deals.procedure = matching[0][0]
        deals.evidence["engine_procedure"] = f"{what}: dealt as {deals.procedure} deals"
        deals.own_elsewhere = _own_elsewhere(cat, rs, table, designs, answers, draws,
                                             players, matching[0][0], lengths)
    alike: set[str] = set()  # the procedures whose hands the engine's are, the seat aside
    if not matching:  # no known start fits: the procedure still shows without the seat
        alike = {p for p, m in itertools.product(procedures, lengths)
                 if _alike_unseated(ruleset_of(cat, {**dict(rs.choices), "match_length": m,
                                                     "engine_procedure": p}, table),
                                    designs, answers, players, draws)}
        if len(alike) == 1:
            deals.unseated = True
            deals.procedure = next(iter(alike))
            deals.evidence["engine_procedure"] = (
                f"{what}: dealt as {deals.procedure} deals, the first player as under no "
                "known starting seat (a start of its own?)")
    if not matching and not alike and _own_ladder(designs, answers, players, size, n):
        # (tipper's even stops, round 2 on [14-14]: with `other` kept from the fixtures,
        # its failures at the rounds of ENG-1's ladder were charged to SEAT-3)
        deals.unknown = True
    # hands no known procedure deals, whatever the first player (a deal some procedure
    # explains, its seat unpredicted, as under a draw for the start not asked, is not one)
    if not matching and not alike and _sliced(designs, answers, players, size, n):
        deals.unmatched = True
        deals.evidence["engine_procedure"] = (
            f"{what}: each hand its slice of the pool but for the engine and tiles of the "
            "boneyard, dealt as no known procedure deals them")
    if len({s for _, s in matching}) == 1:
        deals.seat = matching[0][1]
        deals.evidence["starting_seat"] = f"{what}: the first player as under {deals.seat}"
    elif not matching and not deals.unseated and len(seated) == 1:
        # hands dealt as no procedure deals them (a bug in the deal, DEAL-1), the first
        # player where one seat value alone puts it, whatever the hands (rotate: SEAT-3),
        # as conform judges a deal's seat alone (seat_alone.py)
        deals.seat = next(iter(seated))
        deals.evidence["starting_seat"] = (
            f"{what}: hands dealt as no known procedure deals them, the first player as "
            f"under {deals.seat} whatever the procedure")
    if deals.procedure is not None and deals.seat is not None:
        values = {**dict(rs.choices), "engine_procedure": deals.procedure,
                  "starting_seat": deals.seat, "hand_sizes": CUSTOM}
        broken = cat.conflicts(values, table)
        if broken:
            deals.forbidden_seat = deals.seat, [
                f"likely bug: the deals show engine_procedure={deals.procedure} with "
                f"starting_seat={deals.seat}, which the rules do not allow: {message}; "
                "starting_seat is written as the fixtures show it within the rules"
                for _, message in broken]
            deals.conflicting.add("starting_seat")
            deals.seat = None  # the seat is left to the fixtures, within the rules
            deals.evidence.pop("starting_seat", None)


def _sliced(designs: list[tuple[int, list[str]]], answers: list[Any], players: int,
            size: int, n: int) -> bool:
    """Whether every deal the engine made (one at least) has each hand its slice of the
    pool (DEAL-1), but that the round's engine may be gone from it and tiles of the
    boneyard's part of the pool added to one hand at most: where the engine went and what
    replaced it, which is all an engine procedure decides (pullman's starter digging for
    it, waybill's holder taking the boneyard's last tile; several hands drawing is the
    search in turn a known procedure makes), every tile of the pool still in a hand or the
    boneyard, once, but the engine. Hands of other slices' tiles (turntable's
    round-robin, DEAL-1) or a tile lost (tender's boneyard one short, ENG-2) are bugs,
    never a procedure."""
    seen = gained = False
    for (round_no, order), answer in zip(designs, answers, strict=True):
        if answer is None:
            continue
        hands, boneyard = answer[0][0], answer[0][1]
        if len(hands) != players:
            return False
        engine = _canonical(f"{n - round_no + 1}-{n - round_no + 1}")
        held = [t for hand in hands for t in hand] + list(boneyard)
        if len(set(held)) != len(held) or set(held) | {engine} != {
                _canonical(t) for t in order} | {engine}:
            return False  # a tile lost, made up or dealt twice (INV-CONSERVATION)
        rest = {_canonical(t) for t in order[players * size:]}
        moved = 0  # the hands not their slice: the engine's holder's, or the digger's
        for seat, hand in enumerate(hands):
            part = {_canonical(t) for t in order[seat * size:(seat + 1) * size]}
            if not part - set(hand) <= {engine} or not set(hand) - part <= rest:
                return False
            moved += part != set(hand)
            gained = gained or bool(set(hand) - part)
        if moved > 1:  # several hands drew: a search in turn (everyone-draws), not one's own
            return False
        seen = True
    # a hand that only gave up the engine is holder-lays' deal, whatever the seat: one's
    # own shows where some hand took a tile of the boneyard in its place
    return seen and gained


def _own_ladder(designs: list[tuple[int, list[str]]], answers: list[Any], players: int,
                size: int, n: int) -> bool:
    """Whether every deal the engine made (one at least) is set-aside's deal (ENG-2,
    DEAL-1) of a round whose engine is not ENG-1's in one of them at least: one double
    gone from the pool, the hands its rest's slices in order, the boneyard the rest of
    it. A ladder of rounds of its own (tipper's even stops, round r on [16-2(r-1)]), not
    a bug in the deal: a tile lost, or hands dealt round the table, is never one."""
    off = False
    seen = False
    for (round_no, order), answer in zip(designs, answers, strict=True):
        if answer is None:
            continue
        hands, boneyard = answer[0][0], answer[0][1]
        pool_ = [_canonical(t) for t in order]
        held = [t for hand in hands for t in hand] + list(boneyard)
        gone = set(pool_) - set(held)
        if (len(hands) != players or len(set(held)) != len(held) or not set(held) <= set(
                pool_) or len(gone) != 1 or len(set(next(iter(gone)).split("-"))) != 1):
            return False
        rest = [t for t in pool_ if t not in gone]
        if any(tuple(sorted(hand)) != tuple(sorted(rest[seat * size:(seat + 1) * size]))
               for seat, hand in enumerate(hands)) or sorted(boneyard) != sorted(
                   rest[players * size:]):
            return False
        engine = n - round_no + 1
        off = off or gone != {f"{engine}-{engine}"}
        seen = True
    return seen and off


def _own_elsewhere(cat: Catalog, rs: Ruleset, table: tuple[tuple[int, int], ...],
                   designs: list[tuple[int, list[str]]], answers: list[Any],
                   draws: list[list[list[str]] | None], players: int, procedure: str,
                   lengths: list[str]) -> bool:
    """Whether the engine dealt a pool that `procedure` never deals from (the engine in
    it, for set-aside) in a way no known procedure and starting seat deal it: a
    procedure of its own that deals `procedure`'s pools alike (roundhouse: the engine
    taken from a hand or the boneyard, nobody drawing for it)."""
    guesses = [ruleset_of(cat, {**dict(rs.choices), "engine_procedure": p,
                                "starting_seat": s, "match_length": m}, table)
               for p, s, m in itertools.product(cat.options["engine_procedure"].values,
                                                cat.options["starting_seat"].values, lengths)]
    mine = ruleset_of(cat, {**dict(rs.choices), "engine_procedure": procedure}, table)
    for (r, order), a, d in zip(designs, answers, draws, strict=True):
        if a is None or predicted(mine, players, r, order, d) is not None:
            continue  # not dealt, or compared already
        if not any(predicted(g, players, r, order, d) == a for g in guesses):
            return True
    return False


def _first_player(answer: Any) -> Any:
    """A deal's answer without its hands and boneyard: the phase and who moves first."""
    return None if answer is None else answer[0][2]


def _alike_unseated(guess: Ruleset, designs: list[tuple[int, list[str]]],
                    answers: list[Any], players: int,
                    draws: list[list[list[str]] | None]) -> bool:
    """Whether the engine's deals are `guess`'s but for who moves first (seat, starter:
    the starting seat's, SEAT-2..4, and the search's first drawer, ENG-4)."""
    compared = [(_unseated(want), _unseated(a))
                for (r, order), a, d in zip(designs, answers, draws, strict=True)
                if (want := predicted(guess, players, r, order, d)) is not None]
    return bool(compared) and all(w == a for w, a in compared)


def _unseated(answer: Any) -> Any:
    def drop(shown: Any) -> Any:
        return None if shown is None else (shown[0], shown[1], tuple(
            v for k, v in zip(COMPARED, shown[2], strict=True) if k not in SEATING))
    if answer is None:
        return None
    shown, steps = answer
    return drop(shown), None if steps is None else (steps[0], drop(steps[1]))


def measure(impl: Any, space: Space, base: Mapping[str, str],
            declared: Ruleset | None = None, deals: Deals | None = None
            ) -> tuple[Deals, Ruleset | None]:
    """Everything the deals show (see the module docstring), and the rule set of the
    engine's set and procedure that the deals were asked under (None: it dealt nothing).
    `deals`: filled in as measured, so that an interrupt leaves what was measured."""
    dealer = Dealer(impl)
    deals = deals if deals is not None else Deals()
    tile_set, rs, lossy = find_set(dealer, space, base, declared)
    if rs is None:
        return deals, None
    if tile_set is not None and tile_set != rs["tile_set"]:
        values = space.complete({"tile_set": frozenset([tile_set])}, dict(rs.choices))
        if values is None:
            return deals, None
        plain, table = space.catalog_form(values)
        rs = ruleset_of(space.cat, plain, table)
    deals.tile_set = tile_set
    if tile_set is not None:
        deals.evidence["tile_set"] = (f"dealt tiles numbered 0 to {highest(tile_set)}")
    measure_table(dealer, space, rs, deals, declared, lossy)
    if deals.table:
        shown = ", ".join(f"{n}p: {h}" for n, h in sorted(deals.table.items()))
        deals.evidence["hand_sizes"] = f"dealt {shown}" + (
            f" ({deals.grown})" if deals.grown else "")
        measure_start(dealer, space, rs, deals)
    return deals, rs
