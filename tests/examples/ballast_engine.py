#!/usr/bin/env python3
"""Ballast: Mexican Train on a double-9 set for two to ten, as a family plays it on a
camping trip (the small box fits in a rucksack), written from docs/protocol.md and
docs/implementers-guide.md alone (it imports nothing from mtrain), to try the suite as its
author would. Its house rules and planted bugs were written down here before the suite
ran on it.

Rules it plays (its rule-set file: tests/examples/ballast-rules.yaml; its hello declares
the same):
- a double-9 set (55 tiles, 10 rounds from [9-9] down to [0-0], `full`); the round's
  engine is set aside before the deal and placed in the centre (`set-aside`);
- HOUSE RULE, a table of its own: 2 players 14 tiles, 3 players 12, 4 players 11,
  5 players 9, 6 players 8, 7 players 7, 8 players 6, 9 and 10 players 5; any other
  number of players is refused (DEAL-7);
- HOUSE RULE no value describes (`starting_seat: other`, "lightest hand leads"): after
  the deal, the player whose hand has the fewest pips takes the first turn of the round
  (the one with the weakest hand gets a head start); of several with as few, the lowest
  seat. No known value starts by the lightest hand: rotate and highest-draw ignore the
  hands, engine-holder and after-engine need a holder (the engine is set aside here), and
  heaviest-in-hand looks for the heaviest tile, the other way round;
- one tile a turn from the start, anyone may open the Mexican Train, nobody must start
  their own train first (`single`, `anyone`, `not-required`);
- open doubles (`open`): the tile after a double goes anywhere the player may play, the
  double included (`anywhere`); a double whose ten tiles are all on the table is
  released (`released`);
- HOUSE RULE no value describes (`double_order: other`, "round the table"): of several
  open doubles laid on earlier turns, the player to move covers first the one lying
  nearest them in playing order: their own train, then the train of the next seat, and
  so on round the table, the Mexican Train last. It is not oldest-first (the age of a
  double does not matter) nor any-open (only one of them may be covered);
- a marker comes off when its owner plays a tile on their own train (`owner-plays-own`);
  a player who cannot play draws one tile (`draw-one`), and plays it or passes, marker
  up; with the boneyard empty, a full round of passes blocks the round
  (`full-round-of-passes`);
- HOUSE RULE no value describes (`scoring: other`, "mercy cap"): penalty scoring at face
  value, the player who went out scoring 0, but no hand costs more than 50 points in a
  round, so that one bad round does not end a child's game; the lowest total wins. It is
  penalty only while every hand is worth 50 or less; positive and penalty-blocked-winner
  are further off;
- equal lowest totals share the win (`shared`).

Wire habits of its own (all allowed by the protocol): a hand is written in the order its
tiles came (the deal's order, then the draws); a tile outside a train is written low end
first ("3-9"); plays are listed train by train, the Mexican Train first; a field of a
request it does not use is ignored.

Planted bugs (what the suite must find), each with the clause it breaks and when:
1. "nine-of-ten" (DBL-9): the count of a double's tiles on the table stops one short: the
   author counted "the nine other tiles of its number" and forgot that the double itself
   is on the table, so a double is released once nine of the ten tiles bearing its
   number are out (one still in a hand or the boneyard), where DBL-9 waits for all ten;
2. "own-double-free" (DBL-6): an open double of an earlier turn lying on the mover's own
   train does not bind the mover (the author thought of the duty as "covering somebody
   else's double"): the mover may play anywhere, where DBL-6 closes every other train to
   them; it still binds every other player;
3. "drawn-home" (TURN-3): a drawn tile is offered only on the player's own train and the
   Mexican Train, never on another player's marked train, where TURN-3 lets it go on any
   train where it would be legal (in an ordinary turn; a double to cover is kept).

Found by the suite, not planted (and fixed): a round ended by going out in a follow-up
kept the doubles of that last turn in `turn_doubles` (INV-OPEN-DOUBLES: "doubles of this
turn in phase over"), in 28 results with the bugs off and in fuzz's first game with a
double laid before going out; conform charged it to DBL-1 (the tile after a double, which
was laid) until the suite charged it to the round's end that ends the turn (END-1).

Its refusals name a clause where one says why (its house rules name none). All three
bugs are on by default; `--fixed 1,2,3` switches them off (or some of them).

    mtrain conform --impl "python tests/examples/ballast_engine.py --fixed 1,2,3" \\
        --rules tests/examples/ballast-rules.yaml
"""

