#!/usr/bin/env python3
"""Junction: Mexican Train on a double-15 set for 5 to 8 players, as a family plays it at
the holidays, written from README.md and docs/protocol.md alone (it imports nothing from
mtrain), to try the suite as its author would. Its house rules and planted bugs were
written down here before the suite ran on it.

Rules it plays (its rule-set file: tests/examples/junction-rules.yaml):
- a double-15 set (136 tiles, 16 rounds from [15-15] down to [0-0]), the engine set aside
  before the deal (`set-aside`); 5 to 8 players;
- HOUSE RULE, a hand table of its own: 5 players 14, 6 players 13, 7 players 12,
  8 players 11;
- the player dealt the heaviest tile (most pips, then the higher end) starts each round
  (`heaviest-in-hand`);
- HOUSE RULE no value describes (`first_turn: other`): on their first turn a player lays
  one or more tiles, each on any train they may use (their own, the Mexican Train, a
  marked train), and ends the line when they choose; the line may not end on a double: a
  double goes in only while a tile bearing its number stays in hand (or as the last
  tile), and the next tile must cover it. A player who can lay nothing on their first
  turn puts their marker up without drawing. Anyone may open the Mexican Train then
  (`anyone`); nobody must start their own train first (`not-required`);
- outside the first turn a double must be covered by its layer, with the next tile
  (`cover-own`); open doubles of earlier turns are covered oldest first
  (`oldest-first`); every open double binds while the boneyard holds tiles, none once it
  is empty (`released-when-boneyard-empty`);
- HOUSE RULE no value describes (`marker_removal: other`): a marker comes off at the end
  of a turn of its owner in which they laid a tile and did not pass (so it is still up
  while its owner covers their own double);
- a player who cannot play draws one tile (`draw-one`); the round is blocked after a full
  round of passes on an empty boneyard (`full-round-of-passes`);
- each blank end counts 25 (`blank-25`);
- HOUSE RULE no value describes (`scoring: other`): penalty scoring when someone goes out;
  a blocked round goes to the fewest pips: the players on the lowest hand value score 0,
  every other player their hand value plus 10 (the leaders' bonus);
- lowest total wins; equal totals go to the most rounds gone out (`most-outs`).

Planted bugs (what the suite must find):
1. a player who drew a tile they cannot play passes without putting their marker up
   (TURN-4); (first written as "after drawing, any tile of the hand may be laid", TURN-3,
   which no table can show: a draw changes no train, so the rest of the hand stays
   unplayable; replaced after the first conform run showed nothing of it)
2. of two heaviest tiles with the same pip total, the lower seat's starts, not the one
   with the higher end (SEAT-6); (first written as "of several open doubles of earlier
   turns, the newest may be covered too", DBL-7, which no table of this game reaches: the
   layer covers their own double, a double that binds closes every other train until it
   is covered, and none binds once the boneyard is empty, so two never bind at once;
   replaced after conform and 60 games of fuzz showed nothing of it)
3. the tile after a double (outside the first turn) may also go on the Mexican Train
   instead of covering the double (DBL-4).

Its refusals name a clause where the author knew one (a tile not held: TURN-7; a tile that
does not match: TRAIN-2) and no clause otherwise. `--fixed 1,2,3` switches the planted bugs
off.

    mtrain conform --impl "python tests/examples/junction_engine.py" \\
        --rules tests/examples/junction-rules.yaml
"""

from __future__ import annotations

import copy
import json
import sys
from typing import Any

TOP = 15
FIXED: set[str] = set()  # planted bugs switched off (--fixed)
SIZES = {5: 14, 6: 13, 7: 12, 8: 11}
BONUS = 10

DECLARED = {
    "name": "junction",
    "options": {
        "tile_set": "double-15", "hand_sizes": "custom", "engine_procedure": "set-aside",
        "starting_seat": "heaviest-in-hand", "first_turn": "other",
        "mexican_first_turn": "anyone", "own_train_first": "not-required",
        "doubles": "open", "follow_up": "cover-own", "double_order": "oldest-first",
        "uncoverable_double": "released-when-boneyard-empty", "marker_removal": "other",
        "draw_rule": "draw-one", "blocked_round": "full-round-of-passes",
        "scoring": "other", "blank_values": "blank-25", "tie_rule": "most-outs",
        "match_length": "full",
    },
    "hand_sizes": {str(k): v for k, v in SIZES.items()},
}


class Problem(Exception):
    def __init__(self, kind: str, message: str, clause: str | None = None) -> None:
        super().__init__(message)
        self.kind, self.message, self.clause = kind, message, clause


