"""The canonical JSON form of states and actions (spec/schemas/state, action).

Tiles are text, high end first ("12-5"); inside a train each tile is written in the
direction it was laid, near end first ("5-12" after a 5). A train is named by its
owner's seat, or "mexican". Every list has one canonical order, so equal states have
equal JSON, and `state_from_json(state_to_json(s)) == s`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeGuard

from mtrain.reference.engine import (
    DRAW,
    END_CHAIN,
    ENGINE,
    OVER,
    PASS,
    PLAY,
    Action,
    Result,
    State,
    engine_number,
    no_such_round,
)
from mtrain.reference.rules import Rules
from mtrain.spec import tiles as T
from mtrain.spec.errors import shown

PHASES = ("engine", "start", "chain", "follow", "over")
MEXICAN = "mexican"
MAX_SEATS = len(PLAY) - 1
"""The most seats a state may have: the largest table a hand-size table may list
(`MAX_PLAYERS`); the engine's trains are numbered for no more."""
MAX_COUNT = 2**31 - 1
"""The largest score, match total or pass count a state may hold: far above any real
match, and what a 32-bit integer holds in engines written in other languages."""


class StateError(ValueError):
    """A JSON state or action that does not describe a table; names the field at fault.

    `clause` is set when the fault is a rule of the game rather than a malformed message
    (a train that does not exist: TRAIN-1; a tile outside the set: SET-1).
    """

    def __init__(self, message: str, clause: str | None = None) -> None:
        super().__init__(message)
        self.clause = clause


def hand_order(t: int) -> tuple[int, int]:
    return (-T.HIGH[t], -T.LOW[t])


def train_to_json(state: State, train: int) -> int | str:
    return MEXICAN if train == state.players else train


def action_to_json(state: State, action: Action) -> dict[str, Any]:
    if action.kind == "play":
        return {"type": "play", "tile": T.name(action.tile),
                "train": train_to_json(state, action.train)}
    return {"type": action.kind}


def action_from_json(state: State, data: Any) -> Action:
    if not isinstance(data, dict) or "type" not in data:
        raise StateError(f"an action is an object with a 'type'; got {data!r}")
    kind = data["type"]
    simple = {"draw": DRAW, "pass": PASS, "end-chain": END_CHAIN}
    if kind in simple:
        extra = set(data) - {"type"}
        if extra:
            raise StateError(f"a {kind} action has no field {sorted(extra)[0]!r}")
        return simple[kind]
    if kind != "play":
        raise StateError(f"unknown action type {shown(kind)}; known: play, draw, pass, end-chain")
    extra = set(data) - {"type", "tile", "train"}
    if extra:
        raise StateError(f"a play action has no field {sorted(extra)[0]!r}")
    _play_fields_written(data)
    try:
        tile = T.parse(data["tile"], state.rules.max_pip)
    except T.TileError as e:
        raise StateError(f"action.tile: {e}", "SET-1") from None
    return Action("play", tile, train_from_json(state.players, data["train"], "action.train"))


def _play_fields_written(data: dict[str, Any]) -> None:
    """A play's tile and train as action.schema.json writes them, or a StateError with no
    clause: a field missing or of another JSON type (a number, a list, null for a tile; a
    text other than 'mexican', a negative number, true for a train) makes no action at
    all, a malformed request, where a tile of no set in play ('13-1' on double-12) or a
    train the table lacks (seat 5 of 4) is an action the rules refuse (SET-1, TRAIN-1)."""
    for key in ("tile", "train"):
        if key not in data:
            raise StateError(f"a play action needs a {key!r}")
    tile, train = data["tile"], data["train"]
    # T.BY_TEXT: every 'a-b' of the largest set, either end first: the schema's pattern
    if not isinstance(tile, str) or tile not in T.BY_TEXT:
        raise StateError(f"action.tile: {shown(tile)} is not a tile written 'a-b' (ends 0 to "
                         f"{T.MAX_PIP}, for example '12-5')")
    if train != MEXICAN and not (isinstance(train, int) and not isinstance(train, bool)
                                 and train >= 0):
        raise StateError(f"action.train: {shown(train)} is not a train written as a seat "
                         "number (0 or more) or 'mexican'")


