"""Inputs the earlier robustness rounds let through (robust-s50): a line written after a
process's last answer (its last request answered twice) was charged to the last task its
worker took, which, under --jobs as with one job, was as often as not one that asked the
program nothing (not applicable there): the line sat in a not-applicable result, and the
run passed."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest
from command_errors import FAR, one_error, plays, write

from mtrain.cli import main

# --- 1. the last request answered twice, under --jobs ------------------------------------------

# the reference server declaring pagat alone, which at the shutdown writes its last answer
# again before the shutdown's: to the harness, the process's last request answered twice
# (the second line comes after the last answer read, before the shutdown's, at any load)
TWICE_AT_THE_END = """\
import json, sys
from mtrain.conformance.serve import Server
server = Server()
last = ""
for line in sys.stdin:
    answer, stop = server.handle(line)
    if "variants" in answer:
        answer["variants"] = ["pagat"]
    text = json.dumps(answer) + "\\n"
    sys.stdout.write((last if stop else "") + text)
    sys.stdout.flush()
    last = text
    if stop:
        break
"""

# a fixture for pagat and puremco (from line 1 and 20): under puremco, which the program
# above does not play, it is not applicable and asks nothing
PLAYS = plays("ends-00{n}", "pagat, puremco")


@pytest.mark.slow  # plays fixtures against one program per job
@pytest.mark.parametrize("jobs", [1, 2])
def test_the_last_request_answered_twice_is_charged_to_the_last_task_that_asked(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, jobs: int) -> None:
    # the tasks run in order ends-001 [pagat], ends-001 [puremco], ends-002 [pagat],
    # ends-002 [puremco]: the last, not applicable, took the line, and the run passed
    # (exit 0); under --jobs 2 each worker's last task was as often as not one of puremco.
    # Whichever worker asks ends-002 [pagat], nothing it takes after asks anything: the
    # line its program writes at the shutdown is that result's error
    program = shlex.join([sys.executable, write(tmp_path / "twice.py", TWICE_AT_THE_END)])
    fixtures = write(tmp_path / "ends.yaml", PLAYS.format(n=1) + PLAYS.format(n=2))
    code = main(["conform", "--impl", program, "--fixtures", fixtures, "--variant", "pagat",
                 "--variant", "puremco", "--jobs", str(jobs), "--timeout", str(FAR),
                 "--format", "json"])
    results = json.loads(capsys.readouterr().out)["results"]
    assert code == 1, results
    seen = {(r["fixture"], r["variant"]): r for r in results}
    assert {k: r["status"] for k, r in seen.items() if k[1] == "puremco"} == {
        ("ends-001", "puremco"): "not-applicable", ("ends-002", "puremco"): "not-applicable"}
    last = seen[("ends-002", "pagat")]
    assert last["status"] == "error", last
    assert last["messages"][-1].startswith(
        "after its answer to the last request the implementation wrote another line, read "
        "only at the shutdown: '{\"id\": "), last["messages"]
    assert not any("after its answer" in m for r in results if r["variant"] == "puremco"
                   for m in r["messages"]), results


# --- the hunt: an output folder tried before the work -------------------------------------------


@pytest.mark.parametrize("under", ["missing/docs", "/proc/mtrain-docs"])
def test_docs_refuses_a_folder_it_cannot_make_before_computing(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        under: str) -> None:
    # docs computed its reports (minutes: `mtrain check`, the mutants) before the writing
    # found a folder it could not make, or made a tree above the folder named (a typo at
    # `--out reslts/docs`), where fuzz's --out refuses both before its run
    from mtrain import docgen

    if under.startswith("/proc") and not Path("/proc/self").is_dir():
        pytest.skip("no /proc here")
    asked: list[Path] = []

    def generate(out: Path, compute: bool, log: object) -> dict[str, str]:
        asked.append(out)
        return {}

    monkeypatch.setattr(docgen, "generate", generate)
    out = under if under.startswith("/") else str(tmp_path / under)
    err = one_error(capsys, "docs", "--out", out)
    said = (f"no such folder: {tmp_path / 'missing'} (the folder named is made, not the "
            "folders above it)" if not under.startswith("/") else "cannot write there: ")
    assert err.startswith(f"mtrain docs: --out {out}: {said}"), err
    assert asked == [] and not (tmp_path / "missing").exists()


# --- the hunt: a folder of fixtures shared by a link -------------------------------------------


def test_a_linked_folder_of_fixtures_is_read_once(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # rglob does not follow a link to a folder: a folder holding one ran none of its
    # fixtures, said nowhere ("no fixtures found under run", or a run of the others alone).
    # A link back up the tree, or to a folder read already, adds nothing
    from mtrain.conformance.fixture import fixture_files

    shared = tmp_path / "shared"
    shared.mkdir()
    write(shared / "ends.yaml", PLAYS.format(n=1))
    run = tmp_path / "run"
    (run / "own").mkdir(parents=True)
    write(run / "own" / "more.yaml", PLAYS.format(n=2).replace("ordinary play", "plain play"))
    (run / "common").symlink_to(shared, target_is_directory=True)
    (run / "own" / "up").symlink_to(run, target_is_directory=True)  # a loop
    (run / "zz").symlink_to(run / "own", target_is_directory=True)  # a folder read already
    assert fixture_files(run) == [run / "common" / "ends.yaml", run / "own" / "more.yaml"]
    assert main(["lint", "--no-scopes", str(run)]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("2 fixtures, "), "two read"
