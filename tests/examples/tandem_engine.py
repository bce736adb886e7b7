#!/usr/bin/env python3
"""Tandem: Mexican Train for two, as a couple plays it across the kitchen table, written
from docs/protocol.md and docs/implementers-guide.md alone (it imports nothing from
mtrain), to try the suite as its author would. Its house rules and planted bugs were
written down here before the suite ran on it.

Rules it plays (its rule-set file: tests/examples/tandem-rules.yaml; its hello declares
the same):
- HOUSE RULE, a table of its own for exactly two players: a double-12 set, 17 tiles each;
  any other number of players is refused (DEAL-7);
- the engine is set aside before the deal (`set-aside`); the start alternates, round r
  starting at seat (r - 1) mod 2 (`rotate`); one tile a turn from the start (`single`);
  anyone may open the Mexican Train at any time (`anyone`, `not-required`);
- HOUSE RULE no value describes (`doubles: other`): a double does not ask its layer for
  another tile. Laying it ends the turn like any other tile; it stays open, and the next
  player must cover it before anything else (and if they cannot, even after drawing,
  they put their marker up and the duty passes back). So no table of this engine is
  ever in the follow-up phase, and no double is ever "of this turn"; a double that is
  the last tile in hand ends the round, open;
- open doubles of earlier turns are covered oldest first (`oldest-first`), and a double
  nobody can cover any more (all 13 tiles of its number on the table) is released
  (`released`); as no follow-up exists, `follow_up` decides nothing (`anywhere` is
  written because the file needs a value);
- a marker comes off when its owner plays on their own train (`owner-plays-own`); a
  player who cannot play draws one tile (`draw-one`), and plays it or passes;
- with the boneyard empty, two passes in a row end the round blocked
  (`full-round-of-passes`);
- penalty scoring (`penalty`), each blank end counting 25 (`blank-25`: [0-0] is 50,
  [5-0] is 30); equal totals share the win (`shared`); a full match of 13 rounds.

Planted bugs (what the suite must find), each with the clause it breaks:
1. "redraw": a player whose drawn tile cannot be played is offered `draw` again, not
   `pass`, while the boneyard holds tiles (TURN-2);
2. "mexican-escape": a player who must cover an open double may instead play on the
   Mexican Train (DBL-6);
3. "blank-pair": the double blank is counted 25, as one blank end, not 50 (SCORE-2).

Found by the runs, in the suite, not here (each fixed where it belongs, with a test): 75
of 941 results failed with the bugs off, follow-up tables from play judged under the
stand-in `open` though no such table exists under this rule (the reference now reads
`doubles` on every table of that phase); fuzz found bug 3 on a step the house rule decides
but could not shrink it ("did not show again"); a duty ignored (bug 2) was charged to the
release rule on every open-double situation (DBL-9), now only where a release is near.
Bug 1 is draw-until-playable's behaviour: identify reads it so (`likely`, never sure).

Its refusals name a clause where one says why. All three bugs are on by default;
`--fixed 1,2,3` switches them off (or some of them).

    mtrain conform --impl "python tests/examples/tandem_engine.py --fixed 1,2,3" \\
        --rules tests/examples/tandem-rules.yaml
"""

from __future__ import annotations

import copy
import json
import sys
from typing import Any

TOP = 12
ROUNDS = TOP + 1
HAND = 17  # house rule: two players, 17 tiles each
PLAYERS = 2
BUGS = {"1": "redraw", "2": "mexican-escape", "3": "blank-pair"}
FIXED: set[str] = set()  # the planted bugs switched off (--fixed)

