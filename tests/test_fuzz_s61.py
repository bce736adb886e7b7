"""Session 61 (fuzz61): fuzz judges house-rule engines where it set their answers aside.

- Under `own_train_first: other`, a legal answer whose two known ends (required,
  not-required) disagree was set aside whole, though conform runs such an entry cut
  (bracket_alone.bracket_cut): what both ends give is judged, the rest left to the
  engine. fuzz asks the same cut, with the stand-in it sends (own_release._cut).
  wagonway (seed 1, 12 games): 122 answers set aside -> 48.
- Under `mexican_first_turn: other`, every legal answer on a table where the mover could
  open the empty Mexican Train was set aside. The plays there are the rule's; the rest of
  the answer is judged (fuzz/own_mexican.py), not what the known values agree on: where
  all three open it, dandy's "second rail" (an own train of two tiles) keeps it shut.
  dandy (seed 1, 6 games): 59 such answers set aside -> 7.

Each table below is worked by hand (the docstrings); each test fails without its fix (the
cut returned None: not judged).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from rule_texts import rules_text

from mtrain.cli import main
from mtrain.conformance.adapter import JSON, ReferenceImplementation
from mtrain.conformance.fuzz import own_mexican, own_release
from mtrain.conformance.fuzz.own_rules import on_state
from mtrain.conformance.fuzz.rulesets import Context, declared_context
from mtrain.reference import codec
from mtrain.reference.engine import Action, State, legal_actions, perform
from mtrain.spec.catalog import catalog
from mtrain.spec.notation import action_json, action_text, table_state

OWN_FIRST = rules_text("own-first-house", "puremco", own_train_first="other", scoring=None,
                       blank_values=None)
MEXICAN = rules_text("second-rail", "puremco", mexican_first_turn="other", scoring=None,
                     blank_values=None)


def _context(tmp_path: Path, text: str) -> Context:
    path = tmp_path / "rules.yaml"
    path.write_text(text, encoding="utf-8")
    return declared_context(catalog().rules_file(str(path)))


def _table(ctx: Context, table: dict[str, Any]) -> tuple[State, list[Action], tuple[str, ...]]:
    """The table's state, the reference's legal actions there, and what they read of
    one's own."""
    st = codec.state_from_json(ctx.rules, table_state(table, ctx.rs))
    legal, own = on_state(ctx, st, legal_actions)
    return st, legal, own


def _texts(st: State, actions: list[Action]) -> list[str]:
    return sorted(action_text(codec.action_to_json(st, a)) for a in actions)


def _answer(*texts: str) -> list[JSON]:
    return [action_json(t) for t in texts]


# --- one's own train first, what its two ends agree on ---------------------------------

OWN_EMPTY = {"engine": 6, "seat": 0, "starter": 1,
             "hands": {0: ["6-2", "5-1", "4-3"], 1: ["rest"]},
             "trains": {1: ["6-3"], "mexican": ["6-5"]}, "boneyard": ["4-1"],
             "first_turns": []}
"""Worked by hand: seat 0's own train is empty (its end the engine's 6), the Mexican
Train ends in 5, seat 1's train (3) carries no marker. [6-2] fits seat 0's own train
only, [5-1] the Mexican Train only, [4-3] seat 1's train only (closed to seat 0).
`required` (TRAIN-7): play 6-2 on 0 alone; `not-required`: that and play 5-1 on
mexican. Both give play 6-2 on 0; the Mexican play is the house rule's."""


