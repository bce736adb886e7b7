#!/usr/bin/env python3
"""Switchback: Mexican Train on a double-9 set, as a railway club plays it at its
monthly meet (a switchback climbs a slope in zigzags), written from docs/protocol.md and
docs/implementers-guide.md alone (it imports nothing from mtrain), to try the suite as its
author would (its skeleton, the table and the server loop, taken from hump_engine.py, an
engine written the same way). Its house rules and planted bugs were written down here
before the suite ran on it.

Rules it plays (its rule-set file: tests/examples/switchback-rules.yaml; its hello
declares the same):
- a double-9 set (55 tiles, 10 rounds from [9-9] down to [0-0]); the engine is set aside
  before the deal (`set-aside`), and round r starts at seat (r - 1) mod players
  (`rotate`);
- HOUSE RULE, a hand table of its own: 2 players 13, 3 players 12, 4 players 10,
  5 players 9, 6 players 8;
- one tile a turn from the start (`single`); anyone may open the Mexican Train
  (`anyone`); nobody must start their own train first (`not-required`);
- open doubles (`open`): the tile after a double goes anywhere the player may play
  (`anywhere`); a double nobody can cover any more (all 10 tiles of its number on the
  table) is released (`released`);
- HOUSE RULE no value describes (`double_order: other`): of several open doubles of
  earlier turns, the one with the most pips is covered first ("the heavy wagon goes
  first"), whenever it was laid;
- a marker comes off when its owner plays on their own train (`owner-plays-own`); a
  player who cannot play draws one tile (`draw-one`); with the boneyard empty, a full
  round of passes blocks the round (`full-round-of-passes`);
- penalty scoring (`penalty`); HOUSE RULE no value describes (`blank_values: other`): a
  blank end counts the number of the round's engine, so in round 1 (engine [9-9]) the
  [0-0] costs 18 and the [5-0] 14, and in the last round (engine [0-0]) a blank is 0;
- equal match totals share the win (`shared`); a full match of 10 rounds (`full`).

Planted bugs (what the suite must find), each with the clause it breaks:
1. "last-double": a player whose last tile is a double is asked to follow it up, as
   after any double, instead of going out: the double check comes before the empty-hand
   check (END-1);
2. "mexican-blind": whether every tile of a double's number is on the table is counted
   over the personal trains only, forgetting the Mexican Train, so a double whose last
   tiles went on the Mexican Train is never released (DBL-9);
3. "follow-pass": a player who cannot follow up their own double passes at once, marker
   up, without drawing first (the draw is offered only at the start of a turn) (DBL-5).

Found by the runs, in the suite, not here (each fixed where it belongs, with a test): with
the bugs off, 1,111 results ran and none failed (91 not applicable: 45 its own table, 34
blank values, 9 doubles order, 3 tables it never reaches); fuzz found nothing in 60 games.
With bug 2 alone, 4 of its 49 failures were charged to the follow-up rule (DBL-2) or the
drawn tile (TURN-3), and a fuzz finding to the stand-in's order (DBL-7), where the play
withheld is allowed only because a double of an earlier turn is dead (now DBL-9, 49 of
49); identify listed a chain-phase table it answers (generated-first-turn-004, which
conform never runs under one tile a turn) as a failure conform would show.

Its refusals name a clause where one says why (none for its house rules). All three
bugs are on by default; `--fixed 1,2,3` switches them off (or some of them).

    mtrain conform --impl "python tests/examples/switchback_engine.py --fixed 1,2,3" \\
        --rules tests/examples/switchback-rules.yaml
"""

from __future__ import annotations

import copy
import json
import sys
from typing import Any

TOP = 9
ROUNDS = TOP + 1
SIZES = {2: 13, 3: 12, 4: 10, 5: 9, 6: 8}  # house rule: a table of its own
BUGS = {"1": "last-double", "2": "mexican-blind", "3": "follow-pass"}
FIXED: set[str] = set()  # numbers of the planted bugs switched off (--fixed)

RULES = {
    "name": "switchback",
    "options": {
        "tile_set": "double-9", "hand_sizes": "custom", "engine_procedure": "set-aside",
        "starting_seat": "rotate", "first_turn": "single", "mexican_first_turn": "anyone",
        "own_train_first": "not-required", "doubles": "open", "follow_up": "anywhere",
        "double_order": "other", "uncoverable_double": "released",
        "marker_removal": "owner-plays-own", "draw_rule": "draw-one",
        "blocked_round": "full-round-of-passes", "scoring": "penalty",
        "blank_values": "other", "tie_rule": "shared", "match_length": "full",
    },
    "hand_sizes": {str(k): v for k, v in SIZES.items()},
}

State = dict[str, Any]
Tile = tuple[int, int]
Ref = int | str  # a seat's train, or "mexican"


