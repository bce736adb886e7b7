"""identify, session 59b: faults seen on this session's house engines.

gandy (tests/examples/gandy_engine.py, bugs on) declares its release its own
(`uncoverable_double: other`). conform judges an entry under such a release cut to what no
release decides (release_alone.py: which steps are legal is the release's; the markers and
passes a step leaves are not), and fails gandy's bug 1 (a marker left down, doubles-044)
there. identify let the declared release explain every failed answer whose run read it
(solve.constraint, `read`), and listed bug 1 as evidence for `other`: it may be no looser
than conform, so such an entry now tells which declared rules it cannot be
(Observation.judged).
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

from mtrain.conformance.fixture import FIXTURE_ROOT, load_corpus
from mtrain.conformance.identify.observe import observe
from mtrain.conformance.process import ProcessImplementation
from mtrain.conformance.selection import read_rules_files
from mtrain.spec.ruleset import OTHER

EXAMPLES = Path(__file__).parent / "examples"
STAND_IN = {"follow_up": "cover-own", "uncoverable_double": "stays-open"}


def test_a_failure_conform_judges_under_a_declared_release_is_not_the_release() -> None:
    (declared,) = read_rules_files([str(EXAMPLES / "gandy-rules.yaml")])
    own = {o for o, v in declared.choices if v == OTHER}
    assert own == set(STAND_IN)
    sent = dataclasses.replace(declared, choices=tuple(
        (o, STAND_IN.get(o, v)) for o, v in declared.choices))
    fixtures = [fx for fx in load_corpus(FIXTURE_ROOT)[0] if fx.id == "doubles-044"]
    assert len(fixtures) == 1
    command = [sys.executable, str(EXAMPLES / "gandy_engine.py"), "--box", "12"]
    with ProcessImplementation(command) as impl:
        (obs,) = observe(fixtures, impl, sent, own=own)
    assert "fail" in obs.outcomes  # bug 1: the marker left down (MARK-3)
    assert obs.judged == {"uncoverable_double"}
