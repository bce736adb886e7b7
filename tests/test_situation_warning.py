"""conform's warning that rules of one's own left fewer situations from play than asked
(conformance/selection.py situation_tasks): tender (tests/examples/tender_engine.py, its
first turn and doubles of its own) was told "936 situations from play under tender (of
700 asked): only tables whose question reads none of first_turn, doubles ... speak about
it", more than asked, as if its rules had cut the count. It is said only where they did."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from mtrain.conformance import situations
from mtrain.conformance.selection import situation_tasks
from mtrain.spec.catalog import catalog

RULES = Path(__file__).parent / "examples" / "tender-rules.yaml"


@pytest.mark.parametrize(("made", "warned"), [(936, False), (700, False), (431, True)])
def test_the_count_is_said_to_be_cut_only_where_it_was(
        made: int, warned: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    rs = catalog().rules_file(str(RULES))
    # (a table whose entry lists no play: nothing of it is cut for a rule of one's own)
    table = SimpleNamespace(expect=[SimpleNamespace(legal=None, refused_setup=None)])
    monkeypatch.setattr(situations, "situations", lambda *_: [table] * made)
    tasks, warnings = situation_tasks([rs], 700, [], 0)
    assert len(tasks) == made
    assert [w for w in warnings if "situations from play under tender" in w] == (
        [f"{made} situations from play under tender (of 700 asked): only tables whose "
         "question reads none of first_turn, doubles (played its own way) speak about "
         "it, however the round came there"] if warned else [])
