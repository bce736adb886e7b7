"""An abstract witness realised as a concrete table in the fixture notation: real tiles
reaching the required open ends, hands, and `rest` for the others."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping
from typing import Any

from mtrain.spec import tiles as T
from mtrain.spec.distinguish.question import DistinguishError
from mtrain.spec.model.legality import MEX, MEXICAN, NO_SLOT, SPLIT

SEARCH_STEPS = 200_000
"""Tiles tried before a witness is given up as too hard to realise: the walks, the
orders of the trains and the pairings grow factorially with the numbers involved, and a
bound counted in steps (not seconds) gives up on the same witnesses on every machine."""


class _Realiser:
    """Real tiles for an abstract witness: trains reaching their open ends, hands, boneyard."""

    def __init__(self, w: Mapping[str, Any], top: int) -> None:
        self.w = w
        self.top = top
        self.engine = int(w["engine"])
        self.hand = {T.tile_id(a, b) for a, b in w["hand"]}
        for tiles in w.get("other_hands", {}).values():
            self.hand |= {T.tile_id(a, b) for a, b in tiles}
        self.finals = {T.tile_id(t["end"], t["end"]) for t in w["trains"] if t["dbl"]}
        self.used: set[int] = set()
        self.banned_numbers: set[int] = {t["end"] for t in w["trains"] if t["ex_lo"]}
        self.steps = 0

    def tick(self) -> None:
        self.steps += 1
        if self.steps > SEARCH_STEPS:
            raise DistinguishError(f"no table found for the witness in {SEARCH_STEPS:,} "
                                   "steps of search")

    def free(self, tile: int) -> bool:
        return (tile not in self.used and tile not in self.hand and tile not in self.finals
                and tile != T.DOUBLE[self.engine])

    def walks(self, start: int, target: int, top: int = SPLIT, max_len: int = 5
              ) -> Iterator[list[int]]:
        """Walks of numbers from start to target over free tiles, shortest first."""
        min_len = 3 if start == target else 1

        def dfs(path: list[int], used: set[int], length: int) -> Iterator[list[int]]:
            cur = path[-1]
            if len(path) - 1 == length:
                if cur == target:
                    yield list(path)
                return
            for nxt in range(top + 1):
                self.tick()
                if nxt == cur or (nxt in self.banned_numbers):
                    continue
                tile = T.tile_id(cur, nxt)
                if tile in used or not self.free(tile):
                    continue
                used.add(tile)
                path.append(nxt)
                yield from dfs(path, used, length)
                path.pop()
                used.discard(tile)

        for length in range(min_len, max_len + 1):
            yield from dfs([start], set(), length)

    def exhausted(self, d: Mapping[str, Any], others: list[Mapping[str, Any]]
                  ) -> dict[int, list[int]] | None:
        """Walks that put every tile bearing d's number on the table: d's and others'."""
        n, e = int(d["end"]), self.engine
        numbers = [x for x in range(min(self.top, SPLIT) + 1) if x != n]
        if d["ex_hi"]:
            numbers += list(range(SPLIT + 1, self.top + 1))
        bans = self.banned_numbers
        self.banned_numbers = bans | {n}
        try:
            for entries in itertools.permutations([x for x in numbers if x != e], len(others)):
                self.tick()
                rest = [x for x in numbers if x != e and x not in entries]
                saved = set(self.used)
                ok = True
                out: dict[int, list[int]] = {}
                for s, x in zip(others, entries, strict=True):
                    if not self.free(T.tile_id(x, n)):
                        ok = False
                        break
                    walk = next(self.walks(e, x), None)
                    if walk is None:
                        ok = False
                        break
                    self._use([*walk, n])
                    out[int(s["index"])] = [*walk, n]
                if ok:
                    pairs = self._pairs(rest, n)
                    if pairs is not None:
                        # the double [n-n]: open at the end of d, or covered inside it
                        walk = [e, n] if d["dbl"] else [e, n, n]
                        for y, x in pairs:
                            walk += [y, x, n]
                        self._use(walk)
                        if d["dbl"]:
                            walk.append(n)
                        out[int(d["index"])] = walk
                        return out
                self.used = saved
            return None
        finally:
            self.banned_numbers = bans

    def _pairs(self, rest: list[int], n: int) -> list[tuple[int, int]] | None:
        """Pair the numbers into excursions n -> y -> x -> n over free connectors [y-x]."""
        if not rest:
            return []
        if any(not self.free(T.tile_id(n, x)) for x in rest):
            return None
        y = rest[0]
        for x in rest[1:]:
            self.tick()
            tile = T.tile_id(y, x)
            if not self.free(tile):
                continue
            self.used.add(tile)
            more = self._pairs([z for z in rest[1:] if z != x], n)
            if more is not None:
                return [(y, x), *more]
            self.used.discard(tile)
        return None

    def _use(self, walk: list[int]) -> None:
        for u, v in itertools.pairwise(walk):
            self.used.add(T.tile_id(u, v))

    def trains(self) -> dict[int, list[int]]:
        """Walks (lists of numbers from the engine) for every non-empty train."""
        w = self.w
        out: dict[int, list[int]] = {}
        live = [t for t in w["trains"] if not t["empty"]]
        ex = [t for t in live if t["ex_lo"]]
        if ex:
            d = next((t for t in ex if t["dbl"]), ex[0])
            others = [t for t in live if t is not d and t["end"] == d["end"]]
            found = self.exhausted(d, others)
            if found is None:
                raise DistinguishError(f"cannot lay every tile of {d['end']} on the table")
            out.update(found)
        rest = [t for t in live if int(t["index"]) not in out]
        if not self._place(rest, out):
            raise DistinguishError(f"cannot lay trains reaching {[t['end'] for t in rest]}")
        return out

    def _place(self, todo: list[Mapping[str, Any]], out: dict[int, list[int]]) -> bool:
        if not todo:
            return True
        t, more = todo[0], todo[1:]
        end = int(t["end"])
        for count, walk in enumerate(self.walks(self.engine, end)):
            if count >= 30:
                break
            tiles = [T.tile_id(u, v) for u, v in itertools.pairwise(walk)]
            self.used |= set(tiles)
            if self._place(more, out):
                out[int(t["index"])] = walk + ([end] if t["dbl"] else [])
                return True
            self.used -= set(tiles)
        return False


