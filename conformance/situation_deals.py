"""Deals among the situations from play (conformance/situations.py): the table right
after a deal, and after the search for the engine, as the deal formalisation of
spec/distinguish/solve_deal.py computes it, for every row of the rule set's own hand table.
So a table of one's own has its deals, engine and first seat tested too."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from mtrain.conformance.fixture import Expectation, Fixture
from mtrain.spec import tiles as T
from mtrain.spec.distinguish.solve_deal import deal_view, draw_for_start
from mtrain.spec.model.legality import Opts
from mtrain.spec.model.scoring import match_rounds
from mtrain.spec.ruleset import OTHER, Ruleset
from mtrain.spec.scope import Product, Scope
from mtrain.spec.tilesets import highest

SITUATION_PATH = "<situations under "
"""How a situation's path begins (it has no file until `mtrain situations` writes one)."""


DEAL_CLAUSES = ("DEAL-1", "DEAL-7", "ENG-1", "ENG-2", "ENG-3", "ENG-4", "ENG-6", "SEAT-2",
                "SEAT-3", "SEAT-5", "SEAT-6")


class _Reads(dict[str, str]):
    """Option values that remember which were looked up."""

    def __init__(self, values: dict[str, str]) -> None:
        super().__init__(values)
        self.read: set[str] = set()

    def __getitem__(self, option: str) -> str:
        self.read.add(option)
        return super().__getitem__(option)


