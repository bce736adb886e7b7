"""One step of a game: every question about where the game stands (the legal actions,
the refusal of a few illegal ones, the state after the reference's move; after a round's
last step its score and the match winners, round_end.py), then the move, and where play
goes on from."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from mtrain.conformance.adapter import JSON, Refused, RefusedSetup
from mtrain.conformance.answers import Problem, actions_problems, identical
from mtrain.conformance.fuzz import own_doubles, own_mexican, own_release, own_rules, scoring
from mtrain.conformance.fuzz.asking import (
    UNSUPPORTED,
    Session,
    action_keys,
    asked,
    bound,
    same_actions,
)
from mtrain.conformance.fuzz.illegal import FOREIGN_EVERY, PHANTOM_AT, illegal_sample, phantom_play
from mtrain.conformance.fuzz.judge import Probe, compare_legal, compare_refusal, read_own
from mtrain.conformance.fuzz.judge_apply import (
    broken_state,
    compare_apply,
    contradiction,
    failed_move,
)
from mtrain.conformance.fuzz.possible import table_problems
from mtrain.conformance.fuzz.results import GameResult
from mtrain.conformance.fuzz.round_end import (
    canonical,
    judge_heavy_score,
    judge_score,
    judge_winners,
    own_end_reason,
)
from mtrain.conformance.fuzz.rulesets import Context
from mtrain.conformance.fuzz.steer import (
    MAX_REPLANS,
    REPLAN_EVERY,
    REPLAN_TRIES,
    blocked_script,
    blocking_choice,
    dry_script,
)
from mtrain.conformance.fuzz.tables import table_of
from mtrain.conformance.process import HarnessError
from mtrain.reference import codec
from mtrain.reference.engine import (
    BIT,
    BLOCKED,
    OTHER_END,
    OVER,
    Action,
    State,
    legal_actions,
    perform,
)
from mtrain.reference.refusals import refusals
from mtrain.spec.notation import action_text


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
    steer: bool = False  # plays steered toward a blocked end (steer.py)
    stand_in: bool = False  # moves its own rules forbid played too (plans.STAND_IN_SHARE)
    script: list[Action] = field(default_factory=list)  # moves to a blocked end (steer.py)
    replans: int = 0  # blocked ends sought again, its own rules having left the script
    replan: bool = False  # (one is sought at the next step, or every REPLAN_EVERY)
    dry: bool = False  # its scripts run the boneyard dry, not to a blocked end (steer.py)

    def probe(self, kind: str, action: str | None = None, clause: str | None = None) -> Probe:
        if not self.follow_impl or identical(self.cur, codec.state_to_json(self.st)):
            return Probe(kind, self.variant, table_of(self.cur), action=action, clause=clause)
        return Probe(kind, self.variant, self.table, self.deal, tuple(self.history), action,
                     clause)

    def go_on(self, ctx: Context, got: JSON) -> bool:
        """Go on from a state the context's own rules gave (the reference's stand-in
        cannot say what it should be): False when the reference cannot read it."""
        try:
            self.restart(*canonical(ctx, got))
        except (codec.StateError, ValueError, KeyError, TypeError):
            return False
        return True

    def restart(self, st: State, cur: JSON) -> None:
        """Go on from `cur`, written out as the table later probes start from."""
        self.st, self.cur = st, cur
        self.table, self.deal, self.history = table_of(cur), None, []
        self.script = []  # (its moves were for the table left)


def no_such_round(ctx: Context, round_no: int, res: GameResult) -> bool:
    """Whether a refused setup of round `round_no` is a match length of its own deciding
    which rounds exist, as under conform: its deal, or (where the deal cannot tell, as a
    match ended by the totals carried into it) the first question about its table."""
    if round_no == 1 or own_rules.MATCH_LENGTH not in ctx.unknown:
        return False
    res.not_judged([own_rules.MATCH_LENGTH])
    return True


def play_step(session: Session, ctx: Context, pos: Position, res: GameResult,
          rng: random.Random, round_no: int, step: int) -> bool:
    """One step: every question about `pos`, then the move; False when the game must end."""
    st, ask, n = pos.st, session.asker, pos.st.players
    ask.begin(pos.cur)
    if pos.replan and (pos.replans == 0 or step % REPLAN_EVERY == 0):
        # its own rules refused the script's move: a blocked end sought anew from here,
        # and again every few steps (the boneyard shorter) until one is found
        pos.replans += 1
        pos.script = (dry_script if pos.dry else blocked_script)(st, rng, REPLAN_TRIES)
        pos.replan = not pos.script and pos.replans < MAX_REPLANS
    legal, own_legal = own_rules.on_state(ctx, st, legal_actions)
    bads = illegal_sample(st, legal, rng, foreign=step % FOREIGN_EVERY == 0)
    scripted = pos.script.pop(0) if pos.script else None
    act = (scripted if scripted in legal else legal[0] if len(legal) == 1
           else blocking_choice(st, legal, rng) if pos.steer
           else legal[rng.randrange(len(legal))])
    if act != scripted:  # off the script (or none): steered or drawn from here on
        pos.script = []
    probes = [(_refusals_of(bad, legal), codec.action_to_json(st, bad)) for bad in bads]
    phantom = phantom_play(st, legal) if step % FOREIGN_EVERY == PHANTOM_AT else None
    if phantom is not None:  # a train the table does not have (TRAIN-1)
        probes.append(phantom)
    act_json = codec.action_to_json(st, act)
    ask.ahead(ctx, [*(bad_json for _, bad_json in probes), act_json])
    answer, error = asked(res, lambda: ask.legal(ctx))
    if isinstance(error, RefusedSetup) and step == 1 and no_such_round(ctx, round_no, res):
        res.cut = "its own rules (match_length) have no such round: its table was refused"
        return False
    # the implementation's own view of the legal actions, when it differs from the rules':
    # refusals that follow from that view are not findings of their own
    listed: set[str] | None = None
    if answer is UNSUPPORTED:
        pass
    elif own_legal and error is None and answer:  # its own rules decide: play what both
        # allow (an empty list is no move under any rules, judged below)
        if actions_problems(answer, (st.players, True)):  # broken, whatever its rules
            # (TRAIN-1: one Mexican): judged
            res.record(compare_legal(ctx, st, legal, answer, None), pos.probe("legal"),
                       round_no, step, n)
        else:
            listed = {action_text(a) for a in answer}
            # judged but for what a release (or a bracketed rule, a dry draw) of its own
            # decides, as conform cuts it, the stand-in's own answer too (it was counted
            # set aside where the bracket judges it); else set aside
            found = own_release.legal_cut(ctx, st, legal, answer, own_legal)
            if found is None:  # or who may open the Mexican Train, its plays there aside
                found = own_mexican.legal_cut(ctx, st, legal, answer, own_legal)
            if found is None:
                res.not_judged(own_legal)
                if not same_actions(action_keys(st, legal), answer):
                    res.differs(ctx, own_legal)
            else:  # judged: counted so, the report saying how many by such a cut
                res.judged_by_cut(own_legal)
                res.record(found, pos.probe("legal"), round_no, step, n)
            both = [a for a in legal if action_text(codec.action_to_json(st, a)) in listed]
            if not both:  # a move of its own rules only: play goes on from its state
                return _their_move(session, ctx, pos, res, answer, rng, own_legal,
                                   (round_no, step))
            if act not in both and not pos.stand_in:  # (plans.STAND_IN_SHARE)
                if scripted is not None:  # a script its own rules left: steered, and
                    # another sought from the next table (steer.REPLAN_TRIES)
                    act = blocking_choice(st, both, rng)
                    pos.replan = pos.replans < MAX_REPLANS
                else:
                    act = both[rng.randrange(len(both))]
                act_json = codec.action_to_json(st, act)
                pos.script = []
    elif error is None and not same_actions(action_keys(st, legal), answer) and (
            cut := own_doubles.legal_cut(ctx, st, legal, answer, ask.impl, pos.cur)
    ) is not None:  # a double it leaves out its doubles rule's, the rest judged (conform's)
        res.record(cut.found, pos.probe("legal"), round_no, step, n)
        if fatal(cut.error, res):
            return False
        listed = {action_text(a) for a in answer}
        both = [a for a in legal if action_text(codec.action_to_json(st, a)) in listed]
        if not cut.found and not both:  # the draw or pass of its rule: play goes on from it
            return _their_move(session, ctx, pos, res, answer, rng, (own_rules.DOUBLES,),
                               (round_no, step))
        if not cut.found and act not in both and not pos.stand_in:
            act = both[rng.randrange(len(both))]
            pos.script = []
            act_json = codec.action_to_json(st, act)
    elif error is not None or not same_actions(action_keys(st, legal), answer):
        found = compare_legal(ctx, st, legal, answer, error)
        res.record(found, pos.probe("legal"), round_no, step, n)
        if fatal(error, res):
            return False
        if found and error is None and type(answer) is list:
            listed = {action_text(a) for a in answer if isinstance(a, dict)}
    for why, bad_json in probes:
        found_refusals, own = own_rules.on_state(ctx, st, why)
        wants = tuple(r.clause for r in found_refusals)  # any of them is right
        clause = wants[0]
        accepted, named = False, None
        answer, error = asked(res, bound(ask.apply, ctx, bad_json))
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
        # where only a release of its own was read: judged if every known release
        # refuses the action, by any clause one of them names (conform's cut)
        by = own_release.refusal_cut(ctx, st, text, wants, own) if own else None
        mexican = by is None and own_mexican.applies(ctx, own)  # (conform has no such cut)
        if mexican:
            by = own_mexican.refusal_cut(ctx, st, legal, bad_json, wants, own)
        if by is not None:
            wants = by
            res.judged_by_cut(own)
        elif own and not fatal(error):
            res.not_judged(own)
            if accepted:
                res.differs(ctx, own)
            continue
        judged = compare_refusal(ctx, st, text, wants, accepted, named, error)
        res.record(read_own(judged, own) if mexican else judged,
                   pos.probe("refused", text, clause), round_no, step, n)
        if fatal(error, res):
            return False
    text = action_text(act_json)
    nxt, own = own_rules.step(ctx, st, act, perform)
    if nxt.result is not None and nxt.result.end == BLOCKED:
        res.blocked.add(round_no)  # (reached, whether or not a rule of its own plays on)
    if nxt.result is not None:  # the next deal is asked after this request
        last = pos.probe("apply", text)
        session.ended = ((pos.variant, last.table, text)
                         if last.table is not None and not last.steps else None)
    after = codec.state_to_json(nxt)
    got, error = asked(res, lambda: ask.apply(ctx, act_json, after))
    unsupported = got is UNSUPPORTED
    same = not unsupported and error is None and (got is after or identical(got, after))
    problems = ([] if same or unsupported or error is not None
                else own_rules.problems(ctx, got))
    # a round's end under a scoring of its own, or gone out on a double of its own: all
    # but what the end is worth and which doubles are listed open is judged (out_alone)
    aside = None if same or unsupported else own_rules.aside(own, after, got, pos.cur)
    refused = isinstance(error, Refused)
    # a refusal is judged where the legal set reads no rule of its own: the move is legal
    # whatever they are, however they decide what it leads to
    found = ([] if same or unsupported else
             read_own(compare_apply(ctx, st, text, after if aside is None else aside, got,
                                    error, problems, judged=not own or aside is not None
                                    or (refused and not own_legal)),
                      (*own, *own_legal)))
    if (own and aside is None and not found and not same and not unsupported
            and error is None and not problems and nxt.phase == OVER):
        # its own rules decided the step (whether it was a move, whether the round ended),
        # not what the round's end is worth: that is judged (scoring.round_worth)
        found = read_own(scoring.round_worth(ctx, st, text, after, got), (*own, *own_legal))
    probe = pos.probe("apply", text)
    unlisted = refused and listed is not None and text not in listed
    if unlisted:
        found = []  # refused, as its legal answer said: that finding is recorded
    elif isinstance(error, Refused) and not found and listed is not None:  # listed, refused
        found, probe = [contradiction(ctx, st, text, error)], pos.probe("listed", text)
    if own and same:  # the stand-in's state: judged only where a cut judges it
        if own_rules.aside(own, after, got, pos.cur) is not None:
            res.judged_by_cut(own)
        else:  # (it was counted judged: trolley's passes its blocked rule read, 156)
            res.not_judged(own)
    elif own and not found and aside is not None:
        res.judged_by_cut(own)  # judged but for what its own rules decide (own_rules.aside)
    elif own and not found:
        res.not_judged(own)
        # a refusal its legal answer foretold is no rule of its own; nor is a state that
        # means the stand-in's, written otherwise (gondola's tiles high end first, its
        # hands in the order dealt: every answer not judged was counted as differing)
        if not unlisted and (error is not None or bool(problems) or compare_apply(
                ctx, st, text, after, got, None, problems)):
            res.differs(ctx, own)
    follow_impl = session.follow == "impl"
    if found:
        res.record(found, probe, round_no, step, n)
        if fatal(error, res):
            return False
    elif nxt.phase == OVER and not unsupported and (same or not own):
        judge_winners(session, ctx, res, pos.probe("winners", text), nxt,
                 got if follow_impl else after, round_no, step, n, rng)
    if nxt.phase == OVER and not unsupported and not fatal(error):
        # what the round is worth, whatever its own rules say of its end (scoring.py)
        judge_score(session, ctx, res, pos.probe("score", text), after, round_no, step, n,
               (*own, *own_legal), mine=got if error is None else None)
        judge_heavy_score(session, res, pos.variant, pos.st, text, after, round_no, step, n)
    # where the next step starts (a refusal its legal answer foretold: as any refused step,
    # from the rules' state, or the game would end for a bug already found)
    if own and not same and not unsupported and not unlisted:
        if error is not None or problems:  # its own rules' step gave nothing to play on
            res.cut = _no_state(own, problems, refused)
            return False
        asked_at = pos.probe("winners", text)  # (the table before the step)
        if not pos.go_on(ctx, got):
            res.cut = (f"its own rules ({', '.join(own)}) led to a table the reference "
                       "cannot play on")
            return False
        if not found and pos.st.phase == OVER:  # its end, not the stand-in's: who wins
            # on its totals is the known rules' question of it (_their_end)
            judge_winners(session, ctx, res, asked_at, pos.st, pos.cur, round_no, step, n, rng,
                     ((*own, *own_legal), own_end_reason(text, own)))
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
        pos.restart(*reachable(ctx, got, nxt, after))
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
    reproducer). From that state on (the implementation's, hands and boneyard as its
    rule left them: nothing of what the stand-in would have made of the move is kept),
    the known rules decide again: every later answer is judged where the reference's,
    computed on that state with its reads traced, reads no rule of one's own, the
    round's end too where the move ended the round (_their_end). `at`: the round and
    step."""
    pos.script = []  # (off the reference's round: its moves no longer fit)
    act = listed[rng.randrange(len(listed))]
    got, error = asked(res, bound(session.asker.apply, ctx, act))
    before = pos.cur
    why = None
    judged = False
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
    else:
        text = action_text(act)
        probe = pos.probe("apply", text)
        done = _effect(ctx, pos.st, act, before, got)
        if done is not None:  # what the move does is the rules' (step_alone's idea)
            judged = True
            res.record([replace(d, own=tuple(own), no_reproducer=_refused_move(text, own))
                        for d in compare_apply(ctx, pos.st, text, done, got, None, [])],
                       probe, *at, pos.st.players)
        after = _carried_out(pos.st, act) if isinstance(got, dict) and got.get(
            "phase") == OVER else None
        if after is not None:  # what the round's end is worth is the rules' (round_worth)
            res.record([replace(d, own=tuple(own), no_reproducer=_refused_move(text, own))
                        for d in scoring.round_worth(ctx, pos.st, text, after, got)],
                       probe, *at, pos.st.players)
        if not pos.go_on(ctx, got):
            why = (f"its own rules ({', '.join(own)}) led to a table the reference cannot "
                   "play on")
        elif pos.st.phase == OVER:  # its state is the round's end: asked as any round's
            _their_end(session, ctx, pos, res, probe, own, at, rng)
    if judged:
        res.judged_by_cut(own)
    else:
        res.not_judged(own)
    if why is not None:
        res.cut = why
        return False
    return True


