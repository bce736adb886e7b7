"""Playing random games: the reference plays, the implementation is asked the same
questions at every step, and every disagreement is recorded before play goes on.

At each step: the legal actions, the refusal of a couple of illegal actions, the state
after the action the reference picked (after the step that ends a round: its result and
the totals), and, after a last round, the match winners (again under made-up tied totals).
Every round starts with its deal. Games start at a random round (with made-up running
totals) and sometimes go on into the next one, so later rounds, the carried totals and
the match's end are reached without playing whole matches.

Where play goes on from (`follow`):

- "ref": the reference's state, whatever the implementation answered: every question is
  asked about a state the rules reach.
- "impl": the implementation's own state, as a real game would, each step's action
  replayed on the reference from that same state, so that mistakes compound. A returned
  state that breaks the schemas or the invariants cannot be played on: play goes back to
  the reference's. Where the implementation's state differs only in how it is written
  (the order of a hand), its own JSON goes forward, and a probe then carries the steps
  since the last state written out as a table.

An answer identical to the reference's is not looked at any further; only a different one
is checked against the schemas and the invariants and compared field by field.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from mtrain.conformance.adapter import JSON, Implementation, Refused, RefusedSetup
from mtrain.conformance.answers import Problem, actions_problems, identical
from mtrain.conformance.fuzz import own_rules, setups
from mtrain.conformance.fuzz.illegal import (
    FOREIGN_EVERY,
    PHANTOM_AT,
    illegal_sample,
    phantom_play,
)
from mtrain.conformance.fuzz.judge import (
    Disagreement,
    Probe,
    broken_state,
    compare_apply,
    compare_deal,
    compare_legal,
    compare_refusal,
    compare_winners,
    contradiction,
    failed_move,
    read_own,
)
from mtrain.conformance.fuzz.possible import table_problems
from mtrain.conformance.fuzz.rejudge import Judge
from mtrain.conformance.fuzz.rulesets import Chooser, Context, context
from mtrain.conformance.fuzz.tables import table_of
from mtrain.conformance.fuzz.totals import prior_totals, tied_totals
from mtrain.conformance.process import (
    AS_EXPECTED,
    HarnessError,
    NotApplicable,
    ProcessImplementation,
)
from mtrain.conformance.protocol import encode_value
from mtrain.conformance.runner import deal_with_draw
from mtrain.reference import codec
from mtrain.reference.deal import deal as reference_deal
from mtrain.reference.deal import deal_pool, match_over, match_winners, random_draw
from mtrain.reference.engine import (
    OVER,
    Action,
    State,
    engine_number,
    legal_actions,
    perform,
)
from mtrain.reference.refusals import refusals
from mtrain.spec import tiles as T
from mtrain.spec.notation import action_text

T_ = TypeVar("T_")

TIE_PROBES = 2
"""Made-up tied totals tried on the last step of a match."""
MAX_ROUND_STEPS = 3000
"""A round the implementation keeps going longer than this is abandoned (with a warning)."""
UNSUPPORTED_GAMES = 3
"""Games of a rule set in which every question was answered `unsupported` after which its
later games are not played (not applicable)."""
REASON_LENGTH = 120
"""Of an `unsupported` reason, what is counted (the rest may name a tile or a seat)."""
MAX_FAILED = 20
"""Failed requests (process.FAILURES) after which a run stops playing: an engine that
fails at every restart (a line that never ends, a crash at its second request) would
otherwise be restarted for every question of every game, for hours."""


@dataclass(frozen=True)
class GamePlan:
    index: int
    variant: str
    players: int
    first_round: int
    rounds: int
    seed: int
    asks_setups: bool = False
    """The run's first game of its rule set: the setups its table lacks are asked after it
    (setups.py), once a run whichever worker plays it (asked per worker, --jobs 2 counted
    each finding twice)."""


def game_seed(seed: int, index: int) -> int:
    return seed * 1_000_003 + index


def plan_game(index: int, seed: int, chooser: Chooser, players: int | None = None,
              rounds: Mapping[str, int] | None = None) -> GamePlan:
    """Game `index` of a run: its rule set, table size and rounds, all from the seed.

    A third of the games start at round 1, a quarter at the last round (where the match
    winners are compared), the rest in between; a quarter go on into the next round.
    Under a match length of one's own, whose last round nobody knows (winners are judged
    after every round), half start at round 1 and the rest anywhere: fewer start at a
    round its match does not have (signalbox's eight of sixteen). `rounds`: the last round
    the implementation's own match has, by rule set (setups.match_rounds): no game starts
    after it (signalbox: 18 of 60 games did, and ended at their deal).
    """
    s = game_seed(seed, index)
    rng = random.Random(s)
    variant = chooser(index, random.Random(s ^ 0x5EED))
    ctx = context(variant)
    n = players if players is not None else rng.choice(ctx.rs.player_counts)
    last = setups.last_round(ctx, rounds or {})
    x = rng.random()
    if own_rules.MATCH_LENGTH in ctx.unknown:
        first = 1 if x < 0.5 else rng.randint(1, last)
    else:
        first = 1 if x < 0.33 else last if x < 0.58 else rng.randint(1, last)
    played = 2 if first < last and rng.random() < 0.25 else 1
    return GamePlan(index, variant, n, first, played, s)


@dataclass
class Occurrence:
    """A disagreement seen in a game, with the probe that asks it again."""

    probe: Probe
    disagreement: Disagreement
    game: int
    round: int
    step: int  # 0: the deal
    players: int


@dataclass
class GameResult:
    index: int
    variant: str = ""
    steps: int = 0
    rounds: int = 0
    found: dict[str, tuple[int, Occurrence]] = field(default_factory=dict)
    """signature -> (how often, the occurrence with the smallest probe)"""
    warnings: list[str] = field(default_factory=list)
    skipped: bool = False
    not_applicable: str | None = None  # every question was answered `unsupported`
    answered: int = 0  # questions the implementation answered (a failure is an answer)
    unsupported: dict[str, int] = field(default_factory=dict)  # reason -> questions
    own: dict[str, int] = field(default_factory=dict)
    """`other` options -> answers of the reference they decide, not judged (own_rules)"""
    own_differ: dict[str, int] = field(default_factory=dict)
    """`other` options, with the values played in their place -> the answers not judged
    that differ from those values' (a rule of one's own there, or bugs)"""
    cut: str | None = None  # why the game ended before its round did
    stopped: bool = False  # the time limit ended the game
    broken: bool = False  # the implementation failed too often (Session.broken)
    fatal: str | None = None  # the implementation could not be started
    setups: dict[str, str] = field(default_factory=dict)
    """`variant: N players` -> what the implementation did with that setup its table lacks
    (setups.ask; asked after the run's first game of each rule set: GamePlan.asks_setups)"""

    def not_judged(self, options: Sequence[str]) -> None:
        key = " and ".join(options)  # (a list of these is printed with commas)
        self.own[key] = self.own.get(key, 0) + 1

    def differs(self, ctx: Context, options: Sequence[str]) -> None:
        """An answer not judged that differs from the one of the values played in place
        of `options`."""
        key = ", ".join(f"{o}={ctx.rules.ruleset[o]}" for o in options)
        self.own_differ[key] = self.own_differ.get(key, 0) + 1

    def record(self, found: Sequence[Disagreement], probe: Probe, round_no: int, step: int,
               players: int) -> None:
        for d in found:
            seen = self.found.get(d.signature)
            if seen is None or probe.weight < seen[1].probe.weight:
                best = Occurrence(probe, d, self.index, round_no, step, players)
            else:
                best = seen[1]
            self.found[d.signature] = ((seen[0] if seen else 0) + 1, best)


# --- asking the implementation ----------------------------------------------------------


class Asker:
    """The questions of one step, put to the implementation. A program behind the protocol
    gets the step's state encoded once for all its questions, and the rule set encoded
    once for the run."""

    def __init__(self, impl: Implementation) -> None:
        self.impl = impl
        self.wire = impl if isinstance(impl, ProcessImplementation) else None
        self.state: JSON = {}
        self._encoded: bytes | None = None
        self._next: tuple[JSON, bytes] | None = None

    def begin(self, state: JSON) -> None:
        known = self._next
        self.state, self._encoded = state, known[1] if known and known[0] is state else None
        self._next = None

    def encoded(self, state: JSON) -> bytes:
        """`state` as JSON text, kept for the step that asks about it next."""
        self._next = (state, codec_bytes(state))
        return self._next[1]

    def _state(self) -> bytes:
        if self._encoded is None:
            self._encoded = codec_bytes(self.state)
        return self._encoded

    def ahead(self, ctx: Context, actions: Sequence[JSON]) -> None:
        """Write the step's questions at once (the legal actions, then `actions` applied),
        to a program behind the protocol: one round trip for the step, not one each."""
        if self.wire is not None:
            common = {"ruleset": ctx.rj_bytes, "state": self._state()}
            self.wire.send_ahead([("legal", common)] + [
                ("apply", {**common, "action": _action_bytes(a)}) for a in actions])

    def deal(self, ctx: Context, players: int, round_no: int, order: list[str],
             draw: list[list[str]] | None = None) -> JSON:
        return deal_with_draw(self.impl, ctx.rj, players, round_no, order, draw)

    def legal(self, ctx: Context) -> Any:
        if self.wire is None:
            return self.impl.legal(ctx.rj, self.state)
        return self.wire.call_encoded("legal", ruleset=ctx.rj_bytes, state=self._state())[
            "actions"]

    def apply(self, ctx: Context, action: JSON, want: JSON | None = None) -> Any:
        """The state after `action`; `want`, the reference's state, returned as it is when
        the answer is that state written exactly as the harness writes it."""
        if self.wire is None:
            return self.impl.apply(ctx.rj, self.state, action)
        expect = None if want is None else b'"state":' + self.encoded(want)
        answer = self.wire.call_encoded("apply", expect, ruleset=ctx.rj_bytes,
                                        state=self._state(), action=_action_bytes(action))
        if answer is AS_EXPECTED:
            return want
        if "refused" in answer:
            refused = answer["refused"]
            raise Refused(refused["reason"], refused.get("clause"))
        return answer["state"]

    def winners(self, ctx: Context, state: JSON) -> Any:
        return self.impl.winners(ctx.rj, state)


def codec_bytes(value: Any) -> bytes:
    return encode_value(value)


_ACTIONS: dict[tuple[Any, ...], bytes] = {}


def _action_bytes(action: JSON) -> bytes:
    """An action as JSON: there are few, each encoded once."""
    key = (action["type"], action.get("tile"), action.get("train"))
    found = _ACTIONS.get(key)
    if found is None:
        found = _ACTIONS[key] = codec_bytes(action)
    return found


def _keys(st: State, legal: Sequence[Action]) -> set[tuple[Any, ...]]:
    n, names = st.players, T.NAMES
    return {("play", names[a.tile], a.train if a.train < n else "mexican")
            if a.kind == "play" else (a.kind,) for a in legal}


def same_actions(want: set[tuple[Any, ...]], got: Any) -> bool:
    """Whether `got` lists exactly the actions `want` holds, in their canonical form."""
    if type(got) is not list or len(got) != len(want):
        return False
    keys: set[tuple[Any, ...]] = set()
    for a in got:
        if type(a) is not dict:
            return False
        if len(a) == 3 and a.get("type") == "play":
            train = a.get("train")
            if type(a.get("tile")) is not str or not (type(train) is int or train == "mexican"):
                return False
            keys.add(("play", a["tile"], train))
        elif len(a) == 1 and type(a.get("type")) is str:
            keys.add((a["type"],))
        else:
            return False
    return keys == want


# --- a game ----------------------------------------------------------------------------


class Session:
    """One implementation, asked game after game (in one process of the run)."""

    def __init__(self, impl: Implementation, follow: str = "ref",
                 deadline: float | None = None, max_failed: int = MAX_FAILED) -> None:
        self.impl = impl
        self.asker = Asker(impl)
        self.judge = Judge(impl)
        self.follow = follow
        self.deadline = deadline
        self.max_failed = max_failed
        # rule set -> (why, games in which every question was answered `unsupported`)
        self.unsupported: dict[str, tuple[str, int]] = {}
        self.under_way: GameResult | None = None
        """The game being played, so far: what an interrupt found it had done."""

    def expired(self) -> bool:
        return self.deadline is not None and time.monotonic() > self.deadline

    def broken(self) -> bool:
        """The implementation has failed MAX_FAILED requests (crashes, timeouts, broken
        answers: process.FAILURES, which it logs): play stops, since every failure costs
        a restart and more of them would only repeat the findings they make."""
        return len(getattr(self.impl, "failures", ())) >= self.max_failed


UNSUPPORTED: Any = object()
"""What a question answered `unsupported` gives: that one question is not applicable."""
GIVE_UP = 30
"""Questions of a game all answered `unsupported` after which the game is not played on
(not applicable), and games of one rule set so answered after which it is not played."""


def _asked(res: GameResult, call: Callable[[], T_]) -> tuple[Any, BaseException | None]:
    """(the answer, None), (UNSUPPORTED, None) for an `unsupported` answer (counted by its
    reason), or (None, the failure)."""
    try:
        answer = call()
    except NotApplicable as e:
        reason = e.message[:REASON_LENGTH]
        res.unsupported[reason] = res.unsupported.get(reason, 0) + 1
        return UNSUPPORTED, None
    except Exception as e:
        res.answered += 1
        return None, e
    res.answered += 1
    return answer, None


def _bound(call: Callable[..., T_], *args: Any) -> Callable[[], T_]:
    return lambda: call(*args)


def play_game(session: Session, plan: GamePlan) -> GameResult:
    """Play one game with the reference, asking the implementation at every step."""
    res = GameResult(plan.index, plan.variant)
    if session.broken():
        res.broken = True
        return res
    if session.unsupported.get(plan.variant, ("", 0))[1] >= UNSUPPORTED_GAMES:
        res.not_applicable = session.unsupported[plan.variant][0]
        return res
    session.under_way = res
    _play(session, plan, res)
    session.under_way = None
    if res.answered == 0 and res.unsupported:  # nothing asked was supported
        reason = max(res.unsupported, key=lambda r: res.unsupported[r])
        res.not_applicable = reason
        seen = session.unsupported.get(plan.variant, (reason, 0))[1]
        session.unsupported[plan.variant] = (reason, seen + 1)
    elif plan.asks_setups and not (res.stopped or res.broken):
        _setups(session, plan, res)  # (after the game: it decides the above)
    return res


def _setups(session: Session, plan: GamePlan, res: GameResult) -> None:
    """The setups the rule set's table lacks, each asked once (setups.py): what the
    implementation did, and a finding where it did not refuse by DEAL-7."""
    for n in setups.unlisted_counts(context(plan.variant).rs):
        probe = setups.probe(plan.variant, n)
        key = f"{plan.variant}: {n} {'player' if n == 1 else 'players'}"
        try:
            what, found = setups.ask(session.impl, probe)
        except NotApplicable as e:
            reason = e.message[:REASON_LENGTH]
            res.unsupported[reason] = res.unsupported.get(reason, 0) + 1
            res.setups[key] = "unsupported"
            continue
        res.answered += 1
        res.setups[key] = what
        res.record(found, probe, 1, 0, n)


@dataclass
class Position:
    """Where a game stands: the reference's view `st` of the state `cur` being asked about;
    following the implementation, also the table or deal its probes start from and the
    steps played since (needed only while its own JSON differs from the canonical one)."""

    variant: str
    st: State
    cur: JSON
    follow_impl: bool = False
    table: dict[str, Any] | None = None
    deal: dict[str, Any] | None = None
    history: list[str] = field(default_factory=list)

    def probe(self, kind: str, action: str | None = None, clause: str | None = None) -> Probe:
        if not self.follow_impl or identical(self.cur, codec.state_to_json(self.st)):
            return Probe(kind, self.variant, table_of(self.cur), action=action, clause=clause)
        return Probe(kind, self.variant, self.table, self.deal, tuple(self.history), action,
                     clause)

    def go_on(self, ctx: Context, got: JSON) -> bool:
        """Go on from a state the context's own rules gave (the reference's stand-in
        cannot say what it should be): False when the reference cannot read it."""
        try:
            self.restart(*_canonical(ctx, got))
        except (codec.StateError, ValueError, KeyError, TypeError):
            return False
        return True

    def restart(self, st: State, cur: JSON) -> None:
        """Go on from `cur`, written out as the table later probes start from."""
        self.st, self.cur = st, cur
        self.table, self.deal, self.history = table_of(cur), None, []


def _play(session: Session, plan: GamePlan, res: GameResult) -> None:
    ctx = context(plan.variant)
    rules, n = ctx.rules, plan.players
    rng = random.Random(plan.seed + 1)
    scores, outs = prior_totals(rules, n, plan.first_round - 1, rng,
                                going_out=own_rules.MATCH_LENGTH not in ctx.unknown)
    for round_no in range(plan.first_round, plan.first_round + plan.rounds):
        totals = _round(session, ctx, plan, res, rng, round_no, scores, outs)
        if totals is None:
            return
        scores, outs = totals


def _no_such_round(ctx: Context, round_no: int, res: GameResult) -> bool:
    """Whether a refused setup of round `round_no` is a match length of its own deciding
    which rounds exist, as under conform: its deal, or (where the deal cannot tell, as a
    match ended by the totals carried into it) the first question about its table."""
    if round_no == 1 or own_rules.MATCH_LENGTH not in ctx.unknown:
        return False
    res.not_judged([own_rules.MATCH_LENGTH])
    return True


def _round(session: Session, ctx: Context, plan: GamePlan, res: GameResult,
           rng: random.Random, round_no: int, scores: list[int], outs: list[int]
           ) -> tuple[list[int], list[int]] | None:
    """One round from its deal: the totals after it, or None when the game must end."""
    rules, n, ask = ctx.rules, plan.players, session.asker
    follow_impl = session.follow == "impl"
    pool = deal_pool(rules, round_no)
    rng.shuffle(pool)
    order = [T.NAMES[t] for t in pool]
    # the match's one draw for the start (SEAT-5), the same for every round of the game
    drawn = (random_draw(rules, n, random.Random(f"{plan.seed}:draw"))
             if rules.highest_draw_starts else None)
    draw = None if drawn is None else [[T.NAMES[t] for t in tiles] for tiles in drawn]
    st, own = own_rules.dealt(ctx, lambda r: reference_deal(
        r, n, round_no, order=pool, scores=scores, outs=outs, draw=drawn))
    dealt = codec.state_to_json(st)
    deal_spec = {"players": n, "engine": engine_number(rules, round_no), "order": order,
                 "scores": list(scores), "outs": list(outs),
                 **({} if draw is None else {"draw": draw})}
    got, error = _asked(res, lambda: {**ask.deal(ctx, n, round_no, order, draw),
                                      "scores": list(scores), "outs": list(outs)})
    found: list[Disagreement] = []
    problems: list[Problem] = []
    if isinstance(error, RefusedSetup) and _no_such_round(ctx, round_no, res):
        res.cut = "its own rules (match_length) have no such round: the deal was refused"
        return None
    if got is UNSUPPORTED:
        got = None
    elif error is not None or not identical(got, dealt):
        problems = [] if error is not None else own_rules.problems(ctx, got, dealt=True)
        # an engine procedure of one's own may leave the seat and starter the rules'
        seat = bool(own) and own_rules.seat_alone(ctx, deal_spec, dealt, own)
        found = compare_deal(ctx, dealt, got, error, problems, judged=seat or not own,
                             seat_only=seat)
        res.record(found, Probe("deal", plan.variant, deal=deal_spec), round_no, 0, n)
        if own and not found and not seat:  # (a seat judged alone is judged)
            res.not_judged(own)
    if _fatal(error, res):
        return None
    pos = Position(plan.variant, st, dealt, follow_impl, deal=deal_spec)
    if own and got is not None and error is None and not problems and not identical(
            got, dealt):  # a deal of its own rules: play goes on from it
        if not pos.go_on(ctx, got):
            res.cut = "its own rules dealt a table the reference cannot play on"
            return None
    elif not follow_impl or got is None:
        pass
    elif error is not None or (found and problems):
        pos.restart(st, dealt)  # nothing to play on: the rules' deal
    elif found:  # another deal than the rules': go on from it, if a round can be there
        pos.restart(*_reachable(ctx, got, st, dealt))
    else:
        pos.cur = got  # the same deal, perhaps written another way: its own JSON goes on
    step = 0
    while pos.st.phase != OVER:
        step += 1
        res.steps += 1
        if step > MAX_ROUND_STEPS:
            res.warnings.append(f"game {plan.index} round {round_no}: the round did not end "
                                f"within {MAX_ROUND_STEPS} steps; abandoned")
            return None
        if session.broken():
            res.broken = True
            return None
        if session.expired():
            res.stopped = True
            return None
        if res.answered == 0 and sum(res.unsupported.values()) >= GIVE_UP:
            return None  # nothing it is asked is supported: not applicable (play_game)
        if not _step(session, ctx, pos, res, rng, round_no, step):
            return None
    res.rounds += 1
    return list(pos.st.scores), list(pos.st.outs)


def _step(session: Session, ctx: Context, pos: Position, res: GameResult,
          rng: random.Random, round_no: int, step: int) -> bool:
    """One step: every question about `pos`, then the move; False when the game must end."""
    st, ask, n = pos.st, session.asker, pos.st.players
    ask.begin(pos.cur)
    legal, own_legal = own_rules.on_state(ctx, st, legal_actions)
    bads = illegal_sample(st, legal, rng, foreign=step % FOREIGN_EVERY == 0)
    act = legal[rng.randrange(len(legal))] if len(legal) > 1 else legal[0]
    probes = [(_refusals_of(bad, legal), codec.action_to_json(st, bad)) for bad in bads]
    phantom = phantom_play(st, legal) if step % FOREIGN_EVERY == PHANTOM_AT else None
    if phantom is not None:  # a train the table does not have (TRAIN-1)
        probes.append(phantom)
    act_json = codec.action_to_json(st, act)
    ask.ahead(ctx, [*(bad_json for _, bad_json in probes), act_json])
    answer, error = _asked(res, lambda: ask.legal(ctx))
    if isinstance(error, RefusedSetup) and step == 1 and _no_such_round(ctx, round_no, res):
        res.cut = "its own rules (match_length) have no such round: its table was refused"
        return False
    # the implementation's own view of the legal actions, when it differs from the rules':
    # refusals that follow from that view are not findings of their own
    listed: set[str] | None = None
    if answer is UNSUPPORTED:
        pass
    elif own_legal and error is None:  # its own rules decide: play what both allow
        res.not_judged(own_legal)
        if not actions_problems(answer):
            listed = {action_text(a) for a in answer}
            if not same_actions(_keys(st, legal), answer):
                res.differs(ctx, own_legal)
            both = [a for a in legal if action_text(codec.action_to_json(st, a)) in listed]
            if not both:  # a move of its own rules only: play goes on from its state
                return _their_move(session, ctx, pos, res, answer, rng, own_legal,
                                   (round_no, step))
            if act not in both:
                act = both[rng.randrange(len(both))]
                act_json = codec.action_to_json(st, act)
        else:
            res.record(compare_legal(ctx, st, legal, answer, None), pos.probe("legal"),
                       round_no, step, n)
    elif error is not None or not same_actions(_keys(st, legal), answer):
        found = compare_legal(ctx, st, legal, answer, error)
        res.record(found, pos.probe("legal"), round_no, step, n)
        if _fatal(error, res):
            return False
        if found and error is None and type(answer) is list:
            listed = {action_text(a) for a in answer if isinstance(a, dict)}
    for why, bad_json in probes:
        found_refusals, own = own_rules.on_state(ctx, st, why)
        wants = tuple(r.clause for r in found_refusals)  # any of them is right
        clause = wants[0]
        accepted, named = False, None
        answer, error = _asked(res, _bound(ask.apply, ctx, bad_json))
        text = action_text(bad_json)
        if isinstance(error, Refused) and own_legal and listed is not None and text in listed:
            # listed, then refused: its answers contradict each other whatever its rules
            res.record([contradiction(ctx, st, text, error)], pos.probe("listed", text),
                       round_no, step, n)
            continue
        if isinstance(error, Refused):
            if error.clause is None or error.clause in wants or listed is not None:
                continue  # agreed, or refused as its own (wrong) view of the table has it
            named, error = error.clause, None
        elif answer is UNSUPPORTED:
            continue
        elif error is None:
            accepted = True
        if accepted and listed is not None and text in listed:
            continue  # accepted, as its legal answer said: that finding is recorded
        if own and not _fatal(error):
            res.not_judged(own)
            if accepted:
                res.differs(ctx, own)
            continue
        res.record(compare_refusal(ctx, st, text, wants, accepted, named, error),
                   pos.probe("refused", text, clause), round_no, step, n)
        if _fatal(error, res):
            return False
    text = action_text(act_json)
    nxt, own = own_rules.step(ctx, st, act, perform)
    after = codec.state_to_json(nxt)
    got, error = _asked(res, lambda: ask.apply(ctx, act_json, after))
    unsupported = got is UNSUPPORTED
    same = not unsupported and error is None and (got is after or identical(got, after))
    problems = ([] if same or unsupported or error is not None
                else own_rules.problems(ctx, got))
    # a round's end under a scoring of its own: all but what the end is worth is judged
    aside = None if same or unsupported else own_rules.worth_aside(own, after, got)
    refused = isinstance(error, Refused)
    # a refusal is judged where the legal set reads no rule of its own: the move is legal
    # whatever they are, however they decide what it leads to
    found = ([] if same or unsupported else
             read_own(compare_apply(ctx, st, text, after if aside is None else aside, got,
                                    error, problems, judged=not own or aside is not None
                                    or (refused and not own_legal)),
                      (*own, *own_legal)))
    probe = pos.probe("apply", text)
    unlisted = refused and listed is not None and text not in listed
    if unlisted:
        found = []  # refused, as its legal answer said: that finding is recorded
    elif isinstance(error, Refused) and not found and listed is not None:  # listed, refused
        found, probe = [contradiction(ctx, st, text, error)], pos.probe("listed", text)
    if own and not same and not found:
        res.not_judged(own)
        if not unlisted:  # a refusal its legal answer foretold is no rule of its own
            res.differs(ctx, own)
    follow_impl = session.follow == "impl"
    if found:
        res.record(found, probe, round_no, step, n)
        if _fatal(error, res):
            return False
    elif nxt.phase == OVER and not unsupported and (same or not own):
        _winners(session, ctx, res, pos.probe("winners", text), nxt,
                 got if follow_impl else after, round_no, step, n, rng)
    # where the next step starts (a refusal its legal answer foretold: as any refused step,
    # from the rules' state, or the game would end for a bug already found)
    if own and not same and not unsupported and not unlisted:
        if error is not None or problems:  # its own rules' step gave nothing to play on
            res.cut = _no_state(own, problems, refused)
            return False
        if not pos.go_on(ctx, got):
            res.cut = (f"its own rules ({', '.join(own)}) led to a table the reference "
                       "cannot play on")
            return False
    elif not follow_impl or unsupported:
        pos.st, pos.cur = nxt, after
        if follow_impl:
            pos.restart(nxt, after)
    elif same:
        pos.st, pos.cur = nxt, after
        pos.history.append(text)
    elif error is not None or problems:
        pos.restart(nxt, after)  # nothing to play on: back to the rules' state
    elif found:  # another state than the rules': go on from it, if a round can be there
        pos.restart(*_reachable(ctx, got, nxt, after))
    else:  # the same state, perhaps written another way: its own JSON goes on
        pos.st, pos.cur = nxt, got
        pos.history.append(text)
    return True


def _their_move(session: Session, ctx: Context, pos: Position, res: GameResult,
                listed: list[JSON], rng: random.Random, own: Sequence[str],
                at: tuple[int, int]) -> bool:
    """Play one of the actions only the implementation's own rules allow (`listed`, its
    legal answer) and go on from the state it returns; the reference, whose stand-in
    rules refuse the action, has nothing to say about it but that the state is one and
    that an answer came (a broken state or a failure is a finding, without a
    reproducer). `at`: the round and step."""
    act = listed[rng.randrange(len(listed))]
    got, error = _asked(res, _bound(session.asker.apply, ctx, act))
    res.not_judged(own)
    why = None
    if isinstance(error, Refused):  # listed, then refused: a finding whatever its rules
        text = action_text(act)
        res.record([contradiction(ctx, pos.st, text, error)], pos.probe("listed", text),
                   *at, pos.st.players)
        why = _no_state(own, [], refused=True)
    elif got is UNSUPPORTED:
        why = "it did not play an action its own legal answer listed"
    elif error is not None:  # a crash, a timeout, no answer: a failure whatever the rules
        text = action_text(act)
        res.record([failed_move(ctx, pos.st, text, error, own)], pos.probe("apply", text),
                   *at, pos.st.players)
        why = _no_state(own, [])
    elif found := own_rules.problems(ctx, got):
        text = action_text(act)
        res.record([broken_state(ctx, pos.st, text, got, found, own)],
                   pos.probe("apply", text), *at, pos.st.players)
        why = _no_state(own, found)
    elif not pos.go_on(ctx, got):
        why = f"its own rules ({', '.join(own)}) led to a table the reference cannot play on"
    if why is not None:
        res.cut = why
        return False
    return True


def _no_state(own: Sequence[str], problems: Sequence[Problem], refused: bool = False) -> str:
    """Why a game ends where its own rules decided a step: no state to play on, and the
    cause (a bug of the engine's: a broken state, a failure or the refusal of a move it
    listed is a finding), not the rule, in the words."""
    cause = (f"a state that is not one to play on ({problems[0].key})" if problems
             else "a refusal of a move its legal answer listed" if refused
             else "an answer that failed")
    return f"its own rules ({', '.join(own)}) decided a step, and it gave {cause}"


def _winners_now(st: State) -> list[int]:
    """The reference's winners of a state whose round is over: [] with rounds to come."""
    return match_winners(st) if match_over(st) else []  # MATCH-1


def _refusals_of(bad: Action, legal: Sequence[Action]) -> Callable[[State], Sequence[Any]]:
    return lambda s: list(refusals(s, bad, legal))


def _fatal(error: BaseException | None, res: GameResult | None = None) -> bool:
    """A crash or a timeout ends the game: the implementation starts afresh. Given `res`,
    the game's end is said there (a game cut so counted no round and said nothing)."""
    if not (isinstance(error, HarnessError) and error.status in ("crash", "timeout")):
        return False
    if res is not None and res.cut is None:
        res.cut = ("the implementation crashed" if error.status == "crash"
                   else "the implementation did not answer in time")
    return True


def _canonical(ctx: Context, state: JSON) -> tuple[State, JSON]:
    st = codec.state_from_json(ctx.rules, state)
    return st, codec.state_to_json(st)


def _reachable(ctx: Context, got: JSON, st: State, want: JSON) -> tuple[State, JSON]:
    """The implementation's state `got` to go on from, read as the rules read it; the
    reference's (`st`, `want`) instead when no round can reach `got` (a starter its deal
    bug moved, say): every later probe must start from a possible table, or it could
    not be shrunk or written out as a reproducer (possible.table_problems)."""
    own, cur = _canonical(ctx, got)
    return (st, want) if table_problems(table_of(cur), ctx) else (own, cur)


def _winners(session: Session, ctx: Context, res: GameResult, probe: Probe, nxt: State,
             final: JSON, round_no: int, step: int, n: int, rng: random.Random) -> None:
    """The match winners after a round: none while rounds are to come (MATCH-1), and
    after the last one again under made-up tied totals (the totals never change how a
    round is played: the same last step tests MATCH-4, 5)."""
    assert probe.action is not None and nxt.result is not None
    want, own = own_rules.on_state(ctx, nxt, _winners_now)
    # a match length of its own alone: whether the match is over is its to say, and the
    # winners it names must be the rules' winners of the totals (as conform judges it)
    alone = own_rules.match_end_alone(ctx, nxt, own)
    if alone is not None:
        want, own = alone, ()
    got, error = _asked(res, lambda: session.asker.winners(ctx, final))
    if got is UNSUPPORTED:
        return
    if own:
        res.not_judged(own)
    elif error is not None or type(got) is not list or sorted(got) != want:
        res.record(compare_winners(ctx, probe.action, want, got, error, nxt.scores,
                                   over_left_open=alone is not None),
                   probe, round_no, step, n)
    if probe.table is None or probe.steps or not want:
        return  # tied totals are tried on a table of the last round's last state
    if alone is not None and nxt.round == 1:
        return  # made-up earlier totals need earlier rounds (a one-round match has none)
    for _ in range(TIE_PROBES):
        table = {**probe.table}
        table["scores"], table["outs"] = tied_totals(ctx.rules, list(nxt.result.scores), rng)
        tie = Probe("winners", probe.variant, table, action=probe.action)
        found = session.judge.judge(tie)
        if found:
            res.record(found, tie, round_no, step, n)
