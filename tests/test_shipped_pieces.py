"""identify's pieces shipped with the package (conformance/identify/shipped_pieces.py): a
first identify with an empty cache reads them instead of exploring, keeps them in its
cache, and never reads files made by other code or data, cut short or spoiled.

Each test writes its own shipped files for one small file of the corpus (explored here,
not read from the package: whether the package's own files are current is `mtrain
situations --shipped --check`, which CI runs), and sets MTRAIN_SHIPPED_PIECES on again
(the conftest keeps it off for every other test)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mtrain.conformance import fixture, shipped
from mtrain.conformance import situation_shipping as shipping
from mtrain.conformance.fixture import FIXTURE_ROOT, Fixture, load_corpus
from mtrain.conformance.identify import cells, shipped_pieces
from mtrain.conformance.lint.scopes import fixture_digest
from mtrain.conformance.partition import explore
from mtrain.spec import cache
from mtrain.spec.scope import Space

FILE = "doubles/order.yaml"
"""A file of the corpus small enough to explore in a test."""


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory
         ) -> tuple[list[Fixture], dict[str, list[cells.Piece]], Path]:
    """The file's fixtures, their pieces explored afresh, and a folder of shipped files
    holding them as `mtrain situations --shipped` makes them, for a corpus of that file
    alone (made once for the module)."""
    tmp = tmp_path_factory.mktemp("shipped-pieces")
    shutil.copy(FIXTURE_ROOT / FILE, tmp)
    fixtures, errors = load_corpus(tmp)
    assert not errors and len(fixtures) > 3
    space = Space()
    expected = {fx.id: cells.pieces_of(explore(fx, space), space) for fx in fixtures}
    with pytest.MonkeyPatch.context() as m:
        m.setattr(fixture, "load_corpus", lambda: (fixtures, []))
        name, value = shipping.identify_pieces()
    assert name == cells._entry_name(space)
    assert sorted(value) == sorted(fixture_digest(fx) for fx in fixtures)
    shipped_pieces.write(tmp / "shipped", name, value)
    return fixtures, expected, tmp / "shipped"


@pytest.fixture
def first_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
              made: tuple[list[Fixture], dict[str, list[cells.Piece]], Path]
              ) -> tuple[list[Fixture], dict[str, list[cells.Piece]], Path, list[str]]:
    """A copy of the shipped files, read (MTRAIN_SHIPPED_PIECES on), an empty cache, a
    new process (nothing read before), and exploring counted: the fixtures, the pieces
    expected, the folder, and the ids explored."""
    fixtures, expected, folder = made
    where = tmp_path / "shipped"
    shutil.copytree(folder, where)
    monkeypatch.setenv(shipped_pieces.PIECES_ENV, "on")
    monkeypatch.setenv(shipped.SHIPPED_ENV, str(where))
    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path / "cache"))
    monkeypatch.setattr(cells, "_kept", {})
    explored: list[str] = []

    def counted(fx: Fixture, *args: Any, **kwargs: Any) -> Any:
        explored.append(fx.id)
        return explore(fx, *args, **kwargs)

    monkeypatch.setattr(cells, "explore", counted)
    return fixtures, expected, where, explored


def test_a_first_run_reads_the_shipped_pieces_and_keeps_them(
        first_run: tuple[list[Fixture], dict[str, list[cells.Piece]], Path, list[str]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    fixtures, expected, _, explored = first_run
    asked: list[str] = []
    real = shipped_pieces.entry

    def spy(name: str) -> Any:
        asked.append(name)
        return real(name)

    monkeypatch.setattr(shipped_pieces, "entry", spy)
    assert cells.corpus_pieces(fixtures, Space()) == expected
    assert explored == []  # every fixture's pieces read from the shipped files
    assert asked == [cells._entry_name(Space())]
    monkeypatch.setattr(cells, "_kept", {})  # the next process: from its cache alone
    assert cells.corpus_pieces(fixtures, Space()) == expected
    assert explored == [] and len(asked) == 1


def test_a_fixture_not_shipped_is_explored_and_kept_with_the_shipped(
        first_run: tuple[list[Fixture], dict[str, list[cells.Piece]], Path, list[str]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A user's own fixture beside the shipped corpus: explored; the shipped ones read."""
    fixtures, expected, where, explored = first_run
    value = shipped_pieces.read_files(where)
    assert value is not None
    name, entry = value
    del entry[fixture_digest(fixtures[0])]
    shipped_pieces.write(where, name, entry)
    assert cells.corpus_pieces(fixtures, Space()) == expected
    assert explored == [fixtures[0].id]
    monkeypatch.setattr(cells, "_kept", {})
    monkeypatch.setenv(shipped_pieces.PIECES_ENV, "off")  # the cache alone holds them all
    assert cells.corpus_pieces(fixtures, Space()) == expected
    assert explored == [fixtures[0].id]


