"""What an implementation under test writes on stderr: the most recent bytes, kept by a
daemon thread that drains the pipe (so a chatty program never blocks on a full pipe), and
the tail of it that a report quotes."""

from __future__ import annotations

import contextlib
import fcntl
import os
import select
import struct
import termios
import threading
from collections import deque
from select import POLLHUP, POLLNVAL
from select import poll as _poll
from typing import IO

STDERR_BYTES = 64 * 1024
"""How much of an implementation's stderr is kept (the most recent bytes)."""
PIPE_MAX = 1 << 20
"""The most a pipe holds (Linux's default /proc/sys/fs/pipe-max-size): what `text` reads at
most when the pipe cannot say how much it holds."""
CHUNK = 65536
TAIL_LINES = 15
TAIL_CHARS = 2000


class StderrRing:
    """The most recent `limit` bytes a stream produced, filled by a daemon thread.

    The pipe is read without blocking and only under the ring's lock, by the thread and
    by `text` alike: what the program wrote before an answer it sent on stdout is in the
    text asked after that answer, however late the thread is scheduled (a loaded machine
    once left a failing request's stderr out of its report)."""

    def __init__(self, stream: IO[bytes] | None, limit: int = STDERR_BYTES) -> None:
        self._chunks: deque[bytes] = deque()
        self._size = 0
        self._total = 0
        self._limit = limit
        self._lock = threading.Lock()
        self._stream = stream
        self._fd = -1  # the pipe while it is open, else -1
        self.thread: threading.Thread | None = None
        if stream is not None:
            self._fd = stream.fileno()
            os.set_blocking(self._fd, False)
            self.thread = threading.Thread(target=self._drain, daemon=True,
                                           name="mtrain-stderr")
            self.thread.start()

    def _drain(self) -> None:
        poller = select.poll()
        poller.register(self._fd, select.POLLIN)
        try:
            while self._fd >= 0:
                poller.poll()
                with self._lock:  # one chunk a turn: text() waits for no more than it
                    self._collect(CHUNK)
        except (OSError, ValueError):
            pass
        finally:  # this thread owns the stream: closing it elsewhere could block on it
            with self._lock:
                self._fd = -1
            with contextlib.suppress(OSError, ValueError):
                if self._stream is not None:
                    self._stream.close()

    def _held(self) -> int:
        """How many bytes the pipe holds now: all that was written before and not yet
        read. A program writing faster than it is read never empties the pipe, so reading
        until it is empty (as text() once did) could go on as long as the program does."""
        try:
            return int(struct.unpack("i", fcntl.ioctl(self._fd, termios.FIONREAD,
                                                      b"\0" * 4))[0])
        except OSError:
            return PIPE_MAX

    def _collect(self, most: int | None = None) -> None:
        """Read (the lock held) `most` bytes at most, by default what the pipe holds now;
        at its end, stop reading it."""
        if most is None and self._fd >= 0:
            most = self._held()
        left = most or 0
        while self._fd >= 0 and left > 0:
            try:
                chunk = os.read(self._fd, min(CHUNK, left))
            except BlockingIOError:
                return
            except OSError:
                chunk = b""
            if not chunk:
                self._fd = -1
                return
            left -= len(chunk)
            self._add(chunk)

    def add(self, chunk: bytes) -> None:
        with self._lock:
            self._add(chunk)

    def _add(self, chunk: bytes) -> None:
        self._chunks.append(chunk)
        self._size += len(chunk)
        self._total += len(chunk)
        while self._size - len(self._chunks[0]) >= self._limit:
            self._size -= len(self._chunks.popleft())

    def mark(self) -> int:
        """Where what is written from now on begins: what the pipe holds already is read
        first, so that it counts as before the mark however late the thread runs (a
        request's report quoted the stderr of the one before it)."""
        with self._lock:
            self._collect()
            return self._total

    def text(self, since: int = 0) -> str:
        """What was written after `mark()` returned `since` (as much as is kept)."""
        with self._lock:
            self._collect()
            data = b"".join(self._chunks)
            fresh = self._total - since
        if fresh <= 0:
            return ""
        data = data[-min(fresh, self._limit):]
        return data.decode("utf-8", "replace")

    def tail(self, since: int = 0, lines: int = TAIL_LINES, chars: int = TAIL_CHARS) -> str:
        return tail_of(self.text(since), lines, chars)

    def collect(self) -> None:
        """Read what the pipe holds now (a dead program's last words), waiting for nothing."""
        with self._lock:
            self._collect()

    def held_open(self) -> bool:
        """Whether a writer still holds the pipe: it is open here and shows no hang-up."""
        with self._lock:
            if self._fd < 0:
                return False
            poller = _poll()  # (not the reader's `select`: this looks, it never waits)
            poller.register(self._fd, 0)  # POLLHUP is always reported
            return not any(event & (POLLHUP | POLLNVAL) for _, event in poller.poll(0))


def tail_of(text: str, lines: int = TAIL_LINES, chars: int = TAIL_CHARS) -> str:
    kept = text.rstrip().splitlines()[-lines:]
    out = "\n".join(kept)
    return out if len(out) <= chars else "..." + out[-chars:]
