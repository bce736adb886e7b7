"""The adapter API: `Unsupported` for a question the engine cannot answer, and `score`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mtrain.cli import main

ADAPTERS = Path(__file__).parent / "broken_impls" / "adapters.py"


def run(tmp_path: Path, *args: str) -> tuple[int, dict[str, object]]:
    out = tmp_path / "report.json"
    code = main(["conform", *args, "--format", "json", "--output", str(out)])
    return code, json.loads(out.read_text(encoding="utf-8"))


@pytest.mark.slow
@pytest.mark.parametrize("timeout", [[], ["--timeout", "5"]])
def test_unsupported_is_not_applicable(tmp_path: Path, timeout: list[str],
                                       capsys: pytest.CaptureFixture[str]) -> None:
    code, report = run(tmp_path, "--adapter", f"{ADAPTERS}:NoFollowUps", "-k", "doubles-0",
                       "--variant", "pagat", *timeout)
    results = report["results"]
    assert isinstance(results, list)
    na = [r for r in results if r["status"] == "not-applicable"]
    assert na and all("own dialog" in r["message"] for r in na)
    assert not [r for r in results if r["status"] in ("fail", "error")]
    assert code == 0
    capsys.readouterr()


def test_score_is_asked_for_the_scoring_fixtures(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    code, report = run(tmp_path, "--adapter", f"{ADAPTERS}:ScoresBlanksAtZero", "-k", "score-",
                       "--variant", "pagat+blanks-25")
    results = report["results"]
    assert isinstance(results, list)
    failed = [r for r in results if r["status"] == "fail"]
    assert code == 1 and failed
    assert all("score request" in r["message"] for r in failed)
    capsys.readouterr()
