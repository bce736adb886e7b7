"""Closes its stdout at request K (argv[1], default 3) and keeps running until its stdin
ends; with a marker file (argv[2]) only the first process does."""

from __future__ import annotations

import os
import sys
from typing import Any

from _base import arg, once, run

K = int(arg(1, "3") or 3)
MARKER = arg(2)


def hook(n: int, request: dict[str, Any], answer: bytes) -> bytes | None:
    if n == K and once(MARKER):
        sys.stderr.write("closing stdout\n")
        sys.stderr.flush()
        os.close(1)
        for _ in sys.stdin.buffer:
            pass
        os._exit(0)
    return answer


run(hook)
