"""Rule bugs of a twenty-fourth reading, written where house-rule engines keep code of
their own and the corpus held least: positive scoring's collector, blocked rounds'
totals and SCORE-7's ties of three, END-3's count of passes, the engines of the later
rounds and the last one, FIRST-10 and TRAIN-7's "started" read as any train's, the draw
under draw-until-playable, the turn after a failed follow-up, DBL-13's layer, the order
of the turn's doubles, shared wins of three, and the smallest rows of four hand tables.

The scores: the collector of a positive round takes the largest hand only (SCORE-6); a
blocked round's scores written over the totals (MATCH-1); a SCORE-7 tie of three or more
zeroing the first two seats alone. The passes: the draw that empties the boneyard
counted as a pass too, and a round of passes counted from the starter's seat (END-3).
The engines: later rounds one double further down (ENG-1), and the last round's [0-0]
never reached (ENG-1 stopping at [1-1]). A started train: FIRST-10 and TRAIN-7 asking
whether any personal train holds a tile, not the mover's. The draw: draw-until-playable
drawing on past a tile that fits only another player's marked train (TURN-5). After a
failed follow-up the turn moved twice (SEAT-1), or END-2/END-3 not asked (the check
made at an ordinary pass only). DBL-13's double still binding its layer. The turn's
doubles kept newest first (DBL-3's first double, DBL-4's last). A shared win of three or
more naming nobody (MATCH-4). Hand tables: Fundex at 2 and 7 players, Celko's double-9
and double-15 and OurPastimes' double-15 tables at 2.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from mtrain.conformance.mutants import originals as ref
from mtrain.conformance.mutants.implementation import Mutant
from mtrain.conformance.mutants.outside import table_named, table_rows_changed
from mtrain.reference import deal as deal_module
from mtrain.reference import engine
from mtrain.reference.engine import BLOCKED, DRAW, ENGINE, FOLLOW, OVER, PASS, START, Action, State
from mtrain.reference.rules import Rules
from mtrain.spec import tiles as T

_match_winners = deal_module.match_winners
_open_trains = engine.open_trains
_live = engine.live


# --- scores ------------------------------------------------------------------------------


def _collector_takes_largest(state: State, end: str, winner: int) -> None:
    """SCORE-6's collector credited with the largest of the other hands, not their sum."""
    n = state.players
    values = [ref.hand_value(state, s) for s in range(n)]
    before = list(state.scores)
    ref.finish(state, end, winner)
    result = state.result
    if not state.rules.positive_scoring or winner < 0 or result is None:
        return
    scores = [0] * n
    scores[winner] = max(values)
    state.scores[:] = [b + s for b, s in zip(before, scores, strict=True)]
    state.result = result._replace(scores=tuple(scores))


def _blocked_overwrites_totals(state: State, end: str, winner: int) -> None:
    """A blocked round's scores written over the totals rather than added to them."""
    ref.finish(state, end, winner)
    if end == BLOCKED and state.result is not None:
        state.scores[:] = list(state.result.scores)


def _low_tie_first_two(state: State, end: str, winner: int) -> None:
    """SCORE-7's tie of three or more lowest hands: only the first two score 0."""
    n = state.players
    values = [ref.hand_value(state, s) for s in range(n)]
    low = ref.lowest_hands(state, values) if winner < 0 else []
    ref.finish(state, end, winner)
    result = state.result
    if (len(low) < 3 or result is None or state.rules.positive_scoring
            or not state.rules.blocked_low_wins):
        return
    scores = list(result.scores)
    for s in low[2:]:
        scores[s] = values[s]
        state.scores[s] += values[s]
    state.result = result._replace(scores=tuple(scores))


# --- END-3's passes ---------------------------------------------------------------------


def _emptying_draw_counts_pass(state: State) -> None:
    """Under full-round-of-passes the draw that takes the boneyard's last tile counts as
    a pass too."""
    searching = state.phase == ENGINE
    ref.draw(state)
    if not searching and not state.boneyard and state.rules.passes_end_round:
        state.passes += 1


def _passes_from_starter(state: State, action: Action) -> None:
    """END-3's round of passes counted from the starter's seat: the count starts again
    whenever the starter passes."""
    if (action.kind == "pass" and not state.boneyard and state.seat == state.starter
            and state.rules.passes_end_round):
        state.passes = 0
    ref.perform(state, action)


# --- the engines of the later rounds ---------------------------------------------------


