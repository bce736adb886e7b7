#!/usr/bin/env python3
"""Pullman: Mexican Train on a double-12 set for two to eight, as a railway club plays it
in the dining car of its excursion train (a Pullman), written from docs/protocol.md,
docs/implementers-guide.md and README.md alone (it imports nothing from mtrain), to try
the suite as its author would. Its house rules and planted bugs were written down here
before the suite ran on it.

Rules it plays (its rule-set file: tests/examples/pullman-rules.yaml; its hello declares
the same):
- a double-12 set (91 tiles, 13 rounds from [12-12] down to [0-0]); round r starts at
  seat (r - 1) mod n (`rotate`); a full match of 13 rounds;
- HOUSE RULE, a table of its own: 2 players 16 tiles, 3 players 14, 4 players 13,
  5 players 11, 6 players 10, 7 players 9, 8 players 8; any other number of players is
  refused (DEAL-7);
- HOUSE RULE no value describes (`engine_procedure: other`, "the starter digs for it"):
  every tile is dealt; whoever was dealt the round's engine puts it in the centre (their
  hand is one tile short). If nobody was, the round's first player alone draws from the
  boneyard, one tile after another, keeping each, until the engine turns up, and puts it
  in the centre. Nobody else draws, and placing it is no turn;
- one tile a turn from the start (`single`); anyone may open the Mexican Train, and
  nobody must start their own train first (`anyone`, `not-required`);
- HOUSE RULE no value describes (`doubles: other`, "the next man covers it, or it's
  dead"): a double asks its layer for another tile in the same turn, which may go
  anywhere the player may play, the double included. A double still uncovered when its
  layer's turn ends (they drew in vain and passed) binds the next player alone: they
  must cover it before anything else (the oldest first, if there are several), on
  whatever train it lies, drawing as usual if they cannot; when that player's turn
  ends, every double laid before it is dead: it binds nobody, closes nothing, and its
  train is an ordinary train again (open to its owner, and to all while marked). A
  double that cannot be covered any more still binds that one player, who draws and
  passes. The file writes `follow_up: anywhere`, `double_order: oldest-first` and
  `uncoverable_double: stays-open` for the turn in which a double binds;
- a marker comes off when its owner plays on their own train (`owner-plays-own`); a
  player who cannot play draws one tile (`draw-one`) and plays it or passes, marker up;
- with the boneyard empty, a full round of passes ends the round blocked
  (`full-round-of-passes`);
- penalty scoring at face value (`penalty`, `face`); the lowest total wins and equal
  totals share the win (`shared`).

Planted bugs (what the suite must find), each with the clause it breaks:
1. "unlisted-count": the hand table is looked up with a default (`SIZES.get(n, 8)`), so
   a player count the table does not list (1, 9, 10, 11) is dealt eight tiles each, and
   a table of such a count is played, where it should be refused (DEAL-7: a game may be
   set up only for a player count its hand-size table lists);
2. "marked-no-mexican": a player whose own train carries their marker may not play on
   the Mexican Train (the author's "fix your own train first"), though they may cover a
   double lying there (MARK-2: the Mexican Train never carries a marker and is always
   open; TRAIN-4 says the same of where a tile may go);
3. "end-chain-pass": `end-chain` where a pass is the only legal action is taken as a
   pass that forgets the marker: the turn ends, no marker goes up (FIRST-7: one tile a
   turn, there is no chain to end; it must be refused). `legal` never lists it.

Its refusals name a clause where one says why (a house rule has none). All three bugs
are on by default; `--fixed 1,2,3` switches them off (or some of them).

    mtrain conform --impl "python tests/examples/pullman_engine.py --fixed 1,2,3" \\
        --rules tests/examples/pullman-rules.yaml
"""

from __future__ import annotations

import copy
import json
import sys
from typing import Any

TOP = 12
ROUNDS = TOP + 1
SIZES = {2: 16, 3: 14, 4: 13, 5: 11, 6: 10, 7: 9, 8: 8}  # house rule: a table of its own
BUGS = {"1": "unlisted-count", "2": "marked-no-mexican", "3": "end-chain-pass"}
FIXED: set[str] = set()  # the planted bugs switched off (--fixed)

