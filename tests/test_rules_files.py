"""Rule sets of one's own: rule-set files, `conform --rules`, `serve --rules`, rules
declared in hello, rules played `other`, and a run that tests nothing."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import sys
from pathlib import Path

import pytest

from mtrain.cli import main
from mtrain.spec.catalog import catalog
from mtrain.spec.ruleset import CUSTOM
from mtrain.spec.yamlload import SpecError, SpecErrors

BROKEN = Path(__file__).parent / "broken_impls"
MTRAIN = shutil.which("mtrain") or str(Path(sys.executable).with_name("mtrain"))

# Not a shipped variant: pagat with a single-tile start, the Wikipedia doubles rule,
# doubles covered in any order, and a hand table of its own.
KITCHEN = """\
name: kitchen-table
base: pagat
overlays: [wikipedia-doubles]
options:
  first_turn: single
  double_order: any-open
  hand_sizes: {2: 14, 3: 13, 4: 12, 5: 10, 6: 9}
"""


def write(tmp_path: Path, text: str, name: str = "rules.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_rules_file_resolves(tmp_path: Path) -> None:
    rs = catalog().rules_file(write(tmp_path, KITCHEN))
    assert rs.name == "kitchen-table"
    assert rs["follow_up"] == "cover-own" and rs["first_turn"] == "single"
    assert rs["hand_sizes"] == CUSTOM and rs.hand_size(4) == 12
    assert catalog().ruleset(str(write(tmp_path, KITCHEN, "again.yaml"))) == rs


# The Idaho Good Sam club's game (issue 21): every tile dealt, laps of draws for a missing
# engine (ENG-6), its holder starting, one tile a turn from the start.
GOODSAM = """\
name: goodsam-club
base: pagat
overlays: [goodsam-hands, engine-everyone-draws]
options:
  first_turn: single
  mexican_first_turn: anyone
  follow_up: cover-own
