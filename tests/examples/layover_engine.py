#!/usr/bin/env python3
"""Layover: the game logic of a phone app that plays Mexican Train at big family tables
(up to twelve phones round one double-10 box), lifted out of the app into a protocol
server so that the app's author can run the suite on it. The author read
docs/protocol.md once and nothing else; the engine imports nothing from mtrain. Its
hello declares the rules as the author understood the option names, two of them wrongly
(below). Everything in this docstring, house rules and planted bugs, was written down
before any suite command ran on it.

What the app plays:
- a double-10 set (66 tiles, 11 rounds from [10-10] down to [0-0]); the round's engine is
  taken out before the deal and placed in the centre (set-aside);
- 2 to 12 players; the app's own hand table, one tile fewer per extra player and never
  fewer than five: 2 players 13, 3 players 12, 4 players 11, 5 players 10, 6 players 9,
  7 players 8, 8 players 7, 9 and 10 players 6, 11 and 12 players 5; any other count is
  refused (DEAL-7);
- one tile a turn from the very first turn (single); nobody must start their own train
  first; a player who cannot play draws one tile and plays it if they can (draw-one),
  else passes with the marker up; the marker comes off when its owner plays on their own
  train (owner-plays-own);
- open doubles: a double asks for another tile in the same turn, which may go anywhere
  the player may play, the double itself included (follow_up: anywhere); a double left
  open binds the next players, every other train closed to them until it is covered,
  oldest first (oldest-first); one that nobody can cover keeps binding (stays-open), so
  such a round ends blocked;
- with the boneyard empty, a full round of passes blocks the round; penalty scoring (the
  tiles left in hand, the player who went out 0); the lowest total after round 11 wins,
  and of players level on it the lowest seat (the phone that joined the lobby first) wins
  alone (lowest-seat).

House rules (no known value describes them; the author's names in quotes):
1. `starting_seat: other`, "the lead goes right": the host (seat 0) deals, so the player
   on the host's right, the last seat, leads round 1, and the lead moves one seat to the
   right each round: round r starts at seat (n - r) mod n. Play itself goes left (seat s,
   then s + 1). Not `rotate` (its lead moves left and round 1 starts at seat 0), nor
   `engine-holder`/`after-engine` (the engine is set aside, nobody holds it), nor
   `highest-draw` or `heaviest-in-hand` (nothing is drawn or weighed).
2. `mexican_first_turn: other`, "the Mexican Train opens after the first lap": no player
   may lay the first tile of the Mexican Train during their own first turn of the round,
   the follow-up of a double laid in it included; once their first turn is over they may
   open it. Not `anyone` (everyone may on the first turn), not `starter-only` (the starter
   may open it there, and ours may not), not `own-train-started` (ours asks whose turn it
   is, not what the own train holds).
3. `blank_values: other`, "blanks are not free": a blank end is worth 5 in hand, so [7-0]
   counts 12, and the [0-0] counts 25 (not 10). Not `face` (a blank 0), not `blank-25`
   (25 an end), not `double-blank-25` (it leaves [7-0] at 7), not `double-blank-50`.

The hello declares `rules` as the author read the names: `starting_seat: rotate` (wrong:
they took "rotate" for any lead that moves a seat a round), `mexican_first_turn: other`
(right), `blank_values: double-blank-25` (wrong: they saw the [0-0] at 25 and missed that
the value says nothing of the other blanks), every other option as above, and the hand
table as `custom` with its `hand_sizes`.

Wire habits (all allowed by the protocol): tiles outside trains written low end first
("3-10"), a hand in the order its tiles came, the Mexican Train listed first in `legal`.

Planted bugs, the kind an app has (each with the clause it breaks and when):
1. "round scores" (MATCH-1), only in rounds 2 and later: the author read the state's
   `scores` as the round's scores (the app keeps match totals in its own database), so at
   the end of a round the engine writes the round's scores there instead of adding them to
   the totals carried in from the earlier rounds. In round 1 the two are the same.
2. "eight phones" (END-3), only at 9 to 12 players: the first release supported eight
   players, and the blocked-round check still compares the passes with min(players, 8),
   so with the boneyard empty eight passes in a row end the round blocked though players
   who might still play have not passed.
3. "digit pips" (SCORE-5), in scoring: a hand's pips are counted by adding the digits of
   each tile's text, so a tile bearing a 10 counts its 10 as 1 ([10-4] counts 5, [10-10]
   2) wherever a hand is scored (the round's end and `score`).

All three bugs are on by default; `--fixed 1,2,3` switches them off (or some of them).

What the runs found (written after them; everything above was written before): conform
under the file identify wrote failed one result with the bugs off that no planted bug
makes, doubles-051: a play on a train ending in an open double not the oldest was
refused by TRAIN-4 (the train is open wherever it lies, TRAIN-6); it now names DBL-7.
With it mended, 1,204 results pass under tests/examples/layover-rules.yaml; bug 1 fails
30 (MATCH-1), bug 3 18 (SCORE-1, SCORE-5), bug 2 none (fuzz finds it, END-3).

    mtrain identify --impl "python tests/examples/layover_engine.py --fixed 1,2,3" \\
        --output layover-rules.yaml
"""

