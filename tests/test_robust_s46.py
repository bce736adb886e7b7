"""Inputs the earlier robustness rounds let through (robust-s46): `mtrain lint` said one
illegal step once per region of the option space its entry's scope crosses (83 errors for
one `play 5-1 on 0` the rules refuse); a rule-set file's `title: ""` or `"   "` and a
blank `name: "   "` loaded (the report's table then had a rule set with no name); `rest`
written before a tile in the boneyard went to its end all the same (the tile written
after it was drawn first, unsaid) and `rest` written twice in one place gave it two
shares of the leftover tiles; an entry naming one play both ways round in `legal`, or in
`refused` with two clauses (the last kept, the other dropped unsaid), or as both legal and
refused, loaded; an answer spread over lines (pretty-printed JSON) was called "not JSON"
with no word of why; `hand_sizes: "custom:double-10"` (lint's name for a file's table)
was told only the schema's pattern for names; a skip entry's `variant: nosuch` was said
only to match no fixture; a repeated tile in an answer's boneyard was told by the whole
boneyard, cut before the tile."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from mtrain.cli import main

# seat 0 holds [8-3, 5-1], nothing fits: it draws [4-0] (the boneyard's first), which fits
# its own train's 4 (TURN-2, TURN-3)
FIXTURE = """\
- id: own-001
  description: "Draw, then the drawn tile fits the own train"
  clauses: [TURN-1, TURN-2, TURN-3]
  source: [pagat]
  table:
    engine: 9
    hands:
      0: [8-3, 5-1]
      1: {hand1}
      2: [8-1, 2-2]
    trains:
      0: [9-4]
      1: [9-6]
      2: [9-2]
      mexican: [9-7]
    boneyard: {boneyard}
  steps: [{steps}]
  expect:
    - variants: [pagat]
{when}      legal: {legal}
      refused:
        pass: TURN-1
{refused}"""


def fixture(tmp_path: Path, hand1: str = "[5-5, 3-1]", boneyard: str = "[4-0, rest]",
            steps: str = "draw", when: str = "", legal: str = "[play 4-0 on 0]",
            refused: str = "") -> str:
    path = tmp_path / "own.yaml"
    path.write_text(FIXTURE.format(hand1=hand1, boneyard=boneyard, steps=steps, when=when,
                                   legal=legal, refused=refused), encoding="utf-8")
    return str(path)


def write(path: Path, text: str) -> str:
    path.write_text(text, encoding="utf-8")
    return str(path)


def lint_errors(capsys: pytest.CaptureFixture[str], *args: str) -> list[str]:
    assert main(["lint", *args]) == 1
    return [x for x in capsys.readouterr().out.splitlines() if x.startswith("error: ")]


# --- lint: one fault across the regions of a scope is said once -----------------------------


def test_one_illegal_step_across_a_wide_scope_is_one_error_with_its_regions_counted(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # seat 0's train ends on 4: 5-1 fits it under no rule (TRAIN-2), so the entry fails
    # alike in every region of its scope; lint said so once per region (83 lines for a
    # scope of every option value, 11 for this one)
    path = fixture(tmp_path, steps="play 5-1 on 0",
                   when="      when: {tile_set: [double-12, double-15], match_length: [full]}\n")
    (error,) = lint_errors(capsys, path)
    regions = re.search(r"does not hold in (\d+) regions of its scope, all within "
                        r"tile_set in \{double-12, double-15\}, match_length=full; e\.g\. where "
                        r"tile_set=double-12, ", error)
    assert regions and int(regions.group(1)) > 1, error
    assert error.endswith("step 1 `play 5-1 on 0` was refused: 5-1 does not match the open "
                          "end 4 of seat 0's train [TRAIN-2]; the state before it is the "
                          "fixture's table; it offers there: draw"), error


def test_a_fault_in_one_region_is_still_said_where_it_is(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = fixture(tmp_path, steps="play 5-1 on 0")
    (error,) = lint_errors(capsys, path)
    assert ":19: own-001 entry 1 does not hold where tile_set=double-12, hand_sizes=pagat, " \
        in error and " regions of its scope" not in error, error


# --- a rule-set file's name and title are not blank -------------------------------------------


@pytest.mark.parametrize("text, said", [
    ('name: own\ntitle: ""\nbase: pagat\n', "2: title: '' is empty; expected a title on one "
     "line, not blank (leave the key out for none), without control characters (nor "
     "invisible or direction-changing ones)"),
    ('name: own\ntitle: "   "\nbase: pagat\n', "2: title: '   ' is not a title on one line, "
     "not blank (leave the key out for none), without control characters (nor invisible or "
     "direction-changing ones)"),
    # the report's table of rule sets had a row with no name
    ('name: "   "\nbase: pagat\n', "1: name: '   ' is not a name on one line, not blank, "
     "without control characters (nor invisible or direction-changing ones) or `+`")])
def test_a_blank_name_or_title_in_a_rule_set_file_is_refused(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str, said: str) -> None:
    path = write(tmp_path / "own.yaml", text)
    assert main(["rules", path]) == 2
    assert capsys.readouterr().err == f"mtrain rules: {path}:{said}\n"


def test_a_name_and_title_with_spaces_inside_still_load(tmp_path: Path) -> None:
    from mtrain.spec.catalog import catalog

    path = write(tmp_path / "own.yaml", 'name: my own\ntitle: " spaced "\nbase: pagat\n')
    assert catalog().rules_file(path).name == "my own"


# --- `rest`: last in the boneyard, once in a place --------------------------------------------


@pytest.mark.parametrize("hand1, boneyard, line, said", [
    # [4-0] was drawn first all the same: `rest` goes to the end of its place
    ("[5-5, 3-1]", "[rest, 4-0]", 16, "`rest` in the boneyard stands for the leftover tiles "
     "at its end, drawn last: write it last (here 4-0 after it would be drawn before them)"),
    ("[5-5, 3-1]", "[4-0, rest, rest]", 16, "`rest` is written twice in the boneyard: once "
     "stands for every leftover tile it holds"),
    # hand 1 was given two shares of the leftovers, the boneyard one
    ("[5-5, rest, 3-1, rest]", "[4-0, rest]", 9, "`rest` is written twice in hand 1: once "
     "stands for every leftover tile it holds")])
def test_rest_is_written_once_in_a_place_and_last_in_the_boneyard(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, hand1: str, boneyard: str,
        line: int, said: str) -> None:
    path = fixture(tmp_path, hand1=hand1, boneyard=boneyard)
    assert lint_errors(capsys, "--no-scopes", path) == [
        f"error: {path}:{line}: own-001 [pagat]: {said}"]


def test_rest_in_several_places_once_each_still_loads(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = fixture(tmp_path, hand1="[5-5, 3-1, rest]")
    assert main(["lint", "--no-scopes", path]) == 0, capsys.readouterr().out


# --- an entry names each action once ----------------------------------------------------------


@pytest.mark.parametrize("legal, refused, line, said", [
    ("[play 0-4 on 0, play 4-0 on 0]", "", 20, "legal: `play 4-0 on 0` is `play 0-4 on 0` "
     "again (a tile is one tile either end first): list each action once"),
    # the entry kept TURN-3 and dropped TRAIN-2, unsaid
    ("[play 4-0 on 0]", "        play 5-1 on 0: TRAIN-2\n        play 1-5 on 0: TURN-3\n", 24,
     "refused: `play 1-5 on 0` is `play 5-1 on 0` again (a tile is one tile either end "
     "first): give each action once"),
    # lint charged it to the rules ("was accepted; the rules refuse it (TURN-3)"), lint
    # --no-scopes passed it: no implementation could pass it
    ("[play 4-0 on 0]", "        play 0-4 on 0: TURN-3\n", 23, "refused: `play 0-4 on 0` is "
     "listed in `legal` too: an action is legal or refused, not both")])
def test_an_entry_naming_one_action_twice_or_both_ways_is_refused_at_its_line(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, legal: str, refused: str,
        line: int, said: str) -> None:
    path = fixture(tmp_path, legal=legal, refused=refused)
    assert lint_errors(capsys, "--no-scopes", path) == [
        f"error: {path}:{line}: fixture own-001: {said}"]


# --- an answer spread over lines -----------------------------------------------------------------

PRETTY = """
import json, sys
from mtrain.conformance.serve import Server

