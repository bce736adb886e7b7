"""The root of the errors the libraries raise on input they cannot use.

An unknown name, a malformed file, an impossible request, a bad argument to a library
call: each is an `InputError` (or a subclass) whose message says what and where. The
libraries never decide an exit code; the command line (mtrain/cli.py) turns an
InputError into one line on stderr and exit 2.
"""

from __future__ import annotations


class InputError(Exception):
    """Input the project cannot use, with a message that names it."""
