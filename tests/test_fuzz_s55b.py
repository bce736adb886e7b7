"""Session 55 (fuzz55b): fuzz judges a doubles rule of one's own as conform does.

conform cuts an entry finely under `doubles: other` (conformance/lay_alone.py,
double_plays.py): a double the engine leaves out on a train it keeps open to the player is
its rule's, the rest of the list judged, and where nothing else is laid its draw or pass
is the rules' with those doubles held back. fuzz compared the legal list as written (the
reference reads no doubles rule where a double is offered): hostler's "no lone double"
(tests/examples/js/hostler_engine.js --fixed --house=lone-double) made 2 findings in 4
games, 3 in 12 ("forbids play", TRAIN-4, MARK-1, TURN-3), none of which conform
reproduced. fuzz now asks the same code (fuzz/own_doubles.py), in play and in shrinking.

The engine here is test_lay_alone's LoneDouble (a double laid only with a partner of its
number in hand, or as the last tile), its draw or pass carried out as it lists them, and
beside it one planted bug at a time, each a bug under any doubles rule: a pass where a
tile is left to draw (TURN-2), a double offered on another player's train with no marker
(TRAIN-4), the Mexican Train shut once it holds a tile (TRAIN-4).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from rule_texts import rules_text
from test_lay_alone import LoneDouble, MexicanShut, PassesForLone, run

from mtrain.conformance.adapter import JSON, ReferenceImplementation
from mtrain.conformance.double_plays import double_play
from mtrain.conformance.fixture import load_file
from mtrain.conformance.fuzz import Group, Target, fuzz
from mtrain.conformance.fuzz.own_doubles import legal_cut
from mtrain.conformance.fuzz.rulesets import declared_context
from mtrain.conformance.lint import lint
from mtrain.conformance.process import ImplementationCrashed
from mtrain.reference import codec
from mtrain.reference.engine import legal_actions, perform
from mtrain.spec import tiles as T
from mtrain.spec.catalog import catalog
from mtrain.spec.notation import action_text, table_state
from mtrain.spec.ruleset import Ruleset

GAMES, SEED = 2, 1
"""Two one-round games on a double-6 set: under seed 1 a lone double is the only play
several times, and each bug below shows (the engine without them: nothing found)."""

RULES = rules_text("no-lone-double", "puremco", doubles="other", scoring=None,
                   blank_values=None)
"""Known rules but for the doubles rule: a double-6 set, one round a match."""


class NoLoneDouble(LoneDouble):
    """LoneDouble, its draw or pass in place of a lone double carried out as it lists
    them (LoneDouble leaves them to the reference, which refuses them, a play being left:
    TURN-1; an engine whose answers contradict each other is rightly found)."""

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        if (action.get("type") in ("draw", "pass") and action in self.legal(ruleset, state)
                and action not in ReferenceImplementation.legal(self, ruleset, state)):
            st = self.state(ruleset, state).copy()
            perform(st, codec.action_from_json(st, action))
            return codec.state_to_json(st)
        return super().apply(ruleset, state, action)


class PassesInstead(PassesForLone, NoLoneDouble):
    """Bug: with its lone double left out it passes, a tile left to draw (TURN-2)."""


class MexicanClosed(MexicanShut, NoLoneDouble):
    """Bug: no play on the Mexican Train once it holds a tile (TRAIN-4)."""


class DoubleOnClosedTrain(NoLoneDouble):
    """Bug: a double it lays is offered too on each other player's train that ends in its
    number and carries no marker (TRAIN-4: not open to the mover)."""

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        found = super().legal(ruleset, state)
        seen = {(a.get("tile"), a.get("train")) for a in found}
        for a in list(found):
            tile = str(a.get("tile"))
            if a["type"] != "play" or not double_play(f"play {tile} on 0"):
                continue
            for k, train in enumerate(state["trains"]):
                if (k != state["seat"] and not train.get("marker")
                        and train["end"] == T.HIGH[T.parse(tile)] and (tile, k) not in seen):
                    seen.add((tile, k))
                    found.append({"type": "play", "tile": tile, "train": k})
        return found


@pytest.fixture(scope="module")
def rules(tmp_path_factory: pytest.TempPathFactory) -> Ruleset:
    path = tmp_path_factory.mktemp("lone") / "rules.yaml"
    path.write_text(RULES, encoding="utf-8")
    return catalog().rules_file(str(path))


def _found(tmp_path: Path, rules: Ruleset, impl: ReferenceImplementation) -> list[Group]:
    name = declared_context(rules).name
    return fuzz(Target.of(impl, name), [name], GAMES, SEED, out=tmp_path / "out").new


def _honest(found: Group, rules: Ruleset, impl: type[NoLoneDouble]) -> dict[str, Any]:
    """The reproducer of `found`, run as conform runs it under the rules (its entry cut
    by lay_alone.py): the reference passes it, the engine fails it (charged as `found`),
    the engine with its bug off passes it; lint takes it."""
    assert found.problems == [] and found.path is not None
    [fx] = yaml.safe_load(found.path.read_text(encoding="utf-8"))
    [loaded] = load_file(str(found.path), found.path.read_text(encoding="utf-8"))
    assert run(loaded, rules, ReferenceImplementation()).status == "pass"
    failed = run(loaded, rules, impl())
    assert failed.status == "fail" and tuple(failed.charged) == found.charged
    assert run(loaded, rules, NoLoneDouble()).status == "pass"
    assert lint(found.path.parent).errors == []
    return dict(fx)


def test_a_double_left_out_by_its_own_rule_is_no_finding(tmp_path: Path, rules: Ruleset) -> None:
    assert _found(tmp_path, rules, NoLoneDouble()) == []


def test_a_pass_where_a_tile_is_left_to_draw_is_still_found(
        tmp_path: Path, rules: Ruleset) -> None:
    """Its lone double the only play, the rules with that double held back draw (TURN-2);
    the reproducer lists the double, as the reference does, and conform cuts it."""
    [found] = _found(tmp_path, rules, PassesInstead())
    assert found.signature == "allows pass (TURN-2) instead of draw"
    assert found.charged == ("TURN-2",)
    fx = _honest(found, rules, PassesInstead)
    legal = fx["expect"][0]["legal"]
    assert any(double_play(a) for a in legal) and "draw" not in legal


def test_a_double_on_a_train_not_open_to_the_mover_is_still_found(
        tmp_path: Path, rules: Ruleset) -> None:
    found = _found(tmp_path, rules, DoubleOnClosedTrain())
    assert [g.signature for g in found] == ["allows play (TRAIN-4)"]
    assert found[0].charged == ("TRAIN-4",)
    _honest(found[0], rules, DoubleOnClosedTrain)


def test_a_play_missing_beside_a_double_left_out_is_still_found(
        tmp_path: Path, rules: Ruleset) -> None:
    """Found in every kind of step it shows in (a first turn: FIRST-8; a double's
    follow-up: DBL-6), each reproduced; a lone double left out beside it is no finding."""
    found = {g.signature: g for g in _found(tmp_path, rules, MexicanClosed())}
    assert {s: g.problems for s, g in found.items() if g.problems} == {}
    shut = found["forbids play (TRAIN-4)"]
    assert shut.charged == ("TRAIN-4",)
    _honest(shut, rules, MexicanClosed)


class CrashOnSwap(NoLoneDouble):
    """NoLoneDouble, which crashes when asked about a hand holding [5-1] (the tile
    double_plays.py swaps in for [5-5] below, asking whether the Mexican Train is open)."""

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        if "5-1" in state["hands"][state["seat"]]:
            raise ImplementationCrashed("the implementation exited (code 3)")
        return super().legal(ruleset, state)


LONE = {"engine": 6, "seat": 0, "starter": 0, "hands": {0: ["5-5", "3-2"], 1: ["rest"]},
        "trains": {0: ["6-4"], 1: ["6-3"], "mexican": ["6-5"]}, "boneyard": ["5-1"],
        "first_turns": []}
"""Worked by hand: the open ends are 4 (seat 0's own), 3 (seat 1's, no marker: closed to
seat 0, TRAIN-4) and 5 (the Mexican Train); [5-5] fits the Mexican Train, [3-2] only seat
1's train: the one play is [5-5] on the Mexican Train, the hand's only 5 (a lone double)."""


def test_a_crash_on_the_trains_probe_is_a_finding_of_its_own(rules: Ruleset) -> None:
    """The probe's crash is reported as the crash it is, not taken for an answer about the
    train (probing.asked); an engine that answers it has its lone double set aside."""
    ctx = declared_context(rules)
    state = table_state(LONE, ctx.rs)
    st = codec.state_from_json(ctx.rules, state)
    legal = legal_actions(st)
    assert [action_text(codec.action_to_json(st, a)) for a in legal] == [
        "play 5-5 on mexican"]
    crash = CrashOnSwap()
    cut = legal_cut(ctx, st, legal, crash.legal(ctx.rj, state), crash, state)
    assert cut is not None and isinstance(cut.error, ImplementationCrashed)
    assert [d.signature for d in cut.found] == ["crash on legal"]
    assert "asked again with [5-5] swapped for [5-1]" in cut.found[0].messages[0]
    fine = NoLoneDouble()
    assert fine.legal(ctx.rj, state) == [{"type": "draw"}]
    cut = legal_cut(ctx, st, legal, fine.legal(ctx.rj, state), fine, state)
    assert cut is not None and cut.found == [] and cut.error is None
