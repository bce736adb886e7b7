"""What session 57's house engine (wye) left open, each fixed with a test that failed
before the fix. The engines are tests/test_house57.py's: the reference in process with a
match of three rounds of its own (it refuses the deal of round 4, MATCH-1).

- fuzz took an empty `winners` answer under `match_length: other` as the engine's match
  going on, even where the engine refuses the round after (its match over by its own
  word): NamesNobody showed nothing. Now an empty answer passes only where the engine
  deals the round after (match_over.holds_match_over), as conform's check asks it.
- the corpus's `winners` fixtures, cut to leave the match's end to a length of one's own
  (match_end_alone.py), accepted an empty answer at any round, the engine's last too:
  now required wherever the engine refuses the round after.
- under `draw_rule: other`, a table with a tile drawn was the draw rule's whole (the
  reference reads the rule there), so `draw` listed on an empty boneyard, which no draw
  rule allows (TURN-4), was judged nowhere: fuzz charged wye's to no clause. Now such a
  table is judged for the draw alone (draw_alone.dry_draw_entry), the rest left to the
  rule, in conform and in fuzz (own_release.legal_cut, refusal_cut) alike.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from match_of_three import THREE_ROUNDS

from mtrain.cli import main
from mtrain.conformance.adapter import JSON, ReferenceImplementation

ENGINES = Path(__file__).with_name("test_house57.py")


def _rules(tmp_path: Path) -> Path:
    rules = tmp_path / "three-rounds.yaml"
    rules.write_text(THREE_ROUNDS, encoding="utf-8")
    return rules


@pytest.mark.parametrize(("adapter", "found"), [("NamesNobody", ["winners"]),
                                                ("ThreeRounds", [])])
def test_fuzz_judges_an_empty_winners_answer_where_its_own_match_is_over(
        adapter: str, found: list[str], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Two games (under 1 CPU s): the first ends round 3, the last its match deals: NamesNobody
    names nobody there and is found, charged to who wins (MATCH-2; MATCH-4 at a tie), as
    conform charges its reproducer; the engine that names its winners shows nothing.
    Before, NamesNobody showed nothing either."""
    main(["fuzz", "--adapter", f"{ENGINES}:{adapter}", "--rules", str(_rules(tmp_path)),
          "--games", "2", "--seed", "1", "--json", "--out", str(tmp_path / "out"),
          "--shrink-seconds", "10"])
    report: dict[str, Any] = json.loads(capsys.readouterr().out)
    assert [f["signature"] for f in report["findings"]] == found, report["findings"]
    for f in report["findings"]:
        assert f["first"]["round"] == 3 and f["charged"] in (["MATCH-2"], ["MATCH-4"]), f
        assert f["messages"] == [m for m in f["messages"]
                                 if re.fullmatch(r"winners: reference \[[\d, ]+\], "
                                                 r"implementation \[\]", m)]


@pytest.mark.parametrize(("adapter", "fails"), [("NamesNobody", True), ("ThreeRounds", False)])
def test_corpus_winners_are_required_where_its_own_match_is_over(
        adapter: str, fails: bool, tmp_path: Path) -> None:
    """The corpus's match fixtures end rounds 3 and later, where the engine refuses the
    round after: NamesNobody names nobody and fails each winners check, charged to who
    wins; before, every one passed ("or none, while its own match goes on")."""
    out = tmp_path / "report.json"
    main(["conform", "--adapter", f"{ENGINES}:{adapter}", "--rules", str(_rules(tmp_path)),
          "--fixtures", str(Path(__file__).parents[1] / "conformance/fixtures/match"),
          "--situations", "0", "--format", "json", "--output", str(out)])
    report: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    failed = [r for r in report["results"] if r["status"] not in ("pass", "not-applicable")]
    assert report["summary"]["pass"] + len(failed) >= 10, report["summary"]
    if not fails:
        assert failed == []
        return
    assert len(failed) >= 5, report["summary"]
    for r in failed:
        text = "\n".join(r["messages"] or [r["message"]])
        assert re.fullmatch(r"winners: expected \[[\d, ]+\], got \[\]", text), text
        assert r["charged"] in (["MATCH-2"], ["MATCH-4"]), r


# --- a draw rule of one's own: what every draw rule refuses stays judged ---------------

OWN_DRAW = """name: own-draw
base: pagat
options:
  tile_set: double-6
  hand_sizes: {2: 7, 3: 6, 4: 5}
  first_turn: single
  draw_rule: other
"""


class ListsDryDraw(ReferenceImplementation):
    """The reference as its rules are sent (a draw rule it may call its own), with a
    planted bug as wye's: once a tile is drawn, `draw` is listed on an empty boneyard
    too (breaks TURN-4 where the drawn tile cannot be played, TURN-3 where it can), and
    refused when asked."""

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        out = super().legal(ruleset, state)
        if (state.get("phase") == "start" and state.get("drawn") is not None
                and not state.get("boneyard") and {"type": "draw"} not in out):
            out = [*out, {"type": "draw"}]
        return out


def _own_draw(tmp_path: Path) -> Path:
    rules = tmp_path / "own-draw.yaml"
    rules.write_text(OWN_DRAW, encoding="utf-8")
    return rules


def test_fuzz_judges_a_draw_listed_on_an_empty_boneyard_under_a_draw_rule_of_its_own(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Nine games (about 1.5 CPU s): the draw listed after the last tile is drawn, which
    cannot be played, is found and charged to TURN-4, with a reproducer conform runs
    (its legal set judged for the draw alone: none). Before, the legal answer
    there was not judged, and the contradiction (listed, then refused) had no reproducer
    ("conform would not run it") nor any charge of conform's."""
    main(["fuzz", "--adapter", f"{__file__}:ListsDryDraw", "--rules", str(_own_draw(tmp_path)),
          "--games", "9", "--seed", "1", "--json", "--out", str(tmp_path / "out"),
          "--shrink-seconds", "10"])
    report: dict[str, Any] = json.loads(capsys.readouterr().out)
    found = {f["signature"]: f for f in report["findings"]}
    assert "allows draw (TURN-4)" in found, list(found)
    for f in report["findings"]:
        assert f["charged"] == ["TURN-4"] and f["reproducer"] and f["problems"] == [], f
        text = Path(f["reproducer"]).read_text(encoding="utf-8")
        assert "boneyard: []" in text and "drawn: " in text, text


@pytest.mark.parametrize(("adapter", "status"), [("ListsDryDraw", "fail"),
                                                 ("ReferenceImplementation", "pass")])
def test_conform_judges_a_drawn_tile_table_under_a_draw_rule_of_its_own(
        adapter: str, status: str, tmp_path: Path) -> None:
    """s54-003: the boneyard's last tile drawn fits the Mexican Train, and the boneyard
    is empty: no draw, whatever the draw rule (what is played, or a pass, is the rule's).
    Before, not applicable under `draw_rule: other`; now run for the draw alone: the
    listed draw fails, charged as the reference refuses it there (TURN-3: the drawn tile
    can be played), and the reference passes."""
    out = tmp_path / "report.json"
    main(["conform", "--adapter", f"{__file__}:{adapter}", "--rules", str(_own_draw(tmp_path)),
          "-k", "s54-003", "--situations", "0", "--format", "json", "--output", str(out)])
    report: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    (result,) = report["results"]
    assert result["status"] == status, result
    if status == "fail":
        assert result["charged"] == ["TURN-3"], result
        assert result["messages"] == ["legal actions not allowed by the rules: draw"], result
