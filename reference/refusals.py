"""Refusals and permissions: the clause that refuses an illegal action (the first in
REFUSAL_PRECEDENCE, or all of them), the clause that makes a legal one legal, and `apply`,
the move checked against them (reference/engine.py's `perform` carries out a move
unchecked). Every refusal names its clause; the legal actions they explain are the
engine's (`legal_actions`).
"""

from __future__ import annotations

from collections.abc import Sequence

from mtrain.reference.engine import (
    duties,
    legal_actions,
    perform,
    playable_trains,
    stranded,
    unbound,
)
from mtrain.reference.rules import (
    FOLLOW_ANYWHERE,
    FOLLOW_COVER_OWN,
    FOLLOW_RESTRICTED,
    Rules,
)
from mtrain.reference.state import (
    CHAIN,
    ENGINE,
    FOLLOW,
    OVER,
    START,
    Action,
    IllegalAction,
    State,
)
from mtrain.spec import tiles as T
from mtrain.spec.errors import shown


def apply(state: State, action: Action) -> State:
    """The state after `action`; raises IllegalAction (naming the clause) if refused."""
    if action not in legal_actions(state):
        raise refusal(state, action)
    new = state.copy()
    perform(new, action)
    return new


REFUSAL_PRECEDENCE: tuple[str, ...] = (
    "END-1", "ENG-4", "ENG-6",  # the round is over; nobody has placed the engine yet
    "TURN-7", "FIRST-4",  # an unknown action (or a tile not held); an end-chain
    "FIRST-7",  # an end-chain where no turn is a chain
    "TURN-1", "FIRST-1", "FIRST-11", "FIRST-3", "TURN-4", "TURN-2",  # a draw or a pass
    "TURN-5",
    "SET-1", "TRAIN-1", "TRAIN-2",  # the tile and the train named, the open end
    "TURN-3",  # after a draw, the tile must be the one drawn
    "TRAIN-7", "FIRST-9", "FIRST-10", "TRAIN-4",  # the train's access, whatever the moment
    "FIRST-12", "FIRST-2", "DBL-7", "DBL-6", "DBL-4", "DBL-3",  # what this moment allows
)
"""When several clauses refuse one action, the reference cites the first in this order
(docs: the protocol's refusals). A clause about the action itself (down to which tile:
the drawn one, TURN-3) comes before one about the train, and the train's access in every
turn (TRAIN-7, FIRST-9, FIRST-10, TRAIN-4) before what one moment of a turn narrows the trains to
(a first-turn chain, an open double's duty, the follow-up): the same play on the same
closed train cites the same clause under every rule set and at every moment. A fixture
lists every clause that refuses."""


def refusal(state: State, action: Action,
            legal: Sequence[Action] | None = None) -> IllegalAction:
    """Why `action` is not legal: the first clause that refuses it (REFUSAL_PRECEDENCE;
    `legal`: the state's legal actions, when the caller has them already)."""
    return refusals(state, action, legal)[0]


def refusals(state: State, action: Action,
             legal: Sequence[Action] | None = None) -> list[IllegalAction]:
    """Every clause that refuses `action` (not legal), in REFUSAL_PRECEDENCE order."""
    found = _refusals(state, action, legal) or [_unexplained(state, action)]
    return sorted(found, key=lambda r: REFUSAL_PRECEDENCE.index(r.clause))


def _unexplained(state: State, action: Action) -> IllegalAction:
    """A play refused by no clause above: never for the reference (a test plays every
    refusal), only for an engine changed around it (the mutants); named by the train."""
    if action.train == state.players:
        return IllegalAction("FIRST-9", "the Mexican Train is not open to this player")
    return IllegalAction("TRAIN-4", f"{train_label(state, action.train)} is not open to "
                         "this player")


