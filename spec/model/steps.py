"""What steps do to a table, by the model: the round model's effects on plain values.

`replay(ruleset, steps, state=...)` (or `deal=...`) plays the steps (fixture texts: draw,
pass, end-chain, `play 5-3 on 1`, `next-round`) on a canonical JSON state (or a deal)
with spec/model/transitions.py's effects and returns the fields a fixture's expectation
may check: seat, starter, phase, markers, drawn tile, open doubles and doubles of this
turn, passes, first turns, totals and wins, the round's result (scored by
spec/model/scoring.py), whether the engine is placed, the hand and boneyard sizes.
Legality is not decided: the steps are taken as given. `mtrain lint` fills in with it
the fields an expectation leaves unchecked; the model's effects are the ones
`effects-vs-engine` compares with the engine.

The model's boneyard is a set; the order a draw takes (the boneyard's first tile) is kept
here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mtrain.spec import tiles as T
from mtrain.spec.model import scoring
from mtrain.spec.model.legality import Opts
from mtrain.spec.model.round_state import BLOCKED, DOMINO, ENGINE, PHASE_NAMES, RUNNING, Sym
from mtrain.spec.model.transitions import Model
from mtrain.spec.notation import deal_order, is_next_round, max_pip_of, next_round_order
from mtrain.spec.ruleset import Ruleset

MEXICAN = "mexican"
JSON = dict[str, Any]
Deal = tuple[int, int, list[str], Mapping[str, Any]]
"""(players, round, the tiles in deal order, the match so far: scores, outs, and under
starting_seat highest-draw the draw for the start, `draw`)."""


@dataclass
class Round:
    """The model's state of a round, with what the model leaves out: the boneyard's order
    and the match's totals."""

    model: Model
    s: Sym
    boneyard: list[int]
    totals: list[int]
    outs: list[int]
    result: JSON | None = None

    def score(self) -> None:
        """MATCH-1: the round's scores added to the totals once it has ended."""
        if self.result is not None or self.s.res == RUNNING:
            return
        self.result = result(self.model, self.s)
        self.totals = [a + b for a, b in zip(self.totals, self.result["scores"], strict=True)]
        if self.result["winner"] is not None:
            self.outs[self.result["winner"]] += 1


def result(model: Model, s: Sym) -> JSON:
    """How a finished round (a plain state) ended, and its scores (SCORE-1..7)."""
    o = Opts(values=model.values)
    values = [sum(int(scoring.tile_value(T.HIGH[t], T.LOW[t], o)) for t in model.tiles
                  if s.loc[t] == q) for q in range(model.P)]
    counts = [sum(1 for t in model.tiles if s.loc[t] == q) for q in range(model.P)]
    winner = int(s.seat) if s.res == DOMINO else -1
    return {"end": "domino" if s.res == DOMINO else "blocked",
            "winner": winner if winner >= 0 else None,
            "scores": [int(x) for x in scoring.round_scores(values, winner, o, counts)]}


def from_json(model: Model, st: Mapping[str, Any]) -> Sym:
    """A canonical JSON state as the model's plain state."""
    P = model.P
    where: dict[int, int] = {}
    for q, hand in enumerate(st["hands"]):
        where.update((T.parse(x), q) for x in hand)
    where.update((T.parse(x), P) for x in st["boneyard"])
    bodies = [*st["trains"], st["mexican"]]

    def key(k: Any) -> int:
        return P if k == MEXICAN else int(k)

    od = [key(k) for k in st.get("open_doubles", [])]
    td = {key(k) for k in st.get("turn_doubles", [])}
    first = set(st.get("first_turns", []))
    result = st.get("result")
    drawn = st.get("drawn")
    return Sym(
        loc=[where.get(t, P + 1) for t in model.tiles],
        end=[int(b["end"]) for b in bodies], started=[bool(b["tiles"]) for b in bodies],
        odbl=[k in od for k in model.trains], tdbl=[k in td for k in model.trains],
        age=[od.index(k) if k in od else 0 for k in model.trains], clock=len(od),
        marker=[bool(t.get("marker")) for t in st["trains"]],
        first=[q in first for q in range(P)], seat=int(st["seat"]),
        starter=int(st["starter"]), phase=PHASE_NAMES.index(st["phase"]),
        drawn=-1 if drawn is None else T.parse(drawn), passes=int(st.get("passes", 0)),
        res=RUNNING if not result else DOMINO if result["end"] == "domino" else BLOCKED)


