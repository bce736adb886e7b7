"""fuzz under rules of one's own: a rule-set file (`--rules`) with a table of its own and
options played `other`. The reference plays a known stand-in for each `other` option and
judges only the answers that none of them decides (fuzz/own_rules.py); the engines here
play a rule the stand-in does not, honestly, so any finding about it would be false."""

from __future__ import annotations

import json
import re
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from shared_runs import GONDOLA_FOUR_GAMES, SharedRuns

from mtrain.cli import main
from mtrain.conformance import fuzz as F
from mtrain.conformance.adapter import JSON, ReferenceImplementation, Refused
from mtrain.conformance.fixture import load_file
from mtrain.conformance.fuzz.rulesets import declared_context
from mtrain.conformance.fuzz.run import LISTED_OWN
from mtrain.conformance.lint import lint
from mtrain.reference.rules import Rules
from mtrain.spec.catalog import catalog

HERE = Path(__file__).parent
EXAMPLES = HERE / "examples"
sys.path.insert(0, str(EXAMPLES))
from house_engine import HouseEngine  # noqa: E402

# shrinking bounded by a count of candidates, not by seconds: the same cut at any load
# (a run that needed fewer stops where it would with no bound)
SHRINK: dict[str, Any] = {"shrink_seconds": None, "shrink_tries": 400}
# the same on the command line, where the seconds (a bound far above the need) stay
SHRINK_ARGS = ("--shrink-tries", "400", "--shrink-seconds", "600")


def rules_file(tmp_path: Path, name: str, **options: object) -> str:
    """A rule-set file on pagat (its options written as given) and the name fuzz plays."""
    lines = [f"name: {name}", "base: pagat", "options:"]
    lines += [f"  {o}: {v}" for o, v in options.items()]
    path = tmp_path / f"{name}.yaml"
    path.write_text("\n".join(lines) + "\n")
    return declared_context(catalog().rules_file(str(path))).name


class SingleStarter(ReferenceImplementation):
    """Plays a first turn of one tile whatever the request says: honest, with a first
    turn that the stand-in (a chain) does not play."""

    def rules(self, ruleset: JSON) -> Rules:
        options = {**ruleset["options"], "first_turn": "single"}
        return super().rules({**ruleset, "options": options})


GAMES = 10
"""Games the house engine plays under its file and under the control's (the same seed)."""


@pytest.mark.slow  # ~0.6 CPU s; the house engine's control (declared known) stays fast
def test_the_house_engine_its_bug_found_its_house_rule_not_judged(tmp_path: Path) -> None:
    """The planted bug (tests/examples/house_engine.py) is the only finding, under the
    clause that allows each missing play (the moment's: an ordinary turn, TRAIN-4; a drawn
    tile, TURN-3; a follow-up, DBL-2); the tie rule declared `other` is not judged; nine
    games in ten are played. GAMES games of seed 0, as in the control below, whose same
    deals hold a tied round (it finds one within 5; 40 games: 2.2 CPU s, 10: 0.6)."""
    name = declared_context(catalog().rules_file(str(EXAMPLES / "house-rules.yaml"))).name
    impl = HouseEngine()
    report = F.fuzz(F.Target.of(impl, "house"), F.Chooser([name]), GAMES, 0,
                    out=tmp_path, impl=impl)
    assert report.new and all(re.fullmatch(r"forbids play \((TRAIN-4|TURN-3|DBL-2)\)",
                                           g.signature) for g in report.new), report.new
    assert report.games >= GAMES * 9 // 10 and report.not_applicable == 0
    for group in report.new:
        assert group.problems == [] and group.path is not None
        fx = load_file(group.path)[0]
        # the reproducer expects a double on the Mexican Train among the legal actions
        assert re.search(r"play (\d+)-\1 on mexican", str(fx.expect[0])), fx.expect[0]
        assert lint(group.path).errors == []