class NotAllowed(Exception):
    def __init__(self, message: str, clause: str | None = None) -> None:
        super().__init__(message)
        self.clause = clause


def ends(tile: Any) -> tuple[int, int]:
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


def weight(t: str) -> tuple[int, int]:
    a, b = ends(t)
    return a + b, max(a, b)


def sort_hand(hand: list[str]) -> list[str]:
    return sorted(hand, key=lambda t: sorted(ends(t), reverse=True), reverse=True)


def train_of(st: dict[str, Any], k: Any) -> dict[str, Any]:
    train: dict[str, Any] = st["mexican"] if k == "mexican" else st["trains"][k]
    return train


def check(st: Any) -> dict[str, Any]:
    if not isinstance(st, dict) or not isinstance(st.get("hands"), list):
        raise Problem("bad-request", "a state is an object with hands")
    if len(st["hands"]) not in SIZES:
        raise Problem("refused-setup", f"junction is for 5 to 8 players, not "
                      f"{len(st['hands'])}", "DEAL-7")
    if st.get("phase") == "engine":
        raise Problem("unsupported", "the engine is set aside here: no engine phase")
    mine: dict[str, Any] = copy.deepcopy(st)
    return mine


def first_turn(st: dict[str, Any]) -> bool:
    return st["seat"] in st["first_turns"]


def duties(st: dict[str, Any]) -> list[Any]:
    """Open doubles of earlier turns that bind: all of them while the boneyard holds tiles,
    none once it is empty; oldest first."""
    if not st["boneyard"]:
        return []
    return [k for k in st["open_doubles"] if k not in st["turn_doubles"]]


def usable(st: dict[str, Any], me: int) -> list[Any]:
    return [me, "mexican"] + [k for k in range(len(st["hands"]))
                              if k != me and st["trains"][k]["marker"]]


def chain_plays(st: dict[str, Any], hand: list[str], trains: list[Any]) -> list[dict[str, Any]]:
    """First-turn plays: a double only while a tile of its number stays in hand, or as
    the last tile."""
    found = []
    for k in trains:
        n = train_of(st, k)["end"]
        for t in hand:
            if not fits(t, n):
                continue
            if is_double(t) and len(hand) > 1 and not any(
                    fits(u, n) for u in hand if u != t):
                continue
            found.append({"type": "play", "tile": t, "train": k})
    return found


def plays_on(st: dict[str, Any], hand: list[str], trains: list[Any]) -> list[dict[str, Any]]:
    return [{"type": "play", "tile": t, "train": k}
            for k in trains for t in hand if fits(t, train_of(st, k)["end"])]


def legal(st: dict[str, Any]) -> list[dict[str, Any]]:
    if st["phase"] == "over":
        return []
    me = st["seat"]
    hand = st["hands"][me]
    if st["phase"] in ("start", "chain") and first_turn(st):
        duty = duties(st)
        if st["phase"] == "start" and duty:
            found = plays_on(st, hand, duty[:1])
        elif st["turn_doubles"]:  # a double in the line: the next tile covers it
            found = plays_on(st, hand, st["turn_doubles"][-1:])
        else:
            found = chain_plays(st, hand, usable(st, me))
        if st["phase"] == "chain":
            if not st["turn_doubles"] or not found:
                found.append({"type": "end-chain"})
            return found
        return found or [{"type": "pass"}]  # no start, no draw
    if st["drawn"]:
        hand = [st["drawn"]]  # only the drawn tile
    if st["phase"] == "follow":
        found = plays_on(st, hand, st["turn_doubles"][-1:])
        if "3" not in FIXED:  # BUG 3: the tile after a double may go on the Mexican Train
            found += [a for a in plays_on(st, hand, ["mexican"]) if a not in found]
    else:
        duty = duties(st)
        found = plays_on(st, hand, duty[:1] if duty else usable(st, me))
    if found:
        return found
    if st["boneyard"] and not st["drawn"]:
        return [{"type": "draw"}]
    return [{"type": "pass"}]


def hand_value(hand: list[str]) -> int:
    return sum(sum(25 if e == 0 else e for e in ends(t)) for t in hand)


def round_scores(st: dict[str, Any], winner: int | None) -> list[int]:
    values = [hand_value(h) for h in st["hands"]]
    if winner is not None:
        return values
    low = min(values)  # house rule: the fewest pips lead a blocked round
    return [0 if v == low else v + BONUS for v in values]


