"""Inputs the earlier robustness rounds let through (robust-s39): each is refused by name,
at its file and line where it has one, never read past nor met with a traceback."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from mtrain.cli import main
from mtrain.conformance.process import ProcessImplementation, ProtocolViolation
from mtrain.spec.catalog import catalog

HERE = Path(__file__).resolve().parent
BROKEN = HERE / "broken_impls"
HUGE_ID = 2**70


def refused(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """The one line a refused command prints: exit 2, no traceback."""
    try:
        rc = main(list(args))
    except SystemExit as e:
        rc = e.code  # type: ignore[assignment]
    out, err = capsys.readouterr()
    assert rc == 2 and "Traceback" not in out + err, (rc, out[-500:], err[-500:])
    return err.strip().splitlines()[0]


def write(path: Path, text: str) -> str:
    path.write_text(text, encoding="utf-8")
    return str(path)


def serve(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
          data: bytes, *args: str) -> list[dict[str, object]]:
    """Each answer `mtrain serve` gives to the request lines `data`."""
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data)))
    main(["serve", *args])
    return [json.loads(x) for x in capsys.readouterr().out.splitlines()]


# --- a request id is one of the harness's small integers ------------------------------


def test_an_answer_carrying_a_huge_id_is_garbage_said_as_such() -> None:
    # 2^70 is no id the harness sends: said so, not only "in order"
    wrong = [sys.executable, str(BROKEN / "wrong_id.py"), 1, HUGE_ID - 1]
    with ProcessImplementation(list(map(str, wrong)), timeout=120) as impl, \
            pytest.raises(ProtocolViolation) as info:
        impl.call("hello", protocol=1)
    message = info.value.message
    assert f"carries id {HUGE_ID}, which no request has" in message, message
    assert "from 0 to 9007199254740991" in message, message


@pytest.mark.parametrize("rid", [HUGE_ID, 2**53, -1, 123456789012345678])
def test_serve_refuses_an_id_no_harness_sends(capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch,
                                              rid: int) -> None:
    # serve echoed {"id": 2^70} back as if it were an id; 18 digits went the fast path
    lines = [{"id": rid, "type": "hello", "protocol": 1},
             {"id": 1, "type": "hello", "protocol": 1}]
    answers = serve(capsys, monkeypatch,
                    b"".join(json.dumps(x).encode() + b"\n" for x in lines))
    assert answers[0]["id"] is None and answers[0]["ok"] is False, answers[0]
    assert "request.id must be an integer from 0 to 2^53-1, got" in str(answers[0]), answers
    assert answers[1]["ok"] is True and answers[1]["id"] == 1


def test_the_protocol_schema_bounds_the_id() -> None:
    from mtrain.conformance.protocol import MAX_ID
    from mtrain.spec.yamlschema import schema
    bounds = schema("protocol")["$defs"]["id"]
    assert (bounds["minimum"], bounds["maximum"]) == (0, MAX_ID) == (0, 2**53 - 1)


# --- a rule set's name and title are bounded ---------------------------------------------


@pytest.mark.parametrize("text, said", [
    (f"name: {'z' * 5000}\nbase: pagat\n", ":1: name: 'zzz"),
    (f"name: x\ntitle: {'z' * 5000}\nbase: pagat\n", ":2: title: 'zzz"),
])
def test_a_long_name_or_title_is_refused_at_its_line(capsys: pytest.CaptureFixture[str],
                                                     tmp_path: Path, text: str,
                                                     said: str) -> None:
    rules = write(tmp_path / "r.yaml", text)
    line = refused(capsys, "rules", rules)
    assert f"{rules}{said}" in line and "is too long (at most" in line, line
    assert len(line) < 300 + len(rules), len(line)


@pytest.mark.parametrize("text, line_no", [
    ('name: "red\\e[31m"\nbase: pagat\n', 1),
    ('name: x\ntitle: "two\\nlines"\nbase: pagat\n', 2),
    ('name: "a\\u202eb"\nbase: pagat\n', 1),  # shown right to left from there on
    ('name: x\ntitle: "a\\u200bb"\nbase: pagat\n', 2),  # a space nobody sees
])
def test_a_control_character_in_a_name_or_title_is_refused(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str, line_no: int) -> None:
    rules = write(tmp_path / "r.yaml", text)
    line = refused(capsys, "rules", rules)
    assert f"{rules}:{line_no}: " in line and "without control characters" in line, line


@pytest.mark.parametrize("stem", ["a+b", "red\x1b[31m"])
def test_a_file_named_what_no_rule_set_is_called_needs_a_name(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, stem: str) -> None:
    # without `name:` a file is named after itself: `a+b` read as one rule set's name
    rules = write(tmp_path / f"{stem}.yaml", "base: pagat\n")
    line = refused(capsys, "rules", rules)
    assert "cannot name the rule set" in line and "give it a `name:`" in line, line
    assert len(line) < 600, len(line)
    named = write(tmp_path / f"{stem}.yaml", "name: mine\nbase: pagat\n")
    assert catalog().rules_file(named).name == "mine"


# --- a cache entry damaged into other JSON is not taken as worked out before ------------


def test_a_cache_entry_damaged_into_other_json_is_read_anew(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a digit flipped in a kept document still read as JSON, and was taken as the file's
    # data: `name: pagat` read back as `name: pagbt`, a rule set that loads another way
    from mtrain.spec import cache
    from mtrain.spec.yamlload import DOCUMENT_KIND, load
    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path))
    text = "name: pagat\nplayers: 4\n"
    assert load("r.yaml", text).data == {"name": "pagat", "players": 4}
    (entry,) = (tmp_path / DOCUMENT_KIND).iterdir()
    whole = entry.read_bytes()
    for spoiled in (whole.replace(b'"pagat"', b'"pagbt"'),
                    whole.replace(b'["players",4]', b'["players",5]'),
                    whole.replace(b'"format":2', b'"format":1')):
        assert spoiled != whole
        entry.write_bytes(spoiled)
        assert load("r.yaml", text).data == {"name": "pagat", "players": 4}
    assert entry.read_bytes() == whole  # written anew, whole


# --- the protocol's values, each refused in words of its own ---------------------------


ORDER = [f"{a}-{b}" for a in range(13) for b in range(a + 1)]


@pytest.mark.parametrize("value, said", [
    ({"4": 15}, "option hand_sizes takes the name of a value, not an object {'4': 15}"),
    ([1, 2], "option hand_sizes takes the name of a value, not a list [1, 2]"),
])
def test_a_table_where_an_option_names_its_value_is_refused_in_words(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        value: object, said: str) -> None:
    # the request's options were hashed as a key: "deal: unhashable type: 'dict'"
    request = {"id": 1, "type": "deal", "ruleset": {"name": "x", "options": {
        "hand_sizes": value}}, "players": 4, "round": 1, "order": ORDER}
    (answer,) = serve(capsys, monkeypatch, json.dumps(request).encode() + b"\n")
    message = answer["error"]["message"]  # type: ignore[index]
    assert answer["ok"] is False and said in message and "unhashable" not in message, answer
    assert "known: pagat," in message, message


def test_a_number_of_thousands_of_digits_is_refused_in_words(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # Python's own words were quoted: "Exceeds the limit (4300 digits) for integer string
    # conversion"
    line = b'{"id":1,"type":"hello","protocol":' + b"9" * 5000 + b"}\n"
    (answer,) = serve(capsys, monkeypatch, line)
    message = answer["error"]["message"]  # type: ignore[index]
    assert "a number of 5,000 digits, past the 4,300 a message may hold" in message, message
    assert "4300" not in message and len(message) < 400, message


# --- identify that could tell nothing is no identification ------------------------------


NOTHING = """\
from mtrain.conformance.adapter import ReferenceImplementation, Unsupported


