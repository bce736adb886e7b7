"""A doubles rule of one's own that decides whether a double may be laid
(conformance/lay_alone.py): hostler's "no lone double" (tests/examples/js/hostler_engine.js
--house=lone-double, tests/test_house54a.py), played here by a few lines over the
reference, on tables worked by hand, with the bugs such an engine may still have beside
it: each must still fail."""

from __future__ import annotations

from pathlib import Path

import pytest

from mtrain.conformance.adapter import JSON, ReferenceImplementation, Refused
from mtrain.conformance.double_plays import double_play
from mtrain.conformance.fixture import FIXTURE_ROOT, Fixture, load_file
from mtrain.conformance.partition import stand_in
from mtrain.conformance.process import ImplementationCrashed
from mtrain.conformance.runner import Outcome, run_one
from mtrain.conformance.selection import entry_for
from mtrain.spec import tiles as T
from mtrain.spec.catalog import catalog
from mtrain.spec.ruleset import Ruleset
from mtrain.spec.scope import Space

RULES = Path(__file__).parent / "examples" / "js" / "hostler-lone-rules.yaml"

TABLES = """
- id: lone-001
  description: "A lone double the one play: the rules lay it, no lone double draws"
  clauses: [TURN-1, TURN-2]
  source: [computation]
  table:
    engine: 9
    seat: 0
    starter: 0
    hands:
      0: [5-5, 3-2]
      1: [rest]
    trains:
      0: [9-8]
      1: [9-7]
      mexican: [9-5]
    boneyard: [5-1]
    first_turns: []
  expect:
  - when: [{tile_set: [double-9]}]
    legal: [play 5-5 on mexican]
- id: lone-002
  description: "A drawn lone double: the rules lay it, no lone double passes"
  clauses: [TURN-3, TURN-4]
  source: [computation]
  table:
    engine: 9
    seat: 0
    starter: 0
    hands:
      0: [5-5, 3-2]
      1: [rest]
    trains:
      0: [9-8]
      1: [9-7]
      mexican: [9-5]
    boneyard: [1-0]
    drawn: 5-5
    first_turns: []
  expect:
  - when: [{tile_set: [double-9]}]
    legal: [play 5-5 on mexican]
- id: lone-003
  description: "A lone double beside a tile for the Mexican Train: that tile still asked"
  clauses: [TRAIN-4, TRAIN-5]
  source: [computation]
  table:
    engine: 9
    seat: 0
    starter: 0
    hands:
      0: [7-7, 5-1]
      1: [rest]
    trains:
      0: [9-7]
      1: [9-8]
      mexican: [9-5]
    boneyard: [1-0]
    first_turns: []
  expect:
  - when: [{tile_set: [double-9]}]
    legal: [play 5-1 on mexican, play 7-7 on 0]
- id: lone-004
  description: "A partnered double: laid on its own train, not on a train with no marker"
  clauses: [TRAIN-4]
  source: [computation]
  table:
    engine: 9
    seat: 0
    starter: 0
    hands:
      0: [4-4, 4-1]
      1: [rest]
    trains:
      0: [9-4]
      1: [9-3, 3-4]
      mexican: [9-8]
    boneyard: [1-0]
    first_turns: []
  expect:
  - when: [{tile_set: [double-9]}]
    legal: [play 4-1 on 0, play 4-4 on 0]
"""
"""Worked by hand (double-9, seat 0 to move, seat 1 unmarked, nobody on a first turn, no
double open). lone-001: the open ends are 8 (its own), 7 (seat 1's) and 5 (the Mexican
Train); [5-5] fits the Mexican Train alone, [3-2] nothing: the one play (TURN-1). Its hand
holds no other 5, so no lone double lays nothing and draws, a tile being left (TURN-2);
[5-1], in the boneyard, would go on the Mexican Train in its place. lone-002: the same
hands and trains, [5-5] just drawn: only it may be played (TURN-3); not laid, the player passes
(TURN-4). lone-003: [5-1] on the Mexican Train (5), [7-7] on its own train (7), its only
7. lone-004: [4-1] and [4-4] on its own train (4); seat 1's train ([9-3, 3-4]) ends in 4
too but carries no marker (TRAIN-4); [4-4] has [4-1] for partner."""


