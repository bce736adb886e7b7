"""Tables in fixture notation: writing a state as a table, and the cuts the shrinker makes.

A table (docs/fixture-format.md) writes every tile out; `compact` leaves out whatever the
defaults say; the cuts take tiles off a table (they go to the one `rest` place).
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

from mtrain.conformance.adapter import JSON
from mtrain.conformance.fuzz.rulesets import Context
from mtrain.spec import tiles as T
from mtrain.spec.notation import MEXICAN, REST


def table_of(state: JSON) -> dict[str, Any]:
    """The fixture table of a canonical state, every tile written out."""
    trains: dict[Any, list[str]] = {s: list(t["tiles"]) for s, t in enumerate(state["trains"])
                                    if t["tiles"]}
    if state["mexican"]["tiles"]:
        trains[MEXICAN] = list(state["mexican"]["tiles"])
    return {
        "engine": state["engine"],
        "seat": state["seat"],
        "starter": state["starter"],
        "phase": state["phase"],
        "hands": {s: list(h) for s, h in enumerate(state["hands"])},
        "trains": trains,
        "marked": [s for s, t in enumerate(state["trains"]) if t.get("marker")],
        "boneyard": list(state["boneyard"]),
        "open_doubles": list(state["open_doubles"]),
        "turn_doubles": list(state["turn_doubles"]),
        "first_turns": sorted(state["first_turns"]),
        "drawn": state.get("drawn"),
        "passes": state["passes"],
        "scores": list(state["scores"]),
        "outs": list(state["outs"]),
    }


def _is_double(text: str) -> bool:
    a, b = text.split("-")
    return a == b


def default_open(table: dict[str, Any]) -> list[int | str]:
    n = len(table["hands"])
    trains = table.get("trains") or {}
    return [k for k in [*range(n), MEXICAN] if trains.get(k) and _is_double(trains[k][-1])]


def compact(table: dict[str, Any], ctx: Context) -> dict[str, Any]:
    """The table with every key left out that says what the default says."""
    n = len(table["hands"])
    seat = table.get("seat", 0)
    out: dict[str, Any] = {}
    if table.get("engine", ctx.max_pip) != ctx.max_pip:
        out["engine"] = table["engine"]
    if seat:
        out["seat"] = seat
    # a table without its starter reads the starting seat (notation.table_starter), which
    # conform cannot under one of its own: gondola's reproducers were not applicable
    if table.get("starter", seat) != seat or "starting_seat" in ctx.unknown:
        out["starter"] = table.get("starter", seat)
    if table.get("phase", "start") != "start":
        out["phase"] = table["phase"]
    out["hands"] = {s: list(table["hands"][s]) for s in range(n)}
    trains = table.get("trains") or {}
    if trains:
        out["trains"] = {k: list(trains[k]) for k in [*range(n), MEXICAN] if trains.get(k)}
    if table.get("marked"):
        out["marked"] = sorted(table["marked"])
    if table.get("boneyard", [REST]) != [REST]:
        out["boneyard"] = list(table["boneyard"])
    if table.get("open_doubles", default_open(table)) != default_open(table):
        out["open_doubles"] = list(table["open_doubles"])
    if table.get("turn_doubles"):
        out["turn_doubles"] = list(table["turn_doubles"])
    first = table.get("first_turns") or []
    if first:
        out["first_turns"] = "all" if sorted(first) == list(range(n)) and n > 1 else first
    if table.get("drawn") is not None:
        out["drawn"] = table["drawn"]
    if table.get("passes"):
        out["passes"] = table["passes"]
    for key in ("scores", "outs"):
        if any(table.get(key) or []):
            out[key] = list(table[key])
    if table.get("result") is not None:  # a finished table's (an "over" probe's)
        out["result"] = table["result"]
    return out


def written(table: dict[str, Any]) -> tuple[int, int]:
    """How much a table writes out: its tiles, and its seats."""
    tiles = sum(len([x for x in h or [] if x != REST]) for h in table["hands"].values())
    tiles += sum(len(v or []) for v in (table.get("trains") or {}).values())
    tiles += len([x for x in table.get("boneyard", []) if x != REST])
    return tiles, len(table["hands"])


def drop_seat(table: dict[str, Any], s: int) -> dict[str, Any]:
    """The table without seat `s` (its hand and train go to `rest`), seats renumbered."""
    def m(x: Any) -> Any:
        return x if x == MEXICAN or x < s else x - 1

    t = copy.deepcopy(table)
    t["hands"] = {m(k): v for k, v in t["hands"].items() if k != s}
    t["trains"] = {m(k): v for k, v in (t.get("trains") or {}).items() if k != s}
    for key in ("marked", "open_doubles", "turn_doubles", "first_turns"):
        t[key] = [m(x) for x in t.get(key) or [] if x != s]
    t["seat"], t["starter"] = m(t["seat"]), m(t["starter"])
    for key in ("scores", "outs"):
        t[key] = [v for i, v in enumerate(t[key]) if i != s]
    result = t.get("result")
    if isinstance(result, dict):  # a finished table's: who went out, the round's scores
        out = result.get("winner")
        t["result"] = {**result, "winner": m(out) if isinstance(out, int) else out,
                       "scores": [v for i, v in enumerate(result["scores"]) if i != s]}
    return t


def drop_train(action: str | None, s: int) -> str | bool | None:
    """`action` on the table without seat `s` (`drop_seat`): a play on a later seat's
    train renamed, False for a play on seat `s`'s own train (it has no place there)."""
    parts = (action or "").split(" ")
    if len(parts) != 4 or parts[0] != "play" or not parts[3].isdigit():
        return action
    k = int(parts[3])
    if k == s:
        return False
    return " ".join([*parts[:3], str(k - 1 if k > s else k)])