def bug(name: str) -> bool:
    return any(BUGS[n] == name for n in BUGS if n not in FIXED)


class Failure(Exception):
    """A request with no answer: an error of the given kind."""

    def __init__(self, kind: str, message: str, clause: str | None = None) -> None:
        super().__init__(message)
        self.kind, self.message, self.clause = kind, message, clause


class Refusal(Exception):
    def __init__(self, reason: str, clause: str | None) -> None:
        super().__init__(reason)
        self.reason, self.clause = reason, clause


# --- tiles -----------------------------------------------------------------------------

def tile_of(text: Any) -> Tile:
    if not isinstance(text, str) or text.count("-") != 1:
        raise Failure("bad-request", f"not a tile: {text!r}")
    a, b = text.split("-")
    if not (a.isdigit() and b.isdigit()):
        raise Failure("bad-request", f"not a tile: {text!r}")
    return int(a), int(b)


def in_set(t: Tile) -> bool:
    return 0 <= t[0] <= TOP and 0 <= t[1] <= TOP


def held(t: Tile) -> str:
    """A tile as hands and the boneyard write it: high end first."""
    return f"{max(t)}-{min(t)}"


def sort_hand(hand: list[str]) -> list[str]:
    return sorted(hand, key=lambda s: (max(tile_of(s)), min(tile_of(s))), reverse=True)


def value(t: Tile, engine: int) -> int:
    # house rule (blank_values: other): a blank end counts the round's engine number
    return sum(engine if end == 0 else end for end in t)


def whole_set() -> list[str]:
    return [f"{a}-{b}" for a in range(TOP, -1, -1) for b in range(a, -1, -1)]


# --- the table -------------------------------------------------------------------------

