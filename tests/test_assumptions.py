"""spec/proofs/assumptions.py: spec/proofs/parametric.py's assumptions, proved on the round
model."""

from __future__ import annotations

from pathlib import Path

import pytest
import z3

from mtrain.spec.catalog import catalog
from mtrain.spec.model.round_state import Sym
from mtrain.spec.model.transitions import Model
from mtrain.spec.proofs import assumptions as A
from mtrain.spec.proofs.termination import Prover, QueryResult

CAT = catalog()
LEMMAS = ("deal", "init", "step:play", "step:draw", "step:pass", "step:end-chain", "d-bound",
          "d-mover", "d-pass")


def _lemmas(rep: A.AssumptionReport) -> dict[str, QueryResult]:
    return {q.name.split(":", 1)[1]: q for q in rep.queries}


def _answers(rep: A.AssumptionReport) -> dict[str, str]:
    return {n: q.answer for n, q in _lemmas(rep).items()}


EXPECTED = {n: "sat" if n == "deal" else "unsat" for n in LEMMAS}


def _small(name: str, players: int = 2) -> Model:
    return Model(CAT.ruleset(name), players, hand=1, max_pip=3)


def test_every_assumption_holds_on_the_shipped_models() -> None:
    reps, _ = A.run(["pagat"], ((3, 2),), Prover())
    # pagat ends a round under END-2 and chains its first turns: every lemma is asked
    assert _answers(reps[0]) == EXPECTED
    # one query per action: 10 tiles on 3 trains, 10 draws, pass, end-chain
    assert reps[0].actions == 10 * 3 + 10 + 2


@pytest.mark.slow
def test_a_shipped_set_at_full_size() -> None:
    """double-6 (28 tiles) at each of its tables, as `mtrain check --full` runs it: the
    proof is not a small-set one."""
    from mtrain.conformance.speccheck.run import _shipped_by_size, job_shipped_assumptions

    assert _shipped_by_size()[0] == "double-18" and "double-6" in _shipped_by_size()
    out = job_shipped_assumptions("double-6")
    [check] = out["checks"]
    assert check["name"] == "parametric-assumptions:double-6" and check["status"] == "pass"
    # 28 plays on 3, 4 and 5 trains, 28 draws, pass and end-chain at 2, 3 and 4 players
    assert f"each action of each model ({28 * 12 + 3 * (28 + 2):,}) a z3 query" in \
        check["findings"][0]["message"]
    queries = out["summary"]["parametric_assumptions:double-6"]
    assert {q["name"]: q["answer"] for q in queries} == {
        f"double-6@d6x{p}:{n}": a for p in (2, 3, 4) for n, a in EXPECTED.items()}


def test_under_end3_the_distance_lemmas_are_not_asked() -> None:
    rep = A.prove_assumptions(_small("pagat+passes-end-round"), "end3", Prover())
    assert set(_lemmas(rep)) == {"deal", "init", "step:play", "step:draw", "step:pass",
                                 "step:end-chain"}
    assert rep.ok


def test_a_pass_that_does_not_count_breaks_its_lemma(monkeypatch: pytest.MonkeyPatch) -> None:
    """END-3 broken in the model: a pass on an empty boneyard is not counted."""
    real = Model.pass_

    def pass_(self: Model, s: Sym, target: Sym | None = None) -> Sym:
        return real(self, s, target).replace(passes=s.passes)

    monkeypatch.setattr(Model, "pass_", pass_)
    rep = A.prove_assumptions(_small("puremco"), "puremco@d3x2", Prover())
    bad = {n: q.detail for n, q in _lemmas(rep).items() if not q.ok}
    assert bad == {"step:pass": ["B = 0 => passes' = passes + 1 (pass)"]}


