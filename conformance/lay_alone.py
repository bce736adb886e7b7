"""A table with a double to lay, under a doubles rule of one's own: its other plays judged.

The reference reads the doubles rule where a double is laid (what it asks: DBL-1, DBL-11),
not where one is offered: every known doubles rule lays a double wherever its tile fits,
so a legal list that offers one reads no doubles rule, and under `doubles: other` the entry
was judged by the stand-in, which lays every double that matches. hostler's house rule
(tests/examples/js/hostler_engine.js --house=lone-double: a double is laid only with
another tile of its number in hand, or as the last tile) failed 58 results so, charged to
the train or the draw it was judged by (TRAIN-4, TURN-3, MARK-1): none a bug. Reading the
rule wherever a double is offered set those entries aside whole, and with them tables no
doubles rule decides (tests/test_other_reads.py: an option is read only where its clause
applies).

So the cut is finer, as draw_alone.py's for a draw rule of one's own. Under a doubles rule
of one's own, on a table whose legal list offers a double, whether each such double may be
laid is the rule's: a double the implementation leaves out on a train it keeps open to the
player is set aside (which trains are open is no doubles rule's: double_plays.py asks
where it cannot tell), and where it then lays nothing the list offers, the draw or pass it
must offer instead is the reference's on that table with none of those doubles laid (the
tiles held back: `held_back`). A play it offers beyond the list, every refusal, every step
and state are judged as written (double_plays.laid_aside, in expectation_checks.check). What else a
doubles rule decides, whether a double asks for a cover and whether it binds the next
players, is read where a double is laid or open (the follow-up, DBL-6), and such entries
are set aside whole as before.
"""

from __future__ import annotations

import dataclasses

from mtrain.conformance.adapter import JSON
from mtrain.conformance.double_plays import double_play
from mtrain.conformance.expectation_checks import draws
from mtrain.conformance.fixture import Expectation, Fixture
from mtrain.conformance.partition import stand_in
from mtrain.conformance.runner import REFERENCE, Outcome, play
from mtrain.reference import codec, engine
from mtrain.spec import tiles as T
from mtrain.spec.notation import action_text
from mtrain.spec.ruleset import Ruleset
from mtrain.spec.scope import Space

OPTION = "doubles"


def lay_entry(exp: Expectation, fx: Fixture, rs: Ruleset, space: Space,
              sent: Ruleset | None = None) -> Expectation:
    """`exp` with whether each double its legal list offers may be laid left to `rs`'s
    doubles rule of its own (the module docstring), on the table the reference's replay
    under `sent` (the rule set conform sends: by default the stand-in inside the entry's
    scope) reaches; `exp` itself where `rs` plays a known doubles rule, the list offers
    no double, or the replay does not reach the entry's table."""
    if OPTION not in rs.unknown:  # (first: nothing of the entry is read under a known rule)
        return exp
    listed = [a for a in exp.legal or () if double_play(a)]
    if not listed or exp.refused_setup is not None:
        return exp
    if sent is None:
        try:
            sent = stand_in(rs, exp, space)
        except ValueError:  # no known rule set of the scope stands in for it
            return exp
    played = play(fx, sent, REFERENCE, None)
    if isinstance(played, Outcome):
        return exp
    state, rj = played
    unlaid = held_back(rj, state, {a.split(" ")[1] for a in listed})
    others = set(exp.legal or ()) - set(listed)
    if {a for a in unlaid if a.startswith("play ")} != {a for a in others
                                                        if a.startswith("play ")}:
        return exp  # the replay is not the entry's table: judged as written
    if ("draw_rule" in rs.unknown and unlaid == ["draw"] and state.get("drawn") is None
            and state.get("phase") == "start"):
        # TURN-2: with nothing laid, whether they draw or pass is the draw rule's too
        # (draw_alone.py's first draw)
        return dataclasses.replace(exp, own_doubles=tuple(a for a in unlaid if not draws(a)),
                                   own_draw=True)
    return dataclasses.replace(exp, own_doubles=tuple(unlaid))


def held_back(rj: JSON, state: JSON, tiles: set[str]) -> list[str]:
    """The reference's legal list on `state` (under `rj`) were the mover not to lay any of
    `tiles` (doubles): those tiles taken from their hand in the engine's own state, which,
    unlike a table sent whole, may hold fewer tiles than the set (a drawn one among them
    leaves a drawn tile that cannot be laid: TURN-3, TURN-4)."""
    st = REFERENCE.state(rj, state).copy()
    for tile in tiles:
        st.hands[st.seat] &= ~T.BIT[T.parse(tile)]
    return [action_text(codec.action_to_json(st, a)) for a in engine.legal_actions(st)]
