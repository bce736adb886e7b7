"""Rule bugs written as an outside engine author would make them, from the clauses and
options alone (spec/data/clauses.yaml, spec/data/options.yaml), not by varying the rest of
the catalogue: off-by-ones in the hand tables of 9 to 12 players and of the double-9,
double-15 and double-18 sets, markers left up or taken off at the wrong moment under each
marker rule, doubles covered or released wrongly, scoring under each blank rule and under
positive scoring, ties, the last round, drawing on an empty boneyard.

They were written down (with the clause each breaks) before the corpus was run against
them; `mtrain mutants` then measured which fixtures kill them, and fixtures were added
by hand for the ones that survived or died once. `OUTSIDE` is appended to the catalogue,
and so is the second reading's (conformance/mutants/second_reading.py).

Measured (2026-12-03): the first reading (42 mutants) against the corpus as it was, 36
killed, 30 of them by two fixtures or more; the second (22), written after the first was
answered, 20 killed and 15 by two or more against that same corpus (21 and 19 with the
first reading's fixtures). With the fixtures added for them (the `*-extra.yaml` files of
conformance/fixtures/), all 64 are killed by two fixtures or more.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from mtrain.conformance.adapter import JSON
from mtrain.conformance.mutants import originals as ref
from mtrain.conformance.mutants.implementation import Mutant, MutantImplementation, RulesHook
from mtrain.reference import codec, engine
from mtrain.reference import deal as deal_module
from mtrain.reference.engine import (
    BLOCKED,
    CHAIN,
    DOMINO,
    DRAW,
    END_CHAIN,
    ENGINE,
    FOLLOW,
    OVER,
    PASS,
    START,
    Action,
    State,
)
from mtrain.reference.rules import (
    FOLLOW_ANYWHERE,
    FOLLOW_COVER_OWN,
    FOLLOW_RESTRICTED,
    MARKER_ANYONE_ON,
    MARKER_OWNER_ANYWHERE,
    MARKER_OWNER_OWN,
    Rules,
    tile_values,
)
from mtrain.spec import tiles as T

_live = engine.live
_check_blocked = engine._check_blocked

# --- the deal: hand tables ---------------------------------------------------------------


def table_rows_changed(test: Callable[[Rules], bool], changes: dict[int, int | None]) -> RulesHook:
    """A rules hook: the hand table with these rows changed (None: the row left out),
    in rule sets where `test` holds."""
    def hook(rules: Rules) -> Rules:
        if not test(rules):
            return rules
        table = dict(rules.ruleset.hand_table)
        for players, size in changes.items():
            if size is None:
                table.pop(players, None)
            elif players in table:
                table[players] = size
        ruleset = dataclasses.replace(rules.ruleset, hand_table=tuple(sorted(table.items())))
        return dataclasses.replace(rules, ruleset=ruleset, hand_table=table)
    return hook


def table_named(name: str) -> Callable[[Rules], bool]:
    return lambda r: r.ruleset["hand_sizes"] == name


def _own_table_row_shifted(rules: Rules) -> Rules:
    """A table of one's own read a row early from 11 players up (the row of n - 1)."""
    if rules.ruleset["hand_sizes"] != "custom":
        return rules
    table = dict(rules.ruleset.hand_table)
    shifted = {n: table.get(n - 1, size) if n >= 11 else size for n, size in table.items()}
    return table_rows_changed(lambda r: True, dict(shifted.items()))(rules)


def _engine_from_twelve(rules: Rules, round_no: int) -> int:
    return 12 - (round_no - 1)


# --- the deal: the engine and the first seat ---------------------------------------------


def _search_after_rotating_seat(state: JSON, rules: Rules) -> JSON:
    if state["phase"] != "engine":
        return state
    first = state["round"] % len(state["hands"])
    return {**state, "seat": first, "starter": first}


def _finder_draws_replacement(state: State) -> None:
    searching = state.phase == ENGINE
    ref.draw(state)
    if searching and state.phase == START and state.rules.holder_draws and state.boneyard:
        state.hands[state.seat] |= T.BIT[state.boneyard.pop(0)]


