"""The memos of states read and checked (conformance/adapter.DecodedStates, and the
answers' checks): a state read under one rule set serves another only where the reading
read the same flags alike, and a state checked before serves only a state of the same
JSON types, so that they save time and never change an answer."""

from __future__ import annotations

import copy
import enum
import random
from typing import Any

import pytest

from mtrain.conformance import answers as A
from mtrain.conformance.adapter import (
    DecodedStates,
    ReferenceImplementation,
    fingerprint,
    ruleset_json,
)
from mtrain.conformance.fixture import load_corpus
from mtrain.conformance.traced import Log, TracedReference, TracedRules, TracedRuleset, traced_run
from mtrain.reference import codec
from mtrain.reference.deal import deal
from mtrain.reference.engine import legal_actions, perform
from mtrain.reference.invariants import violations
from mtrain.reference.rules import Rules
from mtrain.spec.catalog import catalog

NAMES = ("pagat", "puremco", "puremco-d9", "pagat+blanks-25", "pagat+tie-most-outs")


def states(name: str = "pagat", seed: int = 3) -> list[dict[str, Any]]:
    rules = Rules.of(catalog().ruleset(name))
    state = deal(rules, 3, 1, seed=seed)
    rng = random.Random(seed)
    out = []
    while True:
        out.append(codec.state_to_json(state))
        legal = legal_actions(state)
        if not legal:
            return out
        perform(state, legal[rng.randrange(len(legal))])


def test_a_state_read_under_one_rule_set_serves_another_that_reads_it_alike() -> None:
    memo = DecodedStates(64)
    every = [Rules.of(catalog().ruleset(n)) for n in NAMES]
    for data in states():
        key = fingerprint(data)
        assert key is not None
        for rules in every:
            if rules.max_pip != 12:
                with pytest.raises(codec.StateError):  # a double-12 table under double-9
                    memo.read(rules, data, key)
                continue
            st, broken = memo.read(rules, data, key)
            fresh = codec.state_from_json(rules, data)
            assert st.rules is rules
            assert codec.state_to_json(st) == codec.state_to_json(fresh) == data
            assert broken == violations(fresh)  # blanks-25 scores the round otherwise
            assert legal_actions(st) == legal_actions(fresh)


def test_a_flag_read_differently_is_read_again() -> None:
    """A finished round under penalty and under positive scoring: the round-score check
    reads the scoring, so each rule set has its own verdict."""
    data = states()[-1]
    assert data["result"] is not None
    penalty = Rules.of(catalog().ruleset("pagat"))
    positive = Rules.of(catalog().ruleset("pagat+positive-scoring"))
    assert penalty.positive_scoring != positive.positive_scoring
    memo = DecodedStates(64)
    key = fingerprint(data)
    _, first = memo.read(penalty, data, key)
    _, second = memo.read(positive, data, key)
    assert first == violations(codec.state_from_json(penalty, data)) == []
    assert second == violations(codec.state_from_json(positive, data)) != []


class Seat(enum.IntEnum):
    ZERO = 0


class Text(str):
    pass


class Phase(enum.StrEnum):
    START = "start"
    ENGINE = "engine"
    CHAIN = "chain"
    FOLLOW = "follow"
    OVER = "over"


def twins(state: dict[str, Any]) -> list[Any]:
    """States whose JSON text is that of `state` (or that have none), of other types."""
    out: list[Any] = []
    tupled = copy.deepcopy(state)
    tupled["hands"][0] = tuple(tupled["hands"][0])
    out.append(tupled)
    out.append({**state, "seat": Seat(state["seat"])} if state["seat"] == 0 else None)
    out.append({**state, "phase": Text(state["phase"])})
    out.append({**state, "phase": Phase(state["phase"])})
    if state["drawn"] is None:
        out.append({**state, "drawn": float("nan")})
    out.append(dict(state, boneyard=tuple(state["boneyard"])))
    return [t for t in out if t is not None]


def test_a_state_checked_before_serves_no_state_of_other_types() -> None:
    rj = ruleset_json(catalog().ruleset("pagat"))
    for state in states()[:6]:
        assert A.state_problems(rj, state) == []
        assert A.state_problems(rj, copy.deepcopy(state)) == []
        for twin in twins(state):
            problems = A.state_problems(rj, twin)
            assert problems and problems[0].kind == "schema", twin


def test_the_reference_reads_a_changed_state_again() -> None:
    impl = ReferenceImplementation()
    rj = ruleset_json(catalog().ruleset("pagat"))
    state = states()[4]
    before = impl.legal(rj, state)
    changed = copy.deepcopy(state)
    changed["boneyard"].append(changed["hands"][0].pop())  # a tile moved: another table
    fresh = ReferenceImplementation().legal(rj, changed)
    assert impl.legal(rj, changed) == fresh
    assert impl.legal(rj, state) == before


