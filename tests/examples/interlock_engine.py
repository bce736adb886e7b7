"""Interlock: Mexican Train on a double-8 set for 2 to 5 players, as a signal box's crew
plays it at the mess table (a train runs only when the interlocking frees its road),
written from docs/implementers-guide.md and docs/protocol.md alone, as an in-process
Python adapter (`--adapter`) around a bot that keeps state of its own between calls.

The bot (`Game`) is an object that plays a round: `legal_moves()`, `play(move)`, and
`snapshot()` for the wire. The adapter (`Interlock`) remembers every game it has handed
out, by the exact JSON it wrote: a request on a state it wrote itself goes on from its
own object (a copy), as a bot at a real table carries its game from move to move; any
other state is read from the wire into a new `Game`, at the edge (`game_of`).

Rules it plays (its rule-set file: tests/examples/interlock-rules.yaml; its `info()`
declares the same):
- a double-8 set (45 tiles, numbers 0 to 8: SET-7); the engine is set aside before the
  deal (`set-aside`); round r starts at seat (r - 1) mod n (`rotate`); nine rounds,
  [8-8] down to [0-0] (`full`);
- HOUSE RULE, a hand table of its own: 2 players 11, 3 players 9, 4 players 8,
  5 players 7;
- one tile a turn from the start (`single`), anyone may open the Mexican Train
  (`anyone`), nobody must start their own train first (`not-required`);
- open doubles (`open`): the tile after a double goes anywhere the player may play
  (`anywhere`), several binding doubles are covered oldest first (`oldest-first`);
- a player who cannot play draws one tile (`draw-one`); penalty scoring at face value,
  lowest total wins, equal totals share the win;
- HOUSE RULE no value describes (`uncoverable_double: other`, "the dry siding"): an open
  double of an earlier turn binds (closes every other train, DBL-6) only while the
  boneyard still holds a tile bearing its number; once none is left there, it binds
  nobody, even if a hand holds a cover (its train is then open as in an ordinary turn,
  and anyone who may use that train may still cover it). So with the boneyard empty
  no double binds;
- HOUSE RULE no value describes (`marker_removal: other`, "the road is cleared"): a
  marker comes off when its owner plays on their own train, and also when anyone covers
  an open double on that train;
- HOUSE RULE no value describes (`blocked_round: other`, "every signal at danger"): with
  the boneyard empty, the round ends blocked at the end of any turn after which every
  personal train carries its marker, whether or not someone could still play.

Planted bugs (what the suite must find), written before any suite command ran on it,
each with the clause it breaks:
1. "mexican-index" (TRAIN-1): the bot keeps its trains in one list, the Mexican Train
   last, so a play on train n (one past the last seat) is taken as a play on the
   Mexican Train instead of being refused: the table has no such train;
2. "drawn-last" (TURN-3): after a draw the bot takes the drawn tile to be the last tile
   of the hand as the state lists it, not the state's `drawn`: where the drawn tile is
   listed elsewhere in the hand, it offers (and accepts) another tile and not the drawn
   one;
3. "first-double-pass" (FIRST-6; subtle: a double on a first turn needs a train already
   open at that number, and then a follow-up that fails): a player who lays a double on
   their first turn and then passes, unable to follow it, keeps their first turn: their
   seat stays in `first_turns`.

Found by the runs (nothing in the engine; in the suite, each fixed with a test). No
rule-set file could name a double-8 set, nor could identify place an engine that deals
one (tile_set has a value double-8 now, SET-7, with an example file and fixtures). With
the bugs off, 954 results ran and none failed (10 not applicable: 5 its uncoverable
double, 2 its marker rule, 2 tables its rules never reach, 1 its table); 933 of them are
situations from play, since few fixtures are written for a double-8 table. With them
on: bug 2 failed 32 results, 30 charged to TURN-3 and 2 to TRAIN-4 (the drawn tile's
only plays on marked trains: the table cannot tell it from those trains kept closed);
bugs 1 and 3 failed nothing (first-026, the one fixture with a play on a train the table
lacks, is on double-9). Fuzz never offered such a play, so it could not find bug 1: it
does now, every few steps (one finding, shrunk); it finds bug 3 in 12 games (seed 1),
and bug 2 as three findings (missing plays under TURN-3 or TRAIN-4, and a refusal citing
TURN-3 where the rules cite TRAIN-4). Identify (bugs on): every option right, nothing
sure and wrong, the set and table measured; its three `other` kept as declared, but
uncoverable_double "no fixture tells it from stays-open", while sets-048 and sets-049
show the engine releasing a double where stays-open binds (left open).

Its refusals name a clause where one says why. All bugs are on in `Interlock`; `Fixed`
switches them off (`Interlock(fixed={1})` one).

    mtrain conform --adapter tests/examples/interlock_engine.py:Fixed \\
        --rules tests/examples/interlock-rules.yaml
"""