server = Server()
for n, line in enumerate(sys.stdin, 1):
    answer, stop = server.handle(line)
    sys.stdout.write(json.dumps(answer, indent=1 if n > 1 else None) + "\\n")
    sys.stdout.flush()
    if stop:
        break
"""


@pytest.mark.slow  # plays an engine
def test_an_answer_spread_over_lines_is_said_to_be(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # "the answer to the legal request is not JSON (Expecting property name enclosed in
    # double quotes at character 2): '{'; the implementation was killed", and no word why
    impl = f"{sys.executable} {write(tmp_path / 'pretty.py', PRETTY)}"
    code = main(["conform", "--impl", impl, "--variant", "pagat", "-k", "turn-008",
                 "--situations", "0", "--timeout", "60", "--format", "json"])
    (result,) = json.loads(capsys.readouterr().out)["results"]
    assert (code, result["status"]) == (1, "error")
    assert result["message"].endswith(
        "is not JSON (Expecting property name enclosed in double quotes at character 2): '{' "
        "(an answer is one JSON object on one line: this one looks spread over several, as "
        "pretty-printed JSON is); the implementation was killed"), result["message"]


# --- a file in UTF-16 or UTF-32 -------------------------------------------------------------


@pytest.mark.parametrize("encoding, byte, wide", [
    ("utf-16", "0xff", "UTF-16"), ("utf-32", "0xff", "UTF-32")])
def test_a_file_saved_as_utf16_or_utf32_is_said_to_be(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, encoding: str, byte: str,
        wide: str) -> None:
    # "not valid UTF-8 (byte 0xff)", of a file the editor called "Unicode"
    path = tmp_path / "own.yaml"
    path.write_bytes("name: own\nbase: pagat\n".encode(encoding))
    assert main(["rules", str(path)]) == 2
    assert capsys.readouterr().err == (
        f"mtrain rules: {path}:1: not valid UTF-8 (byte {byte}); it begins with a {wide} "
        "byte order mark: save it as UTF-8\n")


def test_a_bad_byte_past_the_start_is_not_called_a_byte_order_mark(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "own.yaml"
    path.write_bytes(b"name: own\ntitle: \xff\xfe\nbase: pagat\n")
    assert main(["rules", str(path)]) == 2
    assert capsys.readouterr().err == f"mtrain rules: {path}:2: not valid UTF-8 (byte 0xff)\n"


# --- a skip file ---------------------------------------------------------------------------------


@pytest.mark.parametrize("entries, said", [
    # the second reason was never shown: the first entry took the failure
    ("- {fixture: own-001, reason: one}\n- {fixture: own-001, reason: two}\n",
     ":2: entry 2: own-001 is listed already (entry 1): list a known failure once"),
    ("- {fixture: own-001, variant: pagat, reason: one}\n"
     "- {fixture: own-001, variant: pagat, reason: two}\n",
     ":2: entry 2: own-001 under pagat is listed already (entry 1): list a known failure once"),
    # "'fixture' (a fixture id) is required", of an entry that gives it
    ("- {fixture: 5, reason: one}\n", ":1: entry 1: 'fixture' must be a fixture id (text), "
     "got 5")])
def test_a_skip_file_listing_a_failure_twice_or_a_number_is_refused(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, entries: str, said: str) -> None:
    skip = write(tmp_path / "skip.yaml", entries)
    assert main(["conform", "--fixtures", fixture(tmp_path), "--variant", "pagat",
                 "--skip", skip]) == 2
    assert capsys.readouterr().err == f"mtrain conform: --skip {skip}{said}\n"


def test_a_skip_file_naming_one_fixture_under_two_rule_sets_is_taken(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    skip = write(tmp_path / "skip.yaml", "- {fixture: own-001, variant: pagat, reason: a}\n"
                 "- {fixture: own-001, variant: puremco, reason: b}\n")
    assert main(["conform", "--fixtures", fixture(tmp_path), "--variant", "pagat",
                 "--skip", skip]) == 0, capsys.readouterr()


# --- an expectation no answer could meet ---------------------------------------------------------


@pytest.mark.parametrize("written, line, said", [
    # each failed under every implementation ("winners: expected [0, 0], got []"): an
    # answer lists each seat or train once (state.schema.json, protocol.schema.json)
    ("      winners: [0, 0]\n", 20, "[0].expect[0].winners: 0 is listed twice (list each once)"),
    ("      state: {marked: [0, 0]}\n", 20,
     "[0].expect[0].state.marked: 0 is listed twice (list each once)"),
    ("      state: {open_doubles: [1, 1]}\n", 20,
     "[0].expect[0].state.open_doubles: 1 is listed twice (list each once)"),
    ("      state: {turn_doubles: [mexican, mexican]}\n", 20, "[0].expect[0].state."
     "turn_doubles: 'mexican' is listed twice (list each once)"),
    ("      state: {first_turns: [2, 2]}\n", 20,
     "[0].expect[0].state.first_turns: 2 is listed twice (list each once)"),
    ("      state: {boneyard: [4-0, 4-0]}\n", 20,
     "[0].expect[0].state.boneyard: '4-0' is listed twice (list each once)"),
    # no engine is numbered 19, no boneyard holds -1 tiles
    ("      state: {engine: 19}\n", 20,
     "[0].expect[0].state.engine: 19 is greater than the maximum of 18"),
    ("      state: {boneyard_size: -1}\n", 20,
     "[0].expect[0].state.boneyard_size: -1 is less than the minimum of 0")])
def test_an_expected_repeat_or_a_number_no_state_has_is_refused_at_its_line(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, written: str, line: int,
        said: str) -> None:
    path = fixture(tmp_path, when=written)
    assert lint_errors(capsys, "--no-scopes", path) == [f"error: {path}:{line}: {said}"]


# --- a deal's totals, one per seat ---------------------------------------------------------------

DEAL = """\
- id: own-001
  description: "A deal of four players, sorted order, pagat hands"
  clauses: [DEAL-1, DEAL-2]
  source: [pagat]
  deal: {{players: 4, order: sorted, {totals}}}
  expect:
    - variants: [pagat]
      state: {{hand_sizes: [15, 15, 15, 15], engine: 12}}
