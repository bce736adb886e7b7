"""Rule bugs of a ninth outside reading: written from shared/RULES.md and the clauses
(docs/rules/), aimed at what the eight readings before it touch least, counted per clause
over the catalogue (381 mutants): TURN-7 (none), TURN-6, TRAIN-1, TRAIN-2, TRAIN-3,
TRAIN-5, END-1, FIRST-2, MARK-2, TURN-1 and TURN-2 (one to three each), the trains a
follow-up may use (DBL-2, DBL-3: which double is "first", a train whose marker came off
with the double), FIRST-4's doubles "laid in the chain", blank ends (SCORE-2 to SCORE-4),
and rows of the hand tables still untouched (pagat's 7, puremco's 6, Cardinal's 3). Each
is a slip an engine author makes: a constant where the round's number belongs, `end or
engine` for a blank end, `> 1` for `> 0`, the seat moved on before the end is read, a
loop over the personal trains that forgets the shared one.

Set aside on reading, each for the reason given:
- Any tile drawn this turn playable under draw-until-playable (TURN-5), not the last
  one alone: a draw is offered only when nothing in hand can be laid, so the earlier
  draws were unplayable, and stay so but where the last draw empties the boneyard and
  releases the doubles (DBL-12), which drawn-tile-any-in-hand below already is.
- The engine tile left out of the table when a double's number is counted (DBL-9): the
  engine is the only double of its number, so no open double ever has that number.
- A round dealt with an empty boneyard not checked for a block (END-2) before its first
  turn: a dealt table always leaves some player a tile of the engine's number (the set
  holds N + 1 of them, the engine aside), so no deal is blocked at once.
"""

from __future__ import annotations

import dataclasses

from mtrain.conformance.mutants import originals as ref
from mtrain.conformance.mutants.implementation import Mutant
from mtrain.conformance.mutants.outside import table_named, table_rows_changed
from mtrain.reference import refusals as refusals_module
from mtrain.reference.engine import CHAIN, DRAW, ENGINE, FOLLOW, PASS, START, Action, State
from mtrain.reference.rules import FOLLOW_RESTRICTED, MARKER_OWNER_OWN, Rules
from mtrain.reference.state import IllegalAction
from mtrain.spec import tiles as T

_refusals = refusals_module._refusals  # bound before any swap (originals.py's way)


# --- the trains' open ends ------------------------------------------------------------------


def _with_ends(state: State, ends: list[int]) -> list[Action]:
    """The plays of `state` with its trains' ends read as `ends`."""
    saved = state.ends
    state.ends = ends
    try:
        return ref.plays(state)
    finally:
        state.ends = saved


def _mexican_end_top(state: State) -> list[int] | None:
    """The ends as the faulty engine reads them, or None where it reads them right."""
    mex = state.players
    if state.trains[mex] or state.engine == state.rules.max_pip:
        return None
    ends = state.ends[:]
    ends[mex] = state.rules.max_pip
    return ends


def _plays_mexican_top(state: State) -> list[Action]:
    """TRAIN-5 with a constant: the empty Mexican Train is opened by the set's highest
    number ([12-x]) in every round, not by the round's engine."""
    ends = _mexican_end_top(state)
    return ref.plays(state) if ends is None else _with_ends(state, ends)


def _play_mexican_top(state: State, tile: int, train: int) -> None:
    ends = _mexican_end_top(state) if train == state.players else None
    if ends is None:
        ref.play(state, tile, train)
        return
    state.ends = ends
    ref.play(state, tile, train)


def _blank_ends(state: State) -> list[int] | None:
    """A started train's blank end read as `end or engine`, or None where nothing differs."""
    if state.engine == 0:
        return None
    ends = state.ends
    out = None
    for t, train in enumerate(state.trains):
        if train and ends[t] == 0:
            out = out or ends[:]
            out[t] = state.engine
    return out


