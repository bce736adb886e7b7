"""Which fields an expectation must check: those its clauses set when the fixture acts.

A fixture that takes steps (or deals) exercises clauses that change the table: a pass
raises a marker (TURN-4), a double asks for a follow-up (DBL-1), a round end scores the
hands (SCORE-5). An expectation that leaves such a field unchecked lets a wrong engine
through. `unchecked(fixture, expectation, ruleset)` lists those fields; `mtrain lint`
reports each as a warning, with what the steps give for them (`after`: the model's
effects, spec/model/steps.py). Only clauses that apply under the rule set count.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from mtrain.conformance.fixture import Expectation, Fixture
from mtrain.spec.catalog_entries import Clause
from mtrain.spec.model.steps import replay
from mtrain.spec.notation import NEXT_ROUND
from mtrain.spec.ruleset import Ruleset

RESULT: Final = "result"
PLAY, DOUBLE, DRAW, PASS, END_CHAIN, DEAL = "play", "double", "draw", "pass", "end-chain", "deal"
TURN_END: Final = frozenset({PLAY, PASS, END_CHAIN})
ANY: Final = frozenset({PLAY, DOUBLE, DRAW, PASS, END_CHAIN, DEAL})

SETS: Final[dict[str, tuple[tuple[str, frozenset[str]], ...]]] = {
    # a turn: who moves next, in what phase, what was drawn
    "SEAT-1": (("seat", TURN_END),),
    "TURN-2": (("drawn", frozenset({DRAW})),),
    "TURN-3": (("drawn", frozenset({DRAW})),),
    "TURN-4": (("marked", frozenset({PASS})), ("seat", frozenset({PASS}))),
    "TURN-5": (("drawn", frozenset({DRAW})),),
    "TURN-6": (("seat", TURN_END), ("phase", TURN_END)),
    "TRAIN-3": (("open_doubles", frozenset({PLAY})),),
    # first turns
    "FIRST-1": (("phase", frozenset({PLAY, END_CHAIN})),),
    "FIRST-11": (("phase", frozenset({PLAY, END_CHAIN})),),
    "FIRST-3": (("marked", frozenset({PASS})),),
    "FIRST-6": (("first_turns", TURN_END),),
    # doubles
    "DBL-1": (("phase", frozenset({DOUBLE})), ("turn_doubles", frozenset({DOUBLE}))),
    "DBL-5": (("marked", frozenset({PASS})), ("open_doubles", frozenset({PASS}))),
    "DBL-11": (("phase", frozenset({DOUBLE})), ("seat", frozenset({DOUBLE})),
               ("open_doubles", frozenset({DOUBLE}))),
    # markers
    "MARK-1": (("marked", frozenset({PASS})),),
    "MARK-3": (("marked", frozenset({PLAY})),),
    "MARK-4": (("marked", frozenset({PLAY})),),
    "MARK-5": (("marked", frozenset({PLAY})),),
    # the end of a round and the match
    "END-1": ((RESULT, ANY),),
    "END-2": ((RESULT, ANY),),
    "END-3": ((RESULT, ANY), ("passes", frozenset({PASS, PLAY}))),
    **{f"SCORE-{k}": ((RESULT, ANY),) for k in range(1, 8)},
    "MATCH-1": (("scores", ANY),),
    "MATCH-5": (("outs", ANY),),
    # the deal
    **{f"DEAL-{k}": (("hand_sizes", frozenset({DEAL})),) for k in range(2, 7)},
    "ENG-2": (("engine_placed", frozenset({DEAL})),),
    "ENG-5": (("hand_sizes", frozenset({DEAL})),),
    "ENG-4": (("phase", frozenset({DEAL})), ("seat", frozenset({DEAL, DRAW}))),
    "ENG-6": (("phase", frozenset({DRAW})), ("seat", frozenset({DEAL, DRAW}))),
    "SEAT-2": (("seat", frozenset({DEAL})), ("starter", frozenset({DEAL}))),
    "SEAT-3": (("seat", frozenset({DEAL})), ("starter", frozenset({DEAL}))),
    "SEAT-4": (("seat", frozenset({DEAL})), ("starter", frozenset({DEAL}))),
    "SEAT-5": (("seat", frozenset({DEAL})), ("starter", frozenset({DEAL}))),
    "SEAT-6": (("seat", frozenset({DEAL})), ("starter", frozenset({DEAL}))),
}
"""Clause -> (field, the kinds of step after which the clause decides it). `result` is the
round's end and scores; a play of a double is both `play` and `double`."""

AFTER_THE_END: Final = frozenset({"seat", "phase"})
"""Fields an expectation of a finished round need not check: the result decides them."""


def step_kinds(fx: Fixture) -> set[str]:
    kinds = {DEAL} if fx.deal is not None else set()
    for step in fx.steps:
        word = step.split()[0]
        kinds.add(DEAL if word == NEXT_ROUND else word)  # the next round is dealt
        if word == PLAY:
            a, b = step.split()[1].split("-")
            if a == b:
                kinds.add(DOUBLE)
    return kinds


def unchecked(fx: Fixture, exp: Expectation, clauses: Mapping[str, Clause],
              rs: Mapping[str, str]) -> list[str]:
    """The fields set by `fx`'s clauses under `rs` that `exp` does not check."""
    if exp.refused_setup is not None:
        return []  # a refused setup has no fields: the refusal is the whole expectation
    kinds = step_kinds(fx)
    want: dict[str, list[str]] = {}
    for cid in fx.clauses:
        clause = clauses.get(cid)
        if clause is None or not clause.applies(rs):
            continue
        for name, after in SETS.get(cid, ()):
            if after & kinds:
                want.setdefault(name, []).append(cid)
    ended = isinstance(exp.result, dict)
    out = []
    for name, cids in want.items():
        if name == RESULT:
            checked: Any = exp.result is not ...
        else:
            checked = name in exp.state or (ended and name in AFTER_THE_END)
        if not checked:
            out.append(f"{name} ({', '.join(cids)})")
    return out


def after(fx: Fixture, rs: Ruleset) -> dict[str, Any]:
    """The fields after the fixture's steps under `rs`, by the model (the steps taken as
    given: legality is not decided)."""
    if fx.deal is not None:
        players, round_no, order, extra = fx.deal_request(rs)
        draw = fx.deal_draw()  # SEAT-5: the draw for the start, where the deal has one
        match = {**extra, "draw": draw} if draw is not None else extra
        return replay(rs, fx.steps, deal=(players, round_no, order, match))
    return replay(rs, fx.steps, state=fx.start(rs))
