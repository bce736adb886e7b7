"""Session 53 (fuzz53b): what a finding cites, and blame's ties.

- A reproducer, and a conform result, cite only clauses in force under the rules they were
  judged by. Under a rule played its own way (`other`) the reference plays a stand-in
  value, and fuzz named its clauses from the stand-in's rules: tramway's bug 3
  (tests/examples/tramway_engine.py, `blank_values: other`) had its reproducer list
  SCORE-1 (face values), not in force under tramway's rules (spec/data/clauses.yaml).
- `mtrain mutants --blame`: clauses charged equally often at the top were ranked by
  `Counter.most_common` in the order first met, the corpus's order, so a fixture added
  anywhere could flip a mutant's charge (mut-s53: MATCH-4 39 against MATCH-2 39).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from mtrain.cli import main
from mtrain.conformance.attribution import stand_in_charges
from mtrain.conformance.fuzz.judge import Disagreement, Probe
from mtrain.conformance.fuzz.named_clauses import action_clauses
from mtrain.conformance.fuzz.reproducer import cited, reproducer
from mtrain.conformance.fuzz.results import Occurrence
from mtrain.conformance.fuzz.rulesets import Context, context, declared_context
from mtrain.conformance.mutants.blame import Blame
from mtrain.reference import codec
from mtrain.spec.catalog import catalog
from mtrain.spec.notation import table_state

TRAMWAY_RULES = Path(__file__).parent / "examples" / "tramway-rules.yaml"
MATCH_FIXTURES = Path(__file__).parent.parent / "conformance" / "fixtures" / "match" / "match.yaml"

GONE_OUT_ON_A_DOUBLE = {"engine": 12, "seat": 1, "starter": 0,
                        "hands": {0: ["5-3"], 1: ["4-4"]}, "trains": {1: ["12-4"]}}
"""The table tramway's bug 3 shrank to (fuzz seed 1, `--box 12 --bug 3`): seat 1 goes out
by laying [4-4] on its train; the round scores [8, 0], the engine [8, 8] (the double
scored against the player who went out)."""
OUT = "play 4-4 on 1"
RESULT = {"result": {"end": "domino", "winner": 1, "scores": [8, 0]}, "state": {"scores": [8, 0]}}


def _tramway() -> Context:
    return declared_context(catalog().rules_file(str(TRAMWAY_RULES)))


def test_a_reproducer_under_blank_values_of_its_own_lists_no_face_values() -> None:
    ctx = _tramway()
    assert ctx.declared["blank_values"] == "other" and "blank_values" in ctx.unknown
    cur = table_state(GONE_OUT_ON_A_DOUBLE, ctx.rs)
    st = codec.state_from_json(ctx.rules, cur)
    # fuzz's naming reads the rules the reference plays: the stand-in's face values too
    named = tuple(action_clauses(ctx, st, OUT, RESULT))
    assert "SCORE-1" in named and "SCORE-5" in named
    d = Disagreement("round end: INV-ROUND-SCORE", (
        "the returned state breaks: INV-ROUND-SCORE: a round gone out: round scores "
        "[8, 8], the hands left give [8, 0]",), RESULT, (OUT,), named)
    probe = Probe("apply", ctx.name, GONE_OUT_ON_A_DOUBLE, action=OUT)
    fx = reproducer(Occurrence(probe, d, 7, 1, 78, 2), probe, d, "tramway", 1,
                    "fuzz-tramway-1-001")
    clauses = catalog().clauses
    assert "SCORE-1" not in fx["clauses"] and "SCORE-5" in fx["clauses"]
    assert all(clauses[c].applies(ctx.declared) for c in fx["clauses"]), fx["clauses"]
    assert "Not listed: SCORE-1 (of the reference's stand-in for blank_values" in fx["note"]


def test_a_deciding_clause_of_the_stand_in_is_said_to_be_a_rule_of_its_own() -> None:
    kept, said = cited(_tramway(), ("SCORE-1", "SCORE-5"))
    assert kept == ["SCORE-5"]
    assert "The clause that decides it, SCORE-1, is not one of its rules: its own " \
           "blank_values rule decides it, judged here as the stand-in's SCORE-1." in said
    # every clause the stand-in's: listed still (a fixture names what it exercises), said
    kept, said = cited(_tramway(), ("SCORE-1",))
    assert kept == ["SCORE-1"] and said.startswith("Listed though: SCORE-1")


def test_under_rules_that_have_the_clause_it_is_cited_unremarked() -> None:
    named = ("SCORE-5", "SCORE-1")
    assert context("pagat").rs["blank_values"] == "face"
    assert cited(context("pagat"), named) == (list(named), "")


def test_a_conform_charge_to_a_stand_in_clause_says_the_rule_is_its_own() -> None:
    ctx = _tramway()  # blank_values and tie_rule its own, face values and shared ties sent
    said = stand_in_charges(["SCORE-1", "SCORE-5"], tuple(ctx.unknown), ctx.rs)
    assert said == ["charged SCORE-1, a clause of the reference's stand-in for blank_values, "
                    "not of these rules, which play it their own way (`other`): their own "
                    "rule decides here, judged as SCORE-1"]
    # in force under neither (the outs' MATCH-5, charged under every tie rule): no stand-in's
    assert stand_in_charges(["MATCH-5"], tuple(ctx.unknown), ctx.rs) == []
    assert stand_in_charges(["SCORE-1"], ("tie_rule",), ctx.rs) == []


def test_a_clause_in_force_under_neither_rule_set_is_not_called_the_stand_ins() -> None:
    ctx = _tramway()
    assert ctx.rs["tie_rule"] == "shared"  # MATCH-5 is most-outs' tie-break
    assert cited(ctx, ("TRAIN-2", "MATCH-5")) == (["TRAIN-2", "MATCH-5"], "")


def test_a_tie_at_the_top_of_blame_is_the_same_whatever_order_the_corpus_met_it_in() -> None:
    one = Blame("m", ("MATCH-4",), Counter({"MATCH-2": 39, "MATCH-4": 39, "TURN-1": 2}), 80)
    other = Blame("m", ("MATCH-4",), Counter({"MATCH-4": 39, "MATCH-2": 39, "TURN-1": 2}), 80)
    # a tie holding the broken clause counts, whichever came first (Blame.right says why)
    assert one.right and other.right
    for b in (one, other):
        assert b.tied and b.tops == ("MATCH-2", "MATCH-4") and b.top == "MATCH-2"
    assert one.ranked == other.ranked == [("MATCH-2", 39), ("MATCH-4", 39), ("TURN-1", 2)]
    # a tie without the broken clause, and a clear top that is not it, are wrong
    assert not Blame("m", ("SCORE-5",), one.charged, 80).right
    clear = Blame("m", ("MATCH-4",), Counter({"MATCH-2": 40, "MATCH-4": 39}), 79)
    assert not clear.tied and clear.tops == ("MATCH-2",) and not clear.right
    assert Blame("m", ("MATCH-4",), Counter(), 0).tops == () and Blame(
        "m", ("MATCH-4",), Counter(), 0).top is None


def test_blame_prints_a_tie_at_the_top_as_a_tie(monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    from mtrain.conformance.mutants import blame as module

    tied = Blame("m", ("MATCH-4",), Counter({"MATCH-4": 39, "MATCH-2": 39}), 78)
    monkeypatch.setattr(module, "blame", lambda fixtures, names: [tied])
    assert main(["mutants", str(MATCH_FIXTURES), "--blame"]) == 0
    out = capsys.readouterr().out
    assert ("RIGHT m (breaks MATCH-4): 78 failures, charged MATCH-2 39, MATCH-4 39 (tied at "
            "the top: MATCH-2, MATCH-4)\n") in out
    assert "1 of 1 mutants: the clause charged most is one they break (1 of them in a tie " \
           "at the top)" in out
