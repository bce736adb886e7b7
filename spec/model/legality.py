"""The legality of one decision, written a second time, from the clauses, for z3.

This module restates which actions are legal in one situation, independently of the
reference engine: it was written from spec/data/clauses.yaml (and the fixtures written
from them), never from reference/engine.py. The same rule functions work on two kinds of
values:

* plain Python values (bools and ints), to evaluate a concrete table fast: `legal_actions`
  takes a canonical JSON state (docs/fixture-format.md, spec/schemas/state) and a rule
  set, and returns the exact set of legal actions;
* z3 terms, to ask questions about every situation at once: `Symbolic`
  (spec/model/symbolic.py) builds a bounded, abstract situation out of z3 variables, with
  its well-formedness constraints, and the same rules give z3 formulas
  (spec/distinguish/ asks z3 for situations where two rule sets disagree).

The connectives (`And`, `Or`, `Not`, `If`, ...) are spec/model/logic.py's folded ones: plain
values give plain values, any z3 term gives a z3 term, and constants fold away.

The abstract situation (`View`): the number of players, the seat to move, the starter,
the turn phase (start, chain, follow), whether the mover and anyone still has a first
turn to take, whether the boneyard is empty, the mover's hand (tile slots) and the slot
of the tile just drawn, and for each train: whether it exists, is empty, its open end,
its marker, whether it ends in an open double, that double's place in the order the
open doubles were laid, whether it was laid this turn, and whether every tile bearing its
number is on the table (`ex_lo`: the tiles whose other end is at most the train's `split`,
9 unless the situation's numbers stop lower; `ex_hi`: those above it, up to the set's
highest number, which only the sets larger than the split have).

Clause by clause (the text is the clause's, the formula is below):

* TRAIN-2 a tile fits a train when one of its ends equals the train's open end;
* TRAIN-4, MARK-2 own train, the Mexican Train, and marked trains are open to the mover;
* TRAIN-6 a tile that covers an open double may go on that train whoever owns it;
* TRAIN-7 until the mover's train is started, only the own train, except a cover that
  DBL-6 asks for (TRAIN-6: "the same holds under every rule set"; see regression-001);
* FIRST-1..3 a chain first turn: own train only, any length, end-chain at will except
  while FIRST-4 asks to cover a chain double; no draw, a pass when it cannot start;
* FIRST-11 a chain first turn anywhere: each tile on any train the mover may use (as in
  an ordinary turn, TRAIN-6 included), end-chain at will except while a play would cover
  a double laid in the chain (FIRST-4);
* FIRST-5 during a chain start the open doubles oblige nobody until every first turn is
  over;
* FIRST-9 during the first turns only the starter may open an empty Mexican Train;
* FIRST-10 only a mover whose own train holds a tile may open an empty Mexican Train;
* DBL-6 an open double laid on an earlier turn (released ones aside) allows only covering
  plays, on its own train; DBL-7 the oldest first, DBL-8 any; DBL-9 a double is released
  once every tile of its number is on the table; DBL-12 every double once the boneyard is
  empty; DBL-10 otherwise it stays binding;
* DBL-2 follow-up anywhere the mover may play, covering a double included; DBL-3 only the
  first double of the turn, the Mexican Train, or a usable train not ending in an open
  double; DBL-4 only covering the double just laid;
* DBL-11 with ordinary doubles no double is open and none asks for a tile: a table under
  it has no open double and no follow-up (`Symbolic.well_formed`,
  spec/model/symbolic.py), so the rules above on open doubles never come into play;
* TURN-1 a player who can play must: draw and pass need no legal play; TURN-3 after a
  draw only the drawn tile may be laid; TURN-2 (draw one: an unplayable drawn tile means
  pass) against TURN-5 (draw again while the boneyard holds tiles); TURN-4 pass when the
  boneyard is empty;
* ENG-4, ENG-6 while the engine is searched for, the only action is to draw.

The abstract situation as z3 variables, and what makes it well formed, are
spec/model/symbolic.py's (`Symbolic`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Concatenate, Final, ParamSpec, TypeVar

from mtrain.spec import tiles as T
from mtrain.spec.model.logic import (
    And,
    Bool,
    Count,
    If,
    Implies,
    Int,
    Not,
    Or,
    Xor,
    as_term,
    model_value,
)
from mtrain.spec.tilesets import highest, highest_numbers

__all__ = [
    "CHAIN",
    "FOLLOW",
    "MEX",
    "MEXICAN",
    "NO_SLOT",
    "PHASE_NAMES",
    "START",
    "And",
    "Bool",
    "Count",
    "If",
    "Implies",
    "Int",
    "Legal",
    "Not",
    "Opts",
    "Or",
    "Slot",
    "Train",
    "View",
    "Xor",
    "action_text",
    "as_term",
    "duty",
    "legal",
    "legal_actions",
    "legal_table",
    "model_value",
    "turn_actions",
    "view_of_state",
]

START: Final = 0
CHAIN: Final = 1
FOLLOW: Final = 2
PHASE_NAMES: Final = ("start", "chain", "follow")
SPLIT: Final = 9
"""Where `ex_lo` ends and `ex_hi` begins, and the numbers of a symbolic situation: 0..9,
so that one abstract table serves a double-9 set and every larger one."""
MEX: Final = -1
"""The index of the Mexican Train among a View's trains (seat trains use the seat)."""
NO_SLOT: Final = -1
MEXICAN: Final = "mexican"
P = ParamSpec("P")
R = TypeVar("R")

