"""A probe of a pass where the rules say draw, under a draw rule of one's own.

draw_alone.py leaves the choice between drawing and passing, where a player who has not
drawn holds no play, to a draw rule of one's own. A pass there that turns on how many tiles
the boneyard holds is no such rule (TURN-2: a tile in the boneyard is drawn, however many):
dandy's bug 3 (tests/examples/perl/dandy_engine.pl: the last tile never drawn) looked like
trolley's house rule (--duty-pass: bound to a double it cannot cover, it passes). So the
implementation is asked again with one tile more in the boneyard.
"""

from __future__ import annotations

from mtrain.conformance.adapter import JSON, Implementation
from mtrain.conformance.probing import asked
from mtrain.spec.notation import action_text

PROBE = ("asked again with one tile more in the boneyard (whether its pass turns on how "
         "many are left, TURN-2: last_bone.py)")


def counts_bones(impl: Implementation, rj: JSON, state: JSON, actual: set[str]) -> bool:
    """Whether `impl`, passing without drawing at `state` (a table of `Expectation.own_draw`),
    draws once the boneyard holds one tile more (another player's, who keeps one): its
    pass then turned on how many tiles are left, which no draw rule does (TURN-2: a tile
    in the boneyard is drawn), so the legal set is judged as written. False where it
    draws already, no tile can be moved, or it will not answer that table (a crash or a
    broken answer there is raised, reported as what it is: probing.asked)."""
    if "pass" not in actual or "draw" in actual:
        return False
    hands, seat, bones = state.get("hands"), state.get("seat"), state.get("boneyard")
    if not isinstance(hands, list) or not isinstance(bones, list):
        return False
    giver = next((k for k, h in enumerate(hands)
                  if k != seat and isinstance(h, list) and len(h) > 1), None)
    if giver is None:
        return False
    probe = {**state, "hands": [list(h) for h in hands], "boneyard": list(bones)}
    probe["boneyard"].append(probe["hands"][giver].pop())
    found = asked(lambda: impl.legal(rj, probe), PROBE)  # its failure reported as it is
    return found is not None and "draw" in {action_text(a) for a in found}
