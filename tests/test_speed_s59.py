"""Session 59's cuts to conform's default run (docs/performance.md, session 59)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mtrain.conformance import selection
from mtrain.spec import cache
from mtrain.spec.catalog import catalog
from mtrain.spec.scope import Space

RULE_SETS = ("pagat", "puremco", "puremco-d9")


def test_situation_tasks_make_one_space_for_every_rule_set(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The option space depends on the catalogue alone: situation_tasks made one per rule
    set (282 in a default conform, about a sixth of the situations' CPU), and makes one
    now; each rule set's tasks are those it gets asked alone, with a space of its own."""
    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path / "cache"))
    rulesets = [catalog().ruleset(name) for name in RULE_SETS]
    made: list[Space] = []

    class Counted(Space):
        def __init__(self) -> None:
            super().__init__()
            made.append(self)

    monkeypatch.setattr(selection, "Space", Counted)
    together, _ = selection.situation_tasks(rulesets, 6, [], 0)
    assert len(made) == 1
    alone = [t for rs in rulesets for t in selection.situation_tasks([rs], 6, [], 0)[0]]
    assert len(made) == 1 + len(rulesets)
    assert together and len(together) == len(alone)
    assert [(t.fixture.id, t.ruleset.name, t.expectation) for t in together] == [
        (t.fixture.id, t.ruleset.name, t.expectation) for t in alone]
