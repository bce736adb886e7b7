"""identify's confidence, measured over the whole calibration (the tests run samples).

    python benchmarks/identify_calibration.py [--engines 40] [--mutants] [--seed 2026]

Draws the engines of tests/calibration.py (the reference playing rules of its own: hand
tables of their own, one to three options played `other`, bugs of the mutants catalogue
switched on), runs identify on each against the whole corpus, and judges every option
found against what is served, as tests/calibration.py says. With --mutants, every mutant
of the catalogue too, each on a shipped variant in turn. Prints a line per engine, the
values found wrong by their confidence, the mean right out of 16, the CPU seconds and the
machine's load. Exits 1 when a wrong value is `sure` or `measured` (the calibration's
rule), or when fewer than 15 of 16 are right on average.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from measure import load

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from calibration import CONFIDENT, mutant_cases, random_cases, run_cases, summary

from mtrain.conformance.mutants import MUTANTS


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engines", type=int, default=40)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--mutants", action="store_true", help="every mutant as well")
    args = parser.parse_args()
    cases = random_cases(args.engines, seed=args.seed)
    if args.mutants:
        cases += mutant_cases(sorted(MUTANTS))
    began = time.process_time()
    with tempfile.TemporaryDirectory() as tmp:
        verdicts, wrong = run_cases(cases, Path(tmp))
    cpu = time.process_time() - began
    print(summary(verdicts, wrong))
    print(f"{len(cases)} engines in {cpu:.1f} CPU s ({cpu / len(cases):.2f} each); {load()}")
    mean = sum(v.exact for v in verdicts) / len(verdicts)
    failed = any(wrong[c] for c in CONFIDENT) or mean < 15
    print("calibration:", "FAILED" if failed else "holds")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
