"""Fuzz on house-rule engines (session 46): one finding per bug, and a reproducer conform
runs where the step that showed it is decided by rules of one's own.

- viaduct's blocked round scored at face value (tests/examples/viaduct_engine.py, bug 2,
  SCORE-6) was found by fuzz as `score (blocked)` with no reproducer conform runs: its
  blocked ends had an open double, whose binding is its `uncoverable_double: other`, so
  conform would not run the step that ends the round. The table before that step is now
  asked alone, by an entry with `blocked_scores` and no step (a `score` request naming no
  winner), which conform runs and the engine fails.
- tandem's blank pair (tests/examples/tandem_engine.py, bug 3: [0-0] counted 25 under
  blank-25, SCORE-2) showed as two findings: the round's end (its reproducer named the
  scoring's SCORE-5 but not the blank values' SCORE-2, so conform charged it SCORE-5) and
  the `score` answer (charged SCORE-2). Both reproducers now name the scoring clauses in
  force, conform charges both SCORE-2, and they fold into one.

The in-process adapters below carry the bugs on the reference, so that each run is short;
their expected values are the rules' (SCORE-2, SCORE-6), not the code's output.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from test_fuzz_own_rules import rules_file

from mtrain.cli import main
from mtrain.conformance import fuzz as F
from mtrain.conformance.adapter import JSON, ReferenceImplementation
from mtrain.conformance.bracket_alone import bracketed_entry, bracketed_options
from mtrain.conformance.fixture import Fixture, load_file
from mtrain.conformance.fuzz import rulesets, steer
from mtrain.conformance.fuzz.findings import Group, one_per_bug
from mtrain.conformance.fuzz.judge import Disagreement, Probe
from mtrain.conformance.fuzz.results import Occurrence
from mtrain.conformance.fuzz.tables import splices, written
from mtrain.conformance.partition import applies
from mtrain.conformance.runner import run_one
from mtrain.conformance.selection import entry_for
from mtrain.reference.engine import hand_value
from mtrain.spec.catalog import catalog
from mtrain.spec.scope import Space
from mtrain.spec.yamlload import SpecErrors

BLANKS_25 = "pagat+blanks-25"
SPACE = Space()


@pytest.fixture
def unsteered(monkeypatch: pytest.MonkeyPatch) -> None:
    """No game steered toward a blocked end (fuzz/steer.py, session 47): the games these
    tests were measured on, whose blocked ends keep an open double. Steered play lays
    doubles last, and its blocked ends, with none open, get reproducers with a step."""
    monkeypatch.setattr(steer, "STEER_SHARE", 0.0)


@pytest.fixture
def stays_open(monkeypatch: pytest.MonkeyPatch) -> None:
    """An uncoverable double of one's own stood in for by stays-open, the first value in
    the catalogue's order, as these tests were measured (fuzz stands in the value most
    shipped variants play since session 52, `released`, whose blocked ends keep no open
    double: the case below, viaduct's, is one its stand-in leaves open)."""
    first = {o: next(v for v in catalog().options[o].values if v != "other")
             for o in catalog().options}
    monkeypatch.setattr(rulesets, "commonest", first.__getitem__)
    monkeypatch.delitem(rulesets._OWN, "own-blocked", raising=False)


class BlockedPips(ReferenceImplementation):
    """viaduct's bug 2 alone: `score` with no winner gives each hand's pips."""

    def score(self, ruleset: JSON, state: JSON, winner: int | None) -> list[int]:
        if winner is not None:
            return super().score(ruleset, state, winner)
        st = self.state(ruleset, state)
        return [hand_value(st, s) for s in range(st.players)]


