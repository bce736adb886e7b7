"""The situations shipped with the package (conformance/shipped.py): read where the code
that made them is the code asking, made as before otherwise, and never read when stale,
cut short or spoiled; `mtrain situations --shipped [--check]` writes and checks them.

Each test writes its own shipped files, for a few rule sets, into a temporary folder
(MTRAIN_SHIPPED_SITUATIONS) beside an empty cache: whether the package's own files are
current is `mtrain situations --shipped --check`, which CI runs (.ci/run).
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mtrain.cli import main
from mtrain.conformance import shipped
from mtrain.conformance import situation_shipping as shipping
from mtrain.conformance import situations as S
from mtrain.spec import cache
from mtrain.spec.catalog import catalog
from mtrain.spec.ruleset import Ruleset

ROOT = Path(__file__).resolve().parents[1]
COUNT = 12


@pytest.fixture
def asks() -> list[tuple[Ruleset, int]]:
    return [(catalog().ruleset(n), COUNT) for n in ("pagat", "puremco-d9")]


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
        where: Path, asks: list[tuple[Ruleset, int]], monkeypatch: pytest.MonkeyPatch) -> None:
    count, index, payload = shipping.write(where, asks)
    assert count == 2 and index > 0 and payload > 0
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
        monkeypatch: pytest.MonkeyPatch) -> None:
    shipping.write(where, asks)
    _spoil(where, how)
    shipped.forget()
    making = Making(monkeypatch)
    rs = asks[0][0]
    assert read(rs) == json.loads(json.dumps(made(rs)))
    assert making.calls == 2  # made() and situations() both made them
    assert cache.read(S.CACHE_KIND, S._cache_key(rs, COUNT, S.SEED)) is not None  # kept


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
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A run whose code differs does not open the payload: the first run is not made
    slower by files it cannot use."""
    shipping.write(where, asks)
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
                           monkeypatch: pytest.MonkeyPatch) -> None:
    shipping.write(where, asks)
    monkeypatch.setenv(shipped.SHIPPED_ENV, "off")
    making = Making(monkeypatch)
    S.situations(asks[0][0], COUNT)
    assert making.calls == 1


def test_the_check_finds_what_differs(where: Path, asks: list[tuple[Ruleset, int]]) -> None:
    assert shipping.stale(where, asks)[0].endswith("missing, or does not agree with its index")
    shipping.write(where, asks)
    assert shipping.stale(where, asks) == []
    more = [*asks, (catalog().ruleset("puremco"), COUNT)]
    assert shipping.stale(where, more) == [
        f"1 entries missing (e.g. {S._cache_key(more[-1][0], COUNT, S.SEED)})"]
    assert shipping.stale(where, asks[:1])[0].startswith("1 entries no longer asked")
    kept = shipped.read_all(where)
    assert kept is not None
    entries = kept["entries"]
    key = S._cache_key(asks[0][0], COUNT, S.SEED)
    entries[key][0]["legal"] = entries[key][0]["legal"][:-1] or ["pass"]  # one legal set
    shipped.write(where, kept["code"], entries)
    assert shipping.stale(where, asks) == [f"1 entries different (e.g. {key})"]
    shipped.write(where, "0" * 64, entries)
    assert shipping.stale(where, asks)[0] == (
        "made by other code or spec data (the code digest differs)")


def test_the_command_writes_and_checks(where: Path, asks: list[tuple[Ruleset, int]],
                                       monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(shipping, "default_asks", lambda: asks)
    assert main(["situations", "--shipped", "--check"]) == 1
    out = capsys.readouterr().out
    assert out.startswith("stale: ") and "run `mtrain situations --shipped`" in out
    assert main(["situations", "--shipped"]) == 0
    assert f"wrote {where / shipped.INDEX}" in capsys.readouterr().out
    assert main(["situations", "--shipped", "--check"]) == 0
    assert capsys.readouterr().out == f"2 rule sets' situations, shipped in {where}: current\n"
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
