"""Bad input of every class, table-driven or drawn by hypothesis: rule-set files read by
every command, protocol requests to `mtrain serve`, and raw answer lines from an
implementation. Each must come back as the project's own error (file and line for a file,
the request for a request), never as a traceback, an `internal` answer, or a default."""

from __future__ import annotations

import copy
import itertools
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mtrain.cli import main
from mtrain.conformance.adapter import ruleset_json
from mtrain.conformance.protocol import encode
from mtrain.conformance.serve import Server
from mtrain.spec.catalog import catalog
from mtrain.spec.errors import InputError
from mtrain.spec.yamlload import SpecError

HERE = Path(__file__).resolve().parent
BROKEN = HERE / "broken_impls"

# --- rule-set files ------------------------------------------------------------------

RULE_FILES: list[tuple[str, bytes | str, int | None, str]] = [
    # name, the file, the line named (None: the file as a whole), in the message
    ("empty", "", None, "empty file"),
    ("a list", "- pagat\n", 1, "top level: expected a mapping, got a list"),
    ("unknown key", "base: pagat\ndraw: [[1-0]]\n", 2, "unknown key 'draw'"),
    ("unknown option", "base: pagat\noptions:\n  nope: x\n", 3, "nope"),
    ("unknown value", "base: pagat\noptions:\n  follow_up: nope\n", 3,
     "unknown value 'nope' for follow_up"),
    ("an int value", "base: pagat\noptions:\n  follow_up: 3\n", 3, "got an integer (3)"),
    ("yes", "base: pagat\noptions:\n  follow_up: yes\n", 3, "read as a boolean by YAML 1.1"),
    ("null value", "base: pagat\noptions:\n  follow_up:\n", 3, "got null"),
    ("duplicate key", "base: pagat\nbase: puremco\n", 2, "duplicate key 'base'"),
    ("duplicate option", "base: pagat\noptions:\n  tie_rule: shared\n  tie_rule: shared\n", 4,
     "duplicate key 'tie_rule'"),
    ("unknown base", "base: nosuch\n", 1, "unknown base variant 'nosuch'"),
    ("overlay as text", "base: pagat\noverlays: blanks-25\n", 2, "expected a list"),
    ("unknown overlay", "base: pagat\noverlays: [nosuch]\n", 2, "unknown overlay 'nosuch'"),
    ("no base, one option", "options:\n  follow_up: other\n", 1,
     "without a base must give every option"),
    ("a plus in the name", "name: a+b\nbase: pagat\n", 1,
     "without control characters (nor invisible or direction-changing ones) or `+`"),
    ("a shipped name", "name: pagat\nbase: puremco\n", 1,
     "name 'pagat' is a shipped rule set's, whose rules differ"),
    ("alias bomb", "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{q}: &{q} [{', '.join([f'*{p}'] * 10)}]\n" for p, q in itertools.pairwise("abcdefg")),
     5, "aliases expand to more than 100,000 nodes"),
    ("not UTF-8", b"base: pagat\ntitle: \xff\n", 2, "not valid UTF-8 (byte 0xff)"),
    ("a NUL byte", b"base: pagat\x00\n", 1, "U+0000 is not allowed"),
    ("a python tag", "base: !!python/object/apply:os.system [ls]\n", 1, "is not allowed"),
    ("two documents", "base: pagat\n---\nbase: puremco\n", 2, "expected a single document"),
    ("a tab", "base: pagat\noptions:\n\tfollow_up: other\n", 3, "YAML indents with spaces"),
    ("nested too deep", "base: pagat\ndescription: " + "[" * 60 + "]" * 60 + "\n", 2,
     "nested more than 50 levels deep"),
    ("a number of 5,000 digits", "base: pagat\noptions:\n  hand_sizes: {2: " + "9" * 5000
     + "}\n", 3, "too long to read"),
    ("table: a hole is fine, a zero is not", "base: pagat\noptions:\n  hand_sizes: {2: 0}\n",
     3, "0 is less than the minimum of 1"),
    ("table: negative", "base: pagat\noptions:\n  hand_sizes: {2: -1}\n", 3,
     "-1 is less than the minimum of 1"),
    ("table: too many tiles", "base: pagat\noptions:\n  hand_sizes: {2: 100}\n", 3,
     "cannot be dealt from a double-12 set of 91 tiles: 2 players x 100 = 200 [DEAL-8]"),
    ("table: one player", "base: pagat\noptions:\n  hand_sizes: {1: 10}\n", 3,
     "key '1' is not a number of players, 2 to 20"),
    ("table: 21 players", "base: pagat\noptions:\n  hand_sizes: {21: 1}\n", 3,
     "key '21' is not a number of players, 2 to 20"),
    ("table: a float", "base: pagat\noptions:\n  hand_sizes: {2: 1.5}\n", 3,
     "expected an integer, got a number (1.5)"),
    ("table: a boolean key", "base: pagat\noptions:\n  hand_sizes: {true: 10}\n", 3,
     "key 'true' is read as a boolean"),
    ("table: empty", "base: pagat\noptions:\n  hand_sizes: {}\n", 3, "should be non-empty"),
    ("table: other", "base: pagat\noptions:\n  hand_sizes: other\n", 3,
     "hand_sizes cannot be `other`"),
    ("table: a list", "base: pagat\noptions:\n  hand_sizes: [10, 9]\n", 3,
     "expected a string or a mapping, got a list"),
    ("tile set out of range", "base: pagat\noptions:\n  tile_set: double-99\n", 3,
     "unknown value 'double-99' for tile_set"),
    ("tile set other", "base: pagat\noptions:\n  tile_set: other\n", 3, "tile_set"),
    ("double-18 without a table", "base: pagat\noptions:\n  tile_set: double-18\n", None,
     "DEAL-11"),
]


