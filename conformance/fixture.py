"""Fixtures: loading the YAML, and turning a table into a canonical state per rule set.

The table notation (docs/fixture-format.md) is written for people: hands by seat, trains
in laying order in either orientation, `rest` for the tiles nobody needs to see. The
same table can serve a double-12 and a double-9 rule set, so the canonical state is
built per rule set: `Fixture.start(ruleset)`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mtrain.spec import tiles as T
from mtrain.spec.catalog import RulesetError, catalog
from mtrain.spec.ruleset import Ruleset
from mtrain.spec.scope import Scope, ScopeError, scope_of
from mtrain.spec.tilesets import highest
from mtrain.spec.yamlload import (
    Document,
    SpecError,
    SpecErrors,
    load,
    read_text,
    schema,
    validate,
)

MEXICAN = "mexican"
REST = "rest"
ACTION_RE = re.compile(r"^(play) (\d+-\d+) on (\d+|mexican)$|^(draw|pass|end-chain)$")
NEXT_ROUND = "next-round"
NEXT_ROUND_RE = re.compile(r"^next-round(?: (sorted|reversed))?$")
"""The step that deals the next round of the match once a round is over (MATCH-1)."""
FIXTURE_ROOT = Path(__file__).parent / "fixtures"


class FixtureError(ValueError):
    """A fixture that cannot be set up under a rule set (a 10 on a double-9 set, ...)."""


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
    refused_setup: tuple[str, ...] | None = None
    """The rule set does not allow the start (or a `next-round` deal): the clauses any of
    which the implementation's refusal may name. Such an entry checks nothing else."""
    line: int | None = None

    @property
    def checks(self) -> int:
        """How many comparisons the entry makes: the legal set, each refusal, each state
        field, the result, the winners, whether the match is over, a refused setup."""
        return ((self.legal is not None) + len(self.refused) + len(self.state)
                + (self.result is not ...) + (self.winners is not None)
                + (self.match_over is not None) + (self.refused_setup is not None))


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

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}" if self.line else self.path

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
        return table_state(self.table, rs)

    def deal_request(self, rs: Ruleset) -> tuple[int, int, list[str], dict[str, Any]]:
        """(players, round, order, extra) for a deal fixture under `rs`."""
        assert self.deal is not None
        max_pip = max_pip_of(rs)
        engine = self.deal.get("engine", max_pip)
        round_no = round_of(engine, max_pip)
        names = deal_order(rs, engine, self.deal.get("order", "sorted"))
        extra: dict[str, Any] = {k: self.deal[k] for k in ("scores", "outs") if k in self.deal}
        return int(self.deal["players"]), round_no, names, extra


def deal_order(rs: Ruleset, engine: int, order: Any) -> list[str]:
    """The pool to deal a round of engine `engine` from: `sorted`, `reversed` or a list of
    tiles; the pool is the set less the engine where the rule set sets it aside (ENG-2)."""
    max_pip = max_pip_of(rs)
    pool = [t for t in range(T.set_size(max_pip))]
    if rs["engine_procedure"] == "set-aside":
        pool.remove(T.DOUBLE[engine])
    if order == "sorted":
        return [T.name(t) for t in pool]
    if order == "reversed":
        return [T.name(t) for t in reversed(pool)]
    return [T.name(parse_tile(x, max_pip)) for x in order]


def next_round_order(step: str) -> str:
    """`sorted` or `reversed`: the pool order of a `next-round` step."""
    m = NEXT_ROUND_RE.match(step)
    assert m is not None, step
    return m.group(1) or "sorted"


def is_next_round(step: str) -> bool:
    return step.split(" ", 1)[0] == NEXT_ROUND


def max_pip_of(rs: Mapping[str, str]) -> int:
    return highest(rs["tile_set"])


def round_of(engine: int, max_pip: int) -> int:
    if not 0 <= engine <= max_pip:
        raise FixtureError(f"engine [{engine}-{engine}] is not in a double-{max_pip} set")
    return max_pip - engine + 1


def parse_tile(text: Any, max_pip: int) -> int:
    try:
        return T.parse(str(text), max_pip)
    except T.TileError as e:
        raise FixtureError(str(e)) from None


def parse_train(key: Any, players: int) -> int | str:
    if key == MEXICAN:
        return MEXICAN
    if isinstance(key, int) and 0 <= key < players:
        return key
    raise FixtureError(f"{key!r} is not a train (a seat 0..{players - 1} or 'mexican')")


