"""`mtrain identify`: the rules an engine plays, recovered from the fixtures alone."""

from __future__ import annotations

import random
import re
import shlex
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from mtrain.cli import main
from mtrain.conformance.fixture import FIXTURE_ROOT, Fixture, load_corpus
from mtrain.conformance.identify import identify
from mtrain.conformance.mutants import mutant
from mtrain.conformance.serve import FixedRules
from mtrain.spec.catalog import catalog
from mtrain.spec.model.alike import OPEN_DOUBLES
from mtrain.spec.ruleset import CUSTOM, OTHER
from mtrain.spec.scope import Space

MTRAIN = shutil.which("mtrain") or str(Path(sys.executable).with_name("mtrain"))
SPACE = Space()


@pytest.fixture(scope="module")
def _corpus() -> list[Fixture]:
    fixtures, errors = load_corpus()
    assert not errors
    return fixtures


@pytest.fixture
def corpus(_corpus: list[Fixture], corpus_explored: None) -> list[Fixture]:
    """The corpus, its partitions explored once per run (tests/conftest.py
    `corpus_explored`) and kept in the run's cache, where identify reads them."""
    return _corpus


# Every set a rule set can be played on: double-15 through its overlay's table, double-6
# and double-18 through the tables of the rule-set files of spec/data/rulesets/ (the
# space's `custom:NAME`). `custom` alone (any other table) is left out: it is played with
# a probe table, and identify names such a table `custom` from the deals it measures.
# The sets options.yaml's `every_double` rule gives play alike but for their
# highest number, the one thing the engine and the model read of a set: double-11 stands
# for the five, the other four would each add an identify run (about 10 CPU s) and no
# code path of their own.
STOOD_FOR = ("double-7", "double-13", "double-14", "double-17")
PLAYABLE = tuple(v for v in SPACE.options["tile_set"] if v not in STOOD_FOR)
ONE_FILE = ("double-6", "double-18", "double-8", "double-10", "double-16", "double-11")
"""Sets only one rule-set file reaches (pagat's rules on double-6, puremco's on double-18
and on double-8): the corpus cannot tell every option apart there, so only the set and
the table must be found exactly, and no other value found wrong may be called sure."""
LATER = {"tile_set": ("double-8", "double-10", "double-16", *STOOD_FOR, "double-11"),
         "hand_sizes": ("custom:double-8", "custom:double-10", "custom:double-16",
                        "custom:double-7", "custom:double-11", "custom:double-13",
                        "custom:double-14", "custom:double-17")}
"""Values the space gained after the sample below was drawn: the earlier sets' rule sets
are drawn from the space without them, as they were (the known gaps were measured on
those); a later set's are drawn from the whole space."""
EARLIER = {o: tuple(v for v in vs if v not in LATER.get(o, ())) for o, vs in
           SPACE.options.items()}


def random_rulesets(n: int, seed: int, tile_sets: tuple[str, ...] = EARLIER["tile_set"],
                    options: dict[str, tuple[str, ...]] = EARLIER) -> list[dict[str, str]]:
    """n distinct valid rule sets, the tile sets taken in turn (so every set is drawn)."""
    rng = random.Random(seed)
    tables = tuple(v for v in options["hand_sizes"] if v != CUSTOM)
    out: list[dict[str, str]] = []
    while len(out) < n:
        region = {o: frozenset([rng.choice(vs)]) for o, vs in options.items()}
        region["tile_set"] = frozenset([tile_sets[len(out) % len(tile_sets)]])
        region["hand_sizes"] = frozenset([rng.choice(tables)])
        values = SPACE.complete(region)
        if values is None:  # a table the set cannot deal: any table that it can
            values = SPACE.complete({**region, "hand_sizes": frozenset(tables)})
        if values is not None and values not in out:
            out.append(values)
    return out


KEPT = {"double-6": 0, "double-8": 1, "double-9": 1, "double-10": 0, "double-12": 0,
        "double-15": 0, "double-18": 0, "double-16": 0, "double-11": 0}
"""Which of the two rule sets drawn on each set is identified (session 49: 14 identify
runs were 7, about 50 CPU s less). Chosen, not thinned at random: the double-12 one whose
gaps KNOWN_GAPS lists and the double-9 one whose tie rule KNOWN_WEAK lists, and among the
rest the choice whose seven rule sets play the most option values: 59 of the 63 the
fourteen play (left: hand_sizes cardinal and celko-d9, marker_removal
owner-plays-anywhere, uncoverable_double released), the cheaper of the choices as wide."""