# -- option values ----------------------------------------------------------------------


class Opts:
    """A rule set's option values: plain strings, or z3 integers over each option's values.

    Symbolic options number each option's values in the order of spec/data/options.yaml,
    as spec/optionspace/features.py does.
    """

    def __init__(self, values: Mapping[str, str] | None = None,
                 var: Mapping[str, Any] | None = None,
                 domain: Mapping[str, Sequence[str]] | None = None) -> None:
        if (values is None) == (var is None):
            raise ValueError("give plain values or z3 variables, not both")
        self.values = dict(values) if values is not None else None
        self.var = dict(var) if var is not None else None
        self.domain = {o: tuple(vs) for o, vs in (domain or {}).items()}

    def top_at_most(self, n: int) -> Bool:
        """SET-1: the rule set's tile set has no number above `n`."""
        return self.is_("tile_set", *(v for v, top in highest_numbers().items() if top <= n))

    def top(self) -> Int:
        """The highest number of the rule set's tile set (ENG-1's N)."""
        sets = list(highest_numbers().items())
        value: Int = sets[-1][1]
        for v, top in reversed(sets[:-1]):
            value = If(self.is_("tile_set", v), top, value)
        return value

    def is_(self, option: str, *values: str) -> Bool:
        if self.values is not None:
            return self.values[option] in values
        assert self.var is not None
        dom = self.domain[option]
        for v in values:
            if v not in dom:
                raise KeyError(f"{option} has no value {v!r}")
        return Or(*(self.var[option] == dom.index(v) for v in values))


# -- the abstract situation -------------------------------------------------------------


@dataclass
class Train:
    index: int
    """The owner's seat, or MEX for the Mexican Train."""
    exists: Bool
    empty: Bool
    end: Int
    marked: Bool
    dbl: Bool
    """It ends in an open double."""
    order: Int
    """Among open doubles, the order they were laid in (smaller: older)."""
    turn: Bool
    """Its open double was laid during the current turn."""
    ex_lo: Bool
    """Every tile bearing its open end's number, with both ends at most `split`, is on the
    table."""
    ex_hi: Bool
    """Every tile bearing its number and one above `split`, up to `wide`, is on the table."""
    split: int = SPLIT
    wide: int = SPLIT
    """The highest number the table may hold (its set's): a larger set's tiles above it
    are never on the table, so they never let a number be exhausted."""

    @property
    def is_mex(self) -> bool:
        return self.index == MEX

    @property
    def name(self) -> str:
        return MEXICAN if self.is_mex else str(self.index)