@pytest.mark.parametrize("text, line, message", [r[1:] for r in RULE_FILES],
                         ids=[r[0] for r in RULE_FILES])
def test_a_bad_rule_set_file_is_named_at_its_line(tmp_path: Path, text: bytes | str,
                                                  line: int | None, message: str) -> None:
    path = tmp_path / "mine.yaml"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    with pytest.raises((SpecError, InputError)) as info:
        catalog().rules_file(path)
    said = str(info.value)
    assert said.startswith(f"{path}:{line}: " if line else f"{path}"), said
    assert message in said, said


@pytest.mark.parametrize("command", [["rules"], ["simulate", "--players", "4", "--rules"],
                                     ["serve", "--rules"], ["conform", "--rules"],
                                     ["state", "marker-001", "--rules"], ["situations"]])
def test_every_command_reading_a_rule_set_file_says_where_it_is_wrong(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, command: list[str]) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text("base: pagat\noptions:\n  hand_sizes: {2: " + "9" * 5000 + "}\n")
    assert main([*command, str(path)]) == 2  # a ValueError traceback before
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.splitlines()) == 1, err
    assert f"{path}:3: a number of 5,000 characters is too long to read" in err, err


# --- protocol requests to mtrain serve -----------------------------------------------

RULESET = ruleset_json(catalog().ruleset("pagat"))
ORDER = [f"{a}-{b}" for a in range(13) for b in range(a + 1)]
GOOD = {
    "deal": {"id": 7, "type": "deal", "ruleset": RULESET, "players": 3, "round": 1,
             "order": ORDER},
    "deal-draw": {"id": 7, "type": "deal", "ruleset": {
        **RULESET, "options": {**RULESET["options"], "starting_seat": "highest-draw"}},
        "players": 3, "round": 1, "order": ORDER, "draw": [["1-0"], ["2-0"], ["3-0"]]},
}


def _state() -> dict[str, Any]:
    answer, _ = Server().handle(encode(GOOD["deal"]))
    state: dict[str, Any] = answer["state"]
    return state


STATE = _state()
GOOD |= {kind: {"id": 7, "type": kind, "ruleset": RULESET, "state": STATE}
         for kind in ("legal", "winners", "score")}
GOOD["apply"] = {"id": 7, "type": "apply", "ruleset": RULESET, "state": STATE,
                 "action": {"type": "draw"}}

GARBAGE = st.one_of(
    st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(allow_nan=False,
                                                                    allow_infinity=False),
    st.text(max_size=8), st.sampled_from(["13-0", "0-0", "rest", "mexican", "other", "play",
                                          "draw", "-1--1", "12-12"]),
    st.lists(st.one_of(st.none(), st.integers(-3, 20), st.text(max_size=4)), max_size=3),
    st.dictionaries(st.text(max_size=4), st.integers(), max_size=2))


def _paths(value: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [at]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*at, k))
    elif isinstance(value, list):
        for i, v in enumerate(value[:3]):
            out += _paths(v, (*at, i))
    return out


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(sorted(GOOD)), data=st.data(), garbage=GARBAGE,
       drop=st.booleans())
def test_serve_answers_a_spoiled_request_with_an_error_of_its_own(
        kind: str, data: st.DataObject, garbage: Any, drop: bool) -> None:
    message: Any = copy.deepcopy(GOOD[kind])
    path = data.draw(st.sampled_from([p for p in _paths(message) if p and p != ("id",)]))
    holder = message
    for key in path[:-1]:
        holder = holder[key]
    if drop:
        del holder[path[-1]]
    else:
        holder[path[-1]] = garbage
    answer, stop = Server().handle(json.dumps(message).encode())
    assert not stop and answer["id"] == 7
    if not answer["ok"]:  # never `internal`: the server's own fault, with a traceback
        assert answer["error"]["kind"] in ("bad-request", "refused-setup"), answer


# --- raw answer lines from an implementation -----------------------------------------

RAW = {
    "nested 100,000 deep": (b'{"id":ID,"ok":true,"actions":' + b"[" * 100_000 + b"]" * 100_000
                            + b"}\n", "not usable JSON (nested too deeply)"),
    "a 5,000-digit number": (b'{"id":ID,"ok":true,"actions":[],"x":' + b"9" * 5000 + b"}\n",
                             "not JSON (a number of 5,000 digits, past the 4,300"),
    "an array": (b"[1,2]\n", "not a JSON object (a message is one), but an array"),
    "two answers on a line": (b'{"id":ID,"ok":true,"actions":[]}' * 2 + b"\n",
                              "not JSON (Extra data"),
    "a NUL after it": (b'{"id":ID,"ok":true,"actions":[]}\x00\n', "not JSON"),
    "ok as text": (b'{"id":ID,"ok":"true","actions":[]}\n', "answer.ok must be true or false"),
    "an error as text": (b'{"id":ID,"ok":false,"error":"boom"}\n',
                         "an error answer's error must be an object"),
    "the id as a float": (b'{"id":1e0,"ok":true,"actions":[]}\n', "carries id 1.0"),
    "plain text": (b"ready\n", "(logs belong on stderr)"),
}


@pytest.mark.parametrize("raw, said", list(RAW.values()), ids=list(RAW))
def test_an_implementation_answering_garbage_is_charged_with_it(
        tmp_path: Path, raw: bytes, said: str) -> None:
    from mtrain.conformance.process import HarnessError, ProcessImplementation

    answer = tmp_path / "answer.bin"
    answer.write_bytes(raw)
    with ProcessImplementation([sys.executable, str(BROKEN / "raw_answer.py"), str(answer)],
                               timeout=20) as impl, pytest.raises(HarnessError) as info:
        impl.legal(RULESET, STATE)
    assert said in info.value.message, info.value.message
