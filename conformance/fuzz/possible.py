"""Whether a table is one a round can reach: what every fuzz reproducer must be.

`table_problems` is the one check the shrinker applies to every candidate and the writer
to every reproducer: `mtrain lint`'s own table checks (the codec and every invariant),
and its reachability conditions (spec/model/reachable.py: phase, first turns, drawn tile
and open doubles consistent with how a round gets there).
"""

from __future__ import annotations

from typing import Any

from mtrain.conformance.fixture import Expectation, Fixture
from mtrain.conformance.fuzz.rulesets import Context
from mtrain.conformance.fuzz.tables import turn_seats
from mtrain.conformance.lint import check_start
from mtrain.spec.notation import max_pip_of, round_of


def table_problems(table: dict[str, Any], ctx: Context) -> list[str]:
    """Why `table` is not a possible table under `ctx` (nothing: [])."""
    fx = Fixture(id="fuzz-candidate", description="", clauses=(), source=(), path="<fuzz>",
                 line=None, table=table, deal=None, steps=(), expect=())
    return fixture_problems(fx, [(ctx.name, Expectation(variants=(ctx.name,)))], ctx)


def fixture_problems(fx: Fixture, entries: list[tuple[str, Expectation]] | None = None,
                     ctx: Context | None = None) -> list[str]:
    """lint's table checks and the reachability conditions, under every rule set named."""
    from mtrain.conformance.fuzz.rulesets import context

    out: list[str] = []
    for name, exp in entries if entries is not None else list(fx.rulesets()):
        here = ctx if ctx is not None and ctx.name == name else context(name)
        out += check_start(fx, exp, name, here.rs)
    return out



def own_starter(table: dict[str, Any], ctx: Context) -> tuple[dict[str, Any], int]:
    """`table` as a reproducer can write it under a starting seat of one's own played with
    the rotating start as its stand-in, and how many places its seats moved: the seats are
    turned until the starter sits where the rotation puts it (REACH-STARTER, the stand-in's
    condition, refused the table as the own rule dealt it, so that it could not be asked
    again, nor shrunk). The rules answer the turned table alike, its seats renamed."""
    if "starting_seat" not in ctx.unknown or ctx.rs["starting_seat"] != "rotate":
        return table, 0
    n = len(table["hands"])
    start = (round_of(table["engine"], max_pip_of(ctx.rs)) - 1) % n
    k = (start - table.get("starter", table.get("seat", 0))) % n
    return (turn_seats(table, k), k) if k else (table, 0)
