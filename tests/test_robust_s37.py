"""Inputs the earlier robustness rounds let through (robust-s37): each is refused by name,
never read past nor met with a traceback."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from mtrain.cli import main

HERE = Path(__file__).resolve().parent
BROKEN = HERE / "broken_impls"
FIXTURES = HERE / "data" / "fixtures"
MTRAIN = str(Path(sys.executable).with_name("mtrain"))


def usage_error(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """What a refused command line prints: exit 2, no traceback, one message (argparse
    raises SystemExit after its usage lines; our own InputError is one line)."""
    try:
        rc = main(list(args))
    except SystemExit as e:
        rc = e.code  # type: ignore[assignment]
    out, err = capsys.readouterr()
    assert rc == 2 and "Traceback" not in out + err, (rc, out, err)
    return err.splitlines()[-1]


# --- seeds and seconds out of range -------------------------------------------------------


@pytest.mark.parametrize("command", [["fuzz", "--mutant", "wrong-engine-double"],
                                     ["simulate", "--variant", "pagat"]])
@pytest.mark.parametrize("seed", ["-1", "9" * 260])
def test_a_seed_out_of_range_is_refused(capsys: pytest.CaptureFixture[str],
                                        tmp_path: Path, command: list[str],
                                        seed: str) -> None:
    # -1 played seed 1's games under another name (Python's random takes the seed's size);
    # a seed of 260 digits named a reproducer file longer than a name may be (a traceback
    # once a finding was written).
    err = usage_error(capsys, *command, "--seed", seed, "--out" if command[0] == "fuzz"
                      else "--rounds", str(tmp_path / "out") if command[0] == "fuzz" else "1")
    assert "--seed" in err and ("from 0 to 9,223,372,036,854,775,807" in err
                                or "at least 0" in err or "too large" in err), err


@pytest.mark.parametrize("option, value", [("--shrink-seconds", "nan"),
                                           ("--shrink-seconds", "inf"),
                                           ("--max-seconds", "inf"),
                                           ("--max-seconds", "nan")])
def test_fuzz_seconds_that_are_no_time_are_refused(capsys: pytest.CaptureFixture[str],
                                                   tmp_path: Path, option: str,
                                                   value: str) -> None:
    # nan passed `< 0` and inf `> 0`: both were taken, nan as a shrink that never stops.
    err = usage_error(capsys, "fuzz", "--mutant", "wrong-engine-double", "--games", "1",
                      "--out", str(tmp_path / "out"), option, value)
    assert err.startswith(f"mtrain fuzz: error: {option}") and "finite" in err, err


# --- fixture files -------------------------------------------------------------------------


@pytest.mark.parametrize("refusal, unknown", [("draw: TURN-1", "draw: NOPE-99"),
                                              ("draw: TURN-1", "draw: [TURN-1, ZZ-3]")])
def test_a_refusal_naming_no_clause_is_the_fixtures_fault_at_its_line(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, refusal: str,
        unknown: str) -> None:
    # lint --no-scopes passed it (only `clauses:` was looked up) and conform charged the
    # implementation with "refused by TURN-1, expected NOPE-99": a slip of the fixture.
    text = (FIXTURES / "basic" / "play.yaml").read_text().split("\n- id: basic-002")[0]
    assert refusal in text
    path = tmp_path / "play.yaml"
    path.write_text(text.replace(refusal, unknown))
    line = 1 + text[:text.index(refusal)].count("\n")
    bad = unknown.split(": ")[1].strip("[]").split(", ")[-1]
    rc = main(["lint", "--no-scopes", str(path)])
    out = capsys.readouterr().out
    assert rc == 1 and f"{path}:{line}: fixture basic-001: unknown clause {bad}:" in out, out
    rc = main(["conform", "--fixtures", str(path), "--impl", f"{MTRAIN} serve",
               "--format", "json"])
    out = capsys.readouterr().out
    assert rc == 1 and "no fixture could be loaded" in out and f"unknown clause {bad}" in out


# --- requests to serve ---------------------------------------------------------------------


@pytest.mark.parametrize("written", ["\u0669-1", "\uff19-1", "9-1 ", " 9-1", "09-1", "9 -1",
                                     "9-1\n", "9" * 5000 + "-1"])
def test_a_tile_written_other_than_the_schema_says_is_not_a_tile(
        tmp_path: Path, written: str) -> None:
    # int() read an Arabic-Indic or full-width 9, a space or a leading zero as the tile 9-1
    # (serve answered as if 9-1 had been written), and 5,000 digits as Python's own limit
    # message. The hand is [9-1, 5-3].
    request = legal_request(tmp_path)
    assert request["state"]["hands"][0] == ["9-1", "5-3"]
    request["state"]["hands"][0][0] = written
    answer = served(request)
    assert answer["ok"] is False and answer["error"]["kind"] == "bad-request", answer
    assert answer["error"]["message"].startswith(
        f"legal: state.hands[0][0]: not a tile: {written!r}"), answer


def legal_request(tmp_path: Path) -> dict[str, Any]:
    """basic-001's table as a legal request under pagat (hands [9-1, 5-3], [11-11, 10-0])."""
    path = tmp_path / "legal.json"
    assert main(["state", "basic-001", "--fixtures", str(FIXTURES), "--as", "legal",
                 "--out", str(path)]) == 0
    request: dict[str, Any] = json.loads(path.read_text())
    return request


