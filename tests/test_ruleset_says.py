"""Ruleset.says answers as the option read does, plain or traced, and the readers that ask
it (the table's starter, the deal's pool) follow the rule text under each answer: the scope
check's memo of runs serves the values that answer a question alike, so a wrong answer
would hand a run to values that play otherwise."""

from __future__ import annotations

import pytest

from mtrain.conformance import traced as T
from mtrain.conformance.runmemo import answer
from mtrain.reference.rules import Rules
from mtrain.spec import notation
from mtrain.spec.catalog import catalog
from mtrain.spec.ruleset import Ruleset
from mtrain.spec.scope import Space

SPACE = Space()
PAGAT = SPACE.point(catalog().ruleset("pagat"))


def with_value(option: str, value: str) -> Ruleset | None:
    """Pagat's rule set with `option` set to `value`, or None where no valid rule set has it
    beside pagat's other choices."""
    point = {**PAGAT, option: value}
    if SPACE.complete({o: frozenset((v,)) for o, v in point.items()}) is None:
        return None
    return SPACE.ruleset(point)


def variants(option: str) -> list[tuple[str, Ruleset]]:
    out = [(v, rs) for v in SPACE.options[option] if (rs := with_value(option, v))]
    assert len(out) >= 2, f"{option}: fewer than two values to tell apart"
    return out


def views(rs: Ruleset) -> list[Ruleset]:
    """The rule set as the engine and the scope check's traced runs see it."""
    return [rs, T.TracedRuleset.wrap(rs, T.Log())]


@pytest.mark.parametrize("option", ["starting_seat", "engine_procedure"])
def test_says_is_true_for_the_value_taken_and_false_for_every_other(option: str) -> None:
    for taken, rs in variants(option):
        for view in views(rs):
            for value in SPACE.options[option]:
                assert view.says(option, value) is (value == taken), (taken, value, view)


def test_the_memo_tells_a_rotating_start_from_the_others() -> None:
    """The memo's answer to the rotate question (runmemo.answer) is the rule set's: the
    rotating start apart from the rest, the rest alike."""
    question = ("says", ("starting_seat", "rotate"))
    answers = {v: answer(question, Rules.of(rs), rs)
               for v, rs in variants("starting_seat")}
    assert answers.pop("rotate") is True
    assert answers and set(answers.values()) == {False}


@pytest.mark.parametrize("round_no,seat", [(1, 2), (3, 0), (4, 1), (6, 3)])
def test_a_table_without_a_starter_starts_where_the_rule_set_says(round_no: int,
                                                                   seat: int) -> None:
    """SEAT-3: under the rotating start round r opens at seat (r-1) mod players; under any
    other starting seat an unwritten starter is the seat to move; a written one stands."""
    players = 4
    for value, rs in variants("starting_seat"):
        for view in views(rs):
            want = (round_no - 1) % players if value == "rotate" else seat
            assert notation.table_starter({}, view, round_no, players, seat) == want, value
            assert notation.table_starter({"starter": 3}, view, round_no, players, seat) == 3


@pytest.mark.parametrize("engine", [0, 5, 9])
def test_the_pool_lacks_the_engine_only_where_it_is_set_aside(engine: int) -> None:
    """ENG-2: the set-aside procedure deals from the set less the engine double; the other
    procedures deal every tile of the set, (N+1)(N+2)/2 of a double-N set."""
    double = f"{engine}-{engine}"
    for value, rs in variants("engine_procedure"):
        top = notation.max_pip_of(rs)
        assert top >= 9
        for view in views(rs):
            pool = notation.deal_order(view, engine, "sorted")
            aside = value == "set-aside"
            assert len(pool) == (top + 1) * (top + 2) // 2 - aside, value
            assert (double in pool) is not aside, value
