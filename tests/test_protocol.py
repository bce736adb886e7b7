"""Protocol v1: message checks, the reference server (`mtrain serve`), the process client,
the JSON Schema of every message, and the example exchange in docs/protocol.md."""

from __future__ import annotations

import io
import json
import os
import re
import shlex
import shutil
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from referencing import Registry, Resource

from mtrain.conformance.adapter import Refused, ruleset_json
from mtrain.conformance.child import describe_exit
from mtrain.conformance.process import ProcessImplementation
from mtrain.conformance.protocol import (
    MAX_LINE,
    ErrorAnswer,
    ProtocolError,
    check_answer,
    check_request,
    decode,
    encode,
)
from mtrain.conformance.serve import Server, serve
from mtrain.conformance.stderr_ring import STDERR_BYTES, StderrRing, tail_of
from mtrain.spec.catalog import catalog
from mtrain.spec.notation import table_state

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "spec" / "schemas"
DOC = ROOT / "docs" / "protocol.md"
MTRAIN = shutil.which("mtrain") or str(Path(sys.executable).with_name("mtrain"))

RS = catalog().ruleset("puremco-d9")
RJ = ruleset_json(RS)
# The last round of a puremco-d9 match: seat 0 holds only [4-0] (the docs' example).
STATE = table_state({"engine": 0, "hands": {0: ["0-4"], 1: ["3-3", "2-1"]},
                     "trains": {1: ["0-5"]}, "scores": [30, 12], "outs": [4, 5]}, RS)
PLAY_OUT = {"type": "play", "tile": "4-0", "train": 0}


def handle(server: Server, message: Any) -> dict[str, Any]:
    line = message if isinstance(message, str) else json.dumps(message)
    answer, _ = server.handle(line)
    return answer


@pytest.fixture(scope="module")
def server() -> Server:
    return Server()


