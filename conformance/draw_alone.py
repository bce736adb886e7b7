"""An entry under a draw rule of one's own: the plays judged, the first draw its own.

Where a player who has not drawn holds no play, the rules say draw (TURN-2, TURN-5, DBL-5),
and whether that player draws or passes is the draw rule's. The reference answers such a
table without reading the rule (it reads `draw_until_playable` only once a tile is drawn),
so under `draw_rule: other` the entry was judged as written: trolley's house rule (tests/
examples/c/trolley_engine.c --duty-pass: a player bound to a double they cannot cover
passes, marker up, without drawing) failed 67 results charged to the rule it replaces.
Taking every such table as the draw rule's (the reference reading the rule before each
first draw) set aside the plays there as well, which no draw rule decides: a play offered
where there is none (coupling's bug 2, DBL-10) went unseen.

So the cut is finer. Under a draw rule of one's own, where the reference's replay under the
stand-in conform sends reaches such a table: its legal set is compared by its plays alone
(the implementation's draw or pass, whichever it offers, is its own rule's; one that
offers neither is judged as written), a refusal the entry lists of a draw or a pass there
is set aside, and a `draw` step taken there is one whose refusal is not applicable
(`Expectation.own_steps`, step_alone.own_step_refused). Every other check stands.

Once a tile is drawn the reference reads the rule (what the drawn tile may do, and
whether a player draws again, are the rule's: roundhouse keeps a playable drawn tile and
passes), so such an entry is the rule's, but for one thing no draw rule decides: a draw
from an empty boneyard, which has no tile to give (TURN-4; the draw rules say how many
tiles a player draws, never one from nothing). wye (tests/examples/cpp/wye.cpp) listed
`draw` there and fuzz charged it to no clause. So where the replay's last table has a
tile drawn and the boneyard empty, the entry runs cut to that (dry_draw_entry): its legal
set judged by the draw alone (`Expectation.only_actions`), its refusals of a draw kept
and the others set aside, a step whose legality reads the rule one whose refusal is not
applicable; where the cut holds under every known draw rule.
"""

from __future__ import annotations

import dataclasses

from mtrain.conformance.adapter import JSON
from mtrain.conformance.expectation_checks import draws
from mtrain.conformance.fixture import Expectation, Fixture
from mtrain.conformance.release_alone import known_regions
from mtrain.conformance.round_end_alone import passes_under
from mtrain.conformance.runner import REFERENCE
from mtrain.conformance.stand_in_replay import stand_in_replay
from mtrain.conformance.step_alone import judged_steps
from mtrain.spec.notation import is_next_round
from mtrain.spec.ruleset import Ruleset
from mtrain.spec.scope import Space

OPTION = "draw_rule"
ONLY_DRAW = f"its outcome depends on {OPTION} (played its own way)"
"""`applies`'s answer for an entry that only a draw rule of one's own decides."""
DRY_DRAW = ("draw",)
"""What no draw rule decides after a draw from a boneyard now empty: the draw (TURN-4)."""


def dry_draw_entry(exp: Expectation, fx: Fixture, rs: Ruleset, space: Space,
                   sent: Ruleset | None = None) -> Expectation | None:
    """`exp` judged for a draw alone on its last table, where a tile is drawn and the
    boneyard is empty, the rest left to `rs`'s draw rule (the module docstring); None
    where the table is none such, nothing is left to check, or the cut does not hold
    under every known draw rule. `sent`: the rule set the implementation is sent (by
    default the stand-in inside the entry's scope, as conform sends it)."""
    own = set(rs.unknown)
    if OPTION not in own or exp.refused_setup is not None:
        return None
    replay = stand_in_replay(fx, exp, rs, space, sent)
    if replay is None or replay.state.get("drawn") is None or replay.state.get("boneyard"):
        return None
    steps = dict(exp.own_steps)
    for k, read in judged_steps(fx, replay.sent, {OPTION}):
        steps[k] = tuple(dict.fromkeys((*steps.get(k, ()), *read)))
    cut = dataclasses.replace(
        exp, own_steps=tuple(sorted(steps.items())),
        refused={a: c for a, c in exp.refused.items() if a in DRY_DRAW},
        only_actions=None if exp.legal is None else DRY_DRAW)
    if cut.checks == 0:
        return None
    tried = 0
    for region in known_regions(rs, space, OPTION):
        passed = passes_under(fx, cut, rs, space, region, own - {OPTION})
        if passed is False:
            return None
        tried += passed is True
    return cut if tried >= 2 else None


def first_draw_entry(exp: Expectation, fx: Fixture, rs: Ruleset, space: Space,
                     sent: Ruleset | None = None) -> Expectation:
    """`exp` with the choice between drawing and passing, on each table of the reference's
    replay (under `sent`, the rule set conform sends: by default the stand-in inside the
    entry's scope) where a player who has not drawn holds no play, left to `rs`'s draw
    rule of its own (see the module docstring); `exp` itself where `rs` plays the known
    draw rules or no such table is met."""
    if OPTION not in rs.unknown or exp.refused_setup is not None:
        return exp
    replay = stand_in_replay(fx, exp, rs, space, sent)
    if replay is None:
        return exp
    state, rj = replay.state, replay.rj
    steps = [k for k, (step, before) in enumerate(zip(fx.steps, replay.trace, strict=False), 1)
             if not is_next_round(step) and step.split(" ")[0] == "draw"
             and first_draw(rj, before)]
    last = first_draw(rj, state) and (exp.legal is not None or any(map(draws, exp.refused)))
    if not steps and not last:
        return exp
    own = dict(exp.own_steps)
    for k in steps:
        own[k] = tuple(dict.fromkeys((*own.get(k, ()), OPTION)))
    cut = dataclasses.replace(exp, own_steps=tuple(sorted(own.items())))
    if last:
        cut = dataclasses.replace(
            cut, own_draw=True,
            legal=None if exp.legal is None else tuple(a for a in exp.legal if not draws(a)),
            refused={a: c for a, c in exp.refused.items() if not draws(a)})
    return cut


def first_draw(rj: JSON, state: JSON) -> bool:
    """Whether on `state` (under the rule set sent as `rj`) the rules have a player who
    has not drawn and holds no play draw (TURN-2), not the engine's draw (ENG-4)."""
    return (state.get("phase") == "start" and state.get("drawn") is None
            and REFERENCE.legal(rj, state) == [{"type": "draw"}])
