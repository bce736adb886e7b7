"""The suite's faults trestle (tests/examples/trestle_engine.py, a double-8 engine for 2 to
6 players whose hello names no rules, and five house rules at once) showed as its author
ran identify, then conform and fuzz under what identify found, each fixed with a test that
failed before the fix. Each behaviour is played here by a few lines over the reference,
on a table worked by hand or made by situations from play."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import Any

import pytest
import z3
from rule_texts import rules_text

from mtrain.cli import main
from mtrain.conformance.adapter import JSON, ReferenceImplementation
from mtrain.conformance.fixture import FIXTURE_ROOT, load_corpus, load_file
from mtrain.conformance.identify import bugs
from mtrain.conformance.identify.cells import Piece
from mtrain.conformance.identify.solve import NO_OTHER, Model, constraint, moment_options
from mtrain.conformance.runner import run_one
from mtrain.conformance.situations import situations
from mtrain.spec.catalog import catalog
from mtrain.spec.ruleset import OTHER
from mtrain.spec.scope import Space

RULES = rules_text("trestle", tile_set="double-8",
                   hand_sizes="{2: 11, 3: 10, 4: 9, 5: 7, 6: 6}", uncoverable_double="released",
                   blank_values="double-blank-50", match_length="full")
"""trestle's rules with a known value in place of each of its own (what fuzz plays in
their place): none of them decides what a pass after a draw in vain does."""


class CountsEveryPass(ReferenceImplementation):
    """trestle's bug 2: a pass is counted towards END-3's full round of passes whatever
    the boneyard holds, where END-3 counts those made on an empty boneyard."""

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        after = super().apply(ruleset, state, action)
        if action.get("type") == "pass" and state["boneyard"] and after["phase"] != "over":
            after = {**after, "passes": after["passes"] + 1}
        return after


PASS_WITH_TILES_LEFT = """
- id: house47a-001
  description: "Seat 0 draws [7-6], which fits nowhere, and passes with a tile left to draw"
  clauses: [TURN-2, TURN-4, MARK-1]
  source: [computation]
  table:
    seat: 0
    starter: 0
    hands:
      0: [6-5]
      1: [rest]
    trains:
      0: [8-3]
      1: [8-4]
      mexican: [8-2]
    boneyard: [7-6, 1-1]
    first_turns: []
  steps: [draw, pass]
  rules: rules.yaml
  expect:
  - variants: [trestle]
    state:
      seat: 1
      marked: [0]
      drawn: null
      passes: 0
"""
"""By hand: the open ends are 3 (seat 0's own), 2 (the Mexican Train) and 4 (seat 1's,
unmarked): [6-5] fits none, so seat 0 draws [7-6] (TURN-2), which fits none either, and
passes (TURN-4): marker up, seat 1 to move, and no pass counted, since [1-1] is still in
the boneyard (END-3 counts passes made on an empty one)."""


def _rules(tmp_path: Path) -> Path:
    path = tmp_path / "rules.yaml"
    path.write_text(RULES, encoding="utf-8")
    return path


def test_a_pass_counted_with_tiles_left_is_charged_to_the_count_of_passes(
        tmp_path: Path) -> None:
    """trestle's bug 2 counted every pass: conform charged the wrong `passes` to TURN-4,
    the clause of the pass the fixture lists (its marker), and fuzz named the finding
    TURN-4 alike; the count is END-3's."""
    rs = catalog().rules_file(str(_rules(tmp_path)))
    path = tmp_path / "fx.yaml"
    path.write_text(PASS_WITH_TILES_LEFT, encoding="utf-8")
    fx = load_file(path)[0]
    assert run_one(fx, rs, fx.expect[0], ReferenceImplementation()).status == "pass"
    out = run_one(fx, rs, fx.expect[0], CountsEveryPass())
    assert out.status == "fail" and "passes: expected 0, got 1" in out.messages
    assert out.charged == ["END-3"]


def test_a_pass_after_a_draw_in_vain_checks_the_count_of_passes(tmp_path: Path) -> None:
    """`play-pass-` checked the marker, the seat, the drawn tile and the first turns after
    the pass, not the passes counted: trestle's bug 2 failed nothing in conform under a
    draw-one file (fuzz alone found it). Now each such pass with tiles left in the
    boneyard fails, charged to END-3; the reference passes them all."""
    rs = catalog().rules_file(str(_rules(tmp_path)))
    made = [fx for fx in situations(rs, 70) if fx.id.startswith("play-pass-")]
    assert len(made) >= 5
    for fx in made:
        assert "passes" in fx.expect[0].state
        assert run_one(fx, rs, fx.expect[0], ReferenceImplementation()).status == "pass"
    failed = [run_one(fx, rs, fx.expect[0], CountsEveryPass()) for fx in made]
    failed = [o for o in failed if o.status == "fail"]
    assert len(failed) >= 3
    assert all(o.charged == ["END-3"] for o in failed), [o.charged for o in failed]


SPACE = Space()
DRAWN = [Piece({"own_train_first": frozenset([otf]), "draw_rule": frozenset([dr])},
               ("pass" if otf == "not-required" else "fail",), ("own_train_first", "draw_rule"))
         for dr in ("draw-one", "draw-until-playable") for otf in ("not-required", "required")]
