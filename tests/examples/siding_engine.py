#!/usr/bin/env python3
"""Siding: Mexican Train on a double-6 set for two to five, as a family plays it with the
box of dominoes every house has, written from docs/protocol.md and
docs/implementers-guide.md alone (it imports nothing from mtrain), to try the suite as its
author would. Its house rules and planted bugs were written down here before the suite
ran on it.

Rules it plays (its rule-set file: tests/examples/siding-rules.yaml; its hello declares
the same):
- HOUSE RULE, a table of its own on a double-6 set: 2 players 8 tiles, 3 players 7,
  4 players 6, 5 players 5 (the [6-6]-[0-0] engine set aside first, so five hands of five
  leave two tiles in the boneyard); any other number of players is refused (DEAL-7);
- the engine is set aside before the deal (`set-aside`); round r starts at seat
  (r - 1) mod n (`rotate`); a full match of 7 rounds;
- HOUSE RULE no value describes (`first_turn: other`): a player's first turn of a round
  starts their own train. It is one tile, like every later turn, but on their own train
  only: not the Mexican Train, not a marked train. One who cannot lay a tile there draws
  one; if it fits their own train they lay it, if not they pass and their marker goes up.
  A double laid then is followed up on the own train too (so: covered, or the turn goes
  to a draw as DBL-5 says). An open double of an earlier turn still comes first (DBL-6):
  covering it may send that first tile elsewhere. After the first turn anyone may play
  on the Mexican Train (`mexican_first_turn: anyone`), nobody must have started their
  own train (`own_train_first: not-required`);
- HOUSE RULE no value describes (`follow_up: other`, "cover it if you can"): the tile
  after a double must cover the double just laid whenever the player has a tile that
  covers it; only when they have none may it go anywhere else they may play (as DBL-2).
  With no tile to play at all they draw, and play the drawn tile by the same rule;
- open doubles of earlier turns are covered oldest first (`oldest-first`); a double whose
  seven tiles are all on the table binds nobody (`released`);
- a marker comes off when its owner plays on their own train (`owner-plays-own`); a
  player who cannot play draws one tile (`draw-one`) and plays it or passes;
- with the boneyard empty, a full round of passes ends the round blocked
  (`full-round-of-passes`);
- penalty scoring at face value (`penalty`, `face`); equal totals share the win
  (`shared`).

Planted bugs (what the suite must find), each with the clause it breaks:
1. "short-match": the match is over after round 6 of 7: `winners` names the lowest
   total once round 6 ends (MATCH-1: a double-6 match has 7 rounds);
2. "drawn-double-ends": a double that was just drawn and laid ends the turn, with no
   follow-up asked for (DBL-1: a double asks its layer for another tile; the next player
   then finds it an open double of an earlier turn);
3. "mexican-stays-open": a double on the Mexican Train, once covered, stays in the list
   of open doubles (TRAIN-3: one tile laid against a double covers it).

Its refusals name a clause where one says why (a house rule has none). All three bugs
are on by default; `--fixed 1,2,3` switches them off (or some of them).

    mtrain conform --impl "python tests/examples/siding_engine.py --fixed 1,2,3" \\
        --rules tests/examples/siding-rules.yaml
"""

from __future__ import annotations

import copy
import json
import sys
from typing import Any

TOP = 6
ROUNDS = TOP + 1
SIZES = {2: 8, 3: 7, 4: 6, 5: 5}  # house rule: a table of its own
BUGS = {"1": "short-match", "2": "drawn-double-ends", "3": "mexican-stays-open"}
FIXED: set[str] = set()  # the planted bugs switched off (--fixed)

OPTIONS = {
    "tile_set": "double-6", "hand_sizes": "custom", "engine_procedure": "set-aside",
    "starting_seat": "rotate", "first_turn": "other", "mexican_first_turn": "anyone",
    "own_train_first": "not-required", "doubles": "open", "follow_up": "other",
    "double_order": "oldest-first", "uncoverable_double": "released",
    "marker_removal": "owner-plays-own", "draw_rule": "draw-one",
    "blocked_round": "full-round-of-passes", "scoring": "penalty",
    "blank_values": "face", "tie_rule": "shared", "match_length": "full",
}

State = dict[str, Any]
Action = dict[str, Any]


def on(bug: str) -> bool:
    return any(name == bug and number not in FIXED for number, name in BUGS.items())


class Error(Exception):
    """An error answer: the request gets none."""

    def __init__(self, kind: str, message: str, clause: str | None = None) -> None:
        super().__init__(message)
        self.kind, self.message, self.clause = kind, message, clause


