"""The command line: one module per subcommand under mtrain/commands/, each registering
its own arguments; and `mtrain --help` and `mtrain serve` light at start (`mtrain serve`
is started once per job of every conform and fuzz run): they import no z3, read from
`python -X importtime`."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest

from mtrain import cli

COMMANDS_DIR = Path(__file__).resolve().parents[1] / "mtrain" / "commands"
HELPERS = {"__init__", "arguments", "printing"}


def imported(*args: str, stdin: str = "") -> set[str]:
    """The modules `python -m mtrain ARGS` imports, by `-X importtime`."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "mtrain", *args],
                          input=stdin, capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    names = set()
    for line in done.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            name = line.rsplit("|", 1)[1].strip()
            if name != "package":  # the header line
                names.add(name)
    assert "mtrain.cli" in names, done.stderr[-2000:]
    return names


def test_one_module_per_command() -> None:
    modules = {p.stem for p in COMMANDS_DIR.glob("*.py")} - HELPERS
    assert modules == set(cli.COMMANDS)
    parser = cli.build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assert list(sub.choices) == list(cli.COMMANDS)


def test_help_imports_no_z3_and_no_schemas() -> None:
    names = imported("--help")
    assert "z3" not in names
    assert "jsonschema" not in names
    assert not {n for n in names if n.startswith("mtrain.spec.")}, "the help reads no spec"


@pytest.mark.parametrize("args", [(), ("--rules", "spec/data/rulesets/double-6.yaml")])
def test_serve_imports_no_z3(args: tuple[str, ...]) -> None:
    root = Path(__file__).resolve().parents[1]
    names = imported("serve", *(str(root / a) if a.endswith(".yaml") else a for a in args),
                     stdin='{"id": 1, "type": "shutdown"}\n')
    assert "mtrain.conformance.serve" in names
    assert "z3" not in names
    others = {n for n in names if n.startswith("mtrain.commands.")}
    assert others <= {"mtrain.commands", "mtrain.commands.serve", "mtrain.commands.printing"}


def test_identify_summary_counts_what_it_does_not_list() -> None:
    from mtrain.commands.identify import SHOWN, _first

    ids = [f"fx-{i:03d}" for i in range(SHOWN + 5)]
    assert _first(ids).endswith(f"fx-{SHOWN - 1:03d} and 5 more")
    assert _first(ids[:SHOWN]) == ", ".join(ids[:SHOWN])