from __future__ import annotations

import copy
import json
import sys
from typing import Any

TOP = 9
ROUNDS = TOP + 1  # the engines [9-9] down to [0-0]
SIZES = {2: 14, 3: 12, 4: 11, 5: 9, 6: 8, 7: 7, 8: 6, 9: 5, 10: 5}
CAP = 50  # the mercy cap (scoring: other)
BUGS = {"1": "nine-of-ten", "2": "own-double-free", "3": "drawn-home"}
FIXED: set[str] = set()

OPTIONS = {
    "tile_set": "double-9", "hand_sizes": "custom", "engine_procedure": "set-aside",
    "starting_seat": "other", "first_turn": "single", "mexican_first_turn": "anyone",
    "own_train_first": "not-required", "doubles": "open", "follow_up": "anywhere",
    "double_order": "other", "uncoverable_double": "released",
    "marker_removal": "owner-plays-own", "draw_rule": "draw-one",
    "blocked_round": "full-round-of-passes", "scoring": "other", "blank_values": "face",
    "tie_rule": "shared", "match_length": "full",
}

Tile = tuple[int, int]  # low end first
MEX = "mexican"


def bug(name: str) -> bool:
    return any(n == name and k not in FIXED for k, n in BUGS.items())


class Problem(Exception):
    def __init__(self, kind: str, message: str, clause: str | None = None) -> None:
        super().__init__(message)
        self.kind, self.message, self.clause = kind, message, clause


class Refusal(Exception):
    def __init__(self, reason: str, clause: str | None) -> None:
        super().__init__(reason)
        self.reason, self.clause = reason, clause


def parse(text: Any) -> Tile:
    if not isinstance(text, str) or text.count("-") != 1:
        raise Problem("bad-request", f"not a tile: {text!r}")
    a, b = text.split("-")
    if not (a.isdigit() and b.isdigit()):
        raise Problem("bad-request", f"not a tile: {text!r}")
    x, y = int(a), int(b)
    return (min(x, y), max(x, y))


def word(t: Tile) -> str:
    return f"{t[0]}-{t[1]}"


