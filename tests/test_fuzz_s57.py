"""Session 57 (fuzz57): fuzz where house engines play.

- Big sets' blocked rounds: on a set of double-15 or more, random play seldom empties the
  boneyard before someone goes out (pagat+double-15, 20 games, seed 0: one round of 22
  blocked), so a blocked round's scoring went unasked there. A third of such games are
  now steered toward a blocked end (fuzz/steer.py), as games under a round-end rule of
  one's own are (6 of 22 blocked).
- A release of one's own (`uncoverable_double: other`): fuzz judges a refusal where
  every known release refuses the action, and asks a legal or refusal finding again
  with the same cut (rejudge), as conform cuts its entries (release_alone.py).
- A release counted early told from a duty ignored by a run's tables together
  (release_counts.py), in conform and in fuzz.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import test_house56b as hb

from mtrain.cli import main
from mtrain.conformance import fuzz as F
from mtrain.conformance.adapter import JSON, ReferenceImplementation
from mtrain.conformance.fuzz.rulesets import Chooser, declared_context
from mtrain.conformance.release_alone import earlier
from mtrain.reference.engine import hand_value
from mtrain.spec.catalog import catalog

BIG = "pagat+double-15"


class BigBlockedLowWins(ReferenceImplementation):
    """A blocked round's lowest hand scoring nothing on a set of double-15 or more (as if
    SCORE-7 were played there): a bug only a blocked round on a big set shows."""

    def score(self, ruleset: JSON, state: JSON, winner: int | None) -> list[int]:
        st = self.state(ruleset, state)
        if winner is not None or st.rules.max_pip < 15:
            return super().score(ruleset, state, winner)
        worth = [hand_value(st, s) for s in range(st.players)]
        return [0 if w == min(worth) else w for w in worth]


def test_a_share_of_big_sets_games_is_steered_the_rest_as_before() -> None:
    """A third of the games on a double-15 set are steered (drawn apart from the rest of
    the plan); none on a double-12 set, whose rounds block at random often enough."""
    big = [F.plan_game(i, 1, Chooser([BIG])) for i in range(150)]
    assert 30 <= sum(p.steer for p in big) <= 70, sum(p.steer for p in big)
    assert not any(F.plan_game(i, 1, Chooser(["pagat"])).steer for i in range(150))


def test_fuzz_finds_a_blocked_round_bug_only_a_big_set_shows(tmp_path: Path) -> None:
    """The engine above: in 4 games on pagat+double-15 (seed 2, three of them
    steered) fuzz reaches a blocked round and finds its score, charged to SCORE-5
    (what a round is worth, penalty scoring); before the big sets' share, none of those
    games was steered and none ended blocked."""
    report = F.fuzz(F.Target.of(BigBlockedLowWins(), "big-blocked"), [BIG], 4, 2,
                    out=tmp_path / "out", shrink_tries=20)
    assert report.blocked >= 1 and report.steered >= 1
    assert [g.signature for g in report.groups] == ["score (blocked)"]
    (found,) = report.groups
    assert "SCORE-5" in found.charged


# --- a release of one's own: fuzz's refusals cut as conform's --------------------------

RELEASE_RULES = """\
name: own-release
base: puremco-d9
options:
  uncoverable_double: other
