"""Fixtures: loading the YAML, each expectation checked against its table, and a
fixture's start as a canonical state per rule set (`Fixture.start`, through the table
notation of spec/notation.py)."""

from __future__ import annotations

import contextlib
import functools
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from mtrain.conformance import shipped

# (the corpus's folder and its files, from corpus_files.py: many tests import them here)
from mtrain.conformance.corpus_files import FIXTURE_ROOT as FIXTURE_ROOT
from mtrain.conformance.corpus_files import fixture_files as fixture_files
from mtrain.spec import cache
from mtrain.spec import tiles as T
from mtrain.spec.catalog import RulesetError, catalog
from mtrain.spec.errors import shown, written_otherwise
from mtrain.spec.notation import (
    ACTION_RE,
    MEXICAN,
    FixtureError,
    canonical_action,
    canonical_step,
    deal_order,
    max_pip_of,
    round_of,
    table_starter,
    table_state,
)
from mtrain.spec.ruleset import Ruleset
from mtrain.spec.scope import Product, Scope, ScopeError, parse_when, scope_of
from mtrain.spec.yamlload import Document, SpecError, SpecErrors, file_problem, load, read_text
from mtrain.spec.yamlschema import validate_named


class _At(FixtureError):
    """A FixtureError that knows where in the file it is."""

    def __init__(self, pointer: tuple[str | int, ...], message: str) -> None:
        super().__init__(message)
        self.pointer = pointer


@dataclass(frozen=True)
class Expectation:
    variants: tuple[str, ...]
    """The rule sets the author worked the expectation out for (part of its scope)."""
    scope: Scope = field(default_factory=Scope)
    """Every rule set the expectation speaks about: the variants and `when`."""
    legal: tuple[str, ...] | None = None
    refused: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Action -> the clauses that refuse it (where several rules forbid it, any of them)."""
    state: dict[str, Any] = field(default_factory=dict)
    result: Any = ...  # Ellipsis: not checked; None: the round must go on
    winners: tuple[int, ...] | None = None
    match_over: bool | None = None
    """False: rounds remain after this state (the implementation's winners answer is
    empty); True: the last round is over."""
    winners_unless_going_on: bool = False
    """Under a match length of one's own the implementation may say the match goes on (no
    winners); named winners must still be `winners` (match_end_alone.py)."""
    refused_setup: tuple[str, ...] | None = None
    """The rule set does not allow the start (or a `next-round` deal): the clauses any of
    which the implementation's refusal may name. Such an entry checks nothing else."""
    blocked_scores: tuple[int, ...] | None = None
    """The round scores of the hands the steps leave, scored as a blocked round (a `score`
    request naming no winner): under a blocked round of one's own, the scoring of a round
    the rules end blocked (blocked_alone.py); written in a file (`blocked_scores:`), of the
    table itself where no step is given (fuzz's reproducer of a blocked end that rules of
    one's own decide, fuzz/rejudge.py)."""
    own_steps: tuple[tuple[int, tuple[str, ...]], ...] = ()
    """(k, options) for each step k whose legality alone options played their own way
    decide (step_alone.py): the implementation's refusal of it is not applicable. Set by
    conform under such rules, never written in a file."""
    own_draw: bool = False
    """The legal set is compared by its plays alone: where the table's player holds no play
    and has not drawn, whether they draw or pass is a draw rule of one's own's
    (draw_alone.py). Set by conform under such rules, never written in a file."""
    own_doubles: tuple[str, ...] | None = None
    """Under a doubles rule of one's own, on a table whose legal list offers a double: the
    list the rules give with none of those doubles laid (lay_alone.py). Whether each such
    double may be laid is that rule's: the legal set is judged by its other plays, and by
    this list where the implementation lays none of them and the entry lists no other
    play. None where no such cut is made. Set by conform, never written in a file."""
    own_actions: tuple[str, ...] = ()
    """Actions of the legal set that a rule of one's own decides on the entry's last table
    (release_alone.py: the known values of a release disagree on them): left out of the
    implementation's legal set and of the entry's alike, the rest judged as written. Set
    by conform, never written in a file."""
    only_actions: tuple[str, ...] | None = None
    """The actions of the legal set judged alone, each offered or not as the entry lists
    it; the rest a rule of one's own's (draw_alone.py: after a draw, the draw on an empty
    boneyard that every draw rule refuses). None: no such cut. Set by conform, never
    written in a file."""
    own_end: bool | None = None
    """Under a blocked round of one's own: whether the rules end the round blocked after
    the steps (blocked_alone.py). Where the implementation's state says otherwise, whether
    the round is over is its own rule's (END-2, END-3), and the checks only an end decides
    are set aside (divergence.end_aside); what the steps did is judged. None where no such cut
    is made. Set by conform, never written in a file."""
    own_totals: tuple[int, ...] | None = None
    """Under a scoring or tile values of one's own, where the entry's totals were cut with
    the round's worth (round_end_alone.carried_entry): the totals before the round its
    last step ends (the table's, as written). The implementation's round must be over
    there, its totals these plus its own round scores (MATCH-1). Set by conform, never
    written in a file."""
    line: int | None = None
    conditions: tuple[tuple[Product, int | None], ...] = field(default=(), compare=False)
    """Each condition of the written `when`, in its order, with its line: what `mtrain lint`
    reports a condition that holds for no rule set by (lint/dead_scopes.py)."""

    @functools.cached_property  # (read for each of its results: dozens of rule sets)
    def checks(self) -> int:
        """How many comparisons the entry makes: the legal set, each refusal, each state
        field, the result, the winners, whether the match is over, a refused setup."""
        return ((self.legal is not None) + len(self.refused) + len(self.state)
                + (self.result is not ...) + (self.winners is not None)
                + (self.match_over is not None) + (self.refused_setup is not None)
                + (self.blocked_scores is not None) + (self.own_totals is not None))