class Table:
    """One round as the family's app keeps it: tiles as pairs, trains as lists of
    (near, far) pairs, seat trains by number and the Mexican Train by name."""

    def __init__(self, st: dict[str, Any]) -> None:
        self.raw = copy.deepcopy(st)
        self.n = len(st["hands"])
        self.engine: int = st["engine"]
        self.hands: list[list[Tile]] = [[parse(t) for t in h] for h in st["hands"]]
        self.bone: list[Tile] = [parse(t) for t in st["boneyard"]]
        self.lines: dict[Any, list[tuple[int, int]]] = {}
        self.marks: dict[int, bool] = {}
        for s, tr in enumerate(st["trains"]):
            self.lines[s] = [self._near_far(t) for t in tr["tiles"]]
            self.marks[s] = bool(tr["marker"])
        self.lines[MEX] = [self._near_far(t) for t in st["mexican"]["tiles"]]
        self.open: list[Any] = list(st["open_doubles"])
        self.turn: list[Any] = list(st["turn_doubles"])
        self.drawn: Tile | None = None if st["drawn"] is None else parse(st["drawn"])
        self.seat: int = st["seat"]
        self.phase: str = st["phase"]
        self.firsts: list[int] = sorted(st["first_turns"])
        self.passes: int = st["passes"]
        self.totals: list[int] = list(st["scores"])
        self.outs: list[int] = list(st["outs"])
        self.result: Any = st["result"]

    @staticmethod
    def _near_far(text: Any) -> tuple[int, int]:
        a, b = str(text).split("-")
        return (int(a), int(b))

    # -- what the table looks like --------------------------------------------------
    def end(self, where: Any) -> int:
        line = self.lines[where]
        return line[-1][1] if line else self.engine

    def trains(self) -> list[Any]:
        return [*range(self.n), MEX]

    def on_table(self, number: int) -> int:
        """How many tiles bearing `number` lie in the trains and the centre."""
        seen = {(min(a, b), max(a, b)) for line in self.lines.values() for a, b in line}
        seen.add((self.engine, self.engine))
        return sum(1 for t in seen if number in t)

    def released(self, where: Any) -> bool:
        number = self.end(where)
        need = TOP + 1  # DBL-9: every tile bearing the number, the double included
        if bug("nine-of-ten"):
            need = TOP  # planted bug 1: the double itself forgotten
        return self.on_table(number) >= need

    def binding(self) -> list[Any]:
        """The open doubles of earlier turns that oblige the mover (DBL-6, DBL-9)."""
        out = [w for w in self.open if w not in self.turn and not self.released(w)]
        if bug("own-double-free"):
            out = [w for w in out if w != self.seat]  # planted bug 2
        return out

    def nearest(self, doubles: list[Any]) -> Any:
        """HOUSE RULE (double_order: other): the one nearest the mover round the table."""
        def distance(w: Any) -> int:
            return self.n if w == MEX else (w - self.seat) % self.n
        return min(doubles, key=distance)

    def open_trains(self) -> list[Any]:
        """TRAIN-4, MARK-2: one's own, the Mexican Train, marked trains; TRAIN-6: a
        double laid this turn is covered wherever it lies."""
        me = self.seat
        return [w for w in self.trains()
                if w in (me, MEX) or self.marks.get(w, False) or w in self.turn]

    def targets(self) -> tuple[list[Any], str | None]:
        """Where the mover may play now, and the clause that narrows it."""
        duty = self.binding()
        if duty:
            return [self.nearest(duty)], "DBL-6"
        where = self.open_trains()
        if self.drawn is not None and bug("drawn-home"):
            where = [w for w in where if w in (self.seat, MEX) or w in self.turn]
        return where, None

    def plays(self) -> list[tuple[Tile, Any]]:
        where, _ = self.targets()
        tiles = [self.drawn] if self.drawn is not None else self.hands[self.seat]
        out = []
        for w in sorted(where, key=lambda w: -1 if w == MEX else w):
            e = self.end(w)
            for t in tiles:
                if e in t:
                    out.append((t, w))
        return out

    def legal(self) -> list[dict[str, Any]]:
        if self.phase == "over":
            return []
        ps = self.plays()
        if ps:
            return [{"type": "play", "tile": word(t), "train": w} for t, w in ps]
        if self.drawn is None and self.bone:
            return [{"type": "draw"}]
        return [{"type": "pass"}]

    # -- moves ----------------------------------------------------------------------
    def refuse(self, act: dict[str, Any]) -> Refusal:
        kind = act.get("type")
        if self.phase == "over":
            return Refusal("the round is over", "END-1")
        if kind == "end-chain":
            return Refusal("every turn here is one tile", "FIRST-7")
        if kind == "draw":
            if self.plays():
                return Refusal("you can play a tile", "TURN-1")
            if self.drawn is not None:
                return Refusal("you have drawn already this turn", "TURN-2")
            return Refusal("the boneyard is empty", "TURN-4")
        if kind == "pass":
            if self.plays():
                return Refusal("you can play a tile", "TURN-1")
            return Refusal("draw a tile first", "TURN-2")
        tile = parse(act.get("tile"))
        where = act.get("train")
        if max(tile) > TOP:
            return Refusal(f"{word(tile)} is not in a double-9 set", "SET-1")
        if where not in self.lines:
            return Refusal(f"there is no train {where!r}", "TRAIN-1")
        if tile not in self.hands[self.seat]:
            return Refusal(f"{word(tile)} is not in your hand", "TURN-7")
        if self.end(where) not in tile:
            return Refusal(f"{word(tile)} does not fit the open end {self.end(where)}",
                           "TRAIN-2")
        if self.drawn is not None and tile != self.drawn:
            return Refusal(f"play the tile you drew, {word(self.drawn)}", "TURN-3")
        if where not in self.open_trains():
            return Refusal(f"seat {where}'s train is not marked", "TRAIN-4")
        allowed, clause = self.targets()
        if where not in allowed and clause is not None:
            duty = self.binding()
            if where in duty:  # an open double, but not the one to cover first
                return Refusal("cover the open double nearest you first", None)
            return Refusal("an open double must be covered first", clause)
        return Refusal("not allowed here", None)

    def next_turn(self) -> None:
        if self.seat in self.firsts:
            self.firsts.remove(self.seat)
        self.turn = []
        self.drawn = None
        self.phase = "start"
        self.seat = (self.seat + 1) % self.n

    def finish(self, winner: int | None) -> None:
        scores = score(self.hands, winner)
        self.result = {"end": "blocked" if winner is None else "domino", "winner": winner,
                       "scores": scores}
        self.totals = [a + b for a, b in zip(self.totals, scores, strict=True)]
        if winner is not None:
            self.outs[winner] += 1
        self.turn = []  # the turn is over with the round (found by the suite, see above)
        self.phase = "over"

    def lay(self, tile: Tile, where: Any) -> None:
        e = self.end(where)
        self.hands[self.seat].remove(tile)
        far = tile[1] if tile[0] == e else tile[0]
        self.lines[where].append((e, far))
        self.drawn = None
        self.passes = 0
        if where == self.seat:
            self.marks[where] = False  # MARK-3
        if where in self.open:  # TRAIN-3: the double is covered
            self.open.remove(where)
            if where in self.turn:
                self.turn.remove(where)
        double = tile[0] == tile[1]
        if double:
            self.open.append(where)
            self.turn.append(where)
        if not self.hands[self.seat]:
            self.finish(self.seat)  # END-1, even on a double
            return
        if double:
            self.phase = "follow"  # DBL-1
        else:
            self.next_turn()

    def apply(self, act: dict[str, Any]) -> None:
        kind = act.get("type")
        if kind not in ("play", "draw", "pass", "end-chain"):
            raise Problem("bad-request", f"unknown action {kind!r}")
        options = self.legal()
        if kind == "play":
            tile, where = parse(act.get("tile")), act.get("train")
            if {"type": "play", "tile": word(tile), "train": where} not in options:
                raise self.refuse(act)
            self.lay(tile, where)
        elif {"type": kind} not in options:
            raise self.refuse(act)
        elif kind == "draw":
            got = self.bone.pop(0)
            self.hands[self.seat].append(got)
            self.drawn = got
        else:  # pass: TURN-4, MARK-1
            self.marks[self.seat] = True
            if not self.bone:
                self.passes += 1
            self.next_turn()
            if self.passes >= self.n:  # END-3
                self.finish(None)

    def json(self) -> dict[str, Any]:
        out = self.raw
        out.update({
            "phase": self.phase, "seat": self.seat,
            "hands": [[word(t) for t in h] for h in self.hands],
            "boneyard": [word(t) for t in self.bone],
            "trains": [{"tiles": [f"{a}-{b}" for a, b in self.lines[s]],
                        "end": self.end(s), "marker": self.marks[s]} for s in range(self.n)],
            "mexican": {"tiles": [f"{a}-{b}" for a, b in self.lines[MEX]],
                        "end": self.end(MEX)},
            "open_doubles": self.open, "turn_doubles": self.turn,
            "drawn": None if self.drawn is None else word(self.drawn),
            "first_turns": self.firsts, "passes": self.passes, "scores": self.totals,
            "outs": self.outs, "result": self.result,
        })
        return out