def deal_situations(rs: Ruleset, wanted: Callable[[str], bool] | None = None,
                    count: int | None = None) -> list[Fixture]:
    """A deal for each player count the rule set's table lists (the first `count`, taken
    evenly from the smallest table to the largest): the table right after
    it as the deal formalisation of spec/distinguish/solve_deal.py computes it (every
    hand, the boneyard, where the engine is, who moves), so a table of one's own has its
    deals, engine and first seat tested too. Counts alternate the pool's order and the
    round (round 1, then round 2's engine one lower, ENG-1, where the game has a round 2),
    so both orders and both engine procedures' cases show. A deal that reads an option
    played its own way, or that the table cannot deal (DEAL-8), is left out."""
    top = highest(rs["tile_set"])
    table = dict(rs.hand_table)
    scope = Scope((Product.of({o: (v,) for o, v in rs.choices}),))
    rows = sorted(table)
    if count is not None:  # spread over the rows, smallest and largest first
        picked = sorted({rows[round(i * (len(rows) - 1) / max(count - 1, 1))]
                         for i in range(min(count, len(rows)))})
        rows = picked
    out = []
    for players in rows:
        k = sorted(table).index(players)
        fid = f"play-deal-{k + 1:03d}"
        if wanted is not None and not wanted(fid):
            continue
        order = ("sorted", "reversed")[k % 2]
        values = _Reads(dict(rs.choices))
        later = (k // 2) % 2  # round 2, where the game has one (MATCH-1; not MATCH-7)
        if later and match_rounds(Opts(values={"match_length": values["match_length"]}),
                                  top) < 2:
            later = 0
        engine = top - later
        draw = draw_for_start(players, top) if rs["starting_seat"] == "highest-draw" else None
        view = _view_known(rs, values, deal_view(values, table, players, engine, order,
                                                 full=True, draw=draw))
        if view is None:
            continue
        out.append(Fixture(
            id=fid,
            description=(f"the deal for {players} players, pool {order}, engine "
                         f"{engine}-{engine}: {table[players]} tiles each"),
            clauses=DEAL_CLAUSES, source=("computation",),
            path=f"{SITUATION_PATH}{rs.name}>", line=None, table=None,
            deal=_deal(players, order, engine, draw), steps=(),
            expect=(Expectation(variants=(), scope=scope, state=view),),
            note=(f"The deal of {rs.name} for {players} players with the pool {order}: "
                  "the table is spec/distinguish/solve_deal.py's deal_view of its table "
                  "and options, not an engine's.")))
    return out + tie_deals(rs, wanted)


def tie_deals(rs: Ruleset, wanted: Callable[[str], bool] | None = None) -> list[Fixture]:
    """SEAT-6's tie: under heaviest-in-hand, round 1 dealt so that seat 0's heaviest tile
    is [N-1-N-1] and seat 1's [N-N-2], of the same pip total, the one heavier tile left
    ([N-N-1]) first in the boneyard and [N-N] set aside: seat 1 starts, its tile having
    the higher end. The deals from sorted pools never tie (junction, whose planted bug
    gives the tie to the lower seat, was never caught by them). The table is the model's
    deal_view of that pool; nothing if the rule set does not read it or cannot deal it."""
    if rs["starting_seat"] != "heaviest-in-hand" or (
            wanted is not None and not wanted("play-deal-tie-001")):
        return []
    top = highest(rs["tile_set"])
    table = dict(rs.hand_table)
    players = min(table)
    size = table[players]
    pool = list(range(T.set_size(top)))
    pool.remove(T.DOUBLE[top])
    ties = [T.parse(f"{top - 1}-{top - 1}"), T.parse(f"{top}-{top - 2}")]
    heavier = T.parse(f"{top}-{top - 1}")
    rest = [t for t in pool if t not in (*ties, heavier)]
    if players < 2 or size < 1 or players * size >= len(pool):
        return []
    hands = [[*rest[:size - 1], ties[0]], [*rest[size - 1:2 * size - 2], ties[1]]]
    used = 2 * size - 2
    hands += [rest[used + k * size:used + (k + 1) * size] for k in range(players - 2)]
    order = [T.name(t) for h in hands for t in h]
    order += [T.name(heavier)] + [T.name(t) for t in rest[used + (players - 2) * size:]]
    values = _Reads(dict(rs.choices))
    view = _view_known(rs, values, deal_view(values, table, players, top, order, full=True))
    if view is None:
        return []
    scope = Scope((Product.of({o: (v,) for o, v in rs.choices}),))
    return [Fixture(
        id="play-deal-tie-001",
        description=(f"the deal for {players} players, round 1, two heaviest tiles of one "
                     f"pip total: [{top - 1}-{top - 1}] to seat 0, [{top}-{top - 2}] to "
                     "seat 1"),
        clauses=DEAL_CLAUSES, source=("computation",),
        path=f"{SITUATION_PATH}{rs.name}>", line=None, table=None,
        deal=_deal(players, order, top, None), steps=(),
        expect=(Expectation(variants=(), scope=scope, state=view),),
        note=(f"The deal of {rs.name} for {players} players from a pool designed for "
              "SEAT-6's tie: the table is spec/distinguish/solve_deal.py's deal_view of "
              "that pool, not an engine's."))]


def _deal(players: int, order: str | list[str], engine: int, draw: list[list[str]] | None
          ) -> dict[str, Any]:
    """A fixture's deal, with its draw for the start (SEAT-5) where it has one."""
    deal: dict[str, Any] = {"players": players, "order": order, "engine": engine}
    if draw is not None:
        deal["draw"] = draw
    return deal


SEAT_FIELDS = ("seat", "starter")
"""What the starting-seat rule decides in a deal (SEAT-2..4): left unchecked under a
start of one's own, the rest of the deal still checked."""


def _view_known(rs: Ruleset, values: _Reads, view: dict[str, Any] | None
                ) -> dict[str, Any] | None:
    """A deal's view without what an option played its own way decides: the seat that
    starts goes unchecked under a start of one's own; None if another such option was
    read (or the table cannot deal)."""
    if view is None:
        return None
    unknown = values.read & set(rs.unknown)
    if not unknown:
        return view
    if unknown != {"starting_seat"} or view.get("phase") != "start":
        return None
    return {k: v for k, v in view.items() if k not in SEAT_FIELDS}


DEAL_ROUND_CLAUSES = ("DEAL-1", "ENG-1", "ENG-2", "ENG-3", "ENG-4", "ENG-5", "ENG-6",
                      "SEAT-2", "SEAT-3", "SEAT-4", "SEAT-5", "SEAT-6")


def last_wanted(prefix: str, most: int, wanted: Callable[[str], bool] | None) -> int:
    """The highest k <= most whose id (prefix, k in three digits) `wanted` accepts; 0 if
    none; `most` when every id is wanted."""
    if wanted is None:
        return most
    return max((k for k in range(1, most + 1) if wanted(f"{prefix}{k:03d}")), default=0)


def round_deals(rs: Ruleset, wanted: Callable[[str], bool] | None = None) -> list[Fixture]:
    """Deals of later rounds, beside deal_situations' first two: for each row of the
    table and each pool order, the first round whose rotating seat is not seat 0 with the
    engine dealt (or set aside), and the first such round with nobody dealt the engine,
    its search played to the end (each draw a step). There the seat the search starts
    from (ENG-4, ENG-6), the finder and the seat that starts (SEAT-2..4) show, which a
    first round's deal, starting at seat 0, cannot tell from a bug that always starts
    there. Tables from spec/distinguish/solve_deal.py's deal_view, as deal_situations'.
    And the match's last round (`play-dealt-last`, last_round_deal), and a third round's
    deal at each row none of those reached (`play-dealt-later-`, later_deals)."""
    return (_rotated_deals(rs, wanted) + last_round_deal(rs, wanted)
            + later_deals(rs, wanted))


LATER_ROUND = 3
"""The round later_deals deals from: the first after the two deal_situations asks."""


def later_deals(rs: Ruleset, wanted: Callable[[str], bool] | None = None) -> list[Fixture]:
    """A deal of round 3 or later (the first whose rotating seat is not 0) for each row of
    the table whose rounds _rotated_deals stop before round 3, pool sorted. Under a set-aside
    engine (ENG-2) no deal has the engine searched for, so _rotated_deals' deals stop at
    round 2; an engine that breaks its deal from a later round on (a dealer rotating, a
    round counter: reefer's bug 2 deals one tile at a time round the table from round 3)
    showed in no deal. Nothing under a match of fewer than 3 rounds (MATCH-7); a round a
    match of its own lacks is left out by conform (own_rounds.within)."""
    top = highest(rs["tile_set"])
    length = "full" if rs["match_length"] == OTHER else rs["match_length"]
    rounds = match_rounds(Opts(values={"match_length": length}), top)
    table = dict(rs.hand_table)
    scope = Scope((Product.of({o: (v,) for o, v in rs.choices}),))
    out: list[Fixture] = []
    number = 0
    if last_wanted("play-dealt-later-", len(table), wanted) == 0:
        return out  # conform -k asks for none of them
    for players in sorted(table):
        if any(r >= LATER_ROUND for order in ("sorted", "reversed")
               for r, _ in _rotated_rounds(rs, table, players, order, rounds)):
            continue
        round_no = next((r for r in range(LATER_ROUND, rounds + 1) if (r - 1) % players),
                        None)
        if round_no is None:
            continue
        engine = top - (round_no - 1)
        draw = draw_for_start(players, top) if rs["starting_seat"] == "highest-draw" else None
        found = _round_deal(rs, table, players, engine, "sorted", draw)
        if found is None:
            continue
        number += 1
        fid = f"play-dealt-later-{number:03d}"
        if wanted is not None and not wanted(fid):
            continue
        view, draws, searched = found
        how = (f"the engine searched for in {draws} draws" if searched
               else "the engine dealt or set aside")
        out.append(Fixture(
            id=fid,
            description=(f"round {round_no}'s deal for {players} players, pool sorted: "
                         f"{how}"),
            clauses=DEAL_ROUND_CLAUSES, source=("computation",),
            path=f"{SITUATION_PATH}{rs.name}>", line=None, table=None,
            deal=_deal(players, "sorted", engine, draw), steps=("draw",) * draws,
            expect=(Expectation(variants=(), scope=scope, state=view),),
            note=(f"Round {round_no} of {rs.name} for {players} players with the pool "
                  f"sorted ({how}), a row whose other deals stop before round 3: the "
                  "table is spec/distinguish/solve_deal.py's deal_view of its table and "
                  "options, not an engine's.")))
    return out


def last_round_deal(rs: Ruleset, wanted: Callable[[str], bool] | None = None) -> list[Fixture]:
    """The deal of the match's last round, whose engine is [0-0] (ENG-1), at the table's
    smallest row whose rotating seat is not 0 then: an engine number 0 read as none
    (gondola's bug 2, JavaScript's `0 ||`) shows nowhere else, no other deal reaching that
    round. None where the match has one round (MATCH-7), the id is not `wanted`, or an
    option played its own way decides it."""
    top = highest(rs["tile_set"])
    length = "full" if rs["match_length"] == OTHER else rs["match_length"]
    rounds = match_rounds(Opts(values={"match_length": length}), top)
    fid = "play-dealt-last-001"
    if rounds < 2 or (wanted is not None and not wanted(fid)):
        return []
    table = dict(rs.hand_table)
    # the smallest row whose rotating seat is not seat 0 there (as round_deals'), if any
    players = min((p for p in table if (rounds - 1) % p), default=min(table))
    engine = top - (rounds - 1)
    draw = draw_for_start(players, top) if rs["starting_seat"] == "highest-draw" else None
    found = _round_deal(rs, table, players, engine, "sorted", draw)
    if found is None:
        return []
    view, draws, _ = found
    return [Fixture(
        id=fid, description=f"round {rounds}'s deal for {players} players, the last, "
                            f"engine {engine}-{engine}",
        clauses=DEAL_ROUND_CLAUSES, source=("computation",),
        path=f"{SITUATION_PATH}{rs.name}>", line=None, table=None,
        deal=_deal(players, "sorted", engine, draw), steps=("draw",) * draws,
        expect=(Expectation(variants=(), scope=Scope((Product.of(
            {o: (v,) for o, v in rs.choices}),)), state=view),),
        note=(f"The last round ({rounds}) of {rs.name} for {players} players with the "
              "pool sorted: the table is spec/distinguish/solve_deal.py's deal_view of "
              "its table and options, not an engine's."))]


def own_last_deals(rs: Ruleset, rounds: Mapping[int, int],
                   wanted: Callable[[str], bool] | None = None) -> list[Fixture]:
    """The deal of the last round a match of its own deals (`rounds`, player count -> its
    last round, as own_rounds.last_rounds asks the implementation), for each such round
    before the full match's last (that one is last_round_deal's): at the smallest count
    with it whose rotating seat is not 0 there, pool sorted. A deal broken only in the
    match's last round (a round counter, a dealer rotating) shows nowhere else, the
    situations stopping at round 3 and last_round_deal's round lying past that match."""
    top = highest(rs["tile_set"])
    full = match_rounds(Opts(values={"match_length": "full"}), top)
    table = dict(rs.hand_table)
    scope = Scope((Product.of({o: (v,) for o, v in rs.choices}),))
    out: list[Fixture] = []
    lasts = sorted({r for n, r in rounds.items() if n in table and 2 <= r < full})
    for number, round_no in enumerate(lasts, 1):
        fid = f"play-dealt-own-last-{number:03d}"
        if wanted is not None and not wanted(fid):
            continue
        counts = sorted(n for n, r in rounds.items() if n in table and r == round_no)
        players = next((n for n in counts if (round_no - 1) % n), counts[0])
        engine = top - (round_no - 1)
        draw = draw_for_start(players, top) if rs["starting_seat"] == "highest-draw" else None
        found = _round_deal(rs, table, players, engine, "sorted", draw)
        if found is None:
            continue
        view, draws, _ = found
        out.append(Fixture(
            id=fid, description=(f"round {round_no}'s deal for {players} players, the last "
                                 f"its own match deals, engine {engine}-{engine}"),
            clauses=DEAL_ROUND_CLAUSES, source=("computation",),
            path=f"{SITUATION_PATH}{rs.name}>", line=None, table=None,
            deal=_deal(players, "sorted", engine, draw), steps=("draw",) * draws,
            expect=(Expectation(variants=(), scope=scope, state=view),),
            note=(f"Round {round_no} of {rs.name} for {players} players, the last its own "
                  "match deals, with the pool sorted: the table is "
                  "spec/distinguish/solve_deal.py's deal_view of its table and options, "
                  "not an engine's.")))
    return out


def _rotated_deals(rs: Ruleset, wanted: Callable[[str], bool] | None) -> list[Fixture]:
    top = highest(rs["tile_set"])
    table = dict(rs.hand_table)
    scope = Scope((Product.of({o: (v,) for o, v in rs.choices}),))
    out: list[Fixture] = []
    # each row and order numbers two deals at most (engine dealt or not): none past the
    # last one `wanted` accepts is played out (conform -k asks for a few ids)
    last = last_wanted("play-dealt-", 4 * len(table), wanted)
    # a match of its own length is asked a full match's rounds: one it lacks is refused,
    # and that refusal is no failure (partition.round_of_its_own)
    length = "full" if rs["match_length"] == OTHER else rs["match_length"]
    rounds = match_rounds(Opts(values={"match_length": length}), top)
    number = 0
    for players in sorted(table):
        for order in ("sorted", "reversed"):
            for round_no, found in _rotated_rounds(rs, table, players, order, rounds,
                                                   last - number):
                number += 1
                fid = f"play-dealt-{number:03d}"
                if wanted is not None and not wanted(fid):
                    continue
                view, draws, searched = found
                engine = top - (round_no - 1)
                draw = (draw_for_start(players, top) if rs["starting_seat"] == "highest-draw"
                        else None)
                how = (f"the engine searched for in {draws} draws" if searched
                       else "the engine dealt or set aside")
                out.append(Fixture(
                    id=fid,
                    description=(f"round {round_no}'s deal for {players} players, pool "
                                 f"{order}: {how}"),
                    clauses=DEAL_ROUND_CLAUSES, source=("computation",),
                    path=f"{SITUATION_PATH}{rs.name}>", line=None, table=None,
                    deal=_deal(players, order, engine, draw),
                    steps=("draw",) * draws,
                    expect=(Expectation(variants=(), scope=scope, state=view),),
                    note=(f"Round {round_no} of {rs.name} for {players} players with the "
                          f"pool {order} ({how}): the table is "
                          "spec/distinguish/solve_deal.py's deal_view of its table and "
                          "options, not an engine's.")))
    return out


def _rotated_rounds(rs: Ruleset, table: dict[int, int], players: int, order: str,
                    rounds: int, most: int | None = None) -> list[tuple[int, Found]]:
    """The rounds _rotated_deals deals at a row and pool order, each with its table
    (_round_deal): from round 2 on, the first whose rotating seat is not seat 0 with the
    engine dealt or set aside, and the first with it searched for; `most` of them at most."""
    top = highest(rs["tile_set"])
    out: list[tuple[int, Found]] = []
    taken: set[bool] = set()
    for round_no in range(2, rounds + 1):
        if most is not None and len(out) >= most:
            break
        if (round_no - 1) % players == 0:
            continue
        engine = top - (round_no - 1)
        draw = draw_for_start(players, top) if rs["starting_seat"] == "highest-draw" else None
        found = _round_deal(rs, table, players, engine, order, draw)
        if found is None or found[2] in taken:
            continue
        taken.add(found[2])
        out.append((round_no, found))
    return out


Found = tuple[dict[str, Any], int, bool]
_KEPT: dict[tuple[Any, ...], list[tuple[tuple[tuple[str, str], ...], Found | None]]] = {}
"""_round_deal's answers, by its arguments, each with the option values it read: rule sets
of one table share them (the 189 of a default conform ask 24,014, of which 7,604 are
worked out)."""


def _round_deal(rs: Ruleset, table: dict[int, int], players: int, engine: int,
                order: str, draw: list[list[str]] | None) -> Found | None:
    """The table after the deal, and after the search if nobody was dealt the engine:
    (view, draws, whether it was searched for); None if the table cannot deal it or an
    option played its own way decides it.

    Kept for the rule sets that agree with one asked before on every option it read:
    deal_view reads its options only by subscript, which _Reads logs, so the same values
    read take the same course (and `other`, the value of an option played its own way,
    is a value like any: _view_known's verdict is the same too)."""
    key = (tuple(sorted(table.items())), players, engine, order,
           None if draw is None else tuple(map(tuple, draw)))
    kept = _KEPT.setdefault(key, [])
    for reads, found in kept:
        if all(rs[o] == v for o, v in reads):
            return None if found is None else (_copied(found[0]), found[1], found[2])
    read: dict[str, None] = {"tile_set": None}
    found = _round_deal_played(rs, table, players, engine, order, draw, read)
    if len(_KEPT) > KEPT_DEALS:
        _KEPT.clear()
        _KEPT[key] = kept
    kept.append((tuple((o, rs[o]) for o in read), found))
    return None if found is None else (_copied(found[0]), found[1], found[2])


KEPT_DEALS = 20000


def _copied(view: dict[str, Any]) -> dict[str, Any]:
    """A view of one's own (a fixture's state is never shared with another's)."""
    return {k: ({s: list(h) for s, h in v.items()} if isinstance(v, dict)
                else list(v) if isinstance(v, list) else v) for k, v in view.items()}


def _round_deal_played(rs: Ruleset, table: dict[int, int], players: int, engine: int,
                       order: str, draw: list[list[str]] | None,
                       read: dict[str, None]) -> Found | None:
    """_round_deal worked out; the options it reads added to `read`."""
    def at(draws: int, full: bool) -> dict[str, Any] | None:
        values = _Reads(dict(rs.choices))
        try:
            return _view_known(rs, values, deal_view(values, table, players, engine, order,
                                                     full=full, draws=draws, draw=draw))
        finally:
            read.update(dict.fromkeys(values.read))

    # each draw of the search looked at without the hands and the boneyard by name (the
    # same options read, the same phase: the same verdict); only the table returned in
    # full (naming every tile of every draw's table was most of conform's situations)
    for draws in range(T.set_size(highest(rs["tile_set"])) + 1):
        view = at(draws, full=False)
        if view is None:
            return None
        if view.get("engine_placed"):
            named = at(draws, full=True)
            assert named is not None  # the same options read, the same phase
            return named, draws, draws > 0
    return None
