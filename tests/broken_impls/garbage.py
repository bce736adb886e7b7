"""Answers request K (argv[1], default 3) with a line that is not JSON; with a marker
file (argv[2]) only the first process does."""

from __future__ import annotations

from typing import Any

from _base import arg, once, run

K = int(arg(1, "3") or 3)
MARKER = arg(2)


def hook(n: int, request: dict[str, Any], answer: bytes) -> bytes | None:
    if n == K and once(MARKER):
        return b"Loading engine... \x00\xff{{{ not json\n"
    return answer


run(hook)
