"""identify's cache entry of the scope partition (conformance/identify/cells.py): what it
reads back is what exploring gives, and an entry cut short or spoiled is read as absent,
explored again and written again whole, never a traceback."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mtrain.conformance.fixture import FIXTURE_ROOT, Fixture, load_corpus
from mtrain.conformance.identify import cells
from mtrain.conformance.partition import explore
from mtrain.spec import cache
from mtrain.spec.scope import Space

FILE = "doubles/order.yaml"
"""A file of the corpus small enough to explore in a test, several times."""


@pytest.fixture
def corpus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[Fixture]:
    """The fixtures of one file of the corpus, an empty cache of their own, and nothing
    read before in this process."""
    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path / "cache"))
    monkeypatch.setattr(cells, "_kept", {})
    copy = tmp_path / "fixtures"
    copy.mkdir()
    shutil.copy(FIXTURE_ROOT / FILE, copy)
    fixtures, errors = load_corpus(copy)
    assert not errors and len(fixtures) > 3
    return fixtures


def entry() -> Path:
    (found,) = (Path(str(cache.folder())) / cells.KIND).iterdir()
    return found


def fresh(fixtures: list[Fixture], space: Space) -> dict[str, list[cells.Piece]]:
    return {fx.id: cells.pieces_of(explore(fx, space), space) for fx in fixtures}


def read_back(fixtures: list[Fixture], space: Space,
              monkeypatch: pytest.MonkeyPatch) -> dict[str, list[cells.Piece]]:
    """The pieces as a new process reads them, from the entry alone (nothing explored)."""
    monkeypatch.setattr(cells, "_kept", {})

    def refused(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("explored, though the entry holds every fixture")

    with monkeypatch.context() as m:
        m.setattr(cells, "explore", refused)
        return cells.corpus_pieces(fixtures, space)


def test_the_pieces_read_back_are_those_explored_in_their_order(
        corpus: list[Fixture], monkeypatch: pytest.MonkeyPatch) -> None:
    space = Space()
    expected = fresh(corpus, space)
    assert cells.corpus_pieces(corpus, space) == expected  # cold: explored and kept
    found = read_back(corpus, space, monkeypatch)
    assert found == expected
    # the regions' options in the order explored (what identify meets them in)
    assert ([[list(p.region) for p in found[k]] for k in found]
            == [[list(p.region) for p in expected[k]] for k in expected])


def test_pieces_another_process_kept_meanwhile_are_kept_too(
        corpus: list[Fixture], monkeypatch: pytest.MonkeyPatch) -> None:
    """Two processes adding to the entry side by side (the workers of a test run, a lint
    beside an identify): what the other kept while this one explored stays. Written from
    the value read before exploring, it was dropped, and explored again by the next run
    that read it (under one xdist order, 190 CPU s more in CI)."""
    space = Space()
    mine, theirs = corpus[:2], corpus[2:4]
    real = explore  # (cells reads it as its own name: the one patched below)
    meanwhile: list[str] = []

    def explore_while_another_saves(fx: Fixture, *args: Any, **kwargs: Any) -> Any:
        if not meanwhile:  # the other process saves while this one explores its first
            other = cells.Keeper(space)
            for theirs_fx in theirs:
                other.add(theirs_fx, real(theirs_fx, space))
            other.save()
            meanwhile.append(fx.id)
        return real(fx, *args, **kwargs)

    monkeypatch.setattr(cells, "explore", explore_while_another_saves)
    assert cells.corpus_pieces(mine, space) == fresh(mine, space)
    assert meanwhile == [mine[0].id]
    assert read_back(mine + theirs, space, monkeypatch) == fresh(mine + theirs, space)


def spoiled_value(edit: Callable[[list[Any]], object]) -> Callable[[bytes], bytes]:
    """The entry with each fixture's pieces replaced by edit(pieces as written)."""
    def spoil(whole: bytes) -> bytes:
        value = cache.unpacked(whole)  # spoiled, then kept whole: cells' own checks see it
        return cache.packed({k: edit(v) for k, v in value.items()})
    return spoil


