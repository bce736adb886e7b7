"""identify, session 61: faults the house engines' table (benchmarks/identify_house_engines.py)
showed, each fixed for any engine."""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

from mtrain.conformance.fixture import FIXTURE_ROOT, load_corpus
from mtrain.conformance.identify.conclude import _reached
from mtrain.conformance.identify.findings import _contradicted
from mtrain.conformance.identify.found import Observation, OptionFinding
from mtrain.conformance.identify.solve import Model, Solution
from mtrain.spec.catalog import catalog
from mtrain.spec.scope import Space

EXAMPLES = Path(__file__).parent / "examples"


class _NoRival:
    """A solver with no other reading (findings._fewer_bugs asks one)."""

    def solve(self, *args: Any, **kwargs: Any) -> None:
        return None


def _said(values: dict[str, str], value: str, space: Space, own: Any) -> OptionFinding:
    """uncoverable_double at `value` under `values`, doubles-072 failed and unexplained."""
    fx = {f.id: f for f in load_corpus(FIXTURE_ROOT)[0]}["doubles-072"]
    observed = {fx.id: Observation(fx, tuple("fail" for _ in fx.expect))}
    best = Solution({**values, "uncoverable_double": value}, 1, [fx.id])
    found = OptionFinding("uncoverable_double", value, "sure", 3, ["dbl-001"])
    return _contradicted(found, best, cast(Any, _NoRival()), Model.of(space), space.cat,
                         {fx.id: frozenset({"DBL-12"})}, lambda fid, option: True,
                         reached=_reached(best, space, own, observed))


def test_a_table_no_round_of_the_answer_comes_to_does_not_contradict_it() -> None:
    """wagonway (Java, bugs off): stays-open was read contradicted by doubles-072, a
    follow-up due while the open double of an earlier turn binds, which stays-open never
    reaches (REACH-FOLLOW: that double would have bound the mover when its turn began).
    Its phase and open doubles are shapes every rule set has (traced.never_reached says
    nothing), so only the model's full reach tells; both of wagonway's rules of its own
    (`other`) read as each known value. Under a release the same table is reached, and the
    same failure still contradicts the value."""
    space = Space(catalog())
    rs = catalog().rules_file(str(EXAMPLES / "java" / "wagonway-rules.yaml"))
    assert set(rs.unknown) == {"own_train_first", "marker_removal"}
    values = space.point(rs)
    said = _said(values, "stays-open", space, rs.hand_table)
    assert said.status == "sure", said.evidence
    said = _said(values, "released-when-boneyard-empty", space, rs.hand_table)
    assert said.status == "contradicted", said.evidence
    assert "doubles-072" in said.evidence[0]
