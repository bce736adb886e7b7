"""Arguments shared by the commands: a rule set by name, a fixture by its id, and numbers
argparse checks."""

from __future__ import annotations

import argparse
import math
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mtrain.spec.catalog import Catalog
    from mtrain.spec.ruleset import Ruleset


def resolve(cat: Catalog, variant: str, overlays: Sequence[str] = ()) -> Ruleset:
    """A variant, base+overlay+... or rule-set file, as a rule set (an InputError if not)."""
    from mtrain.spec.catalog import RulesetError
    from mtrain.spec.errors import InputError
    from mtrain.spec.yamlload import SpecError

    try:
        return cat.ruleset(variant, overlays)
    except (RulesetError, SpecError) as e:
        raise InputError(str(e)) from None


def why_missing(path: str) -> str | None:
    """Why `path` names no file or folder to read (None if it names one): a symbolic link
    that leads nowhere or in a loop is told apart from a path that is not there."""
    import os

    try:
        os.stat(path)
    except FileNotFoundError:
        if os.path.islink(path):
            return f"{path}: a symbolic link to nothing ({os.readlink(path)})"
        place, _, line = path.rpartition(":")
        if line.isdigit() and os.path.isfile(place):  # copied from a report: FILE:LINE
            return (f"no such file or folder: {path}, which names line {line} of {place} "
                    f"(a fixture's place, as a report writes it){_fixture_at(place, int(line))}"
                    ": name the file, and the fixture by its id")
        return f"no such file or folder: {path}"
    except OSError as e:  # a loop of links (ELOOP), a name too long, a folder not entered
        return f"{path}: {e.strerror or e}"
    return None


def path_for_an_id(text: str) -> str:
    """What to add to "no fixture TEXT" when TEXT is no id but a path: a fixture file or
    folder, or a fixture's place as a report shows it beside the id (`FILE:LINE`, copied
    from conform's report), which was said to be no fixture, unhelped. "" for any other
    text. A place whose file holds a fixture at that line names its id."""
    import os

    place, _, line = text.rpartition(":")
    path = place if line.isdigit() and place else text
    if not os.path.exists(path):
        return ""
    what = "a folder" if os.path.isdir(path) else "a file"
    found = _fixture_at(path, int(line)) if path != text and what == "a file" else ""
    return (f": {path} is {what}, not a fixture id{found}; give the id (as doubles-001), "
            "and the file or folder that holds it with --fixtures if it is not the shipped "
            "corpus")


def _fixture_at(path: str, line: int) -> str:
    """Words naming the fixture that opens at `line` of the file `path`, or "" if none."""
    from mtrain.conformance.fixture import load_corpus

    ids = [f.id for f in load_corpus(path)[0] if f.line == line]
    return f" (the fixture at line {line} is {ids[0]})" if ids else ""


_INTEGER = re.compile(r"[+-]?[0-9]+")
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
                      r"|[+-]?(?:inf|infinity|nan)", re.IGNORECASE)
"""Numbers as written on a command line: ASCII digits, no space nor underscore (Python's
int() and float() read `1_0` as 10, ` 2` as 2 and an Arabic-Indic or full-width digit
as its value: a number read other than written). inf and nan are read, for the checks
of range to refuse by name."""


def integer(text: str) -> int:
    """An argparse type: a whole number written in ASCII digits."""
    if len(text) > 30:  # int() of over 4,300 digits is a ValueError of its own
        raise argparse.ArgumentTypeError(f"too large a number: {text[:20]}...")
    if not _INTEGER.fullmatch(text):
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}")
    return int(text)


def decimal(text: str) -> float:
    """An argparse type: a number written in ASCII digits (a point, an exponent)."""
    if len(text) > 400 or not _DECIMAL.fullmatch(text):
        from mtrain.spec.errors import shown

        raise argparse.ArgumentTypeError(f"not a number: {shown(text)}")
    return float(text)


MAX_WAIT = 86_400.0
"""The longest a request may be waited for, in seconds (a day): --timeout 1e300 was read
and an engine that never answered then held the run for ever, a hang in all but name."""


def positive_float(text: str) -> float:
    """An argparse type: the seconds a request is waited for, positive, at most MAX_WAIT."""
    value = decimal(text)
    if not 0 < value < math.inf:
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds: {text!r}")
    if value > MAX_WAIT:
        raise argparse.ArgumentTypeError(f"must be at most {MAX_WAIT:,.0f} seconds (a day): "
                                         f"{text!r}")
    return value


def whole(least: int, most: int | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number of at least `least` (and at most `most`)."""
    def parse(text: str) -> int:
        value = integer(text)
        if value < least:
            raise argparse.ArgumentTypeError(f"must be at least {least}: {text!r}")
        if most is not None and value > most:
            raise argparse.ArgumentTypeError(f"must be at most {most:,}: {text!r}")
        return value
    return parse


positive_int = whole(1)
count = whole(0)

MAX_JOBS = 64
"""Processes at once, at most: each is an implementation or a worker, and a count past
this is a slip (-j 1000 would start a thousand programs on a machine of a few cores)."""
job_count = whole(1, MAX_JOBS)

MAX_SEED = 2**63 - 1
"""Seeds are whole numbers from 0 to here: Python's random would take -1 as 1 (the same
games under another name) and a seed of hundreds of digits names reproducer files longer
than a file name may be."""
seed = whole(0, MAX_SEED)


def pattern(text: str) -> str:
    """An argparse type: a -k pattern, which an empty one would not be (it matches every
    fixture, so a run meant to select a few would run them all)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty pattern matches every fixture; give part "
                                         "of a fixture id, or leave -k out")
    return text

