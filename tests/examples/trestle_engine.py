#!/usr/bin/env python3
"""Trestle: Mexican Train on a double-8 set for two to six, as a club of retired railway
modellers plays it on Thursday nights, written from docs/protocol.md and
docs/implementers-guide.md alone (it imports nothing from mtrain). Its author does not
know the suite's option names: the hello says `variants: ["*"]`, and the rule-set file is
the one `mtrain identify` writes. Everything below, house rules and planted bugs, was
written down before any suite command ran on it.

Rules it plays:
- a double-8 set (45 tiles, 9 rounds from [8-8] down to [0-0]); the round's engine is set
  aside before the deal and placed in the centre; round r starts at seat (r - 1) mod n;
- HOUSE TABLE: 2 players 11 tiles, 3 players 10, 4 players 9, 5 players 7, 6 players 6;
  any other number of players is refused (DEAL-7);
- one tile a turn from the start; anyone may open the Mexican Train on their first turn;
  nobody must start their own train first;
- open doubles: a double asks for another tile in the same turn (DBL-1); one left open
  binds the next players, every other train closed to them until it is covered (DBL-6);
  a double whose nine tiles are all on the table is released (DBL-9);
- HOUSE RULE 1, the follow-up ("back to the yard"): the tile after a double goes on the
  double just laid (covering it) or on the Mexican Train, nowhere else. Not `anywhere`
  (one's own and marked trains are closed), not `restricted` (that opens one's own train
  and marked trains that end in no double), not `cover-own` (the Mexican Train is open);
- HOUSE RULE 2, several open doubles ("last in, first out"): of several open doubles laid
  on earlier turns, the newest is covered first, the others wait. Not `oldest-first`, the
  other way round, nor `any-open` (only one may be covered). It meets house rule 1: a
  double left open by a follow-up on the Mexican Train becomes the newest to cover;
- HOUSE RULE 3, the draw ("a lucky draw goes anywhere"): a player who cannot play draws
  one tile and, if it fits, must play it (only that tile), but on any train where it fits,
  another player's train without a marker included; where a double is to be covered (a
  double of an earlier turn, or the follow-up of one laid this turn) the drawn tile goes
  where a tile from the hand would. Not `draw-one` (a drawn tile keeps to the open trains
  there) nor `draw-until-playable` (one tile only; a pass follows a draw in vain);
- HOUSE RULE 4, markers ("earned off from the hand"): a marker comes off when its owner
  plays on their own train a tile they held at the start of the turn; the drawn tile
  played home leaves the marker up. It meets house rule 3: the tile drawn is the one that
  does not count. Not `owner-plays-own` (any tile home takes it off), nor
  `anyone-plays-on`, nor `owner-plays-anywhere`;
- a player who cannot play after the draw (or with the boneyard empty) passes, marker up;
  with the boneyard empty a full round of passes blocks the round;
- penalty scoring: the pips left in hand, the player who went out 0; the [0-0] costs 50
  (other blanks 0); the lowest total after the ninth round wins;
- HOUSE RULE 5, ties ("the last word"): of players level on the lowest total, the one who
  went out in the last round wins alone; if none of them did, they share the win. Not
  `shared` (it breaks ties), nor `most-outs` (only the last round counts), nor
  `lowest-seat`.

Wire habits of its own (all allowed by the protocol): tiles outside trains written high
end first, a hand in the order its tiles came (the deal's order, then the draws); the
Mexican Train listed last in `legal`.

Planted bugs (what the suite must find), each with the clause it breaks and when:
1. "silent-pass" (MARK-1, DBL-5): a player who passes in a follow-up (the double asked for
   a tile and none could be played, even after a draw) puts up no marker. It is on its
   marker rule, a rule it plays its own way (house rule 4), but MARK-1's marker at a pass
   is no part of that rule;
2. "early-block" (END-3): the count of passes goes up at every pass, the boneyard empty
   or not (the author's "a full round of passes" forgot the empty boneyard), so the state
   counts passes it should not, and a round of passes with tiles still in the boneyard
   ends the round blocked;
3. "drawn-double" (DBL-1): a double that was the tile just drawn, once laid, ends the turn:
   no tile after it is asked for (the author thought a draw ends the turn), and it is left
   open for the next players. It is on the draw, a rule it plays its own way (house rule
   3), but a laid double's follow-up is DBL-1's.

Its refusals name a clause where one says why (its house rules name none). All three
bugs are on by default; `--fixed 1,2,3` switches them off (or some of them).

    mtrain identify --impl "python tests/examples/trestle_engine.py --fixed 1,2,3" \\
        --output trestle-rules.yaml
"""

