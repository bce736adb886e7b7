"""Where a fixture's expectations hold: its outcome over the whole option space.

The reference engine reads a rule set only through its flags (reference/rules.py) and the
Ruleset; a traced run records which options it read, in order. The engine is
deterministic, so every rule set that agrees with the run on the options it read plays the
fixture identically: the run decides a whole region of the option space at once. Exploring
the other values of each option read, one region after another, partitions the option
space into regions of equal outcome (usually a few dozen runs per fixture, against
172,800 valid rule sets). A hand table read row by row splits off only the tables that
answer those rows otherwise (`_alike_tables`), not each table from every other: each
rule-set file's table is a value of its own. The partition is exact, not a sample;
`Space.complete` proves a region holds no valid rule set before it is skipped.

From the partition: `check` lists every region inside an entry's written scope where its
expectation does not hold; `propose` writes the widest scope where it does. The engine
only decides where an expectation holds; what it expects comes from the rule text.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field

from mtrain.conformance.fixture import Expectation, Fixture
from mtrain.conformance.runmemo import QuestionTree, RunMemo
from mtrain.conformance.traced import (
    Log,
    Run,
    TableRead,
    logged_run,
    traced_run,
    with_table,
)
from mtrain.spec.catalog import Catalog
from mtrain.spec.ruleset import CUSTOM, OTHER, Ruleset
from mtrain.spec.scope import (
    Product,
    Region,
    Scope,
    Space,
    values_of,
)
from mtrain.spec.tilesets import highest

# --- the partition -------------------------------------------------------------------


@dataclass(frozen=True)
class Cell:
    """A region of the option space where the fixture plays the same: `run` is one of
    its rule sets, and every valid rule set in `region` has the same outcomes."""

    region: Region
    run: Run


@dataclass
class Partition:
    fixture: Fixture
    cells: list[Cell] = field(default_factory=list)

    _pinned: tuple[int, dict[str, frozenset[str]], list[tuple[str, ...]]] | None = field(
        default=None, init=False, repr=False, compare=False)

    @property
    def runs(self) -> int:
        return len(self.cells)

    def pinned(self, space: Space) -> list[tuple[str, ...]]:
        """Per cell, the options its region pins (holds fewer values of than the space),
        in the region's order: asked by propose and by identify's pieces of the same
        partition (680,000 cells a cold lint, each compared option by option), made
        once while the cells and the space's values stay as they were."""
        full = space.full()
        kept = self._pinned
        if kept is not None and kept[0] == len(self.cells) and kept[1] == full:
            return kept[2]
        # (`is not` first: most of a region's sets are the space's own, and `!=` compares
        # two equal sets element by element)
        found = [tuple([o for o, vs in c.region.items() if vs is not full[o] and vs != full[o]])
                 for c in self.cells]
        self._pinned = (len(self.cells), full, found)
        return found


REGION_LIMIT = 100000
"""The most regions one fixture's partition may have: a match's winners read the tile set,
the scoring, the blank values and the tie rule, each set with a last round of its own
(generated-tie-rule-003 has 30,301 regions over the thirteen sets double-6 to double-18,
about 4 CPU s; 64,573 when each hand table was a region of its own, and 106,333 once ten
rule-set files gave ten tables); a fixture past it reads too much to explore."""


