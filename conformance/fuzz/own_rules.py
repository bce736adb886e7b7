"""Fuzzing rules of one's own: which of the reference's answers the `other` rules decide.

A rule set may play some options in a way no known value describes (`other`). The
reference plays a known stand-in value for each (rulesets.stand_in) and every answer it
gives is computed with its flags traced, as the scope checks trace them
(conformance/partition.py): an answer whose computation read none of the `other` options
is the same whatever they are, so it is the rules' answer and is judged; one that read
any of them is the stand-in's, not the rules', and is only counted. This is how conform
decides that an entry applies to such a rule set, asked step by step.

A deal under an engine procedure of one's own reads that rule, yet its seat and starter
may still be the rules' (conformance/seat_alone.py): `seat_alone` asks it as conform
does, and only those two fields are then judged.

A deal request is built from the stand-in too: the pool its order shuffles (ENG-2: a
procedure that sets the engine aside leaves it out) and the draw for the start (SEAT-5:
sent only under the highest draw). An implementation of an engine procedure of its own is
sent the whole set, as conform sends it (seat_alone.whole_pool), whatever the stand-in;
where another option of one's own still decides the request's shape (`request_own`),
nothing of the answer is the rules', not even a refusal of it: pullman, whose own
procedure deals every tile, refused a pool the stand-in `set-aside` had shaped, and that
refusal was charged DEAL-1.

Under a marker rule of one's own, a step that reads it is judged but for the markers up
before it, which come off as the engine's rule says (`markers_aside`, as conform judges
such an entry without `marked`: conformance/marker_alone.py).

Who wins a match that is over does not depend on when it ends: under a match length of
one's own, whether the match is over is left to the engine, and winners it names must be
the rules' winners of the totals (`match_end_alone`, as conform judges a fixture that
ends a match there, conformance/match_end_alone.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from mtrain.conformance.adapter import JSON, ReferenceImplementation
from mtrain.conformance.answers import Problem, state_problems
from mtrain.conformance.divergence import ROUND_END, WORTH
from mtrain.conformance.fixture import Expectation, Fixture
from mtrain.conformance.fuzz.rulesets import Context
from mtrain.conformance.own_checks import engine_of_its_own
from mtrain.conformance.seat_alone import SEAT_FIELDS, dealt_entry, seat_entry, whole_pool
from mtrain.conformance.state_compare import state_view
from mtrain.conformance.traced import Log, TracedReference, TracedRules, TracedRuleset
from mtrain.reference import codec
from mtrain.reference.deal import deal_pool, match_winners
from mtrain.reference.engine import OVER, State
from mtrain.reference.invariants import AFTER_DEAL, CHECKS
from mtrain.reference.rules import Rules
from mtrain.spec import tiles
from mtrain.spec.catalog import catalog
from mtrain.spec.ruleset import OTHER, Ruleset
from mtrain.spec.scope import Space

T = TypeVar("T")


def traced(ctx: Context) -> tuple[Rules, Log]:
    """Fresh flags of the context's stand-in that log every option read."""
    log = Log()
    rules: Any = TracedRules(ctx.rules, TracedRuleset.wrap(ctx.rs, log), log)
    return rules, log


def read_own(ctx: Context, log: Log) -> tuple[str, ...]:
    """The `other` options among those a traced computation read."""
    return tuple(o for o in log.read if o in ctx.unknown)


def on_state(ctx: Context, st: State, compute: Callable[[State], T]) -> tuple[T, tuple[str, ...]]:
    """compute(st), and the `other` options it read (none when the context has none)."""
    if not ctx.unknown:
        return compute(st), ()
    rules, log = traced(ctx)
    mine = st.copy()
    mine.rules = rules
    return compute(mine), read_own(ctx, log)


def step(ctx: Context, st: State, act: Any, perform: Callable[[State, Any], object]
         ) -> tuple[State, tuple[str, ...]]:
    """The state after `act` from `st`, and the `other` options the step read."""
    nxt = st.copy()
    if not ctx.unknown:
        perform(nxt, act)
        return nxt, ()
    rules, log = traced(ctx)
    nxt.rules = rules
    perform(nxt, act)
    nxt.rules = ctx.rules
    return nxt, read_own(ctx, log)


def worth_aside(own: tuple[str, ...], want: JSON, got: Any) -> JSON | None:
    """Where the options of one's own a step read decide only what a round's end is worth
    (ROUND_END: semaphore's scoring, blank values, tie rule), the reference's state after it
    with the implementation's round scores and totals in place of the stand-in's, so that
    the rest of the step is judged (its last tile, the trains, the markers, how the round
    ended and who went out), as conform judges it (round_end_alone); else None."""
    if not own or not set(own) <= ROUND_END or not isinstance(got, dict):
        return None
    out = {**want, "scores": got.get("scores", want["scores"])}
    mine, theirs = want.get("result"), got.get("result")
    if isinstance(mine, dict) and isinstance(theirs, dict) and "scores" in theirs:
        out["result"] = {**mine, "scores": theirs["scores"]}
    elif isinstance(mine, dict):  # a round the implementation did not end: what it is
        # worth is its own rule's, not the stand-in's (boxcar's blanks at 7 were shown and
        # written as the stand-in's face values)
        out["result"] = {k: v for k, v in mine.items() if k != "scores"}
    return out


