"""The build. Pure Python by default; `MTRAIN_MYPYC=1` at install compiles the reference
engine (reference/state.py, engine.py, refusals.py, deal.py) with mypyc, from the same source.

mypyc names a module by its path, and the source folders are mapped onto the package
(reference/ -> mtrain.reference, pyproject.toml), so the sources are staged first in the
layout they are imported by (build/mypyc-src/mtrain/...); the extensions are built from
there and installed beside the .py files, which Python then imports in their place.
Everything else about the build lives in pyproject.toml.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

from setuptools import setup

COMPILED = ("reference/state.py", "reference/engine.py", "reference/refusals.py",
            "reference/deal.py")
STAGE = Path("build/mypyc-src")


def staged() -> list[str]:
    """Copy every mapped folder into STAGE as the package it is installed as."""
    layout = {"mtrain": "mtrain", "spec": "mtrain/spec", "reference": "mtrain/reference",
              "conformance": "mtrain/conformance"}
    shutil.rmtree(STAGE, ignore_errors=True)
    for source, target in layout.items():
        shutil.copytree(source, STAGE / target, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("__pycache__", "*.so", "fixtures",
                                                      "data", "schemas"))
    return [str(STAGE / "mtrain" / path) for path in COMPILED]


def ext_modules() -> list[Any]:
    if os.environ.get("MTRAIN_MYPYC", "") in ("", "0"):
        return []
    from mypyc.build import mypycify  # the build backend asks for mypy when opted in

    return list(mypycify(["--ignore-missing-imports", *staged()], opt_level="3"))


setup(ext_modules=ext_modules())
