"""The abstract situation of spec/model/legality.py as z3 variables: `Symbolic`.

`Symbolic` builds a bounded situation out of z3 variables (its `View`), with what makes
it well formed (`structure`, `well_formed`) and a reading of a z3 model back into a
table (`decode`); the rule functions of legality.py, applied to its view, give z3
formulas (spec/distinguish/ asks z3 for situations where two rule sets disagree). Like
legality.py it is written from the clauses, never from the engine.

What makes an abstract situation well formed (`Symbolic.structure`, `.well_formed`): the
tiles are real and in one place each (the mover's hand holds distinct tiles, not the
engine, not a train's last double); an empty train's open end is the engine's number; an
open double is [n-n] with n not the engine's number, one per number, with its own place
in the order, and those laid this turn are the youngest; only phases chain and follow
have doubles of this turn, a follow-up has at least one, a chain only on the own train;
a rotating start puts the starter at seat (round - 1) mod players, the round read off
the engine; first turns go in seat order from the starter, and the seats still to take theirs have
laid nothing and passed never, while those done have laid something or passed; chain
first turns leave the Mexican Train empty and never draw; a drawn tile means nothing else
in hand was playable; a follow-up is never due while an older double binds; under
cover-own a turn holds one double; an exhausted number is in nobody's hand, and as many
trains end on it as the parity of the set needs (each train through a number uses two
of its tiles, a train ending there one). Every z3 term of a `Symbolic` lives in its own
z3 context, so that an answer never depends on the questions asked before it.
"""

from __future__ import annotations

from typing import Any

import z3

from mtrain.spec.model.legality import (
    CHAIN,
    FOLLOW,
    MEX,
    NO_SLOT,
    PHASE_NAMES,
    SPLIT,
    START,
    Opts,
    Slot,
    Train,
    View,
    duty,
    legal,
    own_chain,
)
from mtrain.spec.model.logic import (
    And,
    Bool,
    Count,
    If,
    Implies,
    Not,
    Or,
    as_term,
    model_value,
)


def _ending_counts(n_ending: Any, top: int) -> Any:
    """SET-1: a number is on top+1 tiles of a double-`top` set, top+2 ends (the double has
    two); a train passing through uses two, so the trains ending there have its parity."""
    return Or(n_ending == 1, n_ending == 3) if top % 2 else Or(n_ending == 2, n_ending == 4)


