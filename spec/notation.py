"""The table notation: tables and actions as people write them in fixtures, and the
canonical state a table stands for under a rule set.

The notation (docs/fixture-format.md) is written for people: hands by seat, trains in
laying order in either orientation, `rest` for the tiles nobody needs to see. The same
table can serve a double-12 and a double-9 rule set, so the canonical state is built per
rule set (`table_state`). The fixture format, the distinguishing search and the harness
all speak it, so it belongs to the data core.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from typing import Any

from mtrain.spec import tiles as T
from mtrain.spec.ruleset import Ruleset
from mtrain.spec.tilesets import highest

MEXICAN = "mexican"


REST = "rest"


# ASCII digits and a seat of the schema's (0..19): \d would take a full-width or Arabic
# digit, and int() of 5,000 of them is an error of Python's own
ACTION_RE = re.compile(r"^(play) ([0-9]+-[0-9]+) on (1[0-9]|[0-9]|mexican)\Z"
                       r"|^(draw|pass|end-chain)\Z", re.ASCII)


NEXT_ROUND = "next-round"


NEXT_ROUND_RE = re.compile(r"^next-round(?: (sorted|reversed))?$")
"""The step that deals the next round of the match once a round is over (MATCH-1)."""


class FixtureError(ValueError):
    """A fixture that cannot be set up under a rule set (a 10 on a double-9 set, ...).

    `at`: where in the fixture's table the fault is (("hands", 0, 1): the second tile of
    hand 0), so that the file's line can be named; () when it is the table as a whole."""

    def __init__(self, message: str, at: tuple[str | int, ...] = ()) -> None:
        super().__init__(message)
        self.at = at


def deal_order(rs: Ruleset, engine: int, order: Any) -> list[str]:
    """The pool to deal a round of engine `engine` from: `sorted`, `reversed` or a list of
    tiles; the pool is the set less the engine where the rule set sets it aside (ENG-2)."""
    max_pip = max_pip_of(rs)
    # (a traced rule set logs it, as deciding nothing: a setup refused for its player
    # count, DEAL-7, does not depend on the pool, and a deal made reads it again)
    aside = rs.pool_says("engine_procedure", "set-aside")
    try:
        key = order if isinstance(order, str) else tuple(order)
        hash(key)
    except TypeError:  # not a list of plain values: named in the error below
        return _deal_order(max_pip, aside, engine, order)
    return list(_kept_order(max_pip, aside, engine, key))


@functools.lru_cache(maxsize=4096)
def _kept_order(max_pip: int, aside: bool, engine: int, order: Any) -> tuple[str, ...]:
    """_deal_order, kept: conform deals a fixture under dozens of rule sets alike."""
    return tuple(_deal_order(max_pip, aside, engine, order))


def _deal_order(max_pip: int, aside: bool, engine: int, order: Any) -> list[str]:
    pool = [t for t in range(T.set_size(max_pip))]
    if aside:
        pool.remove(T.DOUBLE[engine])
    if order == "sorted":
        return [T.name(t) for t in pool]
    if order == "reversed":
        return [T.name(t) for t in reversed(pool)]
    ids = [parse_tile(x, max_pip, ("deal", "order", i)) for i, x in enumerate(order)]
    if sorted(ids) != pool:  # DEAL-1: the pool dealt from is the whole set, once each
        twice = sorted({t for t in ids if ids.count(t) > 1})
        missing = sorted(set(pool) - set(ids))
        extra = sorted(set(ids) - set(pool))  # the engine, set aside (ENG-2)
        said = "; ".join(f"{what}: {', '.join(T.name(t) for t in tiles[:6])}"
                         f"{', ...' if len(tiles) > 6 else ''}"
                         for what, tiles in (("twice", twice), ("missing", missing),
                                             ("set aside, not dealt", extra)) if tiles)
        raise FixtureError(f"deal.order must list each of the {len(pool)} tiles dealt from "
                           f"exactly once (the double-{max_pip} set"
                           + (f" less the engine [{engine}-{engine}]" if aside else "")
                           + f"); it lists {len(ids)} ({said}) [DEAL-1]", ("deal", "order"))
    return [T.name(t) for t in ids]


