"""Rule bugs of a fourteenth reading, written where most real engines live: a rule set with
a table of one's own (`hand_sizes: custom`, the double-6, double-8, double-10 and double-18
files), and the house options a real app grows, checked clause by clause against the
catalogue's 484 mutants.

A table of one's own read wrongly: the table published for the set taken although the file
gives one (Celko's for double-6, puremco's double-9 rows for the double-8 and double-10
sets, pagat's everywhere), the file's table kept for round 1 alone, a count past its last
row dealt by that row, every count dealt by the first row, the sizes paired with the
counts in the wrong order, the table read by the number of trains. Scores whose totals and
round result part ways: the blocked winner's zero shown but the hand charged, blanks
penalised on the sheet but added at face value, positive scoring shown but every hand
charged to its holder. And refusals that name the wrong clause under a house rule (TURN-5,
DBL-6, DBL-7, TRAIN-7, FIRST-11, ENG-6, TURN-3, DBL-3): the move is refused, as it must
be, but the rule cited is the wrong one, which a player disputing a ruling reads first.

Each is one slip: a fallback table where a lookup by string key fails, a table stored on
the round instead of the match, `min(n, max(table))`, `table[min(table)]`, two lists
sorted separately, `players + 1`, a total added before the hand is zeroed, a total summed
with the face-value table, a penalty sheet added under positive scoring, a refusal written
once and copied.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

from mtrain.conformance.mutants import originals as ref
from mtrain.conformance.mutants.implementation import Mutant, RulesHook
from mtrain.reference import deal as deal_module
from mtrain.reference import refusals as refusals_module
from mtrain.reference.engine import (
    BLOCKED,
    CHAIN,
    ENGINE,
    FOLLOW,
    PIPS,
    START,
    Action,
    IllegalAction,
    Result,
    State,
)
from mtrain.reference.rules import FOLLOW_RESTRICTED, Rules
from mtrain.spec import tiles as T
from mtrain.spec.ruleset import CUSTOM, MAX_PLAYERS

_deal = deal_module.deal
_refusals = refusals_module._refusals
_draw_winner = deal_module.draw_winner

# --- a table of one's own -----------------------------------------------------------------

PAGAT = {2: 15, 3: 15, 4: 15, 5: 12, 6: 12, 7: 10, 8: 10, 9: 8, 10: 8}
"""DEAL-2's table: the default an app falls back on."""
CELKO_D6 = {2: 9, 3: 8, 4: 6}
"""DEAL-12's table, published for the double-6 set."""
PUREMCO_D9 = {2: 15, 3: 13, 4: 10}
"""DEAL-4's table, published for the double-9 set."""


def _custom(rules: Rules) -> bool:
    return rules.ruleset["hand_sizes"] == CUSTOM


def _with_table(rules: Rules, table: dict[int, int]) -> Rules:
    ruleset = dataclasses.replace(rules.ruleset, hand_table=tuple(sorted(table.items())))
    return dataclasses.replace(rules, ruleset=ruleset, hand_table=table)


def _rows_from(published: dict[int, int], sets: Sequence[int] | None = None) -> RulesHook:
    """A table of one's own whose rows are replaced by a published table's, for the counts
    that table lists (on the sets named, or all)."""
    def hook(rules: Rules) -> Rules:
        if not _custom(rules) or (sets is not None and rules.max_pip not in sets):
            return rules
        table = dict(rules.ruleset.hand_table)
        return _with_table(rules, {n: published.get(n, size) for n, size in table.items()})
    return hook


def _dealable(rules: Rules, players: int, size: int) -> bool:
    """DEAL-8: the hands fit in the pool (the set, less the engine when set aside)."""
    pool = rules.set_mask.bit_length() - (0 if rules.holder_lays else 1)
    return players * size <= pool


def _last_row_stretched(rules: Rules) -> Rules:
    """DEAL-7 missed: a count past the table's last row is dealt by that row,
    `table[min(n, max(table))]`, wherever the hands still fit."""
    if not _custom(rules):
        return rules
    table = dict(rules.ruleset.hand_table)
    top = max(table)
    for n in range(top + 1, MAX_PLAYERS + 1):
        if _dealable(rules, n, table[top]):
            table[n] = table[top]
    return _with_table(rules, table)


