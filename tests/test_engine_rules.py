"""Hand-written tests of specific rules, one situation at a time.

Every expected value here is worked out from the clause text (spec/data/clauses.yaml) and
the tables of shared/RULES.md, never read off the engine. A situation is written as a
small table (`table(...)`) and turned into a State by the codec, or dealt from a chosen
tile order (`deal(order=...)`). Actions are written as in the fixtures: "play 5-3 on 0",
"play 9-3 on mexican", "draw", "pass", "end-chain".
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pytest

from mtrain.reference.codec import StateError, action_from_json, state_from_json, state_to_json
from mtrain.reference.deal import deal, deal_pool, match_winners, next_round
from mtrain.reference.engine import OVER, Action, IllegalAction, State, legal_actions
from mtrain.reference.invariants import hand_sizes
from mtrain.reference.refusals import apply
from mtrain.reference.rules import Rules
from mtrain.reference.state import LOW_MASK, LOW_SEATS, MARKED_HIGH, MARKED_LOW
from mtrain.spec import tiles as T
from mtrain.spec.catalog import catalog

# --- helpers ---------------------------------------------------------------------------


def rules(spec: str) -> Rules:
    """Rules for "base+overlay+..." ."""
    return Rules.of(catalog().ruleset(spec))


def oriented(tiles: Sequence[str], start: int) -> list[str]:
    """A train's tiles written near end first, from `start` (either order accepted)."""
    out, end = [], start
    for text in tiles:
        a, b = (int(x) for x in text.split("-"))
        if a != end:
            a, b = b, a
        assert a == end, f"{text} does not continue a train ending in {end}"
        out.append(f"{a}-{b}")
        end = b
    return out


def table(r: Rules, hands: Sequence[Sequence[str]], *,
          trains: Mapping[int | str, Sequence[str]] | None = None,
          marked: Iterable[int] = (), boneyard: Sequence[str] = (),
          seat: int = 0, starter: int = 0, phase: str = "start", round_no: int = 1,
          open_doubles: Sequence[int | str] | None = None,
          turn_doubles: Sequence[int | str] = (), drawn: str | None = None,
          first_turns: Iterable[int] = (), passes: int = 0,
          scores: Sequence[int] | None = None, outs: Sequence[int] | None = None,
          result: dict[str, Any] | None = None) -> State:
    """A State from a small description; everything not given takes its plain default.

    Trains are keyed by seat or "mexican"; tiles may be written in either order. The
    open doubles default to every train ending in a double, seats first then the
    Mexican Train. Tile conservation is not needed for these tests and is not enforced.
    """
    n = len(hands)
    engine = r.max_pip - (round_no - 1)
    trains = dict(trains or {})
    laid = {k: oriented(v, engine) for k, v in trains.items()}

    def train(key: int | str) -> dict[str, Any]:
        tiles = laid.get(key, [])
        end = int(tiles[-1].split("-")[1]) if tiles else engine
        body: dict[str, Any] = {"tiles": tiles, "end": end}
        if key != "mexican":
            body["marker"] = key in set(marked)
        return body

    if open_doubles is None:
        open_doubles = [k for k in [*range(n), "mexican"]
                        if laid.get(k) and laid[k][-1].split("-")[0] == laid[k][-1].split("-")[1]]
    data = {
        "round": round_no, "engine": engine, "engine_placed": phase != "engine",
        "phase": phase, "seat": seat, "starter": starter,
        "hands": [list(h) for h in hands], "boneyard": list(boneyard),
        "trains": [train(s) for s in range(n)], "mexican": train("mexican"),
        "open_doubles": list(open_doubles), "turn_doubles": list(turn_doubles),
        "drawn": drawn, "first_turns": sorted(first_turns), "passes": passes,
        "scores": list(scores) if scores is not None else [0] * n,
        "outs": list(outs) if outs is not None else [0] * n,
        "result": result,
    }
    return state_from_json(r, data)


def act(state: State, text: str) -> Action:
    """An action from its fixture text: "play 5-3 on 0", "play 5-3 on mexican", "draw"."""
    words = text.split()
    if words[0] != "play":
        return action_from_json(state, {"type": text})
    train: int | str = words[3] if words[3] == "mexican" else int(words[3])
    return action_from_json(state, {"type": "play", "tile": words[1], "train": train})


def name(state: State, action: Action) -> str:
    if action.kind != "play":
        return action.kind
    train = "mexican" if action.train == state.players else str(action.train)
    return f"play {T.name(action.tile)} on {train}"


def legal(state: State) -> set[str]:
    return {name(state, a) for a in legal_actions(state)}


def run(state: State, *texts: str) -> State:
    """Apply the actions in order (each must be legal)."""
    for text in texts:
        state = apply(state, act(state, text))
    return state


def refused(state: State, text: str) -> str:
    """The clause `apply` names when it refuses the action."""
    with pytest.raises(IllegalAction) as info:
        apply(state, act(state, text))
    return info.value.clause


def hand(state: State, seat: int) -> set[str]:
    return {T.name(t) for t in T.tiles_of(state.hands[seat])}


def order_with(r: Rules, placed: Mapping[int, str], round_no: int = 1,
               seed: int = 0) -> list[int]:
    """A deal order (hands from the front, seat 0 first, then the boneyard) holding every
    tile to deal, with the tiles of `placed` at the given positions."""
    engine = T.tile_id(r.max_pip - (round_no - 1), r.max_pip - (round_no - 1))
    pool = [t for t in T.tiles_of(r.set_mask) if r.holder_lays or t != engine]
    fixed = {i: T.parse(text) for i, text in placed.items()}
    rest = [t for t in pool if t not in fixed.values()]
    random.Random(seed).shuffle(rest)
    it = iter(rest)
    return [fixed[i] if i in fixed else next(it) for i in range(len(pool))]


PAGAT = rules("pagat")
PUREMCO = rules("puremco")
D9 = rules("puremco-d9")

# --- deal ------------------------------------------------------------------------------

# Hand sizes as RULES.md and DEAL-2..6 give them, copied by hand.
HAND_SIZES = {
    "pagat": {2: 15, 3: 15, 4: 15, 5: 12, 6: 12, 7: 10, 8: 10, 9: 8, 10: 8},
    "puremco": {2: 16, 3: 16, 4: 15, 5: 14, 6: 12, 7: 10, 8: 9},
    "puremco-d9": {2: 15, 3: 13, 4: 10},
    "puremco+cardinal-hands": {2: 15, 3: 15, 4: 15, 5: 12, 6: 12, 7: 11, 8: 11},
    "puremco+fundex-hands": {2: 15, 3: 15, 4: 15, 5: 11, 6: 11, 7: 8, 8: 8},
}
SET_SIZE = {"puremco": 91, "puremco-d9": 55, "puremco+cardinal-hands": 91,
            "puremco+fundex-hands": 91}


@pytest.mark.parametrize("spec", sorted(set(HAND_SIZES) - {"pagat"}))
def test_deal_sizes_engine_set_aside(spec: str) -> None:
    """DEAL-1..6, ENG-2: the engine is out before the deal; every hand has the table's size."""
    r = rules(spec)
    assert not r.holder_lays
    assert dict(r.hand_table) == HAND_SIZES[spec]
    for players, size in HAND_SIZES[spec].items():
        st = deal(r, players, seed=players)
        assert [h.bit_count() for h in st.hands] == [size] * players
        assert len(st.boneyard) == SET_SIZE[spec] - 1 - players * size
        assert st.engine_placed
        assert T.tile_id(st.engine, st.engine) not in st.boneyard
        assert hand_sizes(st) == []


@pytest.mark.parametrize("players", sorted(HAND_SIZES["pagat"]))
def test_deal_sizes_pagat_holder_lays(players: int) -> None:
    """DEAL-2, ENG-3: every tile is dealt; whoever holds [12-12] places it at once."""
    assert dict(PAGAT.hand_table) == HAND_SIZES["pagat"]
    size = HAND_SIZES["pagat"][players]
    order = order_with(PAGAT, {0: "12-12"}, seed=players)  # seat 0 holds the engine
    st = deal(PAGAT, players, order=order)
    assert [h.bit_count() for h in st.hands] == [size - 1] + [size] * (players - 1)
    assert len(st.boneyard) == 91 - players * size
    assert st.engine_placed and st.seat == 0 and st.starter == 0
    assert hand_sizes(st) == []


@pytest.mark.parametrize(("spec", "players"), [("puremco", 9), ("puremco", 1),
                                                ("puremco-d9", 5), ("pagat", 11)])
def test_deal_refuses_unlisted_player_counts(spec: str, players: int) -> None:
    """DEAL-7: a player count the table does not list is refused, not guessed."""
    with pytest.raises(ValueError, match=r"DEAL-7"):
        deal(rules(spec), players, seed=1)


# --- the engine ------------------------------------------------------------------------


def test_holder_lays_the_engine_and_starts() -> None:
    """ENG-3, SEAT-2: seat 2 holds [12-12]: it is placed from that hand and seat 2 starts."""
    order = order_with(PAGAT, {2 * 15 + 3: "12-12"})
    st = deal(PAGAT, 4, order=order)
    assert st.engine_placed and st.phase == "start"
    assert (st.seat, st.starter) == (2, 2)
    assert "12-12" not in hand(st, 2)
    assert [h.bit_count() for h in st.hands] == [15, 15, 14, 15]
    assert st.boneyard == order[60:]