def train_from_json(players: int, value: Any, where: str) -> int:
    if value == MEXICAN:
        return players
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < players:
        return value
    raise StateError(f"{where}: {value!r} is not a train (a seat 0..{players - 1} or 'mexican')",
                     "TRAIN-1")


def _oriented(tiles: tuple[int, ...], start: int) -> list[str]:
    """A train's tiles as texts, near end first from `start` (TRAIN-2)."""
    key = (start, tiles)
    known = _WRITTEN_TRAINS.get(key)
    if known is None:
        out, end = [], start
        oriented, other = T.ORIENTED, T.OTHER_END
        for t in tiles:
            out.append(oriented[t][end])
            end = other[t][end]
        if len(_WRITTEN_TRAINS) > _KEPT:
            _WRITTEN_TRAINS.clear()
        known = _WRITTEN_TRAINS[key] = tuple(out)
    return list(known)


def _hand_texts(mask: int) -> list[str]:
    """A hand's tiles as texts, highest first (hand_order)."""
    known = _WRITTEN_HANDS.get(mask)
    if known is None:
        if len(_WRITTEN_HANDS) > _KEPT:
            _WRITTEN_HANDS.clear()
        names = T.NAMES
        known = _WRITTEN_HANDS[mask] = tuple(names[t] for t in T.descending(mask))
    return list(known)


_WRITTEN_TRAINS: dict[tuple[int, tuple[int, ...]], tuple[str, ...]] = {}
_WRITTEN_HANDS: dict[int, tuple[str, ...]] = {}
"""Trains and hands written before: from one state to the next most of them do not change
(the states a harness sends and an engine answers are written tile by tile otherwise)."""


def state_to_json(state: State) -> dict[str, Any]:
    n = state.players
    names = T.NAMES

    def train(i: int) -> dict[str, Any]:
        body: dict[str, Any] = {"tiles": _oriented(state.trains[i], state.engine),
                                "end": state.ends[i]}
        if i < n:
            body["marker"] = bool(state.markers >> i & 1)
        return body

    result = None
    if state.result is not None:
        r = state.result
        result = {"end": r.end, "winner": r.winner if r.winner >= 0 else None,
                  "scores": list(r.scores)}
    return {
        "round": state.round,
        "engine": state.engine,
        "engine_placed": state.engine_placed,
        "phase": state.phase,
        "seat": state.seat,
        "starter": state.starter,
        "hands": [_hand_texts(h) for h in state.hands],  # hand_order
        "boneyard": [names[t] for t in state.boneyard],
        "trains": [train(i) for i in range(n)],
        "mexican": train(n),
        "open_doubles": [train_to_json(state, t) for t in state.open_doubles],
        "turn_doubles": [train_to_json(state, t) for t in state.turn_doubles],
        "drawn": T.name(state.drawn) if state.drawn >= 0 else None,
        "first_turns": [s for s in range(n) if state.first_pending >> s & 1],
        "passes": state.passes,
        "scores": list(state.scores),
        "outs": list(state.outs),
        "result": result,
    }


@functools.cache
def _ids_by_text(max_pip: int) -> dict[str, int]:
    """Tile id by text ("5-12" and "12-5") for the tiles of one set."""
    return {text: t for text, t in T.BY_TEXT.items() if T.HIGH[t] <= max_pip}


def _fast_ids(items: list[Any], max_pip: int) -> list[int] | None:
    """The ids of a list of tile texts of the set, or None when some item is anything else
    (the caller then goes through them one by one, to say which)."""
    try:
        ids = list(map(_ids_by_text(max_pip).get, items))
    except TypeError:  # an unhashable item
        return None
    return None if None in ids else ids  # type: ignore[return-value]


def tile_ids(items: list[Any], max_pip: int) -> list[int]:
    """The ids of tile texts of the set ("5-12" or "12-5"); T.TileError naming the first
    that is not one."""
    ids = _fast_ids(items, max_pip) if type(items) is list else None
    return ids if ids is not None else [T.parse(x, max_pip) for x in items]


