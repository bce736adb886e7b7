"""The suite's faults dandy (tests/examples/perl/dandy_engine.pl, a double-10 engine in
Perl with three house rules: who may open the Mexican Train, the draw and the marker)
showed, each fixed with a test that failed before the fix. Its house rules are played
here by a few lines over the reference where a table needs them (the Perl program itself
runs in tests/test_house_engines.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mtrain.cli import main
from mtrain.conformance.answers import schema_problems
from mtrain.conformance.fixture import Fixture, load_corpus, load_file
from mtrain.conformance.fuzz.findings import Group, cause, one_per_bug
from mtrain.conformance.selection import entry_for
from mtrain.conformance.traced import logged_run
from mtrain.spec.catalog import catalog
from mtrain.spec.scope import Space

SPACE = Space()
DANDY = Path(__file__).parent / "examples" / "perl" / "dandy-rules.yaml"


def fixture(fid: str) -> Fixture:
    return next(fx for fx in load_corpus()[0] if fx.id == fid)


def test_who_may_open_the_empty_mexican_train_is_its_rule_where_the_own_train_holds_a_tile(
        ) -> None:
    """first-021: the Mexican Train empty, seat 1's own train holds [9-6], and it holds
    [9-4]. Every known value lets it open the Mexican Train, so the reference read
    mexican_first_turn only where the own train was empty, and the entry ran under a rule
    of one's own: dandy (an own train of two tiles first) failed it, charged to TRAIN-5,
    with its bugs off, and fuzz called the same a finding. Who may open it is the option's
    question wherever the mover could."""
    rs = catalog().rules_file(str(DANDY))
    exp, why = entry_for(fixture("first-021"), rs, SPACE)
    # since session 61 the entry runs cut (conformance/mexican_alone.py): where opening
    # the Mexican Train is the only play, the opening and the draw, pass or end of a chain
    # standing for it are the rule's and left out of the legal set (since session 63 the
    # rest is judged: no other play may be offered); the refusal of a tile that fits no
    # end there (TRAIN-2 under any rule) is judged too
    assert exp is not None and why is None
    assert exp.legal == ("play 9-4 on mexican",)
    assert exp.own_actions == ("draw", "end-chain", "pass", "play 9-4 on mexican")
    assert exp.refused == {"play 1-1 on mexican": ("TRAIN-2",)}
    # under a known value the entry runs as before
    known, why = entry_for(fixture("first-021"), catalog().ruleset("pagat"), SPACE)
    assert known is not None and why is None


MARKED_DRAW = """
- id: house46b-001
  description: "Marked seat 1 cannot play and draws: no known rule takes its marker off"
  clauses: [TURN-2, MARK-1]
  source: [computation]
  table:
    seat: 1
    starter: 0
    hands:
      0: [6-0]
      1: [0-0]
    trains:
      mexican: [10-7]
    marked: [1]
  steps: [draw]
  rules: rules.yaml
  expect:
  - variants: [dandy]
    state:
      marked: [1]
