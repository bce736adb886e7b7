"""Session 58 (fuzz58): fuzz on house engines.

- A finding found in play is asked again under the very rules it was found under. A
  reproducer under rules of one's own with a table of their own names a rule-set file
  written beside it, and checking it takes that file in as an example (same table); the
  option space fuzz keeps then named the rules' point `custom:NAME`, a value it was not
  built with, so every cut made after the first reproducer was empty: a later finding
  "did not show again" (and a second run in the process judged no such answer at all).
  Space.point names a table by the examples the space was built with.
"""

from __future__ import annotations

from pathlib import Path

import test_house57b as h57b

from mtrain.conformance import fuzz as F
from mtrain.conformance.adapter import JSON
from mtrain.conformance.fuzz.reproducer import write_rules_file
from mtrain.conformance.fuzz.rulesets import declared_context
from mtrain.spec.catalog import catalog
from mtrain.spec.ruleset import CUSTOM
from mtrain.spec.scope import Space


def _own_draw(tmp_path: Path) -> Path:
    rules = tmp_path / "own-draw.yaml"
    rules.write_text(h57b.OWN_DRAW, encoding="utf-8")
    return rules


class ScoresOnDoubleSix(h57b.ListsDryDraw):
    """wye's dry draw (listed on an empty boneyard once a tile is drawn, TURN-4), and a
    second planted bug found first: every total raised by one when [6-6] is played."""

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        got = super().apply(ruleset, state, action)
        if action.get("type") == "play" and action.get("tile") == "6-6":
            got = {**got, "scores": [s + 1 for s in got["scores"]]}
        return got


def test_a_later_finding_is_asked_again_under_the_rules_it_was_found_under(
        tmp_path: Path) -> None:
    """Nine games (seed 1, about 1 CPU s): the totals' bug, found in game 1, is shrunk and
    its reproducer checked first (its rules file taken in as an example); the dry draw,
    found in game 9 under the draw cut, is asked again under the same cut and has a
    reproducer charged TURN-4. Before: 'did not show again when asked again'."""
    ctx = declared_context(catalog().rules_file(str(_own_draw(tmp_path))))
    report = F.fuzz(F.Target.of(ScoresOnDoubleSix(), "both"), [ctx.name], 9, 1,
                    out=tmp_path / "out", shrink_tries=20)
    found = {g.signature: g for g in report.groups}
    assert "after play: scores" in found, list(found)
    draw = found.get("allows draw (TURN-4)")
    assert draw is not None, list(found)
    assert draw.problems == [] and draw.path is not None and draw.charged == ("TURN-4",), (
        draw.problems, draw.charged)


def test_the_point_of_a_table_taken_in_later_is_the_one_the_space_knows(
        tmp_path: Path) -> None:
    """The rules' point, and a region's completion, are the same before and after a
    rule-set file with the same table is taken in (fuzz's reproducer file); before, the
    point moved to `custom:own-draw`, a value the space lacks, and no region held it."""
    ctx = declared_context(catalog().rules_file(str(_own_draw(tmp_path))))
    space = Space()
    before = space.point(ctx.declared)
    known = {o: frozenset((v,)) for o, v in before.items() if o not in ctx.unknown}
    assert before["hand_sizes"] == CUSTOM and space.complete(known) is not None
    write_rules_file(tmp_path / "out", ctx)
    (written,) = (tmp_path / "out").rglob("*.yaml")
    catalog().add_example(written)
    assert space.point(ctx.declared) == before
    assert Space().point(ctx.declared)["hand_sizes"] == "custom:own-draw"  # a new space knows it