def test_the_same_tie_rule_declared_known_is_a_finding(tmp_path: Path) -> None:
    """The control: declared `shared` instead of `other`, the house tie rule is found
    (so it is the declaration, not chance, that kept it out of the findings above)."""
    name = rules_file(tmp_path, "house-shared", tie_rule="shared",
                      hand_sizes="{2: 15, 3: 15, 4: 15, 5: 12, 6: 12, 7: 10, 8: 10}")
    impl = HouseEngine()
    report = F.fuzz(F.Target.of(impl, "house"), F.Chooser([name]), GAMES, 0,
                    out=tmp_path / "out", impl=impl)
    assert "winners" in {g.signature for g in report.new}


def test_an_honest_engine_with_a_first_turn_of_its_own(tmp_path: Path) -> None:
    name = rules_file(tmp_path, "own-first-turn", first_turn="other")
    impl = SingleStarter()
    report = F.fuzz(F.Target.of(impl, "single"), F.Chooser([name]), 30, 1,
                    out=tmp_path / "out", impl=impl)
    assert report.groups == []
    assert report.games == 30 and sum(report.cut.values()) <= 3
    assert report.own.get("first_turn", 0) > 100  # first turns are asked, not judged
    assert report.steps > 30 * 40  # and the games go on past them


def test_the_same_engine_declared_with_a_wrong_known_value_is_found(tmp_path: Path) -> None:
    name = rules_file(tmp_path, "chain-first-turn", first_turn="chain")
    impl = SingleStarter()
    report = F.fuzz(F.Target.of(impl, "single"), F.Chooser([name]), 10, 1,
                    out=tmp_path / "out", impl=impl, **SHRINK)
    assert report.new


STAND_IN = ReferenceImplementation()


class OwnTrainDrawBug(ReferenceImplementation):
    """Starts its own train first (`own_train_first: required`, which the file declares
    `other`), with one planted bug: a draw that rule alone allows (a tile fits the Mexican
    Train, none the empty own train, so the stand-in `not-required` refuses the draw)
    leaves the drawn tile in the boneyard too, a tile in two places (INV-CONSERVATION)."""

    def rules(self, ruleset: JSON) -> Rules:
        options = {**ruleset["options"], "own_train_first": "required"}
        return super().rules({**ruleset, "options": options})

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        after = super().apply(ruleset, state, action)
        if action.get("type") != "draw":
            return after
        stand_in = {**ruleset["options"], "own_train_first": "not-required"}
        try:
            STAND_IN.apply({**ruleset, "options": stand_in}, state, action)
        except Refused:  # the bug: the drawn tile stays in the boneyard
            return {**after, "boneyard": state["boneyard"]}
        return after


def test_a_broken_state_after_a_move_of_its_own_rules_only_is_a_finding(
        tmp_path: Path) -> None:
    """A move only the engine's own rules allow is played on from its state; a state that
    breaks an invariant there (which reads no rule of its own) is a finding, named as any
    broken state after a draw, listed without a reproducer since the reference refuses the
    draw (it was only a note that the game ended early)."""
    from mtrain.commands.fuzz import report_json

    name = rules_file(tmp_path, "own-train-other", own_train_first="other")
    impl = OwnTrainDrawBug()
    target = F.Target.of(impl, "own-train")
    report = F.fuzz(target, F.Chooser([name]), 10, 1, out=tmp_path / "out", impl=impl,
                    **SHRINK)
    assert [g.signature for g in report.new] == ["after draw: INV-CONSERVATION"], report.new
    [group] = report.new
    assert group.best.disagreement.own == ("own_train_first",)
    assert group.path is None and group.shrunk is None
    assert group.problems == ["no reproducer: the reference refuses `draw` (only its own "
                              "rules allow it: own_train_first), so no fixture can ask it "
                              "again"]
    assert any("tiles in two places" in m for m in group.best.disagreement.messages)
    assert list((tmp_path / "out").glob("*.yaml")) == []
    # each game it ends is still said to end early, and why
    assert report.cut and all("not one to play on (INV-CONSERVATION)" in k for k in report.cut)
    assert sum(report.cut.values()) == group.count
    [finding] = json.loads(json.dumps(report_json(report, target, 1)))["findings"]
    assert finding["reproducer"] is None and finding["shrink"] is None
    assert finding["problems"] == group.problems


