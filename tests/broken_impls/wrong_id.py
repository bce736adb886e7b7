"""Answers correctly but with a wrong request id: from request K on (argv[1], default 2,
so the hello is right), each answer carries the id plus OFFSET (argv[2], default 1; 0
leaves it right, "null" writes null, "str" writes it as a string)."""

from __future__ import annotations

import json
from typing import Any

from _base import arg, run

K = int(arg(1, "2") or 2)
OFFSET = arg(2, "1") or "1"


def hook(n: int, request: dict[str, Any], answer: bytes) -> bytes | None:
    if n < K:
        return answer
    data = json.loads(answer)
    if OFFSET == "null":
        data["id"] = None
    elif OFFSET == "str":
        data["id"] = str(data["id"])
    else:
        data["id"] = data["id"] + int(OFFSET)
    return json.dumps(data).encode() + b"\n"


run(hook)
