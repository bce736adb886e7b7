"""Runs as hostile ground (issue 23): a full disk under stdout, two rule-set files of one
name, text from an implementation that would rewrite the terminal, a report too large to
hold twice; identify and fuzz against broken engines: each finishes, owns every process
it started, and says what went wrong in one clear line."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest

from mtrain.cli import main
from mtrain.conformance.report import (
    Report,
    Result,
    render_junit,
    render_markdown,
    render_text,
    write_json,
)
from mtrain.conformance.report_html import render_html
from mtrain.conformance.untrusted import shown

HERE = Path(__file__).resolve().parent
FIXTURES = HERE / "data" / "fixtures"
RULES = HERE.parent / "docs" / "examples" / "double-6.yaml"


def mtrain(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mtrain", *args], capture_output=True,
                          text=True, timeout=timeout)


def broken(script: str, *args: object) -> str:
    return shlex.join([sys.executable, str(HERE / "broken_impls" / script), *map(str, args)])


# --- a write error on stdout ------------------------------------------------------------


@pytest.mark.parametrize("args", [
    ["variants", "--json"],
    ["rules", "pagat"],
    ["conform", "--fixtures", str(FIXTURES)],
    ["conform", "--fixtures", str(FIXTURES), "--format", "json"],
])
def test_a_full_disk_under_stdout_is_one_line(args: list[str]) -> None:
    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, "-m", "mtrain", *args], stdout=full,
                              stderr=subprocess.PIPE, text=True, timeout=120)
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr == (f"mtrain {args[0]}: cannot write the output: No space left on "
                           "device\n")


# --- rule-set names are unique within a run --------------------------------------------


def test_two_rule_set_files_of_one_name(capsys: pytest.CaptureFixture[str],
                                        tmp_path: Path) -> None:
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    a.write_text("name: mine\nbase: pagat\noptions: {}\n")
    b.write_text("name: mine\nbase: puremco\noptions: {}\n")
    rc = main(["conform", "--fixtures", str(FIXTURES), "--rules", str(a), "--rules", str(b)])
    err = capsys.readouterr().err
    assert rc == 2 and err == (
        f"mtrain conform: --rules {b}: rule set 'mine' is also the name of {a}, with other "
        "rules; give each a name of its own (`name:` in the file)\n")
    c = tmp_path / "c.yaml"  # the same rules under the same name: run once
    c.write_text(a.read_text())
    rc = main(["conform", "--fixtures", str(FIXTURES), "--rules", str(a), "--rules", str(c),
               "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    assert rc == 0 and list(report["variants"]) == ["mine"]


def test_a_rule_set_file_named_like_a_variant_it_is_not(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    a = tmp_path / "a.yaml"
    a.write_text("name: pagat\nbase: puremco\noptions: {}\n")
    rc = main(["conform", "--fixtures", str(FIXTURES), "--variant", "pagat", "--rules", str(a)])
    err = capsys.readouterr().err
    assert rc == 2 and err.startswith(
        f"mtrain conform: --rules {a}: rule set 'pagat' is also the name of --variant pagat")


# --- an implementation's text is shown escaped -----------------------------------------

RLO = "evil\u202eengine\x1b[31m"


def hostile_report() -> Report:
    result = Result("basic-001", "pagat", "fail", [f"refused citing {RLO}"],
                    stderr=f"panic {RLO}\nline two", clauses=("TRAIN-2",))
    return Report([result], {"name": RLO, "command": "x"}, warnings=[f"says {RLO}"])


def test_untrusted_text_is_escaped() -> None:
    assert shown(RLO) == "evil\\u202eengine\\x1b[31m"
    assert shown("tab\tand\nnewline stay, é and → too") == "tab\tand\nnewline stay, é and → too"


@pytest.mark.parametrize("render", ["text", "rich", "markdown", "html", "junit"])
def test_reports_show_an_implementations_words_escaped(render: str) -> None:
    report = hostile_report()
    if render in ("text", "rich"):
        import io

        out = io.StringIO()
        render_text(report, out, rich=render == "rich", verbose=True)
        page = out.getvalue()
    else:
        page = {"markdown": render_markdown, "html": render_html,
                "junit": render_junit}[render](report)
    assert "\u202e" not in page and "evil\\u202eengine" in page
    if render != "rich":  # rich colours with escape codes of its own
        assert "\x1b" not in page


def test_a_hello_name_with_a_bidi_override(capsys: pytest.CaptureFixture[str]) -> None:
    impl = broken("hello.py", json.dumps({"name": RLO}))
    rc = main(["conform", "--impl", impl, "--fixtures", str(FIXTURES), "--variant", "pagat"])
    out = capsys.readouterr().out
    assert rc == 0 and "\u202e" not in out and "\x1b" not in out
    assert out.startswith("mtrain conform: evil\\u202eengine\\x1b[31m")


# --- the JSON report is written one result at a time ----------------------------------------


class Sink:
    def __init__(self) -> None:
        self.size = 0

    def write(self, text: str) -> int:
        self.size += len(text)
        return len(text)


def test_the_json_report_is_streamed() -> None:
    results = [Result(f"basic-{i:05d}", "pagat", "pass", path="x.yaml", line=i,
                      clauses=("TRAIN-2", "TURN-1"), rerun="mtrain conform -k x" * 4)
               for i in range(20_000)]
    report = Report(results)
    sink = Sink()
    tracemalloc.start()
    try:
        write_json(report, sink)  # type: ignore[arg-type]
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # the whole text is 7.5 MB, and its data as much again; one result is under 1 KB
    assert sink.size > 7_000_000 and peak < 2_000_000, peak
