"""Session 58 (fuzz58b): fuzz judges a `score` under a scoring of one's own against the
engine's own result, as conform does (conformance/own_score.py, tests/test_house58.py).

Under a scoring rule of one's own, fuzz asked no `score` at a round's end: the reference's
scoring read the rule, so the answer was set aside (not judged), and an engine whose `score`
forgot part of its own rule (coaling's bare doubles) passed. Whatever a rule counts, a
round's scores are those of the table it ended on: where the engine ends the round as the
reference does, its `score` of the end it returned must give its own result's scores
(round_end._own_score, rejudge's "score" probe: own_score.score_again, conform's code path).

Under a marker rule of one's own, a step that read it (a play by a marked player, or on a
marked train) was set aside whole, where conform runs such an entry without `marked`
(marker_alone.py): which markers up come off is the rule's, the rest of the step is not
(own_rules.markers_aside).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from rule_texts import rules_text

from mtrain.cli import main
from mtrain.commands.fuzz import print_report, report_json
from mtrain.conformance.adapter import JSON, ReferenceImplementation
from mtrain.conformance.fuzz import Target, fuzz
from mtrain.conformance.fuzz.own_rules import markers_aside
from mtrain.conformance.fuzz.rulesets import declared_context
from mtrain.conformance.fuzz.scoring import OWN_SCORE
from mtrain.spec.catalog import catalog

SEED, GAMES = 1, 2

OWN_SCORING = rules_text("winner-takes", scoring="other")
"""A double-6 set, one round a match, and a scoring of its own: whoever goes out scores
the pips of every other hand (the reference's `positive`, which the file calls its own;
the stand-in fuzz plays is `penalty`)."""


def _own(ruleset: JSON) -> JSON:
    return {**ruleset, "options": {**ruleset["options"], "scoring": "positive"}}


class WinnerTakes(ReferenceImplementation):
    """The rules above, `score` honest: its own result's scores, asked again."""

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        return super().apply(_own(ruleset), state, action)

    def winners(self, ruleset: JSON, state: JSON) -> list[int]:
        return super().winners(_own(ruleset), state)

    def score(self, ruleset: JSON, state: JSON, winner: int | None) -> list[int]:
        return super().score(_own(ruleset), state, winner)


class ForgetsDoubles(WinnerTakes):
    """Its `score` forgets part of its own rule: the doubles left in the other hands
    (its round's end counts them)."""

    def score(self, ruleset: JSON, state: JSON, winner: int | None) -> list[int]:
        got = super().score(ruleset, state, winner)
        if winner is not None:
            got[winner] -= sum(2 * int(t.split("-")[0]) for h in state["hands"] for t in h
                               if t.split("-")[0] == t.split("-")[1])
        return got


def _variant(tmp_path: Path) -> tuple[Path, str]:
    path = tmp_path / "winner-takes.yaml"
    path.write_text(OWN_SCORING, encoding="utf-8")
    return path, declared_context(catalog().rules_file(str(path))).name


