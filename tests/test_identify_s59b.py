"""identify, session 59b: faults seen on this session's house engines.

Left open: gandy (tests/examples/gandy_engine.py, bugs on) declares its release its own
(`uncoverable_double: other`); identify lets the declared release explain every failed
answer whose run read it (solve.constraint, `read`) and lists bug 1 (a marker left down,
doubles-044), which conform judges under the release cut, as evidence for `other`. A first
attempt (an observation telling which declared rules an entry cannot be) changed no reading
end to end and was reverted.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any, cast

import pytest

from mtrain.conformance.fixture import FIXTURE_ROOT, load_corpus
from mtrain.conformance.identify.conclude import _reached
from mtrain.conformance.identify.findings import _contradicted
from mtrain.conformance.identify.found import Observation, OptionFinding
from mtrain.conformance.identify.measure import measure
from mtrain.conformance.identify.solve import Model, Solution
from mtrain.conformance.process import ProcessImplementation
from mtrain.spec.catalog import catalog
from mtrain.spec.scope import Space

EXAMPLES = Path(__file__).parent / "examples"
STAND_IN = {"follow_up": "cover-own", "uncoverable_double": "stays-open"}


def test_a_table_the_answer_never_reaches_does_not_contradict_it() -> None:
    """gandy's first commit answered bad-request on chain tables (end-025..029), which
    the answer's `first_turn: single` never has; `doubles: open` was read contradicted by
    them (findings._contradicted's `against`)."""
    space = Space(catalog())
    fixtures = {fx.id: fx for fx in load_corpus(FIXTURE_ROOT)[0]}
    chain = fixtures["end-025"]
    assert chain.table is not None and chain.table.get("phase") == "chain"
    values = {**space.point(catalog().ruleset("pagat")), "first_turn": "single",
              "doubles": "open"}
    best = Solution(values, 1, ["end-025"])
    observed = {"end-025": Observation(chain, tuple("fail" for _ in chain.expect))}
    found = OptionFinding("doubles", "open", "sure", 3, ["dbl-001"])
    model = Model.of(space)
    said = _contradicted(found, best, cast(Any, _NoRival()), model, space.cat,
                         {"end-025": frozenset({"FIRST-5"})}, lambda fid, option: True,
                         reached=_reached(best, space, None, observed))
    assert said.status == "sure", said.evidence
    # under a chain first turn the table is had: the same fixture contradicts it
    values = {**values, "first_turn": "chain"}
    said = _contradicted(found, Solution(values, 1, ["end-025"]), cast(Any, _NoRival()),
                         model, space.cat, {"end-025": frozenset({"FIRST-5"})},
                         lambda fid, option: True,
                         reached=_reached(Solution(values, 1, []), space, None, observed))
    assert said.status == "contradicted", said.evidence


class _NoRival:
    """A solver with no other reading (findings._fewer_bugs asks one)."""

    def solve(self, *args: Any, **kwargs: Any) -> None:
        return None


@pytest.mark.skipif(shutil.which("node") is None, reason="reachstacker runs on node")
def test_a_deal_that_differs_in_who_has_a_first_turn_to_come_measures_no_procedure() -> None:
    """reachstacker (tests/examples/js/reachstacker_engine.js) lays the highest double
    dealt as its holder's first turn: hands, boneyard and the first player as
    highest-double-held deals them, the holder's first turn gone. measure compared the
    deals without `first_turns` and measured highest-double-held, a wrong value given as
    sure; now no known procedure (nor seat) matches, and the fixtures decide."""
    space = Space(catalog())
    command = ["node", str(EXAMPLES / "js" / "reachstacker_engine.js")]
    with ProcessImplementation(command) as impl:
        deals, _ = measure(impl, space, dict(catalog().ruleset("pagat").choices))
    assert deals.table  # it deals: the start was compared
    assert deals.procedure is None, deals.evidence.get("engine_procedure")
    assert "engine_procedure" not in deals.evidence
