"""The scope partition as identify reads it: kept in the cache, then narrowed to what the
deals measured.

Each fixture's partition (conformance/partition.py) is a list of pieces: a region of the
option space (the options it pins, with the values it allows), the outcome of every entry
there, and the options the run read. It depends only on the fixture, the option space
and the code that plays it, so it is kept on disk (spec/cache.py) under the digest the
scope check of `mtrain lint` uses, and computed once per version of the code and data.

Under a measured hand table of the engine's own (no named table deals the same), the
pieces whose run read the table were played with the probe table that stands for any
table (spec/scope.py, PROBE_TABLE): each is played again with the measured table, and
explored further wherever that run reads options the probe's did not.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from mtrain.conformance.adapter import IMPOSSIBLE
from mtrain.conformance.code_digest import code_and_data_digest
from mtrain.conformance.fixture import Fixture
from mtrain.conformance.gc_freeze import paused
from mtrain.conformance.identify import shipped_pieces
from mtrain.conformance.lint.scopes import fixture_digest
from mtrain.conformance.partition import Partition, explore
from mtrain.conformance.traced import UNREACHED
from mtrain.spec import cache
from mtrain.spec.catalog import RulesetError
from mtrain.spec.ruleset import CUSTOM, Ruleset
from mtrain.spec.scope import KEPT_COMPLETIONS, Region, Space

KIND = "identify-cells"
ANY = "*"
"""A piece's outcome for an entry whose table its rules cannot hold: any answer fits."""
OUT_OF_BOUNDS = re.compile(r"state\.[a-z_]+\[\d+\]: -?\d+ is not in 0\.\.\d+$")
"""The reference's error for a count its rules cannot reach (reference/codec.py, _ints):
outs beyond the rounds of the match of that tile set (bounds-001's 15 outs under
double-9). The table does not exist under those rules, so an engine that plays it anyway
contradicts nothing there."""


@dataclass(frozen=True)
class Piece:
    """A region where a fixture plays the same: the options it pins (others: any value),
    the outcome of each entry, and the options the run read."""

    region: Mapping[str, frozenset[str]]
    outcomes: tuple[str, ...]
    read: tuple[str, ...]


def pieces_of(part: Partition, space: Space) -> list[Piece]:
    # (the options each region pins: found once for the scope check's proposals too)
    return [Piece({o: c.region[o] for o in pins}, _outcomes(c.run, impossible=False),
                  c.run.read) for c, pins in zip(part.cells, part.pinned(space), strict=True)]


_given: dict[int, tuple[Partition, tuple[tuple[str, tuple[str, ...]], ...], list[Piece]]] = {}
"""pieces_of of the partitions a caller passed, by the partition's id (the partition is
kept, so an id is never reused while its entry lives) and the space's options: a process
that identifies several engines on one corpus (the tests, the calibration) reads each
partition once."""
_kept: dict[str, dict[str, list[Piece]]] = {}
"""The cache entries read last (by name: the code's and data's digest), their pieces
decoded by fixture digest, at most KEPT of them: a process that identifies under several
sets of added examples (the tests: one entry each) reads each entry once."""
KEPT = 3
KEPT_ENTRIES = 32
KEPT_BYTES = 128 << 20
"""The most entries (and bytes) of pieces the cache keeps, those used least recently going
first (cache.prune): a corpus's is large (the shipped one's about 30 MB, 150 to 250 CPU s
to explore again), each set of rule-set files of one's own writes one of its own, most of
them small; a count alone let four small ones push the corpus's out."""
LAYOUT = 2
"""How a fixture's pieces are written in the entry (part of its name): per fixture, the
(option, values) pairs its regions are made of, its distinct outcomes and reads, then
each piece as indices into those: [outcome, read, pair...]. A corpus's hundreds of
thousands of pieces share a few dozen pairs and few outcomes, so the entry is a fraction
of the size of one that spells each region out, and is read in a fraction of the time."""


def _pieces_given(part: Partition, space: Space) -> list[Piece]:
    key = tuple((o, tuple(vs)) for o, vs in space.options.items())
    found = _given.get(id(part))
    if found is None or found[0] is not part or found[1] != key:
        if len(_given) > 20000:
            _given.clear()
        found = _given[id(part)] = (part, key, pieces_of(part, space))
    return list(found[2])