class Table:
    """A request's state, with the questions the rules ask of it."""

    def __init__(self, state: State) -> None:
        self.s = copy.deepcopy(state)

    @property
    def n(self) -> int:
        return len(self.s["hands"])

    @property
    def me(self) -> int:
        return int(self.s["seat"])

    def train(self, ref: Ref) -> dict[str, Any]:
        train: dict[str, Any] = self.s["mexican"] if ref == "mexican" else self.s["trains"][ref]
        return train

    def refs(self) -> list[Ref]:
        return [*range(self.n), "mexican"]

    def ref_of(self, raw: Any) -> Ref:
        if raw == "mexican":
            return "mexican"
        if isinstance(raw, int) and not isinstance(raw, bool) and 0 <= raw < self.n:
            return raw
        raise Refusal(f"there is no train {raw!r} at this table", "TRAIN-1")

    def on_table(self, number: int) -> int:
        """How many tiles bearing `number` are laid (the engine in the centre too)."""
        count = 1 if self.s["engine"] == number else 0
        refs = [r for r in self.refs() if r != "mexican" or not bug("mexican-blind")]
        for ref in refs:
            count += sum(number in tile_of(x) for x in self.train(ref)["tiles"])
        return count

    def released(self, ref: Ref) -> bool:
        # DBL-9: a double whose every tile is on the table binds nobody
        return self.on_table(int(self.train(ref)["end"])) >= TOP + 1

    def binding(self) -> Ref | None:
        """The open double of an earlier turn that must be covered first, if any."""
        earlier: list[Ref] = [r for r in self.s["open_doubles"]
                   if r not in self.s["turn_doubles"] and not self.released(r)]
        if not earlier:
            return None
        # house rule (double_order: other): the heaviest double first, whenever laid
        return max(earlier, key=lambda r: int(self.train(r)["end"]))

    def targets(self) -> list[Ref]:
        """The trains the player to move may lay on now."""
        duty = self.binding()
        if duty is not None:
            return [duty]  # DBL-6: only by covering it
        out: list[Ref] = [self.me, "mexican"]  # TRAIN-4: one's own, the Mexican Train
        for seat in range(self.n):
            if seat != self.me and (self.s["trains"][seat]["marker"]
                                    or seat in self.s["open_doubles"]):
                out.append(seat)  # TRAIN-4, TRAIN-6
        return out

    def plays(self) -> list[tuple[str, Ref]]:
        hand = self.s["hands"][self.me]
        drawn = self.s["drawn"]
        tiles = [drawn] if drawn is not None else hand  # TURN-3
        out = []
        for text in tiles:
            t = tile_of(text)
            for ref in self.targets():
                if int(self.train(ref)["end"]) in t:  # TRAIN-2
                    out.append((text, ref))
        return out

    def may_draw(self) -> bool:
        if bug("follow-pass") and self.s["phase"] != "start":
            return False
        return self.s["drawn"] is None and bool(self.s["boneyard"])  # TURN-2, DBL-5

    def legal(self) -> list[dict[str, Any]]:
        if self.s["phase"] == "over":
            return []
        plays = self.plays()
        if plays:
            return [{"type": "play", "tile": t, "train": r} for t, r in plays]
        return [{"type": "draw"}] if self.may_draw() else [{"type": "pass"}]

    # --- changes ---

    def end_turn(self) -> None:
        me = self.me
        self.s["turn_doubles"] = []
        self.s["first_turns"] = [x for x in self.s["first_turns"] if x != me]  # FIRST-6
        self.s["seat"] = (me + 1) % self.n  # SEAT-1
        self.s["phase"] = "start"
        self.s["drawn"] = None

    def finish(self, winner: int | None) -> None:
        round_scores = scores_of(self.s["hands"], winner, int(self.s["engine"]))
        self.s["phase"] = "over"
        self.s["result"] = {"end": "domino" if winner is not None else "blocked",
                            "winner": winner, "scores": round_scores}
        self.s["scores"] = [a + b for a, b in zip(self.s["scores"], round_scores, strict=True)]
        if winner is not None:
            self.s["outs"][winner] += 1

    def lay(self, text: str, ref: Ref) -> None:
        me = self.me
        t = tile_of(text)
        self.s["hands"][me].remove(text)
        train = self.train(ref)
        near = int(train["end"])
        far = t[1] if t[0] == near else t[0]
        train["tiles"].append(f"{near}-{far}")
        train["end"] = far
        covers = ref in self.s["open_doubles"]
        if covers:  # TRAIN-3: one tile covers it
            self.s["open_doubles"].remove(ref)
            if ref in self.s["turn_doubles"]:
                self.s["turn_doubles"].remove(ref)
        if ref == me:
            train["marker"] = False  # MARK-3
        self.s["passes"] = 0
        self.s["drawn"] = None
        double = t[0] == t[1]
        if double:
            self.s["open_doubles"].append(ref)  # TRAIN-3: it stays open until covered
        if double and (self.s["hands"][me] or bug("last-double")):
            self.s["phase"] = "follow"  # DBL-1: another tile
            self.s["turn_doubles"].append(ref)
        elif not self.s["hands"][me]:
            self.s["turn_doubles"] = []
            self.s["first_turns"] = [x for x in self.s["first_turns"] if x != me]
            self.finish(me)  # END-1, a double too
        else:
            self.end_turn()  # TURN-6

    def draw(self) -> None:
        text = self.s["boneyard"].pop(0)
        self.s["hands"][self.me] = sort_hand([*self.s["hands"][self.me], text])
        self.s["drawn"] = text

    def pass_turn(self) -> None:
        self.s["trains"][self.me]["marker"] = True  # TURN-4
        self.s["passes"] = self.s["passes"] + 1 if not self.s["boneyard"] else 0
        self.end_turn()
        if not self.s["boneyard"] and self.s["passes"] >= self.n:
            self.finish(None)  # END-3

    def why_not(self, action: dict[str, Any]) -> Refusal:
        kind = action.get("type")
        plays = self.plays()
        if kind in ("draw", "pass"):
            if plays:
                return Refusal("a tile can be played", "TURN-1")
            if kind == "draw":
                if not self.s["boneyard"]:
                    return Refusal("the boneyard is empty", "TURN-4")
                return Refusal("one draw a turn", "TURN-2")
            return Refusal("draw first: the boneyard holds tiles", "TURN-2")
        if kind == "end-chain":
            return Refusal("every turn is a one-tile turn here", "FIRST-7")
        t = tile_of(action.get("tile"))
        if not in_set(t):
            return Refusal(f"{held(t)} is not a tile of the double-9 set", "SET-1")
        ref = self.ref_of(action.get("train"))
        if held(t) not in self.s["hands"][self.me]:
            return Refusal(f"seat {self.me} does not hold {held(t)}", "TURN-7")
        if self.s["drawn"] is not None and held(t) != self.s["drawn"]:
            return Refusal(f"only the drawn tile {self.s['drawn']} may be played", "TURN-3")
        end = int(self.train(ref)["end"])
        if end not in t:
            return Refusal(f"{held(t)} does not match the open end {end}", "TRAIN-2")
        duty = self.binding()
        if duty is not None and ref != duty:
            if ref in self.s["open_doubles"]:  # house rule: the heaviest double first
                return Refusal(f"the heavier open double on train {duty} comes first", None)
            return Refusal(f"the open double on train {duty} must be covered first", "DBL-6")
        if ref != self.me and ref != "mexican" and not self.s["trains"][ref]["marker"]:
            return Refusal(f"seat {ref}'s train carries no marker", "TRAIN-4")
        return Refusal("not allowed here", None)

    def apply(self, action: dict[str, Any]) -> None:
        if self.s["phase"] == "over":
            raise Refusal("the round is over", "END-1")
        kind = action.get("type")
        if kind == "play":
            text, raw = held(tile_of(action.get("tile"))), action.get("train")
            ref = self.ref_of(raw)
            if (text, ref) in self.plays():
                self.lay(text, ref)
                return
        elif {"type": kind} in self.legal():
            self.draw() if kind == "draw" else self.pass_turn()
            return
        raise self.why_not(action)