"""


def test_a_rules_file_for_laps_of_draws_loads_with_no_other(tmp_path: Path) -> None:
    rs = catalog().rules_file(write(tmp_path, GOODSAM))
    assert rs["engine_procedure"] == "everyone-draws" and rs["hand_sizes"] == "goodsam"
    assert rs["starting_seat"] == "engine-holder"
    assert "other" not in dict(rs.items()).values()


def test_a_table_equal_to_a_named_one_takes_its_name(tmp_path: Path) -> None:
    text = "base: puremco\noptions:\n  hand_sizes: {2: 15, 3: 15, 4: 15, 5: 12, 6: 12, " \
           "7: 10, 8: 10, 9: 8, 10: 8}\n"
    rs = catalog().rules_file(write(tmp_path, text))
    assert rs["hand_sizes"] == "pagat"


@pytest.mark.parametrize("text, line, message", [
    ("base: pagat\noptions:\n  folow_up: anywhere\n", 3, "unknown option 'folow_up'"),
    ("base: pagat\noptions:\n  follow_up: sideways\n", 3, "unknown value 'sideways'"),
    ("base: pagat\noptions:\n  first_turn: chain\n  mexican_first_turn: starter-only\n", 4,
     "FIRST-9"),
    ("base: pagat\noptions:\n  tile_set: double-9\n", 3, "DEAL-8"),
    ("base: pagat\noptions:\n  hand_sizes: {4: 30}\n", 3, "DEAL-8"),
    ("base: pagat\noptions: [first_turn]\n", 2, "expected a mapping"),
    ("base: pagat\noptions:\n  first_turn: single\n   bad: indent\n", 4, ""),
    ("options:\n  first_turn: single\n", 1, "must give every option"),
    ("base: nope\noptions: {}\n", 1, "unknown base variant 'nope'"),
    ("base: pagat\noptions:\n  tile_set: other\n", 3, "tile_set cannot be `other`"),
    # a table's cells and keys: integers written as such, nothing YAML versions read apart
    ("base: pagat\noptions:\n  hand_sizes: {2: 8.0, 3: 8}\n", 3,
     "hand_sizes.2: expected an integer, got a number (8.0)"),
    ("base: pagat\noptions:\n  hand_sizes:\n    2: 8\n    3: 010\n", 5, "'010'"),
    ("base: pagat\noptions:\n  hand_sizes:\n    0x2: 8\n", 4, "'0x2'"),
    ("base: pagat\noptions:\n  hand_sizes: {2: 1_0}\n", 3, "'1_0'"),
    ("base: pagat\noptions:\n  hand_sizes: {2: .inf}\n", 3, "'.inf'"),
    ("base: pagat\noptions:\n  hand_sizes: {2: -3}\n", 3, "hand_sizes.2: -3 is less than"),
    ("base: pagat\noptions:\n  hand_sizes: {2: 0}\n", 3, "hand_sizes.2: 0 is less than"),
    ("base: pagat\noptions:\n  hand_sizes: 12\n", 3,
     "hand_sizes: expected a string or a mapping, got an integer (12)"),
    ("base: pagat\noptions:\n  hand_sizes: {}\n", 3, "hand_sizes"),
    ("base: pagat\noptions:\n  hand_sizes: {1: 8}\n", 3, "'1'"),
    ("base: pagat\noptions:\n  hand_sizes: {2: 99999999999999999999}\n", 3, "DEAL-8"),
    ("base: pagat\noptions:\n  follow_up: off\n", 3, "'off'"),
    ("name: yes\nbase: pagat\n", 1, "'yes'"),
    ("name: 2024-01-01\nbase: pagat\n", 1, "name: expected a string, got a date"),
    ("base: pagat\n\nbase: puremco\n", 3, "duplicate key 'base' (lines 1 and 3)"),
    ("- base: pagat\n", 1, "expected a mapping, got a list"),
    ("base: pagat\noptions:\n  follow_up: [anywhere]\n", 3,
     "option follow_up takes the name of a value (anywhere, restricted, cover-own, or other), "
     "got a list"),
    ("base: pagat\noverlays: wikipedia-doubles\n", 2, "overlays: expected a list"),
    ("base: pagat\noverlays: [no-such-overlay]\n", 2, "no-such-overlay"),
    ("base: pagat\nbogus: 1\n", 2, "unknown key 'bogus'"),
])
def test_a_bad_rules_file_gets_one_error_with_its_line(tmp_path: Path, text: str, line: int,
                                                       message: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(SpecError) as info:
        catalog().rules_file(path)
    err = info.value
    errors: list[SpecError] = list(err) if isinstance(err, SpecErrors) else [err]
    assert len(errors) == 1, str(err)
    assert errors[0].path == str(path) and errors[0].line == line, str(err)
    assert message in str(err)


@pytest.mark.slow
def test_conform_rules_file_runs_and_passes(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, KITCHEN)
    out_json = tmp_path / "report.json"
    assert main(["conform", "--rules", str(path), "--format", "json",
                 "--output", str(out_json)]) == 0
    report = json.loads(out_json.read_text())
    assert report["ok"] and report["summary"]["fail"] == 0
    # issue 9: at least 800 results under a rule set no variant is: the fixtures that
    # speak about it (180-odd) and the situations from play
    assert report["ran"] >= 800 and report["checks"] >= 1000
    fixtures = [r for r in report["results"] if not r["fixture"].startswith("play-")]
    assert len([r for r in fixtures if r["status"] == "pass"]) >= 180
    assert {r["variant"] for r in report["results"]} == {"kitchen-table"}
    # Deal fixtures depend on the table, which is the file's own: not applicable; so is a
    # first-turn chain's table, which its one-tile first turns never reach (REACH-CHAIN).
    na = [r for r in report["results"] if r["status"] == "not-applicable"]
    by_table = [r for r in na if "hand_sizes" in r["message"]]
    unreached = [r for r in na if "these rules never reach (REACH-CHAIN:" in r["message"]]
    assert by_table and len(by_table) + len(unreached) == len(na)
    assert len(unreached) <= 10  # 7: the corpus's first-turn chains, out of its scopes
    capsys.readouterr()


@pytest.mark.slow  # 800 results through a server, ~3 CPU s
def test_the_same_through_serve_rules(tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, KITCHEN)
    serve = shlex.join([MTRAIN, "serve", "--rules", str(path)])
    assert main(["conform", "--impl", serve]) == 0  # the rules come from its hello
    out = capsys.readouterr().out
    assert "kitchen-table" in out and "declared by the implementation" in out
    ran = re.search(r"OK: (\d+) results ran", out)
    assert ran and int(ran.group(1)) >= 800, out  # the fixtures and the situations


@pytest.mark.slow
def test_an_option_played_its_own_way(tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "base: pagat\noptions:\n  follow_up: other\n")
    out_json = tmp_path / "r.json"
    assert main(["conform", "--rules", str(path), "--format", "json",
                 "--output", str(out_json)]) == 0
    report = json.loads(out_json.read_text())
    na = [r for r in report["results"] if r["status"] == "not-applicable"]
    ran = [r for r in report["results"] if r["status"] == "pass"]
    assert na and all("follow_up (played its own way)" in r["message"] for r in na)
    assert len(ran) > 150
    capsys.readouterr()


def test_a_server_that_answers_only_hello_fails(capsys: pytest.CaptureFixture[str]) -> None:
    impl = f"{sys.executable} {BROKEN / 'only_hello.py'}"
    # one fixture's results (333 over its rule sets) tell it as well as nine fixtures'
    # (2,326: 3.5 CPU s, this one 1.9): every one is refused the same way
    assert main(["conform", "--impl", impl, "-k", "turn-001"]) == 1
    out = capsys.readouterr().out
    assert "FAILED: nothing ran" in out and "declare" in out


def test_no_fixture_in_scope_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import yaml

    corpus = Path(__file__).resolve().parent.parent / "conformance" / "fixtures"
    chain = yaml.safe_load((corpus / "chain-doubles" / "chain.yaml").read_text(encoding="utf-8"))
    one = tmp_path / "one.yaml"
    one.write_text(yaml.safe_dump([f for f in chain if f["id"] == "chaindbl-001"]),
                   encoding="utf-8")
    assert main(["conform", "--variant", "puremco-d9", "--fixtures", str(one)]) == 1
    out = capsys.readouterr().out
    assert "FAILED: nothing ran: no fixture speaks about" in out and "declare" in out


def test_a_pattern_that_selects_fixtures_of_other_rules_says_so(
        capsys: pytest.CaptureFixture[str]) -> None:
    """chaindbl-001 exists, but speaks about chain starts only: -k found it, and the
    rules asked for are not at fault (before: "no fixture id matches -k chaindbl-001",
    and advice to declare the rules the implementation plays)."""
    assert main(["conform", "--variant", "puremco-d9", "-k", "chaindbl-001"]) == 1
    captured = capsys.readouterr()
    both = captured.out + captured.err
    assert "no fixture id matches" not in both
    assert "-k chaindbl-001: 1 fixture of that id, none speaking about the rule sets run" in both
    assert "FAILED: nothing ran: no fixture selected by -k chaindbl-001 speaks about" in both
    assert "declare the rules" not in captured.out


def test_a_pattern_under_rules_played_their_own_way_blames_no_rule(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A rerun (-k ID) under a rule set with an `other` option: the situations from play
    are filtered out by -k, not by the rule played its own way (before, every rerun warned
    "0 situations from play ... only rounds that never read blank_values speak about it");
    a pattern that matches nothing at all says both."""
    own = tmp_path / "own.yaml"
    own.write_text("name: own\nbase: puremco-d9\noptions:\n  blank_values: other\n",
                   encoding="utf-8")
    assert main(["conform", "--rules", str(own), "-k", "doubles-050"]) == 0
    captured = capsys.readouterr()
    assert "situations from play" not in captured.out + captured.err
    # a situation's id: there are none such under these rules (robust-s48 refuses an id
    # that neither a fixture nor a situation from play can have, test_robust_s48)
    assert main(["conform", "--rules", str(own), "-k", "play-opendbl-700"]) == 1
    captured = capsys.readouterr()
    assert ("no fixture id matches -k play-opendbl-700, nor any situation from play (under "
            "rules played their own way, blank_values, only tables whose question reads none "
            "of them are made)") in captured.out + captured.err


