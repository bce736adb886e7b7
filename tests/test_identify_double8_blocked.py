"""identify's evidence for blocked_round and the own train on a double-8 set (flagstop,
tests/examples/flagstop_engine.py). Every corpus fixture that told END-2 from END-3 lays
tiles of 9 and up, so under a measured double-8 set none told them apart, and identify
left blocked_round undetermined (margin 0). ident44b-001..003 (conformance/fixtures/
round-end/ident44b-blocked-double-8.yaml, worked by counting) tell them apart on a double-8
set under any hand table: with them, flagstop's blocked_round is found `sure` at margin 3
with its bugs off. ident44b-004..006 (first-turn/ident44b-own-train-double-8.yaml) are
tables where flagstop's own `own_train_first` (the Mexican Train open before one's own
train, marked trains shut) answers as no known value does. Checked here without running
identify (65 to 77 CPU s cold): the fixtures' pieces as identify narrows them to
flagstop's measured rules, and the engine's answers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from file_module import file_module

from mtrain.conformance.fixture import FIXTURE_ROOT, load_file
from mtrain.conformance.identify.cells import explore_in
from mtrain.conformance.identify.measure import Deals
from mtrain.conformance.identify.measured import _sent, base_values, measured_region
from mtrain.conformance.identify.observe import observe
from mtrain.spec.catalog import catalog
from mtrain.spec.scope import Space

EXAMPLES = Path(__file__).parent / "examples"
FILE = FIXTURE_ROOT / "round-end" / "ident44b-blocked-double-8.yaml"
OWN = FIXTURE_ROOT / "first-turn" / "ident44b-own-train-double-8.yaml"
TABLE = {2: 12, 3: 10, 4: 9, 5: 7, 6: 6}  # flagstop's own (tests/examples/flagstop-rules.yaml)


def _flagstop() -> Any:
    return file_module(EXAMPLES / "flagstop_engine.py")


def _measured() -> tuple[Space, dict[str, frozenset[str]], Any]:
    """flagstop's region as its deals measure it, and the rule set identify asks under."""
    cat = catalog()
    space = Space(cat)
    deals = Deals(tile_set="double-8", table=dict(TABLE), procedure="set-aside",
                  seat="rotate")
    allowed = measured_region(space, deals)
    _, base = base_values(cat, cat.rules_file(str(EXAMPLES / "flagstop-rules.yaml")))
    return space, dict(allowed), _sent(space, allowed, base, deals, None)


def test_each_fixture_tells_the_blocked_round_apart_under_flagstops_measured_rules() -> None:
    space, allowed, _ = _measured()
    own = tuple(sorted(TABLE.items()))
    fixtures = load_file(FILE)
    assert [fx.id for fx in fixtures] == ["ident44b-001", "ident44b-002", "ident44b-003"]
    for fx in fixtures:
        pieces = explore_in(fx, {**space.full(), **allowed}, allowed, space, own)
        # the END-2 entry holds where the round is blocked as nobody can ever play, the
        # END-3 entry where a round of passes blocks it: each piece's outcomes say so
        for p in pieces:
            values = p.region.get("blocked_round", frozenset(space.options["blocked_round"]))
            if p.outcomes[0] == "pass":
                assert values == {"nobody-can-play"}, (fx.id, p)
            if p.outcomes[1] == "pass":
                assert values == {"full-round-of-passes"}, (fx.id, p)
        assert {o for p in pieces for o in p.outcomes[:1]} >= {"pass", "fail"}, fx.id


def test_flagstop_passes_the_end_2_entries_and_its_early_block_shows() -> None:
    _, _, sent = _measured()
    assert sent["blocked_round"] == "nobody-can-play" and sent["tile_set"] == "double-8"
    fixtures = load_file(FILE)
    module = _flagstop()
    fixed = observe(fixtures, module.Fixed(), sent)
    assert [o.outcomes for o in fixed] == [("pass", "fail")] * 3
    # bug 2 ("blocked-early", END-2): the round ends once the next player cannot play on
    # the table as it stands; in ident44b-003 seat 1 cannot, though seat 0 could once
    # seat 1's pass raised its marker: blocked after one pass, as neither value blocks it
    buggy = observe(fixtures, module.Flagstop(), sent)
    assert [o.outcomes for o in buggy] == [("pass", "fail"), ("pass", "fail"),
                                           ("fail", "fail")]


def test_flagstops_own_train_rule_fails_every_known_values_entry() -> None:
    # each entry is a known value's legal set, worked from the rule text: flagstop's house
    # rule gives another (004: its own train and the Mexican Train; 005: the same, the
    # Mexican empty; 006: a draw where not-required plays on the marked train, which
    # required also draws: that entry passes)
    _, _, sent = _measured()
    fixtures = load_file(OWN)
    assert [fx.id for fx in fixtures] == ["ident44b-004", "ident44b-005", "ident44b-006"]
    module = _flagstop()
    for impl in (module.Fixed(), module.Flagstop()):
        seen = observe(fixtures, impl, sent)
        assert [o.outcomes for o in seen] == [("fail", "fail"), ("fail", "fail", "fail"),
                                              ("pass", "fail")]
