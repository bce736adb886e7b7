"""A table a random round reached, made into a situation: the fixture's table, its steps
(the draw before it, the move it asks) and what the formalisation expects there.

situations.py picks the kinds and the tables; this writes each one out as a Fixture: the
legal set is spec/model/legality.py's on the table, the state after a move
spec/model/steps.py's replay of it (checked against the reference's move), never an
engine's answer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mtrain.conformance.fixture import Expectation, Fixture
from mtrain.conformance.situation_deals import SITUATION_PATH
from mtrain.conformance.situation_kinds import (
    COMMON,
    LAID,
    PASSED,
    WRAP,
    Kind,
    Reached,
    laid_play,
    wrap_play,
)
from mtrain.conformance.traced import legality_reads
from mtrain.reference.codec import action_to_json, state_to_json
from mtrain.reference.engine import FOLLOW, PASS, State, perform
from mtrain.spec import tiles as T
from mtrain.spec.catalog import catalog
from mtrain.spec.model.legality import legal_actions as legal_actions_of
from mtrain.spec.model.steps import replay
from mtrain.spec.notation import MEXICAN, REST, action_text, table_state
from mtrain.spec.ruleset import Ruleset
from mtrain.spec.scope import Scope


def table_of(st: State) -> dict[str, Any]:
    """The fixture table of a state: every tile in a hand or on a train written out, the
    boneyard left to `rest` (every tile written nowhere else)."""
    sj = state_to_json(st)
    n = len(sj["hands"])
    out: dict[str, Any] = {"engine": sj["engine"]}
    if sj["seat"]:
        out["seat"] = sj["seat"]
    # always written: the default (the mover, or the rotation's seat) is the starting-seat
    # rule's, and a table of play has its own
    out["starter"] = sj["starter"]
    if sj["phase"] != "start":
        out["phase"] = sj["phase"]
    out["hands"] = {s: list(h) for s, h in enumerate(sj["hands"])}
    trains: dict[int | str, list[str]] = {
        s: list(t["tiles"]) for s, t in enumerate(sj["trains"]) if t["tiles"]}
    if sj["mexican"]["tiles"]:
        trains[MEXICAN] = list(sj["mexican"]["tiles"])
    if trains:
        out["trains"] = trains
    marked = [s for s, t in enumerate(sj["trains"]) if t.get("marker")]
    if marked:
        out["marked"] = marked
    out["boneyard"] = [REST] if sj["boneyard"] else []
    # always written: the default (every double at a train's end is open) is not what
    # play leaves behind
    out["open_doubles"] = list(sj["open_doubles"])
    if sj["turn_doubles"]:
        out["turn_doubles"] = list(sj["turn_doubles"])
    first = sorted(sj["first_turns"])
    if first:
        out["first_turns"] = "all" if first == list(range(n)) and n > 1 else first
    if sj.get("drawn") is not None:
        out["drawn"] = sj["drawn"]
    if sj["passes"]:
        out["passes"] = sj["passes"]
    return out


def _action_key(text: str) -> tuple[int, str]:
    return (0, text) if text.startswith("play ") else (1, text)


LAID_FIELDS = ("phase", "seat", "drawn", "open_doubles", "turn_doubles", "marked")
"""What a LAID situation checks after the play: whose turn, in which phase, the doubles."""
WRAP_FIELDS = (*LAID_FIELDS, "first_turns")
"""What a WRAP situation checks after the play: LAID's, and the mover's first turn over
(FIRST-6)."""
PASSED_FIELDS = ("marked", "seat", "drawn", "first_turns", "passes")
"""What a PASSED situation checks after the pass: its marker up, the next seat, no tile
drawn, the mover's first turn over (FIRST-6), and the passes counted (END-3 counts those
made on an empty boneyard: a pass after a draw, with the boneyard holding tiles, counts
none; trestle's count of every pass failed nothing before)."""


