"""The catalogue: every mutant by name, with what it gets wrong, the clauses it breaks, and
how it is built (a rules flag changed, engine functions swapped, or JSON post-processed).
"""

from __future__ import annotations

import dataclasses
import difflib
from collections.abc import Callable, Sequence
from typing import Any

from mtrain.conformance.adapter import Implementation
from mtrain.conformance.mutants import faults_end as end
from mtrain.conformance.mutants import faults_play as play
from mtrain.conformance.mutants.eighteenth_reading import EIGHTEENTH_READING
from mtrain.conformance.mutants.eighth_reading import EIGHTH_READING
from mtrain.conformance.mutants.eleventh_reading import ELEVENTH_READING
from mtrain.conformance.mutants.fifteenth_reading import FIFTEENTH_READING
from mtrain.conformance.mutants.fifth_reading import FIFTH_READING
from mtrain.conformance.mutants.fourteenth_reading import FOURTEENTH_READING
from mtrain.conformance.mutants.fourth_reading import FOURTH_READING
from mtrain.conformance.mutants.implementation import Mutant, RulesHook
from mtrain.conformance.mutants.nineteenth_reading import NINETEENTH_READING
from mtrain.conformance.mutants.ninth_reading import NINTH_READING
from mtrain.conformance.mutants.outside import OUTSIDE
from mtrain.conformance.mutants.second_reading import SECOND_READING
from mtrain.conformance.mutants.seventeenth_reading import SEVENTEENTH_READING
from mtrain.conformance.mutants.seventh_reading import SEVENTH_READING
from mtrain.conformance.mutants.sixteenth_reading import SIXTEENTH_READING
from mtrain.conformance.mutants.sixth_reading import SIXTH_READING
from mtrain.conformance.mutants.tenth_reading import TENTH_READING
from mtrain.conformance.mutants.third_reading import THIRD_READING
from mtrain.conformance.mutants.thirteenth_reading import THIRTEENTH_READING
from mtrain.conformance.mutants.thirtieth_reading import THIRTIETH_READING
from mtrain.conformance.mutants.thirty_fifth_reading import THIRTY_FIFTH_READING
from mtrain.conformance.mutants.thirty_first_reading import THIRTY_FIRST_READING
from mtrain.conformance.mutants.thirty_fourth_reading import THIRTY_FOURTH_READING
from mtrain.conformance.mutants.thirty_second_reading import THIRTY_SECOND_READING
from mtrain.conformance.mutants.thirty_third_reading import THIRTY_THIRD_READING
from mtrain.conformance.mutants.twelfth_reading import TWELFTH_READING
from mtrain.conformance.mutants.twentieth_reading import TWENTIETH_READING
from mtrain.conformance.mutants.twenty_eighth_reading import TWENTY_EIGHTH_READING
from mtrain.conformance.mutants.twenty_fifth_reading import TWENTY_FIFTH_READING
from mtrain.conformance.mutants.twenty_first_reading import TWENTY_FIRST_READING
from mtrain.conformance.mutants.twenty_fourth_reading import TWENTY_FOURTH_READING
from mtrain.conformance.mutants.twenty_ninth_reading import TWENTY_NINTH_READING
from mtrain.conformance.mutants.twenty_second_reading import TWENTY_SECOND_READING
from mtrain.conformance.mutants.twenty_seventh_reading import TWENTY_SEVENTH_READING
from mtrain.conformance.mutants.twenty_sixth_reading import TWENTY_SIXTH_READING
from mtrain.conformance.mutants.twenty_third_reading import TWENTY_THIRD_READING
from mtrain.reference.rules import (
    FOLLOW_ANYWHERE,
    FOLLOW_COVER_OWN,
    FOLLOW_RESTRICTED,
    MARKER_ANYONE_ON,
    MARKER_OWNER_ANYWHERE,
    MARKER_OWNER_OWN,
    Rules,
)
from mtrain.spec.errors import InputError, shown


def _when(test: Callable[[Rules], bool], **changes: Any) -> RulesHook:
    """A rules hook: change these flags, but only in rule sets where `test` holds."""
    def hook(rules: Rules) -> Rules:
        return dataclasses.replace(rules, **changes) if test(rules) else rules
    return hook


def _owner_own(r: Rules) -> bool:
    return r.marker_rule == MARKER_OWNER_OWN