def score(hands: list[list[Tile]], winner: int | None) -> list[int]:
    """HOUSE RULE (scoring: other): the pips in hand, at most CAP; the winner 0."""
    return [0 if s == winner else min(CAP, sum(a + b for a, b in h))
            for s, h in enumerate(hands)]


def refuse_count(players: Any) -> Problem:
    listed = ", ".join(str(k) for k in SIZES)
    return Problem("refused-setup",
                   f"ballast deals to 2 to 10 players ({listed}), not {players}", "DEAL-7")


def deal(req: dict[str, Any]) -> dict[str, Any]:
    players, rnd, order = req.get("players"), req.get("round"), req.get("order")
    if not isinstance(players, int) or not isinstance(rnd, int) or not isinstance(order, list):
        raise Problem("bad-request", "a deal needs players, round and order")
    if players not in SIZES:
        raise refuse_count(players)
    if not 1 <= rnd <= ROUNDS:
        raise Problem("refused-setup", f"a double-9 match has rounds 1 to {ROUNDS}", "MATCH-1")
    engine = TOP + 1 - rnd  # ENG-1
    pool = [parse(t) for t in order]
    full = sorted((b, a) for a in range(TOP + 1) for b in range(a + 1)
                  if (a, b) != (engine, engine))
    if sorted(pool) != sorted((min(t), max(t)) for t in full):
        raise Problem("bad-request", f"the pool is not the double-9 set without {engine}-{engine}")
    size = SIZES[players]
    hands = [pool[s * size:(s + 1) * size] for s in range(players)]  # DEAL-1, ENG-2
    weights = [sum(a + b for a, b in h) for h in hands]
    first = weights.index(min(weights))  # HOUSE RULE (starting_seat: other)
    return {
        "round": rnd, "engine": engine, "engine_placed": True, "phase": "start",
        "seat": first, "starter": first, "hands": [[word(t) for t in h] for h in hands],
        "boneyard": [word(t) for t in pool[players * size:]],
        "trains": [{"tiles": [], "end": engine, "marker": False} for _ in range(players)],
        "mexican": {"tiles": [], "end": engine}, "open_doubles": [], "turn_doubles": [],
        "drawn": None, "first_turns": list(range(players)), "passes": 0,
        "scores": [0] * players, "outs": [0] * players, "result": None,
    }


