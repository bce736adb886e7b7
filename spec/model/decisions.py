"""Which clause refuses or permits an action, and when a round is blocked, in the model.

spec/model/legality.py says which actions are legal; this module adds, in the same vocabulary
(a `View`, an `Opts`, the combinators that work on plain values and on z3 terms alike),
the two answers an implementation also gives: the clause that refuses an illegal action
and the clause that makes a legal one legal, and the END-2/END-3 test that ends a round
blocked. It was written from the clauses' texts (spec/data/clauses.yaml), not by calling
the engine; reference/engine.py is checked against it (conformance/crosscheck/legal_sets.py).

A clause answer is a *chain*: a list of (condition, clause id) pairs, read in order; the
answer is the first clause whose condition holds (the last pair's condition is true).
On z3 terms each pair is a decision path (`paths`): conformance/crosscheck/legal_sets.py asks z3
for a
situation on each one.
The order is the specification's precedence when several clauses apply at once (the
engine's REFUSAL_PRECEDENCE, docs/protocol.md): what the player did wrong first (a tile
not held, a tile that does not fit, not the drawn tile), then the train's access in any
turn (TRAIN-7, FIRST-9, FIRST-10, TRAIN-4), then what one moment of the turn narrows the trains to
(a first-turn chain, a binding double, a follow-up).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from mtrain.spec import tiles as T
from mtrain.spec.model import legality as L
from mtrain.spec.model.legality import (
    CHAIN,
    FOLLOW,
    START,
    And,
    Bool,
    Int,
    Not,
    Opts,
    Or,
    Slot,
    Train,
    View,
)
from mtrain.spec.model.logic import Folded, is_term
from mtrain.spec.tilesets import highest

Chain = list[tuple[Bool, str]]

_FOLLOW_REFUSAL = (("restricted", "DBL-3"), ("cover-own", "DBL-4"), ("anywhere", "TRAIN-4"))
_FOLLOW_PERMISSION = (("restricted", "DBL-3"), ("cover-own", "DBL-4"), ("anywhere", "DBL-2"))


def first(chain: Chain) -> str:
    """The clause of a chain on plain values: the first whose condition holds."""
    for cond, clause in chain:
        if cond:
            return clause
    raise ValueError("a clause chain without a final true condition")


def paths(chain: Chain) -> list[tuple[Bool, str]]:
    """Each pair of a chain as the condition that it is the one that answers."""
    out: Chain = []
    before: list[Bool] = []
    for cond, clause in chain:
        out.append((And(*(Not(b) for b in before), cond), clause))
        before.append(cond)
    return out


def _follow(o: Opts, table: Sequence[tuple[str, str]]) -> Chain:
    return [(o.is_("follow_up", value), clause) for value, clause in table]


def _binding_count(v: View, o: Opts) -> Any:
    return L.Count(L.binding(v, t, o) for t in v.trains)


def _waiting(v: View) -> Bool:
    """An open double laid on an earlier turn (binding or not)."""
    return Or(*(And(t.exists, t.dbl, Not(t.turn)) for t in v.trains))


def refuse_play(v: View, o: Opts, held: Bool, s: Slot, i: int, t: Train) -> Chain:
    """Why laying tile `s` (hand slot `i`, when held) on train `t` is refused."""
    chain_turn = L.chain_turn(v, o)
    duty = L.duty(v, o)
    cover = L.covering(v, t, o)
    return [
        (Not(held), "TURN-7"),  # a player lays a tile of their own hand
        (Not(L.fits(s, t)), "TRAIN-2"),  # a tile fits an open end
        (And(v.drawn != L.NO_SLOT, v.drawn != i), "TURN-3"),  # only the drawn tile
        # the train's access, whatever the moment (TRAIN-6: not for an open double, but
        # for one DBL-12 released)
        (And(Not(cover), Not(v.own(t)), o.is_("own_train_first", "required"),
             v.own_field("empty")), "TRAIN-7"),
        (And(Not(cover), t.is_mex, t.empty, o.is_("mexican_first_turn", "starter-only"),
             v.first_pending, v.seat != v.starter), "FIRST-9"),
        (And(Not(cover), t.is_mex, t.empty, o.is_("mexican_first_turn", "own-train-started"),
             v.own_field("empty")), "FIRST-10"),
        (And(Not(cover), Not(v.own(t)), Not(t.is_mex), Not(t.marked)), "TRAIN-4"),
        # then what this moment of the turn narrows the trains to
        # FIRST-12: on the own train, a double nothing in hand would follow
        (And(v.own(t), L.stranded(v, o, i)), "FIRST-12"),
        # a chain: own train only (FIRST-11's chain goes anywhere)
        (And(L.own_chain(o), Or(v.phase == CHAIN, chain_turn)), "FIRST-2"),
        # DBL-6: cover the double first; DBL-7: when the train itself ends in a younger one
        (And(duty, t.dbl), "DBL-7"),
        (duty, "DBL-6"),
        *[(And(v.phase == FOLLOW, c), k) for c, k in _follow(o, _FOLLOW_REFUSAL)],
        (And(o.is_("own_train_first", "required"), v.own_field("empty")), "TRAIN-7"),
        (t.is_mex, "FIRST-9"),  # the Mexican Train is open to all, but not yet
        (True, "TRAIN-4"),  # another player's train without a marker
    ]


def refuse_other(v: View, o: Opts, kind: str, any_play: Bool) -> Chain:
    """Why a draw, a pass or an end-chain is refused."""
    anywhere = o.is_("first_turn", "chain-anywhere")
    if kind == "end-chain":  # FIRST-7: no turn is a chain; FIRST-1, FIRST-11: not in one now
        return [(And(v.phase != CHAIN, o.is_("first_turn", "single")), "FIRST-7"),
                (And(v.phase != CHAIN, anywhere), "FIRST-11"),
                (v.phase != CHAIN, "FIRST-1"), (True, "FIRST-4")]
    start_chain = And(L.chain_turn(v, o), v.phase == START)
    out: Chain = [(any_play, "TURN-1"), (And(v.phase == CHAIN, anywhere), "FIRST-11"),
                  (v.phase == CHAIN, "FIRST-1")]
    if kind == "draw":
        return [*out, (start_chain, "FIRST-3"), (v.bone_empty, "TURN-4"), (True, "TURN-2")]
    return [*out, (o.is_("draw_rule", "draw-until-playable"), "TURN-5"), (True, "TURN-2")]


def permit_play(v: View, o: Opts, t: Train) -> Chain:
    """The clause that makes a legal play on train `t` legal."""
    duty = L.duty(v, o)
    return [
        (v.drawn != L.NO_SLOT, "TURN-3"),  # the drawn tile, playable
        # an earlier double that obliges nobody now: DBL-13 (never), FIRST-5 (first turns),
        # DBL-12 (the boneyard empty), DBL-9 (released)
        (And(_waiting(v), Not(duty), v.phase != FOLLOW, L.layers_turn_only(o)), "DBL-13"),
        (And(_waiting(v), Not(duty), v.phase != FOLLOW,
             o.is_("first_turn", "chain", "chain-anywhere", "chain-no-double-end"),
             v.firsts_left), "FIRST-5"),
        (And(_waiting(v), Not(duty), v.phase != FOLLOW, L.released_on_empty(v, o)), "DBL-12"),
        (And(_waiting(v), Not(duty), v.phase != FOLLOW), "DBL-9"),
        (And(o.is_("first_turn", "chain-anywhere"),
             Or(v.phase == CHAIN, And(v.phase == START, L.chain_turn(v, o)))), "FIRST-11"),
        (Or(v.phase == CHAIN, And(v.phase == START, L.chain_turn(v, o))), "FIRST-1"),
        (And(duty, o.is_("double_order", "any-open"), _binding_count(v, o) > 1), "DBL-8"),
        (And(duty, o.is_("double_order", "oldest-first"),
             L.Count(And(u.exists, u.dbl) for u in v.trains) > 1), "DBL-7"),
        (And(duty, Or(v.own(t), t.is_mex)), "DBL-6"),
        (duty, "TRAIN-6"),
        *[(And(v.phase == FOLLOW, c), k) for c, k in _follow(o, _FOLLOW_PERMISSION)],
        # FIRST-9: a player other than the starter may open it once their first turn is over
        (And(t.is_mex, t.empty, o.is_("mexican_first_turn", "starter-only"),
             v.seat != v.starter), "FIRST-9"),
        # FIRST-10: opened by a player whose own train holds a tile
        (And(t.is_mex, t.empty, o.is_("mexican_first_turn", "own-train-started")), "FIRST-10"),
        (And(t.is_mex, t.empty), "TRAIN-5"),  # open to all (MARK-2)
        (t.is_mex, "TRAIN-4"),
        (Not(v.own(t)), "MARK-1"),  # another's train, open while marked
        (True, "TRAIN-4"),
    ]


def permit_other(v: View, o: Opts, kind: str) -> Chain:
    """The clause that makes a legal draw, pass or end-chain legal."""
    if kind == "end-chain":
        return [(o.is_("first_turn", "chain-anywhere"), "FIRST-11"), (True, "FIRST-1")]
    if kind == "draw":
        return [(v.phase == FOLLOW, "DBL-5"),
                (And(v.drawn != L.NO_SLOT, o.is_("draw_rule", "draw-until-playable")),
                 "TURN-5"), (True, "TURN-2")]
    return [(And(v.phase == START, L.chain_turn(v, o)), "FIRST-3"),
            (v.phase == FOLLOW, "DBL-5"), (True, "TURN-4")]


# -- concrete states (canonical JSON) ----------------------------------------------------


def answers(state: Mapping[str, Any], options: Mapping[str, str],
            actions: Sequence[tuple[str, tuple[int, int] | None, str]]
            ) -> tuple[set[str], dict[str, str]]:
    """The legal actions of a canonical JSON state, and for each of `actions` (kind, tile
    high end first, train name) the clause that permits it (legal) or refuses it."""
    phase = state["phase"]
    texts = [L.action_text(k, tile, train) for k, tile, train in actions]
    if phase in ("over", "engine"):
        legal = set() if phase == "over" else {"draw"}
        # END-1: nothing after the round; ENG-4, ENG-6: only drawing for the engine
        clause = "END-1" if phase == "over" else (
            "ENG-6" if options["engine_procedure"] == "everyone-draws" else "ENG-4")
        return legal, {x: clause for x in texts}
    v = L.view_of_state(state, highest(options["tile_set"]))
    o = Opts(values=options)
    lg = L.legal(v, o)
    legal = L.legal_view(v, o)
    slot_of = {(s.a, s.b): i for i, s in enumerate(v.hand)}
    train_of = {t.name: t for t in v.trains}
    out: dict[str, str] = {}
    for (kind, tile, train), text in zip(actions, texts, strict=True):
        ok = text in legal
        if kind == "play":
            assert tile is not None
            t = train_of[train]
            if ok:
                chain = permit_play(v, o, t)
            else:
                i = slot_of.get(tile, L.NO_SLOT)
                chain = refuse_play(v, o, i != L.NO_SLOT, L.Slot(True, *tile), i, t)
        else:
            chain = permit_other(v, o, kind) if ok else refuse_other(v, o, kind, lg.any_play)
        out[text] = first(chain)
    return legal, out


# -- END-2 and END-3: the round blocked ----------------------------------------------------

Plays = Callable[[int, tuple[int, ...]], Bool]
"""Could seat q play at the start of a turn of its own, on the table as it would be after
`passed` seats passed in turn (their markers up, their first turns over)?"""


def passes_to_come(start: int, players: int) -> list[tuple[int, tuple[int, ...]]]:
    """END-2's turns to come while nobody plays, from seat `start`: (the seat to move, the
    seats that passed before it), for two rounds.

    While nobody plays every turn is a pass (TURN-4, FIRST-3), which raises the passer's
    marker, ends their first turn (FIRST-6) and changes nothing else; after one round of
    passes the table no longer changes, so the second round is every seat on that last
    table."""
    order = [(start + j) % players for j in range(2 * players)]
    return [(order[j], tuple(order[:min(j, players)])) for j in range(2 * players)]


def _some(c: type[Folded], tests: Iterable[Bool]) -> Bool:
    """c.Or of the tests, asked in turn up to the first plain True (on plain values the
    rest need not be asked)."""
    out = []
    for t in tests:
        if t is True:
            return True
        out.append(t)
    return c.Or(*out)


def nobody_can_ever_play(plays: Plays, seat: Int, starts: Iterable[int], players: int,
                         firsts_left: Bool, c: type[Folded] = Folded) -> Bool:
    """END-2, at the start of a turn on an empty boneyard: no turn to come offers a play.

    `starts`: the seats `seat` may be (one, on plain values); `c`: the connectives (the
    round model builds its proofs' terms as built). The last table, every seat passed,
    offers each seat the most (a marker up opens a train, closes none), so it decides
    alone unless a first turn is still to come: then a chain double binds nobody (FIRST-5)
    and a seat may play on its turn along the round of passes and not later."""
    last = tuple(range(players))
    ever = _some(c, (plays(q, last) for q in range(players)))
    if ever is True:
        return False
    if firsts_left is False:
        return c.Not(ever)
    along = c.Or(*[c.And(seat == start, _some(c, (
        plays(q, passed) for q, passed in passes_to_come(start, players)[:players])))
        for start in starts])
    return c.And(c.Not(ever), c.Or(c.Not(firsts_left), c.Not(along)))


def turns_to_play(plays: Plays, seat: Int, starts: Iterable[int], players: int,
                  c: type[Folded] = Folded) -> Int:
    """d: how many turns pass before somebody plays if everybody passes until then (0: the
    mover can play now); 2P when no turn of the two rounds offers a play (blocked, see
    `nobody_can_ever_play`)."""
    if isinstance(seat, int):  # plain values: the turns in order, up to the first play
        for j, (q, passed) in enumerate(passes_to_come(seat, players)):
            t = plays(q, passed)
            if is_term(t):
                break
            if t:
                return j
        else:
            return 2 * players
    out: Int = 2 * players
    for start in starts:
        d: Int = 2 * players
        for j, (q, passed) in reversed(list(enumerate(passes_to_come(start, players)))):
            d = c.If(plays(q, passed), j, d)
        out = c.If(seat == start, d, out)
    return out


def _plays_json(state: Mapping[str, Any], options: Mapping[str, str]) -> Plays:
    """`Plays` on a canonical JSON state, asked of legality (whatever the boneyard holds:
    nobody draws from it). One view of the table, each probe setting the seat, its hand,
    the markers and first turns."""
    n = len(state["hands"])
    v = L.view_of_state({**state, "phase": "start", "drawn": None, "turn_doubles": []},
                        highest(options["tile_set"]))
    o = Opts(values=options)
    hands = [[Slot(True, T.HIGH[x], T.LOW[x]) for x in (T.parse(h) for h in hand)]
             for hand in state["hands"]]
    marked = [bool(t.marked) for t in v.trains[:n]]
    pending = set(state.get("first_turns", []))
    memo: dict[tuple[int, frozenset[int]], bool] = {}

    def plays(q: int, passed: tuple[int, ...]) -> bool:
        key = (q, frozenset(passed))
        if key not in memo:
            left = pending - key[1]
            v.seat, v.hand = q, hands[q]
            v.first_pending, v.firsts_left = q in left, bool(left)
            for k in range(n):
                v.trains[k].marked = marked[k] or k in key[1]  # TURN-4, MARK-1
            v.memo.clear()
            memo[key] = bool(hands[q]) and bool(L.legal(v, o).any_play)
        return memo[key]

    return plays


def blocked(state: Mapping[str, Any], options: Mapping[str, str]) -> bool:
    """END-2/END-3 at the start of a turn: whether the round ends blocked now.

    END-3 (a full round of passes): the boneyard is empty and the last `players` turns
    were passes on it. END-2 (nobody can ever play): the boneyard is empty and no turn to
    come offers a play (`nobody_can_ever_play`).
    """
    if state["boneyard"]:
        return False
    n = len(state["hands"])
    if options["blocked_round"] == "full-round-of-passes":
        return int(state["passes"]) >= n  # END-3
    seat = int(state["seat"])
    return bool(nobody_can_ever_play(_plays_json(state, options), seat, [seat], n,
                                     bool(state.get("first_turns"))))


def can_ever_play(state: Mapping[str, Any], options: Mapping[str, str]) -> bool:
    """END-2's question on a canonical JSON state at the start of a turn: can anybody ever
    play again, nobody drawing?"""
    seat = int(state["seat"])
    return not nobody_can_ever_play(_plays_json(state, options), seat, [seat],
                                    len(state["hands"]), bool(state.get("first_turns")))


def turns_to_play_json(state: Mapping[str, Any], options: Mapping[str, str]) -> int | None:
    """`turns_to_play` on a canonical JSON state at the start of a turn, nobody drawing;
    None: nobody can ever play."""
    n, seat = len(state["hands"]), int(state["seat"])
    d = int(turns_to_play(_plays_json(state, options), seat, [seat], n))
    return None if d == 2 * n else d
