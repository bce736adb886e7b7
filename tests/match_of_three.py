"""A match of three rounds of one's own, as the house tests play it (test_house57.py,
test_house57b.py, test_house58b.py): the rule-set file, the reference in process with
such a match, and a conform run's JSON report on it with its failures."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mtrain.cli import main
from mtrain.conformance.adapter import JSON, ReferenceImplementation, RefusedSetup

THREE_ROUNDS = """name: three-rounds
base: pagat
options:
  tile_set: double-6
  hand_sizes: {2: 7, 3: 6, 4: 5}
  first_turn: single
  match_length: other
"""
"""pagat on a double-6 set whose match is of its own length (`other`)."""


class MatchOfThree(ReferenceImplementation):
    """The reference, with a match of three rounds, [6-6] to [4-4]: it refuses the deal
    of round 4 (MATCH-1). Who wins it is each subclass's."""

    LAST = 3

    def deal(self, ruleset: JSON, players: int, round: int, order: list[str],
             draw: list[list[str]] | None = None) -> JSON:
        if round > self.LAST:
            raise RefusedSetup(f"a match of {self.LAST} rounds has no round {round}", "MATCH-1")
        return super().deal(ruleset, players, round, order, draw)


def conform_report(adapter: str, rules: Path, select: str, out: Path) -> dict[str, Any]:
    """`mtrain conform` of `adapter` under the rule-set file `rules` on the fixtures
    `select` (-k), its JSON report written to `out` and read back."""
    main(["conform", "--adapter", adapter, "--rules", str(rules), "-k", select,
          "--format", "json", "--output", str(out)])
    report: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return report


def failures(report: dict[str, Any]) -> list[tuple[str, str, list[str]]]:
    """Each result of a conform report that is neither a pass nor not applicable: its
    fixture, its messages and the clauses it is charged to."""
    return [(r["fixture"], "\n".join(r["messages"] or [r["message"]]), r["charged"])
            for r in report["results"] if r["status"] not in ("pass", "not-applicable")]
