"""Conformance results and the report they make, written as JSON here; as text (rich
tables on a terminal) by report_text.py, as JUnit XML and Markdown by report_formats.py,
as a self-contained HTML page by report_html.py.

A result is one fixture under one rule set, with one status:

    pass            the implementation agrees with the fixture
    fail            it disagrees (the messages say how: missing and extra actions, ...)
    error           it could not be asked: an error answer, a malformed answer, a fixture
                    that does not set up under this rule set
    timeout         it did not answer in time (and was killed)
    crash           it exited, or closed its stdout, before answering
    skip            a known failure listed in the --skip file (it was run, and failed)
    not-applicable  the implementation does not support this rule set
"""

from __future__ import annotations

import io
import json
import operator
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, TextIO

from mtrain.conformance.untrusted import one_line

STATUSES = ("pass", "fail", "error", "timeout", "crash", "skip", "not-applicable")
FAILING = frozenset({"fail", "error", "timeout", "crash"})
SHORT = {"not-applicable": "n/a"}
NOT_RUN_SHOWN = 8
"""Reasons for results not run that the text report lists (all of them with -v)."""
ALIKE_SHOWN = 3
"""Failures of the process (crash, timeout, error) with the very same messages and stderr
that the text report writes out in full; the rest are counted on one line (-v lists
them). An implementation that never starts fails every result alike: tens of thousands
of identical blocks said nothing more than the first."""


_CLAUSES = operator.attrgetter("clauses")
_VARIANT = operator.attrgetter("variant")
_STATUS = operator.attrgetter("status")
_RULESET_GROUP = operator.attrgetter("variant", "status")
"""What `Report.per` counts results by, read in C."""


@dataclass
class Result:
    fixture: str
    variant: str
    status: str
    messages: list[str] = field(default_factory=list)
    path: str = ""
    line: int | None = None
    clauses: tuple[str, ...] = ()
    description: str = ""
    rerun: str = ""
    stderr: str = ""
    duration: float = 0.0
    skip_reason: str | None = None
    """Set when the skip file lists this result (status skip, or pass if it now passes)."""
    checks: int = 0
    """The comparisons the fixture entry makes (legal set, refusals, fields, ...)."""
    charged: tuple[str, ...] = ()
    """For a failure: the clause that decides each comparison that failed."""
    null_refusals: int = 0
    """Refusals the implementation made without naming a clause."""
    refused_step: int = 0
    """For a failure: the step the implementation refused (1-based), if it refused one."""
    diverged: int | None = None
    """For a failure after steps: the step after which the implementation's state departs
    from the reference's replay (0: the deal or table), if it does."""
    unreached: bool = False
    """The fixture's checks compared a state that had already departed (diverged before
    the last step): they were not reached as the fixture means them."""
    source: tuple[str, ...] = ()
    """Where the fixture's expectation comes from (pagat, puremco, decision, ...)."""
    decisions: tuple[tuple[str, str], ...] = ()
    """(clause, reason) for the decisions of this specification the fixture rests on."""
    actual: dict[str, Any] | None = None
    """For a failure: the implementation's state where the HTML report draws the table
    (before the refused step, after the departing one, or after every step)."""
    early: tuple[int | None, ...] = ()
    """For a failure charged to a double's duty or its release counted early: how many
    tiles short of its release each table's double was let go at (release_counts.py)."""

    @classmethod
    def of(cls, fixture: str, variant: str, path: str, line: int | None,
           clauses: tuple[str, ...], description: str, source: tuple[str, ...],
           decisions: tuple[tuple[str, str], ...]) -> Result:
        """A pass of the fixture under the rule set, the rest to be filled in: every field
        given in order, no default made (a run makes 70,000)."""
        return cls(fixture, variant, "pass", [], path, line, clauses, description, "", "",
                   0.0, None, 0, (), 0, 0, None, False, source, decisions, None)

    @property
    def message(self) -> str:
        return "; ".join(self.messages)

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}" if self.line else self.path

    @property
    def topic(self) -> str:
        head, _, number = self.fixture.rpartition("-")
        return head if head and number.isdigit() else self.fixture

    @property
    def blamed(self) -> tuple[str, ...]:
        """The clauses this result counts under in per-clause tables and the grid: a
        failure under the clauses charged with it, anything else under the fixture's."""
        if self.was_charged:
            return tuple(dict.fromkeys(self.charged))
        return self.clauses

    @property
    def was_charged(self) -> bool:
        """A failure charged to clauses (attribution's Referee): it counts under them
        whatever rule set it ran under; any other result, under its fixture's clauses
        that apply there (`Report.per`)."""
        return self.status == "fail" and bool(self.charged)

    @property
    def unexpected_pass(self) -> bool:
        return self.skip_reason is not None and self.status == "pass"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "fixture": self.fixture, "variant": self.variant, "status": self.status,
            "message": self.message, "messages": self.messages, "file": self.path,
            "line": self.line, "clauses": list(self.clauses), "charged": list(self.blamed),
            "source": list(self.source),
            "decisions": [{"clause": c, "reason": why} for c, why in self.decisions],
            "duration": round(self.duration, 6),
        }
        if self.status != "pass" and self.rerun:
            out["rerun"] = self.rerun
        if self.refused_step:
            out["refused_step"] = self.refused_step
        if self.diverged is not None:
            out["diverged"] = self.diverged
            out["unreached"] = self.unreached
        if self.stderr:
            out["stderr"] = self.stderr
        if self.skip_reason is not None:
            out["skip_reason"] = self.skip_reason
            out["unexpected_pass"] = self.unexpected_pass
        return out


