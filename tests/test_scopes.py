"""Scopes: `when:` in fixtures, the partition of the option space, the scope check of
`mtrain lint`, and `--write-scopes`."""

from __future__ import annotations

import random
import textwrap
from pathlib import Path

import pytest

from mtrain.cli import main
from mtrain.conformance.fixture import load_corpus, load_file
from mtrain.conformance.lint.scopes import check_scopes, write_scopes
from mtrain.conformance.partition import explore, propose
from mtrain.conformance.traced import traced_run
from mtrain.spec.catalog import catalog
from mtrain.spec.scope import Space, parse_when
from mtrain.spec.yamlload import SpecErrors

SPACE = Space()

# One player to move holds [5-5] and [5-1]; the engine is [9-9], its own train ends in 5.
# Under every follow-up rule the legal plays are the same two tiles on its own train,
# but the *draw* rule decides nothing here and the scoring rules are never read.
TABLE = """\
- id: scope-001
  description: "Two tiles fit the own train"
  clauses: [TRAIN-4]
  source: [pagat]
  table:
    engine: 9
    seat: 0
    hands:
      0: [5-5, 5-1]
      1: [0-1]
    trains:
      0: [9-5]
  expect:
    - variants: [pagat]
{when}      legal: [play 5-5 on 0, play 5-1 on 0]
"""


def fixture_file(tmp_path: Path, when: str = "") -> Path:
    path = tmp_path / "scope.yaml"
    path.write_text(TABLE.format(when=when), encoding="utf-8")
    return path


def test_when_parses_one_product_or_a_list() -> None:
    cat = catalog()
    (one,) = parse_when(cat, {"follow_up": ["anywhere", "restricted"], "scoring": "penalty"})
    assert one.contains({"follow_up": "restricted", "scoring": "penalty"})
    assert not one.contains({"follow_up": "cover-own", "scoring": "penalty"})
    two = parse_when(cat, [{"scoring": ["positive"]}, {"tie_rule": ["most-outs"]}])
    assert len(two) == 2
    (every,) = parse_when(cat, {})
    assert every.contains({"scoring": "positive"})


@pytest.mark.parametrize("when, message", [
    ("      when: {follow: [anywhere]}\n", "unknown option 'follow'"),
    ("      when: {follow_up: [sideways]}\n", "unknown value 'sideways'"),
    ("      when: {follow_up: []}\n", "when"),
])
def test_a_bad_when_is_an_error_at_its_line(tmp_path: Path, when: str, message: str) -> None:
    path = fixture_file(tmp_path, when)
    with pytest.raises(SpecErrors) as info:
        load_file(path)
    (err,) = list(info.value)
    assert err.line == 15, str(err)
    assert message in str(err)


@pytest.mark.slow
def test_the_partition_predicts_every_outcome() -> None:
    """The claim the scope check rests on: every rule set of a region plays the fixture
    as the region's own run did. Checked on random valid rule sets, played afresh."""
    fixtures, _ = load_corpus()
    rng = random.Random(11)
    checked = 0
    for fx in rng.sample(fixtures, 25):
        part = explore(fx, SPACE)
        for _ in range(8):
            region = {o: frozenset([rng.choice(vs)]) for o, vs in SPACE.options.items()}
            values = SPACE.complete(region) or SPACE.complete({})
            assert values is not None
            (cell,) = [c for c in part.cells
                       if all(values[o] in vs for o, vs in c.region.items())]
            run = traced_run(fx, SPACE.ruleset(values))
            assert run.outcomes == cell.run.outcomes, (fx.id, values)
            checked += 1
    assert checked == 200


def test_proposal_is_wider_and_holds(tmp_path: Path) -> None:
    (fx,) = load_file(fixture_file(tmp_path))
    part = explore(fx, SPACE)
    (scope,) = propose(part, SPACE)
    # The legal plays do not depend on the draw rule, scoring or markers: none is named.
    named = {o for p in scope.products[len(scope.variants):] for o, _ in p.allowed}
    assert not named & {"draw_rule", "scoring", "blank_values", "marker_removal"}
    puremco = dict(catalog().ruleset("puremco").choices)
    assert scope.contains(puremco) and not fx.expect[0].scope.contains(puremco)


