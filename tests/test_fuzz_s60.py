"""Session 60's fuzz under rules of one's own: fewer answers set aside, and a count that
says which were judged.

- A move only the implementation's own rules allow (its legal answer lists nothing the
  reference's stand-in does) was set aside whole, and play went on from its state. Its
  legality is its rule's; what it does is the rules' wherever the reference, carrying it
  out, reads no rule of its own (conformance/step_alone.py's reasoning for conform):
  judged now (steps._effect). dandy (tests/examples/perl/dandy_engine.pl: it draws until
  a tile fits, `draw_rule: other`, where the stand-in draws one) had 75 of 1,354 answers
  so set aside (4 games, seed 1).
- Answers judged by conform's cuts were counted set aside: a step judged but for the
  markers up before it (own_rules.markers_aside: dandy's 46), a legal answer the bracket
  of the known follow-ups judges (bracket_alone), the stand-in's own answer never asked of
  the cut at all. They count as judged now, and the report says how many so
  (`judged_by_cut`). dandy: 19.4% -> 10.2% set aside, none found with its bugs off.
  And a step whose effect read a rule of one's own was counted judged where the
  implementation's state was the stand-in's, though nothing of it was held against the
  rules: set aside now, unless a cut judges it (trolley's 156 passes its blocked rule
  read, of 2,053 answers).
- hump (tests/examples/hump_engine.py, double-18, its own train first and Mexican Train
  of its own) left every blocked-end script (steer.py) at once: its rules refuse the
  stand-in's first scripted move in most rounds, and play went on at random. Its round
  blocked a pass early (END-3) waited for random play: games to find it over seeds 1-5,
  none in 24 / 15 / 1 / 8 / 4; now a blocked end is sought again from the table its
  rules led to (steer.REPLAN_TRIES): 13 / 3 / 1 / 8 / 4 (median 8 -> 4).

The engines are the reference in process, playing a known value whatever the request's
rule set says (its stand-in): a rule of its own to the harness, told `other`.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, ClassVar

import pytest

from mtrain.cli import main
from mtrain.conformance.adapter import JSON, ReferenceImplementation
from mtrain.reference.rules import Rules

SMALL = """name: own-{option}
base: pagat
options:
  tile_set: double-6
  hand_sizes: {{2: 7, 3: 6, 4: 5}}
  first_turn: single
  {option}: other
"""


class Plays(ReferenceImplementation):
    """The reference playing OWN whatever the request says in its place."""

    OWN: ClassVar[tuple[tuple[str, str], ...]] = ()

    def rules(self, ruleset: JSON) -> Rules:
        return super().rules({**ruleset, "options": {**ruleset["options"], **dict(self.OWN)}})


class UntilPlayable(Plays):
    """Draws until a tile fits (a known value: the stand-in draws one)."""

    OWN = (("draw_rule", "draw-until-playable"),)


class SecondDrawFromTheBottom(UntilPlayable):
    """A planted bug in a move only its own rule allows: a second draw in a turn takes
    the boneyard's last tile, not its first (TURN-2: the draw is from the boneyard's
    front, as the protocol writes it)."""

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        pile = state.get("boneyard")
        if (action.get("type") == "draw" and state.get("drawn") is not None
                and isinstance(pile, list) and len(pile) > 1):
            state = {**state, "boneyard": [pile[-1], *pile[1:-1], pile[0]]}
        return super().apply(ruleset, state, action)


class AnywhereOffMarker(Plays):
    """A marker comes off wherever its owner plays (the stand-in: on their own train)."""

    OWN = (("marker_removal", "owner-plays-anywhere"),)


class CoverOwn(Plays):
    """The tile after a double goes on it alone (the stand-in: anywhere)."""

    OWN = (("follow_up", "cover-own"),)


def _fuzz(adapter: str, option: str, games: int, tmp_path: Path,
          capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    rules = tmp_path / f"own-{option}.yaml"
    rules.write_text(SMALL.format(option=option), encoding="utf-8")
    capsys.readouterr()
    main(["fuzz", "--adapter", f"{__file__}:{adapter}", "--rules", str(rules), "--games",
          str(games), "--seed", "1", "--json", "--out", str(tmp_path / adapter),
          "--shrink-seconds", "5"])
    report: dict[str, Any] = json.loads(capsys.readouterr().out)
    assert report["judged"] + sum(report["not_judged"].values()) == report["answered"]
    return report


def test_a_move_only_its_own_draw_rule_allows_is_judged_by_what_it_does(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Three games (under 1 CPU s each engine): the honest engine's draws past the first
    are judged (`judged_by_cut`) and agree; the planted bug in them is found, with no
    reproducer (the reference refuses that draw: no fixture can ask it). Before, every
    such draw was set aside and the bug went unseen."""
    buggy = _fuzz("SecondDrawFromTheBottom", "draw_rule", 3, tmp_path, capsys)
    found = {f["signature"]: f for f in buggy["findings"]}
    assert any(s.startswith("after draw: ") for s in found), list(found)
    for s, f in found.items():
        if s.startswith("after draw: "):
            assert f["reproducer"] is None and any(
                "the reference refuses `draw`" in p for p in f["problems"]), f
    honest = _fuzz("UntilPlayable", "draw_rule", 3, tmp_path, capsys)
    assert honest["findings"] == [], honest["findings"]
    assert honest.get("judged_by_cut", {}).get("draw_rule", 0) > 0, honest


