"""An entry still runs, whether a double of an earlier turn binds set aside, under a release
of one's own (conformance/release_alone.py): under `uncoverable_double: other` every such
entry was not applicable whole (brakeman, tests/examples/rust/brakeman.rs: 123 of 1,599
results), and with it what no release decides, such as the marker a pass raises."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mtrain.cli import main
from mtrain.conformance.adapter import ReferenceImplementation
from mtrain.conformance.fixture import Fixture, load_corpus
from mtrain.conformance.partition import applies
from mtrain.conformance.release_alone import ONLY_RELEASE
from mtrain.conformance.selection import entry_for
from mtrain.spec.catalog import catalog
from mtrain.spec.scope import Space

SPACE = Space()
RULES = """\
name: own-release
base: puremco-d9
options:
  uncoverable_double: other
"""


class OwnRelease(ReferenceImplementation):
    """The reference, releasing doubles its own way (here as DBL-9 does, whatever the rule
    set sent says: declared `other`, the engine's rule is its own to say)."""

    def rules(self, ruleset: Any) -> Any:
        options = {**ruleset["options"], "uncoverable_double": "released"}
        return super().rules({**ruleset, "options": options})


class QuietPass(OwnRelease):
    """With a planted bug: a pass raises no marker (MARK-1)."""

    def apply(self, ruleset: Any, state: Any, action: Any) -> Any:
        after = super().apply(ruleset, state, action)
        seat = state.get("seat")
        if action.get("type") == "pass" and isinstance(seat, int):
            trains = [dict(t) for t in after["trains"]]
            trains[seat]["marker"] = False
            after = {**after, "trains": trains}
        return after


def fixture(fid: str) -> Fixture:
    return next(fx for fx in load_corpus()[0] if fx.id == fid)


def rules_file(tmp_path: Path) -> Path:
    path = tmp_path / "own-release-rules.yaml"
    path.write_text(RULES, encoding="utf-8")
    return path


def test_a_pass_under_an_open_double_runs_its_legal_set_after_it_cut(tmp_path: Path) -> None:
    """doubles-029: seat 0 cannot follow [5-5] on an empty boneyard and passes; whether the
    double then binds seat 1 is the release's (DBL-9 to DBL-12), so the actions the known
    releases disagree on are set aside; the pass's marker and the rest still run."""
    rs = catalog().rules_file(str(rules_file(tmp_path)))
    fx = fixture("doubles-029")
    assert applies(fx.expect[0], fx, rs, SPACE) == ONLY_RELEASE
    exp, why = entry_for(fx, rs, SPACE)
    assert why is None and exp is not None
    assert exp.state["marked"] == [0]
    assert "play 4-3 on 1" in exp.own_actions  # legal once released (DBL-12), not before
    assert "play 5-6 on 0" not in exp.own_actions  # the cover: every release allows it


def test_a_planted_marker_bug_shows_where_the_entry_was_not_applicable(
        tmp_path: Path) -> None:
    """QuietPass's pass raises no marker (MARK-1): doubles-029 was not applicable under
    a release of its own, and now fails, charged to DBL-5 (the pass in a follow-up); the
    engine without the bug passes."""
    rules = rules_file(tmp_path)
    statuses = {}
    for adapter in ("QuietPass", "OwnRelease"):
        out = tmp_path / f"{adapter}.json"
        main(["conform", "--adapter", f"{__file__}:{adapter}", "--rules", str(rules),
              "-k", "doubles-029", "--format", "json", "--output", str(out)])
        [result] = json.loads(out.read_text(encoding="utf-8"))["results"]
        statuses[adapter] = result["status"]
        if adapter == "QuietPass":
            assert result["charged"] == ["DBL-5"]
            assert "marked: expected [0], got []" in result["messages"][0]
    assert statuses == {"QuietPass": "fail", "OwnRelease": "pass"}


def test_fuzz_judges_a_legal_answer_but_for_what_the_release_decides(tmp_path: Path) -> None:
    """fuzz asks the same cut (conformance/fuzz/own_release.py): after doubles-029's pass,
    seat 1 covers [5-5] where it binds, and may play [4-3] home too where it is free (a
    dry boneyard, DBL-12): that play is the release's, not a finding; a draw beside a
    cover that every release allows is one (TURN-1). Before, fuzz judged neither."""
    from mtrain.conformance.fuzz.own_release import legal_cut
    from mtrain.conformance.fuzz.rulesets import declared_context
    from mtrain.conformance.runner import REFERENCE, play
    from mtrain.reference.engine import legal_actions
    from mtrain.spec.notation import action_json

    ctx = declared_context(catalog().rules_file(str(rules_file(tmp_path))))
    played = play(fixture("doubles-029"), ctx.rs, REFERENCE)
    assert isinstance(played, tuple)
    st = REFERENCE.state(*reversed(played))
    legal = legal_actions(st)
    own = ("uncoverable_double",)

    def answer(*texts: str) -> list[Any]:
        return [action_json(t) for t in texts]

    assert legal_cut(ctx, st, legal, answer("play 5-6 on 0", "play 4-3 on 1"), own) == []
    found = legal_cut(ctx, st, legal, answer("play 5-6 on 0", "draw"), own)
    assert found is not None and len(found) == 1
    assert "draw" in " ".join(found[0].messages) and "4-3" not in " ".join(found[0].messages)
    assert legal_cut(ctx, st, legal, answer("draw"), ("double_order",)) is None