def _to_json(pieces: Sequence[Piece]) -> list[object]:
    pairs: dict[tuple[str, frozenset[str]], int] = {}
    outcomes: dict[tuple[str, ...], int] = {}
    reads: dict[tuple[str, ...], int] = {}
    coded = []
    # pairs found by their set (hashed once per set object), sorted once each: equal
    # sets are equal sorted tuples, so the entry is the same as one keyed by the tuple
    for p in pieces:
        piece = [outcomes.setdefault(p.outcomes, len(outcomes)),
                 reads.setdefault(p.read, len(reads))]
        for pair in p.region.items():
            piece.append(pairs.setdefault(pair, len(pairs)))
        coded.append(piece)
    return [[[o, sorted(vs)] for o, vs in pairs], [list(o) for o in outcomes],
            [list(r) for r in reads], coded]


def _from_json(data: object, fx: Fixture, known: Mapping[str, frozenset[str]],
               sets: dict[tuple[Any, ...], frozenset[str]] | None = None,
               tile_set: str | None = None) -> list[Piece] | None:
    """The pieces kept for `fx` (written by _to_json), or None for anything that is not
    them (`known`: each option's values; `sets`: the value sets already read, by option
    and values, shared by the caller's calls so that each is made and checked once);
    with `tile_set`, only those whose rules may play it (corpus_pieces)."""
    sets = {} if sets is None else sets
    entries = len(fx.expect)
    try:
        pairs, outcomes, reads, coded = cast(Sequence[Any], data)
        made: list[tuple[str, frozenset[str]]] = []
        for o, vs in pairs:
            key = (o, *vs)
            found = sets.get(key)
            if found is None:
                found = frozenset(vs)
                if o not in known or not found <= known[o]:
                    return None
                sets[key] = found
            made.append((o, found))
        outs = [tuple(x) for x in outcomes]
        if any(len(x) != entries or not all(isinstance(v, str) for v in x) for x in outs):
            return None
        read = [tuple(x) for x in reads]
        if not all(isinstance(v, str) for x in read for v in x):
            return None
        # (looked up by key, not by position: an index past the end or below 0 raises)
        pair = dict(enumerate(made)).__getitem__
        out_of, read_of = dict(enumerate(outs)), dict(enumerate(read))
        # (a piece pinning another tile set is left coded: narrowed would drop it)
        other = {i for i, (o, vs) in enumerate(made) if o == "tile_set" and tile_set not in vs
                 } if tile_set is not None else ()
        out = [Piece(dict(map(pair, p[2:])), out_of[p[0]], read_of[p[1]]) for p in coded
               if not other or other.isdisjoint(p[2:])]
    except (TypeError, ValueError, AttributeError, KeyError):
        return None
    return out or None


