"""What mtrain worked out before, kept on disk by content, so that a later run need not.

Every entry is found by a digest of everything its value depends on (the input, the
source of the code that computes it, the spec data, the versions), so a changed input
never finds an old entry. A cache only ever saves time: an entry that cannot be read
(missing, truncated, corrupt, of another format) counts as absent and is computed again,
and a cache that cannot be written is no error. Entries are JSON, never pickles: reading
one runs no code.

The folder is the one MTRAIN_CACHE_DIR names (set to "" or "off": nothing is kept on
disk), else $XDG_CACHE_HOME/mtrain, else ~/.cache/mtrain.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import orjson

from mtrain import __version__

CACHE_ENV = "MTRAIN_CACHE_DIR"
FORMAT = 1
"""The layout of an entry; another one is not read."""
OFF = ("", "0", "off", "none")


def folder() -> Path | None:
    """Where the cache lives, or None when it is switched off."""
    named = os.environ.get(CACHE_ENV)
    if named is not None:
        return None if named.strip().lower() in OFF else Path(named)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "mtrain"


def digest(*parts: bytes | str) -> str:
    """A digest of the parts, each framed by its length (so that no two lists of parts
    run together into the same bytes)."""
    h = hashlib.sha256()
    for part in parts:
        data = part.encode() if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()


def files_digest(roots: Iterable[Path], suffixes: tuple[str, ...]) -> str:
    """A digest of every file under `roots` whose name ends in one of `suffixes`: its path
    below its root and its bytes. Python's caches are left out."""
    parts: list[bytes | str] = [__version__, sys.version]
    for root in roots:
        found = sorted(p for p in Path(root).rglob("*")
                       if p.suffix in suffixes and "__pycache__" not in p.parts and p.is_file())
        parts.append(str(len(found)))
        for path in found:
            parts += [path.relative_to(root).as_posix(), path.read_bytes()]
    return digest(*parts)


@functools.cache
def package_digest(name: str, suffixes: tuple[str, ...] = (".py",)) -> str:
    """A digest of a package's files with these suffixes (its source; with ".yaml" and
    ".json", its data too), as imported here: what a result it computed depends on."""
    import importlib

    file = getattr(importlib.import_module(name), "__file__", None)
    if file is None:
        raise ValueError(f"{name} is not a package with files")
    return files_digest([Path(file).resolve().parent], suffixes)


def read(kind: str, name: str) -> Any:
    """The value kept under `kind/name`, or None: never kept, or not readable as kept."""
    base = folder()
    if base is None:
        return None
    try:
        data = orjson.loads((base / kind / name).read_bytes())
    except (OSError, ValueError):  # orjson.JSONDecodeError is a ValueError
        return None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return None
    return data.get("value")


def write(kind: str, name: str, value: Any, keep: int = 8) -> None:
    """Keep `value` (plain JSON) under `kind/name`, written whole or not at all, and no
    more than `keep` entries of that kind (the least recently written go)."""
    base = folder()
    if base is None:
        return
    path = base / kind / name
    tmp = path.with_name(f".{name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(orjson.dumps({"format": FORMAT, "value": value}))
        os.replace(tmp, path)  # readers see the old entry or the new one, never half
    except (OSError, TypeError):
        with contextlib.suppress(OSError):
            tmp.unlink()
        return
    _prune(path.parent, keep)


def _prune(where: Path, keep: int) -> None:
    with contextlib.suppress(OSError):
        entries = [p for p in where.iterdir() if not p.name.startswith(".")]
        if len(entries) <= keep:
            return
        entries.sort(key=lambda p: p.stat().st_mtime)
        for old in entries[:len(entries) - keep]:
            with contextlib.suppress(OSError):
                old.unlink()
