"""`mtrain fuzz`: random games against the reference engine, disagreements shrunk to fixtures.

The reference engine plays random games. At every step the implementation under test is
asked the same questions and its answers are compared with the reference's: the deal,
the set of legal actions, the state after the action the reference picked (the round's
result included), the refusal of a couple of illegal actions, and the match winners after
a last round. Games start at a random round (with made-up running totals) and sometimes
go on into the next one, so later rounds, the carried totals and the match's end are
reached without playing whole matches.

The first disagreement is shrunk: the table just before it is cut down (fewer players,
shorter trains, smaller hands, a shorter written boneyard; every tile taken off the table
goes to one `rest` place) for as long as the table stays possible and the implementation
still disagrees, within a time limit. The result is written as a fixture that
`mtrain conform --fixtures FILE` runs. Its expected values come from the reference engine,
so it is a regression reproducer (source: computation) and says so in its note; the
hand-written corpus remains the authority on the rules.

    mtrain fuzz --mutant NAME --games 200 --seed 1
    mtrain fuzz --impl 'python my_engine.py' --variant pagat --variant puremco+blanks-25
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import functools
import math
import multiprocessing
import multiprocessing.util
import os
import random
import re
import shlex
import signal
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from mtrain.reference import codec
from mtrain.reference.deal import deal as reference_deal
from mtrain.reference.deal import deal_pool
from mtrain.reference.engine import (
    DRAW,
    END_CHAIN,
    OVER,
    PASS,
    PLAY,
    Action,
    State,
    duties,
    engine_number,
    legal_actions,
    perform,
    refusal,
)
from mtrain.reference.invariants import violations
from mtrain.reference.rules import FOLLOW_ANYWHERE, FOLLOW_RESTRICTED, Rules
from mtrain.spec import tiles as T
from mtrain.spec.catalog import RulesetError, catalog
from mtrain.spec.ruleset import Ruleset
from mtrain.spec.yamlload import SpecError, SpecErrors

from .adapter import JSON, Implementation, ReferenceImplementation, Refused, ruleset_json
from .fixture import (
    MEXICAN,
    REST,
    Fixture,
    FixtureError,
    action_json,
    action_text,
    load_file,
    max_pip_of,
    table_state,
)
from .lint import MAX_DESCRIPTION, check_start
from .process import ConfigurationError, HarnessError, kill_all, stoppable
from .reachable import reachable_problems
from .runner import compare_field, compare_result, run_fixture, state_view

DEFAULT_OUT = "fuzz-out"
REFUSAL_PROBES = 2
"""Illegal actions offered to the implementation at every step."""
TIE_PROBES = 2
"""Made-up tied totals tried on the last step of a match."""


# --- rule sets -----------------------------------------------------------------------


@dataclass(frozen=True)
class Context:
    """One rule set, in every form the fuzzer needs."""

    name: str
    rs: Ruleset
    rules: Rules
    rj: JSON
    max_pip: int


@functools.cache
def context(variant: str) -> Context:
    """The rule set `variant` names (a variant, or base+overlay+...)."""
    rs = catalog().ruleset(variant)
    return Context(rs.name, rs, Rules.of(rs), ruleset_json(rs), max_pip_of(rs))


# --- the implementation under test -----------------------------------------------------


@dataclass(frozen=True)
class Target:
    """How to build the implementation under test, again in every worker process.

    kind: "mutant" (a name in conformance.mutants), "impl" (a command speaking the
    protocol), "adapter" (MODULE:OBJECT, as for conform),
    "reference", or "object" (an instance handed in: not rebuildable, so no --jobs).
    """

    kind: str
    value: str = ""
    label: str = ""
    instance: Any = field(default=None, compare=False, repr=False)
    timeout: float | None = None  # per request, for --impl and --adapter

    @staticmethod
    def of(impl: Implementation, label: str) -> Target:
        return Target("object", "", label, impl)

    @property
    def rebuildable(self) -> bool:
        return self.kind != "object"

    def make(self) -> Implementation:
        if self.kind == "object":
            impl: Implementation = self.instance
            return impl
        if self.kind == "reference":
            return ReferenceImplementation()
        if self.kind == "mutant":
            from .mutants import mutant

            made: Implementation = mutant(self.value)
            return made
        return load_implementation(self.kind, self.value, self.timeout)

    def commands(self, path: Path) -> list[str]:
        """Commands that run a reproducer against this implementation (and the reference)."""
        file = shlex.quote(str(path))
        reference = f"mtrain conform --fixtures {file}"
        if self.kind == "mutant":
            return [f"{reference}  # the reference engine: passes",
                    f"python -m mtrain.conformance.mutants {file} -m {shlex.quote(self.value)}"
                    "  # the mutant: killed"]
        if self.kind in ("impl", "adapter"):
            return [f"{reference} --{self.kind} {shlex.quote(self.value)}"]
        return [reference]


def load_implementation(kind: str, value: str, timeout: float | None = None) -> Implementation:
    """An implementation from --impl COMMAND or --adapter MODULE:OBJECT, built the way
    `mtrain conform` builds it (its loader, time limit and error messages)."""
    from .conform import DEFAULT_TIMEOUT, target_of

    args = argparse.Namespace(impl=value if kind == "impl" else None,
                              adapter=value if kind == "adapter" else None,
                              timeout=timeout or DEFAULT_TIMEOUT)
    return target_of(args).make()


def close_implementation(impl: Implementation) -> None:
    close = getattr(impl, "close", None)
    if callable(close):
        close()


# --- what is compared ----------------------------------------------------------------


@dataclass
class Probe:
    """One question put to both engines: the situation, and what is asked about it.

    kind: "deal" (the state dealt from `deal`), "legal" (the legal actions in `table`),
    "apply" (the state after `action`), "refused" (`action` must be refused, by `clause`),
    "winners" (the match winners after `action` ends the last round).
    """

    kind: str
    variant: str
    table: dict[str, Any] | None = None
    deal: dict[str, Any] | None = None
    action: str | None = None
    clause: str | None = None


@dataclass
class Verdict:
    """A disagreement: what the fixture expects (the reference's answer) and what differs."""

    steps: list[str]
    expect: dict[str, Any]
    messages: list[str]
    clauses: list[str]


@dataclass
class Finding:
    probe: Probe
    game: int
    round: int
    step: int  # 0: the deal
    players: int
    messages: list[str]


class Judge:
    """Puts a Probe to the implementation and to the reference; a Verdict when they differ."""

    def __init__(self, impl: Implementation) -> None:
        self.impl = impl
        self.ref = ReferenceImplementation()

    def judge(self, probe: Probe) -> Verdict | None:
        ctx = context(probe.variant)
        if probe.kind == "deal":
            return self._deal(ctx, probe)
        assert probe.table is not None
        state = possible_state(probe.table, ctx)
        if state is None:
            return None
        try:
            if probe.kind == "legal":
                return self._legal(ctx, state)
            assert probe.action is not None
            if probe.kind == "refused":
                return self._refused(ctx, state, probe.action, probe.clause)
            return self._apply(ctx, state, probe.action, probe.kind == "winners")
        except Refused:
            return None  # the reference refuses: not a question for this table

    def _deal(self, ctx: Context, probe: Probe) -> Verdict | None:
        assert probe.deal is not None
        fx = Fixture(id="fuzz-probe-000", description="", clauses=(), source=(), path="<fuzz>",
                     line=None, table=None, deal=probe.deal, steps=(), expect=())
        try:
            players, round_no, order, extra = fx.deal_request(ctx.rs)
            ctx.rs.hand_size(players)
            want = {**self.ref.deal(ctx.rj, players, round_no, order), **extra}
        except (FixtureError, ValueError):
            return None
        try:
            got: Any = {**self.impl.deal(ctx.rj, players, round_no, order), **extra}
        except Exception as e:
            got = None
            messages = [f"deal failed: {_error(e)}"]
        expect, diffs = differences(want, got, ctx.max_pip)
        if got is not None:
            messages = diffs
        if not messages:
            return None
        return Verdict([], expect, messages, clauses_for(ctx, probe, None, expect))

    def _legal(self, ctx: Context, state: JSON) -> Verdict | None:
        want = {action_text(a) for a in self.ref.legal(ctx.rj, state)}
        try:
            got = {action_text(a) for a in self.impl.legal(ctx.rj, state)}
        except Exception as e:
            return Verdict([], {"legal": sorted(want)}, [f"legal() failed: {_error(e)}"],
                           clauses_for(ctx, Probe("legal", ctx.name), state, {}))
        if got == want:
            return None
        messages = []
        if want - got:
            messages.append("legal actions missing: " + ", ".join(sorted(want - got)))
        if got - want:
            messages.append("legal actions not allowed by the rules: "
                            + ", ".join(sorted(got - want)))
        return Verdict([], {"legal": sorted(want)}, messages,
                       clauses_for(ctx, Probe("legal", ctx.name), state, {}))

    def _refused(self, ctx: Context, state: JSON, text: str,
                 clause: str | None) -> Verdict | None:
        act = action_json(text, ctx.max_pip)
        try:
            self.ref.apply(ctx.rj, state, act)
            return None  # legal under the reference
        except Refused as e:
            want = e.clause or "TURN-7"
        if clause is not None and want != clause:
            return None  # refused for another reason than the one being chased
        try:
            self.impl.apply(ctx.rj, state, act)
            message = f"`{text}` was accepted; the reference refuses it ({want})"
        except Refused as e:
            if e.clause is None or e.clause == want:
                return None
            message = f"`{text}` refused by {e.clause}, the reference says {want}"
        except Exception as e:
            message = f"`{text}` failed: {_error(e)}"
        probe = Probe("refused", ctx.name, clause=want)
        return Verdict([], {"refused": {text: want}}, [message],
                       clauses_for(ctx, probe, state, {}))

    def _apply(self, ctx: Context, state: JSON, text: str, winners: bool) -> Verdict | None:
        act = action_json(text, ctx.max_pip)
        if text not in {action_text(a) for a in self.ref.legal(ctx.rj, state)}:
            return None
        after = self.ref.apply(ctx.rj, state, act)
        if winners and not (after["phase"] == OVER and after["round"] == ctx.rules.rounds):
            return None
        got: Any = None
        try:
            got = self.impl.apply(ctx.rj, state, act)
            failed = ""
        except Refused as e:
            failed = f"`{text}` was refused: {e.reason}" + (f" [{e.clause}]" if e.clause else "")
        except Exception as e:
            failed = f"`{text}` failed: {_error(e)}"
        probe = Probe("winners" if winners else "apply", ctx.name, action=text)
        if winners:
            want = sorted(self.ref.winners(ctx.rj, after))
            if not failed:
                try:
                    found = sorted(self.impl.winners(ctx.rj, got))
                except Exception as e:
                    failed = f"winners() failed: {_error(e)}"
                else:
                    if found == want:
                        return None
                    failed = f"winners: reference {want}, implementation {found}"
            return Verdict([text], {"winners": want}, [failed],
                           clauses_for(ctx, probe, state, {}))
        if failed:
            expect, _ = differences(after, state, ctx.max_pip)  # what the action changes
            return Verdict([text], expect or {"result": after["result"]}, [failed],
                           clauses_for(ctx, probe, state, expect))
        expect, messages = differences(after, got, ctx.max_pip)
        if not messages:
            return None
        return Verdict([text], expect, messages, clauses_for(ctx, probe, state, expect))


def _error(e: BaseException) -> str:
    return f"{type(e).__name__}: {e}"


def possible_state(table: dict[str, Any], ctx: Context) -> JSON | None:
    """The canonical state of `table`, or None when the table cannot exist (or is over)."""
    try:
        state = table_state(table, ctx.rs)
        st = codec.state_from_json(ctx.rules, state)
    except (FixtureError, codec.StateError, T.TileError):
        return None
    if st.phase == OVER or violations(st) or not all(st.hands):
        return None
    if reachable_problems(state, ctx.rs):  # a reproducer must be a table the rules reach
        return None
    return state


STATE_FIELDS = ("engine", "engine_placed", "phase", "seat", "starter", "hands", "trains",
                "marked", "boneyard", "open_doubles", "turn_doubles", "first_turns", "drawn",
                "passes", "scores", "outs")


def differences(want: JSON, got: Any, max_pip: int) -> tuple[dict[str, Any], list[str]]:
    """The expectation (the reference's values where `got` differs) and the differences.

    Fields are compared as a fixture's `state` compares them (runner.state_view), so a
    difference found here is one a fixture can state.
    """
    ref = state_view(want)
    try:
        view = state_view(got)
    except Exception as e:
        bad: dict[str, Any] = {"state": {"seat": want["seat"], "phase": want["phase"],
                                         "hand_sizes": ref["hand_sizes"]}}
        return bad, [f"the implementation's state is malformed: {_error(e)}"]
    state: dict[str, Any] = {}
    for key in STATE_FIELDS:
        if key == "hands":
            seats = [s for s in ref["hands"] if view["hands"].get(s) != ref["hands"][s]]
            if seats:
                state["hands"] = {s: list(want["hands"][s]) for s in seats}
            if len(view["hands"]) != len(ref["hands"]):
                state["hand_sizes"] = ref["hand_sizes"]
        elif key == "trains":
            trains = [k for k in ref["trains"] if view["trains"].get(k) != ref["trains"][k]]
            if trains:
                state["trains"] = {k: list(_train_json(want, k)["tiles"]) for k in trains}
        elif view.get(key) != ref[key]:
            if key == "boneyard":
                if len(view["boneyard"]) != len(ref["boneyard"]):
                    state["boneyard_size"] = ref["boneyard_size"]
                else:
                    state["boneyard"] = list(want["boneyard"])
            elif key in ("marked", "first_turns"):
                state[key] = ref[key]
            else:
                state[key] = want[key]
    messages = [m for k, v in state.items() for m in compare_field(k, v, view, max_pip)]
    expect: dict[str, Any] = {"state": state} if state else {}
    result = compare_result(want.get("result"), got.get("result"))
    if result:
        expect["result"] = want.get("result")
        messages += result
    return expect, messages


def _train_json(state: JSON, key: int | str) -> JSON:
    train: JSON = state["mexican"] if key == MEXICAN else state["trains"][int(key)]
    return train


# --- clauses a reproducer exercises --------------------------------------------------


def clauses_for(ctx: Context, probe: Probe, state: JSON | None,
                expect: dict[str, Any]) -> list[str]:
    """The clauses a generated fixture names: a best guess from the situation."""
    r = ctx.rules
    out: list[str] = []
    if probe.kind == "deal":
        out = ["DEAL-1", "ENG-1", "ENG-3" if r.holder_lays else "ENG-2",
               "SEAT-2" if r.engine_holder_starts else "SEAT-3"]
    elif probe.kind == "refused":
        out = [probe.clause or "TURN-7"]
    elif probe.kind == "winners":
        out = ["MATCH-1", "MATCH-3" if r.positive_scoring else "MATCH-2", "MATCH-4"]
        if r.tie_most_outs:
            out.append("MATCH-5")
    elif state is not None:
        st = codec.state_from_json(r, state)
        follow = {FOLLOW_ANYWHERE: "DBL-2", FOLLOW_RESTRICTED: "DBL-3"}.get(r.follow, "DBL-4")
        phase_clauses = {"engine": ["ENG-4"], "chain": ["FIRST-1", "FIRST-2"],
                         "follow": ["DBL-1", follow]}
        out += phase_clauses.get(st.phase, [])
        if duties(st):
            out += ["DBL-6", "DBL-7" if r.oldest_first else "DBL-8"]
        if st.drawn >= 0:
            out.append("TURN-5" if r.draw_until_playable else "TURN-3")
        if probe.kind == "legal":
            out += ["TURN-1", "TRAIN-4"]
        elif probe.action is not None:
            out += _action_clauses(ctx, st, probe.action, expect)
    known = catalog().clauses
    unique = list(dict.fromkeys(c for c in out if c in known))
    return unique or ["TURN-1"]


def _action_clauses(ctx: Context, st: State, text: str, expect: dict[str, Any]) -> list[str]:
    r = ctx.rules
    act = codec.action_from_json(st, action_json(text, ctx.max_pip))
    fields = set(expect.get("state", {}))
    out: list[str] = []
    if act.kind == "play":
        out.append("TRAIN-2")
        if act.train in st.open_doubles:
            out.append("TRAIN-3")
        if T.IS_DOUBLE[act.tile]:
            out.append("DBL-1")
        if "marked" in fields:
            out.append(("MARK-3", "MARK-4", "MARK-5")[r.marker_rule])
        if "seat" in fields or "phase" in fields:
            out.append("TURN-6")
    elif act.kind == "draw":
        out.append("ENG-4" if st.phase == "engine" else "TURN-2")
    elif act.kind == "pass":
        out += ["TURN-4", "MARK-1"]
    else:
        out.append("FIRST-1")
    if "result" in expect:
        result = expect["result"] or {}
        if result.get("end") == "domino":
            out.append("END-1")
        elif result.get("end") == "blocked":
            out.append("END-3" if r.passes_end_round else "END-2")
        out.append("SCORE-6" if r.positive_scoring else "SCORE-5")
    if "first_turns" in fields:
        out.append("FIRST-6")
    return out


# --- playing random games ----------------------------------------------------------


@dataclass(frozen=True)
class GamePlan:
    index: int
    variant: str
    players: int
    first_round: int
    rounds: int
    seed: int


def game_seed(seed: int, index: int) -> int:
    return seed * 1_000_003 + index


def plan_game(index: int, seed: int, variants: Sequence[str],
              players: int | None = None) -> GamePlan:
    """Game `index` of a run: its rule set, table size and rounds, all from the seed.

    A third of the games start at round 1, a quarter at the last round (where the match
    winners are compared), the rest in between; a quarter go on into the next round.
    """
    s = game_seed(seed, index)
    rng = random.Random(s)
    variant = variants[index % len(variants)]
    ctx = context(variant)
    n = players if players is not None else rng.choice(ctx.rs.player_counts)
    last = ctx.rules.rounds
    x = rng.random()
    first = 1 if x < 0.33 else last if x < 0.58 else rng.randint(1, last)
    rounds = 2 if first < last and rng.random() < 0.25 else 1
    return GamePlan(index, variant, n, first, rounds, s)


@dataclass
class GameResult:
    index: int
    steps: int = 0
    rounds: int = 0
    finding: Finding | None = None
    warnings: list[str] = field(default_factory=list)
    skipped: bool = False
    failures: list[str] = field(default_factory=list)  # crashes and hangs, while playing


def prior_totals(rules: Rules, players: int, rounds: int,
                 rng: random.Random) -> tuple[list[int], list[int]]:
    """Made-up running totals after `rounds` earlier rounds (ties made likely)."""
    scores, outs = [0] * players, [0] * players
    for _ in range(rounds):
        winner = rng.randrange(players) if rng.random() < 0.85 else -1
        if winner >= 0:
            outs[winner] += 1
        for s in range(players):
            if rules.positive_scoring:
                scores[s] += rng.randrange(10, 120) if s == winner else 0
            elif s != winner:
                scores[s] += rng.randrange(0, 60)
    if players > 1 and rng.random() < 0.5:
        a, b = rng.sample(range(players), 2)
        scores[b] = scores[a]  # MATCH-4, MATCH-5: ties need equal totals
    return scores, outs


def tied_totals(rules: Rules, round_scores: list[int],
                rng: random.Random) -> tuple[list[int], list[int]]:
    """Totals before a last round whose scores are `round_scores`, chosen so that two or
    more seats end the match tied on the best total; and rounds won, often tied too."""
    n = len(round_scores)
    tied = rng.sample(range(n), 2 if n == 2 or rng.random() < 0.7 else 3)
    top = max(round_scores) + rng.randrange(0, 100)
    final = []
    for s, r in enumerate(round_scores):
        if s in tied:
            final.append(top)
        elif rules.positive_scoring:
            final.append(r + rng.randrange(0, max(1, top - r)))
        else:
            final.append(top + 1 + rng.randrange(0, 50))
    outs = [0] * n
    for _ in range(rules.rounds - 1):
        if rng.random() < 0.8:
            outs[rng.choice(tied) if rng.random() < 0.6 else rng.randrange(n)] += 1
    if rng.random() < 0.4:
        outs[tied[1]] = outs[tied[0]]
    return [f - r for f, r in zip(final, round_scores, strict=True)], outs


def illegal_sample(st: State, legal: Sequence[Action], rng: random.Random,
                   k: int = REFUSAL_PROBES) -> list[Action]:
    """A few illegal actions: mostly plausible ones (a held tile that matches a train)."""
    legal_set = set(legal)
    near: list[Action] = [a for a in (DRAW, PASS, END_CHAIN) if a not in legal_set]
    far: list[Action] = []
    for t in T.tiles_of(st.hands[st.seat]):
        for train in range(st.players + 1):
            a = PLAY[train][t]
            if a not in legal_set:
                (near if T.OTHER_END[t][st.ends[train]] >= 0 else far).append(a)
    out: list[Action] = []
    if near:
        out.append(near[rng.randrange(len(near))])
    pool = [a for a in near + far if a not in out]
    while pool and len(out) < k:
        out.append(pool.pop(rng.randrange(len(pool))))
    return out


def play_game(impl: Implementation, plan: GamePlan, judge: Judge | None = None) -> GameResult:
    """Play one game with the reference, asking the implementation at every step."""
    judge = judge or Judge(impl)
    ctx = context(plan.variant)
    rules, rj, n = ctx.rules, ctx.rj, plan.players
    rng = random.Random(plan.seed + 1)
    res = GameResult(plan.index)
    scores, outs = prior_totals(rules, n, plan.first_round - 1, rng)

    def found(probe: Probe, round_no: int, step: int, quiet: bool = False) -> bool:
        verdict = judge.judge(probe)
        if verdict is None:
            if quiet:
                return False
            res.warnings.append(f"game {plan.index} round {round_no} step {step}: the "
                                f"implementation's answer ({probe.kind}) differs from the "
                                "reference only in its JSON form, or not repeatably")
            return False
        res.finding = Finding(probe, plan.index, round_no, step, n, verdict.messages)
        return True

    for round_no in range(plan.first_round, plan.first_round + plan.rounds):
        pool = deal_pool(rules, round_no)
        rng.shuffle(pool)
        order = [T.name(t) for t in pool]
        st = reference_deal(rules, n, round_no, order=pool, scores=scores, outs=outs)
        cur = codec.state_to_json(st)
        try:
            dealt: Any = {**impl.deal(rj, n, round_no, order), "scores": scores, "outs": outs}
        except Exception:
            dealt = None
        if dealt != cur:
            deal = {"players": n, "engine": engine_number(rules, round_no), "order": order,
                    "scores": list(scores), "outs": list(outs)}
            if found(Probe("deal", plan.variant, deal=deal), round_no, 0):
                return res
        step = 0
        while st.phase != OVER:
            step += 1
            res.steps += 1
            legal = legal_actions(st)
            texts = [action_text(codec.action_to_json(st, a)) for a in legal]
            try:
                got: Any = {action_text(a) for a in impl.legal(rj, cur)}
            except Exception:
                got = None
            if got != set(texts) and found(Probe("legal", plan.variant, table_of(cur)),
                                           round_no, step):
                return res
            for bad in illegal_sample(st, legal, rng):
                clause = refusal(st, bad).clause
                text = action_text(codec.action_to_json(st, bad))
                try:
                    impl.apply(rj, cur, codec.action_to_json(st, bad))
                    agree = False
                except Refused as e:
                    agree = e.clause is None or e.clause == clause
                except Exception:
                    agree = False
                if not agree:
                    probe = Probe("refused", plan.variant, table_of(cur), action=text,
                                  clause=clause)
                    if found(probe, round_no, step):
                        return res
            k = rng.randrange(len(legal))
            nxt = st.copy()
            perform(nxt, legal[k])
            after = codec.state_to_json(nxt)
            try:
                got = impl.apply(rj, cur, codec.action_to_json(st, legal[k]))
            except Exception:
                got = None
            if got != after:
                probe = Probe("apply", plan.variant, table_of(cur), action=texts[k])
                if found(probe, round_no, step):
                    return res
            elif nxt.phase == OVER and nxt.round == rules.rounds:
                try:
                    same = sorted(impl.winners(rj, got)) == sorted(judge.ref.winners(rj, after))
                except Exception:
                    same = False
                if not same:
                    probe = Probe("winners", plan.variant, table_of(cur), action=texts[k])
                    if found(probe, round_no, step):
                        return res
                # the totals never change how a round is played: the same last step
                # under made-up totals that tie at the top tests the tie rules (MATCH-4, 5)
                assert nxt.result is not None
                for _ in range(TIE_PROBES):
                    table = table_of(cur)
                    table["scores"], table["outs"] = tied_totals(
                        rules, list(nxt.result.scores), rng)
                    probe = Probe("winners", plan.variant, table, action=texts[k])
                    if found(probe, round_no, step, quiet=True):
                        return res
            st, cur = nxt, after
        res.rounds += 1
        scores, outs = list(st.scores), list(st.outs)
    return res


# --- tables in fixture notation -------------------------------------------------------


def table_of(state: JSON) -> dict[str, Any]:
    """The fixture table of a canonical state, every tile written out."""
    trains: dict[Any, list[str]] = {s: list(t["tiles"]) for s, t in enumerate(state["trains"])
                                    if t["tiles"]}
    if state["mexican"]["tiles"]:
        trains[MEXICAN] = list(state["mexican"]["tiles"])
    return {
        "engine": state["engine"],
        "seat": state["seat"],
        "starter": state["starter"],
        "phase": state["phase"],
        "hands": {s: list(h) for s, h in enumerate(state["hands"])},
        "trains": trains,
        "marked": [s for s, t in enumerate(state["trains"]) if t.get("marker")],
        "boneyard": list(state["boneyard"]),
        "open_doubles": list(state["open_doubles"]),
        "turn_doubles": list(state["turn_doubles"]),
        "first_turns": sorted(state["first_turns"]),
        "drawn": state.get("drawn"),
        "passes": state["passes"],
        "scores": list(state["scores"]),
        "outs": list(state["outs"]),
    }


def _is_double(text: str) -> bool:
    a, b = text.split("-")
    return a == b


def default_open(table: dict[str, Any]) -> list[int | str]:
    n = len(table["hands"])
    trains = table.get("trains") or {}
    return [k for k in [*range(n), MEXICAN] if trains.get(k) and _is_double(trains[k][-1])]


def compact(table: dict[str, Any], ctx: Context) -> dict[str, Any]:
    """The table with every key left out that says what the default says."""
    n = len(table["hands"])
    seat = table.get("seat", 0)
    out: dict[str, Any] = {}
    if table.get("engine", ctx.max_pip) != ctx.max_pip:
        out["engine"] = table["engine"]
    if seat:
        out["seat"] = seat
    if table.get("starter", seat) != seat:
        out["starter"] = table["starter"]
    if table.get("phase", "start") != "start":
        out["phase"] = table["phase"]
    out["hands"] = {s: list(table["hands"][s]) for s in range(n)}
    trains = table.get("trains") or {}
    if trains:
        out["trains"] = {k: list(trains[k]) for k in [*range(n), MEXICAN] if trains.get(k)}
    if table.get("marked"):
        out["marked"] = sorted(table["marked"])
    if table.get("boneyard", [REST]) != [REST]:
        out["boneyard"] = list(table["boneyard"])
    if table.get("open_doubles", default_open(table)) != default_open(table):
        out["open_doubles"] = list(table["open_doubles"])
    if table.get("turn_doubles"):
        out["turn_doubles"] = list(table["turn_doubles"])
    first = table.get("first_turns") or []
    if first:
        out["first_turns"] = "all" if sorted(first) == list(range(n)) and n > 1 else first
    if table.get("drawn") is not None:
        out["drawn"] = table["drawn"]
    if table.get("passes"):
        out["passes"] = table["passes"]
    for key in ("scores", "outs"):
        if any(table.get(key) or []):
            out[key] = list(table[key])
    return out


def written(probe: Probe) -> int:
    """How much a reproducer writes out: tiles and seats."""
    if probe.table is None:
        return 0
    t = probe.table
    tiles = sum(len([x for x in h or [] if x != REST]) for h in t["hands"].values())
    tiles += sum(len(v or []) for v in (t.get("trains") or {}).values())
    tiles += len([x for x in t.get("boneyard", []) if x != REST])
    return tiles + len(t["hands"])


# --- shrinking ---------------------------------------------------------------------


class Shrinker:
    """Cuts a disagreeing table down while the disagreement stays (delta debugging).

    Tiles taken off the table go to the one `rest` place: the boneyard's tail when the
    boneyard holds tiles, else the hand of a seat that is not to move. Every candidate
    must be a possible table (lint's check) and must still disagree.
    """

    def __init__(self, judge: Judge, probe: Probe, seconds: float) -> None:
        self.judge = judge
        self.best = probe
        verdict = judge.judge(probe)
        if verdict is None:
            raise ValueError("the probe does not disagree")
        self.verdict = verdict
        self.deadline = time.monotonic() + seconds
        self.tries = 0
        self.kept = 0

    @property
    def expired(self) -> bool:
        return time.monotonic() > self.deadline

    def attempt(self, candidate: Probe) -> bool:
        if self.expired:
            return False
        self.tries += 1
        verdict = self.judge.judge(candidate)
        if verdict is None:
            return False
        self.best, self.verdict = candidate, verdict
        self.kept += 1
        return True

    def run(self) -> Probe:
        if self.best.kind == "deal":
            self._deal()
            return self.best
        self._place_rest()
        changed = True
        while changed and not self.expired:
            changed = False
            for step in (self._seats, self._trains, self._hands, self._boneyard, self._extras):
                changed = step() or changed
        return self.best

    def _with(self, table: dict[str, Any], action: str | None = None) -> Probe:
        p = copy.copy(self.best)
        p.table = table
        if action is not None:
            p.action = action
        return p

    def _table(self) -> dict[str, Any]:
        assert self.best.table is not None
        return copy.deepcopy(self.best.table)

    def _place_rest(self) -> None:
        t = self._table()
        if t["boneyard"]:
            t["boneyard"] = [*t["boneyard"], REST]
        else:
            others = [s for s in t["hands"] if s != t["seat"]]
            if not others:
                return
            k = max(others, key=lambda s: len(t["hands"][s]))
            t["hands"][k] = [*t["hands"][k], REST]
        self.attempt(self._with(t))

    def _rest_seat(self) -> int | None:
        assert self.best.table is not None
        return next((s for s, h in self.best.table["hands"].items() if REST in (h or [])), None)

    def _seats(self) -> bool:
        changed = False
        ctx = context(self.best.variant)
        fewest = min(ctx.rs.player_counts)
        for s in sorted(self._table()["hands"], reverse=True):
            t = self._table()
            n = len(t["hands"])
            if n - 1 < fewest:
                break
            if s in (t["seat"], t["starter"], self._rest_seat()) or s not in t["hands"]:
                continue
            action = self.best.action
            if action is not None and action.endswith(f" on {s}"):
                continue
            if action is not None:
                m = re.match(r"^(play \S+ on )(\d+)$", action)
                if m and int(m.group(2)) > s:
                    action = f"{m.group(1)}{int(m.group(2)) - 1}"
            changed = self.attempt(self._with(drop_seat(t, s), action)) or changed
        return changed

    def _trains(self) -> bool:
        changed = False
        ctx = context(self.best.variant)
        for key in list(self._table().get("trains") or {}):
            shorter = reroute(self._table(), key, ctx.max_pip)
            if shorter is not None:
                changed = self.attempt(self._with(shorter)) or changed
            while not self.expired:
                tiles = (self._table().get("trains") or {}).get(key) or []
                cut = len(tiles)
                progressed = False
                while cut >= 1:
                    if self.attempt(self._with(cut_train(self._table(), key, cut))):
                        progressed = changed = True
                        break
                    cut //= 2
                if not progressed:
                    break
        return changed

    def _hands(self) -> bool:
        changed = False
        for s in list(self._table()["hands"]):
            t = self._table()
            hand = t["hands"][s] or []
            keep = [x for x in hand if x == REST or x == t.get("drawn")]
            items = [x for x in hand if x not in keep]

            def build(kept: list[str], s: int = s, keep: list[str] = keep) -> Probe:
                nt = self._table()
                nt["hands"][s] = kept + keep
                return self._with(nt)

            changed = self._ddmin(items, build) or changed
        return changed

    def _boneyard(self) -> bool:
        t = self._table()
        bone = t.get("boneyard") or []
        rest = [REST] if REST in bone else []
        items = [x for x in bone if x != REST]

        def build(kept: list[str]) -> Probe:
            nt = self._table()
            nt["boneyard"] = kept + rest
            return self._with(nt)

        return self._ddmin(items, build)

    def _extras(self) -> bool:
        changed = False
        t = self._table()
        for s in list(t.get("marked") or []):
            nt = self._table()
            nt["marked"] = [x for x in nt["marked"] if x != s]
            changed = self.attempt(self._with(nt)) or changed
        if self._table()["starter"] != self._table()["seat"]:
            nt = self._table()
            nt["starter"] = nt["seat"]
            changed = self.attempt(self._with(nt)) or changed
        if self._table().get("first_turns"):
            nt = self._table()
            nt["first_turns"] = []
            changed = self.attempt(self._with(nt)) or changed
        for key in ("passes", "scores", "outs"):
            nt = self._table()
            zero: Any = 0 if key == "passes" else [0] * len(nt["hands"])
            if nt.get(key) != zero:
                nt[key] = zero
                changed = self.attempt(self._with(nt)) or changed
        return changed

    def _ddmin(self, items: list[str], build: Callable[[list[str]], Probe]) -> bool:
        """Remove chunks of `items` (halves, quarters, ... single items) while it holds."""
        changed = False
        chunk = max(1, len(items) // 2)
        while items and not self.expired:
            i = 0
            while i < len(items) and not self.expired:
                candidate = items[:i] + items[i + chunk:]
                if self.attempt(build(candidate)):
                    items, changed = candidate, True
                else:
                    i += chunk
            if chunk == 1:
                break
            chunk = max(1, chunk // 2)
        return changed

    def _deal(self) -> None:
        ctx = context(self.best.variant)
        deal = self.best.deal
        assert deal is not None
        for order in ("sorted", "reversed"):
            if self.attempt(dataclasses.replace(self.best, deal={**deal, "order": order})):
                break
        for players in sorted(ctx.rs.player_counts):
            assert self.best.deal is not None
            if players >= self.best.deal["players"]:
                break
            cand = {**self.best.deal, "players": players}
            cand.pop("scores", None)
            cand.pop("outs", None)
            if self.attempt(dataclasses.replace(self.best, deal=cand)):
                break
        assert self.best.deal is not None
        if "scores" in self.best.deal or "outs" in self.best.deal:
            cand = {k: v for k, v in self.best.deal.items() if k not in ("scores", "outs")}
            self.attempt(dataclasses.replace(self.best, deal=cand))


def drop_seat(table: dict[str, Any], s: int) -> dict[str, Any]:
    """The table without seat `s` (its hand and train go to `rest`), seats renumbered."""
    def m(x: Any) -> Any:
        return x if x == MEXICAN or x < s else x - 1

    t = copy.deepcopy(table)
    t["hands"] = {m(k): v for k, v in t["hands"].items() if k != s}
    t["trains"] = {m(k): v for k, v in (t.get("trains") or {}).items() if k != s}
    for key in ("marked", "open_doubles", "turn_doubles", "first_turns"):
        t[key] = [m(x) for x in t.get(key) or [] if x != s]
    t["seat"], t["starter"] = m(t["seat"]), m(t["starter"])
    for key in ("scores", "outs"):
        t[key] = [v for i, v in enumerate(t[key]) if i != s]
    return t


def reroute(table: dict[str, Any], key: Any, max_pip: int) -> dict[str, Any] | None:
    """The table with train `key` relaid by the shortest way from the engine to the same
    open end (a last double stays last), with tiles nobody holds; None if none is shorter."""
    tiles: list[str] = table["trains"][key]
    engine = int(table.get("engine", max_pip))
    end = int(tiles[-1].split("-")[1])
    double = _is_double(tiles[-1])
    goal = end  # a last double is laid on its own number: the way leads to that number
    written_ids: set[int] = set()
    for k, train in (table.get("trains") or {}).items():
        if k != key:
            written_ids.update(T.parse(x) for x in train or [])
    for hand in table["hands"].values():
        written_ids.update(T.parse(x) for x in hand or [] if x != REST)
    written_ids.update(T.parse(x) for x in table.get("boneyard") or [] if x != REST)
    free = [t for t in range(T.set_size(max_pip))
            if t not in written_ids and t != T.DOUBLE[engine] and not T.IS_DOUBLE[t]]
    # breadth-first over the numbers, from the engine
    back: dict[int, tuple[int, int]] = {engine: (-1, -1)}
    frontier = [engine]
    while frontier and goal not in back:
        nxt = []
        for a in frontier:
            for t in free:
                b = T.OTHER_END[t][a]
                if b >= 0 and b not in back:
                    back[b] = (a, t)
                    nxt.append(b)
        frontier = nxt
    if goal not in back:
        return None
    path: list[str] = []
    at = goal
    while at != engine:
        prev, t = back[at]
        path.append(T.oriented(t, prev))
        at = prev
    path.reverse()
    if double:
        path.append(f"{end}-{end}")
    if not path or len(path) >= len(tiles):
        return None
    t2 = copy.deepcopy(table)
    t2["trains"][key] = path
    return t2


def cut_train(table: dict[str, Any], key: Any, k: int) -> dict[str, Any]:
    """The table with the last `k` tiles of train `key` taken up (they go to `rest`)."""
    t = copy.deepcopy(table)
    tiles = t["trains"][key]
    del tiles[len(tiles) - k:]
    if not tiles:
        del t["trains"][key]
    t["open_doubles"] = [x for x in t.get("open_doubles") or [] if x != key]
    t["turn_doubles"] = [x for x in t.get("turn_doubles") or [] if x != key]
    if tiles and _is_double(tiles[-1]):
        t["open_doubles"].append(key)
    return t


# --- the reproducer ----------------------------------------------------------------


WHAT = {"deal": "the deal", "legal": "the legal actions", "refused": "a refusal",
        "apply": "the state after an action", "winners": "the match winners"}


DESCRIBE = {"deal": "the dealt state differs", "legal": "the legal actions differ",
            "refused": "disagrees on refusing", "apply": "the state differs after",
            "winners": "the match winners differ after"}


def slug(text: str) -> str:
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return s or "impl"


def reproducer(finding: Finding, probe: Probe, verdict: Verdict, label: str, seed: int,
               fid: str) -> dict[str, Any]:
    """The fixture: the shrunk situation, and the reference's answer as the expectation."""
    ctx = context(probe.variant)
    description = f"{label[:40]} vs the reference: {DESCRIBE[probe.kind]}"
    if probe.action and probe.kind != "legal":
        description += f" `{probe.action}`"
    description += f" (fuzz seed {seed}, #{fid.rsplit('-', 1)[1]})"
    description = description[:MAX_DESCRIPTION]
    note = (f"generated by mtrain fuzz from seed {seed}: reference engine vs {label}. "
            f"Game {finding.game}, round {finding.round}, "
            + (f"step {finding.step}" if finding.step else "the deal")
            + f", {finding.players} players under {ctx.name}; shrunk to the table below. "
            "The expected values are the reference engine's answer: this is a regression "
            "reproducer, not a statement of the rules (the hand-written fixtures are). "
            "Where the implementation differs: " + "; ".join(_short(m) for m in verdict.messages))
    fx: dict[str, Any] = {"id": fid, "description": description, "clauses": verdict.clauses,
                          "source": ["computation"], "note": note}
    if probe.deal is not None:
        fx["deal"] = probe.deal
    else:
        assert probe.table is not None
        fx["table"] = compact(probe.table, ctx)
    if verdict.steps:
        fx["steps"] = verdict.steps
    fx["expect"] = [{"variants": [ctx.name], **verdict.expect}]
    return fx


def _short(text: str, limit: int = 160) -> str:
    return text if len(text) <= limit else text[:limit - 3] + "..."


def write_reproducer(fx_for: Callable[[str], dict[str, Any]], label: str, seed: int,
                     out: Path) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    k = 1
    while True:
        fid = f"fuzz-{label}-{seed}-{k:03d}"
        path = out / f"{fid}.yaml"
        if not path.exists():
            break
        k += 1
    text = yaml.safe_dump([fx_for(fid)], sort_keys=False, default_flow_style=None, width=130,
                          allow_unicode=True)
    header = ("# Generated by `mtrain fuzz`: a regression reproducer whose expected values\n"
              "# come from the reference engine (see the note).\n")
    path.write_text(header + text, encoding="utf-8")
    return path


def verify_reproducer(path: Path, impl: Implementation, label: str) -> list[str]:
    """Problems with a written reproducer: it must lint, fail on `impl`, pass the reference."""
    try:
        fixtures = load_file(path)
    except (SpecErrors, SpecError) as e:
        return [f"the reproducer does not load: {e}"]
    problems: list[str] = []
    reference = ReferenceImplementation()
    for fx in fixtures:
        for name, exp in fx.rulesets():
            problems += check_start(fx, exp, name, catalog().ruleset(name))
        for o in run_fixture(fx, reference):
            if o.status != "pass":
                problems.append(f"the reference does not pass it ({o.status}): {o.message}")
        try:
            statuses = [o.status for o in run_fixture(fx, impl)]
        except Exception:
            statuses = ["fail"]
        if all(s == "pass" for s in statuses):
            problems.append(f"it passes against {label}: the disagreement did not reproduce")
    return problems


# --- a run -------------------------------------------------------------------------


@dataclass
class FuzzReport:
    games: int = 0
    skipped: int = 0
    steps: int = 0
    rounds: int = 0
    seconds: float = 0.0
    finding: Finding | None = None
    shrunk: Probe | None = None
    verdict: Verdict | None = None
    shrink_tries: int = 0
    shrink_seconds: float = 0.0
    path: Path | None = None
    problems: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)

    @property
    def disagreements(self) -> int:
        return 1 if self.finding is not None else 0


_WORKER: dict[str, Any] = {}


def _worker_init(target: Target, stop: Any) -> None:
    signal.signal(signal.SIGTERM, _worker_stop)
    impl = target.make()
    _WORKER.update(impl=impl, judge=Judge(impl), stop=stop)
    multiprocessing.util.Finalize(None, close_implementation, args=(impl,), exitpriority=10)


def _worker_stop(signum: int, frame: object) -> None:
    """Pool.terminate sends SIGTERM: take this worker's implementation along."""
    kill_all()
    os._exit(1)


def _worker_game(plan: GamePlan) -> GameResult:
    if plan.index > _WORKER["stop"].value:
        return GameResult(plan.index, skipped=True)
    return _played(_WORKER["impl"], plan, _WORKER["judge"])


def _played(impl: Implementation, plan: GamePlan, judge: Judge) -> GameResult:
    """play_game, with the crashes and hangs it met (a later answer may agree, so the
    judge alone would not see them)."""
    log: list[str] = getattr(impl, "failures", [])
    seen = len(log)
    result = play_game(impl, plan, judge)
    result.failures = log[seen:]
    return result


def _results(target: Target, impl: Implementation, plans: list[GamePlan],
             jobs: int) -> Iterator[tuple[GameResult, Callable[[int], None]]]:
    """Each game's result, in game order, with a function that stops later games."""
    if jobs <= 1 or not target.rebuildable or len(plans) <= 1:
        judge = Judge(impl)
        stopped = [len(plans)]

        def stop_serial(index: int) -> None:
            stopped[0] = index

        for plan in plans:
            if plan.index > stopped[0]:
                yield GameResult(plan.index, skipped=True), stop_serial
            else:
                yield _played(impl, plan, judge), stop_serial
        return
    ctx = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn")
    stop = ctx.Value("i", len(plans) + 1)

    def stop_pool(index: int) -> None:
        stop.value = index

    with ctx.Pool(jobs, initializer=_worker_init, initargs=(target, stop)) as pool:
        try:
            for result in pool.imap(_worker_game, plans):
                yield result, stop_pool
        except BaseException:  # an interrupt: do not wait for the games under way
            pool.terminate()
            raise
        finally:
            pool.close()
            pool.join()


def fuzz(target: Target, variants: Sequence[str], games: int, seed: int, *,
         jobs: int = 1, out: str | Path = DEFAULT_OUT, players: int | None = None,
         shrink_seconds: float = 30.0, progress: Callable[[int], None] | None = None,
         impl: Implementation | None = None) -> FuzzReport:
    """Fuzz `target` against the reference; shrink and write the first disagreement."""
    report = FuzzReport()
    impl = impl if impl is not None else target.make()
    label = slug(target.label or str(impl.info().get("name", "impl")))
    plans = [plan_game(i, seed, variants, players) for i in range(games)]
    start = time.perf_counter()
    for result, stop in _results(target, impl, plans, jobs):
        if result.skipped:
            report.skipped += 1
        else:
            report.games += 1
            report.steps += result.steps
            report.rounds += result.rounds
            report.warnings += result.warnings
            report.failures += result.failures
        if result.finding is not None and report.finding is None:
            report.finding = result.finding
            stop(result.index)
        if progress is not None:
            progress(1)
    report.seconds = time.perf_counter() - start
    if report.finding is None:
        return report
    judge = Judge(impl)
    began = time.perf_counter()
    try:
        shrinker = Shrinker(judge, report.finding.probe, shrink_seconds)
    except ValueError:
        report.problems.append("the disagreement did not repeat when asked again")
        return report
    report.shrunk = shrinker.run()
    report.verdict = shrinker.verdict
    report.shrink_tries = shrinker.tries
    report.shrink_seconds = time.perf_counter() - began
    finding, shrunk, verdict = report.finding, report.shrunk, report.verdict
    report.path = write_reproducer(
        lambda fid: reproducer(finding, shrunk, verdict, label, seed, fid), label, seed,
        Path(out))
    report.problems += verify_reproducer(report.path, impl, label)
    return report


# --- the command -------------------------------------------------------------------


def register(sub: Any) -> None:
    p = sub.add_parser(
        "fuzz", help="play random games against the reference engine; shrink the first "
        "disagreement into a fixture")
    who = p.add_mutually_exclusive_group()
    who.add_argument("--impl", metavar="COMMAND",
                     help="a program speaking protocol v1 on stdin/stdout, as for conform")
    who.add_argument("--adapter", metavar="MODULE:OBJECT",
                     help="an in-process Python implementation: an instance or a "
                     "zero-argument class (MODULE may be a .py path)")
    who.add_argument("--mutant", metavar="NAME",
                     help="a buggy engine from the mutants catalogue (python -m "
                     "mtrain.conformance.mutants --list); default variants: those where "
                     "its bug can show")
    p.add_argument("--variant", action="append", default=[],
                   help="a variant or base+overlay+... (repeatable; games cycle through "
                   "them; default: every shipped variant)")
    p.add_argument("--players", type=int, help="table size (default: random per game)")
    p.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    p.add_argument("--seed", type=int, default=0, help="the run's seed (default 0)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--out", default=DEFAULT_OUT,
                   help=f"folder for the reproducer (default ./{DEFAULT_OUT}/)")
    p.add_argument("--shrink-seconds", type=float, default=30.0, metavar="SECONDS",
                   help="time limit for shrinking (default 30)")
    p.add_argument("--timeout", type=float, metavar="SECONDS",
                   help="per request to --impl or --adapter (default: as for conform)")
    p.set_defaults(func=stoppable(cmd_fuzz, "fuzz"))


def _target(args: argparse.Namespace) -> Target:
    from mtrain.cli import UsageError

    if args.mutant is not None:
        try:
            from .mutants import MUTANTS
        except ImportError:
            raise UsageError("no mutants catalogue (conformance/mutants.py)") from None
        if args.mutant not in MUTANTS:
            import difflib

            near = difflib.get_close_matches(args.mutant, list(MUTANTS), n=3)
            hint = f"; did you mean {', '.join(near)}?" if near else ""
            raise UsageError(f"unknown mutant {args.mutant!r}{hint} (the list: python -m "
                             "mtrain.conformance.mutants --list)")
        return Target("mutant", args.mutant, args.mutant)
    if args.impl is not None:
        return Target("impl", args.impl, timeout=args.timeout)
    if args.adapter is not None:
        return Target("adapter", args.adapter, timeout=args.timeout)
    raise UsageError("name the implementation to fuzz: --impl COMMAND, --adapter MODULE:ATTR "
                     "or --mutant NAME")


def mutant_variants(name: str) -> list[str]:
    """The rule sets worth fuzzing mutant `name` under.

    The shipped variants, and each shipped variant with one overlay, kept where one of
    the mutant's clauses applies; a variant with an overlay only where the overlay makes
    a difference (another of its clauses applies, or the mutant changes the rules only
    there). A mutant whose bug shows under no shipped variant is still fuzzed somewhere.
    """
    from .mutants import MUTANTS, MutantImplementation

    m = MUTANTS[name]
    impl = MutantImplementation(m)
    cat = catalog()

    def profile(rs: Ruleset) -> tuple[frozenset[str], bool] | None:
        applies = frozenset(c for c in m.clauses if c in cat.clauses and
                            cat.clauses[c].applies(rs))
        differs = impl.differs_under(ruleset_json(rs))
        return (applies, differs) if applies and differs else None

    out: list[str] = []
    for base in cat.variants:
        here = profile(cat.ruleset(base))
        if here is not None:
            out.append(base)
        for overlay in cat.overlays:
            try:
                rs = cat.ruleset(base, [overlay])
            except (RulesetError, SpecError):
                continue
            there = profile(rs)
            if there is not None and (here is None or there[0] - here[0]):
                out.append(rs.name)
    return out or list(cat.variants)


def _variants(args: argparse.Namespace, impl: Implementation, target: Target) -> list[str]:
    from mtrain.cli import UsageError

    names = args.variant
    if not names:
        names = mutant_variants(target.value) if target.kind == "mutant" else list(
            catalog().variants)
    out = []
    for text in names:
        try:
            ctx = context(text)
        except (RulesetError, SpecError) as e:
            raise UsageError(str(e)) from None
        if not re.fullmatch(r"[a-z0-9-]+(\+[a-z0-9-]+)*", ctx.name):
            raise UsageError(f"{text}: fuzz needs a rule set a fixture can name "
                             "(a variant, or base+overlay+...)")
        if args.players is not None and args.players not in ctx.rs.player_counts:
            raise UsageError(f"{ctx.name} has no hand size for {args.players} players [DEAL-7]")
        out.append(ctx.name)
    supported = impl.info().get("variants", ["*"])
    if "*" not in supported:
        skipped = [v for v in out if v not in supported and v.split("+")[0] not in supported]
        for v in skipped:
            print(f"skipping {v}: the implementation does not support it", file=sys.stderr)
        out = [v for v in out if v not in skipped]
        if not out:
            raise UsageError("the implementation supports none of the rule sets asked for")
    return out


def cmd_fuzz(args: argparse.Namespace) -> int:
    from mtrain.cli import UsageError

    if args.games < 1:
        raise UsageError("--games must be at least 1")
    if args.seed < 0:
        raise UsageError("--seed must not be negative")
    if args.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    if args.shrink_seconds < 0 or (args.timeout is not None and not 0 < args.timeout < math.inf):
        raise UsageError("--shrink-seconds and --timeout must be positive (and finite)")
    target = _target(args)
    impl = target.make()
    try:
        try:
            info = impl.info()
        except ConfigurationError as e:
            raise UsageError(str(e)) from None
        except HarnessError as e:  # crashed or hung at the start: nothing to fuzz
            print(f"mtrain fuzz: the implementation failed to start ({e.status}): "
                  f"{e.message}", file=sys.stderr)
            return 1
        if not target.label:
            target = dataclasses.replace(target, label=str(info.get("name", "impl")))
        variants = _variants(args, impl, target)
        return _run(args, target, impl, variants)
    finally:
        close_implementation(impl)


def _run(args: argparse.Namespace, target: Target, impl: Implementation,
         variants: list[str]) -> int:
    kwargs: dict[str, Any] = dict(jobs=args.jobs, out=args.out, players=args.players,
                                  shrink_seconds=args.shrink_seconds, impl=impl)
    print(f"fuzzing {target.label} against the reference: {args.games} games of "
          f"{', '.join(variants)}, seed {args.seed}", flush=True)
    if sys.stderr.isatty():
        from rich.console import Console
        from rich.progress import Progress

        with Progress(console=Console(stderr=True), transient=True) as bar:
            task = bar.add_task("games", total=args.games)
            report = fuzz(target, variants, args.games, args.seed,
                          progress=lambda k: bar.advance(task, k), **kwargs)
    else:
        report = fuzz(target, variants, args.games, args.seed, **kwargs)
    _print_report(report, target, args.seed)
    return 1 if report.finding is not None or report.failures else 0


def _print_report(report: FuzzReport, target: Target, seed: int) -> None:
    for w in report.warnings[:5]:
        print(f"warning: {w}")
    if len(report.warnings) > 5:
        print(f"warning: ... and {len(report.warnings) - 5} more like these")
    f = report.finding
    if f is not None:
        where = f"the deal of round {f.round}" if f.step == 0 else f"round {f.round}, step {f.step}"
        print(f"DISAGREEMENT in game {f.game} ({f.probe.variant}, {f.players} players), "
              f"{where}: {WHAT[f.probe.kind]}" + (f" `{f.probe.action}`" if f.probe.action
                                                   and f.probe.kind != "legal" else ""))
        for m in f.messages:
            print(f"    {m}")
        if report.shrunk is not None and report.verdict is not None:
            if report.shrunk.deal is not None:
                d = report.shrunk.deal
                size = (f"a deal to {d['players']} players, order "
                        f"{d['order'] if isinstance(d['order'], str) else 'as shuffled'}")
            else:
                size = f"{written(f.probe)} -> {written(report.shrunk)} tiles and seats written"
            print(f"shrunk in {report.shrink_seconds:.1f} s ({report.shrink_tries} tries): {size}")
            for m in report.verdict.messages:
                print(f"    {m}")
        if report.path is not None:
            print(f"reproducer: {report.path}")
            for command in target.commands(report.path):
                print(f"run it: {command}")
        for p in report.problems:
            print(f"problem: {p}")
    if report.failures:
        print(f"FAILED: the implementation crashed or hung {_count(len(report.failures), 'time')}"
              f"; the first: {report.failures[0]}")
    print(f"{_count(report.games, 'game')}, {_count(report.rounds, 'round')} completed, "
          f"{_count(report.steps, 'step')}, {_count(report.disagreements, 'disagreement')}, "
          f"{report.seconds:.1f} s" + (f" ({_count(report.skipped, 'game')} not played after "
                                       "the disagreement)" if report.skipped else ""))


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")