@pytest.fixture(scope="module")
def validator() -> jsonschema.Draft202012Validator:
    resources = []
    for path in SCHEMAS.glob("*.schema.json"):
        data = json.loads(path.read_text(encoding="utf-8"))
        resources.append((data["$id"], Resource.from_contents(data)))
    registry: Registry[Any] = Registry().with_resources(resources)
    schema = json.loads((SCHEMAS / "protocol.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema, registry=registry)


# --- messages ------------------------------------------------------------------------


def test_encode_is_one_compact_line() -> None:
    line = encode({"id": 1, "type": "hello", "protocol": 1, "harness": "ü"})
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    assert decode(line) == {"id": 1, "type": "hello", "protocol": 1, "harness": "ü"}


@pytest.mark.parametrize("line, fault", [
    (b"hello\n", "not JSON"),
    (b"\xff\xfe{}\n", "not JSON"),
    (b"[1, 2]\n", "not a JSON object (a message is one), but an array: '[1, 2]'"),
    (b"null\n", "not a JSON object (a message is one), but null: 'null'"),
    (b"7\n", "not a JSON object (a message is one), but a number: '7'"),
    (b'{"id": NaN}\n', "not JSON (NaN is not a JSON number)"),
    (b'{"id": -Infinity}\n', "not JSON (-Infinity is not a JSON number)"),
    (b'{"id": 1e999}\n', "not JSON (1e999 is too large for a number)"),
    (b'{"id": 1,}\n', "not JSON ("),
])
def test_decode_refuses(line: bytes, fault: str) -> None:
    with pytest.raises(ProtocolError, match=re.escape(fault)):
        decode(line)


# Lines the fast reader (orjson) and json might read differently: an integer beyond 64 bits
# (orjson reads a float), a lone surrogate and a byte-order mark (orjson refuses them).
@pytest.mark.parametrize("line", [
    b'{"id": 123456789012345678901234567890, "n": -9223372036854775809}',
    b'{"id": 18446744073709551615, "s": "\\ud800", "t": "caf\xc3\xa9"}',
    b'{"a": [1.5, -0.0, 1e-7, 2.5e+300], "b": {"c": null, "d": [true, false]}}',
    '{"id": 1, "u": "\u00fc"}'.encode(),
])
def test_decode_reads_what_json_reads(line: bytes) -> None:
    got = decode(line)
    want = json.loads(line)
    assert got == want and json.dumps(got) == json.dumps(want)  # ints stay ints
    assert decode(encode(got)) == want


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20)


@pytest.mark.slow
@given(st.dictionaries(st.text(), JSON_VALUES, max_size=6))
@settings(max_examples=300, deadline=None)
def test_encode_writes_the_bytes_json_writes(message: dict[str, Any]) -> None:
    assert encode(message) == json.dumps(message, separators=(",", ":"),
                                         ensure_ascii=False).encode() + b"\n"
    assert decode(encode(message)) == message


def test_encode_leaves_to_json_what_orjson_does_not_write() -> None:
    class Name(str):
        pass

    message: dict[Any, Any] = {"id": 2**70, 3: "key not a string", "name": Name("x")}
    assert encode(message) == json.dumps(message, separators=(",", ":"),
                                         ensure_ascii=False).encode() + b"\n"
    assert decode(encode({"s": "\ud800"})) == {"s": "\ud800"}  # escaped, not a bad byte


@pytest.mark.parametrize("message, fault", [
    ({"type": "hello", "protocol": 1}, "request.id must be an integer"),
    ({"id": True, "type": "hello", "protocol": 1}, "request.id must be an integer"),
    ({"id": 1, "type": "play"}, "request.type must be one of"),
    ({"id": 1, "type": "hello"}, "needs 'protocol'"),
    ({"id": 1, "type": "legal", "ruleset": RJ}, "needs 'state'"),
    ({"id": 1, "type": "legal", "ruleset": {}, "state": {}}, "legal.ruleset must be a rule set"),
    ({"id": 1, "type": "deal", "ruleset": RJ, "players": 2, "round": 1, "order": [1]},
     "deal.order must be a list of strings"),
    ({"id": 1, "type": "shutdown", "now": True}, "no field 'now'"),
])
def test_check_request_names_the_fault(message: dict[str, Any], fault: str) -> None:
    with pytest.raises(ProtocolError, match=re.escape(fault)):
        check_request(message)


@pytest.mark.parametrize("kind, message, fault", [
    ("legal", {"id": 2, "ok": True, "actions": []}, "carries id 2"),
    ("legal", {"id": 1, "actions": []}, "answer.ok must be true or false"),
    ("legal", {"id": 1, "ok": True}, "needs 'actions'"),
    ("legal", {"id": 1, "ok": True, "actions": [{"tile": "5-5"}]}, "legal.actions[0]"),
    ("apply", {"id": 1, "ok": True}, "exactly one of 'state' and 'refused'"),
    ("apply", {"id": 1, "ok": True, "state": STATE, "refused": {"reason": "x"}},
     "exactly one of"),
    ("apply", {"id": 1, "ok": True, "refused": "no"}, "apply.refused must be"),
    ("apply", {"id": 1, "ok": True, "state": {"round": 1}}, "apply.state lacks engine"),
    ("deal", {"id": 1, "ok": True, "state": {**STATE, "hands": "none"}},
     "answer.state.hands must be a list"),
    ("score", {"id": 1, "ok": True, "scores": [1, "2"]}, "list of integers"),
    ("hello", {"id": 1, "ok": True, "protocol": 1, "name": "x", "version": "1"},
     "needs 'variants'"),
    ("winners", {"id": 1, "ok": False}, "needs error.message"),
])
def test_check_answer_names_the_fault(kind: str, message: dict[str, Any], fault: str) -> None:
    with pytest.raises(ProtocolError, match=re.escape(fault)):
        check_answer(kind, 1, message)


def test_error_answers_raise_with_their_kind() -> None:
    with pytest.raises(ErrorAnswer) as e:
        check_answer("legal", 4, {"id": 4, "ok": False,
                                  "error": {"kind": "unsupported", "message": "no d9"}})
    assert (e.value.kind, e.value.message) == ("unsupported", "no d9")


# --- the server ------------------------------------------------------------------------


def test_server_answers_every_request_type(server: Server) -> None:
    hello = handle(server, {"id": 1, "type": "hello", "protocol": 1})
    assert hello == {"id": 1, "ok": True, "protocol": 1, "name": "mtrain-reference",
                     "version": hello["version"], "variants": ["*"]}
    legal = handle(server, {"id": 2, "type": "legal", "ruleset": RJ, "state": STATE})
    assert legal["actions"] == [PLAY_OUT, {"type": "play", "tile": "4-0", "train": "mexican"}]
    refused = handle(server, {"id": 3, "type": "apply", "ruleset": RJ, "state": STATE,
                              "action": {"type": "play", "tile": "4-0", "train": 1}})
    assert refused["refused"]["clause"] == "TRAIN-2"
    end = handle(server, {"id": 4, "type": "apply", "ruleset": RJ, "state": STATE,
                          "action": PLAY_OUT})["state"]
    assert end["result"] == {"end": "domino", "winner": 0, "scores": [0, 9]}
    assert handle(server, {"id": 5, "type": "score", "ruleset": RJ, "state": end}) == {
        "id": 5, "ok": True, "scores": [0, 9]}
    blocked = handle(server, {"id": 6, "type": "score", "ruleset": RJ, "state": STATE,
                              "winner": None})
    assert blocked["scores"] == [4, 9]
    assert handle(server, {"id": 7, "type": "winners", "ruleset": RJ, "state": end})[
        "winners"] == [1]
    order = [f"{a}-{b}" for a in range(10) for b in range(a + 1) if (a, b) != (9, 9)]
    dealt = handle(server, {"id": 8, "type": "deal", "ruleset": RJ, "players": 2, "round": 1,
                            "order": order})["state"]
    assert [len(h) for h in dealt["hands"]] == [15, 15] and len(dealt["boneyard"]) == 24
    assert server.handle('{"id": 9, "type": "shutdown"}') == ({"id": 9, "ok": True}, True)


def test_a_single_round_game_refuses_round_two(server: Server) -> None:
    """MATCH-7: under a single round, a deal of round 2 and a table of round 10 are
    refused setups naming the clause; round 1's end names the winner at once."""
    rj = ruleset_json(catalog().ruleset("puremco-d9+single-round"))
    order = [f"{a}-{b}" for a in range(10) for b in range(a + 1) if (a, b) != (8, 8)]
    refused = handle(server, {"id": 1, "type": "deal", "ruleset": rj, "players": 2,
                              "round": 2, "order": order})
    assert refused["ok"] is False and refused["error"]["kind"] == "refused-setup"
    assert refused["error"]["clause"] == "MATCH-7"
    late = handle(server, {"id": 2, "type": "legal", "ruleset": rj, "state": STATE})
    assert late["error"]["kind"] == "refused-setup" and late["error"]["clause"] == "MATCH-7"
    first = table_state({"engine": 9, "hands": {0: ["9-4"], 1: ["3-3", "2-1"]}}, RS)
    end = handle(server, {"id": 3, "type": "apply", "ruleset": rj, "state": first,
                          "action": {"type": "play", "tile": "9-4", "train": 0}})["state"]
    assert handle(server, {"id": 4, "type": "winners", "ruleset": rj, "state": end})[
        "winners"] == [0]  # scores [0, 9]: the lowest wins (MATCH-2)


def test_the_draw_for_the_start_goes_with_the_deal(server: Server) -> None:
    """SEAT-5 over the protocol: seat 1 drew [2-2] (4) against [3-0] (3), so round 1
    starts at seat 1; a draw still tied is a refused setup naming the clause; under the
    rotating start the same tied draw is ignored and seat 0 starts."""
    rj = ruleset_json(catalog().ruleset("puremco-d9+highest-draw-start"))
    order = [f"{a}-{b}" for a in range(10) for b in range(a + 1) if (a, b) != (9, 9)]
    deal = {"type": "deal", "ruleset": rj, "players": 2, "round": 1, "order": order}
    dealt = handle(server, {"id": 1, **deal, "draw": [["3-0"], ["2-2"]]})["state"]
    assert (dealt["seat"], dealt["starter"]) == (1, 1)
    tied = handle(server, {"id": 2, **deal, "draw": [["3-0"], ["2-1"]]})
    assert tied["error"]["kind"] == "refused-setup" and tied["error"]["clause"] == "SEAT-5"
    missing = handle(server, {"id": 3, **deal})
    assert missing["error"]["clause"] == "SEAT-5"
    rotate = {**deal, "ruleset": ruleset_json(catalog().ruleset("puremco-d9"))}
    assert handle(server, {"id": 4, **rotate, "draw": [["3-0"], ["2-1"]]})["state"][
        "starter"] == 0
    with pytest.raises(ProtocolError, match=r"deal\.draw must be a list of lists of tiles"):
        check_request({"id": 5, **deal, "draw": ["3-0", "2-2"]})


def test_positive_scoring_gives_the_hands_to_the_winner(server: Server) -> None:
    rj = ruleset_json(catalog().ruleset("puremco-d9+positive-scoring"))
    end = handle(server, {"id": 1, "type": "apply", "ruleset": rj, "state": STATE,
                          "action": PLAY_OUT})["state"]
    assert handle(server, {"id": 2, "type": "score", "ruleset": rj, "state": end})[
        "scores"] == [9, 0]


@pytest.mark.parametrize("line, rid, kind, fault", [
    ("{nope", None, "bad-request", "not JSON"),
    ('{"type": "hello", "protocol": 1}', None, "bad-request", "request.id"),
    ('{"id": 3, "type": "dance"}', 3, "bad-request", "request.type"),
    ('{"id": 4, "type": "hello", "protocol": 2}', 4, "protocol-version", "not 2"),
    ('{"id": 5, "type": "legal", "ruleset": {"name": "x", "options": {"scoring": "golf"}}, '
     '"state": {}}', 5, "bad-request", "golf"),
    ('{"id": 6, "type": "legal", "ruleset": {"name": "x", "options": {}}, "state": {}}',
     6, "bad-request", "state.hands is missing"),
    ('{"id": 7, "type": "score", "ruleset": {"name": "x", "options": {}}, "state": STATE}',
     7, "bad-request", "not over"),
    ('{"id": 8, "type": "score", "ruleset": {"name": "x", "options": {}}, "state": STATE, '
     '"winner": 1}', 8, "bad-request", "still holds tiles"),
    ('{"id": 9, "type": "apply", "ruleset": {"name": "x", "options": {}}, "state": STATE, '
     '"action": {"type": "fly"}}', 9, "bad-request", "unknown action type"),
    ('{"id": 10, "type": "apply", "ruleset": {"name": "x", "options": {}}, "state": STATE, '
     '"action": {"type": "draw", "tile": "1-1"}}', 10, "bad-request", "no field 'tile'"),
    ('{"id": 11, "type": "apply", "ruleset": {"name": "x", "options": {}}, "state": STATE, '
     '"action": {"type": "play", "tile": "13-1", "train": 0}}', 11, None, "13-1"),
])
def test_server_answers_bad_requests_with_errors(server: Server, line: str, rid: int | None,
                                                 kind: str | None, fault: str) -> None:
    rj = json.dumps(RJ)
    line = line.replace('{"name": "x", "options": {}}', rj).replace("STATE", json.dumps(STATE))
    answer, stop = server.handle(line)
    assert not stop and answer["id"] == rid
    if kind is None:  # a tile or train the game does not have is refused (SET-1, TRAIN-1)
        assert fault in answer["refused"]["reason"] and answer["refused"]["clause"]
    else:
        assert answer["ok"] is False and answer["error"]["kind"] == kind
        assert fault in answer["error"]["message"]


def test_an_impossible_table_is_a_bad_request_naming_the_invariant(server: Server) -> None:
    # A follow-up due without a double laid this turn: INV-OPEN-DOUBLES, not a crash.
    broken = {**STATE, "phase": "follow"}
    answer = handle(server, {"id": 1, "type": "legal", "ruleset": RJ, "state": broken})
    assert answer["ok"] is False and answer["error"]["kind"] == "bad-request"
    assert "INV-OPEN-DOUBLES" in answer["error"]["message"]
    # A tile in two places: INV-CONSERVATION.
    twice = {**STATE, "hands": [["4-0"], ["3-3", "2-1", "4-0"]]}
    answer = handle(server, {"id": 2, "type": "legal", "ruleset": RJ, "state": twice})
    assert answer["ok"] is False and "INV-CONSERVATION" in answer["error"]["message"]
    assert handle(server, {"id": 3, "type": "legal", "ruleset": RJ, "state": STATE})["ok"]


def test_serve_loop_skips_blank_lines_caps_long_ones_and_stops_at_shutdown() -> None:
    lines = [b"\n", b"x" * (MAX_LINE + 10) + b"\n",
             encode({"id": 1, "type": "hello", "protocol": 1}),
             encode({"id": 2, "type": "shutdown"}),
             encode({"id": 3, "type": "hello", "protocol": 1})]
    out = io.BytesIO()
    assert serve(io.BytesIO(b"".join(lines)), out) == 0
    answers = [json.loads(x) for x in out.getvalue().splitlines()]
    assert [a["id"] for a in answers] == [None, 1, 2]
    assert "longer than" in answers[0]["error"]["message"]



class Trickle(io.BytesIO):
    """Input that arrives a few bytes at a time, as from a slow pipe."""

    def read1(self, size: int | None = -1, /) -> bytes:
        return super().read1(7)


def test_serve_loop_answers_the_same_whatever_the_reads() -> None:
    lines = [encode({"id": 1, "type": "hello", "protocol": 1}),
             encode({"id": 2, "type": "legal", "ruleset": RJ, "state": STATE}),
             b"\n", b"not json\n",
             encode({"id": 3, "type": "apply", "ruleset": RJ, "state": STATE,
                     "action": PLAY_OUT}),
             encode({"id": 4, "type": "winners", "ruleset": RJ, "state": STATE})[:-1]]
    whole, trickled = io.BytesIO(), io.BytesIO()
    assert serve(io.BytesIO(b"".join(lines)), whole) == 0
    assert serve(Trickle(b"".join(lines)), trickled) == 0
    assert trickled.getvalue() == whole.getvalue()
    answers = [json.loads(x) for x in whole.getvalue().splitlines()]
    assert [a["id"] for a in answers] == [1, 2, None, 3, 4]
    assert PLAY_OUT in answers[1]["actions"] and answers[3]["state"]["phase"] == "over"


def test_a_state_the_server_wrote_is_read_again_only_where_the_request_has_it() -> None:
    """A request carrying the text of the state last answered is answered from memory;
    the same text elsewhere in the request (under another key) is not taken for it."""
    server, fresh = Server(), Server
    apply = {"id": 1, "type": "apply", "ruleset": RJ, "state": STATE, "action": PLAY_OUT}
    end = json.loads(server.encode(server.handle(encode(apply))[0]))["state"]
    assert end["phase"] == "over"
    again = encode({"id": 2, "type": "winners", "ruleset": RJ, "state": end})
    assert server.handle(again)[0] == fresh().handle(again)[0] == {
        "id": 2, "ok": True, "winners": [1]}
    # the remembered text, nested in the rule set; the request's own state is another
    hidden = encode({"id": 3, "type": "legal", "ruleset": {**RJ, "note": {"state": end}},
                     "state": STATE})
    assert server.handle(hidden)[0] == fresh().handle(hidden)[0]
    # read whole, so that the field the protocol has not is found (robust-s42)
    assert "ruleset has no field 'note'" in server.handle(hidden)[0]["error"]["message"]
    # a state that is not the remembered one: read in full (here: refused as impossible)
    broken = encode({"id": 4, "type": "legal", "ruleset": RJ,
                     "state": {**end, "phase": "follow"}})
    assert server.handle(broken)[0]["ok"] is False

# --- the schema and the documented exchange ----------------------------------------------


def doc_exchange() -> list[tuple[str, str]]:
    text = DOC.read_text(encoding="utf-8")
    lines = [x for x in text.splitlines() if x.startswith(("> ", "< "))]
    assert len(lines) >= 20 and len(lines) % 2 == 0
    return [(lines[i][2:], lines[i + 1][2:]) for i in range(0, len(lines), 2)]


def test_docs_example_is_what_the_server_answers(server: Server) -> None:
    kinds = set()
    for request, answer in doc_exchange():
        got, _ = server.handle(request + "\n")  # as on the wire
        want = json.loads(answer)
        if "version" in want:
            want["version"] = got["version"]
        assert got == want, request[:120]
        try:
            kinds.add(json.loads(request)["type"])
        except ValueError:
            kinds.add("garbage")
    assert kinds == {"hello", "deal", "legal", "apply", "score", "winners", "shutdown",
                     "garbage"}


def test_every_documented_message_matches_the_schema(
        validator: jsonschema.Draft202012Validator) -> None:
    for request, answer in doc_exchange():
        for text in (request, answer):
            try:
                message = json.loads(text)
            except ValueError:
                continue
            errors = [e.message for e in validator.iter_errors(message)]
            assert errors == [], text[:200]


@pytest.mark.parametrize("message", [
    {"id": 1, "type": "legal", "ruleset": RJ},
    {"id": 1, "type": "apply", "ruleset": RJ, "state": STATE, "action": {"type": "jump"}},
    {"id": 1, "ok": True, "state": STATE, "refused": {"reason": "x", "clause": None}},
    {"id": 1, "ok": True, "actions": "draw"},
    {"id": 1, "ok": False, "error": {"kind": "oops", "message": "x"}},
])
def test_schema_refuses_malformed_messages(validator: jsonschema.Draft202012Validator,
                                           message: dict[str, Any]) -> None:
    assert not validator.is_valid(message)


# --- the process client ----------------------------------------------------------------


def test_process_client_against_mtrain_serve() -> None:
    with ProcessImplementation(shlex.join([MTRAIN, "serve"]), timeout=30) as impl:
        info = impl.info()
        assert info["name"] == "mtrain-reference" and info["protocol"] == 1
        assert impl.legal(RJ, STATE)[0] == PLAY_OUT
        with pytest.raises(Refused) as refused:
            impl.apply(RJ, STATE, {"type": "play", "tile": "4-0", "train": 1})
        assert refused.value.clause == "TRAIN-2"
        end = impl.apply(RJ, STATE, PLAY_OUT)
        assert impl.score(RJ, end) == [0, 9]
        assert impl.score(RJ, STATE, None) == [4, 9]
        assert impl.winners(RJ, end) == [1]
        assert impl.starts == 1 and impl.requests == 7
        proc = impl._proc
    assert proc is not None and proc.popen.returncode == 0  # it obeyed the shutdown



def test_requests_written_ahead_are_answered_in_order_or_dropped() -> None:
    """send_ahead writes a step's requests at once; each later call with the same request
    reads its answer, and a call for anything else first drops the answers not asked for."""
    rj, state = encode(RJ)[:-1], encode(STATE)[:-1]
    bad = encode({"type": "play", "tile": "4-0", "train": 1})[:-1]
    with ProcessImplementation(shlex.join([MTRAIN, "serve"]), timeout=30) as impl:
        impl.start()
        impl.send_ahead([("legal", {"ruleset": rj, "state": state}),
                         ("apply", {"ruleset": rj, "state": state, "action": bad})])
        assert impl.call_encoded("legal", ruleset=rj, state=state)["actions"][0] == PLAY_OUT
        assert impl.call_encoded("apply", ruleset=rj, state=state, action=bad)["refused"][
            "clause"] == "TRAIN-2"
        impl.send_ahead([("legal", {"ruleset": rj, "state": state}),
                         ("apply", {"ruleset": rj, "state": state, "action": bad})])
        # asked for something else: both answers are dropped, and this one is its own
        assert impl.winners(RJ, impl.apply(RJ, STATE, PLAY_OUT)) == [1]
        assert impl.call_encoded("legal", ruleset=rj, state=state)["actions"][0] == PLAY_OUT
        assert impl.requests == 8 and impl.starts == 1  # hello, 2 + 2 ahead, 3 more

def test_stderr_ring_keeps_only_the_latest_bytes() -> None:
    ring = StderrRing(None, limit=100)
    for i in range(50):
        ring.add(f"line {i}\n".encode())
    mark = ring.mark()
    assert len(ring.text()) <= 110 and ring.text().endswith("line 49\n")
    assert ring.tail(lines=2) == "line 48\nline 49"
    assert ring.text(since=mark) == ""
    ring.add(b"fresh\n")
    assert ring.text(since=mark) == "fresh\n"
    assert tail_of("x" * 5000, chars=10) == "..." + "x" * 10


def test_stderr_ring_text_holds_what_the_pipe_held_when_asked() -> None:
    # the report quoted the ring as the reader thread had filled it: on a loaded machine a
    # failing request's stderr, written before its answer, was left out (CI, stop 44)
    read, write = os.pipe()
    with os.fdopen(read, "rb", buffering=0) as stream:
        ring = StderrRing(stream)
        mark = ring.mark()
        for i in range(200):  # no wait between the write and the read: never left out
            os.write(write, f"said {i}\n".encode())
            assert ring.text(since=mark).endswith(f"said {i}\n")
        big = b"y" * (1 << 20)  # more than a pipe holds: the thread drains it meanwhile
        os.write(write, big)
        assert ring.text().endswith("y" * 1000) and len(ring.text()) <= STDERR_BYTES
        os.close(write)
        assert ring.thread is not None
        ring.thread.join(120)  # a bound on a hang, far above the need
        assert not ring.thread.is_alive()  # the pipe's end ends the thread
        assert ring.text().endswith("y" * 1000)


def test_exit_descriptions() -> None:
    assert describe_exit(3) == "exited with code 3"
    assert describe_exit(-9) == "was killed by SIGKILL"
    assert describe_exit(None) == "closed its stdout while still running"
