"""A legal answer under a rule of one's own on who may open the Mexican Train.

The reference reads `mexican_first_turn` wherever the player to move holds a tile that
would open the empty Mexican Train (engine.open_trains: FIRST-8..10), so under
`mexican_first_turn: other` fuzz set every such legal answer aside, though the rule
decides one thing there: whether that train is open to the mover. dandy
(tests/examples/perl/dandy_engine.pl: it opens to an own train of two tiles) had most of
its answers that read the rule set aside so.

What every rule of who may open it agrees on is judged. The widest opens it (`anyone`:
TRAIN-5), the narrowest keeps it shut to the mover; every house rule lies between, and
the known values too. Not only the known values' agreement: where all three open it (the
own train started, the first turns over) dandy keeps it shut, and conform failed four
fixtures so before the reference traced the rule there. So the plays on the empty Mexican
Train are the rule's, set aside on both sides; every other play is open or not whatever
the rule (open_trains adds the Mexican Train alone), and judged; so are the draw, the pass
and the end of a chain where another play is left (TURN-1 ties them to whether a play
exists, not to which: engine.legal_actions). Where the Mexican plays are the only plays,
whether the mover draws (or passes) is the rule's too, and nothing of the answer is left
to judge but that it lists no other play: such an answer stays set aside.

A refusal that read the rule alone is judged where the action is no play on the Mexican
Train: a play elsewhere is refused whatever the Mexican Train's rule is.

conform has no such cut: a finding so judged reads the rule (Disagreement.own), and its
reproducer is shrunk toward a table that does not.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from mtrain.conformance.fuzz.judge import Disagreement, compare_legal
from mtrain.conformance.fuzz.rulesets import Context
from mtrain.reference import codec
from mtrain.reference.engine import Action, State
from mtrain.spec.notation import action_text

OPTION = "mexican_first_turn"


def _mexican(st: State, action: Action | None) -> bool:
    """Whether `action` is a play on the empty Mexican Train of `st`."""
    return (action is not None and action.kind == "play" and action.train == st.players
            and not st.trains[st.players])


def _decoded(st: State, got: Any) -> Action | None:
    try:
        return codec.action_from_json(st, got)
    except (codec.StateError, ValueError, KeyError, TypeError):
        return None  # (no action on this table: judged as it is)


def applies(ctx: Context, own: Sequence[str]) -> bool:
    """Whether an answer that read the options `own` of one's own is one this cut takes:
    the Mexican Train's rule alone, played its own way."""
    return tuple(own) == (OPTION,) and OPTION in ctx.unknown


def legal_cut(ctx: Context, st: State, legal: Sequence[Action], got: Sequence[Any],
              own: Sequence[str]) -> list[Disagreement] | None:
    """The legal answer `got` on `st` (the reference's `legal`, which read `own`) judged
    but for the plays on the empty Mexican Train (the module docstring); None where it is
    not judged."""
    if not applies(ctx, own) or not _others_play(st, legal):
        return None  # whether it draws or passes is the rule's too: nothing left
    rest = [a for a in legal if not _mexican(st, a)]
    mine = [a for a in got if not _mexican(st, _decoded(st, a))]
    whole = {"legal": sorted(action_text(codec.action_to_json(st, a)) for a in legal)}
    return [replace(d, expect=whole, own=(OPTION,))
            for d in compare_legal(ctx, st, rest, mine, None)]


def refusal_cut(ctx: Context, st: State, legal: Sequence[Action], action: Any,
                wants: Sequence[str], own: Sequence[str]) -> tuple[str, ...] | None:
    """The clauses by which the refusal of `action` on `st` (the reference's legal actions
    `legal`) is judged, where the reference's refusal (by any of `wants`) read the Mexican
    Train's rule alone: `wants` for a play elsewhere than on the empty Mexican Train, and
    for a draw or a pass where such a play is legal; None otherwise."""
    if not applies(ctx, own):
        return None
    decoded = _decoded(st, action)
    if decoded is None or _mexican(st, decoded):
        return None
    return tuple(wants) if decoded.kind == "play" or _others_play(st, legal) else None


def _others_play(st: State, legal: Sequence[Action]) -> bool:
    """Whether `legal` holds a play elsewhere than on the empty Mexican Train of `st`, which
    an empty Mexican Train never holds once a tile opens it (else the rule read is not
    the opening's: nothing is cut)."""
    return not st.trains[st.players] and any(
        a.kind == "play" and not _mexican(st, a) for a in legal)
