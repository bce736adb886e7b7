"""identify's bug model (conformance/identify/bugs.py) on a declared scoring rule whose
fixtures an engine's blank values of its own fail (session 53, tramway): a fixture whose
every entry the engine failed "fits" the known values the fixture has no entry for, here
positive scoring; where a rule of the engine's own on an option the outcomes depend on
(its blanks) gives that answer as well, it is no evidence against the declared penalty.
On pieces written by hand in the shape of tramway's recorded run (bugs on: 16 tables show
penalty, 28 against it, 22 of them tables failed throughout that its blank and tie rules
of its own read, 6 left, its bug's: the out player scoring the double gone out on); no
engine is played."""

from __future__ import annotations

import dataclasses
from typing import Any, cast

from mtrain.conformance.fixture import Fixture
from mtrain.conformance.identify import bugs, pins, solve
from mtrain.conformance.identify.cells import Piece
from mtrain.conformance.identify.conclude import Until
from mtrain.conformance.identify.found import Observation, OptionFinding
from mtrain.conformance.identify.measure import ruleset_of
from mtrain.conformance.identify.solve import Solution
from mtrain.spec.ruleset import OTHER
from mtrain.spec.scope import Region, Space

SPACE = Space()
SCORING = ("penalty", "positive", "penalty-blocked-winner")
BLANKS = ("face", "blank-25", "double-blank-50", "double-blank-25")
READ = ("scoring", "blank_values")
ANSWER = ({o: vs[0] for o, vs in SPACE.options.items()}
          | {"scoring": OTHER, "blank_values": OTHER})
"""tramway's answer before the pin: scoring and its blank values both `other`."""


def piece(scoring: str, blank: str | None, *outcomes: str) -> Piece:
    region = {"scoring": frozenset([scoring])}
    if blank is not None:
        region["blank_values"] = frozenset([blank])
    return Piece(region, tuple(outcomes), READ)


BLANK_TABLE = [piece(s, b, *("pass" if s != "positive" and b == e else "fail"
                             for e in BLANKS))
               for s in SCORING for b in BLANKS]
"""A round end scoring a blank (score-009's shape): an entry for each blank rule, each
scored by a penalty rule; positive scoring has none."""
GONE_OUT = [piece(s, None, "fail" if s == "positive" else "pass") for s in SCORING]
"""A round gone out with no blank held (bone12-008's): both penalty rules score it alike."""
BLOCKED = [piece(s, None, "pass" if s == "penalty" else "fail") for s in SCORING]
"""A blocked round only penalty scores as the engine did (a table showing penalty)."""


def tramway_like(blank_failures: int, bug_failures: int, shown: int
                 ) -> tuple[dict[str, tuple[str | None, ...]], dict[str, list[Piece]]]:
    seen: dict[str, tuple[str | None, ...]] = {}
    parts: dict[str, list[Piece]] = {}
    for k in range(blank_failures):  # blanks priced the engine's own way: every entry fails
        seen[f"blank-{k}"], parts[f"blank-{k}"] = ("fail",) * 4, BLANK_TABLE
    for k in range(bug_failures):  # the out player scores the double gone out on
        seen[f"bug-{k}"], parts[f"bug-{k}"] = ("fail",), GONE_OUT
    for k in range(shown):
        seen[f"shows-{k}"], parts[f"shows-{k}"] = ("pass",), BLOCKED
    return seen, parts


def test_a_table_failed_throughout_for_a_blank_rule_of_its_own_is_no_evidence_on_scoring(
        ) -> None:
    """Before, each such table counted against the declared penalty as "like positive"
    (the value it has no entry for), 22 to 16: written `scoring: other` on a margin of
    one, the bug hidden by conform under that file."""
    seen, parts = tramway_like(22, 6, 16)
    s = bugs.shape("scoring", "penalty", ANSWER, SPACE, frozenset(), seen, parts)
    assert len(s.shows) == 16 and len(s.like_another) == 28
    assert not bugs.with_a_bug(s, "penalty", "penalty")  # every table weighed: 16 to 28
    values = {**ANSWER, "scoring": "penalty"}
    aside = bugs.owned_elsewhere_aside(s, "scoring", values, SPACE, seen, parts)
    assert aside.against == tuple(f"bug-{k}" for k in range(6))
    assert bugs.with_a_bug(aside, "penalty", "penalty")
    # the word is the engine's own: undeclared, 16 to 6 is no value with a bug (RATIO)
    assert not bugs.with_a_bug(aside, None, "penalty")