def lone(state: JSON, action: JSON) -> bool:
    """Whether `action` lays a double its player may not lay under "no lone double": their
    hand holds another tile and none of them bears the double's number."""
    if action.get("type") != "play":
        return False
    tile = T.parse(str(action["tile"]))
    hand = [T.parse(t) for t in state["hands"][state["seat"]]]
    number = T.HIGH[tile]
    return (T.LOW[tile] == number and len(hand) > 1
            and not any(t != tile and number in (T.HIGH[t], T.LOW[t]) for t in hand))


class LoneDouble(ReferenceImplementation):
    """hostler's house rule "no lone double", over the reference: a double is laid only by
    a player who holds another tile of its number, or as their last tile; with nothing
    else to lay, they draw once (TURN-2), else pass (TURN-4)."""

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        found = super().legal(ruleset, state)
        kept = [a for a in found if not lone(state, a)]
        if len(kept) == len(found) or any(a["type"] == "play" for a in kept):
            return kept
        return [{"type": self.nothing_to_lay(state)}]

    def nothing_to_lay(self, state: JSON) -> str:
        return "draw" if state.get("drawn") is None and state["boneyard"] else "pass"

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        if lone(state, action):
            raise Refused(f"{action['tile']} has no partner in hand to cover it")
        return super().apply(ruleset, state, action)


class PassesForLone(LoneDouble):
    """Bug: with its lone double left out it passes, a tile left to draw (TURN-2)."""

    def nothing_to_lay(self, state: JSON) -> str:
        return "pass"


class MexicanShut(LoneDouble):
    """Bug: no play on the Mexican Train once it holds a tile (TRAIN-5)."""

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        found = [a for a in super().legal(ruleset, state) if a.get("train") != "mexican"]
        return found or [{"type": self.nothing_to_lay(state)}]


class DoubleOnAnyTrain(LoneDouble):
    """Bug: a double it may lay is offered on every train ending in its number, marked or
    not (TRAIN-4)."""

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        found = super().legal(ruleset, state)
        extra = []
        for a in found:
            if a["type"] == "play" and double_play(f"play {a['tile']} on {a['train']}"):
                number = T.HIGH[T.parse(str(a["tile"]))]
                extra += [{"type": "play", "tile": a["tile"], "train": k}
                          for k, t in enumerate(state["trains"])
                          if t["end"] == number and k != a["train"]]
        return found + extra


@pytest.fixture(scope="module")
def lone_rules() -> Ruleset:
    return catalog().rules_file(str(RULES))


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Fixture]:
    path = tmp_path_factory.mktemp("lone") / "tables.yaml"
    path.write_text(TABLES, encoding="utf-8")
    return {fx.id: fx for fx in load_file(path)}


def run(fx: Fixture, rs: Ruleset, impl: ReferenceImplementation) -> Outcome:
    """`fx` run as conform runs it under `rs`: its entry for `rs`, under the stand-in."""
    space = Space()
    exp, why = entry_for(fx, rs, space)
    assert exp is not None, why
    return run_one(fx, stand_in(rs, exp, space), exp, impl, own=rs.unknown)


def test_a_double_its_own_rule_does_not_lay_is_the_rules_own(
        lone_rules: Ruleset, tables: dict[str, Fixture]) -> None:
    """Each table lists a double the rule does not lay: judged as written, each failed
    (TRAIN-4, TURN-3: a missing play, a draw or pass offered); its other plays judged,
    and its draw or pass the reference's with no double laid, each passes; the reference
    itself passes each as before."""
    for fid in ("lone-001", "lone-002", "lone-003"):
        fx = tables[fid]
        assert run(fx, lone_rules, ReferenceImplementation()).status == "pass", fid
        out = run(fx, lone_rules, LoneDouble())
        assert out.status == "pass", (fid, out.messages)


