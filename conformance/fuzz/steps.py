"""One step of a game: every question about where the game stands (the legal actions,
the refusal of a few illegal ones, the state after the reference's move; after a round's
last step the match winners), then the move, and where play goes on from."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from mtrain.conformance.adapter import JSON, Refused, RefusedSetup
from mtrain.conformance.answers import Problem, actions_problems, identical
from mtrain.conformance.divergence import WORTH
from mtrain.conformance.fuzz import own_doubles, own_release, own_rules, scoring
from mtrain.conformance.fuzz.asking import (
    UNSUPPORTED,
    Session,
    action_keys,
    asked,
    bound,
    same_actions,
)
from mtrain.conformance.fuzz.illegal import FOREIGN_EVERY, PHANTOM_AT, illegal_sample, phantom_play
from mtrain.conformance.fuzz.judge import (
    Disagreement,
    Probe,
    compare_legal,
    compare_refusal,
    compare_winners,
    read_own,
    winners_now,
)
from mtrain.conformance.fuzz.judge_apply import (
    broken_state,
    compare_apply,
    contradiction,
    failed_move,
)
from mtrain.conformance.fuzz.possible import table_problems
from mtrain.conformance.fuzz.results import GameResult
from mtrain.conformance.fuzz.rulesets import Context, context
from mtrain.conformance.fuzz.steer import blocking_choice
from mtrain.conformance.fuzz.tables import table_of
from mtrain.conformance.fuzz.totals import tied_totals
from mtrain.conformance.match_over import holds_match_over
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

TIE_PROBES = 2
"""Made-up tied totals tried on the last step of a match."""
BLANK_RULE = "blank_values"
"""The option whose values price a blank (SCORE-1..4): played its own way, the heaviest
hand keeps its blanks in the boneyard (`heaviest`)."""


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
        res.not_judged(own_legal)
        if not actions_problems(answer):
            listed = {action_text(a) for a in answer}
            if not same_actions(action_keys(st, legal), answer):
                res.differs(ctx, own_legal)
                # but for what a release of its own decides, judged (conform's cut)
                found = own_release.legal_cut(ctx, st, legal, answer, own_legal)
                if found:
                    res.record(found, pos.probe("legal"), round_no, step, n)
            both = [a for a in legal if action_text(codec.action_to_json(st, a)) in listed]
            if not both:  # a move of its own rules only: play goes on from its state
                return _their_move(session, ctx, pos, res, answer, rng, own_legal,
                                   (round_no, step))
            if act not in both and not pos.stand_in:  # (plans.STAND_IN_SHARE)
                act = both[rng.randrange(len(both))]
                act_json = codec.action_to_json(st, act)
                pos.script = []
        else:
            res.record(compare_legal(ctx, st, legal, answer, None), pos.probe("legal"),
                       round_no, step, n)
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
        if by is not None:
            wants = by
        elif own and not fatal(error):
            res.not_judged(own)
            if accepted:
                res.differs(ctx, own)
            continue
        res.record(compare_refusal(ctx, st, text, wants, accepted, named, error),
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
    if own and not same and not found:
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
        _winners(session, ctx, res, pos.probe("winners", text), nxt,
                 got if follow_impl else after, round_no, step, n, rng)
    if nxt.phase == OVER and not unsupported and not fatal(error):
        # what the round is worth, whatever its own rules say of its end (scoring.py)
        _score(session, ctx, res, pos.probe("score", text), after, round_no, step, n,
               (*own, *own_legal), mine=got if error is None else None)
        _heavy_score(session, res, pos, text, after, round_no, step, n)
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
            _winners(session, ctx, res, asked_at, pos.st, pos.cur, round_no, step, n, rng,
                     ((*own, *own_legal), _own_end(text, own)))
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
    else:
        text = action_text(act)
        probe = pos.probe("apply", text)
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
    if why is not None:
        res.cut = why
        return False
    return True


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
    _score(session, ctx, res, replace(probe, kind="score"), final, round_no, step, n,
           own, refused, final)
    _winners(session, ctx, res, replace(probe, kind="winners"), pos.st, final, round_no,
             step, n, rng, (tuple(own), refused))


def _tied_end(session: Session, ctx: Context, res: GameResult, probe: Probe, nxt: State,
              final: JSON, mark: tuple[tuple[str, ...], str], at: tuple[int, int, int],
              rng: random.Random) -> None:
    """The winners of the finished `final` (a round's end the reference cannot reach by
    a step: `mark`, the rules of one's own that reached it and why no fixture can ask
    it) with totals made up to end the match tied, asked of that state itself (a probe
    starts from the table before a step the reference plays, and it refuses this one):
    the totals the round's own scores leave tied (tied_totals), its winner's round
    counted gone out (MATCH-1). A finding is that finished table's (over_probe), or where
    no fixture can start there, marked with `mark`."""
    assert probe.action is not None and nxt.result is not None
    round_scores = list(nxt.result.scores)
    before, outs = tied_totals(ctx.rules, round_scores, rng)
    totals = [b + r for b, r in zip(before, round_scores, strict=True)]
    outs = [o + (s == nxt.result.winner) for s, o in enumerate(outs)]
    tied = {**final, "scores": totals, "outs": outs}
    st = codec.state_from_json(ctx.rules, tied)
    want, read = own_rules.on_state(ctx, st, winners_now)
    alone = own_rules.match_end_alone(ctx, st, read)
    if alone is not None:
        want, read = alone, ()
    alike = own_rules.winners_alike(ctx, st, read)
    if alike is not None:
        want, read = alike, ()
    if read:
        res.not_judged(read)
        return
    got, error = asked(res, lambda: session.asker.winners(ctx, tied))
    if got is UNSUPPORTED:
        return
    end = over_probe(ctx, probe.variant, tied)
    found = compare_winners(ctx, probe.action if end is None else None, want, got, error,
                            totals, over_left_open=alone is not None,
                            held_over=lambda: holds_match_over(session.asker.impl, ctx.rj,
                                                               ctx.rs, tied))
    res.record(_marked(found, mark) if end is None else found, end or probe, *at)


def over_probe(ctx: Context, variant: str, final: JSON) -> Probe | None:
    """The match winners asked of the finished table `final` itself (an "over" probe),
    where a round can be there under the rules `ctx` knows: a fixture starts from it, its
    result written, and asks who wins on its totals, which reads no rule of how the round
    ended (a blocked round of one's own: possible.own_end), nor the round's scores
    (under blank values of one's own, its blanks in hand moved: _priced_as_known). None
    where it cannot be written so (a finding then has no reproducer: the caller's `mark`
    says why)."""
    try:
        _, cur = _canonical(ctx, final)
    except (codec.StateError, ValueError, KeyError, TypeError):
        return None
    if cur["phase"] != OVER:
        return None
    table = {**table_of(cur), "result": cur["result"]}
    if table_problems(table, ctx):
        priced = _priced_as_known(ctx, cur, table)
        if priced is None or table_problems(priced, ctx):
            return None
        table = priced
    return Probe("over", variant, table)


def _priced_as_known(ctx: Context, cur: JSON, table: JSON) -> JSON | None:
    """`table` (the finished `cur`) where blank values of one's own priced its round
    (INV-ROUND-SCORE under the stand-in: caboose's blanks), with the tiles in hand that
    bear a blank moved to the boneyard and the round's scores those of the hands left,
    which every blank rule prices alike. A hand only the one who went out may leave
    empty (REACH-HANDS) takes a tile without a blank from the boneyard or a train's
    tail instead. Who wins reads the totals and the rounds gone out, kept as they are:
    the same question, on a table both the engine's rules and the stand-in's have (a
    blocked end with a boneyard is one only the winners are asked of:
    lint.winners_alone). None where no such table is, or no such rule is played: a
    scoring of one's own prices every tile in hand, so that only hands all empty, which
    no round leaves, are priced alike by every scoring (its winners findings keep no
    reproducer conform runs, or none at all)."""

    def priced(tile: str) -> bool:
        return "0" in tile.split("-")

    if BLANK_RULE not in ctx.unknown or "scoring" in ctx.unknown:
        return None
    out = table["result"].get("winner")
    hands = {s: [t for t in hand or [] if not priced(t)] for s, hand in table["hands"].items()}
    bone = [t for t in table.get("boneyard") or [] if not priced(t)]
    trains = {k: list(v) for k, v in (table.get("trains") or {}).items()}
    for s, hand in hands.items():
        if s != out and not hand and table["hands"][s]:
            tail = _unpriced_tail(trains, priced)
            if not bone and tail is None:
                return None
            hand.append(bone.pop(0) if bone else trains[tail].pop())
    kept = {t for hand in hands.values() for t in hand}
    held = [t for hand in table["hands"].values() for t in hand or []]
    moved = [t for t in [*(table.get("boneyard") or []), *held] if t not in kept]
    worth = scoring.reference_scores(ctx, {**cur, "hands": [hands[s] for s in sorted(hands)]})
    if worth is None or worth[1]:
        return None
    # (a blocked end's passes, counted only on an empty boneyard, as the boneyard left:
    # how it ended is not asked)
    passes = table["passes"] if not moved or out is not None else 0
    return {**table, "hands": hands, "boneyard": moved, "trains": trains, "passes": passes,
            "result": {**table["result"], "scores": worth[0]}}


def _unpriced_tail(trains: dict[Any, list[str]], priced: Callable[[str], bool]) -> Any:
    """The train whose last tile may go to a hand (no double, none `priced`, a tile
    left behind it), the longest first; None where there is none."""
    ok = [k for k, v in trains.items() if len(v) > 1 and not priced(v[-1])
          and len(set(v[-1].split("-"))) > 1]
    return max(ok, key=lambda k: len(trains[k]), default=None)


def _marked(found: list[Disagreement], mark: tuple[tuple[str, ...], str] | None
            ) -> list[Disagreement]:
    """`found`, where `mark` is given (the rules of one's own that reached the state,
    and why no fixture can ask it again), marked with both."""
    if mark is None:
        return found
    own, why = mark
    return [replace(d, own=tuple(dict.fromkeys((*d.own, *own))), no_reproducer=why)
            for d in found]


def _carried_out(st: State, act: JSON) -> JSON | None:
    """The state after `act` from `st`, carried out without a check of its legality (a
    move the reference's stand-in refuses, only its own rules allowing it): what it does to
    the hands and trains is no rule's but the tile's (TRAIN-2). None where it is no move
    on this table (a tile not in the mover's hand, or matching no end of the train)."""
    try:
        action = codec.action_from_json(st, act)
    except (codec.StateError, ValueError, KeyError, TypeError):
        return None
    if action.kind == "play" and not (
            st.hands[st.seat] & BIT[action.tile]
            and OTHER_END[action.tile][st.ends[action.train]] >= 0):
        return None
    done = st.copy()
    perform(done, action)
    return codec.state_to_json(done)


def _refused_move(text: str, own: Sequence[str]) -> str:
    """Why a finding on a move the reference refuses has no reproducer."""
    return (f"the reference refuses `{text}` (only its own rules allow it: "
            f"{', '.join(own)}), so no fixture can ask it again")


def _unreached(text: str, ctx: Context, why: str) -> str:
    """Why a finding at a round's end after `text` from a table only rules of one's own
    reach (a state an earlier step of theirs left: `why`, the first condition it breaks)
    has no reproducer. Its made-up tied totals were judged on that table and came to
    nothing there (tender's, marshal's every one in 12 games, seed 1): they are asked
    of the end itself (_tied_end)."""
    return (f"the table before `{text}` is one only its own rules "
            f"({', '.join(sorted(ctx.unknown))}) reach ({why.rsplit(']: ', 1)[-1]}), so no "
            "fixture can start there")


def _own_end(text: str, own: Sequence[str]) -> str:
    """Why a finding at a round's end its own rules decided has no reproducer."""
    return (f"its own rules ({', '.join(own)}) decided the step `{text}` that ended the "
            "round, so no fixture can ask of the end it reached")


def _no_state(own: Sequence[str], problems: Sequence[Problem], refused: bool = False) -> str:
    """Why a game ends where its own rules decided a step: no state to play on, and the
    cause (a bug of the engine's: a broken state, a failure or the refusal of a move it
    listed is a finding), not the rule, in the words."""
    cause = (f"a state that is not one to play on ({problems[0].key})" if problems
             else "a refusal of a move its legal answer listed" if refused
             else "an answer that failed")
    return f"its own rules ({', '.join(own)}) decided a step, and it gave {cause}"


def _score(session: Session, ctx: Context, res: GameResult, probe: Probe, after: JSON,
           round_no: int, step: int, n: int, read: Sequence[str],
           refused: str | None = None, mine: Any = None) -> None:
    """The implementation's `score` of the round the reference ended (`after`), judged
    where the reference's scoring reads no rule of one's own; marked with those the step
    and its legality `read` that keep conform from running its reproducer, and with
    `refused`, why there is none, where the reference refuses the step (_their_end).
    Where it reads one, the `score` of the implementation's own end `mine` (its state
    after the step, None where it gave none) against its own result (_own_score)."""
    if not scoring.asks_scores(session.impl):
        return
    ref = scoring.reference_scores(ctx, after)
    if ref is None:
        return
    want, own = ref
    if own:
        _own_score(session, ctx, res, probe, after, mine, (round_no, step, n), own,
                   (read, refused))
        return
    got, error = asked(res, lambda: scoring.ask_score(session.impl, ctx, after))
    if got is UNSUPPORTED:
        return
    assert probe.action is not None
    found = read_own(scoring.compare_score(ctx, probe.action, after, want, got, error),
                     scoring.marks(read))
    res.record(_marked(found, None if refused is None else ((), refused)), probe, round_no,
               step, n)


def _own_score(session: Session, ctx: Context, res: GameResult, probe: Probe, after: JSON,
               mine: Any, at: tuple[int, int, int], own: Sequence[str],
               marked: tuple[Sequence[str], str | None]) -> None:
    """Under a scoring (blank values, ...) of its own, read by the reference's scoring
    (`own`), the implementation's `score` of its own end `mine` of the round, judged
    against its own result as conform judges it (own_score.py); not judged where it gave
    no such end, or another than the reference's `after` (its own rules ended the round
    otherwise: no entry conform runs asks it). `marked`: what the step and its legality
    read, and why there is no reproducer (_score)."""
    if not scoring.own_end(after, mine):
        res.not_judged(own)
        return
    answer, error = asked(res, lambda: scoring.ask_own_score(session.impl, ctx, mine))
    if answer is UNSUPPORTED:
        return
    res.own_scores += 1
    assert probe.action is not None
    read, refused = marked
    found = read_own(scoring.compare_own_score(ctx, probe.action, after, mine, answer, error),
                     scoring.own_marks(read))
    res.record(_marked(found, None if refused is None else ((), refused)), probe, *at)


def _heavy_score(session: Session, res: GameResult, pos: Position, text: str, after: JSON,
                 round_no: int, step: int, n: int) -> None:
    """The same round's end with the heaviest hand its table allows: every tile off the
    trains in one seat's hand (`heaviest`). A hand's pips reach a few hundred
    only where a seat drew that much, which random rounds seldom leave at their end (an
    engine summing a hand in eight bits, gantry's bug 1, met no hand of 256 pips in 60
    games), though any count of draws is a round the rules allow; its `score` is judged
    as the round's end's (a "score" probe, rejudge.py), on a table every probe may start
    from (possible.table_problems)."""
    if not scoring.asks_scores(session.impl) or scoring.end_of(after) is None:
        return
    table = heaviest(table_of(codec.state_to_json(pos.st)), pos.st.seat,
                     blanks=BLANK_RULE not in context(pos.variant).unknown)
    if table is None or table_problems(table, context(pos.variant)):
        return
    probe = Probe("score", pos.variant, table, action=text)
    found = session.judge.judge(probe)
    if found:
        res.record(found, probe, round_no, step, n)


def heaviest(table: dict[str, Any], mover: int, blanks: bool = True) -> dict[str, Any] | None:
    """`table` with every tile off the trains in the hand of the seat after `mover`: the
    boneyard (drawn) and the other seats' hands but a tile each (played, as it were, with
    tiles they drew; the mover's own hand kept: its move ends the round); None where no
    tile moves. The tile a seat keeps is one without a blank where it holds one, so that
    the heavy hand holds the blanks: a blank's value is the blank rule's (SCORE-2..4),
    which a random round's end seldom asks of a large hand. Without `blanks` (a blank
    rule of one's own, whose value of a hand holding a blank is not judged) the blanks
    of the hands but the mover's go to the boneyard instead, which nobody scores, so
    that the hands' other tiles are judged (layover's tens counted 1, SCORE-1, had been
    asked only of hands that happened to hold no blank)."""
    hands = dict(table["hands"])
    seat = (mover + 1) % len(hands)
    gathered = list(table["boneyard"])
    for s, hand in table["hands"].items():
        if s not in (mover, seat) and len(hand) > 1:
            keep = next((t for t in hand if not _blank(t)), hand[0])
            rest = list(hand)
            rest.remove(keep)
            hands[s], gathered = [keep], [*gathered, *rest]
    aside = [] if blanks else [t for t in [*hands[seat], *gathered] if _blank(t)]
    heavy = [t for t in [*hands[seat], *gathered] if t not in aside]
    if heavy == hands[seat] or not heavy:
        return None
    hands[seat] = heavy
    return {**table, "hands": hands, "boneyard": aside}


def _blank(tile: str) -> bool:
    """Whether a tile as a table writes it (`5-0`; not `rest`) bears a blank end."""
    return "0" in tile.split("-")


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


def _canonical(ctx: Context, state: JSON) -> tuple[State, JSON]:
    st = codec.state_from_json(ctx.rules, state)
    return st, codec.state_to_json(st)


def reachable(ctx: Context, got: JSON, st: State, want: JSON) -> tuple[State, JSON]:
    """The implementation's state `got` to go on from, read as the rules read it; the
    reference's (`st`, `want`) instead when no round can reach `got` (a starter its deal
    bug moved, say): every later probe must start from a possible table, or it could
    not be shrunk or written out as a reproducer (possible.table_problems)."""
    own, cur = _canonical(ctx, got)
    return (st, want) if table_problems(table_of(cur), ctx) else (own, cur)


def _winners(session: Session, ctx: Context, res: GameResult, probe: Probe, nxt: State,
             final: JSON, round_no: int, step: int, n: int, rng: random.Random,
             mark: tuple[tuple[str, ...], str] | None = None) -> None:
    """The match winners after a round: none while rounds are to come (MATCH-1), and
    after the last one again under made-up tied totals (the totals never change how a
    round is played: the same last step tests MATCH-4, 5), with the totals that step
    leaves tied (MATCH-1: each the sum of the round scores, whatever breaks the tie).
    `mark`: a round's end only rules of one's own reached (_their_end), whose tied
    totals are asked of the end itself (_tied_end), and whose findings are asked of the
    finished table (over_probe: a fixture starts there, no step asked), or, where no
    fixture can, marked so."""
    assert probe.action is not None and nxt.result is not None
    want, own = own_rules.on_state(ctx, nxt, winners_now)
    # a match length of its own alone: whether the match is over is its to say, and the
    # winners it names must be the rules' winners of the totals (as conform judges it)
    alone = own_rules.match_end_alone(ctx, nxt, own)
    if alone is not None:
        want, own = alone, ()
    alike = own_rules.winners_alike(ctx, nxt, own)  # totals level: the tie rule's alone
    if alike is not None:
        want, own = alike, ()
    got, error = asked(res, lambda: session.asker.winners(ctx, final))
    if got is UNSUPPORTED:
        return
    end = None if mark is None else over_probe(ctx, probe.variant, final)
    if own:
        res.not_judged(own)
    elif error is not None or type(got) is not list or sorted(got) != want:
        differ = compare_winners(ctx, probe.action if end is None else None, want, got,
                                 error, nxt.scores, over_left_open=alone is not None,
                                 held_over=lambda: holds_match_over(
                                     session.asker.impl, ctx.rj, ctx.rs, final))
        res.record(_marked(differ, mark) if end is None else differ, end or probe,
                   round_no, step, n)
    if mark is None and ctx.unknown & WORTH:  # the step's end priced its own way: no
        priced = scoring.reference_scores(ctx, final)  # probe of it is judged, so the
        if priced is not None and priced[1]:  # tied totals are asked of the end itself
            mark = (priced[1], _own_end(probe.action, priced[1]))
    if not want or (mark is None and (probe.table is None or probe.steps)):
        return  # tied totals are tried on a table of the last round's last state
    if alone is not None and nxt.round == 1:
        return  # made-up earlier totals need earlier rounds (a one-round match has none)
    if mark is None and ctx.unknown:
        assert probe.table is not None and probe.action is not None  # (returned above)
        unreached = table_problems(probe.table, ctx)
        if unreached:  # a table only its own rules reach: no probe starts there
            mark = ((), _unreached(probe.action, ctx, unreached[0]))  # (rejudge._start)
    for _ in range(TIE_PROBES):
        if mark is not None:
            _tied_end(session, ctx, res, probe, nxt, final, mark, (round_no, step, n), rng)
            continue
        assert probe.table is not None  # (none returned above)
        table = {**probe.table}
        table["scores"], table["outs"] = tied_totals(ctx.rules, list(nxt.result.scores), rng)
        tie = Probe("winners", probe.variant, table, action=probe.action)
        found = session.judge.judge(tie)
        if found:
            res.record(found, tie, round_no, step, n)
        # and the totals the step leaves tied (viaduct wrote its tie-break into them at
        # its match's last round, MATCH-1): a winners probe asks no more once they differ.
        # The rounds gone out are the game's own: made-up ones may have ended a match of
        # one's own already (coupling's, at a third out), and the totals need none
        totals = Probe("apply", probe.variant, {**table, "outs": probe.table["outs"]},
                       action=probe.action)
        found = session.judge.judge(totals)
        if found and alone is not None and any(
                d.signature.startswith("refuses the setup") for d in found):
            res.not_judged([own_rules.MATCH_LENGTH])  # made-up totals ended its own match
        elif found:
            res.record(found, totals, round_no, step, n)
