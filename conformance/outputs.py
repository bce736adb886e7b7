"""Output paths, checked before any work: a run never ends by failing to write its result."""

from __future__ import annotations

import contextlib
import errno
import os
import shlex
import stat
import tempfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TextIO

from mtrain.spec.errors import InputError

Inputs = Iterable[tuple[str, str | None]]
"""(option, value) of what a command reads: a file, a folder, a command line (`--impl`,
each of whose words may name a file) or MODULE:OBJECT (`--adapter`)."""


def check_output(path: str, option: str, folder: bool = False, inputs: Inputs = ()) -> None:
    """Refuse, before any work, an output FILE (or `folder`) that cannot be written:
    its folder missing, a file where a folder is needed and the other way round, or a
    file the command reads (`inputs`), which writing would destroy."""
    if path == "-":  # a file named "-" would be written, where stdout was meant
        raise InputError(f"{option} -: a file of that name would be written; to print, "
                         f"leave {option} out")
    out = Path(path)
    try:
        if folder:
            existing = next((p for p in [out, *out.parents] if p.exists()), None)
            if existing is not None and not existing.is_dir():
                raise InputError(f"{option} {path}: {existing} is a file, not a folder")
            return
        if out.is_dir():
            raise InputError(f"{option} {path}: is a folder; name a file")
        if os.path.basename(path) in ("", ".", ".."):  # `out/`: Path drops the slash
            raise InputError(f"{option} {path}: names a folder (a path that ends so is "
                             "one); name a file")
        parent = out.parent
        if not parent.is_dir():
            what = "not a folder" if parent.exists() else "no such folder"
            raise InputError(f"{option} {path}: {what}: {parent}")
    except OSError as e:  # a name too long for the file system, a loop of links
        raise InputError(f"{option} {path}: {e.strerror or e}") from None
    _not_an_input(out, path, option, inputs)
    _try_writing(out, path, option)


def _not_an_input(out: Path, path: str, option: str, inputs: Inputs) -> None:
    """An output that is one of the command's inputs (`--output` naming the fixture file,
    `-o` the adapter's source) would be overwritten by the report: refused, as the user
    would lose the very file the run was about."""
    if not out.is_file():
        return
    for given, value in inputs:
        if not value:
            continue
        try:
            words = shlex.split(value) if given == "--impl" else []
        except ValueError:  # an unclosed quote: said by the command's own check
            words = []
        for word in {value, value.rpartition(":")[0], *words} - {""}:
            with contextlib.suppress(OSError, ValueError):
                if Path(word).is_file() and os.path.samefile(word, out):
                    raise InputError(f"{option} {path}: is {word}, read as {given}: the "
                                     "output would overwrite it; name another file")


def _try_writing(out: Path, path: str, option: str) -> None:
    """Open the file as the run's end will (a new one made and taken away again; an
    existing one opened to append, which changes nothing): a folder with no permission,
    a read-only file system or /proc is refused now, not after the run. A device or a
    FIFO is left to the writing (opening a FIFO would wait for a reader)."""
    try:
        if not out.exists():
            with open(out, "xb"):
                pass
            out.unlink()
        elif out.is_file():
            with open(out, "ab"):
                pass
    except FileExistsError:  # made meanwhile by someone else: theirs to keep
        return
    except OSError as e:
        raise InputError(f"{option} {path}: cannot write there: {e.strerror or e}") from None


def write_file(path: str | Path, write: Callable[[TextIO], object]) -> None:
    """`write` the file `path` in UTF-8, whole or not at all: a failure once it is open
    (a full disk, an I/O error) takes away the part written and is raised, so that no file
    cut short lies where a whole one is looked for (a reader of JUnit XML takes an empty
    file for no test; fuzz took each empty reproducer's name as used and tried the next).
    A file that cannot be opened is left as it is, and so is a device or a FIFO."""
    f = _open_for_writing(path)
    try:
        with f:
            write(f)
    except OSError:
        with contextlib.suppress(OSError):
            if stat.S_ISREG(os.stat(path).st_mode):
                os.unlink(path)
        raise


FIFO_WAIT = 10.0
"""Seconds a FIFO named as an output is given to find a reader (one started beside the
run, `mkfifo out; cat out & mtrain ... --output out`) before the writing gives up."""


def _open_for_writing(path: str | Path) -> TextIO:
    """`path` opened to write as text; a FIFO only once a process reads it. Opened as a
    file, a FIFO nobody reads waited for a reader without end: the run hung at its very
    end, its report written nowhere. A pipe given as /dev/fd/N (`--output >(gzip > x)`)
    has its reader already."""
    try:
        fifo = stat.S_ISFIFO(os.stat(path).st_mode)
    except OSError:  # none yet, or not to be looked at: open says what is wrong
        fifo = False
    if not fifo:
        return open(path, "w", encoding="utf-8")
    deadline = time.monotonic() + FIFO_WAIT
    while True:
        try:
            fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
            break
        except OSError as e:  # ENXIO: no process has it open to read
            if e.errno != errno.ENXIO:
                raise
            if time.monotonic() >= deadline:
                raise OSError(errno.ENXIO, f"a FIFO no process read within {FIFO_WAIT:g} s "
                              "(start its reader first)") from None
            time.sleep(0.05)  # (a bound on nothing: each round tries again)
    os.set_blocking(fd, True)
    return open(fd, "w", encoding="utf-8")


def replace_file(path: str | Path, write: Callable[[TextIO], object],
                 newline: str | None = None) -> None:
    """`write` the existing file `path` anew, in UTF-8 with `newline` line ends: into a
    file beside it, renamed over it once whole, so that a full disk, an I/O error or a kill
    midway leaves the old file as it was (rewritten in place, it was left cut short); its
    permissions are kept, and a link is followed (the file it names is replaced). A
    failure takes the new file away and is raised."""
    target = Path(os.path.realpath(path))
    mode = stat.S_IMODE(target.stat().st_mode)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with open(fd, "w", encoding="utf-8", newline=newline) as f:
            write(f)
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def write_output(path: str, option: str, write: Callable[[TextIO], object]) -> None:
    """write_file for the output named by `option`: a failure is an InputError naming it."""
    try:
        write_file(path, write)
    except OSError as e:
        raise InputError(f"{option} {path}: {e.strerror or e}") from None


def check_output_folder(path: str, option: str) -> None:
    """Refuse, before any work, a folder that cannot be written: a file in the way, or a
    place where nothing can be made (a read-only file system, /proc, no permission). It
    is tried: made, written and put back as it was."""
    check_output(path, option, folder=True)
    out = Path(path)
    # the folder named is made, never the folders above it: a typo there (`--out
    # reslts/run1`) would leave a tree of its own, where a FILE's missing folder is refused
    # (check_output): each output made as named, or refused alike
    try:
        parent = out.parent if not out.exists() else None
        if parent is not None and not parent.is_dir():
            raise InputError(f"{option} {path}: no such folder: {parent} (the folder named "
                             "is made, not the folders above it)")
    except OSError as e:
        raise InputError(f"{option} {path}: {e.strerror or e}") from None
    made = [p for p in [out, *out.parents] if not p.exists()]  # innermost first
    try:
        out.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=out, prefix=".mtrain-probe-"):
            pass
    except OSError as e:
        raise InputError(f"{option} {path}: cannot write there: {e.strerror or e}") from None
    finally:
        for p in made:
            with contextlib.suppress(OSError):
                p.rmdir()