class Refused(Exception):
    def __init__(self, reason: str, clause: str | None) -> None:
        super().__init__(reason)
        self.reason, self.clause = reason, clause


# --- tiles: a pair of ends; hands write a tile high end first --------------------------

def ends(text: Any) -> tuple[int, int]:
    parts = text.split("-") if isinstance(text, str) else []
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        raise Error("bad-request", f"not a tile: {text!r}")
    return int(parts[0]), int(parts[1])


def name(a: int, b: int) -> str:
    return f"{max(a, b)}-{min(a, b)}"


def is_double(text: str) -> bool:
    a, b = ends(text)
    return a == b


def in_order(hand: list[str]) -> list[str]:
    return sorted(hand, key=lambda t: sorted(ends(t), reverse=True), reverse=True)


def full_set() -> list[str]:
    return [name(a, b) for a in range(TOP, -1, -1) for b in range(a, -1, -1)]


# --- questions about a state ------------------------------------------------------------

def seats(st: State) -> int:
    return len(st["hands"])


def train(st: State, where: Any) -> dict[str, Any]:
    found: dict[str, Any] = st["mexican"] if where == "mexican" else st["trains"][where]
    return found


def end_of(st: State, where: Any) -> int:
    return int(train(st, where)["end"])


def laid(st: State, number: int) -> int:
    """Tiles bearing `number` on the table, the engine included."""
    count = int(st["engine"] == number)
    for where in [*range(seats(st)), "mexican"]:
        count += sum(number in ends(t) for t in train(st, where)["tiles"])
    return count


def duty(st: State) -> Any:
    """The open double of an earlier turn the mover must cover: the oldest (DBL-7) that
    some tile can still cover (DBL-9: released once its seven tiles are out)."""
    for where in st["open_doubles"]:
        if where not in st["turn_doubles"] and laid(st, end_of(st, where)) < TOP + 1:
            return where
    return None


def in_hand(st: State) -> list[str]:
    """The tiles the mover may lay: the drawn one alone after a draw (TURN-3)."""
    return [st["drawn"]] if st["drawn"] is not None else list(st["hands"][st["seat"]])


def open_trains(st: State) -> list[Any]:
    me = st["seat"]
    if me in st["first_turns"]:
        return [me]  # house rule: a first turn starts one's own train
    return [me, "mexican", *(s for s in range(seats(st))
                             if s != me and st["trains"][s]["marker"])]  # TRAIN-4


def targets(st: State) -> list[Any]:
    owed = duty(st)
    if owed is not None:
        return [owed]  # DBL-6: cover it first, wherever it lies (TRAIN-6)
    out = open_trains(st)
    if st["phase"] == "follow":
        last = st["turn_doubles"][-1]
        if any(end_of(st, last) in ends(t) for t in in_hand(st)):
            return [last]  # house rule: cover the double just laid if you can
        out += [w for w in st["turn_doubles"] if w not in out]  # TRAIN-6
    return out


def plays(st: State) -> list[tuple[str, Any]]:
    return [(t, w) for w in targets(st) for t in in_hand(st)
            if end_of(st, w) in ends(t)]  # TRAIN-2


def legal(st: State) -> list[Action]:
    if st["phase"] == "over":
        return []
    found = plays(st)
    if found:
        return [{"type": "play", "tile": t, "train": w} for t, w in found]  # TURN-1
    if st["boneyard"] and st["drawn"] is None:
        return [{"type": "draw"}]  # TURN-2, DBL-5
    return [{"type": "pass"}]  # TURN-4


# --- changes ------------------------------------------------------------------------------

def next_turn(st: State) -> None:
    me = st["seat"]
    st["first_turns"] = [s for s in st["first_turns"] if s != me]  # FIRST-6
    st["seat"] = (me + 1) % seats(st)
    st["phase"], st["drawn"], st["turn_doubles"] = "start", None, []


def score(hands: list[list[str]], winner: int | None) -> list[int]:
    return [0 if s == winner else sum(sum(ends(t)) for t in hand)  # SCORE-1, SCORE-5
            for s, hand in enumerate(hands)]


def end_round(st: State, winner: int | None) -> None:
    got = score(st["hands"], winner)
    st["phase"], st["drawn"], st["turn_doubles"] = "over", None, []
    st["result"] = {"end": "blocked" if winner is None else "domino", "winner": winner,
                    "scores": got}
    st["scores"] = [a + b for a, b in zip(st["scores"], got, strict=True)]
    if winner is not None:
        st["outs"][winner] += 1


