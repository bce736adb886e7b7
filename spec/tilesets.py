"""Tile sets as data: each `tile_set` value of spec/data/options.yaml gives its highest
number (`highest`), and everything else about the set is computed from that one number.

This module sits below `tiles` (which sizes its tables for the largest set) and below
the catalogue, so it reads the tile_set block of options.yaml itself, with plain
`yaml.safe_load`; the catalogue loads the same file with line numbers and checks it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from typing import Any, Final

import yaml

from mtrain.spec.errors import shown
from mtrain.spec.package_files import package_files

_PACKAGE: Final = __package__ or "mtrain.spec"


class TileSetError(ValueError):
    """A tile_set value that names no set of spec/data/options.yaml."""


@functools.cache
def highest_numbers() -> dict[str, int]:
    """tile_set value -> the set's highest number, in options.yaml order."""
    text = package_files(_PACKAGE).joinpath("data", "options.yaml").read_text(encoding="utf-8")
    # libyaml when present: this runs at import time, where PyYAML's pure Python parser
    # costs a tenth of a second
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    values = tile_set_values(yaml.load(text, Loader=loader)["tile_set"])
    out: dict[str, int] = {}
    for name, body in values.items():
        top = body.get("highest") if isinstance(body, dict) else None
        if not isinstance(top, int) or isinstance(top, bool) or top < 0:
            raise TileSetError(f"spec/data/options.yaml: tile_set={name} needs `highest`, "
                               f"a number 0 or more (got {top!r})")
        out[str(name)] = top
    return out


EVERY_DOUBLE: Final = "every_double"
"""The key of the tile_set block that gives every other double-N set by one rule."""


def tile_set_values(block: Mapping[str, Any]) -> dict[str, Any]:
    """The tile_set values options.yaml gives: those `values` names, then, SET-1's for any
    N, `double-N` for each N of `every_double` (`from`, `to`) they do not name, with its
    `highest`, and the rule's source, decision and text ({n}, {tiles}, {pips} filled in).
    The catalogue and `highest_numbers` both read the sets through this one function."""
    values = dict(block.get("values") or {}) if isinstance(block, Mapping) else {}
    rule = block.get(EVERY_DOUBLE) if isinstance(block, Mapping) else None
    if rule is None:
        return values
    if not isinstance(rule, Mapping):
        raise TileSetError(f"tile_set: `{EVERY_DOUBLE}` must be a mapping (from, to, source, "
                           f"text), got {rule!r}")
    low, high = rule.get("from"), rule.get("to")
    if not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in (low, high)):
        raise TileSetError(f"tile_set: `{EVERY_DOUBLE}` needs `from` and `to`, numbers 0 or "
                           f"more (got from={low!r}, to={high!r})")
    assert isinstance(low, int) and isinstance(high, int)
    if low > high:
        raise TileSetError(f"tile_set: `{EVERY_DOUBLE}` runs from {low} to {high}: `from` "
                           "must not be past `to`")
    named = {body.get("highest") for body in values.values() if isinstance(body, Mapping)}
    text = str(rule.get("text", ""))
    for n in range(low, high + 1):
        if n in named or f"double-{n}" in values:
            continue
        body = {k: v for k, v in rule.items() if k not in ("from", "to", "text")}
        try:
            body["text"] = text.format(n=n, tiles=tile_count(n), pips=pip_total(n))
        except (KeyError, IndexError, ValueError) as e:
            raise TileSetError(f"tile_set: `{EVERY_DOUBLE}` text may name only {{n}}, "
                               f"{{tiles}} and {{pips}} ({e!r})") from None
        values[f"double-{n}"] = {**body, "highest": n}
    return values


def highest(tile_set: str) -> int:
    """The highest number of a tile set: SET-1's N of a double-N set."""
    try:
        return highest_numbers()[tile_set]
    except KeyError:
        raise TileSetError(f"unknown tile set {shown(tile_set)}; known: "
                           f"{', '.join(highest_numbers())}") from None


def _double(name: object) -> int | None:
    """N, when `name` reads as a double-N set (`double-11`, `Double 11`); else None."""
    match = re.fullmatch(r"\s*double-?\s*(\d+)\s*", str(name), re.IGNORECASE)
    return None if match is None else int(match[1])


def set_not_a_rule_set(name: object) -> str:
    """What to say of `name` where a variant or an overlay was looked for: a set the suite
    knows (double-11) is no rule set, and a rule-set file names it; else set_not_known."""
    n = _double(name)
    if n is None or f"double-{n}" not in highest_numbers():
        return set_not_known(name)
    return (f"; double-{n} is a tile set, not a rule set: a rule-set file names it (base: a "
            f"variant; options: tile_set: double-{n}, and hand_sizes: {{players: tiles}} "
            "where no published table is its own)")


def set_not_known(name: object) -> str:
    """What to say of `name` where a tile set, a variant or an overlay was looked for, when
    it names a double-N set the suite does not know (double-5, double-19): which sets it
    knows; "" for any other name."""
    n = _double(name)
    if n is None or f"double-{n}" in highest_numbers():
        return ""
    if n > largest():  # past the largest set the seed plays: not one to add
        return (f"; double-{n} is larger than any set the suite knows (the largest is "
                f"double-{largest()}; it knows {known_sets()})")
    if n < smallest():  # below the smallest set the seed plays
        return (f"; double-{n} is smaller than any set the suite knows (the smallest is "
                f"double-{smallest()}; it knows {known_sets()})")
    return f"; double-{n} is no set the suite knows (it knows {known_sets()})"


def known_sets() -> str:
    """The sets the suite knows, as a message says them: a run of every N at once."""
    tops = sorted(highest_numbers().values())
    if tops == list(range(tops[0], tops[-1] + 1)):
        return f"every double-N set from double-{tops[0]} to double-{tops[-1]}"
    return ", ".join(by_size())


def largest() -> int:
    """The highest number of the largest set any rule set may use."""
    return max(highest_numbers().values())


def smallest() -> int:
    """The highest number of the smallest set any rule set may use."""
    return min(highest_numbers().values())


def by_size() -> list[str]:
    """The tile_set values, smallest set first."""
    return sorted(highest_numbers(), key=lambda v: highest_numbers()[v])


# Derived quantities, by counting (SET-1: every pair of numbers 0..N once).

def numbers(top: int) -> list[int]:
    """The numbers a double-`top` set carries: 0 to `top`."""
    return list(range(top + 1))


def tile_count(top: int) -> int:
    """How many tiles a double-`top` set holds: one per unordered pair of its numbers."""
    return sum(1 for hi in numbers(top) for _ in range(hi + 1))


def pip_total(top: int) -> int:
    """The pips on every tile of a double-`top` set, added tile by tile."""
    return sum(hi + lo for hi in numbers(top) for lo in range(hi + 1))


def engines(top: int) -> list[int]:
    """ENG-1 / MATCH-1: the engine of each round, [top-top] first, down to [0-0]."""
    return sorted(numbers(top), reverse=True)


@functools.cache  # read for every state the codec reads
def rounds(top: int) -> int:
    """MATCH-1: a match plays one round per engine."""
    return len(engines(top))
