"""identify against engines with rules of their own: tables only they deal, rules the
catalogue forbids, deals that are not deals, answers it cannot get, no hello at all."""

from __future__ import annotations

import dataclasses
import re
import time
from pathlib import Path

import pytest
from calibration import Served
from file_module import file_module

from mtrain.cli import main
from mtrain.conformance.adapter import JSON, Unsupported
from mtrain.conformance.fixture import FIXTURE_ROOT, Fixture, load_corpus
from mtrain.conformance.identify import Identification, identify
from mtrain.conformance.identify.measure import ruleset_of
from mtrain.conformance.selection import read_rules
from mtrain.spec.catalog import catalog
from mtrain.spec.ruleset import Ruleset

CAT = catalog()
PAGAT = dict(CAT.ruleset("pagat").choices)


def markers() -> list[Fixture]:
    found, errors = load_corpus(FIXTURE_ROOT / "markers")
    assert found and not errors
    return found


def loads(found: Identification, path: Path) -> Ruleset:
    """The file identify writes, read as `mtrain conform --rules` reads it."""
    path.write_text(found.file_text(CAT), encoding="utf-8")
    ((rs, _),) = read_rules([str(path)])
    assert dict(rs.choices) == dict(found.ruleset.choices)
    return rs


class OwnTableOnly(Served):
    """Answers only requests whose table gives its own hand size where it looks (the
    players dealt, or seated at the table): `unsupported` otherwise."""

    def _mine(self, ruleset: JSON, players: int) -> None:
        own = dict(self.sides[0].ruleset.hand_table)
        if ruleset.get("hand_sizes", {}).get(str(players)) != own.get(players):
            raise Unsupported(f"this engine deals only its own table to {players} players")

    def deal(self, ruleset: JSON, players: int, round: int, order: list[str],
             draw: list[list[str]] | None = None) -> JSON:
        self._mine(ruleset, players)
        return super().deal(ruleset, players, round, order, draw)

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        self._mine(ruleset, len(state["hands"]))
        return super().legal(ruleset, state)

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        self._mine(ruleset, len(state["hands"]))
        return super().apply(ruleset, state, action)


def test_a_table_only_the_engine_deals_is_measured_and_the_fixtures_are_asked_under_it(
        tmp_path: Path) -> None:
    own = ((2, 13), (3, 12), (4, 11), (5, 9))  # no named table has these sizes
    rs = ruleset_of(CAT, {**PAGAT, "marker_removal": "anyone-plays-on"}, own, "mine")
    found = identify(OwnTableOnly(rs), markers())
    assert found.hand_table == dict(own)
    assert found.finding("hand_sizes").status == "measured"
    assert found.ruleset.hand_table == own and found.ruleset.custom_table
    # answered under its own table: the marker fixtures tell its marker rule, sure
    assert (found.finding("marker_removal").value,
            found.finding("marker_removal").status) == ("anyone-plays-on", "sure")
    # 6 to 10 players, which pagat's table lists: answered `unsupported`, and counted
    assert "unsupported" in found.unseen, found.unseen
    assert loads(found, tmp_path / "found.yaml").hand_table == own


@pytest.mark.slow  # ~2.5 CPU s: identify on three other engines stays in the fast loop
def test_a_pair_the_catalogue_forbids_is_a_likely_bug_named_by_its_clause(
        tmp_path: Path) -> None:
    # pagat with the engine set aside: its engine-holder start (SEAT-2) needs a holder
    rs = ruleset_of(CAT, {**PAGAT, "engine_procedure": "set-aside"}, None, "forbidden")
    assert CAT.conflicts(dict(rs.choices))
    found = identify(Served(rs), markers())
    assert found.finding("engine_procedure").status == "measured"
    assert any("likely bug" in p and "SEAT-2" in p for p in found.problems), found.problems
    seat = found.finding("starting_seat")
    assert seat.status not in ("sure", "measured")  # not what the engine was seen to do
    written = loads(found, tmp_path / "found.yaml")
    assert written["engine_procedure"] == "set-aside" and not CAT.conflicts(
        dict(written.choices), written.hand_table)


@pytest.mark.slow  # ~2.5 CPU s: identify on three other engines stays in the fast loop
def test_a_named_table_dealt_on_another_set_is_written_as_a_table_of_its_own(
        tmp_path: Path) -> None:
    table = CAT.options["hand_sizes"].values["puremco-d9"].table  # for double-9 (DEAL-4)
    rs = ruleset_of(CAT, PAGAT, table, "d9-table-on-d12")
    found = identify(Served(rs), markers())
    assert found.ruleset["tile_set"] == "double-12"
    assert found.ruleset.custom_table and found.ruleset.hand_table == table
    assert any("DEAL-10" in p for p in found.problems), found.problems
    loads(found, tmp_path / "found.yaml")


def test_deals_that_break_the_set_are_left_out_of_the_table_as_a_likely_bug(
        tmp_path: Path) -> None:
    # pagat's table on a double-9 set: from 4 players on, 55 tiles cannot deal it (DEAL-8)
    rs = ruleset_of(CAT, {**dict(CAT.ruleset("puremco-d9").choices), "hand_sizes": "pagat"},
                    None, "undealable")
    found = identify(Served(rs), markers())
    assert found.hand_table == {2: 15, 3: 15}
    assert any("likely bug" in p and "DEAL-8" in p for p in found.problems), found.problems
    loads(found, tmp_path / "found.yaml")


class NoDeals(Served):
    def deal(self, ruleset: JSON, players: int, round: int, order: list[str],
             draw: list[list[str]] | None = None) -> JSON:
        raise Unsupported("this engine only answers about tables")


@pytest.mark.slow  # identify over the sets corpus, ~5 CPU s (the others: the markers)
def test_an_engine_that_deals_nothing_is_placed_by_the_tables_it_reads(
        tmp_path: Path) -> None:
    rs = CAT.ruleset("puremco-d9")
    sets, errors = load_corpus(FIXTURE_ROOT / "sets")
    assert sets and not errors
    found = identify(NoDeals(rs), sets)
    assert found.hand_table is None and "unsupported" in found.unseen
    tile_set = found.finding("tile_set")
    assert (tile_set.value, tile_set.status) == ("double-9", "likely")
    assert found.finding("engine_procedure").status != "measured"
    loads(found, tmp_path / "found.yaml")


