"""Rule bugs of a twelfth outside reading: written from shared/RULES.md and the clauses
(docs/rules/), aimed at where the corpus is thinnest, counted over the catalogue (438
mutants, 699 fixtures) per tile set and player count, and at what engine authors get
wrong when the boneyard runs out, when a turn's markers are settled and when a round's
last tile is a double.

Per tile set (the fixtures whose scopes admit the set): double-6 48 fixtures, double-9
343, double-15 472, double-18 430, against 619 on double-12; 372 of the 438 mutants had
fewer than two killers that apply under double-6, 171 under double-9, 109 under
double-15. The sets between (double-7, 8, 10, 11, 13, 14, 16 and 17) no fixture can
name: tile_set has five values (spec/data/options.yaml), and a rule-set file naming
another is refused. So a slip tied to the set is aimed at the five: whether a double can
still be covered asked over the double-12's tiles (too many tiles of a number on double-6
and double-9, too few on double-15 and double-18), and SET-3's double-9 set read as a
double-12 box without its three top doubles and the tiles between them.

The rest are the moments real engines fumble. The boneyard running out: the drawn-tile
rule dropped once there is nothing left to draw, a marker raised with the last draw, a
player who can neither play nor draw taken for the end of the round, or skipped without a
pass. Markers settled once, at the end of a turn, from the turn's last tile (MARK-3,
MARK-4 after a double and its follow-up), or from "played on their own train this turn"
over the pass that raises it (DBL-5), or not at all on a pass forced by a duty or a
follow-up with nothing to draw, or after the check that ended the round. A double laid as
the round's last tile: the out not credited (outs counted at the end of a turn, which a
double never reaches), or its pips charged to the player as if it still had to be covered.
"""

from __future__ import annotations

import dataclasses

from mtrain.conformance.mutants import originals as ref
from mtrain.conformance.mutants.implementation import Mutant
from mtrain.reference import deal as deal_module
from mtrain.reference import engine
from mtrain.reference.engine import BLOCKED, DOMINO, FOLLOW, OVER, PASS, START, Action, State
from mtrain.reference.rules import MARKER_ANYONE_ON, MARKER_OWNER_OWN, Rules
from mtrain.spec import tiles as T

_deal_pool = deal_module.deal_pool

TWELVE = 12
"""pagat's set, the one an author's tables are written for."""


# --- tile sets -------------------------------------------------------------------------


def _live_over_double_12(state: State, train: int) -> bool:
    """DBL-9 asked over the double-12's tiles: whether a tile of the open double's number
    is still off the table is read from a double-12 set's tiles of that number."""
    number = state.ends[train]
    tiles = T.NUMBER_MASK[number] & T.set_mask(TWELVE)
    return tiles & state.table_mask != tiles


def _double_nine_keeps_mixed_tens(rules: Rules, round_no: int) -> list[int]:
    """SET-3 read as "a double-12 set without [10-10], [11-11], [12-12], [11-10], [12-10]
    and [12-11]": under double-9 the tiles with one end 10 to 12 stay in the pool."""
    pool = _deal_pool(rules, round_no)
    if rules.max_pip != 9:
        return pool
    mixed = [t for t in T.tiles_of(T.set_mask(TWELVE))
             if T.HIGH[t] >= 10 and T.OTHER_END[t][T.HIGH[t]] <= 9]
    return pool + mixed


def _highest_double_from_twelve(st: State) -> None:
    """ENG-7 and ENG-8 with the search for the highest double written from [12-12] down:
    on double-15 and double-18 a double above 12 in hand is passed over."""
    rules = st.rules
    if rules.max_pip <= TWELVE:
        ref.engine_from_deal(st)
        return
    st.rules = dataclasses.replace(rules, max_pip=TWELVE)
    try:
        ref.engine_from_deal(st)
    finally:
        st.rules = rules


# --- the boneyard runs out ---------------------------------------------------------------


def _last_drawn_tile_frees_hand(state: State) -> list[Action]:
    """TURN-3 dropped once the boneyard is empty: after drawing its last tile the player
    may play any tile in hand."""
    if state.drawn < 0 or state.boneyard:
        return ref.plays(state)
    drawn = state.drawn
    state.drawn = -1
    try:
        return ref.plays(state)
    finally:
        state.drawn = drawn


