"""Semaphore: Mexican Train on a double-18 set for 3 to 6 players, as a model-railway club
plays it on its layout nights (a blocked train waits at the semaphore), written
from docs/implementers-guide.md and docs/protocol.md alone, as an in-process Python
adapter (`--adapter`). Its author's bot has a data model of its own: a `Tile` (a frozen
pair, high end first), a `Line` (a train: its tiles in the order laid, each turned to
match, and its marker), a `Seat` (a hand and a line) and a `Yard` (the whole round);
the JSON forms are made at the boundary, in `yard_of` and `Yard.to_json`.

Rules it plays (its rule-set file: tests/examples/semaphore-rules.yaml; its `info()`
declares the same):
- a double-18 set (190 tiles); the engine is set aside before the deal (`set-aside`);
  round r starts at seat (r - 1) mod n (`rotate`);
- HOUSE RULE, a hand table of its own for 3 to 6 players (never 2: the club plays three
  or more): 3 players 20, 4 players 18, 5 players 16, 6 players 14;
- one tile a turn from the start (`single`), anyone may open the Mexican Train
  (`anyone`), nobody must start their own train first (`not-required`);
- open doubles (`open`): the tile after a double goes anywhere the player may play
  (`anywhere`), several open doubles are covered oldest first (`oldest-first`), a double
  nobody can cover any more is released (`released`); a marker comes off when its owner
  plays on their own train (`owner-plays-own`);
- a player who cannot play draws one tile (`draw-one`); the round is blocked after a
  full round of passes on an empty boneyard (`full-round-of-passes`);
- HOUSE RULE no value describes (`scoring: other`, "the signal charge"): each player
  scores the value of the tiles left in hand, the player who went out 0, as penalty
  scoring does; but a round that ends blocked charges every hand twice its value.
  The lowest match total wins;
- HOUSE RULE no value describes (`blank_values: other`, "a blank is a full siding"):
  each blank end is worth 18, the set's highest number, so [0-0] is worth 36 and [5-0]
  23; every other end its pips;
- HOUSE RULE no value describes (`tie_rule: other`, "the last round decides"): among
  the players on the lowest total, the one who scored least in the last round wins; if
  that is equal too, they share the win;
- a full match: 19 rounds, [18-18] down to [0-0].

Planted bugs (what the suite must find), written before any suite command ran on it,
each with the clause it breaks:
1. "mexican-draw": a player whose only legal plays are on the Mexican Train is also
   offered a draw (and a draw asked for there is accepted): the must-play check looks at
   the trains with a seat number only (TURN-1);
2. "foreign-tile": a play is accepted if the tile is in any player's hand, not only the
   mover's: the tile moves from whoever holds it onto the train (TURN-7);
3. "double-double" (subtle: two doubles in one turn are rare): a double laid as the
   tile after a double of the same turn ends the turn, as a plain tile would; both stay
   open and the next player must cover the older (DBL-1).

Found by the runs (nothing in the engine; in the suite, each fixed with a test). With the
bugs off, 1,102 results ran and none failed, 79 not applicable: 68 its scoring (with its
blank values in 28, its tie rule in 11), 8 tables its rules never reach, 3 its table; a
fixture that ends a round was not applicable as a whole, its last step and state with
it: now they run without what the end is worth (1,169 results, 12 not applicable). With
them on: bug 1 failed 70 results, bug 2 3, bug 3 8, each charged to its clause alone
(TURN-1, TURN-7, DBL-1). Fuzz found bugs 1 and 3 (one finding each, shrunk) but never
offered a tile another seat holds, so not bug 2: it does now, every few steps; and it
judged nothing of a step that ended a round under its own scoring (a going out left
uncounted passed), nor did a replay leave its totals out (charged to SCORE-5). Identify,
bugs on and off: nothing sure and wrong, its three `other` kept (scoring and blank
values "no fixture tells its values apart", which is not so: it never weighed them).
Now each is weighed with the rest known (scoring 8 fixtures against penalty, blank
values 5 against blank-25), its rival the same every run, its tie rule `other` (not
"contradicted": a house rule agrees with most-outs on some tables), and bug 1's
failures are named by TURN-1, the clause they break (run.py, observe.py).

Its refusals name a clause where one says why. All bugs are on in `Semaphore`; `Fixed`
switches them off (`Semaphore(fixed={1})` one).

    mtrain conform --adapter tests/examples/semaphore_engine.py:Fixed \\
        --rules tests/examples/semaphore-rules.yaml
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mtrain.conformance.adapter import JSON, Implementation, Refused, RefusedSetup, Unsupported

TOP = 18
ROUNDS = TOP + 1  # MATCH-1: [18-18] down to [0-0]
SIZES = {3: 20, 4: 18, 5: 16, 6: 14}  # HOUSE RULE: a table of its own
BLANK = TOP  # HOUSE RULE (blank_values: other): a blank end is worth the set's top
BUGS = {1: "mexican-draw", 2: "foreign-tile", 3: "double-double"}

RULES: JSON = {
    "name": "semaphore",
    "options": {
        "tile_set": "double-18", "hand_sizes": "custom", "engine_procedure": "set-aside",
        "starting_seat": "rotate", "first_turn": "single", "mexican_first_turn": "anyone",
        "own_train_first": "not-required", "doubles": "open", "follow_up": "anywhere",
        "double_order": "oldest-first", "uncoverable_double": "released",
        "marker_removal": "owner-plays-own", "draw_rule": "draw-one",
        "blocked_round": "full-round-of-passes", "scoring": "other",
        "blank_values": "other", "tie_rule": "other", "match_length": "full",
    },
    "hand_sizes": {str(k): v for k, v in SIZES.items()},
}


# --- the bot's own model -------------------------------------------------------------------

@dataclass(frozen=True, order=True)
class Tile:
    high: int
    low: int

    @staticmethod
    def parse(text: Any) -> Tile:
        if not isinstance(text, str) or text.count("-") != 1:
            raise ValueError(f"not a tile: {text!r}")
        a, b = (int(x) for x in text.split("-"))
        if not (0 <= a <= TOP and 0 <= b <= TOP):
            raise Unsupported(f"{text} is not a tile of a double-{TOP} set")
        return Tile(max(a, b), min(a, b))

    def __str__(self) -> str:
        return f"{self.high}-{self.low}"

    @property
    def double(self) -> bool:
        return self.high == self.low

    def bears(self, n: int) -> bool:
        return n in (self.high, self.low)

    def far(self, near: int) -> int:
        return self.low if self.high == near else self.high

    def worth(self) -> int:
        # HOUSE RULE (blank_values: other): a blank end counts 18; SCORE-1 otherwise
        return sum(BLANK if end == 0 else end for end in (self.high, self.low))


SET = frozenset(Tile(a, b) for a in range(TOP + 1) for b in range(a + 1))


@dataclass
class Line:
    """A train: the engine's number, then each tile as laid (near end first)."""
    start: int
    laid: list[tuple[int, int]] = field(default_factory=list)
    marker: bool = False

    @property
    def end(self) -> int:
        return self.laid[-1][1] if self.laid else self.start

    def lay(self, tile: Tile) -> None:
        near = self.end
        self.laid.append((near, tile.far(near)))  # TRAIN-2: the matching end first

    def tiles(self) -> set[Tile]:
        return {Tile(max(a, b), min(a, b)) for a, b in self.laid}