def _refusals(state: State, action: Action,
              legal: Sequence[Action] | None) -> list[IllegalAction]:
    rules = state.rules
    seat = state.seat
    if state.phase == OVER:
        return [IllegalAction("END-1", f"the round is over; {action.kind} is not possible")]
    if action.kind not in ("play", "draw", "pass", "end-chain"):
        return [IllegalAction("TURN-7", f"unknown action {shown(action.kind)}")]
    if state.phase == ENGINE:  # ENG-4, ENG-6: the search for the engine
        return [IllegalAction(_search_clause(rules), "nobody has placed the engine yet; the "
                              "only action is draw")]
    if action.kind == "end-chain":
        if state.phase != CHAIN:
            if not rules.chain_first_turn:  # FIRST-7: no chains at all, so nothing to end
                return [IllegalAction("FIRST-7", "every turn is a one-tile turn: there is no "
                                      "first-turn chain to end")]
            return [IllegalAction(_chain_clause(rules), "end-chain is only possible during a "
                                  "first-turn chain")]
        return [IllegalAction(
            "FIRST-4", "the chain ends on a double the player can cover; it must be covered")]
    if action.kind in ("draw", "pass"):
        return _draw_pass_refusals(state, action, legal)
    out: list[IllegalAction] = []
    tile, train = action.tile, action.train
    if not 0 <= tile < T.TILE_COUNT or not T.BIT[tile] & rules.set_mask:
        return [IllegalAction("SET-1", f"tile id {tile} is not in the set")]
    label = T.name(tile)
    if not 0 <= train <= state.players:
        return [IllegalAction("TRAIN-1", f"there is no train {train}")]
    where = train_label(state, train)
    if not state.hands[seat] & T.BIT[tile]:
        out.append(IllegalAction("TURN-7", f"seat {seat} does not hold {label}"))
    if T.OTHER_END[tile][state.ends[train]] < 0:
        out.append(IllegalAction("TRAIN-2", f"{label} does not match the open end "
                                 f"{state.ends[train]} of {where}"))
    chain = state.phase == CHAIN or bool(state.first_pending >> seat & 1
                                         and rules.chain_first_turn)
    due = [] if chain else duties(state)
    # TRAIN-6: a double is covered wherever it lies (DBL-12, DBL-13: not one that binds
    # nobody)
    if train not in state.open_doubles or unbound(state, train):
        out += _access_refusals(state, train, where)
    elif (train != seat and not due and not (chain and not rules.chain_anywhere)
          and not state.trains[seat] and rules.own_train_first):
        # TRAIN-7: a double that binds nobody sends no one away (FIRST-2 says it first)
        out.append(IllegalAction("TRAIN-7", f"seat {seat} must start its own train before "
                                 f"{where}"))
    if state.drawn >= 0 and tile != state.drawn:
        out.append(IllegalAction("TURN-3", f"after drawing only {T.name(state.drawn)} may be "
                                 "played"))
    if (state.phase == CHAIN and train == seat and state.hands[seat] & T.BIT[tile]
            and stranded(state, tile) and rules.chain_no_double_end
            and not rules.ordinary_doubles):  # DBL-11: FIRST-12 is about open doubles
        out.append(IllegalAction("FIRST-12", f"a first-turn chain may not end on a double: "
                                 f"nothing left in hand would follow {label}"))
    if chain and train != seat and not rules.chain_anywhere:
        out.append(IllegalAction("FIRST-2", f"a first-turn chain goes on the player's own "
                                 f"train, not {where}"))
    elif due and train not in due:
        clause = "DBL-7" if train in state.open_doubles else "DBL-6"
        out.append(IllegalAction(clause, f"the open double on {train_label(state, due[0])} "
                                 f"must be covered first, not {where}"))
    elif not due and state.phase == FOLLOW and rules.follow != FOLLOW_ANYWHERE \
            and train not in playable_trains(state) \
            and not (train == state.players and rules.follow == FOLLOW_RESTRICTED):
        # DBL-3 names the Mexican Train outright: a closed one is refused by the rule that
        # closes it (FIRST-9, FIRST-10, TRAIN-7, above), never by DBL-3
        clause = "DBL-3" if rules.follow == FOLLOW_RESTRICTED else "DBL-4"
        out.append(IllegalAction(clause, f"after the double the tile may not go on {where}"))
    return out


def _access_refusals(state: State, train: int, where: str) -> list[IllegalAction]:
    """What closes `train` to the player to move in any turn (open_trains)."""
    rules, seat = state.rules, state.seat
    if train == seat:
        return []
    if not state.trains[seat] and rules.own_train_first:
        out = [IllegalAction("TRAIN-7", f"seat {seat} must start its own train before "
                             f"{where}")]
        if train < state.players and not state.markers >> train & 1:
            # TRAIN-4: an unmarked train of another player stays closed to them too
            out.append(IllegalAction("TRAIN-4", f"{where} carries no marker"))
        return out
    if train == state.players:
        if (state.first_pending >> seat & 1 and seat != state.starter
                and not state.trains[train] and rules.starter_only_mexican):
            return [IllegalAction("FIRST-9", "only the starting player may open the Mexican "
                                  "Train during the first turns")]
        if not state.trains[train] and not state.trains[seat] and rules.own_train_mexican:
            return [IllegalAction("FIRST-10", f"seat {seat} must start its own train before "
                                  "opening the Mexican Train")]
        return []
    if not state.markers >> train & 1:
        return [IllegalAction("TRAIN-4", f"{where} carries no marker; only its owner may "
                              "play on it")]
    return []


