"""Where the states come from: one source for every comparison of the engine with the model.

Every state is one the reference engine reaches, in one of two kinds of game:

* small games (`explore_small`, `explored`): a rule set played on a small set (double-2
  to double-4) with small hands, every state of sampled deals explored
  (reference/explore.py); `explored` keeps a seeded sample of the states met;
* random full-size rounds (`random_rounds`): a rule set on its own set, every player
  count it deals in turn, rounds 1 to N+1 in turn, each from a seeded deal, each action a
  seeded choice among the legal ones.

Both sides read the same Ruleset: the engine its flags (`Rules.of`, or
`reference.explore.small_rules` for a small set), the model its option values
(`Game.model`). The comparators take these states, one per aspect:
legal_sets.py (legal actions, permitting and refusing clauses, END-2/END-3, the
parametric rank), round_effects.py (the model's guards and invariant, the effects),
witnesses.py (the clauses each rule set reaches); invariant_texts.py compares the
invariants' texts with their checks on the examples those texts give.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Final

from mtrain.reference import engine as E
from mtrain.reference.deal import deal
from mtrain.reference.explore import (
    ExploreReport,
    Size,
    Target,
    Visitor,
    explore_size,
    rule_set_names,
    shipped_names,
)
from mtrain.reference.rules import Rules
from mtrain.spec.catalog import catalog
from mtrain.spec.model.alike import distinct_in_play
from mtrain.spec.model.transitions import Model
from mtrain.spec.ruleset import Ruleset

QUICK_MODELS: Final = ((3, 2, 3),)
"""The small games of the default `mtrain check`: (max pip, players, hand)."""
FULL_MODELS: Final = ((3, 2, 3), (3, 3, 2), (4, 3, 3))
"""`--full`'s small games."""
SMALL_DEALS: Final = 3
"""Deals explored per small game for a sample of its states."""


@dataclass(frozen=True)
class Game:
    """A game states come from: a rule set, a table size and a round, on the rule set's own
    set or (`max_pip`) a small one with `hand` tiles a player."""

    ruleset: Ruleset
    players: int
    round_no: int = 1
    hand: int | None = None
    max_pip: int | None = None
    lead: int | None = None
    """Under starting_seat highest-draw, the round's first seat the draw gave (SEAT-5)."""

    def model(self) -> Model:
        """The model of the game, from the rule set's option values."""
        return Model(self.ruleset, self.players, self.hand, self.round_no, self.max_pip,
                     lead=self.lead)


def small_game(rs: Ruleset, max_pip: int, players: int, hand: int) -> Game:
    # SEAT-5: reference/explore.py deals a small game a draw the last seat wins
    lead = players - 1 if rs["starting_seat"] == "highest-draw" else None
    return Game(rs, players, 1, hand, max_pip, lead)


def rule_sets(full: bool) -> list[str]:
    """The rule sets of the small games: the shipped variants (`full`: every rule set)."""
    return rule_set_names() if full else list(catalog().variants)


def full_size(full: bool) -> list[str]:
    """The rule sets of the random full-size rounds: every shipped rule set on its own set
    (the variants, their double-15 overlays, the rule-set files); `full`: every variant
    with every single overlay too."""
    cat = catalog()
    if full:
        return [*rule_set_names(), *cat.examples]
    return shipped_names()


def distinct(names: Iterable[str], sized: bool = False) -> Iterator[tuple[str, Ruleset]]:
    """The rule sets of `names` that play rounds of their own (spec/model/alike.py)."""
    return distinct_in_play(names, sized)


# -- small games -----------------------------------------------------------------------


def explore_small(rs: Ruleset, size: Size, visit: Visitor,
                  target: Target | None = None) -> ExploreReport:
    """Every transition (state, action, next state) of the small game, to `visit`; with
    `target`, also the fewest actions from a deal to a transition it accepts."""
    return explore_size(rs, size, visit=visit, target=target)


def explored(game: Game, shuffle: int, count: int) -> list[E.State]:
    """`count` states of a small game: the successors met exploring SMALL_DEALS deals,
    shuffled with random.Random(shuffle)."""
    assert game.max_pip is not None and game.hand is not None
    states: list[E.State] = []

    def keep(s: E.State, a: E.Action, t: E.State) -> None:
        states.append(t)

    explore_small(game.ruleset, Size(game.max_pip, game.players, game.hand, SMALL_DEALS),
                  keep)
    random.Random(shuffle).shuffle(states)
    return states[:count]


# -- random full-size rounds -----------------------------------------------------------


@dataclass
class Step:
    """One state of a random round, the action chosen in it and the state after (None
    for both at the round's end)."""

    game: Game
    round_index: int
    index: int
    """The action's place in its round."""
    state: E.State
    action: E.Action | None
    after: E.State | None


def random_rounds(rs: Ruleset, seed: int = 0) -> Iterator[Step]:
    """Random rounds under `rs` on its own set, endlessly (the consumer stops): round i
    deals to the i-th player count the rule set allows (cyclically), in round
    1 + (i // counts) mod (N + 1), with seed `seed * 7919 + i`; one random.Random(seed)
    chooses every action."""
    rules = Rules.of(rs)
    rng = random.Random(seed)
    counts = rs.player_counts
    index = 0
    while True:
        players = counts[index % len(counts)]
        round_no = 1 + (index // len(counts)) % rules.rounds
        state = deal(rules, players, round_no, seed=seed * 7919 + index)
        # SEAT-5: the seeded deal drew for the start; its first seat is the starter
        game = Game(rs, players, round_no,
                    lead=state.starter if rules.highest_draw_starts else None)
        step = 0
        while True:
            actions = E.legal_actions(state)
            if not actions:
                yield Step(game, index, step, state, None, None)
                break
            action = actions[rng.randrange(len(actions))]
            after = state.copy()
            E.perform(after, action)
            yield Step(game, index, step, state, action, after)
            state, step = after, step + 1
        index += 1
