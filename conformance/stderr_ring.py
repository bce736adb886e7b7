"""What an implementation under test writes on stderr: the most recent bytes, kept by a
daemon thread that drains the pipe (so a chatty program never blocks on a full pipe), and
the tail of it that a report quotes."""

from __future__ import annotations

import contextlib
import threading
from collections import deque
from typing import IO

STDERR_BYTES = 64 * 1024
"""How much of an implementation's stderr is kept (the most recent bytes)."""
TAIL_LINES = 15
TAIL_CHARS = 2000


class StderrRing:
    """The most recent `limit` bytes a stream produced, filled by a daemon thread."""

    def __init__(self, stream: IO[bytes] | None, limit: int = STDERR_BYTES) -> None:
        self._chunks: deque[bytes] = deque()
        self._size = 0
        self._total = 0
        self._limit = limit
        self._lock = threading.Lock()
        self.thread: threading.Thread | None = None
        if stream is not None:
            self.thread = threading.Thread(target=self._drain, args=(stream,), daemon=True,
                                           name="mtrain-stderr")
            self.thread.start()

    def _drain(self, stream: IO[bytes]) -> None:
        read = getattr(stream, "read1", stream.read)
        try:
            while chunk := read(65536):
                self.add(chunk)
        except (OSError, ValueError):
            pass
        finally:  # this thread owns the stream: closing it elsewhere could block on it
            with contextlib.suppress(OSError, ValueError):
                stream.close()

    def add(self, chunk: bytes) -> None:
        with self._lock:
            self._chunks.append(chunk)
            self._size += len(chunk)
            self._total += len(chunk)
            while self._size - len(self._chunks[0]) >= self._limit:
                self._size -= len(self._chunks.popleft())

    def mark(self) -> int:
        with self._lock:
            return self._total

    def text(self, since: int = 0) -> str:
        """What was written after `mark()` returned `since` (as much as is kept)."""
        with self._lock:
            data = b"".join(self._chunks)
            fresh = self._total - since
        if fresh <= 0:
            return ""
        data = data[-min(fresh, self._limit):]
        return data.decode("utf-8", "replace")

    def tail(self, since: int = 0, lines: int = TAIL_LINES, chars: int = TAIL_CHARS) -> str:
        return tail_of(self.text(since), lines, chars)

    def settle(self, wait: float = 0.5) -> None:
        """Give the reader a moment to collect the last words of a dead process."""
        if self.thread is not None:
            self.thread.join(wait)


def tail_of(text: str, lines: int = TAIL_LINES, chars: int = TAIL_CHARS) -> str:
    kept = text.rstrip().splitlines()[-lines:]
    out = "\n".join(kept)
    return out if len(out) <= chars else "..." + out[-chars:]