from __future__ import annotations

import copy
import json
import sys
from typing import Any

HIGHEST = 10
ROUNDS = HIGHEST + 1  # engines [10-10] down to [0-0]
HAND_TABLE = {2: 13, 3: 12, 4: 11, 5: 10, 6: 9, 7: 8, 8: 7, 9: 6, 10: 6, 11: 5, 12: 5}
APP_MAX_V1 = 8  # the players the app's first release supported
BLANK_END = 5  # house rule 3
DOUBLE_BLANK = 25
BUG_NAMES = {"1": "round scores", "2": "eight phones", "3": "digit pips"}
FIXED: set[str] = set()
MEXICAN = "mexican"

Tile = tuple[int, int]  # (low, high), the app's order


def bug_on(name: str) -> bool:
    return any(n == name and key not in FIXED for key, n in BUG_NAMES.items())


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
        raise ServerError("bad-request", f"a tile is text like '3-10', not {text!r}")
    parts = text.split("-")
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        raise ServerError("bad-request", f"not a tile: {text!r}")
    a, b = int(parts[0]), int(parts[1])
    return (min(a, b), max(a, b))


def show(t: Tile) -> str:
    return f"{t[0]}-{t[1]}"


def tile_points(t: Tile) -> int:
    """What a tile left in hand costs (SCORE-5, house rule 3 for the blanks)."""
    if t == (0, 0):
        return DOUBLE_BLANK
    pips = t[0] + t[1]
    if bug_on("digit pips"):
        pips = sum(int(ch) for ch in show(t) if ch.isdigit())  # planted bug 3
    return pips + BLANK_END * (t[0] == 0) + BLANK_END * (t[1] == 0)


def hand_points(hands: list[list[Tile]], out: int | None) -> list[int]:
    return [0 if s == out else sum(tile_points(t) for t in h) for s, h in enumerate(hands)]


