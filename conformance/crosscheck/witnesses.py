"""Reachability of clauses: a state where each clause fires, under each rule set, or a proof
that there is none.

A clause *fires* when the rule it states decides something: DBL-6 fires when a duty
exists and the player to move holds a tile that would be playable but for it; DBL-9 when
an open double of an earlier turn stops binding because its number is all on the table;
END-2 when a round ends blocked. `FIRES` gives every clause with a firing condition one
predicate over an engine transition (state, action, next state); `UNCONDITIONAL` lists
the clauses that hold at every step (the set, the deal, the matching of ends, ...) with
the reason they have no condition to reach.

For every clause with a firing condition and every shipped variant it applies to (and,
for a clause no shipped variant uses, every variant with one overlay that makes it
apply), `search` looks for a witness, cheapest first:

1. random play of the real engine on the rule set's own set (any of spec/data/options.yaml):
   the random rounds of driver.py;
2. the small-game exploration (driver.py, reference/explore.py): every state of sampled
   deals of a double-3 set;
3. the abstract z3 model (spec/model/transitions.py): a well-formed state (one that satisfies
   the proved inductive invariant) where the clause's z3 condition holds, or unsat: the
   clause is *dead* under that rule set, with the reason.

The uncoverable double (`uncoverable`): under every variant a double can stay open once
every tile of its number is on the table (a player lays it and plays the last tile of
its number elsewhere, or the number runs out later); under ``stays-open`` (pagat, DBL-10)
the duty then binds every player, nobody can play again (proved: `termination`,
``uncoverable-absorbing``) and the round can only end blocked (END-2); under ``released``
(puremco, DBL-9) the double stops binding and play goes on. Both are shown with a trace
found by the engine and by bounded model checking on the abstract model.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import z3

from mtrain.conformance.crosscheck.driver import explore_small, random_rounds
from mtrain.reference import engine as E
from mtrain.reference import refusals
from mtrain.reference.engine import Action, State
from mtrain.reference.explore import Size, action_text, small_rules
from mtrain.reference.rules import FOLLOW_ANYWHERE, Rules
from mtrain.spec import tiles as T
from mtrain.spec.catalog import Catalog, RulesetError, catalog
from mtrain.spec.model.round_state import CHAIN, FOLLOW, OVER, START, Sym
from mtrain.spec.model.transitions import Model
from mtrain.spec.proofs.termination import Prover, QueryResult
from mtrain.spec.ruleset import Ruleset
from mtrain.spec.yamlload import SpecError

# -- helpers on engine states -----------------------------------------------------------


def _with(state: State, **flags: Any) -> State:
    """The state under the same rule set with some engine flags changed."""
    alt = state.copy()
    alt.rules = _alt_rules(state.rules, tuple(sorted(flags.items())))
    return alt


_ALT: dict[tuple[int, tuple[tuple[str, Any], ...]], tuple[Rules, Rules]] = {}
"""(id of the rules, flags) -> (the rules, the changed rules); holding the rules keeps the
id from being reused by another object."""


def _alt_rules(rules: Rules, flags: tuple[tuple[str, Any], ...]) -> Rules:
    key = (id(rules), flags)
    if key not in _ALT:
        _ALT[key] = (rules, dataclasses.replace(rules, **dict(flags)))
    return _ALT[key][1]


def _plays(state: State) -> set[tuple[int, int]]:
    return {(a.tile, a.train) for a in E.plays(state)}


def _bites(state: State, **flags: Any) -> bool:
    """The legal plays would be different with these flags: the clause makes a difference."""
    return _plays(state) != _plays(_with(state, **flags))


def _dead_number(state: State, train: int) -> bool:
    """Every tile bearing the train's open end is on the table."""
    return not E.live(state, train)


def _candidates(state: State) -> list[int]:
    """Open doubles of earlier turns, before DBL-9 and DBL-7 (engine `duties`)."""
    if not state.open_doubles:
        return []
    if state.rules.chain_first_turn and state.first_pending:
        return []
    return [t for t in state.open_doubles if t not in state.turn_doubles]


def _fresh(state: State) -> bool:
    """Nothing laid yet in this round and every first turn to come."""
    return (state.phase == E.START and not any(state.trains)
            and state.first_pending == (1 << state.players) - 1)


def _first_turn(state: State) -> bool:
    return bool(state.first_pending >> state.seat & 1)


def _is_play(a: Action) -> bool:
    return a.kind == "play"


# -- the firing conditions --------------------------------------------------------------

Move = Callable[[State, Action, State], bool]


