#!/usr/bin/env python3
"""Sleeper: the game logic of a family's phone app ("Sleeper Car", played round the
kitchen table on one double-15 box), ported to a small command-line program that speaks
the suite's JSON protocol so that the family's programmer can run the suite on it. The
author read the README, docs/protocol.md and docs/implementers-guide.md, and none of the
rule books; the engine imports nothing from mtrain. Everything in this docstring, house
rules and planted bugs, was written down before any suite command ran on it.

What the app plays:
- a double-15 set (136 tiles, 16 rounds from [15-15] down to [0-0]); the round's engine
  is taken out before the deal and placed in the centre (`engine_procedure: set-aside`);
- 4 to 8 players, the family's own hand table: 4 players 15, 5 players 13, 6 players 12,
  7 players 11, 8 players 10; any other count is refused (DEAL-7);
- round 1 is led by seat 0 and the lead moves one seat on each round, round r at seat
  (r - 1) mod n (`starting_seat: rotate`); play goes seat s, then s + 1;
- one tile a turn from the first turn (`first_turn: single`); anyone may open the
  Mexican Train at any time (`mexican_first_turn: anyone`); nobody must start their own
  train first (`own_train_first: not-required`);
- a player who cannot play draws one tile and plays it if they can, else passes with the
  marker up (`draw_rule: draw-one`); the marker comes off when its owner plays on their
  own train (`marker_removal: owner-plays-own`);
- open doubles (`doubles: open`): a double asks its layer for another tile in the same
  turn, which may go anywhere the player may play, the double itself included
  (`follow_up: anywhere`); a double left open binds the next players, every other train
  closed to them until it is covered; one nobody can cover keeps binding
  (`uncoverable_double: stays-open`), so such a round ends blocked;
- with the boneyard empty a full round of passes blocks the round
  (`blocked_round: full-round-of-passes`); penalty scoring, the player who went out 0
  (`scoring: penalty`); players level on the lowest total share the win
  (`tie_rule: shared`).

House rules (no known value describes them; the family's names in quotes):
1. `double_order: other`, "last in, first out": of several open doubles of earlier
   turns, the newest must be covered first, then the next newest, and so on. Not
   `oldest-first` (the reverse order), not `any-open` (ours allows one double only).
2. `blank_values: other`, "doubles hurt twice": a tile left in hand counts its pips,
   and a double counts twice its pips: [6-6] costs 24, [15-15] 60, [6-2] 8, blanks 0 (so
   [0-0] costs 0). Not `face` (a double at its pips, [6-6] 12), nor `blank-25`,
   `double-blank-50` or `double-blank-25` (those price blanks, ours leaves blanks at 0
   and prices every double above its face).
3. `match_length: other`, "first to 200": the match is the 16 rounds of the box, but it
   stops early after any round at whose end some player's total is 200 or more; the
   lowest total then wins (shared if level). Not `full` (which always plays every
   round), not `single-round` (one round only).

The hello declares `rules` as the author read the names: `double_order: other` (right),
`blank_values: face` (wrong: they took "face" for "what is printed on the tiles"),
`match_length: full` (wrong: the box's 16 rounds is the most they play), every other
option as above, and the hand table as `custom` with its `hand_sizes`.

Wire habits (all allowed by the protocol): tiles outside trains written high end first
("10-3"), a hand in the order its tiles came, the player's own train listed first in
`legal`.

Planted bugs, off unless `--bugs` is given (each with the clause it breaks and when):
1. "the eighth chair" (SEAT-1), only at 8 players: the app's eight-seat layout numbers
   chairs from 1 and its turn arithmetic was written for it, next = seat % 7 + 1, so
   after seat 7 the turn goes to seat 1 and seat 0 is skipped (and after seat 0 comes
   seat 1, as it should). At 4 to 7 players next = (seat + 1) % n.
2. "the last tile drawn" (END-3), only when a draw empties the boneyard: a pass counts
   towards the full round of passes only when no tile was drawn in that turn (the app
   asks "did this player draw?" for "was the boneyard empty?"), so the pass made right
   after drawing the boneyard's last tile is not counted and a round needs one more pass
   to block.
3. "seat zero's total" (MATCH-1), only at the end of rounds 2 and later: round 1 sets
   the totals to the round's scores; later rounds add them in a loop that starts at seat
   1, so seat 0's total stays what it was after round 1 (plus nothing).

What the runs found (written after them; everything above was written before).
identify (bugs off, 178 CPU s; 516 fixtures and 564 situations played, 599 of 1,459
requests refused as setups for 2, 3 or 9+ players): table, set, engine, start and
double_order `other` right; blank_values missed (left `face`, undetermined), the doubled
doubles read instead as `scoring: other` (contradicted, 12 fixtures against SCORE-5);
match_length missed (`full`, likely). No option sure and wrong. Under the honest file
(tests/examples/sleeper-rules.yaml), bugs off, conform failed 37 results (35 SCORE-1, 2
SCORE-5) and fuzz reported INV-ROUND-SCORE: the suite read blank_values only for hands
holding a blank. Fixed (tests/test_house50.py): conform 991 pass, 25 not applicable;
fuzz (12 games) nothing. Bugs on: conform fails 89, bug 1 in 8 (SEAT-1), bug 3 in 81
(MATCH-1, the totals must carry the round's own scores); bug 2 (END-3) only fuzz finds,
as after pass: passes. Under identify's file, bugs off, 2 situations fail (its match
stopping at 200, MATCH-1), the rule identify missed.

Read again after those runs (session 51): house rule 2 is not `blank_values: other`, the
option that prices blank ends (its blanks are worth their face, 0), but `scoring: other`,
what a round's hands are worth (the implementers' guide now says so), as identify read it;
tests/examples/sleeper-rules.yaml says `scoring: other` and `blank_values: face`. Under that
file, bugs off, conform passes every result it runs; bugs on, it shows bug 1 (SEAT-1) and
bug 3 (MATCH-1: the totals must still carry the engine's own round scores), and fuzz
finds bugs 1 and 2 (tests/test_house_engines.py).

    mtrain identify --impl "python tests/examples/sleeper_engine.py" -o sleeper-rules.yaml
"""