def test_a_rule_set_changed_after_it_was_sent_is_read_again() -> None:
    impl = ReferenceImplementation()
    rj = ruleset_json(catalog().ruleset("pagat"))
    first = impl.rules(rj)
    rj["options"]["tile_set"] = "double-9"
    rj["options"]["hand_sizes"] = "puremco-d9"  # and its table: serve refuses a table
    rj["hand_sizes"] = {str(n): h for n, h in catalog().ruleset("puremco-d9").hand_table}
    assert impl.rules(rj).max_pip == 9 and first.max_pip == 12


def test_answers_kept_under_one_rule_set_are_those_a_fresh_reading_gives_another() -> None:
    """The reference's memo of answers (adapter.Answers): the same questions about the
    states of a game, asked of one ReferenceImplementation under rule sets that play
    them differently (own train first, follow-up, chains, scoring, the draw), answered
    as a reference that keeps nothing answers each."""
    names = ["pagat", "puremco"] + [f"pagat+{o}" for o in (
        "own-train-first", "any-double-first", "chain-anywhere-start", "draw-until-playable",
        "marker-anyone", "no-double-end-start", "own-train-opens-mexican",
        "passes-end-round", "positive-scoring", "release-uncoverable",
        "single-tile-start", "wikipedia-doubles")]
    kept = ReferenceImplementation()
    fresh = ReferenceImplementation()
    fresh.remembers_states = False  # reads every state, keeps no answer
    differed = 0
    for data in states()[:25]:
        asked: list[dict[str, Any]] = [{"type": "draw"}, {"type": "pass"}, {"type": "end-chain"}]
        for tile in data["hands"][data["seat"]][:4]:
            asked += [{"type": "play", "tile": tile, "train": t}
                      for t in ("mexican", 0, 1, 2)]
        seen = []
        for name in names:
            rj = ruleset_json(catalog().ruleset(name))
            assert kept.legal(rj, data) == fresh.legal(rj, data)
            answers = []
            for action in asked:
                got, want = _answer(kept, rj, data, action), _answer(fresh, rj, data, action)
                assert got == want, (name, action)
                answers.append(want)
            seen.append(answers)
        differed += any(a != seen[0] for a in seen)
    assert differed  # the rule sets did answer differently somewhere


def _answer(impl: ReferenceImplementation, rj: dict[str, Any], state: dict[str, Any],
            action: dict[str, Any]) -> Any:
    try:
        return impl.apply(rj, state, action)
    except Exception as e:  # a refusal, or a malformed action: compared as it is said
        return type(e).__name__, str(e), getattr(e, "clause", None)


def test_traced_runs_read_the_same_options_with_states_shared(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The scope checks' traced runs share the states they read (a `DecodedStates` with
    `traced`): each run logs the options it would log reading every state itself, in the
    same order, and finds the same outcomes."""
    fixtures = [fx for fx in load_corpus()[0] if fx.steps][:12]
    rulesets = [catalog().ruleset(n) for n in NAMES]
    monkeypatch.setattr(TracedReference, "_shared_states", DecodedStates(64, traced=False))
    alone = [traced_run(fx, rs) for fx in fixtures for rs in rulesets]
    monkeypatch.setattr(TracedReference, "_shared_states", DecodedStates(4096, traced=True))
    for _ in range(2):  # the second time, every state is found
        assert [traced_run(fx, rs) for fx in fixtures for rs in rulesets] == alone


def test_a_traced_reading_found_in_the_memo_logs_what_a_reading_logs() -> None:
    memo = DecodedStates(64, traced=True)
    found = 0
    for data in states()[:12]:
        key = fingerprint(data)
        for name in NAMES:
            rs = catalog().ruleset(name)
            if Rules.of(rs).max_pip != 12:
                continue
            own = Log()
            st = codec.state_from_json(_traced(rs, own), data)  # type: ignore[arg-type]
            want = violations(st)
            log = Log()
            got, broken, entry = memo.read_entry(_traced(rs, log), data, key)  # type: ignore[arg-type]
            assert list(log.read) == list(own.read) != []
            assert broken == want and codec.state_to_json(got) == data
            found += entry is not None and entry[2] is not got  # served by another's entry
    assert found


def _traced(rs: Any, log: Log) -> TracedRules:
    return TracedRules(Rules.of(rs), TracedRuleset.wrap(rs, log), log)
