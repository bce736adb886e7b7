"""Shrinking: a disagreeing probe cut down while the same disagreement stays.

Delta debugging on the table: fewer players, shorter trains, smaller hands, a shorter
written boneyard, fewer extras; every tile taken off the table goes to the one `rest`
place. A candidate is kept only if it is a possible table (possible.table_problems) and
the implementation still disagrees there under the same signature; a probe that carries
steps is first started as late as it can be (a table of the reference's state part way).
"""

from __future__ import annotations

import copy
import dataclasses
import time
from collections.abc import Callable
from typing import Any

from mtrain.conformance.adapter import ReferenceImplementation, Refused, RefusedSetup
from mtrain.conformance.fuzz import over_cut
from mtrain.conformance.fuzz.judge import Disagreement, Probe
from mtrain.conformance.fuzz.possible import stand_in_problems
from mtrain.conformance.fuzz.rejudge import Judge, deal_request
from mtrain.conformance.fuzz.rulesets import context
from mtrain.conformance.fuzz.tables import (
    cut_train,
    drop_seat,
    drop_train,
    reroute,
    splices,
    swap_action,
    swap_numbers,
    table_of,
    turn_action,
    turn_seats,
)
from mtrain.conformance.runner import deal_with_draw
from mtrain.reference import codec
from mtrain.reference.engine import engine_number
from mtrain.spec.notation import REST, action_json, round_of, table_state