from __future__ import annotations

import copy
import json
import sys
from typing import Any

TOP = 8
ROUNDS = TOP + 1  # the engines [8-8] down to [0-0]
SIZES = {2: 11, 3: 10, 4: 9, 5: 7, 6: 6}
BUGS = {"1": "silent-pass", "2": "early-block", "3": "drawn-double"}
FIXED: set[str] = set()

Tile = tuple[int, int]  # high end first
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
    return (max(x, y), min(x, y))


def word(t: Tile) -> str:
    return f"{t[0]}-{t[1]}"


def value(t: Tile) -> int:
    return 50 if t == (0, 0) else t[0] + t[1]  # the [0-0] costs 50, other blanks 0


class Table:
    """One round as the club's program keeps it: tiles as (high, low), trains as lists of
    (near, far) pairs, seat trains by number and the Mexican Train by name."""

    def __init__(self, st: dict[str, Any]) -> None:
        self.raw = copy.deepcopy(st)
        self.n = len(st["hands"])
        self.round: int = st["round"]
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

    def released(self, where: Any) -> bool:
        """DBL-9: every tile bearing the double's number is on the table (the engine too)."""
        number = self.end(where)
        seen = {(max(a, b), min(a, b)) for line in self.lines.values() for a, b in line}
        seen.add((self.engine, self.engine))
        return sum(1 for t in seen if number in t) >= TOP + 1

    def binding(self) -> list[Any]:
        """The open doubles of earlier turns that oblige the mover (DBL-6, DBL-9), oldest
        first as the state lists them."""
        return [w for w in self.open if w not in self.turn and not self.released(w)]

    def open_trains(self) -> list[Any]:
        """TRAIN-4, MARK-2: one's own, the Mexican Train, marked trains."""
        me = self.seat
        return [w for w in self.trains() if w in (me, MEX) or self.marks.get(w, False)]

    def targets(self) -> list[Any]:
        """Where the mover may play now."""
        if self.phase == "follow" and self.turn:
            # HOUSE RULE 1: on the double just laid or on the Mexican Train
            return sorted({self.turn[-1], MEX}, key=lambda w: 99 if w == MEX else w)
        duty = self.binding()
        if duty:
            return [duty[-1]]  # DBL-6; HOUSE RULE 2: the newest first
        if self.drawn is not None:
            return self.trains()  # HOUSE RULE 3: a drawn tile goes wherever it fits
        return self.open_trains()

    def plays(self) -> list[tuple[Tile, Any]]:
        tiles = [self.drawn] if self.drawn is not None else self.hands[self.seat]  # TURN-3
        out = []
        for w in self.targets():
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
            return [{"type": "draw"}]  # TURN-2
        return [{"type": "pass"}]  # TURN-4

    # -- moves ----------------------------------------------------------------------
    def refuse(self, act: dict[str, Any]) -> Refusal:
        kind = act.get("type")
        if self.phase == "over":
            return Refusal("the round is over", "END-1")
        if kind == "end-chain":
            return Refusal("one tile a turn here", "FIRST-7")
        if kind == "draw":
            if self.plays():
                return Refusal("you have a tile to play", "TURN-1")
            if self.drawn is not None:
                return Refusal("one draw a turn", "TURN-4")
            return Refusal("the boneyard is empty", "TURN-4")
        if kind == "pass":
            if self.plays():
                return Refusal("you have a tile to play", "TURN-1")
            return Refusal("draw first", "TURN-2")
        tile = parse(act.get("tile"))
        where = act.get("train")
        if tile[0] > TOP:
            return Refusal(f"{word(tile)} is not in a double-8 set", "SET-1")
        if where not in self.lines:
            return Refusal(f"there is no train {where!r}", "TRAIN-1")
        if tile not in self.hands[self.seat]:
            return Refusal(f"{word(tile)} is not in your hand", "TURN-7")
        if self.end(where) not in tile:
            return Refusal(f"{word(tile)} does not fit the open end {self.end(where)}",
                           "TRAIN-2")
        if self.drawn is not None and tile != self.drawn:
            return Refusal(f"play the tile you drew, {word(self.drawn)}", "TURN-3")
        if self.phase == "follow" and self.turn:
            return Refusal("after a double: on that double or the Mexican Train", None)
        duty = self.binding()
        if duty:
            if where in duty:
                return Refusal("the newest open double is covered first", None)
            return Refusal("an open double must be covered first", "DBL-6")
        if where not in self.open_trains():
            return Refusal(f"seat {where}'s train has no marker", "TRAIN-4")
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
        self.turn = []
        self.phase = "over"

    def lay(self, tile: Tile, where: Any) -> None:
        e = self.end(where)
        was_drawn = self.drawn is not None
        self.hands[self.seat].remove(tile)
        far = tile[1] if tile[0] == e else tile[0]
        self.lines[where].append((e, far))
        self.drawn = None
        self.passes = 0
        if where == self.seat and not was_drawn:
            self.marks[where] = False  # HOUSE RULE 4: a held tile home takes it off
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
        if double and was_drawn and bug("drawn-double"):
            self.next_turn()  # planted bug 3: a drawn double ends the turn
            return
        if double:
            self.phase = "follow"  # DBL-1
        else:
            self.next_turn()  # TURN-6

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
        else:  # pass: TURN-4, MARK-1, DBL-5
            if not (self.phase == "follow" and bug("silent-pass")):
                self.marks[self.seat] = True  # (planted bug 1 leaves it down)
            if not self.bone or bug("early-block"):
                self.passes += 1  # END-3 (planted bug 2: counted whatever the boneyard)
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
    """SCORE-5 with the [0-0] at 50: the value in hand, the player who went out 0."""
    return [0 if s == winner else sum(value(t) for t in h) for s, h in enumerate(hands)]


