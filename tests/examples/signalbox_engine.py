"""Signalbox: Mexican Train on a double-15 set for 2 to 12 players, as a railway
society plays it at its winter party (a signal box sees every line at once), written
from docs/implementers-guide.md and docs/protocol.md alone, as an in-process Python
adapter (`--adapter`). Inside it, a tile is one small integer (its index in the set), a
hand is a bit mask of those, and a train is the path of numbers it runs through (the
engine's number first): the JSON forms are made at the boundary. That representation
and its wire code (the table and its JSON, about 60 lines) follow turntable_engine.py's,
by the same hand; its rules, house rules and planted bugs are its own, written down here
before the suite ran on it.

Rules it plays (its rule-set file: tests/examples/signalbox-rules.yaml; its `info()`
declares the same):
- a double-15 set (136 tiles); the engine is set aside before the deal (`set-aside`);
- HOUSE RULE, a hand table of its own for 2 to 12 players: 2-3 players 16, 4 players 15,
  5 players 14, 6 players 13, 7 players 12, 8 players 11, 9 players 10, 10-11 players 9,
  12 players 8;
- HOUSE RULE no value describes (`starting_seat: other`, "most doubles leads"): the
  player dealt the most doubles takes the first turn of the round; among several holding
  as many, the lowest seat;
- one tile a turn from the start (`single`), anyone may open the Mexican Train
  (`anyone`), nobody must start their own train first (`not-required`);
- open doubles (`open`): the tile after a double goes anywhere the player may play
  (`anywhere`), several open doubles are covered oldest first (`oldest-first`), a double
  nobody can cover any more is released (`released`); a marker comes off when its owner
  plays on their own train (`owner-plays-own`);
- a player who cannot play draws one tile (`draw-one`); the round is blocked after a
  full round of passes on an empty boneyard (`full-round-of-passes`);
- penalty scoring at face value (`penalty`, `face`); the lowest total wins, equal totals
  share the win (`shared`);
- HOUSE RULE no value describes (`match_length: other`, "the party game"): eight rounds,
  from [15-15] down to [8-8]; the match ends after the round on [8-8] (a later round
  is refused at its deal: this match has none).

Planted bugs (what the suite must find), each with the clause it breaks:
1. "own-marker": the check for playing on another player's train reads the mover's
   marker, not the train's: a player whose own train carries a marker may play on every
   train, and nobody may play on a marked train while their own is unmarked (TRAIN-4);
2. "scored-with-last-tile": a round that ends because a player went out is scored from
   the hands as they stood when the action began (a copy kept to undo the move), so the
   player who went out is charged the tile they went out with (SCORE-5).

Found by the runs (each fixed where it belongs, with a test). In the engine, not
planted: a pass after a drawn tile that fits nowhere was refused ("draw first"), the
draw-one path written without its drawn tile: conform charged it to TURN-4 (100
results), fixed here. With the bugs off, 1,150 results ran and none failed (123 not
applicable: 78 its starting seat, 33 its match, 4 both, 8 tables its rules never
reach); fuzz found nothing in 40 games. With them on, 527 failed: bug 2 alone 110, all
SCORE-5; bug 1 alone 447, of which conform charged 136 to TRAIN-4 and the rest to the
moment's rule (216 MARK-1, 58 TURN-3, 34 DBL-2, 3 DBL-9) until plays kept off marked
trains were charged to the marker's access (now 442 TRAIN-4, 2 MARK-1 where the
fixture lists MARK-1 alone, 3 DBL-9 where a released double is open). Fuzz split bug 1
the same way (five findings), shrank none of its findings (the own rule's starter made
every table unreachable under the stand-in's rotation, REACH-STARTER), and called round
16's refused deal a finding; now, in 12 games, TRAIN-4 both ways, INV-ROUND-SCORE and
DBL-9 (a released double open, as conform), each shrunk, and the refused round ends its
game, counted. Identify, bugs on:
both `other` found, nothing sure and wrong (blank_values blank-25 likely, margin 1). With
them off it wrote `match_length: full` sure (margin 401: the refused deals of rounds 10
on were read as its own seat's) and called its seat rule "likely bug: set-aside with
after-engine" (the designed deals start where after-engine would); now `other` (margin
5, those refusals) and no bug, the seat's line saying why (identify's, fixed there).

Its refusals name a clause where one says why (none for its house rules). Both bugs are
on in `Signalbox`; `Fixed` switches them off (`Signalbox(fixed={1})` one).

    mtrain conform --adapter tests/examples/signalbox_engine.py:Fixed \\
        --rules tests/examples/signalbox-rules.yaml
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from mtrain.conformance.adapter import JSON, Implementation, Refused, RefusedSetup, Unsupported

TOP = 15
ROUNDS = TOP + 1  # the rounds a table may come from
PARTY = 8  # HOUSE RULE (match_length: other): rounds 1 to 8, [15-15] down to [8-8]
SIZES = {2: 16, 3: 16, 4: 15, 5: 14, 6: 13, 7: 12, 8: 11, 9: 10, 10: 9, 11: 9, 12: 8}
BUGS = {1: "own-marker", 2: "scored-with-last-tile"}

RULES: JSON = {
    "name": "signalbox",
    "options": {
        "tile_set": "double-15", "hand_sizes": "custom", "engine_procedure": "set-aside",
        "starting_seat": "other", "first_turn": "single", "mexican_first_turn": "anyone",
        "own_train_first": "not-required", "doubles": "open", "follow_up": "anywhere",
        "double_order": "oldest-first", "uncoverable_double": "released",
        "marker_removal": "owner-plays-own", "draw_rule": "draw-one",
        "blocked_round": "full-round-of-passes", "scoring": "penalty",
        "blank_values": "face", "tie_rule": "shared", "match_length": "other",
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
    return sum(PAIRS[i])  # SCORE-1


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
        marked = self.markers
        if 1 in self.bugs:
            # BUG 1 (own-marker): the mover's marker read for every train (TRAIN-4)
            marked = [self.markers[seat]] * self.players
        return [r for r in self.refs() if r in (seat, MEX) or (r != MEX and marked[r])
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
        return [f"{a}-{b}" for a, b in pairwise(self.path(ref))]  # TRAIN-2: matching end first

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
            path.append(a)
        else:
            raise ValueError(f"train tile {text} does not follow {path[-1]}")
    return path


def table_of(state: JSON, bugs: frozenset[int]) -> Table:
    players = len(state["hands"])
    if players not in SIZES:
        raise RefusedSetup(f"signalbox deals to 2 to 12 players, not {players}", "DEAL-7")
    if state["phase"] not in ("start", "follow", "over") or not state["engine_placed"]:
        raise Unsupported(f"no {state['phase']} phase in a one-tile-a-turn game")
    rnd = state["round"]
    # a table of a round past the party game's eighth is still played as it stands
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
        # TURN-3: the drawn tile must be played if it can; else TURN-4: pass
        drawn: list[tuple[str, int | None, int | None]] = [
            ("play", i, r) for i, r in t.plays(t.seat, 1 << t.drawn)]
        return drawn or [("pass", None, None)]
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
        if can:
            return Refused("a tile can be played", "TURN-1")
        if t.boneyard and t.drawn is None:
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


def end_turn(t: Table) -> None:
    if t.seat in t.first_turns:
        t.first_turns.remove(t.seat)  # FIRST-6
    t.turn_doubles, t.drawn, t.phase = [], None, "start"
    t.seat = (t.seat + 1) % t.players  # TURN-6, SEAT-1


def round_scores(hands: list[int]) -> list[int]:
    """SCORE-5: each hand's value (the one who went out holds nothing)."""
    return [sum(value(i) for i in tiles_of(h)) for h in hands]


