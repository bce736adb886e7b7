"""Which clause a failed comparison is charged to.

A fixture lists every clause it exercises; a failure is charged to the one that decides
the comparison that failed, under the rule set it ran under:

- an action offered that the rules refuse: the clause the reference cites refusing it;
- an action the rules allow but the implementation does not offer (or refuses, as a
  step): the clause that allows it (`refusals.permission`); a draw or pass offered in its
  place, legal had the player not held the missed tiles, is not charged on its own;
  covers missing on other players' unmarked trains, with no play offered in their place
  (or such a cover refused as a closed train, TRAIN-4), are charged to TRAIN-6, which
  alone opens those trains, whatever the moment's narrower rule (TURN-3), but to the
  order of covering (DBL-7, DBL-8) where several doubles of earlier turns are open and
  the player holds no cover of another: another order leaves them a draw alike
  (move_charges.order_explains); plays
  missing on other players' marked trains, with no play offered on any such train (or
  such a play refused as onto a closed train, TRAIN-4), to the marker's access (TRAIN-4,
  or MARK-1 where the fixture lists it alone), whatever the moment's rule (DBL-2, TURN-3,
  a release);
  plays missing on the Mexican Train by a player whose marker is up, with no play offered
  on it and some other legal play offered (the tiles seen), or such a play refused so, to
  its access (TRAIN-4, or MARK-2 where the fixture lists it alone), whatever the moment's
  rule (TURN-3, DBL-2, TRAIN-5);
  plays missing that open the empty Mexican Train, with no play offered on it, to what
  opens it (TRAIN-5; FIRST-10 where only a player whose own train holds a tile may open
  it, and the mover's does), whatever the moment's rule (DBL-2, DBL-3, TURN-3);
- a draw or pass missing, or refused as a step, beside plays the rules refuse: the clause
  refusing those plays (the player believes a play possible); a draw due to a player bound
  by a double nobody can cover: the rule that it still binds (DBL-10, DBL-12), where its
  release would leave the player a play (else the draw's own clause, TURN-2); the drawn
  tile playable only because the doubles were released: the release's rule; a play a
  double of an earlier turn forbids with one tile left in the boneyard, legal once it
  is empty (DBL-12): that release, a tile early;
- an accepted action the fixture expects refused, or the wrong clause cited: the clause
  the fixture names;
- a state field: the clause that sets that field, among those that apply (markers: the
  removal rule in force or TURN-4 for a pass; the seat to move: TURN-6; ...);
- a round found blocked or not, differently, where the open doubles decide it: their
  rule (FIRST-5, DBL-6, DBL-10, a release), for a round the implementation goes on with
  only if it lets some seat play what they refuse (else END-2, its test alone);
- a result or scores: the round-end or scoring clause in force; match totals that do not
  add the implementation's own round scores: MATCH-1; winners: the match rule (its length
  where one side names none, the scoring direction where the other end of the totals is
  named);
- an impossible answer (answers.py): the clause a state the codec cannot read cites (a
  field out of range: the clause that sets it), or the clause behind the invariant it
  breaks (the engine tile lost or doubled by a deal: the engine procedure in force; tiles
  lost while searching for the engine: ENG-4 or ENG-6, or by a deal's search for a double:
  ENG-7 or ENG-8; a covered double still listed open: TRAIN-3; an uncovered one dropped:
  DBL-6 if it was open before the answer, DBL-1 if just laid).

Where several candidates apply, one the fixture lists is preferred.
"""

from __future__ import annotations

import copy
import dataclasses
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from mtrain.conformance.divergence import OWN_END
from mtrain.conformance.field_clauses import (
    CITED,
    DEAL_FIELD,
    DRAWN_TILE,
    FIELD_CLAUSES,
    HAND_SIZES,
    INVARIANT_CLAUSES,
    OPEN_LISTS,
    ROUND_END,
    SEARCH,
    STEP_FIELD,
    TILE_COUNTS,
    TURN_DOUBLES_KEPT,
)
from mtrain.conformance.first_turn_charges import mover_differs, opening_rule
from mtrain.conformance.fixture import Fixture
from mtrain.conformance.move_charges import (
    allowing,
    closed_cover,
    dead_charge,
    dead_rule,
    drawn_refusal,
    early_count,
    marked_mexican,
    marked_play,
    mexican_opening,
    release_near,
    release_offered,
    released_early,
    released_one_short,
)
from mtrain.conformance.score_charges import (
    MATCH,
    TILE_VALUES,
    _distinct,
    _ints,
    _less,
    _reversed,
    _values_only,
    values_only,
)
from mtrain.reference import codec, engine, refusals
from mtrain.reference.invariants import carried_totals
from mtrain.reference.rules import Rules
from mtrain.spec import tiles as T
from mtrain.spec.catalog import catalog
from mtrain.spec.notation import action_json, is_next_round
from mtrain.spec.ruleset import Ruleset

if TYPE_CHECKING:
    from mtrain.conformance.answers import Problem