def winners(st: dict[str, Any]) -> list[int]:
    if st["phase"] != "over" or st["round"] < ROUNDS:
        return []  # MATCH-1: the match goes on
    low = min(st["scores"])
    return [s for s, v in enumerate(st["scores"]) if v == low]  # MATCH-4


def table(req: dict[str, Any]) -> Table:
    st = req.get("state")
    if not isinstance(st, dict) or not isinstance(st.get("hands"), list):
        raise Problem("bad-request", f"{req.get('type')} needs a state")
    if len(st["hands"]) not in SIZES:
        raise refuse_count(len(st["hands"]))
    if st.get("phase") not in ("start", "follow", "over") or not st.get("engine_placed"):
        raise Problem("unsupported", f"ballast has no {st.get('phase')!r} phase")
    return Table(st)


def answer(req: dict[str, Any]) -> dict[str, Any]:
    kind = req.get("type")
    if kind == "hello":
        if req.get("protocol") != 1:
            raise Problem("protocol-version", "ballast speaks protocol 1 only")
        rules = {"name": "ballast", "options": OPTIONS,
                 "hand_sizes": {str(n): k for n, k in SIZES.items()}}
        return {"protocol": 1, "name": "ballast", "version": "0.9", "rules": rules}
    if kind == "shutdown":
        return {}
    if kind == "deal":
        return {"state": deal(req)}
    if kind not in ("legal", "apply", "score", "winners"):
        raise Problem("bad-request", f"unknown request type {kind!r}")
    if kind == "winners":
        return {"winners": winners(table(req).json())}
    tb = table(req)
    if kind == "legal":
        return {"actions": tb.legal()}
    if kind == "score":
        winner = req["winner"] if "winner" in req else (tb.result or {}).get("winner")
        return {"scores": score(tb.hands, winner)}
    act = req.get("action")
    if not isinstance(act, dict):
        raise Problem("bad-request", "apply needs an action")
    try:
        tb.apply(act)
    except Refusal as r:
        return {"refused": {"reason": r.reason, "clause": r.clause}}
    return {"state": tb.json()}


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
        except Problem as p:
            err: dict[str, Any] = {"kind": p.kind, "message": p.message}
            if p.kind == "refused-setup":
                err["clause"] = p.clause
            if p.kind == "protocol-version":
                err["supported"] = [1]
            out = {"id": rid, "ok": False, "error": err}
        except Exception as e:  # a bug of ours: say so, keep serving
            out = {"id": rid, "ok": False, "error": {"kind": "internal", "message": repr(e)}}
        sys.stdout.write(json.dumps(out, separators=(",", ":")) + "\n")
        sys.stdout.flush()
        if kind == "shutdown":
            break


if __name__ == "__main__":
    if sys.argv[1:2] == ["--fixed"] and len(sys.argv) > 2:
        FIXED.update(sys.argv[2].split(","))
    main()
