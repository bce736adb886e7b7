"""Answers the hello as the reference does, then every other request with the bytes of
the file named by argv[1], `ID` replaced by the request's id (tests/test_robust_inputs.py:
answers no engine should write)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from _base import arg, run

RAW = Path(arg(1) or "/dev/null").read_bytes()


def hook(n: int, request: dict[str, Any], answer: bytes) -> bytes | None:
    if request["type"] in ("hello", "shutdown"):
        return answer
    return RAW.replace(b"ID", str(request["id"]).encode())


run(hook)
