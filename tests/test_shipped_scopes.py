"""The lint's scope checks shipped with the package (conformance/lint/shipped_scopes.py): a
first `mtrain lint` with an empty cache reads them instead of exploring, keeps them in its
cache, explores what they lack, and never reads files made by other code or data or
spoiled; and the package's own files, when current, are what a fresh exploration finds.

The first tests write their own shipped files for one small file of the corpus (explored
here), and set MTRAIN_SHIPPED_SCOPES on again (the conftest keeps it off for every other
test). The files' kinds of spoiling are shared with identify's pieces (shipped_entry.py,
tests/test_shipped_pieces.py)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from mtrain.conformance import fixture, shipped
from mtrain.conformance import situation_shipping as shipping
from mtrain.conformance.fixture import FIXTURE_ROOT, Fixture, load_corpus
from mtrain.conformance.identify import cells
from mtrain.conformance.identify.shipped_pieces import PIECES
from mtrain.conformance.lint import scopes
from mtrain.conformance.lint.scopes import (
    ScopeCache,
    check_scopes,
    fixture_digest,
    kept_json,
    scope_fixture,
)
from mtrain.conformance.lint.shipped_scopes import SCOPES, SCOPES_ENV
from mtrain.conformance.partition import Partition
from mtrain.spec import cache
from mtrain.spec.scope import Space

FILE = "doubles/order.yaml"
"""A file of the corpus small enough to explore in a test."""


def _found(report: scopes.ScopeReport) -> Any:
    """What a scope check reports, but how it came by it (runs and fixtures explored are
    counted either way)."""
    return (report.fixtures, report.entries, report.runs, report.errors,
            [(p.fixture.id, p.entry, p.scope) for p in report.proposals],
            report.beyond_written, report.beyond_possible)


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[Fixture], Any, Path]:
    """The file's fixtures, their check made afresh with no cache, and a folder of shipped
    files holding the checks as `mtrain situations --shipped` makes them for a corpus of
    that file alone."""
    tmp = tmp_path_factory.mktemp("shipped-scopes")
    shutil.copy(FIXTURE_ROOT / FILE, tmp)
    fixtures, errors = load_corpus(tmp)
    assert not errors and len(fixtures) > 3
    expected = _found(check_scopes(fixtures, Space(), kept=False))
    with pytest.MonkeyPatch.context() as m:
        m.setattr(fixture, "load_corpus", lambda: (fixtures, []))
        (pieces_name, pieces), (name, value) = shipping.explorations()
    assert name == ScopeCache.entry_name(Space())
    assert sorted(value) == sorted(fixture_digest(fx) for fx in fixtures) == sorted(pieces)
    SCOPES.write(tmp / "shipped", name, value)
    PIECES.write(tmp / "shipped", pieces_name, pieces)
    return fixtures, expected, tmp / "shipped"


@pytest.fixture
def first_lint(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
               made: tuple[list[Fixture], Any, Path]
               ) -> tuple[list[Fixture], Any, Path, list[str]]:
    """A copy of the shipped files, read (MTRAIN_SHIPPED_SCOPES on), an empty cache, and
    exploring counted: the fixtures, the report expected, the folder, the ids explored."""
    fixtures, expected, folder = made
    where = tmp_path / "shipped"
    shutil.copytree(folder, where)
    monkeypatch.setenv(SCOPES_ENV, "on")
    monkeypatch.setenv(shipped.SHIPPED_ENV, str(where))
    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path / "cache"))
    explored: list[str] = []

    def counted(fx: Fixture, *args: Any, **kwargs: Any) -> Any:
        explored.append(fx.id)
        return scope_fixture(fx, *args, **kwargs)

    monkeypatch.setattr(scopes, "scope_fixture", counted)
    return fixtures, expected, where, explored


def test_a_first_lint_reads_the_shipped_checks_and_keeps_them(
        first_lint: tuple[list[Fixture], Any, Path, list[str]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    fixtures, expected, _, explored = first_lint
    report = check_scopes(fixtures, Space())
    assert _found(report) == expected
    assert explored == [] and report.explored == 0  # every check read from the package
    monkeypatch.setenv(SCOPES_ENV, "off")  # the next lint: from its cache alone
    assert _found(check_scopes(fixtures, Space())) == expected
    assert explored == []


def test_a_fixture_changed_or_not_shipped_is_explored(
        first_lint: tuple[list[Fixture], Any, Path, list[str]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A fixture the package does not hold (the user's own, or one changed since) is
    explored; the shipped ones are read, and all are kept."""
    fixtures, expected, where, explored = first_lint
    found = SCOPES.read_files(where)
    assert found is not None
    name, entry = found
    del entry[fixture_digest(fixtures[0])]
    SCOPES.write(where, name, entry)
    assert _found(check_scopes(fixtures, Space())) == expected
    assert explored == [fixtures[0].id]
    monkeypatch.setenv(SCOPES_ENV, "off")
    assert _found(check_scopes(fixtures, Space())) == expected
    assert explored == [fixtures[0].id]


def _rename(where: Path) -> None:
    index = json.loads((where / SCOPES.index).read_text())
    index["name"] = "0" * 64 + ".json"  # made by other code or data
    (where / SCOPES.index).write_text(json.dumps(index))


def _spoil_a_check(where: Path) -> None:
    """A check that says otherwise, its files still agreeing with their index: read as
    written (so the name is all that keeps a stale one out: the next test)."""
    found = SCOPES.read_files(where)
    assert found is not None
    name, entry = found
    for data in entry.values():
        data["problems"] = [[None, "planted"]]
    SCOPES.write(where, name, entry)


