"""What a rule of one's own on who may open the Mexican Train leaves to judge: one meaning
for fuzz (fuzz/own_mexican.py) and conform (mexican_entry).

The reference reads `mexican_first_turn` wherever the player to move holds a tile that
would open the empty Mexican Train (engine.open_trains: FIRST-8..10), though the rule
decides one thing there: whether that train is open to the mover. Not only where the
known values disagree: dandy (tests/examples/perl/dandy_engine.pl) keeps it shut where
all three open it. So the plays that open the empty Mexican Train are the rule's,
whatever the known values say; every other play is open or not whatever the rule
(open_trains adds the Mexican Train alone; a tile that fits it not is refused there by
TRAIN-2 either way). The draw, the pass and the end of a chain are tied by TURN-1 to
whether a play exists, not to which: judged where another play is left, the rule's where
the openings are the only plays. A refusal of any other play is judged whatever the
rule.

conform ran none of an entry reading that rule alone (`applies` names it): caboose
(tests/examples/caboose_engine.py) had 47 fixtures set aside so. mexican_entry runs such
an entry cut to what the rule leaves: the openings left to the engine on both sides
(`Expectation.own_actions`: every tile of the mover's hand that fits the empty Mexican
Train, played there, and the draw, pass and end of a chain where no other play is left),
the rest of the legal set judged (a play elsewhere offered there is refused whatever the
rule: drawbar's open empty trains passed while the legal set was dropped whole), a
refusal kept where this module judges it, a step the rule decides (an opening, a draw or
pass with no other play) not applicable where refused (`Expectation.own_steps`). An entry
whose only check is a refusal of an opening stays set aside whole. An entry that reads a
scoring, blank values or tie rule of one's own besides runs without what its round's end
is worth too (round_end_alone.worth_aside), each of those options asked in turn alike
(caboose's own blanks: 12 fixtures).

A starting seat of one's own besides, on a table that writes no starter (which the
starting seat then gives: notation.table_starter), was read too, and such an entry stayed
set aside whole: layover (tests/examples/layover_engine.py) had 35 fixtures so. The seat
decides nothing there but the starter the table reads, as seat_alone.table_entry runs a
table where every known starting seat plays it alike; the starter matters to the Mexican
rule's openings (`starter-only`), which are left to the engine. So the cut runs where it
holds under every pair of a known Mexican value and a known starting seat (two seats at
least), the table's starter then deciding nothing the cut judges. Not a deal, nor a table
played into the next round (whose first seat is the seat rule's own).

A marker rule of one's own besides (dandy, tests/examples/perl/dandy_engine.pl: 15
fixtures) is cut as marker_alone.py cuts it: which markers are up (the `marked` field)
left to the rule, the rest asked under every pair of a known Mexican value and a known
marker rule.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence, Set
from typing import Any

from mtrain.conformance.adapter import JSON
from mtrain.conformance.divergence import ROUND_END
from mtrain.conformance.fixture import Expectation, Fixture
from mtrain.conformance.marker_alone import OPTION as MARKER
from mtrain.conformance.marker_alone import markers_aside
from mtrain.conformance.release_alone import known_regions
from mtrain.conformance.round_end_alone import carried_entry, passes_under, worth_aside
from mtrain.conformance.runner import REFERENCE, Outcome, play
from mtrain.conformance.stand_in_replay import known_ruleset, stand_in_replay
from mtrain.conformance.step_alone import judged_steps
from mtrain.conformance.traced import legality_reads
from mtrain.reference import codec
from mtrain.reference.engine import legal_actions
from mtrain.reference.rules import Rules
from mtrain.reference.state import Action, State
from mtrain.spec import tiles as T
from mtrain.spec.notation import action_json, is_next_round
from mtrain.spec.ruleset import Ruleset
from mtrain.spec.scope import Region, Space

OPTION = "mexican_first_turn"
SEAT = "starting_seat"
"""Read besides OPTION on a table that writes no starter: cut alike (the docstring)."""
CROSSED = frozenset((SEAT, MARKER))
"""Rules of one's own read besides OPTION whose known values are each asked with each
known value of OPTION (the docstring)."""


NO_PLAY = ("draw", "end-chain", "pass")
"""The actions that play no tile: the rule's where only openings are left to play."""


def mexican(st: State, action: Action | None) -> bool:
    """Whether `action` opens the empty Mexican Train of `st` (a tile of the number it
    starts from played there): the rule's. A tile that fits it not is refused by TRAIN-2
    whatever the rule, and judged."""
    return (action is not None and action.kind == "play" and action.train == st.players
            and not st.trains[st.players] and T.OTHER_END[action.tile][st.ends[st.players]] >= 0)


def decoded(st: State, got: Any) -> Action | None:
    """The action `got` (JSON) on `st`, or None where it is none there."""
    try:
        return codec.action_from_json(st, got)
    except (codec.StateError, ValueError, KeyError, TypeError):
        return None  # (no action on this table: judged as it is)


def others_play(st: State, legal: Sequence[Action]) -> bool:
    """Whether `legal` (the reference's legal actions on `st`) holds a play that does not
    open the empty Mexican Train: then the draw, the pass and the end of a chain are judged
    (TURN-1), else they are the rule's. An open Mexican Train is no rule's: False."""
    return not st.trains[st.players] and any(
        a.kind == "play" and not mexican(st, a) for a in legal)


def judged_action(st: State, legal: Sequence[Action], action: Any) -> bool:
    """Whether the legality of `action` (JSON) on `st` is judged whatever the rule: a
    play that does not open the empty Mexican Train, or another action where such a play
    is legal (`legal`: the reference's)."""
    act = decoded(st, action)
    if act is None or mexican(st, act):
        return False
    return act.kind == "play" or others_play(st, legal)


