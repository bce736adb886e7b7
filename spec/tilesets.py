"""Tile sets as data: each `tile_set` value of spec/data/options.yaml gives its highest
number (`highest`), and everything else about the set is computed from that one number.

This module sits below `tiles` (which sizes its tables for the largest set) and below
the catalogue, so it reads the tile_set block of options.yaml itself, with plain
`yaml.safe_load`; the catalogue loads the same file with line numbers and checks it.
"""

from __future__ import annotations

import functools
import re
from typing import Final

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
    values = yaml.load(text, Loader=loader)["tile_set"]["values"]
    out: dict[str, int] = {}
    for name, body in values.items():
        top = body.get("highest") if isinstance(body, dict) else None
        if not isinstance(top, int) or isinstance(top, bool) or top < 0:
            raise TileSetError(f"spec/data/options.yaml: tile_set={name} needs `highest`, "
                               f"a number 0 or more (got {top!r})")
        out[str(name)] = top
    return out


def highest(tile_set: str) -> int:
    """The highest number of a tile set: SET-1's N of a double-N set."""
    try:
        return highest_numbers()[tile_set]
    except KeyError:
        raise TileSetError(f"unknown tile set {shown(tile_set)}; known: "
                           f"{', '.join(highest_numbers())}") from None


def set_not_known(name: object) -> str:
    """What to say of `name` where a tile set, a variant or an overlay was looked for, when
    it names a double-N set the suite does not know (double-11, double-13): which sets it
    knows and what the author can do; "" for any other name."""
    match = re.fullmatch(r"\s*double-?\s*(\d+)\s*", str(name), re.IGNORECASE)
    if match is None or f"double-{int(match[1])}" in highest_numbers():
        return ""
    if int(match[1]) > largest():  # past the largest set the seed plays: not one to add
        return (f"; double-{int(match[1])} is larger than any set the suite knows (the "
                f"largest is double-{largest()}; it knows {', '.join(by_size())})")
    return (f"; double-{int(match[1])} is no set the suite knows (it knows "
            f"{', '.join(by_size())}): an engine that can be set to one of those is checked "
            "run so, under that set's rules; else the set is the suite's to add, a "
            "`tile_set` value of spec/data/options.yaml with its highest number (no "
            "rule-set file can add a set)")


def largest() -> int:
    """The highest number of the largest set any rule set may use."""
    return max(highest_numbers().values())


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