def _last_draw_raises_marker(state: State) -> None:
    """MARK-1 with "cannot draw any more": drawing the boneyard's last tile puts the
    drawer's marker up, whether or not they then play the tile."""
    ref.draw(state)
    if state.phase != engine.ENGINE and not state.boneyard:
        state.markers |= 1 << state.seat


def _blocked_at_last_draw(state: State) -> None:
    """END-2 tested as the boneyard empties: drawing its last tile ends the round blocked
    when nobody can ever play, before the drawer passes."""
    ref.draw(state)
    if (state.phase != engine.ENGINE and not state.boneyard
            and not state.rules.passes_end_round and ref.nobody_can_ever_play(state)):
        ref.finish(state, BLOCKED, -1)


def _stuck_player_ends_round(state: State, action: Action) -> None:
    """END-2 and END-3 read as "a player who can neither play nor draw ends the round":
    a pass on an empty boneyard blocks the round at once."""
    stuck = action.kind == "pass" and not state.boneyard
    ref.perform(state, action)
    if stuck and state.phase != OVER:
        ref.finish(state, BLOCKED, -1)


def _stuck_player_skipped(state: State) -> None:
    """TURN-4 left to the engine: a player who can neither play nor draw is skipped as the
    turn passes to them, with no marker (a pass on the empty boneyard still counted)."""
    ref.end_turn(state)
    for _ in range(state.players):
        if state.phase != START or state.boneyard or ref.legal_actions(state) != [PASS]:
            return
        state.passes += 1
        ref.end_turn(state)


# --- markers settled at the end of a turn ---------------------------------------------------


def _owner_marker_by_last_tile(state: State, tile: int, train: int) -> None:
    """MARK-3 settled at the end of the turn, by its last tile: a double on the player's
    own train followed elsewhere leaves their marker up."""
    seat = state.seat
    up = state.markers >> seat & 1
    ref.play(state, tile, train)
    if (up and train == seat and state.phase == FOLLOW
            and state.rules.marker_rule == MARKER_OWNER_OWN):
        state.markers |= 1 << seat  # (taken off only if the turn ends on the train)


def _anyone_marker_by_last_tile(state: State, tile: int, train: int) -> None:
    """MARK-4 settled at the end of the turn, by its last tile: a double laid on a marked
    train and followed on another leaves that train's marker up."""
    up = train < state.players and state.markers >> train & 1
    ref.play(state, tile, train)
    if up and state.phase == FOLLOW and state.rules.marker_rule == MARKER_ANYONE_ON:
        state.markers |= 1 << train


def _own_double_pass_unmarked(state: State, action: Action) -> None:
    """DBL-5's marker lost to "played on their own train this turn": a player who laid a
    double on their own train, then could not follow it and passed, has no marker up."""
    seat = state.seat
    own_double = action.kind == "pass" and seat in state.turn_doubles
    ref.perform(state, action)
    if own_double:
        state.markers &= ~(1 << seat)


def _stuck_follow_up_unmarked(state: State, action: Action) -> None:
    """DBL-5 with nothing to draw: a player who cannot follow their double and finds the
    boneyard empty passes without a marker."""
    seat = state.seat
    stuck = (action.kind == "pass" and state.phase == FOLLOW and state.drawn < 0
             and not state.boneyard)
    ref.perform(state, action)
    if stuck:
        state.markers &= ~(1 << seat)


def _duty_pass_unmarked(state: State, action: Action) -> None:
    """DBL-6 with nothing to draw: a player held by a double they cannot cover, the
    boneyard empty, passes the duty on without a marker."""
    seat = state.seat
    stuck = (action.kind == "pass" and state.phase == START and state.drawn < 0
             and not state.boneyard and bool(state.open_doubles) and bool(ref.duties(state)))
    ref.perform(state, action)
    if stuck:
        state.markers &= ~(1 << seat)


def _last_pass_unmarked(state: State, action: Action) -> None:
    """MARK-1 after END-2 or END-3: the marker is put up once the turn's end is checked,
    so the pass that blocks the round leaves none."""
    seat = state.seat
    ref.perform(state, action)
    if action.kind == "pass" and state.phase == OVER:
        state.markers &= ~(1 << seat)


