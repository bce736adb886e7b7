"""`mtrain state ID`: a fixture's table written out as the full canonical state (every
tile of the set placed: hands, trains, boneyard), wrapped in the protocol request an
engine is asked about it, one JSON line ready to paste into `mtrain serve` or into one's
own engine. The fixture notation writes a small table; the protocol carries all of it."""

from __future__ import annotations

import argparse
import json
from typing import Any

from mtrain.commands.arguments import integer, path_for_an_id, why_missing
from mtrain.commands.printing import write_or_print

KINDS = ("legal", "apply", "winners", "score", "state")


def register(sub: Any) -> None:
    p = sub.add_parser(
        "state", help="write a fixture's table as a protocol request (or state) to paste",
        description="Write the full canonical state of a fixture's table, as the reference "
        "engine sets it up and plays its steps, inside the protocol request named by --as "
        "(default: legal), as one JSON line: paste it into `mtrain serve` to see the "
        "reference's answer, or into your own engine.")
    p.add_argument("fixture", help="a fixture id (e.g. marker-001)")
    p.add_argument("--fixtures", metavar="PATH",
                   help="a fixture file or folder (default: the shipped corpus)")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--variant", help="the rule set (default: the first the fixture names)")
    which.add_argument("--rules", metavar="FILE", help="the rule set of a rule-set file")
    p.add_argument("--steps", type=integer, default=None, metavar="N",
                   help="the state after the fixture's first N steps (default: after all "
                   "of them, the state its expectations speak about; 0: its table)")
    p.add_argument("--as", dest="kind", choices=KINDS, default="legal",
                   help="the request to write (`state`: the state alone, indented)")
    p.add_argument("--action", metavar="TEXT",
                   help="with --as apply: the action in the fixtures' notation, e.g. "
                   "\"play 4-2 on 2\" or draw")
    p.add_argument("--out", metavar="FILE", help="write here (default: standard output)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from mtrain.conformance.adapter import ruleset_json
    from mtrain.conformance.outputs import check_output
    from mtrain.spec.errors import InputError, UsageError
    from mtrain.spec.notation import FixtureError, action_json, max_pip_of

    if args.out:
        check_output(args.out, "--out", inputs=[("--fixtures", args.fixtures),
                                                 ("--rules", args.rules)])
    if (args.kind == "apply") != (args.action is not None):
        raise UsageError("--action goes with --as apply, and --as apply needs --action")
    fx = _fixture(args)
    rs = _ruleset(args, fx)
    state = state_after(fx, rs, args.steps)
    rj = ruleset_json(rs)
    if args.kind == "state":  # one field a line: readable, and still one JSON value
        return write_or_print("{\n" + ",\n".join(
            f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in state.items()) + "\n}\n",
            args.out)
    request: dict[str, Any] = {"id": 1, "type": args.kind, "ruleset": rj, "state": state}
    if args.kind == "apply":
        try:
            request["action"] = action_json(args.action, max_pip_of(rs))
        except FixtureError as e:
            raise InputError(f"--action {args.action!r}: {e}") from None
    elif args.kind == "score":
        result = state.get("result")
        winner = result.get("winner") if isinstance(result, dict) else None
        request["winner"] = winner if isinstance(winner, int) else None
    return write_or_print(json.dumps(request, separators=(",", ":")) + "\n", args.out)


def _fixture(args: argparse.Namespace) -> Any:

    from mtrain.conformance.fixture import load_corpus
    from mtrain.spec.errors import InputError, written_otherwise

    if args.fixtures is not None and (missing := why_missing(args.fixtures)):
        raise InputError(f"--fixtures: {missing}")
    fixtures, errors = load_corpus(args.fixtures)
    found = [f for f in fixtures if f.id == args.fixture]
    if len(found) > 1:
        raise InputError(f"{found[1].where}: id {args.fixture} is also used at "
                         f"{found[0].where}")
    if not found and errors:  # it may be the one that does not load
        raise InputError(str(errors[0]))
    if not found:
        close = sorted((f.id for f in fixtures if args.fixture in f.id),  # its prefix first
                       key=lambda i: not i.startswith(args.fixture))[:5]
        hint = f"; ids containing it: {', '.join(close)}" if close else ""
        slip = written_otherwise(args.fixture, (f.id for f in fixtures))
        raise InputError(f"no fixture {args.fixture!r}{slip} under "
                         f"{args.fixtures or 'the shipped corpus'}{hint}"
                         f"{path_for_an_id(args.fixture)}")
    return found[0]


def _ruleset(args: argparse.Namespace, fx: Any) -> Any:
    from mtrain.conformance.selection import check_variants, read_rules_files
    from mtrain.spec.errors import InputError

    if args.rules is not None or args.variant is not None:
        rs = (read_rules_files([args.rules]) if args.rules is not None
              else check_variants([args.variant]))[0]
        _spoken_of(fx, rs, f"--rules {args.rules}" if args.rules is not None
                   else f"--variant {args.variant}")
        return rs
    named = [n for n, _ in fx.rulesets()]
    if not named:
        raise InputError(f"{fx.id} names no rule set (its entries are scoped by `when:`); "
                         "give one with --variant or --rules")
    return check_variants([named[0]])[0]


def _spoken_of(fx: Any, rs: Any, flag: str) -> None:
    """Refuse a rule set none of the fixture's entries speaks about: its steps were played
    and its table written under rules the fixture says nothing of (a name not the
    fixture's, or a typo of one), which `mtrain conform` never runs it under, as if the
    state were one of its expectations'."""
    from mtrain.conformance.selection import entry_for
    from mtrain.spec.errors import InputError
    from mtrain.spec.scope import Space

    space = Space()
    entry, why = entry_for(fx, rs, space)
    if entry is not None:
        return
    spoken = " | ".join(dict.fromkeys(e.scope.text(space.cat) for e in fx.expect))
    raise InputError(f"{flag}: " + (
        f"{fx.id} does not run under it: {why}" if why else
        f"no entry of {fx.id} speaks about it (they speak about {spoken})")
        + "; conform would not run it there: give a rule set it speaks about")


def state_after(fx: Any, rs: Any, steps: int | None) -> dict[str, Any]:
    """The reference engine's state of `fx` under `rs` after its first `steps` steps."""
    from mtrain.conformance.adapter import (
        ReferenceImplementation,
        Refused,
        RefusedSetup,
        ruleset_json,
    )
    from mtrain.conformance.runner import start_state, take_step
    from mtrain.spec.errors import InputError
    from mtrain.spec.notation import FixtureError

    if steps is not None and not 0 <= steps <= len(fx.steps):
        n = len(fx.steps)  # "-1: has 1 steps" said neither what was wrong nor what is allowed
        raise InputError(f"--steps {steps}: {fx.id} has {n} step{'s' * (n != 1)}: give "
                         + ("0 (its table)" if not n else f"0 (its table) to {n}"))
    engine = ReferenceImplementation()
    rj = ruleset_json(rs)
    where = f"{fx.id} ({fx.where}) under {rs.name}"
    try:
        state = start_state(fx, rs, rj, engine)
    except (FixtureError, RefusedSetup, ValueError) as e:
        if isinstance(e, FixtureError) and e.at:  # the line of the table's node at fault
            where = f"{fx.id} ({fx.where_in_table(e.at)}) under {rs.name}"
        raise InputError(f"{where}: the table does not set up: {e}") from None
    for k, step in enumerate(fx.steps[:steps], 1):
        try:
            state = take_step(engine, rj, rs, state, step, fx.deal_draw())
        except Refused as e:
            raise InputError(f"{where}: step {k} `{step}` is refused ({e.clause}): "
                             f"{e.reason}") from None
        except (FixtureError, RefusedSetup, ValueError) as e:
            raise InputError(f"{where}: step {k} `{step}`: {e}") from None
    return dict(state)
