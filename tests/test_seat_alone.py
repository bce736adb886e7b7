"""A deal's first seat still runs under an engine procedure of one's own (issue 21):
roundhouse (tests/examples/roundhouse_engine.py) rotates the start over four seats, and
every deal entry was not applicable under its `engine_procedure: other`, so conform and
fuzz never saw it. Under a rotating start the seat is SEAT-3's whatever the procedure."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from mtrain.cli import main
from mtrain.conformance.fixture import load_corpus, load_file
from mtrain.conformance.partition import applies
from mtrain.conformance.seat_alone import seat_entry, whole_pool
from mtrain.spec.catalog import catalog
from mtrain.spec.ruleset import Ruleset
from mtrain.spec.scope import Space

EXAMPLES = Path(__file__).parent / "examples"
ENGINE = f"{sys.executable} {EXAMPLES / 'roundhouse_engine.py'}"


def _own(procedure_other: bool, seat: str) -> Ruleset:
    rules = catalog().ruleset("pagat")
    values = dict(rules.choices)
    values.update(starting_seat=seat, engine_procedure="other" if procedure_other
                  else "set-aside")
    return Ruleset("own", tuple(values.items()), rules.hand_table)


def test_a_rotating_start_is_checked_alone_under_a_procedure_of_its_own() -> None:
    fx = next(f for f in load_corpus()[0] if f.id == "seat-004")
    space = Space(catalog())
    exp = next(e for e in fx.expect if "pagat+engine-aside" in e.variants)
    cut = seat_entry(exp, fx, _own(True, "rotate"), space)
    assert cut is not None
    assert cut.state == {"seat": 6, "starter": 6}  # the hands stay the rule's own
    assert cut.legal is None and cut.result is ...
    # the holder starting depends on where the engine goes: not cut down
    holder = next(e for e in fx.expect if e.variants == ("pagat",))
    assert seat_entry(holder, fx, _own(True, "engine-holder"), space) is None
    # a known procedure: nothing to cut (the entry runs whole, or not at all)
    assert seat_entry(exp, fx, _own(False, "rotate"), space) is None


def test_a_wrong_rotation_is_found_under_an_engine_procedure_of_its_own(
        tmp_path: Path) -> None:
    rules = EXAMPLES / "roundhouse-rules.yaml"
    statuses = {}
    for name, fixed in (("bugs", []), ("fixed", ["--fixed", "1,2,3"])):
        out = tmp_path / f"{name}.json"
        main(["conform", "--impl", " ".join([ENGINE, *fixed]), "--rules", str(rules),
              "-k", "seat-004", "--situations", "0", "--format", "json",
              "--output", str(out)])
        results = json.loads(out.read_text())["results"]
        statuses[name] = next(r for r in results if r["fixture"] == "seat-004")
    assert statuses["bugs"]["status"] == "fail", statuses["bugs"]
    assert statuses["bugs"]["charged"] == ["SEAT-3"]
    assert statuses["fixed"]["status"] == "pass", statuses["fixed"]


def test_fuzz_judges_the_first_seat_under_an_engine_procedure_of_its_own(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """fuzz set every roundhouse deal aside as its own procedure's: bug 1 alone (the
    start rotating over four seats) went unseen. Game 1 of seed 11 deals round 7 (seed 0's
    game 0 dealt round 13 until fuzz started half the games at round 1 under a match
    length of one's own, as roundhouse's is); two games, about 0.5 CPU s a run."""
    reports = {}
    for name, fixed in (("bug", "2,3"), ("fixed", "1,2,3")):
        code = main(["fuzz", "--impl", f"{ENGINE} --fixed {fixed}", "--rules",
                     str(EXAMPLES / "roundhouse-rules.yaml"), "--games", "2", "--seed", "11",
                     "--out", str(tmp_path / name), "--shrink-tries", "400",
                     "--shrink-seconds", "600", "--json"])  # tries: the same cut at any load
        reports[name] = json.loads(capsys.readouterr().out)
        assert code == (1 if name == "bug" else 0), reports[name]
    found = reports["bug"]["findings"]
    assert [f["signature"] for f in found] == ["deal: seat"], found
    assert found[0]["problems"] == []  # it loads, passes on the reference, fails on roundhouse
    repro = load_file(found[0]["reproducer"])[0]
    assert repro.clauses == ("SEAT-3",) and repro.deal is not None
    assert set(repro.expect[0].state) == {"seat", "starter"}  # the rest is its own rule's
    assert reports["fixed"]["findings"] == []
    # the deals were judged (their seat), not set aside as the procedure's own
    for report in reports.values():
        assert not any("engine_procedure" in k for k in report["not_judged"]), report
    # conform charges the reproducer to the rotation
    out = tmp_path / "repro.json"
    main(["conform", "--fixtures", found[0]["reproducer"], "--impl", f"{ENGINE} --fixed 2,3",
          "--format", "json", "--output", str(out)])
    results = json.loads(out.read_text())["results"]
    assert [(r["status"], r["charged"]) for r in results] == [("fail", ["SEAT-3"])], results


def test_a_procedure_of_its_own_is_dealt_from_the_whole_set(tmp_path: Path) -> None:
    """The protocol deals from the whole set unless the rule set sets the engine aside;
    a procedure of one's own does not. The seat-alone entries were dealt under the
    stand-in set-aside, so pullman (tests/examples/pullman_engine.py: every tile dealt,
    the starter digging for a missing engine), which checks its pool, answered 35 of them
    `bad-request` (`order is not the double-12 set`), each an error charged to up to ten
    clauses. The engine now goes back as the pool's last tile."""
    rules = EXAMPLES / "pullman-rules.yaml"
    engine = f"{sys.executable} {EXAMPLES / 'pullman_engine.py'} --fixed 1,2,3"
    out = tmp_path / "report.json"
    main(["conform", "--impl", engine, "--rules", str(rules), "-k", "seat-00[3-6]",
          "--situations", "0", "--format", "json", "--output", str(out)])
    results = json.loads(out.read_text())["results"]
    assert {r["fixture"]: r["status"] for r in results} == {
        f"seat-00{k}": "pass" for k in (3, 4, 5, 6)}, [r["messages"] for r in results]
    aside = _own(False, "rotate")
    assert whole_pool(aside, 2, ["0-0", "1-0"]) == ["0-0", "1-0", "11-11"]  # ENG-1
    assert whole_pool(aside, 2, ["11-11", "0-0"]) == ["11-11", "0-0"]
    held = Ruleset("held", tuple({**dict(aside.choices),
                                  "engine_procedure": "holder-lays"}.items()), aside.hand_table)
    assert whole_pool(held, 2, ["0-0"]) == ["0-0"]  # a stand-in that deals every tile