def lay(st: State, tile: str, where: Any) -> None:
    me = st["seat"]
    drawn = st["drawn"] is not None
    st["hands"][me].remove(tile)
    line = train(st, where)
    near = int(line["end"])
    a, b = ends(tile)
    far = b if a == near else a
    line["tiles"].append(f"{near}-{far}")
    line["end"] = far
    if where in st["open_doubles"] and not (where == "mexican" and on("mexican-stays-open")):
        st["open_doubles"].remove(where)  # TRAIN-3: one tile covers it
    if where in st["turn_doubles"]:
        st["turn_doubles"].remove(where)
    if where == me:
        line["marker"] = False  # MARK-3
    st["passes"], st["drawn"] = 0, None
    if a == b:
        st["open_doubles"].append(where)
        st["turn_doubles"].append(where)
    if not st["hands"][me]:
        st["first_turns"] = [s for s in st["first_turns"] if s != me]
        end_round(st, me)  # END-1, on a double too
    elif a == b and not (drawn and on("drawn-double-ends")):
        st["phase"] = "follow"  # DBL-1: another tile, this turn
    else:
        next_turn(st)  # TURN-6


def draw(st: State) -> None:
    tile = st["boneyard"].pop(0)  # TURN-2: from the front
    st["hands"][st["seat"]] = in_order([*st["hands"][st["seat"]], tile])
    st["drawn"] = tile


def pass_turn(st: State) -> None:
    st["trains"][st["seat"]]["marker"] = True  # TURN-4, MARK-1
    st["passes"] = 0 if st["boneyard"] else st["passes"] + 1
    next_turn(st)
    if not st["boneyard"] and st["passes"] >= seats(st):
        end_round(st, None)  # END-3: everyone passed, nothing to draw


def refusal(st: State, act: Action) -> Refused:
    kind = act.get("type")
    if kind in ("draw", "pass"):
        if plays(st):
            return Refused("a tile can be played", "TURN-1")
        if kind == "draw":
            if not st["boneyard"]:
                return Refused("the boneyard is empty", "TURN-4")
            return Refused("one tile drawn a turn", "TURN-2")
        return Refused("draw first: the boneyard holds tiles", "TURN-2")
    if kind == "end-chain":
        return Refused("one tile a turn: there is no chain", "FIRST-7")
    if kind != "play":
        raise Error("bad-request", f"no action {kind!r}")
    a, b = ends(act.get("tile"))
    if max(a, b) > TOP:
        return Refused(f"{name(a, b)} is no tile of the double-6 set", "SET-1")
    where = act.get("train")
    if where != "mexican" and (not isinstance(where, int) or isinstance(where, bool)
                               or not 0 <= where < seats(st)):
        return Refused(f"no train {where!r} at a table of {seats(st)}", "TRAIN-1")
    tile = name(a, b)
    if tile not in st["hands"][st["seat"]]:
        return Refused(f"seat {st['seat']} does not hold {tile}", "TURN-7")
    if st["drawn"] is not None and tile != st["drawn"]:
        return Refused(f"only the drawn tile {st['drawn']} may be played", "TURN-3")
    if end_of(st, where) not in (a, b):
        return Refused(f"{tile} does not match the open end {end_of(st, where)}", "TRAIN-2")
    owed = duty(st)
    if owed is not None:
        clause = "DBL-7" if where in st["open_doubles"] else "DBL-6"
        return Refused(f"the double on train {owed} must be covered first", clause)
    if st["phase"] == "follow" and where not in open_trains(st) + st["turn_doubles"]:
        return Refused(f"seat {where}'s train carries no marker", "TRAIN-4")
    if st["phase"] == "follow":
        return Refused("house rule: the double just laid must be covered, and you can",
                       None)
    if st["seat"] in st["first_turns"]:
        return Refused("house rule: a first turn starts one's own train", None)
    return Refused(f"seat {where}'s train carries no marker", "TRAIN-4")


def apply(st: State, act: Action) -> State:
    if st["phase"] == "over":
        raise Refused("the round is over", "END-1")
    kind = act.get("type")
    if kind == "play":
        a, b = ends(act.get("tile"))
        where = act.get("train")
        if (name(a, b), where) in plays(st):
            lay(st, name(a, b), where)
            return st
    elif {"type": kind} in legal(st):
        (draw if kind == "draw" else pass_turn)(st)
        return st
    raise refusal(st, act)


# --- requests ---------------------------------------------------------------------------