def _later_engines_skip_one(rules: Rules, round_no: int) -> int:
    """ENG-1 past round 1 counted from N - round: round 2 plays [N-2-N-2], [N-1] never
    comes (the last rounds stay on [0-0])."""
    if round_no == 1:
        return rules.max_pip
    return max(0, rules.max_pip - round_no)


def _engines_stop_at_one(rules: Rules, round_no: int) -> int:
    """ENG-1's countdown stopped at [1-1]: the last round plays [1-1] again."""
    return max(1, rules.max_pip - (round_no - 1))


# --- a started train ----------------------------------------------------------------------


def _started_by_any_train(flag: Callable[[Rules], bool],
                          lifted: Callable[[Rules], Rules]) -> Callable[..., list[int]]:
    """open_trains with a "started train" rule (`flag`: FIRST-10's or TRAIN-7's) read as
    satisfied once any personal train holds a tile, not the mover's own: the rules
    `lifted` of it there."""
    def swapped(state: State, seat: int, all_marked: bool = False,
                first_turns_over: bool = False) -> list[int]:
        rules = state.rules
        trains = state.trains
        if (flag(rules) and not trains[seat]
                and any(trains[s] for s in range(state.players))):
            state.rules = lifted(rules)
            try:
                return _open_trains(state, seat, all_marked, first_turns_over)
            finally:
                state.rules = rules
        return _open_trains(state, seat, all_marked, first_turns_over)
    return swapped


def _own_train_mexican(rules: Rules) -> bool:
    return rules.own_train_mexican


def _own_train_mexican_lifted(rules: Rules) -> Rules:
    return dataclasses.replace(rules, own_train_mexican=False)


def _own_train_first(rules: Rules) -> bool:
    return rules.own_train_first


def _own_train_first_lifted(rules: Rules) -> Rules:
    return dataclasses.replace(rules, own_train_first=False)


# --- the draw -----------------------------------------------------------------------------


def _until_playable_own_trains(state: State) -> list[Action]:
    """Under draw-until-playable a drawn tile stops the drawing only if it fits the
    mover's own train or the Mexican Train: a fit on a marked train is drawn past."""
    found = ref.legal_actions(state)
    if state.drawn < 0 or state.phase != START or not state.rules.draw_until_playable:
        return found
    own = (state.seat, state.players)
    kept = [a for a in found if a.kind != "play" or a.train in own]
    if kept:
        return kept
    return [DRAW] if state.boneyard else [PASS]


# --- the turn after a failed follow-up -------------------------------------------------


def _follow_pass_moves_twice(state: State, action: Action) -> None:
    """A pass in a follow-up moves the turn on twice: once for the pass, once for the
    double's turn ending."""
    following = state.phase == FOLLOW
    ref.perform(state, action)
    if action.kind == "pass" and following and state.phase == START:
        state.seat = (state.seat + 1) % state.players


def _follow_pass_unchecked(state: State, action: Action) -> None:
    """END-2 and END-3 asked after an ordinary pass only: a failed follow-up on an empty
    boneyard hands the turn on without the check."""
    if action.kind != "pass" or state.phase != FOLLOW or state.boneyard:
        ref.perform(state, action)
        return
    state.markers |= 1 << state.seat  # the pass's marker and count, as perform makes them
    state.passes += 1
    state.boneyard.append(0)  # a boneyard that is not empty: _end_turn asks nothing
    try:
        ref.end_turn(state)
    finally:
        state.boneyard.pop()


# --- the doubles --------------------------------------------------------------------------


def _released_binds_layer(state: State, first_turns_over: bool = False) -> list[int]:
    """DBL-13 read as releasing a double to the others only: its layer must still cover
    it on their next turn."""
    found = ref.duties(state, first_turns_over)
    seat = state.seat
    if (found or seat not in state.open_doubles or seat in state.turn_doubles
            or (state.first_pending and not first_turns_over
                and state.rules.chain_first_turn)):
        return found
    if state.rules.release_after_turn and _live(state, seat):
        return [seat]
    return found


def _turn_doubles_newest_first(state: State, tile: int, train: int) -> None:
    """The turn's doubles kept newest first: DBL-3's first double is read as the last,
    DBL-4's last as the first."""
    ref.play(state, tile, train)
    turn = state.turn_doubles
    if (T.IS_DOUBLE[tile] and state.phase != OVER and len(turn) > 1 and turn[-1] == train
            and not state.rules.ordinary_doubles):
        turn.insert(0, turn.pop())


# --- the match's winners -----------------------------------------------------------------


def _three_way_tie_nobody(state: State) -> list[int]:
    """MATCH-4's shared win known for two players: three or more on the winning total
    name nobody."""
    found = _match_winners(state)
    return [] if len(found) >= 3 else found