def realise(w: Mapping[str, Any], top: int) -> dict[str, Any]:
    """The fixture table of an abstract witness."""
    r = _Realiser(w, top)
    walks = r.trains()
    n = int(w["players"])
    seat = int(w["seat"])
    on_table = {T.DOUBLE[r.engine]}
    trains: dict[Any, list[str]] = {}
    for t in w["trains"]:
        idx = int(t["index"])
        if idx not in walks:
            continue
        walk = walks[idx]
        tiles = [f"{u}-{v}" for u, v in itertools.pairwise(walk)]
        on_table |= {T.tile_id(u, v) for u, v in itertools.pairwise(walk)}
        trains[MEXICAN if idx == MEX else idx] = tiles
    hands: dict[int, list[str]] = {seat: [f"{a}-{b}" for a, b in w["hand"]]}
    given = {int(j): [f"{a}-{b}" for a, b in tiles]
             for j, tiles in w.get("other_hands", {}).items()}
    taken = on_table | r.hand
    spare = [x for x in range(T.set_size(min(top, SPLIT))) if x not in taken
             and not ({T.HIGH[x], T.LOW[x]} & r.banned_numbers)]
    others = [j for j in range(n) if j != seat]
    for k, j in enumerate(others):
        hands[j] = given.get(j) or [T.name(spare[k])]
    if w["bone_empty"]:
        hands[others[-1]].append("rest")
    table: dict[str, Any] = {"engine": r.engine, "seat": seat}
    if w["first_pending"]:  # else the loader's default: SEAT-3's seat, or the mover
        table["starter"] = int(w["starter"])
    if w["phase"] != "start":
        table["phase"] = w["phase"]
    table["hands"] = {j: hands[j] for j in range(n)}
    laid = sorted((t for t in w["trains"] if not t["empty"]),
                  key=lambda t: (t["index"] == MEX, t["index"]))
    if laid:
        table["trains"] = {_train_key(t): trains[_train_key(t)] for t in laid}
    marked = sorted(int(t["index"]) for t in w["trains"] if t["marked"])
    if marked:
        table["marked"] = marked
    if w["bone_empty"]:
        table["boneyard"] = []
    dbl = sorted((t for t in w["trains"] if t["dbl"]), key=lambda t: t["order"])
    if dbl:
        table["open_doubles"] = [_train_key(t) for t in dbl]
    turn = [t for t in dbl if t["turn"]]
    if turn:
        table["turn_doubles"] = [_train_key(t) for t in turn]
    if w["first_pending"]:
        start = int(w["starter"])
        pending = [seat]
        j = (seat + 1) % n
        while j != start and j != seat:
            pending.append(j)
            j = (j + 1) % n
        if seat == start:
            pending = list(range(n))
        table["first_turns"] = sorted(pending)
    if w["drawn"] != NO_SLOT:
        a, b = w["hand"][w["drawn"]]
        table["drawn"] = f"{a}-{b}"
    for key in ("passes", "scores", "outs"):
        if key in w:
            table[key] = w[key]
    _check_exhaustion(w, table, top)
    return table


def _train_key(t: Mapping[str, Any]) -> Any:
    return MEXICAN if t["index"] == MEX else int(t["index"])


def _check_exhaustion(w: Mapping[str, Any], table: Mapping[str, Any], top: int) -> None:
    """Every double's number is on the table exactly when the witness says so."""
    on: set[int] = set()
    for tiles in table.get("trains", {}).values():
        on |= {T.parse(x) for x in tiles}
    for t in w["trains"]:
        if not (t["dbl"] or t["ex_lo"]):
            continue
        n = int(t["end"])
        lo = all(T.tile_id(n, x) in on for x in range(min(top, SPLIT) + 1))
        hi = all(T.tile_id(n, x) in on for x in range(SPLIT + 1, top + 1))
        if lo != t["ex_lo"] or (top > SPLIT and hi != t["ex_hi"]):
            raise DistinguishError(f"number {n}: tiles on the table do not match the witness")
