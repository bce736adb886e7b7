"""An in-process adapter named on the command line: MODULE:OBJECT, loaded and checked to
be an implementation (conform's --adapter, and the host of conformance/inprocess.py)."""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import importlib.util
import io
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from mtrain.spec.errors import InputError
from mtrain.spec.file_checks import file_problem

METHODS = ("info", "deal", "legal", "apply", "winners")


def private_name(path: Path) -> str:
    """The module name an adapter file is loaded under: its own, never a library's (under
    its stem, yaml.py replaced the YAML library for the whole run, its own `import yaml`
    included), and one per file (two engine.py of two folders are two modules)."""
    where = hashlib.sha256(os.fsencode(path.resolve())).hexdigest()[:12]
    return f"_mtrain_adapter_{where}_{path.stem}"


@contextlib.contextmanager
def _standard_streams_kept() -> Iterator[None]:
    """The adapter's module imported and its class made with no input and with its prints
    on stderr: a module that prints at import ("engine loaded") wrote into the report on
    stdout (a JSON report that no longer parsed), and one that reads its input at import
    (a protocol loop left unguarded) waited on the user's terminal for ever. Python's own
    streams only: the harness's descriptors are its own."""
    stdin, stdout = sys.stdin, sys.stdout
    sys.stdin, sys.stdout = io.StringIO(), sys.stderr
    try:
        yield
    finally:
        sys.stdin, sys.stdout = stdin, stdout


def importable_from_here() -> None:
    """A module named (not a path) is found in the current folder, here and in the
    adapter's host process, which is handed this sys.path (inprocess.py)."""
    if "" not in sys.path and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())


def load_adapter(spec: str) -> tuple[Any, Callable[[], Any], bool]:
    """(an instance, a factory for more, whether instances are shared) from MODULE:OBJECT.

    MODULE is a module name (importable from the current folder) or a path to a .py
    file; OBJECT is an attribute (dotted for nested ones): an instance, or a class that
    takes no arguments. Anything wrong is a InputError naming what.
    """
    with _standard_streams_kept():
        return _load(spec)


def _load(spec: str) -> tuple[Any, Callable[[], Any], bool]:
    module_name, sep, attr = spec.rpartition(":")
    if not sep or not module_name or not attr:
        raise InputError(f"--adapter {spec}: expected MODULE:OBJECT, e.g. "
                         "my_engine.conformance:Adapter")
    if ":" in module_name and not os.path.exists(module_name):  # a path may hold one
        first, _, rest = spec.partition(":")  # was read as module 'ad.py:E', not a package
        raise InputError(f"--adapter {spec}: expected MODULE:OBJECT with one colon; an "
                         f"object inside another is dotted: {first}:{rest.replace(':', '.')}")
    try:
        if module_name.endswith(".py") or os.sep in module_name or "/" in module_name:
            path = Path(module_name)
            problem = file_problem(path)
            if problem == "file not found":
                raise InputError(f"--adapter {spec}: no such file {module_name}")
            if problem is not None:  # a FIFO would be waited on for ever
                raise InputError(f"--adapter {spec}: {module_name}: {problem}")
            name = private_name(path)
            mspec = importlib.util.spec_from_file_location(name, path)
            if mspec is None or mspec.loader is None:  # a.txt: no loader takes it
                raise InputError(f"--adapter {spec}: {module_name} is not a Python module "
                                 "(a .py file)")
            module = importlib.util.module_from_spec(mspec)
            sys.modules[name] = module  # its classes' module is found (dataclasses ask)
            mspec.loader.exec_module(module)
        else:
            importable_from_here()
            module = importlib.import_module(module_name)
    except (InputError, KeyboardInterrupt):
        raise
    except ImportError as e:
        raise InputError(f"--adapter {spec}: cannot import {module_name}: {e}") from None
    except SystemExit as e:  # an exit() at import: nothing would be tested, yet exit 0
        raise InputError(f"--adapter {spec}: importing {module_name} exited (exit code "
                         f"{e.code!r}): an adapter module is imported, not run") from None
    except BaseException as e:  # a BaseException of its own too: no traceback
        raise InputError(f"--adapter {spec}: importing {module_name} failed: "
                         f"{type(e).__name__}: {e}") from None
    obj: Any = module
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise InputError(f"--adapter {spec}: {module_name} has no attribute {attr!r}"
                             ) from None
    if isinstance(obj, type):
        cls = obj
        try:
            instance = cls()
        except KeyboardInterrupt:
            raise
        except SystemExit as e:
            raise InputError(f"--adapter {spec}: {attr}() exited (exit code {e.code!r})"
                             ) from None
        except BaseException as e:
            raise InputError(f"--adapter {spec}: {attr}() failed: {type(e).__name__}: {e}"
                             ) from None
        factory: Callable[[], Any] = cls
        shared = False
    else:
        instance, shared = obj, True

        def factory() -> Any:
            return instance
    missing = [m for m in METHODS if not callable(getattr(instance, m, None))]
    if missing:
        raise InputError(f"--adapter {spec}: {attr} is not an implementation: it lacks "
                         f"{', '.join(missing)} (see mtrain.conformance.adapter.Implementation)")
    return instance, factory, shared
