"""Files as hostile input (issue 23): YAML line numbers whatever the line endings, large
honest files, special files given where a file is expected, and a broken spec data
folder (MTRAIN_SPEC_DATA). Each is one clear error and exit 2, never a traceback, a
hang or a 'no such file' for a file that is there."""

from __future__ import annotations

import contextlib
import gc
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mtrain.cli import main
from mtrain.conformance.fixture import load_corpus
from mtrain.conformance.gc_freeze import settled
from mtrain.spec import yamlload
from mtrain.spec.yamlload import SpecError, load, read_text

HERE = Path(__file__).resolve().parent
FIXTURES = HERE / "data" / "fixtures"
SPEC_DATA = HERE.parent / "spec" / "data"
RULES = HERE.parent / "docs" / "examples" / "double-6.yaml"


def one_error(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """A usage error: exit 2, one line on stderr, no traceback."""
    rc = main(list(args))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    assert rc == 2, out + err
    assert err.count("\n") == 1, err
    return err


# --- F14: the line of a YAML error, whatever ends the lines --------------------------------

TEN = "".join(f"k{i}: café €{i}\n" for i in range(10))


@pytest.mark.parametrize("eol", ["\r", "\r\n", "\n"])
def test_a_bad_character_on_line_11_is_reported_on_line_11(eol: str) -> None:
    # CR alone ends a line for YAML (old Mac files), and libyaml counts bytes, not
    # characters: both once put this error on line 1 (or past 11).
    text = TEN.replace("\n", eol) + "k10: a\x07b" + eol
    with pytest.raises(SpecError) as e:
        load("f.yaml", text)
    assert (e.value.line, e.value.message) == (11, "character U+0007 is not allowed in YAML")


@pytest.mark.parametrize("eol", ["\r", "\u2028"])
def test_a_bad_byte_on_line_11_is_reported_on_line_11(tmp_path: Path, eol: str) -> None:
    path = tmp_path / "f.yaml"
    path.write_bytes(TEN.replace("\n", eol).encode() + b"k10: caf\xe9" + eol.encode())
    with pytest.raises(SpecError) as e:
        read_text(path)
    assert (e.value.line, e.value.message) == (11, "not valid UTF-8 (byte 0xe9)")


def test_f14_in_a_rule_set_file_and_a_fixture_file(capsys: pytest.CaptureFixture[str],
                                                   tmp_path: Path) -> None:
    rules = RULES.read_text().splitlines()
    path = tmp_path / "mac.yaml"
    path.write_text("\r".join([*rules[:10], "title: a\x07b", *rules[10:]]) + "\r",
                    newline="")
    err = one_error(capsys, "rules", str(path))
    assert err == f"mtrain rules: {path}:11: character U+0007 is not allowed in YAML\n"
    fixture = (FIXTURES / "basic" / "play.yaml").read_text().splitlines()
    path = tmp_path / "fx.yaml"
    path.write_text("\r".join([*fixture[:10], "    x\x07", *fixture[10:]]) + "\r", newline="")
    assert main(["lint", "--no-scopes", str(path)]) == 1
    assert f"{path}:11: character U+0007 is not allowed in YAML" in capsys.readouterr().out


# --- the alias bound bounds what aliases add, not the size of an honest file ---------------


def test_a_large_file_without_aliases_loads(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Only what aliases add is bounded: a file of more nodes than the bound, written out
    in full, loads. The bound is read when a file is walked, so a lower one (1,000 nodes,
    as the shipped 100,000) tells the same with 1/50 of the nodes (1.6 -> 0.05 CPU s)."""
    monkeypatch.setattr(yamlload, "MAX_ALIASED", 1_000)
    count = yamlload.MAX_ALIASED // 2  # each item is a mapping, a key and a value: 3 nodes
    path = tmp_path / "big.yaml"
    path.write_text("".join(f"- {{k: {i}}}\n" for i in range(count)))
    assert len(load(path).data) == count
    aliased = tmp_path / "aliased.yaml"  # the lower bound is the one in force
    aliased.write_text("a: &a [" + ", ".join(["x"] * 100) + "]\n"
                       + "".join(f"b{i}: *a\n" for i in range(11)))
    with pytest.raises(SpecError, match="more than 1,000 nodes"):
        load(aliased)


def test_aliases_are_bounded_by_what_they_add(tmp_path: Path) -> None:
    # 1,001 nodes written, aliased 100 times: 100,100 nodes beyond those written
    path = tmp_path / "aliased.yaml"
    path.write_text("a: &a [" + ", ".join(["x"] * 1000) + "]\n"
                    + "".join(f"b{i}: *a\n" for i in range(100)))
    with pytest.raises(SpecError) as e:
        load(path)
    assert e.value.message.startswith("its aliases expand to more than 100,000 nodes")
    assert e.value.line == 101  # the alias that passes the bound


def write_fixtures(folder: Path, count: int, files: int) -> None:
    """`count` fixtures (those of tests/data/fixtures, renumbered) in `files` files."""
    bodies = []
    for f in sorted(FIXTURES.rglob("*.yaml")):
        bodies += [b for b in re.split(r"(?m)^(?=- id: )", f.read_text())
                   if b.startswith("- id: ")]
    folder.mkdir()
    per = count // files
    for k in range(files):
        (folder / f"part{k:02d}.yaml").write_text("".join(
            re.sub(r"^- id: \S+", f"- id: big-{i:05d}", bodies[i % len(bodies)]).rstrip()
            + "\n\n" for i in range(k * per, (k + 1) * per)))


# slow: a measure of the collector over a large file; composing's code runs in the fast
# loop's other rules-file tests
@pytest.mark.slow
@pytest.mark.default_gc  # counts collections / measures memory as a user's process
def test_composing_a_large_file_runs_no_collection(monkeypatch: pytest.MonkeyPatch,
                                                  tmp_path: Path) -> None:
    # One file of many fixtures loaded about twice as slowly as the same fixtures split in
    # ten: each full collection walked every node composed so far. Counted, not timed.
    write_fixtures(tmp_path / "one", 100, 1)  # about 4,000 nodes
    path = tmp_path / "one" / "part00.yaml"
    monkeypatch.setenv("MTRAIN_CACHE_DIR", "off")  # composed, not read back from the cache

    def collections_while_loading() -> list[int]:
        started: list[int] = []

        def note(phase: str, info: dict[str, int]) -> None:
            if phase == "start":
                started.append(info["generation"])
        # the test process's heap (the run's corpora and memos) out of the collector's
        # sight, as a user's process has none: each collection the check forces walks
        # what loading made (the count is of collections, whatever they walk)
        with settled():
            gc.collect()  # the counts start from nothing
            gc.callbacks.append(note)
            try:
                load(path)
            finally:
                gc.callbacks.remove(note)
        return started

    assert gc.isenabled()
    assert len(collections_while_loading()) <= 1  # as the collector is switched back on
    monkeypatch.setattr(yamlload, "_no_gc", contextlib.nullcontext)  # the check can fail
    assert len(collections_while_loading()) > 10
    fixtures, errors = load_corpus(tmp_path / "one")
    assert (len(fixtures), errors) == (100, [])


# --- special files where a file is expected ------------------------------------------------


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "pipe.yaml"
    os.mkfifo(path)
    return path


def special(kind: str, tmp_path: Path, fifo: Path) -> tuple[str, str]:
    """(a path of that kind, how the error names it)."""
    if kind == "folder":
        (tmp_path / "folder.yaml").mkdir()
        return str(tmp_path / "folder.yaml"), "is a folder, not a file"
    if kind == "fifo":
        return str(fifo), "is a FIFO (named pipe), not a file"
    return f"/dev/{kind}", "is a device, not a file"


KINDS = ["folder", "fifo", "null", "zero"]


@pytest.mark.parametrize("kind", KINDS)
def test_special_files_as_rules(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                fifo: Path, kind: str) -> None:
    path, what = special(kind, tmp_path, fifo)
    err = one_error(capsys, "conform", "--fixtures", str(FIXTURES), "--rules", path)
    assert err == f"mtrain conform: --rules {path}: {what}\n"
    assert one_error(capsys, "rules", path) == f"mtrain rules: {path}: {what}\n"
    assert one_error(capsys, "diff", "pagat", path) == f"mtrain diff: {path}: {what}\n"
    err = one_error(capsys, "simulate", "--rules", path, "--rounds", "1")
    assert err == f"mtrain simulate: {path}: {what}\n"
    err = one_error(capsys, "check", "--only", "options", "--rules", path)
    assert err == f"mtrain check: --rules {path}: {what}\n"


@pytest.mark.parametrize("kind", KINDS)
def test_special_files_as_known_skip_fixtures_and_adapter(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, fifo: Path, kind: str) -> None:
    path, what = special(kind, tmp_path, fifo)
    err = one_error(capsys, "fuzz", "--mutant", "no-marker-cleared", "--known", path)
    assert err == f"mtrain fuzz: --known {path}: {what}\n"
    err = one_error(capsys, "conform", "--fixtures", str(FIXTURES), "--skip", path)
    assert err == f"mtrain conform: --skip {path}: {what}\n"
    if kind != "folder":  # a folder of fixtures is read as one
        rc = main(["conform", "--fixtures", path, "--format", "json"])
        out, err = capsys.readouterr()
        assert rc == 1 and f"{path}: {what}" in out, out + err
    err = one_error(capsys, "conform", "--adapter", f"{path}:X")
    assert err == f"mtrain conform: --adapter {path}:X: {path}: {what}\n"


def test_a_fifo_among_fixture_files_is_a_load_error(capsys: pytest.CaptureFixture[str],
                                                    tmp_path: Path) -> None:
    root = tmp_path / "fixtures"
    shutil.copytree(FIXTURES, root)
    os.mkfifo(root / "pipe.yaml")
    fixtures, errors = load_corpus(root)
    assert len(fixtures) == 5
    assert [str(e) for e in errors] == [f"{root}/pipe.yaml: is a FIFO (named pipe), not a file"]


def test_a_file_too_large_is_refused_unread(capsys: pytest.CaptureFixture[str],
                                            tmp_path: Path) -> None:
    path = tmp_path / "huge.yaml"
    with path.open("wb") as f:  # sparse: 40 MB that take no room
        f.truncate(40 * 1024 * 1024)
    err = one_error(capsys, "rules", str(path))
    assert err == (f"mtrain rules: {path}: 41,943,040 bytes, more than the 32 MB a file "
                   "may hold\n")


@pytest.mark.parametrize("args", [["rules", "{f}"], ["diff", "pagat", "{f}"],
                                  ["fuzz", "--mutant", "no-marker-cleared", "--known", "{f}"]])
def test_special_files_in_a_real_process(fifo: Path, args: list[str]) -> None:
    # /dev/zero once read until MemoryError, a FIFO with no writer once waited for ever
    for path in (str(fifo), "/dev/zero"):
        argv = [sys.executable, "-m", "mtrain", *[a.replace("{f}", path) for a in args]]
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=60)
        assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
        assert proc.stderr.count("\n") == 1 and path in proc.stderr


# --- a broken spec data folder (MTRAIN_SPEC_DATA) ------------------------------------------


def broken_data(tmp_path: Path, fault: str) -> tuple[Path, str]:
    """A spec data folder with one fault, and the start of the error it must give."""
    if fault == "missing":
        return tmp_path / "nowhere", f"{tmp_path}/nowhere: no such folder"
    if fault == "a file":
        (tmp_path / "afile").write_text("x")
        return tmp_path / "afile", f"{tmp_path}/afile: is a file, not a folder"
    data = tmp_path / "data"
    if fault == "empty":
        data.mkdir()
        return data, f"{data}/sources.yaml: file not found"
    shutil.copytree(SPEC_DATA, data)
    clauses = data / "clauses.yaml"
    if fault == "clauses not UTF-8":
        lines = clauses.read_bytes().count(b"\n")
        clauses.write_bytes(clauses.read_bytes() + b"# caf\xe9\n")
        return data, f"{clauses}:{lines + 1}: not valid UTF-8 (byte 0xe9)"
    if fault == "clauses a folder":
        clauses.unlink()
        clauses.mkdir()
        return data, f"{clauses}: is a folder, not a file"
    if fault == "no options":
        (data / "options.yaml").unlink()
        return data, f"{data}/options.yaml: file not found"
    if fault == "no variants":
        shutil.rmtree(data / "variants")
        return data, f"{data}/variants: no such folder"
    if fault == "variants a file":
        shutil.rmtree(data / "variants")
        (data / "variants").write_text("")
        return data, f"{data}/variants: is a file, not a folder"
    if fault == "no variant":
        for p in (data / "variants").iterdir():
            p.unlink()
        return data, f"{data}/variants: no variant (*.yaml) in this folder"
    if fault == "clauses of the wrong shape":
        clauses.write_text("- 1\n- 2\n")
        return data, f"{clauses}:1: not in the shape this file takes"
    if fault == "rulesets a file":
        shutil.rmtree(data / "rulesets")
        (data / "rulesets").write_text("")
        return data, f"{data}/rulesets: is a file, not a folder"
    assert fault == "an overlay that does not apply"
    d9 = data / "variants" / "puremco-d9.yaml"  # rotate-start applies to pagat only
    d9.write_text(d9.read_text().replace("\noptions:", "\noverlays: [rotate-start]\noptions:"))
    return data, f"{d9}:"


FAULTS = ["missing", "a file", "empty", "clauses not UTF-8", "clauses a folder",
          "no options", "no variants", "variants a file", "no variant",
          "clauses of the wrong shape", "rulesets a file",
          "an overlay that does not apply"]


@pytest.mark.parametrize("fault", FAULTS)
def test_a_broken_spec_data_folder_is_one_error(tmp_path: Path, fault: str) -> None:
    data, error = broken_data(tmp_path, fault)
    env = {**os.environ, "MTRAIN_SPEC_DATA": str(data)}
    commands = [["variants"], ["check", "--only", "options"],
                ["conform", "--fixtures", str(FIXTURES)]]
    if fault == "rulesets a file":  # rule-set files are read when a run needs them
        commands = commands[2:]
    for args in commands:
        proc = subprocess.run([sys.executable, "-m", "mtrain", *args], capture_output=True,
                              text=True, env=env, timeout=120)
        assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
        assert proc.stderr.startswith(f"mtrain {args[0]}: {error}"), proc.stderr
        assert proc.stderr.count("\n") == 1, proc.stderr