def _first_row_for_all(rules: Rules) -> Rules:
    """DEAL-1 with the table read once, at its first row: every count takes that size."""
    if not _custom(rules):
        return rules
    table = dict(rules.ruleset.hand_table)
    first = table[min(table)]
    return _with_table(rules, dict.fromkeys(table, first))


def _sizes_ascending(rules: Rules) -> Rules:
    """DEAL-1 with the counts and the sizes sorted as two lists, both ascending: the most
    players take the largest hands."""
    if not _custom(rules):
        return rules
    table = dict(rules.ruleset.hand_table)
    counts, sizes = sorted(table), sorted(table.values())
    return _with_table(rules, dict(zip(counts, sizes, strict=True)))


def _read_by_trains(rules: Rules) -> Rules:
    """DEAL-1 looked up by the number of trains (players + 1, the Mexican Train counted):
    n players take the row of n + 1, and the largest count has no row (DEAL-7)."""
    if not _custom(rules):
        return rules
    table = dict(rules.ruleset.hand_table)
    return _with_table(rules, {n: table[n + 1] for n in table if n + 1 in table})


def _less_engine(rules: Rules) -> Rules:
    """DEAL-1 with the engine counted in a table of one's own: where it is set aside
    (ENG-2) each hand is dealt one tile short."""
    if not _custom(rules) or rules.holder_lays:
        return rules
    table = dict(rules.ruleset.hand_table)
    return _with_table(rules, {n: size - 1 for n, size in table.items()})


def _round_one_table(rules: Rules, players: int, round_no: int = 1, **kw: Any) -> State:
    """DEAL-11 kept for round 1 alone: the table of one's own is stored with the first deal,
    and every later round falls back on pagat's rows (the default) where they exist."""
    if round_no > 1 and _custom(rules):
        table = dict(rules.ruleset.hand_table)
        st = _deal(_with_table(rules, {n: PAGAT.get(n, s) for n, s in table.items()}),
                   players, round_no, **kw)
        st.rules = rules
        return st
    return _deal(rules, players, round_no, **kw)


def _boneyard_by_pagat(rules: Rules, players: int, round_no: int = 1, **kw: Any) -> State:
    """DEAL-1 with the boneyard cut where pagat's row would end the hands: the hands come
    from the table of one's own, the boneyard from `order[players * PAGAT[n]:]` (less the
    engine placed), two sizes where there should be one."""
    st = _deal(rules, players, round_no, **kw)
    order = kw.get("order")
    if (not _custom(rules) or order is None or players not in PAGAT
            or st.phase != START or rules.holder_draws):
        return st
    engine = T.DOUBLE[st.engine]
    st.boneyard = [t for t in order[players * PAGAT[players]:] if t != engine]
    return st


# --- totals and round results that part ways ----------------------------------------------


def _faced(state: State, seat: int) -> int:
    hand, total = state.hands[seat], 0
    for t in T.tiles_of(hand):
        total += PIPS[t]
    return total


def _blocked_zero_charged(state: State, end: str, winner: int) -> None:
    """SCORE-7 applied to the round's sheet after the totals were added: the blocked round's
    lowest hand shows 0 but is charged its hand all the same."""
    before = list(state.scores)
    ref.finish(state, end, winner)
    rules = state.rules
    if end == BLOCKED and rules.blocked_low_wins and not rules.positive_scoring:
        state.scores = [before[s] + ref.hand_value(state, s) for s in range(state.players)]


def _blank_totals_at_face(state: State, end: str, winner: int) -> None:
    """SCORE-2 to SCORE-4 on the round's sheet only: the totals add the hands at face
    value, the blank rule's extra lost."""
    before = list(state.scores)
    ref.finish(state, end, winner)
    result = state.result
    if result is None or state.rules.positive_scoring:
        return
    scores = [0 if result.scores[s] == 0 else _faced(state, s) for s in range(state.players)]
    state.scores = [before[s] + scores[s] for s in range(state.players)]