@dataclass(frozen=True)
class Fire:
    clause: str
    when: str
    """When the clause fires, in words."""
    move: Move


def _state(pred: Callable[[State], bool]) -> Move:
    return lambda s, a, t: pred(s)


def _blanks(t: State) -> bool:
    blank = T.NUMBER_MASK[0]
    return t.phase == E.OVER and any(
        h & blank for s, h in enumerate(t.hands)
        if t.result is not None and s != t.result.winner)


def _marker_off(s: State, a: Action, t: State, who: Callable[[State, Action, int], bool]) -> bool:
    return _is_play(a) and any(s.marked(q) and not t.marked(q) and who(s, a, q)
                               for q in range(s.players))


FIRES: Final[dict[str, Fire]] = {f.clause: f for f in [
    Fire("ENG-3", "a deal: the engine's holder places it from their hand",
         _state(lambda s: _fresh(s) and s.rules.holder_lays and sum(
             h.bit_count() for h in s.hands) == s.players * s.rules.ruleset.hand_size(
             s.players) - 1)),
    Fire("ENG-5", "a deal: the engine's holder places it and draws a replacement (a search "
         "that finds it at the first draw looks the same)",
         _state(lambda s: _fresh(s) and s.rules.holder_draws and s.engine_placed and sum(
             h.bit_count() for h in s.hands) == s.players * s.rules.ruleset.hand_size(
             s.players))),
    Fire("ENG-4", "nobody holds the engine: players draw for it",
         _state(lambda s: s.phase == E.ENGINE)),
    Fire("ENG-6", "the engine was drawn in this lap, and the lap goes on",
         _state(lambda s: s.phase == E.ENGINE and s.rules.everyone_draws and any(
             h >> T.DOUBLE[s.engine] & 1 for h in s.hands))),
    Fire("ENG-7", "a deal: the highest double held, not the round's, is the engine",
         _state(lambda s: _fresh(s) and s.rules.engine_by_deal and not s.rules.designated_opens
                and s.engine != s.rules.max_pip - (s.round - 1))),
    Fire("ENG-8", "a deal: the designated player's double, not the round's, is the engine",
         _state(lambda s: _fresh(s) and s.rules.designated_opens
                and s.engine != s.rules.max_pip - (s.round - 1))),
    Fire("SEAT-2", "the engine's holder, not the rotating seat, starts",
         _state(lambda s: _fresh(s) and s.rules.engine_holder_starts
                and s.starter != (s.round - 1) % s.players)),
    Fire("SEAT-4", "the seat after the engine's holder, not the rotating seat, starts",
         _state(lambda s: _fresh(s) and s.rules.after_engine_starts
                and s.starter != (s.round - 1) % s.players)),
    Fire("SEAT-3", "a round after the first starts at seat (round - 1) mod players",
         _state(lambda s: _fresh(s) and not s.rules.engine_holder_starts and s.round > 1
                and not s.rules.highest_draw_starts and not s.rules.heaviest_tile_starts
                and s.starter == (s.round - 1) % s.players != 0)),
    Fire("SEAT-5", "the draw's winner, not the rotating seat, starts",
         _state(lambda s: _fresh(s) and s.rules.highest_draw_starts
                and s.starter != (s.round - 1) % s.players)),
    Fire("SEAT-6", "the seat dealt the heaviest tile, not the rotating seat, starts",
         _state(lambda s: _fresh(s) and s.rules.heaviest_tile_starts
                and s.starter != (s.round - 1) % s.players)),
    Fire("TRAIN-3", "a tile covers an open double",
         lambda s, a, t: _is_play(a) and a.train in s.open_doubles),
    Fire("TRAIN-4", "a tile is played on another player's marked train",
         lambda s, a, t: _is_play(a) and a.train < s.players and a.train != s.seat
         and s.marked(a.train)),
    Fire("TRAIN-5", "the Mexican Train is opened",
         lambda s, a, t: _is_play(a) and a.train == s.players and not s.trains[s.players]),
    Fire("TRAIN-6", "an open double on another player's unmarked train is covered",
         lambda s, a, t: _is_play(a) and a.train < s.players and a.train != s.seat
         and not s.marked(a.train) and a.train in s.open_doubles),
    Fire("TRAIN-7", "a player who has not started their train holds a tile for another one",
         _state(lambda s: s.phase == E.START and s.rules.own_train_first
                and not s.trains[s.seat] and _bites(s, own_train_first=False))),
    Fire("TURN-1", "a player who could draw must play instead",
         _state(lambda s: s.phase in (E.START, E.FOLLOW) and bool(s.boneyard)
                and bool(E.plays(s)))),
    Fire("TURN-2", "a player who cannot play draws one tile",
         lambda s, a, t: a.kind == "draw" and s.phase != E.ENGINE
         and not s.rules.draw_until_playable),
    Fire("TURN-3", "after a draw another tile of the hand would fit, but only the drawn one "
         "may be played",
         _state(lambda s: s.drawn >= 0 and _plays(s) != _plays(_undrawn(s)))),
    Fire("TURN-4", "a player passes after drawing or on an empty boneyard",
         lambda s, a, t: a.kind == "pass" and not (
             s.rules.chain_first_turn and s.phase == E.START and _first_turn(s))),
    Fire("TURN-5", "a player draws a second tile in one turn",
         lambda s, a, t: a.kind == "draw" and s.drawn >= 0),
    Fire("TURN-6", "a turn ends on a tile that is not a double",
         lambda s, a, t: _is_play(a) and not T.IS_DOUBLE[a.tile] and s.phase != E.CHAIN
         and t.phase != E.OVER and t.seat != s.seat),
    Fire("FIRST-1", "a first-turn chain goes on past its first tile",
         lambda s, a, t: _is_play(a) and s.phase == E.CHAIN),
    Fire("FIRST-2", "during a chain the player holds a tile for the Mexican or a marked train",
         _state(lambda s: s.rules.chain_first_turn and _first_turn(s)
                and s.phase in (E.START, E.CHAIN) and _bites(s, chain_first_turn=False))),
    Fire("FIRST-3", "a player who cannot start their train on the first turn marks it",
         lambda s, a, t: a.kind == "pass" and s.rules.chain_first_turn
         and s.phase == E.START and _first_turn(s)),
    Fire("FIRST-4", "a chain stops on a double the player could cover: it must be covered",
         _state(lambda s: s.phase == E.CHAIN and bool(s.turn_doubles)
                and any(a.train in s.turn_doubles for a in E.plays(s)))),
    Fire("FIRST-5", "a double left by a chain waits while first turns remain",
         _state(lambda s: s.rules.chain_first_turn and s.phase == E.START
                and bool(s.first_pending) and bool(s.open_doubles))),
    Fire("FIRST-11", "a first turn laid anywhere puts a tile on a train not the player's own",
         lambda s, a, t: _is_play(a) and s.rules.chain_anywhere and _first_turn(s)
         and a.train != s.seat),
    Fire("FIRST-12", "a chain holds a double nothing would follow: laying it is refused",
         _state(lambda s: s.phase == E.CHAIN and s.rules.chain_no_double_end
                and E.legal_actions(s) != E.legal_actions(_with(s, chain_no_double_end=False)))),
    Fire("FIRST-6", "the last first turn of the round ends",
         lambda s, a, t: bool(s.first_pending) and not t.first_pending),
    Fire("FIRST-7", "a first turn is one tile, then the turn passes on",
         lambda s, a, t: _is_play(a) and not s.rules.chain_first_turn and _first_turn(s)
         and not T.IS_DOUBLE[a.tile] and t.phase != E.OVER and t.seat != s.seat),
    Fire("FIRST-8", "a player other than the starter opens the Mexican Train on a first turn",
         lambda s, a, t: _is_play(a) and a.train == s.players and not s.trains[s.players]
         and _first_turn(s) and s.seat != s.starter),
    Fire("FIRST-9", "a player on their first turn, not the starter, could otherwise open the "
         "Mexican Train",
         _state(lambda s: s.rules.starter_only_mexican and s.phase == E.START
                and _first_turn(s) and s.seat != s.starter
                and _bites(s, starter_only_mexican=False))),
    Fire("FIRST-10", "a player whose own train is empty could otherwise open the Mexican "
         "Train",
         _state(lambda s: s.rules.own_train_mexican and s.phase in (E.START, E.FOLLOW)
                and not s.trains[s.seat] and not s.trains[s.players]
                and _bites(s, own_train_mexican=False))),
    Fire("DBL-1", "a double is laid outside a chain and asks for another tile",
         lambda s, a, t: _is_play(a) and T.IS_DOUBLE[a.tile] and t.phase == E.FOLLOW),
    Fire("DBL-11", "a double is laid outside a chain and the turn passes on at once",
         lambda s, a, t: _is_play(a) and T.IS_DOUBLE[a.tile] and s.phase != E.CHAIN
         and t.phase == E.START and t.seat != s.seat and s.rules.ordinary_doubles),
    Fire("DBL-2", "the tile after a double goes elsewhere than on that double",
         lambda s, a, t: _is_play(a) and s.phase == E.FOLLOW
         and s.rules.follow == FOLLOW_ANYWHERE and a.train not in s.turn_doubles),
    Fire("DBL-3", "the follow-up restriction refuses a tile that could go anywhere",
         _state(lambda s: s.phase == E.FOLLOW and not E.duties(s)
                and _bites(s, follow=FOLLOW_ANYWHERE))),
    Fire("DBL-4", "the layer must cover the double though another train would take a tile",
         _state(lambda s: s.phase == E.FOLLOW and not E.duties(s)
                and _bites(s, follow=FOLLOW_ANYWHERE))),
    Fire("DBL-5", "after a double the player cannot follow: draws or passes",
         lambda s, a, t: s.phase == E.FOLLOW and a.kind in ("draw", "pass")),
    Fire("DBL-6", "a duty closes a train the player could otherwise play on",
         _state(lambda s: s.phase in (E.START, E.FOLLOW) and bool(E.duties(s))
                and _closes(s))),
    Fire("DBL-7", "several open doubles are due and only the oldest may be covered",
         _state(lambda s: s.rules.oldest_first and len(_due(s)) > 1)),
    Fire("DBL-8", "several open doubles are due and any of them may be covered",
         _state(lambda s: not s.rules.oldest_first and len(_due(s)) > 1)),
    Fire("DBL-9", "an open double nobody can cover stops binding (released)",
         _state(lambda s: s.rules.release_uncoverable and s.phase in (E.START, E.FOLLOW)
                and any(_dead_number(s, k) for k in _candidates(s)))),
    Fire("DBL-10", "an open double nobody can cover still binds the player to move",
         _state(lambda s: not s.rules.release_uncoverable and s.phase in (E.START, E.FOLLOW)
                and any(_dead_number(s, k) for k in E.duties(s)))),
    Fire("DBL-12", "the boneyard is empty and an open double of an earlier turn binds nobody",
         _state(lambda s: s.rules.release_when_empty and s.phase in (E.START, E.FOLLOW)
                and not s.boneyard and bool(_candidates(s)))),
    Fire("DBL-13", "an open double of an earlier turn binds nobody: only its layer was bound",
         _state(lambda s: s.rules.release_after_turn and s.phase in (E.START, E.FOLLOW)
                and bool(_candidates(s)))),
    Fire("MARK-1", "a pass puts a marker up",
         lambda s, a, t: a.kind == "pass" and not s.marked(s.seat)),
    Fire("MARK-3", "a marker comes off as its owner plays on their own train",
         lambda s, a, t: _marker_off(s, a, t, lambda s, a, q: q == s.seat == a.train)),
    Fire("MARK-4", "a marker comes off as another player plays on that train",
         lambda s, a, t: _marker_off(s, a, t, lambda s, a, q: q == a.train != s.seat)),
    Fire("MARK-5", "a marker comes off as its owner plays on another train",
         lambda s, a, t: _marker_off(s, a, t, lambda s, a, q: q == s.seat != a.train)),
    Fire("END-1", "a player lays their last tile",
         lambda s, a, t: t.result is not None and t.result.end == E.DOMINO),
    Fire("END-2", "the round ends blocked: nobody can ever play again",
         lambda s, a, t: s.phase != E.OVER and t.result is not None
         and t.result.end == E.BLOCKED and not s.rules.passes_end_round),
    Fire("END-3", "the round ends blocked after every player has passed in turn",
         lambda s, a, t: s.phase != E.OVER and t.result is not None
         and t.result.end == E.BLOCKED and s.rules.passes_end_round),
    Fire("SCORE-2", "a round ends with a blank in a losing hand", lambda s, a, t: _blanks(t)),
    Fire("SCORE-3", "a round ends with a blank in a losing hand", lambda s, a, t: _blanks(t)),
    Fire("SCORE-4", "a round ends with a blank in a losing hand", lambda s, a, t: _blanks(t)),
    Fire("SCORE-5", "a round ends and the hands are scored",
         lambda s, a, t: s.phase != E.OVER and t.phase == E.OVER),
    Fire("SCORE-7", "a round ends blocked and a lowest hand worth something scores 0",
         lambda s, a, t: s.phase != E.OVER and t.result is not None
         and t.result.end == E.BLOCKED and s.rules.blocked_low_wins
         and list(t.result.scores) != [E.hand_value(t, q) for q in range(t.players)]),
    Fire("SCORE-6", "a player goes out and collects the other hands",
         lambda s, a, t: t.result is not None and t.result.end == E.DOMINO
         and s.phase != E.OVER),
]}

