"""identify on house engines, session 58.

A table of two entries, each held by one known double order (a Mexican-first order of
one's own fails both), under every known release but one, which binds nothing so that
neither entry holds (brakeman, tests/examples/rust/brakeman.rs: s56-005 to s56-008). A
release of one's own, standing for that value, fitted the table to both known orders at
once: 19 such tables were no evidence against oldest-first or any-open, and
`double_order: other` stood on a margin of 3. A value under which no entry holds tells
nothing of the options the entries tell apart (solve.vacuous).
"""

from __future__ import annotations

from typing import Any

import z3

from mtrain.conformance.identify.cells import Piece
from mtrain.conformance.identify.solve import Model, constraint, vacuous
from mtrain.spec.catalog import catalog
from mtrain.spec.ruleset import OTHER
from mtrain.spec.scope import Space

CAT = catalog()
SPACE = Space(CAT)
FREE = [o for o in SPACE.options if o not in ("tile_set", "hand_sizes")]
READ = ("double_order", "doubles", "uncoverable_double")
BINDING = ("stays-open", "released", "released-when-boneyard-empty")


def holds(model: Model, c: Any, values: dict[str, str]) -> bool:
    """Whether fixture constraint `c` holds at `values` (the rest of the options free)."""
    s = z3.Solver(ctx=model.ctx)
    s.add(*model.hard, c, *(model.eq(o, v) for o, v in values.items()))
    return bool(s.check() == z3.sat)


def order_table() -> list[Piece]:
    """Entry 0 holds under oldest-first, entry 1 under any-open, wherever a double of an
    earlier turn binds; under the release after the layer's turn none binds and neither
    holds; ordinary doubles bind nothing either."""
    pieces = [Piece({"doubles": frozenset({"open"}), "double_order": frozenset({order}),
                     "uncoverable_double": frozenset({release})}, outcomes, READ)
              for release in BINDING
              for order, outcomes in (("oldest-first", ("pass", "fail")),
                                      ("any-open", ("fail", "pass")))]
    pieces.append(Piece({"doubles": frozenset({"open"}),
                         "uncoverable_double": frozenset({"released-after-layers-turn"})},
                        ("fail", "fail"), READ))
    pieces.append(Piece({"doubles": frozenset({"ordinary"})}, ("fail", "fail"),
                        ("doubles",)))
    return pieces


def test_a_value_under_which_no_entry_holds_is_no_rule_of_ones_own_for_the_table() -> None:
    model = Model.of(SPACE)
    c = constraint(model, order_table(), ("fail", "fail"), FREE)
    assert c is not None
    mine = {"doubles": "open", "uncoverable_double": OTHER}
    # the engine fails both entries: an order of its own explains it, with any release
    assert holds(model, c, {**mine, "double_order": OTHER})
    # before, a release of one's own (standing for the one under which nothing binds, or
    # as an answer no entry gives) fitted both known orders too
    for order in ("oldest-first", "any-open"):
        assert not holds(model, c, {**mine, "double_order": order})
    # nor where the engine declares its release its own (a rule the runs read)
    declared = constraint(model, order_table(), ("fail", "fail"), FREE,
                          frozenset({"uncoverable_double", "double_order"}))
    assert not holds(model, declared, {**mine, "double_order": "any-open"})
    assert holds(model, declared, {**mine, "double_order": OTHER})
    # the value itself still explains the table, with either order: it binds nothing
    for order in ("oldest-first", "any-open"):
        assert holds(model, c, {"doubles": "open", "double_order": order,
                                "uncoverable_double": "released-after-layers-turn"})
    # as does a doubles rule of one's own: the outcomes depend on doubles only through
    # ordinary, which holds nothing either, so it too explains nothing here
    assert not holds(model, c, {"doubles": OTHER, "double_order": "oldest-first",
                                "uncoverable_double": "released"})


def test_an_option_whose_values_hold_entries_apart_is_not_vacuous() -> None:
    held = order_table()
    seen = [(0, "fail"), (1, "fail")]
    assert vacuous(held, seen) == {"uncoverable_double", "doubles"}
    # one entry alone: failing it is what a value that fails it says (not vacuous)
    assert vacuous(held, [(0, "fail")]) == frozenset()
    # every piece holds some entry: nothing is vacuous
    assert vacuous(held[:6], seen) == frozenset()
    # no option's values hold the entries apart (one entry holds, under one value): a
    # value that holds neither is what the fixture tells, not a vacuous fit
    assert vacuous([held[0], held[6]], seen) == frozenset()


def test_an_answer_no_value_gives_is_still_a_rule_of_ones_own() -> None:
    """Only a failure of every entry fits vacuously: both entries held is an answer no
    value gives, which a release of one's own may give."""
    model = Model.of(SPACE)
    c = constraint(model, order_table(), ("pass", "pass"), FREE)
    assert holds(model, c, {"doubles": "open", "double_order": "oldest-first",
                            "uncoverable_double": OTHER})
