"""A YAML text loaded before is read back from the cache (spec/yamlload.py) as the same
document: the same data, of the same types (integer keys, floats, booleans, null), and
the same line for every node; a text JSON cannot give back exactly is read anew each
time, and a damaged entry is ignored."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest

from mtrain.spec import cache, yamlload
from mtrain.spec.yamlload import DOCUMENT_KIND, load

TEXT = """\
- id: a
  table:
    hands:
      0: [1-2, 3-4]
      1: []
  ratio: 1.5
  whole: 2
  flag: true
  none: null
  note: "12"
"""


@pytest.fixture
def kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv(cache.CACHE_ENV, str(folder))
    return folder / DOCUMENT_KIND


def typed(value: object) -> object:
    """The value with the type of every part written beside it."""
    if isinstance(value, dict):
        return {(type(k).__name__, k): typed(v) for k, v in value.items()}
    if isinstance(value, list):
        return [typed(v) for v in value]
    return (type(value).__name__, value)


def test_a_kept_document_is_the_document_read_afresh(kept: Path) -> None:
    first = load("a.yaml", TEXT)
    assert len(list(kept.iterdir())) == 1
    again = load("b.yaml", TEXT)
    assert again.path == "b.yaml"
    assert typed(again.data) == typed(first.data)
    assert again.lines == first.lines
    assert again.data[0]["table"]["hands"][0] == ["1-2", "3-4"]  # an integer key
    assert again.line_of((0, "table", "hands", 1)) == 5


def test_a_date_is_never_kept(kept: Path) -> None:
    text = "- when: 2024-01-02\n"
    assert load("d.yaml", text).data == [{"when": datetime.date(2024, 1, 2)}]
    assert not kept.exists() or not list(kept.iterdir())
    assert load("d.yaml", text).data == [{"when": datetime.date(2024, 1, 2)}]


def test_a_damaged_entry_is_read_anew(kept: Path) -> None:
    first = load("a.yaml", TEXT)
    (entry,) = kept.iterdir()
    entry.write_bytes(b'{"format": 1, "value": {"data": {"m": 3}, "lines": []}}')
    assert typed(load("a.yaml", TEXT).data) == typed(first.data)
    entry.write_bytes(b"not json")
    assert typed(load("a.yaml", TEXT).data) == typed(first.data)


def test_an_error_is_raised_each_time(kept: Path) -> None:
    for _ in range(2):
        with pytest.raises(yamlload.SpecError, match=r"duplicate|twice"):
            load("e.yaml", "a: 1\na: 2\n")
