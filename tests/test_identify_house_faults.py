"""identify on engines with house rules: faults found on tests/examples' engines
(signalbox), each shown here on a small stand-in that costs seconds, not a minute."""

from __future__ import annotations

import pytest
from calibration import Served

from mtrain.conformance.adapter import JSON, RefusedSetup
from mtrain.conformance.fixture import FIXTURE_ROOT, Fixture, load_corpus
from mtrain.conformance.identify import identify
from mtrain.spec.catalog import catalog
from mtrain.spec.ruleset import OTHER, Ruleset

CAT = catalog()


def folders(*names: str) -> list[Fixture]:
    out = []
    for name in names:
        found, errors = load_corpus(FIXTURE_ROOT / name)
        assert found and not errors
        out += found
    return out


def declaring(rs: Ruleset, *own: str) -> Ruleset:
    """`rs` as an engine declares it, the options `own` its own rules (`other`)."""
    return Ruleset("declared", tuple((o, OTHER if o in own else v) for o, v in rs.choices),
                   rs.hand_table)


class PartyMatch(Served):
    """signalbox's two house rules on pagat's others: a match of four rounds (the deal of
    a later round is refused, naming no clause) and the player dealt the most doubles
    leads (the lowest seat among equals): neither is a known value."""

    def deal(self, ruleset: JSON, players: int, round: int, order: list[str],
             draw: list[list[str]] | None = None) -> JSON:
        if round > 4:
            raise RefusedSetup(f"the match has rounds 1 to 4, not {round}")
        state = super().deal(ruleset, players, round, order, draw)
        doubles = [sum(a == b for a, b in (t.split("-") for t in hand))
                   for hand in state["hands"]]
        state["seat"] = state["starter"] = doubles.index(max(doubles))
        return state


def test_a_refused_deal_holds_only_where_the_match_lacks_its_round() -> None:
    # generated-starting-seat-001 deals round 10 of a double-15 match: under `full` one
    # entry passes where rotate (or heaviest-in-hand) starts, neither where highest-draw
    # does; single-round has no such round (MATCH-7 refuses it, failing both). An engine
    # that refuses the deal fails both entries too, and a starting seat of its own
    # (`other`, taking highest-draw's seat) explained that under `full`
    import z3

    from mtrain.conformance.identify.cells import Piece
    from mtrain.conformance.identify.solve import Model, constraint
    from mtrain.spec.scope import Space

    model = Model.of(Space(CAT))
    read = ("match_length", "starting_seat")
    pieces = [Piece({"starting_seat": frozenset({v}), "match_length": frozenset({"full"})},
                    outcomes, read)
              for v, outcomes in (("rotate", ("pass", "fail")),
                                  ("highest-draw", ("fail", "fail")))]
    pieces.append(Piece({"match_length": frozenset({"single-round"})}, ("fail", "fail"),
                        ("match_length",)))
    lacking = {"match_length": frozenset({"single-round"})}  # other: the values lacking it

    def holds(refused: bool, **values: str) -> bool:
        solver = z3.Solver(ctx=model.ctx)
        solver.add(*model.hard)
        c = constraint(model, pieces, ["fail", "fail"], list(read), frozenset(read),
                       lacking, lacking if refused else None)
        solver.add(c, *(model.eq(o, v) for o, v in values.items()))
        return bool(solver.check() == z3.sat)

    # the deal refused: no seat of its own makes a match that has the round explain it
    assert not holds(True, match_length="full", starting_seat=OTHER)
    assert not holds(True, match_length="full", starting_seat="highest-draw")
    assert holds(True, match_length=OTHER, starting_seat=OTHER)
    assert holds(True, match_length="single-round", starting_seat="rotate")
    # dealt, and both entries failed: highest-draw's seat (or one of its own) explains it
    assert holds(False, match_length="full", starting_seat="highest-draw")
    assert holds(False, match_length="full", starting_seat=OTHER)


class PartyMatchDealt(PartyMatch):
    """PartyMatch, dealing each round to 2 to 4 players only (DEAL-7 beyond)."""

    def deal(self, ruleset: JSON, players: int, round: int, order: list[str],
             draw: list[list[str]] | None = None) -> JSON:
        if players > 4:
            raise RefusedSetup(f"2 to 4 players, not {players}", "DEAL-7")
        return super().deal(ruleset, players, round, order, draw)


