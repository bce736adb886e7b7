"""A release counted early told from a duty ignored, by every table of a run together.

An engine that lets a player past the duty of a double of an earlier turn (DBL-6, DBL-7)
either ignores the duty or counts DBL-9's release wrong, freeing a double a few tiles
before every tile of its number is down (handcar's bug 2, tests/examples/js/
handcar_engine.js: at 13 of 16 tiles). One table cannot tell them apart, so a failure is
read as the release's only where its double is one tile short (move_charges
.near_release), and the duty's elsewhere: handcar's bug 2 was charged DBL-9 9 times,
DBL-6 8 and DBL-7 3.

The tables of a run can: a duty ignored shows where no release is near, an early release
only near the count. Each failure so charged carries, for every action let past the duty,
the fewest tiles short of the release at which a count gone wrong frees the double
(Referee.early; within a quarter of the number's tiles), or None where no such count
does. Where a rule set's run has several such failures and every one of them is near a
release, each is the release's (DBL-9), and says why; a single None keeps them all the
duty's (ballast's and tandem's bug 2, duties ignored, show far from any release too).

fuzz reads its games alike (fuzz/run.py one_per_bug): every occurrence of a play let
past such a duty carries its count (Disagreement.early), and where the run's are all
near a release, a finding charged to the duty folds into the release's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

RELEASE = "DBL-9"
DUTIES = ("DBL-6", "DBL-7")
TABLES = 3
"""The fewest failures near a release (in fuzz, occurrences), and none far, that read as a
count gone wrong."""


def counted_early(counts: Sequence[int | None], tables: int) -> bool:
    """Whether `tables` tables near a release, letting doubles go at `counts` tiles short
    of it (None: far from any), read as a release counted early: enough of them, and
    none far."""
    return tables >= TABLES and None not in counts


class Charged(Protocol):
    variant: str
    status: str
    charged: tuple[str, ...]
    messages: list[str]
    early: tuple[int | None, ...]


def charge_counted_early(results: Sequence[Charged]) -> None:
    """Charge to the release (DBL-9) the failures of each rule set charged to a duty of
    an earlier double, where the run shows a release counted early (the module
    docstring); the rest left as they are."""
    by_variant: dict[str, list[Charged]] = {}
    for r in results:
        if r.status == "fail" and r.early:
            by_variant.setdefault(r.variant, []).append(r)
    for found in by_variant.values():
        near = [r for r in found if r.charged and r.charged[0] in (*DUTIES, RELEASE)]
        if not counted_early([c for r in found for c in r.early], len(near)):
            continue  # too few, or a double let go far from its release: the duty ignored
        most = max(c for r in near for c in r.early if c is not None)
        for r in near:
            if r.charged[0] in DUTIES:
                duty, r.charged = r.charged[0], (RELEASE, *r.charged[1:])
                r.messages.append(
                    f"charged {RELEASE}, not {duty}: in {len(near)} tables of this run a "
                    "double of an earlier turn was let go only where its number was at "
                    f"most {most} tiles short of its release, never further off: a release "
                    "counted early, not the duty ignored")
