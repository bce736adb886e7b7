"""What an implementation sets up, asked apart from the games: the player counts its
rule set's table lacks (refused, DEAL-7) and, under a match length of its own, the
rounds its match has.

Games deal only the counts a table lists, so an engine that deals a count its table
lacks (pullman's eight tiles each to 9 players) was never asked: conform alone found it.
Each rule set is asked (once a run, after its first game) for a setup at every count its
table lacks next to the ones it lists (one below the fewest, one above the most, any gap
between) and at the game's edges: a table of one seat (every table begins at two, DEAL-2
to DEAL-6; a deal request cannot ask it, so the table is put) and MAX_PLAYERS, the most
any table may list. Refusing is right; dealing (or refusing by another clause) is a
finding, whose reproducer is the setup with `refused_setup: DEAL-7`.

A match length of one's own (`other`) leaves how many rounds a match has to the engine;
games that start at a round its match does not have end at their deal (signalbox: 18 of
60). `match_rounds` asks the engine for the deal of a round, halving, once for each
player count games are played at (viaduct's match length depends on it), and games
start only at rounds its match has at their count.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from mtrain.conformance.adapter import JSON, Implementation
from mtrain.conformance.fixture import Expectation, Fixture
from mtrain.conformance.fuzz import own_rules
from mtrain.conformance.fuzz.judge import Disagreement, Probe, failure
from mtrain.conformance.fuzz.rulesets import Context, context
from mtrain.conformance.own_rounds import deals_round, last_dealt
from mtrain.conformance.process import NotApplicable
from mtrain.conformance.runner import play
from mtrain.reference.engine import engine_number
from mtrain.spec.ruleset import MAX_PLAYERS, Ruleset

CLAUSE = "DEAL-7"
ONE_SEAT: dict[str, Any] = {"seat": 0, "first_turns": [0], "hands": {0: ["rest"]}}
"""A table of one seat (a deal request names two players or more): the start of a round."""


def unlisted_counts(rs: Ruleset) -> list[int]:
    """The counts `rs`'s table lacks that a run asks a setup of: next to those it lists
    (one fewer than the fewest, one more than the most, the gaps) and the game's edges
    (one seat, MAX_PLAYERS)."""
    listed = set(rs.player_counts)
    lo, hi = min(listed), max(listed)
    wanted = {1, lo - 1, hi + 1, MAX_PLAYERS, *range(lo, hi)}
    return sorted(n for n in wanted if 1 <= n <= MAX_PLAYERS and n not in listed)


def probe(variant: str, players: int) -> Probe:
    """The setup of `players` under `variant`, as a probe (kind "setup")."""
    if players == 1:
        return Probe("setup", variant, table={**ONE_SEAT, "hands": {0: ["rest"]}})
    return Probe("setup", variant, deal={"players": players, "order": "sorted"})


def players_of(p: Probe) -> int:
    return len(p.table["hands"]) if p.table is not None else int((p.deal or {})["players"])


def _fixture(ctx: Context, p: Probe) -> Fixture:
    exp = Expectation(variants=(ctx.name,), refused_setup=(CLAUSE,))
    return Fixture(id="fuzz-setup", description="", clauses=(CLAUSE,), source=(),
                   path="<fuzz>", line=None, table=p.table, deal=p.deal, steps=(),
                   expect=(exp,))


def ask(impl: Implementation, p: Probe) -> tuple[str, list[Disagreement]]:
    """What the implementation does with the setup `p` (in the report's words), and the
    finding if that is not a refusal by DEAL-7 (or by no clause, which conform accepts).
    NotApplicable: it answered `unsupported`."""
    ctx = context(p.variant)
    n = players_of(p)
    expect: dict[str, Any] = {"refused_setup": CLAUSE}
    clauses = (CLAUSE,)
    if own_rules.ENGINE_PROCEDURE in ctx.unknown:
        impl = _WholePool(impl, ctx)
    try:
        played = play(_fixture(ctx, p), ctx.rs, impl, ctx.rj)
    except NotApplicable:
        raise
    except Exception as e:  # a crash, a timeout, no answer
        sig, message = failure("setup", e)
        return f"failed ({sig})", [Disagreement(sig, (message,), expect, (), clauses)]
    if not isinstance(played, tuple):
        refusal = played.refusal
        if refusal is None:  # the table could not be put (not the implementation's doing)
            return f"not asked ({'; '.join(played.messages)})", []
        if refusal.clause in (None, CLAUSE):
            return f"refused ({refusal.clause or 'no clause named'})", []
        sig = f"refuses the setup citing {refusal.clause}, not {CLAUSE}"
        return (f"refused citing {refusal.clause}", [Disagreement(
            sig, (f"the setup of {n} players was refused by {refusal.clause}: "
                  f"{refusal.reason}; the rules refuse it by {CLAUSE}",), expect, (), clauses)])
    sizes = _hand_sizes(played[0]) if p.table is None else ""
    what = f"dealt ({sizes})" if sizes else "played on (its table not refused)"
    return what, [Disagreement(
        f"allows the setup ({CLAUSE})",
        (f"{n} {'player' if n == 1 else 'players'}: {what}; the rules refuse it, the table listing "
         f"{_listed(ctx.rs)} players only ({CLAUSE})",), expect, (), clauses)]


class _WholePool:
    """`inner`, asked a deal from the whole set where the rule set plays an engine
    procedure of its own (own_rules.sent_order), as a game's deal is asked: the pool of
    the procedure played in its place is the stand-in's (pullman, asked 9 players from a
    set-aside pool, answered an error, `order is not the double-12 set`)."""

    def __init__(self, inner: Implementation, ctx: Context) -> None:
        self.inner, self.ctx = inner, ctx

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def deal(self, ruleset: JSON, players: int, round: int, order: list[str],
             draw: list[list[str]] | None = None) -> JSON:
        extra = {"draw": draw} if draw is not None else {}  # SEAT-5: only where one is sent
        sent = own_rules.sent_order(self.ctx, round, order)
        state: JSON = self.inner.deal(ruleset, players, round, sent, **extra)
        return state


def _hand_sizes(state: Any) -> str:
    try:
        sizes = [len(h) for h in state["hands"]]
    except (KeyError, TypeError):
        return ""
    return (f"{sizes[0]} tiles each" if len(set(sizes)) == 1 and sizes
            else "hands of " + ", ".join(map(str, sizes)) + " tiles")


def _listed(rs: Ruleset) -> str:
    counts = rs.player_counts
    runs: list[str] = []
    for n in counts:
        if runs and runs[-1].split("-")[-1] == str(n - 1):
            runs[-1] = f"{runs[-1].split('-')[0]}-{n}"
        else:
            runs.append(str(n))
    return ", ".join(runs)


# --- the rounds a match of its own has -------------------------------------------------


def match_rounds(impl: Implementation, tables: Iterable[tuple[str, int]]) -> dict[str, int]:
    """For each (rule set, player count) of `tables` played with a match length of its
    own: the last round the implementation deals at that count (round_key; viaduct's
    match is the largest multiple of n up to 19 rounds), found by halving between round
    1 and the stand-in's last, with no totals carried; left out where round 1 is not
    dealt, or a deal fails (games then start anywhere, as before)."""
    out: dict[str, int] = {}
    for name, n in dict.fromkeys(tables):
        ctx = context(name)
        if own_rules.MATCH_LENGTH not in ctx.unknown:
            continue
        last = _last_round(impl, ctx, n)
        if last is not None:
            out[round_key(name, n)] = last
    return out


def round_key(name: str, players: int) -> str:
    """How match_rounds names a rule set at a player count."""
    return f"{name}: {players} {'player' if players == 1 else 'players'}"


def _last_round(impl: Implementation, ctx: Context, n: int) -> int | None:
    # asked as a game's deal is, from the whole set under an engine procedure of its own
    # (tipper, whose match is nine rounds, answered the stand-in's pool an error: its
    # rounds unknown, 19 of 60 games started past them and ended at their deal)
    whole = _WholePool(impl, ctx)
    return last_dealt(lambda r: deals_round(whole, ctx.rs, n, engine_number(ctx.rules, r),
                                            ctx.rj), ctx.rules.rounds)


def last_round(ctx: Context, players: int, known: Mapping[str, int]) -> int:
    """The last round games under `ctx` at `players` may start at: the stand-in's, or the
    one the implementation's own match has at that count (match_rounds)."""
    return min(ctx.rules.rounds, known.get(round_key(ctx.name, players), ctx.rules.rounds))
