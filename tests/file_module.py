"""A module loaded from its file: the example engines and broken implementations under
tests/ are scripts, not a package, yet some tests subclass or call them in process."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType


def file_module(path: Path, name: str | None = None) -> ModuleType:
    """The module of `path`, run once and registered under `name` (its stem by default:
    a dataclass looks its module up by name, so it must be in sys.modules)."""
    name = name or path.stem
    known = sys.modules.get(name)
    if known is not None and getattr(known, "__file__", None) == str(path):
        return known
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None, path
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
