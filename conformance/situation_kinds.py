"""The kinds of situation (conformance/situations.py) and the play that reaches them: what
each kind's table shows and the clauses it exercises, and random rounds of the reference
played to their end, one state that shows the kind drawn evenly from each (an empty
boneyard's kind played again from its deal with draining moves, which steer play where
random moves seldom go). Every move is legal, so every table is one the rule set's own
moves reach; the draws are seeded by the caller's stream.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from mtrain.reference.deal import deal
from mtrain.reference.engine import (
    CHAIN,
    ENGINE,
    OVER,
    PASS,
    Action,
    State,
    legal_actions,
    perform,
    playable_trains,
)
from mtrain.reference.rules import Rules
from mtrain.reference.state import START
from mtrain.spec import tiles as T


@dataclass(frozen=True)
class Kind:
    """A family of situations: what the table shows, and the clauses it exercises."""

    name: str
    title: str
    shows: Callable[[State], bool]
    clauses: tuple[str, ...]
    drain: bool = False
    """Whether a round that shows none is played again from its deal, drained (draining):
    for tables with an empty boneyard, which random rounds of 5 to 8 players on a large
    set seldom reach (someone goes out first)."""


def _turn_on(st: State) -> bool:
    return st.phase not in (ENGINE, OVER)


def _plain(st: State) -> bool:
    return (_turn_on(st) and not st.open_doubles and st.drawn < 0 and not st.first_pending
            and bool(st.boneyard))


KINDS: tuple[Kind, ...] = (
    Kind("opendbl", "an open double", lambda st: _turn_on(st) and bool(st.open_doubles),
         ("DBL-1", "DBL-5", "DBL-6", "DBL-7", "DBL-8", "DBL-9", "DBL-10", "DBL-12",
          "DBL-13")),
    Kind("drawn", "a tile just drawn", lambda st: _turn_on(st) and st.drawn >= 0,
         ("TURN-2", "TURN-3", "TURN-4", "TURN-5")),
    Kind("first", "first turns to come", lambda st: _turn_on(st) and bool(st.first_pending),
         ("FIRST-1", "FIRST-2", "FIRST-4", "FIRST-6", "FIRST-7", "FIRST-8", "FIRST-9",
          "TRAIN-5")),
    Kind("marked", "markers out",
         lambda st: _turn_on(st) and st.markers.bit_count() >= 2 and not st.first_pending,
         ("MARK-1", "MARK-2", "TRAIN-6", "TRAIN-7")),
    Kind("dry", "an empty boneyard", lambda st: _turn_on(st) and not st.boneyard,
         ("TURN-4",), drain=True),
    Kind("mid", "mid-round", _plain, ("TRAIN-1", "TRAIN-7")),
)
COMMON = ("TRAIN-2", "TRAIN-4", "TURN-1")
"""Clauses every situation exercises: matching ends, where a tile may go, must play."""


def _drew_in_vain(st: State) -> bool:
    return _turn_on(st) and st.drawn >= 0 and legal_actions(st) == [PASS]


PASSED = Kind("pass", "a pass after a draw in vain", _drew_in_vain,
              ("TURN-2", "TURN-4", "MARK-1", "SEAT-1", "FIRST-6", "END-3"))
"""Beside the kinds (`play-pass-`): a table before a draw whose tile cannot be played, the
draw and the pass its steps; what the pass does (the marker up, TURN-4; the first turn
over, FIRST-6; the passes counted, END-3) is checked, and
the next player's legal set. The legal sets of `drawn` show that a pass is offered, not
what it does."""


def laid_play(st: State) -> Action | None:
    """The play of a drawn double a LAID situation takes: the first the rules list (on
    the lowest train), or None where the drawn tile is no double or cannot be laid."""
    if st.drawn < 0 or not T.IS_DOUBLE[st.drawn]:
        return None
    plays = [a for a in legal_actions(st) if a.kind == "play" and a.tile == st.drawn]
    return min(plays, key=lambda a: a.train) if plays else None


LAID = Kind("laid", "a drawn double laid",
            lambda st: _turn_on(st) and laid_play(st) is not None,
            ("TURN-2", "TURN-3", "DBL-1", "DBL-11", "TURN-6", "SEAT-1"))
"""Beside the kinds (`play-laid-`): a table before a draw whose tile is a double that can
be laid, the draw and that play its steps; what the play does is checked (DBL-1: the
turn goes on for another tile; DBL-11: it ends). No other situation takes a play but a
round's last: a drawn double that ended the turn failed nothing on a double-6 set, where
few fixtures speak."""


def wrap_play(st: State) -> Action | None:
    """The play a WRAP situation takes: the last seat's first legal tile that is no
    double, laid with no tile drawn and neither in a first-turn chain nor starting one,
    its hand not emptied by it: the turn ends (TURN-6). None where there is none. (Whether
    the round goes on, not blocked by it, the situation asks: conformance/situations.py.)"""
    seat = st.seat
    if (seat != st.players - 1 or st.drawn >= 0 or st.phase == CHAIN
            or st.hands[seat].bit_count() < 2
            or (st.first_pending >> seat & 1 and st.phase == START
                and st.rules.chain_first_turn)):  # FIRST-1: the play starts a chain
        return None
    return next((a for a in legal_actions(st) if a.kind == "play" and not T.IS_DOUBLE[a.tile]),
                None)


WRAP = Kind("wrap", "a tile laid by the last seat",
            lambda st: _turn_on(st) and wrap_play(st) is not None,
            ("TRAIN-3", "TURN-6", "SEAT-1", "FIRST-6", "MARK-3", "MARK-4", "MARK-5"))
"""Beside the kinds (`play-wrap-`): a table where the last seat is to lay a tile that
ends its turn, and that play its step; what it leaves is checked (SEAT-1: seat 0 moves
next, not the round's starter; TURN-6). The passes and drawn doubles laid, the only
other situations that take a step mid-round, start from a drawn tile, which a draw rule
of one's own decides: under one, no situation asked whose turn comes after an ordinary
tile (coupling's turn back to the starter failed 2 fixtures). The tile laid reads no
draw rule."""
TRIES = 60
"""Rounds played for one situation before its kind is given up under the rule set."""


@dataclass(frozen=True)
class Reached:
    """A state of a random round, and how the round went to it (for the note)."""

    state: State
    moves: int


def pick(kind: Kind, rules: Rules, rng: random.Random, tries: int = TRIES,
         speaks: Callable[[State], bool] | None = None,
         rounds: Mapping[int, int] | None = None) -> Reached | None:
    """A state that shows `kind`, drawn evenly from the next random round that shows one
    (a state with a choice to make before a forced move) and, with `speaks`, that speaks
    about the rule set tested; None after `tries` rounds. A kind that drains plays a round
    that shows none again from its deal, each move the one draining chooses. `rounds`:
    player count -> the last round an implementation's match of its own deals there; the
    round is drawn up to it (as many draws of the stream either way)."""
    counts = [n for n, _ in rules.ruleset.hand_table]
    for _ in range(tries):
        players = rng.choice(counts)
        last = max(1, min(rules.rounds, (rounds or {}).get(players, rules.rounds)))
        st = deal(rules, players, rng.randint(1, last), seed=rng.randrange(1 << 30))
        found = _pick_in(kind, st.copy() if kind.drain else st, rng, speaks, None)
        if found is None and kind.drain:
            found = _pick_in(kind, st, rng, speaks, _until_dry)
        if found is not None:
            return found
    return None


Policy = Callable[[State, list[Action], random.Random], Action]


def below(rng: random.Random, n: int) -> int:
    """rng.randrange(n) for n >= 1, from the same bits: CPython's draws n.bit_length()
    bits until they fall below n (Random._randbelow). Without randrange's checks of its
    arguments, which cost as much as the draw, and random rounds make 1.4 million draws
    for a default conform; tests/test_situations.py holds it to randrange."""
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


def _pick_in(kind: Kind, st: State, rng: random.Random,
             speaks: Callable[[State], bool] | None, policy: Policy | None) -> Reached | None:
    """The round from `st` played to its end (moves at random, or by `policy`), and one
    of its states that shows `kind` and speaks, drawn evenly; None if it has none."""
    kept: list[Reached | None] = [None, None]  # [a forced move, a choice]
    seen = [0, 0]
    moves = 0
    while st.phase != OVER:
        actions = legal_actions(st)
        if st.phase != ENGINE and kind.shows(st):
            tier = int(len(actions) > 1)
            seen[tier] += 1
            if below(rng, seen[tier]) == 0:  # reservoir sampling: each equally likely
                kept[tier] = Reached(st.copy(), moves)
        perform(st, actions[below(rng, len(actions))] if policy is None
                else policy(st, actions, rng))
        moves += 1
    for found in (kept[1], kept[0]):
        if found is not None and (speaks is None or speaks(found.state)):
            return found
    return None


def draining(st: State, actions: list[Action], rng: random.Random) -> Action:
    """A legal move that keeps the round going towards an empty boneyard: the one after
    which the table offers the fewest plays (every seat's, as if its turn came next), so
    that players draw; one that ends the round only when every move does; ties at random.
    Any legal move makes a table the rule set's own moves reach: the choice only steers
    play where random moves seldom go (a double-15 round of 5 to 8 players empties its
    boneyard about once in twenty at random)."""
    if len(actions) == 1:
        return actions[0]
    best: list[Action] = []
    low = 0
    for action in actions:
        after = st.copy()
        perform(after, action)
        n = _open_plays(after)
        if not best or n < low:
            best, low = [action], n
        elif n == low:
            best.append(action)
    return best[below(rng, len(best))]


def _until_dry(st: State, actions: list[Action], rng: random.Random) -> Action:
    """draining's move while the boneyard holds tiles, a random one after."""
    if st.boneyard:
        return draining(st, actions, rng)
    return actions[below(rng, len(actions))]


def _open_plays(st: State) -> int:
    """The tiles every seat could lay on `st` (a copy, changed here) if its turn came,
    counted once per train they fit (a count, not the legal set: it only steers)."""
    if st.phase == OVER:
        return 1 << 30
    seat, phase, drawn = st.seat, st.phase, st.drawn
    numbers, ends = st.rules.number_mask, st.ends
    n = 0
    for q in range(st.players):
        st.seat = q
        st.phase, st.drawn = (phase, drawn) if q == seat else (START, -1)
        hand = st.hands[q]
        for train in playable_trains(st):
            n += (hand & numbers[ends[train]]).bit_count()
    return n
