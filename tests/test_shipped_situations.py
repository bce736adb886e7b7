"""The situations shipped with the package (conformance/shipped.py): read where the code
that made them is the code asking, made as before otherwise, and never read when stale,
cut short or spoiled; `mtrain situations --shipped [--check]` writes and checks them.
The shipped fixture files' validity spares jsonschema exactly those documents it found
valid: any other, however close, is validated and its faults reported.

Each test writes its own shipped files, for a few rule sets, into a temporary folder
(MTRAIN_SHIPPED_SITUATIONS) beside an empty cache: whether the package's own files are
current is `mtrain situations --shipped --check`, which CI runs (.ci/run).
"""

from __future__ import annotations

import json
import lzma
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mtrain.cli import main
from mtrain.conformance import shipped
from mtrain.conformance import situation_shipping as shipping
from mtrain.conformance import situations as S
from mtrain.conformance.identify import shipped_pieces
from mtrain.conformance.lint.shipped_scopes import SCOPES
from mtrain.spec import cache
from mtrain.spec.catalog import catalog
from mtrain.spec.ruleset import Ruleset

ROOT = Path(__file__).resolve().parents[1]
COUNT = 12


ASKED = ("pagat", "puremco-d9")


@pytest.fixture
def asks() -> list[tuple[Ruleset, int]]:
    return [(catalog().ruleset(n), COUNT) for n in ASKED]


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The files `shipping.write(where, asks, False)` writes (the situations made afresh
    and packed by xz at its strongest: 0.17 CPU s), written once, beside an empty cache
    of their own, for the tests that only start from them (copy_written);
    test_current_files_are_read_and_give_the_situations_made writes them itself and
    finds the same bytes."""
    folder = tmp_path_factory.mktemp("written")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(cache.CACHE_ENV, str(folder / "cache"))
        shipping.write(folder / "shipped", [(catalog().ruleset(n), COUNT) for n in ASKED],
                       False)
    return folder / "shipped"


def copy_written(written: Path, where: Path) -> None:
    """`shipping.write(where, asks, False)`, from the files `written` holds (it too ends
    by forgetting what was read before)."""
    where.mkdir(parents=True, exist_ok=True)
    for name in (shipped.PAYLOAD, shipped.INDEX):  # the index last, as shipped.write
        (where / name).write_bytes((written / name).read_bytes())
    shipped.forget()


@pytest.fixture
def where(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The shipped files' folder of the test, with an empty cache beside it."""
    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path / "cache"))
    monkeypatch.setenv(shipped.SHIPPED_ENV, str(tmp_path / "shipped"))
    shipped.forget()
    yield tmp_path / "shipped"
    shipped.forget()


def made(rs: Ruleset) -> list[Any]:
    return [S._to_data(fx) for fx in S._situations(rs, COUNT, None, S.SEED)]


