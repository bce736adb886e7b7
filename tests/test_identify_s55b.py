"""identify on an option found `other` whose declared value nothing contradicts once
other clauses' failures are set aside (conformance/identify/bugs.unopposed, pins.py),
session 55.

trolley (tests/examples/c, bugs on) declares `tie_rule: shared`; its scoring bug changes
every round total, so its tie tables fit no tie rule, and `other`, which accepts any
outcome, took them on a margin of 10 though no fixture showed anything of any tie rule.
pins.py asked only the solver's rival value (lowest-seat), never the declared one. The
pieces below are what a tie table's partition says under each tie rule (one entry per
rule, each holding under that rule alone), made up for each case.
"""

from __future__ import annotations

from mtrain.conformance.fixture import FIXTURE_ROOT, load_corpus
from mtrain.conformance.identify import bugs, pins, solve
from mtrain.conformance.identify.cells import Piece
from mtrain.conformance.identify.conclude import Until
from mtrain.conformance.identify.found import Observation, OptionFinding
from mtrain.conformance.identify.solve import Solution
from mtrain.spec.catalog import catalog
from mtrain.spec.ruleset import OTHER
from mtrain.spec.scope import Region, Space

CAT = catalog()
SPACE = Space(CAT)
TIES = ("shared", "most-outs", "lowest-seat")
FIRST = {o: vs[0] for o, vs in SPACE.options.items()}


def tie_table(read: tuple[str, ...]) -> list[Piece]:
    """A tie table: entry i holds under TIES[i] alone; the runs read `read`."""
    return [Piece({"tie_rule": frozenset([v])},
                  tuple("pass" if i == k else "fail" for i in range(len(TIES))), read)
            for k, v in enumerate(TIES)]


SCORED = tie_table(("tie_rule", "scoring"))
"""A tie table whose totals the round's scoring makes (a round played, then winners)."""
GIVEN = tie_table(("tie_rule",))
"""A tie table whose totals are given (winners asked of the start)."""


def failed_throughout(parts: list[Piece], n: int = 10
                      ) -> tuple[dict[str, tuple[str | None, ...]], dict[str, list[Piece]]]:
    """`n` tie tables the engine fails under every tie rule (each entry fails)."""
    seen: dict[str, tuple[str | None, ...]] = {f"tie-{k}": ("fail",) * len(TIES)
                                               for k in range(n)}
    return seen, {fid: parts for fid in seen}


def weigh(answer: dict[str, str], parts: list[Piece],
          bugged: frozenset[str] = frozenset()) -> tuple[bugs.Shape, bool]:
    """The declared shared's shape at `answer` (tie_rule `other`), the fixtures other
    clauses explain set aside, and whether it stands unopposed."""
    seen, by = failed_throughout(parts)
    values = {**answer, "tie_rule": "shared"}
    s = bugs.shape("tie_rule", "shared", values, SPACE, frozenset(), seen, by)
    weighed = bugs.owned_elsewhere_aside(s, "tie_rule", values, SPACE, seen, by, bugged)
    return weighed, bugs.unopposed(weighed, "tie_rule", "shared", answer, SPACE,
                                   frozenset(), seen, by)


def test_tie_tables_a_scoring_bug_breaks_leave_the_declared_tie_rule_unopposed() -> None:
    # scoring `other` in the answer (its bug changes every total): the tie tables it
    # scores fail under every tie rule, evidence of scoring only
    answer = {**FIRST, "scoring": OTHER, "tie_rule": OTHER}
    weighed, unopposed = weigh(answer, SCORED)
    assert weighed.against == () and weighed.shows == ()
    assert unopposed
    # the same tables read as bugs in scoring's clauses (pinned there first): the same
    answer = {**FIRST, "tie_rule": OTHER}
    seen, _ = failed_throughout(SCORED)
    weighed, unopposed = weigh(answer, SCORED, frozenset(seen))
    assert weighed.against == () and unopposed


def test_a_tie_rule_of_its_own_is_not_read_as_the_declared_value() -> None:
    # no other option's rule explains the failures: they are the tie rule's own
    answer = {**FIRST, "tie_rule": OTHER}
    weighed, unopposed = weigh(answer, SCORED)
    assert len(weighed.unlike_all) == 10 and not unopposed
    assert not bugs.with_a_bug(weighed, "shared", "shared")
    # scoring `other`, but the totals are given, not scored: still the tie rule's own
    weighed, unopposed = weigh({**answer, "scoring": OTHER}, GIVEN)
    assert len(weighed.unlike_all) == 10 and not unopposed


def test_a_value_some_fixture_shows_is_not_unopposed_for_the_declared_one() -> None:
    # one table the engine answers as most-outs does: evidence about the option, which
    # the declared value's word alone does not outweigh
    answer = {**FIRST, "scoring": OTHER, "tie_rule": OTHER}
    seen, by = failed_throughout(SCORED)
    seen["outs"] = ("fail", "pass", "fail")
    by["outs"] = GIVEN
    values = {**answer, "tie_rule": "shared"}
    s = bugs.shape("tie_rule", "shared", values, SPACE, frozenset(), seen, by)
    weighed = bugs.owned_elsewhere_aside(s, "tie_rule", values, SPACE, seen, by)
    assert weighed.against == ("outs",)
    assert not bugs.unopposed(weighed, "tie_rule", "shared", answer, SPACE, frozenset(),
                              seen, by)


def pin_tie_rule(scoring: str) -> OptionFinding:
    """pins._values_with_bugs on ten tie tables the engine failed throughout (SCORED, as
    real match fixtures' ids and clauses), the engine declaring pagat (tie rule shared),
    with a stand-in for the solver: its first answer tie_rule `other` (rival lowest-seat)
    and `scoring` at `scoring`; pinned to a known tie rule, shared with margin 0."""
    fixtures, errors = load_corpus(FIXTURE_ROOT / "match")
    assert not errors and len(fixtures) >= 10
    observations = [Observation(fx, ("fail",) * len(TIES)) for fx in fixtures[:10]]
    parts = {obs.fixture.id: SCORED for obs in observations}
    ids = sorted(parts)

    def conclude(region: Region, dropped: solve.Bugs, until: Until | None
                 ) -> tuple[Solution, list[OptionFinding], list[str]] | None:
        own = OTHER in region.get("tie_rule", frozenset([OTHER]))
        values = {**FIRST, "scoring": scoring, "tie_rule": OTHER if own else "shared"}
        best = Solution(values, 40 if own else 100, [] if own else ids)
        f = (OptionFinding("tie_rule", OTHER, "other", 10, ids[:3], ["lowest-seat"]) if own
             else OptionFinding("tie_rule", "shared", "undetermined", 0, ["(none)"]))
        if until is not None and until(best, f):
            return None
        return best, [f], []
    declared = CAT.ruleset("pagat")
    _, findings, _ = pins._values_with_bugs(conclude, {}, SPACE, declared, observations,
                                            parts)
    [found] = findings
    return found


def test_the_declared_tie_rule_a_scoring_rule_of_its_own_explains_away_is_pinned() -> None:
    found = pin_tie_rule(OTHER)
    assert (found.value, found.status) == ("shared", "undetermined"), found
    assert found.evidence[0].startswith("no fixture shows any value of tie_rule; the 10 "
                                        "against the declared shared"), found.evidence


def test_tie_tables_failed_with_the_scoring_known_stay_the_tie_rules_own() -> None:
    found = pin_tie_rule("penalty")
    assert (found.value, found.status) == (OTHER, "other"), found
