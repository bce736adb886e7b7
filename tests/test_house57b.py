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
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from mtrain.cli import main

ENGINES = Path(__file__).with_name("test_house57.py")
RULES = """name: three-rounds
base: pagat
options:
  tile_set: double-6
  hand_sizes: {2: 7, 3: 6, 4: 5}
  first_turn: single
  match_length: other
"""


def _rules(tmp_path: Path) -> Path:
    rules = tmp_path / "three-rounds.yaml"
    rules.write_text(RULES, encoding="utf-8")
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
