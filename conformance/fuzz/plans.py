"""Game plans: each game of a run, its rule set, table size and rounds, drawn from the
run's seed alone (so that a worker process plays the same game as the parent would)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace

from mtrain.conformance.fuzz import own_rules, setups
from mtrain.conformance.fuzz.rulesets import Chooser, context
from mtrain.conformance.fuzz.steer import big_set_steered, scripted, steered

STAND_IN_SHARE = 0.25
"""The share of games of a rule set with rules of its own whose moves are drawn from all
the reference's stand-in allows. Elsewhere, where the implementation's legal answer (its
own rules deciding) lacks the move drawn, a move both allow is played instead, so that
every table asked is one of its own game; in these games the move is played all the same,
on the reference alone: the implementation refuses it, as its answer said (no finding),
and play goes on from the reference's table. Tables past it are outside the
implementation's own game but within the known rules, as conform's fixtures are, and each
later answer is judged where the reference's, traced, reads no rule of its own, as
there. tanker's first turn kept after a pass in a double's follow-up (FIRST-6,
tests/examples/java/Tanker.java) needs a Mexican Train opened on a first turn, which its
own rule forbids (only a double leaves home first, and the engine is set aside): fuzz
never met it (0 of 200 games). Drawn apart, so that the other games stay as they were;
none of those steered toward a blocked end (steer.py)."""


@dataclass(frozen=True)
class GamePlan:
    index: int
    variant: str
    players: int
    first_round: int
    rounds: int
    seed: int
    asks_setups: bool = False
    """The run's first game of its rule set: the setups its table lacks are asked after it
    (setups.py), once a run whichever worker plays it (asked per worker, --jobs 2 counted
    each finding twice)."""
    steer: bool = False
    """Its plays steered toward a blocked end (steer.py)."""
    stand_in: bool = False
    """Its moves drawn from all the stand-in allows, those the implementation's own rules
    forbid too (STAND_IN_SHARE)."""


def game_seed(seed: int, index: int) -> int:
    return seed * 1_000_003 + index


def plan_game(index: int, seed: int, chooser: Chooser, players: int | None = None,
              rounds: Mapping[str, int] | None = None) -> GamePlan:
    """Game `index` of a run: its rule set, table size and rounds, all from the seed.

    A third of the games start at round 1, a quarter at the last round (where the match
    winners are compared), the rest in between; a quarter go on into the next round.
    Under a match length of one's own whose last round is not known (winners are judged
    after every round), half start at round 1 and the rest anywhere: fewer start at a
    round its match does not have (signalbox's eight of sixteen); once known, a quarter
    start at it, where its made-up ties are asked (viaduct's). `rounds`: the last round
    the implementation's own match has, by rule set and count (setups.match_rounds): no
    game starts after it (signalbox: 18 of 60 games did, and ended at their deal).
    """
    s = game_seed(seed, index)
    rng = random.Random(s)
    variant = chooser(index, random.Random(s ^ 0x5EED))
    ctx = context(variant)
    n = players if players is not None else rng.choice(ctx.rs.player_counts)
    last = setups.last_round(ctx, n, rounds or {})
    x = rng.random()
    if own_rules.MATCH_LENGTH in ctx.unknown and setups.round_key(
            variant, n) not in (rounds or {}):  # its last round unknown
        first = 1 if x < 0.5 else rng.randint(1, last)
    else:
        first = 1 if x < 0.33 else last if x < 0.58 else rng.randint(1, last)
    played = 2 if first < last and rng.random() < 0.25 else 1
    # drawn apart, so that the games of rule sets never steered stay as they were
    steer = steered(ctx.unknown, random.Random(s ^ 0xB10C))
    # (a game steered toward a blocked end keeps to that: the steered plays are its
    # point, and a stand-in's move off its own rules would take it elsewhere)
    stand_in = (bool(ctx.unknown) and not steer
                and random.Random(s ^ 0x57A1).random() < STAND_IN_SHARE)
    # on a big set, a share of the other games too (steer.py), the stand-in's kept
    steer = steer or (not stand_in and big_set_steered(ctx.max_pip, random.Random(s ^ 0xB10C)))
    return GamePlan(index, variant, n, first, played, s, steer=steer, stand_in=stand_in)


def first_of_rule_set(plan: GamePlan) -> GamePlan:
    """The run's first game of its rule set (`plan`, as plan_game drew it): it asks the
    setups its table lacks (GamePlan.asks_setups), and where its rounds would follow a
    round ending blocked if steered (steer.scripted: a big set, round ends all known) it is
    steered, unless a stand-in's: a blocked end is met in the run's first game, not after
    the share's draws allow one (tipper's first steered game was its 13th, seed 1)."""
    ctx = context(plan.variant)
    steer = plan.steer or (not plan.stand_in and scripted(ctx.unknown, ctx.max_pip))
    return replace(plan, asks_setups=True, steer=steer)


def tables(games: int, seed: int, chooser: Chooser, players: int | None = None
           ) -> list[tuple[str, int]]:
    """The (rule set, player count) pairs the run's games are played at, under a match
    length of one's own only (what setups.match_rounds measures), drawn as plan_game
    draws them; the scan stops once every count of every such rule set is seen."""
    own = {name for name in chooser.names
           if own_rules.MATCH_LENGTH in context(name).unknown}
    if not own:
        return []
    left = {(name, n) for name in own
            for n in ([players] if players is not None else context(name).rs.player_counts)}
    seen: list[tuple[str, int]] = []
    for i in range(games):
        plan = plan_game(i, seed, chooser, players)
        pair = (plan.variant, plan.players)
        if pair in left:
            left.discard(pair)
            seen.append(pair)
            if not left:
                break
    return seen
