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
it or switches it off): `identify-pieces.json`, the index (FORMAT, the entry's name, the
payload's digests and size), and `identify-pieces.xz`, the entry's JSON compressed with xz.
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

import hashlib
import lzma
import os
from collections.abc import Collection, Mapping
from pathlib import Path
from typing import Any

import orjson

from mtrain.conformance import shipped

PIECES_ENV = "MTRAIN_SHIPPED_PIECES"
"""off: the shipped pieces are never read (the folder is shipped.folder()'s)."""
OFF, ON = ("0", "off", "no", "false"), ("", "1", "on", "yes", "true")
INDEX, PAYLOAD = "identify-pieces.json", "identify-pieces.xz"
FORMAT = 1

def _folder() -> Path | None:
    if os.environ.get(PIECES_ENV, "on").strip().lower() in OFF:
        return None
    return shipped.folder()


def misread() -> str | None:
    """Why MTRAIN_SHIPPED_PIECES says neither on nor off (the pieces stay on), or None."""
    said = os.environ.get(PIECES_ENV, "on")
    if said.strip().lower() in OFF + ON:
        return None
    return (f"{PIECES_ENV}={said} is neither on ({', '.join(ON[1:])}) nor off "
            f"({', '.join(OFF)}): the shipped pieces stay on")


def entry(name: str) -> dict[str, Any] | None:
    """The shipped entry named `name` (the corpus's pieces by fixture digest, as the
    cache keeps them), or None: switched off, none shipped, shipped under another name
    (other code or data), or not as its index says."""
    where = _folder()
    if where is None:
        return None
    found = read_files(where)
    return None if found is None or found[0] != name else found[1]


def read_files(where: Path) -> tuple[str, dict[str, Any]] | None:
    """The entry in `where` with its name, if its files agree with their index (read by
    `entry` and `stale`; the tests read it too)."""
    try:
        index = orjson.loads((where / INDEX).read_bytes())
    except (OSError, ValueError):
        return None
    if not (isinstance(index, dict) and index.get("format") == FORMAT
            and isinstance(index.get("name"), str) and isinstance(index.get("size"), int)
            and isinstance(index.get("sha256"), str)
            and isinstance(index.get("xz_sha256"), str)):
        return None
    try:
        packed = (where / PAYLOAD).read_bytes()
        if hashlib.sha256(packed).hexdigest() != index["xz_sha256"]:
            return None
        payload = lzma.decompress(packed, format=lzma.FORMAT_XZ)
    except (OSError, lzma.LZMAError):
        return None
    if len(payload) != index["size"] or hashlib.sha256(payload).hexdigest() != index["sha256"]:
        return None
    try:
        value = orjson.loads(payload)
    except ValueError:
        return None
    return (index["name"], value) if isinstance(value, dict) else None


def write(where: Path, name: str, value: dict[str, Any]) -> tuple[int, int]:
    """Write the two files for the entry `value` named `name`; (the index's bytes, the
    payload's). The index goes last: a write cut short leaves one that names another
    payload."""
    payload = orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    packed = lzma.compress(payload, format=lzma.FORMAT_XZ, preset=9 | lzma.PRESET_EXTREME)
    index = {"format": FORMAT, "name": name, "size": len(payload),
             "sha256": hashlib.sha256(payload).hexdigest(),
             "xz_sha256": hashlib.sha256(packed).hexdigest()}
    text = orjson.dumps(index, option=orjson.OPT_INDENT_2).decode() + "\n"
    where.mkdir(parents=True, exist_ok=True)
    (where / PAYLOAD).write_bytes(packed)
    (where / INDEX).write_text(text, encoding="utf-8")
    return len(text.encode()), len(packed)


def stale(where: Path, name: str, fixtures: Collection[str],
          value: Mapping[str, Any] | None = None) -> list[str]:
    """How the files in `where` differ from the entry named `name` over the fixtures (their
    digests) `fixtures`, and, given `value` (the entry made afresh), from its pieces (none:
    they are current), each a line of text."""
    found = read_files(where)
    if found is None:
        return [f"{where / INDEX} or {where / PAYLOAD}: missing, or does not agree with "
                "its index"]
    out = []
    if found[0] != name:
        out.append("identify's pieces made by other code or spec data (the entry's name "
                   "differs)")
    kept = found[1]
    missing = [k for k in fixtures if k not in kept]
    extra = [k for k in kept if k not in fixtures]
    differ = [] if value is None else [k for k in value if k in kept and kept[k] != value[k]]
    for what, keys in (("missing", missing), ("no longer in the corpus", extra),
                       ("with other pieces", differ)):
        if keys:
            out.append(f"identify's pieces: {len(keys)} fixtures {what} (e.g. {keys[0]})")
    return out
