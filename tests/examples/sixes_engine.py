#!/usr/bin/env python3
"""Sixes: a Mexican Train for the double-6 set in a kitchen drawer, written as a few
functions over the protocol's JSON state (it imports nothing from mtrain), to try the
suite as its author would. Its house rules and planted bugs were written down here before
the suite ran on it.

Rules it plays (declared in its hello, and in tests/examples/sixes-rules.yaml):
- a double-6 set (28 tiles, 7 rounds from [6-6] down to [0-0]); the engine is set aside
  and the first player moves one seat on each round (known values `set-aside`, `rotate`);
- HOUSE RULE, a hand table of its own for the double-6 set: 2 players 8, 3 players 6,
  4 players 5 (Celko's published table is 9/8/6);
- one tile a turn from the start (known value `single`); after a double, puremco's
  restricted follow-up (known value `restricted`); a double nobody can cover any more is
  released (known value `released`);
- HOUSE RULE no value describes (`marker_removal: other`): a marker comes off as soon as
  anyone plays on that train, or as soon as its owner plays anywhere;
- HOUSE RULE no value describes (`tie_rule: other`): equal match totals go to the tied
  player in the highest seat (the youngest sits last);
- everything else as pagat's: draw one, the round blocked when nobody can ever play,
  penalty scoring, blanks at face value.

Planted bugs (what the suite must find):
1. a draw takes the last tile of the boneyard, not the first (TURN-2; the boneyard is in
   draw order, DEAL-1);
2. whether an open double can still be covered is judged from the hands alone: a double
   whose missing tiles are all in the boneyard is released too early (DBL-9).

It names no clause in its refusals, answers `unsupported` for a table in the `engine` or
`chain` phase, and refuses (DEAL-7) any table of more than 4 seats.

`--fixed 1,2` switches the planted bugs off (the tests check that what fails then is no
rule difference).

    mtrain conform --impl "python tests/examples/sixes_engine.py"
"""

from __future__ import annotations

import copy
import json
import sys
from typing import Any

TOP = 6
FIXED: set[str] = set()  # planted bugs switched off (--fixed)
SIZES = {2: 8, 3: 6, 4: 5}

DECLARED = {
    "name": "sixes",
    "options": {
        "tile_set": "double-6", "hand_sizes": "custom", "engine_procedure": "set-aside",
        "starting_seat": "rotate", "first_turn": "single", "mexican_first_turn": "anyone",
        "own_train_first": "not-required", "doubles": "open", "follow_up": "restricted",
        "double_order": "oldest-first", "uncoverable_double": "released",
        "marker_removal": "other", "draw_rule": "draw-one",
        "blocked_round": "nobody-can-play", "scoring": "penalty", "blank_values": "face",
        "tie_rule": "other",
    },
    "hand_sizes": {str(k): v for k, v in SIZES.items()},
}


class Problem(Exception):
    def __init__(self, kind: str, message: str, clause: str | None = None) -> None:
        super().__init__(message)
        self.kind, self.message, self.clause = kind, message, clause


class NotAllowed(Exception):
    pass


def ends(tile: str) -> tuple[int, int]:
    try:
        a, b = tile.split("-")
        return int(a), int(b)
    except (ValueError, AttributeError):
        raise Problem("bad-request", f"not a tile: {tile!r}") from None


def named(a: int, b: int) -> str:
    return f"{max(a, b)}-{min(a, b)}"


def same(t: str) -> str:
    return named(*ends(t))


def is_double(t: str) -> bool:
    a, b = ends(t)
    return a == b


def fits(t: str, n: int) -> bool:
    return n in ends(t)


def far(t: str, near: int) -> int:
    a, b = ends(t)
    return b if a == near else a


def sort_hand(hand: list[str]) -> list[str]:
    return sorted(hand, key=lambda t: sorted(ends(t), reverse=True), reverse=True)


def train_of(st: dict[str, Any], k: Any) -> dict[str, Any]:
    train: dict[str, Any] = st["mexican"] if k == "mexican" else st["trains"][k]
    return train


def every_train(st: dict[str, Any]) -> list[Any]:
    return [*range(len(st["hands"])), "mexican"]