_CATALOGUE: tuple[Mutant, ...] = (
    # deal and seats
    Mutant("wrong-engine-double",
           "The engine is always the set's highest double: later rounds are not lowered",
           ("ENG-1",), "engine_number swapped (engine, deal, codec) for one returning N",
           patches={"engine_number": play.engine_always_top}),
    Mutant("wrong-hand-size",
           "pagat hand sizes with the 2-4 row running to 5 players: 5 players are dealt 15",
           ("DEAL-2",), "Rules.ruleset.hand_table with 5 -> 15 under the pagat table",
           rules=play.pagat_five_takes_fifteen),
    Mutant("engine-not-set-aside",
           "Under set-aside the engine is still searched for in the hands, so players draw for it",
           ("ENG-2",), "deal output turned into the 'engine' phase under set-aside",
           post_deal=play.engine_searched_for),
    Mutant("holder-draws-no-replacement",
           "Under engine-holder-draws the holder places the engine and draws nothing",
           ("ENG-5",), "Rules.holder_draws forced false",
           rules=_when(lambda r: r.holder_draws, holder_draws=False)),
    Mutant("engine-holder-not-starting",
           "The player who placed the engine does not start: the start rotates instead",
           ("SEAT-2",), "Rules.engine_holder_starts forced false",
           rules=_when(lambda r: r.engine_holder_starts, engine_holder_starts=False)),
    Mutant("after-engine-start-ignored",
           "Under after-engine-start the start rotates instead of going to the seat after the "
           "engine's holder",
           ("SEAT-4",), "Rules.after_engine_starts forced false",
           rules=_when(lambda r: r.after_engine_starts, after_engine_starts=False)),
    Mutant("highest-draw-ignored",
           "Under highest-draw-start the draw is not read: the start rotates from seat 0",
           ("SEAT-5",), "Rules.highest_draw_starts forced false",
           rules=_when(lambda r: r.highest_draw_starts, highest_draw_starts=False)),
    Mutant("draw-tie-to-lowest-seat",
           "Under highest-draw-start nobody draws again: of the seats tied on the highest "
           "total, the lowest wins the draw",
           ("SEAT-5",), "draw_winner swapped: the first drawing alone decides",
           patches={"draw_winner": play.draw_ties_to_lowest_seat}),
    Mutant("draw-winner-starts-every-round",
           "Under highest-draw-start the draw's winner starts every round: the start does "
           "not move on",
           ("SEAT-5",), "deal output's seat and starter moved back by round - 1",
           post_deal=play.draw_winner_starts_every_round),
    Mutant("engine-search-ignores-draw",
           "Under highest-draw-start the search for the engine and the designation begin at "
           "seat (round - 1) mod n, not at the round's first seat from the draw",
           ("SEAT-5",), "deal output in the 'engine' phase gets seat (round - 1) mod n; "
           "_engine_from_deal swapped: the designation from that seat",
           patches={"_engine_from_deal": play.designation_ignores_draw},
           post_deal=play.search_ignores_draw),
    Mutant("heaviest-start-ignored",
           "Under heaviest-in-hand-start the hands are not read: the start rotates",
           ("SEAT-6",), "Rules.heaviest_tile_starts forced false",
           rules=_when(lambda r: r.heaviest_tile_starts, heaviest_tile_starts=False)),
    Mutant("heaviest-by-high-end",
           "Under heaviest-in-hand-start the heaviest tile is taken by its higher end first "
           "([9-0] before [8-7]), not by its pip total",
           ("SEAT-6",), "deal output's seat and starter moved to the holder of the tile "
           "highest by (high end, low end)",
           post_deal=play.heaviest_by_high_end),
    Mutant("heaviest-tie-to-double",
           "Under heaviest-in-hand-start a double beats a tile of the same total ([6-6] "
           "before [8-4]) instead of the higher end deciding",
           ("SEAT-6",), "deal output's seat and starter moved to the holder of the tile "
           "highest by (total, double, high end)",
           post_deal=play.heaviest_tie_to_double),
    Mutant("start-does-not-rotate",
           "Every round starts at seat 0 instead of seat (round - 1) mod n",
           ("SEAT-3",), "_place_engine swapped: the starter is reset to seat 0 under rotate",
           patches={"_place_engine": play.place_engine_seat_zero}),
    Mutant("start-rotates-off-by-one",
           "The rotating start counts from round 0: round r starts at seat r mod n",
           ("SEAT-3",), "_place_engine swapped: the starter is seat round mod n under rotate",
           patches={"_place_engine": play.rotate_off_by_one}),
    Mutant("engine-search-from-seat-0",
           "Drawing for a missing engine always starts at seat 0, whatever the round",
           ("ENG-4",), "deal output in the 'engine' phase gets seat and starter 0",
           post_deal=play.search_from_seat_zero),
    Mutant("engine-finder-does-not-start",
           "The search loop moves on a seat before checking the draw: the finder's left-hand "
           "neighbour starts",
           ("ENG-4", "SEAT-2"), "_draw swapped: after the engine is found the seat advances",
           patches={"_draw": play.draw_finder_moves_on}),
    Mutant("engine-search-drops-tiles",
           "Tiles drawn while searching for the engine are laid aside, not kept in hand",
           ("ENG-4",), "_draw swapped: a search draw that is not the engine leaves the "
           "table", patches={"_draw": play.search_drops_tiles}),
    Mutant("everyone-draws-stops-at-engine",
           "Under engine-everyone-draws the search stops as soon as the engine is drawn, the "
           "lap unfinished",
           ("ENG-6",), "Rules.everyone_draws forced false",
           rules=_when(lambda r: r.everyone_draws, everyone_draws=False)),
    Mutant("engine-lap-closer-places",
           "Under engine-everyone-draws the seat that ends the lap is taken for the engine's "
           "holder: it chooses who starts",
           ("ENG-6",), "_draw_in_lap swapped: the engine placed as if by the lap's last drawer",
           patches={"_draw_in_lap": play.lap_closer_places_engine}),
    Mutant("highest-double-ignored",
           "Under engine-highest-double the engine is still the round's double (ENG-1), "
           "searched for when nobody holds it",
           ("ENG-7",), "Rules.engine_by_deal forced false",
           rules=_when(lambda r: r.engine_by_deal, engine_by_deal=False)),
    Mutant("lowest-double-is-engine",
           "Under engine-highest-double the lowest double held is taken for the engine",
           ("ENG-7",), "_engine_from_deal swapped: the lowest double held, not the highest",
           patches={"_engine_from_deal": play.lowest_double_is_engine}),
    Mutant("designated-opens-ignored",
           "Under engine-designated-opens the highest double anyone holds opens, not the "
           "designated player's",
           ("ENG-8",), "Rules.designated_opens forced false",
           rules=_when(lambda r: r.designated_opens, designated_opens=False)),
    Mutant("designation-passes-without-drawing",
           "Under engine-designated-opens a designated player with no double passes the "
           "designation on without drawing a tile",
           ("ENG-8",), "_engine_from_deal swapped: no draw before the designation passes",
           patches={"_engine_from_deal": play.designation_passes_without_drawing}),
    Mutant("engine-holder-keeps-engine",
           "The holder places the engine but it is not taken out of their hand",
           ("ENG-3",), "deal output: the engine tile added back to the starter's hand",
           post_deal=play.holder_keeps_engine),
    Mutant("turn-order-reversed",
           "Play passes to seat s-1 instead of s+1",
           ("SEAT-1",), "_end_turn swapped: the seat moves backwards",
           patches={"_end_turn": play.end_turn_backwards}),
    # first turn
    Mutant("mexican-on-pagat-first-turn",
           "A pagat first turn may open the Mexican Train as well as the player's own train",
           ("FIRST-2",), "open_trains swapped: the Mexican Train added during a chain first turn",
           patches={"open_trains": play.open_mexican_on_first_turn}),
    Mutant("chain-on-other-trains",
           "A first-turn chain may carry on along the Mexican Train or a marked train",
           ("FIRST-1", "FIRST-2"), "playable_trains swapped in the chain phase",
           patches={"playable_trains": play.chain_goes_anywhere}),
    Mutant("chain-ends-on-coverable-double",
           "A first-turn chain may end on a double the player could cover",
           ("FIRST-4",), "legal_actions swapped: end-chain always offered in a chain",
           patches={"legal_actions": play.end_chain_always}),
    Mutant("chain-anywhere-own-train-only",
           "Under chain-anywhere-start the first turn is a chain on the own train only",
           ("FIRST-11",), "Rules.chain_anywhere forced false",
           rules=_when(lambda r: r.chain_anywhere, chain_anywhere=False)),
    Mutant("chain-anywhere-ends-beside-double",
           "Under chain-anywhere-start a chain may end beside a coverable double it laid on "
           "another train",
           ("FIRST-4",), "legal_actions swapped: FIRST-4 read on the own train only",
           patches={"legal_actions": play.end_chain_beside_a_double}),
    Mutant("no-double-end-ignored",
           "Under no-double-end-start a first-turn chain may lay a double nothing would follow",
           ("FIRST-12",), "Rules.chain_no_double_end forced false",
           rules=_when(lambda r: r.chain_no_double_end, chain_no_double_end=False)),
    Mutant("no-double-end-last-tile-refused",
           "Under no-double-end-start a double that is the player's last tile may not end the "
           "chain either (no going out on it)",
           ("FIRST-12",), "stranded swapped: a double is stranded even as the last tile",
           patches={"stranded": play.stranded_even_last}),
    Mutant("first-turn-draws",
           "A pagat player who cannot start their train draws instead of marking at once",
           ("FIRST-3",), "legal_actions swapped: [pass] becomes [draw] on a chain first turn",
           patches={"legal_actions": play.first_turn_draws}),
    Mutant("first-turn-pass-unmarked",
           "A pagat player who cannot start their train passes without putting up a marker",
           ("FIRST-3", "MARK-1"), "perform swapped: the marker restored after a chain "
           "first-turn pass", patches={"perform": play.first_turn_pass_unmarked}),
    Mutant("chain-double-obliges-at-once",
           "A double left by a first-turn chain obliges the next player straight away",
           ("FIRST-5",), "duties swapped: the first-turn exemption ignored",
           patches={"duties": play.duties_during_first_turns}),
    Mutant("single-start-allows-chain",
           "Under a single-tile start a first play on one's own train still opens a chain",
           ("FIRST-7",), "_play swapped: a first-turn play on one's own train runs as a chain",
           patches={"_play": play.single_start_chains}),
    Mutant("first-turns-never-end",
           "The first-turn flag is never cleared, so every turn is treated as a first turn",
           ("FIRST-6",), "_end_turn swapped: first_turns left unchanged",
           patches={"_end_turn": play.end_turn_keeps_first}),
    Mutant("starter-only-mexican-ignored",
           "Under starter-opens-mexican anyone may open the Mexican Train on their first turn",
           ("FIRST-9",), "Rules.starter_only_mexican forced false",
           rules=_when(lambda r: r.starter_only_mexican, starter_only_mexican=False)),
    Mutant("own-train-mexican-ignored",
           "Under own-train-opens-mexican a player with an empty own train may open the "
           "Mexican Train",
           ("FIRST-10",), "Rules.own_train_mexican forced false",
           rules=_when(lambda r: r.own_train_mexican, own_train_mexican=False)),
    Mutant("own-train-mexican-closes-all",
           "Under own-train-opens-mexican an empty own train closes every other train, "
           "marked ones and an open Mexican Train too",
           ("FIRST-10",), "open_trains swapped: only the own train while it is empty",
           patches={"open_trains": play.own_train_before_any_train}),
    Mutant("starter-only-mexican-forever",
           "Under starter-opens-mexican only the starter may open the Mexican Train, even "
           "after the first turns",
           ("FIRST-9",), "open_trains swapped: the restriction kept after every first turn",
           patches={"open_trains": play.starter_only_mexican_forever}),
    Mutant("own-train-first-ignored",
           "Under own-train-first a player may play elsewhere before starting their own train",
           ("TRAIN-7",), "Rules.own_train_first forced false",
           rules=_when(lambda r: r.own_train_first, own_train_first=False)),
    Mutant("own-train-before-duty",
           "Under own-train-first a player who has not started their train may not cover an "
           "open double elsewhere",
           ("TRAIN-7", "TRAIN-6", "DBL-6"), "playable_trains swapped: the own train only, "
           "before any duty", patches={"playable_trains": play.own_train_before_duty}),
    # turns and drawing
    Mutant("play-on-unmarked-train",
           "Another player's train is accepted whether or not it carries a marker",
           ("TRAIN-4",), "open_trains swapped: every personal train treated as marked",
           patches={"open_trains": play.open_all_trains}),
    Mutant("mexican-treated-as-personal",
           "The Mexican Train is handled like a personal train: open only while marked, "
           "which it never is",
           ("MARK-2", "TRAIN-4"), "open_trains swapped: the Mexican Train needs a marker",
           patches={"open_trains": play.mexican_needs_marker}),
    Mutant("draw-while-playable",
           "A player holding a playable tile may draw anyway",
           ("TURN-1",), "legal_actions swapped: draw added next to plays",
           patches={"legal_actions": play.draw_while_playable}),
    Mutant("pass-while-playable",
           "A player holding a playable tile may pass anyway",
           ("TURN-1",), "legal_actions swapped: pass added next to plays",
           patches={"legal_actions": play.pass_while_playable}),
    Mutant("draw-one-draws-twice",
           "A draw takes two tiles from the boneyard; the second is the drawn tile",
           ("TURN-2",), "_draw swapped: an extra tile goes into the hand first",
           patches={"_draw": play.draw_two}),
    Mutant("draw-one-keeps-drawing",
           "Under draw-one the player keeps drawing until a tile can be played",
           ("TURN-2", "TURN-4"), "Rules.draw_until_playable forced true",
           rules=_when(lambda r: not r.draw_until_playable, draw_until_playable=True)),
    Mutant("draw-until-playable-ignored",
           "Under draw-until-playable the player passes after one unplayable draw",
           ("TURN-5",), "Rules.draw_until_playable forced false",
           rules=_when(lambda r: r.draw_until_playable, draw_until_playable=False)),
    Mutant("drawn-tile-optional",
           "A playable drawn tile need not be played: the player may pass instead",
           ("TURN-3",), "legal_actions swapped: pass added after a playable draw",
           patches={"legal_actions": play.drawn_tile_optional}),
    Mutant("any-tile-after-draw",
           "After a draw the drawn tile may go on any train it matches, ignoring markers and "
           "open doubles",
           ("TURN-3", "TRAIN-4", "DBL-6"), "playable_trains swapped: every train once drawn",
           patches={"playable_trains": play.drawn_tile_anywhere}),
    Mutant("pass-no-marker",
           "Passing does not put the player's marker up",
           ("TURN-4", "MARK-1"), "perform swapped: the marker restored after a pass",
           patches={"perform": play.pass_keeps_marker_down}),
    Mutant("marker-up-on-draw",
           "The marker goes up when the player draws, not when they fail to play",
           ("TURN-4", "MARK-1"), "_draw swapped: the drawer's marker goes up",
           patches={"_draw": play.draw_marks}),
    # markers
    Mutant("marker-never-removed",
           "A marker, once up, stays for the rest of the round",
           ("MARK-3", "MARK-4", "MARK-5"), "_play swapped: markers restored after every play",
           patches={"_play": play.play_keeps_markers}),
    Mutant("marker-anyone-under-owner-own",
           "Under owner-plays-own a marker comes off when anyone plays on the train",
           ("MARK-3",), "Rules.marker_rule anyone-plays-on under owner-plays-own",
           rules=_when(_owner_own, marker_rule=MARKER_ANYONE_ON)),
    Mutant("marker-owner-anywhere-under-owner-own",
           "Under owner-plays-own a marker comes off when its owner plays anywhere",
           ("MARK-3",), "Rules.marker_rule owner-plays-anywhere under owner-plays-own",
           rules=_when(_owner_own, marker_rule=MARKER_OWNER_ANYWHERE)),
    Mutant("marker-anyone-ignored",
           "Under anyone-plays-on a marker comes off only when its owner plays on the train",
           ("MARK-4",), "Rules.marker_rule owner-plays-own under anyone-plays-on",
           rules=_when(lambda r: r.marker_rule == MARKER_ANYONE_ON,
                       marker_rule=MARKER_OWNER_OWN)),
    Mutant("marker-owner-anywhere-ignored",
           "Under owner-plays-anywhere a marker comes off only when the owner plays on it",
           ("MARK-5",), "Rules.marker_rule owner-plays-own under owner-plays-anywhere",
           rules=_when(lambda r: r.marker_rule == MARKER_OWNER_ANYWHERE,
                       marker_rule=MARKER_OWNER_OWN)),
    Mutant("marker-stays-on-cover",
           "Covering an open double on one's own train does not take the marker off",
           ("MARK-3",), "_play swapped: the marker restored after covering on one's own train",
           patches={"_play": play.cover_keeps_marker}),
    # doubles
    Mutant("turn-ends-on-double",
           "Laying a double ends the turn: no follow-up tile",
           ("DBL-1",), "_play swapped: the follow phase ends the turn at once",
           patches={"_play": play.double_ends_turn}),
    Mutant("covered-double-stays-open",
           "A covered double is not recorded as covered: it stays in the open doubles",
           ("TRAIN-3", "DBL-6"), "_play swapped: the covered train put back in open_doubles",
           patches={"_play": play.cover_leaves_double_open}),
    Mutant("ordinary-doubles-ignored",
           "Under ordinary-doubles a double still asks for another tile and stays open",
           ("DBL-11",), "Rules.ordinary_doubles forced false",
           rules=_when(lambda r: r.ordinary_doubles, ordinary_doubles=False)),
    Mutant("ordinary-double-left-open",
           "Under ordinary-doubles a double ends the turn but stays open: the next player "
           "must cover it",
           ("DBL-11",), "_play swapped: a double laid outside a chain put in open_doubles",
           patches={"_play": play.ordinary_double_left_open}),
    Mutant("double-no-obligation",
           "An open double from an earlier turn obliges nobody: play goes on as normal",
           ("DBL-6",), "duties swapped for one returning nothing",
           patches={"duties": play.no_duties}),
    Mutant("covering-refused-on-closed-train",
           "An open double on an unmarked personal train may be covered only by its owner",
           ("TRAIN-6",), "playable_trains swapped: duties filtered by the open trains",
           patches={"playable_trains": play.cover_only_where_open}),
    Mutant("restricted-follow-ignored",
           "Under the restricted follow-up the tile after a double may go anywhere",
           ("DBL-3",), "Rules.follow anywhere under restricted",
           rules=_when(lambda r: r.follow == FOLLOW_RESTRICTED, follow=FOLLOW_ANYWHERE)),
    Mutant("restricted-follow-last-double",
           "Under the restricted follow-up the tile after several doubles may go on the last "
           "of them instead of the first",
           ("DBL-3",), "playable_trains swapped: the last double of the turn in place of the "
           "first", patches={"playable_trains": play.restricted_to_last_double}),
    Mutant("restricted-follow-mexican-double-closed",
           "Under the restricted follow-up the Mexican Train is closed too when it ends in "
           "an open double",
           ("DBL-3",), "playable_trains swapped: trains ending in an open double dropped, "
           "the Mexican Train included",
           patches={"playable_trains": play.restricted_mexican_double_closed}),
    Mutant("cover-own-ignored",
           "Under the Wikipedia rule the tile after a double need not cover it",
           ("DBL-4",), "Rules.follow anywhere under cover-own",
           rules=_when(lambda r: r.follow == FOLLOW_COVER_OWN, follow=FOLLOW_ANYWHERE)),
    Mutant("follow-must-cover-own-double",
           "Under follow-up-anywhere the double just laid counts as a duty: its layer must "
           "cover it",
           ("DBL-2",), "Rules.follow cover-own under anywhere",
           rules=_when(lambda r: r.follow == FOLLOW_ANYWHERE, follow=FOLLOW_COVER_OWN)),
    Mutant("oldest-first-ignored",
           "Several open doubles may be covered in any order under oldest-first",
           ("DBL-7",), "Rules.oldest_first forced false",
           rules=_when(lambda r: r.oldest_first, oldest_first=False)),
    Mutant("any-open-ignored",
           "Under any-open-double the oldest open double must still be covered first",
           ("DBL-8",), "Rules.oldest_first forced true",
           rules=_when(lambda r: not r.oldest_first, oldest_first=True)),
    Mutant("newest-double-first",
           "Open doubles kept as a stack: the newest must be covered first",
           ("DBL-7",), "duties swapped: the last open double instead of the first",
           patches={"duties": play.duties_newest_first}),
    Mutant("uncoverable-never-released",
           "Under release-uncoverable a double nobody can cover keeps closing the table",
           ("DBL-9",), "Rules.release_uncoverable forced false",
           rules=_when(lambda r: r.release_uncoverable, release_uncoverable=False)),
    Mutant("release-on-empty-ignored",
           "Under release-on-empty-boneyard the open doubles keep binding once the boneyard "
           "is empty", ("DBL-12",), "Rules.release_when_empty forced false",
           rules=_when(lambda r: r.release_when_empty, release_when_empty=False)),
    Mutant("release-on-empty-also-uncoverable",
           "Under release-on-empty-boneyard a double nobody can cover is released while the "
           "boneyard still holds tiles", ("DBL-12",), "Rules.release_uncoverable forced true "
           "under it", rules=_when(lambda r: r.release_when_empty, release_uncoverable=True)),
    Mutant("released-double-open-to-all",
           "Under released-when-boneyard-empty or released-after-layers-turn a double that "
           "binds nobody may still be covered by anyone, on a train closed to them",
           ("DBL-12", "DBL-13", "TRAIN-4"),
           "playable_trains swapped: the trains of the doubles binding nobody added",
           patches={"playable_trains": play.released_double_open_to_all}),
    Mutant("layers-turn-double-binds-others",
           "Under released-after-layers-turn a double its layer left uncovered binds the "
           "next players", ("DBL-13",), "Rules.release_after_turn forced false",
           rules=_when(lambda r: r.release_after_turn, release_after_turn=False)),
    Mutant("layers-turn-release-on-empty-only",
           "Under released-after-layers-turn a double its layer left uncovered is released "
           "only once the boneyard is empty, as under released-when-boneyard-empty",
           ("DBL-13", "DBL-12"), "Rules.release_after_turn forced false, release_when_empty "
           "true, under it", rules=_when(lambda r: r.release_after_turn,
                                         release_after_turn=False, release_when_empty=True)),
    Mutant("released-when-mover-cannot-cover",
           "An open double is released as soon as the player to move cannot cover it",
           ("DBL-9", "DBL-6"), "live swapped: tested against the mover's hand, not the table",
           patches={"live": play.live_if_mover_can_cover}),
    Mutant("release-off-by-one",
           "An open double is released while one tile of its number is still out",
           ("DBL-9",), "live swapped: a double is live only while two or more tiles are out",
           patches={"live": play.live_while_two_left}),
    Mutant("follow-up-no-draw",
           "A player who cannot follow their double passes without drawing",
           ("DBL-5",), "legal_actions swapped: [draw] becomes [pass] in the follow phase",
           patches={"legal_actions": play.follow_fail_no_draw}),
    Mutant("follow-failure-no-marker",
           "A player who fails to follow their own double passes without raising their marker",
           ("DBL-5",), "perform swapped: the marker restored after a pass in the follow phase",
           patches={"perform": play.follow_pass_unmarked}),
    Mutant("duty-not-passed-on",
           "The duty to cover binds only the next player: once they pass, the double is "
           "forgotten",
           ("DBL-6",), "perform swapped: a pass drops the doubles that were due",
           patches={"perform": play.pass_ends_duty}),
    # round end
    Mutant("blocked-never-detected",
           "A blocked round never ends: with an empty boneyard everybody passes forever",
           ("END-2", "END-3"), "_check_blocked swapped (engine, deal) for a no-op",
           patches={"_check_blocked": end.no_block_check}),
    Mutant("domino-on-double-missed",
           "Going out on a double is not noticed: the player is asked for the follow-up",
           ("END-1",), "_play swapped: no finish when the last tile is a double",
           patches={"_play": end.double_out_goes_on}),
    Mutant("blocked-counts-passes",
           "Under nobody-can-play the round ends only after a full round of passes",
           ("END-2",), "Rules.passes_end_round forced true",
           rules=_when(lambda r: not r.passes_end_round, passes_end_round=True)),
    Mutant("passes-rule-ignored",
           "Under full-round-of-passes the round ends as soon as nobody can play",
           ("END-3",), "Rules.passes_end_round forced false",
           rules=_when(lambda r: r.passes_end_round, passes_end_round=False)),
    Mutant("blocked-ignores-markers",
           "The blocked test looks only at the trains open now, not with every marker up",
           ("END-2",), "can_ever_play swapped: all_marked dropped",
           patches={"can_ever_play": end.blocked_by_current_markers}),
    Mutant("passes-not-reset",
           "The count of passes is not reset when a tile is played",
           ("END-3",), "_play swapped: passes restored after a play",
           patches={"_play": end.play_passes_kept}),
    Mutant("blocked-ignores-first-turns",
           "END-2 looks only at the table once every first turn is over: a player still to "
           "start, not yet bound by a chain double, is ignored",
           ("END-2", "FIRST-5"), "nobody_can_ever_play swapped for the last-table test alone",
           patches={"nobody_can_ever_play": end.blocked_on_the_last_table}),
    Mutant("blocked-never-during-first-turns",
           "No round is blocked while a first turn is still to come",
           ("END-2", "FIRST-6"), "nobody_can_ever_play swapped: false while first turns remain",
           patches={"nobody_can_ever_play": end.never_blocked_during_first_turns}),
    Mutant("blocked-ignores-own-train-first",
           "END-2 forgets own-train-first: a player who cannot start their train counts as "
           "able to play elsewhere",
           ("END-2", "TRAIN-7"), "can_ever_play swapped: the rule set's own_train_first off",
           patches={"can_ever_play": end.blocked_without_own_train_first}),
    Mutant("last-draw-pass-uncounted",
           "A pass after drawing the boneyard's last tile is not counted as a pass on an "
           "empty boneyard",
           ("END-3",), "perform swapped: a pass after a draw that emptied the boneyard "
           "leaves the count alone", patches={"perform": end.last_draw_pass_uncounted}),
    Mutant("passes-counted-with-tiles-left",
           "Every pass counts towards END-3, even with tiles still in the boneyard",
           ("END-3",), "perform swapped: a pass with a nonempty boneyard adds one",
           patches={"perform": end.pass_counted_with_tiles_left}),
    # scoring and the match
    Mutant("hand-scored-twice",
           "Each hand's value is counted twice in the round score",
           ("SCORE-5", "SCORE-6"), "hand_value swapped for twice the value",
           patches={"hand_value": end.hand_counted_twice}),
    Mutant("winner-scores-last-tile",
           "The player who went out is scored with the tile they went out with",
           ("SCORE-5", "SCORE-6"), "_play swapped: the last tile added to the winner's hand value",
           patches={"_play": end.last_tile_scored}),
    Mutant("positive-blocked-scores-hands",
           "Under positive scoring a blocked round falls back to penalty scoring",
           ("SCORE-6",), "_finish swapped: a blocked round scored with positive scoring off",
           patches={"_finish": end.positive_blocked_as_penalty}),
    Mutant("blocked-lightest-hand-wins",
           "A blocked round names the player with the lightest hand as the one who went out",
           ("END-2", "SCORE-6"), "_finish swapped: the winner of a blocked round is the lightest",
           patches={"_finish": end.blocked_lightest_wins}),
    Mutant("blocked-winner-ignored",
           "Under blocked-winner a blocked round scores every hand, the lowest included",
           ("SCORE-7",), "Rules.blocked_low_wins forced false",
           rules=_when(lambda r: r.blocked_low_wins, blocked_low_wins=False)),
    Mutant("blocked-winner-by-pips-alone",
           "Under blocked-winner the lightest hand scores 0 whatever its number of tiles",
           ("SCORE-7",), "lowest_hands swapped: the least value, tiles not counted",
           patches={"lowest_hands": end.lowest_by_value_alone}),
    Mutant("blocked-winner-counts-an-out",
           "Under blocked-winner the blocked round's lowest hand is counted as going out",
           ("SCORE-7", "MATCH-5"), "_finish swapped: a blocked round's 0 scores add an out",
           patches={"_finish": end.lowest_hand_counts_an_out}),
    Mutant("blanks-scored-wrong",
           "Under blank-25 a tile with a blank counts 25 once, so [0-0] is 25 instead of 50",
           ("SCORE-2",), "Rules.value with one 25 per blank tile under blank-25",
           rules=end.blank_counted_once),
    Mutant("double-blank-penalty-ignored",
           "Under double-blank-50 and double-blank-25 the [0-0] is scored at face value, 0",
           ("SCORE-3", "SCORE-4"), "Rules.value at face under the double-blank options",
           rules=end.double_blank_at_face),
    Mutant("totals-not-accumulated",
           "A round's scores replace the match totals instead of adding to them",
           ("MATCH-1",), "_finish swapped: totals overwritten by the round's scores",
           patches={"_finish": end.totals_overwritten}),
    Mutant("outs-not-counted",
           "Going out is not counted in the player's number of rounds won",
           ("MATCH-5",), "_finish swapped: the winner's outs left unchanged",
           patches={"_finish": end.outs_not_counted}),
    Mutant("tie-broken-by-lowest-seat",
           "A tie on the winning total goes to the lowest seat instead of being shared",
           ("MATCH-4",), "winners: only the first of the tied seats",
           winners=end.winners_first_seat),
    Mutant("winners-lowest-under-positive",
           "The lowest total wins even under positive scoring",
           ("MATCH-3",), "winners computed with positive scoring off",
           winners=end.winners_lowest_always),
    Mutant("winners-highest-under-penalty",
           "The highest total wins even under penalty scoring",
           ("MATCH-2",), "winners computed with positive scoring on",
           winners=end.winners_highest_always),
    Mutant("most-outs-ignored",
           "Under tie-most-outs a tie is shared instead of going to the player out most often",
           ("MATCH-5",), "Rules.tie_most_outs forced false",
           rules=_when(lambda r: r.tie_most_outs, tie_most_outs=False)),
    Mutant("tie-to-most-outs-overall",
           "Under tie-most-outs a tie goes to whoever went out most often, tied or not",
           ("MATCH-5",), "winners: the most outs among every player once a tie exists",
           winners=end.tie_to_most_outs_overall),
    Mutant("tie-to-fewest-outs",
           "Under tie-most-outs a tie goes to the tied player who went out least often",
           ("MATCH-5",), "winners: the fewest outs among the tied", winners=end.tie_to_fewest_outs),
    Mutant("lowest-seat-ignored",
           "Under tie-lowest-seat a tie is shared instead of going to the lowest seat",
           ("MATCH-6",), "Rules.tie_lowest_seat forced false",
           rules=_when(lambda r: r.tie_lowest_seat, tie_lowest_seat=False)),
    Mutant("tie-to-highest-seat",
           "Under tie-lowest-seat a tie goes to the highest of the tied seats",
           ("MATCH-6",), "winners: the last of the tied seats", winners=end.tie_to_highest_seat),
    Mutant("single-round-ignored",
           "Under single-round the game goes on after round 1, as a full match does",
           ("MATCH-7",), "Rules.single_round forced false",
           rules=_when(lambda r: r.single_round, single_round=False)),
    Mutant("single-round-deals-round-two",
           "Under single-round the game ends after round 1, but a deal or a table of a later "
           "round is accepted",
           ("MATCH-7",), "no_such_round swapped (engine, deal, codec) for one never refusing",
           patches={"no_such_round": end.every_round_exists}),
)

