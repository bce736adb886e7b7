"""Session 53: a round's end reached by a move only the engine's own rules list.

fuzz's reference cannot follow such a move (its stand-in refuses it): it goes on from the
engine's state (steps._their_move), and where that state ends the round, nothing was asked
of it: no `score`, no match winners, no made-up tied totals. waybill's tie bug (MATCH-6,
tests/examples/perl/waybill_engine.pl) went unseen in the games at the last round whose
round ended so. What the hands left are worth and who wins on the totals are the known
rules' questions of that state, judged where the reference's answer reads no rule of
one's own (steps._their_end)."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from mtrain.conformance.adapter import JSON, ReferenceImplementation
from mtrain.conformance.fuzz import own_rules
from mtrain.conformance.fuzz.asking import Session
from mtrain.conformance.fuzz.results import GameResult
from mtrain.conformance.fuzz.rulesets import context, declared_context
from mtrain.conformance.fuzz.steps import Position, _their_move, play_step
from mtrain.reference import codec
from mtrain.reference.engine import OVER, legal_actions, perform
from mtrain.spec.notation import table_state

LAST_RELEASED = {"engine": 0, "seat": 0, "hands": {0: ["3-9"], 1: ["4-4"], 2: ["rest"]},
                 "trains": {0: ["0-6"], 1: ["0-7", "7-7"], 2: ["0-8"], "mexican": ["0-3"]},
                 "open_doubles": [1], "boneyard": [], "first_turns": []}
"""pagat's last round (engine [0-0], round 13 of 13): seat 0, holding only [3-9], cannot
cover the open [7-7] on train 1. Under `uncoverable_double: other` the stand-in has it
pass (DBL-6); its own rule may release the double and let it go out on the Mexican Train
(ending in 3), which ends the round and the match."""
OUT = {"type": "play", "tile": "3-9", "train": "mexican"}


class Releasing(ReferenceImplementation):
    """Carries out any move it is asked (the double released), the rest the reference's."""

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        st = self.state(ruleset, state)
        perform(st, codec.action_from_json(st, action))
        return codec.state_to_json(st)


class LastSeatTie(Releasing):
    """Of the seats level on the best total, names the highest alone (waybill's bug 3)."""

    def winners(self, ruleset: JSON, state: JSON) -> list[int]:
        seats = super().winners(ruleset, state)
        return seats[-1:]


class ScoresTwice(Releasing):
    """Its `score` of a round's end counts every hand twice."""

    def score(self, ruleset: JSON, state: JSON, winner: int | None) -> list[int]:
        return [2 * s for s in super().score(ruleset, state, winner)]


def _ended(impl: ReferenceImplementation, own: tuple[str, ...] = ("uncoverable_double",),
           totals: tuple[int, int, int] = (5, 7, 9)) -> GameResult:
    """The round ended by the released double's move, asked of `impl` under pagat with
    the options `own` played as rules of one's own."""
    base = context("pagat").rs
    ctx = declared_context(dataclasses.replace(base, name=f"own {'+'.join(own)}", choices=tuple(
        (o, "other" if o in own else v) for o, v in base.choices)))
    cur = table_state({**LAST_RELEASED, "scores": list(totals)}, ctx.rs)
    session = Session(impl)
    session.asker.begin(cur)
    pos = Position(ctx.name, codec.state_from_json(ctx.rules, cur), cur)
    legal, read = own_rules.on_state(ctx, pos.st, legal_actions)
    assert codec.action_from_json(pos.st, OUT) not in legal and read == ("uncoverable_double",)
    res = GameResult(0, ctx.name)
    assert _their_move(session, ctx, pos, res, [OUT], random.Random(0), read, (13, 1))
    assert pos.st.phase == OVER and res.cut is None  # its state is the round's end
    return res


def _only(res: GameResult, signature: str) -> Any:
    assert set(res.found) == {signature}, res.found
    return res.found[signature][1].disagreement


