"""Session 61's second house engine, boxcar (tests/examples/boxcar_engine.py): a double-15
engine for 4 to 10 players with a table of its own and three house rules no known value
describes, a marker off on the owner's own train or the Mexican Train
(`marker_removal: other`), each blank end worth 7 and the [0-0] 50
(`blank_values: other`), and one round per player (`match_length: other`).

- fuzz's "run it" line ran a reproducer under the rule-set file written beside it
  (`--rules rulesets/boxcar.yaml`), which holds a known stand-in for each rule played
  `other`: conform then judged what those rules decide as the stand-in plays it. Boxcar
  going out on a double (its planted END-1 bug) left a hand full of blanks; run as told,
  the reproducer failed boxcar's fixed engine too, charged to SCORE-1 (face values, not
  boxcar's rule) with INV-ROUND-SCORE. A reproducer under rules of one's own is now run
  as it was fuzzed: under the file they came from (`--rules FILE`), or with no --rules
  where the hello declared them (fuzz.run.Target.rules_option).
- the same finding showed, and its reproducer expected, the stand-in's round scores
  (`the round should have ended ({..., 'scores': [1945, 6, 0, 8]})`: face values of a hand
  full of blanks) where boxcar's round did not end: what the round is worth is its own
  rule's, so the expectation now leaves the scores out, as conform's cut entry does
  (fuzz.own_rules.worth_aside).
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

from mtrain.cli import main
from mtrain.conformance.fuzz.own_rules import worth_aside
from mtrain.conformance.fuzz.rulesets import declared_context
from mtrain.conformance.fuzz.run import Target
from mtrain.conformance.selection import read_rules_files

EXAMPLES = Path(__file__).parent / "examples"
ENGINE = EXAMPLES / "boxcar_engine.py"
RULES = EXAMPLES / "boxcar-rules.yaml"


def _command(bugs: bool) -> str:
    return shlex.join([sys.executable, str(ENGINE), *(["--bugs"] if bugs else [])])


def test_run_it_names_the_rules_as_fuzzed_not_their_stand_in(tmp_path: Path) -> None:
    """The command for a reproducer found under rules of one's own: the --rules file they
    came from, or none where the hello declared them; a rule set with no `other` keeps the
    file beside the reproducer (a table of its own, test_house52)."""
    path = tmp_path / "fuzz-boxcar-1-001.yaml"
    path.write_text("- id: fuzz-boxcar-1-001\n  rules: rulesets/boxcar.yaml\n",
                    encoding="utf-8")
    (rs,) = read_rules_files([str(RULES)])
    ctx = declared_context(rs)
    assert ctx.unknown == {"marker_removal", "blank_values", "match_length"}
    stand_in = f"--rules {tmp_path / 'rulesets/boxcar.yaml'}"
    from_file = Target("impl", "./boxcar", "boxcar", sources=((ctx.name, str(RULES)),))
    (command,) = from_file.commands(path, ctx)
    assert command.endswith(f"--impl ./boxcar --rules {RULES}"), command
    (command,) = Target("impl", "./boxcar", "boxcar").commands(path, ctx)
    assert "--rules" not in command, command
    (command,) = from_file.commands(path)  # no rule set known: the file beside it
    assert command.endswith(stand_in), command


def test_a_round_not_ended_by_the_engine_expects_no_stand_in_scores() -> None:
    """Under blank values of one's own, the step that should end the round is judged but
    for what the round is worth: where the engine's round goes on, the stand-in's scores
    are not expected (nor shown); where it ended, its own scores stand in the expectation
    (as before)."""
    result = {"end": "domino", "winner": 2, "scores": [1945, 6, 0, 8]}
    want = {"phase": "over", "scores": [1945, 6, 0, 8], "result": result}
    going_on = {"phase": "follow", "scores": [0, 0, 0, 0], "result": None}
    cut = worth_aside(("blank_values",), want, going_on)
    assert cut is not None
    assert cut["result"] == {"end": "domino", "winner": 2}
    assert cut["scores"] == [0, 0, 0, 0]
    ended = {**going_on, "phase": "over", "scores": [2093, 13, 0, 8],
             "result": {**result, "scores": [2093, 13, 0, 8]}}
    cut = worth_aside(("blank_values",), want, ended)
    assert cut is not None and cut["result"]["scores"] == [2093, 13, 0, 8]
    assert worth_aside(("marker_removal",), want, going_on) is None  # not a round's worth


def _run_it(out: str) -> list[list[str]]:
    """The argument lists of the report's "run it" lines (after `mtrain`)."""
    return [shlex.split(line.split("run it: ", 1)[1])[1:]
            for line in out.splitlines() if "run it: " in line]


@pytest.mark.slow  # ~3 CPU s each: a fuzz of 12 games and six conform runs of boxcar
@pytest.mark.parametrize("declared", [False, True], ids=["hello", "rules-file"])
def test_boxcar_reproducers_run_as_told_fail_only_the_bugs(
        declared: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Fuzz boxcar with its bugs on, then run each reproducer as the report says: against
    the engine with the bugs off it passes (the round gone out on a double, its hands
    full of blanks, failed SCORE-1 before), with them on it fails, charged to the clause
    of its planted bug."""
    args = ["fuzz", "--impl", _command(True), "--games", "12", "--seed", "1",
            "--out", str(tmp_path / "out")]
    code = main([*args, *(["--rules", str(RULES)] if declared else [])])
    out = capsys.readouterr().out
    assert code == 1, out
    commands = _run_it(out)
    assert len(commands) == 3, out
    assert "1945" not in out, out  # the stand-in's worth of the round boxcar did not end
    written = "".join(p.read_text(encoding="utf-8") for p in (tmp_path / "out").glob("*.yaml"))
    assert "result: {end: domino, winner: 2}" in written, written
    charged = []
    for argv in commands:
        assert argv[:2] == ["conform", "--fixtures"], argv
        at = argv.index("--impl")
        fixed = [*argv[:at + 1], _command(False), *argv[at + 2:]]
        code = main([*fixed, "-v"])
        text = capsys.readouterr().out
        assert code == 0, text
        assert "1 pass" in text, text
        code = main([*argv, "-v"])
        text = capsys.readouterr().out
        assert code == 1, text
        charged += [line.split("charged to: ", 1)[1].split()[0]
                    for line in text.splitlines() if "charged to: " in line]
    assert sorted(charged) == ["DBL-7", "END-1", "TURN-3"], charged
