"""`mtrain explain CLAUSE`: one clause, its text, sources, options and decision."""

from __future__ import annotations

import argparse
from typing import Any

from mtrain.commands.printing import print_json


def register(sub: Any) -> None:
    p = sub.add_parser("explain", help="show one clause: text, sources, options")
    p.add_argument("clause", help="a clause id, e.g. DBL-6")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from mtrain.spec.catalog import catalog
    from mtrain.spec.errors import InputError, shown

    cat = catalog()
    # `dbl-6` and ` DBL-6 ` (pasted with the space around it) name DBL-6: an id is one word
    wanted = args.clause.strip().upper()
    clause = cat.clauses.get(wanted)
    if clause is None:
        from mtrain.reference.invariants import CHECKS

        if wanted in CHECKS:  # an id from a failure's message: an invariant, not a rule
            raise InputError(f"{wanted} is an invariant (spec/data/invariants.yaml: a truth "
                             "of every state), not a clause: `mtrain explain` shows the rules' "
                             "clauses; the invariant's text is in that file")
        near = [c for c in cat.clauses if c.split("-")[0] == wanted.split("-")[0]]
        groups = dict.fromkeys(c.split("-")[0] for c in cat.clauses)  # in the spec's order
        # ("unknown clause ''" of an unset shell variable, or of `dbl6`, named no clause)
        hint = (f"; clauses of that group: {', '.join(near)}" if near else
                f"; a clause id is a group and a number, as DBL-6; the groups: "
                f"{', '.join(groups)}")
        raise InputError(f"unknown clause {shown(args.clause)}{hint}")
    where = [name for name in cat.variants if clause.applies(cat.ruleset(name))]
    data = {
        "id": clause.id, "title": clause.title, "text": clause.text,
        "sources": list(clause.sources), "decision": clause.decision,
        "origin": clause.origin,
        "when": {o: sorted(v) for o, v in clause.when.items()},
        "requires": {o: sorted(v) for o, v in clause.requires.items()},
        "answers": list(clause.answers), "applies_to_variants": where,
    }
    if args.json:
        print_json(data)
        return 0
    print(f"{clause.id}  {clause.title}")
    print(f"  {clause.text}")
    print(f"  sources: {', '.join(clause.sources)}")
    if clause.decision:
        print(f"  decision: {clause.decision}")
    if clause.origin:
        print(f"  where from: {clause.origin}")
    conds = "; ".join(f"{o} in {{{', '.join(sorted(v))}}}" for o, v in clause.when.items())
    print(f"  applies when: {conds or 'always'}")
    if clause.requires:
        req = "; ".join(f"{o} in {{{', '.join(sorted(v))}}}" for o, v in clause.requires.items())
        print(f"  requires: {req}")
    if clause.answers:
        print(f"  answers RULES.md questions: {', '.join(map(str, clause.answers))}")
    print(f"  shipped variants: {', '.join(where) or 'none (overlays only)'}")
    return 0
