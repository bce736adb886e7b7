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


def _situations(space: Space, findings: Sequence[OptionFinding], values: Mapping[str, str],
                weak: Sequence[str], deals: Deals, own: tuple[tuple[int, int], ...] | None,
                allowed: Region, parts: dict[str, list[Piece]], round_no: int = 0
                ) -> list[Fixture]:
    """Situations under the answer and under each weak option's runner-up (round
    `round_no`'s seeds), those that tell rule sets of the measured region apart (their
    pieces put in `parts`)."""
    from mtrain.conformance.situations import SEED, legal_only, situations

    by = {f.option: f for f in findings}
    candidates = [dict(values)]
    for o in weak:
        for alt in by[o].alternatives or [v for v in space.options[o] if v != values[o]][:1]:
            if alt != OTHER:
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
        # the deals are measured (measure.py); a round's end and what a pass does (the
        # same under every rule set, TURN-4), not yet: none of them is made
        for fx in situations(rs, SITUATIONS, seed=SEED + round_no, ends=False):
            fx = dataclasses.replace(legal_only(fx), id=f"{fx.id}@{round_no}.{k}")
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
