"""The illegal actions fuzz offers the implementation at each step, to be refused: a
couple drawn from the mover's own tiles and moves (`illegal_sample`), and now and then a
tile another player holds (`foreign_play`, TURN-7) or a play on a train the table does not
have (`phantom_play`, TRAIN-1), which no sample of the mover's own tiles is."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from mtrain.conformance.adapter import JSON
from mtrain.reference.engine import DRAW, END_CHAIN, PASS, PLAY, Action, State
from mtrain.reference.state import IllegalAction
from mtrain.spec import tiles as T

REFUSAL_PROBES = 2
"""Illegal actions offered to the implementation at every step."""
FOREIGN_EVERY = 4
"""Every this many steps of a round, one more illegal action: a tile another player holds,
laid where it would fit (TURN-7), which a sample of the mover's own tiles never offers."""
PHANTOM_AT = 2
"""At this step of every FOREIGN_EVERY (apart from the foreign tile's), a play on train n
at a table of n seats, which only a wire train number can name (`phantom_play`)."""


def illegal_sample(st: State, legal: Sequence[Action], rng: random.Random,
                   k: int = REFUSAL_PROBES, foreign: bool = False) -> list[Action]:
    """A few illegal actions: mostly plausible ones (draw, pass, end-chain, or a held tile
    that matches a train's end), now and then a held tile on a train it does not fit;
    with `foreign`, one more (`foreign_play`), drawing nothing from `rng`, so that the
    games' course does not change."""
    legal_set = set(legal)
    near: list[Action] = [a for a in (DRAW, PASS, END_CHAIN) if a not in legal_set]
    hand, ends, number_mask = st.hands[st.seat], st.ends, st.rules.number_mask
    for train in range(st.players + 1):
        mask = hand & number_mask[ends[train]]
        while mask:
            low = mask & -mask
            a = PLAY[train][low.bit_length() - 1]
            if a not in legal_set:
                near.append(a)
            mask ^= low
    out: list[Action] = []
    while len(out) < k:
        if near and (rng.random() >= 0.25 or not hand):
            out.append(near.pop(rng.randrange(len(near))))
            continue
        held = T.tiles_of(hand)  # far: a held tile on a train it does not fit
        t = held[rng.randrange(len(held))] if held else -1
        train = rng.randrange(st.players + 1)
        far = PLAY[train][t] if t >= 0 else None
        if far is None or far in out or T.OTHER_END[t][ends[train]] >= 0:
            if not near:
                break
            continue
        out.append(far)
    extra = foreign_play(st, legal) if foreign else None
    return out if extra is None else [*out, extra]


def foreign_play(st: State, legal: Sequence[Action]) -> Action | None:
    """A tile the mover does not hold but another player does, on a train whose end it
    matches, trains the mover may play on first (the heaviest such tile): refused by
    TURN-7 alone, so an engine that takes a tile from the wrong hand is caught."""
    others = 0
    for seat in range(st.players):
        if seat != st.seat:
            others |= st.hands[seat]
    others &= ~st.hands[st.seat]
    if not others:
        return None
    open_to = sorted({a.train for a in legal if a.kind == "play"})
    for train in [*open_to, *(t for t in range(st.players + 1) if t not in open_to)]:
        mask = others & st.rules.number_mask[st.ends[train]]
        if mask:
            return PLAY[train][mask.bit_length() - 1]
    return None


def phantom_play(st: State, legal: Sequence[Action]
                 ) -> tuple[Callable[[State], list[IllegalAction]], JSON] | None:
    """The heaviest tile the mover may play on the Mexican Train now, played on train n
    instead, one past the last seat at a table of n: a train the table does not have,
    refused by TRAIN-1 alone (whatever the rules; the moment allows a play). An engine
    that keeps the Mexican Train after the seats' trains in one list takes it for that
    legal play and accepts it: one finding (a tile the Mexican Train refuses would be
    refused for that, a second one). With what refuses it; None when no such play."""
    n = st.players
    fits = [a.tile for a in legal if a.kind == "play" and a.train == n]
    if not fits:
        return None
    tile = max(fits)

    def refusing(s: State) -> list[IllegalAction]:
        return [IllegalAction("TRAIN-1", f"there is no train {n} at a table of {n} seats")]
    return refusing, {"type": "play", "tile": T.NAMES[tile], "train": n}