@dataclass(frozen=True)
class Fixture:
    id: str
    description: str
    clauses: tuple[str, ...]
    source: tuple[str, ...]
    path: str
    line: int | None
    table: dict[str, Any] | None
    deal: dict[str, Any] | None
    steps: tuple[str, ...]
    expect: tuple[Expectation, ...]
    note: str = ""
    rules: str | None = None  # the rule-set file it names (`rules:`), as a path
    table_lines: dict[tuple[str | int, ...], int] = field(
        default_factory=dict, repr=False, compare=False)
    """The line of each node of `table` (its pointer inside the table): a fault found
    setting the table up is reported at its own line."""
    _starts: dict[str, bytes] = field(
        default_factory=dict, init=False, repr=False, compare=False)
    """The start under each tile set, as JSON (its starter set per rule set): conform
    plays a fixture under dozens of rule sets that build the same table."""

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}" if self.line else self.path

    def where_in_table(self, at: tuple[str | int, ...]) -> str:
        """`path:line` of the table's node at `at` (or its nearest parent), else `where`."""
        while at:
            line = self.table_lines.get(at)
            if line is not None:
                return f"{self.path}:{line}"
            at = at[:-1]
        return self.where

    @property
    def probes_setup(self) -> bool:
        """Whether an entry expects the start to be refused, so that a table start is put
        to the implementation before anything else (runner.play)."""
        return any(e.refused_setup is not None for e in self.expect)

    def rulesets(self) -> Iterator[tuple[str, Expectation]]:
        for exp in self.expect:
            for name in exp.variants:
                yield name, exp

    # -- building the start ---------------------------------------------------------

    def start(self, rs: Ruleset) -> dict[str, Any]:
        """The canonical JSON state of the table under `rs` (table fixtures only)."""
        if self.table is None:
            raise FixtureError(f"{self.id} starts from a deal, not a table")
        # Found only by the options table_state reads, read as it reads them, so that a
        # traced rule set (conformance/traced.py) logs the same reads whether the table
        # is built or found: the tile set first; the starting seat where no starter is
        # written, and only once the table is known to build under that set (it builds
        # under every starting seat alike, only the starter reading it).
        found = self._starts.get(rs["tile_set"])
        if found is None:
            state = table_state(self.table, rs)
            with contextlib.suppress(TypeError):  # a value JSON cannot hold: built each time
                self._starts[rs["tile_set"]] = orjson.dumps(state)
            return state
        state = orjson.loads(found)  # a fresh copy: callers may write
        assert isinstance(state, dict)
        if "starter" not in self.table:
            state["starter"] = table_starter(self.table, rs, state["round"],
                                             len(state["hands"]), state["seat"])
        return state

    def keep_start(self, rs: Ruleset, state: dict[str, Any]) -> None:
        """Take `state`, built by table_state from this fixture's table under `rs`, as its
        start under `rs` (a situation's table is built for its legal set already)."""
        assert self.table is not None
        with contextlib.suppress(TypeError):
            self._starts[rs["tile_set"]] = orjson.dumps(state)

    def kept_starts(self) -> dict[str, Any]:
        """The starts built so far, by tile set (for a cache: `keep_starts` takes them)."""
        return {tile_set: orjson.loads(text) for tile_set, text in self._starts.items()}

    def starts_text(self) -> tuple[tuple[str, bytes], ...]:
        """The starts kept so far, as JSON texts by tile set: what `start` reads of them."""
        return tuple(sorted(self._starts.items()))

    def keep_starts(self, starts: dict[str, Any]) -> None:
        """Starts `kept_starts` gave, for the same table (a situation read back from the
        cache, which keeps them beside it)."""
        for tile_set, state in starts.items():
            self._starts[str(tile_set)] = orjson.dumps(state)

    def deal_request(self, rs: Ruleset) -> tuple[int, int, list[str], dict[str, Any]]:
        """(players, round, order, extra) for a deal fixture under `rs`."""
        assert self.deal is not None
        max_pip = max_pip_of(rs)
        engine = self.deal.get("engine", max_pip)
        round_no = round_of(engine, max_pip, ("deal", "engine"))
        names = deal_order(rs, engine, self.deal.get("order", "sorted"))
        extra: dict[str, Any] = {k: self.deal[k] for k in ("scores", "outs") if k in self.deal}
        return int(self.deal["players"]), round_no, names, extra

    def deal_draw(self) -> list[list[str]] | None:
        """The deal's draw for the start (SEAT-5), or None: the implementation is sent it
        with the deal and with each next-round deal."""
        draw = self.deal.get("draw") if self.deal is not None else None
        return [list(seat) for seat in draw] if draw is not None else None


