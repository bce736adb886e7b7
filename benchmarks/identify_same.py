"""identify's answers, recorded, to show a change to its speed changed no answer.

    python benchmarks/identify_same.py record DIR [CASE ...]
    python benchmarks/identify_same.py compare DIR_A DIR_B

`record` runs identify on each case (all of CASES when none is named), each in a fresh
process of this interpreter with PYTHONHASHSEED=0 (issue 21: identify's path depends on
string hashing), and writes per case the rule-set file identify writes (CASE.yaml) and
its report as JSON (CASE.json: every finding, the unexplained fixtures, the problems,
the counts; the seconds left out, the only field that may differ), with the CPU seconds
of the run (identify and the engine's processes) in CPU.txt. Run it with the base
checkout's interpreter and with this one; `compare` says, case by case, whether the two
folders' files are byte-identical, and exits 1 if any differs.

The cases: three example engines (tests/examples, the rules each declares), bugs on and
off, and random valid rule sets played by the reference engine in-process (one of
double-12, one with a table of its own, one with a mutant's bug).
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
import resource
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ENGINES = ("ninepins", "caboose", "cantina")
CASES = (*(f"{e}-{bugs}" for e in ENGINES for bugs in ("on", "off")),
         "random-d12", "random-own", "mutant-hand-size")


def cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def random_values(seed: int, tile_set: str | None, own: bool) -> dict[str, str]:
    """A valid rule set drawn at random (on `tile_set` if named; a table of its own when
    `own`, as custom:SET where the space has one)."""
    from mtrain.spec.ruleset import CUSTOM
    from mtrain.spec.scope import Space

    space = Space()
    rng = random.Random(seed)
    while True:
        region = {o: frozenset([rng.choice(sorted(vs))]) for o, vs in space.options.items()}
        if tile_set:
            region["tile_set"] = frozenset([tile_set])
        tables = sorted(v for v in space.options["hand_sizes"]
                        if v != CUSTOM and v.startswith(f"{CUSTOM}:") == own)
        region["hand_sizes"] = frozenset(tables)
        values = space.complete(region)
        if values is not None:
            return values


def identify_case(case: str) -> Any:
    """identify's answer for one case (the engine closed after)."""
    from mtrain.conformance.identify import Watched, identify

    if case.startswith(("random-", "mutant-")):
        from mtrain.conformance.serve import FixedRules
        from mtrain.spec.scope import Space

        if case == "mutant-hand-size":
            from mtrain.conformance.mutants import mutant
            return identify(mutant("wrong-hand-size"))
        values = (random_values(49, "double-12", own=False) if case == "random-d12"
                  else random_values(7, None, own=True))
        return identify(FixedRules(Space().ruleset(values)))
    import argparse

    sys.path.insert(0, str(HERE.parent / "tests"))
    import test_house_engines as engines

    from mtrain.conformance.declaration import declared_ruleset
    from mtrain.conformance.target import greet, target_of

    name, bugs = case.rsplit("-", 1)
    engine = getattr(engines, name.upper())
    how, where = engine.target(bugs == "off")
    target = target_of(argparse.Namespace(impl=where if how == "--impl" else None,
                                          adapter=where if how == "--adapter" else None,
                                          timeout=10.0))
    impl = target.make()
    try:
        info, _ = greet(impl, target)
        return identify(Watched(impl), declared=declared_ruleset(info))
    finally:
        close = getattr(impl, "close", None)
        if callable(close):
            close()


def one(case: str, folder: Path) -> None:
    """Record one case in `folder` (run in a process of its own)."""
    from mtrain.spec.catalog import catalog

    began = cpu()
    found = identify_case(case)
    spent = cpu() - began
    (folder / f"{case}.yaml").write_text(found.file_text(catalog()), encoding="utf-8")
    report = dataclasses.asdict(found)
    report.pop("seconds")
    (folder / f"{case}.json").write_text(
        json.dumps(report, indent=1, sort_keys=True, default=str) + "\n", encoding="utf-8")
    with open(folder / "CPU.txt", "a", encoding="utf-8") as out:
        out.write(f"{case} {spent:.1f}\n")
    print(f"{case}: {spent:.1f} CPU s", flush=True)


def record(folder: Path, cases: list[str]) -> int:
    folder.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    for case in cases:
        done = subprocess.run([sys.executable, __file__, "one", case, str(folder)], env=env,
                              check=False)
        if done.returncode != 0:
            print(f"{case}: exited {done.returncode}")
            return 1
    return 0


def compare(a: Path, b: Path) -> int:
    names = sorted({p.name for p in a.iterdir() if p.suffix in (".yaml", ".json")}
                   | {p.name for p in b.iterdir() if p.suffix in (".yaml", ".json")})
    differ = 0
    for name in names:
        left, right = a / name, b / name
        if not left.exists() or not right.exists():
            print(f"{name}: only in {a if left.exists() else b}")
            differ += 1
        elif left.read_bytes() != right.read_bytes():
            print(f"{name}: DIFFERS")
            differ += 1
        else:
            print(f"{name}: identical")
    print(f"{len(names) - differ} of {len(names)} files byte-identical")
    return 1 if differ else 0


def main(argv: list[str]) -> int:
    if argv[:1] == ["one"]:
        one(argv[1], Path(argv[2]))
        return 0
    if argv[:1] == ["record"] and len(argv) >= 2:
        unknown = [c for c in argv[2:] if c not in CASES]
        if unknown:
            print(f"unknown cases {unknown}; the cases: {', '.join(CASES)}")
            return 2
        return record(Path(argv[1]), argv[2:] or list(CASES))
    if argv[:1] == ["compare"] and len(argv) == 3:
        return compare(Path(argv[1]), Path(argv[2]))
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
