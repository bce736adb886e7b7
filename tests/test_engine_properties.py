"""Property tests of the reference engine: random legal games under every rule set.

Every shipped variant, every overlay on every base, every pair of overlays on every base
(the combinations that compose: `Catalog.ruleset` refuses the others), and random larger
stacks of overlays drawn by hypothesis. Hypothesis draws the seed (which fixes the deal
and every choice of action), the player count from the variant's hand-size table and the
round to start from. After every action the game is checked:

* every invariant of spec/data/invariants.yaml holds (`invariants.violations`), and
  INV-HAND-SIZES right after each deal;
* `legal_actions` is empty exactly when the round is over, and lists no action twice;
* `apply` accepts every listed action and never changes its input;
* `apply` refuses unlisted actions with an `IllegalAction` naming a clause that exists;
* the codec round-trips the state and every listed action, and the action JSON
  validates against spec/schemas/action.schema.json, the state JSON against
  state.schema.json.

How hard each state is probed (`Depth`) is what keeps the file fast:

* the shipped variants: every tile of the double-12 set on every train (and on a train
  that does not exist), plus draw, pass, end-chain and a few nonsense actions, at every
  state; the state schema at every state;
* single overlays and random stacks: a sample of tiles from the hand and from the set on
  random trains, plus draw, pass and end-chain, at every state; the schema at every state;
* pairs of overlays (some 260 rule sets): a smaller sample, and the state schema at every
  8th state and the last (the JSON's shape does not depend on the overlays).

The fast loop (`-m "not slow"`) plays a sample that names every overlay: each overlay
alone on one base, and pairs until every overlay has been played in a pair on every base
it composes with (47 of 1,276 pairs); the rest are marked slow. The whole suite plays every
single overlay on every base, and each pair of overlays once, on one of the bases it
composes with (suite_sample, the bases in turn; with the fast loop's, 633 of the 1,276
games); MTRAIN_DEEP=1 plays every pair on every base (about 150 CPU s for the pairs
alone). Set MTRAIN_PROPERTY_SCALE (an integer, default 1) to multiply the number of
games, for a deeper run.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from mtrain.reference import invariants
from mtrain.reference.codec import (
    action_from_json,
    action_to_json,
    state_from_json,
    state_to_json,
)
from mtrain.reference.deal import deal, next_round
from mtrain.reference.engine import (
    DRAW,
    END_CHAIN,
    OVER,
    PASS,
    Action,
    IllegalAction,
    State,
    legal_actions,
)
from mtrain.reference.refusals import apply
from mtrain.reference.rules import Rules
from mtrain.spec import tiles as T
from mtrain.spec.catalog import RulesetError, catalog
from mtrain.spec.yamlload import SpecError
from mtrain.spec.yamlschema import schema

SCALE = max(1, int(os.environ.get("MTRAIN_PROPERTY_SCALE", "1")))

CAT = catalog()
BASES = tuple(CAT.variants)
OVERLAYS = tuple(CAT.overlays)
CLAUSE_IDS = frozenset(CAT.clauses)


def fast_validator(name: str) -> jsonschema.protocols.Validator:
    """A validator for spec/schemas/<name>.schema.json that gives the same verdicts as
    `Draft202012Validator`, only faster: the `$ref`s are inlined once, and an array of
    tiles is checked by the tile pattern directly rather than item by item through the
    generic machinery, and a list or object found valid is not walked again
    (test_fast_validators_agree_with_the_reference_validator)."""
    raw = schema(name)
    defs = raw.get("$defs", {})
    inlined: dict[str, Any] = {}

    def inline(node: Any) -> Any:
        if isinstance(node, dict):
            if "$ref" in node and set(node) <= {"$ref", "description"}:
                ref = node["$ref"].removeprefix("#/$defs/")
                if ref not in inlined:
                    inlined[ref] = inline(defs[ref])
                return inlined[ref]
            assert "$ref" not in node, node
            return {k: inline(v) for k, v in node.items() if k != "$defs"}
        if isinstance(node, list):
            return [inline(x) for x in node]
        return node

    flat = inline(raw)
    tile = inlined.get("tile")
    pattern = re.compile(tile["pattern"]) if tile else None
    stock = jsonschema.Draft202012Validator.VALIDATORS["items"]
    valid: set[tuple[int, str]] = set()  # (id of a schema, a container found valid by it)

    def descend(validator: Any, x: Any, sub: Any, **where: Any) -> Iterator[Any]:
        """validator.descend, remembering the lists and objects found valid: a game's
        states share most of their parts (trains, hands) with the state before, and a
        part's verdict depends on the part alone; a broken one is walked again, for its
        messages."""
        if not isinstance(x, (dict, list)):
            yield from validator.descend(x, sub, **where)
            return
        key = (id(sub), repr(x))  # equal reprs: equal values (of the JSON types)
        if key in valid:
            return
        errors = list(validator.descend(x, sub, **where))
        if errors:
            yield from errors
        elif len(valid) < 200_000:
            valid.add(key)

    def items(validator: Any, sub: Any, instance: Any, parent: Any) -> Iterator[Any]:
        if not isinstance(instance, list) or "prefixItems" in parent:
            yield from stock(validator, sub, instance, parent)
        elif sub is tile and pattern is not None:
            for i, x in enumerate(instance):
                if not (isinstance(x, str) and pattern.search(x)):
                    yield from validator.descend(x, sub, path=i)
        else:
            for i, x in enumerate(instance):
                yield from descend(validator, x, sub, path=i)

    def properties(validator: Any, subs: Any, instance: Any, parent: Any) -> Iterator[Any]:
        if isinstance(instance, dict):
            for name, sub in subs.items():
                if name in instance:
                    yield from descend(validator, instance[name], sub, path=name,
                                       schema_path=name)

    cls = jsonschema.validators.extend(  # type: ignore[no-untyped-call]
        jsonschema.Draft202012Validator, {"items": items, "properties": properties})
    validator: jsonschema.protocols.Validator = cls(flat)
    return validator


STATE_SCHEMA = fast_validator("state")
ACTION_SCHEMA = fast_validator("action")
_valid_actions: set[str] = set()


def check_action_json(data: dict[str, Any]) -> None:
    """Validate an action's JSON (each distinct JSON text once per session)."""
    key = json.dumps(data, sort_keys=True)
    if key not in _valid_actions:
        errors = sorted(e.message for e in ACTION_SCHEMA.iter_errors(data))
        assert errors == [], (data, errors)
        _valid_actions.add(key)


