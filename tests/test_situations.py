"""Situations from play: tables reached under the rule set tested, legal sets from the
formalisation (conformance/situations.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mtrain.cli import main
from mtrain.conformance.fixture import load_file
from mtrain.conformance.situation_files import render
from mtrain.conformance.situation_kinds import KINDS
from mtrain.conformance.situations import situations
from mtrain.spec.catalog import catalog
from mtrain.spec.notation import REST
from mtrain.spec.ruleset import OTHER, Ruleset

BESIDE = ("play-end-", "play-dealt-", "play-pass-", "play-laid-", "play-wrap-")
"""The situations made beside the count asked."""
ADAPTERS = Path(__file__).parent / "broken_impls" / "adapters.py"


def test_each_kind_shows_what_it_names() -> None:
    made = situations(catalog().ruleset("pagat"), 60)
    beside = [fx for fx in made if fx.id.startswith(BESIDE)]
    made = [fx for fx in made if fx not in beside]
    assert len(made) == 60
    # beside the 60: 60 // 7 = 8 round ends, each a move that ends the round with the
    # result it gives; later rounds' deals, each in a round whose rotating seat is not 0
    ends = [fx for fx in beside if fx.id.startswith("play-end-")]
    assert len(ends) == 8
    for fx in ends:
        (step,) = fx.steps
        assert fx.table and fx.expect[0].result["end"] in ("domino", "blocked")
        if fx.expect[0].result["winner"] is not None:
            assert step.startswith("play ")  # END-1: out by laying the last tile
    dealt = [fx for fx in beside if fx.id.startswith("play-dealt-")]
    for fx in dealt:
        assert fx.deal and (12 - fx.deal["engine"]) % fx.deal["players"] != 0
        assert set(fx.steps) <= {"draw"}
    assert any(fx.steps for fx in dealt)  # an engine searched for, the search played
    # and 60 // 7 = 8 passes after a draw in vain, what the pass leaves checked
    passes = [fx for fx in beside if fx.id.startswith("play-pass-")]
    assert len(passes) == 8
    for fx in passes:
        assert fx.table and fx.steps in (("draw", "pass"), ("pass",))
        seat, state = int(fx.table.get("seat", 0)), fx.expect[0].state
        players = len(fx.table["hands"])
        assert seat in state["marked"] and state["seat"] == (seat + 1) % players  # TURN-4
        assert state["drawn"] is None and fx.expect[0].legal
    assert sum(fx.steps == ("draw", "pass") for fx in passes) >= 6
    by_kind = {k.name: [fx for fx in made if fx.id.startswith(f"play-{k.name}-")]
               for k in KINDS}
    # 60 // 7 = 8 deals, and the six kinds share the other 52: 9, 9, 9, 9, 8, 8
    assert [len(v) for v in by_kind.values()] == [9, 9, 9, 9, 8, 8]
    deals = [fx for fx in made if fx.id.startswith("play-deal-")]
    assert len(deals) == 8 and all(fx.deal and fx.expect[0].state["hands"] for fx in deals)
    assert len({fx.deal["players"] for fx in deals if fx.deal}) == 8  # eight rows of nine
    for fx in by_kind["opendbl"]:
        assert fx.table and fx.table["open_doubles"]
    for fx in by_kind["drawn"]:  # the table before the draw, and the draw asked too
        assert fx.table and (fx.table.get("drawn") or (
            fx.steps == ("draw",) and fx.expect[0].state["drawn"] == fx.table["boneyard"][0]))
    assert sum(fx.steps == ("draw",) for fx in by_kind["drawn"]) >= 6
    for fx in by_kind["first"]:
        assert fx.table and fx.table.get("first_turns")
    for fx in by_kind["dry"]:
        assert fx.table and fx.table["boneyard"] == []
    for fx in by_kind["marked"]:
        assert fx.table and len(fx.table.get("marked", [])) >= 2
    for fx in by_kind["mid"]:
        assert fx.table and fx.table["boneyard"] == [REST] and not fx.table["open_doubles"]
        assert "drawn" not in fx.table and "first_turns" not in fx.table
    for fx in made:  # every legal set is a set of actions, most of them with a choice
        if fx in deals:
            continue
        legal = fx.expect[0].legal
        assert legal is not None and len(set(legal)) == len(legal) >= 1
    assert sum(len(fx.expect[0].legal or ()) > 1 for fx in made) > 40


def test_an_id_names_the_same_table_whatever_the_count() -> None:
    rs = catalog().ruleset("puremco")
    few = {fx.id: fx for fx in situations(rs, 12)}
    many = {fx.id: fx for fx in situations(rs, 48)}
    picked = situations(rs, 48, lambda fid: fid == "play-drawn-002")
    assert set(few) < set(many) and [fx.id for fx in picked] == ["play-drawn-002"]
    for fid, fx in few.items():
        assert many[fid].table == fx.table and many[fid].expect == fx.expect
    assert picked[0].table == few["play-drawn-002"].table
    other = {fx.id: fx for fx in situations(catalog().ruleset("pagat"), 12)}
    assert other["play-mid-001"].table != few["play-mid-001"].table  # seeded by rule set


def test_a_kind_a_rule_of_ones_own_decides_gives_its_share_to_the_others(
        tmp_path: Path) -> None:
    """A draw rule of one's own decides every table with a tile drawn (TURN-3): that kind
    does not show under it, and its share goes to the kinds that do, so the rule set gets
    as many situations as pagat. The pass after a draw in vain keeps its share beside
    them: the draw rule decides only whether the pass is legal, so it is asked, knowing
    that an implementation's refusal of it is no failure (step_alone.py, session 49),
    and its share goes to the others too. An id past a kind's own share names the same
    table asked alone (-k) as in the whole list."""
    rules = tmp_path / "own.yaml"
    rules.write_text("name: own\nbase: pagat\noptions:\n  draw_rule: other\n",
                     encoding="utf-8")
    rs = catalog().rules_file(rules)
    made = {fx.id: fx for fx in situations(rs, 70)}
    assert not [f for f in made if f.startswith("play-drawn-")]
    passes = [fx for f, fx in made.items() if f.startswith("play-pass-")]
    assert len(passes) == 10
    assert all(fx.expect[0].own_steps == ((len(fx.steps), ("draw_rule",)),)
               and fx.steps[-1] == "pass" for fx in passes)
    assert not [fx for fx in made.values() if fx.table and "drawn" in fx.table
                and not fx.expect[0].own_steps]
    # 70 less 9 deals: the six kinds share 61 (11, 10, 10, 10, 10, 10) and the passes 10;
    # the 20 of drawn and the passes go to the five other kinds, 4 each
    kinds = {k.name: sorted(f for f in made if f.startswith(f"play-{k.name}-"))
             for k in KINDS}
    assert [len(v) for v in kinds.values()] == [15, 0, 14, 14, 14, 14]
    assert sum(map(len, kinds.values())) == 61 + 10
    last = kinds["mid"][-1]  # play-mid-014: past mid's own share of 10
    (alone,) = situations(rs, 70, lambda fid: fid == last)
    assert alone.table == made[last].table and alone.expect == made[last].expect
    # and whatever the count: each kind draws from its own stream
    fewer = {fx.id: fx for fx in situations(rs, 35)}
    assert "play-mid-005" in fewer and not [f for f in fewer if f.startswith("play-drawn-")]
    assert all(fx.table == made[f].table for f, fx in fewer.items() if f in kinds["mid"])


def test_written_out_they_are_fixtures_lint_accepts(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    rs = catalog().ruleset("puremco-d9")
    path = tmp_path / "situations.yaml"
    path.write_text(render(situations(rs, 24), rs), encoding="utf-8")
    loaded = load_file(path)
    # the 24, 24 // 7 = 3 round ends and 3 passes, 2 drawn doubles laid and 2 tiles laid
    # by the last seat (LAID_LEAST), and later rounds' deals: for each of puremco-d9's
    # three rows and two pool orders, one dealt in round 2 (set aside: never searched),
    # the match's last round, [0-0]'s (play-dealt-last-001), and for each row, its other
    # deals stopping at round 2, one of round 3 or later (play-dealt-later-)
    assert len(loaded) == 24 + 3 + 3 + 2 + 2 + 6 + 1 + 3
    # lint: the schema, every invariant, the reachability checks, and each entry's scope
    # replayed by the reference over the option space
    assert main(["lint", str(path)]) == 0
    assert "0 errors" in capsys.readouterr().out
    assert main(["situations", "puremco-d9", "-n", "24", "-k", "play-first-00",
                 "--out", str(tmp_path / "first.yaml")]) == 0
    assert [fx.id for fx in load_file(tmp_path / "first.yaml")] == [
        f"play-first-00{k}" for k in range(1, 5)]


def test_a_legality_bug_fails_situations_charged_to_a_legality_clause(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.json"
    code = main(["conform", "--adapter", f"{ADAPTERS}:ForgetsDraw", "--variant", "pagat",
                 "-k", "play-", "--situations", "60", "--format", "json", "--output", str(out)])
    assert code == 1
    report = json.loads(out.read_text(encoding="utf-8"))
    # -k matches every id holding "play-": the corpus's own s61-play-001 as well
    results = [r for r in report["results"] if r["fixture"].startswith("play-")]
    assert all("play-" in r["fixture"] for r in report["results"])
    assert len([r for r in results if not r["fixture"].startswith(
        BESIDE)]) == 60  # the round ends, passes and later deals beside them
    failed = [r for r in results if r["status"] == "fail"]
    # ForgetsDraw offers a pass everywhere: wrong wherever the boneyard still has tiles
    # (TURN-4 passes only when nothing can be drawn) or a play is possible (TURN-1)
    assert len(failed) >= 30
    assert {c for r in failed for c in r["charged"]} <= {"TURN-1", "TURN-4", "TURN-2",
                                                         "TURN-3", "TRAIN-4", "DBL-6"}
    assert all("pass" in " ".join(r["messages"]) for r in failed)
    capsys.readouterr()


@pytest.mark.slow
def test_conform_runs_situations_only_where_they_belong(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    corpus = tmp_path / "one.yaml"
    rs = catalog().ruleset("pagat")
    mine = situations(rs, 3)  # the 3 asked for, and the round ends and later deals beside
    corpus.write_text(render(mine, rs), encoding="utf-8")
    assert main(["conform", "--variant", "pagat", "--fixtures", str(corpus)]) == 0
    # a corpus of one's own alone
    assert f"OK: {len(mine)} results ran" in capsys.readouterr().out
    assert main(["conform", "--variant", "pagat", "--fixtures", str(corpus),
                 "--situations", "6"]) == 0
    more = {fx.id for fx in situations(rs, 6)}
    assert f"OK: {len(mine) + len(more)} results ran" in capsys.readouterr().out
    own = tmp_path / "own.yaml"
    own.write_text("base: pagat\noptions:\n  follow_up: other\n", encoding="utf-8")
    out_json = tmp_path / "own.json"
    assert main(["conform", "--rules", str(own), "--situations", "60", "--format", "json",
                 "--output", str(out_json)]) == 0
    report = json.loads(out_json.read_text(encoding="utf-8"))
    played = [r for r in report["results"] if r["fixture"].startswith("play-")]
    # a rule played its own way: only tables whose legal actions never read follow_up
    # speak about it, and play finds enough of them (a double left open on an earlier turn
    # is uncoverable_double's, DBL-13, not the follow-up's)
    asked = [r for r in played if not r["fixture"].startswith(BESIDE)]
    assert len(asked) == 60 and all(r["status"] == "pass" for r in played)
    made = situations(catalog().rules_file(own), 60)
    assert not [fx for fx in made if fx.table and fx.table.get("phase") == "follow"]


def test_situations_read_back_from_the_cache_are_the_ones_made() -> None:
    """The cache keeps every situation whole: read back, each is the one play makes (a
    table's seats and the Mexican Train keyed as before, legal sets and deal states)."""
    from mtrain.conformance import situations as S

    def key(fx: Any) -> tuple[Any, ...]:
        e = fx.expect[0]
        return (fx.id, fx.description, fx.clauses, fx.table, fx.deal, fx.note, e.legal,
                e.state, e.scope)

    for name in ("pagat", "double-18"):
        rs = catalog().ruleset(name)
        made = S._situations(rs, 16, None, S.SEED)
        first, again = S.situations(rs, 16), S.situations(rs, 16)  # made, then read
        assert [key(f) for f in first] == [key(f) for f in again] == [key(f) for f in made]
        assert any(f.table for f in again) and any(f.deal for f in again)
        picked = S.situations(rs, 16, lambda fid: fid.startswith("play-deal"))
        assert picked and all(f.id.startswith("play-deal") for f in picked)


def test_conform_keeps_its_situations_in_the_cache(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Conform's tasks ask for every situation when no -k names some, so the list is
    kept (it once passed a filter that accepted everything, and nothing was kept)."""
    from mtrain.conformance import situations as S
    from mtrain.conformance.selection import situation_tasks
    from mtrain.spec import cache

    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path / "cache"))  # empty: not the run's
    rs = catalog().ruleset("puremco-d9")
    key = S._cache_key(rs, 12, S.SEED)
    assert cache.read(S.CACHE_KIND, key) is None
    tasks, _ = situation_tasks([rs], 12, [], 0)
    kept = cache.read(S.CACHE_KIND, key)
    asked = [t for t in tasks if not t.fixture.id.startswith(BESIDE)]
    assert isinstance(kept, list) and len(kept) == len(tasks) and len(asked) == 12
    picked, _ = situation_tasks([rs], 12, ["play-deal"], 0)
    assert picked and all(t.fixture.id.startswith("play-deal") for t in picked)


def test_identify_asks_a_drawn_situation_as_the_table_after_the_draw() -> None:
    # conform asks the draw too; identify asks the legal set alone: the draw tells no rule
    # sets apart, and sixes's wrong-end draw, failing every such table, was read as three
    # rules of its own (draw_rule, follow_up, own_train_first)
    from mtrain.conformance.adapter import ReferenceImplementation, ruleset_json
    from mtrain.conformance.situations import legal_only
    from mtrain.spec.notation import table_state

    rs = catalog().ruleset("pagat")
    drawn = [fx for fx in situations(rs, 60) if fx.steps == ("draw",)]
    assert len(drawn) >= 6
    rj, ref = ruleset_json(rs), ReferenceImplementation()
    for fx in drawn:
        after = legal_only(fx)
        assert after.steps == () and not after.expect[0].state
        assert after.expect[0].legal == fx.expect[0].legal
        assert fx.table is not None and after.table is not None
        drew = ref.apply(rj, table_state(fx.table, rs), {"type": "draw"})
        assert table_state(after.table, rs) == drew


def test_a_pass_that_leaves_the_marker_down_fails_the_passes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A pass after a drawn tile that cannot be played puts the marker up (TURN-4): the
    legal sets of `drawn` offer the pass but never take it; `play-pass-` takes it and
    checks the marker, charged to TURN-4, or to DBL-5 where the pass is a follow-up's
    (the player passes as in an ordinary turn: session 49, as the corpus charges it). The
    reference passes them all."""
    out = tmp_path / "r.json"
    args = ["--variant", "pagat", "-k", "play-pass-", "--situations", "70", "--format",
            "json", "--output", str(out)]
    assert main(["conform", "--adapter", f"{ADAPTERS}:PassesUnmarked", *args]) == 1
    results = json.loads(out.read_text(encoding="utf-8"))["results"]
    failed = [r for r in results if r["status"] == "fail"]
    assert len(results) == 10 and len(failed) >= 3
    assert all(r["charged"] in (["TURN-4"], ["DBL-5"]) and "marked" in " ".join(r["messages"])
               for r in failed)
    assert any(r["charged"] == ["TURN-4"] for r in failed)
    assert main(["conform", "--adapter", f"{ADAPTERS}:Reference", *args]) == 0
    capsys.readouterr()


def test_a_pass_that_keeps_the_first_turn_fails_the_passes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Each player has one first turn (FIRST-6): a pass on it ends it as a tile would.
    `play-pass-` checks `first_turns` after the pass, charged to FIRST-6; it checked only
    the marker, the seat and the drawn tile, so tenwheeler's first turn kept by a pass
    (tests/examples/tenwheeler_engine.py, bug 3) failed nothing. The reference passes."""
    out = tmp_path / "r.json"
    args = ["--variant", "puremco", "-k", "play-pass-", "--situations", "140", "--format",
            "json", "--output", str(out)]
    assert main(["conform", "--adapter", f"{ADAPTERS}:FirstTurnKept", *args]) == 1
    results = json.loads(out.read_text(encoding="utf-8"))["results"]
    failed = [r for r in results if r["status"] == "fail"]
    assert failed and all(r["charged"] == ["FIRST-6"] and "first_turns" in r["messages"][0]
                          for r in failed), failed
    assert main(["conform", "--adapter", f"{ADAPTERS}:Reference", *args]) == 0
    capsys.readouterr()


def test_an_empty_boneyard_is_reached_at_every_player_count() -> None:
    """Tables with an empty boneyard, and blocked rounds, for 5 to 8 players on a large
    set too: random rounds seldom get there (someone goes out first), drained rounds do.
    Each count stays within what was asked."""
    rs = catalog().rules_file(Path(__file__).parent / "examples" / "junction-rules.yaml")
    made = situations(rs, 140)
    dry = [fx for fx in made if fx.id.startswith("play-dry-")]
    # 140 // 7 = 20 deals asked, 4 rows dealt: the six kinds share 136 (23, 23, 23, 23,
    # 22, 22); junction's first turn of its own decides every first turn to come, so the
    # 23 of `first` go to the five other kinds and the 20 passes (4, 4, 4, 4, 4, 3): 26
    assert len(dry) == 26 and all(fx.table and fx.table["boneyard"] == [] for fx in dry)
    assert not [fx for fx in made if fx.id.startswith("play-first-")]
    assert {len(fx.table["hands"]) for fx in dry if fx.table} == {5, 6, 7, 8}
    ends = [fx for fx in made if fx.id.startswith("play-end-")]
    assert len(ends) == 20
    assert any(fx.expect[0].result["end"] == "blocked" for fx in ends)


def test_the_draws_of_random_rounds_are_randrange_s() -> None:
    """Random rounds draw with situation_kinds.below, which must give what randrange gives
    from the same stream (the same bits drawn), or every situation's table would change
    with the Python that runs it."""
    import random

    from mtrain.conformance.situation_kinds import below

    sizes = [*range(1, 70), 127, 128, 129, 1000, 1 << 20]
    ours, stdlib = random.Random("situations"), random.Random("situations")
    assert [below(ours, n) for n in sizes * 40] == [stdlib.randrange(n) for n in sizes * 40]
    assert ours.random() == stdlib.random()  # and the streams are left at the same point


def test_a_round_end_before_the_last_round_checks_that_the_match_goes_on(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A round's end (play-end-) before the match's last round expects no winners yet
    (MATCH-1), kept through the cache and written out: a match that ends a round early
    failed nothing where no fixture of the rule set's set ends such a round (siding's
    double-6). Not under a match length of one's own, which decides the last round."""
    from mtrain.conformance import situations as S
    rs = catalog().ruleset("pagat")
    ends = [fx for fx in S._situations(rs, 16, None, S.SEED) if fx.id.startswith("play-end-")]
    assert ends and all(fx.expect[0].match_over is (False if "MATCH-1" in fx.clauses else None)
                        for fx in ends)
    assert any(fx.expect[0].match_over is False for fx in ends)
    again = [fx for fx in S.situations(rs, 16) if fx.id.startswith("play-end-")]
    assert [fx.expect[0].match_over for fx in again] == [fx.expect[0].match_over for fx in ends]
    assert "match_over: false" in render(ends, rs)
    own = catalog().rules_file(str(_written(tmp_path, "base: pagat\noptions:\n"
                                            "  match_length: other\n")))
    assert all(fx.expect[0].match_over is None for fx in S._situations(own, 16, None, S.SEED))
    out = tmp_path / "r.json"
    args = ["--variant", "pagat", "-k", "play-end-", "--situations", "70", "--format",
            "json", "--output", str(out)]
    assert main(["conform", "--adapter", f"{ADAPTERS}:ShortMatch", *args]) == 1
    failed = [r for r in json.loads(out.read_text(encoding="utf-8"))["results"]
              if r["status"] == "fail"]
    assert failed and all(r["charged"] == ["MATCH-1"] for r in failed)
    assert main(["conform", "--adapter", f"{ADAPTERS}:Reference", *args]) == 0
    capsys.readouterr()


def _written(folder: Path, text: str) -> Path:
    path = folder / "own-rules.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_drawn_double_that_ends_the_turn_fails_the_laid_doubles(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A double drawn and laid asks for another tile (DBL-1): `play-laid-` draws it,
    lays it and checks what the play leaves, charged to DBL-1. No situation took a play
    but a round's last, so siding's drawn double that ended the turn failed nothing
    under conform. The reference passes them all."""
    out = tmp_path / "r.json"
    args = ["--variant", "pagat", "-k", "play-laid-", "--situations", "200", "--format",
            "json", "--output", str(out)]
    assert main(["conform", "--adapter", f"{ADAPTERS}:DrawnDoubleEndsTurn", *args]) == 1
    results = json.loads(out.read_text(encoding="utf-8"))["results"]
    failed = [r for r in results if r["status"] == "fail"]
    assert len(results) >= 5 and len(failed) == len(results)
    assert all(r["charged"] == ["DBL-1"] and "phase: expected follow, got start"
               in r["messages"] for r in failed), failed[:2]
    assert main(["conform", "--adapter", f"{ADAPTERS}:Reference", *args]) == 0
    capsys.readouterr()


def test_a_default_run_lays_drawn_doubles_under_each_rule_set(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A default `mtrain conform` shares 700 situations among its 192 rule sets, 25 each,
    whose quarter of the passes' share (25 // 7 = 3) gave no `play-laid-`: run without a
    rules file, siding's drawn double that ended the turn (DBL-1) failed nothing."""
    from mtrain.conformance.fixture import FIXTURE_ROOT, load_corpus
    from mtrain.conformance.selection import default_rulesets, situation_count
    from mtrain.conformance.situations import LAID_LEAST

    count = situation_count(None, False, default_rulesets(load_corpus(FIXTURE_ROOT)[0]))
    assert count // (len(KINDS) + 1) // 4 == 0  # the share alone would give none
    out = tmp_path / "r.json"
    assert main(["conform", "--adapter", f"{ADAPTERS}:DrawnDoubleEndsTurn", "--variant",
                 "pagat", "-k", "play-laid-", "--situations", str(count), "--format", "json",
                 "--output", str(out)]) == 1
    results = json.loads(out.read_text(encoding="utf-8"))["results"]
    assert len(results) == LAID_LEAST == 2
    assert all(r["status"] == "fail" and r["charged"] == ["DBL-1"] for r in results), results
    capsys.readouterr()


def test_a_draw_from_the_wrong_end_is_charged_to_the_draw_in_a_follow_up_too(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Which tile a draw takes is TURN-2's, whenever the draw is made: a draw in a
    follow-up (DBL-5: "draws as in an ordinary turn") that took the wrong tile was charged
    to DBL-5, which says only that the player draws (sixes' wrong end, in `play-laid-`)."""
    out = tmp_path / "r.json"
    assert main(["conform", "--adapter", f"{ADAPTERS}:DrawsFromTheBack", "--variant",
                 "pagat", "-k", "play-laid-", "--situations", "700", "--format", "json",
                 "--output", str(out)]) == 1
    results = json.loads(out.read_text(encoding="utf-8"))["results"]
    drew = [r for r in results if r["status"] == "fail"
            and "after step 1 `draw`: hand" in r["messages"][0]]
    assert len(drew) >= 10
    assert {c for r in drew for c in r["charged"]} == {"TURN-2"}, [
        (r["fixture"], r["charged"]) for r in drew]
    capsys.readouterr()


def test_the_last_seat_lays_a_tile_and_seat_0_follows_under_any_draw_rule() -> None:
    """`play-wrap-` takes the last seat's tile that ends its turn and checks what it
    leaves: seat 0 to move (SEAT-1), a turn begun (TURN-6). No tile is drawn on its
    table, so a draw rule of one's own leaves it as it is, and decides only whether the
    passes and drawn doubles laid, the other situations that take a step mid-round, are
    moves."""
    pagat = catalog().ruleset("pagat")
    own = Ruleset("own-draw", tuple((o, OTHER if o == "draw_rule" else v)
                                    for o, v in pagat.choices), pagat.hand_table)
    for rs in (pagat, own):
        made = situations(rs, 14)
        wraps = [fx for fx in made if fx.id.startswith("play-wrap-")]
        assert len(wraps) == 2, rs.name  # 14 // 7 = 2 passes' share, LAID_LEAST at least
        for fx in wraps:
            assert fx.table is not None and "drawn" not in fx.table
            players, seat = len(fx.table["hands"]), int(fx.table.get("seat", 0))
            (step,) = fx.steps
            tile = step.split()[1].split("-")
            assert seat == players - 1 and step.startswith("play ") and tile[0] != tile[1]
            state = fx.expect[0].state
            assert state["seat"] == 0 and state["phase"] == "start" and state["drawn"] is None
            assert seat not in state["first_turns"]  # FIRST-6
            assert "SEAT-1" in fx.clauses and fx.expect[0].legal is None
    # the passes and drawn doubles laid are asked too, their move's legality the draw
    # rule's (a refusal of it not applicable, step_alone.py): session 49's
    moved = [fx for fx in made if fx.id.startswith(("play-pass-", "play-laid-"))]
    assert moved and all(fx.expect[0].own_steps == ((len(fx.steps), ("draw_rule",)),)
                         for fx in moved)
