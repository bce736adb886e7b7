"""`mtrain situations NAME|FILE`: the situations from play that `mtrain conform` runs
under one rule set, written out as fixtures."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from mtrain.commands.arguments import pattern, resolve, whole
from mtrain.commands.printing import write_or_print
from mtrain.conformance.defaults import SITUATIONS_MAX


def register(sub: Any) -> None:
    p = sub.add_parser("situations", help="tables from play under one rule set, as fixtures",
                       description="Write out the situations from play that `mtrain conform` "
                       "runs under a rule set: tables reached by random rounds of it, each "
                       "with the legal set spec/model/legality.py gives it, in the fixture format.")
    p.add_argument("ruleset", nargs="?",
                   help="a variant, base+overlay+..., or a rule-set file")
    p.add_argument("-n", dest="count", type=whole(1, SITUATIONS_MAX), default=None,
                   help="how many (default: as many as conform runs for one rule set; at "
                   f"most {SITUATIONS_MAX:,})")
    # conform's name for the count, which its rerun line gives: an id of a run whose count
    # was raised is reached only among as many
    p.add_argument("--situations", dest="count", type=whole(1, SITUATIONS_MAX),
                   default=None, metavar="N", help="the same as -n, as conform names it")
    p.add_argument("-k", dest="pattern", action="append", metavar="PATTERN", type=pattern,
                   help="only situations whose id contains PATTERN or matches it as a glob")
    p.add_argument("--out", help="write the fixtures here (default: standard output); an "
                   "existing file only with --force")
    p.add_argument("--force", action="store_true",
                   help="with --out: replace the file if it exists")
    p.add_argument("--shipped", action="store_true",
                   help="instead, make the situations of a default `mtrain conform` and "
                   "write them into the package (conformance/shipped/), whence a first run "
                   "reads them while the code that made them is unchanged; with them, "
                   "the shipped corpus's pieces a first `mtrain identify` reads and its scope "
                   "checks a first `mtrain lint` reads")
    p.add_argument("--check", action="store_true",
                   help="with --shipped: make them and exit 1 if the shipped files differ")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from mtrain.conformance.defaults import SITUATIONS
    from mtrain.conformance.outputs import check_output
    from mtrain.conformance.selection import id_matches
    from mtrain.conformance.situation_files import render
    from mtrain.conformance.situations import situations
    from mtrain.spec.catalog import catalog
    from mtrain.spec.errors import InputError, UsageError

    if args.shipped or args.check:
        return _shipped(args)
    if args.ruleset is None:
        raise UsageError("name a rule set (a variant, base+overlay+..., or a rule-set "
                         "file), or give --shipped")
    if args.force and not args.out:
        raise UsageError("--force goes with --out")
    if args.out:
        check_output(args.out, "--out", inputs=[("the rule set", args.ruleset)])
        # the fixture format is also the corpus's: a hand-worked fixture file named by a
        # slip would be lost to generated tables, so an existing file is replaced on request
        if Path(args.out).is_file() and not args.force:
            raise InputError(f"--out {args.out}: the file exists; give --force to replace it")
    rs = resolve(catalog(), args.ruleset)
    # no -k: every situation, asked as conform asks them (wanted None), so that the list is
    # read from the cache when kept there, and kept when made
    patterns = args.pattern or []
    made = situations(rs, SITUATIONS if args.count is None else args.count,
                      (lambda fid: id_matches(fid, patterns)) if patterns else None)
    if not made:
        raise InputError("no situation matches -k " + " ".join(args.pattern or []))
    return write_or_print(render(made, rs), args.out)


def _shipped(args: argparse.Namespace) -> int:
    from mtrain.conformance import shipped
    from mtrain.conformance.identify.shipped_pieces import PIECES
    from mtrain.conformance.lint.shipped_scopes import SCOPES
    from mtrain.conformance.situation_shipping import (
        default_asks,
        explorations,
        explorations_named,
        stale,
        write,
    )
    from mtrain.spec.errors import InputError, UsageError

    if not args.shipped:
        raise UsageError("--check goes with --shipped")
    if args.ruleset is not None or args.count is not None or args.pattern or args.out \
            or args.force:
        raise UsageError("--shipped makes the situations of a default run: no rule set, "
                         "-n, -k nor --out (nor --force)")
    where = shipped.folder()
    if where is None:
        raise InputError(f"{shipped.SHIPPED_ENV} is off: no folder to write or check")
    asks = default_asks()
    if args.check:  # (the explorations by name and fixtures: ShippedEntry.stale says why)
        pieces_name, scopes_name, fixtures = explorations_named()
        problems = (stale(where, asks) + PIECES.stale(where, pieces_name, fixtures)
                    + SCOPES.stale(where, scopes_name, fixtures))
        for line in problems:
            print(f"stale: {line}")
        print(f"{len(asks)} rule sets' situations, shipped in {where}: "
              + ("stale; run `mtrain situations --shipped` to make them again"
                 if problems else "current"))
        return 1 if problems else 0
    (pieces_name, pieces), (scopes_name, scopes) = explorations()
    try:
        count, index, payload = write(where, asks)
        written = [(PIECES, PIECES.write(where, pieces_name, pieces), len(pieces)),
                   (SCOPES, SCOPES.write(where, scopes_name, scopes), len(scopes))]
    except OSError as e:
        raise InputError(f"{where}: {e.strerror or e}") from None
    print(f"wrote {where / shipped.INDEX} ({index:,} bytes) and {shipped.PAYLOAD} "
          f"({payload:,} bytes): {count} rule sets' situations")
    for kind, (index_bytes, payload_bytes), covered in written:
        print(f"wrote {where / kind.index} ({index_bytes:,} bytes) and {kind.payload} "
              f"({payload_bytes:,} bytes): {kind.what} of {covered} fixtures")
    return 0
