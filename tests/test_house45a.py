"""The suite's faults bogie (tests/examples/c/bogie_engine.c, a double-12 engine in C
with three house rules at once: its own engine procedure, marker removal and blocked
round) showed, each fixed with a test that failed before the fix. Each planted bug is
played here by a few lines over the reference (the C program needs gcc), on a table
fuzz shrank one of its findings to."""

from __future__ import annotations

from pathlib import Path

import pytest

from mtrain.cli import main
from mtrain.conformance.adapter import JSON, ReferenceImplementation
from mtrain.conformance.fixture import load_corpus, load_file
from mtrain.conformance.fuzz.judge import compare_legal
from mtrain.conformance.fuzz.rulesets import declared_context
from mtrain.conformance.runner import run_one
from mtrain.reference import codec, engine
from mtrain.spec.catalog import catalog

RULES = """name: bogie
options:
  tile_set: double-12
  hand_sizes: {2: 15, 3: 14, 4: 13, 5: 12, 6: 11, 7: 10, 8: 9}
  engine_procedure: set-aside
  starting_seat: rotate
  first_turn: single
  mexican_first_turn: own-train-started
  own_train_first: not-required
  doubles: open
  follow_up: anywhere
  double_order: oldest-first
  uncoverable_double: released-when-boneyard-empty
  marker_removal: owner-plays-own
  draw_rule: draw-one
  blocked_round: full-round-of-passes
  scoring: penalty
  blank_values: face
  tie_rule: shared
  match_length: full
"""
"""bogie's rules with a known value for each of its own (none of which these tables read)."""


class EarlyRelease(ReferenceImplementation):
    """bogie's bug 1: with one tile left in the boneyard, the doubles of earlier turns
    already bind nobody (DBL-12 releases them once it is empty)."""

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        found = super().legal(ruleset, state)
        if len(state["boneyard"]) != 1:
            return found
        other = (state["seat"] + 1) % len(state["hands"])  # its tile out of the way
        hands = [h + state["boneyard"] if s == other else h
                 for s, h in enumerate(state["hands"])]
        released = super().legal(ruleset, {**state, "boneyard": [], "hands": hands})
        plays = [a for a in released if a["type"] == "play"]
        return plays or found


class MexicanAfterTwo(ReferenceImplementation):
    """bogie's bug 2: the empty Mexican Train opens only to a player whose own train holds
    two tiles (FIRST-10: one is enough)."""

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        found = super().legal(ruleset, state)
        seat = state["seat"]
        if state["mexican"]["tiles"] or len(state["trains"][seat]["tiles"]) >= 2:
            return found
        return [a for a in found if a.get("train") != "mexican"] or [{"type": "draw"}]


EARLY_RELEASE = """
- id: house45a-001
  description: "One tile left in the boneyard: the open [12-12] still binds seat 1"
  clauses: [DBL-6, DBL-7, TURN-1, TRAIN-4]
  source: [computation]
  table:
    engine: 4
    seat: 1
    starter: 2
    hands:
      0: [rest]
      1: [4-3]
      2: [8-0]
    trains:
      mexican: [4-12, 12-12]
    boneyard: [9-4]
  rules: rules.yaml
  expect:
  - variants: [bogie]
    legal: [draw]
"""
"""fuzz's shrunk table for bug 1 (its reproducer, seats cut to three): the situations'
kinds list no release clause, and conform charged the duty (DBL-6) there, the release
(DBL-12) where a fixture lists it: one bug, two clauses."""

FOLLOW_OPENING = """
- id: house45a-002
  description: "A follow-up opens the empty Mexican Train: seat 0's own train holds a tile"
  clauses: [DBL-2, TRAIN-4, TRAIN-5]
  source: [computation]
  table:
    seat: 0
    phase: follow
    engine: {e}
    hands:
      0: [{e}-3, 4-1]
      1: [rest]
      2: [6-5]
    trains:
      0: [{e}-6]
      1: [{e}-4, 4-4]
      2: [{e}-9]
    marked: [1]
    open_doubles: [1]
    turn_doubles: [1]
  rules: rules.yaml
  expect:
  - variants: [bogie]
    legal: [play 4-1 on 1, play {e}-3 on mexican]
"""
"""Seat 0 laid [4-4] on seat 1's marked train and follows it up: [4-1] covers it, and
[e-3] may open the empty Mexican Train, since seat 0's own train holds [e-6]
(FIRST-10). An engine that waits for two tiles misses that play; conform charged it to
what opens the train (TRAIN-5) in a follow-up and with a tile drawn, but to FIRST-10 in
an ordinary turn (4 of bogie's 5 failures), and fuzz alike. In round 2 (e = 11), the
mover holding no 12, an engine opening it with round 1's number would offer nothing
there either: an ordinary turn charges FIRST-10 all the same, and so does a follow-up."""


def _run(tmp_path: Path, text: str, impl: ReferenceImplementation) -> list[str]:
    (tmp_path / "rules.yaml").write_text(RULES, encoding="utf-8")
    path = tmp_path / "fx.yaml"
    path.write_text(text, encoding="utf-8")
    fx = load_file(path)[0]
    rs = catalog().rules_file(str(tmp_path / "rules.yaml"))
    out = run_one(fx, rs, fx.expect[0], impl)
    assert out.status == "fail", out.messages
    return out.charged


