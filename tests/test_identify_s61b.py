"""identify, session 61 (b): the known value named nearest to a rule of the engine's own is
the one its answers agree with most, not the one the fewest fixtures contradict.

dolly (tests/examples/js/dolly_engine.js) charges each tile left its pips plus 5, a
penalty-like scoring of its own, and identify wrote `scoring: other # ... or positive if
the 12 fixtures are bugs`: the corpus checks positive scoring on few tables, so few
contradict it, though the engine fits it on none and fits penalty on many. Here a house
scoring near penalty and one near positive, each with fixtures of both kinds (their
outcomes written by hand: a table only penalty rules hold, one only positive rules hold),
and a solver whose rival is the value fewer fixtures contradict: the nearest is the value
fitted most often, and the line says by how much.

Also a contradicted finding weighed by its counts, and issue 20: identify decodes only the
measured tile set's stored pieces.
"""

from __future__ import annotations

import functools
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

import pytest

from mtrain.conformance.fixture import FIXTURE_ROOT, load_corpus
from mtrain.conformance.identify import bugs, cells
from mtrain.conformance.identify.cells import ANY, Piece
from mtrain.conformance.identify.findings import _contradicted, _nearest
from mtrain.conformance.identify.found import OptionFinding, _other_mark, near_none
from mtrain.conformance.identify.solve import Model, Solution
from mtrain.spec import cache
from mtrain.spec.catalog import catalog
from mtrain.spec.ruleset import OTHER
from mtrain.spec.scope import Space

SPACE = Space()
@functools.cache  # built in a test's body: not at collection, by every worker
def _model() -> Model:
    return Model.of(SPACE)


KNOWN = list(SPACE.options["scoring"])
PAGAT = SPACE.point(catalog().ruleset("pagat"))
PENALTY_RULES = frozenset({"penalty", "penalty-blocked-winner"})


def _penalty_table() -> list[Piece]:
    """A round gone out, one entry checking penalty's scores: positive rules never score
    it so (no entry holds there: ANY)."""
    return [Piece({"scoring": PENALTY_RULES}, ("pass",), ("scoring",)),
            Piece({"scoring": frozenset({"positive"})}, (ANY,), ("scoring",))]


def _positive_table() -> list[Piece]:
    """The winner's positive score checked: it fails under both penalty rules."""
    return [Piece({"scoring": frozenset({"positive"})}, ("pass",), ("scoring",)),
            Piece({"scoring": PENALTY_RULES}, ("fail",), ("scoring",))]


class _Solver:
    """The solver's answer with scoring held at a value: the fixtures it leaves
    unexplained, as written below (each a fixture the value's outcome misses)."""

    def __init__(self, violated: dict[str, list[str]]) -> None:
        self.violated = violated

    def solve(self, extra: Sequence[Any] = (), ties: bool = False) -> Solution | None:
        for v, fids in self.violated.items():
            if any(e.eq(_model().eq("scoring", v)) for e in extra):
                return Solution({**PAGAT, "scoring": v}, 10 * len(fids), fids)
        raise AssertionError("only a scoring value is asked")


def _case(pen: tuple[int, int], pos: tuple[int, int]) -> tuple[
        dict[str, list[Piece]], dict[str, tuple[str | None, ...]], dict[str, list[str]]]:
    """Fixtures of penalty's tables (how many the engine passes, fails) and of positive's
    (the same): their pieces, the engine's outcomes, and the fixtures each value leaves
    unexplained (a penalty table failed, against penalty; a positive table passed, against
    penalty; failed, against positive)."""
    parts: dict[str, list[Piece]] = {}
    seen: dict[str, tuple[str | None, ...]] = {}
    against: dict[str, list[str]] = {v: [] for v in KNOWN}
    for kind, (passed, failed), table in (("pen", pen, _penalty_table),
                                          ("pos", pos, _positive_table)):
        for i in range(passed + failed):
            fid = f"{kind}-{i:03}"
            parts[fid] = table()
            seen[fid] = ("pass",) if i < passed else ("fail",)
            misses = [v for v in KNOWN if not any(
                v in p.region["scoring"] and p.outcomes[0] in (seen[fid][0], ANY)
                for p in parts[fid])]
            for v in misses:
                against[v].append(fid)
    return parts, seen, against


