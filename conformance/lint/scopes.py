"""The scope check of `mtrain lint`, and `mtrain lint --write-scopes`.

For every fixture, the option space is partitioned by the fixture's outcome
(conformance/partition.py); then each entry's written scope (`variants` and `when`) is
checked against it (every region of the scope where the expectation does not hold is an
error, as are two entries that speak about one rule set), and the widest scope where it
holds is proposed. `--write-scopes` writes the proposals into the files, keeping
everything else of them (comments included) as it was.

What one fixture's check finds depends on nothing but the fixture, the option space and
the code that plays it, so it is kept in the cache (spec/cache.py), found by a digest of
the fixture's content, and of the source of the engine, the harness and the
specification with its data: a lint after a change recomputes only the fixtures that
changed, and a change to the engine, the harness or the spec data recomputes them all.
"""

from __future__ import annotations

import functools
import gc
import json
import re
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TextIO

from mtrain.conformance.code_digest import code_and_data_digest
from mtrain.conformance.fixture import Expectation, Fixture
from mtrain.conformance.gc_freeze import paused, settled
from mtrain.conformance.lint.shipped_scopes import SCOPES
from mtrain.conformance.outputs import replace_file
from mtrain.conformance.partition import (
    Partition,
    beyond,
    breaches,
    explore,
    overlaps,
    propose,
    region_text,
)
from mtrain.spec import cache
from mtrain.spec.scope import Product, Scope, Space

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
    explored: int = 0
    """Fixtures whose partition was computed by this check; the others' came from the
    cache (`runs` counts the reference runs of both)."""

    def to_json(self, space: Space) -> dict[str, Any]:
        return {
            "fixtures": self.fixtures, "entries": self.entries,
            "reference_runs": self.runs, "seconds": round(self.seconds, 2),
            "fixtures_explored": self.explored,
            "fixtures_beyond_their_variants": self.beyond_written,
            "fixtures_that_could_be": self.beyond_possible,
            "errors": self.errors,
            "proposals": [{"fixture": p.fixture.id, "entry": p.entry + 1,
                           "where": _entry_where(p.fixture, p.entry),
                           "when": p.scope.when_data(space.cat)} for p in self.proposals],
        }


@dataclass(frozen=True)
class FixtureScopes:
    """What the scope check finds for one fixture: each problem with the entry it is
    about (None: the fixture as a whole), in words that name no file or line."""

    runs: int
    problems: tuple[tuple[int | None, str], ...] = ()
    proposals: tuple[tuple[int, Scope], ...] = ()
    beyond_written: bool = False
    beyond_possible: bool = False

    def to_json(self) -> Any:
        return {"runs": self.runs, "problems": [list(p) for p in self.problems],
                "proposals": [[k, [[[o, sorted(vs)] for o, vs in p.allowed]
                                   for p in scope.products]] for k, scope in self.proposals],
                "beyond_written": self.beyond_written,
                "beyond_possible": self.beyond_possible}

    @staticmethod
    def from_json(data: Any, fx: Fixture) -> FixtureScopes | None:
        """The check kept for `fx`; None for anything that is not one (then it is done
        again)."""
        try:
            problems = tuple((None if k is None else int(k), str(text))
                             for k, text in data["problems"])
            proposals = tuple(
                (int(k), Scope(tuple(Product(tuple((str(o), frozenset(map(str, vs)))
                                                   for o, vs in product))
                                     for product in products),
                               fx.expect[int(k)].scope.variants))
                for k, products in data["proposals"])
            found = FixtureScopes(int(data["runs"]), problems, proposals,
                                  bool(data["beyond_written"]), bool(data["beyond_possible"]))
        except (KeyError, TypeError, ValueError, IndexError):
            return None
        entries = len(fx.expect)
        if any(k is not None and not 0 <= k < entries for k, _ in problems) or any(
                not 0 <= k < entries for k, _ in proposals):
            return None
        return found


Explored = Callable[[Fixture, Partition], None]
"""Told each partition the scope check explores (identify keeps its pieces: one
exploration of the corpus serves both)."""


