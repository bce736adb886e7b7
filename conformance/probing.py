"""A probe's answer: a question conform asks beside the fixture's, to tell a rule of one's
own from a bug (last_bone.py, double_plays.py).

An implementation that will not answer the probe's table (it refuses it, says
`unsupported`, or cannot have such a table) says nothing about its rule, and the entry is
judged as written. But a crash, a hang, a broken stream, an error answer or an answer that
breaks the schemas during the probe is what it is, and is reported so: taken for "says
nothing", it turned the failure into a judgement of the rule (a crash on the probe of
last_bone.py let a pass where the rules say draw through as a draw rule of one's own).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from mtrain.conformance.adapter import Refused, RefusedSetup, Unsupported
from mtrain.conformance.answers import AnswerError
from mtrain.conformance.process import HarnessError

A = TypeVar("A")


def asked(call: Callable[[], A], probe: str) -> A | None:
    """`call()`, the request of a probe that `probe` describes; None where the
    implementation will not answer it (a refusal, `unsupported`, a table it cannot have).
    A failure of the request (HarnessError: a crash, a hang, a broken stream, an error
    answer; AnswerError: an impossible answer) is raised as what it is, its message saying
    that it answered the probe; ConfigurationError and anything else, as they are."""
    try:
        return call()
    except (Refused, RefusedSetup, Unsupported):  # (an `unsupported` answer among them)
        return None
    except HarnessError as e:
        e.message = f"{probe}: {e.message}"
        e.args = (e.message,)
        raise
    except AnswerError as e:
        raise AnswerError(f"{e.asked} ({probe})", e.problems) from None
