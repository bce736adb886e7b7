"""Play fixtures against an implementation and compare with what the rules expect.

`run_fixture(fixture, implementation)` yields one Outcome per rule set the fixture
names. An outcome is "pass", "fail" (the implementation disagrees with the fixture) or
"error" (the fixture could not be played: a step was refused, the table does not exist
under that rule set, ...). Messages say what differs: missing and extra actions, the
field, the expected and actual values.

    python -m mtrain.conformance.runner [PATH] [-k PATTERN]
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import functools
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from mtrain.conformance.adapter import (
    JSON,
    Implementation,
    ReferenceImplementation,
    Refused,
    RefusedSetup,
    Unsupported,
    ruleset_json,
)
from mtrain.conformance.answers import AnswerError, checked
from mtrain.conformance.attribution import Referee, pick, stand_in_charges
from mtrain.conformance.double_plays import laid_aside
from mtrain.conformance.field_clauses import DEAL_FIELD
from mtrain.conformance.fixture import Expectation, Fixture, load_corpus
from mtrain.conformance.last_bone import counts_bones
from mtrain.conformance.match_over import holds_match_over
from mtrain.conformance.own_score import check_own_score, ended_by_a_step, own_score_asked
from mtrain.conformance.state_compare import compare_field, compare_result, state_view
from mtrain.spec import tiles as T
from mtrain.spec.catalog import RulesetError, catalog
from mtrain.spec.notation import (
    FixtureError,
    action_json,
    action_text,
    deal_order,
    is_next_round,
    max_pip_of,
    next_round_order,
)
from mtrain.spec.ruleset import Ruleset
from mtrain.spec.yamlload import SpecError


@dataclass
class Outcome:
    fixture: Fixture
    variant: str
    status: str  # pass | fail | error (and, from play only, refused: see `refusal`)
    messages: list[str] = field(default_factory=list)
    null_refusals: int = 0  # refusals that named no clause
    charged: list[str] = field(default_factory=list)  # the clause of each failed comparison
    step: int = 0  # the step that was refused, if one was
    refused_by: str | None = None  # the clause the implementation cited refusing it
    offered: list[str] = field(default_factory=list)  # what it offers where it refused it
    refusal: RefusedSetup | None = None  # the setup the implementation refused
    diverged: int | None = None  # the step after which the state departs (0: the deal)
    unreached: bool = False  # the checks compare a state that had already departed
    states: list[JSON] = field(default_factory=list)  # a failure's: the start, each step's
    round_open: int = 0  # the `next-round` step reached while the round was not over
    early: tuple[int | None, ...] = ()  # Referee.early: a duty let go, how near its release

    @property
    def message(self) -> str:
        return "; ".join(self.messages)

    @classmethod
    def passed(cls, fixture: Fixture, variant: str, messages: list[str], null_refusals: int,
               charged: list[str], step: int, diverged: int | None,
               unreached: bool) -> Outcome:
        """A pass (as a memo of passes gives it, tens of thousands a run): every field
        given in order, no default made."""
        return cls(fixture, variant, "pass", messages, null_refusals, charged, step, None, [],
                   None, diverged, unreached, [])


REFERENCE = ReferenceImplementation()
"""The reference engine, replaying fixtures to say where an implementation departs."""


@functools.lru_cache(maxsize=512)
def resolve(variant: str) -> Ruleset:
    """The rule set a fixture names (composed once: rule sets are frozen)."""
    return catalog().ruleset(variant)


def run_fixture(fx: Fixture, impl: Implementation,
                variants: Sequence[str] | None = None) -> Iterator[Outcome]:
    """The fixture under each rule set its entries name (`variants:`), as written."""
    for name, exp in fx.rulesets():
        if variants is not None and name not in variants:
            continue
        try:
            rs = resolve(name)
        except (RulesetError, SpecError) as e:
            yield Outcome(fx, name, "error", [f"rule set {name!r}: {e}"])
            continue
        yield run_one(fx, rs, exp, impl)


def run_one(fx: Fixture, rs: Ruleset, exp: Expectation, impl: Implementation,
            rj: JSON | None = None, require_clauses: bool = False,
            own: Sequence[str] = ()) -> Outcome:
    """One fixture entry under rule set `rs` (sent to the implementation as `rj`; `own`:
    the options the rule set asked for plays its own way, `rs` standing in for them).

    Each failed comparison is charged to the clause that decides it (attribution.py);
    a failure after steps also says after which step the implementation's state first
    departed from the reference's replay of the same steps."""
    out = _charged_one(fx, rs, exp, impl, rj, require_clauses, own)
    # a clause in force only through a stand-in for a rule of its own is said to be one
    out.messages += stand_in_charges(out.charged, own, rs) if own else []
    return out


def _charged_one(fx: Fixture, rs: Ruleset, exp: Expectation, impl: Implementation,
                 rj: JSON | None, require_clauses: bool, own: Sequence[str]) -> Outcome:
    impl = checked(impl)  # every state and action it returns: schemas and invariants
    trace: list[JSON] = []
    try:
        out = _run_one(fx, rs, exp, impl, rj, require_clauses, trace, own)
        if out.status != "pass":  # the implementation's states, for the report to draw
            out.states = trace
        return out
    except RefusedSetup as e:  # a table refused when asked about it: DEAL-7 allows it
        out = Outcome(fx, rs.name, "fail", setup_problems(None, e), refusal=e)
        out.charged = ["DEAL-7"]
        return out
    except AnswerError as e:  # an impossible answer: charged to what it breaks
        out = Outcome(fx, rs.name, e.status, list(e.messages))
        referee = Referee(fx, rs, lambda: _reference_states(fx, rs))
        # the answer to step len(trace) (the trace holds the states before it), or to a
        # question about the last state
        step = min(len(trace), len(fx.steps))
        clause = referee.answer(e.asked, e.problems, trace[-1] if trace else None, step)
        out.charged = [clause] if clause else []
        return out


