"""The numbers the rules publish, computed exactly.

Every computation here is exact arithmetic (ints, `fractions.Fraction`, `math.comb`) over
the tile vocabulary of `tiles`; nothing is simulated. Each function takes the set (its
largest number, `max_pip`), and where it matters the hand size and the round's engine, so
the same function answers the question for double-9 or for any round.

The published numbers themselves live in data/facts.yaml; `FACTS` maps each of their ids to
the computation that reproduces it and `check_facts` compares the two.

Engine convention: `engine` is the engine's number (12 for [12-12]); None means the set's
largest number, the first round's engine. `aside=True` means the engine is set aside before
dealing (puremco), so hands are dealt from the other tiles; `aside=False` deals from the
whole set. A *starter* is a tile that can start a train in that round: a tile bearing the
engine number other than the engine itself.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from importlib.resources import files
from math import comb
from typing import Final, NamedTuple

import yaml

from mtrain.spec.tiles import DOUBLE, MAX_PIP, NUMBER_MASK, PIPS, set_mask, tile_id, tiles_of
from mtrain.spec.tilesets import highest, numbers, rounds

Number = Fraction | int
"""What a fact computes: an exact count or an exact ratio."""

_PACKAGE: Final = __package__ or "mtrain.spec"


# --- validation -------------------------------------------------------------------------


def _check_set(max_pip: int) -> None:
    if not 0 <= max_pip <= MAX_PIP:
        raise ValueError(f"no double-{max_pip} set: max_pip must be 0..{MAX_PIP}")


def _engine(max_pip: int, engine: int | None) -> int:
    _check_set(max_pip)
    number = max_pip if engine is None else engine
    if not 0 <= number <= max_pip:
        raise ValueError(f"engine {number} is not a number of a double-{max_pip} set")
    return number


def _popcount(mask: int) -> int:
    return bin(mask).count("1")


# --- the set ----------------------------------------------------------------------------


def total_tiles(max_pip: int) -> int:
    """Number of tiles in a double-N set, counted tile by tile: 91 for double-12."""
    _check_set(max_pip)
    return len(tiles_of(set_mask(max_pip)))


def total_pips(max_pip: int) -> int:
    """Sum of the pips of every tile in a double-N set: 1,092 for double-12."""
    _check_set(max_pip)
    return sum(PIPS[t] for t in tiles_of(set_mask(max_pip)))


def mean_tile_pips(max_pip: int) -> Fraction:
    """Average pips per tile of a double-N set: exactly 12 for double-12 (N in general)."""
    return Fraction(total_pips(max_pip), total_tiles(max_pip))


def tiles_bearing(max_pip: int, number: int) -> int:
    """Number of tiles in a double-N set that show `number` on either end (a double counts once)."""
    _check_set(max_pip)
    if not 0 <= number <= max_pip:
        raise ValueError(f"{number} is not a number of a double-{max_pip} set")
    return _popcount(NUMBER_MASK[number] & set_mask(max_pip))


def tiles_per_number(max_pip: int) -> int:
    """How many tiles each number is on (13 for double-12); raises if the numbers differ."""
    counts = {tiles_bearing(max_pip, n) for n in range(max_pip + 1)}
    if len(counts) != 1:
        raise ValueError(f"numbers of a double-{max_pip} set are on different counts: {counts}")
    return counts.pop()


def pips(a: int, b: int) -> int:
    """Points the tile [a-b] costs when left in a hand: its pips."""
    if not (0 <= a <= MAX_PIP and 0 <= b <= MAX_PIP):
        raise ValueError(f"no tile [{a}-{b}] in a double-{MAX_PIP} set")
    return PIPS[tile_id(a, b)]


# --- the short game ---------------------------------------------------------------------


def tiles_above(max_pip: int, keep: int) -> int:
    """Bitmask of the tiles of a double-`max_pip` set bearing any number above `keep`."""
    _check_set(max_pip)
    mask = 0
    for n in range(keep + 1, max_pip + 1):
        mask |= NUMBER_MASK[n]
    return mask & set_mask(max_pip)


def short_set(max_pip: int, keep: int) -> int:
    """Bitmask of a double-`max_pip` set with every tile bearing a number above `keep` removed."""
    return set_mask(max_pip) & ~tiles_above(max_pip, keep)


def short_set_removed(max_pip: int, keep: int) -> int:
    """How many tiles the short game removes: 36 from double-12 keeping 0..9."""
    return _popcount(tiles_above(max_pip, keep))


def short_set_equals_double9() -> bool:
    """Double-12 minus every tile bearing 10, 11 or 12 is exactly the double-9 set (by id)."""
    d12, d9 = highest("double-12"), highest("double-9")
    return set(tiles_of(short_set(d12, d9))) == set(tiles_of(set_mask(d9)))


def short_set_size_if_double9() -> int:
    """55 (the tiles left) if the short set is exactly double-9; -1 if it is anything else."""
    d12, d9 = highest("double-12"), highest("double-9")
    return _popcount(short_set(d12, d9)) if short_set_equals_double9() else -1


# --- the deal ---------------------------------------------------------------------------


def pool_mask(max_pip: int, engine: int | None = None, aside: bool = True) -> int:
    """Bitmask of the tiles hands are dealt from: the set, less the engine if set aside."""
    number = _engine(max_pip, engine)
    full = set_mask(max_pip)
    return full & ~(1 << DOUBLE[number]) if aside else full


def pool_size(max_pip: int, engine: int | None = None, aside: bool = True) -> int:
    """Number of tiles dealt from: 90 for double-12 with the engine aside."""
    return _popcount(pool_mask(max_pip, engine, aside))


def pool_pips(max_pip: int, engine: int | None = None, aside: bool = True) -> int:
    """Pips on the tiles dealt from: 1,068 for double-12 with [12-12] aside."""
    return sum(PIPS[t] for t in tiles_of(pool_mask(max_pip, engine, aside)))


def starter_mask(max_pip: int, engine: int | None = None, aside: bool = True) -> int:
    """Bitmask of the round's starters in the pool: tiles bearing the engine number, bar it."""
    number = _engine(max_pip, engine)
    bearing = NUMBER_MASK[number] & ~(1 << DOUBLE[number])
    return bearing & pool_mask(max_pip, number, aside)