# --- actions in text form ------------------------------------------------------------


# --- loading -------------------------------------------------------------------------


_LOADED: dict[tuple[str, str, int], tuple[object, list[Fixture]]] = {}
"""Files loaded before in this process: (path, digest of the text, catalogue) -> the
catalogue and the fixtures, which are read-only (`Fixture.start` hands out copies)."""


def load_file(path: str | Path, text: str | None = None) -> list[Fixture]:
    """The fixtures of one file; raises SpecErrors listing every problem with its line.
    A file read before, with the same text under the same catalogue, is not read again."""
    if text is None:
        text = read_text(path)
    cat = catalog()
    key = (str(path), cache.digest(text), id(cat))
    known = _LOADED.get(key)
    if known is not None and known[0] is cat:
        # its rule-set files taken in again: the catalogue may have forgotten them since
        # (forget_added_examples), and the fixtures' entries name their rule sets
        for path_named in {fx.rules for fx in known[1] if fx.rules is not None}:
            cat.add_example(path_named)
        return list(known[1])
    fixtures = _load_file(path, text)
    _LOADED[key] = (cat, fixtures)
    for i, fx in enumerate(fixtures):
        _SOURCES[id(fx)] = (fx, cache.digest(key[0], key[1], str(i)))
    return list(fixtures)


_SOURCES: dict[int, tuple[Fixture, str]] = {}
"""A digest of each loaded fixture's file (its path and text) and place in it, by the
fixture's id (the fixture kept beside it, so that no id is reused while it lives)."""


def source_key(fx: Fixture) -> str | None:
    """What a fixture was read from, as a digest of its file's path and text and its
    place there (None: not read from a file, as a situation): equal keys, equal fixtures
    under one catalogue. Costs a lookup, where a digest of the fixture's content costs a
    walk of its table."""
    found = _SOURCES.get(id(fx))
    return found[1] if found is not None and found[0] is fx else None


