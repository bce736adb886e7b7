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
import random
import shlex
import sys
from pathlib import Path

import pytest

from mtrain.cli import main
from mtrain.conformance.fixture import load_file
from mtrain.conformance.fuzz import own_rules
from mtrain.conformance.fuzz.rulesets import Context, commonest, declared_context, stand_in
from mtrain.conformance.move_charges import released_early_offered
from mtrain.reference import codec
from mtrain.reference.deal import deal, deal_pool
from mtrain.reference.engine import Action, engine_number, legal_actions
from mtrain.reference.rules import Rules
from mtrain.spec import tiles
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


def test_a_rule_of_ones_own_is_stood_in_for_by_the_value_most_shipped_variants_play() -> None:
    # the three shipped variants (pagat, puremco, puremco-d9, as spec/ and RULES.md give
    # them): first turn chain, single, single; engine holder-lays, set-aside, set-aside;
    # an uncoverable double stays-open, released, released. waybill plays all three
    # options `other`; before, it was stood in for by the first values in the catalogue's
    # order (chain, holder-lays, stays-open): pagat's. A house rule is a change to a
    # common rule: waybill's first turn is single's but for a double (fuzz, 4 games seed
    # 1: 277 answers not judged for its first turn under chain, 39 under single)
    rs = catalog().rules_file(str(EXAMPLES / "perl" / "waybill-rules.yaml"))
    played = stand_in(rs)
    assert {o: played[o] for o in sorted(rs.unknown)} == {
        "engine_procedure": "set-aside", "first_turn": "single",
        "uncoverable_double": "released"}
    # the options it declares known are played as declared
    assert all(played[o] == v for o, v in rs.choices if o not in rs.unknown
               and o != "hand_sizes")
    # a level count goes to the first in the catalogue's order: the start (pagat
    # engine-holder, puremco's two rotate) is rotate's; an option all three play alike
    # stays theirs
    assert commonest("starting_seat") == "rotate"
    assert commonest("own_train_first") == "not-required"


def test_a_deals_seat_is_judged_alone_under_a_stand_in_that_sets_the_engine_aside() -> None:
    # roundhouse takes the engine from a hand or the boneyard (`engine_procedure: other`)
    # and rotates the start: its seat is the rules' whatever the procedure. Its deal is a
    # shuffle of the stand-in's pool; under set-aside that pool lacks the engine, and the
    # procedures that deal every tile could not deal it, so the seat went unjudged and
    # its bug 1 (the start rotating over four seats) unfound. Asked as the engine was sent
    # it (the whole set), every known procedure deals it
    ctx = played_as(declared_context(catalog().rules_file(
        str(EXAMPLES / "roundhouse-rules.yaml"))), "engine_procedure", "set-aside")
    round_no, players = 3, 5
    pool = deal_pool(ctx.rules, round_no)
    random.Random(7).shuffle(pool)
    st = deal(ctx.rules, players, round_no, order=pool)
    want = codec.state_to_json(st)
    spec = {"players": players, "engine": engine_number(ctx.rules, round_no),
            "order": [tiles.NAMES[t] for t in pool]}
    assert want["seat"] == (round_no - 1) % players  # SEAT-3: round 3 starts at seat 2
    assert own_rules.seat_alone(ctx, spec, want, ("engine_procedure",))


BOGIE_TABLE = """
- id: fuzzrelease-001
  description: a double of an earlier turn, the boneyard at its last tile
  clauses: [DBL-6, DBL-12, TRAIN-6]
  source: [computation]
  table:
    seat: 2
    starter: 0
    hands:
      0: [0-0]
      1: [7-2]
      2: [11-7]
      3: [rest]
    trains:
      1: [12-11, 11-11]
    boneyard: [11-2]
  expect:
  - variants: [pagat]
    legal: [play 11-7 on 1]
"""


def test_a_cover_not_offered_where_the_release_one_tile_early_leaves_a_draw_is_the_releases(
        tmp_path: Path) -> None:
    # bogie (tests/examples/c/bogie_engine.c) releases every double of an earlier turn
    # while the boneyard holds one tile (its bug 1, DBL-12: released once it is empty).
    # Seat 2 holds 11-7 alone; [11-11] on seat 1's train binds (DBL-6), so it must cover
    # it there (TRAIN-6 opens the train to the cover): legal, play 11-7 on 1 alone.
    # Released, 11-7 goes nowhere (seat 2's own train and the Mexican Train end in 12),
    # so bogie offers the draw; fuzz charged that to TRAIN-6 (a train kept closed),
    # which offers the same draw, but an engine that keeps the train closed still owes
    # the double: the draw is what the release leaves
    path = tmp_path / "bogie.yaml"
    path.write_text(BOGIE_TABLE, encoding="utf-8")
    (fx,) = load_file(path)
    # (bogie's rules, its own played by the stand-in: its release is a known value)
    ctx = declared_context(catalog().rules_file(str(EXAMPLES / "c" / "bogie-rules.yaml")))
    assert ctx.rules.release_when_empty
    st = codec.state_from_json(ctx.rules, fx.start(ctx.rs))
    draw = [a for a in legal_actions(st) if a.kind == "play"]
    assert [codec.action_to_json(st, a) for a in draw] == [
        {"type": "play", "tile": "11-7", "train": 1}]
    assert released_early_offered(st, [Action("draw")])
    assert not released_early_offered(st, draw)  # the rules' own answer
    # with two tiles in the boneyard the release is two tiles early: not this bug
    two = st.copy()
    two.boneyard = [*st.boneyard, tiles.DOUBLE[0]]
    assert not released_early_offered(two, [Action("draw")])
