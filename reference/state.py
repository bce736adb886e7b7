"""The vocabulary of the reference engine: its actions, the phases of a round, the
refusal an illegal action raises, a round's result, and the state of a round itself.

Only data here; what the rules make of it (where a player may play, the legal actions,
what an action does) is in reference/engine.py, which imports every name below, so
`engine.State`, `engine.DRAW` and the rest read as before; the refusals are in
reference/refusals.py.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from mtrain.reference.rules import Rules
from mtrain.spec import tiles as T
from mtrain.spec.ruleset import MAX_PLAYERS

# --- actions -------------------------------------------------------------------------


class Action(NamedTuple):
    """One decision. `train` is a seat for a personal train, or `players` for the Mexican."""

    kind: str  # "play" | "draw" | "pass" | "end-chain"
    tile: int = -1
    train: int = -1


DRAW: Final = Action("draw")
# Every play action, built once: PLAY[train][tile], one train per seat of the largest
# table plus the Mexican Train.
PLAY: Final[tuple[tuple[Action, ...], ...]] = tuple(
    tuple(Action("play", t, train) for t in range(T.TILE_COUNT))
    for train in range(MAX_PLAYERS + 1))
# OTHER_SEATS[players][seat]: every seat of a table of `players` but `seat`, in order (the
# other players' trains, built once).
OTHER_SEATS: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    tuple(tuple(t for t in range(players) if t != seat) for seat in range(players))
    for players in range(MAX_PLAYERS + 1))
# The seats of a marker mask, in order, read from two tables built once (one step for a
# table of up to LOW_SEATS players, two past it, never one step a seat): MARKED_LOW[m] is
# the seats of the mask's low LOW_SEATS bits, MARKED_HIGH[m] those of the bits above.
LOW_SEATS: Final = 12
LOW_MASK: Final = (1 << LOW_SEATS) - 1


def _seat_table(first: int, count: int) -> tuple[tuple[int, ...], ...]:
    """table[m]: the seats first + i for each bit i of m, lowest first (m < 2 ** count)."""
    table: list[tuple[int, ...]] = [()]
    for i in range(count):  # the masks with bit i set follow those without, in order
        seat = (first + i,)
        table += [seats + seat for seats in table]
    return tuple(table)


MARKED_LOW: Final = _seat_table(0, LOW_SEATS)
MARKED_HIGH: Final = _seat_table(LOW_SEATS, MAX_PLAYERS - LOW_SEATS)
# OTHERS_MASK[players][seat]: the bits of every seat of a table of `players` but `seat` (a
# marker mask less the seat's own marker, and less the Mexican Train's bit, never set).
OTHERS_MASK: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(((1 << players) - 1) & ~(1 << seat) for seat in range(players))
    for players in range(MAX_PLAYERS + 1))
PASS: Final = Action("pass")
END_CHAIN: Final = Action("end-chain")

# phases of a round (Final: the compiled build inlines them)
ENGINE: Final = "engine"  # holder-lays: nobody holds the engine, players draw for it (ENG-4)
START: Final = "start"  # a turn has begun, nothing laid yet
CHAIN: Final = "chain"  # a first-turn chain is under way (FIRST-1, FIRST-11)
FOLLOW: Final = "follow"  # a double was laid; another tile is due (DBL-1)
OVER: Final = "over"  # the round has ended (END-1, END-2, END-3)

DOMINO: Final = "domino"
BLOCKED: Final = "blocked"


class IllegalAction(ValueError):
    """An action the rules refuse; `clause` is the id of the clause it breaks."""

    def __init__(self, clause: str, message: str) -> None:
        super().__init__(f"{message} [{clause}]")
        self.clause = clause
        self.message = message


class Result(NamedTuple):
    end: str  # DOMINO or BLOCKED
    winner: int  # the seat that went out, or -1 for a blocked round
    scores: tuple[int, ...]  # this round's score per seat


# --- the state -----------------------------------------------------------------------


STATE_FIELDS: Final = (
    "boneyard", "drawn", "ends", "engine", "engine_placed", "first_pending", "hands",
    "markers", "open_doubles", "outs", "passes", "phase", "players", "result", "round",
    "rules", "scores", "seat", "starter", "table_mask", "trains", "turn_doubles",
)
"""Every field of a State, in its slots."""


class State:
    """Everything about a round in progress, and the match totals so far.

    Hands are bitmasks of tile ids; trains are tuples of tile ids from the engine
    outward (index `players` is the Mexican Train); the boneyard is a list in draw
    order; `markers` is a bitmask of seats (bit s: seat s's train carries a marker; the
    Mexican Train's bit, `players`, never set: MARK-2). Small and flat, so a copy is a
    handful of list copies.
    """

    __slots__ = STATE_FIELDS

    rules: Rules
    players: int
    round: int
    engine: int
    engine_placed: bool
    hands: list[int]
    boneyard: list[int]
    trains: list[tuple[int, ...]]
    ends: list[int]
    markers: int
    open_doubles: list[int]
    turn_doubles: list[int]
    seat: int
    phase: str
    drawn: int
    first_pending: int
    starter: int
    passes: int
    table_mask: int
    scores: list[int]
    outs: list[int]
    result: Result | None

    def copy(self) -> State:
        new = State.__new__(State)
        new.rules, new.players, new.round, new.engine = (
            self.rules, self.players, self.round, self.engine)
        new.engine_placed, new.seat, new.phase, new.drawn = (
            self.engine_placed, self.seat, self.phase, self.drawn)
        new.first_pending, new.starter, new.passes, new.table_mask = (
            self.first_pending, self.starter, self.passes, self.table_mask)
        new.markers = self.markers
        new.result = self.result
        new.hands = self.hands[:]
        new.boneyard = self.boneyard[:]
        new.trains = self.trains[:]
        new.ends = self.ends[:]
        new.open_doubles = self.open_doubles[:]
        new.turn_doubles = self.turn_doubles[:]
        new.scores = self.scores[:]
        new.outs = self.outs[:]
        return new

    def marked(self, seat: int) -> bool:
        """Whether `seat`'s train carries a marker."""
        return bool(self.markers >> seat & 1)

    def set_marker(self, seat: int, up: bool) -> None:
        """Put `seat`'s marker up (`up`) or take it off."""
        self.markers = self.markers | 1 << seat if up else self.markers & ~(1 << seat)

    @property
    def mexican(self) -> int:
        """Index of the Mexican Train among the trains."""
        return self.players

    @property
    def match_over(self) -> bool:
        return self.phase == OVER and self.round >= self.rules.rounds

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return all(getattr(self, f) == getattr(other, f) for f in STATE_FIELDS)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<State round {self.round} seat {self.seat} phase {self.phase}>"
