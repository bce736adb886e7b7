"""What mtrain keeps on disk (spec/cache.py): the scope check of each fixture and the
documents known valid. A cache may only save time: a changed fixture is checked again,
alone; a change to the code or the spec data checks every fixture again; an unreadable
cache is ignored and written anew; and what is found is what is found without it."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from mtrain.conformance.fixture import FIXTURE_ROOT, load_corpus
from mtrain.conformance.lint.scopes import ScopeCache, check_scopes
from mtrain.spec import cache, yamlload, yamlschema
from mtrain.spec.catalog import Catalog
from mtrain.spec.data_folder import DATA_ENV, shipped_data
from mtrain.spec.scope import Space

FILE = "doubles/order.yaml"
"""A file of the corpus small enough to check in a test, several times."""


@pytest.fixture
def corpus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder with a copy of one file of the corpus, and an empty cache of its own."""
    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path / "cache"))
    copy = tmp_path / "fixtures"
    copy.mkdir()
    shutil.copy(FIXTURE_ROOT / FILE, copy)
    return copy


def checked(folder: Path, space: Space | None = None, kept: bool = True) -> dict[str, Any]:
    fixtures, errors = load_corpus(folder)
    assert not errors
    report = check_scopes(fixtures, space, kept=kept)
    return {"explored": report.explored, "fixtures": report.fixtures, "runs": report.runs,
            "errors": report.errors, "beyond": (report.beyond_written, report.beyond_possible),
            "proposals": [(p.fixture.id, p.entry, p.scope) for p in report.proposals]}


def same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return {k: v for k, v in a.items() if k != "explored"} == {
        k: v for k, v in b.items() if k != "explored"}


def test_a_changed_fixture_alone_is_checked_again(corpus: Path) -> None:
    first = checked(corpus)
    assert first["explored"] == first["fixtures"] > 3
    assert first["runs"] > first["fixtures"]
    again = checked(corpus)
    assert again["explored"] == 0 and same(again, first)
    path = sorted(corpus.glob("*.yaml"))[0]
    text = path.read_text(encoding="utf-8")
    description = text.index('description: "') + len('description: "')
    path.write_text(text[:description] + "Changed: " + text[description:], encoding="utf-8")
    changed = checked(corpus)
    assert changed["explored"] == 1
    assert same(changed, checked(corpus, kept=False))


def test_a_broken_scope_found_fresh_is_found_from_the_cache(corpus: Path) -> None:
    """A fixture whose scope is too wide: the same error, with its file and line, whether
    the check ran now or was kept."""
    path = widen_first_scope(corpus)
    first = checked(corpus)
    assert first["errors"], "a scope of every rule set should not hold"
    kept = checked(corpus)
    assert kept["explored"] == 0 and kept["errors"] == first["errors"]
    assert all(f"{path}:" in e for e in kept["errors"])


