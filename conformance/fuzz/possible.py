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
from mtrain.conformance.lint import check_start


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