@pytest.mark.parametrize(("adapter", "option"), [("AnywhereOffMarker", "marker_removal"),
                                                 ("CoverOwn", "follow_up")])
def test_answers_judged_by_a_cut_count_as_judged(
        adapter: str, option: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Four games (under 1 CPU s): steps judged but for the markers up before them, and
    legal answers the follow-ups' bracket judges (its two ends agreeing), are counted
    judged, and said to be so; nothing is found on the honest engine. Before, each was
    counted set aside (not_judged), as if nothing of it had been judged."""
    report = _fuzz(adapter, option, 4, tmp_path, capsys)
    assert report["findings"] == [], report["findings"]
    cut = report.get("judged_by_cut", {}).get(option, 0)
    assert report["not_judged"].get(option, 0) < cut, report


def test_a_step_whose_effect_its_own_rule_decides_is_not_judged_for_agreeing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The reference under `blocked_round: other` plays the stand-in itself, so every
    state it returns is the stand-in's: the passes on an empty boneyard, whose effect
    (whether the round ends) its blocked rule decides, are set aside all the same, not
    counted judged for agreeing with the stand-in. Four games, under 1 CPU s. Before,
    none was counted set aside."""
    report = _fuzz("ReferenceImplementation", "blocked_round", 4, tmp_path, capsys)
    assert report["findings"] == [], report["findings"]
    assert report["not_judged"].get("blocked_round", 0) > 0, report["not_judged"]


EXAMPLES = Path(__file__).parent / "examples"


@pytest.mark.slow  # hump's engine process: past the fast loop's 2 CPU s
def test_hump_s_round_blocked_a_pass_early_is_found_in_three_games(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """hump with its bugs on, three games of seed 2 (about 3 CPU s with the engine): its
    short round (END-3) is found, the blocked end sought again after its own rules left
    the script. Before, the first of seed 2's games to find it was the 15th (one round of
    27 blocked in 24 games)."""
    main(["fuzz", "--impl", f"{sys.executable} {EXAMPLES / 'hump_engine.py'}", "--rules",
          str(EXAMPLES / "hump-rules.yaml"), "--games", "3", "--seed", "2", "--json",
          "--out", str(tmp_path / "out"), "--shrink-seconds", "5"])
    report: dict[str, Any] = json.loads(capsys.readouterr().out)
    assert report["blocked_rounds"] > 0, report
    ends = [f for f in report["findings"] if f["charged"] == ["END-3"]]
    assert ends, [(f["signature"], f["charged"]) for f in report["findings"]]