@dataclass
class Seat:
    hand: list[Tile]
    line: Line


MEX = "mexican"
Where = int | str  # a seat number, or MEX


@dataclass
class Yard:
    round: int
    players: list[Seat]
    mexican: Line
    boneyard: list[Tile]
    to_move: int
    starter: int
    phase: str
    open_doubles: list[Where]
    turn_doubles: list[Where]
    drawn: Tile | None
    first_turns: list[int]
    passes: int
    totals: list[int]
    outs: list[int]
    result: JSON | None
    bugs: frozenset[int]

    @property
    def engine(self) -> int:
        return TOP - (self.round - 1)  # ENG-1

    def line(self, where: Where) -> Line:
        return self.mexican if where == MEX else self.players[int(where)].line

    def everywhere(self) -> list[Where]:
        return [*range(len(self.players)), MEX]

    def laid(self) -> set[Tile]:
        out = {Tile(self.engine, self.engine)}
        for w in self.everywhere():
            out |= self.line(w).tiles()
        return out

    def released(self, where: Where) -> bool:
        """DBL-9: every tile bearing the double's number is on the table."""
        n = self.line(where).end
        laid = self.laid()
        return all(t in laid for t in SET if t.bears(n))

    def binding(self) -> list[Where]:
        """Open doubles of earlier turns that still bind, oldest first (DBL-6, DBL-9)."""
        return [w for w in self.open_doubles
                if w not in self.turn_doubles and not self.released(w)]

    def open_to(self, seat: int) -> list[Where]:
        binding = self.binding()
        if binding:
            return binding[:1]  # DBL-6, DBL-7: the oldest binding double alone
        return [w for w in self.everywhere()  # TRAIN-4, TRAIN-6
                if w in (seat, MEX) or w in self.turn_doubles
                or (w != MEX and self.players[int(w)].line.marker)]

    def fits(self, seat: int, tiles: list[Tile]) -> list[tuple[Tile, Where]]:
        return [(t, w) for w in self.open_to(seat) for t in sorted(tiles, reverse=True)
                if t.bears(self.line(w).end)]

    def choices(self) -> list[tuple[Tile, Where]]:
        seat = self.players[self.to_move]
        return self.fits(self.to_move, seat.hand if self.drawn is None else [self.drawn])

    # --- to the wire ---------------------------------------------------------------------

    def to_json(self) -> JSON:
        def line_json(line: Line) -> JSON:
            return {"tiles": [f"{a}-{b}" for a, b in line.laid], "end": line.end}
        return {
            "round": self.round, "engine": self.engine, "engine_placed": True,
            "phase": self.phase, "seat": self.to_move, "starter": self.starter,
            "hands": [[str(t) for t in s.hand] for s in self.players],
            "boneyard": [str(t) for t in self.boneyard],
            "trains": [{**line_json(s.line), "marker": s.line.marker} for s in self.players],
            "mexican": line_json(self.mexican),
            "open_doubles": list(self.open_doubles), "turn_doubles": list(self.turn_doubles),
            "drawn": None if self.drawn is None else str(self.drawn),
            "first_turns": list(self.first_turns), "passes": self.passes,
            "scores": list(self.totals), "outs": list(self.outs), "result": self.result,
        }