def test_an_own_train_rule_is_judged_where_its_two_ends_agree(tmp_path: Path) -> None:
    ctx = _context(tmp_path, OWN_FIRST)
    st, legal, own = _table(ctx, OWN_EMPTY)
    assert own == ("own_train_first",)
    assert _texts(st, legal) == ["play 5-1 on mexican", "play 6-2 on 0"]  # the stand-in's
    # a house rule between the ends (wagonway's, its marker down): its own train alone
    house = own_release.legal_cut(ctx, st, legal, _answer("play 6-2 on 0"), own)
    assert house == []  # judged, nothing wrong (before: None, set aside)
    wide = own_release.legal_cut(ctx, st, legal,
                                 _answer("play 6-2 on 0", "play 5-1 on mexican"), own)
    assert wide == []
    # its own train's play left out: wrong under any rule of one's own train first
    missing = own_release.legal_cut(ctx, st, legal, _answer("play 5-1 on mexican"), own)
    assert missing is not None and len(missing) == 1, missing
    assert "6-2" in missing[0].signature + " ".join(missing[0].messages)
    # a play on seat 1's unmarked train: refused by both ends (TRAIN-4)
    closed = own_release.legal_cut(ctx, st, legal, _answer("play 6-2 on 0", "play 5-1 on 1"),
                                   own)
    assert closed  # (5-1 fits no end of seat 1's train either: refused whatever the rule)


def test_an_own_train_refusal_both_ends_make_is_judged(tmp_path: Path) -> None:
    """[4-3] on seat 1's unmarked train: refused by both ends, by different clauses
    (`required`: TRAIN-7, one's own train first; `not-required`: TRAIN-4, no marker), so
    no end gives the stand-in's refusal alone: judged, by either clause (before: set
    aside, bracketed_entry asking each end for the stand-in's clause)."""
    ctx = _context(tmp_path, OWN_FIRST)
    st, _, own = _table(ctx, OWN_EMPTY)
    by = own_release.refusal_cut(ctx, st, "play 4-3 on 1", ("TRAIN-4",), own)
    assert by is not None and {"TRAIN-4", "TRAIN-7"} <= set(by), by


# --- who may open the Mexican Train -------------------------------------------------------

ONE_TILE = {"engine": 6, "seat": 0, "starter": 1,
            "hands": {0: ["6-1", "2-3"], 1: ["rest"]}, "trains": {0: ["6-2"], 1: ["6-4"]},
            "boneyard": ["5-1"], "first_turns": []}
"""Worked by hand: the Mexican Train is empty (its end the engine's 6); seat 0's own
train holds one tile and ends in 2, the first turns are over. [6-1] opens the Mexican
Train (or goes nowhere else: seat 1's train ends in 4 and carries no marker), [3-2] fits
seat 0's own train. Every known value opens the Mexican Train here (anyone; starter-only,
the first turns over; own-train-started, a tile down); "second rail" (an own train of
two tiles) does not: its answer is play 3-2 on 0 alone, and it is right."""


def test_a_mexican_opening_rule_is_judged_but_for_the_opening(tmp_path: Path) -> None:
    ctx = _context(tmp_path, MEXICAN)
    st, legal, own = _table(ctx, ONE_TILE)
    assert own == ("mexican_first_turn",)
    assert _texts(st, legal) == ["play 3-2 on 0", "play 6-1 on mexican"]
    rail = own_mexican.legal_cut(ctx, st, legal, _answer("play 3-2 on 0"), own)
    assert rail == []  # judged, and not charged: the known values' agreement would be
    opens = own_mexican.legal_cut(ctx, st, legal,
                                  _answer("play 3-2 on 0", "play 6-1 on mexican"), own)
    assert opens == []
    missing = own_mexican.legal_cut(ctx, st, legal, _answer("play 6-1 on mexican"), own)
    assert missing is not None and len(missing) == 1
    assert missing[0].own == ("mexican_first_turn",)  # its table reads the rule
    drew = own_mexican.legal_cut(ctx, st, legal, _answer("play 3-2 on 0", "draw"), own)
    assert drew  # a draw beside a play, the Mexican Train open or not (TURN-1)


ONLY_MEXICAN = {**ONE_TILE, "hands": {0: ["6-1", "4-3"], 1: ["rest"]}}
"""As ONE_TILE, but [4-3] fits no train open to seat 0 (its own ends in 2, seat 1's 4 has
no marker): the Mexican play is the only play, and whether seat 0 plays it or draws is
the rule's."""


