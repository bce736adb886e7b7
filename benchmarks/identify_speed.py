"""How long `mtrain identify` takes against a protocol server, and whether it is right.

    python benchmarks/identify_speed.py [--runs 5] [--seed 1]

Each run writes a random valid rule set to a file, starts `mtrain serve --rules FILE
--undeclared` (an engine that plays those rules and does not say so), runs
`mtrain identify` against it as a user would (a fresh process: the partition of the
option space is computed every time), and compares the rule set found with the one
written. Prints each run and the median wall time.
"""

from __future__ import annotations

import argparse
import random
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

from mtrain.spec.catalog import catalog
from mtrain.spec.scope import Space


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    mtrain = shutil.which("mtrain") or str(Path(sys.executable).with_name("mtrain"))
    space = Space()
    rng = random.Random(args.seed)
    times, right = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(args.runs):
            values = None
            while values is None:
                values = space.complete({o: frozenset([rng.choice(vs)])
                                         for o, vs in space.options.items()})
            rules, found = Path(tmp) / f"rules-{k}.yaml", Path(tmp) / f"found-{k}.yaml"
            rules.write_text(yaml.safe_dump({"name": f"random-{k}", "options": values}))
            engine = shlex.join([mtrain, "serve", "--rules", str(rules), "--undeclared"])
            start = time.perf_counter()
            subprocess.run([mtrain, "identify", "--impl", engine, "--output", str(found)],
                           check=True, stdout=subprocess.DEVNULL)
            times.append(time.perf_counter() - start)
            got = dict(catalog().rules_file(found).choices)
            diff = {o: (v, got[o]) for o, v in values.items() if got[o] != v}
            right += not diff
            print(f"run {k + 1}: {times[-1]:.1f} s, {diff or 'exact'}")
    print(f"median {statistics.median(times):.1f} s over {args.runs} runs; "
          f"{right}/{args.runs} recovered exactly")
    return 0 if right == args.runs else 1


if __name__ == "__main__":
    sys.exit(main())
