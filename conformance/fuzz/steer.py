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

On a set of double-15 or more, a share of every rule set's games is steered too: random
play there seldom empties the boneyard before someone goes out (a fuzz run of 20 games
on pagat+double-15, seed 0, ended one round of 22 blocked), so blocked rounds under
either `blocked_round` value, and what they score, went untested on big sets. The share
is drawn from the same seeded number as above, only for such sets and only among games
neither steered already nor drawn to play a stand-in's moves (plans.STAND_IN_SHARE:
tanker's FIRST-6 bug shows only in one of those), so the games of smaller sets, those
stand-in games, and the unsteered games of big sets are played as before.

Steering alone still left most big sets' rounds unblocked: tipper's double-16 (3 to 8
players, hands of 11 to 18) blocked none of 73 rounds in 60 games (seed 1), so its round
blocked a pass early (END-3) was never met. Could a game start nearer the end? A deal
request sends the whole set (docs/protocol.md), and a table at a round's start with a
short boneyard is none the rules reach (the other tiles are nowhere), so a short
boneyard must come from play. So a steered round's moves are chosen among the rules' own
rounds: the reference plays the round alone from its deal, steered as above, a number of
times (`BLOCKED_TRIES`, each drawing its ties anew; some microseconds a step), and the
first play that ends blocked is the script the game follows (`blocked_script`), asking
the implementation at every step as ever. Where none ends blocked, or the game leaves
the script (a move the implementation's own rules do not allow, a restart from its
state), it is steered as before. Only big sets' steered games whose round ends are all
known rules are scripted: under a round-end rule of one's own, more blocked ends are
more answers that rule decides, left unjudged (test_fuzz_s55's tie bug under a scoring
of its own was lost so).

