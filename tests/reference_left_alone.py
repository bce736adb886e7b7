"""What the mutants must leave as it was: the reference's modules (each name bound to the
same object) and its play (random legal play under several rule sets, through the JSON
interface). tests/test_mutants.py compares them before and after playing every mutant,
and tests/conftest.py around the run's play of every mutant against the corpus."""

from __future__ import annotations

import random
from typing import Any


def module_snapshot() -> dict[str, dict[str, int]]:
    from mtrain.conformance import adapter, fixture, reference_adapter, runner
    from mtrain.reference import codec, engine
    from mtrain.reference import deal as deal_module
    from mtrain.spec import tiles

    modules: dict[str, Any] = {"engine": engine, "deal": deal_module, "codec": codec,
                               "tiles": tiles, "adapter": adapter, "runner": runner,
                               "fixture": fixture, "reference_adapter": reference_adapter}
    return {key: {k: id(v) for k, v in vars(m).items()} for key, m in modules.items()}


def reference_trace() -> list[Any]:
    """Random legal play under several rule sets, through the JSON interface."""
    from mtrain.conformance.adapter import ReferenceImplementation, ruleset_json
    from mtrain.conformance.runner import resolve
    from mtrain.reference import deal as deal_module
    from mtrain.reference.rules import Rules
    from mtrain.spec import tiles

    ref = ReferenceImplementation()
    trace: list[Any] = []
    for k, variant in enumerate(["pagat", "puremco", "pagat+positive-scoring+blanks-25",
                                 "puremco+passes-end-round+any-double-first"]):
        rs = resolve(variant)
        rj = ruleset_json(rs)
        rules = Rules.of(rs)
        order = [tiles.name(t) for t in deal_module.shuffled_order(rules, 1, k)]
        state = ref.deal(rj, 3, 1, order)
        rng = random.Random(k)
        for _ in range(400):
            legal = ref.legal(rj, state)
            if not legal:
                break
            state = ref.apply(rj, state, rng.choice(legal))
            trace.append(state)
        trace.append(ref.winners(rj, state))
    return trace


def changes(before: tuple[dict[str, dict[str, int]], list[Any]]) -> list[str]:
    """What differs from `before` (module_snapshot(), reference_trace() taken earlier in
    this process): the names rebound, per module, and whether the play differs."""
    modules, trace = before
    now = module_snapshot()
    out = [f"{key}.{name}" for key, names in modules.items()
           for name in sorted(names.keys() | now[key].keys())
           if names.get(name) != now[key].get(name)]
    if reference_trace() != trace:
        out.append("the reference's play")
    return out
