"""partition.applies' verdicts for rule sets of their own are kept on disk
(conformance/verdicts.py): a later selection over the same fixture files, rule set, code
and data reads them instead of running the reference again, and selects the same tasks
(session 57)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mtrain.conformance import partition, selection, verdicts
from mtrain.conformance.fixture import FIXTURE_ROOT
from mtrain.conformance.selection import Outside, Task, load_fixtures, read_rules_files, select_anew
from mtrain.spec.cache import CACHE_ENV
from mtrain.spec.scope import Space

EXAMPLES = Path(__file__).parent / "examples"
FILE = FIXTURE_ROOT / "doubles" / "first-turns.yaml"


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[list[int]]:
    """How many times the reference judged an entry (partition.applies), with a cache
    folder of the test's own."""
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    calls = [0]

    def counted(*args: Any) -> str | None:
        calls[0] += 1
        return partition.applies(*args)

    monkeypatch.setattr(verdicts, "applies", counted)
    monkeypatch.setattr(selection, "applies", counted)
    yield calls


def seen(tasks: list[Task], outside: Outside) -> list[Any]:
    return [[(t.index, t.fixture.id, t.ruleset, t.expectation, t.sent, t.why) for t in tasks],
            dict(outside.rules), dict(outside.seats),
            {name: dict(by) for name, by in outside.counts.items()}]


def own_rules() -> list[Any]:
    return read_rules_files([str(EXAMPLES / "sleeper-rules.yaml")])  # plays `other`


def test_a_later_selection_reads_the_verdicts(asked: list[int], tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    fixtures, _ = load_fixtures(str(FIXTURE_ROOT / "doubles"))
    reached: list[str | None] = []
    real = selection.unreached

    def counted(fx: Any, rs: Any) -> str | None:
        reached.append(real(fx, rs))
        return reached[-1]
    monkeypatch.setattr(selection, "unreached", counted)
    first = seen(*select_anew(fixtures, own_rules(), []))
    worked, looked = asked[0], len(reached)
    assert worked > 0 and looked > 0 and first[0]
    assert seen(*select_anew(fixtures, own_rules(), [])) == first
    assert (asked[0], len(reached)) == (worked, looked)  # read, not judged again
    monkeypatch.setenv(CACHE_ENV, "off")  # nothing kept: every entry judged, alike
    assert seen(*select_anew(fixtures, own_rules(), [])) == first
    assert asked[0] == 2 * worked


def test_a_changed_file_or_a_damaged_entry_is_judged_again(
        asked: list[int], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "fixtures"
    folder.mkdir()
    path = folder / "f.yaml"
    shutil.copy(FILE, path)
    fixtures, _ = load_fixtures(str(folder))
    before = seen(*select_anew(fixtures, own_rules(), []))
    worked = asked[0]
    assert worked > 0
    kept = list((tmp_path / "cache" / verdicts.KIND).glob("*.json"))
    assert len(kept) == 1
    kept[0].write_bytes(kept[0].read_bytes()[:-5])  # cut short: not read
    assert seen(*select_anew(fixtures, own_rules(), [])) == before
    assert asked[0] == 2 * worked
    # the entry's second product gone: another fixture at the same path, judged anew
    text = FILE.read_text(encoding="utf-8")
    path.write_text("\n".join(line for line in text.splitlines()
                              if "double-15, double-18" not in line) + "\n", encoding="utf-8")
    changed, errors = load_fixtures(str(folder))
    assert not errors
    after = seen(*select_anew(changed, own_rules(), []))
    assert asked[0] == 3 * worked
    monkeypatch.setenv(CACHE_ENV, "off")
    assert seen(*select_anew(changed, own_rules(), [])) == after


def test_a_space_of_ones_own_keeps_nothing(asked: list[int], tmp_path: Path) -> None:
    fixtures, _ = load_fixtures(str(FIXTURE_ROOT / "doubles"))
    select_anew(fixtures, own_rules(), [], Space())
    select_anew(fixtures, own_rules(), [], Space())
    assert asked[0] > 0 and asked[0] % 2 == 0
    assert not (tmp_path / "cache" / verdicts.KIND).exists()
