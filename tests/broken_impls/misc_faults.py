"""One fault from request K on (argv[2], default 2, so the hello is right), named by
argv[1]:

- ``no-newline``: writes its answer without the newline, says so on stderr, then hangs;
- ``stderr-flood``: answers right, but writes to stderr without end from request K on,
  from a thread, while it goes on answering;
- ``latin1``: answers with a JSON line whose text is Latin-1, not UTF-8;
- ``nan``: answers a score request with NaN among the scores;
- ``float-id``: the answer's id written as a float (2.0);
- ``extra-line``: answers, then writes a second answer line nobody asked for;
- ``empty-object``: answers with ``{}``;
- ``extra-field``: answers right, with a field the protocol has not (``"note"``) beside
  ``id`` and ``ok``;
- ``buffered``: logs the request to stderr, then keeps its answer in a buffer it never
  flushes (a program whose stdout is block-buffered when it is a pipe), and hangs;
- ``blank-line``: writes an empty line instead of its answer, says so on stderr, then
  hangs.
"""

from __future__ import annotations

import sys
import threading
import time
from typing import Any

from _base import arg, run

FAULT = arg(1, "no-newline")
K = int(arg(2, "2") or 2)
flooding = False


def flood() -> None:
    line = b"warning: " + b"z" * 1000 + b"\n"
    while True:
        sys.stderr.buffer.write(line)


def hook(n: int, request: dict[str, Any], answer: bytes) -> bytes | None:
    global flooding
    if n < K:
        return answer
    if FAULT == "no-newline":
        sys.stdout.buffer.write(answer.rstrip(b"\n"))
        sys.stdout.buffer.flush()
        sys.stderr.write("wrote half a line\n")  # a test can tell it is there
        sys.stderr.flush()
        time.sleep(3600)
    if FAULT == "blank-line":
        sys.stdout.write("\n")
        sys.stdout.flush()
        sys.stderr.write("wrote an empty line\n")  # a test can tell it is there
        sys.stderr.flush()
        time.sleep(3600)
    if FAULT == "buffered":
        sys.stderr.write(f"got request {request['id']}\n")
        sys.stderr.flush()
        time.sleep(3600)
    if FAULT == "stderr-flood":
        if not flooding:
            flooding = True
            threading.Thread(target=flood, daemon=True).start()
        return answer
    if FAULT == "latin1":
        return answer.rstrip(b"\n")[:-1] + ',"note":"caf\xe9"}\n'.encode("latin-1")
    if FAULT == "float-id":
        return answer.replace(b'"id":%d' % request["id"], b'"id":%d.0' % request["id"], 1)
    if FAULT == "extra-line":
        return answer + answer
    if FAULT == "extra-field":
        return answer.rstrip(b"\n")[:-1] + b',"note":"cached"}\n'
    if FAULT == "empty-object":
        return b"{}\n"
    return answer


run(hook)