OPTIONS = {
    "tile_set": "double-12", "hand_sizes": "custom", "engine_procedure": "set-aside",
    "starting_seat": "rotate", "first_turn": "single", "mexican_first_turn": "anyone",
    "own_train_first": "not-required", "doubles": "other", "follow_up": "anywhere",
    "double_order": "oldest-first", "uncoverable_double": "released",
    "marker_removal": "owner-plays-own", "draw_rule": "draw-one",
    "blocked_round": "full-round-of-passes", "scoring": "penalty",
    "blank_values": "blank-25", "tie_rule": "shared", "match_length": "full",
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


# --- tiles: a tile is a pair of ends; hands write it high end first -----------------

def ends(text: Any) -> tuple[int, int]:
    parts = text.split("-") if isinstance(text, str) else []
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        raise Error("bad-request", f"not a tile: {text!r}")
    return int(parts[0]), int(parts[1])


def name(a: int, b: int) -> str:
    return f"{max(a, b)}-{min(a, b)}"


def worth(text: str) -> int:
    a, b = ends(text)
    if (a, b) == (0, 0) and on("blank-pair"):
        return 25
    return sum(25 if x == 0 else x for x in (a, b))  # SCORE-2: each blank end is 25


def in_order(hand: list[str]) -> list[str]:
    return sorted(hand, key=lambda t: sorted(ends(t), reverse=True), reverse=True)


def full_set() -> list[str]:
    return [name(a, b) for a in range(TOP, -1, -1) for b in range(a, -1, -1)]


# --- questions about a state ----------------------------------------------------------

def train(st: State, where: Any) -> dict[str, Any]:
    found: dict[str, Any] = st["mexican"] if where == "mexican" else st["trains"][where]
    return found


def laid(st: State, number: int) -> int:
    """Tiles bearing `number` on the table, the engine included."""
    count = int(st["engine"] == number)
    for where in [*range(PLAYERS), "mexican"]:
        count += sum(number in ends(t) for t in train(st, where)["tiles"])
    return count


def duty(st: State) -> Any:
    """The open double the player to move must cover, if any: the oldest one that some
    tile can still cover (house rule: every open double binds, its layer's turn being
    over as soon as it is laid; DBL-7 oldest first, DBL-9 released when all are out)."""
    for where in st["open_doubles"]:
        if laid(st, int(train(st, where)["end"])) < TOP + 1:
            return where
    return None


def targets(st: State) -> list[Any]:
    me = st["seat"]
    owed = duty(st)
    if owed is not None:  # DBL-6: cover it first
        return [owed, "mexican"] if on("mexican-escape") and owed != "mexican" else [owed]
    out: list[Any] = [me, "mexican"]  # TRAIN-4: one's own train, the Mexican Train
    out += [s for s in range(PLAYERS) if s != me and st["trains"][s]["marker"]]
    return out


def plays(st: State) -> list[tuple[str, Any]]:
    tiles = [st["drawn"]] if st["drawn"] is not None else st["hands"][st["seat"]]  # TURN-3
    return [(t, w) for t in tiles for w in targets(st)
            if int(train(st, w)["end"]) in ends(t)]  # TRAIN-2


def legal(st: State) -> list[Action]:
    if st["phase"] == "over":
        return []
    found = plays(st)
    if found:
        return [{"type": "play", "tile": t, "train": w} for t, w in found]  # TURN-1
    if st["boneyard"] and (st["drawn"] is None or on("redraw")):
        return [{"type": "draw"}]  # TURN-2
    return [{"type": "pass"}]  # TURN-4


# --- changes --------------------------------------------------------------------------

def next_turn(st: State) -> None:
    me = st["seat"]
    st["first_turns"] = [s for s in st["first_turns"] if s != me]
    st["seat"], st["phase"], st["drawn"], st["turn_doubles"] = (me + 1) % PLAYERS, "start", None, []


def score(hands: list[list[str]], winner: int | None) -> list[int]:
    return [0 if s == winner else sum(worth(t) for t in hand)  # SCORE-5
            for s, hand in enumerate(hands)]


def end_round(st: State, winner: int | None) -> None:
    got = score(st["hands"], winner)
    st["phase"] = "over"
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
    if where == me:
        line["marker"] = False  # MARK-3
    st["passes"], st["drawn"] = 0, None
    if a == b:
        st["open_doubles"].append(where)  # house rule: it stays open for the next player
    if not st["hands"][me]:
        st["turn_doubles"] = []
        st["first_turns"] = [s for s in st["first_turns"] if s != me]
        end_round(st, me)  # END-1, on a double too
    else:
        next_turn(st)  # house rule: a double ends the turn like any tile (TURN-6)


def draw(st: State) -> None:
    tile = st["boneyard"].pop(0)  # TURN-2: from the front
    st["hands"][st["seat"]] = in_order([*st["hands"][st["seat"]], tile])
    st["drawn"] = tile


def pass_turn(st: State) -> None:
    st["trains"][st["seat"]]["marker"] = True  # TURN-4, MARK-1
    st["passes"] = 0 if st["boneyard"] else st["passes"] + 1
    next_turn(st)
    if not st["boneyard"] and st["passes"] >= PLAYERS:
        end_round(st, None)  # END-3: both passed, nothing to draw


def refusal(st: State, act: Action) -> Refused:
    kind = act.get("type")
    found = plays(st)
    if kind in ("draw", "pass"):
        if found:
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
                               or not 0 <= where < PLAYERS):
        return Refused(f"no train {where!r} at a table of two", "TRAIN-1")
    tile = name(a, b)
    if tile not in st["hands"][st["seat"]]:
        return Refused(f"seat {st['seat']} does not hold {tile}", "TURN-7")
    if st["drawn"] is not None and tile != st["drawn"]:
        return Refused(f"only the drawn tile {st['drawn']} may be played", "TURN-3")
    end = int(train(st, where)["end"])
    if end not in (a, b):
        return Refused(f"{tile} does not match the open end {end}", "TRAIN-2")
    owed = duty(st)
    if owed is not None and where != owed:
        clause = "DBL-7" if where in st["open_doubles"] else "DBL-6"
        return Refused(f"the double on train {owed} must be covered first", clause)
    return Refused(f"seat {where}'s train carries no marker", "TRAIN-4")


