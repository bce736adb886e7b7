"""A failure is charged to the clause that decides it (conformance/attribution.py):
the three slips an engine author met (issue 24), each with a rule bug that shows it."""

from __future__ import annotations

import functools
import json
import sys
from collections import Counter
from pathlib import Path

import pytest

from mtrain.cli import main
from mtrain.conformance.fixture import Fixture, load_corpus
from mtrain.conformance.mutants import mutant
from mtrain.conformance.runner import run_one
from mtrain.reference import engine, refusals
from mtrain.reference.deal import deal
from mtrain.reference.rules import Rules
from mtrain.spec.catalog import catalog


@functools.cache
def corpus() -> dict[str, Fixture]:
    """The shipped corpus by id, loaded when a test asks (not at collection)."""
    return {fx.id: fx for fx in load_corpus()[0]}


def charged(fixture: str, variant: str, bug: str) -> list[str]:
    fx = corpus()[fixture]
    rs = catalog().ruleset(variant)
    exp = next(e for e in fx.expect if e.scope.contains(dict(rs.choices)))
    out = run_one(fx, rs, exp, mutant(bug))
    assert out.status == "fail", out.messages
    return out.charged


def test_a_step_refused_after_a_round_ended_too_early_is_charged_to_the_end() -> None:
    # end-015: the bug blocks the round after the first pass; the second pass is then
    # refused (END-1), but what went wrong is END-2's test, after step 1
    assert charged("end-015", "pagat", "blocked-ignores-markers") == ["END-2"]


def test_the_mexican_train_not_opened_in_a_follow_up_is_charged_to_its_opening() -> None:
    # generated-follow-up-002 (engine [9-9]): the tile after a double may open the empty
    # Mexican Train with a 9; an engine that opens it with the set's 12 misses that play,
    # and offers every other one. What it breaks is what opens the train (TRAIN-5), as in
    # an ordinary turn (first-021), not the follow-up rule (DBL-2, charged before:
    # tenwheeler's bug 1, tests/examples/tenwheeler_engine.py)
    bug = "mexican-opens-on-top-double"
    assert charged("generated-follow-up-002", "pagat", bug) == ["TRAIN-5"]
    assert charged("first-021", "puremco", bug) == ["TRAIN-5"]


def test_a_tie_broken_by_seat_is_charged_to_the_tie_rule() -> None:
    # match-005 names MATCH-1 and MATCH-5, not MATCH-4; under pagat the shared win is
    # MATCH-4's, and the bug breaks it
    assert charged("match-005", "pagat", "tie-broken-by-lowest-seat") == ["MATCH-4"]


def test_end_chain_without_chains_is_refused_by_the_single_tile_start() -> None:
    for variant, clause in (("puremco", "FIRST-7"), ("pagat", "FIRST-1")):
        st = deal(Rules.of(catalog().ruleset(variant)), 4, 1, seed=3)
        while st.phase == engine.ENGINE:  # draw for the engine until it is placed
            engine.perform(st, engine.DRAW)
        if variant == "pagat":  # out of the chain: a turn after the first ones
            st.first_pending = 0
        (refusal,) = refusals.refusals(st, engine.END_CHAIN)
        assert refusal.clause == clause
        assert catalog().clauses[clause].applies(st.rules.ruleset)


def test_a_round_score_wrong_for_some_tiles_is_charged_to_their_values() -> None:
    # roundhouse's bug 3 (tests/examples/roundhouse_engine.py): a double left in hand
    # scores twice. The same seats score nothing and another seat scores right, so the
    # hands are summed as penalty scoring says (SCORE-5): a tile's value (SCORE-1) is wrong
    from mtrain.conformance.score_charges import _values_only
    breach = "a round gone out: round scores [0, 32, 11], the hands left give [0, 20, 11]"
    assert _values_only(breach)
    # every seat off, each by its own amount (each holds a double): the values too
    assert _values_only("a blocked round: round scores [32, 946, 42], the hands left give "
                        "[20, 844, 24]")
    # every scoring seat wrong (a hand counted twice): the scoring rule's, as before
    assert not _values_only("a round gone out: round scores [0, 40, 22], the hands left "
                            "give [0, 20, 11]")
    # who scores differs (positive against penalty): the scoring rule's
    assert not _values_only("a round gone out: round scores [31, 0, 0], the hands left "
                            "give [0, 20, 11]")
    assert charged("end-001", "pagat", "hand-scored-twice") == ["SCORE-5"]


