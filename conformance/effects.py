"""What a fixture's steps do to the table, written from the clauses: the bookkeeping only.

`after(fixture, ruleset)` plays the fixture's steps on its starting table (or its deal)
and returns the fields an expectation may check (`decisive.SETS`): seat, phase, markers,
drawn tile, open doubles and doubles of this turn, passes, first turns, totals, result.
It does not decide legality (the steps are taken as given); whether a round is blocked is
asked of spec/model/legality.py through the reachability module. It is a second account of the
effects, independent of reference/engine.py, which the tests compare with the engine on
every fixture; authors use it to fill in the fields an expectation leaves unchecked.
"""

from __future__ import annotations

import copy
from typing import Any

from mtrain.conformance.fixture import Fixture
from mtrain.spec import tiles as T
from mtrain.spec.model.reachable import can_ever_play
from mtrain.spec.notation import deal_order, is_next_round, max_pip_of, next_round_order, parse_tile
from mtrain.spec.ruleset import Ruleset

MEXICAN = "mexican"
JSON = dict[str, Any]


def after(fx: Fixture, rs: Ruleset) -> JSON:
    """The fields after the fixture's steps under `rs` (fixture vocabulary)."""
    if fx.deal is not None:
        players, round_no, order, extra = fx.deal_request(rs)
        st = _deal(rs, players, round_no, order, extra.get("scores"), extra.get("outs"))
    else:
        st = copy.deepcopy(fx.start(rs))
    for step in fx.steps:
        if is_next_round(step):  # MATCH-1: the next round, the totals carried
            round_no = st["round"] + 1
            order = deal_order(rs, max_pip_of(rs) - round_no + 1, next_round_order(step))
            st = _deal(rs, len(st["hands"]), round_no, order, st["scores"], st["outs"])
            continue
        _step(st, step, rs)
    return _view(st)


# -- the deal (DEAL-1, ENG-2, ENG-3, SEAT-2, SEAT-3) -----------------------------------------


def _deal(rs: Ruleset, players: int, round_no: int, order: list[str],
          scores: list[int] | None, outs: list[int] | None) -> JSON:
    size = rs.hand_size(players)
    engine = max_pip_of(rs) - (round_no - 1)
    hands = [order[s * size:(s + 1) * size] for s in range(players)]
    start = (round_no - 1) % players
    st: JSON = {
        "round": round_no, "engine": engine, "engine_placed": False, "phase": "engine",
        "seat": start, "starter": start, "hands": hands, "boneyard": order[players * size:],
        "trains": [{"tiles": [], "end": engine, "marker": False} for _ in range(players)],
        "mexican": {"tiles": [], "end": engine}, "open_doubles": [], "turn_doubles": [],
        "drawn": None, "first_turns": list(range(players)), "passes": 0,
        "scores": list(scores or [0] * players),
        "outs": list(outs or [0] * players), "result": None,
    }
    name = T.name(T.DOUBLE[engine])
    if rs["engine_procedure"] == "set-aside":
        _place(st, -1, rs)  # ENG-2
    else:
        holder = next((s for s, h in enumerate(hands) if name in h), -1)
        if holder >= 0:
            hands[holder].remove(name)
            _place(st, holder, rs)  # ENG-3
    return st


def _place(st: JSON, holder: int, rs: Any) -> None:
    st["engine_placed"], st["phase"] = True, "start"
    rotate = (st["round"] - 1) % len(st["hands"])
    st["seat"] = st["starter"] = holder if rs["starting_seat"] == "engine-holder" else rotate


# -- one step --------------------------------------------------------------------------------


def _step(st: JSON, step: str, rs: Any) -> None:
    words = step.split()
    seat = st["seat"]
    if words[0] == "draw":
        tile = st["boneyard"].pop(0)
        if st["phase"] == "engine":  # ENG-4: the search for the engine
            if tile == T.name(T.DOUBLE[st["engine"]]):
                _place(st, seat, rs)
            else:
                st["hands"][seat].append(tile)
                st["seat"] = (seat + 1) % len(st["hands"])
            return
        st["hands"][seat].append(tile)
        st["drawn"] = tile  # TURN-3
        return
    if words[0] == "pass":
        st["trains"][seat]["marker"] = True  # TURN-4, MARK-1, FIRST-3
        if not st["boneyard"]:
            st["passes"] += 1  # END-3: passes in a row on an empty boneyard
        _end_turn(st, rs)
        return
    if words[0] == "end-chain":
        _end_turn(st, rs)  # FIRST-1
        return
    _play(st, words[1], words[3], rs)


