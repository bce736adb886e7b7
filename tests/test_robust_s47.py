"""Inputs the earlier robustness rounds let through (robust-s47): a `when:` list holding an
empty condition (`[{}, {}]`: every rule set, the others idle), a condition twice, or one
lying within another, loaded silently; a fixture folder's hidden files (an editor's lock
`.#x.yaml`, a link to nowhere; a swap or backup copy `.x.yaml`) were read as fixtures;
`mtrain state --variant NAME` wrote the table under a rule set no entry of the fixture
speaks about."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from test_robust_s46 import fixture, lint_errors, write

from mtrain.cli import main

# --- a `when:` list whose every condition adds rule sets ---------------------------------------


@pytest.mark.parametrize("when, line, said", [
    # loaded: every rule set, twice, and no word of the condition meant
    ("[{}, {}]", 20, "`when` condition 1 is empty, which is every rule set and leaves the "
     "others idle: give it its options and values, or write `when: {}` for every rule set"),
    ("[{tile_set: [double-9]}, {}]", 20, "`when` condition 2 is empty, which is every rule "
     "set and leaves the others idle: give it its options and values, or write `when: {}` "
     "for every rule set"),
    ("\n        - {tile_set: [double-9]}\n        - {tile_set: double-9}", 22,
     "`when` condition 2 repeats condition 1: it adds no rule set; leave it out or widen it"),
    ("[{tile_set: [double-9], doubles: [open]}, {tile_set: [double-9, double-15]}]", 20,
     "`when` condition 1 lies within condition 2: it adds no rule set; leave it out or "
     "widen it")])
def test_a_when_condition_that_adds_no_rule_set_is_refused_at_its_line(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, when: str, line: int,
        said: str) -> None:
    path = fixture(tmp_path, when=f"      when: {when}\n")
    assert lint_errors(capsys, "--no-scopes", path) == [
        f"error: {path}:{line}: fixture own-001: {said}"]


@pytest.mark.parametrize("when", ["[{}]", "{}", "[{tile_set: [double-9]}, {doubles: [open]}]"])
def test_when_conditions_each_adding_rule_sets_still_load(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, when: str) -> None:
    # `[{}]` is `{}`, every rule set (docs/fixture-format.md); two overlapping conditions
    # each take in rule sets the other does not
    path = fixture(tmp_path, when=f"      when: {when}\n")
    assert main(["lint", "--no-scopes", path]) == 0, capsys.readouterr().out


# --- a fixture folder's hidden files --------------------------------------------------------------


def test_hidden_files_in_a_fixture_folder_are_skipped(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # an editor's lock (a link to nowhere) was "not a regular file", its swap copy and a
    # backup in .git each another own-001: three errors for one good fixture
    folder = tmp_path / "corpus"
    (folder / ".git").mkdir(parents=True)
    text = Path(fixture(tmp_path)).read_text(encoding="utf-8")
    write(folder / "own.yaml", text)
    write(folder / ".own.yaml", text)
    write(folder / ".git" / "own.yaml", text)
    write(folder / "own.yaml~", text)  # a backup: not a `.yaml` name, never read
    os.symlink("user@host.1234:1700000000", folder / ".#own.yaml")
    assert main(["lint", "--no-scopes", str(folder)]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("1 fixtures, ")


def test_a_folder_of_hidden_files_alone_names_them(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    folder = tmp_path / "corpus"
    folder.mkdir()
    write(folder / ".own.yaml", Path(fixture(tmp_path)).read_text(encoding="utf-8"))
    for command in (["lint", "--no-scopes", str(folder)],
                    ["conform", "--fixtures", str(folder), "--variant", "pagat"]):
        assert main(command) == 2
        assert capsys.readouterr().err == (
            f"mtrain {command[0]}: no fixtures found under {folder}; skipped as hidden (a "
            "name beginning with `.`, as editors' lock and swap files are): "
            f"{folder / '.own.yaml'}; rename a fixture file so to have it read\n")


def test_a_hidden_file_named_on_its_own_is_read(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = write(tmp_path / ".own.yaml", Path(fixture(tmp_path)).read_text(encoding="utf-8"))
    assert main(["lint", "--no-scopes", path]) == 0, capsys.readouterr().out


# --- mtrain state under a rule set the fixture does not speak about -------------------------------

HOUSE = "name: house\nbase: {base}\noptions:\n  hand_sizes: {{2: 15, 3: 15, 4: 15}}\n"


@pytest.mark.parametrize("flag, value, base", [
    # each wrote a state, stepped under rules no entry of own-001 checks
    ("--variant", "puremco", ""), ("--variant", "double-10", ""),
    ("--rules", "house.yaml", "puremco")])
def test_state_under_a_rule_set_no_entry_speaks_about_is_refused(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, flag: str, value: str,
        base: str) -> None:
    if base:
        value = write(tmp_path / value, HOUSE.format(base=base))
    assert main(["state", "own-001", "--fixtures", fixture(tmp_path), flag, value]) == 2
    assert capsys.readouterr().err == (
        f"mtrain state: {flag} {value}: no entry of own-001 speaks about it (they speak about "
        "pagat); conform would not run it there: give a rule set it speaks about\n")


@pytest.mark.parametrize("flag, value", [
    ("--variant", "pagat"), ("--rules", "house.yaml"),  # pagat's rules, a table of its own
    ("--variant", "puremco")])  # taken in by the entry's `when`
def test_state_under_a_rule_set_an_entry_speaks_about_is_written(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, flag: str, value: str) -> None:
    if flag == "--rules":
        value = write(tmp_path / value, HOUSE.format(base="pagat"))
    # puremco's first turn is single: the `when` takes it in (whether the entry holds
    # there is lint's to check; state asks only whether an entry speaks about it)
    when = "      when: {first_turn: [single]}\n" if value == "puremco" else ""
    path = fixture(tmp_path, when=when)
    assert main(["state", "own-001", "--fixtures", path, flag, value]) == 0, (
        capsys.readouterr().err)
