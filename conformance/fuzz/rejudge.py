"""The shrinker's and the reproducer's question: a Probe put to the implementation and
to the reference again, and judged as a run judges it (judge.py compares).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from mtrain.conformance.adapter import (
    JSON,
    Implementation,
    ReferenceImplementation,
    Refused,
    RefusedSetup,
)
from mtrain.conformance.answers import actions_problems, state_problems
from mtrain.conformance.fixture import Fixture
from mtrain.conformance.fuzz import own_doubles, own_release, own_rules, scoring, setups
from mtrain.conformance.fuzz.judge import (
    Disagreement,
    Probe,
    as_action,
    compare_deal,
    compare_legal,
    compare_refusal,
    compare_winners,
    differences,
    read_own,
    refusing,
    winners_now,
)
from mtrain.conformance.fuzz.judge_apply import compare_apply, contradiction
from mtrain.conformance.fuzz.possible import table_problems
from mtrain.conformance.fuzz.rulesets import Context, context
from mtrain.conformance.match_over import holds_match_over
from mtrain.conformance.process import NotApplicable
from mtrain.conformance.runner import deal_with_draw, next_round_deal
from mtrain.reference import codec
from mtrain.reference.engine import (
    OVER,
    State,
    legal_actions,
    perform,
)
from mtrain.spec.notation import (
    NEXT_ROUND,
    FixtureError,
    action_json,
    action_text,
    table_state,
)


class Judge:
    """Puts a Probe to the implementation and to the reference again (the shrinker's and
    the reproducer's question): the Disagreements, or None when it is no question (the
    table cannot exist, a step is refused, the chain of steps parts before the question).
    """

    def __init__(self, impl: Implementation) -> None:
        self.impl = impl
        self.ref = ReferenceImplementation()

    def judge(self, probe: Probe) -> list[Disagreement] | None:
        try:
            return self._judge(probe)
        except NotApplicable:
            return None

    def _judge(self, probe: Probe) -> list[Disagreement] | None:
        ctx = context(probe.variant)
        rj = ctx.rj
        if probe.kind == "deal":
            return self._deal(ctx, probe)
        if probe.kind == "next":
            return self._next(ctx, probe)
        if probe.kind == "setup":  # a player count the table lacks: refused, DEAL-7
            return setups.ask(self.impl, probe)[1]
        start = self._start(ctx, probe)
        if start is None:
            return None
        want_state, got_state = start
        st = codec.state_from_json(ctx.rules, want_state)
        if st.phase == OVER:  # only the match's winners are asked of a finished table
            return self._over(ctx, st, got_state) if probe.kind == "over" else None
        if probe.kind == "over":
            return None
        # with rules of one's own, a question whose answer they decide is no question
        if probe.kind == "legal":
            legal, own = own_rules.on_state(ctx, st, legal_actions)
            if own and own_release.cuttable(ctx, own) is None:
                return None
            got: Any = None
            error: BaseException | None = None
            try:
                got = self.impl.legal(rj, got_state)
            except Exception as e:
                error = e
            if own:  # a release (draw rule) alone, or bracketed rules: judged as conform cuts it
                if error is not None or not isinstance(got, list) or actions_problems(
                        got, (st.players, True)):
                    return None
                return own_release.legal_cut(ctx, st, legal, got, own)
            # a double its doubles rule of one's own leaves out set aside, as in play
            cut = None if error is not None else own_doubles.legal_cut(
                ctx, st, legal, got, self.impl, got_state)
            return compare_legal(ctx, st, legal, got, error) if cut is None else cut.found
        assert probe.action is not None
        if probe.kind == "listed":  # the implementation's two answers, against each other
            return self._listed(ctx, st, got_state, probe.action)
        act = action_json(probe.action, ctx.max_pip)
        ref = own_rules.reference(ctx) or self.ref
        try:
            after = ref.apply(rj, want_state, act)
        except Refused as e:
            if probe.kind != "refused":
                return None
            if e.clause:
                want, own = own_rules.on_state(ctx, st,
                                               lambda s: refusing(ctx, s, probe.action or ""))
            else:
                want, own = ("TURN-7",), ()
            read = (*own, *own_rules.own_reads(ctx, ref))
            if read:  # judged where every known release refuses it, as in play
                by = own_release.refusal_cut(ctx, st, probe.action, want, read)
                if by is None:
                    return None
                want = by
            if probe.clause is not None and probe.clause not in want:
                return None  # refused for another reason than the one being chased
            return self._refusal(ctx, st, got_state, probe.action, want)
        if probe.kind == "refused":
            return None  # legal under the reference
        if probe.kind == "score":  # what the round is worth, whatever ends it (scoring.py)
            taken = as_action(ctx, st, probe.action)
            read = (own_rules.step(ctx, st, taken, perform)[1] if taken is not None
                    else own_rules.own_reads(ctx, ref))
            found = self._score(ctx, probe.action, after,
                                (*read, *own_rules.on_state(ctx, st, legal_actions)[1]),
                                got_state)
            if found and all(d.own for d in found) and scoring.end_of(after) == ("blocked",
                                                                                  None):
                # conform runs no entry of that step: the hands before it, asked alone
                return self._table_score(ctx, probe.action, want_state, got_state) or found
            return found
        # its own rules may decide the step: then only a failure or a broken state is a
        # finding, as in play (an invariant holds whatever the rules). What the step reads
        # is what play reads (own_rules.step): whether it is legal is the legal set's
        # question (own_legal below), which ref.apply asks again
        taken = as_action(ctx, st, probe.action)
        own = (own_rules.step(ctx, st, taken, perform)[1] if taken is not None
               else own_rules.own_reads(ctx, ref))
        try:
            got, error = self.impl.apply(rj, got_state, act), None
        except Exception as e:
            got, error = None, e
        # the invariants as play checks them (steps.py), whatever the step reads: those
        # whose check reads a rule of one's own left out (layover's round ended early,
        # END-3, read in play as `round end: result`; asked again, INV-ROUND-SCORE under
        # the stand-in's blank values came first, and the finding "did not show again")
        problems = own_rules.problems(ctx, got) if error is None else None
        # marked with what the table's legal set reads too: conform checks the step is
        # legal, so it runs no such table
        _, own_legal = own_rules.on_state(ctx, st, legal_actions)
        aside = own_rules.aside(own, after, got, got_state)  # as play judges it
        refused = isinstance(error, Refused) and not own_legal  # legal whatever they are
        found = read_own(compare_apply(ctx, st, probe.action, after if aside is None else aside,
                                       got, error, problems,
                                       judged=not own or aside is not None or refused),
                         (*own, *own_legal))
        if (own and aside is None and not found and error is None and not problems
                and after["phase"] == OVER):  # what the round's end is worth, as play judges it
            found = read_own(scoring.round_worth(ctx, st, probe.action, after, got),
                             (*own, *own_legal))
        if probe.kind == "apply":
            return found
        if own or found or after["phase"] != OVER:
            return None  # winners are asked of a round both engines ended alike
        try:
            seats, error = self.impl.winners(rj, got), None
        except Exception as e:
            seats, error = None, e
        ref = own_rules.reference(ctx) or self.ref
        want_seats = ref.winners(rj, after)
        alone = None
        if read := own_rules.own_reads(ctx, ref):  # a match length of its own alone: the
            alone = own_rules.match_end_alone(  # winners of the totals, if it names any
                ctx, codec.state_from_json(ctx.rules, after), read)
            if alone is None:
                return None
            want_seats = alone
        # marked with what the last step's legality reads: conform checks the step is
        # legal, so it runs no such table (the shrinker looks for one that reads none)
        return read_own(compare_winners(ctx, probe.action, want_seats, seats, error,
                                        after["scores"], over_left_open=alone is not None,
                                        held_over=lambda: holds_match_over(
                                            self.impl, rj, ctx.rs, got)),
                        own_legal)

    def _over(self, ctx: Context, st: State, table: JSON) -> list[Disagreement] | None:
        """The match winners of the finished `table` (an "over" probe), judged where the
        reference's, read off its totals, read no rule of one's own (a match length of
        its own alone: the rules' winners of the totals, if it names any)."""
        want, read = own_rules.on_state(ctx, st, winners_now)
        alone = own_rules.match_end_alone(ctx, st, read)
        if alone is not None:
            want, read = alone, ()
        alike = own_rules.winners_alike(ctx, st, read)  # totals level: the tie rule's
        if alike is not None:
            want, read = alike, ()
        if read:
            return None
        try:
            seats, error = self.impl.winners(ctx.rj, table), None
        except Exception as e:
            seats, error = None, e
        return compare_winners(ctx, None, want, seats, error, list(st.scores),
                               over_left_open=alone is not None,
                               held_over=lambda: holds_match_over(self.impl, ctx.rj, ctx.rs,
                                                                  table))

    def _score(self, ctx: Context, text: str, after: JSON, read: tuple[str, ...],
               before: JSON) -> list[Disagreement] | None:
        """The implementation's `score` of the reference's finished state `after`; None
        when the step ends no round; marked with the rules of one's own the step and its
        legality `read` (scoring.marks). Where the scoring reads a rule of one's own, the
        implementation's `score` of its own end of the step from `before` against its own
        result, as play asks it (round_end._own_score); None where it ends the round otherwise."""
        ref = scoring.reference_scores(ctx, after)
        if ref is None or not scoring.asks_scores(self.impl):
            return None
        if ref[1]:
            try:
                mine = self.impl.apply(ctx.rj, before, action_json(text, ctx.max_pip))
            except Exception:
                return None
            if not scoring.own_end(after, mine):
                return None
            try:
                answer, error = scoring.ask_own_score(self.impl, ctx, mine), None
            except NotApplicable:
                return None
            except Exception as e:
                answer, error = None, e
            return read_own(scoring.compare_own_score(ctx, text, after, mine, answer, error),
                            scoring.own_marks(read))
        try:
            got, error = scoring.ask_score(self.impl, ctx, after), None
        except NotApplicable:
            return None
        except Exception as e:
            got, error = None, e
        return read_own(scoring.compare_score(ctx, text, after, ref[0], got, error),
                        scoring.marks(read))

    def _table_score(self, ctx: Context, text: str, want_state: JSON, got_state: JSON
                     ) -> list[Disagreement] | None:
        """The implementation's `score` naming no winner of the table before the step
        `text` that ends a round blocked (scoring.compare_table_score); None where the
        scoring reads a rule of one's own or it cannot be asked."""
        want, own = scoring.table_scores(ctx, want_state)
        if own:
            return None
        try:
            got, error = scoring.ask_score(self.impl, ctx, got_state, blocked=True), None
        except NotApplicable:
            return None
        except Exception as e:
            got, error = None, e
        return scoring.compare_table_score(ctx, text, want, got, error)

    def _listed(self, ctx: Context, st: State, state: JSON, text: str
                ) -> list[Disagreement] | None:
        """Whether the implementation lists `text` as legal in `state` and then refuses it
        (judge_apply.contradiction); None when it cannot be asked (no list, or a failure)."""
        try:
            listed = {action_text(a) for a in self.impl.legal(ctx.rj, state)}
        except Exception:
            return None
        if text not in listed:
            return []
        try:
            self.impl.apply(ctx.rj, state, action_json(text, ctx.max_pip))
        except Refused as e:
            return [contradiction(ctx, st, text, e)]
        except Exception:
            return None
        return []

    def _refusal(self, ctx: Context, st: State, state: JSON, text: str,
                 want: Sequence[str]) -> list[Disagreement]:
        accepted, clause, error = False, None, None
        try:
            self.impl.apply(ctx.rj, state, action_json(text, ctx.max_pip))
            accepted = True
        except Refused as e:
            clause = e.clause
        except Exception as e:
            error = e
        return compare_refusal(ctx, st, text, want, accepted, clause, error)

    def _deal(self, ctx: Context, probe: Probe) -> list[Disagreement] | None:
        request = deal_request(ctx, probe.deal)
        if request is None:
            return None
        players, round_no, order, extra = request
        draw = (probe.deal or {}).get("draw")  # SEAT-5: the deal's draw, if any
        ref = own_rules.reference(ctx) or self.ref
        try:
            want = {**deal_with_draw(ref, ctx.rj, players, round_no, order, draw), **extra}
        except RefusedSetup:  # a shrunk probe whose draw no longer fits its table
            return None
        own = own_rules.deal_reads(ctx, ref)
        # as play judged it (play.py): where rules of one's own deal it, the seat and
        # starter included, only a failure or a broken state (gondola's round 16 dealt
        # with [15-15]: "did not show again" while the deal was no question at all)
        seat = bool(own) and own_rules.seat_alone(ctx, probe.deal or {}, want, own)
        rest = bool(own) and not seat and own_rules.rest_alone(ctx, probe.deal or {}, want,
                                                                own)
        try:
            got = {**deal_with_draw(self.impl, ctx.rj, players, round_no, order, draw), **extra}
            error = None
        except Exception as e:
            got, error = None, e
        problems = (own_rules.problems(ctx, got, dealt=True)
                    if own and error is None else None)
        return compare_deal(ctx, want, got, error, problems, judged=seat or rest or not own,
                            seat_only=seat, rest_only=rest)

    def _next(self, ctx: Context, probe: Probe) -> list[Disagreement] | None:
        """The next round dealt after the probe's steps end the round of its table, as
        conform deals a `next-round` step (runner.next_round_deal): the deal asked right
        after the request that ended the round, whatever the implementation keeps from
        it. Judged as a deal is (_deal); None where the steps end no round."""
        start = self._start(ctx, probe)
        if start is None or not all(isinstance(s.get("result"), dict) for s in start):
            return None
        want_over, got_over = start
        ref = own_rules.reference(ctx) or self.ref
        try:
            want = next_round_deal(ref, ctx.rj, ctx.rs, want_over)
        except (RefusedSetup, FixtureError, ValueError):
            return None  # no next round (the last of the match), or none its rules deal
        own = own_rules.own_reads(ctx, ref)
        try:
            got, error = next_round_deal(self.impl, ctx.rj, ctx.rs, got_over), None
        except Exception as e:
            got, error = None, e
        problems = (own_rules.problems(ctx, got, dealt=True)
                    if own and error is None else None)
        found = compare_deal(ctx, want, got, error, problems, judged=not own)
        return [dataclasses.replace(d, question=(NEXT_ROUND,)) for d in found]

    def _start(self, ctx: Context, probe: Probe) -> tuple[JSON, JSON] | None:
        """(the reference's state, the implementation's) after the probe's steps, both
        played from the probe's table or deal, each on its own states."""
        if probe.table is not None:
            if table_problems(probe.table, ctx):
                return None
            want = got = table_state(probe.table, ctx.rs)
        else:
            request = deal_request(ctx, probe.deal)
            if request is None:
                return None
            players, round_no, order, extra = request
            draw = (probe.deal or {}).get("draw")  # SEAT-5: the deal's draw, if any
            try:
                want = {**deal_with_draw(self.ref, ctx.rj, players, round_no, order, draw),
                        **extra}
            except RefusedSetup:  # a shrunk probe whose draw no longer fits its table
                return None
            try:
                got = {**deal_with_draw(self.impl, ctx.rj, players, round_no, order, draw), **extra}
            except Exception:
                return None
            if compare_deal(ctx, want, got, None):
                return None
        for step in probe.steps:
            act = action_json(step, ctx.max_pip)
            try:
                want = self.ref.apply(ctx.rj, want, act)
            except Refused:
                return None
            try:
                got = self.impl.apply(ctx.rj, got, act)
            except Exception:
                return None
            if state_problems(ctx.rules, got) or differences(want, got, ctx.max_pip)[1]:
                return None  # the implementation parts from the rules before the question
        return want, got


def deal_request(ctx: Context, deal: dict[str, Any] | None
                 ) -> tuple[int, int, list[str], dict[str, Any]] | None:
    """(players, round, order, totals) of a deal, or None if it cannot be dealt."""
    assert deal is not None
    fx = Fixture(id="fuzz-probe", description="", clauses=(), source=(), path="<fuzz>",
                 line=None, table=None, deal=deal, steps=(), expect=())
    try:
        request = fx.deal_request(ctx.rs)
        ctx.rs.hand_size(request[0])
    except (FixtureError, ValueError):
        return None
    return request
