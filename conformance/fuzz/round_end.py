"""The questions after a round's end, asked of the state a step left: what the round is
worth (`score`, of the round as dealt and of the heaviest hand its table allows) and
who wins the match (`winners`, and again under made-up tied totals); where rules of
one's own reached that end, judged as conform would, or marked with why no fixture can
ask it again (steps.py plays the step)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from mtrain.conformance.adapter import JSON
from mtrain.conformance.divergence import WORTH
from mtrain.conformance.fuzz import own_rules, scoring
from mtrain.conformance.fuzz.asking import UNSUPPORTED, Session, asked
from mtrain.conformance.fuzz.judge import (
    Disagreement,
    Probe,
    compare_winners,
    read_own,
    winners_now,
)
from mtrain.conformance.fuzz.possible import table_problems
from mtrain.conformance.fuzz.results import GameResult
from mtrain.conformance.fuzz.rulesets import Context, context
from mtrain.conformance.fuzz.tables import table_of
from mtrain.conformance.fuzz.totals import tied_totals
from mtrain.conformance.match_over import holds_match_over
from mtrain.reference import codec
from mtrain.reference.engine import OVER, State

TIE_PROBES = 2
"""Made-up tied totals tried on the last step of a match."""
BLANK_RULE = "blank_values"
"""The option whose values price a blank (SCORE-1..4): played its own way, the heaviest
hand keeps its blanks in the boneyard (`heaviest`)."""


def judge_score(session: Session, ctx: Context, res: GameResult, probe: Probe, after: JSON,
           round_no: int, step: int, n: int, read: Sequence[str],
           refused: str | None = None, mine: Any = None) -> None:
    """The implementation's `score` of the round the reference ended (`after`), judged
    where the reference's scoring reads no rule of one's own; marked with those the step
    and its legality `read` that keep conform from running its reproducer, and with
    `refused`, why there is none, where the reference refuses the step (steps._their_end).
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
    read, and why there is no reproducer (judge_score)."""
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


def judge_heavy_score(session: Session, res: GameResult, variant: str, st: State, text: str,
                      after: JSON, round_no: int, step: int, n: int) -> None:
    """The same round's end with the heaviest hand its table allows: every tile off the
    trains in one seat's hand (`heaviest`). A hand's pips reach a few hundred
    only where a seat drew that much, which random rounds seldom leave at their end (an
    engine summing a hand in eight bits, gantry's bug 1, met no hand of 256 pips in 60
    games), though any count of draws is a round the rules allow; its `score` is judged
    as the round's end's (a "score" probe, rejudge.py), on a table every probe may start
    from (possible.table_problems)."""
    if not scoring.asks_scores(session.impl) or scoring.end_of(after) is None:
        return
    table = heaviest(table_of(codec.state_to_json(st)), st.seat,
                     blanks=BLANK_RULE not in context(variant).unknown)
    if table is None or table_problems(table, context(variant)):
        return
    probe = Probe("score", variant, table, action=text)
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


def judge_winners(session: Session, ctx: Context, res: GameResult, probe: Probe, nxt: State,
             final: JSON, round_no: int, step: int, n: int, rng: random.Random,
             mark: tuple[tuple[str, ...], str] | None = None) -> None:
    """The match winners after a round: none while rounds are to come (MATCH-1), and
    after the last one again under made-up tied totals (the totals never change how a
    round is played: the same last step tests MATCH-4, 5), with the totals that step
    leaves tied (MATCH-1: each the sum of the round scores, whatever breaks the tie).
    `mark`: a round's end only rules of one's own reached (steps._their_end), whose tied
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
            mark = (priced[1], own_end_reason(probe.action, priced[1]))
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
        _, cur = canonical(ctx, final)
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


def _unreached(text: str, ctx: Context, why: str) -> str:
    """Why a finding at a round's end after `text` from a table only rules of one's own
    reach (a state an earlier step of theirs left: `why`, the first condition it breaks)
    has no reproducer. Its made-up tied totals were judged on that table and came to
    nothing there (tender's, marshal's every one in 12 games, seed 1): they are asked
    of the end itself (_tied_end)."""
    return (f"the table before `{text}` is one only its own rules "
            f"({', '.join(sorted(ctx.unknown))}) reach ({why.rsplit(']: ', 1)[-1]}), so no "
            "fixture can start there")


def own_end_reason(text: str, own: Sequence[str]) -> str:
    """Why a finding at a round's end its own rules decided has no reproducer."""
    return (f"its own rules ({', '.join(own)}) decided the step `{text}` that ended the "
            "round, so no fixture can ask of the end it reached")


def canonical(ctx: Context, state: JSON) -> tuple[State, JSON]:
    st = codec.state_from_json(ctx.rules, state)
    return st, codec.state_to_json(st)
