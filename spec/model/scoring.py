"""Scoring, the match's length and its winners as the clauses say (SCORE-1..7, MATCH-1..7): formulas
that take z3 terms and plain values alike, so that the score and tie questions and the
expectations written for their answers share one meaning."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from mtrain.spec import tiles as T
from mtrain.spec.model.legality import And, If, Opts, Or
from mtrain.spec.ruleset import Ruleset


def tile_value(a: Any, b: Any, o: Opts) -> Any:
    """SCORE-1..4: what a tile [a-b] (a >= b) is worth under the rule set's blank values."""
    pips = a + b
    blanks = If(a == 0, 2, If(b == 0, 1, 0))
    double_blank = And(a == 0, b == 0)
    return If(o.is_("blank_values", "blank-25"), pips + 25 * blanks,
              If(o.is_("blank_values", "double-blank-50"), If(double_blank, 50, pips),
                 If(o.is_("blank_values", "double-blank-25"), If(double_blank, 25, pips),
                    pips)))


def round_scores(values: Sequence[Any], winner: Any, o: Opts,
                 counts: Sequence[int] | None = None) -> list[Any]:
    """SCORE-5 (penalty: what each hand holds), SCORE-6 (positive: the winner collects)
    and SCORE-7 (penalty, but a blocked round's lowest hand scores 0).

    `values[p]` is the value of seat p's hand; `winner` the seat that went out, or -1 for
    a blocked round (SCORE-6: a blocked round scores 0 under positive scoring); `counts[p]`
    the number of tiles in seat p's hand, plain values, given for a blocked round.
    """
    total = sum(values[1:], values[0]) if values else 0
    penalty = o.is_("scoring", "penalty", "penalty-blocked-winner")  # SCORE-5
    out = []
    for p, value in enumerate(values):
        out.append(If(penalty, If(Or(winner == p, blocked_low(p, values, winner, o, counts)),
                                  0, value),
                      If(winner == p, total - value, 0)))
    return out


def blocked_low(p: int, values: Sequence[Any], winner: Any, o: Opts,
                counts: Sequence[int] | None) -> Any:
    """SCORE-7: seat p holds a lowest hand of a blocked round (the fewest tiles, then the
    least value; players equal on both are all lowest)."""
    if counts is None:
        return False  # (a round that went out: nothing to ask)
    fewest = min(counts)
    rivals = [q for q, c in enumerate(counts) if c == fewest]
    if p not in rivals:
        return False
    least = And(*(values[p] <= values[q] for q in rivals))
    return And(o.is_("scoring", "penalty-blocked-winner"), winner == -1, least)


def match_winners(totals: Sequence[int], outs: Sequence[int], o: Opts) -> list[int]:
    """MATCH-2..6 on plain values: the lowest (penalty) or highest (positive) total wins."""
    # MATCH-2 (penalty scoring, SCORE-7's too) or MATCH-3 (positive)
    best = min(totals) if o.is_("scoring", "penalty", "penalty-blocked-winner") else max(totals)
    tied = [p for p, v in enumerate(totals) if v == best]
    if o.is_("tie_rule", "most-outs") and len(tied) > 1:
        most = max(outs[p] for p in tied)
        tied = [p for p in tied if outs[p] == most]
    if o.is_("tie_rule", "lowest-seat"):
        tied = [min(tied)]  # MATCH-6: no seat below it is on the winning total
    return tied


def match_rounds(o: Opts, top: Any = None) -> Any:
    """MATCH-1: one round per engine from [N-N] down to [0-0], N + 1 of them; MATCH-7: a
    single-round game is round 1 alone. `top`: N, when not the rule set's set's (a small
    game)."""
    return If(o.is_("match_length", "single-round"), 1, (o.top() if top is None else top) + 1)


def match_over(round_no: Any, round_over: Any, o: Opts, top: Any = None) -> Any:
    """The game is over once its last round (MATCH-1; MATCH-7: round 1) has ended."""
    return And(round_over, round_no >= match_rounds(o, top))


def hand_values(table: Mapping[str, Any], rs: Ruleset) -> list[int]:
    from mtrain.spec.notation import table_state

    state = table_state(table, rs)
    o = Opts(values=dict(rs.items()))
    return [sum(int(tile_value(T.HIGH[t], T.LOW[t], o)) for t in (T.parse(x) for x in hand))
            for hand in state["hands"]]


def hand_counts(table: Mapping[str, Any], rs: Ruleset) -> list[int]:
    """The number of tiles in each hand of a table in the fixture notation."""
    from mtrain.spec.notation import table_state

    return [len(hand) for hand in table_state(table, rs)["hands"]]


def gone_out(hands: Sequence[Sequence[str]], winner: int, values: Mapping[str, str]) -> list[int]:
    """SCORE-1..6 on plain values: the scores of a round seat `winner` went out of, seat p
    left holding the tiles `hands[p]` ("a-b" texts), under the option values `values`."""
    o = Opts(values=values)
    worths = [sum(int(tile_value(T.HIGH[t], T.LOW[t], o)) for t in map(T.parse, hand))
              for hand in hands]
    return [int(x) for x in round_scores(worths, winner, o)]
