"""Turntable: Mexican Train on a double-12 set as a model-railway club plays it on
Thursday nights (a turntable turns a locomotive round at the end of the line), written
from docs/implementers-guide.md and docs/protocol.md alone, as an in-process Python
adapter (`--adapter`), not a server: the other engines of tests/examples/ speak the
protocol. Inside it, a tile is one small integer (its index in the set), a hand is a
bit mask of those, and a train is the path of numbers it runs through (the engine's
number first): the JSON forms are made at the boundary. Its house rules and planted bugs
were written down here before the suite ran on it.

Rules it plays (its rule-set file: tests/examples/turntable-rules.yaml; its `info()`
declares the same):
- a double-12 set (91 tiles, 13 rounds from [12-12] down to [0-0]); the engine is set
  aside before the deal (`set-aside`), and round r starts at seat (r - 1) mod players
  (`rotate`);
- HOUSE RULE, a hand table of its own: 2-3 players 14, 4 players 12, 5 players 11,
  6 players 10, 7 players 9, 8 players 8;
- one tile a turn from the start (`single`), anyone may open the Mexican Train
  (`anyone`), nobody must start their own train first (`not-required`);
- open doubles (`open`): the tile after a double goes anywhere the player may play
  (`anywhere`), several open doubles are covered oldest first (`oldest-first`), a double
  nobody can cover any more (all 13 tiles of its number on the table) is released
  (`released`); a marker comes off when its owner plays on their own train
  (`owner-plays-own`);
- HOUSE RULE no value describes (`draw_rule: other`, "you drew it, you may keep it"): a
  player who cannot play draws one tile; if that tile can be played they may play it,
  or keep it and pass, marker up, as if it could not (the drawn tile is never forced,
  in an ordinary turn, under an open double's duty or after one's own double alike); as
  ever, only the drawn tile may be played after a draw, and one draw a turn;
- HOUSE RULE no value describes (`blocked_round: other`, "nobody can play now"): with
  the boneyard empty, the round ends blocked at the end of any turn after which no
  player holds a tile they could lay on the table as it stands: their own train, the
  Mexican Train, a marked train, and under an open double's duty only a cover of the
  oldest double that binds (the markers a round of passes would raise are not counted,
  as END-2 counts them, nor are passes counted, as END-3 does);
- penalty scoring (`penalty`), the [0-0] counting 25 and other blanks 0
  (`double-blank-25`); the lowest total wins, a tie goes to the most rounds gone out,
  then is shared (`most-outs`); a full match (`full`).

Planted bugs (what the suite must find), each with the clause it breaks:
1. "round-robin": the deal gives one tile to each seat in turn from the front of the
   pool, as at a table, not each hand whole from the front, seat 0 first (DEAL-1);
2. "mexican-unflipped": a tile laid on the Mexican Train is written as it is held,
   high end first, even where its low end is the one that matches (the personal trains
   flip it; the Mexican Train's code path was written apart); its open end is right
   (TRAIN-2);
3. "blank-out": when a player goes out, a [0-0] left in another hand counts 0: the 25
   was written only in the scoring of a blocked round (and of `score` without a
   winner) (SCORE-4).

Found by the runs (each fixed where it belongs, with a test). In the engine, not
planted: a last tile that is a double was left out of `open_doubles` (INV-OPEN-DOUBLES,
43 results, charged to DBL-1), fixed here. With the bugs off, 1,159 results ran and none
failed (177 not applicable: 68 its draw rule, 19 its blocked round, 14 both, 63 its
table, 13 tables it never reaches); fuzz found nothing in 60 games. With them on, conform
charged each failure to its bug's clause (21 DEAL-1, 126 TRAIN-2, 6 SCORE-4; bug 3 alone
fails 26, all SCORE-4). In the suite: fuzz never found bug 3 while bug 2 was on (a round
end whose table could not be read was not judged for its scores), reported bug 2 as four
findings (after play, draw, pass, round end), named the cut games as its blocked round's
doing ("gave no state to play on"), and every message of bug 2 named its place twice;
identify, with the bugs on, wrote `starting_seat: other` (bug 1's hands failed the deal
fixtures, and no deal was measured). Identify then: with the bugs off every option right,
both `other` found; with them on, blank_values face (likely), nothing sure and wrong.

Its refusals name a clause where one says why (none for its house rules). All three
bugs are on in `Turntable`; `Fixed` switches them off (`Turntable(fixed={1, 3})` some).

    mtrain conform --adapter tests/examples/turntable_engine.py:Fixed \\
        --rules tests/examples/turntable-rules.yaml
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from mtrain.conformance.adapter import JSON, Implementation, Refused, RefusedSetup, Unsupported

TOP = 12
ROUNDS = TOP + 1
SIZES = {2: 14, 3: 14, 4: 12, 5: 11, 6: 10, 7: 9, 8: 8}  # house rule: a table of its own
DOUBLE_BLANK = 25  # the [0-0] in hand (double-blank-25)
BUGS = {1: "round-robin", 2: "mexican-unflipped", 3: "blank-out"}

RULES: JSON = {
    "name": "turntable",
    "options": {
        "tile_set": "double-12", "hand_sizes": "custom", "engine_procedure": "set-aside",
        "starting_seat": "rotate", "first_turn": "single", "mexican_first_turn": "anyone",
        "own_train_first": "not-required", "doubles": "open", "follow_up": "anywhere",
        "double_order": "oldest-first", "uncoverable_double": "released",
        "marker_removal": "owner-plays-own", "draw_rule": "other", "blocked_round": "other",
        "scoring": "penalty", "blank_values": "double-blank-25", "tie_rule": "most-outs",
        "match_length": "full",
    },
    "hand_sizes": {str(k): v for k, v in SIZES.items()},
}

# --- tiles: an index into the set, highest tiles last ------------------------------------

PAIRS = [(a, b) for a in range(TOP + 1) for b in range(a + 1)]  # index -> (high, low)
INDEX = {p: i for i, p in enumerate(PAIRS)}
FULL = (1 << len(PAIRS)) - 1
ON_NUMBER = [sum(1 << i for i, (a, b) in enumerate(PAIRS) if n in (a, b))
             for n in range(TOP + 1)]  # the tiles bearing each number, as a mask


def tile_index(text: Any) -> int:
    if not isinstance(text, str) or text.count("-") != 1:
        raise ValueError(f"not a tile: {text!r}")
    a, b = (int(x) for x in text.split("-"))
    if (max(a, b), min(a, b)) not in INDEX:
        raise Unsupported(f"{text} is not a tile of a double-{TOP} set")
    return INDEX[max(a, b), min(a, b)]


def held(i: int) -> str:
    return f"{PAIRS[i][0]}-{PAIRS[i][1]}"


def tiles_of(mask: int) -> list[int]:
    return [i for i in range(len(PAIRS)) if mask >> i & 1]


def other_end(i: int, n: int) -> int | None:
    a, b = PAIRS[i]
    return b if a == n else a if b == n else None


def is_double(i: int) -> bool:
    return PAIRS[i][0] == PAIRS[i][1]


def value(i: int) -> int:
    return DOUBLE_BLANK if PAIRS[i] == (0, 0) else sum(PAIRS[i])


# --- the table -----------------------------------------------------------------------------

MEX = -1  # the Mexican Train, inside; "mexican" on the wire


@dataclass
class Table:
    round: int
    seat: int
    starter: int
    phase: str
    hands: list[int]  # masks
    boneyard: list[int]
    paths: list[list[int]]  # each seat's train as the numbers it runs through; then MEX
    markers: list[bool]
    open_doubles: list[int]  # seats, or MEX
    turn_doubles: list[int]
    drawn: int | None
    first_turns: list[int]
    passes: int
    scores: list[int]
    outs: list[int]
    result: JSON | None = None
    bugs: frozenset[int] = field(default_factory=frozenset)

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def engine(self) -> int:
        return TOP - (self.round - 1)  # ENG-1

    def path(self, ref: int) -> list[int]:
        return self.paths[self.players] if ref == MEX else self.paths[ref]

    def refs(self) -> list[int]:
        return [*range(self.players), MEX]

    def on_table(self) -> int:
        mask = 1 << INDEX[self.engine, self.engine]
        for p in self.paths:
            for a, b in pairwise(p):
                mask |= 1 << INDEX[max(a, b), min(a, b)]
        return mask

    def released(self, ref: int) -> bool:
        """DBL-9: every tile bearing the double's number is on the table."""
        n = self.path(ref)[-1]
        return ON_NUMBER[n] & ~self.on_table() == 0

    def binding(self) -> list[int]:
        """The open doubles of earlier turns that still bind, oldest first (DBL-6, DBL-9)."""
        return [r for r in self.open_doubles
                if r not in self.turn_doubles and not self.released(r)]

    def trains_for(self, seat: int) -> list[int]:
        """Where `seat` may lay a tile now: the oldest binding double alone (DBL-6, DBL-7),
        else its own train, the Mexican Train, a marked train (TRAIN-4) and a double of
        this turn wherever it lies (TRAIN-6)."""
        binding = self.binding()
        if binding:
            return binding[:1]
        return [r for r in self.refs() if r in (seat, MEX) or (r != MEX and self.markers[r])
                or r in self.turn_doubles]

    def plays(self, seat: int, mask: int) -> list[tuple[int, int]]:
        out = []
        for ref in self.trains_for(seat):
            end = self.path(ref)[-1]
            for i in tiles_of(mask & ON_NUMBER[end]):
                out.append((i, ref))
        return out

    # --- the wire ----------------------------------------------------------------------

    def ref_json(self, ref: int) -> int | str:
        return "mexican" if ref == MEX else ref

    def train_tiles(self, ref: int) -> list[str]:
        p = self.path(ref)
        out = [f"{a}-{b}" for a, b in pairwise(p)]
        if ref == MEX and 2 in self.bugs:
            # BUG 2 (mexican-unflipped): written as held, high end first (TRAIN-2)
            out = [f"{max(a, b)}-{min(a, b)}" for a, b in pairwise(p)]
        return out

    def to_json(self) -> JSON:
        return {
            "round": self.round, "engine": self.engine, "engine_placed": True,
            "phase": self.phase, "seat": self.seat, "starter": self.starter,
            "hands": [[held(i) for i in reversed(tiles_of(h))] for h in self.hands],
            "boneyard": [held(i) for i in self.boneyard],
            "trains": [{"tiles": self.train_tiles(s), "end": self.paths[s][-1],
                        "marker": self.markers[s]} for s in range(self.players)],
            "mexican": {"tiles": self.train_tiles(MEX), "end": self.path(MEX)[-1]},
            "open_doubles": [self.ref_json(r) for r in self.open_doubles],
            "turn_doubles": [self.ref_json(r) for r in self.turn_doubles],
            "drawn": None if self.drawn is None else held(self.drawn),
            "first_turns": list(self.first_turns), "passes": self.passes,
            "scores": list(self.scores), "outs": list(self.outs), "result": self.result,
        }


