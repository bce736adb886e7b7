"""Run the command line with ``python -m mtrain``; `run` is the `mtrain` command's entry
point (pyproject.toml), which the console script pip writes imports before calling it.

This module imports nothing at its top: what the script imports before the call is beyond
any catch, and an interrupt there was a traceback and death by SIGINT. mtrain.cli, and all
it imports, comes inside `run`, where a Ctrl-C is one line and exit 130 as cli.main says it.
"""


def run() -> int:
    """The command line of the process (sys.argv), as mtrain.cli.main runs it."""
    import sys

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


if __name__ == "__main__":
    raise SystemExit(run())