def _effect(ctx: Context, st: State, act: JSON, before: JSON, got: Any) -> JSON | None:
    """What the move `act` from `st` (one only the implementation's own rules allow; the
    reference's table `before`) does by the rules, where that is theirs whatever its own
    rules are: carried out unchecked, the reference read none of them doing it (or only
    those own_rules.aside takes from the implementation's `got`: the markers up before,
    what a round's end is worth). A rule of one's own that makes the move legal decides
    whether it is a move, not what it does (conformance/step_alone.py: conform judges
    such a step's effects so). dandy's second draw in a turn (`draw_rule: other`: it draws
    until a tile fits) was set aside whole, though a draw takes the boneyard's first tile
    into the hand under every draw rule. None where a rule of its own decides the effect,
    the move is none on this table, or the round ends (scoring.round_worth asks that)."""
    action = _move_on(st, act)
    if action is None or (action.kind == "draw" and not st.boneyard):
        return None
    nxt, read = own_rules.step(ctx, st, action, perform)
    want = codec.state_to_json(nxt)
    if nxt.phase == OVER or not isinstance(got, dict) or got.get("phase") == OVER:
        return None
    return want if not read else own_rules.aside(read, want, got, before)


def _their_end(session: Session, ctx: Context, pos: Position, res: GameResult, probe: Probe,
               own: Sequence[str], at: tuple[int, int], rng: random.Random) -> None:
    """The questions after a round's end, asked of the end a move only the
    implementation's own rules allow reached (`pos`, now its state: `probe` asked that
    move). What the hands left are worth, who wins the match and who wins it under
    made-up tied totals are the known rules' questions of that state (SCORE, MATCH),
    whatever rule led there; each is judged where the reference's answer, computed on
    that state with its reads traced, reads no rule of one's own, as after any round's
    end, and counted otherwise. The reference refuses the move, so no fixture asks the
    finding again (no reproducer). Before, nothing was asked after such an end: waybill's
    tie bug (MATCH-6) went unseen in every game at the last round whose round ended so."""
    assert probe.action is not None
    refused = _refused_move(probe.action, own)
    round_no, step = at
    n, final = pos.st.players, pos.cur
    judge_score(session, ctx, res, replace(probe, kind="score"), final, round_no, step, n,
                own, refused, final)
    judge_winners(session, ctx, res, replace(probe, kind="winners"), pos.st, final,
                  round_no, step, n, rng, (tuple(own), refused))