def _plays_blank_as_engine(state: State) -> list[Action]:
    """TRAIN-2 with `end or engine`: a started train whose open end is a blank is read as
    ending in the engine's number."""
    ends = _blank_ends(state)
    return ref.plays(state) if ends is None else _with_ends(state, ends)


def _play_blank_as_engine(state: State, tile: int, train: int) -> None:
    ends = _blank_ends(state)
    if ends is not None:
        state.ends = ends
    ref.play(state, tile, train)


# --- the turn: who acts, what ends it, what must be played ------------------------------------


def _hand_never_checked(state: State, action: Action,
                        legal: list[Action] | None) -> list[IllegalAction]:
    """TURN-7 left out of the refusals: a tile the player does not hold is refused only
    for its train or its end, never because it is not theirs."""
    return [r for r in _refusals(state, action, legal) if r.clause != "TURN-7"
            or action.kind != "play"]


def _end_chain_keeps_turn(state: State, action: Action) -> None:
    """TURN-6 without its end-chain: ending a first-turn chain ends the first turn but not
    the turn; the same player moves again, now in an ordinary turn."""
    if action.kind != "end-chain":
        ref.perform(state, action)
        return
    state.turn_doubles.clear()
    state.first_pending &= ~(1 << state.seat)
    state.phase = START


def _any_tile_after_draw(state: State) -> list[Action]:
    """TURN-3 left out: after a draw any tile in hand may be played, not the drawn one
    alone. Nothing else in hand could be laid before the draw, so this differs only
    where the draw itself opens trains: the last tile drawn releases the doubles under
    release-on-empty-boneyard (DBL-12)."""
    drawn = state.drawn
    if drawn < 0:
        return ref.plays(state)
    state.drawn = -1
    try:
        return ref.plays(state)
    finally:
        state.drawn = drawn


def _last_tile_never_drawn(state: State) -> list[Action]:
    """TURN-2 with `len(boneyard) > 1`: the boneyard's last tile is never drawn; the
    player passes as if it were empty."""
    out = ref.legal_actions(state)
    if out == [DRAW] and state.phase != ENGINE and len(state.boneyard) == 1:
        return [PASS]
    return out


def _marked_plays_optional(state: State) -> list[Action]:
    """TURN-1 counting only the own train and the Mexican Train: a player whose only
    plays are on other players' marked trains may draw instead."""
    out = ref.legal_actions(state)
    if (state.phase != START or state.drawn >= 0 or not state.boneyard or not out
            or DRAW in out or PASS in out):
        return out
    mine = (state.seat, state.players)
    if any(a.kind != "play" or a.train in mine for a in out):
        return out
    return [*out, DRAW]


# --- doubles and markers ----------------------------------------------------------------------


def _mexican_double_binds_nobody(state: State, first_turns_over: bool = False) -> list[int]:
    """DBL-6 read over the personal trains only: a double left open on the Mexican Train
    obliges nobody."""
    return [t for t in ref.duties(state, first_turns_over) if t != state.players]


def _mexican_cover_left_open(state: State, tile: int, train: int) -> None:
    """TRAIN-3 for personal trains only: a tile laid against a double on the Mexican Train
    continues the line, but the double stays on the list of open doubles."""
    was_open = train == state.players and train in state.open_doubles
    ref.play(state, tile, train)
    if was_open and train not in state.open_doubles and state.phase != "over":
        state.open_doubles.append(train)


def _turn_doubles_kept(state: State) -> None:
    """TURN-6 with the turn's doubles never cleared: a double its layer left open stays
    a double of the turn for the next player, so it binds nobody (DBL-6)."""
    kept = state.turn_doubles[:]
    ref.end_turn(state)
    if state.phase != "over":
        state.turn_doubles[:] = [t for t in kept if t in state.open_doubles]


