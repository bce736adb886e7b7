#!/usr/bin/env python3
"""Shed: Mexican Train on the double-6 set kept in a garden shed, as a family plays it,
written from docs/protocol.md alone (it imports nothing from mtrain), to try the suite as
its author would. Its house rules and planted bugs were written down here before the
suite ran on it.

Rules it plays (its rule-set file: tests/examples/shed-rules.yaml):
- a double-6 set (28 tiles, 7 rounds from [6-6] down to [0-0]); every tile is dealt and
  whoever holds the engine lays it at once; if nobody does, the players draw for it one
  tile each from seat (round - 1) mod players, keeping what they draw (`holder-lays`);
  the seat after the one who laid the engine starts (`after-engine`);
- HOUSE RULE, a hand table of its own: 2 players 10, 3 players 7, 4 players 6 (the
  4-player row is Celko's, the others are not);
- one tile a turn from the start (`single`); the Mexican Train may be opened only by a
  player whose own train is started (`own-train-started`);
- the tile after a double must cover the double just laid (`cover-own`); open doubles
  oldest first; a marker comes off as soon as anyone plays on that train
  (`anyone-plays-on`); draw one; the round blocked when nobody can ever play;
- penalty scoring, the blocked round's fewest tiles (then the lowest hand) scoring 0
  (`penalty-blocked-winner`); only [0-0] counts for its blanks, at 25
  (`double-blank-25`); equal match totals go to the lowest seat (`lowest-seat`);
- HOUSE RULE (`uncoverable_double: released-when-boneyard-empty`, DBL-12; declared
  `other` until the value was made from it): once the boneyard is empty, a double laid on
  an earlier turn binds nobody any more (covered or not, whoever holds a tile for it).

Planted bugs (what the suite must find):
1. the search for a missing engine always starts at seat 0, whatever the round (ENG-4:
   it starts at seat (round - 1) mod players);
2. in a blocked round, of the players holding equally few tiles, the lowest seat scores
   0 even when another of them holds a hand worth less (SCORE-7).

Its refusals name no clause. `--fixed 1,2` switches the planted bugs off.

    mtrain conform --impl "python tests/examples/shed_engine.py" \\
        --rules tests/examples/shed-rules.yaml
"""

from __future__ import annotations

import copy
import json
import sys
from typing import Any

TOP = 6
FIXED: set[str] = set()  # planted bugs switched off (--fixed)
SIZES = {2: 10, 3: 7, 4: 6}