@pytest.mark.slow
@pytest.mark.parametrize("tile_set", PLAYABLE)
def test_random_rule_sets_are_recovered_exactly(corpus: list[Fixture], tile_set: str) -> None:
    """Valid rule sets drawn at random, two on each set, one of them identified (KEPT), a
    test per set (the whole-corpus calibration of many more is
    benchmarks/identify_calibration.py's). The double-15 ones play the ourpastimes-d15
    table: found on their set with their table, nothing unexplained (a test of two more
    such engines, which asserted only that, was folded in here: 5 CPU s of the same
    check)."""
    fixtures = corpus
    every = random_rulesets(30, seed=2026)[::3]
    assert {v["tile_set"] for v in every} == set(EARLIER["tile_set"])
    drawn = [v for v in every if v["tile_set"] == tile_set] or random_rulesets(
        2, seed=2026, tile_sets=(tile_set,), options=dict(SPACE.options))
    assert len(drawn) == 2
    if tile_set == "double-15":  # (the docstring: its table, found exactly below)
        assert {v["hand_sizes"] for v in drawn} == {"ourpastimes-d15"}
    wrong = []
    weak: list[tuple[str, str]] = []
    unexplained: list[tuple[str, str]] = []
    for values in [drawn[KEPT[tile_set]]]:
        found = identify(FixedRules(SPACE.ruleset(values)), fixtures)
        got = SPACE.point(found.ruleset)
        diff = {o: (v, got[o]) for o, v in values.items() if got[o] != v}
        if values["doubles"] == got["doubles"] == "ordinary":  # DBL-11: nothing opens, so
            diff = {o: d for o, d in diff.items() if o not in OPEN_DOUBLES}  # no table tells
        if values["tile_set"] in ONE_FILE:
            wrong_but_sure = [f.option for f in found.findings
                              if f.option in diff and f.status == "sure"]
            assert wrong_but_sure == [], (values, wrong_but_sure)
            diff = {o: d for o, d in diff.items() if o in ("tile_set", "hand_sizes")}
        if diff:
            wrong.append((values["tile_set"], diff))
        # a correct engine leaves no fixture unexplained (but those listed, issue 21)
        unexplained += [(values["tile_set"], u) for u in found.unexplained]
        weak += [(values["tile_set"], f.option) for f in found.findings
                 if f.value == values[f.option] and values["tile_set"] not in ONE_FILE
                 and f.status not in ("sure", "measured", "likely")
                 and not (values["doubles"] == "ordinary" and f.option in OPEN_DOUBLES)
                 and not _same_clauses(values, f.option, f.alternatives)]
    assert wrong == [g for g in KNOWN_GAPS if g[0] == tile_set]
    # exactly those listed: identify's MaxSAT runs in a z3 context of its own per run, so
    # its answers repeat (as a set: both rule sets of a tile set may list an option)
    assert set(weak) == {w for w in KNOWN_WEAK if w[0] == tile_set}
    assert unexplained == [u for u in KNOWN_UNEXPLAINED if u[0] == tile_set]


KNOWN_WEAK = [("double-9", "tie_rule")]
"""Right but not called likely (issue 21, open), measured on the sample redrawn when
`starting_seat: heaviest-in-hand` joined the space (stop 34): too few of the tables the
double-9 rule set runs tell its tie rule from its neighbours."""


def _same_clauses(values: dict[str, str], option: str, alternatives: list[str]) -> bool:
    """Whether every alternative brings in exactly the clauses the true value does: then
    the rules read the same and no table can tell them apart (under ordinary doubles,
    chain-no-double-end is chain: FIRST-12 applies only to open doubles)."""
    cat = catalog()
    mine = {c.id for c in cat.applicable(values)}
    # (`other`, a contradicted value's other reading, brings in no clause to compare)
    return all({c.id for c in cat.applicable({**values, option: alt})} == mine
               for alt in alternatives if alt != OTHER)


