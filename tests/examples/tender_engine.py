#!/usr/bin/env python3
"""Tender: Mexican Train on a double-9 set for two to six, as a family plays it at the
kitchen table, written from docs/protocol.md, docs/implementers-guide.md and README.md
alone (it imports nothing from mtrain), to try the suite as its author would. Its house
rules and planted bugs were written down here before the suite ran on it.

Rules it plays (its rule-set file: tests/examples/tender-rules.yaml; its hello declares
the same):
- a double-9 set (55 tiles, 10 rounds from [9-9] down to [0-0]); the round's engine is
  set aside before the deal and placed in the centre (`set-aside`); round r starts at
  seat (r - 1) mod n (`rotate`); a full match of 10 rounds;
- HOUSE RULE, a table of its own: 2 players 12 tiles, 3 players 11, 4 players 10,
  5 players 8, 6 players 7; any other number of players is refused (DEAL-7);
- HOUSE RULE no value describes (`first_turn: other`, "three to get going"): on their
  first turn of a round a player lays up to three tiles, one after another in a line on
  their own train and nowhere else; they may stop after any tile (`end-chain`), and the
  turn ends by itself after the third. A player who cannot lay a first tile there puts
  up their marker without drawing. Every turn after it is a one-tile turn;
- HOUSE RULE no value describes (`doubles: other`, "your own double is your own
  business"): a double laid on the layer's own train is an ordinary tile: it ends the
  turn (or goes on in the first turn's line), nobody has to cover it, and it closes
  nothing. A double laid anywhere else (the Mexican Train, a marked train) is open as
  usual: its layer lays another tile at once, anywhere they may play, the double
  included (`follow_up: anywhere`); an open double from an earlier turn must be covered
  before anything else, the oldest first (`double_order: oldest-first`), and it stays
  open while it cannot be covered (`uncoverable_double: stays-open`);
- anyone may open the Mexican Train after their first turn, and nobody must start their
  own train first (`anyone`, `not-required`);
- a marker comes off when its owner plays on their own train (`owner-plays-own`); a
  player who cannot play draws one tile (`draw-one`) and plays it or passes, marker up;
- with the boneyard empty, a full round of passes ends the round blocked
  (`full-round-of-passes`);
- penalty scoring at face value (`penalty`, `face`); the lowest total wins and equal
  totals share the win (`shared`).

Planted bugs (what the suite must find), each with the clause it breaks:
1. "short-boneyard": the deal sets the engine aside by dropping the pool's last tile
   (the author read that the engine comes last in the pool, which holds only under an
   engine procedure of the engine's own), so the pool, already without the engine, loses
   one more tile and the boneyard is one short (ENG-2: the engine is removed and the
   hands are dealt from the rest; the rest is the boneyard, DEAL-1);
2. "mexican-opener-again": the tile that opens the Mexican Train (its first tile, not a
   double) does not end the turn: its layer plays on, as after a double (TURN-6: a turn
   ends when the player lays a tile that is not a double).

Found by the suite, not planted (and fixed): a play elsewhere while an open double is
owed was refused citing DBL-7 (oldest first) even where no other double was open; fuzz
said the rules refuse it by DBL-6 (an open double must be covered first), DBL-7 only
where the play covers a younger double.

Its refusals name a clause where one says why (a house rule has none). Both bugs are on
by default; `--fixed 1,2` switches them off (or one of them).

    mtrain conform --impl "python tests/examples/tender_engine.py --fixed 1,2" \\
        --rules tests/examples/tender-rules.yaml
"""

from __future__ import annotations

import copy
import json
import sys
from typing import Any

TOP = 9
ROUNDS = TOP + 1
SIZES = {2: 12, 3: 11, 4: 10, 5: 8, 6: 7}  # house rule: a table of its own
LINE = 3  # house rule: tiles a first turn may lay
BUGS = {"1": "short-boneyard", "2": "mexican-opener-again"}
FIXED: set[str] = set()  # the planted bugs switched off (--fixed)