UNCONDITIONAL: Final[dict[str, str]] = {
    "SET-1": "the tile set itself", "SET-2": "the tile set itself",
    "SET-3": "the tile set itself", "SET-4": "the tile set itself",
    "SET-5": "the tile set itself", "SET-6": "the tile set itself",
    "SET-7": "the tile set itself", "SET-8": "the tile set itself",
    "SET-9": "the tile set itself",
    "DEAL-1": "every deal", "DEAL-2": "every deal",
    "DEAL-3": "every deal", "DEAL-4": "every deal", "DEAL-5": "every deal",
    "DEAL-6": "every deal", "DEAL-7": "a refusal when the game is set up",
    "DEAL-8": "a property of the rule set, checked when it is loaded",
    "DEAL-9": "every deal",
    "DEAL-10": "a property of the rule set, checked when it is loaded",
    "DEAL-11": "a property of the rule set, checked when it is loaded",
    "DEAL-12": "every deal", "DEAL-13": "every deal", "DEAL-14": "every deal",
    "DEAL-15": "every deal", "DEAL-16": "every deal",
    "ENG-1": "every round", "ENG-2": "every deal", "SEAT-1": "every turn",
    "TRAIN-1": "the layout of every round", "TRAIN-2": "every tile played",
    "TURN-7": "every action", "MARK-2": "every state", "SCORE-1": "every score",
    "MATCH-1": "the match, not a round", "MATCH-2": "the match, not a round",
    "MATCH-3": "the match, not a round", "MATCH-4": "the match, not a round",
    "MATCH-5": "the match, not a round", "MATCH-6": "the match, not a round",
    "MATCH-7": "the match, not a round",
}


