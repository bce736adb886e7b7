"""Rule bugs of a seventeenth reading, written where the engines the suite meets live and
the sixteen readings before it did not look: large tables (9 players and more) read
through code sized for eight seats, later rounds of a match taking a path the first
round never takes, an option's neighbour value leaking in, engine procedures and
starting seats slipping at one step, and scoring and ties at their edges.

Large tables: the heaviest tile (SEAT-6), the draw for the start (SEAT-5), the blocked
round's lowest hand (SCORE-7), the hands a winner collects (SCORE-6), the markers
anyone's play takes off (MARK-4) and the full round of passes (END-3) each handled for
the first eight seats only. Later rounds: the replacement tile of ENG-5 drawn in round 1
only, the highest-double and designated procedures used in round 1 only, the start of
the engine's holder, of the seat after it or of the heaviest tile's shifted by the
rotation, the rotation stopped at the last seat instead of wrapping. Neighbour values:
the restricted follow-up read as cover-own, release-uncoverable and
release-on-empty-boneyard each releasing after the layer's turn too, the plain chain
refused a closing double as under no-double-end, own-train-started read as
own-train-first, nobody-can-play ending the round on a full round of passes too. Single
slips: a drawn tile kept off marked trains, ENG-5's replacement drawn by the seat after
the holder, the search for the engine stopped by any double, a draw in the search
spending the drawer's first turn, a full round of passes counted by markers raised, a
blocking pass scoring the drawn tile twice, the blank rule applied from double-12 up
only, a single round opened on [0-0] (the engine counted down from the rule set's round
count), and a most-outs tie left unresolved shared by every seat tied on the total.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from mtrain.conformance.mutants import originals as ref
from mtrain.conformance.mutants.implementation import Mutant, RulesHook
from mtrain.reference import deal as deal_module
from mtrain.reference import engine as engine_module
from mtrain.reference.engine import BLOCKED, ENGINE, START, Action, Result, State
from mtrain.reference.rules import (
    FOLLOW_COVER_OWN,
    FOLLOW_RESTRICTED,
    MARKER_ANYONE_ON,
    Rules,
    tile_values,
)
from mtrain.spec import tiles as T

_deal = deal_module.deal
_heaviest = engine_module.heaviest_holder
_engine_number = engine_module.engine_number

EIGHT = 8
"""The seats of the setup screen the large-table faults were written against."""


def _flag_when(cond: Callable[[Rules], bool], **changes: Any) -> RulesHook:
    """The engine's rules with `changes` made where `cond` holds."""
    def hook(rules: Rules) -> Rules:
        return dataclasses.replace(rules, **changes) if cond(rules) else rules
    return hook


def _deal_with(change: Callable[[Rules, int], Rules | None]) -> Callable[..., State]:
    """The adapter's deal with the rules `change` gives for (rules, round) where it gives
    any; the state dealt keeps the rule set's own rules (the app's later turns read them)."""
    def deal(rules: Rules, players: int, round_no: int = 1, **kw: Any) -> State:
        changed = change(rules, round_no)
        if changed is None:
            return _deal(rules, players, round_no, **kw)
        st = _deal(changed, players, round_no, **kw)
        st.rules = rules
        return st
    return deal


# --- large tables read through eight seats ------------------------------------------------


def _heaviest_first_eight(state: State) -> int:
    """SEAT-6 with the hands searched over the first eight seats: a heavier tile held at
    seat 8 or later is passed over."""
    if state.players <= EIGHT:
        return _heaviest(state)
    best, seat = (-1, -1), (state.round - 1) % state.players
    for s, hand in enumerate(state.hands[:EIGHT]):
        for t in T.tiles_of(hand):
            key = (T.PIPS[t], T.HIGH[t])
            if key > best:
                best, seat = key, s
    return seat


