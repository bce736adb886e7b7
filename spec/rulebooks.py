"""The published rule books and engines surveyed, option by option (spec/data/rulebooks.yaml).

`load_rulebooks(cat)` reads the file next to the catalogue's options.yaml and checks it
against that catalogue, so that what a rule book is said to give stays a real value:
an option that does not exist, a value that is not one of the option's values, and a
proposed name that is not among the file's `proposals` (a typo) or that has become a
value of the option (then it must be given as the value), and a proposal no rule book
gives, are each a SpecError at their line. docs/rule-books.md is generated from what it
returns.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mtrain.spec.catalog import Catalog
from mtrain.spec.data_folder import load_data
from mtrain.spec.errors import shown
from mtrain.spec.yamlload import Document, SpecError, SpecErrors, load
from mtrain.spec.yamlschema import schema, validate

FILE = "rulebooks.yaml"
KINDS = ("print", "engine")


@dataclass(frozen=True)
class Statement:
    """What one rule book says on one option."""

    option: str
    values: tuple[str, ...]
    """Values of the option in options.yaml."""
    proposed: tuple[str, ...]
    """Names of `proposals`: rules no value of the option describes yet."""
    note: str

    @property
    def gives_value(self) -> bool:
        """False for a note alone: the book speaks of the option, but no value names it."""
        return bool(self.values or self.proposed)


@dataclass(frozen=True)
class RuleBook:
    key: str
    title: str
    kind: str
    addresses: tuple[str, ...]
    label: str | None
    read: str
    says: dict[str, Statement]
    """Option name -> statement, in the catalogue's order of options."""


@dataclass(frozen=True)
class RuleBooks:
    path: str
    books: dict[str, RuleBook]
    proposals: dict[str, dict[str, str]]
    """Option name -> proposed value name -> what it would mean."""

    def given_by(self, option: str, name: str) -> list[str]:
        """The keys of the rule books that give `name` (a value or a proposal) for `option`."""
        return [b.key for b in self.books.values() if option in b.says
                and name in (*b.says[option].values, *b.says[option].proposed)]


def _names(raw: Any) -> tuple[str, ...]:
    return (raw,) if isinstance(raw, str) else tuple(raw or ())


def load_rulebooks(cat: Catalog, path: str | Path | None = None) -> RuleBooks:
    """The rule books of `path` (default: rulebooks.yaml of the catalogue's data folder),
    checked against `cat`; every problem found is reported at once, as SpecErrors."""
    doc = load_data(cat.data_dir, FILE) if path is None else load(path)
    errors = validate(doc, schema("rulebooks"))
    if errors:
        raise SpecErrors(errors)
    errors = _check_proposals(doc, cat)
    proposals: dict[str, dict[str, str]] = {
        o: {n: " ".join(t.split()) for n, t in named.items()}
        for o, named in doc.data["proposals"].items()}
    books: dict[str, RuleBook] = {}
    for key, body in doc.data["rulebooks"].items():
        label = body.get("label")
        if label is not None and label not in cat.sources:
            errors.append(doc.error(("rulebooks", key, "label"),
                                    f"{key}: label {label!r} is not one of sources.yaml"))
        says: dict[str, Statement] = {}
        for option, stated in (body.get("options") or {}).items():
            where = ("rulebooks", key, "options", option)
            if option not in cat.options:
                errors.append(doc.error(where, f"{key}: unknown option {shown(option)} (options: "
                                        f"{', '.join(cat.options)})"))
                continue
            values, proposed = _names(stated.get("value")), _names(stated.get("proposed"))
            errors += _check_names(doc, cat, proposals, key, option, stated, where)
            says[option] = Statement(option, values, proposed,
                                     " ".join(str(stated.get("note", "")).split()))
        order = list(cat.options)
        books[key] = RuleBook(
            key=key, title=" ".join(body["title"].split()), kind=body["kind"],
            addresses=tuple(body["addresses"]), label=label,
            read=" ".join(body["read"].split()),
            says=dict(sorted(says.items(), key=lambda kv: order.index(kv[0]))))
    out = RuleBooks(doc.path, books, proposals)
    for option, named in proposals.items():  # a proposal is here because a book gives it
        errors += [doc.error(("proposals", option, name), f"proposals: {option}={name} is "
                             "given by no rule book (the survey keeps the others)")
                   for name in named if option in cat.options and not out.given_by(option, name)]
    if errors:
        raise SpecErrors(errors)
    return out


def _check_proposals(doc: Document, cat: Catalog) -> list[SpecError]:
    errors = []
    for option, named in doc.data["proposals"].items():
        if option not in cat.options:
            errors.append(doc.error(("proposals", option), f"proposals: unknown option "
                                    f"{option!r} (a proposal for a new option belongs in "
                                    "docs/sources-survey.md until the option exists)"))
            continue
        for name in named:
            if name in cat.options[option].values:
                errors.append(doc.error(("proposals", option, name), f"proposals: "
                                        f"{option}={name} is a value of options.yaml now: "
                                        "drop it here and give it as `value` in the rule "
                                        "books that propose it"))
    return errors


def _check_names(doc: Document, cat: Catalog, proposals: Mapping[str, Mapping[str, str]],
                 key: str, option: str, stated: Mapping[str, Any],
                 where: tuple[str, ...]) -> list[SpecError]:
    """Each `value` a value of the option, each `proposed` a proposal that is not one."""
    known = cat.options[option].values
    offered = proposals.get(option, {})
    errors = []
    for field in ("value", "proposed"):
        raw = stated.get(field)
        for i, name in enumerate(_names(raw)):
            at = (*where, field) if isinstance(raw, str) else (*where, field, i)
            if field == "value" and name not in known:
                hint = (f"it is proposed: write `proposed: {name}`" if name in offered
                        else "a rule no value describes is written `proposed: NAME`, with "
                        "NAME under `proposals`")
                errors.append(doc.error(at, f"{key}: {option}={name} is not a value of "
                                        f"options.yaml (values: {', '.join(known)}); {hint}"))
            elif field == "proposed" and name in known:
                errors.append(doc.error(at, f"{key}: {option}={name} is a value of "
                                        f"options.yaml now: write `value: {name}`"))
            elif field == "proposed" and name not in offered:
                errors.append(doc.error(at, f"{key}: {option}={name} is not among the "
                                        f"proposals for {option} ("
                                        f"{', '.join(offered) or 'none'})"))
    return errors