def _positive_totals_charged(state: State, end: str, winner: int) -> None:
    """SCORE-6 on the round's sheet only: under positive scoring the totals still add each
    player's own hand, as under penalty scoring."""
    before = list(state.scores)
    ref.finish(state, end, winner)
    if state.rules.positive_scoring:
        state.scores = [before[s] + ref.hand_value(state, s) for s in range(state.players)]


def _draw_by_value(rules: Rules, players: int, draw: Sequence[Sequence[int]]) -> int:
    """SEAT-5 weighed with the scoring table: under a blank rule the first drawing's tiles
    count as they would in hand ([0-0] 50 under blank-25), the run-offs as the reference."""
    winner = _draw_winner(rules, players, draw)  # (the draw checked as the reference does)
    values = [rules.value[seat[0]] for seat in draw]
    best = max(values)
    tied = [s for s in range(players) if values[s] == best]
    return tied[0] if len(tied) == 1 else winner


def _drawn_kept_first(state: State) -> None:
    """TURN-5 with the drawn tile set only by the turn's first draw: under
    draw-until-playable a later draw leaves the first (unplayable) tile the one the player
    may lay, so they draw on until the boneyard is empty."""
    before = state.drawn
    ref.draw(state)
    if before >= 0 and state.phase != ENGINE:
        state.drawn = before


def _draw_in_double_12(rules: Rules, players: int, draw: Sequence[Sequence[int]]) -> int:
    """SEAT-5's draw checked against a double-12 set whatever the set played: a drawn
    [13-2] of a double-15 set is refused, a [10-3] on a double-9 set accepted."""
    d12 = dataclasses.replace(rules, max_pip=12, set_mask=T.set_mask(12))
    return _draw_winner(d12, players, draw)


def _blocked_zero_by_total(state: State, end: str, winner: int) -> None:
    """SCORE-7 read off the score sheet's totals: the blocked round's nothing goes to the
    seat lowest on the match so far, not to the lowest hand."""
    before = list(state.scores)
    ref.finish(state, end, winner)
    rules = state.rules
    if end != BLOCKED or not rules.blocked_low_wins or rules.positive_scoring:
        return
    n, low = state.players, min(before)
    scores = [0 if before[s] == low else ref.hand_value(state, s) for s in range(n)]
    state.scores = [before[s] + scores[s] for s in range(n)]
    state.result = Result(end, winner, tuple(scores))


def _heaviest_next_seat(state: State, holder: int) -> None:
    """SEAT-6 written from SEAT-4's code: the seat after the heaviest tile's holder
    starts."""
    ref.place_engine(state, holder)
    if state.rules.heaviest_tile_starts:
        state.seat = state.starter = (state.seat + 1) % state.players


def _chain_anywhere_opens_own(state: State) -> list[int]:
    """FIRST-11 with FIRST-2 kept for the chain's first tile: a first turn laid anywhere
    must open on the own train."""
    found = ref.playable_trains(state)
    seat = state.seat
    if (state.phase == START and state.first_pending >> seat & 1
            and state.rules.chain_anywhere and seat in found
            and not (state.open_doubles and ref.duties(state))):
        return [seat]
    return found


# --- refusals citing the wrong clause ------------------------------------------------------


def _recited(old: str | tuple[str, ...], new: str,
             when: Callable[[State, Action], bool] | None = None
             ) -> Callable[..., list[IllegalAction]]:
    """`_refusals` with clause `old` (or any of them) cited as `new` (where `when` holds)."""
    olds = (old,) if isinstance(old, str) else old

    def swapped(state: State, action: Action,
                legal: Sequence[Action] | None) -> list[IllegalAction]:
        found = _refusals(state, action, legal)
        if when is not None and not when(state, action):
            return found
        out: list[IllegalAction] = []
        for r in found:
            if r.clause in olds:
                r = IllegalAction(new, r.message)
            if all(x.clause != r.clause for x in out):
                out.append(r)
        return out
    return swapped


def _restricted(state: State, action: Action) -> bool:
    return state.phase == FOLLOW and state.rules.follow == FOLLOW_RESTRICTED


