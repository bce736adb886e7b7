"""Deals, engines and starting seats under a hand-size table of one's own.

An expectation worked out for a table that deals 2 players 16 tiles each holds for every
table that deals 2 players 16, whatever it deals to 3 (conformance/partition.py
`applies`: the reference plays the table itself, and the run reads only the rows it
deals). So a table of one's own takes every entry that a shipped rule set of the same
other options takes wherever the two tables agree on the fixture's player count.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator

import pytest

from mtrain.conformance.adapter import ReferenceImplementation
from mtrain.conformance.fixture import FIXTURE_ROOT, Fixture, load_corpus, load_file
from mtrain.conformance.partition import applies, stand_in
from mtrain.conformance.selection import entry_for, select, unreached
from mtrain.spec.catalog import catalog
from mtrain.spec.ruleset import CUSTOM, Ruleset
from mtrain.spec.scope import Space

SPACE = Space()
OWN = ((2, 16), (3, 15), (4, 15), (5, 12), (6, 12), (7, 10), (8, 10))
"""The issue's table: rows that agree with one shipped table or another, count by count."""
FOLDERS = ("deal", "engine", "seats")


def fixtures() -> Iterator[Fixture]:
    for folder in FOLDERS:
        for path in sorted((FIXTURE_ROOT / folder).glob("*.yaml")):
            yield from load_file(path)


@functools.cache  # loaded in a test's body: not at collection, by every worker
def _fixtures() -> tuple[Fixture, ...]:
    return tuple(fixtures())


def players(fx: Fixture) -> int:
    if fx.deal is not None:
        return int(fx.deal["players"])
    return len((fx.table or {})["hands"])


def own(rs: Ruleset, table: tuple[tuple[int, int], ...] = OWN) -> Ruleset:
    """`rs` with a table of its own (every other option the same)."""
    choices = tuple((o, CUSTOM if o == "hand_sizes" else v) for o, v in rs.choices)
    return Ruleset(f"{rs.name}+own", choices, table)


def test_the_corpus_has_deal_engine_and_seat_fixtures() -> None:
    assert len(_fixtures()) >= 40


@pytest.mark.parametrize("variant", ["pagat", "puremco", "pagat+wikipedia-doubles"])
def test_an_own_table_takes_every_entry_its_agreeing_rows_take(variant: str) -> None:
    base, *overlays = variant.split("+")
    shipped = catalog().ruleset(base, overlays)
    mine = own(shipped)
    table = dict(shipped.hand_table)
    taken, missed = 0, []
    for fx in _fixtures():
        n = players(fx)
        if table.get(n) != dict(OWN).get(n):
            continue  # the tables part where the fixture deals: nothing to carry over
        exp, _ = entry_for(fx, shipped, SPACE)
        if exp is None:
            continue
        got, why = entry_for(fx, mine, SPACE)
        if got is exp:
            taken += 1
        elif not (why or "").startswith("its table is one these rules never reach") or \
                unreached(fx, shipped) is None:
            missed.append(f"{fx.id}: {why}")
        # else a table the shipped rules never reach either (engsix-004's search for the
        # engine under a set-aside engine): a rule set of one's own no longer runs it
        # (selection.unreached); a shipped one still does, by its scope alone
    assert missed == []
    assert taken >= 5  # the property was tried on real entries


def test_a_row_that_differs_is_not_carried_over() -> None:
    # deal-019 deals 2 players; pagat's 15 each is not this table's 14
    (fx,) = [f for f in _fixtures() if f.id == "deal-019"]
    pagat = catalog().ruleset("pagat")
    exp, _ = entry_for(fx, pagat, SPACE)
    assert exp is not None
    differs = own(pagat, ((2, 14), (3, 15), (4, 15)))
    assert applies(exp, fx, differs, SPACE) is not None
    same = own(pagat, ((2, 15), (3, 13)))  # agrees at 2 players only: enough
    assert applies(exp, fx, same, SPACE) is None


def test_a_refused_deal_follows_the_rows_listed() -> None:
    # a deal the table does not list is refused (DEAL-7): carried over only to tables
    # that lack the count too
    refused = [fx for fx in _fixtures() if any(e.refused_setup is not None for e in fx.expect)]
    checked = 0
    for variant in ("pagat", "puremco", "puremco-d9"):
        shipped = catalog().ruleset(variant)
        table = dict(shipped.hand_table)
        for fx in refused:
            exp, _ = entry_for(fx, shipped, SPACE)
            n = players(fx)
            if exp is None or exp.refused_setup is None or n in table or n < 2:
                continue  # (one seat is refused whatever the table lists)
            assert applies(exp, fx, own(shipped, tuple(table.items())), SPACE) is None, fx.id
            listing = tuple(sorted({**table, n: 1}.items()))
            assert applies(exp, fx, own(shipped, listing), SPACE) is not None, fx.id
            checked += 1
    assert checked >= 2