# Tried at every state whenever they are not listed as legal.
SIMPLE_ACTIONS = (DRAW, PASS, END_CHAIN)
# Tried exhaustively too: ids outside every set, a train that cannot exist, a made-up kind.
NONSENSE_ACTIONS = (Action("play", -1, 0), Action("play", T.TILE_COUNT, 0),
                    Action("play", 0, -1), Action("jump"))


@cache
def rules_for(base: str, overlays: tuple[str, ...]) -> Rules | None:
    """The composed rules, or None when the combination does not compose."""
    try:
        return Rules.of(CAT.ruleset(base, overlays))
    except (RulesetError, SpecError):
        return None


def combinations(size: int) -> list[tuple[str, tuple[str, ...]]]:
    return [(base, combo) for base in BASES for combo in itertools.combinations(OVERLAYS, size)
            if rules_for(base, combo) is not None]


SINGLES = combinations(1)
PAIRS = combinations(2)


def combo_id(combo: tuple[str, tuple[str, ...]]) -> str:
    base, overlays = combo
    return "+".join((base, *overlays))


def fast_sample(combos: Sequence[tuple[str, tuple[str, ...]]],
                per_base: bool) -> set[tuple[str, tuple[str, ...]]]:
    """The combinations the fast loop plays: taken in order, first those whose overlays are
    all new, then those that name one not yet played (new on that base, when `per_base`;
    on any base otherwise, the bases taking turns), so that every overlay is played at
    least once (on every base it composes with), in as few games as the order allows."""
    rotated = combos if per_base else sorted(
        combos, key=lambda c: (BASES.index(c[0]) - OVERLAYS.index(c[1][0])) % len(BASES))
    seen: set[tuple[str, str]] = set()
    chosen = set()
    for whole in (True, False):  # first the combinations new in every overlay
        for base, overlays in rotated:
            keys = {(base if per_base else "", o) for o in overlays}
            if (not keys & seen) if whole else (not keys <= seen):
                chosen.add((base, overlays))
                seen |= keys
    return chosen


