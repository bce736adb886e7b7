"""Session 60's house engine, wagonway (tests/examples/java/Wagonway.java): what its
author's day found wrong with the suite."""

from __future__ import annotations

from mtrain.conformance.report import Report, Result

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
