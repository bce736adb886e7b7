"""Output paths, checked before any work: a run never ends by failing to write its result."""

from __future__ import annotations

from pathlib import Path

from mtrain.spec.errors import InputError


def check_output(path: str, option: str, folder: bool = False) -> None:
    """Refuse, before any work, an output FILE (or `folder`) that cannot be written:
    its folder missing, or a file where a folder is needed and the other way round."""
    out = Path(path)
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