def test_nobody_holds_the_engine_players_draw_for_it() -> None:
    """ENG-4: round 1, four players: the search starts at seat (1-1) mod 4 = 0; seats 0
    and 1 draw and keep their tiles; seat 2 draws [12-12], places it, and starts (SEAT-2)."""
    order = order_with(PAGAT, {62: "12-12"})
    st = deal(PAGAT, 4, order=order)
    assert st.phase == "engine" and not st.engine_placed
    assert st.seat == 0
    assert legal(st) == {"draw"}
    assert refused(st, "pass") == "ENG-4"
    assert hand_sizes(st) == []  # nobody placed anything: every hand has 15
    st = run(st, "draw")
    assert st.seat == 1 and T.BIT[order[60]] & st.hands[0]
    st = run(st, "draw")
    assert st.seat == 2 and T.BIT[order[61]] & st.hands[1]
    st = run(st, "draw")
    assert st.engine_placed and st.phase == "start"
    assert (st.seat, st.starter) == (2, 2)
    assert [h.bit_count() for h in st.hands] == [16, 16, 15, 15]
    assert "12-12" not in hand(st, 2)
    assert st.boneyard == order[63:]


def test_engine_search_starts_at_the_rotating_seat() -> None:
    """ENG-4: in round 3 ([10-10]) of a 4-player match the search starts at seat 2; the
    engine is second in the boneyard, so seat 2 keeps a tile and seat 3 finds it."""
    order = order_with(PAGAT, {61: "10-10"}, round_no=3)
    st = deal(PAGAT, 4, 3, order=order)
    assert st.phase == "engine" and st.seat == 2
    st = run(st, "draw", "draw")
    assert (st.seat, st.starter) == (3, 3)
    assert [h.bit_count() for h in st.hands] == [15, 15, 16, 15]


@pytest.mark.parametrize("spec", ["puremco", "pagat+engine-aside"])
def test_engine_set_aside_start_rotates(spec: str) -> None:
    """ENG-2, SEAT-3: the engine is never dealt; round r starts at seat (r-1) mod n."""
    r = rules(spec)
    for round_no in (1, 2, 3, 4, 5, 13):
        st = deal(r, 3, round_no, seed=round_no)
        engine = 12 - (round_no - 1)
        assert st.engine == engine
        assert all(not h & T.BIT[T.tile_id(engine, engine)] for h in st.hands)
        assert (st.seat, st.starter) == ((round_no - 1) % 3,) * 2


# --- the first turn under pagat (a chain) ---------------------------------------------


def chain_table(hand0: Sequence[str], **kw: Any) -> State:
    """Three players, round 1, seat 0 starts; the Mexican Train is empty, seat 2 marked."""
    others = [["11-10", "9-8"], ["12-2", "7-6"]]
    return table(PAGAT, [hand0, *others], first_turns=[0, 1, 2], **kw)


def test_first_turn_chain_on_own_train_only() -> None:
    """FIRST-1, FIRST-2: the chain starts with a tile bearing 12 on the player's own train
    and nowhere else (the empty Mexican Train would also take it); end-chain only after a tile."""
    st = chain_table(["12-5", "5-3", "12-4", "9-1"], trains={2: ["12-9"]}, marked=[2])
    assert legal(st) == {"play 12-5 on 0", "play 12-4 on 0"}
    assert refused(st, "play 12-5 on mexican") == "FIRST-2"
    assert refused(st, "play 9-1 on 2") == "FIRST-2"
    assert refused(st, "end-chain") == "FIRST-1"
    st = run(st, "play 12-5 on 0")
    assert (st.phase, st.seat) == ("chain", 0)
    assert legal(st) == {"play 5-3 on 0", "end-chain"}
    assert refused(st, "play 12-4 on mexican") == "FIRST-2"
    st = run(st, "play 5-3 on 0")
    assert legal(st) == {"end-chain"}
    st = run(st, "end-chain")
    assert (st.phase, st.seat) == ("start", 1)
    assert hand(st, 0) == {"12-4", "9-1"}
    assert 0 not in [s for s in range(3) if st.first_pending >> s & 1]


def test_first_turn_chain_may_stop_early() -> None:
    """FIRST-1: any length of one tile or more; the player need not lay the longest line."""
    st = run(chain_table(["12-5", "5-3", "3-1"]), "play 12-5 on 0", "end-chain")
    assert st.seat == 1 and hand(st, 0) == {"5-3", "3-1"}


def test_chain_double_must_be_covered_when_possible() -> None:
    """FIRST-4: after a double in the chain the player covers it if they can; only then
    may the chain end on a double."""
    st = run(chain_table(["12-3", "3-3", "3-1", "9-9"]), "play 12-3 on 0", "play 3-3 on 0")
    assert st.phase == "chain"
    assert legal(st) == {"play 3-1 on 0"}
    assert refused(st, "end-chain") == "FIRST-4"
    st = run(chain_table(["12-3", "3-3", "9-1"]), "play 12-3 on 0", "play 3-3 on 0")
    assert legal(st) == {"end-chain"}
    st = run(st, "end-chain")
    assert st.seat == 1 and st.open_doubles == [0]


def test_chain_no_double_end_lays_a_double_only_with_a_tile_to_follow() -> None:
    """FIRST-12: a double goes into the chain only while a tile bearing its number stays
    in hand (FIRST-4 then makes the player cover it), or as the last tile (END-1)."""
    r = rules("pagat+no-double-end-start")

    def chain_table(hand0: Sequence[str]) -> State:
        return table(r, [hand0, ["11-10", "9-8"], ["12-2", "7-6"]], first_turns=[0, 1, 2])

    st = run(chain_table(["12-3", "3-3", "9-1"]), "play 12-3 on 0")
    assert legal(st) == {"end-chain"}
    assert refused(st, "play 3-3 on 0") == "FIRST-12"
    st = run(chain_table(["12-3", "3-3", "3-1", "9-9"]), "play 12-3 on 0")
    assert legal(st) == {"play 3-3 on 0", "play 3-1 on 0", "end-chain"}
    st = run(st, "play 3-3 on 0")
    assert legal(st) == {"play 3-1 on 0"} and refused(st, "end-chain") == "FIRST-4"
    st = run(chain_table(["12-3", "3-3"]), "play 12-3 on 0", "play 3-3 on 0")
    assert st.result is not None and (st.result.end, st.result.winner) == ("domino", 0)


def test_first_turn_no_start_marks_without_drawing() -> None:
    """FIRST-3: no tile bearing 12: the marker goes up, nothing is drawn."""
    st = chain_table(["5-3", "9-1"], boneyard=["12-6", "4-4"])
    assert legal(st) == {"pass"}
    assert refused(st, "draw") == "FIRST-3"
    st = run(st, "pass")
    assert st.marked(0) and st.seat == 1
    assert [T.name(t) for t in st.boneyard] == ["12-6", "4-4"]
    assert hand(st, 0) == {"5-3", "9-1"}


def test_chain_double_obliges_nobody_until_every_first_turn_is_over() -> None:
    """FIRST-5: seat 0's chain ended on an open [5-5]; seat 1, still on its first turn,
    plays its own chain and does not cover. DBL-6, TRAIN-6: once every player has had a
    first turn, the player to move must cover it, on seat 0's unmarked train."""
    trains: dict[int | str, list[str]] = {0: ["12-5", "5-5"]}
    st = table(PAGAT, [["9-1"], ["5-1", "12-3"], ["5-6", "8-8"]], trains=trains, seat=1,
               first_turns=[1, 2])
    assert legal(st) == {"play 12-3 on 1"}
    assert refused(st, "play 5-1 on 0") == "FIRST-2"
    st = table(PAGAT, [["9-1"], ["5-1", "12-6", "3-2"], ["5-6", "8-8"]],
               trains={**trains, 1: ["12-3"]}, seat=1, first_turns=[])
    assert legal(st) == {"play 5-1 on 0"}
    assert refused(st, "play 12-6 on mexican") == "DBL-6"
    assert refused(st, "play 3-2 on 1") == "DBL-6"


def test_after_the_first_turns_play_is_normal() -> None:
    """FIRST-6: a player's second turn is an ordinary one-tile turn (Mexican Train open)."""
    st = table(PAGAT, [["5-2", "12-7"], ["1-0"]], trains={0: ["12-5"]}, first_turns=[])
    assert legal(st) == {"play 5-2 on 0", "play 12-7 on mexican"}
    st = run(st, "play 5-2 on 0")
    assert st.seat == 1 and st.phase == "start"


# --- single-tile start (puremco) -------------------------------------------------------


def test_single_tile_start_anyone_opens_the_mexican_train() -> None:
    """FIRST-7, FIRST-8: on puremco, one tile per turn from the start; seat 1 (not the
    starter) may open the Mexican Train on its first turn."""
    st = table(PUREMCO, [["1-0"], ["12-3", "3-1"], ["2-0"]], seat=1, first_turns=[1, 2])
    assert legal(st) == {"play 12-3 on 1", "play 12-3 on mexican"}
    st = run(st, "play 12-3 on 1")
    assert st.seat == 2  # FIRST-7: one tile, the turn is over


def test_only_the_starter_opens_the_mexican_train_early() -> None:
    """FIRST-9: with starter-opens-mexican, seat 1 on its first turn may not open the
    Mexican Train; the starter (seat 0) may; once it is open, seat 1 may play on it."""
    r = rules("puremco+starter-opens-mexican")
    st = table(r, [["12-1"], ["12-3"], ["2-0"]], seat=1, first_turns=[1, 2])
    assert legal(st) == {"play 12-3 on 1"}
    assert refused(st, "play 12-3 on mexican") == "FIRST-9"
    st = table(r, [["12-1"], ["12-3"], ["2-0"]], seat=0, first_turns=[0, 1, 2])
    assert legal(st) == {"play 12-1 on 0", "play 12-1 on mexican"}
    st = table(r, [["12-1"], ["4-3"], ["2-0"]], trains={"mexican": ["12-4"]}, seat=1,
               first_turns=[1, 2])
    assert legal(st) == {"play 4-3 on mexican"}


