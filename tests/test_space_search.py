"""`Space.complete` judges each rule of the option space once, at the last option it
names: it must find exactly what a search that judges every rule at every step finds."""

from __future__ import annotations

import random
from collections.abc import Mapping

from mtrain.spec.scope import Space

SPACE = Space()


def every_rule_each_step(region: Mapping[str, frozenset[str]],
                         prefer: Mapping[str, str]) -> dict[str, str] | None:
    """The search as it was: the whole of `Catalog.conflicts` at every assignment."""
    names = list(SPACE.options)
    choice: dict[str, str] = {}

    def search(k: int) -> bool:
        if k == len(names):
            return True
        o = names[k]
        values = [v for v in SPACE.options[o] if v in region.get(o, SPACE.options[o])]
        for v in sorted(values, key=lambda v: v != prefer.get(o)):
            choice[o] = v
            if not SPACE.cat.conflicts(*SPACE.catalog_form(choice)) and search(k + 1):
                return True
        choice.pop(o, None)
        return False

    return dict(choice) if search(0) else None


def test_complete_agrees_with_judging_every_rule_at_every_step() -> None:
    rng = random.Random(5)
    empty = 0
    for _ in range(600):
        region = {o: frozenset(rng.sample(vs, rng.randint(1, len(vs))))
                  for o, vs in SPACE.options.items() if rng.random() < 0.4}
        prefer = {o: rng.choice(vs) for o, vs in SPACE.options.items() if rng.random() < 0.5}
        found = SPACE.complete(region, prefer)
        assert found == every_rule_each_step(region, prefer), (region, prefer)
        # asked without the memo (as an exploration asks), the same
        assert SPACE.complete(region, prefer, memo=False) == found, (region, prefer)
        empty += found is None
    assert 0 < empty < 600  # both kinds of region were met


def test_a_kept_completion_is_the_search_s_answer_each_time_a_fresh_dict() -> None:
    """`complete` keeps its answers by the region's sets and the preferred values (one
    exploration after another asks the same regions): asked again, by an equal region
    or one with the same sets, it gives what the search gives, in the options' order, a
    new dict each time (callers write to it)."""
    space = Space(SPACE.cat)
    rng = random.Random(11)
    kept = 0
    for _ in range(300):
        region = {o: frozenset(rng.sample(vs, rng.randint(1, len(vs))))
                  for o, vs in space.options.items() if rng.random() < 0.4}
        prefer = {o: rng.choice(vs) for o, vs in space.options.items() if rng.random() < 0.5}
        searched = space.complete(region, prefer, memo=False)
        first = space.complete(region, prefer)
        assert first == searched
        if first is not None:
            first[next(iter(first))] = "written by the caller"
        again = space.complete({o: frozenset(vs) for o, vs in reversed(region.items())},
                               dict(prefer))
        assert again == searched, (region, prefer)
        if again is not None:
            assert list(again) == list(space.options)
            kept += 1
    assert kept


def test_the_ruleset_of_a_point_is_the_one_the_catalogue_builds_and_checks() -> None:
    """`Space.ruleset` builds without the catalogue's checks (complete() only returns
    valid points): at every point it is what `Catalog.from_values`, which checks every
    value and rule, builds, or the example whose point it is."""
    from mtrain.spec.ruleset import CUSTOM
    from mtrain.spec.scope import PROBE_TABLE, values_of

    rng = random.Random(7)
    examples = 0
    for _ in range(300):
        region = {o: frozenset((rng.choice(vs),)) for o, vs in SPACE.options.items()
                  if rng.random() < 0.3}
        point = SPACE.complete(region)
        if point is None:
            continue
        built = SPACE.ruleset(point)
        plain, table = SPACE.catalog_form(point)
        if any(values_of(SPACE.cat, ex) == point for ex in SPACE.cat.examples.values()):
            examples += 1
            assert built in SPACE.cat.examples.values()
            assert values_of(SPACE.cat, built) == point
            continue
        checked = SPACE.cat.from_values(plain, SPACE.cat.describe(point),
                                        PROBE_TABLE if point["hand_sizes"] == CUSTOM else table)
        assert built == checked, point
    for name, ex in SPACE.cat.examples.items():  # the examples' own points give them
        point = values_of(SPACE.cat, ex)
        assert values_of(SPACE.cat, SPACE.ruleset(point)) == point, name
        examples += 1
    assert examples


def test_the_kept_deal8_answers_are_the_catalogues() -> None:
    """`Space._undealable` keeps DEAL-8's answer by the set, the procedure and the table:
    for every combination, with each table the search hands it, it is the catalogue's."""
    from mtrain.spec.ruleset import CUSTOM

    undealable = 0
    for hs in SPACE.options["hand_sizes"]:
        plain_hs = CUSTOM if hs in SPACE.tables or hs == CUSTOM else hs
        table = SPACE.tables.get(hs)
        for ts in SPACE.options["tile_set"]:
            for proc in SPACE.options["engine_procedure"]:
                plain = {"hand_sizes": plain_hs, "tile_set": ts, "engine_procedure": proc}
                for _ in range(2):  # the first answer computed, the second kept
                    got = SPACE._undealable(plain, table)
                    assert got == bool(SPACE.cat._undealable(plain, table)), (hs, ts, proc)
                undealable += got
    assert undealable  # some set cannot deal some table
