"""Situations from play (conformance/situations.py) asked where the fixtures leave an
option weak: tables of real play under the answer and under each weak option's rival.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

from mtrain.conformance.adapter import RefusedSetup
from mtrain.conformance.fixture import Fixture
from mtrain.conformance.identify.cells import Piece, explore_in
from mtrain.conformance.identify.found import OptionFinding
from mtrain.conformance.identify.measure import Deals
from mtrain.spec.catalog import RulesetError
from mtrain.spec.ruleset import OTHER
from mtrain.spec.scope import Region, Space

SITUATIONS = 24
"""Situations from play (conformance/situations.py) generated under the answer and under
each rival of an option left weak: tables of real play the fixtures may not show."""
ROUNDS = 2
"""Rounds of situations, each from fresh seeds, while options are left weak."""
ENDS = 12
"""Round ends (situations.end_situations: the table a move before a round's end, half of
them drained to an empty boneyard) asked under the answer and under each rival of a weak
option that only a round's end shows (ROUND_ENDS), per round of situations: the legal
sets asked elsewhere never show how a round ends or what it scores."""
ROUND_ENDS = frozenset({"blocked_round", "scoring", "blank_values", "tie_rule",
                        "match_length"})
"""The options a round's end alone reads (END-2, END-3, SCORE-1..7, MATCH-2..6), and the
match length, which says whether the match ends with it (MATCH-1, MATCH-7): its round
ends start from raised totals too (situations.raised_totals), where a match that ends at
a total of its own shows it (sleeper's first to 200 points, read `full` on the corpus's
tables, whose totals never reach 200 before the last round)."""


def _situations(space: Space, findings: Sequence[OptionFinding], values: Mapping[str, str],
                weak: Sequence[str], deals: Deals, own: tuple[tuple[int, int], ...] | None,
                allowed: Region, parts: dict[str, list[Piece]], round_no: int = 0,
                rounds: Mapping[int, int] | None = None) -> list[Fixture]:
    """Situations under the answer and under each weak option's runner-up (round
    `round_no`'s seeds), those that tell rule sets of the measured region apart (their
    pieces put in `parts`); the round ends drawn within `rounds` (player count -> the last
    round the engine's match deals, carried.dealt_rounds), where it refuses later tables."""
    from mtrain.conformance.situations import (
        SEED,
        end_situations,
        legal_only,
        situations,
        stand_in_for,
    )

    by = {f.option: f for f in findings}
    candidates = [dict(values)]
    ending = [0] if ROUND_ENDS & set(weak) else []  # the candidates whose round ends
    for o in weak:
        f = by[o]
        # a known value the fixtures contradict is asked again itself (its rival is
        # `other`, a rule of the engine's own no situation is made for): where its round
        # ends too, those tables are what tells the value from a bug in its clauses
        alts = ([f.value] if f.status == "contradicted" and f.value != OTHER
                else f.alternatives or [v for v in space.options[o] if v != values[o]][:1])
        for alt in alts:
            if alt != OTHER:
                if o in ROUND_ENDS:
                    ending.append(len(candidates))
                candidates.append({**values, o: alt})
    out: list[Fixture] = []
    full = {**space.full(), **allowed}
    for k, cand in enumerate(candidates):
        # an option found `other` stays `other`: situations() plays a known stand-in
        # (Space.complete's, in the space's order) and keeps only the tables whose legal
        # set reads none of those options. (Not any value of the option: a value taken
        # from a set of strings changed with PYTHONHASHSEED, and with it whether the
        # answer's own situations were asked at all, and what identify wrote.)
        plain, table = space.catalog_form(cand)
        try:
            rs = space.cat.from_values(plain, f"answer-{k}", own or table)
        except RulesetError:
            continue
        # the deals are measured (measure.py), and what a pass does is the same under
        # every rule set (TURN-4): none of those is made; round ends only where an
        # option they alone show is weak (ENDS)
        made = [legal_only(fx) for fx in situations(rs, SITUATIONS, seed=SEED + round_no,
                                                    ends=False, rounds=rounds)]
        plays = stand_in_for(rs, space) if k in ending else None
        if plays is not None:  # how the round ends and scores, under what is measured
            made += end_situations(rs, plays, ENDS, seed=SEED + round_no, totals=True,
                                   rounds=rounds)
        for fx in made:
            fx = dataclasses.replace(fx, id=f"{fx.id}@{round_no}.{k}")
            try:
                pieces = explore_in(fx, dict(full), allowed, space, own)
            except (RefusedSetup, ValueError, KeyError, TypeError):
                continue  # a table some rule set of the region cannot have: not asked
            if len({p.outcomes for p in pieces}) > 1:
                parts[fx.id] = pieces
                out.append(fx)
    return out


def _from_play(fx: Fixture) -> bool:
    """Whether `fx` is a situation from play (_situations), not a fixture of the corpus."""
    from mtrain.conformance.situations import SITUATION_PATH

    return fx.path.startswith(SITUATION_PATH)