def _draw_pass_refusals(state: State, action: Action,
                        legal: Sequence[Action] | None) -> list[IllegalAction]:
    rules, seat = state.rules, state.seat
    found = [a for a in (legal_actions(state) if legal is None else legal)
             if a.kind == "play"]
    out = []
    if found:
        out.append(IllegalAction("TURN-1", f"{action.kind} refused: the player can play "
                                 f"{T.name(found[0].tile)}"))
        if state.drawn >= 0 and state.phase != ENGINE:
            # TURN-3: a drawn tile that can be played must be, so it refuses the pass (or
            # another draw) as well: an engine may cite either
            out.append(IllegalAction("TURN-3", f"{action.kind} refused: the drawn "
                                     f"{T.name(state.drawn)} can be played, so it must be"))
    if state.phase == CHAIN:
        out.append(IllegalAction(_chain_clause(rules), f"{action.kind} refused during a "
                                 "first-turn chain; end the chain instead"))
    elif (action.kind == "draw" and not found and state.phase == START
          and state.first_pending >> seat & 1 and rules.chain_first_turn):
        out.append(IllegalAction("FIRST-3", "no drawing on a first turn: the player marks "
                                 "instead"))
    if action.kind == "draw" and not found and not state.boneyard:
        out.append(IllegalAction("TURN-4", "the boneyard is empty: the player passes"))
    if out and action.kind == "draw" and state.drawn >= 0 and not rules.draw_until_playable:
        # TURN-2: one draw a turn refuses a second one whatever else does too
        out.append(IllegalAction("TURN-2", "only one tile may be drawn this turn"))
    if out:
        return out
    if action.kind == "draw":
        return [IllegalAction("TURN-2", "only one tile may be drawn; the player passes")]
    clause = "TURN-5" if rules.draw_until_playable else "TURN-2"
    return [IllegalAction(clause, "pass refused: the player must draw from the boneyard")]


def _search_clause(rules: Rules) -> str:
    """The clause of the search for a missing engine: in laps (ENG-6) or one by one (ENG-4)."""
    return "ENG-6" if rules.everyone_draws else "ENG-4"


def permission(state: State, action: Action) -> str:
    """The clause that makes a legal `action` legal: what an implementation that does not
    offer it breaks (reports charge a missing action to it; see `refusal` for the others)."""
    rules, seat = state.rules, state.seat
    if action.kind == "draw":
        if state.phase == ENGINE:
            return _search_clause(rules)  # drawing for the engine
        if state.phase == FOLLOW:
            return "DBL-5"  # failing to follow a double: draw
        return "TURN-5" if state.drawn >= 0 and rules.draw_until_playable else "TURN-2"
    if action.kind == "pass":
        if state.phase == START and state.first_pending >> seat & 1 and rules.chain_first_turn:
            return "FIRST-3"  # no start on the first turn: mark, no draw
        return "DBL-5" if state.phase == FOLLOW else "TURN-4"
    if action.kind == "end-chain":
        return _chain_clause(rules)
    train = action.train
    if state.drawn >= 0:
        return "TURN-3"  # the drawn tile, playable
    waiting = [t for t in state.open_doubles if t not in state.turn_doubles]
    if waiting and not duties(state) and state.phase != FOLLOW:  # they oblige nobody now
        if rules.release_after_turn:  # DBL-13
            return "DBL-13"
        if state.first_pending and rules.chain_first_turn:
            return "FIRST-5"
        return "DBL-12" if not state.boneyard and rules.release_when_empty else "DBL-9"
    if state.phase == CHAIN or (state.phase == START and state.first_pending >> seat & 1
                                and rules.chain_first_turn):
        return _chain_clause(rules)  # a first-turn chain, on the own train or anywhere
    due = duties(state)
    if due:
        if len(due) > 1:
            return "DBL-8"  # any open double may be covered first
        if len(state.open_doubles) > 1 and rules.oldest_first:
            return "DBL-7"  # the oldest one first
        return "DBL-6" if train == seat or train == state.players else "TRAIN-6"
    if state.phase == FOLLOW:
        return {FOLLOW_RESTRICTED: "DBL-3", FOLLOW_COVER_OWN: "DBL-4",
                FOLLOW_ANYWHERE: "DBL-2"}[rules.follow]
    if train == state.players:
        if not state.trains[train] and seat != state.starter and rules.starter_only_mexican:
            return "FIRST-9"  # when a player other than the starter may open it
        if not state.trains[train] and rules.own_train_mexican:
            return "FIRST-10"  # opened by a player whose own train holds a tile
        return "TRAIN-5" if not state.trains[train] else "TRAIN-4"  # open to all (MARK-2)
    if train != seat:
        return "MARK-1"  # another player's train, open while it carries their marker
    return "TRAIN-4"


def _chain_clause(rules: Rules) -> str:
    """The clause that makes a first turn a chain: on the own train, or anywhere."""
    return "FIRST-11" if rules.chain_anywhere else "FIRST-1"


def train_label(state: State, train: int) -> str:
    return "the Mexican Train" if train == state.players else f"seat {train}'s train"