DECLARED = {
    "name": "shed",
    "options": {
        "tile_set": "double-6", "hand_sizes": "custom", "engine_procedure": "holder-lays",
        "starting_seat": "after-engine", "first_turn": "single",
        "mexican_first_turn": "own-train-started", "own_train_first": "not-required",
        "follow_up": "cover-own", "double_order": "oldest-first",
        "uncoverable_double": "released-when-boneyard-empty", "marker_removal": "anyone-plays-on",
        "draw_rule": "draw-one", "blocked_round": "nobody-can-play",
        "scoring": "penalty-blocked-winner", "blank_values": "double-blank-25",
        "tie_rule": "lowest-seat",
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
    if st.get("phase") == "chain":
        raise Problem("unsupported", "no chains in this game")
    mine: dict[str, Any] = copy.deepcopy(st)
    return mine


def duties(st: dict[str, Any]) -> list[Any]:
    """Doubles of earlier turns to cover, oldest first; none once the boneyard is empty
    (the house rule)."""
    if not st["boneyard"]:
        return []
    return [k for k in st["open_doubles"] if k not in st["turn_doubles"]][:1]


def base_trains(st: dict[str, Any], me: int, all_marked: bool = False) -> list[Any]:
    own_started = bool(st["trains"][me]["tiles"])
    out: list[Any] = [me]
    if own_started or st["mexican"]["tiles"]:
        out.append("mexican")  # the Mexican Train waits for one's own train
    out += [k for k in range(len(st["hands"]))
            if k != me and (all_marked or st["trains"][k]["marker"])]
    return out


def usable(st: dict[str, Any]) -> list[Any]:
    duty = duties(st)
    if duty:
        return duty
    if st["phase"] == "follow":
        last: list[Any] = st["turn_doubles"][-1:]
        return last  # cover the double just laid
    return base_trains(st, st["seat"])


def legal(st: dict[str, Any]) -> list[dict[str, Any]]:
    if st["phase"] == "over":
        return []
    if st["phase"] == "engine":
        return [{"type": "draw"}]
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
    """With the boneyard empty no double binds anyone: could anyone play anywhere once
    every marker is up?"""
    for s, hand in enumerate(st["hands"]):
        for k in base_trains(st, s, all_marked=True):
            if any(fits(t, train_of(st, k)["end"]) for t in hand):
                return False
    return True


def hand_value(hand: list[str]) -> int:
    return sum(25 if t == "0-0" else sum(ends(t)) for t in hand)


def round_scores(hands: list[list[str]], winner: int | None) -> list[int]:
    scores = [hand_value(h) for h in hands]
    if winner is None:  # blocked: the fewest tiles, then the lowest hand, score 0
        fewest = min(len(h) for h in hands)
        few = [s for s, h in enumerate(hands) if len(h) == fewest]
        if "2" not in FIXED:
            few = few[:1]  # BUG 2: the lowest seat of them, whatever its hand
        low = min(scores[s] for s in few)
        for s in few:
            if scores[s] == low:
                scores[s] = 0
    return scores


def finish(st: dict[str, Any], winner: int | None) -> None:
    scores = round_scores(st["hands"], winner)
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


def place_engine(st: dict[str, Any], holder: int) -> None:
    st["engine_placed"] = True
    st["seat"] = st["starter"] = (holder + 1) % len(st["hands"])
    st["phase"] = "start"


def apply(st: dict[str, Any], action: Any) -> dict[str, Any]:
    if action not in legal(st):
        raise NotAllowed(f"{action} is not allowed here")
    me = st["seat"]
    if action["type"] == "draw":
        tile = st["boneyard"].pop(0)
        if st["phase"] == "engine":
            if tile == named(st["engine"], st["engine"]):
                place_engine(st, me)
            else:
                st["hands"][me] = sort_hand([*st["hands"][me], tile])
                st["seat"] = (me + 1) % len(st["hands"])
            return st
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
        st["trains"][k]["marker"] = False  # anyone playing on it
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
        raise Problem("refused-setup", f"shed is for 2 to 4 players, not {players}", "DEAL-7")
    if not 1 <= round_no <= TOP + 1:
        raise Problem("bad-request", f"a double-6 match has 7 rounds, not {round_no}")
    if len(order) != (TOP + 1) * (TOP + 2) // 2:
        raise Problem("bad-request", "the order must hold all 28 tiles")
    n = SIZES[players]
    engine = TOP - (round_no - 1)
    hands = [sort_hand([same(t) for t in order[s * n:(s + 1) * n]]) for s in range(players)]
    search = 0 if "1" not in FIXED else (round_no - 1) % players  # BUG 1: always seat 0
    st: dict[str, Any] = {
        "round": round_no, "engine": engine, "engine_placed": False, "phase": "engine",
        "seat": search, "starter": search, "hands": hands,
        "boneyard": [same(t) for t in order[players * n:]],
        "trains": [{"tiles": [], "end": engine, "marker": False} for _ in range(players)],
        "mexican": {"tiles": [], "end": engine},
        "open_doubles": [], "turn_doubles": [], "drawn": None,
        "first_turns": list(range(players)), "passes": 0,
        "scores": [0] * players, "outs": [0] * players, "result": None,
    }
    e = named(engine, engine)
    for s, hand in enumerate(hands):
        if e in hand:
            hand.remove(e)
            place_engine(st, s)
    return st


def winners(st: dict[str, Any]) -> list[int]:
    if st["phase"] != "over" or st["round"] < TOP + 1:
        return []
    low = min(st["scores"])
    return [min(s for s, v in enumerate(st["scores"]) if v == low)]


def answer(req: dict[str, Any]) -> dict[str, Any]:
    kind = req.get("type")
    if kind == "hello":
        if req.get("protocol") != 1:
            raise Problem("protocol-version", "shed speaks protocol 1")
        return {"protocol": 1, "name": "shed", "version": "0.3", "rules": DECLARED}
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
        if "winner" in req:
            winner = req["winner"]
        elif st.get("result"):
            winner = st["result"]["winner"]
        else:
            raise Problem("bad-request", "score a finished round, or name its winner")
        return {"scores": round_scores(st["hands"], winner)}
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
