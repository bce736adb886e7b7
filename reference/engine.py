"""The reference engine: the legal actions in a state of a round, and their effects.

The vocabulary (actions, phases, IllegalAction, Result, State) is in reference/state.py
and imported here by name, so `engine.State`, `engine.DRAW` and the rest still resolve.
Read top to bottom: where a player may play, the legal actions, what an action does,
the end of a round. Every rule the code enforces cites its clause id
(spec/data/clauses.yaml) in a comment. Why an action is refused or permitted, each
naming its clause, is reference/refusals.py.

Two ways to move: `refusals.apply(state, action)` is pure (the input is never changed)
and checks the action; `perform(state, action)` here changes the state in place without
a check, for simulations that only ever pick from `legal_actions`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from mtrain.reference.rules import (
    FOLLOW_COVER_OWN,
    FOLLOW_RESTRICTED,
    MARKER_ANYONE_ON,
    MARKER_OWNER_ANYWHERE,
    MARKER_OWNER_OWN,
    Rules,
)

# Every name of the vocabulary, re-exported: callers read engine.State, engine.DRAW, ...
from mtrain.reference.state import BLOCKED as BLOCKED
from mtrain.reference.state import CHAIN as CHAIN
from mtrain.reference.state import DOMINO as DOMINO
from mtrain.reference.state import DRAW as DRAW
from mtrain.reference.state import END_CHAIN as END_CHAIN
from mtrain.reference.state import ENGINE as ENGINE
from mtrain.reference.state import FOLLOW as FOLLOW
from mtrain.reference.state import LOW_MASK as LOW_MASK
from mtrain.reference.state import LOW_SEATS as LOW_SEATS
from mtrain.reference.state import MARKED_HIGH as MARKED_HIGH
from mtrain.reference.state import MARKED_LOW as MARKED_LOW
from mtrain.reference.state import OTHER_SEATS as OTHER_SEATS
from mtrain.reference.state import OTHERS_MASK as OTHERS_MASK
from mtrain.reference.state import OVER as OVER
from mtrain.reference.state import PASS as PASS
from mtrain.reference.state import PLAY as PLAY
from mtrain.reference.state import START as START
from mtrain.reference.state import Action as Action
from mtrain.reference.state import IllegalAction as IllegalAction
from mtrain.reference.state import Result as Result
from mtrain.reference.state import State as State
from mtrain.spec import tiles as T

# The tile tables the hot paths index, bound once here (a module attribute less per use).
BIT: Final = T.BIT
OTHER_END: Final = T.OTHER_END
IS_DOUBLE: Final = T.IS_DOUBLE
PIPS: Final = T.PIPS
HIGH: Final = T.HIGH
LOW: Final = T.LOW
DOUBLE: Final = T.DOUBLE
BLANKS: Final = T.NUMBER_MASK[0]  # the tiles with a blank end


# --- where a player may play -----------------------------------------------------------


def engine_number(rules: Rules, round_no: int) -> int:
    """ENG-1: round 1 uses [N-N], each later round the next double down."""
    return rules.max_pip - (round_no - 1)


def no_such_round(rules: Rules, round_no: int) -> bool:
    """MATCH-7: a single-round game has no round after the first. The match length is read
    only past round 1, where it decides."""
    return round_no > 1 and rules.single_round


def live(state: State, train: int) -> bool:
    """True while some tile of the open double's number is still off the table."""
    number = state.rules.number_mask[state.ends[train]]
    return number & state.table_mask != number  # not ~table_mask: three longs made, not one