class Shrinker:
    """Cuts a disagreeing probe down while it shows the disagreement `signature`.

    Tiles taken off the table go to the one `rest` place: the boneyard's tail when the
    boneyard holds tiles, else the hand of a seat that is not to move.
    """

    def __init__(self, judge: Judge, probe: Probe, signature: str, seconds: float | None,
                 tries: int | None = None) -> None:
        """`tries`: the candidates put to the implementation at most, a budget that gives
        the same cut at any load; `seconds`: a wall-clock bound on top (None: none)."""
        self.judge = judge
        self.signature = signature
        self.best = probe
        self.own = True  # until the probe itself shows it (below)
        found = self._shows(probe)
        if found is None:
            raise ValueError("the probe does not show the disagreement again")
        self.verdict: Disagreement = found
        # a step its own rules did not read stays one: conform would not run the table
        self.own = bool(found.own)
        self.deadline = None if seconds is None else time.monotonic() + seconds
        self.budget = tries
        self.tries = 0
        self.kept = 0
        # a table lint reads under the stand-in's rotation too stays one (_rotation_round)
        self.strict = False

    def _shows(self, probe: Probe) -> Disagreement | None:
        found = self.judge.judge(probe) or []
        return next((d for d in found if d.signature == self.signature
                     and (self.own or not d.own)), None)

    @property
    def expired(self) -> bool:
        if self.budget is not None and self.tries >= self.budget:
            return True
        return self.deadline is not None and time.monotonic() >= self.deadline

    def attempt(self, candidate: Probe) -> bool:
        if self.expired:
            return False
        self.tries += 1
        if self.strict and self._off_rotation(candidate):
            return False
        if candidate.kind == "over" and not over_cut.carries(candidate.table):
            return False
        verdict = self._shows(candidate)
        if verdict is None:
            return False
        self.best, self.verdict = candidate, verdict
        self.kept += 1
        if not verdict.own:  # a table conform runs: every later cut must stay one
            self.own = False
        return True

    def run(self) -> Probe:
        if self.best.kind == "setup":
            return self.best  # a count and the sorted order, or a table of one bare seat
        if self.best.kind == "deal":
            self._deal()
            return self.best
        if self.best.steps or self.best.table is None:
            self._later_start()
            if self.best.table is None:
                return self.best  # only a deal and every step show it
        self._rotation_round()
        self.strict = not self._off_rotation(self.best)
        # Cut tiles go to the boneyard's tail or to a hand; which one keeps the
        # disagreement shows only once cuts are made: both are tried, the smaller kept.
        # Where the probe shows other disagreements beside this one, a boneyard is tried
        # too though the table has none (a round a player goes out of may hold one), and
        # a cut showing this one alone is kept first: its reproducer fails by it, and is
        # charged where it is (layover's totals replaced, MATCH-1, shrunk to a table whose
        # rest, held in a hand, also showed its tiles of 10 miscounted: charged SCORE-1)
        start, verdict = self.best, self.verdict
        places = [self._rest_in_boneyard, self._rest_in_hand]
        if self.best.kind == "over" or not self._alone(start):
            # (a finished table asked who wins may end blocked with a boneyard:
            # lint.winners_alone)
            places.append(self._rest_in_empty_boneyard)
        done: list[tuple[Probe, Disagreement]] = []
        for place in places:
            self.best, self.verdict = start, verdict
            if place() or not done:
                self._passes()
                done.append((self.best, self.verdict))
        if len(places) > 2:
            alone = [pv for pv in done if self._alone(pv[0])]
            done = alone or done
        self.best, self.verdict = min(done, key=lambda pv: pv[0].size)
        self._rotation_round()
        return self.best

    def _alone(self, probe: Probe) -> bool:
        """Whether `probe` shows no disagreement but this one."""
        return {d.signature for d in self.judge.judge(probe) or []} <= {self.signature}

    def _rotation_round(self) -> None:
        """Under a starting seat of one's own the table keeps the engine's starter
        (possible.own_start), which the stand-in's rotation puts there only in some rounds
        (REACH-STARTER): the table is moved to such a round where it still shows, its
        seats kept, so that lint, reading the stand-in from the reproducer's rules file,
        can check it too. A table whose trains hold tiles keeps its engine (no other
        starts them): its seats are turned until the starter sits where the rotation
        puts it, where that still shows; a finding that depends on which seat is which
        may not (gondola's first turn struck, FIRST-6, in a round 1 whose starter is seat
        1): then its engine's number is swapped with that of a round the rotation starts
        at its starter, on every tile, where that still shows. Else its reproducer would
        fail lint's REACH-STARTER: the check says so (reproducer.off_rotation)."""
        ctx = context(self.best.variant)
        table = self.best.table
        if table is None or not self._off_rotation(self.best):
            return
        n, top = len(table["hands"]), ctx.max_pip
        starter = table.get("starter", table.get("seat", 0))
        for round_no in range(1 + starter % n, top + 2, n):  # SEAT-3: (round - 1) mod n
            if self.attempt(self._with({**self._table(), "engine": top + 1 - round_no})):
                return
        if not self.best.steps:
            k = (round_of(table.get("engine", top), top) - 1 - starter) % n
            if self.attempt(self._with(turn_seats(self._table(), k),
                                       turn_action(self.best.action, k, n))):
                return
        engine = int(table.get("engine", top))
        for round_no in range(1 + starter % n, top + 2, n):
            if self.attempt(self._swapped(engine, top + 1 - round_no)):
                return

    def _swapped(self, a: int, b: int) -> Probe:
        """The probe whose engine is `a` with the numbers `a` and `b` swapped on its table,
        action and steps."""
        table = {**self._table(), "engine": a}
        p = self._with(swap_numbers(table, a, b), swap_action(self.best.action, a, b))
        p.steps = tuple(swap_action(s, a, b) or s for s in p.steps)
        return p

    def _off_rotation(self, probe: Probe) -> bool:
        """Whether `probe`'s table has a starter of a start of one's own (possible.own_start)
        that the stand-in's rotation does not put there (REACH-STARTER)."""
        ctx = context(probe.variant)
        return (probe.table is not None and "starting_seat" in ctx.unknown
                and any("REACH-STARTER" in p for p in stand_in_problems(probe.table, ctx)))

    def _passes(self) -> None:
        changed = True
        while changed and not self.expired:
            changed = False
            for step in (self._seats, self._trains, self._hands, self._boneyard, self._extras,
                         self._totals):
                changed = step() or changed

    def _with(self, table: dict[str, Any], action: str | None = None) -> Probe:
        """The best probe with `table` (and `action`); a finished table's round scores
        those of its hands (over_cut.rescored)."""
        p = copy.copy(self.best)
        p.table = table if p.kind != "over" else over_cut.rescored(table, p.variant)
        if action is not None:
            p.action = action
        return p

    def _totals(self) -> bool:
        """A finished table's totals made smaller, their differences kept (over_cut)."""
        table = self.best.table
        if self.best.kind != "over" or table is None:
            return False
        lower = over_cut.lower_totals(table)
        return lower is not None and self.attempt(self._with(lower))

    def _table(self) -> dict[str, Any]:
        assert self.best.table is not None
        return copy.deepcopy(self.best.table)

    def _rest_in_boneyard(self) -> bool:
        t = self._table()
        return bool(t["boneyard"]) and self.attempt(
            self._with({**t, "boneyard": [*t["boneyard"], REST]}))

    def _rest_in_empty_boneyard(self) -> bool:
        t = self._table()
        return not t["boneyard"] and self.attempt(self._with({**t, "boneyard": [REST]}))

    def _rest_in_hand(self) -> bool:
        """The hand of the seat not to move that holds the most; of a finished table, any
        seat's, one the rules do not name a winner first (what the rest is worth adds to
        its total: over_cut.rescored)."""
        t = self._table()
        over = self.best.kind == "over"  # (no move: any hand but an empty one that went out)
        others = [s for s in t["hands"] if s != t["seat"] or (over and t["hands"][s])]
        if not others:
            return False
        won = self.verdict.expect.get("winners") or [] if over else []
        k = max(others, key=lambda s: (s not in won, len(t["hands"][s])))
        t["hands"][k] = [*t["hands"][k], REST]
        return self.attempt(self._with(t))

    def _rest_seat(self) -> int | None:
        assert self.best.table is not None
        return next((s for s, h in self.best.table["hands"].items() if REST in (h or [])), None)

    def _seats(self) -> bool:
        """One seat fewer at a time, down to the fewest players the rule set deals: the
        steps and the action renamed (a seat no step names may go); where the table's
        round no longer shows it at the smaller count (the last round of a match of one's
        own, a rotation's starter), the same table at each other round (its engine's
        number swapped with that round's) is tried too."""
        changed = False
        ctx = context(self.best.variant)
        fewest = min(ctx.rs.player_counts)
        for s in sorted(self._table()["hands"], reverse=True):
            t = self._table()
            n = len(t["hands"])
            if n - 1 < fewest:
                break
            if s in (t["seat"], t["starter"], self._rest_seat()) or s not in t["hands"]:
                continue
            moves = [drop_train(a, s) for a in (self.best.action, *self.best.steps)]
            if any(m is False for m in moves):
                continue  # the action or a step is a play on seat s's train
            action, *steps = moves
            p = self._with(drop_seat(t, s), action if isinstance(action, str) else None)
            p.steps = tuple(m for m in steps if isinstance(m, str))
            if self.attempt(p) or self._at_other_rounds(p, ctx):
                changed = True
        return changed

    def _at_other_rounds(self, probe: Probe, ctx: Any) -> bool:
        """`probe` moved to another round of the rule set (its engine's number swapped
        with that round's on every tile, action and step), the nearest rounds first, until
        one shows the disagreement. Not the match's winners: whether a round is the match's
        last is what they ask (coupling's tie rule, moved to a round its own match does
        not end at, left a reproducer the reference fails)."""
        if probe.table is None or probe.kind in ("winners", "over") or self.expired:
            return False
        engine = int(probe.table.get("engine", ctx.max_pip))  # none written: round 1's
        table = {**probe.table, "engine": engine}
        here = round_of(engine, ctx.max_pip)
        for round_no in sorted(range(1, ctx.rules.rounds + 1), key=lambda r: abs(r - here)):
            other = engine_number(ctx.rules, round_no)
            if other == engine:
                continue
            p = copy.copy(probe)
            p.table = swap_numbers(table, engine, other)
            p.action = swap_action(probe.action, engine, other)
            p.steps = tuple(swap_action(x, engine, other) or x for x in probe.steps)
            if self.attempt(p):
                return True
            if self.expired:
                break
        return False

    def _trains(self) -> bool:
        changed = False
        ctx = context(self.best.variant)
        for key in list(self._table().get("trains") or {}):
            shorter = reroute(self._table(), key, ctx.max_pip)
            if shorter is not None:
                changed = self.attempt(self._with(shorter)) or changed
            while not self.expired:
                tiles = (self._table().get("trains") or {}).get(key) or []
                cut = len(tiles)
                progressed = False
                while cut >= 1:
                    if self.attempt(self._with(cut_train(self._table(), key, cut))):
                        progressed = changed = True
                        break
                    cut //= 2
                if not progressed:
                    break
            changed = self._splice(key, ctx.max_pip) or changed
        return changed

    def _splice(self, key: Any, max_pip: int) -> bool:
        """Stretches inside train `key` taken out or relaid shorter (tables.splices), while
        one shows: where no tail comes off (a blocked end keeps each open number's tiles
        laid). After one is kept the search goes on from its rank (what failed before
        is not tried again)."""
        changed, after = False, 0
        while not self.expired and key in (self._table().get("trains") or {}):
            for rank, candidate in splices(self._table(), key, max_pip, after):
                if self.attempt(self._with(candidate)):
                    changed, after = True, rank
                    break
            else:
                break
        return changed

    def _hands(self) -> bool:
        changed = False
        for s in list(self._table()["hands"]):
            t = self._table()
            hand = t["hands"][s] or []
            keep = [x for x in hand if x == REST or x == t.get("drawn")]
            items = [x for x in hand if x not in keep]

            def build(kept: list[str], s: int = s, keep: list[str] = keep) -> Probe:
                nt = self._table()
                nt["hands"][s] = kept + keep
                return self._with(nt)

            changed = self._ddmin(items, build) or changed
        return changed

    def _boneyard(self) -> bool:
        t = self._table()
        bone = t.get("boneyard") or []
        rest = [REST] if REST in bone else []
        items = [x for x in bone if x != REST]

        def build(kept: list[str]) -> Probe:
            nt = self._table()
            nt["boneyard"] = kept + rest
            return self._with(nt)

        return self._ddmin(items, build)

    def _extras(self) -> bool:
        changed = False
        t = self._table()
        for s in list(t.get("marked") or []):
            nt = self._table()
            nt["marked"] = [x for x in nt["marked"] if x != s]
            changed = self.attempt(self._with(nt)) or changed
        if self._table()["starter"] != self._table()["seat"]:
            nt = self._table()
            nt["starter"] = nt["seat"]
            changed = self.attempt(self._with(nt)) or changed
        if self._table().get("first_turns"):
            nt = self._table()
            nt["first_turns"] = []
            changed = self.attempt(self._with(nt)) or changed
        for key in ("passes", "scores", "outs"):
            nt = self._table()
            zero: Any = 0 if key == "passes" else [0] * len(nt["hands"])
            if nt.get(key) != zero:
                nt[key] = zero
                changed = self.attempt(self._with(nt)) or changed
        return changed

    def _ddmin(self, items: list[str], build: Callable[[list[str]], Probe]) -> bool:
        """Remove chunks of `items` (halves, quarters, ... single items) while it holds."""
        changed = False
        chunk = max(1, len(items) // 2)
        while items and not self.expired:
            i = 0
            while i < len(items) and not self.expired:
                candidate = items[:i] + items[i + chunk:]
                if self.attempt(build(candidate)):
                    items, changed = candidate, True
                else:
                    i += chunk
            if chunk == 1:
                break
            chunk = max(1, chunk // 2)
        return changed

    def _later_start(self) -> None:
        """Start from the reference's state after as many of the steps as can go, while it
        shows: the largest such number is found by halving (the bug shows from every
        start before the mistake that sets it off, and from none after)."""
        states = self._replay()
        if states is None:
            return
        probe = self.best

        def at(j: int) -> Probe:
            return dataclasses.replace(probe, table=table_of(states[j]), deal=None,
                                       steps=probe.steps[j:])

        lo, hi = 0, len(states) - 1  # lo: shows (the original), hi: the latest to try
        if self.attempt(at(hi)):
            return
        while hi - lo > 1 and not self.expired:
            mid = (lo + hi) // 2
            if self.attempt(at(mid)):
                lo = mid
            else:
                hi = mid
        if lo == 0 and self.best.table is None:
            self.attempt(at(0))  # a table shrinks further than a deal

    def _replay(self) -> list[Any] | None:
        """The reference's state before each step of the best probe (and after the last)."""
        probe = self.best
        ctx = context(probe.variant)
        ref = ReferenceImplementation()
        if probe.table is not None:
            state = table_state(probe.table, ctx.rs)
        else:
            request = deal_request(ctx, probe.deal)
            if request is None:
                return None
            players, round_no, order, extra = request
            draw = (probe.deal or {}).get("draw")  # SEAT-5: the deal's draw, if any
            try:
                state = {**deal_with_draw(ref, ctx.rj, players, round_no, order, draw), **extra}
            except RefusedSetup:  # a draw that no longer fits the shrunk table
                return None
        states = [state]
        for step in probe.steps:
            try:
                state = ref.apply(ctx.rj, state, action_json(step, ctx.max_pip))
            except (Refused, codec.StateError):
                return None
            states.append(state)
        return states

    def _deal(self) -> None:
        """Fewer players, no made-up totals, and a named order (sorted, reversed: no tile
        written) in place of a list, at the deal's round or, failing that, at another
        round (a list of tiles fits only its own round's pool): each tried again after
        any other cut, since which order shows a bug depends on the table (shed's search
        from seat 0 shows in sorted order at 2 players, not at the 4 it was found at)."""
        ctx = context(self.best.variant)
        changed = True
        while changed and not self.expired:
            changed = False
            deal = self._dealt()
            for players in sorted(ctx.rs.player_counts):
                if players >= deal["players"]:
                    break
                cand = {k: v for k, v in deal.items() if k not in ("scores", "outs")}
                if self.attempt(dataclasses.replace(self.best, deal={**cand,
                                                                     "players": players})):
                    changed = True
                    break
            deal = self._dealt()
            if "scores" in deal or "outs" in deal:
                cand = {k: v for k, v in deal.items() if k not in ("scores", "outs")}
                changed = self.attempt(dataclasses.replace(self.best, deal=cand)) or changed
            changed = self._named_order(ctx) or changed

    def _dealt(self) -> dict[str, Any]:
        assert self.best.deal is not None
        return self.best.deal

    def _named_order(self, ctx: Any) -> bool:
        """A named order in place of a list of tiles: at the deal's round, else at the
        first other round where one shows it."""
        deal = self._dealt()
        if isinstance(deal.get("order", "sorted"), str):
            return False
        here = deal.get("engine", ctx.max_pip)
        engines = [here, *(e for e in range(ctx.max_pip, ctx.max_pip - ctx.rules.rounds, -1)
                           if e != here)]
        for engine in engines:
            for order in ("sorted", "reversed"):
                cand = {**deal, "order": order, "engine": engine}
                if engine == ctx.max_pip:
                    del cand["engine"]  # round 1: what a deal without an engine deals
                if self.attempt(dataclasses.replace(self.best, deal=cand)):
                    return True
        return False
