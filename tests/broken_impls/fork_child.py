"""Starts a child that holds its stdout and stderr open for ten minutes, then answers
correctly until request K (argv[2], default 3), where it misbehaves as argv[1] says:

- exit: exits with code 5, leaving the child behind (so its stdout stays open);
- hang: stops answering, without exiting;
- none: never misbehaves (the child is still left when it shuts down).

With argv[4] == "setsid" the child starts a session of its own (out of the program's
process group), still holding the pipes.

Each process appends "<its pid> <the child's pid>" to the file argv[3], so that a test
can check that none of them outlives the harness; one that hangs, its pid to argv[3].hung.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from typing import Any

from _base import arg, run

MODE = arg(1, "exit")
K = int(arg(2, "3") or 3)
PIDS = arg(3)

child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"],
                         start_new_session=arg(4) == "setsid")
if PIDS is not None:
    with open(PIDS, "a") as f:
        f.write(f"{os.getpid()} {child.pid}\n")


def hook(n: int, request: dict[str, Any], answer: bytes) -> bytes | None:
    if n == K and MODE == "exit":
        os._exit(5)
    if n == K and MODE == "hang":
        if PIDS is not None:  # a test can tell it has hung (tests/test_robust_more.py)
            with open(f"{PIDS}.hung", "a") as f:
                f.write(f"{os.getpid()}\n")
        time.sleep(60)
    return answer


run(hook)
