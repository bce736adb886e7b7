"""`mtrain docs [--check]`: the generated documentation written, or checked for staleness."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any


def register(sub: Any) -> None:
    p = sub.add_parser("docs", help="write docs/ from the spec and the fixtures")
    p.add_argument("--check", action="store_true", help="exit 1 if docs/ is stale")
    p.add_argument("--out", default="docs", help="the docs folder (default: docs)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from mtrain import docgen
    from mtrain.conformance.outputs import check_output, check_output_folder
    from mtrain.spec.errors import InputError

    out = Path(args.out)
    if args.check:  # compared, not written (a folder missing: every page stale)
        check_output(args.out, "--out", folder=True)
    else:  # tried before minutes of computing, as fuzz's --out is: made as named, or refused
        check_output_folder(args.out, "--out")

    def log(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    try:
        files = docgen.generate(out, compute=not args.check, log=log)
    except ValueError as e:
        raise InputError(str(e)) from None
    if args.check:
        bad = docgen.stale(out, files)
        if not out.exists():  # said once, not as two thousand lines `stale: ...`
            print(f"stale: {out}: no such folder, so every generated file is missing (the "
                  f"docs folder misspelt? `mtrain docs --out {args.out}` writes them)")
        for path in bad if out.exists() else ():
            print(f"stale: {out / path}")
        print(f"{len(files)} generated files, {len(bad)} stale"
              + ("; run `mtrain docs` to rebuild" if bad else ""))
        return 1 if bad else 0
    try:
        count = docgen.write(out, files)
    except OSError as e:
        raise InputError(f"--out {args.out}: {e.strerror or e}") from None
    print(f"wrote {count} files under {out}")
    return 0
