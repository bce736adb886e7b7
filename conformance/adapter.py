"""What an implementation under test must answer, and the reference engine behind it.

Everything crosses this boundary in canonical JSON (spec/schemas/state, action,
ruleset), so the same runner drives an in-process Python object and, through the
protocol, a process written in any language.

The reference engine behind the interface (ReferenceImplementation, and the memos it
shares with `mtrain serve`) lives in reference_adapter.py and is found here by name when
first asked for: an adapter importing what it must answer (JSON, Refused, ...) does not
import the engine, the catalogue and the YAML reader with it (two fifths of the start-up
of an adapter's host, conformance/inprocess.py, for an engine of its own).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mtrain.conformance.interface import (
    ADDED_IN_V1,
    COUNTS_EVERY_TABLE,
    IMPOSSIBLE,
    JSON,
    Implementation,
    Refused,
    RefusedSetup,
    Scoring,
    Unsupported,
    fingerprint,
    ruleset_json,
)

if TYPE_CHECKING:  # found at run time by __getattr__, below
    from mtrain.conformance.reference_adapter import (
        _LEGAL,
        MEMO_ANSWERS,
        MEMO_RULES,
        MEMO_STATES,
        Answers,
        DecodedStates,
        ReferenceImplementation,
        _Answer,
        _Entry,
        _flags,
        _Reading,
        _traced,
    )

__all__ = [  # the reference's names too: adapter.py answers for them
    "ADDED_IN_V1",
    "COUNTS_EVERY_TABLE",
    "IMPOSSIBLE",
    "JSON",
    "MEMO_ANSWERS",
    "MEMO_RULES",
    "MEMO_STATES",
    "_LEGAL",
    "Answers",
    "DecodedStates",
    "Implementation",
    "ReferenceImplementation",
    "Refused",
    "RefusedSetup",
    "Scoring",
    "Unsupported",
    "_Answer",
    "_Entry",
    "_Reading",
    "_flags",
    "_traced",
    "fingerprint",
    "ruleset_json",
]


_REFERENCE = frozenset((
    "Answers",
    "DecodedStates",
    "MEMO_ANSWERS",
    "MEMO_RULES",
    "MEMO_STATES",
    "ReferenceImplementation",
    "_Answer",
    "_Entry",
    "_LEGAL",
    "_Reading",
    "_flags",
    "_traced",
))
"""The names of reference_adapter.py this module answers for (its own, before the split)."""


def __getattr__(name: str) -> Any:
    """The reference engine's names, imported when first asked for (PEP 562)."""
    if name in _REFERENCE:
        from mtrain.conformance import reference_adapter

        return getattr(reference_adapter, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