def table_state(table: Mapping[str, Any], rs: Ruleset) -> dict[str, Any]:
    """Canonical state JSON from the table notation, under rule set `rs`."""
    max_pip = max_pip_of(rs)
    engine = int(table.get("engine", max_pip))
    round_no = round_of(engine, max_pip)
    hands_in = table["hands"]
    n = len(hands_in)
    if sorted(hands_in) != list(range(n)):
        raise FixtureError(f"hands must list seats 0..{n - 1}, got {sorted(hands_in)}")
    phase = table.get("phase", "start")
    where_is: dict[int, str] = {}  # tile -> where the table writes it, for messages
    rest_at: list[tuple[str, int]] = []

    def place(t: int, where: str) -> None:
        if t == T.DOUBLE[engine] and phase != "engine":
            raise FixtureError(f"{T.name(t)} is the engine, already in the centre: it is "
                               f"written in {where} (only in phase `engine` is it elsewhere)")
        if t in where_is:
            raise FixtureError(f"{T.name(t)} is written twice: in {where_is[t]} and in {where}")
        where_is[t] = where

    def tiles_of(items: Sequence[Any], where: str, key: int) -> list[int]:
        out = []
        for x in items:
            if x == REST:
                rest_at.append((where, key))
                continue
            t = parse_tile(x, max_pip)
            place(t, f"hand {key}" if where == "hand" else "the boneyard")
            out.append(t)
        return out

    hands = {s: tiles_of(hands_in[s] or [], "hand", s) for s in range(n)}
    trains: dict[int | str, list[str]] = {}
    for key, items in (table.get("trains") or {}).items():
        train = parse_train(key, n)
        end, oriented = engine, []
        for x in items or []:
            t = parse_tile(x, max_pip)
            far = T.OTHER_END[t][end]
            if far < 0:
                raise FixtureError(f"train {train}: {x} does not continue from {end}")
            place(t, f"train {train}")
            oriented.append(T.oriented(t, end))
            end = far
        trains[train] = oriented
    bone_in = table.get("boneyard", [REST])
    boneyard = tiles_of(bone_in, "boneyard", 0)
    if phase != "engine":
        where_is[T.DOUBLE[engine]] = "the centre"
    rest = [t for t in range(T.set_size(max_pip)) if t not in where_is]
    if not rest_at and rest:
        raise FixtureError(f"{len(rest)} tiles of the set are nowhere (add `rest`): "
                           + ", ".join(T.name(t) for t in rest[:8]))
    # Several `rest`s share the leftover tiles out one at a time, in set order, to each
    # place in turn, in the order the table writes them (docs/fixture-format.md).
    for k, t in enumerate(rest):
        where, key = rest_at[k % len(rest_at)]
        (hands[key] if where == "hand" else boneyard).append(t)

    def train_json(key: int | str) -> dict[str, Any]:
        tiles = trains.get(key, [])
        end = int(tiles[-1].split("-")[1]) if tiles else engine
        body: dict[str, Any] = {"tiles": tiles, "end": end}
        if key != MEXICAN:
            body["marker"] = key in marked
        return body

    marked = set(table.get("marked") or [])
    if MEXICAN in marked:
        raise FixtureError("`marked: [mexican]`: the Mexican Train never carries a marker "
                           "(MARK-2); `marked` lists the seats whose own train is marked")
    for s in marked:
        parse_train(s, n)
    default_open = [k for k in [*range(n), MEXICAN]
                    if trains.get(k) and _is_double(trains[k][-1])]
    first = table.get("first_turns", [])
    first_turns = list(range(n)) if first == "all" else sorted(first)
    seat = int(table.get("seat", 0))
    drawn = table.get("drawn")
    result = None
    if phase == "over":
        result = table.get("result")
    return {
        "round": round_no,
        "engine": engine,
        "engine_placed": phase != "engine",
        "phase": phase,
        "seat": seat,
        # SEAT-3: under the rotating start the round's starter is known; else the mover
        "starter": int(table["starter"] if "starter" in table else (round_no - 1) % n
                       if rs["starting_seat"] == "rotate" else seat),
        "hands": [[T.name(t) for t in sorted(hands[s], key=_hand_order)] for s in range(n)],
        "boneyard": [T.name(t) for t in boneyard],
        "trains": [train_json(s) for s in range(n)],
        "mexican": train_json(MEXICAN),
        "open_doubles": [parse_train(k, n) for k in table.get("open_doubles", default_open)],
        "turn_doubles": [parse_train(k, n) for k in table.get("turn_doubles", [])],
        "drawn": None if drawn is None else T.name(parse_tile(drawn, max_pip)),
        "first_turns": first_turns,
        "passes": int(table.get("passes", 0)),
        "scores": list(table.get("scores", [0] * n)),
        "outs": list(table.get("outs", [0] * n)),
        "result": result,
    }


