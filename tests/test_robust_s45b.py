"""What the wire allows, pinned (robust-s45b). viaduct's author (tests/examples/
viaduct_engine.py) found the docs unclear: the schemas said hands highest first and tiles
high end first in hands, `drawn` and actions, while the harness read any hand order and
either end first; an extra field in an answer is an error, and nothing said what a server
does with a request field it does not know. docs/protocol.md ("What may be written another
way") now says it, and these tests hold the harness to it: tolerant where two writings mean
the same, strict where they could mean two things. A play written "5-12" and again "12-5"
in one `legal` answer passed as one (now listed twice, an error).

Also this morning's leftovers (tests/test_robust_s45.py's report): a fixture repeated
through a YAML alias (`- *one`) was reported at its anchor's line for both copies; `mtrain
lint --no-scopes` passed a fixture whose steps the rules refuse, saying nothing of not
playing them; "no hand size for 1 players"; an empty `name:` in a rule-set file gave two
messages, one "too short (at least 1 characters)"."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from referencing import Registry, Resource

from mtrain.cli import main
from mtrain.conformance.answers import actions_problems
from mtrain.spec.yamlload import load

ROOT = Path(__file__).resolve().parents[1]
SCHEMAS = ROOT / "spec" / "schemas"
DRAWING = ROOT / "conformance" / "fixtures" / "turns" / "drawing.yaml"

# An engine: the reference server (conformance/serve.py) with its answers rewritten as
# MODE says, each rewrite a way of writing the same answer or another one.
REWRITER = '''
import json, os, sys
from mtrain.conformance.serve import Server

modes = set(sys.argv[1].split(","))
log = open(sys.argv[2], "a") if len(sys.argv) > 2 else None
server = Server()


def low(t):
    a, b = sorted(int(x) for x in t.split("-"))
    return f"{a}-{b}"


def rewrite(answer):
    st = answer.get("state")
    if isinstance(st, dict):
        if "low" in modes:  # every tile outside a train low end first
            st["hands"] = [[low(t) for t in h] for h in st["hands"]]
            st["boneyard"] = [low(t) for t in st["boneyard"]]
            st["drawn"] = st["drawn"] and low(st["drawn"])
        if "unordered" in modes:  # a hand lowest first, the seats yet to move backwards
            st["hands"] = [h[::-1] for h in st["hands"]]
            st["first_turns"] = st["first_turns"][::-1]
        if "state-field" in modes:
            st["colour"] = "red"
        if "far-end" in modes:  # a train's tiles each written far end first
            for t in st["trains"]:
                t["tiles"] = ["-".join(x.split("-")[::-1]) for x in t["tiles"]]
    actions = answer.get("actions")
    if isinstance(actions, list):
        if "low" in modes:
            for a in actions:
                if "tile" in a:
                    a["tile"] = low(a["tile"])
        if "unordered" in modes:
            actions.reverse()
        if "twice" in modes:  # one play again, written the other end first
            for a in actions:
                x, y = a.get("tile", "0-0").split("-")
                if x != y:
                    actions.append({**a, "tile": f"{y}-{x}"})
                    break
    if "answer-field" in modes and answer.get("ok") and "actions" in answer:
        answer["note"] = "harmless"
    return answer


for line in sys.stdin:
    answer, stop = server.handle(line)
    text = json.dumps(rewrite(answer))
    if log:
        log.write("> " + line.rstrip("\\n") + "\\n< " + text + "\\n")
        log.flush()
    sys.stdout.write(text + "\\n")
    sys.stdout.flush()
    if stop:
        break
'''


def engine(tmp_path: Path, modes: str, log: Path | None = None) -> str:
    script = tmp_path / "rewriter.py"
    script.write_text(REWRITER, encoding="utf-8")
    return f"{sys.executable} {script} {modes}" + (f" {log}" if log else "")


def conform(capsys: pytest.CaptureFixture[str], impl: str, *args: str
            ) -> tuple[int, dict[str, Any]]:
    code = main(["conform", "--impl", impl, "--situations", "0", "--format", "json", *args])
    return code, json.loads(capsys.readouterr().out)


def statuses(report: dict[str, Any]) -> dict[str, int]:
    out: dict[str, int] = {}
    for r in report["results"]:
        out[r["status"]] = out.get(r["status"], 0) + 1
    return out


def logged(log: Path, side: str) -> list[dict[str, Any]]:
    """The requests (`>`) or the answers (`<`) the rewriter logged."""
    return [json.loads(x[2:]) for x in log.read_text(encoding="utf-8").splitlines()
            if x.startswith(side + " ")]


def tiles_low_first(answers: list[dict[str, Any]]) -> set[str]:
    """Where the answers wrote a tile low end first (hands, boneyard, drawn, actions)."""
    out = set()
    for a in answers:
        st = a.get("state") or {}
        for field, items in (("hands", [t for h in st.get("hands", []) for t in h]),
                             ("boneyard", st.get("boneyard", [])),
                             ("drawn", [st["drawn"]] if st.get("drawn") else []),
                             ("actions", [x["tile"] for x in a.get("actions", [])
                                          if "tile" in x])):
            if any(int(t.split("-")[0]) < int(t.split("-")[1]) for t in items):
                out.add(field)
    return out


# --- answers: the same meaning written another way passes ----------------------------------


@pytest.mark.parametrize("modes", ["low", "unordered", "low,unordered"])
def test_an_answer_written_another_way_with_the_same_meaning_passes(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, modes: str) -> None:
    # tiles low end first in hands, the boneyard, `drawn` and `legal`'s plays ("5-12" on a
    # train ending in 5, as viaduct writes them); hands, first_turns and the actions in
    # another order: docs/protocol.md, What may be written another way
    log = tmp_path / "wire.log"
    code, report = conform(capsys, engine(tmp_path, modes, log), "--fixtures", str(DRAWING),
                           "--variant", "pagat")
    assert (code, statuses(report)) == (0, {"pass": 7})
    if "low" in modes:  # the answers were written so: the harness read them as the same
        assert tiles_low_first(logged(log, "<")) == {"hands", "boneyard", "drawn", "actions"}


def test_a_play_written_both_ways_in_one_legal_answer_is_listed_twice() -> None:
    # before: [5-12 on 0, 12-5 on 0] passed as one play (the duplicate check compared the
    # texts); the protocol wants each action once, and these name one play
    twice = [{"type": "play", "tile": "5-12", "train": 0},
             {"type": "play", "tile": "12-5", "train": 0}]
    (p,) = actions_problems(twice)
    assert (p.status, p.message) == ("error", '{"type": "play", "tile": "12-5", "train": 0} '
                                     "is listed twice (each once)")
    # the same tile on two trains is two plays; draw and pass once each are two actions
    assert actions_problems([twice[0], {**twice[1], "train": 1}, {"type": "draw"},
                             {"type": "pass"}]) == []
    assert actions_problems([{"type": "draw"}, {"type": "draw"}])[0].message.endswith(
        "is listed twice (each once)")


def test_conform_charges_a_play_listed_both_ways_as_an_error(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, report = conform(capsys, engine(tmp_path, "twice"), "--fixtures", str(DRAWING),
                           "--variant", "pagat")
    assert code == 1
    errors = [r for r in report["results"] if r["status"] == "error"]
    assert errors and all("is listed twice (each once)" in r["message"] for r in errors)
    # the fixtures whose legal answers hold a play of two different ends (the rewrite adds
    # one only there) are the errors, the rest pass
    assert statuses(report) == {"error": 4, "pass": 3}


# --- answers: what could be read two ways is refused -----------------------------------------


@pytest.mark.parametrize("modes, status, said", [
    # a field the answer does not have, however harmless
    ("answer-field", "error", "a legal answer has no field 'note' in protocol v1; its "
     "fields: id, ok, actions"),
    # one the state does not have
    ("state-field", "error", "Additional properties are not allowed ('colour' was "
     "unexpected)"),
    # a train's tiles far end first: a train listed backwards, not a table
    ("far-end", "fail", "4-9 does not continue from 9 (tiles are written near end first) "
     "[TRAIN-2]"),
])
def test_an_answer_that_could_be_read_two_ways_is_refused(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, modes: str, status: str,
        said: str) -> None:
    code, report = conform(capsys, engine(tmp_path, modes), "--fixtures", str(DRAWING),
                           "--variant", "pagat")
    assert code == 1
    wrong = [r for r in report["results"] if r["status"] != "pass"]
    assert wrong and {r["status"] for r in wrong} == {status}
    assert any(said in m for r in wrong for m in r["messages"]), wrong[0]["messages"]


# --- requests: the harness sends only the schema's fields ------------------------------------


def request_validator() -> jsonschema.protocols.Validator:
    resources = []
    for path in SCHEMAS.glob("*.schema.json"):
        data = json.loads(path.read_text(encoding="utf-8"))
        resources.append((data["$id"], Resource.from_contents(data)))
    registry: Registry[Any] = Registry().with_resources(resources)
    schema = json.loads((SCHEMAS / "protocol.schema.json").read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator({**schema, "$ref": "#/$defs/request"},
                                           registry=registry)


def test_every_request_the_harness_writes_has_only_the_schemas_fields(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # so a server may refuse a request field it does not know (mtrain serve) or ignore it
    # (viaduct): neither costs a result. Deals with `draw` (highest-draw), next rounds,
    # scores and winners, legal and apply.
    fixtures, chosen = ROOT / "conformance" / "fixtures", tmp_path / "chosen"
    chosen.mkdir()
    for name in ("seats/highest-draw.yaml", "match/points-extra.yaml", "turns/drawing.yaml"):
        (chosen / name.replace("/", "-")).write_bytes((fixtures / name).read_bytes())
    log = tmp_path / "wire.log"
    code, report = conform(capsys, engine(tmp_path, "none", log), "--fixtures", str(chosen),
                           "--variant", "pagat", "--variant",
                           "pagat+celko-double-9+highest-draw-start")
    assert code == 0, statuses(report)
    requests = logged(log, ">")
    kinds = {m["type"] for m in requests}
    assert kinds >= {"hello", "deal", "legal", "apply", "score", "winners", "shutdown"}
    assert any("draw" in m for m in requests)
    validator = request_validator()
    bad = [(m["type"], e.message) for m in requests for e in validator.iter_errors(m)]
    assert bad == []
    # and the validator does refuse a field the schema lacks
    assert list(validator.iter_errors({**requests[0], "colour": "red"}))


def viaduct_answers(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    proc = subprocess.run([sys.executable, str(ROOT / "tests" / "examples" /
                                               "viaduct_engine.py")],
                          input="".join(json.dumps(x) + "\n" for x in lines),
                          capture_output=True, text=True, timeout=60, check=True)
    return [json.loads(x) for x in proc.stdout.splitlines()]


def test_a_request_field_the_engine_does_not_know_is_ignored_or_refused_never_fatal(
        ) -> None:
    from mtrain.conformance.serve import Server

    hello = {"id": 1, "type": "hello", "protocol": 1}
    (declared,) = viaduct_answers([hello])
    ruleset = declared["rules"]
    order = [f"{a}-{b}" for a in range(18, -1, -1) for b in range(a, -1, -1)][1:]  # no 18-18
    deal = {"id": 2, "type": "deal", "ruleset": ruleset, "players": 4, "round": 1,
            "order": order}
    odd = {**deal, "id": 3, "seating": "by the window"}
    # viaduct ignores it: the same state as without it
    _, plain, ignored = viaduct_answers([hello, deal, odd])
    assert plain["ok"] and ignored == {**plain, "id": 3}
    # mtrain serve refuses it, naming it, and answers the next request
    server = Server()
    refused, _ = server.handle(json.dumps({**odd, "ruleset": {"name": "pagat", "options": {},
                                                             "hand_sizes": {}}}))
    assert refused == {"id": 3, "ok": False, "error": {
        "kind": "bad-request", "message": "a deal request has no field 'seating'"}}
    answer, stop = server.handle(json.dumps({"id": 4, "type": "shutdown"}))
    assert answer == {"id": 4, "ok": True} and stop


# --- this morning's leftovers -----------------------------------------------------------------


FIXTURE = """\
- &one
  id: alias-001
  description: "Draw, then the drawn tile fits the own train"
  clauses: [TURN-2, TURN-3]
  source: [pagat]
  table:
    engine: 9
    hands:
      0: [8-3, 5-1]
      1: [5-5, 3-1]
      2: [8-1, 2-2]
    trains:
      0: [9-4]
      1: [9-6]
      2: [9-2]
      mexican: [9-7]
    boneyard: [4-0, rest]
  steps: [STEP]
  expect:
    - variants: [pagat]
      legal: [play 4-0 on 0]
      state:
        drawn: 4-0
