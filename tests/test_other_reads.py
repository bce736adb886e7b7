"""An option counts only where its clause decides (issue 21, item 1).

A fixture's entry is not applicable to a rule set that plays an option `other` exactly
when a traced run of the reference reads that option (conformance/partition.py). So the
reference must read an option only once the table is one that one of the option's clauses
(spec/data/clauses.yaml, `when:`) speaks about. `APPLIES` says, for each option, from its
clauses' text and from the fixture's states alone (never from the engine's reads), when
that is so: on the fixture's table, or on a state its steps pass through (or, for a step's
own clause, on the step). The tests check every traced read of the corpus against it.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from mtrain.conformance.adapter import ReferenceImplementation, Refused, ruleset_json
from mtrain.conformance.fixture import Expectation, Fixture, load_corpus
from mtrain.conformance.interface import RefusedSetup
from mtrain.conformance.mutants import swapped
from mtrain.conformance.partition import applies
from mtrain.conformance.runner import play
from mtrain.conformance.situations import speaks_for, stand_in_for
from mtrain.conformance.traced import Log, TracedRules, TracedRuleset, traced_run
from mtrain.reference import engine
from mtrain.reference.deal import deal
from mtrain.reference.engine import BLOCKED, State, _finish, nobody_can_ever_play
from mtrain.reference.rules import Rules
from mtrain.reference.state import CHAIN, FOLLOW, OVER, START
from mtrain.spec.catalog import catalog
from mtrain.spec.model.legality import legal_actions
from mtrain.spec.notation import FixtureError, action_json, is_next_round, max_pip_of
from mtrain.spec.ruleset import Ruleset
from mtrain.spec.scope import Space

JSON = dict[str, Any]


@dataclass(frozen=True)
class Trace:
    """A fixture entry as the reference plays it: the states (the start, then one after
    each step, then one after each action the entry expects refused that the rules
    allow, which the check plays) and the actions taken in them."""

    fixture: Fixture
    ruleset: Ruleset
    states: tuple[JSON, ...]
    actions: tuple[tuple[JSON, str], ...]
    blocked_scored: bool = False
    """The entry asks what its last state is worth ended blocked (`blocked_scores`: a
    score request naming no winner), so the round's scoring speaks though none ended."""

    def steps(self) -> Iterator[tuple[JSON, str]]:
        """Each action with the state it is taken in."""
        return iter(self.actions)


def trace_of(fx: Fixture, exp: Expectation, rs: Ruleset) -> Trace:
    """The entry as the reference plays it under `rs`. A table the rule set does not deal
    (DEAL-7: a player count its hand-size table lacks) is refused as a whole: the trace
    stops at the states reached, with no action the entry expects refused played on it,
    and the reads the refusal made are checked against those states alone."""
    impl, rj = ReferenceImplementation(), ruleset_json(rs)
    states: list[JSON] = []
    play(fx, rs, impl, rj, trace=states)
    actions = list(zip(states, fx.steps, strict=False))
    if states and len(states) == len(fx.steps) + 1:
        last = states[-1]
        for text in exp.refused:
            try:
                states.append(impl.apply(rj, last, action_json(text, max_pip_of(rs))))
            except (Refused, FixtureError):
                continue
            except RefusedSetup:  # the table itself, not this action: nothing plays on it
                break
            actions.append((last, text))
    return Trace(fx, rs, tuple(states), tuple(actions), exp.blocked_scores is not None)


# --- where each option's clauses speak, from their text ----------------------------------


def _pair(text: str) -> tuple[int, int]:
    a, b = (int(x) for x in text.split("-"))
    return (a, b) if a >= b else (b, a)


def _trains(s: JSON) -> list[JSON]:
    return [*s["trains"], s["mexican"]]


def _key(s: JSON, train: int | str) -> JSON:
    found: JSON = s["mexican"] if train == "mexican" else s["trains"][int(train)]
    return found


def _on_table(s: JSON) -> set[tuple[int, int]]:
    out = {(s["engine"], s["engine"])}
    for t in _trains(s):
        out |= {_pair(x) for x in t["tiles"]}
    return out