def next_round_order(step: str) -> str:
    """`sorted` or `reversed`: the pool order of a `next-round` step."""
    m = NEXT_ROUND_RE.match(step)
    assert m is not None, step
    return m.group(1) or "sorted"


def is_next_round(step: str) -> bool:
    return step.split(" ", 1)[0] == NEXT_ROUND


def max_pip_of(rs: Mapping[str, str]) -> int:
    return highest(rs["tile_set"])


def round_of(engine: int, max_pip: int, at: tuple[str | int, ...] = ()) -> int:
    if not 0 <= engine <= max_pip:  # `at`: the engine's place, so its line is named
        raise FixtureError(f"engine [{engine}-{engine}] is not in a double-{max_pip} set", at)
    return max_pip - engine + 1


def parse_tile(text: Any, max_pip: int, at: tuple[str | int, ...] = ()) -> int:
    try:
        return T.parse(str(text), max_pip)
    except T.TileError as e:
        raise FixtureError(str(e), at) from None


def parse_train(key: Any, players: int) -> int | str:
    if key == MEXICAN:
        return MEXICAN
    if type(key) is int and 0 <= key < players:
        return key
    quoted = " (unquoted)" if isinstance(key, str) and key.isdigit() else ""
    raise FixtureError(f"{key!r} is not a train (a seat 0..{players - 1}{quoted} or "
                       "'mexican')")


def _train_at(key: Any, players: int, at: tuple[str | int, ...]) -> int | str:
    """parse_train of a train the table names at `at`, so that its line is named."""
    try:
        return parse_train(key, players)
    except FixtureError as e:
        raise FixtureError(str(e), at) from None