# --- a double as the round's last tile ----------------------------------------------------


def _out_on_double_uncredited(state: State, tile: int, train: int) -> None:
    """MATCH-5's outs counted at the end of a turn: going out on a double (END-1), which
    ends no turn, is not counted."""
    seat = state.seat
    last_double = state.hands[seat] == T.BIT[tile] and T.IS_DOUBLE[tile]
    ref.play(state, tile, train)
    if last_double and state.result is not None and state.result.end == DOMINO:
        state.outs[seat] -= 1


def _out_on_double_charged(state: State, tile: int, train: int) -> None:
    """END-1 read as "a double still asks for a cover": under penalty scoring the player
    who goes out on a double scores its pips."""
    seat = state.seat
    last_double = state.hands[seat] == T.BIT[tile] and T.IS_DOUBLE[tile]
    ref.play(state, tile, train)
    result = state.result
    if (last_double and result is not None and result.end == DOMINO
            and not state.rules.positive_scoring):
        scores = list(result.scores)
        scores[seat] += T.PIPS[tile]
        state.scores[seat] += T.PIPS[tile]
        state.result = type(result)(result.end, result.winner, tuple(scores))


TWELFTH_READING: tuple[Mutant, ...] = (
    # tile sets
    Mutant("uncoverable-asked-of-double-12",
           "Whether an open double can still be covered is asked over a double-12 set's "
           "tiles of its number, whatever the set", ("DBL-9", "DBL-10", "SET-1", "END-2"),
           "live swapped: the number's tiles taken from the double-12 set",
           patches={"live": _live_over_double_12}),
    Mutant("double-nine-keeps-mixed-tens",
           "A double-9 set is a double-12 set without the tiles both of whose ends are 10 "
           "to 12: the tiles with one such end stay in the pool", ("SET-3", "SET-1"),
           "deal_pool swapped: 30 tiles of one end 10 to 12 added under double-9",
           patches={"deal_pool": _double_nine_keeps_mixed_tens}),
    Mutant("highest-double-search-from-twelve",
           "Under engine-highest-double and designated-opens the highest double held is "
           "sought from [12-12] down: a double above 12 is passed over",
           ("ENG-7", "ENG-8", "SET-5", "SET-6"),
           "_engine_from_deal swapped: max_pip read as 12 on double-15 and double-18",
           patches={"_engine_from_deal": _highest_double_from_twelve}),
    # the boneyard runs out
    Mutant("last-drawn-tile-frees-hand",
           "After drawing the boneyard's last tile the player may play any tile in hand",
           ("TURN-3", "TURN-4"), "plays swapped: the drawn tile not read on an empty boneyard",
           patches={"plays": _last_drawn_tile_frees_hand}),
    Mutant("last-draw-raises-marker",
           "Drawing the boneyard's last tile puts the drawer's marker up",
           ("MARK-1", "TURN-3", "TURN-4"), "_draw swapped: marker up when the boneyard empties",
           patches={"_draw": _last_draw_raises_marker}),
    Mutant("blocked-at-last-draw",
           "Under nobody-can-play the blocked test is made as the boneyard's last tile is "
           "drawn: the round ends before the drawer passes", ("END-2", "TURN-4", "MARK-1"),
           "_draw swapped: END-2 asked after the draw that empties the boneyard",
           patches={"_draw": _blocked_at_last_draw}),
    Mutant("stuck-player-ends-round",
           "A player who can neither play nor draw ends the round blocked with their pass",
           ("END-2", "END-3", "TURN-4"), "perform swapped: a pass on an empty boneyard blocks",
           patches={"perform": _stuck_player_ends_round}),
    Mutant("stuck-player-skipped",
           "A player who can neither play nor draw is skipped without a pass or a marker",
           ("TURN-4", "MARK-1", "SEAT-1"),
           "_end_turn swapped: seats left only a pass on an empty boneyard skipped",
           patches={"_end_turn": _stuck_player_skipped}),
    # markers settled at the end of a turn
    Mutant("owner-marker-off-by-last-tile",
           "Under owner-plays-own the marker comes off only when the turn's last tile goes "
           "on the owner's train: a double there followed elsewhere leaves it up",
           ("MARK-3", "DBL-1", "DBL-2"),
           "_play swapped: the owner's marker put back after a double on their train",
           patches={"_play": _owner_marker_by_last_tile}),
    Mutant("anyone-marker-off-by-last-tile",
           "Under anyone-plays-on a marker comes off only when the turn's last tile goes on "
           "its train: a double there followed elsewhere leaves it up",
           ("MARK-4", "DBL-1", "DBL-2"),
           "_play swapped: a marked train's marker put back after a double on it",
           patches={"_play": _anyone_marker_by_last_tile}),
    Mutant("own-double-pass-unmarked",
           "A player who laid a double on their own train, could not follow it and passed "
           "has no marker up", ("DBL-5", "MARK-1", "MARK-3"),
           "perform swapped: a pass leaves no marker after an open double on the own train",
           patches={"perform": _own_double_pass_unmarked}),
    Mutant("stuck-follow-up-unmarked",
           "A player who cannot follow their double with the boneyard empty passes without "
           "a marker", ("DBL-5", "MARK-1", "TURN-4"),
           "perform swapped: a follow-up's pass on an empty boneyard leaves no marker",
           patches={"perform": _stuck_follow_up_unmarked}),
    Mutant("duty-pass-unmarked",
           "A player held by an open double they cannot cover, with the boneyard empty, "
           "passes without a marker", ("DBL-6", "MARK-1", "TURN-4"),
           "perform swapped: a pass under a duty on an empty boneyard leaves no marker",
           patches={"perform": _duty_pass_unmarked}),
    Mutant("blocking-pass-unmarked",
           "The pass that ends the round blocked puts up no marker", ("MARK-1", "TURN-4",
                                                                     "END-2", "END-3"),
           "perform swapped: the passer's marker down when the pass ends the round",
           patches={"perform": _last_pass_unmarked}),
    # a double as the round's last tile
    Mutant("out-on-double-uncredited",
           "Going out on a double is not counted in the player's outs",
           ("END-1", "MATCH-5"), "_play swapped: no out credited for a last tile that is a double",
           patches={"_play": _out_on_double_uncredited}),
    Mutant("out-on-double-charged",
           "Under penalty scoring a player who goes out on a double scores its pips",
           ("END-1", "SCORE-5"), "_play swapped: the last double's pips added to its player",
           patches={"_play": _out_on_double_charged}),
)
"""The twelfth reading: 16 rule bugs, none a mutant of the catalogue (names and
descriptions checked against the eleven readings before it).

Measured on the corpus before any fixture was added for them (2026-12-05, `mtrain mutants
-m NAME ... -j 2`, 2,134 passing runs): 14 killed, two survived (last-draw-raises-marker:
no fixture looks at the markers right after the boneyard's last draw, or after a last
tile laid elsewhere than the drawer's own train; highest-double-search-from-twelve: no
fixture dealt a double-15 or double-18 round under ENG-7 or ENG-8), and two had one
killer alone (owner-marker-off-by-last-tile: markx5-001; duty-pass-unmarked:
doubles-042). With the fixtures worked by hand from the clauses (turns/boneyard-twelfth-
reading.yaml bone12-001 to -018, ten of them on the double-6 file;
engine/highest-double-twelfth-reading.yaml dbl12-001, -002) every one is killed by two
fixtures or more (2,157 runs): the fewest two (last-draw-raises-marker,
highest-double-search-from-twelve), then three (last-drawn-tile-frees-hand,
duty-pass-unmarked). Blame charges 13 of 16 to a clause they break.

Under house rules (a killer still applies when some product of its scope leaves free an
option the mutant's clauses do not name, or lets in a table of one's own), the gaps left
are where every fixture that can tell reads the option: outs on a double
(out-on-double-uncredited) only through the round's end, whose scores read `scoring`;
the double-9 pool (double-nine-keeps-mixed-tens) only through a deal, which reads the
hand table, so never under a table of one's own; the drawn tile on an empty boneyard
(last-drawn-tile-frees-hand) only where DBL-12 releases the doubles, which reads
`doubles`; a follow-up failed on an empty boneyard (stuck-follow-up-unmarked, one killer
left) only where the doubles bind, which reads `uncoverable_double`."""