def on_table(st: dict[str, Any]) -> set[str]:
    return {same(t) for k in every_train(st) for t in train_of(st, k)["tiles"]}


def check(st: Any) -> dict[str, Any]:
    if not isinstance(st, dict) or not isinstance(st.get("hands"), list):
        raise Problem("bad-request", "a state is an object with hands")
    if len(st["hands"]) > max(SIZES) or len(st["hands"]) < min(SIZES):
        raise Problem("refused-setup", f"no game of {len(st['hands'])} here", "DEAL-7")
    if st.get("phase") in ("engine", "chain"):
        raise Problem("unsupported", f"no {st.get('phase')} phase in this game")
    mine: dict[str, Any] = copy.deepcopy(st)
    return mine


def live(st: dict[str, Any], k: Any) -> bool:
    """Can the double ending train k still be covered? (BUG 2: looks in the hands only)"""
    n = train_of(st, k)["end"]
    pool = [*st["hands"], st["boneyard"]] if "2" in FIXED else st["hands"]
    return any(fits(t, n) for h in pool for t in h)


def waiting(st: dict[str, Any]) -> list[Any]:
    out = [k for k in st["open_doubles"] if k not in st["turn_doubles"]]
    out = [k for k in out if live(st, k)]
    return out[:1]


def usable(st: dict[str, Any]) -> list[Any]:
    me = st["seat"]
    base = [me, "mexican"] + [k for k in range(len(st["hands"]))
                              if k != me and st["trains"][k]["marker"]]
    duty = waiting(st)
    if duty:
        return duty
    if st["phase"] != "follow":
        return base
    first = st["turn_doubles"][0]
    return [first] + [k for k in base if k != first
                      and (k == "mexican" or k not in st["open_doubles"])]


def legal(st: dict[str, Any]) -> list[dict[str, Any]]:
    if st["phase"] == "over":
        return []
    me = st["seat"]
    hand = [st["drawn"]] if st["drawn"] else st["hands"][me]
    found = [{"type": "play", "tile": t, "train": k}
             for k in usable(st) for t in hand if fits(t, train_of(st, k)["end"])]
    if found:
        return found
    if st["drawn"] or not st["boneyard"]:
        return [{"type": "pass"}]
    return [{"type": "draw"}]


def nobody_can_play(st: dict[str, Any]) -> bool:
    duty = [k for k in st["open_doubles"] if live(st, k)][:1]
    trains = duty or every_train(st)
    return not any(fits(t, train_of(st, k)["end"]) for h in st["hands"] for t in h
                   for k in trains)


def hand_value(hand: list[str]) -> int:
    return sum(sum(ends(t)) for t in hand)


def finish(st: dict[str, Any], winner: int | None) -> None:
    scores = [hand_value(h) for h in st["hands"]]
    st["scores"] = [a + b for a, b in zip(st["scores"], scores, strict=True)]
    if winner is not None:
        st["outs"][winner] += 1
    st["result"] = {"end": "blocked" if winner is None else "domino", "winner": winner,
                    "scores": scores}
    st["phase"] = "over"
    st["turn_doubles"] = []
    st["drawn"] = None


def end_turn(st: dict[str, Any]) -> None:
    me = st["seat"]
    st["turn_doubles"] = []
    st["drawn"] = None
    st["first_turns"] = [s for s in st["first_turns"] if s != me]
    st["seat"] = (me + 1) % len(st["hands"])
    st["phase"] = "start"
    if not st["boneyard"] and nobody_can_play(st):
        finish(st, None)


