"""What identify finds (run.py): an observation of one fixture, each option's finding,
and the identification with the rule-set file it writes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mtrain.conformance.fixture import Fixture
from mtrain.spec.catalog import Catalog
from mtrain.spec.ruleset import CUSTOM, OTHER, Ruleset


@dataclass
class Observation:
    fixture: Fixture
    outcomes: tuple[str | None, ...]  # per entry: pass | fail | None (not seen)
    notes: list[str] = field(default_factory=list)
    refused: bool = False  # the engine refused the fixture's setup (its table, or a deal)
    charged: list[str] = field(default_factory=list)
    """The clauses its failed comparisons break, as conform charges them (observe.py)."""
    by_entry: dict[int, tuple[str, ...]] = field(default_factory=dict)
    """The same for each failed entry, by its index (a refused step: every entry's)."""
    stands: dict[str, frozenset[str]] = field(default_factory=dict)
    """Options read here only for whether the table exists (observe.py, SETUP_ONLY): the
    values `other` stands for in this fixture."""
    lacks: bool = False
    """The engine refused a deal here (the start, or a later round's) for no player count
    it does not deal: it has no such table, and the values that have it are contradicted
    (observe.py, SETUP_ONLY)."""
    unshared: dict[int, str] = field(default_factory=dict)
    """Entries failed in what a clause every known value shares decides alone, by index,
    each with that clause (shared.py): left unread (None), a likely bug."""
    over_early: frozenset[int] = frozenset()
    """Entries after which the engine names the match's winners where the entry expects the
    match to go on (MATCH-1): its match ends there (shared.own_match)."""
    uncovered: bool = False
    """On a follow-up table of this fixture's run the engine refused to cover the double
    just laid, which every known follow-up allows (follow_probe.py): its follow-up lies
    outside the known rules' bracket (bracket_alone.BRACKETS), so a rule of its own there
    may decide what the known values agree on (solve.constraint, `unbracketed`)."""
    judged: frozenset[str] = frozenset()
    """Options the engine declares its own under which conform still judges, and fails, an
    entry (observe.py, _judged_own: a release of one's own decides only which steps are
    legal, release_alone.py): no rule of its own of them explains this fixture."""
    erred: bool = False
    """Every entry's outcome is the engine's error answer (observe.py, _erred): read as the
    partition reads a table the rules cannot play, but never a check towards `sure`
    (findings.py, _checks): an engine that cannot go on (it dies at 8 seats) answers so
    whatever its rules."""


@dataclass
class OptionFinding:
    option: str
    value: str
    status: str  # measured | sure | likely | undetermined | other | contradicted
    margin: int
    evidence: list[str]  # what shows it: a measurement, or the fixtures that rule out the rest
    alternatives: list[str] = field(default_factory=list)
    fewer_bugs: tuple[str, tuple[str, ...], tuple[str, ...]] | None = None
    """A known value found though fixtures of its clauses contradict it, where another
    reading leaves fewer fixtures unexplained: (that reading's value, the fixtures it
    reads as bugs, those that contradict the value found), conclude.py's _readings."""
    agreement: tuple[tuple[str, int, int], ...] = ()
    """For an option found `other`: each known value with the fixtures telling the values
    apart whose outcomes fit it and their number (bugs.agreement), the nearest first."""


@dataclass
class Identification:
    ruleset: Ruleset
    findings: list[OptionFinding]
    unexplained: list[str]  # fixtures no identified rule set explains: likely bugs
    observed: int
    informative: int
    seconds: float
    hand_table: dict[int, int] | None
    declared: Ruleset | None = None
    sent: str = ""
    base: str = ""
    problems: list[str] = field(default_factory=list)  # likely bugs, in words
    unseen: str = ""  # what the engine did not answer (Watched.summary)
    requests: int = 0
    corpus: int = 0  # fixtures in the corpus
    sent_rules: Ruleset | None = None  # what the fixtures were asked under
    situations: int = 0  # situations from play asked besides the corpus
    broke: list[str] = field(default_factory=list)  # answers read though they broke the
    # protocol (Watched.broke): said in the report and the file, never found "sure" unsaid

    def finding(self, option: str) -> OptionFinding:
        return next(f for f in self.findings if f.option == option)

    def to_file(self, cat: Catalog) -> dict[str, Any]:
        options: dict[str, Any] = {}
        for o, v in self.ruleset.choices:
            options[o] = ({str(n): h for n, h in self.ruleset.hand_table}
                          if o == "hand_sizes" and v == CUSTOM else v)
        evidence = {f.option: f"{f.status} (margin {f.margin}): "
                    + (", ".join(shown_evidence(f.evidence))
                       or "no fixture tells its values apart")
                    + (f"; the value of {self.base}, which nothing contradicts"
                       if f.status == "undetermined" else "")
                    for f in self.findings}
        undetermined = [f.option for f in self.findings if f.status == "undetermined"]
        text = ("Found by mtrain identify: the closest rule set to what the engine plays."
                + (f" Undetermined (the value of {self.base} kept): "
                   f"{', '.join(undetermined)}." if undetermined else "")
                + "".join(f" {p}" for p in self.problems)
                + "".join(f" The engine's answers broke the protocol: {b}." for b in self.broke))
        return {"name": self.ruleset.name, "description": text, "options": options,
                "evidence": evidence}

    def file_text(self, cat: Catalog) -> str:
        """The rule-set file, each undetermined option marked so on its line."""
        import yaml

        body = yaml.safe_dump(self.to_file(cat), sort_keys=False, width=100)
        marks = {f.option: f.status for f in self.findings if f.status == "undetermined"}
        marks.update({f.option: _other_mark(f) for f in self.findings if f.status == "other"})
        # contradicted: the value written is the solver's; the line says what else fits
        marks.update({f.option: (f"other: its own rule, near no known value "
                                 f"({agreement_words(f)}); "
                                 if f.value == OTHER and near_none(f) else
                                 f"other: its own rule, or {f.alternatives[0]} if the "
                                 "fixtures against it are bugs; " + (
                                     f"{agreement_words(f)}; " if f.agreement else "")
                                 if f.value == OTHER
                                 else f"contradicted: {f.value}, or other if the fixtures "
                                 "against it are a rule of its own; ") + f.evidence[0]
                      for f in self.findings if f.status == "contradicted"})
        lines, inside = [], False
        for line in body.splitlines():
            if not line.startswith(" "):
                inside = line == "options:"
            key = line.strip().split(":", 1)[0]
            if inside and line.startswith("  ") and not line.startswith("   ") \
                    and key in marks and not line.rstrip().endswith(":"):
                line += f"  # {marks[key]}"
            lines.append(line)
        return "# Written by mtrain identify.\n" + "\n".join(lines) + "\n"


def counted(n: int, noun: str = "fixture", verb: str = "") -> str:
    """`n` and the noun (and the verb) agreeing with it ("1 fixtures show" was written)."""
    return f"{n} {noun}{'' if n == 1 else 's'}" + (
        f" {verb}{'s' if n == 1 else ''}" if verb else "")


def shown_evidence(evidence: list[str], most: int = 6) -> list[str]:
    """What a finding's line in the file shows: its first `most` fixtures, then every note
    (those in parentheses: why it is not sure, the fixtures read as bugs), which past six
    fixtures were cut off, so a bug the corpus showed went unsaid (ninepins' TURN-5)."""
    fixtures = [e for e in evidence if not e.startswith("(")]
    return fixtures[:most] + [e for e in evidence if e.startswith("(")]


def agreement_words(f: OptionFinding) -> str:
    """The agreement of an option found `other` in words (bugs.agreement): how often it
    answers as the nearest value does, and as the next ones ("" where nothing tells them
    apart)."""
    if not f.agreement:
        return ""
    (v, agreed, told), rest = f.agreement[0], f.agreement[1:]
    return (f"it answers as {v} does in {agreed} of the {told} "
            f"entr{'y' if told == 1 else 'ies'} checking {v}'s answers where the values "
            "differ" + "".join(f", as {w} in {a} of {t}" for w, a, t in rest[:3]))


def near_none(f: OptionFinding) -> bool:
    """Whether the engine answers as no known value does wherever they differ (each
    value's entries checked, none passed): no value is near its rule, and naming the
    one the fewest fixtures contradict would mislead (dolly's tile tax, named positive)."""
    return bool(f.agreement) and all(a == 0 for _, a, _ in f.agreement)


def _other_mark(f: OptionFinding) -> str:
    """The file's mark for an option found `other`: what else it could be, and on what."""
    if not f.alternatives:
        return "other"
    if not f.evidence:  # nothing against the rival: the engine's word decided
        return f"other: as the engine declares; no fixture tells it from {f.alternatives[0]}"
    one = len(f.evidence) == 1
    fit = agreement_words(f)
    if near_none(f):
        return f"other: its own rule, near no known value ({fit})"
    return (f"other: its own rule, or {f.alternatives[0]} if the "
            f"{counted(len(f.evidence))} of its evidence {'is a bug' if one else 'are bugs'}"
            + (f" ({fit})" if fit else ""))
