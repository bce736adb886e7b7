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

Modules: plans (each game's rule set, table size and rounds), results (what a game found),
asking (the session and the implementation's answers), steps (one step: its questions and
its move); this one plays a game's rounds from their deals.
"""

from __future__ import annotations

import random

from mtrain.conformance.adapter import RefusedSetup
from mtrain.conformance.answers import Problem, identical
from mtrain.conformance.fuzz import own_rules, setups
from mtrain.conformance.fuzz.asking import REASON_LENGTH, UNSUPPORTED, Session, asked
from mtrain.conformance.fuzz.judge import Disagreement, Probe, compare_deal
from mtrain.conformance.fuzz.plans import GamePlan
from mtrain.conformance.fuzz.results import GameResult
from mtrain.conformance.fuzz.rulesets import Context, context
from mtrain.conformance.fuzz.steer import blocked_script, dry_script, dry_scripted, scripted
from mtrain.conformance.fuzz.steps import Position, fatal, no_such_round, play_step, reachable
from mtrain.conformance.fuzz.totals import prior_totals
from mtrain.conformance.process import NotApplicable
from mtrain.reference import codec
from mtrain.reference.deal import deal as reference_deal
from mtrain.reference.deal import deal_pool, random_draw
from mtrain.reference.engine import OVER, engine_number
from mtrain.spec import tiles as T

MAX_ROUND_STEPS = 3000
"""A round the implementation keeps going longer than this is abandoned (with a warning)."""
UNSUPPORTED_GAMES = 3
"""Games of a rule set in which every question was answered `unsupported` after which its
later games are not played (not applicable)."""



GIVE_UP = 30
"""Questions of a game all answered `unsupported` after which the game is not played on
(not applicable), and games of one rule set so answered after which it is not played."""


def play_game(session: Session, plan: GamePlan) -> GameResult:
    """Play one game with the reference, asking the implementation at every step."""
    res = GameResult(plan.index, plan.variant, steered=plan.steer)
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
    # what the implementation was asked before this deal: the step that ended the last
    # round of the rule set (an engine keeping a table between requests deals from it)
    ended, session.ended = session.ended, None
    before = ended[1:] if ended is not None and ended[0] == plan.variant else None
    sent = own_rules.sent_order(ctx, round_no, order)
    got, error = asked(res, lambda: {**ask.deal(ctx, n, round_no, sent, draw),
                                      "scores": list(scores), "outs": list(outs)})
    found: list[Disagreement] = []
    problems: list[Problem] = []
    if isinstance(error, RefusedSetup) and no_such_round(ctx, round_no, res):
        res.cut = "its own rules (match_length) have no such round: the deal was refused"
        return None
    # a request a rule of one's own shapes (its pool, its draw) is the stand-in's: so is
    # whatever answers it, a refusal or a broken deal too (own_rules.request_own)
    shaped = own_rules.request_own(ctx, round_no)
    if got is UNSUPPORTED:
        got = None
    elif error is not None or not identical(got, dealt):
        problems = [] if error is not None else own_rules.problems(ctx, got, dealt=True)
        if shaped:
            res.not_judged(sorted({*own, *shaped}))
        else:
            # an engine procedure of one's own may leave the seat and starter the rules'
            seat = bool(own) and own_rules.seat_alone(ctx, deal_spec, dealt, own)
            # a starting seat of one's own may leave the rest of the deal the rules'
            rest = bool(own) and not seat and own_rules.rest_alone(ctx, deal_spec, dealt, own)
            found = compare_deal(ctx, dealt, got, error, problems,
                                 judged=seat or rest or not own, seat_only=seat,
                                 rest_only=rest)
            res.record(found, Probe("deal", plan.variant, deal=deal_spec, before=before),
                       round_no, 0, n)
            if rest:
                res.judged_by_cut(own)  # all but its seat and starter
            if own and not found and not (seat or rest):  # (a part judged alone is judged)
                res.not_judged(own)
    if fatal(error, res):
        return None
    pos = Position(plan.variant, st, dealt, follow_impl, deal=deal_spec, steer=plan.steer,
                   stand_in=plan.stand_in)
    if own and got is not None and error is None and not problems and not identical(
            got, dealt):  # a deal of its own rules: play goes on from it
        if got.get("engine") != dealt.get("engine") and "engine_procedure" in own:
            # its own procedure picked another engine than the round's, which the stand-in
            # cannot play on (ENG-1): play goes on from the rules' deal
            pos.restart(st, dealt)
        elif not pos.go_on(ctx, got):
            res.cut = "its own rules dealt a table the reference cannot play on"
            return None
    elif not follow_impl or got is None:
        pass
    elif error is not None or problems:
        pos.restart(st, dealt)  # nothing to play on: the rules' deal
    elif found:  # another deal than the rules': go on from it, if a round can be there
        pos.restart(*reachable(ctx, got, st, dealt))
    else:
        pos.cur = got  # the same deal, perhaps written another way: its own JSON goes on
    if plan.steer and scripted(ctx.unknown, ctx.max_pip):  # (steer.py)
        pos.script = blocked_script(pos.st, random.Random(f"{plan.seed}:{round_no}:blocked"))
    elif not (plan.steer or plan.stand_in) and dry_scripted(ctx.unknown, ctx.max_pip):
        # its random games first run the boneyard dry (steer.dry_script): the steered
        # ones keep to their blocked ends, the stand-in's to its moves
        pos.dry = True
        pos.script = dry_script(pos.st, random.Random(f"{plan.seed}:{round_no}:dry"))
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
        if not play_step(session, ctx, pos, res, rng, round_no, step):
            return None
    res.rounds += 1
    return list(pos.st.scores), list(pos.st.outs)