def state_from_json(rules: Rules, data: Any) -> State:
    """Build a State from its JSON form; raises StateError naming the first bad field.

    Structure is checked here: every field's type and range, 1 to MAX_SEATS seats, a
    winner that holds no tiles; whether the table is possible (tile conservation,
    connected trains, ...) is for `invariants.violations`.
    """
    if not isinstance(data, dict):
        raise StateError("a state is a JSON object")
    max_pip = rules.max_pip

    def need(key: str, kind: type | tuple[type, ...]) -> Any:
        if key not in data:
            raise StateError(f"state.{key} is missing")
        value = data[key]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise StateError(f"state.{key} has the wrong type: {value!r}")
        return value
    by_text, high = T.BY_TEXT, T.HIGH

    def tile(text: Any, where: str, *index: int) -> int:
        # the common case without a call to parse or a message built for nothing
        t = by_text.get(text) if type(text) is str else None
        if t is not None and high[t] <= max_pip:
            return t
        try:
            return T.parse(text, max_pip)
        except T.TileError as e:
            raise StateError(f"{where}{''.join(f'[{k}]' for k in index)}: {e}") from None

    # The usual field is read with a test of its exact type; `need` is called only to
    # say what is wrong (a state read per request: a call per field was a tenth of it).
    get = data.get
    hands_j = get("hands")
    if type(hands_j) is not list:
        hands_j = need("hands", list)
    n = len(hands_j)
    if n < 1:
        raise StateError("state.hands must list one hand per player")
    if n > MAX_SEATS:
        raise StateError(f"state.hands: {n} hands, but a table has at most {MAX_SEATS} seats "
                         "(the most any rule set deals to)")
    st = State.__new__(State)
    st.rules, st.players = rules, n
    round_no = get("round")
    st.round = round_no = round_no if type(round_no) is int else need("round", int)
    if not 1 <= round_no <= rules.set_rounds:
        raise StateError(f"state.round: {round_no} is not a round of a {rules.set_rounds}-round "
                         "match")
    if no_such_round(rules, round_no):  # MATCH-7
        raise StateError(f"state.round: {round_no}, but the game is a single round",
                         "MATCH-7")
    engine = get("engine")
    st.engine = engine = engine if type(engine) is int else need("engine", int)
    # ENG-7: where the deal picks the engine it may be any number of the set; the flag is
    # read only for an engine that is not the round's, so other tables do not depend on it
    if engine != engine_number(rules, round_no):
        if not rules.engine_by_deal:
            n = engine_number(rules, round_no)
            raise StateError(f"state.engine: round {round_no} uses [{n}-{n}], not "
                             f"{engine} [ENG-1]")
        if not 0 <= engine <= max_pip:
            raise StateError(f"state.engine: {engine} is not a number of the set 0..{max_pip}"
                             " [ENG-7]")
    placed = get("engine_placed")
    st.engine_placed = placed = placed if type(placed) is bool else need("engine_placed", bool)
    phase = get("phase")
    st.phase = phase = phase if type(phase) is str else need("phase", str)
    if phase not in PHASES:
        raise StateError(f"state.phase: {phase!r} is not one of {', '.join(PHASES)}")
    if (phase == ENGINE) == placed:
        raise StateError("state.engine_placed must be false exactly in the 'engine' phase")
    if phase == ENGINE and rules.engine_by_deal:
        raise StateError("state.phase: no 'engine' phase when the deal finds the engine "
                         "[ENG-7]")
    seat = get("seat")
    st.seat = seat = seat if type(seat) is int else need("seat", int)
    starter = get("starter")
    st.starter = starter = starter if type(starter) is int else need("starter", int)
    if not 0 <= seat < n:
        raise StateError(f"state.seat: {seat} is not a seat 0..{n - 1}")
    if not 0 <= starter < n:
        raise StateError(f"state.starter: {starter} is not a seat 0..{n - 1}")
    for memo in (_HANDS, _TRAINS):
        if len(memo) > _KEPT:
            memo.clear()
    st.hands = hands = []
    for s, h in enumerate(hands_j):
        if type(h) is not list and not isinstance(h, list):
            raise StateError(f"state.hands[{s}] must be a list of tiles")
        memo_key: tuple[Any, ...] | None = (max_pip, *h)
        try:
            mask = _HANDS.get(memo_key)  # type: ignore[arg-type]
        except TypeError:  # an unhashable item: read it below, to say what is wrong
            memo_key = mask = None
        if mask is None:
            mask = _hand_mask(h, max_pip, s, tile)
            if memo_key is not None:
                _HANDS[memo_key] = mask
        hands.append(mask)
    bone = get("boneyard")
    if type(bone) is not list:
        bone = need("boneyard", list)
    st.boneyard = _fast_ids(bone, max_pip) or [tile(x, "state.boneyard", i)
                                               for i, x in enumerate(bone)]
    trains_j = get("trains")
    if type(trains_j) is not list:
        trains_j = need("trains", list)
    if len(trains_j) != n:
        raise StateError(f"state.trains must have one train per player ({n}), "
                         f"not {len(trains_j)}")
    mexican = get("mexican")
    if type(mexican) is not dict:
        mexican = need("mexican", dict)
    st.trains = trains = []
    st.ends = ends = []
    markers = 0
    table_mask = T.BIT[T.DOUBLE[engine]] if placed else 0
    for i, tj in enumerate([*trains_j, mexican]):
        # (the train's place in messages is written only when one is needed)
        tiles = tj.get("tiles") if isinstance(tj, dict) else None
        if not isinstance(tiles, list):
            raise StateError(f"{_train_where(i, n)} must be an object with a 'tiles' list")
        memo_key = (max_pip, engine, *tiles)
        try:
            known = _TRAINS.get(memo_key)
        except TypeError:
            memo_key = known = None
        if known is None:
            known = _train_tiles(tiles, engine, max_pip, _train_where(i, n), tile)
            if memo_key is not None:
                _TRAINS[memo_key] = known
        train_ids, end, mask = known
        table_mask |= mask
        given_end = tj.get("end", end)
        if given_end != end or (type(given_end) is not int and not _is_int(given_end)):
            # the open end is the last tile's far end (TRAIN-2): cited, a state whose
            # tiles are all there but whose train ends otherwise is charged to it, not to
            # every clause of the fixture that met it
            rule = " [TRAIN-2]" if type(given_end) is int else ""
            raise StateError(f"{_train_where(i, n)}.end: {given_end!r} but the tiles end in "
                             f"{end}{rule}")
        marker = tj.get("marker", False)
        if marker is not False:
            if i == n and marker:
                raise StateError("state.mexican: the Mexican Train never carries a marker "
                                 "[MARK-2]")
            if not isinstance(marker, bool):
                raise StateError(f"{_train_where(i, n)}.marker must be true or false")
            if marker:
                markers |= 1 << i
        trains.append(train_ids)
        ends.append(end)
    st.table_mask, st.markers = table_mask, markers
    doubles = get("open_doubles")
    if type(doubles) is not list:
        doubles = need("open_doubles", list)
    st.open_doubles = [train_from_json(n, x, "state.open_doubles")
                       for x in doubles] if doubles else []
    doubles = get("turn_doubles")
    if type(doubles) is not list:
        doubles = need("turn_doubles", list)
    st.turn_doubles = [train_from_json(n, x, "state.turn_doubles")
                       for x in doubles] if doubles else []
    drawn = get("drawn")
    st.drawn = -1 if drawn is None else tile(drawn, "state.drawn")
    first_pending = 0
    first = get("first_turns")
    if type(first) is not list:
        first = need("first_turns", list)
    for s in first:
        if (type(s) is not int and not _is_int(s)) or not 0 <= s < n:
            raise StateError(f"state.first_turns: {s!r} is not a seat 0..{n - 1}")
        first_pending |= 1 << s
    st.first_pending = first_pending
    passes = get("passes")
    st.passes = passes = passes if type(passes) is int else need("passes", int)
    # END-3 ends the round at a full round of passes; otherwise they only count up (the
    # flag is read only when it decides, so the scope checks see what an outcome reads)
    if not 0 <= passes <= MAX_COUNT or (passes > n and rules.passes_end_round):
        most = n if rules.passes_end_round else MAX_COUNT
        raise StateError(f"state.passes: {passes} is not a count of passes 0..{most}")
    scores = get("scores")
    st.scores = _ints(scores if type(scores) is list else need("scores", list), n, "scores",
                      MAX_COUNT)
    outs = get("outs")
    st.outs = _ints(outs if type(outs) is list else need("outs", list), n, "outs",
                    rules.set_rounds)
    # MATCH-7: one round to go out in, so none gone out while it is played; a table that
    # says otherwise would be played to a state (outs 2) the engine then cannot read
    if max(st.outs, default=0) > (st.phase == OVER) and rules.single_round:
        raise StateError(f"state.outs: {max(st.outs)} rounds gone out"
                         + ("" if st.phase == OVER else " before the round ends")
                         + ", but the game is a single round", "MATCH-7")
    res = data.get("result")
    if (res is None) != (st.phase != OVER):
        raise StateError("state.result must be given exactly when the phase is 'over'")
    st.result = None if res is None else _result(res, st)
    return st