def _run_one(fx: Fixture, rs: Ruleset, exp: Expectation, impl: Implementation,
             rj: JSON | None, require_clauses: bool, trace: list[JSON],
             own: Sequence[str] = ()) -> Outcome:
    played = play(fx, rs, impl, rj, trace)
    referee = Referee(fx, rs, lambda: _reference_states(fx, rs))
    if isinstance(played, Outcome) and played.refusal is not None:
        nulls: list[str] = []
        problems = setup_problems(exp, played.refusal, require_clauses, nulls)
        out = Outcome(fx, rs.name, "fail" if problems else "pass", problems,
                      refusal=played.refusal)
        out.null_refusals = len(nulls)
        out.charged = [_refusal_charge(exp, played.refusal)] if problems else []
        return out
    if isinstance(played, Outcome):
        if played.status == "fail" and played.step:  # a refused step: what allows it
            charge_refused_step(played, rs, impl, rj, trace, referee, own)
            played.early = tuple(referee.early)
        return played
    state, rj = played
    exp = in_force(exp, rs)
    nulls = []
    charged: list[str] = []
    problems = check(exp, rj, state, impl, max_pip_of(rs), require_clauses, nulls,
                     referee=referee, charged=charged, ended_here=ended_by_a_step(fx, trace))
    out = Outcome(fx, rs.name, "fail" if problems else "pass", problems)
    out.null_refusals = len(nulls)
    out.charged = charged
    if problems and (fx.steps or fx.deal is not None):
        # a blocked round's scores alone: its last step is the own rule's to end or not
        last = len(fx.steps) if exp.blocked_scores is not None else None
        departed = departure(fx, rs, impl, rj, trace, referee, own, last)
        if departed is not None:  # charged to what first went astray, not what it led to
            k, message, clause = departed
            out.messages.insert(0, message)
            out.diverged, out.unreached = k, k < len(fx.steps)
            out.charged = [clause]
    out.charged = one_charge(fx, out.charged)
    out.early = tuple(referee.early)
    return out


def not_a_move(played: Outcome, rs: Ruleset) -> Outcome | None:
    """For `played`, a step the implementation refused (conform's run of an implementation
    under test): an error of the fixture's where the rules refuse that step too, or an
    earlier one (the reference's replay stops there), else None. A fixture of one's own
    whose steps are no moves was a FAIL charged to the implementation for refusing what
    the rules refuse; lint holds the corpus's steps to the rules."""
    stopped = played.step or played.round_open
    if played.status != "fail" or not stopped:
        return None
    k = len(_reference_states(played.fixture, rs))  # the start, then each step taken
    if not 0 < k <= stopped:
        return None
    step = played.fixture.steps[k - 1]
    if is_next_round(step):  # (the reference's replay stops there as the run did)
        return Outcome(played.fixture, played.variant, "error", [
            f"the fixture's step {k} `{step}` comes while the round is not over under the "
            "rules too (the reference engine's round goes on there): a next round follows "
            "a round the steps before end, so this is the fixture's fault, not the "
            "implementation's"])
    return Outcome(played.fixture, played.variant, "error", [
        f"the fixture's step {k} `{step}` is refused by the rules too (the reference "
        "engine refuses it at that table): a fixture's steps are moves the rules allow, "
        "so this is the fixture's fault, not the implementation's (`mtrain lint` names "
        "the rule)"])


def one_charge(fx: Fixture, charged: Sequence[str]) -> list[str]:
    """One clause per failure: the first charged that the fixture itself lists, if any."""
    listed = [c for c in charged if c in fx.clauses]
    return (listed or list(charged))[:1]


def departure(fx: Fixture, rs: Ruleset, impl: Implementation, rj: JSON | None,
              trace: Sequence[JSON], referee: Referee, own: Sequence[str] = (),
              before: int | None = None) -> tuple[int, str, str] | None:
    """(step, message, clause) for the first step after which the implementation's
    states (`trace`) depart from the reference's replay (divergence), if one does (before
    step `before`): a failure is charged to what first went astray, not what it led to."""
    departed = divergence(fx, trace, referee.states(), max_pip_of(rs), own)
    if departed is None or (before is not None and departed[0] >= before):
        return None
    k, key, got, message = departed
    if k == 0 and fx.deal is not None and OWN_PROCEDURE in own:
        # the replay's stand-in procedure may search for the engine where the
        # implementation's own does not: its first seat is the starting seat's alone
        return k, message, pick(DEAL_FIELD["starter"], rs, fx)
    return k, message, referee.field(key, k, got, trace[k], _asker(impl, rs, rj, trace[k]))


