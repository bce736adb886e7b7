"""Setting up a round: shuffling, dealing, and placing the engine.

A deal is reproducible: `deal(rules, players, seed=S)` shuffles with
`random.Random(S)`; `deal(rules, players, order=[...])` takes the shuffled order
itself (hands are dealt from the front, seat 0 first, and the rest is the boneyard
in draw order), so any table can be set up exactly.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from mtrain.reference.engine import (
    BIT,
    DOUBLE,
    ENGINE,
    START,
    State,
    _check_blocked,
    _engine_from_deal,
    _place_engine,
    engine_number,
    no_such_round,
)
from mtrain.reference.rules import Rules
from mtrain.spec import tiles as T


def shuffled_order(rules: Rules, round_no: int, seed: int | str | None) -> list[int]:
    """The tiles to deal (the engine left out when set aside: ENG-2), shuffled."""
    order = deal_pool(rules, round_no)
    shuffle(order, random.Random(seed))
    return order


def shuffle(items: list[int], rng: random.Random) -> None:
    """`rng.shuffle(items)`, to the same order, for a list of at most T.TILE_COUNT tiles:
    the same Fisher-Yates walk, drawing each index as `Random._randbelow` does (bits of
    its length, redrawn while too large), with no method call per tile (tests/test_deal.py
    compares the two)."""
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        k = WIDTH[i]
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


WIDTH: Final = tuple((i + 1).bit_length() for i in range(T.TILE_COUNT))
"""WIDTH[i]: the bits `shuffle` draws for an index up to i ((i + 1).bit_length())."""


def deal_pool(rules: Rules, round_no: int) -> list[int]:
    engine = DOUBLE[engine_number(rules, round_no)]
    pool = list(range(rules.set_mask.bit_length()))  # SET-1: a set's ids are 0 to its size
    if not rules.holder_lays:
        pool.remove(engine)  # ENG-2: set aside before shuffling
    return pool


def deal(rules: Rules, players: int, round_no: int = 1, *, seed: int | str | None = None,
         order: Sequence[int] | None = None, scores: Sequence[int] | None = None,
         outs: Sequence[int] | None = None,
         draw: Sequence[Sequence[int]] | None = None) -> State:
    """A new round, dealt from `order` or from a shuffle seeded with `seed`. Under
    starting_seat highest-draw (SEAT-5) `draw` is the match's draw for the start (see
    `draw_winner`); a seeded deal without one draws it first, from its own seed."""
    if not 1 <= round_no <= rules.set_rounds:
        raise ValueError(f"round {round_no} does not exist: a {rules.ruleset['tile_set']} "
                         f"match has rounds 1 to {rules.set_rounds} [MATCH-1]")
    if no_such_round(rules, round_no):  # MATCH-7
        raise ValueError(f"round {round_no} does not exist: the game is a single round "
                         "[MATCH-7]")
    hand = rules.ruleset.hand_size(players)  # DEAL-7
    seeded = order is None
    if order is None:
        order = shuffled_order(rules, round_no, seed)
    else:
        expected = sorted(deal_pool(rules, round_no))
        if sorted(order) != expected:
            raise ValueError("the deal order must hold each tile to deal exactly once "
                             f"({len(expected)} tiles) [DEAL-1]")
    st = State.__new__(State)
    st.rules = rules
    st.players = players
    st.round = round_no
    st.engine = engine_number(rules, round_no)  # ENG-1 (ENG-7: the deal may change it)
    bit = BIT
    st.hands = hands = [0] * players
    for s in range(players):
        mask = 0
        for t in order[s * hand:(s + 1) * hand]:
            mask |= bit[t]
        hands[s] = mask
    st.boneyard = list(order[players * hand:])  # DEAL-1
    st.trains = [()] * (players + 1)
    st.ends = [st.engine] * (players + 1)  # TRAIN-2: an empty train's end is the engine's
    st.markers = 0  # nobody's train carries a marker
    st.open_doubles, st.turn_doubles = [], []
    st.drawn, st.passes, st.table_mask = -1, 0, 0
    st.first_pending = (1 << players) - 1  # FIRST-6: nobody has had a first turn
    st.scores = list(scores) if scores is not None else [0] * players
    st.outs = list(outs) if outs is not None else [0] * players
    st.result = None
    st.engine_placed = False
    lead = (round_no - 1) % players  # SEAT-3's seat, where ENG-4's search begins
    if rules.highest_draw_starts:  # SEAT-5
        if draw is None and seeded:
            draw = random_draw(rules, players, random.Random(f"draw {seed}")
                               if seed is not None else random.Random())
        if draw is None:
            raise BadDraw("the starting seat is the highest draw's, and the deal has no "
                          "draw [SEAT-5]")
        lead = (draw_winner(rules, players, draw) + round_no - 1) % players  # SEAT-5
    st.starter = st.seat = lead
    st.phase = ENGINE
    engine_bit = BIT[DOUBLE[st.engine]]
    if rules.engine_by_deal:
        _engine_from_deal(st)  # ENG-7: the highest double held, or the first one drawn
    elif not rules.holder_lays:
        _place_engine(st, -1)  # ENG-2; SEAT-3 chooses the starter
    else:
        holder = next((s for s in range(players) if st.hands[s] & engine_bit), -1)
        if holder >= 0:
            st.hands[holder] ^= engine_bit
            if st.boneyard and rules.holder_draws:
                st.hands[holder] |= BIT[st.boneyard.pop(0)]  # ENG-5: a replacement
            _place_engine(st, holder)  # ENG-3: placed at once by its holder
        # else ENG-4 (ENG-6: in laps): players draw for it, from seat (round - 1) mod players
    if st.phase == START:
        _check_blocked(st)
    return st


class BadDraw(ValueError):
    """A draw for the start (SEAT-5) missing, or one the rule cannot produce."""


def draw_winner(rules: Rules, players: int, draw: Sequence[Sequence[int]]) -> int:
    """SEAT-5: the seat that wins the draw for the start. `draw[s]` lists the tiles seat s
    drew: the first drawing's, then one for each run-off it took part in (only the seats
    tied on the highest pip total draw again, the tiles going back in between, so a tile
    may come again in a later drawing but not twice in one). Raises BadDraw."""
    if len(draw) != players:
        raise BadDraw(f"the draw lists {len(draw)} seats for {players} players [SEAT-5]")
    for s, tiles in enumerate(draw):
        for t in tiles:
            if not 0 <= t < T.TILE_COUNT or not rules.set_mask & T.BIT[t]:
                raise BadDraw(f"seat {s} drew a tile that is not of the set [SEAT-5]")
    tied, k = list(range(players)), 0
    while True:
        short = [s for s in tied if len(draw[s]) <= k]
        if short and k == 0:
            raise BadDraw(f"seat {short[0]} drew no tile [SEAT-5]")
        if short and len(short) == len(tied):
            raise BadDraw(f"the last drawing still ties seats {', '.join(map(str, tied))} "
                          "on the highest total [SEAT-5]")
        if short:
            raise BadDraw(f"seat {short[0]} is tied on the highest total but draws no "
                          f"more [SEAT-5]")
        tiles = [draw[s][k] for s in tied]
        if len(set(tiles)) < len(tiles):
            raise BadDraw(f"drawing {k + 1} holds a tile twice [SEAT-5]")
        best = max(T.HIGH[t] + T.LOW[t] for t in tiles)  # SEAT-5: the highest pip total
        out = [s for s in tied if T.HIGH[draw[s][k]] + T.LOW[draw[s][k]] < best]
        for s in out:
            if len(draw[s]) > k + 1:
                raise BadDraw(f"seat {s} draws again without being tied on the highest "
                              "total [SEAT-5]")
        tied, k = [s for s in tied if s not in out], k + 1
        if len(tied) == 1:
            if len(draw[tied[0]]) > k:
                raise BadDraw(f"seat {tied[0]} draws again after winning the draw [SEAT-5]")
            return tied[0]


def last_seat_draw(rules: Rules, players: int) -> list[list[int]]:
    """A draw for the start (SEAT-5) that the last seat wins at once: seat p draws a tile
    of p pips (the small games of reference/explore.py deal with it)."""
    if (players + 1) // 2 > rules.max_pip:
        raise BadDraw(f"a double-{rules.max_pip} set has no {players} distinct totals "
                      "[SEAT-5]")
    return [[T.tile_id((p + 1) // 2, p // 2)] for p in range(players)]


def random_draw(rules: Rules, players: int, rng: random.Random) -> list[list[int]]:
    """A draw for the start (SEAT-5) from `rng`: each drawing takes distinct tiles of the
    set, one for each seat still tied, until one seat is highest."""
    pool = list(range(rules.set_mask.bit_length()))
    draw: list[list[int]] = [[] for _ in range(players)]
    tied = list(range(players))
    while True:
        tiles = rng.sample(pool, len(tied))
        for s, t in zip(tied, tiles, strict=True):
            draw[s].append(t)
        best = max(T.HIGH[t] + T.LOW[t] for t in tiles)
        tied = [s for s, t in zip(tied, tiles, strict=True) if T.HIGH[t] + T.LOW[t] == best]
        if len(tied) == 1:
            return draw


def next_round(state: State, *, seed: int | str | None = None,
               order: Sequence[int] | None = None,
               draw: Sequence[Sequence[int]] | None = None) -> State:
    """The next round of the match, with the running totals carried over (MATCH-1)."""
    if state.result is None:
        raise ValueError("the round is not over yet")
    if state.round >= state.rules.rounds:
        clause = "MATCH-7" if state.rules.single_round else "MATCH-1"
        raise ValueError(f"the match is over after round {state.rules.rounds} [{clause}]")
    return deal(state.rules, state.players, state.round + 1, seed=seed, order=order,
                scores=state.scores, outs=state.outs, draw=draw)


def match_over(state: State) -> bool:
    """MATCH-1: the match ends with the last round's end (MATCH-7: round 1's)."""
    return state.result is not None and state.round >= state.rules.rounds


def match_winners(state: State) -> list[int]:
    """MATCH-2..6: the seats that win on the totals so far."""
    rules = state.rules
    best = max(state.scores) if rules.positive_scoring else min(state.scores)
    tied = [s for s, v in enumerate(state.scores) if v == best]
    if len(tied) > 1 and rules.tie_most_outs:
        most = max(state.outs[s] for s in tied)  # MATCH-5
        tied = [s for s in tied if state.outs[s] == most]
    elif len(tied) > 1 and rules.tie_lowest_seat:
        tied = tied[:1]  # MATCH-6: the lowest seat on the winning total
    return tied  # MATCH-4: a tie that remains is a shared win