def scope_fixture(fx: Fixture, space: Space, explored: Explored | None = None) -> FixtureScopes:
    """The scope check of one fixture (see the module docstring)."""
    try:
        part = explore(fx, space)
    except RuntimeError as e:
        # An outcome that reads too many options to partition the whole space (a full
        # state after a `next-round` deal reads nearly every option) is still checked
        # where its author wrote it: each entry's written scope, explored alone. Nothing
        # wider is proposed; only a written scope past the limit too is an error.
        written = _written_only(fx, space)
        if written is None:
            return FixtureScopes(0, ((None, str(e)),))
        return FixtureScopes(written.runs, _problems(fx, written, space))
    if explored is not None:
        explored(fx, part)
    problems = _problems(fx, part, space)
    proposed = propose(part, space)
    proposals = tuple((k, wide) for k, (exp, wide) in enumerate(zip(fx.expect, proposed,
                                                                     strict=True))
                      if set(wide.products) != set(exp.scope.products) and beyond(wide, space))
    return FixtureScopes(part.runs, problems, proposals,
                         any(beyond(exp.scope, space) for exp in fx.expect),
                         any(beyond(s, space) for s in proposed))


def _written_only(fx: Fixture, space: Space) -> Partition | None:
    """The partition of the entries' written scopes alone, product by product (None when
    one of them is past the limit of regions too)."""
    part = Partition(fx)
    for exp in fx.expect:
        for product in exp.scope.products:
            try:
                part.cells += explore(fx, space, start=product.region()).cells
            except RuntimeError:
                return None
    return part


def _problems(fx: Fixture, part: Partition, space: Space) -> tuple[tuple[int | None, str], ...]:
    """The breaches and overlaps of the entries' written scopes found in `part`."""
    problems: list[tuple[int | None, str]] = []
    # One fault (a step the rules refuse, a table no set deals) breaks an entry alike in
    # every region of its scope: said once per entry and reason, with the regions counted
    # and the first named, not once per region (69 lines for one illegal step).
    alike: dict[tuple[int, str], list[Any]] = {}
    for b in breaches(part, space):
        said = "; ".join(b.messages[:2]) or b.outcome
        alike.setdefault((b.entry, said), []).append(b)
    for (entry, said), found in alike.items():
        b = found[0]
        where = f"where {region_text(b.region, space)} (e.g. {b.example})"
        if len(found) > 1:  # the values the regions take between them, then the first
            full = space.full()
            spanned = region_text({o: frozenset().union(*(x.region.get(o, full[o])
                                                          for x in found)) for o in full},
                                  space)
            within = f", all within {spanned}" if spanned else ""
            where = f"in {len(found)} regions of its scope{within}; e.g. {where}"
        problems.append((entry, f"{fx.id} entry {entry + 1} does not hold {where}: {said}"))
    for i, j, example in overlaps(part, space):
        problems.append((j, f"{fx.id} entries {i + 1} and {j + 1} both speak about "
                            f"{example}: give them scopes that do not meet"))
    return tuple(problems)


def check_scopes(fixtures: Sequence[Fixture], space: Space | None = None,
                 kept: bool = True, explored: Explored | None = None) -> ScopeReport:
    """The scope check of every fixture; `kept`: through the cache (see the module
    docstring), which never changes what is found; `explored` is told each partition
    explored."""
    space = space or Space()
    report = ScopeReport(fixtures=len(fixtures))
    started = time.perf_counter()
    store = ScopeCache(space) if kept else None
    with settled(), paused():
        for fx in fixtures:
            _check_one(fx, space, store, report, explored)
            # What a check leaves alive (the memos of the engine and of the option space)
            # is put out of the collector's sight after each fixture (given back at the
            # end): a check makes no reference cycles, so what dies is freed as it dies,
            # and each full collection would otherwise walk those memos again (a third
            # of a cold lint's time).
            gc.freeze()
    if store is not None:
        store.save()
    report.seconds = time.perf_counter() - started
    return report