OPTIONS = {
    "tile_set": "double-12", "hand_sizes": "custom", "engine_procedure": "other",
    "starting_seat": "rotate", "first_turn": "single", "mexican_first_turn": "anyone",
    "own_train_first": "not-required", "doubles": "other", "follow_up": "anywhere",
    "double_order": "oldest-first", "uncoverable_double": "stays-open",
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


def in_order(hand: list[str]) -> list[str]:
    return sorted(hand, key=lambda t: sorted(ends(t), reverse=True), reverse=True)


def full_set() -> list[str]:
    return [name(a, b) for a in range(TOP, -1, -1) for b in range(a, -1, -1)]


def hand_size(players: int) -> int | None:
    if on("unlisted-count"):
        return SIZES.get(players, 8)  # (planted bug 1: DEAL-7 refuses an unlisted count)
    return SIZES.get(players)


# --- questions about a state ------------------------------------------------------------

def seats(st: State) -> int:
    return len(st["hands"])


def train(st: State, where: Any) -> dict[str, Any]:
    found: dict[str, Any] = st["mexican"] if where == "mexican" else st["trains"][where]
    return found


def duty(st: State) -> Any:
    """House rule: the double the mover must cover, the oldest laid before this turn (a
    double outlives its layer's turn by one turn only, next_turn)."""
    for where in st["open_doubles"]:
        if where not in st["turn_doubles"]:
            return where
    return None


def in_hand(st: State) -> list[str]:
    """The tiles the mover may lay: the drawn one alone after a draw (TURN-3)."""
    return [st["drawn"]] if st["drawn"] is not None else list(st["hands"][st["seat"]])


def open_trains(st: State) -> list[Any]:
    me = st["seat"]
    mexican = [] if on("marked-no-mexican") and st["trains"][me]["marker"] else ["mexican"]
    return [me, *mexican, *(s for s in range(seats(st))
                            if s != me and st["trains"][s]["marker"])]  # TRAIN-4, MARK-2


def targets(st: State) -> list[Any]:
    owed = duty(st)
    if owed is not None:
        return [owed]  # house rule: cover it first, wherever it lies
    out = open_trains(st)
    if st["phase"] == "follow":
        out += [w for w in st["turn_doubles"] if w not in out]  # the double included
    return out


def plays(st: State) -> list[tuple[str, Any]]:
    return [(t, w) for w in targets(st) for t in in_hand(st)
            if int(train(st, w)["end"]) in ends(t)]  # TRAIN-2


def legal(st: State) -> list[Action]:
    if st["phase"] == "over":
        return []
    found = plays(st)
    if found:
        return [{"type": "play", "tile": t, "train": w} for t, w in found]  # TURN-1
    if st["boneyard"] and st["drawn"] is None:
        return [{"type": "draw"}]  # TURN-2
    return [{"type": "pass"}]  # TURN-4


# --- changes ------------------------------------------------------------------------------

def next_turn(st: State) -> None:
    me = st["seat"]
    st["first_turns"] = [s for s in st["first_turns"] if s != me]  # FIRST-6
    # house rule: a double laid before this turn is dead once it ends
    st["open_doubles"] = [w for w in st["open_doubles"] if w in st["turn_doubles"]]
    st["seat"] = (me + 1) % seats(st)  # SEAT-1
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
    st["hands"][me].remove(tile)
    line = train(st, where)
    near = int(line["end"])
    a, b = ends(tile)
    far = b if a == near else a
    line["tiles"].append(f"{near}-{far}")
    line["end"] = far
    if where in st["open_doubles"]:
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
    elif a == b:
        st["phase"] = "follow"  # house rule: another tile, this turn
    else:
        next_turn(st)  # TURN-6


def draw(st: State) -> None:
    tile = st["boneyard"].pop(0)  # TURN-2: from the front
    st["hands"][st["seat"]] = in_order([*st["hands"][st["seat"]], tile])
    st["drawn"] = tile


def pass_turn(st: State, marker: bool = True) -> None:
    if marker:
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
        return Refused(f"{name(a, b)} is no tile of the double-12 set", "SET-1")
    where = act.get("train")
    if where != "mexican" and (not isinstance(where, int) or isinstance(where, bool)
                               or not 0 <= where < seats(st)):
        return Refused(f"no train {where!r} at a table of {seats(st)}", "TRAIN-1")
    tile = name(a, b)
    if tile not in st["hands"][st["seat"]]:
        return Refused(f"seat {st['seat']} does not hold {tile}", "TURN-7")
    if st["drawn"] is not None and tile != st["drawn"]:
        return Refused(f"only the drawn tile {st['drawn']} may be played", "TURN-3")
    end = int(train(st, where)["end"])
    if end not in (a, b):
        return Refused(f"{tile} does not match the open end {end}", "TRAIN-2")
    owed = duty(st)
    if owed is not None:
        return Refused(f"house rule: the double on train {owed} must be covered first", None)
    if where not in ("mexican", st["seat"]) and not train(st, where)["marker"]:
        return Refused(f"seat {where}'s train carries no marker", "TRAIN-4")
    return Refused(f"{tile} cannot go on train {where} now", None)


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
    elif kind == "end-chain" and on("end-chain-pass") and {"type": "pass"} in legal(st):
        pass_turn(st, marker=False)  # (planted bug 3: FIRST-7 refuses it)
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
    size = hand_size(players)
    if size is None:
        raise Error("refused-setup", f"pullman is for 2 to 8 players, not {players}",
                    "DEAL-7")
    if players < 1 or players * size >= len(full_set()):
        raise Error("bad-request", f"no deal of {size} tiles to {players} players")
    if not 1 <= rnd <= ROUNDS:
        raise Error("bad-request", f"a double-12 match has rounds 1 to {ROUNDS}")
    if sorted(map(str, order)) != sorted(full_set()):
        raise Error("bad-request", "order is not the double-12 set")
    engine = TOP + 1 - rnd  # the round's double, [12-12] down to [0-0]
    centre = name(engine, engine)
    first = (rnd - 1) % players  # SEAT-3
    hands = [list(order[s * size:(s + 1) * size]) for s in range(players)]
    boneyard = list(order[players * size:])
    for hand in hands:
        if centre in hand:
            hand.remove(centre)  # house rule: its holder puts it in the centre
    while centre in boneyard:  # house rule: the round's first player digs for it
        tile = boneyard.pop(0)
        if tile != centre:
            hands[first].append(tile)
    return {
        "round": rnd, "engine": engine, "engine_placed": True, "phase": "start",
        "seat": first, "starter": first, "hands": [in_order(h) for h in hands],
        "boneyard": boneyard,
        "trains": [{"tiles": [], "end": engine, "marker": False} for _ in range(players)],
        "mexican": {"tiles": [], "end": engine}, "open_doubles": [], "turn_doubles": [],
        "drawn": None, "first_turns": list(range(players)), "passes": 0,
        "scores": [0] * players, "outs": [0] * players, "result": None,
    }


def winners(st: State) -> list[int]:
    if st["phase"] != "over" or st["round"] < ROUNDS:
        return []  # MATCH-1: the match goes on
    low = min(st["scores"])  # MATCH-2, MATCH-4: a tie is shared
    return [s for s, total in enumerate(st["scores"]) if total == low]


def table(req: dict[str, Any]) -> State:
    st = req.get("state")
    if not isinstance(st, dict) or not isinstance(st.get("hands"), list):
        raise Error("bad-request", f"{req.get('type')} needs a state")
    if hand_size(len(st["hands"])) is None:
        raise Error("refused-setup",
                    f"pullman is for 2 to 8 players, not {len(st['hands'])}", "DEAL-7")
    if st.get("phase") not in ("start", "follow", "over"):
        raise Error("unsupported", f"no {st.get('phase')!r} phase in this game")
    return copy.deepcopy(st)


def answer(req: dict[str, Any]) -> dict[str, Any]:
    kind = req.get("type")
    if kind == "hello":
        if req.get("protocol") != 1:
            raise Error("protocol-version", "pullman speaks protocol 1")
        rules = {"name": "pullman", "options": OPTIONS,
                 "hand_sizes": {str(n): size for n, size in SIZES.items()}}
        return {"protocol": 1, "name": "pullman", "version": "1.0", "rules": rules}
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