def _unknown_when_options(doc: Any) -> list[tuple[str | int, ...]]:
    """The pointer of every option a `when:` names that the catalogue does not know."""
    known = catalog().options
    out: list[tuple[str | int, ...]] = []
    for i, raw in enumerate(doc.data if isinstance(doc.data, list) else []):
        expect = raw.get("expect") if isinstance(raw, dict) else None
        for j, entry in enumerate(expect if isinstance(expect, list) else []):
            when = entry.get("when") if isinstance(entry, dict) else None
            parts = [(w, p) for w, p in enumerate(when)] if isinstance(when, list) else []
            if isinstance(when, dict):
                out += [(i, "expect", j, "when", o) for o in when if o not in known]
            for w, part in parts:
                if isinstance(part, dict):
                    out += [(i, "expect", j, "when", w, o) for o in part if o not in known]
    return out


_WHEN_PATTERN = re.compile(r"\.when(\[\d+\])?(\.\w+(\[\d+\])?: |: key )"
                           r".* does not match the pattern ")
"""The schema's word on a `when` value that is no name (`Double-12`): left to the scope's
reading, which says it is no value of its option and lists those there are; and on a key
that is none (`Tile_set`): no option's name, said with the options there are (strays)."""


def _variant_name(e: SpecError) -> SpecError:
    """The schema's word on a `variants` item that is no name (`Pagat`, `double-10.yaml`,
    `"pagat "`), put as what a fixture names there: it quoted the pattern for names."""
    found = re.fullmatch(r"(.*\.variants\[\d+\]): (.*) does not match the pattern .*",
                         e.message)
    if found is None:
        return e
    cat = catalog()
    files = f"; rule-set files: {', '.join(sorted(cat.examples))}" if cat.examples else ""
    own = (": a fixture's own rule-set file is given by `rules:` (its path) and named here "
           "by its name" if re.search(r"\.ya?ml'?$", found[2]) else "")
    return SpecError(e.path, e.line, f"{found[1]}: {found[2]} is no rule set's name (a "
                     "variant, base+overlay+... or a rule-set file's name, in lower case; "
                     f"variants: {', '.join(cat.variants)}{files}){own}")


def _pointer_text(at: Sequence[str | int]) -> str:
    """A pointer as the schema's messages write it: `[0].expect[0].when[1].tile_sett`."""
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in at)


def _load_file(path: str | Path, text: str) -> list[Fixture]:
    # a shipped fixture file, unchanged, is read as shipped (conformance/shipped.py)
    doc = shipped.document(path, text) or load(path, text)
    if isinstance(doc.data, dict) and {"base", "options"} & set(doc.data) \
            and "id" not in doc.data:  # the schema: "expected a list, got a mapping"
        raise doc.error((), "a rule-set file (a mapping: name, base, options), not a fixture "
                        "file (a list of fixtures): --rules reads it")
    strays = _unknown_when_options(doc)
    options = catalog().options
    errors = [doc.error(at, f"`when` names unknown option {shown(at[-1])}"
                        f"{written_otherwise(at[-1], options)}; known: {', '.join(options)}")
              for at in strays]
    # the schema would only say that such an option's value has the wrong type
    wrong = [_pointer_text(at) for at in strays]
    # jsonschema validates it, unless it found this very data valid when the shipped
    # files were made (conformance/shipped.py) or before (the cache)
    errors += [_variant_name(e) for e in validate_named(doc, "fixture", shipped.valid())
               if not any(w + ":" in str(e) or w + "." in str(e) for w in wrong)
               and not _WHEN_PATTERN.search(e.message)]
    if errors:
        raise SpecErrors(errors)
    out = []
    problems: list[SpecError] = []
    tables: dict[Any, dict[tuple[str | int, ...], int]] = {}  # the lines of each table
    for pointer, line in doc.lines.items():
        if len(pointer) > 2 and pointer[1] == "table":
            tables.setdefault(pointer[0], {})[pointer[2:]] = line
        elif len(pointer) > 1 and pointer[1] == "deal":  # ("deal", "order", 3): a deal's
            tables.setdefault(pointer[0], {})[pointer[1:]] = line  # fault at its line
    for i, raw in enumerate(doc.data):
        try:
            out.append(_fixture(doc, i, raw, tables.get(i, {})))
        except _At as e:
            problems.append(doc.error(e.pointer, f"fixture {raw.get('id')}: {e}"))
        except FixtureError as e:
            problems.append(doc.error((i,), f"fixture {raw.get('id')}: {e}"))
    problems += [p for fx in out for p in expectation_problems(fx)]
    if problems:
        raise SpecErrors(problems)
    return out


