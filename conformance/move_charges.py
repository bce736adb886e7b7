"""Which clause a move is charged to, when an implementation offers, omits or refuses it:
the clause that allows a legal move (`allowing`), and the kinds of play whose access
decides them whatever the moment's narrower rule (a cover on another player's unmarked
train, TRAIN-6; a play on a marked train, TRAIN-4 or MARK-1; the Mexican Train played by
a marked player, or opened, TRAIN-4 and TRAIN-5). attribution.py's Referee and fuzz's
judge ask these of a table; the rules themselves are the engine's (refusals.permission).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Final

from mtrain.reference import engine, refusals
from mtrain.spec import tiles as T

RELEASES = ("DBL-9", "DBL-12", "DBL-13", "FIRST-5")
"""The clauses under which an open double binds nobody (refusals.permission's)."""
ORDERS = ("DBL-7", "DBL-8")
"""The clauses that order the covering of several open doubles (refusals.permission's)."""


def allowing(st: engine.State, act: engine.Action) -> str | None:
    """The clause that makes the legal `act` legal in `st` (what an implementation that
    does not offer it, or refuses it, breaks), or None if the rules refuse it."""
    if act not in engine.legal_actions(st):
        return None
    if (act.kind == "play" and st.phase == engine.CHAIN and T.IS_DOUBLE[act.tile]
            and st.rules.chain_no_double_end):
        return "FIRST-12"  # when a chain may lay a double
    if (act.kind == "play" and act.train == st.players and not st.trains[act.train]
            and st.first_pending >> st.seat & 1 and st.seat == st.starter
            and st.rules.starter_only_mexican):
        return "FIRST-9"  # the starter's own opening of the Mexican Train, early
    if act.kind == "draw" and dead_charge(st):
        return dead_rule(st)  # a draw for a double nobody can cover: that it still binds
    if act.kind == "draw" and st.drawn >= 0 and st.rules.draw_until_playable:
        # another draw after a tile that cannot be played, in a follow-up too (DBL-5
        # sends the player to an ordinary turn's drawing, which this clause is)
        return "TURN-5"
    found = past_release(st, act, refusals.permission(st, act))
    if found == "TURN-3" and st.open_doubles:
        # the drawn tile, playable there only because the doubles no longer bind: the
        # rule that released them
        free = st.copy()
        free.drawn = -1
        if act in engine.legal_actions(free) and (released := past_release(
                free, act, refusals.permission(free, act))) in (*RELEASES, *ORDERS):
            # or the cover that the order of several open doubles asks for: an engine that
            # refuses the drawn tile there keeps another order (hump's newest first)
            return released
    if found == "TRAIN-4" and act.kind == "play" and act.train == st.players:
        # a Mexican Train already open, to a player its opening rule would have barred:
        # that rule's scope (it speaks of opening the train alone) is what allows it
        if st.rules.own_train_mexican and not st.trains[st.seat]:
            return "FIRST-10"
        if (st.rules.starter_only_mexican and st.seat != st.starter
                and st.first_pending >> st.seat & 1):
            return "FIRST-9"
    return found


def drawn_refusal(st: engine.State, act: engine.Action) -> str | None:
    """The clause that refuses a draw or a pass while the tile just drawn can be played,
    or None elsewhere. TURN-1 (a player who can play must) and TURN-3 (a drawn tile that
    can be played must be) both refuse it, and the reference cites TURN-1 first; the
    moment is TURN-3's, the narrower clause written for it, so an engine that lets the
    player keep a playable drawn tile breaks TURN-3. Where only a release of the open
    doubles makes the drawn tile playable, that release's rule. Conform and fuzz both
    charge through here."""
    if act.kind not in ("draw", "pass") or st.drawn < 0:
        return None
    plays = [a for a in engine.legal_actions(st) if a.kind == "play"]
    if not plays:
        return None
    why = {allowing(st, a) for a in plays}
    only = why.pop() if len(why) == 1 else None
    return only if only is not None and only in RELEASES else "TURN-3"


def past_release(st: engine.State, act: engine.Action, found: str) -> str:
    """DBL-9 for a play that a double of an earlier turn would forbid had it not been
    released, nobody being able to cover it: a follow-up (`found` DBL-2, DBL-3 or DBL-4),
    or the cover of a newer double (DBL-7, the older one dead). An engine that withholds
    the play keeps that double binding (switchback's bug 2), as in an ordinary turn, where
    refusals.permission names the release itself."""
    if found in ("DBL-2", "DBL-3", "DBL-4"):
        earlier = [t for t in st.open_doubles if t not in st.turn_doubles]
    elif found == "DBL-7" and act.train in st.open_doubles:
        earlier = st.open_doubles[:st.open_doubles.index(act.train)]
    else:
        return found
    dead = any(not engine.live(st, t) for t in earlier)
    return "DBL-9" if dead and st.rules.release_uncoverable else found


def release_near(st: engine.State) -> bool:
    """Whether a release rule could be the one at fault on this table: a double one tile
    short of DBL-9's release, or past it (one DBL-10 or DBL-12 keeps binding, nothing left
    to cover it), the boneyard at its last tile (DBL-12), or any double of an earlier turn
    (DBL-13). A
    situation from play lists every doubles clause, so the fixture's clauses alone do not
    say that its table is about releasing: a duty ignored for a double with many tiles of
    its number still off the table is the duty's (DBL-6), not a release's."""
    rules = st.rules
    if rules.release_after_turn:
        return True
    if rules.release_when_empty and len(st.boneyard) <= 1:
        return True
    for train in st.open_doubles:
        missing = rules.number_mask[st.ends[train]] & ~st.table_mask
        if missing.bit_count() <= 1:
            return True
    return False


def released_early(st: engine.State, act: engine.Action) -> bool:
    """Whether `act`, refused by the duty of an earlier double (DBL-6, DBL-7) with the
    boneyard at its last tile, would be legal were the boneyard empty, under DBL-12: the
    release one tile early (bogie's bug 1, tests/examples/c/bogie_engine.c), the release's
    whatever the fixture lists (a situation from play lists no release clause)."""
    if not st.rules.release_when_empty or len(st.boneyard) != 1:
        return False
    empty = st.copy()
    empty.boneyard = []  # DBL-12: released once it is empty
    return act in engine.legal_actions(empty)


def released_early_offered(st: engine.State, offered: Collection[engine.Action]) -> bool:
    """Whether the actions an implementation `offered` are the rules' with every double of
    an earlier turn released while the boneyard holds its last tile, and not the rules':
    the release one tile early (DBL-12, released_early) seen from a cover it did not
    offer. A missing cover on another's train reads as that train kept closed (TRAIN-6)
    as well, but an engine that keeps covers closed still owes the double and offers
    nothing else (the draw the release leaves may then be all it offers: bogie's bug 1
    under a stand-in that set the engine aside, a lone 11-7 and an open 11-11 of an
    earlier turn); charged where the release's rule is in force and no other rule of
    covering decides more."""
    if not st.rules.release_when_empty or len(st.boneyard) != 1 or st.phase != engine.START:
        return False
    earlier = [t for t in st.open_doubles if t not in st.turn_doubles]
    if not earlier:
        return False
    freed = st.copy()
    freed.open_doubles = [t for t in st.open_doubles if t in st.turn_doubles]
    legal = set(engine.legal_actions(freed))
    return set(offered) == legal and legal != set(engine.legal_actions(st))


def released_one_short(st: engine.State, act: engine.Action,
                       offered: Collection[engine.Action] | None = None) -> bool:
    """Whether `act`, refused by the duty of an earlier double (DBL-6, DBL-7), would be
    legal had the doubles of earlier turns one tile short of DBL-9's release been
    released (`near_release`): the release counted one tile early, as a count that
    forgets the double itself does (ballast's bug 1, tests/examples/ballast_engine.py),
    DBL-9's as released_early is DBL-12's, whatever the fixture lists (a fuzz reproducer
    lists what fuzz named). Where the actions the implementation `offered` are known,
    they must be the rules' with those doubles released: an engine that lets only some
    plays past the duty (the Mexican Train alone: tandem's bug 2) ignores the duty, it
    does not release the double."""
    return early_count(st, act, offered, near_release) is not None


def early_count(st: engine.State, act: engine.Action,
                offered: Collection[engine.Action] | None = None,
                near: Callable[[int, int], bool] | None = None) -> int | None:
    """For `act`, refused by the duty of an earlier double (DBL-6, DBL-7): the fewest
    tiles of its number still off the table at which, the doubles of earlier turns that
    short of DBL-9's release released, it is legal (and the actions `offered`, where
    known, are the rules' so released); None where no count `near` the release does
    (by default within a quarter of the number's tiles, `within_quarter`). One table
    cannot tell a count gone wrong from the duty ignored (near_release); the counts of
    every such table of a run can (release_counts.py)."""
    for count, freed in _released_by_count(st, near or within_quarter):
        legal = engine.legal_actions(freed)
        if act in legal and (offered is None or set(offered) == set(legal)):
            return count
    return None


def release_offered(st: engine.State, offered: Collection[engine.Action]) -> str | None:
    """The release rule whose early release the actions an implementation `offered` are
    the rules' under, where they are not the rules' (a cover missing, what the release
    leaves offered instead): DBL-12 one tile early (released_early_offered), DBL-9 counted
    early (released_one_short's doubles near their release); None for neither."""
    if released_early_offered(st, offered):
        return "DBL-12"
    if st.phase != engine.START:
        return None
    rules_legal = set(engine.legal_actions(st))
    for _count, freed in _released_by_count(st, near_release):
        legal = set(engine.legal_actions(freed))
        if set(offered) == legal and legal != rules_legal:
            return "DBL-9"
    return None


def _released_by_count(st: engine.State, near: Callable[[int, int], bool]
                       ) -> list[tuple[int, engine.State]]:
    """`st` with the open doubles of earlier turns released up to each count of tiles of
    their number off the table (at least one, and `near` the release), the smallest count
    first; nothing where DBL-9 is not in force."""
    rules = st.rules
    if not rules.release_uncoverable:
        return []
    earlier = {t: (rules.number_mask[st.ends[t]] & ~st.table_mask).bit_count()
               for t in st.open_doubles if t not in st.turn_doubles}
    out = []
    for count in sorted({k for k in earlier.values() if k and near(k, rules.max_pip)}):
        freed = st.copy()
        freed.open_doubles = [t for t in st.open_doubles
                              if t not in earlier or not 0 < earlier[t] <= count]
        out.append((count, freed))
    return out


def within_quarter(missing: int, max_pip: int) -> bool:
    """Whether `missing` tiles of a number off the table are at most a quarter of the
    tiles bearing it (a set up to double-`max_pip`): near enough DBL-9's release for a
    count gone wrong (handcar's 13 of 16 on double-15) to explain a double freed."""
    return missing <= (max_pip + 1) // 4


def near_release(missing: int, max_pip: int = 0) -> bool:
    """Whether a double with `missing` tiles of its number off the table is near enough
    DBL-9's release for an engine that frees it to be read as counting the release
    wrong rather than ignoring the duty (DBL-6): one tile short only. Read further off
    (up to a quarter of the number's tiles, for handcar's count of 13 on double-15), a
    duty ignored on a double of the mover's own train (ballast's bug 2) or on the Mexican
    Train (tandem's bug 2) was charged to the release wherever its number was two or
    three tiles short, which a single table cannot tell from a count gone wrong; the
    duty is the likelier bug, so the release is read only where the count is one off."""
    return missing == 1


def own_one_short(st: engine.State) -> bool:
    """Whether every double of an earlier turn one tile short of DBL-9's release lies on
    the mover's own train (and one does): there, a release counted one tile early (DBL-9,
    released_one_short) and the duty of one's own double forgotten (DBL-6: ballast's bug
    2) offer the same actions, and one table cannot tell them apart."""
    rules = st.rules
    short = [t for t in st.open_doubles if t not in st.turn_doubles
             and (rules.number_mask[st.ends[t]] & ~st.table_mask).bit_count() == 1]
    return bool(short) and all(t == st.seat for t in short)


def dead_duty(st: engine.State) -> bool:
    """Whether the player to move is bound by open doubles (DBL-6) none of which any tile
    left off the table can cover."""
    due = engine.duties(st)
    return bool(due) and st.phase == engine.START and not any(engine.live(st, t) for t in due)


def dead_charge(st: engine.State) -> bool:
    """Whether a draw owed (or a pass instead of it) under a double nobody can cover is the
    binding rule's to answer for (`dead_duty`): only where, that double released, the
    player would have a play to make instead. Where it would have none, the draw is owed
    whatever the double's rule (TURN-2): dandy, refusing the draw with one tile left in the
    boneyard ("the boneyard is empty"), was charged DBL-10."""
    if not dead_duty(st):
        return False
    free = st.copy()
    free.open_doubles = [t for t in st.open_doubles if engine.live(st, t)]
    return bool(engine.plays(free))


def dead_rule(st: engine.State) -> str:
    """The rule under which a double nobody can cover still binds: DBL-10 (it stays open),
    or DBL-12 while the boneyard holds tiles."""
    return "DBL-12" if st.rules.release_when_empty else "DBL-10"


def closed_cover(st: engine.State, act: engine.Action, legal: bool = True) -> bool:
    """Whether `act` is a play onto an open double on another player's unmarked train, a
    train that TRAIN-6 alone opens to the player; with `legal`, a legal play onto the
    oldest open double that no order of covering explains away (`order_explains`)."""
    if act.kind != "play":
        return False
    t = act.train
    return (t != st.seat and t < st.players and not st.marked(t)
            and t in st.open_doubles
            and (not legal or (t == st.open_doubles[0] and act in engine.legal_actions(st)
                               and not order_explains(st, act))))


def order_explains(st: engine.State, act: engine.Action) -> bool:
    """Whether another order of covering several open doubles (DBL-7, DBL-8) explains a
    missing cover `act` as well as a closed train does: other doubles of earlier turns
    are open, the reference names the order as what allows `act`, and the player holds no
    tile that covers any of the others. An engine that covers another double first
    (caboose's and hump's planted newest-first) then leaves the player nothing but a draw,
    as one that keeps the train closed does; the order decides which double is to be
    covered, so it is charged (DBL-7, DBL-8). Where the player holds a cover of another
    and none is offered, no order explains it (an engine covering that double first
    would offer it): the train is kept closed (TRAIN-6; tortoise on house47a-007)."""
    others = [d for d in st.open_doubles if d != act.train and d not in st.turn_doubles]
    if not others or refusals.permission(st, act) not in ORDERS:
        return False
    hand, ends, mask = st.hands[st.seat], st.ends, st.rules.number_mask
    return not any(hand & mask[ends[d]] for d in others)


def marked_play(st: engine.State, act: engine.Action) -> bool:
    """Whether `act` is a play onto another player's train that carries their marker, a
    train its marker alone opens to the player (TRAIN-4, MARK-1): not a cover, and with no
    double of an earlier turn open, whose duty, order or release would decide it."""
    return (act.kind == "play" and act.train != st.seat and act.train < st.players
            and st.marked(act.train) and act.train not in st.open_doubles
            and all(d in st.turn_doubles for d in st.open_doubles))


def marked_mexican(st: engine.State, act: engine.Action) -> bool:
    """Whether `act` is a legal play on the Mexican Train by a player whose own train
    carries their marker: open to them as to anyone (MARK-2: it never carries a marker
    and is always open; TRAIN-4), not a cover, with no double of an earlier turn open
    (whose duty would decide it), and on an empty Mexican Train only where no rule of who
    may open it decides (FIRST-9, FIRST-10)."""
    return (act.kind == "play" and act.train == st.players and st.marked(st.seat)
            and act.train not in st.open_doubles
            and all(d in st.turn_doubles for d in st.open_doubles)
            and (bool(st.trains[act.train]) or allowing(st, act) in OPENING_MOMENTS))


OPENING_MOMENTS: Final = ("TRAIN-5", "DBL-2", "DBL-3", "TURN-3")
"""The clauses `allowing` names for a play that opens the empty Mexican Train: TRAIN-5 in
an ordinary turn, the moment's own rule in a follow-up or with a tile drawn."""


def mexican_opening(st: engine.State, act: engine.Action) -> bool:
    """Whether `act` is a legal play that opens the empty Mexican Train (TRAIN-5), in an
    ordinary turn, a follow-up or with a tile drawn, no double of an earlier turn open
    (whose duty or release would decide it) and no rule of who may open it (FIRST-9,
    FIRST-10) deciding."""
    return (act.kind == "play" and act.train == st.players and not st.trains[act.train]
            and all(d in st.turn_doubles for d in st.open_doubles)
            and allowing(st, act) in OPENING_MOMENTS)
