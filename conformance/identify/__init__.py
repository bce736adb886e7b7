"""`mtrain identify`: which rules does an engine play?

Modules: measure (what the deals show: the set, the hand table, the engine procedure and
the starting seat), cells (the scope partition, kept in the cache and narrowed to what
was measured), solve (the option space in z3 and the weighted MaxSAT), bugs (a known
value with a bug told from a rule of the engine's own), run (identify itself and what it
finds), watch (the engine, with what it could not answer counted).
"""

from __future__ import annotations

from mtrain.conformance.identify.run import (
    Identification,
    Observation,
    OptionFinding,
    identify,
    observe,
)
from mtrain.conformance.identify.watch import EngineFailed, Watched

__all__ = ["EngineFailed", "Identification", "Observation", "OptionFinding", "Watched",
           "identify", "observe"]
