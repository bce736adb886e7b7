"""A tile that adds to a hand's score what the rest of the hand decides: a bug where the
engine declares a known scoring.

An engine that counts a hand wrong (trolley's bug 2, tests/examples/c/trolley_engine.c,
leaves out the hand's highest tile) fails every table that tells the scoring values apart,
alike, as a scoring of its own would, and was read `scoring: other`. So the engine is
asked (a probe, as follow_probe.py asks about a follow-up): on a table where an entry
checking scores failed, its `score` of the round gone out (by the seat whose hand is empty;
on a table with none, such as a blocked round's, by the seat with the fewest tiles, its
hand emptied), the longest other hand made four ways from three tiles of different worths
b < c < m, taken from that hand first, then from the boneyard (the rest put there): m,
c with m, b, c with b. The model (spec/model/scoring.py) scores the same four hands under
every known scoring and blank value; where under each of them c adds the same to m as to
b, and in the engine's scores it does not, no known rule scores so: the entry is a bug,
left unread (shared.py's `unshared`, charged to SCORE-1, SCORE-5), whatever ended the
round. Three tiles from anywhere, so a hand of one tile is enough (trolley's score
fixtures seldom hold a hand of three); c the middle worth and listed first, so that a
count leaving out the highest, the lowest or the first tile listed adds to m and to b
different amounts.

Only where the engine declares a known scoring and blank value (`declared`): a house
scoring may well not add up (handcar's "light hand" gives a blocked round to the lightest
hand, which a tile moves), and an engine that declares none is read from its answers
alone. A round is only ever asked gone out: penalty-blocked-winner gives a blocked round to
the fewest tiles, which a tile moves too. Cheap: once ENOUGH tables have added up, none
scored otherwise, the engine's scoring is taken for additive and nothing more is asked.
"""

from __future__ import annotations

import itertools
from collections.abc import Collection, Sequence

from mtrain.conformance.adapter import JSON, Implementation
from mtrain.conformance.fixture import Expectation
from mtrain.conformance.process import ConfigurationError
from mtrain.spec.catalog import catalog
from mtrain.spec.model.scoring import gone_out
from mtrain.spec.ruleset import OTHER, Ruleset

SUM = "SCORE-1, SCORE-5 (a hand's tiles added)"
"""The bug's key in shared.py's SAID: a tile adds to a hand's score what the rest of the
hand decides, which no known scoring does."""
ENOUGH = 3
"""Tables that added up after which no more are asked (4 requests each)."""
SCORING = ("scoring", "blank_values")
"""The options that decide what a hand is worth: the probe asks the model under each of
their known values."""


class Additive:
    """The probe, with what it has learnt in one identify run."""

    def __init__(self, declared: Ruleset | None, own: Collection[str]) -> None:
        self.active = declared is not None and not set(SCORING) & set(own)
        self.values = {} if declared is None else dict(declared.choices)
        self.alike = 0
        self.seen_bound = False

    @classmethod
    def of(cls, declared: Ruleset | None) -> Additive:
        """The probe for an engine that declares `declared` (None: declares nothing)."""
        own = () if declared is None else [o for o, v in declared.choices if v == OTHER]
        return cls(declared, own)

    def bound(self, exp: Expectation, rj: JSON, state: JSON, impl: Implementation) -> bool:
        """Whether `impl` scores a tile of a hand of `state` by the rest of the hand, as no
        known scoring does (an entry `exp` that checks scores failed there). A table without
        three tiles of different worths to hand out, an engine without `score`, or an
        answer that is no list of scores says no."""
        scorer = getattr(impl, "score", None)
        if (not self.active or (self.alike >= ENOUGH and not self.seen_bound)
                or not callable(scorer) or not checks_scores(exp)):
            return False
        asked = split(state)
        if asked is None or not self.known_add_up(*asked):
            return False
        winner, states = asked
        try:
            got = [scorer(rj, h, winner) for h in states]
        except ConfigurationError:  # the implementation cannot be used at all
            raise
        except Exception:  # `unsupported`, a crash, a broken answer: it says nothing
            return False
        if not all(isinstance(s, list) and len(s) == len(states[0]["hands"])
                   and all(isinstance(v, int) for v in s) for s in got):
            return False
        if alike(got):
            self.alike += 1
            return False
        self.seen_bound = True
        return True

    def known_add_up(self, winner: int, states: Sequence[JSON]) -> bool:
        """Whether the model, under every known scoring and blank value (the rest of the
        rules as declared), scores c as adding the same to m as to b in `states`."""
        known = [[v for v in catalog().options[o].values if v != OTHER] for o in SCORING]
        return all(alike([gone_out(s["hands"], winner, {**self.values, **dict(
            zip(SCORING, values, strict=True))}) for s in states])
            for values in itertools.product(*known))


