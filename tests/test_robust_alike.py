"""One answer, one verdict: what an in-process adapter returns is judged as the same answer
over the protocol would be (a float or a boolean where an integer belongs is garbage, named
as such, on both paths), and a byte order mark or CRLF line ends are read alike by the
protocol and by the file loaders."""

from __future__ import annotations

import json
import os
import shlex
import sys
from pathlib import Path

import pytest

from mtrain.cli import main
from mtrain.conformance.adapter import ruleset_json
from mtrain.conformance.adapter_loading import load_adapter
from mtrain.conformance.answers import scores_problems, state_problems, winners_problems
from mtrain.conformance.inprocess import TimedImplementation
from mtrain.conformance.process import ProcessImplementation, ProtocolViolation
from mtrain.conformance.protocol import ProtocolError, decode
from mtrain.conformance.serve import Server
from mtrain.spec.catalog import catalog
from mtrain.spec.notation import table_state
from mtrain.spec.yamlload import SpecError

HERE = Path(__file__).resolve().parent
BROKEN = HERE / "broken_impls"
ADAPTERS = BROKEN / "adapters.py"
RS = catalog().ruleset("pagat")
RJ = ruleset_json(RS)
STATE = table_state({"hands": {0: ["5-3", "9-1"], 1: ["11-11", "10-0"]},
                     "trains": {0: ["12-5"], 1: ["12-3"]}}, RS)
FLOAT = "(1.0 is a number with a decimal point or exponent, not an integer)"
BOOL = "(true is a boolean, not an integer)"

posix = pytest.mark.skipif(not hasattr(os, "fork"), reason="worker processes need fork")

# (the call, what the implementation returns, the fault both paths must name)
WRONG = [
    ("score", [1.0, 0], f"answer.scores must be a list of integers, got [1.0, 0] {FLOAT}"),
    ("score", [True, 0], f"answer.scores must be a list of integers, got [true, 0] {BOOL}"),
    ("winners", [1.0], f"answer.winners must be a list of integers, got [1.0] {FLOAT}"),
    ("winners", [True], f"answer.winners must be a list of integers, got [true] {BOOL}"),
    ("refused", ["no", 7], "apply.refused.clause must be a clause id or null, got 7"),
    ("refused", [None, "TURN-7"], "apply.refused must be {reason, clause}"),
]


def _over_the_protocol(call: str, value: object, tmp_path: Path) -> str:
    payload = ({"refused": {"reason": value[0], "clause": value[1]}}  # type: ignore[index]
               if call == "refused" else {"scores" if call == "score" else call: value})
    raw = tmp_path / "answer.json"
    raw.write_bytes(b'{"id":ID,"ok":true,' + json.dumps(payload).encode()[1:] + b"\n")
    with ProcessImplementation([sys.executable, str(BROKEN / "raw_answer.py"), str(raw)],
                               timeout=20) as impl, pytest.raises(ProtocolViolation) as info:
        _ask(impl, call)
    return info.value.message


