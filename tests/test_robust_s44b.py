"""Engines that break the protocol quietly, or misbehave only late (robust-s44b).

identify against an engine listing one action twice in every legal answer found pagat
"sure" and never said its every legal answer broke the protocol (conform charged each as
an error); against legal lists 20,000 times too long it ran 102 CPU s and 890 MB before it
was stopped. Engines wrong only in round 2, only under one tile set, or only in their
winners: fuzz finds each, and its reproducers fail under conform."""

from __future__ import annotations

import itertools
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from mtrain.cli import main
from mtrain.conformance.adapter import JSON, ReferenceImplementation
from mtrain.conformance.fixture import FIXTURE_ROOT, Fixture, load_corpus
from mtrain.conformance.identify import EngineFailed, Watched, identify
from mtrain.conformance.process import ProcessImplementation, ProtocolViolation
from mtrain.conformance.protocol import MAX_ACTIONS, ProtocolError, check_result
from mtrain.spec.catalog import catalog
from mtrain.spec.yamlschema import schema

BROKEN = Path(__file__).resolve().parent / "broken_impls"
CHAIN = FIXTURE_ROOT / "chain-doubles" / "chain.yaml"


def engine(name: str, *args: str) -> str:
    return shlex.join([sys.executable, str(BROKEN / name), *args])


def chain_fixtures() -> list[Fixture]:
    found, errors = load_corpus(CHAIN.parent)
    assert found and not errors
    return found


class Listing(ReferenceImplementation):
    """The reference, its legal answers and winners spoilt by `spoil`."""

    def __init__(self, spoil: Any) -> None:
        super().__init__()
        self.spoil = spoil

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        out: list[JSON] = self.spoil(super().legal(ruleset, state))
        return out

    def winners(self, ruleset: JSON, state: JSON) -> list[int]:
        out: list[int] = self.spoil(super().winners(ruleset, state))
        return out


def _a_state(turn: int = 0) -> tuple[JSON, JSON]:
    """pagat's deal for two, the order of the tiles turned by `turn`."""
    ref = ReferenceImplementation()
    rj = {"name": "pagat", "options": dict(catalog().ruleset("pagat").choices)}
    order = [f"{a}-{b}" for a in range(12, -1, -1) for b in range(a, -1, -1)]  # 12-12 first
    return rj, ref.deal(rj, 2, 1, order[turn:] + order[:turn])


# --- 1: a legal list naming an action twice -------------------------------------------------


def test_watched_reads_a_list_naming_an_item_twice_once_and_counts_the_breach() -> None:
    rj, state = _a_state()
    right = ReferenceImplementation().legal(rj, state)
    watched = Watched(Listing(lambda xs: xs + xs[:1]))
    for _ in range(3):
        assert watched.legal(rj, state) == right  # the same actions, each once
    assert watched.failed == [] and len(watched.breaches) == 1
    [said] = watched.broke()
    assert said.startswith("3 answers broke protocol.schema.json#/$defs/legal_answer (the "
                           "first: legal: {\"type\": "), said
    assert "is listed twice (each once)); read with each item once" in said, said


def test_watched_takes_a_list_with_an_item_that_is_no_action_for_a_failed_request() -> None:
    # an action the schema has not (a tile of pips past 18) says nothing one can read: no
    # evidence, a failure counted towards identify's limit
    rj, state = _a_state()
    watched = Watched(Listing(lambda xs: [*xs, {"type": "play", "tile": "30-1", "train": 0}]))
    # (told by the play's field since session 46: answers._meant)
    with pytest.raises(ProtocolViolation, match=r"a legal answer breaks the protocol's "
                       r"schema at actions/\d+/tile \[action.schema.json#/oneOf/0/"
                       r"properties/tile/pattern\]: "):
        watched.legal(rj, state)
    assert len(watched.failed) == 1 and watched.counts["error"] == 1 and not watched.breaches