def charge_refused_step(played: Outcome, rs: Ruleset, impl: Implementation, rj: JSON | None,
                        trace: Sequence[JSON], referee: Referee,
                        own: Sequence[str] = ()) -> None:
    """Charge `played`, a step the implementation refused (play's fail Outcome, `trace`
    the states it reached), to the clause that allows the step; where its state had
    already departed from the reference's before the step, to what first departed."""
    fx = played.fixture
    before = referee.states()
    state = before[played.step - 1] if len(before) >= played.step else None
    text = fx.steps[played.step - 1]
    # a draw or pass refused beside plays the rules refuse: it believes a play
    # possible (TURN-1), and what refuses those plays is the rule it broke
    wrong = referee.refused_plays(state, played.offered) if draws(text) else []
    # a play on the Mexican Train by a marked player refused, other legal plays offered:
    # the Mexican Train kept closed to them (TRAIN-4), as where such plays are missing
    plays = [a for a in played.offered if a.startswith("play ")]
    mexican = (bool(plays) and len(referee.refused_plays(state, plays)) < len(plays)
               and referee.marked_mexican(state, text))
    # the empty Mexican Train's opening refused on a first turn, nothing offered on it:
    # kept shut for the first turn (FIRST-8), as where such plays are missing
    first = referee.opens_mexican(state, text) and referee.opening_rule(
        [text], played.offered, state) == "FIRST-8"
    played.charged = [_likeliest([referee.refuses(state, a, played.offered)
                                   for a in wrong], referee)
                      if wrong else _closed_cover(referee, state, text, played.refused_by)
                      or (referee.mexican_access() if mexican else None)
                      or ("FIRST-8" if first else None) or referee.allows(state, text)]
    departed = departure(fx, rs, impl, rj, trace, referee, own, before=played.step)
    if departed is not None:
        # refused because an earlier step already went astray (a round ended too
        # early, a seat skipped): charged to what first departed
        k, message, clause = departed
        played.messages.insert(0, message)
        played.diverged, played.charged = k, [clause]


def in_force(exp: Expectation, rs: Ruleset) -> Expectation:
    """`exp` with each refusal's clauses cut to those in force under `rs`: an entry shared
    by several rule sets lists what refuses the action under any of them (TRAIN-7 only
    where own-train-first holds)."""
    if not exp.refused:
        return exp
    clauses = catalog().clauses
    refused = {}
    for text, listed in exp.refused.items():
        kept = tuple(c for c in listed if c not in clauses or clauses[c].applies(rs))
        refused[text] = kept or listed
    return exp if refused == exp.refused else dataclasses.replace(exp, refused=refused)


def _reference_states(fx: Fixture, rs: Ruleset) -> list[JSON]:
    """The reference engine's states: the start, then after each step (as far as it goes)."""
    trace: list[JSON] = []
    with contextlib.suppress(ValueError, KeyError, TypeError):
        play(fx, rs, REFERENCE, None, trace)
    return trace


DETERMINED = ("engine", "engine_placed", "hand_sizes", "hands", "boneyard", "trains",
              "drawn", "open_doubles", "marked", "passes", "phase", "seat", "first_turns",
              "starter", "scores", "outs")
"""The fields the rules decide, compared to find where a replay departs, causes first (a
wrong hand explains a wrong seat, not the other way round)."""
ROUND_END = frozenset({"scoring", "blank_values", "tie_rule"})
"""The options that decide only what a round's end is worth and who wins the match."""
WORTH = frozenset({"scoring", "blank_values"})
"""Those of ROUND_END that decide what a round's end is worth: its scores and so the
totals. A tie rule decides only who wins among equal totals (MATCH-4..6), never a total."""
TOTAL_FIELDS = ("scores",)
"""The fields of a state the WORTH options decide (the totals, MATCH-1): under one of them
played its own way, the implementation's totals are its own rule's, never a departure."""
OWN_PROCEDURE = "engine_procedure"
"""The option that decides a deal's hands, boneyard and engine (ENG-2..8): under it played
its own way, a dealt start is the implementation's own procedure's but for its first seat
(DEALT_SEAT), which the starting seat gives whatever the procedure (seat_alone.py)."""
DEALT_SEAT = ("seat", "starter")
"""The fields of a dealt start a known starting seat decides (seat_alone.SEAT_FIELDS)."""
OWN_END = "blocked_round"
"""The option that decides whether a round with an empty boneyard is over (END-2, END-3):
under it played its own way, a round over where the reference's goes on (or the other way
round) is its own rule's, never a departure (blocked_alone.py)."""
END_FIELDS = ("phase", "seat", *TOTAL_FIELDS)
"""The fields of a state whether the round has ended decides (END-1..3): an ended round
is over, with nobody to move and its worth in the totals."""


def end_aside(exp: Expectation) -> Expectation:
    """`exp` without what only whether the round is over decides: the result, the table's
    questions (the legal set, the refusals: none in a round that is over), the phase, the
    seat to move, the totals, the winners and whether the match is over. What the steps
    did (hands, trains, boneyard, markers, open doubles, passes) stays."""
    return dataclasses.replace(
        exp, result=..., legal=None, refused={}, winners=None, match_over=None,
        own_end=None, own_draw=False, own_doubles=None, own_actions=(), only_actions=None,
        state={k: v for k, v in exp.state.items() if k not in END_FIELDS})


def ended_blocked(state: JSON) -> bool:
    """Whether `state` (an implementation's) says the round is over, blocked."""
    result = state.get("result")
    return isinstance(result, dict) and result.get("end") == "blocked"


MARKERS_OFF = "marker_removal"
"""The option that decides which markers come off (MARK-3..5): under it played its own
way, the markers an implementation takes off are its own rule's, never a departure
(marker_alone.py runs such entries without `marked`); a marker put up (MARK-1: a player
who cannot play) is still the rules', and one put up or not where the reference's is
still a departure (junction's bug 1, charged MARK-1)."""


