"""Any tile set, double-6 to double-18: the sets as data, their facts, play on them, and
the errors of rule-set files that name them.

Expected numbers come from closed forms (a double-N set has (N+1)(N+2)/2 tiles carrying
(N+2)N(N+1)/2 pips, N+1 tiles per number, N+1 rounds) or binomial coefficients, never from
the code under test; the sets' highest numbers are read from options.yaml by hand.
"""

from __future__ import annotations

import io
import re
import tokenize
from fractions import Fraction
from math import comb
from pathlib import Path

import pytest
import yaml

from mtrain.cli import main
from mtrain.reference import codec
from mtrain.reference.deal import deal
from mtrain.reference.engine import engine_number
from mtrain.reference.rules import Rules
from mtrain.reference.simulate import simulate
from mtrain.spec import facts
from mtrain.spec import tiles as T
from mtrain.spec.catalog import catalog
from mtrain.spec.ruleset import MAX_PLAYERS
from mtrain.spec.tilesets import highest, highest_numbers
from mtrain.spec.yamlload import SpecError
from mtrain.spec.yamlschema import schema

ROOT = Path(__file__).resolve().parents[1]
OPTIONS = yaml.safe_load((ROOT / "spec" / "data" / "options.yaml").read_text(encoding="utf-8"))
SETS: dict[str, int] = {f"double-{n}": n for n in range(6, 19)}
"""SET-1's double-N sets, any N from 6 to 18: the eight options.yaml names one by one and
the five its `every_double` rule gives (tests/test_sets_s55.py)."""


def test_every_set_is_named_by_its_highest_number() -> None:
    named = {name: int(name.removeprefix("double-")) for name in OPTIONS["tile_set"]["values"]}
    assert set(named) == {"double-6", "double-8", "double-9", "double-10", "double-12",
                          "double-15", "double-16", "double-18"}
    assert named.items() <= SETS.items()
    assert OPTIONS["tile_set"]["every_double"]["from"] == 6
    assert OPTIONS["tile_set"]["every_double"]["to"] == 18
    assert highest_numbers() == SETS
    assert T.MAX_PIP == 18 and T.TILE_COUNT == 19 * 20 // 2