def test_doubles_scored_twice_are_charged_to_the_face_values() -> None:
    # the mutant doubles-score-twice on score-001 (4 players, seat 1 out): the seats
    # holding no double score right, the others not
    charges = charged("score-001", "pagat", "doubles-score-twice")
    assert charges == ["SCORE-1"], charges


def test_a_drawn_tile_refused_as_the_oldest_cover_is_charged_to_the_order() -> None:
    # fuzz's reproducer of hump's newest-first bug (tests/examples/hump_engine.py, bug 1):
    # seat 3 drew [9-5]; of the open doubles [5-5] (train 2, older) and [8-8] (train 1),
    # it covers the older. An engine that withholds it keeps another order (DBL-7), not
    # the drawn tile's rule (TURN-3), which the play obeys
    from mtrain.conformance.move_charges import allowing
    from mtrain.reference.codec import action_from_json, state_from_json
    rs = catalog().ruleset("pagat")
    rules = Rules.of(rs)
    seats = [[], ["2-1"], ["1-1"], ["9-5"]]
    laid = {"0-8", "8-8", "0-5", "5-5", "12-12", *(t for s in seats for t in s)}
    rest = [f"{a}-{b}" for a in range(12, -1, -1) for b in range(a, -1, -1)
            if f"{a}-{b}" not in laid and f"{b}-{a}" not in laid]
    state = {
        "round": 13, "engine": 0, "engine_placed": True, "phase": "start", "seat": 3,
        "starter": 0, "hands": [rest, *seats[1:]], "boneyard": [],
        "trains": [{"tiles": [], "end": 0, "marker": False},
                   {"tiles": ["0-8", "8-8"], "end": 8, "marker": False},
                   {"tiles": ["0-5", "5-5"], "end": 5, "marker": True},
                   {"tiles": [], "end": 0, "marker": False}],
        "mexican": {"tiles": [], "end": 0}, "open_doubles": [2, 1], "turn_doubles": [],
        "drawn": "9-5", "first_turns": [], "passes": 0, "scores": [0] * 4,
        "outs": [0] * 4, "result": None}
    st = state_from_json(rules, state)
    act = action_from_json(st, {"type": "play", "tile": "9-5", "train": 2})
    assert allowing(st, act) == "DBL-7"


def _follow_up_past_a_release(drawn: str | None) -> tuple[engine.State, engine.Action]:
    """switchback's situation play-opendbl-087 (tests/examples/switchback_engine.py, bug 2,
    "mexican-blind"): seat 5 follows up its [5-5]; the [8-8] (train 5) and the [0-0] on
    the Mexican Train, laid on earlier turns, have every tile of their number on the
    table, so they bind nobody (DBL-9) and [3-2] may go on the marked trains 1 and 4."""
    from mtrain.reference.codec import action_from_json, state_from_json
    rs = catalog().ruleset("puremco-d9", overrides={"follow_up": "anywhere",
                                                    "hand_sizes": "celko-d9"})
    trains = [["6-5", "5-8", "8-7", "7-5", "5-5"], ["6-3", "3-1", "1-8", "8-0", "0-3"],
              ["6-8", "8-2", "2-0", "0-1", "1-1", "1-7", "7-4"],
              ["6-7", "7-3", "3-8", "8-4", "4-3", "3-3", "3-5", "5-4", "4-1"],
              ["6-9", "9-3"], ["6-0", "0-7", "7-9", "9-9", "9-8", "8-8"]]
    mexican = ["6-1", "1-9", "9-5", "5-2", "2-9", "9-0", "0-5", "5-1", "1-2", "2-6", "6-4",
               "4-0", "0-0"]
    state = {
        "round": 4, "engine": 6, "engine_placed": True, "phase": "follow", "seat": 5,
        "starter": 3, "hands": [["7-7"], ["7-2", "4-4"], ["9-4"], ["4-2"], ["2-2"], ["3-2"]],
        "boneyard": [], "trains": [{"tiles": t, "end": int(t[-1][-1]), "marker": s != 2}
                                   for s, t in enumerate(trains)],
        "mexican": {"tiles": mexican, "end": 0}, "open_doubles": [5, "mexican", 0],
        "turn_doubles": [0], "drawn": drawn, "first_turns": [], "passes": 0,
        "scores": [0] * 6, "outs": [0] * 6, "result": None}
    st = state_from_json(Rules.of(rs), state)
    return st, action_from_json(st, {"type": "play", "tile": "3-2", "train": 1})


