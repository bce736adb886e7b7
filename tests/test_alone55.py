"""A blocked round of one's own decides whether the round is over, not what the steps did
(conformance/blocked_alone.py, blocked_end_entry): brakeman's bug 2 (tests/examples/rust/
brakeman.rs: a pass on an empty boneyard raises no marker, MARK-1) went unseen under a
file with `blocked_round: other`, every pass on an empty boneyard set aside whole. Played
here by a few lines over the reference: a blocked rule of its own that ends the round at
the first pass on an empty boneyard, and the same with that bug beside it. And the
probes that took a crash for "says nothing" (double_alone.laid_again, follow_probe.refuses):
a crash there is reported as what it is (conformance/probing.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_fuzz_s51 import FLAT_MEXICAN, MEXICAN_DOUBLE, EscapesMexican
from test_house53b import HandItOn, _run

from mtrain.conformance.adapter import JSON, ReferenceImplementation, Refused, ruleset_json
from mtrain.conformance.double_alone import unheld_double
from mtrain.conformance.fixture import FIXTURE_ROOT, Fixture, load_file
from mtrain.conformance.partition import stand_in
from mtrain.conformance.process import ImplementationCrashed
from mtrain.conformance.runner import Outcome, run_one
from mtrain.conformance.selection import entry_for
from mtrain.conformance.step_alone import own_step_refused
from mtrain.reference import codec, engine
from mtrain.reference.state import BLOCKED
from mtrain.spec.catalog import catalog
from mtrain.spec.ruleset import Ruleset
from mtrain.spec.scope import Space

OWN_BLOCKED = """
name: dry-pass
base: puremco
options:
  blocked_round: other
"""
"""puremco but for the round's end on an empty boneyard, played its own way."""

PASSES = ("marker-003", "turn-020", "turn-021")
"""The corpus's passes on an empty boneyard, the round going on (by hand, in their notes):
markers/placement.yaml, turns/passing.yaml."""


class DryPass(ReferenceImplementation):
    """A blocked rule of its own: the first pass made on an empty boneyard ends the round
    blocked (where neither END-2 nor END-3 would), scored as the rules score one."""

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        after = self.passed(ruleset, state, action, super().apply(ruleset, state, action))
        if action.get("type") == "pass" and not state["boneyard"] and after["result"] is None:
            st = self.state(ruleset, after).copy()
            engine._finish(st, BLOCKED, -1)  # its own END: blocked at once
            after = codec.state_to_json(st)
        return after

    def passed(self, ruleset: JSON, state: JSON, action: JSON, after: JSON) -> JSON:
        return after


class QuietPass(DryPass):
    """brakeman's bug 2 beside it: a pass on an empty boneyard raises no marker (MARK-1)."""

    def passed(self, ruleset: JSON, state: JSON, action: JSON, after: JSON) -> JSON:
        if action.get("type") == "pass" and not state["boneyard"]:
            seat = state["seat"]
            trains = [dict(t, marker=False) if k == seat else t
                      for k, t in enumerate(after["trains"])]
            after = {**after, "trains": trains}
        return after


class QuietGoingOn(QuietPass, ReferenceImplementation):
    """The bug under the known end (the round goes on as the entry's does)."""

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        return self.passed(ruleset, state, action,
                           ReferenceImplementation.apply(self, ruleset, state, action))


@pytest.fixture(scope="module")
def own_blocked(tmp_path_factory: pytest.TempPathFactory) -> Ruleset:
    path = tmp_path_factory.mktemp("alone55") / "dry-pass.yaml"
    path.write_text(OWN_BLOCKED, encoding="utf-8")
    rs = catalog().rules_file(str(path))
    assert rs.unknown == ("blocked_round",)
    return rs


@pytest.fixture(scope="module")
def passes() -> dict[str, Fixture]:
    files = ("markers/placement.yaml", "turns/passing.yaml")
    return {fx.id: fx for f in files for fx in load_file(FIXTURE_ROOT / f) if fx.id in PASSES}