def test_a_scoring_rule_of_its_own_is_not_set_aside_where_its_blanks_are_known() -> None:
    """The same failures with the blank rule a known value in the answer (sleeper's
    doubles counted twice, declared penalty): nothing else explains them, so they stay
    against the declared value, and `other` stands."""
    seen, parts = tramway_like(22, 6, 16)
    values = {**ANSWER, "scoring": "penalty", "blank_values": "face"}
    s = bugs.shape("scoring", "penalty", values, SPACE, frozenset(), seen, parts)
    aside = bugs.owned_elsewhere_aside(s, "scoring", values, SPACE, seen, parts)
    assert aside.against == s.against and len(aside.against) == 28
    assert not bugs.with_a_bug(aside, "penalty", "penalty")


def test_a_table_failed_throughout_whose_outcome_reads_no_rule_of_its_own_stays_against(
        ) -> None:
    """A gone-out round failed in its one entry depends on scoring alone: `other` on
    blank_values, which it does not depend on, explains nothing there."""
    values = {**ANSWER, "scoring": "penalty"}
    assert not bugs.explained_elsewhere("scoring", values, SCORING, ("fail",), GONE_OUT)
    assert bugs.explained_elsewhere("scoring", values, SCORING, ("fail",) * 4,
                                    BLANK_TABLE)
    # an entry the engine passed is an answer some entry gives: not set aside
    assert not bugs.explained_elsewhere("scoring", values, SCORING, ("pass", *("fail",) * 3),
                                        BLANK_TABLE)


@dataclasses.dataclass
class Table:
    """What of a corpus fixture the bug model reads: its id and clauses."""

    id: str
    clauses: tuple[str, ...] = ("SCORE-1", "SCORE-5")

    def kept_starts(self) -> dict[str, Any]:
        return {}


def test_the_declared_scoring_is_pinned_with_its_bugs_where_the_rest_is_explained(
        ) -> None:
    """pins.py weighs the engine's own word without the tables a rule of its own on
    another option explains: the answer's `scoring: other` (the solver's, here given) is
    pinned to the declared penalty, its 6 bug tables read as likely bugs."""
    seen, parts = tramway_like(22, 6, 16)
    observations = [Observation(cast(Fixture, Table(fid)), outcomes)
                    for fid, outcomes in seen.items()]
    declared = ruleset_of(SPACE.cat, {**{o: next(iter(opt.values))
                                         for o, opt in SPACE.cat.options.items()},
                                      "scoring": "penalty", "blank_values": OTHER},
                          name="declared")
    asked: list[frozenset[str]] = []

    def conclude(region: Region, dropped: solve.Bugs, until: Until | None
                 ) -> tuple[Solution, list[OptionFinding], list[str]] | None:
        """The solver's answers, as tramway's run gave them: scoring `other` (penalty
        its nearest value) until scoring is kept to its known values."""
        allowed = region.get("scoring", frozenset([*SCORING, OTHER]))
        asked.append(allowed)
        value = OTHER if OTHER in allowed else "penalty"
        best = Solution({**ANSWER, "scoring": value}, 0, [])
        f = OptionFinding("scoring", value, "other" if value == OTHER else "likely", 1, [],
                          ["penalty"] if value == OTHER else [OTHER])
        if until is not None and until(best, f):
            return None
        return best, [f], []

    best, findings, _ = pins._values_with_bugs(conclude, {}, SPACE, declared,
                                               observations, parts)
    assert best.values["scoring"] == "penalty" and findings[0].status == "likely"
    assert {f"bug-{k}" for k in range(6)} <= set(best.violated)
    assert not {f"blank-{k}" for k in range(22)} & set(best.violated)
    assert OTHER not in asked[-1]
