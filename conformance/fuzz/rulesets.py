"""The rule sets a fuzz run plays: each in every form the fuzzer needs, and the default
draw of shipped variants and overlay combinations, within what the implementation declares.
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from mtrain.reference.rules import Rules
from mtrain.spec.catalog import RulesetError, catalog
from mtrain.spec.ruleset import Ruleset
from mtrain.spec.yamlload import SpecError

from ..adapter import JSON, ruleset_json
from ..fixture import max_pip_of

PLAIN_SHARE = 0.25
"""Share of default games played under a shipped variant with no overlay."""
EXTRA_OVERLAYS = (0, 0, 1, 1, 2)
"""How many overlays a default game adds to the one it draws in turn (one is chosen)."""


@dataclass(frozen=True)
class Context:
    """One rule set, in every form the fuzzer needs."""

    name: str
    rs: Ruleset
    rules: Rules
    rj: JSON
    rj_bytes: bytes  # the rule set as the protocol sends it, encoded once
    max_pip: int


@functools.cache
def context(variant: str) -> Context:
    """The rule set `variant` names (a variant, or base+overlay+...)."""
    rs = catalog().ruleset(variant)
    rj = ruleset_json(rs)
    encoded = json.dumps(rj, separators=(",", ":"), ensure_ascii=False).encode()
    return Context(rs.name, rs, Rules.of(rs), rj, encoded, max_pip_of(rs))


def composes(name: str) -> bool:
    try:
        context(name)
    except (RulesetError, SpecError):
        return False
    return True


@functools.cache
def overlays_for(base: str) -> tuple[str, ...]:
    """The overlays that compose with `base` on their own, in catalogue order."""
    return tuple(o for o in catalog().overlays if composes(f"{base}+{o}"))


Supported = Callable[[str], bool]


class Chooser:
    """Which rule set game `index` is played under.

    Named rule sets (--variant) are played in turn. By default: the shipped variants in
    turn, a quarter of the games with no overlay and the others with one overlay drawn in
    turn from those that compose with the variant (so each comes back every few dozen
    games) plus up to two more at random, kept when they compose. A rule set the
    implementation does not support is drawn again (it never plays one)."""

    def __init__(self, names: Sequence[str] = (), supported: Supported | None = None) -> None:
        self.names = list(names)
        self.supported = supported or (lambda name: True)
        self.bases = [b for b in catalog().variants if self.supported(b) or any(
            self.supported(f"{b}+{o}") for o in overlays_for(b))]

    @property
    def empty(self) -> bool:
        return not (self.names or self.bases)

    def describe(self) -> str:
        if self.names:
            return ", ".join(self.names)
        return (f"{', '.join(self.bases)} and their overlay combinations"
                if self.bases else "nothing")

    def __call__(self, index: int, rng: random.Random) -> str:
        if self.names:
            return self.names[index % len(self.names)]
        base = self.bases[index % len(self.bases)]
        overlays = overlays_for(base)
        plain = rng.random() < PLAIN_SHARE or not overlays
        for attempt in range(12):
            if plain and attempt == 0:
                name = base
            else:
                turn = overlays[(index // len(self.bases) + attempt) % len(overlays)]
                chosen = {turn}
                for _ in range(rng.choice(EXTRA_OVERLAYS)):
                    extra = rng.choice(overlays)
                    if composes(canonical(base, chosen | {extra})):
                        chosen.add(extra)
                name = canonical(base, chosen)
            if self.supported(name):
                return name
        # the base, or one of its single overlays, is supported (or it would not be a base)
        return next(n for n in (base, *(f"{base}+{o}" for o in overlays)) if self.supported(n))


def canonical(base: str, overlays: set[str]) -> str:
    """One name per combination: the overlays in catalogue order."""
    return "+".join([base, *(o for o in catalog().overlays if o in overlays)])