def test_only_a_deal_refused_for_a_table_the_engine_deals_is_counted_against_a_match() -> None:
    from mtrain.conformance.identify.observe import observe

    rs = CAT.ruleset("pagat")
    by_id = {fx.id: fx for fx in folders("seats")}
    # seat-010 deals round 10 to 4 players (signalbox refuses it); big-table deals
    # refused by DEAL-7 where the engine deals no such player count say nothing of it
    wanted = [by_id["seat-010"], *(fx for fx in by_id.values() if fx.id.startswith("bigseat"))]
    seen = {o.fixture.id: o for o in observe(wanted, PartyMatchDealt(rs), Ruleset(
        "sent", rs.choices, ((2, 15), (3, 15), (4, 15))))}
    assert seen["seat-010"].refused and seen["seat-010"].lacks
    unseated = [o for fid, o in seen.items() if fid.startswith("bigseat") and o.refused]
    assert unseated and not any(o.lacks for o in unseated)


@pytest.mark.slow  # identify over the seat and generated fixtures, ~10 CPU s
def test_a_refused_later_round_is_evidence_against_every_match_that_has_it() -> None:
    # signalbox (eight rounds) refused the deals of rounds 10 and on, and every entry of
    # those fixtures failed, as under the one starting seat whose deal fails both: its
    # own seat rule (`other`) took that seat there, `full` and `other` tied, and `full`
    # was written sure, margin 401 (from the tables of later rounds it plays, which tell
    # full from single-round only). A refusal is evidence against the values that have
    # the round, whatever else is its own. (Here, before: full, sure, margin 162.)
    rs = CAT.ruleset("pagat")
    found = identify(PartyMatch(rs), folders("seats", "generated"),
                     declared=declaring(rs, "match_length", "starting_seat"))
    f = found.finding("match_length")
    assert (f.value, f.status) == (OTHER, "other"), f
    # the evidence: the fixtures whose deal it refused, which `full` contradicts
    assert {"seat-010", "generated-starting-seat-001"} <= set(f.evidence), f.evidence


class MostDoubles(Served):
    """The rules given, but the player dealt the most doubles leads (the lowest seat among
    equals), as signalbox's house rule has it: no known starting seat."""

    def deal(self, ruleset: JSON, players: int, round: int, order: list[str],
             draw: list[list[str]] | None = None) -> JSON:
        state = super().deal(ruleset, players, round, order, draw)
        doubles = [sum(a == b for a, b in (t.split("-") for t in hand))
                   for hand in state["hands"]]
        state["seat"] = state["starter"] = doubles.index(max(doubles))
        return state


@pytest.mark.slow  # identify twice over the seat fixtures, ~4 CPU s
def test_a_seat_of_its_own_the_designed_deals_mistake_for_a_forbidden_one_is_no_bug() -> None:
    # On the eight deals identify designs, the most doubles' holder is where after-engine
    # would start, and set-aside forbids after-engine (SEAT-4): signalbox was told
    # "likely bug: the deals show engine_procedure=set-aside with
    # starting_seat=after-engine". The fixtures contradict after-engine: no bug, a seat of
    # its own. (Where they agree with the forbidden seat, the bug stands:
    # test_identify_own_rules.py, ..._likely_bug_named_by_its_clause.)
    from mtrain.conformance.identify.measure import ruleset_of

    rs = ruleset_of(CAT, {**dict(CAT.ruleset("pagat").choices),
                          "engine_procedure": "set-aside"}, None, "most-doubles")
    # declared its own (as signalbox declares it) or not
    runs = [identify(MostDoubles(rs), folders("seats"), declared=declared)
            for declared in (declaring(rs, "starting_seat"), None)]
    for found in runs:
        assert found.finding("engine_procedure").status == "measured"
        assert not any("likely bug" in p and "starting_seat" in p for p in found.problems), (
            found.problems)
        seat = found.finding("starting_seat")
        assert seat.status not in ("sure", "measured") and seat.value != "after-engine", seat
    # the seat's line says why the deals' seat was not taken (undeclared, a bug read in
    # its fixtures leaves the line its own note: what it is written as instead)
    seat = runs[0].finding("starting_seat")
    (note,) = [e for e in seat.evidence if "designed deals" in e]
    assert "contradict after-engine" in note and "not a bug" in note, note


