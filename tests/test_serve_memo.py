"""`mtrain serve` keeps the states the harness sends, read and checked, for every rule set
whose flags read them alike (serve.MemoReference over adapter.DecodedStates): the answers
must be those of a server that has seen nothing, request by request, under rule sets that
play a table differently, and a state one rule set cannot hold is refused under it even
after another read it."""

from __future__ import annotations

import random
from typing import Any

import pytest

from mtrain.conformance.adapter import ruleset_json
from mtrain.conformance.protocol import decode, encode_request, encode_value
from mtrain.conformance.serve import Server, state_text
from mtrain.reference import codec
from mtrain.reference.deal import deal
from mtrain.reference.engine import legal_actions, perform
from mtrain.reference.rules import Rules
from mtrain.spec.catalog import catalog

NAMES = ["pagat", "puremco", "puremco-d9"] + [f"pagat+{o}" for o in (
    "own-train-first", "any-double-first", "chain-anywhere-start", "draw-until-playable",
    "marker-anyone", "no-double-end-start", "passes-end-round", "positive-scoring",
    "release-uncoverable", "single-tile-start")]


def game(name: str = "pagat", seed: int = 5) -> list[dict[str, Any]]:
    state = deal(Rules.of(catalog().ruleset(name)), 3, 1, seed=seed)
    rng = random.Random(seed)
    out = []
    while True:
        out.append(codec.state_to_json(state))
        legal = legal_actions(state)
        if not legal:
            return out
        perform(state, legal[rng.randrange(len(legal))])


def lines(state: dict[str, Any], rj: dict[str, Any]) -> list[bytes]:
    """The requests a harness sends about one state, written as it writes them."""
    common = {"ruleset": encode_value(rj), "state": encode_value(state)}
    asked: list[dict[str, Any]] = [{"type": "draw"}, {"type": "pass"}, {"type": "end-chain"}]
    for tile in state["hands"][state["seat"]][:3]:
        asked += [{"type": "play", "tile": tile, "train": t} for t in ("mexican", 0, 1)]
    out = [encode_request(1, "legal", common), encode_request(2, "winners", common),
           encode_request(3, "score", {**common, "winner": encode_value(None)})]
    out += [encode_request(4 + i, "apply", {**common, "action": encode_value(a)})
            for i, a in enumerate(asked)]
    return out


def answer(server: Server, line: bytes) -> Any:
    got, _ = server.handle(line)
    return decode(server.encode(got))


def test_kept_states_answer_as_a_server_that_has_seen_nothing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    reads = [0]
    real = codec.state_from_json

    def counted(rules: Any, data: Any) -> Any:
        reads[0] += 1
        return real(rules, data)

    monkeypatch.setattr(codec, "state_from_json", counted)
    kept = Server()
    states = game()[:20]
    differed = refused = 0
    fresh_reads = 0
    for state in states:
        seen = []
        for name in NAMES:
            rj = ruleset_json(catalog().ruleset(name))
            answers = []
            for line in lines(state, rj):
                before = reads[0]
                want = answer(Server(), line)
                fresh_reads += reads[0] - before
                got = answer(kept, line)
                assert got == want, (name, line[:200])
                answers.append(want)
            refused += any(not a["ok"] for a in answers)
            seen.append(answers)
        differed += any(a != seen[0] for a in seen)
    assert differed and refused  # the rule sets answered differently, some refused
    assert reads[0] - fresh_reads < fresh_reads / 4  # the kept server read far fewer


def test_a_state_read_under_one_rule_set_is_refused_where_another_cannot_hold_it() -> None:
    server = Server()
    state = game()[0]  # double-12 tiles: puremco-d9's set has none beyond 9-9
    asked = lines(state, ruleset_json(catalog().ruleset("pagat")))[0]
    assert answer(server, asked)["ok"]
    d9 = lines(state, ruleset_json(catalog().ruleset("puremco-d9")))[0]
    got = answer(server, d9)
    assert got == answer(Server(), d9) and not got["ok"]
    assert got["error"]["kind"] == "bad-request"


def test_a_state_is_known_by_its_text_only_where_the_line_shows_it_plainly() -> None:
    plain = b'{"id":1,"type":"legal","ruleset":{"name":"x"},"state":{"round":1}}'
    assert state_text(plain) == b'{"round":1}}'
    # a second "state": key (nested, say in an action) or any escape: fingerprinted
    assert state_text(b'{"id":1,"state":{"a":1},"action":{"state":2}}') is None
    assert state_text(b'{"id":1,"st\\u0061te":{"a":1},"action":{"state":2}}') is None
    assert state_text(b'{"id":1,"type":"deal"}') is None

