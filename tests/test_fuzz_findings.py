"""Fuzz reports one finding per bug: findings whose reproducers conform charges to the
same clause, for the same cause, are one bug seen in several kinds of step (run.py
`one_per_bug`); two bugs stay two, however alike their signatures."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from mtrain.cli import main
from mtrain.conformance.fuzz.findings import Group, cause, one_per_bug
from mtrain.conformance.fuzz.judge import Disagreement, Probe
from mtrain.conformance.fuzz.results import Occurrence

EXAMPLES = Path(__file__).parent / "examples"


def group(signature: str, charged: tuple[str, ...], count: int, tmp_path: Path,
          known: str | None = None, reproduced: bool = True) -> Group:
    occ = Occurrence(Probe("apply", "pagat"), Disagreement(signature, ()), 0, 1, 1, 2)
    g = Group(signature, count, occ, occ, ["pagat"], known, charged=charged)
    if reproduced:
        g.path = tmp_path / f"{len(list(tmp_path.iterdir())):03d}.yaml"
        g.path.write_text("[]\n", encoding="utf-8")
    return g


def test_the_kind_of_step_is_not_the_cause() -> None:
    assert cause("after play: first_turns") == cause("after pass: first_turns")
    assert cause("after engine draw: seat") == cause("after draw: seat")
    # what differs, which action, or which way the engine errs, is the cause
    assert cause("allows play (TRAIN-4)") != cause("forbids play (TRAIN-4)")
    assert cause("after play: first_turns") != cause("after play: marked")
    assert cause("allows pass (TURN-1)") != cause("allows draw (TURN-1)")
    assert cause("allows play (TRAIN-4)") != cause("allows play (TRAIN-5)")
    assert cause("round end: result") != cause("after play: result")


def test_one_bug_seen_after_a_play_and_after_a_pass_is_one_finding(tmp_path: Path) -> None:
    play = group("after play: first_turns", ("FIRST-6",), 17, tmp_path)
    passed = group("after pass: first_turns", ("FIRST-6",), 3, tmp_path)
    listed = group("allows play (TRAIN-4)", ("TRAIN-4",), 5, tmp_path)
    missing = group("forbids play (TRAIN-4)", ("TRAIN-4",), 7, tmp_path)
    folded_path = passed.path
    out = one_per_bug([play, listed, passed, missing])
    # an action allowed against the rules and one forbidden against them stay two
    # findings: fuzz cannot tell one bug erring both ways from two bugs (ballast's DBL-9)
    assert out == [play, listed, missing]
    assert (play.count, play.also) == (20, [("after pass: first_turns", 3)])
    assert (listed.count, listed.also, missing.also) == (5, [], [])
    assert play.signatures == ["after play: first_turns", "after pass: first_turns"]
    # the first found's reproducer stands for the bug: the other is removed
    assert folded_path is not None and not folded_path.exists()
    assert play.path is not None and play.path.exists()


def test_distinct_bugs_stay_distinct(tmp_path: Path) -> None:
    groups = [
        # one clause, two things wrong: two bugs
        group("allows pass (TURN-1)", ("TURN-1",), 4, tmp_path),
        group("allows draw (TURN-1)", ("TURN-1",), 2, tmp_path),
        # one field, charged to two clauses: conform tells them apart
        group("after play: first_turns", ("FIRST-6",), 3, tmp_path),
        group("after pass: first_turns", ("FIRST-7",), 3, tmp_path),
        # no reproducer checked: nothing charged to go by
        group("after play: phase", (), 8, tmp_path, reproduced=False),
        group("after pass: phase", (), 2, tmp_path, reproduced=False),
        # a known finding is the user's to name
        group("after draw: first_turns", ("FIRST-6",), 1, tmp_path, known="listed"),
    ]
    assert one_per_bug(list(groups)) == groups
    assert all(g.also == [] for g in groups)


def fuzz_json(target: list[str], rules: Path, games: int, out: Path,
              capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    capsys.readouterr()
    code = main(["fuzz", *target, "--rules", str(rules), "--games", str(games), "--seed", "1",
                 "--out", str(out), "--json"])
    assert code == 1
    report: dict[str, object] = json.loads(capsys.readouterr().out)
    return report


def test_signalbox_own_marker_bug_is_a_finding_each_way(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """signalbox's bug 1 (its own train's marker read wrong) lists plays that TRAIN-4
    refuses and leaves out those it allows (seed 1, its first game shows both): one
    finding each way, each with its reproducer, as two bugs erring one way each would be
    (ballast's DBL-9: one_per_bug keeps the direction apart). They were folded into one
    from session 45 until then. That first game is steered to a blocked end (a big set:
    plans.first_of_rule_set), where bug 1 shows once more by a released double, charged
    DBL-9 as conform charges 3 of its results; bug 2, which needs a round gone out, shows
    in the second game (test_house_engines' run of four)."""
    report = fuzz_json(["--adapter", f"{EXAMPLES / 'signalbox_engine.py'}:Signalbox"],
                       EXAMPLES / "signalbox-rules.yaml", 1, tmp_path / "out", capsys)
    findings = report["findings"]
    assert isinstance(findings, list)
    marker = [f for f in findings if f["charged"] == ["TRAIN-4"]]
    assert sorted(f["signature"] for f in marker) == [
        "allows play (TRAIN-4)", "forbids play (TRAIN-4)"], [f["signature"] for f in findings]
    assert all(f["also"] == [] for f in marker)
    # bug 1 by a released double: a finding of its own, as conform charges it
    assert [f["charged"] for f in findings if f not in marker] == [["DBL-9"]]
    # one reproducer per finding
    assert len(list((tmp_path / "out").glob("*.yaml"))) == len(findings)


@pytest.mark.skipif(shutil.which("node") is None, reason="gondola is a JavaScript engine")
def test_gondola_first_turn_struck_is_one_finding(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """gondola's bug 3 (another seat's first turn struck, FIRST-6) was two findings, `after
    play: first_turns` and `after pass: first_turns` (seed 1, its first two games)."""
    node = shutil.which("node")
    assert node is not None
    command = f"{node} {EXAMPLES / 'js' / 'gondola_engine.js'} --bugs"
    report = fuzz_json(["--impl", command], EXAMPLES / "js" / "gondola-rules.yaml", 2,
                       tmp_path / "out", capsys)
    findings = report["findings"]
    assert isinstance(findings, list)
    struck = [f for f in findings if "first_turns" in f["signature"]]
    assert len(struck) == 1, [f["signature"] for f in findings]
    assert struck[0]["charged"] == ["FIRST-6"]
    assert [a["signature"] for a in struck[0]["also"]] == ["after play: first_turns"]
    assert struck[0]["reproducer"] is not None
    # bug 1 (the Mexican Train shut on a first turn) is another finding, not folded in
    assert any(f["signature"] == "forbids play (FIRST-8)" for f in findings)
