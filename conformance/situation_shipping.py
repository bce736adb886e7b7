"""Making and checking what ships with the package for a first run (conformance/shipped.py):
the situations a default `mtrain conform` asks for, each rule set at the count the run
gives it, the shipped corpus's fixture files as read from YAML, and jsonschema's verdict
that they are valid; for a first `mtrain identify`, the corpus's pieces of the option space
(conformance/identify/shipped_pieces.py); and for a first `mtrain lint`, the corpus's scope
checks (conformance/lint/shipped_scopes.py), both from one exploration.

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


def explorations() -> tuple[tuple[str, dict[str, Any]], tuple[str, dict[str, Any]]]:
    """identify's pieces of the shipped corpus (identify/cells.py) and the lint's scope
    checks of it (lint/scopes.py), each the cache entry a cold run would write, from one
    exploration of every fixture made afresh (neither the cache nor the files shipped are
    read): each as its name and its value (JSON as read back)."""
    from mtrain.conformance.fixture import Fixture, load_corpus
    from mtrain.conformance.gc_freeze import paused
    from mtrain.conformance.identify import cells
    from mtrain.conformance.lint.scopes import (
        ScopeCache,
        fixture_digest,
        kept_json,
        scope_fixture,
    )
    from mtrain.conformance.partition import Partition
    from mtrain.spec.errors import InputError
    from mtrain.spec.scope import Space

    fixtures, errors = load_corpus()
    if errors:
        raise ValueError(f"the shipped corpus does not load: {errors[0]}")
    space = Space()
    pieces: dict[str, Any] = {}
    scopes: dict[str, Any] = {}

    def keep(fx: Fixture, part: Partition) -> None:
        pieces[fixture_digest(fx)] = cells._to_json(cells.pieces_of(part, space))

    with paused():  # (the corpus's pieces are hundreds of thousands of containers)
        for fx in fixtures:
            check = kept_json(fx, scope_fixture(fx, space, keep))
            if fixture_digest(fx) not in pieces or check is None:
                # past the limit of regions, or a message naming its file: a lint says
                # so (identify cannot read such a fixture's partition either)
                raise InputError(f"{fx.where}: its partition cannot be shipped; run "
                                 "`mtrain lint` on the corpus")
            scopes[fixture_digest(fx)] = check
        return ((cells._entry_name(space), orjson.loads(orjson.dumps(pieces))),
                (ScopeCache.entry_name(space), orjson.loads(orjson.dumps(scopes))))


def identify_pieces() -> tuple[str, dict[str, Any]]:
    """identify's pieces of the shipped corpus, made afresh (explorations)."""
    return explorations()[0]


def explorations_named() -> tuple[str, str, list[str]]:
    """The names explorations' entries would have (identify's pieces, the lint's scope
    checks) and the fixtures (digests) both would cover, without exploring anything
    (`--check`: ShippedEntry.stale)."""
    from mtrain.conformance.fixture import load_corpus
    from mtrain.conformance.identify import cells
    from mtrain.conformance.lint.scopes import ScopeCache, fixture_digest
    from mtrain.spec.scope import Space

    fixtures, errors = load_corpus()
    if errors:
        raise ValueError(f"the shipped corpus does not load: {errors[0]}")
    space = Space()
    return (cells._entry_name(space), ScopeCache.entry_name(space),
            [fixture_digest(fx) for fx in fixtures])
