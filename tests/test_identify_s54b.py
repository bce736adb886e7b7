"""identify on an engine whose start goes to the strongest hand (session 54b).

tests/examples/dispatcher_engine.py starts each round with the player dealt the highest
double (a house rule, `starting_seat: other`). Its start was measured heaviest-in-hand
(SEAT-6), "measured", wrong: in every designed deal the tiles went out in ascending
order, so the seat dealt the heaviest tile was also the one dealt the highest double and
the most pips. A designed deal now sets them apart (measure._strong_apart).
"""

from __future__ import annotations

from mtrain.conformance.adapter import JSON
from mtrain.conformance.identify.measure import measure
from mtrain.conformance.identify.measured import base_values
from mtrain.conformance.serve import FixedRules
from mtrain.spec.catalog import catalog
from mtrain.spec.ruleset import Ruleset
from mtrain.spec.scope import Space

CAT = catalog()
SPACE = Space(CAT)
PUREMCO = CAT.ruleset("puremco")  # the engine set aside (ENG-2), the start rotating (SEAT-3)


def puremco_with(seat: str) -> Ruleset:
    return CAT.from_values({**dict(PUREMCO.choices), "starting_seat": seat},
                           f"puremco-{seat}", PUREMCO.hand_table)


class HighDoubleLeads(FixedRules):
    """puremco, but the seat dealt the highest double starts the round (none dealt: the
    rotation's seat), as dispatcher's house rule has it."""

    def deal(self, ruleset: JSON, players: int, round: int, order: list[str],
             draw: list[list[str]] | None = None) -> JSON:
        state = super().deal(ruleset, players, round, order, draw)
        doubles = [(int(t.split("-")[0]), seat) for seat, hand in enumerate(state["hands"])
                   for t in hand if len(set(t.split("-"))) == 1]
        if doubles:
            state["seat"] = state["starter"] = max(doubles)[1]
        return state


def measured(engine: FixedRules) -> tuple[str | None, str | None]:
    _, base = base_values(CAT, None)
    deals, _ = measure(engine, SPACE, base)
    return deals.procedure, deals.seat


def test_a_start_of_the_highest_double_is_not_measured_as_the_heaviest_tiles() -> None:
    procedure, seat = measured(HighDoubleLeads(PUREMCO))
    assert procedure == "set-aside"
    assert seat is None  # no known starting seat: left to the fixtures (other)


def test_the_known_starts_of_a_set_aside_engine_are_still_measured() -> None:
    for seat in ("heaviest-in-hand", "rotate"):
        assert measured(FixedRules(puremco_with(seat))) == ("set-aside", seat)


def test_a_rule_of_its_own_found_on_a_small_margin_is_no_firm_difference() -> None:
    # trolley (tests/examples/c, bugs on) declares tie_rule shared; a scoring bug made
    # identify find tie_rule `other` ("its own rule, or lowest-seat if the 14 fixtures
    # below are bugs", margin 10), and the note said as a fact "the engine declares other
    # rules than it plays: tie_rule (declared shared, plays other)"
    from mtrain.commands.identify import declaration_note
    from mtrain.conformance.identify.found import OptionFinding

    pagat = CAT.ruleset("pagat")
    found = Ruleset("found", tuple((o, "other" if o == "tie_rule" else v)
                                   for o, v in pagat.choices), pagat.hand_table)
    findings = [OptionFinding(o, v, "sure", 3, ["x"]) for o, v in found.choices]
    at = [o for o, _ in found.choices]

    def note(margin: int, alternatives: list[str]) -> list[str]:
        findings[at.index("tie_rule")] = OptionFinding(
            "tie_rule", "other", "other", margin, ["end-score-004"][:len(alternatives)],
            alternatives)
        return declaration_note(findings, pagat, found)

    for margin in (1, 10):  # its own rule, or most-outs if the fixture is a bug
        assert note(margin, ["most-outs"]) == [
            "not sure, but the fixtures lean away from the declared rules: tie_rule "
            f"(declared shared, the fixtures lean to other, margin {margin}) (a rule of its "
            "own, or bugs in the declared value's clauses: `mtrain conform` under the "
            "declaration shows them)"]
    assert note(0, []) == [  # measured from the deals: no rival
        "the engine declares other rules than it plays: tie_rule (declared shared, "
        "plays other)"]
