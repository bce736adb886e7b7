"""A table whose shape a rule set's rounds never have (a search for the engine where it is
set aside, a first-turn chain under one-tile first turns, an open double where doubles are
ordinary: reachable.SHAPES) is out of every scope lint writes, and conform says why it does
not run there, for shipped rule sets as for rule sets of one's own."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import ClassVar

import pytest

from mtrain.conformance.identify.cells import ANY, pieces_of
from mtrain.conformance.lint.scopes import check_scopes
from mtrain.conformance.partition import explore
from mtrain.conformance.selection import default_rulesets, load_fixtures, select, unreached
from mtrain.conformance.traced import UNREACHED, never_reached
from mtrain.spec.catalog import catalog
from mtrain.spec.model import reachable
from mtrain.spec.model.reachable import shape_problems
from mtrain.spec.scope import Space

SPACE = Space()
FIXTURES, _ = load_fixtures(None)
BY_ID = {fx.id: fx for fx in FIXTURES}

# engsix-004's second entry as it was written before lint asked the model: its scope let in
# the set-aside engine (under which the reference plays the search all the same), so
# puremco ran it. Round 1 rotates to seat 0 (SEAT-3), which the search starts from.
SEARCH = """\
- id: unreached-001
  description: "everyone-draws, 4 players: seat 2 draws the last tile, [12-12], in mid-lap"
  clauses: [ENG-6, SEAT-2]
  source: [goodsam, computation]
  table:
    phase: engine
    seat: 2
    starter: 0
    first_turns: all
    hands:
      0: [rest]
      1: [rest]
      2: [rest]
      3: [rest]
    boneyard: [12-12]
  steps: [draw]
  expect:
{entry}      state: {{phase: start, engine_placed: true, seat: 0, starter: 0,
              hand_sizes: [23, 23, 22, 22], boneyard_size: 0}}
"""
WIDE = """\
    - variants: [pagat+engine-everyone-draws+rotate-start]
      when:
        tile_set: [double-12]
        engine_procedure: [holder-lays, set-aside, holder-lays-and-draws, everyone-draws]
        starting_seat: [rotate, highest-draw]
