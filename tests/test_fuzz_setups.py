"""Fuzz where the house engines' rules live apart from the games (conformance/fuzz/
setups.py, shrink.py): the player counts a table lacks, the rounds a match of one's own
has, and reproducers of findings that shrank to nothing conform runs.

- pullman (tests/examples/pullman_engine.py) deals eight tiles each to a count its table
  lacks (bug 1, DEAL-7); games deal only the counts a table lists, so only conform found
  it. Each rule set's setups at the counts its table lacks are now asked, once a run.
- signalbox's match is eight rounds of sixteen engines (`match_length: other`); 18 of 60
  games started after it and ended at their deal. The rounds it deals are asked first.
- siding's short match (bug 1: winners named after round 6 of 7) was found at a round's
  last play covering a double, whose legal set reads its follow-up rule of its own:
  "conform would not run it". Cutting the double now ends the follow phase, so the shrink
  reaches a table no own rule reads.
- shed's deal finding (bug 1: the search for the engine from seat 0) kept its 28-tile
  order: the named orders were tried only at the players it was found at.
- an action listed and then refused where the engine's own rule decides the legal set
  has no reproducer conform runs (run.LISTED_OWN says why); where no own rule decides,
  the listing is judged against the rules and has one.
"""

from __future__ import annotations

import json
import shlex
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from shared_runs import SharedRuns

from mtrain.cli import main
from mtrain.conformance import fuzz as F
from mtrain.conformance.adapter import JSON, ReferenceImplementation
from mtrain.conformance.fuzz import setups
from mtrain.conformance.fuzz.rulesets import declared_context
from mtrain.conformance.fuzz.run import load_implementation
from mtrain.conformance.fuzz.tables import cut_train
from mtrain.reference.rules import Rules
from mtrain.spec.catalog import catalog
from mtrain.spec.ruleset import MAX_PLAYERS

# shrinking bounded by a count of candidates, not by seconds: the same cut at any load
# (a run that needed fewer stops where it would with no bound)
SHRINK: dict[str, Any] = {"shrink_seconds": None, "shrink_tries": 400}

EXAMPLES = Path(__file__).parent / "examples"


def _own(name: str) -> str:
    return declared_context(catalog().rules_file(str(EXAMPLES / f"{name}-rules.yaml"))).name


def _conform(fixture: str, target: list[str], rules: str) -> int:
    """conform's exit code on one reproducer: 1 where it fails, 0 where it passes."""
    return main(["conform", "--fixtures", fixture, *target, "--rules", rules,
                 "--format", "json", "--output", str(Path(fixture).with_suffix(".json"))])


def test_the_counts_a_table_lacks_next_to_its_own_and_at_the_games_edges() -> None:
    """DEAL-7: a table lists the counts it deals. Asked: one fewer than its fewest, one
    more than its most, every gap, one seat (DEAL-2..6 all begin at two) and MAX_PLAYERS."""
    assert setups.unlisted_counts(F.context("pagat").rs) == [1, 11, MAX_PLAYERS]  # 2-10
    assert setups.unlisted_counts(F.context("puremco-d9").rs) == [1, 5, MAX_PLAYERS]  # 2-4
    assert setups.unlisted_counts(F.context(_own("pullman")).rs) == [1, 9, MAX_PLAYERS]
    gaps = F.context(_own("pullman")).rs
    gaps = type(gaps)(gaps.name, gaps.choices, ((2, 16), (4, 13), (6, 10)), gaps.overlays)
    assert setups.unlisted_counts(gaps) == [1, 3, 5, 7, MAX_PLAYERS]


def test_the_reference_refuses_every_count_its_tables_lack() -> None:
    ref = ReferenceImplementation()
    for name in ("pagat", "puremco-d9", _own("pullman")):
        for n in setups.unlisted_counts(F.context(name).rs):
            assert setups.ask(ref, setups.probe(name, n)) == ("refused (DEAL-7)", []), (name, n)