def served(request: dict[str, Any]) -> dict[str, Any]:
    from mtrain.conformance.protocol import decode, encode
    from mtrain.conformance.serve import Server

    server = Server()
    server.handle(b'{"type":"hello","id":0,"protocol":1}\n')
    answer, _ = server.handle(encode(request))
    found: dict[str, Any] = decode(encode(answer))
    return found


@pytest.mark.parametrize("table, named, shown", [
    ({"2": 15, " 3": 15}, False, "' 3' is not a number of players"),
    ({"2": 15, "02": 9}, False, "'02' is not a number of players"),
    ({"2": 15, "\uff13": 15}, False, "'\uff13' is not a number of players"),
    ({"2": 15, "9" * 5000: 1}, False, "is not a number of players"),
    ({"2": 1.5}, False, "ruleset.hand_sizes['2']: 1.5 is not a number of tiles"),
    ({"2": True}, False, "ruleset.hand_sizes['2']: True is not a number of tiles"),
    ([15, 15], False, "ruleset.hand_sizes must be an object"),
    ({"2": 3}, True, "ruleset.hand_sizes is not the table hand_sizes=pagat deals (2: 15, "),
])
def test_a_hand_table_in_a_request_is_read_as_written_or_refused(
        tmp_path: Path, table: Any, named: bool, shown: str) -> None:
    # int() read ' 3' and '02' as rows 3 and 2 (a row given twice, one lost) and 1.5 as 1
    # tile; under a named table the request's own rows were dropped without a word.
    request = legal_request(tmp_path)
    if not named:
        request["ruleset"]["options"]["hand_sizes"] = "custom"
    request["ruleset"]["hand_sizes"] = table
    answer = served(request)
    assert answer["ok"] is False and answer["error"]["kind"] == "bad-request", answer
    assert shown in answer["error"]["message"], answer


def test_a_request_with_its_tables_as_sent_is_still_answered(tmp_path: Path) -> None:
    # the check above refuses only what differs: the harness's own requests pass
    request = legal_request(tmp_path)
    assert served(request) == {"id": 1, "ok": True, "actions": [
        {"type": "play", "tile": "5-3", "train": 0}]}
    request["ruleset"]["options"]["hand_sizes"] = "custom"
    request["ruleset"]["hand_sizes"] = {"2": 2, "3": 2}
    assert served(request)["ok"] is True


# --- what an implementation declares in its hello ------------------------------------------


@pytest.mark.parametrize("table, hand_sizes, shown", [
    ({"2": 3}, "pagat", "`rules.hand_sizes` is not the table `rules.options.hand_sizes` "
     "names (pagat)"),
    ({" 2": 15, "3": 15}, "custom", "`rules.hand_sizes`: ' 2' is not a number of players"),
    ({"02": 5, "2": 15}, "custom", "`rules.hand_sizes`: '02' is not a number of players"),
    ({"2": 1.5, "3": 15}, "custom", "`rules.hand_sizes`['2']: 1.5 is not a number of tiles"),
    ({"2": True}, "custom", "`rules.hand_sizes`['2']: True is not a number of tiles"),
    ([15, 15], "custom", "`rules.hand_sizes` must be an object, got [15, 15]"),
])
def test_a_declared_hand_table_is_read_as_written_or_refused(
        table: Any, hand_sizes: str, shown: str) -> None:
    # The declaration read its table with int(): 1.5 and true were 1 tile, '02' and '2'
    # two rows for 2 players, and a table beside a named one made a rule set called pagat
    # that dealt 3 tiles.
    from mtrain.conformance.declaration import DeclarationError, declared_ruleset
    from mtrain.spec.catalog import catalog

    pagat = catalog().ruleset("pagat")
    options = {**dict(pagat.choices), "hand_sizes": hand_sizes}
    with pytest.raises(DeclarationError) as info:
        declared_ruleset({"name": "x", "rules": {"options": options, "hand_sizes": table}})
    assert shown in str(info.value), str(info.value)
    # the table a named value deals, given beside it, is that value
    mine = {str(n): h for n, h in pagat.hand_table}
    same = declared_ruleset({"name": "x", "rules": {"options": dict(pagat.choices),
                                                    "hand_sizes": mine}})
    assert same is not None and same["hand_sizes"] == "pagat"
    assert same.hand_table == pagat.hand_table


