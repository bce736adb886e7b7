"""spec/assumptions.py: spec/parametric.py's assumptions, proved on the round model."""

from __future__ import annotations

import pytest

from mtrain.reference.explore import small_rules
from mtrain.spec import assumptions as A
from mtrain.spec.catalog import catalog
from mtrain.spec.roundmodel import Model, Sym
from mtrain.spec.termination import Prover

CAT = catalog()


def test_every_assumption_holds_on_the_shipped_models() -> None:
    reps, _ = A.run(["pagat"], ((3, 2),), Prover())
    names = {q.name.split(":", 1)[1]: q.answer for r in reps for q in r.queries}
    # pagat ends a round under END-2 and chains its first turns: every lemma is asked
    assert names == {n: "unsat" for n in (
        "effect:play", "effect:draw", "effect:pass", "effect:end-chain", "d-pass",
        "d-mover", "passes", "chain", "engine-phase")}


def test_a_pass_that_does_not_count_breaks_its_lemma(monkeypatch: pytest.MonkeyPatch) -> None:
    """END-3 broken in the model: a pass on an empty boneyard is not counted."""
    real = Model.pass_

    def pass_(self: Model, s: Sym, target: Sym | None = None) -> Sym:
        out = real(self, s, target)
        return out.replace(passes=s.passes)

    monkeypatch.setattr(Model, "pass_", pass_)
    model = Model(small_rules(CAT.ruleset("puremco"), 3, {2: 1}), 2)
    rep = A.prove_assumptions(model, "puremco@d3x2", Prover())
    bad = {q.name.split(":", 1)[1]: q.detail for q in rep.queries if not q.ok}
    assert bad == {"effect:pass": ["B = 0 => passes' = passes + 1"]}


def test_a_draw_that_lays_the_tile_breaks_its_lemma(monkeypatch: pytest.MonkeyPatch) -> None:
    """TURN-2 broken: the drawn tile goes to the table, not to the drawer's hand."""
    real = Model.draw

    def draw(self: Model, s: Sym, t: int) -> Sym:
        out = real(self, s, t)
        loc = list(out.loc)
        loc[t] = self.P + 1
        return out.replace(loc=loc)

    monkeypatch.setattr(Model, "draw", draw)
    model = Model(small_rules(CAT.ruleset("pagat"), 3, {2: 1}), 2)
    rep = A.prove_assumptions(model, "pagat@d3x2", Prover())
    draw_q = next(q for q in rep.queries if q.name.endswith(":effect:draw"))
    assert draw_q.answer == "sat" and "H' = H + 1" in draw_q.detail
    assert "B' = B - 1" not in draw_q.detail