def divergence(fx: Fixture, mine: Sequence[JSON], ref: Sequence[JSON], max_pip: int,
               own: Iterable[str] = ()) -> tuple[int, str, Any, str] | None:
    """(step, field, the implementation's value, message) for the first step after which
    its state differs from the reference's in a field the rules decide (not the totals
    where `own`, the options played their own way, decide them: WORTH; under a marker rule
    of one's own, only the markers each step puts up: MARKERS_OFF; under a blocked rule of
    one's own, not what an end decides where one side's round is over: OWN_END; under an engine
    procedure of one's own, a dealt start's first seat alone: OWN_PROCEDURE); None if
    never."""
    first = 0 if fx.deal is not None else 1  # a dealt start is the implementation's own
    mine_own = set(own)
    fields = [k for k in DETERMINED if not (WORTH & mine_own and k in TOTAL_FIELDS)]
    own_markers = MARKERS_OFF in mine_own
    own_deal = OWN_PROCEDURE in mine_own
    own_end = OWN_END in mine_own
    before: tuple[dict[str, Any], dict[str, Any]] | None = None
    for k in range(first, min(len(mine), len(ref))):
        try:
            a, b = state_view(mine[k]), state_view(ref[k])
            if own_markers and before is None and k > 0:
                before = state_view(mine[k - 1]), state_view(ref[k - 1])
        except (KeyError, TypeError, ValueError, T.TileError):
            return k, "hands", None, f"after {_step_text(fx, k)} the state is unreadable"
        # a round over on one side only: ended (or not) by a blocked rule of its own
        ended = own_end and (a.get("phase") == "over") != (b.get("phase") == "over")
        for key in fields:
            if k == 0 and own_deal and key not in DEALT_SEAT:
                continue  # the reference's replay deals by a stand-in procedure (ENG-2..8)
            if ended and key in END_FIELDS:
                continue  # END-2, END-3: whether it is over is its rule's (end_aside)
            if key == "marked" and own_markers and before is not None:
                differs = _put_up(a, before[0]) != _put_up(b, before[1])
            else:
                differs = a.get(key) != b.get(key)
            if differs:
                shown = "; ".join(compare_field(key, _as_written(key, b.get(key)), a, max_pip))
                later = ("; the checks below compare a state that had already departed"
                         if k < len(fx.steps) else "")
                return k, key, a.get(key), (
                    f"diagnosis: the state departs from the reference's replay after "
                    f"{_step_text(fx, k)}: {shown}{later}")
        before = a, b
    return None


def _put_up(view: dict[str, Any], earlier: dict[str, Any]) -> set[Any]:
    """The markers up in `view` that were not in `earlier` (state_view's `marked`)."""
    return set(view.get("marked") or ()) - set(earlier.get("marked") or ())


def _step_text(fx: Fixture, k: int) -> str:
    return "the deal" if k == 0 else f"step {k} `{fx.steps[k - 1]}`"


def _as_written(key: str, value: Any) -> Any:
    """A state_view value back in the table notation compare_field expects."""
    if key == "hands":
        return {s: [T.name(t) for t in tiles] for s, tiles in value.items()}
    if key == "trains":
        return {t: [T.name(x) for x in tiles] for t, tiles in value.items()}
    if key == "boneyard":
        return [T.name(t) for t in value]
    if key == "drawn" and value is not None:
        return T.name(value)
    return value


def _refusal_charge(exp: Expectation, refusal: RefusedSetup) -> str:
    """The clause a wrong refusal of the setup is charged to: the one the rules refuse it
    by; for a setup the rules allow, the clause the refusal cites (SEAT-5 for a draw,
    MATCH-7 for a round), DEAL-7 when it cites none the catalogue knows."""
    if exp.refused_setup:
        return exp.refused_setup[0]
    cited = refusal.clause
    return cited if isinstance(cited, str) and cited in catalog().clauses else "DEAL-7"


def setup_problems(exp: Expectation | None, refusal: RefusedSetup,
                   require_clauses: bool = False, nulls: list[str] | None = None) -> list[str]:
    """How a refused setup differs from `exp`: a refusal where the rules allow the setup,
    or one naming another clause than those `refused_setup` lists (a refusal naming none
    is listed in `nulls`, and fails only with `require_clauses`, as for actions)."""
    clause = f" [{refusal.clause}]" if refusal.clause and not refusal.reason.endswith(
        f"[{refusal.clause}]") else ""  # the reference's reasons cite it already
    if exp is None or exp.refused_setup is None:
        return [f"the implementation refused the setup: {refusal.reason}{clause}; "
                "the rules allow it"]
    named = " or ".join(exp.refused_setup)
    if refusal.clause is None:
        if nulls is not None:
            nulls.append("the setup")
        return [f"the setup was refused without naming a clause; the rules refuse it by "
                f"{named} (--require-clauses)"] if require_clauses else []
    if refusal.clause not in exp.refused_setup:
        return [f"the setup was refused by {refusal.clause}, expected {named}"
                f"{unknown_clause(refusal.clause)}"]
    return []


def unknown_clause(cited: str) -> str:
    """What to add to a message about a refusal citing `cited`: where the specification
    has no such clause (a misspelt id, one in lower case), say so and how ids are written;
    nothing for a clause it has."""
    if cited in catalog().clauses:
        return ""
    same = [c for c in catalog().clauses if c.lower() == cited.strip().lower()]
    return (f"; {cited} is no clause of the specification: an id is written as `mtrain "
            f"explain` prints it, in capitals ({same[0] if same else 'TRAIN-4'})")