@pytest.mark.parametrize(("impl", "found"), [(WinnerTakes, []), (ForgetsDoubles, [OWN_SCORE])])
def test_a_score_under_a_scoring_of_its_own_is_judged_against_its_own_result(
        impl: type[WinnerTakes], found: list[str], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """GAMES games (seed 1, about 1 CPU s): the honest engine, nothing; the one whose
    `score` forgets the doubles in hand, one finding, shrunk (4 seats to 3), its
    reproducer charged SCORE-1 (the values of some tiles: attribution.values_only) as
    conform charges it running that reproducer. The text and JSON reports say how many
    `score` answers were judged so, and the finding. Before: nothing either way (every
    `score` set aside as its scoring's), and no such count."""
    _, variant = _variant(tmp_path)
    target = Target.of(impl(), "own")
    report = fuzz(target, [variant], GAMES, SEED, out=tmp_path / "out", shrink_tries=100)
    assert [g.signature for g in report.new] == found, [
        (g.signature, g.problems) for g in report.new]
    assert report.own_scores >= report.rounds > 0  # each round's end (and its heavy hand)
    print_report(report, target)
    text = capsys.readouterr().out
    said = (f"judged though its scoring is its own: {report.own_scores} `score` answers at "
            "a round's end, each against its own result on the same table")
    assert said in text, text
    written = report_json(report, target, SEED)
    assert written["own_scores_judged"] == report.own_scores
    assert [f["signature"] for f in written["findings"]] == found
    if not found:
        return
    (group,) = report.new
    assert group.problems == [] and group.path is not None, group.problems
    assert group.charged == ("SCORE-1",)
    assert group.shrunk is not None and group.shrunk.size < group.best.probe.size
    assert group.shrunk.table is not None and len(group.shrunk.table["hands"]) == 3
    [fx] = yaml.safe_load(group.path.read_text(encoding="utf-8"))
    assert fx["clauses"][0] == "SCORE-1" and len(fx["steps"]) == 1
    assert f"[1] {OWN_SCORE}:" in text
    assert "but its own result on the same table scores" in text
    assert written["findings"][0]["charged"] == ["SCORE-1"]
    # the reproducer, as conform runs it under the rules file: the honest engine passes,
    # the forgetful one fails, charged SCORE-1
    rules = _variant(tmp_path)[0]
    statuses = []
    for engine in ("WinnerTakes", "ForgetsDoubles"):
        out = tmp_path / f"{engine}.json"
        main(["conform", "--adapter", f"{__file__}:{engine}", "--rules", str(rules),
              "--fixtures", str(group.path), "--format", "json", "--output", str(out)])
        [result] = json.loads(out.read_text(encoding="utf-8"))["results"]
        statuses.append((result["status"], result.get("charged")))
    assert statuses[0][0] == "pass" and statuses[1] == ("fail", ["SCORE-1"]), statuses


# --- a step under a marker rule of one's own: all but the markers it takes off judged ---

OWN_MARKERS = OWN_SCORING.replace("name: winner-takes", "name: markers-anywhere").replace(
    "marker_removal: owner-plays-own", "marker_removal: other").replace(
    "scoring: other", "scoring: penalty")
"""The same table with a marker rule of its own: a player's marker comes off whenever they
play, anywhere (the reference's `owner-plays-anywhere`, which the file calls its own)."""


class MarkersAnywhere(ReferenceImplementation):
    """The rules above, honest."""

    @staticmethod
    def _own(ruleset: JSON) -> JSON:
        return {**ruleset, "options": {**ruleset["options"],
                                       "marker_removal": "owner-plays-anywhere"}}

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        return super().apply(self._own(ruleset), state, action)

    def winners(self, ruleset: JSON, state: JSON) -> list[int]:
        return super().winners(self._own(ruleset), state)

    def score(self, ruleset: JSON, state: JSON, winner: int | None) -> list[int]:
        return super().score(self._own(ruleset), state, winner)


class KeepsTheTurn(MarkersAnywhere):
    """Its bug, beside its marker rule: a player whose marker is up keeps the turn after a
    play that is no double (SEAT-1: the turn passes on, whatever takes the marker off)."""

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        got = super().apply(ruleset, state, action)
        seat = state["seat"]
        if (action.get("type") == "play" and state["trains"][seat].get("marker")
                and got["phase"] != "over" and got["seat"] != seat):
            got = {**got, "seat": seat}
        return got


@pytest.mark.parametrize(("impl", "found"), [(MarkersAnywhere, False), (KeepsTheTurn, True)])
def test_a_step_taking_a_marker_off_its_own_way_is_judged_but_for_the_markers(
        impl: type[MarkersAnywhere], found: bool, tmp_path: Path) -> None:
    """GAMES games (seed 1): under `marker_removal: other`, the state after a play by a
    marked player is judged with the markers up before it as the engine leaves them
    (own_rules.markers_aside, as conform's marker_alone.py cuts `marked`): the honest
    engine, nothing; the one that keeps the turn, `after play: seat`, charged
    SEAT-1 as conform charges its reproducer. Before: the whole
    step set aside as its marker rule's, nothing found either way."""
    path = tmp_path / "markers-anywhere.yaml"
    path.write_text(OWN_MARKERS, encoding="utf-8")
    variant = declared_context(catalog().rules_file(str(path))).name
    report = fuzz(Target.of(impl(), "markers"), [variant], GAMES, SEED,
                  out=tmp_path / "out", shrink_tries=100)
    signatures = [g.signature for g in report.new]
    if not found:
        assert signatures == []
        return
    assert signatures == ["after play: seat"], signatures
    (group,) = report.new
    assert group.problems == [] and group.path is not None, group.problems
    assert group.charged == ("SEAT-1",)  # whose turn follows, as conform charges it
    [fx] = yaml.safe_load(group.path.read_text(encoding="utf-8"))
    assert fx["table"]["marked"] and fx["expect"][0]["state"] == {"seat": 1}, fx


def test_only_markers_up_before_the_step_are_its_own_rule_s() -> None:
    """markers_aside takes from the engine the markers that were up before the step (which
    come off is its rule's), never one it puts up (MARK-1, the rules'), and nothing else."""
    before = {"trains": [{"marker": True}, {"marker": False}, {}]}
    want = {"seat": 1, "trains": [{"marker": True}, {"marker": False}, {}]}
    got = {"seat": 0, "trains": [{"marker": False}, {"marker": True}, {}]}
    out = markers_aside(("marker_removal",), before, want, got)
    assert out == {"seat": 1, "trains": [{"marker": False}, {"marker": False}, {}]}
    assert markers_aside(("marker_removal", "doubles"), before, want, got) is None
    assert markers_aside(("scoring",), before, want, got) is None
