"""selection.select keeps its answer per process, by the fixtures (as loaded), the rule
sets and the patterns: a second conform under one rule file is not selected again, and a
changed fixture file or rule file is (session 52b)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mtrain.conformance import selection
from mtrain.conformance.fixture import FIXTURE_ROOT
from mtrain.conformance.selection import (
    Outside,
    Task,
    check_variants,
    load_fixtures,
    read_rules_files,
    select,
    select_anew,
)

EXAMPLES = Path(__file__).parent / "examples"
FILE = FIXTURE_ROOT / "doubles" / "first-turns.yaml"  # one fixture, two `when` products


@pytest.fixture(autouse=True)
def _empty_memo() -> Iterator[None]:
    selection._MEMO.clear()
    yield
    selection._MEMO.clear()


def seen(tasks: list[Task], outside: Outside) -> list[Any]:
    """Everything a run reads of a selection, as values (copies: not changed later)."""
    return [[(t.index, t.fixture.id, t.ruleset, t.expectation, t.sent, t.why) for t in tasks],
            dict(outside.rules), dict(outside.seats),
            {name: dict(by) for name, by in outside.counts.items()}]


def test_a_second_select_of_the_same_input_is_the_first_answer(tmp_path: Path) -> None:
    shutil.copy(FILE, tmp_path / "f.yaml")
    rulesets = [*check_variants(["pagat", "puremco"]),
                *read_rules_files([str(EXAMPLES / "sleeper-rules.yaml")])]
    fixtures, _ = load_fixtures(str(tmp_path))
    first = select(fixtures, rulesets, [])
    as_first = seen(*first)
    again, _ = load_fixtures(str(tmp_path))  # the same text: the same fixture objects
    second = select(again, rulesets, [])
    assert first[0] and all(a is b for a, b in zip(first[0], second[0], strict=True))
    assert first[0] is not second[0] and first[1] is not second[1]
    assert seen(*second) == seen(*select_anew(fixtures, rulesets, []))
    # what a caller does to its lists and counts is its own
    second[0].clear()
    second[1].rules["pagat"] = 99
    second[1].counts["pagat"][7] = 1
    assert seen(*select(fixtures, rulesets, [])) == as_first
    assert seen(*select(fixtures, rulesets, ["no-such-id"]))[0] == []  # patterns: a key


def test_a_changed_fixture_file_is_selected_again(tmp_path: Path) -> None:
    path = tmp_path / "f.yaml"
    shutil.copy(FILE, path)
    rulesets = check_variants(["pagat", "puremco", "pagat+blanks-25"])
    fixtures, _ = load_fixtures(str(tmp_path))
    before = seen(*select(fixtures, rulesets, []))
    text = FILE.read_text(encoding="utf-8")
    # the entry's second product gone: it speaks about puremco's tile set alone
    cut = "\n".join(line for line in text.splitlines() if "double-15, double-18" not in line)
    path.write_text(cut + "\n", encoding="utf-8")
    changed, errors = load_fixtures(str(tmp_path))
    assert not errors
    after = seen(*select(changed, rulesets, []))
    assert after == seen(*select_anew(changed, rulesets, []))
    assert after != before


def test_a_changed_rule_file_is_selected_again(tmp_path: Path) -> None:
    rules = tmp_path / "sleeper-rules.yaml"
    shutil.copy(EXAMPLES / "sleeper-rules.yaml", rules)
    fixtures, _ = load_fixtures(str(FIXTURE_ROOT / "doubles"))
    own = read_rules_files([str(rules)])
    before = seen(*select(fixtures, own, []))
    # one rule of its own made known, the name kept: another rule set all the same
    rules.write_text(rules.read_text(encoding="utf-8").replace(
        "double_order: other", "double_order: oldest-first"), encoding="utf-8")
    known = read_rules_files([str(rules)])
    assert known[0].name == own[0].name and known != own
    after = seen(*select(fixtures, known, []))
    assert after == seen(*select_anew(fixtures, known, []))
    assert after != before


def test_the_least_recently_asked_answer_goes_first(monkeypatch: pytest.MonkeyPatch) -> None:
    fixtures, _ = load_fixtures(str(FIXTURE_ROOT / "doubles"))
    pagat, puremco, blanks = ([rs] for rs in check_variants(
        ["pagat", "puremco", "pagat+blanks-25"]))
    sizes = [len(select(fixtures, rs, [])[0]) for rs in (pagat, puremco)]
    assert all(sizes)
    monkeypatch.setattr(selection, "MEMO_TASKS", sizes[0] + sizes[1])
    select(fixtures, pagat, [])  # asked again: puremco's is now the oldest
    select(fixtures, blanks, [])
    assert [key[2] for key in selection._MEMO] == [tuple(pagat), tuple(blanks)]
