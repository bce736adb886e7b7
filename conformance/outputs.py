"""Output paths, checked before any work: a run never ends by failing to write its result."""

from __future__ import annotations

import contextlib
import tempfile
from pathlib import Path

from mtrain.spec.errors import InputError


def check_output(path: str, option: str, folder: bool = False) -> None:
    """Refuse, before any work, an output FILE (or `folder`) that cannot be written:
    its folder missing, or a file where a folder is needed and the other way round."""
    if path == "-":  # a file named "-" would be written, where stdout was meant
        raise InputError(f"{option} -: a file of that name would be written; to print, "
                         f"leave {option} out")
    out = Path(path)
    try:
        if folder:
            existing = next((p for p in [out, *out.parents] if p.exists()), None)
            if existing is not None and not existing.is_dir():
                raise InputError(f"{option} {path}: {existing} is a file, not a folder")
            return
        if out.is_dir():
            raise InputError(f"{option} {path}: is a folder; name a file")
        parent = out.parent
        if not parent.is_dir():
            what = "not a folder" if parent.exists() else "no such folder"
            raise InputError(f"{option} {path}: {what}: {parent}")
    except OSError as e:  # a name too long for the file system, a loop of links
        raise InputError(f"{option} {path}: {e.strerror or e}") from None
    _try_writing(out, path, option)


def _try_writing(out: Path, path: str, option: str) -> None:
    """Open the file as the run's end will (a new one made and taken away again; an
    existing one opened to append, which changes nothing): a folder with no permission,
    a read-only file system or /proc is refused now, not after the run. A device or a
    FIFO is left to the writing (opening a FIFO would wait for a reader)."""
    try:
        if not out.exists():
            with open(out, "xb"):
                pass
            out.unlink()
        elif out.is_file():
            with open(out, "ab"):
                pass
    except FileExistsError:  # made meanwhile by someone else: theirs to keep
        return
    except OSError as e:
        raise InputError(f"{option} {path}: cannot write there: {e.strerror or e}") from None


def check_output_folder(path: str, option: str) -> None:
    """Refuse, before any work, a folder that cannot be written: a file in the way, or a
    place where nothing can be made (a read-only file system, /proc, no permission). It
    is tried: made, written and put back as it was."""
    check_output(path, option, folder=True)
    out = Path(path)
    made = [p for p in [out, *out.parents] if not p.exists()]  # innermost first
    try:
        out.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=out, prefix=".mtrain-probe-"):
            pass
    except OSError as e:
        raise InputError(f"{option} {path}: cannot write there: {e.strerror or e}") from None
    finally:
        for p in made:
            with contextlib.suppress(OSError):
                p.rmdir()