def test_deal_situations_cover_every_row_of_an_own_table() -> None:
    from mtrain.conformance.situations import deal_situations

    mine = own(catalog().ruleset("pagat"))
    made = deal_situations(mine)
    assert [fx.deal["players"] for fx in made if fx.deal] == [n for n, _ in OWN]
    for fx in made:
        (exp,) = fx.expect
        n = fx.deal["players"] if fx.deal else 0
        assert exp.state["hand_sizes"].count(dict(OWN)[n]) >= n - 1  # the holder lays one
        assert sum(map(len, exp.state["hands"].values())) + len(exp.state["boneyard"]) \
            + exp.state["engine_placed"] == 91  # every tile of the set somewhere (SET-2)


@pytest.mark.parametrize("name", ["engine-holder-keeps-engine", "engine-holder-not-starting"])
def test_deal_situations_catch_a_deal_bug_under_an_own_table(name: str) -> None:
    from mtrain.conformance.mutants import mutant
    from mtrain.conformance.runner import run_one
    from mtrain.conformance.situations import deal_situations

    mine = own(catalog().ruleset("pagat"))
    made = deal_situations(mine)
    statuses = [run_one(fx, mine, fx.expect[0], mutant(name)).status for fx in made]
    assert "fail" in statuses
    reference = ReferenceImplementation()
    assert all(run_one(fx, mine, fx.expect[0], reference).status == "pass" for fx in made)


def test_an_own_table_with_a_rule_of_its_own_runs_the_deal_fixtures() -> None:
    # an engine with a table of its own and a rule no value describes (the house rules of
    # tests/examples/cantina_engine.py): each deal fixture its rows agree with runs, sent
    # with the table itself and known values for everything else (a traceback before)
    pagat = catalog().ruleset("pagat")
    changed = {"hand_sizes": CUSTOM, "scoring": "other", "engine_procedure": "set-aside",
               "starting_seat": "rotate"}
    choices = tuple((o, changed.get(o, v)) for o, v in pagat.choices)
    mine = Ruleset("own+other", choices, OWN)
    (fx,) = [f for f in _fixtures() if f.id == "deal-019"]  # 2 players, 16 each
    exp, why = entry_for(fx, mine, SPACE)
    assert exp is not None, why
    sent = stand_in(mine, exp, SPACE)
    assert sent.hand_table == OWN
    assert dict(sent.choices)["hand_sizes"] == CUSTOM
    assert "other" not in dict(sent.choices).values()
    assert {o: v for o, v in sent.choices if o not in ("hand_sizes", "scoring")} == {
        o: v for o, v in choices if o not in ("hand_sizes", "scoring")}


def test_a_row_no_table_has_keeps_an_outcome_the_table_does_not_change() -> None:
    # seat-014: with the engine set aside, a rotating start is (round - 1) mod players
    # (SEAT-3), whoever holds which tile; a table dealing 2 players 18 each (no named
    # table does) still takes it, checked by the reference playing that table. deal-019
    # (2 players, 16 each) is not this table's deal and stays out.
    base = catalog().ruleset("pagat", ["engine-aside"])
    rotating = Ruleset("rotate", tuple((o, "rotate" if o == "starting_seat" else v)
                                       for o, v in base.choices), base.hand_table)
    odd = ((2, 18), (3, 15), (4, 15))
    (seat,) = [f for f in _fixtures() if f.id == "seat-014"]
    exp, why = entry_for(seat, rotating, SPACE)
    assert exp is not None, why
    assert applies(exp, seat, own(rotating, odd), SPACE) is None
    # (pagat: the engine's holder lays it and starts; an engine-holder start under a set-aside
    # engine is no rule set, and the scopes written since session 61 list no such value)
    holder = catalog().ruleset("pagat")
    (deal,) = [f for f in _fixtures() if f.id == "deal-019"]
    dexp, why = entry_for(deal, holder, SPACE)
    assert dexp is not None, why
    assert applies(dexp, deal, own(holder, odd), SPACE) is not None


