"""Faults of the suite that layover (tests/examples/layover_engine.py, an app's game
logic: double-10 for 2 to 12 players, three house rules, its hello declaring two of them
by wrong names) showed, each pinned in process."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
import yaml
from calibration import Served

from mtrain.conformance.adapter import JSON, ReferenceImplementation
from mtrain.conformance.fixture import FIXTURE_ROOT, load_corpus
from mtrain.conformance.fuzz.judge import Probe
from mtrain.conformance.fuzz.rejudge import Judge
from mtrain.conformance.fuzz.reproducer import check
from mtrain.conformance.fuzz.rulesets import context, declared_context
from mtrain.conformance.identify import identify
from mtrain.conformance.identify.found import OptionFinding
from mtrain.conformance.identify.measure import Deals, ruleset_of
from mtrain.conformance.identify.run import _as_declared
from mtrain.conformance.identify.solve import Solution
from mtrain.spec.catalog import catalog
from mtrain.spec.ruleset import OTHER, Ruleset

LEANING = "heaviest-in-hand"
CAT = catalog()


def rules_file(tmp_path: Path, name: str, **options: object) -> str:
    """A rule-set file on pagat with these options, and the name fuzz plays it by."""
    lines = [f"name: {name}", "base: pagat", "options:", *(f"  {o}: {v}"
                                                          for o, v in options.items())]
    path = tmp_path / f"{name}.yaml"
    path.write_text("\n".join(lines) + "\n")
    return declared_context(catalog().rules_file(str(path))).name


def _unseated() -> Deals:
    deals = Deals(tile_set="double-10", procedure="set-aside", unseated=True)
    deals.evidence["engine_procedure"] = (
        "8 deals for 2 players: dealt as set-aside deals, the first player as under no "
        "known starting seat (a start of its own?)")
    return deals


def _leaning() -> tuple[Solution, list[OptionFinding]]:
    """The fixtures' answer for layover: a known seat the deals contradict."""
    best = Solution({"starting_seat": LEANING, "tile_set": "double-10"}, 0, [])
    return best, [OptionFinding("starting_seat", LEANING, "contradicted", 54, ["78 show it"]),
                  OptionFinding("tile_set", "double-10", "measured", 0, ["dealt 0 to 10"])]


def _declared(seat: str) -> Ruleset:
    cat = catalog()
    rs = cat.ruleset(next(iter(cat.variants)))
    return dataclasses.replace(rs, choices=tuple(
        (o, seat if o == "starting_seat" else v) for o, v in rs.choices))


def test_undeclared_engine_whose_deals_fit_no_seat_is_written_other() -> None:
    best, findings = _leaning()
    out = _as_declared(best, findings, None, _unseated())
    seat = next(f for f in out if f.option == "starting_seat")
    assert (seat.value, seat.status) == (OTHER, "other")
    assert best.values["starting_seat"] == OTHER
    assert "measured" in seat.evidence[0] and LEANING in seat.evidence[0]
    assert next(f for f in out if f.option == "tile_set").value == "double-10"


def test_declared_known_seat_the_deals_contradict_is_other_with_it_as_rival() -> None:
    best, findings = _leaning()
    out = _as_declared(best, findings, _declared("rotate"), _unseated())
    seat = next(f for f in out if f.option == "starting_seat")
    assert (seat.value, seat.status, seat.alternatives) == (OTHER, "contradicted", ["rotate"])
    assert best.values["starting_seat"] == OTHER


def test_deals_that_fit_a_known_seat_leave_the_fixtures_answer() -> None:
    best, findings = _leaning()
    deals = _unseated()
    deals.unseated = False
    out = _as_declared(best, findings, None, deals)
    assert next(f for f in out if f.option == "starting_seat").value == LEANING


class EarlyBlock(ReferenceImplementation):
    """Ends a round blocked at the pass that makes two passes in a row (a full round is
    three at its tables), scoring every hand 0 by a scoring of its own: layover's
    "eight phones" (END-3) in small."""

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        after = super().apply(ruleset, state, action)
        if (action.get("type") == "pass" and not after["boneyard"]
                and after["phase"] != "over" and after["passes"] >= 2):
            n = len(after["hands"])
            after = {**after, "phase": "over", "turn_doubles": [], "drawn": None,
                     "result": {"end": "blocked", "winner": None, "scores": [0] * n}}
        return after


def test_a_round_ended_early_is_asked_again_with_the_invariants_play_checked(
        tmp_path: Path) -> None:
    """Play judges a returned state by the invariants whose check reads no rule of one's
    own (own_rules.problems); asked again to shrink it, the judge checked them all where
    the step read no such rule, so INV-ROUND-SCORE under the stand-in's scoring named the
    finding instead of the round's early end, and layover's END-3 bug at 9+ players was
    left with no reproducer ("did not show again")."""
    name = rules_file(tmp_path, "early-block", blocked_round="full-round-of-passes",
                      scoring="other")
    # end-012's table (every blank on a train, so nobody can play), seat 0 passed
    table = {"engine": 12, "seat": 1,
             "hands": {0: ["6-6", "5-3"], 1: ["rest"], 2: ["9-9", "4-2"]},
             "trains": {0: ["12-0"], 1: ["12-1", "1-0", "0-4", "4-5", "5-0"],
                        2: ["12-2", "2-0", "0-6", "6-7", "7-0"],
                        "mexican": ["12-3", "3-0", "0-0", "0-8", "8-9", "9-0", "0-10",
                                    "10-11", "11-0"]},
             "marked": [0], "passes": 1, "boneyard": []}
    found = Judge(EarlyBlock()).judge(Probe("apply", name, table=table, action="pass"))
    assert found is not None
    assert [d.signature for d in found] == ["round end: result"]


