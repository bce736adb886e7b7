"""The invariants of spec/data/invariants.yaml as named predicates.

`violations(state)` reports every broken invariant at once (not just the first), each as
(invariant id, what is wrong), so a property test or a fixture lint can show them all.
It proves tile conservation with one bitmask test first: when it holds, the pips and the
numbers hold too, and their slower checks are skipped.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

from mtrain.reference.engine import CHAIN, ENGINE, FOLLOW, OVER, State, carried, hand_value
from mtrain.spec import tiles as T

Violation = tuple[str, str]


def _places(state: State) -> list[int]:
    tiles = [t for h in state.hands for t in T.tiles_of(h)]
    tiles += state.boneyard
    for train in state.trains:
        tiles += train
    if state.engine_placed:
        tiles.append(T.DOUBLE[state.engine])
    return tiles


def conserved(state: State) -> bool:
    """INV-CONSERVATION by counting: the places hold as many tiles as the set, and together
    every tile of it (so none twice, none missing, none foreign)."""
    bit = T.BIT
    mask = count = 0
    for h in state.hands:  # plain loops: this runs on every state a request carries
        mask |= h
        count += h.bit_count()
    boneyard = state.boneyard
    count += len(boneyard)
    for t in boneyard:
        mask |= bit[t]
    for train in state.trains:
        count += len(train)
        for t in train:
            mask |= bit[t]
    if state.engine_placed:
        count += 1
        mask |= bit[T.DOUBLE[state.engine]]
    want = state.rules.set_mask
    return mask == want and count == want.bit_count()


def conservation(state: State) -> list[Violation]:
    tiles = _places(state)
    want = T.tiles_of(state.rules.set_mask)
    seen: set[int] = set()
    twice = sorted({t for t in tiles if t in seen or seen.add(t)})  # type: ignore[func-returns-value]
    out = []
    if twice:
        out.append(("INV-CONSERVATION", "tiles in two places: "
                    + ", ".join(T.name(t) for t in twice)))
    missing = sorted(set(want) - seen)
    if missing:
        out.append(("INV-CONSERVATION", "tiles nowhere: " + ", ".join(T.name(t) for t in missing)))
    foreign = sorted(seen - set(want))
    if foreign:
        out.append(("INV-CONSERVATION", "tiles not in the set: "
                    + ", ".join(T.name(t) for t in foreign)))
    return out


def pips(state: State) -> list[Violation]:
    total = sum(T.PIPS[t] for t in _places(state))
    want = sum(T.PIPS[t] for t in T.tiles_of(state.rules.set_mask))
    return [] if total == want else [("INV-PIPS", f"{total} pips on and off the table, "
                                      f"not {want}")]


def numbers(state: State) -> list[Violation]:
    n = state.rules.max_pip
    counts = [0] * (T.MAX_PIP + 1)
    for t in _places(state):
        counts[T.HIGH[t]] += 1
        if T.LOW[t] != T.HIGH[t]:
            counts[T.LOW[t]] += 1
    out = []
    for k in range(T.MAX_PIP + 1):
        count = counts[k]
        if count != (n + 1 if k <= n else 0):
            out.append(("INV-NUMBERS", f"number {k} is on {count} tiles, not "
                        f"{n + 1 if k <= n else 0}"))
    return out


@functools.lru_cache(maxsize=1 << 14)  # most trains are the same from state to state
def _train_end(engine: int, train: tuple[int, ...]) -> tuple[int, int]:
    """(the open end of a train laid from `engine`, -1) or (the end so far, the index of
    the first tile that does not match it)."""
    end = engine
    for k, t in enumerate(train):
        far = T.OTHER_END[t][end]
        if far < 0:
            return end, k
        end = far
    return end, -1


def connected(state: State) -> list[Violation]:
    out = []
    for i, train in enumerate(state.trains):
        end, bad = _train_end(state.engine, tuple(train))
        if bad >= 0:
            out.append(("INV-CONNECTED", f"train {i}: tile {bad} ({T.name(train[bad])}) "
                        f"does not match {end}"))
        elif state.ends[i] != end:
            out.append(("INV-CONNECTED", f"train {i}: open end {state.ends[i]}, "
                        f"tiles end in {end}"))
    return out


def markers(state: State) -> list[Violation]:
    if state.markers >> state.players:  # a bit at or past the Mexican Train's (MARK-2)
        return [("INV-MARKERS", "the Mexican Train carries a marker")]
    return []


def _named(state: State, trains: Sequence[int]) -> str:
    """Trains as the protocol names them: seats, and the Mexican Train (numbered after
    the last seat inside the engine) as `mexican`."""
    return f"[{', '.join('mexican' if t == state.players else str(t) for t in trains)}]"


def open_doubles(state: State) -> list[Violation]:
    ending = []
    for i, tr in enumerate(state.trains):  # a loop: this runs on every state read
        if tr and T.IS_DOUBLE[tr[-1]]:
            ending.append(i)
    if ending and state.rules.ordinary_doubles:
        ending = []  # DBL-11: a double is an ordinary tile, never open
    out = []
    listed = state.open_doubles
    if (listed or ending) and (sorted(listed) != ending or len(set(listed)) != len(ending)):
        out.append(("INV-OPEN-DOUBLES", f"open doubles listed on trains "
                    f"{_named(state, listed)}, trains ending in a double: "
                    f"{_named(state, ending)}"))
    for t in state.turn_doubles:
        if t not in listed:
            out.append(("INV-OPEN-DOUBLES", "a double of this turn is not open"))
            break
    if state.turn_doubles and state.phase not in (FOLLOW, CHAIN):
        out.append(("INV-OPEN-DOUBLES", f"doubles of this turn in phase {state.phase}"))
    if state.phase == FOLLOW and not state.turn_doubles:
        out.append(("INV-OPEN-DOUBLES", "a follow-up is due but no double was laid this turn"))
    return out


def turn(state: State) -> list[Violation]:
    out = []
    n = state.players
    if not (0 <= state.seat < n and 0 <= state.starter < n):
        out.append(("INV-TURN", f"seat {state.seat} or starter {state.starter} is not a seat"))
    elif state.drawn >= 0 and not state.hands[state.seat] & T.BIT[state.drawn]:
        out.append(("INV-TURN", f"the drawn tile {T.name(state.drawn)} is not in the hand"))
    if (state.phase == ENGINE) == state.engine_placed:
        out.append(("INV-TURN", "the engine must be placed in every phase but 'engine'"))
    if (state.phase == OVER) != (state.result is not None):
        out.append(("INV-TURN", "a result exists exactly when the round is over"))
    return out


def round_score(state: State) -> list[Violation]:
    if state.result is None:
        return []
    left = [hand_value(state, s) for s in range(state.players)]
    winner = state.result.winner
    if state.rules.positive_scoring:
        want = [sum(left) if s == winner else 0 for s in range(state.players)]
    else:
        want = left
        if winner < 0 and state.rules.blocked_low_wins:  # SCORE-7
            tiles = [h.bit_count() for h in state.hands]
            low = min(zip(tiles, left, strict=True))
            want = [0 if (tiles[s], v) == low else v for s, v in enumerate(left)]
    if list(state.result.scores) != want:
        what = "a blocked round" if winner < 0 else "a round gone out"
        return [("INV-ROUND-SCORE", f"{what}: round scores {list(state.result.scores)}, the "
                 f"hands left give {want}")]
    return []


def hand_sizes(state: State) -> list[Violation]:
    """INV-HAND-SIZES, for a state fresh from the deal: the table's size for every hand,
    except one tile fewer for the player who placed the engine from their hand (ENG-3)
    unless they drew a replacement (ENG-5). A
    deal of a player count the table lacks has no size to hold: DEAL-7 refuses it, and
    the harness reports the deal itself (a refused setup dealt)."""
    if not state.rules.ruleset.deals(state.players):
        return []
    size = state.rules.ruleset.hand_size(state.players)
    counts = sorted(h.bit_count() for h in state.hands)
    want = [size] * state.players
    rules = state.rules
    if rules.holder_lays and state.engine_placed and not (
            rules.holder_draws and rules.set_mask.bit_count() > state.players * size):
        want[0] = size - 1  # ENG-3 (ENG-5: the replacement, while the boneyard gave one)
    if counts != want and rules.engine_by_deal:
        # ENG-7: a search in turn gives each seat its draws, one more to those before the
        # finder, who places the double drawn last; ENG-8: a seat draws at most once
        # before the opener, who may place a double from hand
        if counts[0] < size - 1 or counts.count(size - 1) > 1 or counts[-1] - counts[0] > 2:
            return [("INV-HAND-SIZES", f"hand sizes {counts} after the deal: the search "
                     "in turn gives no seat two draws more than another")]
        return []
    if counts != want:
        return [("INV-HAND-SIZES", f"hand sizes {counts} after the deal, not {want}")]
    return []


def fresh_round(state: State) -> list[Violation]:
    """INV-FRESH-ROUND, for a state fresh from the deal: nobody has played, passed or drawn
    yet, so no train holds a tile, no marker is up (MARK-1: a pass puts one up) and no
    pass is counted. An engine keeping one table object between requests, and clearing it
    but in part at a deal, carries the last table's markers into the next round."""
    out = []
    up = [s for s in range(state.players) if state.markers >> s & 1]
    if up:
        seats = ", ".join(map(str, up))
        which = f"marker up on seat {seats}" if len(up) == 1 else f"markers up on seats {seats}"
        out.append(("INV-FRESH-ROUND", f"{which} after the deal: nobody has passed yet"))
    laid = [i for i, train in enumerate(state.trains) if train]
    if laid:
        out.append(("INV-FRESH-ROUND", f"tiles on trains {_named(state, laid)} after the deal: "
                    "nobody has played yet"))
    if state.passes:
        out.append(("INV-FRESH-ROUND", f"{state.passes} passes counted after the deal: nobody "
                    "has passed yet"))
    return out


