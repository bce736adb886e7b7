"""What the benchmark scripts share: CPU seconds of a command, the machine's load, medians.

On a machine shared with other work, wall time says more about the neighbours than about
the program; the CPU time a command and its children spend (user + system, from
`getrusage(RUSAGE_CHILDREN)`) is steadier, so the scripts judge their targets on it and
print the load average beside it, so that a reader can tell a quiet run from a busy one.
"""

from __future__ import annotations

import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path


def mtrain_command() -> str:
    """The `mtrain` of this interpreter's environment, else the one on PATH."""
    found = Path(sys.executable).with_name("mtrain")
    return str(found) if found.exists() else (shutil.which("mtrain") or "mtrain")


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


@dataclass(frozen=True)
class Timed:
    wall: float
    cpu: float
    """User + system seconds of the command and every process it waited for."""
    code: int
    stdout: str
    stderr: str


def run(argv: Sequence[str], env: dict[str, str] | None = None, cwd: str | None = None,
        timeout: float = 900) -> Timed:
    """Run a command to its end, as a user would (a fresh process), and time it."""
    cpu = children_cpu()
    start = time.perf_counter()
    done = subprocess.run(list(argv), capture_output=True, text=True, env=env,
                          cwd=cwd or str(Path.home()), timeout=timeout, check=False)
    wall = time.perf_counter() - start
    return Timed(wall, children_cpu() - cpu, done.returncode, done.stdout, done.stderr)


def load() -> str:
    """The load averages over 1, 5 and 15 minutes, and the cores."""
    one, five, fifteen = os.getloadavg()
    return f"load {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"


def median(values: Sequence[float]) -> float:
    return statistics.median(values)


def verdict(ok: bool) -> str:
    return "met" if ok else "MISSED"


def base_env(rev: str, into: Path) -> dict[str, str]:
    """An environment in which `python -m mtrain` runs the code of git revision `rev`
    (its tree exported under `into`), for a side-by-side run against the working tree:
    the package is laid out as the editable install lays it out (mtrain/ from mtrain/,
    mtrain/conformance from conformance/, ...), put first on PYTHONPATH. PYTHONSAFEPATH:
    `python -m` would otherwise put the working directory before it, and run from the
    repository's root the "base" imported the working tree's mtrain/ (serve_speed.py,
    whose servers ran there, compared the working tree with itself)."""
    root = Path(__file__).resolve().parents[1]
    src, pkg = into / "src", into / "pkg" / "mtrain"
    src.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(root), "archive", rev], capture_output=True,
                             check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(src)], input=archive, check=True)
    shutil.copytree(src / "mtrain", pkg)
    for sub in ("conformance", "reference", "spec"):
        shutil.copytree(src / sub, pkg / sub)
    return {**os.environ, "PYTHONPATH": str(into / "pkg"), "PYTHONSAFEPATH": "1"}

