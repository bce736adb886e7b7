"""Faults injected into a copy of spec/data make `mtrain check` fail, naming the culprits.

Each test copies the shipped data, edits one thing (as a spec writer's slip would), points
the loader at the copy (MTRAIN_SPEC_DATA) and runs the check of the option space that
reports the slip (the family: `job_options(only=...)`, each check as it runs in
`mtrain check --only options`), which must fail and name it. The unedited copy passes
every check (test_the_shipped_spec_passes), so the failure is the edit's. What each must
name is read from the edit itself.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from mtrain import cli
from mtrain.conformance.crosscheck import invariant_texts as invariantcheck
from mtrain.conformance.crosscheck.witnesses import ReachReport, Witness
from mtrain.conformance.speccheck import run as check
from mtrain.spec.catalog import Catalog
from mtrain.spec.data_folder import DATA_ENV
from mtrain.spec.optionspace import grid as optiongrid

DATA = Path(__file__).resolve().parents[1] / "spec" / "data"


@pytest.fixture()
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    copy = tmp_path / "data"
    shutil.copytree(DATA, copy)
    monkeypatch.setenv(DATA_ENV, str(copy))
    return copy


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} is not once in {path.name}"
    path.write_text(text.replace(old, new), encoding="utf-8")


def clause_block(data: Path, cid: str) -> tuple[str, str]:
    """The text of one clause in clauses.yaml (from its `- id:` line to the next)."""
    text = (data / "clauses.yaml").read_text(encoding="utf-8")
    m = re.search(rf"(?ms)^- id: {cid}\n.*?(?=^- id: |\Z)", text)
    assert m is not None
    return text, m.group(0)


def run_check(*families: str) -> tuple[set[str], list[dict[str, Any]]]:
    """These checks alone, in process: the names of those that fail, and their findings."""
    out = check.job_options(only=families)
    assert sorted(c["name"] for c in out["checks"]) == sorted(families)
    failed = [c for c in out["checks"] if c["status"] == "fail"]
    return {c["name"] for c in failed}, [{"check": c["name"], **f} for c in failed
                                          for f in c["findings"]]


def named(failures: list[dict[str, Any]], *words: str) -> list[dict[str, Any]]:
    """The failing findings whose message or clauses mention every word."""
    return [f for f in failures
            if all(w in f["message"] or w in f["clauses"] for w in words)]


@pytest.fixture(scope="module")
def shipped(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, dict[str, Any]]:
    """The option-space check of an unedited copy (with a rule-set file, so that every
    check of the option space runs), once for the tests that read it: its exit code and
    its JSON."""
    copy = tmp_path_factory.mktemp("shipped") / "data"
    shutil.copytree(DATA, copy)
    out = io.StringIO()
    with pytest.MonkeyPatch.context() as mp, contextlib.redirect_stdout(out):
        mp.setenv(DATA_ENV, str(copy))
        code = cli.main(["check", "--only", "options", "--json", "--rules",
                         str(copy / "variants" / "pagat.yaml")])
    return code, json.loads(out.getvalue())


@pytest.mark.slow
def test_the_shipped_spec_passes(shipped: tuple[int, dict[str, Any]]) -> None:
    code, out = shipped
    failures = [{"check": c["name"], **f} for c in out["checks"] if c["status"] == "fail"
                for f in c["findings"]]
    assert (code, failures) == (0, [])
    assert "rules-files" in {c["name"] for c in out["checks"]}


@pytest.mark.slow
def test_clauses_requiring_each_others_opposite(data: Path) -> None:
    """DBL-4 (the layer covers) needs draw-until-playable, TURN-5 (draw until playable)
    needs another follow-up: the Wikipedia rule becomes unusable with open doubles."""
    dbl4 = "  when: {doubles: [open], follow_up: [cover-own]}\n"
    edit(data / "clauses.yaml", dbl4, dbl4 + "  requires: {draw_rule: [draw-until-playable]}\n")
    edit(data / "clauses.yaml", "  when: {draw_rule: [draw-until-playable]}\n",
         "  when: {draw_rule: [draw-until-playable]}\n"
         "  requires: {follow_up: [anywhere, restricted]}\n")
    # the families that name a dead clause, a refused overlay or a dead value, and every
    # one that compares z3 with the enumeration
    failed, failures = run_check("overlay-combinations", "values", "clause-usage",
                                 "model-count")
    assert failed == {"clause-usage", "overlay-combinations"}
    # DBL-4 can never apply; follow_up=cover-own lives on under ordinary doubles (DBL-11),
    # where nothing is covered, so it is not a dead value
    assert {f["check"] for f in named(failures, "dead clause DBL-4", "TURN-5")} == {
        "clause-usage"}
    assert not named(failures, "dead value")
    # the overlay, alone on each variant (the larger combinations are counted there)
    refused = named(failures, "wikipedia-doubles", "DBL-4")
    assert {f["check"] for f in refused} == {"overlay-combinations"}
    assert {f["message"].split(" ")[0] for f in refused} == {
        "pagat+wikipedia-doubles", "puremco+wikipedia-doubles", "puremco-d9+wikipedia-doubles"}
    assert not named(failures, "DISAGREEMENT")  # z3 and the enumeration find the same


def add_dead_clause(data: Path) -> None:
    """puremco-d9's hand sizes on a double-12 set: DEAL-4 forbids it."""
    text, block = clause_block(data, "DEAL-4")
    (data / "clauses.yaml").write_text(text.replace(block, block + (
        "- id: DEAL-99\n  title: Short hands on the big set\n  sources: [puremco]\n"
        "  when: {hand_sizes: [puremco-d9], tile_set: [double-12]}\n"
        "  text: A condition no valid rule set meets.\n\n")), encoding="utf-8")


