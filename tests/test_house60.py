"""Session 60's house engine, wagonway (tests/examples/java/Wagonway.java): what its
author's day found wrong with the suite."""

from __future__ import annotations

from pathlib import Path

from mtrain.conformance.adapter import JSON, ReferenceImplementation
from mtrain.conformance.fixture import FIXTURE_ROOT, load_file
from mtrain.conformance.partition import stand_in
from mtrain.conformance.report import Report, Result
from mtrain.conformance.runner import run_one
from mtrain.conformance.selection import entry_for
from mtrain.spec.catalog import catalog
from mtrain.spec.scope import Space

EXAMPLES = Path(__file__).parent / "examples"

WAGONWAY = {"tile_set": "double-18", "own_train_first": "other", "marker_removal": "other",
            "follow_up": "cover-own"}


def test_failures_under_a_rule_of_ones_own_say_which_moments_it_was_set_aside_for() -> None:
    """Wagonway's first draft declared `own_train_first: other` for a rule that bars a
    marked player from the other marked trains, own train started or not: no rule on
    starting one's own train. Conform set aside only the tables where TRAIN-7 speaks
    (an empty own train) and failed 180 others, charged TRAIN-4, saying nothing of why
    its declared house rule was judged there. The report now says which question each
    option played its own way answers, and its clauses."""
    failing = Report([Result("play-drawn-003", "wagonway", "fail"),
                      Result("first-001", "wagonway", "not-applicable")],
                     values={"wagonway": WAGONWAY})
    hint = failing.hint
    assert hint is not None
    assert ("own_train_first: must a player start their own train before playing "
            "elsewhere (TRAIN-7)") in hint
    assert "marker_removal: when a marker comes off (MARK-3, MARK-4, MARK-5)" in hint
    assert "house rule past its option's question" in hint
    assert "follow_up" not in hint  # a known value: nothing set aside for it
    # nothing failing, or no rule of one's own, or only errors (no rule difference): silent
    assert Report([Result("a-001", "wagonway", "pass")],
                  values={"wagonway": WAGONWAY}).hint is None
    assert Report([Result("a-001", "pagat", "fail")],
                  values={"pagat": {"own_train_first": "not-required"}}).hint is None
    assert Report([Result("a-001", "wagonway", "error")],
                  values={"wagonway": WAGONWAY}).hint is None


def test_an_entry_its_own_train_rule_reads_runs_with_what_the_known_values_agree_on() -> None:
    """engine-002: seat 0, marked and its own train empty, holds [5-3], which fits its own
    train and the Mexican Train. `required` offers the own train alone, `not-required`
    both: the legal set reads own_train_first, and under `own_train_first: other` the
    entry was set aside whole (wagonway: 46 such entries), its three refusals (two tiles
    that fit nothing, TRAIN-2; a draw while a tile plays, TURN-1) unjudged though every
    rule between the two ends gives them. It now runs cut (bracket_alone.bracket_cut):
    the play on the Mexican Train, offered by one end only, is the engine's rule's; the
    play home, which both offer, and the refusals are judged."""
    rs = catalog().rules_file(str(EXAMPLES / "java" / "wagonway-rules.yaml"))
    assert set(rs.unknown) == {"own_train_first", "marker_removal"}
    (fx,) = [f for f in load_file(FIXTURE_ROOT / "engine" / "engine.yaml")
             if f.id == "engine-002"]
    exp, why = entry_for(fx, rs, Space())
    assert exp is not None, why
    assert exp.own_actions == ("play 5-3 on mexican",)
    assert set(exp.legal or ()) >= {"play 5-3 on 0"}
    # (each clause that refuses under either end may be cited: TRAIN-7 too, under required)
    assert exp.refused == {"play 9-9 on 0": ("TRAIN-2",),
                           "play 6-1 on mexican": ("TRAIN-2", "TRAIN-7"), "draw": ("TURN-1",)}
    # an engine playing either end, or wagonway's rule between them, passes it; one that
    # offers no play home (outside the bracket) does not
    space = Space()
    for impl in (ReferenceImplementation(), HomeFirstUnlessMarked()):
        out = run_one(fx, stand_in(rs, exp, space), exp, impl, own=rs.unknown)
        assert out.status == "pass", (type(impl).__name__, out.messages)
    out = run_one(fx, stand_in(rs, exp, space), exp, NeverHome(), own=rs.unknown)
    assert out.status == "fail", out.messages


def not_required(ruleset: JSON) -> JSON:
    """`ruleset` (as sent) with every train open from the start: the wide end."""
    return {**ruleset, "options": {**ruleset["options"], "own_train_first": "not-required"}}


class HomeFirstUnlessMarked(ReferenceImplementation):
    """The reference under `not-required`, but for wagonway's rule: one whose own train is
    empty and unmarked plays only on it."""

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        actions = super().legal(not_required(ruleset), state)
        seat = state["seat"]
        own = state["trains"][seat]
        if own["tiles"] or own["marker"]:
            return actions
        return [a for a in actions if a["type"] != "play" or a["train"] == seat]


class NeverHome(ReferenceImplementation):
    """A rule outside the bracket: no play on one's own empty train while marked."""

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        seat = state["seat"]
        return [a for a in super().legal(not_required(ruleset), state)
                if a["type"] != "play" or a["train"] != seat]
