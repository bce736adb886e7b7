"""A resolved rule set turned into the flags the engine reads on every move.

The engine never looks an option up by name in its hot path: `Rules.of(ruleset)`
reads each option once and keeps plain booleans and small ints.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Final

from mtrain.spec import tiles as T
from mtrain.spec.ruleset import Ruleset
from mtrain.spec.tilesets import highest, rounds

# (each Final: the compiled engine reads it as the number, not from rules' globals)
FOLLOW_ANYWHERE: Final = 0
FOLLOW_RESTRICTED: Final = 1
FOLLOW_COVER_OWN: Final = 2

FLAG_OPTIONS: dict[str, tuple[str, ...]] = {
    "ruleset": (),  # read through a Ruleset, which says which option it gives
    "max_pip": ("tile_set",), "set_mask": ("tile_set",), "number_mask": ("tile_set",),
    "set_rounds": ("tile_set",), "rounds": ("tile_set", "match_length"),
    "single_round": ("match_length",), "value": ("blank_values",), "hand_table": ("hand_sizes",),
    "holder_lays": ("engine_procedure",), "holder_draws": ("engine_procedure",),
    "everyone_draws": ("engine_procedure",), "engine_by_deal": ("engine_procedure",),
    "designated_opens": ("engine_procedure",),
    "engine_holder_starts": ("starting_seat",), "after_engine_starts": ("starting_seat",),
    "highest_draw_starts": ("starting_seat",), "heaviest_tile_starts": ("starting_seat",),
    "chain_first_turn": ("first_turn",), "chain_anywhere": ("first_turn",),
    "chain_no_double_end": ("first_turn",),
    "starter_only_mexican": ("mexican_first_turn",),
    "own_train_mexican": ("mexican_first_turn",),
    "own_train_first": ("own_train_first",), "ordinary_doubles": ("doubles",),
    "follow": ("follow_up",),
    "oldest_first": ("double_order",), "release_uncoverable": ("uncoverable_double",),
    "release_when_empty": ("uncoverable_double",),
    "release_after_turn": ("uncoverable_double",),
    "marker_rule": ("marker_removal",), "draw_until_playable": ("draw_rule",),
    "passes_end_round": ("blocked_round",), "positive_scoring": ("scoring",),
    "blocked_low_wins": ("scoring",),
    "tie_most_outs": ("tie_rule",), "tie_lowest_seat": ("tie_rule",),
}
"""The option behind each flag: what the scope checks (conformance/partition.py) record when
the engine reads a flag, so that they know which options decided an outcome."""
EXISTENCE_FLAGS: frozenset[str] = frozenset({"single_round"})
"""Flags read only to know whether a table exists in the rule set's match (a round after
the first, MATCH-7), never what happens on it: under a match length of one's own the
implementation says whether it has the round, and what happens there is still checked."""
MARKER_OWNER_OWN: Final = 0
MARKER_ANYONE_ON: Final = 1
MARKER_OWNER_ANYWHERE: Final = 2


@dataclass(frozen=True, slots=True)
class Rules:
    ruleset: Ruleset
    max_pip: int
    set_mask: int
    number_mask: tuple[int, ...]
    value: tuple[int, ...]
    hand_table: dict[int, int]
    holder_lays: bool
    holder_draws: bool
    everyone_draws: bool
    engine_by_deal: bool
    designated_opens: bool
    engine_holder_starts: bool
    after_engine_starts: bool
    highest_draw_starts: bool
    heaviest_tile_starts: bool
    chain_first_turn: bool
    chain_anywhere: bool
    chain_no_double_end: bool
    starter_only_mexican: bool
    own_train_mexican: bool
    own_train_first: bool
    ordinary_doubles: bool
    follow: int
    oldest_first: bool
    release_uncoverable: bool
    release_when_empty: bool
    release_after_turn: bool
    marker_rule: int
    draw_until_playable: bool
    passes_end_round: bool
    positive_scoring: bool
    blocked_low_wins: bool
    tie_most_outs: bool
    tie_lowest_seat: bool
    single_round: bool

    @property
    def set_rounds(self) -> int:
        """MATCH-1: a full match's rounds, one per engine from [N-N] down to [0-0]."""
        return rounds(self.max_pip)

    @property
    def rounds(self) -> int:
        """The rounds this rule set plays: the set's (MATCH-1), or round 1 alone (MATCH-7).
        Read only where the count decides (a round after the first, the match's end), so
        that a table of round 1 does not depend on match_length."""
        return 1 if self.single_round else rounds(self.max_pip)

    @staticmethod
    def of(rs: Ruleset) -> Rules:
        max_pip = highest(rs["tile_set"])  # SET-1: the set's highest number, from the data
        set_mask = T.set_mask(max_pip)
        return Rules(
            ruleset=rs,
            max_pip=max_pip,
            set_mask=set_mask,
            number_mask=tuple(m & set_mask for m in T.NUMBER_MASK),
            value=tile_values(rs["blank_values"]),
            hand_table=dict(rs.hand_table),
            # every tile dealt, the engine placed by its holder (ENG-3; ENG-5 draws after)
            holder_lays=rs["engine_procedure"] in ("holder-lays", "holder-lays-and-draws",
                                                   "everyone-draws", "highest-double-held",
                                                   "designated-opens"),
            holder_draws=rs["engine_procedure"] == "holder-lays-and-draws",
            # the search for a missing engine goes in whole laps (ENG-6)
            everyone_draws=rs["engine_procedure"] == "everyone-draws",
            # the deal picks the engine, not the round (ENG-7, ENG-8)
            engine_by_deal=rs["engine_procedure"] in ("highest-double-held", "designated-opens"),
            designated_opens=rs["engine_procedure"] == "designated-opens",  # ENG-8
            engine_holder_starts=rs["starting_seat"] == "engine-holder",
            after_engine_starts=rs["starting_seat"] == "after-engine",
            highest_draw_starts=rs["starting_seat"] == "highest-draw",  # SEAT-5
            heaviest_tile_starts=rs["starting_seat"] == "heaviest-in-hand",  # SEAT-6
            # a first turn of several tiles: on the own train (FIRST-1; FIRST-12 not ending
            # on a double) or anywhere (FIRST-11)
            chain_first_turn=rs["first_turn"] in ("chain", "chain-anywhere",
                                                  "chain-no-double-end"),
            chain_anywhere=rs["first_turn"] == "chain-anywhere",
            chain_no_double_end=rs["first_turn"] == "chain-no-double-end",  # FIRST-12
            starter_only_mexican=rs["mexican_first_turn"] == "starter-only",
            own_train_mexican=rs["mexican_first_turn"] == "own-train-started",
            own_train_first=rs["own_train_first"] == "required",
            ordinary_doubles=rs["doubles"] == "ordinary",  # DBL-11: a double opens nothing
            follow={"anywhere": FOLLOW_ANYWHERE, "restricted": FOLLOW_RESTRICTED,
                    "cover-own": FOLLOW_COVER_OWN}[rs["follow_up"]],
            oldest_first=rs["double_order"] == "oldest-first",
            release_uncoverable=rs["uncoverable_double"] == "released",
            # DBL-12: with the boneyard empty no double of an earlier turn binds
            release_when_empty=rs["uncoverable_double"] == "released-when-boneyard-empty",
            # DBL-13: a double binds only in its layer's turn
            release_after_turn=rs["uncoverable_double"] == "released-after-layers-turn",
            marker_rule={"owner-plays-own": MARKER_OWNER_OWN,
                         "anyone-plays-on": MARKER_ANYONE_ON,
                         "owner-plays-anywhere": MARKER_OWNER_ANYWHERE}[rs["marker_removal"]],
            draw_until_playable=rs["draw_rule"] == "draw-until-playable",
            passes_end_round=rs["blocked_round"] == "full-round-of-passes",
            positive_scoring=rs["scoring"] == "positive",
            blocked_low_wins=rs["scoring"] == "penalty-blocked-winner",  # SCORE-7
            tie_most_outs=rs["tie_rule"] == "most-outs",
            tie_lowest_seat=rs["tie_rule"] == "lowest-seat",
            single_round=rs["match_length"] == "single-round",  # MATCH-7
        )


@functools.cache
def tile_values(blank_rule: str) -> tuple[int, ...]:
    """Value of every tile in hand at the end of a round (SCORE-1 to SCORE-4)."""
    blank = T.tile_id(0, 0)
    out = []
    for t in range(T.TILE_COUNT):
        hi, lo = T.HIGH[t], T.LOW[t]
        if blank_rule == "blank-25":  # SCORE-2: each blank end counts 25
            out.append((hi or 25) + (lo or 25))
        elif blank_rule == "double-blank-50" and t == blank:  # SCORE-3
            out.append(50)
        elif blank_rule == "double-blank-25" and t == blank:  # SCORE-4
            out.append(25)
        else:  # SCORE-1: face value
            out.append(hi + lo)
    return tuple(out)