def ref_of(value: Any, players: int) -> int:
    if value == "mexican":
        return MEX
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < players:
        return value
    raise Refused(f"there is no train {value!r} at this table", "TRAIN-1")


def path_of(engine: int, tiles: list[str]) -> list[int]:
    path = [engine]
    for text in tiles:
        a, b = (int(x) for x in text.split("-"))
        if a == path[-1]:
            path.append(b)
        elif b == path[-1]:
            path.append(a)  # a tile written as held (this engine's own bug 2) reads back
        else:
            raise ValueError(f"train tile {text} does not follow {path[-1]}")
    return path


def table_of(state: JSON, bugs: frozenset[int]) -> Table:
    players = len(state["hands"])
    if players not in SIZES:
        raise RefusedSetup(f"turntable deals to 2 to 8 players, not {players}", "DEAL-7")
    if state["phase"] not in ("start", "follow", "over") or not state["engine_placed"]:
        raise Unsupported(f"no {state['phase']} phase in a one-tile-a-turn game")
    rnd = state["round"]
    if not 1 <= rnd <= ROUNDS or state["engine"] != TOP - (rnd - 1):
        raise Unsupported(f"round {rnd} with engine {state['engine']} is not of a "
                          f"double-{TOP} match")
    hands = []
    for hand in state["hands"]:
        mask = 0
        for t in hand:
            mask |= 1 << tile_index(t)
        hands.append(mask)
    t = Table(
        round=rnd, seat=state["seat"], starter=state["starter"], phase=state["phase"],
        hands=hands, boneyard=[tile_index(x) for x in state["boneyard"]],
        paths=[path_of(state["engine"], tr["tiles"]) for tr in state["trains"]]
        + [path_of(state["engine"], state["mexican"]["tiles"])],
        markers=[bool(tr["marker"]) for tr in state["trains"]],
        open_doubles=[ref_of(r, players) for r in state["open_doubles"]],
        turn_doubles=[ref_of(r, players) for r in state["turn_doubles"]],
        drawn=None if state["drawn"] is None else tile_index(state["drawn"]),
        first_turns=list(state["first_turns"]), passes=state["passes"],
        scores=list(state["scores"]), outs=list(state["outs"]), result=state["result"],
        bugs=bugs)
    everything = t.on_table()
    for mask in [*hands, *(1 << i for i in t.boneyard)]:
        everything |= mask
    if everything != FULL:
        raise Unsupported(f"this table is not a whole double-{TOP} set")
    return t