"""


@pytest.mark.parametrize("totals, said", [
    # passed lint, and the implementation was sent totals for two seats of four; a table's
    # were refused ("scores: 1 numbers for 3 seats")
    ("scores: [1, 2]", "deal.scores: 2 numbers for 4 seats"),
    ("outs: [0, 0, 0, 0, 1]", "deal.outs: 5 numbers for 4 seats")])
def test_a_deals_totals_for_other_seats_than_it_deals_are_refused_at_their_line(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, totals: str, said: str) -> None:
    path = write(tmp_path / "own.yaml", DEAL.format(totals=totals))
    assert lint_errors(capsys, "--no-scopes", path) == [
        f"error: {path}:5: fixture own-001: {said}"]


def test_a_deals_totals_one_per_seat_still_load(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = write(tmp_path / "own.yaml", DEAL.format(totals="scores: [1, 2, 3, 4]"))
    assert main(["lint", "--no-scopes", path]) == 0, capsys.readouterr().out


# --- an empty expectation checks nothing -----------------------------------------------------


@pytest.mark.parametrize("written, line, said", [
    # each loaded and compared nothing, beside the entry's other checks
    ("      state: {}\n", 20, "[0].expect[0].state: is empty; it needs at least one of "
     "boneyard, boneyard_size, drawn, engine, engine_placed, first_turns, hand_sizes, hands, "
     "marked, open_doubles, outs, passes, phase, scores, seat, starter, trains, turn_doubles"),
    ("      state: {hands: {}}\n", 20, "[0].expect[0].state.hands: {} should be non-empty"),
    ("      state: {trains: {}}\n", 20, "[0].expect[0].state.trains: {} should be non-empty")])
def test_an_empty_expected_state_is_refused_at_its_line(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, written: str, line: int,
        said: str) -> None:
    path = fixture(tmp_path, when=written)
    assert lint_errors(capsys, "--no-scopes", path) == [f"error: {path}:{line}: {said}"]


def test_an_empty_refused_is_refused_at_its_line(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = write(tmp_path / "own.yaml", FIXTURE.format(
        hand1="[5-5, 3-1]", boneyard="[4-0, rest]", steps="draw", when="",
        legal="[play 4-0 on 0]", refused="").replace("      refused:\n        pass: TURN-1\n",
                                                    "      refused: {}\n"))
    assert lint_errors(capsys, "--no-scopes", path) == [
        f"error: {path}:21: [0].expect[0].refused: {{}} should be non-empty"]


# --- a fixture's own rule-set file, named wrong --------------------------------------------------

HOUSE = "name: house\nbase: pagat\noptions:\n  hand_sizes: {2: 15, 3: 15, 4: 15}\n"


@pytest.mark.parametrize("variants, said", [
    # "house is a rule-set file (spec/data/rulesets/)": it is the fixture's own, beside it
    ("[house+blanks-25]", "house is a rule-set file ({rules}): it takes no overlays"),
    # "known: pagat, puremco, puremco-d9", where the file the fixture names is known too
    ("[houses]", "unknown variant 'houses'; known: pagat, puremco, puremco-d9 (and the "
     "rule-set files double-10, double-11, double-13, double-14, double-16, double-17,"
     " double-18, double-6, double-7, double-8, house)")])
def test_a_fixtures_own_rule_set_named_wrong_is_told_what_it_names(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, variants: str, said: str) -> None:
    from mtrain.spec.catalog import catalog

    rules = write(tmp_path / "house.yaml", HOUSE)
    path = write(tmp_path / "own.yaml", FIXTURE.format(
        hand1="[5-5, 3-1]", boneyard="[4-0, rest]", steps="draw", when="",
        legal="[play 4-0 on 0]", refused="").replace(
            "  source: [pagat]\n", "  source: [pagat]\n  rules: house.yaml\n").replace(
            "    - variants: [pagat]\n", f"    - variants: {variants}\n"))
    try:
        assert lint_errors(capsys, "--no-scopes", path) == [
            f"error: {path}:20: fixture own-001: {said.format(rules=rules)}"]
    finally:
        catalog().forget_added_examples()


# --- the Markdown report: no one's markup ------------------------------------------------------

HOSTILE = """
import json, sys
from mtrain.conformance.serve import Server