def test_a_blocked_end_an_own_rule_decides_gets_a_reproducer_conform_runs(
        tmp_path: Path, unsteered: None, stays_open: None) -> None:
    """viaduct's case: positive scoring, its own blocked round and uncoverable double. In
    8 games (seed 0) a blocked end is reached with an open double on the table; its
    `score` answer is a finding whose reproducer is the table before the last step with a
    `blocked_scores` entry (SCORE-6: nobody scores) and no step, checked by fuzz (conform
    runs it under the rules of one's own, the reference passes it, the engine fails it)."""
    name = rules_file(tmp_path, "own-blocked", scoring="positive", blocked_round="other",
                      uncoverable_double="other")
    report = F.fuzz(F.Target.of(BlockedPips(), "blocked-pips"), [name], 8, 0,
                    out=tmp_path / "on")
    assert [g.signature for g in report.groups] == ["score (blocked)"]
    (found,) = report.groups
    assert found.problems == [] and found.path is not None and found.path.exists()
    assert found.charged == ("SCORE-6",)
    (written,) = yaml.safe_load(found.path.read_text(encoding="utf-8"))
    assert "steps" not in written
    (entry,) = written["expect"]
    players = len(written["table"]["hands"])
    assert entry["blocked_scores"] == [0] * players  # SCORE-6: a blocked round, 0 each
    # what conform runs of it: the reference passes, the engine with the bug fails
    (fx,) = load_file(str(found.path), found.path.read_text(encoding="utf-8"))
    ctx = F.context(name)
    assert run_one(fx, ctx.rs, fx.expect[0], ReferenceImplementation()).status == "pass"
    assert run_one(fx, ctx.rs, fx.expect[0], BlockedPips()).status == "fail"


def _pair_short(hands: list[list[str]]) -> list[int]:
    """What tandem's bug takes off each hand: [0-0] is 25, not 50 (SCORE-2: each blank
    end 25)."""
    return [25 if "0-0" in hand else 0 for hand in hands]


class BlankPair(ReferenceImplementation):
    """tandem's bug 3 alone, under penalty scoring with blank-25: the double blank left in
    a hand counts 25, at the round's end and in `score` alike."""

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        after = super().apply(ruleset, state, action)
        if after["phase"] != "over" or not isinstance(after.get("result"), dict):
            return after
        short = _pair_short(after["hands"])
        result: dict[str, Any] = dict(after["result"])
        result["scores"] = [s - k for s, k in zip(result["scores"], short, strict=True)]
        totals = [t - k for t, k in zip(after["scores"], short, strict=True)]
        return {**after, "result": result, "scores": totals}

    def score(self, ruleset: JSON, state: JSON, winner: int | None) -> list[int]:
        scores = super().score(ruleset, state, winner)
        return [s - k for s, k in zip(scores, _pair_short(state["hands"]), strict=True)]


def test_a_blank_pair_at_a_rounds_end_and_in_score_is_one_finding(tmp_path: Path) -> None:
    """One bug (SCORE-2), asked by the step that ends the round and by `score`: both
    reproducers charged SCORE-2, folded into one finding (two before: SCORE-5 and
    SCORE-2)."""
    report = F.fuzz(F.Target.of(BlankPair(), "blank-pair"), [BLANKS_25], 12, 1,
                    out=tmp_path / "on")
    assert len(report.groups) == 1, [(g.signature, g.charged) for g in report.groups]
    (found,) = report.groups
    assert found.charged == ("SCORE-2",) and found.problems == []
    assert any(s.startswith("score (") for s in found.signatures), found.signatures
    assert any(s.startswith("round end") for s in found.signatures), found.signatures


ESCAPE = '''
from mtrain.conformance.adapter import ReferenceImplementation


class Escape(ReferenceImplementation):
    """Markers off when anyone plays on the train (its own marker rule), and a bug: a
    double's follow-up may open the Mexican Train from an empty own train (FIRST-10)."""

    def rules(self, ruleset):
        options = {**ruleset["options"], "marker_removal": "anyone-plays-on",
                   "mexican_first_turn": "anyone"}
        return super().rules({**ruleset, "options": options})
'''
OWNMEX = Path(__file__).parent.parent / "conformance" / "fixtures" / "first-turn" / \
    "own-train-mexican-extra.yaml"


