"""Fixtures carried into the rounds an engine's own match deals.

A match of one's own (fewer rounds, other doubles, a points cap) refuses the tables of the
rounds it never deals: reefer's five rounds of a double-8 set's nine refused every fixture
set in rounds 6 to 9, and with them 31 of the 34 fixtures that tell its scoring apart,
most of them set at the last round of a full match ([0-0], the engine every set has).
The round is named by the engine (ENG-1: round r's engine is the double of top + 1 - r),
so a table cannot keep its tiles and move to another round: the model holds a round-5
table with the [0-0] engine impossible ("round 5 uses [4-4], not 0"). What can move is
the engine's number: the table with that number and the number of a round the engine
deals swapped wherever they are written, where neither is written in a hand, the drawn
tile, a step or an expectation (those read as written: the hands' worth, the moves, the
answers asked). The carried table is a fixture of its own: its partition is explored
afresh (the model judges the same expectations there), so where the round decides what
it reads (the winners of the last round: the match goes on at round 2) it tells what it
tells there, or nothing; no rule says beforehand what the swap keeps.

Only a fixture the engine refused is carried, and only where it refuses to deal that
round too at that player count (own_rounds.last_dealt): a refusal for another reason (a
table it holds broken) is not a round it lacks. The engine is asked which rounds it deals
once, for the player counts of those fixtures, and the situations from play drawn later
keep to those rounds (situations.end_situations, `rounds`).
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Mapping, Sequence
from typing import Any

from mtrain.conformance.adapter import Implementation
from mtrain.conformance.fixture import Fixture
from mtrain.conformance.identify.found import Observation
from mtrain.conformance.own_rounds import deals_round, last_dealt
from mtrain.spec.ruleset import Ruleset
from mtrain.spec.tilesets import highest

TILE = re.compile(r"\b(\d+)-(\d+)\b")
"""A tile as the notation writes it (`6-2`); `rest` and seats are not tiles."""

MARK = ">round-"
"""What a carried fixture's id adds to its corpus id, with the round it is asked at."""


def dealt_rounds(impl: Implementation, sent: Ruleset, counts: Sequence[int]
                 ) -> dict[int, int]:
    """The last round `impl` deals under `sent` at each of `counts` (halving between round
    1 and a full match's last: own_rounds.last_dealt); a count whose round 1 is not dealt,
    or whose answer is unknown, is left out."""
    top = highest(sent["tile_set"])
    out: dict[int, int] = {}
    for n in sorted(set(counts)):
        last = last_dealt(functools.partial(_dealt, impl, sent, n, top), top + 1)
        if last is not None:
            out[n] = last
    return out


def _dealt(impl: Implementation, sent: Ruleset, players: int, top: int, round_no: int
           ) -> bool | None:
    return deals_round(impl, sent, players, top - round_no + 1)


def round_of(fx: Fixture, top: int) -> int | None:
    """The round `fx`'s table is set in under a double-`top` set (ENG-1), None for a deal
    or an engine the set lacks."""
    if fx.table is None:
        return None
    engine = fx.table.get("engine", top)
    if not isinstance(engine, int) or not 0 <= engine <= top:
        return None
    return top - engine + 1


def _written(fx: Fixture) -> set[int]:
    """The numbers written where the fixture reads them as written: its hands, the drawn
    tile, its steps and its expectations."""
    assert fx.table is not None
    texts = [repr(fx.table.get("hands")), repr(fx.table.get("drawn")), repr(fx.steps),
             repr(fx.expect)]
    return {int(x) for text in texts for m in TILE.finditer(text) for x in m.groups()}


def _swap(value: Any, a: int, b: int) -> Any:
    """`value` (a table's trains, boneyard) with the numbers `a` and `b` swapped in every
    tile written."""
    def one(m: re.Match[str]) -> str:
        x, y = (int(v) for v in m.groups())
        return f"{b if x == a else a if x == b else x}-{b if y == a else a if y == b else y}"
    if isinstance(value, str):
        return TILE.sub(one, value)
    if isinstance(value, list):
        return [_swap(v, a, b) for v in value]
    if isinstance(value, dict):
        return {k: _swap(v, a, b) for k, v in value.items()}
    return value


def carried(fx: Fixture, top: int, last: int) -> Fixture | None:
    """`fx` asked at a round up to `last` (the latest whose engine's number the fixture
    writes nowhere it reads as written), the two numbers swapped in its trains and
    boneyard; None where it is set no later than `last`, or no round is free."""
    at = round_of(fx, top)
    if fx.table is None or at is None or at <= last:
        return None
    engine, taken = top - at + 1, _written(fx)
    if engine in taken:
        return None
    for r in range(last, 0, -1):
        other = top - r + 1
        if other in taken:
            continue
        table = {k: (_swap(v, engine, other) if k in ("trains", "boneyard") else v)
                 for k, v in fx.table.items()}
        table["engine"] = other
        return dataclasses.replace(
            fx, id=f"{fx.id}{MARK}{r}", table=table, table_lines={},
            note=(f"{fx.note} " if fx.note else "") + (
                f"Carried from round {at} to round {r} (the engine's match deals no round "
                f"after {last} at {len(table.get('hands') or {})} players): [{engine}-"
                f"{engine}] and [{other}-{other}]'s numbers swapped in the trains and the "
                "boneyard, the hands, steps and expectations as written; judged afresh by "
                "the model."))
    return None


def to_carry(observations: Sequence[Observation], top: int) -> list[Observation]:
    """The observations of tables the engine refused that are set after round 1."""
    return [o for o in observations if o.refused and o.fixture.table is not None
            and (round_of(o.fixture, top) or 0) > 1 and MARK not in o.fixture.id]


def carry_all(refused: Sequence[Observation], top: int, rounds: Mapping[int, int]
              ) -> list[Fixture]:
    """Each refused table of `refused` carried to a round its player count's match deals
    (`rounds`), where it refuses to deal the fixture's own round too."""
    out = []
    for o in refused:
        n = len(o.fixture.table.get("hands") or {}) if o.fixture.table is not None else 0
        last = rounds.get(n)
        if last is None:
            continue
        fx = carried(o.fixture, top, last)
        if fx is not None:
            out.append(fx)
    return out
