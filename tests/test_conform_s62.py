"""Session 62 (conf62): the Mexican-Train cut combined with the other cuts.

Under `mexican_first_turn: other` an entry reading another rule of one's own besides was
not applicable whole, though each rule alone had its cut:
- with `own_train_first: other` (hump, flagstop): conformance/mexican_with.py runs both
  cuts at once, and fuzz asks it of an answer that read both (fuzz/own_release.py);
- with `starting_seat: other` on a table that writes no starter (layover, gantry), or
  `marker_removal: other` (dandy): mexican_alone.py asks its cut under every pair of
  known values, the markers left to the marker rule as marker_alone.py leaves them;
- with `starting_seat: other` on a deal with no step: seat_alone.dealt_entry, the Mexican
  rule's reads there deciding nothing the cut checks.
benchmarks/house_not_applicable.py --reference, not applicable: hump 92 -> 50, flagstop
31 -> 22, layover 67 -> 39, dandy 69 -> 57, gantry 138 -> 101; nothing failing with the
bugs off. benchmarks/fuzz_house.py --no-bugs (12 games, seed 1), answers set aside: hump
219 -> 100, flagstop 75 -> 15, no new finding.

Each test of a cut fails without it (entry_for gave no entry: not applicable; fuzz's cut
returned None: not judged).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from mtrain.conformance.adapter import JSON, ReferenceImplementation
from mtrain.conformance.fixture import FIXTURE_ROOT, Fixture, load_file
from mtrain.conformance.fuzz import own_release
from mtrain.conformance.fuzz.judge import Disagreement
from mtrain.conformance.fuzz.own_rules import on_state
from mtrain.conformance.fuzz.rulesets import declared_context
from mtrain.conformance.interface import Refused
from mtrain.conformance.mexican_alone import mexican_entry, mexican_options
from mtrain.conformance.mexican_with import pair_options
from mtrain.conformance.partition import applies, stand_in
from mtrain.conformance.runner import run_one
from mtrain.conformance.selection import entry_for
from mtrain.reference import codec
from mtrain.reference.engine import legal_actions
from mtrain.spec.catalog import catalog
from mtrain.spec.notation import action_json, table_state
from mtrain.spec.ruleset import Ruleset
from mtrain.spec.scope import Space

TWO_HOUSE = """\
name: two-house
base: pagat
options:
  mexican_first_turn: other
  own_train_first: other