def _undrawn(s: State) -> State:
    alt = s.copy()
    alt.drawn = -1
    return alt


def _due(s: State) -> list[int]:
    """Due doubles after DBL-9 and before DBL-7 (those the player could be asked to cover)."""
    out = _candidates(s)
    if s.rules.release_uncoverable:
        out = [k for k in out if E.live(s, k)]
    return out


def _closes(s: State) -> bool:
    """The hand holds a tile for a train the duty closes."""
    due = set(E.duties(s))
    hand = s.hands[s.seat]
    mask = s.rules.number_mask
    trains = E.open_trains(s, s.seat)
    return any(hand & mask[s.ends[k]] for k in trains if k not in due)


# -- targets ----------------------------------------------------------------------------


def targets(cat: Catalog | None = None) -> dict[str, list[str]]:
    """Rule set name -> the clauses with a firing condition to reach under it."""
    cat = cat if cat is not None else catalog()
    shipped = {name: cat.ruleset(name) for name in cat.variants}
    combos: dict[str, Ruleset] = {}
    for v in cat.variants:
        for o in cat.overlays:
            try:
                combos[f"{v}+{o}"] = cat.ruleset(v, [o])
            except (RulesetError, SpecError):
                continue
    out: dict[str, list[str]] = {}
    for cid, clause in cat.clauses.items():
        if cid not in FIRES:
            continue
        where = [n for n, rs in shipped.items() if clause.applies(rs)]
        if not where:
            where = [n for n, rs in combos.items() if clause.applies(rs)]
        for n in where:
            out.setdefault(n, []).append(cid)
    return out