KNOWN_GAPS: list[tuple[str, dict[str, tuple[str, str]]]] = [
    ("double-12", {"first_turn": ("chain-no-double-end", "chain")}),
]
"""What the corpus cannot yet tell (issue 21, open), measured on the sample redrawn when
`starting_seat: heaviest-in-hand` joined the space (stop 34); the double-9 and double-15
rule sets are found exactly. The double-12 one plays ordinary doubles, under which
chain-no-double-end reads as chain (FIRST-12 applies to open doubles only), so its
first_turn is no real gap. Its highest-draw start was read as a rule of its own, 22
fixtures of the SEAT clauses against highest-draw, from SEAT-6's arrival until session 54:
its procedure (highest-double-held) leaves the seat unmeasured, the fixtures are asked
under the base's engine-holder, so the harness sent no draw for the start, and the engine
refused every deal with a draw (SEAT-5), each counted against highest-draw; now such a
deal is asked again with the fixture's draw (observe.py), and highest-draw is found sure,
margin 35 (tests/test_identify_s54.py). Its marker rule (anyone-plays-on, read
owner-plays-own until then) is found since session 53's merges, which added marker
fixtures (house53b-001, a double laid on another's marked train and the follow-up played
at home, under each marker rule) and identify's carried tables; which of them tells it was
not measured. (Fixed at stop 34: single-round engines' procedures went unmeasured, their
round-2 deal refused (measure.py); ordinary doubles and the marker rule on double-15 and
the lowest-seat ties had no table a single round plays: ordone-001/-002, markone-001,
singletie-001 to -003.)"""
KNOWN_UNEXPLAINED: list[tuple[str, str]] = []
"""A fixture a correct engine leaves unexplained: none. (posscore-001 on double-12 and
lowhand-004 on double-9 were, under single-round rule sets: their tables have a seat gone
out while round 1 is played; the reference read them, played the step to outs 2, then
refused that state when it was checked, MATCH-7, while the engine served, which keeps
the states it made, did not. The reference now refuses such a table at once.)"""


