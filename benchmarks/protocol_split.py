"""Where the CPU of `mtrain conform --impl "mtrain serve"` goes, on each side of the pipe.

    python benchmarks/protocol_split.py [--runs 3] [--json] [--cases ...] [--busy US --first N]
                                        [--keep DIR]

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
    busy         `lockstep`, the client working `--busy` microseconds of CPU after each
                 answer before it writes the next request, as the harness does: what the
                 server's wake-ups cost when its peer is not waiting on it

`--cases` names the ones to run (default: all but busy; `busy` needs `--busy`); `--first
N` gives the server cases the first N recorded requests only. `--keep DIR` copies the
recording (`requests`, `answers`) into DIR, for a profiler to run the harness against it:
`mtrain conform --impl "python benchmarks/protocol_split.py --replay DIR/answers"`.

The replay and the recording hold for this code alone: the cases run the working tree.
Wall times say how busy the machine was; the load average is printed before and after.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import resource
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from measure import Timed, children_cpu, load, median, mtrain_command, run

from mtrain.conformance.resultmemo import MEMO_ENV
from mtrain.spec.cache import CACHE_ENV

HERE = Path(__file__).resolve()
CASES = ("played", "protocol", "harness", "lockstep", "pipelined", "busy")
DEFAULT_CASES = CASES[:-1]


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


def lockstep(requests: Path, server: list[str], env: dict[str, str], busy: float = 0.0
             ) -> float:
    """The server's CPU seconds answering `requests` one at a time; `busy`: CPU seconds
    the client spends after each answer, before the next request."""
    before = children_cpu()
    proc = subprocess.Popen(server, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
    assert proc.stdin is not None and proc.stdout is not None
    with requests.open("rb") as lines:
        for line in lines:
            proc.stdin.write(line)
            proc.stdin.flush()
            proc.stdout.readline()
            until = time.process_time() + busy
            while busy and time.process_time() < until:
                pass
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
    parser.add_argument("--cases", default=",".join(DEFAULT_CASES),
                        help=f"among {', '.join(CASES)} (default: %(default)s)")
    parser.add_argument("--busy", type=float, default=0.0, metavar="US",
                        help="the busy case's client CPU after each answer, in microseconds")
    parser.add_argument("--first", type=int, metavar="N",
                        help="the server cases replay the first N recorded requests only")
    parser.add_argument("--keep", type=Path, metavar="DIR",
                        help="copy the recorded requests and answers into DIR")
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

    chosen = {c.strip() for c in args.cases.split(",") if c.strip()}
    if not chosen or not chosen <= set(CASES):
        parser.error(f"--cases: name some of {', '.join(CASES)}")
    if "busy" in chosen and args.busy <= 0:
        parser.error("--cases busy needs --busy US")
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
        if args.keep is not None:
            args.keep.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(requests, args.keep / "requests")
            shutil.copyfile(answers, args.keep / "answers")
        if args.first is not None:  # the server cases' share of the recording
            with requests.open("rb") as all_lines:
                head = b"".join(itertools.islice(all_lines, args.first))
            requests = folder / "first"
            requests.write_bytes(head)
        names = {"played": ["played"], "harness": ["harness"], "lockstep": ["lockstep"],
                 "pipelined": ["pipelined"], "busy": [f"busy {args.busy:g} us"],
                 "protocol": ["protocol", "protocol server", "protocol harness"]}
        cpu: dict[str, list[float]] = {name: [] for case in CASES if case in chosen
                                       for name in names[case]}
        for _ in range(args.runs):
            if "played" in chosen:
                cpu["played"].append(checked(run([mtrain, "conform"], env=played_env)).cpu)
            if "protocol" in chosen:
                total = checked(run([mtrain, "conform", "--impl", f"{me} --timed {server_cpu}"
                                     f" -- {shlex.quote(mtrain)} serve"], env=env)).cpu
                server = float(server_cpu.read_text())
                cpu["protocol"].append(total)
                cpu["protocol server"].append(server)
                cpu["protocol harness"].append(total - server)
            if "harness" in chosen:
                alone = checked(run([mtrain, "conform", "--impl",
                                     f"{me} --replay {answers} --cpu-to {replay_cpu}"],
                                    env=env)).cpu
                cpu["harness"].append(alone - float(replay_cpu.read_text()))
            if "lockstep" in chosen:
                cpu["lockstep"].append(lockstep(requests, [mtrain, "serve"], env))
            if "busy" in chosen:
                cpu[f"busy {args.busy:g} us"].append(
                    lockstep(requests, [mtrain, "serve"], env, args.busy / 1e6))
            if "pipelined" in chosen:
                cpu["pipelined"].append(pipelined(requests, [mtrain, "serve"], env))
        count = sum(1 for _ in requests.open("rb"))
    after = load()
    medians = {name: round(median(values), 3) for name, values in cpu.items()}
    played = medians.get("played")
    out: dict[str, object] = {
        "runs": args.runs, "requests": count, "load_before": before, "load_after": after,
        "cpu_median": medians,
        "cpu": {name: [round(v, 3) for v in values] for name, values in cpu.items()}}
    if played:
        out["over_played"] = {name: round(value / played, 3) for name, value in medians.items()}
    if args.json:
        json.dump(out, sys.stdout, indent=2)
        print()
        return 0
    print(f"{args.runs} runs of each, taking turns; {count:,} requests to the server cases; "
          f"{before} before, {after} after")
    for name, value in medians.items():
        ratio = f"{value / played:5.2f}x played" if played else ""
        print(f"  {name:<17} {value:7.2f} CPU s  {ratio}   "
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
