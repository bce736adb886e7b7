"""What a first `mtrain conform` after the install would work out, shipped with the
package: the situations from play of a default run (about 6 CPU s of its 12), the
shipped corpus's fixture files as read from YAML (about 0.4 s), and the fact that
jsonschema found each of them valid (about 1.2 s).

All are deterministic data. The situations are the reference's random rounds of each
rule set, seeded by its name, with the legal sets, states and results of the independent
model (conformance/situations.py); the documents are what spec/yamlload.py reads each
fixture file as; the validity is jsonschema's verdict on each document, as
spec/yamlschema.py asks it. `mtrain situations --shipped` makes them afresh, every rule
set a default run asks at the count it asks; CI runs `mtrain situations --shipped
--check`, which makes them again and fails when the files differ (as `mtrain docs
--check` does for docs/).

Each entry is found by its key in the cache: a situation list by situations._cache_key
(a digest of the source of every module situation making imports, the spec data, the
interpreter's minor version, the rule set, the count and the seed), a document by a
digest of its text and the loader. So what other code made, or another text, is never
read. The index names the digest of the code each section was made with: a run of other
code reads the index alone (a few kilobytes) and works them out as before. The entries
are read only when the compressed bytes have the digest the index names and decompress
to the size it names; a file cut short, spoiled or missing counts as absent, never as an
error.

The documents found valid are listed by the digest spec/yamlschema.py knows a valid
document by (jsonschema's version, the schema, and the data as validated), and are only
ever looked up by it: a document whose data, schema or validator differs in the least is
not among them and jsonschema validates it, as it does every other document (a user's
fixture, a rule-set file). No second validator: a stale or spoiled list can only miss
(short of a bad document's digest written in on purpose, which `--check` reports).

Two files in SHIPPED_DIR: `situations.json`, the index (FORMAT, the situations' code
digest, the payload's digests and size, each entry's key with its place in the payload,
a `documents` section of its own, and the `valid` digests), and `situations.xz`, the
payload (every entry's JSON, one after the other, compressed with xz).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import lzma
import os
import threading
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import orjson

from mtrain.spec import cache
from mtrain.spec.yamlload import Document, document_from_entry, document_key, loader_digest

SHIPPED_DIR = Path(__file__).resolve().parent / "shipped"
SHIPPED_ENV = "MTRAIN_SHIPPED_SITUATIONS"
"""A folder to read the shipped files from instead (tests, benchmarks), or "off"."""
INDEX, PAYLOAD = "situations.json", "situations.xz"
FORMAT = 2


def folder() -> Path | None:
    """Where the shipped files are read from; None when switched off."""
    named = os.environ.get(SHIPPED_ENV)
    if named is None:
        return SHIPPED_DIR
    return None if named.strip().lower() in ("", "0", "off", "none") else Path(named)


def unusable() -> str | None:
    """Why the folder MTRAIN_SHIPPED_SITUATIONS names holds no shipped files (it is not
    a folder), or None: every run would then work them out anew, without a word."""
    where = folder()
    try:
        if where is None or where == SHIPPED_DIR or where.is_dir():
            return None
    except OSError as e:  # a name too long for the file system
        return f"{SHIPPED_ENV}: {where}: {e.strerror or e}"
    return f"{SHIPPED_ENV}: {where} names no folder"


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


def document(path: str | Path, text: str) -> Document | None:
    """The shipped corpus's document of `text` (a fixture file as yamlload reads it),
    reported as `path`; None where none is shipped for that text and that loader."""
    where = folder()
    index = None if where is None else _index(where)
    if where is None or index is None:
        return None
    section = index.get("documents")
    if not isinstance(section, dict) or section.get("code") != loader_digest():
        return None
    place = section["entries"].get(document_key(text))
    payload = _payload(where) if place is not None else None
    if payload is None:
        return None
    start, length = place
    try:
        return document_from_entry(str(path), orjson.loads(payload[start:start + length]))
    except ValueError:
        return None


def valid() -> frozenset[str]:
    """The digests of the shipped corpus's documents that jsonschema found valid when the
    files were made (yamlschema.judged_valid); empty when none are shipped or the index
    is unreadable. A digest in it stands for exactly one schema, validator and data."""
    where = folder()
    index = None if where is None else _index(where)
    return frozenset() if index is None else index["valid"]


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
    listed = index.get("valid", [])
    index["valid"] = frozenset(k for k in listed if isinstance(k, str)) if isinstance(
        listed, list) else frozenset()
    documents = index.get("documents", {"code": "", "entries": {}})
    if not (_section(index) and isinstance(index.get("xz_sha256"), str)
            and isinstance(index.get("size"), int) and _section(documents)):
        return None
    return index


def _section(section: Any) -> bool:
    """Whether a section of the index is as written: a code digest, and its entries' places."""
    entries = section.get("entries") if isinstance(section, dict) else None
    return (isinstance(section, dict) and isinstance(section.get("code"), str)
            and isinstance(entries, dict)
            and all(isinstance(p, list) and len(p) == 2
                    and all(type(n) is int and n >= 0 for n in p) for p in entries.values()))


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
    copy = _copy_of(index)
    if copy is not None:
        return copy
    try:
        payload = lzma.decompress(packed, format=lzma.FORMAT_XZ)
    except lzma.LZMAError:
        return None
    if len(payload) != index["size"]:
        return None
    _keep_copy(index, payload)
    return payload


