"""Messages about a program under test, worded for the user who runs it: why it could
not be started (a shell built-in, a folder, a file not executable, a name not on PATH),
and a value it sent, as JSON writes it."""

from __future__ import annotations

import errno
import json
import os
import shutil
from typing import Any

SHELL_WORDS = frozenset({
    "alias", "bg", "cd", "command", "eval", "exec", "exit", "export", "fg", "jobs",
    "read", "set", "shift", "source", "trap", "ulimit", "umask", "unset", "wait", ".", "{",
    "if", "for", "while", "time"})
"""Words a shell runs itself: no program of the name exists to start."""


def json_text(value: Any) -> str:
    """A value as JSON writes it (2.0, true, null), short, for a message."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _missing_interpreter(path: str) -> str | None:
    """Why the script `path` cannot start though it is there: its #! line names an
    interpreter that is not (a line ending in CR, written on Windows, names `sh\r`)."""
    try:
        with open(path, "rb") as f:
            first = f.readline(4096)
    except OSError:
        return None
    if not first.startswith(b"#!"):
        return None
    line = first[2:].rstrip(b"\n")
    if line.endswith(b"\r"):
        named = line.strip(b" \t").split(b" ")[0].decode(errors="replace")
        return (f"its #! line ends in a carriage return (Windows line endings), so the "
                f"interpreter looked for is {named!r}; save it with Unix line endings")
    words = line.split()
    shown = words[0].decode(errors="replace") if words else "nothing"
    return f"its #! line names the interpreter {shown!r}, which is not there"


def why_not_run(program: str, error: OSError) -> str:
    """What is wrong with `program`, which could not be started, in words a user acts on."""
    if program in SHELL_WORDS and isinstance(error, FileNotFoundError):
        return (f"{program!r} is a shell built-in, not a program; the command runs without a "
                "shell (to run a shell line: --impl \"sh -c '...'\")")
    found = program if os.sep in program else shutil.which(program)
    if found and isinstance(error, FileNotFoundError) and os.path.isfile(found):
        missing = _missing_interpreter(found)  # the program is there: its #! line is not
        if missing:
            return missing
    if os.sep in program:
        if os.path.isdir(program):
            return f"{program} is a folder, not a program"
        if os.path.isfile(program) and not os.access(program, os.X_OK):
            return (f"{program} is not executable (chmod +x it, or name its interpreter: "
                    f"--impl \"python {program}\")")
    elif isinstance(error, FileNotFoundError):
        return f"no program {program!r} on PATH"
    if error.errno == errno.ENOEXEC and found:  # a script with no #! line: no interpreter
        return (f"{found} is not a program the system can start (a script needs a #! line "
                f"naming its interpreter, or name it: --impl \"python {found}\")")
    return str(error.strerror or error)