def _edit_index(change: Callable[[dict[str, Any]], None]) -> Callable[[Path], None]:
    def edit(where: Path) -> None:
        index = json.loads((where / shipped_pieces.INDEX).read_text())
        change(index)
        (where / shipped_pieces.INDEX).write_text(json.dumps(index))
    return edit


def _edit_payload(change: Callable[[bytes], bytes]) -> Callable[[Path], None]:
    def edit(where: Path) -> None:
        path = where / shipped_pieces.PAYLOAD
        path.write_bytes(change(path.read_bytes()))
    return edit


SPOILED: dict[str, Callable[[Path], object]] = {
    "switched off": lambda where: None,
    "another code or data": _edit_index(lambda i: i.update(name="0" * 64 + ".json")),
    "another format": _edit_index(lambda i: i.update(format=shipped_pieces.FORMAT + 1)),
    "missing": lambda where: (where / shipped_pieces.PAYLOAD).unlink(),
    "cut short": _edit_payload(lambda b: b[:len(b) // 2]),
    "a byte flipped": _edit_payload(lambda b: b[:-20] + bytes([b[-20] ^ 1]) + b[-19:]),
    "index not JSON": lambda where: (where / shipped_pieces.INDEX).write_text("{not json"),
}


@pytest.mark.parametrize("spoil", SPOILED.values(), ids=SPOILED.keys())
def test_stale_or_spoiled_files_are_never_read(
        first_run: tuple[list[Fixture], dict[str, list[cells.Piece]], Path, list[str]],
        monkeypatch: pytest.MonkeyPatch, spoil: Callable[[Path], object],
        request: pytest.FixtureRequest) -> None:
    fixtures, expected, where, explored = first_run
    if request.node.callspec.id == "switched off":
        monkeypatch.setenv(shipped_pieces.PIECES_ENV, "off")
    spoil(where)
    assert shipped_pieces.entry(cells._entry_name(Space())) is None
    assert cells.corpus_pieces(fixtures, Space()) == expected
    assert explored == [fx.id for fx in fixtures]  # explored, as without shipped files


def test_stale_names_how_the_files_differ(
        first_run: tuple[list[Fixture], dict[str, list[cells.Piece]], Path, list[str]]
        ) -> None:
    fixtures, _, where, _ = first_run
    found = shipped_pieces.read_files(where)
    assert found is not None
    name, entry = found
    assert shipped_pieces.stale(where, name, entry, entry) == []
    assert shipped_pieces.stale(where, name, list(entry)) == []  # as `--check` asks
    one = fixture_digest(fixtures[0])
    other = {**entry, one: [[], [], [], []]}
    assert shipped_pieces.stale(where, name, other, other) == [
        f"identify's pieces: 1 fixtures with other pieces (e.g. {one})"]
    assert shipped_pieces.stale(where, name, [*entry, "a-new-fixture"]) == [
        "identify's pieces: 1 fixtures missing (e.g. a-new-fixture)"]
    assert shipped_pieces.stale(where, name, [k for k in entry if k != one]) == [
        f"identify's pieces: 1 fixtures no longer in the corpus (e.g. {one})"]
    assert shipped_pieces.stale(where, "other.json", entry) == [
        "identify's pieces made by other code or spec data (the entry's name differs)"]
    (where / shipped_pieces.PAYLOAD).unlink()
    assert len(shipped_pieces.stale(where, name, entry)) == 1


@pytest.mark.parametrize("said", ["false", "maybe"])
def test_the_switch_is_read_or_warned_of(capsys: pytest.CaptureFixture[str],
                                         monkeypatch: pytest.MonkeyPatch, said: str) -> None:
    from mtrain.cli import main

    monkeypatch.setenv(shipped_pieces.PIECES_ENV, said)
    assert main(["variants"]) == 0
    err = capsys.readouterr().err
    if said == "false":
        assert shipped_pieces._folder() is None and err == ""
    else:
        assert shipped_pieces._folder() is not None and err == (
            "mtrain variants: warning: MTRAIN_SHIPPED_PIECES=maybe is neither on (1, on, yes, "
            "true) nor off (0, off, no, false): the shipped pieces stay on\n"), err
