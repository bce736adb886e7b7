"""Making and checking what ships with the package for a first run (conformance/shipped.py):
the situations a default `mtrain conform` asks for, each rule set at the count the run
gives it, the shipped corpus's fixture files as read from YAML, and jsonschema's verdict
that they are valid; and, for a first `mtrain identify`, the corpus's pieces of the option
space (conformance/identify/shipped_pieces.py).

Kept apart from conformance/situations.py on purpose: what it imports (the corpus, the
selection of rule sets) is no part of how a situation is made, so it stays out of the
situations' code digest (cache.import_closure).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

from mtrain.conformance import shipped
from mtrain.spec.ruleset import Ruleset


def default_asks() -> list[tuple[Ruleset, int]]:
    """The rule sets a default `mtrain conform` of the embedded reference runs, each with
    the count of situations it asks (as conform chooses them: selection.py)."""
    from mtrain.conformance.selection import default_rulesets, load_fixtures, situation_count

    fixtures, errors = load_fixtures(None)
    if errors:
        raise ValueError(f"the shipped corpus does not load: {errors[0]}")
    rulesets = default_rulesets(fixtures)
    count = situation_count(None, False, rulesets)
    return [(rs, count) for rs in rulesets]


def make(asks: list[tuple[Ruleset, int]]) -> dict[str, Any]:
    """Each ask's entry, made afresh, by its key in the cache (JSON as read back: lists
    for tuples); rule sets the reference cannot play for have none."""
    from mtrain.conformance.situations import made_afresh, stand_in_for

    out: dict[str, Any] = {}
    for rs, count in asks:
        if count > 0 and stand_in_for(rs) is not None:
            key, data = made_afresh(rs, count)
            out[key] = orjson.loads(orjson.dumps(data))
    return out


def documents() -> tuple[dict[str, Any], list[str]]:
    """The shipped corpus's fixture files as spec/yamlload.py reads them, read now, by
    their key in the cache (JSON as read back; a file JSON cannot hold has none), and
    the digests of those jsonschema finds valid now against the fixture schema
    (yamlschema.judged_valid, asked of each document as a first run reads it back)."""
    from mtrain.conformance.fixture import fixture_files
    from mtrain.spec.yamlload import document_entry, document_from_entry, read_text
    from mtrain.spec.yamlschema import judged_valid, schema

    out: dict[str, Any] = {}
    valid: list[str] = []
    for path in fixture_files():
        found = document_entry(str(path), read_text(path))
        if found is None:
            continue
        out[found[0]] = entry = orjson.loads(orjson.dumps(found[1]))
        doc = document_from_entry(str(path), entry)
        key = None if doc is None else judged_valid(doc, schema("fixture"))
        if key is not None:
            valid.append(key)
    return out, sorted(valid)


def write(where: Path, asks: list[tuple[Ruleset, int]], with_documents: bool = True
          ) -> tuple[int, int, int]:
    """Make the entries (and the documents, unless told not to) and write the files;
    (rule sets, index bytes, payload bytes)."""
    from mtrain.conformance.situations import code_digest
    from mtrain.spec.yamlload import loader_digest

    entries = make(asks)
    read, valid = documents() if with_documents else ({}, [])
    index, payload = shipped.write(where, code_digest(), entries,
                                   (loader_digest(), read) if with_documents else None, valid)
    return len(entries), index, payload


def stale(where: Path, asks: list[tuple[Ruleset, int]], with_documents: bool = True
          ) -> list[str]:
    """How the files in `where` differ from entries made afresh for `asks` and (unless
    told not to) the documents read afresh (none: they are current), each a line of text."""
    from mtrain.conformance.situations import code_digest
    from mtrain.spec.yamlload import loader_digest

    fresh = make(asks)
    shipped.forget()
    kept = shipped.read_all(where)
    if kept is None:
        return [f"{where / shipped.INDEX} or {where / shipped.PAYLOAD}: missing, or does "
                "not agree with its index"]
    out = []
    if kept["code"] != code_digest():
        out.append("made by other code or spec data (the code digest differs)")
    entries: dict[str, Any] = kept["entries"]
    missing = [k for k in fresh if k not in entries]
    extra = [k for k in entries if k not in fresh]
    differ = [k for k in fresh if k in entries and entries[k] != fresh[k]]
    for what, keys in (("missing", missing), ("no longer asked", extra),
                       ("different", differ)):
        if keys:
            out.append(f"{len(keys)} entries {what} (e.g. {keys[0]})")
    if not with_documents:
        return out
    (read, valid), kept_documents = documents(), kept["documents"]
    if kept_documents["code"] != loader_digest():
        out.append("documents read by another loader (its digest differs)")
    if kept_documents["entries"] != read:
        changed = sorted(set(read) ^ set(kept_documents["entries"]))
        out.append(f"the fixture files' documents differ ({len(changed)} keys in one only)")
    if kept["valid"] != valid:
        out.append("the documents found valid differ "
                   f"({len(set(valid) ^ set(kept['valid']))} digests in one list only)")
    return out


def identify_pieces() -> tuple[str, dict[str, Any]]:
    """The cache entry of identify's pieces of the shipped corpus (identify/cells.py), each
    fixture explored afresh (neither the cache nor the files shipped are read): its name,
    and its value (JSON as read back)."""
    from mtrain.conformance.fixture import load_corpus
    from mtrain.conformance.gc_freeze import paused
    from mtrain.conformance.identify import cells
    from mtrain.conformance.lint.scopes import fixture_digest
    from mtrain.conformance.partition import explore
    from mtrain.spec.scope import Space

    fixtures, errors = load_corpus()
    if errors:
        raise ValueError(f"the shipped corpus does not load: {errors[0]}")
    space = Space()
    with paused():  # (the corpus's pieces are hundreds of thousands of containers)
        value = {fixture_digest(fx): cells._to_json(cells.pieces_of(explore(fx, space), space))
                 for fx in fixtures}
        return cells._entry_name(space), orjson.loads(orjson.dumps(value))


def identify_pieces_named() -> tuple[str, list[str]]:
    """The name identify_pieces' entry would have and the fixtures (digests) it would
    cover, without exploring anything (`--check`: shipped_pieces.stale)."""
    from mtrain.conformance.fixture import load_corpus
    from mtrain.conformance.identify import cells
    from mtrain.conformance.lint.scopes import fixture_digest
    from mtrain.spec.scope import Space

    fixtures, errors = load_corpus()
    if errors:
        raise ValueError(f"the shipped corpus does not load: {errors[0]}")
    return cells._entry_name(Space()), [fixture_digest(fx) for fx in fixtures]