def starters(max_pip: int, engine: int | None = None, aside: bool = True) -> int:
    """Number of starters among the tiles dealt from: 12 for double-12, whatever the engine."""
    return _popcount(starter_mask(max_pip, engine, aside))


def starters_every_round(max_pip: int, aside: bool = True) -> int:
    """The starter count, checked to be the same for every engine (12 for double-12)."""
    counts = {starters(max_pip, n, aside) for n in range(max_pip + 1)}
    if len(counts) != 1:
        raise ValueError(f"rounds of a double-{max_pip} set offer different starters: {counts}")
    return counts.pop()


def _check_hand(max_pip: int, hand: int, engine: int | None, aside: bool) -> int:
    pool = pool_size(max_pip, engine, aside)
    if not 0 <= hand <= pool:
        raise ValueError(f"cannot deal a {hand}-tile hand from {pool} tiles")
    return pool


def expected_hand_pips(
    max_pip: int, hand: int, engine: int | None = None, aside: bool = True
) -> Fraction:
    """Average pips in a `hand`-tile hand dealt from the pool: hand * pool pips / pool size.

    Exactly 178 for 15 tiles of double-12 with the engine aside (15 * 1,068 / 90).
    """
    pool = _check_hand(max_pip, hand, engine, aside)
    return Fraction(hand * pool_pips(max_pip, engine, aside), pool)


def expected_starters(
    max_pip: int, hand: int, engine: int | None = None, aside: bool = True
) -> Fraction:
    """Average number of starters in a `hand`-tile hand: hand * starters / pool size (2 for 15)."""
    pool = _check_hand(max_pip, hand, engine, aside)
    return Fraction(hand * starters(max_pip, engine, aside), pool)