def _fixture(doc: Document, i: int, raw: dict[str, Any],
             table_lines: dict[tuple[str | int, ...], int]) -> Fixture:
    rules = None
    if "rules" in raw:  # taken in before the entries name its rule set
        rules = str(Path(str(doc.path)).parent / raw["rules"])
        problem = file_problem(rules)
        if problem is not None:
            # where it was looked for: beside the fixture's file, not in the working folder
            looked = "" if rules == raw["rules"] else f" (looked for as {rules}, beside the " \
                "fixture's file)"
            raise _At((i, "rules"), f"rules: {raw['rules']}: {problem}{looked}")
        try:
            catalog().add_example(rules)
        except RulesetError as err:
            raise _At((i, "rules"), str(err)) from None
        except SpecError as err:
            raise _At((i, "rules"), f"rules: {err}") from None
    _deal_fits_its_seats(i, raw.get("deal"))
    expects = []
    known = catalog().clauses
    listed = [k for k, c in enumerate(raw["clauses"]) if c not in known]
    if listed:  # else conform counts passing results under it, as lint alone said
        raise _At((i, "clauses", listed[0]),
                  _no_such_clause([raw["clauses"][k] for k in listed], known))
    for j, e in enumerate(raw["expect"]):
        refused = {canonical_action(a): (c,) if isinstance(c, str) else tuple(c)
                   for a, c in (e.get("refused") or {}).items()}
        _each_action_once(i, j, e)
        # A clause no rule has could never be met: conform would charge every engine with
        # the fixture's slip (and lint --no-scopes, which plays nothing, would pass it).
        for at, value in [*(((i, "expect", j, "refused", a), c)
                            for a, c in (e.get("refused") or {}).items()),
                          ((i, "expect", j, "refused_setup"), e.get("refused_setup") or ())]:
            unknown = [c for c in _clauses(value) if c not in known]
            if unknown:
                raise _At(at, _no_such_clause(unknown, known))
        legal = e.get("legal")
        variants = tuple(e.get("variants") or ())
        _each_condition_adds(i, j, e.get("when"))
        try:
            scope = scope_of(catalog(), variants, e.get("when"))
        except ScopeError as err:  # at the line of the option or value it names
            raise _At((i, "expect", j, "when", *err.at), str(err)) from None
        except RulesetError as err:
            raise _At((i, "expect", j, "variants"), str(err)) from None
        when = e.get("when")
        conditions = () if when is None else tuple(
            (product, doc.line_of((i, "expect", j, "when", *((w,) if isinstance(when, list)
                                                              else ()))))
            for w, product in enumerate(parse_when(catalog(), when)))
        expects.append(Expectation(
            variants=variants,
            scope=scope,
            legal=None if legal is None else tuple(canonical_action(a) for a in legal),
            refused=refused,
            state=dict(e.get("state") or {}),
            result=e.get("result", ...),
            winners=tuple(e["winners"]) if "winners" in e else None,
            match_over=e.get("match_over"),
            refused_setup=_clauses(e["refused_setup"]) if "refused_setup" in e else None,
            blocked_scores=(tuple(e["blocked_scores"]) if "blocked_scores" in e
                            else None),
            line=doc.line_of((i, "expect", j)),
            conditions=conditions,
        ))
        if expects[-1].match_over is False and expects[-1].winners is not None:
            raise _At((i, "expect", j, "match_over"),
                      "`match_over: false` with `winners`: a match that goes on has no winners")
        if expects[-1].checks == 0:  # it would pass under every rule set, testing nothing
            raise _At((i, "expect", j), "an entry that checks nothing: give it `legal`, "
                      "`refused`, `state`, `result`, `winners`, `match_over`, "
                      "`blocked_scores` or `refused_setup`")
        if "refused_setup" in e and expects[-1].checks > 1:
            raise _At((i, "expect", j, "refused_setup"),
                      "an entry with `refused_setup` checks nothing else: a refused setup has "
                      "no state, actions or result to compare")
    steps = tuple(canonical_step(s) for s in raw.get("steps") or [])
    source = raw["source"]
    return Fixture(
        id=raw["id"], description=raw["description"], clauses=tuple(raw["clauses"]),
        source=tuple(source) if isinstance(source, list) else (source,),
        path=doc.path, line=doc.line_of((i,)), table=raw.get("table"), deal=raw.get("deal"),
        steps=steps, expect=tuple(expects), note=raw.get("note", ""), rules=rules,
        table_lines=table_lines)


