"""spec/proofs/parametric.py: termination and deadlock freedom for symbolic sizes; cheap."""

from __future__ import annotations

from typing import Any

import pytest

from mtrain.conformance.crosscheck.legal_sets import compare_ruleset
from mtrain.reference import engine as E
from mtrain.spec.catalog import catalog
from mtrain.spec.model import legality as L
from mtrain.spec.proofs import parametric

CAT = catalog()


def test_every_parametric_query_answers_as_expected() -> None:
    proofs = {p.name: p for p in parametric.parametric_proofs()}
    assert all(p.ok for p in proofs.values()), [p for p in proofs.values() if not p.ok]
    assert {"deadlock", "ranking:play", "ranking:draw", "ranking:pass", "ranking:end-chain",
            "ranking:bounded", "lemma:chain-cover:4p"} <= set(proofs)
    assert all(proofs[f"enabled:{k}"].answer == "sat"
               for k in ("play", "draw", "pass", "end-chain"))


def test_a_pass_refused_on_an_empty_boneyard_is_a_deadlock(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """TURN-4 dropped from the model: with the boneyard empty and no play, nothing is
    legal, and the parametric deadlock query finds it."""
    orig = L.turn_actions

    def mutant(v: L.View, o: L.Opts, any_play: Any, must_cover: Any) -> Any:
        draw, pass_, end_chain = orig(v, o, any_play, must_cover)
        return draw, L.And(pass_, L.Not(v.bone_empty)), end_chain

    monkeypatch.setattr(L, "turn_actions", mutant)
    proofs = {p.name: p for p in parametric.parametric_proofs()}
    assert proofs["deadlock"].answer == "sat"


def _state(**kw: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "phase": "start", "seat": 0, "starter": 0, "hands": [["5-3", "12-4"], ["6-6"]],
        "boneyard": [], "trains": [{"tiles": ["12-7"], "end": 7, "marker": False},
                                   {"tiles": ["12-5"], "end": 5, "marker": False}],
        "mexican": {"tiles": [], "end": 12}, "open_doubles": [], "turn_doubles": [],
        "drawn": None, "first_turns": [], "passes": 0}
    base.update(kw)
    return base


def test_rank_of_a_hand_written_table() -> None:
    """Empty boneyard, 3 tiles in hands, no first turns: (3, 0, turns until a play). Seat 0
    plays now (12-4 on the Mexican Train): 0. Seat 1 cannot; after its pass seat 0 can: 1."""
    pagat = dict(CAT.ruleset("pagat").items())
    assert parametric.rank_of(_state(), pagat) == (3, 0, 0)
    assert parametric.rank_of(_state(seat=1), pagat) == (3, 0, 1)
    assert parametric.rank_of(_state(boneyard=["1-0"], drawn="5-3"), pagat) == (5, 0, 4)


def test_a_round_that_never_blocks_breaks_the_rank(monkeypatch: pytest.MonkeyPatch) -> None:
    """END-2 mutated to never end a round: passes go on with nobody able to play, the rank
    stops falling, and the comparison names END-2."""
    monkeypatch.setattr(E, "nobody_can_ever_play", lambda state: False)
    rep = compare_ruleset("puremco-d9", CAT.ruleset("puremco-d9"), 400)
    assert rep.differences and {d.clause for d in rep.differences} == {"END-2"}
    assert any("the rank goes from" in d.what for d in rep.differences)