def test_changed_spec_data_checks_every_fixture_again(corpus: Path, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    first = checked(corpus)
    data = tmp_path / "data"
    shutil.copytree(Path(str(shipped_data())), data)
    monkeypatch.setenv(DATA_ENV, str(data))
    clauses = data / "clauses.yaml"
    clauses.write_text(clauses.read_text(encoding="utf-8") + "\n# a comment\n",
                       encoding="utf-8")
    other = checked(corpus, Space(Catalog(data)))
    assert other["explored"] == other["fixtures"] and same(other, first)


def test_the_digest_covers_the_engine_source(tmp_path: Path) -> None:
    """A change to any source file of a package changes its digest."""
    engine = Path(cache.__file__).resolve().parent.parent / "reference"
    copy = tmp_path / "reference"
    shutil.copytree(engine, copy, ignore=shutil.ignore_patterns("__pycache__"))
    before = cache.files_digest([copy], (".py",))
    assert before == cache.files_digest([engine], (".py",))
    (copy / "engine.py").write_text((copy / "engine.py").read_text() + "\n# changed\n")
    assert cache.files_digest([copy], (".py",)) != before


def test_an_unreadable_cache_is_ignored_and_written_anew(corpus: Path) -> None:
    first = checked(corpus)
    (kept,) = (Path(str(cache.folder())) / ScopeCache.KIND).iterdir()
    for broken in (b"", b"{not json", cache.packed({
            k: {"runs": "many"} for k in cache.unpacked(kept.read_bytes())})):
        kept.write_bytes(broken)
        again = checked(corpus)
        assert again["explored"] == again["fixtures"] and same(again, first)
    assert checked(corpus)["explored"] == 0  # and written anew


def test_checks_another_process_kept_meanwhile_are_kept_too(corpus: Path) -> None:
    """Two lints side by side, each opening the kept checks before the other saves: each
    fixture's check stays, not only the last saver's (the first's were dropped, and
    checked again by the next lint)."""
    fixtures, errors = load_corpus(corpus)
    assert not errors
    checked(corpus)
    space = Space()
    found = ScopeCache(space)
    first, second = (found.get(fx) for fx in fixtures[:2])
    assert first is not None and second is not None
    for kind in (Path(str(cache.folder())) / ScopeCache.KIND).iterdir():
        kind.unlink()  # none kept: each of the two lints below checked one fixture
    one, other = ScopeCache(space), ScopeCache(space)
    one.put(fixtures[0], first)
    other.put(fixtures[1], second)
    one.save()
    other.save()
    kept = ScopeCache(space)
    assert kept.get(fixtures[0]) == found.get(fixtures[0])
    assert kept.get(fixtures[1]) == found.get(fixtures[1])


def test_no_cache_on_disk_when_it_is_off(corpus: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cache.CACHE_ENV, "off")
    assert cache.folder() is None
    first = checked(corpus)
    assert checked(corpus)["explored"] == first["explored"] == first["fixtures"]


def test_a_valid_document_is_known_by_its_data(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Once valid, the same data under the same schema is not validated again, in this
    process or the next; anything else is."""
    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path / "cache"))
    monkeypatch.setattr(yamlschema, "_VALID", None)
    schema = {"type": "object", "properties": {"n": {"type": "integer"}}}
    calls: list[int] = []
    real = yamlschema._validator

    def counting(text: str) -> object:
        calls.append(1)
        return real(text)
    monkeypatch.setattr(yamlschema, "_validator", counting)
    good = yamlload.load("good.yaml", "n: 1\n")
    assert yamlschema.validate(good, schema) == [] and len(calls) == 1
    assert yamlschema.validate(yamlload.load("moved.yaml", "# elsewhere\nn: 1\n"), schema) == []
    assert len(calls) == 1
    yamlschema.save_valid()  # as at the process's end
    monkeypatch.setattr(yamlschema, "_VALID", None)  # a new process reads the cache
    assert yamlschema.validate(good, schema) == [] and len(calls) == 1
    bad = yamlload.load("bad.yaml", "n: one\n")
    for _ in range(2):  # a fault is found, at its line, every time
        (err,) = yamlschema.validate(bad, schema)
        assert err.line == 1
    assert len(calls) == 3
    assert yamlschema.validate(good, {**schema, "required": ["m"]}) != []


def test_a_kept_lint_reports_what_a_cold_one_does(corpus: Path, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """`mtrain lint`'s whole report, with the cache cold, warm, or off, is the same; after a
    fixture changes, that one is checked again alone, and after a source file of the
    engine changes, every one (the engine's package stands here in a copy of it)."""
    from mtrain.conformance.lint import lint

    engine = Path(cache.__file__).resolve().parent.parent / "reference"
    copy = tmp_path / "reference"
    shutil.copytree(engine, copy, ignore=shutil.ignore_patterns("__pycache__"))
    real = cache.package_digest

    def package_digest(name: str, suffixes: tuple[str, ...] = (".py",)) -> str:
        if name == "mtrain.reference":
            return cache.files_digest([copy], suffixes)
        return real(name, suffixes)
    monkeypatch.setattr(cache, "package_digest", package_digest)

    def report() -> tuple[int, dict[str, Any]]:
        found = lint(corpus, coverage=True).to_json()
        scopes = found.pop("scopes")
        explored = scopes.pop("fixtures_explored")
        del scopes["seconds"]
        return explored, {**found, "scopes": scopes}

    first_explored, first = report()
    assert first_explored == first["fixtures"] > 3
    assert first["scopes"]["reference_runs"] > first["fixtures"]
    assert report() == (0, first)
    monkeypatch.setenv(cache.CACHE_ENV, "off")
    assert report() == (first["fixtures"], first)
    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path / "cache"))

    widen_first_scope(corpus)
    changed_explored, changed = report()
    assert changed_explored == 1 and changed["errors"], "a scope of every rule set holds?"
    monkeypatch.setenv(cache.CACHE_ENV, "off")
    assert report() == (first["fixtures"], changed)
    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path / "cache"))

    engine_py = copy / "engine.py"
    engine_py.write_text(engine_py.read_text(encoding="utf-8") + "\n# changed\n",
                         encoding="utf-8")
    assert report() == (first["fixtures"], changed)
    assert report() == (0, changed)


def widen_first_scope(corpus: Path) -> Path:
    """The first scope of the corpus's first file written as `when: {}` (every rule set),
    which cannot hold; the file changed."""
    path = sorted(corpus.glob("*.yaml"))[0]
    text = path.read_text(encoding="utf-8")
    start = text.index("when:")
    indent = start - (text.rindex("\n", 0, start) + 1)
    end = text.index("\n", start)
    while text[end + 1:].startswith(" " * (indent + 2)):  # a scope written as a block
        end = text.index("\n", end + 1)
    path.write_text(text[:start] + "when: {}" + text[end:], encoding="utf-8")
    return path


def test_a_lint_that_explored_a_few_leaves_identify_to_explore_them(
        corpus: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A lint that explores few of its fixtures leaves identify's entry as it was (one
    file for a corpus: rewriting it for one fixture cost more than exploring it), and
    identify, reading that entry, explores the changed fixture itself: its pieces are
    those of the fixture as it now is."""
    from mtrain.conformance import lint as lint_package
    from mtrain.conformance.identify import cells
    from mtrain.conformance.lint import lint
    from mtrain.conformance.partition import explore

    lint(corpus)  # cold: every fixture explored, and handed to identify
    (entry,) = (Path(str(cache.folder())) / cells.KIND).iterdir()
    before = entry.read_bytes()
    widen_first_scope(corpus)
    monkeypatch.setattr(lint_package, "KEEPER_SHARE", 1)  # handed over when all were explored
    assert lint(corpus).scopes.explored == 1  # type: ignore[union-attr]
    assert entry.read_bytes() == before
    fixtures, _ = load_corpus(corpus)
    monkeypatch.setattr(cells, "_kept", {})  # as a new process reads it
    space = Space()
    found = cells.corpus_pieces(fixtures, space)
    for fx in fixtures:
        assert found[fx.id] == cells.pieces_of(explore(fx, space), space), fx.id