# --- from the wire -------------------------------------------------------------------------

def where_of(value: Any, players: int) -> Where:
    if value == MEX:
        return MEX
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < players:
        return value
    raise Refused(f"there is no train {value!r} at this table", "TRAIN-1")


def line_of(engine: int, train: JSON, marker: bool = False) -> Line:
    line = Line(engine, marker=marker)
    for text in train["tiles"]:
        tile = Tile.parse(text)
        if not tile.bears(line.end):
            raise ValueError(f"train tile {text} does not follow {line.end}")
        line.lay(tile)
    return line


def yard_of(state: JSON, bugs: frozenset[int]) -> Yard:
    n = len(state["hands"])
    if n not in SIZES:
        raise RefusedSetup(f"semaphore is played by 3 to 6 players, not {n}", "DEAL-7")
    if state["phase"] not in ("start", "follow", "over") or not state["engine_placed"]:
        raise Unsupported(f"no {state['phase']} phase in a one-tile-a-turn game")
    rnd = state["round"]
    if not 1 <= rnd <= ROUNDS or state["engine"] != TOP - (rnd - 1):
        raise Unsupported(f"round {rnd} with engine {state['engine']} is not of a "
                          f"double-{TOP} match")
    engine = state["engine"]
    seats = [Seat([Tile.parse(t) for t in hand], line_of(engine, tr, bool(tr["marker"])))
             for hand, tr in zip(state["hands"], state["trains"], strict=True)]
    y = Yard(
        round=rnd, players=seats, mexican=line_of(engine, state["mexican"]),
        boneyard=[Tile.parse(t) for t in state["boneyard"]], to_move=state["seat"],
        starter=state["starter"], phase=state["phase"],
        open_doubles=[where_of(w, n) for w in state["open_doubles"]],
        turn_doubles=[where_of(w, n) for w in state["turn_doubles"]],
        drawn=None if state["drawn"] is None else Tile.parse(state["drawn"]),
        first_turns=list(state["first_turns"]), passes=state["passes"],
        totals=list(state["scores"]), outs=list(state["outs"]), result=state["result"],
        bugs=bugs)
    every = y.laid() | set(y.boneyard)
    for s in seats:
        every |= set(s.hand)
    if every != SET:
        raise Unsupported(f"this table is not a whole double-{TOP} set")
    return y


# --- the rules -----------------------------------------------------------------------------