def finish(st: dict[str, Any], winner: int | None) -> None:
    scores = round_scores(st, winner)
    st["scores"] = [a + b for a, b in zip(st["scores"], scores, strict=True)]
    if winner is not None:
        st["outs"][winner] += 1
    st["result"] = {"end": "blocked" if winner is None else "domino", "winner": winner,
                    "scores": scores}
    st["phase"] = "over"
    st["turn_doubles"] = []
    st["drawn"] = None


def end_turn(st: dict[str, Any], laid: bool) -> None:
    me = st["seat"]
    if laid:
        st["trains"][me]["marker"] = False  # house rule: off at the end of the turn
    st["turn_doubles"] = []
    st["drawn"] = None
    st["first_turns"] = [s for s in st["first_turns"] if s != me]
    st["seat"] = (me + 1) % len(st["hands"])
    st["phase"] = "start"
    if not st["boneyard"] and st["passes"] >= len(st["hands"]):
        finish(st, None)


def refuse(st: dict[str, Any], action: Any) -> None:
    if isinstance(action, dict) and action.get("type") == "play":
        tile, k = action.get("tile"), action.get("train")
        hand = st["hands"][st["seat"]]
        if isinstance(tile, str) and same(tile) not in hand:
            raise NotAllowed(f"seat {st['seat']} does not hold {tile}", "TURN-7")
        if isinstance(tile, str) and (k == "mexican" or (
                isinstance(k, int) and 0 <= k < len(st["trains"]))) and \
                not fits(tile, train_of(st, k)["end"]):
            raise NotAllowed(f"{tile} does not match that train's end", "TRAIN-2")
    raise NotAllowed(f"{action} is not allowed here")


def apply(st: dict[str, Any], action: Any) -> dict[str, Any]:
    if action not in legal(st):
        refuse(st, action)
    me = st["seat"]
    kind = action["type"]
    if kind == "draw":
        tile = st["boneyard"].pop(0)
        st["hands"][me] = sort_hand([*st["hands"][me], tile])
        st["drawn"] = tile
        return st
    if kind == "pass":
        if not st["drawn"] or "1" in FIXED:  # BUG 1: no marker after an unplayable draw
            st["trains"][me]["marker"] = True
        if not st["boneyard"]:
            st["passes"] += 1
        end_turn(st, laid=False)
        return st
    if kind == "end-chain":
        end_turn(st, laid=True)
        return st
    tile, k = action["tile"], action["train"]
    chain = first_turn(st)
    st["hands"][me] = [t for t in st["hands"][me] if t != tile]
    train = train_of(st, k)
    near = train["end"]
    train["tiles"].append(f"{near}-{far(tile, near)}")
    train["end"] = far(tile, near)
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
        st["trains"][me]["marker"] = False
        finish(st, me)
    elif chain:
        st["phase"] = "chain"
    elif is_double(tile):
        st["phase"] = "follow"
    else:
        end_turn(st, laid=True)
    return st


def deal(players: int, round_no: int, order: list[str]) -> dict[str, Any]:
    if players not in SIZES:
        raise Problem("refused-setup", f"junction is for 5 to 8 players, not {players}",
                      "DEAL-7")
    if not 1 <= round_no <= TOP + 1:
        raise Problem("bad-request", f"a double-15 match has 16 rounds, not {round_no}")
    n = SIZES[players]
    engine = TOP - (round_no - 1)
    hands = [sort_hand([same(t) for t in order[s * n:(s + 1) * n]]) for s in range(players)]
    if "2" in FIXED:
        seat = max(range(players), key=lambda s: max(weight(t) for t in hands[s]))
    else:  # BUG 2: equal pip totals go to the lower seat
        seat = max(range(players), key=lambda s: (max(weight(t)[0] for t in hands[s]), -s))
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
    most = max(st["outs"][s] for s in tied)
    return [s for s in tied if st["outs"][s] == most]


def score(req: dict[str, Any], st: dict[str, Any]) -> list[int]:
    if "winner" in req:
        return round_scores(st, req["winner"])
    if st.get("phase") != "over" or not st.get("result"):
        raise Problem("bad-request", "score without a winner needs a finished round")
    return round_scores(st, st["result"]["winner"])


def answer(req: dict[str, Any]) -> dict[str, Any]:
    kind = req.get("type")
    if kind == "hello":
        if req.get("protocol") != 1:
            raise Problem("protocol-version", "junction speaks protocol 1")
        return {"protocol": 1, "name": "junction", "version": "0.3", "rules": DECLARED}
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
            return {"refused": {"reason": str(e), "clause": e.clause}}
    if kind == "score":
        return {"scores": score(req, st)}
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