def no_starter_probability(
    max_pip: int, hand: int, engine: int | None = None, aside: bool = True
) -> Fraction:
    """Exact chance that a `hand`-tile hand holds no starter: C(pool - s, hand) / C(pool, hand).

    Every hand of that size is equally likely; pool is the tiles dealt from and s the
    starters among them. For double-12 with the engine aside: C(78, k) / C(90, k).
    """
    pool = _check_hand(max_pip, hand, engine, aside)
    s = starters(max_pip, engine, aside)
    return Fraction(comb(pool - s, hand), comb(pool, hand))


@dataclass(frozen=True)
class SetFacts:
    """The numbers of one double-N set, each computed by the functions above."""

    max_pip: int
    tiles: int
    pips: int
    mean_pips: Fraction
    numbers: int
    tiles_per_number: int
    rounds: int
    pool: int
    """Tiles dealt from in round 1 (the set, less the engine when it is set aside)."""
    starters: int
    """Tiles that can start a train in any round, among those dealt from."""


def set_facts(max_pip: int, aside: bool = True) -> SetFacts:
    """Every count of a double-`max_pip` set and of its deal (ENG-1, MATCH-1, SET-1)."""
    return SetFacts(
        max_pip=max_pip, tiles=total_tiles(max_pip), pips=total_pips(max_pip),
        mean_pips=mean_tile_pips(max_pip), numbers=len(numbers(max_pip)),
        tiles_per_number=tiles_per_number(max_pip), rounds=rounds(max_pip),
        pool=pool_size(max_pip, aside=aside), starters=starters_every_round(max_pip, aside))


class NoStarterRow(NamedTuple):
    """One line of the no-starter table."""

    hand: int
    probability: Fraction
    percent: float


def no_starter_table(
    max_pip: int, hand_sizes: Iterable[int], engine: int | None = None, aside: bool = True
) -> list[NoStarterRow]:
    """(hand size, exact probability, percent) for each hand size, in the order given.

    For double-9 with [9-9] aside this is the 9 starters among 54 tiles.
    """
    rows = []
    for hand in hand_sizes:
        p = no_starter_probability(max_pip, hand, engine, aside)
        rows.append(NoStarterRow(hand, p, float(100 * p)))
    return rows


# --- the published facts ----------------------------------------------------------------


def _percent(p: Fraction) -> Fraction:
    return 100 * p


D12: Final = highest("double-12")
D9: Final = highest("double-9")
"""The two sets the published facts speak of (their highest numbers, from the data)."""

FACTS: Final[dict[str, Callable[[], Number]]] = {
    "FACT-TILES-D12": lambda: total_tiles(D12),
    "FACT-PIPS-D12": lambda: total_pips(D12),
    "FACT-MEAN-PIPS-D12": lambda: mean_tile_pips(D12),
    "FACT-TILES-PER-NUMBER-D12": lambda: tiles_per_number(D12),
    "FACT-PIPS-12-12": lambda: pips(12, 12),
    "FACT-PIPS-12-11": lambda: pips(12, 11),
    "FACT-PIPS-2-1": lambda: pips(2, 1),
    "FACT-TILES-D9": lambda: total_tiles(D9),
    "FACT-SHORT-SET-REMOVED": lambda: short_set_removed(D12, D9),
    "FACT-SHORT-SET-IS-D9": short_set_size_if_double9,
    "FACT-POOL-D12": lambda: pool_size(D12),
    "FACT-POOL-PIPS-D12": lambda: pool_pips(D12),
    "FACT-HAND-PIPS-15": lambda: expected_hand_pips(D12, 15),
    "FACT-HAND-STARTERS-15": lambda: expected_starters(D12, 15),
    "FACT-STARTERS-D12": lambda: starters_every_round(D12),
    "FACT-NO-STARTER-08": lambda: _percent(no_starter_probability(D12, 8)),
    "FACT-NO-STARTER-10": lambda: _percent(no_starter_probability(D12, 10)),
    "FACT-NO-STARTER-12": lambda: _percent(no_starter_probability(D12, 12)),
    "FACT-NO-STARTER-15": lambda: _percent(no_starter_probability(D12, 15)),
    "FACT-NO-STARTER-16": lambda: _percent(no_starter_probability(D12, 16)),
}
"""Each facts.yaml id -> the computation that reproduces it, in the fact's unit."""


