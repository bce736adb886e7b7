"""Whether a table is one a round can reach: what every fuzz reproducer must be.

`table_problems` is the one check the shrinker applies to every candidate and the writer
to every reproducer: `mtrain lint`'s own table checks (the codec and every invariant),
then the reachability conditions below and those of `mtrain lint`
(spec/model/reachable.py: phase, first turns, drawn tile and open doubles consistent
with how a round gets there).
"""

from __future__ import annotations

from typing import Any

from mtrain.conformance.fixture import Expectation, Fixture
from mtrain.conformance.fuzz.rulesets import Context
from mtrain.conformance.lint import check_start
from mtrain.reference import codec
from mtrain.reference.engine import CHAIN, ENGINE, OVER, State, plays
from mtrain.spec import tiles as T
from mtrain.spec.notation import FixtureError


def unreachable(st: State) -> list[str]:
    """Ways the table contradicts how a round gets anywhere (the tables a shrinker would
    otherwise make: a chain after the mover's first turn, an engine search with first
    turns over, a tile drawn while another was playable, ...)."""
    out = []
    n, seat, pending = st.players, st.seat, st.first_pending
    if st.phase != OVER:
        out += [f"seat {s} holds no tile but the round goes on [END-1]"
                for s in range(n) if not st.hands[s]]
    if st.phase == CHAIN:
        if not pending >> seat & 1:
            out.append("a first-turn chain, but the mover's first turn is over [FIRST-1]")
        if not st.trains[seat]:
            out.append("a first-turn chain with nothing on the mover's train [FIRST-2]")
    if st.phase == ENGINE:
        if pending != (1 << n) - 1:
            out.append("first turns taken before the engine is placed [ENG-4, FIRST-6]")
        if any(st.trains) or any(st.markers) or st.drawn >= 0 or st.passes:
            out.append("tiles, markers, a drawn tile or passes before the engine is placed "
                       "[ENG-4]")
    elif pending:
        # seats take their first turns in order from the starter: those still to come
        # are the mover and every seat after it, up to the starter
        k = (st.starter - seat) % n or n
        due = sum(1 << ((seat + j) % n) for j in range(k))
        if pending != due:
            out.append(f"first turns still due to seats {_seats(pending)}, with seat {seat} "
                       f"to move after seat {st.starter} started: {_seats(due)} [FIRST-6]")
    if st.drawn >= 0 and (st.phase == CHAIN or (
            st.rules.chain_first_turn and pending >> seat & 1)):
        out.append("a tile drawn on a first turn of the chain rule [FIRST-1, FIRST-3]")
    elif st.drawn >= 0 and st.phase != OVER:
        before = st.copy()
        before.hands[seat] &= ~T.BIT[st.drawn]
        before.drawn = -1
        if plays(before):
            out.append(f"{T.name(st.drawn)} was drawn while seat {seat} could play "
                       "[TURN-1, TURN-3]")
    if st.passes and st.boneyard:
        out.append("passes are counted while the boneyard holds tiles [END-3]")
    return out


def _seats(mask: int) -> list[int]:
    return [s for s in range(mask.bit_length()) if mask >> s & 1]


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
        found = check_start(fx, exp, name, here.rs)
        if not found and fx.table is not None:
            try:
                st = codec.state_from_json(here.rules, fx.start(here.rs))
            except (FixtureError, codec.StateError) as e:  # check_start found these
                found = [str(e)]
            else:
                found = [f"{fx.where}: {fx.id} [{name}]: unreachable table: {m}"
                         for m in unreachable(st)]
        out += found
    return out
