"""The `deal` kind: the table right after the deal (DEAL-1, ENG-1..8, SEAT-2..6),
searched outright, smallest first (the space is tiny), rather than asked of z3."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from mtrain.spec import tiles as T
from mtrain.spec.distinguish.question import (
    Question,
    Situation,
    flipped,
    option_clauses,
    side_label,
)
from mtrain.spec.model.steps import draw_lead
from mtrain.spec.tilesets import highest


def deal_view(options: Mapping[str, str], table: Mapping[int, int], players: int,
              engine: int, order: str | Sequence[str], full: bool = False,
              draws: int = 0, draw: Sequence[Sequence[str]] | None = None
              ) -> dict[str, Any] | None:
    """DEAL-1, ENG-1..8, SEAT-2..6: the table right after the deal, or None (DEAL-7).

    `order`: `sorted`, `reversed`, or the pool as a list of tile names (None if it is not
    the set less the engine set aside). With `full`, every hand and the boneyard too, by
    tile name: DEAL-1 deals each seat in
    turn a block of its size from the top of the pool, the rest is the boneyard in order,
    and the holder of the engine places it from the hand (ENG-3). With `draws`, the table
    after that many draws of the search for an engine nobody was dealt (None when a draw
    would come once the engine is placed: it is no longer the search). Under
    starting_seat highest-draw, `draw` is the draw for the start (SEAT-5; None: the deal
    is refused)."""
    top = highest(options["tile_set"])
    if players not in table or engine > top:
        return None
    size = table[players]
    round_no = top - engine + 1
    pool = list(range(T.set_size(top)))
    aside = options["engine_procedure"] == "set-aside"
    if aside:
        pool.remove(T.DOUBLE[engine])
    if order == "reversed":
        pool.reverse()
    elif not isinstance(order, str):  # a designed pool: the same tiles, in its order
        listed = [T.parse(x) for x in order]
        if sorted(listed) != sorted(pool):
            return None
        pool = listed
    if players * size > len(pool):
        return None
    hands = [pool[p * size:(p + 1) * size] for p in range(players)]
    drawn = 0
    rotate = (round_no - 1) % players  # SEAT-3's seat, where the searches begin
    if options["starting_seat"] == "highest-draw":
        if draw is None:
            return None  # SEAT-5: no start without the draw
        rotate = draw_lead(draw, players, round_no, top)  # SEAT-5: the draw's seat
    holder = next((p for p, h in enumerate(hands) if T.DOUBLE[engine] in h), None)
    sizes = [len(h) for h in hands]
    if options["engine_procedure"] in ("highest-double-held", "designated-opens"):
        if draws:
            return None  # ENG-7, ENG-8: the search is part of the deal, no action
        bone = pool[players * size:]
        holder, drawn = (_designated(hands, bone, rotate)
                         if options["engine_procedure"] == "designated-opens"
                         else _highest_double(hands, bone, rotate))
        sizes = [len(h) for h in hands]
        start = {"engine-holder": holder, "after-engine": (holder + 1) % players}.get(
            options["starting_seat"], rotate)  # SEAT-2, SEAT-4, SEAT-3
        view = {"hand_sizes": sizes, "engine_placed": True, "phase": "start", "seat": start,
                "starter": start}
    elif aside:
        # SEAT-3, or SEAT-6's heaviest tile in hand (SEAT-2 and SEAT-4 need a holder);
        # read all the same, so that a start of one's own is seen to decide it
        start = {"rotate": rotate,
                 "heaviest-in-hand": _heaviest(hands, rotate)}.get(options["starting_seat"],
                                                                   rotate)
        view = {"hand_sizes": sizes, "engine_placed": True, "phase": "start",
                "seat": start, "starter": start}
    elif holder is None:  # ENG-4, ENG-6: the search starts at the rotating seat
        found = _search(options, hands, pool[players * size:], engine, rotate, draws)
        if found is None:
            return None
        view, drawn = found, draws
    elif draws:
        return None  # the engine was dealt: nobody draws for it
    else:
        sizes[holder] -= 1  # ENG-3: placed at once
        hands[holder] = [t for t in hands[holder] if t != T.DOUBLE[engine]]
        if (options["engine_procedure"] == "holder-lays-and-draws"
                and len(pool) > players * size):  # ENG-5: the boneyard's first tile
            hands[holder].append(pool[players * size])
            sizes[holder] += 1
            drawn += 1
        start = {"engine-holder": holder, "after-engine": (holder + 1) % players}.get(
            options["starting_seat"], rotate)  # SEAT-2, SEAT-4, SEAT-3
        view = {"hand_sizes": sizes, "engine_placed": True, "phase": "start", "seat": start,
                "starter": start}
    if full:
        names = T.NAMES
        view["hands"] = {p: [names[t] for t in h] for p, h in enumerate(hands)}
        view["boneyard"] = [names[t] for t in pool[players * size + drawn:]]
    return view


def _heaviest(hands: Sequence[Sequence[int]], default: int) -> int:
    """SEAT-6: the seat dealt the heaviest tile (pip total, then the higher end)."""
    held = [((T.HIGH[t] + T.LOW[t], T.HIGH[t]), p) for p, h in enumerate(hands) for t in h]
    return max(held)[1] if held else default


def _highest_double(hands: list[list[int]], bone: Sequence[int],
                    rotate: int) -> tuple[int, int]:
    """ENG-7 (`hands` change in place): the highest double dealt leaves its holder's hand;
    with none dealt, seats from `rotate` draw in turn, keeping each tile, until one draws
    a double, which leaves again as the engine. (holder, tiles drawn)."""
    dealt = [(T.HIGH[t], p) for p, h in enumerate(hands) for t in h if T.IS_DOUBLE[t]]
    if dealt:
        number, holder = max(dealt)
        hands[holder].remove(T.DOUBLE[number])
        return holder, 0
    seat = rotate
    for k, t in enumerate(bone):
        if T.IS_DOUBLE[t]:
            return seat, k + 1
        hands[seat].append(t)
        seat = (seat + 1) % len(hands)
    raise ValueError("no double in the set")


def _designated(hands: list[list[int]], bone: Sequence[int],
                rotate: int) -> tuple[int, int]:
    """ENG-8 (`hands` change in place): from seat `rotate`, the designated seat's largest
    double leaves its hand; with none, it draws one tile, a double opening and any other
    kept, and the next seat is designated. (opener, tiles drawn)."""
    seat, k = rotate, 0
    while True:
        held = [t for t in hands[seat] if T.IS_DOUBLE[t]]
        if held:
            hands[seat].remove(max(held))
            return seat, k
        if k < len(bone):
            k += 1
            if T.IS_DOUBLE[bone[k - 1]]:
                return seat, k
            hands[seat].append(bone[k - 1])
        seat = (seat + 1) % len(hands)


def _search(options: Mapping[str, str], hands: list[list[int]], bone: Sequence[int],
            engine: int, rotate: int, draws: int) -> dict[str, Any] | None:
    """`draws` draws of the search for the engine (`hands` grow in place), from seat
    `rotate`: each drawer keeps the tile; the engine is placed as soon as it is drawn
    (ENG-4), or at the end of the lap it was drawn in, or of the boneyard (ENG-6)."""
    players, double = len(hands), T.DOUBLE[engine]
    laps = options["engine_procedure"] == "everyone-draws"
    seat, finder, placed = rotate, -1, False
    for k in range(draws):
        if placed or k >= len(bone):
            return None
        hands[seat].append(bone[k])
        finder = seat if bone[k] == double else finder
        after = (seat + 1) % players
        if finder >= 0 and (not laps or after == rotate or k + 1 == len(bone)):
            placed = True  # ENG-4: found; ENG-6: the lap (or the boneyard) is over
            hands[finder].remove(double)
        else:
            seat = after
    sizes = [len(h) for h in hands]
    if not placed:
        return {"hand_sizes": sizes, "engine_placed": False, "phase": "engine", "seat": seat,
                "starter": rotate}
    start = {"engine-holder": finder, "after-engine": (finder + 1) % players}.get(
        options["starting_seat"], rotate)  # SEAT-2, SEAT-4, SEAT-3
    return {"hand_sizes": sizes, "engine_placed": True, "phase": "start", "seat": start,
            "starter": start}


DEAL_FIELDS: Final[dict[str, tuple[str, ...]]] = {
    "hand_sizes": ("hand_sizes",),
    "engine_procedure": ("engine_placed", "hand_sizes"),  # ENG-5: the replacement
    "starting_seat": ("seat", "starter"),
    "tile_set": ("hand_sizes", "engine_placed", "seat", "starter"),
}
"""What each option changes in the table right after the deal."""

DEAL_CHECKED: Final = ("phase", "seat")
"""Checked after every deal as well: where play stands (ENG-2, ENG-4, SEAT-2, SEAT-3)."""


def solve_deal(q: Question) -> Situation | None:
    """The smallest deal (players, then round) after which the two rule sets differ.

    The space is finite and tiny (player counts of the tables, engines of the set, two
    pool orders), so it is searched exhaustively, smallest first. Only the fields the
    option acts on are compared. With attribution, b with the option set back to a's
    value must give a's fields; when no deal allows that (two options that every
    nameable rule set changes together), the search runs again without it.
    """
    found = _solve_deal(q, q.attribute)
    if found is None and q.attribute:
        found = _solve_deal(q, False)
        if found is not None:
            found.attributed = False
    return found


def _solve_deal(q: Question, attribute: bool) -> Situation | None:
    a, b = q.options("a"), q.options("b")
    tables = {"a": q.table("a"), "b": q.table("b")}
    fields = DEAL_FIELDS[q.option or "tile_set"]
    flip = flipped(q) if attribute else None
    # b with the option set back to a's value deals a's table when that option is the
    # table, b's own otherwise
    flip_table = (q.table("a" if q.option == "hand_sizes" else "b") if flip else {})
    top = min(highest(a["tile_set"]), highest(b["tile_set"]))
    # the search for a missing engine: its draws, for the option that decides it (ENG-6)
    most = T.set_size(top) if q.option == "engine_procedure" else 0
    for players in range(2, max(*tables["a"], *tables["b"]) + 1):
        for order in ("sorted", "reversed"):
            for engine in range(top, -1, -1):
                for draws in range(most + 1):
                    at = (players, engine, order, draws, start_draw(a, b, players, top))
                    va, vb = _view(a, tables["a"], at, fields), _view(b, tables["b"], at, fields)
                    if va is None or vb is None:
                        break
                    if va == vb or (flip is not None
                                    and _view(flip, flip_table, at, fields) != va):
                        continue
                    deal: dict[str, Any] = {"players": players, "engine": engine,
                                            "order": order}
                    if at[4] is not None:
                        deal["draw"] = at[4]  # SEAT-5: the draw for the start
                    keys = [k for k in va if va[k] != vb[k]]
                    summary = "; ".join(f"{k} {va[k]} under {side_label(q, 'a')}, {vb[k]} "
                                        f"under {side_label(q, 'b')}" for k in keys)
                    clauses = option_clauses(q, q.option or "hand_sizes")
                    shown = [*fields, *(k for k in DEAL_CHECKED if k not in fields)]
                    after = f" after {draws} draws" if draws else ""
                    return Situation(q, "deal", {"deal": deal}, ["draw"] * draws,
                                     {"state": _view(a, tables["a"], at, shown)},
                                     {"state": _view(b, tables["b"], at, shown)}, clauses,
                                     f"{players}-player {order} deal, engine {engine}{after}: "
                                     + summary)
    return None


def start_draw(a: Mapping[str, str], b: Mapping[str, str], players: int,
               top: int) -> list[list[str]] | None:
    """Where either side plays highest-draw (SEAT-5), a draw for the start that the last
    seat wins (seat p draws a tile of p pips), so that round 1 does not start at seat 0
    as SEAT-3's does; None elsewhere (the deal is sent without one)."""
    if "highest-draw" not in (a["starting_seat"], b["starting_seat"]):
        return None
    return draw_for_start(players, top)


def draw_for_start(players: int, top: int) -> list[list[str]] | None:
    """A draw for the start (SEAT-5) on a double-`top` set that the last seat wins, with
    no run-off: seat p draws a tile of p pips. None where the set has too few totals."""
    if players > 2 * top + 1:
        return None
    return [[T.name(T.tile_id((p + 1) // 2, p // 2))] for p in range(players)]


def _view(options: Mapping[str, str], table: Mapping[int, int],
          at: tuple[int, int, str, int, list[list[str]] | None],
          keep: Sequence[str]) -> dict[str, Any] | None:
    """deal_view's fields `keep` at (players, engine, order, draws of the search, the draw
    for the start)."""
    players, engine, order, draws, draw = at
    return _fields(deal_view(options, table, players, engine, order, draws=draws,
                             draw=draw), keep)


def _fields(view: dict[str, Any] | None, fields: Sequence[str]) -> dict[str, Any] | None:
    return None if view is None else {k: view[k] for k in fields}
