"""The scope check of `mtrain lint`, and `mtrain lint --write-scopes`.

For every fixture, the option space is partitioned by the fixture's outcome
(conformance/partition.py); then each entry's written scope (`variants` and `when`) is
checked against it (every region of the scope where the expectation does not hold is an
error, as are two entries that speak about one rule set), and the widest scope where it
holds is proposed. `--write-scopes` writes the proposals into the files, keeping
everything else of them (comments included) as it was.
"""

from __future__ import annotations

import json
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mtrain.conformance.fixture import Fixture
from mtrain.conformance.partition import beyond, breaches, explore, overlaps, propose, region_text
from mtrain.spec.scope import Scope, Space

LINE_LIMIT = 100


@dataclass(frozen=True)
class Proposal:
    fixture: Fixture
    entry: int
    scope: Scope


@dataclass
class ScopeReport:
    fixtures: int = 0
    entries: int = 0
    runs: int = 0
    seconds: float = 0.0
    errors: list[str] = field(default_factory=list)
    proposals: list[Proposal] = field(default_factory=list)
    beyond_written: int = 0
    """Fixtures with an entry whose written scope holds a rule set beyond its variants."""
    beyond_possible: int = 0
    """Fixtures with an entry whose widest scope holds a rule set beyond its variants."""

    def to_json(self, space: Space) -> dict[str, Any]:
        return {
            "fixtures": self.fixtures, "entries": self.entries,
            "reference_runs": self.runs, "seconds": round(self.seconds, 2),
            "fixtures_beyond_their_variants": self.beyond_written,
            "fixtures_that_could_be": self.beyond_possible,
            "errors": self.errors,
            "proposals": [{"fixture": p.fixture.id, "entry": p.entry + 1,
                           "where": _entry_where(p.fixture, p.entry),
                           "when": p.scope.when_data(space.cat)} for p in self.proposals],
        }


def check_scopes(fixtures: Sequence[Fixture], space: Space | None = None) -> ScopeReport:
    space = space or Space()
    report = ScopeReport(fixtures=len(fixtures))
    started = time.perf_counter()
    for fx in fixtures:
        report.entries += len(fx.expect)
        try:
            part = explore(fx, space)
        except RuntimeError as e:
            report.errors.append(f"{fx.where}: {e}")
            continue
        report.runs += part.runs
        for b in breaches(part, space):
            said = "; ".join(b.messages[:2]) or b.outcome
            report.errors.append(
                f"{_entry_where(fx, b.entry)}: {fx.id} entry {b.entry + 1} does not hold "
                f"where {region_text(b.region, space)} (e.g. {b.example}): {said}")
        for i, j, example in overlaps(part, space):
            report.errors.append(
                f"{_entry_where(fx, j)}: {fx.id} entries {i + 1} and {j + 1} both speak "
                f"about {example}: give them scopes that do not meet")
        proposed = propose(part, space)
        if any(beyond(exp.scope, space) for exp in fx.expect):
            report.beyond_written += 1
        if any(beyond(s, space) for s in proposed):
            report.beyond_possible += 1
        for k, (exp, wide) in enumerate(zip(fx.expect, proposed, strict=True)):
            if set(wide.products) != set(exp.scope.products) and beyond(wide, space):
                report.proposals.append(Proposal(fx, k, wide))
    report.seconds = time.perf_counter() - started
    return report


def _entry_where(fx: Fixture, entry: int) -> str:
    line = fx.expect[entry].line
    return f"{fx.path}:{line}" if line else fx.where


# --- writing proposals into the files -------------------------------------------------


def write_scopes(proposals: Sequence[Proposal], space: Space, root: Path) -> list[str]:
    """Put each proposal's `when:` into its fixture file; the files changed."""
    by_file: dict[str, list[Proposal]] = defaultdict(list)
    for p in proposals:
        by_file[p.fixture.path].append(p)
    changed = []
    for shown, items in by_file.items():
        path = Path(shown) if Path(shown).is_absolute() else root / shown
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        # Bottom up, so that earlier line numbers stay right.
        for p in sorted(items, key=lambda p: -(p.fixture.expect[p.entry].line or 0)):
            lines = _set_when(lines, p, space)
        path.write_text("".join(lines), encoding="utf-8")
        changed.append(str(path))
    return changed


def _set_when(lines: list[str], p: Proposal, space: Space) -> list[str]:
    exp = p.fixture.expect[p.entry]
    start = (exp.line or 0) - 1
    if start < 0 or not lines[start].lstrip(" ").startswith("- "):
        raise ValueError(f"{p.fixture.id}: cannot find entry {p.entry + 1} in its file")
    dash = _indent(lines[start])
    col = dash + 2  # the entry's keys
    end = start + 1  # the entry runs while lines are indented deeper than its dash
    while end < len(lines) and (not lines[end].strip() or _indent(lines[end]) > dash):
        end += 1
    body = lines[start:end]

    def key(k: int) -> str | None:
        line = body[k]
        if k and _indent(line) != col:
            return None
        name, sep, _ = line[col:].partition(":")
        return name.strip() if sep and name.strip().replace("_", "").isalnum() else None

    def node_end(k: int) -> int:  # the line after key k's value
        k += 1
        while k < len(body) and (not body[k].strip() or _indent(body[k]) > col):
            k += 1
        return k

    keys = {key(k): k for k in range(len(body)) if key(k) is not None}
    new = _when_lines(p.scope.when_data(space.cat), col)
    if "when" in keys:
        k = keys["when"]
        if k == 0:
            raise ValueError(f"{p.fixture.id}: entry {p.entry + 1} opens with `when`; "
                             "write `variants` first to let --write-scopes edit it")
        body[k:node_end(k)] = new
    else:
        k = node_end(keys.get("variants", 0))
        body[k:k] = new
    return lines[:start] + body + lines[end:]


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _flow(data: Any) -> str:
    if isinstance(data, dict):
        return "{" + ", ".join(f"{k}: {_flow(v)}" for k, v in data.items()) + "}"
    if isinstance(data, list):
        return "[" + ", ".join(_flow(v) for v in data) + "]"
    text = str(data)
    return text if text.replace("-", "").replace("_", "").isalnum() else json.dumps(text)


def _when_lines(data: Any, col: int) -> list[str]:
    pad = " " * col
    one = f"{pad}when: {_flow(data)}\n"
    if len(one) <= LINE_LIMIT + 1:
        return [one]
    items = data if isinstance(data, list) else [data]
    if isinstance(data, dict):
        return [f"{pad}when:\n", *(f"{pad}  {k}: {_flow(v)}\n" for k, v in data.items())]
    return [f"{pad}when:\n", *(f"{pad}  - {_flow(item)}\n" for item in items)]