def finish(t: Table, winner: int | None, hands: list[int] | None = None) -> None:
    scores = round_scores(t.hands if hands is None else hands)
    t.phase = "over"
    t.result = {"end": "blocked" if winner is None else "domino", "winner": winner,
                "scores": scores}
    t.scores = [a + b for a, b in zip(t.scores, scores, strict=True)]  # MATCH-1
    if winner is not None:
        t.outs[winner] += 1


def perform(t: Table, kind: str, tile: int | None, ref: int | None) -> None:
    seat = t.seat
    undo = list(t.hands)  # the hands as the action found them
    if kind == "draw":
        t.drawn = t.boneyard.pop(0)  # TURN-2: the first tile of the boneyard
        t.hands[seat] |= 1 << t.drawn
        return
    if kind == "pass":
        t.markers[seat] = True  # TURN-4, MARK-1
        if not t.boneyard:
            t.passes += 1
            if t.passes >= t.players:
                t.turn_doubles, t.drawn = [], None
                finish(t, None)  # END-3: a full round of passes on an empty boneyard
                return
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
        # END-1, even on a double (left open: nobody need cover it)
        # BUG 2 (scored-with-last-tile): the hands the action began with (SCORE-5)
        finish(t, seat, undo if 2 in t.bugs else None)
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

class Signalbox(Implementation):
    """The engine with its planted bugs on (those not in `fixed`)."""

    def __init__(self, fixed: frozenset[int] | set[int] = frozenset()) -> None:
        self.bugs = frozenset(BUGS) - frozenset(fixed)

    def info(self) -> JSON:
        return {"name": "signalbox", "version": "1.0", "rules": RULES}

    def deal(self, ruleset: JSON, players: int, round: int, order: list[str]) -> JSON:
        if players not in SIZES:
            raise RefusedSetup(f"signalbox deals to 2 to 12 players, not {players}", "DEAL-7")
        if not 1 <= round <= PARTY:
            # HOUSE RULE (match_length: other): the party game has eight rounds
            raise RefusedSetup(f"the party game has rounds 1 to {PARTY}, not {round}")
        pool = [tile_index(x) for x in order]
        engine = INDEX[TOP - (round - 1), TOP - (round - 1)]
        if sorted(pool) != [i for i in range(len(PAIRS)) if i != engine]:
            raise Unsupported(f"the pool is not a double-{TOP} set without its engine")
        k = SIZES[players]
        hands = [pool[p * k:(p + 1) * k] for p in range(players)]  # DEAL-1
        # HOUSE RULE (starting_seat: other): the most doubles leads, the lowest seat first
        doubles = [sum(is_double(i) for i in h) for h in hands]
        start = doubles.index(max(doubles))
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
        return round_scores(t.hands)

    def winners(self, ruleset: JSON, state: JSON) -> list[int]:
        t = table_of(state, self.bugs)
        if t.phase != "over" or t.round < PARTY:
            return []  # HOUSE RULE (match_length: other): the party game goes on
        low = min(t.scores)  # MATCH-2
        return [s for s in range(t.players) if t.scores[s] == low]  # MATCH-4

    @staticmethod
    def _action_json(t: Table, a: tuple[str, int | None, int | None]) -> JSON:
        kind, tile, ref = a
        if kind != "play":
            return {"type": kind}
        assert tile is not None and ref is not None
        return {"type": "play", "tile": held(tile), "train": t.ref_json(ref)}


class Fixed(Signalbox):
    """The engine with its planted bugs switched off."""

    def __init__(self) -> None:
        super().__init__(fixed=set(BUGS))
