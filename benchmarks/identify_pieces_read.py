"""What reading the corpus's stored pieces costs an identify process (issue 20): every tile
set's decoded, as before, against the measured set's alone (cells.corpus_pieces with
`tile_set`), in fresh processes taken in turn (interleaved), CPU seconds of the read with
the machine's load beside each; and that the pieces identify keeps (cells.narrowed under
the set) are the same either way.

    python benchmarks/identify_pieces_read.py [--set double-11] [--rounds 3] [--entry NAME]

The pieces are read from the cache entry `--entry` names (default: the one shipped with
the package, conformance/shipped/identify-pieces.json, which a first identify reads and
keeps in the cache), for the fixtures of the corpus it holds; nothing is explored, and
nothing is written to it.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    return own.ru_utime + own.ru_stime


def child(entry: str, tile_set: str, whole: bool) -> dict[str, Any]:
    """One read in this (fresh) process: its CPU seconds, the pieces decoded, and a
    digest of what narrowed keeps of them."""
    import hashlib

    from mtrain.conformance.fixture import load_corpus
    from mtrain.conformance.identify import cells
    from mtrain.conformance.lint.scopes import fixture_digest
    from mtrain.spec import cache
    from mtrain.spec.scope import Space

    space = Space()
    fixtures, _ = load_corpus()
    stored = cache.read(cells.KIND, entry)
    if not isinstance(stored, dict):
        raise SystemExit(f"no cache entry {entry}: run identify once (it keeps the shipped one)")
    # (the fixtures the entry held in the first read of the run: the same in every read,
    # though another process may add to the entry meanwhile)
    listed = Path(os.environ["PIECES_READ_FIXTURES"])
    if not listed.exists():
        listed.write_text("\n".join(fx.id for fx in fixtures if fixture_digest(fx) in stored))
    ids = set(listed.read_text().split())
    mine = [fx for fx in fixtures if fx.id in ids and fixture_digest(fx) in stored]
    del stored
    cells._entry_name = lambda space: entry  # type: ignore[assignment]  # (the entry named)
    began = cpu()
    pieces = cells.corpus_pieces(mine, space, tile_set=None if whole else tile_set)
    took = cpu() - began
    allowed = {"tile_set": frozenset([tile_set])}
    kept = hashlib.sha256()
    for fx in mine:
        for p in cells.narrowed(fx, pieces[fx.id], allowed, space, None):
            kept.update(repr((sorted((o, sorted(vs)) for o, vs in p.region.items()),
                              p.outcomes, p.read)).encode())
    return {"cpu": took, "pieces": sum(len(v) for v in pieces.values()),
            "fixtures": len(mine), "kept": kept.hexdigest()}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--set", default="double-11", help="the tile set measured (dolly's)")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--entry", help="the cache entry's name (default: the shipped one's)")
    p.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child:
        entry, tile_set, whole = args.child
        print(json.dumps(child(entry, tile_set, whole == "whole")))
        return
    entry = args.entry or json.loads(
        (ROOT / "conformance" / "shipped" / "identify-pieces.json").read_text())["name"]
    import tempfile
    listed = Path(tempfile.mkdtemp()) / "fixtures"
    os.environ["PIECES_READ_FIXTURES"] = str(listed)
    seen: dict[str, list[float]] = {"every set": [], "the set alone": []}
    digests = set()
    for r in range(args.rounds):
        for label, how in (("every set", "whole"), ("the set alone", "set")):
            out = subprocess.run([sys.executable, __file__, "--child", entry, args.set, how],
                                 capture_output=True, text=True, check=True)
            got = json.loads(out.stdout.strip().splitlines()[-1])
            seen[label].append(got["cpu"])
            digests.add(got["kept"])
            print(f"round {r + 1} {label:<14} {got['cpu']:.2f} CPU s, {got['pieces']:,} "
                  f"pieces decoded of {got['fixtures']} fixtures, load "
                  f"{os.getloadavg()[0]:.1f}", flush=True)
    for label, runs in seen.items():
        print(f"{label:<14} min {min(runs):.2f} CPU s, median {sorted(runs)[len(runs) // 2]:.2f}")
    print("the pieces kept (narrowed to the set) are "
          + ("the same" if len(digests) == 1 else "DIFFERENT") + " either way")
    if len(digests) != 1:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