DOUBLES = "doubles"
DOUBLES_FIELDS = ("open_doubles", "turn_doubles")


def out_alone(own: tuple[str, ...], want: JSON, got: Any) -> JSON | None:
    """Where a step's last tile went out (END-1, a clause of every rule set: the round
    ends the moment a player lays their last tile, a double too) and the options of one's
    own it read are the doubles rule, perhaps with what a round's end is worth
    (ROUND_END): the reference's state after it with the implementation's list of open
    doubles (and its round scores and totals, worth_aside) in place of the stand-in's.
    Laying a double reads the doubles rule, which decides whether the double is listed
    open, and nothing else of a round that ends: that it ends, how, who went out and the
    hands left are END-1's, so they are judged. marshal's double laid as the last tile,
    which handed the turn on (tests/examples/marshal_engine.py), went unjudged under
    `doubles: other`. None where the step is not such a step."""
    if DOUBLES not in own or not isinstance(got, dict):
        return None
    rest = tuple(o for o in own if o != DOUBLES)
    result = want.get("result")
    if want.get("phase") != OVER or not isinstance(result, dict) or result.get("winner") is None:
        return None  # not gone out: the doubles rule may decide what comes next
    if rest and worth_aside(rest, want, got) is None:
        return None
    out = {**want, **{k: got[k] for k in DOUBLES_FIELDS if k in got}}
    return worth_aside(rest, out, got) if rest else out


MARKERS = "marker_removal"


def markers_aside(own: tuple[str, ...], before: Any, want: JSON, got: Any) -> JSON | None:
    """Where the options of one's own a step read are the marker rule (perhaps with what a
    round's end is worth, ROUND_END): the reference's state after it with each marker that
    was up `before` the step as the implementation's `got` leaves it (and its worth,
    worth_aside), so that the rest of the step is judged, as conform judges it without
    `marked` (marker_alone.py). The engine reads that rule only to take a marker off
    (MARK-3..5, engine.py: at a play, and at a draw for the trace), so which markers up
    come off is the rule's and nothing else; a marker put up (MARK-1) stays the rules'.
    None where the step is not such a step or the trains do not line up."""
    if MARKERS not in own or not isinstance(got, dict) or not isinstance(before, dict):
        return None
    rest = tuple(o for o in own if o != MARKERS)
    if rest and worth_aside(rest, want, got) is None:
        return None
    trains, mine, was = want.get("trains"), got.get("trains"), before.get("trains")
    if not (isinstance(trains, list) and isinstance(mine, list) and isinstance(was, list)
            and len(trains) == len(mine) == len(was)
            and all(isinstance(t, dict) for t in [*trains, *mine, *was])):
        return None
    out = {**want, "trains": [{**t, "marker": m.get("marker", False)} if b.get("marker")
                              else t for t, m, b in zip(trains, mine, was, strict=True)]}
    return worth_aside(rest, out, got) if rest else out


def aside(own: tuple[str, ...], want: JSON, got: Any, before: Any = None) -> JSON | None:
    """The reference's state after a step from `before` with what the options of one's
    own it read decide taken from the implementation's (worth_aside, out_alone,
    markers_aside); None where they decide more."""
    return (worth_aside(own, want, got) or out_alone(own, want, got)
            or markers_aside(own, before, want, got))


def reference(ctx: Context) -> TracedReference | None:
    """A reference whose reads are logged, for a context with `other` rules (else None)."""
    return TracedReference(ctx.rs) if ctx.unknown else None


def own_reads(ctx: Context, ref: ReferenceImplementation) -> tuple[str, ...]:
    """The `other` options a reference from `reference` has read so far."""
    return read_own(ctx, ref.log) if isinstance(ref, TracedReference) else ()


def deal_reads(ctx: Context, ref: ReferenceImplementation) -> tuple[str, ...]:
    """Of own_reads, those read for more than whether the round exists, as `dealt`
    counts a deal's: the reads a deal's judgement rests on."""
    if not isinstance(ref, TracedReference):
        return ()
    return tuple(o for o in read_own(ctx, ref.log) if o in ref.log.decides)


