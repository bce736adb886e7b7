"""identify's observations: every fixture played once on the engine, each entry judged
(pass, fail, error, or not seen), and what a rule of the engine's own may stand for in a
fixture's outcomes (SETUP_ONLY). run.py solves over what this sees."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Collection, Sequence
from typing import Final

from mtrain.conformance.adapter import (
    JSON,
    Implementation,
    ReferenceImplementation,
    RefusedSetup,
    Unsupported,
    ruleset_json,
)
from mtrain.conformance.attribution import Referee
from mtrain.conformance.divergence import ROUND_END
from mtrain.conformance.expectation_checks import check
from mtrain.conformance.fixture import Expectation, Fixture
from mtrain.conformance.follow_probe import covering_play, refuses
from mtrain.conformance.identify import shared
from mtrain.conformance.identify.additive import SUM, Additive
from mtrain.conformance.identify.cells import Piece
from mtrain.conformance.identify.found import Observation
from mtrain.conformance.process import FAILURES, HarnessError
from mtrain.conformance.release_alone import OPTION as RELEASE
from mtrain.conformance.release_alone import release_entry
from mtrain.conformance.round_end_alone import worth_aside
from mtrain.conformance.runner import (
    Outcome,
    _reference_states,
    charge_refused_step,
    departure,
    one_charge,
    play,
    setup_problems,
)
from mtrain.conformance.selection import players_of
from mtrain.spec.catalog import catalog
from mtrain.spec.notation import max_pip_of
from mtrain.spec.ruleset import OTHER, Ruleset
from mtrain.spec.scope import Space

SETUP_ONLY: Final = {"match_length": frozenset({"MATCH-1", "MATCH-7"})}
"""Options a table reads only to know whether its round exists in the match (the engine's
EXISTENCE_FLAGS: MATCH-7 has no round after the first), but where the fixture cites one of
these clauses (MATCH-1: the match's end, which the length decides). Elsewhere a rule of
the engine's own for such an option cannot change what happens at the table, only whether
the engine has it (conform judges it so: partition.round_of_its_own). So there `other`
stands for the values that have the table where the engine played it (it plays as they
do, the other options deciding how), for those that lack it where the engine refused its
setup, and never for an answer no known value gives. The tables of later rounds played as
`full` plays them are then no evidence for `full` against a match of the engine's own
(roundhouse's, which ends once a total reaches 150: 631 of them had counted against it),
and a bug at such a table is not read as the match's length either (which once kept
`other` to the clauses' fixtures alone)."""


def _escapable(fx: Fixture, escapable: Sequence[str], pieces: Sequence[Piece],
               refused: bool, having: Callable[[Fixture, str], frozenset[str]],
               space: Space) -> tuple[list[str], dict[str, frozenset[str]]]:
    """The options `other` may stand for in `fx`'s outcomes, and for those of SETUP_ONLY
    outside their clauses' fixtures, the values it may stand for there (`refused`: the
    engine refused the setup; `having`: the values under which the reference has the
    table)."""
    cited = set(fx.clauses)
    only: dict[str, frozenset[str]] = {}
    for o in escapable:
        if o in SETUP_ONLY and not cited & SETUP_ONLY[o]:
            # the outcome the same under all values: `other` stands for none of them, but
            # where the engine refused the setup, for those that lack the table (a later
            # round's situation from play, explored only where its rule set has it)
            if not refused and not any(o in p.region for p in pieces):
                only[o] = frozenset()
                continue
            has = having(fx, o)
            only[o] = frozenset(space.options[o]) - has if refused else has
    return list(escapable), only


def stand_ins(obs: Observation, escapable: Sequence[str], pieces: Sequence[Piece],
              having: Callable[[Fixture, str], frozenset[str]], space: Space
              ) -> tuple[list[str], dict[str, frozenset[str]], dict[str, frozenset[str]]]:
    """_escapable for an observation, and the options that hold only at the values lacking
    its table (solve.constraint's `lacking`): a setup refused as a table the engine's rules
    lack (`obs.lacks`) stands for the values that lack it, and is evidence against those
    that have it; one refused only for a player count its table does not deal (_unseated)
    says nothing of the round, and is read as a table it has. bogey (6 to 12 seats, a
    match of its own) refused refused-002's 5 seats (DEAL-7), and `other` on its match
    length, made to stand for the single round that lacks round 8, contradicted the entry
    expecting that very refusal: a likely bug read off a table it deals to nobody."""
    free, only = _escapable(obs.fixture, escapable, pieces, obs.lacks, having, space)
    lacking = {o: vs for o, vs in only.items()
               if obs.lacks and vs and vs != frozenset(space.options[o])}
    return free, only, lacking


def tables_had(sent: Ruleset, space: Space) -> Callable[[Fixture, str], frozenset[str]]:
    """having(fx, option): the values of `option` (one of SETUP_ONLY) under which the
    reference engine has `fx`'s table, `sent`'s rules the rest: those under which it does
    not refuse the setup (the start, or a `next-round` deal) by a clause of the option.
    Asked of the engine, never worked out here; once per fixture."""
    ref = ReferenceImplementation()
    memo: dict[tuple[str, str], frozenset[str]] = {}

    def lacks(fx: Fixture, option: str, value: str) -> bool:
        rs = Ruleset(sent.name, tuple((o, value if o == option else v)
                                      for o, v in sent.choices), sent.hand_table)
        try:
            played = play(fx, rs, ref)
        except (ValueError, KeyError, TypeError):  # a table it cannot set up at all
            return False
        refusal = None if isinstance(played, tuple) else played.refusal
        if isinstance(played, tuple) and fx.table is not None:
            # a table is put to the engine only with its first request (runner.play), so
            # a round the match lacks is refused there (MATCH-7): asked here
            try:
                ref.legal(ruleset_json(rs), fx.start(rs))
            except RefusedSetup as e:
                refusal = e
            except (ValueError, KeyError, TypeError):
                pass
        clause = space.cat.clauses.get(refusal.clause or "") if refusal is not None else None
        return clause is not None and option in clause.when

    def having(fx: Fixture, option: str) -> frozenset[str]:
        key = (fx.id, option)
        if key not in memo:
            memo[key] = frozenset(v for v in space.options[option] if not lacks(fx, option, v))
        return memo[key]
    return having


def observe(fixtures: Sequence[Fixture], impl: Implementation, sent: Ruleset,
            progress: Callable[[], None] | None = None,
            own: Collection[str] = (), sums: Additive | None = None) -> list[Observation]:
    """Play every fixture once, then check each of its entries. An entry is not seen
    where the engine answered `unsupported` or failed (a crash, a timeout, an answer that
    is not one), or where it passes but for a refusal naming no clause (_judged); an
    error answer is its outcome `error`, as the partition has it for
    a table the rules cannot play (a deal from a pool of another engine procedure).
    `own`: the options the engine declares its own (`sent` stands in for them), whose
    round totals are no departure where they decide a round's worth (as under conform).
    `sums`: the run's probe of scores that do not add up (additive.py), None for none."""
    rj = ruleset_json(sent)
    out = []
    outer = impl
    for fx in fixtures:
        if progress is not None:
            progress()
        impl = _drawing(outer, fx.deal_draw())
        obs = Observation(fx, tuple(None for _ in fx.expect))
        out.append(obs)
        trace: list[JSON] = []
        try:
            played = play(fx, sent, impl, rj, trace)
        except (HarnessError, Unsupported, ValueError, KeyError, TypeError) as e:
            obs.notes.append(f"not run: {e}")
            if _erred(e):
                obs.outcomes = tuple("error" for _ in fx.expect)
                obs.erred = True
            continue
        if not isinstance(played, tuple) and played.refusal is not None:  # refused setup
            obs.refused = True
            judged = []
            unseated = _unseated(fx, sent, played.refusal)
            obs.lacks = unseated is None
            for exp in fx.expect:
                unnamed: list[str] = []
                judged.append(None if unseated and exp.refused_setup is None else
                              _judged(setup_problems(exp, played.refusal, nulls=unnamed),
                                      unnamed))
            obs.outcomes = tuple(judged)
            if unseated:
                obs.notes.append(unseated)
            continue
        if not isinstance(played, tuple):  # a refused step: every entry fails
            early = played.status == "fail" and shared.refused_after_early_end(trace)
            if early:  # the round ended with tiles to draw: a bug whatever the rules
                obs.unshared = dict.fromkeys(range(len(fx.expect)), early)
                continue
            obs.outcomes = tuple(played.status if played.status in ("fail", "error")
                                 else None for _ in fx.expect)
            if played.status == "fail" and played.step:  # charged as conform charges it
                _charge_refusal(played, sent, impl, rj, trace, obs.charged, own)
                obs.by_entry = {i: tuple(obs.charged) for i in range(len(fx.expect))}
                obs.uncovered = _uncovered(trace, impl, rj)
            continue
        state, rj_sent = played
        outcomes: list[str | None] = []
        referee = Referee(fx, sent, functools.partial(_reference_states, fx, sent))
        departed = functools.partial(_departed, [], fx, sent, impl, rj, trace, referee, own)
        for i, exp in enumerate(fx.expect):
            try:
                nulls: list[str] = []
                charged: list[str] = []
                problems = _checked(exp, rj_sent, state, impl, sent, nulls, referee,
                                    charged, departed)
                bug = problems and (shared.unshared(fx, exp, rj_sent, state, impl, sent) or (
                    sums is not None and sums.bound(exp, rj_sent, state, impl) and SUM))
                if bug:  # a bug whatever the rules (shared.py): left unread
                    obs.unshared[i] = bug
                    outcomes.append(None)
                    continue
                outcomes.append(_judged(problems, nulls))
                if problems and shared.over_early(exp, rj_sent, state, impl):
                    obs.over_early |= {i}
                if problems and _judged_own(exp, fx, rj_sent, state, impl, sent, own):
                    obs.judged |= {RELEASE}
                if problems and _worth_only(exp, rj_sent, state, impl, sent, own):
                    obs.by_entry[i] = ()  # the worth of a round's end of its own: no bug
                elif charged:
                    obs.by_entry[i] = tuple(charged)
                    obs.charged += [c for c in charged if c not in obs.charged]
            except RefusedSetup as e:  # a table it would not have: the entry does not hold
                obs.refused = True
                unseated = _unseated(fx, sent, e)  # unless it deals no such table at all
                outcomes.append("fail" if unseated is None else None)
                obs.lacks = obs.lacks or unseated is None
                if unseated is not None and unseated not in obs.notes:
                    obs.notes.append(unseated)
            except (HarnessError, Unsupported, ValueError, KeyError, TypeError):
                outcomes.append(None)
        obs.outcomes = tuple(outcomes)
        if "fail" in outcomes:
            obs.uncovered = _uncovered([*trace, state], impl, rj)
    return out


def _uncovered(states: Sequence[JSON], impl: Implementation, rj: JSON) -> bool:
    """Whether `impl` refuses to cover the double just laid on one of `states` (a failed
    run's) that is a follow-up table (follow_probe.covering_play): one probe at most."""
    for state in states:
        play_ = covering_play(state)
        if play_ is not None:  # a crash or a timeout says nothing of its rule: no
            return refuses(impl, rj, state, play_) is not None
    return False


def _checked(exp: Expectation, rj: JSON, state: JSON, impl: Implementation, sent: Ruleset,
             nulls: list[str], referee: Referee, charged: list[str],
             departed: Callable[[], list[str]]) -> list[str]:
    """check's problems, the entry's failure charged as conform charges it (attribution.py,
    runner.run_one) in `charged`: to what first went astray where the steps'
    states departed from the reference's (`departed`), else to the first failed
    comparison's clause that the fixture lists (or the first), so that a fixture read as
    a bug names the clause it breaks, not the clauses it is about nor what the first
    departure led to. Where the referee cannot judge, the problems alone (asked again):
    the outcome never depends on the charge."""
    got: list[str] = []
    try:
        problems = check(exp, rj, state, impl, max_pip_of(sent), nulls=nulls,
                         referee=referee, charged=got)
        if problems:
            got = departed() or one_charge(referee.fx, got)
    except (ValueError, KeyError, TypeError, AttributeError):
        nulls.clear()
        return check(exp, rj, state, impl, max_pip_of(sent), nulls=nulls)
    charged += [c for c in got if c not in charged]
    return problems


def _worth_only(exp: Expectation, rj: JSON, state: JSON, impl: Implementation,
                sent: Ruleset, own: Collection[str]) -> bool:
    """Whether a failed entry fails only in what a round's end is worth (its scores, the
    totals, the winners) where the engine declares a rule of a round's end its own
    (ROUND_END: semaphore's scoring, blank values and tie rule), whose worth the stand-in
    sent need not give: the rest holds, as conform judges it (round_end_alone.py)."""
    if not set(own) & ROUND_END:
        return False
    try:
        return not check(worth_aside(exp), rj, state, impl, max_pip_of(sent))
    except (HarnessError, Unsupported, RefusedSetup, ValueError, KeyError, TypeError,
            AttributeError):
        return False


def _judged_own(exp: Expectation, fx: Fixture, rj: JSON, state: JSON, impl: Implementation,
                sent: Ruleset, own: Collection[str]) -> bool:
    """Whether a failed entry fails, too, in what conform judges under a release the engine
    declares its own (release_alone.py: the entry cut to what no release decides, the
    markers and passes a step leaves once taken): conform fails it so, and identify may
    not read that failure as the release of one's own (gandy: a marker left down after a
    pass, MARK-3, had counted for its `uncoverable_double: other`)."""
    if RELEASE not in own:
        return False
    declared = dataclasses.replace(sent, choices=tuple(
        (o, OTHER if o in own else v) for o, v in sent.choices))
    try:
        cut = release_entry(exp, fx, declared, _space(), sent)
        return cut is not None and bool(check(cut, rj, state, impl, max_pip_of(sent)))
    except (HarnessError, Unsupported, RefusedSetup, ValueError, KeyError, TypeError,
            AttributeError):
        return False


@functools.cache
def _space() -> Space:
    return Space(catalog())


def _departed(memo: list[str | None], fx: Fixture, sent: Ruleset, impl: Implementation,
              rj: JSON, trace: Sequence[JSON], referee: Referee, own: Collection[str]
              ) -> list[str]:
    """The clause of what first went astray in `fx`'s steps (runner.departure), if
    anything did, the round's worth aside where the engine plays its own (`own`); asked
    once (`memo`), where an entry fails."""
    if not memo:
        found = None
        if fx.steps or fx.deal is not None:
            try:
                found = departure(fx, sent, impl, rj, trace, referee, tuple(own))
            except (HarnessError, Unsupported, ValueError, KeyError, TypeError,
                    AttributeError):
                found = None
        memo.append(None if found is None else found[2])
    return [c for c in memo if c]


def _charge_refusal(played: Outcome, sent: Ruleset, impl: Implementation, rj: JSON,
                    trace: Sequence[JSON], charged: list[str], own: Collection[str]) -> None:
    """A refused step's clause added to `charged` (runner.charge_refused_step: what allows
    the step, or what first departed before it), so that a fixture read as a bug names
    the clause the refusal breaks, not the fixture's own. The outcome is a fail either
    way: where the referee cannot judge, nothing is charged."""
    referee = Referee(played.fixture, sent,
                      functools.partial(_reference_states, played.fixture, sent))
    try:
        charge_refused_step(played, sent, impl, rj, trace, referee, tuple(own))
    except (HarnessError, Unsupported, ValueError, KeyError, TypeError, AttributeError):
        return
    charged += [c for c in played.charged if c and c not in charged]


class _DrawnWhenRefused:
    """The engine, sent a fixture's draw for the start with a deal it refused for want of
    one (SEAT-5). The fixtures are asked under rules of the measured start or the base's,
    which draw for nothing, so the harness sends no draw (runner.deal_with_draw); an engine
    that plays highest-draw whatever it is told then refused every deal with a draw, each
    counted against highest-draw, which the scope partition plays with the draw (a
    double-12 engine of highest-draw was found `starting_seat: other`, 22 fixtures of the
    SEAT clauses against it). measure.py's Dealer asks such deals again alike."""

    def __init__(self, impl: Implementation, draw: list[list[str]]) -> None:
        self._impl, self._draw = impl, draw

    def deal(self, ruleset: JSON, players: int, round: int, order: list[str],
             draw: list[list[str]] | None = None) -> JSON:
        if draw is not None:
            return self._impl.deal(ruleset, players, round, order, draw=draw)  # type: ignore[call-arg]
        try:
            return self._impl.deal(ruleset, players, round, order)
        except RefusedSetup as e:
            if e.clause != "SEAT-5":
                raise
        return self._impl.deal(ruleset, players, round, order,  # type: ignore[call-arg]
                               draw=self._draw)

    def __getattr__(self, name: str) -> object:
        return getattr(self._impl, name)


def _drawing(impl: Implementation, draw: list[list[str]] | None) -> Implementation:
    """`impl`, or where the fixture has a draw for the start, _DrawnWhenRefused."""
    return impl if draw is None else _DrawnWhenRefused(impl, draw)  # type: ignore[return-value]


def _unseated(fx: Fixture, sent: Ruleset, refusal: RefusedSetup) -> str | None:
    """Why a refused setup says nothing of the rules but the table: the engine refused,
    citing DEAL-7, a table of a player count the table it deals (measured) lacks. Judged,
    every entry failed, and where the fixture is set in a later round the solver took it
    for a single round (MATCH-7 refuses that round under every table): junction, for 5
    to 8 players, was found `match_length: single-round` on 98 fixtures of 2 to 4. An
    entry expecting the setup refused is still judged."""
    players = players_of(fx)
    if refusal.clause != "DEAL-7" or players is None or players in sent.player_counts:
        return None
    return f"not seen: a table of {players} players, which it does not deal (DEAL-7)"


def _judged(problems: Sequence[str], nulls: Sequence[str]) -> str | None:
    """An entry's outcome: fail, pass, or not seen (None) where it would pass but for a
    refusal that names no clause. The partition's outcome there depends on the clause
    (conformance/partition.py checks the clause the reference cites against those the
    entry lists in force, and a wrong one fails), which such an answer does not say:
    a pass would claim the engine agrees with every region, also those whose clause
    differs (caboose refusing its house rule's plays without a clause, first-018)."""
    if problems:
        return "fail"
    return None if nulls else "pass"


def _erred(e: Exception) -> bool:
    """An error answer (not `unsupported`, not a crash, a timeout or a broken stream)."""
    if isinstance(e, (Unsupported, *FAILURES)):
        return False
    return not isinstance(e, HarnessError) or e.status == "error"
