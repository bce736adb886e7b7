"""Rule bugs of a tenth outside reading: written from shared/RULES.md and the clauses
(docs/rules/), aimed at what the nine readings before it touch least, counted over the
catalogue (402 mutants) per clause, per option value and per hand-table row: the duty to
play where a rule seems to offer a choice (TURN-1, three mutants before it, beside
FIRST-3's mark, DBL-1's follow-up and DBL-8's "may cover any one"), DBL-8, FIRST-8, ENG-3,
SCORE-1 and MATCH-3 (two each before it), MATCH-2, MARK-2, TRAIN-3 and TURN-6 (three
each), a turn's state carried past its end, seats past eight, and the rows of the hand
tables still untouched (pagat's 3 and 6, Cardinal's 2, Fundex's 3, billhathaway.com's 4,
Celko's double-15 5, ourpastimes' double-15 8). Each is a slip an engine author makes:
"may" read as a permission, a list entry not removed, a field not reset, a bit mask one
byte wide, a train number taken mod n, round scores for totals, a row copied from the
table beside it.

The house-rule engines (an option played `other`, a table of one's own) were read too:
for every mutant, which of its killers still apply when an option whose clauses it does
not break is `other` (an entry applies when a product of its scope leaves the option
free). Most gaps are where every fixture that could tell reads the option: END-1 and the
MATCH rules are checked through a round's result, which reads `scoring` and
`match_length`; a deal through its hands, which reads `hand_sizes` and the start rules.
Of this reading's mutants, follow-failure-drops-double was caught by one killer alone
under `draw_rule: other` (the others draw before they pass), hence follow10-001, which
passes on an empty boneyard; the markers of seats 8 and 9 (bytemark-001, -002) are
checked under a table of one's own that deals 10 players (their scope lists `custom`).

Set aside on reading, each for the reason given:
- DEAL-8 read with `<` (a row whose hands, with the engine set aside, fill the set
  refused) and DEAL-10 ignored (a double-15 rule set dealt by DEAL-9's table though its
  file gives one of its own): no table the shipped corpus can name has such a row or is
  a double-15 table of one's own (spec/data/rulesets: double-6 and double-18 only), so
  no fixture can tell either from the reference; a fixture naming a rule-set file of
  its own can, outside the shipped corpus. Measured (2026-12-05, both built as rules
  hooks and played with runs.py's `_kills` over the corpus's 2,082 passing runs):
  neither changes the engine under any rule set a run names, so no run reaches them and
  none kills them.
- SET-2 to SET-5 written out wrong: as the eighth reading says, the engine takes a set's
  size from its highest number (SET-1); a wrong size is one bug for every set.
"""

from __future__ import annotations

from mtrain.conformance.mutants import originals as ref
from mtrain.conformance.mutants.implementation import Mutant
from mtrain.conformance.mutants.outside import table_named, table_rows_changed
from mtrain.reference import deal as deal_module
from mtrain.reference.engine import CHAIN, FOLLOW, OVER, PASS, START, Action, State
from mtrain.reference.rules import MARKER_ANYONE_ON
from mtrain.spec import tiles as T

_match_winners = deal_module.match_winners  # bound before any swap (originals.py's way)


# --- the duty to play, where a rule seems to offer a choice ------------------------------


def _first_turn_may_decline(state: State) -> list[Action]:
    """TURN-1 under FIRST-3: a player on a first-turn chain who could start it may put up
    their marker instead (FIRST-3's mark read as a choice, not as what follows from
    having no tile)."""
    out = ref.legal_actions(state)
    if (state.phase == START and out and out[-1].kind == "play"
            and ref.chain_start(state)):
        return [*out, PASS]
    return out


def _follow_up_optional(state: State) -> list[Action]:
    """DBL-1 read as a permission: a player who laid a double and can play the tile it
    asks for may pass instead, marker up, leaving the double open."""
    out = ref.legal_actions(state)
    if state.phase == FOLLOW and out and out[-1].kind == "play":
        return [*out, PASS]
    return out


def _any_open_optional(state: State) -> list[int]:
    """DBL-8's 'may cover any one of them' read as a permission once several doubles
    bind: the player may cover one, or play where an ordinary turn allows."""
    out = ref.playable_trains(state)
    if state.phase != START or state.rules.oldest_first:
        return out
    due = ref.duties(state)
    if len(due) < 2 or out != due:
        return out
    return due + [t for t in ref.open_trains(state, state.seat) if t not in due]


# --- a list entry not removed, a field not reset --------------------------------------------


def _chain_cover_kept_in_turn(state: State, tile: int, train: int) -> None:
    """TRAIN-3 inside a chain: covering a double laid in the chain takes it off the open
    doubles but not off the turn's, so FIRST-4 still holds the chain open while a tile
    fits that train."""
    held = state.phase == CHAIN and train in state.turn_doubles
    ref.play(state, tile, train)
    if held and state.phase == CHAIN and train not in state.turn_doubles:
        state.turn_doubles.append(train)


