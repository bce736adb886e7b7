"""What a game found: each disagreement with the probe that asks it again (the smallest
seen), and the game's counts (steps, rounds, answers, those not judged, why it ended)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from mtrain.conformance.fuzz.judge import Disagreement, Probe
from mtrain.conformance.fuzz.rulesets import Context


@dataclass
class Occurrence:
    """A disagreement seen in a game, with the probe that asks it again."""

    probe: Probe
    disagreement: Disagreement
    game: int
    round: int
    step: int  # 0: the deal
    players: int


@dataclass
class GameResult:
    index: int
    variant: str = ""
    steps: int = 0
    rounds: int = 0
    blocked: set[int] = field(default_factory=set)  # rounds the reference ended blocked
    steered: bool = False  # its plays steered toward a blocked end (steer.py)
    found: dict[str, tuple[int, Occurrence]] = field(default_factory=dict)
    """signature -> (how often, the occurrence with the smallest probe)"""
    alike: dict[str, str | None] = field(default_factory=dict)
    """signature -> the clause every occurrence of it reads as too (Disagreement.alike)"""
    early: dict[str, list[int | None]] = field(default_factory=dict)
    """signature -> Disagreement.early of every occurrence"""
    warnings: list[str] = field(default_factory=list)
    skipped: bool = False
    not_applicable: str | None = None  # every question was answered `unsupported`
    answered: int = 0  # questions the implementation answered (a failure is an answer)
    unsupported: dict[str, int] = field(default_factory=dict)  # reason -> questions
    own: dict[str, int] = field(default_factory=dict)
    """`other` options -> answers of the reference they decide, not judged (own_rules)"""
    own_differ: dict[str, int] = field(default_factory=dict)
    """`other` options, with the values played in their place -> the answers not judged
    that differ from those values' (a rule of one's own there, or bugs)"""
    own_cut: dict[str, int] = field(default_factory=dict)
    """`other` options -> answers they read that were judged all the same, as conform cuts
    such an entry (a bracket, a release, a dry draw; the markers up before a step or what
    a round's end is worth taken from the implementation; a move only its own rules allow
    judged by what it does): counted among those judged, not set aside"""
    own_scores: int = 0
    """`score` answers judged against the implementation's own result, under a scoring
    (blank values, ...) of its own (round_end._own_score)"""
    cut: str | None = None  # why the game ended before its round did
    stopped: bool = False  # the time limit ended the game
    broken: bool = False  # the implementation failed too often (Session.broken)
    fatal: str | None = None  # the implementation could not be started
    setups: dict[str, str] = field(default_factory=dict)
    """`variant: N players` -> what the implementation did with that setup its table lacks
    (setups.ask; asked after the run's first game of each rule set: GamePlan.asks_setups)"""

    def not_judged(self, options: Sequence[str]) -> None:
        key = " and ".join(options)  # (a list of these is printed with commas)
        self.own[key] = self.own.get(key, 0) + 1

    def judged_by_cut(self, options: Sequence[str]) -> None:
        key = " and ".join(options)
        self.own_cut[key] = self.own_cut.get(key, 0) + 1

    def differs(self, ctx: Context, options: Sequence[str]) -> None:
        """An answer not judged that differs from the one of the values played in place
        of `options`."""
        key = ", ".join(f"{o}={ctx.rules.ruleset[o]}" for o in options)
        self.own_differ[key] = self.own_differ.get(key, 0) + 1

    def record(self, found: Sequence[Disagreement], probe: Probe, round_no: int, step: int,
               players: int) -> None:
        for d in found:
            seen = self.found.get(d.signature)
            # the smaller probe, one conform runs (no rule of one's own read) first
            if seen is None or (bool(d.own), probe.weight) < (
                    bool(seen[1].disagreement.own), seen[1].probe.weight):
                best = Occurrence(probe, d, self.index, round_no, step, players)
            else:
                best = seen[1]
            self.found[d.signature] = ((seen[0] if seen else 0) + 1, best)
            # a clause every occurrence reads as too (Disagreement.alike), or None
            was = self.alike.get(d.signature, d.alike) if seen else d.alike
            self.alike[d.signature] = d.alike if was == d.alike else None
            if d.early:  # how near a release each play past a duty was (release_counts)
                self.early.setdefault(d.signature, []).extend(d.early)
