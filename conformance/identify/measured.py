"""What the deals measured, as a region of the option space: the base rule set, the
rule set every fixture is asked under, and the rule set written from an answer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from mtrain.conformance.adapter import Implementation
from mtrain.conformance.fixture import Fixture
from mtrain.conformance.identify.cells import Piece, narrowed
from mtrain.conformance.identify.measure import Deals, ruleset_of
from mtrain.conformance.identify.observe import observe
from mtrain.spec.catalog import Catalog, RulesetError
from mtrain.spec.errors import InputError
from mtrain.spec.ruleset import CUSTOM, OTHER, Ruleset
from mtrain.spec.scope import Region, Space, example_value


def table_value(space: Space, table: Mapping[int, int]) -> str:
    """The hand_sizes value of the space for a measured table: a named table's, an example
    file's (`custom:NAME`), else `custom`."""
    rows = tuple(sorted(table.items()))
    for v in space.options["hand_sizes"]:
        if v != CUSTOM and space.table_of(v) == dict(rows):
            return v
    return CUSTOM


def measured_region(space: Space, deals: Deals) -> Region:
    """The region the deals leave: the set, the table, and the procedure and seat where
    measured; the procedures that can deal the table (DEAL-8) otherwise."""
    cat = space.cat
    allowed: Region = {}
    if deals.tile_set is not None or deals.read_set is not None:
        allowed["tile_set"] = frozenset([deals.tile_set or deals.read_set or ""])
    if deals.table:
        value = table_value(space, deals.table)
        if deals.tile_set is not None and space.complete(
                {"tile_set": frozenset([deals.tile_set]), "hand_sizes": frozenset([value])}
                ) is None:  # a named table of another set (DEAL-10): the engine's own
            deals.problems.append(f"the engine deals the {value} table on a "
                                  f"{deals.tile_set} set, for which it is not published: "
                                  "written as a table of its own (DEAL-10)")
            value = CUSTOM
        allowed["hand_sizes"] = frozenset([value])
        rows = tuple(sorted(deals.table.items()))
        sets = allowed.get("tile_set", frozenset(space.options["tile_set"]))
        allowed["engine_procedure"] = frozenset(
            p for p in space.options["engine_procedure"]
            if any(not cat.conflicts({"tile_set": s, "hand_sizes": CUSTOM,
                                      "engine_procedure": p}, rows) for s in sets))
    else:  # no deal seen: a named table, never the probe that stands for any
        allowed["hand_sizes"] = frozenset(v for v in space.options["hand_sizes"]
                                          if v != CUSTOM)
    if deals.procedure is not None:
        allowed["engine_procedure"] = frozenset([deals.procedure]) & allowed.get(
            "engine_procedure", frozenset([deals.procedure]))
    if deals.seat is not None:
        allowed["starting_seat"] = frozenset([deals.seat])
    return {o: vs for o, vs in allowed.items() if vs}


def solving_region(allowed: Region, deals: Deals) -> Region:
    """The region the solver answers in: `allowed`, and where the deals stand against
    every known procedure (Deals.unknown) `other` beside the procedures the table allows,
    priced as any rule of one's own; the fixtures' pieces stay narrowed to `allowed`
    (their tables are the known procedures')."""
    if not deals.unknown or "engine_procedure" not in allowed:
        return allowed
    return {**allowed, "engine_procedure": allowed["engine_procedure"] | {OTHER}}


SAMPLE = 24
"""Tables read under each tile set when the engine deals none."""


def _read_set(fixtures: Sequence[Fixture], pieces: Mapping[str, Sequence[Piece]],
              impl: Implementation, space: Space, base: Mapping[str, str],
              counts: dict[str, tuple[int, int]] | None = None) -> str | None:
    """The tile set under which the engine answers the most of a sample of the tables
    that tell rule sets of that set apart (an engine reads only tables of its own set),
    for an engine that deals none; `counts` gets each set's (answers read, asked)."""
    best: tuple[int, str] | None = None
    for tile_set in space.options["tile_set"]:
        values = space.complete({"tile_set": frozenset([tile_set])}, base)
        if values is None:
            continue
        only = {"tile_set": frozenset([tile_set])}
        tables = [fx for fx in fixtures if fx.table is not None and len(
            {p.outcomes for p in narrowed(fx, pieces[fx.id], only, space, None)}) > 1]
        plain, table = space.catalog_form(values)
        rs = ruleset_of(space.cat, plain, table)
        seen = [o for ob in observe(tables[:SAMPLE], impl, rs) for o in ob.outcomes]
        read = sum(o not in (None, "error") for o in seen)
        if counts is not None:
            counts[tile_set] = (read, len(seen))
        if best is None or read > best[0]:
            best = (read, tile_set)
    return best[1] if best is not None and best[0] > 0 else None


def base_values(cat: Catalog, declared: Ruleset | None) -> tuple[str, dict[str, str]]:
    """The base rule set: the declared rules where the engine declares them (a value
    `other` there: the first variant's), else the first shipped variant."""
    first = next(iter(cat.variants))
    values = dict(cat.ruleset(first).choices)
    if declared is None:
        return first, values
    mine = {o: v for o, v in declared.choices if v != OTHER and v != CUSTOM}
    return "the declared rules", {**values, **mine}


def _sent(space: Space, allowed: Region, base: Mapping[str, str], deals: Deals,
          dealt: Ruleset | None) -> Ruleset:
    """The rule set every fixture is asked under: what was measured (the table as the
    engine's own), the rest the base's where valid."""
    prefer = {**base, **(dict(dealt.choices) if dealt is not None else {}),
              **{o: next(iter(vs)) for o, vs in allowed.items() if len(vs) == 1}}
    values = space.complete(allowed, prefer)
    if values is None:
        raise InputError("no valid rule set has what the deals measured: "
                         + "; ".join(f"{o} in {sorted(vs)}" for o, vs in allowed.items()))
    plain, table = space.catalog_form(values)
    if values["hand_sizes"] == CUSTOM:
        table = tuple(sorted(deals.table.items()))
    return ruleset_of(space.cat, plain, table, space.cat.describe(values))


def _ruleset(cat: Catalog, space: Space, values: Mapping[str, str], deals: Deals,
             own: tuple[tuple[int, int], ...] | None) -> Ruleset:
    """The rule set found, with the measured table (a table of its own unless a named
    table deals the same)."""
    chosen = dict(values)
    table: tuple[tuple[int, int], ...] | None = None
    hs = chosen["hand_sizes"]
    if own is not None:
        chosen["hand_sizes"], table = CUSTOM, own
    elif hs in space.tables:
        chosen["hand_sizes"], table = CUSTOM, space.tables[hs]
    name = cat.describe(chosen)
    if table is not None and any(example_value(n) == hs for n in cat.examples):
        name = cat.describe({**chosen, "hand_sizes": hs})
    try:
        return cat.from_values(chosen, name=name, table=table)
    except RulesetError:  # the solver keeps to valid rule sets: not expected
        return ruleset_of(cat, chosen, table, name)