def duties(state: State, first_turns_over: bool = False) -> list[int]:
    """Open doubles laid on earlier turns that oblige the player to move (DBL-6)."""
    # Here and below, a flag is read last, only once the table is one its clause speaks
    # about: the scope checks (conformance/traced_runs.py) count every option a run reads.
    # (No comprehension or generator in a hot function: in Python 3.11 each one builds
    # and calls a function, and turns the variables it reads into cells on every call.)
    turn = state.turn_doubles
    if turn:
        out = _others(state.open_doubles, turn)
        if not out:
            return out
    else:
        out = state.open_doubles[:]
    rules = state.rules
    if out and rules.release_after_turn:  # DBL-13
        return []  # DBL-13: a double binds only in its layer's turn
    if state.first_pending and not first_turns_over and rules.chain_first_turn:
        return []  # FIRST-5: chain doubles wait until everyone has had a first turn
    if out and not state.boneyard and rules.release_when_empty:
        return []  # DBL-12: once the boneyard is empty no earlier double binds anyone
    for t in out:
        if not live(state, t):
            if rules.release_uncoverable:
                out = _live_only(state, out)  # DBL-9: an uncoverable double is released
            break
    if len(out) > 1 and rules.oldest_first:
        return out[:1]  # DBL-7: oldest first
    return out  # DBL-8: any of them; DBL-10: an uncoverable one too


def _others(items: list[int], taken: list[int]) -> list[int]:
    """The items not in `taken`, in order."""
    out = []
    for t in items:  # a loop, not a comprehension: see duties
        if t not in taken:
            out.append(t)
    return out


def _live_only(state: State, trains: list[int]) -> list[int]:
    return [t for t in trains if live(state, t)]


def open_trains(state: State, seat: int, all_marked: bool = False,
                first_turns_over: bool = False) -> list[int]:
    """Trains `seat` may play on in an ordinary turn, before any double duty."""
    rules = state.rules
    first = state.first_pending >> seat & 1 and not first_turns_over
    if first and rules.chain_first_turn and not rules.chain_anywhere:
        return [seat]  # FIRST-2: a chain goes on your own train only
    trains = state.trains
    if not trains[seat] and rules.own_train_first:
        return [seat]  # TRAIN-7: start your own train first
    mex = state.players
    # FIRST-9: during the first turns only the starter may open the Mexican Train
    if (first and seat != state.starter and not trains[mex]
            and rules.starter_only_mexican):
        out = [seat]
    elif (not trains[mex] and state.hands[seat] & rules.number_mask[state.ends[mex]]
          and rules.own_train_mexican and not trains[seat]):
        # FIRST-10: the Mexican Train waits until the own train holds a tile. The flag is
        # read wherever the mover holds a tile that would open the empty Mexican Train,
        # not only where its own train is empty: who may open it is the option's question
        # there, so a rule of one's own (an own train of two tiles first, as
        # tests/examples/perl/dandy_engine.pl plays) is traced where it can decide
        out = [seat]
    else:
        out = [seat, mex]  # TRAIN-4, TRAIN-5: the Mexican Train is open to all (MARK-2)
    # TRAIN-4: another player's train only while marked
    if all_marked:
        out += OTHER_SEATS[mex][seat]
    else:  # the marked seats from a table: one step, not one a seat
        marked = state.markers & OTHERS_MASK[mex][seat]
        if marked:
            out += MARKED_LOW[marked & LOW_MASK]
            if marked > LOW_MASK:
                out += MARKED_HIGH[marked >> LOW_SEATS]
    return out


def with_covers(state: State, base: list[int]) -> list[int]:
    """TRAIN-6: `base` and every train ending in an open double, whoever owns it; not
    while TRAIN-7 keeps the player on their own empty train (no duty sends them away)."""
    if not state.trains[state.seat] and state.rules.own_train_first:
        return base  # TRAIN-7
    extra = _others(state.open_doubles, base)
    if extra:
        extra = [t for t in extra if not unbound(state, t)]  # DBL-12, DBL-13
    return base + extra


def unbound(state: State, train: int) -> bool:
    """The open double on `train`, of an earlier turn, binds nobody and opens no train:
    under DBL-13 always, under DBL-12 once the boneyard is empty."""
    if train in state.turn_doubles:
        return False
    rules = state.rules
    if rules.release_after_turn:  # DBL-13
        return True  # DBL-13
    return not state.boneyard and rules.release_when_empty  # DBL-12


