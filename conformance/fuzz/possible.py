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
from mtrain.conformance.lint import check_start, how_blocked


def table_problems(table: dict[str, Any], ctx: Context) -> list[str]:
    """Why `table` is not a possible table under `ctx` (nothing: [])."""
    return own_end(own_start(stand_in_problems(table, ctx), ctx), ctx)


def stand_in_problems(table: dict[str, Any], ctx: Context) -> list[str]:
    """Why `table` is not a possible table under the rules `ctx` plays, its stand-ins
    included: how lint reads a reproducer, whose rules file writes them."""
    fx = Fixture(id="fuzz-candidate", description="", clauses=(), source=(), path="<fuzz>",
                 line=None, table=table, deal=None, steps=(), expect=())
    return check_start(fx, Expectation(variants=(ctx.name,)), ctx.name, ctx.rs)


def fixture_problems(fx: Fixture, entries: list[tuple[str, Expectation]] | None = None,
                     ctx: Context | None = None) -> list[str]:
    """lint's table checks and the reachability conditions, under every rule set named;
    under a starting seat of one's own, the engine's start is taken as the table's
    starter (`own_start`), and under a blocked round of one's own its end as it is
    (`own_end`)."""
    from mtrain.conformance.fuzz.rulesets import context

    out: list[str] = []
    for name, exp in entries if entries is not None else list(fx.rulesets()):
        here = ctx if ctx is not None and ctx.name == name else context(name)
        out += own_end(own_start(check_start(fx, exp, name, here.rs), here), here)
    return out


def own_start(problems: list[str], ctx: Context) -> list[str]:
    """`problems` less the rotating start's condition (REACH-STARTER) where the start is
    a rule of one's own played with the rotation as its stand-in: the starter a table
    writes is the one that rule chose, whichever seat it is (as conform reads such a
    table under every known start: selection.unreached). Seats were once turned until
    the starter sat where the rotation puts it instead, which renamed them and hid the
    bugs that depend on which seat is which (gondola's strike of the lowest seat listed
    in first_turns, FIRST-6: a finding that did not show again)."""
    if "starting_seat" not in ctx.unknown:
        return problems
    return [p for p in problems if "REACH-STARTER" not in p]


BLOCKED_ROUND = "blocked_round"
"""The option whose value says when a round with an empty boneyard is over (END-2, END-3)."""


def own_end(problems: list[str], ctx: Context) -> list[str]:
    """`problems` less the part of REACH-OVER that END-2 or END-3 decides (a blocked end
    where somebody can still play, or at another count of passes) where the blocked round
    is a rule of one's own: the round it ended is over when that rule says so (hostler's
    closes at the turn that empties the boneyard), and who wins on the totals it left,
    the question asked of such an end, reads no rule of how it ended. The rest of
    REACH-OVER (no drawn tile, a domino by the player to move) holds whatever the rule."""
    if BLOCKED_ROUND not in ctx.unknown:
        return problems
    return [p for p in problems if not how_blocked(p.rsplit("unreachable table: ", 1)[-1])]
