"""Mutants: realistic rule bugs, each a named switch on a wrapper around the reference engine.

A conformance suite is only as good as the bugs it catches. Each mutant here is one
mistake a real implementation could ship (a marker that never comes off, a double that
ends the turn, hands dealt from the wrong row of a table, ...), built without touching
`mtrain.reference`: a `MutantImplementation` is a `ReferenceImplementation` that, for
the duration of one call, either

- builds the engine's `Rules` with a flag changed (`dataclasses.replace`),
- swaps one or more engine functions for a faulty version that wraps the original
  (restored when the call returns, so nothing leaks into the reference), or
- post-processes the JSON it returns (a deal, the match winners).

Because the swapped function is the one the engine itself calls, `legal()` and
`apply()` always agree, as they would in a real buggy engine.

`run_mutants(fixtures)` plays every fixture against every mutant and reports which
fixtures kill which mutant: a fixture kills a mutant when it passes under the reference
and at least one of its outcomes is `fail` or `error` (a crash included) under the mutant.
Only runs that pass under the reference are used; a run that never reaches a mutant's
hooks is skipped, since the mutant would play it exactly as the reference does, and so is
one whose every request the mutant answers as the reference did.

    mtrain mutants [PATH] [--first] [--json] [-j N] [-m NAME] [--list] [--blame]

(the command line: mtrain/commands/mutants.py).

Modules: implementation (a mutant, and the engine with it switched on), originals (the
reference functions the faults call), faults_play and faults_end (the faulty functions),
catalogue (every mutant, as data), runs (the corpus against the mutants), replay (a run's
requests asked again of a mutant), blame (the clauses failures are charged to).
"""

from __future__ import annotations

from mtrain.conformance.mutants.catalogue import MUTANTS, mutant
from mtrain.conformance.mutants.implementation import (
    Mutant,
    MutantImplementation,
    SwappedReference,
    swapped,
)
from mtrain.conformance.mutants.runs import MutantReport, run_mutants

__all__ = [
    "MUTANTS", "Mutant", "MutantImplementation", "MutantReport", "SwappedReference",
    "mutant", "run_mutants", "swapped",
]