class Symbolic:
    """A bounded abstract situation made of z3 variables, and what makes it well formed.

    Up to `max_players` players (2 to 4) and `slots` tiles in the mover's hand. Numbers
    range over 0..min(`max_number`, SPLIT), so that one table serves the rule sets of both
    sides; `max_number` is the highest number of the set the table is written in (the
    smaller set of the two), the bound of the tiles `ex_hi` speaks of.
    `well_formed(o)` is what a reachable table needs under the rule set `o`; both rule
    sets of a question must accept the situation.
    """

    def __init__(self, slots: int = 4, max_players: int = 3, prefix: str = "",
                 ctx: Any = None, max_number: int = SPLIT) -> None:
        p = prefix
        self.max_number = min(max_number, SPLIT)
        self.wide = max_number
        self.ctx = ctx if ctx is not None else z3.Context()
        """Every term of the situation lives here: a fresh context by default, so that
        what z3 answers does not depend on the questions asked before."""
        c = self.ctx
        self.slots = slots
        self.max_players = max_players
        self.engine = z3.Int(f"{p}engine", c)
        seat_trains = []
        players = z3.Int(f"{p}players", c)
        for i in range(max_players):
            seat_trains.append(self._train(p, i, exists=(players > i) if i >= 2 else True))
        trains = [*seat_trains, self._train(p, MEX, exists=True)]
        hand = [Slot(z3.Bool(f"{p}h{i}_present", c), z3.Int(f"{p}h{i}_a", c),
                     z3.Int(f"{p}h{i}_b", c)) for i in range(slots)]
        self.view = View(
            players=players, seat=z3.Int(f"{p}seat", c), starter=z3.Int(f"{p}starter", c),
            phase=z3.Int(f"{p}phase", c), first_pending=z3.Bool(f"{p}first_pending", c),
            firsts_left=z3.Bool(f"{p}firsts_left", c),
            bone_empty=z3.Bool(f"{p}bone_empty", c), drawn=z3.Int(f"{p}drawn", c),
            hand=hand, trains=trains)

    def _train(self, p: str, index: int, exists: Bool) -> Train:
        name = "m" if index == MEX else f"t{index}"
        c = self.ctx
        return Train(
            index=index, exists=exists, empty=z3.Bool(f"{p}{name}_empty", c),
            end=z3.Int(f"{p}{name}_end", c), marked=z3.Bool(f"{p}{name}_marked", c),
            dbl=z3.Bool(f"{p}{name}_dbl", c), order=z3.Int(f"{p}{name}_order", c),
            turn=z3.Bool(f"{p}{name}_turn", c), ex_lo=z3.Bool(f"{p}{name}_exlo", c),
            ex_hi=z3.Bool(f"{p}{name}_exhi", c), split=self.max_number, wide=self.wide)

    # -- what every situation must satisfy, whatever the rules ---------------------------

    def structure(self, wide_top: int | None) -> list[Any]:
        """Consistency of the situation itself: tiles, trains, turn; no rule set needed.

        `wide_top`: the highest number of the one set every rule set of the question
        plays, when it is above the situation's numbers; else None (the tiles above them
        cannot be written in the table, so `ex_hi` stays false).
        """
        v, e, top = self.view, self.engine, self.max_number
        c: list[Any] = [
            (Or(v.players == 2, v.players == 3) if self.max_players == 3
             else v.players == 2 if self.max_players <= 2
             else And(v.players >= 2, v.players <= self.max_players)),
            e >= 0, e <= top,
            v.seat >= 0, v.seat < v.players, v.starter >= 0, v.starter < v.players,
            v.phase >= START, v.phase <= FOLLOW,
            v.first_pending == v.firsts_left,  # first turns run in seat order
            v.drawn >= NO_SLOT, v.drawn < self.slots,
        ]
        for i, s in enumerate(v.hand):
            c += [s.a >= 0, s.a <= top, s.b >= 0, s.b <= s.a,
                  Not(And(s.a == e, s.b == e))]  # the engine is on the table
            if i > 0:
                c.append(Implies(s.present, v.hand[i - 1].present))
            c.append(Implies(v.drawn == i, s.present))
            for s2 in v.hand[:i]:
                c.append(Implies(And(s.present, s2.present),
                                    Or(s.a != s2.a, s.b != s2.b)))
            for t in v.trains:  # a train's last double is on the table
                c.append(Implies(And(s.present, t.exists, t.dbl),
                                    Not(And(s.a == t.end, s.b == t.end))))
        c.append(v.hand[0].present)  # a player without tiles has gone out
        for t in v.trains:
            c += [t.end >= 0, t.end <= top,
                  Implies(t.empty, And(t.end == e, Not(t.dbl))),
                  Implies(t.dbl, t.end != e),  # [e-e] is the engine
                  Implies(t.turn, t.dbl),
                  Implies(Not(t.dbl), t.order == 0),
                  t.order >= 0, t.order < len(v.trains),
                  Implies(Not(t.dbl), And(Not(t.ex_lo), Not(t.ex_hi))),
                  Implies(Not(as_term(t.exists, self.ctx)),
                             And(t.empty, Not(t.marked), Not(t.dbl)))]
            if t.is_mex:
                c.append(Not(t.marked))  # MARK-2
            if wide_top is None:
                c.append(Not(t.ex_hi))
            # every tile bearing the number is on the table: none in the mover's hand, and
            # the trains ending on it are as many as the parity of the set needs (each
            # train passing through a number uses two of its tiles, one ending there one).
            n_ending = Count(And(u.exists, Not(u.empty), u.end == t.end)
                             for u in v.trains)
            c.append(Implies(t.ex_lo, And(
                *(Implies(s.present, And(s.a != t.end, s.b != t.end)) for s in v.hand),
                If(t.ex_hi, _ending_counts(n_ending, wide_top or top),
                   _ending_counts(n_ending, top)))))
            c.append(Implies(t.ex_hi, t.ex_lo))
        for k, t in enumerate(v.trains):  # one [n-n] per number, one place in the order
            for u in v.trains[k + 1:]:
                c.append(Implies(And(t.dbl, u.dbl),
                                    And(t.end != u.end, t.order != u.order)))
        # at most one exhausted number, so that the table can be drawn
        c.append(Count(t.ex_lo for t in v.trains) <= 1)
        # the phase and what this turn has laid
        turn_any = Or(*(t.turn for t in v.trains))
        c += [
            Implies(v.phase == START, Not(turn_any)),
            Implies(v.phase == FOLLOW, turn_any),
            Implies(v.phase == CHAIN, And(v.first_pending, v.drawn == NO_SLOT)),
        ]
        for t in v.trains:
            for u in v.trains:
                if u is not t:  # this turn's doubles are younger than the others
                    c.append(Implies(And(t.turn, u.dbl, Not(u.turn)),
                                        t.order > u.order))
        return c

    def pending(self, j: int) -> Bool:
        """Seat j still has its first turn to take, the mover excluded (seat order)."""
        v = self.view
        cases = []
        for n in range(2, self.max_players + 1):
            for seat in range(n):
                for starter in range(n):
                    # seats seat+1 .. starter-1 come before the first turns end
                    if j != seat and (seat == starter
                                      or (j - seat) % n < (starter - seat) % n):
                        cases.append(And(v.players == n, v.seat == seat,
                                            v.starter == starter))
        return And(v.first_pending, Or(*cases)) if cases else z3.BoolVal(False, self.ctx)

    def well_formed(self, o: Opts) -> list[Any]:
        """What a table reachable under the rule set `o` needs, beyond `structure`."""
        v, ctx = self.view, self.ctx
        c: list[Any] = []
        chain = own_chain(o)  # FIRST-2: on the own train
        chains = o.is_("first_turn", "chain", "chain-anywhere", "chain-no-double-end")
        # SEAT-3: a rotating start begins round r at seat (r - 1) mod players; the round is
        # read from the engine (ENG-1) unless the deal picked the engine (ENG-7)
        top = o.top()
        by_round = Not(o.is_("engine_procedure", "highest-double-held", "designated-opens"))
        c.append(Implies(And(o.is_("starting_seat", "rotate"), by_round),
                         v.starter == (top - self.engine) % v.players))
        own_empty = v.own_field("empty")
        own_marked = v.own_field("marked")
        c.append(Implies(v.phase == CHAIN, chains))
        # a chain on the own train has laid a tile there (FIRST-11: on some train)
        c.append(Implies(And(v.phase == CHAIN, chain), Not(own_empty)))
        anywhere = o.is_("first_turn", "chain-anywhere")
        if anywhere is not False:  # (kept out of the other rule sets' questions)
            c.append(Implies(And(anywhere, v.phase == CHAIN),
                             Or(*(Not(t.empty) for t in v.trains))))
        # the mover's first turn: nothing of its own laid yet, no marker (it never passed)
        c.append(Implies(And(v.first_pending, v.phase == START),
                            And(own_empty, Not(own_marked))))
        c.append(Implies(v.first_pending, Not(own_marked)))
        for t in v.trains:
            # in a chain on the own train, this turn's double is there, and only there
            c.append(Implies(And(v.phase == CHAIN, chain, t.turn), v.own(t)))
            if not t.is_mex:
                # seats still to take their first turn have laid nothing, passed never
                c.append(Implies(self.pending(t.index),
                                    And(t.empty, Not(t.marked))))
            # chain first turns: nobody opens the Mexican Train or marks by playing elsewhere
            c.append(Implies(And(chain, v.first_pending),
                                And(*([t.empty] if t.is_mex else []),
                                       Implies(And(t.dbl, Not(v.own(t))),
                                                  Not(t.marked)))))
            # a double laid this turn went where the mover could lay it
            c.append(Implies(t.turn, Or(
                v.own(t), t.is_mex, t.marked, o.is_("marker_removal", "anyone-plays-on"))))
        # a seat that has had its first turn laid something (a chain on its own train, or
        # one tile anywhere) or passed with its marker up
        mex = v.trains[-1]
        seat_trains = [t for t in v.trains if not t.is_mex]
        for t in seat_trains:
            done = And(as_term(t.exists, ctx), Not(self.pending(t.index)),
                          Not(And(v.first_pending, as_term(v.own(t), ctx))))
            played = Or(Not(t.empty), t.marked,
                           as_term(o.is_("marker_removal", "owner-plays-anywhere"), ctx))
            anywhere = Or(Not(t.empty), t.marked, Not(mex.empty),
                             *(Not(u.empty) for u in seat_trains if u is not t))
            c.append(Implies(done, If(as_term(chain, ctx), played, anywhere)))
        # FIRST-10: whoever opened the Mexican Train had started their own train
        opener = o.is_("mexican_first_turn", "own-train-started")
        if opener is not False:  # (kept out of the other rule sets' questions)
            c.append(Implies(And(opener, Not(mex.empty)),
                             Or(*(Not(t.empty) for t in seat_trains))))
        # the starter's first turn has not begun: nothing is on the table yet
        c.append(Implies(And(v.first_pending, v.seat == v.starter, v.phase == START),
                            mex.empty))
        # a follow-up is due only when no earlier double binds (one would have been covered)
        c.append(Implies(v.phase == FOLLOW, Not(duty(v, o))))
        # cover-own: the follow-up covers, so a turn never holds two doubles
        c.append(Implies(o.is_("follow_up", "cover-own"),
                            Count(t.turn for t in v.trains) <= 1))
        # own train first: a double laid this turn started the own train
        c.append(Implies(And(o.is_("own_train_first", "required"), v.phase == FOLLOW),
                            Not(own_empty)))
        # the player drew because nothing else in hand could be played
        unlimited = legal(v, o, ignore_drawn=True)
        for i, row in enumerate(unlimited.plays):
            c.append(Implies(And(v.drawn != NO_SLOT, v.drawn != i),
                                Not(Or(*row)) if row else z3.BoolVal(True, ctx)))
        # chain first turns: a first turn never draws (FIRST-3)
        c.append(Implies(And(chains, v.first_pending), v.drawn == NO_SLOT))
        # FIRST-11: a first turn keeps phase chain, so no follow-up is due in it
        if anywhere is not False:
            c.append(Implies(And(anywhere, v.first_pending), v.phase != FOLLOW))
        # DBL-11: with ordinary doubles no double is ever open, and none asks for a tile
        ordinary = o.is_("doubles", "ordinary")
        if ordinary is not False:  # (kept out of the other rule sets' questions)
            c.append(Implies(ordinary, And(v.phase != FOLLOW,
                                           *(Not(t.dbl) for t in v.trains))))
        return c

    # -- reading a model -------------------------------------------------------------------

    def decode(self, model: Any) -> dict[str, Any]:
        """The abstract witness, as plain values."""
        v = self.view

        def val(x: Any) -> Any:
            return model_value(model, x)

        n = val(v.players)
        hand = [(val(s.a), val(s.b)) for s in v.hand if val(s.present)]
        trains = []
        for t in v.trains:
            if not val(t.exists):
                continue
            trains.append({
                "index": t.index, "empty": val(t.empty), "end": val(t.end),
                "marked": val(t.marked), "dbl": val(t.dbl), "order": val(t.order),
                "turn": val(t.turn), "ex_lo": val(t.ex_lo), "ex_hi": val(t.ex_hi)})
        return {
            "players": n, "engine": val(self.engine), "seat": val(v.seat),
            "starter": val(v.starter), "phase": PHASE_NAMES[val(v.phase)],
            "first_pending": val(v.first_pending), "bone_empty": val(v.bone_empty),
            "drawn": val(v.drawn), "hand": hand, "trains": trains,
        }