def test_a_clause_whose_condition_never_holds_is_dead(data: Path) -> None:
    """The search itself, on the edited catalogue (the command below runs it with the rest
    of the option-space check, in the slow loop)."""
    add_dead_clause(data)
    found = optiongrid.Grid(Catalog(data)).dead_clauses()
    assert [f.message.split(":")[0] for f in found] == ["dead clause DEAL-99"]
    assert "DEAL-4" in found[0].clauses


@pytest.mark.slow
def test_a_clause_whose_condition_never_holds(data: Path) -> None:
    add_dead_clause(data)
    failed, failures = run_check("clause-usage")
    assert failed == {"clause-usage"}
    assert named(failures, "dead clause DEAL-99", "DEAL-4")


@pytest.mark.slow
def test_an_option_value_without_a_clause(data: Path) -> None:
    edit(data / "options.yaml", "    cover-own:\n",
         "    nearest:\n      source: [puremco]\n      text: On the nearest train.\n"
         "    cover-own:\n")
    failed, failures = run_check("value-meaning")
    assert failed == {"value-meaning"}
    assert named(failures, "follow_up=nearest", "no clause")


@pytest.mark.slow
def test_dbl9_and_dbl10_swapped(data: Path) -> None:
    """The two clauses attached to each other's value: puremco's release now sits under
    stays-open, the seed's wording under the wrong value."""
    text = (data / "clauses.yaml").read_text(encoding="utf-8")
    a = "when: {doubles: [open], uncoverable_double: [released]}"
    b = "when: {doubles: [open], uncoverable_double: [stays-open]}"
    assert text.count(a) == text.count(b) == 1
    text = text.replace(a, "@@").replace(b, a).replace("@@", b)
    (data / "clauses.yaml").write_text(text, encoding="utf-8")
    failed, failures = run_check("sources")
    assert failed == {"sources"}
    assert named(failures, "DBL-9", "puremco", "uncoverable_double=released")


@pytest.mark.slow
def test_puremco_switched_to_stays_open(data: Path) -> None:
    edit(data / "variants" / "puremco.yaml", "uncoverable_double: released",
         "uncoverable_double: stays-open")
    failed, failures = run_check("sources")
    assert failed == {"sources"}
    # puremco-d9 inherits it: both variants are named, with the clause that says otherwise
    for variant in ("variant puremco ", "variant puremco-d9 "):
        assert named(failures, variant, "uncoverable_double=stays-open", "DBL-9")


@pytest.mark.slow
def test_an_undeclared_refusal_fails(data: Path) -> None:
    edit(data / "clauses.yaml", "    - overlays: [cardinal-hands]\n      bases: [puremco-d9]\n"
         "      reason: Cardinal's table deals 4 players 15 tiles each, 60 of a double-9 "
         "set's 55.\n", "")
    failed, failures = run_check("overlay-combinations")
    assert failed == {"overlay-combinations"}
    assert named(failures, "puremco-d9+cardinal-hands ", "DEAL-8")
    assert not named(failures, "puremco-d9+fundex-hands ")  # still declared


@pytest.mark.slow
def test_a_refusal_that_refuses_nothing_fails(data: Path) -> None:
    edit(data / "clauses.yaml", "      bases: [pagat]\n", "      bases: [puremco]\n")
    failed, failures = run_check("overlay-combinations")
    assert failed == {"overlay-combinations"}
    assert named(failures, "refuses starter-opens-mexican on puremco", "FIRST-9")
    # and the pagat combinations it no longer covers are undeclared
    assert named(failures, "pagat+starter-opens-mexican ", "FIRST-9")