def run(fx: Fixture, rs: Ruleset, impl: ReferenceImplementation) -> Outcome:
    """`fx` run as conform runs it under `rs`: its entry for `rs`, under the stand-in; a
    refused step its own rule may have made no move not applicable (as pool.py says)."""
    space = Space()
    exp, why = entry_for(fx, rs, space)
    assert exp is not None, why
    out = run_one(fx, stand_in(rs, exp, space), exp, impl, own=rs.unknown)
    moved = own_step_refused(out, exp)
    if moved is not None:
        out.status, out.messages, out.charged = "not-applicable", moved, []
    return out


def test_a_pass_on_an_empty_boneyard_is_judged_under_a_blocked_rule_of_ones_own(
        own_blocked: Ruleset, passes: dict[str, Fixture]) -> None:
    """Each entry reads the blocked rule (the boneyard is empty at the pass): once set aside
    whole, now run. The reference and the engine whose own rule ends the round there pass
    (its legal set, seat and phase are its rule's once the round is over); the bug fails,
    charged to the marker's clause, whichever way its round ends."""
    assert set(passes) == set(PASSES)
    for fid, fx in passes.items():
        assert run(fx, own_blocked, ReferenceImplementation()).status == "pass", fid
        out = run(fx, own_blocked, DryPass())
        if fid == "turn-021":  # its second pass is no move once the first ended the round
            assert out.status == "not-applicable", (fid, out.messages)
        else:
            assert out.status == "pass", (fid, out.messages)
        for impl in (QuietPass(), QuietGoingOn()):
            out = run(fx, own_blocked, impl)
            if fid == "turn-021" and isinstance(impl, QuietPass) and not isinstance(
                    impl, QuietGoingOn):
                continue  # (as above: its round is over before the step that shows it)
            assert out.status == "fail", (fid, type(impl).__name__, out.messages)
            assert set(out.charged) <= {"MARK-1", "TURN-4"}, (fid, out.charged)
            assert any("marked" in m for m in out.messages), out.messages


def test_where_the_end_agrees_the_table_is_judged_as_written(
        own_blocked: Ruleset, passes: dict[str, Fixture]) -> None:
    """The round going on as the entry's does, its legal set is the rules' (TRAIN-4): an
    engine that offers nothing there fails; one that ends the round does not."""

    class Shut(QuietGoingOn):
        def passed(self, ruleset: JSON, state: JSON, action: JSON, after: JSON) -> JSON:
            return after

        def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
            return [{"type": "pass"}] if state["result"] is None else []

    out = run(passes["marker-003"], own_blocked, Shut())
    assert out.status == "fail" and "legal actions missing: play 4-2 on 0" in out.messages, (
        out.messages)


class NoPassAfterPass(ReferenceImplementation):
    """A bug, its round going on: a pass on an empty boneyard right after another is
    refused (TURN-4 allows it)."""

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        if action.get("type") == "pass" and not state["boneyard"] and state["passes"]:
            raise Refused("one pass at a time")
        return super().apply(ruleset, state, action)


def test_a_step_refused_while_its_round_goes_on_is_judged(
        own_blocked: Ruleset, passes: dict[str, Fixture]) -> None:
    """A step taken at a turn's start on an empty boneyard is its blocked rule's to refuse
    only where its round is over there (DryPass, above: not applicable); refused while its
    own state says the round goes on, it is a bug, and fails."""
    out = run(passes["turn-021"], own_blocked, NoPassAfterPass())
    assert out.status == "fail" and out.step == 2, (out.status, out.messages)


OWN_BLOCKED_CHAIN = "name: dry-chain\nbase: pagat\noptions:\n  blocked_round: other\n"
"""pagat (a first-turn chain) but for the round's end on an empty boneyard."""