class Engine(ReferenceImplementation):
    def deal(self, *args, **kwargs):
        raise Unsupported("this engine only says hello")

    legal = apply = winners = score = deal
"""


@pytest.mark.slow  # about 2 CPU s (9 while the situations from play were still played)
def test_identify_of_an_engine_that_answers_nothing_is_not_green(
        capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    # every option was undetermined, yet it printed "closest rule set: pagat" (the base's
    # values, as if found) and exited 0. Asked about the marker fixtures only (the whole
    # corpus costs a minute of CPU), as tests/test_identify.py does
    from mtrain.conformance import identify as module
    from mtrain.conformance.fixture import FIXTURE_ROOT, load_corpus

    markers, errors = load_corpus(FIXTURE_ROOT / "markers")
    assert markers and not errors
    real = module.identify
    monkeypatch.setattr(module, "identify", lambda impl, **kw: real(impl, markers, **kw))

    def played(*args: object, **kwargs: object) -> None:
        raise AssertionError("tables from play asked of an engine that answered nothing")

    from mtrain.conformance.identify import run as identify_run
    monkeypatch.setattr(identify_run, "_situations", played)
    adapter = write(tmp_path / "nothing.py", NOTHING)
    out = tmp_path / "found.yaml"
    rc = main(["identify", "--adapter", f"{adapter}:Engine", "--output", str(out)])
    printed, err = capsys.readouterr()
    # since session 47 it stops before the fixtures, saying why (exit 2: nothing was tested)
    assert rc == 2, (printed[-300:], err[-300:])
    assert "answered `unsupported` to all" in err and "identify stopped" in err, err
    assert "closest rule set" not in printed, (printed, err)
    assert not out.exists()


# --- what a hello lists is quoted by its first names -----------------------------------


def test_a_hello_listing_many_variants_is_quoted_by_its_first() -> None:
    # every not-applicable reason of conform's report quoted all the names a hello
    # listed: 100,000 made lines of 789,000 characters
    from mtrain.conformance.declaration import unsupported
    pagat = catalog().ruleset("pagat")
    info = {"name": "many", "version": "1", "variants": [f"x{i}" for i in range(5000)],
            "options": {"tile_set": [f"double-{i}" for i in range(100, 5000)]}}
    assert unsupported(info, "pagat", pagat) == (
        "the implementation supports x0, x1, x2, x3, x4, x5, x6, x7 and 4,992 more")
    info["variants"] = ["*"]
    assert unsupported(info, "pagat", pagat) == (
        "the implementation does not support tile_set=double-12 (only double-100, "
        "double-101, double-102, double-103, double-104, double-105, double-106, "
        "double-107 and 4,892 more)")


def test_a_hand_table_row_given_twice_as_number_and_text_is_refused(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # YAML keeps `2:` and `"2":` apart; the table read both as 2 players: "2 players: 7,
    # 2 players: 8", one of them dealt
    rules = write(tmp_path / "r.yaml",
                  'name: x\nbase: pagat\noptions:\n  hand_sizes:\n    2: 7\n    "2": 8\n')
    line = refused(capsys, "rules", rules)
    assert f"{rules}:5: hand_sizes gives 2 players twice (as 2 and '2')" in line, line


def test_a_program_echoing_its_requests_is_told_so() -> None:
    # `cat` as the implementation: "answer.ok must be true or false, got null"
    with ProcessImplementation(["cat"], timeout=120) as impl, \
            pytest.raises(ProtocolViolation) as info:
        impl.call("hello", protocol=1)
    message = info.value.message
    assert "an answer carries `ok`, not a request's `type` (is the request echoed back?)" \
        in message, message


# --- an adapter that exits or fails its hello tested nothing green ------------------------


def test_an_adapter_module_that_exits_at_import_is_refused(tmp_path: Path) -> None:
    # SystemExit(0) at import went through: `mtrain conform` exited 0, having run nothing
    from mtrain.conformance.adapter_loading import load_adapter
    from mtrain.spec.errors import InputError
    adapter = write(tmp_path / "leaves.py", "raise SystemExit(0)\n")
    with pytest.raises(InputError, match=f"importing {adapter} exited \\(exit code 0\\)"):
        load_adapter(f"{adapter}:Engine")


def test_a_run_whose_hello_failed_is_not_green(capsys: pytest.CaptureFixture[str],
                                               tmp_path: Path) -> None:
    # an adapter whose info() raised answered the rest: "OK", exit 0, beside a warning
    adapter = write(tmp_path / "nohello.py", """\
from mtrain.conformance.adapter import ReferenceImplementation


class Engine(ReferenceImplementation):
    def info(self):
        raise RuntimeError("boom")
""")
    rc = main(["conform", "--adapter", f"{adapter}:Engine", "--variant", "pagat", "-k",
               "marker-001*"])  # a glob: s47-marker-001 is another fixture
    out, err = capsys.readouterr()
    # robust-s49: a hello that fails stops the run at once (exit 2), as identify and fuzz
    assert rc == 2 and out == "", out[-500:]
    assert "boom" in err and err.endswith("; nothing was run\n"), err


def test_the_name_bound_leaves_room_for_every_composed_name() -> None:
    # identify writes the composed name of what it found (a base, then every option=value
    # that differs): the longest any shipped base and options can make must load
    import json

    from mtrain.spec.catalog import catalog
    cat = catalog()
    schema = json.loads((Path(__file__).parents[1] / "spec" / "schemas"
                         / "rules.schema.json").read_text(encoding="utf-8"))
    longest = max(len(n) for n in cat.variants) + sum(
        len(f",{o}=") + max(len(v) for v in opt.values) for o, opt in cat.options.items())
    assert 500 < longest <= schema["properties"]["name"]["maxLength"]
