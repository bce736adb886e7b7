"""Faults the 38th example engine showed the suite (tests/examples/tramway_engine.py, a
hobbyist's game server's rules core in Python, run as a program, on double-11 for 2 to 6
players, with three house rules and three planted bugs written in its docstring before
any run).

- identify stopped at the hello (exit 2) when the engine's declared rules held a value the
  catalogue lacks (tramway's `tile_set: double-11`): identify is the command for an author
  who does not know the names, so a declaration it cannot read is a warning and the run
  goes on as for an engine that declares nothing;
- identify read an engine that dealt nothing (tramway refused every pool but its own
  double-11 box) as playing `double-8, likely` and its hand table `custom:double-8,
  likely, margin 231`, because double-8's sampled tables were answered most, though it
  answered double-6's, double-9's and double-10's as fully: where several sets' tables
  are answered alike, the set is undetermined (the others named) and so is the table
  that only follows from it;
- conform failed 87 deals of tramway under its honest file (`engine_procedure: other`),
  each "state.engine: round 1 uses [12-12], not 6 [ENG-1]": ENG-1 is not in force under
  a procedure of one's own, which may pick the engine in the deal as ENG-7 and ENG-8 do,
  so its states are read as theirs are (own_checks); fuzz reported the same deals as a
  finding (37 disagreements, bugs off), and now plays on from the rules' deal there.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from mtrain.commands import identify as identify_command
from mtrain.conformance.answers import CheckedImplementation
from mtrain.conformance.fuzz import own_rules
from mtrain.conformance.fuzz.rulesets import declared_context
from mtrain.conformance.identify.findings import _finding
from mtrain.conformance.identify.measure import Deals
from mtrain.conformance.identify.solve import Solution
from mtrain.conformance.interface import ruleset_json
from mtrain.conformance.own_checks import own_checks
from mtrain.conformance.reference_adapter import ReferenceImplementation
from mtrain.spec.catalog import catalog


def test_identify_reads_past_a_declaration_with_an_unknown_value(
        capsys: pytest.CaptureFixture[str]) -> None:
    info = {"rules": {"name": "tramway", "options": {"tile_set": "double-99"}}}
    assert identify_command._declaration(info) is None
    err = capsys.readouterr().err
    assert err.startswith("warning: the implementation's declared rules are not read "
                          "(`rules.options.tile_set`: unknown value 'double-99'"), err
    assert err.rstrip().endswith("identifying as if it declared none"), err


def test_identify_still_reads_a_declaration_it_knows(capsys: pytest.CaptureFixture[str]) -> None:
    puremco_d9 = catalog().ruleset("puremco-d9")
    info = {"rules": {"name": "mine", "options": dict(puremco_d9.choices)}}
    declared = identify_command._declaration(info)
    assert declared is not None and declared["tile_set"] == "double-9"
    assert capsys.readouterr().err == ""


def _read_from_tables(counts: dict[str, tuple[int, int]], option: str, value: str) -> Any:
    """The finding for `option` of an engine that dealt nothing and answered each set's
    sampled tables as `counts` says ((read, asked)); the set read is double-8's. It is
    decided before any solver is asked, so none is given."""
    deals = Deals(read_set="double-8", read_counts=counts)
    best = Solution(values={"tile_set": "double-8", "hand_sizes": "custom:double-8"},
                    cost=0, violated=[])
    return _finding(option, best, None, None, deals, {"tile_set": "double-8"},  # type: ignore[arg-type]
                    {}, {})


# tramway's figures: every sampled table of the four small sets answered, none above
TRAMWAY_READS = {"double-12": (0, 40), "double-9": (38, 38), "double-6": (20, 20),
                 "double-10": (44, 44), "double-15": (0, 40), "double-18": (0, 36),
                 "double-8": (45, 45)}


def test_a_set_read_from_tables_answered_alike_with_others_is_undetermined() -> None:
    found = _read_from_tables(TRAMWAY_READS, "tile_set", "double-8")
    assert (found.status, found.value) == ("undetermined", "double-8")
    assert found.alternatives == ["double-9", "double-6", "double-10"]
    assert "double-12, double-15, double-18" in found.evidence[0], found.evidence
    table = _read_from_tables(TRAMWAY_READS, "hand_sizes", "custom:double-8")
    assert table.status == "undetermined" and "no table was measured" in table.evidence[0]


def test_a_set_whose_tables_alone_are_answered_is_still_likely() -> None:
    alone = {s: (0, k) for s, (_, k) in TRAMWAY_READS.items()} | {"double-8": (45, 45)}
    found = _read_from_tables(alone, "tile_set", "double-8")
    assert (found.status, found.alternatives) == ("likely", [])


class _NextDoubleDown(ReferenceImplementation):
    """The reference, but a deal opens with the highest double held once the round's own
    is placed, which goes back into that double's place in the hand: a procedure of one's
    own that picks another engine than the round's (as tramway's house rule does)."""

    def deal(self, ruleset: Any, players: int, round: int, order: list[str],
             draw: Any = None) -> Any:
        state = super().deal(ruleset, players, round, order)
        top = state["engine"]
        held = [(s, t) for s, hand in enumerate(state["hands"]) for t in hand
                if t.split("-")[0] == t.split("-")[1]]
        seat, tile = max(held, key=lambda st: int(st[1].split("-")[0]))
        hand = state["hands"][seat]
        hand[hand.index(tile)] = f"{top}-{top}"
        low = int(tile.split("-")[0])
        state["engine"] = low
        for train in [*state["trains"], state["mexican"]]:
            train["end"] = low
        return state


def test_a_deal_by_an_engine_procedure_of_ones_own_may_pick_another_engine() -> None:
    cat = catalog()
    sent = cat.ruleset("pagat")  # every tile dealt, the engine placed by its holder
    declared = cat.from_values({**dict(sent.choices), "engine_procedure": "other"},
                               name="own-procedure")
    impl = own_checks(_NextDoubleDown(), sent, declared)
    # [12-12] first, in seat 0's hand, which the reference places at once (ENG-3)
    order = ["12-12", *(f"{a}-{b}" for a in range(13) for b in range(a + 1) if b < 12)]
    state = impl.deal(ruleset_json(sent), 2, 1, order)  # raised AnswerError (ENG-1) before
    assert state["engine"] < 12
    # under a known procedure the round's double is still the engine (ENG-1)
    with pytest.raises(Exception, match=r"ENG-1"):
        CheckedImplementation(_NextDoubleDown()).deal(ruleset_json(sent), 2, 1, order)


def test_fuzz_reads_a_deal_of_ones_own_that_picks_another_engine() -> None:
    cat = catalog()
    pagat = cat.ruleset("pagat")
    declared = cat.from_values({**dict(pagat.choices), "engine_procedure": "other"},
                               name="own-procedure-53a")
    ctx = declared_context(declared)
    order = own_rules.sent_order(ctx, 1, [f"{a}-{b}" for a in range(13) for b in range(a + 1)
                                          if (a, b) != (12, 12)])
    order = ["12-12", *(t for t in order if t != "12-12")]
    state = _NextDoubleDown().deal(ctx.rj, 2, 1, order)
    assert state["engine"] < 12
    assert own_rules.problems(ctx, state, dealt=True) == []  # state.engine [ENG-1] before


class HighestHeldOwnWay(ReferenceImplementation):
    """Deals as highest-double-held does (ENG-7: the engine any double of the set), under
    whatever known procedure the request names: an engine procedure of one's own to the
    suite, whose deals open on another double than the round's."""

    def deal(self, ruleset: Any, players: int, round: int, order: list[str],
             draw: Any = None) -> Any:
        mine = {**ruleset, "options": {**ruleset["options"],
                                       "engine_procedure": "highest-double-held"}}
        return super().deal(mine, players, round, order)