def playable_trains(state: State) -> list[int]:
    """The trains the player to move may play on now."""
    seat = state.seat
    phase = state.phase
    if phase == FOLLOW:
        # DBL-1: a follow-up exists only because a double asks for another tile. Read, so
        # that a doubles rule of one's own (a double that ends the turn) is traced on every
        # table of this phase, as the chain rule is on a chain's (FIRST-1).
        state.rules.ordinary_doubles  # noqa: B018 (a flag read for the trace)
    elif phase == CHAIN:
        if not state.rules.chain_anywhere:
            return [seat]  # FIRST-1, FIRST-2
        return with_covers(state, open_trains(state, seat))  # FIRST-11, TRAIN-6
    if state.open_doubles:
        due = duties(state)
        if due:
            return due  # DBL-6: cover the open double, nothing else
        if phase == START and state.first_pending >> seat & 1 and state.rules.chain_anywhere:
            # FIRST-11: a first turn anywhere; FIRST-5: the open doubles bind nobody yet
            return with_covers(state, open_trains(state, seat))
    if phase != FOLLOW:
        return open_trains(state, seat)  # TRAIN-4: an ordinary turn
    rules = state.rules
    laid = state.turn_doubles
    if rules.follow == FOLLOW_COVER_OWN:
        return laid[-1:]  # DBL-4: the layer covers the double just laid
    base = open_trains(state, seat)
    if rules.follow == FOLLOW_RESTRICTED:
        # DBL-3: the first double of the turn, the Mexican Train, or a train not ending
        # in an open double
        first, mex, open_doubles = laid[0], state.players, state.open_doubles
        out = [first]
        for t in base:
            if t != first and (t == mex or t not in open_doubles):
                out.append(t)
        return out
    # DBL-2: anywhere; TRAIN-6: a double laid this turn may be covered wherever it lies
    return base + _others(laid, base)


def plays(state: State) -> list[Action]:
    """Every tile the player to move may lay, on every train it may go on."""
    hand = state.hands[state.seat]
    ends = state.ends
    drawn = state.drawn
    if drawn >= 0:
        # The draw rule decides what a drawn tile may do (TURN-2, TURN-5), though both of
        # its known values agree (TURN-3): read here, so that a draw rule of one's own
        # (which may keep the tile, say) is traced wherever it can change the answer.
        state.rules.draw_until_playable  # noqa: B018 (a flag read for the trace)
        hand &= BIT[drawn]  # TURN-3: only the drawn tile
        if HIGH[drawn] not in ends and LOW[drawn] not in ends and state.phase == START:
            # TRAIN-2: a drawn tile that matches no open end goes nowhere, whichever
            # trains the rules open: none is read, so a rule of one's own on who may play
            # where does not decide the pass after a draw in vain (in a follow-up, whose
            # phase reads rules of its own, playable_trains still answers)
            return []
    number_mask = state.rules.number_mask
    out: list[Action] = []
    for train in playable_trains(state):
        mask = hand & number_mask[ends[train]]
        if mask:
            top = mask.bit_length() - 1
            row = PLAY[train]
            if mask == BIT[top]:  # one tile of the train's number, the usual case (not a
                out.append(row[top])  # dict by bit: it hashes the long mask, 7 digits on d18)
                continue
            # Highest tile first, each put before the ones found so far, so the train's
            # plays stand lowest first: one operation on the (long) mask per tile, where
            # taking the lowest bit (mask & -mask) takes three.
            at = len(out)
            while True:
                out.insert(at, row[top])
                mask ^= BIT[top]
                if not mask:
                    break
                top = mask.bit_length() - 1
    return out