def _found(pen: tuple[int, int], pos: tuple[int, int]) -> tuple[OptionFinding, str]:
    parts, seen, against = _case(pen, pos)
    # the solver's rival: the value the fewest fixtures contradict
    rival = min(KNOWN, key=lambda v: (len(against[v]), KNOWN.index(v)))
    values = {**PAGAT, "scoring": OTHER}
    best = Solution(values, 0, [])
    f = OptionFinding("scoring", OTHER, "other", 3, against[rival], [rival])
    agree = bugs.agreement("scoring", values, KNOWN, seen, parts)
    near = _nearest(f, best, cast(Any, _Solver(against)), _model(), {}, agree)
    return near, rival


def test_a_penalty_like_scoring_is_named_nearest_penalty() -> None:
    """dolly's shape: 40 penalty tables, 25 passed (each tile's pips counted, the winner
    0, the lowest wins) and 15 failed (the tax); 6 positive tables, all failed as penalty
    fails them. Penalty is contradicted by 15, positive by 6: the solver's rival was
    positive, on which the engine agrees nowhere."""
    near, rival = _found((25, 15), (0, 6))
    assert rival == "positive"  # the fault: fewest contradicting, least checked
    assert near.alternatives == ["penalty"]
    # (a positive table failed as penalty fails it is no agreement with penalty)
    assert near.agreement[0] == ("penalty", 25, 40)
    assert ("positive", 0, 6) in near.agreement
    assert len(near.evidence) == 15 and near.evidence[0] == "pen-025"
    assert near.margin == 3  # the solver's: what `other` wins by over any known value
    mark = _other_mark(near)
    assert "or penalty if the 15 fixtures" in mark
    assert "as penalty does in 25 of the 40 entries checking" in mark
    assert "as positive in 0 of 6" in mark


def test_a_positive_like_scoring_is_named_nearest_positive() -> None:
    """A house scoring near positive (the winner scores the other hands, each tile with a
    bonus): 8 positive tables, 6 passed, 2 failed; 12 penalty tables, all failed (it
    scores the winner, not each hand)."""
    near, rival = _found((0, 12), (6, 2))
    assert rival == "positive"  # contradicted by 2; penalty by 12 + 6
    assert near.alternatives == ["positive"]
    assert near.agreement[0] == ("positive", 6, 8)
    assert next(a for a in near.agreement if a[0] == "penalty") == ("penalty", 0, 12)
    assert "as positive does in 6 of the 8 entries" in _other_mark(near)


def test_the_same_engine_fits_penalty_more_as_its_penalty_tables_pass() -> None:
    """Where the corpus checks penalty on few tables the engine fails and positive on
    many it fails, penalty still wins only on its share: here positive is fitted on
    none, penalty on most, whatever the counts against each."""
    near, _ = _found((3, 1), (0, 30))
    assert near.alternatives == ["penalty"]
    assert near.agreement[0] == ("penalty", 3, 4)


def test_no_fixture_telling_the_values_apart_keeps_the_solvers_rival() -> None:
    """Where the values give every fixture the same outcome nothing is nearer: the
    rival and its evidence stay, and the line says nothing of agreement."""
    parts = {"alike": [Piece({}, ("pass",), ())]}
    seen: dict[str, tuple[str | None, ...]] = {"alike": ("fail",)}
    values = {**PAGAT, "scoring": OTHER}
    agree = bugs.agreement("scoring", values, KNOWN, seen, parts)
    assert all(told == 0 for _, told in agree.values())
    f = OptionFinding("scoring", OTHER, "other", 1, ["alike"], ["positive"])
    near = _nearest(f, Solution(values, 0, []), cast(Any, _Solver({})), _model(), {}, agree)
    assert near is f
    assert "answers as" not in _other_mark(near)