def test_the_marker_fixtures_alone_name_a_marker_rule(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """`mtrain identify` through the protocol, asked about the marker fixtures only (the
    fast loop's; the whole corpus: test_identify_through_the_protocol_then_conform): they
    tell pagat with anyone-plays-on marker removal by that rule, sure; the deals measure
    the set, table and procedure; a line per option, and a rule-set file that plays it."""
    from mtrain.conformance import identify as module

    markers, errors = load_corpus(FIXTURE_ROOT / "markers")
    assert markers and not errors
    real = module.identify

    def quiet(impl: Any, **kw: Any) -> Any:
        assert kw.get("progress") is None  # output not to a terminal: no progress bar
        return real(impl, markers, **kw)
    monkeypatch.setattr(module, "identify", quiet)
    rules = tmp_path / "mine.yaml"
    rules.write_text("base: pagat\noptions:\n  marker_removal: anyone-plays-on\n",
                     encoding="utf-8")
    engine = shlex.join([MTRAIN, "serve", "--rules", str(rules), "--undeclared"])
    found = tmp_path / "found.yaml"
    assert main(["identify", "--impl", engine, "--output", str(found)]) == 0
    out = capsys.readouterr().out
    played = re.match(r"mtrain identify: (\d+) fixtures played, .* \(of (\d+),", out)
    assert played is not None and 0 < int(played[1]) <= int(played[2]) == len(markers), out
    line = {m[1]: (m[2], m[3]) for m in re.finditer(r"^  (\S+) +(\S+) +(\w+)", out, re.M)}
    assert set(line) == set(catalog().options)
    assert line["marker_removal"] == ("anyone-plays-on", "sure")
    pagat = catalog().ruleset("pagat")
    for option in ("tile_set", "hand_sizes", "engine_procedure"):
        assert line[option] == (pagat[option], "measured")
    assert "no rule set explains" not in out  # a correct engine leaves none unexplained
    assert "closest rule set: " in out and f"wrote {found}" in out
    assert catalog().rules_file(found)["marker_removal"] == "anyone-plays-on"


def test_an_interrupt_after_a_conclusion_keeps_its_answer() -> None:
    """Interrupted among the situations from play, identify raises IdentifyInterrupted
    with the answer the fixtures already played gave (the command prints it, marked so:
    tests/test_robust_more.py), where it stopped, and what the deals measured."""
    import signal

    from mtrain.conformance.identify import IdentifyInterrupted

    markers, errors = load_corpus(FIXTURE_ROOT / "markers")
    assert markers and not errors
    stages: list[str] = []

    def progress(stage: str, done: int, total: int) -> None:
        stages.append(stage)
        if stage == "playing situations from play" and done == 2:
            raise KeyboardInterrupt
    pagat = catalog().ruleset("pagat")
    with pytest.raises(IdentifyInterrupted) as stopped:
        identify(FixedRules(pagat), markers, progress=progress)
    stop = stopped.value
    assert stop.signum == signal.SIGINT and stop.stage == "playing situations from play"
    assert re.fullmatch(r"2 of \d+", stop.played), stop.played
    assert "playing the fixtures" in stages and stop.found is not None
    assert stop.found.ruleset["marker_removal"] == pagat["marker_removal"]
    measured = {f.option: f.value for f in stop.measured}
    assert measured["tile_set"] == pagat["tile_set"] == stop.found.ruleset["tile_set"]


@pytest.mark.slow
def test_a_mutant_that_imitates_an_option_is_named(
        corpus: list[Fixture]) -> None:
    fixtures = corpus
    # Under pagat's owner-plays-own, this bug removes a marker whenever anyone plays on
    # the train: exactly the anyone-plays-on rule.
    found = identify(mutant("marker-anyone-under-owner-own"), fixtures)
    assert found.ruleset["marker_removal"] == "anyone-plays-on"
    pagat = dict(catalog().ruleset("pagat").choices)
    assert {o for o, v in found.ruleset.choices if v != pagat[o]} == {"marker_removal"}


@pytest.mark.slow
def test_a_bug_that_imitates_no_option_is_reported(
        corpus: list[Fixture]) -> None:
    fixtures = corpus
    found = identify(mutant("wrong-hand-size"), fixtures)
    (hands,) = [f for f in found.findings if f.option == "hand_sizes"]
    assert hands.status == "measured" and hands.value == "custom"  # a table of its own


@pytest.mark.slow
def test_identify_through_the_protocol_then_conform(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        corpus: list[Fixture]) -> None:
    from mtrain.conformance import identify as module

    fixtures = corpus  # (its partitions in the run's cache, where identify reads them)
    real = module.identify
    monkeypatch.setattr(module, "identify", lambda impl, **kw: real(impl, fixtures, **kw))
    rules = tmp_path / "mine.yaml"
    rules.write_text("base: puremco\noptions:\n  marker_removal: anyone-plays-on\n"
                     "  follow_up: anywhere\n  blank_values: blank-25\n", encoding="utf-8")
    engine = shlex.join([MTRAIN, "serve", "--rules", str(rules), "--undeclared"])
    found = tmp_path / "found.yaml"
    assert main(["identify", "--impl", engine, "--output", str(found)]) == 0
    out = capsys.readouterr().out
    assert "follow_up" in out and "closest rule set" in out
    written = catalog().rules_file(found)
    assert dict(written.choices) == dict(catalog().rules_file(rules).choices)
    assert main(["conform", "--impl", engine, "--rules", str(found), "--situations", "30"]) == 0
    assert "OK:" in capsys.readouterr().out


@pytest.mark.parametrize("name", ["pagat", "pagat+engine-everyone-draws",
                                  "puremco+engine-everyone-draws", "pagat+engine-holder-draws",
                                  "pagat+engine-everyone-draws+after-engine-start",
                                  "puremco-d9+highest-draw-start",
                                  "pagat+engine-designated-opens+highest-draw-start"])
def test_the_designed_deals_measure_the_engine_procedure_and_seat(name: str) -> None:
    """The engine first in the boneyard: its finder places it at once (ENG-4), or the
    lap goes on (ENG-6); the first draw of the search tells the two apart. An engine that
    plays highest-draw refuses a deal without the draw for the start (SEAT-5) and is
    asked again with one: its first seat, the search's and the designation's, show."""
    from mtrain.conformance.identify.measure import Dealer, Deals, measure_start

    rs = catalog().ruleset(name)
    deals = Deals(table=dict(rs.hand_table))
    measure_start(Dealer(FixedRules(rs)), SPACE, rs, deals)
    assert (deals.procedure, deals.seat) == (rs["engine_procedure"], rs["starting_seat"])


@pytest.mark.parametrize("name", ["puremco+engine-everyone-draws",
                                  "pagat+engine-everyone-draws+after-engine-start", "pagat"])
def test_a_single_round_engine_asked_as_a_full_match_still_shows_its_procedure(
        name: str) -> None:
    """The deals are asked under the base's rules, a full match: a single-round engine
    refuses the round-2 designs (MATCH-7). That refusal is its length's, not a procedure
    of its own: the procedure and seat are still measured from round 1."""
    from mtrain.conformance.identify.measure import Dealer, Deals, measure_start

    rs = catalog().ruleset(name)
    engine = catalog().ruleset(f"{name}+single-round")
    assert engine["match_length"] == "single-round" != rs["match_length"]
    deals = Deals(table=dict(rs.hand_table))
    measure_start(Dealer(FixedRules(engine)), SPACE, rs, deals)
    assert (deals.procedure, deals.seat) == (rs["engine_procedure"], rs["starting_seat"])


class DealsRoundRobin(FixedRules):
    """Deals one tile to each seat in turn from the front of the pool, as at a table, not
    each hand whole (a bug in DEAL-1: turntable's round-robin); the rest as its rules."""

    def deal(self, ruleset: Any, players: int, round: int, order: list[str],
             draw: list[list[str]] | None = None) -> Any:
        state = super().deal(ruleset, players, round, order, draw)
        dealt = sum(len(h) for h in state["hands"])
        state["hands"] = [order[p:dealt:players] for p in range(players)]
        return state


def test_a_deal_of_the_wrong_hands_still_measures_a_seat_the_hands_do_not_decide() -> None:
    """No procedure deals such hands, so none is measured; but who moves first is where
    one starting seat alone puts it whatever the hands (rotate, SEAT-3), as conform
    judges a deal's seat alone. It was left to the deal fixtures, which fail on the
    hands, and identify wrote turntable's `starting_seat: other`."""
    from mtrain.conformance.identify.measure import Dealer, Deals, measure_start

    rs = catalog().ruleset("puremco")
    deals = Deals(table=dict(rs.hand_table))
    measure_start(Dealer(DealsRoundRobin(rs)), SPACE, rs, deals)
    assert (deals.procedure, deals.seat) == (None, "rotate"), deals.evidence
    assert "whatever the procedure" in deals.evidence["starting_seat"]


def test_a_refusal_naming_no_clause_leaves_the_entry_unseen() -> None:
    """first-018's entry for own-train-first lists TRAIN-7 for `play 9-7 on mexican`; the
    partition passes it only where the reference cites a clause listed in force (under
    pagat's chain first turn it cites FIRST-2, and the entry fails). An engine refusing
    the play without a clause (caboose, by a house rule of its own) says nothing of which
    clause: the entry is not seen, never a pass that every region would have to share."""
    from mtrain.conformance.adapter import Refused
    from mtrain.conformance.identify.run import observe

    class Unnamed(FixedRules):
        def apply(self, ruleset: Any, state: Any, action: Any) -> Any:
            try:
                return super().apply(ruleset, state, action)
            except Refused as e:
                raise Refused(e.reason, None) from None

    fixtures, errors = load_corpus(FIXTURE_ROOT / "first-turn")
    assert not errors
    (fx,) = [f for f in fixtures if f.id == "first-018"]
    rs = catalog().ruleset("puremco+own-train-first")
    named = observe([fx], FixedRules(rs), rs)[0].outcomes
    unnamed = observe([fx], Unnamed(rs), rs)[0].outcomes
    assert named == ("fail", "pass", "pass")  # TRAIN-7 refuses it: listed by both
    assert unnamed == ("fail", None, None)


def test_a_fixture_failed_throughout_leans_to_other_on_the_option_it_is_about() -> None:
    """score-009's shape: four entries, each holding under penalty scoring with one blank
    rule, all failing under positive scoring. An engine with a blank rule of its own fails
    all four; `other` on scoring or on blank_values explains that at the same price, and
    z3 took either (caboose, undeclared: scoring `other`, contradicted). The fixture is
    about blank_values (its entries hold under disjoint blank rules), so a tie-break
    (Model.lean, worth BASE) sends the `other` there."""
    import z3

    from mtrain.conformance.identify.cells import Piece
    from mtrain.conformance.identify.solve import Model, constraint, tested

    read = ("blank_values", "scoring")
    blanks = ["face", "blank-25", "double-blank-50", "double-blank-25"]
    pieces = [Piece({"scoring": frozenset({"penalty"}), "blank_values": frozenset({v})},
                    tuple("pass" if k == i else "fail" for k in range(4)), read)
              for i, v in enumerate(blanks)]
    pieces.append(Piece({"scoring": frozenset({"positive"})}, ("fail",) * 4, read))
    assert tested(pieces, ["fail"] * 4) == ["blank_values"]
    assert tested(pieces, ["pass", "fail", "fail", "fail"]) == []  # a known value's answer
    model = Model.of(SPACE)
    constraint(model, pieces, ["fail"] * 4, ["blank_values", "scoring"])
    (lean,) = model.lean
    solver = z3.Solver(ctx=model.ctx)
    solver.add(*model.hard, lean, model.eq("scoring", "other"))
    solver.add(z3.Not(model.eq("blank_values", "other")))
    assert solver.check() == z3.unsat  # scoring `other` alone does not satisfy the lean


def test_a_deal_naming_an_engine_beyond_the_set_is_no_deal_of_it() -> None:
    """caboose (a double-15 engine) deals any pool it is given as it comes: asked for a
    double-12 deal first (the base's set), it dealt the 91 tiles under its own engine
    [15-15], and identify measured double-12. The engine it names is no tile of the set."""
    from mtrain.conformance.identify.measure import pool, possible_deal

    tiles = pool(12, None)
    state = {"hands": [tiles[:15], tiles[15:30]], "boneyard": tiles[30:],
             "trains": [{"tiles": []}, {"tiles": []}], "mexican": {"tiles": []}}
    assert possible_deal({**state, "engine": 12}, 12, 2) is None
    assert possible_deal({**state, "engine": 9}, 12, 2) is None  # highest-double-held
    assert possible_deal({**state, "engine": 15}, 12, 2) == (
        "the engine [15-15] is no tile of the set")


SITUATIONS_OF_AN_ANSWER = """
import hashlib
from mtrain.conformance.identify.run import _situations
from mtrain.spec.scope import Space

space = Space()
allowed = {"tile_set": frozenset(["double-9"]), "hand_sizes": frozenset(["custom"]),
           "engine_procedure": frozenset(["set-aside"])}
values = space.complete(allowed)
values.update(starting_seat="other", tie_rule="other")
parts = {}
asked = _situations(space, [], values, [], None, ((2, 12), (3, 11), (4, 10), (5, 8), (6, 7)),
                    allowed, parts)
print(len(asked), " ".join(fx.id for fx in asked))
print(hashlib.sha256(repr([(fx.id, fx.table, [(sorted((o, sorted(vs)) for o, vs in
      p.region.items()), p.outcomes) for p in parts[fx.id]]) for fx in asked]).encode()
      ).hexdigest())
"""


@pytest.mark.slow  # two processes, ~0.7 CPU s; the situations asked: the fast loop's identify
def test_the_situations_asked_of_an_answer_with_rules_of_its_own_ignore_string_hashing(
        ) -> None:
    """ninepins (tests/examples/) found `starting_seat: other` and `tie_rule: other`: the
    situations from play asked under that answer took for each `other` the first value of
    a set of strings, which PYTHONHASHSEED orders. With seeds 1 and 2 that was a start
    the answer can play (24 situations asked, and draw_rule then found contradicted);
    with 3 and 4 one it cannot (after-engine, engine-holder under set-aside: none asked,
    and draw_rule found likely). The same situations now, and some asked, whatever the
    seed (each process with the cache off: a situation kept by one is not read by the
    other). About 1 CPU s a process."""
    import os
    import subprocess

    from mtrain.spec.cache import CACHE_ENV

    said = []
    for seed in ("1", "3"):
        env = {**os.environ, "PYTHONHASHSEED": seed, CACHE_ENV: "off"}
        done = subprocess.run([sys.executable, "-c", SITUATIONS_OF_AN_ANSWER], env=env,
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr[-2000:]
        said.append(done.stdout)
    assert said[0] == said[1]
    assert int(said[0].split()[0]) > 0, said[0]


def test_the_set_is_found_from_an_engine_that_deals_only_to_larger_tables() -> None:
    """junction (tests/examples/) deals to 5 to 8 players only and refuses 2 to 4
    (DEAL-7): identify asked only those and reported "it dealt nothing", then guessed a
    double-9 set and celko-d9's table. Its set and its table are measured."""
    from mtrain.conformance.identify.measure import Dealer, Deals, find_set, measure_table
    from mtrain.conformance.situations import stand_in_for

    junction = catalog().rules_file(Path(__file__).parent / "examples" /
                                    "junction-rules.yaml")
    rs = stand_in_for(junction, SPACE)  # its table and set; known values for its own rules
    assert rs is not None and rs.hand_table == junction.hand_table
    base = dict(catalog().ruleset("pagat").choices)
    dealer = Dealer(FixedRules(rs))
    tile_set, found, lossy = find_set(dealer, SPACE, base)
    assert tile_set == "double-15" and found is not None and not lossy
    deals = Deals(table={})
    measure_table(dealer, SPACE, found, deals, None)
    assert deals.table == dict(rs.hand_table) and not deals.problems


class LosesATile(FixedRules):
    """Deals as its rules say, then loses the boneyard's last tile (tender's bug 1)."""

    def deal(self, ruleset: Any, players: int, round: int, order: list[str],
             draw: Any = None) -> Any:
        state = super().deal(ruleset, players, round, order, draw)
        state["boneyard"] = state["boneyard"][:-1]
        return state


def test_deals_that_lose_a_tile_still_show_their_set_and_table() -> None:
    """tender (tests/examples/) loses the boneyard's last tile at every deal: no deal was
    one of any set (two tiles missing, the engine set aside and the lost one), so identify
    measured no set and named double-8, likely and wrong. A deal whose only fault is tiles
    missing, its highest number the set's, shows the set and the hands: measured, the
    loss said as a likely bug. A whole deal is still asked first (test above: none lost)."""
    from mtrain.conformance.identify.measure import Dealer, Deals, find_set, measure_table

    rs = catalog().ruleset("puremco-d9")
    base = dict(catalog().ruleset("pagat").choices)
    dealer = Dealer(LosesATile(rs))
    tile_set, found, lossy = find_set(dealer, SPACE, base)
    assert (tile_set, lossy) == ("double-9", True) and found is not None
    deals = Deals(table={})
    measure_table(dealer, SPACE, found, deals, None, lossy)
    assert deals.table == dict(rs.hand_table)
    [problem] = deals.problems
    assert problem.startswith("likely bug: the deals lose tiles") and "INV-CONSERVATION" in problem
    # asked strictly (as before), its deals are no deals of any set
    strict = Deals(table={})
    measure_table(dealer, SPACE, found, strict, None)
    assert strict.table == {} and "not deals of the double-9 set" in strict.problems[0]


def test_a_table_of_a_player_count_it_does_not_deal_tells_nothing_of_the_rules() -> None:
    """junction (5 to 8 players) refuses blkrel-001's three seats (DEAL-7). Judged, every
    entry of such a fixture failed, and because the table is set in round 4 of a double-12
    match, the solver read the refusals as a single round (MATCH-7 refuses such a round
    under any table): identify wrote `match_length: single-round` on 98 fixtures and said
    the engine declares other rules than it plays. Not seen, they say nothing; an engine
    that deals three players and refuses the round is still judged."""
    from mtrain.conformance.identify.run import observe
    from mtrain.conformance.situations import stand_in_for

    junction = catalog().rules_file(Path(__file__).parent / "examples" /
                                    "junction-rules.yaml")
    rs = stand_in_for(junction, SPACE)
    assert rs is not None
    fx = next(f for f in load_corpus()[0] if f.id == "blkrel-001")
    [seen] = observe([fx], FixedRules(rs), rs)
    assert set(seen.outcomes) == {None} and any("3 players" in n for n in seen.notes)
    # a table asked about without steps: refused at its first question, not at a deal
    # (engine-002 was one of 26 such fixtures that still showed a single round)
    tabled = next(f for f in load_corpus()[0] if f.id == "engine-002")
    assert tabled.table is not None and not tabled.steps
    [asked] = observe([tabled], FixedRules(rs), rs)
    assert set(asked.outcomes) == {None}
    single = catalog().ruleset("pagat+single-round")
    [judged] = observe([fx], FixedRules(single), single)
    assert "fail" in judged.outcomes
