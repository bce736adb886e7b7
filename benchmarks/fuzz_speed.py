"""How many steps per second `mtrain fuzz` runs against `mtrain serve`, and what the
protocol client costs per request.

    python benchmarks/fuzz_speed.py [--games 30] [--runs 5] [--jobs 1 --jobs 2] [--json]

fuzz: `fuzz()` against `--impl "mtrain serve"` for --games games from a fixed seed, the
default run otherwise (rule sets, probes, follow mode), --runs times; the median of steps
per second (steps over the run's own clock, which excludes starting the server). With
--jobs 1 the harness and the server share one core (pinned with sched_setaffinity, which
the server inherits); with more jobs they may use every core, and the ratio to one job
is the scaling.

client: the harness's protocol client (`ProcessImplementation.legal`) against a server
that answers every line at once with a canned answer, beside a bare round trip on the
same pipe (write the request's bytes, read a line). The difference is what the client
itself adds per request: encoding, the reader thread, decoding, checking.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from mtrain.conformance import fuzz
from mtrain.conformance.process import ProcessImplementation
from mtrain.conformance.protocol import encode, request

CANNED = """
import sys
out = sys.stdout.buffer
for line in sys.stdin.buffer:
    i = line.index(b'"id":') + 5
    rid = line[i:line.index(b",", i)]
    if b'"type":"hello"' in line:
        out.write(b'{"id":' + rid + b',"ok":true,"protocol":1,"name":"canned",'
                  b'"version":"0","variants":["*"]}\\n')
    else:
        out.write(b'{"id":' + rid + b',"ok":true,"actions":[]}\\n')
    out.flush()
"""
"""A server whose answer costs next to nothing: the client's share is what remains."""


def mtrain_command() -> str:
    found = Path(sys.executable).with_name("mtrain")
    return str(found) if found.exists() else "mtrain"


def fuzz_run(games: int, seed: int, jobs: int, variants: list[str]) -> tuple[int, float]:
    """(steps, seconds) of one fuzz run against `mtrain serve`."""
    target = fuzz.Target("impl", f"{mtrain_command()} serve", "mtrain-serve")
    with tempfile.TemporaryDirectory() as out:
        report = fuzz.fuzz(target, variants, games, seed, jobs=jobs, out=out)
    if report.disagreements:
        raise SystemExit("the reference disagrees with itself: " + repr(report))
    return report.steps, report.seconds


def client_overhead(requests: int, runs: int) -> dict[str, Any]:
    ctx = fuzz.context("pagat")
    from mtrain.reference import codec
    from mtrain.reference.deal import deal

    state = codec.state_to_json(deal(ctx.rules, 4, 1, seed=1))
    argv = [sys.executable, "-c", CANNED]
    client, encoded, bare = [], [], []
    state_bytes = json.dumps(state, separators=(",", ":")).encode()
    for _ in range(runs):
        impl = ProcessImplementation(argv, timeout=10)
        impl.start()
        start = time.perf_counter()
        for _ in range(requests):
            impl.legal(ctx.rj, state)
        client.append((time.perf_counter() - start) / requests)
        call_encoded = getattr(impl, "call_encoded", None)
        if call_encoded is not None:  # the way fuzz asks: the state encoded once per step
            start = time.perf_counter()
            for _ in range(requests):
                call_encoded("legal", ruleset=ctx.rj_bytes, state=state_bytes)
            encoded.append((time.perf_counter() - start) / requests)
        impl.close()
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        assert proc.stdin is not None and proc.stdout is not None
        line = encode(request(7, "legal", ruleset=ctx.rj, state=state))
        start = time.perf_counter()
        for _ in range(requests):
            proc.stdin.write(line)
            proc.stdin.flush()
            proc.stdout.readline()
        bare.append((time.perf_counter() - start) / requests)
        proc.stdin.close()
        proc.wait()
    c, b = statistics.median(client) * 1e6, statistics.median(bare) * 1e6
    out: dict[str, Any] = {"requests": requests, "client_us": round(c, 1),
                           "bare_us": round(b, 1), "overhead_us": round(c - b, 1)}
    if encoded:
        e = statistics.median(encoded) * 1e6
        out.update(encoded_us=round(e, 1), encoded_overhead_us=round(e - b, 1))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runs", type=int, default=5, help="timed runs (median)")
    parser.add_argument("--jobs", type=int, action="append", default=[],
                        help="worker processes (repeatable; default 1)")
    parser.add_argument("--cpu", type=int, default=0, help="the core for --jobs 1")
    parser.add_argument("--variant", action="append", default=[],
                        help="a rule set to fuzz (repeatable; default: fuzz's default)")
    parser.add_argument("--requests", type=int, default=3000,
                        help="requests per client measurement")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    out: dict[str, Any] = {"games": args.games, "seed": args.seed, "runs": args.runs,
                           "cores": os.cpu_count(), "fuzz": {}}
    every = os.sched_getaffinity(0)
    for jobs in args.jobs or [1]:
        os.sched_setaffinity(0, {args.cpu} if jobs == 1 else every)
        fuzz_run(min(args.games, 3), args.seed + 1000, jobs, args.variant)  # warm up
        rates, steps = [], 0
        for _ in range(args.runs):
            steps, seconds = fuzz_run(args.games, args.seed, jobs, args.variant)
            rates.append(steps / seconds)
        out["fuzz"][str(jobs)] = {"steps": steps, "pinned": jobs == 1,
                                  "steps_per_second": round(statistics.median(rates)),
                                  "runs": [round(r) for r in rates]}
    os.sched_setaffinity(0, {args.cpu})
    out["client"] = client_overhead(args.requests, args.runs)
    os.sched_setaffinity(0, every)
    one = out["fuzz"].get("1")
    for jobs, row in out["fuzz"].items():
        if one is not None and jobs != "1":
            row["scaling"] = round(row["steps_per_second"] / one["steps_per_second"], 2)
    if args.json:
        json.dump(out, sys.stdout, indent=2)
        print()
        return 0
    print(f"fuzz against mtrain serve: {args.games} games (seed {args.seed}), {args.runs} runs")
    for jobs, row in out["fuzz"].items():
        where = "harness and server pinned to one core" if row["pinned"] else "all cores"
        scaling = f", {row['scaling']}x one job" if "scaling" in row else ""
        print(f"  --jobs {jobs}: median {row['steps_per_second']} steps/s over {row['steps']} "
              f"steps ({where}{scaling}); runs {row['runs']}")
    c = out["client"]
    print(f"protocol client, one core: {c['client_us']} us per legal request, bare pipe round "
          f"trip {c['bare_us']} us: the client adds {c['overhead_us']} us")
    if "encoded_us" in c:
        print(f"  with the state encoded beforehand (as fuzz asks): {c['encoded_us']} us, "
              f"{c['encoded_overhead_us']} us over the bare round trip")
    return 0


if __name__ == "__main__":
    sys.exit(main())