from __future__ import annotations

import copy
import json
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from mtrain.conformance.adapter import JSON, Implementation, Refused, RefusedSetup, Unsupported

TOP = 8  # SET-7: a double-8 set
ROUNDS = TOP + 1  # MATCH-1: [8-8] down to [0-0]
SIZES = {2: 11, 3: 9, 4: 8, 5: 7}  # HOUSE RULE: a table of its own
BUGS = {1: "mexican-index", 2: "drawn-last", 3: "first-double-pass"}
MEX = "mexican"
REMEMBERED = 512  # games the adapter keeps, by the JSON it wrote

RULES: JSON = {
    "name": "interlock",
    "options": {
        "tile_set": "double-8", "hand_sizes": "custom", "engine_procedure": "set-aside",
        "starting_seat": "rotate", "first_turn": "single", "mexican_first_turn": "anyone",
        "own_train_first": "not-required", "doubles": "open", "follow_up": "anywhere",
        "double_order": "oldest-first", "uncoverable_double": "other",
        "marker_removal": "other", "draw_rule": "draw-one", "blocked_round": "other",
        "scoring": "penalty", "blank_values": "face", "tie_rule": "shared",
        "match_length": "full",
    },
    "hand_sizes": {str(k): v for k, v in SIZES.items()},
}

Tile = tuple[int, int]  # (high, low)
Move = tuple[str, Tile | None, int | None]  # kind, tile, train (the Mexican Train: n)


def parse(text: Any) -> Tile:
    if not isinstance(text, str) or text.count("-") != 1:
        raise ValueError(f"not a tile: {text!r}")
    a, b = (int(x) for x in text.split("-"))
    if not (0 <= a <= TOP and 0 <= b <= TOP):
        raise Refused(f"{text} is not a tile of a double-{TOP} set", "SET-1")
    return (max(a, b), min(a, b))


def name(t: Tile) -> str:
    return f"{t[0]}-{t[1]}"


SET = frozenset((a, b) for a in range(TOP + 1) for b in range(a + 1))