def test_a_marker_rule_of_ones_own_is_no_departure_and_a_start_of_ones_own_keeps_the_cut(
        tmp_path: Path) -> None:
    """ownmex-001 under a marker rule and a start of one's own (its table writes no
    starter): its follow-up may not open the Mexican Train (FIRST-10) whichever marker came
    off and whoever started. It was not applicable (the cut refused a start of one's own);
    now it runs without `marked`, and the engine that opens the Mexican Train there fails
    it charged FIRST-10, its diagnosis naming no `marked` (its own rule took seat 1's
    marker off: no departure)."""
    rules = tmp_path / "own-markers.yaml"
    rules.write_text("name: own-markers\nbase: pagat\noptions:\n  marker_removal: other\n"
                     "  starting_seat: other\n  mexican_first_turn: own-train-started\n",
                     encoding="utf-8")
    (tmp_path / "escape.py").write_text(ESCAPE, encoding="utf-8")
    out = tmp_path / "report.json"
    main(["conform", "--adapter", f"{tmp_path / 'escape.py'}:Escape", "--rules", str(rules),
          "--fixtures", str(OWNMEX), "-k", "ownmex-001", "--format", "json",
          "--output", str(out)])
    (result,) = [r for r in json.loads(out.read_text(encoding="utf-8"))["results"]
                 if r["fixture"] == "ownmex-001"]
    assert result["status"] == "fail", result
    assert result["charged"] == ["FIRST-10"], result
    assert not any("marked" in m for m in result["messages"]), result["messages"]


FOLLOW_FAIL = Path(__file__).parent.parent / "conformance" / "fixtures" / "doubles" / \
    "follow-fail.yaml"


def corpus_fixture(fid: str) -> Fixture:
    """A fixture of doubles/follow-fail.yaml (that file alone read: the corpus costs 2 s)."""
    text = FOLLOW_FAIL.read_text(encoding="utf-8")
    return next(fx for fx in load_file(str(FOLLOW_FAIL), text) if fx.id == fid)


def test_an_entry_the_known_follow_ups_bracket_runs_under_one_of_ones_own(
        tmp_path: Path) -> None:
    """doubles-020: nothing in hand fits any train the player may use, so whatever the
    tile after a double may go on (from the double alone, cover-own, to anywhere), the
    player must draw (DBL-5). Under `follow_up: other` it was not applicable; both ends
    of the bracket give it, so it runs as it is. doubles-022, whose drawn tile fits the
    Mexican Train only, is played under anywhere and a pass under cover-own: it stays
    not applicable."""
    rules = tmp_path / "own-follow.yaml"
    rules.write_text("name: own-follow\nbase: pagat\noptions:\n  follow_up: other\n",
                     encoding="utf-8")
    rs = catalog().rules_file(str(rules))
    fx = corpus_fixture("doubles-020")
    exp, why = entry_for(fx, rs, SPACE)
    assert why is None and exp is fx.expect[0]
    exp, why = entry_for(corpus_fixture("doubles-022"), rs, SPACE)
    assert exp is None and why is not None and "follow_up (played its own way)" in why


def test_the_follow_up_cut_under_cantinas_rules_and_the_reasons_it_takes() -> None:
    """cantina (its scoring of its own besides, which doubles-020 does not read): the entry
    is cut whole; a reason that names another rule played its own way besides the
    follow-up (other than what a round's end is worth) is no follow-up cut's."""
    fx = corpus_fixture("doubles-020")
    rs = catalog().rules_file(str(Path(__file__).parent / "examples" / "cantina-rules.yaml"))
    whole = bracketed_entry(fx.expect[0], fx, rs, SPACE, frozenset(("follow_up",)))
    assert whole is fx.expect[0]
    assert bracketed_options("its outcome depends on follow_up (played its own way)") == {
        "follow_up"}
    assert bracketed_options("its outcome depends on follow_up (played its own way), "
                             "draw_rule (played its own way)") == frozenset()


def _group(signature: str, charged: tuple[str, ...], clauses: tuple[str, ...],
           tmp_path: Path) -> Group:
    occ = Occurrence(Probe("apply", "pagat"), Disagreement(signature, (), clauses=clauses),
                     0, 1, 1, 4)
    g = Group(signature, 3, occ, occ, ["pagat"], charged=charged)
    if charged:  # a reproducer checked and charged
        g.path = tmp_path / f"{signature.replace(' ', '-')}.yaml"
        g.path.write_text("[]\n", encoding="utf-8")
    return g


