"""Requests written ahead of their calls (process.ProcessImplementation): what the client
keeps of each until a call claims it, and how it tells a line read ahead is in step.

Protocol v1 answers in order any number of requests in flight (docs/protocol.md, The
channel), so the client may write requests before the calls that ask them: the questions
of a check about one state, and (conformance/lookahead.py) the first requests of the
tasks to come. Their answers are read in the order written, each within its own timeout
counted from when it is waited for, and kept (as the line, or the failure met instead)
for the call that asks the same request; the owner groups the requests of one task, so
that a call claims only its own task's, in order.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mtrain.conformance.child import ChildProcess


class Ahead:
    """One request written ahead: where it went, what it asked, and, once read, its line
    (or the failure met reading it: a crash, a timeout, a line too long)."""

    __slots__ = (
        "error",
        "fields",
        "first_id",
        "kind",
        "line",
        "lost",
        "mark",
        "owner",
        "proc",
        "rid",
        "size",
    )

    def __init__(self, proc: ChildProcess, kind: str, fields: dict[str, bytes], rid: int,
                 mark: int, first_id: int, size: int, owner: Hashable) -> None:
        self.proc = proc
        self.kind = kind
        self.fields = fields
        self.rid = rid
        self.mark = mark  # the stderr ring's mark as it was written
        self.first_id = first_id  # its process's hello id: an answer's id read against it
        self.size = size  # its line's bytes, for a timeout behind it to tell them apart
        self.owner = owner
        self.line: bytes | None = None
        self.error: Exception | None = None
        self.lost = False
        """Written to a process that died before answering it: asked again at its call."""

    def asks(self, kind: str, fields: dict[str, bytes]) -> bool:
        return self.kind == kind and self.fields == fields

    @property
    def read(self) -> bool:
        return self.line is not None or self.error is not None


def in_step(line: bytes, rid: int) -> bool:
    """Whether `line` answers request `rid` by its id (the compact form the reference
    writes, or with spaces as Python's json writes it); False for a line that carries
    another id or no readable one, which the call that claims it reports in full."""
    if line.startswith(b'{"id":%d,' % rid):
        return True
    head = line.lstrip()
    if not head.startswith(b"{"):
        return False
    head = head[1:].lstrip()
    if not head.startswith(b'"id"'):
        return False
    head = head[4:].lstrip()
    if not head.startswith(b":"):
        return False
    digits = head[1:].lstrip()
    number = str(rid).encode()
    if not digits.startswith(number):
        return False
    rest = digits[len(number):].lstrip()
    return rest.startswith((b",", b"}"))


Call = tuple[str, dict[str, bytes]]


class AheadQueue:
    """The requests written ahead to one client: those whose answers are not read yet, in
    the order written (`unread`), and those not claimed yet, by owner."""

    def __init__(self) -> None:
        self.unread: deque[Ahead] = deque()
        self._claimable: dict[Hashable, deque[Ahead]] = {}
        self.owner: Hashable = None

    def to_write(self, calls: Sequence[Call], owners: Sequence[Hashable] | None
                 ) -> tuple[Sequence[Call], Sequence[Hashable]]:
        """Of `calls` (each with its owner; None: the current owner's), those to write: a
        prefix the current owner has written already, in this order, is not written again;
        a current owner's request not among them is dropped."""
        if owners is not None:
            return calls, owners
        mine = self._claimable.get(self.owner)
        if mine:
            if len(mine) <= len(calls) and all(
                    a.asks(*call) for a, call in zip(mine, calls, strict=False)):
                calls = calls[len(mine):]
            else:
                del self._claimable[self.owner]
        return calls, [self.owner] * len(calls)

    def add(self, entry: Ahead) -> None:
        self.unread.append(entry)
        self._claimable.setdefault(entry.owner, deque()).append(entry)

    def own(self, owner: Hashable) -> None:
        """The calls from now on are `owner`'s; the last owner's left unclaimed, dropped."""
        self._claimable.pop(self.owner, None)
        self.owner = owner

    def claim(self, kind: str, fields: dict[str, bytes]) -> Ahead | None:
        """The current owner's next request if it is this one (read or not), else None,
        its others then dropped: the call is written anew."""
        mine = self._claimable.get(self.owner)
        if not mine:
            return None
        if mine[0].lost or not mine[0].asks(kind, fields):
            del self._claimable[self.owner]
            return None
        return mine.popleft()

    def behind(self, proc: ChildProcess) -> int:
        """The bytes of the requests to `proc` whose answers are still to be read."""
        return sum(a.size for a in self.unread if a.proc is proc)

    def lose(self, proc: ChildProcess) -> None:
        """The requests written to `proc` and not answered: asked again at their calls."""
        for entry in self.unread:
            if entry.proc is proc:
                entry.lost = True
        self.unread.clear()

    def forget(self) -> None:
        self.unread.clear()
        self._claimable.clear()