def turn_seats(table: dict[str, Any], k: int) -> dict[str, Any]:
    """The same table with every seat moved on `k` places (seat s sits at (s + k) mod n):
    a table the rules answer alike, its seats renamed."""
    n = len(table["hands"])

    def m(x: Any) -> Any:
        return x if x == MEXICAN else (x + k) % n

    t = copy.deepcopy(table)
    t["hands"] = {m(s): v for s, v in t["hands"].items()}
    t["trains"] = {m(s): v for s, v in (t.get("trains") or {}).items()}
    for key in ("marked", "open_doubles", "turn_doubles", "first_turns"):
        if not isinstance(t.get(key), str):  # ("all": every seat, as before)
            t[key] = sorted((m(x) for x in t.get(key) or []), key=str)
    t["seat"], t["starter"] = m(t["seat"]), m(t["starter"])
    for key in ("scores", "outs"):
        values = list(t.get(key) or [])
        if values:
            t[key] = [values[(s - k) % n] for s in range(n)]
    return t


def turn_action(action: str | None, k: int, n: int) -> str | None:
    """`action` on a table whose seats moved on `k` places (`turn_seats`)."""
    parts = (action or "").split(" ")
    if not k or len(parts) != 4 or parts[0] != "play" or not parts[3].isdigit():
        return action
    return " ".join([*parts[:3], str((int(parts[3]) + k) % n)])


def swap_numbers(table: dict[str, Any], a: int, b: int) -> dict[str, Any]:
    """The same table with the numbers `a` and `b` swapped on every tile, its engine's
    too (a table of the round whose engine is the other number): one the rules play
    alike but for the pips a hand counts."""
    t = copy.deepcopy(table)
    t["engine"] = _swap(int(t["engine"]), a, b)
    t["hands"] = {s: [swap_tile(x, a, b, True) for x in h or []] for s, h in t["hands"].items()}
    t["trains"] = {k: [swap_tile(x, a, b) for x in v or []]
                   for k, v in (t.get("trains") or {}).items()}
    t["boneyard"] = [swap_tile(x, a, b, True) for x in t.get("boneyard") or []]
    if t.get("drawn") is not None:
        t["drawn"] = swap_tile(t["drawn"], a, b, True)
    return t


def swap_tile(text: str, a: int, b: int, high_first: bool = False) -> str:
    """A tile written `x-y` with `a` and `b` swapped, its ends kept in order (a train's
    tile stays laid the same way), or, `high_first`, its higher number first (a tile
    in a hand, as tables write it); `rest` as it is."""
    if text == REST:
        return text
    x, y = (_swap(int(n), a, b) for n in text.split("-"))
    if high_first and y > x:
        x, y = y, x
    return f"{x}-{y}"


def swap_action(action: str | None, a: int, b: int) -> str | None:
    """`action` on a table whose numbers `a` and `b` are swapped (`swap_numbers`)."""
    parts = (action or "").split(" ")
    if len(parts) != 4 or parts[0] != "play":
        return action
    return " ".join([parts[0], swap_tile(parts[1], a, b), *parts[2:]])


def _swap(x: int, a: int, b: int) -> int:
    return b if x == a else a if x == b else x