def _deal_fits_its_seats(i: int, deal: Any) -> None:
    """A deal's totals give one number per seat (MATCH-1), as a table's do (notation.py):
    else the implementation was sent totals for seats the table has not. (Its draw for
    the start is not checked here: a draw SEAT-5 cannot make is a setup to refuse.)"""
    if not isinstance(deal, dict) or not isinstance(deal.get("players"), int):
        return
    n = deal["players"]
    for key in ("scores", "outs"):
        if isinstance(deal.get(key), list) and len(deal[key]) != n:
            raise _At((i, "deal", key), f"deal.{key}: {len(deal[key])} numbers for {n} "
                      f"seat{'s' * (n != 1)}")


def _each_action_once(i: int, j: int, e: dict[str, Any]) -> None:
    """An entry names each action once: a play is one action whichever end of its tile is
    written first, and legal or refused, not both (the schema's uniqueItems sees only a
    list's exact repeats; two refusals of one play kept the last one's clauses unsaid)."""
    seen: dict[str, str] = {}
    for k, a in enumerate(e.get("legal") or ()):
        key = canonical_action(a)
        if key in seen:
            raise _At((i, "expect", j, "legal", k), f"legal: `{a}` is `{seen[key]}` again "
                      "(a tile is one tile either end first): list each action once")
        seen[key] = a
    legal, seen = set(seen), {}
    for a in e.get("refused") or {}:
        key = canonical_action(a)
        if key in seen:
            raise _At((i, "expect", j, "refused", a), f"refused: `{a}` is `{seen[key]}` again "
                      "(a tile is one tile either end first): give each action once")
        if key in legal:
            raise _At((i, "expect", j, "refused", a), f"refused: `{a}` is listed in `legal` "
                      "too: an action is legal or refused, not both")
        seen[key] = a


def _each_condition_adds(i: int, j: int, when: Any) -> None:
    """A `when:` list whose every condition widens the scope. `{}` among others is every
    rule set (alone, `[{}]` is `{}`), which leaves the rest idle (a condition emptied
    while editing); a condition repeated, or lying within another, adds nothing: each was
    taken in silently, and whatever the author meant by it was never checked."""
    if not isinstance(when, list) or not all(isinstance(c, dict) for c in when):
        return  # a lone mapping, or a shape the scope's reading refuses
    parts = [{o: frozenset([v] if isinstance(v, str) else v if isinstance(v, list) else [v])
              for o, v in c.items()} for c in when]
    for w, part in enumerate(parts):
        if not part and len(parts) > 1:
            raise _At((i, "expect", j, "when", w), f"`when` condition {w + 1} is empty, "
                      "which is every rule set and leaves the others idle: give it its "
                      "options and values, or write `when: {}` for every rule set")
    for w, part in enumerate(parts):
        for k, other in enumerate(parts):
            if k == w or (k > w and other == part):  # of two equal ones, the later is told
                continue
            if all(o in part and part[o] <= vs for o, vs in other.items()):
                again = ("repeats" if other == part else "lies within")
                raise _At((i, "expect", j, "when", w), f"`when` condition {w + 1} {again} "
                          f"condition {k + 1}: it adds no rule set; leave it out or widen it")


def _clauses(value: Any) -> tuple[str, ...]:
    return (value,) if isinstance(value, str) else tuple(value)