@dataclass
class Game:
    """The bot's round. `lines[s]` is seat s's train, `lines[n]` the Mexican Train; a
    line is its tiles as laid, near end first (TRAIN-2)."""
    round: int
    hands: list[list[Tile]]
    lines: list[list[tuple[int, int]]]
    markers: list[bool]
    boneyard: list[Tile]
    seat: int
    starter: int
    phase: str = "start"
    open_doubles: list[int] = field(default_factory=list)
    turn_doubles: list[int] = field(default_factory=list)
    drawn: Tile | None = None
    first_turns: list[int] = field(default_factory=list)
    passes: int = 0
    totals: list[int] = field(default_factory=list)
    outs: list[int] = field(default_factory=list)
    result: JSON | None = None
    bugs: frozenset[int] = frozenset()

    @property
    def n(self) -> int:
        return len(self.hands)

    @property
    def engine(self) -> int:
        return TOP - (self.round - 1)  # ENG-1

    def end(self, line: int) -> int:
        laid = self.lines[line]
        return laid[-1][1] if laid else self.engine

    def binds(self, line: int) -> bool:
        """HOUSE RULE (uncoverable_double: other): a double of an earlier turn binds only
        while the boneyard holds a tile bearing its number."""
        number = self.end(line)
        return line not in self.turn_doubles and any(number in t for t in self.boneyard)

    def roads(self) -> list[int]:
        """The trains the player to move may use now."""
        binding = [w for w in self.open_doubles if self.binds(w)]
        if binding:
            return binding[:1]  # DBL-6, DBL-7: the oldest binding double alone
        return [w for w in range(self.n + 1)  # TRAIN-4, MARK-1, DBL-2
                if w in (self.seat, self.n) or self.markers[w] or w in self.turn_doubles]

    def candidates(self) -> list[Tile]:
        hand = self.hands[self.seat]
        if self.drawn is None:
            return hand
        if 2 in self.bugs:
            return hand[-1:]  # BUG 2 (drawn-last): the hand's last tile taken as drawn
        return [self.drawn]  # TURN-3: only the drawn tile

    def legal_moves(self) -> list[Move]:
        if self.phase == "over":
            return []
        plays: list[Move] = [("play", t, w) for w in self.roads()
                             for t in self.candidates() if self.end(w) in t]
        if plays:
            return plays  # TURN-1, TURN-3: must play
        if self.drawn is None and self.boneyard:
            return [("draw", None, None)]  # TURN-2, DBL-5
        return [("pass", None, None)]  # TURN-4

    def refusal(self, move: Move) -> Refused | None:
        kind, tile, where = move
        if self.phase == "over":
            return Refused("the round is over", "END-1")
        if kind == "end-chain":
            return Refused("one tile a turn: there are no first-turn chains", "FIRST-7")
        legal = self.legal_moves()
        if kind in ("draw", "pass"):
            if move in legal:
                return None
            if any(m[0] == "play" for m in legal):
                return Refused("a tile can be played", "TURN-1")
            if kind == "draw":
                if self.drawn is not None:
                    return Refused("one draw a turn", "TURN-2")
                return Refused("the boneyard is empty: pass", "TURN-4")
            return Refused("draw from the boneyard first", "TURN-2")
        assert tile is not None and where is not None
        if tile not in self.hands[self.seat]:
            return Refused(f"seat {self.seat} does not hold {name(tile)}", "TURN-7")
        if self.end(where) not in tile:
            return Refused(f"{name(tile)} does not match the open end {self.end(where)}",
                           "TRAIN-2")
        if self.drawn is not None and tile not in self.candidates():
            return Refused("only the tile just drawn may be played", "TURN-3")
        if move in legal:
            return None
        binding = [w for w in self.open_doubles if self.binds(w)]
        if where < self.n and where != self.seat and not self.markers[where] and (
                where not in binding and where not in self.turn_doubles):
            return Refused(f"seat {where}'s train carries no marker", "TRAIN-4")
        if where in binding:
            return Refused("the oldest open double is covered first", "DBL-7")
        if binding:
            return Refused("an open double must be covered first", "DBL-6")
        return Refused(f"seat {where}'s train carries no marker", "TRAIN-4")

    def play(self, move: Move) -> None:
        kind, tile, where = move
        hand = self.hands[self.seat]
        if kind == "draw":
            self.drawn = self.boneyard.pop(0)  # TURN-2: the boneyard's first tile
            hand.append(self.drawn)
            return
        if kind == "pass":
            self.markers[self.seat] = True  # TURN-4, MARK-1
            if not self.boneyard:
                self.passes += 1
            keep_first = 3 in self.bugs and bool(self.turn_doubles)
            self._end_turn(keep_first)
            return
        assert tile is not None and where is not None
        hand.remove(tile)
        near = self.end(where)
        self.lines[where].append((near, tile[1] if tile[0] == near else tile[0]))
        covered = where in self.open_doubles
        if where == self.seat:
            self.markers[where] = False  # MARK-3: the owner plays on their train
        if covered:
            self.open_doubles.remove(where)
            if where in self.turn_doubles:
                self.turn_doubles.remove(where)
            if where < self.n:
                self.markers[where] = False  # HOUSE RULE (marker_removal): a cover clears it
        self.drawn, self.passes = None, 0
        if tile[0] == tile[1]:
            self.open_doubles.append(where)  # DBL-1: another tile is due
            self.turn_doubles.append(where)
        if not hand:
            self._close(self.seat)  # END-1, even on a double
        elif tile[0] == tile[1]:
            self.phase = "follow"
        else:
            self._end_turn()

    def _end_turn(self, keep_first: bool = False) -> None:
        if self.seat in self.first_turns and not keep_first:
            self.first_turns.remove(self.seat)  # FIRST-6
        # BUG 3 (first-double-pass): with keep_first, a first turn failed after a double
        self.turn_doubles, self.drawn, self.phase = [], None, "start"
        self.seat = (self.seat + 1) % self.n  # TURN-6, SEAT-1
        if not self.boneyard and all(self.markers):
            self._close(None)  # HOUSE RULE (blocked_round: other): every signal at danger

    def score(self, winner: int | None) -> list[int]:
        """SCORE-5, SCORE-1: each hand's pips; the player who went out 0."""
        return [0 if s == winner else sum(a + b for a, b in hand)
                for s, hand in enumerate(self.hands)]

    def _close(self, winner: int | None) -> None:
        scores = self.score(winner)
        self.phase, self.turn_doubles, self.drawn = "over", [], None
        self.result = {"end": "blocked" if winner is None else "domino", "winner": winner,
                       "scores": scores}
        self.totals = [a + b for a, b in zip(self.totals, scores, strict=True)]  # MATCH-1
        if winner is not None:
            self.outs[winner] += 1

    def snapshot(self) -> JSON:
        def where(w: int) -> int | str:
            return MEX if w == self.n else w

        def tiles(w: int) -> list[str]:
            return [f"{a}-{b}" for a, b in self.lines[w]]
        return {
            "round": self.round, "engine": self.engine, "engine_placed": True,
            "phase": self.phase, "seat": self.seat, "starter": self.starter,
            "hands": [[name(t) for t in hand] for hand in self.hands],
            "boneyard": [name(t) for t in self.boneyard],
            "trains": [{"tiles": tiles(s), "end": self.end(s), "marker": self.markers[s]}
                       for s in range(self.n)],
            "mexican": {"tiles": tiles(self.n), "end": self.end(self.n)},
            "open_doubles": [where(w) for w in self.open_doubles],
            "turn_doubles": [where(w) for w in self.turn_doubles],
            "drawn": None if self.drawn is None else name(self.drawn),
            "first_turns": list(self.first_turns), "passes": self.passes,
            "scores": list(self.totals), "outs": list(self.outs), "result": self.result,
        }