def legal(y: Yard) -> list[tuple[str, Tile | None, Where | None]]:
    if y.phase == "over":
        return []
    plays: list[tuple[str, Tile | None, Where | None]] = [
        ("play", t, w) for t, w in y.choices()]
    if y.drawn is not None:
        return plays or [("pass", None, None)]  # TURN-3, else TURN-4
    if plays:
        if 1 in y.bugs and y.boneyard and all(w == MEX for _, _, w in plays):
            # BUG 1 (mexican-draw): the must-play check reads the seats' trains only (TURN-1)
            return [*plays, ("draw", None, None)]
        return plays  # TURN-1: must play
    return [("draw", None, None)] if y.boneyard else [("pass", None, None)]  # TURN-2, TURN-4


def refusal(y: Yard, kind: str, tile: Tile | None, where: Where | None) -> Refused | None:
    if y.phase == "over":
        return Refused("the round is over", "END-1")
    if kind == "end-chain":
        return Refused("there are no first-turn chains: one tile a turn", "FIRST-7")
    if kind in ("draw", "pass"):
        allowed = legal(y)
        if (kind, None, None) in allowed:
            return None
        if any(a[0] == "play" for a in allowed):
            return Refused("a tile can be played", "TURN-1")
        if kind == "draw":
            why = "one draw a turn" if y.drawn is not None else "the boneyard is empty: pass"
            return Refused(why, "TURN-2" if y.drawn is not None else "TURN-4")
        return Refused("draw from the boneyard first", "TURN-2")
    assert tile is not None and where is not None
    mover = y.players[y.to_move]
    if tile not in mover.hand:
        holders = [s for s in y.players if tile in s.hand]
        if not (2 in y.bugs and holders):
            # BUG 2 (foreign-tile) skips this for a tile some other seat holds (TURN-7)
            return Refused(f"seat {y.to_move} does not hold {tile}", "TURN-7")
    end = y.line(where).end
    if not tile.bears(end):
        return Refused(f"{tile} does not match the open end {end}", "TRAIN-2")
    if y.drawn is not None and tile != y.drawn:
        return Refused(f"only the drawn tile {y.drawn} may be played", "TURN-3")
    binding = y.binding()
    if binding:
        if where == binding[0]:
            return None
        if where in binding:
            return Refused("the oldest open double is covered first", "DBL-7")
        return Refused("an open double must be covered first", "DBL-6")
    if where not in y.open_to(y.to_move):
        return Refused(f"seat {where}'s train carries no marker", "TRAIN-4")
    return None


def next_turn(y: Yard) -> None:
    if y.to_move in y.first_turns:
        y.first_turns.remove(y.to_move)  # FIRST-6
    y.turn_doubles, y.drawn, y.phase = [], None, "start"
    y.to_move = (y.to_move + 1) % len(y.players)  # TURN-6, SEAT-1


def charges(y: Yard, blocked: bool) -> list[int]:
    """HOUSE RULE (scoring: other): each hand's value (SCORE-5), twice in a blocked round."""
    return [sum(t.worth() for t in s.hand) * (2 if blocked else 1) for s in y.players]


def close(y: Yard, winner: int | None) -> None:
    scores = charges(y, winner is None)
    y.phase, y.turn_doubles, y.drawn = "over", [], None
    y.result = {"end": "blocked" if winner is None else "domino", "winner": winner,
                "scores": scores}
    y.totals = [a + b for a, b in zip(y.totals, scores, strict=True)]  # MATCH-1
    if winner is not None:
        y.outs[winner] += 1


def perform(y: Yard, kind: str, tile: Tile | None, where: Where | None) -> None:
    seat = y.players[y.to_move]
    if kind == "draw":
        y.drawn = y.boneyard.pop(0)  # TURN-2: the boneyard's first tile
        seat.hand.append(y.drawn)
        return
    if kind == "pass":
        seat.line.marker = True  # TURN-4, MARK-1
        if not y.boneyard:
            y.passes += 1
            if y.passes >= len(y.players):
                close(y, None)  # END-3
                return
        next_turn(y)
        return
    assert tile is not None and where is not None
    holder = seat if tile in seat.hand else next(s for s in y.players if tile in s.hand)
    holder.hand.remove(tile)
    y.line(where).lay(tile)
    if where == y.to_move:
        seat.line.marker = False  # MARK-3
    if where in y.open_doubles:
        y.open_doubles.remove(where)  # covered
        if where in y.turn_doubles:
            y.turn_doubles.remove(where)
    follows_double = bool(y.turn_doubles)
    y.drawn, y.passes = None, 0
    if tile.double:
        y.open_doubles.append(where)  # DBL-1: another tile is due
        y.turn_doubles.append(where)
    if not seat.hand:
        close(y, y.to_move)  # END-1, even on a double
    elif tile.double and 3 in y.bugs and follows_double:
        # BUG 3 (double-double): a second double of the turn ends it (DBL-1)
        next_turn(y)
    elif tile.double:
        y.phase = "follow"
    else:
        next_turn(y)


