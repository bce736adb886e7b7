"""Faults the 37th example engine showed the suite (tests/examples/js/reefer_engine.js, a
club app's game logic in JavaScript on double-8 for 3 to 7 players, with three house rules
and three planted bugs written in its header before any run).

- fuzz judged no deal of a later round under a match length of one's own: the deal reads
  the match length only to know that its round exists, which the engine answers by
  dealing it (reefer's bug 2, hands dealt round the table from round 3 on, went unseen);
- the round-end situations checked the result but never `outs`, so an out counted for a
  blocked round (reefer's bug 3, MATCH-5's count) passed conform;
- fuzz's "run it" line left out the rule-set file a reproducer names, so against an
  engine declaring other rules it ran nothing.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mtrain.conformance.adapter import JSON, ReferenceImplementation
from mtrain.conformance.defaults import RESULTS_FLOOR
from mtrain.conformance.fixture import Fixture
from mtrain.conformance.fuzz import own_rules
from mtrain.conformance.fuzz.rulesets import declared_context
from mtrain.conformance.fuzz.run import Target
from mtrain.conformance.interface import RefusedSetup
from mtrain.conformance.own_rounds import LastRounds, by_ruleset, last_rounds
from mtrain.conformance.partition import round_of_its_own
from mtrain.conformance.runner import run_one
from mtrain.conformance.selection import count_for_floor, situation_tasks
from mtrain.conformance.situations import end_situations, stand_in_for
from mtrain.reference.deal import deal as reference_deal
from mtrain.reference.deal import deal_pool
from mtrain.reference.engine import State
from mtrain.reference.rules import Rules
from mtrain.spec.catalog import catalog
from mtrain.spec.ruleset import Ruleset

OWN_LENGTH = ("name: own-length\nbase: puremco-d9\n"
              "options:\n  match_length: other\n")


def _rules(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "rules.yaml"
    path.write_text(text, encoding="utf-8")
    return path


# --- fuzz: a later round's deal under a match length of its own is judged ------------


def test_a_later_rounds_deal_reads_no_match_length_of_its_own(tmp_path: Path) -> None:
    """The deal of round 3 reads the match length only for whether round 3 exists
    (EXISTENCE_FLAGS): fuzz judged it not at all (`dealt` gave ('match_length',))."""
    rs = catalog().rules_file(str(_rules(tmp_path, OWN_LENGTH)))
    ctx = declared_context(rs)
    for round_no in (1, 3):
        _, own = own_rules.dealt(ctx, _dealer(round_no))
        assert own == (), round_no


def test_an_engine_procedure_of_its_own_still_decides_the_deal(tmp_path: Path) -> None:
    """The existence reads are left out, not every read: an engine procedure of one's own
    decides the hands (the deal stays unjudged but for its seat, as before)."""
    text = OWN_LENGTH.replace("other\n", "other\n  engine_procedure: other\n")
    ctx = declared_context(catalog().rules_file(str(_rules(tmp_path, text))))
    _, own = own_rules.dealt(ctx, _dealer(3))
    assert own == ("engine_procedure",)


def _dealer(round_no: int) -> Callable[[Rules], State]:
    """The reference's deal of `round_no` for three players, the pool sorted."""
    return lambda r: reference_deal(r, 3, round_no, order=deal_pool(r, round_no),
                                    scores=[0] * 3, outs=[0] * 3)


class RoundRobinLater(ReferenceImplementation):
    """Deals one tile at a time round the table from round 3 on (reefer's bug 2, DEAL-1):
    seat k gets the pool's tiles k, k + n, ...; rounds 1 and 2 are dealt right."""

    def deal(self, ruleset: JSON, players: int, round: int, order: list[str],
             draw: list[list[str]] | None = None) -> JSON:
        state = super().deal(ruleset, players, round, order, draw)
        if round >= 3:
            size = len(state["hands"][0])
            robin = [order[k::players][:size] for k in range(players)]
            state = {**state, "hands": [sorted(h, key=_high_first) for h in robin]}
        return state


