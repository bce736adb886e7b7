"""conformance/crosscheck/round_effects.py: the engine's successors against the round model's
effects.

The shipped engine agrees with the model; an engine whose effect is broken (monkeypatched
here) is reported on the field it breaks, with the clause that decides that field, and
makes `mtrain check` exit 1.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from mtrain import cli
from mtrain.conformance.crosscheck import driver
from mtrain.conformance.crosscheck import round_effects as RE
from mtrain.conformance.speccheck import run as check
from mtrain.reference import engine as E
from mtrain.reference import refusals
from mtrain.reference.deal import deal, shuffled_order
from mtrain.reference.rules import Rules
from mtrain.spec import tiles as T
from mtrain.spec.catalog import catalog
from mtrain.spec.model.steps import dealt
from mtrain.spec.model.transitions import Model
from mtrain.spec.optionspace import checks

CAT = catalog()


def small_states(name: str, n: int = 3, players: int = 2, hand: int = 3,
                 count: int = 80) -> tuple[Model, list[E.State]]:
    """The cross-check driver's small game: its model and a sample of its states."""
    game = driver.small_game(CAT.ruleset(name), n, players, hand)
    return game.model(), driver.explored(game, 2, count)


@pytest.mark.parametrize("symbolic", [True, False])
def test_the_engine_agrees_with_the_model_on_small_games(symbolic: bool) -> None:
    model, states = small_states("pagat")
    rep = RE.compare_effects(model, states, symbolic=symbolic)
    assert rep.differences == []
    assert rep.states == 80 and rep.actions >= 80  # not vacuous: successors were compared


def test_the_engine_agrees_with_the_model_on_full_size_rounds() -> None:
    for name in ("puremco-d9", "pagat"):
        rep = RE.game_effects(CAT.ruleset(name), 120)
        assert rep.differences == [] and rep.actions > 120


@pytest.mark.parametrize("name", ["pagat", "pagat+tie-most-outs", "pagat+positive-scoring"])
def test_match_winners_agree_under_ties(name: str) -> None:
    model, states = small_states(name, count=400)
    ends = [s for s in states if any(refusals.apply(s, a).result is not None
                                     for a in E.legal_actions(s))]
    assert ends, "no state that ends a round"
    rep = RE.compare_effects(model, ends[:20])
    assert rep.winners >= 1 and rep.differences == []


def _round_ends(name: str) -> tuple[Model, list[E.State]]:
    model, states = small_states(name, count=400)
    ends = [s for s in states if any(refusals.apply(s, a).result is not None
                                     for a in E.legal_actions(s))]
    assert ends, "no state that ends a round"
    return model, ends


@pytest.mark.parametrize("name", ["pagat", "pagat+single-round"])
def test_the_match_end_agrees(name: str) -> None:
    """MATCH-1 and MATCH-7: whether round 1's end ends the match, engine against model."""
    model, ends = _round_ends(name)
    rep = RE.compare_effects(model, ends[:20])
    assert rep.winners >= 1 and rep.differences == []