"""
"""fuzz's shrunk table for dandy's house rule "hand in the box" (its marker comes off as
its owner draws), with its bugs off: a finding, `after draw: marked`, charged MARK-3."""


def test_a_marker_at_its_owners_draw_is_the_marker_rules(tmp_path: Path) -> None:
    """No known marker rule moves a marker at a draw, so the reference read none there,
    and a rule of one's own that takes it down as its owner draws was judged by the
    stand-in's (fuzz: `after draw: marked`, MARK-3, with dandy's bugs off). A marked
    player's draw now reads the marker rule: conform's and fuzz's traced runs name it,
    so a rule of one's own is not judged there (conform sets the markers aside,
    marker_alone.py); a draw by an unmarked player reads none."""
    stand_in = DANDY.read_text(encoding="utf-8").replace(
        "marker_removal: other", "marker_removal: owner-plays-own").replace(
        "mexican_first_turn: other", "mexican_first_turn: anyone").replace(
        "draw_rule: other", "draw_rule: draw-one")
    (tmp_path / "rules.yaml").write_text(stand_in, encoding="utf-8")
    rs = catalog().rules_file(str(tmp_path / "rules.yaml"))
    read = {}
    for marked in ("[1]", "[0]"):
        path = tmp_path / "fx.yaml"
        path.write_text(MARKED_DRAW.replace("marked: [1]", f"marked: {marked}"),
                        encoding="utf-8")
        fx = load_file(path)[0]
        _, log = logged_run(fx, rs, fx.expect, dict(rs.choices))
        read[marked] = "marker_removal" in log.decides
    assert read == {"[1]": True, "[0]": False}


def test_a_pass_for_the_draw_is_one_cause_whichever_moment_named_it() -> None:
    """dandy's bug 3 (a pass offered for the draw with one tile left in the boneyard) was
    two fuzz findings, `allows pass (TURN-2) instead of draw` in an ordinary turn and
    `allows pass (DBL-5) instead of draw` in a follow-up, though conform charged both
    reproducers to TURN-2: the clause in a signature is the moment's, and one_per_bug
    folds signatures of one charge and one cause."""
    assert cause("allows pass (TURN-2) instead of draw") == cause(
        "allows pass (DBL-5) instead of draw") == "pass instead of draw"
    assert cause("allows draw (TURN-2) instead of pass") != cause(
        "allows pass (TURN-2) instead of draw")


def test_one_per_bug_folds_the_two_moments_of_one_swap(tmp_path: Path) -> None:
    first, second = (tmp_path / "a.yaml", tmp_path / "b.yaml")
    for p in (first, second):
        p.write_text("[]\n", encoding="utf-8")
    groups = [Group(sig, 1, None, None, ["dandy"], path=p, charged=("TURN-2",))  # type: ignore[arg-type]
              for sig, p in (("allows pass (TURN-2) instead of draw", first),
                             ("allows pass (DBL-5) instead of draw", second))]
    kept = one_per_bug(groups)
    assert [g.signatures for g in kept] == [["allows pass (TURN-2) instead of draw",
                                             "allows pass (DBL-5) instead of draw"]]
    assert first.exists() and not second.exists()


def test_a_number_written_as_text_in_an_action_is_told_by_its_field() -> None:
    """A Perl engine that prints a seat number into a message before it writes the
    number (JSON::PP then writes it as text) answers `"train": "0"`: every such result
    was an error saying only that the action `{'tile': '2-8', 'type': 'play', 'train':
    '0'} is not valid under any of the given schemas`, at the action. The choice the
    action was meant for (a play) now tells its field."""
    problems = schema_problems("action", {"type": "play", "tile": "2-8", "train": "0"},
                               "actions/0/")
    assert [(p.where, p.message) for p in problems] == [(
        "actions/0/train [action.schema.json#/oneOf/0/properties/train/oneOf]",
        '"0" is a string; expected an integer or "mexican"')]
    # a value none of the choices is meant for still says what is wanted of it
    whole = schema_problems("action", 5)
    assert [p.message for p in whole] == ["5 is an integer; expected an object"]
    # an action of no kind says the kinds there are (jsonschema's "is not valid under any
    # of the given schemas" said nothing of why: robust-s51)
    kindless = schema_problems("action", {"type": "plya"})
    assert kindless[0].message == ('type "plya" is none of "play" or "draw" or "pass" or '
                                   '"end-chain", written exactly so'), kindless


ADAPTERS = Path(__file__).parent / "broken_impls" / "adapters.py"
OVERRIDE = "win over the rules the implementation declares"


def test_asking_for_the_declared_rules_overrides_nothing_and_says_nothing(
        capsys: pytest.CaptureFixture[str]) -> None:
    """dandy's every run under its own file (its hello declares the same rules) warned
    that the rule sets asked for win over the ones it declares: nothing was overridden.
    The warning stays for rule sets that differ from the declaration."""
    said = {}
    for variant in ("puremco", "pagat"):
        capsys.readouterr()
        main(["conform", "--adapter", f"{ADAPTERS}:DeclaresPuremco", "-k", "marker-00",
              "--variant", variant, "--format", "json"])
        report = json.loads(capsys.readouterr().out)
        said[variant] = [w for w in report["warnings"] if OVERRIDE in w]
    assert said["puremco"] == []
    assert len(said["pagat"]) == 1