class OwnTrainDrawCrash(OwnTrainDrawBug):
    """As OwnTrainDrawBug, but the draw only its own rule allows raises instead."""

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        after = ReferenceImplementation.apply(self, ruleset, state, action)
        if action.get("type") != "draw":
            return after
        stand_in = {**ruleset["options"], "own_train_first": "not-required"}
        try:
            STAND_IN.apply({**ruleset, "options": stand_in}, state, action)
        except Refused:
            raise RuntimeError("the boneyard's index ran out") from None
        return after


def test_a_failure_on_a_move_of_its_own_rules_only_is_a_finding(tmp_path: Path) -> None:
    """A crash on a move only the engine's own rules allow is a failure whatever the rules:
    a finding named as any failure on apply, listed without a reproducer (it was only a
    note that the game ended early)."""
    name = rules_file(tmp_path, "own-train-other", own_train_first="other")
    impl = OwnTrainDrawCrash()
    report = F.fuzz(F.Target.of(impl, "own-train"), F.Chooser([name]), 10, 1,
                    out=tmp_path / "out", impl=impl, **SHRINK)
    [group] = report.new
    assert group.signature == "exception on apply (RuntimeError)"
    assert group.best.disagreement.messages == (
        "apply() raised RuntimeError: the boneyard's index ran out",)
    assert group.best.disagreement.own == ("own_train_first",)
    assert group.path is None and group.problems[0].startswith("no reproducer: ")
    assert report.cut and all("an answer that failed" in k for k in report.cut)
    assert sum(report.cut.values()) == group.count