DEEP = os.environ.get("MTRAIN_DEEP") == "1"
"""MTRAIN_DEEP=1: every pair of overlays on every base it composes with (the suite plays
each pair on one base: suite_sample)."""


def suite_sample(combos: Sequence[tuple[str, tuple[str, ...]]]) -> set[tuple[str, tuple[str, ...]]]:
    """Each set of overlays once, on one of the bases it composes with, the bases taken in
    turn (the k-th set of overlays in order on its bases' k-th, modulo their number):
    every pair of overlays is played together, and every overlay on every base (the
    singles, and fast_sample's pairs)."""
    bases: dict[tuple[str, ...], list[str]] = {}
    for base, overlays in combos:
        bases.setdefault(overlays, []).append(base)
    return {(on[k % len(on)], overlays) for k, (overlays, on) in enumerate(sorted(bases.items()))}


def fast_or_slow(combos: Sequence[tuple[str, tuple[str, ...]]], per_base: bool,
                 whole: bool = True) -> list[Any]:
    """The combinations as tests; those outside `fast_sample` marked slow, so that the
    suite plays them and the fast loop a sample that names every overlay; not `whole`:
    the suite plays fast_sample and suite_sample, and every combination under
    MTRAIN_DEEP=1."""
    fast = fast_sample(combos, per_base)
    played = fast | suite_sample(combos) if not whole and not DEEP else set(combos)
    return [pytest.param(c, id=combo_id(c), marks=() if c in fast else pytest.mark.slow)
            for c in combos if c in played]


# --- the checks ------------------------------------------------------------------------


@dataclass(frozen=True)
class Depth:
    """How hard to check each state.

    `exhaustive`: try every tile of the largest set on every train (and on a train that
    does not exist) at every state; otherwise a sample: `sample` tiles from the hand of
    the player to move and a third as many arbitrary tiles, each on a random train.
    Draw, pass and end-chain are always tried when they are not listed.
    `schema_every`: validate the state JSON against the schema at every k-th state of a
    round and at its last (1: at every state).
    """

    exhaustive: bool = False
    sample: int = 12
    schema_every: int = 1


FULL = Depth()
EXHAUSTIVE = Depth(exhaustive=True)
LIGHT = Depth(sample=8, schema_every=8)