def load_corpus(root: str | Path | None = None) -> tuple[list[Fixture], list[SpecError]]:
    """Every fixture under `root` (default: the shipped corpus), and every load error."""
    fixtures: list[Fixture] = []
    errors: list[SpecError] = []
    for path in fixture_files(root):
        shown = _display(path)
        try:
            fixtures += load_file(shown, read_text(path, shown))
        except SpecErrors as e:
            errors += list(e)
        except SpecError as e:
            errors.append(e)
    return fixtures, errors


def duplicate_ids(fixtures: Sequence[Fixture]) -> list[SpecError]:
    """An error at each fixture whose id an earlier one has: results, `-k`, `--skip`
    and `mtrain state ID` go by the id, so two of them would pass as one."""
    first: dict[str, Fixture] = {}
    out = []
    for fx in fixtures:
        if fx.id in first:
            out.append(SpecError(fx.path, fx.line, f"id {fx.id} is also used at "
                                                   f"{first[fx.id].where}"))
        first.setdefault(fx.id, fx)
    return out


def _display(path: Path) -> str:
    try:
        return str(path.relative_to(FIXTURE_ROOT.parent.parent))
    except ValueError:
        return str(path)


# --- expectations against their table ----------------------------------------------
# Fixture expectations checked against the table they speak about, as the file loads.
#
# The schema knows the shape of an expectation, not the table: an expected hand may name a
# tile that is not in the rule set's tile set, a seat the table does not have, a score
# list of the wrong length. Run against an implementation, such a fixture fails, and the
# failure is blamed on the implementation; here it is a load error at the expectation's
# line instead, so `mtrain lint` and every run report it. Only what can be checked from
# the table itself is: whether a play is legal is for the engine. Refusals are not
# checked, since naming a train or a tile that does not exist is how a fixture asks for
# one to be refused (TRAIN-1, SET-1).

SEAT_LISTS = ("marked", "first_turns")
TRAIN_LISTS = ("open_doubles", "turn_doubles")
PER_SEAT = ("scores", "outs", "hand_sizes")


@functools.lru_cache(maxsize=256)
def variant_max_pip(variant: str) -> int | None:
    """The highest number of the rule set's tiles; None if the name does not resolve
    (lint reports that on its own)."""
    try:
        tile_set = catalog().ruleset(variant)["tile_set"]
    except (RulesetError, SpecError, KeyError):
        return None
    return int(str(tile_set).rsplit("-", 1)[1])


def seats_of(fx: Fixture) -> int | None:
    if fx.table is not None:
        hands = fx.table.get("hands")
        return len(hands) if isinstance(hands, dict) else None
    if fx.deal is not None and isinstance(fx.deal.get("players"), int):
        players: int = fx.deal["players"]
        return players
    return None


def expectation_problems(fx: Fixture) -> list[SpecError]:
    """Every expectation of `fx` (and its steps) that the table cannot meet, each at its
    expectation's line."""
    n = seats_of(fx)
    if n is None:
        return []
    out: list[SpecError] = []
    pips: dict[str, int | None] = {name: variant_max_pip(name) for exp in fx.expect
                                   for name in exp.variants} or {"any rule set": T.MAX_PIP}
    for k, step in enumerate(fx.steps, 1):
        for message in _action(step, n, pips):
            out.append(SpecError(fx.path, fx.line, f"fixture {fx.id}: step {k}: {message}"))
    for exp in fx.expect:
        # no variant named (a scope of option values only): at least a tile of some set
        sets = {name: pips[name] for name in exp.variants} or {"any rule set": T.MAX_PIP}
        out += [SpecError(fx.path, exp.line or fx.line, f"fixture {fx.id}: expected {m}")
                for m in _expectation(exp, n, sets)]
    return out


