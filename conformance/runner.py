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
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from mtrain.conformance.adapter import (
    JSON,
    Implementation,
    ReferenceImplementation,
    Refused,
    RefusedSetup,
    ruleset_json,
)
from mtrain.conformance.answers import AnswerError, checked
from mtrain.conformance.attribution import Referee, pick, stand_in_charges
from mtrain.conformance.divergence import OWN_PROCEDURE, divergence
from mtrain.conformance.expectation_checks import (
    _closed_cover,
    _likeliest,
    check,
    draws,
    unknown_clause,
)
from mtrain.conformance.field_clauses import DEAL_FIELD
from mtrain.conformance.fixture import Expectation, Fixture, load_corpus
from mtrain.conformance.own_score import ended_by_a_step
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
        referee = Referee(fx, rs, lambda: _reference_states(fx, rs), own)
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
    referee = Referee(fx, rs, lambda: _reference_states(fx, rs), own)
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
