"""How much of the suite an engine with rules of its own still gets (issue 21).

An option played `other` makes not applicable only the entries its clause decides, so
each option alone leaves at least 80 % of what pagat runs, and four at once (the markers,
the follow-up, the order of doubles, the draw) at least 700 results; the situations
from play stay, except the tables whose legal actions read the option, and a kind of them
that the option decides throughout gives its share to the kinds that still show.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mtrain.cli import main
from mtrain.conformance.fixture import load_file
from mtrain.conformance.situations import situations
from mtrain.spec.catalog import catalog
from mtrain.spec.ruleset import OTHER, Ruleset

ADAPTERS = Path(__file__).parent / "broken_impls" / "adapters.py"
OPTIONS = [o for o in catalog().options if o not in ("tile_set", "hand_sizes")]
FOUR = ("marker_removal", "follow_up", "double_order", "draw_rule")


def ran(tmp_path: Path, other: tuple[str, ...]) -> int:
    rules = tmp_path / f"{'-'.join(other) or 'base'}.yaml"
    lines = "".join(f"  {o}: other\n" for o in other)
    body = f"options:\n{lines}" if other else ""  # `options` may be left out
    rules.write_text(f"name: own\nbase: pagat\n{body}", encoding="utf-8")
    out = tmp_path / "report.json"
    assert main(["conform", "--rules", str(rules), "--format", "json",
                 "--output", str(out)]) == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["summary"].get("fail", 0) == 0  # the reference plays every known rule
    return int(report["ran"])


@pytest.fixture(scope="session")
def pagat_ran(once: Callable[[str, Callable[[], Any]], Any],
              tmp_path_factory: pytest.TempPathFactory) -> int:
    """What pagat itself runs: the measure of every share below, run once per run."""
    return int(once("other-coverage-base",
                    lambda: ran(tmp_path_factory.mktemp("other-base"), ())))


@pytest.mark.slow
def test_pagat_runs_most_of_the_suite(pagat_ran: int) -> None:
    assert pagat_ran >= 900


# One conform run per option, a test each: xdist spreads the 16 runs over its workers.
@pytest.mark.slow
@pytest.mark.parametrize("option", OPTIONS)
def test_one_option_of_ones_own_leaves_most_of_the_suite(option: str, pagat_ran: int,
                                                         tmp_path: Path) -> None:
    share = ran(tmp_path, (option,)) / pagat_ran
    assert share >= 0.8, (option, share)


@pytest.mark.slow
def test_four_options_of_ones_own_leave_most_of_the_suite(tmp_path: Path) -> None:
    assert ran(tmp_path, FOUR) >= 700


def test_a_match_of_its_own_length_says_which_rounds_it_has(tmp_path: Path) -> None:
    """match_length decides whether a later round exists, not what happens in it: under
    `other` a table of round 5 runs, and an engine whose match stops at round 3 refusing
    it is not a failure but a round it does not have (MATCH-1)."""
    rules = tmp_path / "own.yaml"
    rules.write_text("name: own\nbase: pagat\noptions:\n  match_length: other\n",
                     encoding="utf-8")
    reports = {}
    for impl in ("Reference", "ThreeRounds"):
        out = tmp_path / f"{impl}.json"
        assert main(["conform", "--adapter", f"{ADAPTERS}:{impl}", "--rules", str(rules),
                     "-k", "doubles-", "--format", "json", "--output", str(out)]) == 0
        reports[impl] = {r["fixture"]: r for r in json.loads(out.read_text())["results"]}
    later = [f for f, r in reports["Reference"].items() if r["status"] == "pass"
             and _round(r) > 3]
    assert later  # tables of later rounds run under a match length of one's own
    for f in later:
        mine = reports["ThreeRounds"][f]
        assert mine["status"] == "not-applicable", mine
        assert "need not have it [MATCH-1]" in mine["message"]
    early = [f for f, r in reports["Reference"].items() if r["status"] == "pass"
             and _round(r) <= 3]
    assert early and all(reports["ThreeRounds"][f]["status"] == "pass" for f in early)


def _round(result: dict[str, object]) -> int:
    fx = next(f for f in load_file(Path(str(result["file"]))) if f.id == result["fixture"])
    start = fx.table if fx.table is not None else fx.deal
    return 12 - int((start or {}).get("engine", 12)) + 1  # pagat's double-12 (ENG-1)


def test_situations_stay_where_the_option_does_not_decide_the_table() -> None:
    pagat = catalog().ruleset("pagat")
    unknown = ("engine_procedure", "first_turn")
    mine = Ruleset("own", tuple((o, OTHER if o in unknown else v) for o, v in pagat.choices),
                   pagat.hand_table)
    made = situations(mine, 70)
    tables = [fx.table for fx in made if fx.table is not None]
    # the kind "first turns to come" shows no table that speaks, and its share goes to the
    # kinds that do: the 61 the kinds share (70 less 9 deals, none of which is made: every
    # deal reads the procedure) and the 10 passes are all made, beside 10 round ends and
    # 2 drawn doubles laid and 2 tiles laid by the last seat (a quarter of the passes'
    # share: play-laid-, play-wrap-)
    assert not [fx for fx in made if fx.id.startswith("play-first-")]
    assert len(tables) == 61 + 10 + 10 + 2 + 2
    assert len([fx for fx in made if fx.id.startswith("play-laid-")]) == 2
    assert len([fx for fx in made if fx.id.startswith("play-wrap-")]) == 2
    # a mover on its first turn plays by the first-turn rule: no such table speaks
    assert not [t for t in tables if int(t.get("seat", 0)) in _first(t)]
    assert not [fx for fx in made if fx.deal is not None]  # every deal reads the procedure


def _first(table: dict[str, object]) -> list[int]:
    first = table.get("first_turns", [])
    if first == "all":
        return list(range(len(table["hands"])))  # type: ignore[arg-type]
    return [int(s) for s in first]  # type: ignore[attr-defined]


def test_a_draw_rule_of_ones_own_decides_what_the_drawn_tile_may_do(tmp_path: Path) -> None:
    """Both known draw rules let the drawn tile be played (TURN-3), so the reference read
    no draw rule there, and a house rule that keeps the drawn tile and passes (roundhouse,
    tests/examples/roundhouse_engine.py) failed 151 results charged to TURN-3. The draw
    rule decides the moment after a draw: under `other` those entries are its own."""
    rules = tmp_path / "own.yaml"
    rules.write_text("name: own\nbase: pagat\noptions:\n  draw_rule: other\n",
                     encoding="utf-8")
    out = tmp_path / "report.json"
    main(["conform", "--rules", str(rules), "-k", "turn-009", "-k", "turn-010", "-k",
          "seat-001", "--situations", "0", "--format", "json", "--output", str(out)])
    results = {r["fixture"]: r for r in json.loads(out.read_text())["results"]}
    for drawn in ("turn-009", "turn-010"):  # a drawn tile's plays: the draw rule's
        assert results[drawn]["status"] == "not-applicable", results[drawn]
        assert "draw_rule" in results[drawn]["message"]
    assert results["seat-001"]["status"] == "pass"  # no draw: it runs