_HANDS: dict[tuple[Any, ...], int] = {}
"""Hands read before: (highest number, tile texts) -> mask. From one state to the next
most hands and trains do not change, and reading them tile by tile is most of reading a
state; only what was read without error is kept."""
_TRAINS: dict[tuple[Any, ...], tuple[tuple[int, ...], int, int]] = {}
"""Trains read before: (highest number, engine, tile texts) -> (ids, open end, mask)."""
_KEPT = 1 << 14


def _train_where(i: int, players: int) -> str:
    """Where train `i` of a state is, for a message."""
    return f"state.trains[{i}]" if i < players else "state.mexican"


def _hand_mask(items: list[Any], max_pip: int, seat: int, tile: Callable[..., int]) -> int:
    """The mask of a hand's tiles; raises StateError naming a tile not of the set or one
    written twice."""
    ids = _fast_ids(items, max_pip)
    if ids is not None:
        mask: int = sum(map(T.BIT.__getitem__, ids))
        if mask.bit_count() == len(ids):  # no carry: no tile twice
            return mask
    mask = 0  # the careful way, to name what is wrong
    for i, x in enumerate(items):
        t = tile(x, "state.hands", seat, i)
        if mask & T.BIT[t]:
            raise StateError(f"state.hands[{seat}]: {T.name(t)} appears twice")
        mask |= T.BIT[t]
    return mask


