"""Session 48's fuzz and conform work on engines with house rules: a missing cover charged
to the order of covering where that order explains it (attribution), match_over's
narrowed catch, and the results conform runs under rules of one's own."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mtrain.cli import main
from mtrain.conformance.adapter import (
    JSON,
    ReferenceImplementation,
    Refused,
    RefusedSetup,
    Unsupported,
)
from mtrain.conformance.fixture import load_file
from mtrain.conformance.fuzz.judge import compare_legal
from mtrain.conformance.fuzz.rulesets import context
from mtrain.conformance.match_over import holds_match_over
from mtrain.conformance.mutants import MUTANTS
from mtrain.conformance.process import ImplementationError, ImplementationTimeout
from mtrain.conformance.runner import resolve, run_one
from mtrain.reference import codec, engine
from mtrain.spec.ruleset import Ruleset

EXAMPLES = Path(__file__).parent / "examples"
FIXTURES = Path(__file__).parent.parent / "conformance" / "fixtures"

# --- a missing cover on another player's unmarked train, two doubles open -------------

OLDER_ON_ZERO = """\
- id: fzs-older-001
  description: "Of two open doubles the newer cannot be covered, the older on train 0 can"
  clauses: [DBL-6, DBL-7, DBL-8, TRAIN-6]
  source: [pagat, decision]
  note: >-
    [2-2] was laid on seat 0's train first, [5-5] on seat 1's after it; both open. Seat 2
    holds [2-0] (covers [2-2]) and [4-3] (its own 4), no 5. Oldest first: [2-0] on train
    0 (DBL-7, TRAIN-6 opening seat 0's unmarked train to the cover); any open double: the
    same, the only cover it holds (DBL-8). [4-3] on its own train is refused (DBL-6).
  table:
    engine: 6
    seat: 2
    starter: 0
    hands:
      0: [1-1]
      1: [0-0]
      2: [2-0, 4-3]
    trains:
      0: [6-2, 2-2]
      1: [6-5, 5-5]
      2: [6-4]
      mexican: [6-1]
    open_doubles: [0, 1]
    first_turns: []
  expect:
    - variants: [pagat]
      legal: [play 2-0 on 0]
      refused:
        play 4-3 on 2: DBL-6
"""
"""house47a-008 as first written (its older double on seat 0's unmarked train, moved to
the Mexican Train to dodge this charge): worked by hand, in its note."""


def _older_on_zero(tmp_path: Path) -> Any:
    path = tmp_path / "older.yaml"
    path.write_text(OLDER_ON_ZERO, encoding="utf-8")
    return load_file(path)[0]


def test_a_newest_first_engine_missing_the_older_cover_is_charged_to_the_order(
        tmp_path: Path) -> None:
    """An engine that covers the newest double first (caboose's and hump's planted bug,
    the mutant newest-double-first) holds seat 2, who cannot cover [5-5], to a draw: the
    cover of [2-2] on seat 0's unmarked train is missing because of the order, so DBL-7
    (pagat's oldest first) is charged, not TRAIN-6 (before: TRAIN-6)."""
    fx = _older_on_zero(tmp_path)
    rs = resolve("pagat")
    assert run_one(fx, rs, fx.expect[0], ReferenceImplementation()).status == "pass"
    out = run_one(fx, rs, fx.expect[0], MUTANTS["newest-double-first"].implementation())
    assert out.status == "fail" and out.charged == ["DBL-7"], (out.charged, out.messages)
    # fuzz names the same clause for the same legal answer
    ctx = context("pagat")
    state = fx.start(rs)
    st = codec.state_from_json(ctx.rules, state)
    got = MUTANTS["newest-double-first"].implementation().legal(ctx.rj, state)
    found = compare_legal(ctx, st, engine.legal_actions(st), got, None)
    assert "forbids play (DBL-7)" in [f.signature for f in found], found


def test_a_cover_kept_off_a_closed_train_stays_charged_to_train_6(tmp_path: Path) -> None:
    """The same table, an engine that keeps another player's unmarked train closed to a
    cover (the mutant covering-refused-on-closed-train), is charged to the order as well
    there: seat 2 holds no cover of [5-5], so the newest-first reading explains the draw
    alike. Where the player holds a cover of the newer double and is offered none, no
    order explains it and TRAIN-6 stays (doubles-050 in tests/test_blame.py; tortoise on
    house47a-007, whose newer double is on another closed train): here [5-0], with [5-5]
    on the Mexican Train, which a newest-first engine offers (an extra play, the order's)."""
    text = (OLDER_ON_ZERO.replace("2: [2-0, 4-3]", "2: [2-0, 4-3, 5-0]")
            .replace("1: [6-5, 5-5]\n", "1: [6-3]\n")
            .replace("mexican: [6-1]", "mexican: [6-5, 5-5]")
            .replace("open_doubles: [0, 1]", "open_doubles: [0, mexican]"))
    path = tmp_path / "mex.yaml"
    path.write_text(text, encoding="utf-8")
    fx = load_file(path)[0]
    rs = resolve("pagat")
    assert run_one(fx, rs, fx.expect[0], ReferenceImplementation()).status == "pass"
    closed = run_one(fx, rs, fx.expect[0],
                     MUTANTS["covering-refused-on-closed-train"].implementation())
    assert closed.status == "fail" and closed.charged == ["TRAIN-6"], closed.charged
    # the newest-first engine offers the newer cover here: an extra play, the order's
    newest = run_one(fx, rs, fx.expect[0], MUTANTS["newest-double-first"].implementation())
    assert newest.status == "fail" and newest.charged == ["DBL-7"], newest.charged


# --- match_over: only an implementation's answers read as telling nothing --------------


class _DealRaises(ReferenceImplementation):
    """The reference, whose deal of the round after raises `error`."""

    def __init__(self, error: BaseException) -> None:
        super().__init__()
        self.error = error

    def deal(self, ruleset: JSON, players: int, round: int, order: list[str],
             draw: list[list[str]] | None = None) -> JSON:
        raise self.error


def _finished(rs: Ruleset) -> JSON:
    impl = ReferenceImplementation()
    from mtrain.conformance.adapter import ruleset_json
    from mtrain.spec.notation import deal_order

    state: JSON = impl.deal(ruleset_json(rs), 3, 1, deal_order(rs, 12, "sorted"))
    return state


@pytest.mark.parametrize(("error", "held"), [
    (RefusedSetup("no round 2", "MATCH-1"), True),
    (RefusedSetup("no round 2"), True),
    (RefusedSetup("no seat", "SEAT-5"), False),
    (ImplementationError("error answer"), False),
    (ImplementationTimeout("no answer"), False),
    (Refused("no", None), False),
    (Unsupported("no"), False),
])
def test_an_implementations_answer_to_the_round_after(error: BaseException,
                                                     held: bool) -> None:
    rs = resolve("pagat")
    from mtrain.conformance.adapter import ruleset_json

    assert holds_match_over(_DealRaises(error), ruleset_json(rs), rs, _finished(rs)) is held


def test_an_in_process_implementations_own_exception_tells_nothing() -> None:
    """An implementation called in process answers by what it raises: the mutant
    match-never-over (the reference's deal raising ValueError for round 14 of a double-12
    match) kept its MATCH-1 charges until match_over was narrowed to the hosted answers'
    kinds, when its 151 failures in blame became errors, charged to nothing (the merge's
    CI, test_blame's bar). A suite fault before the request (the pool) is still raised:
    test_an_engine_number_out_of_range_tells_nothing's guard."""
    rs = resolve("pagat")
    from mtrain.conformance.adapter import ruleset_json

    for error in (ValueError("round 14 does not exist [MATCH-1]"), KeyError("hands")):
        assert holds_match_over(_DealRaises(error), ruleset_json(rs), rs,
                                _finished(rs)) is False


def test_an_engine_number_out_of_range_tells_nothing() -> None:
    """A state whose engine no round of the set has (the implementation's answer) is not
    a round the suite can ask after: False, no traceback (before: the pool's IndexError,
    swallowed with the rest)."""
    rs = resolve("pagat")
    from mtrain.conformance.adapter import ruleset_json

    state = {**_finished(rs), "engine": 40}
    assert holds_match_over(ReferenceImplementation(), ruleset_json(rs), rs, state) is False


# --- an open double's duty under a doubles rule of one's own (tandem) -----------------

TANDEM_DUTY = """\
- id: fzs-tandem-001
  description: "An open double of an earlier turn binds the mover: no play on the Mexican Train"
  clauses: [DBL-6]
  source: [pagat]
  note: >-
    [4-4] on seat 1's train, laid on an earlier turn, is open. Seat 0 holds [6-3] (fits
    the Mexican Train's 6) and [1-1], no 4: every other train is closed to it (DBL-6), so
    it draws (TURN-2), whether a double asked its layer for another tile or not. Seat 1
    holds [4-0]: a hand can cover [4-4], so no release is near (DBL-9).
  table:
    engine: 12
    seat: 0
    starter: 1
    hands:
      0: [6-3, 1-1]
      1: [2-2, 4-0]
    trains:
      0: [12-5]
      1: [12-4, 4-4]
      mexican: [12-6]
    open_doubles: [1]
    first_turns: []
  rules: rulesets/tandem.yaml
  expect:
    - variants: [tandem]
      legal: [draw]
"""
"""tandem's `allows play (DBL-6)` (tests/examples/tandem_engine.py, bug 2) as fuzz
shrinks it: a duty to cover, and a tile for the Mexican Train. Worked by hand (the note)."""

ESCAPE = '''\
from mtrain.conformance.adapter import ReferenceImplementation


class Escape(ReferenceImplementation):
    """The reference, but a player bound to cover an open double may play on the Mexican
    Train instead (tandem's bug 2)."""

    def legal(self, ruleset, state):
        out = super().legal(ruleset, state)
        if state["open_doubles"] and out == [{"type": "draw"}]:
            end = str(state["mexican"]["end"])
            tiles = [t for t in state["hands"][state["seat"]] if end in t.split("-")]
            out = [{"type": "play", "tile": t, "train": "mexican"} for t in tiles] or out
        return out


class Fixed(ReferenceImplementation):
    pass
'''


def _tandem_corpus(tmp_path: Path) -> Path:
    """The fixture and the rule-set file fuzz writes beside it: tandem's, `doubles: open`
    standing in for its own doubles rule."""
    rules = (EXAMPLES / "tandem-rules.yaml").read_text(encoding="utf-8")
    folder = tmp_path / "corpus"
    (folder / "rulesets").mkdir(parents=True)
    (folder / "rulesets" / "tandem.yaml").write_text(
        rules.replace("doubles: other", "doubles: open"), encoding="utf-8")
    (folder / "duty.yaml").write_text(TANDEM_DUTY, encoding="utf-8")
    return folder


def _conform(tmp_path: Path, folder: Path, adapter: str) -> dict[str, Any]:
    engine_file = tmp_path / "escape_engine.py"
    engine_file.write_text(ESCAPE, encoding="utf-8")
    out = tmp_path / f"{adapter}.json"
    main(["conform", "--adapter", f"{engine_file}:{adapter}", "--rules",
          str(EXAMPLES / "tandem-rules.yaml"), "--fixtures", str(folder), "--format", "json",
          "--output", str(out)])
    report: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return report


def test_a_duty_under_a_doubles_rule_of_ones_own_runs_in_conform(tmp_path: Path) -> None:
    """Under `doubles: other` the table's open double was read only by the model's
    reachability (REACH-ORDINARY: ordinary doubles never have one) and the open-doubles
    invariant: whether the table exists, never what happens on it, which is the duty
    (DBL-6; selection.unreached asks the existence of every reading). So the entry runs
    (before: not applicable, `its outcome depends on doubles`): a correct engine passes,
    one that lets the bound player escape to the Mexican Train fails, charged DBL-6."""
    folder = _tandem_corpus(tmp_path)
    fixed = _conform(tmp_path, folder, "Fixed")["results"]
    assert [(r["fixture"], r["status"]) for r in fixed] == [("fzs-tandem-001", "pass")]
    escape = _conform(tmp_path, folder, "Escape")["results"]
    assert [(r["fixture"], r["status"]) for r in escape] == [("fzs-tandem-001", "fail")]
    assert escape[0]["charged"] == ["DBL-6"], escape[0]


def test_a_laid_double_under_a_doubles_rule_of_ones_own_stays_not_applicable(
        tmp_path: Path) -> None:
    """What the doubles rule decides stays its own: a step that lays a double (whether it
    asks for another tile, DBL-1) reads it, and the entry is not run."""
    folder = _tandem_corpus(tmp_path)
    text = (TANDEM_DUTY.replace("0: [6-3, 1-1]", "0: [6-3, 6-6]")
            .replace("open_doubles: [1]", "open_doubles: []")
            .replace("1: [12-4, 4-4]", "1: [12-4]")
            .replace("legal: [draw]", "legal: [play 6-6 on mexican, play 6-3 on mexican]")
            .replace("  expect:", "  steps: [play 6-6 on mexican]\n  expect:"))
    text = text.replace("    - variants: [tandem]\n      legal: [play 6-6 on mexican, "
                        "play 6-3 on mexican]",
                        "    - variants: [tandem]\n      state: {phase: follow}")
    (folder / "duty.yaml").write_text(text, encoding="utf-8")
    fixed = _conform(tmp_path, folder, "Fixed")["results"]
    assert [(r["fixture"], r["status"]) for r in fixed] == [("fzs-tandem-001", "not-applicable")]
    assert "doubles" in fixed[0]["message"], fixed[0]


# --- the fields a table of one's own leaves ---------------------------------------------

OWN_TABLE_RULES = """\
name: bigdeal
base: pagat
options:
  hand_sizes: {2: 15, 3: 14, 4: 13, 5: 12, 6: 11, 7: 10, 8: 9}
"""
"""pagat with railyard's table (tests/examples/railyard-rules.yaml): one tile more each."""

SEATS = '''\
from mtrain.conformance.adapter import ReferenceImplementation


class WrongStarter(ReferenceImplementation):
    """The reference, but a deal names the next seat as the round's starter and mover."""

    def deal(self, ruleset, players, round, order, draw=None):
        state = super().deal(ruleset, players, round, order, draw)
        return {**state, "starter": (state["starter"] + 1) % players,
                "seat": (state["seat"] + 1) % players}


class Fixed(ReferenceImplementation):
    pass
'''


def _own_table_run(tmp_path: Path, adapter: str) -> dict[str, Any]:
    rules = tmp_path / "bigdeal.yaml"
    rules.write_text(OWN_TABLE_RULES, encoding="utf-8")
    engine_file = tmp_path / "seats_engine.py"
    engine_file.write_text(SEATS, encoding="utf-8")
    out = tmp_path / f"{adapter}.json"
    main(["conform", "--adapter", f"{engine_file}:{adapter}", "--rules", str(rules),
          "--fixtures", str(FIXTURES / "engine" / "engine.yaml"), "-k", "engine-004",
          "--format", "json", "--output", str(out)])
    report: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return report


def test_a_deal_under_a_table_of_ones_own_checks_what_the_table_leaves(
        tmp_path: Path) -> None:
    """engine-004 (a reversed 3-player deal under pagat) expects seat 0's 14 tiles, the
    boneyard's 46, the hand sizes, and seat 0 to move and to start. Under a table of 14
    tiles each the first three are the table's; the seat and the starter are not (the
    holder of [12-12] starts, SEAT-2, however many tiles each gets). So those two run
    (before: the whole entry not applicable): a correct engine passes, one that names
    the wrong starter fails."""
    fixed = _own_table_run(tmp_path, "Fixed")["results"]
    assert [(r["fixture"], r["status"]) for r in fixed] == [("engine-004", "pass")], fixed
    wrong = _own_table_run(tmp_path, "WrongStarter")["results"]
    assert [(r["fixture"], r["status"]) for r in wrong] == [("engine-004", "fail")], wrong
    assert any("starter" in m for m in wrong[0]["messages"]), wrong[0]["messages"]


def test_the_fields_kept_are_the_ones_the_table_leaves() -> None:
    """Which fields: the seat and the starter, not the hand, the hand sizes or the
    boneyard, which 14 tiles each change (worked in engine-004's note: 14 + 15 + 15 and
    46 left under pagat's 13 each)."""
    import tempfile

    from mtrain.conformance.table_alone import own_table_entry
    from mtrain.spec.catalog import catalog
    from mtrain.spec.scope import Space

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bigdeal.yaml"
        path.write_text(OWN_TABLE_RULES, encoding="utf-8")
        rs = catalog().rules_file(str(path))
    fx = next(f for f in load_file(FIXTURES / "engine" / "engine.yaml") if f.id == "engine-004")
    cut = own_table_entry(fx.expect[0], fx, rs, Space())
    assert cut is not None and sorted(cut.state) == ["seat", "starter"], cut