def problems(ctx: Context, state: Any, *, dealt: bool = False) -> list[Problem]:
    """What is wrong with a state an implementation returned (answers.state_problems),
    without the invariants whose check reads an `other` option: a round's scores under
    scoring of one's own, hand sizes after a deal of one's own."""
    found = state_problems(ctx.rules, state, dealt=dealt)
    if not ctx.unknown:
        return found
    # another engine than the round's, picked by a procedure of one's own
    rules, found = engine_of_its_own(ctx.rules, ctx.unknown, state, found, dealt)
    if not any(p.kind == "invariant" for p in found):
        return found
    st = codec.state_from_json(rules, state)  # it decodes: its problems are invariants
    keep = []
    for p in found:
        check = CHECKS.get(p.where) or AFTER_DEAL.get(p.where)
        if p.kind == "invariant" and check is not None and on_state(ctx, st, check)[1]:
            continue
        keep.append(p)
    return keep


MATCH_LENGTH = "match_length"


def match_end_alone(ctx: Context, st: State, own: tuple[str, ...]) -> list[int] | None:
    """The rules' winners of the totals of `st` (a round over), where the only option of
    one's own that `own` (what the reference's answer read) names is the match length and
    the winners of the totals read none: an engine may then say its match goes on (no
    winners), and winners it names must be these (MATCH-2..6). None otherwise."""
    if own != (MATCH_LENGTH,):
        return None
    winners, read = on_state(ctx, st, match_winners)
    return None if read else winners


def winners_alike(ctx: Context, st: State, own: tuple[str, ...]) -> list[int] | None:
    """The rules' winners of the totals of `st` (a match over), where what the reference's
    winners read of one's own (`own`) is only what a round is worth (WORTH: the scoring,
    which says whether the lowest total wins or the highest, MATCH-2, MATCH-3) and every
    known value of it names the same seats: the totals all level, so that the tie rule
    alone decides (MATCH-4..6), whatever the scoring. None otherwise."""
    if not own or not set(own) <= WORTH:
        return None
    answers = []
    for option in own:
        for value in catalog().options[option].values:
            if value == OTHER:
                continue
            rs = ctx.rs
            mine = st.copy()
            mine.rules = Rules.of(Ruleset(rs.name, tuple(
                (o, value if o == option else v) for o, v in rs.choices),
                rs.hand_table, rs.overlays))
            answers.append(match_winners(mine))
    return answers[0] if answers and all(a == answers[0] for a in answers) else None


def dealt(ctx: Context, deal: Callable[[Rules], State]) -> tuple[State, tuple[str, ...]]:
    """deal(the context's flags), and the `other` options the deal read for more than
    whether its round exists: a match length of one's own decides only that of a later
    round's deal (EXISTENCE_FLAGS), which the engine answers by dealing it or refusing it
    (play.py cuts the game at a refusal), so a deal it makes is judged (reefer's hands
    dealt round the table from round 3 on went unjudged in every later round)."""
    if not ctx.unknown:
        return deal(ctx.rules), ()
    rules, log = traced(ctx)
    st = deal(rules)
    st.rules = ctx.rules
    return st, tuple(o for o in read_own(ctx, log) if o in log.decides)


def seat_alone(ctx: Context, deal: dict[str, Any], want: dict[str, Any],
               own: tuple[str, ...]) -> bool:
    """True where the seat and starter of `deal` (the reference's, in `want`) are the
    rules' though the deal read `own`: an engine procedure of one's own is among them
    and every known procedure the other rules allow deals that seat and starter
    (seat_alone.seat_entry, as conform decides it for a deal fixture). A listed order is
    asked as the implementation was sent it, from the whole set (sent_order): each known
    procedure that sets the engine aside deals it less the engine (`less_engine`), every
    other one deals it all. Asked with the stand-in's own pool, a procedure that deals
    every tile could not deal it, and the seat went unjudged under a stand-in `set-aside`
    (roundhouse's start rotating over four seats unfound)."""
    if "engine_procedure" not in own or not set(own) <= ctx.unknown:
        return False
    order, engine = deal.get("order"), deal.get("engine")
    if isinstance(order, list) and isinstance(engine, int):
        deal = {**deal, "order": sent_order(ctx, ctx.max_pip + 1 - engine, order)}
    fx = Fixture(id="fuzz-deal", description="", clauses=(), source=(), path="<fuzz>",
                 line=None, table=None, deal=deal, steps=(), expect=())
    exp = Expectation(variants=(), state={k: want[k] for k in SEAT_FIELDS})
    return seat_entry(exp, fx, ctx.declared, option_space(), less_engine=True) is not None


