"""The worked example of the implementer's guide ("Mapping an engine whose moves are not
the protocol's"): tests/examples/turn_engine.py, an engine with moves of its own, passes
`mtrain conform` through tests/examples/turn_adapter.py, and conform catches a bug put
into the engine."""

from __future__ import annotations

import ast
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from mtrain.cli import main

# the folder the adapter loads the engine from, so that both see one turn_engine module
sys.path.insert(0, str(Path(__file__).resolve().parent / "examples"))
import turn_adapter
import turn_engine as te

HERE = Path(__file__).resolve().parent
EXAMPLES = HERE / "examples"
ADAPTER = f"{EXAMPLES / 'turn_adapter.py'}:Adapter"
FAILING = ("fail", "error", "timeout", "crash")


class DrawPassesUnmarked(te.TurnEngine):
    """A bug in the engine's own vocabulary: the pass that `Draw()` makes by itself,
    when the drawn tile fits nowhere, leaves the marker down (MARK-1)."""

    def apply(self, game: te.Game, move: te.Move) -> te.Game:
        after = super().apply(game, move)
        if isinstance(move, te.Draw) and game.engine_laid and after.seat != game.seat:
            after.markers[game.seat] = game.markers[game.seat]
        return after


class BuggyAdapter(turn_adapter.Adapter):
    def __init__(self) -> None:
        super().__init__(DrawPassesUnmarked())


def conform(tmp_path: Path, adapter: str, *args: str) -> tuple[int, dict[str, Any]]:
    out = tmp_path / "report.json"
    rc = main(["conform", "--adapter", adapter, "--format", "json", "--output", str(out),
               *args])
    return rc, json.loads(out.read_text())


def test_the_example_engine_imports_nothing_of_mtrain() -> None:
    tree = ast.parse((EXAMPLES / "turn_engine.py").read_text())
    imported = [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    imported += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    assert imported and not [m for m in imported if m.split(".")[0] == "mtrain"]


@pytest.mark.slow
def test_the_example_passes_conform_under_its_declared_rules(tmp_path: Path) -> None:
    rc, report = conform(tmp_path, ADAPTER, "--situations", "60")
    bad = [(r["fixture"], r["status"], r["message"]) for r in report["results"]
           if r["status"] in FAILING]
    assert not bad, bad
    assert rc == 0
    summary = report["summary"]
    assert {r["variant"] for r in report["results"]} == {turn_adapter.RULES["name"]}
    # Unsupported (tables the engine cannot hold) is not-applicable, and must stay rare.
    assert summary["pass"] >= 150, summary
    assert summary["not-applicable"] * 10 <= summary["pass"], summary


def test_conform_catches_a_bug_in_the_example_engine(tmp_path: Path) -> None:
    buggy = tmp_path / "buggy_turn_adapter.py"
    buggy.write_text(f"import sys\nsys.path.insert(0, {str(HERE)!r})\n"
                     "from test_turn_example import BuggyAdapter\n")
    rc, report = conform(tmp_path, f"{buggy}:BuggyAdapter", "-k", "marker")
    assert rc == 1
    failed = {r["fixture"]: r["message"] for r in report["results"] if r["status"] == "fail"}
    assert "marker-001" in failed, report["summary"]
    assert "marked: expected [0], got []" in failed["marker-001"]
    assert not [r for r in report["results"] if r["status"] in ("error", "crash")]