def test_the_measured_sets_pieces_alone_are_decoded_and_narrowed_alike(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 20: identify decoded every tile set's stored pieces and kept the measured
    set's. Read with the set, the entry gives fewer pieces (those pinning other sets left
    coded) and narrowed keeps exactly what it kept of them all, in the same order; a read
    for another set in the same process is not served the first set's."""
    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path / "cache"))
    monkeypatch.setattr(cells, "_kept", {})
    copy = tmp_path / "fixtures"
    copy.mkdir()
    shutil.copy(FIXTURE_ROOT / "sets" / "double-16.yaml", copy)
    fixtures, errors = load_corpus(copy)
    assert fixtures and not errors
    whole = cells.corpus_pieces(fixtures, SPACE)  # explored and kept
    monkeypatch.setattr(cells, "explore", None)  # (read back only: never explored again)
    fewer = False
    for tile_set in ("double-16", "double-6", "double-12"):
        monkeypatch.setattr(cells, "_kept", {})
        alone = cells.corpus_pieces(fixtures, SPACE, tile_set=tile_set)
        allowed = {"tile_set": frozenset([tile_set])}
        for fx in fixtures:
            assert (cells.narrowed(fx, alone[fx.id], allowed, SPACE, None)
                    == cells.narrowed(fx, whole[fx.id], allowed, SPACE, None))
            assert all(p in whole[fx.id] for p in alone[fx.id])
        fewer = fewer or sum(map(len, alone.values())) < sum(map(len, whole.values()))
    assert fewer  # some piece pins a set: this file tells the reads apart
    # one process, two sets: each read keeps its own
    monkeypatch.setattr(cells, "_kept", {})
    sixteen = cells.corpus_pieces(fixtures, SPACE, tile_set="double-16")
    six = cells.corpus_pieces(fixtures, SPACE, tile_set="double-6")
    assert cells.corpus_pieces(fixtures, SPACE, tile_set="double-16") == sixteen
    assert cells.corpus_pieces(fixtures, SPACE) == whole
    assert six != sixteen


class _NoRival:
    """A solver with no other reading (findings._fewer_bugs asks one)."""

    def solve(self, *args: Any, **kwargs: Any) -> None:
        return None


def _weighed(shown: int, against: int) -> OptionFinding:
    """`blank_values: face`, found sure on `shown` fixtures, with `against` fixtures of
    its clauses left unexplained that another blank value alone would explain."""
    cat = SPACE.cat
    own = sorted(c.id for c in cat.clauses.values() if "blank_values" in c.when)
    bad = [f"m-{i:03}" for i in range(against)]
    f = OptionFinding("blank_values", "face", "sure", 5, [f"s-{i:03}" for i in range(shown)])
    best = Solution({**PAGAT, "blank_values": "face"}, 10 * against, bad)
    return _contradicted(f, best, cast(Any, _NoRival()), _model(), cat,
                         {fid: frozenset(own[:1]) for fid in bad}, lambda fid, o: True)


def test_one_fixture_against_many_is_a_likely_bug_not_a_contradiction() -> None:
    """gantry, bugs on: `blank_values: face` shown by 43 fixtures, match-009 against it,
    was written contradicted (no count weighed). A few against many (bugs.RATIO to one,
    as a value with a bug is weighed) leave the value likely, never sure, the fixture
    against it named; as many as a sixth of those for it, still contradicted."""
    found = _weighed(43, 1)
    assert found.status == "likely" and found.value == "face"
    assert "m-000" in found.evidence[-1] and "against 43 that show it" in found.evidence[-1]
    assert _weighed(6 * 2, 2).status == "likely"
    assert _weighed(6 * 2 - 1, 2).status == "contradicted"
    assert _weighed(5, 1).status == "contradicted"


def test_an_engine_answering_as_no_value_does_is_near_none() -> None:
    """dolly as it is: its tile tax changes every hand's score, so it fails every entry
    that checks a scoring value's answer where the values differ (the corpus's score
    fixtures hold one entry per value). No value is nearer than another: the line says
    so, with the counts, rather than naming the value the fewest fixtures contradict."""
    near, rival = _found((0, 30), (0, 6))
    assert rival == "positive"
    assert near_none(near) and near.agreement[0][1] == 0
    mark = _other_mark(near)
    assert mark.startswith("other: its own rule, near no known value (")
    assert "if the" not in mark  # no rival offered as the rule with bugs
    assert "in 0 of 30" in mark and "in 0 of the 6 entries" in mark
    near, _ = _found((1, 29), (0, 6))
    assert not near_none(near) and near.alternatives == ["penalty"]
