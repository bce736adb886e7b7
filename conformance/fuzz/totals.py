"""Made-up match totals: the running totals before a game that starts at a later round
(ties made likely), and totals that leave the last round's end tied (MATCH-4, MATCH-5).
"""

from __future__ import annotations

import random

from mtrain.reference.rules import Rules


def prior_totals(rules: Rules, players: int, rounds: int, rng: random.Random,
                 going_out: bool = True) -> tuple[list[int], list[int]]:
    """Made-up running totals after `rounds` earlier rounds (ties made likely).
    `going_out` False: every one blocked, nobody out (a match length of one's own may
    have ended at a made-up out: coupling's, after the round of a third one)."""
    scores, outs = [0] * players, [0] * players
    for _ in range(rounds):
        winner = rng.randrange(players) if rng.random() < 0.85 else -1
        if not going_out:
            winner = -1  # (the same draws from rng: the rest of the game is unchanged)
        if winner >= 0:
            outs[winner] += 1
        for s in range(players):
            if rules.positive_scoring:
                scores[s] += rng.randrange(10, 120) if s == winner else 0
            elif s != winner:
                scores[s] += rng.randrange(0, 60)
    if players > 1 and rng.random() < 0.5:
        a, b = rng.sample(range(players), 2)
        scores[b] = scores[a]  # MATCH-4, MATCH-5: ties need equal totals
    return scores, outs


def tied_totals(rules: Rules, round_scores: list[int],
                rng: random.Random) -> tuple[list[int], list[int]]:
    """Totals before a last round whose scores are `round_scores`, chosen so that two or
    more seats end the match tied on the best total; and rounds won, often tied too."""
    n = len(round_scores)
    tied = rng.sample(range(n), 2 if n == 2 or rng.random() < 0.7 else 3)
    top = max(round_scores) + rng.randrange(0, 100)
    final = []
    for s, r in enumerate(round_scores):
        if s in tied:
            final.append(top)
        elif rules.positive_scoring:
            final.append(r + rng.randrange(0, max(1, top - r)))
        else:
            final.append(top + 1 + rng.randrange(0, 50))
    outs = [0] * n
    for _ in range(rules.rounds - 1):
        if rng.random() < 0.8:
            outs[rng.choice(tied) if rng.random() < 0.6 else rng.randrange(n)] += 1
    if rng.random() < 0.4:
        outs[tied[1]] = outs[tied[0]]
    return [f - r for f, r in zip(final, round_scores, strict=True)], outs