def _moved_fixture(kind: Kind, fid: str, reached: Reached, rs: Ruleset, plays: Ruleset,
                   scope: Scope, speaks: Callable[[State], bool] | None) -> Fixture | None:
    """A LAID, PASSED or WRAP situation: the table before the draw (or after it, where the
    draw is not on the table), the draw and the move (the drawn double laid, or the pass)
    as steps; for WRAP, the table and the last seat's tile, no draw. What the move leaves
    is spec/model/steps.py's replay of the steps; after a pass, the next player's legal set
    is spec/model/legality.py's on the table it reaches, and the mover's hand the table's,
    the drawn tile in it. None where the reference's
    move leaves another state than the model's (a bug of one of them, which the
    effects-vs-engine cross-check reports): no expectation is made of it."""
    st = reached.state
    laid = kind is LAID
    move = laid_play(st) if laid else wrap_play(st) if kind is WRAP else PASS
    assert move is not None
    table = table_of(st)
    before = _before_the_draw(table, st, plays, speaks)
    text = action_text(action_to_json(st, move))
    steps: tuple[str, ...] = ("draw", text) if before is not None else (text,)
    given, start = before if before is not None else (table, table_state(table, plays))
    model = replay(plays, steps, state=start)
    after = st.copy()
    perform(after, move)
    moved = table_of(after)
    reference = {**state_to_json(after), "marked": moved.get("marked", [])}
    fields = LAID_FIELDS if laid else WRAP_FIELDS if kind is WRAP else PASSED_FIELDS
    state = {k: model[k] for k in fields}
    if any(reference[k] != v for k, v in state.items()):  # the reference's move, as a check
        return None
    # the move's legality, where a rule of one's own decides it (and nothing after it)
    judged = set(legality_reads(st, plays, st.rules)) & set(rs.unknown)
    own_steps = ((len(steps), tuple(sorted(judged))),) if judged else ()
    legal = None
    if kind is WRAP:
        drew = ""
        told = (f"plays `{text}`, a tile that ends its turn (TURN-6). The state after it "
                f"(SEAT-1: seat 0 follows the last seat, whoever started the round; its "
                "first turn over, FIRST-6) is spec/model/steps.py's replay of the step, not "
                "an engine's.")
    elif laid:
        drew = f"draws {table['drawn']} and " if before is not None else ""
        told = (f"plays `{text}`. The state after it (DBL-1: the turn goes on for another "
                "tile, unless doubles are ordinary, DBL-11) is spec/model/steps.py's replay "
                "of the steps, not an engine's.")
    else:
        if before is not None:
            state["hands"] = {st.seat: table["hands"][st.seat]}
        legal = tuple(sorted(legal_actions_of(table_state(moved, plays), dict(plays.items())),
                             key=_action_key))
        drew = (f"draws {table['drawn']}, which it cannot play, and " if before is not None
                else "")
        told = ("passes. The state after the pass (its marker up, TURN-4; the next seat, no "
                "tile drawn, its first turn over, FIRST-6; the passes counted, END-3) is "
                "spec/model/steps.py's replay of the steps, the next "
                "player's legal set spec/model/legality.py's on the table reached, not an "
                "engine's.")
    fx = Fixture(
        id=fid,
        description=(f"{kind.title}, {reached.moves} moves in: {st.players} players, engine "
                     f"{st.engine}-{st.engine}, seat {st.seat} "
                     f"(#{int(fid.rsplit('-', 1)[1])})"),
        # a pass in a follow-up is DBL-5's (the player draws and passes as in an ordinary
        # turn): listed, a failure there is charged to it (drover's follow-up pass with no
        # marker was charged TURN-4)
        clauses=tuple(c for c in catalog().clauses if c in COMMON or c in kind.clauses
                      or (c == "DBL-5" and kind is PASSED and st.phase == FOLLOW)),
        source=("computation",), path=f"{SITUATION_PATH}{rs.name}>", line=None, table=given,
        deal=None, steps=steps,
        expect=(Expectation(variants=(), scope=scope, legal=legal, state=state,
                            own_steps=own_steps),),
        note=(f"A table reached by a random round of {rs.name} after {reached.moves} moves: "
              f"seat {st.seat} {drew}{told}" + (
                  f" Whether `{text}` is a move there is {', '.join(own_steps[0][1])}'s, "
                  "played its own way: where the implementation refuses it, not applicable."
                  if own_steps else "")))
    fx.keep_start(plays, start)
    return fx