def explore(fx: Fixture, space: Space | None = None, limit: int = REGION_LIMIT,
            start: Region | None = None,
            ruleset: Callable[[dict[str, str]], Ruleset | None] | None = None) -> Partition:
    """Partition the option space (or the region `start`) by the fixture's outcome (see
    the module docstring); `ruleset`: the rule set a point is played with (default
    space.ruleset; None from it: the point is skipped, as one no rule set has)."""
    space = space or Space()
    part = Partition(fx)
    # (a start region names some options; the rest take every value, as in space.full())
    pending: list[Region] = [{**space.full(), **start} if start is not None else space.full()]
    complete = space.completer(_written_values(fx, space.cat))
    names = space.names
    memo = RunMemo(plays_of(fx))
    singles, rests = _singles, _rests
    # (None: a `ruleset` of the caller's may play a point with another table than its own)
    alike: dict[object, tuple[frozenset[str], frozenset[str]]] | None = (
        {} if ruleset is None else None)
    while pending:
        region = pending.pop()
        point = complete(region)
        if point is None:
            continue  # no valid rule set here
        values = dict(zip(names, point, strict=True))
        rs = space.ruleset_at(point, values) if ruleset is None else ruleset(values)
        if rs is None:
            continue
        run = traced_run(fx, rs, point=values, memo=memo)
        cell = dict(region)
        for option in run.read:
            value = values[option]
            now = cell[option]
            if (option == "hand_sizes" and alike is not None and run.table_read is not None
                    and value != CUSTOM):
                # read row by row: the tables that agree there stay together, not one
                # region per table (each rule-set file's table is a value of its own)
                key = (now, rs.hand_table, run.table_read)
                split = alike.get(key)
                if split is None:
                    split = alike[key] = _alike_tables(space, now, value, rs,
                                                       run.table_read)
                if split[1]:
                    pending.append({**cell, option: split[1]})
                cell[option] = split[0]
                continue
            # (_rest and _single, looked up in place: asked 1.9 million times a lint)
            rest = rests.get((now, value))
            if rest is None:
                rest = _rest(now, value)
            if rest:
                pending.append({**cell, option: rest})
            single = singles.get(value)
            cell[option] = single if single is not None else _single(value)
        made = object.__new__(Cell)  # (the frozen class's __init__: 300,000 cells a lint)
        made.__dict__.update(region=cell, run=run)
        part.cells.append(made)
        if len(part.cells) > limit:
            raise RuntimeError(f"{fx.id}: more than {limit} regions; the outcome reads "
                               "too many options to explore")
    return part


_plays: dict[str, QuestionTree] = {}
KEPT_PLAYS = 32
"""Memos of plays kept, the least recently asked dropped: the fixtures that play alike
mostly lie near each other in the corpus (with 32, 85 % of the runs they could share;
each memo holds the states of its plays, and the corpus has 526)."""


def plays_of(fx: Fixture) -> QuestionTree:
    """The memo of plays (RunMemo.plays) of the fixtures that play as `fx` does: the same
    table or deal, steps, and probing of the setup (what runner.play reads of a fixture).
    A third of the corpus's runs that its memo of runs cannot serve are of a fixture that
    another one plays alike (the same table checked otherwise): their plays are served,
    only their checks are made. (An error's messages may say where the fixture is
    written: traced.logged_run plays those again for each fixture.)"""
    key = repr((fx.table, fx.deal, fx.steps, fx.probes_setup))
    found = _plays.pop(key, None)  # (put back last: the most recently asked)
    if found is None:
        found = QuestionTree()
        if len(_plays) >= KEPT_PLAYS:
            del _plays[next(iter(_plays))]
    _plays[key] = found
    return found


_singles: dict[str, frozenset[str]] = {}
_rests: dict[tuple[frozenset[str], str], frozenset[str]] = {}
KEPT_RESTS = 1 << 16


def _single(value: str) -> frozenset[str]:
    """{value}, one object per value: the explorations' regions share their sets, so each
    is hashed once (completions are kept by the regions' sets, Space.complete)."""
    found = _singles.get(value)
    if found is None:
        found = _singles[value] = frozenset((value,))
    return found


def _rest(values: frozenset[str], value: str) -> frozenset[str]:
    """`values` less `value`, one object per result (as `_single`)."""
    key = (values, value)
    found = _rests.get(key)
    if found is None:
        if len(_rests) >= KEPT_RESTS:
            _rests.clear()
        found = _rests[key] = values - {value}
    return found


def _alike_tables(space: Space, values: frozenset[str], value: str, rs: Ruleset,
                  read: TableRead) -> tuple[frozenset[str], frozenset[str]]:
    """`values` (of hand_sizes) split in two: those whose tables agree with `rs`'s (played
    for `value`) where a run read it row by row (`read`), and the rest. `custom` stands
    for any table: never among the first."""
    own = dict(rs.hand_table)
    same = frozenset(v for v in values if v != CUSTOM
                     and _table_agrees(space.table_of(v), own, read))
    if value not in same:  # (`value`'s table is not the one played: a value alone)
        same = _single(value)
    return same, values - same


