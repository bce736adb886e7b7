"""A fuzz run's findings: the occurrences of one signature grouped (`Group`), known
findings set apart, and the signatures of one bug made one finding (`one_per_bug`).
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from mtrain.conformance.fuzz.judge import Disagreement, Probe
from mtrain.conformance.fuzz.results import GameResult, Occurrence
from mtrain.conformance.known_failures import SkipEntry
from mtrain.conformance.release_counts import DUTIES, RELEASE, counted_early


@dataclass
class Group:
    """Every occurrence of one signature (under rule sets a known finding does not cover,
    or under those it does: then `known` is its reason)."""

    signature: str
    count: int
    first: Occurrence
    best: Occurrence
    variants: list[str]
    known: str | None = None
    shrunk: Probe | None = None
    verdict: Disagreement | None = None
    shrink_tries: int = 0
    shrink_seconds: float = 0.0
    path: Path | None = None
    problems: list[str] = field(default_factory=list)
    charged: tuple[str, ...] = ()
    """The clauses conform charges where the implementation fails the reproducer."""
    also: list[tuple[str, int]] = field(default_factory=list)
    """Other signatures of the same bug, folded into this finding (`one_per_bug`), with
    how often each showed."""
    unasked: list[str] = field(default_factory=list)
    """Of `also`, those with no reproducer, folded by the clause their step names first
    (`one_per_bug`): no charge of conform's to go by."""
    alike: str | None = None
    """The clause every occurrence reads as too, where one table cannot tell it from the
    one charged (Disagreement.alike)."""
    early: list[int | None] = field(default_factory=list)
    """Disagreement.early of every occurrence: how near a release each play let past a
    duty was (release_counts.py)."""

    @property
    def signatures(self) -> list[str]:
        return [self.signature, *(s for s, _ in self.also)]


def _known(entries: Sequence[SkipEntry], signature: str, variant: str) -> str | None:
    return next((e.reason for e in entries if e.matches(signature, variant)), None)


def _add(groups: dict[tuple[str, str | None], Group], result: GameResult,
         known: Sequence[SkipEntry]) -> int:
    """Fold a game's findings into the run's; the number of new signatures it brought."""
    fresh = 0
    for signature, (count, occ) in result.found.items():
        reason = _known(known, signature, result.variant)
        key = (signature, reason)
        group = groups.get(key)
        alike = result.alike.get(signature)
        early = result.early.get(signature, [])
        if group is None:
            groups[key] = Group(signature, count, occ, occ, [result.variant], reason,
                                alike=alike, early=list(early))
            fresh += reason is None
            continue
        group.count += count
        group.early += early
        group.alike = group.alike if group.alike == alike else None
        # the smallest, and first one that can be asked again and whose step read no rule
        # of its own (conform runs it)
        if _rank(occ) < _rank(group.best):
            group.best = occ
        if result.variant not in group.variants:
            group.variants.append(result.variant)
    return fresh


def _rank(occ: Occurrence) -> tuple[bool, bool, tuple[int, int]]:
    d = occ.disagreement
    return d.no_reproducer is not None, bool(d.own), occ.probe.weight


ROUND_SCORES = ("round end: result.scores", "round end: INV-ROUND-SCORE")
"""The signatures of a round's own scores wrong at its end (judge_apply.compare_apply)."""


def cause(signature: str) -> str:
    """What a signature says differs, less how the step that showed it came about: the
    state after a play and after a pass wrong in the same field (`after play:
    first_turns`, `after pass: first_turns`), an action the rules refuse listed or accepted
    (but not one they allow left out or refused: which way the engine errs is the bug's, not
    the step's, and fuzz cannot tell one bug that errs both ways from two bugs that err one
    way each, as ballast's double released a tile early, `allows play (DBL-9)`, and its
    drawn tile kept off marked trains, `forbids play (DBL-9)`: signalbox's one marker bug
    is two findings, `allows play (TRAIN-4)` and `forbids play (TRAIN-4)`), one move
    offered for another whichever moment's clause named it (`allows pass (TURN-2) instead
    of draw`, `allows pass (DBL-5) instead of draw`), a round's scores wrong at its end and
    in the `score` answer (flagstop's [0-0] forgotten), or `score` failing on a state the
    reference scores where conform charges it where the round's end is charged (the mutant
    blanks-scored-wrong's `exception on score (StateError)` beside its round end, both
    SCORE-2); a failure of any other request, or `score` out of time, stays its own."""
    if signature in ROUND_SCORES or re.fullmatch(r"score \([a-z ]+\)", signature) or (
            re.fullmatch(r"(?:exception on score \(\w+\)|(?:error|crash) on score)", signature)):
        return "a round's scores"  # asked by `score` or by the step that ends the round
    state = re.fullmatch(r"after [a-z ]+: (.+)", signature)
    if state is not None:
        return f"after a step: {state.group(1)}"
    # one move for another: the clause in the signature is the moment's (a follow-up's
    # draw is DBL-5's, an ordinary turn's TURN-2's: judge.compare_legal), the charge
    # beside the cause tells bugs apart (dandy's pass for the draw with one tile left,
    # in either moment, charged TURN-2 both times: two findings for one bug)
    swap = re.fullmatch(r"allows ([a-z-]+) \([A-Z]+-\d+\) instead of ([a-z-, ]+)", signature)
    if swap is not None:
        return f"{swap.group(1)} instead of {swap.group(2)}"
    return signature


