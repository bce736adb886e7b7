"""Where the fixture corpus is thin: fixtures per tile set and player count, per clause
and tile set, and per blank value for blocked rounds.

    python benchmarks/corpus_thin.py [--fixtures PATH] [--below N] [--json]

A fixture counts for a tile set in two ways: `worked`, when a rule set its entries name
(`variants`) is on that set, so that its author worked the expected values out there;
`held`, when an entry's scope (variants and `when`) holds a valid rule set on that set,
so that it runs there. Player counts are the table's seats or the deal's players. A
clause counts for a set where the fixture names it and some rule set of the scope on that
set is one where the clause applies. Blocked rounds: fixtures whose entries expect a
blocked end (`result.end: blocked`) or `blocked_scores`, per blank value the scope holds.
Prints the cells with fewer than `--below` fixtures (default 3), and how many values the
written `when` conditions list that no rule set of their condition takes (dead text that
`mtrain lint --write-scopes` no longer writes: 0 once the corpus's scopes are written
again, except a fixture too wide to partition, whose scope is never rewritten). Not a test: a survey
to run by hand (a few seconds: no engine runs, only the option space's completions).
"""

from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict
from collections.abc import Iterable

from mtrain.conformance.fixture import Expectation, Fixture, load_corpus
from mtrain.spec.catalog import catalog
from mtrain.spec.scope import Region, Space, values_of


def players_of(fx: Fixture) -> int | None:
    if fx.deal is not None:
        n = fx.deal.get("players")
        return n if isinstance(n, int) else None
    hands = (fx.table or {}).get("hands")
    return len(hands) if isinstance(hands, dict) else None


def held(space: Space, exp: Expectation, fixed: Region) -> bool:
    """Whether the entry's scope holds a valid rule set inside `fixed`."""
    for region in exp.scope.regions():
        both = space.intersect(region, fixed)
        if both is not None and space.complete(both) is not None:
            return True
    return False


def survey(fixtures: Iterable[Fixture], space: Space) -> dict[str, Counter[tuple[str, ...]]]:
    cat = space.cat
    sets = space.options["tile_set"]
    blanks = space.options["blank_values"]
    worked: Counter[tuple[str, ...]] = Counter()
    held_sp: Counter[tuple[str, ...]] = Counter()
    clause_set: Counter[tuple[str, ...]] = Counter()
    blocked: Counter[tuple[str, ...]] = Counter()
    for fx in fixtures:
        n = str(players_of(fx))
        named_sets = {values_of(cat, cat.ruleset(v))["tile_set"]
                      for e in fx.expect for v in e.variants}
        for s in named_sets:
            worked[(s, n)] += 1
        on: dict[str, list[Expectation]] = defaultdict(list)
        for s in sets:
            for e in fx.expect:
                if held(space, e, {"tile_set": frozenset((s,))}):
                    on[s].append(e)
        for s, entries in on.items():
            held_sp[(s, n)] += 1
            for cid in fx.clauses:
                clause = cat.clauses.get(cid)
                if clause is None:
                    continue
                where = {"tile_set": frozenset((s,)), **clause.when}
                if any(held(space, e, where) for e in entries):
                    clause_set[(cid, s)] += 1
            ends_blocked = [e for e in entries if e.blocked_scores is not None or (
                isinstance(e.result, dict) and e.result.get("end") == "blocked")]
            for b in blanks:
                if any(held(space, e, {"tile_set": frozenset((s,)),
                                       "blank_values": frozenset((b,))})
                       for e in ends_blocked):
                    blocked[(b, s)] += 1
    return {"worked": worked, "held": held_sp, "clause_set": clause_set, "blocked": blocked}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--fixtures", default=None, help="a fixture file or folder")
    parser.add_argument("--below", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    fixtures, errors = load_corpus(args.fixtures)
    if errors:
        raise SystemExit("\n".join(str(e) for e in errors))
    space = Space(catalog())
    found = survey(fixtures, space)
    sets = space.options["tile_set"]
    if args.json:
        print(json.dumps({k: {"/".join(key): n for key, n in c.items()}
                          for k, c in found.items()}, indent=1))
        return
    counts = sorted({int(n) for _, n in found["held"] if n != "None"})
    print(f"{len(fixtures)} fixtures; per tile set and players, held (worked):")
    print("set        " + " ".join(f"{n:>8}" for n in counts))
    for s in sets:
        print(f"{s:<10} " + " ".join(
            f"{found['held'][(s, str(n))]:>4}({found['worked'][(s, str(n))]:>2})"
            for n in counts))
    cat = space.cat
    thin = []
    for cid, clause in cat.clauses.items():
        for s in sets:
            if space.complete({"tile_set": frozenset((s,)), **clause.when}) is None:
                continue  # the clause applies to no rule set on the set
            if found["clause_set"][(cid, s)] < args.below:
                thin.append(f"{cid}@{s}:{found['clause_set'][(cid, s)]}")
    print(f"\nclause x set cells with fewer than {args.below} fixtures ({len(thin)}):")
    print("  " + " ".join(thin))
    dead = sum(1 for fx in fixtures for exp in fx.expect for product, _ in exp.conditions
               for o, vs in product.region().items() for v in vs
               if space.complete({**product.region(), o: frozenset((v,))}) is None)
    conditions = sum(len(exp.conditions) for fx in fixtures for exp in fx.expect)
    print(f"\nwritten `when` values no rule set of their condition takes: {dead} "
          f"(in {conditions} conditions)")
    print("\nblocked rounds per blank value and set (fixtures):")
    for b in space.options["blank_values"]:
        print(f"  {b:<16} " + " ".join(f"{s.removeprefix('double-')}:{found['blocked'][(b, s)]}"
                                       for s in sets))


if __name__ == "__main__":
    main()
