"""The starts of the fixture files' tables, kept in mtrain's cache from one run to the next.

A table fixture's start under a tile set (Fixture.start: spec/notation.table_state) is
built once per process and kept on the fixture; a default `mtrain conform` builds 3,738
of them, choosing the tasks (traced.never_reached starts the table of a fixture no entry
speaks about), about 75 us each: 0.28 CPU s of its 7 at a load of 8. They depend on the
table and the tile set alone, so they are kept here by the exact text of the table (a
pickle: equal texts are equal values of equal types), in one entry per set of tables and
per digest of the code and data they are built from (situations.code_digest: the
notation, the tiles, the spec data), and given back to the fixtures before the run, as
the situations from play are given theirs. A table built under another tile set in the
run is written back after it. MTRAIN_CACHE_DIR=off keeps nothing and builds every start.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from mtrain.conformance.answers import exact_text
from mtrain.conformance.fixture import Fixture
from mtrain.conformance.situations import code_digest
from mtrain.spec import cache

KIND = "starts"


@dataclass
class KeptStarts:
    """The fixtures whose starts a run may keep, by the key of their table, and the tile
    sets the cache gave each key (what `keep` compares against)."""

    name: str
    keyed: list[tuple[Fixture, str]]
    given: dict[str, frozenset[str]] = field(default_factory=dict)


def table_key(fx: Fixture) -> str | None:
    """The key of a table fixture's table (None: no table, or one pickle cannot write)."""
    text = None if fx.table is None else exact_text(fx.table)
    return None if text is None else hashlib.blake2b(text, digest_size=16).hexdigest()


def restore(fixtures: Sequence[Fixture]) -> KeptStarts | None:
    """Give each table fixture the starts the cache keeps for its table; what `keep`
    needs to write the run's starts back (None: no cache, or no table fixture)."""
    if cache.folder() is None:
        return None
    keyed = [(fx, key) for fx in fixtures if (key := table_key(fx)) is not None]
    if not keyed:
        return None
    name = cache.digest(code_digest(), *sorted({key for _, key in keyed})) + ".json"
    kept = KeptStarts(name, keyed)
    found = cache.read(KIND, name)
    if not isinstance(found, dict):
        return kept
    for fx, key in keyed:
        starts: Any = found.get(key)
        if isinstance(starts, dict) and starts and all(type(s) is dict
                                                       for s in starts.values()):
            fx.keep_starts(starts)
            kept.given[key] = frozenset(starts)
    return kept


def keep(kept: KeptStarts | None) -> None:
    """Write the starts the run's fixtures hold, if any was built that the cache did not
    give (a first run, a table started under a tile set not started before)."""
    if kept is None:
        return
    out: dict[str, dict[str, Any]] = {}
    for fx, key in kept.keyed:
        if starts := fx.kept_starts():  # (a table never started: nothing to keep)
            out.setdefault(key, {}).update(starts)
    if any(frozenset(starts) != kept.given.get(key, frozenset())
           for key, starts in out.items()):
        cache.write(KIND, kept.name, out, keep=8)