def test_own_train_first() -> None:
    """TRAIN-7: until a player has started their own train, they may play only on it."""
    r = rules("puremco+own-train-first")
    st = table(r, [["12-3", "9-1"], ["1-0"]], trains={"mexican": ["12-9"], 1: ["12-1"]},
               marked=[1])
    assert legal(st) == {"play 12-3 on 0"}
    assert refused(st, "play 9-1 on mexican") == "TRAIN-7"
    st = table(r, [["3-4", "9-1"], ["1-0"]], trains={0: ["12-3"], "mexican": ["12-9"],
                                                     1: ["12-1"]}, marked=[1])
    assert legal(st) == {"play 4-3 on 0", "play 9-1 on mexican", "play 9-1 on 1"}


# --- ordinary turns --------------------------------------------------------------------


def turn_table(r: Rules, hand0: Sequence[str], boneyard: Sequence[str] = ("8-8",),
               **kw: Any) -> State:
    """Three players after the first turns: seat 0 to move; train 0 ends in 5, train 1 in
    7 (seat 1's, unmarked), the Mexican Train in 9."""
    trains = {0: ["12-5"], 1: ["12-7"], "mexican": ["12-9"], **kw.pop("trains", {})}
    return table(r, [hand0, ["11-0"], ["10-0"]], trains=trains, boneyard=boneyard, **kw)


@pytest.mark.parametrize("spec", ["pagat", "puremco"])
def test_must_play_when_able(spec: str) -> None:
    """TURN-1, TRAIN-4: a playable tile must be played; seat 1's unmarked train is closed."""
    st = turn_table(rules(spec), ["5-2", "7-1", "11-4"])
    assert legal(st) == {"play 5-2 on 0"}
    assert refused(st, "draw") == "TURN-1"
    assert refused(st, "pass") == "TURN-1"
    assert refused(st, "play 7-1 on 1") == "TRAIN-4"
    assert refused(st, "play 11-4 on 0") == "TRAIN-2"
    assert refused(st, "play 10-0 on 0") == "TURN-7"


@pytest.mark.parametrize("spec", ["pagat", "puremco"])
def test_draw_one_then_play_only_the_drawn_tile(spec: str) -> None:
    """TURN-2, TURN-3: no play: draw one; the drawn [9-3] fits the Mexican Train and must
    be played there."""
    st = turn_table(rules(spec), ["11-4", "6-2"], boneyard=["9-3", "5-1"])
    assert legal(st) == {"draw"}
    assert refused(st, "pass") == "TURN-2"
    st = run(st, "draw")
    assert st.seat == 0 and hand(st, 0) == {"11-4", "6-2", "9-3"}
    assert legal(st) == {"play 9-3 on mexican"}
    assert refused(st, "draw") == "TURN-1"
    st = run(st, "play 9-3 on mexican")
    assert st.seat == 1 and not st.marked(0)


def test_pass_after_unplayable_draw_puts_the_marker_up() -> None:
    """TURN-4, MARK-1: the drawn tile cannot be played: pass, marker up, turn over."""
    st = run(turn_table(PAGAT, ["11-4"], boneyard=["6-6", "9-3"]), "draw")
    assert legal(st) == {"pass"}
    assert refused(st, "draw") == "TURN-2"
    assert refused(st, "play 6-6 on 0") == "TRAIN-2"
    st = run(st, "pass")
    assert st.marked(0) and st.seat == 1
    assert [T.name(t) for t in st.boneyard] == ["9-3"]


def test_a_second_draw_is_refused_by_one_draw_a_turn_too() -> None:
    """TURN-2 limits a turn to one draw whatever else refuses the second: after drawing
    the last tile of the boneyard (TURN-4 refuses too), or a tile that plays (TURN-1
    too), an engine citing TURN-2 is right (caboose's fuzz run was told it was not)."""
    st = run(turn_table(PAGAT, ["11-4"], boneyard=["6-1"]), "draw")
    assert legal(st) == {"pass"}
    assert refusing(st, "draw") == ["TURN-4", "TURN-2"]
    st = run(turn_table(PAGAT, ["11-4"], boneyard=["9-3"]), "draw")
    # TURN-3 too: the drawn tile can be played, so it must be (yardmaster, house55b)
    assert refusing(st, "draw") == ["TURN-1", "TURN-2", "TURN-3"]
    # draw until playable: a second draw is the rule (TURN-5), refused only as before
    st = run(turn_table(rules("pagat+draw-until-playable"), ["11-4"], boneyard=["6-1"]),
             "draw")
    assert refusing(st, "draw") == ["TURN-4"]


def test_empty_boneyard_pass() -> None:
    """TURN-4: no play and an empty boneyard: pass with the marker up."""
    st = turn_table(PAGAT, ["11-4"], boneyard=[])
    assert legal(st) == {"pass"}
    assert refused(st, "draw") == "TURN-4"


def test_draw_until_playable() -> None:
    """TURN-5: draw one tile at a time until one can be played; pass only when the boneyard
    is empty."""
    r = rules("pagat+draw-until-playable")
    st = turn_table(r, ["11-4"], boneyard=["6-6", "4-1", "9-3", "2-2"])
    st = run(st, "draw")
    assert legal(st) == {"draw"}
    assert refused(st, "pass") == "TURN-5"
    st = run(st, "draw", "draw")
    assert legal(st) == {"play 9-3 on mexican"}
    st = turn_table(r, ["11-4"], boneyard=["6-6"])
    st = run(st, "draw")
    assert legal(st) == {"pass"}


# --- doubles ---------------------------------------------------------------------------

DOUBLES_HAND = ["5-5", "7-7", "9-9", "5-2", "9-3", "7-1", "11-4"]


def doubles_table(r: Rules) -> State:
    """Seat 0 to move; trains: 0 ends in 5, seat 1's (marked) in 7, the Mexican in 9."""
    return turn_table(r, DOUBLES_HAND, marked=[1])


def test_double_asks_for_another_tile() -> None:
    """DBL-1: after a double the same player plays again; the turn ends on a non-double."""
    st = run(doubles_table(PAGAT), "play 5-5 on 0")
    assert (st.phase, st.seat) == ("follow", 0)
    st = run(st, "play 9-9 on mexican")
    assert (st.phase, st.seat) == ("follow", 0)
    st = run(st, "play 9-3 on mexican")
    assert (st.phase, st.seat) == ("start", 1)
    assert st.open_doubles == [0]


def test_follow_up_anywhere() -> None:
    """DBL-2 (pagat): the tile after a double may go anywhere the player may play."""
    st = run(doubles_table(PAGAT), "play 5-5 on 0")
    assert legal(st) == {"play 5-2 on 0", "play 7-7 on 1", "play 7-1 on 1",
                         "play 9-9 on mexican", "play 9-3 on mexican"}
    st = run(st, "play 7-7 on 1")
    assert legal(st) == {"play 5-2 on 0", "play 7-1 on 1", "play 9-9 on mexican",
                         "play 9-3 on mexican"}


def test_follow_up_restricted() -> None:
    """DBL-3 (puremco): after [5-5] on train 0 then [7-7] on train 1, the tile may go on
    the first double (train 0), the Mexican Train, or a train not ending in an open
    double: train 1 now ends in one, so [7-1] there is refused."""
    st = run(doubles_table(PUREMCO), "play 5-5 on 0")
    assert legal(st) == {"play 5-2 on 0", "play 7-7 on 1", "play 7-1 on 1",
                         "play 9-9 on mexican", "play 9-3 on mexican"}
    st = run(st, "play 7-7 on 1")
    assert legal(st) == {"play 5-2 on 0", "play 9-9 on mexican", "play 9-3 on mexican"}
    assert refused(st, "play 7-1 on 1") == "DBL-3"


def test_follow_up_cover_own() -> None:
    """DBL-4 (wikipedia): the tile after a double must cover the double just laid."""
    st = run(doubles_table(rules("pagat+wikipedia-doubles")), "play 5-5 on 0")
    assert legal(st) == {"play 5-2 on 0"}
    assert refused(st, "play 9-3 on mexican") == "DBL-4"


def test_failing_to_follow_a_double() -> None:
    """DBL-5: no tile for the follow-up: draw; still nothing: pass, marker up, the double
    stays open."""
    st = turn_table(PAGAT, ["5-5", "11-4"], boneyard=["6-1", "3-3"])
    st = run(st, "play 5-5 on 0")
    assert legal(st) == {"draw"}
    st = run(st, "draw")
    assert legal(st) == {"pass"}
    st = run(st, "pass")
    assert st.seat == 1 and st.marked(0) and st.open_doubles == [0]


def test_drawn_double_then_an_ordinary_follow_up() -> None:
    """TURN-3, DBL-1, DBL-5: the drawn [9-9] must be laid; once it is, the player is no
    longer held to the drawn tile: nothing in hand follows it, so they draw again (DBL-5)
    rather than pass, and must lay the new [9-2]."""
    st = turn_table(PAGAT, ["11-4", "6-1"], boneyard=["9-9", "9-2", "1-1"])
    assert legal(st) == {"draw"}
    st = run(st, "draw")
    assert legal(st) == {"play 9-9 on mexican"}
    st = run(st, "play 9-9 on mexican")
    assert (st.phase, st.seat) == ("follow", 0)
    assert legal(st) == {"draw"}
    st = run(st, "draw")
    assert legal(st) == {"play 9-2 on mexican"}
    st = run(st, "play 9-2 on mexican")
    assert st.seat == 1 and st.open_doubles == [] and not st.marked(0)


def test_follow_up_covers_own_double_on_a_train_whose_marker_came_off() -> None:
    """DBL-2, TRAIN-6 with MARK-4: seat 0 lays [7-7] on seat 1's marked train, which takes
    the marker off; the follow-up may still cover that double there."""
    st = run(doubles_table(rules("pagat+marker-anyone")), "play 7-7 on 1")
    assert not st.marked(1)
    assert "play 7-1 on 1" in legal(st)
    st = run(st, "play 7-1 on 1")
    assert st.seat == 1 and st.open_doubles == []