def test_answers_of_equal_weight_do_not_depend_on_what_the_context_saw_before() -> None:
    # z3 breaks ties between equally good answers by the terms and solves its context has
    # seen: on signalbox's fixtures the same soft constraints were answered match_length
    # `full` or `other` (0 fixtures against either) as unrelated work came between. The
    # solver now takes each option's earliest value among the optima
    import z3

    from mtrain.conformance.identify.solve import Model, Solver
    from mtrain.spec.scope import Space

    space = Space(CAT)
    base = dict(CAT.ruleset("pagat").choices)
    model = Model.of(space)
    # two options each any value but the base's: several answers of equal weight
    soft = [(z3.Not(model.eq(o, base[o])), o) for o in ("draw_rule", "tie_rule", "scoring")]
    answers = set()
    for k in range(6):
        found = Solver(model, soft, {}, {}, base).solve()
        assert found is not None and found.cost == 0
        answers.add(tuple(found.values[o] for _, o in soft))
        # unrelated work in the same context
        junk = [z3.Bool(f"junk-{k}-{i}", model.ctx) for i in range(20 * k + 5)]
        other = z3.Optimize(ctx=model.ctx)
        for i, x in enumerate(junk):
            other.add_soft(x if i % 2 else z3.Not(x), 1 + i % 3)
        other.check()
    assert len(answers) == 1, answers
    # the earliest value in the space's order, of those not the base's
    assert answers == {tuple(next(v for v in space.options[o] if v != base[o])
                             for _, o in soft)}


INTERLOCK_FIXTURES = ("sets-045", "sets-046", "sets-047", "sets-048", "sets-049",
                      "generated-tile-set-002", "generated-tile-set-003",
                      *(f"generated-uncoverable-double-00{k}" for k in range(1, 7)))


@pytest.mark.slow  # identify over 13 fixtures and two rounds of situations, ~3 CPU s
def test_a_bug_pinned_elsewhere_keeps_the_fixtures_that_tell_a_house_rule_apart() -> None:
    # tests/examples/interlock_engine.py declares uncoverable_double its own: a double
    # binds only while the boneyard holds a tile of its number. sets-048 lays every 5 of a
    # double-8 set, so its open [5-5] binds nobody, as `released` says (DBL-9), not as
    # stays-open or released-when-boneyard-empty (the boneyard is not empty) say. Its
    # drawn-tile bug (bug 2) fails situations from play that `match_length: other` would
    # absorb: identify pins match_length to full and reads them as bugs there. Left out
    # whole, they took their evidence for `doubles: open` with them; `ordinary` won by
    # one situation, under which sets-048 tells no uncoverable value apart, and
    # stays-open, the first in the space's order, was named the nearest value. Read as
    # bugs in match_length alone, they still count for the options they do not implicate.
    # (Session 45's round ends broke it again: end situations made under ordinary
    # doubles, which open doubles cannot hold, were read as evidence against open, the
    # reference erring on their step rather than failing them, and the rivals with every
    # other option known named stays-open under `ordinary`: cells._outcomes reads such an
    # error as any answer too, and solve.lacks_table keeps a rule of one's own from
    # taking a value's absence of a table)
    from pathlib import Path

    from mtrain.conformance.adapter_loading import load_adapter
    from mtrain.conformance.selection import read_rules

    path = Path(__file__).parent / "examples" / "interlock_engine.py"
    ((declared, _),) = read_rules([str(path.parent / "interlock-rules.yaml")])
    fixtures = [fx for fx in load_corpus()[0] if fx.id in INTERLOCK_FIXTURES]
    assert len(fixtures) == len(INTERLOCK_FIXTURES)
    found = identify(load_adapter(f"{path}:Interlock")[0], fixtures, declared=declared)
    uncoverable = found.finding("uncoverable_double")
    assert (uncoverable.value, uncoverable.alternatives) == (OTHER, ["released"])
    # nor does the drawn-tile bug, failing tables only one doubles value has, make the
    # open doubles it declares a rule of its own (it was `other`, "or ordinary")
    assert found.finding("doubles").value == "open"
    # nor is any option it declares a known value of read as a rule of its own, nor
    # written "or other" as a value with bugs (not-required was, its TURN-3 failures
    # on tables where only required refuses the drawn tile read against it): a failure
    # only clauses every value shares decide is no evidence against its word
    known = [o for o, v in declared.choices if v != OTHER]
    assert [f.option for f in found.findings if f.option in known
            and (f.value == OTHER or OTHER in f.alternatives)] == []
