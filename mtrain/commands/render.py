"""`mtrain render ID`: one fixture's table drawn as SVG."""

from __future__ import annotations

import argparse
from typing import Any

from mtrain.commands.arguments import path_for_an_id
from mtrain.commands.printing import write_or_print


def register(sub: Any) -> None:
    p = sub.add_parser("render", help="draw a fixture's table as SVG")
    p.add_argument("fixture", help="a fixture id")
    p.add_argument("--variant", help="which of its rule sets (default: the first)")
    p.add_argument("--fixtures", help="a fixture file or folder (default: the corpus)")
    p.add_argument("--out", help="write the SVG here (default: standard output)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from mtrain.conformance.fixture import duplicate_ids, load_corpus
    from mtrain.conformance.outputs import check_output
    from mtrain.docgen import Docs
    from mtrain.spec.errors import InputError, written_otherwise

    if args.out:
        check_output(args.out, "--out", inputs=[("--fixtures", args.fixtures)])
    docs = Docs()
    if args.fixtures:
        docs.fixtures, errors = load_corpus(args.fixtures)
        errors += duplicate_ids(docs.fixtures)
        if errors:
            raise InputError(str(errors[0]))
    fx = next((f for f in docs.fixtures if f.id == args.fixture), None)
    if fx is None:  # (an id in capitals is the slip most likely: said as such)
        raise InputError(f"no fixture {args.fixture!r}"
                         f"{written_otherwise(args.fixture, (f.id for f in docs.fixtures))}"
                         f"{path_for_an_id(args.fixture)}")
    entries = list(fx.rulesets())
    if args.variant:
        entries = [(n, e) for n, e in entries if n == args.variant]
        if not entries:
            named = ", ".join(n for n, _ in fx.rulesets())
            raise InputError(f"{fx.id} names no rule set {args.variant!r}; it names {named}")
    name, exp = entries[0]
    scene = docs.scene(fx, name, exp)
    if scene is None:  # the state command's words for why, at the fixture's line
        from mtrain.commands.state import state_after
        from mtrain.conformance.runner import resolve
        state_after(fx, resolve(name), None)
        raise InputError(f"{fx.id} cannot be set up under {name}")
    rel = docs.picture(scene)
    return write_or_print(docs.files[rel], args.out)
