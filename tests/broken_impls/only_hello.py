"""A server that answers the hello and nothing else: every other request gets an
`unsupported` error, so a conform run against it tests nothing (and must fail)."""

from __future__ import annotations

import json
from typing import Any

from _base import run


def hook(n: int, request: dict[str, Any], answer: bytes) -> bytes | None:
    if request["type"] in ("hello", "shutdown"):
        return answer
    return json.dumps({"id": request["id"], "ok": False, "error": {
        "kind": "unsupported", "message": "this engine only says hello"}}).encode() + b"\n"


run(hook)