"""


def test_puremco_no_longer_runs_engsix_004_and_says_why() -> None:
    puremco = catalog().ruleset("puremco")
    tasks, outside = select(FIXTURES, [puremco], ["engsix-004"])
    (task,) = tasks
    assert task.expectation is None and task.sent is None
    assert task.why is not None and task.why.startswith(f"{UNREACHED} (REACH-ENGINE: the "
                                                        "engine is set aside")
    assert outside.rules["puremco"] == 0  # told apart from fixtures about other rules
    # the variants it names still run it
    named = catalog().ruleset("pagat", ["engine-everyone-draws"])
    (ran,), _ = select(FIXTURES, [named], ["engsix-004"])
    assert ran.expectation is not None and ran.why is None


def test_the_shipped_scopes_leave_out_every_rule_set_that_never_reaches_its_table() -> None:
    # conform, identify and blame read the scopes: no shipped rule set's entry may be one
    # whose table the model says its rounds never have (what `unreached` asks of one's own)
    tasks, _ = select(FIXTURES, default_rulesets(FIXTURES), [])
    ran = [t for t in tasks if t.expectation is not None and t.why is None]
    assert len(ran) > 1000
    assert [f"{t.fixture.id} [{t.variant}]" for t in ran
            if unreached(t.fixture, t.ruleset) is not None] == []
    said = [t.why for t in tasks if t.why and t.why.startswith(UNREACHED)]
    assert {why.split(":")[0] for why in said} >= {f"{UNREACHED} (REACH-ENGINE",
                                                   f"{UNREACHED} (REACH-ORDINARY"}


def test_the_shapes_read_one_option_each() -> None:
    # the search reads the engine procedure alone, the chain the first turn, an open
    # double the doubles rule: a scope is split by no more than the shape asks
    fx = BY_ID["engsix-004"]
    pagat = catalog().ruleset("pagat")
    table = fx.start(pagat)

    class Reads(dict[str, str]):
        seen: ClassVar[set[str]] = set()

        def __getitem__(self, key: str) -> str:
            self.seen.add(key)
            return super().__getitem__(key)

    reads = Reads(pagat.choices)
    assert shape_problems(table, reads) == []
    assert reads.seen == {"engine_procedure"}
    puremco = catalog().ruleset("puremco")
    assert never_reached(fx, puremco) == (f"{UNREACHED} (REACH-ENGINE: the engine is set "
                                          "aside, so nobody searches for it)")


def test_lint_proposes_no_scope_with_a_rule_set_that_never_reaches_the_table(
        tmp_path: Path) -> None:
    path = tmp_path / "search.yaml"
    path.write_text(SEARCH.format(entry=WIDE), encoding="utf-8")
    fixtures, errors = load_fixtures(str(path))
    assert not errors
    part = explore(fixtures[0], SPACE)
    aside = [c for c in part.cells if c.run.values["engine_procedure"] == "set-aside"]
    assert aside and all(c.run.outcomes == ("fail",) and c.run.messages[0][0].startswith(
        f"{UNREACHED} (REACH-ENGINE") for c in aside)
    report = check_scopes(fixtures, SPACE, kept=False)
    # the written scope holds set-aside rule sets (puremco's procedure): each is an error
    assert any("engine_procedure=set-aside" in e and UNREACHED in e for e in report.errors)
    (proposal,) = report.proposals
    assert not any(p.contains({**v, "engine_procedure": "set-aside"})
                   for p in proposal.scope.products
                   for v in [dict(catalog().ruleset("puremco").choices)])


def test_a_fixture_no_rule_set_reaches_is_reported_not_kept(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # as if the model found no round of any rule set with a search for the engine: the
    # entry then holds nowhere, and lint says so rather than write an empty scope
    monkeypatch.setattr(reachable, "shape_problems",
                        lambda table, rs: ["REACH-ENGINE: no rule set searches (a test)"])
    path = tmp_path / "nowhere.yaml"
    path.write_text(SEARCH.format(entry=WIDE), encoding="utf-8")
    fixtures, errors = load_fixtures(str(path))
    assert not errors
    report = check_scopes(fixtures, SPACE, kept=False)
    assert report.errors and all(UNREACHED in e for e in report.errors)
    assert report.proposals == []  # nothing to write: the entry speaks about no rule set


def test_identify_keeps_what_the_play_found_where_a_table_is_never_reached() -> None:
    # lint fails every entry where set-aside rules meet a search for the engine (their
    # scopes leave those rule sets out), but identify's pieces from the corpus keep what
    # the play found there, as they keep impossible states' failures: read as any answer,
    # `ordinary` explained whatever an engine of house rules did on open-double tables
    # (tests/test_identify_calibration.py's case-7, read `ordinary`, sure, playing `open`)
    part = explore(BY_ID["engsix-004"], SPACE)
    no_search = {"set-aside", "highest-double-held", "designated-opens"}
    aside = [c for c in part.cells if c.region.get("engine_procedure", frozenset()) <= no_search]
    assert aside
    assert all(c.run.outcomes == ("fail",) * len(c.run.outcomes)
               and c.run.messages[0][0].startswith(UNREACHED) for c in aside)
    assert all(c.run.played and set(c.run.played) <= {"pass", "fail", "error"} for c in aside)
    by_region = {tuple(sorted((o, tuple(sorted(v))) for o, v in c.region.items()
                              if v != SPACE.full()[o])): c.run.played for c in aside}
    pieces = [p for p in pieces_of(part, SPACE)
              if p.region.get("engine_procedure", frozenset()) <= no_search
              and "engine_procedure" in p.region]
    assert pieces and all(ANY not in p.outcomes for p in pieces)
    assert all(p.outcomes == by_region[tuple(sorted((o, tuple(sorted(v)))
                                                    for o, v in p.region.items()))]
               for p in pieces)
    assert any("pass" in p.outcomes for p in pieces_of(part, SPACE))


@functools.cache  # read in a test's body: not at collection, by every worker
def _shaped_at_pagat() -> frozenset[str]:
    from mtrain.spec.notation import FixtureError

    pagat, out = catalog().ruleset("pagat"), set()
    for fx in FIXTURES:
        try:
            if fx.table is not None and reachable.shaped(fx.start(pagat)):
                out.add(fx.id)
        except (FixtureError, ValueError, KeyError):
            continue
    return frozenset(out)


def test_never_reached_answers_as_the_model_under_every_rule_set() -> None:
    """never_reached keeps each table's answers by the options the model read: under
    every shipped rule set, asked in turn (the memo warm), the answer is the model's own
    on the table built under that rule set, and a table that does not build gives none."""
    from mtrain.conformance import traced
    from mtrain.spec.notation import FixtureError

    traced._shaped.clear()
    rulesets = default_rulesets(FIXTURES)
    shaped = [fx for fx in FIXTURES if fx.id in _shaped_at_pagat()]
    assert len(shaped) > 50
    said = {None: 0, "unreached": 0, "unbuilt": 0}
    for fx in shaped:
        for rs in rulesets:
            try:
                table = fx.start(rs)
            except (FixtureError, ValueError, KeyError):
                assert never_reached(fx, rs) is None
                said["unbuilt"] += 1
                continue
            found = shape_problems(table, rs)
            want = f"{UNREACHED} ({found[0]})" if found else None
            assert never_reached(fx, rs) == want, (fx.id, rs.name)
            said["unreached" if want else None] += 1
    assert all(said.values()), said  # each kind of answer was given, from the memo too
