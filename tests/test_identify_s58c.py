"""identify on house engines, session 58 (third reading).

A table refused for a player count the engine's table does not deal (DEAL-7) is no
evidence about its round: bogey (tests/examples/tcl/bogey.tcl: 6 to 12 seats, a match of
its own) refused refused-002's five seats, as its table says, and was read as a likely
bug, `other` on its match length having been made to stand for the single round (which
lacks the fixture's round 8), as for a round the engine refuses.
"""

from __future__ import annotations

import z3

from mtrain.conformance.fixture import FIXTURE_ROOT, load_corpus
from mtrain.conformance.identify.cells import Piece
from mtrain.conformance.identify.found import Observation
from mtrain.conformance.identify.observe import stand_ins, tables_had
from mtrain.conformance.identify.solve import Model, constraint
from mtrain.spec.catalog import catalog
from mtrain.spec.ruleset import OTHER
from mtrain.spec.scope import Space

CAT = catalog()
SPACE = Space(CAT)
BIG_TABLE = ((6, 16), (7, 15), (8, 14), (9, 13), (10, 12), (11, 11), (12, 10))
"""bogey's table (its header): no row for five players."""
REFUSED_002 = [
    # what the reference gives refused-002 (a 5-seat table, engine [9-9]: round 8 on
    # double-16) under a table without five seats: a full match refuses it by DEAL-7 (entry
    # 0 holds, entry 1, its play, does not); a single round has no round 8 (MATCH-7), so
    # the refusal entry expecting DEAL-7 fails too
    Piece({"match_length": frozenset({"full"})}, ("pass", "fail"),
          ("tile_set", "match_length", "hand_sizes")),
    Piece({"match_length": frozenset({"single-round"})}, ("fail", "fail"),
          ("tile_set", "match_length")),
]


def refused_002() -> Observation:
    """refused-002 as bogey answered it: the setup refused (DEAL-7), the entry expecting
    that refusal passing, the entry expecting play not seen (observe._unseated)."""
    fixtures, errors = load_corpus(FIXTURE_ROOT / "deal")
    assert not errors
    fx = next(f for f in fixtures if f.id == "refused-002")
    return Observation(fx, ("pass", None), refused=True, lacks=False)


def sent_big() -> object:
    base = dict(CAT.ruleset("pagat").choices)
    return CAT.from_values({**base, "tile_set": "double-16", "hand_sizes": "custom"},
                           "big", BIG_TABLE)


def satisfiable(model: Model, c: object, values: dict[str, str]) -> bool:
    s = z3.Solver(ctx=model.ctx)
    s.add(*model.hard, c, *(model.eq(o, v) for o, v in values.items()))
    return bool(s.check() == z3.sat)


def test_a_table_refused_for_a_player_count_not_dealt_is_read_as_one_it_has() -> None:
    obs = refused_002()
    having = tables_had(sent_big(), SPACE)  # type: ignore[arg-type]
    # (a single round lacks round 8, MATCH-7: the reference refuses it before DEAL-7)
    assert having(obs.fixture, "match_length") == frozenset({"full"})
    free, only, lacking = stand_ins(obs, ["match_length"], REFUSED_002, having, SPACE)
    assert only == {"match_length": frozenset({"full"})}  # before: {single-round}
    assert lacking == {}
    model = Model.of(SPACE)
    c = constraint(model, REFUSED_002, obs.outcomes, free, only=only, lacking=lacking)
    # a match of its own plays the table as a full match would: no contradiction
    assert satisfiable(model, c, {"match_length": OTHER})
    assert satisfiable(model, c, {"match_length": "full"})
    assert not satisfiable(model, c, {"match_length": "single-round"})


def test_a_table_refused_as_a_round_the_rules_lack_still_stands_for_those_lacking_it(
        ) -> None:
    # the same refusal of a table the engine deals (its player count in its table): the
    # round is what it lacks, `other` standing for the values without it, and the values
    # with it contradicted (observe.Observation.lacks)
    obs = refused_002()
    obs.lacks = True

    def having(fx: object, o: str) -> frozenset[str]:
        return frozenset({"full"})
    _, only, lacking = stand_ins(obs, ["match_length"], REFUSED_002, having, SPACE)
    assert only == lacking == {"match_length": frozenset({"single-round"})}