@pytest.mark.slow
def test_fuzz_plays_on_after_a_deal_of_ones_own_that_picks_another_engine(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Two games: no finding, rounds played (a `state.engine [ENG-1]` finding at every
    deal before, the play going on from the rules' deal; with that finding gone and
    nothing else changed, every game ended at its first deal)."""
    from mtrain.cli import main

    rules = tmp_path / "own-deal.yaml"
    rules.write_text("name: own-deal-53a\nbase: pagat\noptions:\n  engine_procedure: other\n",
                     encoding="utf-8")
    main(["fuzz", "--adapter", f"{__file__}:HighestHeldOwnWay", "--rules", str(rules),
          "--games", "2", "--seed", "1", "--json", "--out", str(tmp_path / "out")])
    report: dict[str, Any] = json.loads(capsys.readouterr().out)
    assert report["findings"] == [], [f["signature"] for f in report["findings"]]
    assert report["steps"] > 0 and not report["ended_early"], report["ended_early"]


TRAMWAY = Path(__file__).parent / "examples" / "tramway_engine.py"


def test_a_procedure_that_takes_the_rounds_double_first_is_not_measured_as_eng_7() -> None:
    """tramway on its double-12 box opens with the round's double when held, else the
    highest held below it: on the designed deals, where no hand held a double above the
    round's, that is highest-double-held's deal (ENG-7), which identify measured, so
    wrong and sure. A round-2 deal with [12-12] beside [11-11] tells them apart."""
    from mtrain.conformance.identify.measure import Dealer, measure_start, measure_table
    from mtrain.conformance.process import ProcessImplementation
    from mtrain.spec.scope import Space

    rs = catalog().ruleset("pagat")  # every tile dealt, as tramway deals
    deals = Deals()
    with ProcessImplementation([sys.executable, str(TRAMWAY), "--box", "12"]) as impl:
        dealer = Dealer(impl)
        measure_table(dealer, Space(), rs, deals, None)
        assert deals.table == {2: 14, 3: 13, 4: 11, 5: 10, 6: 9}
        measure_start(dealer, Space(), rs, deals)
    assert deals.procedure != "highest-double-held", deals.evidence
