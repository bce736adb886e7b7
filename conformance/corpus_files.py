"""Where a corpus's fixture files are: the shipped corpus's folder, every YAML file a
folder holds (links to folders followed, each folder once; hidden names and the folders of
rule-set files skipped), and the words for a folder that holds none."""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from pathlib import Path

FIXTURE_ROOT = Path(__file__).resolve().parent / "fixtures"
"""The shipped corpus. Resolved: under an editable install this module is a link into the
source tree, so the corpus is the checkout's own (new files included, paths a user can
keep), not the link tree's copy."""


def fixture_files(root: str | Path | None = None) -> list[Path]:
    base = Path(root) if root is not None else FIXTURE_ROOT
    if not base.is_dir():  # a file; or a FIFO, a device: reported by read_text, not read
        return [base]
    # every YAML file, however its name ends (x.yml, X.YAML: skipped, it would go unseen);
    # a folder named x.yaml is walked, not read; anything else is kept, to be reported
    # (a broken link, a FIFO: read_text names what it is, and never waits on it); the
    # rule-set files fixtures name (`rules:`) live in folders named RULES_FOLDER; a hidden
    # name is skipped (`hidden`)
    return sorted(p for p in _walk(base) if p.suffix.lower() in YAML_SUFFIXES
                  and not p.is_dir() and RULES_FOLDER not in p.relative_to(base).parts[:-1]
                  and not hidden(p.relative_to(base)))


def _walk(base: Path) -> Iterator[Path]:
    """Every path under `base`, a link to a folder followed (rglob leaves it: a folder of
    fixtures shared by a link ran none of them, unsaid), each folder once (a link back up
    the tree, or to a folder walked already, is not walked again)."""
    seen: set[str] = set()
    for top, folders, files in os.walk(base, followlinks=True):
        real = os.path.realpath(top)
        if real in seen:
            folders[:] = []
            continue
        seen.add(real)
        folders.sort()
        for name in (*folders, *files):
            yield Path(top, name)


def hidden(relative: Path) -> bool:
    """Whether a path inside a fixture folder has a hidden name (a file or a folder whose
    name begins with `.`), which a walk of the folder skips, as git's tools and editors
    do: an editor's lock file (`.#x.yaml`, a link to nowhere), a swap or backup copy kept
    beside the file (`.x.yaml.swp`), a tool's folder (`.git`, `.cache`) were read as
    fixtures (a lock file as a broken link, a copy as a second file of the same ids). A
    hidden file named on its own (`mtrain lint .x.yaml`) is read: it was asked for."""
    return any(part.startswith(".") for part in relative.parts)


def none_found(where: str, roots: Sequence[str | Path] = ()) -> str:
    """The words for a folder that holds no fixture, with the hidden YAML files its walk
    skipped (`hidden`), lest a fixture so named seem lost."""
    skipped = sorted(str(p) for r in roots if Path(r).is_dir() for p in Path(r).rglob("*")
                     if p.suffix.lower() in YAML_SUFFIXES and hidden(p.relative_to(r)))
    if not skipped:
        return f"no fixtures found under {where}"
    return (f"no fixtures found under {where}; skipped as hidden (a name beginning with "
            f"`.`, as editors' lock and swap files are): {', '.join(skipped[:3])}"
            + (f" and {len(skipped) - 3} more" if len(skipped) > 3 else "")
            + "; rename a fixture file so to have it read")


YAML_SUFFIXES = (".yaml", ".yml")
"""How the name of a fixture file in a folder ends, in any case."""


RULES_FOLDER = "rulesets"
"""A folder of a fixture corpus that holds rule-set files, not fixtures."""
