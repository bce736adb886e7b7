"""A hand's score that is not the sum of its tiles' worths: a bug where the engine declares a
known scoring.

Under every known scoring and blank value a round gone out is scored by adding up tile
worths (SCORE-1 to SCORE-6): penalty charges each tile to its holder, positive to the
player who went out, and the blank values only change what one tile is worth. So, the
winner and the other hands fixed, the scores a tile adds to a hand do not depend on the
rest of that hand. An engine that counts a hand otherwise (trolley's bug 2, tests/examples/
c/trolley_engine.c, leaves out the hand's highest tile) fails every table that tells the
scoring values apart, alike, as a scoring of its own would, and was read `scoring: other`.

So the engine is asked (a probe, as follow_probe.py asks about a follow-up): on a table
where an entry checking scores failed, its `score` of the round gone out (by the seat
whose hand is empty; on a table with none, such as a blocked round's, by the seat with the
fewest tiles, its hand emptied) with one hand H of three tiles or more as it is, without
its highest tile c, as c with H's lowest other tile b, and as b alone (each tile taken out
put in the boneyard). Where c adds other scores to H than to b, the entry is a bug, left
unread (shared.py's `unshared`, charged to SCORE-1, SCORE-5): the hands the table's scores
count are counted wrong, whatever ended the round.

Only where the engine declares a known scoring and blank value (`declared`): a house
scoring may well not add up (coaling's "bare doubles" does, a train's double added to its
owner's hand; handcar's "light hand" gives a blocked round to the lightest hand, which a
tile moves), and an engine that declares none is read from its answers alone. A round is
only ever asked gone out: penalty-blocked-winner gives a blocked round to the fewest
tiles, which a tile moves too. Cheap: once ENOUGH tables have added up, none scored
otherwise, the engine's scoring is taken for additive and nothing more is asked.
"""

from __future__ import annotations

from collections.abc import Collection

from mtrain.conformance.adapter import JSON, Implementation
from mtrain.conformance.fixture import Expectation
from mtrain.conformance.process import ConfigurationError
from mtrain.spec.ruleset import OTHER, Ruleset

SUM = "SCORE-1, SCORE-5 (a hand's tiles added)"
"""The bug's key in shared.py's SAID: a tile adds to a hand's score what the rest of the
hand decides, which no known scoring does."""
ENOUGH = 3
"""Tables that added up after which no more are asked (4 requests each)."""
SCORING = ("scoring", "blank_values")
"""The options whose known values all add tile worths up."""


class Additive:
    """The probe, with what it has learnt in one identify run."""

    def __init__(self, declared: Ruleset | None, own: Collection[str]) -> None:
        self.active = declared is not None and not set(SCORING) & set(own)
        self.alike = 0
        self.seen_bound = False

    @classmethod
    def of(cls, declared: Ruleset | None) -> Additive:
        """The probe for an engine that declares `declared` (None: declares nothing)."""
        own = () if declared is None else [o for o, v in declared.choices if v == OTHER]
        return cls(declared, own)

    def bound(self, exp: Expectation, rj: JSON, state: JSON, impl: Implementation) -> bool:
        """Whether `impl` scores a tile of a hand of `state` by the rest of the hand (an
        entry `exp` that checks scores failed there). A table with no hand to split, an
        engine without `score`, or an answer that is no list of scores says no."""
        scorer = getattr(impl, "score", None)
        if (not self.active or (self.alike >= ENOUGH and not self.seen_bound)
                or not callable(scorer) or not checks_scores(exp)):
            return False
        asked = split(state)
        if asked is None:
            return False
        winner, hands = asked
        try:
            got = [scorer(rj, h, winner) for h in hands]
        except ConfigurationError:  # the implementation cannot be used at all
            raise
        except Exception:  # `unsupported`, a crash, a broken answer: it says nothing
            return False
        if not all(isinstance(s, list) and len(s) == len(got[0])
                   and all(isinstance(v, int) for v in s) for s in got):
            return False
        whole, rest, pair, alone = got
        if added(whole, rest) == added(pair, alone):  # c adds the same to H and to b
            self.alike += 1
            return False
        self.seen_bound = True
        return True


def added(more: list[int], fewer: list[int]) -> list[int]:
    """What a tile added to each seat's score: `more`'s scores less `fewer`'s."""
    return [a - b for a, b in zip(more, fewer, strict=True)]


def checks_scores(exp: Expectation) -> bool:
    """Whether the entry compares scores: the round's, a blocked round's, or the totals."""
    return ((isinstance(exp.result, dict) and exp.result.get("scores") is not None)
            or exp.blocked_scores is not None or "scores" in exp.state)


def pips(tile: str) -> int:
    a, b = tile.split("-")
    return int(a) + int(b)


def split(state: JSON) -> tuple[int, list[JSON]] | None:
    """The winner of `state`'s round asked gone out (a seat with an empty hand, the one
    its result names first; else the shortest other hand's, emptied) and the four states
    the probe scores: the longest hand H as it is, without its highest tile c, as c with
    its lowest b, and b alone, in H's order (the tiles taken out in the boneyard). None
    where no hand holds three tiles."""
    if not isinstance(state, dict):
        return None
    hands, boneyard = state.get("hands"), state.get("boneyard")
    if not (isinstance(hands, list) and isinstance(boneyard, list)
            and all(isinstance(h, list) and all(_tile(t) for t in h) for h in hands)):
        return None
    seat = max(range(len(hands)), key=lambda s: len(hands[s]), default=0)
    hand = hands[seat] if hands else []
    if len(hand) < 3 or len(hands) < 2:
        return None
    result = state.get("result")
    said = result.get("winner") if isinstance(result, dict) else None
    empty = [s for s, h in enumerate(hands) if not h]
    winner = (said if said in empty else empty[0] if empty
              else min((s for s in range(len(hands)) if s != seat), key=lambda s: len(hands[s])))
    high = max(hand, key=pips)
    low = min((t for t in hand if t != high), key=pips)

    def kept(tiles: list[str]) -> JSON:
        out = [[] if s == winner else list(h) for s, h in enumerate(hands)]
        out[seat] = tiles
        return {**state, "hands": out, "boneyard": [
            *boneyard, *hands[winner], *(t for t in hand if t not in tiles)]}
    return winner, [kept(hand), kept([t for t in hand if t != high]),
                    kept([t for t in hand if t in (high, low)]), kept([low])]


def _tile(t: object) -> bool:
    if not isinstance(t, str):
        return False
    ends = t.split("-")
    return len(ends) == 2 and all(e.isdigit() for e in ends)
