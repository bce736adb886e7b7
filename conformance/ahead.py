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

from collections.abc import Hashable
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