def one_per_bug(groups: list[Group]) -> list[Group]:
    """The new findings, one per bug: those whose reproducers conform charges to the same
    clause, for the same cause (`cause`), are one bug showing in several kinds of step
    (gondola's first turn struck after a play and after a pass, FIRST-6), folded into
    the first found; its reproducer stands for them (theirs are removed). A finding
    without a checked reproducer has no charge to go by and stays on its own, as do
    known ones; so do two bugs of one clause that differ in what they get wrong."""
    first: dict[tuple[tuple[str, ...], str], Group] = {}
    out: list[Group] = []
    for g in groups:
        if g.known is not None or g.path is None or not g.charged:
            out.append(g)
            continue
        head = first.setdefault((g.charged, cause(g.signature)), g)
        if head is g:
            out.append(g)
            continue
        _fold(head, g)
        _remove(g)
    # plays let past the duty of an earlier double only near its release, in every game:
    # a release counted early (release_counts.py), the duty's findings read as DBL-9's
    near = [g for g in out if g.known is None and g.early]
    if counted_early([c for g in near for c in g.early], sum(len(g.early) for g in near)):
        for g in near:
            if g.charged and g.charged[0] in DUTIES and g.alike is None:
                g.alike = RELEASE
    # A finding every occurrence of which reads as another clause's too, on tables that
    # cannot tell the two apart, folds into the finding of the same kind named and charged
    # by that clause, where there is one: ballast's own double's duty forgotten (`allows
    # play (DBL-6)`) read as a release one tile short (`allows play (DBL-9)`) wherever that
    # double lay on the mover's own train
    for g in [g for g in out if g.alike is not None and g.known is None and g.path]:
        twin = re.sub(r"\([A-Z]+-\d+\)", f"({g.alike})", g.signature, count=1)
        into = next((h for h in out if h.signature == twin and h is not g and h.path
                     and h.known is None and h.charged == (g.alike,)), None)
        if into is not None:
            _fold(into, g)
            _remove(g)
            out.remove(g)
    # A finding that has no reproducer is folded where its cause is a charged finding's
    # and the first clause of that kind its own step names is the one charged there:
    # viaduct's round ended by its own blocked rule at face value (`round end:
    # INV-ROUND-SCORE`, no fixture can ask a move only its own rules end the round on)
    # beside its `score (blocked)`, charged SCORE-6
    kept: list[Group] = []
    for g in out:
        into = None if g.known is not None or g.path is not None or g.charged else next(
            (h for (charged, why), h in first.items()
             if why == cause(g.signature) and _names_first(g, charged[0])), None)
        if into is None:
            kept.append(g)
            continue
        _fold(into, g)
        into.unasked.append(g.signature)
    return kept


def _fold(head: Group, g: Group) -> None:
    head.count += g.count
    head.also.append((g.signature, g.count))
    head.variants += [v for v in g.variants if v not in head.variants]


def _names_first(g: Group, clause: str) -> bool:
    """Whether `clause` is the first clause of its kind (SCORE-, MARK-, ...) that the step
    of `g`'s finding names."""
    d = g.verdict or g.best.disagreement
    kind = clause.split("-", 1)[0] + "-"
    return next((c for c in d.clauses if c.startswith(kind)), None) == clause


def _remove(group: Group) -> None:
    """The file written as the finding was found, for one that is not reproduced."""
    if group.path is not None:
        with contextlib.suppress(OSError):
            group.path.unlink()
        group.path = None