# --- the rules -----------------------------------------------------------------------------

def legal(t: Table) -> list[tuple[str, int | None, int | None]]:
    if t.phase == "over":
        return []
    if t.drawn is not None:
        # HOUSE RULE (draw_rule: other): the drawn tile may be played, or kept with a pass
        return [("play", i, r) for i, r in t.plays(t.seat, 1 << t.drawn)] + [
            ("pass", None, None)]
    plays = t.plays(t.seat, t.hands[t.seat])
    if plays:
        return [("play", i, r) for i, r in plays]  # TURN-1: must play
    return [("draw", None, None)] if t.boneyard else [("pass", None, None)]  # TURN-2, TURN-4


def refusal(t: Table, kind: str, tile: int | None, ref: int | None) -> Refused | None:
    if t.phase == "over":
        return Refused("the round is over", "END-1")
    seat = t.seat
    if kind == "end-chain":
        return Refused("there are no first-turn chains: one tile a turn", "FIRST-7")
    can = t.plays(seat, t.hands[seat] if t.drawn is None else 1 << t.drawn)
    if kind == "draw":
        if can:
            return Refused("a tile can be played", "TURN-1")
        if not t.boneyard:
            return Refused("the boneyard is empty: pass", "TURN-4")
        if t.drawn is not None:
            return Refused("one draw a turn", "TURN-2")
        return None
    if kind == "pass":
        if t.drawn is not None:
            return None  # HOUSE RULE (draw_rule: other): the drawn tile may be kept
        if can:
            return Refused("a tile can be played", "TURN-1")
        if t.boneyard:
            return Refused("draw from the boneyard first", "TURN-2")
        return None
    assert tile is not None and ref is not None
    if not t.hands[seat] >> tile & 1:
        return Refused(f"seat {seat} does not hold {held(tile)}", "TURN-7")
    end = t.path(ref)[-1]
    if other_end(tile, end) is None:
        return Refused(f"{held(tile)} does not match the open end {end}", "TRAIN-2")
    if t.drawn is not None and tile != t.drawn:
        return Refused(f"only the drawn tile {held(t.drawn)} may be played", "TURN-3")
    binding = t.binding()
    if binding:
        if ref == binding[0]:
            return None
        if ref in binding:
            return Refused("the oldest open double is covered first", "DBL-7")
        return Refused("an open double must be covered first", "DBL-6")
    if ref not in t.trains_for(seat):
        return Refused(f"seat {ref}'s train carries no marker", "TRAIN-4")
    return None