SPOILED: dict[str, Callable[[bytes], bytes]] = {
    "cut in half": lambda whole: whole[:len(whole) // 2],
    "cut at the last byte": lambda whole: whole[:-1],
    "not JSON": lambda whole: b"\x00\xff" * 64,
    "empty": lambda whole: b"",
    "another layout": lambda whole: whole.replace(b'"format":', b'"formats":', 1),
    "an index past the end": spoiled_value(lambda v: [*v[:3], [[0, 0, 10**6]]]),
    "a negative index": spoiled_value(lambda v: [*v[:3], [[-1, 0]]]),
    "an outcome too few": spoiled_value(lambda v: [v[0], [o[:-1] for o in v[1]], *v[2:]]),
    "a value no option has": spoiled_value(
        lambda v: [[[o, [*vs, "no-such-value"]] for o, vs in v[0]], *v[1:]]),
    "a string for the pieces": spoiled_value(lambda v: [*v[:3], "pieces"]),
    "a mapping for a fixture": spoiled_value(lambda v: {"pieces": v}),
    "a number for a fixture": spoiled_value(lambda v: 7),
}


@pytest.fixture(scope="module")
def explored_once(tmp_path_factory: pytest.TempPathFactory
                  ) -> tuple[dict[str, list[cells.Piece]], bytes]:
    """The file's pieces explored afresh, and the entry a cold corpus_pieces writes for
    them (its name and bytes depend on the code, the data and the fixtures' texts, not
    on where they lie): made once for the spoiled-entry cases, each of which then
    explores again from its own spoiled copy."""
    with pytest.MonkeyPatch.context() as m:
        tmp = tmp_path_factory.mktemp("explored-once")
        m.setenv(cache.CACHE_ENV, str(tmp / "cache"))
        m.setattr(cells, "_kept", {})
        shutil.copy(FIXTURE_ROOT / FILE, tmp)
        fixtures, errors = load_corpus(tmp)
        assert not errors
        space = Space()
        expected = fresh(fixtures, space)
        assert cells.corpus_pieces(fixtures, space) == expected
        return expected, entry().read_bytes()


@pytest.mark.parametrize("spoil", SPOILED.values(), ids=SPOILED.keys())
def test_a_spoiled_entry_is_explored_again_and_written_again_whole(
        corpus: list[Fixture], monkeypatch: pytest.MonkeyPatch,
        spoil: Callable[[bytes], bytes],
        explored_once: tuple[dict[str, list[cells.Piece]], bytes]) -> None:
    expected, whole = explored_once
    space = Space()
    path = Path(str(cache.folder())) / cells.KIND / cells._entry_name(space)
    path.parent.mkdir(parents=True)
    path.write_bytes(spoil(whole))
    explored: list[str] = []
    real = explore  # (the name cells calls)

    def counted(fx: Fixture, *args: Any, **kwargs: Any) -> Any:
        explored.append(fx.id)
        return real(fx, *args, **kwargs)

    monkeypatch.setattr(cells, "explore", counted)
    monkeypatch.setattr(cells, "_kept", {})  # as a new process reads it
    assert cells.corpus_pieces(corpus, space) == expected
    assert explored  # the spoiled entry served nothing: explored again
    assert entry() == path  # remade under its name, in place of the spoiled one
    assert read_back(corpus, space, monkeypatch) == expected


def test_entries_of_other_added_examples_are_each_read_once_per_process(
        corpus: list[Fixture], monkeypatch: pytest.MonkeyPatch) -> None:
    """A process identifying under a few sets of added examples (one entry each: their
    digests differ) keeps each entry read, up to KEPT of them, the least recent going."""
    space = Space()
    names = [f"{n}.json" for n in "abcd"]
    reads: list[str] = []
    real = cache.read

    def counted(kind: str, name: str) -> Any:
        reads.append(name)
        return real(kind, name)

    monkeypatch.setattr(cache, "read", counted)
    for name in [*names[:cells.KEPT], *names[:cells.KEPT]]:
        monkeypatch.setattr(cells, "_entry_name", lambda s, name=name: name)
        cells.corpus_pieces(corpus[:1], space)
    assert reads == names[:cells.KEPT]  # each read once: the second round from memory
    monkeypatch.setattr(cells, "_entry_name", lambda s: names[cells.KEPT])
    cells.corpus_pieces(corpus[:1], space)
    assert list(cells._kept) == names[1:cells.KEPT + 1]


def test_a_point_played_with_a_table_of_its_own_is_one_rule_set_whoever_asks(
        corpus: list[Fixture]) -> None:
    """Under a hand table of the engine's own, each point is played as one rule set
    object (cells._with_table), as Space.ruleset hands out one per point: the traced runs
    keep flags and answers by the rule set's identity. The pieces are those a rule set
    made afresh for every run gives."""
    space = Space()
    table = ((2, 10), (3, 10), (4, 8))  # DEAL-8 on double-12: at most 91 tiles dealt
    values = space.complete({"tile_set": frozenset(["double-12"])})
    assert values is not None
    rs = cells._with_table(space, table, dict(values))
    assert rs is not None and rs is cells._with_table(space, table, dict(values))
    assert dict(rs.choices) == {**values, "hand_sizes": "custom"} and rs.hand_table == table
    too_big = ((2, 50),)  # 100 tiles from a set of 91: no such rule set
    assert cells._with_table(space, too_big, dict(values)) is None
    allowed = {"tile_set": frozenset(["double-12"]), "hand_sizes": frozenset(["custom"])}
    start = {**space.full(), **allowed}
    kept = [cells.explore_in(fx, dict(start), allowed, space, table) for fx in corpus]

    def afresh(values: dict[str, str]) -> Any:  # a new rule set for every run
        cells._tabled[:] = [None, None, {}]
        return real(space, table, values)

    real = cells._with_table
    with pytest.MonkeyPatch.context() as m:
        m.setattr(cells, "_with_table", lambda s, t, v: afresh(v))
        made = [cells.explore_in(fx, dict(start), allowed, space, table) for fx in corpus]
    assert made == kept and any(len(p) > 1 for p in kept)
