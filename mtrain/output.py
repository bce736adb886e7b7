"""Standard output that fails in one line: a write error (a full disk, `> /dev/full`, an
I/O error) is an OutputError that the command line reports and exits non-zero on, never
a traceback. A broken pipe stays a BrokenPipeError: `mtrain conform | head` keeps its
verdict (mtrain/cli.py)."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterable, Iterator
from typing import Any, TextIO


class OutputError(Exception):
    """Standard output could not be written (the reason is the message)."""


class _Guarded:
    """A text stream whose write errors, other than a broken pipe, are OutputErrors."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def _call(self, method: str, *args: Any) -> Any:
        try:
            return getattr(self._stream, method)(*args)
        except BrokenPipeError:
            raise
        except OSError as e:
            raise OutputError(e.strerror or str(e)) from None

    def write(self, text: str) -> int:
        written: int = self._call("write", text)
        return written

    def writelines(self, lines: Iterable[str]) -> None:
        self._call("writelines", lines)

    def flush(self) -> None:
        self._call("flush")

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


@contextlib.contextmanager
def guarded_stdout() -> Iterator[None]:
    """sys.stdout guarded for the duration, and flushed at its end (so that what is
    still buffered fails here, not in the interpreter's last flush)."""
    original = sys.stdout
    sys.stdout = _Guarded(original)
    try:
        yield
        sys.stdout.flush()
    finally:
        sys.stdout = original