def refuse_count(players: Any) -> Problem:
    listed = ", ".join(str(k) for k in SIZES)
    return Problem("refused-setup",
                   f"trestle deals to 2 to 6 players ({listed}), not {players}", "DEAL-7")


def deal(req: dict[str, Any]) -> dict[str, Any]:
    players, rnd, order = req.get("players"), req.get("round"), req.get("order")
    if not isinstance(players, int) or not isinstance(rnd, int) or not isinstance(order, list):
        raise Problem("bad-request", "a deal needs players, round and order")
    if players not in SIZES:
        raise refuse_count(players)
    if not 1 <= rnd <= ROUNDS:
        raise Problem("refused-setup", f"a double-8 match has rounds 1 to {ROUNDS}", "MATCH-1")
    engine = TOP + 1 - rnd  # ENG-1
    pool = [parse(t) for t in order]
    full = sorted((a, b) for a in range(TOP + 1) for b in range(a + 1)
                  if (a, b) != (engine, engine))
    if sorted(pool) != full:
        raise Problem("bad-request", f"the pool is not the double-8 set without {engine}-{engine}")
    size = SIZES[players]
    hands = [pool[s * size:(s + 1) * size] for s in range(players)]  # DEAL-1, ENG-2
    first = (rnd - 1) % players  # SEAT-3
    return {
        "round": rnd, "engine": engine, "engine_placed": True, "phase": "start",
        "seat": first, "starter": first, "hands": [[word(t) for t in h] for h in hands],
        "boneyard": [word(t) for t in pool[players * size:]],
        "trains": [{"tiles": [], "end": engine, "marker": False} for _ in range(players)],
        "mexican": {"tiles": [], "end": engine}, "open_doubles": [], "turn_doubles": [],
        "drawn": None, "first_turns": list(range(players)), "passes": 0,
        "scores": [0] * players, "outs": [0] * players, "result": None,
    }


def winners(tb: Table) -> list[int]:
    if tb.phase != "over" or tb.round < ROUNDS:
        return []  # MATCH-1: the match goes on
    low = min(tb.totals)
    level = [s for s, v in enumerate(tb.totals) if v == low]  # MATCH-2
    last = (tb.result or {}).get("winner")
    if len(level) > 1 and last in level:
        return [last]  # HOUSE RULE 5: the last word
    return level


def table(req: dict[str, Any]) -> Table:
    st = req.get("state")
    if not isinstance(st, dict) or not isinstance(st.get("hands"), list):
        raise Problem("bad-request", f"{req.get('type')} needs a state")
    if len(st["hands"]) not in SIZES:
        raise refuse_count(len(st["hands"]))
    if st.get("phase") not in ("start", "follow", "over") or not st.get("engine_placed"):
        raise Problem("unsupported", f"trestle has no {st.get('phase')!r} phase")
    return Table(st)


def answer(req: dict[str, Any]) -> dict[str, Any]:
    kind = req.get("type")
    if kind == "hello":
        if req.get("protocol") != 1:
            raise Problem("protocol-version", "trestle speaks protocol 1 only")
        return {"protocol": 1, "name": "trestle", "version": "1.2", "variants": ["*"]}
    if kind == "shutdown":
        return {}
    if kind == "deal":
        return {"state": deal(req)}
    if kind not in ("legal", "apply", "score", "winners"):
        raise Problem("bad-request", f"unknown request type {kind!r}")
    tb = table(req)
    if kind == "winners":
        return {"winners": winners(tb)}
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