server = Server()
for line in sys.stdin:
    answer, stop = server.handle(line)
    if json.loads(line)["type"] == "legal":
        sys.stderr.write("```\\n# All passed <b>here</b>\\n")
        sys.stderr.flush()
        answer = {"id": answer["id"], "ok": False,
                  "error": {"kind": "internal", "message": "<img src=x onerror=alert(1)>"}}
    sys.stdout.write(json.dumps(answer) + "\\n")
    sys.stdout.flush()
    if stop:
        break
"""


@pytest.mark.slow  # plays an engine
def test_the_markdown_report_renders_no_markup_of_an_implementation_or_a_fixture(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # the message's <img>, the description's <script> went into the page as tags, and the
    # stderr's ``` closed the report's fence: its "# All passed" was a heading of the page
    impl = f"{sys.executable} {write(tmp_path / 'hostile.py', HOSTILE)}"
    path = write(tmp_path / "own.yaml", FIXTURE.format(
        hand1="[5-5, 3-1]", boneyard="[4-0, rest]", steps="draw", when="",
        legal="[play 4-0 on 0]", refused="").replace(
            '"Draw, then the drawn tile fits the own train"', '"<script>x</script> & so on"'))
    assert main(["conform", "--impl", impl, "--fixtures", path, "--variant", "pagat",
                 "--timeout", "60", "--format", "markdown"]) == 1
    page = capsys.readouterr().out
    assert "<img" not in page and "<script>" not in page, page
    assert "\n&lt;script&gt;x&lt;/script&gt; &amp; so on\n" in page, page
    assert "(internal): &lt;img src=x onerror=alert(1)&gt;" in page, page
    block = page.split("stderr (last lines):\n\n", 1)[1]
    fence, rest = block.split("\n", 1)
    # inside a fence longer than its own ```: code, shown as written, no heading
    assert fence == "````" and rest.startswith("```\n# All passed <b>here</b>\n````\n"), page


# --- a hello naming a rule set there is not --------------------------------------------------

NAMES = """
import json, sys
from mtrain.conformance.serve import Server

