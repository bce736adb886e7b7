"""A deal's first seat under an engine procedure of one's own (issue 21).

A deal fixture reads the engine procedure at once (which pool is dealt, where the engine
goes), so under `engine_procedure: other` every deal entry was not applicable, and with
it the only check of who starts a round: an engine whose rotation was wrong (roundhouse,
tests/examples/roundhouse_engine.py: round r at seat (r - 1) mod 4) passed unseen. Yet
under a rotating start (SEAT-3) or the highest draw (SEAT-5) the first seat does not
depend on how the engine reached the centre. So where the reference, playing the deal
under every known procedure the rule set allows, gives the seat and starter the entry
expects each time (and reads no other rule played its own way), the entry runs with
those two fields alone: the hands, the boneyard and the engine's place stay the rule's
own.

fuzz asks the same of each round it deals (fuzz/own_rules.py `seat_alone`): its deal is a
shuffle of the pool of the procedure played in place of the rule, so where a known
procedure sets the engine aside it is dealt that shuffle less the engine (`less_engine`),
as an order `sorted` or `reversed` is.

The other way round, under `starting_seat: other` a deal entry read the starting seat at
once (the seat and starter it expects), and with it went every other field of the deal:
gondola (tests/examples/js/gondola_engine.js), whose round 16 takes [15-15] for its
engine, passed every deal unseen. Where the reference, playing the deal under every known
starting seat the rule set allows (and that can deal it), gives the rest of the entry each
time, the entry runs without its seat and starter (`dealt_entry`); and a table that
writes no starter, which the starting seat gives, runs where every known start plays it
alike (`table_entry`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Set

from mtrain.conformance.fixture import Expectation, Fixture
from mtrain.conformance.traced import logged_run, with_table
from mtrain.spec import tiles as T
from mtrain.spec.notation import FixtureError, is_next_round, max_pip_of, parse_tile
from mtrain.spec.ruleset import OTHER, Ruleset
from mtrain.spec.scope import Region, Space

SEAT_FIELDS = ("seat", "starter")
"""The fields of a dealt state that the starting seat decides (SEAT-1..6)."""


def seat_entry(exp: Expectation, fx: Fixture, rs: Ruleset, space: Space, *,
               less_engine: bool = False) -> Expectation | None:
    """`exp` cut down to the dealt seat and starter, where no known engine procedure
    changes them under `rs`'s other rules; None where that cannot be shown. With
    `less_engine`, a deal whose order lists the round's engine is dealt without it under
    a procedure that sets the engine aside (ENG-2)."""
    if rs["engine_procedure"] != OTHER or fx.deal is None or fx.steps:
        return None
    if exp.refused_setup is not None or not set(SEAT_FIELDS) & set(exp.state):
        return None
    seat = dataclasses.replace(
        exp, legal=None, refused={}, result=..., winners=None, match_over=None,
        state={k: v for k, v in exp.state.items() if k in SEAT_FIELDS})
    held = _held_under_each("engine_procedure", seat, fx, rs, space, less_engine=less_engine)
    return seat if held else None


def dealt_entry(exp: Expectation, fx: Fixture, rs: Ruleset, space: Space,
                actions_only: Set[str] = frozenset()) -> Expectation | None:
    """`exp`, a deal entry, without the seat and starter a starting seat of one's own
    decides (and the actions, which are the seat's), where every known starting seat
    deals the rest alike under `rs`'s other rules; None where that cannot be shown. A
    table whose last step deals the next round (`next-round`) is such an entry too: the
    state it expects is that deal's (fuzz writes one for a deal asked after the request
    before it, gantry's markers kept from the last table). `actions_only`: options of
    one's own that decide only which actions are legal (who may open the Mexican Train),
    read where the deal is played: on a deal with no step, the cut, which checks no
    action, reads them to no effect (layover's Mexican rule: 10 deals set aside)."""
    if rs["starting_seat"] != OTHER or not (_dealt(fx) or next_round_last(fx)):
        return None
    if actions_only and not _dealt(fx):
        return None
    if exp.refused_setup is not None or not set(exp.state) - set(SEAT_FIELDS):
        return None
    rest = dataclasses.replace(
        exp, legal=None, refused={}, result=..., winners=None, match_over=None,
        state={k: v for k, v in exp.state.items() if k not in SEAT_FIELDS})
    return rest if _held_under_each("starting_seat", rest, fx, rs, space, dealt_only=True,
                                     ignored=actions_only) else None


def dealt_own_table_entry(exp: Expectation, fx: Fixture, rs: Ruleset,
                          space: Space) -> Expectation | None:
    """`exp`, a deal entry (as `dealt_entry` takes one), cut to the state fields that
    neither a starting seat of one's own nor a table of one's own decides: those the
    reference, dealing `rs`'s own table (the sizes are the table's, played exactly), finds
    as the entry writes them under every known starting seat that deals it, reading no
    other rule played its own way. The seat and starter go (the start's), and so does each
    field the table changes (a hand's size, the boneyard's, a sorted hand): what is left,
    where the engine is and the phase the deal leaves, is the engine procedure's and the
    round's, written by hand and only checked by the reference. Under both rules of one's
    own every deal entry was not applicable whole (351 results across the example
    engines' files, session 62), an engine placed or left unsearched going unjudged. None
    where no field is left, or where the cut does not hold as a whole."""
    if not rs.custom_table or rs["starting_seat"] != OTHER:
        return None
    if not (_dealt(fx) or next_round_last(fx)) or exp.refused_setup is not None:
        return None
    bare = dataclasses.replace(exp, legal=None, refused={}, result=..., winners=None,
                               match_over=None, state={})

    def holds(state: dict[str, object]) -> bool:
        cut = dataclasses.replace(bare, state=state)
        return _held_under_each("starting_seat", cut, fx, rs, space, dealt_only=True)

    kept = {k: v for k, v in exp.state.items()
            if k not in SEAT_FIELDS and holds({k: v})}
    return dataclasses.replace(bare, state=kept) if kept and holds(kept) else None


def _dealt(fx: Fixture) -> bool:
    """A deal and nothing after it (a draw for the start is the highest draw's question:
    SEAT-5)."""
    return fx.deal is not None and not fx.steps and "draw" not in fx.deal


def next_round_last(fx: Fixture) -> bool:
    """A table played to its round's end, then the next round dealt: its one `next-round`
    step is the last."""
    return (fx.table is not None and bool(fx.steps) and is_next_round(fx.steps[-1])
            and not any(is_next_round(s) for s in fx.steps[:-1]))


def table_entry(exp: Expectation, fx: Fixture, rs: Ruleset, space: Space) -> Expectation | None:
    """`exp`, an entry on a table that writes no starter (which the starting seat then
    gives: notation.table_starter), as it is where every known starting seat has the
    reference play it alike under `rs`'s other rules: the starter the table reads decides
    nothing there; None where that cannot be shown."""
    if rs["starting_seat"] != OTHER or fx.table is None or "starter" in fx.table:
        return None
    return exp if _held_under_each("starting_seat", exp, fx, rs, space) else None


def _held_under_each(option: str, cut: Expectation, fx: Fixture, rs: Ruleset, space: Space,
                     *, less_engine: bool = False, dealt_only: bool = False,
                     ignored: Set[str] = frozenset()) -> bool:
    """Whether the reference plays `fx` to the `cut` entry under at least two known values
    of `option` (played its own way in `rs`) and under every one that deals it, reading no
    other rule played its own way. With `dealt_only`, a value whose rules refuse the deal
    itself (a start by the highest draw, for a deal with no draw) cannot have dealt it:
    it is left out. `ignored`: options of one's own whose reads say nothing of `cut`."""
    others = set(rs.unknown) - {option} - set(ignored)
    known: Region = {o: frozenset((v,)) for o, v in space.point(rs).items()
                     if o not in rs.unknown}
    tried = 0
    for value in space.options[option]:
        sample = space.complete({**known, option: frozenset((value,))})
        if sample is None:
            continue  # a value the other rules do not allow (SEAT-6 sets the engine aside)
        stand_in = space.ruleset(sample)
        if rs.custom_table:  # the reference deals the table itself
            stand_in = with_table(stand_in, rs.hand_table)
        dealt = _without_engine(fx, stand_in) if less_engine else fx
        run, log = logged_run(dealt, stand_in, [cut], dict(sample))
        if run.outcomes != ("pass",) and dealt_only:
            anything = dataclasses.replace(cut, state={})  # the deal accepted, nothing more
            if logged_run(dealt, stand_in, [anything], dict(sample))[0].outcomes != ("pass",):
                continue
        if run.outcomes != ("pass",) or others & log.decides:
            return False
        tried += 1
    return tried >= 2


def whole_pool(sent: Ruleset, round_no: int, order: list[str]) -> list[str]:
    """The pool an implementation of an engine procedure of its own is dealt from: the
    whole set (docs/protocol.md, deal). Where the rule set sent in its place (`sent`)
    sets the engine aside (ENG-2), the order lacks the round's engine (ENG-1), which goes
    back as the pool's last tile; any other order is sent as it is."""
    if sent["engine_procedure"] != "set-aside":
        return order
    max_pip = max_pip_of(sent)
    if not 1 <= round_no <= max_pip + 1:
        return order  # no such round: the implementation says so
    engine = T.name(T.DOUBLE[max_pip + 1 - round_no])
    return order if engine in order else [*order, engine]


def _without_engine(fx: Fixture, rs: Ruleset) -> Fixture:
    """`fx` with the round's engine taken out of its listed order where `rs` sets the
    engine aside before dealing (ENG-2); else `fx` as it is."""
    assert fx.deal is not None
    order = fx.deal.get("order")
    if rs["engine_procedure"] != "set-aside" or not isinstance(order, list):
        return fx
    max_pip = max_pip_of(rs)
    engine = T.DOUBLE[int(fx.deal.get("engine", max_pip))]
    try:
        kept = [t for t in order if parse_tile(t, max_pip) != engine]
    except FixtureError:
        return fx  # the run names the bad tile
    if len(kept) == len(order):
        return fx
    return dataclasses.replace(fx, deal={**fx.deal, "order": kept})
