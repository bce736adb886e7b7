"""identify on an engine that declares its house rules under wrong known names (session 51,
marshal): a failure in clauses every value shares is read as a bug, not as a rule of the
engine's own, on an option whose declared value the answer keeps; where the fixtures
that tell the values apart leave the declared value for another known one, the
declaration is no reason to keep `other` out. On an observation and answers written by
hand (no engine is played)."""

from __future__ import annotations

from pathlib import Path

from mtrain.conformance.fixture import load_file
from mtrain.conformance.identify import shared
from mtrain.conformance.identify.found import Observation
from mtrain.conformance.identify.measure import ruleset_of
from mtrain.spec.catalog import catalog
from mtrain.spec.ruleset import OTHER, Ruleset

CAT = catalog()
FIXTURES = Path(__file__).parent.parent / "conformance" / "fixtures"
MARSHAL_SAYS = {"doubles": "ordinary", "own_train_first": "required",
                "scoring": "penalty-blocked-winner", "follow_up": "anywhere",
                "mexican_first_turn": "anyone"}
"""What marshal (tests/examples/marshal_engine.py) declares of the options it plays its
own way, or which they touch; the rest at each option's first value."""


def declared(values: dict[str, str]) -> Ruleset:
    base = {o: next(iter(opt.values)) for o, opt in CAT.options.items()}
    return ruleset_of(CAT, {**base, **values}, name="declared")


def word_of(rs: Ruleset) -> set[str]:
    """The options the engine declares a known value of (run.py's `word`)."""
    return {o for o, v in rs.choices if v in CAT.options[o].values}


def test_a_declared_value_the_answer_leaves_for_another_is_doubted() -> None:
    """marshal's answer with the barrier: doubles open, own_train_first not-required,
    follow_up cover-own (each another known value than declared), scoring `other` (the
    declaration already set aside), mexican_first_turn as declared."""
    rs = declared(MARSHAL_SAYS)
    answer = {**dict(rs.choices), "doubles": "open", "own_train_first": "not-required",
              "follow_up": "cover-own", "scoring": OTHER}
    assert shared.doubted(word_of(rs), rs, answer) == {
        "doubles", "own_train_first", "follow_up"}
    # an answer that keeps every declared value (signalbox, interlock: their bugs in
    # TRAIN-4 and TURN-3 were read as rules of their own once other could stand there)
    assert shared.doubted(word_of(rs), rs, dict(rs.choices)) == frozenset()
    assert shared.doubted(word_of(rs), None, answer) == frozenset()


def test_a_shared_failure_keeps_other_out_only_of_a_word_still_kept() -> None:
    """house49a-014 (a first turn whose own train is empty; marshal's TRAIN-7 table),
    failed in TRAIN-4 alone, a clause with no `when`: while the engine's word on
    own_train_first and doubles stands, `other` stands for neither; once the answer leaves
    the declared doubles (doubted), it may stand for doubles, not for own_train_first."""
    fx = next(f for f in load_file(FIXTURES / "turns" / "house49a-own-train-empty.yaml")
              if f.id == "house49a-014")
    assert not CAT.clauses["TRAIN-4"].when
    obs = Observation(fx, ("fail",), by_entry={0: ("TRAIN-4",)})
    assert shared.shared_failure(obs, CAT)
    free = ["own_train_first", "doubles", "tie_rule"]
    word = {"own_train_first", "doubles", "scoring"}
    assert shared.escaping(obs, CAT, free, {}, word) == ["tie_rule"]
    word -= {"doubles"}
    assert shared.escaping(obs, CAT, free, {}, word) == ["doubles", "tie_rule"]
    # a failure charged to a clause some value decides is evidence about the option
    decided = Observation(fx, ("fail",), by_entry={0: ("TRAIN-7",)})
    assert CAT.clauses["TRAIN-7"].when
    assert shared.escaping(decided, CAT, free, {}, {"own_train_first", "doubles"}) == free
