"""identify's reading of a known value with a bug against a rule of the engine's own
(conformance/identify/bugs.py), on pieces written by hand: the regions and outcomes below
are what a fixture's partition says under each blank rule, made up for each case; and on
junction, whose planted bug once left a wrong value sure with the bug model."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from shared_runs import SharedRuns
from test_house_engines import JUNCTION, identified

from mtrain.conformance.identify import bugs
from mtrain.conformance.identify.cells import ANY, Piece
from mtrain.spec.catalog import catalog
from mtrain.spec.ruleset import OTHER
from mtrain.spec.scope import Space

SPACE = Space()
BLANKS = ("face", "blank-25", "double-blank-50", "double-blank-25")
ANSWER = {o: vs[0] for o, vs in SPACE.options.items()} | {"blank_values": OTHER}


def scored(passes_under: dict[str, str]) -> list[Piece]:
    """One entry per blank rule: the entry holds under that rule only (score-009's shape),
    `passes_under` the outcome of each region for the one entry seen."""
    return [Piece({"blank_values": frozenset([v])}, (o,), ("blank_values",))
            for v, o in passes_under.items()]


ONLY_25 = scored({"face": "fail", "blank-25": "pass", "double-blank-50": "fail",
                  "double-blank-25": "fail"})
"""A table only blank-25 scores as the engine did, were it to pass."""
ALIKE = [Piece({}, ("fail",), ("blank_values",))]
"""A table every blank rule plays alike."""
IMPOSSIBLE = [Piece({"blank_values": frozenset(["face"])}, ("pass",), ("blank_values",)),
              Piece({"blank_values": frozenset(BLANKS[1:])}, (ANY,), ("blank_values",))]
"""A table only face values can hold: under the rest any answer fits (cells.ANY)."""


def test_fits_names_the_values_whose_outcomes_the_engine_gave() -> None:
    assert bugs.fits("blank_values", ANSWER, BLANKS, ("pass",), ONLY_25) == (
        frozenset(["blank-25"]), True)
    assert bugs.fits("blank_values", ANSWER, BLANKS, ("fail",), ONLY_25) == (
        frozenset(["face", "double-blank-50", "double-blank-25"]), True)
    # the values agree: the fixture tells none apart, whatever the engine answered
    assert bugs.fits("blank_values", ANSWER, BLANKS, ("pass",), ALIKE) == (frozenset(), False)
    # an impossible table fits no value by its ANY (it says nothing of them)
    assert bugs.fits("blank_values", ANSWER, BLANKS, ("fail",), IMPOSSIBLE) == (
        frozenset(), False)
    assert bugs.fits("blank_values", ANSWER, BLANKS, (None,), ONLY_25) is None


def test_a_value_shown_often_and_contradicted_rarely_is_the_value_with_a_bug() -> None:
    seen: dict[str, tuple[str | None, ...]] = {f"show-{k}": ("pass",) for k in range(6)}
    parts = {fid: ONLY_25 for fid in seen}
    seen["against"] = ("fail",)  # the engine scores it as face (or the other two) would
    parts["against"] = ONLY_25
    seen["alike"] = ("pass",)  # fails under every blank rule alike: no evidence
    parts["alike"] = ALIKE
    s = bugs.shape("blank_values", "blank-25", ANSWER, SPACE, frozenset(), seen, parts)
    assert s.shows == tuple(f"show-{k}" for k in range(6))
    assert s.like_another == ("against",) and s.unlike_all == () and s.alike == ("alike",)
    assert s.against == ("against",)  # the alike fixture is not evidence about blanks
    # six show it, one against: a bug where the engine declares blank-25 (3 to 1 is
    # enough) and also where it declares nothing (6 to 1)
    assert bugs.with_a_bug(s, "blank-25", "blank-25")
    assert bugs.with_a_bug(s, None, "blank-25")
    # an engine that declares the rule its own keeps it
    assert not bugs.with_a_bug(s, OTHER, "blank-25")
    # unexplained fixtures are no evidence either way
    s2 = bugs.shape("blank_values", "blank-25", ANSWER, SPACE, frozenset(["against"]),
                    seen, parts)
    assert s2.against == () and bugs.with_a_bug(s2, None, "blank-25")


def test_a_rule_of_its_own_differs_from_every_value_where_they_differ() -> None:
    # two tables show blank-25; three are scored as no blank rule scores them
    seen: dict[str, tuple[str | None, ...]] = {"show-1": ("pass",), "show-2": ("pass",)}
    parts = {fid: ONLY_25 for fid in seen}
    four = [Piece({"blank_values": frozenset([v])}, tuple("pass" if j == k else "fail"
                                                           for j in range(4)),
                  ("blank_values",)) for k, v in enumerate(BLANKS)]
    for k in range(3):
        seen[f"own-{k}"] = ("fail",) * 4
        parts[f"own-{k}"] = four
    s = bugs.shape("blank_values", "blank-25", ANSWER, SPACE, frozenset(), seen, parts)
    assert s.unlike_all == ("own-0", "own-1", "own-2") and len(s.shows) == 2
    assert not bugs.with_a_bug(s, "blank-25", "blank-25")
    assert not bugs.with_a_bug(s, None, "blank-25")


def test_what_fixtures_show_names_the_values_they_fit_not_the_one_asked_about() -> None:
    """issue 21's wording: "13 fixtures show blank-25" was said of fixtures that fit
    other blank rules, or none."""
    fits = {"a": frozenset(["blank-25"]), "b": frozenset(["blank-25", "face"]),
            "c": frozenset(["face", "double-blank-25"]), "d": frozenset(),
            "e": frozenset(["double-blank-25", "face"])}
    mine, text = bugs.shows("blank-25", list(fits), fits.get)
    assert mine == ["a", "b"]
    assert text == ("1 fixture shows blank-25 (a); 1 fixture shows blank-25 or face (b); "
                    "2 fixtures show double-blank-25 or face (c, e); "
                    "1 fixture shows no known value (d)")


@pytest.mark.slow  # two identify runs, about 80 CPU s with a cold cache, 10 warm
@pytest.mark.parametrize("fixed", [False, True], ids=["bugs-on", "bugs-off"])
def test_junction_is_never_wrong_when_sure_with_the_bug_model(
        fixed: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        shared_runs: SharedRuns, corpus_explored: None) -> None:
    """junction (double-15, 5 to 8 players): its planted DBL-4 bug answers open-double
    situations as ordinary doubles would, and fixtures read as bugs leave the solve; the
    bug model reverted at stop 35 left `doubles: ordinary` sure against the truth there.
    Bugs on and off, no value found wrong is `sure` or `measured`."""
    # (bugs on, the run test_house_engines.py's junction case reads: identified once)
    found = identified(shared_runs, ["--impl", JUNCTION.command(fixed)], tmp_path)
    capsys.readouterr()
    rs = catalog().rules_file(str(found))
    evidence = found.read_text(encoding="utf-8")
    wrong = {o: v for o, v in rs.choices if v != JUNCTION.truth[o]}
    wrong_sure = [o for o in wrong
                  if re.search(rf"^  {o}: '(sure|measured)", evidence, re.MULTILINE)]
    assert wrong_sure == [], (wrong, evidence)