def _in_process(call: str, value: object, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("MTRAIN_TEST_CALL", call)
    monkeypatch.setenv("MTRAIN_TEST_VALUE", json.dumps(value))
    spec = f"{ADAPTERS}:Returns"
    impl = TimedImplementation(load_adapter(spec)[0], 20, spec)
    try:
        with pytest.raises(ProtocolViolation) as info:
            _ask(impl, call)
    finally:
        impl.close()
    return info.value.message


def _ask(impl: ProcessImplementation | TimedImplementation, call: str) -> None:
    if call == "score":
        impl.score(RJ, STATE, None)
    elif call == "winners":
        impl.winners(RJ, STATE)
    else:
        impl.apply(RJ, STATE, {"type": "draw"})


@posix
@pytest.mark.parametrize("call, value, fault", WRONG)
def test_a_wrong_type_is_the_same_fault_on_both_paths(
        call: str, value: object, fault: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    protocol = _over_the_protocol(call, value, tmp_path)
    adapter = _in_process(call, value, monkeypatch)  # accepted as 1 == 1.0 == True before
    assert fault in protocol, protocol
    assert fault in adapter, adapter
    assert protocol.split("request: ", 1)[1] == adapter.split("wrong shape: ", 1)[1]


@pytest.mark.parametrize("value, said", [
    ([1.0], "(1.0 is a float, not an integer)"), ([True], "(True is a boolean, not an integer)"),
    ([-1], "a list of seats 0..19")])
def test_the_answer_checks_take_no_float_or_boolean_for_a_seat(value: list[object],
                                                               said: str) -> None:
    problems = winners_problems(value)
    assert len(problems) == 1 and said in problems[0].message, problems
    if value != [-1]:
        assert said in scores_problems(value)[0].message


def test_a_state_with_a_float_is_a_schema_error_not_a_wrong_table() -> None:
    state = {**STATE, "passes": 0.0}  # read as the table of 0 passes before (status fail)
    problems = state_problems(RJ, state)
    assert [p.kind for p in problems] == ["schema"], problems
    assert "passes" in problems[0].where and "0.0 is not of type 'integer'" in \
        problems[0].message, problems


@posix
@pytest.mark.parametrize("change, fault", [
    ({"variants": "pagat"}, "hello.variants must be a list of variant names or patterns"),
    ({"options": {"first_turn": "single"}}, "hello.options must map option names to lists"),
    ({"name": 5}, "hello.name must be a string"),
])
def test_a_wrong_info_is_the_hello_fault_and_no_request_of_it_is_judged(
        change: dict[str, object], fault: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    with ProcessImplementation([sys.executable, str(BROKEN / "hello.py"), json.dumps(change)],
                               timeout=20) as impl, pytest.raises(ProtocolViolation) as info:
        impl.info()
    assert fault in info.value.message, info.value.message
    monkeypatch.setenv("MTRAIN_TEST_CALL", "info")
    monkeypatch.setenv("MTRAIN_TEST_VALUE", json.dumps(change))
    # was: a warning, then every result passed (a `variants` of text read as no limit);
    # then every result an error; robust-s49: the run stops at the hello, exit 2, said once
    rc = main(["conform", "--adapter", f"{ADAPTERS}:Returns", "--fixtures",
               str(HERE / "data" / "fixtures"), "--format", "json", "-j", "2"])
    out, err = capsys.readouterr()
    assert rc == 2 and out == "", out
    assert fault in err and err.count("\n") == 1, err


@pytest.mark.parametrize("change, fault", [
    ({"protocol": 1.0}, f"hello.protocol must be an integer, got 1.0 {FLOAT}"),
    ({"features": ["teleport"]}, "a hello answer has no field 'features' in protocol v1"),
])
def test_a_hello_with_a_float_version_or_an_unknown_field_is_named(
        change: dict[str, object], fault: str) -> None:
    with ProcessImplementation([sys.executable, str(BROKEN / "hello.py"), json.dumps(change)],
                               timeout=20) as impl, pytest.raises(ProtocolViolation) as info:
        impl.info()
    assert fault in info.value.message, info.value.message


# --- a byte order mark and CRLF: accepted at the start of a text, alike everywhere -------

BOM = "\ufeff"


def test_a_protocol_line_may_open_with_a_bom_as_bytes_or_as_text() -> None:
    plain = {"id": 1, "type": "hello", "protocol": 1}
    text = json.dumps(plain)
    assert decode(text.encode()) == plain
    assert decode((BOM + text + "\r\n").encode()) == plain
    assert decode(BOM + text + "\r\n") == plain  # refused as text, accepted as bytes, before
    for wrong in (text[:-1] + BOM + "}", text + BOM, BOM + BOM + text):
        with pytest.raises(ProtocolError):
            decode(wrong)
        with pytest.raises(ProtocolError):
            decode(wrong.encode())
    answer, _ = Server().handle((BOM + text + "\r\n").encode())
    assert answer["ok"] is True, answer


def test_a_file_may_open_with_a_bom_and_end_its_lines_with_crlf(tmp_path: Path) -> None:
    text = "base: pagat\noptions:\n  follow_up: restricted\n"
    plain, windows = tmp_path / "plain.yaml", tmp_path / "windows.yaml"
    plain.write_text(text)
    windows.write_bytes((BOM + text.replace("\n", "\r\n")).encode())
    assert catalog().rules_file(windows).choices == catalog().rules_file(plain).choices
    late = tmp_path / "late.yaml"
    late.write_bytes(text.replace("restricted", BOM + "restricted").encode())
    with pytest.raises(SpecError) as info:  # within the text, as within a protocol line
        catalog().rules_file(late)
    assert str(info.value).startswith(f"{late}:3: "), info.value


# --- a key given twice: refused in a protocol line, as the YAML loader refuses it in a file
# (tests/test_robust_inputs.py, `duplicate option`) -----------------------------------------

@pytest.mark.parametrize("line", [
    b'{"id":2,"ok":true,"winners":[0],"winners":[1]}\n',  # compact, as orjson writes
    b'{"id": 2, "ok": true, "winners": [0], "winners": [1]}\n',  # spaced, as json writes
    b'{"id":3,"id":2,"ok":true,"winners":[0]}\n',  # orjson kept the last id: a pass before
])
def test_a_key_given_twice_is_not_usable_json(line: bytes) -> None:
    with pytest.raises(ProtocolError, match="is given twice in one object"):
        decode(line)
    with pytest.raises(ProtocolError, match="is given twice in one object"):
        decode(line.decode())


def test_an_implementation_answering_a_key_twice_is_charged_and_serve_refuses_it(
        tmp_path: Path) -> None:
    raw = tmp_path / "answer.json"
    raw.write_bytes(b'{"id":ID,"ok":true,"winners":[0],"winners":[1]}\n')
    with ProcessImplementation([sys.executable, str(BROKEN / "raw_answer.py"), str(raw)],
                               timeout=20) as impl, pytest.raises(ProtocolViolation) as info:
        impl.winners(RJ, STATE)
    assert 'the key "winners" is given twice in one object' in info.value.message
    answer, _ = Server().handle(b'{"id":4,"type":"hello","protocol":1,"protocol":2}\n')
    assert answer["ok"] is False and answer["error"]["kind"] == "bad-request", answer
    assert "given twice" in answer["error"]["message"]



# --- a hello's limits: an option or value no rule set has is named, not ignored ---------

@pytest.mark.parametrize("options, fault", [
    ({"warp": ["x"]}, "`options` names unknown option 'warp'"),
    ({"follow_up": ["nope"]}, "`options.follow_up`: unknown value 'nope'"),
])
def test_a_limit_on_what_no_rule_set_has_is_a_configuration_error(
        capsys: pytest.CaptureFixture[str], options: dict[str, list[str]], fault: str) -> None:
    # the unknown option was ignored (a green run); the unknown value made every rule set
    # not applicable, as if the engine played none
    rc = main(["conform", "--impl", shlex.join([sys.executable, str(BROKEN / "hello.py"),
                                                json.dumps({"options": options})]),
               "--fixtures", str(HERE / "data" / "fixtures")])
    err = capsys.readouterr().err
    assert rc == 2, err
    assert err.startswith("mtrain conform: the implementation's declared rules: " + fault), err
