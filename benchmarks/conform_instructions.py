"""The harness's cost of one `mtrain conform` in machine instructions, a revision beside
the working tree: what a busy machine does not move.

    python benchmarks/conform_instructions.py --base REV -- --impl "python ENGINE" --rules FILE

Each side runs the command once untimed (its cache folder, a temporary one of its own,
is then warm: situations, documents found valid), then once under valgrind's callgrind,
which counts the instructions of the harness's process alone (an engine it starts is
not traced, so a house engine's own work is left out). String hashing is seeded alike
(PYTHONHASHSEED=0), as it moves a count by tens of millions. Prints both counts and new
/ base. Needs `valgrind`; a run costs some 50 times its CPU seconds. On a machine shared
with other work, CPU seconds move by a tenth or more from run to run and a cut of a few
per cent cannot be told from the noise: the count can.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from measure import base_env, load

from mtrain.spec.cache import CACHE_ENV

ROOT = Path(__file__).resolve().parents[1]
COLLECTED = re.compile(r"Collected : (\d+)")


def count(env: dict[str, str], args: list[str]) -> int:
    command = [sys.executable, "-m", "mtrain", "conform", *args]
    subprocess.run(command, env=env, cwd=ROOT, capture_output=True, check=False)  # warm
    traced = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                             *command], env=env, cwd=ROOT, capture_output=True, text=True)
    found = COLLECTED.search(traced.stderr)
    if found is None:
        raise SystemExit(f"no count from callgrind:\n{traced.stderr[-2000:]}")
    return int(found.group(1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="the git revision to compare with")
    parser.add_argument("conform", nargs="*", help="arguments of mtrain conform")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not on the PATH")
    with tempfile.TemporaryDirectory(prefix="conform-instructions-") as tmp:
        base = {**base_env(args.base, Path(tmp) / "base"), "PYTHONHASHSEED": "0",
                CACHE_ENV: str(Path(tmp) / "cache-base")}
        new = {**os.environ, "PYTHONHASHSEED": "0", CACHE_ENV: str(Path(tmp) / "cache-new")}
        print(load())
        b, n = count(base, args.conform), count(new, args.conform)
        print(f"conform {' '.join(args.conform) or '(the default run)'}")
        print(f"  base {b:,} instructions, new {n:,}: new / base {n / b:.3f}")
        print(load())
    return 0


if __name__ == "__main__":
    sys.exit(main())
