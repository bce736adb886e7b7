"""How many steps per second `mtrain fuzz` runs against `mtrain serve`, and what the
protocol client costs per request.

    python benchmarks/fuzz_speed.py [--games 30] [--runs 5] [--jobs 1 --jobs 2] [--json]

fuzz: `fuzz()` against `--impl "mtrain serve"` for --games games from a fixed seed, the
default run otherwise (rule sets, probes), --runs times; the median of steps per second
(steps over the run's own clock, which excludes starting the first server but includes
starting the workers' servers), and of the CPU time per step of every process (harness,
workers, servers: the machine's cost, which a busy machine changes less than the clock).
With --jobs 1 the harness and the server share one core (pinned with sched_setaffinity,
which the server inherits); `--jobs 1u` is one job unpinned (one core each side, where the
machine has two); with more jobs they may use every core, and the ratio to one unpinned
job (else to one pinned job) is the scaling. Each worker starts a server of its own: give
the scaling --games 120 or more (some 13,000 steps): measured on a busy 2-core machine,
two jobs then cost the same CPU per step as one, where at 30 games (some 2,800 steps) the
workers' start-ups are a third to a half of the CPU time.

client: the harness's protocol client (`ProcessImplementation.legal`) against a server
that answers every line at once with a canned answer, beside a bare round trip on the
same pipe (write the request's bytes, read a line). The difference is what the client
itself adds per request: encoding, the reader thread, decoding, checking. The bare round
trip is also the yardstick of a fuzz step: `step_in_round_trips` is the time of one step
over that of one bare round trip, both measured in the same run.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from mtrain.conformance import fuzz
from mtrain.conformance.gc_freeze import settle_heap
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


def _cpu() -> float:
    """CPU seconds of this process and of every child process waited for."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(
        resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def fuzz_run(games: int, seed: int, jobs: int, variants: list[str]) -> tuple[int, float, float]:
    """(steps, seconds, CPU seconds of every process) of one fuzz run against
    `mtrain serve`."""
    target = fuzz.Target("impl", f"{mtrain_command()} serve", "mtrain-serve")
    impl = target.make()
    impl.info()  # the first server started before the clock, as fuzz() does
    settle_heap()  # as `mtrain fuzz` does once it is set up
    cpu = _cpu()
    with tempfile.TemporaryDirectory() as out:
        report = fuzz.fuzz(target, variants, games, seed, jobs=jobs, out=out, impl=impl)
    close = getattr(impl, "close", None)
    if close is not None:
        close()  # the server waited for: its CPU time counts
    cpu = _cpu() - cpu
    if report.disagreements:
        raise SystemExit("the reference disagrees with itself: " + repr(report))
    return report.steps, report.seconds, cpu


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
    parser.add_argument("--jobs", action="append", default=[],
                        help="worker processes (repeatable; default 1, pinned to --cpu; "
                        "1u: one job, not pinned)")
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
    for spec in args.jobs or ["1"]:
        pinned = spec == "1"
        jobs = int(spec.rstrip("u"))
        os.sched_setaffinity(0, {args.cpu} if pinned else every)
        fuzz_run(min(args.games, 3), args.seed + 1000, jobs, args.variant)  # warm up
        rates, cpus, steps = [], [], 0
        for _ in range(args.runs):
            steps, seconds, cpu = fuzz_run(args.games, args.seed, jobs, args.variant)
            rates.append(steps / seconds)
            cpus.append(cpu / steps * 1e6)
        out["fuzz"][spec] = {"steps": steps, "pinned": pinned,
                             "steps_per_second": round(statistics.median(rates)),
                             "cpu_us_per_step": round(statistics.median(cpus)),
                             "runs": [round(r) for r in rates]}
    os.sched_setaffinity(0, {args.cpu})
    out["client"] = client_overhead(args.requests, args.runs)
    os.sched_setaffinity(0, every)
    one = out["fuzz"].get("1u") or out["fuzz"].get("1")
    bare = out["client"]["bare_us"]
    for spec, row in out["fuzz"].items():
        row["step_in_round_trips"] = round(1e6 / row["steps_per_second"] / bare, 1)
        if one is not None and not spec.startswith("1"):
            row["scaling"] = round(row["steps_per_second"] / one["steps_per_second"], 2)
            row["cpu_scaling"] = round(one["cpu_us_per_step"] / row["cpu_us_per_step"], 2)
    if args.json:
        json.dump(out, sys.stdout, indent=2)
        print()
        return 0
    print(f"fuzz against mtrain serve: {args.games} games (seed {args.seed}), {args.runs} runs")
    for spec, row in out["fuzz"].items():
        where = "harness and server pinned to one core" if row["pinned"] else "all cores"
        scaling = (f", {row['scaling']}x one job ({row['cpu_scaling']}x by CPU per step)"
                   if "scaling" in row else "")
        print(f"  --jobs {spec}: median {row['steps_per_second']} steps/s over {row['steps']} "
              f"steps ({where}{scaling}); {row['cpu_us_per_step']} us CPU per step; a step "
              f"takes {row['step_in_round_trips']} bare round trips; runs {row['runs']}")
    c = out["client"]
    print(f"protocol client, one core: {c['client_us']} us per legal request, bare pipe round "
          f"trip {c['bare_us']} us: the client adds {c['overhead_us']} us")
    if "encoded_us" in c:
        print(f"  with the state encoded beforehand (as fuzz asks): {c['encoded_us']} us, "
              f"{c['encoded_overhead_us']} us over the bare round trip")
    return 0


if __name__ == "__main__":
    sys.exit(main())
