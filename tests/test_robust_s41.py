"""Inputs the earlier robustness rounds let through (robust-s41): each is refused by name,
at its file and line where it has one, never read past nor met with a traceback; and no
command writes its output over a file it reads."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from mtrain.cli import main

CHAIN = Path(__file__).parent.parent / "conformance" / "fixtures" / "chain-doubles" / "chain.yaml"


def refused(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """The last line a refused command prints: exit 2, no traceback."""
    try:
        rc = main(list(args))
    except SystemExit as e:  # argparse: the usage, then the error
        rc = e.code  # type: ignore[assignment]
    out, err = capsys.readouterr()
    assert rc == 2 and "Traceback" not in out + err, (rc, out[-500:], err[-500:])
    return err.strip().splitlines()[-1]


def write(path: Path, text: str) -> str:
    path.write_text(text, encoding="utf-8")
    return str(path)


# --- an output naming an input ----------------------------------------------------------


def test_an_output_that_is_an_input_is_refused_and_the_input_kept(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # `conform --fixtures F --output F` wrote its report over the fixtures, `identify -o`
    # over the adapter's own source, `rules R --out R` over the rule set
    monkeypatch.chdir(tmp_path)
    fixtures = write(tmp_path / "f.yaml", CHAIN.read_text(encoding="utf-8"))
    rules = write(tmp_path / "r.yaml", "name: mine\nbase: pagat\n")
    engine = write(tmp_path / "engine.py", "raise SystemExit(3)\n")
    kept = {p: Path(p).read_bytes() for p in (fixtures, rules, engine)}
    for args, given in [
            (["conform", "--fixtures", fixtures, "--output", "./f.yaml"], "--fixtures"),
            (["conform", "--rules", rules, "--output", rules], "--rules"),
            (["conform", "--impl", f"python3 {engine} -v", "--output", engine], "--impl"),
            (["identify", "--adapter", f"{engine}:Engine", "-o", engine], "--adapter"),
            (["rules", rules, "--out", rules], "the rule set"),
            (["situations", rules, "-n", "1", "--out", rules], "the rule set"),
            (["render", "chaindbl-001", "--fixtures", fixtures, "--out", fixtures],
             "--fixtures"),
            (["state", "chaindbl-001", "--rules", rules, "--out", rules], "--rules")]:
        line = refused(capsys, *args)
        assert line.endswith(f"read as {given}: the output would overwrite it; name another "
                             "file"), line
    assert {p: Path(p).read_bytes() for p in kept} == kept


# --- an output encoding short of characters ---------------------------------------------


@pytest.mark.parametrize("document", [False, True])
def test_an_ascii_standard_output_gets_escapes_in_text_and_utf8_documents(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, document: bool) -> None:
    # PYTHONIOENCODING=ascii (or LC_ALL=C on an old Python): conform's report died of a
    # UnicodeEncodeError at a failure's `é`, its HTML page (as `render`'s SVG) at its first
    # typographic quote
    raw = io.BytesIO()
    out = io.TextIOWrapper(raw, encoding="ascii", write_through=True)
    monkeypatch.setattr(sys, "stdout", out)
    text = CHAIN.read_text(encoding="utf-8").replace(
        "A double inside", "Café: a double inside", 1).replace(
        "legal: [play 5-3 on 0]", "legal: [play 5-3 on mexican]", 1)  # a failure
    fixtures = write(tmp_path / "f.yaml", text)
    assert main(["conform", "--fixtures", fixtures, "-k", "chaindbl-001", "--variant",
                 "pagat", *(["--format", "html"] if document else [])]) == 1
    if document:  # in UTF-8, as the page says it is
        assert "Café: a double inside".encode() in raw.getvalue()
        assert raw.getvalue().rstrip().endswith(b"</html>")
    else:
        assert b"  Caf\\xe9: a double inside" in raw.getvalue(), raw.getvalue()[-600:]
    assert out.errors == "strict"  # the stream is given back as it was


# --- the environment --------------------------------------------------------------------


@pytest.mark.parametrize("variable", ["MTRAIN_SPEC_DATA", "MTRAIN_SHIPPED_SITUATIONS"])
def test_a_folder_named_too_long_by_the_environment_is_said_to_be(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        variable: str) -> None:
    # Path.is_dir raises for a name past NAME_MAX: a traceback from `mtrain variants`
    monkeypatch.setenv(variable, "x" * 300)
    rc = main(["variants"])
    err = capsys.readouterr().err
    assert "File name too long" in err and "Traceback" not in err, err
    assert rc == (2 if variable == "MTRAIN_SPEC_DATA" else 0), err


@pytest.mark.parametrize("said", ["false", "maybe"])
def test_a_result_memo_switch_is_read_or_warned_of(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        said: str) -> None:
    # any word but 0, off or no left the memo on, without a word: `false` among them
    from mtrain.conformance.resultmemo import ResultMemo
    monkeypatch.setenv("MTRAIN_RESULT_MEMO", said)
    assert main(["variants"]) == 0
    err = capsys.readouterr().err
    if said == "false":
        assert not ResultMemo.wanted() and err == ""
    else:
        assert ResultMemo.wanted() and err == (
            "mtrain variants: warning: MTRAIN_RESULT_MEMO=maybe is neither on (1, on, yes, "
            "true) nor off (0, off, no, false): the memo stays on\n"), err


# --- fixtures ---------------------------------------------------------------------------


def test_a_fixture_listing_a_clause_no_rule_has_is_not_run(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # lint said so, but conform ran it green and counted its passes under FIRST-99
    text = CHAIN.read_text(encoding="utf-8").replace(
        "clauses: [FIRST-4, FIRST-1, FIRST-2]",
        "clauses: [FIRST-4,\n            FIRST-99, NOPE-1]", 1)
    path = write(tmp_path / "f.yaml", text)
    line = text.splitlines().index("            FIRST-99, NOPE-1]") + 1
    assert main(["conform", "--fixtures", path, "--variant", "pagat", "-k", "chaindbl-00"]) == 1
    out = capsys.readouterr().out
    assert (f"{path}:{line}: fixture chaindbl-001: unknown clause FIRST-99, NOPE-1: no rule "
            "has that id") in out, out
    assert "FIRST-99 " not in out.split("Per clause", 1)[1], out


# --- in-process adapters ----------------------------------------------------------------


class _Unshowable(Exception):
    def __str__(self) -> str:
        raise ValueError("no text")


class _Code:
    def __repr__(self) -> str:
        raise ValueError("no text")


@pytest.mark.parametrize("fork", [True, False])
def test_an_adapter_raising_what_cannot_be_shown_is_an_error_not_a_dead_worker(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path, fork: bool) -> None:
    # telling it raised in the worker (its __str__, or the exit code's __repr__): the worker
    # died, a crash charged to every call; on a thread, a traceback from the harness
    from mtrain.conformance import inprocess
    if fork and not inprocess.CAN_FORK:
        pytest.skip("worker processes need fork")
    monkeypatch.setattr(inprocess, "CAN_FORK", fork)
    adapter = write(tmp_path / "bad_str_engine.py", f"""
