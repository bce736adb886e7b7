"""The scope check's partition where a run reads the hand table row by row (DEAL-7's
check of the seats, the deal's hand size): the tables that answer those rows alike stay
in one region, so a rule-set file's table of its own grows the exploration only where it
can change an outcome (conformance/partition.py, `_alike_tables`)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from mtrain.conformance.fixture import Fixture, load_file
from mtrain.conformance.partition import _alike_tables, explore
from mtrain.conformance.traced import Log, TracedRuleset, traced_run
from mtrain.spec.catalog import Catalog, catalog
from mtrain.spec.data_folder import data_dir
from mtrain.spec.ruleset import CUSTOM
from mtrain.spec.scope import Space, example_value

# Five seats: every table is asked whether it lists 5 (DEAL-7, `_check_players`); the one
# to move lays on its own train ([9-5] ends in 5), as in tests/test_scopes.py.
FIVE_SEATS = """\
- id: rows-001
  description: "Five seats; two tiles fit the own train"
  clauses: [TRAIN-4, DEAL-7]
  source: [pagat]
  table:
    engine: 9
    seat: 0
    hands:
      0: [5-5, 5-1]
      1: [0-1]
      2: [0-2]
      3: [0-3]
      4: [0-4]
    trains:
      0: [9-5]
  expect:
    - variants: [pagat]
      legal: [play 5-5 on 0, play 5-1 on 0]
"""

# A five-seat deal: the run reads the hand size for 5 (DEAL-1), which the tables differ
# on; pagat's table deals 5 players 12 tiles each (spec/data/options.yaml).
DEAL = """\
- id: rows-002
  description: "A five-seat deal"
  clauses: [DEAL-1, DEAL-2]
  source: [pagat]
  deal: {players: 5, order: sorted}
  expect:
    - variants: [pagat]
      state:
        hand_sizes: [12, 12, 12, 12, 12]
"""


def _fixture(tmp_path: Path, text: str) -> Fixture:
    path = tmp_path / "rows.yaml"
    path.write_text(text, encoding="utf-8")
    (fx,) = load_file(path)
    return fx


@pytest.mark.parametrize("text", [FIVE_SEATS, DEAL], ids=["seats", "deal"])
def test_every_table_of_a_region_plays_as_its_run(tmp_path: Path, text: str) -> None:
    """The claim the grouping rests on: each hand_sizes value of a region whose run read
    the table row by row plays the fixture as the run did (outcomes and messages), each
    played afresh at the run's other values."""
    fx = _fixture(tmp_path, text)
    space = Space()
    part = explore(fx, space)
    grouped = [c for c in part.cells
               if "hand_sizes" in c.run.read and len(c.region["hand_sizes"]) > 1]
    assert grouped, "no region holds two tables: the grouping was not exercised"
    checked = 0
    for cell in grouped[:12]:
        assert cell.run.table_read is not None
        assert CUSTOM not in cell.region["hand_sizes"]  # any table: never with others
        for value in sorted(cell.region["hand_sizes"]):
            point = space.complete({**cell.region, "hand_sizes": frozenset([value])},
                                   cell.run.values)
            if point is None:
                continue
            run = traced_run(fx, space.ruleset(point))
            assert (run.outcomes, run.messages) == (cell.run.outcomes, cell.run.messages), \
                (value, cell.run.values["hand_sizes"])
            checked += 1
    assert checked > len(grouped[:12])  # more than the runs' own values


def test_the_deal_keeps_apart_the_tables_that_deal_five_otherwise(tmp_path: Path) -> None:
    """Tables dealing 5 players different hands are in different regions; those dealing
    the same hand share one (pagat and a rule-set file's table that deal 5 alike)."""
    fx = _fixture(tmp_path, DEAL)
    space = Space()
    part = explore(fx, space)
    sizes: dict[str, set[int | None]] = {}
    for cell in part.cells:
        if "hand_sizes" not in cell.run.read:
            continue
        table = space.table_of(cell.run.values["hand_sizes"])
        for v in cell.region["hand_sizes"]:
            sizes.setdefault(v, set()).add(None if table is None else table.get(5))
    for v, seen in sizes.items():
        own = space.table_of(v)
        if own is not None:
            assert seen == {own.get(5)}, v  # a region's tables deal 5 as its run's did
    assert sizes[CUSTOM] == {None}  # played with the probe table: alone