def test_declared_rules_that_make_no_sense_are_a_usage_error(
        capsys: pytest.CaptureFixture[str]) -> None:
    change = json.dumps({"rules": {"options": {"follow_up": "sideways"}}})
    impl = f"{sys.executable} {BROKEN / 'hello.py'} '{change}'"
    assert main(["conform", "--impl", impl]) == 2
    assert "unknown value 'sideways'" in capsys.readouterr().err


def test_a_file_named_after_a_shipped_rule_set_must_play_its_rules(tmp_path: Path) -> None:
    """Reports label every result with the rule set's name: `name: puremco` over pagat's
    rules would pass pagat's results off as puremco's."""
    same = tmp_path / "same.yaml"
    same.write_text("name: pagat\nbase: pagat\n", encoding="utf-8")
    assert catalog().rules_file(same).name == "pagat"
    other = tmp_path / "other.yaml"
    other.write_text("name: pagat\nbase: pagat\noptions:\n  draw_rule: draw-until-playable\n",
                     encoding="utf-8")
    with pytest.raises(SpecError) as e:
        catalog().rules_file(other)
    assert "other.yaml:1" in str(e.value) and "draw_rule: draw-until-playable" in str(e.value)
    stem = tmp_path / "puremco.yaml"  # no name: the file's stem names it
    stem.write_text("base: pagat\n", encoding="utf-8")
    with pytest.raises(SpecError, match="a name of its own"):
        catalog().rules_file(stem)