def _reordered(want: Any, got: Any) -> bool:
    """Whether `got` lists the trains of `want` (open doubles), each as often, in another
    order."""
    if not (isinstance(want, list) and isinstance(got, list)) or want == got:
        return False
    return sorted(map(str, want)) == sorted(map(str, got))


def pick(candidates: Sequence[str], rs: Mapping[str, str], fx: Fixture) -> str:
    """The first candidate the fixture lists and the rule set applies; else the first
    that applies; else the fixture's first clause."""
    clauses = catalog().clauses
    applying = [c for c in candidates if c in clauses and clauses[c].applies(rs)]
    listed = [c for c in applying if c in fx.clauses]
    return (listed or applying or list(fx.clauses) or ["TURN-1"])[0]


def stand_in_charges(charged: Sequence[str], own: Sequence[str],
                     rs: Mapping[str, str]) -> list[str]:
    """What a result under a rule set that plays the options `own` its own way (`other`),
    `rs` (the rules sent) standing in for them, says of each clause `charged` that is in
    force only through the stand-in's value for one of them: the failure is charged where
    the stand-in's rules decide it, which is judged where the implementation's answer
    agrees with the stand-in's (a double its own doubles rule keeps open bound by DBL-6:
    tests/test_fuzz_s51.py), but that clause is not one of its declared rules: the
    result says the rule that decides is its own (a result cites its rules' clauses, or
    says why not)."""
    clauses = catalog().clauses
    out = []
    for c in dict.fromkeys(charged):
        # (a clause in force under neither is a field's own, as MATCH-5 for the outs)
        mine = ([o for o in clauses[c].when if o in own]
                if c in clauses and clauses[c].applies(rs) else [])
        if mine:
            out.append(f"charged {c}, a clause of the reference's stand-in for "
                       f"{', '.join(mine)}, not of these rules, which play "
                       f"{'it' if len(mine) == 1 else 'them'} their own way (`other`): "
                       f"their own rule decides here, judged as {c}")
    return out