def legal_actions(state: State) -> list[Action]:
    """The exact list of legal actions, without repeats, in a fixed order."""
    phase = state.phase
    if phase == OVER:
        return []
    if phase == ENGINE:
        return [DRAW]  # ENG-4, ENG-6: draw for the engine
    found = plays(state)
    if phase == CHAIN:
        found = _followed(state, found)  # FIRST-12: no double that nothing would follow
        # FIRST-1, FIRST-11: end the chain at will; FIRST-4: not while a play would cover a
        # double laid in it
        turn = state.turn_doubles
        if turn:
            for a in found:
                if a.train in turn:
                    return found
        found.append(END_CHAIN)
        return found
    if found:
        return found  # TURN-1: must play
    rules = state.rules
    if phase == START and state.first_pending >> state.seat & 1 and rules.chain_first_turn:
        return [PASS]  # FIRST-3: no start on the first turn: marker, no draw
    if not state.boneyard:
        return [PASS]  # TURN-4: empty boneyard
    if state.drawn >= 0 and not rules.draw_until_playable:
        return [PASS]  # TURN-4: the drawn tile cannot be played
    return [DRAW]  # TURN-2, TURN-5, DBL-5


def stranded(state: State, tile: int) -> bool:
    """A double that, once laid, leaves the mover holding tiles but none of its number."""
    rest = state.hands[state.seat] & ~BIT[tile]
    return IS_DOUBLE[tile] and bool(rest) and not rest & state.rules.number_mask[HIGH[tile]]


def _followed(state: State, found: list[Action]) -> list[Action]:
    """FIRST-12: in a chain on the own train, no double that nothing would follow."""
    for a in found:
        if stranded(state, a.tile):
            break
    else:
        return found
    if not state.rules.chain_no_double_end or state.rules.ordinary_doubles:
        return found  # DBL-11: with ordinary doubles a chain may end on one
    return _unstranded(state, found)


def _unstranded(state: State, found: list[Action]) -> list[Action]:
    return [a for a in found if not stranded(state, a.tile)]


# --- what an action does -------------------------------------------------------------


def perform(state: State, action: Action) -> None:
    """Carry out a legal action in place (no check: see `apply`)."""
    kind, tile, train = action
    if kind == "play":
        _play(state, tile, train)
    elif kind == "draw":
        _draw(state)
    else:  # pass, end-chain
        if kind == "pass":
            state.markers |= 1 << state.seat  # TURN-4, MARK-1, FIRST-3: marker up
            if not state.boneyard:
                state.passes += 1  # END-3 counts passes made on an empty boneyard
        _end_turn(state)


def _play(state: State, tile: int, train: int) -> None:
    seat = state.seat
    bit = BIT[tile]
    # (`x[i] = x[i] op y`, not `x[i] op= y`: the compiled build makes the latter a
    # generic call, with the int boxed and unboxed)
    hands = state.hands
    hands[seat] = hand = hands[seat] ^ bit
    state.table_mask |= bit
    trains = state.trains
    trains[train] = trains[train] + (tile,)
    ends = state.ends
    ends[train] = OTHER_END[tile][ends[train]]  # TRAIN-2
    markers = state.markers
    if markers and (markers >> seat & 1 or (train < state.players and markers >> train & 1)):
        rule = state.rules.marker_rule  # a marker may come off
        if rule == MARKER_OWNER_OWN:
            if train == seat:
                state.markers = markers & ~(1 << seat)  # MARK-3
        elif rule == MARKER_ANYONE_ON:
            if train < state.players:
                state.markers = markers & ~(1 << train)  # MARK-4
        elif rule == MARKER_OWNER_ANYWHERE:
            state.markers = markers & ~(1 << seat)  # MARK-5
    open_doubles = state.open_doubles
    if open_doubles and train in open_doubles:  # TRAIN-3: one tile covers the double
        open_doubles.remove(train)
        if train in state.turn_doubles:
            state.turn_doubles.remove(train)
    # DBL-11: under ordinary doubles a double is one more tile (the flag is read only
    # when a double is laid)
    double = IS_DOUBLE[tile] and not state.rules.ordinary_doubles
    if double:
        open_doubles.append(train)
        state.turn_doubles.append(train)
    state.drawn = -1
    state.passes = 0
    phase = state.phase
    if not hand:
        _finish(state, DOMINO, seat)  # END-1: out, even on an uncovered double
    elif phase == CHAIN or (
        state.first_pending >> seat & 1 and phase == START
        and state.rules.chain_first_turn
    ):
        # FIRST-1: the chain goes on until the player ends it. Read in a chain too, so
        # that a first turn of one's own (a line that stops by itself) is traced there
        state.rules.chain_first_turn  # noqa: B018 (a flag read for the trace)
        state.phase = CHAIN
    elif double:
        state.phase = FOLLOW  # DBL-1: a double asks for another tile
    else:
        _end_turn(state)  # TURN-6