class Round:
    """The app's round object: trains as lists of (near, far) pairs, seat trains keyed by
    seat number and the Mexican Train by name."""

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
        """DBL-6, DBL-7, DBL-10: doubles of earlier turns, oldest first; one nobody can
        cover binds as well (stays-open)."""
        return [t for t in self.open_doubles if t not in self.turn_doubles]

    def usable_trains(self) -> list[Any]:
        """TRAIN-4, MARK-2 and house rule 2: the trains this player may use in any turn."""
        me = self.seat
        out: list[Any] = [me]
        if self.trains[MEXICAN] or me not in self.first_turns:
            out.append(MEXICAN)  # house rule 2: not opened on one's own first turn
        out += [s for s in range(self.players) if s != me and self.markers[s]]
        return out

    def reachable(self) -> list[Any]:
        duty = self.binding_doubles()
        if duty:
            return duty[:1]  # DBL-6, DBL-7: the oldest open double only
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
        moves.sort(key=lambda m: 0 if m[1] == MEXICAN else 1)  # the app's button order
        if moves:
            return [{"type": "play", "tile": show(t), "train": w} for t, w in moves]
        if self.drawn is None and self.boneyard:
            return [{"type": "draw"}]  # TURN-2
        return [{"type": "pass"}]  # TURN-4

    def why_not(self, action: dict[str, Any]) -> NotAllowed:
        kind = action.get("type")
        if self.phase == "over":
            return NotAllowed("this round has finished", "END-1")
        if kind == "end-chain":
            return NotAllowed("there are no chains in this game", "FIRST-7")
        if kind in ("draw", "pass"):
            if self.plays():
                return NotAllowed("you have a move", "TURN-1")
            if kind == "pass":
                return NotAllowed("draw a tile first", "TURN-2")
            if self.drawn is not None:
                return NotAllowed("you already drew", "TURN-2")
            return NotAllowed("nothing left to draw", "TURN-4")
        tile, train = read_tile(action.get("tile")), action.get("train")
        if tile[1] > HIGHEST:
            return NotAllowed(f"{show(tile)} is not in a double-10 box", "SET-1")
        if train not in self.trains:
            return NotAllowed(f"no train called {train!r}", "TRAIN-1")
        if tile not in self.hands[self.seat]:
            return NotAllowed(f"you do not have {show(tile)}", "TURN-7")
        if self.open_end(train) not in tile:
            return NotAllowed(f"{show(tile)} does not match {self.open_end(train)}", "TRAIN-2")
        if self.drawn is not None and tile != self.drawn:
            return NotAllowed(f"you must play the tile you drew ({show(self.drawn)})", "TURN-3")
        if train not in self.usable_trains() and train not in self.open_doubles:
            if train == MEXICAN:
                return NotAllowed("the Mexican Train opens after your first turn", None)
            return NotAllowed("that train has no marker", "TRAIN-4")
        duty = self.binding_doubles()
        if duty:
            return NotAllowed("cover the oldest open double first", "DBL-7" if
                              train in duty else "DBL-6")
        return NotAllowed("not a legal move", None)

    def pass_turn_on(self) -> None:
        self.first_turns.discard(self.seat)  # FIRST-6
        self.turn_doubles = []
        self.drawn = None
        self.phase = "start"
        self.seat = (self.seat + 1) % self.players  # SEAT-1

    def end_round(self, out: int | None) -> None:
        scores = hand_points(self.hands, out)
        if bug_on("round scores"):
            self.totals = list(scores)  # planted bug 1: the round's, not the match's
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
        if not self.boneyard:
            self.passes += 1  # END-3
        self.pass_turn_on()
        limit = min(self.players, APP_MAX_V1) if bug_on("eight phones") else self.players
        if not self.boneyard and self.passes >= limit:  # END-3 (planted bug 2: at most 8)
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
    return ServerError("refused-setup", f"layover seats 2 to 12 players, not {players}",
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
                          f"order is not the double-10 box without {engine}-{engine}")
    size = HAND_TABLE[players]
    lead = (players - number) % players  # house rule 1: the lead goes right
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
    if rd.phase != "over" or rd.number < ROUNDS:
        return []  # MATCH-1: not over yet
    best = min(rd.totals)  # MATCH-2
    return [rd.totals.index(best)]  # MATCH-6: the lowest seat of those level


def load_round(req: dict[str, Any]) -> Round:
    st = req.get("state")
    if not isinstance(st, dict) or not isinstance(st.get("hands"), list):
        raise ServerError("bad-request", f"{req.get('type')} needs a state")
    if len(st["hands"]) not in HAND_TABLE:
        raise count_refused(len(st["hands"]))
    if st.get("phase") not in ("start", "follow", "over") or not st.get("engine_placed"):
        raise ServerError("unsupported", f"layover has no {st.get('phase')!r} phase")
    return Round(st)


HELLO_RULES = {
    "name": "layover",
    "options": {
        "tile_set": "double-10", "hand_sizes": "custom", "engine_procedure": "set-aside",
        "starting_seat": "rotate", "first_turn": "single", "mexican_first_turn": "other",
        "own_train_first": "not-required", "doubles": "open", "follow_up": "anywhere",
        "double_order": "oldest-first", "uncoverable_double": "stays-open",
        "marker_removal": "owner-plays-own", "draw_rule": "draw-one",
        "blocked_round": "full-round-of-passes", "scoring": "penalty",
        "blank_values": "double-blank-25", "tie_rule": "lowest-seat", "match_length": "full",
    },
    "hand_sizes": {str(k): v for k, v in HAND_TABLE.items()},
}


def handle(req: dict[str, Any]) -> dict[str, Any]:
    kind = req.get("type")
    if kind == "hello":
        if req.get("protocol") != 1:
            raise ServerError("protocol-version", "layover speaks protocol 1")
        return {"protocol": 1, "name": "layover", "version": "3.4.1", "rules": HELLO_RULES}
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
    if sys.argv[1:2] == ["--fixed"] and len(sys.argv) > 2:
        FIXED.update(sys.argv[2].split(","))
    serve()