def _fixture(kind: Kind, fid: str, reached: Reached, rs: Ruleset, plays: Ruleset,
             scope: Scope, speaks: Callable[[State], bool] | None = None) -> Fixture:
    st = reached.state
    number = int(fid.rsplit("-", 1)[1])
    table = table_of(st)
    start = table_state(table, plays)
    legal = tuple(sorted(legal_actions_of(start, dict(plays.items())), key=_action_key))
    # a table with a tile just drawn (the boneyard's last, at a dry table) is TURN-3's as
    # well, whatever its kind: a pass kept beside that tile is charged to it
    # (move_charges.drawn_refusal; drawbar's play-dry-045 was charged a clause not listed)
    clauses = [c for c in catalog().clauses if c in COMMON or c in kind.clauses
               or (c == "TURN-3" and st.drawn >= 0)]
    before = _before_the_draw(table, st, plays, speaks) if kind.name == "drawn" else None
    steps: tuple[str, ...] = ()
    state: dict[str, Any] = {}
    note = (f"A table reached by a random round of {rs.name} after {reached.moves} moves "
            f"({kind.title}); the legal set is spec/model/legality.py's on that table.")
    if before is not None:  # the draw itself is asked too: the first tile, to the mover
        drawn = table["drawn"]
        steps, state = ("draw",), {"drawn": drawn, "hands": {st.seat: table["hands"][st.seat]}}
        note = (f"{note[:-1]}, after the draw from the table before it: the boneyard's "
                f"first tile, {drawn}, drawn into seat {st.seat}'s hand (TURN-2, DEAL-1).")
        table, start = before
    refused: dict[str, tuple[str, ...]] = {}
    if kind.name == "mid":
        # TRAIN-1: one train a seat, so none is numbered `players` (the Mexican Train is
        # named, never numbered): a play on it is refused at every table size, where the
        # corpus asks it at a table of three alone (first-026), which a hand-size table
        # without that row never runs
        held = T.name(T.tiles_of(st.hands[st.seat])[0])
        refused = {f"play {held} on {st.players}": ("TRAIN-1",)}
    fx = Fixture(
        id=fid,
        description=(f"{kind.title}, {reached.moves} moves in: {st.players} players, engine "
                     f"{st.engine}-{st.engine}, seat {st.seat} to move (#{number})"),
        clauses=tuple(clauses), source=("computation",),
        path=f"{SITUATION_PATH}{rs.name}>", line=None, table=table, deal=None, steps=steps,
        expect=(Expectation(variants=(), scope=scope, legal=legal, refused=refused,
                            state=state),),
        note=note)
    fx.keep_start(plays, start)  # the table is played under `plays`: built once
    return fx


def _before_the_draw(table: dict[str, Any], st: State, plays: Ruleset,
                     speaks: Callable[[State], bool] | None
                     ) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """The table a moment before its tile was drawn: the drawn tile back at the front of
    the boneyard (TURN-2: the first tile is drawn, DEAL-1: in draw order), where the model
    allows the draw there and, for options played their own way, the draw reads none of
    them; None otherwise (the situation is the table after the draw alone). With the
    table, the state it stands for under `plays` (table_state)."""
    if st.drawn < 0 or "drawn" not in table:
        return None
    drawn, seat = table["drawn"], st.seat
    before = {k: v for k, v in table.items() if k != "drawn"}
    before["hands"] = {s: [t for t in h if t != drawn] for s, h in table["hands"].items()}
    before["boneyard"] = [drawn, *table["boneyard"]]
    if len(before["hands"][seat]) != len(table["hands"][seat]) - 1:
        return None
    start = table_state(before, plays)
    if "draw" not in legal_actions_of(start, dict(plays.items())):
        return None  # a second draw (draw-until-playable): its first is not on the table
    if speaks is not None:
        probe = st.copy()
        probe.hands[seat] ^= T.BIT[st.drawn]
        probe.boneyard = [st.drawn, *probe.boneyard]
        probe.drawn = -1
        if not speaks(probe):
            return None
    return before, start
