"""Answers correctly, then exits on request K (argv[1], default 5); with a marker file
(argv[2]) only the first process does."""

from __future__ import annotations

import os
import sys
from typing import Any

from _base import arg, once, run

K = int(arg(1, "5") or 5)
MARKER = arg(2)


def hook(n: int, request: dict[str, Any], answer: bytes) -> bytes | None:
    if n == K and once(MARKER):
        sys.stderr.write(f"panic: index out of range while handling {request['type']}\n")
        sys.stderr.flush()
        os._exit(7)
    return answer


run(hook)