def corpus_pieces(fixtures: Sequence[Fixture], space: Space,
                  partitions: Mapping[str, Partition] | None = None,
                  progress: Callable[[int], None] | None = None,
                  tile_set: str | None = None) -> dict[str, list[Piece]]:
    """Every fixture's pieces: from `partitions` where given, else from the cache, else
    explored (and kept). With `tile_set` (the set the deals measured), the pieces read
    from the cache are only those whose rules may play it: a piece pinning other sets is
    one `narrowed` drops, and decoding every set's (2.3 million pieces of the shipped
    corpus) cost each identify 5 CPU s to keep a fraction (issue 20). Explored or given
    pieces are kept whole."""
    given = partitions if partitions is not None else {}
    out: dict[str, list[Piece]] = {}
    if all(fx.id in given for fx in fixtures):  # the cache is not read: nothing it holds is used
        for fx in fixtures:
            out[fx.id] = _pieces_given(given[fx.id], space)
            if progress is not None:
                progress(1)
        return out
    name = _entry_name(space)
    kept_as = f"{name}:{tile_set}" if tile_set else name  # (one set's: kept apart)
    decoded = _kept.pop(kept_as, None)
    stored: dict[str, object] | None = None  # the entry as kept, read only when needed
    from_package = False  # (stored is the entry shipped with the package: _stored)
    read_at: cache.Stamp | None = None  # (the entry's stamp before it was read)
    if decoded is None:
        while len(_kept) >= KEPT:
            del _kept[next(iter(_kept))]  # the one used least recently
        decoded = {}
        read_at = cache.stamp(KIND, name)
        with paused():  # (see below)
            stored, from_package = _stored(name)
    _kept[kept_as] = decoded  # (last: the most recently used)
    added: dict[str, object] = {}  # explored here, to add to the entry
    known = {o: frozenset(vs) for o, vs in space.options.items()}
    sets: dict[tuple[Any, ...], frozenset[str]] = {}
    for fx in fixtures:
        if fx.id in given:
            out[fx.id] = _pieces_given(given[fx.id], space)
        else:
            key = fixture_digest(fx)
            found = decoded.get(key)
            if found is None:
                # (the collector off: the hundreds of thousands of containers read and
                # made set off collections that walked them all, again and again: two
                # thirds of the time reading took)
                with paused():
                    if stored is None:
                        read_at = cache.stamp(KIND, name)
                        stored, from_package = _stored(name)
                    found = (_from_json(stored[key], fx, known, sets, tile_set)
                             if key in stored else None)
                if found is not None and from_package:
                    added[key] = stored[key]  # kept: the next run reads the cache alone
                if found is None:
                    found = pieces_of(explore(fx, space), space)
                    stored[key] = added[key] = _to_json(found)
                decoded[key] = found
            out[fx.id] = list(found)
        if progress is not None:
            progress(1)
    if added and stored is not None:
        # added to the entry as it stands now: another process may have added to it since
        # (`stored`, read here, holds `added` already: written as it is if nobody did)
        with paused():
            cache.update(KIND, name, lambda now: now if now is stored else {**now, **added},
                         keep=KEPT_ENTRIES, budget=KEPT_BYTES,
                         seen=(read_at, stored))
    return out


def _stored(name: str) -> tuple[dict[str, object], bool]:
    """The entry `name` as the cache keeps it, else as shipped with the package for a first
    run (identify/shipped_pieces.py: only an entry of this very name), else {}; and
    whether it is the shipped one."""
    kept = cache.read(KIND, name)
    if isinstance(kept, dict):
        return kept, False
    from_package = shipped_pieces.entry(name)
    return (from_package, True) if from_package is not None else ({}, False)


def _entry_name(space: Space) -> str:
    return f"{cache.digest(code_and_data_digest(space), KIND, str(LAYOUT))}.json"


class Keeper:
    """Keeps the pieces of partitions explored elsewhere (the scope check of `mtrain
    lint` explores every fixture of a corpus exactly as identify would): `add` each,
    then `save` once."""

    def __init__(self, space: Space) -> None:
        self.space = space
        self.found: dict[str, list[Piece]] = {}

    def add(self, fx: Fixture, part: Partition) -> None:
        self.found[fixture_digest(fx)] = pieces_of(part, self.space)

    def save(self) -> None:
        if not self.found:
            return
        name = _entry_name(self.space)
        # (with the collector off: the lists of a corpus's pieces are hundreds of
        # thousands of containers, and the collections they set off walked the heap a
        # scope check leaves, again and again: two thirds of the time this took)
        added = {key: _to_json(pieces) for key, pieces in self.found.items()}
        with paused():
            cache.update(KIND, name, lambda now: {**now, **added}, keep=KEPT_ENTRIES,
                         budget=KEPT_BYTES)
        for kept_as, decoded in _kept.items():
            if kept_as.split(":")[0] == name:  # (whole: narrowed drops other sets')
                decoded.update(self.found)