class Making:
    """Counts the situations made (not read) while it is on."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls = 0
        real = S._situations

        def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls += 1
            return real(*args, **kwargs)
        monkeypatch.setattr(S, "_situations", counted)


def read(rs: Ruleset) -> list[Any]:
    return [S._to_data(fx) for fx in S.situations(rs, COUNT)]


def test_current_files_are_read_and_give_the_situations_made(
        where: Path, asks: list[tuple[Ruleset, int]], monkeypatch: pytest.MonkeyPatch,
        written: Path) -> None:
    count, index, payload = shipping.write(where, asks, False)
    assert count == 2 and index > 0 and payload > 0
    assert all((where / name).read_bytes() == (written / name).read_bytes()  # copy_written's
               for name in (shipped.INDEX, shipped.PAYLOAD))
    making = Making(monkeypatch)
    for rs, _ in asks:
        assert read(rs) == json.loads(json.dumps(made(rs)))
    assert making.calls == len(asks)  # made() above alone: situations() read them
    assert cache.read(S.CACHE_KIND, S._cache_key(asks[0][0], COUNT, S.SEED)) is None  # not copied
    picked = S.situations(asks[0][0], COUNT, lambda fid: fid.startswith("play-deal"))
    assert picked and all(fx.id.startswith("play-deal") for fx in picked)
    assert making.calls == len(asks)
    other = catalog().ruleset("puremco")  # not shipped: made as before
    S.situations(other, COUNT)
    assert making.calls == len(asks) + 1


def _spoil(where: Path, how: str) -> None:
    index = json.loads((where / shipped.INDEX).read_text())
    packed = (where / shipped.PAYLOAD).read_bytes()
    if how == "code":
        index["code"] = "0" * 64
    elif how == "format":
        index["format"] = shipped.FORMAT + 1
    elif how == "flipped":
        (where / shipped.PAYLOAD).write_bytes(packed[:100] + bytes([packed[100] ^ 1])
                                              + packed[101:])
    elif how == "cut":
        (where / shipped.PAYLOAD).write_bytes(packed[:len(packed) // 2])
    elif how == "missing":
        (where / shipped.PAYLOAD).unlink()
    elif how == "size":
        index["size"] += 1
    elif how == "place":
        for key in index["entries"]:
            index["entries"][key] = [1, 50]
    elif how == "garbage":
        (where / shipped.INDEX).write_text("{not json")
        return
    (where / shipped.INDEX).write_text(json.dumps(index))


@pytest.mark.parametrize("how", ["code", "format", "flipped", "cut", "missing", "size",
                                 "place", "garbage"])
def test_stale_or_spoiled_files_are_never_read(
        how: str, where: Path, asks: list[tuple[Ruleset, int]],
        monkeypatch: pytest.MonkeyPatch, written: Path) -> None:
    copy_written(written, where)
    _spoil(where, how)
    shipped.forget()
    making = Making(monkeypatch)
    rs = asks[0][0]
    assert read(rs) == json.loads(json.dumps(made(rs)))
    assert making.calls == 2  # made() and situations() both made them
    assert cache.read(S.CACHE_KIND, S._cache_key(rs, COUNT, S.SEED)) is not None  # kept


def test_the_payload_is_decompressed_once_and_a_spoiled_copy_never_read(
        where: Path, asks: list[tuple[Ruleset, int]], monkeypatch: pytest.MonkeyPatch,
        written: Path) -> None:
    """The decompressed payload is kept in the cache for the next run, which reads it
    in place of xz; a copy of another size or digest is decompressed again, and a spoiled
    compressed file is not read through a good copy."""
    copy_written(written, where)
    unpacked: list[int] = []
    real = lzma.decompress

    def counted(data: bytes, **kwargs: Any) -> bytes:
        unpacked.append(len(data))
        out: bytes = real(data, **kwargs)
        return out
    monkeypatch.setattr(lzma, "decompress", counted)
    rs = asks[0][0]
    want = json.loads(json.dumps(made(rs)))
    making = Making(monkeypatch)
    assert read(rs) == want and len(unpacked) == 1
    copies = list((where.parent / "cache" / shipped.COPY_KIND).iterdir())
    assert len(copies) == 1
    shipped.forget()
    assert read(rs) == want and len(unpacked) == 1  # the copy, not xz
    good = copies[0].read_bytes()
    for spoiled in (good[:-1], good[:10] + bytes([good[10] ^ 1]) + good[11:]):
        copies[0].write_bytes(spoiled)
        shipped.forget()
        assert read(rs) == want and len(unpacked) == 2  # decompressed, and kept again
        assert copies[0].read_bytes() == good
        unpacked.pop()
    _spoil(where, "flipped")
    shipped.forget()
    read(rs)
    assert making.calls == 1  # the copy was good; the shipped file is not: made again


def test_entries_not_as_written_are_made_again(
        where: Path, asks: list[tuple[Ruleset, int]], monkeypatch: pytest.MonkeyPatch) -> None:
    rs = asks[0][0]
    key = S._cache_key(rs, COUNT, S.SEED)
    for k, value in enumerate(({"not": "a list"}, [{"id": "play-x"}])):  # sound files,
        monkeypatch.setenv(cache.CACHE_ENV, str(where.parent / f"cache {k}"))  # bad entry
        shipped.write(where, S.code_digest(), {key: value})
        making = Making(monkeypatch)
        assert read(rs) == json.loads(json.dumps(made(rs)))
        assert making.calls == 2


def test_other_code_reads_the_index_alone(where: Path, asks: list[tuple[Ruleset, int]],
                                          monkeypatch: pytest.MonkeyPatch, written: Path) -> None:
    """A run whose code differs does not open the payload: the first run is not made
    slower by files it cannot use."""
    copy_written(written, where)
    _spoil(where, "code")
    shipped.forget()
    opened: list[Path] = []
    real = Path.read_bytes

    def reading(self: Path) -> bytes:
        opened.append(self)
        return real(self)
    monkeypatch.setattr(Path, "read_bytes", reading)
    S.situations(asks[0][0], COUNT)
    assert where / shipped.INDEX in opened and where / shipped.PAYLOAD not in opened


def test_off_reads_nothing(where: Path, asks: list[tuple[Ruleset, int]],
                           monkeypatch: pytest.MonkeyPatch, written: Path) -> None:
    copy_written(written, where)
    monkeypatch.setenv(shipped.SHIPPED_ENV, "off")
    making = Making(monkeypatch)
    S.situations(asks[0][0], COUNT)
    assert making.calls == 1


def test_the_check_finds_what_differs(where: Path, asks: list[tuple[Ruleset, int]],
                                      written: Path) -> None:
    assert shipping.stale(where, asks, False)[0].endswith(
        "missing, or does not agree with its index")
    copy_written(written, where)
    assert shipping.stale(where, asks, False) == []
    more = [*asks, (catalog().ruleset("puremco"), COUNT)]
    assert shipping.stale(where, more, False) == [
        f"1 entries missing (e.g. {S._cache_key(more[-1][0], COUNT, S.SEED)})"]
    assert shipping.stale(where, asks[:1], False)[0].startswith("1 entries no longer asked")
    kept = shipped.read_all(where)
    assert kept is not None
    entries = kept["entries"]
    key = S._cache_key(asks[0][0], COUNT, S.SEED)
    entries[key][0]["legal"] = entries[key][0]["legal"][:-1] or ["pass"]  # one legal set
    shipped.write(where, kept["code"], entries)
    assert shipping.stale(where, asks, False) == [f"1 entries different (e.g. {key})"]
    shipped.write(where, "0" * 64, entries)
    assert shipping.stale(where, asks, False)[0] == (
        "made by other code or spec data (the code digest differs)")


def test_the_command_writes_and_checks(where: Path, asks: list[tuple[Ruleset, int]],
                                       monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(shipping, "default_asks", lambda: asks)
    monkeypatch.setattr(shipping, "documents", lambda: ({}, []))  # tested below
    # identify's pieces and the lint's checks: small entries (made and read:
    # test_shipped_pieces.py, test_shipped_scopes.py)
    pieces: dict[str, Any] = {"a-fixture": [[], [], [], []]}
    checks: dict[str, Any] = {"a-fixture": {"runs": 1, "problems": [], "proposals": [],
                                            "beyond_written": False,
                                            "beyond_possible": False}}
    monkeypatch.setattr(shipping, "explorations",
                        lambda: (("entry.json", pieces), ("checks.json", checks)))
    # `--check` reads the names and the fixtures only (ShippedEntry.stale says why)
    monkeypatch.setattr(shipping, "explorations_named",
                        lambda: ("entry.json", "checks.json", list(pieces)))
    assert main(["situations", "--shipped", "--check"]) == 1
    out = capsys.readouterr().out
    assert out.startswith("stale: ") and "run `mtrain situations --shipped`" in out
    assert main(["situations", "--shipped"]) == 0
    out = capsys.readouterr().out
    assert f"wrote {where / shipped.INDEX}" in out
    assert f"wrote {where / shipped_pieces.INDEX}" in out and "pieces of 1 fixtures" in out
    assert f"wrote {where / SCOPES.index}" in out and "scope checks of 1 fixtures" in out
    assert main(["situations", "--shipped", "--check"]) == 0
    assert capsys.readouterr().out == f"2 rule sets' situations, shipped in {where}: current\n"
    pieces["b-fixture"] = [[], [], [], [[0]]]  # a fixture added, the situations the same
    assert main(["situations", "--shipped", "--check"]) == 1
    assert capsys.readouterr().out.startswith(
        "stale: identify's pieces: 1 fixtures missing (e.g. b-fixture)\n"
        "stale: the lint's scope checks: 1 fixtures missing (e.g. b-fixture)\n")
    del pieces["b-fixture"]  # the checks made by other code: another name
    monkeypatch.setattr(shipping, "explorations_named",
                        lambda: ("entry.json", "other.json", list(pieces)))
    assert main(["situations", "--shipped", "--check"]) == 1
    assert capsys.readouterr().out.startswith(
        "stale: the lint's scope checks made by other code or spec data")
    for argv, said in ((["situations", "--check"], "--check goes with --shipped"),
                       (["situations", "pagat", "--shipped"], "no rule set, -n, -k nor"),
                       (["situations", "--shipped", "-n", "3"], "no rule set, -n, -k nor"),
                       (["situations"], "name a rule set")):
        assert main(argv) == 2, argv
        assert said in capsys.readouterr().err


def test_the_package_ships_the_files() -> None:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    globs = data["package-data"]["mtrain.conformance"]
    assert "shipped/*.xz" in globs and "**/*.json" in globs
    assert shipped.SHIPPED_DIR == ROOT / "conformance" / "shipped"


def test_shipped_fixture_files_are_read_as_shipped(
        where: Path, asks: list[tuple[Ruleset, int]], monkeypatch: pytest.MonkeyPatch) -> None:
    """A fixture file of the shipped corpus, unchanged, is the shipped document; a changed
    text, or files of another loader, are read from YAML as before."""
    from mtrain.conformance import fixture
    from mtrain.conformance.fixture import _load_file, fixture_files
    from mtrain.spec import yamlload

    some = fixture_files()[:3]
    monkeypatch.setattr(fixture, "fixture_files", lambda: some)  # the shipped few, quicker
    path = some[0]
    text = path.read_text(encoding="utf-8")
    fresh = yamlload.load(str(path), text)
    shipping.write(where, asks[:1])  # with the documents
    reads: list[str] = []
    real = yamlload._load

    def counted(name: str, text: str) -> Any:
        reads.append(name)
        return real(name, text)
    monkeypatch.setattr(yamlload, "_load", counted)
    doc = shipped.document(str(path), text)
    assert doc is not None and (doc.data, doc.lines, doc.path) == (fresh.data, fresh.lines,
                                                                   fresh.path)
    assert [fx.id for fx in _load_file(str(path), text)] == [d["id"] for d in fresh.data]
    assert reads == []
    changed = text + "\n# changed\n"
    assert shipped.document(str(path), changed) is None
    _load_file(str(path), changed)
    assert reads == [str(path)]
    assert shipping.stale(where, asks[:1]) == []
    index = json.loads((where / shipped.INDEX).read_text())
    index["documents"]["code"] = "0" * 64
    (where / shipped.INDEX).write_text(json.dumps(index))
    shipped.forget()
    assert shipped.document(str(path), text) is None
    assert shipping.stale(where, asks[:1]) == [
        "documents read by another loader (its digest differs)"]


class Validating:
    """Counts the fixture files jsonschema validates (not known valid) while it is on (the
    rule sets the catalogue may read meanwhile are validated as ever: not counted)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from mtrain.conformance.fixture import FIXTURE_ROOT
        from mtrain.spec import yamlschema

        self.calls = 0
        real = yamlschema._faults

        def counted(*args: Any) -> Any:
            self.calls += Path(args[0].path).is_relative_to(FIXTURE_ROOT)
            return real(*args)
        monkeypatch.setattr(yamlschema, "_faults", counted)
        monkeypatch.setattr(yamlschema, "_VALID", {})  # nothing known from the cache


