"""Session 52: what fuzz's stand-in for a rule of one's own (`other`) shapes.

A deal request is built from the stand-in (the pool its order shuffles, the draw for the
start), so a stand-in that sets the engine aside sent pullman, whose own procedure deals
every tile, a pool without the engine: it refused it, and the refusal was charged to the
deal's clause with its bugs off. An engine procedure of one's own is now sent the whole
set, as conform sends it (seat_alone.whole_pool), and a request only the stand-in would
ask is not judged, its refusal neither (fuzz/own_rules.py request_own)."""

from __future__ import annotations

import dataclasses
import json
import shlex
import sys
from pathlib import Path

import pytest

from mtrain.cli import main
from mtrain.conformance.fuzz import own_rules
from mtrain.conformance.fuzz.rulesets import Context, declared_context
from mtrain.reference.rules import Rules
from mtrain.spec.catalog import catalog
from mtrain.spec.ruleset import Ruleset

EXAMPLES = Path(__file__).parent / "examples"
PULLMAN_FIXED = shlex.join([sys.executable, str(EXAMPLES / "pullman_engine.py"),
                            "--fixed", "1,2,3"])


def played_as(ctx: Context, option: str, value: str) -> Context:
    """`ctx` with `value` stood in for its rule of one's own `option`."""
    choices = tuple((o, value if o == option else v) for o, v in ctx.rs.choices)
    rs = Ruleset(ctx.rs.name, choices, ctx.rs.hand_table, ctx.rs.overlays)
    return dataclasses.replace(ctx, name=f"{ctx.name} ({option} {value})", rs=rs,
                               rules=Rules.of(rs))


@pytest.mark.slow  # plays pullman (a process) two games, ~1 CPU s
def test_an_engine_procedure_of_ones_own_is_dealt_the_whole_set_when_its_stand_in_sets_the_engine_aside(  # noqa: E501
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # pullman's rules with the start of the heaviest tile in hand, which sets the engine
    # aside (SEAT-6): the only known procedure beside it is set-aside, so that is what
    # stands in for its own, whatever the rule that picks a stand-in. Its bugs off, it
    # deals every tile and digs for the engine; before, each deal request lacked the
    # engine, it answered "order is not the double-12 set", and fuzz charged that to
    # SEAT-6 (error on deal, 3 times in 2 games)
    rules = tmp_path / "pullman-heaviest.yaml"
    rules.write_text((EXAMPLES / "pullman-rules.yaml").read_text(encoding="utf-8")
                     .replace("starting_seat: rotate", "starting_seat: heaviest-in-hand")
                     .replace("name: pullman", "name: pullman-heaviest"), encoding="utf-8")
    capsys.readouterr()
    main(["fuzz", "--impl", PULLMAN_FIXED, "--rules", str(rules), "--games", "2",
          "--seed", "1", "--out", str(tmp_path / "out"), "--json"])
    report = json.loads(capsys.readouterr().out)
    assert [f["signature"] for f in report["findings"]] == []
    # its deals are its own rule's: counted, not judged (and answered, not refused)
    assert report["not_judged"].get("engine_procedure", 0) > 0


def test_a_deal_request_only_the_stand_in_asks_is_not_the_rules() -> None:
    # gondola plays its start its own way; `rotate` (or any start but the highest draw)
    # asks a deal without a draw, as most starts do: the request is the plain one
    ctx = declared_context(catalog().rules_file(str(EXAMPLES / "js" / "gondola-rules.yaml")))
    assert "starting_seat" in ctx.unknown
    assert own_rules.request_own(played_as(ctx, "starting_seat", "rotate"), 1) == ()
    # stood in for by the highest draw, every deal request carries a draw (SEAT-5) that
    # no other start would send: the request is the stand-in's
    assert own_rules.request_own(played_as(ctx, "starting_seat", "highest-draw"), 1) == (
        "starting_seat",)
    # an engine procedure of one's own is sent the whole set under any stand-in, so the
    # stand-in shapes none of its requests (pullman: set-aside, holder-lays alike)
    pullman = declared_context(catalog().rules_file(str(EXAMPLES / "pullman-rules.yaml")))
    for value in ("set-aside", "holder-lays"):
        assert own_rules.request_own(played_as(pullman, "engine_procedure", value), 3) == ()
    aside = played_as(pullman, "engine_procedure", "set-aside")
    assert own_rules.sent_order(aside, 3, ["0-0", "1-0"]) == ["0-0", "1-0", "10-10"]  # ENG-1