class DryTurnEnd(ReferenceImplementation):
    """A blocked rule of its own: a turn that ends on an empty boneyard ends the round; and
    a bug: that turn's player is left on a first turn (FIRST-6: one first turn each)."""

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        after = super().apply(ruleset, state, action)
        if after["seat"] != state["seat"] and not after["boneyard"] and after["result"] is None:
            st = self.state(ruleset, after).copy()
            st.first_pending |= 1 << state["seat"]  # the bug
            engine._finish(st, BLOCKED, -1)  # its own END
            after = codec.state_to_json(st)
        return after


def test_a_departure_after_its_own_end_is_charged_to_its_own_clause(tmp_path: Path) -> None:
    """end-025 (a chain ended on an empty boneyard, the round going on): its own rule ends
    the round there, its first turns are wrong. The round's end is its rule's, so the
    first departure the charge follows is the first turns' (FIRST-6), not the phase."""
    rules = tmp_path / "dry-chain.yaml"
    rules.write_text(OWN_BLOCKED_CHAIN, encoding="utf-8")
    rs = catalog().rules_file(str(rules))
    [fx] = [f for f in load_file(FIXTURE_ROOT / "round-end" / "end2-first-turns.yaml")
            if f.id == "end-025"]
    out = run(fx, rs, DryTurnEnd())
    assert out.status == "fail" and out.charged == ["FIRST-6"], (out.messages, out.charged)
    assert "first_turns" in out.messages[0], out.messages


# --- a probe's crash or broken answer is what it is (conformance/probing.py) -------------


class CrashOnLaidAgain(EscapesMexican):
    """test_fuzz_s51's EscapesMexican (a Mexican double's duty ignored, DBL-6), which
    crashes when asked to lay [8-8] on the Mexican Train again (double_alone's probe)."""

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        if action.get("tile") == "8-8":
            raise ImplementationCrashed("the implementation exited (code 3)")
        return super().apply(ruleset, state, action)


def test_a_crash_on_the_laid_again_probe_is_reported_as_it_is(tmp_path: Path) -> None:
    """laid_again took a crash for "says nothing": the duty's failure stood as a rule
    broken (DBL-6). The crash is now raised as what it is (the result's status), its
    message naming the probe."""
    (tmp_path / "duty.yaml").write_text(MEXICAN_DOUBLE, encoding="utf-8")
    (tmp_path / "rules.yaml").write_text(FLAT_MEXICAN, encoding="utf-8")
    [fx] = load_file(tmp_path / "duty.yaml")
    rs = catalog().rules_file(str(tmp_path / "rules.yaml"))
    impl = CrashOnLaidAgain()
    out = run(fx, rs, impl)
    assert out.status == "fail" and out.charged == ["DBL-6"], (out.messages, out.charged)
    with pytest.raises(ImplementationCrashed, match=r"asked again with \[8-8\] laid on "
                       r"train mexican"):
        unheld_double(out, rs, impl, ruleset_json(stand_in(rs, fx.expect[0], Space())))


class CrashOnCover(HandItOn):
    """test_house53b's HandItOn (the layer of a double never covers it: a follow-up of
    its own), which crashes when asked the same cover a second time (follow_probe's
    probe asks it again on the table the run reached)."""

    def __init__(self) -> None:
        super().__init__()
        self.asked = 0

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        if state.get("phase") == "follow" and action.get("tile") == "4-1":
            self.asked += 1
            if self.asked > 1:
                raise ImplementationCrashed("the implementation exited (code 3)")
        return super().apply(ruleset, state, action)


def test_a_crash_on_the_cover_probe_is_reported_as_it_is(tmp_path: Path) -> None:
    """follow_probe.refuses took a crash for "plays it": the refused follow-up stood as a
    rule broken (DBL-2). Now the result is the crash, its message naming the probe."""
    [result] = _run(tmp_path, CrashOnCover())
    assert result.status == "crash", (result.status, result.messages)
    assert "asked whether it covers the double just laid with [4-1]" in result.messages[0]