def play(fx: Fixture, rs: Ruleset, impl: Implementation, rj: JSON | None = None,
         trace: list[JSON] | None = None, *, resume: tuple[int, JSON] | None = None,
         reached: Callable[[int, JSON], None] | None = None) -> tuple[JSON, JSON] | Outcome:
    """The state after the fixture's steps (and the rule set's JSON), or the Outcome that
    stopped them: a refused step (fail), a refused setup (status "refused", `refusal`
    set: the start, or the deal of a `next-round` step) or a table that does not set up
    (error). With `trace`, every state on the way (the start, then after each step) is
    appended. `resume` (k, state): go on from the state after step k (0: the start, once
    set up), which an earlier play reached; `reached(k, state)` is told each state on the
    way (the scope check's memo of runs, partition.py)."""
    rj = ruleset_json(rs) if rj is None else rj
    max_pip = max_pip_of(rs)
    k = done = 0 if resume is None else resume[0]
    try:
        if resume is None:
            state = start_state(fx, rs, rj, impl)
            if fx.probes_setup and fx.table is not None:
                impl.legal(rj, state)  # the table put to the implementation, to refuse or not
            if reached is not None:
                reached(0, state)
        else:
            state = resume[1]
        if trace is not None:
            trace.append(state)
        for k, step in enumerate(fx.steps[done:], done + 1):
            if is_next_round(step):
                nxt = next_round(fx, rs, rj, impl, state, k)
                if isinstance(nxt, Outcome):
                    return nxt
                state = nxt
                if trace is not None:
                    trace.append(state)
                if reached is not None:
                    reached(k, state)
                continue
            try:
                state = impl.apply(rj, state, action_json(step, max_pip))
            except Refused as e:
                clause = f" [{e.clause}]" if e.clause else ""
                offered = _offers(impl, rj, state)
                out = Outcome(fx, rs.name, "fail",
                              [f"step {k} `{step}` was refused: {e.reason}{clause}; "
                               "the state before it is the fixture's"
                               + (" table" if k == 1 else f" after step {k - 1}")
                               + ("" if offered is None else
                                  f"; it offers there: {', '.join(offered) or 'nothing'}")])
                out.step, out.refused_by, out.offered = k, e.clause, offered or []
                return out
            if trace is not None:
                trace.append(state)
            if reached is not None:
                reached(k, state)
    except FixtureError as e:
        # at its node's line, else the fixture's own (the table as a whole, a step)
        return Outcome(fx, rs.name, "error",
                       [f"cannot set up the fixture: {e} (at {fx.where_in_table(e.at)})"])
    except RefusedSetup as e:
        where = "the start" if k == 0 else f"step {k} `{fx.steps[k - 1]}`"
        out = Outcome(fx, rs.name, "refused", [f"{where} was refused: {e.reason}"])
        # kept without its traceback (nor the one of the error it replaced): the frames
        # it holds hold `out`, a cycle that would keep whatever called play() alive
        # until the collector finds it
        out.refusal, out.step = e.with_traceback(None), 0
        e.__context__ = e.__cause__ = None
        return out
    return state, rj


def _asker(impl: Implementation, rs: Ruleset, rj: JSON | None,
           state: JSON) -> Callable[[int], list[str] | None]:
    """What the implementation offers on the table `state` to the player in seat s, were
    it their turn: asked only if a charge needs it."""
    return lambda s: _offers(impl, ruleset_json(rs) if rj is None else rj, {**state, "seat": s})


def _offers(impl: Implementation, rj: JSON, state: JSON) -> list[str] | None:
    """What the implementation offers where it refused a step (why it refused is most
    often there: a play it believes possible, a draw it believes due), or None when it
    cannot say."""
    try:
        return sorted(action_text(a) for a in impl.legal(rj, state))
    except Exception:  # a diagnosis only: the failure stands as it is
        return None


def next_round(fx: Fixture, rs: Ruleset, rj: JSON, impl: Implementation, state: JSON,
               k: int) -> JSON | Outcome:
    """Step k of `fx`, a `next-round` step; a fail Outcome if the round is not over."""
    if not isinstance(state.get("result"), dict):
        return Outcome(fx, rs.name, "fail", [
            f"step {k} `next-round`: the round is not over (result {state.get('result')}), "
            "so there is no next round; the rules end it by the steps before"], round_open=k)
    try:
        return next_round_deal(impl, rj, rs, state, fx.steps[k - 1], fx.deal_draw())
    except FixtureError as e:
        raise FixtureError(f"step {k}: {e}") from None


def next_round_deal(impl: Implementation, rj: JSON, rs: Ruleset, state: JSON,
                    step: str = "next-round", draw: list[list[str]] | None = None) -> JSON:
    """A `next-round` step (MATCH-1) after the finished round `state`: the next round dealt
    by the implementation, for the same seats from the pool the step names, with the match
    totals of the round just over carried into it. The protocol has no request of its own
    for it: it is a `deal` (docs/protocol.md)."""
    if not isinstance(state.get("result"), dict):
        raise ValueError("`next-round`: the round is not over, so there is no next round")
    max_pip = max_pip_of(rs)
    round_no = int(state["round"]) + 1
    if round_no > max_pip + 1:
        raise FixtureError(f"`next-round`: round {round_no - 1} is the last of a "
                           f"double-{max_pip} match (MATCH-1), so there is no next round; "
                           "`match_over: true` says the match is over")
    order = deal_order(rs, max_pip - round_no + 1, next_round_order(step))
    dealt = deal_with_draw(impl, rj, len(state["hands"]), round_no, order, draw)
    return {**dealt, "scores": list(state["scores"]), "outs": list(state["outs"])}