def _draw(state: State) -> None:
    tile = state.boneyard.pop(0)
    seat = state.seat
    if state.phase == ENGINE:
        if state.rules.everyone_draws:
            _draw_in_lap(state, seat, tile)  # ENG-6: the search goes in whole laps
        elif tile == DOUBLE[state.engine]:
            _place_engine(state, seat)  # ENG-4: found, placed at once
        else:
            state.hands[seat] |= BIT[tile]  # ENG-4: the drawer keeps it
            state.seat = (seat + 1) % state.players
        return
    hands = state.hands
    hands[seat] = hands[seat] | BIT[tile]
    state.drawn = tile  # TURN-3: only this tile may now be played
    if state.markers >> seat & 1:
        # MARK-3..5: no known marker rule takes a marker off at a draw, but when a marker
        # comes off is the rule's question at every move of its owner: read, so that a
        # rule of one's own (one that takes it down as its owner draws, as
        # tests/examples/perl/dandy_engine.pl plays) is traced here, as at a play
        state.rules.marker_rule  # noqa: B018 (a flag read for the trace)


def _draw_in_lap(state: State, seat: int, tile: int) -> None:
    """ENG-6: a draw of the laps' search, kept by the drawer. At the end of a lap (back at
    the seat the search started from, or the boneyard empty) whoever holds the engine
    places it from their hand."""
    state.hands[seat] |= BIT[tile]  # ENG-6: the drawer keeps it, the engine too
    after = (seat + 1) % state.players
    # ENG-6: the lap is over back at the seat it began from (SEAT-5: the round's first seat)
    first = (state.starter if state.rules.highest_draw_starts
             else (state.round - 1) % state.players)
    if after == first or not state.boneyard:  # ENG-6: lap over
        bit = BIT[DOUBLE[state.engine]]
        holder = next((s for s in range(state.players) if state.hands[s] & bit), -1)
        if holder >= 0:
            state.hands[holder] ^= bit
            _place_engine(state, holder)  # ENG-6: its holder places it
            return
    state.seat = after


def _place_engine(state: State, holder: int) -> None:
    state.table_mask |= BIT[DOUBLE[state.engine]]
    state.engine_placed = True
    rules = state.rules
    # SEAT-2: the holder starts; SEAT-4: the seat after it; SEAT-3: the start rotates;
    # SEAT-5: the round's first seat from the draw, kept in `starter` since the deal
    if rules.engine_holder_starts:
        state.seat = holder
    elif rules.after_engine_starts:
        state.seat = (holder + 1) % state.players
    elif rules.highest_draw_starts:  # SEAT-5
        state.seat = state.starter  # SEAT-5
    elif rules.heaviest_tile_starts:
        state.seat = heaviest_holder(state)  # SEAT-6
    else:
        state.seat = (state.round - 1) % state.players
    state.starter = state.seat
    state.phase = START


def heaviest_holder(state: State) -> int:
    """SEAT-6: the seat whose hand holds the heaviest tile, by pip total and then by the
    higher end (the two name one tile of a set, so one seat)."""
    best, seat = (-1, -1), (state.round - 1) % state.players
    for s, hand in enumerate(state.hands):
        for t in T.tiles_of(hand):
            key = (T.PIPS[t], T.HIGH[t])  # SEAT-6: the total, then the higher end
            if key > best:
                best, seat = key, s
    return seat


