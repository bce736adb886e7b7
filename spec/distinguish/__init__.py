"""Situations that tell two rule sets apart, found by z3 and written as fixtures.

For every pair of shipped variants, and for every pair of values of every option, z3
searches for the smallest well-formed situation in which the two rule sets disagree.
Most options change which actions are legal, and for them the situation is a table
whose legal-action sets differ (spec/model/legality.py is the formalisation). The others act
elsewhere, and each has its own small question:

=====================  =======================================================
kind                   options, and what differs
=====================  =======================================================
``legal``              tile_set, first_turn, mexican_first_turn, own_train_first,
                       follow_up, double_order, uncoverable_double, draw_rule:
                       the legal actions of one table
``doubles``            doubles: the seat and phase after a double is laid
``marker``             marker_removal: the markers after one legal play
``blocked``            blocked_round: whether a pass on an empty boneyard ends
                       the round
``score``              scoring, blank_values: the scores when a player goes out
``tie``                tie_rule: the match winners when the last round ends
``match``              match_length: whether the match is over when round 1 ends
``deal``               hand_sizes, engine_procedure, starting_seat: the table
                       right after the deal
=====================  =======================================================

A pair of values is asked under two rule sets that can be written as a variant plus
overlays (fixtures name rule sets that way), chosen to differ in as few options as
possible besides the one asked about, among the options that can matter to the kind.

Every z3 question runs in a fresh solver with a fixed random seed and a resource limit
(`rlimit`, deterministic) rather than a wall-clock timeout; an ``unknown`` answer is an
error. The witness is realised as a concrete table in the fixture notation (real tiles
reaching the required open ends, `rest` for the others), and the expectations of both
sides are computed by evaluating the same formalisation on that table (for the legal
kind, z3's own evaluation of the abstract model is checked against it).

Modules: question (questions, situations, the two sides), rule_set_pairs (the rule sets
a question is asked under), z3_harness (how z3 is asked), solve_table, solve_round_end
and solve_deal (one per group of kinds), scoring (SCORE and MATCH as formulas), realise
(witness to table), fixture_writer (situations to fixture text); this module asks every
question of the generated corpus and writes it.

    python -m mtrain.spec.distinguish --write     regenerate conformance/fixtures/generated/
    python -m mtrain.spec.distinguish --check     exit 1 if the files are stale
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import z3

from mtrain.spec.catalog import Catalog, catalog
from mtrain.spec.distinguish.fixture_writer import render_files, without_scopes
from mtrain.spec.distinguish.question import (
    KIND,
    RELEVANT,
    DistinguishError,
    Question,
    Situation,
    make_question,
)
from mtrain.spec.distinguish.realise import realise
from mtrain.spec.distinguish.rule_set_pairs import choose_pair
from mtrain.spec.distinguish.solve_deal import solve_deal
from mtrain.spec.distinguish.solve_round_end import (
    solve_blocked,
    solve_match,
    solve_score,
    solve_tie,
)
from mtrain.spec.distinguish.solve_table import solve_doubles, solve_legal, solve_marker
from mtrain.spec.distinguish.z3_harness import (
    QUERY_LOG,
    RLIMIT,
    SLOTS,
    as_bool,
    common_top,
    wide_top,
)
from mtrain.spec.model.legality import NO_SLOT, Count, Opts, legal_table
from mtrain.spec.model.symbolic import Symbolic
from mtrain.spec.ruleset import Ruleset

__all__ = [
    "GENERATED_DIR",
    "KIND",
    "DistinguishError",
    "Question",
    "Situation",
    "generate",
    "make_question",
    "probe",
    "questions",
    "realise",
    "render_files",
    "situation_for",
    "wide_top",
    "without_scopes",
    "written_files",
]

GENERATED_DIR: Final = (Path(__file__).resolve().parents[2]
                         / "conformance" / "fixtures" / "generated")
"""Where the generated fixtures live (the source tree, not the editable install's links)."""


SOLVERS: dict[str, Callable[[Question], Situation | None]] = {
    "legal": solve_legal,
    "marker": solve_marker,
    "score": solve_score,
    "tie": solve_tie,
    "match": solve_match,
    "blocked": solve_blocked,
    "deal": solve_deal,
    "doubles": solve_doubles,
}
"""The search that answers each kind of question."""


def situation_for(q: Question) -> Situation | None:
    """The smallest situation of the question's kind, or None when there is none."""
    t0 = time.perf_counter()
    solver = SOLVERS[q.kind]
    found = solver(q)
    if found is not None:
        found.seconds = time.perf_counter() - t0
        if found.attributed is None and q.attribute:
            found.attributed = True
    return found


# -- the generated corpus ----------------------------------------------------------------


def questions(cat: Catalog | None = None) -> list[Question]:
    """Every question the generated corpus answers, in the order of its ids.

    Each pair of values of each option (options.yaml order), asked under the best pair
    of nameable rule sets that has an answer; then each pair of shipped variants.
    """
    cat = cat or catalog()
    out = []
    for option, opt in cat.options.items():
        for v1, v2 in itertools.combinations(opt.values, 2):
            for a, b in choose_pair(option, v1, v2)[:1]:
                q = make_question(a, b, option, cat=cat)
                others = [o for o in RELEVANT[q.kind] if o != option
                          and q.options("a")[o] != q.options("b")[o]]
                if others:
                    q = make_question(a, b, option, attribute=True, cat=cat)
                out.append(q)
    for a, b in itertools.combinations(cat.variants, 2):
        out.append(make_question(a, b, None, cat=cat))
    return out


def answer(q: Question) -> Situation | None:
    """The situation for a corpus question: the best pair first, then the next ones."""
    found = situation_for(q)
    if found is not None or q.option is None:
        return found
    v1, v2 = q.options("a")[q.option], q.options("b")[q.option]
    for a, b in choose_pair(q.option, v1, v2)[1:]:
        found = situation_for(make_question(a, b, q.option, attribute=q.attribute))
        if found is not None:
            return found
    return None


@dataclass
class Generated:
    files: dict[str, str]
    situations: list[Situation]
    missing: list[Question]
    seconds: float


def generate(cat: Catalog | None = None) -> Generated:
    """Every generated fixture file (name -> text), deterministic."""
    cat = cat or catalog()
    t0 = time.perf_counter()
    found: list[Situation] = []
    missing: list[Question] = []
    for q in questions(cat):
        s = answer(q)
        if s is None:
            missing.append(q)
        else:
            found.append(s)
    files = render_files(found)
    return Generated(files, found, missing, time.perf_counter() - t0)


def stale_files(generated: Mapping[str, str], written: Mapping[str, str]) -> list[str]:
    """Generated files that differ from the written ones (scopes aside)."""
    return sorted(n for n in set(generated) | set(written)
                  if generated.get(n) != without_scopes(written.get(n, "")))


def written_files(folder: Path = GENERATED_DIR) -> dict[str, str]:
    if not folder.is_dir():
        return {}
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.yaml"))}


def write(files: Mapping[str, str], folder: Path = GENERATED_DIR) -> list[str]:
    """Write the files; remove generated files that are no longer produced."""
    folder.mkdir(parents=True, exist_ok=True)
    for p in folder.glob("*.yaml"):
        if p.name not in files:
            p.unlink()
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return sorted(files)


def check_job() -> dict[str, Any]:
    """For `mtrain check`: regenerate, compare with the written files; one check.

    In the shape of conformance/speccheck/run.py's jobs: {"checks": [...], "summary": {...}}. The
    check
    fails when a generated file is stale or a pair of values has no situation.
    """
    t0 = time.perf_counter()
    start = len(QUERY_LOG)
    gen = generate()
    written = written_files()
    stale = stale_files(gen.files, written)
    findings = [{"message": f"{s.question.option or 'variants'}: {s.question.a} / "
                            f"{s.question.b}: {s.summary}", "clauses": s.clauses}
                for s in gen.situations]
    findings += [{"message": f"{q.option}: {q.a} / {q.b}: NO situation found", "clauses": []}
                 for q in gen.missing]
    findings += [{"message": f"stale generated file {n}: run python -m "
                             "mtrain.spec.distinguish --write", "clauses": []} for n in stale]
    queries = QUERY_LOG[start:]
    largest = max((u for _, u in queries), default=0)
    status = "fail" if stale or gen.missing else "pass"
    check = {"name": "distinguishing-situations", "status": status,
             "seconds": round(time.perf_counter() - t0, 4), "findings": findings}
    return {"checks": [check], "summary": {"distinguishing": {
        "situations": len(gen.situations), "missing": len(gen.missing), "stale": stale,
        "z3_queries": len(queries), "largest_rlimit": largest, "rlimit": RLIMIT}}}


# -- probes: situations with chosen features, to compare an engine with the formalisation --


PROBE_FEATURES: Final = ("duty", "drawn", "first", "exhausted", "bone_empty", "marked",
                         "own_empty", "two_doubles")



def probe(options: Mapping[str, str], phase: str, features: Mapping[str, bool],
          seed: int = 0) -> tuple[dict[str, Any], set[str]] | None:
    """A well-formed table under `options` with the given phase and features, and its
    legal actions by the formalisation; None when no such situation exists.

    Features (each true or false): ``duty`` an open double binds the mover (DBL-6),
    ``drawn`` a tile was just drawn, ``first`` the mover's first turn, ``exhausted`` some
    open double's number is all on the table, ``bone_empty``, ``marked`` some train is
    marked, ``own_empty`` the mover's train is empty, ``two_doubles`` two open doubles.
    """
    from mtrain.spec.model.legality import PHASE_NAMES, duty

    o = Opts(values=options)
    top = common_top(options)
    sym = Symbolic(SLOTS, 3, max_number=top)
    v, ctx = sym.view, sym.ctx
    s = z3.SimpleSolver(ctx=ctx)
    s.set("random_seed", seed)
    s.set("rlimit", RLIMIT)
    s.add(*sym.structure(wide_top(top)), *sym.well_formed(o))
    s.add(v.phase == PHASE_NAMES.index(phase))
    has = {
        "duty": as_bool(duty(v, o), ctx),
        "drawn": v.drawn != NO_SLOT,
        "first": v.first_pending,
        "exhausted": z3.Or(*(t.ex_lo for t in v.trains)),
        "bone_empty": v.bone_empty,
        "marked": z3.Or(*(t.marked for t in v.trains)),
        "own_empty": as_bool(v.own_field("empty"), ctx),
        "two_doubles": Count(t.dbl for t in v.trains) >= 2,
    }
    for name, want in features.items():
        s.add(has[name] if want else z3.Not(has[name]))
    r = s.check()
    if r == z3.unsat:
        return None
    if r != z3.sat:
        raise DistinguishError(f"z3 answered {r} for a probe: {s.reason_unknown()}")
    w = sym.decode(s.model())
    table = realise(w, top=top)
    rs = Ruleset(name="probe", choices=tuple(options.items()), hand_table=((2, 1),))
    return table, legal_table(table, rs)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mtrain.spec.distinguish",
                                     description=__doc__.split("\n\n")[0] if __doc__ else "")
    parser.add_argument("--write", action="store_true", help="write the generated fixtures")
    parser.add_argument("--check", action="store_true", help="exit 1 if the files are stale")
    parser.add_argument("--json", action="store_true", help="print the situations as JSON")
    args = parser.parse_args(argv)
    gen = generate()
    if args.json:
        json.dump({"situations": [s.to_json() for s in gen.situations],
                   "missing": [{"option": q.option, "a": q.a, "b": q.b} for q in gen.missing],
                   "seconds": round(gen.seconds, 3), "z3_version": z3.get_version_string()},
                  sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        for s in gen.situations:
            label = s.question.option or "variants"
            print(f"{s.seconds:6.2f}s  {label}: {s.question.a} / {s.question.b}: {s.summary}")
        for q in gen.missing:
            print(f"   none  {q.option}: {q.a} / {q.b}: no single situation tells them apart")
        most = max(QUERY_LOG, key=lambda x: x[1], default=("-", 0))
        print(f"{len(gen.situations)} situations, {len(gen.missing)} without one, "
              f"{gen.seconds:.1f}s; {len(QUERY_LOG)} z3 queries, the largest {most[1]:,} "
              f"rlimit units of {RLIMIT:,} ({most[0]})")
    if args.write:
        names = write(gen.files)
        print(f"wrote {len(names)} files under {GENERATED_DIR}")
    if args.check:
        stale = bool(stale_files(gen.files, written_files()))
        print("generated fixtures are " + ("STALE" if stale else "up to date"))
        return 1 if stale else 0
    return 0
