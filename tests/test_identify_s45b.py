"""identify on a match of one's own that refuses later rounds (viaduct, tests/examples:
its match is the largest multiple of n rounds up to 19, and a later round's table is
refused): the refusal is evidence of a match of its own, not of `full`."""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace
from typing import Any

import pytest
import z3
from calibration import Served

from mtrain.conformance.adapter import JSON, RefusedSetup
from mtrain.conformance.fixture import FIXTURE_ROOT, load_corpus
from mtrain.conformance.identify import identify
from mtrain.conformance.identify.cells import Piece
from mtrain.conformance.identify.observe import _escapable, tables_had
from mtrain.conformance.identify.solve import Model, constraint
from mtrain.spec.catalog import catalog
from mtrain.spec.scope import Space

CAT = catalog()
SPACE = Space(CAT)


def _table_in_round_19() -> object:
    """tenseat-009's table without its step (as a situation from play, whose entries ask
    only the legal set): 11 players, engine [0-0], round 19 on double-18 (ENG-1), the
    last round of a full match (MATCH-1); single-round has no such round (MATCH-7)."""
    fixtures, errors = load_corpus()
    assert not errors
    fx = next(f for f in fixtures if f.id == "tenseat-009")
    assert fx.table is not None and fx.table["engine"] == 0
    return dataclasses.replace(fx, steps=())  # as a situation's table: no step


def test_the_values_without_a_later_rounds_table_are_asked_of_the_reference() -> None:
    # A table is put to an engine only with its first request (runner.play), not by
    # play itself: tables_had took every value as having round 19's table, single-round
    # too, so an engine that refused it was judged as if no value lacked it.
    fx = _table_in_round_19()
    sent = CAT.from_values({**dict(CAT.ruleset("pagat").choices), "tile_set": "double-18",
                            "hand_sizes": "custom"}, "sent", ((11, 10),))
    having = tables_had(sent, SPACE)
    assert having(fx, "match_length") == frozenset({"full"})  # type: ignore[arg-type]


def test_a_refused_table_whose_pieces_do_not_pin_the_match_stands_for_those_lacking_it(
        ) -> None:
    # A situation from play set in round 18 is explored under the rule set it was made
    # under (a full match): no piece pins match_length. Refused by the engine, `other`
    # stands for the values without the table (single-round, MATCH-7), not for none.
    fx = SimpleNamespace(clauses=("DBL-1",))  # all _escapable reads of the fixture
    every = frozenset(SPACE.options["match_length"])
    played = Piece({}, ("pass",), ())
    pieces = [played]

    def having(f: object, o: str) -> frozenset[str]:
        return frozenset({"full"})
    _, refused = _escapable(fx, ["match_length"], pieces, True,  # type: ignore[arg-type]
                            having, SPACE)
    assert refused == {"match_length": frozenset({"single-round"})}
    # played as the reference plays it: no value lacks it, nothing to stand for
    _, played_alike = _escapable(fx, ["match_length"], pieces, False,  # type: ignore[arg-type]
                                 lambda f, o: every, SPACE)
    assert played_alike == {"match_length": frozenset()}


def test_a_refusal_the_values_lacking_the_table_give_is_explained_by_them_or_other() -> None:
    # The engine refused a later round's table (every entry fails) whose explored pieces
    # all pass: the refusal is what single-round answers there (MATCH-7), or a match of
    # the engine's own; never full, which has the round. Before, nothing explained it,
    # and viaduct's 109 such tables were "likely bugs" and no evidence against full.
    model = Model.of(SPACE)
    pieces = [Piece({}, ("pass", "pass"), ())]
    lacking = {"match_length": frozenset({"single-round"})}

    def holds(value: str, outcomes: tuple[str, ...] = ("fail", "fail")) -> bool:
        c = constraint(model, pieces, outcomes, ["match_length"], frozenset(),
                       lacking, lacking)
        assert c is not None
        solver = z3.Solver(ctx=model.ctx)
        solver.add(*model.hard)
        solver.add(c, model.eq("match_length", value))
        return bool(solver.check() == z3.sat)

    assert holds("other") and holds("single-round")
    assert not holds("full")
    # an entry that passes is no refusal: unexplained as before
    assert not holds("other", ("pass", "fail")) and not holds("single-round", ("pass", "fail"))


class _ShortMatch(Served):
    """The reference under pagat, but its match has LAST rounds: a later round's deal, or
    a table set in one, is refused naming no clause (as viaduct's `match_length: other`:
    no clause names a club's match)."""

    LAST = 4

    def deal(self, ruleset: JSON, players: int, round: int, order: list[str],
             draw: list[list[str]] | None = None) -> JSON:
        if round > self.LAST:
            raise RefusedSetup(f"the match has rounds 1 to {self.LAST}, not {round}")
        return super().deal(ruleset, players, round, order, draw)

    def state(self, ruleset: JSON, state: JSON) -> Any:
        found = state.get("round") if isinstance(state, dict) else None
        if isinstance(found, int) and found > self.LAST:
            raise RefusedSetup(f"the match has rounds 1 to {self.LAST}, not {found}")
        return super().state(ruleset, state)


@pytest.mark.slow  # identify over the match and round-deal fixtures, with its situations
def test_an_engine_that_refuses_later_rounds_is_found_a_match_of_its_own() -> None:
    # An engine whose match has 4 rounds (pagat's double-12 has 13) and that declares
    # match_length `other`: the tables of rounds 2 to 4 show it has them (against
    # single-round), those of later rounds that it lacks them (against full). identify
    # wrote `full`, its refusals of later rounds read as likely bugs
    fixtures = []
    for folder in ("match", "deal"):
        some, errors = load_corpus(FIXTURE_ROOT / folder)
        assert some and not errors
        fixtures += some
    pagat = CAT.ruleset("pagat")
    declared = CAT.from_values({**dict(pagat.choices), "match_length": "other"}, "short")
    found = identify(_ShortMatch(pagat), fixtures, declared=declared)
    f = found.finding("match_length")
    assert (f.value, f.status) == ("other", "other"), f
    assert f.margin >= 2, f
    refused_later = [u for u in found.unexplained if u.startswith(("match-", "deal-"))]
    assert not refused_later, refused_later
