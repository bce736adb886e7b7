"""Known failures: conform's --skip file (and fuzz's --known), a YAML list of
{fixture, variant (optional), reason}, each entry a glob over fixture ids and rule sets."""

from __future__ import annotations

import fnmatch
from collections.abc import Iterable
from dataclasses import dataclass, field

from mtrain.spec.errors import InputError, shown, written_otherwise
from mtrain.spec.yamlload import SpecError
from mtrain.spec.yamlload import load as load_yaml


@dataclass(frozen=True)
class SkipEntry:
    fixture: str
    variant: str | None
    reason: str
    where: str = field(default="", compare=False)  # "--skip FILE:LINE: entry N"

    def matches(self, fixture: str, variant: str) -> bool:
        return (fnmatch.fnmatchcase(fixture, self.fixture)
                and (self.variant is None or fnmatch.fnmatchcase(variant, self.variant)))


def load_skips(path: str) -> list[SkipEntry]:
    """The --skip file: a YAML list of {fixture, variant (optional), reason}."""
    try:  # the project's loader: file:line errors, no duplicate keys, aliases bounded
        doc = load_yaml(path)
    except SpecError as e:
        if e.message == "empty file":
            return []
        raise InputError(f"--skip {e}") from None
    data = doc.data
    if isinstance(data, dict) and {"base", "options"} & set(data):  # as --fixtures says
        raise InputError(f"--skip {path}: a rule-set file (a mapping: name, base, options), "
                         "not a list of known failures: --rules reads it")
    if not isinstance(data, list):  # at its line, with what it holds (`ends-001: flaky`)
        got = "a mapping" if isinstance(data, dict) else shown(data)
        raise InputError(f"--skip {path}:{doc.line_of(()) or 1}: expected a list of known "
                         f"failures, each `- fixture: ID` with `reason:` (and `variant:` if "
                         f"one rule set), got {got}")
    if data and all(isinstance(x, dict) and {"id", "expect"} <= set(x) for x in data):
        # "entry 1: unknown key 'clauses'", of the fixture file given in the wrong place
        raise InputError(f"--skip {path}: a fixture file (a list of fixtures), not a list "
                         "of known failures ({fixture, variant, reason}): `mtrain conform "
                         "--fixtures` reads it")
    out: list[SkipEntry] = []
    for i, item in enumerate(data, 1):
        where = f"--skip {path}:{doc.line_of((i - 1,))}: entry {i}"
        if not isinstance(item, dict):
            raise InputError(f"{where}: expected {{fixture, variant, reason}}, got "
                             f"{shown(item)}")
        extra = set(item) - {"fixture", "variant", "reason"}
        if extra:
            raise InputError(f"{where}: unknown key {shown(min(extra, key=str))}")
        fixture, variant, reason = item.get("fixture"), item.get("variant"), item.get("reason")
        if fixture is not None and not isinstance(fixture, str):  # not "required": it is there
            raise InputError(f"{where}: 'fixture' must be a fixture id (text), got "
                             f"{shown(fixture)}")
        if not isinstance(fixture, str) or not fixture:
            raise InputError(f"{where}: 'fixture' (a fixture id) is required")
        if variant is not None and not isinstance(variant, str):
            raise InputError(f"{where}: 'variant' must be a variant name")
        if reason is not None and not isinstance(reason, str):
            raise InputError(f"{where}: 'reason' must be text, got {shown(reason)}")
        if reason is None or not reason.strip():
            raise InputError(f"{where}: every known failure needs a 'reason'")
        # the same failure listed twice: one reason would be shown, the other never
        again = next((k for k, e in enumerate(out, 1)
                      if (e.fixture, e.variant) == (fixture, variant)), None)
        if again is not None:
            under = "" if variant is None else f" under {variant}"
            raise InputError(f"{where}: {fixture}{under} is listed already (entry {again}): "
                             "list a known failure once")
        out.append(SkipEntry(fixture, variant, reason.strip(), where))
    return out


def unknown_rule_set(entry: SkipEntry, played: Iterable[str]) -> str | None:
    """What is wrong with an entry's `variant` that names no rule set at all (a typo
    like `pagta`, which skipped nothing and was said only to match no fixture), or None.
    Known are the rule sets this run plays, the shipped variants with their overlays
    (`pagat+blanks-25`) and the rule-set files; a glob is left to match what it matches."""
    from mtrain.spec.catalog import catalog

    name = entry.variant
    if name is None or any(c in name for c in "*?[") or name in set(played):
        return None
    cat = catalog()
    base, *overlays = name.split("+")
    if base in cat.examples and not overlays:
        return None
    if base in cat.examples:
        said = f"{base} is a rule-set file, which takes no overlays"
    elif base not in cat.variants:
        files = f"; rule-set files: {', '.join(sorted(cat.examples))}" if cat.examples else ""
        said = (f"no variant or rule-set file is named {shown(base)}"
                f"{written_otherwise(base, [*cat.variants, *cat.examples])} (variants: "
                f"{', '.join(cat.variants)}{files})")
    else:
        stray = [o for o in overlays if o not in cat.overlays]
        if not stray:
            return None
        said = (f"no overlay is named {shown(stray[0])}"
                f"{written_otherwise(stray[0], cat.overlays)} (overlays: "
                f"{', '.join(cat.overlays)})")
    return (f"{entry.where}: variant {shown(name)} is no rule set: {said}, nor does this run "
            "play one of that name: the entry skips nothing")
