"""The fast loop's samples of parametrised families (tests/conftest.py, README).

A family that runs the same long pipeline once per case (an engine, a fault, a mutant)
keeps a few cases in the fast loop (`pytest -m "not slow"`) and marks the rest slow: the
whole suite still runs every case, and the fast loop still runs the family's code."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from typing import Any

import pytest


def fast_few(cases: Iterable[Any], fast: Collection[str],
             ids: Callable[[Any], str] = str, unpack: bool = False) -> list[Any]:
    """Every case as a parameter (a tuple spread over several names, with `unpack`),
    named by `ids`; those whose name is not in `fast` marked slow. A name in `fast` that
    names no case is an error (a renamed case would otherwise leave the fast loop without
    the family)."""
    params = [pytest.param(*(c if unpack else (c,)), id=ids(c),
                           marks=() if ids(c) in fast else pytest.mark.slow)
              for c in cases]
    missing = set(fast) - {p.id for p in params}
    assert not missing, f"fast cases that name no case: {sorted(missing)}"
    return params
