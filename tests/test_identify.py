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
from mtrain.spec.ruleset import CUSTOM
from mtrain.spec.scope import Space

MTRAIN = shutil.which("mtrain") or str(Path(sys.executable).with_name("mtrain"))
SPACE = Space()


@pytest.fixture(scope="module")
def corpus(corpus_explored: None) -> list[Fixture]:
    """The corpus, its partitions explored once per run (tests/conftest.py
    `corpus_explored`) and kept in the run's cache, where identify reads them."""
    fixtures, errors = load_corpus()
    assert not errors
    return fixtures


# Every set a rule set can be played on: double-15 through its overlay's table, double-6
# and double-18 through the tables of the rule-set files of spec/data/rulesets/ (the
# space's `custom:NAME`). `custom` alone (any other table) is left out: it is played with
# a probe table, and identify names such a table `custom` from the deals it measures.
PLAYABLE = tuple(SPACE.options["tile_set"])
ONE_FILE = ("double-6", "double-18")
"""Sets only one rule-set file reaches (pagat's rules on double-6, puremco's on double-18):
the corpus cannot tell every option apart there, so only the set and the table must be
found exactly, and no other value found wrong may be called sure."""
TABLES = tuple(v for v in SPACE.options["hand_sizes"] if v != CUSTOM)


def random_rulesets(n: int, seed: int,
                    tile_sets: tuple[str, ...] = PLAYABLE) -> list[dict[str, str]]:
    """n distinct valid rule sets, the tile sets taken in turn (so every set is drawn)."""
    rng = random.Random(seed)
    out: list[dict[str, str]] = []
    while len(out) < n:
        region = {o: frozenset([rng.choice(vs)]) for o, vs in SPACE.options.items()}
        region["tile_set"] = frozenset([tile_sets[len(out) % len(tile_sets)]])
        region["hand_sizes"] = frozenset([rng.choice(TABLES)])
        values = SPACE.complete(region)
        if values is None:  # a table the set cannot deal: any table that it can
            values = SPACE.complete({**region, "hand_sizes": frozenset(TABLES)})
        if values is not None and values not in out:
            out.append(values)
    return out


@pytest.mark.slow
@pytest.mark.parametrize("tile_set", PLAYABLE)
def test_random_rule_sets_are_recovered_exactly(corpus: list[Fixture], tile_set: str) -> None:
    """Ten valid rule sets drawn at random, two on each set, a test per set (the
    whole-corpus calibration of many more is benchmarks/identify_calibration.py's)."""
    fixtures = corpus
    every = random_rulesets(30, seed=2026)[::3]
    assert {v["tile_set"] for v in every} == set(PLAYABLE)
    drawn = [v for v in every if v["tile_set"] == tile_set]
    assert len(drawn) == 2
    wrong = []
    weak: list[tuple[str, str]] = []
    unexplained: list[tuple[str, str]] = []
    for values in drawn:
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
    # as a set, and no more than those listed: which of them come out weak varies from run
    # to run on double-15 (identify's answers there are not repeatable: issue 21, open)
    assert set(weak) <= {w for w in KNOWN_WEAK if w[0] == tile_set}
    assert unexplained == [u for u in KNOWN_UNEXPLAINED if u[0] == tile_set]


KNOWN_WEAK = [("double-12", "marker_removal"), ("double-12", "tie_rule"),
              ("double-15", "starting_seat"), ("double-15", "follow_up"),
              ("double-15", "tie_rule"), ("double-15", "double_order"),
              ("double-12", "follow_up"), ("double-9", "tie_rule")]
"""Right but not called likely (issue 21, open): measured after highest-draw,
released-when-boneyard-empty and follow-up-only joined the space, which redrew the
sample; too few of the tables these rule sets run tell these options' values apart. On
double-15 three runs found three different subsets of these four. The sample redrawn when
starting_seat heaviest-in-hand joined (stop 34) has one: double-9's tie_rule."""


def _same_clauses(values: dict[str, str], option: str, alternatives: list[str]) -> bool:
    """Whether every alternative brings in exactly the clauses the true value does: then
    the rules read the same and no table can tell them apart (under ordinary doubles,
    chain-no-double-end is chain: FIRST-12 applies only to open doubles)."""
    cat = catalog()
    mine = {c.id for c in cat.applicable(values)}
    return all({c.id for c in cat.applicable({**values, option: alt})} == mine
               for alt in alternatives)


KNOWN_GAPS: list[tuple[str, dict[str, tuple[str, str]]]] = [
    ("double-12", {"first_turn": ("chain-no-double-end", "chain"),
                   "marker_removal": ("anyone-plays-on", "owner-plays-own"),
                   "tie_rule": ("lowest-seat", "shared")}),
]
"""What the corpus cannot yet tell (issue 21, open), measured on the sample drawn after
`starting_seat: heaviest-in-hand` joined the space (stop 34), which redrew it: the
double-9 and double-15 rule sets are now found exactly. The double-12 one plays ordinary
doubles, under which chain-no-double-end reads as chain (FIRST-12 applies to open doubles
only), so its first_turn is no real gap; its marker rule and tie rule are. Listed so that
a fix, or a new gap, shows."""
KNOWN_UNEXPLAINED = [("double-12", "posscore-001")]
"""A fixture a correct engine leaves unexplained (issue 21, open): under the sample's
single-round, ordinary-doubles double-12 rule set identify finds no rule set for what
posscore-001 gets, whose entries all speak of full matches (one of the two double-12 rule
sets of the stop-34 sample; both of stop 33's)."""


@pytest.mark.slow
def test_a_double_15_engine_is_found_on_its_set_with_its_table(
        corpus: list[Fixture]) -> None:
    fixtures = corpus
    for values in random_rulesets(2, seed=15, tile_sets=("double-15",)):
        found = identify(FixedRules(SPACE.ruleset(values)), fixtures)
        got = SPACE.point(found.ruleset)
        assert got["tile_set"] == "double-15"
        assert got["hand_sizes"] == values["hand_sizes"]  # ourpastimes-d15 or a file's
        assert not found.unexplained


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
                                  "pagat+engine-designated-opens+highest-draw-start",
                                  "puremco+heaviest-in-hand-start"])
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