def apply(st: dict[str, Any], action: Any) -> dict[str, Any]:
    if action not in legal(st):
        raise NotAllowed(f"{action} is not allowed here")
    me = st["seat"]
    if action["type"] == "draw":
        tile = st["boneyard"].pop(0 if "1" in FIXED else -1)  # BUG 1: from the wrong end
        st["hands"][me] = sort_hand([*st["hands"][me], tile])
        st["drawn"] = tile
        return st
    if action["type"] == "pass":
        st["trains"][me]["marker"] = True
        if not st["boneyard"]:
            st["passes"] += 1
        end_turn(st)
        return st
    tile, k = action["tile"], action["train"]
    st["hands"][me] = [t for t in st["hands"][me] if t != tile]
    train = train_of(st, k)
    near = train["end"]
    train["tiles"].append(f"{near}-{far(tile, near)}")
    train["end"] = far(tile, near)
    if k != "mexican":
        st["trains"][k]["marker"] = False  # house rule: anyone playing on it
    st["trains"][me]["marker"] = False  # house rule: or the owner playing anywhere
    if k in st["open_doubles"]:
        st["open_doubles"].remove(k)
        if k in st["turn_doubles"]:
            st["turn_doubles"].remove(k)
    if is_double(tile):
        st["open_doubles"].append(k)
        st["turn_doubles"].append(k)
    st["drawn"] = None
    st["passes"] = 0
    if not st["hands"][me]:
        finish(st, me)
    elif is_double(tile):
        st["phase"] = "follow"
    else:
        end_turn(st)
    return st


def deal(players: int, round_no: int, order: list[str]) -> dict[str, Any]:
    if players not in SIZES:
        raise Problem("refused-setup", f"sixes is for 2 to 4 players, not {players}", "DEAL-7")
    if not 1 <= round_no <= TOP + 1:
        raise Problem("bad-request", f"a double-6 match has 7 rounds, not {round_no}")
    n = SIZES[players]
    engine = TOP - (round_no - 1)
    hands = [sort_hand([same(t) for t in order[s * n:(s + 1) * n]]) for s in range(players)]
    seat = (round_no - 1) % players
    return {
        "round": round_no, "engine": engine, "engine_placed": True, "phase": "start",
        "seat": seat, "starter": seat, "hands": hands,
        "boneyard": [same(t) for t in order[players * n:]],
        "trains": [{"tiles": [], "end": engine, "marker": False} for _ in range(players)],
        "mexican": {"tiles": [], "end": engine},
        "open_doubles": [], "turn_doubles": [], "drawn": None,
        "first_turns": list(range(players)), "passes": 0,
        "scores": [0] * players, "outs": [0] * players, "result": None,
    }


def winners(st: dict[str, Any]) -> list[int]:
    if st["phase"] != "over" or st["round"] < TOP + 1:
        return []
    low = min(st["scores"])
    return [max(s for s, v in enumerate(st["scores"]) if v == low)]  # house rule: highest seat


def answer(req: dict[str, Any]) -> dict[str, Any]:
    kind = req.get("type")
    if kind == "hello":
        if req.get("protocol") != 1:
            raise Problem("protocol-version", "sixes speaks protocol 1")
        return {"protocol": 1, "name": "sixes", "version": "1.0.2", "rules": DECLARED}
    if kind == "shutdown":
        return {}
    if kind == "deal":
        return {"state": deal(req.get("players", 0), req.get("round", 0), req.get("order", []))}
    st = check(req.get("state"))
    if kind == "legal":
        return {"actions": legal(st)}
    if kind == "apply":
        try:
            return {"state": apply(st, req.get("action"))}
        except NotAllowed as e:
            return {"refused": {"reason": str(e), "clause": None}}
    if kind == "score":
        return {"scores": [hand_value(h) for h in st["hands"]]}
    if kind == "winners":
        return {"winners": winners(st)}
    raise Problem("bad-request", f"unknown request type {kind!r}")


def serve() -> None:
    for line in sys.stdin:
        if not line.strip():
            continue
        rid: Any = None
        kind = None
        try:
            req = json.loads(line)
            rid, kind = req.get("id"), req.get("type")
            out = {"id": rid, "ok": True, **answer(req)}
        except Problem as p:
            err: dict[str, Any] = {"kind": p.kind, "message": p.message}
            if p.kind == "refused-setup":
                err["clause"] = p.clause
            if p.kind == "protocol-version":
                err["supported"] = [1]
            out = {"id": rid, "ok": False, "error": err}
        except Exception as e:
            out = {"id": rid, "ok": False, "error": {"kind": "internal", "message": repr(e)}}
        print(json.dumps(out), flush=True)
        if kind == "shutdown":
            break


if __name__ == "__main__":
    if sys.argv[1:2] == ["--fixed"]:
        FIXED.update(sys.argv[2].split(","))
    serve()
