"""identify's pieces of the shipped corpus (cells.py), shipped with the package: a user's
first `mtrain identify` reads them instead of exploring every fixture's partition of the
option space (150-250 CPU s before the engine is asked anything).

They are the cache entry a cold identify of the shipped corpus would write, under the
entry's own name: a digest of the code and the spec data (lint/scopes.py,
code_and_data_digest) and of the entry's layout. corpus_pieces reads them only for an
entry of that very name (any change to the code or the data names another entry: the
shipped one is then never read, and the corpus is explored as before), only for a
fixture the user's cache does not hold, and only when the compressed bytes have the digest
the index names and decompress to the size it names; a file cut short, spoiled or missing
counts as absent. Each fixture's pieces are checked as the cache's are (cells._from_json)
and what is read is kept in the user's cache, so that the next run reads the cache alone.

Two files in the shipped folder (conformance/shipped.py's: MTRAIN_SHIPPED_SITUATIONS moves
it or switches it off): `identify-pieces.json`, the index, and `identify-pieces.xz`, the
entry's JSON compressed with xz (conformance/shipped_entry.py reads and writes them, as it
does the lint's scope checks shipped beside them).
`mtrain situations --shipped` writes them with the situations, exploring every fixture
afresh (neither the cache nor the files already shipped are read); `--check` compares the
entry's name (the code and data that made them) and the fixtures they cover with the
corpus's, without exploring again: the pieces are a function of what the name digests
(their making is tested at small scale, tests/test_shipped_pieces.py), and exploring the
corpus a second time in CI cost 150-250 CPU s to learn nothing the name does not say.

MTRAIN_SHIPPED_PIECES=off keeps them unread: the tests switch them off (tests/conftest.py),
for the tests of the exploration itself; a test of a user's cold identify switches them
on, with small files of its own.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from pathlib import Path
from typing import Any

from mtrain.conformance.shipped_entry import FORMAT, OFF, ON, ShippedEntry

PIECES_ENV = "MTRAIN_SHIPPED_PIECES"
"""off: the shipped pieces are never read (the folder is shipped.folder()'s)."""
INDEX, PAYLOAD = "identify-pieces.json", "identify-pieces.xz"
PIECES = ShippedEntry("identify's pieces", "pieces", PIECES_ENV, INDEX, PAYLOAD)

__all__ = ["FORMAT", "INDEX", "OFF", "ON", "PAYLOAD", "PIECES", "PIECES_ENV", "entry",
           "misread", "read_files", "stale", "write"]


def _folder() -> Path | None:
    return PIECES.folder()


def misread() -> str | None:
    """Why MTRAIN_SHIPPED_PIECES says neither on nor off (the pieces stay on), or None."""
    return PIECES.misread()


def entry(name: str) -> dict[str, Any] | None:
    """The shipped entry named `name` (the corpus's pieces by fixture digest, as the
    cache keeps them), or None: switched off, none shipped, shipped under another name
    (other code or data), or not as its index says."""
    return PIECES.entry(name)


def read_files(where: Path) -> tuple[str, dict[str, Any]] | None:
    """The entry in `where` with its name, if its files agree with their index (read by
    `entry` and `stale`; the tests read it too)."""
    return PIECES.read_files(where)


def write(where: Path, name: str, value: dict[str, Any]) -> tuple[int, int]:
    """Write the two files for the entry `value` named `name`; (the index's bytes, the
    payload's)."""
    return PIECES.write(where, name, value)


def stale(where: Path, name: str, fixtures: Collection[str],
          value: Mapping[str, Any] | None = None) -> list[str]:
    """How the files in `where` differ from the entry named `name` over the fixtures (their
    digests) `fixtures`, and, given `value` (the entry made afresh), from its pieces (none:
    they are current), each a line of text."""
    return PIECES.stale(where, name, fixtures, value)
