"""A follow-up of one's own outside the known rules' bracket: the double just laid not
covered.

bracket_alone.py runs an entry under `follow_up: other` where both ends of the known
follow-ups' bracket give its answer: `cover-own` allows the double just laid alone,
`anywhere` every train the player may use, the double included. Every house rule met
before lay between them, so every one let the tile after a double cover it. A rule that
forbids that cover (ballbridge's "hand it on", tests/examples/rust/ballbridge.rs: the
layer of a double never covers it) lies outside the bracket, and the entries run on its
strength failed for the rule, not for a bug: 11 of ballbridge's 14 failures with its bugs
off (a follow-up refused, its legal list without the cover), charged to DBL-2.

Which rule is played is the implementation's to say, so it is asked (a probe), as
double_alone.py asks about a double of an earlier turn: on a follow-up table of the run
(phase `follow`, a double laid this turn, no double of an earlier turn open), the play
that covers the double just laid with a tile the mover may lay there, which both ends of
the bracket allow. Where it refuses that play, its rule lies outside the bracket, and a
failure charged only to the clauses of the moment (the follow-up's, DBL-2..4, and TURN-3
for a drawn tile) is not applicable. Where it plays it, or no such table or tile is met,
or it cannot answer, the failure stands: the bracket holds for it.
"""

from __future__ import annotations

from mtrain.conformance.adapter import JSON, Implementation
from mtrain.conformance.double_alone import train_of
from mtrain.conformance.interface import Refused
from mtrain.conformance.probing import asked
from mtrain.conformance.process import ConfigurationError
from mtrain.conformance.runner import Outcome
from mtrain.spec.catalog import catalog
from mtrain.spec.ruleset import Ruleset

OUTSIDE = ("the implementation's own follow-up rule (follow_up played its own way) lies "
           "outside the known rules' bracket: it refuses to cover the double just laid, "
           "which every known follow-up allows, so the entry, run on the strength of that "
           "bracket, judges no rule of its own")
"""The reason such a failure is not applicable: the same for every result, so that the
report counts them under one reason (the probe's table and answer follow it)."""

MOMENT = frozenset({"TURN-3"})
"""Clauses of a follow-up's moment besides the follow-up rule's own: what a drawn tile may
do there (a tile drawn in a follow-up that covers the double)."""


def follow_clause(clause: str) -> bool:
    """Whether the follow-up rule decides `clause` (its `when` names the option)."""
    found = catalog().clauses.get(clause)
    return found is not None and "follow_up" in found.when


def outside_bracket(outcome: Outcome, rs: Ruleset, impl: Implementation, rj: JSON
                    ) -> list[str] | None:
    """The not-applicable messages of `outcome` (a run under `rs`, sent as `rj`), where
    `rs` plays the follow-up its own way, every clause the failure is charged to is one of
    the follow-up's moment, and `impl` refuses to cover the double just laid on a follow-up
    table of the run; else None."""
    if (outcome.status != "fail" or "follow_up" not in rs.unknown or not outcome.charged
            or not all(follow_clause(c) or c in MOMENT for c in outcome.charged)):
        return None
    seen: set[str] = set()
    for state in outcome.states:
        play = covering_play(state)
        if play is None or repr(play) in seen:
            continue
        seen.add(repr(play))
        refused = refusal(impl, rj, state, play)  # a crash: reported as it is
        if refused is not None:
            where = "the Mexican Train" if play["train"] == "mexican" else f"train {play['train']}"
            return [OUTSIDE, f"[{play['tile']}] on {where} covering the double laid there "
                    f"this turn: refused ({refused}); " + "; ".join(outcome.messages)]
    return None


def covering_play(state: JSON) -> JSON | None:
    """On a follow-up table (phase `follow`, the last double of the turn still open on its
    train, no double of an earlier turn open), a play of a tile the mover may lay (the
    drawn one, if any) on that double; None where `state` is no such table."""
    if not isinstance(state, dict) or state.get("phase") != "follow":
        return None
    laid, open_now = state.get("turn_doubles"), state.get("open_doubles")
    if (not isinstance(laid, list) or not laid or not isinstance(open_now, list)
            or any(t not in laid for t in open_now) or laid[-1] not in open_now):
        return None
    train = laid[-1]
    line = train_of(state, train)
    end, hands, seat = line.get("end"), state.get("hands"), state.get("seat")
    if (not isinstance(end, int) or not isinstance(hands, list) or not isinstance(seat, int)
            or not 0 <= seat < len(hands) or not isinstance(hands[seat], list)):
        return None
    drawn = state.get("drawn")
    tiles = [drawn] if isinstance(drawn, str) else hands[seat]
    for tile in tiles:
        if isinstance(tile, str) and str(end) in tile.split("-"):
            return {"type": "play", "tile": tile, "train": train}
    return None


def refusal(impl: Implementation, rj: JSON, state: JSON, play: JSON) -> str | None:
    """Why `impl` refuses `play` on `state` (its reason and clause), or None where it plays
    it or will not answer that table (`unsupported`, a table it cannot have). A crash or a
    broken answer to the probe is raised, reported as what it is (probing.asked): taken
    for "plays it", it was reported as the failure the probe was asked about."""

    def probe() -> str | None:
        try:
            impl.apply(rj, state, play)
        except Refused as e:
            return e.reason + (f" [{e.clause}]" if e.clause else "")
        return None
    return asked(probe, f"asked whether it covers the double just laid with [{play['tile']}] "
                 "(whether its follow-up lies outside the known rules' bracket: "
                 "follow_probe.py)")


def refuses(impl: Implementation, rj: JSON, state: JSON, play: JSON) -> str | None:
    """`refusal`, for a reader to whom a crash or a broken answer says nothing of the rule
    (identify's observation, which reports no result): None then."""
    try:
        return refusal(impl, rj, state, play)
    except ConfigurationError:  # the implementation cannot be used at all: conform stops
        raise
    except Exception:  # `unsupported`, a crash, a broken answer: it says nothing
        return None