def _highest(rs: Ruleset) -> int:
    from mtrain.spec.tilesets import highest
    return highest(rs["tile_set"])


def _blank(text: str) -> bool:
    return 0 in _pair(text)


def deals(tr: Trace) -> bool:
    """The fixture deals a round (ENG-*, SEAT-*, DEAL-*: how a round is set up)."""
    return tr.fixture.deal is not None or any(is_next_round(s) for s in tr.fixture.steps)


def starter_left_to_the_rule(tr: Trace) -> bool:
    """SEAT-2, SEAT-3: a table that does not say who started the round leaves it to the
    starting-seat rule (docs/fixture-format.md, `starter`)."""
    return tr.fixture.table is not None and "starter" not in tr.fixture.table


def first_turns(tr: Trace) -> bool:
    """FIRST-1 to FIRST-8: some first turn is still to come, or a chain is under way."""
    return deals(tr) or any(s["first_turns"] or s["phase"] == "chain" for s in tr.states)


def mexican_first_turn(tr: Trace) -> bool:
    """FIRST-8, FIRST-9: first turns are being taken and the Mexican Train is not open;
    FIRST-10: the Mexican Train is not open and the player to move has not started their
    own train (or, for END-2's question with the boneyard empty, some player has not).
    And the option's own question, "who may open the Mexican Train (during the first
    turns, or ever)": the Mexican Train is not open and the player to move (with the
    boneyard empty, any player) holds a tile that would open it, whatever their own
    train holds (a rule of one's own may ask for two tiles there:
    tests/examples/perl/dandy_engine.pl)."""
    def opens(hand: list[str], end: int) -> bool:
        return any(end in _pair(x) for x in hand)

    def unopened(s: JSON) -> bool:
        if s["mexican"]["tiles"] or s["phase"] == "over":
            return False
        if s["first_turns"] or not s["trains"][s["seat"]]["tiles"]:
            return True
        end = int(s["mexican"]["end"])
        if opens(s["hands"][s["seat"]], end):
            return True
        return not s["boneyard"] and (any(not t["tiles"] for t in s["trains"])
                                      or any(opens(h, end) for h in s["hands"]))
    return deals(tr) or any(unopened(s) for s in tr.states)


def own_train_first(tr: Trace) -> bool:
    """TRAIN-7: the player to move has not started their own train (or, for END-2's
    question with the boneyard empty, some player has not)."""
    def unstarted(s: JSON) -> bool:
        if s["phase"] == "over":
            return False
        if not s["trains"][s["seat"]]["tiles"]:
            return True
        return not s["boneyard"] and any(not t["tiles"] for t in s["trains"])
    return deals(tr) or any(unstarted(s) for s in tr.states)


def _double(text: str) -> bool:
    a, b = _pair(text)
    return a == b


def doubles(tr: Trace) -> bool:
    """DBL-1, DBL-11: a double is laid (it opens, or it is one more tile), or a train ends
    in one (an open double, or none: the table's account of its open doubles)."""
    laid = any((m := ACTION.fullmatch(step)) is not None and _double(m.group(1))
               for _, step in tr.steps())
    return laid or any(t["tiles"] and _double(t["tiles"][-1])
                       for s in tr.states for t in _trains(s))


def follow_up(tr: Trace) -> bool:
    """DBL-2 to DBL-4: the tile after a double."""
    return any(s["phase"] == "follow" for s in tr.states)


def double_order(tr: Trace) -> bool:
    """DBL-7, DBL-8: several open doubles."""
    return any(len(s["open_doubles"]) > 1 for s in tr.states)


def uncoverable_double(tr: Trace) -> bool:
    """DBL-9, DBL-10: an open double nobody can cover, every tile of its number laid;
    DBL-12, DBL-13: an open double of an earlier turn (released after its layer's turn,
    or once the boneyard is empty)."""
    top = _highest(tr.ruleset)

    def dead(s: JSON) -> bool:
        if set(s["open_doubles"]) - set(s["turn_doubles"]):
            return True  # DBL-12, DBL-13
        table = _on_table(s)
        for t in s["open_doubles"]:
            n = int(_key(s, t)["end"])
            if all((max(n, k), min(n, k)) in table for k in range(top + 1)):
                return True
        return False
    return any(dead(s) for s in tr.states)


