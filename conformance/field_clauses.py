"""The clauses attribution picks among for a field or a broken invariant.

Which clauses set each field of a table (by the kind of step that changed it, or in a fresh
deal), and which an invariant's breach points at, with the patterns that read the
invariants' accounts; attribution.Referee picks, among these, the one the rule set applies
and the fixture lists.
"""

from __future__ import annotations

import re

HAND_TABLES = ("DEAL-2", "DEAL-3", "DEAL-4", "DEAL-5", "DEAL-6", "DEAL-9", "DEAL-11", "DEAL-12",
               "DEAL-13", "DEAL-14", "DEAL-15", "DEAL-16")
"""The clauses of the hand-size tables: the one a rule set deals by is charged for a hand of
the wrong size (pick keeps the one that applies)."""
FIELD_CLAUSES: dict[str, tuple[str, ...]] = {
    "marked": ("MARK-3", "MARK-4", "MARK-5", "TURN-4", "FIRST-3", "DBL-5", "MARK-1"),
    "passes": ("END-3", "TURN-4", "END-2"),
    "seat": ("TURN-6", "DBL-1", "DBL-11", "SEAT-2", "SEAT-4", "SEAT-5", "SEAT-6", "SEAT-3", "ENG-6",
             "ENG-4", "SEAT-1"),
    "starter": ("SEAT-2", "SEAT-4", "SEAT-5", "SEAT-6", "SEAT-3"),
    "phase": ("DBL-1", "DBL-11", "FIRST-1", "TURN-6", "END-1", "END-2", "END-3", "ENG-6",
              "ENG-4"),
    "open_doubles": ("DBL-1", "DBL-11", "TRAIN-3", "DBL-9", "DBL-6"),
    "turn_doubles": ("DBL-1", "DBL-11", "TRAIN-3"),
    "drawn": ("TURN-3", "TURN-2", "TURN-5"),
    "first_turns": ("FIRST-6",),
    "hands": ("DEAL-1", "TURN-2", "ENG-6", "ENG-4", "TRAIN-2"),
    "hand_sizes": (*HAND_TABLES, "DEAL-1", "ENG-3"),
    "boneyard": ("DEAL-1", "TURN-2", "TURN-5", "ENG-2"),
    "boneyard_size": ("DEAL-1", "TURN-2", "TURN-5", "ENG-2"),
    "trains": ("TRAIN-2", "TRAIN-4", "ENG-3"),
    "engine": ("ENG-7", "ENG-8", "ENG-1"),
    "engine_placed": ("ENG-2", "ENG-3", "ENG-6", "ENG-4"),
    "scores": ("MATCH-1", "SCORE-5", "SCORE-6", "SCORE-7"),  # the match totals
    "outs": ("MATCH-5", "END-1"),
}
DEAL_FIELD: dict[str, tuple[str, ...]] = {
    "engine": ("ENG-7", "ENG-8", "ENG-1"),
    "engine_placed": ("ENG-2", "ENG-3", "ENG-6", "ENG-4", "ENG-7", "ENG-8"),
    "phase": ("ENG-2", "ENG-3", "ENG-6", "ENG-4", "ENG-7", "ENG-8"),
    "hand_sizes": FIELD_CLAUSES["hand_sizes"],
    "hands": ("DEAL-1", "ENG-3", "ENG-2", "ENG-7", "ENG-8"),
    "boneyard": ("DEAL-1", "ENG-2", "ENG-7", "ENG-8"),
    "seat": ("SEAT-2", "SEAT-4", "SEAT-5", "SEAT-6", "SEAT-3", "ENG-6", "ENG-4"),
    "starter": ("SEAT-2", "SEAT-4", "SEAT-5", "SEAT-6", "SEAT-3"),
    "trains": ("ENG-3", "ENG-7", "ENG-8"), "first_turns": ("FIRST-6",),
}
"""The clause that sets each field of a freshly dealt round."""
SEARCH: tuple[str, ...] = ("ENG-6", "ENG-4")
"""The search for a missing engine: in laps (ENG-6), or until it is drawn (ENG-4)."""
STEP_FIELD: dict[tuple[str, str], tuple[str, ...]] = {
    ("draw", "hands"): ("TURN-2", "TURN-5", "ENG-4", "ENG-6"),
    ("draw", "boneyard"): ("TURN-2", "TURN-5", "ENG-4", "ENG-6"),
    ("draw", "drawn"): ("TURN-2", "TURN-5", "TURN-3"),
    ("draw", "seat"): ("TURN-2", "ENG-6", "ENG-4", "SEAT-1"),
    ("draw", "hand_sizes"): ("TURN-2", "TURN-5", "ENG-4", "ENG-6"),
    ("draw", "boneyard_size"): ("TURN-2", "TURN-5", "ENG-4", "ENG-6"),
    ("draw", "marked"): ("TURN-4", "MARK-1"),
    ("pass", "marked"): ("FIRST-3", "TURN-4", "MARK-1"),
    ("pass", "passes"): ("END-3", "TURN-4", "END-2"),
    ("pass", "seat"): ("SEAT-1", "TURN-6", "TURN-4"),
    ("pass", "first_turns"): ("FIRST-6",),
    ("pass", "phase"): ("TURN-6", "END-2", "END-3"),
    ("play", "marked"): ("MARK-3", "MARK-4", "MARK-5"),
    ("play", "seat"): ("SEAT-1", "TURN-6"),
    ("play", "phase"): ("TURN-6", "FIRST-1", "END-1", "END-2"),
    ("play", "open_doubles"): ("TRAIN-3", "DBL-9"),
    ("play", "hands"): ("TURN-7", "TRAIN-2"),
    ("play", "trains"): ("TRAIN-2", "TRAIN-4"),
    ("play", "first_turns"): ("FIRST-6",),
    ("end-chain", "marked"): ("FIRST-1", "FIRST-11", "MARK-1"),  # ending a chain is no pass
    ("end-chain", "seat"): ("FIRST-1", "SEAT-1"),
    ("end-chain", "phase"): ("FIRST-1", "TURN-6"),
}
"""The clause that sets a field, by the kind of step that changed it."""
INVARIANT_CLAUSES: dict[str, tuple[str, ...]] = {
    "INV-ROUND-SCORE": ("SCORE-2", "SCORE-3", "SCORE-4", "SCORE-5", "SCORE-6", "SCORE-7"),
    "INV-CONSERVATION": ("TURN-2", "DEAL-1", "TRAIN-2"),
    "INV-PIPS": ("SET-1", "DEAL-1"),
    "INV-NUMBERS": ("SET-1",),
    "INV-CONNECTED": ("TRAIN-2", "TRAIN-3"),
    "INV-MARKERS": ("MARK-2", "MARK-1"),
    "INV-OPEN-DOUBLES": ("DBL-1", "DBL-11", "TRAIN-3"),
    "INV-TURN": ("TURN-6", "SEAT-1"),
    "INV-HAND-SIZES": HAND_TABLES,
    "INV-FRESH-ROUND": ("DEAL-1", "MARK-1"),
}
"""The clauses an invariant's breach points at, for an answer that breaks it."""
DRAWN_TILE = frozenset(("hands", "boneyard", "boneyard_size", "drawn"))
"""The fields a draw fills with the tile it takes (TURN-2: the boneyard's first)."""
TILE_COUNTS = ("INV-CONSERVATION", "INV-PIPS", "INV-NUMBERS")
"""The invariants a lost or doubled tile breaks (the first names the tile)."""
OPEN_LISTS = re.compile(r"listed on trains \[([0-9a-z, ]*)\], trains ending in a double: "
                        r"\[([0-9a-z, ]*)\]")
"""INV-OPEN-DOUBLES's account of the open doubles against the trains ending in one."""
TURN_DOUBLES_KEPT = re.compile(r"doubles of this turn in phase (\w+)")
"""INV-OPEN-DOUBLES's account of a turn's doubles kept in a phase between turns."""
HAND_SIZES = re.compile(r"hand sizes \[([0-9, ]*)\] after the deal, not \[([0-9, ]*)\]")
"""INV-HAND-SIZES's account of a deal's hands against the table's."""
CITED = re.compile(r"\[([A-Z]+-[0-9]+)\]\s*$")
ROUND_END = ("END-1", "END-2", "END-3")
