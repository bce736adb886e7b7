"""Whether a path can be read as a file, looked at but never opened (a FIFO is not waited
on): what reading any input file checks first (spec/yamlload.py's read_bytes), and what
an adapter named by its path is checked with before it is imported.

Apart from yamlload.py so that the host of an adapter (conformance/inprocess.py) checks
the adapter's path without importing the YAML reader.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Final

MAX_FILE_BYTES: Final = 32 * 1024 * 1024
"""The largest file read (the largest shipped file is under 100 KB; a corpus of 10,000
fixtures in one file is about 5 MB)."""


def _file_kind(mode: int) -> str | None:
    """What a file that is not a regular file is, for messages (None for a regular one)."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a special file"


def _size_problem(size: int, limit: int) -> str:
    return (f"{size:,} bytes, more than the {limit // (1024 * 1024)} MB a file may hold"
            if size > limit else "")


def file_problem(path: str | Path, limit: int = MAX_FILE_BYTES) -> str | None:
    """Why `path` cannot be read as a file (missing, a folder, a FIFO, a device, too
    large, ...), or None. It is only looked at, never opened: a FIFO is not waited on."""
    p = Path(path)
    try:
        st = os.stat(p)
    except FileNotFoundError:
        if p.is_symlink():
            return f"a link to {os.readlink(p)}, which does not exist"
        return "file not found"
    except NotADirectoryError:
        return "file not found (a folder on its path is a file)"
    except OSError as exc:
        return f"cannot read file: {exc.strerror or exc}"
    kind = _file_kind(st.st_mode)
    if kind is not None:
        return f"is {kind}, not a file"
    return _size_problem(st.st_size, limit) or None
