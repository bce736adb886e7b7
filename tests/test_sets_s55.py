"""Every double-N set from double-6 to double-18 (SET-1): the five no source or box of
its own names, double-7, -11, -13, -14 and -17, are sets the suite knows (SET-1 their
meaning, DEAL-11 their deal), given by one rule of options.yaml (`every_double`), not a
value each. A rule-set file on one
plays and conforms with a table of its own (DEAL-11); one without a table, or on a set
past double-6 to double-18, is refused with a clear error.

Expected numbers are counted here, tile by tile, from SET-1's definition (every pair of
numbers 0..N once), and the engines and rounds from ENG-1 and MATCH-1 (round r's engine is
[N+1-r, N+1-r], one round per engine), never from the code under test.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mtrain.cli import main
from mtrain.reference.deal import deal
from mtrain.reference.engine import engine_number
from mtrain.reference.rules import Rules
from mtrain.reference.simulate import simulate
from mtrain.spec import facts
from mtrain.spec.catalog import catalog
from mtrain.spec.tilesets import TileSetError, highest_numbers, tile_set_values
from mtrain.spec.yamlload import SpecError

NEW = (7, 11, 13, 14, 17)
"""The sets between the published ones that options.yaml's one rule gives."""
TABLE = {2: 12, 3: 10, 4: 8, 5: 7, 6: 6}
"""A table of one's own dealable from each of them: 6 x 6 = 36 > 35, the double-7 pool
with its engine aside, so at most 5 players there (DEAL-8); it is cut to fit below."""


def _rules_file(tmp_path: Path, n: int, table: dict[int, int] | None) -> Path:
    path = tmp_path / f"double-{n}.yaml"
    rows = "" if table is None else "  hand_sizes: {" + ", ".join(
        f"{k}: {v}" for k, v in table.items()) + "}\n"
    path.write_text(f"name: double-{n}-own\ntitle: Puremco's rules on double-{n}\n"
                    f"source: [puremco, decision]\nbase: puremco\noptions:\n"
                    f"  tile_set: double-{n}\n{rows}", encoding="utf-8")
    return path


def _fitting(n: int) -> dict[int, int]:
    """TABLE's rows that a double-n set deals, its engine aside (counted here)."""
    pool = (n + 1) * (n + 2) // 2 - 1
    return {k: v for k, v in TABLE.items() if k * v <= pool}


def test_every_double_n_from_6_to_18_is_a_set_the_suite_knows() -> None:
    assert highest_numbers() == {f"double-{n}": n for n in range(6, 19)}
    values = catalog().options["tile_set"].values
    assert set(values) == set(highest_numbers())
    for n in NEW:  # the rule's source and decision; its text with the count filled in
        assert values[f"double-{n}"].source == ("decision",)
        assert "SET-1" in (values[f"double-{n}"].decision or "")
        pairs = sum(1 for hi in range(n + 1) for _ in range(hi + 1))
        assert f"Double-{n} set, {pairs} tiles, numbers 0 to {n};" in values[f"double-{n}"].text
    # no clause of their own: SET-1 says what a double-N set is, DEAL-11 how it is dealt
    assert {f"double-{n}" for n in NEW} <= catalog().clauses["DEAL-11"].when["tile_set"]


@pytest.mark.parametrize("n", NEW)
def test_each_new_set_deals_and_plays_every_round_of_a_match(tmp_path: Path, n: int) -> None:
    pairs = [(hi, lo) for hi in range(n + 1) for lo in range(hi + 1)]
    rules = Rules.of(catalog().rules_file(_rules_file(tmp_path, n, _fitting(n))))
    assert rules.max_pip == n and rules.rounds == n + 1  # MATCH-1: one round per engine
    assert [engine_number(rules, r) for r in range(1, n + 2)] == list(range(n, -1, -1))
    f = facts.set_facts(n, aside=True)
    assert (f.tiles, f.pips, f.pool) == (len(pairs), sum(a + b for a, b in pairs),
                                         len(pairs) - 1)
    players = max(_fitting(n))
    for round_no in (1, n + 1):  # [N-N] and [0-0]: every tile is somewhere
        st = deal(rules, players, round_no, seed=round_no)
        held = sum(h.bit_count() for h in st.hands) + len(st.boneyard) + st.engine_placed
        assert held == len(pairs)
        assert [h.bit_count() for h in st.hands] == [_fitting(n)[players]] * players
    report = simulate(rules, players, n + 1, seed=n)  # rounds 1 to N+1, each its engine
    assert report.rounds == n + 1 and report.invariant_violations == 0, report.first_violations
    assert sum(report.endings.values()) == n + 1


