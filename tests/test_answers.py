"""Answer checks (conformance/answers.py): the hand-written schema checks give jsonschema's
verdict, problems name the invariant or the schema path, and `identical` tells true from 1."""

from __future__ import annotations

import copy
import json
import random
from functools import cache
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mtrain.conformance import answers as A
from mtrain.conformance.adapter import JSON, ReferenceImplementation, ruleset_json
from mtrain.conformance.answers import AnswerError, CheckedImplementation
from mtrain.reference import codec, invariants
from mtrain.reference.deal import deal
from mtrain.reference.engine import OVER, legal_actions, perform
from mtrain.reference.rules import Rules
from mtrain.spec.catalog import catalog
from mtrain.spec.yamlschema import schema, strict_validator


@cache
def validator(name: str) -> jsonschema.protocols.Validator:
    # integers are ints (1.0 is none), as every loader and check of the project reads them
    v: jsonschema.protocols.Validator = strict_validator(schema(name))
    return v


@cache
def sample_states() -> list[JSON]:
    """States of a few random games, from the deal to the end (every phase)."""
    out = []
    for name, players, seed in (("pagat", 4, 1), ("puremco-d9", 2, 2), ("pagat", 2, 5),
                                ("puremco", 3, 3)):
        rules = Rules.of(catalog().ruleset(name))
        state = deal(rules, players, 1 + seed % 3, seed=seed)
        rng = random.Random(seed)
        while True:
            out.append(codec.state_to_json(state))
            legal = legal_actions(state)
            if not legal:
                break
            perform(state, legal[rng.randrange(len(legal))])
    return out


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 14) | st.sampled_from([0.0, 1.0, 2.5, -1.0])
    | st.sampled_from(["12-5", "5-12", "1-1", "1-1\n", "13-1", "a", "", "mexican", "over",
                       "domino", "blocked", "start", "engine", "01-1"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["tiles", "end", "marker", "extra", "winner", "scores"]), inner,
        max_size=3),
    max_leaves=6)


