#!/usr/bin/env python3
"""Tenwheeler: Mexican Train on a double-10 set for two to six, as a household plays it
with the double-ten box that came with a caravan (a ten-wheeler is the 4-6-0 engine),
written from docs/protocol.md, docs/implementers-guide.md and README.md alone (it imports
nothing from mtrain), to try the suite as its author would. Its house rules and planted
bugs were written down here before the suite ran on it.

Rules it plays (its rule-set file: tests/examples/tenwheeler-rules.yaml; its hello
declares the same):
- a double-10 set (66 tiles, 11 rounds from [10-10] down to [0-0]); the engine is set
  aside before the deal (`set-aside`); round r starts at seat (r - 1) mod n (`rotate`);
  a full match of 11 rounds;
- HOUSE RULE, a table of its own: 2 players 15 tiles, 3 players 13, 4 players 11,
  5 players 9, 6 players 8 (six hands of eight leave 17 of the 65 tiles to draw); any
  other number of players is refused (DEAL-7);
- one tile a turn from the start (`single`); anyone may open the Mexican Train
  (`anyone`);
- HOUSE RULE no value describes (`own_train_first: other`, "start your own, unless
  you're stuck"): until a player's own train holds a tile they may play only on it,
  unless their marker is up (they passed since the round began, so they are stuck):
  then they may play wherever a player may (the Mexican Train, a marked train, their own).
  The duty to cover an open double comes first and may send the tile anywhere (TRAIN-6);
- doubles are open (`open`); the tile after a double goes anywhere the player may play,
  the double included (`anywhere`); several binding doubles are covered oldest first
  (`oldest-first`);
- HOUSE RULE no value describes (`uncoverable_double: other`, "no waiting on doubles
  once the boneyard's gone"): a double laid on an earlier turn binds everyone while it
  can be covered from the boneyard's side of things: it stops binding once every tile of
  its number is on the table (as puremco) OR once the boneyard is empty (whether or not
  somebody still holds a cover). A double that binds nobody closes no train, and only a
  player who may use its train in an ordinary turn may cover it. A double laid this turn
  still asks its layer for the next tile (DBL-1);
- a marker comes off when its owner plays on their own train (`owner-plays-own`); a
  player who cannot play draws one tile (`draw-one`) and plays it or passes, marker up;
- with the boneyard empty, a full round of passes ends the round blocked
  (`full-round-of-passes`);
- penalty scoring at face value (`penalty`, `face`); the lowest total wins and equal
  totals share the win (`shared`).

Planted bugs (what the suite must find), each with the clause it breaks:
1. "mexican-from-ten": an empty Mexican Train is opened by a tile bearing 10, the set's
   highest number, whatever the round's engine (the author's double-ten habit): in
   round 1 it is right, in every later round an empty Mexican Train takes the wrong
   tiles (TRAIN-5: it is opened by a tile bearing the engine's number);
2. "text-totals": the match winners are the lowest total compared as text, so a total
   of 100 beats one of 95 (MATCH-2: the lowest total wins);
3. "first-turn-kept": a player who passes on their first turn keeps it: a seat leaves
   `first_turns` only when it lays a tile (FIRST-6: each player has exactly one first
   turn, their first turn after the engine is placed).

Found by the runs, in the suite, not here (each fixed where it belongs, with a test): the
suite refused a double-10 set outright (`unknown value 'double-10' for tile_set`); bug 3
failed nothing in conform (a pass after a draw in vain checked the marker, not
`first_turns`; and on a first turn every legal set reads this engine's own-train rule,
so conform cannot run those tables at all), and fuzz found it but could not shrink it
(asked again, the pass's legality was read as its own rule's); bug 1 was charged to
the follow-up rule (DBL-2) where the tile after a double would open the Mexican Train,
and fuzz split it over three findings (TRAIN-5, TRAIN-2, TURN-3).

Its refusals name a clause where one says why (a house rule has none). All three bugs
are on by default; `--fixed 1,2,3` switches them off (or some of them).

    mtrain conform --impl "python tests/examples/tenwheeler_engine.py --fixed 1,2,3" \\
        --rules tests/examples/tenwheeler-rules.yaml
"""

from __future__ import annotations

import copy
import json
import sys
from typing import Any

TOP = 10
ROUNDS = TOP + 1
SIZES = {2: 15, 3: 13, 4: 11, 5: 9, 6: 8}  # house rule: a table of its own
BUGS = {"1": "mexican-from-ten", "2": "text-totals", "3": "first-turn-kept"}
FIXED: set[str] = set()  # the planted bugs switched off (--fixed)