@pytest.mark.parametrize("spec", ["pagat", "puremco", "pagat+wikipedia-doubles"])
def test_open_double_duty_at_the_next_turn(spec: str) -> None:
    """DBL-6, TRAIN-6: seat 1 must cover the [5-5] left open on seat 0's unmarked train,
    and may play nothing else; unable to, even after drawing, it passes with its marker
    up and the duty moves to seat 2."""
    r = rules(spec)
    trains: dict[int | str, list[str]] = {0: ["12-5", "5-5"], 1: ["12-7"],
                                          "mexican": ["12-9"]}
    st = table(r, [["11-0"], ["5-1", "9-2", "7-3"], ["5-4"]], trains=trains, seat=1)
    assert legal(st) == {"play 5-1 on 0"}
    assert refused(st, "play 9-2 on mexican") == "DBL-6"
    assert refused(st, "play 7-3 on 1") == "DBL-6"
    st = table(r, [["11-0"], ["9-2", "7-3"], ["5-4"]], trains=trains, seat=1,
               boneyard=["9-6", "1-1"])
    assert legal(st) == {"draw"}
    st = run(st, "draw")
    assert legal(st) == {"pass"}  # the drawn [9-6] would fit the Mexican Train: closed
    st = run(st, "pass")
    assert st.seat == 2 and st.marked(1) and st.open_doubles == [0]
    assert legal(st) == {"play 5-4 on 0"}


def test_drawn_tile_under_the_duty_may_only_cover() -> None:
    """DBL-6, TURN-3: the drawn tile is played only if it covers."""
    trains: dict[int | str, list[str]] = {0: ["12-5", "5-5"], "mexican": ["12-9"]}
    st = table(PAGAT, [["11-0"], ["9-2"], ["6-6"]], trains=trains, seat=1,
               boneyard=["9-5"])
    st = run(st, "draw")
    assert legal(st) == {"play 9-5 on 0"}


def two_doubles(r: Rules, order: Sequence[int | str]) -> State:
    """Seat 2 to move; seat 1's train ends in [7-7], the Mexican Train in [9-9]."""
    trains: dict[int | str, list[str]] = {1: ["12-7", "7-7"], "mexican": ["12-9", "9-9"]}
    return table(r, [["11-0"], ["10-0"], ["7-3", "9-4"]], trains=trains, seat=2,
                 open_doubles=order)


def test_oldest_double_first() -> None:
    """DBL-7: several open doubles are covered oldest first."""
    st = two_doubles(PAGAT, [1, "mexican"])
    assert legal(st) == {"play 7-3 on 1"}
    assert refused(st, "play 9-4 on mexican") == "DBL-7"
    st = two_doubles(PAGAT, ["mexican", 1])
    assert legal(st) == {"play 9-4 on mexican"}


def test_any_open_double() -> None:
    """DBL-8: with any-double-first, any open double may be covered."""
    st = two_doubles(rules("pagat+any-double-first"), [1, "mexican"])
    assert legal(st) == {"play 7-3 on 1", "play 9-4 on mexican"}


# Every tile bearing 5 on the table, [5-5] last on train 0: nobody can cover it.
ALL_FIVES: dict[int | str, list[str]] = {
    0: ["12-5", "5-5"],
    1: ["12-4", "4-5", "5-6", "6-0", "0-5", "5-7"],
    2: ["12-3", "3-5", "5-8", "8-1", "1-5", "5-9"],
    "mexican": ["12-10", "10-5", "5-11", "11-2", "2-5"],
}


def test_all_fives_are_out() -> None:
    laid = [t for train in ALL_FIVES.values() for t in train]
    assert len(set(laid)) == len(laid)
    assert sum(1 for t in laid if "5" in t.split("-")) == 13


def test_uncoverable_double_released() -> None:
    """DBL-9 (puremco): once every tile of its number is on the table the double no longer
    closes anything: seat 1 plays on its own train."""
    st = table(PUREMCO, [["11-0"], ["7-3"], ["9-9"]], trains=ALL_FIVES, seat=1,
               boneyard=["1-1"])
    assert st.open_doubles == [0]
    assert legal(st) == {"play 7-3 on 1"}


def test_uncoverable_double_stays_open() -> None:
    """DBL-10 (pagat): the duty stays; seat 1 can only draw (and then pass)."""
    st = table(PAGAT, [["11-0"], ["7-3"], ["9-9"]], trains=ALL_FIVES, seat=1,
               boneyard=["1-1"])
    assert legal(st) == {"draw"}
    assert refused(st, "play 7-3 on 1") == "DBL-6"
    st = table(rules("pagat+release-uncoverable"), [["11-0"], ["7-3"], ["9-9"]],
               trains=ALL_FIVES, seat=1, boneyard=["1-1"])
    assert legal(st) == {"play 7-3 on 1"}


def test_released_when_the_boneyard_empties_mid_turn() -> None:
    """DBL-12: [5-5] (a 5 still in a hand) binds seat 0 while the boneyard holds [3-7];
    the draw empties it, the duty goes, and the drawn tile goes on seat 0's own train."""
    r = rules("pagat+release-on-empty-boneyard")
    trains: dict[int | str, list[str]] = {0: ["12-3"], 1: ["12-5", "5-5"], 2: ["12-6"],
                                           "mexican": ["12-8"]}
    st = table(r, [["3-2"], ["5-1"], ["6-4"]], trains=trains, boneyard=["3-7"])
    assert legal(st) == {"draw"}
    st = run(st, "draw")
    assert legal(st) == {"play 7-3 on 0"}
    assert refused(st, "pass") == "TURN-1"
    assert st.open_doubles == [1]  # released, not covered
    # the released double's unmarked train stays closed to seat 1's neighbour (TRAIN-4)
    st2 = table(r, [["9-9"], ["12-0"], ["5-7", "6-4"]], trains=trains, seat=2)
    assert legal(st2) == {"play 6-4 on 2"}
    assert refused(st2, "play 5-7 on 1") == "TRAIN-4"


def test_follow_up_only_binds_the_layer_alone() -> None:
    """DBL-13: seat 0 cannot cover its [5-5], draws once and passes; seat 1 is free."""
    r = rules("pagat+follow-up-only")
    trains: dict[int | str, list[str]] = {0: ["12-5", "5-5"], 1: ["12-4"], 2: ["12-7"],
                                           "mexican": ["12-8"]}
    st = table(r, [["3-1", "6-2"], ["5-6", "4-3"], ["9-9"]], trains=trains, phase="follow",
               turn_doubles=[0], boneyard=["1-1", "11-11"])
    assert legal(st) == {"draw"}
    st = run(st, "draw", "pass")
    assert st.seat == 1 and st.marked(0) and st.open_doubles == [0]
    assert legal(st) == {"play 6-5 on 0", "play 4-3 on 1"}
    pagat = table(PAGAT, [["3-1", "6-2"], ["5-6", "4-3"], ["9-9"]], trains=trains,
                  phase="follow", turn_doubles=[0], boneyard=["1-1", "11-11"])
    assert legal(run(pagat, "draw", "pass")) == {"play 6-5 on 0"}


# --- markers ---------------------------------------------------------------------------


def marker_table(r: Rules) -> State:
    """Seat 0 to move; trains 0 (ends 4) and 1 (ends 6) marked; the Mexican ends in 8."""
    trains: dict[int | str, list[str]] = {0: ["12-4"], 1: ["12-6"], "mexican": ["12-8"]}
    return table(r, [["4-1", "6-2", "8-3", "11-0"], ["10-0"], ["9-0"]], trains=trains,
                 marked=[0, 1])


MARKERS_AFTER = {
    # MARK-3: off when the owner plays on their own train
    "pagat": {"play 4-1 on 0": [False, True, False],
              "play 6-2 on 1": [True, True, False],
              "play 8-3 on mexican": [True, True, False]},
    # MARK-4: off when anyone plays on that train
    "pagat+marker-anyone": {"play 4-1 on 0": [False, True, False],
                            "play 6-2 on 1": [True, False, False],
                            "play 8-3 on mexican": [True, True, False]},
    # MARK-5: off when the owner plays anywhere
    "pagat+marker-owner-anywhere": {"play 4-1 on 0": [False, True, False],
                                    "play 6-2 on 1": [False, True, False],
                                    "play 8-3 on mexican": [False, True, False]},
}


@pytest.mark.parametrize("spec", sorted(MARKERS_AFTER))
def test_marker_removal(spec: str) -> None:
    r = rules(spec)
    for action, markers in MARKERS_AFTER[spec].items():
        st = run(marker_table(r), action)
        assert [st.marked(q) for q in range(3)] == markers, action


def test_covering_a_double_on_own_train_removes_the_marker() -> None:
    """MARK-3: covering a double on one's own train is playing on it."""
    trains: dict[int | str, list[str]] = {0: ["12-5", "5-5"]}
    st = table(PAGAT, [["5-1", "11-0"], ["10-0"]], trains=trains, marked=[0])
    st = run(st, "play 5-1 on 0")
    assert not st.marked(0)


def test_marked_train_open_to_all_unmarked_closed() -> None:
    """MARK-1, TRAIN-4: a marked train takes anyone's tile; an unmarked one only its owner's."""
    st = marker_table(PAGAT)
    assert legal(st) == {"play 4-1 on 0", "play 6-2 on 1", "play 8-3 on mexican"}
    st = table(PAGAT, [["4-1", "6-2"], ["10-0"]], trains={0: ["12-4"], 1: ["12-6"]})
    assert refused(st, "play 6-2 on 1") == "TRAIN-4"


