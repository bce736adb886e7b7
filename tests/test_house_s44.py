"""The suite's faults gondola (tests/examples/js/gondola_engine.js, a double-15 engine for
node with three house rules: its own starting seat, follow-up and order of doubles)
showed, each fixed with a test that failed before the fix."""

from __future__ import annotations

from mtrain.conformance.fixture import load_corpus
from mtrain.conformance.seat_alone import dealt_entry
from mtrain.conformance.selection import entry_for
from mtrain.spec.catalog import catalog
from mtrain.spec.ruleset import Ruleset
from mtrain.spec.scope import Space


def _with(base: str, **values: str) -> Ruleset:
    rules = catalog().ruleset(base)
    choices = {**dict(rules.choices), **values}
    return Ruleset("own", tuple(choices.items()), rules.hand_table)


def test_a_deal_runs_without_its_first_seat_under_a_starting_seat_of_its_own() -> None:
    """Under `starting_seat: other` every deal entry was not applicable (it expects a
    seat and starter), and with it the hands, the boneyard and the engine: a round whose
    engine was wrong passed unseen. Every known start deals puremco's sorted four-seat
    deal alike but for its seat, so the rest of the entry runs."""
    fx = next(f for f in load_corpus()[0] if f.id == "deal15-001")
    exp = next(e for e in fx.expect if "puremco" in e.variants)
    own = _with("puremco", starting_seat="other")
    entry, why = entry_for(fx, own, Space(catalog()))
    assert why is None and entry is not None
    # the fixture's own state (double-15.yaml) less its seat and starter
    assert entry.state == {"hand_sizes": [15, 15, 15, 15], "boneyard_size": 30,
                           "engine_placed": True, "phase": "start", "engine": 12}
    assert entry.legal is None and entry.refused == {}
    # a known start: nothing to cut (the entry runs whole)
    assert dealt_entry(exp, fx, _with("puremco"), Space(catalog())) is None
