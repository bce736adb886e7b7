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
from mtrain.conformance.adapter_loading import load_adapter
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


def target_of(args: argparse.Namespace) -> Target:
    if args.impl is not None:
        try:
            argv = command_argv(args.impl)
        except ConfigurationError as e:
            raise InputError(f"--impl: {e}") from None
        timeout, start = args.timeout, getattr(args, "start_timeout", None)

        def make_process() -> Implementation:
            return ProcessImplementation(argv, timeout=timeout, start_timeout=start)
        return Target(make_process, {"command": shlex.join(argv)}, "process")
    if args.adapter is not None:
        instance, factory, shared = load_adapter(args.adapter)
        timeout, spec = args.timeout, args.adapter
        start_timeout = getattr(args, "start_timeout", None)
        first: list[Any] = [instance]

        def make_adapter() -> Implementation:
            inner = first.pop() if first else factory()
            return TimedImplementation(inner, timeout, spec, start_timeout)
        return Target(make_adapter, {"adapter": args.adapter}, "adapter", shared)
    reference = ReferenceImplementation()
    return Target(lambda: reference, {"adapter": "embedded reference engine"}, "reference",
                  True)


def greet(impl: Implementation, target: Target) -> tuple[JSON | None, str | None]:
    """The implementation's info, or None and a warning when it cannot give it now."""
    try:
        info = impl.info()
    except ConfigurationError as e:
        raise InputError(str(e)) from None
    except HarnessError as e:
        return None, f"the implementation did not answer the hello ({e.status}): {e.message}"
    except Exception as e:
        who = "the adapter's info()" if target.kind == "adapter" else "the hello"
        raise InputError(f"{who} failed: {type(e).__name__}: {e}") from None
    if not isinstance(info, dict):
        raise InputError(f"the implementation's info is not an object: {info!r}")
    return info, None
