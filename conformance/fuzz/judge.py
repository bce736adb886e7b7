"""What is compared: one question put to the implementation and to the reference, and
each way their answers differ, under a signature.

A signature says what was asked, which field or action, and which clause, in words that
stay the same from one occurrence of a bug to the next (no tiles, seats or counts), so
that a run can count each bug once however often it shows:

    deal: seat                              the dealt state differs, first in `seat`
    allows draw (TURN-1)                    an action the rules refuse (by that clause) is
                                            listed as legal, or accepted
    forbids play (DBL-8)                    a legal action is not listed, or is refused:
                                            by the clause that allows it (conform charges
                                            the same), where the reference names one
    refuses draw citing TURN-2, not TURN-1  refused for another reason than the rules'
    lists draw it refuses (TURN-1)          listed as legal, then refused: its answers
                                            contradict each other, whatever its rules
                                            (charged to the clause its refusal names)
    after pass: marked                      the state after an action differs, first in
                                            `marked`
    returned state: state.trains[*].tiles[*]
                                            the state returned cannot be read as a table,
                                            after whichever action
    after draw: INV-CONSERVATION            the state returned breaks an invariant (or a
                                            schema path, or cannot be read as a table)
    round end: result.scores                the step that ends the round: only the result
                                            and the totals count, not the bookkeeping
    winners                                 the match winners differ
    score (blocked)                         the `score` of a round's end (scoring.py)
    allows the setup (DEAL-7)               a player count the table lacks dealt (or its
                                            table played on), where it must be refused
    crash on apply                          the implementation failed to answer

The first differing field is taken in the order a bug's effects follow one another
(tiles before the turn, the turn before the totals), so that one bug keeps one signature.
What comes of a step (the state after it, a failure, a contradiction) is judged in
judge_apply.py.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from mtrain.conformance.adapter import (
    JSON,
    RefusedSetup,
)
from mtrain.conformance.answers import Problem, actions_problems, state_problems, winners_problems
from mtrain.conformance.attribution import Referee
from mtrain.conformance.first_turn_charges import opening_rule
from mtrain.conformance.fixture import Fixture
from mtrain.conformance.fuzz.named_clauses import (
    deal_clauses,
    seat_clauses,
    state_clauses,
    winners_clauses,
)
from mtrain.conformance.fuzz.rulesets import Context
from mtrain.conformance.fuzz.tables import written
from mtrain.conformance.move_charges import (
    allowing,
    closed_cover,
    drawn_refusal,
    early_count,
    marked_mexican,
    marked_play,
    mexican_opening,
    own_one_short,
    release_offered,
    released_early,
    released_one_short,
)
from mtrain.conformance.process import HarnessError
from mtrain.conformance.seat_alone import SEAT_FIELDS
from mtrain.conformance.state_compare import compare_field, compare_result, state_view
from mtrain.reference import codec
from mtrain.reference.deal import match_over, match_winners
from mtrain.reference.engine import (
    FOLLOW,
    Action,
    State,
    legal_actions,
)
from mtrain.reference.refusals import refusal, refusals
from mtrain.spec.catalog import catalog
from mtrain.spec.notation import MEXICAN, FixtureError, action_json, action_text

STATE_FIELDS = ("engine", "engine_placed", "phase", "seat", "starter", "hands", "trains",
                "marked", "boneyard", "open_doubles", "turn_doubles", "first_turns", "drawn",
                "passes", "scores", "outs")
REST_FIELDS = tuple(f for f in STATE_FIELDS if f not in SEAT_FIELDS)
"""A dealt state's fields that a starting seat of one's own does not pick."""
END_FIELDS = ("phase", "scores", "outs")
"""After the step that ends a round: what the rules determine (with the result)."""
PRIMARY = ("hands", "trains", "boneyard", "drawn", "result", "open_doubles", "turn_doubles",
           "marked", "first_turns", "engine_placed", "phase", "seat", "starter", "passes",
           "scores", "outs", "engine")
"""The order in which a difference names its signature: causes before consequences."""
_ALIAS = {"hand_sizes": "hands", "boneyard_size": "boneyard"}


@dataclass
class Probe:
    """One question: where it starts (a table or a deal), the steps each engine plays on
    its own states from there, and what is asked.

    kind: "deal" (the state dealt from `deal`), "setup" (the deal, or the table, of a player
    count the table lacks: refused by DEAL-7), "legal" (the legal actions), "refused"
    (`action` must be refused, by `clause`), "apply" (the state after `action`), "winners"
    (the match winners after `action` ends the last round), "over" (the match winners of
    the finished `table` itself, its `result` written: a round's end only rules of one's
    own reached), "listed" (`action`, listed as legal, must not then be refused: the
    implementation's answers against each other),
    "score" (the round's scores of the hands `action` ends it with: fuzz/scoring.py),
    "next" (the next round dealt, a `next-round` step, after `steps` end the round of
    `table`: a deal asked after the request before it, rejudge.Judge._next).
    """

    kind: str
    variant: str
    table: dict[str, Any] | None = None
    deal: dict[str, Any] | None = None
    steps: tuple[str, ...] = ()
    action: str | None = None
    clause: str | None = None
    before: tuple[dict[str, Any], str] | None = None
    """For a deal of a round after the game's first: the table before the step that ended
    the round before, and that step (what the implementation was asked before the deal;
    an engine that keeps a table between requests deals from it: gantry's markers kept).
    Its finding, shown nowhere else, is asked again as a `next-round` step from there
    (`next_round`)."""

    def next_round(self) -> Probe | None:
        """This deal asked again as the next round after the request before it (a "next"
        probe), where it has one."""
        if self.kind != "deal" or self.before is None:
            return None
        table, step = self.before
        return Probe("next", self.variant, table, steps=(step,))

    @property
    def weight(self) -> tuple[int, int]:
        """Which of two probes makes the better reproducer: fewer overlays, then smaller."""
        return self.variant.count("+"), self.size

    @property
    def size(self) -> int:
        """How much a reproducer of it writes: tiles, seats and steps."""
        return self.written.size

    @property
    def written(self) -> Written:
        tiles, seats, order = 0, 0, None
        if self.table is not None:
            tiles, seats = written(self.table)
        elif self.deal is not None:
            listed = self.deal.get("order")
            if isinstance(listed, list):
                tiles = len(listed)
            elif isinstance(listed, str):  # `sorted`: no tile is written, all are dealt
                order = listed
            seats = int(self.deal.get("players", 0))
        return Written(tiles, seats, len(self.steps), order)


class Written(NamedTuple):
    """What a reproducer writes: its tiles, seats and steps; a deal whose order is named
    (sorted, reversed) writes no tile, though it deals them all."""

    tiles: int
    seats: int
    steps: int
    order: str | None = None

    @property
    def size(self) -> int:
        return self.tiles + self.seats + self.steps + (self.order is not None)

    def __str__(self) -> str:
        tiles = (f"{self.tiles:,} {'tile' if self.tiles == 1 else 'tiles'}"
                 if self.order is None else f"the tiles dealt in {self.order} order")
        seats = f"{self.seats:,} {'seat' if self.seats == 1 else 'seats'}"
        steps = f"{self.steps:,} {'step' if self.steps == 1 else 'steps'}"
        return f"{tiles}, {seats} and {steps}"


@dataclass(frozen=True)
class Disagreement:
    """One way the answers differ: its signature, what differs, and the expectation (the
    reference's answer) a fixture states to show it, after the steps `question`."""

    signature: str
    messages: tuple[str, ...]
    expect: dict[str, Any] = field(default_factory=dict)
    question: tuple[str, ...] = ()
    clauses: tuple[str, ...] = ()
    own: tuple[str, ...] = ()
    """The options played their own way that the step read: only a failure or a broken
    state was judged there, and conform does not run such a table (its outcome depends
    on them), so a reproducer is shrunk into one only from one."""
    no_reproducer: str | None = None
    """Why no reproducer can be written for it, if none can: a broken state after a move
    the reference refuses (only the rules of one's own allow it) cannot be asked again."""
    alike: str | None = None
    """Another clause the same answer reads as on this table, where one table cannot tell
    the two apart: a double one tile short of its release released (DBL-9) on the mover's
    own train offers what that double's duty forgotten (DBL-6) does (move_charges
    own_one_short). A signature every occurrence of which is so folds into a finding
    charged to that clause (findings.one_per_bug)."""
    early: tuple[int | None, ...] = ()
    """For each play offered past the duty of a double of an earlier turn (DBL-6, DBL-7)
    or its release counted one tile early (DBL-9): how many tiles short of the release a
    count frees that double at, or None where none near does (move_charges.early_count):
    what a run's occurrences together say (release_counts.py)."""


def read_own(found: list[Disagreement], own: Sequence[str]) -> list[Disagreement]:
    """`found`, each marked with the options of one's own its step read."""
    return [replace(d, own=tuple(own)) for d in found] if own else found


# --- how answers differ ---------------------------------------------------------------


def failure(asked: str, e: BaseException) -> tuple[str, str]:
    """(signature, message) for an implementation that did not answer."""
    if isinstance(e, HarnessError):
        tail = f" (stderr: {e.stderr.strip().splitlines()[-1][:200]})" if e.stderr.strip() else ""
        return f"{e.status} on {asked}", f"{asked}: {e.message}{tail}"
    if isinstance(e, RefusedSetup):  # an answer, not a crash: a setup the rules allow
        named = e.clause or "no clause"
        return (f"refuses the setup on {asked} ({named})",
                f"{asked}: refused the setup ({named}): {e.reason}; the rules allow it")
    return f"exception on {asked} ({type(e).__name__})", f"{asked}() raised " \
        f"{type(e).__name__}: {e}"


def _problems(where: str, problems: Sequence[Problem]) -> tuple[str, tuple[str, ...]]:
    return f"{where}: {problems[0].key}", tuple(str(p) for p in problems)


def differences(want: JSON, got: Any, max_pip: int,
                fields: Sequence[str] = STATE_FIELDS) -> tuple[dict[str, Any], list[str]]:
    """The expectation (the reference's values where `got` differs) and the differences.

    Fields are compared as a fixture's `state` compares them (state_compare.state_view), so a
    difference found here is one a fixture can state.
    """
    ref = state_view(want)
    try:
        view = state_view(got)
    except Exception as e:
        bad: dict[str, Any] = {"state": {"seat": want["seat"], "phase": want["phase"],
                                         "hand_sizes": ref["hand_sizes"]}}
        return bad, [f"the implementation's state is malformed: {type(e).__name__}: {e}"]
    state: dict[str, Any] = {}
    for key in fields:
        if key == "hands":
            seats = [s for s in ref["hands"] if view["hands"].get(s) != ref["hands"][s]]
            if seats:
                state["hands"] = {s: list(want["hands"][s]) for s in seats}
            if len(view["hands"]) != len(ref["hands"]):
                state["hand_sizes"] = ref["hand_sizes"]
        elif key == "trains":
            trains = [k for k in ref["trains"] if view["trains"].get(k) != ref["trains"][k]]
            if trains:
                state["trains"] = {k: list(_train_json(want, k)["tiles"]) for k in trains}
        elif view.get(key) != ref[key]:
            if key == "boneyard":
                if len(view["boneyard"]) != len(ref["boneyard"]):
                    state["boneyard_size"] = ref["boneyard_size"]
                else:
                    state["boneyard"] = list(want["boneyard"])
            elif key in ("marked", "first_turns"):
                state[key] = ref[key]
            else:
                state[key] = want[key]
    messages = [m for k, v in state.items() for m in compare_field(k, v, view, max_pip)]
    expect: dict[str, Any] = {"state": state} if state else {}
    result = compare_result(want.get("result"), got.get("result"))
    if result:
        expect["result"] = want.get("result")
        messages += result
    return expect, messages


def _train_json(state: JSON, key: int | str) -> JSON:
    train: JSON = state["mexican"] if key == MEXICAN else state["trains"][int(key)]
    return train


def primary(expect: dict[str, Any], want: JSON, got: Any) -> str:
    """The field that names a difference (see PRIMARY)."""
    names = {_ALIAS.get(k, k) for k in expect.get("state", {})}
    if "result" in expect:
        names.add("result")
    name = next((f for f in PRIMARY if f in names), "state")
    if name == "result":
        w, g = want.get("result"), got.get("result") if isinstance(got, dict) else None
        if isinstance(w, dict) and isinstance(g, dict) and g.get("end") == w.get("end"):
            return "result.winner" if g.get("winner") != w.get("winner") else "result.scores"
    return name


def _minimal(want: JSON) -> dict[str, Any]:
    """An expectation for a state that cannot be compared field by field."""
    return {"state": {"seat": want["seat"], "phase": want["phase"],
                      "hand_sizes": [len(h) for h in want["hands"]]}}


def compare_deal(ctx: Context, want: JSON, got: Any, error: BaseException | None,
                 problems: list[Problem] | None = None, judged: bool = True,
                 seat_only: bool = False, rest_only: bool = False) -> list[Disagreement]:
    """The dealt state: the reference's `want`, the implementation's `got` (or a failure in
    `error`); `problems`: got's, if known. Not `judged` (rules of one's own decide the
    deal): only a failure or a broken state is a finding. `seat_only`: an engine
    procedure of one's own deals the rest (own_rules.seat_alone), only the seat and the
    starter are compared, charged to the starting seat's clause. `rest_only`: a starting
    seat of one's own picks those two (own_rules.rest_alone), every other field is
    compared."""
    clauses = tuple(seat_clauses(ctx) if seat_only else deal_clauses(ctx))
    if error is not None:
        sig, message = failure("deal", error)
        return [Disagreement(sig, (message,), _minimal(want), (), clauses)]
    if problems is None:
        problems = state_problems(ctx.rules, got, dealt=True)
    expect, messages = differences(want, got, ctx.max_pip,
                                   SEAT_FIELDS if seat_only
                                   else REST_FIELDS if rest_only else STATE_FIELDS)
    if problems:
        sig, texts = _problems("dealt state", problems)
        return [Disagreement(sig, texts, expect or _minimal(want), (), clauses)]
    if not messages or not judged:
        return []
    return [Disagreement(f"deal: {primary(expect, want, got)}", tuple(messages), expect, (),
                         clauses)]


def compare_legal(ctx: Context, st: State, want: Sequence[Action], got: Any,
                  error: BaseException | None) -> list[Disagreement]:
    texts = sorted(action_text(codec.action_to_json(st, a)) for a in want)
    expect = {"legal": texts}
    clauses = tuple(state_clauses(ctx, st, ["TURN-1", "TRAIN-4"]))
    if error is not None:
        sig, message = failure("legal", error)
        return [Disagreement(sig, (message,), expect, (), clauses)]
    problems = actions_problems(got, (st.players, True))  # TRAIN-1: one Mexican Train
    if problems:
        sig, messages = _problems("legal answer", problems)
        return [Disagreement(sig, messages, expect, (), clauses)]
    listed = [action_text(a) for a in got]
    out = []
    if len(set(listed)) != len(listed):
        twice = sorted({a for a in listed if listed.count(a) > 1})
        out.append(Disagreement("lists an action twice",
                                (f"legal actions listed twice: {', '.join(twice)}",),
                                expect, (), clauses))
    wanted = set(texts)
    extra = sorted(set(listed) - wanted)
    missing = sorted(wanted - set(listed))
    # TURN-1 ties draw and pass to the plays: an engine that sees a play the rules do not
    # refuses to draw or pass, one that misses every play draws or passes. Those follow
    # from the plays, and are told with them, not as findings of their own.
    plays_extra = any(_kind(t) == "play" for t in extra)
    plays_missing = any(_kind(t) == "play" for t in missing)
    follows = [t for t in (missing if plays_extra and not plays_missing else
                           extra if plays_missing and not plays_extra else [])
               if _kind(t) in ("draw", "pass")]
    groups: dict[str, list[str]] = {}
    if extra and missing and not plays_extra and not plays_missing:
        # one move instead of another (a pass for a draw): one finding, under the clause
        # that refuses the move offered; but a pass for the draw of a double's follow-up
        # under the clause of that moment, which grants the draw (DBL-5: a player who
        # cannot follow draws as in an ordinary turn), as conform charges it: the ordinary
        # turn's drawing (TURN-2) is not what such an engine gets wrong
        moved = forbidding(ctx, st, extra[0])
        if (st.phase == FOLLOW and _kind(extra[0]) == "pass" and _kind(missing[0]) == "draw"
                and permitting(ctx, st, missing[0]) == "DBL-5"):
            moved = "DBL-5"
        sig = (f"allows {_kind(extra[0])} ({moved}) instead of "
               + ", ".join(dict.fromkeys(_kind(t) for t in missing)))
        return [*out, Disagreement(sig, (f"legal actions not allowed by the rules: "
                                         f"{', '.join(extra)}; missing: {', '.join(missing)}",),
                                   expect, (), clauses)]
    if plays_extra and plays_missing and _release_offered(ctx, st, listed) == "DBL-9":
        # plays offered past a duty and a cover withheld, each what a release counted
        # early leaves (move_charges.release_offered): one bug, told as one finding
        sig = "allows play (DBL-9)"
        return [*out, Disagreement(sig, (
            f"legal actions not allowed by the rules: {', '.join(extra)}",
            f"legal actions missing: {', '.join(missing)}"), expect, (), _naming(sig, clauses),
            alike="DBL-6" if own_one_short(st) else None)]
    alike: dict[str, str | None] = {}
    shorts: dict[str, list[int | None]] = {}
    for text in extra:
        if text not in follows:
            why = forbidding(ctx, st, text, listed)
            sig = f"allows {_kind(text)} ({why})"
            groups.setdefault(sig, []).append(text)
            if why in ("DBL-6", "DBL-7", "DBL-9"):  # how near its release, for the run
                shorts.setdefault(sig, []).append(_early(ctx, st, text, listed))
            # the release one tile short on one's own train: the duty's reading as well
            two = "DBL-6" if why == "DBL-9" and own_one_short(st) else None
            alike[sig] = two if alike.get(sig, two) == two else None
    # the actions missing, of each kind, under the clause most of them point at (as
    # conform charges them): one bug, one finding per kind and clause
    closed = _closed_covers(ctx, st, missing, listed, plays_extra)
    # what a release too early leaves (DBL-12 one tile early, DBL-9 counted early), not
    # a closed train, as conform charges it (move_charges.release_offered)
    early = _release_offered(ctx, st, listed) if closed else None
    marked = not closed and _marked_closed(ctx, st, missing, listed)
    mexican = not (closed or marked) and _mexican_closed(ctx, st, missing, listed)
    opening = not (closed or marked) and _mexican_unopened(ctx, st, missing, listed, extra)
    for kind in dict.fromkeys(_kind(t) for t in missing if t not in follows):
        texts = [t for t in missing if t not in follows and _kind(t) == kind]
        found = [c for t in texts if (c := permitting(ctx, st, t)) is not None]
        clause = (early if early else "TRAIN-6" if closed
                  else "TRAIN-4" if kind == "play" and marked
                  else "TRAIN-4" if kind == "play" and mexican
                  else opening_rule(st, [a for t in texts if (a := as_action(ctx, st, t))],
                                    listed) if kind == "play" and opening
                  else max(found, key=found.count) if found else None)
        groups.setdefault(_forbids(texts[0], clause), []).extend(texts)
    for sig, items in groups.items():
        lines = [("legal actions not allowed by the rules: " if items[0] in extra else
                  "legal actions missing: ") + ", ".join(items)]
        if follows and sig.split(" ")[1] == "play":
            lines.append(("and so, by TURN-1, missing: " if plays_extra else
                          "and so, by TURN-1, not allowed: ") + ", ".join(follows))
        out.append(Disagreement(sig, tuple(lines), expect, (), _naming(sig, clauses),
                                alike=alike.get(sig), early=tuple(shorts.get(sig, ()))))
    return out


def _early(ctx: Context, st: State, text: str, listed: Sequence[str]) -> int | None:
    """move_charges.early_count of the play `text` offered beside `listed`."""
    act = as_action(ctx, st, text)
    offered = [a for t in listed if isinstance(a := as_action(ctx, st, t), tuple)]
    return None if act is None else early_count(st, act, offered)


def _naming(sig: str, clauses: tuple[str, ...]) -> tuple[str, ...]:
    """`clauses` with the one the signature names first: a reproducer lists it, so that
    conform charges the failure as fuzz named it (one_charge takes a clause it lists)."""
    named = re.search(r"\(([A-Z]+-\d+)\)", sig)
    if named is None or named[1] not in catalog().clauses:
        return clauses
    return (named[1], *(c for c in clauses if c != named[1]))


def _kind(text: str) -> str:
    return text.split(" ", 1)[0]


def forbidding(ctx: Context, st: State, text: str, listed: Sequence[str] | None = None
               ) -> str:
    """The clause by which the reference refuses the action `text` in `st` (`listed`: the
    implementation's legal actions, where `text` is one of them)."""
    try:
        act = codec.action_from_json(st, action_json(text, ctx.max_pip))
    except codec.StateError as e:
        return e.clause or "TURN-7"
    except FixtureError:
        return "TURN-7"
    drawn = drawn_refusal(st, act)  # a playable drawn tile kept: TURN-3, as conform
    if drawn is not None:
        return drawn
    clause = refusal(st, act).clause
    if (clause == "TRAIN-2" and act.kind == "play" and act.train == st.players
            and not st.trains[act.train]):
        return "TRAIN-5"  # what opens the Mexican Train, as conform charges it
    if clause in ("DBL-6", "DBL-7") and released_early(st, act):
        return "DBL-12"  # released a tile early, as conform charges it
    offered = None if listed is None else [
        a for t in listed if isinstance(a := as_action(ctx, st, t), tuple)]
    if clause in ("DBL-6", "DBL-7") and released_one_short(st, act, offered):
        return "DBL-9"  # released with one tile of its number still out, as conform
    return clause


def _forbids(text: str, clause: str | None) -> str:
    """The signature of a legal action not offered or refused: with the clause that
    allows it, so that a user sees which rule (a bare kind where none is found)."""
    return f"forbids {_kind(text)}" + (f" ({clause})" if clause else "")


def as_action(ctx: Context, st: State, text: str) -> Action | None:
    try:
        return codec.action_from_json(st, action_json(text, ctx.max_pip))
    except (codec.StateError, FixtureError, ValueError, KeyError):
        return None


def permitting(ctx: Context, st: State, text: str, cited: str | None = None) -> str | None:
    """The clause that allows the legal action `text` in `st`, as conform charges an
    action missing or refused (move_charges.allowing): TRAIN-6 for a cover refused as onto
    a closed train (`cited` TRAIN-4) that TRAIN-6 opens, TRAIN-4 for a play onto another
    player's marked train refused so. None if the rules refuse it."""
    act = as_action(ctx, st, text)
    if act is None:
        return None
    if cited == "TRAIN-4" and closed_cover(st, act, legal=False):
        return "TRAIN-6"
    if cited == "TRAIN-4" and marked_play(st, act) and act in legal_actions(st):
        return "TRAIN-4"
    return allowing(st, act)


def _closed_covers(ctx: Context, st: State, missing: Sequence[str], listed: Sequence[str],
                   plays_extra: bool) -> bool:
    """Whether the missing actions are all covers of the oldest open double on other
    players' unmarked trains, and no cover is offered instead: TRAIN-6, which alone opens
    those trains, is what is broken (as conform charges it; an engine that covers
    elsewhere errs in the order, DBL-7 or DBL-8, which `permitting` names)."""
    if plays_extra or not missing:
        return False
    acts = [as_action(ctx, st, t) for t in missing]
    if any(a is None or not closed_cover(st, a) for a in acts):
        return False
    offered = [as_action(ctx, st, t) for t in listed]
    return not any(a is not None and a.kind == "play" and a.train in st.open_doubles
                   for a in offered)


def _release_offered(ctx: Context, st: State, listed: Sequence[str]) -> str | None:
    acts = [as_action(ctx, st, t) for t in listed]
    if any(a is None for a in acts):
        return None
    return release_offered(st, [a for a in acts if a is not None])


def _marked_closed(ctx: Context, st: State, missing: Sequence[str],
                   listed: Sequence[str]) -> bool:
    """Whether the missing plays are all onto other players' marked trains, and none is
    offered onto those trains but covers: the marker's access (TRAIN-4) is broken, whatever
    the moment's rule (DBL-2, TURN-3, a release), as conform charges it, though another
    marked train may be offered (a loop over the seats one short)."""
    acts = [as_action(ctx, st, t) for t in missing if _kind(t) == "play"]
    if not acts or any(a is None or not marked_play(st, a) for a in acts):
        return False
    shut = {a.train for a in acts if a is not None}
    offered = [as_action(ctx, st, t) for t in listed]
    return not any(a is not None and marked_play(st, a) and a.train not in st.open_doubles
                   and a.train in shut for a in offered)


def _mexican_closed(ctx: Context, st: State, missing: Sequence[str],
                    listed: Sequence[str]) -> bool:
    """Whether the missing plays are all on the Mexican Train by a player whose marker is
    up, and none is offered on it: its access (TRAIN-4, MARK-2: always open) is
    broken, whatever the moment's rule (TURN-3, DBL-2, TRAIN-5), as conform charges it:
    only where some other legal play is offered (else the tiles may be unseen)."""
    acts = [as_action(ctx, st, t) for t in missing if _kind(t) == "play"]
    if not acts or any(a is None or not marked_mexican(st, a) for a in acts):
        return False
    legal = legal_actions(st)
    offered = [as_action(ctx, st, t) for t in listed if _kind(t) == "play"]
    if not any(a is not None and a in legal for a in offered):
        return False
    return not any(_kind(t) == "play" and t.endswith(" on mexican") for t in listed)


def _mexican_unopened(ctx: Context, st: State, missing: Sequence[str],
                      listed: Sequence[str], extra: Sequence[str] = ()) -> bool:
    """Whether the missing plays all open the empty Mexican Train and none is offered on
    it but with a tile the rules refuse there (`extra`: the wrong number opening it is the
    same bug): what opens it (TRAIN-5) is broken, whatever the moment's rule (DBL-2,
    TURN-3), as conform charges it."""
    acts = [as_action(ctx, st, t) for t in missing if _kind(t) == "play"]
    if not acts or any(a is None or not mexican_opening(st, a) for a in acts):
        return False
    return not any(_kind(t) == "play" and t.endswith(" on mexican") and t not in extra
                   for t in listed)


def compare_refusal(ctx: Context, st: State, text: str, want: Sequence[str],
                    accepted: bool, clause: str | None,
                    error: BaseException | None) -> list[Disagreement]:
    """`text` is refused by the reference under the clauses `want` (every clause that
    refuses it, the one the reference cites first); the implementation accepted it,
    refused it naming `clause`, or failed with `error`. Naming any of `want` agrees: where
    several rules forbid an action, each is a right answer (docs/protocol.md)."""
    expect = {"refused": {text: want[0] if len(want) == 1 else list(want)}}
    clauses = tuple(want)
    if error is not None:
        sig, message = failure("apply", error)
        return [Disagreement(sig, (message,), expect, (), clauses)]
    kind = _kind(text)
    if accepted:
        return [Disagreement(f"allows {kind} ({want[0]})",
                             (f"`{text}` was accepted; the reference refuses it ({want[0]})",),
                             expect, (), clauses)]
    if clause is None or clause in want:
        return []
    named = " or ".join(want)  # the signature names the first, so one bug is one group
    return [Disagreement(f"refuses {kind} citing {clause}, not {want[0]}",
                         (f"`{text}` refused by {clause}; the rules refuse it by {named}",),
                         expect, (), clauses)]


def refusing(ctx: Context, st: State, text: str) -> tuple[str, ...]:
    """Every clause by which the reference refuses the action `text` in `st`, the one it
    cites first."""
    try:
        act = codec.action_from_json(st, action_json(text, ctx.max_pip))
    except codec.StateError as e:
        return (e.clause or "TURN-7",)
    except FixtureError:
        return ("TURN-7",)
    return tuple(r.clause for r in refusals(st, act))


def compare_winners(ctx: Context, text: str | None, want: list[int], got: Any,
                    error: BaseException | None, totals: Sequence[int] = (),
                    over_left_open: bool = False,
                    held_over: Callable[[], bool] | None = None) -> list[Disagreement]:
    """The winners `got` against the reference's `want` after the step `text` ends a
    round with the match `totals` (`text` None: of the finished table itself, an "over"
    probe). `over_left_open`: under a match length of one's own, whether the match is
    over is the implementation's to say (an empty answer passes, but where it holds the
    match over), and winners it names must be `want`, the rules' winners of the totals.
    `held_over` asks, where it names none, whether the implementation holds the match
    over all the same (it refuses the round after: match_over.py), as conform asks."""
    # MATCH-1: none while rounds are to come, as a fixture says it
    expect: dict[str, Any] = {"winners": sorted(want)} if want else {"match_over": False}
    clauses = tuple(winners_clauses(ctx))
    question = () if text is None else (text,)
    if error is not None:
        sig, message = failure("winners", error)
        return [Disagreement(sig, (message,), expect, question, clauses)]
    problems = winners_problems(got, len(totals) or None)  # a seat past the table: broken
    if problems:
        sig, texts = _problems("winners answer", problems)
        return [Disagreement(sig, texts, expect, question, clauses)]
    if sorted(got) == sorted(want):
        return []
    # none named: over all the same where it refuses the round after, its match of its
    # own too (its empty answer then no match going on), as conform's check asks it
    over = bool(want) and not got and held_over is not None and held_over()
    if over_left_open and not got and not over:
        return []
    # the clause conform charges first (a reproducer's first listed is the one charged)
    charged = _winners_charge(ctx, want, got, totals, clauses, over)
    clauses = (charged, *(c for c in clauses if c != charged))
    if not want:  # MATCH-1: rounds are to come
        return [Disagreement("winners", (f"winners: the match goes on (MATCH-1: round "
                                         f"{ctx.rules.rounds} is its last), implementation "
                                         f"{sorted(got)}",), expect, question, clauses)]
    own = " (or none, while its own match goes on)" if over_left_open and not over else ""
    return [Disagreement("winners", (f"winners: reference {sorted(want)}{own}, implementation "
                                     f"{sorted(got)}",), expect, question, clauses)]


def winners_now(st: State) -> list[int]:
    """The reference's winners of a state whose round is over: [] with rounds to come."""
    return match_winners(st) if match_over(st) else []  # MATCH-1


def _winners_charge(ctx: Context, want: list[int], got: list[int], totals: Sequence[int],
                    clauses: tuple[str, ...], over: bool = False) -> str:
    """The clause conform charges for these winners (attribution.Referee.winners): a tie
    named on either side is the tie rule's, a match over on one side only its length's
    (but the winning rule's where the implementation holds it `over`)."""
    fx = Fixture(id="fuzz-winners", description="", clauses=clauses, source=(),
                 path="<fuzz>", line=None, table=None, deal=None, steps=(), expect=())
    return Referee(fx, ctx.rs, lambda: [{"scores": list(totals)}]).winners(want, got, over)
