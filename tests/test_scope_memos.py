"""The memos of the scope check's exploration (conformance/partition.py and traced.py,
conformance/runmemo.py) change nothing it finds: `_grow` set beside the filtering it
replaced, the run memo's tree walked and extended by hand, and the flags and answers kept
per rule set."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from typing import Any

import pytest

from mtrain.conformance import partition as P
from mtrain.conformance import traced as T
from mtrain.conformance.fixture import load_corpus
from mtrain.conformance.runmemo import Node, QuestionTree, RunMemo
from mtrain.reference.rules import Rules
from mtrain.spec.catalog import catalog
from mtrain.spec.ruleset import Ruleset
from mtrain.spec.scope import Product, Region, Space

SPACE = Space()


def grow_by_filtering(seed: Region, forbidden: Sequence[Region], space: Space) -> Product:
    """`_grow` as it was (each option's candidates filtered, not looked up by value)."""
    region = dict(seed)
    full = space.full()
    pinned = [tuple(o for o in full if f.get(o, full[o]) != full[o]) for f in forbidden]
    apart: list[set[str]] = []
    only: dict[str, set[int]] = {o: set() for o in full}
    touching: set[int] = set()
    on: dict[str, set[int]] = {o: set() for o in full}
    for k, (f, pins) in enumerate(zip(forbidden, pinned, strict=True)):
        gap = {o for o in pins if not region[o] & f[o]}
        apart.append(gap)
        for o in gap:
            on[o].add(k)
        if len(gap) == 1:
            only[next(iter(gap))].add(k)
        elif not gap:
            touching.add(k)
    for option, values in space.options.items():
        for v in values:
            if v in region[option]:
                continue
            wider = {**region, option: region[option] | {v}}
            near = [k for k in only[option] if v in forbidden[k].get(option, full[option])]
            if any(space.meets(wider, forbidden[k]) for k in sorted(touching) + near):
                continue
            region = wider
            for k in [k for k in on[option] if v in forbidden[k].get(option, full[option])]:
                gap = apart[k]
                if len(gap) == 1:
                    only[option].discard(k)
                    touching.add(k)
                elif len(gap) == 2:
                    only[next(o for o in gap if o != option)].add(k)
                gap.discard(option)
                on[option].discard(k)
    return Product.of({o: vs for o, vs in region.items() if vs != full[o]})


def _cell(rng: random.Random) -> Region:
    """A region as the partition's cells are: every option, a few pinned to one value or
    to a few."""
    out = SPACE.full()
    for o, vs in SPACE.options.items():
        r = rng.random()
        if r < 0.3:
            out[o] = frozenset((rng.choice(vs),))
        elif r < 0.4 and len(vs) > 2:
            out[o] = frozenset(rng.sample(vs, len(vs) - 1))
    return out


def test_grow_finds_what_filtering_found() -> None:
    rng = random.Random(11)
    widened = 0
    for _ in range(60):
        seed = _cell(rng)
        if SPACE.complete(seed) is None:
            continue
        forbidden = [f for f in (_cell(rng) for _ in range(rng.randint(0, 40)))
                     if not SPACE.meets(seed, f)]
        grown = P._grow(seed, forbidden, SPACE)
        assert grown == grow_by_filtering(seed, forbidden, SPACE)
        widened += grown != Product.of({o: vs for o, vs in seed.items()
                                        if vs != SPACE.full()[o]})
    assert widened  # some seeds grew


def _rules(name: str) -> tuple[Ruleset, Rules]:
    rs = catalog().ruleset(name)
    return rs, Rules.of(rs)


def test_the_tree_is_walked_by_the_answers_and_extended_without_copies() -> None:
    pagat, pagat_rules = _rules("pagat")
    tree = QuestionTree()
    asked = [("flag", "max_pip"), ("option", "follow_up"), ("flag", "single_round")]
    node = tree.extend(tree.root, asked, pagat_rules, pagat)
    assert tree.extend(tree.root, asked, pagat_rules, pagat) is node  # the same path
    node.found = "pagat's"
    assert tree.find(pagat_rules, pagat)[0] == "pagat's"
    # a rule set answering the second question otherwise finds nothing, but the node of
    # the furthest state on its way
    other = next(catalog().ruleset(n) for n in catalog().variants
                 if catalog().ruleset(n)["follow_up"] != pagat["follow_up"]
                 and catalog().ruleset(n)["tile_set"] == pagat["tile_set"])
    first = tree.extend(tree.root, asked[:1], pagat_rules, pagat)
    first.at = (1, {}, tuple(asked[:1]))
    found, best = tree.find(Rules.of(other), other)
    assert found is None and best is first
    # two branches below a node (as no deterministic run makes, but a tree may hold):
    # the first is walked first
    root = tree.root
    second: dict[object, Node] = {}
    root.branches.append((("flag", "follow"), second))
    below = second.setdefault(pagat_rules.follow, Node())
    below.found = "second branch"
    assert tree.find(pagat_rules, pagat)[0] == "pagat's"
    root.branches.reverse()
    assert tree.find(pagat_rules, pagat)[0] == "second branch"


def test_flags_and_answers_are_kept_by_the_rule_sets_identity() -> None:
    rs = catalog().ruleset("pagat")
    twin = Ruleset(rs.name, rs.choices, rs.hand_table, rs.overlays)  # equal, not the same
    assert T._rules_of(rs) is T._rules_of(rs)
    assert T._rules_of(twin) == T._rules_of(rs) and T._rules_of(twin) is not T._rules_of(rs)
    memo = RunMemo()
    said = T._answers_of(rs, memo)
    assert said is not None and said is T._answers_of(rs, memo)
    assert T._answers_of(twin, memo) is not said
    assert T._answers_of(rs, None) is None


def test_a_question_of_one_value_serves_the_values_that_answer_it_alike(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Ruleset.says: a table that names no starter asks only whether the start rotates
    (notation.table_starter), so the starting seats that answer alike take one run from
    the memo, and what each takes is what it finds played without a memo."""
    fixtures, _ = load_corpus()
    pagat = SPACE.point(catalog().ruleset("pagat"))
    question = ("says", ("starting_seat", "rotate"))
    seats = [s for s in SPACE.options["starting_seat"]
             if SPACE.complete({o: frozenset((v,)) for o, v in
                                {**pagat, "starting_seat": s}.items()}) is not None]

    def alone(fx: Any, seat: str) -> tuple[Any, ...]:
        point = {**pagat, "starting_seat": seat}
        run = T.traced_run(fx, SPACE.ruleset(point), point=point)
        return run.outcomes, run.read, run.messages, run.unlisted

    asking = [f for f in fixtures if f.table is not None and "starter" not in f.table
              and question in T.logged_run(f, SPACE.ruleset(pagat), f.expect, pagat)[1].asked]
    # the first such table, and one whose outcome the rotating start changes (a memo
    # that did not tell the two apart would give one the other's)
    chosen = [asking[0], next(f for f in asking
                              if alone(f, pagat["starting_seat"])[::2] != alone(f, "rotate")[::2])]
    play = T.logged_run
    played: list[str] = []

    def counted(*args: Any, **kw: Any) -> Any:
        played.append(args[1]["starting_seat"])
        return play(*args, **kw)

    for fx in chosen:
        memo = RunMemo()
        runs = {}
        monkeypatch.setattr(T, "logged_run", counted)
        for seat in seats:
            point = {**pagat, "starting_seat": seat}
            runs[seat] = T.traced_run(fx, SPACE.ruleset(point), point=point, memo=memo)
        monkeypatch.undo()
        for seat, run in runs.items():
            assert (run.outcomes, run.read, run.messages, run.unlisted) == alone(fx, seat)
            assert "starting_seat" in run.read
    assert len(played) < 2 * len(seats)  # some seats answered as one played before



def test_what_an_entry_lists_as_refusing_depends_on_nothing_the_run_did_not_read() -> None:
    """runner.in_force cuts an entry's refusing clauses to those in force (TRAIN-7 only
    where own-train-first holds) without logging the options of their `when`: the run
    memo serves every rule set that answers the logged reads alike, so the outcome must
    not move with such an option where the engine never read it (the engine reads a
    clause's option before it cites the clause). Checked on every corpus entry whose
    refusals list a clause with a `when`, each unread option set to each other value."""
    fixtures, _ = load_corpus()
    clauses = catalog().clauses
    pagat = SPACE.point(catalog().ruleset("pagat"))
    tried = 0
    for fx in fixtures:
        if fx.table is None:
            continue
        for exp in fx.expect:
            when = {o for listed in exp.refused.values() for c in listed
                    if c in clauses for o in clauses[c].when}
            if not when:
                continue
            run = T.traced_run(fx, SPACE.ruleset(pagat), [exp], point=pagat)
            for option in sorted(when - set(run.read)):
                for value in sorted(set(SPACE.options[option]) - {pagat[option]}):
                    point = {**pagat, option: value}
                    if SPACE.complete({o: frozenset((v,)) for o, v in point.items()}) is None:
                        continue
                    other = T.traced_run(fx, SPACE.ruleset(point), [exp], point=point)
                    assert other.outcomes == run.outcomes, (fx.id, option, value)
                    tried += 1
    assert tried >= 3


def _found(part: P.Partition) -> list[tuple[Any, ...]]:
    return [(sorted((o, sorted(vs)) for o, vs in c.region.items()), c.run.values,
             c.run.outcomes, c.run.read, c.run.messages, c.run.unlisted, c.run.played)
            for c in part.cells]


def test_fixtures_that_play_alike_share_their_plays_and_keep_their_own_errors() -> None:
    """partition.plays_of: a fixture playing the table of one explored before it takes
    that one's plays, and finds what it finds explored alone; where its table does not
    build (a double-9 set without the engine [12-12]), its errors name its own lines,
    not the other's."""
    fx = next(f for f in load_corpus()[0] if f.id == "chaindbl-001")
    moved = dataclasses.replace(fx, id="moved-001", line=(fx.line or 0) + 1000,
                                table_lines={k: v + 1000 for k, v in fx.table_lines.items()})
    assert P.plays_of(fx) is P.plays_of(moved)
    alone = []
    for f in (fx, moved):
        P._plays.clear()
        alone.append(_found(P.explore(f, SPACE)))
    P._plays.clear()
    together = [_found(P.explore(f, SPACE)) for f in (fx, moved)]
    assert P._plays[next(iter(P._plays))].root.branches  # one memo, played in
    assert together == alone
    for found, shift in zip(together, (0, 1000), strict=True):
        lines = [int(m.rsplit(":", 1)[1].rstrip(")")) for c in found for said in c[4]
                 for m in said if m.startswith("cannot set up")]
        assert lines and all(line - shift in fx.table_lines.values() for line in lines)
