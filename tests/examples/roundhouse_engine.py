#!/usr/bin/env python3
"""Roundhouse: Mexican Train on a double-12 set for 2 to 8 players, as a club plays it on
Thursday nights, written from README.md, docs/protocol.md and docs/implementers-guide.md
alone (it imports nothing from mtrain), to try the suite as its author would. Its house
rules and planted bugs were written down here before the suite ran on it.

Rules it plays (its rule-set file: tests/examples/roundhouse-rules.yaml):
- a double-12 set (91 tiles, rounds from [12-12] down to [0-0]); 2 to 8 players;
- HOUSE RULE, a hand table of its own: 2-3 players 14, 4 players 13, 5 players 12,
  6 players 11, 7 players 10, 8 players 9;
- HOUSE RULE no value describes (`engine_procedure: other`): every tile is dealt; the
  player holding the round's engine puts it in the centre (their hand is one tile short);
  when nobody holds it, it is taken out of the boneyard and put in the centre, and nobody
  draws for it;
- the start rotates: round r starts at seat (r - 1) mod players (`rotate`);
- one tile a turn from the start (`single`); anyone may open the Mexican Train
  (`anyone`); nobody must start their own train first (`not-required`);
- doubles are open; the tile after a double goes anywhere the player may play, the
  double included (`anywhere`); open doubles of earlier turns are covered oldest first
  (`oldest-first`);
- HOUSE RULE no value describes (`uncoverable_double: other`): while the boneyard holds
  tiles an open double of an earlier turn binds everyone; once it is empty, a double binds
  only a player who holds a tile that covers it (the others play as if it were not there);
- HOUSE RULE no value describes (`draw_rule: other`): a player who cannot play draws one
  tile, keeps it, and passes (marker up): a drawn tile is never played in the turn it
  is drawn;
- a marker comes off when its owner plays on their own train (`owner-plays-own`);
- the round is blocked after a full round of passes on an empty boneyard
  (`full-round-of-passes`);
- penalty scoring at face value, blanks 0 (`penalty`, `face`); lowest total wins, equal
  totals share the win (`shared`);
- HOUSE RULE no value describes (`match_length: other`): the match ends after the round
  in which any player's total reaches 150 or more, or after the round on [0-0],
  whichever comes first.

Planted bugs (what the suite must find):
1. the start of a later round rotates as if four players sat at the table: round r starts
   at seat (r - 1) mod 4, not mod players (SEAT-3);
2. a marker comes off when anyone plays on the marked train, not only its owner (MARK-3);
3. a double left in hand scores twice its pips (SCORE-1).

Its refusals name a clause where the author knew one (anything after the round's end:
END-1; a tile not held: TURN-7; a tile that does not match: TRAIN-2) and no clause
otherwise. `--fixed 1,2,3` switches the planted bugs
off.

    mtrain conform --impl "python tests/examples/roundhouse_engine.py" \\
        --rules tests/examples/roundhouse-rules.yaml
"""

from __future__ import annotations

import copy
import json
import sys
from typing import Any

TOP = 12
FIXED: set[str] = set()  # planted bugs switched off (--fixed)
SIZES = {2: 14, 3: 14, 4: 13, 5: 12, 6: 11, 7: 10, 8: 9}
MATCH_POINTS = 150

