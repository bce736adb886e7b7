"""Rule sets that play the same rounds: the same value of every option a round reads.

Scoring aside: the round model (spec/model/transitions.py) never reads the scoring
options, which decide only what a finished round is worth (spec/model/scoring.py). So a
proof or a comparison of rounds made for one rule set holds for every rule set with the
same key, and is made once.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, Final

from mtrain.spec.catalog import catalog
from mtrain.spec.ruleset import Ruleset
from mtrain.spec.tilesets import highest

SCORING: Final = frozenset({"scoring", "blank_values", "tie_rule", "match_length"})
"""Read when a round is scored (SCORE-1..6, MATCH-2..5), never while it is played."""
SIZES: Final = frozenset({"tile_set", "hand_sizes"})
"""The set and the hand table: a small game gives its own."""
OPEN_DOUBLES: Final = frozenset({"follow_up", "double_order", "uncoverable_double"})
"""Read only about an open double: never where a double is an ordinary tile (DBL-11)."""
BINDING: Final = frozenset({"double_order"})
"""Read only about a double of an earlier turn that binds: never where none binds after
its layer's turn (DBL-13)."""


def play_key(rs: Ruleset, sized: bool = False) -> tuple[Any, ...]:
    """The values of the options a round reads; `sized`: with the set's highest number
    and the hand table (games on the rule set's own set and tables)."""
    idle = SCORING | SIZES | (OPEN_DOUBLES if rs["doubles"] == "ordinary" else frozenset())
    if rs["uncoverable_double"] == "released-after-layers-turn":
        idle |= BINDING
    key: tuple[Any, ...] = tuple((o, v) for o, v in sorted(rs.items()) if o not in idle)
    if sized:
        key += (highest(rs["tile_set"]), tuple(sorted(rs.hand_table)))
    return key


def distinct_in_play(names: Iterable[str], sized: bool = False
                     ) -> Iterator[tuple[str, Ruleset]]:
    """Each named rule set whose rounds differ from those of every one before it."""
    cat = catalog()
    seen: set[tuple[Any, ...]] = set()
    for name in names:
        rs = cat.ruleset(name)
        key = play_key(rs, sized)
        if key not in seen:
            seen.add(key)
            yield name, rs
