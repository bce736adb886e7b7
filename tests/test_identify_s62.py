"""identify's file says a bug the corpus showed (session 62): a value kept by its counts
(bugs.RATIO to one) names the few fixtures against it as read as bugs, and the file's
evidence line shows that note, which past six fixtures was cut off.

Session 61's clean-clone CI failed on it: ninepins' drawn double that ends the drawing
(TURN-5) left `draw_rule: draw-until-playable` likely, margin 17, the fixtures against it
in a note after the seventh fixture, and the line in the file said nothing of them."""

from __future__ import annotations

from test_identify_s61b import _weighed

from mtrain.conformance.identify.found import Identification, shown_evidence
from mtrain.spec.catalog import catalog


def test_a_value_kept_by_its_counts_reads_the_few_against_it_as_bugs() -> None:
    found = _weighed(43, 1)
    assert found.status == "likely"
    assert "(m-000) is read as a bug against 43 that show it" in found.evidence[-1]
    assert "are read as bugs against 12 that show it" in _weighed(12, 2).evidence[-1]


def test_the_file_shows_every_note_past_six_fixtures() -> None:
    found = _weighed(43, 1)
    shown = shown_evidence(found.evidence)
    assert shown[:6] == [f"s-{i:03}" for i in range(6)]
    assert shown[6:] == [found.evidence[-1]]  # the note: once, after the six
    plain = ["a", "b", "(a note)", "c"]
    assert shown_evidence(plain) == ["a", "b", "c", "(a note)"]
    assert shown_evidence(["(only a note)"]) == ["(only a note)"]


def test_the_file_line_of_a_finding_names_its_bugs() -> None:
    found = _weighed(43, 1)
    pagat = catalog().ruleset("pagat")
    ident = Identification(pagat, [found], [], 44, 44, 0.0, None, base="pagat")
    line = ident.to_file(catalog())["evidence"]["blank_values"]
    assert line.startswith("likely (margin 5): s-000, s-001, s-002, s-003, s-004, s-005, ")
    assert line.endswith("(m-000) is read as a bug against 43 that show it: a bug on such "
                         "tables, or a rule of its own that differs there alone)")
    assert "s-006" not in line