@pytest.mark.parametrize("spoil", ["switched off", "another code or data", "a byte flipped",
                                   "missing"])
def test_stale_or_spoiled_files_are_never_read(
        first_lint: tuple[list[Fixture], Any, Path, list[str]],
        monkeypatch: pytest.MonkeyPatch, spoil: str) -> None:
    fixtures, expected, where, explored = first_lint
    _spoil_a_check(where)  # whatever is read would show
    if spoil == "switched off":
        monkeypatch.setenv(SCOPES_ENV, "off")
    elif spoil == "another code or data":
        _rename(where)
    elif spoil == "a byte flipped":
        path = where / SCOPES.payload
        b = path.read_bytes()
        path.write_bytes(b[:-20] + bytes([b[-20] ^ 1]) + b[-19:])
    else:
        (where / SCOPES.payload).unlink()
    assert SCOPES.entry(ScopeCache.entry_name(Space())) is None
    assert _found(check_scopes(fixtures, Space())) == expected
    assert explored == [fx.id for fx in fixtures]  # explored, as without shipped files


def test_a_shipped_check_is_read_as_written(
        first_lint: tuple[list[Fixture], Any, Path, list[str]]) -> None:
    """The counterpart of the test above: the planted check is read when its name is the
    code's, so the tests above show the reader refusing, not a check made again anyway."""
    fixtures, _, where, explored = first_lint
    _spoil_a_check(where)
    report = check_scopes(fixtures, Space())
    assert explored == [] and report.errors == [fx.where + ": planted" for fx in fixtures]


def test_stale_names_how_the_files_differ(
        first_lint: tuple[list[Fixture], Any, Path, list[str]]) -> None:
    fixtures, _, where, _ = first_lint
    found = SCOPES.read_files(where)
    assert found is not None
    name, entry = found
    assert SCOPES.stale(where, name, list(entry)) == []  # as `--check` asks
    one = fixture_digest(fixtures[0])
    assert SCOPES.stale(where, name, [*entry, "a-new-fixture"]) == [
        "the lint's scope checks: 1 fixtures missing (e.g. a-new-fixture)"]
    assert SCOPES.stale(where, name, [k for k in entry if k != one]) == [
        f"the lint's scope checks: 1 fixtures no longer in the corpus (e.g. {one})"]
    assert SCOPES.stale(where, "other.json", entry) == [
        "the lint's scope checks made by other code or spec data (the entry's name differs)"]


def test_the_run_s_exploration_copies_current_shipped_files(
        first_lint: tuple[list[Fixture], Any, Path, list[str]],
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The test run's shared exploration of the corpus (conftest.explore_corpus_part) reads
    the package's checks and pieces when current, whatever the switches say, and keeps
    them in the run's cache, where the corpus lint and identify read them; stale ones, or
    with MTRAIN_TESTS_EXPLORE=1, it explores."""
    from conftest import explore_corpus_part

    fixtures, expected, where, explored = first_lint
    monkeypatch.setenv(SCOPES_ENV, "off")
    lock = tmp_path / "save.lock"
    assert explore_corpus_part(fixtures, 0, 1, lock) == 0 and explored == []
    space = Space()
    shipped_pieces = PIECES.read_files(where)
    assert shipped_pieces is not None
    assert cache.read(cells.KIND, cells._entry_name(space)) == shipped_pieces[1]
    assert _found(check_scopes(fixtures, space)) == expected and explored == []
    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path / "cache-2"))  # empty again
    monkeypatch.setenv("MTRAIN_TESTS_EXPLORE", "1")
    assert explore_corpus_part(fixtures, 0, 1, lock) == len(fixtures)
    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path / "cache-3"))
    monkeypatch.delenv("MTRAIN_TESTS_EXPLORE")
    _rename(where)  # made by other code or data
    assert explore_corpus_part(fixtures, 0, 1, lock) == len(fixtures)


SAMPLE = 40
"""Every SAMPLE-th fixture of the corpus is explored afresh against the package's files
(about 1/40 of the corpus's exploration, a few CPU s)."""


@pytest.mark.slow
def test_the_package_s_files_are_what_a_fresh_exploration_finds() -> None:
    """The run reads the package's checks and pieces for the corpus instead of exploring
    it (conftest.shipped_explorations): here a sample is explored afresh, with no cache,
    and must give what they hold, so the exploration stays tested. Files made by other
    code or data are never read (the name), so then there is nothing to compare: the run
    explored the whole corpus itself, and CI's `mtrain situations --shipped --check`
    fails until they are made again."""
    where = shipped.folder()
    space = Space()
    assert where is not None
    found = SCOPES.read_files(where), PIECES.read_files(where)
    names = ScopeCache.entry_name(space), cells._entry_name(space)
    if any(f is None or f[0] != n for f, n in zip(found, names, strict=True)):
        pytest.skip("the shipped explorations are stale (other code or data): the run "
                    "explored the corpus itself; `mtrain situations --shipped` remakes them")
    ship_scopes, ship_pieces = (f[1] for f in found if f is not None)
    fixtures, errors = load_corpus()
    assert not errors
    sample = fixtures[::SAMPLE]
    assert len(sample) >= 10
    pieces: dict[str, Any] = {}

    def keep(fx: Fixture, part: Partition) -> None:
        pieces[fx.id] = json.loads(json.dumps(cells._to_json(cells.pieces_of(part, space))))

    for fx in sample:
        key = fixture_digest(fx)
        check = json.loads(json.dumps(kept_json(fx, scope_fixture(fx, space, keep))))
        assert check == ship_scopes[key], fx.id
        assert pieces[fx.id] == ship_pieces[key], fx.id
