"""Flagstop: Mexican Train on a double-8 set for 2 to 6 players, as a club plays it at the
flag stop of a branch line (the Mexican Train waits for the flag: nobody boards it before
every player has had a turn), written from docs/implementers-guide.md, docs/protocol.md
and the README alone, as an in-process Python adapter (`--adapter`).

The table is a `Halt` of its own: tiles are (low, high) pairs, each train a `Track` with
its open end and a flag; the wire's JSON is read and written at the edge only (`halt_of`,
`Halt.wire`).

Rules it plays (its rule-set file: tests/examples/flagstop-rules.yaml; its `info()`
declares the same):
- a double-8 set (45 tiles, SET-7); the engine set aside before the deal (`set-aside`);
  round r starts at seat (r - 1) mod n (`rotate`, SEAT-3); nine rounds, [8-8] down to
  [0-0] (`full`);
- HOUSE RULE, a hand table of its own: 2 players 12, 3 players 10, 4 players 9,
  5 players 7, 6 players 6;
- one tile a turn from the start (`single`);
- HOUSE RULE no value describes (`mexican_first_turn: other`, "the flag"): nobody may lay
  the first tile of the Mexican Train while any player's first turn of the round is still
  to come (`first_turns` not empty), the starter included, and in a follow-up too; once
  every player has had a first turn, anyone may open it. (starter-only lets the starter
  open it at once and the others after their own first turn; own-train-started asks
  only for one's own train; this asks for the whole table's first turns.)
- HOUSE RULE no value describes (`own_train_first: other`, "build before you borrow"):
  until a player's own train holds a tile, they may not lay a tile on another player's
  train, marked or not; their own train and the Mexican Train (within the flag) stay
  open to them, and the duty to cover an open double (DBL-6) comes first, wherever the
  double lies. (required closes the Mexican Train too; not-required opens marked
  trains.)
- open doubles (`open`): the tile after a double goes anywhere the player may play
  (`anywhere`); several binding doubles are covered oldest first (`oldest-first`); a
  double nobody can cover any more keeps its duty (`stays-open`, DBL-10);
- a marker comes off when its owner plays on their own train (`owner-plays-own`); draw
  one tile and play only it if it can be (`draw-one`); with the boneyard empty the round
  is blocked at the end of a turn once nobody can ever play again (`nobody-can-play`,
  END-2); penalty scoring, where only [0-0] is penalised, at 50 (`penalty`,
  `double-blank-50`, SCORE-3); lowest total wins, equal totals share the win (`shared`).

Planted bugs (what the suite must find), written before any suite command ran on it,
each with the clause it breaks (none of the earlier engines' bugs were charged to these):
1. "blank-forgotten" (SCORE-3): the round's scores are counted by two paths, and the
   one for a round someone goes out counts a [0-0] left in a hand at its face (0), not
   50; a blocked round counts it right;
2. "blocked-early" (END-2): with the boneyard empty, at the end of a turn the bot ends the
   round blocked as soon as the NEXT player cannot play on the table as it stands,
   without asking whether a marker to come (or a first turn ending) would let anyone
   play later;
3. "first-pass-kept" (FIRST-6): a player's first turn is struck off `first_turns` only
   when they lay a tile; a first turn that ends in a pass leaves the seat listed, so
   (under the flag) the Mexican Train stays shut until that player lays a tile.

Found by the runs (nothing in the engine; in the suite, fixed with a test in
tests/test_play_s44.py). With the bugs off, 878 results ran and none failed (12 not
applicable: 7 its own rules, 3 its table, 2 tables its rules never reach); 918 since. With
them on, each bug failed results charged to its clause alone: bug 1 27 (SCORE-3), bug 2 6
(END-2), bug 3 1 (FIRST-6, a pass after a draw in vain, play-pass-). Fuzz (12 games, seed
1) found each bug as one finding and nothing else, but wrote no reproducer of bug 3: its
shrunk table (a drawn [7-7] that matches no train, the seat's own train and the Mexican
Train empty) read own_train_first and mexican_first_turn, so conform would not run it
under these rules. The reference read both wherever the own train was empty, whether or
not a tile could go anywhere; a drawn tile that matches no open end now reads neither
(reference/engine.py, plays). Identify (bugs on, 65 CPU s at load 19): nothing sure and
wrong, the set and table measured, both `other` found (margin 1: "or anyone", "or
required" if regression-own-first-double-001 is a bug); follow_up, marker_removal,
blocked_round, scoring, blank_values and tie_rule undetermined (the declared values kept).
Bugs off (77 CPU s): the same, follow_up likely, every option as declared.

Its refusals name a clause where one says why (none for its house rules). All bugs are
on in `Flagstop`; `Fixed` switches them off (`Flagstop(fixed={1})` one).

    mtrain conform --adapter tests/examples/flagstop_engine.py:Fixed \\
        --rules tests/examples/flagstop-rules.yaml
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from mtrain.conformance.adapter import JSON, Implementation, Refused, RefusedSetup, Unsupported

TOP = 8  # SET-7: a double-8 set
LAST_ROUND = TOP + 1  # MATCH-1: [8-8] down to [0-0]
SIZES = {2: 12, 3: 10, 4: 9, 5: 7, 6: 6}  # HOUSE RULE: a table of its own
BUGS = {1: "blank-forgotten", 2: "blocked-early", 3: "first-pass-kept"}
MEXICAN = "mexican"
BLANK_DOUBLE = 50  # SCORE-3: [0-0] is worth 50, other blanks 0

RULES: JSON = {
    "name": "flagstop",
    "options": {
        "tile_set": "double-8", "hand_sizes": "custom", "engine_procedure": "set-aside",
        "starting_seat": "rotate", "first_turn": "single", "mexican_first_turn": "other",
        "own_train_first": "other", "doubles": "open", "follow_up": "anywhere",
        "double_order": "oldest-first", "uncoverable_double": "stays-open",
        "marker_removal": "owner-plays-own", "draw_rule": "draw-one",
        "blocked_round": "nobody-can-play", "scoring": "penalty",
        "blank_values": "double-blank-50", "tie_rule": "shared", "match_length": "full",
    },
    "hand_sizes": {str(k): v for k, v in SIZES.items()},
}

Bone = tuple[int, int]  # (low, high)
EVERY_BONE = frozenset((lo, hi) for hi in range(TOP + 1) for lo in range(hi + 1))
Key = int | str  # a seat's train, or MEXICAN


def bone(text: Any) -> Bone:
    if not isinstance(text, str) or text.count("-") != 1:
        raise ValueError(f"not a tile: {text!r}")
    a, b = (int(x) for x in text.split("-"))
    if not (0 <= a <= TOP and 0 <= b <= TOP):
        raise Refused(f"{text} is not a tile of a double-{TOP} set", "SET-1")
    return (min(a, b), max(a, b))


def text(b: Bone) -> str:
    return f"{b[1]}-{b[0]}"


def worth(b: Bone) -> int:
    return BLANK_DOUBLE if b == (0, 0) else b[0] + b[1]  # SCORE-1, SCORE-3


@dataclass
class Track:
    """A train: its tiles as the wire names them, its open end, its owner's marker."""
    tiles: list[str]
    end: int
    marked: bool = False