def _written_values(fx: Fixture, cat: Catalog) -> dict[str, str]:
    """The first written rule set's values: explored first, so its cell is found at once."""
    for exp in fx.expect:
        for name in exp.variants:
            return values_of(cat, cat.ruleset(name))
    return {}


# --- checking and proposing scopes ---------------------------------------------------


@dataclass(frozen=True)
class Breach:
    """A region inside an entry's scope where its expectation does not hold."""

    entry: int
    region: Region
    example: str  # a rule set of the region, by name
    outcome: str
    messages: tuple[str, ...]


def breaches(part: Partition, space: Space) -> list[Breach]:
    """Every region inside an entry's written scope where the entry does not hold."""
    out = []
    full = space.full()
    for i, exp in enumerate(part.fixture.expect):
        for cell in part.cells:
            left_out = cell.run.unlisted[i] if cell.run.unlisted else ()
            if cell.run.outcomes[i] == "pass" and not left_out:
                continue
            region = cell.region
            for product in exp.scope.products:
                # (most cells lie apart from most products: told at once, no region built;
                # a loop, not any() over a generator: asked of every failing cell)
                apart = False
                for o, vs in product.allowed:
                    if region.get(o, full[o]).isdisjoint(vs):
                        apart = True
                        break
                if apart:
                    continue
                both = space.intersect(region, product.region())
                if both is None:
                    continue
                example = space.complete(both, cell.run.values)
                if example is None:
                    continue
                passed = cell.run.outcomes[i] == "pass"
                out.append(Breach(i, both, space.cat.describe(example),
                                  "incomplete" if passed else cell.run.outcomes[i],
                                  left_out if passed else cell.run.messages[i]))
    return out


def overlaps(part: Partition, space: Space) -> list[tuple[int, int, str]]:
    """Pairs of entries whose written scopes share a valid rule set (named)."""
    out = []
    entries = part.fixture.expect
    for i in range(len(entries)):
        for j in range(i + 1, len(entries)):
            for p in entries[i].scope.products:
                for q in entries[j].scope.products:
                    both = space.intersect(p.region(), q.region())
                    example = None if both is None else space.complete(both)
                    if example is not None:
                        out.append((i, j, space.cat.describe(example)))
                        break
                else:
                    continue
                break
    return out


def propose(part: Partition, space: Space) -> list[Scope]:
    """For each entry, the widest scope where it holds: few products, few options each.

    A cell that passes several entries goes to the one whose written scope holds it (else
    the first). Each product grows, option by option and value by value, while it meets
    no valid rule set of a cell assigned elsewhere; options left with every value are
    dropped from it.
    """
    entries = part.fixture.expect
    owner: list[int | None] = []
    for cell in part.cells:
        passing = [i for i, o in enumerate(cell.run.outcomes) if o == "pass"
                   and not (cell.run.unlisted and cell.run.unlisted[i])]  # holds in full
        written = [i for i in passing if entries[i].scope.contains(cell.run.values)]
        chosen = written or passing
        owner.append(chosen[0] if chosen else None)
    out = []
    # the options each cell pins (the others it holds whole), found once for every _grow
    cells = Forbidden([c.region for c in part.cells], space, part.pinned(space))
    for i, exp in enumerate(entries):
        mine = [c for c, w in zip(part.cells, owner, strict=True) if w == i]
        others = cells.every & ~_mask([k for k, w in enumerate(owner) if w == i],
                                      len(owner))
        products: list[Product] = []
        for cell in mine:
            # skipped only when a product holds its whole region, not just its sample:
            # a cell whose run read fewer options spans more than the sample's cell
            if any(all(cell.region[o] <= vs for o, vs in p.region().items())
                   for p in products):
                continue
            products.append(_grow(cell.region, cells, space, among=others))
        products = [_live(p, space) for p in products]
        products = [p for k, p in enumerate(products) if not any(
            k != m and _within(p, q, space) and (not _within(q, p, space) or m < k)
            for m, q in enumerate(products))]
        own = list(exp.scope.products[:len(exp.scope.variants)])
        out.append(Scope(tuple(own + [p for p in products if p not in own]),
                         exp.scope.variants))
    return out


