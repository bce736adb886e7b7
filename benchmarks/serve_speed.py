"""How many protocol requests per second `mtrain serve` answers, on a recorded stream.

    python benchmarks/serve_speed.py [--games 20] [--runs 5] [--cpu 0] [--json] [--base REV]

The stream is recorded from a fuzz run of the reference against itself: every request the
harness would send, as the protocol client encodes it. Three streams are cut from it:

    legal   one `legal` request per state (every state is new to the server)
    apply   one `apply` request per state: the action the game went on with
    fuzz    the whole recording in order: what `mtrain fuzz` sends (several requests on
            the same state: the legal actions, refusals, the action taken)

Each stream is cut to --requests lines (repeated, if the recording is shorter: then a
state comes back, which the server may remember), fed from a file to the server's stdin,
its answers go to /dev/null, and the server is pinned to one core (--cpu). A bare JSON
echo server (parse each line, re-serialise it) runs the same streams: the baseline any
JSON Lines server pays. The time to start and greet a server is measured on an empty
stream and subtracted. Reported: the median over --runs runs of requests per second by
wall clock and by the server's CPU time (the steadier of the two on a busy machine), and
the ratio to the echo server, with the load average before and after. The target: at
least 15,000 `legal` requests per CPU second (exit code 1 below it).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from measure import base_env, load, mtrain_command, verdict

from mtrain import __version__
from mtrain.conformance.adapter import JSON, ReferenceImplementation
from mtrain.conformance.protocol import encode, hello, request

ECHO = """
import json, sys
out = sys.stdout.buffer
for line in sys.stdin.buffer:
    out.write(json.dumps(json.loads(line), separators=(",", ":"),
                         ensure_ascii=False).encode() + b"\\n")
    out.flush()
"""
"""The baseline: a server that only parses and re-serialises each line."""

TARGET_LEGAL = 15000
"""`legal` requests per CPU second."""


class Recorder(ReferenceImplementation):
    """The reference engine, writing down every request as the protocol client sends it."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: list[tuple[str, bytes]] = []

    def _note(self, kind: str, **fields: Any) -> None:
        self.lines.append((kind, encode(request(len(self.lines) + 2, kind, **fields))))

    def deal(self, ruleset: JSON, players: int, round: int, order: list[str],
             draw: list[list[str]] | None = None) -> JSON:
        self._note("deal", ruleset=ruleset, players=players, round=round, order=order)
        return super().deal(ruleset, players, round, order, draw)

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        self._note("legal", ruleset=ruleset, state=state)
        return super().legal(ruleset, state)

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        self._note("apply", ruleset=ruleset, state=state, action=action)
        return super().apply(ruleset, state, action)

    def winners(self, ruleset: JSON, state: JSON) -> list[int]:
        self._note("winners", ruleset=ruleset, state=state)
        return super().winners(ruleset, state)


def record(games: int, seed: int) -> list[tuple[str, bytes]]:
    from mtrain.conformance import fuzz

    recorder = Recorder()
    with tempfile.TemporaryDirectory() as out:
        fuzz.fuzz(fuzz.Target.of(recorder, "recorder"), ["pagat", "puremco", "puremco-d9"],
                  games, seed, out=out)
    return recorder.lines