def test_the_winners_under_tied_totals_are_asked_of_an_end_only_its_own_rule_reached() -> None:
    """Made-up totals tied on the best (MATCH-4: pagat shares a tie) are asked of the
    engine's own end: the highest tied seat named alone is found, charged to the tie rule.
    Nothing was asked there before. Who wins reads the totals, not the move that ended the
    round (the reference refuses it): the finding is the finished table's, asked with no
    step (an "over" probe, a domino end the known rules reach), so it has a reproducer
    (session 54b; until then it was marked with the rule that reached the end, and had
    none)."""
    res = _ended(LastSeatTie())
    d = _only(res, "winners")
    probe = res.found["winners"][1].probe
    assert d.clauses[0] == "MATCH-4", d.clauses
    assert probe.kind == "over" and probe.table is not None and d.question == ()
    assert probe.table["phase"] == "over"
    assert d.own == () and d.no_reproducer is None
    assert len(d.expect["winners"]) > 1  # a tie, shared


def test_the_score_of_an_end_only_its_own_rule_reached_is_asked() -> None:
    """Seat 1's [4-4] is worth 8 and seat 0 went out: whatever released the double, the
    hands left are scored by SCORE-1 (pagat, penalty), and a `score` counting them twice is
    found."""
    d = _only(_ended(ScoresTwice()), "score (gone out)")
    assert d.own == ("uncoverable_double",) and d.no_reproducer is not None
    assert d.expect["result"]["scores"][:2] == [0, 8]


def test_an_honest_end_of_its_own_rules_gives_no_finding_and_its_winners_are_judged() -> None:
    res = _ended(Releasing())
    assert res.found == {}
    assert set(res.own) == {"uncoverable_double"}  # the move itself, counted


def test_winners_a_rule_of_its_own_decides_are_counted_not_judged() -> None:
    """With the tie rule its own too, who wins a tie is not the rules' to say: the tied
    totals are counted under it, and the tie named its own way is no finding (the real
    totals, 5, 15 and a great many, tie nobody: judged, and right)."""
    res = _ended(LastSeatTie(), own=("uncoverable_double", "tie_rule"))
    assert res.found == {}
    assert res.own.get("tie_rule", 0) > 0, res.own


def test_a_score_a_rule_of_its_own_decides_is_judged_against_its_own_result() -> None:
    """With its scoring its own too, what the hands left are worth is not the rules' to
    say, but whatever its rule counts, its `score` of the end it returned must give its own
    result's scores (fuzz58b, as conform asks: own_score.py): the hands counted twice in
    `score` alone are found, with no reproducer (no step of the reference reaches that end);
    an honest `score` is judged, and nothing found. (Before session 58b: no finding, the
    `score` counted as its scoring's.)"""
    own = ("uncoverable_double", "scoring")
    d = _only(_ended(ScoresTwice(), own=own), "score (against its own result)")
    assert d.no_reproducer is not None and "uncoverable_double" in d.own
    assert "but its own result on the same table scores [0, 8, " in d.messages[0], d.messages
    honest = _ended(Releasing(), own=own)
    assert honest.found == {} and honest.own_scores == 1


# --- a round's end whose step its own rule decided, its state not the stand-in's --------

LAST_MARKED_OUT = {"engine": 0, "seat": 0, "hands": {0: ["6-3"], 1: ["4-4"], 2: ["rest"]},
                   "trains": {0: ["0-6"], 1: ["0-7"], 2: ["0-8"], "mexican": ["0-11"]},
                   "marked": [0], "boneyard": [], "first_turns": []}
"""pagat's last round: seat 0 goes out on its own marked train, a step that reads the
marker rule (`marker_removal: other`); whatever becomes of the marker, the match is over."""


class OwnMarker(ReferenceImplementation):
    """Its marker rule its own: after a play on its own train the mover's marker is the
    other way round from the reference's (so its state is never the stand-in's)."""

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        out = super().apply(ruleset, state, action)
        trains = [dict(t) for t in out["trains"]]
        if action.get("train") == state["seat"]:
            mover = trains[state["seat"]]
            mover["marker"] = not mover.get("marker")
        return {**out, "trains": trains}


class OwnMarkerLastSeatTie(OwnMarker):
    def winners(self, ruleset: JSON, state: JSON) -> list[int]:
        return super().winners(ruleset, state)[-1:]


