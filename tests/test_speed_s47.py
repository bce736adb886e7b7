"""Session 47's speed-ups to the scope check keep what it finds: a served play's questions
asked again from a log made once per sequence (traced._ask_again) leave the log and the
traced view that asking them one by one leaves, whatever the rule set, and a kept log
that is not the sequence's is made again."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from mtrain.conformance import traced
from mtrain.conformance.fixture import Fixture, load_corpus
from mtrain.conformance.identify.cells import pieces_of
from mtrain.conformance.partition import Partition, explore
from mtrain.conformance.runmemo import Question
from mtrain.conformance.traced import TracedReference, logged_run
from mtrain.spec.catalog import catalog
from mtrain.spec.ruleset import Ruleset
from mtrain.spec.scope import Space, values_of


def _log_of(impl: TracedReference) -> tuple[Any, ...]:
    log = impl.log
    return (list(log.read), sorted(log.decides), sorted(log.sizes), sorted(log.rows),
            log.counts, list(log.asked))


def _flags_set(impl: TracedReference) -> dict[str, Any]:
    """The flags the traced view keeps as read (its own attributes, past __init__'s)."""
    return {k: v for k, v in vars(impl._traced).items() if not k.startswith("_")}


def _asked(fx: Fixture, rs: Ruleset) -> tuple[Question, ...]:
    _, log = logged_run(fx, rs, fx.expect, values_of(catalog(), rs))
    return tuple(log.asked)


def _fixtures() -> list[Fixture]:
    fixtures, errors = load_corpus()
    assert not errors
    # a table fixture and a dealt one, each asking flags, options and hand sizes
    return [next(f for f in fixtures if f.table is not None and f.steps),
            next(f for f in fixtures if f.deal is not None)]


@pytest.mark.parametrize("k", [0, 1], ids=["table", "deal"])
def test_asking_again_from_the_kept_log_is_asking_one_by_one(k: int) -> None:
    fx = _fixtures()[k]
    cat = catalog()
    first, other = cat.ruleset("pagat"), cat.ruleset("puremco")
    asked = _asked(fx, first)
    kinds = {kind for kind, _ in asked}
    assert "flag" in kinds and len(asked) > 5  # (the premise: a play's worth of questions)
    traced._asked_logs.clear()
    made = TracedReference(first)
    traced._ask_again(asked, made)  # one by one, and kept
    assert traced._asked_logs[id(asked)][0] is asked
    for rs in (first, other):
        copied, each = TracedReference(rs), TracedReference(rs)
        traced._ask_again(asked, copied)  # from the kept log
        traced._ask_each(asked, each)
        assert _log_of(copied) == _log_of(each)
        assert _flags_set(copied) == _flags_set(each)
        assert _flags_set(each)  # (the premise: flags were read and kept)
    # the kept log is not the copies' own: a run writing into its log leaves it alone
    copied.log.read["written"] = None
    again = TracedReference(other)
    traced._ask_again(asked, again)
    assert "written" not in again.log.read


def test_a_kept_log_of_another_sequence_is_made_again() -> None:
    fx = _fixtures()[0]
    rs = catalog().ruleset("pagat")
    asked = _asked(fx, rs)
    fewer = asked[:2]
    traced._asked_logs.clear()
    stale = TracedReference(rs)
    traced._ask_each(fewer, stale)
    # an entry under the sequence's id that is not for it (an id reused after its
    # sequence was freed): asked one by one, and kept for the sequence itself
    traced._asked_logs[id(asked)] = (fewer, stale.log, ())
    found, each = TracedReference(rs), TracedReference(rs)
    traced._ask_again(asked, found)
    traced._ask_each(asked, each)
    assert _log_of(found) == _log_of(each)
    assert traced._asked_logs[id(asked)][0] is asked


def test_a_log_already_written_is_asked_one_by_one() -> None:
    """A run whose log holds questions already (none does today) gets them added one by
    one, as before: a kept log is copied only into an empty one."""
    fx = _fixtures()[0]
    rs = catalog().ruleset("pagat")
    asked = _asked(fx, rs)
    traced._asked_logs.clear()
    traced._ask_again(asked, TracedReference(rs))  # kept
    found, each = TracedReference(rs), TracedReference(rs)
    for impl in (found, each):
        impl.ruleset["scoring"]  # (read for its log)
    traced._ask_again(asked, found)
    traced._ask_each(asked, each)
    assert _log_of(found) == _log_of(each)


def _pins_each(part: Partition, full: dict[str, frozenset[str]]) -> list[tuple[str, ...]]:
    return [tuple(o for o, vs in c.region.items() if vs != full[o]) for c in part.cells]


def test_the_pinned_options_kept_are_the_regions_own_and_made_again_on_change() -> None:
    fx = _fixtures()[0]
    space = Space()
    part = explore(fx, space)
    assert len(part.cells) > 1
    found = part.pinned(space)
    assert found == _pins_each(part, space.full())
    assert len({len(t) for t in found}) > 1  # (the premise: cells pin more or fewer)
    assert part.pinned(Space()) is found  # another space of the same values: kept
    # a cell added: made again (the kept list was one short)
    part.cells.append(dataclasses.replace(part.cells[0], region=space.full()))
    again = part.pinned(space)
    assert len(again) == len(part.cells) and again[-1] == ()
    # a space whose values differ: made again against its own values
    full = space.full()
    option = next(o for o, vs in full.items() if len(vs) > 1)
    narrower = Space()
    narrower_full = {**full, option: frozenset(sorted(full[option])[:1])}
    narrower.full = lambda: dict(narrower_full)  # type: ignore[method-assign]
    assert part.pinned(narrower) == _pins_each(part, narrower_full)


def test_pieces_and_proposals_read_the_regions_pins() -> None:
    """pieces_of names exactly the options each region pins, in the region's order."""
    fx = _fixtures()[1]
    space = Space()
    part = explore(fx, space)
    full = space.full()
    pieces = pieces_of(part, space)
    assert [list(p.region) for p in pieces] == [list(t) for t in _pins_each(part, full)]
    assert all(p.region[o] == c.region[o] for p, c in zip(pieces, part.cells, strict=True)
               for o in p.region)