def _drawn_kept_after_pass(state: State, action: Action) -> None:
    """TURN-6 without resetting the drawn tile: a pass after an unplayable draw leaves it
    as the drawn tile of the next player's turn."""
    drawn = state.drawn
    ref.perform(state, action)
    if action.kind == "pass" and drawn >= 0 and state.phase == START:
        state.drawn = drawn


def _follow_failure_drops_double(state: State, action: Action) -> None:
    """DBL-5 without 'the double stays open': a player who fails to follow their double
    passes, and the doubles of their turn leave the list of open doubles."""
    if action.kind == "pass" and state.phase == FOLLOW:
        for t in state.turn_doubles:
            if t in state.open_doubles:
                state.open_doubles.remove(t)
    ref.perform(state, action)


def _placing_is_first_turn(state: State, holder: int) -> None:
    """ENG-3 read as a play: a holder who places the engine (or its finder) has had their
    first turn; under engine-holder-start they begin with an ordinary turn."""
    ref.place_engine(state, holder)
    rules = state.rules
    if holder >= 0 and rules.holder_lays and rules.engine_holder_starts:
        state.first_pending &= ~(1 << holder)


# --- numbers: a byte of markers, a train mod n ----------------------------------------------


def _markers_in_a_byte(state: State, action: Action) -> None:
    """MARK-1 with the markers in eight bits (puremco's eight players at most): a marker
    of seat 8 or 9 is lost with the next action."""
    ref.perform(state, action)
    state.markers &= 0xFF


def _mexican_play_lowers_seat_zero(state: State, tile: int, train: int) -> None:
    """MARK-4 with the train's owner taken as `train mod n`: under anyone-plays-on a play
    on the Mexican Train (train n) takes seat 0's marker off."""
    ref.play(state, tile, train)
    if (train == state.players and state.phase != OVER
            and state.rules.marker_rule == MARKER_ANYONE_ON):
        state.markers &= ~1


def _opens_in_first_turns_only(state: State) -> list[int]:
    """FIRST-8's 'at once' read as 'only then': under mexican_first_turn anyone an empty
    Mexican Train may be opened during the first turns, and stays closed after them."""
    out = ref.playable_trains(state)
    mex = state.players
    rules = state.rules
    if (state.first_pending or state.trains[mex] or mex not in out
            or (rules.chain_first_turn and not rules.chain_anywhere)
            or rules.ruleset["mexican_first_turn"] != "anyone"):
        return out
    return [t for t in out if t != mex]


# --- scores and winners ----------------------------------------------------------------------


def _doubles_one_end(state: State, seat: int) -> int:
    """SCORE-1 with a double worth its number ([6-6] is 6, 'the double six'), not the sum
    of its pips; [0-0] keeps its value under every blank rule."""
    value = ref.hand_value(state, seat)
    for t in T.tiles_of(state.hands[seat]):
        if T.IS_DOUBLE[t]:
            value -= T.HIGH[t]
    return value


def _winners_by_last_round(st: State) -> list[int]:
    """MATCH-2 and MATCH-3 read off the last round's scores, not the running totals."""
    last = st.copy()
    assert st.result is not None  # the match is over (MutantImplementation.winners)
    last.scores = list(st.result.scores)
    return _match_winners(last)