def _rotate_finder_starts(state: State, holder: int) -> None:
    ref.place_engine(state, holder)
    rules = state.rules
    if holder >= 0 and not rules.engine_holder_starts and not rules.after_engine_starts:
        state.seat = state.starter = holder


# --- the first turn ----------------------------------------------------------------------


def _starter_is_seat_zero(state: State, seat: int, all_marked: bool = False,
                          first_turns_over: bool = False) -> list[int]:
    starter = state.starter
    state.starter = 0
    try:
        return ref.open_trains(state, seat, all_marked, first_turns_over)
    finally:
        state.starter = starter


def _end_chain_before_a_tile(state: State) -> list[Action]:
    out = ref.legal_actions(state)
    if ref.chain_start(state) and END_CHAIN not in out:
        out.append(END_CHAIN)
    return out


def _chain_double_draws(state: State) -> list[Action]:
    """FIRST-4 read as DBL-1: a chain may never stop on a double; with no cover in hand
    the player draws for one, and passes if the drawn tile does not cover it."""
    out = ref.legal_actions(state)
    if (state.phase == CHAIN and END_CHAIN in out and state.trains[state.seat]
            and T.IS_DOUBLE[state.trains[state.seat][-1]]
            and state.seat in state.turn_doubles):
        out.remove(END_CHAIN)
        if not out:
            return [DRAW] if state.boneyard and state.drawn < 0 else [END_CHAIN]
    return out


def _chain_out_at_turn_end(state: State, tile: int, train: int) -> None:
    """Going out is looked for at the end of a turn only: a chain's last tile leaves the
    player in the chain, and the round ends when they end it."""
    seat = state.seat
    if state.hands[seat] != T.BIT[tile] or not (state.phase == CHAIN or ref.chain_start(state)):
        ref.play(state, tile, train)
        return
    saved = engine._finish
    engine._finish = _no_finish
    try:
        ref.play(state, tile, train)
    finally:
        engine._finish = saved
    state.phase = CHAIN


def _no_finish(state: State, end: str, winner: int) -> None:
    return None


def _out_when_chain_ends(state: State, action: Action) -> None:
    seat = state.seat
    if action.kind == "end-chain" and not state.hands[seat]:
        ref.finish(state, DOMINO, seat)
        return
    ref.perform(state, action)


# --- doubles -----------------------------------------------------------------------------


def _duties_wait_for_first_turns(state: State, first_turns_over: bool = False) -> list[int]:
    """FIRST-5 read for every first turn: no double binds while a first turn is to come,
    single-tile starts included."""
    if state.first_pending and not first_turns_over and state.open_doubles:
        return []
    return ref.duties(state, first_turns_over)


def _follow_double_ends_turn(state: State, tile: int, train: int) -> None:
    following = state.phase == FOLLOW
    ref.play(state, tile, train)
    if following and T.IS_DOUBLE[tile] and state.phase == FOLLOW:
        engine._end_turn(state)


def _restricted_to_double_and_mexican(state: State) -> list[int]:
    out = ref.playable_trains(state)
    if (state.phase == FOLLOW and state.rules.follow == FOLLOW_RESTRICTED
            and not ref.duties(state) and state.turn_doubles):
        first = state.turn_doubles[0]
        out = [t for t in out if t in (first, state.players)]
    return out


def _cover_closes_oldest(state: State, tile: int, train: int) -> None:
    before = state.open_doubles[:]
    turn = state.turn_doubles[:]
    ref.play(state, tile, train)
    oldest = before[0] if before else -1
    if (train in before and oldest != train and oldest not in turn and train not in turn
            and state.phase != OVER):
        laid = [t for t in state.open_doubles if t not in before]
        state.open_doubles[:] = [t for t in before if t != oldest] + laid


