"""A deal runs under rules of play of one's own (conformance/deal_play_alone.py): tender
(tests/examples/tender_engine.py) plays its first turn its own way ("three to get going"),
and every deal entry that asks the first mover's legal set was not applicable whole, the
dealt hands and boneyard with it: its planted bug 1 (a boneyard a tile short) went unseen
there."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from mtrain.cli import main
from mtrain.conformance.deal_play_alone import play_options
from mtrain.conformance.fixture import load_corpus
from mtrain.conformance.partition import applies
from mtrain.conformance.selection import entry_for, read_rules_files
from mtrain.spec.catalog import catalog
from mtrain.spec.scope import Space

EXAMPLES = Path(__file__).parent / "examples"
RULES = EXAMPLES / "tender-rules.yaml"
FIRST_TURN = "its outcome depends on first_turn (played its own way)"


def test_a_deal_runs_as_its_dealt_state_under_a_first_turn_of_its_own() -> None:
    """heavy-003 deals 4 players sorted on double-9: under tender's table (10 each, the
    engine set aside) 54 - 40 = 14 tiles are left (DEAL-1, ENG-2) and the rotation starts
    at seat 0 (SEAT-3), as the entry writes them; its legal set is the first turn's, and
    goes. A first-turn table (s56-001: which trains seat 2's first tile may go on) stays
    not applicable: that is the house rule's own question."""
    rs = read_rules_files([str(RULES)])[0]
    corpus = {f.id: f for f in load_corpus()[0]}
    space = Space(catalog())
    heavy = corpus["heavy-003"]
    assert FIRST_TURN in {applies(e, heavy, rs, space) for e in heavy.expect}
    entry, why = entry_for(heavy, rs, space)
    assert why is None and entry is not None
    assert entry.legal is None and not entry.refused
    assert entry.state == {"phase": "start", "engine_placed": True, "seat": 0, "starter": 0,
                           "hand_sizes": [10, 10, 10, 10], "boneyard_size": 14}
    # 3 players: the entry's 13 each (puremco-d9) are not tender's 11, the table's own
    # fields go (table_alone.py), the rest is still the deal's
    entry, why = entry_for(corpus["heavy-001"], rs, space)
    assert why is None and entry is not None
    assert entry.state == {"phase": "start", "engine_placed": True, "seat": 0, "starter": 0}
    assert entry_for(corpus["s56-001"], rs, space) == (None, FIRST_TURN)
    # a draw for the start is the starting seat's question: not a bare deal
    assert entry_for(corpus["draw-001"], rs, space) == (None, FIRST_TURN)


def test_only_rules_of_play_of_ones_own_are_set_aside_at_a_deal() -> None:
    rs = read_rules_files([str(RULES)])[0]
    assert play_options(FIRST_TURN, rs) == {"first_turn"}
    both = "its outcome depends on first_turn (played its own way), doubles (played its own way)"
    assert play_options(both, rs) == {"first_turn", "doubles"}
    # a rule tender plays as a known value, a deal's own rule, a table of its own: none
    assert play_options("its outcome depends on draw_rule (played its own way)", rs) == set()
    assert play_options("its outcome depends on starting_seat (played its own way)",
                        rs) == set()
    assert play_options("its outcome depends on hand_sizes (played with a table of its "
                        "own, the reference finds another outcome than the entry's) and on "
                        "first_turn (played its own way)", rs) == set()


def _tender(tmp_path: Path, fixed: str) -> dict[str, Any]:
    out = tmp_path / f"{fixed}.json"
    main(["conform", "--impl", f"{sys.executable} {EXAMPLES / 'tender_engine.py'} --fixed "
          f"{fixed}", "--rules", str(RULES), "-k", "heavy-003", "--situations", "0",
          "--format", "json", "--output", str(out)])
    result: dict[str, Any] = json.loads(out.read_text())["results"][0]
    return result


def test_a_short_boneyard_is_found_on_a_deal_under_a_first_turn_of_its_own(
        tmp_path: Path) -> None:
    """tender's bug 1 drops the pool's last tile as if it were the engine (ENG-2)."""
    fixed = _tender(tmp_path, "1,2")
    assert fixed["status"] == "pass", fixed
    bug = _tender(tmp_path, "2")
    assert bug["status"] == "fail", bug
    assert any("tiles nowhere" in m for m in bug["messages"]), bug