def test_a_finding_with_no_reproducer_folds_into_the_charged_one_its_step_names(
        tmp_path: Path) -> None:
    """viaduct's blocked round scored at face value, seen where its own blocked rule ended
    the round (`round end: INV-ROUND-SCORE`, no reproducer: no fixture asks a move only its
    own rules end a round on), beside its `score (blocked)` charged SCORE-6: one bug. A
    scores finding whose step names another scoring clause first stays apart."""
    charged = _group("score (blocked)", ("SCORE-6",), ("SCORE-6", "SCORE-1"), tmp_path)
    own_end = _group("round end: INV-ROUND-SCORE", (), ("TURN-4", "MARK-1", "SCORE-6"),
                     tmp_path)
    other = _group("round end: result.scores", (), ("END-1", "SCORE-5"), tmp_path)
    out = one_per_bug([own_end, charged, other])
    assert out == [charged, other]
    assert charged.also == [("round end: INV-ROUND-SCORE", 3)]
    assert charged.unasked == ["round end: INV-ROUND-SCORE"] and charged.count == 6


BLOCKED_SCORES = '''- id: bs46-001
  description: "The hands as a blocked round's scores, asked of a table alone"
  clauses: [SCORE-5]
  source: [decision]
  note: SCORE-5, penalty scoring; a blocked round scores each hand's pips, 3 + 1 = 4 and
    6 + 6 = 12.
  table:
    hands:
      0: [3-1]
      1: [6-6]
    boneyard: [rest]
  expect:
    - variants: [pagat]
      blocked_scores: %s
'''


def test_blocked_scores_is_a_fixture_key_and_a_bad_one_names_its_line() -> None:
    """The form fuzz writes (a `score` request naming no winner, no step): read into the
    entry, one check; a value that is no list of counts is an error at its line."""
    (fx,) = load_file("bs.yaml", BLOCKED_SCORES % "[4, 12]")
    assert fx.expect[0].blocked_scores == (4, 12) and fx.expect[0].checks == 1
    pagat = F.context("pagat").rs
    assert run_one(fx, pagat, fx.expect[0], ReferenceImplementation()).status == "pass"
    for bad, said in (("[4, x]", "bs.yaml:14: [0].expect[0].blocked_scores[1]: expected an "
                                 "integer"),
                      ("4", "bs.yaml:14: [0].expect[0].blocked_scores: expected a list")):
        with pytest.raises(SpecErrors, match=re.escape(said)):
            load_file("bs.yaml", BLOCKED_SCORES % bad)


def test_an_entry_both_own_train_rules_give_runs_under_one_of_ones_own(
        tmp_path: Path) -> None:
    """first-018 under pagat: the starter's opening move goes on its own train (FIRST-2),
    whether or not one's own train comes first (TRAIN-7): both ends of the bracket give it,
    so under `own_train_first: other` it runs (it was not applicable). first-022, where
    seat 1 may use the Mexican Train under not-required and not under required, runs with
    every action it lists left to the engine's rule (since session 64: it was not
    applicable, and an action both ends refuse, offered, passed unjudged)."""
    rules = tmp_path / "own-train.yaml"
    rules.write_text("name: own-train\nbase: pagat\noptions:\n  own_train_first: other\n",
                     encoding="utf-8")
    rs = catalog().rules_file(str(rules))
    path = FOLLOW_FAIL.parent.parent / "first-turn" / "single.yaml"
    fixtures = {fx.id: fx for fx in load_file(str(path), path.read_text(encoding="utf-8"))}
    fx = fixtures["first-018"]
    assert any(applies(e, fx, rs, SPACE) == "its outcome depends on own_train_first "
               "(played its own way)" for e in fx.expect)
    exp, why = entry_for(fx, rs, SPACE)
    assert why is None and exp is not None and exp in fx.expect
    exp, why = entry_for(fixtures["first-022"], rs, SPACE)
    assert exp is not None and why is None
    assert exp.own_actions == ("draw", "play 1-0 on mexican", "play 5-2 on 0")
    assert exp.legal is not None and set(exp.legal) <= set(exp.own_actions)


