"""Run the command line with ``python -m mtrain``; `run` is the `mtrain` command's entry
point (pyproject.toml), which the console script pip writes imports before calling it.

This module imports nothing at its top: what the script imports before the call is beyond
any catch, and an interrupt there was a traceback and death by SIGINT. mtrain.cli, and all
it imports, comes inside `run`, where a Ctrl-C is one line and exit 130 as cli.main says it.
"""


def run() -> int:
    """The command line of the process (sys.argv), as mtrain.cli.main runs it."""
    import sys

    _closed_streams_opened()
    try:
        from mtrain.commands import keep_lost_interrupts

        keep_lost_interrupts()  # before the imports, whose locks' callbacks may lose one
        from mtrain.cli import main
    except (KeyboardInterrupt, RuntimeError) as e:  # Ctrl-C while it starts: one line
        from mtrain.commands import interrupt_behind, interrupted

        if not isinstance(e, KeyboardInterrupt) and interrupt_behind(e) is None:
            raise
        print(interrupted(sys.argv[1:]), file=sys.stderr)  # as cli.main says it
        return 130
    return main()


def _closed_streams_opened() -> None:
    """Standard input, output or error closed when the process started (`mtrain ... 2>&-`)
    opened on the null device. Python's sys.stderr was None, and a print to it went to
    standard output: an error was mixed into the report, or stood as the whole of it.
    Now a message to a closed stderr is lost, as the user asked, and the exit code says
    it. The descriptor is taken too, or the first file opened got it (a report, a cache
    entry, a pipe to an engine), and whatever wrote to stderr (a fatal error, a child
    started without a stderr of its own) wrote into that. sys.stdout stays None: a
    command with output to write says that it cannot (mtrain/output.py)."""
    import os
    import sys

    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            null = os.open(os.devnull, os.O_RDWR)  # the lowest free: `fd` itself
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
    if sys.stderr is None:
        sys.stderr = open(2, "w", closefd=False, errors="backslashreplace")  # noqa: SIM115


if __name__ == "__main__":
    raise SystemExit(run())
