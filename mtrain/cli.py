"""The `mtrain` command line: the parser, assembled from one module per subcommand
(mtrain/commands/), the dispatch, and the exit codes.

Exit codes: 0 success, 1 a check failed, 2 a usage or configuration error (an unknown
variant, a malformed file), always with one clear message and never a traceback; 1 too
when the output is cut short (a broken pipe), unless the command already knew its
verdict (`mtrain conform | head` exits as the run did); 130 (SIGINT), 143 (SIGTERM) or
129 (SIGHUP) when interrupted, whichever the command, with one line. Every usage error
(argparse's, or a command's own UsageError) is one line that names the command and how
to get its help: `mtrain conform: error: ... (see 'mtrain conform --help')`.
"""

from __future__ import annotations

import argparse
import importlib
import os
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from mtrain import __version__
from mtrain.commands import COMMANDS as COMMANDS  # the command line's, as ever
from mtrain.commands import interrupt_behind, interrupted, keep_lost_interrupts, raise_lost
from mtrain.commands.printing import quiet_stdout
from mtrain.conformance.untrusted import shown
from mtrain.output import OutputError, guarded_stdout

Command = Callable[[argparse.Namespace], int]


class _Parser(argparse.ArgumentParser):
    """A parser whose usage errors name the command and its help (subcommands' parsers
    are of the same class: argparse makes them so)."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(2, f"{usage_error(self.prog, message)}\n")


def usage_error(prog: str, message: str) -> str:
    """The line a usage error of `prog` ("mtrain conform") prints."""
    return f"{prog}: error: {message} (see '{prog} --help')"


def build_parser(commands: Sequence[str] = COMMANDS) -> argparse.ArgumentParser:
    """The command line; with `commands`, only those subcommands."""
    parser = _Parser(
        prog="mtrain", description="Mexican Train: the rules as data, a reference engine, "
        "and a conformance suite.")
    parser.add_argument("--version", action="version", version=f"mtrain {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in commands:
        importlib.import_module(f"mtrain.commands.{name}").register(sub)
    for name, command in sub.choices.items():
        # here, not in each command's module: none can forget it
        command.set_defaults(func=_stoppable(command.get_default("func"), name))
        for action in command._actions:
            if type(action) is argparse._StoreAction and action.option_strings:
                action.__class__ = _Once
            elif type(action) is argparse._AppendAction and action.dest in _RULE_SETS:
                action.__class__ = _Each
            elif type(action) is argparse._StoreAction and name != "explain":
                action.__class__ = _Named  # (explain tells an empty clause id its own way)
    return parser


def _stoppable(command: Command, name: str) -> Command:
    """`command` run under mtrain.conformance.child.stoppable: SIGTERM (or SIGHUP) stops
    it as an interrupt does, with one line and 128 + the signal's number, and kills what
    it started (its default ended the process where it stood, exit -15 and no word). The
    harness is imported only when the command runs."""

    def run(args: argparse.Namespace) -> int:
        from mtrain.conformance.child import stoppable

        return stoppable(command, name)(args)

    run.__name__ = run.__qualname__ = getattr(command, "__name__", name)
    run.__doc__ = command.__doc__
    return run


_GIVEN = "_mtrain_given_once"
"""Where the namespace keeps, while parsing, the value each single-valued option had."""


class _Once(argparse._StoreAction):
    """An option of one value, refused when given twice with two values (argparse keeps
    the last silently: `--output a --output b` wrote only b, `--timeout 1 --timeout 9`
    ran at 9), or given empty (`--output ""` printed the report instead)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        if isinstance(values, str) and not values.strip():  # `--out $UNSET`: a default
            parser.error(f"argument {option_string}: an empty value (an unset shell "
                         f"variable?); give one, or leave {option_string} out")
        given: dict[str, tuple[str | None, Any]] = namespace.__dict__.setdefault(_GIVEN, {})
        if self.dest in given and given[self.dest][1] != values:
            first, before = given[self.dest]
            parser.error(f"argument {option_string}: given twice ({first} {before}, then "
                         f"{option_string} {values}): which is meant? give it once")
        given[self.dest] = (option_string, values)
        super().__call__(parser, namespace, values, option_string)


_RULE_SETS = ("variant", "rules")
"""The repeatable options naming a rule set to run (conform, fuzz, check)."""