@dataclass
class Slot:
    present: Bool
    a: Int
    b: Int
    """The tile's ends, high end first."""


@dataclass
class View:
    players: Int
    seat: Int
    starter: Int
    phase: Int
    first_pending: Bool
    """The mover has not finished its first turn of the round."""
    firsts_left: Bool
    """Some player has not finished its first turn (FIRST-5, FIRST-6)."""
    bone_empty: Bool
    drawn: Int
    """The slot of the tile just drawn, or NO_SLOT."""
    hand: list[Slot]
    trains: list[Train]
    """Seat trains by seat, then the Mexican Train last."""
    memo: dict[tuple[Any, ...], Any] = field(default_factory=dict, repr=False, compare=False)

    def own(self, t: Train) -> Bool:
        return False if t.is_mex else t.index == self.seat

    def own_field(self, name: str) -> Any:
        """A field of the mover's own train."""
        key = ("own_field", name)
        if key in self.memo:
            return self.memo[key]
        seats = [t for t in self.trains if not t.is_mex]
        value = getattr(seats[-1], name)
        for t in reversed(seats[:-1]):
            value = If(self.seat == t.index, getattr(t, name), value)
        self.memo[key] = value
        return value


# -- the rules ---------------------------------------------------------------------------


def _memo(fn: Callable[Concatenate[View, P], R]) -> Callable[Concatenate[View, P], R]:
    """Compute a rule once per view, rule set and train (z3 terms are costly to build)."""

    def wrapper(v: View, /, *args: P.args, **kwargs: P.kwargs) -> R:
        key = (fn, *[id(a) if isinstance(a, Train) else a for a in args])
        if kwargs:
            key += tuple(sorted(kwargs.items()))
        memo = v.memo
        if key in memo:
            found: R = memo[key]
            return found
        result = memo[key] = fn(v, *args, **kwargs)
        return result

    wrapper.__name__ = fn.__name__
    wrapper.__doc__ = fn.__doc__
    return wrapper


def exhausted(t: Train, o: Opts) -> Bool:
    """Every tile bearing the train's number is on the table (under the rule set's set)."""
    return And(t.ex_lo, Or(o.top_at_most(t.split), And(t.ex_hi, o.top_at_most(t.wide))))


def released(t: Train, o: Opts) -> Bool:
    """DBL-9: an open double whose number is all on the table closes nothing (DBL-10: never)."""
    return And(o.is_("uncoverable_double", "released"), exhausted(t, o))


def released_on_empty(v: View, o: Opts) -> Bool:
    """DBL-12: once the boneyard is empty no double of an earlier turn binds anyone."""
    return And(o.is_("uncoverable_double", "released-when-boneyard-empty"), v.bone_empty)


@_memo
def chain_turn(v: View, o: Opts) -> Bool:
    """FIRST-1, FIRST-11: this turn is a first-turn chain (on the own train, or anywhere)."""
    return And(o.is_("first_turn", "chain", "chain-anywhere", "chain-no-double-end"),
               v.first_pending)


def own_chain(o: Opts) -> Bool:
    """FIRST-2: a first-turn chain goes on the own train only (not under FIRST-11)."""
    return o.is_("first_turn", "chain", "chain-no-double-end")


def layers_turn_only(o: Opts) -> Bool:
    """DBL-13: a double binds only in its layer's turn."""
    return o.is_("uncoverable_double", "released-after-layers-turn")


def covering(v: View, t: Train, o: Opts) -> Bool:
    """TRAIN-6: train t ends in an open double, which may be covered wherever it lies; not
    one that binds nobody (DBL-12, DBL-13), whose train is open as in an ordinary turn."""
    return And(t.dbl, Or(t.turn, And(Not(released_on_empty(v, o)), Not(layers_turn_only(o)))))