def _marked_out(impl: ReferenceImplementation) -> GameResult:
    base = context("pagat").rs
    ctx = declared_context(dataclasses.replace(base, name="own marker_removal", choices=tuple(
        (o, "other" if o == "marker_removal" else v) for o, v in base.choices)))
    cur = table_state({**LAST_MARKED_OUT, "scores": [5, 7, 9]}, ctx.rs)
    session = Session(impl)
    pos = Position(ctx.name, codec.state_from_json(ctx.rules, cur), cur)
    (act,) = legal_actions(pos.st)
    assert own_rules.step(ctx, pos.st, act, perform)[1] == ("marker_removal",)
    res = GameResult(0, ctx.name)
    assert play_step(session, ctx, pos, res, random.Random(0), 13, 1)
    assert pos.st.phase == OVER and res.cut is None
    return res


def test_the_winners_of_an_end_its_own_step_reached_are_asked_of_its_state() -> None:
    """Its end is not the stand-in's (the marker), so the winners were not asked, nor
    tied totals made up: both are now asked of its own end, and the highest tied seat
    named alone is found (MATCH-4), asked of the finished table (which no marker rule
    decides: who wins reads the totals), so with a reproducer (session 54b; until then
    marked with the marker rule, without one)."""
    res = _marked_out(OwnMarkerLastSeatTie())
    d = _only(res, "winners")
    assert d.clauses[0] == "MATCH-4" and d.own == (), d
    assert res.found["winners"][1].probe.kind == "over" and d.no_reproducer is None
    assert _marked_out(OwnMarker()).found == {}


# --- tied totals at the end of a round from a table only its own rules reach ----------

UNREACHED_LAST = {"engine": 0, "seat": 0, "hands": {0: ["3-9"], 1: ["4-4"], 2: ["rest"]},
                  "trains": {0: ["0-6"], 1: ["0-7"], 2: ["0-8"], "mexican": ["0-3"]},
                  "marked": [2], "passes": 1, "boneyard": ["5-5"], "first_turns": []}
"""pagat's last round, seat 0 going out on the Mexican Train (a move every rule allows),
after a pass counted with a tile in the boneyard: no round of the known rules gets there
(REACH-PASSES), one under a draw rule of one's own may."""


class TieToLast(ReferenceImplementation):
    def winners(self, ruleset: JSON, state: JSON) -> list[int]:
        return super().winners(ruleset, state)[-1:]


def _unreached_end(impl: ReferenceImplementation) -> GameResult:
    base = context("pagat").rs
    ctx = declared_context(dataclasses.replace(base, name="own draw_rule", choices=tuple(
        (o, "other" if o == "draw_rule" else v) for o, v in base.choices)))
    cur = table_state({**UNREACHED_LAST, "scores": [5, 7, 9]}, ctx.rs)
    pos = Position(ctx.name, codec.state_from_json(ctx.rules, cur), cur)
    assert own_rules.on_state(ctx, pos.st, legal_actions)[1] == ()  # the move is the rules'
    res = GameResult(0, ctx.name)
    assert play_step(Session(impl), ctx, pos, res, random.Random(0), 13, 1)
    assert pos.st.phase == OVER
    return res


def test_tied_totals_after_a_table_only_its_own_rules_reach_are_asked_of_the_end() -> None:
    """The made-up tied totals were asked from the table before the step, which no probe
    can start from (rejudge._start): they came to nothing. They are asked of the round's
    end itself, and the highest tied seat named alone is found. The end, unlike the table
    before it, is one the known rules reach (the pass no longer counted once a tile is
    laid): the finding is that finished table's, with a reproducer (session 54b; until
    then none, for REACH-PASSES of the table before)."""
    res = _unreached_end(TieToLast())
    d = _only(res, "winners")
    assert d.clauses[0] == "MATCH-4" and d.own == ()
    probe = res.found["winners"][1].probe
    assert probe.kind == "over" and probe.table is not None and d.no_reproducer is None
    assert probe.table["passes"] == 0
    assert _unreached_end(ReferenceImplementation()).found == {}