def test_a_file_whose_table_answers_alike_adds_no_region(tmp_path: Path) -> None:
    """The cost the five double-7 to double-17 files brought: with them, each a value of
    hand_sizes, a fixture whose runs ask only whether 5 seats are dealt explores no more
    regions than without them (each lists 5 as some earlier table does), where one region
    per table had made it 1.7 times as many."""
    fx = _fixture(tmp_path, FIVE_SEATS)
    data = tmp_path / "data"
    shutil.copytree(data_dir(), data)
    names = ("double-7", "double-11", "double-13", "double-14", "double-17")
    for name in names:
        (data / "rulesets" / f"{name}.yaml").unlink()
    fewer = Space(Catalog(data))
    every = Space(catalog())
    assert set(every.options["hand_sizes"]) - set(fewer.options["hand_sizes"]) == {
        example_value(n) for n in names}
    assert explore(fx, every).runs == explore(fx, fewer).runs


def test_alike_tables_splits_by_the_rows_read() -> None:
    space = Space()
    pagat = catalog().ruleset("pagat")
    table = dict(pagat.hand_table)
    every = frozenset(space.options["hand_sizes"])
    # the hand size for 4 read: the tables giving pagat's size there, custom apart
    same, rest = _alike_tables(space, every, "pagat", pagat, (frozenset({4}), frozenset(),
                                                              False))
    assert "pagat" in same and CUSTOM in rest and same | rest == every and not same & rest
    for v in every - {CUSTOM}:
        other = space.table_of(v)
        assert other is not None
        assert (v in same) == (other.get(4) == table[4]), v
    # only whether 2 seats are dealt: every table lists 2
    same, rest = _alike_tables(space, every, "pagat", pagat, (frozenset(), frozenset({2}),
                                                              False))
    assert rest == {CUSTOM}
    # the list of counts read: only the tables listing pagat's counts
    same, _ = _alike_tables(space, every, "pagat", pagat, (frozenset(), frozenset(), True))
    assert all(set(space.table_of(v) or ()) == set(table) for v in same)
    # a value whose table is not the one played is kept alone
    same, rest = _alike_tables(space, every, "celko-d6", pagat, (frozenset({4}), frozenset(),
                                                                 False))
    assert same == {"celko-d6"} and rest == every - {"celko-d6"}


def test_a_table_read_whole_leaves_no_rows_to_group_by() -> None:
    """Reading hand_sizes by its value (or every option) may depend on every row: such a
    run's table_read is None, and its region keeps one table."""
    rs = catalog().ruleset("pagat")
    log = Log()
    traced = TracedRuleset.wrap(rs, log)
    assert log.table_read() is None  # nothing read
    traced.hand_size(3)
    traced.deals(7)
    assert log.table_read() == (frozenset({3}), frozenset({7}), False)
    traced.player_counts  # noqa: B018 (a property read for its log)
    assert log.table_read() == (frozenset({3}), frozenset({7}), True)
    traced["hand_sizes"]
    assert log.table_read() is None
    log = Log()
    TracedRuleset.wrap(rs, log).says("hand_sizes", "pagat")
    assert log.table_read() is None
    log = Log()
    list(TracedRuleset.wrap(rs, log))
    assert log.table_read() is None


def test_a_whole_read_is_copied_with_the_log() -> None:
    made = Log()
    made.add(("hand_sizes",))
    log = Log()
    log.copy_from(made)
    assert log.whole_table and log.table_read() is None



@pytest.mark.slow
def test_the_largest_partition_stays_under_the_limit() -> None:
    """generated-tie-rule-003's winners read the tile set, the scoring, the blank values
    and the tie rule, its deals the hand table row by row: one region per table had made
    it 106,333 regions with the ten rule-set files, past REGION_LIMIT, so lint checked it
    only where written and `situations --shipped` and identify refused it."""
    from mtrain.conformance.fixture import load_corpus
    from mtrain.conformance.partition import REGION_LIMIT

    (fx,) = [f for f in load_corpus()[0] if f.id == "generated-tie-rule-003"]
    part = explore(fx, Space())
    assert part.runs < REGION_LIMIT // 2
    assert any(len(c.region["hand_sizes"]) > 1 and "hand_sizes" in c.run.read
               for c in part.cells)