def narrowed(fx: Fixture, pieces: Sequence[Piece], allowed: Region, space: Space,
             table: tuple[tuple[int, int], ...] | None) -> list[Piece]:
    """The pieces inside `allowed`, with the options `allowed` pins left out of their
    regions; under `table` (a hand table of the engine's own, `hand_sizes` allowed only
    `custom`), the pieces that read the table played again with it."""
    out = []
    for p in pieces:
        region: dict[str, frozenset[str]] = {}
        for o, vs in p.region.items():
            keep = vs & allowed[o] if o in allowed else vs
            if not keep:
                break
            region[o] = keep
        else:
            if table is not None and "hand_sizes" in p.read:
                start = {**space.full(), **allowed, **region}
                out += explore_in(fx, start, allowed, space, table)
                continue
            out.append(Piece(_unpinned(region, allowed), p.outcomes, p.read))
    return out


def _unpinned(region: Mapping[str, frozenset[str]], allowed: Region) -> dict[str, frozenset[str]]:
    return {o: vs for o, vs in region.items() if o not in allowed or vs != allowed[o]}


def explore_in(fx: Fixture, start: Region, allowed: Region, space: Space,
               table: tuple[tuple[int, int], ...] | None) -> list[Piece]:
    """partition.explore over `start`, its pieces narrowed to `allowed`; with `table`,
    each rule set played with it as its own."""
    def played(values: dict[str, str]) -> Ruleset | None:
        return space.ruleset(values) if table is None else _with_table(space, table, values)

    full = space.full()
    part = explore(fx, space, start=start, ruleset=played)
    return [Piece(_unpinned({o: vs for o, vs in c.region.items() if vs != full[o]}, allowed),
                  _outcomes(c.run), c.run.read) for c in part.cells]


_tabled: list[Any] = [None, None, {}]
"""The space and table of the rule sets in the dict (_with_table), by point."""


def _with_table(space: Space, table: tuple[tuple[int, int], ...],
                values: dict[str, str]) -> Ruleset | None:
    """The rule set of a point played with `table` as its own; None where the table
    cannot be dealt under its values (DEAL-8). One object per point, as Space.ruleset
    hands out: the traced runs keep a rule set's flags and answers by its identity
    (traced._kept), and narrowed explores the same points for fixture after fixture
    (a new object per run built them again: the most of identify's time on an engine
    with a table of its own)."""
    if _tabled[0] is not space or _tabled[1] != table:
        _tabled[:] = [space, table, {}]
    kept: dict[tuple[tuple[str, str], ...], Ruleset | None] = _tabled[2]
    key = tuple(values.items())
    if key in kept:
        return kept[key]
    if len(kept) >= KEPT_COMPLETIONS:
        kept.clear()
    cat = space.cat
    plain, _ = space.catalog_form(values)
    try:
        found: Ruleset | None = cat.from_values({**plain, "hand_sizes": CUSTOM},
                                                cat.describe(values), table)
    except RulesetError:  # the table cannot be dealt under these values (DEAL-8)
        found = None
    kept[key] = found
    return found


def _outcomes(run: Any, impossible: bool = True) -> tuple[str, ...]:
    """A run's outcomes, ANY for an entry whose table the region's rules never reach (a
    phase or an open double they never have: traced.never_reached) or the reference
    cannot hold under them (an impossible state, failed or erred on, as a step the
    reference cannot take is: a situation played under another value, a train ending in
    a double that no open double names under open doubles; a count
    beyond the rules' bounds, which the reference refuses to read): an engine's answer
    there says nothing of whether it plays those rules. Without `impossible` (the
    corpus's own pieces), a table never reached keeps the outcome its play had
    (`Run.played`): read as any answer, it let a rule that never has those tables explain
    whatever an engine of house rules does on them (calibration's case-7, open doubles,
    was read `ordinary`, sure). An impossible state has no play to keep: its failure
    contradicted every engine that answered the table (s46-dbl-005, no open double
    listed though a train ends in one, against `doubles: open`)."""
    outcomes = run.played if run.played and not impossible else run.outcomes
    return tuple(ANY if (o in ("fail", "error")
                         and any(m.startswith(IMPOSSIBLE) for m in said))
                 or (impossible and o == "fail" and said and said[0].startswith(UNREACHED))
                 or (o == "error" and said and all(OUT_OF_BOUNDS.search(m) for m in said))
                 else o
                 for o, said in zip(outcomes, run.messages, strict=True))
