"""Command-line arguments a demanding user gets wrong: each is one clear line on stderr
and exit 2 (or a failed run, never a green one that tested nothing)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mtrain.cli import main

FIXTURES = Path(__file__).resolve().parent / "data" / "fixtures"


def one_error(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    try:
        rc = main(list(args))
    except SystemExit as e:  # argparse: the usage, then the error
        rc = int(e.code or 0)
    captured = capsys.readouterr()
    assert rc == 2, captured.out + captured.err
    assert "Traceback" not in captured.err
    return captured.err.splitlines()[-1]


@pytest.mark.parametrize("program, fault", [
    ("cd", "'cd' is a shell built-in, not a program"),
    ("exit", "'exit' is a shell built-in, not a program"),
    ("no-such-program-here", "no program 'no-such-program-here' on PATH"),
])
@pytest.mark.parametrize("command", ["conform", "fuzz", "identify"])
def test_a_program_that_cannot_be_run_is_named(capsys: pytest.CaptureFixture[str],
                                               command: str, program: str,
                                               fault: str) -> None:
    err = one_error(capsys, command, "--impl", program)
    assert err == f"mtrain {command}: cannot run {program}: {fault}" + (
        "; the command runs without a shell (to run a shell line: --impl \"sh -c '...'\")"
        if "built-in" in fault else "")


def test_a_folder_or_a_plain_file_as_the_program(capsys: pytest.CaptureFixture[str],
                                                 tmp_path: Path) -> None:
    err = one_error(capsys, "conform", "--impl", str(tmp_path))
    assert err.endswith(f"cannot run {tmp_path}: {tmp_path} is a folder, not a program")
    script = tmp_path / "engine.py"
    script.write_text("print('hi')\n")
    err = one_error(capsys, "conform", "--impl", str(script))
    assert err.endswith(f"{script} is not executable (chmod +x it, or name its interpreter: "
                        f"--impl \"python {script}\")")


@pytest.mark.parametrize("command", ["conform", "situations pagat"])
def test_an_empty_k_pattern_is_refused(capsys: pytest.CaptureFixture[str],
                                       command: str) -> None:
    err = one_error(capsys, *command.split(), "-k", " ")
    assert "argument -k: an empty pattern matches every fixture" in err


def test_lint_of_a_folder_with_no_fixture_is_not_green(capsys: pytest.CaptureFixture[str],
                                                      tmp_path: Path) -> None:
    assert one_error(capsys, "lint", str(tmp_path)) == (
        f"mtrain lint: no fixtures found under {tmp_path}")


def test_conform_of_a_file_that_does_not_load_says_so(capsys: pytest.CaptureFixture[str],
                                                      tmp_path: Path) -> None:
    empty = tmp_path / "empty.yaml"
    empty.write_text("# nothing yet\n")
    rc = main(["conform", "--fixtures", str(empty)])
    out = capsys.readouterr().out
    assert rc == 1
    assert f"LOAD ERROR {empty}: empty file" in out
    assert "nothing ran: no fixture could be loaded" in out.splitlines()[-1]


@pytest.mark.parametrize("order", ["mine-first", "mine-second"])
def test_diff_with_a_rule_played_other(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                       order: str) -> None:
    mine = tmp_path / "mine.yaml"
    mine.write_text("base: pagat\noptions:\n  follow_up: other\n")
    args = [str(mine), "pagat"] if order == "mine-first" else ["pagat", str(mine)]
    side = "A" if order == "mine-first" else "B"
    assert main(["diff", *args, "--no-situations"]) == 0  # was a traceback
    out = capsys.readouterr().out
    assert f"the reference engine cannot play {side} (follow_up=other)" in out
    assert "option follow_up: " in out


def test_simulate_a_rule_played_other(capsys: pytest.CaptureFixture[str],
                                      tmp_path: Path) -> None:
    mine = tmp_path / "mine.yaml"
    mine.write_text("base: pagat\noptions:\n  follow_up: other\n")
    err = one_error(capsys, "simulate", "--rules", str(mine), "--players", "4", "--rounds", "1")
    assert err == ("mtrain simulate: mine plays follow_up `other`: the reference engine plays "
                   "only known values, so it cannot simulate it")


@pytest.mark.parametrize("args, message", [
    (["mutants", "-m", "no-such-bug"],
     "mtrain mutants: unknown mutant 'no-such-bug' ("),  # was a ValueError traceback
    (["mutants", "-m", "marker-never-remove", "--blame"],
     "mtrain mutants: unknown mutant 'marker-never-remove'; did you mean marker-never-removed,"),
    (["mutants", "--jobs", "0"], "argument -j/--jobs: must be at least 1: '0'"),
    (["mutants", "--need", "-1"], "argument --need: must be at least 0: '-1'"),
    (["check", "--jobs", "0"], "argument --jobs: must be at least 1: '0'"),
])
def test_mutants_and_check_arguments(capsys: pytest.CaptureFixture[str], args: list[str],
                                     message: str) -> None:
    assert message in one_error(capsys, *args)


def test_check_dump_into_a_file_is_refused_before_the_checks(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    a_file = tmp_path / "plain"
    a_file.write_text("")
    # was a FileExistsError traceback, after the checks had run
    assert one_error(capsys, "check", "--only", "options", "--dump", str(a_file)) == (
        f"mtrain check: --dump {a_file}: {a_file} is a file, not a folder")


def test_diff_of_a_table_with_a_hole_is_a_difference_not_a_traceback(tmp_path: Path) -> None:
    from mtrain.conformance import diffing
    from mtrain.conformance.fixture import load_corpus
    from mtrain.spec.catalog import catalog

    mine = tmp_path / "mine.yaml"
    mine.write_text("base: pagat\noptions:\n  hand_sizes: {2: 15, 4: 15}\n")
    cat = catalog()
    ra, rb = cat.rules_file(mine), cat.ruleset("pagat")
    fixtures, _ = load_corpus()
    three = next(fx for fx in fixtures if fx.id == "doubles-031")  # three seats: DEAL-7 refuses
    # the state read raised RefusedSetup out of `mtrain diff`; now that side is an error
    assert diffing._outcome_differs(three, ra, rb)
    assert not diffing._outcome_differs(three, rb, rb)


@pytest.mark.parametrize("args, message", [
    # a count of 20 digits built a list of that many ids: it never finished
    (["conform", "--situations", "9" * 20], "argument --situations: must be at most 20,000"),
    (["conform", "--situations", "9" * 5000], "argument --situations: too large a number"),
    # -n 0 said "no situation matches -k " with no -k given
    (["situations", "pagat", "-n", "0"], "argument -n: must be at least 1: '0'"),
    (["situations", "pagat", "-n", "-1"], "argument -n: must be at least 1: '-1'"),
    (["situations", "pagat", "-n", "20001"], "argument -n: must be at most 20,000: '20001'"),
])
def test_situation_counts_are_bounded(capsys: pytest.CaptureFixture[str], args: list[str],
                                      message: str) -> None:
    assert message in one_error(capsys, *args)


def test_fuzz_games_are_bounded_and_a_long_run_stops_on_time(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    import time

    # a 20-digit count planned every game first: it never finished
    assert one_error(capsys, "fuzz", "--mutant", "wrong-hand-size", "--games", "9" * 20) == (
        "mtrain fuzz: error: --games must be at most 1,000,000 (--max-seconds stops a long run "
        "at a time) (see 'mtrain fuzz --help')")
    start = time.process_time()
    # a mutant found at the first deal of every game (wrong-hand-size shows only when a
    # game of five players comes up: on a loaded machine 0.5 s of wall time played two
    # games of fewer and found nothing, exit 0)
    rc = main(["fuzz", "--mutant", "wrong-engine-double", "--games", "1000000", "--max-seconds",
               "0.5", "--out", str(tmp_path), "--shrink-seconds", "0.5"])
    spent = time.process_time() - start
    out = capsys.readouterr().out
    assert rc == 1 and "stopped: --max-seconds 0.5 reached" in out, out
    assert "games not played" in out
    assert spent < 6, spent  # a million games were planned (and skipped one by one): 16 s


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf"])
def test_identify_refuses_a_timeout_that_is_no_time(capsys: pytest.CaptureFixture[str],
                                                    value: str) -> None:
    # was taken: 0 and nan gave up on the hello, -1 killed the adapter's worker at once
    err = one_error(capsys, "identify", "--impl", "true", "--timeout", value)
    assert err == ("mtrain identify: error: argument --timeout: must be a positive number "
                   f"of seconds: '{value}' (see 'mtrain identify --help')")


def test_a_k_pattern_that_matches_nothing_among_others_is_told(
        capsys: pytest.CaptureFixture[str]) -> None:
    # (since robust-s48 refused, before any program starts: test_robust_s48)
    rc = main(["conform", "--fixtures", str(FIXTURES), "--variant", "pagat", "-k",
               "basic-001", "-k", "basci-002"])
    captured = capsys.readouterr()
    assert rc == 2 and captured.out == ""
    assert captured.err.startswith("mtrain conform: -k basci-002: no fixture id matches it, "
                                   "nor any id of a situation from play (play-KIND-NNN); "
                                   "ids close to it: basic-002")
    rc = main(["conform", "--fixtures", str(FIXTURES), "--variant", "pagat", "-k", "zzz"])
    captured = capsys.readouterr()
    assert rc == 2 and "-k zzz: no fixture id matches it" in captured.err