def paths(doc: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += paths(v, (*prefix, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out += paths(v, (*prefix, i))
    return out


@st.composite
def mutated(draw: st.DrawFn) -> Any:
    """A sample state with one to three random changes: a value replaced, a key removed or
    added, a list item repeated, a number turned into a float or a boolean."""
    doc = copy.deepcopy(draw(st.sampled_from(sample_states())))
    for _ in range(draw(st.integers(1, 3))):
        where = draw(st.sampled_from(paths(doc)[1:]))
        parent = doc
        for key in where[:-1]:
            parent = parent[key]
        key = where[-1]
        how = draw(st.sampled_from(["replace", "delete", "add", "repeat", "float", "bool"]))
        if how == "replace":
            parent[key] = draw(JSON_VALUES)
        elif how == "delete":
            del parent[key]
        elif how == "add" and isinstance(parent, dict):
            parent["extra"] = draw(JSON_VALUES)
        elif how == "repeat" and isinstance(parent[key], list) and parent[key]:
            parent[key].append(parent[key][0])
        elif how == "float" and type(parent[key]) is int:
            parent[key] = float(parent[key])
        elif how == "bool" and type(parent[key]) is int:
            parent[key] = bool(parent[key])
    return doc


@pytest.mark.slow
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_state_check_agrees_with_jsonschema(doc: Any) -> None:
    assert A.state_valid(doc) == validator("state").is_valid(doc), json.dumps(doc)


def test_every_sample_state_is_valid() -> None:
    assert all(A.state_valid(s) for s in sample_states())
    assert len({s["phase"] for s in sample_states()}) >= 4


ACTIONS = st.one_of(
    st.fixed_dictionaries({"type": st.sampled_from(["play", "draw", "pass", "end-chain", "x"])},
                          optional={"tile": JSON_VALUES, "train": JSON_VALUES,
                                    "extra": JSON_VALUES}),
    JSON_VALUES)


@settings(max_examples=300, deadline=None)
@given(ACTIONS)
def test_action_check_agrees_with_jsonschema(doc: Any) -> None:
    assert A.action_valid(doc) == validator("action").is_valid(doc), doc


def a_state() -> JSON:
    return copy.deepcopy(sample_states()[10])


RULESET = ruleset_json(catalog().ruleset("pagat"))


def test_problems_name_the_schema_path() -> None:
    bad = {**a_state(), "passes": "0"}
    [problem] = A.state_problems(RULESET, bad)
    assert problem.kind == "schema" and problem.status == "error"
    assert problem.where.startswith("passes [state.schema.json#/properties/passes/")
    extra = {**a_state(), "extra": 1}
    assert "additionalProperties" in A.state_problems(RULESET, extra)[0].where


def test_problems_name_the_invariant() -> None:
    state = a_state()
    state["boneyard"].append(state["hands"][0][0])  # one tile in two places
    problems = A.state_problems(RULESET, state)
    assert {p.where for p in problems} >= {"INV-CONSERVATION"}
    assert all(p.kind == "invariant" and p.status == "fail" for p in problems)


def test_an_open_double_left_listed_names_the_trains_as_the_protocol_does() -> None:
    """The Mexican Train is `mexican` in the message, not the number after the last seat
    (siding's covered Mexican double read "listed on trains [4]" at four seats); the
    attribution that reads the message still charges the cover (TRAIN-3)."""
    state = a_state()
    players = len(state["hands"])
    state["open_doubles"] = ["mexican"]  # the Mexican Train does not end in a double
    [problem] = [p for p in A.state_problems(RULESET, state) if p.where == "INV-OPEN-DOUBLES"]
    assert "listed on trains [mexican], trains ending in a double: []" in problem.message
    assert f"[{players}]" not in problem.message
    from mtrain.conformance.field_clauses import OPEN_LISTS
    found = OPEN_LISTS.search(problem.message)
    assert found is not None and found.groups() == ("mexican", "")


def test_a_train_written_far_end_first_is_refused() -> None:
    state = next(s for s in sample_states() if any(
        len(t["tiles"]) >= 2 and t["tiles"][0].split("-")[0] != t["tiles"][0].split("-")[1]
        for t in s["trains"]))
    train = next(t for t in state["trains"] if len(t["tiles"]) >= 2)
    a, b = train["tiles"][0].split("-")
    train["tiles"][0] = f"{b}-{a}"
    [problem] = A.state_problems(RULESET, state)
    assert problem.kind == "state" and "TRAIN-2" in problem.message
    assert problem.where.startswith("state.trains[")
    # the message names the place once: "state.trains[1].tiles[0]: 3-5 does not continue"
    assert str(problem).count(problem.where) == 1, str(problem)


def test_a_deal_is_checked_for_hand_sizes() -> None:
    state = codec.state_to_json(deal(Rules.of(catalog().ruleset("pagat")), 4, 1, seed=1))
    assert A.state_problems(RULESET, state, dealt=True) == []
    state["boneyard"].append(state["hands"][1].pop())
    assert [p.where for p in A.state_problems(RULESET, state, dealt=True)] == [
        "INV-HAND-SIZES"]


@pytest.mark.parametrize("change", [
    lambda s: s.__setitem__("passes", float(s["passes"])),
    lambda s: s.__setitem__("engine_placed", int(s["engine_placed"])),
    lambda s: s["trains"][0].__setitem__("marker", int(s["trains"][0]["marker"])),
    lambda s: s["scores"].__setitem__(0, bool(s["scores"][0]) if s["scores"][0] in (0, 1)
                                      else float(s["scores"][0])),
    lambda s: s["mexican"].__setitem__("end", float(s["mexican"]["end"])),
])
def test_identical_tells_booleans_and_floats_from_integers(change: Any) -> None:
    want = a_state()
    got = copy.deepcopy(want)
    assert A.identical(got, want)
    change(got)
    assert got == want and not A.identical(got, want)


def test_violations_fast_path_gives_the_full_list() -> None:
    """`violations` skips the pips and numbers checks when conservation holds by count:
    it must report exactly what every check run one by one reports."""
    rng = random.Random(3)
    rules = Rules.of(catalog().ruleset("puremco"))
    for k in range(60):
        state = deal(rules, 3, 1, seed=k)
        for _ in range(rng.randrange(30)):
            legal = legal_actions(state)
            if state.phase == OVER or not legal:
                break
            perform(state, legal[rng.randrange(len(legal))])
        if k % 3 == 1 and state.boneyard:  # a tile in two places
            state.hands[0] |= 1 << state.boneyard[0]
            state.hands[1] |= 1 << state.boneyard[0] if k % 2 else 0
        elif k % 3 == 2 and state.boneyard:  # a tile gone, another twice
            state.boneyard[-1] = state.boneyard[0]
        full = [v for check in invariants.CHECKS.values() for v in check(state)]
        assert invariants.violations(state) == full
        assert invariants.conserved(state) == (not invariants.conservation(state))


class Duplicates(ReferenceImplementation):
    """Every draw leaves the drawn tile in the boneyard too."""

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        new = super().apply(ruleset, state, action)
        if action["type"] == "draw" and new["phase"] != "engine" and state["boneyard"]:
            new["boneyard"] = [state["boneyard"][0], *new["boneyard"]]
        return new


def test_checked_implementation_raises_on_a_wrong_answer() -> None:
    impl = CheckedImplementation(Duplicates())
    state = next(s for s in sample_states() if s["phase"] == "start" and s["boneyard"]
                 and not any(a["type"] == "play" for a in REF.legal(RULESET, s)))
    with pytest.raises(AnswerError) as e:
        impl.apply(RULESET, state, {"type": "draw"})
    assert e.value.status == "fail" and "INV-CONSERVATION" in e.value.messages[0]
    assert impl.legal(RULESET, state) == REF.legal(RULESET, state)


class Scores(ReferenceImplementation):
    """Scores the round as the reference, then writes the answer as `shape` says."""

    def __init__(self, shape: Any) -> None:
        super().__init__()
        self.shape = shape

    def score(self, ruleset: JSON, state: JSON, winner: int | None) -> Any:
        return self.shape(super().score(ruleset, state, winner))


@pytest.mark.parametrize("shape", [
    lambda got: [bool(x) for x in got],   # True == 1: compared equal to the scores wanted
    lambda got: tuple(got),
    lambda got: [str(x) for x in got],
    lambda got: None,
])
def test_a_score_answer_is_checked_like_the_others(shape: Any) -> None:
    state = next(s for s in sample_states() if s["phase"] == "over")
    winner = state["result"]["winner"]
    seat = winner if winner >= 0 else None
    assert CheckedImplementation(Scores(list)).score(RULESET, state, seat) == REF.score(
        RULESET, state, seat)
    with pytest.raises(AnswerError) as e:  # returned unchecked before
        CheckedImplementation(Scores(shape)).score(RULESET, state, seat)
    assert e.value.status == "error" and "score_answer" in e.value.messages[0]


REF = ReferenceImplementation()


@pytest.mark.parametrize(("change", "message"), [
    (lambda s: s["hands"][0].extend(["5-3", "3-5"]), "state.hands[0]: 5-3 appears twice"),
    (lambda s: s["hands"][1].append("13-1"), "state.hands[1]["),
    (lambda s: s["boneyard"].append(["1-1"]), "state.boneyard["),
    (lambda s: s["boneyard"].insert(0, 7), "state.boneyard[0]"),
])
def test_codec_names_a_bad_tile(change: Any, message: str) -> None:
    """The codec's fast way through hands and the boneyard still names what is wrong."""
    state = a_state()
    state["hands"][0] = [t for t in state["hands"][0] if t not in ("5-3", "3-5")]
    change(state)
    with pytest.raises(codec.StateError) as e:
        codec.state_from_json(Rules.of(catalog().ruleset("pagat")), state)
    assert message in str(e.value)


# --- conform checks every answer ---------------------------------------------------------

DATA = __import__("pathlib").Path(__file__).parent / "data" / "fixtures"


class ExtraKey(ReferenceImplementation):
    """Every state it returns carries a key the schema does not allow."""

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        return {**super().apply(ruleset, state, action), "comment": "hi"}


class StringPasses(ReferenceImplementation):
    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        new = super().apply(ruleset, state, action)
        return {**new, "passes": str(new["passes"])}


class FarEndFirst(ReferenceImplementation):
    """Writes each train's tiles far end first."""

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        new = super().apply(ruleset, state, action)
        for train in [*new["trains"], new["mexican"]]:
            train["tiles"] = ["-".join(reversed(t.split("-"))) for t in train["tiles"]]
        return new


class EngineFromBoneyard(ReferenceImplementation):
    """Deals as the reference, but lays the engine while it is also still in the
    boneyard (a tile in two places)."""

    def deal(self, ruleset: JSON, players: int, round: int, order: list[str],
             draw: list[list[str]] | None = None) -> JSON:
        state = super().deal(ruleset, players, round, order, draw)
        engine = f"{state['engine']}-{state['engine']}"
        if state["engine_placed"] and engine not in state["boneyard"]:
            state["boneyard"].append(engine)
        return state


@pytest.mark.parametrize(("impl", "status", "where"), [
    (ExtraKey(), "error", "state.schema.json#/additionalProperties"),
    (StringPasses(), "error", "passes [state.schema.json#/properties/passes/type]"),
    (FarEndFirst(), "fail", "TRAIN-2"),
])
def test_conform_checks_every_returned_state(impl: Any, status: str, where: str) -> None:
    from mtrain.conformance.fixture import load_file
    from mtrain.conformance.runner import run_fixture

    fx = next(f for f in load_file(DATA / "basic" / "play.yaml") if f.id == "basic-002")
    outcomes = list(run_fixture(fx, impl))
    assert outcomes and all(o.status == status for o in outcomes), outcomes
    assert all(where in o.message and "apply" in o.message for o in outcomes), outcomes


def test_conform_checks_the_deal() -> None:
    from mtrain.conformance.fixture import load_file
    from mtrain.conformance.runner import run_fixture

    fx = load_file(DATA / "deal" / "deal.yaml")[0]
    outcomes = {o.variant: o for o in run_fixture(fx, EngineFromBoneyard())}
    assert outcomes["puremco"].status == "fail"  # the engine set aside, then dealt too
    assert "INV-CONSERVATION" in outcomes["puremco"].message
    assert all(o.status == "pass" for o in run_fixture(fx, REF))
