"""Where the CPU of `mtrain conform --impl "mtrain serve"` goes, on each side of the pipe.

    python benchmarks/protocol_split.py [--runs 3] [--json]

One protocol run is recorded first (every request line and every answer line, untimed).
Then these cases take turns, run after run, each judged on the median of its CPU seconds
(user + system):

    played       mtrain conform, every result played in-process (MTRAIN_RESULT_MEMO=off):
                 what the protocol run is judged against (issue 25: at most 1.3x)
    protocol     mtrain conform --impl "mtrain serve", split into the harness and the
                 server (the server's own CPU, read where it is waited for)
    harness      the same conform, the server replaced by a replay of the recorded answers
                 (a program that answers each line with the next recorded one, its own
                 CPU left out): the harness alone, every answer checked as ever
    lockstep     mtrain serve answering the recorded requests one at a time, each written
                 after the answer before it was read: the server alone, with its round trips
    pipelined    mtrain serve reading every recorded request from a file at once: the
                 server's work without a round trip per request

The replay and the recording hold for this code alone: the cases run the working tree.
Wall times say how busy the machine was; the load average is printed before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

from measure import Timed, children_cpu, load, median, mtrain_command, run

from mtrain.conformance.resultmemo import MEMO_ENV
from mtrain.spec.cache import CACHE_ENV

HERE = Path(__file__).resolve()


def replay(answers: Path) -> int:
    """Serve stdin with the recorded answer lines, one per request line, in order."""
    lines = answers.read_bytes().splitlines(keepends=True)
    k = 0
    while chunk := os.read(0, 1 << 20):
        n = chunk.count(b"\n")
        os.write(1, b"".join(lines[k:k + n]))
        k += n
    return 0


def timed_child(out: Path, argv: list[str]) -> int:
    """Run `argv` on this process's stdin and stdout; write its CPU seconds to `out`."""
    code = subprocess.run(argv, check=False).returncode
    out.write_text(f"{children_cpu():.3f}\n")
    return code


def self_cpu(out: Path) -> None:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    out.write_text(f"{usage.ru_utime + usage.ru_stime:.3f}\n")


def lockstep(requests: Path, server: list[str], env: dict[str, str]) -> float:
    """The server's CPU seconds answering `requests` one at a time."""
    before = children_cpu()
    proc = subprocess.Popen(server, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
    assert proc.stdin is not None and proc.stdout is not None
    with requests.open("rb") as lines:
        for line in lines:
            proc.stdin.write(line)
            proc.stdin.flush()
            proc.stdout.readline()
    proc.stdin.close()
    proc.wait()
    return children_cpu() - before


def pipelined(requests: Path, server: list[str], env: dict[str, str]) -> float:
    before = children_cpu()
    with requests.open("rb") as given:
        subprocess.run(server, stdin=given, stdout=subprocess.DEVNULL, env=env, check=True)
    return children_cpu() - before


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--replay", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--cpu-to", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--timed", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("command", nargs="*", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.replay is not None:  # the stand-in server of the `harness` case
        try:
            return replay(args.replay)
        finally:
            if args.cpu_to is not None:
                self_cpu(args.cpu_to)
    if args.timed is not None:  # the server of the `protocol` case, its CPU written out
        return timed_child(args.timed, args.command)

    mtrain = mtrain_command()
    me = f"{shlex.quote(sys.executable)} {shlex.quote(str(HERE))}"
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        env = {**os.environ, CACHE_ENV: str(folder / "cache")}
        played_env = {**env, MEMO_ENV: "off"}
        requests, answers = folder / "requests", folder / "answers"
        server_cpu, replay_cpu = folder / "server.cpu", folder / "replay.cpu"
        before = load()
        recorder = (f"sh -c 'tee {shlex.quote(str(requests))} | {shlex.quote(mtrain)} serve "
                    f"| tee {shlex.quote(str(answers))}'")
        first = run([mtrain, "conform", "--impl", recorder], env=env)  # warms the cache too
        if first.code != 0:
            raise SystemExit(f"the recorded run exited {first.code}:\n{first.stdout[-2000:]}")
        cpu: dict[str, list[float]] = {name: [] for name in (
            "played", "protocol", "protocol server", "protocol harness", "harness",
            "lockstep", "pipelined")}
        for _ in range(args.runs):
            cpu["played"].append(checked(run([mtrain, "conform"], env=played_env)).cpu)
            total = checked(run([mtrain, "conform", "--impl",
                                 f"{me} --timed {server_cpu} -- {shlex.quote(mtrain)} serve"],
                                env=env)).cpu
            server = float(server_cpu.read_text())
            cpu["protocol"].append(total)
            cpu["protocol server"].append(server)
            cpu["protocol harness"].append(total - server)
            alone = checked(run([mtrain, "conform", "--impl",
                                 f"{me} --replay {answers} --cpu-to {replay_cpu}"],
                                env=env)).cpu
            cpu["harness"].append(alone - float(replay_cpu.read_text()))
            cpu["lockstep"].append(lockstep(requests, [mtrain, "serve"], env))
            cpu["pipelined"].append(pipelined(requests, [mtrain, "serve"], env))
        count = sum(1 for _ in requests.open("rb"))
    after = load()
    medians = {name: round(median(values), 3) for name, values in cpu.items()}
    played = medians["played"]
    out = {"runs": args.runs, "requests": count, "load_before": before, "load_after": after,
           "cpu_median": medians, "over_played": {name: round(value / played, 3)
                                                   for name, value in medians.items()},
           "cpu": {name: [round(v, 3) for v in values] for name, values in cpu.items()}}
    if args.json:
        json.dump(out, sys.stdout, indent=2)
        print()
        return 0
    print(f"{args.runs} runs of each, taking turns; {count:,} requests; {before} before, "
          f"{after} after")
    for name, value in medians.items():
        print(f"  {name:<17} {value:7.2f} CPU s  {value / played:5.2f}x played   "
              f"({', '.join(f'{v:.2f}' for v in cpu[name])})")
    return 0


def checked(timed: Timed) -> Timed:
    """A timed run that passed; a run that did not stops the benchmark."""
    if timed.code != 0:
        raise SystemExit(f"a run exited {timed.code}:\n{timed.stdout[-2000:]}"
                         f"{timed.stderr[-2000:]}")
    return timed


if __name__ == "__main__":
    sys.exit(main())
