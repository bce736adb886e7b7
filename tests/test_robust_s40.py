"""Inputs the earlier robustness rounds let through (robust-s40): each is refused by name,
at its file and line where it has one, never read past nor met with a traceback; every
usage error names its command and how to get its help."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from mtrain.cli import main


def refused(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """The last line a refused command prints: exit 2, no traceback."""
    try:
        rc = main(list(args))
    except SystemExit as e:  # argparse: the usage, then the error
        rc = e.code  # type: ignore[assignment]
    out, err = capsys.readouterr()
    assert rc == 2 and "Traceback" not in out + err, (rc, out[-500:], err[-500:])
    return err.strip().splitlines()[-1]


def write(path: Path, text: str) -> str:
    path.write_text(text, encoding="utf-8")
    return str(path)


# --- a number tagged or quoted as text --------------------------------------------------


@pytest.mark.parametrize("value", ["!!str 7", "'7'", '"7"'])
def test_a_number_written_as_text_is_said_to_be_text(capsys: pytest.CaptureFixture[str],
                                                     tmp_path: Path, value: str) -> None:
    # `!!str 7` was "'7' is read as text by YAML 1.1 and as a number by YAML 1.2", though
    # every reader takes a tagged scalar as tagged; quoted, it said only "got a string"
    rules = write(tmp_path / "r.yaml",
                  f"name: x\nbase: pagat\noptions:\n  hand_sizes:\n    2: {value}\n")
    line = refused(capsys, "rules", rules)
    assert line == (f"mtrain rules: {rules}:5: options.hand_sizes.2: expected an integer, got "
                    "a string ('7'): a number quoted or tagged !!str is text; write it plain "
                    "(7)"), line


def test_a_seat_tagged_as_text_is_read_as_its_quoted_form_is(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # `!!str 2:` as a row of a hand table is the row '2', as `'2':` is
    from mtrain.spec.catalog import catalog
    for key in ("!!str 2", "'2'"):
        rules = write(tmp_path / "r.yaml",
                      f"name: x\nbase: pagat\noptions:\n  hand_sizes:\n    {key}: 7\n")
        assert catalog().rules_file(rules).hand_table == ((2, 7),), key


def test_a_float_tagged_number_is_no_ambiguous_spelling(capsys: pytest.CaptureFixture[str],
                                                        tmp_path: Path) -> None:
    # `!!float 7` is 7.0 to every reader: it was "a number written in a form YAML versions
    # read differently (infinity, NaN, ...)"
    rules = write(tmp_path / "r.yaml",
                  "name: x\nbase: pagat\noptions:\n  hand_sizes:\n    2: !!float 7\n")
    line = refused(capsys, "rules", rules)
    assert line.endswith(":5: options.hand_sizes.2: expected an integer, got a number (7.0)")


# --- usage errors name their command and its help ----------------------------------------


@pytest.mark.parametrize("args, said", [
    # argparse's top-level parser said these: "mtrain: error: unrecognized arguments"
    (["conform", "--bogus"], "mtrain conform: error: unrecognized arguments: --bogus "
     "(see 'mtrain conform --help')"),
    (["conform", "--varient", "pagat"], "mtrain conform: error: unrecognized arguments: "
     "--varient pagat (did you mean --variant?) (see 'mtrain conform --help')"),
    (["serve", "extra"], "mtrain serve: error: unrecognized arguments: extra "
     "(see 'mtrain serve --help')"),
    (["lint", "--no-scops"], "mtrain lint: error: unrecognized arguments: --no-scops "
     "(did you mean --no-scopes?) (see 'mtrain lint --help')"),
    (["variants", "--json", "x\x1b[31m"], "mtrain variants: error: unrecognized arguments: "
     "x\\x1b[31m (see 'mtrain variants --help')"),  # escaped
    # argparse's own errors of a subcommand
    (["conform", "--format", "xml"], "mtrain conform: error: argument --format: invalid "
     "choice: 'xml' (choose from 'text', 'json', 'junit', 'markdown', 'html') "
     "(see 'mtrain conform --help')"),
    ([], "mtrain: error: the following arguments are required: COMMAND (see 'mtrain --help')"),
    # the commands' own: they named the command alone, as a file's fault is named
    (["fuzz", "--mutant", "wrong-engine-double", "--games", "0"],
     "mtrain fuzz: error: --games must be at least 1 (see 'mtrain fuzz --help')"),
    (["state", "marker-001", "--action", "draw"], "mtrain state: error: --action goes with "
     "--as apply, and --as apply needs --action (see 'mtrain state --help')"),
    (["situations", "--check"], "mtrain situations: error: --check goes with --shipped "
     "(see 'mtrain situations --help')"),
])
def test_a_usage_error_names_its_command_and_its_help(capsys: pytest.CaptureFixture[str],
                                                      args: list[str], said: str) -> None:
    assert refused(capsys, *args) == said


def test_write_scopes_without_the_scope_check_is_refused_before_the_corpus_is_read(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # it was found after the whole corpus had been linted
    from mtrain.conformance import lint

    def linted(*args: object, **kwargs: object) -> None:
        raise AssertionError("the corpus was read")

    monkeypatch.setattr(lint, "lint", linted)
    assert refused(capsys, "lint", "--write-scopes", "--no-scopes") == (
        "mtrain lint: error: --write-scopes needs the scope check (drop --no-scopes) "
        "(see 'mtrain lint --help')")


# --- a fixture's table or deal, and what an entry needs, in words ------------------------

FIXTURE = """\
- id: mine-001
  description: a fixture with a table and a deal
  clauses: [TURN-1]
  source: [pagat]
{setup}  expect:
    - variants: [pagat]
{check}"""
TABLE = "  table:\n    hands:\n      0: [1-0]\n      1: [2-0]\n"
DEAL = "  deal:\n    players: 4\n    order: sorted\n"


@pytest.mark.parametrize("setup, check, said", [
    # "[0]: {'id': 'mine-001', ... the whole fixture ...} is valid under each of
    # {'required': ['deal']}, {'required': ['table']}"
    (DEAL + TABLE, "      legal: [draw]\n",
     ":1: [0]: gives both `table` and `deal`: give one of them"),
    # "... is not valid under any of the given schemas (e.g. 'table' is a required property)"
    ("", "      legal: [draw]\n", ":1: [0]: needs `table` or `deal`"),
    # "[0].expect[0]: {'variants': ['pagat']} does not have enough properties"
    (TABLE, "", ":10: [0].expect[0]: gives only variants; it needs at least 2 keys of "
     "blocked_scores, legal, "),
])
def test_a_fixture_without_its_one_setup_or_check_is_told_what_it_needs(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, setup: str, check: str,
        said: str) -> None:
    fixture = write(tmp_path / "f.yaml", FIXTURE.format(setup=setup, check=check))
    assert main(["lint", "--no-scopes", fixture]) == 1
    out = capsys.readouterr().out
    assert f"error: {fixture}{said}" in out and "valid under" not in out, out
    assert "mine-001', 'description'" not in out  # the fixture is not quoted whole


def test_a_fixture_that_is_no_mapping_is_said_to_be_one_way(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # render said "[0]: 'x' is valid under each of {'required': ['deal']}, ..."
    fixture = write(tmp_path / "f.yaml", "- x\n")
    assert refused(capsys, "render", "x-001", "--fixtures", fixture) == (
        f"mtrain render: {fixture}:1: [0]: expected a mapping, got a string ('x')")


def test_a_key_given_twice_on_one_line_says_so(tmp_path: Path) -> None:
    # "(lines 4 and 4)", for a key and its alias, or twice in one flow mapping
    from mtrain.spec.yamlload import SpecError, load
    for text in ("a: 1\nb: {k: 1, k: 2}\n", "a: 1\nb:\n  &k k: 1\n  *k : 2\n"):
        with pytest.raises(SpecError) as info:
            load("f.yaml", text)
        assert "duplicate key 'k' (line " in str(info.value), text
        assert ", twice)" in str(info.value), str(info.value)


# --- the implementation named on the command line ---------------------------------------


def test_an_impl_holding_a_nul_is_refused_as_such(capsys: pytest.CaptureFixture[str]) -> None:
    # "the adapter's info() failed: ValueError: embedded null byte", with no adapter
    assert refused(capsys, "conform", "--impl", "py\0thon", "-k", "marker-001") == (
        "mtrain conform: --impl: the command 'py\\x00thon' holds a NUL character, which no "
        "program's name or arguments can")


@pytest.mark.parametrize("source, said", [
    # a traceback: only Exception and SystemExit were caught
    ("raise BaseException('odd')\n", "importing {path} failed: BaseException: odd"),
    ("class Engine:\n    def __init__(self):\n        raise GeneratorExit('odd')\n",
     "Engine() failed: GeneratorExit: odd"),
])
def test_an_adapter_raising_a_base_exception_is_refused(tmp_path: Path, source: str,
                                                        said: str) -> None:
    from mtrain.conformance.adapter_loading import load_adapter
    from mtrain.spec.errors import InputError
    path = write(tmp_path / "odd.py", source)
    with pytest.raises(InputError) as info:
        load_adapter(f"{path}:Engine")
    assert said.format(path=path) in str(info.value)


def test_an_adapter_that_is_no_python_file_is_refused_as_such(tmp_path: Path) -> None:
    # "importing a.txt failed: AssertionError: " (spec_from_file_location found no loader)
    from mtrain.conformance.adapter_loading import load_adapter
    from mtrain.spec.errors import InputError
    path = write(tmp_path / "a.txt", "x = 1\n")
    with pytest.raises(InputError, match=r"a\.txt is not a Python module \(a \.py file\)"):
        load_adapter(f"{path}:Engine")


def test_a_control_character_in_an_answer_is_named_once() -> None:
    # "not JSON (Invalid control character at at character 21)"
    from mtrain.conformance.protocol import ProtocolError, decode
    with pytest.raises(ProtocolError) as info:
        decode(b'{"id":1,"ok":true,"name":"a\x01b"}')
    assert "(Invalid control character at character 27)" in str(info.value), info.value


# --- commands given a path that is not there -------------------------------------------


def test_mutants_of_a_path_that_is_not_there_is_a_usage_error(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # "LOAD ERROR .../nope: file not found", then a run of no fixture: exit 1
    assert refused(capsys, "mutants", str(tmp_path / "nope")) == (
        f"mtrain mutants: no such file or folder: {tmp_path / 'nope'}")
    bad = write(tmp_path / "bad.yaml", "- x\n")
    assert refused(capsys, "mutants", bad) == (
        f"mtrain mutants: no fixture could be loaded from {bad}")


# --- a cache that can keep nothing is said to ------------------------------------------


@pytest.mark.parametrize("make, why", [
    (lambda p: p.write_text("x"), "{p} is not a folder"),
    (lambda p: (p.parent / "loop").symlink_to(p) or p.symlink_to(p.parent / "loop"),
     "{p}: Too many levels of symbolic links"),
    (lambda p: p.symlink_to(p.parent / "gone"),
     "{p} is a symbolic link to nothing ({p.parent}/gone)"),
    (lambda p: p.parent.joinpath("file").write_text("x"), "{f} is not a folder"),
])
def test_a_cache_folder_that_can_keep_nothing_is_warned_of(
        capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, make: object, why: str) -> None:
    # the run went on without a word, working everything out anew each time
    from mtrain.spec.cache import CACHE_ENV
    named = tmp_path / "cache"
    make(named)  # type: ignore[operator]
    if why.startswith("{f}"):
        named = tmp_path / "file" / "cache"
    monkeypatch.setenv(CACHE_ENV, str(named))
    assert main(["variants"]) == 0
    err = capsys.readouterr().err
    assert err == (f"mtrain variants: warning: {CACHE_ENV}: "
                   f"{why.format(p=named, f=tmp_path / 'file')}: nothing is kept between "
                   "runs (set it to off to mean that)\n"), err


def test_a_usable_cache_folder_or_none_is_not_warned_of(
        capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    from mtrain.spec.cache import CACHE_ENV
    for named in (str(tmp_path / "new" / "cache"), "off", str(tmp_path)):
        monkeypatch.setenv(CACHE_ENV, named)
        assert main(["variants"]) == 0
        assert capsys.readouterr().err == "", named


# --- a script whose #! line names no interpreter there ----------------------------------


@pytest.mark.parametrize("first, said", [
    # "cannot run ./x.sh: No such file or directory", of a file that is there
    ("#!/no/such/interp\n", "its #! line names the interpreter '/no/such/interp', which is "
     "not there"),
    ("#!/bin/sh\r\n", "its #! line ends in a carriage return (Windows line endings), so the "
     "interpreter looked for is '/bin/sh\\r'; save it with Unix line endings"),
])
def test_a_script_whose_interpreter_is_not_there_is_told_so(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, first: str, said: str) -> None:
    script = tmp_path / "engine.sh"
    script.write_bytes(first.encode() + b"echo hi\n")
    script.chmod(0o755)
    assert refused(capsys, "conform", "--impl", str(script), "-k", "marker-001") == (
        f"mtrain conform: cannot run {script}: {said}")


def test_shipped_situations_named_where_there_are_none_are_warned_of(
        capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    # a file or a missing folder: every run worked the situations out anew, without a word
    from mtrain.conformance.shipped import SHIPPED_ENV
    for named in (write(tmp_path / "file", "x"), str(tmp_path / "gone")):
        monkeypatch.setenv(SHIPPED_ENV, named)
        assert main(["variants"]) == 0
        assert capsys.readouterr().err == (
            f"mtrain variants: warning: {SHIPPED_ENV}: {named} names no folder: nothing "
            "shipped is read (set it to off to mean that)\n")
    monkeypatch.setenv(SHIPPED_ENV, str(tmp_path))
    assert main(["variants"]) == 0 and capsys.readouterr().err == ""


def test_spec_data_named_through_a_loop_of_links_is_said_to_be(
        capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    # "no such folder", which sends one looking for a typo
    from mtrain.spec import data_folder as module
    from mtrain.spec.yamlload import SpecError
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    monkeypatch.setenv(module.DATA_ENV, str(tmp_path / "a"))
    with pytest.raises(SpecError, match="a: Too many levels of symbolic links "):
        module.check_data_dir(module.data_dir())


# --- a number on the command line is read as written -------------------------------------


@pytest.mark.parametrize("args, said", [
    # int() and float() read each as a number other than written: 10, 2, 2, 4, 10 s
    (["conform", "--jobs", "1_0"], "argument --jobs/-j: not a whole number: '1_0'"),
    (["conform", "--jobs", " 2"], "argument --jobs/-j: not a whole number: ' 2'"),
    (["conform", "--jobs", "\u0662"], "argument --jobs/-j: not a whole number: '\u0662'"),
    (["simulate", "--variant", "pagat", "--players", "\uff14"],
     "argument --players: not a whole number: '\uff14'"),
    (["conform", "--timeout", "1_0"], "argument --timeout: not a number: '1_0'"),
    (["fuzz", "--mutant", "wrong-engine-double", "--max-seconds", "\u0661"],
     "argument --max-seconds: not a number: '\u0661'"),
    (["state", "marker-001", "--steps", "0x1"], "argument --steps: not a whole number: '0x1'"),
])
def test_a_number_on_the_command_line_is_ascii_digits(capsys: pytest.CaptureFixture[str],
                                                      args: list[str], said: str) -> None:
    line = refused(capsys, *args)
    assert line == f"mtrain {args[0]}: error: {said} (see 'mtrain {args[0]} --help')", line


@pytest.mark.parametrize("args", [["rules", "pagat", "--out"], ["conform", "--output"],
                                  ["render", "marker-001", "--out"]])
def test_an_output_named_dash_is_refused(capsys: pytest.CaptureFixture[str],
                                         tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         args: list[str]) -> None:
    # a file named "-" was written (in the current folder), where stdout was meant
    monkeypatch.chdir(tmp_path)
    assert refused(capsys, *args, "-") == (
        f"mtrain {args[0]}: {args[-1]} -: a file of that name would be written; to print, "
        f"leave {args[-1]} out")
    assert not (tmp_path / "-").exists()


@pytest.mark.parametrize("args", [["rules", "pagat", "--out", ""],
                                  ["conform", "-k", "marker-001", "--output", " "],
                                  ["conform", "--skip", ""], ["fuzz", "--out", ""]])
def test_an_option_given_empty_is_refused(capsys: pytest.CaptureFixture[str],
                                          args: list[str]) -> None:
    # `--out ""` (an unset shell variable) printed to stdout as if --out were not given
    option = args[-2]
    assert refused(capsys, *args) == (
        f"mtrain {args[0]}: error: argument {option}: an empty value (an unset shell "
        f"variable?); give one, or leave {option} out (see 'mtrain {args[0]} --help')")


def test_lint_reads_a_file_named_twice_once_however_spelt(
        capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    # `f.yaml ./f.yaml` was read twice: "basic-001 has the same description as basic-001"
    text = (Path(__file__).parent / "data" / "fixtures" / "basic" / "play.yaml").read_text()
    write(tmp_path / "f.yaml", text)
    monkeypatch.chdir(tmp_path)
    assert main(["lint", "--no-scopes", "f.yaml", "./f.yaml", str(tmp_path / "f.yaml")]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("2 fixtures, ")


def test_a_source_not_listed_is_named_among_those_that_are(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # "[0].source: ['nowhere'] is not valid under any of the given schemas (e.g. ...)"
    fixture = write(tmp_path / "f.yaml", FIXTURE.format(setup=TABLE, check="      legal: "
                                                        "[draw]\n").replace("[pagat]\n  table",
                                                                            "[nowhere]\n  table"))
    assert main(["lint", "--no-scopes", fixture]) == 1
    out = capsys.readouterr().out
    assert f"error: {fixture}:4: [0].source[0]: bad value 'nowhere'; allowed values: pagat, " \
        in out, out


# --- an interrupted check stops its workers ----------------------------------------------


INTERRUPTED_CHECK = """
import os, sys, time
from pathlib import Path