def _expectation(exp: Expectation, n: int, sets: dict[str, int | None]) -> Iterator[str]:
    state = exp.state
    for key in ("seat", "starter"):
        if key in state:
            yield from _seat(state[key], n, f"state.{key}")
    hands = state.get("hands")
    if hands is not None:
        for seat, tiles in hands.items():
            yield from _seat(seat, n, "state.hands")
            yield from _tiles(tiles, sets, f"state.hands[{seat}]")
    trains = state.get("trains")
    if trains is not None:
        for train, tiles in trains.items():
            yield from _train(train, n, "state.trains")
            yield from _tiles(tiles, sets, f"state.trains[{train}]")
    for key in SEAT_LISTS:
        for seat in state.get(key) or []:
            yield from _seat(seat, n, f"state.{key}")
    for key in TRAIN_LISTS:
        for train in state.get(key) or []:
            yield from _train(train, n, f"state.{key}")
    if "boneyard" in state:
        yield from _tiles(state["boneyard"], sets, "state.boneyard")
    if state.get("drawn") is not None:
        yield from _tiles([state["drawn"]], sets, "state.drawn")
    for key in PER_SEAT:
        if key in state:
            yield from _per_seat(state[key], n, f"state.{key}")
    if isinstance(exp.result, dict):
        if exp.result.get("winner") is not None:
            yield from _seat(exp.result["winner"], n, "result.winner")
        if "scores" in exp.result:
            yield from _per_seat(exp.result["scores"], n, "result.scores")
    for seat in exp.winners or ():
        yield from _seat(seat, n, "winners")
    for action in exp.legal or ():
        yield from (f"legal action `{action}`: {m}" for m in _action(action, n, sets))


def _seat(value: Any, n: int, where: str) -> Iterator[str]:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < n:
        yield f"{where}: {value!r} is not a seat at this table (seats 0..{n - 1})"


def _train(value: Any, n: int, where: str) -> Iterator[str]:
    if value != MEXICAN:
        yield from (m.replace("a seat", "a train (a seat or mexican)")
                    for m in _seat(value, n, where))


def _no_such_clause(names: Sequence[str], known: Mapping[str, Any]) -> str:
    """The message for clause ids no rule has, with the ids the author likely meant: the
    same without a leading zero (TRAIN-02), else the ids of the group it names (TRAIN-99),
    else the groups there are (a group of its own); each group said once."""
    hints: dict[str, str] = {}
    for name in names:
        group, _, number = name.partition("-")
        near = [c for c in known if c.partition("-")[0] == group]
        if number.isdigit() and f"{group}-{int(number)}" in known:
            hints[name] = f"{name}: write {group}-{int(number)}, without the leading zero"
        elif near:
            hints.setdefault(group, f"the {group} clauses: {', '.join(near)}")
        else:
            groups = dict.fromkeys(c.partition("-")[0] for c in known)  # the spec's order
            hints.setdefault(group, f"no group {group}: the groups are {', '.join(groups)}")
    return f"unknown clause {', '.join(names)}: no rule has that id; " + "; ".join(
        hints.values())


def _tiles(tiles: Any, sets: dict[str, int | None], where: str) -> Iterator[str]:
    if tiles is None:  # `0:` with nothing after it: an empty hand or train is []
        yield f"{where}: expected a list of tiles, got null; an empty list is written []"
        return
    if not isinstance(tiles, list):
        yield f"{where}: expected a list of tiles, got {tiles!r}"
        return
    for tile in tiles:
        yield from _tile(tile, sets, where)
    if len({str(t) for t in tiles}) != len(tiles):
        yield f"{where}: a tile is written twice"


def _tile(tile: Any, sets: dict[str, int | None], where: str) -> Iterator[str]:
    for name, pip in sets.items():
        if pip is None:
            continue
        try:
            T.parse(str(tile), pip)
        except T.TileError as e:
            yield f"{where}: {e} (under {name})"
            return


def _per_seat(values: Any, n: int, where: str) -> Iterator[str]:
    if not isinstance(values, list) or len(values) != n:
        yield f"{where}: expected one value per seat ({n}), got {values!r}"


def _action(text: str, n: int, sets: dict[str, int | None]) -> Iterator[str]:
    m = ACTION_RE.match(text.strip())
    if m is None or m.group(4):
        return
    yield from _tile(m.group(2), sets, "the tile")
    train: Any = MEXICAN if m.group(3) == MEXICAN else int(m.group(3))
    yield from _train(train, n, "the train")
