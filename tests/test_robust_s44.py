"""Inputs the earlier robustness rounds let through (robust-s44): a rule-set file naming an
overlay whose every option its own `options:` set otherwise (the overlay named, and
nothing of it played); a house table's row for 0, 1 or 21 players said as the schema's
regular expression; a wire rule set with hand_sizes `custom` and no table, told that
`custom` is no value; declared rules with `tile_set: other` (a traceback) or a row for
one player (taken); a fuzz game cut short by an engine that crashed or stalled, counted
nowhere among the games ended early; an engine's long name as a reproducer's file name (a
traceback), and its newline starting a line of the report's own; a rule-set file given as
fixtures (or the other way round), told only that its top level had the wrong shape."""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from mtrain.cli import main


def write(path: Path, text: str) -> str:
    path.write_text(text, encoding="utf-8")
    return str(path)


# --- a rule-set file: an overlay its options undo --------------------------------------------


@pytest.mark.parametrize("overlays, options, line, said", [
    # fundex-hands sets hand_sizes alone: the table of one's own replaced it, and the file
    # loaded as "pagat, hand_sizes differs", fundex's table nowhere
    ("[fundex-hands]", "  hand_sizes: {2: 14}\n", 3,
     "overlay 'fundex-hands' sets only hand_sizes: fundex"),
    # the second of two overlays, undone by its one option: it played penalty scoring
    ("\n  - blanks-25\n  - positive-scoring", "  scoring: penalty\n", 5,
     "overlay 'positive-scoring' sets only scoring: positive")])
def test_an_overlay_the_files_options_undo_wholly_is_refused_at_its_line(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, overlays: str, options: str,
        line: int, said: str) -> None:
    path = write(tmp_path / "mine.yaml", f"name: mine\nbase: pagat\noverlays: {overlays}\n"
                 f"options:\n{options}")
    assert main(["rules", path]) == 2
    assert capsys.readouterr().err == (
        f"mtrain rules: {path}:{line}: {said}, which `options:` sets otherwise here: the "
        "overlay does nothing; drop it or the option\n")


@pytest.mark.parametrize("overlays, options, differs", [
    # an overlay refined, not undone: double-15's set with a table of one's own
    ("[double-15]", "  hand_sizes: {20: 6}\n", "`tile_set`, `hand_sizes`"),
    ("[positive-scoring]", "  scoring: positive\n", "`scoring`"),  # said twice, alike
    # fundex's own rows, written out: the overlay's table (DEAL-10)
    ("[fundex-hands]", "  hand_sizes: {2: 15, 3: 15, 4: 15, 5: 11, 6: 11, 7: 8, 8: 8}\n",
     "`hand_sizes`")])
def test_an_overlay_refined_or_repeated_by_the_options_still_loads(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, overlays: str, options: str,
        differs: str) -> None:
    path = write(tmp_path / "mine.yaml", f"name: mine\nbase: pagat\noverlays: {overlays}\n"
                 f"options:\n{options}")
    assert main(["rules", path]) == 0
    assert f"Closest shipped variant: `pagat`; it differs in {differs}." in \
        capsys.readouterr().out


@pytest.mark.parametrize("rows", ["{0: 5, 2: 15}", "{1: 15, 3: 15}", "{two: 15}",
                                  "{21: 4}", "{-2: 15}"])
def test_a_house_tables_row_for_no_number_of_players_is_said_in_words(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, rows: str) -> None:
    # "options.hand_sizes: key '1' does not match the pattern ^([2-9]|1[0-9]|20)$": the
    # schema's regular expression, where the author wrote a table for one player
    path = write(tmp_path / "mine.yaml", f"name: mine\nbase: pagat\noptions:\n"
                 f"  hand_sizes: {rows}\n")
    key = rows[1:].split(":")[0]
    assert main(["rules", path]) == 2
    assert capsys.readouterr().err == (
        f"mtrain rules: {path}:4: options.hand_sizes: key {key!r} is not a number of "
        "players, 2 to 20 (written 2, 3, ...): a table of one's own seats no fewer than two "
        "nor more than twenty\n")


# --- the wire: `custom` without its table ----------------------------------------------------


