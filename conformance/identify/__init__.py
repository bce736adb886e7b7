"""`mtrain identify`: which rules does an engine play?

Modules: measure (what the deals show: the set, the hand table, the engine procedure and
the starting seat), measured (that as a region of the option space, and the rule sets
asked and written), cells (the scope partition, kept in the cache and narrowed to what
was measured), tables (a table the rules build otherwise under some values, asked once
per table built), observe (the fixtures played), solve (the option space in z3 and the
weighted MaxSAT), conclude (an answer and its likely bugs), findings (each option's
finding: its margin, how sure, contradicted), pins (options found `other` pinned to a
known value with a bug), bugs (a known value with a bug told from a rule of the engine's
own), shared (answers that break a clause every known value shares: a likely bug, left
unread), from_play (situations from play where options are left weak), carried (tables
of rounds the engine's own match never deals, asked at rounds it deals), run (identify
itself), found (what it finds), interrupted (what an interrupt leaves of it), watch (the
engine, with what it could not answer counted).
"""

from __future__ import annotations

from mtrain.conformance.identify.found import Identification, Observation, OptionFinding
from mtrain.conformance.identify.interrupted import IdentifyInterrupted
from mtrain.conformance.identify.run import identify, observe
from mtrain.conformance.identify.watch import EngineFailed, Watched

__all__ = ["EngineFailed", "Identification", "IdentifyInterrupted", "Observation",
           "OptionFinding", "Watched", "identify", "observe"]