@dataclass
class Report:
    results: list[Result]
    implementation: dict[str, Any] = field(default_factory=dict)
    load_errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    duration: float = 0.0
    outside: dict[str, int] = field(default_factory=dict)
    """Per rule set: selected fixtures whose every entry speaks about other rules."""
    seats: dict[str, int] = field(default_factory=dict)
    """Per rule set: selected fixtures set at a player count its hand table does not
    deal (counted apart from `outside`)."""
    rulesets: str = ""
    """Which rule sets ran and why those (asked, declared, the default matrix)."""
    values: dict[str, dict[str, str]] = field(default_factory=dict)
    """Per rule set run: its option values (the HTML grid shows which clauses apply)."""
    patterns: list[str] = field(default_factory=list)
    """The -k patterns that selected the fixtures, if any."""
    impossible: int = 0
    """Fixtures of the user's own taken out of the run, every task of theirs, for a
    starting table their rule set cannot have (selection.impossible_tables: each a load
    error)."""
    interrupted: str = ""
    """Why the run stopped short (an interrupt), if it did: the results are those that
    finished, and the run is not a success whatever they say."""
    problems: list[str] = field(default_factory=list)
    """Misbehaviours of the implementation no result could hold (a line written after
    the hello of a process asked nothing more): each fails the run."""

    @property
    def summary(self) -> dict[str, int]:
        counts = Counter(r.status for r in self.results)
        return {s: counts.get(s, 0) for s in STATUSES}

    @property
    def ran(self) -> list[Result]:
        """The results that were run: everything but not-applicable."""
        return [r for r in self.results if r.status != "not-applicable"]

    @property
    def checks(self) -> int:
        return sum(r.checks for r in self.results if r.status != "not-applicable")

    @property
    def nothing_ran(self) -> str | None:
        """Why no result was run, when none was: such a run tested nothing and fails."""
        if any(r.status != "not-applicable" for r in self.results):
            return None
        if self.interrupted:  # the declaration is not at fault: the run was cut short
            return f"it was {self.interrupted} before its first result"
        if not self.results and self.impossible:  # the fixtures' fault: no word on rules
            n, names = self.impossible, ", ".join(self.values)
            return (f"{'the fixture' if n == 1 else f'all {n} fixtures'} selected "
                    f"set{'s' if n == 1 else ''} a table the rules run cannot have"
                    f"{f' ({names})' if names else ''}; the load errors say why: fix the "
                    "table, or run it under rules that have it")
        if (not self.results and not any(self.outside.values())
                and not any(self.seats.values()) and self.load_errors):
            return "no fixture could be loaded (the load errors are listed)"
        if not self.results and self.patterns:  # -k chose: the declaration is not at fault
            return (f"no fixture selected by -k {' '.join(self.patterns)} speaks about the "
                    "rule sets run" + (f" ({self.rulesets})" if self.rulesets else ""))
        if not self.results:
            return (f"no fixture{' loaded without error' if self.load_errors else ''} "
                    "speaks about the rule sets run"
                    + (f" ({self.rulesets})" if self.rulesets else "")
                    + "; declare the rules the implementation plays (`rules` in hello, or "
                    "--rules FILE; `mtrain identify` writes one)")
        reasons = Counter(r.message for r in self.results)
        top = "; ".join(f"{m} ({n})" for m, n in reasons.most_common(3))
        return (f"all {len(self.results)} results are not applicable: {top}; declare the "
                "rules the implementation plays (`rules` in hello, --rules FILE, or what "
                "`mtrain identify` finds) or widen `variants`/`options`")

    @property
    def hint(self) -> str | None:
        """What to do when several rule sets ran and every one of them failed: the mark of
        an engine that plays one rule set whatever a request names (most engines), whose
        failures under the others are rule differences, not bugs."""
        ran = {r.variant for r in self.ran}
        # a wrong answer ("fail") may be a rule difference; a crash, a timeout or a broken
        # answer is not, whatever the rules
        if len(ran) < 2 or ran != {r.variant for r in self.results if r.status == "fail"}:
            return self._own_rules_reach()
        return (f"every one of the {len(ran)} rule sets run has failures; if the "
                "implementation plays one rule set whatever a request names, most of them "
                "are rule differences, not bugs: declare the rules it plays (`rules` in its "
                "hello, or --rules FILE; `mtrain identify --impl COMMAND -o rules.yaml` "
                "writes one)")

    def _own_rules_reach(self) -> str | None:
        """Where a rule set with failures plays options its own way (`other`): the question
        each answers and its clauses, the only moments set aside. A house rule past that
        question (a marked player barred from the other marked trains, declared
        `own_train_first: other`: wagonway's first draft, tests/test_house60.py) is judged
        elsewhere as the known values play, and fails as a rule difference, not a bug."""
        failing = {r.variant for r in self.results if r.status == "fail"}
        own = sorted({o for v in failing for o, x in self.values.get(v, {}).items()
                      if x == "other"})
        if not own:
            return None
        from mtrain.spec.catalog import catalog

        cat = catalog()
        asks = [f"{o}: {cat.options[o].title.lower()} "
                f"({', '.join(c.id for c in cat.clauses.values() if c.when and o in c.when)})"
                for o in own]
        return ("a rule played its own way sets aside only the moments its option asks "
                f"about ({'; '.join(asks)}); any other failure is judged as every known value "
                "plays it: a bug, or a house rule past its option's question, which no option "
                "describes (a rule difference: list it with --skip and its reason)")

    @property
    def failed(self) -> bool:
        return (bool(self.load_errors) or self.nothing_ran is not None
                or bool(self.interrupted) or bool(self.problems)
                or self.nothing_passed is not None
                or any(r.status in FAILING for r in self.results))

    @property
    def exit_code(self) -> int:
        return 1 if self.failed else 0

    def per(self, key: str) -> dict[str, dict[str, int]]:
        """Counts per status for each clause ("clause") or rule set ("variant"). A result
        counts under each clause it is charged with (a failure the Referee charged), or
        else under each clause its fixture or situation lists that applies under the rule
        set it ran under (`clause_applies`): a situation lists every clause of its kind,
        and "SCORE-6: 100 passed" for an engine that scores penalty says what is not so."""
        # counted in C, not a counter per result: by rule set and status, or by the
        # clauses' tuple, rule set and status (a fixture's results share one), then per
        # clause
        if key == "clause":
            return self.clause_counts()[0]
        return _table(Counter(map(_RULESET_GROUP, self.results)))

    def clause_counts(self) -> tuple[dict[str, dict[str, int]], int]:
        """`per("clause")` and `under_no_clause` from one count of the results (for a
        report that shows both: the count is most of either's cost)."""
        pairs: Counter[tuple[str, str]] = Counter()
        nowhere = 0
        for (keys, status), n in self._clause_groups().items():
            if not keys:
                nowhere += n
            for k in keys:
                pairs[k, status] += n
        return _table(pairs), nowhere

    def _clause_groups(self) -> Counter[tuple[tuple[str, ...], str]]:
        """How many results count under each tuple of clauses, by status: a failure
        charged by the Referee under its charge (it stands), any other result under the
        clauses its fixture lists that apply where it ran (`clause_applies`, asked once
        per rule set)."""
        results = self.results
        # each rule set by the clauses that do not apply under it, as a small number, so
        # that results are counted in C by (clauses, those, status); the clauses are
        # filtered once a group, and only where some do not apply
        outs: dict[frozenset[str], int] = {}
        kind = {v: outs.setdefault(not_applying(self.values.get(v)), len(outs))
                for v in set(map(_VARIANT, results))}
        aside = list(outs)
        charged = [r for r in results if r.status == "fail" and r.charged]
        plain = Counter(zip(map(_CLAUSES, results), map(kind.__getitem__, map(_VARIANT, results)),
                            map(_STATUS, results), strict=True))
        plain.subtract((r.clauses, kind[r.variant], r.status) for r in charged)
        groups: Counter[tuple[tuple[str, ...], str]] = Counter()
        for (keys, k, status), n in plain.items():
            if n:
                out = aside[k]
                groups[keys if out.isdisjoint(keys) else tuple(c for c in keys if c not in out),
                       status] += n
        for r in charged:
            groups[r.blamed, r.status] += 1
        return groups

    @property
    def under_no_clause(self) -> int:
        """Results (not-applicable ones too) that count under no clause: none of the
        clauses their fixture lists applies where they ran (an option's fixtures
        generated for its other values, say); the per-rule-set table counts them."""
        return sum(n for (keys, _), n in self._clause_groups().items() if not keys)

    @property
    def unexpected_passes(self) -> list[Result]:
        return [r for r in self.results if r.unexpected_pass]

    def headline(self) -> str:
        """The verdict in one line: the results (one fixture under one rule set each) by
        status, then the checks (the comparisons inside the results run), said apart so
        that neither count reads as a share of the other."""
        verdict = "FAILED" if self.failed else "OK"
        loads = f", {len(self.load_errors)} load errors" if self.load_errors else ""
        if self.problems:  # none is a result's: counted apart, or a pass would hide them
            n = len(self.problems)
            loads += f", {n} problem{'' if n == 1 else 's'} of the run (no result holds it)"
        nothing = self.nothing_ran
        if nothing is not None:
            return f"FAILED: nothing ran: {nothing}{loads}"
        summary = self.summary
        counts = ", ".join(f"{n} {s}" for s, n in summary.items()
                           if n and s != "not-applicable")
        na = summary["not-applicable"]
        ran = len(self.results) - na
        not_run = f"; {na} more not applicable (not run)" if na else ""
        nulls = sum(r.null_refusals for r in self.results)
        unnamed = (f"; {nulls} refusal{'' if nulls == 1 else 's'} named no clause "
                   "(--require-clauses fails each, naming it)" if nulls else "")
        stopped = f" before it was {self.interrupted}" if self.interrupted else ""
        known = f"; {self.nothing_passed}" if self.nothing_passed else ""
        return (f"{verdict}: {ran} results ran{stopped} ({counts or 'none'})"
                f"{not_run}{loads}{unnamed}{known}; {self.checks} checks within them; "
                f"{self.duration:.2f} s")

    @property
    def nothing_passed(self) -> str | None:
        """Why a run whose every result run is a known failure fails: it showed nothing to
        pass (a skip file of `fixture: "*"` made any engine's run green)."""
        ran = self.ran
        if not ran or any(r.status != "skip" for r in ran):
            return None
        return ("nothing passed: every result run is a known failure of the skip file, "
                "so the run tested nothing")

    def per_ruleset(self) -> dict[str, dict[str, int]]:
        """Per rule set: each status, the results run, and the fixtures out of scope."""
        rows = self.per("variant")
        for name in self.outside:
            rows.setdefault(name, {s: 0 for s in STATUSES})
        out = {}
        for name, counts in rows.items():
            ran = sum(n for s, n in counts.items() if s != "not-applicable")
            out[name] = {**counts, "ran": ran, "other rules": self.outside.get(name, 0)}
            if any(self.seats.values()):
                out[name]["other seats"] = self.seats.get(name, 0)
        return out

    def not_run(self) -> list[tuple[str, int]]:
        """The reasons results were not applicable (not run), commonest first, with how
        many results each removed: what a declaration (`variants`, `options`, `rules`)
        or a rule played its own way took out of the run."""
        # a reason is a result's first message; what follows is that result's own detail
        # (the round a match of one's own lacks, the implementation's words)
        reasons = Counter(r.messages[0] if r.messages else "no reason given"
                          for r in self.results if r.status == "not-applicable")
        return sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0]))

    def failed_clauses(self) -> list[ClauseNote]:
        """The clauses the failures speak of, each once: those charged with a failure,
        then the decisions of this specification a failing fixture rests on (their text
        is printed once per report, and each failure refers to it)."""
        charged: Counter[str] = Counter()
        resting: Counter[str] = Counter()
        for r in self.results:
            if r.status not in FAILING:
                continue
            charged.update(r.blamed if r.status == "fail" else ())
            resting.update(c for c, _ in r.decisions)
        ids = sorted(charged, key=_natural) + sorted(
            (c for c in resting if c not in charged), key=_natural)
        return [_note(c, charged[c], resting[c]) for c in ids]

    def to_json(self, results: bool = True) -> dict[str, Any]:
        """The report as JSON data; without `results`, None stands in their place."""
        clauses, nowhere = self.clause_counts()
        return {
            "implementation": self.implementation,
            "summary": self.summary,
            "ok": not self.failed,
            "duration": round(self.duration, 3),
            "results": [r.to_json() for r in self.results] if results else None,
            "ran": len(self.ran),
            "checks": self.checks,
            "null_refusals": sum(r.null_refusals for r in self.results),
            "nothing_ran": self.nothing_ran,
            "nothing_passed": self.nothing_passed,
            "hint": self.hint,
            "rulesets_run": self.rulesets,
            "clauses": clauses,
            "under_no_clause": nowhere,
            "variants": self.per_ruleset(),
            "unexpected_passes": [{"fixture": r.fixture, "variant": r.variant,
                                   "skip_reason": r.skip_reason}
                                  for r in self.unexpected_passes],
            "load_errors": self.load_errors,
            "problems": self.problems,
            "warnings": self.warnings,
            "failed_clauses": [n.to_json() for n in self.failed_clauses()],
            "not_applicable": [{"reason": why, "results": n} for why, n in self.not_run()],
        }