def _cover_own_drawn_anywhere(state: State) -> list[int]:
    rules = state.rules
    if (state.phase == FOLLOW and state.drawn >= 0 and rules.follow == FOLLOW_COVER_OWN
            and not ref.duties(state)):
        state.rules = dataclasses.replace(rules, follow=FOLLOW_ANYWHERE)
        try:
            return ref.playable_trains(state)
        finally:
            state.rules = rules
    return ref.playable_trains(state)


def _release_after_order(state: State, first_turns_over: bool = False) -> list[int]:
    """DBL-7 applied before DBL-9: when the oldest open double is dead, nothing binds."""
    rules = state.rules
    if not (rules.release_uncoverable and rules.oldest_first):
        return ref.duties(state, first_turns_over)
    saved = rules
    state.rules = dataclasses.replace(rules, release_uncoverable=False)
    try:
        due = ref.duties(state, first_turns_over)
    finally:
        state.rules = saved
    return [t for t in due if _live(state, t)]


def _live_below_thirteen(state: State, train: int) -> bool:
    on_table = state.rules.number_mask[state.ends[train]] & state.table_mask
    return bin(on_table).count("1") < 13


# --- markers -----------------------------------------------------------------------------


def _draw_lowers_marker(state: State) -> None:
    searching, seat = state.phase == ENGINE, state.seat
    ref.draw(state)
    if not searching and state.rules.marker_rule == MARKER_OWNER_OWN:
        state.set_marker(seat, False)


def _owner_exempt_under_anyone(state: State, tile: int, train: int) -> None:
    seat, was = state.seat, state.marked(state.seat)
    ref.play(state, tile, train)
    if state.rules.marker_rule == MARKER_ANYONE_ON and train == seat:
        state.set_marker(seat, was)


def _anywhere_but_marked_trains(state: State, tile: int, train: int) -> None:
    seat, was = state.seat, state.marked(state.seat)
    ref.play(state, tile, train)
    if (state.rules.marker_rule == MARKER_OWNER_ANYWHERE and train != seat
            and train < state.players):
        state.set_marker(seat, was)


def _cover_lowers_owner_marker(state: State, tile: int, train: int) -> None:
    covering = (train != state.seat and train < state.players
                and train in state.open_doubles)
    ref.play(state, tile, train)
    if covering and state.rules.marker_rule == MARKER_OWNER_OWN:
        state.set_marker(train, False)


# --- turns and drawing -------------------------------------------------------------------


def _empty_boneyard_draw(state: State) -> list[Action]:
    out = ref.legal_actions(state)
    if (out == [PASS] and not state.boneyard and state.drawn < 0
            and state.phase in (START, FOLLOW) and not ref.chain_start(state)):
        return [DRAW]
    return out


def _draw_nothing_is_a_pass(state: State, action: Action) -> None:
    if action.kind == "draw" and not state.boneyard and state.phase != ENGINE:
        ref.perform(state, PASS)
        return
    ref.perform(state, action)


def _empty_pass_unmarked(state: State, action: Action) -> None:
    seat, was = state.seat, state.marked(state.seat)
    plain = (action.kind == "pass" and not state.boneyard and state.drawn < 0
             and not ref.chain_start(state))
    ref.perform(state, action)
    if plain:
        state.set_marker(seat, was)


def _draw_pass_unmarked(state: State, action: Action) -> None:
    seat, was = state.seat, state.marked(state.seat)
    after_draw = action.kind == "pass" and state.drawn >= 0
    ref.perform(state, action)
    if after_draw:
        state.set_marker(seat, was)


def _keep_drawing_offered(state: State) -> list[Action]:
    out = ref.legal_actions(state)
    if (state.rules.draw_until_playable and state.drawn >= 0 and state.boneyard
            and out and out[0].kind == "play"):
        out.append(DRAW)
    return out


# --- the end of a round ------------------------------------------------------------------


def _passes_one_short(state: State) -> None:
    if (state.rules.passes_end_round and not state.boneyard and state.phase != OVER
            and state.players > 1 and state.passes == state.players - 1):
        ref.finish(state, BLOCKED, -1)
        return
    _check_blocked(state)