def carried_totals(before: Sequence[int], scores: Sequence[int], after: Sequence[int]
                   ) -> list[Violation]:
    """A step invariant, read across the step that ends a round (the checks above read one
    state): the totals after it (`after`) are those before it (`before`) plus the round
    scores the state after it gives (`scores`), whatever those scores are (MATCH-1: each
    round's scores are added to a running total). The three lists are one per seat. An
    implementation's answers are held to it under a scoring of its own too, where its
    round scores are no rule's to judge (conformance/own_checks.py), and a wrong total is
    charged by it (conformance/attribution.py)."""
    want = carried(before, scores)
    if list(after) == want:
        return []
    return [("MATCH-1", f"the totals {list(after)} are not those before the round "
             f"{list(before)} plus its scores {list(scores)}: {want}")]


AFTER_DEAL: dict[str, Callable[[State], list[Violation]]] = {
    "INV-HAND-SIZES": hand_sizes,
    "INV-FRESH-ROUND": fresh_round,
}
"""Invariants that hold just after the deal only."""

CHECKS: dict[str, Callable[[State], list[Violation]]] = {
    "INV-CONSERVATION": conservation,
    "INV-PIPS": pips,
    "INV-NUMBERS": numbers,
    "INV-CONNECTED": connected,
    "INV-MARKERS": markers,
    "INV-OPEN-DOUBLES": open_doubles,
    "INV-TURN": turn,
    "INV-ROUND-SCORE": round_score,
}
"""Invariants that hold in every state (AFTER_DEAL's hold only after the deal)."""

IMPLIED = ("INV-CONSERVATION", "INV-PIPS", "INV-NUMBERS")
"""Checks that cannot fail once every tile of the set is in exactly one place."""
_REST = tuple(check for inv, check in CHECKS.items() if inv not in IMPLIED)


def violations(state: State) -> list[Violation]:
    """Every broken invariant of a state."""
    checks = _REST if conserved(state) else CHECKS.values()
    return [v for check in checks for v in check(state)]