@pytest.mark.parametrize("table, said", [(None, "missing"), ({}, "empty")])
def test_a_wire_rule_set_custom_without_its_table_is_told_so(
        capsys: pytest.CaptureFixture[str], table: dict[str, int] | None, said: str) -> None:
    # "unknown value 'custom' for option hand_sizes; known: pagat, ...": the value the
    # protocol gives a table of one's own, said to be none
    from mtrain.conformance.serve import Server
    assert main(["state", "chaindbl-001", "--variant", "pagat"]) == 0
    request: dict[str, Any] = json.loads(capsys.readouterr().out)
    asked = copy.deepcopy(request)
    asked["ruleset"]["options"]["hand_sizes"] = "custom"
    asked["ruleset"].pop("hand_sizes", None)
    if table is not None:
        asked["ruleset"]["hand_sizes"] = table
    answer, stop = Server().handle(json.dumps(asked))
    assert not stop and answer["ok"] is False, answer
    assert answer["error"] == {"kind": "bad-request", "message": (
        "legal: ruleset.options.hand_sizes is `custom`, a table of the rule set's own, but "
        f"ruleset.hand_sizes (players: tiles) is {said}")}, answer
    asked["ruleset"]["hand_sizes"] = {"3": 15}  # with its table, answered
    answer, _ = Server().handle(json.dumps(asked))
    assert answer["ok"] is True, answer


# --- fuzz: a game an engine cut short ---------------------------------------------------------


def _engine(tmp_path: Path, name: str, late: str) -> str:
    """A program answering as `mtrain serve` does until its 40th request, and from then on
    running `late` (Python) instead of answering."""
    return write(tmp_path / f"{name}.py", f"""
import os, sys, time
from mtrain.conformance.serve import Server

server = Server()
for n, line in enumerate(sys.stdin.buffer, 1):
    if n > 40:
        {late}
    o, stop = server.respond(line)
    sys.stdout.buffer.write(o)
    sys.stdout.buffer.flush()
    if stop:
        break
""")


@pytest.mark.parametrize("late, why, status, timeout", [
    ("os._exit(3)", "the implementation crashed", "crash", "60"),
    # the timeout is what the hang costs; far above a loaded machine's start-up (1 s was not)
    ("time.sleep(600)", "the implementation did not answer in time", "timeout", "5")])
