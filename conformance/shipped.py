"""The situations from play of a default `mtrain conform`, shipped with the package, so
that the first run after the install need not make them (about 6 CPU s of its 12).

They are deterministic data: the reference's random rounds of each rule set, seeded by
its name, with the legal sets, states and results of the independent model
(conformance/situations.py), made at development time by `mtrain situations --shipped`
for every rule set a default run asks, at the count it asks. CI runs
`mtrain situations --shipped --check`, which makes them again and fails when the files
differ (as `mtrain docs --check` does for docs/).

An entry is found by its key in the cache (situations._cache_key: a digest of the source
of every module situation making imports, the spec data, the interpreter's minor
version, the rule set, the count and the seed), so what other code made is never read.
The index names the code digest it was made with: a run of other code reads the index
alone (a few kilobytes) and makes its situations as before. The entries are read only
when the compressed bytes have the digest the index names and decompress to the size it
names; a file cut short, spoiled or missing counts as absent, never as an error.

Two files in SHIPPED_DIR: `situations.json`, the index (FORMAT, the code digest, the
digests and sizes, each entry's key with its place in the payload), and `situations.xz`,
the payload (each entry's JSON, one after the other, compressed with xz).
"""

from __future__ import annotations

import functools
import hashlib
import lzma
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import orjson

SHIPPED_DIR = Path(__file__).resolve().parent / "shipped"
SHIPPED_ENV = "MTRAIN_SHIPPED_SITUATIONS"
"""A folder to read the shipped files from instead (tests, benchmarks), or "off"."""
INDEX, PAYLOAD = "situations.json", "situations.xz"
FORMAT = 1


def folder() -> Path | None:
    """Where the shipped files are read from; None when switched off."""
    named = os.environ.get(SHIPPED_ENV)
    if named is None:
        return SHIPPED_DIR
    return None if named.strip().lower() in ("", "0", "off", "none") else Path(named)


def entry(key: str, code: str) -> Any:
    """The shipped entry under `key` (plain JSON, as the cache keeps it), or None: none
    shipped, made by other code (`code`: the digest of the code asking), or unreadable."""
    where = folder()
    if where is None:
        return None
    index = _index(where)
    if index is None or index["code"] != code:
        return None
    place = index["entries"].get(key)
    payload = _payload(where) if place is not None else None
    if payload is None:
        return None
    start, length = place
    try:
        return orjson.loads(payload[start:start + length])
    except ValueError:  # orjson.JSONDecodeError is a ValueError
        return None


def forget() -> None:
    """Read the files afresh next time (tests, and after writing them)."""
    _index.cache_clear()
    _payload.cache_clear()


@functools.cache
def _index(where: Path) -> dict[str, Any] | None:
    try:
        index = orjson.loads((where / INDEX).read_bytes())
    except (OSError, ValueError):
        return None
    if not isinstance(index, dict) or index.get("format") != FORMAT:
        return None
    entries = index.get("entries")
    if not (isinstance(index.get("code"), str) and isinstance(index.get("xz_sha256"), str)
            and isinstance(index.get("size"), int) and isinstance(entries, dict)
            and all(isinstance(p, list) and len(p) == 2
                    and all(type(n) is int and n >= 0 for n in p) for p in entries.values())):
        return None
    return index


@functools.cache
def _payload(where: Path) -> bytes | None:
    """The decompressed payload, if the files agree with their index."""
    index = _index(where)
    if index is None:
        return None
    try:
        packed = (where / PAYLOAD).read_bytes()
    except OSError:
        return None
    if hashlib.sha256(packed).hexdigest() != index["xz_sha256"]:
        return None
    try:
        payload = lzma.decompress(packed, format=lzma.FORMAT_XZ)
    except lzma.LZMAError:
        return None
    return payload if len(payload) == index["size"] else None


def write(where: Path, code: str, entries: Mapping[str, Any]) -> tuple[int, int]:
    """Write the two files for `entries` (key -> plain JSON) made by code of digest
    `code`, keys in order; (the index's bytes, the payload's). The index goes last, so
    that a write cut short leaves an index that does not name the new payload."""
    parts, places, at = [], {}, 0  # each entry's place: [offset, length]
    for key in sorted(entries):
        data = orjson.dumps(entries[key])
        places[key] = [at, len(data)]
        parts.append(data)
        at += len(data)
    payload = b"".join(parts)
    packed = lzma.compress(payload, format=lzma.FORMAT_XZ,
                           preset=9 | lzma.PRESET_EXTREME)
    head = {"format": FORMAT, "code": code, "size": len(payload),
            "sha256": hashlib.sha256(payload).hexdigest(),
            "xz_sha256": hashlib.sha256(packed).hexdigest()}
    # one line a field and an entry: a new version's diff says what changed
    lines = [f"  {orjson.dumps(k).decode()}: {orjson.dumps(v).decode()}" for k, v in head.items()]
    rows = ",\n".join(f"    {orjson.dumps(k).decode()}: {orjson.dumps(v).decode()}"
                      for k, v in places.items())
    text = "{\n" + ",\n".join(lines) + ',\n  "entries": {\n' + rows + "\n  }\n}\n"
    where.mkdir(parents=True, exist_ok=True)
    (where / PAYLOAD).write_bytes(packed)
    (where / INDEX).write_text(text, encoding="utf-8")
    forget()
    return len(text.encode()), len(packed)


def read_all(where: Path) -> dict[str, Any] | None:
    """Every entry of the files in `where` with the code digest they name, or None where
    they cannot be read: what `--check` compares with entries made afresh."""
    index, payload = _index(where), _payload(where)
    if index is None or payload is None:
        return None
    try:
        return {"code": index["code"],
                "entries": {key: orjson.loads(payload[s:s + n])
                            for key, (s, n) in index["entries"].items()}}
    except ValueError:
        return None
