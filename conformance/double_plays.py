"""The legal set of an entry cut by lay_alone.py, as the implementation's answer is judged.

Whether each double the entry's legal list offers may be laid is a doubles rule of one's
own's (lay_alone.py), but which trains are open to the player is not: a double left out on
a train the implementation keeps closed (its Mexican Train shut, a marked train not
opened) is judged as written. So a double left out is set aside only where the train is
open to the player in its answer: it offers another play there, or, asked again with the
double swapped for a tile of the same number that is not a double (from the boneyard or
another hand), it lays that tile there (`open_to_mover`); where every such tile is on the
table or in that hand, nothing can be asked and nothing says the train is closed, and the
double is its rule's (hopper and pullman, whose bugs close trains, each lost a few of
their failures so: 5 of 187, 1 of 134). Where it then lays nothing the entry lists, its
answer is judged by the list the rules give with none of those doubles laid
(`Expectation.own_doubles`: a draw, or a pass). Everything else stands: a play it offers
that the entry does not list (a double on a train closed to it, say) is judged as written,
and so is each refusal. This module is expectation_checks.check's part.
"""

from __future__ import annotations

import copy
from collections.abc import Set

from mtrain.conformance.adapter import JSON, Implementation
from mtrain.conformance.fixture import Expectation
from mtrain.conformance.probing import asked
from mtrain.spec import tiles as T
from mtrain.spec.notation import action_text


def double_play(text: str) -> bool:
    """Whether the action `text` (`play A-B on T`) lays a double."""
    words = text.split(" ")
    if len(words) != 4 or words[0] != "play":
        return False
    high, _, low = words[1].partition("-")
    return high == low


def laid_aside(exp: Expectation, actual: Set[str], impl: Implementation, rj: JSON,
               state: JSON) -> tuple[set[str], frozenset[str]]:
    """The legal set `exp` (an entry with a legal list) asks of an implementation that
    offers `actual` on `state`, and the doubles it lays nowhere: as written, but with
    each double the list offers and `actual` leaves out on a train open to the player
    set aside, its doubles rule of one's own deciding; where no play is then left, the
    rules' list with none of the doubles laid (`exp.own_doubles`)."""
    want = set(exp.legal or ())
    left = {a for a in want if double_play(a) and a not in actual}
    left = {a for a in left if open_to_mover(a, want, actual, impl, rj, state)}
    if not left or exp.own_doubles is None:
        return want, frozenset()
    want -= left
    if not any(a.startswith("play ") for a in want):  # TURN-1: a player with no play
        want = set(exp.own_doubles)  # draws or passes (TURN-2, TURN-4), as the rules say
    laid = {a.split(" ")[1] for a in actual if double_play(a)}
    return want, frozenset(a.split(" ")[1] for a in left) - laid


def open_to_mover(text: str, want: Set[str], actual: Set[str], impl: Implementation,
                  rj: JSON, state: JSON) -> bool:
    """Whether the train of the double play `text` (left out of `actual`) is open to the
    player in the implementation's answers: it offers another play there; else, where
    the entry lists none there (TRAIN-4 would then have it offered), it lays there a tile
    of the double's number that is not a double, swapped in for it (`swapped`)."""
    train = text.rpartition(" on ")[2]
    there = {a for a in want | actual if a.startswith("play ") and a.endswith(f" on {train}")}
    if any(a in actual for a in there if not double_play(a)):
        return True
    if any(not double_play(a) for a in there):  # listed there and not offered: closed
        return False
    tile = text.split(" ")[1]
    probe = swapped(state, tile)
    if probe is None:  # every other tile of its number is on the table or in this hand:
        return True  # nothing to ask with, and nothing says the train is closed to it
    table, stand = probe
    found = asked(lambda: impl.legal(rj, table), f"asked again with [{tile}] swapped for "
                  f"[{stand}] (whether train {train} is open to it: double_plays.py)")
    if found is None:  # it will not answer that table: judged as written
        return False
    return f"play {stand} on {train}" in {action_text(a) for a in found}


def swapped(state: JSON, double: str) -> tuple[JSON, str] | None:
    """`state` with the mover's `double` (drawn, if it was the tile drawn) exchanged for a
    tile of its number that is not a double, from the boneyard or else another hand, the
    double put in its place; and that tile. None where no such tile is off the table."""
    number = T.HIGH[T.parse(double)]
    table = copy.deepcopy(state)
    seat, hands, bones = table.get("seat"), table.get("hands"), table.get("boneyard")
    if not (isinstance(hands, list) and isinstance(seat, int) and 0 <= seat < len(hands)
            and isinstance(hands[seat], list) and double in hands[seat]
            and isinstance(bones, list)):
        return None
    places = [bones, *(h for k, h in enumerate(hands) if k != seat and isinstance(h, list))]
    for place in places:
        for k, t in enumerate(place):
            tile = T.parse(str(t))
            if T.HIGH[tile] != T.LOW[tile] and number in (T.HIGH[tile], T.LOW[tile]):
                place[k] = double
                own = hands[seat]
                own[own.index(double)] = t
                if table.get("drawn") == double:
                    table["drawn"] = t
                return table, T.name(tile)
    return None