@pytest.mark.slow  # identify, on three fixtures: 2 CPU s
def test_identify_says_the_answers_broke_the_protocol_in_its_report_and_file(
        tmp_path: Path) -> None:
    # before: pagat "sure", not a word of the 1,100 legal answers that each broke the schema
    with ProcessImplementation(engine("repeated_actions.py", "2"), timeout=30) as impl:
        found = identify(Watched(impl), chain_fixtures()[:3])
    assert len(found.broke) == 1, found.broke
    assert found.broke[0].split(" answers broke ")[1].startswith(
        "protocol.schema.json#/$defs/legal_answer (the first: legal: "), found.broke
    assert int(found.broke[0].split(" ")[0]) > 10, found.broke
    header = yaml.safe_load(found.file_text(catalog()))["description"]
    assert f"The engine's answers broke the protocol: {found.broke[0]}." in header, header
    # still evidence: the same actions, each once, as the reference lists them
    assert found.ruleset.name == "pagat" and not found.unexplained


# --- 2: a legal list longer than any table's ---------------------------------------------


def test_the_bound_on_a_legal_list_is_the_largest_tables() -> None:
    # each tile of the largest set (its pips bounded by the action schema's pattern) on
    # each train (the seats the protocol has, and the Mexican Train), draw, pass, end-chain
    top = 18
    assert "1[0-8]" in schema("action")["oneOf"][0]["properties"]["tile"]["pattern"]
    seats = schema("protocol")["$defs"]["seat"]["maximum"] + 1
    assert (top + 1) * (top + 2) // 2 * (seats + 1) + 3 == MAX_ACTIONS
    check_result("legal", [{"type": "draw"}] * MAX_ACTIONS)  # (duplicates: the schema's)
    with pytest.raises(ProtocolError, match=f"lists {MAX_ACTIONS + 1:,} actions; no table "
                       f"has more than {MAX_ACTIONS:,}"):
        check_result("legal", [{"type": "draw"}] * (MAX_ACTIONS + 1))


def test_conform_and_identify_refuse_a_legal_list_past_the_bound(
        capsys: pytest.CaptureFixture[str]) -> None:
    # every legal answer listed 5,000 times over: before, identify read each (102 CPU s and
    # 890 MB at 20,000 times); now each is a broken answer, and identify stops at the fifth
    long = engine("repeated_actions.py", "5000")
    assert main(["conform", "--impl", long, "--variant", "pagat", "--fixtures", str(CHAIN),
                 "-k", "chaindbl-001"]) == 1
    out = capsys.readouterr().out
    assert "actions; no table has more than 3,993" in out, out
    with ProcessImplementation(long, timeout=30) as impl, \
            pytest.raises(EngineFailed, match=r"5 requests to the implementation failed.*"
                          r"legal.actions lists [0-9,]+ actions; no table has more than 3,993"):
        identify(Watched(impl), chain_fixtures())


# --- 3: wrong only late ---------------------------------------------------------------------


@pytest.mark.parametrize("fault, variant, said", [
    ("round-2", "pagat", "), round 2, step "),  # the first finding: the only round wrong
    ("tile-set", "puremco-d9", "legal actions missing: play "),
    ("winners", "pagat", "winners: reference [")])
def test_fuzz_finds_an_engine_wrong_only_late_and_its_reproducer_fails(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, fault: str, variant: str,
        said: str) -> None:
    # fuzz starts games at later rounds and plays on into the next; its reproducer keeps
    # the round, the set and the request the finding showed at
    impl = engine("late_fault.py", fault)
    assert main(["fuzz", "--impl", impl, "--variant", variant, "--players", "2", "--games",
                 "4", "--max-findings", "1", "--out", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert said in out, out
    reproducers = sorted(tmp_path.glob("*.yaml"))  # the game of the first is played out
    assert reproducers
    assert main(["conform", "--impl", impl, "--fixtures", str(reproducers[0])]) == 1


def test_the_answers_kept_as_passed_are_bounded_in_bytes(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    # 8,192 answer texts of up to 4 MB each were kept: 890 MB under legal lists thousands
    # of times too long; now a sum of bytes past KEPT_BYTES starts the memo afresh
    from mtrain.conformance import process

    monkeypatch.setattr(process, "KEPT_BYTES", 50_000)
    rj, state = _a_state()
    ref = ReferenceImplementation()
    with ProcessImplementation(engine("repeated_actions.py", "40")) as impl:
        kept = []
        for _ in range(12):  # a game's first steps: a legal answer of its own at each
            actions = impl.legal(rj, state)
            kept.append(sum(map(len, impl._passed)))
            state = ref.apply(rj, state, actions[0])
    assert max(kept) <= 50_000 and any(b < a for a, b in itertools.pairwise(kept)), kept