def _engine_from_deal(st: State) -> None:
    """ENG-7: the highest double any hand holds is the engine, placed by its holder; with
    none held, seats draw in turn from (round - 1) mod players, keeping what they draw,
    until a double comes up, placed by its finder. Part of the deal: no action."""
    if st.rules.designated_opens:
        _designated_opens(st)  # ENG-8
        return
    for n in range(st.rules.max_pip, -1, -1):
        bit = BIT[DOUBLE[n]]
        holder = next((s for s in range(st.players) if st.hands[s] & bit), -1)
        if holder >= 0:
            st.hands[holder] ^= bit
            break
    else:
        holder = st.seat
        while not IS_DOUBLE[st.boneyard[0]]:  # every double is in the boneyard
            st.hands[holder] |= BIT[st.boneyard.pop(0)]  # ENG-7: the drawer keeps it
            holder = (holder + 1) % st.players
        n = HIGH[st.boneyard.pop(0)]
    st.engine = n
    st.ends = [n] * (st.players + 1)  # TRAIN-2: every train starts from the engine
    _place_engine(st, holder)  # ENG-7: placed at once by its holder or finder


def _designated_opens(st: State) -> None:
    """ENG-8: from seat (round - 1) mod players, the designated seat places the highest
    double in its hand; holding none it draws one tile (none from an empty boneyard): a
    double is placed, any other tile kept and the designation passes on. No action."""
    seat, number = st.seat, -1
    while number < 0:
        hand = st.hands[seat]
        number = next((n for n in range(st.rules.max_pip, -1, -1)
                       if hand & T.BIT[T.DOUBLE[n]]), -1)
        if number >= 0:
            st.hands[seat] ^= T.BIT[T.DOUBLE[number]]  # ENG-8: the largest double held
        elif st.boneyard:
            tile = st.boneyard.pop(0)
            if T.IS_DOUBLE[tile]:
                number = T.HIGH[tile]  # ENG-8: a double drawn opens
            else:
                st.hands[seat] |= T.BIT[tile]  # ENG-8: kept; the designation passes on
        if number < 0:
            seat = (seat + 1) % st.players
    st.engine = number
    st.ends = [number] * (st.players + 1)  # TRAIN-2: every train starts from the engine
    _place_engine(st, seat)  # ENG-8: placed by the designated seat that opened


def _end_turn(state: State) -> None:
    turn = state.turn_doubles
    for t in state.open_doubles:  # (a loop, not a comprehension: see duties)
        if t not in turn:
            # DBL-6: a double of an earlier turn still open outlives this turn too, and
            # binds the players after it. Whether it does is the doubles rule's: read, so
            # that a rule of one's own (one that binds the next player only, then lets the
            # double die: tests/examples/pullman_engine.py) is traced at this moment
            state.rules.ordinary_doubles  # noqa: B018 (a flag read for the trace)
            break
    if turn:
        state.turn_doubles.clear()
    state.drawn = -1
    seat = state.seat
    if state.first_pending:
        state.first_pending &= ~(1 << seat)  # FIRST-6: one first turn each
    state.seat = (seat + 1) % state.players  # SEAT-1
    state.phase = START
    if not state.boneyard:
        _check_blocked(state)
    if state.phase == START and state.markers >> state.seat & 1:
        # MARK-3..5: no known marker rule takes a marker off as its owner's turn begins,
        # but a rule of one's own may (tests/examples/js/lamplighter_engine.js): read, so
        # that it is traced at this moment, as at its owner's draw or play. Not where the
        # round has just ended blocked: no turn begins there
        state.rules.marker_rule  # noqa: B018 (a flag read for the trace)


