"""Deals of later rounds under every engine procedure (conformance/situation_deals.py's
later_deals), and of the last round a match of its own deals (own_last_deals): under a
set-aside engine no situation dealt past round 2, so reefer's bug 2
(tests/examples/js/reefer_engine.js, DEAL-1 broken from round 3 on) passed conform."""

from __future__ import annotations

import json
import shlex
import shutil
from pathlib import Path

import pytest

from mtrain.cli import main
from mtrain.conformance.situation_deals import own_last_deals, round_deals
from mtrain.spec.catalog import catalog
from mtrain.spec.ruleset import Ruleset

REEFER = Path(__file__).parent / "examples" / "js" / "reefer_engine.js"
REEFER_RULES = REEFER.with_name("reefer-rules.yaml")
NODE = shutil.which("node")


def _rounds_dealt(rs: Ruleset) -> dict[int, set[int]]:
    """Player count -> the rounds round_deals deals at it (round r's engine is the top
    less r - 1, ENG-1), the match's last round left out (a match of its own may lack it)."""
    top = 8 if rs["tile_set"] == "double-8" else 12
    out: dict[int, set[int]] = {}
    for fx in round_deals(rs):
        if fx.deal is not None and not fx.id.startswith("play-dealt-last"):
            out.setdefault(fx.deal["players"], set()).add(top - fx.deal["engine"] + 1)
    return out


@pytest.mark.parametrize("procedure", list(catalog().options["engine_procedure"].values))
def test_every_row_is_dealt_a_round_after_the_second_under_every_engine_procedure(
        procedure: str) -> None:
    """A deal broken only from round 3 on shows at every player count of the table,
    whatever the engine procedure (set-aside's deals stopped at round 2)."""
    base = catalog().ruleset("puremco")
    rs = Ruleset("own", tuple({**dict(base.choices), "engine_procedure": procedure}.items()),
                 base.hand_table)
    dealt = _rounds_dealt(rs)
    assert set(dealt) == set(dict(rs.hand_table)), dealt
    assert all(max(rounds) >= 3 for rounds in dealt.values()), dealt


def test_reefers_third_round_deal_is_each_hand_in_a_block() -> None:
    """reefer's rules (double-8, engine set aside, 12 tiles each at 3 players): round 3's
    engine is [6-6] (ENG-1), taken out first (ENG-2); the sorted pool's other 44 tiles
    dealt a hand at a time from the front (DEAL-1): seat 0 the first 12, seat 1 the next
    12, seat 2 the next, 8 left in the boneyard. Written out by hand, not by the model."""
    rs = catalog().rules_file(REEFER_RULES)
    later = [fx for fx in round_deals(rs) if fx.id.startswith("play-dealt-later-")]
    fx = next(f for f in later if f.deal and f.deal["players"] == 3)
    assert fx.deal == {"players": 3, "order": "sorted", "engine": 6} and fx.steps == ()
    pool = [f"{a}-{b}" for a in range(9) for b in range(a + 1) if (a, b) != (6, 6)]
    state = fx.expect[0].state
    assert {int(s): list(h) for s, h in state["hands"].items()} == {
        k: pool[12 * k:12 * k + 12] for k in range(3)}
    assert sorted(state["boneyard"]) == sorted(pool[36:])
    assert state["engine_placed"] is True


def test_the_last_round_a_match_of_its_own_deals_is_dealt() -> None:
    """reefer's match is five rounds at every count (own_rounds asks the engine): round
    5's engine is [4-4] (ENG-1), set aside (ENG-2), dealt at 3 players (rotating seat
    4 mod 3 = 1, not 0), the sorted pool's other 44 tiles a hand at a time (DEAL-1).
    Written out by hand. A last round of the full match (9) is last_round_deal's."""
    rs = catalog().rules_file(REEFER_RULES)
    (fx,) = own_last_deals(rs, {n: 5 for n in range(3, 8)})
    assert fx.id == "play-dealt-own-last-001"
    assert fx.deal == {"players": 3, "order": "sorted", "engine": 4} and fx.steps == ()
    pool = [f"{a}-{b}" for a in range(9) for b in range(a + 1) if (a, b) != (4, 4)]
    state = fx.expect[0].state
    assert {int(s): list(h) for s, h in state["hands"].items()} == {
        k: pool[12 * k:12 * k + 12] for k in range(3)}
    assert own_last_deals(rs, {n: 9 for n in range(3, 8)}) == []
    # two last rounds, two deals: each at the smallest count with it whose rotating seat
    # is not 0 there (round 5 at 4 players: 4 mod 4 = 0, so 5 players), else the smallest
    # (round 4 at 3 players, the only count with it: 3 mod 3 = 0)
    got = own_last_deals(rs, {3: 4, 4: 5, 5: 5})
    assert [(f.deal or {}).get("players") for f in got] == [3, 5]


def _reefer(tmp_path: Path, flag: str) -> dict[str, tuple[str, list[str]]]:
    out = tmp_path / "out.json"
    main(["conform", "--impl", shlex.join([NODE or "node", str(REEFER), *([flag] if flag else [])]),
          "--rules", str(REEFER_RULES), "-k", "play-dealt-later", "-k", "play-dealt-own-last",
          "--format", "json",
          "--output", str(out)])
    results = json.loads(out.read_text())["results"]
    return {r["fixture"]: (r["status"], r["charged"]) for r in results}


@pytest.mark.slow
@pytest.mark.skipif(NODE is None, reason="node is not installed: reefer is a JavaScript engine")
def test_conform_charges_reefers_round_robin_deal_to_dealing(tmp_path: Path) -> None:
    """reefer's bug 2 deals one tile at a time round the table from round 3 on: each of its
    five rows' third-round deals fails, and its match's last round's (5), charged to
    DEAL-1; with the bug off all pass."""
    got = _reefer(tmp_path, "--bug=dealer-round-robin")
    failed = [f"play-dealt-later-{k:03d}" for k in range(1, 6)] + ["play-dealt-own-last-001"]
    assert got == {f: ("fail", ["DEAL-1"]) for f in failed}, got
    fixed = _reefer(tmp_path, "")
    assert set(fixed) == set(got) and {s for s, _ in fixed.values()} == {"pass"}, fixed