OPTIONS = {
    "tile_set": "double-9", "hand_sizes": "custom", "engine_procedure": "set-aside",
    "starting_seat": "rotate", "first_turn": "other", "mexican_first_turn": "anyone",
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


# --- questions about a state ------------------------------------------------------------

def seats(st: State) -> int:
    return len(st["hands"])


def train(st: State, where: Any) -> dict[str, Any]:
    found: dict[str, Any] = st["mexican"] if where == "mexican" else st["trains"][where]
    return found


def first_turn(st: State) -> bool:
    return st["seat"] in st["first_turns"]  # FIRST-6: one first turn each


def duty(st: State) -> Any:
    """The double the mover must cover: the oldest open one laid before this turn."""
    for where in st["open_doubles"]:
        if where not in st["turn_doubles"]:
            return where
    return None


def in_hand(st: State) -> list[str]:
    """The tiles the mover may lay: the drawn one alone after a draw (TURN-3)."""
    return [st["drawn"]] if st["drawn"] is not None else list(st["hands"][st["seat"]])


def targets(st: State) -> list[Any]:
    me = st["seat"]
    if first_turn(st):
        return [me]  # house rule: the first turn's line goes on one's own train alone
    owed = duty(st)
    if owed is not None:
        return [owed]  # DBL-6, DBL-7: the oldest open double first, wherever it lies
    out = [me, "mexican", *(s for s in range(seats(st))
                            if s != me and st["trains"][s]["marker"])]  # TRAIN-4, MARK-2
    if st["phase"] == "follow":
        out += [w for w in st["turn_doubles"] if w not in out]  # DBL-2: the double included
    return out


def plays(st: State) -> list[tuple[str, Any]]:
    return [(t, w) for w in targets(st) for t in in_hand(st)
            if int(train(st, w)["end"]) in ends(t)]  # TRAIN-2


def legal(st: State) -> list[Action]:
    if st["phase"] == "over":
        return []
    found: list[Action] = [{"type": "play", "tile": t, "train": w} for t, w in plays(st)]
    if first_turn(st):
        if st["phase"] == "chain":
            return [*found, {"type": "end-chain"}]  # house rule: stop after any tile
        return found or [{"type": "pass"}]  # house rule: no start, no draw
    if found:
        return found  # TURN-1
    if st["boneyard"] and st["drawn"] is None:
        return [{"type": "draw"}]  # TURN-2
    return [{"type": "pass"}]  # TURN-4


# --- changes ------------------------------------------------------------------------------

def next_turn(st: State) -> None:
    me = st["seat"]
    st["first_turns"] = [s for s in st["first_turns"] if s != me]  # FIRST-6
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
    chain = first_turn(st)
    st["hands"][me].remove(tile)
    line = train(st, where)
    opening = where == "mexican" and not line["tiles"]
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
    opens = a == b and where != me  # house rule: a double on one's own train is ordinary
    if opens:
        st["open_doubles"].append(where)
        st["turn_doubles"].append(where)
    if not st["hands"][me]:
        st["first_turns"] = [s for s in st["first_turns"] if s != me]
        end_round(st, me)  # END-1, on a double too
    elif chain:
        # house rule: up to three tiles in the first turn's line
        st["phase"] = "chain" if len(line["tiles"]) < LINE else st["phase"]
        if len(line["tiles"]) >= LINE:
            next_turn(st)
    elif opens or (opening and on("mexican-opener-again")):
        st["phase"] = "follow"  # DBL-1 (planted bug 2: TURN-6 ends an opening tile's turn)
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
    if kind == "end-chain":
        return Refused("house rule: end-chain ends a first turn's line alone", None)
    if kind in ("draw", "pass"):
        if first_turn(st):
            if kind == "draw":
                return Refused("house rule: no drawing on a first turn", None)
            return Refused("house rule: lay a tile on your own train or end the line", None)
        if plays(st):
            return Refused("a tile can be played", "TURN-1")
        if kind == "draw":
            if not st["boneyard"]:
                return Refused("the boneyard is empty", "TURN-4")
            return Refused("one tile drawn a turn", "TURN-2")
        return Refused("draw first: the boneyard holds tiles", "TURN-2")
    if kind != "play":
        raise Error("bad-request", f"no action {kind!r}")
    a, b = ends(act.get("tile"))
    if max(a, b) > TOP:
        return Refused(f"{name(a, b)} is no tile of the double-9 set", "SET-1")
    where = act.get("train")
    if where != "mexican" and (not isinstance(where, int) or isinstance(where, bool)
                               or not 0 <= where < seats(st)):
        return Refused(f"no train {where!r} at a table of {seats(st)}", "TRAIN-1")
    tile = name(a, b)
    if tile not in st["hands"][st["seat"]]:
        return Refused(f"seat {st['seat']} does not hold {tile}", "TURN-7")
    end = int(train(st, where)["end"])
    if end not in (a, b):
        return Refused(f"{tile} does not match the open end {end}", "TRAIN-2")
    if st["drawn"] is not None and tile != st["drawn"]:
        return Refused(f"only the drawn tile {st['drawn']} may be played", "TURN-3")
    if first_turn(st):
        return Refused("house rule: a first turn lays on one's own train alone", None)
    if where not in ("mexican", st["seat"]) and not train(st, where)["marker"] \
            and where not in st["open_doubles"]:
        return Refused(f"seat {where}'s train carries no marker", "TRAIN-4")
    owed = duty(st)
    if owed is not None:
        # DBL-7 where the play covers a younger double, DBL-6 elsewhere (fuzz found the
        # author citing DBL-7 everywhere: see the docstring)
        return Refused(f"the double on train {owed} must be covered first",
                       "DBL-7" if where in st["open_doubles"] else "DBL-6")
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
    elif kind in ("draw", "pass", "end-chain") and {"type": kind} in legal(st):
        {"draw": draw, "pass": pass_turn, "end-chain": next_turn}[str(kind)](st)
        return st
    raise refusal(st, act)


# --- requests ---------------------------------------------------------------------------

def deal(req: dict[str, Any]) -> State:
    players, rnd, order = req.get("players"), req.get("round"), req.get("order")
    if not isinstance(players, int) or not isinstance(rnd, int) or not isinstance(order, list):
        raise Error("bad-request", "deal needs players, round and order")
    size = SIZES.get(players)
    if size is None:
        raise Error("refused-setup", f"tender is for 2 to 6 players, not {players}",
                    "DEAL-7")
    if not 1 <= rnd <= ROUNDS:
        raise Error("bad-request", f"a double-9 match has rounds 1 to {ROUNDS}")
    engine = TOP + 1 - rnd  # ENG-1: the round's double, [9-9] down to [0-0]
    centre = name(engine, engine)
    if sorted(map(str, order)) != sorted(t for t in full_set() if t != centre):
        raise Error("bad-request", f"order is not the double-9 set without {centre}")
    pool = list(order)
    if on("short-boneyard"):
        pool = pool[:-1]  # (planted bug 1: ENG-2 sets aside the engine alone)
    first = (rnd - 1) % players  # SEAT-3
    hands = [pool[s * size:(s + 1) * size] for s in range(players)]  # DEAL-1, ENG-2
    return {
        "round": rnd, "engine": engine, "engine_placed": True, "phase": "start",
        "seat": first, "starter": first, "hands": [in_order(h) for h in hands],
        "boneyard": pool[players * size:],
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
    if len(st["hands"]) not in SIZES:
        raise Error("refused-setup",
                    f"tender is for 2 to 6 players, not {len(st['hands'])}", "DEAL-7")
    if st.get("phase") not in ("start", "chain", "follow", "over"):
        raise Error("unsupported", f"no {st.get('phase')!r} phase in this game")
    return copy.deepcopy(st)


def answer(req: dict[str, Any]) -> dict[str, Any]:
    kind = req.get("type")
    if kind == "hello":
        if req.get("protocol") != 1:
            raise Error("protocol-version", "tender speaks protocol 1")
        rules = {"name": "tender", "options": OPTIONS,
                 "hand_sizes": {str(n): size for n, size in SIZES.items()}}
        return {"protocol": 1, "name": "tender", "version": "1.0", "rules": rules}
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
