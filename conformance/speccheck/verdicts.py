"""A check's verdict as `mtrain check` reports it: its name, status (``pass``, ``info``,
``fail``), seconds and findings, each finding a message and the clauses it is about."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

Check = dict[str, Any]


def finding(message: str, clauses: Sequence[str] = ()) -> dict[str, Any]:
    return {"message": message, "clauses": list(clauses)}


def verdict(name: str, status: str, seconds: float, findings: list[dict[str, Any]],
            **extra: Any) -> Check:
    return {"name": name, "status": status, "seconds": round(seconds, 4),
            "findings": findings, **extra}


def guarded(name: str, body: Callable[[], Check]) -> Check:
    t0 = time.perf_counter()
    try:
        return body()
    except Exception as exc:  # a check that crashes fails, with the reason
        return verdict(name, "fail", time.perf_counter() - t0,
                       [finding(f"{type(exc).__name__}: {exc}")])