def clause_applies(clause_id: str, values: dict[str, str] | None) -> bool:
    """Whether a clause applies under a rule set's option values (`Clause.applies`): a
    clause not in the catalogue, a rule set whose values are not known (a report built
    without them) or an option it does not name count as applying.

    An option the rule set plays `other` does not: such a rule set plays a rule of its own
    there, none of the values the clause lists, and the runner runs under it only entries
    whose outcome every known value of the option gives alike (the rest are
    not-applicable, "its outcome depends on ..."), so no result that ran can tell the
    clause from its alternatives: a pass is no evidence the implementation plays it."""
    if not values:
        return True
    from mtrain.spec.catalog import catalog

    clause = catalog().clauses.get(clause_id)
    return clause is None or _applies(clause.when, values)


def _table(pairs: Counter[tuple[str, str]]) -> dict[str, dict[str, int]]:
    """Counts by (clause or rule set, status) as rows of every status, in natural order."""
    table: dict[str, dict[str, int]] = {}
    for (k, status), n in pairs.items():
        row = table.get(k)
        if row is None:
            row = table[k] = dict.fromkeys(STATUSES, 0)
        if status in row:
            row[status] = n
    return {k: table[k] for k in sorted(table, key=_natural)}


def not_applying(values: dict[str, str] | None) -> frozenset[str]:
    """The catalogue's clauses that do not apply under a rule set's values
    (`clause_applies`), found once for a rule set rather than once a result."""
    if not values:
        return frozenset()
    from mtrain.spec.catalog import catalog

    return frozenset(c.id for c in catalog().clauses.values()
                     if c.when and not _applies(c.when, values))


