"""The reachability lint (spec/model/reachable.py): every condition fires on a table that
breaks it, stays silent on every state the engine reaches, and is documented."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from mtrain.reference import codec, refusals
from mtrain.reference import engine as E
from mtrain.reference.deal import deal
from mtrain.reference.explore import Size, explore_size, small_rules
from mtrain.reference.rules import Rules
from mtrain.spec.catalog import catalog
from mtrain.spec.model.reachable import CONDITIONS, reachable_problems
from mtrain.spec.notation import table_state

CAT = catalog()
DOCS = Path(__file__).resolve().parent.parent / "docs" / "fixture-format.md"

# Round 1, first turns over, every train started; nothing is wrong with it.
BASE: dict[str, Any] = {
    "hands": {0: ["5-3", "9-8"], 1: ["7-2"], 2: ["6-1"]},
    "trains": {0: ["12-5"], 1: ["12-7"], 2: ["12-6"], "mexican": ["12-4"]},
    "boneyard": ["rest"],
}
# Table A of round-end/blocked.yaml: every train ends on 0, all the 0s are laid.
STUCK: dict[str, Any] = {
    "hands": {0: ["6-6", "5-3"], 1: ["rest"], 2: ["9-9", "4-2"]},
    "trains": {0: ["12-0"], 1: ["12-1", "1-0", "0-4", "4-5", "5-0"],
               2: ["12-2", "2-0", "0-6", "6-7", "7-0"],
               "mexican": ["12-3", "3-0", "0-0", "0-8", "8-9", "9-0", "0-10", "10-11", "11-0"]},
    "boneyard": [],
}


def ids(variant: str, table: dict[str, Any]) -> set[str]:
    problems = reachable_problems(table_state(table, CAT.ruleset(variant)), CAT.ruleset(variant))
    return {p.split(":")[0] for p in problems}


def with_(base: dict[str, Any], **changes: Any) -> dict[str, Any]:
    out = {**base, **changes}
    return {k: v for k, v in out.items() if v is not None}


@pytest.mark.parametrize("variant", ["pagat", "puremco", "pagat+own-train-first"])
def test_the_base_tables_are_reachable(variant: str) -> None:
    assert ids(variant, BASE) == set()
    assert ids(variant, with_(STUCK, drawn="6-6")) == set()


CASES: list[tuple[str, str, dict[str, Any]]] = [
    ("REACH-DRAWN", "pagat", with_(BASE, drawn="9-8")),  # [5-3] fitted the own 5
    ("REACH-DRAWN", "pagat", with_(BASE, drawn="9-8", phase="chain", first_turns=[0])),
    ("REACH-FIRST-ORDER", "pagat", with_(BASE, first_turns=[1])),
    ("REACH-FIRST-UNTOUCHED", "puremco", with_(BASE, seat=0, first_turns="all")),
    ("REACH-FIRST-DONE", "pagat", with_(BASE, trains={0: ["12-5"], 1: ["12-7"]})),
    ("REACH-CHAIN", "pagat", with_(BASE, phase="chain")),
    ("REACH-CHAIN", "puremco", with_(BASE, phase="chain", first_turns=[0, 1, 2])),
    ("REACH-CHAIN-FIRSTS", "pagat", with_(BASE, seat=2, starter=0, first_turns=[2],
                                          trains={0: ["12-5"], "mexican": ["12-4"]},
                                          marked=[1])),
    ("REACH-OWN-FIRST", "puremco+own-train-first",
     with_(BASE, trains={0: ["12-5"], 1: ["12-7"], "mexican": ["12-4"]})),
    ("REACH-TURN-DOUBLES", "pagat+wikipedia-doubles",
     with_(BASE, phase="follow", trains={0: ["12-5", "5-5"], 1: ["12-7", "7-7"],
                                         2: ["12-6"], "mexican": ["12-4"]},
           marked=[1], open_doubles=[0, 1], turn_doubles=[0, 1])),
    ("REACH-TURN-DOUBLES", "pagat",
     with_(BASE, phase="follow", trains={0: ["12-5"], 1: ["12-7", "7-7"], 2: ["12-6"],
                                         "mexican": ["12-4"]}, turn_doubles=[1])),
    ("REACH-FOLLOW", "pagat",
     with_(BASE, phase="follow", trains={0: ["12-5", "5-5"], 1: ["12-7", "7-7"],
                                         2: ["12-6"], "mexican": ["12-4"]},
           open_doubles=[1, 0], turn_doubles=[0])),
    ("REACH-ORDINARY", "pagat+ordinary-doubles",
     with_(BASE, trains={0: ["12-5", "5-5"], 1: ["12-7"], 2: ["12-6"], "mexican": ["12-4"]},
           open_doubles=[0])),
    ("REACH-PASSES", "pagat", with_(BASE, passes=1)),
    ("REACH-PASSES", "pagat+passes-end-round", with_(STUCK, passes=3, marked=[0, 1, 2])),
    ("REACH-BLOCKED", "pagat", STUCK),
    ("REACH-STARTER", "puremco", with_(BASE, starter=1)),
    ("REACH-PLAYERS", "puremco-d9", with_(BASE, engine=9, trains=None,
                                          hands={k: [f"{k}-0"] for k in range(5)})),
    ("REACH-HANDS", "pagat", with_(BASE, hands={0: ["5-3"], 1: [], 2: ["6-1"]})),
    ("REACH-ENGINE", "puremco", with_(BASE, phase="engine", trains=None)),
    ("REACH-OVER", "pagat", with_(BASE, phase="over", hands={0: ["5-3"], 1: [], 2: ["6-1"]},
                                  result={"end": "domino", "winner": 1, "scores": [8, 0, 7]})),
]


@pytest.mark.parametrize(("cid", "variant", "table"), CASES,
                         ids=[f"{c}-{i}" for i, (c, _, _) in enumerate(CASES)])
def test_each_condition_fires(cid: str, variant: str, table: dict[str, Any]) -> None:
    assert cid in ids(variant, table)


def test_every_condition_has_a_case_and_is_documented() -> None:
    assert {c for c, _, _ in CASES} == set(CONDITIONS)
    documented = set(re.findall(r"`(REACH-[A-Z-]+)`", DOCS.read_text(encoding="utf-8")))
    assert documented == set(CONDITIONS)


def test_blocked_and_passes_depend_on_the_rule_set() -> None:
    """END-2 ends a round nobody can play on; END-3 waits for a round of passes."""
    assert "REACH-BLOCKED" not in ids("pagat+passes-end-round", STUCK)
    assert ids("pagat+passes-end-round", with_(STUCK, passes=2, seat=2, marked=[0, 1])) == set()


@pytest.mark.parametrize("name", ["pagat", "puremco", "pagat+own-train-first",
                                  "pagat+passes-end-round", "puremco+wikipedia-doubles",
                                  "pagat+marker-owner-anywhere", "pagat+ordinary-doubles"])
def test_every_state_the_engine_reaches_passes(name: str) -> None:
    """Small games (the engine search, chain first turns on an empty boneyard, blocked
    rounds) and random games on the real set."""
    rs = CAT.ruleset(name)
    for size in (Size(2, 2, 2), Size(3, 3, 2, 12), Size(3, 2, 3, 12)):
        small = small_rules(rs, size.max_pip, {size.players: size.hand}).ruleset

        def visit(s: E.State, a: E.Action, t: E.State, small: Any = small) -> None:
            assert reachable_problems(codec.state_to_json(t), small) == [], (s, a, t)

        explore_size(rs, size, visit=visit)
    rng, rules = random.Random(7), Rules.of(rs)
    for _ in range(3):
        st = deal(rules, rng.choice(rs.player_counts), rng.randint(1, rules.rounds),
                  seed=rng.randrange(1 << 30))
        while st.phase != E.OVER:
            assert reachable_problems(codec.state_to_json(st), rs) == [], st
            st = refusals.apply(st, rng.choice(E.legal_actions(st)))