def test_a_reproducer_is_charged_as_conform_charges_it_under_the_engines_own_rules(
        tmp_path: Path) -> None:
    """fuzz checks a reproducer against the implementation before writing it, and takes
    its charge from that run. The run left in the invariants whose check reads a rule of
    one's own, which conform under the engine's file leaves out (own_checks): layover's
    round ended early at 9+ players (END-3) was charged SCORE-1, its stand-in's blank
    values judging the blocked round's hands, where conform charges END-3. Here the
    scoring is the engine's own (every hand 0) and the round ends a pass early."""
    name = rules_file(tmp_path, "early-block-own", blocked_round="full-round-of-passes",
                      scoring="other")
    ctx = context(name)
    fixture = {
        "id": "fuzz-early-001", "description": "a round ended a pass early",
        "clauses": ["END-3"], "source": ["computation"],
        "table": {"engine": 12, "seat": 1,
                  "hands": {0: ["6-6", "5-3"], 1: ["rest"], 2: ["9-9", "4-2"]},
                  "trains": {0: ["12-0"], 1: ["12-1", "1-0", "0-4", "4-5", "5-0"],
                             2: ["12-2", "2-0", "0-6", "6-7", "7-0"],
                             "mexican": ["12-3", "3-0", "0-0", "0-8", "8-9", "9-0",
                                         "0-10", "10-11", "11-0"]},
                  "marked": [0], "passes": 1, "boneyard": []},
        "steps": ["pass"],
        "expect": [{"when": {o: [v] for o, v in ctx.declared.choices
                             if v not in ("custom", OTHER)},
                    "state": {"phase": "start", "passes": 2}}]}
    text = yaml.safe_dump([fixture], sort_keys=False)
    path = tmp_path / "fuzz-early-001.yaml"
    path.write_text(text)
    checked = check(path, text, EarlyBlock(), "early", ctx)
    assert checked.problems == []
    assert checked.charged == ("END-3",)


class MiscountedOut(ReferenceImplementation):
    """At a round's end, counts one pip too many in every hand left (INV-ROUND-SCORE);
    with `replaced`, also writes the round's scores as the match totals, the totals
    carried in dropped (layover's bugs 3 and 1 at once)."""

    def __init__(self, replaced: bool) -> None:
        super().__init__()
        self.replaced = replaced

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        after = super().apply(ruleset, state, action)
        if after["phase"] != "over":
            return after
        out = after["result"]["winner"]
        scores = [v + (s != out) for s, v in enumerate(after["result"]["scores"])]
        totals = (scores if self.replaced else
                  [a + b for a, b in zip(state["scores"], scores, strict=True)])
        return {**after, "scores": totals, "result": {**after["result"], "scores": scores}}


def _going_out(replaced: bool) -> list[str]:
    table = {"engine": 12, "seat": 0, "hands": {0: ["11-5"], 1: ["3-4", "6-1"]},
             "trains": {0: ["12-11"], 1: ["12-10"]}, "scores": [40, 70], "outs": [1, 2],
             "boneyard": ["rest"]}
    probe = Probe("apply", "pagat", table=table, action="play 11-5 on 0")
    found = Judge(MiscountedOut(replaced)).judge(probe)
    assert found is not None
    return [d.signature for d in found]


def test_totals_that_drop_the_carried_ones_show_beside_a_miscounted_round() -> None:
    """A round's end whose state breaks an invariant was one finding, named by it: the
    match totals were never compared, so layover's totals replaced by a later round's
    scores (MATCH-1) went unseen wherever its miscounted pips broke INV-ROUND-SCORE (in
    12 games of fuzz, every later round's end it played). The totals are now checked
    against those carried in plus the round's scores as the engine gives them."""
    assert _going_out(replaced=True) == ["round end: INV-ROUND-SCORE", "round end: scores"]
    # totals that add up, however wrong the round's scores: the one bug, one finding
    assert _going_out(replaced=False) == ["round end: INV-ROUND-SCORE"]


class LeadGoesRight(Served):
    """Plays `rs` but for the lead, which goes one seat to the right each round: round r
    starts at seat (n - r) mod n (layover's house rule 1, which no known value gives)."""

    def deal(self, ruleset: JSON, players: int, round: int, order: list[str],
             draw: list[list[str]] | None = None) -> JSON:
        state = super().deal(ruleset, players, round, order, draw)
        seat = (players - round) % players
        return {**state, "seat": seat, "starter": seat}


@pytest.mark.slow  # identify over 9 fixtures and its situations from play, ~4 CPU s
def test_likely_bugs_follow_the_seat_written_other_on_the_deals() -> None:
    """identify wrote `starting_seat: other` on the deals after the fixtures had leaned
    to a known seat (_seat_measured), but listed as likely bugs the fixtures that known
    seat leaves unexplained (seat-007 and seat-009 here; about 40 on layover with its
    bugs off): fixtures the seat written `other` decides, no bug of an engine with
    none."""
    rs = ruleset_of(CAT, {**dict(CAT.ruleset("pagat").choices),
                          "engine_procedure": "set-aside", "starting_seat": "rotate"},
                    None, "lead-right")
    fixtures = [fx for fx in load_corpus(FIXTURE_ROOT / "seats")[0]
                if fx.id.startswith("seat-00")]
    assert len(fixtures) == 9
    found = identify(LeadGoesRight(rs), fixtures)
    seat = found.finding("starting_seat")
    assert (seat.value, seat.status) == (OTHER, "other")
    assert found.unexplained == []