def streams(lines: list[tuple[str, bytes]]) -> dict[str, list[bytes]]:
    """legal / apply: one request per state; fuzz: everything, in order."""
    legal: list[bytes] = []
    apply: list[bytes] = []
    last_apply: bytes | None = None
    for kind, line in lines:
        if kind == "legal":
            legal.append(line)
            if last_apply is not None:
                apply.append(last_apply)
            last_apply = None
        elif kind == "apply":
            last_apply = line  # the last apply on a state is the action the game took
    if last_apply is not None:
        apply.append(last_apply)
    return {"legal": legal, "apply": apply, "fuzz": [line for _, line in lines]}


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def time_server(argv: list[str], path: Path, env: dict[str, str] | None = None
                ) -> tuple[float, float]:
    """(wall seconds, CPU seconds) for the server to answer every line of `path`."""
    with open(path, "rb") as stdin:
        cpu = _cpu()
        start = time.perf_counter()
        subprocess.run(argv, stdin=stdin, stdout=subprocess.DEVNULL, check=True, timeout=600,
                       env=env)
        return time.perf_counter() - start, _cpu() - cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--games", type=int, default=120,
                        help="games recorded (default 120: some 11,000 states, so that the "
                        "legal and apply streams of 10,000 requests repeat no state, as "
                        "the server remembers trains and hands it has read)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--requests", type=int, default=10000,
                        help="requests per stream: a short recording is repeated up to this "
                        "(default 10000), so that the start-up time is small beside it")
    parser.add_argument("--runs", type=int, default=5, help="timed runs per case (median)")
    parser.add_argument("--cpu", type=int, default=0, help="the core the servers run on")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--base", metavar="REV", help="also run git revision REV's server, "
                        "in the same turns")
    args = parser.parse_args()
    before = load()
    taskset = shutil.which("taskset")
    pin = [taskset, "-c", str(args.cpu)] if taskset else []
    servers = {"mtrain serve": [*pin, mtrain_command(), "serve"],
               "echo": [*pin, sys.executable, "-c", ECHO]}
    envs: dict[str, dict[str, str] | None] = dict.fromkeys(servers)
    base_dir = tempfile.TemporaryDirectory() if args.base else None
    if args.base and base_dir is not None:
        servers["base mtrain serve"] = [*pin, sys.executable, "-m", "mtrain", "serve"]
        envs["base mtrain serve"] = base_env(args.base, Path(base_dir.name))
    recorded = streams(record(args.games, args.seed))
    cut = {name: (lines * (args.requests // len(lines) + 1))[:args.requests]
           for name, lines in recorded.items()}
    greeting = encode(hello(1, f"mtrain {__version__}"))
    out: dict[str, Any] = {"games": args.games, "seed": args.seed, "runs": args.runs,
                           "pinned": bool(pin), "streams": {k: len(v) for k, v in cut.items()},
                           "recorded": {k: len(v) for k, v in recorded.items()}}
    with tempfile.TemporaryDirectory() as tmp:
        files = {"empty": Path(tmp, "empty.jsonl")}
        files["empty"].write_bytes(greeting)
        for name, lines in cut.items():
            files[name] = Path(tmp, f"{name}.jsonl")
            files[name].write_bytes(greeting + b"".join(lines))
        for server, argv in servers.items():
            time_server(argv, files["empty"], envs[server])  # warm the file cache
        # the servers take turns, run after run, so that both meet the same machine
        timed: dict[tuple[str, str], list[tuple[float, float]]] = {}
        for name in ["empty", *cut]:
            for _ in range(args.runs):
                for server, argv in servers.items():
                    timed.setdefault((server, name), []).append(
                        time_server(argv, files[name], envs[server]))
        for server in servers:
            base = timed[(server, "empty")]
            wall0 = statistics.median(w for w, _ in base)
            cpu0 = statistics.median(c for _, c in base)
            rows: dict[str, Any] = {"startup_seconds": round(wall0, 4)}
            for name in cut:
                n = len(cut[name])
                wall = [n / max(w - wall0, 1e-9) for w, _ in timed[(server, name)]]
                cpu = [n / max(c - cpu0, 1e-9) for _, c in timed[(server, name)]]
                rows[name] = {"requests": n, "per_second": round(statistics.median(wall)),
                              "per_cpu_second": round(statistics.median(cpu)),
                              "runs": [round(x) for x in wall]}
            out[server] = rows
    for name in cut:
        serve, echo = out["mtrain serve"][name], out["echo"][name]
        serve["echo_ratio"] = round(serve["per_second"] / echo["per_second"], 3)
        serve["echo_ratio_cpu"] = round(serve["per_cpu_second"] / echo["per_cpu_second"], 3)
    if base_dir is not None:
        base_dir.cleanup()
        out["new_over_base_cpu"] = {
            name: round(out["mtrain serve"][name]["per_cpu_second"]
                        / out["base mtrain serve"][name]["per_cpu_second"], 3) for name in cut}
    legal = out["mtrain serve"]["legal"]["per_cpu_second"]
    out.update(load_before=before, load_after=load(), target_legal=TARGET_LEGAL,
               ok=legal >= TARGET_LEGAL)
    if args.json:
        json.dump(out, sys.stdout, indent=2)
        print()
        return 0 if out["ok"] else 1
    print(f"{args.games} games recorded (seed {args.seed}: "
          + ", ".join(f"{k} {v}" for k, v in out["recorded"].items()) + " requests); "
          f"{args.runs} runs per case; "
          f"{'pinned to core ' + str(args.cpu) if pin else 'not pinned'}; "
          f"os.cpu_count() = {os.cpu_count()}")
    for server in servers:
        print(f"{server} (start-up {out[server]['startup_seconds'] * 1000:.0f} ms, subtracted)")
        for name in cut:
            row = out[server][name]
            ratio = (f"; {row['echo_ratio']:.2f} / {row['echo_ratio_cpu']:.2f} of echo"
                     if "echo_ratio" in row else "")
            print(f"  {name:<6} {row['requests']:>6} requests: median {row['per_second']:>7} /s "
                  f"wall, {row['per_cpu_second']:>7} /s CPU{ratio}")
    if "new_over_base_cpu" in out:
        print("requests per CPU s, new / base: " + ", ".join(
            f"{k} {v:.2f}" for k, v in out["new_over_base_cpu"].items()))
    print(f"{out['load_before']} before, {out['load_after']} after")
    print(f"legal: {legal} requests per CPU second, target >= {TARGET_LEGAL}: "
          f"{verdict(out['ok'])}")
    return 0 if out["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