def test_a_setup_refused_for_its_player_count_runs_under_a_procedure_of_its_own() -> None:
    """A deal of 9 players under a table that stops at 8 is refused before anything is
    dealt (DEAL-7): the engine procedure decides nothing there. It was read to build the
    deal's pool, so under pullman's `engine_procedure: other` refused-001 was not
    applicable, and pullman's bug 1 (eight tiles to any count its table lacks) showed
    only at a table of one seat (refused-003). The pool's read decides nothing now; a
    deal that goes ahead still reads the procedure (ENG-2)."""
    rs = catalog().rules_file(str(EXAMPLES / "pullman-rules.yaml"))
    fixtures = {f.id: f for f in load_corpus()[0]}
    space = Space(catalog())
    refused = fixtures["refused-001"]
    exp = next(e for e in refused.expect if e.refused_setup is not None)
    assert applies(exp, refused, rs, space) is None
    dealt = fixtures["seat-004"]  # 8 players, dealt: the procedure decides the hands
    assert any("depends on engine_procedure" in (applies(e, dealt, rs, space) or "")
               for e in dealt.expect)


def test_a_deal_its_own_table_rules_out_names_the_table_before_the_start() -> None:
    """gondola's file (tests/examples/js/gondola-rules.yaml) plays `starting_seat: other`
    with a table of its own dealing 17 tiles each to 2 players. generated-hand-sizes-003
    expects 16 or 15 each (named tables) and the seat a start decides: it was "not applicable:
    depends on starting_seat", as if a start of one's own alone kept it out, where no
    start deals 16 or 15 from that table. A draw the highest draw refuses (SEAT-5) is the
    start's alone, whatever the table."""
    from mtrain.conformance.selection import ONLY_SEAT, entry_for, read_rules_files

    rs = read_rules_files([str(EXAMPLES / "js" / "gondola-rules.yaml")])[0]
    assert dict(rs.hand_table)[2] == 17
    corpus = {f.id: f for f in load_corpus()[0]}
    space = Space(catalog())
    sizes = corpus["generated-hand-sizes-003"]
    assert [e.state.get("hand_sizes") for e in sizes.expect] == [[16, 16], [15, 15]]
    whys = {applies(e, sizes, rs, space) for e in sizes.expect}
    assert any(why is not None and why.startswith(
        "its outcome depends on hand_sizes (played with a table of its own")
        and why.endswith("and on starting_seat (played its own way)") for why in whys), whys
    # what neither the table nor the start decides still runs (session 63): the round at
    # its start, the engine set aside (ENG-2)
    entry, why = entry_for(sizes, rs, space)
    assert why is None and entry is not None and entry.state == {"phase": "start"}
    assert entry_for(corpus["draw-007"], rs, space) == (None, ONLY_SEAT)


