"""What changes between two rule sets (`mtrain diff A B`), for regression testing.

A and B are variant names, overlay combinations ("pagat+blanks-25") or variant files (a
table's house rules). The report lists:

* ``options``: every option on which they differ, with both values;
* ``clauses``: the clauses that apply under only one of them;
* ``fixtures``: the corpus fixtures that tell them apart: those naming both with
  different expectations, those naming only one, and, for a rule set the corpus does
  not name, those whose outcome under the reference engine differs (the start, steps
  and observed keys of the fixture, played under both);
* ``not_compared``: for a side whose hand table lacks player counts the other deals, the
  fixtures at those counts, summed up: that side refuses them all (DEAL-7), so none
  says how the two play (a two-player table's diff was 221 fixtures, mostly these);
* ``situations``: for every differing option, the smallest situation z3 finds where A
  and B disagree because of that option alone (B with that option set back to A's value
  answers as A does); when no situation can separate it from the other differences,
  one where they disagree at all, marked ``attributed: false``.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Sequence
from typing import Any

from mtrain.spec.catalog import RulesetError, catalog
from mtrain.spec.distinguish import KIND, DistinguishError, Situation, make_question, situation_for
from mtrain.spec.distinguish.question import RELEVANT
from mtrain.spec.notation import max_pip_of
from mtrain.spec.ruleset import OTHER, Ruleset
from mtrain.spec.yamlload import SpecError

__all__ = ["diff"]


def _resolve(spec: str) -> Ruleset:
    from mtrain.spec.errors import InputError

    try:
        return catalog().ruleset(spec)
    except (RulesetError, SpecError, OSError) as e:
        raise InputError(str(e)) from None


def _vector(rs: Ruleset) -> tuple[tuple[str, str], ...]:
    return tuple(rs.items())


def _content(exp: Any) -> tuple[Any, ...]:
    return (sorted(exp.legal) if exp.legal is not None else None,
            sorted(exp.refused.items()), repr(sorted(exp.state.items(), key=str)),
            repr(exp.result), exp.winners)


def fixture_differences(ra: Ruleset, rb: Ruleset, a_spec: str | None = None,
                        b_spec: str | None = None, run_reference: bool = True
                        ) -> list[dict[str, Any]]:
    """The fixtures with entries for A and for B (by scope) that expect different things,
    with an entry for only one of them, or (by the reference engine) whose outcome differs
    under the two.

    `why` says which: ``expectations differ``; ``speaks only about A: fails under B`` (A's
    expectation, played under B by the reference engine, does not hold) or ``speaks only
    about A: holds under B``; ``reference outcome differs`` (no entry for either; the keys
    of the fixture's first expectation differ). `tells_apart` is false only for a
    one-side fixture whose expectation holds under the other side too.
    """
    from mtrain.conformance.adapter import ReferenceImplementation
    from mtrain.conformance.fixture import load_corpus
    from mtrain.conformance.runner import run_one

    fixtures, _ = load_corpus()
    impl = ReferenceImplementation()
    va, vb = dict(ra.choices), dict(rb.choices)
    rulesets = {"A": ra, "B": rb}
    # the reference engine plays no rule declared `other`: a side that has one is
    # compared by the fixtures' expectations alone
    unplayable = {side: _other_options(rs) for side, rs in rulesets.items()}
    out: list[dict[str, Any]] = []
    for fx in fixtures:
        if _refused_by_one(fx, ra, rb) is not None:
            continue  # DEAL-7 on one side: summed up in not_compared
        if not _set_up_by_both(fx, ra, rb):
            continue  # neither side can set it up (DEAL-7 on both): it tells nothing
        ea = next((e for e in fx.expect if e.scope.contains(va)), None)  # by scope
        eb = next((e for e in fx.expect if e.scope.contains(vb)), None)
        entry = {"id": fx.id, "where": fx.where}
        if ea is not None and eb is not None:
            if _content(ea) != _content(eb):
                out.append({**entry, "why": "expectations differ", "tells_apart": True})
            continue
        if ea is not None or eb is not None:
            side, other, exp = ("A", "B", ea) if ea is not None else ("B", "A", eb)
            assert exp is not None
            if not run_reference:
                out.append({**entry, "why": f"speaks only about {side}", "tells_apart": None})
                continue
            if unplayable[other]:
                out.append({**entry, "why": f"speaks only about {side}; the reference engine "
                            f"cannot play {other} ({unplayable[other]})", "tells_apart": None})
                continue
            try:
                outcome = run_one(fx, rulesets[other], exp, impl)
                verdict = "holds" if outcome.status == "pass" else "fails"
            except (ValueError, KeyError) as e:  # DEAL-7: no hand size for that count, ...
                verdict = f"cannot be set up ({e})"
            out.append({**entry, "why": f"speaks only about {side}: {verdict} under {other}",
                        "tells_apart": verdict != "holds"})
            continue
        if run_reference and not any(unplayable.values()) and _outcome_differs(fx, ra, rb):
            out.append({**entry, "why": "reference outcome differs", "tells_apart": True})
    return out


def _refused_by_one(fx: Any, ra: Ruleset, rb: Ruleset) -> tuple[str, str] | None:
    """The side ("A" or "B") that cannot set the fixture up where the other can, and why:
    its hand table lacks the fixture's player count ("seats", DEAL-7: refused), or its
    tile set the fixture's tiles ("tiles": a double-12 table is none of a double-8
    set's); else None."""
    for why, can in (("seats", _deals), ("tiles", _holds)):
        a, b = can(fx, ra), can(fx, rb)
        if a != b:
            return ("B" if a else "A"), why
    return None


def _set_up_by_both(fx: Any, ra: Ruleset, rb: Ruleset) -> bool:
    """Whether both sides deal the fixture's player count and hold its tiles (called
    after `_refused_by_one`, so false means neither can set it up)."""
    return all(can(fx, rs) for can in (_deals, _holds) for rs in (ra, rb))


def _deals(fx: Any, rs: Ruleset) -> bool:
    from mtrain.conformance.fixture import seats_of

    n = seats_of(fx)
    return n is None or rs.deals(n)


_TILE = re.compile(r"\b(\d+)-(\d+)\b")


def _highest(fx: Any) -> int:
    """The highest number on a tile the fixture writes (its table, deal and steps)."""
    text = json.dumps([fx.table, fx.deal, list(fx.steps)], default=str)
    return max((int(n) for pair in _TILE.findall(text) for n in pair), default=0)


def _holds(fx: Any, rs: Ruleset) -> bool:
    return _highest(fx) <= max_pip_of(rs)


def not_compared(ra: Ruleset, rb: Ruleset) -> list[dict[str, Any]]:
    """Per side that cannot set up fixtures the other can (`_refused_by_one`): their ids,
    and why none is compared, on one line."""
    from mtrain.conformance.fixture import load_corpus, seats_of

    fixtures, _ = load_corpus()
    refused = [(fx, _refused_by_one(fx, ra, rb)) for fx in fixtures]
    out = []
    for side, rs, other in (("A", ra, rb), ("B", rb, ra)):
        mine = [(fx, why[1]) for fx, why in refused if why is not None and why[0] == side]
        if not mine:
            continue
        seats = sorted({n for fx, why in mine if why == "seats"
                        for n in [seats_of(fx)] if n is not None})
        tiles = sum(why == "tiles" for _, why in mine)
        causes = [f"has no hand size for {_counts(seats)} players (DEAL-7: refused)"] \
            if seats else []
        if tiles:
            causes.append(f"lacks the tiles past {max_pip_of(rs)} that {tiles} of them lay")
        out.append({"side": side, "fixtures": [fx.id for fx, _ in mine], "seats": seats,
                    "why": f"{side} ({rs.name}) {' and '.join(causes)}, where "
                           f"{'B' if side == 'A' else 'A'} ({other.name}) plays them"})
    return out


def hand_rows(rs: Ruleset) -> str:
    """A hand table in words, counts of one size together: `2 to 4: 15, 5 and 6: 12`."""
    sizes: dict[int, list[int]] = {}
    for n, size in rs.hand_table:
        sizes.setdefault(size, []).append(n)
    return ", ".join(f"{_counts(counts)}: {size}" for size, counts in sizes.items())


def _counts(seats: Sequence[int]) -> str:
    """Player counts as runs: `3 to 10`, `3, 5 and 9 to 12`."""
    runs: list[list[int]] = []
    for n in seats:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    words = [str(r[0]) if len(r) == 1 else f"{r[0]} and {r[1]}" if len(r) == 2
             else f"{r[0]} to {r[-1]}" for r in runs]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _other_options(rs: Ruleset) -> str:
    """The options `rs` plays `other`, as `option=other, ...` ("" for none)."""
    return ", ".join(f"{option}=other" for option, value in rs.items() if value == "other")


def _outcome_differs(fx: Any, ra: Ruleset, rb: Ruleset) -> bool:
    """Play the fixture under both rule sets with the reference engine; compare what its
    first expectation observes."""
    from mtrain.conformance.adapter import (
        ReferenceImplementation,
        Refused,
        RefusedSetup,
        ruleset_json,
    )
    from mtrain.conformance.runner import start_state, take_step
    from mtrain.conformance.state_compare import state_view
    from mtrain.spec.notation import FixtureError, action_text

    impl = ReferenceImplementation()
    exp = fx.expect[0]
    seen: list[tuple[str, Any]] = []
    for rs in (ra, rb):
        rj = ruleset_json(rs)
        # every read of the state inside: a table the rule set does not deal (a player
        # count its own hand-size table lacks: DEAL-7) is refused by the first read
        try:
            state = start_state(fx, rs, rj, impl)
            for step in fx.steps:
                state = take_step(impl, rj, rs, state, step, fx.deal_draw())
            view = state_view(state)
            got: list[Any] = []
            if exp.legal is not None:
                got.append(sorted(action_text(a) for a in impl.legal(rj, state)))
            got += [repr(view.get(k)) for k in sorted(exp.state)]
            if exp.result is not ...:
                got.append(repr(state.get("result")))
            if exp.winners is not None and state.get("phase") == "over":
                got.append(sorted(impl.winners(rj, state)))
        except (FixtureError, Refused, RefusedSetup, ValueError, KeyError) as e:
            seen.append(("error", type(e).__name__))
            continue
        seen.append(("ok", got))
    return seen[0] != seen[1]


def situations(ra: Ruleset, rb: Ruleset, options: Sequence[str]) -> list[dict[str, Any]]:
    """One z3 situation per differing option (see the module docstring)."""
    out: list[dict[str, Any]] = []
    for option in options:
        # z3's model, like the reference, plays no rule declared `other`: a situation
        # sought there showed an outcome "under other" that no rule gives
        read = dict.fromkeys((option, *RELEVANT[KIND[option]]))
        own = [f"{side} plays {' and '.join(mine)} `other`" for side, rs in (("A", ra), ("B", rb))
               if (mine := [o for o in read if rs[o] == OTHER])]
        if own:
            out.append({"option": option, "kind": KIND[option], "situation": None,
                        "why": f"not sought: {'; '.join(own)}, a rule the model cannot play"})
            continue
        found: Situation | None = None
        try:
            found = situation_for(make_question(ra, rb, option, attribute=True))
            if found is None:
                found = situation_for(make_question(ra, rb, option))
                if found is not None:
                    found.attributed = False
        except DistinguishError as e:
            out.append({"option": option, "kind": KIND[option], "error": str(e)})
            continue
        if found is None:
            out.append({"option": option, "kind": KIND[option], "situation": None,
                        "why": "no situation of this kind tells them apart"})
            continue
        entry = found.to_json()
        if found.kind == "legal":
            la, lb = set(found.expect_a["legal"]), set(found.expect_b["legal"])
            entry["only_a"] = sorted(la - lb)
            entry["only_b"] = sorted(lb - la)
        out.append(entry)
    return out


def diff(a: str, b: str, fixtures: bool = True, with_situations: bool = True
         ) -> dict[str, Any]:
    cat = catalog()
    ra, rb = _resolve(a), _resolve(b)
    t0 = time.perf_counter()
    options = [o for o in cat.options if ra[o] != rb[o]]
    report: dict[str, Any] = {
        "a": {"spec": a, "name": ra.name, "options": dict(ra.items())},
        "b": {"spec": b, "name": rb.name, "options": dict(rb.items())},
        "options": [{"option": o, "a": ra[o], "b": rb[o], "kind": KIND[o],
                     **({"rows": {"a": hand_rows(ra), "b": hand_rows(rb)}}
                        if o == "hand_sizes" else {})} for o in options],
        "clauses": {
            "only_a": [c.id for c in cat.clauses.values() if c.applies(ra) and not c.applies(rb)],
            "only_b": [c.id for c in cat.clauses.values() if c.applies(rb) and not c.applies(ra)],
        },
    }
    if fixtures:
        report["fixtures"] = fixture_differences(ra, rb, a, b)
        report["not_compared"] = not_compared(ra, rb)
    t1 = time.perf_counter()
    if with_situations:
        report["situations"] = situations(ra, rb, options)
    t2 = time.perf_counter()
    report["seconds"] = {"fixtures": round(t1 - t0, 3), "situations": round(t2 - t1, 3)}
    return report
