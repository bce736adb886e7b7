"""An entry under a rule of one's own that the known rules bracket: the follow-up, and
whether one's own train comes first.

A table with a double laid this turn reads the follow-up rule (DBL-2..4) for where the tile
after it may go, so under `follow_up: other` the whole entry was not applicable: cantina
(tests/examples/cantina_engine.py: the double itself or one's own train) had 68 fixtures
set aside, more than any other rule of one's own whose known values agree on the answer
and bracket the house rules (session 46's count over the house engines' rule sets). The
known follow-ups bracket the house rules met so far: `cover-own` allows the double alone,
`anywhere` every train the player may use, and a follow-up of one's own lets the tile go
on the double and on some of those trains (cantina's and gondola's own train besides,
siding's anywhere only without a cover). Where the two ends of that bracket give the
entry's answer, the sets between them give it too: the legal set, a refusal, the state
after. Whether one's own train comes first is bracketed alike: `required` allows one's
own train alone until it is started, `not-required` every train one may use, and the
house rules met (tenwheeler's own train unless stuck, hump's and flagstop's no marked
train of another's) lie between.

So where the reference, playing the entry under every known value of such an option in
turn (both ends of its bracket included; the rule set's other values kept), finds it
holds each time and reads no other rule played its own way, the entry runs as it is.
Where it reads a scoring, blank values or tie rule of one's own as well, what the
round's end is worth is set aside (round_end_alone.worth_aside), and each of those
options is asked in turn alike.

Where the two ends disagree on a table, a house rule between them still gives what they
agree on: every play both offer (the narrower's plays are the house rule's, and its plays
the wider's), each refusal both make, what every step does. So an entry that reads only
whether one's own train comes first, and that its two ends answer differently, runs cut
as a release of one's own is (release_alone.py): the actions the known values disagree on
left to the engine (`Expectation.own_actions`), the refusals they share kept, a step
whose legality the rule decides not applicable where refused. Wagonway
(tests/examples/java/Wagonway.java: one's own train first unless one's marker is up) had
46 entries set aside whole so, engine-002's three refusals among them
(tests/test_house60.py); 28 of them run now (drover 40 more, tanker 22). An entry whose
every action the two ends disagree on (first-022: a draw, or two plays) still has its
legal set judged without them: nothing else may be offered (session 64: it was dropped
whole, and an action both ends refuse, offered, passed). Not the follow-up's: a house
follow-up met outside its bracket (ballbridge's, below) needs its probe first.

A rule outside the bracket (the tile after a double may not cover it) could still see
another answer. Its engine is asked (follow_probe.py): one that refuses to cover the
double just laid on a follow-up table of the run has a failure of the follow-up's moment
set aside as its own rule's (ballbridge, tests/examples/rust/ballbridge.rs).
"""

from __future__ import annotations

import re
from collections.abc import Set

from mtrain.conformance.divergence import ROUND_END
from mtrain.conformance.fixture import Expectation, Fixture
from mtrain.conformance.release_alone import release_entry
from mtrain.conformance.round_end_alone import passes_under, worth_aside
from mtrain.spec.ruleset import Ruleset
from mtrain.spec.scope import Region, Space

BRACKETS = {"follow_up": frozenset(("cover-own", "anywhere")),
            "own_train_first": frozenset(("required", "not-required"))}
"""An option -> the narrowest and the widest of its known values (DBL-4 and DBL-2; TRAIN-7
and TRAIN-4): both must give the entry's answer. That every known value's plays lie
between the two is checked on the model, over every situation and every other rule
(tests/test_fuzz_s47.py), so a value added out of that order fails there."""


def bracketed_options(why: str) -> frozenset[str]:
    """The options `applies`'s reason names, where they are bracketed rules of one's own
    (BRACKETS) and perhaps round-end options of one's own besides (ROUND_END); else
    none."""
    named = frozenset(re.findall(r"(\w+) \(played its own way\)", why))
    return named if bracketed(named) else frozenset()


def bracketed(named: Set[str]) -> bool:
    """Whether an entry reading the options `named`, played their own way, is one the
    bracket may run: a bracketed rule among them (BRACKETS), and perhaps round-end ones
    besides (ROUND_END), nothing else (fuzz asks the same of an answer's reads)."""
    return bool(named & BRACKETS.keys()) and named <= BRACKETS.keys() | ROUND_END


def bracketed_entry(exp: Expectation, fx: Fixture, rs: Ruleset, space: Space,
                    named: Set[str]) -> Expectation | None:
    """`exp` (without what the round's end is worth, where `named`, the options `rs` plays
    its own way that the entry reads, has round-end ones), where every known value of
    those options, each bracket's two ends among them, gives it under `rs`'s other rules;
    None where that cannot be shown or nothing is left to check."""
    own = set(rs.unknown)
    if not named & BRACKETS.keys() or not named <= own or exp.refused_setup is not None:
        return None
    cut = worth_aside(exp, named & ROUND_END) if named & ROUND_END else exp
    if cut.checks == 0:
        return None
    known: Region = {o: frozenset((v,)) for o, v in space.point(rs).items() if o not in own}
    held: dict[str, set[str]] = {o: set() for o in named}
    for option in sorted(named):
        for value in space.options[option]:
            passed = passes_under(fx, cut, rs, space,
                                  {**known, option: frozenset((value,))}, own - named)
            if passed is False:
                return None
            if passed:
                held[option].add(value)
    ends = all(held[o] >= BRACKETS[o] for o in named & BRACKETS.keys())
    return cut if ends else None


CUT = "own_train_first"
"""The bracketed rule whose entries run cut where its two ends disagree (module
docstring): the follow-up's house rules are not all between its ends."""


def bracket_cut(exp: Expectation, fx: Fixture, rs: Ruleset, space: Space,
                named: Set[str], sent: Ruleset | None = None) -> Expectation | None:
    """`exp` with what its two ends disagree on left to the engine, where the entry reads
    CUT alone of the rules `rs` plays its own way and the rest holds under each known
    value; None otherwise. `sent`: the rule set the engine is sent (release_entry's; fuzz
    sends its stand-in)."""
    if set(named) != {CUT}:
        return None
    # where every action the entry lists is the rule's (first-022: a draw under one end,
    # two plays under the other), the legal set is still judged without them: an action
    # both ends refuse is refused between them too (first-032's [4-3] on a closed train,
    # s54-003's draw on an empty boneyard: offered, they passed while it was dropped whole)
    return release_entry(exp, fx, rs, space, sent, option=CUT)