server = Server()
for line in sys.stdin:
    answer, stop = server.handle(line)
    if "protocol" in answer:
        answer["variants"] = json.loads(sys.argv[1])
    sys.stdout.write(json.dumps(answer) + "\\n")
    sys.stdout.flush()
    if stop:
        break
"""


@pytest.mark.slow  # plays an engine
@pytest.mark.parametrize("variants, warned", [
    # before: "nothing ran: all 7 results are not applicable: the implementation supports
    # Pagat (7)", and no word that no rule set is called so
    (["Pagat"], ["Pagat"]),
    (["nosuch", "pagat*", "puremco+blanks-25"], ["nosuch"]),  # a pattern is left alone
    (["pagat", "puremco-d9"], [])])
def test_a_hello_naming_a_rule_set_there_is_not_is_warned_of(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, variants: list[str],
        warned: list[str]) -> None:
    import shlex

    impl = shlex.join([sys.executable, write(tmp_path / "names.py", NAMES),
                       json.dumps(variants)])
    main(["conform", "--impl", impl, "--fixtures", fixture(tmp_path), "--timeout", "60",
          "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    assert [w for w in report["warnings"] if w.startswith("the hello's variants")] == [
        f"the hello's variants name '{n}', which is no rule set here (unknown variant "
        f"'{n}'{HINTS.get(n, '')}; known: pagat, puremco, puremco-d9 (and the rule-set "
        "files double-10, double-11, double-13, double-14, double-16, double-17,"
        " double-18, double-6, double-7, double-8)): nothing is run under it"
        for n in warned]


HINTS = {"Pagat": " (did you mean 'pagat'? names are in lower case, with no spaces at their "
                  "ends)"}
"""A name written in capitals is told the name it stands for (tests/test_robust_s49.py)."""


# --- a repeatable rule-set option, given empty or twice ----------------------------------------


@pytest.mark.parametrize("args, said", [
    # "--rules : is a folder, not a file": the empty path was the working folder
    (["conform", "--rules", ""], "argument --rules: an empty value (an unset shell "
     "variable?); give one, or leave --rules out"),
    (["fuzz", "--variant", " "], "argument --variant: an empty value (an unset shell "
     "variable?); give one, or leave --variant out"),
    # every fixture ran twice under pagat, each result counted twice
    (["conform", "--variant", "pagat", "--variant", "pagat"], "argument --variant: pagat is "
     "given twice: each rule set is run once; give it once"),
    (["fuzz", "--rules", "own.yaml", "--rules", "own.yaml"], "argument --rules: own.yaml is "
     "given twice: each rule set is run once; give it once")])
def test_a_rule_set_option_given_empty_or_twice_is_refused(
        capsys: pytest.CaptureFixture[str], args: list[str], said: str) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(args)
    assert exit_.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"mtrain {args[0]}: error: {said} (see 'mtrain {args[0]} --help')")


def test_two_rule_sets_named_once_each_still_run(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["conform", "--fixtures", fixture(tmp_path), "--variant", "pagat",
                 "--variant", "puremco", "--format", "json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["results"]) == 1  # it speaks of pagat


# --- the first round's leftovers -----------------------------------------------------------------


def test_an_empty_when_is_every_rule_set_and_lint_says_where_it_fails(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # `when: {}` is documented (docs/fixture-format.md) as every rule set, and written so
    # by --write-scopes for an entry that holds under all of them: no typo to refuse, and
    # no silent one either, since the scope check plays it everywhere and says where it
    # fails (on a double-8 set there is no engine [9-9], SET-1)
    path = fixture(tmp_path, when="      when: {}\n")
    errors = lint_errors(capsys, path)
    assert any(e.startswith(f"error: {path}:19: own-001 entry 1 does not hold where "
                            "tile_set=double-8 ")
               and e.endswith(f"engine [9-9] is not in a double-8 set (at {path}:6)")
               for e in errors), errors


@pytest.mark.parametrize("value, said", [
    # "options.hand_sizes: 'custom:double-10' does not match the pattern ^[a-z0-9][a-z0-9-]*$"
    ('"custom:double-10"', "hand_sizes 'custom:double-10' is how lint's scope check names "
     "the table of the rule-set file double-10; a rule-set file writes its table itself"),
    ('"Double 10"', "unknown value 'Double 10' for hand_sizes")])
def test_a_hand_table_named_as_lint_names_it_is_told_what_is_allowed(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, value: str, said: str) -> None:
    path = write(tmp_path / "own.yaml", "name: own\nbase: puremco\noptions:\n  tile_set: "
                 f"double-10\n  hand_sizes: {value}\n")
    assert main(["rules", path]) == 2
    assert capsys.readouterr().err == (
        f"mtrain rules: {path}:5: {said}; known: pagat, puremco-d12, puremco-d9, cardinal, "
        "fundex, ourpastimes-d15, celko-d6, celko-d9, celko-d15, goodsam, hathaway (or a "
        "table of one's own, players: tiles, as `hand_sizes: {2: 15, 3: 13}`)\n")


def test_a_value_that_is_no_name_is_an_unknown_value_of_its_option(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = write(tmp_path / "own.yaml", 'name: own\nbase: pagat\noptions:\n  tile_set: '
                 '"Double 12"\n')
    assert main(["rules", path]) == 2
    assert capsys.readouterr().err == (
        f"mtrain rules: {path}:4: unknown value 'Double 12' for tile_set; known: double-12, "
        "double-9, double-6, double-10, double-15, double-18, double-8, double-16, double-7, "
        "double-11, double-13, double-14, double-17\n")


@pytest.mark.parametrize("variant, said", [
    # only "skip entry own-001 [nosuch] matches no selected fixture"
    ("nosuch", "no variant or rule-set file is named 'nosuch' (variants: pagat, puremco, "
     "puremco-d9; rule-set files: double-10, double-11, double-13, double-14, double-16, "
     "double-17, double-18, double-6, double-7, double-8)"),
    ("pagat+blanks-52", "no overlay is named 'blanks-52' (overlays: after-engine-start, "),
    ("double-10+blanks-25", "double-10 is a rule-set file, which takes no overlays")])
def test_a_skip_entry_naming_no_rule_set_is_warned_of_at_its_line(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, variant: str, said: str) -> None:
    skip = write(tmp_path / "skip.yaml", "- {fixture: own-001, reason: a}\n"
                 f"- fixture: own-*\n  variant: {variant}\n  reason: b\n")
    assert main(["conform", "--fixtures", fixture(tmp_path), "--variant", "pagat",
                 "--skip", skip]) == 0
    out = capsys.readouterr().out
    (warning,) = [x for x in out.splitlines() if "skip" in x and "entry 2" in x]
    assert warning.startswith(f"warning: --skip {skip}:2: entry 2: variant '{variant}' is no "
                              f"rule set: {said}"), warning
    assert warning.endswith(", nor does this run play one of that name: the entry skips "
                            "nothing"), warning
    assert "matches no selected fixture" not in out


@pytest.mark.parametrize("variant", ["puremco", "pagat+blanks-25", "double-10", "pur*"])
def test_a_skip_entry_naming_a_rule_set_this_run_does_not_play_is_no_typo(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, variant: str) -> None:
    skip = write(tmp_path / "skip.yaml", f"- {{fixture: own-001, variant: '{variant}', "
                 "reason: b}\n")
    assert main(["conform", "--fixtures", fixture(tmp_path), "--variant", "pagat",
                 "--skip", skip]) == 0
    assert f"warning: skip entry own-001 [{variant}] matches no selected fixture" in (
        capsys.readouterr().out)


def test_an_answers_repeated_tile_is_named_not_its_list_quoted() -> None:
    from mtrain.conformance.adapter import ruleset_json
    from mtrain.conformance.answers import state_problems
    from mtrain.reference import codec
    from mtrain.reference.deal import deal
    from mtrain.reference.rules import Rules
    from mtrain.spec.catalog import catalog

    rs = catalog().ruleset("pagat")
    state = codec.state_to_json(deal(Rules.of(rs), 4, 1, seed=3))
    state["boneyard"].append(state["boneyard"][5])
    (problem,) = state_problems(ruleset_json(rs), state)
    # the whole boneyard, cut at 200 characters, was the message: the tile was not in it
    assert str(problem) == (
        "the returned state breaks the schema: boneyard [state.schema.json#/properties/"
        f'boneyard/uniqueItems]: "{state["boneyard"][5]}" is listed twice (again at '
        f"boneyard/{len(state['boneyard']) - 1}; each once)")


# --- more bad inputs: lint's kept scope checks ---------------------------------------------------


def test_a_kept_scope_check_names_the_file_linted_not_the_one_it_was_kept_for(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # the check is kept by the fixture's content: the same fixture in a second file was
    # told "engine [9-9] is not in a double-8 set (at <the first file>:6)"
    when = "      when: {}\n"
    first = fixture(tmp_path, when=when)
    (tmp_path / "moved").mkdir()
    text = "# moved down a line\n" + Path(first).read_text(encoding="utf-8")
    second = write(tmp_path / "moved" / "own.yaml", text)
    for path, table in ((first, 6), (second, 7)):
        errors = [e for e in lint_errors(capsys, path) if "double-8 set" in e]
        assert errors and all(e.endswith(f"(at {path}:{table})") for e in errors), errors


# --- more bad inputs: mtrain state, mtrain serve ---------------------------------------------


@pytest.mark.parametrize("steps, said", [
    # "--steps -1: own-001 has 1 steps": not what is allowed, nor that -1 is no count
    ("-1", "--steps -1: own-001 has 1 step: give 0 (its table) to 1"),
    ("2", "--steps 2: own-001 has 1 step: give 0 (its table) to 1")])
def test_a_step_count_the_fixture_has_not_is_told_what_it_may_be(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, steps: str, said: str) -> None:
    assert main(["state", "own-001", "--fixtures", fixture(tmp_path), "--steps", steps]) == 2
    assert capsys.readouterr().err == f"mtrain state: {said}\n"


@pytest.mark.parametrize("line, said", [
    # "got True", "got False": Python's words for what came as JSON
    ('{"id": true, "type": "hello", "protocol": 1}',
     "request.id must be an integer from 0 to 2^53-1, got true"),
    ('{"id": 7, "type": false}', "request.type must be one of hello, deal, legal, apply, "
     "score, winners, shutdown; got false")])
def test_a_bad_request_to_serve_is_told_in_json_words(line: str, said: str) -> None:
    from mtrain.conformance.serve import Server

    answer, stop = Server().handle(line)
    assert (stop, answer["ok"], answer["error"]["message"]) == (False, False, said)


@pytest.mark.slow  # plays a game
def test_a_known_finding_naming_no_rule_set_is_warned_of_by_fuzz_too(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # as conform's --skip: the entry covered nothing, unsaid
    known = write(tmp_path / "known.yaml", '- {fixture: "allows *", reason: a}\n'
                  '- fixture: "allows *"\n  variant: pagta\n  reason: b\n')
    assert main(["fuzz", "--adapter", "mtrain.conformance.adapter:ReferenceImplementation",
                 "--variant", "pagat", "--games", "1", "--known", known,
                 "--out", str(tmp_path / "out")]) == 0
    assert capsys.readouterr().err.splitlines()[0] == (
        f"warning: --known {known}:2: entry 2: variant 'pagta' is no rule set: no variant or "
        "rule-set file is named 'pagta' (variants: pagat, puremco, puremco-d9; rule-set "
        "files: double-10, double-11, double-13, double-14, double-16, double-17,"
     " double-18, double-6, double-7, double-8), nor does this run play "
        "one of that name: the entry skips nothing")


def test_a_when_value_that_is_no_name_is_told_the_values_there_are(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # "when.tile_set[0]: 'Double-12' does not match the pattern ^[a-z0-9][a-z0-9-]*(:...)?$"
    path = fixture(tmp_path, when="      when: {tile_set: [Double-12]}\n")
    assert lint_errors(capsys, "--no-scopes", path) == [
        f"error: {path}:20: fixture own-001: `when` tile_set: unknown value 'Double-12' "
        "(did you mean 'double-12'? names are in lower case, with no spaces at their ends); "
        "known: double-12, double-9, double-6, double-10, double-15, double-18, double-8, "
        "double-16, double-7, double-11, double-13, double-14, double-17"]


@pytest.mark.parametrize("variant, own", [
    # "variants[0]: 'Pagat' does not match the pattern ^[a-z0-9-]+(\+[a-z0-9-]+)*$"
    ("Pagat", ""), ('"pagat "', ""), ("pagat+Blanks-25", ""),
    ("double-10.yaml", ": a fixture's own rule-set file is given by `rules:` (its path) and "
     "named here by its name")])
def test_a_variant_that_is_no_name_is_told_what_a_fixture_names_there(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, variant: str, own: str) -> None:
    text = Path(fixture(tmp_path)).read_text(encoding="utf-8")
    path = write(tmp_path / "own.yaml",
                 text.replace("variants: [pagat]", f"variants: [{variant}]"))
    assert lint_errors(capsys, "--no-scopes", path) == [
        f"error: {path}:19: [0].expect[0].variants[0]: '{variant.strip(chr(34))}' is no rule "
        "set's name (a variant, base+overlay+... or a rule-set file's name, in lower case; "
        "variants: pagat, puremco, puremco-d9; rule-set files: double-10, double-11, "
        "double-13, double-14, double-16, double-17, double-18, double-6, double-7, "
        f"double-8){own}"]


@pytest.mark.parametrize("old, new, line, said", [
    # "'turn-1' does not match the pattern ^[A-Z]+-[0-9]+$"
    ("clauses: [TURN-1,", "clauses: [turn-1,", 3, "[0].clauses[0]: 'turn-1' is not a clause "
     "id, written in capitals, a hyphen and a number (as TURN-1) (in capitals, 'TURN-1', it "
     "is)"),  # robust-s53b: the capitals said
    ("pass: TURN-1", "pass: turn-1", 22, "[0].expect[0].refused.pass: 'turn-1' is not a clause "
     "id, written in capitals, a hyphen and a number (as TURN-1) (in capitals, 'TURN-1', it "
     "is)"),
    ("id: own-001", "id: Own_001", 1, "[0].id: 'Own_001' is not a fixture id: words in lower "
     "case joined by hyphens, then a hyphen and a number of three digits or more (as own-001)")])
def test_a_clause_or_fixture_id_misspelt_is_told_how_one_is_written(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, old: str, new: str, line: int,
        said: str) -> None:
    text = Path(fixture(tmp_path)).read_text(encoding="utf-8")
    path = write(tmp_path / "own.yaml", text.replace(old, new, 1))
    assert lint_errors(capsys, "--no-scopes", path) == [f"error: {path}:{line}: {said}"]


def test_a_fixtures_rule_set_file_not_found_says_where_it_was_looked_for(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # "rules: house.yaml: file not found", of a file that is in the working folder: it is
    # read from beside the fixture's file
    (tmp_path / "corpus").mkdir()
    text = Path(fixture(tmp_path)).read_text(encoding="utf-8")
    path = write(tmp_path / "corpus" / "own.yaml",
                 text.replace("  description:", "  rules: house.yaml\n  description:", 1))
    assert lint_errors(capsys, "--no-scopes", path) == [
        f"error: {path}:2: fixture own-001: rules: house.yaml: file not found (looked for as "
        f"{tmp_path / 'corpus' / 'house.yaml'}, beside the fixture's file)"]


@pytest.mark.parametrize("clause", ["", "dbl6"])
def test_explain_given_no_clause_id_is_told_how_one_is_written(
        capsys: pytest.CaptureFixture[str], clause: str) -> None:
    # "unknown clause ''" and no more (an unset shell variable, or the hyphen left out)
    assert main(["explain", clause]) == 2
    assert capsys.readouterr().err == (
        f"mtrain explain: unknown clause '{clause}'; a clause id is a group and a number, as "
        "DBL-6; the groups: SET, DEAL, ENG, SEAT, TRAIN, TURN, FIRST, DBL, MARK, END, SCORE, "
        "MATCH\n")


def test_a_rule_set_file_named_after_a_shipped_one_with_other_rules_is_refused(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # as `name: pagat` is; this loaded, and conform ran double-10's fixtures under
    # puremco's rules (each an error charged to the implementation)
    path = write(tmp_path / "own.yaml", "name: double-10\nbase: puremco\n")
    assert main(["rules", path]) == 2
    assert capsys.readouterr().err == (
        f"mtrain rules: {path}:1: name 'double-10' is the rule-set file "
        "spec/data/rulesets/double-10.yaml's, whose rules differ (tile_set: double-12 (its "
        "double-10), hand_sizes: puremco-d12 (its custom)): give the file a name of its own\n")


def test_the_shipped_rule_set_files_copied_still_load(tmp_path: Path) -> None:
    from mtrain.spec.catalog import catalog

    for name in ("double-10", "double-18"):  # docs/examples holds the same files
        root = Path(__file__).parents[1]
        text = (root / "docs" / "examples" / f"{name}.yaml").read_text(encoding="utf-8")
        assert catalog().rules_file(write(tmp_path / f"{name}.yaml", text)).name == name
