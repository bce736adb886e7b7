"""What the hand-worked scenario tests (tests/test_scenarios_s47.py onwards) share: their
fixtures, found by id or by file, and a fixture's outcomes under an implementation, which
a mutant (or a house rule) it tells apart must change."""

from __future__ import annotations

import functools
from pathlib import Path

from mtrain.conformance.adapter import Implementation, ReferenceImplementation
from mtrain.conformance.fixture import Fixture, fixture_files, load_corpus, load_file
from mtrain.conformance.mutants import mutant
from mtrain.conformance.runner import run_fixture

MUTANT_FIXTURES = Path(__file__).parent.parent / "conformance" / "fixtures" / "mutants"
"""The fixtures written beside a reading's mutants."""


def outcomes(fx: Fixture, impl: Implementation) -> list[str]:
    """The status of each of `fx`'s results, rule set by rule set it names; a crash
    (under a mutant) is an outcome too, named by its exception's class."""
    out = []
    for variant in dict.fromkeys(v for v, _ in fx.rulesets()):
        try:
            out += [o.status for o in run_fixture(fx, impl, [variant])]
        except Exception as e:  # a crash under a mutant is a difference too
            out.append(f"error: {type(e).__name__}")
    return out


def assert_tells_apart(fx: Fixture, *engines: Implementation | str) -> None:
    """`fx` holds under the reference, and each of `engines` (a mutant by name, or an
    implementation) changes one of its outcomes at least."""
    assert set(outcomes(fx, ReferenceImplementation())) == {"pass"}
    for engine in engines:
        impl = mutant(engine) if isinstance(engine, str) else engine
        assert any(s != "pass" for s in outcomes(fx, impl)), engine


@functools.cache
def corpus_fixtures(*prefixes: str) -> dict[str, Fixture]:
    """The corpus's fixtures whose ids start with one of `prefixes`, by id (the corpus
    read without an error)."""
    fixtures, errors = load_corpus()
    assert not errors
    return {fx.id: fx for fx in fixtures if fx.id.startswith(prefixes)}


@functools.cache
def file_fixtures(path: Path) -> dict[str, Fixture]:
    """The fixtures of one file, by id."""
    return {fx.id: fx for fx in load_file(path)}


@functools.cache
def named_fixtures(*names: str) -> dict[str, Fixture]:
    """The fixtures of the corpus's files named `names` (each found), by id: found among
    the corpus's files, not read from the whole corpus (which costs 4 s)."""
    paths = [p for p in fixture_files() if p.name in names]
    assert sorted(p.name for p in paths) == sorted(names), paths
    return {fx.id: fx for path in paths for fx in load_file(path)}
