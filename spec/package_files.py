"""The files shipped inside a package (spec/data, spec/schemas), found as
importlib.resources finds them, without importing it where the package is a folder on
disk (a clone, or any ordinary install).

Importing importlib.resources brings zipfile, tempfile and random with it: about a
twentieth of the start-up of `mtrain serve`, of an adapter host and of every engine
process built on the reference, which read one or two shipped files each. For a package
that is one folder, importlib.resources.files is that folder as a Path; elsewhere (a zip,
a namespace package of several folders) it is asked."""

from __future__ import annotations

import sys
from importlib import import_module
from pathlib import Path
from typing import Any


def package_files(package: str) -> Any:
    """importlib.resources.files(package): the package's folder, a Path, where it is a
    single folder on disk; else whatever importlib.resources gives."""
    module = sys.modules.get(package) or import_module(package)
    spec = module.__spec__
    locations = list(spec.submodule_search_locations or ()) if spec is not None else []
    origin = spec.origin if spec is not None else None
    # a regular package: its __init__.py a file in its one folder (as importlib's own
    # file reader takes it); a zip's origin is no file, a namespace package has no origin
    if len(locations) == 1 and origin and Path(origin).is_file() \
            and Path(origin).parent == Path(locations[0]):
        return Path(locations[0])
    from importlib.resources import files

    return files(package)