@pytest.mark.slow  # the corpus under one rule set, in process: about 2.5 CPU s
def test_a_double_11_file_with_its_own_table_conforms(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The reference against itself, in process, under a double-11 file: the corpus
    (its situations from play left out: the fixtures alone) runs and passes."""
    path = _rules_file(tmp_path, 11, {2: 15, 3: 13, 4: 12, 5: 10, 6: 9, 7: 8, 8: 7})
    out = tmp_path / "report.json"
    assert main(["conform", "--rules", str(path), "--situations", "0", "--format", "json",
                 "--output", str(out)]) == 0, capsys.readouterr().err
    report = json.loads(out.read_text(encoding="utf-8"))
    statuses = [r["status"] for r in report["results"]]
    # (340 of the corpus's fixtures speak about it: those whose tiles a double-11 set has;
    # 78 before the scopes named the new sets, the fixtures that never read the set)
    assert statuses.count("pass") > 300 and "fail" not in statuses and "error" not in statuses
    assert {r["variant"] for r in report["results"]} == {"double-11-own"}


D11_FIXTURES = """\
# Worked out by counting: a double-11 set has 12 x 13 / 2 = 78 tiles (SET-1), 77 once
# round 1's engine [11-11] is set aside (ENG-2). Sorted, the pool is dealt from its front,
# seat by seat: the tiles whose high end is at most h number (h+1)(h+2)/2, 36 up to [7-7].
- id: d11-001
  description: Sorted deal, 4 players, on a double-11 file, 12 tiles each from 77
  rules: rulesets/d11own.yaml
  clauses: [SET-1, DEAL-1, DEAL-11, ENG-1, ENG-2]
  source: [decision, computation]
  note: >-
    4 x 12 = 48 dealt, 77 - 48 = 29 in the boneyard; seat 3 takes tiles 37 to 48, [8-0]
    to [8-8] (the 9 after the 36 up to [7-7]) and [9-0] to [9-2].
  deal: {players: 4, order: sorted}
  expect:
    - variants: [d11own]
      state:
        hand_sizes: [12, 12, 12, 12]
        boneyard_size: 29
        hands:
          3: [8-0, 8-1, 8-2, 8-3, 8-4, 8-5, 8-6, 8-7, 8-8, 9-0, 9-1, 9-2]
        engine_placed: true
        engine: 11
- id: d11-002
  description: A double-11 round ends with [11-10] and [10-9] in hand, 21 + 19 = 40 pips
  rules: rulesets/d11own.yaml
  clauses: [SET-1, SCORE-1, SCORE-5, END-1]
  source: [decision, computation]
  note: Seat 0 lays its last tile and goes out; seat 1 counts 11 + 10 + 10 + 9 = 40.
  table:
    engine: 11
    hands:
      0: [11-3]
      1: [11-10, 10-9]
    trains:
      1: [11-2]
  steps: [play 11-3 on 0]
  expect:
    - variants: [d11own]
      result: {end: domino, winner: 0, scores: [0, 40]}
"""


def test_hand_worked_double_11_fixtures_pass_on_the_reference(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Two fixtures worked out by hand (a deal, a round's end) under a double-11 file of
    their own (`rules:`): the reference plays both as counted."""
    (tmp_path / "rulesets").mkdir()
    (tmp_path / "rulesets" / "d11own.yaml").write_text(
        _rules_file(tmp_path, 11, {2: 15, 3: 13, 4: 12}).read_text(encoding="utf-8")
        .replace("double-11-own", "d11own"), encoding="utf-8")
    (tmp_path / "double-11.yaml").unlink()
    (tmp_path / "d11.yaml").write_text(D11_FIXTURES, encoding="utf-8")
    out = tmp_path / "report.json"
    assert main(["conform", "--fixtures", str(tmp_path / "d11.yaml"), "--format", "json",
                 "--output", str(out)]) == 0, capsys.readouterr()
    results = json.loads(out.read_text(encoding="utf-8"))["results"]
    assert {(r["fixture"], r["variant"], r["status"]) for r in results} == {
        ("d11-001", "d11own", "pass"), ("d11-002", "d11own", "pass")}


def test_a_double_13_file_without_a_table_gets_deal_11s_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _rules_file(tmp_path, 13, None)
    with pytest.raises(SpecError) as e:
        catalog().rules_file(path)
    message = str(e.value)
    assert message.startswith(f"{path}:6:"), message
    for words in ("DEAL-11", "double-13", "hand-size table of its own",
                  "hand_sizes: {players: tiles"):
        assert words in message, message
    assert main(["conform", "--rules", str(path)]) == 2
    err = capsys.readouterr().err
    assert "DEAL-11" in err and "Traceback" not in err


@pytest.mark.parametrize("n, words", [
    (5, "double-5 is smaller than any set the suite knows (the smallest is double-6"),
    (19, "double-19 is larger than any set the suite knows (the largest is double-18"),
])
def test_a_set_outside_6_to_18_is_refused_by_name(tmp_path: Path, n: int, words: str) -> None:
    with pytest.raises(SpecError) as e:
        catalog().rules_file(_rules_file(tmp_path, n, {2: 5}))
    assert f"unknown value 'double-{n}' for tile_set" in str(e.value)
    assert words in str(e.value)


@pytest.mark.parametrize("rule, words", [
    ({"from": 9, "to": 8}, "runs from 9 to 8"),
    ({"from": "six", "to": 18}, "needs `from` and `to`, numbers 0 or more"),
    ({"from": 6, "to": 7, "text": "Double-{m}"}, "may name only {n}, {tiles} and {pips}"),
    ([6, 18], "must be a mapping"),
])
def test_a_malformed_every_double_rule_is_said(rule: object, words: str) -> None:
    with pytest.raises(TileSetError, match="every_double") as e:
        tile_set_values({"values": {}, "every_double": rule})
    assert words in str(e.value)


def test_the_rule_adds_only_the_sets_no_value_names() -> None:
    block = {"values": {"double-8": {"highest": 8, "source": ["common"]}},
             "every_double": {"from": 7, "to": 9, "source": ["decision"],
                              "text": "{n}: {tiles} tiles, {pips} pips"}}
    got = tile_set_values(block)
    assert list(got) == ["double-8", "double-7", "double-9"]
    assert got["double-9"] == {"source": ["decision"], "highest": 9,
                               "text": "9: 55 tiles, 495 pips"}  # 10 x 11 / 2; 9 x 10 x 11 / 2


def test_a_partition_started_in_a_product_region_explores_that_region() -> None:
    """lint explores a fixture whose outcome reads past REGION_LIMIT (the tie-rule
    fixtures, once 13 sets each had a last round of their own) product by product of its
    written scopes; a product names only some options, and the exploration failed
    (KeyError: 'tile_set') on the first option it left unnamed."""
    from mtrain.conformance.fixture import load_file
    from mtrain.conformance.partition import explore
    from mtrain.spec.scope import Space

    fixtures = Path(__file__).resolve().parents[1] / "conformance" / "fixtures"
    fx = load_file(fixtures / "sets" / "double-16.yaml")[0]
    space = Space()
    part = explore(fx, space, start={"starting_seat": frozenset({"rotate"})})
    assert part.runs > 1
    assert all(c.region["starting_seat"] == {"rotate"} for c in part.cells)
    assert {v for c in part.cells for v in c.region["tile_set"]} == set(
        space.options["tile_set"])
