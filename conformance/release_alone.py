"""An entry under a release of one's own: judged where the release does not decide.

The reference reads `uncoverable_double` where a double of an earlier turn is open and the
player to move may be bound by it (engine.duties, engine.unbound: DBL-9, DBL-10, DBL-12,
DBL-13), so under `uncoverable_double: other` every entry with such a table was not
applicable whole: brakeman (tests/examples/rust/brakeman.rs: a double dies once every tile
of its number is down or the boneyard is dry) had 123 of its 1,599 results set aside so.

What a release decides is one thing: on such a table, whether each of those doubles still
binds the player to move. From it follow the legal set there (covers only, or the trains
of an ordinary turn; a draw or a pass where the bound player cannot cover), which of the
refusals there hold, and so whether a step taken there is a move at all. It cannot change
what a step does once taken (the tiles laid, the marker a pass raises: MARK-1, the open
doubles, the passes), nor a refusal that binds or frees nobody (a tile that fits no train,
TRAIN-2; a play on a train closed either way), nor scores.

Asked of the reference, not assumed: on the entry's last table, as the replay under each
known release reaches it (the rule set's other values kept), the actions some release
offers and another does not are the rule's (`Expectation.own_actions`: left out of both
sides, the rest of the legal set judged); a refusal stands only where every release
refuses the action, naming any clause that refuses it under one of them (which clause
refuses is the release's; each release's every clause, not the one the reference cites
first: gandy, tests/examples/gandy_engine.py, whose dry boneyard frees only a double
nobody holds a tile for, cited DBL-6 for a tile kept after a draw, where stays-open
refuses it by TURN-3 and DBL-6 alike, and failed against TURN-3 alone). A step whose
legality a release reads is one whose refusal is not applicable (`Expectation.own_steps`),
and a release under which the replay refuses a step says nothing of the entry. The cut
runs where it holds under every known release that plays all the steps (two at least),
reading no other rule of one's own. Not where the double order is one's own too (which
binding double comes first, DBL-7, DBL-8): its known values do not bracket a house order
(brakeman's Mexican double first offers covers that neither oldest-first nor any-open
keeps in common with it), so such an entry stays set aside.

The known releases give three ways the doubles of earlier turns may bind on a table:
every one (stays-open), the live ones (released), none (released-after-layers-turn;
released-when-boneyard-empty on a dry boneyard). With one such double open, those are the
only two ways there are (it binds, or it is free and its train open as in an ordinary
turn), so an action every known release agrees on is one any release gives. With two, a
house rule may free one and not the other, which no known value does (ballbridge's
Mexican double free after its layer's turn, a personal one binding: covers of the one
the known values agree on could be refused), so an entry with a table where two or more
are open (as the stand-in's replay reaches it) stays set aside whole.

fuzz judges a legal answer under such a release alike (fuzz/own_release.py).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Set
from typing import Literal

from mtrain.conformance.adapter import JSON
from mtrain.conformance.fixture import Expectation, Fixture
from mtrain.conformance.interface import Refused
from mtrain.conformance.round_end_alone import passes_under
from mtrain.conformance.runner import REFERENCE, Outcome, play
from mtrain.conformance.stand_in_replay import known_ruleset, stand_in_replay
from mtrain.conformance.step_alone import judged_steps
from mtrain.reference import codec
from mtrain.reference.refusals import refusals
from mtrain.spec.notation import action_json, action_text
from mtrain.spec.ruleset import Ruleset
from mtrain.spec.scope import Region, Space

OPTION = "uncoverable_double"
ONLY_RELEASE = f"its outcome depends on {OPTION} (played its own way)"
"""`applies`'s answer for an entry that only a release of one's own decides."""


@dataclasses.dataclass(frozen=True)
class Answer:
    """The reference's answer on the entry's last table under one known rule set."""

    legal: frozenset[str]
    refusals: dict[str, tuple[str, ...] | None]  # each refusal listed -> its clauses, or None


def release_entry(exp: Expectation, fx: Fixture, rs: Ruleset, space: Space,
                  sent: Ruleset | None = None, option: str = OPTION) -> Expectation | None:
    """`exp` with what a release of one's own decides left to `rs`'s (the module
    docstring), where the rest holds under every known release; None where that cannot
    be shown or nothing is left to check. `sent`: the rule set the implementation is sent
    (by default the stand-in inside the entry's scope, as conform sends it). `option`:
    another rule of one's own whose known values bracket it (bracket_alone.bracket_cut),
    cut alike: what its known values agree on is what it gives too."""
    own = set(rs.unknown)
    named = {option}
    if option not in own or exp.refused_setup is not None:
        return None
    replay = stand_in_replay(fx, exp, rs, space, sent)
    if replay is None or (option == OPTION and any(len(earlier(s)) > 1
                                                   for s in replay.trace)):
        return None  # a release of its own may free some of them and not others
    steps = dict(exp.own_steps)
    for k, read in judged_steps(fx, replay.sent, named):
        steps[k] = tuple(dict.fromkeys((*steps.get(k, ()), *read)))
    regions = known_regions(rs, space, option)
    answers = [answer_under(fx, exp, rs, space, region, set(steps)) for region in regions]
    found = [a for a in answers if isinstance(a, Answer)]
    if False in answers or len(found) < 2:
        return None
    offered = [a.legal for a in found]
    own_actions = tuple(sorted(frozenset.union(*offered) - frozenset.intersection(*offered)))
    refused = {}
    for text, clauses in exp.refused.items():
        named_by = [a.refusals.get(text) for a in found]
        if all(c is not None for c in named_by):  # every release refuses it
            refused[text] = tuple(dict.fromkeys((*clauses, *(c for cs in named_by
                                                             for c in cs or ()))))
    cut = dataclasses.replace(exp, refused=refused, own_steps=tuple(sorted(steps.items())),
                              own_actions=own_actions if exp.legal is not None else ())
    if cut.checks == 0:
        return None
    tried = 0
    for region, answer in zip(regions, answers, strict=True):
        if answer is None:
            continue  # a step this release refuses: it says nothing of the entry
        passed = passes_under(fx, cut, rs, space, region, own - named)
        if passed is False:
            return None
        tried += passed is True
    return cut if tried >= 2 else None


def earlier(state: JSON) -> list[object]:
    """The open doubles of earlier turns on `state` (those a release may free)."""
    this_turn = state.get("turn_doubles") or []
    return [t for t in state.get("open_doubles") or [] if t not in this_turn]


def known_regions(rs: Ruleset, space: Space, option: str = OPTION) -> list[Region]:
    """Each known value of `option` (a release) in turn, `rs`'s other known values kept."""
    known: Region = {o: frozenset((v,)) for o, v in space.point(rs).items()
                     if o not in rs.unknown}
    return [{**known, option: frozenset((value,))} for value in space.options[option]]


def answer_under(fx: Fixture, exp: Expectation, rs: Ruleset, space: Space, region: Region,
                 own_steps: Set[int]) -> Answer | Literal[False] | None:
    """The reference's answer on the entry's last table under a known rule set of `region`;
    None where there is no such rule set or it refuses a step the release decides (it says
    nothing), False where it refuses another step or does not set up (the cut cannot be
    shown)."""
    known = known_ruleset(rs, space, region)
    if known is None:
        return None
    trace: list[JSON] = []
    played = play(fx, known, REFERENCE, None, trace)
    if isinstance(played, Outcome):
        refused_at = played.step if played.status == "fail" else None
        return None if refused_at in own_steps else False
    state, rj = played
    legal = frozenset(action_text(a) for a in REFERENCE.legal(rj, state))
    refusals: dict[str, tuple[str, ...] | None] = {}
    for text in exp.refused:
        try:
            REFERENCE.apply(rj, state, action_json(text))
            refusals[text] = None
        except Refused:
            refusals[text] = every_clause(rj, state, text)
    return Answer(legal, refusals)


def every_clause(rj: JSON, state: JSON, text: str) -> tuple[str, ...]:
    """Every clause that refuses the action `text` on `state` (an implementation may cite
    any of them: docs/protocol.md), not only the first the reference cites."""
    st = REFERENCE.state(rj, state)
    try:
        act = codec.action_from_json(st, action_json(text))
    except codec.StateError:
        return ()  # no action on this table (a tile not held): TURN-7, listed already
    return tuple(r.clause for r in refusals(st, act))
