"""A player going out under a doubles rule of one's own.

Laying a double reads the doubles rule (DBL-1, DBL-11) for whether it asks for another
tile and stays open, so under `doubles: other` an entry whose last tile is a double was not
applicable, and with it what the last tile does besides: the round ends the moment a player
lays their last tile, a double too (END-1, a clause of every rule set), with its result and
the hands left. An engine whose double ends the turn yet stays open
(tests/examples/marshal_engine.py) had going out on a double checked nowhere, and a double
laid as the last tile that handed the turn on instead went unseen. So where the entry
expects the round gone out (a domino result) and the reference, playing it without the
open doubles under each known doubles value in turn (the rule set's other values kept),
finds it holds each time and reads no other rule played its own way, that cut entry runs:
which doubles are listed open stays the rule's own. Where the entry reads a scoring, blank
values or tie rule of one's own as well, what the round's end is worth is set aside too
(round_end_alone.py), and each of those options is asked in turn alike.

Where a double may be laid is that rule's question too, though every known value lets it
go wherever a tile of its number may: a rule of one's own may keep doubles off some trains
(tests/examples/coaling_engine.py: only on the layer's own train). So each step of the cut
entry that lays a double is the rule's own to refuse (`Expectation.own_steps`,
step_alone.own_step_refused): refused, the entry is not applicable; played, it is judged.

fuzz judges such a step alike (fuzz/own_rules.out_alone).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence, Set

from mtrain.conformance.divergence import ROUND_END
from mtrain.conformance.fixture import Expectation, Fixture
from mtrain.conformance.round_end_alone import holds_under_each_value, worth_aside
from mtrain.spec.notation import action_json, is_next_round
from mtrain.spec.ruleset import Ruleset
from mtrain.spec.scope import Space

OPTION = "doubles"
DOUBLES_FIELDS = ("open_doubles", "turn_doubles")
"""The fields of a state the doubles rule decides at a round gone out."""


def out_options(why: str) -> frozenset[str]:
    """The options `applies`'s reason names, where they are the doubles rule of one's own
    and perhaps round-end options besides (ROUND_END); else none."""
    named = frozenset(re.findall(r"(\w+) \(played its own way\)", why))
    return named if OPTION in named and named - {OPTION} <= ROUND_END else frozenset()


def gone_out(exp: Expectation) -> bool:
    """Whether `exp` expects the round over by a player going out (END-1)."""
    result = exp.result
    return (isinstance(result, dict) and result.get("end") == "domino"
            and result.get("winner") is not None)


def out_entry(exp: Expectation, fx: Fixture, rs: Ruleset, space: Space,
              named: Set[str] = frozenset((OPTION,))) -> Expectation | None:
    """`exp` without its open doubles (and what the round's end is worth, where `named`,
    the options `rs` plays its own way that the entry reads, has round-end ones), where it
    expects a player gone out and no known value of those options changes the rest under
    `rs`'s other rules; None where that cannot be shown or nothing is left to check."""
    own = set(rs.unknown)
    if (OPTION not in own or not named <= own or not fx.steps or not gone_out(exp)
            or exp.refused_setup is not None):
        return None
    cut = worth_aside(exp, named & ROUND_END) if named & ROUND_END else exp
    cut = dataclasses.replace(
        cut, state={k: v for k, v in cut.state.items() if k not in DOUBLES_FIELDS})
    if cut.checks == 0:
        return None
    if not holds_under_each_value(fx, cut, rs, space, named, own - named):
        return None
    steps = dict(cut.own_steps)
    for k in double_steps(fx.steps):
        steps[k] = tuple(sorted({*steps.get(k, ()), OPTION}))
    return dataclasses.replace(cut, own_steps=tuple(sorted(steps.items())))


def double_steps(steps: Sequence[str]) -> list[int]:
    """The steps (counted from 1) that lay a double."""
    found = []
    for k, step in enumerate(steps, 1):
        if is_next_round(step):
            continue
        action = action_json(step)
        tile = action.get("tile")
        if isinstance(tile, str) and len(set(tile.split("-"))) == 1:
            found.append(k)
    return found
