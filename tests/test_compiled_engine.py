"""The mypyc build plays exactly the games of the pure-Python engine (issue 25).

Runs only where the engine installed is the compiled build (`MTRAIN_MYPYC=1` at install,
see the README); elsewhere it is skipped. The pure engine is the same source files
(reference/rules.py, engine.py, refusals.py, deal.py, as installed beside the extensions)
loaded as a package of their own, so both play in one process: every round of every table,
action by action, and its result must agree.
"""

from __future__ import annotations

import importlib
import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import mtrain.reference as installed
from mtrain.reference import deal as compiled_deal
from mtrain.reference import engine as compiled_engine
from mtrain.reference import rules as compiled_rules
from mtrain.reference.simulate import round_seed
from mtrain.spec.catalog import catalog

COMPILED = not str(compiled_engine.__file__).endswith(".py")

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not COMPILED, reason="the engine installed is pure Python (the mypyc "
                       "build is opt-in: MTRAIN_MYPYC=1 at install)"),
]

MODULES = ("rules", "state", "engine", "refusals", "deal")
"""The compiled modules and rules.py, each copied (a copy without state.py would make the
compiled build's states)."""
TABLES = [("pagat", 4), ("puremco", 6), ("pagat+passes-end-round+own-train-first", 3),
          ("pagat+double-15", 12), ("puremco+wikipedia-doubles", 5)]


def pure_copy(folder: Path) -> dict[str, ModuleType]:
    """rules, state, engine and deal from their .py sources, as the package `_pure_reference`."""
    here = Path(installed.__path__[0])
    root = folder / "_pure_reference"
    root.mkdir()
    (root / "__init__.py").write_text("")
    for m in MODULES:
        text = (here / f"{m}.py").read_text()
        for other in MODULES:  # not the installed (compiled) modules
            text = text.replace(f"from mtrain.reference.{other} import",
                                f"from _pure_reference.{other} import")
        (root / f"{m}.py").write_text(text)
    spec = importlib.util.spec_from_file_location("_pure_reference", root / "__init__.py",
                                                  submodule_search_locations=[str(root)])
    assert spec is not None and spec.loader is not None
    package = importlib.util.module_from_spec(spec)
    sys.modules["_pure_reference"] = package
    spec.loader.exec_module(package)
    return {m: importlib.import_module(f"_pure_reference.{m}") for m in MODULES}


def games(rules_mod: ModuleType, engine: ModuleType, deal: ModuleType, variant: str,
          players: int, rounds: int, seed: int) -> list[Any]:
    """Every action and the result of `rounds` random rounds, as rounds_per_second plays."""
    rules = rules_mod.Rules.of(catalog().ruleset(variant))
    randrange = random.Random(seed).randrange
    out: list[Any] = []
    for index in range(rounds):
        state = deal.deal(rules, players, 1 + index % rules.rounds,
                          seed=round_seed(seed, index))
        while state.phase != engine.OVER:
            legal = engine.legal_actions(state)
            action = legal[randrange(len(legal))]
            out.append(tuple(legal))
            engine.perform(state, action)
        out.append((state.result, tuple(state.scores)))
    return out


def test_the_compiled_engine_plays_the_games_of_the_pure_one(tmp_path: Path) -> None:
    pure = pure_copy(tmp_path)
    assert str(pure["engine"].__file__).endswith(".py")
    assert pure["deal"].State is pure["engine"].State  # the pure deal makes pure states
    assert str(pure["state"].__file__).endswith(".py")  # and they are the pure State
    for variant, players in TABLES:
        for seed in (1, 2):
            mine = games(compiled_rules, compiled_engine, compiled_deal, variant, players,
                         60, seed)
            theirs = games(pure["rules"], pure["engine"], pure["deal"], variant, players,
                           60, seed)
            # Actions and results are named tuples (each build has its own classes), so
            # they compare as the tuples of plain values they are.
            assert mine == theirs, (variant, players, seed)
