"""mtrain.conformance.render: the table drawn as SVG, and `mtrain render`."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from mtrain.cli import main
from mtrain.conformance.fixture import Fixture, load_corpus
from mtrain.conformance.render import (
    AMBER,
    GREEN,
    MARKER,
    RED,
    draw_fixture,
    fixture_state,
    highlight_from_texts,
    render_state,
)

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def corpus() -> dict[str, Fixture]:
    fixtures, errors = load_corpus()
    assert not errors
    return {fx.id: fx for fx in fixtures}


def texts(svg: str) -> list[str]:
    root = ET.fromstring(svg)  # well-formed XML, or this raises
    return ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]


def test_open_doubles_are_ringed_and_numbered(corpus: dict[str, Fixture]) -> None:
    svg = draw_fixture(corpus["doubles-054"], "pagat")
    assert svg is not None
    words = texts(svg)
    # three open doubles, in the order they were laid: train 0, the Mexican, train 1
    assert "open double (1st laid)" in words and "open double (3rd laid)" in words
    assert svg.count(f'stroke="{AMBER}"') >= 3
    assert "\u2190 5-3" in words  # the one legal play, on train 0, turned as laid
    assert svg.count(f'fill="{MARKER}"') >= 2  # seats 1 and 2 are marked
    assert "Seat 1's hand, 4 tiles, 30 pips, to play" in words


def test_a_deal_before_the_engine_is_found(corpus: dict[str, Fixture]) -> None:
    svg = draw_fixture(corpus["deal-001"], "pagat")
    assert svg is not None
    words = texts(svg)
    assert "not yet found" in words and "[12-12]" in words
    assert any("to draw for the engine" in w for w in words)


def test_a_first_turn_chain_marks_its_plays(corpus: dict[str, Fixture]) -> None:
    svg = draw_fixture(corpus["first-001"], "pagat")
    assert svg is not None
    words = texts(svg)
    assert "\u2190 5-3, 5-9" in words
    assert "Also legal: end-chain" in words
    assert svg.count(f'stroke="{GREEN}"') >= 3  # two tiles in hand, one slot


def test_wrong_and_missed_plays(corpus: dict[str, Fixture]) -> None:
    fx = corpus["marker-001"]
    svg = draw_fixture(fx, "pagat", missing=["play 4-2 on 0"], extra=["play 4-2 on 2", "draw"])
    assert svg is not None
    words = texts(svg)
    assert "\u2190 4-2 (missed)" in words
    assert "\u2717 2-4 not allowed" in words
    assert "Offered, not allowed: draw" in words
    assert f'stroke="{RED}"' in svg


def test_long_trains_and_big_hands_stay_readable(corpus: dict[str, Fixture]) -> None:
    fx = corpus["mutant-005"]
    state = fixture_state(fx, "pagat")
    assert state is not None
    svg = render_state(state, highlight_from_texts([]), "long")
    root = ET.fromstring(svg)
    assert int(root.attrib["width"]) < 1300  # the 59-tile hand is cut short
    assert any("more" in w for w in texts(svg))


def test_a_fixture_that_does_not_set_up_draws_nothing(corpus: dict[str, Fixture]) -> None:
    assert draw_fixture(corpus["doubles-054"], "no-such-variant") is None


def test_mtrain_render(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "d.svg"
    assert main(["render", "doubles-054", "--variant", "puremco", "--out", str(out)]) == 0
    assert "doubles-054 under puremco" in texts(out.read_text(encoding="utf-8"))
    assert main(["render", "no-such-fixture"]) == 2
    assert "no fixture" in capsys.readouterr().err


def test_two_states_are_compared_field_by_field_and_marked_on_the_picture(
        corpus: dict[str, Fixture]) -> None:
    from mtrain.conformance.render import state_differences

    rules = fixture_state(corpus["marker-001"], "pagat")  # seat 1 to play, train 0 marked
    assert rules is not None
    mine = {**rules, "seat": 2,
            "hands": [list(reversed(rules["hands"][0])), *rules["hands"][1:]],
            "trains": [rules["trains"][0], {**rules["trains"][1], "marker": True},
                       rules["trains"][2]]}
    found = state_differences(mine, rules)
    # a hand is a set of tiles (its order is no difference); a marker is the train's
    assert (found.trains, found.hands, found.fields) == (frozenset({"1"}), frozenset(), ("seat",))
    assert found.words() == ["train 1", "seat"]
    assert not state_differences(rules, rules)
    drawn = texts(render_state(mine, None, "mine", found))
    assert "\u2260 differs: train 1, seat" in drawn and "here: seat 2" in drawn
    assert "\u2260 Seat 1" in drawn and "\u2260 Seat 0" not in drawn
