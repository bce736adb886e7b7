"""`mtrain serve` knows the states of its last answers by their text (serve.Repeats, and
MemoReference by the value Repeats hands back): a harness that writes the next tasks'
first requests ahead asks about a step's state behind other tasks' requests, so the
last state alone is not enough. What it keeps is bounded; what it forgot, or a line
that only looks like one it knows, is answered as a server that has seen nothing
answers it."""

from __future__ import annotations

import random
from typing import Any

import pytest

from mtrain.conformance.adapter import ruleset_json
from mtrain.conformance.protocol import encode_request, encode_value
from mtrain.conformance.serve import Repeats, Server
from mtrain.reference import codec
from mtrain.reference.deal import deal
from mtrain.reference.engine import legal_actions, perform
from mtrain.reference.rules import Rules
from mtrain.spec.catalog import catalog

RULESET = encode_value(ruleset_json(catalog().ruleset("pagat")))


def steps(count: int) -> list[tuple[Any, Any]]:
    """(a state, the action taken on it), `count` of them along games of pagat."""
    rules = Rules.of(catalog().ruleset("pagat"))
    out: list[tuple[Any, Any]] = []
    seed = 0
    while len(out) < count:
        seed += 1
        state, rng = deal(rules, 3, 1, seed=seed), random.Random(seed)
        while len(out) < count and (legal := legal_actions(state)):
            action = legal[rng.randrange(len(legal))]
            out.append((codec.state_to_json(state), codec.action_to_json(state, action)))
            perform(state, action)
    return out


def written(server: Server, count: int) -> list[bytes]:
    """The texts of the states `server` writes answering `count` apply requests, each
    as its answer line carries it (and as a harness writes it back)."""
    texts = []
    for rid, (state, action) in enumerate(steps(count), 1):
        line = encode_request(rid, "apply", {"ruleset": RULESET, "state": encode_value(state),
                                             "action": encode_value(action)})
        answer = server.respond(line)[0]
        head = b'{"id":%d,"ok":true,"state":' % rid
        assert answer.startswith(head), answer[:200]
        texts.append(answer[len(head):-2])  # less the closing brace and the newline
    return texts


def legal(rid: int, text: bytes) -> bytes:
    return encode_request(rid, "legal", {"ruleset": RULESET, "state": text})


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many states the engine's codec read from JSON (counted as they come)."""
    count = [0]
    real = codec.state_from_json

    def counted(rules: Any, data: Any) -> Any:
        count[0] += 1
        return real(rules, data)

    monkeypatch.setattr(codec, "state_from_json", counted)
    return count


def test_a_state_written_before_others_is_known_by_its_text(reads: list[int]) -> None:
    server = Server()
    texts = written(server, 6)
    before = reads[0]
    # the first answer's state, asked about behind five others, then the third's
    for rid, text in ((100, texts[0]), (101, texts[2])):
        line = legal(rid, text)
        assert server.respond(line) == Server().respond(line)
    # (the fresh servers read each state once; the kept one read neither)
    assert reads[0] - before == 2


def test_the_last_states_are_kept_and_no_more(reads: list[int]) -> None:
    server = Server()
    texts = written(server, Repeats.SIZE + 2)
    assert len(server.repeats.states) == Repeats.SIZE  # bounded
    kept, forgotten = texts[2], texts[1]  # SIZE answers back, and one more
    before = reads[0]
    line = legal(200, kept)
    assert server.respond(line)[0] == Server().respond(line)[0]
    assert reads[0] - before == 1  # the fresh server's reading alone
    before = reads[0]
    line = legal(201, forgotten)
    assert server.respond(line)[0] == Server().respond(line)[0]  # read again, alike
    assert reads[0] - before == 2


@pytest.mark.parametrize("shape", [
    b'{"id":9,"type":"score","ruleset":<R>,"state":<S>,"winner":null}',
    b'{"id":9,"type":"winners","ruleset":<R>,"state":<S>}',
    b'{"id":9,"type":"legal","ruleset":<R>,"state":<S>5}',  # no JSON after the state
    b'{"id":9,"type":"legal","ruleset":<R>,"state":<S>,"state":<S>}',  # the key given twice
    b'{"id":9,"type":"apply","ruleset":<R>,"state":{"round":1},"action":{"state":<S>}}',
    b'{"id":9,"type":"legal","ruleset":<R>,"x":{"state":<S>},"state":{"round":1}}',
    b'{"id":9,"type":"legal","ruleset":<R>,"state":[<S>]}',
])
def test_a_line_with_a_known_state_is_answered_as_by_a_fresh_server(shape: bytes) -> None:
    server = Server()
    texts = written(server, 3)
    line = shape.replace(b"<R>", RULESET).replace(b"<S>", texts[-1])  # the last, as before
    assert server.respond(line) == Server().respond(line)