def test_marked_trains_past_the_twelfth_seat() -> None:
    """TRAIN-4, MARK-1 on a table of 16: the marked trains of seats 3 and 14 take seat 0's
    tile, the unmarked seat 5's (same open end) does not; seats past the twelfth are read
    from the engine's second table of marked seats."""
    others = ["0-0", "1-0", "1-1", "2-0", "2-1", "2-2", "3-0", "3-1", "3-2", "3-3", "4-0",
              "4-2", "4-3", "4-4", "5-0"]
    trains: dict[int | str, list[str]] = {0: ["12-11"], 3: ["12-4"], 5: ["12-9", "9-4"],
                                          14: ["12-8", "8-4"], "mexican": ["12-10"]}
    st = table(PAGAT, [["4-1"], *[[t] for t in others]], trains=trains, marked=[3, 14])
    assert legal(st) == {"play 4-1 on 3", "play 4-1 on 14"}
    assert [s for s in range(16) if st.marked(s)] == [3, 14]
    st.set_marker(14, False)
    st.set_marker(15, True)
    assert legal(st) == {"play 4-1 on 3"} and st.markers == 1 << 3 | 1 << 15


def test_tables_of_marked_seats() -> None:
    """The seats the engine reads off a marker mask are its set bits, lowest first."""
    rng = random.Random(5)
    for mask in [0, 1, LOW_MASK, *(rng.getrandbits(LOW_SEATS) for _ in range(200))]:
        assert MARKED_LOW[mask] == tuple(s for s in range(LOW_SEATS) if mask >> s & 1)
    for mask in range(len(MARKED_HIGH)):
        assert MARKED_HIGH[mask] == tuple(LOW_SEATS + s for s in range(8) if mask >> s & 1)


def test_no_marker_on_the_mexican_train() -> None:
    """MARK-2: the Mexican Train never carries a marker; the codec refuses one."""
    st = table(PAGAT, [["1-0"], ["2-0"]])
    assert st.markers >> 2 == 0  # no bit at the Mexican Train's (seat 2 of 2)
    data: dict[str, Any] = {
        "round": 1, "engine": 12, "engine_placed": True, "phase": "start", "seat": 0,
        "starter": 0, "hands": [["1-0"], ["2-0"]], "boneyard": [],
        "trains": [{"tiles": [], "end": 12, "marker": False}] * 2,
        "mexican": {"tiles": [], "end": 12, "marker": True}, "open_doubles": [],
        "turn_doubles": [], "drawn": None, "first_turns": [], "passes": 0,
        "scores": [0, 0], "outs": [0, 0], "result": None}
    with pytest.raises(StateError, match="MARK-2"):
        state_from_json(PAGAT, data)


# --- the end of a round ----------------------------------------------------------------


def test_going_out_on_a_double_ends_the_round() -> None:
    """END-1: the last tile may be a double; it needs no cover."""
    st = table(PAGAT, [["5-5"], ["10-0"]], trains={0: ["12-5"]})
    st = run(st, "play 5-5 on 0")
    assert st.phase == OVER and st.result is not None
    assert (st.result.end, st.result.winner) == ("domino", 0)
    assert legal(st) == set()
    assert refused(st, "draw") == "END-1"


def blocked_table(r: Rules, hands: Sequence[Sequence[str]]) -> State:
    """Two players, empty boneyard; trains end in 3 (seat 0), 4 (seat 1) and 5 (Mexican)."""
    trains: dict[int | str, list[str]] = {0: ["12-3"], 1: ["12-4"], "mexican": ["12-5"]}
    return table(r, hands, trains=trains)


PASSES = "pagat+passes-end-round"


def test_blocked_nobody_can_play_ends_at_once() -> None:
    """END-2: nobody could play even with every marker up: the round ends after seat 0's
    pass. END-3: it goes on until every player in turn has passed."""
    hands = [["10-9"], ["11-7"]]
    st = run(blocked_table(PAGAT, hands), "pass")
    assert st.phase == OVER and st.result is not None
    assert (st.result.end, st.result.winner, st.result.scores) == ("blocked", -1, (19, 18))
    st = run(blocked_table(rules(PASSES), hands), "pass")
    assert st.phase == "start" and st.seat == 1
    st = run(st, "pass")
    assert st.phase == OVER and st.result is not None
    assert (st.result.end, st.result.scores) == ("blocked", (19, 18))


def test_blocked_after_a_round_of_passes_but_a_marker_opened_a_play() -> None:
    """Seat 0's [4-0] fits only seat 1's train. Both pass in turn. END-3: the round is
    over. END-2: with seat 1's marker up seat 0 can play, so the round goes on and seat 0
    goes out."""
    hands = [["4-0"], ["10-9"]]
    st = run(blocked_table(rules(PASSES), hands), "pass", "pass")
    assert st.phase == OVER and st.result is not None
    assert (st.result.end, st.result.scores) == ("blocked", (4, 19))
    st = run(blocked_table(PAGAT, hands), "pass", "pass")
    assert st.phase == "start" and st.seat == 0
    assert legal(st) == {"play 4-0 on 1"}
    st = run(st, "play 4-0 on 1")
    assert st.result is not None
    assert (st.result.end, st.result.winner, st.result.scores) == ("domino", 0, (0, 19))


def test_blocked_by_an_open_double_nobody_can_cover() -> None:
    """END-2 with DBL-10: every 5 is out and [5-5] stays open; with an empty boneyard
    nobody can ever play, so the round ends blocked after the first pass."""
    st = table(PAGAT, [["11-0"], ["7-3"], ["9-9"]], trains=ALL_FIVES, seat=1)
    st = run(st, "pass")
    assert st.result is not None and st.result.end == "blocked"


def test_blocked_ignores_first_turn_limits() -> None:
    """END-2 looks past the first-turn limit FIRST-2, which falls away: seat 0 ends its chain
    with an empty boneyard (possible when the search for the engine used it up, ENG-4);
    seats 1 and 2, still to take a first turn, may then play only on their own empty
    trains. But once seat 0's marker is up and first turns are over, seat 1 can lay [5-3]
    on seat 0's train, so the round goes on: seat 1 passes (FIRST-3), seat 2 passes,
    seat 0 passes (TURN-4: its [10-9] fits nothing), and seat 1 goes out (END-1)."""
    st = table(PAGAT, [["12-5", "10-9"], ["5-3"], ["11-4"]], first_turns=[0, 1, 2])
    st = run(st, "play 12-5 on 0", "end-chain")
    assert st.result is None
    st = run(st, "pass", "pass", "pass", "play 5-3 on 0")
    assert st.result is not None
    assert (st.result.end, st.result.winner, st.result.scores) == ("domino", 1, (19, 0, 15))


# A first-turn chain by seat 0 ended on [5-5]; seat 1's chain laid the last 5s. Once
# first turns are over, [5-5] binds everyone and nobody can cover it (DBL-10).
FIRST_FIVES: dict[int | str, list[str]] = {
    0: ["12-0", "0-5", "5-1", "1-2", "2-5", "5-3", "3-4", "4-5", "5-5"],
    1: ["12-5", "5-6", "6-7", "7-5", "5-8", "8-9", "9-5", "5-10", "10-11", "11-5"],
}


@pytest.mark.parametrize(("third", "blocked"), [(["12-6", "11-9"], False),
                                                (["11-9", "10-6"], True)])
def test_blocked_waits_for_a_first_turn_that_can_still_play(third: list[str],
                                                              blocked: bool) -> None:
    """END-2 with FIRST-5: seat 1 ends its chain on an empty boneyard. Seat 2 has not had
    its first turn, so [5-5] binds nobody yet: holding [12-6] it may start its train and
    the round goes on; holding no 12 it can only pass, after which [5-5] binds everyone
    and nobody can cover it, so the round is blocked at once."""
    st = table(PAGAT, [["11-10"], ["9-7"], third], trains=FIRST_FIVES, seat=1,
               phase="chain", first_turns=[1, 2])
    st = run(st, "end-chain")
    if not blocked:
        assert st.result is None and st.seat == 2
        assert legal(st) == {"play 12-6 on 2"}
        st = run(st, "play 12-6 on 2", "end-chain")  # FIRST-6: every first turn is over
    assert st.result is not None
    assert (st.result.end, st.result.winner) == ("blocked", -1)
    assert st.result.scores == (21, 16, 36 if blocked else 20)  # [11-9, 10-6] or [11-9]


# --- scoring ---------------------------------------------------------------------------

# Seat 0 goes out with [5-1]; seat 1 keeps [0-0] and [5-0], seat 2 keeps [6-6] and [3-0].
SCORES = {
    "pagat": (0, 0 + 5, 12 + 3),  # SCORE-1, SCORE-5
    "pagat+blanks-25": (0, 50 + 30, 12 + 28),  # SCORE-2
    "pagat+double-blank-50": (0, 50 + 5, 12 + 3),  # SCORE-3
    "pagat+double-blank-25": (0, 25 + 5, 12 + 3),  # SCORE-4
    "pagat+positive-scoring": (5 + 15, 0, 0),  # SCORE-6
    "pagat+positive-scoring+blanks-25": (80 + 40, 0, 0),  # SCORE-6, SCORE-2
}


def scoring_table(r: Rules) -> State:
    return table(r, [["5-1"], ["0-0", "5-0"], ["6-6", "3-0"]], trains={0: ["12-5"]},
                 scores=[10, 20, 30], outs=[1, 0, 2])


@pytest.mark.parametrize("spec", sorted(SCORES))
def test_round_scores(spec: str) -> None:
    st = run(scoring_table(rules(spec)), "play 5-1 on 0")
    assert st.result is not None
    assert (st.result.end, st.result.winner) == ("domino", 0)
    assert st.result.scores == SCORES[spec]
    assert st.scores == [a + b for a, b in zip([10, 20, 30], SCORES[spec], strict=True)]
    assert st.outs == [2, 0, 2]


@pytest.mark.parametrize(("spec", "scores"), [("pagat", (19, 18)),
                                              ("pagat+blanks-25", (19, 18)),
                                              ("pagat+positive-scoring", (0, 0)),
                                              ("pagat+blocked-winner", (19, 0))])
