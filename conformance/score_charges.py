"""How a wrong round score or list of winners is read: a tile's value, or who scores.

Round scores off only by some tiles' values are charged to the clause that values tiles;
other wrong scores (a hand scored against another, a seat owed nothing that scores) to the
rule of who scores; winners from the other end of the totals to the scoring direction.
attribution.Referee charges by these readings, and fuzz/scoring.py judges by them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

TILE_VALUES = ("SCORE-2", "SCORE-3", "SCORE-4", "SCORE-1")
"""The clauses that give a tile in hand its value (the blank rules before face values)."""
SCORING = (*TILE_VALUES, "SCORE-5", "SCORE-6", "SCORE-7")
ROUND_SCORES = re.compile(r"round scores \[([0-9, ]*)\], the hands left give \[([0-9, ]*)\]")
"""INV-ROUND-SCORE's account of a round's scores against those the hands left give."""
MATCH = ("MATCH-5", "MATCH-6", "MATCH-4", "MATCH-2", "MATCH-3", "MATCH-1")


def _values_only(message: str, lowest_free: bool = True, went_out: int | None = None,
                 own_hands: bool = True, unscored: Sequence[int] = ()) -> bool:
    """Whether INV-ROUND-SCORE's breach (`message`) gets only some tiles' values wrong:
    no seat owed a score is given none (who scores is the scoring rule's, SCORE-5..7),
    and the others are not all off by one whole factor (a hand counted twice is the
    scoring rule's too): some score right, or each is off by its own amount, or by a
    factor no count of hands gives. In a round gone out, a seat whose hand is worth
    nothing (blanks at face value) that scores something while the seat that went out
    (`went_out`, the mover; unknown: None, and then who scores) still scores nothing has
    its tiles valued wrongly, not the rule of who scores; and so in a blocked round,
    unless its lowest hand may score nothing there (`lowest_free`: SCORE-7). That reading
    holds only where each seat scores its own hand (`own_hands`: penalty scoring); under
    positive scoring a seat owed nothing that scores is who collects (SCORE-6). Every
    scoring seat short by the value of a hand scored nothing is who scores what, not a
    tile's value (common_offset; `unscored`: the values of the hands the rules score
    nothing)."""
    found = ROUND_SCORES.search(message)
    if found is None:
        return False
    got, want = ([int(x) for x in g.split(",") if x.strip()] for g in found.groups())
    return values_only(got, want, message.startswith("a blocked round"), lowest_free,
                       went_out, own_hands, unscored)


def values_only(got: Sequence[int], want: Sequence[int], blocked: bool,
                lowest_free: bool = True, went_out: int | None = None,
                own_hands: bool = True, unscored: Sequence[int] = ()) -> bool:
    """Whether round scores `got` against the rules' `want` get only some tiles' values
    wrong (as _values_only reads INV-ROUND-SCORE's account; `blocked`: a blocked round;
    `unscored`: the values of the hands the rules score nothing, where known)."""
    if len(got) != len(want) or list(got) == list(want):
        return False
    if any(g == 0 and w != 0 for g, w in zip(got, want, strict=True)):
        return False  # a seat owed its hand's value scored nothing: who scores
    worthless = [s for s, (g, w) in enumerate(zip(got, want, strict=True)) if w == 0 and g]
    if worthless:
        if not own_hands:
            return False  # who collects, not what a tile is worth
        if blocked:
            return not lowest_free  # else that nothing may be SCORE-7's
        return (went_out is not None and 0 <= went_out < len(got) and got[went_out] == 0
                and went_out not in worthless)
    scoring = [(g, w) for g, w in zip(got, want, strict=True) if w]
    if common_offset(scoring, unscored):
        return False  # each hand scored against another: who scores what
    g0, w0 = scoring[0]
    # one seat's score off by no whole factor: a tile's value where that seat scores its
    # own hand; under positive scoring the collector's sum is who collects what (SCORE-6)
    return any(g * w0 != g0 * w for g, w in scoring) or (own_hands and g0 % w0 != 0)


def common_offset(scoring: Sequence[tuple[int, int]], unscored: Sequence[int] = ()) -> bool:
    """Whether every seat that scores (got, want: the rules' score, not 0) scores the same
    amount short, that amount the value of a hand the rules score nothing (`unscored`: a
    blocked round's lowest hand under SCORE-7): each hand scored against that one, as a
    blocked round scored by the differences from the lowest hand. That is who scores what
    (SCORE-5..7), not what a tile is worth, which is off in the hands holding that tile
    alone (two hands off alike by chance, each holding one such tile, are no reason to
    read it so: the amount must be that hand's)."""
    if not scoring:
        return False
    short = scoring[0][1] - scoring[0][0]
    return short > 0 and short in unscored and all(w - g == short for g, w in scoring)


def _less(totals: Any, prior: Any) -> list[int] | None:
    """The round scores that took match totals from `prior` to `totals`, where both are
    lists of whole numbers of one length."""
    if not (_ints(totals) and _ints(prior) and len(totals) == len(prior)):
        return None
    return [t - p for t, p in zip(totals, prior, strict=True)]


def _ints(scores: Any) -> bool:
    """Whether `scores` is a list of whole numbers (round scores to compare)."""
    return isinstance(scores, list) and all(type(v) is int for v in scores)


def _distinct(totals: Any) -> bool:
    """Whether the match `totals` are numbers, no two of them equal."""
    return (isinstance(totals, list) and all(isinstance(v, int) for v in totals)
            and len(set(totals)) == len(totals))


def _reversed(totals: Any, want: Sequence[int], got: Sequence[int]) -> bool:
    """Whether the winners `got` hold the other extreme of the match `totals` from `want`,
    and are all who hold it, or it is held by one player alone (else a tie rule may have
    chosen among them: that is ambiguous, and left to the tie rule)."""
    if not (isinstance(totals, list) and totals and all(isinstance(v, int) for v in totals)
            and all(isinstance(s, int) and 0 <= s < len(totals) for s in (*want, *got))):
        return False
    best, low, high = totals[want[0]], min(totals), max(totals)
    if low == high or best not in (low, high):
        return False
    worst = high if best == low else low
    holders = {s for s, v in enumerate(totals) if v == worst}
    return set(got) <= holders and (len(holders) == 1 or set(got) == holders)