def test_a_follow_up_past_a_released_double_is_charged_to_the_release() -> None:
    # An engine that keeps the dead [0-0] binding withholds the follow-up on train 1: the
    # release is what allows it, as in an ordinary turn, not the follow-up rule (DBL-2:
    # 3 of switchback's 49 failures were charged so, the other 45 to DBL-9)
    from mtrain.conformance.move_charges import allowing
    for drawn in (None, "3-2"):  # the tile in hand, or just drawn (TURN-3 before)
        st, act = _follow_up_past_a_release(drawn)
        assert allowing(st, act) == "DBL-9", drawn
    # the same follow-up once no double of an earlier turn is left: the follow-up rule's
    st, act = _follow_up_past_a_release(None)
    st.open_doubles = [0]
    assert allowing(st, act) == "DBL-2"


def test_a_cover_past_an_older_released_double_is_charged_to_the_release() -> None:
    # fuzz's reproducer of switchback's bug 2 (its finding "forbids play (DBL-7)"): the
    # older [5-5] (train 1) is dead, every 5 on the table, so seat 0 covers the [4-4] on
    # the Mexican Train; an engine that withholds it keeps the dead double binding
    # (DBL-9), it does not cover in another order (DBL-7)
    from mtrain.conformance.move_charges import allowing
    from mtrain.reference.codec import action_from_json, state_from_json
    rules = Rules.of(catalog().ruleset("puremco-d9"))
    trains = [["8-0", "0-6", "6-3", "3-9", "9-5", "5-8"],
              ["8-7", "7-5", "5-0", "0-2", "2-5", "5-5"],
              ["8-3", "3-7", "7-7", "7-6", "6-9", "9-0", "0-1", "1-5", "5-4"]]
    mexican = ["8-2", "2-4", "4-1", "1-8", "8-6", "6-2", "2-3", "3-0", "0-4", "4-7", "7-2", "2-2",
               "2-1", "1-1", "1-6", "6-6", "6-5", "5-3", "3-4", "4-4"]
    laid = {*(t for x in [*trains, mexican] for t in x), "6-4", "7-1", "8-8"}
    rest = [f"{a}-{b}" for a in range(9, -1, -1) for b in range(a, -1, -1)
            if f"{a}-{b}" not in laid and f"{b}-{a}" not in laid]
    state = {
        "round": 2, "engine": 8, "engine_placed": True, "phase": "start", "seat": 0,
        "starter": 1, "hands": [["6-4"], ["7-1"], rest], "boneyard": [],
        "trains": [{"tiles": t, "end": int(t[-1][-1]), "marker": False} for t in trains],
        "mexican": {"tiles": mexican, "end": 4}, "open_doubles": [1, "mexican"],
        "turn_doubles": [], "drawn": None, "first_turns": [], "passes": 0,
        "scores": [0] * 3, "outs": [0] * 3, "result": None}
    st = state_from_json(rules, state)
    act = action_from_json(st, {"type": "play", "tile": "6-4", "train": "mexican"})
    assert allowing(st, act) == "DBL-9"


