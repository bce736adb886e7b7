"""conformance/startcache.py: the fixture files' starts kept in mtrain's cache between runs
give the same starts as building them, are built again when stale or unreadable, and are
written back only when the run built one the cache did not give."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from mtrain.conformance import startcache
from mtrain.conformance.fixture import Fixture, load_file
from mtrain.spec import cache
from mtrain.spec.catalog import catalog
from mtrain.spec.notation import table_state

FILE = Path(__file__).parent.parent / "conformance" / "fixtures" / "chain-doubles" / "chain.yaml"


def fresh() -> list[Fixture]:
    """The file's table fixtures with no start built yet (load_file may give back the
    objects of an earlier read, starts and all)."""
    return [dataclasses.replace(fx) for fx in load_file(FILE)[:4] if fx.table is not None]


@pytest.fixture
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path))
    return tmp_path


def built(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the tables built (Fixture.start's call to table_state) from now on."""
    calls = [0]

    def counted(table: object, rs: object) -> object:
        calls[0] += 1
        return table_state(table, rs)  # type: ignore[arg-type]
    monkeypatch.setattr("mtrain.conformance.fixture.table_state", counted)
    return calls


def test_starts_given_back_are_the_starts_built(own_cache: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    rulesets = [catalog().ruleset("pagat"), catalog().ruleset("puremco")]
    first = fresh()
    assert startcache.restore(first) is not None
    want = [[fx.start(rs) for rs in rulesets] for fx in first]
    startcache.keep(startcache.restore(first))  # (the first run: written after it)
    assert list((own_cache / startcache.KIND).iterdir())
    second = fresh()
    kept = startcache.restore(second)
    calls = built(monkeypatch)
    assert [[fx.start(rs) for rs in rulesets] for fx in second] == want
    assert calls[0] == 0  # every start came from the cache
    assert kept is not None and kept.given


def test_a_start_not_given_is_built_and_written_back(own_cache: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    pagat = catalog().ruleset("pagat")
    first = fresh()
    kept = startcache.restore(first)
    for fx in first[:2]:  # a run that starts two of the tables (say, with -k)
        fx.start(pagat)
    startcache.keep(kept)
    second = fresh()
    kept = startcache.restore(second)
    # (two fixtures of one table share its starts: it is built once for both)
    assert kept is not None and set(kept.given) == {startcache.table_key(fx) for fx in first[:2]}
    missing = [fx for fx in second if startcache.table_key(fx) not in kept.given]
    assert missing
    calls = built(monkeypatch)
    want = [table_state(fx.table, pagat) for fx in second]  # type: ignore[arg-type]
    calls[0] = 0
    assert [fx.start(pagat) for fx in second] == want
    assert calls[0] == len(missing)  # the tables the cache did not hold: built
    startcache.keep(kept)
    found = cache.read(startcache.KIND, kept.name)
    assert set(found) == {startcache.table_key(fx) for fx in second}  # every one started
    assert all(pagat["tile_set"] in starts for starts in found.values())
    third = fresh()
    startcache.restore(third)
    calls[0] = 0
    assert [fx.start(pagat) for fx in third] == want and calls[0] == 0


def test_nothing_written_when_the_cache_gave_every_start(own_cache: Path) -> None:
    pagat = catalog().ruleset("pagat")
    first = fresh()
    kept = startcache.restore(first)
    for fx in first:
        fx.start(pagat)
    startcache.keep(kept)
    assert kept is not None
    entry = own_cache / startcache.KIND / kept.name
    entry.write_bytes(cache.packed({"written": "by the first run"}))  # a marker
    second = fresh()
    kept = startcache.restore(second)  # (the marker holds no start: nothing given)
    for fx in second:
        fx.start(pagat)
    startcache.keep(kept)  # built again, so written again
    assert "written" not in cache.read(startcache.KIND, entry.name)
    third = fresh()
    kept = startcache.restore(third)
    for fx in third:
        fx.start(pagat)
    text = entry.read_bytes()
    entry.write_bytes(text)
    before = entry.stat().st_mtime_ns
    startcache.keep(kept)  # every start was given: the entry is left as it is
    assert entry.stat().st_mtime_ns == before


def test_a_stale_or_unreadable_entry_is_built_again(own_cache: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    pagat = catalog().ruleset("pagat")
    first = fresh()
    kept = startcache.restore(first)
    want = [fx.start(pagat) for fx in first]
    startcache.keep(kept)
    # other code: another entry's name, nothing given
    monkeypatch.setattr(startcache, "code_digest", lambda: "other code")
    second = fresh()
    kept = startcache.restore(second)
    assert kept is not None and not kept.given
    calls = built(monkeypatch)
    assert [fx.start(pagat) for fx in second] == want and calls[0] == len(second)
    # an entry whose starts are no states: not given
    monkeypatch.undo()
    monkeypatch.setenv(cache.CACHE_ENV, str(own_cache))
    again = startcache.restore(fresh())
    assert again is not None
    name = again.name
    cache.write(startcache.KIND, name,
                {startcache.table_key(fx): {pagat["tile_set"]: "a state"} for fx in first})
    third = fresh()
    kept = startcache.restore(third)
    assert kept is not None and not kept.given
    calls = built(monkeypatch)
    assert [fx.start(pagat) for fx in third] == want and calls[0] == len(third)


def test_no_cache_keeps_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cache.CACHE_ENV, "off")
    assert startcache.restore(fresh()) is None
    startcache.keep(None)
    assert not list(tmp_path.iterdir())
