"""Every legal answer lists each of its actions argv[1] times over (default 2), in the
reference's order, the list repeated whole: the same actions, a list the protocol wants
each once (tests/test_robust_s44b.py)."""

from __future__ import annotations

import json
from typing import Any

from _base import arg, run

TIMES = int(arg(1, "2") or 2)


def hook(n: int, request: dict[str, Any], answer: bytes) -> bytes | None:
    if request["type"] != "legal":
        return answer
    data = json.loads(answer)
    if "actions" in data:
        data["actions"] = data["actions"] * TIMES
    return json.dumps(data, separators=(",", ":")).encode() + b"\n"


run(hook)