"""
"""pagat, but for two house rules no value describes: until one's own train is started
one may not play on another's marked train (hump's); and only a player whose own train
holds two tiles or more may open the Mexican Train (dandy's)."""


def _rules(tmp_path: Path) -> Ruleset:
    path = tmp_path / "two-house.yaml"
    path.write_text(TWO_HOUSE, encoding="utf-8")
    return catalog().rules_file(str(path))


def _wide(ruleset: JSON) -> JSON:
    """The known rules that allow every play the house rules may: anyone opens the
    Mexican Train, one's own train need not come first."""
    return {**ruleset, "options": {**ruleset["options"], "mexican_first_turn": "anyone",
                                   "own_train_first": "not-required"}}


def _forbidden(state: JSON, action: JSON, own_first: bool = True) -> bool:
    """Whether the house rules forbid the play `action` that the wide rules allow
    (without `own_first`, the Mexican rule's alone)."""
    if action.get("type") != "play":
        return False
    own = state["trains"][state["seat"]]["tiles"]
    train = action.get("train")
    if train == "mexican":
        return not state["mexican"]["tiles"] and len(own) < 2
    return (own_first and train != state["seat"] and not own
            and state["trains"][train]["marker"])


class TwoHouse(ReferenceImplementation):
    """The two house rules, played right: the wide rules' plays less those they forbid,
    and a draw (a pass on an empty boneyard) where none is left."""

    own_first = True
    """Whether the house rule of one's own train first is played (else `not-required`)."""

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        wide = super().legal(_wide(ruleset), state)
        kept = [a for a in wide if not _forbidden(state, a, self.own_first)]
        if any(a.get("type") == "play" for a in kept) or not any(
                a.get("type") == "play" for a in wide):
            return kept
        return [{"type": "draw"} if state["boneyard"] else {"type": "pass"}]

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        if _forbidden(state, action, self.own_first):
            raise Refused("a house rule forbids that play")
        return super().apply(_wide(ruleset), state, action)


class ForgetsHome(TwoHouse):
    """The planted bug: holding a tile that would open the empty Mexican Train, it offers
    no play on its own train (TRAIN-1 allows it whatever either house rule says)."""

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        actions = super().legal(ruleset, state)
        opens = any(a.get("train") == "mexican" and not state["mexican"]["tiles"]
                    for a in ReferenceImplementation.legal(self, _wide(ruleset), state))
        return [a for a in actions if not (opens and a.get("train") == state["seat"])]


def _fixture(path: Path, fid: str) -> Fixture:
    (fx,) = [f for f in load_file(path) if f.id == fid]
    return fx


def _read_both(fx: Fixture, rs: Ruleset, space: Space) -> None:
    """The fixture's entry reads both house rules (and no other): the reason this cut
    takes, where no other cut ran it before."""
    why = applies(fx.expect[0], fx, rs, space)
    assert why is not None and pair_options(why) == {"mexican_first_turn",
                                                     "own_train_first"}, why


def test_an_entry_both_rules_read_runs_but_for_what_they_decide(tmp_path: Path) -> None:
    """generated-own-train-first-001 (engine 9, seat 0 to move, first turns over): seat 0
    holds [9-1] alone, both trains empty and marked, the Mexican Train empty. By hand:
    [9-1] fits its own train, seat 1's and the Mexican Train (all end in 9). Whatever
    either house rule says, `play 9-1 on 0` is legal (TRAIN-1) and so no draw (TURN-1);
    `play 9-1 on 1` is one's own train first's (TRAIN-4 opens a marked train, TRAIN-7
    shuts it before one's own is started) and `play 9-1 on mexican` the Mexican rule's.
    Before the cut the entry was not applicable whole."""
    rs = _rules(tmp_path)
    assert set(rs.unknown) == {"mexican_first_turn", "own_train_first"}
    fx = _fixture(FIXTURE_ROOT / "generated" / "own-train-first.yaml",
                  "generated-own-train-first-001")
    space = Space()
    _read_both(fx, rs, space)
    exp, why = entry_for(fx, rs, space)
    assert exp is not None, why
    assert set(exp.own_actions) == {"play 9-1 on 1", "play 9-1 on mexican"}
    assert exp.legal is not None and "play 9-1 on 0" in exp.legal
    sent = stand_in(rs, exp, space)
    ok = run_one(fx, sent, exp, TwoHouse(), own=rs.unknown)
    assert ok.status == "pass", ok.messages
    bad = run_one(fx, sent, exp, ForgetsHome(), own=rs.unknown)
    assert bad.status == "fail"
    assert any("legal actions missing: play 9-1 on 0" in m for m in bad.messages), \
        bad.messages


OPENING_ONLY = """\
- id: s62-pair-001
  description: "Own train empty, the only other play a marked train: whether to draw is the rules'"
  clauses: [TRAIN-5, TRAIN-7, TURN-1]
  source: [computation]
  note: >-
    Engine 5, first turns over. Seat 0 holds [5-3] and [9-9]; its own train is empty
    (ends 5), seat 1's ends in 8 and is marked. [5-3] fits its own train and the empty
    Mexican Train; [9-9] fits nothing.
  table:
    engine: 5
    seat: 0
    hands:
      0: [5-3, 9-9]
      1: [8-2, 4-1]
    trains:
      1: [5-8]
    marked: [1]
  expect:
    - when:
        tile_set: [double-12]
        mexican_first_turn: [anyone]
        own_train_first: [not-required]
      legal: [play 5-3 on 0, play 5-3 on mexican]
      refused:
        play 9-9 on 0: TRAIN-2
        play 9-9 on mexican: TRAIN-2
        draw: TURN-1
"""


def test_a_refusal_every_house_rule_makes_is_judged(tmp_path: Path) -> None:
    """s62-pair-001 (worked in its note): [9-9] fits no train, refused by TRAIN-2 whatever
    the rules, on its own train and on the Mexican Train alike (a tile that cannot open
    it is no opening); [5-3] home is legal whatever they say, so the draw is refused.
    An engine that takes [9-9] onto the empty Mexican Train fails."""
    rs = _rules(tmp_path)
    path = tmp_path / "pair.yaml"
    path.write_text(OPENING_ONLY, encoding="utf-8")
    fx = _fixture(path, "s62-pair-001")
    space = Space()
    _read_both(fx, rs, space)
    exp, why = entry_for(fx, rs, space)
    assert exp is not None, why
    assert exp.own_actions == ("play 5-3 on mexican",)
    assert set(exp.refused) == {"play 9-9 on 0", "play 9-9 on mexican", "draw"}

    class TakesAnyDouble(TwoHouse):
        def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
            if action.get("tile") == "9-9" and action.get("train") == "mexican":
                return state  # accepted: TRAIN-2 broken
            return super().apply(ruleset, state, action)

    sent = stand_in(rs, exp, space)
    assert run_one(fx, sent, exp, TwoHouse(), own=rs.unknown).status == "pass"
    bad = run_one(fx, sent, exp, TakesAnyDouble(), own=rs.unknown)
    assert bad.status == "fail" and "TRAIN-2" in bad.charged, bad.messages


RULES_ONLY = """\
- id: s62-pair-002
  description: "Both refusals the house rules' own: nothing left to judge"
  clauses: [TRAIN-7]
  source: [computation]
  note: >-
    generated-own-train-first-001's table (engine 9; seat 0 holds [9-1], both trains
    empty and marked, the Mexican Train empty), under required: [9-1] may go nowhere but
    on seat 0's own train before it is started (TRAIN-7), the Mexican Train included.
  table:
    engine: 9
    seat: 0
    hands:
      0: [9-1]
      1: [0-0]
    marked: [0, 1]
  expect:
    - when:
        tile_set: [double-12]
        mexican_first_turn: [anyone]
        own_train_first: [required]
      refused:
        play 9-1 on 1: TRAIN-7
        play 9-1 on mexican: TRAIN-7
"""


def test_an_entry_whose_every_check_is_the_rules_stays_set_aside(tmp_path: Path) -> None:
    """s62-pair-002 (worked in its note): the opening is the Mexican rule's, and the play
    on seat 1's marked train is refused under `required` and allowed under
    `not-required` (TRAIN-4): a house rule between them may allow it, so neither refusal
    is judged, and the entry, nothing left, stays not applicable, naming both rules."""
    rs = _rules(tmp_path)
    path = tmp_path / "only.yaml"
    path.write_text(RULES_ONLY, encoding="utf-8")
    fx = _fixture(path, "s62-pair-002")
    space = Space()
    _read_both(fx, rs, space)
    exp, why = entry_for(fx, rs, space)
    assert exp is None
    assert why is not None and pair_options(why), why


def test_the_inline_fixtures_are_possible(tmp_path: Path) -> None:
    """The reference plays each inline fixture's entry as written under a known rule set
    of its scope (a check of the fixture's possibility, not the source of its values)."""
    space = Space()
    for text, fid in ((OPENING_ONLY, "s62-pair-001"), (RULES_ONLY, "s62-pair-002")):
        path = tmp_path / f"{fid}.yaml"
        path.write_text(text, encoding="utf-8")
        fx = _fixture(path, fid)
        (exp,) = fx.expect
        sample = space.complete(exp.scope.products[0].region())
        assert sample is not None, fid
        known = space.ruleset(sample)
        out = run_one(fx, known, exp, ReferenceImplementation())
        assert out.status == "pass", (fid, out.messages)


SEAT_HOUSE = """\
name: seat-house
base: pagat
options:
  starting_seat: other
  mexican_first_turn: other
"""
"""pagat, but for two house rules: the round starts at the seat holding the lowest double
(no known value), and only a player whose own train holds two tiles or more may open the
Mexican Train. On a table that writes no starter the starting seat gives it."""


class SeatHouse(TwoHouse):
    """The Mexican house rule played right, one's own train never first (pagat's); the
    starter is the table's, as the state sent says."""

    own_first = False


class SeatForgetsHome(ForgetsHome):
    """ForgetsHome's planted bug, under SEAT_HOUSE's rules."""

    own_first = False


def test_a_table_with_no_starter_runs_the_mexican_cut_under_a_seat_of_ones_own(
        tmp_path: Path) -> None:
    """engine-002 (engine 5, first turns over, no starter written): seat 0, own train empty
    and marked, holds [5-3], [9-9], [6-1] (worked in test_conform_s61). Which seat started
    the round is the starting seat's, and decides nothing here but which player the
    Mexican rule's `starter-only` lets open it, which is left to the engine: `play 5-3 on
    0` is legal and the draw refused whatever either rule says. Before, the entry read the
    starting seat besides the Mexican rule, and was not applicable whole (layover)."""
    path = tmp_path / "seat-house.yaml"
    path.write_text(SEAT_HOUSE, encoding="utf-8")
    rs = catalog().rules_file(str(path))
    fx = _fixture(FIXTURE_ROOT / "engine" / "engine.yaml", "engine-002")
    space = Space()
    why = applies(fx.expect[0], fx, rs, space)
    assert why is not None and mexican_options(why) == {"starting_seat", "mexican_first_turn"}
    exp, why = entry_for(fx, rs, space)
    assert exp is not None, why
    assert exp.own_actions == ("play 5-3 on mexican",)
    assert exp.legal is not None and "play 5-3 on 0" in exp.legal
    assert "draw" in exp.refused
    sent = stand_in(rs, exp, space)
    ok = run_one(fx, sent, exp, SeatHouse(), own=rs.unknown)
    assert ok.status == "pass", ok.messages
    bad = run_one(fx, sent, exp, SeatForgetsHome(), own=rs.unknown)
    assert bad.status == "fail"
    assert any("legal actions missing: play 5-3 on 0" in m for m in bad.messages), \
        bad.messages


def test_a_table_that_writes_its_starter_or_a_deal_is_not_taken(tmp_path: Path) -> None:
    """The seat's cut holds only where the table's starter is all the seat gives: a table
    that writes its starter reads no starting seat, and a deal's seat is the seat rule's
    own (mexican_entry declines such an entry whatever else it reads)."""
    path = tmp_path / "seat-house.yaml"
    path.write_text(SEAT_HOUSE, encoding="utf-8")
    rs = catalog().rules_file(str(path))
    space = Space()
    named = frozenset(("starting_seat", "mexican_first_turn"))
    fx = _fixture(FIXTURE_ROOT / "engine" / "engine.yaml", "engine-002")
    assert fx.table is not None
    written = dataclasses.replace(fx, table={**fx.table, "starter": 0})
    assert mexican_entry(fx.expect[0], written, rs, space, named) is None
    assert mexican_entry(fx.expect[0], fx, rs, space, named) is not None


MARKER_HOUSE = """\
name: marker-house
base: pagat
options:
  marker_removal: other
  mexican_first_turn: other
"""
"""pagat, but for two house rules: a marker stays up until the round ends (no known value
takes none off), and only a player whose own train holds two tiles or more may open the
Mexican Train."""


def _kept_markers(before: JSON, after: JSON) -> JSON:
    """`after` with every marker up in `before` still up (the house marker rule)."""
    trains = [{**t, "marker": t["marker"] or b["marker"]}
              for t, b in zip(after["trains"], before["trains"], strict=True)]
    return {**after, "trains": trains}


class MarkerHouse(SeatHouse):
    """Both house rules played right (pagat's own train rule)."""

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        return _kept_markers(state, super().apply(ruleset, state, action))


class MarkerForgetsHome(SeatForgetsHome):
    """ForgetsHome's planted bug, under MARKER_HOUSE's rules."""

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        return _kept_markers(state, super().apply(ruleset, state, action))


def test_a_marker_rule_of_ones_own_besides_is_cut_as_marker_alone_cuts_it(
        tmp_path: Path) -> None:
    """ownmex-001 (its note): seat 2, own train empty and marked, lays [6-6] on seat 1's
    marked train and owes a follow-up (DBL-1); [12-3] fits its own train and the empty
    Mexican Train. Which markers are up after is the marker rule's, the opening the
    Mexican rule's; the rest is neither's: phase follow, turn_doubles [1], seat 2, and
    `play 12-3 on 2` legal (DBL-2 anywhere, TRAIN-1). Before, the entry read both rules
    and was not applicable whole (dandy: 15 such fixtures)."""
    path = tmp_path / "marker-house.yaml"
    path.write_text(MARKER_HOUSE, encoding="utf-8")
    rs = catalog().rules_file(str(path))
    fx = _fixture(FIXTURE_ROOT / "first-turn" / "own-train-mexican-extra.yaml", "ownmex-001")
    space = Space()
    why = applies(fx.expect[0], fx, rs, space)
    assert why is not None and mexican_options(why) == {"marker_removal", "mexican_first_turn"}
    exp, why = entry_for(fx, rs, space)
    assert exp is not None, why
    assert "marked" not in exp.state and exp.state["phase"] == "follow"
    assert exp.own_actions == ("play 12-3 on mexican",)
    assert exp.legal is not None and "play 12-3 on 2" in exp.legal
    sent = stand_in(rs, exp, space)
    ok = run_one(fx, sent, exp, MarkerHouse(), own=rs.unknown)
    assert ok.status == "pass", ok.messages
    bad = run_one(fx, sent, exp, MarkerForgetsHome(), own=rs.unknown)
    assert bad.status == "fail"
    assert any("legal actions missing: play 12-3 on 2" in m for m in bad.messages), \
        bad.messages


PAIR_TABLE = {"engine": 9, "seat": 0, "starter": 1, "hands": {0: ["9-1"], 1: ["0-0"]},
              "marked": [0, 1], "first_turns": []}
"""generated-own-train-first-001's table (worked in the first test): `play 9-1 on 0`
legal and the draw refused whatever either house rule says; `play 9-1 on 1` and `play
9-1 on mexican` theirs."""


def test_fuzz_judges_an_answer_that_read_both_as_conform_cuts_it(tmp_path: Path) -> None:
    """fuzz set aside every legal answer that read both rules (hump: 119 in 12 games,
    seed 1; flagstop 60); it now asks conform's cut of it (own_release._cut)."""
    path = tmp_path / "two-house.yaml"
    path.write_text(TWO_HOUSE, encoding="utf-8")
    ctx = declared_context(catalog().rules_file(str(path)))
    st = codec.state_from_json(ctx.rules, table_state(PAIR_TABLE, ctx.rs))
    legal, own = on_state(ctx, st, legal_actions)
    assert set(own) == {"mexican_first_turn", "own_train_first"}

    def cut(*texts: str) -> list[Disagreement] | None:
        return own_release.legal_cut(ctx, st, legal, [action_json(t) for t in texts], own)

    assert cut("play 9-1 on 0") == []  # the house rules' answer: judged, nothing wrong
    assert cut("play 9-1 on 0", "play 9-1 on 1", "play 9-1 on mexican") == []
    missing = cut("play 9-1 on 1", "play 9-1 on mexican")  # its own train left out
    assert missing is not None and len(missing) == 1, missing
    assert "9-1" in missing[0].signature + " ".join(missing[0].messages)
    drawn = cut("play 9-1 on 0", "draw")  # a draw while a play is left (TURN-1)
    assert drawn, drawn


class ShortDealt(SeatHouse):
    """The planted bug: seat 0 is dealt one tile more than the table says, from the
    boneyard (DEAL-2)."""

    def deal(self, ruleset: JSON, players: int, round: int, order: list[str],
             draw: list[list[str]] | None = None) -> JSON:
        state = super().deal(ruleset, players, round, order, draw)
        hands = [list(h) for h in state["hands"]]
        boneyard = list(state["boneyard"])
        hands[0].append(boneyard.pop(0))
        return {**state, "hands": hands, "boneyard": boneyard}


def test_a_deal_runs_its_seat_aside_though_the_mexican_rule_is_read(tmp_path: Path) -> None:
    """engine-006 (its note: 10 players, round 2, sorted order; seat 9 dealt [11-11], lays
    it; 8 tiles a seat, seat 9 left 7, boneyard 11) under SEAT_HOUSE: the seat and starter
    are the seat rule's, and the legal set the Mexican rule's as much as the seat's; the
    rest of the deal (hands, boneyard, the engine laid) is neither's, and the cut checks no
    action, so the Mexican rule's reads there decide nothing of it. Before, seat_alone's
    dealt_entry refused any entry reading another rule of one's own: not applicable."""
    path = tmp_path / "seat-house.yaml"
    path.write_text(SEAT_HOUSE, encoding="utf-8")
    rs = catalog().rules_file(str(path))
    fx = _fixture(FIXTURE_ROOT / "engine" / "engine.yaml", "engine-006")
    space = Space()
    why = applies(fx.expect[0], fx, rs, space)
    assert why is not None and mexican_options(why) == {"starting_seat", "mexican_first_turn"}
    exp, why = entry_for(fx, rs, space)
    assert exp is not None, why
    assert exp.legal is None and not exp.refused
    assert "seat" not in exp.state and "starter" not in exp.state
    assert exp.state["boneyard_size"] == 11
    sent = stand_in(rs, exp, space)
    ok = run_one(fx, sent, exp, SeatHouse(), own=rs.unknown)
    assert ok.status == "pass", ok.messages
    bad = run_one(fx, sent, exp, ShortDealt(), own=rs.unknown)
    assert bad.status == "fail", bad.messages