# -- results ----------------------------------------------------------------------------


@dataclass
class Witness:
    clause: str
    ruleset: str
    how: str
    """play (random play on the real set), small (small-game exploration), z3 (a well-formed
    abstract state), or dead (z3: no well-formed state)."""
    detail: str
    state: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"clause": self.clause, "ruleset": self.ruleset,
                               "how": self.how, "detail": self.detail}
        if self.state is not None:
            out["state"] = self.state
        return out


@dataclass
class ReachReport:
    witnesses: list[Witness] = field(default_factory=list)
    missing: list[tuple[str, str]] = field(default_factory=list)
    queries: list[QueryResult] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def dead(self) -> list[Witness]:
        return [w for w in self.witnesses if w.how == "dead"]

    def to_json(self) -> dict[str, Any]:
        return {"witnesses": [w.to_json() for w in self.witnesses],
                "dead": [w.to_json() for w in self.dead],
                "missing": [{"clause": c, "ruleset": r} for c, r in self.missing],
                "queries": [q.to_json() for q in self.queries],
                "seconds": round(self.seconds, 4)}


# -- the search -------------------------------------------------------------------------


def random_play(rs: Ruleset, want: set[str], found: dict[str, str], rounds: int,
                seed: int = 0) -> None:
    """The driver's first `rounds` random rounds under `rs`; records in `found` the first
    transition where each wanted clause fires."""
    for step in random_rounds(rs, seed):
        left = [FIRES[c] for c in want if c not in found]
        if step.round_index >= rounds or not left:
            return
        s, a, t = step.state, step.action, step.after
        if a is None or t is None:
            continue
        for f in left:
            if f.move(s, a, t):
                found[f.clause] = (f"random round {step.round_index} ({step.game.players} "
                                   f"players, round {step.game.round_no}), action "
                                   f"{step.index}: {action_text(s, a)}")