ACTION = re.compile(r"play (\S+) on (\S+)")


def marker_removal(tr: Trace) -> bool:
    """MARK-3 to MARK-5: a tile is laid while the mover's marker or the train's is up;
    and the rule's own question, when a marker comes off, at its owner's draw (no known
    value takes it off there; a rule of one's own may: tests/examples/perl/
    dandy_engine.pl), and as its owner's turn begins (a rule of one's own may take it off
    then: tests/examples/js/lamplighter_engine.js)."""
    for k, (s, step) in enumerate(tr.steps()):
        if (step == "draw" and s["phase"] not in ("over", "engine")
                and s["trains"][s["seat"]]["marker"]):
            return True
        after = tr.states[k + 1] if k + 1 < len(tr.states) else None
        if (after is not None and s["phase"] not in ("over", "engine")
                and (after["phase"] == "start" or (after["phase"] == "over"
                                                   and after["result"]["end"] == "blocked"))
                and (after["seat"] != s["seat"] or len(s["hands"]) == 1)
                and after["trains"][after["seat"]]["marker"]):
            return True  # the turn passed to a marked seat
        m = ACTION.fullmatch(step)
        if m is None or s["phase"] in ("over", "engine"):
            continue
        train = m.group(2)
        if s["trains"][s["seat"]]["marker"] or (train != "mexican"
                                               and _key(s, train).get("marker")):
            return True
    return False


def draw_rule(tr: Trace) -> bool:
    """TURN-2, TURN-5: the player to move cannot play (asked of spec/legality.py) and
    tiles are left to draw; or has drawn this turn, where the rule says whether another
    draw may follow (TURN-2 refuses it under draw-one, whatever else does too)."""
    options = dict(tr.ruleset.items())
    return any(s["phase"] in ("start", "follow") and (s.get("drawn") is not None or (
               s["boneyard"]
               and not any(a.startswith("play ") for a in legal_actions(s, options))))
               for s in tr.states)


def blocked_round(tr: Trace) -> bool:
    """END-2, END-3: "at the end of a turn, the boneyard is empty": each such moment is
    one where the rule says whether the round goes on (a rule of one's own may end it
    where neither a full round of passes nor END-2 would), or a round ended blocked."""
    def asks_here(s: JSON) -> bool:
        if s["boneyard"]:
            return False
        if s["result"] is not None:
            return bool(s["result"]["end"] == BLOCKED)
        return bool(s["phase"] == "start")
    return any(asks_here(s) for s in tr.states)


def round_end(tr: Trace) -> bool:
    """SCORE-5, SCORE-6, MATCH-2, MATCH-3: a round ends (so it is scored), or the entry
    asks what its table is worth ended blocked (SCORE-5 to SCORE-7)."""
    return tr.blocked_scored or any(s["result"] is not None for s in tr.states)


def blank_left(tr: Trace) -> bool:
    """SCORE-1 to SCORE-4: a round ends, or the entry asks what its table is worth ended
    blocked (SCORE-5 to SCORE-7), with a blank end in a hand to count."""
    return any((s["result"] is not None or tr.blocked_scored)
               and any(_blank(x) for h in s["hands"] for x in h) for s in tr.states)


def tied(tr: Trace) -> bool:
    """MATCH-4, MATCH-5: a round ends with two players level on the best total."""
    def level(s: JSON) -> bool:
        totals = s["scores"]
        return any(totals.count(best) > 1 for best in (min(totals), max(totals)))
    return any(s["result"] is not None and level(s) for s in tr.states)