def _check_one(fx: Fixture, space: Space, store: ScopeCache | None,
               report: ScopeReport, explored: Explored | None = None) -> None:
    """One fixture's check, from the cache or made now, added to `report`."""
    report.entries += len(fx.expect)
    found = store.get(fx) if store is not None else None
    if found is None:
        found = scope_fixture(fx, space, explored)
        report.explored += 1
        if store is not None:
            store.put(fx, found)
    report.runs += found.runs
    for entry, text in found.problems:
        report.errors.append(f"{fx.where if entry is None else _entry_where(fx, entry)}: "
                             f"{text}")
    report.beyond_written += found.beyond_written
    report.beyond_possible += found.beyond_possible
    report.proposals += [Proposal(fx, k, scope) for k, scope in found.proposals]


# --- the cache -------------------------------------------------------------------------

KEPT_FIXTURES = 5000
"""The most fixtures whose check the cache keeps for one version of the code and data
(the shipped corpus has a few hundred; other folders linted add theirs)."""
KEPT_ENTRIES = 32
KEPT_BYTES = 64 << 20
"""The most entries (and bytes) of checks the cache keeps, those used least recently going
first (cache.prune): each set of rule-set files of one's own names an entry of its own,
most of them small beside the corpus's (about 2 MB, 70 CPU s to explore again)."""


class ScopeCache:
    """The checks of fixtures kept for one version of the code and the spec data: one
    file, of fixture digest -> FixtureScopes.to_json(), the least recently used dropped
    past KEPT_FIXTURES. A fixture it does not hold is looked for in the entry of the same
    name shipped with the package (lint/shipped_scopes.py), and kept here once found."""

    KIND = "scopes"

    def __init__(self, space: Space) -> None:
        self.name = self.entry_name(space)
        self.read_at = cache.stamp(self.KIND, self.name)  # (before reading: see save)
        kept = cache.read(self.KIND, self.name)
        self.entries: dict[str, Any] = kept if isinstance(kept, dict) else {}
        self.used: dict[str, Any] = {}
        self.changed = False
        self._shipped: dict[str, Any] | None = None  # read at the first fixture missed

    @staticmethod
    def entry_name(space: Space) -> str:
        """The cache entry's name: what the checks depend on beside the fixtures."""
        return f"{code_and_data_digest(space)}.json"

    def get(self, fx: Fixture) -> FixtureScopes | None:
        key = fixture_digest(fx)
        data = self.entries.get(key)
        found = None if data is None else FixtureScopes.from_json(data, fx)
        if found is None:
            data = self._shipped_entry().get(key)
            found = None if data is None else FixtureScopes.from_json(data, fx)
            self.changed |= found is not None  # kept in the user's cache (save)
        if found is not None:
            self.used[key] = data
            found = replace(found, problems=tuple((k, _placed(text, fx))
                                                  for k, text in found.problems))
        return found

    def _shipped_entry(self) -> dict[str, Any]:
        if self._shipped is None:
            self._shipped = SCOPES.entry(self.name) or {}
        return self._shipped

    def put(self, fx: Fixture, found: FixtureScopes) -> None:
        kept = kept_json(fx, found)
        if kept is None:
            return  # a place it cannot say for another file: checked again next time
        self.used[fixture_digest(fx)] = kept
        self.changed = True

    def save(self) -> None:
        if not self.changed:
            return
        def merged(now: dict[str, Any]) -> dict[str, Any]:
            # the entry as it stands now (another process may have added to it since it
            # was read), the ones used here counting as the most recent
            rest = {k: v for k, v in now.items() if k not in self.used}
            return dict(list({**rest, **self.used}.items())[-KEPT_FIXTURES:])
        cache.update(self.KIND, self.name, merged, keep=KEPT_ENTRIES, budget=KEPT_BYTES,
                     seen=(self.read_at, self.entries))


def kept_json(fx: Fixture, found: FixtureScopes) -> Any | None:
    """`found` as the cache keeps it, its messages placed by node rather than by `fx`'s
    file and line; None when a message names a place it cannot say for another file."""
    kept = replace(found, problems=tuple((k, _unplaced(text, fx))
                                         for k, text in found.problems))
    if any(fx.path in text for _, text in kept.problems):
        return None
    return kept.to_json()


