"""Winners no known rule names: a bug, not a scoring or tie rule of the engine's own.

Every scoring value says which end of the totals wins (MATCH-2: the lowest, under both
penalty values; MATCH-3: the highest, under positive scoring), and every tie rule picks
only among the players on that total (MATCH-4 to MATCH-6). An engine whose round scores
and totals are right but whose winners hold another total breaks a clause every value
the entry is about shares: no house rule of scoring or of ties explains it, yet the
solver could only call scoring `other` (the engine read as wrong only in `winners`). So
such an entry is left unread, as measure.py leaves out a deal that loses tiles
[INV-CONSERVATION], and the fixtures are reported as a likely bug with the clause.
(Winners on the winning total but chosen among a tie in a way no tie rule has are a tie
rule of the engine's own: read as ever.)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mtrain.conformance.fixture import Expectation
from mtrain.conformance.identify.found import Observation, counted
from mtrain.spec.catalog import Catalog

WINNING_TOTAL = {"MATCH-2": ("lowest", min), "MATCH-3": ("highest", max)}
"""The clauses naming the winning end of the totals, each with its end; the scoring
values each holds under are the catalogue's (its `when`)."""


def direction(exp: Expectation, cat: Catalog) -> str | None:
    """The clause of WINNING_TOTAL that every scoring value `exp` is about holds under
    (a product naming no scoring is about them all: none then)."""
    every = frozenset(cat.options["scoring"].values)
    values = frozenset().union(*(r.get("scoring", every) for r in exp.scope.regions()))
    return next((c for c in WINNING_TOTAL
                 if values and values <= cat.clauses[c].when.get("scoring", frozenset())),
                None)


def off_the_total(exp: Expectation, totals: Any, got: Sequence[int],
                  cat: Catalog) -> str | None:
    """The clause the engine's winners `got` break (the totals `totals` checked right),
    where none of them hold the total every known value the entry is about names; None
    where they do, or where that cannot be told."""
    clause = direction(exp, cat)
    if (clause is None or not got or not isinstance(totals, list) or not totals
            or not all(isinstance(v, int) for v in totals)):
        return None
    best = WINNING_TOTAL[clause][1](totals)
    if all(isinstance(s, int) and 0 <= s < len(totals) and totals[s] == best for s in got):
        return None  # on the winning total: chosen as a tie rule of its own may choose
    return clause


def problems(observations: Sequence[Observation]) -> list[str]:
    """The likely bugs of winners off the winning total, one line per clause."""
    by_clause: dict[str, list[str]] = {}
    for obs in observations:
        for clause in sorted(set(obs.off_total.values())):
            by_clause.setdefault(clause, []).append(obs.fixture.id)
    out = []
    for clause, fids in sorted(by_clause.items()):
        end = WINNING_TOTAL[clause][0]
        out.append(f"likely bug: the match's winners are not on the {end} total in "
                   f"{counted(len(fids))} ({', '.join(fids[:3])}"
                   f"{' ...' if len(fids) > 3 else ''}), where the scores are right and "
                   f"every scoring and tie rule they are about names a winner on it; "
                   f"those entries are left unread [{clause}]")
    return out