from mtrain.cli import main
from mtrain.conformance.speccheck import run


def job(folder):
    # says it began (a file named by its process and the time), then never ends: a
    # check that waited for it would hang
    Path(folder, f"{os.getpid()}-{time.monotonic_ns()}").write_text("began")
    time.sleep(3600)
    return {"checks": []}


if __name__ == "__main__":  # a worker from a forkserver imports this file again
    run.plan_jobs = lambda *a, **k: ([(job, (sys.argv[1],))] * 6, list(range(6)))
    sys.exit(main(["check", "--jobs", "2"]))
"""


@pytest.mark.parametrize("signum", [2, 15], ids=["SIGINT", "SIGTERM"])
def test_an_interrupted_check_kills_its_workers_and_begins_no_other_job(
        tmp_path: Path, signum: int) -> None:
    # SIGINT waited for every job planned (minutes, the pool's block shutting down); on
    # SIGTERM the workers computed on, orphaned, and wrote tracebacks once done. The
    # signal goes to a check in a process (and group) of its own: raised in the test's
    # process from a timer, the interrupt landed wherever that process stood, in CI
    # inside hypothesis' gc callback, which swallowed it
    import contextlib
    import signal
    import subprocess
    import sys
    import time

    from procwatch import alive

    script, began = tmp_path / "check.py", tmp_path / "began"
    script.write_text(INTERRUPTED_CHECK, encoding="utf-8")
    began.mkdir()

    def workers() -> list[int]:
        return [int(p.name.split("-")[0]) for p in began.iterdir()]

    check = subprocess.Popen([sys.executable, str(script), str(began)], text=True,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             start_new_session=True)
    try:
        deadline = time.monotonic() + 120  # a hang's bound, not a measure of speed
        while len(workers()) < 2 and check.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert len(workers()) == 2, "both workers at work: then the interrupt"
        if signum == signal.SIGINT:  # Ctrl-C: to the whole group, as a terminal sends it
            os.killpg(check.pid, signum)
        else:
            check.send_signal(signum)
        _, err = check.communicate(timeout=120)
    finally:
        left = [pid for pid in workers() if alive(pid)]
        with contextlib.suppress(ProcessLookupError):  # what a failure left: ours to end
            os.killpg(check.pid, signal.SIGKILL)
        check.communicate()
    assert (check.returncode, err) == (128 + signum, "mtrain check: interrupted\n"), err
    pids = workers()
    assert len(pids) == len(set(pids)) == 2, pids  # no job left was begun
    assert left == []  # each killed


@pytest.mark.parametrize("args, module, name", [
    (["check"], "mtrain.conformance.speccheck.run", "run"),
    (["mutants", str(Path(__file__).parent / "data" / "fixtures" / "basic")],
     "mtrain.conformance.mutants.runs", "run_mutants"),
    # robust2-s40: these three too died of SIGTERM's default (exit -15, no word)
    (["lint", "--no-scopes"], "mtrain.conformance.lint", "lint"),
    (["diff", "pagat", "puremco"], "mtrain.conformance.diffing", "diff"),
    (["simulate", "--variant", "pagat", "--rounds", "1"], "mtrain.reference.simulate",
     "simulate"),
])
def test_a_long_command_is_stopped_by_sigterm_as_by_an_interrupt(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        args: list[str], module: str, name: str) -> None:
    # each died of SIGTERM's default (exit -15, no word, the workers left running)
    import importlib
    import signal

    def terminated(*args: object, **kwargs: object) -> None:
        if signal.getsignal(signal.SIGTERM) in (signal.SIG_DFL, None):
            raise AssertionError("SIGTERM would end the command where it stands")
        # The installed handler, called as the signal would call it: a real os.kill may run
        # it inside a weakref callback the collector fires then, where its exception is lost.
        handler = signal.getsignal(signal.SIGTERM)
        assert callable(handler)
        handler(signal.SIGTERM, None)
        raise AssertionError("SIGTERM did not stop the command")

    monkeypatch.setattr(importlib.import_module(module), name, terminated)
    assert main(args) == 143
    assert capsys.readouterr().err == f"mtrain {args[0]}: interrupted\n"


def _dispositions(name: str) -> list[str]:
    """In a mutants worker: how it takes SIGINT and SIGTERM."""
    import signal
    return [str(signal.getsignal(signal.SIGINT)), str(signal.getsignal(signal.SIGTERM))]


def test_mutants_workers_leave_an_interrupt_to_their_parent(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # forked under the harness's handlers, each worker raised Interrupted at Pool.terminate's
    # SIGTERM and printed a traceback (and mutants died of SIGTERM's default, its workers
    # writing BrokenPipeError tracebacks once done)
    import signal

    from mtrain.conformance.child import stop_on_signals
    from mtrain.conformance.fixture import load_corpus
    from mtrain.conformance.mutants import runs
    from mtrain.conformance.mutants.catalogue import MUTANTS
    fixtures, errors = load_corpus(str(Path(__file__).parent / "data" / "fixtures" / "basic"))
    assert fixtures and not errors
    monkeypatch.setattr(runs, "_forked_kills", _dispositions)
    with stop_on_signals():
        report = runs.run_mutants(fixtures, list(MUTANTS)[:2], jobs=2)
    assert list(report.kills.values()) == [
        [str(signal.SIG_IGN), str(signal.SIG_DFL)]] * 2, report.kills


def _check_dispositions() -> dict[str, object]:
    """A check job that reports how its worker takes SIGINT and SIGTERM."""
    return {"checks": [], "summary": {"signals": _dispositions("")}}


class _Unmade:
    def make(self) -> None:
        raise RuntimeError("not started: only the worker's signals are asked")


def test_check_and_fuzz_workers_leave_an_interrupt_to_their_parent(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # a Ctrl-C (SIGINT to the whole group) made a fuzz worker print "Process
    # ForkPoolWorker-2: Traceback ..."; check's workers inherited the harness's handlers
    import signal

    from mtrain.conformance.child import stop_on_signals
    from mtrain.conformance.forking import pool_context
    from mtrain.conformance.fuzz import run as fuzz_run
    from mtrain.conformance.speccheck import run as check_run
    quiet = [str(signal.SIG_IGN)]
    monkeypatch.setattr(check_run, "plan_jobs",
                        lambda *a, **k: ([(_check_dispositions, ())] * 2, [0, 1]))
    with stop_on_signals():
        signals = check_run.run(jobs=2)["summary"]["signals"]
        assert signals == [*quiet, str(signal.SIG_DFL)], signals
        ctx = pool_context()  # as fuzz makes its pool: never a fork of a threaded process
        with ctx.Pool(1, initializer=fuzz_run._worker_init,
                      initargs=(_Unmade(), ctx.Value("i", 1), "ref", None)) as pool:
            signals = pool.apply(_dispositions, ("",))
    assert signals[:1] == quiet, signals  # SIGTERM: its own handler, which stops it


def test_a_table_given_to_an_option_that_names_its_value_is_refused_in_words(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # "options.scoring: key 'a' does not match the pattern ^([2-9]|1[0-9]|20)$"
    rules = write(tmp_path / "r.yaml", "name: x\nbase: pagat\noptions:\n  scoring: {a: 1}\n")
    assert refused(capsys, "rules", rules) == (
        f"mtrain rules: {rules}:4: option scoring takes the name of a value, not a table "
        "(only hand_sizes takes one)")


# --- robust2-s40: the twelfth round's leftovers ------------------------------------------


@pytest.mark.parametrize("table, said", [
    # each was read as an empty hand or train
    ("    hands:\n      0: null\n      1: [2-0]\n",
     ":7: [0].table.hands.0: expected a list, got null; an empty list is written []"),
    ("    hands:\n      0:\n      1: [2-0]\n",
     ":7: [0].table.hands.0: expected a list, got null; an empty list is written []"),
    ("    hands:\n      0: [1-0]\n      1: [2-0]\n    trains: {0: ~}\n",
     ":9: [0].table.trains.0: expected a list, got null; an empty list is written []"),
])
def test_a_null_hand_or_train_in_a_table_is_refused_at_its_line(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, table: str, said: str) -> None:
    fixture = write(tmp_path / "f.yaml", FIXTURE.format(setup="  table:\n" + table,
                                                        check="      legal: [draw]\n"))
    assert main(["lint", "--no-scopes", fixture]) == 1
    out = capsys.readouterr().out
    assert f"error: {fixture}{said}\n" in out and "unreachable" not in out, out


def test_a_null_hand_or_train_in_an_expected_state_is_refused_at_its_line(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # an expected `hands: {0: null}` was checked as an empty hand
    fixture = write(tmp_path / "f.yaml", FIXTURE.format(
        setup="  table:\n    hands:\n      0: [1-0]\n      1: [2-0, rest]\n",
        check="      state:\n        hands: {0: null}\n        trains: {mexican: }\n"))
    assert main(["lint", "--no-scopes", fixture]) == 1
    out = capsys.readouterr().out
    for where in ("hands[0]", "trains[mexican]"):
        assert (f"error: {fixture}:10: fixture mine-001: expected state.{where}: expected a "
                "list of tiles, got null; an empty list is written []\n") in out, out


def test_a_folder_of_fixtures_is_read_whatever_the_case_of_yaml_or_yml(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # x.yml and X.YAML were skipped without a word: "0 fixtures", exit 0
    text = (Path(__file__).parent / "data" / "fixtures" / "basic" / "play.yaml").read_text()
    first, second = text.rsplit("\n- id: ", 1)
    write(tmp_path / "a.yml", first + "\n")
    write(tmp_path / "B.YAML", "- id: " + second)
    write(tmp_path / "notes.txt", "not a fixture")
    assert main(["lint", "--no-scopes", str(tmp_path)]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("2 fixtures, ")


@pytest.mark.parametrize("args, said", [
    # "the following arguments are required: COMMAND", the option not named
    (["--hlep"], "unrecognized arguments: --hlep (did you mean --help?)"),
    (["--hlep", "conform"], "unrecognized arguments: --hlep (did you mean --help?)"),
    # "invalid choice: 'conforn' (choose from 'variants', 'explain', ... 16 names)"
    (["conforn"], "unknown command 'conforn' (did you mean conform?)"),
    (["x\x1b[31m"], "unknown command 'x\\x1b[31m'"),
])
def test_an_unknown_option_or_command_is_named_with_the_one_meant(
        capsys: pytest.CaptureFixture[str], args: list[str], said: str) -> None:
    assert refused(capsys, *args) == f"mtrain: error: {said} (see 'mtrain --help')"


def test_an_abbreviated_top_level_option_is_still_taken(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--vers"])
    assert info.value.code == 0 and capsys.readouterr().out.startswith("mtrain ")


@pytest.mark.parametrize("isolated", [
    pytest.param(True, marks=pytest.mark.skipif(not hasattr(os, "fork"),
                                                 reason="worker processes need fork")),
    False,  # robust3-s40: on a thread (an object handed in, or no fork), no bound at all
])
def test_an_adapter_answer_past_the_bound_is_refused_in_words_each_time(
        tmp_path: Path, isolated: bool) -> None:
    # a 10-million-entry legal list: each request's answer was written out whole (~90 MB),
    # cut off at the bound with the host's output, and the host's next start failed on it:
    # "the adapter's legal() answered with more than 4194304 bytes", then "the adapter's
    # process exited with code 1 while starting" (81 error, 81 crash in 74 s)
    from mtrain.conformance.adapter import ruleset_json
    from mtrain.conformance.adapter_loading import load_adapter
    from mtrain.conformance.inprocess import TimedImplementation
    from mtrain.conformance.process import ProtocolViolation
    from mtrain.conformance.protocol import MAX_LINE
    from mtrain.spec.catalog import catalog
    from mtrain.spec.notation import table_state
    path = write(tmp_path / "huge.py", (
        "from mtrain.conformance.adapter import ReferenceImplementation\n"
        "class Huge(ReferenceImplementation):\n"
        "    def legal(self, ruleset, state):  # as many entries as would fit, and one\n"
        f"        return ['draw'] * ({MAX_LINE // 2} + 1)\n"
        "    def winners(self, ruleset, state):  # few entries, too many bytes\n"
        f"        return ['x' * {MAX_LINE}]\n"))
    rs = catalog().ruleset("pagat")
    state = table_state({"hands": {0: ["5-3", "rest"], 1: ["11-11"]}}, rs)
    spec = f"{path}:Huge"
    impl = (TimedImplementation(None, 30, spec) if isolated
            else TimedImplementation(load_adapter(spec)[0], 30))
    assert impl.isolated is isolated
    bound = f": an answer holds at most {MAX_LINE:,} bytes of JSON (as over the protocol); " \
        "refused unread"
    try:
        for _ in range(2):  # the second as the first: no crash between
            with pytest.raises(ProtocolViolation) as info:
                impl.legal(ruleset_json(rs), state)
            assert info.value.message == (f"the adapter's legal() returned a list of "
                                          f"{MAX_LINE // 2 + 1:,} entries{bound}")
        with pytest.raises(ProtocolViolation) as info:
            impl.winners(ruleset_json(rs), state)
        size = len('{"value":["') + MAX_LINE + len('"]}')
        assert info.value.message == (f"the adapter's winners() returned a value that makes "
                                      f"an answer of {size:,} bytes of JSON{bound}")
        assert len(impl.failures) == 3
    finally:
        impl.close()



# --- robust3-s40: the last leftovers -------------------------------------------------------


def test_every_command_is_stopped_by_sigterm_as_by_an_interrupt(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # situations, docs, render, state, rules, explain and variants died of SIGTERM's
    # default (exit -15, no word); every command the parser registers is walked, so that
    # a new one cannot forget
    import argparse
    import importlib
    import signal

    from mtrain.cli import COMMANDS, build_parser

    def terminated(args: object) -> int:
        if signal.getsignal(signal.SIGTERM) in (signal.SIG_DFL, None):
            raise AssertionError("SIGTERM would end the command where it stands")
        # The installed handler, called as the signal would call it: a real os.kill may run
        # it inside a weakref callback the collector fires then, where its exception is lost.
        handler = signal.getsignal(signal.SIGTERM)
        assert callable(handler)
        handler(signal.SIGTERM, None)
        raise AssertionError("SIGTERM did not stop the command")

    before = signal.getsignal(signal.SIGTERM)
    for name in COMMANDS:
        monkeypatch.setattr(importlib.import_module(f"mtrain.commands.{name}"), "run",
                            terminated)
    sub = next(a for a in build_parser()._actions
               if isinstance(a, argparse._SubParsersAction))
    assert sorted(sub.choices) == sorted(COMMANDS)
    for name, parser in sub.choices.items():
        assert parser.get_default("func")(argparse.Namespace()) == 143, name
        assert capsys.readouterr().err == f"mtrain {name}: interrupted\n", name
    assert signal.getsignal(signal.SIGTERM) == before  # each put it back


def test_a_shrunk_deal_is_summed_up_in_tiles_seats_and_steps(
        capsys: pytest.CaptureFixture[str]) -> None:
    # "91 -> 1 tiles, seats and steps written": `order: sorted` counted as one item, and
    # the seats a deal shrank from (4 to 2) not at all
    from mtrain.commands.fuzz import print_report
    from mtrain.conformance.fuzz.findings import Group
    from mtrain.conformance.fuzz.judge import Disagreement, Probe
    from mtrain.conformance.fuzz.results import Occurrence
    from mtrain.conformance.fuzz.run import FuzzReport
    from mtrain.spec import tiles as T
    order = [T.NAMES[t] for t in range(91)]  # a double-12 set, as dealt
    before = Probe("deal", "pagat", deal={"players": 4, "order": order})
    after = Probe("deal", "pagat", deal={"players": 2, "order": "sorted"})
    table = Probe("apply", "pagat", table={"hands": {0: ["5-3", "rest"], 1: ["11-11"]},
                                           "boneyard": ["1-0", "rest"]}, steps=("draw",))
    seen = Disagreement("deals wrong (DEAL-1)", ("deal: hands differ",))
    groups = [Group(seen.signature, 3, occurrence, occurrence, ["pagat"], shrunk=shrunk,
                    shrink_tries=7, shrink_seconds=0.25)
              for occurrence, shrunk in [(Occurrence(before, seen, 0, 0, 0, 4), after),
                                         (Occurrence(table, seen, 0, 0, 1, 2), table)]]
    print_report(FuzzReport(groups=groups), None)  # type: ignore[arg-type]
    shrunk = [line.strip() for line in capsys.readouterr().out.splitlines() if "shrunk" in line]
    assert shrunk == [
        "shrunk in 0.2 s (7 tries): 91 tiles, 4 seats and 0 steps written -> the tiles dealt "
        "in sorted order, 2 seats and 0 steps",
        "shrunk in 0.2 s (7 tries): 3 tiles, 2 seats and 1 step written -> 3 tiles, 2 seats "
        "and 1 step"]


@pytest.mark.parametrize("library, reader", [("yaml", "safe_load"), ("json", "loads")])
def test_an_adapter_named_like_a_library_does_not_replace_it(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        library: str, reader: str) -> None:
    # yaml.py was loaded as sys.modules["yaml"]: an `import yaml` while it loaded (its own,
    # the harness's it imports) got it, half made ("importing yaml.py failed:
    # AttributeError: module 'yaml' has no attribute 'SafeLoader'"), and every later one
    # of the run (identify writing its rule-set file) got the adapter
    import importlib
    import sys

    from mtrain.conformance.adapter_loading import load_adapter
    own = sys.modules[library]
    monkeypatch.setitem(sys.modules, library, own)  # put back, whatever the load does
    path = write(tmp_path / f"{library}.py", (
        f"import {library}\n"
        "from mtrain.conformance.adapter import ReferenceImplementation\n"
        "class Engine(ReferenceImplementation):\n"
        f"    options = {library}.{reader}('{{\"a\": 1}}')  # its settings, read by the library\n"))
    engine = load_adapter(f"{path}:Engine")[0]
    assert engine.options == {"a": 1} and engine.info()["name"]
    assert sys.modules[library] is own and importlib.import_module(library) is own
    fixture = Path(__file__).parent / "data" / "fixtures" / "basic" / "play.yaml"
    assert main(["lint", "--no-scopes", str(fixture)]) == 0  # the harness reads YAML on
    assert " 0 errors, " in capsys.readouterr().out
