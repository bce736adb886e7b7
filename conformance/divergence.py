"""Where an implementation's replay of a fixture first departs from the reference's.

The fields the rules decide are compared state by state, causes first; options the
implementation plays its own way (`other`) set aside the fields only they decide (the
totals, the markers taken off, a round's end, a dealt start). runner.departure charges a
failure to the first departure, not to what it led to.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import Any

from mtrain.conformance.adapter import JSON
from mtrain.conformance.fixture import Expectation, Fixture
from mtrain.conformance.state_compare import compare_field, state_view
from mtrain.spec import tiles as T

DETERMINED = ("engine", "engine_placed", "hand_sizes", "hands", "boneyard", "trains",
              "drawn", "open_doubles", "marked", "passes", "phase", "seat", "first_turns",
              "starter", "scores", "outs")
"""The fields the rules decide, compared to find where a replay departs, causes first (a
wrong hand explains a wrong seat, not the other way round)."""
ROUND_END = frozenset({"scoring", "blank_values", "tie_rule"})
"""The options that decide only what a round's end is worth and who wins the match."""
WORTH = frozenset({"scoring", "blank_values"})
"""Those of ROUND_END that decide what a round's end is worth: its scores and so the
totals. A tie rule decides only who wins among equal totals (MATCH-4..6), never a total."""
TOTAL_FIELDS = ("scores",)
"""The fields of a state the WORTH options decide (the totals, MATCH-1): under one of them
played its own way, the implementation's totals are its own rule's, never a departure."""
OWN_PROCEDURE = "engine_procedure"
"""The option that decides a deal's hands, boneyard and engine (ENG-2..8): under it played
its own way, a dealt start is the implementation's own procedure's but for its first seat
(DEALT_SEAT), which the starting seat gives whatever the procedure (seat_alone.py)."""
DEALT_SEAT = ("seat", "starter")
"""The fields of a dealt start a known starting seat decides (seat_alone.SEAT_FIELDS)."""
OWN_END = "blocked_round"
"""The option that decides whether a round with an empty boneyard is over (END-2, END-3):
under it played its own way, a round over where the reference's goes on (or the other way
round) is its own rule's, never a departure (blocked_alone.py)."""
END_FIELDS = ("phase", "seat", *TOTAL_FIELDS)
"""The fields of a state whether the round has ended decides (END-1..3): an ended round
is over, with nobody to move and its worth in the totals."""


def end_aside(exp: Expectation) -> Expectation:
    """`exp` without what only whether the round is over decides: the result, the table's
    questions (the legal set, the refusals: none in a round that is over), the phase, the
    seat to move, the totals, the winners and whether the match is over. What the steps
    did (hands, trains, boneyard, markers, open doubles, passes) stays."""
    return dataclasses.replace(
        exp, result=..., legal=None, refused={}, winners=None, match_over=None,
        own_end=None, own_draw=False, own_doubles=None, own_actions=(), only_actions=None,
        own_totals=None,
        state={k: v for k, v in exp.state.items() if k not in END_FIELDS})


def ended_blocked(state: JSON) -> bool:
    """Whether `state` (an implementation's) says the round is over, blocked."""
    result = state.get("result")
    return isinstance(result, dict) and result.get("end") == "blocked"


MARKERS_OFF = "marker_removal"
"""The option that decides which markers come off (MARK-3..5): under it played its own
way, the markers an implementation takes off are its own rule's, never a departure
(marker_alone.py runs such entries without `marked`); a marker put up (MARK-1: a player
who cannot play) is still the rules', and one put up or not where the reference's is
still a departure (junction's bug 1, charged MARK-1)."""


def divergence(fx: Fixture, mine: Sequence[JSON], ref: Sequence[JSON], max_pip: int,
               own: Iterable[str] = ()) -> tuple[int, str, Any, str] | None:
    """(step, field, the implementation's value, message) for the first step after which
    its state differs from the reference's in a field the rules decide (not the totals
    where `own`, the options played their own way, decide them: WORTH; under a marker rule
    of one's own, only the markers each step puts up: MARKERS_OFF; under a blocked rule of
    one's own, not what an end decides where one side's round is over: OWN_END; under an engine
    procedure of one's own, a dealt start's first seat alone: OWN_PROCEDURE); None if
    never."""
    first = 0 if fx.deal is not None else 1  # a dealt start is the implementation's own
    mine_own = set(own)
    fields = [k for k in DETERMINED if not (WORTH & mine_own and k in TOTAL_FIELDS)]
    own_markers = MARKERS_OFF in mine_own
    own_deal = OWN_PROCEDURE in mine_own
    own_end = OWN_END in mine_own
    before: tuple[dict[str, Any], dict[str, Any]] | None = None
    for k in range(first, min(len(mine), len(ref))):
        try:
            a, b = state_view(mine[k]), state_view(ref[k])
            if own_markers and before is None and k > 0:
                before = state_view(mine[k - 1]), state_view(ref[k - 1])
        except (KeyError, TypeError, ValueError, T.TileError):
            return k, "hands", None, f"after {_step_text(fx, k)} the state is unreadable"
        # a round over on one side only: ended (or not) by a blocked rule of its own
        ended = own_end and (a.get("phase") == "over") != (b.get("phase") == "over")
        for key in fields:
            if k == 0 and own_deal and key not in DEALT_SEAT:
                continue  # the reference's replay deals by a stand-in procedure (ENG-2..8)
            if ended and key in END_FIELDS:
                continue  # END-2, END-3: whether it is over is its rule's (end_aside)
            if key == "marked" and own_markers and before is not None:
                differs = _put_up(a, before[0]) != _put_up(b, before[1])
            else:
                differs = a.get(key) != b.get(key)
            if differs:
                shown = "; ".join(compare_field(key, _as_written(key, b.get(key)), a, max_pip))
                later = ("; the checks below compare a state that had already departed"
                         if k < len(fx.steps) else "")
                return k, key, a.get(key), (
                    f"diagnosis: the state departs from the reference's replay after "
                    f"{_step_text(fx, k)}: {shown}{later}")
        before = a, b
    return None


def _put_up(view: dict[str, Any], earlier: dict[str, Any]) -> set[Any]:
    """The markers up in `view` that were not in `earlier` (state_view's `marked`)."""
    return set(view.get("marked") or ()) - set(earlier.get("marked") or ())


def _step_text(fx: Fixture, k: int) -> str:
    return "the deal" if k == 0 else f"step {k} `{fx.steps[k - 1]}`"


def _as_written(key: str, value: Any) -> Any:
    """A state_view value back in the table notation compare_field expects."""
    if key == "hands":
        return {s: [T.name(t) for t in tiles] for s, tiles in value.items()}
    if key == "trains":
        return {t: [T.name(x) for x in tiles] for t, tiles in value.items()}
    if key == "boneyard":
        return [T.name(t) for t in value]
    if key == "drawn" and value is not None:
        return T.name(value)
    return value
