"""Random legal play: whole rounds at full speed, with the invariants checked.

Each round is dealt from its own seed (derived from the run's seed), so round k of a
run can be replayed alone. Moves are chosen uniformly among the legal actions and
carried out in place (`perform`), which is what makes this fast; the invariants are
checked on the final state of every round, and on every state with `check_every_action`.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from mtrain.reference.deal import deal
from mtrain.reference.engine import OVER, legal_actions, perform
from mtrain.reference.invariants import hand_sizes, violations
from mtrain.reference.rules import Rules


@dataclass
class SimulationReport:
    ruleset: str
    players: int
    rounds: int = 0
    actions: int = 0
    seconds: float = 0.0
    endings: Counter[str] = field(default_factory=Counter)
    invariant_violations: int = 0
    first_violations: list[str] = field(default_factory=list)
    longest_round: int = 0

    @property
    def rounds_per_second(self) -> float:
        return self.rounds / self.seconds if self.seconds else 0.0

    @property
    def average_length(self) -> float:
        return self.actions / self.rounds if self.rounds else 0.0

    def to_json(self) -> dict[str, object]:
        return {
            "ruleset": self.ruleset,
            "players": self.players,
            "rounds": self.rounds,
            "actions": self.actions,
            "seconds": round(self.seconds, 4),
            "rounds_per_second": round(self.rounds_per_second, 1),
            "average_round_length": round(self.average_length, 2),
            "longest_round": self.longest_round,
            "endings": dict(sorted(self.endings.items())),
            "invariant_violations": self.invariant_violations,
            "first_violations": self.first_violations,
        }


def round_seed(seed: int, index: int) -> int:
    """The deal seed of round `index` of a run seeded with `seed`."""
    return seed * 1_000_003 + index


def simulate(rules: Rules, players: int, rounds: int, seed: int,
             check_every_action: bool = False,
             progress: Callable[[int], None] | None = None) -> SimulationReport:
    report = SimulationReport(rules.ruleset.name, players)
    rng = random.Random(seed)
    randrange = rng.randrange
    start = time.perf_counter()
    for index in range(rounds):
        round_no = 1 + index % rules.rounds
        state = deal(rules, players, round_no, seed=round_seed(seed, index))
        found = hand_sizes(state)
        steps = 0
        while state.phase != OVER:
            actions = legal_actions(state)
            if not actions:
                found.append(("NO-ACTION", f"no legal action in phase {state.phase}"))
                break
            perform(state, actions[randrange(len(actions))] if len(actions) > 1 else actions[0])
            steps += 1
            if check_every_action:
                found += violations(state)
        found += violations(state)
        if found:
            report.invariant_violations += len(found)
            if len(report.first_violations) < 10:
                report.first_violations += [f"round {index}: {i} {m}" for i, m in found]
        report.rounds += 1
        report.actions += steps
        report.longest_round = max(report.longest_round, steps)
        report.endings[state.result.end if state.result else "stuck"] += 1
        if progress is not None:
            progress(1)
    report.seconds = time.perf_counter() - start
    return report
