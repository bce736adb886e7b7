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
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

from mtrain.cli import main
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