def _applies(when: dict[str, frozenset[str]], values: dict[str, str]) -> bool:
    return all(o not in values or values[o] in vs for o, vs in when.items())


@dataclass(frozen=True)
class ClauseNote:
    """A clause as a report shows it once: its words, and how many failures name it."""

    id: str
    title: str
    text: str
    decision: str | None
    charged: int
    """Failures charged to it."""
    resting: int
    """Failures of fixtures that rest on it as a decision of this specification."""

    def to_json(self) -> dict[str, Any]:
        return {"clause": self.id, "title": self.title, "text": self.text,
                "decision": self.decision, "charged": self.charged, "resting": self.resting}


def _note(cid: str, charged: int, resting: int) -> ClauseNote:
    from mtrain.spec.catalog import catalog  # only when a report has failures to show

    clause = catalog().clauses.get(cid)
    if clause is None:  # not a catalogue clause: shown by its id alone
        return ClauseNote(cid, "", "", None, charged, resting)
    return ClauseNote(cid, clause.title, " ".join(clause.text.split()), clause.decision,
                      charged, resting)


def _natural(key: str) -> tuple[Any, ...]:
    return tuple(int(p) if p.isdigit() else p for p in re.split(r"(\d+)", key))


def describe_implementation(info: dict[str, Any]) -> str:
    where = info.get("command") or info.get("adapter") or "in-process"
    if "name" not in info:
        return f"{where} (it did not say who it is)"
    if isinstance(info["name"], str) and not info["name"].strip():  # declaration.empty_name
        version = str(info.get("version", "")).strip()
        return one_line(f"{where} (its hello gave an empty name"
                        f"{', version ' + version if version else ''})")
    from mtrain.spec.errors import cut_long_runs  # (the help imports this module, no spec)

    # its own words, cut where long: a name of 5,000 characters was the whole header
    said = cut_long_runs(f"{info['name']} {info.get('version', '')}")
    said = one_line(said)
    return f"{said} ({where})".replace("  ", " ")


# --- JSON ----------------------------------------------------------------------------


def render_json(report: Report) -> str:
    out = io.StringIO()
    write_json(report, out)
    return out.getvalue()


def write_json(report: Report, out: TextIO) -> None:
    """The JSON report (as json.dumps(report.to_json(), indent=2) writes it), one result
    at a time: a run of 150,000 results is written without holding all of them as JSON
    data and text at once (a gigabyte, where the run itself holds a quarter)."""
    data = report.to_json(results=False)
    out.write("{")
    for k, (key, value) in enumerate(data.items()):
        out.write(("," if k else "") + f"\n  {json.dumps(key)}: ")
        if key != "results":
            out.write(json.dumps(value, indent=2).replace("\n", "\n  "))
            continue
        out.write("[")
        for i, r in enumerate(report.results):
            text = json.dumps(r.to_json(), indent=2).replace("\n", "\n    ")
            out.write(("," if i else "") + "\n    " + text)
        out.write("\n  ]" if report.results else "]")
    out.write("\n}\n")


FORMATS = ("text", "json", "junit", "markdown", "html")
