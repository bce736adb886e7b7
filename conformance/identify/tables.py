"""Fixtures whose table the rules build: one request per table built.

identify asks each fixture under the rule set it sends (`sent`), its table built under
that rule set. A table that leaves part of its state to the rules (a starter not
written, which the starting seat decides, SEAT-3; any default a rule supplies) is another
table under a value that builds it otherwise, and the scope partition's outcomes under
that value are those of the other table: the engine, asked only the table `sent` builds,
says nothing of them. So each such fixture's pieces where the table is another take the
outcome ANY (any answer fits), and the fixture is asked again once per other table
built, under a rule set that builds it (`sent` with one value changed), its pieces ANY
but where that table is built. Every value is then judged on the table it builds, and
none is free of evidence the others bear (leaving them ANY alone would let the solver
put any failure of those fixtures on the values never asked).

Which options a table reads is traced (conformance/traced.py), never listed here: only
the starting seat today, and only where the deals did not measure it (an engine that
deals nothing, or starts a round at a seat no known value gives).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence
from typing import Any

from mtrain.conformance.fixture import Fixture
from mtrain.conformance.identify.cells import ANY, Piece
from mtrain.conformance.traced import Log, TracedRuleset
from mtrain.spec.notation import FixtureError
from mtrain.spec.ruleset import Ruleset
from mtrain.spec.scope import Region, Space

BUILD_FAULTS = (FixtureError, ValueError, KeyError, TypeError)
"""What building a table under a rule set raises where that rule set cannot have it."""


def built_otherwise(fx: Fixture, sent: Ruleset, allowed: Region,
                    space: Space) -> dict[str, frozenset[str]]:
    """The values of each option the building of `fx`'s table reads (traced, never listed
    here) under which it builds another table than under `sent`, or none: the options
    `allowed` leaves open only (a measured option has the value sent). Empty for a
    fixture dealt, or a table that does not build under `sent`."""
    if fx.table is None:
        return {}
    log = Log()
    try:
        asked = _start(fx, TracedRuleset.wrap(sent, log))
    except BUILD_FAULTS:
        return {}
    out: dict[str, frozenset[str]] = {}
    for option in log.read:
        values = allowed.get(option, frozenset(space.options.get(option, ())))
        if len(values) < 2:
            continue
        other = frozenset(v for v in values
                          if v != sent[option] and _differs(fx, sent, option, v, asked))
        if other:
            out[option] = other
    return out


def _start(fx: Fixture, rs: Ruleset) -> Any:
    return fx.start(rs)


def _with(sent: Ruleset, option: str, value: str) -> Ruleset:
    return Ruleset(sent.name, tuple((o, value if o == option else v) for o, v in sent.choices),
                   sent.hand_table)


def _differs(fx: Fixture, sent: Ruleset, option: str, value: str, asked: Any) -> bool:
    """Whether `fx`'s table under `sent` with `option` at `value` is not the one asked
    (or is no table there at all)."""
    try:
        return bool(_start(fx, _with(sent, option, value)) != asked)
    except BUILD_FAULTS:
        return True


def asked_again(fx: Fixture) -> bool:
    """Whether `fx` is a copy per_table made (a corpus id holds no space): the same
    fixture asked under another table, never a check of its own towards `sure`."""
    return " (" in fx.id


def once_each(ids: Sequence[str]) -> list[str]:
    """`ids` with each copy per_table made named by its fixture's corpus id, each id once,
    in the order first met: a report lists a fixture once, however many tables it was
    asked under (a failure on two tables is one fixture failing)."""
    out: dict[str, None] = {}
    for fid in ids:
        copy = COPY.match(fid)  # (evidence in words, which `ids` may hold, is kept as is)
        out.setdefault(copy[1] if copy else fid, None)
    return list(out)


COPY = re.compile(r"^(\S+) \([a-z_]+: [^()]*\)$")
"""A copy's id as per_table names it: the corpus id (no space), the option and values."""


def per_table(fixtures: Sequence[Fixture], parts: dict[str, list[Piece]], sent: Ruleset,
              allowed: Region, space: Space) -> list[tuple[Ruleset, list[Fixture]]]:
    """Of `fixtures` (their pieces in `parts`, narrowed to `allowed`), those whose table
    is built otherwise under some values than under `sent`: their pieces there made ANY
    in `parts`, and the requests that ask each other table, as (the rule set that builds
    it, the fixtures asked under it), each fixture a copy named after the values it
    stands for, its pieces put in `parts`. A value under which the table does not build
    is asked nothing (its pieces stay ANY)."""
    asked: dict[tuple[str, str], tuple[Ruleset, list[Fixture]]] = {}
    for fx in fixtures:
        pieces = parts[fx.id]
        otherwise = built_otherwise(fx, sent, allowed, space)
        if not otherwise:
            continue
        parts[fx.id] = asked_alike(fx, pieces, sent, allowed, space, otherwise)
        for option, values in sorted(otherwise.items()):
            for group in _by_table(fx, sent, option, values):
                rs = _with(sent, option, group[0])
                copy = dataclasses.replace(fx, id=f"{fx.id} ({option}: {', '.join(group)})")
                parts[copy.id] = asked_alike(copy, pieces, rs, allowed, space)
                asked.setdefault((option, group[0]), (rs, []))[1].append(copy)
    return [asked[k] for k in sorted(asked)]


def _by_table(fx: Fixture, sent: Ruleset, option: str, values: frozenset[str]
              ) -> list[list[str]]:
    """`values` grouped by the table each builds for `fx` (those that build none left
    out), each group sorted: one request per table."""
    groups: list[tuple[Any, list[str]]] = []
    for v in sorted(values):
        try:
            table = _start(fx, _with(sent, option, v))
        except BUILD_FAULTS:
            continue
        same = next((g for t, g in groups if t == table), None)
        if same is None:
            groups.append((table, [v]))
        else:
            same.append(v)
    return [g for _, g in groups]


def asked_alike(fx: Fixture, pieces: Sequence[Piece], sent: Ruleset, allowed: Region,
                space: Space, otherwise: Mapping[str, frozenset[str]] | None = None
                ) -> list[Piece]:
    """`fx`'s pieces (narrowed to `allowed`), each part of a region whose values build
    another table than the one asked under `sent` (`otherwise`, traced where not given)
    split off with every outcome ANY."""
    if otherwise is None:
        otherwise = built_otherwise(fx, sent, allowed, space)
    if not otherwise:
        return list(pieces)
    out = []
    for p in pieces:
        rest: dict[str, frozenset[str]] = dict(p.region)
        for option, values in sorted(otherwise.items()):
            every = allowed.get(option, frozenset(space.options[option]))
            held = rest.get(option, every)
            if held & values:
                out.append(Piece(_pinned({**rest, option: held & values}, every, option),
                                 tuple(ANY for _ in p.outcomes), p.read))
            rest[option] = held - values
            if not rest[option]:
                break
        else:
            out.append(Piece(rest, p.outcomes, p.read))
    return out


def _pinned(region: Mapping[str, frozenset[str]], every: frozenset[str],
            option: str) -> dict[str, frozenset[str]]:
    """`region`, `option` left out where it allows every value (as narrowed pieces are)."""
    return {o: vs for o, vs in region.items() if o != option or vs != every}
