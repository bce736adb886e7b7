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

The meaning (which plays are the rule's, when the draw or pass is judged) lives in
conformance/mexican_alone.py, which conform's cut reads too (mexican_entry): a finding so
judged reads the rule (Disagreement.own), and its reproducer runs in conform cut alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from mtrain.conformance.fuzz.judge import Disagreement, compare_legal
from mtrain.conformance.fuzz.rulesets import Context
from mtrain.conformance.mexican_alone import OPTION, decoded, judged_action, mexican, others_play
from mtrain.reference import codec
from mtrain.reference.engine import Action, State
from mtrain.spec.notation import action_text


def applies(ctx: Context, own: Sequence[str]) -> bool:
    """Whether an answer that read the options `own` of one's own is one this cut takes:
    the Mexican Train's rule alone, played its own way."""
    return tuple(own) == (OPTION,) and OPTION in ctx.unknown


def legal_cut(ctx: Context, st: State, legal: Sequence[Action], got: Sequence[Any],
              own: Sequence[str]) -> list[Disagreement] | None:
    """The legal answer `got` on `st` (the reference's `legal`, which read `own`) judged
    but for the plays on the empty Mexican Train (mexican_alone.py); None where it is
    not judged."""
    if not applies(ctx, own) or not others_play(st, legal):
        return None  # whether it draws or passes is the rule's too: nothing left
    rest = [a for a in legal if not mexican(st, a)]
    mine = [a for a in got if not mexican(st, decoded(st, a))]
    whole = {"legal": sorted(action_text(codec.action_to_json(st, a)) for a in legal)}
    return [replace(d, expect=whole, own=(OPTION,))
            for d in compare_legal(ctx, st, rest, mine, None)]


def refusal_cut(ctx: Context, st: State, legal: Sequence[Action], action: Any,
                wants: Sequence[str], own: Sequence[str]) -> tuple[str, ...] | None:
    """The clauses by which the refusal of `action` on `st` (the reference's legal actions
    `legal`) is judged, where the reference's refusal (by any of `wants`) read the Mexican
    Train's rule alone: `wants` where mexican_alone judges the action's legality whatever
    the rule; None otherwise."""
    if not applies(ctx, own):
        return None
    return tuple(wants) if judged_action(st, legal, action) else None