def deal_with_draw(impl: Implementation, rj: JSON, players: int, round_no: int,
                   order: list[str], draw: list[list[str]] | None) -> JSON:
    """A `deal` request, with the draw for the start (SEAT-5) where the fixture has one and
    the rule set plays highest-draw: elsewhere the draw decides nothing (the rule ignores
    it), so an implementation written before it is asked exactly as before."""
    if draw is None or rj.get("options", {}).get("starting_seat") != "highest-draw":
        return impl.deal(rj, players, round_no, order)
    return impl.deal(rj, players, round_no, order, draw=draw)  # type: ignore[call-arg]


def take_step(impl: Implementation, rj: JSON, rs: Ruleset, state: JSON, step: str,
              draw: list[list[str]] | None = None) -> JSON:
    """The state after one step of a fixture: an action applied, or the next round dealt
    (with the fixture's draw for the start, `draw`, SEAT-5)."""
    if is_next_round(step):
        return next_round_deal(impl, rj, rs, state, step, draw)
    return impl.apply(rj, state, action_json(step, max_pip_of(rs)))


def start_state(fx: Fixture, rs: Ruleset, rj: JSON, impl: Implementation) -> JSON:
    if fx.deal is not None:
        players, round_no, order, extra = fx.deal_request(rs)
        state = deal_with_draw(impl, rj, players, round_no, order, fx.deal_draw())
        if extra:
            state = {**state, **extra}
        return state
    return fx.start(rs)