from __future__ import annotations

import copy
import json
import sys
from typing import Any

HIGHEST = 15
ROUNDS = HIGHEST + 1  # engines [15-15] down to [0-0]
HAND_TABLE = {4: 15, 5: 13, 6: 12, 7: 11, 8: 10}
RACE_TO = 200  # house rule 3
BUGS = False
MEXICAN = "mexican"

Tile = tuple[int, int]  # (low, high)


class ServerError(Exception):
    def __init__(self, kind: str, message: str, clause: str | None = None) -> None:
        super().__init__(message)
        self.kind, self.message, self.clause = kind, message, clause


class NotAllowed(Exception):
    def __init__(self, reason: str, clause: str | None) -> None:
        super().__init__(reason)
        self.reason, self.clause = reason, clause


def read_tile(text: Any) -> Tile:
    if not isinstance(text, str):
        raise ServerError("bad-request", f"a tile is text like '10-3', not {text!r}")
    parts = text.split("-")
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        raise ServerError("bad-request", f"not a tile: {text!r}")
    a, b = int(parts[0]), int(parts[1])
    return (min(a, b), max(a, b))


def show(t: Tile) -> str:
    return f"{t[1]}-{t[0]}"


def tile_points(t: Tile) -> int:
    """What a tile left in hand costs (SCORE-5; house rule 2: a double twice)."""
    pips = t[0] + t[1]
    return 2 * pips if t[0] == t[1] else pips


def hand_points(hands: list[list[Tile]], out: int | None) -> list[int]:
    return [0 if s == out else sum(tile_points(t) for t in h) for s, h in enumerate(hands)]