# --- the edge: the wire's forms to the bot's and back ----------------------------------------

def line_index(value: Any, n: int) -> int:
    if value == MEX:
        return n
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= n:
        return value  # n itself: BUG 1 reads it as the Mexican Train; else refused
    raise Refused(f"there is no train {value!r} at this table", "TRAIN-1")


def laid(engine: int, tiles: list[str]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    end = engine
    for text in tiles:
        t = parse(text)
        if end not in t:
            raise ValueError(f"train tile {text} does not follow {end}")
        far = t[1] if t[0] == end else t[0]
        out.append((end, far))
        end = far
    return out


def game_of(state: JSON, bugs: frozenset[int]) -> Game:
    n = len(state["hands"])
    if n not in SIZES:
        raise RefusedSetup(f"interlock is played by 2 to 5 players, not {n}", "DEAL-7")
    if state["phase"] not in ("start", "follow", "over") or not state["engine_placed"]:
        raise Unsupported(f"no {state['phase']} phase in a one-tile-a-turn game")
    rnd = state["round"]
    if not 1 <= rnd <= ROUNDS or state["engine"] != TOP - (rnd - 1):
        raise Unsupported(f"round {rnd} with engine {state['engine']} is not of a "
                          f"double-{TOP} match")
    engine = state["engine"]
    g = Game(
        round=rnd, hands=[[parse(t) for t in hand] for hand in state["hands"]],
        lines=[*(laid(engine, tr["tiles"]) for tr in state["trains"]),
               laid(engine, state["mexican"]["tiles"])],
        markers=[bool(tr["marker"]) for tr in state["trains"]],
        boneyard=[parse(t) for t in state["boneyard"]], seat=state["seat"],
        starter=state["starter"], phase=state["phase"],
        open_doubles=[line_index(w, n) for w in state["open_doubles"]],
        turn_doubles=[line_index(w, n) for w in state["turn_doubles"]],
        drawn=None if state["drawn"] is None else parse(state["drawn"]),
        first_turns=list(state["first_turns"]), passes=state["passes"],
        totals=list(state["scores"]), outs=list(state["outs"]), result=state["result"],
        bugs=bugs)
    every = {(max(a, b), min(a, b)) for line in g.lines for a, b in line}
    every |= {(engine, engine)} | set(g.boneyard)
    for hand in g.hands:
        every |= set(hand)
    if every != SET:
        raise Unsupported(f"this table is not a whole double-{TOP} set")
    return g


def move_of(action: JSON, n: int, bugs: frozenset[int]) -> Move:
    kind = action.get("type")
    if kind in ("draw", "pass", "end-chain"):
        return kind, None, None
    if kind != "play":
        raise ValueError(f"not an action: {action!r}")
    train = action["train"]
    if train == n and not isinstance(train, bool) and 1 not in bugs:
        # TRAIN-1: seats 0 to n-1 and "mexican"; BUG 1 (mexican-index) skips this
        raise Refused(f"there is no train {train} at this table", "TRAIN-1")
    return "play", parse(action["tile"]), line_index(train, n)


def action_json(move: Move, n: int) -> JSON:
    kind, tile, where = move
    if kind != "play":
        return {"type": kind}
    assert tile is not None and where is not None
    return {"type": "play", "tile": name(tile), "train": MEX if where == n else where}


def key(state: JSON) -> str:
    return json.dumps(state, sort_keys=True, separators=(",", ":"))


# --- the adapter ---------------------------------------------------------------------------

class Interlock(Implementation):
    """The engine with its planted bugs on (those not in `fixed`)."""

    def __init__(self, fixed: frozenset[int] | set[int] = frozenset()) -> None:
        self.bugs = frozenset(BUGS) - frozenset(fixed)
        self.games: OrderedDict[str, Game] = OrderedDict()  # the games it handed out

    def _remember(self, g: Game) -> JSON:
        out = g.snapshot()
        self.games[key(out)] = copy.deepcopy(g)
        while len(self.games) > REMEMBERED:
            self.games.popitem(last=False)
        return out

    def _game(self, state: JSON) -> Game:
        known = self.games.get(key(state))
        if known is not None:
            return copy.deepcopy(known)  # its own game, carried on
        return game_of(state, self.bugs)

    def info(self) -> JSON:
        return {"name": "interlock", "version": "1.0", "rules": RULES}

    def deal(self, ruleset: JSON, players: int, round: int, order: list[str]) -> JSON:
        if players not in SIZES:
            raise RefusedSetup(f"interlock is played by 2 to 5 players, not {players}",
                               "DEAL-7")
        if not 1 <= round <= ROUNDS:
            raise RefusedSetup(f"a double-{TOP} match has rounds 1 to {ROUNDS}", "MATCH-1")
        engine = TOP - (round - 1)
        pool = [parse(x) for x in order]
        if sorted(pool) != sorted(SET - {(engine, engine)}):
            raise Unsupported(f"the pool is not a double-{TOP} set without its engine")
        k = SIZES[players]
        start = (round - 1) % players  # SEAT-3
        g = Game(round=round, hands=[pool[p * k:(p + 1) * k] for p in range(players)],
                 lines=[[] for _ in range(players + 1)], markers=[False] * players,
                 boneyard=pool[players * k:], seat=start, starter=start,
                 first_turns=list(range(players)), totals=[0] * players,
                 outs=[0] * players, bugs=self.bugs)
        return self._remember(g)

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        g = self._game(state)
        return [action_json(m, g.n) for m in g.legal_moves()]

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        g = self._game(state)
        move = move_of(action, g.n, self.bugs)
        refused = g.refusal(move)
        if refused is not None:
            raise refused
        g.play(move)
        return self._remember(g)

    def score(self, ruleset: JSON, state: JSON, winner: int | None) -> list[int]:
        g = self._game(state)
        if winner is not None and (not 0 <= winner < g.n or g.hands[winner]):
            raise ValueError(f"seat {winner} did not go out (its hand is not empty)")
        return g.score(winner)

    def winners(self, ruleset: JSON, state: JSON) -> list[int]:
        g = self._game(state)
        if g.phase != "over" or g.round < ROUNDS:
            return []  # MATCH-1: the match goes on
        low = min(g.totals)  # MATCH-2
        return [s for s, total in enumerate(g.totals) if total == low]  # MATCH-4


class Fixed(Interlock):
    """The engine with its planted bugs switched off."""

    def __init__(self) -> None:
        super().__init__(fixed=set(BUGS))