def _lowest_first_eight(state: State, values: list[int]) -> list[int]:
    """SCORE-7 with the lowest hand sought over the first eight seats."""
    if state.players <= EIGHT:
        return ref.lowest_hands(state, values)
    counts = [state.hands[s].bit_count() for s in range(EIGHT)]
    key = min(zip(counts, values[:EIGHT], strict=True))
    return [s for s in range(EIGHT) if (counts[s], values[s]) == key]


def _collects_first_eight(state: State, end: str, winner: int) -> None:
    """SCORE-6 with the hands collected over the first eight seats: what seats 8 and up
    hold is left out of the winner's score."""
    ref.finish(state, end, winner)
    result = state.result
    if (result is None or winner < 0 or state.players <= EIGHT
            or not state.rules.positive_scoring):
        return
    lost = sum(ref.hand_value(state, s) for s in range(EIGHT, state.players))
    scores = list(result.scores)
    scores[winner] -= lost
    state.scores[winner] -= lost
    state.result = Result(result.end, result.winner, tuple(scores))


def _draw_winner_first_eight(rules: Rules, players: int, draw: Any) -> int:
    """SEAT-5 with the drawings read for the first eight seats only."""
    if players <= EIGHT:
        return ref.draw_winner(rules, players, draw)
    return ref.draw_winner(rules, EIGHT, list(draw)[:EIGHT])


def _anyone_marker_kept_high(state: State, tile: int, train: int) -> None:
    """MARK-4 written for eight seats: a tile laid on the marked train of seat 8 or later
    leaves its marker up."""
    before = state.markers
    ref.play(state, tile, train)
    if (EIGHT <= train < state.players and state.rules.marker_rule == MARKER_ANYONE_ON
            and before >> train & 1):
        state.markers |= 1 << train


# --- later rounds -------------------------------------------------------------------------


def _replacement_round_one(rules: Rules, round_no: int) -> Rules | None:
    """ENG-5's replacement drawn by round 1's setup path alone."""
    if round_no > 1 and rules.holder_draws:
        return dataclasses.replace(rules, holder_draws=False)
    return None


def _deal_engine_round_one(rules: Rules, round_no: int) -> Rules | None:
    """ENG-7 and ENG-8 in round 1 alone: later rounds open on the round's double (ENG-1),
    placed by its holder as under holder-lays."""
    if round_no > 1 and rules.engine_by_deal:
        return dataclasses.replace(rules, engine_by_deal=False, designated_opens=False)
    return None


def _holder_start_rotates(state: State, holder: int) -> None:
    """SEAT-2 with SEAT-3's rotation added: round r starts at the holder's seat plus
    r - 1."""
    ref.place_engine(state, holder)
    if state.rules.engine_holder_starts and holder >= 0 and state.round > 1:
        state.seat = state.starter = (holder + state.round - 1) % state.players

def _after_engine_start_rotates(state: State, holder: int) -> None:
    """SEAT-4 with SEAT-3's rotation added: round r starts r seats after the holder."""
    ref.place_engine(state, holder)
    if state.rules.after_engine_starts and holder >= 0 and state.round > 1:
        state.seat = state.starter = (holder + state.round) % state.players


def _rotation_clamped(state: State, holder: int) -> None:
    """SEAT-3 with the seat clamped, not wrapped: round r starts at min(r - 1, n - 1), so
    every round past the table's size starts at the last seat."""
    ref.place_engine(state, holder)
    rules = state.rules
    if (rules.engine_holder_starts or rules.after_engine_starts or rules.highest_draw_starts
            or rules.heaviest_tile_starts):
        return
    state.seat = state.starter = min(state.round - 1, state.players - 1)


def _heaviest_start_rotates(state: State, holder: int) -> None:
    """SEAT-6 with SEAT-3's rotation added: round r starts r - 1 seats after the holder of
    the heaviest tile."""
    ref.place_engine(state, holder)
    if state.rules.heaviest_tile_starts and state.round > 1:
        state.seat = state.starter = (state.seat + state.round - 1) % state.players


# --- doubles and follow-ups ----------------------------------------------------------------