class Referee:
    """The reference engine's view of one fixture under one rule set: which clause
    allows or refuses an action in the state it reaches."""

    def __init__(self, fx: Fixture, rs: Ruleset,
                 replay: Callable[[], list[dict[str, Any]]] | None = None,
                 own: Collection[str] = ()) -> None:
        self.fx, self.rs = fx, rs
        self.own = frozenset(own)
        """The options `rs` stands in for, played the implementation's own way."""
        self._rules: Rules | None = None
        self._replay = replay
        self._states: list[dict[str, Any]] | None = None
        self.early: list[int | None] = []
        """For each action charged to the duty of an earlier double (DBL-6, DBL-7) or to
        its release counted one tile early (DBL-9): how many tiles short of DBL-9's
        release a count would free it at, or None where none near does
        (move_charges.early_count): what a run's tables together say
        (release_counts.py)."""

    def states(self) -> list[dict[str, Any]]:
        """The reference's own states for the fixture: the start, then after each step
        (replayed once, and only when a failure needs them)."""
        if self._states is None:
            self._states = self._replay() if self._replay is not None else []
        return self._states

    def final(self) -> dict[str, Any] | None:
        states = self.states()
        return states[-1] if states else None

    def holding_back(self, tiles: Collection[str]) -> Referee:
        """This view with `tiles` (a rule of one's own will not lay them: lay_alone.py) out
        of the mover's hand in the final state: what the rules then allow or refuse
        there. (Its other hands are not read there, so the tiles simply go.)"""
        final = self.final()
        if final is None:
            return self
        table = copy.deepcopy(final)
        seat, hands = table.get("seat"), table.get("hands")
        if isinstance(hands, list) and isinstance(seat, int) and 0 <= seat < len(hands):
            hands[seat] = [t for t in hands[seat] if t not in tiles]
        view = Referee(self.fx, self.rs)
        view._rules, view._states = self._rules, [*self.states()[:-1], table]
        view.early = self.early  # (what it charges is this view's)
        return view

    def rules(self) -> Rules:
        if self._rules is None:
            self._rules = Rules.of(self.rs)
        return self._rules

    def _state(self, state: Mapping[str, Any]) -> engine.State | None:
        try:
            return codec.state_from_json(self.rules(), dict(state))
        except (codec.StateError, ValueError, KeyError, TypeError):
            return None

    def _action(self, st: engine.State, text: str) -> engine.Action | None:
        try:
            return codec.action_from_json(st, action_json(text, self.rules().max_pip))
        except (codec.StateError, ValueError, KeyError):
            return None

    def allows(self, state: Mapping[str, Any] | None, text: str) -> str:
        state = self.final() if state is None else state
        st = None if state is None else self._state(state)
        act = None if st is None else self._action(st, text)
        found = None if st is None or act is None else allowing(st, act)
        return found or pick(("TURN-1", "TRAIN-4"), self.rs, self.fx)

    def closed_cover(self, state: Mapping[str, Any] | None, text: str,
                     legal: bool = True) -> bool:
        """Whether `text` is a play onto an open double on another player's unmarked train
        (closed_cover, with `legal` as there)."""
        state = self.final() if state is None else state
        st = None if state is None else self._state(state)
        act = None if st is None else self._action(st, text)
        return st is not None and act is not None and closed_cover(st, act, legal)

    def release_offered(self, offered: list[str]) -> str | None:
        """The release rule under whose early release the actions `offered` in the final
        state are the rules' (move_charges.release_offered: DBL-12, DBL-9), or None."""
        state = self.final()
        st = None if state is None else self._state(state)
        if st is None:
            return None
        acts = [self._action(st, t) for t in offered]
        if any(a is None for a in acts):
            return None
        return release_offered(st, [a for a in acts if a is not None])

    def marked_play(self, state: Mapping[str, Any] | None, text: str) -> bool:
        """Whether `text` is a play onto another player's marked train (marked_play)."""
        state = self.final() if state is None else state
        st = None if state is None else self._state(state)
        act = None if st is None else self._action(st, text)
        return st is not None and act is not None and marked_play(st, act)

    def marked_mexican(self, state: Mapping[str, Any] | None, text: str) -> bool:
        """Whether `text` is a play on the Mexican Train by a marked player
        (marked_mexican)."""
        state = self.final() if state is None else state
        st = None if state is None else self._state(state)
        act = None if st is None else self._action(st, text)
        return st is not None and act is not None and marked_mexican(st, act)

    def mexican_access(self) -> str:
        """The clause that keeps the Mexican Train open to a player whose marker is up:
        TRAIN-4 (it names the Mexican Train among the trains anyone may use), or MARK-2
        (never marked, always open) where the fixture lists that alone."""
        return pick(("TRAIN-4", "MARK-2"), self.rs, self.fx)

    def opens_mexican(self, state: Mapping[str, Any] | None, text: str) -> bool:
        """Whether `text` is a play that opens the empty Mexican Train (mexican_opening)."""
        state = self.final() if state is None else state
        st = None if state is None else self._state(state)
        act = None if st is None else self._action(st, text)
        return st is not None and act is not None and mexican_opening(st, act)

    def opening_rule(self, missing: Sequence[str], offered: Sequence[str],
                     state: Mapping[str, Any] | None = None) -> str:
        st = self._state((self.final() if state is None else state) or {})  # opening_rule
        acts = [] if st is None else [a for t in missing if (a := self._action(st, t))]
        return "TRAIN-5" if st is None else opening_rule(st, acts, offered)

    def marker_access(self) -> str:
        """The clause that opens a marked train to the other players: TRAIN-4 or MARK-1,
        the one the fixture lists."""
        return pick(("TRAIN-4", "MARK-1"), self.rs, self.fx)

    def covers(self, text: str) -> bool:
        """Whether `text` is a play onto a train that ends in an open double, in the final
        state."""
        final = self.final()
        st = None if final is None else self._state(final)
        act = None if st is None else self._action(st, text)
        return (st is not None and act is not None and act.kind == "play"
                and act.train in st.open_doubles)

    def follows_from_missing(self, extra: Sequence[str], missing: Sequence[str]) -> bool:
        """Whether the draws and passes in `extra` would be legal in the final state if the
        player did not hold the tiles of the `missing` plays: offered because the
        implementation did not see those plays, not a rule of their own broken."""
        if not all(t.split(" ")[0] in ("draw", "pass") for t in extra):
            return False
        final = self.final()
        st = None if final is None else self._state(final)
        if st is None:
            return False
        actions = [self._action(st, t) for t in missing]
        if not actions or any(a is None or a.kind != "play" for a in actions):
            return False
        blind = st.copy()
        for a in actions:
            if a is not None:
                blind.hands[st.seat] &= ~T.BIT[a.tile]
        legal = engine.legal_actions(blind)
        return all(self._action(blind, t) in legal for t in extra)

    def refused_plays(self, state: Mapping[str, Any] | None, texts: Sequence[str]) -> list[str]:
        """The plays among `texts` that the rules refuse in `state` (default: the final)."""
        state = self.final() if state is None else state
        st = None if state is None else self._state(state)
        if st is None:
            return []
        legal = engine.legal_actions(st)
        out = []
        for text in texts:
            act = self._action(st, text) if text.startswith("play ") else None
            if act is not None and act not in legal:
                out.append(text)
        return out

    def refuses(self, state: Mapping[str, Any] | None, text: str,
                offered: Sequence[str] | None = None) -> str:
        """The clause that refuses `text` in `state` (default: the final), as the
        implementation was wrong to offer or accept it (`offered`: its legal actions,
        where it listed `text` among them)."""
        state = self.final() if state is None else state
        st = None if state is None else self._state(state)
        act = None if st is None else self._action(st, text)
        if st is None or act is None:
            return pick(("TRAIN-4", "TURN-1"), self.rs, self.fx)
        legal = engine.legal_actions(st)
        if act in legal:  # the fixture disagrees with the reference
            return pick(("TURN-1",), self.rs, self.fx)
        drawn = drawn_refusal(st, act)  # the tile just drawn can be played: it must be
        if drawn is not None:
            return drawn
        clause = refusals.refusal(st, act).clause
        if (clause == "TRAIN-2" and act.kind == "play" and act.train == st.players
                and not st.trains[act.train]):
            return pick(("TRAIN-5",), self.rs, self.fx)  # what opens the Mexican Train
        if act.kind == "pass" and clause in ("TURN-2", "TURN-5") and dead_charge(st):
            return dead_rule(st)  # the draw is due because a double nobody covers binds
        if clause in ("DBL-6", "DBL-7") and released_early(st, act):
            return "DBL-12"  # released while the boneyard held a tile
        listed = None if offered is None else [
            a for t in offered if (a := self._action(st, t)) is not None]
        if clause in ("DBL-6", "DBL-7") and released_one_short(st, act, listed):
            self.early.append(1)
            return "DBL-9"  # released with one tile of its number still out
        if (clause in ("DBL-6", "DBL-7") and st.rules.release_uncoverable
                and self._hands_cannot_cover(st) and self._released_allows(st, act, True)):
            return "DBL-9"  # released as if its last tiles were not in the boneyard
        if (clause in ("DBL-6", "DBL-7") and self._released_allows(st, act)
                and release_near(st)):
            # a fixture about when a double stops binding: allowed as if it were released,
            # the bug is in the release rule (DBL-9, DBL-12, DBL-13, or DBL-10 that keeps
            # the duty)
            return pick(("DBL-9", "DBL-12", "DBL-13", "DBL-10"), self.rs, self.fx)
        if clause in ("DBL-6", "DBL-7"):  # the duty let go: how near its release
            self.early.append(early_count(st, act, listed))
        return clause

    @staticmethod
    def _hands_cannot_cover(st: engine.State) -> bool:
        """Whether no hand holds a tile for any open double (those left are in the
        boneyard, or on the table)."""
        held = 0
        for hand in st.hands:
            held |= hand
        return all(not held & st.rules.number_mask[st.ends[t]] for t in st.open_doubles)

    def _released_allows(self, st: engine.State, act: engine.Action,
                         any_fixture: bool = False) -> bool:
        """Whether the fixture speaks of releasing doubles (it lists DBL-9, DBL-10 or DBL-12; any
        fixture with `any_fixture`) and `act` would be legal had every open double been
        released."""
        if not (any_fixture or {"DBL-9", "DBL-10", "DBL-12", "DBL-13"} & set(self.fx.clauses)) \
                or not st.open_doubles:
            return False
        released = st.copy()
        released.open_doubles = []
        return act in engine.legal_actions(released)

    def field(self, key: str, step: int | None = None, got: Any = None,
              mine: Mapping[str, Any] | None = None,
              offers: Callable[[int], Sequence[str] | None] | None = None) -> str:
        """The clause that sets `key` by step `step` (1-based; 0 the deal or table; default
        the fixture's last step), given what that step was and the phase it was taken in;
        `got` is the implementation's value and `mine` its state, where known, and
        `offers(s)` asks what it offers on that table to seat s."""
        if step is None:
            step = len(self.fx.steps)
        states = self.states()
        after = states[step] if len(states) > step else None
        over = isinstance(after, dict) and after.get("phase") == "over"
        if (isinstance(mine, dict) and mine.get("phase") == "over" and not over
                and isinstance(after, dict) and key not in ("scores", "outs", "result")
                and OWN_END not in self.own):
            # the implementation ended the round where the reference goes on: whichever
            # field shows it first (the drawn tile cleared, the seat kept), the round's end
            # is what went astray (unless ending it there is its own rule's: divergence)
            key, got = "phase", "over"
        if over and key == "scores":
            prior = states[step - 1] if step >= 1 and len(states) >= step else {}
            if not self._adds_up(prior.get("scores"), got, mine):
                return pick(("MATCH-1",), self.rs, self.fx)  # the totals did not add up
            # the totals took its own (wrong) round scores: those against the rules'
            ref = after.get("result") if isinstance(after, dict) else None
            return self.scoring(ref.get("scores") if isinstance(ref, dict) else None,
                                _less(got, prior.get("scores")))
        if key == "outs":
            return "MATCH-5"  # the rounds won are counted for the tie-break
        if (key == "open_doubles" and isinstance(after, dict) and _reordered(after.get(key), got)
                and catalog().clauses["DBL-7"].applies(self.rs)):
            # the same doubles in another order: the list is the order they were laid in,
            # which DBL-7 covers them by (an engine keeping them by train, not by age)
            return "DBL-7"
        if key == "scores":
            return pick(("MATCH-1",), self.rs, self.fx)  # the match totals add up
        if key in ("phase", "seat", "passes") and (over or got == "over"):
            result = after.get("result") if isinstance(after, dict) else None
            if isinstance(result, dict) and result.get("end") == "domino":
                return "END-1"
            return self._blocking_double(after, mine, offers) or pick(
                ("END-2", "END-3", "END-1"), self.rs, self.fx)
        if step == 0 or is_next_round(self.fx.steps[step - 1]):  # a deal: the start's or
            dealt = states[step] if len(states) > step else {}  # a `next-round` step's
            if key == "seat" and dealt.get("phase") == "engine":
                # who draws first for a missing engine: the draw's winner under SEAT-5
                return pick(("SEAT-5", *SEARCH), self.rs, self.fx)
            if key == "hand_sizes" and self.rs["engine_procedure"] in ("highest-double-held",
                                                                      "designated-opens"):
                return pick(("ENG-7", "ENG-8", *DEAL_FIELD["hand_sizes"]), self.rs, self.fx)
            if key == "hand_sizes" and self.rs["engine_procedure"] != "set-aside":
                return pick(("ENG-3", *DEAL_FIELD["hand_sizes"]), self.rs, self.fx) \
                    if self._one_off(dealt) else pick(DEAL_FIELD["hand_sizes"], self.rs, self.fx)
            return pick(DEAL_FIELD.get(key, FIELD_CLAUSES.get(key, ())), self.rs, self.fx)
        kind = self.fx.steps[step - 1].split(" ")[0]
        before = states[step - 1] if len(states) >= step else None
        phase = before.get("phase") if isinstance(before, dict) else None
        if (key in ("seat", "starter") and phase == "engine" and isinstance(after, dict)
                and after.get("phase") == "start"):
            # the draw found the engine: who starts is the starting-seat rule's answer
            return pick(("SEAT-2", "SEAT-4", "SEAT-5", "SEAT-6", "SEAT-3"), self.rs, self.fx)
        if key == "seat" and phase != "engine":
            # The phases agree (they are compared first): the turn went to the wrong seat.
            return "SEAT-1"
        if key == "passes" and catalog().clauses["END-3"].applies(self.rs):
            # the count is END-3's (passes made in a row on an empty boneyard), in any
            # phase and whatever the fixture lists: a pass it listed (TURN-4, DBL-5) puts
            # a marker up, it does not count (trestle counted passes with tiles left)
            return "END-3"
        candidates = STEP_FIELD.get((kind, key), FIELD_CLAUSES.get(key, ()))
        if kind == "draw" and key == "marked" and _lowered(after, got):
            candidates = STEP_FIELD[("play", "marked")]  # a marker off by a draw: the removal
        if (phase == "follow" and kind in ("draw", "pass") and key not in DRAWN_TILE
                and key != "first_turns"):
            # DBL-5 sends the player to an ordinary turn's draw or pass; which tile the
            # draw takes stays TURN-2's (sixes' draw from the wrong end), and whether the
            # turn was the player's first FIRST-6's (gondola kept a first turn passed in
            # a follow-up, charged DBL-5)
            candidates = ("DBL-5", *candidates)
        if phase == "engine" and key != "first_turns":  # who has a first turn: FIRST-6's
            candidates = (*SEARCH, *candidates)
        if kind == "play" and key in ("phase", "seat", "open_doubles", "turn_doubles") \
                and self._double(step):
            candidates = ("DBL-1", "DBL-11", *candidates)  # a double opens, or is one tile
        elif kind == "play" and self._first(before) and mover_differs(key, before, after, got):
            candidates = ("FIRST-7", "FIRST-1", *candidates)  # a first turn's play
        return pick(candidates, self.rs, self.fx)

    def _blocking_double(self, after: Any, mine: Mapping[str, Any] | None,
                         offers: Callable[[int], Sequence[str] | None] | None) -> str | None:
        """Where a round was found blocked (END-2) or not, differently, and the verdict
        turns on the open doubles of the reference's table `after`: the rule that makes
        them bind or not there (END-2 counts the duties as they stand). None where the
        doubles do not decide it, and for a round the implementation goes on with unless
        it offers some seat there (`offers`, on its table `mine`) a play those doubles
        refuse: otherwise only its test for a blocked round is wrong."""
        if not isinstance(after, dict) or self.rules().passes_end_round:
            return None
        table = {k: v for k, v in after.items() if k != "result"}
        st = self._state({**table, "phase": "start"})
        if st is None or not st.open_doubles or st.boneyard:
            return None
        rules = st.rules
        if engine.nobody_can_ever_play(st):  # blocked: would it be, were they released?
            if mine is None or offers is None or not any(
                    self.refused_plays({**mine, "seat": s}, offers(s) or ())
                    for s in range(st.players)):
                return None
            free = st.copy()
            free.open_doubles = []
            if engine.nobody_can_ever_play(free):
                return None
            waiting = [t for t in st.open_doubles if not engine.live(st, t)]
            return dead_rule(st) if waiting else pick(("DBL-6",), self.rs, self.fx)
        # not blocked: would it be, were the doubles binding at once (FIRST-5) or never
        # released (DBL-9, DBL-12, DBL-13)?
        if st.first_pending and rules.chain_first_turn:
            bound = st.copy()
            bound.first_pending = 0
            if engine.nobody_can_ever_play(bound):
                return "FIRST-5"
        if rules.release_uncoverable or rules.release_when_empty or rules.release_after_turn:
            kept = st.copy()
            kept.rules = dataclasses.replace(rules, release_uncoverable=False,
                                             release_when_empty=False,
                                             release_after_turn=False)
            if engine.nobody_can_ever_play(kept):
                return pick(("DBL-9", "DBL-12", "DBL-13"), self.rs, self.fx)
        return None

    @staticmethod
    def _adds_up(prior: Any, got: Any, mine: Mapping[str, Any] | None) -> bool:
        """Whether totals `got` are the totals before plus the implementation's own round
        scores (MATCH-1 kept, whatever the round scores are); without its round scores,
        whether they moved at all."""
        result = mine.get("result") if mine is not None else None
        own = result.get("scores") if isinstance(result, dict) else None
        if not (isinstance(prior, list) and isinstance(got, list)):
            return True
        if isinstance(own, list) and len(own) == len(prior) == len(got):
            return (all(isinstance(v, int) for v in [*got, *prior, *own])
                    and not carried_totals(prior, own, got))  # the reference's MATCH-1
        return got != prior

    def answer(self, asked: str, problems: Sequence[Problem],
               before: Mapping[str, Any] | None, step: int | None = None) -> str | None:
        """The clause an impossible answer to `asked` breaks (deal, apply, ...); `before`
        is the implementation's last state before it (None for a deal), `step` the step
        it answered (0 the deal; as in `field`)."""
        for p in problems:
            if p.kind == "state":  # the codec cites the clause a table must keep
                cited = CITED.search(p.message)
                if cited and cited[1] in catalog().clauses:
                    return cited[1]
                key = p.where.removeprefix("state.")
                if step is not None and key in FIELD_CLAUSES:
                    # a field out of its range (a seat past the last): what sets it
                    return self.field(key, step)
            elif p.kind == "invariant" and p.where in INVARIANT_CLAUSES:
                return self._invariant(asked, p, before, step)
        return None

    def _invariant(self, asked: str, p: Problem, before: Mapping[str, Any] | None,
                   step: int | None = None) -> str:
        if ("no double was laid this turn" in p.message and step and step <= len(self.fx.steps)
                and self.fx.steps[step - 1].startswith("play ") and not self._double(step)):
            return pick(("TURN-6",), self.rs, self.fx)  # a tile not a double ends the turn
        kept = TURN_DOUBLES_KEPT.search(p.message) if p.where == "INV-OPEN-DOUBLES" else None
        if kept is not None:
            # a turn's doubles kept after the turn is over: what ended the turn (TURN-6),
            # and where the round is over with it, the end of the round: a last tile
            # laid (END-1) or a blocked end after a pass (END-2, END-3). Not DBL-1, which
            # asks for the tile after a double and was answered
            laid = bool(step and step <= len(self.fx.steps)
                        and self.fx.steps[step - 1].startswith("play "))
            ends = ("END-1",) if laid or step is None else ("END-3", "END-2")
            return pick((*ends, "TURN-6") if kept[1] == "over" else ("TURN-6",),
                        self.rs, self.fx)
        lists = OPEN_LISTS.search(p.message) if p.where == "INV-OPEN-DOUBLES" else None
        if lists is not None:
            listed, ending = ({x.strip() for x in g.split(",") if x.strip()}
                              for g in lists.groups())
            if listed - ending:  # a covered double is closed; under DBL-11 none opens
                return pick(("DBL-11", "TRAIN-3"), self.rs, self.fx)
            if ending - listed and self._last_double(before, step):
                # a last tile that is a double ends the round (END-1) and needs no cover,
                # but it still ends its train: the engine's reading of END-1, not DBL-1's
                return pick(("END-1",), self.rs, self.fx)
            if ending - listed:  # an uncovered double no longer open
                was = _open_before(before)
                return pick(("DBL-6",) if ending - listed <= was else ("DBL-1", "DBL-11"),
                            self.rs, self.fx)  # open until covered; or just laid
        sizes = HAND_SIZES.search(p.message) if p.where == "INV-HAND-SIZES" else None
        if sizes is not None and self.rs["engine_procedure"] == "holder-lays-and-draws":
            got, want = ([int(x) for x in g.split(",") if x.strip()] for g in sizes.groups())
            short = [w - g for g, w in zip(got, want, strict=True) if g != w]
            if len(got) == len(want) and sorted(short) in ([1], [-1, 1]):
                # the holder's replacement tile not drawn, or drawn by another seat
                return pick(("ENG-5",), self.rs, self.fx)
        if p.where == "INV-HAND-SIZES" and "the search in turn" in p.message:
            # hands no search for a double deals (reference/invariants.hand_sizes says so
            # only where the deal searches): the search's rule, not the table's
            return pick(("ENG-7", "ENG-8"), self.rs, self.fx)
        if p.where in TILE_COUNTS:
            if asked == "apply" and before is not None and before.get("phase") == "engine":
                return pick(SEARCH, self.rs, self.fx)  # the tiles drawn looking for the engine
            if asked == "deal":
                dealt = self.states()[0] if self.states() else {}
                n = dealt.get("engine")
                if isinstance(n, int) and re.search(rf"(?<![0-9-]){n}-{n}(?![0-9])", p.message):
                    return pick(("ENG-2", "ENG-3", "ENG-7", "ENG-8"), self.rs,
                                self.fx)  # where the engine goes
                if self._searched(dealt):  # tiles lost while the deal looked for a double
                    return pick(("ENG-7", "ENG-8", "DEAL-1"), self.rs, self.fx)
                return pick(("DEAL-1",), self.rs, self.fx)
        if p.where == "INV-FRESH-ROUND" and re.match(r"markers? up", p.message):
            return pick(("MARK-1",), self.rs, self.fx)  # only a pass puts a marker up
        if p.where == "INV-TURN" and asked == "deal" and "drawn tile" in p.message:
            return pick(("DEAL-1",), self.rs, self.fx)  # no turn yet: the deal's state
        if (p.where == "INV-TURN" and "drawn tile" in p.message and step
                and step <= len(self.fx.steps) and self.fx.steps[step - 1].startswith("play ")):
            # a drawn tile kept once laid: TURN-3 frees the hand once it is down
            return pick(("TURN-3",), self.rs, self.fx)
        mover = before.get("seat") if isinstance(before, Mapping) else None
        if p.where == "INV-ROUND-SCORE" and _values_only(
                p.message, lowest_free=catalog().clauses["SCORE-7"].applies(self.rs),
                went_out=mover if isinstance(mover, int) else None,
                own_hands=catalog().clauses["SCORE-5"].applies(self.rs),
                unscored=self._unscored(step)):
            # the right seats score nothing and the others something else: the tiles'
            # values (SCORE-1..4), not the scoring rule that says who scores
            return pick(TILE_VALUES, self.rs, self.fx)
        if p.where == "INV-ROUND-SCORE" and "a blocked round" in p.message:
            # a blocked round's scores are SCORE-7's where it applies
            return pick(("SCORE-7", *INVARIANT_CLAUSES[p.where]), self.rs, self.fx)
        return pick(INVARIANT_CLAUSES[p.where], self.rs, self.fx)

    def _unscored(self, step: int | None = None) -> tuple[int, ...]:
        """The values of the hands the reference's round, over after step `step` (default:
        the last), scores nothing; none where it is not over there."""
        states = self.states()
        k = len(states) - 1 if step is None else step
        state = states[k] if 0 <= k < len(states) else None
        result = state.get("result") if state is not None else None
        st = self._state(state) if isinstance(result, dict) and state is not None else None
        scores = result.get("scores") if isinstance(result, dict) else None
        if st is None or not isinstance(scores, list) or len(scores) != st.players:
            return ()
        return tuple(engine.hand_value(st, s) for s in range(st.players) if scores[s] == 0)

    def _searched(self, dealt: Mapping[str, Any]) -> bool:
        """Whether the reference's deal drew tiles looking for a double (ENG-7, ENG-8): a
        hand larger than the table's row for the number of players."""
        rules = self.rules()
        hands = dealt.get("hands")
        if not rules.engine_by_deal or not isinstance(hands, list):
            return False
        size = rules.hand_table.get(len(hands))
        return size is not None and any(isinstance(h, list) and len(h) > size for h in hands)

    @staticmethod
    def _first(before: Any) -> bool:
        """True when the player to move in `before` had not had their first turn."""
        return (isinstance(before, dict) and before.get("seat") in before.get("first_turns", ())
                and before.get("phase") in ("start", "chain"))

    def _last_double(self, before: Mapping[str, Any] | None, step: int | None) -> bool:
        """Whether step `step` lays a double as the mover's last tile (`before`: the state
        it was played on)."""
        if not before or not step or step > len(self.fx.steps) or not self._double(step):
            return False
        hands, seat = before.get("hands"), before.get("seat")
        return (isinstance(hands, list) and isinstance(seat, int) and 0 <= seat < len(hands)
                and len(hands[seat]) == 1)

    def _double(self, step: int) -> bool:
        words = self.fx.steps[step - 1].split(" ")
        a, _, b = words[1].partition("-") if len(words) > 1 else ("", "", "")
        return bool(a) and a == b

    def _one_off(self, dealt: Mapping[str, Any]) -> bool:
        """The reference dealt one hand a tile short: the holder placed the engine."""
        sizes = [len(h) for h in dealt.get("hands", [])]
        return bool(sizes) and max(sizes) - min(sizes) == 1

    def result(self, want: Any, got: Any) -> str:
        if isinstance(want, dict) and isinstance(got, dict) and all(
                want.get(k) == got.get(k) for k in ("end", "winner") if k in want):
            return self.scoring(want.get("scores"), got.get("scores"))
        return pick(ROUND_END, self.rs, self.fx)

    def scoring(self, want: Any = None, got: Any = None, blocked: bool | None = None) -> str:
        """The scoring clause in force behind round scores `got` where the rules give
        `want` (the reference's round scores, where known; `blocked`: scored as a blocked
        round, by default as the reference's final state ended). Scores off only by some
        tiles' values (values_only) are the clause that values tiles (SCORE-1 at face
        value, else the blank rule's), wherever the blanks are; other wrong scores are who
        scores (SCORE-5..7), blanks in hand or not. Without both lists, the blank rule's
        own where a hand left holds a blank (tandem's [0-0] counted 25 under blank-25 was
        charged SCORE-2 so, and a miscounted face value beside a blank would have been)."""
        final = self.final() or {}
        # a fixture's blocked_scores come as a tuple: scores all the same (kettle's [1-1]
        # counted once, a tile's value, was charged to who scores, SCORE-5, there alone)
        want, got = (list(v) if isinstance(v, tuple) else v for v in (want, got))
        if blocked is None:
            blocked = (final.get("result") or {}).get("end") == "blocked"
        if _ints(want) and _ints(got) and len(want) == len(got) and want != got:
            clauses = catalog().clauses
            winner = (final.get("result") or {}).get("winner")
            if values_only(got, want, blocked, clauses["SCORE-7"].applies(self.rs),
                           winner if isinstance(winner, int) and not blocked else None,
                           clauses["SCORE-5"].applies(self.rs), self._unscored()):
                return pick(TILE_VALUES, self.rs, self.fx)
            return pick((*(("SCORE-7",) if blocked else ()), "SCORE-5", "SCORE-6"),
                        self.rs, self.fx)
        blanks = any("-0" in t or t.startswith("0-") for h in final.get("hands", []) for t in h)
        if blanks and self.rs["blank_values"] != "face":
            return pick(("SCORE-2", "SCORE-3", "SCORE-4"), self.rs, self.fx)
        # SCORE-7: a blocked round's scores under the blocked winner's rule are its own
        return pick((*(("SCORE-7",) if blocked else ()), "SCORE-5", "SCORE-6", "SCORE-1"),
                    self.rs, self.fx)

    def winners(self, want: Sequence[int] = (), got: Sequence[int] = (),
                over: bool = False) -> str:
        """The match rule behind a wrong list of winners: where one side names none, the
        match's length (MATCH-7 where a single round is the game, else MATCH-1), but for
        an implementation that names none and yet holds the match over (`over`: it
        refuses the round after, match_over.py), the rule that says who wins; where
        none named is on the winning total (the totals of the reference's final state),
        the scoring direction (MATCH-2 lowest, MATCH-3 highest); where either side names a
        tie, the tie rule in force (MATCH-4 shared, MATCH-5 most outs, MATCH-6 lowest
        seat), listed or not."""
        if want and not got and over:  # over on both sides: nobody found on the total
            if len(want) > 1:  # a tie the rules share or break: the tie rule's
                return self._tie_rule()
            return pick(("MATCH-2", "MATCH-3"), self.rs, self.fx)
        if not want or not got:  # the match over on one side only
            return pick(("MATCH-7", "MATCH-1"), self.rs, self.fx)
        totals = (self.final() or {}).get("scores")
        if _reversed(totals, want, got):
            # the other end of the totals named, where no tie rule could have named them:
            # which total wins is wrong (lowest or highest), not how a tie on it is broken
            return pick(("MATCH-2", "MATCH-3"), self.rs, self.fx)
        if len(want) == 1 and len(got) == 1 and _distinct(totals):
            # one winner each, and no two totals equal: no tie for a tie rule to break
            # (not even one away from the lead, which a bug in a tie rule may break), so
            # which total wins is wrong (tenwheeler's totals compared as text)
            return pick(("MATCH-2", "MATCH-3"), self.rs, self.fx)
        if len(want) > 1 or len(got) > 1:
            return self._tie_rule()
        return pick(MATCH, self.rs, self.fx)

    def _tie_rule(self) -> str:
        """The tie rule in force: MATCH-5 most outs, MATCH-6 lowest seat, MATCH-4 shared."""
        clauses = catalog().clauses
        return next((c for c in ("MATCH-5", "MATCH-6", "MATCH-4") if clauses[c].applies(self.rs)),
                    pick(MATCH, self.rs, self.fx))


def _open_before(state: Mapping[str, Any] | None) -> set[str]:
    """The trains with an open double in a state, as the invariant's message names them
    (seats, and `mexican`)."""
    if state is None:
        return set()
    return {str(t) for t in state.get("open_doubles") or []
            if (isinstance(t, int) and not isinstance(t, bool)) or t == "mexican"}


def _lowered(after: Any, got: Any) -> bool:
    """Whether the implementation's markers `got` lack one the reference's state `after`
    keeps up: a marker taken off, which only a removal rule (MARK-3 to MARK-5) does."""
    if not isinstance(after, dict) or not isinstance(got, list):
        return False
    trains = after.get("trains")
    if not isinstance(trains, list):
        return False
    up = {i for i, t in enumerate(trains) if isinstance(t, dict) and t.get("marker")}
    return bool(up - {x for x in got if isinstance(x, int)})
