"""Inputs the earlier robustness rounds let through (robust-s40): each is refused by name,
at its file and line where it has one, never read past nor met with a traceback; every
usage error names its command and how to get its help."""

from __future__ import annotations

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