@pytest.mark.slow  # ~0.35 CPU s; a step lemma broken, in the fast loop: the pass's above
def test_a_draw_that_lays_the_tile_breaks_its_lemma(monkeypatch: pytest.MonkeyPatch) -> None:
    """TURN-2 broken: the drawn tile goes to the table, not to the drawer's hand."""
    real = Model.draw

    def draw(self: Model, s: Sym, t: int) -> Sym:
        out = real(self, s, t)
        loc = list(out.loc)
        loc[t] = self.P + 1
        return out.replace(loc=loc)

    monkeypatch.setattr(Model, "draw", draw)
    rep = A.prove_assumptions(_small("pagat"), "pagat@d3x2", Prover())
    draw_q = _lemmas(rep)["step:draw"]
    assert draw_q.answer == "sat"
    broken = [d.split(" (")[0] for d in draw_q.detail]
    assert "H' = H + 1" in broken and "B' = B - 1" not in broken
    assert any("draw 0-0" in d for d in draw_q.detail)  # the actions are named


@pytest.mark.slow  # ~0.35 CPU s; a broken lemma found: the fast loop's pass, d-bound, d-mover
def test_turn_doubles_kept_after_the_turn_break_the_sliced_invariant(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """DBL-1 broken: the end of a turn forgets to clear the doubles laid in it."""
    real = Model.end_turn

    def end_turn(self: Model, s: Sym, target: Sym | None = None) -> Sym:
        return real(self, s, target).replace(tdbl=list(s.tdbl))

    monkeypatch.setattr(Model, "end_turn", end_turn)
    rep = A.prove_assumptions(_small("pagat"), "pagat@d3x2", Prover())
    play = _lemmas(rep)["step:play"]
    assert play.answer == "sat"
    assert any(d.startswith("turn doubles only mid-turn") for d in play.detail)


@pytest.mark.slow
def test_a_pass_that_leaves_the_marker_down_breaks_d_pass(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """MARK-1 broken: after a pass the next turn is not one nearer the next play."""
    real = Model.pass_

    def pass_(self: Model, s: Sym, target: Sym | None = None) -> Sym:
        return real(self, s, target).replace(marker=list(s.marker))

    monkeypatch.setattr(Model, "pass_", pass_)
    rep = A.prove_assumptions(_small("pagat", 3), "pagat@d3x3", Prover())
    lemmas = _lemmas(rep)
    assert lemmas["d-pass"].answer == "sat"
    assert lemmas["d-pass"].detail[0].startswith("d' = d - 1 (seat ")
    assert lemmas["step:pass"].ok  # the counts do not read markers


def test_a_blocked_test_that_never_blocks_breaks_d_bound(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """END-2 broken: the round goes on although nobody can ever play again."""
    monkeypatch.setattr(Model, "blocked", lambda self, s: z3.BoolVal(False))
    rep = A.prove_assumptions(_small("pagat"), "pagat@d3x2", Prover())
    bound = _lemmas(rep)["d-bound"]
    assert bound.answer == "sat" and bound.detail == ["d < 2P (any seat)"]


def test_the_start_tests_are_abstracted_only_where_asked() -> None:
    """`abstracted` turns each distinct start-of-turn test into one free Boolean."""
    model = _small("pagat")
    s = model.state("s")
    a = model.can_play_start(model.view(s), 0)
    b = model.can_play_start(model.after_passes(model.view(s), []), 0)
    assert a.eq(b)  # the same fields give the very same term
    out, kept = A.abstracted(model, [z3.And(a, b)]), A.abstracted(model, [a], keep=[a])
    assert z3.is_and(out[0]) and all(z3.is_const(x) for x in out[0].children())
    assert kept[0].eq(a)


def test_full_check_plans_one_job_per_shipped_rule_set_printed_after_the_proofs() -> None:
    from mtrain.conformance.speccheck import run as check
    from mtrain.reference.explore import shipped_names
    from mtrain.spec.model.alike import distinct_in_play

    quick, quick_order = check.plan_jobs(False, None)
    assert all(fn is not check.job_shipped_assumptions for fn, _ in quick)
    plan, order = check.plan_jobs(True, None)
    shipped = [args[0] for fn, args in plan if fn is check.job_shipped_assumptions]
    # one per distinct game: puremco-d9 on double-15 plays puremco's on double-15
    assert sorted(shipped) == sorted(n for n, _ in distinct_in_play(shipped_names(), sized=True))
    assert "puremco-d9+double-15" in shipped_names() and "puremco-d9+double-15" not in shipped
    assert shipped[0] == "double-18"
    assert {"pagat", "puremco", "puremco-d9", "pagat+double-15", "double-6"} <= set(shipped)
    assert sorted(order) == list(range(len(plan)))  # every job printed once
    printed = [plan[i][0] for i in order]
    at = printed.index(check.job_parametric)
    assert printed[at + 1:at + 1 + len(shipped)] == [check.job_shipped_assumptions] * len(
        shipped)
    assert [f for f in printed if f is not check.job_shipped_assumptions] == [
        quick[i][0] for i in quick_order]


def test_a_mover_said_never_to_play_breaks_d_mover(monkeypatch: pytest.MonkeyPatch) -> None:
    """TURN-1 read wrongly: no play is ever legal, although the mover's tiles fit."""
    monkeypatch.setattr(Model, "found", lambda self, s: z3.BoolVal(False))
    rep = A.prove_assumptions(_small("pagat"), "pagat@d3x2", Prover())
    mover = _lemmas(rep)["d-mover"]
    assert mover.answer == "sat" and mover.detail[0].startswith("d >= 1 (seat ")


def test_a_model_without_deals_fails_instead_of_proving_everything(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A deal no state meets: every unsat would be empty, so the run must fail."""
    real = Model.init
    monkeypatch.setattr(Model, "init", lambda self, s, tag="deal": z3.And(
        real(self, s, tag), s.passes == 1))
    rep = A.prove_assumptions(_small("pagat"), "pagat@d3x2", Prover())
    answers = _answers(rep)
    assert answers["deal"] == "unsat" and answers["init"] == "unsat" and not rep.ok


@pytest.mark.slow
def test_full_check_proves_a_rules_file_of_ones_own(tmp_path: Path) -> None:
    """A rule writer's file given with --rules gets its own job under --full, and the job
    reads the file: its set and its table (one row, which no shipped table has alone: a
    third of the proof of docs/examples/double-6.yaml's three rows, double-6 at full size
    being test_a_shipped_set_at_full_size's)."""
    from mtrain.conformance.speccheck import run as check

    path = str(tmp_path / "pairs-6.yaml")
    Path(path).write_text("name: pairs-6\nbase: pagat\noptions:\n  tile_set: double-6\n"
                          "  hand_sizes: {2: 8}\n", encoding="utf-8")
    plan, _ = check.plan_jobs(True, None, rules_files=[path])
    assert (check.job_shipped_assumptions, (path,)) in plan
    [result] = check.job_shipped_assumptions(path)["checks"]
    assert result["name"] == f"parametric-assumptions:{path}" and result["status"] == "pass"
    assert "on double-6, 2 players" in result["findings"][0]["message"]


def test_a_file_with_rules_of_its_own_is_not_proved(tmp_path: Path) -> None:
    """The round model reads named values only (`Model.is_`: an `other` is none of them), so
    `mtrain check --full --rules FILE` on a file with a rule of its own said its proof held
    of a rule the file never states: it now says what it did not check, and why."""
    from mtrain.conformance.speccheck.run import job_shipped_assumptions

    path = tmp_path / "own.yaml"
    path.write_text("name: own\nbase: pagat\noptions:\n  tie_rule: other\n"
                    "  engine_procedure: other\n", encoding="utf-8")
    out = job_shipped_assumptions(str(path))
    [check] = out["checks"]
    assert check["status"] == "info"
    [what] = check["findings"]
    assert what["message"].startswith(f"not checked: {path} plays rules of its own")
    assert "engine_procedure" in what["message"] and "tie_rule" in what["message"]
    assert out["summary"] == {f"parametric_assumptions:{path}": []}
