"""The clauses a fuzz reproducer names: a best guess from the situation (the step, the
fields that differ, the rules in force), read from the catalogue where it can be, so that a
new value's clause joins. conform charges a reproducer's failure itself; these only say
which clauses the fixture exercises (a fixture names its clauses)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from mtrain.conformance.fuzz.rulesets import Context
from mtrain.reference import codec
from mtrain.reference.engine import State, duties
from mtrain.reference.rules import FOLLOW_ANYWHERE, FOLLOW_RESTRICTED
from mtrain.reference.state import FOLLOW
from mtrain.spec import tiles as T
from mtrain.spec.catalog import catalog
from mtrain.spec.notation import action_json

__all__ = ["action_clauses", "deal_clauses", "known_clauses", "seat_clauses",
           "stand_in_clauses", "state_clauses", "winners_clauses"]


def deal_clauses(ctx: Context) -> list[str]:
    """The deal's clauses in force: how it deals (DEAL-1), the engine (ENG-*) and who
    starts (SEAT-2 and after), read from the catalogue, so a new value's clause joins."""
    return ["DEAL-1", *_in_force(ctx, ("ENG-",)), *_in_force(ctx, ("SEAT-",), skip=("SEAT-1",))]


def seat_clauses(ctx: Context) -> list[str]:
    """Who starts (SEAT-2 and after) in force, read from the catalogue."""
    return known_clauses(_in_force(ctx, ("SEAT-",), skip=("SEAT-1",)))


def winners_clauses(ctx: Context) -> list[str]:
    """The match's clauses in force (MATCH-*), read from the catalogue."""
    return known_clauses(_in_force(ctx, ("MATCH-",)))


def _in_force(ctx: Context, prefixes: tuple[str, ...], skip: tuple[str, ...] = ()) -> list[str]:
    return [c.id for c in catalog().clauses.values()
            if c.id.startswith(prefixes) and c.id not in skip and c.applies(ctx.rs)]


def state_clauses(ctx: Context, st: State, more: Iterable[str]) -> list[str]:
    r = ctx.rules
    follow = {FOLLOW_ANYWHERE: "DBL-2", FOLLOW_RESTRICTED: "DBL-3"}.get(r.follow, "DBL-4")
    search = "ENG-6" if r.everyone_draws else "ENG-4"  # the search for the engine
    out = {"engine": [search], "chain": ["FIRST-1", "FIRST-2"],
           "follow": ["DBL-1", follow]}.get(st.phase, [])
    due = duties(st)
    if due:
        out += ["DBL-6", "DBL-7" if r.oldest_first else "DBL-8"]
        if any(t != st.seat and t < st.players and not st.marked(t) for t in due):
            out.append("TRAIN-6")  # the cover goes on another player's closed train
    if st.drawn >= 0:
        out.append("TURN-5" if r.draw_until_playable else "TURN-3")
    return known_clauses([*out, *more])


def action_clauses(ctx: Context, st: State, text: str, expect: dict[str, Any]) -> list[str]:
    r = ctx.rules
    act = codec.action_from_json(st, action_json(text, ctx.max_pip))
    fields = set(expect.get("state", {}))
    out: list[str] = []
    if act.kind == "play":
        out.append("TRAIN-2")
        if act.train in st.open_doubles:
            out.append("TRAIN-3")
        if T.IS_DOUBLE[act.tile]:
            out.append("DBL-11" if r.ordinary_doubles else "DBL-1")
        if "marked" in fields:
            out.append(("MARK-3", "MARK-4", "MARK-5")[r.marker_rule])
        if "seat" in fields or "phase" in fields:
            out.append("TURN-6")
    elif act.kind == "draw":
        search = "ENG-6" if r.everyone_draws else "ENG-4"
        out.append(search if st.phase == "engine" else "TURN-2")
    elif act.kind == "pass":
        out += ["TURN-4", "MARK-1"]
        if st.phase == FOLLOW and not r.ordinary_doubles:
            # a follow-up failed: the pass puts the marker up as in an ordinary turn, and
            # the double stays open (DBL-5, which conform charges where a fixture lists it)
            out.append("DBL-5")
    else:
        out.append("FIRST-1")
    if "result" in expect:
        result = expect["result"] or {}
        if result.get("end") == "domino":
            out.append("END-1")
        elif result.get("end") == "blocked":
            out.append("END-3" if r.passes_end_round else "END-2")
        out.append("SCORE-6" if r.positive_scoring else "SCORE-5")
        if result.get("end") == "blocked" and r.blocked_low_wins:
            out.append("SCORE-7")
        if "scores" in result:  # what each hand is worth too (the blank values, SCORE-2..4):
            # conform charges the clause the scores' difference shows, where the fixture
            # names it, as it charges the `score` answer's reproducer (scoring.clauses): one
            # bug, one charge (tandem's [0-0] counted 25 had SCORE-5 here, SCORE-2 there)
            out += _in_force(ctx, ("SCORE-",))
    if "first_turns" in fields:
        out.append("FIRST-6")
    if "outs" in fields:
        out.append("MATCH-5")  # the rounds gone out, kept for the tie-break (as conform has it)
    if "scores" in fields:
        out.append("MATCH-1")  # the totals add each round's scores
    return state_clauses(ctx, st, out)


def known_clauses(ids: Iterable[str]) -> list[str]:
    """The catalogue's clauses among `ids`, once each in order; TURN-1 if none is."""
    known = catalog().clauses
    return list(dict.fromkeys(c for c in ids if c in known)) or ["TURN-1"]


def stand_in_clauses(ctx: Context, ids: Iterable[str]) -> dict[str, tuple[str, ...]]:
    """Of `ids`, the catalogue's clauses in force only through the reference's stand-in:
    in force under the rules it plays (`ctx.rs`) but not under those declared
    (`ctx.declared`), each with the options of its `when` the rule set plays its own way
    (`other`). The clauses above are read from the rules the reference plays, so they may
    name the stand-in's rule (tramway's `blank_values: other` had its reproducer list
    SCORE-1, face values), which is not a rule the finding was judged by. (A clause in
    force under neither is a field's own, such as MATCH-5 for the rounds gone out, which
    conform charges under every tie rule: not the stand-in's, and left alone.)"""
    known = catalog().clauses
    return {c: tuple(o for o in known[c].when if o in ctx.unknown) for c in dict.fromkeys(ids)
            if c in known and known[c].applies(ctx.rs) and not known[c].applies(ctx.declared)}