def _check_blocked(state: State) -> None:
    """END-2 or END-3, at the start of a turn with the boneyard empty: the blocked-round
    rule decides at every such moment whether the round goes on, so it is read there (a
    rule of one's own may end a round where neither of these would)."""
    if state.boneyard:
        return
    if state.rules.passes_end_round:
        if state.passes >= state.players:
            _finish(state, BLOCKED, -1)  # END-3: a full round of passes
    elif nobody_can_ever_play(state):
        _finish(state, BLOCKED, -1)  # END-2: nobody can ever play again


def nobody_can_ever_play(state: State) -> bool:
    """END-2, at the start of a turn with the boneyard empty.

    Until somebody plays, every turn is a pass, which only raises the passer's marker and
    ends their first turn. So the turns to come are known: one round of passes, after which
    every marker is up, every first turn is over and nothing changes any more. Nobody can
    ever play when nobody can on that last table, nor on their own turn along the way.
    """
    for s in range(state.players):
        if can_ever_play(state, s):
            return False
    if not state.first_pending:
        return True  # the passes to come only raise markers: the last table offers the most
    # FIRST-5: while a first turn is to come a chain double binds nobody, so a seat may
    # be able to play on its turn though it could not once the first turns are over
    probe = state.copy()
    for _ in range(state.players):
        if plays(probe):
            return False
        seat = probe.seat
        probe.markers |= 1 << seat  # TURN-4, FIRST-3: the pass raises the marker
        probe.first_pending &= ~(1 << seat)  # FIRST-6
        probe.seat = (seat + 1) % probe.players  # SEAT-1
    return True


def can_ever_play(state: State, seat: int) -> bool:
    """END-2: could `seat` play on a turn of its own once every train were marked and
    every first turn over?"""
    trains = (state.open_doubles and duties(state, first_turns_over=True)) or open_trains(
        state, seat, all_marked=True, first_turns_over=True)
    hand = state.hands[seat]
    number_mask = state.rules.number_mask
    ends = state.ends
    for t in trains:  # noqa: SIM110 (a plain loop: END-2 asks this for every seat)
        if hand & number_mask[ends[t]]:
            return True
    return False


def hand_value(state: State, seat: int) -> int:
    """What the tiles left in `seat`'s hand are worth: their pips (SCORE-1), unless a
    blank end is among them (SCORE-1 to SCORE-4 say what that is worth)."""
    hand = state.hands[seat]
    value = state.rules.value if hand & BLANKS else PIPS
    total = 0
    while hand:  # highest tile first: one operation on the (long) mask per tile
        top = hand.bit_length() - 1
        total += value[top]
        hand ^= BIT[top]
    return total


def lowest_hands(state: State, values: Sequence[int]) -> list[int]:
    """SCORE-7: the seats holding the fewest tiles, and among them the lowest `values`."""
    counts = [state.hands[s].bit_count() for s in range(state.players)]
    key = min(zip(counts, values, strict=True))
    return [s for s in range(state.players) if (counts[s], values[s]) == key]


def carried(totals: Sequence[int], scores: Sequence[int]) -> list[int]:
    """MATCH-1: the match totals once a round is over, those before it (`totals`) each
    plus the seat's round score (`scores`), whatever the round's scores are worth."""
    return [t + s for t, s in zip(totals, scores, strict=True)]


def _finish(state: State, end: str, winner: int) -> None:
    n = state.players
    if state.rules.positive_scoring:
        # SCORE-6: the player who went out collects the other hands; blocked: nobody
        scores = [0] * n
        if winner >= 0:
            scores[winner] = sum(hand_value(state, s) for s in range(n))
    else:
        scores = [hand_value(state, s) for s in range(n)]  # SCORE-5: what is left in hand
        if winner < 0 and state.rules.blocked_low_wins:
            for s in lowest_hands(state, scores):
                scores[s] = 0  # SCORE-7: a blocked round's lowest hand scores nothing
    state.scores[:] = carried(state.scores, scores)  # MATCH-1: the totals carry the round
    if winner >= 0:
        state.outs[winner] += 1
    state.result = Result(end, winner, tuple(scores))
    state.phase = OVER
    state.turn_doubles.clear()
    state.drawn = -1
