#!/usr/bin/env python3
"""Caboose: Mexican Train on a double-15 set, as a club of eight plays it, written from
docs/protocol.md and the implementer's guide alone (it imports nothing from mtrain), to
try the suite as a new author would. Its house rules and planted bugs were written down
here before the suite ran on it.

Its design differs from the other examples: a request's state is read into a `Table` of
integer pairs once, and one function, `judge`, says why an action is refused (a clause)
or that it is allowed (None); the legal actions are every candidate action `judge`
allows, so legality and refusals can never disagree with each other.

Rules it plays (its rule-set file: tests/examples/caboose-rules.yaml):
- a double-15 set (136 tiles, 16 rounds from [15-15] down to [0-0]); the engine is set
  aside before the deal (`set-aside`) and the first player moves one seat each round
  (`rotate`);
- HOUSE RULE, a hand table of its own for the double-15 set: 2 players 18, 3 players 17,
  4 players 16, 5 players 14, 6 players 13, 7 players 12, 8 players 11 (no published
  table has these rows);
- one tile a turn from the start (`single`); no need to start one's own train first
  (`not-required`);
- HOUSE RULE no value describes (`mexican_first_turn: other`): nobody may open the Mexican
  Train until every player has had their first turn of the round (an opened Mexican Train
  is open to all as usual);
- doubles are open (`open`); the tile after a double may go anywhere the player may play
  (`anywhere`); several open doubles may be covered in any order (`any-open`); a double
  nobody can cover stays open (`stays-open`);
- a marker comes off as soon as its owner plays anywhere (`owner-plays-anywhere`); draw
  one (`draw-one`); the round is blocked after a full round of passes on an empty
  boneyard (`full-round-of-passes`);
- penalty scoring (`penalty`); HOUSE RULE no value describes (`blank_values: other`):
  each blank end is worth 10, so [0-0] counts 20 and [7-0] counts 17;
- equal match totals go to the player who went out most often, shared if still equal
  (`most-outs`); a full match (`full`).

Planted bugs (what the suite must find), with the clause each breaks:
1. a player's marker is left up when its owner plays on the Mexican Train (it comes off
   only for a play on a personal train): MARK-5;
2. with several open doubles of earlier turns, only the newest may be covered (the
   others are refused as not to be covered yet): DBL-8;
3. two players tied on the winning total and on outs: the lower seat wins alone instead
   of sharing the win: MATCH-5.

Its refusals name a clause (its own house rule none). It answers `unsupported` for a
table in the `engine` or `chain` phase (neither happens in its game), and refuses (DEAL-7)
a table of fewer than 2 or more than 8 seats.

`--fixed 1,2,3` switches the planted bugs off.

    mtrain conform --impl "python tests/examples/caboose_engine.py" \\
        --rules tests/examples/caboose-rules.yaml
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from typing import Any

TOP = 15
FIXED: set[str] = set()  # planted bugs switched off (--fixed)
HAND = {2: 18, 3: 17, 4: 16, 5: 14, 6: 13, 7: 12, 8: 11}
BLANK_END = 10  # house rule: a blank end's worth

DECLARED = {
    "name": "caboose",
    "options": {
        "tile_set": "double-15", "hand_sizes": "custom", "engine_procedure": "set-aside",
        "starting_seat": "rotate", "first_turn": "single", "mexican_first_turn": "other",
        "own_train_first": "not-required", "doubles": "open", "follow_up": "anywhere",
        "double_order": "any-open", "uncoverable_double": "stays-open",
        "marker_removal": "owner-plays-anywhere", "draw_rule": "draw-one",
        "blocked_round": "full-round-of-passes", "scoring": "penalty",
        "blank_values": "other", "tie_rule": "most-outs", "match_length": "full",
    },
    "hand_sizes": {str(k): v for k, v in HAND.items()},
}

Tile = tuple[int, int]  # (high, low)
Where = int | str  # a seat's train, or "mexican"
MEX = "mexican"


class Answer(Exception):
    """An error answer of the protocol."""

    def __init__(self, kind: str, message: str, clause: str | None = None) -> None:
        super().__init__(message)
        self.kind, self.message, self.clause = kind, message, clause


def tile_of(text: Any) -> Tile:
    try:
        a, b = (int(x) for x in str(text).split("-"))
    except ValueError:
        raise Answer("bad-request", f"not a tile: {text!r}") from None
    return (max(a, b), min(a, b))


def text_of(t: Tile) -> str:
    return f"{t[0]}-{t[1]}"


def laid_of(text: str) -> tuple[int, int]:
    """A laid tile, near end first (not reordered)."""
    near, far = text.split("-")
    return int(near), int(far)


def pips(t: Tile) -> int:
    return sum(BLANK_END if end == 0 else end for end in t)  # house rule: blanks at 10


@dataclass
class Line:
    laid: list[tuple[int, int]]  # near end first
    end: int
    marker: bool = False


@dataclass
class Table:
    round: int
    engine: int
    phase: str
    seat: int
    starter: int
    hands: list[list[Tile]]
    boneyard: list[Tile]
    lines: dict[Where, Line]
    open_doubles: list[Where]
    turn_doubles: list[Where]
    drawn: Tile | None
    first_turns: list[int]
    passes: int
    scores: list[int]
    outs: list[int]
    result: dict[str, Any] | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def players(self) -> int:
        return len(self.hands)

    @classmethod
    def read(cls, st: Any) -> Table:
        if not isinstance(st, dict) or not isinstance(st.get("hands"), list):
            raise Answer("bad-request", "a state is an object with hands")
        n = len(st["hands"])
        if n not in HAND:
            raise Answer("refused-setup", f"caboose seats 2 to 8 players, not {n}", "DEAL-7")
        if st.get("phase") in ("engine", "chain") or not st.get("engine_placed", True):
            raise Answer("unsupported", f"caboose has no {st.get('phase')} phase")
        try:
            lines: dict[Where, Line] = {}
            for s, tr in enumerate(st["trains"]):
                lines[s] = Line([laid_of(t) for t in tr["tiles"]],
                                int(tr["end"]), bool(tr["marker"]))
            mx = st["mexican"]
            lines[MEX] = Line([laid_of(t) for t in mx["tiles"]],
                              int(mx["end"]))
            return cls(
                round=int(st["round"]), engine=int(st["engine"]), phase=st["phase"],
                seat=int(st["seat"]), starter=int(st["starter"]),
                hands=[[tile_of(t) for t in h] for h in st["hands"]],
                boneyard=[tile_of(t) for t in st["boneyard"]], lines=lines,
                open_doubles=list(st["open_doubles"]), turn_doubles=list(st["turn_doubles"]),
                drawn=None if st["drawn"] is None else tile_of(st["drawn"]),
                first_turns=list(st["first_turns"]), passes=int(st["passes"]),
                scores=list(st["scores"]), outs=list(st["outs"]), result=st.get("result"))
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            raise Answer("bad-request", f"a state that does not read: {e!r}") from None

    def write(self) -> dict[str, Any]:
        def laid(line: Line) -> list[str]:
            return [f"{a}-{b}" for a, b in line.laid]
        return {
            "round": self.round, "engine": self.engine, "engine_placed": True,
            "phase": self.phase, "seat": self.seat, "starter": self.starter,
            "hands": [[text_of(t) for t in sorted(h, reverse=True)] for h in self.hands],
            "boneyard": [text_of(t) for t in self.boneyard],
            "trains": [{"tiles": laid(self.lines[s]), "end": self.lines[s].end,
                        "marker": self.lines[s].marker} for s in range(self.players)],
            "mexican": {"tiles": laid(self.lines[MEX]), "end": self.lines[MEX].end},
            "open_doubles": self.open_doubles, "turn_doubles": self.turn_doubles,
            "drawn": None if self.drawn is None else text_of(self.drawn),
            "first_turns": self.first_turns, "passes": self.passes, "scores": self.scores,
            "outs": self.outs, "result": self.result,
        }

    # -- where a tile may go -------------------------------------------------------------

    def owed(self) -> list[Where]:
        """Open doubles of earlier turns: the mover may play only by covering one (DBL-6,
        DBL-8: any of them; DBL-10: an uncoverable one stays)."""
        earlier = [w for w in self.open_doubles if w not in self.turn_doubles]
        if earlier and "2" not in FIXED:
            return earlier[-1:]  # BUG 2: only the newest may be covered
        return earlier

    def reachable(self, w: Where) -> bool:
        """TRAIN-4: own, the Mexican Train, a marked train; TRAIN-6: a double to cover."""
        if w == MEX or w == self.seat or w in self.turn_doubles or w in self.open_doubles:
            return True
        return self.lines[w].marker


def candidates(tb: Table) -> list[dict[str, Any]]:
    acts: list[dict[str, Any]] = [{"type": "draw"}, {"type": "pass"}]
    for t in tb.hands[tb.seat]:
        for w in tb.lines:
            acts.append({"type": "play", "tile": text_of(t), "train": w})
    return acts


def judge(tb: Table, act: Any, legal_plays: bool | None = None) -> str | None:
    """None if `act` is allowed; else the clause that refuses it ("" for the house rule)."""
    if tb.phase == "over":
        return "END-1"
    kind = act.get("type") if isinstance(act, dict) else None
    if kind == "end-chain":
        return "FIRST-7"  # one tile a turn: no chain to end
    if kind in ("draw", "pass"):
        if legal_plays is None:
            legal_plays = any(judge(tb, a) is None for a in candidates(tb)
                              if a["type"] == "play")
        if legal_plays:
            return "TURN-1"
        if kind == "draw":
            if tb.drawn is not None:
                return "TURN-2"
            return "TURN-4" if not tb.boneyard else None
        return "TURN-2" if tb.boneyard and tb.drawn is None else None
    if kind != "play":
        raise Answer("bad-request", f"not an action: {act!r}")
    tile = tile_of(act.get("tile"))
    w = act.get("train")
    if tile not in tb.hands[tb.seat]:
        return "TURN-7"
    if w not in tb.lines:
        return "TRAIN-1"
    line = tb.lines[w]
    if line.end not in tile:
        return "TRAIN-2"
    if tb.drawn is not None and tile != tb.drawn:
        return "TURN-3"
    if not tb.reachable(w):
        return "TRAIN-4"
    if w == MEX and not line.laid and tb.first_turns:
        return ""  # house rule: the Mexican Train waits for every first turn
    owed = tb.owed()
    if owed and w not in owed:
        return "DBL-6"
    return None


def legal(tb: Table) -> list[dict[str, Any]]:
    if tb.phase == "over":
        return []
    plays = [a for a in candidates(tb) if a["type"] == "play" and judge(tb, a) is None]
    if plays:
        return plays
    return [a for a in ({"type": "draw"}, {"type": "pass"}) if judge(tb, a, False) is None]


def finish(tb: Table, winner: int | None) -> None:
    round_scores = [sum(pips(t) for t in h) for h in tb.hands]  # SCORE-5
    tb.scores = [a + b for a, b in zip(tb.scores, round_scores, strict=True)]
    if winner is not None:
        tb.outs[winner] += 1
    tb.result = {"end": "blocked" if winner is None else "domino", "winner": winner,
                 "scores": round_scores}
    tb.phase = "over"
    tb.turn_doubles = []
    tb.drawn = None


def next_turn(tb: Table) -> None:
    """TURN-6: the turn ends; END-3: a full round of passes on an empty boneyard."""
    tb.turn_doubles = []
    tb.drawn = None
    tb.first_turns = [s for s in tb.first_turns if s != tb.seat]
    tb.seat = (tb.seat + 1) % tb.players
    tb.phase = "start"
    if not tb.boneyard and tb.passes >= tb.players:
        finish(tb, None)


def apply(tb: Table, act: dict[str, Any]) -> None:
    me = tb.seat
    if act["type"] == "draw":
        tb.drawn = tb.boneyard.pop(0)  # TURN-2: the first tile of the boneyard
        tb.hands[me].append(tb.drawn)
        return
    if act["type"] == "pass":
        tb.lines[me].marker = True  # TURN-4, MARK-1
        if not tb.boneyard:
            tb.passes += 1
        next_turn(tb)
        return
    tile, w = tile_of(act["tile"]), act["train"]
    tb.hands[me].remove(tile)
    line = tb.lines[w]
    far = tile[1] if tile[0] == line.end else tile[0]
    line.laid.append((line.end, far))
    line.end = far
    if w != MEX or "1" in FIXED:  # BUG 1: the Mexican Train leaves the marker up
        tb.lines[me].marker = False  # MARK-5
    if w in tb.open_doubles:  # covered
        tb.open_doubles.remove(w)
        if w in tb.turn_doubles:
            tb.turn_doubles.remove(w)
    double = tile[0] == tile[1]
    if double:  # DBL-1
        tb.open_doubles.append(w)
        tb.turn_doubles.append(w)
    tb.drawn = None
    tb.passes = 0
    if not tb.hands[me]:
        finish(tb, me)  # END-1
    elif double:
        tb.phase = "follow"
    else:
        next_turn(tb)


def deal(players: Any, round_no: Any, order: Any) -> Table:
    if players not in HAND:
        raise Answer("refused-setup", f"caboose seats 2 to 8 players, not {players}", "DEAL-7")
    if not isinstance(round_no, int) or not 1 <= round_no <= TOP + 1:
        raise Answer("bad-request", f"a double-15 match has 16 rounds, not {round_no}")
    pool = [tile_of(t) for t in order]
    k = HAND[players]
    engine = TOP - (round_no - 1)  # ENG-1
    start = (round_no - 1) % players  # SEAT-3
    lines: dict[Where, Line] = {s: Line([], engine) for s in range(players)}
    lines[MEX] = Line([], engine)
    return Table(round=round_no, engine=engine, phase="start", seat=start, starter=start,
                 hands=[pool[s * k:(s + 1) * k] for s in range(players)],
                 boneyard=pool[players * k:], lines=lines, open_doubles=[], turn_doubles=[],
                 drawn=None, first_turns=list(range(players)), passes=0,
                 scores=[0] * players, outs=[0] * players)


def winners(tb: Table) -> list[int]:
    if tb.phase != "over" or tb.round < TOP + 1:
        return []
    low = min(tb.scores)  # MATCH-2
    tied = [s for s in range(tb.players) if tb.scores[s] == low]
    most = max(tb.outs[s] for s in tied)  # MATCH-5
    best = [s for s in tied if tb.outs[s] == most]
    if "3" not in FIXED:
        return best[:1]  # BUG 3: the lower seat wins alone
    return best


def answer(req: dict[str, Any]) -> dict[str, Any]:
    kind = req.get("type")
    if kind == "hello":
        if req.get("protocol") != 1:
            raise Answer("protocol-version", "caboose speaks protocol 1")
        return {"protocol": 1, "name": "caboose", "version": "0.3", "rules": DECLARED}
    if kind == "shutdown":
        return {}
    if kind == "deal":
        return {"state": deal(req.get("players"), req.get("round"), req.get("order", [])).write()}
    tb = Table.read(req.get("state"))
    if kind == "legal":
        return {"actions": legal(tb)}
    if kind == "apply":
        act: Any = req.get("action")
        why = judge(tb, act)
        if why is not None:
            return {"refused": {"reason": f"{act} is not allowed here", "clause": why or None}}
        apply(tb, act)
        return {"state": tb.write()}
    if kind == "score":
        return {"scores": [sum(pips(t) for t in h) for h in tb.hands]}
    if kind == "winners":
        return {"winners": winners(tb)}
    raise Answer("bad-request", f"unknown request type {kind!r}")


def serve() -> None:
    for line in sys.stdin:
        if not line.strip():
            continue
        rid: Any = None
        kind = None
        try:
            req = json.loads(line)
            rid, kind = req.get("id"), req.get("type")
            out = {"id": rid, "ok": True, **answer(req)}
        except Answer as a:
            err: dict[str, Any] = {"kind": a.kind, "message": a.message}
            if a.kind == "refused-setup":
                err["clause"] = a.clause
            if a.kind == "protocol-version":
                err["supported"] = [1]
            out = {"id": rid, "ok": False, "error": err}
        except Exception as e:
            out = {"id": rid, "ok": False, "error": {"kind": "internal", "message": repr(e)}}
        print(json.dumps(out), flush=True)
        if kind == "shutdown":
            break


if __name__ == "__main__":
    if sys.argv[1:2] == ["--fixed"]:
        FIXED.update(sys.argv[2].split(","))
    serve()