def apply(st: State, act: Action) -> State:
    if st["phase"] == "over":
        raise Refused("the round is over", "END-1")
    kind = act.get("type")
    if kind == "play":
        tile, where = act.get("tile"), act.get("train")
        a, b = ends(tile)
        if (name(a, b), where) in plays(st):
            lay(st, name(a, b), where)
            return st
    elif {"type": kind} in legal(st):
        (draw if kind == "draw" else pass_turn)(st)
        return st
    raise refusal(st, act)


# --- requests -------------------------------------------------------------------------

def deal(req: dict[str, Any]) -> State:
    players, rnd, order = req.get("players"), req.get("round"), req.get("order")
    if not isinstance(players, int) or not isinstance(rnd, int) or not isinstance(order, list):
        raise Error("bad-request", "deal needs players, round and order")
    if players != PLAYERS:
        raise Error("refused-setup", f"tandem is a game for two, not {players}", "DEAL-7")
    if not 1 <= rnd <= ROUNDS:
        raise Error("bad-request", f"a double-12 match has rounds 1 to {ROUNDS}")
    engine = TOP + 1 - rnd  # ENG-1
    rest = [t for t in full_set() if t != name(engine, engine)]  # ENG-2: set aside
    if sorted(map(str, order)) != sorted(rest):
        raise Error("bad-request", "order is not the double-12 set without the engine")
    first = (rnd - 1) % PLAYERS  # SEAT-3
    return {
        "round": rnd, "engine": engine, "engine_placed": True, "phase": "start",
        "seat": first, "starter": first,
        "hands": [in_order(order[s * HAND:(s + 1) * HAND]) for s in range(PLAYERS)],
        "boneyard": list(order[PLAYERS * HAND:]),
        "trains": [{"tiles": [], "end": engine, "marker": False} for _ in range(PLAYERS)],
        "mexican": {"tiles": [], "end": engine}, "open_doubles": [], "turn_doubles": [],
        "drawn": None, "first_turns": list(range(PLAYERS)), "passes": 0,
        "scores": [0] * PLAYERS, "outs": [0] * PLAYERS, "result": None,
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
    if len(st["hands"]) != PLAYERS:
        raise Error("refused-setup", "tandem is a game for two", "DEAL-7")
    return copy.deepcopy(st)


def answer(req: dict[str, Any]) -> dict[str, Any]:
    kind = req.get("type")
    if kind == "hello":
        if req.get("protocol") != 1:
            raise Error("protocol-version", "tandem speaks protocol 1")
        rules = {"name": "tandem", "options": OPTIONS, "hand_sizes": {str(PLAYERS): HAND}}
        return {"protocol": 1, "name": "tandem", "version": "1.0", "rules": rules}
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
