"""Games steered toward a blocked end: the rules of one's own most often met on round
ends (a round blocked otherwise, scored otherwise: viaduct's two laps of passes) are read
only where a round ends blocked, and random play on a large set seldom gets there (12
games on viaduct's double-18 reached none).

In a steered game the reference still plays only legal moves, and every question is
asked as in any other game; only which of the legal plays is made changes: a tile that
is not a double where there is one (a double asks its layer for another tile, DBL-1), and of
those the one whose new open end bears the fewest tiles still off the table (in a hand
or the boneyard), ties drawn at random. Fewer plays are open, players draw more, the
boneyard runs out before anyone goes out, and trains end in numbers nobody can follow.
Rounds the reference played alone under viaduct's rules (stand-ins for its own, 400
rounds, random counts and rounds): 12 blocked at random, 34 by the open end alone, 50 by
the doubles kept alone, 83 by both. Which games are steered is drawn from the game's seed
alone (plans.py), and only under rule sets with a round-end rule of one's own, so other
rule sets play the games they played before.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from mtrain.reference.state import Action, State
from mtrain.spec import tiles as T

STEER_SHARE = 0.5
"""The share of games steered, where a rule set plays a round-end rule of its own."""
ROUND_ENDS = frozenset({"blocked_round", "scoring", "blank_values", "tie_rule"})
"""The options a blocked end reads: when it comes (END-2, END-3) and what it is worth."""


def steered(unknown: frozenset[str], rng: random.Random) -> bool:
    """Whether a game under a rule set playing `unknown` its own way is steered."""
    return bool(unknown & ROUND_ENDS) and rng.random() < STEER_SHARE


def live(st: State, number: int) -> int:
    """Tiles of the round's set bearing `number` that are not on the table."""
    return (st.rules.number_mask[number] & ~st.table_mask).bit_count()


def blocking_choice(st: State, legal: Sequence[Action], rng: random.Random) -> Action:
    """Of the legal actions, a play of a tile that is not a double where one is legal,
    leaving its train's open end on the number with the fewest tiles off the table; ties,
    and actions other than plays (where no play is legal), at random."""
    plays = [a for a in legal if a.kind == "play"]
    if not plays:
        return legal[rng.randrange(len(legal))]
    plays = [a for a in plays if not T.IS_DOUBLE[a.tile]] or plays

    def left(a: Action) -> int:  # (the tile laid bears that number too: not counted)
        return live(st, T.OTHER_END[a.tile][st.ends[a.train]]) - 1

    fewest = min(left(a) for a in plays)
    best = [a for a in plays if left(a) == fewest]
    return best[rng.randrange(len(best))]
