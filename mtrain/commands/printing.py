"""Output shared by the commands: JSON on standard output, a text into a file or onto
standard output, and standard output silenced after a broken pipe."""

from __future__ import annotations

import contextlib
import json
import os
import sys
from typing import Any


def print_json(data: Any) -> None:
    json.dump(data, sys.stdout, indent=2)
    sys.stdout.write("\n")


def write_or_print(text: str, out: str | None) -> int:
    """`text` into the file `out` (saying so), or onto standard output."""
    if out:
        from mtrain.conformance.outputs import write_output

        write_output(out, "--out", lambda f: f.write(text))
        print(f"wrote {out}")
    else:
        from mtrain.output import write_document

        write_document(text)
    return 0


def quiet_stdout() -> None:
    """After a broken pipe: send what is left to /dev/null, so that the interpreter's
    last flush does not fail too (and print a traceback)."""
    if sys.stdout is None:  # closed when the command started: nothing is left to flush
        return
    with contextlib.suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
