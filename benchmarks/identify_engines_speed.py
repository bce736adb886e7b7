"""How many CPU seconds `mtrain identify` takes on example house engines, as the tests
run it (tests/test_house_engines.py: the engine's planted bugs on), and whether a change
kept its every answer.

    python benchmarks/identify_engines_speed.py [NAME ...] [--runs 3] [--base REV]
                                                 [--keep DIR]

Each run is a fresh `python -m mtrain identify TARGET -o FILE` (the engine a program
started by identify, or an adapter loaded into it), its CPU seconds those of identify and
the engine together (getrusage of the children); the median of --runs per engine, with
the machine's load. PYTHONHASHSEED is fixed (issue 21: identify's path depends on it).
The scope partition comes from the cache (MTRAIN_CACHE_DIR), as in the tests, where the
corpus is explored once per run (`corpus_explored`): run once before measuring, as the
first identify of an empty cache explores the whole corpus.

With --base REV, the code of git revision REV runs alongside (benchmarks/measure.py,
base_env), each run of one followed by one of the other, and its output (what identify
prints and the file it writes) must be byte-identical: the ratio is the working tree's
CPU over REV's. --keep DIR keeps each engine's output there.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
from pathlib import Path

from measure import Timed, base_env, load, median, run

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from test_house_engines import CANTINA, RAILYARD, ROUNDHOUSE, TURNTABLE, Engine

ENGINES = {e.name: e for e in (CANTINA, ROUNDHOUSE, RAILYARD, TURNTABLE)}
DEFAULT = ("cantina", "roundhouse", "turntable")
"""Two engines started as programs and one adapter, loaded into identify's process."""
GOAL = 0.5
"""The working tree's CPU over the base's (session 43: identify in half the CPU)."""


def identify(engine: Engine, env: dict[str, str], folder: Path) -> tuple[Timed, str]:
    """One identify of `engine`, in a fresh process: its time, and what it wrote (the
    file, then what it printed, but the seconds it took)."""
    out = folder / "identified.yaml"
    out.unlink(missing_ok=True)
    timed = run([sys.executable, "-m", "mtrain", "identify", *engine.target(), "-o",
                 str(out)], {**env, "PYTHONHASHSEED": "0"}, cwd=str(folder))
    if timed.code != 0:
        raise SystemExit(f"{engine.name}: identify exited {timed.code}: "
                         f"{timed.stderr.strip()[-2000:]}")
    printed = re.sub(r"played, [\d.]+ s", "played, (seconds) s", timed.stdout)
    return timed, out.read_text(encoding="utf-8") + "\n--- printed ---\n" + printed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", metavar="NAME", help=", ".join(ENGINES))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--base", metavar="REV", help="a git revision to compare with")
    parser.add_argument("--keep", metavar="DIR", help="keep each engine's output there")
    args = parser.parse_args()
    unknown = [n for n in args.names if n not in ENGINES]
    if unknown:
        parser.error(f"no engine {', '.join(unknown)} here (there are {', '.join(ENGINES)})")
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "run"  # the same path for both: identify prints it
        folder.mkdir()
        env = dict(os.environ)
        base = base_env(args.base, Path(tmp) / "base") if args.base else None
        for name in args.names or DEFAULT:
            engine = ENGINES[name]
            mine: list[float] = []
            theirs: list[float] = []
            outputs: set[str] = set()
            based: set[str] = set()
            for _ in range(args.runs):
                timed, text = identify(engine, env, folder)
                mine.append(timed.cpu)
                outputs.add(text)
                if base is not None:
                    timed, text = identify(engine, base, folder)
                    theirs.append(timed.cpu)
                    based.add(text)
            line = f"{name:<11} {median(mine):6.1f} CPU s"
            if base is not None:
                same = outputs == based and len(outputs) == 1
                ratio = median(mine) / median(theirs)
                ok = ok and same and ratio <= GOAL
                line += (f", {args.base} {median(theirs):6.1f}: x{ratio:.2f} (goal <= "
                         f"{GOAL}), output {'identical' if same else 'DIFFERS'}")
            elif len(outputs) > 1:
                line += ", output DIFFERS between runs"
                ok = False
            print(f"{line}; {load()}", flush=True)
            if args.keep:
                keep = Path(args.keep)
                keep.mkdir(parents=True, exist_ok=True)
                for k, text in enumerate(sorted(outputs)):
                    (keep / f"{name}-{k}.txt").write_text(text, encoding="utf-8")
                for k, text in enumerate(sorted(based)):
                    (keep / f"{name}-base-{k}.txt").write_text(text, encoding="utf-8")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