def test_a_single_round_played_on_is_reported_with_match_7(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """MATCH-7 broken: the engine's match goes on after round 1 of a single-round game."""
    model, ends = _round_ends("pagat+single-round")
    monkeypatch.setattr(E.State, "match_over", property(lambda self: False))
    rep = RE.compare_effects(model, ends[:5])
    over = [d for d in rep.differences if d.field == "match_over"]
    assert over and {d.clause for d in over} == {"MATCH-7"}
    assert all(d.engine is False and d.model is True for d in over)


def test_a_tie_rule_ignored_is_reported_with_match_5(monkeypatch: pytest.MonkeyPatch) -> None:
    """MATCH-5 broken: a tie on the best total stays shared under most-outs."""
    import mtrain.reference.deal as D

    def shared(state: E.State) -> list[int]:
        best = min(state.scores)
        return [s for s, v in enumerate(state.scores) if v == best]

    model, states = small_states("pagat+tie-most-outs", count=400)
    ends = [s for s in states if any(refusals.apply(s, a).result is not None
                                     for a in E.legal_actions(s))]
    monkeypatch.setattr(D, "match_winners", shared)
    rep = RE.compare_effects(model, ends[:5])
    winners = [d for d in rep.differences if d.field.startswith("winners")]
    assert winners and {d.clause for d in winners} == {"MATCH-5"}
    assert all(d.engine == [0, 1] and d.model in ([0], [1]) for d in winners
               if d.field.endswith("/[2, 1]") or d.field.endswith("/[1, 2]"))


def test_a_blocked_winner_scored_as_penalty_is_reported_with_score_7(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """SCORE-7 broken: the lowest hand of a blocked round scores its value; the engine
    agrees with the model before the fault."""
    model, states = small_states("pagat+blocked-winner", count=400)
    ends = [s for s in states if any(getattr(refusals.apply(s, a).result, "end", None) == E.BLOCKED
                                     for a in E.legal_actions(s))]
    assert ends, "no state that ends a round blocked"
    assert RE.compare_effects(model, ends).differences == []
    monkeypatch.setattr(E, "lowest_hands", lambda state, values: [])
    rep = RE.compare_effects(model, ends)
    scores = [d for d in rep.differences if d.field == "scores"]
    assert scores and {d.clause for d in scores} == {"SCORE-7"}


def _keep_marker(monkeypatch: pytest.MonkeyPatch) -> None:
    """MARK-3 broken: the owner's marker stays up when they play on their own train."""
    real = E._play

    def play(state: E.State, tile: int, train: int) -> None:
        up = state.marked(train) if train < state.players else False
        real(state, tile, train)
        if train < state.players:
            state.set_marker(train, up)

    monkeypatch.setattr(E, "_play", play)


def test_a_marker_left_up_is_reported_on_the_marker_with_mark_3(
        monkeypatch: pytest.MonkeyPatch) -> None:
    model, states = small_states("pagat", count=400)
    # states where the mover's own train is marked and a play on it is legal
    hit = [s for s in states if s.marked(s.seat) and any(
        a.kind == "play" and a.train == s.seat for a in E.legal_actions(s))]
    assert hit, "no state to show the fault on"
    _keep_marker(monkeypatch)
    for symbolic in (True, False):
        rep = RE.compare_effects(model, hit, symbolic=symbolic)
        assert rep.differences
        for d in rep.differences:  # the engine keeps the marker up, the model takes it off
            assert d.field.startswith("marker[") and (d.clause, d.engine, d.model) == (
                "MARK-3", True, False)
            assert d.action.startswith("play ") and d.action.endswith(f" on {d.field[7]}")


def test_a_draw_that_forgets_the_drawn_tile_is_reported_with_turn_3(
        monkeypatch: pytest.MonkeyPatch) -> None:
    model, states = small_states("puremco", count=400)
    real = E._draw

    def draw(state: E.State) -> None:
        real(state)
        state.drawn = -1

    monkeypatch.setattr(E, "_draw", draw)
    draws = [s for s in states if s.phase != E.ENGINE and E.DRAW in E.legal_actions(s)]
    assert draws
    for state in draws[:10]:
        tile = state.boneyard[0]  # what the engine draws
        rep = RE.compare_effects(model, [state])
        assert [(d.action, d.field, d.clause, d.engine, d.model) for d in rep.differences] == [
            (f"draw ({T.name(tile)})", "drawn", "TURN-3", -1, tile)]


@pytest.mark.slow
def test_a_broken_effect_fails_mtrain_check(monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """The command path: every other job stubbed, one process, the effects job real."""

    def stub(*args: Any) -> dict[str, Any]:
        return {"checks": []}

    for name in ("job_termination", "job_explore", "job_reach", "job_uncoverable",
                 "job_engine_model", "job_parametric"):
        monkeypatch.setattr(check, name, stub)
    monkeypatch.setattr(checks, "run_all", lambda: {"checks": [], "summary": {},
                                                         "queries": 0})
    monkeypatch.setattr(check, "_agreement", lambda *_: check.verdict("agreement", "pass", 0, []))

    def effects() -> tuple[int, dict[str, Any]]:
        code = cli.main(["check", "--json", "--jobs", "1"])
        out = json.loads(capsys.readouterr().out)
        return code, next(c for c in out["checks"] if c["name"] == "effects-vs-engine")

    code, check_ = effects()
    assert (code, check_["status"]) == (0, "pass")  # the shipped engine
    _keep_marker(monkeypatch)
    code, check_ = effects()
    assert code == 1 and check_["status"] == "fail"
    bad = [f for f in check_["findings"] if f["clauses"] == ["MARK-3"]]
    assert bad and all(": marker[" in f["message"] and "\n" not in f["message"] for f in bad)


def test_a_double_left_open_after_its_cover_is_reported_with_train_3(
        monkeypatch: pytest.MonkeyPatch) -> None:
    model, states = small_states("pagat", count=2000)
    covers = [(s, a) for s in states for a in E.legal_actions(s)
              if a.kind == "play" and a.train in s.open_doubles and not T.IS_DOUBLE[a.tile]]
    assert covers, "no state to show the fault on"
    real = E._play

    def play(state: E.State, tile: int, train: int) -> None:
        was_open = train in state.open_doubles
        real(state, tile, train)
        if was_open and train not in state.open_doubles:
            state.open_doubles.insert(0, train)  # TRAIN-3 broken: the cover leaves it open

    monkeypatch.setattr(E, "_play", play)
    state, action = covers[0]
    rep = RE.compare_effects(model, [state])
    label = RE.action_label(model, action)
    assert [(d.field, d.clause) for d in rep.differences if d.action == label] == [
        ("open doubles", "TRAIN-3")]


def test_a_round_end_scored_wrong_is_reported_on_the_scores_with_score_5(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """SCORE-5 broken: the engine forgets what the hands hold when a round ends (penalty
    scoring: every seat scores the tiles left in its hand)."""
    model, states = small_states("pagat", count=2000)
    ends = [(s, a) for s in states for a in E.legal_actions(s)
            if (r := refusals.apply(s, a).result) is not None and any(r.scores)]
    assert ends, "no round end to show the fault on"
    real = E._finish

    def finish(state: E.State, end: str, winner: int) -> None:
        real(state, end, winner)
        assert state.result is not None
        state.result = E.Result(state.result.end, state.result.winner,
                                tuple(0 for _ in state.result.scores))

    clean = RE.compare_effects(model, [ends[0][0]])
    assert clean.differences == [] and clean.scored > 0
    monkeypatch.setattr(E, "_finish", finish)
    rep = RE.compare_effects(model, [ends[0][0]])
    label = RE.action_label(model, ends[0][1])
    assert [(d.field, d.clause) for d in rep.differences if d.action == label] == [
        ("scores", "SCORE-5")]


def test_the_heaviest_tile_start_agrees_on_seeded_deals() -> None:
    """SEAT-6: on 200 seeded deals of every round and table size, the round model's deal
    (its own nested tests, from the lightest tile up) starts the seat the engine starts;
    the rounds then agree action by action."""
    rs = CAT.ruleset("puremco-d9+heaviest-in-hand-start")
    rules = Rules.of(rs)
    starters = set()
    for k in range(200):
        players, round_no = 2 + k % 3, 1 + k % rules.rounds
        order = shuffled_order(rules, round_no, k)
        st = deal(rules, players, round_no, order=order)
        r = dealt(rs, (players, round_no, [T.name(t) for t in order], {}))
        assert (r.s.seat, r.s.starter) == (st.seat, st.starter), (k, players, round_no)
        starters.add(st.starter == (round_no - 1) % players)
    assert starters == {True, False}  # not vacuous: the rotating seat is often not the one
    rep = RE.game_effects(rs, 120)
    assert rep.differences == [] and rep.actions > 120