@_memo
def binding(v: View, t: Train, o: Opts) -> Bool:
    """DBL-6: an open double from an earlier turn that obliges the mover.

    Not one released by DBL-9, none once the boneyard is empty under DBL-12, none under
    DBL-13, and none while chain first turns are still being taken (FIRST-5)."""
    return And(t.exists, t.dbl, Not(t.turn), Not(released(t, o)), Not(released_on_empty(v, o)),
               Not(layers_turn_only(o)),
               Not(And(o.is_("first_turn", "chain", "chain-anywhere", "chain-no-double-end"),
                       v.firsts_left)))


@_memo
def duty(v: View, o: Opts) -> Bool:
    return Or(*(binding(v, t, o) for t in v.trains))


@_memo
def to_cover(v: View, t: Train, o: Opts) -> Bool:
    """The binding doubles the mover may cover: the oldest (DBL-7) or any (DBL-8)."""
    b = binding(v, t, o)
    oldest = And(b, *(Implies(binding(v, u, o), u.order > t.order)
                      for u in v.trains if u is not t))
    return Or(And(o.is_("double_order", "oldest-first"), oldest),
              And(o.is_("double_order", "any-open"), b))


@_memo
def allowed(v: View, t: Train, o: Opts) -> Bool:
    """Limits on every play but a cover that DBL-6 asks for: TRAIN-1, FIRST-2, TRAIN-7,
    FIRST-9, FIRST-10."""
    return And(
        t.exists,
        Implies(And(own_chain(o), v.first_pending), v.own(t)),
        Implies(And(o.is_("own_train_first", "required"), v.own_field("empty")), v.own(t)),
        Not(And(t.is_mex, t.empty, o.is_("mexican_first_turn", "starter-only"),
                v.first_pending, v.seat != v.starter)),
        Not(And(t.is_mex, t.empty, o.is_("mexican_first_turn", "own-train-started"),
                v.own_field("empty"))),
    )


def open_to(v: View, t: Train) -> Bool:
    """TRAIN-4 and MARK-2: own train, the Mexican Train, a marked train."""
    return Or(v.own(t), t.is_mex, t.marked)


@_memo
def _turn_double(v: View, t: Train, first: bool) -> Bool:
    """The first (or the last) double laid this turn."""
    mine = And(t.dbl, t.turn)
    others = [Implies(And(u.dbl, u.turn), (u.order > t.order) if first else (u.order < t.order))
              for u in v.trains if u is not t]
    return And(mine, *others)


@_memo
def candidate(v: View, t: Train, o: Opts) -> Bool:
    """The mover may lay a fitting tile on train t (before TURN-3's limit)."""
    ok = allowed(v, t, o)
    normal = And(ok, Or(open_to(v, t), covering(v, t, o)))  # TRAIN-4, TRAIN-6, DBL-12
    follow = Or(
        And(o.is_("follow_up", "anywhere"), normal),  # DBL-2
        And(o.is_("follow_up", "restricted"), ok,  # DBL-3
            Or(_turn_double(v, t, first=True), t.is_mex, And(open_to(v, t), Not(t.dbl)))),
        And(o.is_("follow_up", "cover-own"), ok, _turn_double(v, t, first=False)),  # DBL-4
    )
    duty_now = duty(v, o)
    # FIRST-1, FIRST-2, FIRST-4: a chain on the own train; FIRST-11: anywhere, as `normal`
    chain = If(own_chain(o), And(ok, v.own(t)), normal)
    return If(v.phase == CHAIN, chain,
              # DBL-6, DBL-7, DBL-8; TRAIN-6: a cover goes wherever the double lies, "under
              # every rule set", so TRAIN-7 does not hold it back (regression-001)
              If(duty_now, And(t.exists, to_cover(v, t, o)),
                 If(v.phase == FOLLOW, follow, normal)))


