"""How much of `mtrain fuzz`'s judgement house-rule engines keep: for each example engine
that declares a rule `other` (tests/test_house_engines.py, under its honest rule-set
file), the share of its answers set aside as its own rules' (not judged), with the planted
bugs off (any finding then is false: printed, and the exit status is 1), and the games
until every planted bug is found with them on (the median over the seeds).

    python benchmarks/fuzz_house.py [NAME ...] [--games N] [--seeds 1,2,3,4,5]
                                    [--off-seeds 1] [--no-bugs]

Without names: the engines declaring `own_train_first` or `mexican_first_turn` `other`,
and a few others (SPREAD). `--games`: games a run (default: each engine's own `games`
of the test, at least 4). Not a test: a measurement by hand (dandy, in Perl, takes about
a minute for 12 games; the load is printed, as it slows every run alike).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from fuzz_games_to_find import engines, first_games
from test_house_engines import Engine

SPREAD = ("wagonway", "dandy", "drover", "tanker", "tenwheeler", "hump", "flagstop",
          "caboose", "layover", "yardmaster", "interlock", "brakeman")


def set_aside(engine: Engine, games: int, seed: int) -> tuple[int, int, int, list[str]]:
    """(answers, answers set aside, answers that read a rule of its own and were judged
    by a cut, findings' signatures) of a run with the bugs off."""
    with tempfile.TemporaryDirectory(prefix="mtrain-fh-") as out:
        done = subprocess.run(
            [sys.executable, "-m", "mtrain", "fuzz", *engine.target(fixed=True), "--rules",
             engine.rules, "--games", str(games), "--seed", str(seed), "--out", out,
             "--json"], capture_output=True, text=True, check=False)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{engine.name}: fuzz exited {done.returncode}: "
                         f"{done.stderr.strip()[-300:]}")
    report: dict[str, Any] = json.loads(done.stdout)
    return (report["answered"], sum(report["not_judged"].values()),
            sum(report["judged_by_cut"].values()),
            [f["signature"] for f in report["findings"]])


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("names", nargs="*")
    parser.add_argument("--games", type=int)
    parser.add_argument("--seeds", default="1,2,3,4,5", help="seeds with the bugs on")
    parser.add_argument("--off-seeds", default="1", help="seeds with the bugs off")
    parser.add_argument("--no-bugs", action="store_true", help="bugs off only")
    args = parser.parse_args()
    names = args.names or list(SPREAD)
    print(f"load {os.getloadavg()[0]:.1f}")
    false = 0
    for engine in engines():
        if engine.name not in names or "other" not in engine.truth.values():
            continue
        games = args.games or max(4, engine.games)
        answered = aside = cut = 0
        found: list[str] = []
        for seed in (int(s) for s in args.off_seeds.split(",")):
            n, m, c, f = set_aside(engine, games, seed)
            answered, aside, cut, found = answered + n, aside + m, cut + c, found + f
        false += len(found)
        share = 100 * aside / answered if answered else 0.0
        # of the answers that read a rule of its own, those set aside (the rest judged)
        own = 100 * aside / (aside + cut) if aside + cut else 0.0
        line = (f"{engine.name}: {games} games, bugs off: {aside:,} of {answered:,} answers "
                f"set aside ({share:.2f} %; {own:.0f} % of the {aside + cut:,} that read a "
                f"rule of its own), {len(found)} false findings"
                + (f" ({', '.join(sorted(set(found)))})" if found else ""))
        if not args.no_bugs and engine.fuzz:
            runs = [first_games(engine, games, int(s)) for s in args.seeds.split(",")]
            every = [None if None in r.values() else max(
                (g for g in r.values() if g is not None), default=0) for r in runs]
            known = [g for g in every if g is not None]
            median = statistics.median(known) if len(known) == len(every) else None
            games_by = " ".join("-" if g is None else str(g) for g in every)
            line += (f"; bugs on: every bug by {games_by}"
                     f" (median {'-' if median is None else median})")
        print(line, flush=True)
    return 1 if false else 0


if __name__ == "__main__":
    raise SystemExit(main())