def _carried_out(st: State, act: JSON) -> JSON | None:
    """The state after `act` from `st`, carried out without a check of its legality (a
    move the reference's stand-in refuses, only its own rules allowing it): what it does to
    the hands and trains is no rule's but the tile's (TRAIN-2). None where it is no move
    on this table (a tile not in the mover's hand, or matching no end of the train)."""
    action = _move_on(st, act)
    if action is None:
        return None
    done = st.copy()
    perform(done, action)
    return codec.state_to_json(done)


def _move_on(st: State, act: JSON) -> Action | None:
    """`act` decoded on `st`, where it is a move there: None for an action that does not
    decode, or a play of a tile not in the mover's hand or matching no end of its train
    (what _effect and _carried_out both carry out unchecked, TRAIN-2)."""
    try:
        action = codec.action_from_json(st, act)
    except (codec.StateError, ValueError, KeyError, TypeError):
        return None
    if action.kind == "play" and not (
            st.hands[st.seat] & BIT[action.tile]
            and OTHER_END[action.tile][st.ends[action.train]] >= 0):
        return None
    return action


def _refused_move(text: str, own: Sequence[str]) -> str:
    """Why a finding on a move the reference refuses has no reproducer."""
    return (f"the reference refuses `{text}` (only its own rules allow it: "
            f"{', '.join(own)}), so no fixture can ask it again")


