"""A resolved rule set: one value for every option, frozen."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

OTHER = "other"
"""An option an implementation plays in a way that matches none of the known values."""
CUSTOM = "custom"
"""The hand_sizes value of a rule set that brings a table of its own."""
MAX_PLAYERS = 20
"""The largest table a hand-size table may list (the player counts rules.schema.json
accepts); states and the engine's trains are sized for it."""


@dataclass(frozen=True)
class Ruleset(Mapping[str, str]):
    """One value for every option, plus the hand-size table its value names.

    `name` says how it was built: "pagat", "pagat+blanks-25", or a file's own name.
    """

    name: str
    choices: tuple[tuple[str, str], ...]
    hand_table: tuple[tuple[int, int], ...]
    overlays: tuple[str, ...] = ()
    _index: dict[str, str] = field(init=False, repr=False, compare=False, hash=False)
    _unknown: tuple[str, ...] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_index", dict(self.choices))
        object.__setattr__(self, "_unknown", tuple(o for o, v in self.choices if v == OTHER))

    def __getitem__(self, option: str) -> str:
        try:
            return self._index[option]
        except KeyError:
            raise KeyError(f"unknown option {option!r}; known: {', '.join(self._index)}") from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._index)

    def says(self, option: str, value: str) -> bool:
        """Whether `option` takes `value` (`rs[option] == value`): a reader that needs no
        more than that asks this, so that a traced rule set records the question, not the
        value (the scope check's memo of runs, conformance/runmemo.py)."""
        return self[option] == value

    def pool_says(self, option: str, value: str) -> bool:
        """`says`, for a read that only builds a deal's pool (spec/notation.py
        deal_order): where the deal goes ahead the engine reads the option again, and a
        setup refused first (DEAL-7) does not depend on it, so a traced rule set records
        it as deciding nothing."""
        return self.says(option, value)

    def __len__(self) -> int:
        return len(self._index)

    def hand_size(self, players: int) -> int:
        """DEAL-1: tiles per player; DEAL-7: a count the table lacks is refused."""
        table = dict(self.hand_table)
        if players not in table:
            counts = ", ".join(str(n) for n in table)
            raise ValueError(
                f"{self.name} has no hand size for {players} player{'s' * (players != 1)} "
                f"(it lists {counts}) [DEAL-7]"
            )
        return table[players]

    @property
    def player_counts(self) -> tuple[int, ...]:
        return tuple(n for n, _ in self.hand_table)

    def deals(self, players: int) -> bool:
        """DEAL-7: whether the table lists `players` (its row, not its size)."""
        return any(n == players for n, _ in self.hand_table)

    @property
    def unknown(self) -> tuple[str, ...]:
        """Options played in a way no known value describes (value `other`)."""
        return self._unknown

    @property
    def custom_table(self) -> bool:
        return self._index.get("hand_sizes") == CUSTOM

    def to_json(self) -> dict[str, object]:
        """Canonical JSON form, as the protocol and fixtures carry it."""
        return {"name": self.name, "options": dict(self.choices)}