def dealt(rs: Ruleset, deal: Deal) -> Round:
    """A round fresh from a deal in the given order: each seat's hand, then the boneyard
    (DEAL-1; the engine set aside is not in the order, ENG-2)."""
    players, round_no, order, match = deal
    tiles = [T.parse(x) for x in order]
    size = rs.hand_size(players)
    where = {t: (i // size if i < players * size else players) for i, t in enumerate(tiles)}
    bone = tiles[players * size:]
    chosen = None
    lead = (round_no - 1) % players  # SEAT-3's seat, where the searches begin
    if rs["starting_seat"] == "highest-draw":
        lead = draw_lead(match.get("draw"), players, round_no, max_pip_of(rs))  # SEAT-5
    if rs["engine_procedure"] == "highest-double-held":
        chosen, bone = highest_double(where, bone, players, lead)
    elif rs["engine_procedure"] == "designated-opens":
        chosen, bone = designated_opens(where, bone, players, lead)
    model = Model(rs, players, size, round_no, engine=chosen, lead=lead)
    engine = T.DOUBLE[model.e]
    if (rs["engine_procedure"] == "holder-lays-and-draws" and bone
            and where.get(engine, players) < players):  # ENG-5: the holder's replacement
        where[bone[0]] = where[engine]
        bone = bone[1:]
    places = [where.get(t, players + 1) for t in model.tiles]
    r = Round(model, model.deal(places), bone,
              list(match.get("scores") or [0] * players),
              list(match.get("outs") or [0] * players))
    r.score()
    return r


def draw_lead(draw: Any, players: int, round_no: int, max_pip: int) -> int:
    """SEAT-5, read from the clause: round r's first seat, (w + r - 1) mod players for the
    winner w of the draw (`draw[s]`: seat s's tiles, one a drawing it took part in). Every
    seat draws; while several tie on the highest pip total, they alone draw again. A draw
    the clause cannot produce is a ValueError naming SEAT-5."""
    if draw is None or len(draw) != players:
        raise ValueError("the deal needs one list of drawn tiles per seat [SEAT-5]")
    drawn = [[T.parse(x, max_pip) for x in seat] for seat in draw]
    taking = set(range(players))  # the seats still drawing
    for k in range(max(len(d) for d in drawn)):
        if any(len(drawn[q]) != k + 1 for q in range(players)
               if q not in taking and len(drawn[q]) > k):
            raise ValueError("a seat drew again without a tie on the highest [SEAT-5]")
        if any(len(drawn[q]) <= k for q in taking):
            raise ValueError("a seat tied on the highest did not draw again [SEAT-5]")
        tiles = [drawn[q][k] for q in sorted(taking)]
        if len(set(tiles)) != len(tiles):
            raise ValueError("one drawing holds a tile twice [SEAT-5]")
        pips = {q: T.HIGH[drawn[q][k]] + T.LOW[drawn[q][k]] for q in taking}
        taking = {q for q in taking if pips[q] == max(pips.values())}
        if len(taking) == 1:
            if any(len(d) > k + 1 for d in drawn):
                raise ValueError("a seat drew after the draw was won [SEAT-5]")
            return (taking.pop() + round_no - 1) % players
    raise ValueError("the draw ends with seats still tied on the highest [SEAT-5]")


def highest_double(where: dict[int, int], bone: list[int], players: int,
                   lead: int) -> tuple[int, list[int]]:
    """ENG-7, read from the clause: the number of the highest double in any hand; with none
    in a hand, the seats from the round's first seat `lead` ((round - 1) mod players, or
    SEAT-5's) take the boneyard's tiles in turn
    until one is a double, which stays with its finder (`where` is updated: the model
    places the engine from the finder's hand). Returns the number and the boneyard left."""
    doubles = sorted((T.HIGH[t] for t in where if T.IS_DOUBLE[t] and where[t] < players),
                     reverse=True)
    if doubles:
        return doubles[0], bone
    seat = lead
    for i, t in enumerate(bone):
        where[t] = seat
        if T.IS_DOUBLE[t]:
            return T.HIGH[t], bone[i + 1:]
        seat = (seat + 1) % players
    raise ValueError("a deal with no double anywhere")  # every set has its doubles


def designated_opens(where: dict[int, int], bone: list[int], players: int,
                     lead: int) -> tuple[int, list[int]]:
    """ENG-8, read from the clause: the designated seat, first the round's first seat,
    opens with the largest double in its hand; with none it takes the boneyard's first
    tile (while there is one), which opens if it is a double and is kept otherwise, and
    the next seat is designated. `where` is updated as in highest_double."""
    seat, bone = lead, list(bone)
    while True:
        held = [T.HIGH[t] for t in where if T.IS_DOUBLE[t] and where[t] == seat]
        if held:
            return max(held), bone
        if bone:
            t = bone.pop(0)
            where[t] = seat
            if T.IS_DOUBLE[t]:
                return T.HIGH[t], bone
        seat = (seat + 1) % players


def step(r: Round, text: str) -> None:
    """One step (a fixture's text) on the round."""
    m, s = r.model, r.s
    words = text.split()
    if words[0] == "draw":
        r.s = m.effect(s, "draw", r.boneyard.pop(0))  # the boneyard's first tile
    elif words[0] in ("pass", "end-chain"):
        r.s = m.effect(s, words[0])
    else:
        tile = T.parse(words[1], m.N)
        train = m.P if words[3] == MEXICAN else int(words[3])
        r.s = m.effect(s, "play", tile, train)
    r.score()


def replay(rs: Ruleset, steps: Sequence[str], state: Mapping[str, Any] | None = None,
           deal: Deal | None = None) -> JSON:
    """The fields after `steps` from a canonical JSON `state` or a `deal` (see the module
    docstring), in the fixtures' vocabulary."""
    draw = deal[3].get("draw") if deal is not None else None
    if deal is not None:
        r = dealt(rs, deal)
    else:
        assert state is not None
        # SEAT-5: the round's first seat is the starter the table keeps since its deal
        lead = int(state["starter"]) if rs["starting_seat"] == "highest-draw" else None
        model = Model(rs, len(state["hands"]), round_no=int(state["round"]),
                      engine=int(state["engine"]), lead=lead)
        r = Round(model, from_json(model, state), [T.parse(x) for x in state["boneyard"]],
                  list(state.get("scores") or [0] * model.P),
                  list(state.get("outs") or [0] * model.P), state.get("result"))
    for text in steps:
        if is_next_round(text):  # MATCH-1: the next round, the totals carried
            round_no = r.model.round + 1
            order = deal_order(rs, max_pip_of(rs) - round_no + 1, next_round_order(text))
            match = {"scores": r.totals, "outs": r.outs, "draw": draw}  # the match's draw
            r = dealt(rs, (r.model.P, round_no, order, match))
        else:
            step(r, text)
    return fields(r)


def fields(r: Round) -> JSON:
    m, s = r.model, r.s

    def name(k: int) -> int | str:
        return MEXICAN if k == m.P else k

    opened = sorted((k for k in m.trains if s.odbl[k]), key=lambda k: s.age[k])
    return {
        "seat": s.seat, "starter": s.starter, "phase": PHASE_NAMES[s.phase],
        "engine": m.e, "marked": [q for q in range(m.P) if s.marker[q]],
        "drawn": None if s.drawn < 0 else T.name(s.drawn),
        "open_doubles": [name(k) for k in opened],
        "turn_doubles": [name(k) for k in opened if s.tdbl[k]], "passes": s.passes,
        "first_turns": [q for q in range(m.P) if s.first[q]], "scores": list(r.totals),
        "outs": list(r.outs), "result": r.result, "engine_placed": s.phase != ENGINE,
        "hand_sizes": [sum(1 for x in s.loc if x == q) for q in range(m.P)],
        "boneyard_size": sum(1 for x in s.loc if x == m.P),
    }
