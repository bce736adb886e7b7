"""An engine with house rules, for trying the suite as an author would: the reference
engine, answering through the adapter interface, with two house rules and one planted bug,
all written down here before the suite was run on it.

House rules (declared in tests/examples/house-rules.yaml):
- a hand-size table of its own: 15 tiles each for 2 to 4 players, 12 for 5 and 6, 10 for
  7 and 8 (no published table has these rows);
- a tied match goes to the tied player in the lowest seat (declared `tie_rule: other`:
  the author does not look for the value that might describe it).

Planted bug (what the suite must find, charged to the legal actions):
- the legal actions never list a double played on the Mexican Train, though `apply`
  accepts one (the rules allow it: TRAIN-2).

`HouseDealer` has one more planted bug, in the deal under its own table:
- five players are dealt 15 tiles each, the 2-4 row, not the table's 12 (DEAL-1).

    mtrain fuzz --adapter tests/examples/house_engine.py:HouseEngine \\
        --rules tests/examples/house-rules.yaml
"""

from __future__ import annotations

from typing import Any

from mtrain.conformance.adapter import JSON, ReferenceImplementation
from mtrain.reference import codec
from mtrain.reference.deal import deal
from mtrain.reference.rules import Rules
from mtrain.spec import tiles as T


def is_double(tile: Any) -> bool:
    a, _, b = str(tile).partition("-")
    return a == b


HOUSE_TABLE = {"2": 15, "3": 15, "4": 15, "5": 12, "6": 12, "7": 10, "8": 10}


def own_table(ruleset: JSON, table: dict[str, int]) -> JSON:
    """The request's rule set with `table` in place of the one it names."""
    return {**ruleset, "options": {**ruleset["options"], "hand_sizes": "custom"},
            "hand_sizes": table}


class HouseEngine(ReferenceImplementation):
    """Deals its own table whatever table a request names (as an engine with one table
    built in does); everything else as the request's rule set says."""

    def info(self) -> JSON:
        return {**super().info(), "name": "house-engine"}

    def rules(self, ruleset: JSON) -> Rules:
        return super().rules(own_table(ruleset, HOUSE_TABLE))

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        actions = super().legal(ruleset, state)
        return [a for a in actions  # the planted bug
                if not (a.get("train") == "mexican" and is_double(a.get("tile")))]

    def winners(self, ruleset: JSON, state: JSON) -> list[int]:
        seats: list[int] = super().winners(ruleset, state)
        return sorted(seats)[:1]  # the house rule: the lowest seat of those tied


class HouseDealer(HouseEngine):
    def info(self) -> JSON:
        return {**super().info(), "name": "house-dealer"}

    def deal(self, ruleset: JSON, players: int, round: int, order: list[str],
             draw: list[list[str]] | None = None) -> JSON:
        if players != 5:
            dealt: JSON = super().deal(ruleset, players, round, order, draw)
            return dealt
        # the planted deal bug: the 2-4 row
        rules = ReferenceImplementation.rules(self, own_table(ruleset, {**HOUSE_TABLE, "5": 15}))
        ids = [T.parse(x, rules.max_pip) for x in order]
        return codec.state_to_json(deal(rules, players, round, order=ids))
