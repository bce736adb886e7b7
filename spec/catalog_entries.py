"""The catalogue's entries as its data files write them (options and their values, clauses,
provenance labels, rules set aside, variant and overlay files), and the readers that turn
each file into them, refusing a file of the wrong shape at its line."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from mtrain.spec.errors import shown
from mtrain.spec.tilesets import EVERY_DOUBLE, TileSetError, tile_set_values
from mtrain.spec.yamlload import Document, SpecError, SpecErrors
from mtrain.spec.yamlschema import schema, validate

T = TypeVar("T")

SOURCES = ("pagat", "puremco", "wikipedia", "cardinal", "fundex", "ourpastimes", "celko",
           "goodsam", "goodsam-fl", "hathaway", "thimble", "spaanszt", "greves", "dualtrain",
           "netexl", "house", "decision", "common", "engine")
"""The provenance labels, defined in spec/data/sources.yaml (`Catalog.sources`)."""


@dataclass(frozen=True)
class Value:
    name: str
    source: tuple[str, ...]
    text: str
    table: tuple[tuple[int, int], ...] = ()
    decision: str | None = None
    origin: str | None = None


@dataclass(frozen=True)
class Option:
    name: str
    title: str
    question: int | None
    values: dict[str, Value]


@dataclass(frozen=True)
class Clause:
    id: str
    title: str
    text: str
    sources: tuple[str, ...]
    when: dict[str, frozenset[str]] = field(default_factory=dict)
    requires: dict[str, frozenset[str]] = field(default_factory=dict)
    decision: str | None = None
    answers: tuple[int, ...] = ()
    line: int | None = None
    origin: str | None = None

    def applies(self, values: Mapping[str, str]) -> bool:
        """True when the rule set takes one of the listed values for every `when` option."""
        return all(values[o] in vs for o, vs in self.when.items())

    def satisfied(self, values: Mapping[str, str]) -> bool:
        return all(values[o] in vs for o, vs in self.requires.items())


@dataclass(frozen=True)
class Label:
    """A provenance label: what kind of origin it is, and what it means."""

    name: str
    kind: str
    text: str


@dataclass(frozen=True)
class SetAside:
    """A rule a source gives that no rule set encodes, with the reason."""

    id: str
    title: str
    sources: tuple[str, ...]
    text: str
    changes: str
    reason: str
    origin: str | None = None


@dataclass(frozen=True)
class VariantFile:
    """A variant or overlay file as written (not yet composed)."""

    name: str
    title: str
    source: tuple[str, ...]
    description: str
    base: str | None
    overlays: tuple[str, ...]
    options: dict[str, str]
    applies_to: tuple[str, ...] | None
    doc: Document


MALFORMED = (KeyError, TypeError, AttributeError, ValueError, IndexError)
"""What reading a file of the wrong shape raises in the readers below."""


def read_shaped(doc: Document, reader: Callable[..., T], *args: Any) -> T:
    """`reader(doc, *args)`, with data of a shape the reader does not expect (a list
    where a mapping belongs, a missing key) one SpecError naming the file, not a
    traceback; the readers name the line themselves where they check."""
    try:
        return reader(doc, *args)
    except SpecError:
        raise
    except MALFORMED as e:
        detail = f"missing key {e}" if isinstance(e, KeyError) else str(e)
        raise doc.error((), f"not in the shape this file takes ({detail})") from None

def read_variant_file(doc: Document) -> VariantFile:
    errors = validate(doc, schema("variant"))
    if errors:
        raise SpecErrors(errors)
    d = doc.data
    return VariantFile(
        name=d["name"], title=d["title"], source=tuple(d["source"]),
        description=d.get("description", ""), base=d.get("base"),
        overlays=tuple(d.get("overlays", ())), options=dict(d["options"]),
        applies_to=tuple(d["applies_to"]) if "applies_to" in d else None, doc=doc)


def read_options(doc: Document) -> dict[str, Option]:
    out = {}
    if not isinstance(doc.data, dict):
        raise doc.error((), "options.yaml must be a mapping of option names")
    for name, body in doc.data.items():
        if not isinstance(body, dict) or not isinstance(body.get("values"), dict):
            raise doc.error((name,), f"option {name!r} needs a `values` mapping")
        values = {}
        written = body["values"]
        try:  # SET-1: the sets no value names, given by one rule (tilesets.EVERY_DOUBLE)
            given = tile_set_values(body) if name == "tile_set" else written
        except TileSetError as e:
            raise doc.error((name, EVERY_DOUBLE), str(e)) from None
        for vname, v in given.items():
            at = (name, "values", vname) if vname in written else (name, EVERY_DOUBLE)
            src = tuple(v.get("source", ()))
            if not src or any(s not in SOURCES for s in src):
                raise doc.error((*at, "source"),
                                f"{name}={vname}: source must be a list from {SOURCES}")
            problem = provenance_problem(src, v)
            if problem:
                raise doc.error(at, f"{name}={vname}: {problem}")
            table = tuple(sorted((int(k), int(n)) for k, n in v.get("table", {}).items()))
            values[vname] = Value(vname, src, str(v.get("text", "")), table,
                                  v.get("decision"), v.get("origin"))
        if name == "hand_sizes" and not all(v.table for v in values.values()):
            raise doc.error((name,), "every hand_sizes value needs a table")
        out[name] = Option(name, str(body.get("title", name)), body.get("question"), values)
    return out


def read_clauses(doc: Document, options: dict[str, Option]) -> dict[str, Clause]:
    out: dict[str, Clause] = {}
    errors = []
    if not isinstance(doc.data, list):
        raise doc.error((), "clauses.yaml must be a list of clauses")
    for i, c in enumerate(doc.data):
        cid = c.get("id")
        if not isinstance(cid, str) or cid in out:
            errors.append(doc.error((i, "id"), f"clause id missing or repeated: {cid!r}"))
            continue
        conds: dict[str, dict[str, frozenset[str]]] = {}
        for key in ("when", "requires"):
            conds[key] = {}
            for opt, vals in (c.get(key) or {}).items():
                if opt not in options:
                    errors.append(doc.error((i, key, opt), f"{cid}: unknown option {shown(opt)}"))
                    continue
                for v in vals:
                    if v not in options[opt].values:
                        errors.append(doc.error((i, key, opt), f"{cid}: unknown value {shown(v)} "
                                                f"for {opt}"))
                conds[key][opt] = frozenset(vals)
        sources = tuple(c.get("sources", ()))
        problem = provenance_problem(sources, c)
        if problem:
            errors.append(doc.error((i,), f"{cid}: {problem}"))
        out[cid] = Clause(
            id=cid, title=c["title"], text=c["text"], sources=sources,
            when=conds["when"], requires=conds["requires"], decision=c.get("decision"),
            answers=tuple(c.get("answers", ())), line=doc.line_of((i,)),
            origin=c.get("origin"))
    if errors:
        raise SpecErrors(errors)
    return out


def provenance_problem(sources: Sequence[str], body: Mapping[str, Any]) -> str | None:
    """A `decision` source gives its reason, a `common` or `engine` one its origin, and
    only they do."""
    if not sources or any(s not in SOURCES for s in sources):
        return f"sources must be a non-empty list from {SOURCES}"
    if "decision" in sources and not body.get("decision"):
        return "a 'decision' source must give its reason in `decision`"
    if "decision" not in sources and body.get("decision"):
        return "`decision` is given without a 'decision' source"
    told = "common" in sources or "engine" in sources
    if told and not body.get("origin"):
        if "common" in sources:
            return "a 'common' source must give which house rule it is and where from in `origin`"
        return "an 'engine' source must give which engines play it in `origin`"
    if not told and body.get("origin"):
        return "`origin` is given without a 'common' or 'engine' source"
    return None


def read_sources(doc: Document) -> dict[str, Label]:
    data = doc.data
    if not isinstance(data, dict) or set(data) != set(SOURCES):
        raise doc.error((), f"sources.yaml must define exactly the labels {SOURCES}")
    return {name: Label(name, str(body["kind"]), str(body["text"]).strip())
            for name, body in data.items()}


def read_set_aside(doc: Document) -> list[SetAside]:
    out = []
    for i, body in enumerate(doc.data or []):
        sources = tuple(body.get("sources", ()))
        problem = provenance_problem(sources, body)
        if problem:
            raise doc.error((i,), f"{body.get('id')}: {problem}")
        out.append(SetAside(str(body["id"]), str(body["title"]), sources, str(body["text"]),
                            str(body["changes"]), str(body["reason"]), body.get("origin")))
    return out