@dataclass(frozen=True)
class Fact:
    """One published number (a record of data/facts.yaml)."""

    id: str
    text: str
    expected: int | float
    tolerance: int | float
    unit: str
    source: str

    @property
    def exact_expected(self) -> Fraction:
        """The published number as an exact decimal (30.2 -> 151/5)."""
        return Fraction(str(self.expected))

    @property
    def exact_tolerance(self) -> Fraction:
        return Fraction(str(self.tolerance))

    def accepts(self, value: Number) -> bool:
        """Whether an exact value rounds to the published number (within the tolerance)."""
        return abs(Fraction(value) - self.exact_expected) <= self.exact_tolerance


UNITS: Final = frozenset({"tiles", "pips", "percent"})


def _number(raw: object, where: str) -> int | float:
    if isinstance(raw, bool) or not isinstance(raw, int | float):
        raise ValueError(f"{where} must be a number, not {raw!r}")
    return raw


def _text(raw: object, where: str) -> str:
    if not isinstance(raw, str) or not raw.strip():
        raise ValueError(f"{where} must be a non-empty string, not {raw!r}")
    return raw


def parse_facts(data: object) -> list[Fact]:
    """Typed records from the loaded YAML; raises ValueError naming the bad entry."""
    if not isinstance(data, list):
        raise ValueError("facts.yaml must be a list of entries")
    out: list[Fact] = []
    seen: set[str] = set()
    for i, entry in enumerate(data):
        if not isinstance(entry, dict):
            raise ValueError(f"facts.yaml entry {i} is not a mapping")
        fields = {"id", "text", "expected", "tolerance", "unit", "source"}
        if set(entry) != fields:
            raise ValueError(
                f"facts.yaml entry {i} has keys {sorted(entry)}, want {sorted(fields)}"
            )
        fid = _text(entry["id"], f"entry {i} id")
        if fid in seen:
            raise ValueError(f"facts.yaml: duplicate id {fid}")
        seen.add(fid)
        tolerance = _number(entry["tolerance"], f"{fid} tolerance")
        if tolerance < 0:
            raise ValueError(f"{fid} tolerance must not be negative")
        unit = _text(entry["unit"], f"{fid} unit")
        if unit not in UNITS:
            raise ValueError(f"{fid} unit {unit!r} is not one of {sorted(UNITS)}")
        out.append(
            Fact(
                id=fid,
                text=_text(entry["text"], f"{fid} text"),
                expected=_number(entry["expected"], f"{fid} expected"),
                tolerance=tolerance,
                unit=unit,
                source=_text(entry["source"], f"{fid} source"),
            )
        )
    return out


def load_facts() -> list[Fact]:
    """The published facts, from the package's data/facts.yaml."""
    text = (files(_PACKAGE) / "data" / "facts.yaml").read_text(encoding="utf-8")
    return parse_facts(yaml.safe_load(text))


def check_facts(facts: Sequence[Fact] | None = None) -> list[tuple[str, int | float, Number, bool]]:
    """(id, published, computed, ok) for each fact (default: all of facts.yaml).

    ok means the exact computed value is within the fact's tolerance of the published one.
    Raises KeyError for a fact with no computation in FACTS.
    """
    out = []
    for fact in load_facts() if facts is None else facts:
        if fact.id not in FACTS:
            raise KeyError(f"no computation for fact {fact.id}")
        value = FACTS[fact.id]()
        out.append((fact.id, fact.expected, value, fact.accepts(value)))
    return out