"""A table with a tile drawn, as a situation from play's partition has it (play-drawn-002 of
trestle's identify): both draw rules agree, and the own-train rule changes the legal set
(the drawn tile fits only another train, TRAIN-7 closing it); both are read."""
DRAWN_CLAUSES = ("TRAIN-2", "TRAIN-4", "TURN-1", "TURN-2", "TURN-3", "TURN-4", "TURN-5")
"""Its clauses, as situations list them for a drawn tile (TURN-2, TURN-5: the draw rule's)."""


def _holds(model: Model, c: Any, values: dict[str, str]) -> bool:
    solver = z3.Solver(ctx=model.ctx)
    solver.add(*model.hard, c, *(model.eq(o, v) for o, v in values.items()))
    return bool(solver.check() == z3.sat)


def test_a_drawn_tile_no_draw_rule_plays_so_is_a_draw_rule_of_ones_own() -> None:
    """trestle plays a drawn tile on any train it fits: on 32 tables, whose legal sets
    both draw rules give alike, its answer is no known value's. identify's constraint took
    `other` only on an option the outcome depends on (own_train_first, here), so the
    tables were read as bugs in TRAIN-4 and draw_rule was written draw-one; a draw rule
    of one's own, which decides what a drawn tile may do (TURN-3) and which the fixture's
    clauses name (TURN-2, TURN-5), now explains them too, as conform would not run them."""
    model = Model.of(SPACE)
    escapable = [o for o in SPACE.options if o not in NO_OTHER]
    moments = moment_options(DRAWN_CLAUSES, catalog())
    assert "draw_rule" in moments and "own_train_first" not in moments
    c = constraint(model, DRAWN, ("fail",), escapable, moments=moments)
    answer = {"own_train_first": "not-required", "draw_rule": OTHER}
    assert _holds(model, c, answer)
    assert _holds(model, c, {"own_train_first": OTHER, "draw_rule": "draw-one"})
    assert not _holds(model, c, {"own_train_first": "not-required", "draw_rule": "draw-one"})
    # an option only read, whose clause the fixture does not list, explains nothing
    bare = constraint(model, DRAWN, ("fail",), escapable)
    assert not _holds(model, bare, answer)


def test_tables_a_draw_rule_of_ones_own_decides_count_against_a_known_draw_rule() -> None:
    """The bug model read the same 32 tables as no evidence about draw_rule (its values
    agree there, a bug in a neighbouring clause), so a few fixtures showing draw-one
    against none pinned draw_rule to draw-one, its tables read as bugs. Where the
    fixture's clauses name the draw rule and the runs read it, they count against the
    known value: 6 that show draw-one against 32 is a rule of its own, not a bug."""
    answer = {o: vs[0] for o, vs in SPACE.options.items()} | {"draw_rule": OTHER}
    shows = [Piece({"draw_rule": frozenset(["draw-one"])}, ("pass",), ("draw_rule",)),
             Piece({"draw_rule": frozenset(["draw-until-playable"])}, ("fail",),
                   ("draw_rule",))]
    seen: dict[str, tuple[str | None, ...]] = {f"show-{k}": ("pass",) for k in range(6)}
    parts: dict[str, list[Piece]] = {fid: shows for fid in seen}
    for k in range(32):
        seen[f"drawn-{k}"] = ("fail",)
        parts[f"drawn-{k}"] = DRAWN
    moments = {fid: moment_options(DRAWN_CLAUSES if fid.startswith("drawn") else (),
                                   catalog()) for fid in seen}
    before = bugs.shape("draw_rule", "draw-one", answer, SPACE, frozenset(), seen, parts)
    assert len(before.alike) == 32 and not before.against
    assert bugs.with_a_bug(before, None, "draw-one")  # what identify wrote: draw-one
    s = bugs.shape("draw_rule", "draw-one", answer, SPACE, frozenset(), seen, parts, moments)
    assert len(s.shows) == 6 and len(s.unlike_all) == 32 and not s.alike
    assert not bugs.with_a_bug(s, None, "draw-one")


@pytest.mark.slow  # identify on the marker fixtures through the protocol once: ~5 CPU s
def test_identify_without_an_output_says_how_to_get_the_rule_set_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """trestle's author, who knows no option names, ran identify first without
    `--output`: it named the closest rule set and wrote nothing, saying nothing of the
    file conform needs. It now says how to have it written; with `--output` it writes it
    and says so instead. Asked about the marker fixtures only, as tests/test_identify.py
    does (the whole corpus costs a minute and a half of CPU)."""
    from mtrain.conformance import identify as module

    markers, errors = load_corpus(FIXTURE_ROOT / "markers")
    assert markers and not errors
    real = module.identify
    found_once: list[Any] = []  # the engine's answers are the same both times: asked once

    def identify_once(impl: Any, **kw: Any) -> Any:
        if not found_once:
            found_once.append(real(impl, markers, **kw))
        return found_once[0]
    monkeypatch.setattr(module, "identify", identify_once)
    engine = shlex.join([sys.executable, "-m", "mtrain", "serve", "--rules",
                         str(_rules(tmp_path)), "--undeclared"])
    before = set(tmp_path.iterdir())
    assert main(["identify", "--impl", engine]) == 0
    out = capsys.readouterr().out
    assert "closest rule set: " in out
    assert "no rule-set file written: `mtrain identify --output FILE` writes" in out, out
    assert set(tmp_path.iterdir()) == before
    found = tmp_path / "found.yaml"
    assert main(["identify", "--impl", engine, "--output", str(found)]) == 0
    out = capsys.readouterr().out
    assert f"wrote {found}" in out and "no rule-set file written" not in out
    assert catalog().rules_file(str(found))["tile_set"] == "double-8"