def rest_alone(ctx: Context, deal: dict[str, Any], want: dict[str, Any],
               own: tuple[str, ...]) -> bool:
    """True where all of `deal` (the reference's, in `want`) but its seat and starter is
    the rules' though the deal read `own`: a starting seat of one's own is the only such
    option, and every known starting seat the other rules allow deals the rest alike
    (seat_alone.dealt_entry, as conform decides it for a deal fixture). Without it, a
    deal under `starting_seat: other` went unjudged whole: hands dealt wrong passed every
    fuzz run of dolly (tests/examples/js/dolly_engine.js), whose heaviest hand leads."""
    if own != ("starting_seat",) or "starting_seat" not in ctx.unknown or "draw" in deal:
        return False
    fx = Fixture(id="fuzz-deal", description="", clauses=(), source=(), path="<fuzz>",
                 line=None, table=None, deal=deal, steps=(), expect=())
    exp = Expectation(variants=(), state=dealt_state(want))
    return dealt_entry(exp, fx, ctx.declared, option_space()) is not None


def dealt_state(want: JSON) -> dict[str, Any]:
    """A dealt state (JSON) as a fixture's `state` writes it, every field but the seat
    and starter (judge.differences writes a field that differs so)."""
    view = state_view(want)
    trains: dict[Any, list[str]] = {i: list(t["tiles"]) for i, t in enumerate(want["trains"])}
    trains["mexican"] = list(want["mexican"]["tiles"])
    state: dict[str, Any] = {
        "hands": {i: list(h) for i, h in enumerate(want["hands"])}, "trains": trains,
        "boneyard": list(want["boneyard"]), "marked": view["marked"],
        "first_turns": view["first_turns"]}
    for key in ("engine", "engine_placed", "phase", "open_doubles", "turn_doubles", "drawn",
                "passes", "scores", "outs"):
        state[key] = want[key]
    return state


_SPACE: list[Space] = []


def option_space() -> Space:
    """The option space of the catalogue in force, built once (it keeps what it found)."""
    cat = catalog()
    if not _SPACE or _SPACE[0].cat is not cat:
        _SPACE[:] = [Space(cat)]
    return _SPACE[0]


ENGINE_PROCEDURE = "engine_procedure"


def sent_order(ctx: Context, round_no: int, order: list[str]) -> list[str]:
    """The order a deal request sends for the stand-in's shuffled pool `order`: the whole
    set for an engine procedure of one's own (seat_alone.whole_pool: the engine a stand-in
    sets aside goes back last), as conform sends it; else `order`."""
    return whole_pool(ctx.rs, round_no, order) if ENGINE_PROCEDURE in ctx.unknown else order


def request_own(ctx: Context, round_no: int) -> tuple[str, ...]:
    """The options of one's own whose stand-in asks a deal request at round `round_no` of
    another shape (the tiles its order holds, whether a draw for the start goes with it)
    than most of the option's known values would, each tried beside the stand-in's other
    values: a request only the stand-in asks is the stand-in's, and so is whatever the
    implementation answers to it, a refusal too. (A request most values ask is the plain
    one: an engine with a start of its own is asked a deal without a draw, as under every
    start but the highest draw, and that is judged as before.)"""
    key = (ctx.name, ctx.declared.choices, round_no)
    found = _REQUEST_OWN.get(key)
    if found is None:
        found = _REQUEST_OWN[key] = _request_own(ctx, round_no)
    return found


_REQUEST_OWN: dict[tuple[str, object, int], tuple[str, ...]] = {}


def _request_own(ctx: Context, round_no: int) -> tuple[str, ...]:
    if not ctx.unknown:
        return ()
    space = option_space()
    played = space.point(ctx.declared)
    played.update({o: ctx.rs[o] for o in ctx.unknown})
    mine = _request_shape(ctx, ctx.rs, round_no)
    out = []
    for option in sorted(ctx.unknown):
        asked: dict[tuple[frozenset[str], bool], int] = {}
        region = {o: frozenset((v,)) for o, v in played.items() if o != option}
        for value in space.options[option]:
            sample = None if value == OTHER else space.complete(
                {**region, option: frozenset((value,))})
            if sample is not None:
                shape = _request_shape(ctx, space.ruleset(sample), round_no)
                asked[shape] = asked.get(shape, 0) + 1
        if asked.get(mine, 0) < max(asked.values(), default=0):
            out.append(option)
    return tuple(out)


def _request_shape(ctx: Context, rs: Ruleset, round_no: int) -> tuple[frozenset[str], bool]:
    """What of a deal request at `round_no` the rule set `rs` (played in place of
    `ctx.declared`) decides: the tiles of the order sent, and whether a draw goes with it
    (runner.deal_with_draw: only under the highest draw, SEAT-5)."""
    rules = Rules.of(rs)
    if not 1 <= round_no <= rules.set_rounds:
        return frozenset(), False  # no such round under `rs`: refused whatever it is
    order = [tiles.NAMES[t] for t in deal_pool(rules, round_no)]
    if ENGINE_PROCEDURE in ctx.unknown:
        order = whole_pool(rs, round_no, order)
    return frozenset(order), rs["starting_seat"] == "highest-draw"
