"""Session 46's scenarios: what the scope check does with a fixture whose outcome reads
too many options to partition the whole option space (a full state after a `next-round`
deal reads nearly every option). It is checked where its author wrote it, each entry's
written scope explored alone, instead of being refused as an error."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest

from mtrain.conformance.fixture import load_file
from mtrain.conformance.lint import scopes
from mtrain.conformance.partition import Partition, explore
from mtrain.spec.scope import Space

# s46-dbl-003's table, hand-worked there: oldest first covers [4-4] alone (DBL-7), any
# open double takes either (DBL-8); a double of an earlier turn closes the own train.
FIXTURE = """\
- id: s46t-001
  description: "Two open doubles from one turn: oldest first covers [4-4] alone"
  clauses: [DBL-6, DBL-7, DBL-8]
  source: [pagat, computation]
  table:
    engine: 12
    seat: 2
    hands: {{0: [rest], 1: [rest], 2: [6-2, 4-1, 5-3]}}
    trains: {{0: [12-10], 1: [12-4, 4-4], 2: [12-5], mexican: [12-6, 6-6]}}
    marked: [1]
    open_doubles: [1, mexican]
  expect:
    - variants: [pagat]
      legal: [{oldest}]
    - variants: [pagat+any-double-first]
      legal: [play 4-1 on 1, play 6-2 on mexican]
"""


def _small_limit(monkeypatch: pytest.MonkeyPatch, limit: int) -> None:
    """The whole space's partition given `limit` regions at most (the fixture above has
    more); the written scopes' partitions keep the real limit."""
    def explore_small(fx: Any, space: Space, *args: Any, **kwargs: Any) -> Partition:
        if kwargs.get("start") is None:
            kwargs["limit"] = limit
        return explore(fx, space, *args, **kwargs)
    monkeypatch.setattr(scopes, "explore", explore_small)


def _write(tmp_path: Path, oldest: str) -> Path:
    path = tmp_path / "fx.yaml"
    path.write_text(textwrap.dedent(FIXTURE.format(oldest=oldest)))
    return path


def test_too_many_regions_checks_the_written_scopes_instead_of_an_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _small_limit(monkeypatch, 3)
    (fx,) = load_file(_write(tmp_path, "play 4-1 on 1"))
    found = scopes.scope_fixture(fx, Space())
    assert found.problems == ()
    assert found.runs >= 2  # at least one run in each entry's written scope
    assert found.proposals == ()  # nothing wider is claimed without the whole space


def test_too_many_regions_still_finds_a_wrong_expectation(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _small_limit(monkeypatch, 3)
    (fx,) = load_file(_write(tmp_path, "play 4-1 on 1, play 6-2 on mexican"))
    found = scopes.scope_fixture(fx, Space())
    assert [k for k, _ in found.problems] == [0]
    assert "does not hold where" in found.problems[0][1]
    assert "play 6-2 on mexican" in found.problems[0][1]


ORDINARY = """\
- id: s46t-002
  description: "Ordinary doubles: a train ending in [4-4] with no open_doubles written"
  clauses: [DBL-11, TRAIN-4]
  source: [engine, computation]
  table:
    engine: 12
    seat: 1
    hands: {0: [rest], 1: [1-4, 9-3], 2: [rest]}
    trains: {0: [12-4, 4-4], 1: [12-9], 2: [12-3], mexican: [12-6]}
    marked: [0]
  expect:
    - variants: [pagat+ordinary-doubles]
      legal: [play 4-1 on 0, play 9-3 on 1]
"""


def test_a_table_for_ordinary_doubles_leaving_open_doubles_out_is_told_what_to_write(
        tmp_path: Path) -> None:
    # the default of open_doubles (every train ending in a double) names [4-4] open,
    # which DBL-11 never has: the author wrote no open double, so the error says the
    # default did and what to write (a default read from the doubles rule was tried at
    # the merge and undone: identify sends one table per fixture, whatever the rule set)
    from mtrain.conformance.lint import lint
    path = tmp_path / "fx.yaml"
    path.write_text(ORDINARY)
    errors = lint(path, scopes=False).errors
    assert any("INV-OPEN-DOUBLES" in e and "write `open_doubles: []`" in e
               for e in errors), errors
    path.write_text(ORDINARY.replace("    marked: [0]\n",
                                     "    marked: [0]\n    open_doubles: []\n"))
    assert lint(path, scopes=False).errors == []
