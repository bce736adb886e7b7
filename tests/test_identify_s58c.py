"""identify on house engines, session 58 (third reading).

A table refused for a player count the engine's table does not deal (DEAL-7) is no
evidence about its round: bogey (tests/examples/tcl/bogey.tcl: 6 to 12 seats, a match of
its own) refused refused-002's five seats, as its table says, and was read as a likely
bug, `other` on its match length having been made to stand for the single round (which
lacks the fixture's round 8), as for a round the engine refuses.

A rule the engine declares its own that explains the fixtures as well as a known value is
kept (conclude.declared_kept): coaling (tests/examples/coaling_engine.py) declares
`scoring: other`, and was written penalty, "the fixtures lean away from the declared
rules", where both cost the same and the solver's lean (a fixture explained by known
values, one tie-break each) outweighed the engine's word (one tie-break).
"""

from __future__ import annotations

import z3

from mtrain.conformance.fixture import FIXTURE_ROOT, load_corpus
from mtrain.conformance.identify.cells import Piece
from mtrain.conformance.identify.conclude import declared_kept
from mtrain.conformance.identify.found import Observation
from mtrain.conformance.identify.observe import stand_ins, tables_had
from mtrain.conformance.identify.solve import NO_OTHER, Model, Solver, constraint
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


SCORING = ("penalty", "positive", "penalty-blocked-winner")
FIRST = {o: vs[0] for o, vs in SPACE.options.items()}


def scored_tables(n: int) -> list[tuple[list[Piece], tuple[str, ...]]]:
    """`n` scoring tables (entry i holds under SCORING[i] alone) the engine answers as
    penalty does: what a scoring of its own that differs only on other tables gives."""
    pieces = [Piece({"scoring": frozenset([v])},
                    tuple("pass" if i == k else "fail" for i in range(len(SCORING))),
                    ("scoring",)) for k, v in enumerate(SCORING)]
    return [(pieces, ("pass", "fail", "fail")) for _ in range(n)]


def solved(base: dict[str, str]) -> tuple[Solver, Model]:
    model = Model.of(SPACE)
    escapable = [o for o in SPACE.options if o not in NO_OTHER]
    declared = frozenset(o for o, v in base.items() if v == OTHER)
    soft = [(constraint(model, pieces, outcomes, escapable, declared), f"score-{k}")
            for k, (pieces, outcomes) in enumerate(scored_tables(3))]
    # one tie-break of the solver's lean (solve.Model.lean: a table failed throughout,
    # explained by known values inside penalty's region or by `other` on another option
    # it is about) held by penalty and not by `other`, as coaling's answers had it (two
    # of three held by penalty, one by `other`): it cancels the engine's word, and the
    # last tie-breaks take the earliest known value
    model.lean.append(model.inside({"scoring": frozenset({"penalty"})}))
    return Solver(model, soft, {}, {}, base), model


def test_a_declared_rule_of_its_own_the_fixtures_do_not_contradict_is_kept() -> None:
    base = {**FIRST, "scoring": OTHER}
    solver, model = solved(base)
    best = solver.solve()
    assert best is not None
    # the lean and the word even, the tie-breaks write penalty
    assert best.values["scoring"] == "penalty" and best.violated == []
    kept = declared_kept(solver, model, base, {}, best)
    assert kept.values == {**best.values, "scoring": OTHER}
    assert kept.cost == best.cost and kept.violated == []


def test_a_known_value_the_engine_declares_is_not_made_other() -> None:
    base = {**FIRST, "scoring": "penalty"}
    solver, model = solved(base)
    best = solver.solve()
    assert best is not None and best.values["scoring"] == "penalty"
    assert declared_kept(solver, model, base, {}, best) == best
