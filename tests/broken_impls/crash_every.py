"""Answers correctly, but exits after every N requests (argv[1], default 30): each
process it is started as answers N requests (the hello among them), then exits."""

from __future__ import annotations

import os
import sys
from typing import Any

from _base import arg, run

N = int(arg(1, "30") or 30)


def hook(n: int, request: dict[str, Any], answer: bytes) -> bytes | None:
    if n > N:
        sys.stderr.write(f"out of memory after {N} requests\n")
        sys.stderr.flush()
        os._exit(9)
    return answer


run(hook)