def _train_tiles(tiles: list[Any], engine: int, max_pip: int, where: str,
                 tile: Callable[..., int]) -> tuple[tuple[int, ...], int, int]:
    """(tile ids, open end, mask) of a train's tiles, written near end first from the
    engine's number (TRAIN-2); raises StateError naming the first tile that is not."""
    by_text, high, oriented, other_end, bit = T.BY_TEXT, T.HIGH, T.ORIENTED, T.OTHER_END, T.BIT
    end, ids, mask = engine, [], 0
    for k, x in enumerate(tiles):
        t = by_text.get(x, -1) if type(x) is str else -1
        if t < 0 or high[t] > max_pip:
            t = tile(x, f"{where}.tiles", k)
        if x != oriented[t][end] and int(str(x).split("-")[0]) != end:
            raise StateError(f"{where}.tiles[{k}]: {x} does not continue from {end} "
                             "(tiles are written near end first) [TRAIN-2]")
        end = other_end[t][end]
        ids.append(t)
        mask |= bit[t]
    return tuple(ids), end, mask


def _result(res: Any, st: State) -> Result:
    n = st.players
    if not isinstance(res, dict) or res.get("end") not in ("domino", "blocked"):
        raise StateError("state.result.end must be 'domino' or 'blocked'")
    winner = res.get("winner")
    if res["end"] == "blocked":
        if winner is not None:
            raise StateError(f"state.result.winner: {winner!r}, but a blocked round has no "
                             "winner (null)")
    elif not _is_int(winner) or not 0 <= winner < n:
        raise StateError(f"state.result.winner: {winner!r} is not a seat 0..{n - 1} "
                         "(a round that went out has a winner)")
    elif st.hands[winner]:
        raise StateError(f"state.result.winner: seat {winner} still holds tiles, so it did "
                         "not go out [END-1]")
    scores = _ints(res.get("scores"), n, "result.scores", MAX_COUNT)
    return Result(res["end"], -1 if winner is None else winner, tuple(scores))


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


_INT_ONLY = frozenset({int})


def _ints(value: Any, n: int, where: str, most: int) -> list[int]:
    if not isinstance(value, list) or len(value) != n or not set(map(type, value)) <= _INT_ONLY:
        raise StateError(f"state.{where} must be a list of {n} integers")
    if value and (min(value) < 0 or max(value) > most):
        for s, v in enumerate(value):
            if not 0 <= v <= most:
                raise StateError(f"state.{where}[{s}]: {v} is not in 0..{most}")
    return list(value)
