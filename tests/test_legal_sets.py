"""The engine against the model (conformance/crosscheck/legal_sets.py, spec/model/decisions.py):
cheap samples."""

from __future__ import annotations

from typing import Any

import pytest

from mtrain.conformance.crosscheck.legal_sets import compare_ruleset, compare_state, z3_search
from mtrain.conformance.speccheck import run as check
from mtrain.reference import engine as E
from mtrain.reference import refusals
from mtrain.spec.catalog import catalog
from mtrain.spec.model import decisions as D

CAT = catalog()


def _state(**kw: Any) -> dict[str, Any]:
    """A double-12 table, 2 players, engine [12-12], seat 0 to move after the first turns:
    seat 0 holds 5-3 and 12-4, seat 1 holds 6-6; seat 0's train ends 7, seat 1's ends 5
    without a marker, the Mexican Train is empty."""
    base: dict[str, Any] = {
        "round": 1, "engine": 12, "engine_placed": True, "phase": "start", "seat": 0,
        "starter": 0, "hands": [["5-3", "12-4"], ["6-6"]], "boneyard": [],
        "trains": [{"tiles": ["12-7"], "end": 7, "marker": False},
                   {"tiles": ["12-5"], "end": 5, "marker": False}],
        "mexican": {"tiles": [], "end": 12}, "open_doubles": [], "turn_doubles": [],
        "drawn": None, "first_turns": [], "passes": 0, "scores": [0, 0], "outs": [0, 0],
        "result": None}
    base.update(kw)
    return base


PAGAT = dict(CAT.ruleset("pagat").items())


def test_clauses_of_a_hand_written_table() -> None:
    """Expectations from the clauses' texts: 12-4 opens the Mexican Train (TRAIN-5); 5-3
    fits seat 1's train, which carries no marker (TRAIN-4), and not the own one (TRAIN-2);
    a tile not held (TURN-7); no draw while a play exists (TURN-1); no chain (FIRST-1)."""
    acts = [("play", (12, 4), "mexican"), ("play", (5, 3), "1"), ("play", (5, 3), "0"),
            ("play", (6, 6), "0"), ("draw", None, ""), ("pass", None, ""),
            ("end-chain", None, "")]
    legal, clause = D.answers(_state(), PAGAT, acts)
    assert legal == {"play 12-4 on mexican"}
    assert clause == {"play 12-4 on mexican": "TRAIN-5", "play 5-3 on 1": "TRAIN-4",
                      "play 5-3 on 0": "TRAIN-2", "play 6-6 on 0": "TURN-7",
                      "draw": "TURN-1", "pass": "TURN-1", "end-chain": "FIRST-1"}
    # the marker opens seat 1's train to seat 0 (MARK-1)
    marked = _state(trains=[{"tiles": ["12-7"], "end": 7, "marker": False},
                            {"tiles": ["12-5"], "end": 5, "marker": True}])
    legal, clause = D.answers(marked, PAGAT, [("play", (5, 3), "1")])
    assert "play 5-3 on 1" in legal and clause["play 5-3 on 1"] == "MARK-1"


def test_blocked_from_the_text_of_end_2_and_end_3() -> None:
    """Seat 0 can play 12-4 on the Mexican Train: not blocked. Without 12-4 nobody can play
    now; seat 1's 6-6 fits nothing even with every marker up: blocked (END-2). Seat 0's 5-3
    fits seat 1's train once seat 1 passes and marks it: not blocked. END-3 counts passes."""
    assert not D.blocked(_state(), PAGAT)
    stuck = _state(hands=[["11-3"], ["6-6"]])
    assert D.blocked(stuck, PAGAT)
    later = _state(seat=1, hands=[["5-3"], ["6-6"]])
    assert not D.blocked(later, PAGAT)
    end3 = dict(CAT.ruleset("pagat+passes-end-round").items())
    assert not D.blocked(stuck, end3)  # no passes yet
    assert D.blocked({**stuck, "passes": 2}, end3)
    assert not D.blocked({**stuck, "boneyard": ["1-0"]}, PAGAT)


