"""The implementation under test: a program speaking the protocol (--impl), an
in-process adapter (--adapter MODULE:OBJECT) or the embedded reference engine, as a
Target that makes one implementation per worker; and the hello that opens a run."""

from __future__ import annotations

import argparse
import shlex
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from mtrain.conformance.adapter import JSON, Implementation, ReferenceImplementation
from mtrain.conformance.adapter_loading import importable_from_here, load_adapter
from mtrain.conformance.inprocess import TimedImplementation
from mtrain.conformance.process import (
    ConfigurationError,
    HarnessError,
    ProcessImplementation,
    command_argv,
)
from mtrain.spec.errors import InputError


@dataclass
class Target:
    """How to get implementations for the workers, and how to describe them."""

    make: Callable[[], Implementation]
    describe: dict[str, Any]
    kind: str  # reference | adapter | process
    shared: bool = False


FLAGS = ("--timeout", "--start-timeout")
"""The options that bound a request and a start, as the command line names them (the
pytest plugin sets `args.flags` to its own: a message names what its user can give)."""


def target_of(args: argparse.Namespace) -> Target:
    flags: tuple[str, str] = getattr(args, "flags", FLAGS)
    if args.impl is not None:
        try:
            argv = command_argv(args.impl)
        except ConfigurationError as e:
            raise InputError(f"--impl: {e}") from None
        timeout, start = args.timeout, getattr(args, "start_timeout", None)
        hellos: dict[str, Any] = {}  # every job's program answers as the first did

        def make_process() -> Implementation:
            return ProcessImplementation(argv, timeout=timeout, start_timeout=start,
                                         flags=flags, hellos=hellos)
        return Target(make_process, {"command": shlex.join(argv)}, "process")
    if args.adapter is not None:
        timeout, spec = args.timeout, args.adapter
        start_timeout = getattr(args, "start_timeout", None)
        started = _started_elsewhere(spec, timeout, start_timeout, flags[1])
        instance, factory, shared = load_adapter(args.adapter)
        first: list[Any] = [instance]

        def make_adapter() -> Implementation:
            if started:  # the first implementation: its worker process is running already
                impl = started.pop()
                impl.inner = first.pop()
                return impl
            inner = first.pop() if first else factory()
            return TimedImplementation(inner, timeout, spec, start_timeout, flags[1])
        return Target(make_adapter, {"adapter": args.adapter}, "adapter", shared)
    reference = ReferenceImplementation()
    return Target(lambda: reference, {"adapter": "embedded reference engine"}, "reference",
                  True)


def _started_elsewhere(spec: str, timeout: float, start_timeout: float | None,
                       flag: str) -> list[TimedImplementation]:
    """The adapter's first worker process, started before the harness imports the adapter
    itself: a module that calls os._exit at import (or in its class's __init__) ended the
    harness with exit 0 and no output, one that blocks there stalled it until Ctrl-C. In
    its own process either is a failure to start, said as an InputError (exit 2); the
    other failures (no such file, an exception, exit()) are said by load_adapter, as
    before. Nothing where the calls run on threads (no fork)."""
    importable_from_here()  # before the host is handed sys.path
    impl = TimedImplementation(None, timeout, spec, start_timeout, flag)
    if not impl.isolated:
        return []
    try:
        impl.start()
    except HarnessError as e:
        impl.close()
        if e.message.endswith("exited with code 2 while starting"):
            return []  # the host's own refusal: load_adapter says it here, as it always did
        raise InputError(f"--adapter {spec}: {e.message} (importing the module and building "
                         f"the adapter, in a process of its own){_last_line(e.stderr)}; "
                         "nothing was run") from None
    return [impl]


def _last_line(stderr: str) -> str:
    lines = stderr.strip().splitlines()
    return f"; its stderr: {lines[-1].strip()[:300]}" if lines else ""


def greet(impl: Implementation, target: Target) -> JSON:
    """The implementation's info (its hello answer). One that cannot give it stops the run
    here (InputError: exit 2, said once), as identify and fuzz stop: a run cannot know what
    the program plays, and each of its results would only repeat the hello's failure (conform
    ran on, writing that failure under every rule set of the corpus, ~2,000 of them)."""
    try:
        info = impl.info()
    except ConfigurationError as e:
        raise InputError(str(e)) from None
    except HarnessError as e:
        raise InputError(hello_failed(e)) from None
    except Exception as e:
        who = "the adapter's info()" if target.kind == "adapter" else "the hello"
        raise InputError(f"{who} failed: {type(e).__name__}: {e}") from None
    if not isinstance(info, dict):
        raise InputError(f"the implementation's info is not an object: {info!r}")
    return info


def hello_failed(error: HarnessError) -> str:
    """What stops a run whose hello failed: the failure, the last line of the program's
    stderr (where a program says why it could not start), and that nothing ran."""
    last = error.stderr.strip().splitlines()[-1:] if error.stderr.strip() else []
    line = last[0].strip() if last else ""
    if len(line) > 300:  # a log line of a megabyte: its start says what it is
        line = f"{line[:300]}... ({len(line):,} characters)"
    said = f" (its stderr: {line})" if line else ""
    # an answer that is not a hello answer was an answer: "did not answer" misled
    failed = "'s hello failed" if error.status == "error" else " did not answer the hello"
    return f"the implementation{failed} ({error.status}): {error.message}{said}; nothing was run"