def table_state(table: Mapping[str, Any], rs: Ruleset) -> dict[str, Any]:
    """Canonical state JSON from the table notation, under rule set `rs`."""
    max_pip = max_pip_of(rs)
    engine = int(table.get("engine", max_pip))
    round_no = round_of(engine, max_pip, ("engine",))
    hands_in = table["hands"]
    n = len(hands_in)
    for key in hands_in:  # '0' (quoted) is text, which no seat number sorts beside
        if type(key) is not int:
            raise FixtureError(f"hands: {key!r} is not a seat: seats are numbers 0, 1, ... "
                               "(unquoted)", ("hands", key))
    if sorted(hands_in) != list(range(n)):
        raise FixtureError(f"hands must list seats 0..{n - 1}, got {sorted(hands_in)}",
                           ("hands",))
    phase = table.get("phase", "start")
    where_is: dict[int, str] = {}  # tile -> where the table writes it, for messages
    spelt: dict[int, str] = {}  # tile -> how the table first wrote it (5-3 or 3-5)
    rest_at: list[tuple[str, int]] = []

    def place(t: int, where: str, at: tuple[str | int, ...], written: Any) -> None:
        if t == T.DOUBLE[engine] and phase != "engine":
            raise FixtureError(f"{T.name(t)} is the engine, already in the centre: it is "
                               f"written in {where} (only in phase `engine` is it elsewhere)",
                               at)
        if t in where_is:
            # one place named once, and both spellings when they differ (5-3 and 3-5 are
            # one tile), so the author sees which two entries to reconcile
            again = str(written).strip()
            as_ = (f" (as {spelt[t]} and as {again})" if again != spelt[t]
                   else f" (both times as {again})")
            places = (f"in {where}" if where == where_is[t]
                      else f"in {where_is[t]} and in {where}")
            raise FixtureError(f"{T.name(t)} is written twice: {places}{as_}", at)
        where_is[t] = where
        spelt[t] = str(written).strip()

    def tiles_of(items: Sequence[Any], where: str, key: int) -> list[int]:
        out = []
        for k, x in enumerate(items):
            at: tuple[str | int, ...] = ("hands", key, k) if where == "hand" else (
                "boneyard", k)
            if x == REST:
                # `rest` goes to the end of its place (docs/fixture-format.md): in the
                # boneyard, written before a tile, it would draw that tile first unsaid;
                # twice in one place, it would give that place two shares of the leftovers
                named = f"hand {key}" if where == "hand" else "the boneyard"
                if REST in items[k + 1:]:
                    again = k + 1 + list(items[k + 1:]).index(REST)
                    raise FixtureError(f"`rest` is written twice in {named}: once stands for "
                                       "every leftover tile it holds", (*at[:-1], again))
                if where == "boneyard" and k < len(items) - 1:
                    raise FixtureError(
                        "`rest` in the boneyard stands for the leftover tiles at its end, "
                        f"drawn last: write it last (here {items[k + 1]!s} after it would be "
                        "drawn before them)", at)
                rest_at.append((where, key))
                continue
            t = parse_tile(x, max_pip, at)
            place(t, f"hand {key}" if where == "hand" else "the boneyard", at, x)
            out.append(t)
        return out

    hands = {s: tiles_of(hands_in[s] or [], "hand", s) for s in range(n)}
    trains: dict[int | str, list[str]] = {}
    for key, items in (table.get("trains") or {}).items():
        train = _train_at(key, n, ("trains", key))
        end, oriented = engine, []
        for k, x in enumerate(items or []):
            at = ("trains", key, k)
            t = parse_tile(x, max_pip, at)
            far = T.OTHER_END[t][end]
            if far < 0:
                raise FixtureError(f"train {train}: {x} does not continue from {end}", at)
            place(t, f"train {train}", at, x)
            oriented.append(T.oriented(t, end))
            end = far
        trains[train] = oriented
    bone_in = table.get("boneyard", [REST])
    boneyard = tiles_of(bone_in, "boneyard", 0)
    if phase != "engine":
        where_is[T.DOUBLE[engine]] = "the centre"
    rest = [t for t in range(T.set_size(max_pip)) if t not in where_is]
    if not rest_at and rest:
        raise FixtureError(f"{len(rest)} tiles of the set are nowhere (add `rest`): "
                           + ", ".join(T.name(t) for t in rest[:8]))
    # Several `rest`s share the leftover tiles out one at a time, in set order, to each
    # place in turn, in the order the table writes them (docs/fixture-format.md).
    for k, t in enumerate(rest):
        where, key = rest_at[k % len(rest_at)]
        (hands[key] if where == "hand" else boneyard).append(t)

    def train_json(key: int | str) -> dict[str, Any]:
        tiles = trains.get(key, [])
        end = int(tiles[-1].split("-")[1]) if tiles else engine
        body: dict[str, Any] = {"tiles": tiles, "end": end}
        if key != MEXICAN:
            body["marker"] = key in marked
        return body

    marked = set(table.get("marked") or [])
    if MEXICAN in marked:
        raise FixtureError("`marked: [mexican]`: the Mexican Train never carries a marker "
                           "(MARK-2); `marked` lists the seats whose own train is marked",
                           ("marked",))
    for i, s in enumerate(table.get("marked") or []):
        _train_at(s, n, ("marked", i))
    default_open = [k for k in [*range(n), MEXICAN]
                    if trains.get(k) and _is_double(trains[k][-1])]
    first = table.get("first_turns", [])
    first_turns = list(range(n)) if first == "all" else sorted(
        _seat(s, n, "first_turns", ("first_turns", i)) for i, s in enumerate(first))
    if len(set(first_turns)) < len(first_turns):  # a set of seats, each once
        twice = next(s for s in first_turns if first_turns.count(s) > 1)
        raise FixtureError(f"first_turns: seat {twice} is listed twice", ("first_turns",))
    seat = _seat(table.get("seat", 0), n, "seat", ("seat",))
    for key in ("scores", "outs"):  # one number per player (MATCH-1)
        if key in table and len(table[key]) != n:
            raise FixtureError(f"{key}: {len(table[key])} numbers for {n} seats", (key,))
    drawn = table.get("drawn")
    result = table.get("result")
    if (result is None) == (phase == "over"):  # a finished table says how it ended
        raise FixtureError("a table in phase `over` writes its `result` (end, winner, "
                           "scores), and only such a table does", ("result",)
                           if result is not None else ("phase",))
    return {
        "round": round_no,
        "engine": engine,
        "engine_placed": phase != "engine",
        "phase": phase,
        "seat": seat,
        "starter": table_starter(table, rs, round_no, n, seat),
        "hands": [[T.name(t) for t in sorted(hands[s], key=_hand_order)] for s in range(n)],
        "boneyard": [T.name(t) for t in boneyard],
        "trains": [train_json(s) for s in range(n)],
        "mexican": train_json(MEXICAN),
        "open_doubles": [_train_at(k, n, ("open_doubles", i))
                         for i, k in enumerate(table.get("open_doubles", default_open))],
        "turn_doubles": [_train_at(k, n, ("turn_doubles", i))
                         for i, k in enumerate(table.get("turn_doubles", []))],
        "drawn": None if drawn is None else T.name(parse_tile(drawn, max_pip, ("drawn",))),
        "first_turns": first_turns,
        "passes": int(table.get("passes", 0)),
        "scores": list(table.get("scores", [0] * n)),
        "outs": list(table.get("outs", [0] * n)),
        "result": result,
    }