class Round:
    """One round as the app holds it: trains as lists of (near, far) pairs keyed by seat
    number, the Mexican Train by name."""

    def __init__(self, st: dict[str, Any]) -> None:
        self.source = copy.deepcopy(st)
        self.players = len(st["hands"])
        self.number: int = st["round"]
        self.engine: int = st["engine"]
        self.hands = [[read_tile(t) for t in h] for h in st["hands"]]
        self.boneyard = [read_tile(t) for t in st["boneyard"]]
        self.trains: dict[Any, list[tuple[int, int]]] = {}
        self.markers: list[bool] = []
        for seat, train in enumerate(st["trains"]):
            self.trains[seat] = [self._pair(t) for t in train["tiles"]]
            self.markers.append(bool(train["marker"]))
        self.trains[MEXICAN] = [self._pair(t) for t in st["mexican"]["tiles"]]
        self.open_doubles: list[Any] = list(st["open_doubles"])
        self.turn_doubles: list[Any] = list(st["turn_doubles"])
        self.drawn: Tile | None = None if st["drawn"] is None else read_tile(st["drawn"])
        self.seat: int = st["seat"]
        self.phase: str = st["phase"]
        self.first_turns: set[int] = set(st["first_turns"])
        self.passes: int = st["passes"]
        self.totals: list[int] = list(st["scores"])
        self.outs: list[int] = list(st["outs"])
        self.result: Any = st["result"]

    @staticmethod
    def _pair(text: Any) -> tuple[int, int]:
        near, far = str(text).split("-")
        return (int(near), int(far))

    def open_end(self, train: Any) -> int:
        line = self.trains[train]
        return line[-1][1] if line else self.engine

    def binding_doubles(self) -> list[Any]:
        """DBL-6, DBL-10: the open doubles of earlier turns, in the order laid."""
        return [t for t in self.open_doubles if t not in self.turn_doubles]

    def usable_trains(self) -> list[Any]:
        """TRAIN-4, MARK-2: the trains this player may use."""
        me = self.seat
        return [me, MEXICAN] + [s for s in range(self.players) if s != me and self.markers[s]]

    def reachable(self) -> list[Any]:
        duty = self.binding_doubles()
        if duty:
            return duty[-1:]  # DBL-6 and house rule 1: the newest open double first
        usable = self.usable_trains()
        if self.phase == "follow":
            # DBL-2: the follow-up goes anywhere, a double of this turn wherever it lies
            return usable + [t for t in self.turn_doubles if t not in usable]
        return usable

    def plays(self) -> list[tuple[Tile, Any]]:
        tiles = [self.drawn] if self.drawn is not None else self.hands[self.seat]  # TURN-3
        found = []
        for train in self.reachable():
            end = self.open_end(train)
            found += [(t, train) for t in tiles if end in t]
        return found

    def legal(self) -> list[dict[str, Any]]:
        if self.phase == "over":
            return []
        moves = self.plays()
        moves.sort(key=lambda m: 0 if m[1] == self.seat else 1)  # own train first on screen
        if moves:
            return [{"type": "play", "tile": show(t), "train": w} for t, w in moves]
        if self.drawn is None and self.boneyard:
            return [{"type": "draw"}]  # TURN-2
        return [{"type": "pass"}]  # TURN-4

    def why_not(self, action: dict[str, Any]) -> NotAllowed:
        kind = action.get("type")
        if self.phase == "over":
            return NotAllowed("the round is over", "END-1")
        if kind == "end-chain":
            return NotAllowed("one tile a turn in this game", "FIRST-7")
        if kind in ("draw", "pass"):
            if self.plays():
                return NotAllowed("you can play", "TURN-1")
            if kind == "pass":
                return NotAllowed("draw first", "TURN-2")
            if self.drawn is not None:
                return NotAllowed("you have drawn already", "TURN-2")
            return NotAllowed("the boneyard is empty", "TURN-4")
        tile, train = read_tile(action.get("tile")), action.get("train")
        if tile[1] > HIGHEST:
            return NotAllowed(f"{show(tile)} is not in a double-15 box", "SET-1")
        if train not in self.trains:
            return NotAllowed(f"no train called {train!r}", "TRAIN-1")
        if tile not in self.hands[self.seat]:
            return NotAllowed(f"you do not hold {show(tile)}", "TURN-7")
        if self.open_end(train) not in tile:
            return NotAllowed(f"{show(tile)} does not fit {self.open_end(train)}", "TRAIN-2")
        if self.drawn is not None and tile != self.drawn:
            return NotAllowed(f"play the tile you drew ({show(self.drawn)})", "TURN-3")
        duty = self.binding_doubles()
        if duty:
            return NotAllowed("cover the newest open double first", None if
                              train in duty else "DBL-6")
        if train not in self.usable_trains():
            return NotAllowed("that train has no marker", "TRAIN-4")
        return NotAllowed("not a legal move", None)

    def next_seat(self) -> int:
        if BUGS and self.players == 8:
            return self.seat % 7 + 1  # planted bug 1: the eight-chair layout
        return (self.seat + 1) % self.players  # SEAT-1

    def pass_turn_on(self) -> None:
        self.first_turns.discard(self.seat)  # FIRST-6
        self.turn_doubles = []
        self.drawn = None
        self.phase = "start"
        self.seat = self.next_seat()

    def end_round(self, out: int | None) -> None:
        scores = hand_points(self.hands, out)
        if BUGS and self.number > 1:
            for s in range(1, self.players):  # planted bug 3: seat 0 left out
                self.totals[s] += scores[s]
        else:
            self.totals = [a + b for a, b in zip(self.totals, scores, strict=True)]  # MATCH-1
        if out is not None:
            self.outs[out] += 1
        self.result = {"end": "blocked" if out is None else "domino", "winner": out,
                       "scores": scores}
        self.turn_doubles = []
        self.drawn = None
        self.phase = "over"

    def play(self, tile: Tile, train: Any) -> None:
        end = self.open_end(train)
        self.hands[self.seat].remove(tile)
        self.trains[train].append((end, tile[1] if tile[0] == end else tile[0]))
        self.drawn = None
        self.passes = 0
        if train == self.seat:
            self.markers[train] = False  # MARK-3
        if train in self.open_doubles:  # TRAIN-3: covered
            self.open_doubles.remove(train)
            if train in self.turn_doubles:
                self.turn_doubles.remove(train)
        is_double = tile[0] == tile[1]
        if is_double:
            self.open_doubles.append(train)
            self.turn_doubles.append(train)
        if not self.hands[self.seat]:
            self.end_round(self.seat)  # END-1
        elif is_double:
            self.phase = "follow"  # DBL-1
        else:
            self.pass_turn_on()  # TURN-6

    def act(self, action: dict[str, Any]) -> None:
        kind = action.get("type")
        if kind not in ("play", "draw", "pass", "end-chain"):
            raise ServerError("bad-request", f"unknown action {kind!r}")
        allowed = self.legal()
        if kind == "play":
            tile, train = read_tile(action.get("tile")), action.get("train")
            if {"type": "play", "tile": show(tile), "train": train} not in allowed:
                raise self.why_not(action)
            self.play(tile, train)
            return
        if {"type": kind} not in allowed:
            raise self.why_not(action)
        if kind == "draw":
            self.drawn = self.boneyard.pop(0)
            self.hands[self.seat].append(self.drawn)
            return
        self.markers[self.seat] = True  # TURN-4, MARK-1
        counts = not self.boneyard
        if BUGS:
            counts = self.drawn is None and not self.boneyard  # planted bug 2
        if counts:
            self.passes += 1  # END-3
        self.pass_turn_on()
        if not self.boneyard and self.passes >= self.players:  # END-3
            self.end_round(None)

    def to_json(self) -> dict[str, Any]:
        out = self.source
        out.update({
            "phase": self.phase, "seat": self.seat,
            "hands": [[show(t) for t in h] for h in self.hands],
            "boneyard": [show(t) for t in self.boneyard],
            "trains": [{"tiles": [f"{a}-{b}" for a, b in self.trains[s]],
                        "end": self.open_end(s), "marker": self.markers[s]}
                       for s in range(self.players)],
            "mexican": {"tiles": [f"{a}-{b}" for a, b in self.trains[MEXICAN]],
                        "end": self.open_end(MEXICAN)},
            "open_doubles": self.open_doubles, "turn_doubles": self.turn_doubles,
            "drawn": None if self.drawn is None else show(self.drawn),
            "first_turns": sorted(self.first_turns), "passes": self.passes,
            "scores": self.totals, "outs": self.outs, "result": self.result,
        })
        return out