@pytest.mark.parametrize("name", ["pagat", "puremco", "puremco-d9"])
def test_engine_equals_the_model_on_random_games(name: str) -> None:
    rep = compare_ruleset(name, CAT.ruleset(name), 150)
    assert rep.differences == []
    assert rep.states == 150 and rep.actions > 150 and rep.ends > 0


def _too_late(state: E.State, orig: Any = E.nobody_can_ever_play) -> bool:
    """END-2 mutated: blocked only after one more round of passes."""
    return bool(orig(state)) and state.passes >= state.players


def _too_early(state: E.State) -> bool:
    """END-2 mutated: blocked when nobody can play on the table as it stands, the markers
    the passes to come would raise ignored."""
    for q in range(state.players):
        trains = E.duties(state) or E.open_trains(state, q)
        if any(state.hands[q] & state.rules.number_mask[state.ends[t]] for t in trains):
            return False
    return True


@pytest.mark.parametrize("mutant", [_too_late, _too_early])
def test_a_mutated_end_2_fails_the_check_naming_it(monkeypatch: pytest.MonkeyPatch,
                                                    mutant: Any) -> None:
    monkeypatch.setattr(E, "nobody_can_ever_play", mutant)
    rep = compare_ruleset("puremco", CAT.ruleset("puremco"), 200)
    assert rep.differences
    assert {d.clause for d in rep.differences} == {"END-2"}
    assert "puremco: END-2:" in rep.differences[0].message()


def test_a_mutated_clause_fails_the_job(monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine names TURN-2 for every refused pass (TURN-1 is right while a play
    exists): the job fails, naming the clause the engine gave and the rule set."""
    orig = refusals.refusal

    def refusal(state: E.State, action: E.Action) -> E.IllegalAction:
        if action.kind == "pass" and state.phase == E.START:
            return E.IllegalAction("TURN-2", "mutated")
        return orig(state, action)

    monkeypatch.setattr(refusals, "refusal", refusal)
    monkeypatch.setattr("mtrain.reference.explore.rule_set_names", lambda: ["pagat"])
    out = check.job_engine_model(False, states=40, z3=False)
    c = out["checks"][0]
    assert c["name"] == "engine-vs-model" and c["status"] == "fail"
    bad = [f for f in c["findings"] if f["clauses"]]
    assert bad and bad[0]["clauses"] == ["TURN-2"]
    assert bad[0]["message"].startswith("pagat: TURN-2: 'pass': the engine names TURN-2, "
                                        "the model TURN-1")


def test_z3_search_meets_every_path_and_catches_a_wrong_clause(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With 4 players under pagat: a marked train of another seat is open (MARK-1), the own
    train can never be refused by TRAIN-4 (TRAIN-4: a player may play on their own train);
    the engine agrees on every table z3 finds. An engine that names TRAIN-4 where MARK-1
    permits is caught on the table of that path."""
    paths = {(p.action, p.legal, p.clause): p for p in z3_search("pagat", CAT.ruleset("pagat"))}
    assert paths[("play on other", True, "MARK-1")].answer == "sat"
    assert paths[("play on own", False, "TRAIN-4")].answer == "unsat"
    assert all(not p.differences for p in paths.values())
    assert all(p.answer in ("sat", "unsat") for p in paths.values())
    orig = refusals.permission
    monkeypatch.setattr(refusals, "permission", lambda s, a: (
        "TRAIN-4" if orig(s, a) == "MARK-1" else orig(s, a)))
    path = paths[("play on other", True, "MARK-1")]
    assert path.state is not None
    diffs = compare_state("pagat", path.state, dict(CAT.ruleset("pagat").items()))[2]
    assert diffs and {d.clause for d in diffs} == {"TRAIN-4"}


def test_a_scoring_overlay_plays_the_same_games() -> None:
    """blanks-25 changes only what a tile in hand scores: the same games, compared once."""
    from mtrain.conformance.crosscheck.legal_sets import compare_all

    reps = compare_all(20, ["pagat", "pagat+blanks-25", "pagat+own-train-first"])
    assert [r.same_as for r in reps] == [None, "pagat", None]
    assert reps[1].states == reps[0].states == 20
