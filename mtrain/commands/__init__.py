"""The `mtrain` subcommands, one module each: `register(subparsers)` adds the command's
arguments, `run(args)` does it and prints its output.

A command module imports only the standard library at the top, so that `mtrain --help`
(which registers every command) loads nothing else; its libraries are imported by `run`.
mtrain/cli.py assembles the parser, dispatches and maps errors to exit codes.
"""

from typing import Any

COMMANDS: tuple[str, ...] = (
    "variants", "explain", "lint", "rules", "situations", "docs", "render", "state", "simulate",
    "conform", "serve", "identify", "mutants", "fuzz", "diff", "check")
"""The subcommands, in the order the help lists them: each is mtrain.commands.<name>,
with `register(subparsers)`. Here, beside nothing else, for mtrain/__main__.py to name an
interrupted command without importing the command line."""


def interrupted(words: list[str]) -> str:
    """The line a command interrupted before it ran says, `words` its command line."""
    name = f"mtrain {words[0]}" if words and words[0] in COMMANDS else "mtrain"
    return f"{name}: interrupted"


LOST: list[int | None] = []
"""Interrupts Python could not raise, in the order they came: each its signal's number
(None: SIGINT's KeyboardInterrupt)."""


def keep_lost_interrupts() -> None:
    """An interrupt Python raises where it cannot raise one (a weakref callback of its
    import locks, an object's __del__) is printed "Exception ignored in ..." and dropped:
    the command went on to its end and exited 0. Kept instead (in LOST), for the command
    line to raise before the command runs, or to end with once it has (`raise_lost`). Not
    raised again from here: the signal's handler would run at once, inside this hook, and
    be ignored in turn. For the process's own command line only (mtrain/__main__.py)."""
    import sys

    said = sys.unraisablehook
    if getattr(said, "keeps_interrupts", False):
        return

    def hook(unraisable: Any) -> None:
        if isinstance(unraisable.exc_value, KeyboardInterrupt):
            LOST.append(getattr(unraisable.exc_value, "signum", None))
        else:
            said(unraisable)

    hook.keeps_interrupts = True  # type: ignore[attr-defined]
    sys.unraisablehook = hook


def raise_lost() -> None:
    """The first interrupt kept in LOST, raised now."""
    if LOST:
        lost = KeyboardInterrupt()
        if LOST[0] is not None:
            lost.signum = LOST[0]  # type: ignore[attr-defined]
        raise lost


def interrupt_behind(error: BaseException) -> KeyboardInterrupt | None:
    """The interrupt that `error` stands for: Python 3.11 turns one raised while a class
    is made (a descriptor's __set_name__: an Enum's members, a cached_property, as many
    modules' imports make them) into "RuntimeError: Error calling __set_name__ ...", its
    cause the KeyboardInterrupt, which a catch of that one missed (a traceback, exit 1)."""
    cause = error.__cause__
    return cause if isinstance(error, RuntimeError) and isinstance(
        cause, KeyboardInterrupt) else None