@dataclass
class Halt:
    round: int
    hands: list[list[Bone]]
    tracks: dict[Key, Track]
    boneyard: list[Bone]
    seat: int
    starter: int
    phase: str = "start"
    open_doubles: list[Key] = field(default_factory=list)  # oldest first
    turn_doubles: list[Key] = field(default_factory=list)
    drawn: Bone | None = None
    first_turns: list[int] = field(default_factory=list)
    passes: int = 0
    totals: list[int] = field(default_factory=list)
    outs: list[int] = field(default_factory=list)
    result: JSON | None = None
    bugs: frozenset[int] = frozenset()

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def engine(self) -> int:
        return TOP - (self.round - 1)  # ENG-1

    def duty(self) -> list[Key]:
        """DBL-6: the open doubles of earlier turns, every one binding (DBL-10)."""
        return [k for k in self.open_doubles if k not in self.turn_doubles]

    def roads(self, seat: int, marks: dict[Key, bool] | None = None,
              flag_down: bool | None = None) -> list[Key]:
        """The trains `seat` may lay a tile on (markers and the flag as given, or as they
        stand)."""
        duty = self.duty()
        if duty:
            return duty[:1]  # DBL-6, DBL-7, DBL-10: the oldest, even if none can cover it
        marks = marks if marks is not None else {k: t.marked for k, t in self.tracks.items()}
        down = flag_down if flag_down is not None else not self.first_turns
        built = bool(self.tracks[seat].tiles)
        found: list[Key] = [seat]  # TRAIN-4: one's own train
        if self.tracks[MEXICAN].tiles or down:
            found.append(MEXICAN)  # MARK-2; HOUSE RULE (the flag): shut until it drops
        for k in range(self.players):
            # TRAIN-4, MARK-1; TRAIN-6: a double laid this turn; HOUSE RULE (build
            # before you borrow): no other train before one's own is started
            if k != seat and built and (marks[k] or k in self.turn_doubles):
                found.append(k)
        return found

    def plays(self) -> list[tuple[Bone, Key]]:
        tiles = self.hands[self.seat] if self.drawn is None else [self.drawn]  # TURN-3
        return [(b, k) for k in self.roads(self.seat) for b in tiles
                if self.tracks[k].end in b]

    def moves(self) -> list[JSON]:
        if self.phase == "over":
            return []
        found: list[JSON] = [{"type": "play", "tile": text(b), "train": k}
                             for b, k in self.plays()]
        if found:
            return found  # TURN-1, TURN-3
        if self.boneyard and self.drawn is None:
            return [{"type": "draw"}]  # TURN-2, DBL-5
        return [{"type": "pass"}]  # TURN-4, DBL-5

    def refusal(self, action: JSON) -> Refused | None:
        kind = action["type"]
        if self.phase == "over":
            return Refused("the round is over", "END-1")
        if kind == "end-chain":
            return Refused("one tile a turn: there is no chain to end", "FIRST-7")
        legal = self.moves()
        if action in legal:
            return None
        if kind in ("draw", "pass"):
            if legal[0]["type"] == "play":
                return Refused("a tile can be played", "TURN-1")
            if kind == "pass":
                return Refused("draw from the boneyard first", "TURN-2")
            if self.drawn is not None:
                return Refused("one draw a turn", "TURN-2")
            return Refused("the boneyard is empty: pass", "TURN-4")
        b, key = bone(action["tile"]), action["train"]
        if b not in self.hands[self.seat]:
            return Refused(f"seat {self.seat} does not hold {text(b)}", "TURN-7")
        if self.tracks[key].end not in b:
            return Refused(f"{text(b)} does not match the open end {self.tracks[key].end}",
                           "TRAIN-2")
        if self.drawn is not None and b != self.drawn:
            return Refused(f"only the tile just drawn, {text(self.drawn)}, may be played",
                           "TURN-3")
        duty = self.duty()
        if duty:
            if key in duty:
                return Refused("the oldest open double is covered first", "DBL-7")
            return Refused("an open double must be covered first", "DBL-6")
        if key == MEXICAN:
            return Refused("the Mexican Train opens once every player has had a first "
                           "turn (house rule)", None)
        if not self.tracks[self.seat].tiles and (self.tracks[key].marked
                                                 or key in self.turn_doubles):
            return Refused("start your own train before playing on another's (house rule)",
                           None)
        return Refused(f"seat {key}'s train carries no marker", "TRAIN-4")

    def apply(self, action: JSON) -> None:
        kind = action["type"]
        hand = self.hands[self.seat]
        if kind == "draw":
            self.drawn = self.boneyard.pop(0)  # TURN-2: the boneyard's first tile
            hand.append(self.drawn)
            return
        if kind == "pass":
            self.tracks[self.seat].marked = True  # TURN-4, MARK-1
            if not self.boneyard:
                self.passes += 1  # passes in a row on an empty boneyard
            self._end_turn(played=False)
            return
        b, key = bone(action["tile"]), action["train"]
        hand.remove(b)
        track = self.tracks[key]
        far = b[1] if b[0] == track.end else b[0]
        track.tiles.append(f"{track.end}-{far}")  # TRAIN-2
        track.end = far
        if key == self.seat:
            track.marked = False  # MARK-3
        if key in self.open_doubles:  # TRAIN-3: one tile covers it
            self.open_doubles.remove(key)
            if key in self.turn_doubles:
                self.turn_doubles.remove(key)
        self.drawn, self.passes = None, 0
        double = b[0] == b[1]
        if double:
            self.open_doubles.append(key)  # DBL-1
            self.turn_doubles.append(key)
        if not hand:
            self._close(self.seat)  # END-1, a double needing no cover
        elif double:
            self.phase = "follow"  # DBL-1: another tile is due
        else:
            self._end_turn(played=True)  # TURN-6

    def _end_turn(self, played: bool) -> None:
        if self.seat in self.first_turns and (played or 3 not in self.bugs):
            # FIRST-6; BUG 3 (first-pass-kept): a pass leaves the first turn listed
            self.first_turns.remove(self.seat)
        self.turn_doubles, self.drawn, self.phase = [], None, "start"
        self.seat = (self.seat + 1) % self.players  # SEAT-1
        if not self.boneyard and self._blocked():
            self._close(None)  # END-2

    def _blocked(self) -> bool:
        """END-2: nobody can ever play again. Passes only raise markers and end first
        turns, which opens trains and never shuts one, so the table with every personal
        train marked and every first turn over is the widest anyone will meet."""
        if 2 in self.bugs:
            # BUG 2 (blocked-early): only the next player, on the table as it stands
            return not self.plays()
        marks: dict[Key, bool] = {k: True for k in range(self.players)}
        for s in range(self.players):
            for k in self.roads(s, marks=marks, flag_down=True):
                if any(self.tracks[k].end in b for b in self.hands[s]):
                    return False
        return True

    def scores(self, winner: int | None) -> list[int]:
        """SCORE-5: each hand's worth; the player who went out 0."""
        if winner is None:
            return [sum(worth(b) for b in hand) for hand in self.hands]
        if 1 in self.bugs:  # BUG 1 (blank-forgotten): face value on this path
            return [0 if s == winner else sum(b[0] + b[1] for b in hand)
                    for s, hand in enumerate(self.hands)]
        return [0 if s == winner else sum(worth(b) for b in hand)
                for s, hand in enumerate(self.hands)]

    def _close(self, winner: int | None) -> None:
        scores = self.scores(winner)
        self.phase, self.turn_doubles, self.drawn = "over", [], None
        self.result = {"end": "blocked" if winner is None else "domino", "winner": winner,
                       "scores": scores}
        self.totals = [a + b for a, b in zip(self.totals, scores, strict=True)]  # MATCH-1
        if winner is not None:
            self.outs[winner] += 1

    def wire(self) -> JSON:
        return {
            "round": self.round, "engine": self.engine, "engine_placed": True,
            "phase": self.phase, "seat": self.seat, "starter": self.starter,
            "hands": [[text(b) for b in hand] for hand in self.hands],
            "boneyard": [text(b) for b in self.boneyard],
            "trains": [{"tiles": list(self.tracks[s].tiles), "end": self.tracks[s].end,
                        "marker": self.tracks[s].marked} for s in range(self.players)],
            "mexican": {"tiles": list(self.tracks[MEXICAN].tiles),
                        "end": self.tracks[MEXICAN].end},
            "open_doubles": list(self.open_doubles), "turn_doubles": list(self.turn_doubles),
            "drawn": None if self.drawn is None else text(self.drawn),
            "first_turns": list(self.first_turns), "passes": self.passes,
            "scores": list(self.totals), "outs": list(self.outs), "result": self.result,
        }