def small_games(rs: Ruleset, want: set[str], found: dict[str, str],
                sizes: Sequence[Size]) -> None:
    """The driver's small games; records the first transition where each clause fires."""
    for size in sizes:
        if not want - found.keys():
            return

        def visit(s: State, a: Action, t: State, size: Size = size) -> None:
            for c in [c for c in want if c not in found]:
                if FIRES[c].move(s, a, t):
                    found[c] = f"{size.label} game: {action_text(s, a)} in phase {s.phase}"

        explore_small(rs, size, visit)


SMALL_SIZES: Final = (Size(3, 2, 3, 40), Size(3, 3, 2, 40), Size(4, 3, 3, 4))


def search(rounds: int = 150, sizes: Sequence[Size] = SMALL_SIZES,
           prover: Prover | None = None, only: Iterable[str] | None = None) -> ReachReport:
    """Witnesses for every (clause, rule set) of `targets()`, cheapest source first."""
    t0 = time.perf_counter()
    cat = catalog()
    report = ReachReport()
    prover = prover if prover is not None else Prover()
    chosen = set(only) if only is not None else None
    for name, clauses in targets(cat).items():
        if chosen is not None and name not in chosen:
            continue
        rs = cat.ruleset(name)
        want = set(clauses)
        found: dict[str, str] = {}
        random_play(rs, want, found, rounds)
        for c in sorted(found):
            report.witnesses.append(Witness(c, name, "play", found[c]))
        got = dict(found)
        small_games(rs, want, found, sizes)
        for c in sorted(set(found) - set(got)):
            report.witnesses.append(Witness(c, name, "small", found[c]))
        for c in sorted(want - found.keys()):
            w = z3_witness(rs, c, prover, report.queries)
            if w is None:
                report.missing.append((c, name))
            else:
                report.witnesses.append(w)
    report.witnesses.sort(key=lambda w: (w.clause, w.ruleset))
    report.seconds = time.perf_counter() - t0
    return report


# -- z3: a well-formed state where the clause fires, or none ----------------------------


def _z3_fires(model: Model, s: Sym) -> dict[str, Any]:
    """Firing conditions over the abstract state, for the clauses that may need them."""
    P = model.P
    seat_first = z3.Or([z3.And(s.seat == q, s.first[q]) for q in range(P)])
    due = [model.due(s, k) for k in model.trains]
    undrawn = s.replace(drawn=z3.IntVal(-1))
    other = [z3.And(s.drawn != t, model.can_play(undrawn, t, k))
             for t in model.tiles for k in model.trains]
    free = {
        "TURN-3": z3.And(s.drawn >= 0, z3.Or(other)),
        "DBL-7": z3.And(s.phase == START, z3.AtLeast(*due, 2)),
        "DBL-8": z3.And(s.phase == START, z3.AtLeast(*due, 2)),
        "DBL-9": z3.And(z3.Or(s.phase == START, s.phase == FOLLOW), z3.Or(
            [z3.And(model.due(s, k, False), z3.Not(model.live(s, k))) for k in model.trains])),
        "DBL-10": z3.And(z3.Or(s.phase == START, s.phase == FOLLOW), model.stuck(s)),
        "DBL-13": z3.And(z3.Or(s.phase == START, s.phase == FOLLOW),
                         z3.Or([z3.And(s.odbl[k], z3.Not(s.tdbl[k])) for k in model.trains])),
        "DBL-12": z3.And(z3.Or(s.phase == START, s.phase == FOLLOW), model.boneyard(s) == 0,
                         z3.Or([z3.And(s.odbl[k], z3.Not(s.tdbl[k])) for k in model.trains])),
        "FIRST-4": z3.And(s.phase == CHAIN, z3.Or([z3.And(s.seat == q, s.tdbl[q])
                                                   for q in range(P)]), model.found(s)),
        "FIRST-5": z3.And(s.phase == START, z3.Or(s.first), z3.Or(s.odbl)),
        "FIRST-9": z3.And(s.phase == START, seat_first, s.seat != s.starter,
                          z3.Not(s.started[model.mex]), z3.Or(
                              [model.in_hand(s, s.seat, t) for t in model.bearing[model.e]])),
        "END-2": z3.And(s.phase == OVER, s.res == 2),
        "END-3": z3.And(s.phase == OVER, s.res == 2),
        "SCORE-7": z3.And(s.phase == OVER, s.res == 2),
    }
    return free