def _restricted_as_cover_own(rules: Rules) -> Rules:
    """DBL-3 written as `follow != anywhere`, taking DBL-4's branch."""
    if rules.follow == FOLLOW_RESTRICTED:
        return dataclasses.replace(rules, follow=FOLLOW_COVER_OWN)
    return rules


def _drawn_off_marked(state: State) -> list[int]:
    """TURN-3 with the drawn tile offered to the player's own trains: the own train and the
    Mexican Train, never a marked train (a duty still sends it to the double)."""
    found = ref.playable_trains(state)
    if state.drawn < 0 or state.phase != START:
        return found
    if state.open_doubles and ref.duties(state):
        return found
    seat, mex = state.seat, state.players
    return [t for t in found if t in (seat, mex)]


# --- engine procedures and starting seats -----------------------------------------------------


def _replacement_to_next_seat(rules: Rules, players: int, round_no: int = 1,
                              **kw: Any) -> State:
    """ENG-5 with the replacement drawn by the seat after the holder (the seat pointer
    already moved on when the app draws it)."""
    order = kw.get("order")
    if not rules.holder_draws or order is None or not rules.ruleset.deals(players):
        return _deal(rules, players, round_no, **kw)
    hand = rules.ruleset.hand_size(players)
    engine = T.DOUBLE[_engine_number(rules, round_no)]
    at = list(order).index(engine) if engine in order else -1
    if not 0 <= at < players * hand:
        return _deal(rules, players, round_no, **kw)
    st = _deal(dataclasses.replace(rules, holder_draws=False), players, round_no, **kw)
    st.rules = rules
    if st.boneyard:
        nxt = (at // hand + 1) % players
        st.hands[nxt] |= T.BIT[st.boneyard.pop(0)]
    return st


def _search_stops_at_any_double(state: State) -> None:
    """ENG-4 read as ENG-7's search: the first double drawn opens the round, whatever its
    number."""
    rules = state.rules
    if state.phase != ENGINE or rules.everyone_draws or not state.boneyard:
        ref.draw(state)
        return
    tile = state.boneyard[0]
    if not T.IS_DOUBLE[tile] or tile == T.DOUBLE[state.engine]:
        ref.draw(state)
        return
    state.boneyard.pop(0)
    number = T.HIGH[tile]
    state.engine = number
    state.ends = [number] * (state.players + 1)
    ref.place_engine(state, state.seat)


def _search_spends_first_turn(state: State) -> None:
    """FIRST-6 counted from the search for the engine: a seat that draws in it and does not
    find the engine has had its first turn."""
    seat, searching = state.seat, state.phase == ENGINE
    ref.draw(state)
    if searching and state.phase == ENGINE:
        state.first_pending &= ~(1 << seat)


# --- the end of a round and of the match ------------------------------------------------------


def _stuck_or_passes(state: State) -> None:
    """END-2 with END-3's count kept as well: under nobody-can-play a full round of passes
    on an empty boneyard ends the round too, though a marker raised since opens a train."""
    if (not state.boneyard and not state.rules.passes_end_round and state.result is None
            and state.passes >= state.players):
        ref.finish(state, BLOCKED, -1)
        return
    ref.check_blocked(state)

def _passes_to_eight(state: State) -> None:
    """END-3 with the passes counted to eight at most: at a table of 9 or more a round is
    blocked after eight passes in a row."""
    if (not state.boneyard and state.rules.passes_end_round and state.result is None
            and state.players > EIGHT and state.passes >= EIGHT):
        ref.finish(state, BLOCKED, -1)
        return
    ref.check_blocked(state)


def _blocking_pass_drawn_twice(state: State, action: Action) -> None:
    """SCORE-5 with the drawn tile kept in hand and in the turn's drawn slot: a pass after
    an unplayable draw that blocks the round scores that tile twice."""
    drawn, seat = state.drawn, state.seat
    ref.perform(state, action)
    result, rules = state.result, state.rules
    if (action.kind != "pass" or drawn < 0 or result is None or result.end != BLOCKED
            or rules.positive_scoring or rules.blocked_low_wins):
        return
    scores = list(result.scores)
    scores[seat] += rules.value[drawn]
    state.scores[seat] += rules.value[drawn]
    state.result = Result(result.end, result.winner, tuple(scores))


def _pass_counted_if_new(state: State, action: Action) -> None:
    """END-3 counting the markers raised, not the passes: a pass by a player whose marker
    is already up is not counted."""
    if (action.kind != "pass" or state.boneyard or not state.rules.passes_end_round
            or not state.markers >> state.seat & 1):
        ref.perform(state, action)
        return
    ref.end_turn(state)


def _blank_rule_from_twelve(rules: Rules) -> Rules:
    """SCORE-2 to SCORE-4 switched on for the sets of the full game (double-12 and up)
    only: on a smaller set blanks count their face."""
    if rules.max_pip >= 12:
        return rules
    face = tile_values("face")
    return dataclasses.replace(rules, value=face) if face != rules.value else rules


def _engine_from_round_count(rules: Rules, round_no: int) -> int:
    """ENG-1 counted down from the rule set's round count: [rounds - r], which is [N-N]
    in round 1 of a full match but [0-0] in a single round."""
    return rules.rounds - round_no


def _with_engine_number(fn: Callable[[Rules, int], int], when: Callable[[Rules], bool]
                        ) -> Callable[..., State]:
    """The adapter's deal with ENG-1's engine_number swapped for `fn` where `when` holds."""
    def deal(rules: Rules, players: int, round_no: int = 1, **kw: Any) -> State:
        if not when(rules):
            return _deal(rules, players, round_no, **kw)
        real = getattr(deal_module, "engine_number")  # noqa: B009 (not re-exported by deal)
        setattr(deal_module, "engine_number", fn)  # noqa: B010
        try:
            return _deal(rules, players, round_no, **kw)
        finally:
            setattr(deal_module, "engine_number", real)  # noqa: B010
    return deal


def _most_outs_unresolved_shared(state: State) -> list[int]:
    """MATCH-5 applied only where it leaves one seat: a tie the outs do not break is shared
    by every seat on the winning total, not by those with the most outs."""
    found = deal_module.match_winners(state)
    rules = state.rules
    if not rules.tie_most_outs or len(found) == 1:
        return found
    best = max(state.scores) if rules.positive_scoring else min(state.scores)
    return [s for s, v in enumerate(state.scores) if v == best]


SEVENTEENTH_READING: tuple[Mutant, ...] = (
    # large tables read through eight seats
    Mutant("mut17-heaviest-search-eight-seats",
           "Under heaviest-in-hand the heaviest tile is sought over the first eight seats: "
           "a heavier tile at seat 8 or later is passed over", ("SEAT-6",),
           "heaviest_holder swapped: hands of seats 0 to 7 only on tables of 9 and more",
           patches={"heaviest_holder": _heaviest_first_eight}),
    Mutant("mut17-blocked-lowest-hand-eight-seats",
           "Under blocked-winner the blocked round's lowest hand is sought over the first "
           "eight seats: a lower hand at seat 8 or later still scores", ("SCORE-7",),
           "lowest_hands swapped: seats 0 to 7 only on tables of 9 and more",
           patches={"lowest_hands": _lowest_first_eight}),
    Mutant("mut17-positive-collects-eight-hands",
           "Under positive scoring the player who goes out collects the hands of the first "
           "eight seats only: what seats 8 and up hold is not counted", ("SCORE-6",),
           "_finish swapped: hands of seats 8 and up taken off the winner's score",
           patches={"_finish": _collects_first_eight}),
    Mutant("mut17-draw-winner-eight-seats",
           "Under highest-draw the draw for the start is read for the first eight seats: "
           "a higher tile drawn at seat 8 or later does not win", ("SEAT-5",),
           "draw_winner swapped: the drawings of seats 0 to 7 only",
           patches={"draw_winner": _draw_winner_first_eight}),
    Mutant("mut17-anyone-marker-stays-on-high-seats",
           "Under anyone-plays-on a tile laid on the marked train of seat 8 or later leaves "
           "its marker up (the removal written for eight seats)", ("MARK-4", "MARK-1"),
           "_play swapped: the marker of trains 8 and up put back under anyone-plays-on",
           patches={"_play": _anyone_marker_kept_high}),
    # later rounds
    Mutant("mut17-replacement-round-one-only",
           "Under engine-holder-draws the holder draws a replacement for the engine in "
           "round 1 only", ("ENG-5", "MATCH-1"),
           "deal swapped (adapter): holder_draws off in rounds 2 and up",
           patches={"deal": _deal_with(_replacement_round_one)}),
    Mutant("mut17-deal-engine-round-one-only",
           "Under highest-double-held and designated-opens the deal chooses the engine in "
           "round 1 only: later rounds open on the round's double, placed by its holder",
           ("ENG-7", "ENG-8", "ENG-1"),
           "deal swapped (adapter): engine_by_deal off in rounds 2 and up",
           patches={"deal": _deal_with(_deal_engine_round_one)}),
    Mutant("mut17-holder-start-rotates",
           "Under engine-holder the start of round r is the holder's seat plus r - 1, as "
           "if the rotation applied on top", ("SEAT-2", "SEAT-3"),
           "_place_engine swapped: seat (holder + round - 1) % n under engine-holder",
           patches={"_place_engine": _holder_start_rotates}),
    Mutant("mut17-after-engine-start-rotates",
           "Under after-engine the start of round r is r seats after the holder, as if the "
           "rotation applied on top", ("SEAT-4", "SEAT-3"),
           "_place_engine swapped: seat (holder + round) % n under after-engine in rounds 2 "
           "and up", patches={"_place_engine": _after_engine_start_rotates}),
    Mutant("mut17-rotation-clamped-at-last-seat",
           "The rotating start stops at the last seat: round r starts at min(r - 1, n - 1), "
           "so every round past the table's size starts at the last seat", ("SEAT-3",),
           "_place_engine swapped: the rotation's seat clamped, not wrapped",
           patches={"_place_engine": _rotation_clamped}),
    Mutant("mut17-heaviest-start-rotates",
           "Under heaviest-in-hand the start of round r is r - 1 seats after the holder of "
           "the heaviest tile, as if the rotation applied on top", ("SEAT-6", "SEAT-3"),
           "_place_engine swapped: the heaviest holder's seat + round - 1",
           patches={"_place_engine": _heaviest_start_rotates}),
    # an option's neighbour value leaking in
    Mutant("mut17-restricted-follow-cover-own",
           "Under the restricted follow-up the tile after a double must cover it, as under "
           "cover-own", ("DBL-3", "DBL-4"), "Rules.follow cover-own under restricted",
           rules=_restricted_as_cover_own),
    Mutant("mut17-released-also-after-layers-turn",
           "Under release-uncoverable every earlier double is released once its layer's "
           "turn is over, as under release-after-layers-turn", ("DBL-9", "DBL-6", "DBL-13"),
           "Rules.release_after_turn set under released",
           rules=_flag_when(lambda r: r.release_uncoverable, release_after_turn=True)),
    Mutant("mut17-empty-release-also-after-layers-turn",
           "Under release-on-empty-boneyard every earlier double is released once its "
           "layer's turn is over, boneyard or not", ("DBL-12", "DBL-6", "DBL-13"),
           "Rules.release_after_turn set under released-when-boneyard-empty",
           rules=_flag_when(lambda r: r.release_when_empty, release_after_turn=True)),
    Mutant("mut17-chain-no-double-end-leak",
           "Under the plain first-turn chain a double nothing in hand would follow is "
           "refused, as under chain-no-double-end", ("FIRST-1", "FIRST-12"),
           "Rules.chain_no_double_end set under chain",
           rules=_flag_when(lambda r: r.ruleset["first_turn"] == "chain",
                            chain_no_double_end=True)),
    Mutant("mut17-own-train-started-own-train-first",
           "Under own-train-started the player must start the own train before playing "
           "anywhere, as under own-train-first (marked trains closed too)",
           ("FIRST-10", "TRAIN-7", "TRAIN-4"),
           "Rules.own_train_first set under own-train-started",
           rules=_flag_when(lambda r: r.own_train_mexican, own_train_first=True)),
    Mutant("mut17-stuck-rule-ends-on-passes",
           "Under nobody-can-play a full round of passes on an empty boneyard ends the "
           "round, though a marker raised since lets a player play", ("END-2", "END-3"),
           "_check_blocked swapped: END-3's count kept under nobody-can-play",
           patches={"_check_blocked": _stuck_or_passes}),
    # doubles and draws
    Mutant("mut17-drawn-tile-off-marked-trains",
           "A drawn tile may go on the own train or the Mexican Train only, never on a "
           "marked train", ("TURN-3", "TRAIN-4", "MARK-2"),
           "playable_trains swapped: others' trains dropped after a draw without a duty",
           patches={"playable_trains": _drawn_off_marked}),
    # engine procedures and starting seats
    Mutant("mut17-replacement-to-next-seat",
           "Under engine-holder-draws the replacement tile goes to the seat after the "
           "holder", ("ENG-5", "DEAL-1"),
           "deal swapped (adapter): the replacement added to seat holder + 1",
           patches={"deal": _replacement_to_next_seat}),
    Mutant("mut17-search-stops-at-any-double",
           "Under holder-lays the search for an engine nobody was dealt stops at the first "
           "double drawn, which opens the round, as under highest-double-held",
           ("ENG-4", "ENG-1"),
           "_draw swapped: a double drawn in the search placed as the engine",
           patches={"_draw": _search_stops_at_any_double}),
    Mutant("mut17-search-draw-spends-first-turn",
           "A seat that draws in the search for the engine, without finding it, has had "
           "its first turn", ("FIRST-6", "ENG-4"),
           "_draw swapped: the drawer's first turn cleared by a search draw",
           patches={"_draw": _search_spends_first_turn}),
    # the end of a round and of the match
    Mutant("mut17-pass-by-marked-player-uncounted",
           "Under full-round-of-passes the passes are counted by markers raised: a pass by "
           "a player whose marker is already up is not counted", ("END-3", "TURN-4"),
           "perform swapped: a marked player's pass on an empty boneyard not counted",
           patches={"perform": _pass_counted_if_new}),
    Mutant("mut17-passes-counted-to-eight",
           "Under full-round-of-passes a table of 9 players or more is blocked after eight "
           "passes in a row (the count written for eight seats)", ("END-3",),
           "_check_blocked swapped: END-3's count capped at eight",
           patches={"_check_blocked": _passes_to_eight}),
    Mutant("mut17-blocking-pass-drawn-tile-scored-twice",
           "A pass after an unplayable draw that blocks the round scores the tile drawn "
           "twice (once in hand, once as the turn's drawn tile)", ("SCORE-5", "TURN-4",
                                                                    "END-2", "END-3"),
           "perform swapped: the drawn tile's value added again to a blocking passer's score",
           patches={"perform": _blocking_pass_drawn_twice}),
    Mutant("mut17-blank-rule-ignored-below-twelve",
           "The blank rule (blank-25, double-blank-50, double-blank-25) is applied on sets "
           "of double-12 and up only: on a double-6, -8, -9 or -10 set blanks count their "
           "face", ("SCORE-2", "SCORE-3", "SCORE-4", "SET-1"),
           "Rules.value at face below double-12",
           rules=_blank_rule_from_twelve),
    Mutant("mut17-single-round-opens-on-blank",
           "A single-round game opens on [0-0]: the engine counted down from the rule "
           "set's round count (rounds - r), not from the set", ("MATCH-7", "ENG-1"),
           "deal swapped (adapter): engine_number rounds - round under single-round",
           patches={"deal": _with_engine_number(_engine_from_round_count,
                                                lambda r: r.single_round)}),
    Mutant("mut17-most-outs-unresolved-shared-by-all",
           "Under tie-most-outs a tie the outs leave is shared by every seat on the winning "
           "total, those with fewer outs included", ("MATCH-5", "MATCH-4"),
           "winners: every seat on the best total where the outs leave a tie",
           winners=_most_outs_unresolved_shared),
)
"""The seventeenth reading: 27 rule bugs, none a mutant of the catalogue (names,
descriptions and kill sets checked against the sixteen readings before it). Six more
were written and dropped. Four were found equivalent to a mutant already there on every
table the rules reach: the oldest double picked before the dead ones are released
(release-frees-newer-doubles), the start after the lap's last drawer under after-engine
(engine-lap-closer-places, there under every start rule), and own-train-first or
own-train-started waived once the player's marker is up (a seat whose first turn is over
with its train empty has passed: own-train-first-only-first-turn,
own-train-mexican-first-turn-only). Rounds 2 and up setting the engine aside under the
procedures that deal it were killed only by the deal's order being refused, an error no
clause is charged with, where a real engine would deal something else. A table of one's
own with a gap between two rows dealing the missing count the row below (DEAL-7) cannot
be told from the reference by any fixture: no table the corpus can name has a gap (the
files of spec/data/rulesets/ and the scope check's probe list every count in their
range). Three are killed by exactly the fixtures that kill one already there, though
they play differently: mut17-replacement-to-next-seat (holder-draws-no-replacement),
mut17-blocking-pass-drawn-tile-scored-twice (mut16-blocking-pass-drawn-tile-unscored)
and mut17-single-round-opens-on-blank (mut16-single-round-opens-on-twelve).

Measured on the corpus as it was before any fixture was added for them (2026-12-05,
`mtrain mutants -m mut17-... -j 2`, 2,265 passing runs): 21 of the 27 killed, every one
of them by two fixtures or more (fewest, 2: mut17-positive-collects-eight-hands,
mut17-heaviest-start-rotates, mut17-blank-rule-ignored-below-twelve,
mut17-passes-counted-to-eight). Six survived: mut17-heaviest-search-eight-seats and
mut17-draw-winner-eight-seats (no fixture starts a round of 9 players or more under
heaviest-in-hand or highest-draw), mut17-blocked-lowest-hand-eight-seats (none blocks a
round of 9 or more under blocked-winner), mut17-anyone-marker-stays-on-high-seats (none
lays a tile on the marked train of seat 8 or 9 under anyone-plays-on),
mut17-pass-by-marked-player-uncounted (no full round of passes is ended by a player
whose marker was already up) and mut17-most-outs-unresolved-shared-by-all (no most-outs
tie leaves two seats tied with a third on fewer outs).

Twenty-one fixtures worked by hand from the clauses, in eight files named
*-seventeenth-reading.yaml (seats/large-tables mut17-seats-001 to -006,
scoring/blocked-large-tables mut17-blocked-001 to -003, scoring/collect-large-tables
mut17-collect-001, scoring/blanks-small-sets mut17-blank-001, round-end/passes
mut17-passes-001 to -003, match/most-outs mut17-outs-001 to -003, markers/high-seats
mut17-markers-001 to -003, doubles/release-oldest mut17-release-001, a third killer for
release-frees-newer-doubles), kill every one of the 27 three times or more (2,313 runs);
the whole catalogue, 595 mutants, is killed, the fewest killers 2. Blame (`--blame`)
charges 25 of the 27 to a clause they break: mut17-replacement-to-next-seat is charged
DEAL-2 and DEAL-3 (the seat's extra tile reads as a hand dealt wrong) and
mut17-blocking-pass-drawn-tile-scored-twice SCORE-1, as its sixteenth-reading mirror is."""