def _is_double(text: str) -> bool:
    a, b = text.split("-")
    return a == b


def _hand_order(t: int) -> tuple[int, int]:
    return (-T.HIGH[t], -T.LOW[t])


# --- actions in text form ------------------------------------------------------------


def action_json(text: str, max_pip: int = T.MAX_PIP) -> dict[str, Any]:
    """`play 5-3 on mexican` -> {"type": "play", "tile": "5-3", "train": "mexican"}."""
    m = ACTION_RE.match(text.strip())
    if not m:
        raise FixtureError(f"not an action: {text!r} (play A-B on SEAT|mexican, draw, pass, "
                           "end-chain)")
    if m.group(4):
        return {"type": m.group(4)}
    tile = T.name(parse_tile(m.group(2), max_pip))
    train: int | str = MEXICAN if m.group(3) == MEXICAN else int(m.group(3))
    return {"type": "play", "tile": tile, "train": train}


def action_text(action: Mapping[str, Any]) -> str:
    """The canonical text of an action in JSON form (tile high end first)."""
    if action.get("type") != "play":
        return str(action.get("type"))
    try:
        tile = T.name(T.parse(str(action.get("tile"))))
    except T.TileError:
        tile = str(action.get("tile"))
    return f"play {tile} on {action.get('train')}"


def canonical_action(text: str) -> str:
    return action_text(action_json(text))


def canonical_step(text: str) -> str:
    """A step in canonical text: an action, or `next-round` (its order named unless it
    is the default, sorted)."""
    m = NEXT_ROUND_RE.match(text.strip())
    if m is not None:
        return NEXT_ROUND if m.group(1) in (None, "sorted") else f"{NEXT_ROUND} {m.group(1)}"
    return canonical_action(text)


# --- loading -------------------------------------------------------------------------


def load_file(path: str | Path, text: str | None = None) -> list[Fixture]:
    """The fixtures of one file; raises SpecErrors listing every problem with its line."""
    doc = load(path, text)
    errors = validate(doc, schema("fixture"))
    if errors:
        raise SpecErrors(errors)
    out = []
    problems: list[SpecError] = []
    for i, raw in enumerate(doc.data):
        try:
            out.append(_fixture(doc, i, raw))
        except _At as e:
            problems.append(doc.error(e.pointer, f"fixture {raw.get('id')}: {e}"))
        except FixtureError as e:
            problems.append(doc.error((i,), f"fixture {raw.get('id')}: {e}"))
    from .tablecheck import expectation_problems  # it reads Fixture: imported once loaded

    problems += [p for fx in out for p in expectation_problems(fx)]
    if problems:
        raise SpecErrors(problems)
    return out


def _fixture(doc: Document, i: int, raw: dict[str, Any]) -> Fixture:
    expects = []
    for j, e in enumerate(raw["expect"]):
        refused = {canonical_action(a): (c,) if isinstance(c, str) else tuple(c)
                   for a, c in (e.get("refused") or {}).items()}
        legal = e.get("legal")
        variants = tuple(e.get("variants") or ())
        try:
            scope = scope_of(catalog(), variants, e.get("when"))
        except ScopeError as err:
            raise _At((i, "expect", j, "when"), str(err)) from None
        except RulesetError as err:
            raise _At((i, "expect", j, "variants"), str(err)) from None
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
            line=doc.line_of((i, "expect", j)),
        ))
        if expects[-1].match_over is False and expects[-1].winners is not None:
            raise _At((i, "expect", j, "match_over"),
                      "`match_over: false` with `winners`: a match that goes on has no winners")
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
        steps=steps, expect=tuple(expects), note=raw.get("note", ""))


def _clauses(value: Any) -> tuple[str, ...]:
    return (value,) if isinstance(value, str) else tuple(value)


def fixture_files(root: str | Path | None = None) -> list[Path]:
    base = Path(root) if root is not None else FIXTURE_ROOT
    if base.is_file():
        return [base]
    # a folder named x.yaml is walked, not read; a broken link is kept, to be reported
    return sorted(p for p in base.rglob("*.yaml") if p.is_file() or p.is_symlink())


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


def _display(path: Path) -> str:
    try:
        return str(path.relative_to(FIXTURE_ROOT.parent.parent))
    except ValueError:
        return str(path)