"""


def test_a_fixture_repeated_through_an_alias_is_reported_at_the_alias(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "al.yaml"
    text = FIXTURE.replace("STEP", "draw") + "\n# the same again\n- *one\n"
    path.write_text(text, encoding="utf-8")
    alias_line = text.splitlines().index("- *one") + 1
    assert main(["lint", "--no-scopes", str(path)]) == 1
    errors = [x for x in capsys.readouterr().out.splitlines() if x.startswith("error:")]
    # before: "al.yaml:1: id alias-001 is also used at al.yaml:1", both copies at the anchor
    # and once (robust-s53b): not a second error for the copy's description
    assert errors == [f"error: {path}:{alias_line}: id alias-001 is also used at {path}:1 "
                      "(with the same description: a fixture copied whole?)"]


def test_an_alias_item_has_its_own_line_in_block_and_flow_lists() -> None:
    doc = load("x.yaml", "a: &x [1, 2]\nb:\n  - *x   # c *not\n  - &y {k: 1}\n"
                         "  - [*y, *x,\n     *y]\n  - *y\n")
    assert [doc.line_of(("b", i)) for i in range(4)] == [3, 4, 5, 7]
    assert [doc.line_of(("b", 2, i)) for i in range(3)] == [5, 5, 6]
    assert doc.line_of(("b", 3, "k")) == 7  # inside an alias: the alias's line


def test_lint_without_scopes_says_the_steps_were_not_played(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # play 8-3 on 0 (a train ending in 4) is refused by TRAIN-2: the scope check finds it
    path = tmp_path / "ill.yaml"
    path.write_text(FIXTURE.replace("STEP", "play 8-3 on 0"), encoding="utf-8")
    assert main(["lint", "--no-scopes", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    # before: only "1 fixtures, ... 0 errors, 0 warnings"
    assert out[0].startswith("scopes: not checked (--no-scopes), so no step was played")
    assert main(["lint", "--no-scopes", "--json", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["steps_played"] is False
    assert main(["lint", str(path)]) == 1
    scoped = capsys.readouterr().out
    assert "step 1 `play 8-3 on 0` was refused" in scoped and "[TRAIN-2]" in scoped


def test_a_table_of_one_player_is_refused_in_the_singular() -> None:
    from mtrain.conformance.adapter import ruleset_json
    from mtrain.conformance.serve import Server
    from mtrain.spec.catalog import catalog

    server = Server()
    server.handle('{"id": 1, "type": "hello", "protocol": 1}')
    rs = catalog().ruleset("pagat")
    answer, _ = server.handle(json.dumps({"id": 2, "type": "deal", "ruleset": ruleset_json(rs),
                                          "players": 1, "round": 1, "order": []}))
    # before: "no hand size for 1 players: ..."
    assert answer["error"]["message"].startswith("no hand size for 1 player: the hand-size")
    with pytest.raises(ValueError, match=r"pagat has no hand size for 1 player \(it lists"):
        rs.hand_size(1)


@pytest.mark.parametrize("text", ['name: ""\nbase: pagat\n', "name: ''\nbase: pagat\n"])
def test_an_empty_rule_set_name_is_said_once(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str) -> None:
    path = tmp_path / "own.yaml"
    path.write_text(text, encoding="utf-8")
    assert main(["rules", str(path)]) == 2
    # before: "name: '' is not a name on one line, ..." and "name: '' is too short (at
    # least 1 characters)"
    assert capsys.readouterr().err.splitlines() == [
        f"mtrain rules: {path}:1: name: '' is empty; expected a name on one line, not blank, "
        "without control characters (nor invisible or direction-changing ones) or `+`"]


def test_identify_reads_a_play_listed_both_ways_round_as_one_play() -> None:
    # identify's Watched kept each listed action once by its exact text, so a play listed
    # as "5-12" and "12-5" stayed twice in the evidence, where conform and the schema
    # check count it once (answers.action_key): now read once, by what it means
    from mtrain.conformance.adapter import ReferenceImplementation
    from mtrain.conformance.identify import Watched
    from mtrain.spec.catalog import catalog

    class BothWays(ReferenceImplementation):
        def legal(self, ruleset: Any, state: Any) -> list[Any]:
            out: list[Any] = super().legal(ruleset, state)
            plays = [a for a in out if a.get("tile")]
            turned = [{**a, "tile": "-".join(reversed(a["tile"].split("-")))} for a in plays
                      if a["tile"].split("-")[0] != a["tile"].split("-")[1]]
            return out + turned[:1]

    ref = ReferenceImplementation()
    rj = {"name": "pagat", "options": dict(catalog().ruleset("pagat").choices)}
    order = [f"{a}-{b}" for a in range(12, -1, -1) for b in range(a, -1, -1)]
    state = ref.deal(rj, 2, 1, order)
    right = ref.legal(rj, state)
    assert any("-" in str(a.get("tile")) for a in right)  # a play to turn round
    watched = Watched(BothWays())
    assert watched.legal(rj, state) == right
    assert len(watched.breaches) == 1 and watched.failed == []
