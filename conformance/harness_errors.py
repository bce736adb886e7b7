"""The errors a request to an implementation behind the protocol may end in
(process.ProcessImplementation): each stands for a result's status."""

from __future__ import annotations

from mtrain.conformance.adapter import Unsupported


class HarnessError(Exception):
    """A request that got no usable answer; `status` is the result it stands for."""

    status = "error"
    given_up = False
    """Set on a request not even tried: the program failed to start too often in a row
    (or the harness is stopping), so every later request fails the same way."""
    starting = False
    """Set where the program failed before the fixture was asked anything: its start
    (the hello) failed, or it failed to start too often. Nothing the fixture says was
    asked, so the failure rests on none of its clauses or decisions."""

    def __init__(self, message: str, stderr: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.stderr = stderr


def given_up(error: HarnessError) -> HarnessError:
    """`error`, marked as standing for every request from now on (HarnessError.given_up)."""
    error.given_up = True
    return error


class ImplementationCrashed(HarnessError):
    status = "crash"


class ImplementationTimeout(HarnessError):
    status = "timeout"


class ProtocolViolation(HarnessError):
    status = "error"


class ImplementationError(HarnessError):
    """The implementation answered {"ok": false}: it could not handle the request."""

    status = "error"


class NotApplicable(HarnessError, Unsupported):
    """The implementation does not support this request (an `unsupported` answer)."""

    status = "not-applicable"


FAILURES = (ImplementationCrashed, ImplementationTimeout, ProtocolViolation)
"""What no later answer can make up for: a crash, a hang, a broken stream. Each one is
logged in the implementation's `failures`, so that fuzz, which asks again, still sees it."""


class ConfigurationError(Exception):
    """The implementation cannot be used at all: not runnable, or another protocol."""