def _blocked_after_a_pass_only(state: State) -> None:
    if state.passes == 0 and not state.rules.passes_end_round:
        return  # a turn that ended with a play (or the deal): not looked at
    _check_blocked(state)


# --- scoring -----------------------------------------------------------------------------


def _values(fn: Callable[[int], int]) -> tuple[int, ...]:
    return tuple(fn(t) for t in range(T.TILE_COUNT))


_BLANK_FLAT = _values(lambda t: 50 if T.HIGH[t] == T.LOW[t] == 0
                      else 25 if T.LOW[t] == 0 else T.PIPS[t])
_DOUBLE_BLANK_AT_50 = _values(lambda t: 50 if T.HIGH[t] == T.LOW[t] == 0 else T.PIPS[t])


def _blank_tile_flat(rules: Rules) -> Rules:
    if rules.ruleset["blank_values"] != "blank-25":
        return rules
    return dataclasses.replace(rules, value=_BLANK_FLAT)


def _double_blank_50_with_blanks(rules: Rules) -> Rules:
    if rules.ruleset["blank_values"] != "double-blank-50":
        return rules
    return dataclasses.replace(rules, value=tile_values("blank-25"))


def _double_blank_25_at_50(rules: Rules) -> Rules:
    if rules.ruleset["blank_values"] != "double-blank-25":
        return rules
    return dataclasses.replace(rules, value=_DOUBLE_BLANK_AT_50)


def _positive_at_face(state: State, end: str, winner: int) -> None:
    rules = state.rules
    if not (rules.positive_scoring and winner >= 0):
        ref.finish(state, end, winner)
        return
    state.rules = dataclasses.replace(rules, value=tuple(T.PIPS))
    try:
        ref.finish(state, end, winner)
    finally:
        state.rules = rules


def _positive_losers_pay(state: State, end: str, winner: int) -> None:
    rules = state.rules
    if not (rules.positive_scoring and winner >= 0):
        ref.finish(state, end, winner)
        return
    left = [ref.hand_value(state, s) for s in range(state.players)]
    ref.finish(state, end, winner)
    assert state.result is not None
    scores = list(state.result.scores)
    for s in range(state.players):
        if s != winner:
            scores[s] = left[s]
            state.scores[s] += left[s]
    state.result = state.result._replace(scores=tuple(scores))


def _last_round_not_totalled(state: State, end: str, winner: int) -> None:
    before = state.scores[:]
    ref.finish(state, end, winner)
    if state.round >= state.rules.rounds:
        state.scores[:] = before


def _last_round_out_uncounted(state: State, end: str, winner: int) -> None:
    ref.finish(state, end, winner)
    if state.round >= state.rules.rounds and winner >= 0:
        state.outs[winner] -= 1


# --- the match ---------------------------------------------------------------------------


def _most_outs_then_lowest_seat(state: State) -> list[int]:
    won = deal_module.match_winners(state)
    return won[:1] if state.rules.tie_most_outs else won


def _ties_only_under_penalty(state: State) -> list[int]:
    rules = state.rules
    if not rules.positive_scoring:
        return deal_module.match_winners(state)
    best = max(state.scores)
    return [s for s, v in enumerate(state.scores) if v == best]


class _EarlyEnd(MutantImplementation):
    """The match taken to be over once round N (the [1-1] round) has ended."""

    def winners(self, ruleset: JSON, state: JSON) -> list[int]:
        st = codec.state_from_json(self.rules(ruleset), state)
        if st.result is None or st.round < st.rules.rounds - 1:
            return []
        return deal_module.match_winners(st)


@dataclasses.dataclass(frozen=True)
class _EarlyEndMutant(Mutant):
    def implementation(self) -> MutantImplementation:
        return _EarlyEnd(self)