def z3_witness(rs: Ruleset, clause: str, prover: Prover, log: list[QueryResult],
               max_pip: int = 3, players: int = 3, hand: int = 2) -> Witness | None:
    """A well-formed abstract state where `clause` fires, or a proof that none is reachable.

    Dead when ``Inv and F`` is unsat, or when ``not F`` holds at every deal and is
    inductive relative to the (proved) invariant: ``Inv and not F and T => not F'``.
    """
    model = Model(rs, players, hand, max_pip=max_pip)
    s, s2 = model.state("s"), model.state("t")
    conds = _z3_fires(model, s)
    if clause not in conds:
        return None
    fires = conds[clause]
    where = f"double-{max_pip}, {players} players"
    label = f"{rs.name}@d{max_pip}:fires:{clause}"
    q, m = prover.run(label, [model.invariant(s), fires], "sat")
    log.append(q)
    if q.answer == "unsat":
        return Witness(clause, rs.name, "dead", f"no state satisfying the inductive invariant "
                       f"lets it fire ({where})")
    if q.answer != "sat":
        return None
    state = model.describe(m, s)
    q_init, _ = prover.run(f"{label}:init", [model.init(s), fires], "unsat")
    q_step, _ = prover.run(f"{label}:step", [model.invariant(s), z3.Not(fires),
                                             model.transition(s, s2),
                                             _z3_fires(model, s2)[clause]], "unsat")
    log += [q_init, q_step]
    if q_init.answer == q_step.answer == "unsat":
        return Witness(clause, rs.name, "dead", f"it fires at no deal and no action makes it "
                       f"fire: 'not fires' is inductive relative to the invariant ({where})")
    return Witness(clause, rs.name, "z3", f"a well-formed state ({where}); its reachability "
                   "is not established", state)


__all__ = ["FIRES", "OVER", "UNCONDITIONAL", "ReachReport", "UncoverableReport", "Witness",
           "search", "targets", "uncoverable"]


# -- the uncoverable double -------------------------------------------------------------


def uncoverable_blocked(s: State, a: Action, t: State) -> bool:
    """The round ends blocked with an open double whose number is all on the table."""
    return (s.phase != E.OVER and t.result is not None and t.result.end == E.BLOCKED
            and any(_dead_number(t, k) for k in t.open_doubles))


def released_play(s: State, a: Action, t: State) -> bool:
    """A tile is played at the start of a turn while an earlier turn's double that nobody can
    cover is open (and would bind but for DBL-9)."""
    if not _is_play(a) or s.phase != E.START:
        return False
    return any(_dead_number(s, k) for k in _candidates(s))


def binding_dead(s: State) -> bool:
    """DBL-10: the player to move is held to a double nobody can cover."""
    return any(_dead_number(s, k) for k in E.duties(s))


@dataclass
class UncoverableReport:
    ruleset: str
    rule: str
    """stays-open or released"""
    target: str
    size: Size
    engine_depth: int | None = None
    engine_deal: tuple[str, ...] = ()
    engine_trace: tuple[str, ...] = ()
    states: int = 0
    bound_states: int = 0
    """States where a binding duty rests on a double nobody can cover."""
    plays_from_bound: int = 0
    """Plays made from such states (stays-open: must be 0)."""
    endings_from_bound: dict[str, int] = field(default_factory=dict)
    z3_depth: int | None = None
    z3_trace: dict[str, Any] | None = None
    z3_replayed: bool | None = None
    """The z3 trace, replayed on the engine from the deal z3 chose, reaches the target."""
    queries: list[QueryResult] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def agree(self) -> bool:
        return (self.engine_depth is not None and self.z3_depth == self.engine_depth
                and bool(self.z3_replayed))

    def to_json(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset, "uncoverable_double": self.rule, "target": self.target,
            "small_game": self.size.label, "states": self.states,
            "engine": {"depth": self.engine_depth, "deal": list(self.engine_deal),
                       "trace": list(self.engine_trace)},
            "bound_states": self.bound_states, "plays_from_bound_states": self.plays_from_bound,
            "z3": {"depth": self.z3_depth, "trace": self.z3_trace, "replayed": self.z3_replayed},
            "agree": self.agree, "problems": self.problems,
            "queries": [q.to_json() for q in self.queries]}


