"""Answers the hello only after argv[1] seconds (default 30), then correctly."""

from __future__ import annotations

import time
from typing import Any

from _base import arg, run

DELAY = float(arg(1, "30") or 30)


def hook(n: int, request: dict[str, Any], answer: bytes) -> bytes | None:
    if request["type"] == "hello":
        time.sleep(DELAY)
    return answer


run(hook)
