"""identify asks round ends (conformance/identify/from_play.py, ENDS) where an option only a
round's end shows is weak: the legal sets of its other situations never show how a round
ends or what it scores, and an engine of a double-8 set (flagstop) had its blocked round,
scoring, blank values and tie rule left undetermined, next to no fixture of the corpus
having such a table."""

from __future__ import annotations

from mtrain.conformance.identify.cells import Piece
from mtrain.conformance.identify.found import OptionFinding
from mtrain.conformance.identify.from_play import ENDS, _situations
from mtrain.conformance.identify.measure import Deals
from mtrain.spec.catalog import catalog
from mtrain.spec.ruleset import CUSTOM
from mtrain.spec.scope import Space

SPACE = Space()
FLAGSTOP_TABLE = ((2, 12), (3, 10), (4, 9), (5, 7), (6, 6))
MEASURED = {"tile_set": frozenset({"double-8"}), "hand_sizes": frozenset({CUSTOM}),
            "engine_procedure": frozenset({"set-aside"}),
            "starting_seat": frozenset({"rotate"})}


def asked(weak: list[str]) -> tuple[list[str], dict[str, list[Piece]]]:
    """The situations' ids asked of an answer of pagat's rules on flagstop's measured set
    and table, `weak` left weak (each with its next value as the rival)."""
    values = {**dict(catalog().ruleset("pagat").choices), "tile_set": "double-8",
              "hand_sizes": CUSTOM, "engine_procedure": "set-aside", "starting_seat": "rotate"}
    findings = [OptionFinding(o, v, "likely", 1, [],
                              [next(x for x in SPACE.options[o] if x != v)])
                for o, v in values.items() if len(SPACE.options[o]) > 1]
    parts: dict[str, list[Piece]] = {}
    out = _situations(SPACE, findings, values, weak, Deals(), FLAGSTOP_TABLE, MEASURED, parts)
    return [fx.id for fx in out], parts


def test_round_ends_are_asked_where_an_option_only_they_show_is_weak() -> None:
    ids, parts = asked(["blank_values"])
    ends = [i for i in ids if i.startswith("play-end-")]
    # under the answer and under its rival: each kept only where it tells rule sets apart
    assert ends and len(ends) <= 2 * ENDS, ids
    assert {i.rsplit(".", 1)[1] for i in ends} == {"0", "1"}
    told = [i for i in ends
            if len({p.outcomes for p in parts[i] if "blank_values" in p.region}) > 1]
    assert told, "no round end asked tells blank values apart"
    # none where the weak options are not a round's (the legal sets say all they can)
    ids, _ = asked(["follow_up"])
    assert ids and not [i for i in ids if i.startswith("play-end-")]
