"""How many games `mtrain fuzz` needs to find every planted bug of each example engine
(tests/test_house_engines.py: its `fuzz` patterns, under its honest rule-set file), per
seed, and the median over the seeds: what an engine's `games` there must be at least
(issue 20: the fewer, the cheaper the suite).

    python benchmarks/fuzz_games_to_find.py [NAME ...] [--games 60] [--seeds 1,2,3]

A bug is found at the first game (counted from 1) of the finding whose signature, or one
of its `also` (the same bug seen otherwise, folded by how its reproducer is charged, which
shrinking under load can change), its pattern matches; `-` where no game found it.
Per engine: each bug's games for each seed, then the games every bug took (the largest
of them; `-` if one was not found) and their median over the seeds.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from test_house_engines import ENGINES, Engine


def engines() -> list[Engine]:
    """Every engine of the test, its pytest.param wrapping taken off."""
    out: list[Engine] = []
    for e in ENGINES:
        engine = e if isinstance(e, Engine) else e.values[0]  # type: ignore[attr-defined]
        assert isinstance(engine, Engine)
        out.append(engine)
    return out


def first_games(engine: Engine, games: int, seed: int) -> dict[str, int | None]:
    """Each planted bug -> the game (from 1) whose finding first showed it, or None."""
    with tempfile.TemporaryDirectory(prefix="mtrain-g2f-") as out:
        done = subprocess.run(
            [sys.executable, "-m", "mtrain", "fuzz", *engine.target(), "--rules",
             engine.rules, "--games", str(games), "--seed", str(seed), "--out", out,
             "--json"], capture_output=True, text=True, check=False)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{engine.name}: fuzz exited {done.returncode}: "
                         f"{done.stderr.strip()[-300:]}")
    report: dict[str, Any] = json.loads(done.stdout)
    found: dict[str, int | None] = {}
    for bug, pattern in engine.fuzz.items():
        hits = [f["first"]["game"] + 1 for f in report["findings"]
                if any(re.search(pattern, s) for s in
                       [f["signature"], *(a["signature"] for a in f["also"])])]
        found[bug] = min(hits) if hits else None
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*")
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--seeds", default="1,2,3")
    args = parser.parse_args()
    seeds = [int(s) for s in args.seeds.split(",")]
    for engine in engines():
        if args.names and engine.name not in args.names:
            continue
        runs = [first_games(engine, args.games, s) for s in seeds]
        every = [None if None in r.values() else max((g for g in r.values() if g is not None),
                                                     default=0) for r in runs]
        known = [g for g in every if g is not None]
        median = statistics.median(known) if len(known) == len(every) else None
        print(f"{engine.name}: games {engine.games}; every bug by "
              f"{' '.join('-' if g is None else str(g) for g in every)} "
              f"(median {'-' if median is None else median})")
        for bug in engine.fuzz:
            print(f"    {bug}: " + " ".join("-" if r[bug] is None else str(r[bug])
                                          for r in runs))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
