"""identify on an engine that declares its house rules under wrong known names (session 50,
marshal): evidence that only tells known values apart is no support for one of them
against a rule of the engine's own. On pieces written by hand, each a region of the option
space with the outcome of each entry there, made up for the case (no engine is played)."""

from __future__ import annotations

from collections.abc import Sequence

from mtrain.conformance.identify import bugs
from mtrain.conformance.identify.cells import Piece
from mtrain.spec.ruleset import OTHER
from mtrain.spec.scope import Space

SPACE = Space()
SCORING = ("penalty", "positive", "penalty-blocked-winner")
ANSWER = {o: vs[0] for o, vs in SPACE.options.items()} | {"scoring": OTHER}


def scoring_pieces(*held: tuple[str, ...]) -> list[Piece]:
    """One piece per scoring value, entry k passing where the value is in `held[k]`."""
    return [Piece({"scoring": frozenset([v])},
                  tuple("pass" if v in values else "fail" for values in held), ("scoring",))
            for v in SCORING]


POSITIVE_APART = scoring_pieces(("penalty", "penalty-blocked-winner"))
"""A round's end that tells positive scoring from both penalty rules, which agree on it."""
FEWEST_TILES = scoring_pieces(("penalty-blocked-winner",))
"""A blocked round that only penalty-blocked-winner scores as the engine did, were it to
pass: the hand worth least is also the one with the fewest tiles."""
WORTH_LEAST = scoring_pieces(("penalty",), ("penalty-blocked-winner",), ("positive",))
"""A blocked round whose hand worth least holds more tiles than another: each entry holds
under one value only, and an engine that zeroes the hand worth least fails all three."""


def test_a_table_that_tells_only_other_values_apart_does_not_show_a_value() -> None:
    """marshal's `scoring: other` (a blocked round's hand worth least scores 0), declared
    penalty-blocked-winner: 68 round ends told positive scoring apart, 3 blocked rounds
    showed the declared value and 5 were scored as no known value scores them. The 68
    pass as well under a rule near the declared value: they are no evidence that the 5
    are bugs (they were, at 71 to 5 against the declared ratio of 3 to 1)."""
    seen: dict[str, tuple[str | None, ...]] = {}
    parts: dict[str, Sequence[Piece]] = {}
    for k in range(68):
        seen[f"apart-{k}"], parts[f"apart-{k}"] = ("pass",), POSITIVE_APART
    for k in range(3):
        seen[f"fewest-{k}"], parts[f"fewest-{k}"] = ("pass",), FEWEST_TILES
    for k in range(5):
        seen[f"least-{k}"], parts[f"least-{k}"] = ("fail",) * 3, WORTH_LEAST
    assert bugs.fits("scoring", ANSWER, SCORING, ("pass",), POSITIVE_APART) == (
        frozenset(["penalty", "penalty-blocked-winner"]), True)
    s = bugs.shape("scoring", "penalty-blocked-winner", ANSWER, SPACE, frozenset(), seen,
                   parts)
    assert s.shows == ("fewest-0", "fewest-1", "fewest-2")
    assert s.unlike_all == tuple(f"least-{k}" for k in range(5))
    assert not bugs.with_a_bug(s, "penalty-blocked-winner", "penalty-blocked-winner")
    # the same blocked rounds against fifteen that show it: the declared value, with a bug
    for k in range(15):
        seen[f"fewest-{k}"], parts[f"fewest-{k}"] = ("pass",), FEWEST_TILES
    s = bugs.shape("scoring", "penalty-blocked-winner", ANSWER, SPACE, frozenset(), seen,
                   parts)
    assert len(s.shows) == 15
    assert bugs.with_a_bug(s, "penalty-blocked-winner", "penalty-blocked-winner")
