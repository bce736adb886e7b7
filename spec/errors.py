"""The root of the errors the libraries raise on input they cannot use.

An unknown name, a malformed file, an impossible request, a bad argument to a library
call: each is an `InputError` (or a subclass) whose message says what and where. The
libraries never decide an exit code; the command line (mtrain/cli.py) turns an
InputError into one line on stderr and exit 2.
"""

from __future__ import annotations

import re
from collections.abc import Iterable


class InputError(Exception):
    """Input the project cannot use, with a message that names it."""


class UsageError(InputError):
    """A command line that cannot be run as written (options that do not go together, a
    count out of range), found by a command rather than argparse: printed as argparse's
    usage errors are, naming the command and its help (mtrain/cli.py)."""


QUOTE_LIMIT = 60
"""Characters of a bad value a message quotes; a longer one is cut, its length said."""


def shown(value: object, limit: int = QUOTE_LIMIT) -> str:
    """`value` quoted for a message (repr), cut to a readable prefix when long: a 5,000
    character bad name is not worth repeating whole."""
    text = repr(value)
    if len(text) <= limit:
        return text
    size = f"{len(value):,} characters" if isinstance(value, str) else f"{len(text):,} " \
        "characters written out"
    return f"{text[:limit]}... ({size})"


_LONG_RUN = re.compile(r"\S{201,}")


def cut_long_runs(message: str) -> str:
    """A message with every run of more than 200 characters without a space (a path, a
    name, a quoted value from the command line or a file) cut to a readable prefix and
    its length: what the command line prints, whatever the layer that wrote it."""
    def cut(m: re.Match[str]) -> str:
        run = m[0].rstrip(":;,.")  # the punctuation after it stays
        size = len(run.strip("'\""))  # the quoted text's own length
        return f"{run[:QUOTE_LIMIT]}... ({size:,} characters){m[0][len(run):]}"
    return _LONG_RUN.sub(cut, message)


def written_otherwise(value: object, known: Iterable[str]) -> str:
    """A hint for an unknown name that is a known one written another way (in another case,
    or with spaces at its ends: `Tile_set`, `Double-12`, `' pagat'`): the list of known
    names alone left the reader to spot the one letter; '' when it is no such slip."""
    if not isinstance(value, str):
        return ""
    bare = value.strip().casefold()
    same = [k for k in known if k.casefold() == bare]
    return (f" (did you mean {same[0]!r}? names are in lower case, with no spaces at their "
            "ends)" if same else "")
