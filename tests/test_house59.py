"""The suite's faults reachstacker (tests/examples/js/reachstacker_engine.js, a double-10
engine for 3 to 8 players with a table of its own and two house rules that meet: the
highest double dealt is the engine, its placing the holder's first turn, and a first
turn lays only on one's own train) showed, each fixed with a test that failed before the
fix. Each is played in process over the reference.

reachstacker's bug 1 lists a drawn tile on the first train it fits only, as if it had one
place to go (TURN-3: the drawn tile may go on any train where it would be legal). Where
the train it missed was another player's marked train, or the empty Mexican Train to
open, conform charged the miss to that train's access (TRAIN-4, TRAIN-5): 33 of its 96
failures, beside 61 charged TURN-3. One table cannot tell the two bugs apart, since the
tile offered elsewhere is the only one in play; the engine can, so it is asked (a probe):
the same table without the draw, the tile in hand, where an engine that keeps the marked
train closed (tests/examples/js/hopper_engine.js's "short-lap") still leaves the play out,
and one that only narrows the drawn tile's places offers it. There the miss is the
moment's rule, TURN-3."""

from __future__ import annotations

import json
from pathlib import Path

from mtrain.cli import main
from mtrain.conformance.adapter import JSON, ReferenceImplementation
from mtrain.reference import codec, engine

# Seat 0 holds [8-1], which fits nowhere, and draws [5-0]: it fits seat 0's own train
# (ending 5) and seat 1's marked train (ending 5), not the Mexican (7) nor seat 2's (9).
MARKED = """- id: h59-marked-001
  description: the drawn [5-0] fits the own train and seat 1's marked train
  clauses: [TURN-3, TRAIN-4]
  source: [computation]
  table:
    seat: 0
    starter: 0
    hands: {0: [8-1], 1: [6-6], 2: [rest]}
    trains:
      0: [12-5]
      1: [12-3, 3-5]
      2: [12-9]
      mexican: [12-7]
    marked: [1]
    boneyard: [5-0, 8-8]
  steps: [draw]
  expect:
  - variants: [puremco]
    legal: [play 5-0 on 0, play 5-0 on 1]
"""

# Seat 0's train and the Mexican are empty (ending 12); seat 0 holds [8-1] and draws
# [12-4], which fits both: the own train, and the Mexican to open.
OPENING = """- id: h59-opening-001
  description: the drawn [12-4] fits the empty own train and the empty Mexican Train
  clauses: [TURN-3, TRAIN-5]
  source: [computation]
  table:
    seat: 0
    starter: 0
    hands: {0: [8-1], 1: [6-6], 2: [rest]}
    trains:
      1: [12-3]
      2: [12-9]
    boneyard: [12-4, 8-8]
  steps: [draw]
  expect:
  - variants: [puremco]
    legal: [play 12-4 on 0, play 12-4 on mexican]
"""


def _train_order(action: JSON) -> int:
    return 99 if action.get("train") == "mexican" else int(action.get("train", 0))


class OneTrainDraw(ReferenceImplementation):
    """The reference's rules, but a drawn tile is listed on the first train it fits only
    (the personal trains by seat, then the Mexican), as reachstacker's bug 1."""

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        found = super().legal(ruleset, state)
        if state.get("drawn") is None:
            return found
        plays = sorted((a for a in found if a["type"] == "play"), key=_train_order)
        return plays[:1] or found


class ClosedMarked(ReferenceImplementation):
    """The reference's rules, but another player's marked train is never open, drawn
    tile or not (hopper's "short-lap"): the marker's access, TRAIN-4."""

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        st = self.state(ruleset, state)
        return [codec.action_to_json(st, a) for a in engine.legal_actions(st)
                if not (a.kind == "play" and a.train not in (st.seat, st.players)
                        and st.marked(a.train) and a.train not in st.open_doubles)]


def _charges(tmp_path: Path, adapter: str, fixtures: str) -> dict[str, list[str]]:
    (tmp_path / "fx.yaml").write_text(fixtures, encoding="utf-8")
    out = tmp_path / "report.json"
    main(["conform", "--adapter", f"{__file__}:{adapter}", "--fixtures",
          str(tmp_path / "fx.yaml"), "--format", "json", "--output", str(out)])
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["summary"]["fail"] == len(report["results"]), report["summary"]
    return {r["fixture"]: r["charged"] for r in report["results"]}


def test_a_drawn_tile_missed_on_a_train_the_engine_opens_is_turn_3s(tmp_path: Path) -> None:
    """The drawn tile offered on the own train only: missed on a marked train, or on the
    empty Mexican Train, that the engine opens to the same tile held at a turn's start.
    The miss is what may be done with a drawn tile (TURN-3), not the train's access."""
    assert _charges(tmp_path, "OneTrainDraw", MARKED + OPENING) == {
        "h59-marked-001": ["TURN-3"], "h59-opening-001": ["TURN-3"]}


def test_a_marked_train_closed_at_every_moment_is_still_its_access(tmp_path: Path) -> None:
    """An engine that keeps the marked train closed without the draw too: the probe
    finds the play missing there as well, so the charge stays the marker's access."""
    assert _charges(tmp_path, "ClosedMarked", MARKED) == {"h59-marked-001": ["TRAIN-4"]}