TWENTY_FOURTH_READING: tuple[Mutant, ...] = (
    Mutant("mut24-collector-takes-largest-hand",
           "Under positive scoring the player who goes out scores the largest of the other "
           "hands, not their sum", ("SCORE-6",),
           "_finish swapped: the winner's score max(hand values)",
           patches={"_finish": _collector_takes_largest}),
    Mutant("mut24-blocked-round-overwrites-totals",
           "A blocked round's scores replace the match totals instead of being added to them",
           ("MATCH-1", "END-2"), "_finish swapped: totals = round scores after a blocked round",
           patches={"_finish": _blocked_overwrites_totals}),
    Mutant("mut24-blocked-winner-tie-first-two",
           "Under penalty-blocked-winner a tie of three or more lowest hands zeroes only the "
           "first two", ("SCORE-7",),
           "_finish swapped: the third and later tied seats score their hands",
           patches={"_finish": _low_tie_first_two}),
    Mutant("mut24-emptying-draw-counts-a-pass",
           "Under full-round-of-passes the draw that empties the boneyard counts as a pass",
           ("END-3", "TURN-2"), "_draw swapped: passes + 1 when the boneyard empties",
           patches={"_draw": _emptying_draw_counts_pass}),
    Mutant("mut24-passes-counted-from-starter",
           "Under full-round-of-passes the count of passes starts again whenever the "
           "round's starter passes", ("END-3",),
           "perform swapped: passes = 0 before the starter's pass",
           patches={"perform": _passes_from_starter}),
    Mutant("mut24-later-engines-skip-one",
           "Past round 1 the engine is [N-r] for round r: the double below the top is "
           "never played", ("ENG-1",), "engine_number swapped: N - round past round 1",
           patches={"engine_number": _later_engines_skip_one}),
    Mutant("mut24-last-round-engine-stops-at-one",
           "The engines count down to [1-1] only: the last round plays [1-1] again, never "
           "[0-0]", ("ENG-1", "MATCH-1"), "engine_number swapped: max(1, N - (round - 1))",
           patches={"engine_number": _engines_stop_at_one}),
    Mutant("mut24-own-train-started-by-any-train",
           "Under own-train-started the Mexican Train may be opened once any personal "
           "train holds a tile", ("FIRST-10",),
           "open_trains swapped: own_train_mexican off once some personal train is started",
           patches={"open_trains": _started_by_any_train(_own_train_mexican,
                                                           _own_train_mexican_lifted)}),
    Mutant("mut24-own-train-first-by-any-train",
           "Under own-train-first a player may play elsewhere once any personal train "
           "holds a tile", ("TRAIN-7",),
           "open_trains swapped: own_train_first off once some personal train is started",
           patches={"open_trains": _started_by_any_train(_own_train_first,
                                                           _own_train_first_lifted)}),
    Mutant("mut24-until-playable-draws-past-marked-fit",
           "Under draw-until-playable a drawn tile that fits only another player's marked "
           "train is drawn past", ("TURN-5", "TRAIN-4"),
           "legal_actions swapped: a drawn tile's plays off the own and Mexican trains "
           "dropped", patches={"legal_actions": _until_playable_own_trains}),
    Mutant("mut24-follow-pass-moves-turn-twice",
           "After a failed follow-up the turn skips the next player",
           ("SEAT-1", "DBL-5"), "perform swapped: seat + 1 again after a follow-up's pass",
           patches={"perform": _follow_pass_moves_twice}),
    Mutant("mut24-blocked-unchecked-after-follow-pass",
           "With the boneyard empty a failed follow-up hands the turn on without asking "
           "whether the round is blocked", ("END-2", "END-3", "DBL-5"),
           "perform swapped: _end_turn's check skipped after a follow-up's pass",
           patches={"perform": _follow_pass_unchecked}),
    Mutant("mut24-released-double-binds-layer",
           "Under released-after-layers-turn a double left open still obliges its layer "
           "on their next turn", ("DBL-13", "DBL-6"),
           "duties swapped: the mover's own open double of an earlier turn kept as a duty",
           patches={"duties": _released_binds_layer}),
    Mutant("mut24-turn-doubles-newest-first",
           "The doubles laid in a turn are kept newest first: the first double of the turn "
           "is read as the last", ("DBL-3", "DBL-4"),
           "_play swapped: a turn's new double inserted at the front of turn_doubles",
           patches={"_play": _turn_doubles_newest_first}),
    Mutant("mut24-three-way-tie-nobody-wins",
           "Three or more players sharing the winning total are named no winner",
           ("MATCH-4", "MATCH-2"), "winners: [] when three or more remain tied",
           winners=_three_way_tie_nobody),
    Mutant("mut24-fundex-two-take-16",
           "The Fundex table's 2-player row read as 16 tiles, not 15", ("DEAL-6",),
           "Rules.ruleset.hand_table 2 -> 16 under fundex",
           rules=table_rows_changed(table_named("fundex"), {2: 16})),
    Mutant("mut24-fundex-seven-take-11",
           "The Fundex table's 5-6 row stretched to 7 players: 7 players take 11, not 8",
           ("DEAL-6",), "Rules.ruleset.hand_table 7 -> 11 under fundex",
           rules=table_rows_changed(table_named("fundex"), {7: 11})),
    Mutant("mut24-celko-d9-two-take-10",
           "Celko's double-9 table gives 2 players 10 tiles, not 9", ("DEAL-13",),
           "Rules.ruleset.hand_table 2 -> 10 under celko-d9",
           rules=table_rows_changed(table_named("celko-d9"), {2: 10})),
    Mutant("mut24-celko-d15-two-take-16",
           "Celko's double-15 table gives 2 players 16 tiles, not 15", ("DEAL-14",),
           "Rules.ruleset.hand_table 2 -> 16 under celko-d15",
           rules=table_rows_changed(table_named("celko-d15"), {2: 16})),
    Mutant("mut24-ourpastimes-d15-two-take-16",
           "OurPastimes' double-15 table gives 2 players 16 tiles, not 15", ("DEAL-9",),
           "Rules.ruleset.hand_table 2 -> 16 under ourpastimes-d15",
           rules=table_rows_changed(table_named("ourpastimes-d15"), {2: 16})),
)
"""The twenty-fourth reading: 20 rule bugs, none a mutant of the catalogue (names,
descriptions and what each changes checked against the twenty-three readings before it;
the nearest are other slips: totals-overwritten-each-round overwrites every round's
totals, mut24-blocked-round-overwrites-totals a blocked round's alone;
blocked-winner-tie-scores-nobody and mut20-blocked-winner-tie-to-first-seat read SCORE-7's
ties of two, mut24-blocked-winner-tie-first-two one of three; last-draw-pass-uncounted
drops the pass after the last draw, mut24-emptying-draw-counts-a-pass counts the draw too;
last-round-engine-falsy plays [N-N] in the last round, mut24-last-round-engine-stops-at-one
[1-1]; mut16-shared-win-two-at-most and everyone-tied-nobody-wins keep two of a tie or
drop one of the whole table, mut24-three-way-tie-nobody-wins drops any tie of three;
mut18-until-playable-stops-at-closed-fit stops at a tile that fits nowhere open,
mut24-until-playable-draws-past-marked-fit draws past one that fits a marked train;
restricted-follow-last-double reads DBL-3's first double as the last,
mut24-turn-doubles-newest-first keeps the whole list backwards, DBL-4 and the state too).

Written and not kept. Equivalent to the reference: the passes set back by the draw that
empties the boneyard (END-3 counts passes on an empty boneyard only, so before that draw
the count was 0 already); MATCH-6's lowest seat sought among the first two tied (the
first tied seat is the lowest); SCORE-6's collector adding its own hand (it is empty).
Not expressible: a marker kept as a count, so that a pass by a marked player puts up a
second one a play takes down only once (the protocol's state writes a marker as a flag:
the count is lost between calls), and the outs set back at each deal (the protocol's
deal is not given the outs; the harness carries them).

Measured on the corpus before any fixture was added for them (2026-12-06, `mtrain
mutants -m mut24-... --need 2`, 2,894 passing runs): 17 of 20 killed, the fewest killers
0; the three survivors wanted tables the corpus lacked: a SCORE-7 tie of three lowest
hands, a failed follow-up on an empty boneyard that leaves nobody able to play, and a
layer's own double of an earlier turn under released-after-layers-turn; the draw that
empties the boneyard under full-round-of-passes was caught once (end-017). With the four
fixtures of conformance/fixtures/mutants/twenty-fourth-reading.yaml and the seventeen
s53 scenarios (sets/thin-corners-session53.yaml), all worked by hand, every one is killed
by two fixtures or more (2,915 runs). Blame (`--blame`) charges 19 of 20 to a clause they
break; the other (tests/test_blame.py): three or more on the winning total named no
winner is charged MATCH-1 (17 of 17), as everyone-tied-nobody-wins is."""
