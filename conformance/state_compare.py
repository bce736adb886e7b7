"""A state as the fixtures write a table, and the comparison of an implementation's state
with what a fixture expects: the view (`state_view`: tiles by id, hands sorted, the markers
up) and the messages that name what differs (`compare_field`, `compare_result`). runner.py
checks a fixture's `state:` and `result:` with them; fuzz's judge compares two engines'
states the same way."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from mtrain.conformance.adapter import JSON
from mtrain.spec import tiles as T
from mtrain.spec.notation import MEXICAN


def state_view(state: JSON, keys: Iterable[str] | None = None) -> dict[str, Any]:
    """The canonical state in the fixtures' table vocabulary (with `keys`: those fields
    alone, as the whole view has them)."""
    return {k: _VIEW[k](state) for k in (_VIEW if keys is None else keys) if k in _VIEW}


def _trains_view(state: JSON) -> dict[Any, list[int]]:
    trains: dict[Any, list[int]] = {i: _tile_ids(t["tiles"])
                                    for i, t in enumerate(state["trains"])}
    trains[MEXICAN] = _tile_ids(state["mexican"]["tiles"])
    return trains


def _field(key: str) -> Callable[[JSON], Any]:
    return lambda state: state.get(key)


_VIEW: dict[str, Callable[[JSON], Any]] = {
    **{k: _field(k) for k in ("engine", "seat", "starter", "phase", "passes", "scores",
                              "outs", "engine_placed", "open_doubles", "turn_doubles")},
    "hands": lambda state: {i: sorted(_tile_ids(h)) for i, h in enumerate(state["hands"])},
    "trains": _trains_view,
    "marked": lambda state: sorted(i for i, t in enumerate(state["trains"])
                                   if t.get("marker")),
    "boneyard": lambda state: _tile_ids(state["boneyard"]),
    "first_turns": lambda state: sorted(state.get("first_turns", [])),
    "drawn": lambda state: None if state.get("drawn") is None else _tile_id(state["drawn"]),
    "hand_sizes": lambda state: [len(h) for h in state["hands"]],
    "boneyard_size": lambda state: len(state["boneyard"]),
}
"""Each field of state_view, from a state."""


def _tile_id(text: str) -> int:
    return T.parse(text)


def _tile_ids(items: Sequence[str]) -> list[int]:
    """[_tile_id(x) for x in items], by one lookup each where every item is canonical."""
    try:
        return list(map(T.BY_TEXT.__getitem__, items))
    except (KeyError, TypeError):  # T.parse says what is wrong, or reads " 5-3"
        return [_tile_id(x) for x in items]


def compare_field(key: str, want: Any, view: dict[str, Any], max_pip: int) -> list[str]:
    got = view.get(key)
    if key == "hands":
        out = []
        for seat, tiles in want.items():
            exp_ids = sorted(T.parse(str(t), max_pip) for t in tiles or [])
            if got is None or got.get(seat) != exp_ids:
                actual = [T.name(t) for t in (got or {}).get(seat, [])]
                out.append(f"hand {seat}: expected {sorted(T.name(t) for t in exp_ids)}, "
                           f"got {sorted(actual)}")
        return out
    if key == "trains":
        out = []
        for train, tiles in want.items():
            exp_ids = [T.parse(str(t), max_pip) for t in tiles or []]
            actual = (got or {}).get(train, [])
            if actual != exp_ids:
                out.append(f"train {train}: expected {[T.name(t) for t in exp_ids]}, "
                           f"got {[T.name(t) for t in actual]}")
        return out
    if key in ("boneyard",):
        want = [T.parse(str(t), max_pip) for t in want]
    elif key == "drawn" and want is not None:
        want = T.parse(str(want), max_pip)
    elif key in ("marked", "first_turns"):
        want = sorted(want)
    if got != want:
        def show(v: Any) -> Any:  # tiles by name, never by internal id
            if key == "boneyard":
                return [T.name(t) for t in v]
            if key == "drawn" and isinstance(v, int):
                return T.name(v)
            return v
        return [f"{key}: expected {show(want)}, got {show(got)}"]
    return []


def compare_result(want: Any, got: Any) -> list[str]:
    if want is None:
        return [] if got is None else [f"the round should go on; it ended: {got}"]
    if got is None:
        return [f"the round should have ended ({want}); it goes on"]
    out = []
    for key, value in want.items():
        if got.get(key) != value:
            out.append(f"result.{key}: expected {value}, got {got.get(key)}")
    return out
