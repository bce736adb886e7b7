"""identify on house engines, session 58.

A table of two entries, each held by one known double order (a Mexican-first order of
one's own fails both), under every known release but one, which binds nothing so that
neither entry holds (brakeman, tests/examples/rust/brakeman.rs: s56-005 to s56-008). A
release of one's own, standing for that value, fitted the table to both known orders at
once: 19 such tables were no evidence against oldest-first or any-open, and
`double_order: other` stood on a margin of 3. A value under which no entry holds tells
nothing of the options the entries tell apart (solve.vacuous).

Unless the engine was seen to play that value its own way (solve.played): tender
(tests/examples/tender_engine.py) plays a double laid on its layer's own train as an
ordinary tile and one laid elsewhere as open (`doubles: other`). It passes the tables only
ordinary doubles hold, and fails both entries of a table of a double on its own train
whose entries tell the follow-ups apart; read as vacuous, 8 such tables were left to no
rule set at all, a bug hinted where there is none.
"""

from __future__ import annotations

from typing import Any

import z3

from mtrain.conformance.adapter import JSON
from mtrain.conformance.fixture import load_corpus
from mtrain.conformance.identify.cells import ANY, Piece, corpus_pieces
from mtrain.conformance.identify.observe import observe
from mtrain.conformance.identify.solve import Model, constraint, played, vacuous
from mtrain.conformance.serve import FixedRules
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


def follow_table() -> list[Piece]:
    """Entry 0 holds under the follow-ups anywhere and restricted, entry 1 under cover-own,
    a double laid on the layer's own train (doubles-001); ordinary doubles hold neither."""
    return [*(Piece({"doubles": frozenset({"open"}), "follow_up": frozenset({follow})},
                    outcomes, ("doubles", "follow_up"))
              for follow, outcomes in (("anywhere", ("pass", "fail")),
                                       ("restricted", ("pass", "fail")),
                                       ("cover-own", ("fail", "pass")))),
            Piece({"doubles": frozenset({"ordinary"})}, ("fail", "fail"), ("doubles",))]


def test_a_value_seen_played_its_own_way_is_what_a_rule_of_ones_own_may_be() -> None:
    model = Model.of(SPACE)
    mine = {"doubles": OTHER, "follow_up": "anywhere"}
    # never seen played, ordinary doubles fit the follow-ups vacuously (brakeman's shape)
    assert vacuous(follow_table(), [(0, "fail"), (1, "fail")]) == {"doubles"}
    c = constraint(model, follow_table(), ("fail", "fail"), FREE)
    assert not holds(model, c, mine)
    # seen played (an entry only they hold, passed): a doubles rule of one's own may play
    # this double as ordinary, whatever the follow-up
    shown = {"doubles": frozenset({"ordinary"})}
    assert vacuous(follow_table(), [(0, "fail"), (1, "fail")], shown) == frozenset()
    c = constraint(model, follow_table(), ("fail", "fail"), FREE, shown=shown)
    assert holds(model, c, mine)
    assert holds(model, c, {**mine, "follow_up": "cover-own"})
    # brakeman's release never seen played: still vacuous beside ordinary doubles seen
    assert vacuous(order_table(), [(0, "fail"), (1, "fail")], shown) == {"uncoverable_double"}


def test_only_a_value_alone_holding_an_entry_passed_is_seen_played() -> None:
    laid = [Piece({"doubles": frozenset({"open"})}, ("pass", "fail"), ("doubles",)),
            Piece({"doubles": frozenset({"ordinary"})}, ("fail", "pass"), ("doubles",))]
    assert played([(laid, ("fail", "pass"))]) == {"doubles": frozenset({"ordinary"})}
    assert played([(laid, ("pass", "fail"))]) == {"doubles": frozenset({"open"})}
    # failed, unseen: nothing played
    assert played([(laid, ("fail", "fail")), (laid, (None, None))]) == {}
    # an entry held under two values of the option is neither's alone
    both = [Piece({"follow_up": frozenset({v})}, outcomes, ("follow_up",))
            for v, outcomes in (("anywhere", ("pass", "fail")),
                                ("restricted", ("pass", "fail")),
                                ("cover-own", ("fail", "pass")))]
    assert played([(both, ("pass", "fail"))]) == {}
    assert played([(both, ("fail", "pass"))]) == {"follow_up": frozenset({"cover-own"})}
    # the other value never has the table: nothing played otherwise there
    alone = [laid[1], Piece({"doubles": frozenset({"open"})}, (ANY, ANY), ())]
    assert played([(alone, ("fail", "pass"))]) == {}


class OwnDoublesOrdinary(FixedRules):
    """Open doubles, but a double laid on the layer's own train is an ordinary tile: it
    ends the turn and nothing has to cover it (tender's `doubles: other`). A table with
    such a double, not open, is played as ordinary doubles play it."""

    def __init__(self) -> None:
        pagat = CAT.ruleset("pagat")
        super().__init__(pagat)
        self.ordinary = FixedRules(CAT.from_values(
            {**dict(pagat.choices), "doubles": "ordinary"}, "pagat-ordinary", pagat.hand_table))

    @staticmethod
    def laid_ordinary(state: JSON, action: JSON | None = None) -> bool:
        def double(tile: object) -> bool:
            ends = str(tile).split("-")
            return len(ends) == 2 and ends[0] == ends[1]
        if action is not None and double(action.get("tile")) \
                and action.get("train") == state.get("seat"):
            return True
        open_ = {str(t) for t in state.get("open_doubles", [])}
        trains = [*enumerate(state.get("trains", [])), ("mexican", state.get("mexican"))]
        return any(isinstance(t, dict) and t.get("tiles") and double(t["tiles"][-1])
                   and str(i) not in open_ for i, t in trains)

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        if self.laid_ordinary(state):
            return self.ordinary.legal(ruleset, state)
        return super().legal(ruleset, state)

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        if self.laid_ordinary(state, action):
            return self.ordinary.apply(ruleset, state, action)
        return super().apply(ruleset, state, action)


def test_an_engine_whose_own_train_doubles_are_ordinary_is_read_as_its_doubles_rule() -> None:
    fixtures, errors = load_corpus()
    assert not errors
    asked = [fx for fx in fixtures if fx.id in ("house47a-010", "doubles-001")]
    seen = {o.fixture.id: o for o in observe(asked, OwnDoublesOrdinary(), CAT.ruleset("pagat"))}
    # [3-3] laid on its own train ends the turn, as ordinary doubles have it; [5-5] too,
    # so neither follow-up of an open double holds
    assert seen["house47a-010"].outcomes == ("fail", "pass")
    assert seen["doubles-001"].outcomes == ("fail", "fail")
    pieces = corpus_pieces(asked, SPACE)
    shown = played((pieces[i], o.outcomes) for i, o in seen.items())
    assert "ordinary" in shown["doubles"]
    model = Model.of(SPACE)
    # its rules: pagat's, its doubles rule its own
    mine = {**dict(CAT.ruleset("pagat").choices), "doubles": OTHER}
    c = constraint(model, pieces["doubles-001"], seen["doubles-001"].outcomes, FREE,
                   shown=shown)
    assert holds(model, c, mine)  # its doubles rule of its own explains the table
    # read as vacuous (ident58's reading), the table was no rule set's
    c = constraint(model, pieces["doubles-001"], seen["doubles-001"].outcomes, FREE)
    assert not holds(model, c, mine)