APPLIES: dict[str, Callable[[Trace], bool]] = {
    "engine_procedure": lambda tr: deals(tr) or any(s["phase"] == "engine" for s in tr.states),
    "starting_seat": lambda tr: deals(tr) or starter_left_to_the_rule(tr)
    or any(s["phase"] == "engine" for s in tr.states),
    "first_turn": first_turns,
    "mexican_first_turn": mexican_first_turn,
    "own_train_first": own_train_first,
    "doubles": doubles,
    "follow_up": follow_up,
    "double_order": double_order,
    "uncoverable_double": uncoverable_double,
    "marker_removal": marker_removal,
    "draw_rule": draw_rule,
    "blocked_round": blocked_round,
    "scoring": round_end,
    "blank_values": blank_left,
    "tie_rule": tied,
}
"""Every option but the two that every tile and every deal read (tile_set, hand_sizes):
neither can be `other` in a rule-set file."""


def corpus() -> list[Fixture]:
    fixtures, errors = load_corpus()
    assert not errors
    return fixtures


def strays(fixtures: Sequence[Fixture], rs: Ruleset) -> list[str]:
    """Every read of an option (of APPLIES) by a traced run of a fixture entry under `rs`
    (the entry alone checked, as `applies` runs it) where none of the option's clauses
    speaks about the entry's table, states or actions."""
    out = []
    for fx in fixtures:
        for i, exp in enumerate(fx.expect):
            read = [o for o in traced_run(fx, rs, [exp]).read if o in APPLIES]
            if not read:
                continue
            try:
                tr = trace_of(fx, exp, rs)
            except ValueError:  # a deal order of another set (DEAL-1): refused at the deal,
                continue  # which every option it read speaks about (APPLIES: deals)
            out += [f"{fx.id}#{i} [{rs.name}] reads {o}" for o in read if not APPLIES[o](tr)]
    return out


@pytest.mark.parametrize("variant", ["pagat", "puremco", "puremco+passes-end-round"])
def test_the_reference_reads_an_option_only_where_its_clause_applies(variant: str) -> None:
    assert strays(corpus(), catalog().ruleset(variant)) == []


def test_a_table_the_rule_set_does_not_deal_is_traced_to_its_start() -> None:
    """mut18-trains-001 seats nine, and puremco's hand-size table stops at eight (DEAL-7):
    the actions it expects refused are not played on a table the rule set refuses, so the
    trace is its start alone, with no action (it raised RefusedSetup before)."""
    fx = next(f for f in corpus() if f.id == "mut18-trains-001")
    exp = fx.expect[0]
    assert fx.table is not None and len(fx.table["hands"]) == 9 and exp.refused
    tr = trace_of(fx, exp, catalog().ruleset("puremco"))
    assert len(tr.states) == 1 and tr.actions == ()


def _with_early_reads() -> dict[str, Callable[..., Any]]:
    """The reference with reads before their clause applies: the blocked-round rule read
    at every turn end, the boneyard empty or not; the blank values and the scoring at
    every round end (main before issue 21)."""
    def check_blocked(state: State) -> None:
        if state.rules.passes_end_round and state.boneyard:
            return
        if state.boneyard:
            return
        if state.rules.passes_end_round:
            if state.passes >= state.players:
                _finish(state, BLOCKED, -1)
            return
        if nobody_can_ever_play(state):
            _finish(state, BLOCKED, -1)

    def hand_value(state: State, seat: int) -> int:
        value = state.rules.value
        return sum(value[t] for t in range(len(value)) if state.hands[seat] >> t & 1)
    return {"_check_blocked": check_blocked, "hand_value": hand_value}


def test_an_early_read_is_caught() -> None:
    """The check above is not vacuous: with two of the old early reads put back, it finds
    reads where no clause of the option speaks."""
    fixtures = corpus()
    with swapped(_with_early_reads()):
        found = strays(fixtures, catalog().ruleset("pagat"))
    assert engine._check_blocked.__name__ == "_check_blocked"  # restored
    assert any("reads blocked_round" in f for f in found)
    assert any("reads blank_values" in f for f in found)


# --- the same through `other`, as `mtrain conform` decides it ----------------------------