def check(exp: Expectation, rj: JSON, state: JSON, impl: Implementation,
          max_pip: int, require_clauses: bool = False,
          nulls: list[str] | None = None, *, referee: Referee | None = None,
          charged: list[str] | None = None, ended_here: bool = False) -> list[str]:
    """Every way the implementation's answers differ from `exp`; refusals that name no
    clause are listed in `nulls` (and fail only with `require_clauses`). With a
    `referee`, each problem's clause is appended to `charged` (attribution.py).
    `ended_here`: the implementation's own answer to a step ended the round in `state`."""
    problems: list[str] = []

    def charge(clause: str | None) -> None:
        if charged is not None and clause is not None:
            charged.append(clause)

    if exp.refused_setup is not None:  # the setup was accepted: it had to be refused
        named = " or ".join(exp.refused_setup)
        charge(exp.refused_setup[0])
        return [f"the setup was accepted; the rules refuse it ({named})"]
    if exp.own_end is not None and ended_blocked(state) != exp.own_end:
        # END-2, END-3: the round over here or not by a blocked-round rule of its own
        # (blocked_alone.py): what only the end decides is that rule's
        exp = end_aside(exp)
    if getattr(impl, "can_ask_ahead", False):  # behind the protocol: one round trip
        impl.ask_ahead(rj, state,  # type: ignore[attr-defined]
                       questions(exp, state, max_pip, ended_here))

    seen: list[str] = []  # plays offered that the rules refuse
    outer = referee  # (the legal set's may hold doubles back: lay_alone.py)
    if exp.legal is not None:
        actual = {action_text(a) for a in impl.legal(rj, state)}
        want = set(exp.legal)
        if exp.own_doubles is not None:  # whether a double offered may be laid is a
            # doubles rule of one's own's (lay_alone.py), a train's being open is not
            want, held = laid_aside(exp, actual, impl, rj, state)
            if referee is not None and held:  # the rest charged as on a hand without them
                referee = referee.holding_back(held)
        if exp.own_draw and any(draws(a) for a in actual) and not counts_bones(
                impl, rj, state, actual):
            # TURN-2: whether a player with no play draws or passes is the draw rule of
            # its own's (draw_alone.py): its plays alone are judged
            actual = {a for a in actual if not draws(a)}
        if exp.own_actions:  # offered under some known rules, not others: the
            # implementation's rule of its own decides them (release_alone.py)
            actual, want = actual - set(exp.own_actions), want - set(exp.own_actions)
        if exp.only_actions is not None:  # these alone no rule of its own decides
            actual, want = actual & set(exp.only_actions), want & set(exp.only_actions)
        missing, extra = sorted(want - actual), sorted(actual - want)
        # A draw or pass offered because a play was not seen (one the rules would allow
        # without the tiles of the missing plays) is charged to those plays alone.
        follows = bool(referee and extra and missing
                       and referee.follows_from_missing(extra, missing))
        # ... and a draw or pass missing beside plays the rules refuse follows from them:
        # a player who can play does not draw (TURN-1)
        seen = [a for a in extra if a.startswith("play ")]
        blind = bool(referee and seen and missing and all(draws(a) for a in missing))
        if extra:  # an action offered that the rules refuse: charged to the refusing clause
            problems.append("legal actions not allowed by the rules: " + ", ".join(extra))
            if not follows:
                charge(_likeliest([referee.refuses(None, a, sorted(actual)) for a in extra],
                                  referee)
                       if referee else None)
        if missing:
            problems.append("legal actions missing: " + ", ".join(missing))
        if missing and not blind:
            # covers missing on closed trains and no cover offered at all: TRAIN-6 (an
            # engine that covers elsewhere errs in the order, DBL-7 or DBL-8)
            closed = (referee is not None and not any(a.startswith("play ") for a in extra)
                      and all(referee.closed_cover(None, a) for a in missing)
                      and not any(referee.covers(a) for a in actual))
            # plays missing on marked trains and none offered on those trains (but covers,
            # which an open double opens): it keeps them closed, though it may open
            # another marked train (a loop over the seats one short), and whether or not
            # the tile was just drawn (TURN-3 allows it, and the engine plays it elsewhere)
            shut = {_train_of(a) for a in missing}
            marked = (referee is not None and not closed
                      and all(referee.marked_play(None, a) for a in missing)
                      and not any(referee.marked_play(None, a) and not referee.covers(a)
                                  and _train_of(a) in shut for a in actual))
            # plays missing on the Mexican Train by a player whose marker is up, none
            # offered on it, some other legal play offered: it keeps the Mexican Train
            # closed to them (TRAIN-4, MARK-2). With none, the tiles may be unseen (the drawn one,
            # TURN-3): the table alone cannot tell, and the moment's rule is charged
            on_mexican = not any(a.startswith("play ") and a.endswith(" on mexican")
                                 for a in actual)
            seen_tile = any(a.startswith("play ") for a in actual & want)
            mexican = (referee is not None and not closed and not marked and on_mexican
                       and seen_tile
                       and all(referee.marked_mexican(None, a) for a in missing))
            # plays missing that open the empty Mexican Train and none offered on it (but
            # with a tile the rules refuse there: the wrong number opening it, the same
            # bug): what opens it (TRAIN-5), in a follow-up too, where the moment's rule
            # allows them; nothing offered on it on a first turn: FIRST-8 (opening_rule)
            opening = (referee is not None and not closed and not marked
                       and all(referee.opens_mexican(None, a) for a in missing)
                       and not any(a.startswith("play ") and a.endswith(" on mexican")
                                   and a not in extra for a in actual))
            # a cover missing where the engine offers what a release too early leaves
            # (DBL-12 one tile early, DBL-9 counted early): that release, not a closed
            # train
            early = (referee.release_offered(sorted(actual))
                     if closed and referee is not None else None)
            charge(early if early else "TRAIN-6" if closed else
                   referee.marker_access() if marked and referee else
                   referee.mexican_access() if mexican and referee else
                   referee.opening_rule(sorted(missing), sorted(actual)) if opening and referee else
                   _likeliest([referee.allows(None, a) for a in missing], referee)
                   if referee else None)
    referee = outer
    for text, clauses in exp.refused.items():
        named = " or ".join(clauses)
        try:
            # (a tile of no set of this rule set's size is sent as written: SET-1 refuses it)
            impl.apply(rj, state, action_json(text))
            problems.append(f"`{text}` was accepted; the rules refuse it ({named})")
            charge(clauses[0])
        except Refused as e:
            if e.clause is None and nulls is not None:
                nulls.append(text)
            if e.clause is None and require_clauses:
                problems.append(f"`{text}` refused without naming a clause; the rules "
                                f"refuse it by {named} (--require-clauses)")
                charge(clauses[0])
            elif e.clause is not None and e.clause not in clauses:
                problems.append(f"`{text}` refused by {e.clause}, expected {named}"
                                f"{unknown_clause(e.clause)}")
                if not (seen and draws(text) and e.clause == "TURN-1"):  # as above
                    charge((_closed_cover(referee, None, text, e.clause) if referee else None)
                           or clauses[0])
    view = state_view(state, exp.state) if exp.state else {}
    for key, want in exp.state.items():
        found = compare_field(key, want, view, max_pip)
        if found:
            problems += found
            charge(referee.field(key, None, view.get(key), state) if referee else None)
    if exp.result is not ...:
        found = compare_result(exp.result, state.get("result"))
        if found:
            problems += found
            charge(referee.result(exp.result, state.get("result")) if referee else None)
    if exp.winners is not None or exp.match_over is not None:
        got = sorted(impl.winners(rj, state))
        # none named where the rules end the match: a longer match, unless the
        # implementation refuses the round after (match_over.py); so too under a match
        # length of its own, whose empty answer says its match goes on only where it deals
        # that round (fuzz's compare_winners asks alike)
        over = (exp.winners is not None and bool(exp.winners) and not got
                and referee is not None and holds_match_over(impl, rj, referee.rs, state))
        going_on = exp.winners_unless_going_on and not got and not over
        if exp.winners is not None and got != sorted(exp.winners) and not going_on:
            problems.append(f"winners: expected {sorted(exp.winners)}, got {got}"
                            + (" (or none, while its own match goes on)"
                               if exp.winners_unless_going_on and not over else ""))
            charge(referee.winners(exp.winners, got, over) if referee else None)
        elif exp.match_over is not None and bool(got) != exp.match_over:
            problems.append("the match should be over; the implementation names no winner"
                            if exp.match_over else
                            f"the match should go on (round {state.get('round')}: rounds "
                            f"remain); the implementation names winners {got}")
            # over on one side only: the match's length decides, never a tie rule
            charge(referee.winners([], got) if referee else "MATCH-1")
    asked: list[Any] = []  # the scores the implementation gave, for the charge
    found = check_score(exp, rj, state, impl, asked)
    if found:
        problems += found
        round_want = exp.result.get("scores") if isinstance(exp.result, dict) else None
        charge(referee.scoring(round_want, asked[0] if asked else None) if referee else None)
    asked.clear()
    found = check_own_score(exp, rj, state, impl, ended_here, asked)
    if found:
        problems += found
        charge(referee.scoring((state.get("result") or {}).get("scores"),
                               asked[0] if asked else None) if referee else None)
    asked.clear()
    found = check_blocked_scores(exp, rj, state, impl, asked)
    if found:
        problems += found
        charge(referee.scoring(exp.blocked_scores, asked[0] if asked else None, True)
               if referee else None)
    return problems