def test_a_game_an_engine_cut_short_is_said_to_have_ended_early(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, late: str, why: str,
        status: str, timeout: str) -> None:
    # the game ended at the crash (or the timeout), and the report said "1 game, 0 rounds
    # completed" with `ended_early: {}`: the finding named the crash, nothing said why no
    # round was completed
    engine = _engine(tmp_path, "late", late)
    assert main(["fuzz", "--impl", f"{sys.executable} {engine}", "--variant", "pagat",
                 "--players", "3", "--games", "1", "--timeout", timeout, "--shrink-seconds",
                 "1", "--out", str(tmp_path / "out"), "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert (report["games"], report["rounds"]) == (1, 0), report
    assert report["ended_early"] == {why: 1}, report
    (finding,) = report["findings"]
    assert finding["signature"].startswith(f"{status} on "), finding


# --- an engine's name ---------------------------------------------------------------------


def _named(tmp_path: Path, name: str, drop_first: bool) -> str:
    """A program answering as `mtrain serve` does, but for its name (`name`) and, with
    `drop_first`, the first of every legal list of two or more left out (a disagreement)."""
    return write(tmp_path / "named.py", f"""
import json, sys
from mtrain.conformance.serve import Server

server = Server()
for n, line in enumerate(sys.stdin.buffer, 1):
    o, stop = server.respond(line)
    a = json.loads(o)
    if n == 1:
        a["name"] = {name!r}
    elif {drop_first} and a.get("ok") and len(a.get("actions", ())) > 1:
        a["actions"] = a["actions"][1:]
    sys.stdout.buffer.write((json.dumps(a) + "\\n").encode())
    sys.stdout.buffer.flush()
    if stop:
        break
""")


def test_a_reproducer_of_an_engine_with_a_long_name_is_written(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # the reproducer's file was named after the engine in full: 300 characters made
    # "OSError: [Errno 36] File name too long", a traceback
    engine = _named(tmp_path, "Engine " + "n" * 300, drop_first=True)
    out = tmp_path / "out"
    assert main(["fuzz", "--impl", f"{sys.executable} {engine}", "--variant", "pagat",
                 "--players", "2", "--games", "1", "--shrink-tries", "400", "--out",
                 str(out), "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    written = sorted(p.name for p in out.iterdir())
    assert written and len(written) == len([f for f in report["findings"]
                                            if f["reproducer"]]), (written, report)
    stem = written[0].rsplit("-0-", 1)[0]  # fuzz-<slug>-<seed>-<k>.yaml
    assert stem.startswith("fuzz-engine-nnn") and len(stem) == len("fuzz-") + 60, stem
    assert all(name.startswith(stem) for name in written), written
    # the fixtures load as fixtures: an id is a slug, and the whole is one file's
    assert main(["lint", str(out), "--no-scopes"]) == 0, capsys.readouterr().out


def test_an_engines_name_with_a_newline_stays_on_its_line(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # the name was shown with its control characters escaped, its newline kept: the rest
    # of the name began a line of its own, as if the report had written it
    engine = _named(tmp_path, "evil\nOK: every fixture passed", drop_first=False)
    chain = Path(__file__).parent.parent / "conformance" / "fixtures" / "chain-doubles" / \
        "chain.yaml"
    assert main(["conform", "--impl", f"{sys.executable} {engine}", "--variant", "pagat",
                 "--fixtures", str(chain), "-k", "chaindbl-001"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("mtrain conform: evil\\nOK: every fixture passed "), out
    assert main(["fuzz", "--impl", f"{sys.executable} {engine}", "--variant", "pagat",
                 "--players", "2", "--games", "1", "--out", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    assert out.startswith("fuzzing evil\\nOK: every fixture passed against the reference: "), out


# --- a hello's declared rules ---------------------------------------------------------------


def _declaring(tmp_path: Path, rules: dict[str, Any]) -> str:
    """A program answering as `mtrain serve` does, its hello declaring `rules`."""
    return write(tmp_path / "declares.py", f"""
import json, sys
from mtrain.conformance.serve import Server

server = Server()
for n, line in enumerate(sys.stdin.buffer, 1):
    o, stop = server.respond(line)
    if n == 1:
        a = json.loads(o)
        del a["variants"]
        a["rules"] = json.loads({json.dumps(rules)!r})
        o = (json.dumps(a) + "\\n").encode()
    sys.stdout.buffer.write(o)
    sys.stdout.buffer.flush()
    if stop:
        break
""")


@pytest.mark.parametrize("options, table, said", [
    # TileSetError: unknown tile set 'other', a traceback (a rule-set file refuses it)
    ({"tile_set": "other"}, None, "`rules`: tile_set cannot be `other`: name the set played"),
    # a row for one player was taken, where a rule-set file refuses it
    ({"hand_sizes": "custom"}, {"1": 15, "3": 15}, "`rules.hand_sizes`: '1' is not a number "
     "of players, 2 to 20: a table of one's own seats no fewer than two nor more than twenty "
     "(players -> tiles, e.g. {\"2\": 15})"),
    ({"hand_sizes": "custom"}, {"21": 4}, "`rules.hand_sizes`: '21' is not a number of "
     "players, 2 to 20: a table of one's own seats no fewer than two nor more than twenty "
     "(players -> tiles, e.g. {\"2\": 15})")])
def test_declared_rules_with_no_tile_set_or_a_table_for_one_player_are_refused(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, options: dict[str, str],
        table: dict[str, int] | None, said: str) -> None:
    assert main(["state", "chaindbl-001", "--variant", "pagat"]) == 0
    pagat = json.loads(capsys.readouterr().out)["ruleset"]["options"]
    rules: dict[str, Any] = {"options": {**pagat, **options}}
    if table is not None:
        rules["hand_sizes"] = table
    engine = _declaring(tmp_path, rules)
    chain = Path(__file__).parent.parent / "conformance" / "fixtures" / "chain-doubles" / \
        "chain.yaml"
    assert main(["conform", "--impl", f"{sys.executable} {engine}", "--fixtures", str(chain),
                 "-k", "chaindbl-001"]) == 2
    assert capsys.readouterr().err == (
        f"mtrain conform: the implementation's declared rules: {said}\n")


# --- a rule-set file and a fixture file taken for each other -----------------------------------


def test_a_rule_set_file_and_a_fixture_file_given_for_each_other_are_named_so(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # "top level: expected a list, got a mapping ({'name': 'two', ...})" and "top level:
    # expected a mapping, got a list ([{'id': 'chaindbl-001', ...": the shapes, not the slip
    rules = write(tmp_path / "two.yaml", "name: two\nbase: pagat\noptions:\n"
                  "  hand_sizes: {2: 15}\n")
    chain = (Path(__file__).parent.parent / "conformance" / "fixtures" / "chain-doubles" /
             "chain.yaml").read_text(encoding="utf-8")
    first = chain[chain.index("- id: chaindbl-001"):chain.index("- id: chaindbl-002")]
    fixtures = write(tmp_path / "f.yaml", "# one fixture\n\n" + first)  # its first at line 3
    assert main(["lint", rules, "--no-scopes"]) == 1
    assert (f"error: {rules}:1: a rule-set file (a mapping: name, base, options), not a "
            "fixture file (a list of fixtures): --rules reads it\n") in capsys.readouterr().out
    for command in (["conform", "--rules", fixtures], ["rules", fixtures]):
        assert main(command) == 2
        assert capsys.readouterr().err == (
            f"mtrain {command[0]}: {fixtures}:3: a fixture file (a list of fixtures), not a "
            "rule-set file (a mapping: name, base, options): --fixtures reads it\n")