def can_play_now(t: Table, seat: int) -> bool:
    return bool(t.plays(seat, t.hands[seat]))


def end_turn(t: Table) -> None:
    if t.seat in t.first_turns:
        t.first_turns.remove(t.seat)  # FIRST-6
    t.turn_doubles, t.drawn, t.phase = [], None, "start"
    t.seat = (t.seat + 1) % t.players  # TURN-6, SEAT-1
    if not t.boneyard and not any(can_play_now(t, s) for s in range(t.players)):
        finish(t, None)  # HOUSE RULE (blocked_round: other): nobody can play now


def round_scores(t: Table, winner: int | None) -> list[int]:
    """SCORE-5: each hand's value; the [0-0] at 25 (SCORE-4)."""
    out = []
    for h in t.hands:
        total = 0
        for i in tiles_of(h):
            if winner is not None and PAIRS[i] == (0, 0) and 3 in t.bugs:
                continue  # BUG 3 (blank-out): the 25 only in a blocked round's scoring
            total += value(i)
        out.append(total)
    return out


def finish(t: Table, winner: int | None) -> None:
    scores = round_scores(t, winner)
    t.phase = "over"
    t.result = {"end": "blocked" if winner is None else "domino", "winner": winner,
                "scores": scores}
    t.scores = [a + b for a, b in zip(t.scores, scores, strict=True)]  # MATCH-1
    if winner is not None:
        t.outs[winner] += 1


