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


@pytest.mark.slow  # ~0.7 CPU s; kept lines answered alike: the text test below
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



def test_lines_answered_from_their_text_are_those_of_a_server_that_has_seen_nothing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """serve.KnownLines: a `legal` or `apply` asked again, under this rule set or another,
    is answered without decoding the line; the answer lines must be byte for byte those
    of a fresh server, refusals and errors included, and most must come from the memo."""
    kept = Server()
    handled = [0]
    real = Server.handle

    def counted(self: Server, line: Any, *rest: Any) -> Any:
        if self is kept:
            handled[0] += 1
        return real(self, line, *rest)

    monkeypatch.setattr(Server, "handle", counted)
    asked = 0
    for state in game(seed=7)[:12]:
        for name in [*NAMES, *NAMES]:  # every question twice under each rule set
            rj = ruleset_json(catalog().ruleset(name))
            for rid, line in enumerate(lines(state, rj), 100 + asked):
                line = line.replace(line[:line.index(b",")], b'{"id":%d' % rid, 1)
                assert kept.respond(line) == Server().respond(line), (name, line[:200])
                asked += 1
    # an answer is found from its text once its question came back: one line in seven
    assert handled[0] < asked / 2


def test_a_line_is_answered_from_its_text_only_where_it_reads_as_the_one_kept() -> None:
    server = Server()
    state = game()[3]
    rj = ruleset_json(catalog().ruleset("pagat"))
    legal = lines(state, rj)[0]
    for _ in range(3):
        server.respond(legal)
    assert server.known is not None and server.known.look(legal)[0] is not None
    # the same rest after a rule set never met, or after something that is no rule set
    other = legal.replace(b'"name":"pagat"', b'"name":"pagat2"')
    assert server.known.look(other)[0] is None
    broken = legal.replace(b'"ruleset":{', b'"ruleset":{"x":1},"y":{', 1)
    assert server.known.look(broken)[0] is None
    assert server.respond(broken) == Server().respond(broken)
    # an id JSON does not write so (a leading zero) or a line with spaces: decoded
    for odd in (legal.replace(b'{"id":1,', b'{"id":01,'), legal.replace(b'"id":1', b'"id": 1')):
        assert server.known.look(odd)[0] is None
        assert server.respond(odd) == Server().respond(odd)