def stranded(v: View, o: Opts, i: int) -> Bool:
    """FIRST-12: in a chain that may not end on a double, slot i holds a double that no
    other tile in hand bears the number of, and it is not the last tile."""
    s = v.hand[i]
    # DBL-11: with ordinary doubles a chain may end on a double (FIRST-12 does not apply)
    when = (o.is_("first_turn", "chain-no-double-end"), o.is_("doubles", "open"),
            v.phase == CHAIN, s.a == s.b)
    if And(*when) is False:  # on plain values, mostly: the hand need not be read
        return False
    others = [u for k, u in enumerate(v.hand) if k != i]
    follows = Or(*(And(u.present, Or(u.a == s.a, u.b == s.a)) for u in others))
    last = And(*(Not(u.present) for u in others))
    return And(*when, Not(follows), Not(last))


def fits(s: Slot, t: Train) -> Bool:
    """TRAIN-2."""
    return Or(s.a == t.end, s.b == t.end)


@dataclass
class Legal:
    """The legal actions of one situation: plays[i][j] is slot i on v.trains[j]."""

    plays: list[list[Bool]]
    draw: Bool
    pass_: Bool
    end_chain: Bool
    any_play: Bool
    extra: dict[str, Bool] = field(default_factory=dict)

    def atoms(self) -> list[Bool]:
        return [p for row in self.plays for p in row] + [self.draw, self.pass_, self.end_chain]


def legal(v: View, o: Opts, ignore_drawn: bool = False) -> Legal:
    cands: list[Bool] = [None] * len(v.trains)
    plays = []
    for i, s in enumerate(v.hand):
        drawn_ok = True if ignore_drawn else Or(v.drawn == NO_SLOT, v.drawn == i)  # TURN-3
        ok = And(drawn_ok, Not(stranded(v, o, i)))  # FIRST-12
        row = []
        for j, t in enumerate(v.trains):
            fit = fits(s, t)
            if s.present is False or ok is False or fit is False:
                row.append(False)  # what And gives whatever the train allows: not asked
                continue
            if cands[j] is None:  # asked once per train, where some tile may go
                cands[j] = candidate(v, t, o)
            row.append(And(s.present, ok, fit, cands[j]))
        plays.append(row)
    any_play = Or(*(p for row in plays for p in row))
    draw, pass_ = draw_pass(v, o, any_play)
    own_dbl = And(v.own_field("dbl"), v.own_field("turn"))
    own_end = v.own_field("end")
    can_cover = Or(*(And(s.present, Or(s.a == own_end, s.b == own_end)) for s in v.hand))
    # FIRST-4: the chain goes on while a play would cover a double laid in it (on the own
    # train under FIRST-2; FIRST-11: on whichever train it lies)
    cover_any = Or(*(And(t.dbl, t.turn, Or(*(row[j] for row in plays)))
                     for j, t in enumerate(v.trains)))
    must_cover = If(own_chain(o), And(own_dbl, can_cover), cover_any)
    end_chain = chain_end(v, must_cover)
    return Legal(plays, draw, pass_, end_chain, any_play)


def draw_pass(v: View, o: Opts, any_play: Bool) -> tuple[Bool, Bool]:
    """Draw and pass, given whether some play is legal (spec/proofs/parametric.py leaves it free,
    for any table size)."""
    chain_start = And(chain_turn(v, o), v.phase == START)  # FIRST-3
    no_play = And(v.phase != CHAIN, Not(any_play))  # TURN-1
    draw = And(no_play, Not(v.bone_empty), Not(chain_start),
               Or(v.drawn == NO_SLOT, o.is_("draw_rule", "draw-until-playable")))  # TURN-2, -5
    pass_ = And(no_play, Or(v.bone_empty, chain_start,  # TURN-4, FIRST-3
                            And(v.drawn != NO_SLOT, o.is_("draw_rule", "draw-one"))))  # TURN-2
    return draw, pass_