def count_refused(players: Any) -> ServerError:
    return ServerError("refused-setup", f"sleeper seats 4 to 8 players, not {players}",
                       "DEAL-7")


def new_round(req: dict[str, Any]) -> dict[str, Any]:
    players, number, order = req.get("players"), req.get("round"), req.get("order")
    if not isinstance(players, int) or not isinstance(number, int) or not isinstance(order, list):
        raise ServerError("bad-request", "deal needs players, round and order")
    if players not in HAND_TABLE:
        raise count_refused(players)
    if not 1 <= number <= ROUNDS:
        raise ServerError("refused-setup", f"a match has rounds 1 to {ROUNDS}", "MATCH-1")
    engine = HIGHEST + 1 - number  # ENG-1
    tiles = [read_tile(t) for t in order]
    box = sorted((a, b) for b in range(HIGHEST + 1) for a in range(b + 1) if a != b or a != engine)
    if sorted(tiles) != box:
        raise ServerError("bad-request",
                          f"order is not the double-15 box without {engine}-{engine}")
    size = HAND_TABLE[players]
    lead = (number - 1) % players  # SEAT-3 (rotate)
    return {
        "round": number, "engine": engine, "engine_placed": True, "phase": "start",
        "seat": lead, "starter": lead,
        "hands": [[show(t) for t in tiles[s * size:(s + 1) * size]] for s in range(players)],
        "boneyard": [show(t) for t in tiles[players * size:]],
        "trains": [{"tiles": [], "end": engine, "marker": False} for _ in range(players)],
        "mexican": {"tiles": [], "end": engine}, "open_doubles": [], "turn_doubles": [],
        "drawn": None, "first_turns": list(range(players)), "passes": 0,
        "scores": [0] * players, "outs": [0] * players, "result": None,
    }