def test_a_scope_too_wide_is_reported_with_an_example(tmp_path: Path) -> None:
    # Under own-train-first the own train is already started: still legal. But a
    # scope that claims double-9 *and* a 10 in hand would not load; instead claim every
    # rule set for a table whose legal plays do change with the first-turn rule.
    text = TABLE.format(when="      when: {}\n").replace(
        "    seat: 0\n", "    seat: 0\n    first_turns: all\n").replace(
        "      0: [9-5]\n", "      0: []\n").replace("[5-5, 5-1]", "[9-1, 9-2]").replace(
        "legal: [play 5-5 on 0, play 5-1 on 0]", "legal: [play 9-1 on 0, play 9-2 on 0]")
    path = tmp_path / "wide.yaml"
    path.write_text(text, encoding="utf-8")
    fixtures = load_file(path)
    report = check_scopes(fixtures, SPACE)
    assert report.errors, "a scope that does not hold everywhere must be an error"
    assert any("does not hold where" in e and "e.g." in e for e in report.errors)
    assert all(f"{path}:" in e for e in report.errors)


def test_overlapping_entries_are_an_error(tmp_path: Path) -> None:
    text = TABLE.format(when="      when: {scoring: [penalty]}\n") + textwrap.indent(
        "- variants: [puremco]\n  when: {scoring: [penalty]}\n"
        "  legal: [play 5-5 on 0, play 5-1 on 0]\n", "    ")
    path = tmp_path / "overlap.yaml"
    path.write_text(text, encoding="utf-8")
    report = check_scopes(load_file(path), SPACE)
    assert any("both speak about" in e for e in report.errors)


def test_write_scopes_round_trip_keeps_comments(tmp_path: Path) -> None:
    path = fixture_file(tmp_path)
    path.write_text("# a comment that must stay\n" + path.read_text(), encoding="utf-8")
    report = check_scopes(load_file(path), SPACE)
    assert len(report.proposals) == 1
    write_scopes(report.proposals, SPACE, tmp_path)
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# a comment that must stay\n")
    assert "      when:" in text
    again = check_scopes(load_file(path), SPACE)
    assert again.errors == [] and again.proposals == []
    assert again.beyond_written == 1


def test_write_scopes_rewrites_an_entry_that_opens_with_when(tmp_path: Path) -> None:
    """An entry written `- when: ...` (no `variants`) is widened in place, the dash kept."""
    path = tmp_path / "scope.yaml"
    path.write_text(TABLE.format(when="").replace(
        "    - variants: [pagat]\n", "    - when: {scoring: [penalty]}\n"), encoding="utf-8")
    report = check_scopes(load_file(path), SPACE)
    assert len(report.proposals) == 1
    write_scopes(report.proposals, SPACE, tmp_path)
    text = path.read_text(encoding="utf-8")
    assert "    - when:" in text and "scoring: [penalty]" not in text
    again = check_scopes(load_file(path), SPACE)
    assert again.errors == [] and again.proposals == []


# The shipped corpus's scopes (they hold, no two entries meet, each is the widest):
# tests/test_fixtures.py::test_corpus_is_lint_clean, the one run of the corpus scope check.


def test_lint_cli_reports_the_scope_check(capsys: pytest.CaptureFixture[str],
                                          tmp_path: Path) -> None:
    path = fixture_file(tmp_path)
    assert main(["lint", str(path)]) in (0, 1)  # coverage of a private folder may fail
    out = capsys.readouterr().out
    assert "wider:" in out and "scope-001 entry 1" in out
    assert "scopes: 1 entries of 1 fixtures" in out


REFUSED_BY_TWO = """\
- id: lint-refusal-001
  description: "a refusal that lists one of the two clauses refusing it"
  clauses: [TRAIN-2, TRAIN-4]
  source: [pagat]
  table:
    engine: 9
    hands: {0: [4-3, 8-8], 1: [rest], 2: [5-5]}
    trains: {0: [9-4], 1: [9-6], 2: [9-2], mexican: [9-7]}
    boneyard: []
  expect:
    - variants: [pagat]
      refused:
        play 8-8 on 1: %s
"""


@pytest.mark.parametrize("listed, errors", [("TRAIN-2", 1), ("[TRAIN-2, TRAIN-4]", 0)])
def test_a_refusal_must_list_every_clause_that_refuses_it(tmp_path: Path, listed: str,
                                                          errors: int) -> None:
    """[8-8] matches nothing on seat 1's train (TRAIN-2), which carries no marker
    (TRAIN-4): an implementation citing either is right, so the entry must list both."""
    path = tmp_path / "refusal.yaml"
    path.write_text(REFUSED_BY_TWO % listed)
    found = check_scopes(load_file(path), Space(), kept=False).errors
    assert len(found) == errors, found
    if errors:
        assert "refused by TRAIN-2, TRAIN-4" in found[0] and "list every clause" in found[0]
