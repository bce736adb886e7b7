#!/usr/bin/env python3
"""Ninepins: Mexican Train on a double-9 set, as a club plays it on Tuesdays, written from
docs/protocol.md alone (it imports nothing from mtrain), to try the suite as its author
would. Its house rules and planted bugs were written down here before the suite ran on
it.

Rules it plays (its rule-set file: tests/examples/ninepins-rules.yaml):
- a double-9 set (55 tiles, 10 rounds from [9-9] down to [0-0]); the engine is set aside
  before the deal (`set-aside`);
- HOUSE RULE, a hand table of its own: 2 players 12, 3 players 11, 4 players 10,
  5 players 8, 6 players 7;
- HOUSE RULE no value describes (`starting_seat: other`): the player left of the dealer
  starts, and the deal passes left each round, the first dealer being seat 0: round r
  starts at seat r mod players (not (r - 1) mod players);
- one tile a turn from the start (`single`); until one's own train is started one may
  play only on it (`required`); the tile after a double anywhere (`anywhere`); of several
  open doubles any may be covered (`any-open`); a double nobody can cover any more is
  released (`released`); a marker comes off as soon as its owner plays anywhere
  (`owner-plays-anywhere`);
- a player who cannot play draws until a drawn tile can be played or the boneyard is
  empty (`draw-until-playable`); the round blocked when nobody can ever play;
- penalty scoring with only [0-0] counting for its blanks, at 50 (`double-blank-50`);
- HOUSE RULE no value describes (`tie_rule: other`): equal match totals go to the tied
  player who scored least in the last round; equal there too, they share the win.

Planted bugs (what the suite must find):
1. a drawn double that cannot be played ends the drawing: the player is offered `pass`
   though the boneyard still holds tiles (TURN-5);
2. a player whose own train is not started may lay a double on the Mexican Train
   (TRAIN-7).

Its refusals name no clause. `--fixed 1,2` switches the planted bugs off.

    mtrain conform --impl "python tests/examples/ninepins_engine.py" \\
        --rules tests/examples/ninepins-rules.yaml
"""

from __future__ import annotations

import copy
import json
import sys
from typing import Any

TOP = 9
FIXED: set[str] = set()  # planted bugs switched off (--fixed)
SIZES = {2: 12, 3: 11, 4: 10, 5: 8, 6: 7}

DECLARED = {
    "name": "ninepins",
    "options": {
        "tile_set": "double-9", "hand_sizes": "custom", "engine_procedure": "set-aside",
        "starting_seat": "other", "first_turn": "single",
        "mexican_first_turn": "anyone", "own_train_first": "required",
        "follow_up": "anywhere", "double_order": "any-open",
        "uncoverable_double": "released", "marker_removal": "owner-plays-anywhere",
        "draw_rule": "draw-until-playable", "blocked_round": "nobody-can-play",
        "scoring": "penalty", "blank_values": "double-blank-50", "tie_rule": "other",
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


def check(st: Any) -> dict[str, Any]:
    if not isinstance(st, dict) or not isinstance(st.get("hands"), list):
        raise Problem("bad-request", "a state is an object with hands")
    if len(st["hands"]) not in SIZES:
        raise Problem("refused-setup", f"no game of {len(st['hands'])} here", "DEAL-7")
    if st.get("phase") in ("engine", "chain"):
        raise Problem("unsupported", f"no {st.get('phase')} phase in this game")
    mine: dict[str, Any] = copy.deepcopy(st)
    return mine


def live(st: dict[str, Any], k: Any) -> bool:
    """Can the double ending train k still be covered (a tile of its number off the
    table)?"""
    n = train_of(st, k)["end"]
    return any(fits(t, n) for h in [*st["hands"], st["boneyard"]] for t in h)


def duties(st: dict[str, Any]) -> list[Any]:
    """Doubles of earlier turns that can still be covered: any of them."""
    return [k for k in st["open_doubles"] if k not in st["turn_doubles"] and live(st, k)]


def base_trains(st: dict[str, Any], me: int, all_marked: bool = False) -> list[Any]:
    if not st["trains"][me]["tiles"]:
        return [me]  # one's own train first
    return [me, "mexican"] + [k for k in range(len(st["hands"]))
                              if k != me and (all_marked or st["trains"][k]["marker"])]


def usable(st: dict[str, Any]) -> list[Any]:
    duty = duties(st)
    if duty:
        return duty
    base = base_trains(st, st["seat"])
    if st["phase"] == "follow":
        return base + [k for k in st["turn_doubles"] if k not in base]
    return base


def legal(st: dict[str, Any]) -> list[dict[str, Any]]:
    if st["phase"] == "over":
        return []
    me = st["seat"]
    hand = [st["drawn"]] if st["drawn"] else st["hands"][me]
    found = [{"type": "play", "tile": t, "train": k}
             for k in usable(st) for t in hand if fits(t, train_of(st, k)["end"])]
    if ("2" not in FIXED and not st["trains"][me]["tiles"] and not duties(st)
            and st["phase"] == "start"):  # BUG 2: a double may open the Mexican Train
        found += [{"type": "play", "tile": t, "train": "mexican"} for t in hand
                  if is_double(t) and fits(t, st["mexican"]["end"])]
    if found:
        return found
    if not st["boneyard"]:
        return [{"type": "pass"}]
    if st["drawn"] and is_double(st["drawn"]) and "1" not in FIXED:
        return [{"type": "pass"}]  # BUG 1: a drawn double ends the drawing
    return [{"type": "draw"}]


def nobody_can_play(st: dict[str, Any]) -> bool:
    """Could anyone ever play again, every marker up?"""
    duty = duties(st)
    for s, hand in enumerate(st["hands"]):
        for k in duty or base_trains(st, s, all_marked=True):
            if any(fits(t, train_of(st, k)["end"]) for t in hand):
                return False
    return True


def hand_value(hand: list[str]) -> int:
    return sum(50 if t == "0-0" else sum(ends(t)) for t in hand)


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
        tile = st["boneyard"].pop(0)
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
    st["trains"][me]["marker"] = False  # the owner playing anywhere
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
        raise Problem("refused-setup", f"ninepins is for 2 to 6 players, not {players}",
                      "DEAL-7")
    if not 1 <= round_no <= TOP + 1:
        raise Problem("bad-request", f"a double-9 match has 10 rounds, not {round_no}")
    n = SIZES[players]
    engine = TOP - (round_no - 1)
    hands = [sort_hand([same(t) for t in order[s * n:(s + 1) * n]]) for s in range(players)]
    seat = round_no % players  # house rule: left of the dealer, the deal passing left
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
    tied = [s for s, v in enumerate(st["scores"]) if v == low]
    last = st["result"]["scores"]
    least = min(last[s] for s in tied)
    return [s for s in tied if last[s] == least]  # house rule: the last round decides


def answer(req: dict[str, Any]) -> dict[str, Any]:
    kind = req.get("type")
    if kind == "hello":
        if req.get("protocol") != 1:
            raise Problem("protocol-version", "ninepins speaks protocol 1")
        return {"protocol": 1, "name": "ninepins", "version": "2.1", "rules": DECLARED}
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
