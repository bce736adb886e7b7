"""Cutting down a finished table asked who wins (an "over" probe, round_end.over_probe).

Such a table writes its round's result: how it ended, who went out and the round's
scores, which must be those of the hands left (INV-ROUND-SCORE). A cut that moves a
tile out of a hand, or drops a seat, changes them, so each candidate's round scores are
computed again from its hands, its totals moved by as much (`rescored`); they must still
carry the round
(MATCH-1: no total below the round's score, the one who went out counted once at
least: `carries`), and are made smaller with their differences kept (`lower_totals`),
so that who leads and who ties is unchanged.
"""

from __future__ import annotations

from typing import Any

from mtrain.conformance.fuzz import scoring
from mtrain.conformance.fuzz.rulesets import context
from mtrain.reference import codec
from mtrain.spec.notation import FixtureError, table_state


def rescored(table: dict[str, Any], variant: str) -> dict[str, Any]:
    """`table` with its round's scores those the rules give its hands (SCORE-1..7), and
    its totals moved by as much (the earlier rounds' kept), where they read no rule of
    one's own; else, or where it is no table, as it is (the judge then finds whether it
    can be)."""
    result = table.get("result")
    if not isinstance(result, dict):
        return table
    ctx = context(variant)
    try:
        worth = scoring.reference_scores(ctx, table_state(table, ctx.rs))
    except (FixtureError, codec.StateError, ValueError, KeyError, TypeError):
        return table
    if worth is None or worth[1]:
        return table
    totals = [t + new - old for t, new, old in zip(table["scores"], worth[0],
                                                   result["scores"], strict=True)]
    return {**table, "scores": totals, "result": {**result, "scores": worth[0]}}


def carries(table: dict[str, Any] | None) -> bool:
    """Whether a finished table's totals carry its round (MATCH-1): none below the
    round's score, and the one who went out counted as out."""
    result = (table or {}).get("result")
    if table is None or not isinstance(result, dict):
        return True
    out = result.get("winner")
    if isinstance(out, int) and out >= 0 and table["outs"][out] < 1:
        return False
    return all(t >= r for t, r in zip(table["scores"], result["scores"], strict=True))


def lower_totals(table: dict[str, Any]) -> dict[str, Any] | None:
    """`table` with as much taken off every total as the earlier rounds leave on each
    (the same for all: who leads and who ties kept), or None where nothing can be."""
    result = table.get("result")
    if not isinstance(result, dict):
        return None
    before = min(t - r for t, r in zip(table["scores"], result["scores"], strict=True))
    if before <= 0:
        return None
    return {**table, "scores": [t - before for t in table["scores"]]}