def reroute(table: dict[str, Any], key: Any, max_pip: int) -> dict[str, Any] | None:
    """The table with train `key` relaid by the shortest way from the engine to the same
    open end (a last double stays last), with tiles nobody holds; None if none is shorter."""
    tiles: list[str] = table["trains"][key]
    engine = int(table.get("engine", max_pip))
    end = int(tiles[-1].split("-")[1])
    double = _is_double(tiles[-1])
    goal = end  # a last double is laid on its own number: the way leads to that number
    written_ids: set[int] = set()
    for k, train in (table.get("trains") or {}).items():
        if k != key:
            written_ids.update(T.parse(x) for x in train or [])
    for hand in table["hands"].values():
        written_ids.update(T.parse(x) for x in hand or [] if x != REST)
    written_ids.update(T.parse(x) for x in table.get("boneyard") or [] if x != REST)
    free = [t for t in range(T.set_size(max_pip))
            if t not in written_ids and t != T.DOUBLE[engine] and not T.IS_DOUBLE[t]]
    # breadth-first over the numbers, from the engine
    back: dict[int, tuple[int, int]] = {engine: (-1, -1)}
    frontier = [engine]
    while frontier and goal not in back:
        nxt = []
        for a in frontier:
            for t in free:
                b = T.OTHER_END[t][a]
                if b >= 0 and b not in back:
                    back[b] = (a, t)
                    nxt.append(b)
        frontier = nxt
    if goal not in back:
        return None
    path: list[str] = []
    at = goal
    while at != engine:
        prev, t = back[at]
        path.append(T.oriented(t, prev))
        at = prev
    path.reverse()
    if double:
        path.append(f"{end}-{end}")
    if not path or len(path) >= len(tiles):
        return None
    t2 = copy.deepcopy(table)
    t2["trains"][key] = path
    return t2


def splices(table: dict[str, Any], key: Any, max_pip: int, after: int = 0
            ) -> Iterator[tuple[int, dict[str, Any]]]:
    """The table with a stretch inside train `key` taken out or relaid shorter, its last
    tile kept, each with its rank in the order tried (from rank `after` on): first each
    stretch that leaves a number and comes back to it, taken out (the longest first); then
    stretches relaid by a shorter way between their two numbers with tiles nobody holds,
    the longest first, then half as long, and so on. Where a train's tail cannot go (each
    open number bound to stay so, as at a blocked end whose open double's number is used
    up), a stretch between two of its tiles may."""
    tiles: list[str] = table["trains"][key]
    enter = [int(x.split("-")[0]) for x in tiles]
    leave = [int(x.split("-")[1]) for x in tiles]
    longest = len(tiles) - 1

    def cut(i: int, j: int, path: list[str]) -> dict[str, Any]:
        t2 = copy.deepcopy(table)
        t2["trains"][key] = [*tiles[:i], *path, *tiles[j + 1:]]
        return t2

    for span in range(longest, 0, -1):  # ranks 0 .. longest - 1: loops
        rank = longest - span
        if rank >= after:
            for i in range(len(tiles) - span):
                if enter[i] == leave[i + span - 1]:
                    yield rank, cut(i, i + span - 1, [])
    free = _free(table, max_pip)
    span, rank = longest, longest
    while span >= 2:  # then relays, halving
        if rank >= after:
            for i in range(len(tiles) - span):
                j = i + span - 1
                if enter[i] != leave[j]:
                    path = _way(enter[i], leave[j], free, span - 1)
                    if path is not None:
                        yield rank, cut(i, j, path)
        span, rank = span // 2, rank + 1


def _free(table: dict[str, Any], max_pip: int) -> list[int]:
    """The tiles a table does not write (in `rest`), doubles apart."""
    written_ids: set[int] = set()
    for train in (table.get("trains") or {}).values():
        written_ids.update(T.parse(x) for x in train or [])
    for hand in table["hands"].values():
        written_ids.update(T.parse(x) for x in hand or [] if x != REST)
    written_ids.update(T.parse(x) for x in table.get("boneyard") or [] if x != REST)
    return [t for t in range(T.set_size(max_pip))
            if t not in written_ids and not T.IS_DOUBLE[t]]


def _way(a: int, b: int, free: list[int], shorter: int) -> list[str] | None:
    """The shortest way of `free` tiles from number `a` to `b` of `shorter` tiles at most
    (no tile where `a` is `b`), else None."""
    if a == b:
        return []
    back: dict[int, tuple[int, int]] = {a: (-1, -1)}
    frontier = [a]
    for _ in range(shorter):
        nxt = []
        for x in frontier:
            for t in free:
                y = T.OTHER_END[t][x]
                if y >= 0 and y not in back:
                    back[y] = (x, t)
                    nxt.append(y)
        frontier = nxt
        if b in back:
            path: list[str] = []
            at = b
            while at != a:
                prev, t = back[at]
                path.append(T.oriented(t, prev))
                at = prev
            return path[::-1]
    return None


def cut_train(table: dict[str, Any], key: Any, k: int) -> dict[str, Any]:
    """The table with the last `k` tiles of train `key` taken up (they go to `rest`)."""
    t = copy.deepcopy(table)
    tiles = t["trains"][key]
    del tiles[len(tiles) - k:]
    if not tiles:
        del t["trains"][key]
    t["open_doubles"] = [x for x in t.get("open_doubles") or [] if x != key]
    t["turn_doubles"] = [x for x in t.get("turn_doubles") or [] if x != key]
    if t.get("phase") == "follow" and not t["turn_doubles"]:
        t["phase"] = "start"  # the turn's doubles taken up: it is a turn from its start
    if tiles and _is_double(tiles[-1]):
        t["open_doubles"].append(key)
    return t
