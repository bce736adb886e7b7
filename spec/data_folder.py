"""The spec data folder: the shipped spec/data, or the copy `MTRAIN_SPEC_DATA` names, and
its files read with the names errors give them (spec/data/... for the shipped one)."""

from __future__ import annotations

import functools
import os
from pathlib import Path
from typing import Any

from mtrain.spec.package_files import package_files
from mtrain.spec.yamlload import Document, SpecError, load, read_text

DATA_ENV = "MTRAIN_SPEC_DATA"
"""An environment variable naming another spec data directory (a copy of spec/data), read
by `catalog()`: tests inject faults into a copy and run `mtrain check` on it."""
def data_dir() -> Any:
    """The spec data directory: the one `MTRAIN_SPEC_DATA` names, else the shipped one."""
    other = os.environ.get(DATA_ENV)
    if other:
        return Path(other)
    return shipped_data()


@functools.cache
def shipped_data() -> Any:
    """The shipped spec data directory, found once per process: building the
    importlib.resources path costs more than everything else `catalog()` does."""
    return package_files("mtrain.spec") / "data"


def data_label(folder: Any) -> str:
    """How error messages name files of `folder`: spec/data for the shipped one."""
    return "spec/data" if str(folder) == str(shipped_data()) else str(folder)


def load_data(folder: Any, *parts: str) -> Document:
    """One YAML file of a spec data directory, named for errors as spec/data/... ."""
    return load(*data_text(folder, *parts))


def data_text(folder: Any, *parts: str) -> tuple[str, str]:
    """(how errors name it, its text) for a file of a spec data directory; a missing
    file, a folder in its place or bytes that are not UTF-8 are a SpecError naming it."""
    shown = f"{data_label(folder)}/{'/'.join(parts)}"
    res = folder.joinpath(*parts)
    if isinstance(res, Path):
        return shown, read_text(res, shown)
    try:  # a resource of an installed package that is not a plain file (a zip)
        return shown, res.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise SpecError(shown, None, f"cannot read file: {e}") from None


def _is_dir(path: Path) -> bool:
    """Path.is_dir, False where it raises (a name too long for the file system)."""
    try:
        return path.is_dir()
    except OSError:
        return False


def check_data_dir(folder: Any) -> None:
    """A SpecError unless `folder` is a folder (MTRAIN_SPEC_DATA may name anything)."""
    if isinstance(folder, Path) and not _is_dir(folder):
        try:
            os.stat(folder)
            what = "is a file, not a folder"
        except FileNotFoundError:
            what = ("a symbolic link to nothing" if folder.is_symlink() else "no such folder")
        except OSError as e:  # a loop of links, a name too long
            what = str(e.strerror or e)
        raise SpecError(str(folder), None, f"{what} (named by {DATA_ENV}, the spec data "
                        "folder: a copy of spec/data)")


def data_entries(folder: Any, kind: str, required: bool = True) -> list[Any]:
    """The entries of the spec data folder's `kind` subfolder (variants/, overlays/,
    rulesets/), by name; a SpecError naming it if it is missing (unless not `required`)
    or not a folder."""
    sub = folder / kind
    if not sub.is_dir():
        if not required and not sub.exists():  # rulesets/: a data folder may have none
            return []
        what = "is a file, not a folder" if sub.exists() else "no such folder"
        raise SpecError(f"{data_label(folder)}/{kind}", None, what)
    return sorted(sub.iterdir(), key=lambda e: e.name)

