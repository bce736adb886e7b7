"""Does a failure point at the broken rule? The mutants catalogue as the measure.

Every mutant breaks known clauses (`Mutant.clauses`). Played against the corpus, each of
its failures is charged to one clause (attribution.py); the charge is right for the
mutant when the clause charged with most of its failures is one it breaks. `mtrain
mutants --blame` prints the table; a test holds the share of mutants charged right.
Since every reachable run is played, the fixtures that kill each mutant (runs.py's sense:
an outcome not `pass`, or a crash) come with it: the tests read both from one run.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from mtrain.conformance.fixture import Fixture
from mtrain.conformance.mutants.catalogue import MUTANTS, check_names
from mtrain.conformance.mutants.implementation import CheckedMutant
from mtrain.conformance.mutants.runs import passing_runs, played
from mtrain.conformance.runner import resolve, run_one


@dataclass(frozen=True)
class Blame:
    mutant: str
    breaks: tuple[str, ...]
    charged: Counter[str]
    failures: int
    killed_by: tuple[str, ...] = ()
    """The fixtures that kill the mutant, in corpus order: a run whose outcome is not
    `pass` or that crashes it (as run_mutants counts kills, without stopping early)."""

    @property
    def top(self) -> str | None:
        return self.charged.most_common(1)[0][0] if self.charged else None

    @property
    def right(self) -> bool:
        return self.top in self.breaks


def blame(fixtures: Sequence[Fixture], names: Sequence[str] | None = None) -> list[Blame]:
    """Per mutant: the clauses its failures are charged to."""
    if names:
        check_names(names)
    runs, _ = passing_runs(fixtures)
    out = []
    for name in names or list(MUTANTS):
        m = MUTANTS[name]
        impl = m.implementation()
        checked = CheckedMutant(impl)
        charged: Counter[str] = Counter()
        failures = 0
        killers: dict[str, None] = {}
        for fx, variant, *_ in played(impl, runs):  # the others pass, as under the reference
            exp = next(e for v, e in fx.rulesets() if v == variant)
            try:
                outcome = run_one(fx, resolve(variant), exp, checked)
            except Exception:  # a mutant that crashes where the reference does not
                killers[fx.id] = None  # a kill, charged to no clause
                continue
            if outcome.status != "pass":
                killers[fx.id] = None
            if outcome.status == "fail":
                failures += 1
                charged.update(list(dict.fromkeys(outcome.charged)))
        out.append(Blame(name, m.clauses, charged, failures, tuple(killers)))
    return out
