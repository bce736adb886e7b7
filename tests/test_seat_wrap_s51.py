"""A later round's first seat where the rotation wraps (session 51).

Round r starts at seat (r - 1) mod n under a rotating start (SEAT-3): at a round whose
number is a multiple of n, the last seat. waybill (tests/examples/perl/waybill_engine.pl,
its bug 2 `wrap-start`) writes abs((r mod n) - 1), seat 1 there, and no deal of the corpus
asked such a round on the tables it plays; the fixtures of
conformance/fixtures/seats/wrap-start-s51.yaml do, and under waybill's engine procedure of
its own (`other`) they run on the seat alone (seat_alone.py). A failure there is the
start's, SEAT-3: the reference's replay deals by a stand-in procedure, whose hands and
engine are no departure of the implementation's (divergence.divergence)."""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from mtrain.cli import main
from mtrain.conformance.divergence import divergence
from mtrain.conformance.fixture import load_file
from mtrain.conformance.runner import _reference_states
from mtrain.conformance.selection import check_variants

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "conformance" / "fixtures" / "seats" / "wrap-start-s51.yaml"
WAYBILL = ROOT / "tests" / "examples" / "perl" / "waybill_engine.pl"
WAYBILL_RULES = ROOT / "tests" / "examples" / "perl" / "waybill-rules.yaml"
PERL = shutil.which("perl")

WRAPS = {"s51w-seats-001", "s51w-seats-002", "s51w-seats-003", "s51w-seats-004",
         "s51w-seats-005", "s51w-seats-007", "s51w-seats-009", "s51w-seats-010"}
"""The fixtures that speak about waybill's rules (double-18, 3 to 10 players) at a round
whose number is a multiple of the players: those its bug starts at seat 1."""


def _conform(flag: str, tmp_path: Path) -> dict[str, Any]:
    out = tmp_path / f"report{flag}.json"
    main(["conform", "--impl", f"{PERL} {WAYBILL} {flag}", "--rules", str(WAYBILL_RULES),
          "-k", "s51w-*", "--format", "json", "--output", str(out)])
    report: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return report


@pytest.mark.skipif(PERL is None, reason="perl is not installed: waybill is a Perl engine")
def test_wrap_rounds_fail_waybills_wrap_start_charged_seat_3(tmp_path: Path) -> None:
    bugged = _conform("--bug=wrap-start", tmp_path)
    failed = {r["fixture"]: r["charged"] for r in bugged["results"] if r["status"] == "fail"}
    assert failed == {fx: ["SEAT-3"] for fx in WRAPS}
    ran = {r["fixture"] for r in bugged["results"] if r["status"] in ("pass", "fail")}
    assert ran - WRAPS, "a round that starts at seat 0 (r mod n == 1) runs and passes too"
    fixed = _conform("--fixed", tmp_path)
    assert {r["fixture"] for r in fixed["results"] if r["status"] == "pass"} == ran
    assert not [r for r in fixed["results"] if r["status"] not in ("pass", "not-applicable")]


def _dealt(fixture_id: str) -> tuple[Any, dict[str, Any]]:
    fx = next(f for f in load_file(FIXTURES) if f.id == fixture_id)
    (rs,) = check_variants(["double-18"])
    (state,) = _reference_states(fx, rs)[:1]
    return fx, state


def test_own_procedure_deal_departs_at_its_seat_not_its_hands() -> None:
    # round 6, 3 players: the rules' seat 2 (SEAT-3); an engine procedure of one's own
    # deals its own hands (one tile moved from the boneyard) and starts seat 1
    fx, ref = _dealt("s51w-seats-001")
    assert ref["seat"] == 2  # the fixture's expectation, worked by hand (SEAT-3)
    mine = copy.deepcopy(ref)
    mine["hands"][0].append(mine["boneyard"].pop())
    mine["seat"] = mine["starter"] = 1
    own = divergence(fx, [mine], [ref], 18, ("engine_procedure",))
    assert own is not None and own[:3] == (0, "seat", 1)
    # under the rules' own procedure the hands are the rules' too: they depart first
    known = divergence(fx, [mine], [ref], 18, ())
    assert known is not None and known[1] == "hand_sizes"


def test_own_procedure_deal_with_the_rules_seat_does_not_depart() -> None:
    fx, ref = _dealt("s51w-seats-001")
    mine = copy.deepcopy(ref)
    mine["hands"][0].append(mine["boneyard"].pop())
    mine["engine_placed"] = not ref["engine_placed"]
    assert divergence(fx, [mine], [ref], 18, ("engine_procedure",)) is None