DECLARED = {
    "name": "roundhouse",
    "options": {
        "tile_set": "double-12", "hand_sizes": "custom", "engine_procedure": "other",
        "starting_seat": "rotate", "first_turn": "single",
        "mexican_first_turn": "anyone", "own_train_first": "not-required",
        "doubles": "open", "follow_up": "anywhere", "double_order": "oldest-first",
        "uncoverable_double": "other", "marker_removal": "owner-plays-own",
        "draw_rule": "other", "blocked_round": "full-round-of-passes",
        "scoring": "penalty", "blank_values": "face", "tie_rule": "shared",
        "match_length": "other",
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


def sort_hand(hand: list[str]) -> list[str]:
    return sorted(hand, key=lambda t: sorted(ends(t), reverse=True), reverse=True)


def train_of(st: dict[str, Any], k: Any) -> dict[str, Any]:
    train: dict[str, Any] = st["mexican"] if k == "mexican" else st["trains"][k]
    return train


def check(st: Any) -> dict[str, Any]:
    if not isinstance(st, dict) or not isinstance(st.get("hands"), list):
        raise Problem("bad-request", "a state is an object with hands")
    if len(st["hands"]) not in SIZES:
        raise Problem("refused-setup", f"roundhouse is for 2 to 8 players, not "
                      f"{len(st['hands'])}", "DEAL-7")
    if st.get("phase") in ("engine", "chain"):
        raise Problem("unsupported", f"no {st.get('phase')} phase in this game")
    mine: dict[str, Any] = copy.deepcopy(st)
    return mine


def usable(st: dict[str, Any], me: int) -> list[Any]:
    return [me, "mexican"] + [k for k in range(len(st["hands"]))
                              if k != me and st["trains"][k]["marker"]]


def plays_on(st: dict[str, Any], hand: list[str], trains: list[Any]) -> list[dict[str, Any]]:
    return [{"type": "play", "tile": t, "train": k}
            for k in trains for t in hand if fits(t, train_of(st, k)["end"])]


def binding(st: dict[str, Any], hand: list[str]) -> list[Any]:
    """Open doubles of earlier turns that bind the player, oldest first: every one while
    the boneyard holds tiles; once it is empty, those the player can cover."""
    older = [k for k in st["open_doubles"] if k not in st["turn_doubles"]]
    if st["boneyard"]:
        return older
    return [k for k in older if any(fits(t, train_of(st, k)["end"]) for t in hand)]


def legal(st: dict[str, Any]) -> list[dict[str, Any]]:
    if st["phase"] == "over":
        return []
    if st["drawn"]:
        return [{"type": "pass"}]  # house rule: the drawn tile is kept, the turn passes
    me = st["seat"]
    hand = st["hands"][me]
    duty = binding(st, hand)
    if duty:
        found = plays_on(st, hand, duty[:1])
    elif st["phase"] == "follow":
        trains = usable(st, me) + [k for k in st["turn_doubles"] if k not in usable(st, me)]
        found = plays_on(st, hand, trains)
    else:
        found = plays_on(st, hand, usable(st, me))
    if found:
        return found
    if st["boneyard"]:
        return [{"type": "draw"}]
    return [{"type": "pass"}]


def hand_value(hand: list[str]) -> int:
    total = 0
    for t in hand:
        a, b = ends(t)
        total += a + b
        if a == b and "3" not in FIXED:  # BUG 3: a double in hand counts twice
            total += a + b
    return total


def round_scores(st: dict[str, Any]) -> list[int]:
    return [hand_value(h) for h in st["hands"]]


def finish(st: dict[str, Any], winner: int | None) -> None:
    scores = round_scores(st)
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
    if not st["boneyard"] and st["passes"] >= len(st["hands"]):
        finish(st, None)


def refuse(st: dict[str, Any], action: Any) -> None:
    if st["phase"] == "over":  # nothing after the round's end, whoever holds what
        raise NotAllowed("the round is over", "END-1")
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
    if k != "mexican" and (k == me or "2" not in FIXED):  # BUG 2: anyone takes it off
        train["marker"] = False
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
        raise Problem("refused-setup", f"roundhouse is for 2 to 8 players, not {players}",
                      "DEAL-7")
    if not 1 <= round_no <= TOP + 1:
        raise Problem("bad-request", f"a double-12 match has at most 13 rounds, not {round_no}")
    n = SIZES[players]
    engine = TOP - (round_no - 1)
    centre = named(engine, engine)
    hands = [sort_hand([same(t) for t in order[s * n:(s + 1) * n]]) for s in range(players)]
    boneyard = [same(t) for t in order[players * n:]]
    for hand in hands:  # house rule: the holder puts it in the centre ...
        if centre in hand:
            hand.remove(centre)
    if centre in boneyard:  # ... or it is taken out of the boneyard
        boneyard.remove(centre)
    seats = players if "1" in FIXED else 4  # BUG 1: the start rotates over four seats
    seat = (round_no - 1) % seats % players
    return {
        "round": round_no, "engine": engine, "engine_placed": True, "phase": "start",
        "seat": seat, "starter": seat, "hands": hands, "boneyard": boneyard,
        "trains": [{"tiles": [], "end": engine, "marker": False} for _ in range(players)],
        "mexican": {"tiles": [], "end": engine},
        "open_doubles": [], "turn_doubles": [], "drawn": None,
        "first_turns": list(range(players)), "passes": 0,
        "scores": [0] * players, "outs": [0] * players, "result": None,
    }


def winners(st: dict[str, Any]) -> list[int]:
    if st["phase"] != "over":
        return []
    if st["round"] < TOP + 1 and max(st["scores"]) < MATCH_POINTS:
        return []  # house rule: the match goes on until someone reaches 150
    low = min(st["scores"])
    return [s for s, v in enumerate(st["scores"]) if v == low]


def score(req: dict[str, Any], st: dict[str, Any]) -> list[int]:
    if "winner" not in req and (st.get("phase") != "over" or not st.get("result")):
        raise Problem("bad-request", "score without a winner needs a finished round")
    return round_scores(st)


def answer(req: dict[str, Any]) -> dict[str, Any]:
    kind = req.get("type")
    if kind == "hello":
        if req.get("protocol") != 1:
            raise Problem("protocol-version", "roundhouse speaks protocol 1")
        return {"protocol": 1, "name": "roundhouse", "version": "0.1", "rules": DECLARED}
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
