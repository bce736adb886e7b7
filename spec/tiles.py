"""Tiles and tile sets: the vocabulary every other module speaks.

A tile is a plain int id, so that hands can be bitmasks and lookups are list
indexing. Ids are assigned in a fixed order ([0-0], [1-0], [1-1], [2-0], ...), the
same for every set, so a double-N set is exactly the first (N+1)(N+2)/2 ids of any larger
set. The tables here are sized for the largest set of spec/data/options.yaml.
The text form is "high-low" ("12-5"), high end first; inside a train a tile is
written in the direction it was laid ("5-12" after a 5).
"""

from __future__ import annotations

import re
from typing import Final

from mtrain.spec.tilesets import largest

MAX_PIP: Final = largest()
"""The highest number of the largest set a rule set may use (spec/data/options.yaml)."""


def tile_id(a: int, b: int) -> int:
    """The id of the tile [a-b]; the order of the ends does not matter."""
    hi, lo = (a, b) if a >= b else (b, a)
    return hi * (hi + 1) // 2 + lo


def set_size(max_pip: int) -> int:
    """Number of tiles in a double-N set: (N+1)(N+2)/2."""
    return (max_pip + 1) * (max_pip + 2) // 2


TILE_COUNT: Final = set_size(MAX_PIP)
HIGH: Final[tuple[int, ...]] = tuple(hi for hi in range(MAX_PIP + 1) for _ in range(hi + 1))
LOW: Final[tuple[int, ...]] = tuple(lo for hi in range(MAX_PIP + 1) for lo in range(hi + 1))
PIPS: Final[tuple[int, ...]] = tuple(h + lo for h, lo in zip(HIGH, LOW, strict=True))
IS_DOUBLE: Final[tuple[bool, ...]] = tuple(h == lo for h, lo in zip(HIGH, LOW, strict=True))
BIT: Final[tuple[int, ...]] = tuple(1 << t for t in range(TILE_COUNT))
DOUBLE: Final[tuple[int, ...]] = tuple(tile_id(n, n) for n in range(MAX_PIP + 1))

# OTHER_END[t][n]: the far end of tile t when laid against number n, or -1.
OTHER_END: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(LOW[t] if HIGH[t] == n else HIGH[t] if LOW[t] == n else -1 for n in range(MAX_PIP + 1))
    for t in range(TILE_COUNT)
)
# NUMBER_MASK[n]: bitmask of every tile (of the largest set) that bears number n.
NUMBER_MASK: Final[tuple[int, ...]] = tuple(
    sum(BIT[t] for t in range(TILE_COUNT) if n in (HIGH[t], LOW[t])) for n in range(MAX_PIP + 1)
)


def set_mask(max_pip: int) -> int:
    """Bitmask of every tile of a double-N set."""
    return (1 << set_size(max_pip)) - 1


def tiles_of(mask: int) -> list[int]:
    """The tile ids in a bitmask, in increasing order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def name(t: int) -> str:
    """Canonical text of a tile, high end first: "12-5" (from NAMES, below: the deal
    search of situations names millions)."""
    return NAMES[t]


def oriented(t: int, near: int) -> str:
    """Text of a tile laid against `near`: near end first."""
    return f"{near}-{OTHER_END[t][near]}"


NAMES: Final[tuple[str, ...]] = tuple(f"{HIGH[t]}-{LOW[t]}" for t in range(TILE_COUNT))
"""NAMES[t] is name(t), built once."""
ORIENTED: Final[tuple[tuple[str, ...], ...]] = tuple(
    tuple(f"{n}-{OTHER_END[t][n]}" if OTHER_END[t][n] >= 0 else "" for n in range(MAX_PIP + 1))
    for t in range(TILE_COUNT))
"""ORIENTED[t][near] is oriented(t, near), or "" where t does not bear `near`."""


def descending(mask: int) -> list[int]:
    """The tile ids in a bitmask, highest first: the order of a hand (by high end, then low
    end, since ids grow with both)."""
    out = []
    while mask:
        top = mask.bit_length() - 1
        out.append(top)
        mask ^= 1 << top
    return out


class TileError(ValueError):
    """A tile text that does not name a tile."""


BY_TEXT: Final[dict[str, int]] = {
    f"{a}-{b}": tile_id(a, b) for a in range(MAX_PIP + 1) for b in range(MAX_PIP + 1)
}
"""Tile id by text, in either order ("5-12" and "12-5"), up to the largest set."""


_WRITTEN = re.compile(r"(0|[1-9][0-9]{0,5})-(0|[1-9][0-9]{0,5})", re.ASCII)


def parse(text: str, max_pip: int = MAX_PIP) -> int:
    """Tile id from "a-b" (either order); raises TileError naming the bad text."""
    t = BY_TEXT.get(text) if isinstance(text, str) else None
    if t is not None and HIGH[t] <= max_pip:
        return t
    # ASCII digits only, no spaces nor leading zeros (protocol.schema.json's pattern):
    # int() would read ' 3', '03' or an Arabic-Indic or full-width 3 as 3, and 5,000 digits
    # not at all
    written = _WRITTEN.fullmatch(text) if isinstance(text, str) else None
    if written is None:
        raise TileError(f"not a tile: {text!r} (expected 'a-b', for example '12-5')")
    a, b = int(written[1]), int(written[2])
    if a > max_pip or b > max_pip:
        raise TileError(f"tile {text!r} is not in a double-{max_pip} set")
    return tile_id(a, b)


def parse_oriented(text: str, max_pip: int = MAX_PIP) -> tuple[int, int, int]:
    """(tile id, near end, far end) from a tile written in a train, near end first."""
    t = parse(text, max_pip)
    a, b = (int(p) for p in text.split("-"))
    return t, a, b
