"""A cache entry shipped with the package (in conformance/shipped.py's folder), read by a
user's first run instead of computing it: identify's pieces of the corpus
(identify/shipped_pieces.py) and the corpus lint's scope checks (lint/shipped_scopes.py).

Each is two files: an index (FORMAT, the entry's name, the payload's digests and size) and
the entry's JSON compressed with xz. The entry's name is the cache's own name for it, a
digest of the code and the spec data that made it: a reader asks for the name its own code
would give and gets nothing from files of another name, so a stale entry is never read. A
payload cut short or spoiled, or an index that does not agree with it, counts as absent.
An environment variable per entry switches it off (the tests of the exploration keep both
off).
"""

from __future__ import annotations

import hashlib
import lzma
import os
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from mtrain.conformance import shipped

OFF, ON = ("0", "off", "no", "false"), ("", "1", "on", "yes", "true")
FORMAT = 1


@dataclass(frozen=True)
class ShippedEntry:
    """One kind of shipped entry: `what` names it in messages and `items` what it holds
    per fixture, `env` switches it off, `index` and `payload` are its files' names in the
    shipped folder."""

    what: str
    items: str
    env: str
    index: str
    payload: str

    def folder(self) -> Path | None:
        """The shipped folder, or None when this entry is switched off."""
        if os.environ.get(self.env, "on").strip().lower() in OFF:
            return None
        return shipped.folder()

    def misread(self) -> str | None:
        """Why the switch says neither on nor off (the entry stays on), or None."""
        said = os.environ.get(self.env, "on")
        if said.strip().lower() in OFF + ON:
            return None
        return (f"{self.env}={said} is neither on ({', '.join(ON[1:])}) nor off "
                f"({', '.join(OFF)}): the shipped {self.items} stay on")

    def entry(self, name: str) -> dict[str, Any] | None:
        """The shipped entry named `name`, or None: switched off, none shipped, shipped
        under another name (other code or data), or not as its index says."""
        where = self.folder()
        if where is None:
            return None
        found = self.read_files(where)
        return None if found is None or found[0] != name else found[1]

    def read_files(self, where: Path) -> tuple[str, dict[str, Any]] | None:
        """The entry in `where` with its name, if its files agree with their index."""
        try:
            index = orjson.loads((where / self.index).read_bytes())
        except (OSError, ValueError):
            return None
        if not (isinstance(index, dict) and index.get("format") == FORMAT
                and isinstance(index.get("name"), str) and isinstance(index.get("size"), int)
                and isinstance(index.get("sha256"), str)
                and isinstance(index.get("xz_sha256"), str)):
            return None
        try:
            packed = (where / self.payload).read_bytes()
            if hashlib.sha256(packed).hexdigest() != index["xz_sha256"]:
                return None
            payload = lzma.decompress(packed, format=lzma.FORMAT_XZ)
        except (OSError, lzma.LZMAError):
            return None
        if (len(payload) != index["size"]
                or hashlib.sha256(payload).hexdigest() != index["sha256"]):
            return None
        try:
            value = orjson.loads(payload)
        except ValueError:
            return None
        return (index["name"], value) if isinstance(value, dict) else None

    def write(self, where: Path, name: str, value: dict[str, Any]) -> tuple[int, int]:
        """Write the two files for the entry `value` named `name`; (the index's bytes, the
        payload's). The index goes last: a write cut short leaves one that names another
        payload."""
        payload = orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
        packed = lzma.compress(payload, format=lzma.FORMAT_XZ,
                               preset=9 | lzma.PRESET_EXTREME)
        index = {"format": FORMAT, "name": name, "size": len(payload),
                 "sha256": hashlib.sha256(payload).hexdigest(),
                 "xz_sha256": hashlib.sha256(packed).hexdigest()}
        text = orjson.dumps(index, option=orjson.OPT_INDENT_2).decode() + "\n"
        where.mkdir(parents=True, exist_ok=True)
        (where / self.payload).write_bytes(packed)
        (where / self.index).write_text(text, encoding="utf-8")
        return len(text.encode()), len(packed)

    def stale(self, where: Path, name: str, fixtures: Collection[str],
              value: Mapping[str, Any] | None = None) -> list[str]:
        """How the files in `where` differ from the entry named `name` over the fixtures
        (their digests) `fixtures`, and, given `value` (the entry made afresh), from its
        values (none: they are current), each a line of text."""
        found = self.read_files(where)
        if found is None:
            return [f"{where / self.index} or {where / self.payload}: missing, or does not "
                    "agree with its index"]
        out = []
        if found[0] != name:
            out.append(f"{self.what} made by other code or spec data (the entry's name "
                       "differs)")
        kept = found[1]
        missing = [k for k in fixtures if k not in kept]
        extra = [k for k in kept if k not in fixtures]
        differ = [] if value is None else [k for k in value if k in kept and kept[k] != value[k]]
        for said, keys in (("missing", missing), ("no longer in the corpus", extra),
                           (f"with other {self.items}", differ)):
            if keys:
                out.append(f"{self.what}: {len(keys)} fixtures {said} (e.g. {keys[0]})")
        return out
