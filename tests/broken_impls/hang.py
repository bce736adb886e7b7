"""Answers correctly, then stops answering at request K (argv[1], default 3) without
exiting; with a marker file (argv[2]) only the first process does."""

from __future__ import annotations

import sys
import time
from typing import Any

from _base import arg, once, run

K = int(arg(1, "3") or 3)
MARKER = arg(2)


def hook(n: int, request: dict[str, Any], answer: bytes) -> bytes | None:
    if n == K and once(MARKER):
        sys.stderr.write("thinking very hard...\n")
        sys.stderr.flush()
        time.sleep(3600)
    return answer


run(hook)