def _restricted_oldest_open(state: State) -> list[int]:
    """DBL-3's 'first double' read off the open doubles, not the turn's: under the
    restricted follow-up, with an older double still open that binds nobody (released,
    DBL-9), the tile after a double may go on that older one instead of the turn's."""
    out = ref.playable_trains(state)
    laid, open_doubles = state.turn_doubles, state.open_doubles
    if (state.phase != FOLLOW or not laid or open_doubles[0] == laid[0]
            or state.rules.follow != FOLLOW_RESTRICTED or ref.duties(state)):
        return out
    first, mex = open_doubles[0], state.players
    trains = [first]
    for t in ref.open_trains(state, state.seat):
        if t != first and (t == mex or t not in open_doubles):
            trains.append(t)
    return trains


def _chain_end_held_by_any_double(state: State) -> list[Action]:
    """FIRST-4 read over every open double: a chain may not end while any of its plays
    would cover an open double, one left by an earlier first turn too."""
    out = ref.legal_actions(state)
    if state.phase != CHAIN or not out or out[-1].kind != "end-chain":
        return out
    if any(a.kind == "play" and a.train in state.open_doubles for a in out):
        return out[:-1]
    return out


def _follow_open_trains_only(state: State) -> list[int]:
    """DBL-1's follow-up kept to the trains open in an ordinary turn: a double laid on a
    marked train whose marker came off with it (MARK-4) cannot be covered by its layer."""
    out = ref.playable_trains(state)
    if state.phase != FOLLOW or ref.duties(state):
        return out
    base = ref.open_trains(state, state.seat)
    return [t for t in out if t in base]


def _chain_covers_elsewhere(state: State) -> list[int]:
    """FIRST-2 with TRAIN-6 read first: on a pagat first-turn chain a tile may also cover
    an open double on another train."""
    out = ref.playable_trains(state)
    rules = state.rules
    if (not rules.chain_first_turn or rules.chain_anywhere
            or not (state.phase == CHAIN
                    or (state.phase == START and ref.in_first_turn(state, state.seat)))):
        return out
    return out + [t for t in state.open_doubles if t not in out]


def _mexican_lowers_marker(state: State, tile: int, train: int) -> None:
    """MARK-3 read as 'the own train or the shared one': under owner-plays-own a play on
    the Mexican Train takes the mover's marker off too."""
    seat = state.seat
    ref.play(state, tile, train)
    if train == state.players and state.rules.marker_rule == MARKER_OWNER_OWN:
        state.markers &= ~(1 << seat)


# --- the end of a round, its scores ------------------------------------------------------------


def _winner_moved_on(state: State, end: str, winner: int) -> None:
    """END-1 read after the seat moved on: the seat after the one who went out is named
    the winner (and credited with the out)."""
    ref.finish(state, end, (winner + 1) % state.players if winner >= 0 else winner)


_DOUBLE_BLANK_BIT = T.BIT[T.tile_id(0, 0)]
_OTHER_BLANKS = T.NUMBER_MASK[0] & ~_DOUBLE_BLANK_BIT


def _double_blank_alone_at_face(state: State, seat: int) -> int:
    """SCORE-2 to SCORE-4 behind a shortcut built from the tiles [x-0] with x > 0: a hand
    whose only blank tile is [0-0] is counted at face value."""
    hand = state.hands[seat]
    if hand & _DOUBLE_BLANK_BIT and not hand & _OTHER_BLANKS:
        return sum(T.PIPS[t] for t in T.tiles_of(hand))
    return ref.hand_value(state, seat)


def _blank_25_high_end_only(rules: Rules) -> Rules:
    """SCORE-2 written `(high or 25) + low`: only a blank high end counts 25, so [x-0] is
    worth x and [0-0] 25."""
    if rules.ruleset["blank_values"] != "blank-25":
        return rules
    value = tuple((T.HIGH[t] or 25) + T.LOW[t] for t in range(T.TILE_COUNT))
    return dataclasses.replace(rules, value=value)


