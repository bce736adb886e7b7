"""`mtrain variants`: the variants and overlays, option by option."""

from __future__ import annotations

import argparse
from typing import Any

from mtrain.commands.printing import print_json


def register(sub: Any) -> None:
    p = sub.add_parser("variants", help="list the variants and overlays with their options")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from mtrain.spec.catalog import catalog

    cat = catalog()
    out: dict[str, Any] = {"variants": [], "overlays": []}
    for name in cat.variants:
        rs = cat.ruleset(name)
        vf = cat.variants[name]
        out["variants"].append({"name": name, "title": vf.title, "source": list(vf.source),
                                "options": dict(rs.items()),
                                "hand_sizes": {str(n): h for n, h in rs.hand_table}})
    for name, ov in cat.overlays.items():
        out["overlays"].append({"name": name, "title": ov.title, "source": list(ov.source),
                                "applies_to": list(ov.applies_to) if ov.applies_to else "any",
                                "options": ov.options})
    if args.json:
        print_json(out)
        return 0
    from rich.console import Console
    from rich.table import Table

    from mtrain.output import readable

    table = Table(title="Variants", show_lines=False)
    table.add_column("option", overflow="fold")  # folded, never cut to `starting_s…`
    for v in out["variants"]:
        table.add_column(v["name"], overflow="fold")
    for option in cat.options:
        cells = [v["options"][option] for v in out["variants"]]
        style = "bold" if len(set(cells)) > 1 else ""
        table.add_row(option, *cells, style=style)
    ovt = Table(title="Overlays")
    for col in ("overlay", "sets", "applies to", "title"):
        ovt.add_column(col, overflow="fold")
    for o in out["overlays"]:
        sets = ", ".join(f"{k}={v}" for k, v in o["options"].items())
        applies = o["applies_to"] if isinstance(o["applies_to"], str) else ", ".join(
            o["applies_to"])
        ovt.add_row(o["name"], sets, applies, o["title"])
    console = readable(Console())
    console.print(table)
    console.print(ovt)
    return 0