class NoScoring(Served):
    def score(self, ruleset: JSON, state: JSON, winner: int | None) -> list[int]:
        raise Unsupported("no score request here")


@pytest.mark.slow  # identify over the scoring corpus, ~5 CPU s
def test_answers_it_could_not_get_are_counted() -> None:
    scoring, errors = load_corpus(FIXTURE_ROOT / "scoring")
    assert scoring and not errors
    found = identify(NoScoring(CAT.ruleset("pagat")), scoring)
    asked = [e for fx in scoring for e in fx.expect
             if isinstance(e.result, dict) and e.result.get("scores") is not None]
    assert asked and "unsupported" in found.unseen, found.unseen


@pytest.mark.parametrize("command", ["false", "sleep 1000"])
def test_an_engine_that_never_answers_hello_exits_2_and_writes_no_file(
        command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "found.yaml"
    began = time.monotonic()
    # a short timeout: one that never answers is all the test needs (either way, the
    # engine did not answer the hello)
    assert main(["identify", "--impl", command, "--start-timeout", "0.1", "-o",
                 str(out)]) == 2
    assert time.monotonic() - began < 300  # the timeout, not the sleep's 1,000 s
    assert not out.exists()
    err = capsys.readouterr().err
    assert err.startswith("mtrain identify: the implementation did not answer the hello")


@pytest.mark.slow  # identify through the command line and a server, ~3 CPU s
def test_on_a_terminal_a_progress_bar_shows_and_the_answer_is_the_same(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from mtrain.conformance import identify as module

    real = module.identify
    stages: list[str] = []

    def watched(impl: object, **kw: object) -> Identification:
        shown = kw.get("progress")
        assert callable(shown)  # a terminal: identify is given a progress bar to feed

        def seen(stage: str, done: int, total: int) -> None:
            stages.append(stage)
            shown(stage, done, total)
        return real(impl, markers(), **{**kw, "progress": seen})  # type: ignore[arg-type]

    monkeypatch.setattr(module, "identify", watched)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    out = tmp_path / "found.yaml"
    assert main(["identify", "--impl", "mtrain serve", "-o", str(out)]) == 0
    assert {"measuring the deals", "playing the fixtures"} <= set(stages)
    assert CAT.rules_file(out)["marker_removal"] == "owner-plays-own"  # pagat's
    assert "closest rule set: " in capsys.readouterr().out


CANTINA = Path(__file__).parent / "examples" / "cantina_engine.py"


def test_an_engine_that_sets_the_engine_aside_is_measured_so_whatever_pools_it_is_sent(
        ) -> None:
    # tests/examples/cantina_engine.py sets the engine aside and starts the rotation's
    # seat; sent a pool with the engine in it (a deal no set-aside engine is asked for),
    # it deals it as it comes. Its procedure and seat are measured from the pools it can
    # be sent (the deals compared with no pair before: both undetermined, and every deal
    # fixture then asked with the engine in the pool, "no rule set explains" them)
    import shlex
    import sys

    from mtrain.conformance.identify.measure import measure
    from mtrain.conformance.process import ProcessImplementation
    from mtrain.spec.scope import Space

    with ProcessImplementation(shlex.join([sys.executable, str(CANTINA)]), timeout=30) as impl:
        deals, _ = measure(impl, Space(CAT), PAGAT)
    assert deals.table == {2: 16, 3: 15, 4: 15, 5: 12, 6: 12, 7: 10, 8: 10}
    assert (deals.procedure, deals.seat) == ("set-aside", "rotate")


def test_a_rule_the_engine_declares_its_own_stays_its_own_where_nothing_tells_it(
        tmp_path: Path) -> None:
    # tests/examples/sixes_engine.py declares its tie rule `other`; no marker fixture
    # tells tie rules apart, so identify cannot see it: the file keeps the engine's word,
    # not the base's `shared` (which made conform judge its ties as bugs)
    rs = ruleset_of(CAT, {**PAGAT, "tie_rule": "lowest-seat"}, None, "ties-its-own-way")
    declared = Ruleset("declared", tuple((o, "other" if o == "tie_rule" else v)
                                         for o, v in rs.choices), rs.hand_table)
    found = identify(Served(rs), markers(), declared=declared)
    tie = found.finding("tie_rule")
    assert (tie.value, tie.status) == ("other", "other")
    assert loads(found, tmp_path / "found.yaml")["tie_rule"] == "other"
    # an option the fixtures do tell keeps what they show, whatever is declared
    assert found.finding("marker_removal").value == "owner-plays-own"


def test_an_option_found_other_says_on_its_line_which_value_bugs_would_leave() -> None:
    # tests/examples/railyard_engine.py plays pagat's chains with two first-turn bugs:
    # identify found first_turn `other` (those fixtures no value explains), and conform
    # under its file then passed everything. The line now says what else it could be.
    from mtrain.conformance.identify.run import OptionFinding

    pagat = CAT.ruleset("pagat")
    rs = Ruleset("found", tuple((o, "other" if o == "first_turn" else v)
                                for o, v in pagat.choices), pagat.hand_table)
    shown = [f"chaindbl-00{k}" for k in range(1, 8)]
    findings = [OptionFinding(o, v, "sure", 3, ["x"]) for o, v in rs.choices]
    findings[[o for o, _ in rs.choices].index("first_turn")] = OptionFinding(
        "first_turn", "other", "other", 3, shown, ["chain"])
    text = Identification(rs, findings, [], 0, 0, 0.0, None).file_text(CAT)
    (line,) = [x for x in text.splitlines() if x.startswith("  first_turn: other")]
    assert line == ("  first_turn: other  # other: its own rule, or chain if the 7 fixtures "
                    "of its evidence are bugs")


@pytest.mark.slow  # the scoring folder against a process, ~7 CPU s
def test_a_rule_the_engine_declares_its_own_is_not_charged_to_its_neighbours() -> None:
    # tests/examples/caboose_engine.py (its bugs off) counts a blank end 10 and declares
    # blank_values `other`. No known value explains its scores, and the solver, paying
    # for `other` as for a guess, wrote blank-25 `likely` and scoring `positive`
    # (contradicted) instead: the engine's word that the rule is its own now costs
    # nothing, so the difference stays with the option it declared
    import shlex
    import sys

    from mtrain.conformance.process import ProcessImplementation

    caboose = Path(__file__).parent / "examples" / "caboose_engine.py"
    fixtures, errors = load_corpus(FIXTURE_ROOT / "scoring")
    assert fixtures and not errors
    ((declared, _),) = read_rules([str(caboose.parent / "caboose-rules.yaml")])
    with ProcessImplementation(shlex.join([sys.executable, str(caboose), "--fixed", "1,2,3"]),
                               timeout=30) as impl:
        found = identify(impl, fixtures, declared=declared)
    assert found.finding("blank_values").value == "other"
    assert found.finding("scoring").value == "penalty"


def test_a_table_the_rules_cannot_hold_tells_nothing_of_an_engine_under_them(
        tmp_path: Path) -> None:
    # identify's situations from play are played under each weak option's rival too: one
    # from ordinary doubles has a train ending in a double that no open double names,
    # which the reference under open doubles cannot hold ("impossible state"). An engine
    # that answers it as any engine would (caboose, its bugs off) was counted against
    # open doubles, 87 such tables to 40, and identify wrote doubles `other`
    import z3

    from mtrain.conformance.fixture import load_file
    from mtrain.conformance.identify.cells import ANY, explore_in
    from mtrain.conformance.identify.solve import Model, constraint
    from mtrain.spec.scope import Space

    text = """
- id: ordinary-table-001
  description: a train ends in [3-3], which no open double names
  clauses: [DBL-11]
  source: [computation]
  table:
    engine: 12
    hands:
      0: [3-1, 9-8]
      1: [10-4]
    trains:
      1: [12-3, 3-3]
    marked: [1]
    open_doubles: []
  expect:
    - variants: [pagat+ordinary-doubles]
      legal: [play 3-1 on 1]
"""
    (fx,) = load_file(tmp_path / "t.yaml", text)
    space = Space(CAT)
    pieces = explore_in(fx, dict(space.full()), {}, space, None)
    under_open = {p.outcomes for p in pieces if p.region.get("doubles") == frozenset({"open"})}
    assert under_open == {(ANY,)}
    model = Model.of(space)
    solver = z3.Solver(ctx=model.ctx)
    solver.add(*model.hard)  # exactly one value per option
    solver.add(constraint(model, pieces, ["pass"], []), model.eq("doubles", "open"))
    assert solver.check() == z3.sat


def test_a_declared_value_the_fixtures_contradict_is_not_called_wrong() -> None:
    # caboose (planted bugs on) declares doubles `open`; identify found doubles
    # contradicted ("other, or open if those fixtures are bugs") and then said "the engine
    # declares other rules than it plays: ..., doubles, ...", which its own finding
    # leaves open. Only a value found otherwise is named a difference, with both values
    from mtrain.commands.identify import declaration_note
    from mtrain.conformance.identify.run import OptionFinding

    pagat = CAT.ruleset("pagat")
    found = Ruleset("found", tuple((o, {"doubles": "other", "tie_rule": "most-outs"}.get(o, v))
                                   for o, v in pagat.choices), pagat.hand_table)
    findings = [OptionFinding(o, v, "sure", 3, ["x"]) for o, v in found.choices]
    at = [o for o, _ in found.choices]
    findings[at.index("doubles")] = OptionFinding("doubles", "other", "contradicted", 2,
                                                  ["doubles-050"], ["open"])
    assert declaration_note(findings, pagat, found) == [
        "the engine declares other rules than it plays: tie_rule (declared shared, "
        "plays most-outs)",
        "fixtures contradict the declared doubles: open (bugs in its clauses, or a rule "
        "of its own: `mtrain conform` under the declaration shows them)"]
    assert declaration_note(findings[:0], pagat, pagat) == ["declared rules agree"]


def test_a_declared_value_only_likely_contradicted_is_not_called_wrong() -> None:
    # tortoise (tests/examples/js, planted bugs on) declares blocked_round
    # full-round-of-passes; a marker left down by its pass made identify find
    # nobody-can-play "likely, margin 2", and the note said "the engine declares other
    # rules than it plays: blocked_round (declared full-round-of-passes, plays
    # nobody-can-play)": a certainty the finding does not have
    from mtrain.commands.identify import declaration_note
    from mtrain.conformance.identify.run import OptionFinding

    declared = CAT.ruleset("pagat+passes-end-round")
    found = Ruleset("found", tuple((o, "nobody-can-play" if o == "blocked_round" else v)
                                   for o, v in declared.choices), declared.hand_table)
    findings = [OptionFinding(o, v, "sure", 3, ["x"]) for o, v in found.choices]
    at = [o for o, _ in found.choices]
    findings[at.index("blocked_round")] = OptionFinding("blocked_round", "nobody-can-play",
                                                        "likely", 2, ["end-013"])
    note = declaration_note(findings, declared, found)
    assert not any("declares other rules than it plays" in line for line in note), note
    assert note == [
        "not sure, but the fixtures lean away from the declared rules: blocked_round "
        "(declared full-round-of-passes, the fixtures lean to nobody-can-play, margin 2) "
        "(a rule of its own, or bugs in the declared value's clauses: `mtrain conform` "
        "under the declaration shows them)"]


def test_an_answer_no_known_value_gives_may_be_a_rule_of_ones_own_of_any_option_it_reads(
) -> None:
    # score-009 under caboose's blanks at 10: the engine fails every entry (the scores of
    # face, blank-25, double-blank-50 and double-blank-25), and so did positive scoring,
    # the only region that matched: its declared blank_values `other` could not explain
    # the fixture, and identify wrote its penalty scoring `other` (contradicted)
    import z3

    from mtrain.conformance.identify.cells import Piece
    from mtrain.conformance.identify.solve import Model, constraint
    from mtrain.spec.scope import Space

    model = Model.of(Space(CAT))
    read = ("blank_values", "scoring")
    pieces = [Piece({"scoring": frozenset({"penalty"}), "blank_values": frozenset({v})},
                    tuple("pass" if k == i else "fail" for k in range(4)), read)
              for i, v in enumerate(["face", "blank-25", "double-blank-50", "double-blank-25"])]
    pieces.append(Piece({"scoring": frozenset({"positive"})}, ("fail",) * 4, read))
    solver = z3.Solver(ctx=model.ctx)
    solver.add(*model.hard)  # exactly one value per option
    solver.add(constraint(model, pieces, ["fail"] * 4, ["blank_values", "scoring"]),
               model.eq("blank_values", "other"), model.eq("scoring", "penalty"))
    assert solver.check() == z3.sat
    # an answer some known value gives is still explained only by it
    solver = z3.Solver(ctx=model.ctx)
    solver.add(*model.hard)  # exactly one value per option
    solver.add(constraint(model, pieces, ["pass", "fail", "fail", "fail"],
                          ["blank_values", "scoring"]),
               model.eq("blank_values", "other"), model.eq("scoring", "penalty"))
    assert solver.check() == z3.sat  # `other` playing face on this table
    solver.add(model.eq("scoring", "positive"))
    assert solver.check() == z3.unsat


def test_an_option_kept_other_on_the_engines_word_says_so_not_zero_fixtures() -> None:
    # caboose declares blank_values `other`; identify kept it, its rival blank-25 as cheap,
    # and the file said "or blank-25 if the 0 fixtures of its evidence are bugs"
    from mtrain.conformance.identify.run import OptionFinding

    pagat = CAT.ruleset("pagat")
    rs = Ruleset("found", tuple((o, "other" if o == "blank_values" else v)
                                for o, v in pagat.choices), pagat.hand_table)
    findings = [OptionFinding(o, v, "sure", 3, ["x"]) for o, v in rs.choices]
    findings[[o for o, _ in rs.choices].index("blank_values")] = OptionFinding(
        "blank_values", "other", "other", 0, [], ["blank-25"])
    text = Identification(rs, findings, [], 0, 0, 0.0, None).file_text(CAT)
    (line,) = [x for x in text.splitlines() if x.startswith("  blank_values: other")]
    assert line == ("  blank_values: other  # other: as the engine declares; no fixture "
                    "tells it from blank-25")


def test_a_table_beyond_the_bounds_of_the_measured_set_tells_nothing() -> None:
    # tortoise (tests/examples/js, a double-9 engine with a hand table of its own) plays
    # bounds-001's table (outs [15, 0, 0], a double-15 bound) as it comes; the reference
    # refuses that state under double-9 (15 outs in a 10-round match), an `error` that
    # identify took for an outcome, so every such fixture (bounds-001..003, match-015)
    # was listed "no rule set explains (likely bugs)", which conform then never showed
    from mtrain.conformance.identify.cells import ANY, explore_in, pieces_of
    from mtrain.conformance.partition import explore
    from mtrain.spec.scope import Space

    space = Space(CAT)
    fixtures, _ = load_corpus(FIXTURE_ROOT / "match" / "bounds-extra.yaml")
    fx = next(f for f in fixtures if f.id == "bounds-001")
    allowed = {"tile_set": frozenset({"double-9"}), "hand_sizes": frozenset({"custom"}),
               "engine_procedure": frozenset({"set-aside"}),
               "starting_seat": frozenset({"rotate"})}
    start = {**space.full(), **allowed}
    own = explore_in(fx, start, allowed, space, ((2, 13), (3, 11), (4, 9), (5, 8)))
    full = [p for p in own if p.region.get("match_length") != frozenset({"single-round"})]
    assert full and all(p.outcomes == (ANY, ANY) for p in full), own
    d9 = {**space.full(), "tile_set": frozenset({"double-9"}),
          "match_length": frozenset({"full"})}
    named = pieces_of(explore(fx, space, start=d9), space)
    assert named and all(p.outcomes == (ANY, ANY) for p in named), named


def test_an_unexplained_fixture_conform_does_not_run_is_told_apart() -> None:
    # tortoise (tests/examples/js) keeps doubles open (stays-open) and answers doubles-072,
    # a follow-up under DBL-12 that stays-open never reaches, its own way: identify listed
    # it as a likely bug "`mtrain conform --rules` shows", and conform under the rules found
    # never runs it (every entry speaks about other rules)
    from mtrain.commands.identify import split_unexplained

    tortoise = CAT.rules_file(str(Path(__file__).parent / "examples" / "js"
                                  / "tortoise-rules.yaml"))
    shows, elsewhere = split_unexplained(["doubles-072", "doubles-050"], tortoise)
    assert shows == ["doubles-050"] and elsewhere == ["doubles-072"]
    # switchback (tests/examples/, bugs off) plays one tile a turn and answers a table in
    # the chain phase (generated-first-turn-004) without refusing it: conform does not run
    # it (REACH-CHAIN: no such table under these rules), so it was listed as conform's
    # to show for a reason of its own, not for its entries' rules
    switchback = CAT.rules_file(str(Path(__file__).parent / "examples"
                                    / "switchback-rules.yaml"))
    shows, elsewhere = split_unexplained(["generated-first-turn-004", "doubles-017"],
                                         switchback)
    assert shows == ["doubles-017"] and elsewhere == ["generated-first-turn-004"]



def test_a_found_value_the_fixtures_contradict_too_is_not_called_what_it_plays() -> None:
    # junction (tests/examples/, planted bugs on) declares doubles `open`; its follow-up
    # on the Mexican Train (bug 3) made identify find doubles `ordinary`, "contradicted
    # (or other)", and the note said "the engine declares other rules than it plays:
    # doubles (declared open, plays ordinary)": a certainty its own finding denies
    from mtrain.commands.identify import declaration_note
    from mtrain.conformance.identify.run import OptionFinding

    pagat = CAT.ruleset("pagat")
    found = Ruleset("found", tuple((o, "ordinary" if o == "doubles" else v)
                                   for o, v in pagat.choices), pagat.hand_table)
    findings = [OptionFinding(o, v, "sure", 3, ["x"]) for o, v in found.choices]
    at = [o for o, _ in found.choices]
    findings[at.index("doubles")] = OptionFinding("doubles", "ordinary", "contradicted", 7,
                                                  ["play-opendbl-001@0.3"], ["other"])
    note = declaration_note(findings, pagat, found)
    assert not any("declares other rules than it plays" in line for line in note), note
    assert note[0].startswith("not sure, but the fixtures lean away from the declared "
                              "rules: doubles (declared open, the fixtures lean to "
                              "ordinary, margin 7)")


def test_a_procedure_of_its_own_that_deals_set_asides_pools_alike_stays_its_own() -> None:
    # tests/examples/roundhouse_engine.py declares engine_procedure `other`: every tile
    # dealt, the engine taken from its holder's hand (one tile short) or the boneyard, and
    # nobody drawing for it. From a pool without the engine it deals as set-aside does, so
    # identify measured set-aside and said the engine "declares other rules than it
    # plays"; its deals of the whole set are no known procedure's, and now say so
    import shlex
    import sys

    from mtrain.conformance.identify.measure import measure
    from mtrain.conformance.identify.run import OptionFinding, _as_declared
    from mtrain.conformance.identify.solve import Solution
    from mtrain.conformance.process import ProcessImplementation
    from mtrain.spec.scope import Space

    engine = Path(__file__).parent / "examples" / "roundhouse_engine.py"
    with ProcessImplementation(shlex.join([sys.executable, str(engine)]), timeout=30) as impl:
        deals, _ = measure(impl, Space(CAT), PAGAT)
    assert deals.procedure == "set-aside" and deals.own_elsewhere
    declared = Ruleset("declared", tuple((o, "other" if o == "engine_procedure" else v)
                                         for o, v in CAT.ruleset("pagat").choices),
                       CAT.ruleset("pagat").hand_table)
    best = Solution({**PAGAT, "engine_procedure": "set-aside"}, 0, [])
    found = [OptionFinding("engine_procedure", "set-aside", "measured", 0, ["deals"])]
    (f,) = _as_declared(best, found, declared, deals)
    assert (f.value, f.status) == ("other", "other")
    assert best.values["engine_procedure"] == "other"
    # cantina sets the engine aside and says so: its measurement stands
    (kept,) = _as_declared(Solution(dict(best.values), 0, []), found,
                           CAT.ruleset("pagat"), deals)
    assert (kept.value, kept.status) == ("set-aside", "measured")


def test_a_rule_declared_its_own_explains_a_fixture_its_known_values_agree_on() -> None:
    # roundhouse keeps the tile it draws; both known draw rules play it (TURN-3), so the
    # draw rule decided nothing between them and identify explained the drawn-tile
    # fixtures by another option the runs read, `own_train_first: other` (wrong). A rule
    # the engine declares its own, read by the runs, explains them, as conform makes
    # such entries not applicable
    import z3

    from mtrain.conformance.identify.cells import Piece
    from mtrain.conformance.identify.solve import Model, constraint
    from mtrain.spec.scope import Space

    model = Model.of(Space(CAT))
    drawn = [Piece({}, ("pass",), ("own_train_first", "draw_rule"))]
    escapable = ["own_train_first", "draw_rule"]
    assert z3.is_false(z3.simplify(constraint(model, drawn, ("fail",), escapable)))
    mine = constraint(model, drawn, ("fail",), escapable, frozenset({"draw_rule"}))
    solver = z3.Solver(ctx=model.ctx)
    solver.add(mine, model.eq("draw_rule", "other"))
    assert solver.check() == z3.sat
    solver = z3.Solver(ctx=model.ctx)
    solver.add(mine, z3.Not(model.eq("draw_rule", "other")))
    assert solver.check() == z3.unsat  # not own_train_first's: it was not declared


def test_a_table_that_reads_the_match_length_only_for_its_round_is_no_evidence_against_a_match_of_ones_own() -> None:  # noqa: E501
    # A table of round 2 reads match_length only to know whether round 2 exists
    # (MATCH-7 refuses it under single-round). roundhouse (its match ends once a total
    # reaches 150) plays such a table as `full` does, and 631 of them counted against
    # its `other`: identify wrote full. Now `other` stands there for the values that have
    # the table (run.py, SETUP_ONLY), and for nothing else: a bug at that table (every
    # entry failed, as single-round's refusal fails them) is not read as the match.
    import z3

    from mtrain.conformance.identify.cells import Piece
    from mtrain.conformance.identify.solve import Model, constraint
    from mtrain.spec.scope import Space

    model = Model.of(Space(CAT))
    played = Piece({"match_length": frozenset({"full"})}, ("pass", "fail"), ("match_length",))
    lacking = Piece({"match_length": frozenset({"single-round"})}, ("fail", "fail"),
                    ("match_length",))
    has = {"match_length": frozenset({"full"})}

    def holds(outcomes: list[str], only: dict[str, frozenset[str]], value: str) -> bool:
        solver = z3.Solver(ctx=model.ctx)
        solver.add(*model.hard)
        c = constraint(model, [played, lacking], outcomes, ["match_length"],
                       frozenset({"match_length"}), only)
        solver.add(c, model.eq("match_length", value))
        return bool(solver.check() == z3.sat)

    # the engine played the table as full does: evidence against single-round only
    assert holds(["pass", "fail"], has, "other") and holds(["pass", "fail"], has, "full")
    assert not holds(["pass", "fail"], has, "single-round")
    # it failed every entry while playing the table: `other` explains nothing here,
    # neither as the refusal of single-round nor as an answer no value gives
    assert not holds(["fail", "fail"], has, "other")
    assert holds(["fail", "fail"], has, "single-round")
    assert not holds(["pass", "pass"], has, "other")
    # where the engine refused the setup, `other` stands for the values lacking the table
    assert holds(["fail", "fail"], {"match_length": frozenset({"single-round"})}, "other")
    # without the restriction (a fixture that cites MATCH-1 or MATCH-7), `other` is any
    # rule of its own, and may give an answer no known value gives
    assert holds(["pass", "pass"], {}, "other")
    # which values have the table, the reference says (here: a table of round 4)
    from types import SimpleNamespace

    from mtrain.conformance.identify.run import _escapable

    space = Space(CAT)
    every = frozenset(space.options["match_length"])
    cases: list[tuple[frozenset[str], bool, frozenset[str]]] = [
        (frozenset({"full"}), False, frozenset({"full"})),
        (frozenset({"full"}), True, frozenset({"single-round"})),
        # the reference has it under every value (round 1 under this set): any of them
        (every, False, every)]
    table = SimpleNamespace(clauses=("DBL-1",))  # all _escapable reads of the fixture
    for had, refused, stands in cases:
        _, stand_in = _escapable(table, ["match_length"],  # type: ignore[arg-type]
                                 [played, lacking], refused,
                                 lambda fx, o, h=had: h, space)  # type: ignore[misc]
        assert stand_in == {"match_length": stands}
    table.clauses = ("MATCH-1",)
    assert _escapable(table, ["match_length"], [played, lacking],  # type: ignore[arg-type]
                      False, lambda fx, o: every, space) == (["match_length"], {})


@pytest.mark.slow  # about 12 CPU s: identify over two folders, with its situations
def test_a_match_of_the_engines_own_is_read_as_its_own() -> None:
    # tests/examples/roundhouse_engine.py (its bugs off) ends the match after the round
    # in which a total reaches 150, and declares match_length `other`. Its tables of later
    # rounds (here the double fixtures that are set in one) it plays as a full match
    # does; the match fixtures tell the rest
    import shlex
    import sys

    from mtrain.conformance.process import ProcessImplementation

    engine = Path(__file__).parent / "examples" / "roundhouse_engine.py"
    fixtures = []
    for folder in ("match", "doubles"):
        some, errors = load_corpus(FIXTURE_ROOT / folder)
        assert some and not errors
        fixtures += some
    ((declared, _),) = read_rules([str(engine.parent / "roundhouse-rules.yaml")])
    with ProcessImplementation(shlex.join([sys.executable, str(engine), "--fixed", "1,2,3"]),
                               timeout=30) as impl:
        found = identify(impl, fixtures, declared=declared)
    f = found.finding("match_length")
    assert f.value == "other", f
    # no later round's table that does not cite the match's clauses is named as showing
    # full (it shows only that the engine has the round): 446 were, before
    later = {fx.id for fx in fixtures if not {"MATCH-1", "MATCH-7"} & set(fx.clauses)}
    named = set(re.findall(r"[\w-]+-\d+(?:@[\d.]+)?", " ".join(f.evidence)))
    assert named and not named & later, f.evidence
    # every finding left unsettled says what would settle it: the fixtures on each side,
    # or those no known rule set explains that read it, or that no fixture would
    for g in found.findings:
        if g.status in ("undetermined", "likely", "contradicted"):
            assert g.evidence and (g.status != "undetermined" or any(
                "would settle it" in e or "fixtures that tell" in e or "not seen" in e
                for e in g.evidence)), g


def test_a_fixture_a_declared_rule_of_its_own_decides_casts_no_doubt_on_its_neighbours(
        ) -> None:
    # tandem (tests/examples, bugs off) declares `doubles: other` and plays `first_turn:
    # single`. chaindbl-014 sets a first-turn chain's open double on the table: the
    # engine refuses the chain as single does (fail), which `doubles: open` with single
    # gives and `ordinary` cannot have (ANY). Explained through the declared `other`,
    # it made first_turn `likely`, "not sure: 2 fixtures that no rule set of known values
    # explains read this option" (chaindbl-014, chaindbl-015), though single and open
    # explain them; conform makes such entries not applicable, and so does this
    from mtrain.conformance.identify.cells import ANY, Piece
    from mtrain.conformance.identify.conclude import _suspects
    from mtrain.conformance.identify.found import Observation
    from mtrain.conformance.identify.solve import Solution

    read = ("doubles", "first_turn")
    pieces = [Piece({"first_turn": frozenset({"single"}), "doubles": frozenset({"open"})},
                    ("fail",), read),
              Piece({"first_turn": frozenset({"chain"}), "doubles": frozenset({"open"})},
                    ("pass",), read),
              Piece({"doubles": frozenset({"ordinary"})}, (ANY,), ("doubles",))]
    fx = next(f for f in load_corpus(FIXTURE_ROOT / "chain-doubles")[0]
              if f.id == "chaindbl-014")
    best = Solution({**PAGAT, "first_turn": "single", "doubles": "other"}, 0, [])
    seen = [Observation(fx, ("fail",))]
    # undeclared, the `other` the solver found may have absorbed first_turn's difference
    assert _suspects(best, seen, {fx.id: pieces}) == {"first_turn": [fx.id]}
    # declared, the table is the engine's doubles rule's to judge
    assert _suspects(best, seen, {fx.id: pieces}, frozenset({"doubles"})) == {}
    # a fixture no rule set explains still reads as before (a bug may be in any option)
    bad = Solution({**PAGAT, "first_turn": "single", "doubles": "other"}, 1, [fx.id])
    assert set(_suspects(bad, seen, {fx.id: pieces}, frozenset({"doubles"}))) == {
        "first_turn", "doubles"}


def test_a_value_found_against_the_declared_one_is_at_most_likely() -> None:
    # tandem's planted redraw (a second draw offered, not a pass) is draw-until-playable
    # on every drawn table, and roundhouse's marker bug anyone-plays-on on every marked
    # one: no fixture tells such a bug from the value. Once the fixtures its own doubles
    # rule decides no longer left them `likely` (the test above), both were `sure` and
    # wrong; the declared value is the evidence against them
    from mtrain.commands.identify import declaration_note
    from mtrain.conformance.identify.run import OptionFinding, _as_declared
    from mtrain.conformance.identify.solve import Solution

    pagat = CAT.ruleset("pagat")
    found = {**PAGAT, "draw_rule": "draw-until-playable"}
    findings = [OptionFinding(o, v, "sure", 11, ["generated-draw-rule-001"])
                for o, v in found.items()]
    out = {f.option: f for f in _as_declared(Solution(dict(found), 0, []), findings, pagat)}
    assert out["draw_rule"].status == "likely" and out["draw_rule"].value == found["draw_rule"]
    assert "the engine declares draw-one" in out["draw_rule"].evidence[-1]
    assert {o for o, f in out.items() if f.status == "sure"} == set(PAGAT) - {"draw_rule"}
    assert declaration_note(list(out.values()), pagat, Ruleset(
        "found", tuple(found.items()), pagat.hand_table))[0].startswith(
        "not sure, but the fixtures lean away from the declared rules: draw_rule")
    # not declared at all, the fixtures alone speak; declared `other`, the value is at
    # most likely too (tests/test_house47b.py: a house rule agrees with a known value on
    # every table the fixtures hold)
    mine = Ruleset("mine", tuple((o, "other" if o == "draw_rule" else v)
                                 for o, v in pagat.choices), pagat.hand_table)
    for declared, status in ((mine, "likely"), (None, "sure")):
        (kept,) = _as_declared(Solution(dict(found), 0, []), [OptionFinding(
            "draw_rule", "draw-until-playable", "sure", 11, ["x"])], declared)
        assert kept.status == status


def test_a_rule_declared_its_own_beside_another_is_weighed_with_the_rest_known() -> None:
    # tests/examples/semaphore_engine.py declares scoring and blank values `other` (a
    # blocked round charged twice, a blank end 18). Each scoring fixture also reads the
    # blank values, whose `other` took whichever known value explained it: the rival of
    # scoring cost nothing, and its line said "no fixture tells it from ...", and named
    # a rival that changed from run to run (penalty, penalty-blocked-winner)
    from mtrain.conformance.identify.findings import _finding
    from mtrain.conformance.identify.measure import Deals
    from mtrain.conformance.identify.solve import Model, Solver
    from mtrain.spec.scope import Space

    space = Space(CAT)
    model = Model.of(space)
    base = {**PAGAT, "scoring": "other", "blank_values": "other"}
    either = model.any([model.eq("scoring", "other"), model.eq("blank_values", "other")])
    soft = [(either, f"blocked-{k}") for k in range(3)]
    solver = Solver(model, soft, {}, {}, base)
    best = solver.solve()
    assert best is not None and best.violated == []
    f = _finding("scoring", best, solver, model, Deals(), {}, {}, base)
    assert (f.value, f.status, f.margin) == ("other", "other", 3)
    assert f.evidence == ["blocked-0", "blocked-1", "blocked-2"]
    # the rival named is the tie-break's: the first known value in the catalogue's order
    assert f.alternatives == [space.options["scoring"][0]]


def test_a_rule_declared_its_own_that_agrees_with_a_known_value_somewhere_is_not_contradicted(
        ) -> None:
    # semaphore (bugs off) declares its tie rule `other` (the last round decides): it
    # agrees with most-outs on match-017, not on tiesx-002. identify said "contradicted
    # ... a bug in MATCH-4, MATCH-5, MATCH-6 the engine makes on every such table", of a
    # house rule the engine declares, and "1 fixtures"
    from mtrain.conformance.identify.cells import Piece
    from mtrain.conformance.identify.conclude import _conclude
    from mtrain.conformance.identify.found import Observation
    from mtrain.conformance.identify.measure import Deals
    from mtrain.conformance.identify.solve import Model
    from mtrain.spec.scope import Space

    space = Space(CAT)
    model = Model.of(space)
    ties = space.options["tie_rule"]
    fixtures = {f.id: f for f in load_corpus(FIXTURE_ROOT / "match")[0]
                if f.id in ("match-017", "tiesx-002")}
    read = ("tie_rule",)
    parts = {"match-017": [Piece({"tie_rule": frozenset({"most-outs"})}, ("pass",), read),
                           Piece({"tie_rule": frozenset(set(ties) - {"most-outs"})},
                                 ("fail",), read)],
             "tiesx-002": [Piece({"tie_rule": frozenset(ties)}, ("pass",), read)]}
    # against it, five tables like tiesx-002's: undeclared, `other` is then worth its cost
    against = [dataclasses.replace(fixtures["tiesx-002"], id=f"tiesx-002.{k}") for k in range(5)]
    parts.update({fx.id: parts["tiesx-002"] for fx in against})
    seen = [Observation(fixtures["match-017"], ("pass",)),
            *(Observation(fx, ("fail",)) for fx in against)]
    soft = [(model.any([model.eq("tie_rule", "most-outs"), model.eq("tie_rule", "other")]),
             "match-017"), *((model.eq("tie_rule", "other"), fx.id) for fx in against)]
    for declared, status in ((True, "other"), (False, "contradicted")):
        base = {**PAGAT, "tie_rule": "other"} if declared else PAGAT
        got = _conclude(model, soft, {}, {}, base, space, None, Deals(), seen, parts)
        assert got is not None
        tie = next(f for f in got[1] if f.option == "tie_rule")
        assert (tie.value, tie.status) == ("other", status), tie
        if not declared:  # undeclared, either reading is left open, in good grammar
            assert tie.evidence[0].startswith("1 fixture shows most-outs (match-017), 5 of "
                                              "the same clauses"), tie.evidence
    # fixtures seen to break another clause (semaphore's planted TURN-1 bug on a
    # first-turn table) are not of the same clauses: no contradiction of the option
    for o in seen[1:]:
        o.charged = ["TURN-1"]
    got = _conclude(model, soft, {}, {}, PAGAT, space, None, Deals(), seen, parts)
    assert got is not None
    tie = next(f for f in got[1] if f.option == "tie_rule")
    assert (tie.value, tie.status) == ("other", "other"), tie


def test_a_fixture_read_as_a_bug_names_the_clause_it_breaks() -> None:
    # semaphore (bugs on) offers a draw beside the plays it has (TURN-1); the doubles
    # fixtures that fail so were "read as bugs in DBL-1, DBL-10, DBL-12", the clauses they
    # are about. Each observation now keeps what its failures break, as conform charges it
    from mtrain.conformance.adapter import ReferenceImplementation
    from mtrain.conformance.identify.observe import observe

    class Drawing(ReferenceImplementation):
        def legal(self, rules: JSON, state: JSON) -> list[JSON]:
            return [*super().legal(rules, state), {"type": "draw"}]

    fx = next(f for f in load_corpus(FIXTURE_ROOT / "doubles")[0] if f.id == "doubles-038")
    assert "TURN-1" not in fx.clauses
    pagat = CAT.ruleset("pagat")
    (fine,) = observe([fx], ReferenceImplementation(), pagat)
    assert (fine.outcomes, fine.charged) == (("pass",), [])
    (seen,) = observe([fx], Drawing(), pagat)
    assert (seen.outcomes, seen.charged) == (("fail",), ["TURN-1"])


def test_a_refused_step_is_charged_to_the_clause_that_allows_it() -> None:
    # an engine refusing a step the fixture expects legal failed with nothing charged, and
    # the fixture was read as a bug in the clauses it is about (doubles-034's DBL-6,
    # TRAIN-6, TURN-3). Seat 1 holds [3-2, 1-7] under an open [5-5]: it cannot play, so
    # its draw is TURN-2's ("a player who cannot play draws"), as conform charges it
    from mtrain.conformance.adapter import ReferenceImplementation, Refused
    from mtrain.conformance.identify.observe import observe
    from mtrain.conformance.runner import run_one

    class NoDraw(ReferenceImplementation):
        def apply(self, rules: JSON, state: JSON, action: JSON) -> JSON:
            if action.get("type") == "draw":
                raise Refused("no draw today")
            return super().apply(rules, state, action)

    fx = next(f for f in load_corpus(FIXTURE_ROOT / "doubles")[0] if f.id == "doubles-034")
    assert fx.steps == ("draw",) and "TURN-2" not in fx.clauses
    pagat = CAT.ruleset("pagat")
    (seen,) = observe([fx], NoDraw(), pagat)
    assert (seen.outcomes, seen.charged) == (("fail",) * len(fx.expect), ["TURN-2"])
    assert run_one(fx, pagat, fx.expect[0], NoDraw()).charged == ["TURN-2"]  # conform's


def test_a_failed_entry_is_charged_to_the_first_departure_only() -> None:
    # semaphore (bugs on): match_length's fixtures against `full` were "read as bugs in
    # TURN-1, END-1, MATCH-1": every failed comparison was charged, also those the first
    # departure led to (a round ended, totals off). A double drawn and laid that ends the
    # turn departs at its step (DBL-1); the seat after it and the legal set it leaves
    # (SEAT-1, TURN-7) follow from it. conform charges the first departure alone

    from mtrain.conformance.identify.observe import observe
    from mtrain.conformance.runner import run_one

    adapters = file_module(Path(__file__).parent / "broken_impls" / "adapters.py")
    impl = adapters.DrawnDoubleEndsTurn()
    fx = next(f for f in load_corpus(FIXTURE_ROOT / "doubles")[0] if f.id == "doubles-025")
    pagat = CAT.ruleset("pagat")
    i, exp = next((i, e) for i, e in enumerate(fx.expect) if e.scope.contains(PAGAT))
    (seen,) = observe([fx], impl, pagat)
    assert seen.outcomes[i] == "fail"
    assert seen.by_entry[i] == ("DBL-1",) == tuple(run_one(fx, pagat, exp, impl).charged)


def test_a_fixture_read_as_a_bug_names_what_its_entries_at_the_answer_break() -> None:
    # every entry of a fixture is checked: those of other rules fail as those rules say
    # (pagat's reference fails chaindbl-010's entry for other first turns), and their
    # charges named no bug. Only the entries failed against the answer are charged
    from mtrain.conformance.identify import bugs
    from mtrain.conformance.identify.cells import Piece
    from mtrain.conformance.identify.conclude import _broken
    from mtrain.conformance.identify.found import Observation

    fx = next(f for f in load_corpus(FIXTURE_ROOT / "doubles")[0] if f.id == "doubles-038")
    fx = dataclasses.replace(fx, expect=(fx.expect[0], fx.expect[0]))
    parts = {fx.id: [Piece({"doubles": frozenset({"open"})}, ("pass", "fail"), ()),
                     Piece({"doubles": frozenset({"ordinary"})}, ("fail", "pass"), ())]}
    seen = Observation(fx, ("fail", "fail"), charged=["TURN-1", "DBL-11"],
                       by_entry={0: ("TURN-1",), 1: ("DBL-11",)})
    observed = {fx.id: seen}
    assert bugs.astray({"doubles": "open"}, parts[fx.id], seen.outcomes) == frozenset({0})
    assert _broken(observed, frozenset(), CAT, fx.id, {"doubles": "open"}, parts) == {"TURN-1"}
    assert _broken(observed, frozenset(), CAT, fx.id, {"doubles": "ordinary"},
                   parts) == {"DBL-11"}
    assert _broken(observed, frozenset(), CAT, fx.id) == {"TURN-1", "DBL-11"}


def test_a_value_with_a_bug_names_the_clause_the_bug_breaks() -> None:
    # semaphore (bugs on): doubles `open` with one situation against it, failing by bug
    # 1 (a draw offered, TURN-1), was "3 against it ... are read as bugs in DBL-1, DBL-10,
    # DBL-12" (the clauses the fixtures are about); a failure charged to a rule the engine
    # declares its own (a stand-in was sent for it) names nothing
    from mtrain.conformance.identify import bugs
    from mtrain.conformance.identify.conclude import _broken
    from mtrain.conformance.identify.found import Observation

    fx = next(f for f in load_corpus(FIXTURE_ROOT / "doubles")[0] if f.id == "doubles-038")
    drew = Observation(fx, ("fail",), charged=["TURN-1"])
    scored = Observation(dataclasses.replace(fx, id="scored"), ("fail",), charged=["SCORE-5"])
    observed = {o.fixture.id: o for o in (drew, scored)}
    own = frozenset({"scoring"})
    assert _broken(observed, own, CAT, fx.id) == {"TURN-1"}
    assert _broken(observed, own, CAT, "scored") == frozenset(fx.clauses)
    assert _broken(observed, frozenset(), CAT, "scored") == {"SCORE-5"}
    shape = bugs.Shape(("a", "b"), (), (), (fx.id,))
    text = bugs.note("doubles", "open", shape, lambda fid: _broken(observed, own, CAT, fid))
    assert text == ("2 fixtures show open (a, b); 1 against it (doubles-038; it fails under "
                    "every value of doubles alike) is read as a bug in TURN-1: written open, "
                    "or other if it is a rule of its own")