def test_where_the_opening_is_the_only_play_nothing_is_judged(tmp_path: Path) -> None:
    ctx = _context(tmp_path, MEXICAN)
    st, legal, own = _table(ctx, ONLY_MEXICAN)
    assert _texts(st, legal) == ["play 6-1 on mexican"] and own == ("mexican_first_turn",)
    assert own_mexican.legal_cut(ctx, st, legal, _answer("draw"), own) is None
    assert own_mexican.refusal_cut(ctx, st, legal, {"type": "draw"}, ("TURN-1",), own) is None
    # a play on seat 1's train, no marker on it: refused whatever the Mexican Train's rule
    assert own_mexican.refusal_cut(ctx, st, legal, action_json("play 4-3 on 1"),
                                   ("TRAIN-4",), own) == ("TRAIN-4",)
    assert own_mexican.refusal_cut(ctx, st, legal, action_json("play 6-1 on mexican"),
                                   ("TRAIN-5",), own) is None


# --- end to end: a house engine's games ---------------------------------------------------


class SecondRail(ReferenceImplementation):
    """The reference under the rules it is sent, but the empty Mexican Train opens only to
    a player whose own train holds two tiles (dandy's "second rail"); where that leaves
    no play, the player draws (or passes, the boneyard empty or a tile drawn), as it lists
    and plays."""

    def _shut(self, ruleset: JSON, state: JSON) -> bool:
        trains = state["trains"]
        return not state["mexican"]["tiles"] and len(trains[state["seat"]]["tiles"]) < 2

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        out = super().legal(ruleset, state)
        if not self._shut(ruleset, state):
            return out
        kept = [a for a in out if not (a["type"] == "play" and a["train"] == "mexican")]
        if kept or not out:
            return kept
        # no play left: a draw, or a pass on an empty boneyard or after a draw (TURN-4)
        return [{"type": "draw" if state["boneyard"] and state.get("drawn") is None
                 else "pass"}]

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        mine = self.legal(ruleset, state)
        if (self._shut(ruleset, state) and action in mine
                and action not in super().legal(ruleset, state)):
            st = self.state(ruleset, state).copy()
            perform(st, codec.action_from_json(st, action))
            return codec.state_to_json(st)
        return super().apply(ruleset, state, action)


class DrawsBeside(SecondRail):
    """SecondRail with a planted bug under any rule of who may open the Mexican Train:
    where a tile would open it and another play is left, it lists a draw beside the plays
    (TURN-1: a player who can play does not draw)."""

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        out = super().legal(ruleset, state)
        whole = ReferenceImplementation.legal(self, ruleset, state)
        opens = any(a["type"] == "play" and a["train"] == "mexican" for a in whole)
        if (not state["mexican"]["tiles"] and opens and state["boneyard"]
                and any(a["type"] == "play" and a["train"] != "mexican" for a in out)):
            out = [*out, {"type": "draw"}]
        return out


@pytest.mark.parametrize(("impl", "found"), [("SecondRail", False), ("DrawsBeside", True)])
def test_a_second_rail_engine_is_judged_and_its_bug_found(
        impl: str, found: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Three games under "second rail": the engine with its rule alone has no finding
    (every answer judged beside the Mexican opening; the known values' agreement would
    have charged TRAIN-5 where its own train holds one tile), and judges some answers
    that read the rule; its draw listed beside a play is found. Before, every answer
    that read the rule was set aside: nothing found, none judged by the cut."""
    path = tmp_path / "rules.yaml"
    path.write_text(MEXICAN, encoding="utf-8")
    main(["fuzz", "--adapter", f"{__file__}:{impl}", "--rules", str(path), "--games", "3",
          "--seed", "1", "--json", "--out", str(tmp_path / "out"), "--shrink-seconds", "10"])
    report: dict[str, Any] = json.loads(capsys.readouterr().out)
    assert report["judged_by_cut"].get("mexican_first_turn", 0) > 0, report
    if not found:
        assert report["findings"] == [], report["findings"]
        return
    signatures = [f["signature"] for f in report["findings"]]
    assert signatures and all("draw" in s for s in signatures), signatures