Where a steered game came was the share's draw: tipper's first was its 13th game (seed
1), and its END-3 bug waited for it. So the run's first game of each rule set whose
rounds are scripted is steered too (plans.first_of_rule_set), a stand-in's game aside;
the others are drawn as before. And 40 tries found a round ending blocked in about half
the rounds asked (tipper's rules, rounds 1 to 9: 20 of 40 deals); 400 find one in 36 of
40, some 90 ms a deal where none is found (a try is a few hundred steps), once a round.

A script is the stand-in's: where the implementation's own rules refuse its next move, a
move both allow is played, steered, and a blocked end is sought again from the table that
leaves (REPLAN_TRIES, every REPLAN_EVERY steps until one is found, MAX_REPLANS a round).
hump's own train first refused the first scripted move of most rounds, and its END-3 bug
waited for random play (games to find it, seeds 1 to 5: none in 24, 15, 1, 8, 4; since,
13, 3, 1, 8, 4; blocked rounds 10 -> 21 of 145).

Under a round-end rule of one's own on a big set, the moves before a round's end were
left to chance: a turn with the boneyard empty and a play in hand (where a pass offered
beside the plays shows, TURN-1) came in 10 of 100 steered rounds and 4 of 100 random ones
of drawbar's double-17 stand-in (tests/examples/rust/drawbar.rs), and fuzz met its bug 1
once in 40 games. So the random games of a rule set with a blocked round of its own
(the steered ones keep to their blocked ends: viaduct's blocked scores; the stand-in's
to its moves) follow a round the reference plays alone to that turn (`dry_script`), and
go on at random from there.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from mtrain.reference.engine import BLOCKED, OVER, legal_actions, perform
from mtrain.reference.state import Action, State
from mtrain.spec import tiles as T

STEER_SHARE = 0.5
"""The share of games steered, where a rule set plays a round-end rule of its own."""
ROUND_ENDS = frozenset({"blocked_round", "scoring", "blank_values", "tie_rule"})
"""The options a blocked end reads: when it comes (END-2, END-3) and what it is worth."""


BLOCKED_ROUND = "blocked_round"
"""The option whose rule of one's own decides the stretch a dry script leads to."""
BIG_SET = 15
"""The highest pip from which a set counts as big: its rounds seldom block at random."""
BIG_SET_SHARE = 1 / 3
"""The share of games steered on a big set under rules whose round ends are all known."""


def steered(unknown: frozenset[str], rng: random.Random) -> bool:
    """Whether a game under a rule set playing `unknown` its own way is steered."""
    return bool(unknown & ROUND_ENDS) and rng.random() < STEER_SHARE


def big_set_steered(max_pip: int, rng: random.Random) -> bool:
    """Whether a game on a set whose highest pip is `max_pip`, not otherwise steered nor
    a stand-in's (plans.STAND_IN_SHARE: those stay as they were), is steered."""
    return max_pip >= BIG_SET and rng.random() < BIG_SET_SHARE


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


BLOCKED_TRIES = 400
"""Rounds the reference plays alone from a steered round's start, looking for one that ends
blocked (tipper's rules, 40 deals of rounds 1 to 9: 20 found one within 40 tries, 26
within 120, 36 within 400; 3.4 CPU s for all 40 deals' tries)."""
REPLAN_TRIES = 40
"""Tries for a blocked end from a table mid-round, where the implementation's own rules
left the script (hump's own train first and Mexican Train of its own, on a double-18 set,
refuse the stand-in's first scripted move in most rounds, and its round blocked a pass
early, END-3, waited for random play: 0 blocked rounds in 24 games, seed 1)."""
REPLAN_EVERY = 8
"""Steps between two such searches where the last found none (the boneyard shorter)."""
MAX_REPLANS = 12
"""Searches in a round at most (each some tens of milliseconds where none is found)."""
SCRIPT_STEPS = 5000
"""Steps after which a round played alone is given up (no round is near it)."""


def scripted(unknown: frozenset[str], max_pip: int) -> bool:
    """Whether a steered game's rounds follow a round that ends blocked (blocked_script):
    on a big set, under round-end rules all known (the module docstring)."""
    return max_pip >= BIG_SET and not unknown & ROUND_ENDS


def dry_scripted(unknown: frozenset[str], max_pip: int) -> bool:
    """Whether a random game's rounds (neither steered nor a stand-in's) follow a round
    that runs the boneyard dry (dry_script): on a big set, under a round-end rule of
    one's own on when a round with an empty boneyard is over, whose stretch that is (a
    scoring or tie rule of one's own reads only the end: those games are left as they
    were, caboose's rarest bug in one of them)."""
    return max_pip >= BIG_SET and BLOCKED_ROUND in unknown


def dry_script(st: State, rng: random.Random, tries: int = BLOCKED_TRIES) -> list[Action]:
    """The moves of a round the reference plays alone from `st`, steered
    (blocking_choice), up to a turn with the boneyard empty, the round going on and the
    mover holding a play: of `tries` plays, the first that gets there and then ends
    blocked (a steered game's point, kept: viaduct's blocked scores), else the first that
    gets there, else none. Play goes on at random from that turn, its end left to the
    rules (a blocked end of one's own is not scripted: `scripted`)."""
    fallback: list[Action] = []
    for _ in range(tries):
        cur, moves, dry = st.copy(), list[Action](), -1
        while cur.phase != OVER and len(moves) < SCRIPT_STEPS:
            legal = legal_actions(cur)
            if dry < 0 and not cur.boneyard and any(a.kind == "play" for a in legal):
                dry = len(moves)
            act = legal[0] if len(legal) == 1 else blocking_choice(cur, legal, rng)
            moves.append(act)
            perform(cur, act)
        if dry < 0:
            continue
        if cur.result is not None and cur.result.end == BLOCKED:
            return moves[:dry]
        fallback = fallback or moves[:dry]
    return fallback


def blocked_script(st: State, rng: random.Random, tries: int = BLOCKED_TRIES
                   ) -> list[Action]:
    """The moves of a round the reference plays alone from `st`, steered
    (blocking_choice), that ends blocked: the first of `tries` plays that does, or none."""
    for _ in range(tries):
        cur, moves = st.copy(), list[Action]()
        while cur.phase != OVER and len(moves) < SCRIPT_STEPS:
            legal = legal_actions(cur)
            act = legal[0] if len(legal) == 1 else blocking_choice(cur, legal, rng)
            moves.append(act)
            perform(cur, act)
        if cur.result is not None and cur.result.end == BLOCKED:
            return moves
    return []
