"""Whether a drawn tile's missing play is the moment's (TURN-3) or the train's.

A play of the tile just drawn missing on another player's marked train, or on the empty
Mexican Train to open, while the tile is offered elsewhere, is charged to that train's
access (TRAIN-4, TRAIN-5: expectation_checks.py), since an engine that keeps the train
closed at every moment (hopper's "short-lap", tests/examples/js/hopper_engine.js) answers
the table so; one missing on a train a released double opens, to the release. An engine
that lists a drawn tile on fewer trains than it fits answers those tables alike
(reachstacker's bug 1, tests/examples/js/reachstacker_engine.js): one table cannot tell
them apart, and that engine's failures were charged to the access it grants.

So where the engine offers the drawn tile somewhere (it knows the tile may be played),
it is asked (a probe) about the same table without the draw: the tile in hand at the
moment, nothing drawn. Where it offers there every play it left out after the draw, the
train is open to it, and the miss is what may be done with a drawn tile (TURN-3). Where
it does not, or will not answer (probing.asked), the access charge stands; so does it
where the drawn tile is offered nowhere (a draw or a pass in its place: the rule that
should have let it be played, as the mutants' readings charge it).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from mtrain.conformance.adapter import JSON, Implementation
from mtrain.conformance.probing import asked
from mtrain.spec.notation import action_text


def drawn_moment(impl: Implementation, rj: JSON, state: JSON,
                 missing: Sequence[str], offered: Collection[str]) -> bool:
    """Whether `missing` (plays of the tile drawn in `state`), where `impl` `offered` that
    tile elsewhere, are all offered by it on the same table with nothing drawn: their
    trains open to it, the draw's rule narrowed them (TURN-3)."""
    drawn = state.get("drawn")
    if not isinstance(drawn, str) or not missing:
        return False
    tile = action_text({"type": "play", "tile": drawn, "train": ""})  # "play 5-0 on "
    if not any(a.startswith(tile) for a in offered):
        return False
    probe = dict(state, drawn=None)  # the same tile in hand, at the moment's start
    found = asked(lambda: impl.legal(rj, probe), "the same table without the draw "
                  "(drawn_probe.py)")
    return found is not None and set(missing) <= {action_text(a) for a in found}
