"""The reference, with one quiet wrong answer where only a later or rarer table shows it,
named by argv[1]:

- ``round-2``: a legal answer in round 2 leaves out its last action (rounds 1 and 3 on
  are right);
- ``tile-set``: a legal answer under the tile set argv[2] (default double-9) leaves out
  its last action (every other set is right);
- ``winners``: a winners answer says the match goes on ([]) where it is over.

Every answer keeps the protocol's shape: only what it says is wrong
(tests/test_robust_s44b.py)."""

from __future__ import annotations

import json
from typing import Any

from _base import arg, run

FAULT = arg(1, "round-2")
SET = arg(2, "double-9")


def wrong(request: dict[str, Any]) -> bool:
    if FAULT == "round-2":
        return request["type"] == "legal" and bool(request["state"].get("round") == 2)
    if FAULT == "tile-set":
        return (request["type"] == "legal"
                and bool(request["ruleset"]["options"].get("tile_set") == SET))
    return FAULT == "winners" and request["type"] == "winners"


def hook(n: int, request: dict[str, Any], answer: bytes) -> bytes | None:
    if not wrong(request):
        return answer
    data = json.loads(answer)
    if len(data.get("actions", ())) > 1:
        data["actions"] = data["actions"][:-1]
    elif data.get("winners"):
        data["winners"] = []
    return json.dumps(data, separators=(",", ":")).encode() + b"\n"


run(hook)
