"""What mtrain worked out before, kept on disk by content, so that a later run need not.

Every entry is found by a digest of everything its value depends on (the input, the
source of the code that computes it, the spec data, the versions), so a changed input
never finds an old entry. A cache only ever saves time: an entry that cannot be read
(missing, truncated, corrupt, of another format) counts as absent and is computed again,
and a cache that cannot be written is no error. Entries are JSON, never pickles: reading
one runs no code (each is a header line with its digest, then the value).

The folder is the one MTRAIN_CACHE_DIR names (set to "" or "off": nothing is kept on
disk), else $XDG_CACHE_HOME/mtrain, else ~/.cache/mtrain.

Each kind keeps a few entries; those used least recently (read or written) go first
(prune). A read is recorded apart from the entry (USED), never by touching the entry's
own time: that time is part of the stamp that tells `update` nobody wrote the entry since
it was read.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib.util
import os
import re
import stat
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import orjson

from mtrain import __version__

CACHE_ENV = "MTRAIN_CACHE_DIR"
FORMAT = 2
"""The layout of an entry; another one is not read. An entry is a header line,
`{"format":2,"sha256":DIGEST}`, then the value as JSON: the digest of those bytes finds a
damaged entry (a flipped digit, a file cut short or spliced) that still reads as JSON,
which would otherwise be taken as a value worked out before."""
OFF = ("", "0", "off", "none")
INTERPRETER = sys.implementation.cache_tag or sys.version
"""Part of every code digest: the interpreter and its minor version (cpython-311). What
mtrain computes may rest on the interpreter's algorithms (random's choices, sorting),
which stay the same across a minor version's patch releases and builds, so an entry
made on one serves the others (conformance/shipped.py ships entries made on one)."""


def folder() -> Path | None:
    """Where the cache lives, or None when it is switched off."""
    named = os.environ.get(CACHE_ENV)
    if named is not None:
        return None if named.strip().lower() in OFF else Path(named)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "mtrain"


def unusable() -> str | None:
    """Why the folder MTRAIN_CACHE_DIR names can keep nothing (a file, a loop of links, a
    folder not writable), or None: looked at, never created. Such a cache is no error,
    yet every run would work everything out anew, slower and without a word."""
    named = os.environ.get(CACHE_ENV)
    if named is None or named.strip().lower() in OFF:
        return None
    path = Path(named).absolute()
    for where in (path, *path.parents):
        try:
            mode = os.stat(where).st_mode
        except (FileNotFoundError, NotADirectoryError):  # a file on the way: said below
            if os.path.islink(where):
                return f"{where} is a symbolic link to nothing ({os.readlink(where)})"
            continue  # made when an entry is written, if what holds it can be written
        except OSError as e:  # a loop of links, a name too long, a folder not entered
            return f"{where}: {e.strerror or e}"
        if not stat.S_ISDIR(mode):
            return f"{where} is not a folder"
        if not os.access(where, os.W_OK | os.X_OK):
            return f"{where} is a folder this user cannot write"
        return None
    return None


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
    parts: list[bytes | str] = [__version__, INTERPRETER]
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


_IMPORT = re.compile(r"^[ \t]*(?:from[ \t]+(\.*[\w.]*)[ \t]+)?import[ \t]+(\([^)]*\)|[^\n]*)",
                     re.M)
"""An import statement, at any depth (a function's own imports count too): the module
it names after `from`, and what it imports (a parenthesised list may span lines). One
after a semicolon is not seen: ruff's E702, which the project keeps, forbids those."""


@functools.cache
def _spec(name: str) -> importlib.machinery.ModuleSpec | None:
    try:
        return importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None


def import_closure(root: str) -> dict[str, Path]:
    """The modules `root` imports, directly or through others, within its own top-level
    package (for mtrain.conformance.situations: every mtrain module, whichever folder the
    install maps it from), with the packages above each (their __init__ runs first), as
    module name -> source file. Read from the source, not from what a run happened to
    import: an import inside a function counts though it has not run yet. Over-counting
    is safe (a text that looks like an import, in a docstring, adds a module); a module
    named only at run time (importlib) is not seen."""
    top = root.split(".")[0]
    found: dict[str, Path] = {}
    todo = [root]

    def add(name: str) -> None:
        parts = name.split(".")
        for i in range(1, len(parts) + 1):
            todo.append(".".join(parts[:i]))

    while todo:
        name = todo.pop()
        if name in found or name.split(".")[0] != top:
            continue
        spec = _spec(name)
        if spec is None or spec.origin is None or spec.origin in ("built-in", "frozen"):
            continue  # an attribute imported by name, not a module
        path = Path(spec.origin)
        source = path.with_name(f"{name.rpartition('.')[2]}.py")
        if path.suffix != ".py" and source.is_file():
            path = source  # compiled (mypyc): the source it was built from lies beside it
        found[name] = path
        if path.suffix != ".py":
            continue  # compiled, its source gone: its bytes alone count
        package = name if spec.submodule_search_locations is not None else name.rpartition(".")[0]
        text = path.read_text(encoding="utf-8").replace("\\\n", " ")  # lines joined
        for match in _IMPORT.finditer(text):
            origin, names = match.group(1), match.group(2)
            listed = [n.split()[0] for n in re.sub(r"#[^\n]*", "", names).strip("()").split(",")
                      if n.strip() and n.split()[0].replace(".", "").isidentifier()]
            if origin is None:
                for module in listed:
                    add(module)
                continue
            dots = len(origin) - len(origin.lstrip("."))
            base = origin[dots:]
            if dots:
                anchor = package.rsplit(".", dots - 1)[0] if dots > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            add(base)
            for item in listed:
                todo.append(f"{base}.{item}")  # a submodule imported by name, if it is one
    return found


@functools.cache
def source_digest(root: str) -> str:
    """A digest of the source of every module `root` imports (import_closure), by name:
    what a result `root` computes depends on, beside its data. A change to a module it
    does not import leaves the digest alone."""
    parts: list[bytes | str] = [__version__, INTERPRETER]
    for name, path in sorted(import_closure(root).items()):
        parts += [name, path.read_bytes()]
    return digest(*parts)


def read(kind: str, name: str) -> Any:
    """The value kept under `kind/name`, or None: never kept, or not readable as kept. A
    value read counts as used (prune keeps it before those used longer ago)."""
    base = folder()
    if base is None:
        return None
    try:
        # one open file read whole: an entry pruned meanwhile is read to its end all the
        # same (its bytes live while open) or, gone before it was opened, is absent
        value = unpacked((base / kind / name).read_bytes())
    except OSError:
        return None
    if value is not None:
        _mark_used(base, kind, name)
    return value


USED = ".used"
"""The folder, beside the kinds', where each entry read has an empty file of its name
whose time is that of its last read (_mark_used)."""


def _used_path(base: Path, kind: str, name: str) -> Path:
    return base / USED / kind / name


def _mark_used(base: Path, kind: str, name: str) -> None:
    """Record that `kind/name` was read now (no error if it cannot be)."""
    path = _used_path(base, kind, name)
    try:
        os.utime(path)
    except FileNotFoundError:  # its first read (or its folder not made yet)
        with contextlib.suppress(OSError):
            path.parent.mkdir(parents=True, exist_ok=True)
            path.touch()
    except OSError:
        pass


def packed(value: Any) -> bytes:
    """An entry's bytes: the header line with the digest of the value's JSON, then that."""
    body = orjson.dumps(value)  # compact: no newline but the header's
    return orjson.dumps({"format": FORMAT, "sha256": hashlib.sha256(body).hexdigest()}
                        ) + b"\n" + body


def unpacked(entry: bytes) -> Any:
    """The value of an entry's bytes, or None unless they are whole and of FORMAT."""
    head, _, body = entry.partition(b"\n")
    try:
        header = orjson.loads(head)
        if not isinstance(header, dict) or header.get("format") != FORMAT \
                or header.get("sha256") != hashlib.sha256(body).hexdigest():
            return None
        return orjson.loads(body)
    except ValueError:  # orjson.JSONDecodeError is a ValueError
        return None


def write(kind: str, name: str, value: Any, keep: int = 8, budget: int | None = None
          ) -> None:
    """Keep `value` (plain JSON) under `kind/name`, written whole or not at all, and of
    that kind no more than `keep` entries and `budget` bytes (prune)."""
    base = folder()
    if base is None:
        return
    path = base / kind / name
    # one name per writer: two threads of one process writing one key would otherwise
    # write into one file, and the first to move it in place could move a half of it
    tmp = path.with_name(f".{name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(packed(value))
        os.replace(tmp, path)  # readers see the old entry or the new one, never half
    except (OSError, TypeError):
        with contextlib.suppress(OSError):
            tmp.unlink()
        return
    prune(path.parent, keep, budget)


Stamp = tuple[int, int, int]
"""An entry file's inode, size and time written: each write makes a new file (write)."""


def stamp(kind: str, name: str) -> Stamp | None:
    """The stamp of the entry `kind/name` as it is now, or None (none, or no cache). Taken
    before a read, it tells `update` whether the value read is still the one kept."""
    base = folder()
    if base is None:
        return None
    try:
        st = os.stat(base / kind / name)
    except OSError:
        return None
    return st.st_ino, st.st_size, st.st_mtime_ns


def update(kind: str, name: str, change: Callable[[dict[str, Any]], dict[str, Any]],
           keep: int = 8, seen: tuple[Stamp | None, dict[str, Any]] | None = None,
           budget: int | None = None) -> dict[str, Any]:
    """Keep `change(value)`, `value` being the dict under `kind/name` as it stands now ({}
    if none), and return it. The entry is read again and written while this process
    alone holds its lock (where the system has flock): two processes adding to one entry
    side by side (a lint and an identify, the workers of a test run) each keep what the
    other added, where a value read early and written whole dropped what was written in
    between, and the next run worked it out again. `seen`: the stamp taken before the
    caller read the entry and the value it read, taken for the entry's when the stamp
    is still the entry's (nobody wrote it since, or none was kept and none is: it is not
    read again). `keep` and `budget`: as `write`'s."""
    base = folder()
    if base is None:
        return change({})
    with _locked(_lock_path(base, kind, name)):
        if seen is not None and stamp(kind, name) == seen[0]:  # (None: still none kept)
            kept: Any = seen[1]
        else:
            kept = read(kind, name)
        value = change(kept if isinstance(kept, dict) else {})
        write(kind, name, value, keep, budget)
    return value


def _lock_path(base: Path, kind: str, name: str) -> Path:
    """An entry's lock for `update`: apart from the entries, whose folders hold nothing
    else."""
    return base / ".locks" / kind / f"{name}.lock"


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Held by one process at a time where flock exists and the lock file can be made;
    else not held (a cache is never an error: at worst an entry is worked out again)."""
    try:
        import fcntl
    except ImportError:  # Windows
        yield
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        lock = open(path, "a")  # noqa: SIM115  (closed by the `with` below)
    except OSError:
        yield
        return
    with lock:
        with contextlib.suppress(OSError):  # a file system without locks: not held
            fcntl.flock(lock, fcntl.LOCK_EX)
        yield


TEMPORARY = re.compile(r"\..+\.(\d+)\.\d+\.tmp")
"""A write's temporary file (write): `.NAME.PID.THREAD.tmp`."""
DEAD_WRITER_AGE = 60.0
"""Seconds after which the temporary file of a writer whose process is gone is removed:
not at once, as the cache may be shared with processes this one cannot see (another
container's, whose ids are not ours), each of whose writes takes milliseconds."""
ANY_WRITER_AGE = 3600.0
"""Seconds after which any temporary file is removed: its writer's id alive is then
another process's (ids are reused), a write taking no such time."""


def prune(where: Path, keep: int, budget: int | None = None) -> None:
    """No more than `keep` entries in the folder `where`, and no more than `budget` bytes
    but for the one used last: those used least recently (read or written) go first. No
    temporary file of a writer killed midway either (_stale_temporary).

    Safe beside other processes reading, writing and pruning the same folder: an entry
    another process removed meanwhile is passed over, and one removed while a reader has
    it open is still read whole by that reader (`read`)."""
    try:
        listed = os.listdir(where)
    except OSError:
        return
    for name in listed:
        if name.startswith(".") and _stale_temporary(where / name):
            with contextlib.suppress(OSError):
                (where / name).unlink()
    # the names alone first (a first run writes hundreds of entries, each counted)
    names = [n for n in listed if not n.startswith(".")]
    if len(names) <= keep and budget is None:
        return
    base, kind = where.parent, where.name
    found = [(n, *used) for n in names if (used := _last_used(base, kind, n)) is not None]
    found.sort(key=lambda entry: entry[1], reverse=True)  # the most recently used first
    total, kept = 0, set()
    for count, (name, _, size) in enumerate(found):
        total += size
        if count < keep and (budget is None or total <= budget or count == 0):
            kept.add(name)
            continue
        with contextlib.suppress(OSError):
            (where / name).unlink()
        with contextlib.suppress(OSError):  # its lock (update), if it had one
            _lock_path(base, kind, name).unlink()
    # the read records of the entries gone: those above, and any a reader made for an
    # entry pruned as it read it (one written since, not listed above, loses only its
    # record: it was written after this prune began, later than any read)
    with contextlib.suppress(OSError):
        for name in os.listdir(base / USED / kind):
            if name not in kept:
                with contextlib.suppress(OSError):
                    _used_path(base, kind, name).unlink()


def _last_used(base: Path, kind: str, name: str) -> tuple[int, int] | None:
    """When the entry `kind/name` was last written or read (ns), and its size; None when
    it is gone (another process pruned it)."""
    try:
        st = os.stat(base / kind / name)
    except OSError:
        return None
    try:
        read_at = os.stat(_used_path(base, kind, name)).st_mtime_ns
    except OSError:  # never read
        read_at = 0
    return max(st.st_mtime_ns, read_at), st.st_size


def _stale_temporary(path: Path) -> bool:
    """Whether `path` is a write's temporary file that its writer will never move into
    place: its process gone (a kill between the write and the move) and the file older
    than DEAD_WRITER_AGE, or the file older than ANY_WRITER_AGE. A live writer's file is
    left to it; one removed all the same would cost that writer its entry, nothing more
    (write: a failed move is no error)."""
    match = TEMPORARY.fullmatch(path.name)
    if match is None:
        return False
    try:
        age = time.time() - path.stat().st_mtime
    except OSError:
        return False
    if age > ANY_WRITER_AGE:
        return True
    return age > DEAD_WRITER_AGE and not _alive(int(match.group(1)))


def _alive(pid: int) -> bool:
    """Whether a process `pid` exists (where that cannot be asked: taken as alive)."""
    if os.name != "posix":  # Windows' os.kill would end it
        return True
    try:
        os.kill(pid, 0)
    except PermissionError:  # another user's
        return True
    except (OSError, OverflowError):  # gone, or no process can have that id
        return False
    return True