def perform(t: Table, kind: str, tile: int | None, ref: int | None) -> None:
    seat = t.seat
    if kind == "draw":
        t.drawn = t.boneyard.pop(0)  # TURN-2: the first tile of the boneyard
        t.hands[seat] |= 1 << t.drawn
        return
    if kind == "pass":
        t.markers[seat] = True  # TURN-4, MARK-1
        if not t.boneyard:
            t.passes += 1
        end_turn(t)
        return
    assert tile is not None and ref is not None
    t.hands[seat] &= ~(1 << tile)
    path = t.path(ref)
    far = other_end(tile, path[-1])
    assert far is not None
    path.append(far)
    if ref == seat:
        t.markers[seat] = False  # MARK-3
    if ref in t.open_doubles:
        t.open_doubles.remove(ref)  # covered
        if ref in t.turn_doubles:
            t.turn_doubles.remove(ref)
    t.drawn, t.passes = None, 0
    if is_double(tile):
        t.open_doubles.append(ref)  # DBL-1: another tile is due
        t.turn_doubles.append(ref)
    if not t.hands[seat]:
        t.turn_doubles = []
        finish(t, seat)  # END-1, even on a double (left open: nobody need cover it)
    elif is_double(tile):
        t.phase = "follow"
    else:
        end_turn(t)


def action_of(action: JSON, players: int) -> tuple[str, int | None, int | None]:
    kind = action.get("type")
    if kind in ("draw", "pass", "end-chain"):
        return kind, None, None
    if kind != "play":
        raise ValueError(f"not an action: {action!r}")
    return "play", tile_index(action["tile"]), ref_of(action["train"], players)


# --- the adapter ---------------------------------------------------------------------------

class Turntable(Implementation):
    """The engine with its planted bugs on (those not in `fixed`)."""

    def __init__(self, fixed: frozenset[int] | set[int] = frozenset()) -> None:
        self.bugs = frozenset(BUGS) - frozenset(fixed)

    def info(self) -> JSON:
        return {"name": "turntable", "version": "1.0", "rules": RULES}

    def deal(self, ruleset: JSON, players: int, round: int, order: list[str]) -> JSON:
        if players not in SIZES:
            raise RefusedSetup(f"turntable deals to 2 to 8 players, not {players}", "DEAL-7")
        if not 1 <= round <= ROUNDS:
            raise Unsupported(f"a double-{TOP} match has rounds 1 to {ROUNDS}, not {round}")
        pool = [tile_index(x) for x in order]
        engine = INDEX[TOP - (round - 1), TOP - (round - 1)]
        if sorted(pool) != [i for i in range(len(PAIRS)) if i != engine]:
            raise Unsupported(f"the pool is not a double-{TOP} set without its engine")
        k = SIZES[players]
        if 1 in self.bugs:
            # BUG 1 (round-robin): one tile to each seat in turn (DEAL-1)
            hands = [pool[p:players * k:players] for p in range(players)]
        else:
            hands = [pool[p * k:(p + 1) * k] for p in range(players)]
        start = (round - 1) % players  # SEAT-3
        t = Table(round=round, seat=start, starter=start, phase="start",
                  hands=[sum(1 << i for i in h) for h in hands],
                  boneyard=pool[players * k:],
                  paths=[[TOP - (round - 1)] for _ in range(players + 1)],
                  markers=[False] * players, open_doubles=[], turn_doubles=[], drawn=None,
                  first_turns=list(range(players)), passes=0, scores=[0] * players,
                  outs=[0] * players, bugs=self.bugs)
        return t.to_json()

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        t = table_of(state, self.bugs)
        return [self._action_json(t, a) for a in legal(t)]

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        t = table_of(state, self.bugs)
        kind, tile, ref = action_of(action, t.players)
        refused = refusal(t, kind, tile, ref)
        if refused is not None:
            raise refused
        perform(t, kind, tile, ref)
        return t.to_json()

    def score(self, ruleset: JSON, state: JSON, winner: int | None) -> list[int]:
        t = table_of(state, self.bugs)
        if winner is not None and (not 0 <= winner < t.players or t.hands[winner]):
            raise ValueError(f"seat {winner} did not go out (its hand is not empty)")
        return round_scores(t, winner)

    def winners(self, ruleset: JSON, state: JSON) -> list[int]:
        t = table_of(state, self.bugs)
        if t.phase != "over" or t.round < ROUNDS:
            return []  # MATCH-1: the match goes on
        low = min(t.scores)  # MATCH-2
        tied = [s for s in range(t.players) if t.scores[s] == low]
        most = max(t.outs[s] for s in tied)  # MATCH-5
        return [s for s in tied if t.outs[s] == most]

    @staticmethod
    def _action_json(t: Table, a: tuple[str, int | None, int | None]) -> JSON:
        kind, tile, ref = a
        if kind != "play":
            return {"type": kind}
        assert tile is not None and ref is not None
        return {"type": "play", "tile": held(tile), "train": t.ref_json(ref)}


class Fixed(Turntable):
    """The engine with its planted bugs switched off."""

    def __init__(self) -> None:
        super().__init__(fixed=set(BUGS))