def match_winners(rd: Round) -> list[int]:
    if rd.phase != "over":
        return []
    if rd.number < ROUNDS and max(rd.totals) < RACE_TO:
        return []  # house rule 3: nobody has reached 200 yet
    best = min(rd.totals)  # MATCH-2
    return [s for s, t in enumerate(rd.totals) if t == best]  # MATCH-4: shared


def load_round(req: dict[str, Any]) -> Round:
    st = req.get("state")
    if not isinstance(st, dict) or not isinstance(st.get("hands"), list):
        raise ServerError("bad-request", f"{req.get('type')} needs a state")
    if len(st["hands"]) not in HAND_TABLE:
        raise count_refused(len(st["hands"]))
    if st.get("phase") not in ("start", "follow", "over") or not st.get("engine_placed"):
        raise ServerError("unsupported", f"sleeper has no {st.get('phase')!r} phase")
    return Round(st)


HELLO_RULES = {
    "name": "sleeper",
    "options": {
        "tile_set": "double-15", "hand_sizes": "custom", "engine_procedure": "set-aside",
        "starting_seat": "rotate", "first_turn": "single", "mexican_first_turn": "anyone",
        "own_train_first": "not-required", "doubles": "open", "follow_up": "anywhere",
        "double_order": "other", "uncoverable_double": "stays-open",
        "marker_removal": "owner-plays-own", "draw_rule": "draw-one",
        "blocked_round": "full-round-of-passes", "scoring": "penalty",
        "blank_values": "face", "tie_rule": "shared", "match_length": "full",
    },
    "hand_sizes": {str(k): v for k, v in HAND_TABLE.items()},
}


def handle(req: dict[str, Any]) -> dict[str, Any]:
    kind = req.get("type")
    if kind == "hello":
        if req.get("protocol") != 1:
            raise ServerError("protocol-version", "sleeper speaks protocol 1")
        return {"protocol": 1, "name": "sleeper", "version": "2.0.3", "rules": HELLO_RULES}
    if kind == "shutdown":
        return {}
    if kind == "deal":
        return {"state": new_round(req)}
    if kind not in ("legal", "apply", "score", "winners"):
        raise ServerError("bad-request", f"unknown request {kind!r}")
    rd = load_round(req)
    if kind == "legal":
        return {"actions": rd.legal()}
    if kind == "winners":
        return {"winners": match_winners(rd)}
    if kind == "score":
        out = req["winner"] if "winner" in req else (rd.result or {}).get("winner")
        return {"scores": hand_points(rd.hands, out)}
    action = req.get("action")
    if not isinstance(action, dict):
        raise ServerError("bad-request", "apply needs an action")
    try:
        rd.act(action)
    except NotAllowed as no:
        return {"refused": {"reason": no.reason, "clause": no.clause}}
    return {"state": rd.to_json()}


def serve() -> None:
    for line in sys.stdin:
        if not line.strip():
            continue
        rid: Any = None
        kind: Any = None
        try:
            req = json.loads(line)
            rid, kind = req.get("id"), req.get("type")
            answer: dict[str, Any] = {"id": rid, "ok": True, **handle(req)}
        except ServerError as e:
            error: dict[str, Any] = {"kind": e.kind, "message": e.message}
            if e.kind == "refused-setup":
                error["clause"] = e.clause
            if e.kind == "protocol-version":
                error["supported"] = [1]
            answer = {"id": rid, "ok": False, "error": error}
        except Exception as e:  # an app bug: report it and carry on
            answer = {"id": rid, "ok": False, "error": {"kind": "internal", "message": repr(e)}}
        sys.stdout.write(json.dumps(answer, separators=(",", ":")) + "\n")
        sys.stdout.flush()
        if kind == "shutdown":
            break


if __name__ == "__main__":
    BUGS = "--bugs" in sys.argv[1:]
    serve()