# --- the edge: the wire's JSON to the halt -------------------------------------------------

def track_of(engine: int, tiles: list[str], marked: bool) -> Track:
    end = engine
    for t in tiles:
        b = bone(t)
        if end not in b:
            raise ValueError(f"train tile {t} does not follow {end}")
        end = b[1] if b[0] == end else b[0]
    return Track(list(tiles), end, marked)


def train_key(value: Any, players: int) -> Key:
    if value == MEXICAN:
        return MEXICAN
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < players:
        return value
    raise Refused(f"there is no train {value!r} at this table", "TRAIN-1")


def halt_of(state: JSON, bugs: frozenset[int]) -> Halt:
    players = len(state["hands"])
    if players not in SIZES:
        raise RefusedSetup(f"flagstop is played by 2 to 6 players, not {players}", "DEAL-7")
    if state["phase"] not in ("start", "follow", "over") or not state["engine_placed"]:
        raise Unsupported(f"no {state['phase']} phase in a one-tile-a-turn game")
    rnd, engine = state["round"], state["engine"]
    if not 1 <= rnd <= LAST_ROUND or engine != TOP - (rnd - 1):
        raise Unsupported(f"round {rnd} with engine {engine} is not of a double-{TOP} match")
    tracks: dict[Key, Track] = {s: track_of(engine, tr["tiles"], bool(tr["marker"]))
                                for s, tr in enumerate(state["trains"])}
    tracks[MEXICAN] = track_of(engine, state["mexican"]["tiles"], False)
    h = Halt(round=rnd, hands=[[bone(t) for t in hand] for hand in state["hands"]],
             tracks=tracks, boneyard=[bone(t) for t in state["boneyard"]],
             seat=state["seat"], starter=state["starter"], phase=state["phase"],
             open_doubles=[train_key(k, players) for k in state["open_doubles"]],
             turn_doubles=[train_key(k, players) for k in state["turn_doubles"]],
             drawn=None if state["drawn"] is None else bone(state["drawn"]),
             first_turns=list(state["first_turns"]), passes=state["passes"],
             totals=list(state["scores"]), outs=list(state["outs"]),
             result=state["result"], bugs=bugs)
    every = {bone(t) for track in tracks.values() for t in track.tiles}
    every |= {(engine, engine)} | set(h.boneyard)
    for hand in h.hands:
        every |= set(hand)
    if every != EVERY_BONE:
        raise Unsupported(f"this table is not a whole double-{TOP} set")
    return h