def questions(exp: Expectation, state: JSON, max_pip: int, ended_here: bool = False
              ) -> list[tuple[str, JSON]]:
    """The requests `check` makes about `state`, in its order (kind, the fields beside the
    rule set and the state), so that they can be written at once."""
    out: list[tuple[str, JSON]] = []
    if exp.legal is not None:
        out.append(("legal", {}))
    out += [("apply", {"action": action_json(text)}) for text in exp.refused]  # as check
    if exp.winners is not None or exp.match_over is not None:
        out.append(("winners", {}))
    result = state.get("result")
    if isinstance(exp.result, dict) and exp.result.get("scores") is not None and isinstance(
            result, dict):  # check_score's request
        winner = result.get("winner")
        out.append(("score", {"winner": winner if isinstance(winner, int) else None}))
    if own_score_asked(exp, state, ended_here):  # check_own_score's request
        winner = state["result"].get("winner")
        out.append(("score", {"winner": winner if isinstance(winner, int) else None}))
    if exp.blocked_scores is not None:  # check_blocked_scores's request
        out.append(("score", {"winner": None}))
    return out


def _closed_cover(referee: Referee, state: JSON | None, text: str,
                  cited: str | None) -> str | None:
    """TRAIN-6 for a play refused as onto a closed train (TRAIN-4) where it covers an open
    double on another player's unmarked train, which TRAIN-6 opens, and the marker's access
    (TRAIN-4, MARK-1) where that train carries a marker: that is the rule the refusal
    breaks, whatever else the moment asks."""
    if cited != "TRAIN-4":
        return None
    if referee.closed_cover(state, text, legal=False):
        return "TRAIN-6"
    # a play onto a marked train refused as closed: the marker's access it denies
    return referee.marker_access() if referee.marked_play(state, text) else None


def _train_of(text: str) -> str:
    """The train of the play `text` ("play 6-1 on 4": "4"); "" for another action."""
    return text.rpartition(" on ")[2] if text.startswith("play ") else ""


def draws(text: str) -> bool:
    """Whether the action `text` is a draw or a pass: what a player does who cannot play."""
    return text.split(" ")[0] in ("draw", "pass")


def _likeliest(clauses: Sequence[str], referee: Referee) -> str:
    """Of the clauses several actions point at: one the fixture lists, else the commonest."""
    listed = [c for c in clauses if c in referee.fx.clauses]
    pool = listed or list(clauses)
    return max(pool, key=pool.count)


def check_score(exp: Expectation, rj: JSON, state: JSON, impl: Implementation,
                asked: list[Any] | None = None) -> list[str]:
    """SCORE-1..6 on their own: an implementation with `score` is asked to score the hands
    the round ended with, and must give the round scores the fixture expects (its answer
    appended to `asked`, where given)."""
    want = exp.result.get("scores") if isinstance(exp.result, dict) else None
    result = state.get("result")
    scorer = getattr(impl, "score", None)
    if want is None or not isinstance(result, dict) or not callable(scorer):
        return []
    winner = result.get("winner")
    try:
        got = scorer(rj, state, winner if isinstance(winner, int) else None)
    except Unsupported:
        return []
    if asked is not None:
        asked.append(got)
    if not isinstance(got, list) or list(got) != list(want):
        return [f"score request (winner {winner}): expected round scores {want}, got {got}"]
    return []


def check_blocked_scores(exp: Expectation, rj: JSON, state: JSON,
                         impl: Implementation, asked: list[Any] | None = None) -> list[str]:
    """The scores of the hands `state` holds as a blocked round (SCORE-5..7), asked apart
    from how the round ends (blocked_alone.py); an implementation without `score` cannot
    be asked (not applicable)."""
    if exp.blocked_scores is None:
        return []
    scorer = getattr(impl, "score", None)
    if not callable(scorer):
        raise Unsupported("a blocked round's scores are asked by a `score` request")
    got = scorer(rj, state, None)
    if asked is not None:
        asked.append(got)
    if not isinstance(got, list) or list(got) != list(exp.blocked_scores):
        return [f"score request (blocked, no winner): expected round scores "
                f"{list(exp.blocked_scores)}, got {got}"]
    return []


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Run fixtures against the reference engine.")
    parser.add_argument("path", nargs="?", help="a fixture file or folder (default: all)")
    parser.add_argument("-k", dest="pattern", help="only fixtures whose id contains this")
    parser.add_argument("-v", dest="verbose", action="store_true", help="show passes too")
    args = parser.parse_args(argv)
    fixtures, errors = load_corpus(args.path)
    for e in errors:
        print(f"LOAD ERROR {e}")
    impl = ReferenceImplementation()
    counts: dict[str, int] = {}
    for fx in fixtures:
        if args.pattern and args.pattern not in fx.id:
            continue
        for o in run_fixture(fx, impl):
            counts[o.status] = counts.get(o.status, 0) + 1
            if o.status != "pass" or args.verbose:
                print(f"{o.status.upper()} {fx.id} [{o.variant}] {fx.where}")
                for m in o.messages:
                    print(f"    {m}")
    print(", ".join(f"{v} {k}" for k, v in sorted(counts.items())) or "no fixtures run",
          f"({len(errors)} load errors)" if errors else "")
    return 1 if errors or counts.get("fail") or counts.get("error") else 0


if __name__ == "__main__":
    sys.exit(main())