OUTSIDE: tuple[Mutant, ...] = (
    # hand tables
    Mutant("d15-seven-players-take-12",
           "The double-15 table of ourpastimes gives 12 tiles to 5 to 7 players, not 5 or 6",
           ("DEAL-9",), "Rules.ruleset.hand_table 7 -> 12 under ourpastimes-d15",
           rules=table_rows_changed(table_named("ourpastimes-d15"), {7: 12})),
    Mutant("celko-d15-nine-take-13",
           "Celko's double-15 table gives 13 tiles to 7 to 9 players, not 7 or 8",
           ("DEAL-14",), "Rules.ruleset.hand_table 9 -> 13 under celko-d15",
           rules=table_rows_changed(table_named("celko-d15"), {9: 13})),
    Mutant("pagat-table-stops-at-nine",
           "pagat's table is read as 9 players at most: a game of 10 is refused",
           ("DEAL-2", "DEAL-7"), "Rules.ruleset.hand_table without its row for 10 under pagat",
           rules=table_rows_changed(table_named("pagat"), {10: None})),
    Mutant("hathaway-nine-ten-take-10",
           "The billhathaway.com table gives 9 and 10 players the 10 tiles of 7 and 8",
           ("DEAL-16",), "Rules.ruleset.hand_table 9, 10 -> 10 under hathaway",
           rules=table_rows_changed(table_named("hathaway"), {9: 10, 10: 10})),
    Mutant("celko-d9-eight-take-7",
           "Celko's double-9 table gives 8 players 7 tiles, the row of 5 to 7",
           ("DEAL-13",), "Rules.ruleset.hand_table 8 -> 7 under celko-d9",
           rules=table_rows_changed(table_named("celko-d9"), {8: 7})),
    Mutant("own-table-row-shifted",
           "A table of one's own is read one row early from 11 players up (11 take the row "
           "of 10)", ("DEAL-11", "DEAL-1"),
           "Rules.ruleset.hand_table: row n takes row n - 1's size for n >= 11 under a custom "
           "table", rules=_own_table_row_shifted),
    Mutant("engine-from-twelve",
           "The engine counts down from [12-12] whatever the set: round r uses [13-r - 13-r]",
           ("ENG-1",), "engine_number swapped (engine, deal, codec) for 12 - (round - 1)",
           patches={"engine_number": _engine_from_twelve}),
    Mutant("search-starts-after-rotating-seat",
           "Drawing for a missing engine starts at seat round mod n, one seat late",
           ("ENG-4",), "deal output in the 'engine' phase gets seat and starter round mod n",
           post_deal=_search_after_rotating_seat),
    Mutant("search-finder-draws-replacement",
           "Under engine-holder-draws the player who draws the engine in the search draws a "
           "replacement too", ("ENG-5", "ENG-4"),
           "_draw swapped: the finder of the engine takes the boneyard's next tile",
           patches={"_draw": _finder_draws_replacement}),
    Mutant("rotate-start-finder-starts",
           "Under the rotating start the player who places the engine starts anyway",
           ("SEAT-3",), "_place_engine swapped: the holder starts under rotate",
           patches={"_place_engine": _rotate_finder_starts}),
    # first turn
    Mutant("starter-only-means-seat-0",
           "Under starter-opens-mexican the player at seat 0, not the round's starter, may "
           "open the Mexican Train during the first turns",
           ("FIRST-9",), "open_trains swapped: the starter read as seat 0",
           patches={"open_trains": _starter_is_seat_zero}),
    Mutant("end-chain-before-a-tile",
           "A first-turn chain may be ended before its first tile: the turn passes with no "
           "marker", ("FIRST-1", "FIRST-3"),
           "legal_actions swapped: end-chain offered at the start of a chain first turn",
           patches={"legal_actions": _end_chain_before_a_tile}),
    Mutant("chain-double-draws-for-cover",
           "A first-turn chain may not stop on a double it cannot cover: the player draws "
           "for a cover", ("FIRST-4", "FIRST-1", "FIRST-3"),
           "legal_actions swapped: end-chain replaced by draw after an uncoverable chain "
           "double", patches={"legal_actions": _chain_double_draws}),
    Mutant("chain-out-at-turn-end",
           "Going out on a first-turn chain is noticed only when the chain is ended",
           ("END-1",), "_play and perform swapped: the finish moved to end-chain",
           patches={"_play": _chain_out_at_turn_end, "perform": _out_when_chain_ends}),
    # doubles
    Mutant("single-start-duty-waits",
           "On a single-tile start an open double binds nobody until every first turn is "
           "over, as a chain double does", ("DBL-6", "FIRST-5"),
           "duties swapped: none while any first turn is to come, chain or not",
           patches={"duties": _duties_wait_for_first_turns}),
    Mutant("follow-double-ends-turn",
           "A double laid as the tile after a double ends the turn: it asks for no "
           "follow-up", ("DBL-1",), "_play swapped: the turn ends after a double in the "
           "follow phase", patches={"_play": _follow_double_ends_turn}),
    Mutant("restricted-follow-double-and-mexican-only",
           "Under the restricted follow-up the tile after a double may go only on that "
           "double or the Mexican Train, never on a train without an open double",
           ("DBL-3",), "playable_trains swapped: the free trains dropped in the follow phase",
           patches={"playable_trains": _restricted_to_double_and_mexican}),
    Mutant("cover-closes-oldest-double",
           "Covering any open double closes the oldest one instead: the list is popped "
           "from the front", ("TRAIN-3",),
           "_play swapped: the oldest open double removed in place of the one covered",
           patches={"_play": _cover_closes_oldest}),
    Mutant("cover-own-drawn-tile-anywhere",
           "Under the Wikipedia rule a tile drawn after failing to follow may go anywhere, "
           "not only on the double", ("DBL-4", "DBL-5"),
           "playable_trains swapped: follow-up anywhere after a draw under cover-own",
           patches={"playable_trains": _cover_own_drawn_anywhere}),
    Mutant("release-frees-newer-doubles",
           "Under release-uncoverable with the oldest first, a dead oldest double releases "
           "the newer open doubles too", ("DBL-9", "DBL-7"),
           "duties swapped: the oldest taken first, then dropped if dead",
           patches={"duties": _release_after_order}),
    Mutant("release-counts-thirteen",
           "A double is released once 13 tiles of its number are on the table, whatever "
           "the set", ("DBL-9",), "live swapped: a double is live while fewer than 13 "
           "tiles of its number are on the table", patches={"live": _live_below_thirteen}),
    Mutant("stays-open-releases",
           "Under stays-open an uncoverable double is released all the same",
           ("DBL-10",), "Rules.release_uncoverable forced true",
           rules=lambda r: r if r.release_uncoverable else dataclasses.replace(
               r, release_uncoverable=True)),
    # markers
    Mutant("marker-off-when-owner-draws",
           "Under owner-plays-own a marker comes off when its owner draws",
           ("MARK-3",), "_draw swapped: the drawer's marker comes off under owner-plays-own",
           patches={"_draw": _draw_lowers_marker}),
    Mutant("anyone-rule-owner-exempt",
           "Under anyone-plays-on the owner playing on their own train leaves the marker up",
           ("MARK-4",), "_play swapped: the owner's marker restored after a play on the "
           "own train", patches={"_play": _owner_exempt_under_anyone}),
    Mutant("owner-anywhere-not-other-trains",
           "Under owner-plays-anywhere the owner's marker stays when they play on another "
           "player's train", ("MARK-5",),
           "_play swapped: the owner's marker restored after a play on another's train",
           patches={"_play": _anywhere_but_marked_trains}),
    Mutant("cover-by-other-lowers-marker",
           "Under owner-plays-own another player covering a double on a marked train takes "
           "its marker off", ("MARK-3",),
           "_play swapped: a cover on another's train clears that train's marker",
           patches={"_play": _cover_lowers_owner_marker}),
    # turns and drawing
    Mutant("empty-boneyard-draw",
           "With the boneyard empty the player is offered draw, which passes",
           ("TURN-4",), "legal_actions and perform swapped: draw in place of the pass",
           patches={"legal_actions": _empty_boneyard_draw,
                    "perform": _draw_nothing_is_a_pass}),
    Mutant("empty-boneyard-pass-unmarked",
           "A pass with the boneyard empty leaves the marker down: there was nothing to draw",
           ("TURN-4", "MARK-1"), "perform swapped: the marker restored after a pass on an "
           "empty boneyard", patches={"perform": _empty_pass_unmarked}),
    Mutant("draw-pass-unmarked",
           "A pass after an unplayable drawn tile leaves the marker down",
           ("TURN-4", "MARK-1"), "perform swapped: the marker restored after a pass that "
           "follows a draw", patches={"perform": _draw_pass_unmarked}),
    Mutant("draw-until-playable-keeps-offering",
           "Under draw-until-playable the player may go on drawing after a playable tile",
           ("TURN-5", "TURN-3"), "legal_actions swapped: draw offered beside the drawn tile",
           patches={"legal_actions": _keep_drawing_offered}),
    # the end of a round
    Mutant("passes-one-short",
           "Under full-round-of-passes the round ends once every other player has passed",
           ("END-3",), "_check_blocked swapped: blocked at players - 1 passes",
           patches={"_check_blocked": _passes_one_short}),
    Mutant("blocked-checked-after-pass-only",
           "Under nobody-can-play a round is found blocked only after a pass, never after "
           "a play", ("END-2",), "_check_blocked swapped: skipped while no pass is counted",
           patches={"_check_blocked": _blocked_after_a_pass_only}),
    # scoring
    Mutant("blank-tile-flat-25",
           "Under blank-25 a tile with a blank is worth 25 in all, so [5-0] is 25, [0-0] 50",
           ("SCORE-2",), "Rules.value: 25 a blank tile, 50 the double blank",
           rules=_blank_tile_flat),
    Mutant("double-blank-50-with-blanks",
           "Under double-blank-50 every other blank end counts 25 too",
           ("SCORE-3",), "Rules.value of blank-25 under double-blank-50",
           rules=_double_blank_50_with_blanks),
    Mutant("double-blank-25-at-50",
           "Under double-blank-25 the [0-0] is worth 50", ("SCORE-4",),
           "Rules.value [0-0] = 50 under double-blank-25", rules=_double_blank_25_at_50),
    Mutant("positive-at-face-value",
           "Under positive scoring the winner collects the hands at face value, blanks "
           "penalised or not", ("SCORE-6", "SCORE-2", "SCORE-3", "SCORE-4"),
           "_finish swapped: tile values at face under positive scoring",
           patches={"_finish": _positive_at_face}),
    Mutant("positive-losers-pay",
           "Under positive scoring the other players also score their own hands",
           ("SCORE-6",), "_finish swapped: the losers' hands added to their totals",
           patches={"_finish": _positive_losers_pay}),
    # the match
    Mutant("last-round-not-totalled",
           "The last round's scores are not added to the match totals",
           ("MATCH-1",), "_finish swapped: the totals left alone in the last round",
           patches={"_finish": _last_round_not_totalled}),
    Mutant("last-round-out-uncounted",
           "Going out in the last round is not counted in the player's outs",
           ("MATCH-5",), "_finish swapped: the winner's outs left alone in the last round",
           patches={"_finish": _last_round_out_uncounted}),
    _EarlyEndMutant(
        "match-ends-a-round-early",
        "The match is over after N rounds: the [0-0] round is never reached",
        ("MATCH-1",), "winners: the match over once round N has ended",
        winners=deal_module.match_winners),
    Mutant("most-outs-then-lowest-seat",
           "Under tie-most-outs a tie left after the outs goes to the lowest seat",
           ("MATCH-5",), "winners: the first of the seats still tied",
           winners=_most_outs_then_lowest_seat),
    Mutant("tie-rule-ignored-under-positive",
           "Under positive scoring the tie rule is never applied: every tied player wins",
           ("MATCH-5", "MATCH-6"), "winners: the highest total, shared, under positive",
           winners=_ties_only_under_penalty),
)
"""The mutants of a first reading, written from the rules by an outside author's reading
(see the module)."""