def test_blocked_round_scores(spec: str, scores: tuple[int, int]) -> None:
    """SCORE-5: a blocked round scores every hand; SCORE-6: positive scoring gives 0 to all;
    SCORE-7: one tile each, [11-7] (18) is the lower hand and scores 0."""
    st = run(blocked_table(rules(spec), [["10-9"], ["11-7"]]), "pass")
    assert st.result is not None and st.result.scores == scores
    assert st.outs == [0, 0]


# SCORE-7 on the blocked table: hands by seat, then the round's scores worked by hand
# (fewest tiles first, then the lower value; equal on both: every one of them scores 0).
LOWEST_HANDS = [
    ([["10-9"], ["11-7", "1-0"]], (0, 19)),  # 1 tile beats 2 tiles worth less than 19
    ([["10-9", "2-1"], ["11-7", "0-0"]], (22, 0)),  # 2 tiles each: 18 + 0 beats 19 + 3
    ([["10-8"], ["11-7"]], (0, 0)),  # 1 tile each, 18 each: both score 0
]


@pytest.mark.parametrize(("hands", "scores"), LOWEST_HANDS)
def test_blocked_winner_counts_tiles_then_value(hands: list[list[str]],
                                                scores: tuple[int, int]) -> None:
    st = run(blocked_table(rules("pagat+blocked-winner"), hands), "pass")
    assert st.result is not None and st.result.scores == scores
    assert st.result.winner == -1 and st.outs == [0, 0]  # nobody went out (MATCH-5)


def test_blank_values_of_single_tiles() -> None:
    """SCORE-1..4 on [0-0], [5-0], [12-12] and [2-1]."""
    tiles = [T.tile_id(0, 0), T.tile_id(5, 0), T.tile_id(12, 12), T.tile_id(2, 1)]
    want = {"pagat": [0, 5, 24, 3], "pagat+blanks-25": [50, 30, 24, 3],
            "pagat+double-blank-50": [50, 5, 24, 3], "pagat+double-blank-25": [25, 5, 24, 3]}
    for spec, values in want.items():
        assert [rules(spec).value[t] for t in tiles] == values, spec


# --- whole matches ---------------------------------------------------------------------


def expected_starter(r: Rules, players: int, round_no: int, order: Sequence[int]) -> int:
    """Who starts, from the clauses: SEAT-3 rotates; SEAT-2 the engine's holder, who is
    the seat dealt it (ENG-3) or the seat that draws it (ENG-4, from (r-1) mod n)."""
    if not r.engine_holder_starts:
        return (round_no - 1) % players
    size = r.ruleset.hand_size(players)
    engine = T.tile_id(r.max_pip - round_no + 1, r.max_pip - round_no + 1)
    where = list(order).index(engine)
    if where < players * size:
        return where // size
    return (round_no - 1 + where - players * size) % players


def play_match(r: Rules, players: int, seed: int) -> list[tuple[int, int, tuple[int, ...]]]:
    """A whole match with random legal play; (engine, starter, round scores) per round."""
    rng = random.Random(seed)
    rounds = []
    st: State | None = None
    totals = [0] * players
    for round_no in range(1, r.rounds + 1):
        order = order_with(r, {}, round_no, seed=seed * 100 + round_no)
        st = deal(r, players, round_no, order=order) if st is None else next_round(
            st, order=order)
        assert st.round == round_no
        while st.phase == "engine":
            st = apply(st, legal_actions(st)[0])
        assert st.starter == expected_starter(r, players, round_no, order)
        starter = st.starter
        while (actions := legal_actions(st)):
            st = apply(st, actions[rng.randrange(len(actions))])
        assert st.result is not None
        totals = [a + b for a, b in zip(totals, st.result.scores, strict=True)]
        assert st.scores == totals  # MATCH-1: the totals are the sum of the rounds
        rounds.append((st.engine, starter, st.result.scores))
    assert st is not None and st.match_over
    with pytest.raises(ValueError, match="MATCH-7" if r.single_round else "MATCH-1"):
        next_round(st, seed=0)
    return rounds


@pytest.mark.parametrize("players", [2, 4])
def test_double_12_match_has_13_rounds(players: int) -> None:
    """MATCH-1, ENG-1, SEAT-2 (pagat): 13 rounds, engines 12 down to 0."""
    rounds = play_match(PAGAT, players, seed=players)
    assert [e for e, _, _ in rounds] == list(range(12, -1, -1))


def test_double_12_match_rotating_start() -> None:
    """SEAT-3 (puremco): round r starts at seat (r-1) mod n."""
    rounds = play_match(PUREMCO, 5, seed=5)
    assert [e for e, _, _ in rounds] == list(range(12, -1, -1))
    assert [s for _, s, _ in rounds] == [r % 5 for r in range(13)]


def test_double_9_match_has_10_rounds() -> None:
    """SET-3, MATCH-1, SEAT-3 (puremco-d9): 10 rounds, engines 9 down to 0."""
    rounds = play_match(D9, 3, seed=3)
    assert [e for e, _, _ in rounds] == list(range(9, -1, -1))
    assert [s for _, s, _ in rounds] == [0, 1, 2, 0, 1, 2, 0, 1, 2, 0]


def test_a_single_round_game_is_round_1_alone() -> None:
    """MATCH-7: the game is round 1, on [12-12]; its end ends the game, whose winner has
    the lowest of the round's scores (MATCH-2); there is no round 2 to deal or read."""
    r = rules("pagat+single-round")
    assert (r.rounds, rules("pagat").rounds) == (1, 13)
    rounds = play_match(r, 3, seed=4)  # ends with next_round refused: see below
    assert [e for e, _, _ in rounds] == [12]
    st = deal(r, 3, 1, seed=4)
    rng = random.Random(1)
    while st.phase == "engine" or legal_actions(st):
        acts = legal_actions(st)
        st = apply(st, acts[rng.randrange(len(acts))])
    assert st.result is not None and st.match_over
    assert st.scores == list(st.result.scores)  # the round's scores are the totals
    assert match_winners(st) == [s for s, v in enumerate(st.scores) if v == min(st.scores)]
    with pytest.raises(ValueError, match="MATCH-7"):
        next_round(st, seed=0)
    with pytest.raises(ValueError, match="MATCH-7"):
        deal(r, 3, 2, seed=0)
    with pytest.raises(StateError, match="single round") as err:
        table(r, [["5-3"], ["9-8"]], round_no=2)
    assert err.value.clause == "MATCH-7"
    with pytest.raises(StateError, match="single round"):  # two rounds gone out of one
        table(r, [["5-3"], ["9-8"]], outs=[2, 0])
    # nor one while the round is played: going out would make it two (a state the
    # engine could then not read), so the table is refused at once
    with pytest.raises(StateError, match="before the round ends") as err:
        table(r, [["5-3"], ["9-8"]], outs=[1, 0])
    assert err.value.clause == "MATCH-7"
    assert final_table(r, [0, 9], [1, 0]).outs == [1, 0]  # the game over: its one round


def final_table(r: Rules, scores: Sequence[int], outs: Sequence[int]) -> State:
    n = len(scores)
    return table(r, [["1-0"]] * n, phase="over", round_no=r.rounds, scores=scores, outs=outs,
                 result={"end": "blocked", "winner": None, "scores": [1] * n})


@pytest.mark.parametrize(("spec", "scores", "outs", "winners"), [
    ("pagat", [30, 12, 40, 13], [0, 0, 0, 0], [1]),  # MATCH-2: lowest total
    ("pagat", [30, 12, 12, 40], [0, 3, 5, 1], [1, 2]),  # MATCH-4: shared
    ("pagat+positive-scoring", [30, 45, 2, 44], [0, 0, 0, 0], [1]),  # MATCH-3: highest
    ("pagat+positive-scoring", [30, 45, 45, 2], [9, 1, 1, 0], [1, 2]),  # MATCH-4
    ("pagat+tie-most-outs", [30, 12, 12, 40], [0, 3, 5, 1], [2]),  # MATCH-5
    ("pagat+tie-most-outs", [30, 12, 12, 12], [9, 4, 1, 4], [1, 3]),  # MATCH-5, shared
    ("pagat+tie-most-outs+positive-scoring", [50, 50, 12, 3], [2, 6, 9, 0], [1]),
    ("pagat+tie-lowest-seat", [30, 12, 12, 12], [9, 4, 1, 4], [1]),  # MATCH-6
    ("pagat+tie-lowest-seat", [30, 12, 40, 13], [0, 0, 0, 0], [1]),  # MATCH-2, no tie
    ("pagat+tie-lowest-seat+positive-scoring", [3, 50, 12, 50], [2, 0, 9, 6], [1]),
])
def test_match_winners(spec: str, scores: list[int], outs: list[int],
                       winners: list[int]) -> None:
    assert match_winners(final_table(rules(spec), scores, outs)) == winners


def refusing(state: State, text: str) -> list[str]:
    """Every clause that refuses the action, in the order of REFUSAL_PRECEDENCE."""
    from mtrain.reference.refusals import refusals

    return [r.clause for r in refusals(state, act(state, text))]


@pytest.mark.parametrize(("spec", "clauses"), [
    ("pagat", ["TRAIN-4"]),  # DBL-2: the follow-up goes anywhere the player may play
    ("puremco", ["TRAIN-4", "DBL-3"]),  # DBL-3 names only trains the player may use
])
def test_one_precedence_for_a_closed_train_in_a_follow_up(spec: str,
                                                          clauses: list[str]) -> None:
    """After [5-5] on its own train, seat 0's [7-1] on seat 1's unmarked train: the
    train's access (TRAIN-4) is cited under every rule set, the follow-up rule after it."""
    st = run(turn_table(rules(spec), ["5-5", "5-2", "7-1"]), "play 5-5 on 0")
    assert refusing(st, "play 7-1 on 1") == clauses
    assert refused(st, "play 7-1 on 1") == "TRAIN-4"