def _fuzz_signature(tmp_path: Path, text: str, impl: ReferenceImplementation) -> str:
    """fuzz's signature for the same table: the legal set it answers, judged."""
    (tmp_path / "rules.yaml").write_text(RULES, encoding="utf-8")
    path = tmp_path / "fx.yaml"
    path.write_text(text, encoding="utf-8")
    fx = load_file(path)[0]
    rs = catalog().rules_file(str(tmp_path / "rules.yaml"))
    ctx = declared_context(rs)
    run = run_one(fx, rs, fx.expect[0], ReferenceImplementation())
    assert run.status == "pass", run.messages  # the table is as the reference reads it
    state = fx.start(rs)
    st = codec.state_from_json(ctx.rules, state)
    got = impl.legal(ctx.rj, state)
    found = compare_legal(ctx, st, engine.legal_actions(st), got, None)
    assert found, got
    return found[0].signature


def test_a_double_released_with_one_tile_left_is_charged_to_its_release(
        tmp_path: Path) -> None:
    assert _run(tmp_path, EARLY_RELEASE, EarlyRelease()) == ["DBL-12"]


def test_fuzz_names_the_release_too(tmp_path: Path) -> None:
    assert _fuzz_signature(tmp_path, EARLY_RELEASE, EarlyRelease()) == "allows play (DBL-12)"


@pytest.mark.parametrize("engine", [12, 11])
def test_a_follow_up_kept_off_the_empty_mexican_train_is_charged_to_who_may_open_it(
        tmp_path: Path, engine: int) -> None:
    fixture = FOLLOW_OPENING.replace("{e}", str(engine))
    assert _run(tmp_path, fixture, MexicanAfterTwo()) == ["FIRST-10"]


@pytest.mark.parametrize("engine", [12, 11])
def test_fuzz_names_who_may_open_it_too(tmp_path: Path, engine: int) -> None:
    fixture = FOLLOW_OPENING.replace("{e}", str(engine))
    assert _fuzz_signature(tmp_path, fixture, MexicanAfterTwo()) == "forbids play (FIRST-10)"



class DrawnAtDeal(ReferenceImplementation):
    """bogie's own slip before the suite ran (not planted): its deal left the state's
    drawn tile at index 0, [0-0], where no tile has been drawn."""

    def deal(self, ruleset: JSON, players: int, round: int, order: list[str],
             draw: list[list[str]] | None = None) -> JSON:
        state = super().deal(ruleset, players, round, order, draw)
        return {**state, "drawn": "0-0"}


def test_a_deal_that_writes_a_drawn_tile_is_charged_to_the_deal() -> None:
    """Its 52 failures were charged to when a turn ends (TURN-6), the first clause the
    invariant of a consistent turn (INV-TURN) points at: no turn has ended, nor begun."""
    fx = next(f for f in load_corpus()[0] if f.id == "deal-021")
    exp = fx.expect[0]
    rs = catalog().ruleset(exp.variants[0])
    out = run_one(fx, rs, exp, DrawnAtDeal())
    assert out.status == "fail" and "the drawn tile 0-0 is not in the hand" in out.messages[0]
    assert out.charged == ["DEAL-1"]


NULL_REFUSAL = """\
- id: house45a-003
  description: "An open double closes the Mexican Train to the next player"
  clauses: [DBL-6, TRAIN-4]
  source: [pagat, decision]
  table:
    engine: 9
    seat: 1
    starter: 0
    hands:
      0: [2-2]
      1: [5-4, 1-7]
      2: [0-3]
    trains:
      0: [9-5, 5-5]
      mexican: [9-8, 8-1]
    open_doubles: [0]
    marked: [1, 2]
  expect:
    - variants: [pagat]
      refused:
        play 1-7 on mexican: DBL-6
"""


def test_the_headline_says_how_to_see_the_refusals_that_named_no_clause(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """bogie's first build refused three plays naming no clause (onto a train whose
    double DBL-12 had released: TRAIN-4's): conform's last line counted them ("3 refusals
    named no clause"), and nothing, -v included, said which."""
    path = tmp_path / "refusal.yaml"
    path.write_text(NULL_REFUSAL, encoding="utf-8")
    adapters = Path(__file__).parent / "broken_impls" / "adapters.py"
    capsys.readouterr()
    assert main(["conform", "--adapter", f"{adapters}:NamesNoClause", "--fixtures", str(path),
                 "--variant", "pagat"]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert "1 refusal named no clause (--require-clauses fails each, naming it)" in last


def test_identify_names_where_the_bugs_against_a_value_lie_from_the_fixtures_that_tell() -> None:
    """bogie (bugs on): uncoverable_double released-when-boneyard-empty, 8 fixtures against
    it that tell the values apart (7 charged DBL-12: bug 1), 24 that fail under every value
    alike (bug 2's tables, its own rules'); the note said the 32 "are read as bugs in
    TRAIN-4, TURN-4, TRAIN-2", the clauses of the 24, which say nothing of the option."""
    from mtrain.conformance.identify import bugs

    broken = {"x1": {"DBL-12"}, "x2": {"DBL-12", "END-2"},
              **{f"y{i}": {"TRAIN-4", "TURN-4", "TRAIN-2"} for i in range(5)}}
    shape = bugs.Shape(("a", "b"), ("x1",), ("x2",), tuple(f"y{i}" for i in range(5)))
    text = bugs.note("uncoverable_double", "released-when-boneyard-empty", shape,
                     lambda fid: frozenset(broken[fid]))
    assert "are read as bugs in DBL-12, END-2 (the 2 that tell the values apart):" in text