def _ninepins_rows(tmp_path: Path, bug: bool) -> dict[str, Any]:
    """conform of ninepins (a table of its own, a start of its own) on rows-001, planted
    bugs off; with `bug`, its deal leaves the engine to be found, last in the boneyard, as
    if it had been dealt (ENG-2 sets it aside)."""
    wrapper = tmp_path / "wrapped.py"
    wrapper.write_text(
        "import sys\n"
        f"sys.path.insert(0, {str(EXAMPLES)!r})\n"
        "import ninepins_engine as n\n"
        "real = n.deal\n"
        "def deal(players, round_no, order):\n"
        "    st = real(players, round_no, order)\n"
        f"    if {bug}:\n"
        "        st.update(engine_placed=False, phase='engine')\n"
        "        st['boneyard'].append(n.same(f\"{st['engine']}-{st['engine']}\"))\n"
        "    return st\n"
        "n.deal = deal\n"
        "n.FIXED.update({'1', '2'})\n"
        "n.serve()\n")
    out = tmp_path / f"{bug}.json"
    main(["conform", "--impl", f"{sys.executable} {wrapper}", "--rules",
          str(EXAMPLES / "ninepins-rules.yaml"), "-k", "rows-001", "--situations", "0",
          "--format", "json", "--output", str(out)])
    result: dict[str, Any] = json.loads(out.read_text())["results"][0]
    return result


def test_a_deal_runs_without_what_its_own_table_and_its_own_start_decide(
        tmp_path: Path) -> None:
    """ninepins' file (tests/examples/ninepins-rules.yaml) deals a table of its own (8
    each at 5 players) and starts each round its own way. rows-001 deals 5 players sorted
    and expects, under a known start, a named table's sizes, the start's seat and where
    the engine is; it was not applicable whole ("depends on hand_sizes ... and on
    starting_seat"), and with it every deal under both rules of one's own (351 results
    across the example engines' files). What neither rule decides runs: round 1's engine
    is [9-9] (ENG-1), already placed and the round at its start (ENG-2: set aside). A
    draw for the start (SEAT-5, the start's question) and a deal the double-6 table
    refuses (DEAL-7: ninepins deals 5) stay not applicable."""
    from mtrain.conformance.partition import OWN_TABLE_AND_SEAT
    from mtrain.conformance.selection import entry_for, read_rules_files

    rs = read_rules_files([str(EXAMPLES / "ninepins-rules.yaml")])[0]
    corpus = {f.id: f for f in load_corpus()[0]}
    space = Space(catalog())
    rows = corpus["rows-001"]
    assert {applies(e, rows, rs, space) for e in rows.expect} >= {OWN_TABLE_AND_SEAT}
    entry, why = entry_for(rows, rs, space)
    assert why is None and entry is not None
    assert entry.state == {"engine_placed": True, "phase": "start", "engine": 9}
    assert entry.legal is None and entry.result is ...
    for stays in ("mut19-seats-002", "owntab14-004"):
        assert entry_for(corpus[stays], rs, space) == (None, OWN_TABLE_AND_SEAT), stays
    fixed = _ninepins_rows(tmp_path, bug=False)
    assert fixed["status"] == "pass", fixed
    wrong = _ninepins_rows(tmp_path, bug=True)
    assert wrong["status"] == "fail", wrong
    assert "phase: expected start, got engine" in wrong["messages"], wrong
    assert not any("seat" in m or "hand_sizes" in m  # the table's and the start's own
                   for m in wrong["messages"]), wrong