def test_what_no_doubles_rule_decides_is_still_judged(
        lone_rules: Ruleset, tables: dict[str, Fixture]) -> None:
    """The cut leaves nothing else aside: a pass with a tile to draw (TURN-2), a double
    left out on a train the engine keeps closed, a play on the Mexican Train left out
    (beside a double left out), a double offered on a train with no marker, each still
    fails, charged to its clause."""
    out = run(tables["lone-001"], lone_rules, PassesForLone())
    assert out.status == "fail" and out.charged == ["TURN-2"], (out.messages, out.charged)
    assert run(tables["lone-002"], lone_rules, PassesForLone()).status == "pass"  # TURN-4
    # the Mexican Train shut, a lone double the only play there: [5-1] swapped in for
    # [5-5] is not laid there either, so the train is closed, not the double its rule's
    out = run(tables["lone-001"], lone_rules, MexicanShut())
    assert out.status == "fail", out.messages
    assert "legal actions missing: play 5-5 on mexican" in out.messages, out.messages
    out = run(tables["lone-003"], lone_rules, MexicanShut())
    assert out.status == "fail", out.messages
    assert "legal actions missing: play 5-1 on mexican" in out.messages, out.messages
    assert out.charged == ["TRAIN-4"], out.charged
    assert "play 7-7" not in "; ".join(out.messages)
    out = run(tables["lone-004"], lone_rules, DoubleOnAnyTrain())
    assert out.status == "fail" and out.charged == ["TRAIN-4"], (out.messages, out.charged)
    assert out.messages == ["legal actions not allowed by the rules: play 4-4 on 1"]


def test_a_known_doubles_rule_lays_every_double_that_fits(
        tables: dict[str, Fixture]) -> None:
    """Under `doubles: open` (hostler's rules without the variation) nothing is cut: a
    double left out fails, charged to the train it was asked on."""
    rs = catalog().rules_file(str(RULES.with_name("hostler-rules.yaml")))
    assert "doubles" not in rs.unknown
    out = run(tables["lone-003"], rs, LoneDouble())
    assert out.status == "fail" and out.charged == ["TRAIN-4"], (out.messages, out.charged)


SHOWN = ("first-025", "regression-own-first-double-001", "house49a-016", "house49a-017")
"""The corpus's tables of tests/test_house54a.py (hostler's own run, through node)."""


def test_the_corpus_tables_hostler_failed_pass_under_the_rule(lone_rules: Ruleset) -> None:
    """The same four tables of the corpus, run in process: each a double left out."""
    files = ("first-turn/single.yaml", "regressions/own-train-first-double.yaml",
             "turns/house49a-own-train-empty.yaml")
    found = {fx.id: fx for f in files for fx in load_file(FIXTURE_ROOT / f) if fx.id in SHOWN}
    assert set(found) == set(SHOWN)
    for fid, fx in found.items():
        out = run(fx, lone_rules, LoneDouble())
        assert out.status == "pass", (fid, out.messages)


class CrashOnSwap(LoneDouble):
    """LoneDouble, which crashes when asked about a hand holding [5-1] (the tile
    double_plays.py swaps in for [5-5] on lone-001, asking whether the Mexican Train is
    open to it)."""

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        if "5-1" in state["hands"][state["seat"]]:
            raise ImplementationCrashed("the implementation exited (code 3)")
        return super().legal(ruleset, state)


def test_a_crash_on_the_trains_probe_is_reported_as_it_is(
        lone_rules: Ruleset, tables: dict[str, Fixture]) -> None:
    """The probe's crash is no answer about the train: raised as the crash it is (the
    result's status), its message naming the probe (probing.asked)."""
    with pytest.raises(ImplementationCrashed, match=r"asked again with \[5-5\] swapped "
                       r"for \[5-1\] \(whether train mexican is open to it"):
        run(tables["lone-001"], lone_rules, CrashOnSwap())
