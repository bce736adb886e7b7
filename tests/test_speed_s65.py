"""Session 65's cuts to what the default `mtrain conform` repeats per result: a rule set's
verdicts entry found by the rule set's identity (verdicts.Verdicts._of), not by a digest
of its repr per entry asked. Each keeps what it gives: one entry per rule set's value."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from mtrain.conformance import verdicts
from mtrain.spec import cache
from mtrain.spec.catalog import catalog
from mtrain.spec.scope import Space


def test_a_rule_sets_verdicts_entry_is_named_once_and_shared_by_equal_rule_sets(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path / "cache"))
    named = [0]
    plain = verdicts.ruleset_value

    def counted(rs: Any) -> str:
        named[0] += 1
        return plain(rs)

    monkeypatch.setattr(verdicts, "ruleset_value", counted)
    kept = verdicts.Verdicts(Space())
    pagat = catalog().ruleset("pagat")
    same = dataclasses.replace(pagat)  # equal, another object
    other = catalog().ruleset("puremco")
    assert pagat is not same and pagat == same
    first = kept._of(pagat)
    for _ in range(5):
        assert kept._of(pagat) is first
    assert named[0] == 1  # named once, however often asked
    assert kept._of(same) is first  # an equal rule set: the same entry, as by its name
    assert named[0] == 2
    assert kept._of(other) is not first  # another value: an entry of its own
    first[1]["x:0"] = "why"  # a verdict worked out under one serves its equal
    assert kept._of(same)[1]["x:0"] == "why"