OPTIONS = {
    "tile_set": "double-10", "hand_sizes": "custom", "engine_procedure": "set-aside",
    "starting_seat": "rotate", "first_turn": "single", "mexican_first_turn": "anyone",
    "own_train_first": "other", "doubles": "open", "follow_up": "anywhere",
    "double_order": "oldest-first", "uncoverable_double": "other",
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
    if where == "mexican" and not st["mexican"]["tiles"] and on("mexican-from-ten"):
        return TOP  # (planted bug 1: TRAIN-5 opens it with the engine's number)
    return int(train(st, where)["end"])


def laid(st: State, number: int) -> int:
    """Tiles bearing `number` on the table, the engine included."""
    count = int(st["engine"] == number)
    for where in [*range(seats(st)), "mexican"]:
        count += sum(number in ends(t) for t in train(st, where)["tiles"])
    return count


def binds(st: State, where: Any) -> bool:
    """House rule: a double of an earlier turn binds while the boneyard holds tiles and
    some tile of its number is off the table (released once its eleven tiles are out)."""
    return (where not in st["turn_doubles"] and bool(st["boneyard"])
            and laid(st, end_of(st, where)) < TOP + 1)


def duty(st: State) -> Any:
    """The open double of an earlier turn the mover must cover: the oldest (DBL-7) that
    binds (house rule)."""
    for where in st["open_doubles"]:
        if binds(st, where):
            return where
    return None


def in_hand(st: State) -> list[str]:
    """The tiles the mover may lay: the drawn one alone after a draw (TURN-3)."""
    return [st["drawn"]] if st["drawn"] is not None else list(st["hands"][st["seat"]])


def open_trains(st: State) -> list[Any]:
    me = st["seat"]
    mine = st["trains"][me]
    if not mine["tiles"] and not mine["marker"]:
        return [me]  # house rule: start your own train first, unless you are stuck
    return [me, "mexican", *(s for s in range(seats(st))
                             if s != me and st["trains"][s]["marker"])]  # TRAIN-4


def targets(st: State) -> list[Any]:
    owed = duty(st)
    if owed is not None:
        return [owed]  # DBL-6: cover it first, wherever it lies (TRAIN-6)
    out = open_trains(st)
    if st["phase"] == "follow":
        out += [w for w in st["turn_doubles"] if w not in out]  # DBL-2, TRAIN-6
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

def next_turn(st: State, laid_tile: bool = True) -> None:
    me = st["seat"]
    if laid_tile or not on("first-turn-kept"):
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
    next_turn(st, laid_tile=False)
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
        return Refused(f"{name(a, b)} is no tile of the double-10 set", "SET-1")
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
    mine = st["trains"][st["seat"]]
    if where not in ("mexican", st["seat"]) and not train(st, where)["marker"]:
        return Refused(f"seat {where}'s train carries no marker", "TRAIN-4")
    if not mine["tiles"] and not mine["marker"]:
        return Refused("house rule: start your own train first (unless you are stuck)",
                       None)
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
        raise Error("refused-setup", f"tenwheeler is for 2 to 6 players, not {players}",
                    "DEAL-7")
    if not 1 <= rnd <= ROUNDS:
        raise Error("bad-request", f"a double-10 match has rounds 1 to {ROUNDS}")
    engine = TOP + 1 - rnd  # ENG-1
    rest = [t for t in full_set() if t != name(engine, engine)]  # ENG-2: set aside
    if sorted(map(str, order)) != sorted(rest):
        raise Error("bad-request", "order is not the double-10 set without the engine")
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
    if st["phase"] != "over" or st["round"] < ROUNDS:
        return []  # MATCH-1: the match goes on
    if on("text-totals"):  # (planted bug 2: totals compared as text)
        low_text = min(str(total) for total in st["scores"])
        return [s for s, total in enumerate(st["scores"]) if str(total) == low_text]
    low = min(st["scores"])  # MATCH-2, MATCH-4: a tie is shared
    return [s for s, total in enumerate(st["scores"]) if total == low]


def table(req: dict[str, Any]) -> State:
    st = req.get("state")
    if not isinstance(st, dict) or not isinstance(st.get("hands"), list):
        raise Error("bad-request", f"{req.get('type')} needs a state")
    if len(st["hands"]) not in SIZES:
        raise Error("refused-setup",
                    f"tenwheeler is for 2 to 6 players, not {len(st['hands'])}", "DEAL-7")
    if st.get("phase") not in ("start", "follow", "over"):
        raise Error("unsupported", f"no {st.get('phase')!r} phase in this game")
    return copy.deepcopy(st)


def answer(req: dict[str, Any]) -> dict[str, Any]:
    kind = req.get("type")
    if kind == "hello":
        if req.get("protocol") != 1:
            raise Error("protocol-version", "tenwheeler speaks protocol 1")
        rules = {"name": "tenwheeler", "options": OPTIONS,
                 "hand_sizes": {str(n): size for n, size in SIZES.items()}}
        return {"protocol": 1, "name": "tenwheeler", "version": "1.0", "rules": rules}
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
