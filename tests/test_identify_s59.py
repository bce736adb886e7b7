"""identify, session 59.

A value under which no entry of a table holds is no evidence about the options the
entries tell apart (solve.vacuous, session 58): a rule of one's own standing for it fits
every one of their values at once. But where the engine declares that option its own and
every option the entries tell apart a known value, its word reads the table: its rule of
its own takes the table's premise away, as the vacant value does, and the declared known
values are not contradicted (a match of 4 rounds, declared `other`, fails every tie-rule
entry of the last round of a full match, as single-round does; read as vacuous, 39 such
tables wrote single-round, test_identify_s45b). Where it declares a told option its own
too, that rule explains the table by itself (brakeman, test_identify_s58).
"""

from __future__ import annotations

from typing import Any

import z3
from test_identify_s58 import order_table

from mtrain.conformance.identify.cells import Piece
from mtrain.conformance.identify.solve import Model, constraint, vacuous
from mtrain.spec.catalog import catalog
from mtrain.spec.ruleset import OTHER
from mtrain.spec.scope import Space

CAT = catalog()
SPACE = Space(CAT)
FREE = [o for o in SPACE.options if o not in ("tile_set", "hand_sizes")]
FAILED = ("fail", "fail", "fail")


def holds(model: Model, c: Any, values: dict[str, str]) -> bool:
    """Whether fixture constraint `c` holds at `values` (the rest of the options free)."""
    s = z3.Solver(ctx=model.ctx)
    s.add(*model.hard, c, *(model.eq(o, v) for o, v in values.items()))
    return bool(s.check() == z3.sat)


def last_round_ties() -> list[Piece]:
    """house47a-001's shape: the last round of a full match ends on a tie, one entry per
    tie rule; under single-round the match's totals are not these and no entry holds."""
    read = ("match_length", "tie_rule")
    return [*(Piece({"match_length": frozenset({"full"}), "tie_rule": frozenset({rule})},
                    outcomes, read)
              for rule, outcomes in (("shared", ("pass", "fail", "fail")),
                                     ("most-outs", ("fail", "pass", "fail")),
                                     ("lowest-seat", ("fail", "fail", "pass")))),
            Piece({"match_length": frozenset({"single-round"})}, FAILED, read)]


def test_a_declared_rule_of_ones_own_takes_a_tables_premise_away() -> None:
    seen = [(0, "fail"), (1, "fail"), (2, "fail")]
    assert vacuous(last_round_ties(), seen) == {"match_length"}
    # declared its own, beside tie rules declared known: its word reads the table
    assert vacuous(last_round_ties(), seen, declared=frozenset({"match_length"})) == set()
    # a tie rule declared its own too: that rule explains the table by itself
    assert vacuous(last_round_ties(), seen,
                   declared=frozenset({"match_length", "tie_rule"})) == {"match_length"}
    model = Model.of(SPACE)
    mine = {"match_length": OTHER, "tie_rule": "shared"}
    c = constraint(model, last_round_ties(), FAILED, FREE, frozenset({"match_length"}))
    assert c is not None and holds(model, c, mine)
    # undeclared, the match of one's own fits no tie rule there (session 58's reading)
    c = constraint(model, last_round_ties(), FAILED, FREE)
    assert c is not None and not holds(model, c, mine)


def test_a_release_declared_its_own_beside_a_known_order_explains_the_order_table() -> None:
    # brakeman's shape, its order declared a known value: the release of its own may be
    # what binds nothing there; declared its own too, the order explains it (session 58)
    model = Model.of(SPACE)
    mine = {"doubles": "open", "uncoverable_double": OTHER, "double_order": "oldest-first"}
    c = constraint(model, order_table(), ("fail", "fail"), FREE,
                   frozenset({"uncoverable_double"}))
    assert c is not None and holds(model, c, mine)
    c = constraint(model, order_table(), ("fail", "fail"), FREE,
                   frozenset({"uncoverable_double", "double_order"}))
    assert c is not None and not holds(model, c, mine)