def test_fuzz_finds_pullman_dealing_a_count_its_table_lacks(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """One game: the setups are asked with its rule set's first game. With the bug on, a
    finding `allows the setup (DEAL-7)` whose reproducer conform runs and fails; with it
    off, every setup refused (DEAL-7) and that reproducer passes."""
    engine = f"{sys.executable} {EXAMPLES / 'pullman_engine.py'}"
    rules = str(EXAMPLES / "pullman-rules.yaml")
    reports = {}
    for bugs, command in (("on", engine), ("off", f"{engine} --fixed 1,2,3")):
        capsys.readouterr()
        main(["fuzz", "--impl", command, "--rules", rules, "--games", "1", "--seed", "1",
              "--out", str(tmp_path / bugs), "--json"])
        reports[bugs] = json.loads(capsys.readouterr().out)
    on, off = reports["on"], reports["off"]
    assert off["setups"] == {f"pullman: {n} player{'s' * (n > 1)}": "refused (DEAL-7)"
                             for n in (1, 9, MAX_PLAYERS)}
    assert not any("setup" in f["signature"] for f in off["findings"])
    # its docstring: eight tiles each to a count the table does not list
    assert on["setups"]["pullman: 9 players"].startswith("dealt (hands of ")
    assert on["setups"]["pullman: 9 players"].endswith(" 8, 8 tiles)")
    [found] = [f for f in on["findings"] if f["signature"] == "allows the setup (DEAL-7)"]
    assert found["problems"] == [] and found["reproducer"]
    text = Path(found["reproducer"]).read_text(encoding="utf-8")
    assert "refused_setup: DEAL-7" in text
    assert _conform(found["reproducer"], ["--impl", engine], rules) == 1
    assert _conform(found["reproducer"], ["--impl", f"{engine} --fixed 1,2,3"], rules) == 0


def test_games_start_only_at_rounds_the_engines_own_match_has() -> None:
    """signalbox's match is eight rounds (its docstring) of the sixteen engines of a
    double-15 set: asked by halving, and no game of 60 is planned to start after round 8
    (18 were, seed 1, each ending at its deal)."""
    signalbox = load_implementation("adapter", f"{EXAMPLES / 'signalbox_engine.py'}:Signalbox")
    name = _own("signalbox")
    assert F.context(name).rules.rounds == 16
    counts = F.context(name).rs.player_counts
    rounds = setups.match_rounds(signalbox, [(name, n) for n in counts])
    assert rounds == {setups.round_key(name, n): 8 for n in counts}  # at every count
    chooser = F.Chooser([name])
    plans = [F.plan_game(i, 1, chooser, None, rounds) for i in range(60)]
    assert max(p.first_round + p.rounds - 1 for p in plans) == 8
    before = [F.plan_game(i, 1, chooser) for i in range(60)]  # the stand-in's sixteen
    assert sum(p.first_round > 8 for p in before) > 0
    # a rule set whose match length is known is not asked
    assert setups.match_rounds(signalbox, [("pagat", 4)]) == {}


def test_a_cut_double_ends_the_follow_phase_it_opened() -> None:
    """Taking up the double a turn played (its follow phase's cause) leaves a turn from its
    start: a table a round reaches, where the follow phase left a table none reaches."""
    table: dict[str, Any] = {
        "engine": 6, "seat": 0, "starter": 0, "phase": "follow",
        "hands": {0: ["6-5"], 1: ["rest"]}, "trains": {0: ["6-1"], 1: ["6-0", "0-6"]},
        "open_doubles": [], "turn_doubles": [], "boneyard": []}
    table["trains"][1] = ["6-0", "0-4", "4-4"]
    table["open_doubles"], table["turn_doubles"] = [1], [1]
    cut = cut_train(table, 1, 1)
    assert cut["trains"][1] == ["6-0", "0-4"]
    assert cut["phase"] == "start" and cut["open_doubles"] == [] and cut["turn_doubles"] == []
    kept = cut_train({**table, "turn_doubles": [1, 0]}, 1, 1)  # another double of the turn
    assert kept["phase"] == "follow"


@pytest.mark.slow  # three fuzz runs and six conform runs: ~2 CPU s
@pytest.mark.parametrize(("name", "signature", "seed", "games"), [
    ("siding", "winners", 1, 24), ("siding", "winners", 2, 12), ("shed", "deal: seat", 1, 12)])
def test_the_findings_that_did_not_shrink_give_reproducers_conform_runs(
        name: str, signature: str, seed: int, games: int,
        shared_runs: SharedRuns) -> None:
    """siding's short match and shed's deal: each shrunk to a reproducer conform runs,
    that fails with the bugs on and passes with them off; shed's deal in a named order."""
    engine = shlex.join([sys.executable, str(EXAMPLES / f"{name}_engine.py")])
    rules = str(EXAMPLES / f"{name}-rules.yaml")
    # siding's 24 games and shed's 12 (seed 1) are tests/test_house_engines.py's fuzz
    # runs of them: run once per run
    _, report = shared_runs.fuzz(["--impl", engine, "--rules", rules, "--games", str(games),
                                  "--seed", str(seed)])
    [found] = [f for f in report["findings"] if f["signature"] == signature]
    assert found["problems"] == [] and found["reproducer"], found
    if name == "shed":
        assert found["shrink"]["written"][1]["order"] in ("sorted", "reversed")
    assert _conform(found["reproducer"], ["--impl", engine], rules) == 1
    assert _conform(found["reproducer"], ["--impl", f"{engine} --fixed 1,2,3"], rules) == 0


class ListsDraw(ReferenceImplementation):
    """Starts its own train first (`own_train_first: required`, declared `other`) and lists
    a draw at every turn's start while the boneyard holds tiles, refusing it as the rules
    do: its answers contradict each other wherever a tile can be played."""

    def rules(self, ruleset: JSON) -> Rules:
        return super().rules({**ruleset, "options": {**ruleset["options"],
                                                     "own_train_first": "required"}})

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        got: list[JSON] = super().legal(ruleset, state)
        if state.get("boneyard") and state.get("phase") == "start" and not any(
                a["type"] == "draw" for a in got):
            got = [*got, {"type": "draw"}]
        return got


def test_a_listed_then_refused_action_has_its_reproducer_where_no_own_rule_decides(
        tmp_path: Path) -> None:
    """Where the legal set reads no rule of its own, listing a draw the rules refuse is
    judged against the rules (`allows draw`), with a reproducer conform runs and the
    engine fails. Where its own rule decides (one draw, after a draw only that rule
    allowed), no fixture can ask it: that table is one only its own rules reach
    (REACH-DRAWN under the stand-in), which the report says (it said "the disagreement
    did not show again")."""
    path = tmp_path / "own-train-other.yaml"
    path.write_text("name: own-train-other\nbase: pagat\noptions:\n  own_train_first: other\n")
    name = declared_context(catalog().rules_file(str(path))).name
    impl = ListsDraw()
    report = F.fuzz(F.Target.of(impl, "lists-draw"), F.Chooser([name]), 6, 1,
                    out=tmp_path / "out", impl=impl, **SHRINK)
    groups = {g.signature: g for g in report.new}
    plain = groups["allows draw (TURN-1)"]
    assert plain.problems == [] and plain.path is not None
    assert plain.verdict is not None and plain.verdict.own == ()
    [listed] = [g for s, g in groups.items() if s.startswith("lists draw it refuses")]
    assert listed.path is None and listed.best.disagreement.own == ("own_train_first",)
    [why] = listed.problems
    assert why.startswith("no reproducer: its table is one only its own rules "
                          "(own_train_first) reach: unreachable table: REACH-DRAWN"), why


@pytest.mark.slow
def test_the_setups_are_asked_once_a_run_whatever_the_workers(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """With --jobs 2 each worker process asked its rule sets' setups again, so pullman's
    two counts dealt (one seat, 9 players) were counted four times: the run's first game
    of a rule set asks them (GamePlan.asks_setups), whichever worker plays it. A thread
    is kept alive meanwhile, as under xdist: the workers are then not forked (forking.py
    pool_context) and knew no rule set named after the file (`unknown variant
    'pullman'`) until they were given the parent's (rulesets.adopt)."""
    engine = f"{sys.executable} {EXAMPLES / 'pullman_engine.py'}"
    counts = {}
    done = threading.Event()
    waiting = threading.Thread(target=done.wait, daemon=True)
    waiting.start()
    try:
        for jobs in ("1", "2"):
            capsys.readouterr()
            main(["fuzz", "--impl", engine, "--rules", str(EXAMPLES / "pullman-rules.yaml"),
                  "--games", "4", "--seed", "1", "--jobs", jobs, "--out",
                  str(tmp_path / jobs), "--json"])
            found = json.loads(capsys.readouterr().out)["findings"]
            counts[jobs] = {f["signature"]: f["count"] for f in found
                            if "setup" in f["signature"]}
    finally:
        done.set()
    assert counts["1"] == counts["2"] == {"allows the setup (DEAL-7)": 2, "error on setup": 1}