class Forbidden:
    """Regions that `_grow` must not meet, as bit masks over their indices (bit k: region
    k), made once per partition and shared by every product grown from it: which regions
    pin each option (lack a value of the space there), and which of those hold each value.
    What `_grow` asks of each region in turn is then a few operations on whole masks."""

    def __init__(self, regions: Sequence[Region], space: Space,
                 pinned: Sequence[tuple[str, ...]] | None = None) -> None:
        full = space.full()
        self.regions = regions
        if pinned is None:
            pinned = [tuple(o for o in full if f.get(o, full[o]) != full[o])
                      for f in regions]
        at: dict[str, list[int]] = {o: [] for o in full}
        holding: dict[str, dict[str, list[int]]] = {o: {} for o in full}
        for k, (f, pins) in enumerate(zip(regions, pinned, strict=True)):
            for o in pins:
                at[o].append(k)
                for v in f[o]:
                    holding[o].setdefault(v, []).append(k)
        n = len(regions)
        self.every = (1 << n) - 1
        self.pinned = {o: _mask(ks, n) for o, ks in at.items()}
        self.has = {o: {v: _mask(ks, n) for v, ks in by.items()}
                    for o, by in holding.items()}


def _mask(indices: Sequence[int], n: int) -> int:
    bits = bytearray((n >> 3) + 1)
    for k in indices:
        bits[k >> 3] |= 1 << (k & 7)
    return int.from_bytes(bits, "little")


def _grow(seed: Region, forbidden: Sequence[Region] | Forbidden, space: Space,
          pinned: Sequence[tuple[str, ...]] | None = None, among: int | None = None
          ) -> Product:
    """`seed` widened, option by option and value by value, while it meets no valid
    rule set of `forbidden` (of its regions, those in the mask `among`: default all).

    Whether a wider region meets a forbidden one is asked of `space.meets` only where it
    can: each forbidden region keeps the options on which the region and it share no
    value (its gaps). One with two or more gaps stays apart whatever value is added; one
    with a single gap meets the wider region only if the value added is one of its own
    there. So most of the forbidden regions are never looked at again. `pinned`: per
    forbidden region, the options where it lacks a value of the space (on the others it
    holds them all, so the seed and it share a value there)."""
    cells = forbidden if isinstance(forbidden, Forbidden) else Forbidden(forbidden, space,
                                                                            pinned)
    among = cells.every if among is None else among
    region = dict(seed)
    full = space.full()
    # per option, the regions with a gap there: pinned, and holding no value of the seed's
    gap: dict[str, int] = {}
    for o in full:
        pins = cells.pinned[o] & among
        if pins:
            held = 0
            has = cells.has[o]
            for v in region[o]:
                held |= has.get(v, 0)
            pins &= ~held
        gap[o] = pins

    def apart() -> tuple[int, int]:  # the regions with a gap, and with two or more
        ones = twos = 0
        for g in gap.values():
            if g:
                twos |= ones & g
                ones |= g
        return ones, twos

    ones, twos = apart()
    for option, values in space.options.items():
        for v in values:
            if v in region[option]:
                continue
            wider = {**region, option: region[option] | {v}}
            has_v = cells.has[option].get(v, 0)
            # those with no gap (they meet no valid rule set yet), and those whose one gap
            # is this option, holding v there
            near = (among & ~ones) | (gap[option] & ~twos & has_v)
            if near and any(space.meets(wider, cells.regions[k]) for k in _indices(near)):
                continue
            region = wider
            if gap[option] & has_v:
                gap[option] &= ~has_v
                ones, twos = apart()
    return Product.of({o: vs for o, vs in region.items() if vs != full[o]})