def other_rules(base: str, options: Sequence[str], folder: Path) -> Ruleset:
    path = folder / f"{base}-{'-'.join(options)}.yaml"
    path.write_text("\n".join([f"name: {base}-other", f"base: {base}", "options:",
                               *(f"  {o}: other" for o in options)]) + "\n")
    return catalog().rules_file(path)


@pytest.mark.slow
@pytest.mark.parametrize("base", ["pagat", "puremco"])
def test_other_makes_not_applicable_only_where_the_clause_applies(base: str,
                                                                   tmp_path: Path) -> None:
    """Issue 21's property, through `applies`: for every option, every entry that `other`
    makes not applicable is one where the option's clause applies to the table or one of
    its steps (played by the rule set the reference plays in its place)."""
    space = Space()
    fixtures = corpus()
    found = []
    for option, speaks in APPLIES.items():
        rs = other_rules(base, [option], tmp_path)
        stand_in = stand_in_for(rs, space)
        assert stand_in is not None
        for fx in fixtures:
            for i, exp in enumerate(fx.expect):
                why = applies(exp, fx, rs, space) or ""
                if f"{option} (played its own way)" not in why:
                    continue
                try:
                    tr = trace_of(fx, exp, stand_in)
                except ValueError:  # a deal order of another set (DEAL-1): a deal, which
                    continue  # every option it read speaks about
                if not speaks(tr):
                    found.append(f"{fx.id}#{i}: {option}")
    assert found == []


def test_a_blocked_round_of_ones_own_is_asked_at_every_turn_end_on_an_empty_boneyard(
        tmp_path: Path) -> None:
    """turn-020: a pass on an empty boneyard, after which the round goes on under both
    known values. A rule of one's own may end the round there (tests/examples/
    railyard_engine.py ends it at the first such pass), so the entry is not applicable
    to `blocked_round: other`; it was run, and failed on that engine as a rule difference."""
    (fx,) = [f for f in corpus() if f.id == "turn-020"]
    rs = other_rules("pagat", ["blocked_round"], tmp_path)
    (exp,) = [e for e in fx.expect if e.scope.contains(dict(catalog().ruleset("pagat").choices))]
    assert "blocked_round (played its own way)" in (applies(exp, fx, rs, Space()) or "")
    # and under another option of one's own that no turn-020 state speaks about, it runs
    assert applies(exp, fx, other_rules("pagat", ["tie_rule"], tmp_path), Space()) is None


def test_an_entry_no_value_of_the_rule_brings_in_is_outside_its_scope_not_its_rule(
        tmp_path: Path) -> None:
    """junction (tests/examples/) sets the engine aside and starts with the heaviest tile,
    and plays its first turn its own way. engine-007 speaks only about rounds whose
    engine is dealt or that start with its holder or after it: no first turn brings
    junction into it, so it speaks about other rules; it was reported not applicable
    "because its outcome depends on first_turn", blaming the house rule for a scope it
    never had. An entry whose scope some value of the rule reaches still depends on it."""
    space = Space()
    rules = catalog().rules_file(Path(__file__).parent / "examples" / "junction-rules.yaml")
    fixtures = {f.id: f for f in corpus()}
    fx = fixtures["engine-007"]
    assert [applies(e, fx, rules, space) for e in fx.expect] == [
        "outside the expectation's scope"]
    # a first-turn fixture under pagat with its first turn of its own: pagat is in the
    # scope but for the first turn, which the run reads
    pagat = other_rules("pagat", ["first_turn"], tmp_path)
    first = fixtures["first-001"]
    assert "first_turn (played its own way)" in (applies(first.expect[0], first, pagat,
                                                         space) or "")