def test_fuzz_rules_on_the_command_line(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    from test_fuzz import run_cli

    code = run_cli("--adapter", f"{EXAMPLES / 'house_engine.py'}:HouseEngine", "--rules",
                   str(EXAMPLES / "house-rules.yaml"), "--games", "3", "--out",
                   str(tmp_path), *SHRINK_ARGS)
    out = capsys.readouterr().out
    assert code == 1, out
    # the planted bug shows in game 0 (seed 0): three games, not twelve, tell the file read
    assert "forbids play (" in out and "3 games" in out


def test_a_bad_rules_file_is_a_clear_error(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    from mtrain.cli import main

    bad = tmp_path / "bad.yaml"
    bad.write_text("name: bad\nbase: pagat\noptions:\n  tie_rule: lowest-seats\n")
    code = main(["fuzz", "--adapter", f"{EXAMPLES / 'house_engine.py'}:HouseEngine", "--rules",
                 str(bad), "--games", "1", "--out", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 2 and "bad.yaml:4" in err and "lowest-seats" in err, err


@pytest.mark.slow  # two fuzz runs with shrinking, ~4.5 CPU s; --rules FILE is in the fast loop
def test_a_variant_that_is_a_file_is_read_as_rules(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """`--variant FILE` reads the file as --rules does (it once ended in a traceback); a
    shipped example's file plays under the example's name, so reproducers can name it."""
    from test_fuzz import run_cli

    engine = f"{EXAMPLES / 'house_engine.py'}:HouseEngine"
    code = run_cli("--adapter", engine, "--variant", str(EXAMPLES / "house-rules.yaml"),
                   "--games", "3", "--out", str(tmp_path / "a"), *SHRINK_ARGS)
    assert code == 1 and "3 games of house-rules" in capsys.readouterr().out
    example = HERE.parent / "docs" / "examples" / "double-18.yaml"
    code = run_cli("--adapter", engine, "--variant", str(example), "--games", "2",
                   "--out", str(tmp_path / "b"), *SHRINK_ARGS)
    assert "2 games of double-18," in capsys.readouterr().out
    written = [load_file(p)[0] for p in (tmp_path / "b").glob("*.yaml")]
    assert written and all(fx.expect[0].scope.variants == ("double-18",) for fx in written)


@pytest.mark.slow  # ~0.5 CPU s; a reproducer under a table of its own: test_fuzz's
def test_a_deal_reproducer_under_a_table_of_its_own(tmp_path: Path) -> None:
    """HouseDealer's planted deal bug (15 tiles for 5 players where its table says 12):
    the reproducer reads the table, so it names a rule-set file written beside it (the
    table, and the stand-in for the `other` tie rule); it lints clean, passes against
    the reference and fails against the dealer, with no --rules given."""
    from house_engine import HouseDealer

    from mtrain.conformance.runner import run_fixture

    name = declared_context(catalog().rules_file(str(EXAMPLES / "house-rules.yaml"))).name
    impl = HouseDealer()
    report = F.fuzz(F.Target.of(impl, "dealer"), F.Chooser([name]), 6, 0, players=5,
                    out=tmp_path, impl=impl)
    deal = [g for g in report.new if g.signature.startswith("dealt state")]
    assert deal and deal[0].problems == [] and deal[0].path is not None
    fx = load_file(deal[0].path)[0]
    assert fx.rules is not None and Path(fx.rules).read_text().count("5: 12") == 1
    assert fx.expect[0].variants == ("house-rules",) and fx.deal is not None
    assert lint(tmp_path).errors == []
    assert [o.status for o in run_fixture(fx, ReferenceImplementation())] == ["pass"]
    assert [o.status for o in run_fixture(fx, HouseDealer())] == ["fail"]


RULES_FIXTURE = """\
- id: own-rules-001
  description: "a fixture naming a rule-set file for its table"
  clauses: [DEAL-1]
  source: [computation]
  rules: %s
  deal: {players: 5, order: sorted}
  expect:
    - variants: [house-table]
      state: {hand_sizes: [12, 12, 12, 12, 12]}
"""


@pytest.mark.parametrize("options, message", [
    (None, "file not found"),
    ("  hand_sizes: pagat\n", "plays a named hand table (pagat)"),
    ("  hand_sizes: {2: 15, 5: 12}\n  tie_rule: other\n", "plays tie_rule `other`"),
])
def test_a_rules_file_a_fixture_cannot_name(tmp_path: Path, options: str | None,
                                            message: str) -> None:
    from mtrain.spec.yamlload import SpecErrors

    if options is not None:
        (tmp_path / "table.yaml").write_text(f"name: house-table\nbase: pagat\noptions:\n"
                                             f"{options}")
    path = tmp_path / "fx.yaml"
    path.write_text(RULES_FIXTURE % "table.yaml")
    with pytest.raises(SpecErrors) as e:
        load_file(path)
    assert f"{path}:5" in str(e.value) and message in str(e.value), str(e.value)


@pytest.mark.slow  # a fuzz run against a program, ~4 CPU s
def test_a_broken_state_on_a_step_its_own_rules_decide_is_shrunk_and_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """tandem (tests/examples/tandem_engine.py) with only its scoring bug on (bug 3: [0-0]
    counted 25 under blank-25): a round it ends on a step its doubles rule of its own
    decides (`doubles: other`) breaks INV-ROUND-SCORE, whatever the rules. Play found it,
    but the shrinker's judge left every step its own rules decide unjudged, broken states
    included: "the disagreement did not show again when asked again", and no reproducer."""
    command = f"{sys.executable} {EXAMPLES / 'tandem_engine.py'} --fixed 1,2"
    capsys.readouterr()
    main(["fuzz", "--impl", command, "--rules", str(EXAMPLES / "tandem-rules.yaml"),
          "--games", "40", "--seed", "2", "--out", str(tmp_path / "out"), "--json"])
    report = json.loads(capsys.readouterr().out)
    # since fuzz asks the score of a round gone out (session 49), the same bug shows first
    # as a score; the broken state is then one of that finding's `also`, asked again and
    # shown (before: not shown again, as the step went unjudged)
    found = [f for f in report["findings"] if "INV-ROUND-SCORE" in f["signature"]
             or any("INV-ROUND-SCORE" in a["signature"] and a["reproduced"]
                    for a in f["also"])]
    assert found and all(f["problems"] == [] and f["reproducer"] for f in found), found
    for f in found:
        assert lint(Path(f["reproducer"])).errors == []


def test_signalbox_a_starting_seat_and_a_match_of_its_own(shared_runs: SharedRuns) -> None:
    """tests/examples/signalbox_engine.py, bugs on: its starting seat of its own (the
    most doubles leads) gave tables the stand-in's rotation could not reach
    (REACH-STARTER), so no finding could be asked again, shrunk or written; its eight-round
    match refused a later round's deal, reported as a finding (conform counts it not
    applicable), then ended the games that started after it at their deal (one of these
    four; 18 of 60), until the rounds its match has were asked before any game was planned
    (setups.match_rounds); and its plays kept off marked trains showed under the moment's
    clause (MARK-1, DBL-2, TURN-3, DBL-9: four findings of one bug) where conform charges
    TRAIN-4 (now two: one each way, allowed and forbidden). The first game, steered to a
    blocked end (plans.first_of_rule_set), shows it once more by a released double open,
    charged DBL-9 by conform too (as 3 of its results)."""
    # tests/test_house_engines.py's fuzz run of signalbox: run once per run
    _, report = shared_runs.fuzz(["--adapter", f"{EXAMPLES / 'signalbox_engine.py'}:Signalbox",
                                  "--rules", str(EXAMPLES / "signalbox-rules.yaml"),
                                  "--games", "4", "--seed", "1"])
    findings = {f["signature"]: f for f in report["findings"]}
    # the plays listed and left out on marked trains: one bug, a finding each way (run.py
    # one_per_bug keeps apart what the rules refuse allowed and what they allow forbidden)
    assert sorted(findings) == ["allows play (TRAIN-4)", "forbids play (DBL-9)",
                                "forbids play (TRAIN-4)", "round end: INV-ROUND-SCORE"], sorted(
        findings)
    assert findings["forbids play (DBL-9)"]["charged"] == ["DBL-9"]
    assert findings["forbids play (TRAIN-4)"]["also"] == []
    assert all(f["problems"] == [] and f["reproducer"] for f in findings.values())
    # its docstring: eight rounds, whatever the count (asked at each count played)
    assert report["match_rounds"] and all(
        k.startswith("signalbox: ") and v == 8 for k, v in report["match_rounds"].items())
    assert report["ended_early"] == {}
    (out,) = {Path(f["reproducer"]).parent for f in findings.values()}  # the run's folder
    assert lint(out).errors == []


@pytest.mark.slow  # eight fuzz runs of siding, ~1 CPU s each
@pytest.mark.parametrize("value", ["chain", "single", "chain-anywhere", "chain-no-double-end"])
def test_no_stand_in_for_an_own_first_turn_decides_a_finding(
        value: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """siding plays a first turn of its own (one tile, on its own train only), for which
    fuzz plays the first known value, `chain` (answers that differ from it: 103 in 24
    games, counted, not judged). Whichever known value stands in, the answers it decides
    are not judged and play goes on from the engine's own state: with the bugs off
    nothing is found, with them on the same three planted bugs and nothing else."""
    from mtrain.conformance.fuzz import rulesets
    from mtrain.spec.ruleset import Ruleset

    def stand_in(rs: Ruleset) -> Ruleset:
        got = real(rs)
        return Ruleset(got.name, tuple((o, value if o == "first_turn" else v)
                                       for o, v in got.choices), got.hand_table, got.overlays)
    real = rulesets.stand_in
    monkeypatch.setattr(rulesets, "stand_in", stand_in)
    engine = [sys.executable, str(EXAMPLES / "siding_engine.py")]
    found = []
    for argv in ([*engine, "--fixed", "1,2,3"], engine):
        monkeypatch.setattr(rulesets, "_OWN", {})  # the rule set met afresh, its stand-in too
        capsys.readouterr()
        main(["fuzz", "--impl", " ".join(argv), "--rules", str(EXAMPLES / "siding-rules.yaml"),
              "--games", "24", "--seed", "1", "--out", str(tmp_path / "out"), "--json"])
        report = json.loads(capsys.readouterr().out)
        assert report["not_judged_differ"].get(f"first_turn={value}", 0) > 0, report
        found.append([f["signature"] for f in report["findings"]])
    assert found[0] == [], found
    # its planted bugs (tests/test_house_engines.py, SIDING), each found, and nothing else
    bugs = [r"^winners$", r"^after play: (turn_doubles|phase|seat)$",
            r"^after play: INV-OPEN-DOUBLES$"]
    assert all(any(re.search(b, s) for s in found[1]) for b in bugs), found
    assert all(any(re.search(b, s) for b in bugs) for s in found[1]), found


def test_a_step_whose_legality_its_own_rules_decide_is_asked_again_as_play_judged_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """tenwheeler starts its own train first unless its marker is up (`own_train_first:
    other`), so every first turn's legal set reads that rule; its bug 3 keeps the first
    turn after a pass (FIRST-6), which reads no rule of its own. Play judged the pass by
    what the step reads; asked again to shrink it, the judge read the step's legality too
    (ref.apply), found nothing, and the finding was left unshrunk ("did not show again").
    Then it was shrunk to a table whose legal set read that rule ("conform would not run
    it"); since the shrink keeps to tables no rule of its own decides (session 44), its
    reproducer is one conform runs: failed with the bug on, passed with it off."""
    engine = EXAMPLES / "tenwheeler_engine.py"
    rules = str(EXAMPLES / "tenwheeler-rules.yaml")
    capsys.readouterr()
    main(["fuzz", "--impl", f"{sys.executable} {engine} --fixed 1,2", "--rules", rules,
          "--games", "4", "--seed", "1", "--out", str(tmp_path / "out"), "--json"])
    report = json.loads(capsys.readouterr().out)
    [finding] = report["findings"]
    assert finding["signature"] == "after pass: first_turns"
    assert finding["shrink"] is not None and finding["shrink"]["tries"] > 0
    assert finding["problems"] == [] and finding["reproducer"]
    for fixed, code in (("1,2", 1), ("1,2,3", 0)):
        out = tmp_path / f"conform-{fixed}.json"
        assert main(["conform", "--fixtures", finding["reproducer"], "--impl",
                     f"{sys.executable} {engine} --fixed {fixed}", "--rules", rules,
                     "--format", "json", "--output", str(out)]) == code, fixed


class OwnTrainDrawRefused(OwnTrainDrawBug):
    """As OwnTrainDrawBug, but the draw only its own rule allows is listed as legal and
    then refused when asked (citing TURN-1): its two answers contradict each other."""

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        after = ReferenceImplementation.apply(self, ruleset, state, action)
        if action.get("type") != "draw":
            return after
        stand_in = {**ruleset["options"], "own_train_first": "not-required"}
        try:
            STAND_IN.apply({**ruleset, "options": stand_in}, state, action)
        except Refused:
            raise Refused("a tile can be played", "TURN-1") from None
        return after


def test_an_action_listed_then_refused_on_a_step_of_its_own_rules_is_a_finding(
        tmp_path: Path) -> None:
    """An engine that lists an action and refuses it when asked contradicts itself under
    any rules: where its own rules decide the step (the draw only own_train_first allows)
    it is a finding, charged to the clause its refusal names, asked again on its table
    (the probe `listed`) and shrunk; conform judges such a table's legal set without the
    actions its own rules decide (bracket_alone.py), the draw among them, so the engine
    passes there, no reproducer is written, and the report says why (it was only a note
    that the game ended early: 'it did not play an action ... listed')."""
    name = rules_file(tmp_path, "own-train-other", own_train_first="other")
    impl = OwnTrainDrawRefused()
    report = F.fuzz(F.Target.of(impl, "own-train"), F.Chooser([name]), 10, 1,
                    out=tmp_path / "out", impl=impl, **SHRINK)
    [group] = report.new
    assert group.signature == "lists draw it refuses (TURN-1)"
    d = group.best.disagreement
    assert group.best.probe.kind == "listed" and d.own == ("own_train_first",)
    assert d.messages == ("`draw` is in its legal answer, and was refused: a tile can be "
                          "played [TURN-1]",)
    assert d.clauses[0] == "TURN-1" and "draw" not in d.expect["legal"]
    # asked again on its table and shrunk, the written tiles fewer
    assert group.shrunk is not None and group.shrunk.size < group.best.probe.size
    assert group.path is None and group.problems == [
        "it passes against own-train: the disagreement did not reproduce in what conform "
        "judges of it (its entry cut to what own_train_first (played its own way) does "
        "not decide)", LISTED_OWN]
    assert report.cut and all("a refusal of a move its legal answer listed" in k
                              for k in report.cut)
    assert sum(report.cut.values()) == group.count


def test_the_same_engine_without_the_contradiction_has_no_finding(tmp_path: Path) -> None:
    """The control: the same engine drawing as it lists (OwnTrainDrawBug's rule without
    its bug) gives no finding, and its own-rule draws go on."""

    class Honest(OwnTrainDrawBug):
        def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
            return ReferenceImplementation.apply(self, ruleset, state, action)

    name = rules_file(tmp_path, "own-train-other", own_train_first="other")
    impl = Honest()
    report = F.fuzz(F.Target.of(impl, "own-train"), F.Chooser([name]), 10, 1,
                    out=tmp_path / "out", impl=impl, **SHRINK)
    assert report.groups == [] and not report.cut


def test_a_refusal_its_legal_answer_foretold_does_not_end_the_game(tmp_path: Path) -> None:
    """Interlock's bug 2 lists only a pass after a draw and refuses the drawn tile's play
    (a finding of its legal answer, `forbids play (TURN-3)`); where that play's outcome
    reads a rule of its own (marker_removal), the refusal ended the game as 'an answer
    that failed' (4 games in 10, seed 1; 17 in 30): it goes on now from the rules' state,
    as after any refused step, and counts as no difference from the stand-in."""
    from interlock_engine import Interlock

    name = declared_context(catalog().rules_file(
        str(EXAMPLES / "interlock-rules.yaml"))).name
    impl = Interlock()
    report = F.fuzz(F.Target.of(impl, "interlock"), F.Chooser([name]), 10, 1,
                    out=tmp_path / "out", impl=impl, **SHRINK)
    assert "forbids play (TURN-3)" in {g.signature for g in report.new}
    assert not any("answer that failed" in k for k in report.cut), report.cut
    assert report.games == 10 and report.rounds >= 10


def test_a_wrong_tile_opening_the_mexican_train_in_a_follow_up_is_train_5s() -> None:
    """Tenwheeler's bug 1 in a follow-up (fuzz seed 3's shrunk table, round 11: engine 0;
    seat 1 laid [3-3] and holds [10-8] and [7-0]): it offers [10-8] to open the empty
    Mexican Train and not [7-0]. Both are what opens it (TRAIN-5); the missing opening was
    charged to the follow-up rule (DBL-2), since a play on the Mexican Train was offered,
    splitting one bug over two clauses."""
    from mtrain.conformance.fuzz.judge import compare_legal
    from mtrain.reference import codec
    from mtrain.reference.engine import legal_actions
    from mtrain.spec.notation import action_json, table_state

    ctx = declared_context(catalog().rules_file(str(EXAMPLES / "tenwheeler-rules.yaml")))
    table = {"engine": 0, "seat": 1, "starter": 0, "phase": "follow",
             "hands": {0: ["rest"], 1: ["10-8", "7-0"]}, "trains": {1: ["0-3", "3-3"]},
             "boneyard": [], "turn_doubles": [1]}
    st = codec.state_from_json(ctx.rules, table_state(table, ctx.rs))
    found = compare_legal(ctx, st, legal_actions(st),
                          [action_json("play 10-8 on mexican", ctx.max_pip)], None)
    assert sorted(d.signature for d in found) == ["allows play (TRAIN-5)",
                                                  "forbids play (TRAIN-5)"], found


class LastTileRefused(ReferenceImplementation):
    """Plays the rules (its file declares `scoring: other`), with one planted bug: it lists
    a player's last tile as legal and refuses to let them play it (going out ends the
    round, whose scores its own rule decides)."""

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        if (action.get("type") == "play" and len(state["hands"][state["seat"]]) == 1
                and action in self.legal(ruleset, state)):
            raise Refused("nobody goes out at this table", "END-1")
        return super().apply(ruleset, state, action)


def test_a_legal_move_refused_where_only_its_outcome_reads_its_own_rules_is_a_finding(
        tmp_path: Path) -> None:
    """Going out reads the scoring (played `other`), the legal set does not: the play is
    legal whatever the rule, so refusing it is a finding as anywhere (`forbids play`),
    marked with the rule its outcome reads; it was no finding, and the game it ended was
    said to end for 'an answer that failed'."""
    name = rules_file(tmp_path, "own-scoring", scoring="other")
    impl = LastTileRefused()
    report = F.fuzz(F.Target.of(impl, "last-tile"), F.Chooser([name]), 6, 1,
                    out=tmp_path / "out", impl=impl, **SHRINK)
    assert [g.signature for g in report.new] and all(
        g.signature.startswith("forbids play (") for g in report.new), report.new
    assert all(g.best.disagreement.own == ("scoring",) and g.best.probe.kind == "apply"
               for g in report.new)
    # no state to go on from where its own rule decides the outcome: said so, not 'failed'
    assert all("a refusal of a move its legal answer listed" in k for k in report.cut)
    assert all("nobody goes out" in g.best.disagreement.messages[0] for g in report.new)


@pytest.mark.skipif(shutil.which("node") is None, reason="gondola is a JavaScript engine")
def test_a_starting_seat_of_its_own_keeps_the_seats_a_finding_depends_on(
        shared_runs: SharedRuns) -> None:
    """gondola (tests/examples/js/gondola_engine.js) starts round 1 at seat (2 * 15) mod n
    and, bug 3, ends a turn by striking the lowest seat in first_turns (FIRST-6). Fuzz
    once turned every probe's seats until the starter sat where the stand-in's rotation
    puts it (seat 0 in round 1), where the lowest seat is the mover's: the finding seen
    after a pass "did not show again" and had no reproducer. Asked with the engine's own
    starter, it shows again, and its reproducer strikes another seat than the mover; the
    shrinker moves it to a round whose rotation has that starter (shrink._rotation_round),
    so that lint, reading the stand-in's rules file, passes it too."""
    _, report = shared_runs.fuzz(GONDOLA_FOUR_GAMES)  # (run once: tests/test_house_s44.py)
    found = {f["signature"]: f for f in report["findings"]}
    passed = found["after pass: first_turns"]
    assert passed["problems"] == [] and passed["reproducer"], passed
    fx = load_file(passed["reproducer"], Path(passed["reproducer"]).read_text("utf-8"))[0]
    assert fx.table is not None and fx.steps == ("pass",)
    # the mover passes on its first turn: the seat struck is its own (FIRST-6)
    assert fx.table["seat"] not in fx.expect[0].state["first_turns"]
    assert lint(Path(passed["reproducer"]).parent).errors == []  # (the run's --out)