def _high_first(tile: str) -> tuple[int, int]:
    a, b = sorted(map(int, tile.split("-")), reverse=True)
    return (-a, -b)


@pytest.mark.slow
def test_fuzz_finds_a_later_rounds_deal_bug_under_its_own_match_length(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Four games under a match length of one's own find the round-robin deal, charged
    to DEAL-1 (no finding before: every later round's deal was "decided by rules of its
    own")."""
    from mtrain.cli import main

    rules = _rules(tmp_path, OWN_LENGTH)
    main(["fuzz", "--adapter", f"{__file__}:RoundRobinLater", "--rules", str(rules),
          "--games", "4", "--seed", "1", "--json", "--out", str(tmp_path / "out"),
          "--shrink-seconds", "30"])
    report: dict[str, Any] = json.loads(capsys.readouterr().out)
    signatures = [f["signature"] for f in report["findings"]]
    assert signatures == ["deal: hands"], signatures


# --- conform: a round's end checks the outs ------------------------------------------


class BlockedBadge(ReferenceImplementation):
    """At a blocked end, one more in `outs` for the seat holding the fewest tiles (reefer's
    bug 3): nobody went out (MATCH-5)."""

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        new = super().apply(ruleset, state, action)
        result = new.get("result") if isinstance(new, dict) else None
        if isinstance(result, dict) and result["winner"] is None:
            fewest = min(range(len(new["hands"])), key=lambda k: len(new["hands"][k]))
            outs = list(new["outs"])
            outs[fewest] += 1
            new = {**new, "outs": outs}
        return new


class OutForgotten(ReferenceImplementation):
    """Leaves the outs as they were when a player goes out (MATCH-5)."""

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        new = super().apply(ruleset, state, action)
        if isinstance(new, dict) and isinstance(new.get("result"), dict):
            new = {**new, "outs": list(state["outs"])}
        return new


def test_round_end_situations_check_the_outs() -> None:
    """puremco-d9's first round ends, one gone out and one blocked: the reference passes
    both; an out given for the blocked round, or none for the round gone out, fails,
    charged to MATCH-5 (both passed before: the outs were never asked)."""
    rs = catalog().ruleset("puremco-d9")
    plays = stand_in_for(rs)
    assert plays is not None
    made = end_situations(rs, plays, 4)
    out = next(fx for fx in made if fx.expect[0].result["winner"] is not None)
    blocked = next(fx for fx in made if fx.expect[0].result["winner"] is None)
    for fx in (out, blocked):
        assert "MATCH-5" in fx.clauses
        assert run_one(fx, rs, fx.expect[0], ReferenceImplementation()).status == "pass"
    for fx, wrong in ((blocked, BlockedBadge()), (out, OutForgotten())):
        got = run_one(fx, rs, fx.expect[0], wrong)
        assert got.status == "fail", fx.id
        assert got.charged == ["MATCH-5"], (fx.id, got.charged)


# --- fuzz's "run it" names the reproducer's rule-set file ----------------------------


def test_run_it_names_the_rule_set_file_a_reproducer_names(tmp_path: Path) -> None:
    """A reproducer under rules of one's own names `rules: rulesets/NAME.yaml`; run
    without it, conform plays an engine's declared rules alone (reefer declared
    `own_train_first: required`) and ran nothing."""
    named = tmp_path / "fuzz-own-1-001.yaml"
    named.write_text("- id: fuzz-own-1-001\n  rules: rulesets/own.yaml\n", encoding="utf-8")
    plain = tmp_path / "fuzz-pagat-1-001.yaml"
    plain.write_text("- id: fuzz-pagat-1-001\n  variants: [pagat]\n", encoding="utf-8")
    target = Target("impl", "./engine --serve", "engine")
    (command,) = target.commands(named)
    assert command.endswith(f"--impl './engine --serve' --rules {tmp_path / 'rulesets/own.yaml'}")
    (command,) = target.commands(plain)
    assert "--rules" not in command


# --- conform: situations only at rounds a match of its own has -----------------------

SHORT_MATCH = "name: short-match\nbase: puremco-d9\noptions:\n  match_length: other\n"


class ShortMatch(ReferenceImplementation):
    """A match of three rounds (match_length other): later rounds' deals refused, their
    tables played (as signalbox plays them)."""

    def deal(self, ruleset: JSON, players: int, round: int, order: list[str],
             draw: list[list[str]] | None = None) -> JSON:
        if round > 3:
            raise RefusedSetup(f"no round {round}: the match is three rounds", None)
        return super().deal(ruleset, players, round, order, draw)


class ShortMatchTables(ShortMatch):
    """ShortMatch that refuses the tables of later rounds too (as reefer does)."""

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        if state["round"] > 3:
            raise RefusedSetup(f"no round {state['round']}: the match is three rounds", None)
        return super().legal(ruleset, state)

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        if state["round"] > 3:
            raise RefusedSetup(f"no round {state['round']}: the match is three rounds", None)
        return super().apply(ruleset, state, action)


def test_conform_asks_the_rounds_a_match_of_its_own_has(tmp_path: Path) -> None:
    """By deals, halving: three rounds at each count of the table for ShortMatch, the
    full ten for the reference; whether a later round's table is refused, by one table;
    nothing asked under a known match length."""
    rs = catalog().rules_file(str(_rules(tmp_path, SHORT_MATCH)))
    sent = stand_in_for(rs)
    assert sent is not None
    three = {2: 3, 3: 3, 4: 3}
    assert last_rounds(ShortMatch(), rs, sent) == three
    assert last_rounds(ReferenceImplementation(), rs, sent) == {2: 10, 3: 10, 4: 10}
    assert by_ruleset(ShortMatch(), [rs], 60) == {rs.name: LastRounds(three, tables=False)}
    assert by_ruleset(ShortMatchTables(), [rs], 60) == {rs.name: LastRounds(three)}
    assert by_ruleset(ShortMatch(), [catalog().ruleset("puremco-d9")], 60) == {}


def _round(fx: Fixture, rs: Ruleset) -> int:
    return round_of_its_own(fx, rs) or 1


def test_situations_past_a_match_of_its_owns_last_round_are_left_out(tmp_path: Path) -> None:
    """Situations set in rounds 4 to 10 were each refused by a three-round match and not
    applicable (reefer: 423 of 1,047 results, 593 run): they are left out, said once, and
    the count asked for the floor grows to make up for them. Where the tables of those
    rounds are played, only their deals are left out."""
    rs = catalog().rules_file(str(_rules(tmp_path, SHORT_MATCH)))
    own = LastRounds({2: 3, 3: 3, 4: 3})
    every, _ = situation_tasks([rs], 60, [], 0)
    kept, warnings = situation_tasks([rs], 60, [], 0, {rs.name: own})
    rounds = [_round(t.fixture, rs) for t in every]
    assert max(rounds) > 3  # the run before left them in
    assert kept and all(_round(t.fixture, rs) <= 3 for t in kept)
    # and the deal of round 3, the last its match deals (situation_deals.own_last_deals)
    assert len(kept) == sum(r <= 3 for r in rounds) + 1
    assert kept[-1].fixture.id == "play-dealt-own-last-001"
    assert [w for w in warnings if "left out" in w] == [
        f"{len(every) - len(kept) + 1} situations from play under short-match left out: set in "
        "rounds after the last its own match deals (match_length played its own way; its "
        "last round: 3 at 2 players, 3 at 3 players, 3 at 4 players)"]
    corpus = RESULTS_FLOOR - len(kept) - 10  # 60 are enough to reach the floor, if all run
    assert count_for_floor(rs, 60, corpus) == 60
    assert count_for_floor(rs, 60, corpus, own) > 60
    tables, _ = situation_tasks([rs], 60, [], 0, {rs.name: LastRounds(own.rounds, False)})
    assert [t.fixture.id for t in tables] == [
        t.fixture.id for t in every if t.fixture.table is not None or _round(t.fixture, rs) <= 3
    ] + ["play-dealt-own-last-001"]
