"""Play fixtures against an implementation and compare with what the rules expect.

`run_fixture(fixture, implementation)` yields one Outcome per rule set the fixture
names. An outcome is "pass", "fail" (the implementation disagrees with the fixture) or
"error" (the fixture could not be played: a step was refused, the table does not exist
under that rule set, ...). Messages say what differs: missing and extra actions, the
field, the expected and actual values.

    python -m mtrain.conformance.runner [PATH] [-k PATTERN]
"""

from __future__ import annotations

import argparse
import functools
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from mtrain.spec import tiles as T
from mtrain.spec.catalog import RulesetError, catalog
from mtrain.spec.ruleset import Ruleset
from mtrain.spec.yamlload import SpecError

from .adapter import JSON, Implementation, ReferenceImplementation, Refused, ruleset_json
from .answers import AnswerError, checked
from .fixture import (
    MEXICAN,
    Expectation,
    Fixture,
    FixtureError,
    action_json,
    action_text,
    load_corpus,
    max_pip_of,
)


@dataclass
class Outcome:
    fixture: Fixture
    variant: str
    status: str  # pass | fail | error
    messages: list[str] = field(default_factory=list)

    @property
    def message(self) -> str:
        return "; ".join(self.messages)


@functools.lru_cache(maxsize=512)
def resolve(variant: str) -> Ruleset:
    """The rule set a fixture names (composed once: rule sets are frozen)."""
    return catalog().ruleset(variant)


def run_fixture(fx: Fixture, impl: Implementation,
                variants: Sequence[str] | None = None) -> Iterator[Outcome]:
    for name, exp in fx.rulesets():
        if variants is not None and name not in variants:
            continue
        yield run_one(fx, name, exp, impl)


def run_one(fx: Fixture, name: str, exp: Expectation, impl: Implementation) -> Outcome:
    out = Outcome(fx, name, "pass")
    impl = checked(impl)  # every state and action it returns: schemas and invariants
    try:
        rs = resolve(name)
    except (RulesetError, SpecError) as e:
        return Outcome(fx, name, "error", [f"rule set {name!r}: {e}"])
    rj = ruleset_json(rs)
    max_pip = max_pip_of(rs)
    try:
        state = start_state(fx, rs, rj, impl)
        for k, step in enumerate(fx.steps, 1):
            try:
                state = impl.apply(rj, state, action_json(step, max_pip))
            except Refused as e:
                clause = f" [{e.clause}]" if e.clause else ""
                return Outcome(fx, name, "fail",
                               [f"step {k} `{step}` was refused: {e.reason}{clause}"])
        out.messages += check(exp, rj, state, impl, max_pip)
    except FixtureError as e:
        return Outcome(fx, name, "error", [f"cannot set up the fixture: {e}"])
    except AnswerError as e:
        return Outcome(fx, name, e.status, out.messages + e.messages)
    if out.messages:
        out.status = "fail"
    return out


def start_state(fx: Fixture, rs: Ruleset, rj: JSON, impl: Implementation) -> JSON:
    if fx.deal is not None:
        players, round_no, order, extra = fx.deal_request(rs)
        state = impl.deal(rj, players, round_no, order)
        if extra:
            state = {**state, **extra}
        return state
    return fx.start(rs)


def check(exp: Expectation, rj: JSON, state: JSON, impl: Implementation,
          max_pip: int) -> list[str]:
    problems: list[str] = []
    if exp.legal is not None:
        actual = {action_text(a) for a in impl.legal(rj, state)}
        want = set(exp.legal)
        missing, extra = sorted(want - actual), sorted(actual - want)
        if missing:
            problems.append("legal actions missing: " + ", ".join(missing))
        if extra:
            problems.append("legal actions not allowed by the rules: " + ", ".join(extra))
    for text, clause in exp.refused.items():
        try:
            impl.apply(rj, state, action_json(text, max_pip))
            problems.append(f"`{text}` was accepted; the rules refuse it ({clause})")
        except Refused as e:
            if e.clause is not None and e.clause != clause:
                problems.append(f"`{text}` refused by {e.clause}, expected {clause}")
    view = state_view(state)
    for key, want in exp.state.items():
        problems += compare_field(key, want, view, max_pip)
    if exp.result is not ...:
        problems += compare_result(exp.result, state.get("result"))
    if exp.winners is not None:
        got = sorted(impl.winners(rj, state))
        if got != sorted(exp.winners):
            problems.append(f"winners: expected {sorted(exp.winners)}, got {got}")
    return problems


