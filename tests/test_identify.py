"""`mtrain identify`: the rules an engine plays, recovered from the fixtures alone."""

from __future__ import annotations

import random
import shlex
import shutil
import sys
from pathlib import Path

import pytest

from mtrain.cli import main
from mtrain.conformance.fixture import Fixture, load_corpus
from mtrain.conformance.identify import identify
from mtrain.conformance.mutants import mutant
from mtrain.conformance.scoping import Partition, explore
from mtrain.conformance.serve import FixedRules
from mtrain.spec.catalog import catalog
from mtrain.spec.scope import Space

MTRAIN = shutil.which("mtrain") or str(Path(sys.executable).with_name("mtrain"))
SPACE = Space()


@pytest.fixture(scope="module")
def corpus() -> tuple[list[Fixture], dict[str, Partition]]:
    fixtures, errors = load_corpus()
    assert not errors
    return fixtures, {fx.id: explore(fx, SPACE) for fx in fixtures}


# The sets on which the corpus tells every pair of option values apart (the generated
# fixtures are written for them); on double-15 only some fixtures speak (its deals and
# the fixtures the scope check widened to it), so not every option can be recovered there.
FULLY_COVERED = ("double-12", "double-9")


def random_rulesets(n: int, seed: int,
                    tile_sets: tuple[str, ...] = FULLY_COVERED) -> list[dict[str, str]]:
    rng = random.Random(seed)
    out: list[dict[str, str]] = []
    while len(out) < n:
        region = {o: frozenset([rng.choice(vs)]) for o, vs in SPACE.options.items()}
        region["tile_set"] = frozenset([rng.choice(tile_sets)])
        values = SPACE.complete(region)
        if values is not None and values not in out:
            out.append(values)
    return out


def test_thirty_random_rule_sets_are_recovered_exactly(
        corpus: tuple[list[Fixture], dict[str, Partition]]) -> None:
    fixtures, parts = corpus
    wrong = []
    for values in random_rulesets(30, seed=2026):
        found = identify(FixedRules(SPACE.ruleset(values)), fixtures, parts)
        got = dict(found.ruleset.choices)
        diff = {o: (v, got[o]) for o, v in values.items() if got[o] != v}
        if diff:
            wrong.append(diff)
        assert not found.unexplained  # a correct engine leaves no fixture unexplained
        assert all(f.status in ("sure", "measured", "likely") for f in found.findings
                   if f.value == values[f.option]) or diff
    assert wrong == []


def test_a_double_15_engine_is_found_on_its_set_with_its_table(
        corpus: tuple[list[Fixture], dict[str, Partition]]) -> None:
    fixtures, parts = corpus
    for values in random_rulesets(2, seed=15, tile_sets=("double-15",)):
        found = identify(FixedRules(SPACE.ruleset(values)), fixtures, parts)
        got = dict(found.ruleset.choices)
        assert (got["tile_set"], got["hand_sizes"]) == ("double-15", "ourpastimes-d15")
        assert not found.unexplained


def test_a_mutant_that_imitates_an_option_is_named(
        corpus: tuple[list[Fixture], dict[str, Partition]]) -> None:
    fixtures, parts = corpus
    # Under pagat's owner-plays-own, this bug removes a marker whenever anyone plays on
    # the train: exactly the anyone-plays-on rule.
    found = identify(mutant("marker-anyone-under-owner-own"), fixtures, parts)
    assert found.ruleset["marker_removal"] == "anyone-plays-on"
    pagat = dict(catalog().ruleset("pagat").choices)
    assert {o for o, v in found.ruleset.choices if v != pagat[o]} == {"marker_removal"}


def test_a_bug_that_imitates_no_option_is_reported(
        corpus: tuple[list[Fixture], dict[str, Partition]]) -> None:
    fixtures, parts = corpus
    found = identify(mutant("wrong-hand-size"), fixtures, parts)
    (hands,) = [f for f in found.findings if f.option == "hand_sizes"]
    assert hands.status == "measured" and hands.value == "custom"  # a table of its own


def test_identify_through_the_protocol_then_conform(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
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
