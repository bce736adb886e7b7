"""Runs of `mtrain conform`, `mtrain fuzz` and `mtrain identify` that tests in several files
ask alike (the same engine, rule-set file, flags and corpus), done once per test run and
their reports shared (issue 20's loop: ballast's honest-file conform ran in
tests/test_house_engines.py and in tests/test_house46a.py, its fuzz and siding's and shed's
in test_house_engines.py and again in test_house46a.py or test_fuzz_setups.py; junction's
identify in test_house_engines.py and test_identify_bugs.py). conftest.py's `shared_runs`
fixture hands out one `SharedRuns` per process; the value goes through conftest's `once`,
so under xdist the first worker to ask runs it (under a file lock) and the others read its
pickled report.

The key is the command line and the content of every file it names (the engine's program,
its rule-set file) and of the corpus: an engine or fixture changed between two runs of
pytest never reads the other run's report (each run has its own folder anyway), and two
runs that differ in anything the command reads are two keys. A test asks only for what the
command prints or writes, never for who ran it or when: the same value alone, first, last,
or on another worker."""

from __future__ import annotations

import contextlib
import copy
import functools
import hashlib
import io
import json
import shlex
import shutil
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from mtrain.cli import main

Once = Callable[[str, Callable[[], Any]], Any]

EXAMPLES = Path(__file__).parent / "examples"
GONDOLA_FOUR_GAMES = ["--impl", shlex.join([shutil.which("node") or "node",
                                            str(EXAMPLES / "js" / "gondola_engine.js")]),
                      "--rules", str(EXAMPLES / "js" / "gondola-rules.yaml"),
                      "--games", "4", "--seed", "1"]
"""gondola with its planted bugs on (its default), four games of seed 1: the fuzz run both
tests/test_house_s44.py (a deal's and a table's reproducers under a start of its own) and
tests/test_fuzz_own_rules.py (the seats a finding depends on) read, each in the fast loop
(1.5 CPU s a run, about half of it node's)."""


@functools.cache
def corpus_digest() -> str:
    """The shipped corpus's content: every file under the fixture folder, path and bytes."""
    from mtrain.conformance.fixture import FIXTURE_ROOT

    h = hashlib.sha256()
    for path in sorted(p for p in FIXTURE_ROOT.rglob("*") if p.is_file()):
        h.update(str(path.relative_to(FIXTURE_ROOT)).encode() + b"\0")
        h.update(hashlib.sha256(path.read_bytes()).digest())
    return h.hexdigest()


@functools.cache
def _file_digest(path: Path, size: int, mtime_ns: int) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def named_files(argv: Sequence[str]) -> list[Path]:
    """The files a command line names: an argument that is a file, each word of an
    `--impl` command that is one, an `--adapter`'s module (before its last colon)."""
    words: list[str] = []
    for i, arg in enumerate(argv):
        before = argv[i - 1] if i else ""
        if before == "--impl":
            words.extend(shlex.split(arg))
        elif before == "--adapter":
            words.append(arg.rsplit(":", 1)[0])
        else:
            words.append(arg)
    return [Path(w) for w in words if Path(w).is_file()]


def run_key(command: str, argv: Sequence[str]) -> str:
    """What a run of `mtrain COMMAND ARGV` reads: its words, the files they name, the
    corpus (a digest: equal keys, equal runs)."""
    h = hashlib.sha256(json.dumps([command, *argv]).encode())
    for path in named_files(argv):
        stat = path.stat()
        h.update(_file_digest(path.resolve(), stat.st_size, stat.st_mtime_ns).encode())
    h.update(corpus_digest().encode())
    return h.hexdigest()[:24]


class SharedRuns:
    """conform's, fuzz's and identify's reports, one run per distinct command line in a
    test run."""

    def __init__(self, once: Once, root: Path) -> None:
        self.once = once
        self.root = root  # the run's folder (shared by the xdist workers)

    def conform(self, argv: Sequence[str]) -> dict[str, Any]:
        """The JSON report of `mtrain conform ARGV --format json` (written to a file of the
        run's folder; its exit code is the report's to tell)."""
        key = run_key("conform", argv)

        def run() -> dict[str, Any]:
            out = self.root / f"conform-{key}.json"
            main(["conform", *argv, "--format", "json", "--output", str(out)])
            report: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
            return report
        report: dict[str, Any] = copy.deepcopy(self.once(f"conform-{key}", run))
        return report  # a copy: what one test does to it, the next never sees

    def fuzz(self, argv: Sequence[str]) -> tuple[int, dict[str, Any]]:
        """The exit code and JSON report of `mtrain fuzz ARGV --json`, its reproducers
        written to a folder of the run's own (they outlast the test that ran it: pytest
        keeps the run's folder)."""
        key = run_key("fuzz", argv)

        def run() -> tuple[int, dict[str, Any]]:
            printed = io.StringIO()
            with contextlib.redirect_stdout(printed):
                code = main(["fuzz", *argv, "--out", str(self.root / f"fuzz-{key}"),
                             "--json"])
            report: dict[str, Any] = json.loads(printed.getvalue())
            return code, report
        got: tuple[int, dict[str, Any]] = copy.deepcopy(self.once(f"fuzz-{key}", run))
        return got

    def identify(self, argv: Sequence[str]) -> tuple[int, str]:
        """The exit code of `mtrain identify ARGV -o FILE` and the rule-set file it wrote
        (its text; "" when it wrote none). What it prints goes where the caller's output
        goes: a test that reads it runs identify itself."""
        key = run_key("identify", argv)

        def run() -> tuple[int, str]:
            out = self.root / f"identify-{key}.yaml"
            code = main(["identify", *argv, "-o", str(out)])
            return code, out.read_text(encoding="utf-8") if out.is_file() else ""
        got: tuple[int, str] = self.once(f"identify-{key}", run)
        return got