TENTH_READING: tuple[Mutant, ...] = (
    # the duty to play
    Mutant("first-turn-may-decline",
           "A player who could start their first-turn chain may put up their marker "
           "instead", ("TURN-1", "FIRST-3", "FIRST-1"),
           "legal_actions swapped: pass offered beside the plays that start a chain",
           patches={"legal_actions": _first_turn_may_decline}),
    Mutant("follow-up-optional",
           "A player who laid a double may pass, marker up, instead of the tile it asks for",
           ("DBL-1", "TURN-1", "DBL-5"),
           "legal_actions swapped: pass offered beside the follow-up's plays",
           patches={"legal_actions": _follow_up_optional}),
    Mutant("any-open-optional-when-several",
           "Under any-open-double a player bound by several open doubles may cover one or "
           "play where an ordinary turn allows", ("DBL-8", "DBL-6", "TURN-1"),
           "playable_trains swapped: the open trains added to two duties or more",
           patches={"playable_trains": _any_open_optional}),
    # a list entry not removed, a field not reset
    Mutant("chain-cover-kept-in-turn",
           "A double covered inside a first-turn chain stays among the turn's doubles: the "
           "chain may not end while a tile fits that train", ("TRAIN-3", "FIRST-4", "DBL-1"),
           "_play swapped: a covered chain double put back among the turn's doubles",
           patches={"_play": _chain_cover_kept_in_turn}),
    Mutant("drawn-tile-kept-after-pass",
           "A pass after an unplayable draw leaves the drawn tile set: the next player may "
           "play only a tile they do not hold", ("TURN-6", "TURN-3", "TURN-4"),
           "perform swapped: drawn kept across a pass",
           patches={"perform": _drawn_kept_after_pass}),
    Mutant("follow-failure-drops-double",
           "A player who fails to follow their double passes and the double leaves the "
           "open doubles: nobody has to cover it", ("DBL-5", "DBL-6"),
           "perform swapped: a pass in the follow-up removes the turn's doubles",
           patches={"perform": _follow_failure_drops_double}),
    Mutant("placing-engine-is-first-turn",
           "Under engine-holder-start placing the engine counts as its placer's first "
           "turn: they begin with an ordinary turn", ("ENG-3", "FIRST-6", "SEAT-2"),
           "_place_engine swapped: the placer's first turn cleared",
           patches={"_place_engine": _placing_is_first_turn}),
    # numbers
    Mutant("markers-in-a-byte",
           "Markers are kept in eight bits: seats 8 and 9 lose their marker with the next "
           "action", ("MARK-1", "TURN-4"), "perform swapped: markers masked to 0xFF",
           patches={"perform": _markers_in_a_byte}),
    Mutant("mexican-play-lowers-seat-0-marker",
           "Under anyone-plays-on a play on the Mexican Train takes the marker off seat 0's "
           "train (train n read mod n)", ("MARK-4", "MARK-2"),
           "_play swapped: seat 0's marker off after a Mexican play under anyone-plays-on",
           patches={"_play": _mexican_play_lowers_seat_zero}),
    Mutant("mexican-opens-in-first-turns-only",
           "Where anyone may open the Mexican Train at once, an empty one may not be opened "
           "once the first turns are over", ("FIRST-8", "TRAIN-5"),
           "playable_trains swapped: an empty Mexican Train dropped after the first turns",
           patches={"playable_trains": _opens_in_first_turns_only}),
    # scores and winners
    Mutant("doubles-count-one-end",
           "A double left in hand is worth its number, not its pips: [6-6] counts 6",
           ("SCORE-1", "SCORE-5", "SCORE-6"),
           "hand_value swapped: each double's high end taken off",
           patches={"hand_value": _doubles_one_end}),
    Mutant("winners-by-last-round",
           "The match's winner is read off the last round's scores, not the running totals",
           ("MATCH-2", "MATCH-3", "MATCH-1"),
           "winners hook: match_winners over the last round's scores",
           winners=_winners_by_last_round),
    # hand tables: rows still untouched
    Mutant("pagat-six-take-10",
           "pagat's table gives 6 players the 10 tiles of 7 and 8, not 12", ("DEAL-2",),
           "Rules.ruleset.hand_table 6 -> 10 under pagat",
           rules=table_rows_changed(table_named("pagat"), {6: 10})),
    Mutant("pagat-three-take-16",
           "pagat's table gives 3 players puremco's 16 tiles, not 15", ("DEAL-2",),
           "Rules.ruleset.hand_table 3 -> 16 under pagat",
           rules=table_rows_changed(table_named("pagat"), {3: 16})),
    Mutant("cardinal-two-take-16",
           "Cardinal's table gives 2 players puremco's 16 tiles, not 15", ("DEAL-5",),
           "Rules.ruleset.hand_table 2 -> 16 under cardinal",
           rules=table_rows_changed(table_named("cardinal"), {2: 16})),
    Mutant("fundex-three-take-16",
           "The Fundex table gives 3 players puremco's 16 tiles, not 15", ("DEAL-6",),
           "Rules.ruleset.hand_table 3 -> 16 under fundex",
           rules=table_rows_changed(table_named("fundex"), {3: 16})),
    Mutant("hathaway-four-take-14",
           "The billhathaway.com table gives 4 players the Good Sam 14 tiles, not 15",
           ("DEAL-16",), "Rules.ruleset.hand_table 4 -> 14 under hathaway",
           rules=table_rows_changed(table_named("hathaway"), {4: 14})),
    Mutant("celko-d15-five-take-12",
           "Celko's double-15 table gives 5 players ourpastimes' 12 tiles, not 15",
           ("DEAL-14",), "Rules.ruleset.hand_table 5 -> 12 under celko-d15",
           rules=table_rows_changed(table_named("celko-d15"), {5: 12})),
    Mutant("d15-eight-take-13",
           "The double-15 table of ourpastimes gives 8 players Celko's 13 tiles, not 11",
           ("DEAL-9",), "Rules.ruleset.hand_table 8 -> 13 under ourpastimes-d15",
           rules=table_rows_changed(table_named("ourpastimes-d15"), {8: 13})),
)
"""The tenth reading: 19 rule bugs, none a mutant of the catalogue (names and descriptions
checked against the nine readings before it).

Measured on the corpus before any fixture was added for them (2026-12-05, `mtrain mutants
-m NAME ... -j 2`, 2,076 passing runs): 17 killed, two survived (markers-in-a-byte: no
fixture showed the marker of seat 8 or 9 after an action; hathaway-four-take-14: no
fixture dealt that table to 4 players); the fewest killers among the rest two
(d15-eight-take-13). With the fixtures worked by hand from the clauses
(seats/markers-tenth-reading.yaml bytemark-001, -002; deal/rows-tenth-reading.yaml
rows10-001, -002; and, for an engine with a draw rule of its own,
doubles/follow-tenth-reading.yaml follow10-001) every one is killed by two fixtures or
more (2,082 runs before follow10-001), and blame charges all 19 to a clause they
break."""