def deal(req: dict[str, Any]) -> State:
    players, rnd, order = req.get("players"), req.get("round"), req.get("order")
    if not isinstance(players, int) or not isinstance(rnd, int) or not isinstance(order, list):
        raise Error("bad-request", "deal needs players, round and order")
    if players not in SIZES:
        raise Error("refused-setup", f"siding is for 2 to 5 players, not {players}", "DEAL-7")
    if not 1 <= rnd <= ROUNDS:
        raise Error("bad-request", f"a double-6 match has rounds 1 to {ROUNDS}")
    engine = TOP + 1 - rnd  # ENG-1
    rest = [t for t in full_set() if t != name(engine, engine)]  # ENG-2: set aside
    if sorted(map(str, order)) != sorted(rest):
        raise Error("bad-request", "order is not the double-6 set without the engine")
    size = SIZES[players]
    first = (rnd - 1) % players  # SEAT-3
    return {
        "round": rnd, "engine": engine, "engine_placed": True, "phase": "start",
        "seat": first, "starter": first,
        "hands": [in_order(order[s * size:(s + 1) * size]) for s in range(players)],  # DEAL-1
        "boneyard": list(order[players * size:]),
        "trains": [{"tiles": [], "end": engine, "marker": False} for _ in range(players)],
        "mexican": {"tiles": [], "end": engine}, "open_doubles": [], "turn_doubles": [],
        "drawn": None, "first_turns": list(range(players)), "passes": 0,
        "scores": [0] * players, "outs": [0] * players, "result": None,
    }


def winners(st: State) -> list[int]:
    last = ROUNDS - 1 if on("short-match") else ROUNDS
    if st["phase"] != "over" or st["round"] < last:
        return []  # MATCH-1: the match goes on
    low = min(st["scores"])  # MATCH-2, MATCH-4: a tie is shared
    return [s for s, total in enumerate(st["scores"]) if total == low]


def table(req: dict[str, Any]) -> State:
    st = req.get("state")
    if not isinstance(st, dict) or not isinstance(st.get("hands"), list):
        raise Error("bad-request", f"{req.get('type')} needs a state")
    if len(st["hands"]) not in SIZES:
        raise Error("refused-setup", f"siding is for 2 to 5 players, not {len(st['hands'])}",
                    "DEAL-7")
    if st.get("phase") not in ("start", "follow", "over"):
        raise Error("unsupported", f"no {st.get('phase')!r} phase in this game")
    return copy.deepcopy(st)


def answer(req: dict[str, Any]) -> dict[str, Any]:
    kind = req.get("type")
    if kind == "hello":
        if req.get("protocol") != 1:
            raise Error("protocol-version", "siding speaks protocol 1")
        rules = {"name": "siding", "options": OPTIONS,
                 "hand_sizes": {str(n): size for n, size in SIZES.items()}}
        return {"protocol": 1, "name": "siding", "version": "1.0", "rules": rules}
    if kind == "shutdown":
        return {}
    if kind == "deal":
        return {"state": deal(req)}
    if kind not in ("legal", "apply", "score", "winners"):
        raise Error("bad-request", f"unknown request type {kind!r}")
    st = table(req)
    if kind == "legal":
        return {"actions": legal(st)}
    if kind == "apply":
        act = req.get("action")
        if not isinstance(act, dict):
            raise Error("bad-request", "apply needs an action")
        try:
            return {"state": apply(st, act)}
        except Refused as r:
            return {"refused": {"reason": r.reason, "clause": r.clause}}
    if kind == "score":
        winner = req["winner"] if "winner" in req else (st.get("result") or {}).get("winner")
        return {"scores": score(st["hands"], winner)}
    return {"winners": winners(st)}


def main() -> None:
    for line in sys.stdin:
        if not line.strip():
            continue
        rid: Any = None
        kind: Any = None
        try:
            req = json.loads(line)
            rid, kind = req.get("id"), req.get("type")
            out: dict[str, Any] = {"id": rid, "ok": True, **answer(req)}
        except Error as e:
            err: dict[str, Any] = {"kind": e.kind, "message": e.message}
            if e.kind == "refused-setup":
                err["clause"] = e.clause
            if e.kind == "protocol-version":
                err["supported"] = [1]
            out = {"id": rid, "ok": False, "error": err}
        except Exception as e:  # our own bug: say so and keep serving
            out = {"id": rid, "ok": False, "error": {"kind": "internal", "message": repr(e)}}
        sys.stdout.write(json.dumps(out, separators=(",", ":")) + "\n")
        sys.stdout.flush()
        if kind == "shutdown":
            break


if __name__ == "__main__":
    if sys.argv[1:2] == ["--fixed"]:
        FIXED.update(sys.argv[2].split(","))
    main()