class _Each(argparse._AppendAction):
    """A repeatable option naming a rule set, refused given empty (`--rules ""` was "is a
    folder, not a file": the working folder) or given one value twice (`--variant pagat
    --variant pagat` ran every fixture twice, each result counted twice)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        if isinstance(values, str) and not values.strip():
            parser.error(f"argument {option_string}: an empty value (an unset shell "
                         f"variable?); give one, or leave {option_string} out")
        if values in (getattr(namespace, self.dest, None) or ()):
            parser.error(f"argument {option_string}: {values} is given twice: each rule set "
                         "is run once; give it once")
        super().__call__(parser, namespace, values, option_string)


class _Named(argparse._StoreAction):
    """A word without an option (a fixture id, a rule set, a path), refused given empty:
    `mtrain state ""` listed five ids "containing" it, `mtrain rules ""` called it an
    unknown variant, `mtrain lint ""` said "no such file or folder: " and no name."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        words = values if isinstance(values, list) else [values]
        if any(isinstance(w, str) and not w.strip() for w in words):
            name = self.metavar if isinstance(self.metavar, str) else self.dest
            optional = self.nargs in ("?", "*")
            parser.error(f"argument {name}: an empty value (an unset shell variable?); give "
                         + ("one, or leave it out" if optional else "one"))
        super().__call__(parser, namespace, values, option_string)


def main(argv: Sequence[str] | None = None) -> int:
    """The command line `argv`; None: the process's own (sys.argv), the process exiting
    when the command returns (the console script, `python -m mtrain`)."""
    try:
        if argv is None:  # the process's own (mtrain/__main__.py keeps them before this)
            keep_lost_interrupts()
        _import_orjson_held()
        code = _main(argv)
        if argv is None:
            raise_lost()  # the command ran to its end: it was interrupted all the same
        return code
    except (KeyboardInterrupt, RuntimeError) as e:  # Ctrl-C while it starts: no traceback
        stop = e if isinstance(e, KeyboardInterrupt) else interrupt_behind(e)
        if stop is None:
            raise
        print(interrupted(sys.argv[1:] if argv is None else list(argv)), file=sys.stderr)
        return 128 + getattr(stop, "signum", signal.SIGINT)
    finally:
        if argv is None:  # the process ends: its exit need not walk the heap
            from mtrain.conformance.gc_freeze import exiting

            exiting()


def _import_orjson_held() -> None:
    """Import orjson with the interrupts held until it is done. Its module's start imports
    datetime, uuid, dataclasses and json and uses what each import returned unchecked
    (ijl/orjson#310): a Ctrl-C raised inside one of them left it NULL, and the process died
    of SIGSEGV (1 SIGINT in ~250 to a starting `mtrain conform`). Every later `import
    orjson` finds it loaded. A signal that came meanwhile is raised once it is done."""
    if "orjson" in sys.modules or threading.current_thread() is not threading.main_thread():
        return
    held: list[int] = []

    def hold(signum: int, frame: object) -> None:
        held.append(signum)  # no lock taken, nothing waited for

    raising: dict[int, Callable[[int, Any], Any]] = {}
    for sig in (signal.SIGINT, signal.SIGTERM, getattr(signal, "SIGHUP", None)):
        handler = None if sig is None else signal.getsignal(sig)
        if sig is not None and callable(handler):  # SIG_DFL and SIG_IGN raise nothing
            raising[sig] = handler
            signal.signal(sig, hold)
    try:
        import orjson  # noqa: F401
    finally:
        for sig, handler in raising.items():
            signal.signal(sig, handler)
    if held:
        raising[held[0]](held[0], None)  # as it would have, now


