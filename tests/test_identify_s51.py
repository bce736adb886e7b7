"""identify on an engine that declares its house rules under wrong known names (session 51,
marshal): a failure in clauses every value shares is read as a bug, not as a rule of the
engine's own, on an option whose declared value the answer keeps; where the fixtures
that tell the values apart leave the declared value for another known one, the
declaration is no reason to keep `other` out. And (sleeper, a match to 200 points declared
`full`) a match the engine ends where the entry expects it to go on is read as a match of
its own, though a scoring rule of its own explains the rest of the entry. On observations
and answers written by hand, and fixtures of the corpus (no engine is played)."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import cast

import z3

from mtrain.conformance.adapter import Implementation
from mtrain.conformance.fixture import Fixture, load_file
from mtrain.conformance.identify import bugs, shared
from mtrain.conformance.identify.found import Observation
from mtrain.conformance.identify.measure import ruleset_of
from mtrain.conformance.identify.solve import Model
from mtrain.spec.catalog import catalog
from mtrain.spec.ruleset import OTHER, Ruleset
from mtrain.spec.scope import Space

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


class Winners:
    """An implementation that answers `winners` alone, naming `named` (the rest is never
    asked by shared.over_early)."""

    def __init__(self, named: list[int]) -> None:
        self.named = named

    def winners(self, rj: object, state: object) -> list[int]:
        return self.named


def match_goes_on() -> Fixture:
    """generated-match-length-001: after round 1 the match goes on under full (its one
    entry, `match_over: false`, about match_length full alone)."""
    return next(f for f in load_file(FIXTURES / "generated" / "match-length.yaml")
                if f.id == "generated-match-length-001")


def test_a_match_named_won_where_the_entry_expects_it_to_go_on_is_over_early() -> None:
    """sleeper ends its match once a total reaches 200: after a round that leaves the
    match going under every value the entry is about, it names the winners."""
    exp = match_goes_on().expect[0]
    assert exp.match_over is False
    ended, going = cast(Implementation, Winners([0])), cast(Implementation, Winners([]))
    assert shared.over_early(exp, {}, {}, ended)
    assert not shared.over_early(exp, {}, {}, going)
    assert not shared.over_early(dataclasses.replace(exp, match_over=None), {}, {}, ended)


def test_a_match_over_early_is_explained_only_by_a_match_of_its_own() -> None:
    """The entry's constraint (here: anything holds, as where `other` on blank_values
    explains the scores it fails too) is kept, and its early end explained only by
    `other` on match_length or by a value the entry is not about (single-round, whose
    match has ended there): not by full. Where match_length may not be `other` in the
    fixture, or nothing ended early, the constraint is left as it was."""
    space = Space(CAT)
    model = Model.of(space)
    anything = model.all([])
    fx = match_goes_on()
    obs = Observation(fx, ("fail",), over_early=frozenset([0]))
    c = shared.own_match(model, anything, obs, ["match_length", "blank_values"], CAT)

    def holds(value: str) -> bool:
        s = z3.Solver(ctx=model.ctx)
        s.add(*model.hard, c, model.eq("match_length", value))
        return bool(s.check() == z3.sat)
    assert {v: holds(v) for v in ["full", "single-round", OTHER]} == {
        "full": False, "single-round": True, OTHER: True}
    assert shared.own_match(model, anything, obs, ["blank_values"], CAT) is anything
    plain = Observation(fx, ("fail",))
    assert shared.own_match(model, anything, plain, ["match_length"], CAT) is anything


def counts(shows: int, like: int, unlike: int, alike: int) -> bugs.Shape:
    """A shape of these many fixtures (named by their place: only the counts are read)."""
    def ids(kind: str, n: int) -> tuple[str, ...]:
        return tuple(f"{kind}-{k}" for k in range(n))
    return bugs.Shape(ids("shows", shows), ids("like", like), ids("unlike", unlike),
                      ids("alike", alike))


def test_a_declared_value_is_read_with_a_bug_on_an_even_count() -> None:
    """The shapes recorded in session 51's runs (a fixture shows a value only where no
    other known value gives the engine's outcome): caboose's tie rule, declared most-outs,
    its bug a tie on totals and outs won by the lower seat (7 show most-outs, 7 give
    another value's outcome), and tandem's blank values, declared blank-25, its bug the
    double blank counted 25, not 50 (12 to 10), are the declared value with a bug; marshal's
    blocked round, the hand worth least scoring 0 (3 show the declared
    penalty-blocked-winner, 5 fit no known value), is a rule of its own. Undeclared, the
    same counts read no value with a bug."""
    caboose, tandem, marshal = counts(7, 7, 0, 23), counts(12, 10, 0, 24), counts(3, 0, 5, 15)
    assert bugs.with_a_bug(caboose, "most-outs", "most-outs")
    assert bugs.with_a_bug(tandem, "blank-25", "blank-25")
    assert not bugs.with_a_bug(marshal, "penalty-blocked-winner", "penalty-blocked-winner")
    assert not bugs.with_a_bug(caboose, None, "most-outs")
    assert not bugs.with_a_bug(tandem, "face", "blank-25")
    assert not bugs.with_a_bug(caboose, OTHER, "most-outs")
