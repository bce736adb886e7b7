"""Bad inputs and misbehaving engines, round 28 (robust-s56): an implementation's command
holding shell syntax (`2>/dev/null`, `| tee log`, `; echo`, `~/engine.py`, `$HOME`) ran,
each piece handed to the program as an argument, the run green and the log, the pipe or
the value meant never made: no shell runs the command (docs/protocol.md). A fixture's file
or its place as a report prints it (`FILE:LINE`) given for its id, or a place given for a
file, was "no fixture" or "no such file" and no more. A rule-set file with a hand-size
table for each of several sets was three schema errors about player counts."""

from __future__ import annotations

from pathlib import Path

import pytest

from mtrain.cli import main
from mtrain.conformance.process import ConfigurationError, command_argv


def refused(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """The one line a refused command prints: exit 2, nothing on stdout, no traceback."""
    assert main(list(args)) == 2
    out, err = capsys.readouterr()
    assert out == "" and "Traceback" not in err, (out, err)
    return err.strip().splitlines()[-1]


@pytest.mark.parametrize("command, mark, word, meaning", [
    ("mtrain serve 2>/dev/null", "`>`", "2>/dev/null", "a redirection"),
    ("mtrain serve | tee log", "`|`", "|", "a pipe"),
    ("mtrain serve; echo done", "`;`", "serve;", "the end of a command"),
    ("mtrain serve && echo", "`&`", "&&", "a list (&&) or a job in the background (&)"),
    ("engine (fast)", "`(`", "(fast)", "a subshell"),
    ("python ~/engine.py", "`~`", "~/engine.py", "the home folder"),
    ("python $HOME/engine.py", "`$`", "$HOME/engine.py", "an expansion"),
    ('python engine.py --log="$TMPDIR/x"', "`$`", '--log="$TMPDIR/x"', "an expansion"),
    ("python engine.py ${X}", "`$`", "${X}", "an expansion"),
    ("python `pwd`/engine.py", "a backtick", "'`pwd`/engine.py'", "an expansion"),
], ids=["redirect", "pipe", "semicolon", "and", "subshell", "tilde", "variable",
        "quoted-variable", "braces", "backtick"])
def test_shell_syntax_outside_quotes_is_refused_naming_it(command: str, mark: str,
                                                          word: str, meaning: str) -> None:
    # each ran: the program got `2>/dev/null`, `|`, `tee`, `log` as its arguments
    with pytest.raises(ConfigurationError) as info:
        command_argv(command)
    shown = word if word.startswith("'") else f"`{word}`"
    assert str(info.value).startswith(
        f"{mark} (in {shown}) is what a shell reads as {meaning}"), info.value
    assert "the command runs without a shell" in str(info.value), info.value


def test_conform_refuses_an_impl_holding_a_redirection_in_one_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    line = refused(capsys, "conform", "--impl", "mtrain serve 2>/dev/null", "--situations",
                   "0", "-k", "marker-001")
    assert line == ("mtrain conform: --impl: `>` (in `2>/dev/null`) is what a shell reads as "
                    "a redirection, but the command runs without a shell: the program would "
                    "get it as its argument's text; quote it if the program takes it so (to "
                    "run a shell line: --impl \"sh -c '...'\")"), line


@pytest.mark.parametrize("command, argv", [
    ("prog '|' 'a;b' '2>x'", ["prog", "|", "a;b", "2>x"]),  # quoted: the program's text
    ("prog \\| \\~/x", ["prog", "|", "~/x"]),  # escaped alike
    ("java -cp . Main$Engine", ["java", "-cp", ".", "Main$Engine"]),  # a Java inner class
    ("prog '$HOME' a~b \"~/x\"", ["prog", "$HOME", "a~b", "~/x"]),  # no shell expands them
    ("sh -c 'engine 2>/dev/null | tee log'", ["sh", "-c", "engine 2>/dev/null | tee log"]),
    ('node "my engine.js" --seed 3', ["node", "my engine.js", "--seed", "3"]),
])
def test_a_command_with_no_shell_syntax_outside_quotes_is_split_as_before(
        command: str, argv: list[str]) -> None:
    assert command_argv(command) == argv


# --- a fixture's place where its id belongs ------------------------------------------------

FILE = "conformance/fixtures/doubles/follow-up.yaml"
"""A corpus file whose first two fixtures, doubles-001 and doubles-002, open at lines 7
and 61 (conform's report shows `doubles-002 [pagat]  FILE:61`)."""


@pytest.mark.parametrize("command", ["render", "state"])
@pytest.mark.parametrize("given, said", [
    (FILE, f"{FILE} is a file, not a fixture id; give the id"),
    (f"{FILE}:61", f"{FILE} is a file, not a fixture id (the fixture at line 61 is "
                   "doubles-002); give the id"),
    (f"{FILE}:8", f"{FILE} is a file, not a fixture id; give the id"),
    ("conformance/fixtures", "conformance/fixtures is a folder, not a fixture id"),
], ids=["file", "place", "line-of-no-fixture", "folder"])
def test_a_fixture_file_or_place_given_for_its_id_is_told_so(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, command: str,
        given: str, said: str) -> None:
    # "no fixture 'conformance/fixtures/doubles/follow-up.yaml:61'", and nothing more
    monkeypatch.chdir(Path(__file__).resolve().parents[1])
    line = refused(capsys, command, given)
    assert line.startswith(f"mtrain {command}: no fixture {given!r}") and said in line, line
    assert line.endswith("with --fixtures if it is not the shipped corpus"), line


def test_an_id_that_is_no_path_is_told_as_before(capsys: pytest.CaptureFixture[str]) -> None:
    assert refused(capsys, "render", "doubles-0001") == "mtrain render: no fixture 'doubles-0001'"


@pytest.mark.parametrize("words, said", [
    (["lint", f"{FILE}:61"], "mtrain lint: "),
    (["conform", "--fixtures", f"{FILE}:61", "--situations", "0"], "mtrain conform: --fixtures: "),
    (["state", "doubles-002", "--fixtures", f"{FILE}:61"], "mtrain state: --fixtures: "),
], ids=["lint", "conform", "state"])
def test_a_fixtures_place_given_for_its_file_names_the_file_and_the_fixture(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, words: list[str],
        said: str) -> None:
    # "no such file or folder: conformance/fixtures/doubles/follow-up.yaml:61", and no more
    monkeypatch.chdir(Path(__file__).resolve().parents[1])
    assert refused(capsys, *words) == (
        f"{said}no such file or folder: {FILE}:61, which names line 61 of {FILE} (a "
        "fixture's place, as a report writes it) (the fixture at line 61 is doubles-002): "
        "name the file, and the fixture by its id")


# --- a hand-size table per set -------------------------------------------------------------


def test_a_rule_set_file_giving_a_hand_table_per_set_is_told_one_file_plays_one_set(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # three schema errors: each set "is not a number of players", its table "expected an
    # integer, got a mapping"
    rules = tmp_path / "house.yaml"
    rules.write_text("name: house\nbase: pagat\noptions:\n  hand_sizes:\n"
                     "    double-12: {2: 15, 3: 15}\n    double-9: {2: 10}\n")
    line = refused(capsys, "conform", "--rules", str(rules), "--situations", "0")
    assert line == (f"mtrain conform: {rules}:4: hand_sizes: a table for each of 'double-12', "
                    "'double-9': a rule-set file plays one set, its tile_set, and gives one "
                    "table (players: tiles, `{2: 15, 3: 13}`); write a file for each set"), line


def test_a_table_for_a_player_count_is_still_told_by_the_schema(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    rules = tmp_path / "house.yaml"
    rules.write_text("name: house\nbase: pagat\noptions:\n  hand_sizes: {2: 15, 3: {a: 1}}\n")
    line = refused(capsys, "conform", "--rules", str(rules), "--situations", "0")
    assert line == (f"mtrain conform: {rules}:4: options.hand_sizes.3: expected an integer, got "
                    "a mapping ({'a': 1})"), line
