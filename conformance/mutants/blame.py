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
from mtrain.spec.catalog import catalog


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
    def ranked(self) -> list[tuple[str, int]]:
        """The clauses charged, most often first, those charged equally often in the
        catalogue's order: `Counter.most_common` orders them as first met, which is the
        corpus's order, so a fixture added anywhere could flip a mutant's charge
        (mut-s53 met MATCH-4 39 against MATCH-2 39)."""
        order = {c: k for k, c in enumerate(catalog().clauses)}
        return sorted(self.charged.items(),
                      key=lambda cn: (-cn[1], order.get(cn[0], len(order)), cn[0]))

    @property
    def tops(self) -> tuple[str, ...]:
        """The clauses charged most often: more than one where they tie."""
        ranked = self.ranked
        return tuple(c for c, n in ranked if n == ranked[0][1]) if ranked else ()

    @property
    def tied(self) -> bool:
        return len(self.tops) > 1

    @property
    def top(self) -> str | None:
        """The clause charged most (the first in the catalogue's order where several tie)."""
        return self.tops[0] if self.charged else None

    @property
    def right(self) -> bool:
        """The clause charged most is one the mutant breaks. Where clauses tie at the top,
        a tie holding a broken clause counts: a reader who looks at what is charged most
        is shown the broken clause as often as any other, and the corpus gives no ground
        to rank one tied clause above another (the order they were first met in is the
        fixtures' order, which means nothing about the rule). `tied` says so, and
        `mtrain mutants --blame` prints the tie, so a tie is never passed off as a clear
        charge."""
        return any(c in self.breaks for c in self.tops)


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
