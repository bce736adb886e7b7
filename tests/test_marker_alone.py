"""An entry still runs, its markers set aside, under a marker rule of one's own
(conformance/marker_alone.py): bogie (tests/examples/c/bogie_engine.c) takes a marker off
when its owner plays on their own train or the Mexican Train, and 50 of its results were
not applicable, though in many only the `marked` field was that rule's."""

from __future__ import annotations

import json
from pathlib import Path

from mtrain.cli import main
from mtrain.conformance.fixture import Fixture, load_corpus
from mtrain.conformance.marker_alone import ONLY_MARKER, marker_options
from mtrain.conformance.partition import applies
from mtrain.conformance.selection import entry_for
from mtrain.spec.catalog import catalog
from mtrain.spec.scope import Space

SPACE = Space()
EXAMPLES = Path(__file__).parent / "examples"
BOGIE = EXAMPLES / "c" / "bogie-rules.yaml"
SIXES = EXAMPLES / "sixes-rules.yaml"


def fixture(fid: str) -> Fixture:
    return next(fx for fx in load_corpus()[0] if fx.id == fid)


def test_a_follow_up_runs_without_the_markers_its_play_took_off() -> None:
    """ownmex-001: seat 2 lays a double on seat 1's marked train, and its follow-up may
    not open the Mexican Train (FIRST-10). Which marker comes off is the marker rule's
    (MARK-3..5); the legal set, the refusal, the phase and the seat are not."""
    rs = catalog().rules_file(str(BOGIE))
    fx = fixture("ownmex-001")
    own_train_started = fx.expect[1]
    assert applies(own_train_started, fx, rs, SPACE) == ONLY_MARKER
    exp, why = entry_for(fx, rs, SPACE)
    assert why is None and exp is not None
    assert "marked" not in exp.state
    assert exp.state == {"phase": "follow", "turn_doubles": [1], "seat": 2}
    assert exp.legal == ("play 12-3 on 2",)
    assert exp.refused == {"play 12-3 on mexican": ("FIRST-10",)}
    # under a known marker rule the whole entry runs, its markers included
    known = catalog().ruleset("pagat+own-train-opens-mexican")
    whole, _ = entry_for(fx, known, SPACE)
    assert whole is not None and whole.state["marked"] == [1, 2]


def test_a_legal_set_the_marker_rule_decides_stays_not_applicable() -> None:
    """marker-015: whether seat 1 may play on seat 0's train after seat 0 played is the
    marker rule's (a draw under owner-plays-own, a play under the others): no cut runs;
    nor where the markers are all the entry checks (marker-011)."""
    rs = catalog().rules_file(str(BOGIE))
    for fid in ("marker-015", "marker-011"):
        exp, why = entry_for(fixture(fid), rs, SPACE)
        assert exp is None and why == ONLY_MARKER, fid


def test_a_tie_rule_of_its_own_besides_sets_the_winners_aside_too() -> None:
    """sixes plays a marker rule and a tie rule of its own: generated-tie-rule-001 read
    both, and now runs without its markers and its winners (round_end_alone.py)."""
    rs = catalog().rules_file(str(SIXES))
    fx = fixture("generated-tie-rule-001")
    exp, why = entry_for(fx, rs, SPACE)
    assert why is None and exp is not None
    assert exp.winners is None and "marked" not in exp.state
    assert exp.state == {"outs": [1, 0]}


def test_only_the_marker_rule_and_round_end_options_are_cut_away() -> None:
    assert marker_options(ONLY_MARKER) == {"marker_removal"}
    assert marker_options("its outcome depends on marker_removal (played its own way), "
                          "tie_rule (played its own way)") == {"marker_removal", "tie_rule"}
    assert not marker_options("its outcome depends on marker_removal (played its own way), "
                              "blocked_round (played its own way)")
    assert not marker_options("its outcome depends on scoring (played its own way)")
    assert not marker_options("outside the expectation's scope")


def test_a_planted_marker_bug_shows_where_the_entry_was_not_applicable(
        tmp_path: Path) -> None:
    """signalbox (tests/examples/signalbox_engine.py) with its bug 1 on reads the mover's
    marker for every train (TRAIN-4). Declared with a marker rule of its own, doubles-068
    was not applicable under it; its second step, refused there, now runs and fails,
    charged to TRAIN-4; with the bugs off it passes."""
    text = (EXAMPLES / "signalbox-rules.yaml").read_text(encoding="utf-8")
    assert "marker_removal: owner-plays-own" in text
    rules = tmp_path / "own-marker-rules.yaml"
    rules.write_text(text.replace("marker_removal: owner-plays-own", "marker_removal: other")
                     .replace("name: signalbox", "name: signalbox-own-marker"),
                     encoding="utf-8")
    engine = EXAMPLES / "signalbox_engine.py"
    statuses = {}
    for adapter in ("Signalbox", "Fixed"):
        out = tmp_path / f"{adapter}.json"
        main(["conform", "--adapter", f"{engine}:{adapter}", "--rules", str(rules),
              "-k", "doubles-068", "--format", "json", "--output", str(out)])
        [result] = json.loads(out.read_text(encoding="utf-8"))["results"]
        statuses[adapter] = result["status"]
        if adapter == "Signalbox":
            assert result["charged"] == ["TRAIN-4"]
            assert "carries no marker [TRAIN-4]" in result["messages"][0]
    assert statuses == {"Signalbox": "fail", "Fixed": "pass"}