def test_a_table_in_the_follow_up_phase_speaks_for_no_doubles_rule_of_its_own() -> None:
    """A follow-up exists only because a double asks its layer for another tile (DBL-1,
    `doubles: open`). A doubles rule of one's own where a double ends the turn
    (tests/examples/tandem_engine.py) has no such table: 75 of its 941 results failed as
    rule differences (follow-up tables from play, their legal sets asked under the
    stand-in `open`) until the reference read `doubles` on every table of that phase."""
    rs = catalog().rules_file(str(Path(__file__).parent / "examples" / "tandem-rules.yaml"))
    plays = stand_in_for(rs)
    assert plays is not None and plays["doubles"] == "open"
    speaks = speaks_for(rs, plays)
    assert speaks is not None
    rules, rng = Rules.of(plays), random.Random(5)
    seen = {"follow": 0, "start": 0}
    for seed in range(40):
        st = deal(rules, 2, 1, seed=seed)
        while st.phase not in (OVER, FOLLOW):
            engine.perform(st, rng.choice(engine.legal_actions(st)))
        if st.phase == FOLLOW:
            seen["follow"] += 1
            assert not speaks(st)
            st.phase, st.turn_doubles = START, []  # the same table a turn later: it speaks
            st.seat = (st.seat + 1) % st.players
            seen["start"] += speaks(st)
    assert seen["follow"] > 10 and seen["start"] > 0, seen


def test_a_turn_that_ends_with_a_double_open_reads_the_doubles_rule() -> None:
    """Whether a double of an earlier turn still open outlives the end of another turn
    (it binds the players after it: DBL-6) is the doubles rule's. pullman
    (tests/examples/pullman_engine.py) binds the next player only, and the double is dead
    once that player's turn ends: 22 of its 1,197 results (the pass after a draw in vain,
    play-pass-) failed with its bugs off, and fuzz found two rule differences (`after
    pass: open_doubles`, `after play: open_doubles`), until the reference read `doubles`
    when a turn ends with a double of an earlier turn open. A double laid this turn is
    left alone: tandem's (a double ends its layer's turn, binding the next player) is
    judged there, as before."""
    rs = catalog().rules_file(str(Path(__file__).parent / "examples" / "pullman-rules.yaml"))
    plays = stand_in_for(rs)
    assert plays is not None and plays["doubles"] == "open"
    rules, rng = Rules.of(plays), random.Random(7)
    seen = {"open": 0, "closed": 0}
    for seed in range(30):
        st = deal(rules, 4, 1, seed=seed)
        while st.phase != OVER:
            action = rng.choice(engine.legal_actions(st))
            if st.phase == START and action[0] in ("play", "pass"):
                log = Log()
                after = st.copy()
                after.rules = TracedRules(rules, TracedRuleset.wrap(plays, log), log)  # type: ignore[assignment]
                engine.perform(after, action)
                if after.phase == START:  # the turn ended, the round goes on
                    kept = bool(after.open_doubles)  # (none laid in this turn: START)
                    seen["open" if kept else "closed"] += 1
                    assert ("doubles" in log.read) == kept, (seed, action)
            engine.perform(st, action)
    assert seen["open"] > 10 and seen["closed"] > 10, seen


def test_a_tile_laid_in_a_first_turn_chain_reads_the_first_turn_rule() -> None:
    """Whether a first turn's line goes on after a tile (phase `chain`) is the first-turn
    rule's (FIRST-1). tender (tests/examples/tender_engine.py) ends it by itself after
    the third tile: fuzz found a rule difference with its bugs off (`after play:
    first_turns`, 10 in 12 games: phase chain expected, start got), since the reference
    read `first_turn` when a chain began and not when a tile was laid in one."""
    rs = catalog().rules_file(str(Path(__file__).parent / "examples" / "tender-rules.yaml"))
    plays = stand_in_for(rs)
    assert plays is not None and plays["first_turn"] == "chain"
    rules, rng = Rules.of(plays), random.Random(3)
    seen = 0
    for seed in range(20):
        st = deal(rules, 3, 1, seed=seed)
        while st.phase != OVER:
            action = rng.choice(engine.legal_actions(st))
            if st.phase == CHAIN and action[0] == "play":
                log = Log()
                after = st.copy()
                after.rules = TracedRules(rules, TracedRuleset.wrap(plays, log), log)  # type: ignore[assignment]
                engine.perform(after, action)
                seen += 1
                assert "first_turn" in log.read, (seed, action)
            engine.perform(st, action)
    assert seen > 10, seen