def test_fixtures_at_player_counts_a_table_does_not_deal_are_counted_apart() -> None:
    """An engine for 5 to 8 players (tests/examples/junction_engine.py) cannot have the
    2-to-4-player tables most fixtures are set at: conform counted them among the
    fixtures that "speak about other rule sets", and its author, seeing 481 results,
    could not tell why. They are counted apart, by player count, and the warning says
    so; a fixture at 5 to 8 seats is never among them."""
    from mtrain.conformance.selection import seats_warning, select

    rs = own(catalog().ruleset("pagat"), ((5, 14), (6, 13), (7, 12), (8, 11)))
    chosen = [fx for fx in _fixtures() if players(fx) in (3, 4, 5, 6, 9)]
    tasks, outside = select(chosen, [rs], [], SPACE)
    by = outside.counts[rs.name]
    ran = {t.fixture.id for t in tasks}
    # a fixture that expects the setup refused at such a count runs (DEAL-7)
    assert all(players(t.fixture) in (5, 6) or (t.expectation is not None
               and t.expectation.refused_setup) for t in tasks)
    assert set(by) == {p for fx in chosen if (p := players(fx)) not in (5, 6)}
    assert sum(by.values()) == outside.seats[rs.name] == sum(
        1 for fx in chosen if players(fx) not in (5, 6) and fx.id not in ran)
    assert outside.rules[rs.name] == sum(1 for fx in chosen if players(fx) in (5, 6)
                                         and fx.id not in ran)
    warning = seats_warning(rs, outside) or ""
    assert f"{outside.seats[rs.name]} fixtures are set at player counts" in warning
    assert f"3 ({by[3]})" in warning
    # a table that deals every count of the corpus has none
    _, whole = select(chosen, [catalog().ruleset("pagat")], [], SPACE)
    assert whole.seats == {"pagat": 0} and seats_warning(catalog().ruleset("pagat"), whole) is None


def test_a_designed_deal_ties_the_heaviest_tiles_under_heaviest_in_hand() -> None:
    """SEAT-6 by hand: [14-14] and [15-13] both count 28 pips, [15-14] (29) is first in the
    boneyard and [15-15] set aside, so nobody holds a heavier tile; of the two, [15-13] has
    the higher end: seat 1, which holds it, starts. The deals from sorted pools never tie
    (junction's planted bug, the tie to the lower seat, went unseen)."""
    from pathlib import Path

    from mtrain.conformance.adapter import ReferenceImplementation
    from mtrain.conformance.runner import run_one
    from mtrain.conformance.situations import tie_deals

    rules = catalog().rules_file(Path(__file__).parent / "examples" / "junction-rules.yaml")
    [fx] = tie_deals(rules)
    assert fx.deal is not None and fx.deal["players"] == 5 and fx.deal["engine"] == 15
    view = fx.expect[0].state
    assert (view["seat"], view["starter"]) == (1, 1)
    assert "14-14" in view["hands"][0] and "15-13" in view["hands"][1]
    assert view["boneyard"][0] == "15-14" and "15-15" not in fx.deal["order"]
    plays = Ruleset("junction-known", tuple(
        (o, {"first_turn": "chain", "marker_removal": "owner-plays-own",
             "scoring": "penalty"}.get(o, v)) for o, v in rules.choices), rules.hand_table)
    assert run_one(fx, plays, fx.expect[0], ReferenceImplementation()).status == "pass"
    # no tie to design where the start is another rule's
    assert tie_deals(catalog().ruleset("puremco")) == []


def test_a_rule_set_the_corpus_says_little_about_is_asked_more_situations() -> None:
    """junction (5 to 8 players, three rules of its own) met 5 of the corpus's fixtures and
    577 of 700 situations: 582 results. A run of one rule set is asked situations until
    its results reach RESULTS_FLOOR, at most fourfold; one the corpus covers is not."""
    from mtrain.conformance.defaults import RESULTS_FLOOR
    from mtrain.conformance.selection import count_for_floor
    from mtrain.conformance.situations import situations

    pagat = catalog().ruleset("pagat")
    assert count_for_floor(pagat, 10, RESULTS_FLOOR) == 10
    few = len(situations(pagat, 10))  # deals, round ends and later deals beside the 10
    corpus = RESULTS_FLOOR - few - 15
    asked = count_for_floor(pagat, 10, corpus)
    assert 10 < asked <= 40
    assert corpus + len(situations(pagat, asked)) >= RESULTS_FLOOR or asked == 40
    assert corpus + len(situations(pagat, 10)) < RESULTS_FLOOR


def test_a_table_of_a_shape_ones_rules_never_have_is_not_run() -> None:
    # generated-first-turn-004 is a first-turn chain (phase chain), which no round of
    # one-tile first turns has: lint leaves those out of its scope, so neither the shipped
    # puremco (single) nor an own table of it runs it, and both say why
    (fx,) = [f for f in load_corpus()[0] if f.id == "generated-first-turn-004"]
    shipped = catalog().ruleset("puremco")
    for rs in (shipped, own(shipped)):
        (task,), _ = select([fx], [rs], [])
        assert task.expectation is None
        assert task.why == ("its table is one these rules never reach (REACH-CHAIN: the rule "
                            "set has no first-turn chain)")