def test_splices_cut_a_loop_out_of_a_train_or_relay_a_stretch_shorter() -> None:
    """A double-6 table whose train 0 is 6-2, 2-3, 3-5, 5-2, 2-4 and whose one tile not
    written is [6-3]. The stretch 2-3, 3-5, 5-2 leaves 2 and comes back to it: cut out
    first. Then, from the engine's 6, the stretch to the 3 (6-2, 2-3) relays as [6-3]; no
    other has a shorter way ([6-3] leads from 6 to 3 and no further); the last tile
    stays."""
    train = ["6-2", "2-3", "3-5", "5-2", "2-4"]
    used = {frozenset(map(int, t.split("-"))) for t in [*train, "6-3"]}
    others = [f"{a}-{b}" for a in range(7) for b in range(a + 1) if frozenset((a, b)) not in used]
    table: dict[str, Any] = {"engine": 6, "seat": 0, "starter": 0,
             "hands": {0: others[:11], 1: others[11:]}, "trains": {0: train}, "boneyard": []}
    found = list(splices(table, 0, 6))
    assert [t["trains"][0] for _, t in found] == [["6-2", "2-4"], ["6-3", "3-5", "5-2", "2-4"]]
    assert table["trains"][0] == train  # the table given is left as it was
    # from a later rank on, the loop (rank 1: a stretch of 3 of the 4 that may go) is not
    assert [t["trains"][0] for _, t in splices(table, 0, 6, found[0][0] + 1)] == [
        ["6-3", "3-5", "5-2", "2-4"]]


def test_a_blocked_ends_table_score_reproducer_is_shrunk_through_its_trains(
        tmp_path: Path, unsteered: None, stays_open: None) -> None:
    """The blocked end of the first test keeps an open double whose number every hand has
    run out of, so no train's tail comes off (each ends in a tile of that number, or the
    cut opens a number a hand holds): 37 tiles were written. Stretches inside the trains
    taken out or relaid shorter (tables.splices) keep the block and the disagreement: 24."""
    name = rules_file(tmp_path, "own-blocked", scoring="positive", blocked_round="other",
                      uncoverable_double="other")
    report = F.fuzz(F.Target.of(BlockedPips(), "blocked-pips"), [name], 8, 0,
                    out=tmp_path / "on")
    (found,) = report.groups
    assert found.path is not None and found.problems == [] and found.charged == ("SCORE-6",)
    (written_fx,) = yaml.safe_load(found.path.read_text(encoding="utf-8"))
    assert written(written_fx["table"])[0] <= 24


def test_score_failing_where_the_round_end_is_charged_alike_is_one_finding(
        tmp_path: Path) -> None:
    """The mutant blanks-scored-wrong raises on `score` ([0-0] at 25 makes the state's
    totals disagree) and ends the round with the wrong scores: both reproducers charged
    SCORE-2, one bug (two findings before). A failure on `score` charged elsewhere, and
    one on another request charged alike, stay apart."""
    raised = _group("exception on score (StateError)", ("SCORE-2",), ("SCORE-2",), tmp_path)
    end = _group("round end: INV-ROUND-SCORE", ("SCORE-2",), ("SCORE-5", "SCORE-2"),
                 tmp_path)
    apart = _group("crash on score", ("SCORE-6",), ("SCORE-6",), tmp_path)
    other = _group("exception on apply (StateError)", ("SCORE-2",), ("SCORE-2",), tmp_path)
    late = _group("timeout on score", ("SCORE-2",), ("SCORE-2",), tmp_path)
    end_file = end.path
    out = one_per_bug([raised, end, apart, other, late])
    assert out == [raised, apart, other, late]
    assert raised.also == [("round end: INV-ROUND-SCORE", 3)] and raised.count == 6
    assert end_file is not None and not end_file.exists()  # its reproducer folded away


def test_the_mutant_blanks_scored_wrong_is_one_finding(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """12 games (seed 1): 7 of its `score` raising and 7 round ends, charged SCORE-2
    both, reported as one finding with one reproducer (two of each before)."""
    code = main(["fuzz", "--mutant", "blanks-scored-wrong", "--games", "12", "--seed", "1",
                 "--out", str(tmp_path / "out"), "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 1
    (found,) = report["findings"]
    assert found["signature"] == "exception on score (StateError)"
    assert found["charged"] == ["SCORE-2"] and found["problems"] == []
    assert [a["signature"] for a in found["also"]] == ["round end: INV-ROUND-SCORE"]
    assert len(list((tmp_path / "out").glob("*.yaml"))) == 1
