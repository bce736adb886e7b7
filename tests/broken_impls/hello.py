"""The reference server with a different hello: argv[1] is a JSON object merged into the
hello answer (e.g. {"protocol": 2}, or {"options": {"scoring": ["penalty"]}}); with
argv[1] == "refuse", the hello is answered with a protocol-version error, with
"refuse-busy" with an internal error."""

from __future__ import annotations

import json
import sys
from typing import Any

from _base import run

CHANGE = sys.argv[1] if len(sys.argv) > 1 else "{}"


def hook(n: int, request: dict[str, Any], answer: bytes) -> bytes | None:
    if request["type"] != "hello":
        return answer
    if CHANGE == "refuse-busy":  # an error answer, not about the protocol version
        return json.dumps({"id": request["id"], "ok": False, "error": {
            "kind": "internal", "message": "licence server unreachable"}}).encode() + b"\n"
    if CHANGE == "refuse":
        return json.dumps({"id": request["id"], "ok": False, "error": {
            "kind": "protocol-version", "message": "this engine speaks protocol 7 only",
            "supported": [7]}}).encode() + b"\n"
    data = {**json.loads(answer), **json.loads(CHANGE)}
    return json.dumps(data).encode() + b"\n"


run(hook)
