"""From the root of a clone, `python -m pytest` and `python -m mtrain` find the whole
namespace although the local mtrain/ folder comes first on sys.path."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_python_m_pytest_from_the_root_collects() -> None:
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q",
                           "-p", "no:cacheprovider", "tests/test_catalog.py"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "No module named" not in done.stdout + done.stderr


def test_python_m_mtrain_from_the_root_runs() -> None:
    done = subprocess.run([sys.executable, "-m", "mtrain", "explain", "DBL-6"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "DBL-6" in done.stdout
