"""A round as a z3 transition system: its state, legal actions, effects, invariant and rank.

The abstract state of a round on a double-N set with P players (small N and P for the
proofs of spec/proofs/termination.py; any shipped set for the engine comparison of
conformance/crosscheck/round_effects.py):

* ``loc[t]`` for every tile: a seat's hand (0..P-1), the boneyard (P) or the table (P+1).
  The boneyard is a set, and a draw takes any tile of it: every order the real boneyard
  could have is one choice, so the model has every behaviour of the engine (and draws that
  a given deal would not make, which is harmless for the properties proved);
* per train (P personal trains, then the Mexican Train): its open end, whether it is
  started, whether it ends in an open double and that double's age (a clock counts doubles
  laid), whether the double was laid this turn; per seat: marker and first turn pending;
* the seat to move, the starter, the phase (engine, start, chain, follow, over), the tile
  just drawn (-1 for none), the passes made on an empty boneyard, and how the round ended.

Which actions are legal is not written here: every state is read as a decision of
spec/model/legality.py (`Model.lview`: a hand slot per tile, present while the mover holds it),
and its clause predicates (``binding``, ``to_cover``, ``duty``, ``legal``) give the duties,
the plays, draw, pass and end-chain, and the END-2 test's "could play on a turn of its
own"; whether a round is blocked is spec/model/decisions.py's END-2/END-3 test, read on
these states. The effects of an action (``play``, ``draw``, ``pass_``, ``end_turn``, the
END-2/END-3 test at the end of every turn) are written here once, with the rule set's
option values as constants (the model reads option values, never the engine's flags);
reference/engine.py is hand-optimised separately and checked against them
(conformance/crosscheck/round_effects.py ``compare_effects``: every field of every
successor, on explored small games and on random full-size games).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import z3

from mtrain.spec import tiles as T
from mtrain.spec.model import decisions as D
from mtrain.spec.model import legality as L
from mtrain.spec.model.logic import AsBuilt
from mtrain.spec.model.round_state import (
    BLOCKED,
    CHAIN,
    DOMINO,
    ENGINE,
    FOLLOW,
    OVER,
    PHASE_NAMES,
    RUNNING,
    START,
    START_READS,
    Expr,
    K,
    Sym,
    cached,
    equal,
    seats_to_move,
    select,
)
from mtrain.spec.tilesets import engines, highest

# The round model runs on z3 variables (the proofs) and on an engine state's plain values
# (the engine comparison). Its terms are built as written (spec/model/logic.py `AsBuilt`):
# the proofs' search, the BMC's time above all, depends on the terms' shape.
And, Or, Not, If = AsBuilt.And, AsBuilt.Or, AsBuilt.Not, AsBuilt.If
count, at = AsBuilt.Count, AsBuilt.at


def _small(x: Any) -> Expr:
    """A field put into a test: a z3 term, folded where it is a small combination of
    constants (a marker up after a pass is `True` whichever way it was built), so that
    two states with the same fields give the very same test term."""
    if not isinstance(x, z3.ExprRef):
        return z3.BoolVal(x) if isinstance(x, bool) else z3.IntVal(x)
    return x if z3.is_const(x) else z3.simplify(x)


# -- the model --------------------------------------------------------------------------


class Model:
    """The legal actions and effects of one rule set (its option values: a Ruleset), for
    `players` seats on the rule set's set, or with `max_pip` on a double-`max_pip` set (a
    small game: every other option as the rule set says), `hand` tiles each."""

    def __init__(self, ruleset: Mapping[str, str], players: int, hand: int | None = None,
                 round_no: int = 1, max_pip: int | None = None,
                 engine: int | None = None, lead: int | None = None) -> None:
        self.values = {k: ruleset[k] for k in ruleset}
        self.P = players
        self.N = highest(self.values["tile_set"]) if max_pip is None else max_pip
        self.hand = hand
        self.round = round_no
        # the round's first seat: SEAT-3's (round - 1) mod players, where the searches
        # begin; under SEAT-5 the draw's (steps.draw_lead), given as `lead`
        self.lead = (round_no - 1) % players if lead is None else lead
        # ENG-1; ENG-7: the deal picked `engine`, whatever the round
        self.e = engines(self.N)[round_no - 1] if engine is None else engine
        self.E = T.DOUBLE[self.e]
        self.tiles = T.tiles_of(T.set_mask(self.N))
        self.trains = list(range(players + 1))
        self.mex = players
        self._opts: dict[Any, L.Opts] = {}
        self._start_tests: dict[int, tuple[Sym, Expr]] = {}
        self.start_atoms: dict[int, Expr] = {}
        """Every `can_play_start` term on z3 states, by z3 id (spec/proofs/assumptions.py
        reads the END-2 lemmas over them as free Booleans)."""
        assert self.tiles == list(range(len(self.tiles))), "slot i is tile i"
        self.bearing = {n: [t for t in self.tiles if n in (T.HIGH[t], T.LOW[t])]
                        for n in range(self.N + 1)}

    def is_(self, option: str, *values: str) -> bool:
        """The rule set gives `option` one of `values`."""
        return self.values[option] in values

    # variables

    def state(self, tag: str) -> Sym:
        P, trains = self.P, self.trains
        return Sym(
            loc=[z3.Int(f"{tag}.loc.{T.name(t)}") for t in self.tiles],
            end=[z3.Int(f"{tag}.end.{k}") for k in trains],
            started=[z3.Bool(f"{tag}.started.{k}") for k in trains],
            odbl=[z3.Bool(f"{tag}.odbl.{k}") for k in trains],
            tdbl=[z3.Bool(f"{tag}.tdbl.{k}") for k in trains],
            age=[z3.Int(f"{tag}.age.{k}") for k in trains],
            clock=z3.Int(f"{tag}.clock"),
            marker=[z3.Bool(f"{tag}.marker.{q}") for q in range(P)],
            first=[z3.Bool(f"{tag}.first.{q}") for q in range(P)],
            seat=z3.Int(f"{tag}.seat"), starter=z3.Int(f"{tag}.starter"),
            phase=z3.Int(f"{tag}.phase"), drawn=z3.Int(f"{tag}.drawn"),
            passes=z3.Int(f"{tag}.passes"), res=z3.Int(f"{tag}.res"), tag=tag)

    # where tiles are

    def in_hand(self, s: Sym, q: Expr, t: int) -> Expr:
        if isinstance(q, int):
            return self.held(s, q, t)
        return s.loc[t] == q

    @cached
    def held(self, s: Sym, q: int, t: int) -> Expr:
        return s.loc[t] == q

    @cached
    def away(self, s: Sym) -> list[Expr]:
        """For each tile: it is not in the mover's hand."""
        return [x != s.seat for x in s.loc]

    @cached
    def bone(self, s: Sym, t: int) -> Expr:
        return s.loc[t] == self.P

    @cached
    def table(self, s: Sym, t: int) -> Expr:
        return s.loc[t] == self.P + 1

    @cached
    def boneyard(self, s: Sym) -> Expr:
        return count([self.bone(s, t) for t in self.tiles])

    @cached
    def in_hands(self, s: Sym) -> Expr:
        return count([s.loc[t] < self.P for t in self.tiles])

    @cached
    def ends_in(self, s: Sym, k: int, n: int) -> Expr:
        return s.end[k] == n

    @cached
    def fits(self, s: Sym, t: int, k: int) -> Expr:
        hi, lo = T.HIGH[t], T.LOW[t]
        if hi == lo:
            return self.ends_in(s, k, hi)
        return Or(self.ends_in(s, k, hi), self.ends_in(s, k, lo))

    def far(self, s: Sym, t: int, k: int) -> Expr:
        hi, lo = T.HIGH[t], T.LOW[t]
        return K(s, hi) if hi == lo else If(s.end[k] == hi, lo, hi)

    @cached
    def live(self, s: Sym, k: int) -> Expr:
        """Some tile bearing the train's end number is off the table (engine `live`)."""
        return Or(*[And(self.ends_in(s, k, n), Or(*[Not(self.table(s, t)) for t in ts]))
                       for n, ts in self.bearing.items()])

    # where a player may play: spec/model/legality.py's clauses, read on this state

    def opts(self, release: bool | None = None) -> L.Opts:
        """The rule set's option values (`release` False: as if under stays-open)."""
        key = ("opts", release)
        if key not in self._opts:
            values = dict(self.values)
            if release is not None:
                values["uncoverable_double"] = "released" if release else "stays-open"
            self._opts[key] = L.Opts(values=values)
        return self._opts[key]

    def lview(self, s: Sym, seat: int | None = None) -> L.View:
        """The state as spec/model/legality.py sees a decision: a hand slot per tile of the set
        (slot i is tile i, present while the mover holds it), the trains, the turn.

        With `seat`: the start of a turn of that seat's own (nothing drawn, phase start)."""
        key = ("lview", seat)
        if key in s.memo:
            return s.memo[key]  # type: ignore[no-any-return]
        P = self.P
        mover: Expr = s.seat if seat is None else K(s, seat)
        hand = [L.Slot(s.loc[t] == mover if seat is None else self.held(s, seat, t),
                       T.HIGH[t], T.LOW[t]) for t in self.tiles]
        trains = []
        for k in self.trains:
            dead = Not(self.live(s, k))
            trains.append(L.Train(
                index=L.MEX if k == self.mex else k, exists=True,
                empty=Not(s.started[k]), end=s.end[k],
                marked=s.marker[k] if k < P else False, dbl=s.odbl[k], order=s.age[k],
                turn=s.tdbl[k], ex_lo=dead, ex_hi=dead,
                # the model plays its own small set whatever the rule set's: a number is
                # used up when its tiles of that set are, whichever set the options name
                split=T.MAX_PIP, wide=T.MAX_PIP))
        view = L.View(
            players=P, seat=s.seat if seat is None else seat, starter=s.starter,
            phase=s.phase - 1 if seat is None else L.START,  # legality has no engine phase
            first_pending=at(s.first, s.seat) if seat is None else s.first[seat],
            firsts_left=Or(*s.first), bone_empty=self.boneyard(s) == 0,
            drawn=s.drawn if seat is None else L.NO_SLOT, hand=hand, trains=trains)
        s.memo[key] = view
        return view

    @cached
    def due(self, s: Sym, k: int, release: bool | None = None) -> Expr:
        """Train k ends in an open double that obliges the player to move (DBL-6, FIRST-5,
        DBL-9), before DBL-7."""
        v = self.lview(s)
        return L.binding(v, v.trains[k], self.opts(release))

    @cached
    def duty(self, s: Sym, k: int) -> Expr:
        v = self.lview(s)
        return L.to_cover(v, v.trains[k], self.opts())  # DBL-7, DBL-8

    @cached
    def has_duty(self, s: Sym) -> Expr:
        return L.duty(self.lview(s), self.opts())

    def legal(self, s: Sym) -> L.Legal:
        key = ("legal",)
        if key not in s.memo:
            s.memo[key] = L.legal(self.lview(s), self.opts())
        lg: L.Legal = s.memo[key]
        return lg

    @cached
    def can_play(self, s: Sym, t: int, k: int) -> Expr:
        """`play t on k` is legal (phase aside): TRAIN-2, TURN-3 and where the tile may go."""
        return self.legal(s).plays[self.tiles.index(t)][k]

    @cached
    def found(self, s: Sym) -> Expr:
        return self.legal(s).any_play

    @cached
    def can_play_start(self, s: Sym, q: int) -> Expr:
        """Seat q could play at the start of a turn of its own in this state.

        On z3 terms the test is built once per seat, on a state of its own variables, and
        each state's test is that one with the state's fields put in (z3.substitute): the
        same term as building it anew (z3 shares equal terms), in a fraction of the time;
        the END-2 tests read it on up to 2P*P states."""
        if not isinstance(s.seat, z3.ExprRef):
            return L.legal(self.lview(s, q), self.opts(), ignore_drawn=True).any_play
        if q not in self._start_tests:
            tpl = self.state(f"start{q}")
            test = L.legal(self.lview(tpl, q), self.opts(), ignore_drawn=True).any_play
            unread = [(a, z3.FreshConst(a.sort())) for n, a in tpl.fields()
                      if n.split("[")[0] not in START_READS]
            assert isinstance(test, bool) or z3.substitute(test, *unread).eq(test), \
                "the start test reads a field outside START_READS"
            self._start_tests[q] = (tpl, test)
        tpl, test = self._start_tests[q]
        if s is tpl or isinstance(test, bool):
            return test
        pairs = [(a, _small(b)) for (n, a), (_, b) in zip(tpl.fields(), s.fields(), strict=True)
                 if a is not b and n.split("[")[0] in START_READS]
        out = z3.substitute(test, *pairs)
        self.start_atoms.setdefault(out.get_id(), out)
        return out

    @cached
    def productive(self, s: Sym, q: int) -> Expr:
        return Or(s.first[q], Not(s.marker[q]), self.can_play_start(s, q))

    # the legal actions (engine: legal_actions)

    @cached
    def first_start(self, s: Sym) -> Expr:
        if not self.is_("first_turn", "chain", "chain-anywhere", "chain-no-double-end"):
            return K(s, False)
        return And(s.phase == START, at(s.first, s.seat))

    def turn_phase(self, s: Sym) -> Expr:
        return Or(s.phase == START, s.phase == FOLLOW)

    # effects (engine: perform, _play, _draw, _end_turn, _check_blocked, _finish)

    def next_seat(self, seat: Expr) -> Expr:
        return If(seat >= self.P - 1, 0, seat + 1)

    def finish(self, s: Sym, how: int) -> Sym:
        return s.replace(phase=K(s, OVER), res=K(s, how), drawn=K(s, -1),
                         tdbl=[K(s, False)] * len(self.trains))

    @cached
    def blocked(self, s: Sym) -> Expr:
        """END-2/END-3 at the start of a turn (spec/model/decisions.py's test on s)."""
        empty = self.boneyard(s) == 0
        if self.is_("blocked_round", "full-round-of-passes"):
            return And(empty, s.passes >= self.P)  # END-3
        # (on plain values each part is built only when it can decide: And, Or are eager)
        if empty is False:
            return False
        return And(empty, D.nobody_can_ever_play(  # END-2
            self.plays_after(s), s.seat, seats_to_move(s, self.P), self.P, Or(*s.first),
            AsBuilt))

    def plays_after(self, s: Sym) -> D.Plays:
        """decisions.Plays on s: seat q could play at the start of its turn once the seats
        `passed` have passed in turn."""
        def plays(q: int, passed: tuple[int, ...]) -> Expr:
            return self.can_play_start(self.after_passes(s, passed), q)
        return plays

    def after_passes(self, s: Sym, seats: Iterable[int]) -> Sym:
        """s after `seats` passed in turn: their markers up, their first turns over (s
        itself for none; each set of seats one state, kept on s)."""
        seats = frozenset(seats)
        if not seats:
            return s
        key = ("after_passes", seats)
        if key not in s.memo:
            s.memo[key] = s.replace(marker=[Or(s.marker[q], K(s, q in seats))
                                            for q in range(self.P)],
                                    first=[And(s.first[q], K(s, q not in seats))
                                           for q in range(self.P)])
        return s.memo[key]  # type: ignore[no-any-return]

    def check_blocked(self, s: Sym, target: Sym | None = None) -> Sym:
        """END-2/END-3 at the end of a turn (s has no turn doubles and no drawn tile).

        With a `target` (the variables the result is equated to), the test is read on the
        target instead of on `s`: both agree on every field the test reads, and the target's
        test is built once for all actions instead of once per action.
        """
        if target is None:
            return select(self.blocked(s), self.finish(s, BLOCKED), s)
        flag = self.blocked(self.view(target))
        return s.replace(phase=If(flag, OVER, START), res=If(flag, BLOCKED, RUNNING))

    def blocked_as(self, target: Sym, flag: Expr) -> None:
        """Take `flag` as the END-2/END-3 test of `target`: the effects built with this
        target then hold for either outcome of the test (spec/proofs/assumptions.py proves what
        the test itself implies apart)."""
        self.view(target).memo[("blocked",)] = flag

    def view(self, target: Sym) -> Sym:
        """The target as the blocked test sees it: after a turn, no double of this turn."""
        key = ("view",)
        if key not in target.memo:
            target.memo[key] = target.replace(tdbl=[K(target, False)] * len(self.trains))
        return target.memo[key]  # type: ignore[no-any-return]

    def end_turn(self, s: Sym, target: Sym | None = None) -> Sym:
        b = s.replace(
            tdbl=[K(s, False)] * len(self.trains), drawn=K(s, -1),
            first=[And(s.first[q], s.seat != q) for q in range(self.P)],  # FIRST-6
            seat=self.next_seat(s.seat), phase=K(s, START))
        return self.check_blocked(b, target)

    def play(self, s: Sym, t: int, k: int, target: Sym | None = None) -> Sym:
        P = self.P
        # DBL-1: a double opens, and asks for another tile; DBL-11: under ordinary doubles
        # it is one more tile, which opens nothing and ends the turn
        double = T.IS_DOUBLE[t] and self.is_("doubles", "open")
        loc = list(s.loc)
        loc[t] = K(s, P + 1)
        end, started = list(s.end), list(s.started)
        end[k] = self.far(s, t, k)  # TRAIN-2
        started[k] = K(s, True)
        marker = list(s.marker)
        if self.is_("marker_removal", "owner-plays-own"):
            if k < P:
                marker[k] = And(s.marker[k], s.seat != k)  # MARK-3
        elif self.is_("marker_removal", "anyone-plays-on"):
            if k < P:
                marker[k] = K(s, False)  # MARK-4
        else:
            assert self.is_("marker_removal", "owner-plays-anywhere")
            marker = [And(s.marker[q], s.seat != q) for q in range(P)]  # MARK-5
        odbl, tdbl, age = list(s.odbl), list(s.tdbl), list(s.age)
        odbl[k] = K(s, double)  # TRAIN-3: covered; or a new open double
        tdbl[k] = K(s, double)
        if double:
            age[k] = s.clock
        m = s.replace(loc=loc, end=end, started=started, marker=marker, odbl=odbl,
                      tdbl=tdbl, age=age, clock=s.clock + 1 if double else s.clock,
                      drawn=K(s, -1), passes=K(s, 0))
        out = And(*[a for u, a in enumerate(self.away(s)) if u != t])  # the hand is empty
        # FIRST-1, FIRST-11, FIRST-12
        chains = self.is_("first_turn", "chain", "chain-anywhere", "chain-no-double-end")
        chain = Or(s.phase == CHAIN, self.first_start(s)) if chains else K(s, False)
        rest = m.replace(phase=K(s, CHAIN))
        if not double:
            rest = select(chain, rest, self.end_turn(m, target))
        else:
            rest = select(chain, rest, m.replace(phase=K(s, FOLLOW)))  # DBL-1
        return select(out, self.finish(m, DOMINO), rest)  # END-1

    def draw(self, s: Sym, t: int) -> Sym:
        """Draw tile t (any tile of the boneyard: its order is not modelled)."""
        P = self.P
        loc = list(s.loc)
        loc[t] = s.seat
        normal = s.replace(loc=loc, drawn=K(s, t))  # TURN-3
        if self.is_("engine_procedure", "set-aside"):
            return normal
        kept = s.replace(loc=loc, seat=self.next_seat(s.seat))  # ENG-4: the drawer keeps it
        if self.is_("engine_procedure", "everyone-draws"):
            # ENG-6: at the lap's end (back at its first seat, or no tile left) it is placed
            lead, holder = K(s, self.lead), s.seat if t == self.E else s.loc[self.E]
            over = Or(self.next_seat(s.seat) == lead, self.boneyard(s) == 1)
            found = And(over, True if t == self.E else s.loc[self.E] < P)
            return select(s.phase == ENGINE, select(found, self.placed(s, loc, holder), kept),
                          normal)
        if t == self.E:
            return select(s.phase == ENGINE, self.placed(s, s.loc, s.seat), normal)
        return select(s.phase == ENGINE, kept, normal)

    def placed(self, s: Sym, loc: Sequence[Expr], holder: Expr) -> Sym:
        """The engine, held by `holder` (drawn in the search), placed in the centre."""
        loc2 = list(loc)
        loc2[self.E] = K(s, self.P + 1)
        first = (holder if self.is_("starting_seat", "engine-holder")  # SEAT-2
                 else self.next_seat(holder) if self.is_("starting_seat", "after-engine")
                 else K(s, self.lead))  # SEAT-4, SEAT-3, SEAT-5
        return s.replace(loc=loc2, seat=first, starter=first, phase=K(s, START))

    def pass_(self, s: Sym, target: Sym | None = None) -> Sym:
        marker = [Or(s.marker[q], s.seat == q) for q in range(self.P)]  # TURN-4, MARK-1
        passes = s.passes + If(self.boneyard(s) == 0, 1, 0)
        return self.end_turn(s.replace(marker=marker, passes=passes), target)

    # the transition relation, as (name, guard, next state) for every action

    def shape(self, s: Sym, kind: str, tile: int = -1) -> Expr:
        """What an action's guard says whatever the clauses answer: its phases, and where
        its tile is (a play: in the mover's hand; a draw: in the boneyard)."""
        if kind == "play":  # TURN-7: a tile of the mover's own hand, on the mover's turn
            return And(Or(s.phase == START, s.phase == CHAIN, s.phase == FOLLOW),
                       s.loc[tile] == s.seat)
        if kind == "draw":  # TURN-2, ENG-4: from the boneyard, on a turn or for the engine
            return And(Or(s.phase == ENGINE, self.turn_phase(s)), self.bone(s, tile))
        if kind == "pass":  # TURN-4: a pass ends a turn, never a chain (FIRST-1)
            return self.turn_phase(s)
        return s.phase == CHAIN  # FIRST-1: a chain's end

    def guard(self, s: Sym, kind: str, tile: int = -1, train: int = -1) -> Expr:
        """When one action is enabled (a draw: of that boneyard tile): its shape and what
        spec/model/legality.py's clauses answer (they read the phases start, chain and follow)."""
        shape = self.shape(s, kind, tile)
        if kind == "play":
            return And(shape, self.can_play(s, tile, train))
        lg = self.legal(s)
        if kind == "draw":  # ENG-4: while the engine is sought, anyone draws; TURN-2, -5
            return And(shape, Or(s.phase == ENGINE, lg.draw))
        return And(shape, lg.pass_ if kind == "pass" else lg.end_chain)

    @cached
    def guards(self, s: Sym) -> list[tuple[str, str, Expr]]:
        """(kind, label, guard) for every action of the abstract model."""
        out: list[tuple[str, str, Expr]] = []
        for t in self.tiles:
            for k in self.trains:
                label = f"play {T.name(t)} on {'mexican' if k == self.mex else k}"
                out.append(("play", label, self.guard(s, "play", t, k)))
        out += [("draw", f"draw {T.name(t)}", self.guard(s, "draw", t)) for t in self.tiles]
        out.append(("pass", "pass", self.guard(s, "pass")))
        if self.is_("first_turn", "chain", "chain-anywhere", "chain-no-double-end"):
            out.append(("end-chain", "end-chain", self.guard(s, "end-chain")))
        return out

    def effect(self, s: Sym, kind: str, tile: int = -1, train: int = -1,
               target: Sym | None = None) -> Sym:
        """The successor of one action (`actions` lists them all; the engine comparison
        builds only the ones the engine takes); see check_blocked for `target`."""
        key = ("effect", kind, tile, train, target.tag if target is not None else None)
        if key not in s.memo:
            if kind == "play":
                s.memo[key] = self.play(s, tile, train, target)
            elif kind == "draw":
                s.memo[key] = self.draw(s, tile)
            elif kind == "pass":
                s.memo[key] = self.pass_(s, target)
            else:
                assert kind == "end-chain", kind
                s.memo[key] = self.end_turn(s, target)
        return s.memo[key]  # type: ignore[no-any-return]

    def actions(self, s: Sym, target: Sym | None = None) -> list[tuple[str, str, Expr, Sym]]:
        """(kind, label, guard, effect) for every action; see check_blocked for `target`."""
        key = ("actions", target.tag if target is not None else None)
        if key in s.memo:
            return s.memo[key]  # type: ignore[no-any-return]
        effects: list[Sym] = []
        for t in self.tiles:
            for k in self.trains:
                effects.append(self.effect(s, "play", t, k, target))
        effects += [self.effect(s, "draw", t) for t in self.tiles]
        effects.append(self.effect(s, "pass", target=target))
        if self.is_("first_turn", "chain", "chain-anywhere", "chain-no-double-end"):
            effects.append(self.effect(s, "end-chain", target=target))
        out = [(kind, label, g, nxt)
               for (kind, label, g), nxt in zip(self.guards(s), effects, strict=True)]
        s.memo[key] = out
        return out

    def transition(self, s: Sym, s2: Sym, kinds: Sequence[str] | None = None) -> Expr:
        return z3.Or([And(g, equal(s2, nxt)) for kind, _, g, nxt in self.actions(s, s2)
                      if kinds is None or kind in kinds])

    def enabled(self, s: Sym) -> Expr:
        return z3.Or([g for _, _, g in self.guards(s)])

    # deals and the invariant

    def fresh(self, dealt: Sequence[Expr]) -> tuple[Sym, Sym]:
        """The state of a deal that put each tile where `dealt` says (a seat, the boneyard;
        the table for a set-aside engine): (the engine placed, its holder starting under
        SEAT-2; players drawing for it, ENG-4). Plain places give plain states."""
        P = self.P
        plain = not any(isinstance(d, z3.ExprRef) for d in dealt)

        def c(v: int | bool) -> Expr:
            return v if plain else z3.BoolVal(v) if isinstance(v, bool) else z3.IntVal(v)

        rotate = c(self.lead)  # SEAT-3 (SEAT-5: the draw's seat)
        n = len(self.trains)
        base = Sym(
            loc=list(dealt), end=[c(self.e)] * n, started=[c(False)] * n,
            odbl=[c(False)] * n, tdbl=[c(False)] * n, age=[c(0)] * n, clock=c(0),
            marker=[c(False)] * P, first=[c(True)] * P, seat=rotate, starter=rotate,
            phase=c(START), drawn=c(-1), passes=c(0), res=c(RUNNING))
        loc = list(dealt)
        loc[self.E] = c(P + 1)  # ENG-2, ENG-3: in the centre
        placed = base.replace(loc=loc)
        if not self.is_("engine_procedure", "set-aside") and self.is_(
                "starting_seat", "engine-holder"):  # SEAT-2
            placed = placed.replace(seat=dealt[self.E], starter=dealt[self.E])
        elif self.is_("starting_seat", "after-engine"):  # SEAT-4
            after = self.next_seat(dealt[self.E])
            placed = placed.replace(seat=after, starter=after)
        elif self.is_("starting_seat", "heaviest-in-hand"):  # SEAT-6
            heavy = self.heaviest_holder(dealt, rotate)
            placed = placed.replace(seat=heavy, starter=heavy)
        return placed, base.replace(phase=c(ENGINE))

    def heaviest_holder(self, dealt: Sequence[Expr], default: Expr) -> Expr:
        """SEAT-6: the seat dealt the heaviest tile, the tiles taken from the heaviest down
        (pip total, then the higher end); `default` if no hand holds any."""
        order = sorted(self.tiles, key=lambda t: (T.HIGH[t] + T.LOW[t], T.HIGH[t]))
        seat = default
        for t in order:  # the lightest first, so the heaviest held is the outermost test
            seat = If(dealt[t] < self.P, dealt[t], seat)
        return seat

    def deal(self, dealt: Sequence[int]) -> Sym:
        """The state fresh from a deal, on plain values (`init` says it of z3 variables);
        under ENG-5 `dealt` places the holder's replacement in its hand already."""
        placed, searching = self.fresh(dealt)
        if not self.is_("engine_procedure", "set-aside") and dealt[self.E] == self.P:
            return searching  # ENG-4: nobody holds the engine
        return self.check_blocked(placed)

    def init(self, s: Sym, tag: str = "deal") -> Expr:
        """s is a state fresh from a deal with `self.hand` tiles per seat."""
        assert self.hand is not None, "a model of deals needs the hand size"
        P, h = self.P, self.hand
        dealt = [z3.Int(f"{tag}.{T.name(t)}") for t in self.tiles]
        placed, searching = self.fresh(dealt)
        others = [d for t, d in zip(self.tiles, dealt, strict=True) if t != self.E]
        cons = [z3.And(d >= 0, d <= P) for d in others]
        if self.is_("engine_procedure", "set-aside"):
            # ENG-2: the engine is set aside, hands from the rest
            cons += [count([d == q for d in others]) == h for q in range(P)]
            cons.append(dealt[self.E] == P + 1)
            return z3.And(*cons, equal(s, self.check_blocked(placed, s)))
        holder = dealt[self.E]
        cons.append(z3.And(holder >= 0, holder <= P))
        if self.is_("engine_procedure", "holder-lays-and-draws"):
            # ENG-5: the holder has drawn the boneyard's tile in the engine's place (the
            # places are those after it; a boneyard the deal emptied gives none)
            extra = 1 if len(self.tiles) > P * h else 0
            cons += [count([d == q for d in others]) == If(holder == q, h - 1 + extra, h)
                     for q in range(P)]
        else:
            cons += [count([d == q for d in dealt]) == h for q in range(P)]
        return z3.And(*cons, z3.If(holder == P, equal(s, searching),  # ENG-4
                                   equal(s, self.check_blocked(placed, s))))

    def domains(self, s: Sym) -> Expr:
        """The ranges of the variables (a part of the invariant)."""
        P = self.P
        return z3.And(*[z3.And(x >= 0, x <= P + 1) for x in s.loc],
                      s.seat >= 0, s.seat < P, s.drawn >= -1, s.drawn < len(self.tiles))

    def invariant(self, s: Sym) -> Expr:
        """Inv: what every reachable state satisfies (proved inductive, not assumed)."""
        P, trains = self.P, self.trains
        inv: list[Expr] = []
        inv += [z3.And(x >= 0, x <= P + 1) for x in s.loc]
        inv += [z3.And(x >= 0, x <= self.N) for x in s.end]
        inv += [s.seat >= 0, s.seat < P, s.starter >= 0, s.starter < P,
                s.phase >= ENGINE, s.phase <= OVER, s.drawn >= -1, s.drawn < len(self.tiles),
                s.passes >= 0, s.clock >= 0,
                (s.res == RUNNING) == (s.phase != OVER),
                z3.Or(s.res == RUNNING, s.res == DOMINO, s.res == BLOCKED)]
        # the engine: in the centre except while players draw for it (ENG-4)
        engine_phase, sought = s.phase == ENGINE, self.bone(s, self.E)
        if self.is_("engine_procedure", "everyone-draws"):  # ENG-6: kept to the lap's end
            sought = z3.Or(sought, z3.And(s.loc[self.E] < P, self.boneyard(s) > 0,
                                          s.seat != self.lead))
        inv.append(z3.If(engine_phase, sought, self.table(s, self.E)))
        if not self.is_("engine_procedure", "set-aside"):
            inv.append(z3.Implies(engine_phase, z3.And(
                *[z3.Not(self.table(s, t)) for t in self.tiles],
                *[z3.Not(x) for x in s.started], *[z3.Not(x) for x in s.marker],
                *s.first, s.drawn == -1, s.passes == 0)))
        else:
            inv.append(z3.Not(engine_phase))
        for k in trains:
            inv.append(z3.Implies(z3.Not(s.started[k]),
                                  z3.And(s.end[k] == self.e, z3.Not(s.odbl[k]))))
            inv.append(z3.Implies(s.odbl[k], z3.And(
                s.started[k], s.age[k] >= 0, s.age[k] < s.clock,
                *[z3.Implies(s.end[k] == n, self.table(s, T.DOUBLE[n]))
                  for n in range(self.N + 1)])))
            inv.append(z3.Implies(s.tdbl[k], s.odbl[k]))
            for j in trains:
                if j < k:
                    inv.append(z3.Implies(z3.And(s.odbl[j], s.odbl[k]), s.age[j] != s.age[k]))
                if j != k:  # this turn's doubles were laid after every other open double
                    inv.append(z3.Implies(z3.And(s.tdbl[j], s.odbl[k], z3.Not(s.tdbl[k])),
                                          s.age[k] < s.age[j]))
        if self.is_("doubles", "ordinary"):  # DBL-11: no double is ever open
            inv += [z3.Not(x) for x in s.odbl]
            inv.append(s.phase != FOLLOW)
        mid_turn = z3.Or(s.phase == FOLLOW, s.phase == CHAIN)
        inv.append(z3.Implies(z3.Not(mid_turn), z3.Not(z3.Or(s.tdbl))))
        inv.append(z3.Implies(s.phase == FOLLOW, z3.Or(s.tdbl)))
        inv.append(z3.Implies(s.drawn >= 0, self.turn_phase(s)))
        inv += [z3.Implies(s.drawn == t, s.loc[t] == s.seat) for t in self.tiles]
        if self.is_("first_turn", "chain", "chain-anywhere", "chain-no-double-end"):
            inv.append(z3.Implies(s.phase == CHAIN, at(s.first, s.seat)))
        else:
            inv.append(s.phase != CHAIN)
        inv.append(z3.Implies(s.passes > 0, self.boneyard(s) == 0))
        if self.is_("blocked_round", "full-round-of-passes"):
            inv.append(z3.Implies(s.phase != OVER, s.passes < P))  # END-3
        else:
            inv.append(z3.Implies(  # END-2: somebody can still make progress
                z3.And(s.phase == START, self.boneyard(s) == 0, s.drawn == -1),
                z3.Or([self.productive(s, q) for q in range(P)])))
        return z3.And(inv)

    # properties

    @cached
    def stuck(self, s: Sym) -> Expr:
        """A binding duty on an open double that no tile can cover (DBL-10)."""
        return z3.And(s.phase != OVER, z3.Or(
            [z3.And(self.duty(s, k), z3.Not(self.live(s, k))) for k in self.trains]))

    @cached
    def released(self, s: Sym) -> Expr:
        """An open double of an earlier turn, after the first turns, that no tile can cover."""
        parts = [z3.And(s.odbl[k], z3.Not(s.tdbl[k]), z3.Not(self.live(s, k)))
                 for k in self.trains]
        cond = [s.phase == START, z3.Or(parts)]
        if self.is_("first_turn", "chain", "chain-anywhere", "chain-no-double-end"):
            cond.append(z3.Not(z3.Or(s.first)))
        return z3.And(cond)

    @cached
    def table_count(self, s: Sym) -> Expr:
        return count([self.table(s, t) for t in self.tiles])

    # reading a model back

    def value(self, m: Any, e: Expr) -> int | bool:
        if not isinstance(e, z3.ExprRef):  # a constant the effect wrote as a plain value
            return e  # type: ignore[no-any-return]
        v = m.eval(e, model_completion=True)
        return bool(z3.is_true(v)) if z3.is_bool(v) else int(v.as_long())

    def describe(self, m: Any, s: Sym) -> dict[str, Any]:
        P = self.P
        loc = [self.value(m, x) for x in s.loc]
        where: dict[str, list[str]] = {}
        for t, w in zip(self.tiles, loc, strict=True):
            key = f"hand {w}" if w < P else "boneyard" if w == P else "table"
            where.setdefault(key, []).append(T.name(t))
        trains = {}
        for k in self.trains:
            trains["mexican" if k == self.mex else str(k)] = {
                "end": self.value(m, s.end[k]), "started": self.value(m, s.started[k]),
                "open_double": self.value(m, s.odbl[k]), "this_turn": self.value(m, s.tdbl[k]),
                "age": self.value(m, s.age[k])}
        drawn = self.value(m, s.drawn)
        return {
            "phase": PHASE_NAMES[int(self.value(m, s.phase)) % 5],
            "seat": self.value(m, s.seat), "starter": self.value(m, s.starter),
            "tiles": where, "trains": trains,
            "marked": [q for q in range(P) if self.value(m, s.marker[q])],
            "first_turns": [q for q in range(P) if self.value(m, s.first[q])],
            "drawn": T.name(int(drawn)) if isinstance(drawn, int) and drawn >= 0 else None,
            "passes": self.value(m, s.passes), "clock": self.value(m, s.clock),
            "result": ("running", "domino", "blocked")[int(self.value(m, s.res)) % 3]}

    def step_label(self, m: Any, s: Sym, s2: Sym) -> str:
        """Which action takes s to s2 in model m."""
        for _, label, guard, nxt in self.actions(s, s2):
            if self.value(m, z3.And(guard, equal(s2, nxt))):
                return label
        return "?"