UNCOVERABLE_CASES: Final = (
    # rule set, small game for `mtrain check`, small game for `mtrain check --full`
    ("pagat", Size(3, 2, 4, 10), Size(3, 2, 5)),
    ("puremco", Size(3, 2, 4, 10), Size(3, 2, 4)),
    ("pagat+release-uncoverable", Size(3, 2, 5, 10), Size(3, 2, 5)),
)


def uncoverable(prover: Prover | None = None, full: bool = False,
                cases: Sequence[tuple[str, Size, Size]] = UNCOVERABLE_CASES
                ) -> list[UncoverableReport]:
    """The uncoverable double under each rule: shortest traces by the engine and by z3.

    The engine explores small games (every deal with `full`, a sample otherwise) for the
    fewest actions from a deal to the target: under stays-open a blocked end with the
    double still open, under released a tile played while it is open. z3 is asked for a
    trace of that length from any deal (and, with `full`, proves that no shorter one
    exists); its trace is replayed on the engine. Along the way, every state where a duty
    binds on a double nobody can cover is checked: no play may ever follow (stays-open).
    """
    from mtrain.reference.deal import deal as deal_round

    prover = prover if prover is not None else Prover()
    cat = catalog()
    out = []
    for name, quick, whole in cases:
        size = whole if full else quick
        rs = cat.ruleset(name)
        released = rs["uncoverable_double"] == "released"
        target = released_play if released else uncoverable_blocked
        rep = UncoverableReport(name, "released" if released else "stays-open",
                                "released-play" if released else "blocked-uncoverable", size)
        endings: dict[str, int] = {}

        def visit(s: State, a: Action, t: State, rep: UncoverableReport = rep,
                  endings: dict[str, int] = endings) -> None:
            if binding_dead(s):
                rep.bound_states += 1
                if _is_play(a):
                    rep.plays_from_bound += 1
                if t.result is not None:
                    endings[t.result.end] = endings.get(t.result.end, 0) + 1

        ex = explore_small(rs, rep.size, visit, target)
        rep.endings_from_bound = endings
        rep.states = ex.states
        rep.engine_depth, rep.engine_deal, rep.engine_trace = (
            ex.witness_depth, ex.witness_deal, ex.witness_trace)
        if ex.findings:
            rep.problems += [f"{f.kind}: {f.message}" for f in ex.findings]
        if not released and rep.plays_from_bound:
            rep.problems.append(f"{rep.plays_from_bound} plays after a duty bound on a double "
                                "nobody can cover [DBL-10]")
        if not released and endings.get(E.DOMINO):
            rep.problems.append("a round went out after a duty bound on a double nobody can "
                                "cover [DBL-10, END-1]")
        if rep.engine_depth is None:
            rep.problems.append("the engine found no trace to the target")
            out.append(rep)
            continue
        small = small_rules(rs, size.max_pip, {size.players: size.hand})  # the engine's
        model = Model(rs, size.players, size.hand, max_pip=size.max_pip)
        from mtrain.spec.proofs.termination import bmc

        depths = range(1, rep.engine_depth + 1) if full else [rep.engine_depth]
        queries, trace = bmc(model, rep.target, prover, depths=depths, label=name)
        rep.queries = queries
        if trace is not None:
            rep.z3_depth = trace.depth
            rep.z3_trace = trace.to_json()
            state = deal_round(small, size.players, order=trace.order)
            hit = False
            for text in trace.actions:
                action = _parse(state, text)
                legal = E.legal_actions(state)
                if action not in legal:
                    rep.problems.append(f"z3 trace step {text!r} is not legal in the engine")
                    break
                nxt = refusals.apply(state, action)
                hit = hit or target(state, action, nxt)
                state = nxt
            rep.z3_replayed = hit
            if not hit:
                rep.problems.append("the z3 trace, replayed on the engine, misses the target")
        else:
            rep.problems.append(f"z3 found no trace of length {rep.engine_depth}")
        if rep.z3_depth is not None and rep.z3_depth != rep.engine_depth:
            rep.problems.append(f"shortest trace: engine {rep.engine_depth}, z3 {rep.z3_depth}")
        out.append(rep)
    return out


def _parse(state: State, text: str) -> Action:
    if text.startswith("play "):
        tile, _, train = text[5:].partition(" on ")
        k = state.players if train == "mexican" else int(train)
        return E.PLAY[k][T.parse(tile)]
    return {"draw": E.DRAW, "pass": E.PASS, "end-chain": E.END_CHAIN}[text]
