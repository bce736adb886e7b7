"""Session 59's house engines on the sets they were written for, now that the suite knows
every double-N set (SET-1, DEAL-11): gandy on its double-11 box, reachstacker on the
family's double-13 (`--set=13`), stevedore on its double-14 (tests/test_house_engines.py
runs the last two so). What that showed of the corpus, left for `mtrain lint
--write-scopes` over it (a regenerated output: not done on a helper's branch):

- the fixtures' written scopes predate `every_double`: an entry whose outcome holds on
  double-11 names only the sets of its day, so a rule-set file on double-11 never runs
  it. Gandy's bugs 1 (MARK-3) and 3 (END-3) are shown on double-12 by marker-019,
  doubles-044, end-019 and five more, none of which speaks about double-11; rewritten by
  `mtrain lint --write-scopes` (their seven files, by hand), three of them run and fail
  on gandy, charged MARK-3 and END-3;
- a scope that named no set, its hand tables fitting only sets that held the table's
  tiles, now holds double-13 and double-14 (or double-7) too, where the table cannot be
  built: s50-drawdbl-001 (engine [15-15]) errs "cannot set up the fixture" under a
  double-13 file dealing 9 players 10 (the double-16 file's table), and lint's scope
  check calls it a breach. The guard below finds every such entry from the tables' tiles.

The lead's `mtrain lint --write-scopes` over the merged corpus did both: the two tests that
waited for it (strict xfails on the helper's branch) pass without their marks.
"""

from __future__ import annotations

import functools
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from mtrain.cli import main
from mtrain.conformance.fixture import FIXTURE_ROOT, load_corpus
from mtrain.spec.scope import Space

EXAMPLES = Path(__file__).parent / "examples"
GANDY = [sys.executable, str(EXAMPLES / "gandy_engine.py")]  # its double-11 box
GANDY_RULES = EXAMPLES / "gandy-d11-rules.yaml"
SHOWN = {  # gandy's planted bugs (its docstring) -> how a failure shows it, its clause
    "cover-keeps-marker": (r"marked: expected \[[\d, ]*\], got ", "MARK-3"),
    "any-tile-after-draw": (r"^legal actions not allowed by the rules: play .*\n"
                            r"legal actions missing: pass$", "TURN-3"),
    "passes-kept": (r"passes: expected \d+, got \d+", "END-3"),
}


@functools.cache
def _gandy_bugs_on(folder: str) -> dict[str, Any]:
    """conform's report on gandy, bugs on, under its double-11 file (once a run)."""
    out = Path(folder) / "gandy-d11.json"
    main(["conform", "--impl", " ".join(GANDY), "--rules", str(GANDY_RULES),
          "--format", "json", "--output", str(out)])
    report: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return report


def _shown(report: dict[str, Any]) -> dict[str, list[tuple[str, list[str]]]]:
    """Each bug -> the failures that show it: (fixture, clauses charged)."""
    found: dict[str, list[tuple[str, list[str]]]] = {bug: [] for bug in SHOWN}
    for r in report["results"]:
        if r["status"] in ("pass", "not-applicable"):
            continue
        text = "\n".join(r["messages"] or [r["message"]])
        bugs = [b for b, (pattern, _) in SHOWN.items() if re.search(pattern, text, re.M)]
        assert len(bugs) == 1, (r["fixture"], text)  # no failure but a planted bug's
        found[bugs[0]].append((r["fixture"], r["charged"]))
    return found


@pytest.fixture(scope="module")
def gandy_report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return _gandy_bugs_on(str(tmp_path_factory.mktemp("gandy")))


@pytest.mark.slow  # a conform run, about 4 CPU s
def test_gandy_on_its_double_11_box_fails_by_its_bugs_alone(
        gandy_report: dict[str, Any]) -> None:
    """Under gandy-d11-rules.yaml (DEAL-11: its own table), every failure is a planted
    bug's, charged to the clause it breaks; bug 2 (any tile after a draw, TURN-3) shows."""
    assert int(gandy_report["ran"]) >= 1000
    shown = _shown(gandy_report)
    assert shown["any-tile-after-draw"]
    for bug, failures in shown.items():
        assert all(charged == [SHOWN[bug][1]] for _, charged in failures), (bug, failures)


@pytest.mark.slow  # the same run
def test_gandy_on_its_double_11_box_shows_every_planted_bug(
        gandy_report: dict[str, Any]) -> None:
    """Bugs 1 and 3 show on double-12 (marker-019, end-019: tables of nine numbers or
    fewer, whose outcome is the same on double-11); on double-11 they should too."""
    shown = _shown(gandy_report)
    assert shown["cover-keeps-marker"] and shown["passes-kept"], shown


TILE = re.compile(r"\b(\d{1,2})-(\d{1,2})\b")


def _highest(table: Any) -> int:
    """The highest number among a table's tiles and its engine."""
    text = json.dumps(table, default=str)
    numbers = [int(n) for pair in TILE.findall(text) for n in pair]
    engine = table.get("engine") if isinstance(table, dict) else None
    return max([*numbers, *([engine] if isinstance(engine, int) else [])], default=0)


def test_no_written_scope_holds_a_set_its_table_cannot_be_built_in() -> None:
    """SET-1: a double-N set has no tile above N, so an entry whose table holds one
    cannot speak about a rule set on double-N; its scope must not hold one there (a
    rule set of the space, the scope's other options met)."""
    space = Space()
    sets = space.options["tile_set"]
    breaches = []
    for fx in load_corpus(FIXTURE_ROOT)[0]:
        if fx.table is None:
            continue
        high = _highest(fx.table)
        small = [s for s in sets if int(s.split("-")[1]) < high]
        for k, exp in enumerate(fx.expect):
            for product in exp.scope.products:
                region = product.region()
                for s in small:
                    if s not in region.get("tile_set", sets):
                        continue
                    point = space.complete({**region, "tile_set": frozenset((s,))})
                    if point is None:
                        continue
                    try:  # the counted tiles are the table's: building it agrees
                        fx.start(space.ruleset(point))
                    except (ValueError, KeyError):  # (notation.FixtureError among them)
                        breaches.append(f"{fx.id} entry {k + 1} on {s}")
                        break
    assert sorted(set(breaches)) == [], sorted(set(breaches))