# --- the adapter ---------------------------------------------------------------------------

class Flagstop(Implementation):
    """The engine with its planted bugs on (those not in `fixed`)."""

    def __init__(self, fixed: frozenset[int] | set[int] = frozenset()) -> None:
        self.bugs = frozenset(BUGS) - frozenset(fixed)

    def info(self) -> JSON:
        return {"name": "flagstop", "version": "1.0", "rules": copy.deepcopy(RULES)}

    def deal(self, ruleset: JSON, players: int, round: int, order: list[str]) -> JSON:
        if players not in SIZES:
            raise RefusedSetup(f"flagstop is played by 2 to 6 players, not {players}",
                               "DEAL-7")
        if not 1 <= round <= LAST_ROUND:
            raise RefusedSetup(f"a double-{TOP} match has rounds 1 to {LAST_ROUND}",
                               "MATCH-1")
        engine = TOP - (round - 1)
        pool = [bone(t) for t in order]
        if sorted(pool) != sorted(EVERY_BONE - {(engine, engine)}):
            raise Unsupported(f"the pool is not a double-{TOP} set without its engine")
        k = SIZES[players]
        start = (round - 1) % players  # SEAT-3
        tracks: dict[Key, Track] = {s: Track([], engine) for s in range(players)}
        tracks[MEXICAN] = Track([], engine)
        h = Halt(round=round, hands=[pool[s * k:(s + 1) * k] for s in range(players)],
                 tracks=tracks, boneyard=pool[players * k:], seat=start, starter=start,
                 first_turns=list(range(players)), totals=[0] * players,
                 outs=[0] * players, bugs=self.bugs)  # DEAL-11, ENG-2
        return h.wire()

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        return halt_of(state, self.bugs).moves()

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        h = halt_of(state, self.bugs)
        kind = action.get("type")
        if kind not in ("play", "draw", "pass", "end-chain"):
            raise ValueError(f"not an action: {action!r}")
        if kind == "play":
            action = {"type": "play", "tile": text(bone(action["tile"])),
                      "train": train_key(action["train"], h.players)}
        refused = h.refusal(action)
        if refused is not None:
            raise refused
        h.apply(action)
        return h.wire()

    def score(self, ruleset: JSON, state: JSON, winner: int | None) -> list[int]:
        h = halt_of(state, self.bugs)
        if winner is not None and (not 0 <= winner < h.players or h.hands[winner]):
            raise ValueError(f"seat {winner} did not go out (its hand is not empty)")
        return h.scores(winner)

    def winners(self, ruleset: JSON, state: JSON) -> list[int]:
        h = halt_of(state, self.bugs)
        if h.phase != "over" or h.round != LAST_ROUND:
            return []  # MATCH-1: the match goes on
        low = min(h.totals)  # MATCH-2
        return [s for s, total in enumerate(h.totals) if total == low]  # MATCH-4


class Fixed(Flagstop):
    """The engine with its planted bugs switched off."""

    def __init__(self) -> None:
        super().__init__(fixed=set(BUGS))