@pytest.mark.parametrize("name", list(SETS))  # smallest set first
def test_facts_of_every_set_from_closed_forms(name: str) -> None:
    n = SETS[name]
    f = facts.set_facts(highest(name), aside=True)
    tiles = (n + 1) * (n + 2) // 2
    assert (f.tiles, f.pips, f.numbers, f.tiles_per_number, f.rounds) == (
        tiles, (n + 2) * n * (n + 1) // 2, n + 1, n + 1, n + 1)
    assert f.mean_pips == n  # every number is on as many tiles: the mean end is n/2
    assert (f.pool, f.starters) == (tiles - 1, n)  # the engine aside; the other n tiles
    hand = min(15, (tiles - 1) // 2)
    assert facts.no_starter_probability(n, hand) == Fraction(
        comb(tiles - 1 - n, hand), comb(tiles - 1, hand))


def test_published_double_12_and_double_9_facts_stay_exact() -> None:
    assert facts.total_tiles(12) == 91 and facts.total_pips(12) == 1092
    assert facts.total_tiles(9) == 55
    assert all(ok for _, _, _, ok in facts.check_facts())


def test_tiles_up_to_18_parse_and_19_does_not() -> None:
    assert T.name(T.parse("18-17")) == "18-17" and T.parse("0-18") == T.tile_id(18, 0)
    with pytest.raises(T.TileError, match="not in a double-18 set"):
        T.parse("19-0")
    with pytest.raises(T.TileError, match="not in a double-12 set"):
        T.parse("15-3", max_pip=12)


def test_the_schemas_are_sized_for_the_largest_set_and_table() -> None:
    state = schema("state")
    assert state["$defs"]["number"]["maximum"] == 18
    assert state["properties"]["round"]["maximum"] == 19
    assert state["properties"]["hands"]["maxItems"] == MAX_PLAYERS == 20
    tile = re.compile(state["$defs"]["tile"]["pattern"])
    assert tile.match("18-0") and tile.match("0-18") and not tile.match("19-0")
    players = re.compile(schema("rules")["properties"]["options"]["additionalProperties"]
                         ["oneOf"][1]["propertyNames"]["pattern"])
    assert players.match("20") and not players.match("21")


def _rules(tmp_path: Path, text: str) -> Rules:
    path = tmp_path / "set.yaml"
    path.write_text(text, encoding="utf-8")
    return Rules.of(catalog().rules_file(path))


D6 = "base: puremco\noptions:\n  tile_set: double-6\n  hand_sizes: {2: 8, 3: 7, 4: 6}\n"


@pytest.mark.parametrize("text, players, top, tiles", [
    ("base: pagat\noverlays: [double-15]\noptions: {}\n", 8, 15, 136),
    (D6, 3, 6, 28),
])
def test_rounds_on_double_15_and_double_6_keep_every_invariant(
        tmp_path: Path, text: str, players: int, top: int, tiles: int) -> None:
    rules = _rules(tmp_path, text)
    assert (rules.max_pip, rules.rounds, engine_number(rules, 1)) == (top, top + 1, top)
    for round_no in (1, top + 1):  # the first round's engine [N-N] and the last, [0-0]
        st = deal(rules, players, round_no, seed=round_no)
        held = sum(h.bit_count() for h in st.hands) + len(st.boneyard) + st.engine_placed
        assert held == tiles
    report = simulate(rules, players, 6, seed=1, check_every_action=True)
    assert report.rounds == 6 and report.invariant_violations == 0, report.first_violations
    assert sum(report.endings.values()) == 6


def test_a_double_15_state_with_twenty_seats_round_trips(tmp_path: Path) -> None:
    rules = _rules(tmp_path, "base: pagat\noverlays: [double-15]\noptions:\n"
                             "  hand_sizes: {20: 6}\n")
    st = deal(rules, 20, seed=3)
    data = codec.state_to_json(st)
    assert len(data["hands"]) == 20
    assert codec.state_to_json(codec.state_from_json(rules, data)) == data
    play = codec.action_from_json(st, {"type": "play", "tile": "15-1", "train": 19})
    assert play.train == 19


@pytest.mark.parametrize("text, line, words", [
    # a named table for a set that has none published: the file must give one
    ("base: pagat\noptions:\n  tile_set: double-18\n", 3,
     ["DEAL-11", "double-18", "hand-size table of its own", "hand_sizes: {players: tiles"]),
    ("base: pagat\noptions:\n  tile_set: double-15\n", 3,
     ["DEAL-10", "hand_sizes celko-d15 or ourpastimes-d15", "table of its own"]),
    ("base: pagat\noptions:\n  hand_sizes: ourpastimes-d15\n", 3,
     ["DEAL-9", "tile_set in ['double-15']", "tile_set=double-12"]),
    ("base: puremco\noptions:\n  tile_set: double-6\n  hand_sizes: {2: 14}\n", 4,
     ["DEAL-8", "28 tiles", "2 players x 14 = 28"]),
    ("base: pagat\noptions:\n  tile_set: double-21\n", 3,
     ["unknown value 'double-21'", "double-18"]),
])
def test_rule_set_file_errors_name_the_value_and_line(
        tmp_path: Path, text: str, line: int, words: list[str]) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SpecError) as e:
        catalog().rules_file(path)
    message = str(e.value)
    assert message.startswith(f"{path}:{line}:"), message
    for w in words:
        assert w in message, message


def test_the_cli_reports_a_missing_table_without_a_traceback(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "d18.yaml"
    path.write_text("base: puremco\noptions:\n  tile_set: double-18\n", encoding="utf-8")
    assert main(["rules", str(path)]) == 2
    err = capsys.readouterr().err
    assert "DEAL-11" in err and "Traceback" not in err


# `x == "double-12"`, `12 if ... else 9`: how the set used to be picked, by name
_SET_LITERAL = re.compile(
    r"""(==|!=|\bin)\s*\(?\s*["']double-\d+["']|\b(12|9) if\b|else (12|9)\b""")


def _code_lines(path: Path) -> list[tuple[int, str]]:
    """The lines of a module with its comments and string-only lines (docstrings) blanked."""
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.COMMENT:
            row, col = tok.start
            lines[row - 1] = lines[row - 1][:col]
        elif tok.type == tokenize.STRING and tok.line.strip().startswith(('"""', "'''")):
            for row in range(tok.start[0], tok.end[0] + 1):
                lines[row - 1] = ""
    return list(enumerate(lines, 1))


@pytest.mark.parametrize("package", ["reference", "spec"])
def test_no_tile_set_is_hard_coded_in_the_engine_or_the_spec(package: str) -> None:
    """A rule set's set is looked up in the data (tilesets.highest), never spelt out."""
    found = [f"{p.relative_to(ROOT)}:{n}: {line.strip()}"
             for p in sorted((ROOT / package).glob("*.py")) for n, line in _code_lines(p)
             if _SET_LITERAL.search(line)]
    assert found == []