def _mexican(state: State, action: Action) -> bool:
    return action.train == state.players


def _end_chain_outside(state: State, action: Action) -> bool:
    return action.kind == "end-chain" and state.phase != CHAIN


def _draw(state: State, action: Action) -> bool:
    return action.kind == "draw"


def _pass(state: State, action: Action) -> bool:
    return action.kind == "pass"


FOURTEENTH_READING: tuple[Mutant, ...] = (
    # a table of one's own
    Mutant("mut14-d6-file-dealt-by-celko",
           "A double-6 rule set with a table of its own deals by Celko's table published "
           "for the set (9, 8, 6 tiles), not by the file's", ("DEAL-10", "DEAL-1", "DEAL-12"),
           "Rules.hand_table: the custom rows replaced by celko-d6's on double-6",
           rules=_rows_from(CELKO_D6, (6,))),
    Mutant("mut14-small-sets-dealt-by-d9-rows",
           "A double-8 or double-10 rule set deals 2 to 4 players by puremco's double-9 "
           "table (15, 13, 10), the nearest set with a published one, not by its file's",
           ("DEAL-11", "DEAL-1", "DEAL-4"),
           "Rules.hand_table: rows 2 to 4 of puremco-d9 on double-8 and double-10",
           rules=_rows_from(PUREMCO_D9, (8, 10))),
    Mutant("mut14-own-table-ignored",
           "A table of one's own is looked up under the wrong key and missed: every count "
           "pagat lists is dealt pagat's row", ("DEAL-11", "DEAL-10", "DEAL-1"),
           "Rules.hand_table: the custom rows replaced by pagat's where it lists the count",
           rules=_rows_from(PAGAT)),
    Mutant("mut14-own-table-round-one-only",
           "A table of one's own deals round 1 only: later rounds fall back on pagat's "
           "rows", ("DEAL-11", "DEAL-1", "MATCH-1"),
           "deal swapped (adapter): rounds 2 and up dealt by pagat's rows under custom",
           patches={"deal": _round_one_table}),
    Mutant("mut14-own-table-last-row-stretched",
           "A count past a table of one's own's last row is dealt by that row, where the "
           "hands fit, instead of being refused", ("DEAL-7", "DEAL-11"),
           "Rules.hand_table: rows past the largest count take its size under custom",
           rules=_last_row_stretched),
    Mutant("mut14-own-table-first-row-for-all",
           "A table of one's own is read at its first row: every player count takes the "
           "size of the smallest", ("DEAL-1", "DEAL-11"),
           "Rules.hand_table: every custom row given the first row's size",
           rules=_first_row_for_all),
    Mutant("mut14-own-table-sizes-ascending",
           "A table of one's own is read as two lists sorted ascending: the most players "
           "take the largest hands", ("DEAL-1", "DEAL-11", "DEAL-8"),
           "Rules.hand_table: the custom sizes paired in ascending order with the counts",
           rules=_sizes_ascending),
    Mutant("mut14-own-table-read-by-trains",
           "A table of one's own is looked up by the number of trains: n players take the "
           "row of n + 1, and the largest count is refused", ("DEAL-1", "DEAL-7", "DEAL-11"),
           "Rules.hand_table: row n <- row n + 1, the last row dropped, under custom",
           rules=_read_by_trains),
    # totals and round results
    Mutant("mut14-blocked-winner-zero-charged",
           "Under blocked-winner scoring the lowest hand's round score shows 0, but its "
           "hand is added to its match total", ("SCORE-7", "MATCH-1"),
           "_finish swapped: the totals add every hand after a blocked round",
           patches={"_finish": _blocked_zero_charged}),
    Mutant("mut14-blank-totals-at-face",
           "Under a blank rule the round's scores count blanks as the rule says, but the "
           "match totals add the hands at face value", ("SCORE-2", "SCORE-3", "SCORE-4",
                                                        "MATCH-1"),
           "_finish swapped: the totals add face-value hands",
           patches={"_finish": _blank_totals_at_face}),
    Mutant("mut14-positive-totals-charged",
           "Under positive scoring the round's sheet shows the collector's score, but each "
           "match total adds its holder's own hand", ("SCORE-6", "MATCH-1", "MATCH-3"),
           "_finish swapped: the totals add each hand under positive scoring",
           patches={"_finish": _positive_totals_charged}),
    # refusals citing the wrong clause
    Mutant("mut14-until-playable-pass-cites-turn-2",
           "Under draw-until-playable a pass refused because the player must draw again "
           "cites TURN-2, the draw-one rule, not TURN-5", ("TURN-5",),
           "_refusals swapped: TURN-5 cited as TURN-2",
           patches={"_refusals": _recited("TURN-5", "TURN-2")}),
    Mutant("mut14-duty-refusal-cites-train-4",
           "A play refused because an open double must be covered first cites TRAIN-4, "
           "as if the train were closed, not DBL-6", ("DBL-6",),
           "_refusals swapped: DBL-6 cited as TRAIN-4",
           patches={"_refusals": _recited("DBL-6", "TRAIN-4")}),
    Mutant("mut14-oldest-first-cites-dbl-6",
           "Under oldest-first covering a newer open double before the oldest is refused "
           "citing DBL-6, not DBL-7", ("DBL-7",),
           "_refusals swapped: DBL-7 cited as DBL-6",
           patches={"_refusals": _recited("DBL-7", "DBL-6")}),
    Mutant("mut14-own-train-first-mexican-cites-train-4",
           "Under own-train-first a play on the Mexican Train before the own train is "
           "started is refused citing TRAIN-4, not TRAIN-7", ("TRAIN-7",),
           "_refusals swapped: TRAIN-7 cited as TRAIN-4 for the Mexican Train",
           patches={"_refusals": _recited("TRAIN-7", "TRAIN-4", _mexican)}),
    Mutant("mut14-chain-anywhere-cites-first-1",
           "Under chain-anywhere-start a refusal of the first-turn chain's rule cites "
           "FIRST-1, the own-train chain, not FIRST-11", ("FIRST-11",),
           "_refusals swapped: FIRST-11 cited as FIRST-1",
           patches={"_refusals": _recited("FIRST-11", "FIRST-1")}),
    Mutant("mut14-lap-search-cites-eng-4",
           "Under engine-everyone-draws an action other than draw during the search is "
           "refused citing ENG-4, not ENG-6", ("ENG-6",),
           "_refusals swapped: ENG-6 cited as ENG-4",
           patches={"_refusals": _recited("ENG-6", "ENG-4")}),
    Mutant("mut14-drawn-tile-refusal-cites-turn-2",
           "After a draw a tile other than the drawn one is refused citing TURN-2, not "
           "TURN-3", ("TURN-3",), "_refusals swapped: TURN-3 cited as TURN-2",
           patches={"_refusals": _recited("TURN-3", "TURN-2")}),
    Mutant("mut14-restricted-follow-cites-dbl-4",
           "Under the restricted follow-up a tile refused after a double cites DBL-4, the "
           "Wikipedia rule, not DBL-3", ("DBL-3",),
           "_refusals swapped: DBL-3 cited as DBL-4 in a restricted follow-up",
           patches={"_refusals": _recited("DBL-3", "DBL-4", _restricted)}),
    Mutant("mut14-first-turn-draw-cites-turn-2",
           "Under a chain first turn a draw by a player who cannot start their train is "
           "refused citing TURN-2, not FIRST-3", ("FIRST-3",),
           "_refusals swapped: FIRST-3 cited as TURN-2",
           patches={"_refusals": _recited("FIRST-3", "TURN-2")}),
    Mutant("mut14-empty-boneyard-draw-cites-turn-2",
           "A draw from an empty boneyard is refused citing TURN-2, the one-draw rule, not "
           "TURN-4", ("TURN-4",), "_refusals swapped: TURN-4 cited as TURN-2",
           patches={"_refusals": _recited("TURN-4", "TURN-2")}),
    Mutant("mut14-draw-while-playable-cites-turn-2",
           "A draw by a player who holds a playable tile is refused citing TURN-2, not "
           "TURN-1 (must play)", ("TURN-1",), "_refusals swapped: TURN-1 cited as TURN-2 "
           "for a draw", patches={"_refusals": _recited("TURN-1", "TURN-2", _draw)}),
    Mutant("mut14-end-chain-outside-cites-first-7",
           "Under a chain first turn an end-chain outside a chain is refused citing FIRST-7 "
           "(no chains at all), not the chain's clause", ("FIRST-1", "FIRST-11"),
           "_refusals swapped: FIRST-1 and FIRST-11 cited as FIRST-7 for an end-chain",
           patches={"_refusals": _recited(("FIRST-1", "FIRST-11"), "FIRST-7",
                                              _end_chain_outside)}),
    Mutant("mut14-round-over-cites-turn-7",
           "An action after the round's end is refused citing TURN-7 (an unknown action), "
           "not END-1", ("END-1",), "_refusals swapped: END-1 cited as TURN-7",
           patches={"_refusals": _recited("END-1", "TURN-7")}),
    Mutant("mut14-starter-only-cites-train-4",
           "Under starter-opens-mexican opening the Mexican Train on another player's first "
           "turn is refused citing TRAIN-4, not FIRST-9", ("FIRST-9",),
           "_refusals swapped: FIRST-9 cited as TRAIN-4",
           patches={"_refusals": _recited("FIRST-9", "TRAIN-4")}),
    Mutant("mut14-chain-elsewhere-cites-train-4",
           "A first-turn chain's tile laid on another train is refused citing TRAIN-4, not "
           "FIRST-2", ("FIRST-2",), "_refusals swapped: FIRST-2 cited as TRAIN-4",
           patches={"_refusals": _recited("FIRST-2", "TRAIN-4")}),
    Mutant("mut14-one-tile-turn-end-chain-cites-first-1",
           "Under a single-tile first turn an end-chain is refused citing FIRST-1, as if "
           "chains were played, not FIRST-7", ("FIRST-7",),
           "_refusals swapped: FIRST-7 cited as FIRST-1",
           patches={"_refusals": _recited("FIRST-7", "FIRST-1")}),
    Mutant("mut14-chain-cover-due-cites-first-1",
           "Ending a first-turn chain on a double the player can cover is refused citing "
           "FIRST-1, not FIRST-4", ("FIRST-4",), "_refusals swapped: FIRST-4 cited as FIRST-1",
           patches={"_refusals": _recited("FIRST-4", "FIRST-1")}),
    Mutant("mut14-pass-while-playable-cites-turn-4",
           "A pass by a player who holds a playable tile is refused citing TURN-4, the "
           "pass's own rule, not TURN-1", ("TURN-1",),
           "_refusals swapped: TURN-1 cited as TURN-4 for a pass",
           patches={"_refusals": _recited("TURN-1", "TURN-4", _pass)}),
    Mutant("mut14-second-draw-cites-turn-5",
           "Under draw-one a second draw in a turn is refused citing TURN-5, the "
           "draw-until-playable rule, not TURN-2", ("TURN-2",),
           "_refusals swapped: TURN-2 cited as TURN-5 for a draw",
           patches={"_refusals": _recited("TURN-2", "TURN-5", _draw)}),
    # house starts and scores with few fixtures
    Mutant("mut14-blocked-winner-by-match-total",
           "Under blocked-winner scoring the blocked round's 0 goes to the seat lowest on "
           "the match totals, not to the lowest hand", ("SCORE-7",),
           "_finish swapped: the seats lowest on the totals before the round zeroed",
           patches={"_finish": _blocked_zero_by_total}),
    Mutant("mut14-heaviest-next-seat-starts",
           "Under heaviest-in-hand-start the seat after the heaviest tile's holder starts, "
           "as under after-engine-start", ("SEAT-6",),
           "_place_engine swapped: the start one seat past the heaviest tile's holder",
           patches={"_place_engine": _heaviest_next_seat}),
    Mutant("mut14-chain-anywhere-opens-on-own-train",
           "Under chain-anywhere-start the chain's first tile must go on the own train; "
           "only the later ones may go anywhere", ("FIRST-11", "FIRST-2"),
           "playable_trains swapped: the own train alone for a chain's first tile",
           patches={"playable_trains": _chain_anywhere_opens_own}),
    # the drawing
    Mutant("mut14-until-playable-drawn-stays-first",
           "Under draw-until-playable the drawn tile is set by the turn's first draw only: "
           "a playable tile drawn later may not be laid", ("TURN-5", "TURN-3"),
           "_draw swapped: drawn kept at the turn's first drawn tile",
           patches={"_draw": _drawn_kept_first}),
    # a table of one's own, the start
    Mutant("mut14-own-table-less-engine",
           "A table of one's own is read as counting the engine: where the engine is set "
           "aside each hand is dealt one tile short", ("DEAL-1", "DEAL-11", "ENG-2"),
           "Rules.hand_table: every custom row one less under set-aside",
           rules=_less_engine),
    Mutant("mut14-draw-weighed-by-blank-rule",
           "Under highest-draw-start with a blank rule the draw's tiles are weighed as they "
           "score in hand ([0-0] 50 under blank-25), not by their pips", ("SEAT-5", "SCORE-2",
                                                                         "SCORE-3"),
           "draw_winner swapped: the first drawing weighed with Rules.value",
           patches={"draw_winner": _draw_by_value}),
    Mutant("mut14-draw-checked-in-double-12",
           "Under highest-draw-start the draw's tiles are checked against a double-12 set: "
           "a drawn tile above 12 is refused, a tile not of a smaller set accepted",
           ("SEAT-5", "SET-1"), "draw_winner swapped: Rules.max_pip and set_mask of double-12",
           patches={"draw_winner": _draw_in_double_12}),
    Mutant("mut14-own-table-boneyard-by-pagat",
           "Under a table of one's own the hands are dealt by the table but the boneyard is "
           "cut where pagat's row would end them", ("DEAL-1", "DEAL-11"),
           "deal swapped (adapter): the boneyard from order[players * pagat's row:] under "
           "custom", patches={"deal": _boneyard_by_pagat}),
)
"""The fourteenth reading: 38 rule bugs, none a mutant of the catalogue (names and
descriptions checked against the thirteen readings before it). Two written and dropped as
equivalent to the reference at the protocol: a tile not of the set cited as TURN-7 rather
than SET-1, and a train that does not exist cited as TRAIN-4 rather than TRAIN-1 (the
reference's codec refuses both while reading the request, before any rule is asked).
Two need the adapter's `deal` swapped (implementation._SITES: the adapter imports it by
name): a table of one's own kept for round 1 alone, and the boneyard cut at pagat's row.

Measured on the corpus as it was before any fixture was added for them (2026-12-05,
`mtrain mutants CORPUS -m mut14-... -j 2`, 2,195 passing runs): 34 killed, four survived
(mut14-chain-anywhere-cites-first-1: no fixture refuses a draw, a pass or an end-chain
under chain-anywhere-start by FIRST-11 alone; mut14-lap-search-cites-eng-4: none refuses
an action during everyone-draws' search; mut14-one-tile-turn-end-chain-cites-first-1: none
refuses an end-chain under a single-tile first turn; mut14-draw-weighed-by-blank-rule: no
draw for the start holds a blank under a blank rule), and three had one killer alone
(mut14-end-chain-outside-cites-first-7: first-002; mut14-round-over-cites-turn-7:
end-002; mut14-draw-checked-in-double-12: draw-012). With the fixtures worked by hand from
the clauses (first-turn/chain-clauses-fourteenth-reading.yaml clause14-001 to -003,
engine/lap-refusals-fourteenth-reading.yaml lap14-001, -002,
seats/draw-fourteenth-reading.yaml drawblank14-001 to -003,
round-end/over-refusals-fourteenth-reading.yaml over14-001) every one is killed by two
fixtures or more (2,225 runs), and deal/own-tables-fourteenth-reading.yaml (owntab14-001
to -014: each file's table at rows and rounds no fixture dealt, and one count past its
end) raises the table mutants' killers (mut14-own-table-last-row-stretched from 2 to 4,
mut14-small-sets-dealt-by-d9-rows from 2 to 6). Blame charges all 38 to a clause they
break."""
