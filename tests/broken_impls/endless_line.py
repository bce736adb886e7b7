"""Answers correctly until request K (argv[1], default 3), which it answers with a line
that never ends: bytes without a newline, for as long as anyone reads them."""

from __future__ import annotations

import sys
from typing import Any

from _base import arg, run

K = int(arg(1, "3") or 3)


def hook(n: int, request: dict[str, Any], answer: bytes) -> bytes | None:
    if n == K:
        chunk = b'{"id": 1, "pad": "' + b"x" * 65536
        while True:
            sys.stdout.buffer.write(chunk)
    return answer


run(hook)