def candidates(state: State, depth: Depth, rng: random.Random) -> list[Action]:
    trains = state.players + 2  # every train, and one that does not exist
    if depth.exhaustive:
        plays = [Action("play", t, tr) for t in range(T.TILE_COUNT) for tr in range(trains)]
        plays += NONSENSE_ACTIONS
    else:
        # tiles in hand on random trains (the refusals that need a rule), and a few
        # arbitrary tiles (not held, not in the set, not matching)
        held = T.tiles_of(state.hands[state.seat])
        plays = [Action("play", rng.choice(held), rng.randrange(trains))
                 for _ in range(depth.sample if held else 0)]
        plays += [Action("play", rng.randrange(T.TILE_COUNT), rng.randrange(trains))
                  for _ in range(depth.sample // 3)]
    return [*plays, *SIMPLE_ACTIONS]


def check_refusals(state: State, legal: Sequence[Action], tries: Sequence[Action]) -> None:
    listed = set(legal)
    for action in tries:
        if action in listed:
            continue
        try:
            apply(state, action)
        except IllegalAction as e:
            assert e.clause in CLAUSE_IDS, f"{action} refused with unknown clause {e.clause}"
        else:
            raise AssertionError(f"{action} is not listed by legal_actions but apply took it "
                                 f"in {state_to_json(state)}")


def check_state_json(data: dict[str, Any]) -> None:
    if not STATE_SCHEMA.is_valid(data):
        raise AssertionError(sorted(e.message for e in STATE_SCHEMA.iter_errors(data)))


def check_state(rules: Rules, state: State, depth: Depth, rng: random.Random,
                validate: bool) -> dict[Action, State]:
    """Every check on one state; returns the successor of every legal action."""
    found = invariants.violations(state)
    assert found == [], found
    data = state_to_json(state)
    if validate:
        check_state_json(data)
    assert state_from_json(rules, data) == state, "state codec does not round-trip"

    legal = legal_actions(state)
    assert (legal == []) == (state.phase == OVER), (state.phase, legal)
    assert len(set(legal)) == len(legal), f"repeated actions in {legal}"
    successors = {}
    for action in legal:
        adata = action_to_json(state, action)
        check_action_json(adata)
        assert action_from_json(state, adata) == action, f"{adata} does not round-trip"
        successors[action] = apply(state, action)  # raises if a listed action is refused
    check_refusals(state, legal, candidates(state, depth, rng))
    assert state_to_json(state) == data, "apply changed its input state"
    return successors


def play_game(rules: Rules, players: int, round_no: int, seed: int, rounds: int = 1,
              depth: Depth = FULL, max_actions: int = 2_000) -> int:
    """Play `rounds` random rounds from `round_no` on, checking every state; the action count."""
    rng = random.Random(seed)
    state = deal(rules, players, round_no, seed=rng.randrange(2**32))
    actions = 0
    for k in range(rounds):
        if k:
            if state.round >= rules.rounds:
                break
            totals = list(state.scores)
            state = next_round(state, seed=rng.randrange(2**32))
            assert state.scores == totals, "the match totals carry over"
        assert invariants.hand_sizes(state) == [], invariants.hand_sizes(state)
        step = 0
        while True:
            over = state.phase == OVER
            successors = check_state(rules, state, depth, rng,
                                     validate=over or step % depth.schema_every == 0)
            if not successors:
                break
            options = list(successors)
            state = successors[options[rng.randrange(len(options))]]
            step += 1
            actions += 1
            assert step < max_actions, "a round that does not end"
        assert state.result is not None
    return actions


def player_counts(rules: Rules) -> list[int]:
    return sorted(rules.hand_table)


def game_args(rules: Rules) -> st.SearchStrategy[tuple[int, int, int]]:
    """(players, starting round, seed) for one game under `rules`."""
    return st.tuples(st.sampled_from(player_counts(rules)),
                     st.integers(1, rules.rounds),
                     st.integers(0, 2**32 - 1))


FAST = settings(deadline=None, database=None, derandomize=False,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


# --- the variants themselves, probed exhaustively --------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("base", BASES)
@settings(FAST, max_examples=3 * SCALE)
@given(data=st.data())
def test_variant_random_games_exhaustive_refusals(base: str, data: st.DataObject) -> None:
    """At every state of the round every tile is tried on every train."""
    rules = rules_for(base, ())
    assert rules is not None
    players, round_no, seed = data.draw(game_args(rules))
    play_game(rules, players, round_no, seed, depth=EXHAUSTIVE)


@pytest.mark.parametrize("base", BASES)
def test_variant_every_player_count(base: str) -> None:
    """Two rounds for every player count of the table (a fixed seed each)."""
    rules = rules_for(base, ())
    assert rules is not None
    for players in player_counts(rules):
        play_game(rules, players, 1, seed=players, rounds=2)


# --- every overlay and every pair of overlays on every base ----------------------------


# the whole suite: every overlay alone (the fast loop plays each, on every base, in the
# pairs' fast sample below: ~2.3 CPU s saved)
@pytest.mark.parametrize("combo", [pytest.param(c, id=combo_id(c), marks=pytest.mark.slow)
                                   for c in SINGLES])
@settings(FAST, max_examples=SCALE)
@given(data=st.data())
def test_single_overlay_random_games(combo: tuple[str, tuple[str, ...]],
                                     data: st.DataObject) -> None:
    rules = rules_for(*combo)
    assert rules is not None
    players, round_no, seed = data.draw(game_args(rules))
    play_game(rules, players, round_no, seed)


@pytest.mark.parametrize("combo", fast_or_slow(PAIRS, per_base=True, whole=False))
@settings(FAST, max_examples=SCALE)
@given(data=st.data())
def test_overlay_pair_random_game(combo: tuple[str, tuple[str, ...]],
                                  data: st.DataObject) -> None:
    rules = rules_for(*combo)
    assert rules is not None
    players, round_no, seed = data.draw(game_args(rules))
    play_game(rules, players, round_no, seed, depth=LIGHT)


# --- larger random stacks of overlays ------------------------------------------------


@pytest.mark.slow
@settings(FAST, max_examples=20 * SCALE)
@given(data=st.data())
def test_random_overlay_stack_random_game(data: st.DataObject) -> None:
    base = data.draw(st.sampled_from(BASES), label="base")
    chosen = data.draw(st.lists(st.sampled_from(OVERLAYS), min_size=3, max_size=8,
                                unique=True), label="overlays")
    kept: list[str] = []
    for overlay in chosen:  # drop the overlays that do not compose with those kept
        if rules_for(base, (*kept, overlay)) is not None:
            kept.append(overlay)
    event(f"{len(kept)} overlays")
    rules = rules_for(base, tuple(kept))
    assert rules is not None
    players, round_no, seed = data.draw(game_args(rules))
    play_game(rules, players, round_no, seed, rounds=2)


# --- the combinations themselves -------------------------------------------------------


def test_every_overlay_composes_with_some_base() -> None:
    assert {o for _, (o,) in SINGLES} == set(OVERLAYS)


def test_enumeration_covers_the_expected_combinations() -> None:
    """The enumeration above is not silently empty (the counts are what composes today),
    and the fast loop's sample names every overlay on every base it composes on."""
    assert len(SINGLES) >= len(OVERLAYS)
    assert len(PAIRS) >= 100
    pairs = fast_sample(PAIRS, per_base=True)
    played = {(b, o) for b, os in pairs for o in os}
    assert played == {(b, o) for b, os in PAIRS for o in os}
    # the overlays alone are the whole suite's: each is played on each of its bases here
    assert {(b, o) for b, (o,) in SINGLES} <= played
    assert len(pairs) < len(PAIRS)
    suite = suite_sample(PAIRS)  # every pair of overlays, once
    assert {os for _, os in suite} == {os for _, os in PAIRS} and len(suite) < len(PAIRS)
    for base in BASES:
        assert rules_for(base, ()) is not None


def test_codec_refuses_what_it_cannot_read() -> None:
    """A sanity check of the checker: a changed state does not round-trip to the original."""
    rules = rules_for("pagat", ())
    assert rules is not None
    state = deal(rules, 4, seed=7)
    data: dict[str, Any] = state_to_json(state)
    data["passes"] = 3
    assert state_from_json(rules, data) != state
    assert sorted(e.message for e in STATE_SCHEMA.iter_errors({**data, "phase": "x"}))


def sample_documents() -> list[tuple[str, Any]]:
    """States and actions from a few games, some valid and some broken by hand."""
    out: list[tuple[str, Any]] = []
    for base, players in (("pagat", 3), ("puremco-d9", 2)):
        rules = rules_for(base, ())
        assert rules is not None
        rng = random.Random(players)
        state = deal(rules, players, 1, seed=players)
        while True:
            out.append(("state", state_to_json(state)))
            legal = legal_actions(state)
            out += [("action", action_to_json(state, a)) for a in legal]
            if not legal:
                break
            state = apply(state, legal[rng.randrange(len(legal))])
    good = out[len(out) // 2][1] if out[len(out) // 2][0] == "state" else out[0][1]
    broken: list[dict[str, Any]] = [
        {**good, "hands": [["13-1"]]}, {**good, "hands": [[5]]},
        {**good, "boneyard": ["1-1", "1-1"]},
        {**good, "drawn": "1--1"}, {**good, "phase": "over"}, {**good, "result": {"end": "domino"}},
        {**good, "trains": [{"tiles": [], "end": 3}]}, {**good, "mexican": {"tiles": [], "end": 3,
                                                                       "marker": False}},
        {**good, "open_doubles": [-1]}, {**good, "turn_doubles": ["mex"]}, {**good, "extra": 1},
        {k: v for k, v in good.items() if k != "passes"},
    ]
    out += [("state", b) for b in broken]
    out += [("action", a) for a in (
        {"type": "play", "tile": "12-13", "train": 0}, {"type": "play", "tile": "1-1"},
        {"type": "draw", "tile": "1-1"}, {"type": "jump"}, {"type": "play", "tile": "1-1",
                                                           "train": "Mexican"})]
    return out


def test_fast_validators_agree_with_the_reference_validator() -> None:
    stock = {name: jsonschema.Draft202012Validator(schema(name)) for name in ("state", "action")}
    fast = {"state": STATE_SCHEMA, "action": ACTION_SCHEMA}
    verdicts = []
    for name, doc in sample_documents():
        verdict = stock[name].is_valid(doc)
        assert fast[name].is_valid(doc) == verdict, (name, doc)
        verdicts.append(verdict)
    assert True in verdicts and False in verdicts
