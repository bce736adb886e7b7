"""A legal answer under a doubles rule of one's own, judged as conform judges it.

The reference offers a double wherever its tile fits and reads no doubles rule to do so
(DBL-1, DBL-11 are read where one is laid), so under `doubles: other` fuzz compared such a
list as written: hostler's "no lone double" (tests/examples/js/hostler_engine.js
--house=lone-double: a double laid only with a partner of its number in hand) made two
findings in 4 games ("forbids play", TRAIN-4 and MARK-1: 22 disagreements) whose
reproducers conform passes. conform cuts such an entry finely (lay_alone.py): a double
the implementation leaves out on a train it keeps open to the player is its rule's, and
where nothing else is then laid, its draw or pass is the rules' with those doubles held
back (double_plays.laid_aside). fuzz asks that same code of the table it plays: the entry
conform would make of it (lay_alone.lay_entry, under the stand-in fuzz sends), cut by the
implementation's answer; whatever is left is judged, each finding charged on the hand
without the doubles it lays nowhere (as conform's attribution.Referee.holding_back), and
its expectation the reference's whole list, which the reproducer states and conform cuts
again. A draw rule of one's own beside it leaves the draw or pass its own
(Expectation.own_draw), unless the pass turns on the boneyard's size (last_bone.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from mtrain.conformance.adapter import JSON, Implementation
from mtrain.conformance.answers import AnswerError, actions_problems
from mtrain.conformance.double_plays import double_play, laid_aside
from mtrain.conformance.expectation_checks import draws
from mtrain.conformance.fixture import Expectation, Fixture
from mtrain.conformance.fuzz.judge import Disagreement, as_action, compare_legal
from mtrain.conformance.fuzz.own_rules import option_space
from mtrain.conformance.fuzz.rulesets import Context
from mtrain.conformance.fuzz.tables import table_of
from mtrain.conformance.last_bone import counts_bones
from mtrain.conformance.lay_alone import OPTION, lay_entry
from mtrain.conformance.process import HarnessError
from mtrain.reference import codec
from mtrain.reference.engine import Action, State
from mtrain.spec import tiles as T
from mtrain.spec.notation import action_text


@dataclass(frozen=True)
class Cut:
    """A legal answer judged with its doubles rule's part set aside: what was found, and
    the failure of a probe asked to tell (a crash: found too, as a failure to answer)."""

    found: list[Disagreement]
    error: BaseException | None = None


def legal_cut(ctx: Context, st: State, legal: Sequence[Action], got: Any,
              impl: Implementation, state: JSON) -> Cut | None:
    """The implementation's legal answer `got` on `state` (the reference's view `st`,
    its legal actions `legal`) judged as conform judges an entry under a doubles rule of
    one's own (the module docstring); None where no such cut is made (no such rule, no
    double offered, an answer that is no list of actions): judged as written."""
    if OPTION not in ctx.unknown or type(got) is not list or actions_problems(
            got, (st.players, True)):
        return None
    texts = tuple(sorted(action_text(codec.action_to_json(st, a)) for a in legal))
    if not any(map(double_play, texts)):
        return None
    fx = Fixture(id="fuzz-legal", description="", clauses=(), source=(), path="<fuzz>",
                 line=None, table=table_of(codec.state_to_json(st)), deal=None, steps=(),
                 expect=())
    try:
        exp = lay_entry(Expectation(variants=(), legal=texts), fx, ctx.declared,
                        option_space(), sent=ctx.rs)
    except codec.StateError:  # a table only its own rules reach (a double laid not left
        return None  # open: hopper's), which conform never runs: judged as before
    if exp.own_doubles is None:
        return None
    actual = {action_text(a) for a in got}
    try:
        want, held = laid_aside(exp, actual, impl, ctx.rj, state)
        if exp.own_draw and any(map(draws, actual)) and not counts_bones(
                impl, ctx.rj, state, actual):
            got = [a for a in got if not draws(action_text(a))]  # TURN-2: its draw rule's
    except (HarnessError, AnswerError) as e:  # the probe's failure, as what it is (probing)
        return Cut(compare_legal(ctx, st, legal, None, e), e)
    wanted = [a for t in sorted(want) if (a := as_action(ctx, st, t)) is not None]
    found = compare_legal(ctx, held_back(st, held), wanted, got, None)
    whole = {"legal": list(texts)}  # conform cuts the reproducer's list itself
    return Cut([replace(d, expect=whole) for d in found])


def held_back(st: State, tiles: frozenset[str]) -> State:
    """`st` with `tiles` (doubles the implementation lays nowhere) out of the mover's
    hand: where what it offers instead is charged, as conform charges it."""
    if not tiles:
        return st
    out = st.copy()
    for tile in tiles:
        out.hands[out.seat] &= ~T.BIT[T.parse(tile)]
    return out