"""


class OwnRelease(ReferenceImplementation):
    """The reference, releasing doubles its own way (as DBL-9 does, whatever the rule set
    sent says)."""

    def rules(self, ruleset: Any) -> Any:
        options = {**ruleset["options"], "uncoverable_double": "released"}
        return super().rules({**ruleset, "options": options})


class TakesUnderOpenDouble(OwnRelease):
    """With a planted bug: while a double of an earlier turn is open, a tile the mover does
    not hold is taken (its play accepted, the table left as it was), which every release
    refuses (TURN-7)."""

    def apply(self, ruleset: Any, state: Any, action: Any) -> Any:
        seat = state.get("seat")
        if (earlier(state) and action.get("type") == "play" and isinstance(seat, int)
                and action.get("tile") not in state["hands"][seat]):
            return state
        return super().apply(ruleset, state, action)


def test_fuzz_judges_a_refusal_every_release_makes(tmp_path: Path) -> None:
    """Under `uncoverable_double: other`, a refusal whose reference reading reads the
    release is judged where every known release refuses the action (conform's cut,
    release_alone.release_entry): the engine above is found (TURN-7); before, every such
    refusal was set aside, and 8 games found nothing. The engine without the bug: nothing."""
    rules = tmp_path / "own-release.yaml"
    rules.write_text(RELEASE_RULES, encoding="utf-8")
    ctx = declared_context(catalog().rules_file(str(rules)))
    found = {}
    for engine in (TakesUnderOpenDouble(), OwnRelease()):
        report = F.fuzz(F.Target.of(engine, type(engine).__name__), [ctx.name], 8, 0,
                        out=tmp_path / type(engine).__name__, shrink_tries=20)
        found[type(engine).__name__] = [(g.signature, g.charged) for g in report.groups]
    print(found)
    assert found["OwnRelease"] == []
    assert ("allows play (TURN-7)", ("TURN-7",)) in found["TakesUnderOpenDouble"]


class DrawsBesideCover(OwnRelease):
    """With a planted bug: while a double of an earlier turn is open and the boneyard
    holds a tile, a draw is listed beside the plays, which every release refuses where a
    tile can be played (TURN-1)."""

    def legal(self, ruleset: Any, state: Any) -> Any:
        got = super().legal(ruleset, state)
        if (earlier(state) and state.get("boneyard") and any(a["type"] == "play" for a in got)
                and not any(a["type"] == "draw" for a in got)):
            got = [*got, {"type": "draw"}]
        return got


def test_a_legal_finding_under_a_release_of_ones_own_gets_a_reproducer(
        tmp_path: Path) -> None:
    """The legal cut fuzz makes in play (session 56) is made again when a finding is asked
    again (rejudge: shrinking, the reproducer's check): the engine above is found, each
    of its draw findings with a reproducer conform charges (TURN-1 among them). Before,
    none showed again when asked again (no reproducer, nothing charged)."""
    rules = tmp_path / "own-release.yaml"
    rules.write_text(RELEASE_RULES, encoding="utf-8")
    ctx = declared_context(catalog().rules_file(str(rules)))
    report = F.fuzz(F.Target.of(DrawsBesideCover(), "draws"), [ctx.name], 4, 0,
                    out=tmp_path / "out", shrink_tries=20)
    legal = [g for g in report.groups if "draw" in g.signature]
    assert legal, [g.signature for g in report.groups]
    assert all(g.path is not None and g.charged for g in legal), [
        (g.signature, g.charged, g.problems) for g in legal]
    assert any("TURN-1" in g.charged for g in legal)


# --- a release counted early told from a duty ignored, across a run's tables ----------

# test_house56b's table (seat 2 bound by [10-10], holding [14-0] alone; seat 1's train
# marked), with 13, 14 and 15 of the sixteen 10s on the table: 3, 2 and 1 short of DBL-9's
# release; and its FAR table, 7 on the table
SHORT = {3: hb.NEAR,
         2: hb.NEAR.replace("0: [15-6, 6-10, 10-5]", "0: [15-6, 6-10, 10-5, 5-9, 9-10]"),
         1: hb.NEAR.replace("0: [15-6, 6-10, 10-5]", "0: [15-6, 6-10, 10-5, 5-9, 9-10, 10-8]")}


def _run_charges(tmp_path: Path, adapter: str) -> dict[str, list[str]]:
    (tmp_path / "rules.yaml").write_text(hb.RULES, encoding="utf-8")
    fixtures = "".join(hb._fixture(f"short-{k:03}", trains, "[]", "")
                       for k, trains in SHORT.items())
    fixtures += hb._fixture("far-007", hb.FAR, "[]", "")
    (tmp_path / "fx.yaml").write_text(fixtures, encoding="utf-8")
    out = tmp_path / "report.json"
    main(["conform", "--adapter", f"{hb.__file__}:{adapter}", "--fixtures",
          str(tmp_path / "fx.yaml"), "--format", "json", "--output", str(out)])
    report = json.loads(out.read_text(encoding="utf-8"))
    return {r["fixture"]: r["charged"] for r in report["results"] if r["status"] == "fail"}


def test_a_release_counted_early_is_told_by_the_runs_tables(tmp_path: Path) -> None:
    """handcar's bug 2 (test_house56b's CountsThirteen, a double released once 13 of its
    16 tiles are down) fails the tables 3, 2 and 1 tiles short of the release, and not
    the one 9 short: every failure near the release, none far, so each is the release's
    (DBL-9). One table alone read those 3 and 2 short as the duty's (DBL-6)."""
    assert _run_charges(tmp_path, "CountsThirteen") == {
        "short-003": ["DBL-9"], "short-002": ["DBL-9"], "short-001": ["DBL-9"]}


def test_a_duty_ignored_far_from_a_release_keeps_every_table_the_dutys(
        tmp_path: Path) -> None:
    """The duty ignored (IgnoresDuty) fails the same tables and the one 9 short too: a
    double let go far from its release, so the tables near it stay the duty's (DBL-6) but
    for the one a single table reads as the release's (one tile short, DBL-9)."""
    assert _run_charges(tmp_path, "IgnoresDuty") == {
        "short-003": ["DBL-6"], "short-002": ["DBL-6"], "short-001": ["DBL-9"],
        "far-007": ["DBL-6"]}


def test_fuzz_folds_a_duty_let_go_only_near_its_release_into_the_release(
        tmp_path: Path) -> None:
    """fuzz reads its games alike: in 6 games (seed 2) CountsThirteen lets plays past the
    duty 1 to 3 tiles short of the release and never further, so `allows play (DBL-6)`
    (2 or 3 short, one table read as the duty's) folds into `allows play (DBL-9)` (one
    short): one finding, as handcar's bug 2 (three before, with `forbids play (TRAIN-6)`).
    IgnoresDuty lets them past far from any release too: its two stay apart."""
    (tmp_path / "rules.yaml").write_text(hb.RULES, encoding="utf-8")
    ctx = declared_context(catalog().rules_file(str(tmp_path / "rules.yaml")))
    found = {}
    for name in ("CountsThirteen", "IgnoresDuty"):
        report = F.fuzz(F.Target.of(getattr(hb, name)(), name), [ctx.name], 6, 2,
                        out=tmp_path / name, shrink_tries=20)
        found[name] = {g.signature: [s for s, _ in g.also] for g in report.groups
                       if "DBL-" in g.signature}
    assert found["CountsThirteen"] == {"allows play (DBL-9)": ["allows play (DBL-6)"]}
    assert {"allows play (DBL-6)", "allows play (DBL-9)"} <= set(found["IgnoresDuty"])
