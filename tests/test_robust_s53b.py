"""Bad inputs and interrupt paths, round 26 (robust-s53b): the last small messages. A tile
written twice in one hand was "in hand 0 and in hand 0", whatever its spellings; a fixture
copied whole was two errors (its id, its description); a request other than the hello that
timed out said nothing of whether the program had read it; a program that left the
shutdown unanswered (docs/protocol.md: "Answer it, then exit") was not told so."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from command_errors import FAR

from mtrain.cli import main

FIXTURE = """\
- id: mine-001
  description: A fixture of my own, with one fault planted
  clauses: [TRAIN-2]
  source: [pagat]
  table:
    hands:
      0: HAND0
      1: [11-11, 10-0]
    trains:
      0: [12-5]
      1: [12-3]
  expect:
    - variants: [pagat]
      legal: [play 5-3 on 0]
"""


def _errors(capsys: pytest.CaptureFixture[str], path: Path) -> list[str]:
    assert main(["lint", str(path), "--no-scopes"]) == 1
    return [x for x in capsys.readouterr().out.splitlines() if x.startswith("error:")]


@pytest.mark.parametrize("hand, said", [
    ("[5-3, 3-5]", "5-3 is written twice: in hand 0 (as 5-3 and as 3-5)"),
    ("[5-3, 5-3]", "5-3 is written twice: in hand 0 (both times as 5-3)"),
])
def test_a_tile_written_twice_in_one_hand_names_the_hand_once_and_both_spellings(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, hand: str, said: str) -> None:
    # before: "5-3 is written twice: in hand 0 and in hand 0", whichever way it was spelt
    path = tmp_path / "mine.yaml"
    path.write_text(FIXTURE.replace("HAND0", hand), encoding="utf-8")
    assert _errors(capsys, path) == [f"error: {path}:7: mine-001 [pagat]: {said}"]


def test_a_tile_in_two_places_names_both_and_the_spellings(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text(FIXTURE.replace("HAND0", "[5-3, 9-1]").replace("1: [12-3]",
                                                                   "1: [12-3, 3-5]"),
                    encoding="utf-8")
    assert _errors(capsys, path) == [
        f"error: {path}:11: mine-001 [pagat]: 5-3 is written twice: in hand 0 and in train 1 "
        "(as 5-3 and as 3-5)"]


def test_a_fixture_copied_whole_is_one_error(capsys: pytest.CaptureFixture[str],
                                             tmp_path: Path) -> None:
    # before: "id mine-001 is also used at ..." and "mine-001 has the same description as
    # mine-001", two errors for one copy
    text = FIXTURE.replace("HAND0", "[5-3, 9-1]")
    path = tmp_path / "mine.yaml"
    path.write_text(text + text, encoding="utf-8")
    second = text.count("\n") + 1
    assert _errors(capsys, path) == [
        f"error: {path}:{second}: id mine-001 is also used at {path}:1 (with the same "
        "description: a fixture copied whole?)"]


def test_an_id_and_a_description_each_used_before_are_two_errors(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # the id of one fixture, the description of another: two faults, each said
    one = FIXTURE.replace("HAND0", "[5-3, 9-1]")
    two = one.replace("mine-001", "mine-002").replace("with one fault planted", "another")
    three = one.replace("with one fault planted", "another")
    path = tmp_path / "mine.yaml"
    path.write_text(one + two + three, encoding="utf-8")
    third = (one + two).count("\n") + 1
    assert _errors(capsys, path) == [
        f"error: {path}:{third}: id mine-001 is also used at {path}:1",
        f"error: {path}:{third}: mine-001 has the same description as mine-002"]


# --- a request timed out: read or not -------------------------------------------------------

# answers the hello with its own id, then reads nothing more (or reads on, answering
# nothing): a request after it times out at any load
ENGINE = ("IFS= read -r l; id=${l#*'\"id\":'}; id=${id%%,*}; "
          "printf '{\"id\":%s,\"ok\":true,\"protocol\":1,\"name\":\"x\",\"version\":\"1\","
          "\"variants\":[\"*\"]}\\n' \"$id\"; exec sleep " + str(FAR))


def _timed_out(ahead: int = 0) -> str:
    """The timeout of the first request after the hello, `ahead` more written behind it."""
    from mtrain.conformance.process import ImplementationTimeout, ProcessImplementation

    impl = ProcessImplementation(["sh", "-c", ENGINE], timeout=0.05, start_timeout=FAR,
                                 start_attempts=1)  # FAR: a bound on the hello, not a wait
    try:
        impl.start()
        calls = [("winners", {"ruleset": b"{}", "state": b'{"n":%d}' % k})
                 for k in range(1 + ahead)]
        impl.send_ahead(calls)
        with pytest.raises(ImplementationTimeout) as caught:
            impl.call_encoded("winners", ruleset=b"{}", state=b'{"n":0}')
    finally:
        impl.close()
    return str(caught.value)


def test_a_request_never_read_says_so_with_its_id() -> None:
    # before: "no answer to the winners request within 0.05 s; the implementation was
    # killed", and nothing of why
    from mtrain.conformance.protocol import encode_request

    size = len(encode_request(2, "winners", {"ruleset": b"{}", "state": b'{"n":0}'}))
    said = _timed_out()
    assert said.startswith(f"no answer to the winners request within 0.05 s (it has not read "
                           f"the request (id 2): {size} bytes of it are still in its stdin"), said


def test_the_requests_written_behind_a_timed_out_one_are_not_counted_as_its() -> None:
    from mtrain.conformance.protocol import encode_request

    size = len(encode_request(2, "winners", {"ruleset": b"{}", "state": b'{"n":0}'}))
    said = _timed_out(ahead=2)
    assert f"(id 2): {size} bytes of it are still in its stdin" in said, said


def test_a_request_read_and_never_answered_says_it_was_read(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # a program that read the request and works on (or waits for input it will not get):
    # its stdin holds none of it (as `read` would have left it; `sleep` reads nothing)
    from mtrain.conformance.child import ChildProcess

    monkeypatch.setattr(ChildProcess, "stdin_pending", lambda self: 0)
    said = _timed_out()
    assert said.startswith("no answer to the winners request within 0.05 s (it read the "
                           "request (id 2; none of it is left in its stdin) and wrote nothing: "
                           "still working on it, or waiting for input the request does not "
                           "carry; a program this slow needs a longer --timeout)"), said


# --- the shutdown unanswered: a note --------------------------------------------------------

@pytest.mark.parametrize("after, said", [
    ("exit 0", "the implementation ended its output at the shutdown request without "
     "answering it"),
    ("exec sleep " + str(FAR), "the implementation did not answer the shutdown request "
     "within 0.05 s and was killed"),
])
def test_a_shutdown_left_unanswered_is_a_note(after: str, said: str) -> None:
    # before: nothing said; docs/protocol.md asks "Answer it, then exit"
    from mtrain.conformance.process import ProcessImplementation

    engine = ENGINE.replace("exec sleep " + str(FAR), "IFS= read -r l; " + after)
    impl = ProcessImplementation(["sh", "-c", engine], timeout=0.05, start_timeout=FAR,
                                 start_attempts=1)
    impl.start()
    impl.close()
    assert impl.notes == [f"{said} (docs/protocol.md: answer the shutdown, e.g. "
                          '{"id":N,"ok":true}, then exit); a note, no result depends on it']
    assert impl.strays == [] and impl.failures == []


def test_a_shutdown_answered_leaves_no_note() -> None:
    from mtrain.conformance.process import ProcessImplementation

    answers = ENGINE.replace("exec sleep " + str(FAR), "IFS= read -r l; id=${l#*'\"id\":'}; "
                             "id=${id%%,*}; printf '{\"id\":%s,\"ok\":true}\\n' \"$id\"")
    impl = ProcessImplementation(["sh", "-c", answers], timeout=FAR, start_timeout=FAR,
                                 start_attempts=1)  # FAR: bounds, the answer comes first
    impl.start()
    impl.close()
    assert impl.notes == []


def test_the_run_gathers_each_programs_notes_once() -> None:
    # conform's report takes them as warnings (runner.notes): a note per kind, not per job
    from mtrain.conformance.pool import Runner, run_tasks

    class Closed:
        def __init__(self) -> None:
            self.notes: list[str] = []

        def close(self) -> None:
            self.notes = ["the shutdown unanswered"]

    runner = Runner(SimpleNamespace(), SimpleNamespace(), None, [])  # type: ignore[arg-type]
    assert run_tasks([], runner, Closed(), 1) == []  # type: ignore[arg-type]
    assert runner.notes == ["the shutdown unanswered"]


# --- twenty more bad inputs: the ones that were said unclearly ------------------------------

# the sets a message lists as known (options.yaml's order: the named values, then those
# of its `every_double` rule), and how it says them where they run without a gap
KNOWN_SETS = ("known: double-12, double-9, double-6, double-10, double-15, double-18, "
              "double-8, double-16, double-7, double-11, double-13, double-14, double-17")
EVERY_SET = "every double-N set from double-6 to double-18"


def _refused(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """The last line a refused command prints: exit 2, nothing on stdout, no traceback."""
    try:
        rc = main(list(args))
    except SystemExit as e:  # argparse: the usage, then the error
        rc = e.code  # type: ignore[assignment]
    out, err = capsys.readouterr()
    assert rc == 2 and out == "" and "Traceback" not in err, (rc, out, err)
    return err.strip().splitlines()[-1]


@pytest.mark.parametrize("n, beyond", [
    (5, "smaller than any set the suite knows (the smallest is double-6"),
    (19, "larger than any set the suite knows (the largest is double-18"),
])
def test_a_rule_set_file_on_a_set_the_suite_lacks_says_which_it_knows(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, n: int, beyond: str) -> None:
    # before: "unknown value 'double-11' for tile_set; known: ...", and nothing more; every
    # double-N from 6 to 18 is a set since session 55 (SET-1), so the sets lacked are past
    path = tmp_path / "mine.yaml"
    path.write_text(f"name: mine\nbase: pagat\noptions:\n  tile_set: double-{n}\n",
                    encoding="utf-8")
    assert _refused(capsys, "rules", str(path)) == (
        f"mtrain rules: {path}:4: unknown value 'double-{n}' for tile_set; {KNOWN_SETS}"
        f"; double-{n} is {beyond}; it knows {EVERY_SET})")


WRITE_ONE = ("; double-{n} is a tile set, not a rule set: a rule-set file names it (base: a "
             "variant; options: tile_set: double-{n}, and hand_sizes: {{players: tiles}} where "
             "no published table is its own)")


@pytest.mark.parametrize("name, start", [
    # (double-11 has a rule-set file since session 63: double-15 has none)
    ("double-15", "mtrain rules: unknown variant 'double-15'; known: pagat, puremco, "
     "puremco-d9 (and the rule-set files double-10, double-11, double-13, double-14, "
     "double-16, double-17, double-18, double-6, double-7, double-8)"),
    ("pagat+double-13", "mtrain rules: unknown overlay 'double-13'; known: "),
])
def test_a_rule_set_named_for_a_set_says_a_file_names_it(
        capsys: pytest.CaptureFixture[str], name: str, start: str) -> None:
    said = _refused(capsys, "rules", name)
    assert said.startswith(start) and said.endswith(WRITE_ONE.format(n=name[-2:])), said


def test_another_unknown_rule_set_name_is_not_taken_for_a_set() -> None:
    from mtrain.spec.tilesets import set_not_known

    assert [set_not_known(x) for x in ("double-12", "double-12x", "pagat", 11)] == [""] * 4
    # past the largest set, adding it to options.yaml is no way forward: not offered
    past = set_not_known("double-99")
    assert past.startswith("; double-99 is larger than any set the suite knows (the "
                           "largest is double-18;") and "to add" not in past


@pytest.mark.parametrize("clauses, said", [
    ("[TRAIN-99]", "unknown clause TRAIN-99: no rule has that id; the TRAIN clauses: TRAIN-1, "
     "TRAIN-2, TRAIN-3, TRAIN-4, TRAIN-5, TRAIN-6, TRAIN-7"),
    ("[TRAIN-02]", "unknown clause TRAIN-02: no rule has that id; TRAIN-02: write TRAIN-2, "
     "without the leading zero"),
    ("[WIN-1, NOPE-2]", "unknown clause WIN-1, NOPE-2: no rule has that id; no group WIN: the "
     "groups are SET, DEAL, ENG, SEAT, TRAIN, TURN, FIRST, DBL, MARK, END, SCORE, MATCH; no "
     "group NOPE: the groups are SET, DEAL, ENG, SEAT, TRAIN, TURN, FIRST, DBL, MARK, END, "
     "SCORE, MATCH"),
])
def test_a_clause_id_no_rule_has_names_the_ids_meant(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, clauses: str, said: str) -> None:
    # before: "unknown clause TRAIN-99: no rule has that id", and which are was left out
    path = tmp_path / "mine.yaml"
    path.write_text(FIXTURE.replace("HAND0", "[5-3, 9-1]").replace("[TRAIN-2]", clauses),
                    encoding="utf-8")
    assert _errors(capsys, path) == [f"error: {path}:3: fixture mine-001: {said}"]


def test_a_clause_id_in_lower_case_is_told_its_capitals(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text(FIXTURE.replace("HAND0", "[5-3, 9-1]").replace("[TRAIN-2]", "[train-2]"),
                    encoding="utf-8")
    assert _errors(capsys, path) == [
        f"error: {path}:3: [0].clauses[0]: 'train-2' is not a clause id, written in capitals, "
        "a hyphen and a number (as TURN-1) (in capitals, 'TRAIN-2', it is)"]


@pytest.mark.parametrize("word", ["--count", "--count=3", "--COUNT"])
def test_an_option_named_by_its_placeholder_is_told_the_option(
        capsys: pytest.CaptureFixture[str], word: str) -> None:
    # `-n COUNT` read as --count: "did you mean --out?"
    said = _refused(capsys, "situations", "pagat", word)
    assert said == (f"mtrain situations: error: unrecognized arguments: {word} (did you mean "
                    "-n COUNT?) (see 'mtrain situations --help')"), said


def test_docs_checked_in_a_folder_that_does_not_exist_is_one_line(
        capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    # before: 2,178 lines "stale: nope/rules/TURN-1.md", ..., one per page it would write
    from mtrain import docgen

    pages = {f"rules/TURN-{k}.md": "a page\n" for k in range(1, 8)}  # not generated: cheap
    monkeypatch.setattr(docgen, "generate", lambda out, compute, log: pages)
    nope = tmp_path / "nope"
    assert main(["docs", "--check", "--out", str(nope)]) == 1
    out, err = capsys.readouterr()
    assert (out, err) == (f"stale: {nope}: no such folder, so every generated file is missing "
                          f"(the docs folder misspelt? `mtrain docs --out {nope}` writes "
                          "them)\n7 generated files, 8 stale; run `mtrain docs` to rebuild\n",
                          "")
    assert not nope.exists()


@pytest.mark.parametrize("word", ["INV-ROUND-SCORE", "inv-round-score"])
def test_explain_told_an_invariants_id_says_it_is_one(capsys: pytest.CaptureFixture[str],
                                                      word: str) -> None:
    # before: "unknown clause 'INV-ROUND-SCORE'; a clause id is a group and a number", of
    # an id a failure's message had just printed
    assert _refused(capsys, "explain", word) == (
        "mtrain explain: INV-ROUND-SCORE is an invariant (spec/data/invariants.yaml: a truth "
        "of every state), not a clause: `mtrain explain` shows the rules' clauses; the "
        "invariant's text is in that file")