def state_view(state: JSON) -> dict[str, Any]:
    """The canonical state in the fixtures' table vocabulary."""
    trains = {i: [_tile_id(x) for x in t["tiles"]] for i, t in enumerate(state["trains"])}
    trains_any: dict[Any, list[int]] = dict(trains)
    trains_any[MEXICAN] = [_tile_id(x) for x in state["mexican"]["tiles"]]
    return {
        **{k: state.get(k) for k in ("engine", "seat", "starter", "phase", "passes", "scores",
                                     "outs", "engine_placed", "open_doubles", "turn_doubles")},
        "hands": {i: sorted(_tile_id(x) for x in h) for i, h in enumerate(state["hands"])},
        "trains": trains_any,
        "marked": sorted(i for i, t in enumerate(state["trains"]) if t.get("marker")),
        "boneyard": [_tile_id(x) for x in state["boneyard"]],
        "first_turns": sorted(state.get("first_turns", [])),
        "drawn": None if state.get("drawn") is None else _tile_id(state["drawn"]),
        "hand_sizes": [len(h) for h in state["hands"]],
        "boneyard_size": len(state["boneyard"]),
    }


def _tile_id(text: str) -> int:
    return T.parse(text)


def compare_field(key: str, want: Any, view: dict[str, Any], max_pip: int) -> list[str]:
    got = view.get(key)
    if key == "hands":
        out = []
        for seat, tiles in want.items():
            exp_ids = sorted(T.parse(str(t), max_pip) for t in tiles or [])
            if got is None or got.get(seat) != exp_ids:
                actual = [T.name(t) for t in (got or {}).get(seat, [])]
                out.append(f"hand {seat}: expected {sorted(T.name(t) for t in exp_ids)}, "
                           f"got {sorted(actual)}")
        return out
    if key == "trains":
        out = []
        for train, tiles in want.items():
            exp_ids = [T.parse(str(t), max_pip) for t in tiles or []]
            actual = (got or {}).get(train, [])
            if actual != exp_ids:
                out.append(f"train {train}: expected {[T.name(t) for t in exp_ids]}, "
                           f"got {[T.name(t) for t in actual]}")
        return out
    if key in ("boneyard",):
        want = [T.parse(str(t), max_pip) for t in want]
    elif key == "drawn" and want is not None:
        want = T.parse(str(want), max_pip)
    elif key in ("marked", "first_turns"):
        want = sorted(want)
    if got != want:
        show = (lambda v: [T.name(t) for t in v]) if key == "boneyard" else (lambda v: v)
        return [f"{key}: expected {show(want)}, got {show(got)}"]
    return []


def compare_result(want: Any, got: Any) -> list[str]:
    if want is None:
        return [] if got is None else [f"the round should go on; it ended: {got}"]
    if got is None:
        return [f"the round should have ended ({want}); it goes on"]
    out = []
    for key, value in want.items():
        if got.get(key) != value:
            out.append(f"result.{key}: expected {value}, got {got.get(key)}")
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Run fixtures against the reference engine.")
    parser.add_argument("path", nargs="?", help="a fixture file or folder (default: all)")
    parser.add_argument("-k", dest="pattern", help="only fixtures whose id contains this")
    parser.add_argument("-v", dest="verbose", action="store_true", help="show passes too")
    args = parser.parse_args(argv)
    fixtures, errors = load_corpus(args.path)
    for e in errors:
        print(f"LOAD ERROR {e}")
    impl = ReferenceImplementation()
    counts: dict[str, int] = {}
    for fx in fixtures:
        if args.pattern and args.pattern not in fx.id:
            continue
        for o in run_fixture(fx, impl):
            counts[o.status] = counts.get(o.status, 0) + 1
            if o.status != "pass" or args.verbose:
                print(f"{o.status.upper()} {fx.id} [{o.variant}] {fx.where}")
                for m in o.messages:
                    print(f"    {m}")
    print(", ".join(f"{v} {k}" for k, v in sorted(counts.items())) or "no fixtures run",
          f"({len(errors)} load errors)" if errors else "")
    return 1 if errors or counts.get("fail") or counts.get("error") else 0


if __name__ == "__main__":
    sys.exit(main())
