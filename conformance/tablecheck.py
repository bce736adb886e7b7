"""Fixture expectations checked against the table they speak about, as the file loads.

The schema knows the shape of an expectation, not the table: an expected hand may name a
tile that is not in the rule set's tile set, a seat the table does not have, a score
list of the wrong length. Run against an implementation, such a fixture fails, and the
failure is blamed on the implementation; here it is a load error at the expectation's
line instead, so `mtrain lint` and every run report it. Only what can be checked from
the table itself is: whether a play is legal is for the engine. Refusals are not
checked, since naming a train or a tile that does not exist is how a fixture asks for
one to be refused (TRAIN-1, SET-1).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Any

from mtrain.spec import tiles as T
from mtrain.spec.catalog import RulesetError, catalog
from mtrain.spec.yamlload import SpecError

from .fixture import ACTION_RE, MEXICAN, Expectation, Fixture

SEAT_LISTS = ("marked", "first_turns")
TRAIN_LISTS = ("open_doubles", "turn_doubles")
PER_SEAT = ("scores", "outs", "hand_sizes")


@functools.lru_cache(maxsize=256)
def max_pip(variant: str) -> int | None:
    """The highest number of the rule set's tiles; None if the name does not resolve
    (lint reports that on its own)."""
    try:
        tile_set = catalog().ruleset(variant)["tile_set"]
    except (RulesetError, SpecError, KeyError):
        return None
    return int(str(tile_set).rsplit("-", 1)[1])


def seats_of(fx: Fixture) -> int | None:
    if fx.table is not None:
        hands = fx.table.get("hands")
        return len(hands) if isinstance(hands, dict) else None
    if fx.deal is not None and isinstance(fx.deal.get("players"), int):
        players: int = fx.deal["players"]
        return players
    return None


def expectation_problems(fx: Fixture) -> list[SpecError]:
    """Every expectation of `fx` (and its steps) that the table cannot meet, each at its
    expectation's line."""
    n = seats_of(fx)
    if n is None:
        return []
    out: list[SpecError] = []
    pips: dict[str, int | None] = {name: max_pip(name) for exp in fx.expect
                                   for name in exp.variants} or {"any rule set": T.MAX_PIP}
    for k, step in enumerate(fx.steps, 1):
        for message in _action(step, n, pips):
            out.append(SpecError(fx.path, fx.line, f"fixture {fx.id}: step {k}: {message}"))
    for exp in fx.expect:
        # no variant named (a scope of option values only): at least a tile of some set
        sets = {name: pips[name] for name in exp.variants} or {"any rule set": T.MAX_PIP}
        out += [SpecError(fx.path, exp.line or fx.line, f"fixture {fx.id}: expected {m}")
                for m in _expectation(exp, n, sets)]
    return out


def _expectation(exp: Expectation, n: int, sets: dict[str, int | None]) -> Iterator[str]:
    state = exp.state
    for key in ("seat", "starter"):
        if key in state:
            yield from _seat(state[key], n, f"state.{key}")
    hands = state.get("hands")
    if hands is not None:
        for seat, tiles in hands.items():
            yield from _seat(seat, n, "state.hands")
            yield from _tiles(tiles, sets, f"state.hands[{seat}]")
    trains = state.get("trains")
    if trains is not None:
        for train, tiles in trains.items():
            yield from _train(train, n, "state.trains")
            yield from _tiles(tiles, sets, f"state.trains[{train}]")
    for key in SEAT_LISTS:
        for seat in state.get(key) or []:
            yield from _seat(seat, n, f"state.{key}")
    for key in TRAIN_LISTS:
        for train in state.get(key) or []:
            yield from _train(train, n, f"state.{key}")
    if "boneyard" in state:
        yield from _tiles(state["boneyard"], sets, "state.boneyard")
    if state.get("drawn") is not None:
        yield from _tiles([state["drawn"]], sets, "state.drawn")
    for key in PER_SEAT:
        if key in state:
            yield from _per_seat(state[key], n, f"state.{key}")
    if isinstance(exp.result, dict):
        if exp.result.get("winner") is not None:
            yield from _seat(exp.result["winner"], n, "result.winner")
        if "scores" in exp.result:
            yield from _per_seat(exp.result["scores"], n, "result.scores")
    for seat in exp.winners or ():
        yield from _seat(seat, n, "winners")
    for action in exp.legal or ():
        yield from (f"legal action `{action}`: {m}" for m in _action(action, n, sets))


def _seat(value: Any, n: int, where: str) -> Iterator[str]:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < n:
        yield f"{where}: {value!r} is not a seat at this table (seats 0..{n - 1})"


def _train(value: Any, n: int, where: str) -> Iterator[str]:
    if value != MEXICAN:
        yield from (m.replace("a seat", "a train (a seat or mexican)")
                    for m in _seat(value, n, where))


def _tiles(tiles: Any, sets: dict[str, int | None], where: str) -> Iterator[str]:
    if tiles is None:  # an empty hand or train, as in a table
        return
    if not isinstance(tiles, list):
        yield f"{where}: expected a list of tiles, got {tiles!r}"
        return
    for tile in tiles:
        yield from _tile(tile, sets, where)
    if len({str(t) for t in tiles}) != len(tiles):
        yield f"{where}: a tile is written twice"


def _tile(tile: Any, sets: dict[str, int | None], where: str) -> Iterator[str]:
    for name, pip in sets.items():
        if pip is None:
            continue
        try:
            T.parse(str(tile), pip)
        except T.TileError as e:
            yield f"{where}: {e} (under {name})"
            return


def _per_seat(values: Any, n: int, where: str) -> Iterator[str]:
    if not isinstance(values, list) or len(values) != n:
        yield f"{where}: expected one value per seat ({n}), got {values!r}"


def _action(text: str, n: int, sets: dict[str, int | None]) -> Iterator[str]:
    m = ACTION_RE.match(text.strip())
    if m is None or m.group(4):
        return
    yield from _tile(m.group(2), sets, "the tile")
    train: Any = MEXICAN if m.group(3) == MEXICAN else int(m.group(3))
    yield from _train(train, n, "the train")