@pytest.mark.parametrize(("spec", "clauses"), [
    ("puremco+own-train-opens-mexican", ["FIRST-10"]),
    ("puremco+starter-opens-mexican", ["FIRST-9"]),
])
def test_restricted_follow_up_never_refuses_the_mexican_train(spec: str,
                                                              clauses: list[str]) -> None:
    """DBL-3 names the Mexican Train among the trains the tile after a double may go on, so
    a play there refused in a restricted follow-up is refused by the rule that closes the
    train alone: seat 1, on its first turn with its own train empty, lays [5-5] on seat 0's
    marked train; [12-3] may not open the Mexican Train (FIRST-10: its own train is empty;
    FIRST-9: it is not the starter), and DBL-3 is not cited beside (firstsix-008)."""
    r = rules(spec)
    st = table(r, [["9-7"], ["5-5", "5-1", "12-3"], ["8-2"]], trains={0: ["12-5"]},
               marked=[0], seat=1, starter=0, first_turns=[1, 2], boneyard=["3-0"])
    st = run(st, "play 5-5 on 0")
    assert legal(st) == {"play 5-1 on 0", "play 12-3 on 1"}
    assert refusing(st, "play 12-3 on mexican") == clauses


@pytest.mark.parametrize("spec", ["pagat", "puremco"])
def test_one_precedence_under_a_duty(spec: str) -> None:
    """An open [9-9] on the Mexican Train from an earlier turn (DBL-6): the own train is
    closed by the duty alone; seat 1's unmarked train by TRAIN-4 first, then the duty."""
    st = turn_table(rules(spec), ["9-3", "5-2", "7-1"],
                    trains={"mexican": ["12-9", "9-9"]}, open_doubles=["mexican"])
    assert legal(st) == {"play 9-3 on mexican"}
    assert refusing(st, "play 5-2 on 0") == ["DBL-6"]
    assert refusing(st, "play 7-1 on 1") == ["TRAIN-4", "DBL-6"]
    assert refusing(st, "draw") == ["TURN-1"]


# --- a first turn laid anywhere (FIRST-11) with the rules it composes with ---------------


def test_chain_anywhere_with_own_train_first_starts_the_own_train_then_goes_anywhere() -> None:
    """TRAIN-7 holds the first tile to the own train; after it the chain may open the
    Mexican Train (FIRST-11), and it ends at will (FIRST-1's end, FIRST-11)."""
    r = rules("puremco+chain-anywhere-start+own-train-first")
    st = table(r, [["12-5", "12-7", "9-8"], ["3-1"], ["6-2"]], first_turns=[0, 1, 2])
    assert legal(st) == {"play 12-5 on 0", "play 12-7 on 0"}
    assert refusing(st, "play 12-7 on mexican") == ["TRAIN-7"]
    st = run(st, "play 12-5 on 0")
    assert st.phase == "chain"
    assert legal(st) == {"play 12-7 on mexican", "end-chain"}


def test_chain_anywhere_with_starter_only_keeps_the_others_off_the_mexican_train() -> None:
    """FIRST-9 during a first turn laid anywhere: seat 1 is not the starter, so its chain
    may not open the Mexican Train; seat 0's own train is open to it only by a marker."""
    r = rules("puremco+chain-anywhere-start+starter-opens-mexican")
    st = table(r, [["9-7"], ["12-5", "12-7"], ["8-2"]], seat=1, starter=0, marked=[0],
               first_turns=[1, 2])
    assert legal(st) == {"play 12-5 on 1", "play 12-7 on 1", "play 12-5 on 0",
                         "play 12-7 on 0"}
    assert refusing(st, "play 12-5 on mexican") == ["FIRST-9"]


def test_chain_anywhere_refusals_and_permissions_name_first_11() -> None:
    r = rules("pagat+chain-anywhere-start")
    st = run(table(r, [["12-5", "9-8"], ["3-1"], ["6-2"]], first_turns=[0, 1, 2]),
             "play 12-5 on 0")
    assert refusing(st, "pass") == ["FIRST-11"]
    from mtrain.reference.refusals import permission

    assert permission(st, act(st, "end-chain")) == "FIRST-11"
    assert refusing(table(r, [["12-5"], ["3-1"]]), "end-chain") == ["FIRST-11"]


# --- the holder draws a replacement (ENG-5) ------------------------------------------------


def test_the_holder_draws_the_boneyards_first_tile_and_none_from_an_empty_boneyard() -> None:
    """ENG-5 on a double-3 set (10 tiles, ids 0 to 9, [3-3] id 9). Four tiles each, the
    order giving seat 1 [3-3]: it places it and draws id 7, the boneyard's first tile.
    Five tiles each deal the whole set (seat 1 again holds id 9): no replacement is left."""
    from mtrain.reference.deal import deal
    from mtrain.reference.explore import small_rules

    rs = catalog().ruleset("pagat+engine-holder-draws")
    order = [0, 1, 2, 3, 9, 4, 5, 6, 7, 8]  # seat 1's block holds [3-3] (id 9)
    st = deal(small_rules(rs, 3, {2: 4}), 2, order=order)
    # seat 1 placed [3-3] and drew id 7, the boneyard's first tile; seat 1 starts (SEAT-2)
    assert [h.bit_count() for h in st.hands] == [4, 4]
    assert st.boneyard == [8] and st.seat == 1 and st.hands[1] >> 7 & 1
    st = deal(small_rules(rs, 3, {2: 5}), 2, order=list(range(10)))
    assert [h.bit_count() for h in st.hands] == [5, 4] and st.boneyard == []


# --- laps of draws for a missing engine (ENG-6) ----------------------------------------------


def test_a_lap_cut_short_by_the_boneyard_ends_the_search_and_refusals_name_eng_6() -> None:
    """ENG-6 on a double-3 set (10 tiles, ids 0 to 9, [3-3] id 9), 3 players of 2 tiles:
    seats hold ids 0-1, 2-3, 4-5; the boneyard is 6, 7, 8, 9. The laps start at seat 0:
    seats 0, 1, 2 draw 6, 7, 8 (a lap with no engine); seat 0 draws 9, the engine, and
    the boneyard is empty, so the lap is over and seat 0 places it and starts (SEAT-2)."""
    from mtrain.reference.engine import DRAW, perform
    from mtrain.reference.explore import small_rules

    r = small_rules(catalog().ruleset("pagat+engine-everyone-draws"), 3, {3: 2})
    st = deal(r, 3, order=list(range(10)))
    assert st.phase == "engine" and st.seat == 0
    assert refusing(st, "pass") == ["ENG-6"]
    for _ in range(3):
        perform(st, DRAW)
    assert st.phase == "engine" and st.seat == 0 and not st.engine_placed
    perform(st, DRAW)
    assert st.engine_placed and st.phase == "start" and st.seat == st.starter == 0
    assert [h.bit_count() for h in st.hands] == [3, 3, 3] and st.boneyard == []


# --- a double is an ordinary tile (DBL-11) -------------------------------------------------


def test_an_ordinary_double_ends_the_turn_opens_nothing_and_binds_nobody() -> None:
    """DBL-11: [6-6] laid on the own train (ending 6) ends seat 0's turn like any tile and
    opens nothing, so seat 1 is bound to no cover: its [4-2] fits its own train (ending 4);
    its [6-3] fits only seat 0's train, which carries no marker (TRAIN-4). Under pagat the
    same [6-6] keeps seat 0 to move, in phase follow, with [6-1] to lay (DBL-1, DBL-2)."""
    hands = [["6-6", "6-1"], ["6-3", "4-2"], ["9-0"]]
    trains: dict[int | str, list[str]] = {
        0: ["12-6"], 1: ["12-4"], 2: ["12-9"], "mexican": ["12-8"]}
    st = run(table(rules("pagat+ordinary-doubles"), hands, trains=trains, boneyard=["5-5"]),
             "play 6-6 on 0")
    assert (st.seat, st.phase, st.open_doubles, st.turn_doubles) == (1, "start", [], [])
    assert legal(st) == {"play 4-2 on 1"}
    assert refused(st, "play 6-3 on 0") == "TRAIN-4"
    st = run(table(rules("pagat"), hands, trains=trains, boneyard=["5-5"]), "play 6-6 on 0")
    assert (st.seat, st.phase, st.open_doubles, st.turn_doubles) == (0, "follow", [0], [0])
    assert legal(st) == {"play 6-1 on 0"}


def test_an_ordinary_double_may_end_a_chain_even_where_no_double_end_would_refuse_it() -> None:
    """DBL-11 against FIRST-4 and FIRST-12: after [12-6] the chain holds [6-6] and [9-8].
    Under no-double-end-start [6-6] is refused (nothing would follow it, witness-060);
    with ordinary doubles FIRST-12 decides nothing, [6-6] is one more tile, and the chain
    may end on it (no cover owed, FIRST-4)."""
    hands = [["12-6", "6-6", "9-8"], ["3-1"], ["8-2"]]
    st = run(table(rules("pagat+no-double-end-start"), hands, first_turns=[0, 1, 2]),
             "play 12-6 on 0")
    assert legal(st) == {"end-chain"}
    st = run(table(rules("pagat+no-double-end-start+ordinary-doubles"), hands,
                   first_turns=[0, 1, 2]), "play 12-6 on 0")
    assert legal(st) == {"play 6-6 on 0", "end-chain"}
    st = run(st, "play 6-6 on 0")
    assert (st.phase, st.open_doubles, st.turn_doubles) == ("chain", [], [])
    assert legal(st) == {"end-chain"}


# --- the highest double held is the engine (ENG-7) -------------------------------------------