@pytest.fixture
def three(where: Path, asks: list[tuple[Ruleset, int]],
          monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Shipped files (in `where`) with three of the corpus's fixture files and their
    validity; those three."""
    from mtrain.conformance import fixture

    some = fixture.fixture_files()[:3]
    monkeypatch.setattr(fixture, "fixture_files", lambda: some)
    shipping.write(where, asks[:1])
    return some


def test_shipped_fixture_files_are_not_validated_again(
        three: list[Path], monkeypatch: pytest.MonkeyPatch) -> None:
    from mtrain.conformance.fixture import _load_file

    assert len(shipped.valid()) == 3  # jsonschema found each valid when they were made
    validating = Validating(monkeypatch)
    for path in three:
        assert _load_file(str(path), path.read_text(encoding="utf-8"))
    assert validating.calls == 0


def test_a_document_one_byte_off_a_shipped_one_is_validated(
        three: list[Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """However close to a shipped document, another text is judged by jsonschema, and its
    fault reported with file and line."""
    from mtrain.conformance.fixture import _load_file
    from mtrain.spec.yamlload import SpecErrors

    path = three[0]
    text = path.read_text(encoding="utf-8")
    at = text.index("  clauses:")
    line = text[:at].count("\n") + 1
    bad = text[:at] + "  clauseS:" + text[at + len("  clauses:"):]  # one byte
    assert len(bad) == len(text) and sum(a != b for a, b in zip(bad, text, strict=True)) == 1
    validating = Validating(monkeypatch)
    with pytest.raises(SpecErrors) as raised:
        _load_file(str(path), bad)
    assert validating.calls == 1
    said = [str(e) for e in raised.value.errors]
    assert any(s.startswith(f"{path}:{line}:") and "unknown key 'clauseS'" in s
               for s in said), said
    good = text[:at] + "\n" + text[at:]  # the same data, lines moved: known valid
    assert _load_file(str(path), good) and validating.calls == 1


@pytest.mark.parametrize("how", ["not a list", "other digests", "other schema"])
def test_a_spoiled_or_stale_valid_list_only_sends_documents_to_jsonschema(
        how: str, three: list[Path], where: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from mtrain.conformance.fixture import _load_file

    index = json.loads((where / shipped.INDEX).read_text())
    if how == "not a list":
        index["valid"] = {"a": 1}
    elif how == "other digests":  # each digest one character off
        index["valid"] = [("1" if k[0] == "0" else "0") + k[1:] for k in index["valid"]]
    else:  # the schema has changed since the files were made
        from mtrain.spec import yamlschema

        changed = json.dumps({**yamlschema.schema("fixture"), "title": "new"}, sort_keys=True)
        monkeypatch.setattr(yamlschema, "_named_schema_text", lambda name: changed)
    (where / shipped.INDEX).write_text(json.dumps(index))
    shipped.forget()
    validating = Validating(monkeypatch)
    for path in three:
        assert _load_file(str(path), path.read_text(encoding="utf-8"))
    assert validating.calls == 3
    assert shipped.document(str(three[0]), three[0].read_text(encoding="utf-8")) is not None


def test_the_check_finds_a_valid_list_that_differs(three: list[Path], where: Path,
                                                   asks: list[tuple[Ruleset, int]]) -> None:
    assert shipping.stale(where, asks[:1]) == []
    index = json.loads((where / shipped.INDEX).read_text())
    index["valid"] = index["valid"][1:]
    (where / shipped.INDEX).write_text(json.dumps(index))
    shipped.forget()
    assert shipping.stale(where, asks[:1]) == [
        "the documents found valid differ (1 digests in one list only)"]