COPY_KIND = "shipped"
"""The cache's folder (spec/cache.py) for the decompressed payload: xz takes 0.14 CPU s
for its 25 MB, about 3 % of a default `mtrain conform`; reading and checking a copy,
0.03."""


def _copy_path(index: Mapping[str, Any]) -> Path | None:
    base = cache.folder()
    digest = index.get("sha256")
    if base is None or not isinstance(digest, str):
        return None
    return base / COPY_KIND / f"{index['xz_sha256']}.json"


def _copy_of(index: Mapping[str, Any]) -> bytes | None:
    """The payload as a run decompressed it before, kept under the compressed file's
    digest; None unless it is whole, of the size and the digest the index names."""
    path = _copy_path(index)
    try:
        copy = path.read_bytes() if path is not None else None
    except OSError:
        return None
    if copy is None or len(copy) != index["size"] \
            or hashlib.sha256(copy).hexdigest() != index["sha256"]:
        return None
    return copy


def _keep_copy(index: Mapping[str, Any], payload: bytes) -> None:
    """Keep the decompressed payload for the next run, if it has the digest the index
    names (written whole or not at all; the last two kept)."""
    path = _copy_path(index)
    if path is None or hashlib.sha256(payload).hexdigest() != index["sha256"]:
        return
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(payload)
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink()
        return
    cache.prune(path.parent, 2)


def write(where: Path, code: str, entries: Mapping[str, Any],
          documents: tuple[str, Mapping[str, Any]] | None = None,
          valid: Iterable[str] = ()) -> tuple[int, int]:
    """Write the two files for `entries` (key -> plain JSON) made by code of digest
    `code`, `documents` (the loader's digest, and key -> entry), keys in order, and the
    `valid` digests, sorted; (the index's bytes, the payload's). The index goes last, so
    that a write cut short leaves an index that does not name the new payload."""
    parts: list[bytes] = []

    def placed(kept: Mapping[str, Any]) -> dict[str, list[int]]:
        places, at = {}, sum(len(p) for p in parts)  # each entry's [offset, length]
        for key in sorted(kept):
            data = orjson.dumps(kept[key])
            places[key] = [at, len(data)]
            parts.append(data)
            at += len(data)
        return places

    places = placed(entries)
    sections = {"documents": (documents[0], placed(documents[1]))} if documents else {}
    payload = b"".join(parts)
    packed = lzma.compress(payload, format=lzma.FORMAT_XZ,
                           preset=9 | lzma.PRESET_EXTREME)
    head = {"format": FORMAT, "code": code, "size": len(payload),
            "sha256": hashlib.sha256(payload).hexdigest(),
            "xz_sha256": hashlib.sha256(packed).hexdigest()}
    # one line a field and an entry: a new version's diff says what changed
    lines = [f"  {orjson.dumps(k).decode()}: {orjson.dumps(v).decode()}" for k, v in head.items()]
    text = "{\n" + ",\n".join(lines) + ',\n  "entries": ' + _rows(places, "  ")
    for name, (digest, rows) in sections.items():
        text += (f',\n  "{name}": {{\n    "code": {orjson.dumps(digest).decode()},'
                 f'\n    "entries": {_rows(rows, "    ")}\n  }}')
    digests = ",\n".join(f"    {orjson.dumps(k).decode()}" for k in sorted(set(valid)))
    text += (',\n  "valid": [\n' + digests + "\n  ]") if digests else ""
    text += "\n}\n"
    where.mkdir(parents=True, exist_ok=True)
    (where / PAYLOAD).write_bytes(packed)
    (where / INDEX).write_text(text, encoding="utf-8")
    forget()
    return len(text.encode()), len(packed)


def _rows(places: Mapping[str, list[int]], indent: str) -> str:
    rows = ",\n".join(f"{indent}  {orjson.dumps(k).decode()}: {orjson.dumps(v).decode()}"
                      for k, v in places.items())
    return "{\n" + rows + f"\n{indent}}}"


def read_all(where: Path) -> dict[str, Any] | None:
    """Every entry of the files in `where` with the code digest they name, or None where
    they cannot be read: what `--check` compares with entries made afresh."""
    index, payload = _index(where), _payload(where)
    if index is None or payload is None:
        return None
    documents = index.get("documents", {"code": "", "entries": {}})
    try:
        return {"code": index["code"], "valid": sorted(index["valid"]),
                "entries": {key: orjson.loads(payload[s:s + n])
                            for key, (s, n) in index["entries"].items()},
                "documents": {"code": documents["code"],
                              "entries": {key: orjson.loads(payload[s:s + n])
                                          for key, (s, n) in documents["entries"].items()}}}
    except ValueError:
        return None