def test_the_highest_double_held_sets_the_trains_number_and_the_codec_takes_it() -> None:
    """ENG-7, round 5 of double-12 (ENG-1 would give [8-8]), 2 players of 15, sorted: seat 0
    holds tiles 0-14 ([0-0] .. [4-4]), seat 1 tiles 15-29 ([5-0] .. [7-1], doubles [5-5]
    and [6-6]). The engine is seat 1's [6-6]; every empty train ends in 6; the state comes
    back through the codec with engine 6, and an engine phase is refused under the value."""
    r = rules("pagat+engine-highest-double")
    st = deal(r, 2, 5, order=list(range(91)))
    assert (st.engine, st.seat, st.starter, st.phase) == (6, 1, 1, "start")
    assert st.ends == [6, 6, 6] and [h.bit_count() for h in st.hands] == [15, 14]
    assert hand_sizes(st) == []
    data = state_to_json(st)
    assert data["engine"] == 6 and state_from_json(r, data) == st
    with pytest.raises(StateError, match=r"ENG-7"):
        state_from_json(r, {**data, "engine": 13})
    with pytest.raises(StateError, match=r"ENG-1"):  # pagat's own rule: round 5 is [8-8]
        state_from_json(rules("pagat"), data)


def test_with_no_double_dealt_the_seats_draw_in_turn_in_the_deal() -> None:
    """ENG-7 on a double-3 set (ids: [0-0] 0, [1-0] 1, [1-1] 2, [2-0] 3, [2-1] 4, [2-2] 5,
    [3-0] 6, [3-1] 7, [3-2] 8, [3-3] 9), 2 players of 2 tiles, round 2: the order deals
    seat 0 ids 1, 3 and seat 1 ids 4, 6, no double; the boneyard is 7, 8, 5, ... The search
    starts at seat (2 - 1) mod 2 = 1: seat 1 keeps [3-1], seat 0 keeps [3-2], seat 1 draws
    [2-2], the engine, placed by seat 1 with no action; hands 3 and 2."""
    from mtrain.reference.explore import small_rules

    r = small_rules(catalog().ruleset("pagat+engine-highest-double"), 3, {2: 2})
    st = deal(r, 2, 2, order=[1, 3, 4, 6, 7, 8, 5, 0, 2, 9])
    assert (st.engine, st.phase, st.seat) == (2, "start", 1)
    assert st.hands == [T.BIT[1] | T.BIT[3] | T.BIT[8], T.BIT[4] | T.BIT[6] | T.BIT[7]]
    assert st.boneyard == [0, 2, 9]


def test_the_designated_seat_draws_and_the_next_opens_with_its_largest_double() -> None:
    """ENG-8 on a double-3 set (ids as above), 3 players of 3 tiles, round 2: the order
    deals seat 0 ids 1, 3, 4, seat 1 ids 6, 7, 8 and seat 2 ids 2, 5, 9 ([1-1], [2-2],
    [3-3]); the boneyard is id 0, [0-0]. The designation starts at seat (2 - 1) mod 3 = 1,
    which holds no double and draws [0-0], a double: engine 0, placed by seat 1. Dealt
    from another order, the boneyard holds [1-0] only: seat 1 keeps it, seat 2 opens with
    its largest double, [3-3]."""
    from mtrain.reference.explore import small_rules

    r = small_rules(catalog().ruleset("pagat+engine-designated-opens"), 3, {3: 3})
    st = deal(r, 3, 2, order=[1, 3, 4, 6, 7, 8, 2, 5, 9, 0])
    assert (st.engine, st.seat, st.boneyard) == (0, 1, [])
    assert [h.bit_count() for h in st.hands] == [3, 3, 3]
    st = deal(r, 3, 2, order=[0, 3, 4, 6, 7, 8, 2, 5, 9, 1])
    assert (st.engine, st.seat, st.boneyard) == (3, 2, [])
    assert st.hands[1] == T.BIT[6] | T.BIT[7] | T.BIT[8] | T.BIT[1]
    assert st.ends == [3, 3, 3, 3] and [h.bit_count() for h in st.hands] == [3, 4, 2]


# --- starting_seat highest-draw (SEAT-5) ---------------------------------------------------


def _draw(*seats: Sequence[str]) -> list[list[int]]:
    return [[T.parse(x) for x in seat] for seat in seats]


def test_the_highest_draw_wins_and_only_tied_seats_draw_again() -> None:
    """SEAT-5, worked by hand: [8-4] 12, [6-5] 11, [7-5] 12, [9-3] 12 tie seats 0, 2, 3;
    then [3-1] 4, [5-2] 7, [4-3] 7 tie seats 2 and 3; then [2-0] 2 against [3-1] 4 (drawn
    again: the tiles go back): seat 3 wins."""
    from mtrain.reference.deal import draw_winner

    r = Rules.of(catalog().ruleset("puremco-d9+highest-draw-start"))
    draw = _draw(["8-4", "3-1"], ["6-5"], ["7-5", "5-2", "2-0"], ["9-3", "4-3", "3-1"])
    assert draw_winner(r, 4, draw) == 3


@pytest.mark.parametrize(("seats", "why"), [
    ((["6-5"], ["9-4"]), "lists 2 seats"),
    ((["6-5"], ["6-5"], ["5-4"]), "twice"),
    ((["6-5"], ["9-4"], ["5-4", "1-0"]), "without being tied"),
    ((["6-5"], ["8-3"], ["5-4"]), "still ties"),
    ((["6-5", "2-1"], ["8-3"], ["5-4"]), "draws no more"),
    ((["6-5"], ["9-4", "1-0"], ["5-4"]), "after winning"),
    ((["6-5"], [], ["5-4"]), "no tile"),
])
def test_a_draw_the_rule_cannot_produce_is_refused(seats: tuple[list[str], ...],
                                                   why: str) -> None:
    from mtrain.reference.deal import BadDraw, draw_winner

    r = Rules.of(catalog().ruleset("puremco-d9+highest-draw-start"))
    with pytest.raises(BadDraw, match=why):
        draw_winner(r, 3, _draw(*seats))


def test_a_tile_of_another_set_is_refused() -> None:
    from mtrain.reference.deal import BadDraw, draw_winner

    r = Rules.of(catalog().ruleset("puremco-d9+highest-draw-start"))
    with pytest.raises(BadDraw, match="not of the set"):
        draw_winner(r, 3, _draw(["6-5"], ["12-4"], ["5-4"]))


def test_the_start_moves_one_seat_a_round_from_the_draws_winner() -> None:
    """SEAT-5: seat 1 of 3 wins; round r starts at (1 + r - 1) mod 3 (set-aside engine)."""
    r = Rules.of(catalog().ruleset("puremco-d9+highest-draw-start"))
    draw = _draw(["6-5"], ["9-4"], ["5-4"])
    starts = [deal(r, 3, k, seed=k, draw=draw).starter for k in range(1, 7)]
    assert starts == [1, 2, 0, 1, 2, 0]


def test_a_deal_without_the_draw_is_refused_unless_seeded() -> None:
    from mtrain.reference.deal import BadDraw, shuffled_order

    r = Rules.of(catalog().ruleset("puremco-d9+highest-draw-start"))
    with pytest.raises(BadDraw, match="no draw"):
        deal(r, 3, 1, order=shuffled_order(r, 1, 4))
    a, b = deal(r, 3, 1, seed=4), deal(r, 3, 1, seed=4)
    assert a.starter == b.starter  # a seeded deal draws for the start from its seed


# --- starting_seat heaviest-in-hand (SEAT-6) ----------------------------------------------


def test_the_heaviest_tile_in_hand_starts_and_the_higher_end_breaks_a_tie() -> None:
    """SEAT-6, worked by hand on a double-9 set, [9-9] set aside, 3 players of 13: seat 0
    is dealt [8-6] (14), seat 1 [7-7] (14), seat 2 [9-0], each with 12 tiles of at most
    12 pips; every other tile of 13 or more is in the boneyard. The totals tie on 14 and
    [8-6]'s end is higher: seat 0 starts. With [8-6] and [7-7] swapped, seat 1 does."""
    r = Rules.of(catalog().ruleset("puremco-d9+heaviest-in-hand-start"))
    special = {T.tile_id(8, 6), T.tile_id(7, 7), T.tile_id(9, 0), T.tile_id(9, 9)}
    filler = [t for t in T.tiles_of(r.set_mask) if T.PIPS[t] <= 12 and t not in special]
    heavy = [t for t in T.tiles_of(r.set_mask) if T.PIPS[t] > 12 and t not in special]
    assert (len(filler), len(heavy)) == (42, 9)  # 43 tiles of at most 12 pips, less [9-0]
    for first, second, starts in ((T.tile_id(8, 6), T.tile_id(7, 7), 0),
                                  (T.tile_id(7, 7), T.tile_id(8, 6), 1)):
        hands = [[first, *filler[0:12]], [second, *filler[12:24]],
                 [T.tile_id(9, 0), *filler[24:36]]]
        order = [t for h in hands for t in h] + filler[36:] + heavy
        st = deal(r, 3, 1, order=order)
        assert (st.seat, st.starter) == (starts, starts)


def test_the_heaviest_tile_start_is_read_anew_each_round() -> None:
    """SEAT-6: no rotation. Sorted deals of 3 players give seat 2 pool places 26-38: the
    heaviest dealt tile is [7-7] in rounds 1, 2 and 4 and [7-6] in round 3 ([7-7] is its
    engine), each in seat 2's hand, where the rotating start would be 0, 1, 2, 0."""
    r = Rules.of(catalog().ruleset("puremco-d9+heaviest-in-hand-start"))
    assert [deal(r, 3, k, order=deal_pool(r, k)).starter for k in range(1, 5)] == [2] * 4


def test_the_draw_is_ignored_under_another_start() -> None:
    r = Rules.of(catalog().ruleset("puremco-d9"))
    st = deal(r, 3, 1, seed=1, draw=_draw(["6-5"], ["6-5"]))  # not a draw SEAT-5 allows
    assert st.starter == 0