import sys
from mtrain.conformance.adapter import ReferenceImplementation
sys.path.insert(0, {str(Path(__file__).parent)!r})
from test_robust_s41 import _Code, _Unshowable

class Legal(ReferenceImplementation):
    def legal(self, ruleset, state):
        raise _Unshowable()

class Exits(ReferenceImplementation):
    def legal(self, ruleset, state):
        sys.exit(_Code())
""")
    for name, status, said in [
            ("Legal", "error", "the adapter's legal() raised _Unshowable (its message cannot "
             "be shown: ValueError) (at bad_str_engine.py:9)"),
            ("Exits", "crash", "the adapter called exit(<a _Code whose repr raises "
             "ValueError>)")]:
        assert main(["conform", "--adapter", f"{adapter}:{name}", "--variant", "pagat",
                     "--fixtures", str(CHAIN), "-k", "chaindbl-001", "--format", "json"]) == 1
        results = json.loads(capsys.readouterr().out)["results"]
        assert [(r["status"], r["message"]) for r in results] == [(status, said)], results


@pytest.mark.parametrize("field, text", [
    ("description", '"Turns the terminal red \\e[31m from here on"'),
    ("description", '"Reads right to left \\u202e from here on"'),
    ("note", '"Rings the bell \\a and moves on\\nto a second line"')])
def test_a_control_character_in_a_description_or_note_is_refused_at_its_line(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, field: str, text: str) -> None:
    # printed as written by conform's report of a failure: an escape sequence reached the
    # terminal (names and titles of rule sets were refused them in robust-s39)
    lines = CHAIN.read_text(encoding="utf-8").splitlines()
    at = next(i for i, x in enumerate(lines) if x.startswith(f"  {field}: ")) + 1
    lines[at - 1] = f"  {field}: {text}"
    while lines[at].startswith("    "):  # the rest of a folded note
        del lines[at]
    path = write(tmp_path / "f.yaml", "\n".join(lines) + "\n")
    assert main(["lint", "--no-scopes", path]) == 1
    out = capsys.readouterr().out
    assert f"error: {path}:{at}: [0].{field}: " in out and "without control characters" in out, out


def test_a_legal_or_winners_answer_breaking_the_schema_is_not_called_a_state() -> None:
    # "legal: the returned state breaks the schema: actions [...]": a list of actions, or
    # of seats, is the answer's own field; a state is what apply and deal return
    from mtrain.conformance.answers import actions_problems, state_problems, winners_problems
    said = [str(p) for p in [*actions_problems([{"type": "draw"}] * 2),
                             *actions_problems([{"type": "fly"}]), *winners_problems([1, 1])]]
    assert [s.split(":")[0] for s in said] == ["the answer breaks the schema"] * 3, said
    rj = {"name": "x", "options": {}, "hand_sizes": {}}
    assert str(state_problems(rj, {"zzz": 1})[0]).startswith(
        "the returned state breaks the schema: (the whole document) [state.schema.json")


# --- mtrain serve -----------------------------------------------------------------------


def test_serve_refuses_a_rule_set_that_leaves_options_out(capsys: pytest.CaptureFixture[str]
                                                          ) -> None:
    # `options: {}` was played as pagat, every option unsaid taken from the first variant;
    # ruleset.schema.json lets only doubles and match_length be left out
    from mtrain.conformance.serve import Server
    assert main(["state", "chaindbl-001", "--fixtures", str(CHAIN)]) == 0
    request = json.loads(capsys.readouterr().out)
    options = request["ruleset"]["options"]
    server = Server()

    def answer(**changed: Any) -> dict[str, Any]:
        asked = {**request, "ruleset": {**request["ruleset"], **changed}}
        return server.handle(json.dumps(asked).encode())[0]

    for left_out in (("tile_set", "scoring"), tuple(options)):
        said = answer(options={o: v for o, v in options.items() if o not in left_out})
        lacks = ", ".join(o for o in options if o in left_out and o not in (
            "doubles", "match_length"))
        assert said["error"] == {"kind": "bad-request", "message": (
            f"legal: ruleset.options lacks {lacks}: a rule set gives one value for every "
            "option (only doubles and match_length may be left out)")}, said
    later = {o: v for o, v in options.items() if o not in ("doubles", "match_length")}
    assert answer(options=later)["actions"] == [{"type": "play", "tile": "5-3", "train": 0}]
    said = answer(hand_sizes={})["error"]["message"]
    assert said.endswith("but the request's, empty: which is played?"), said


# --- a terminal of width 1 --------------------------------------------------------------


def test_a_terminal_one_column_wide_still_gets_the_tables_content(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # COLUMNS=1: `variants` drew 72 lines of borders and not one name; at any width its
    # cells were cut (`starting_seat=af…`), where a folded cell keeps its text
    monkeypatch.setenv("COLUMNS", "1")
    assert main(["variants"]) == 0
    out = capsys.readouterr().out
    assert "…" not in out and "tile_set" in out and "puremco-d9" in out, out[:400]
    assert max(map(len, out.splitlines())) >= 72


def test_an_entry_that_checks_nothing_is_refused_at_its_line(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # an entry naming its rule sets and nothing to compare ran green: `0 checks within
    # them`, and lint had nothing to say
    text = CHAIN.read_text(encoding="utf-8")
    head = text.split("\n- id: chaindbl-002", 1)[0]
    head = head.replace("      legal: [play 5-3 on 0]\n", "", 1)
    head = head.split("      refused:\n", 1)[0].rstrip("\n") + "\n"
    path = write(tmp_path / "f.yaml", head)
    at = head.splitlines().index("    - variants: [pagat, pagat+wikipedia-doubles]") + 1
    assert main(["conform", "--fixtures", path, "--variant", "pagat"]) == 1
    out = capsys.readouterr().out
    assert (f"{path}:{at}: fixture chaindbl-001: an entry that checks nothing: give it "
            "`legal`, `refused`, `state`, `result`, `winners`, `match_over`, "
            "`blocked_scores` or `refused_setup`") in out, out[-800:]


# --- the command line -------------------------------------------------------------------


@pytest.mark.parametrize("args, said", [
    (["rules", "pagat+blanks-25+blanks-25"],
     "mtrain rules: overlay 'blanks-25' is named twice: an overlay applies once"),
    (["simulate", "--variant", "pagat", "--overlay", "blanks-25", "--overlay", "blanks-25"],
     "mtrain simulate: overlay 'blanks-25' is named twice: an overlay applies once"),
    (["rules", "pagat+"], "mtrain rules: an overlay with no name: a `+` too many?")])
def test_an_overlay_named_twice_or_empty_is_refused(
        capsys: pytest.CaptureFixture[str], args: list[str], said: str) -> None:
    # taken silently (a rule-set file's `overlays` refuses it), and `pagat+` was "unknown
    # overlay ''"
    assert refused(capsys, *args) == said