def _no_state(own: Sequence[str], problems: Sequence[Problem], refused: bool = False) -> str:
    """Why a game ends where its own rules decided a step: no state to play on, and the
    cause (a bug of the engine's: a broken state, a failure or the refusal of a move it
    listed is a finding), not the rule, in the words."""
    cause = (f"a state that is not one to play on ({problems[0].key})" if problems
             else "a refusal of a move its legal answer listed" if refused
             else "an answer that failed")
    return f"its own rules ({', '.join(own)}) decided a step, and it gave {cause}"


def _refusals_of(bad: Action, legal: Sequence[Action]) -> Callable[[State], Sequence[Any]]:
    return lambda s: list(refusals(s, bad, legal))


def fatal(error: BaseException | None, res: GameResult | None = None) -> bool:
    """A crash or a timeout ends the game: the implementation starts afresh. Given `res`,
    the game's end is said there (a game cut so counted no round and said nothing)."""
    if not (isinstance(error, HarnessError) and error.status in ("crash", "timeout")):
        return False
    if res is not None and res.cut is None:
        res.cut = ("the implementation crashed" if error.status == "crash"
                   else "the implementation did not answer in time")
    return True


def reachable(ctx: Context, got: JSON, st: State, want: JSON) -> tuple[State, JSON]:
    """The implementation's state `got` to go on from, read as the rules read it; the
    reference's (`st`, `want`) instead when no round can reach `got` (a starter its deal
    bug moved, say): every later probe must start from a possible table, or it could
    not be shrunk or written out as a reproducer (possible.table_problems)."""
    own, cur = canonical(ctx, got)
    return (st, want) if table_problems(table_of(cur), ctx) else (own, cur)