def chain_end(v: View, must_cover: Bool) -> Bool:
    """End-chain, given whether the chain ends on a double of its own the mover can cover."""
    return And(v.phase == CHAIN, Not(must_cover))  # FIRST-1, FIRST-4


def turn_actions(v: View, o: Opts, any_play: Bool, must_cover: Bool) -> tuple[Bool, Bool, Bool]:
    """Draw, pass and end-chain with "some play is legal" and "the chain must cover" given."""
    draw, pass_ = draw_pass(v, o, any_play)
    return draw, pass_, chain_end(v, must_cover)


# -- concrete tables ---------------------------------------------------------------------


def view_of_state(state: Mapping[str, Any], max_pip: int) -> View:
    """The abstract view of a canonical JSON state (phases start, chain and follow)."""
    n = len(state["hands"])
    seat = int(state["seat"])
    hand = [T.parse(x) for x in state["hands"][seat]]
    off = [T.parse(x) for h in state["hands"] for x in h] + [T.parse(x) for x in state["boneyard"]]
    off_lo = {e for t in off for e in (T.HIGH[t], T.LOW[t]) if T.HIGH[t] <= SPLIT}
    off_hi: set[int] = set()
    for t in off:
        if T.HIGH[t] > SPLIT:
            off_hi |= {T.HIGH[t], T.LOW[t]}
    open_d = [MEX if k == MEXICAN else int(k) for k in state.get("open_doubles", [])]
    turn_d = {MEX if k == MEXICAN else int(k) for k in state.get("turn_doubles", [])}
    bodies = [*state["trains"], state["mexican"]]
    trains = []
    for i, body in enumerate(bodies):
        index = MEX if i == n else i
        end = int(body["end"])
        dbl = index in open_d
        trains.append(Train(
            index=index, exists=True, empty=not body["tiles"], end=end,
            marked=bool(body.get("marker", False)), dbl=dbl,
            order=open_d.index(index) if dbl else 0, turn=index in turn_d,
            ex_lo=end not in off_lo, ex_hi=end not in off_hi, wide=max_pip))
    drawn = state.get("drawn")
    first = list(state.get("first_turns", []))
    phase = PHASE_NAMES.index(state["phase"])
    return View(
        players=n, seat=seat, starter=int(state["starter"]), phase=phase,
        first_pending=seat in first, firsts_left=bool(first),
        bone_empty=not state["boneyard"],
        drawn=NO_SLOT if drawn is None else hand.index(T.parse(drawn)),
        hand=[Slot(True, T.HIGH[t], T.LOW[t]) for t in hand], trains=trains)


def action_text(kind: str, tile: tuple[int, int] | None = None, train: str = "") -> str:
    if kind == "play":
        assert tile is not None
        return f"play {tile[0]}-{tile[1]} on {train}"
    return kind


def legal_view(v: View, o: Opts) -> set[str]:
    """The legal actions of a concrete view, as fixture texts."""
    lg = legal(v, o)
    out = set()
    for s, row in zip(v.hand, lg.plays, strict=True):
        for t, ok in zip(v.trains, row, strict=True):
            if ok:
                out.add(action_text("play", (s.a, s.b), t.name))
    for kind, ok in (("draw", lg.draw), ("pass", lg.pass_), ("end-chain", lg.end_chain)):
        if ok:
            out.add(kind)
    return out


def legal_actions(state: Mapping[str, Any], options: Mapping[str, str]) -> set[str]:
    """The exact set of legal actions in a canonical JSON state under a rule set's options."""
    phase = state["phase"]
    if phase == "over":
        return set()
    if phase == "engine":
        return {"draw"}  # ENG-4, ENG-6
    max_pip = highest(options["tile_set"])
    return legal_view(view_of_state(state, max_pip), Opts(values=options))


def legal_table(table: Mapping[str, Any], ruleset: Any) -> set[str]:
    """The legal actions of a fixture table under a Ruleset (no steps)."""
    from mtrain.spec.notation import table_state

    return legal_actions(table_state(table, ruleset), dict(ruleset.items()))