# A check is kept by the fixture's content, not by where it is written, so a message that
# names a place of its table ("cannot set up the fixture: ... (at own.yaml:6)") keeps the
# node instead, and is told the place of the fixture it is read back for: the same
# fixture in another file, or moved, was told the first file's path and line.
_NODE = "\x00node:"


def _unplaced(text: str, fx: Fixture) -> str:
    nodes: dict[int, tuple[str | int, ...]] = {}
    for at, line in fx.table_lines.items():  # the deepest node of each line
        if len(at) >= len(nodes.get(line, ())):
            nodes[line] = at
    nodes.setdefault(fx.line or 0, ())  # the fixture's own line: where_in_table(())

    def node(m: re.Match[str]) -> str:
        at = nodes.get(int(m[1]))
        return m[0] if at is None else f"{_NODE}{json.dumps(list(at))}\x00"
    return re.sub(re.escape(fx.path) + r":(\d+)", node, text)


def _placed(text: str, fx: Fixture) -> str:
    return re.sub(re.escape(_NODE) + r"([^\x00]*)\x00",
                  lambda m: fx.where_in_table(tuple(json.loads(m[1]))), text)


def fixture_digest(fx: Fixture) -> str:
    """A digest of everything about a fixture but where it is written, made once per
    fixture object (a cold lint asks it three times: the cache's lookup, its entry and
    identify's pieces; fixtures are frozen, and a file read again in this process gives
    the same objects, fixture.load_file)."""
    found = _digests.get(id(fx))
    if found is None or found[0] is not fx:
        if len(_digests) > 20000:
            _digests.clear()
        found = _digests[id(fx)] = (fx, _fixture_digest(fx))
    return found[1]


_digests: dict[int, tuple[Fixture, str]] = {}
"""fixture_digest by the fixture's id (the fixture kept in the entry, so that its id is
not reused while the entry lives)."""


def _fixture_digest(fx: Fixture) -> str:
    content = [fx.id, fx.description, fx.clauses, fx.source, fx.table, fx.deal, fx.steps,
               fx.note, [_entry_content(e) for e in fx.expect]]
    return cache.digest(json.dumps(_canonical(content), separators=(",", ":")))


def _entry_content(exp: Expectation) -> list[Any]:
    return [exp.variants, [p.allowed for p in exp.scope.products], exp.scope.variants,
            exp.legal, exp.refused, exp.state, exp.result, exp.winners, exp.match_over,
            exp.refused_setup, exp.blocked_scores]


def _canonical(value: Any) -> Any:
    """`value` as plain JSON with no two values alike, each tagged with its kind (so that
    1, "1" and true stay apart): mappings as pairs in their order (the order the checks
    meet them in), sets sorted."""
    if isinstance(value, dict):
        return ["map", [[_canonical(k), _canonical(v)] for k, v in value.items()]]
    if isinstance(value, list | tuple):
        return ["list", [_canonical(v) for v in value]]
    if isinstance(value, set | frozenset):
        return ["set", sorted((_canonical(v) for v in value), key=json.dumps)]
    if value is ...:
        return ["unset"]
    if value is None or isinstance(value, bool | str):
        return value
    if isinstance(value, int):
        return ["int", value]
    return ["other", type(value).__name__, repr(value)]


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
        # a file named on the command line is shown as it was named, from the working
        # folder (it was looked for under `root`: a traceback, the scopes unwritten)
        path = Path(shown) if Path(shown).is_absolute() or Path(shown).is_file() else root / shown
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        # Bottom up, so that earlier line numbers stay right.
        for p in sorted(items, key=lambda p: -(p.fixture.expect[p.entry].line or 0)):
            lines = _set_when(lines, p, space)
        with path.open("rb") as f:  # the file's own line ends kept (CRLF became LF)
            crlf = f.readline().endswith(b"\r\n")
        replace_file(path, functools.partial(_write_lines, lines),
                     newline="\r\n" if crlf else "\n")
        changed.append(str(path))
    return changed


def _write_lines(lines: list[str], f: TextIO) -> None:
    f.writelines(lines)


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
        if k == 0:  # `- when: ...`: the new scope takes the dash
            new[0] = " " * dash + "- " + new[0][col:]
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
