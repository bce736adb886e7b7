"""Standard output that fails in one line: a write error (a full disk, `> /dev/full`, an
I/O error) is an OutputError that the command line reports and exits non-zero on, never
a traceback. A broken pipe stays a BrokenPipeError: `mtrain conform | head` keeps its
verdict (mtrain/cli.py). An encoding that cannot hold every character (LC_ALL=C on an old
Python, PYTHONIOENCODING=ascii) shows the others as escapes in text, and a document (an
SVG, a page, a fixture file) is written in UTF-8, which it is read as."""

from __future__ import annotations

import codecs
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


class _Closed:
    """Standard output closed when the command started (`mtrain ... >&-`), where Python
    has no stream (sys.stdout is None, and a print was an AttributeError's traceback): a
    write is an OutputError, as on a full disk; a command that writes nothing runs."""

    encoding = "utf-8"
    buffer = None

    def write(self, text: str) -> int:
        raise OutputError("standard output is closed")

    def writelines(self, lines: Iterable[str]) -> None:
        raise OutputError("standard output is closed")

    def flush(self) -> None:
        """Nothing was written: nothing to flush."""

    def isatty(self) -> bool:
        return False


MIN_WIDTH = 72
"""The narrowest a table is drawn: at COLUMNS=1 (or a tiny window) rich drew borders
alone, every name and value cut away."""


def readable(console: Any) -> Any:
    """`console` (a rich Console) drawing at least MIN_WIDTH columns wide."""
    if console.width < MIN_WIDTH:
        console.width = MIN_WIDTH
    return console


def _utf(stream: Any) -> bool:
    """Whether `stream` encodes every character (or is no encoding text stream)."""
    try:
        return codecs.lookup(stream.encoding).name.startswith("utf")
    except (AttributeError, LookupError, TypeError):
        return True


@contextlib.contextmanager
def guarded_stdout() -> Iterator[None]:
    """sys.stdout guarded for the duration, and flushed at its end (so that what is
    still buffered fails here, not in the interpreter's last flush); in an encoding
    short of characters, those it lacks escaped (as Python does on stderr), not a
    UnicodeEncodeError halfway through a table."""
    original = sys.stdout
    if original is None:  # closed when the command started
        sys.stdout = _Closed()
        try:
            yield
        finally:
            sys.stdout = original
        return
    errors = None if _utf(original) else getattr(original, "errors", None)
    if errors is not None:
        with contextlib.suppress(AttributeError, ValueError):
            original.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]
    sys.stdout = _Guarded(original)
    try:
        yield
        sys.stdout.flush()
    finally:
        sys.stdout = original
        if errors is not None:
            with contextlib.suppress(AttributeError, ValueError):
                original.reconfigure(errors=errors)  # type: ignore[union-attr]


def write_document(text: str) -> None:
    """A document (SVG, HTML, Markdown, YAML, JSON) onto standard output in UTF-8 whatever
    the locale's encoding: its reader takes it as UTF-8 (a page and an SVG say so), and
    an escape written into it would be text of its own."""
    stream = sys.stdout
    buffer = getattr(stream, "buffer", None)
    if _utf(stream) or buffer is None:
        stream.write(text)
        return
    try:
        stream.flush()
        buffer.write(text.encode("utf-8"))
        buffer.flush()
    except BrokenPipeError:
        raise
    except OSError as e:
        raise OutputError(e.strerror or str(e)) from None