def scores_of(hands: list[list[str]], winner: int | None, engine: int) -> list[int]:
    # SCORE-5: what each hand holds; the player who went out holds nothing
    return [0 if seat == winner else sum(value(tile_of(x), engine) for x in hand)
            for seat, hand in enumerate(hands)]


# --- requests --------------------------------------------------------------------------

def deal(req: dict[str, Any]) -> State:
    players, rnd, order = req.get("players"), req.get("round"), req.get("order")
    if not isinstance(players, int) or not isinstance(rnd, int) or not isinstance(order, list):
        raise Failure("bad-request", "deal needs players, round and order")
    if players not in SIZES:
        listed = ", ".join(map(str, SIZES))
        raise Failure("refused-setup", f"switchback deals to {listed} players, not {players}",
                      "DEAL-7")
    if not 1 <= rnd <= ROUNDS:
        raise Failure("bad-request", f"a double-9 match has rounds 1 to {ROUNDS}")
    engine = TOP - (rnd - 1)  # ENG-1
    pool = [x for x in whole_set() if x != f"{engine}-{engine}"]  # ENG-2: set aside
    if sorted(map(str, order)) != sorted(pool):
        raise Failure("bad-request", "order is not the double-9 set without the engine")
    size = SIZES[players]
    hands = [sort_hand(order[i * size:(i + 1) * size]) for i in range(players)]
    first = (rnd - 1) % players  # SEAT-3
    return {
        "round": rnd, "engine": engine, "engine_placed": True, "phase": "start",
        "seat": first, "starter": first, "hands": hands,
        "boneyard": list(order[players * size:]),
        "trains": [{"tiles": [], "end": engine, "marker": False} for _ in range(players)],
        "mexican": {"tiles": [], "end": engine}, "open_doubles": [], "turn_doubles": [],
        "drawn": None, "first_turns": list(range(players)), "passes": 0,
        "scores": [0] * players, "outs": [0] * players, "result": None,
    }


def winners(state: State) -> list[int]:
    if state["phase"] != "over" or state["round"] < ROUNDS:
        return []  # MATCH-1: the match goes on
    totals = state["scores"]
    low = min(totals)  # MATCH-2, MATCH-4: a tie is shared
    return [s for s, x in enumerate(totals) if x == low]


def answer(req: dict[str, Any]) -> dict[str, Any]:
    kind = req.get("type")
    if kind == "hello":
        if req.get("protocol") != 1:
            raise Failure("protocol-version", "switchback speaks protocol 1")
        return {"protocol": 1, "name": "switchback", "version": "1.0", "rules": RULES}
    if kind == "shutdown":
        return {}
    if kind == "deal":
        return {"state": deal(req)}
    state = req.get("state")
    if not isinstance(state, dict) or not isinstance(state.get("hands"), list):
        raise Failure("bad-request", f"{kind} needs a state")
    if len(state["hands"]) not in SIZES:
        raise Failure("refused-setup", f"switchback has no table of {len(state['hands'])}",
                      "DEAL-7")
    if kind == "legal":
        return {"actions": Table(state).legal()}
    if kind == "apply":
        table = Table(state)
        action = req.get("action")
        if not isinstance(action, dict):
            raise Failure("bad-request", "apply needs an action")
        try:
            table.apply(action)
        except Refusal as r:
            return {"refused": {"reason": r.reason, "clause": r.clause}}
        return {"state": table.s}
    if kind == "score":
        winner = req["winner"] if "winner" in req else (state.get("result") or {}).get("winner")
        return {"scores": scores_of(state["hands"], winner, int(state["engine"]))}
    if kind == "winners":
        return {"winners": winners(state)}
    raise Failure("bad-request", f"unknown request type {kind!r}")


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
        except Failure as f:
            err: dict[str, Any] = {"kind": f.kind, "message": f.message}
            if f.kind == "refused-setup":
                err["clause"] = f.clause
            if f.kind == "protocol-version":
                err["supported"] = [1]
            out = {"id": rid, "ok": False, "error": err}
        except Exception as e:  # a bug of ours: say so, and keep serving
            out = {"id": rid, "ok": False, "error": {"kind": "internal", "message": repr(e)}}
        sys.stdout.write(json.dumps(out, separators=(",", ":")) + "\n")
        sys.stdout.flush()
        print(f"switchback: {kind} -> {'ok' if out['ok'] else 'error'}", file=sys.stderr)
        if kind == "shutdown":
            break


if __name__ == "__main__":
    if sys.argv[1:2] == ["--fixed"]:
        FIXED.update(sys.argv[2].split(","))
    serve()