def action_of(action: JSON, players: int) -> tuple[str, Tile | None, Where | None]:
    kind = action.get("type")
    if kind in ("draw", "pass", "end-chain"):
        return kind, None, None
    if kind != "play":
        raise ValueError(f"not an action: {action!r}")
    return "play", Tile.parse(action["tile"]), where_of(action["train"], players)


# --- the adapter ---------------------------------------------------------------------------

class Semaphore(Implementation):
    """The engine with its planted bugs on (those not in `fixed`)."""

    def __init__(self, fixed: frozenset[int] | set[int] = frozenset()) -> None:
        self.bugs = frozenset(BUGS) - frozenset(fixed)

    def info(self) -> JSON:
        return {"name": "semaphore", "version": "1.0", "rules": RULES}

    def deal(self, ruleset: JSON, players: int, round: int, order: list[str]) -> JSON:
        if players not in SIZES:
            raise RefusedSetup(f"semaphore is played by 3 to 6 players, not {players}", "DEAL-7")
        if not 1 <= round <= ROUNDS:
            raise RefusedSetup(f"a double-{TOP} match has rounds 1 to {ROUNDS}", "MATCH-1")
        engine = TOP - (round - 1)
        pool = [Tile.parse(x) for x in order]
        if sorted(pool) != sorted(SET - {Tile(engine, engine)}):
            raise Unsupported(f"the pool is not a double-{TOP} set without its engine")
        k = SIZES[players]
        start = (round - 1) % players  # SEAT-3
        y = Yard(round=round,
                 players=[Seat(pool[p * k:(p + 1) * k], Line(engine)) for p in range(players)],
                 mexican=Line(engine), boneyard=pool[players * k:], to_move=start,
                 starter=start, phase="start", open_doubles=[], turn_doubles=[], drawn=None,
                 first_turns=list(range(players)), passes=0, totals=[0] * players,
                 outs=[0] * players, result=None, bugs=self.bugs)
        return y.to_json()

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        y = yard_of(state, self.bugs)
        return [self._action_json(a) for a in legal(y)]

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        y = yard_of(state, self.bugs)
        kind, tile, where = action_of(action, len(y.players))
        refused = refusal(y, kind, tile, where)
        if refused is not None:
            raise refused
        perform(y, kind, tile, where)
        return y.to_json()

    def score(self, ruleset: JSON, state: JSON, winner: int | None) -> list[int]:
        y = yard_of(state, self.bugs)
        if winner is not None and (not 0 <= winner < len(y.players)
                                   or y.players[winner].hand):
            raise ValueError(f"seat {winner} did not go out (its hand is not empty)")
        return charges(y, winner is None)

    def winners(self, ruleset: JSON, state: JSON) -> list[int]:
        y = yard_of(state, self.bugs)
        if y.phase != "over" or y.round < ROUNDS:
            return []
        low = min(y.totals)  # MATCH-2: the lowest total
        tied = [s for s, total in enumerate(y.totals) if total == low]
        if len(tied) > 1 and y.result is not None:
            # HOUSE RULE (tie_rule: other): the least scored in the last round wins
            last = y.result["scores"]
            least = min(last[s] for s in tied)
            tied = [s for s in tied if last[s] == least]
        return tied

    @staticmethod
    def _action_json(a: tuple[str, Tile | None, Where | None]) -> JSON:
        kind, tile, where = a
        if kind != "play":
            return {"type": kind}
        return {"type": "play", "tile": str(tile), "train": where}


class Fixed(Semaphore):
    """The engine with its planted bugs switched off."""

    def __init__(self) -> None:
        super().__init__(fixed=set(BUGS))