@pytest.mark.slow
def test_a_contradictory_rules_file_fails(tmp_path: Path) -> None:
    """The rules-files check alone (the command's own part, refusing a file before any
    check and exiting 1 on a failed one: tests/test_check.py)."""
    bad, good = tmp_path / "bad.yaml", tmp_path / "good.yaml"
    # SEAT-2: the engine's holder starts only when the holder lays the engine
    bad.write_text("base: puremco\noptions:\n  starting_seat: engine-holder\n",
                   encoding="utf-8")
    good.write_text("base: puremco\noptions:\n  tie_rule: most-outs\n", encoding="utf-8")
    out = check.job_options((), (str(bad), str(good)), only=("rules-files",))
    [rules] = out["checks"]
    assert rules["name"] == "rules-files"
    assert rules["status"] == "fail"
    assert [f["clauses"] for f in rules["findings"]] == [["SEAT-2"], []]
    assert rules["findings"][0]["message"].startswith(f"{bad}:3:")


def test_expected_dead_needs_a_reason(data: Path) -> None:
    edit(data / "clauses.yaml", "  expected_dead: >-\n", "  expected_dead: ''\n  was: >-\n")
    marks, bad = optiongrid.expected_dead(Catalog(data))
    assert "TURN-3" not in marks and len(bad) == 1 and bad[0].clauses == ("TURN-3",)


@pytest.mark.parametrize(("witnesses", "status"), [
    ([Witness("TURN-3", "pagat", "dead", "proof")], "info"),
    ([Witness("TURN-4", "pagat", "dead", "proof")], "fail"),
    ([Witness("TURN-3", "pagat", "play", "a round")], "fail"),
])
def test_reachability_fails_on_an_unexpected_or_undead_clause(
        monkeypatch: pytest.MonkeyPatch, witnesses: list[Witness], status: str) -> None:
    """The verdict alone: the search is stubbed."""
    from mtrain.conformance.crosscheck import witnesses as reachability

    monkeypatch.setattr(reachability, "search",
                        lambda **_: ReachReport(witnesses=list(witnesses)))
    reach = check.job_reach(False, None)["checks"][0]
    assert reach["status"] == status, reach["findings"]


@pytest.mark.slow
def test_an_invariant_without_a_check(data: Path) -> None:
    path = data / "invariants.yaml"
    path.write_text(path.read_text(encoding="utf-8") + (
        "- id: INV-SEATS\n  title: Seats\n  text: Every seat holds a hand.\n"), encoding="utf-8")
    failed, failures = run_check("invariants")
    assert failed == {"invariants"}
    assert named(failures, "INV-SEATS has no check")
    # no check and no example: both name it, and nothing else is blamed
    assert {tuple(f["clauses"]) for f in failures
            if f["check"] == "invariants" and f["clauses"]} == {("INV-SEATS",)}


def test_an_example_flagged_by_the_wrong_invariant(data: Path) -> None:
    """INV-TURN's example breaks the open doubles instead: the two disagree."""
    edit(data / "invariants.yaml", "    set: {seat: 2}\n", "    set: {open_doubles: [0]}\n")
    bad, passed = invariantcheck.check_invariants(Catalog(data))
    assert [f.clauses for f in bad] == [("INV-OPEN-DOUBLES", "INV-TURN")]
    assert "INV-TURN" not in passed and "INV-OPEN-DOUBLES" in passed


def test_a_check_that_tests_something_else(data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """INV-MARKERS checked on the wrong train: its example goes unflagged."""
    from mtrain.reference import invariants

    def first_train(state: Any) -> list[tuple[str, str]]:
        return [("INV-MARKERS", "marked")] if state.marked(0) else []

    monkeypatch.setitem(invariants.CHECKS, "INV-MARKERS", first_train)
    monkeypatch.setattr(invariants, "_REST", tuple(
        c for i, c in invariants.CHECKS.items() if i not in invariants.IMPLIED))
    bad, _ = invariantcheck.check_invariants(Catalog(data))
    assert [f.clauses for f in bad] == [("INV-MARKERS",)]
    assert "flagged by nothing, not INV-MARKERS" in bad[0].message


@pytest.mark.slow
def test_every_check_says_what_it_covers(shipped: tuple[int, dict[str, Any]]) -> None:
    """docs/consistency.md prints conformance/speccheck/claims.py: no check goes undescribed."""
    from mtrain.conformance.speccheck.claims import rows

    ran = {c["name"] for c in shipped[1]["checks"]}
    described = {n.strip() for row in rows() for n in row[0].split(",")}
    engine_side = {"small-games", "termination", "deadlock", "model-vs-engine",
                   "effects-vs-engine",
                   "reachability", "uncoverable-double", "agreement"}
    assert ran | engine_side <= described, (ran | engine_side) - described