def _play(st: JSON, text: str, where: str, rs: Any) -> None:
    seat = st["seat"]
    tile = parse_tile(text, max_pip_of(rs))
    name = T.name(tile)
    st["hands"][seat].remove(name)
    key: int | str = MEXICAN if where == MEXICAN else int(where)
    train = st["mexican"] if key == MEXICAN else st["trains"][int(key)]
    train["tiles"].append(T.oriented(tile, train["end"]))
    train["end"] = T.OTHER_END[tile][train["end"]]  # TRAIN-2
    rule = rs["marker_removal"]
    if rule == "owner-plays-own" and key == seat:
        st["trains"][seat]["marker"] = False  # MARK-3
    elif rule == "anyone-plays-on" and key != MEXICAN:
        st["trains"][int(key)]["marker"] = False  # MARK-4
    elif rule == "owner-plays-anywhere":
        st["trains"][seat]["marker"] = False  # MARK-5
    if key in st["open_doubles"]:  # TRAIN-3: one tile covers the double
        st["open_doubles"].remove(key)
        if key in st["turn_doubles"]:
            st["turn_doubles"].remove(key)
    double = T.IS_DOUBLE[tile]
    if double:
        st["open_doubles"].append(key)
        st["turn_doubles"].append(key)
    st["drawn"] = None
    st["passes"] = 0  # END-3: a play breaks the passes in a row
    first = seat in st["first_turns"]
    if not st["hands"][seat]:
        _finish(st, "domino", seat, rs)  # END-1
    elif st["phase"] == "chain" or (st["phase"] == "start" and first
                                    and rs["first_turn"] == "chain"):
        st["phase"] = "chain"  # FIRST-1
    elif double:
        st["phase"] = "follow"  # DBL-1
    else:
        _end_turn(st, rs)  # TURN-6


def _end_turn(st: JSON, rs: Any) -> None:
    seat = st["seat"]
    st["turn_doubles"], st["drawn"] = [], None
    if seat in st["first_turns"]:
        st["first_turns"].remove(seat)  # FIRST-6
    st["seat"] = (seat + 1) % len(st["hands"])  # SEAT-1
    st["phase"] = "start"
    if st["boneyard"]:
        return
    if rs["blocked_round"] == "full-round-of-passes":
        if st["passes"] >= len(st["hands"]):
            _finish(st, "blocked", -1, rs)  # END-3
    elif not can_ever_play(st, rs):
        _finish(st, "blocked", -1, rs)  # END-2


def _finish(st: JSON, end: str, winner: int, rs: Any) -> None:
    left = [sum(_value(x, rs["blank_values"]) for x in h) for h in st["hands"]]
    if rs["scoring"] == "positive":  # SCORE-6
        scores = [sum(left) if s == winner else 0 for s in range(len(left))]
    else:
        scores = left  # SCORE-5
    st["scores"] = [a + b for a, b in zip(st["scores"], scores, strict=True)]  # MATCH-1
    if winner >= 0:
        st["outs"][winner] += 1
    st["result"] = {"end": end, "winner": winner if winner >= 0 else None, "scores": scores}
    st["phase"], st["turn_doubles"], st["drawn"] = "over", [], None


def _value(text: str, rule: str) -> int:
    a, b = (int(x) for x in text.split("-"))
    if rule == "blank-25":  # SCORE-2: each blank end 25
        return (a or 25) + (b or 25)
    if a == b == 0 and rule in ("double-blank-50", "double-blank-25"):  # SCORE-3, SCORE-4
        return 50 if rule == "double-blank-50" else 25
    return a + b  # SCORE-1


def _view(st: JSON) -> JSON:
    return {
        "seat": st["seat"], "starter": st["starter"], "phase": st["phase"],
        "engine": st["engine"],
        "marked": sorted(i for i, t in enumerate(st["trains"]) if t.get("marker")),
        "drawn": st["drawn"], "open_doubles": list(st["open_doubles"]),
        "turn_doubles": list(st["turn_doubles"]), "passes": st["passes"],
        "first_turns": sorted(st["first_turns"]), "scores": list(st["scores"]),
        "outs": list(st["outs"]), "result": st["result"], "engine_placed": st["engine_placed"],
        "hand_sizes": [len(h) for h in st["hands"]], "boneyard_size": len(st["boneyard"]),
    }