def _indices(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _live(product: Product, space: Space) -> Product:
    """`product` without the values of its listed options that no valid rule set of it
    takes: the same rule sets, said truly. `_grow` takes in such a value for nothing (it
    meets no rule set), so a scope on tiles up to 13 read "tile_set in {double-9, ...,
    double-13}, hand_sizes in {pagat, ...}" where only double-13 with a table of its own
    was meant; an option grown to every value is dropped whole as before. A value dead
    in the region stays dead once the others are gone (they held no rule set), so one
    pass is enough."""
    region = product.region()
    kept = {o: frozenset(v for v in vs
                         if space.complete({**region, o: frozenset((v,))}) is not None)
            for o, vs in region.items()}
    if kept == region or not all(kept.values()):  # (a cell's own product is never empty)
        return product
    return Product.of(kept)


def _within(p: Product, q: Product, space: Space) -> bool:
    """Every rule set of p lies in q (so p adds nothing to a union holding q)."""
    full, pr = space.full(), p.region()
    return all(pr.get(o, full[o]) <= vs for o, vs in q.region().items())


def beyond(scope: Scope, space: Space) -> bool:
    """True when the scope holds a valid rule set that none of its variants is."""
    points = [p.region() for p in scope.products[:len(scope.variants)]]
    for product in scope.products[len(scope.variants):]:
        todo = [product.region()]
        while todo:
            region = todo.pop()
            found = space.complete(region)
            if found is None:
                continue
            if not any(all(found[o] in vs for o, vs in pt.items()) for pt in points):
                return True
            full = space.full()
            for o in space.options:  # look for another rule set of the region
                rest = region.get(o, full[o]) - {found[o]}
                if rest:
                    todo.append({**region, o: rest})
                region = {**region, o: frozenset((found[o],))}
    return False


# --- applicability under a rule set with rules of its own -----------------------------


def applies(exp: Expectation, fx: Fixture, rs: Ruleset, space: Space) -> str | None:
    """Whether `exp` speaks about `rs`: None if it does, else why not.

    A rule set of known values is its point of the option space, in the scope or not.
    Options played their own way (`other`) are judged by a traced run of the reference
    with a known value in place of each: if the outcome reads none of them, it is the
    same whatever they are, and the entry applies when some choice of them puts the rule
    set in its scope.

    A table of one's own is judged by the rows the outcome reads: the reference plays
    the table itself, and a run is the same under every table that gives the same sizes
    (and lists the same player counts) where the run looks (DEAL-1, DEAL-7). So the entry
    applies when some table of its scope, a named one or an example's, agrees with the
    table there: an expectation worked out for 16 tiles each at 2 players holds for
    every table that deals 2 players 16, whatever it deals to 3.
    """
    values = space.point(rs)
    unknown = list(rs.unknown)
    if not unknown and exp.scope.contains(values):
        return _deals_players(exp, fx, rs, values)
    refused = _deals_players(exp, fx, rs, values)
    if refused is not None:  # a run would only see its setup refused (DEAL-7)
        return refused
    if not unknown and not rs.custom_table:
        return "outside the expectation's scope"
    region: Region = {o: frozenset((v,)) for o, v in values.items() if o not in unknown}
    # an entry that no value of the options played its own way (nor any table) brings
    # the rule set into speaks about other rules, whatever the run reads: not applicable
    # "because it depends on" them would blame the house rule for a scope it never had
    known = {o: vs for o, vs in region.items() if not (rs.custom_table and o == "hand_sizes")}
    if not any(space.meets(known, p.region()) for p in exp.scope.products):
        return "outside the expectation's scope"
    if unknown:
        sample = space.complete(region)
        if sample is None:
            return "no known rule set stands in for its own rules here"
        stand_in = space.ruleset(sample)
        if rs.custom_table:  # the reference plays the table itself
            stand_in = with_table(stand_in, rs.hand_table)
    else:
        sample, stand_in = values, rs
    run, log = logged_run(fx, stand_in, [exp], dict(sample))
    decided = [o for o in unknown if o in log.decides]
    if "starting_seat" in decided and notation_only(fx, exp, stand_in, sample):
        decided.remove("starting_seat")
    if (decided == ["starting_seat"] and rs.custom_table and "hand_sizes" in run.read
            and _table_rules_out(exp, fx, rs, space, region, log)):
        return OWN_TABLE_AND_SEAT
    if decided:
        return "its outcome depends on " + ", ".join(
            f"{o} (played its own way)" for o in decided)
    if rs.custom_table and "hand_sizes" in run.read:
        region["hand_sizes"] = frozenset(
            v for v in space.options["hand_sizes"] if _same_rows(space, v, rs, log))
    for product in exp.scope.products:
        inside = space.intersect(region, product.region())
        if inside is not None and space.complete(inside) is not None:
            return _deals_players(exp, fx, rs, values)
    if rs.custom_table and any(space.meets({**region, "hand_sizes": full}, p.region())
                               for p in exp.scope.products
                               for full in [frozenset(space.options["hand_sizes"])]):
        if run.outcomes == ("pass",):
            # No named table deals as this one does where the run looks, but the
            # reference, playing the table itself, checks the entry's expectation and
            # finds it holds (the check lint makes of a scope, at one more point): an
            # outcome the table does not change, such as a rotating start (SEAT-3)
            return _deals_players(exp, fx, rs, values)
        return OWN_TABLE
    return "outside the expectation's scope"


OWN_TABLE = ("its outcome depends on hand_sizes (played with a table of its own, the "
             "reference finds another outcome than the entry's)")
"""`applies`'s answer for an entry a table of one's own deals otherwise than its scope."""
OWN_TABLE_AND_SEAT = OWN_TABLE + " and on starting_seat (played its own way)"
"""`applies`'s answer for an entry that a table of one's own keeps from it, as well as the
starting seat of one's own its run read (`_table_rules_out`)."""


def _table_rules_out(exp: Expectation, fx: Fixture, rs: Ruleset, space: Space,
                     region: Region, log: Log) -> bool:
    """Whether `rs`'s table of its own keeps `exp` from it, as well as the starting seat
    of its own the run read: no table of the scope deals as it does where the run looks,
    and the reference, playing that table, finds another outcome than the entry's under
    every known starting seat. Such an entry (a deal expecting a named table's sizes) is
    not applicable for its table first: the start alone blamed would send the reader to
    the wrong rule (gondola's file: 33 deals and a table that deals their count)."""
    rows = frozenset(v for v in space.options["hand_sizes"] if _same_rows(space, v, rs, log))
    here = {**region, "hand_sizes": rows}
    for product in exp.scope.products:
        inside = space.intersect(here, product.region())
        if inside is not None and space.complete(inside) is not None:
            return False
    tried = 0
    for value in space.options["starting_seat"]:
        sample = space.complete({**region, "starting_seat": frozenset((value,))})
        if sample is None:
            continue  # a start the other rules do not allow
        known = space.ruleset(sample)
        played = with_table(known, rs.hand_table)
        if logged_run(fx, played, [exp], dict(sample))[0].outcomes == ("pass",):
            return False  # a start gives the entry's outcome with this table
        tried += 1
    return tried > 0


def round_of_its_own(fx: Fixture, rs: Ruleset) -> int | None:
    """Why a refused setup is no failure: under a match length of one's own, a fixture
    set in a round after the first (its table's or its deal's) may ask for a round the
    implementation's match does not have. `applies` lets such an entry run (the match
    length decides whether the round exists, not what happens in it: EXISTENCE_FLAGS), so
    the implementation says which rounds it has. None when the refusal is a failure."""
    if rs["match_length"] != OTHER:
        return None
    start = fx.table if fx.table is not None else fx.deal
    top = highest(rs["tile_set"])
    engine = (start or {}).get("engine", top)  # the engine names the round (ENG-1)
    if not isinstance(engine, int) or not 0 <= engine < top:
        return None
    return top - engine + 1


REFUSED_ROUND = ("the implementation refused the setup of a round after the first: a match "
                 "of its own length (match_length played its own way) need not have it "
                 "[MATCH-1]")
"""The reason a refused later round is not applicable: the same for every round and table,
so that the report counts them under one reason (its round and the implementation's words
follow it in the result's messages)."""


def notation_only(fx: Fixture, exp: Expectation, rs: Ruleset,
                   values: Mapping[str, str]) -> bool:
    """Whether a table's starting-seat read is only the notation's default for a table
    that names no starter (docs/fixture-format.md: the rotation's seat, else the mover).
    The rule itself (SEAT-2, SEAT-3) applies where an engine is placed; on a table, the
    starter decides only who may open the Mexican Train (FIRST-9). So with the starter
    written out as either default, a run that reads neither the starting seat nor the
    Mexican Train's first-turn rule plays the same whatever the rule is."""
    if fx.table is None or "starter" in fx.table:
        return False
    n = len(fx.table.get("hands") or {})
    engine = int(fx.table.get("engine", highest(rs["tile_set"])))
    defaults = {int(fx.table.get("seat", 0)), (highest(rs["tile_set"]) - engine) % max(n, 1)}
    for starter in defaults:
        table = {**fx.table, "starter": starter}
        run, _ = logged_run(dataclasses.replace(fx, table=table), rs, [exp], dict(values))
        if {"starting_seat", "mexican_first_turn"} & set(run.read):
            return False
    return True


def _same_rows(space: Space, value: str, rs: Ruleset, log: Log) -> bool:
    """Whether the table `value` names agrees with `rs`'s where a run read it (`custom`
    stands for any table, so only where nothing was read)."""
    table = space.table_of(value)
    if table is None:
        return not (log.sizes or log.rows or log.counts)
    return _table_agrees(table, dict(rs.hand_table), (log.sizes, log.rows, log.counts))


def _table_agrees(table: Mapping[int, int] | None, own: Mapping[int, int],
                  read: tuple[AbstractSet[int], AbstractSet[int], bool]) -> bool:
    """Whether `table` (None: any) gives what `own` gives where a run read it row by row:
    the same size for each count whose size it read, the same answer to whether it lists
    each count asked, the same counts if it read them all."""
    sizes, rows, counts = read
    if table is None:
        return False
    return (all(table.get(n) == own.get(n) for n in sizes)
            and all((n in table) == (n in own) for n in rows)
            and (not counts or set(table) == set(own)))


def _deals_players(exp: Expectation, fx: Fixture, rs: Ruleset,
                   values: Mapping[str, str]) -> str | None:
    if values.get("hand_sizes") != CUSTOM or exp.refused_setup is not None:
        return None
    players = int(fx.deal["players"]) if fx.deal is not None else len((fx.table or {})["hands"])
    if players in rs.player_counts:
        return None
    return (f"its table of its own deals no {players} players (DEAL-7): the fixture's "
            "setup is refused under it")


def stand_in(rs: Ruleset, exp: Expectation, space: Space) -> Ruleset:
    """The known rule set the harness sends for `rs` when running `exp` (rs itself when
    every value is known): unknown values replaced by ones inside the scope."""
    if not rs.unknown:
        return rs
    values = space.point(rs)
    region: Region = {o: frozenset((v,)) for o, v in values.items() if v != OTHER}
    regions = [region]
    if rs.custom_table:
        # `applies` takes an entry for a table of one's own where some table of its scope
        # agrees with the rows the run reads (a deal fixture's scope names tables, never
        # `custom`): the table sent stays the rule set's own, any table stands in here
        regions.append({o: vs for o, vs in region.items() if o != "hand_sizes"})
    for where in regions:
        for product in exp.scope.products:
            inside = space.intersect(where, product.region())
            found = None if inside is None else space.complete(inside)
            if found is not None:
                if rs.custom_table:  # the table stays the rule set's own
                    found["hand_sizes"] = CUSTOM
                choices = tuple((o, found[o]) for o in values)
                return Ruleset(rs.name, choices, rs.hand_table, rs.overlays)
    raise ValueError(f"{rs.name}: no known rule set in the scope stands in for it")


def region_text(region: Mapping[str, frozenset[str]], space: Space) -> str:
    full = space.full()
    return Product.of({o: v for o, v in region.items() if v != full[o]}).text(space.cat)
