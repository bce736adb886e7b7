"""Plumbing shared by the deliberately broken implementations (see tests/test_conform.py).

Each script is the reference server (`mtrain serve`) with one fault: `run(hook)` answers
every request with the reference engine and lets `hook` replace, drop or sabotage the
answer. Faults that should happen once across restarts take a marker file: the first
process to create it misbehaves, later ones do not.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Any

Hook = Callable[[int, dict[str, Any], bytes], bytes | None]
"""(request number from 1 (the hello), the request, the correct answer line) -> the line
to write instead, or None to write nothing."""


def arg(i: int, default: str | None = None) -> str | None:
    return sys.argv[i] if len(sys.argv) > i else default


def once(marker: str | None) -> bool:
    """True for the first process to ask with `marker` (always, without a marker)."""
    if marker is None:
        return True
    try:
        os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return False
    return True


def run(hook: Hook) -> None:
    from mtrain.conformance.protocol import decode, encode
    from mtrain.conformance.serve import Server

    server = Server()
    for n, line in enumerate(sys.stdin.buffer, 1):
        answer, stop = server.handle(line)
        out = hook(n, decode(line), encode(answer))
        if out is not None:
            sys.stdout.buffer.write(out)
            sys.stdout.buffer.flush()
        if stop:
            return
