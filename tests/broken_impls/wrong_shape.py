"""Valid JSON with the right ids, the wrong shape: legal answers a string for the list
of actions, and apply a state without hands. Other requests are answered correctly."""

from __future__ import annotations

import json
from typing import Any

from _base import run


def hook(n: int, request: dict[str, Any], answer: bytes) -> bytes | None:
    if request["type"] == "legal":
        return json.dumps({"id": request["id"], "ok": True, "actions": "draw"}).encode() + b"\n"
    if request["type"] == "apply":
        data = json.loads(answer)
        if "state" in data:
            del data["state"]["hands"]
        return json.dumps(data).encode() + b"\n"
    return answer


run(hook)