def mexican_plays(st: State) -> tuple[str, ...]:
    """The text of every play of the mover's hand that opens the empty Mexican Train of
    `st` (none where it is started): what the rule decides of a legal set."""
    if st.trains[st.players]:
        return ()
    hand, need = st.hands[st.seat], st.ends[st.players]
    return tuple(sorted(f"play {T.name(t)} on mexican" for t in T.tiles_of(hand)
                        if T.OTHER_END[t][need] >= 0))


def mexican_options(why: str) -> frozenset[str]:
    """The options `applies`'s reason names, where they are OPTION and perhaps round-end
    options (ROUND_END: what the round's end is worth is then set aside, as
    round_end_alone does), played their own way; else none."""
    named = frozenset(re.findall(r"(\w+) \(played its own way\)", why))
    return named if OPTION in named and named <= ROUND_END | CROSSED | {OPTION} else frozenset()


def mexican_entry(exp: Expectation, fx: Fixture, rs: Ruleset, space: Space,
                  named: Set[str] = frozenset((OPTION,)), sent: Ruleset | None = None
                  ) -> Expectation | None:
    """`exp` cut to what a Mexican opening rule of one's own leaves (the module docstring),
    and without its round's worth where `named` (the options of one's own it reads) has
    round-end ones, where the cut holds under every known value of each of `named` in
    turn that plays its steps; None where it cannot be shown or nothing is left to check.
    `sent`: the rule set the implementation is sent (by default the stand-in)."""
    own = set(rs.unknown)
    if (OPTION not in named or not set(named) <= own | {OPTION} or OPTION not in own
            or exp.refused_setup is not None):
        return None
    if SEAT in named and (fx.table is None or "starter" in fx.table or fx.deal is not None
                          or any(is_next_round(step) for step in fx.steps)):
        return None  # the seat rule gives more than the table's starter
    if MARKER in named and not fx.steps:
        return None  # (no marker comes off on a table without a step)
    ends, whole = set(named) & ROUND_END, exp
    if ends:
        exp = worth_aside(exp, ends)
    if MARKER in named:
        exp = markers_aside(exp)  # which markers are up: the marker rule's
    replay = stand_in_replay(fx, exp, rs, space, sent)
    if replay is None:
        return None
    steps = dict(exp.own_steps)
    for k, read in judged_steps(fx, replay.sent, {OPTION}):
        before = REFERENCE.state(replay.rj, replay.trace[k - 1])
        if not judged_action(before, legal_actions(before), action_json(fx.steps[k - 1])):
            steps[k] = tuple(dict.fromkeys((*steps.get(k, ()), *read)))
    cut = dataclasses.replace(exp, own_steps=tuple(sorted(steps.items())))
    last = REFERENCE.state(replay.rj, replay.state)
    if OPTION in legality_reads(last, replay.sent, Rules.of(replay.sent)):
        legal = legal_actions(last)
        # the openings are the rule's; where they are the only plays, so is the draw,
        # pass or end of a chain standing for them (TURN-1): any other play offered is
        # refused whatever the rule, so the legal set is judged without them
        own = {*exp.own_actions, *mexican_plays(last)}
        if not others_play(last, legal):
            own |= set(NO_PLAY)
        cut = dataclasses.replace(
            cut, refused={text: clauses for text, clauses in exp.refused.items()
                          if judged_action(last, legal, action_json(text))},
            own_actions=tuple(sorted(own)) if exp.legal is not None else ())
    carried = carried_entry(whole, cut, fx, ends) if ends else None
    for entry in (cut,) if carried is None else (carried, cut):  # the totals' carry first
        if entry.checks and _holds(entry, fx, rs, space, named, set(steps)):
            return entry
    return None  # every check the rule's, or one that does not hold


def _holds(cut: Expectation, fx: Fixture, rs: Ruleset, space: Space, named: Set[str],
           own_steps: set[int]) -> bool:
    """Whether `cut` holds under every known value of each of `named` in turn that plays
    its steps (the rule set's other values kept; one at least)."""
    tried = 0
    seats: set[str] = set()
    for option in sorted(set(named) - CROSSED):
        for region in _regions(rs, space, option, named):
            passed = passes_under(fx, cut, rs, space, region, set(rs.unknown) - set(named))
            if passed is False and option == OPTION and refuses_own_step(
                    fx, rs, space, region, own_steps):
                continue  # a value refusing an opening the entry takes says nothing of it
            if passed is False:
                return False
            tried += passed is True
            if passed and SEAT in region:
                seats |= region[SEAT]
    return tried > 0 and (SEAT not in named or len(seats) >= 2)


def _regions(rs: Ruleset, space: Space, option: str, named: Set[str]) -> list[Region]:
    """Each known value of `option` in turn, `rs`'s other known values kept; for OPTION,
    with each known value of each of CROSSED that `named` has besides."""
    regions = known_regions(rs, space, option)
    if option != OPTION:
        return regions
    for crossed in sorted(CROSSED & set(named)):
        regions = [{**region, crossed: frozenset((value,))} for region in regions
                   for value in space.options[crossed]]
    return regions


def refuses_own_step(fx: Fixture, rs: Ruleset, space: Space, region: Region,
                     own_steps: set[int]) -> bool:
    """Whether the reference under a known rule set of `region` refuses one of `own_steps`
    (a step the rule decides)."""
    known = known_ruleset(rs, space, region)
    if known is None:
        return False
    trace: list[JSON] = []
    played = play(fx, known, REFERENCE, None, trace)
    return isinstance(played, Outcome) and played.status == "fail" and played.step in own_steps
