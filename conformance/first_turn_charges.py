"""What a first turn's failures are charged to (conformance/attribution.py, and fuzz's
judge as conform charges them): a first turn that lets anyone open the Mexican Train
(FIRST-8), and whose first turn a play ends (FIRST-6, FIRST-7).

gondola (tests/examples/js/gondola_engine.js) keeps the empty Mexican Train shut to a
player on their first turn: its 73 failures were charged to what opens the train
(TRAIN-5), and fuzz named the same clause; and it strikes the first seat listed among
the first turns due, not the mover's: one failure of 14 was charged to the single-tile
start (FIRST-7), whose play ends the mover's first turn all the same.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mtrain.reference import engine
from mtrain.spec.catalog import catalog


def opening_rule(st: engine.State, acts: Sequence[engine.Action],
                 offered: Sequence[str]) -> str:
    """What the missing `acts`, plays opening the empty Mexican Train (mexican_opening),
    break: FIRST-8 where the mover is on their first turn, which lets anyone open it, and
    nothing at all is `offered` on it (kept shut for a first turn: gondola's bug 1); else
    what opens it (TRAIN-5: no opening, or one by the wrong number)."""
    first = (st.phase == engine.START and st.first_pending >> st.seat & 1
             and catalog().clauses["FIRST-8"].applies(st.rules.ruleset))
    shut = not any(t.startswith("play ") and t.endswith(" on mexican") for t in offered)
    if shut and acts and st.rules.own_train_mexican and st.trains[st.seat]:
        # FIRST-10 says who may open it, a player whose own train holds a tile: in a
        # follow-up or with a tile drawn as in an ordinary turn (refusals.permission),
        # a stale opening number or not (an ordinary turn cannot tell either)
        return "FIRST-10"
    return "FIRST-8" if first and shut and acts and not _stale_number(st) else "TRAIN-5"


def _stale_number(st: engine.State) -> bool:
    """Whether nothing offered on the empty Mexican Train could as well be its opening
    read by the set's highest number, round 1's engine (an engine kept from round 1, or
    a hard-coded top: the ninth reading's mexican-opens-on-top-double): in a later round,
    the mover holding no tile of that number, so that such an engine offers nothing there
    either. That is TRAIN-5's (which number opens it), not the train kept shut."""
    top = st.rules.max_pip
    return st.engine != top and not st.hands[st.seat] & st.rules.number_mask[top]


def mover_differs(key: str, before: Any, after: Any, got: Any) -> bool:
    """Whether a wrong `key` (`got`, the reference's in `after`) after a first turn's play
    is the first turn ended wrongly (one tile, or a chain: FIRST-7, FIRST-1): its phase or
    seat, or first turns due that differ from the reference's by the mover of `before`
    alone; another seat's first turn struck or kept is FIRST-6's (who has one)."""
    if key in ("phase", "seat"):
        return True
    if key != "first_turns" or not (isinstance(after, dict) and isinstance(got, list)):
        return key == "first_turns"
    return set(after.get("first_turns", ())) ^ set(got) == {before["seat"]}