def _main(argv: Sequence[str] | None) -> int:
    words = sys.argv[1:] if argv is None else list(argv)
    # `mtrain serve` is started once per job of every fuzz and conform run: it imports
    # only the server's command, not every other command's module
    parser = build_parser(("serve",) if words[:1] == ["serve"] else COMMANDS)
    _check_command(parser, words)
    args, unknown = parser.parse_known_args(words)
    if unknown:  # said by the subcommand's parser: argparse's own names `mtrain` alone
        _unrecognized(parser, args.command, unknown)
    vars(args).pop(_GIVEN, None)
    func: Command = args.func
    from mtrain.spec.errors import InputError, UsageError, cut_long_runs
    from mtrain.spec.yamlload import SpecError

    _warn_of_the_cache(args.command)
    if argv is None:
        raise_lost()
    try:
        with guarded_stdout():
            return func(args)
    except UsageError as e:
        print(usage_error(f"mtrain {args.command}", cut_long_runs(str(e))), file=sys.stderr)
        return 2
    except OutputError as e:  # a full disk: the output is lost, the run is not a success
        print(f"mtrain {args.command}: cannot write the output: {e}", file=sys.stderr)
        quiet_stdout()
        return 1
    except (InputError, SpecError) as e:  # may quote an implementation: escaped
        print(f"mtrain {args.command}: {shown(cut_long_runs(str(e)))}", file=sys.stderr)
        return 2
    except RuntimeError as e:  # a pool's worker died (forking.WorkerDied): the harness's
        from mtrain.conformance.forking import WorkerDied

        if not isinstance(e, WorkerDied):
            raise
        print(f"mtrain {args.command}: {e}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # the output was cut short: the command did not finish
        quiet_stdout()
        return 1
    except KeyboardInterrupt:
        print(f"mtrain {args.command}: interrupted", file=sys.stderr)
        return 130


def _warn_of_the_cache(command: str) -> None:
    """One line when the cache named by MTRAIN_CACHE_DIR can keep nothing: each run would
    work everything out anew, slower, and nothing would say why; the same for the shipped
    situations, and for a result memo switch that says neither on nor off. `mtrain serve`
    says nothing: its stderr is the harness's, and the harness's own run has said it."""
    if command == "serve":
        return
    from mtrain.spec import cache
    from mtrain.spec.errors import cut_long_runs

    why = cache.unusable()
    if why is not None:
        print(cut_long_runs(f"mtrain {command}: warning: {cache.CACHE_ENV}: {shown(why)}: "
                            "nothing is kept between runs (set it to off to mean that)"),
              file=sys.stderr)
    # its module only when it is named; `situations --shipped` writes the folder
    if "MTRAIN_SHIPPED_SITUATIONS" in os.environ and command != "situations":
        from mtrain.conformance import shipped

        why = shipped.unusable()
        if why is not None:
            print(cut_long_runs(f"mtrain {command}: warning: {shown(why)}: nothing shipped "
                                "is read (set it to off to mean that)"), file=sys.stderr)
    for switch in ("MTRAIN_SHIPPED_PIECES", "MTRAIN_SHIPPED_SCOPES"):
        if switch in os.environ:
            from mtrain.conformance.identify.shipped_pieces import PIECES
            from mtrain.conformance.lint.shipped_scopes import SCOPES

            said = (PIECES if switch == PIECES.env else SCOPES).misread()
            if said is not None:
                print(cut_long_runs(f"mtrain {command}: warning: {shown(said)}"),
                      file=sys.stderr)
    if "MTRAIN_RESULT_MEMO" in os.environ:  # `false` was read as on, without a word
        from mtrain.conformance import resultmemo as memo

        said = os.environ[memo.MEMO_ENV]
        if said.strip().lower() not in memo.MEMO_OFF + memo.MEMO_ON:
            print(cut_long_runs(f"mtrain {command}: warning: {memo.MEMO_ENV}={shown(said)} "
                                f"is neither on ({', '.join(memo.MEMO_ON[1:])}) nor off "
                                f"({', '.join(memo.MEMO_OFF)}): the memo stays on"),
                  file=sys.stderr)


def _check_command(parser: argparse.ArgumentParser, words: list[str]) -> None:
    """A usage error for an option before the command that mtrain's own are not (argparse
    said only 'COMMAND is required' of `mtrain --hlep`) or a command not known, each with
    the spelling meant where one is alike (`conforn`: conform)."""
    own = [o for a in parser._actions for o in a.option_strings]
    for word in words:
        if word == "--" or not word.startswith("-"):
            if word not in COMMANDS and word != "--":
                import difflib  # here: every run checks its words, few misspell them

                close = difflib.get_close_matches(word, COMMANDS, n=1, cutoff=0.6)
                hint = f" (did you mean {close[0]}?)" if close else ""
                parser.error(f"unknown command '{shown_words([word])}'{hint}")
            return
        # argparse takes an unambiguous prefix of a long option (`--vers`)
        if word not in own and not (word.startswith("--") and len(word) > 2 and any(
                o.startswith(word) for o in own if o.startswith("--"))):
            import difflib

            close = difflib.get_close_matches(word.split("=")[0], own, n=1, cutoff=0.6)
            hint = f" (did you mean {close[0]}?)" if close else ""
            parser.error(f"unrecognized arguments: {shown_words([word])}{hint}")


def _unrecognized(parser: argparse.ArgumentParser, command: str, words: list[str]) -> NoReturn:
    """The usage error for words no option of `command` takes, with the option meant
    where one is spelt alike (`--varient`: --variant)."""
    import difflib

    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    own: argparse.ArgumentParser = sub.choices[command]
    options = [o for a in own._actions for o in a.option_strings]
    # `--count` for `-n COUNT`: the usage line's placeholder read as the option's name
    # (difflib alone offered --out); an option whose placeholder the word names is meant
    named = {str(a.metavar or a.dest).lower(): f"{a.option_strings[0]} "
             f"{a.metavar or a.dest.upper()}" for a in own._actions
             if a.option_strings and a.nargs != 0 and a.dest != argparse.SUPPRESS}
    meant = []
    for w in (w for w in words if w.startswith("-")):
        name = w.split("=")[0]
        if name.startswith("--") and name[2:].lower() in named and name not in options:
            meant.append(named[name[2:].lower()])
        else:
            meant += difflib.get_close_matches(name, options, n=1, cutoff=0.8)
    hint = f" (did you mean {', '.join(dict.fromkeys(meant))}?)" if meant else ""
    own.error(f"unrecognized arguments: {shown_words(words)}{hint}")


def shown_words(words: list[str]) -> str:
    """Command-line words as a message quotes them: each escaped, long ones cut."""
    return " ".join(w if w.isprintable() and len(w) <= 200 else shown(w) for w in words)