def test_a_limit_listing_no_value_is_a_declaration_error(
        capsys: pytest.CaptureFixture[str]) -> None:
    # {"scoring": []} ran nothing: every result "not applicable: the implementation does
    # not support scoring=penalty (only )", a red run that blamed no one.
    impl = f"{sys.executable} {BROKEN / 'hello.py'} '{{\"options\": {{\"scoring\": []}}}}'"
    rc = main(["conform", "--fixtures", str(FIXTURES), "--impl", impl])
    err = capsys.readouterr().err
    assert rc == 2 and "`options.scoring` lists no value: no rule set could be played" in err


# --- mtrain state --action ----------------------------------------------------------------


@pytest.mark.parametrize("action", ["play 5-3 on " + "9" * 5000, "play 5-3 on \u0660",
                                    "play 5-3 on 00", "play 5-3 on 20", "play \uff15-3 on 0"])
def test_an_action_is_written_with_ascii_digits_and_a_seat_of_the_schema(
        capsys: pytest.CaptureFixture[str], action: str) -> None:
    # A seat of 5,000 digits was a traceback (int()'s own limit); an Arabic-Indic 0 or 00
    # was seat 0, and 20 or more a seat no request may name (protocol.schema.json: 0..19).
    err = usage_error(capsys, "state", "basic-001", "--fixtures", str(FIXTURES), "--as",
                      "apply", "--action", action)
    assert err.startswith(f"mtrain state: --action {action[:20]!r}"[:-1]), err
    assert "not an action" in err, err


@pytest.mark.parametrize("command", [["conform", "--impl", "x"], ["mutants"], ["check"],
                                     ["fuzz", "--impl", "x"]])
def test_a_count_of_jobs_no_machine_runs_is_refused(capsys: pytest.CaptureFixture[str],
                                                    command: list[str]) -> None:
    # -j 99999999999999999999 was taken: conform and mutants start min(jobs, tasks)
    # processes, thousands on the shipped corpus.
    err = usage_error(capsys, *command, "--jobs", "1000")
    assert "--jobs" in err and "64" in err, err


@pytest.mark.parametrize("where, first", [("basic/play.yaml", "basic-002"),
                                          ("deal/deal.yaml", "deal-002")])
def test_an_engine_outside_the_set_is_named_at_its_own_line(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, where: str, first: str) -> None:
    # It was named at the fixture's first line, ten lines above the `engine:` it is about.
    text = (FIXTURES / where).read_text().split(f"\n- id: {first}")[0]
    key = "  table:\n" if "table:" in text else "  deal:\n"
    text = text.replace(key, key + "    engine: 13\n", 1)
    line = 1 + text[:text.index("engine: 13")].count("\n")
    path = tmp_path / "one.yaml"
    path.write_text(text)
    rc = main(["lint", "--no-scopes", str(path)])
    out = capsys.readouterr().out
    assert rc == 1 and f"{path}:{line}: " in out and "engine [13-13] is not in a double-12 set" \
        in out, out


def test_a_rule_set_file_a_set_cannot_deal_names_its_clause_once(tmp_path: Path) -> None:
    # `mtrain check --rules` printed "... = 160 [DEAL-8] [DEAL-8]": the message's own
    # clauses, then the finding's.
    from mtrain.conformance.speccheck.option_jobs import _rules_files

    path = tmp_path / "too-big.yaml"
    path.write_text("name: too-big\nbase: pagat\noptions:\n  hand_sizes: {2: 80, 3: 15}\n")
    check = _rules_files([str(path)])
    assert check["status"] == "fail"
    [found] = check["findings"]
    assert found["clauses"] == ["DEAL-8"] and "[DEAL-8]" not in found["message"], found
    assert found["message"].startswith(f"{path}:4: too-big: hand-size table"), found