# the mutants an outside author's reading of the rules gives (outside.py)
_CATALOGUE += OUTSIDE + SECOND_READING + THIRD_READING + FOURTH_READING + FIFTH_READING
_CATALOGUE += SIXTH_READING + SEVENTH_READING + EIGHTH_READING + NINTH_READING
_CATALOGUE += TENTH_READING + ELEVENTH_READING + TWELFTH_READING + THIRTEENTH_READING
_CATALOGUE += FOURTEENTH_READING + FIFTEENTH_READING + SIXTEENTH_READING
_CATALOGUE += SEVENTEENTH_READING + EIGHTEENTH_READING + NINETEENTH_READING
_CATALOGUE += TWENTIETH_READING
_CATALOGUE += TWENTY_FIRST_READING
_CATALOGUE += TWENTY_SECOND_READING
_CATALOGUE += TWENTY_THIRD_READING
_CATALOGUE += TWENTY_FOURTH_READING
_CATALOGUE += TWENTY_FIFTH_READING
_CATALOGUE += TWENTY_SIXTH_READING
_CATALOGUE += TWENTY_SEVENTH_READING
_CATALOGUE += TWENTY_EIGHTH_READING
_CATALOGUE += TWENTY_NINTH_READING
_CATALOGUE += THIRTIETH_READING
_CATALOGUE += THIRTY_FIRST_READING
_CATALOGUE += THIRTY_SECOND_READING
_CATALOGUE += THIRTY_THIRD_READING
_CATALOGUE += THIRTY_FOURTH_READING
_CATALOGUE += THIRTY_FIFTH_READING

MUTANTS: dict[str, Mutant] = {m.name: m for m in _CATALOGUE}
if len(MUTANTS) != len(_CATALOGUE):  # pragma: no cover - a catalogue error
    raise RuntimeError("two mutants share a name")


class UnknownMutant(InputError, ValueError):
    """A mutant name the catalogue lacks (a ValueError too, as it always was)."""


def check_names(names: Sequence[str]) -> None:
    """UnknownMutant for the first name the catalogue lacks, with the nearest names."""
    for name in names:
        if name not in MUTANTS:
            near = difflib.get_close_matches(name, list(MUTANTS), n=3)
            hint = f"; did you mean {', '.join(near)}?" if near else ""
            raise UnknownMutant(f"unknown mutant {shown(name)}{hint} ({len(MUTANTS)} are "
                                "known; the list: mtrain mutants --list)")


def mutant(name: str) -> Implementation:
    """The implementation with mutant `name` switched on."""
    check_names([name])
    return MUTANTS[name].implementation()