def table_starter(table: Mapping[str, Any], rs: Ruleset, round_no: int, players: int,
                  seat: int) -> int:
    """The round's starter of a table: as written; else, under the rotating start (SEAT-3),
    the round's own, since it is known; else the seat to move. The starting seat is read
    only where no starter is written."""
    if "starter" in table:
        return _seat(table["starter"], players, "starter", ("starter",))
    return (round_no - 1) % players if rs.says("starting_seat", "rotate") else seat


def _seat(value: Any, players: int, key: str, at: tuple[str | int, ...]) -> int:
    """A seat a table names (the seat to move, the starter, one of first_turns): the
    decoder would refuse any other, and the failure would be the implementation's."""
    if type(value) is not int or not 0 <= value < players:
        raise FixtureError(f"{key}: {value!r} is not a seat at this table "
                           f"(seats 0..{players - 1})", at)
    return value


def _is_double(text: str) -> bool:
    a, b = text.split("-")
    return a == b


def _hand_order(t: int) -> tuple[int, int]:
    return (-T.HIGH[t], -T.LOW[t])


def action_json(text: str, max_pip: int = T.MAX_PIP) -> dict[str, Any]:
    """`play 5-3 on mexican` -> {"type": "play", "tile": "5-3", "train": "mexican"}."""
    m = ACTION_RE.match(text.strip())
    if not m:
        raise FixtureError(f"not an action: {text!r} (play A-B on SEAT|mexican, draw, pass, "
                           "end-chain)")
    if m.group(4):
        return {"type": m.group(4)}
    tile = T.name(parse_tile(m.group(2), max_pip))
    train: int | str = MEXICAN if m.group(3) == MEXICAN else int(m.group(3))
    return {"type": "play", "tile": tile, "train": train}


def action_text(action: Mapping[str, Any]) -> str:
    """The canonical text of an action in JSON form (tile high end first)."""
    if action.get("type") != "play":
        return str(action.get("type"))
    try:
        tile = T.name(T.parse(str(action.get("tile"))))
    except T.TileError:
        tile = str(action.get("tile"))
    return f"play {tile} on {action.get('train')}"


def canonical_action(text: str) -> str:
    return action_text(action_json(text))


def canonical_step(text: str) -> str:
    """A step in canonical text: an action, or `next-round` (its order named unless it
    is the default, sorted)."""
    m = NEXT_ROUND_RE.match(text.strip())
    if m is not None:
        return NEXT_ROUND if m.group(1) in (None, "sorted") else f"{NEXT_ROUND} {m.group(1)}"
    return canonical_action(text)