NINTH_READING: tuple[Mutant, ...] = (
    # the trains' open ends
    Mutant("mexican-opens-on-top-double",
           "The empty Mexican Train is opened by the set's highest number in every round, "
           "not the round's engine", ("TRAIN-5", "ENG-1"),
           "plays and _play swapped: an empty Mexican Train's end read as N after round 1",
           patches={"plays": _plays_mexican_top, "_play": _play_mexican_top}),
    Mutant("blank-end-reads-as-engine",
           "A started train whose open end is a blank is read as ending in the engine's "
           "number (end or engine)", ("TRAIN-2",),
           "plays and _play swapped: an open end 0 on a started train read as the engine's",
           patches={"plays": _plays_blank_as_engine, "_play": _play_blank_as_engine}),
    # the turn
    Mutant("hand-never-checked",
           "A tile the player does not hold is refused only for its train or end, never "
           "as not theirs", ("TURN-7",), "_refusals swapped: TURN-7 left out of a play's",
           patches={"_refusals": _hand_never_checked}),
    Mutant("end-chain-keeps-turn",
           "Ending a first-turn chain ends the first turn but not the turn: the same player "
           "moves again", ("TURN-6", "FIRST-1", "SEAT-1"),
           "perform swapped: end-chain clears the first turn and stays at the seat",
           patches={"perform": _end_chain_keeps_turn}),
    Mutant("drawn-tile-any-in-hand",
           "After a draw any tile in hand may be played, not only the drawn one",
           ("TURN-3", "DBL-12"), "plays swapped: the drawn tile not read",
           patches={"plays": _any_tile_after_draw}),
    Mutant("last-tile-never-drawn",
           "The boneyard's last tile is never drawn: with one tile left the player passes "
           "as if it were empty", ("TURN-2", "TURN-4"),
           "legal_actions swapped: draw becomes pass with one tile in the boneyard",
           patches={"legal_actions": _last_tile_never_drawn}),
    Mutant("marked-plays-optional",
           "A player whose only plays are on other players' marked trains may draw instead",
           ("TURN-1", "TRAIN-4"),
           "legal_actions swapped: draw offered beside plays on marked trains alone",
           patches={"legal_actions": _marked_plays_optional}),
    # doubles and markers
    Mutant("mexican-double-binds-nobody",
           "A double left open on the Mexican Train obliges nobody: only personal trains' "
           "doubles are duties", ("DBL-6", "TRAIN-1", "DBL-8", "DBL-7"),
           "duties swapped: the Mexican Train left out",
           patches={"duties": _mexican_double_binds_nobody}),
    Mutant("mexican-cover-left-open",
           "Covering a double on the Mexican Train continues the line but leaves the "
           "double listed as open", ("TRAIN-3", "DBL-6"),
           "_play swapped: a covered Mexican double put back among the open doubles",
           patches={"_play": _mexican_cover_left_open}),
    Mutant("turn-doubles-kept",
           "The doubles laid in a turn are not cleared when it ends: a double left open "
           "binds nobody after", ("DBL-6", "TURN-6", "DBL-1"),
           "_end_turn swapped: the turn's open doubles kept as the next turn's",
           patches={"_end_turn": _turn_doubles_kept}),
    Mutant("restricted-follow-oldest-open",
           "Under the restricted follow-up the tile after a double may go on the oldest open "
           "double, a released one, not the turn's first", ("DBL-3", "DBL-9"),
           "playable_trains swapped: the first of the open doubles for the turn's first",
           patches={"playable_trains": _restricted_oldest_open}),
    Mutant("chain-end-held-by-any-double",
           "A first-turn chain may not end while it could cover any open double, one left by "
           "an earlier first turn too", ("FIRST-4", "FIRST-5", "FIRST-11"),
           "legal_actions swapped: end-chain left out while a play covers an open double",
           patches={"legal_actions": _chain_end_held_by_any_double}),
    Mutant("follow-open-trains-only",
           "The tile after a double goes only on trains open in an ordinary turn: a double "
           "laid on a train whose marker came off with it cannot be covered",
           ("DBL-2", "DBL-3", "DBL-4", "TRAIN-6", "MARK-4"),
           "playable_trains swapped: the follow-up's trains kept to open_trains",
           patches={"playable_trains": _follow_open_trains_only}),
    Mutant("chain-covers-elsewhere",
           "On a first-turn chain on the own train a tile may also cover an open double on "
           "another train", ("FIRST-2", "TRAIN-6", "FIRST-5"),
           "playable_trains swapped: every open double added on a chain first turn",
           patches={"playable_trains": _chain_covers_elsewhere}),
    Mutant("mexican-play-lowers-marker",
           "Under owner-plays-own a play on the Mexican Train takes the mover's marker off "
           "too", ("MARK-3", "MARK-2"),
           "_play swapped: the mover's marker off after a Mexican play under owner-plays-own",
           patches={"_play": _mexican_lowers_marker}),
    # the end of a round, its scores
    Mutant("winner-is-next-seat",
           "The seat after the one who went out is named the round's winner and credited "
           "with the out", ("END-1", "SCORE-5", "MATCH-5"),
           "_finish swapped: the winner moved on one seat",
           patches={"_finish": _winner_moved_on}),
    Mutant("double-blank-alone-at-face",
           "A hand whose only blank tile is [0-0] is counted at face value, whatever the "
           "blank rule", ("SCORE-2", "SCORE-3", "SCORE-4"),
           "hand_value swapped: face value when [0-0] is the hand's only blank",
           patches={"hand_value": _double_blank_alone_at_face}),
    Mutant("blank-25-high-end-only",
           "Under blank-25 only a blank high end counts 25: [x-0] is worth x, [0-0] 25",
           ("SCORE-2",), "Rules.value (high or 25) + low under blank-25",
           rules=_blank_25_high_end_only),
    # hand tables: rows still untouched
    Mutant("pagat-seven-take-12",
           "pagat's table gives 7 players the 12 tiles of 5 and 6, not 10", ("DEAL-2",),
           "Rules.ruleset.hand_table 7 -> 12 under pagat",
           rules=table_rows_changed(table_named("pagat"), {7: 12})),
    Mutant("puremco-six-take-14",
           "puremco's double-12 table gives 6 players the 14 tiles of 5, not 12", ("DEAL-3",),
           "Rules.ruleset.hand_table 6 -> 14 under puremco-d12",
           rules=table_rows_changed(table_named("puremco-d12"), {6: 14})),
    Mutant("cardinal-three-take-16",
           "Cardinal's table gives 3 players puremco's 16 tiles, not 15", ("DEAL-5",),
           "Rules.ruleset.hand_table 3 -> 16 under cardinal",
           rules=table_rows_changed(table_named("cardinal"), {3: 16})),
)
"""The ninth reading: 21 rule bugs, none a mutant of the catalogue (names and descriptions
checked against the eight readings before it).

Measured on the corpus before any fixture was added for them (2026-12-04, `mtrain mutants
-m NAME ... --need 2 -j 2`, 2,063 to 2,069 passing runs): 20 killed, one survived
(restricted-follow-oldest-open: no fixture had a released double open beside the turn's),
and three were killed by one fixture alone: hand-never-checked (turn-022),
chain-end-held-by-any-double (anyx-002), follow-open-trains-only (doubles-012);
drawn-tile-any-in-hand by two (emptyx-003, doubles-070). With the fixtures worked by
hand from the clauses (turns/held-ninth-reading.yaml turnx9-001, -002;
doubles/follow-ninth-reading.yaml follow9-001 to -003; first-turn/chain-end-ninth-
reading.yaml chain9-001; turns/drawn-ninth-reading.yaml drawx9-001; and, for a table row
two round-1 deals alone dealt, deal/rows-ninth-reading.yaml rows9-001) every one is killed
by two fixtures or more (2,076 runs): the fewest two (restricted-follow-oldest-open,
chain-end-held-by-any-double, follow-open-trains-only). Blame charges all 21 to a clause
they break."""
