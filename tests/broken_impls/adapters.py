"""In-process adapters for `--adapter tests/broken_impls/adapters.py:NAME`."""

from __future__ import annotations

import time

from mtrain.conformance.adapter import JSON, ReferenceImplementation


class Reference(ReferenceImplementation):
    """The reference engine, subclassed as an implementer would."""


REFERENCE = Reference()


class ForgetsDraw(ReferenceImplementation):
    """Never offers [5-3] on train 0, and always offers a pass."""

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        actions = [a for a in super().legal(ruleset, state)
                   if a != {"type": "play", "tile": "5-3", "train": 0}]
        return [*actions, {"type": "pass"}]


class PuremcoOnly(ReferenceImplementation):
    def info(self) -> JSON:
        return {**super().info(), "variants": ["puremco", "puremco+*"]}


class Slow(ReferenceImplementation):
    """Hangs in legal() for basic-001 under puremco only."""

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        if ruleset["name"] == "puremco" and state["hands"][0] == ["9-1", "5-3"]:
            time.sleep(30)
        return super().legal(ruleset, state)


class Raises(ReferenceImplementation):
    def winners(self, ruleset: JSON, state: JSON) -> list[int]:
        raise KeyError("scores")


class NotAnEngine:
    def info(self) -> JSON:
        return {}


class Broken:
    def __init__(self) -> None:
        raise RuntimeError("no engine today")