@pytest.mark.slow  # a conform run against a program, ~5 CPU s
def test_a_duty_ignored_far_from_any_release_is_the_duty(tmp_path: Path) -> None:
    """tandem with only its bug 2 on (tests/examples/tandem_engine.py: a player who must
    cover an open double may play on the Mexican Train instead, DBL-6). Every situation
    from play with an open double lists every doubles clause, so each such play was
    charged to the release rule (DBL-9) as if the fixture were about releasing: 2 of 33
    failures charged to DBL-6 when measured. A release is now blamed only where one is
    near (the double one tile short of it, ...): 11 of 33. The rest are tables where no
    hand holds a cover, which read as sixes' early release (the table cannot tell)."""
    examples = Path(__file__).parent / "examples"
    out = tmp_path / "report.json"
    main(["conform", "--impl", f"{sys.executable} {examples / 'tandem_engine.py'} --fixed 1,3",
          "--rules", str(examples / "tandem-rules.yaml"), "--format", "json",
          "--output", str(out)])
    fails = [r for r in json.loads(out.read_text(encoding="utf-8"))["results"]
             if r["status"] == "fail"]
    charged = Counter(c for r in fails for c in r["charged"])
    # DBL-7 where the Mexican Train ends in the newest of several open doubles (s56-005,
    # s56-008): the escape there covers it, out of the order DBL-7 sets
    assert set(charged) <= {"DBL-6", "DBL-9", "DBL-7"} and charged["DBL-6"] >= 10, charged


def test_the_mexican_train_closed_to_a_marked_player_is_charged_to_its_access(
        tmp_path: Path) -> None:
    # pullman's bug 2 (tests/examples/pullman_engine.py): a player whose marker is up may
    # not play on the Mexican Train. 9 of its 116 failures were charged to what opens an
    # empty Mexican Train (TRAIN-5: engine-002, and generated-blank-values-001, a step
    # refused while it offers the tile elsewhere) and 25 to the drawn tile (TURN-3), and
    # fuzz split it in two findings; what it breaks is the Mexican Train's access (TRAIN-4,
    # which names it among the trains anyone may use). Where a tile is drawn and nothing
    # but a pass is offered, the drawn tile may be unseen (interlock's bug): TURN-3 there
    engine = Path(__file__).parent / "examples" / "pullman_engine.py"
    rules = engine.with_name("pullman-rules.yaml")
    out = tmp_path / "report.json"
    main(["conform", "--impl", f"{sys.executable} {engine}", "--rules", str(rules),
          "-k", "engine-002", "-k", "generated-blank-values-001", "-k", "marker-013",
          "-k", "markdraw-001", "--situations", "0", "--format", "json",
          "--output", str(out)])
    results = json.loads(out.read_text())["results"]
    got = {r["fixture"]: (r["status"], r["charged"]) for r in results}
    assert got == {"engine-002": ("fail", ["TRAIN-4"]),
                   "generated-blank-values-001": ("fail", ["TRAIN-4"]),
                   "marker-013": ("fail", ["TRAIN-4"]),
                   "markdraw-001": ("fail", ["TURN-3"])}, got


def test_a_turn_that_goes_on_after_a_tile_not_a_double_is_charged_to_its_end(
        tmp_path: Path) -> None:
    # tender's bug 2 (tests/examples/tender_engine.py): the tile that opens the Mexican
    # Train does not end the turn (phase `follow`, no double laid). Both failures broke
    # INV-OPEN-DOUBLES ("a follow-up is due but no double was laid this turn") and were
    # charged to what closes a covered double (TRAIN-3, the invariant's last candidate
    # under doubles of the engine's own); what the answer breaks is TURN-6: a turn ends
    # when the player lays a tile that is not a double
    engine = Path(__file__).parent / "examples" / "tender_engine.py"
    rules = engine.with_name("tender-rules.yaml")
    out = tmp_path / "report.json"
    main(["conform", "--impl", f"{sys.executable} {engine} --fixed 1", "--rules", str(rules),
          "-k", "play-wrap-002", "--situations", "700", "--format", "json",
          "--output", str(out)])
    results = json.loads(out.read_text())["results"]
    got = {r["fixture"]: (r["status"], r["charged"]) for r in results}
    assert got == {"play-wrap-002": ("fail", ["TURN-6"])}, got