def alike(scores: Sequence[list[int]]) -> bool:
    """Whether the four scores of split's states (m and c, m, b and c, b) have c add the
    same to each seat's score with m as with b."""
    with_m, m, with_b, b = scores
    return added(with_m, m) == added(with_b, b)


def added(more: list[int], fewer: list[int]) -> list[int]:
    """What a tile added to each seat's score: `more`'s scores less `fewer`'s."""
    return [a - b for a, b in zip(more, fewer, strict=True)]


def checks_scores(exp: Expectation) -> bool:
    """Whether the entry compares scores: the round's, a blocked round's, the totals, or
    the match's winners, named by the totals the round's scores are added to (MATCH-1:
    trolley's count failed generated-tie-rule-001's winners alone)."""
    return ((isinstance(exp.result, dict) and exp.result.get("scores") is not None)
            or exp.blocked_scores is not None or "scores" in exp.state
            or exp.winners is not None)


def pips(tile: str) -> int:
    a, b = tile.split("-")
    return int(a) + int(b)


def split(state: JSON) -> tuple[int, list[JSON]] | None:
    """The winner of `state`'s round asked gone out (a seat with an empty hand, the one
    its result names first; else the shortest hand but the longest, emptied) and the four
    states the probe scores: the longest other hand holding m and c, m, b and c, b (three
    tiles of different worths b < c < m, the first found in that hand, then in the
    boneyard, then in the winner's hand; every other tile of those in the boneyard; a tile
    just drawn stays in its hand). None where no three such tiles are found."""
    if not isinstance(state, dict):
        return None
    hands, boneyard = state.get("hands"), state.get("boneyard")
    if not (isinstance(hands, list) and isinstance(boneyard, list) and len(hands) >= 2
            and all(isinstance(h, list) and all(_tile(t) for t in h) for h in hands)
            and all(_tile(t) for t in boneyard)):
        return None
    seat = max(range(len(hands)), key=lambda s: len(hands[s]))
    result = state.get("result")
    said = result.get("winner") if isinstance(result, dict) else None
    empty = [s for s, h in enumerate(hands) if not h and s != seat]
    winner = (said if said in empty else empty[0] if empty
              else min((s for s in range(len(hands)) if s != seat), key=lambda s: len(hands[s])))
    drawn = state.get("drawn")
    kept = [t for t in hands[seat] if t == drawn]
    pool = [*hands[seat], *boneyard, *hands[winner]]
    worths: dict[int, str] = {}
    for t in pool:
        if t != drawn:
            worths.setdefault(pips(t), t)
    if len(worths) < 3:
        return None
    b, c, m = sorted(list(worths.values())[:3], key=pips)  # the first three worths found

    def holding(tiles: list[str]) -> JSON:
        out = [[] if s == winner else list(h) for s, h in enumerate(hands)]
        out[seat] = [*tiles, *kept]
        left = [t for t in pool if t not in out[seat]]
        # (a tile just drawn by the winner, put in the boneyard, is drawn no more)
        return {**state, "hands": out, "boneyard": left,
                **({"drawn": None} if drawn in left else {})}
    return winner, [holding([c, m]), holding([m]), holding([c, b]), holding([b])]


def _tile(t: object) -> bool:
    if not isinstance(t, str):
        return False
    ends = t.split("-")
    return len(ends) == 2 and all(e.isdigit() for e in ends)
