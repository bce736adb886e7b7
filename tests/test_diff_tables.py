"""`mtrain diff` where one side's hand table or tile set cannot set up what the other's
plays: those fixtures are refused there (DEAL-7) or are no table of its set, whatever the
rules in play, so they are summed up on one line with the reason, not listed as
differences (a two-player-only table's diff listed 221 fixtures, mostly rows it lacks)."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

from mtrain import cli
from mtrain.conformance import diffing
from mtrain.spec.catalog import catalog

EXAMPLES = Path(__file__).parent / "examples"


def two_players(tmp_path: Path) -> Path:
    path = tmp_path / "duo.yaml"
    path.write_text("name: duo\nbase: pagat\noptions:\n  hand_sizes: {2: 15}\n",
                    encoding="utf-8")
    return path


def test_a_two_player_table_differs_in_no_fixture_it_can_play(tmp_path: Path) -> None:
    report = diffing.diff("pagat", str(two_players(tmp_path)), with_situations=False)
    # pagat deals 2 players 15 tiles, as duo does: nothing at two seats tells them apart
    assert [f["id"] for f in report["fixtures"] if f["tells_apart"]] == []
    gap, = report["not_compared"]
    assert gap["side"] == "B" and gap["seats"] == list(range(3, 11))
    assert len(gap["fixtures"]) > 200
    assert gap["why"] == ("B (duo) has no hand size for 3 to 10 players (DEAL-7: refused), "
                          "where A (pagat) plays them")
    text = io.StringIO()
    with contextlib.redirect_stdout(text):
        assert cli.main(["diff", "pagat", str(two_players(tmp_path)), "--no-situations"]) == 0
    lines = text.getvalue().splitlines()
    assert lines[1] == ("  option hand_sizes: pagat -> custom (2 to 4: 15, 5 and 6: 12, "
                        "7 and 8: 10, 9 and 10: 8 -> 2: 15)")
    assert lines[-1] == f"not compared: {len(gap['fixtures']):,} fixtures: {gap['why']}"
    assert not any(line.startswith("  ") for line in lines[2:])  # no fixture listed


def test_a_smaller_set_and_table_say_which_fixtures_they_cannot_set_up() -> None:
    cat = catalog()
    flagstop = cat.rules_file(EXAMPLES / "flagstop-rules.yaml")  # double-8, 2 to 6 players
    gap, = diffing.not_compared(cat.ruleset("pagat"), flagstop)
    assert gap["side"] == "B" and gap["seats"] == [7, 8, 9, 10]
    assert gap["why"].startswith("B (flagstop) has no hand size for 7 to 10 players "
                                 "(DEAL-7: refused) and lacks the tiles past 8 that ")
    # the other way round, the side is A
    gap, = diffing.not_compared(flagstop, cat.ruleset("pagat"))
    assert gap["side"] == "A"


def test_player_counts_and_hand_tables_in_words() -> None:
    assert diffing._counts([3]) == "3"
    assert diffing._counts([5, 6]) == "5 and 6"
    assert diffing._counts([3, 4, 5, 9, 11, 12, 13]) == "3 to 5, 9 and 11 to 13"
    assert diffing.hand_rows(catalog().ruleset("pagat")) == (
        "2 to 4: 15, 5 and 6: 12, 7 and 8: 10, 9 and 10: 8")
