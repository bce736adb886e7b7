#!/usr/bin/env python3
"""yardmaster: a small-table Mexican Train app, written as its author would, from
docs/protocol.md alone (Python standard library only; nothing of mtrain imported).

The rules it plays (its truth, written before any run):
- A double-9 set (55 tiles) for 2 to 5 players, with the family's own hand-size table:
  2 players 12 tiles, 3 players 10, 4 players 8, 5 players 7 (`hand_sizes: custom`).
- The engine [N-N] is set aside before the deal; round r's engine is the double of
  10 - r, ten rounds from [9-9] to [0-0] (`full`); round r starts at seat (r - 1) mod n.
- One tile a turn from the very start; doubles are ordinary tiles (`doubles: ordinary`):
  a double is laid in line, ends the turn, and nobody has to cover it (so follow_up,
  double_order and uncoverable_double decide nothing; declared pagat's defaults).
- A player who cannot play draws one tile and plays it if they can; else they pass and
  their marker goes up; it comes off when they play on their own train. With the
  boneyard empty, a full round of passes ends the round, blocked.
- Penalty scoring at face value; lowest total wins; equal totals share the win.
- House rule "all aboard" (`mexican_first_turn: other`): nobody may lay a tile on the
  Mexican Train until every player's own train holds a tile, first turns or not.
- House rule "home start" (`first_turn: other`): a player's first turn of the round may
  go on their own train only (not on the Mexican Train, not on a marked train); one who
  cannot start it draws one tile as usual and passes if that tile cannot start it either.
  Together: in the first lap nobody can reach the Mexican Train (it is still closed), so
  "home start" shows only on a marked train, and a player who cannot start their train
  keeps the Mexican Train closed for everybody until they do.

Planted bugs (mistakes its author made; `--fixed 1,2,3` switches them off, any of them):
1. "double-once": a double left in hand counts its number once ([4-4] worth 4, not 8):
   breaks SCORE-1 (and the totals, MATCH-1, and every round's score, SCORE-5).
2. "marker-after-draw": a marker does not come off when its owner plays the tile they
   just drew on their own train (the draw path forgets the marker): breaks MARK-3.
3. "keep-the-draw": after drawing a tile that can be played, the player may also pass,
   keeping it: breaks TURN-3 (a drawn tile that can be played must be).

What the suite said (session 55, house55b; the header above was written before any run):
- conform under yardmaster-rules.yaml, bugs off (3.2 CPU s): 4 failures at the first
  run, every one the suite's: a pass after a playable draw refused citing TURN-3 where
  the fixtures listed TURN-1 alone (now both); then 1,133 pass, 218 not applicable.
- bugs on (2.3 CPU s): 309 fail; bug 1 SCORE-1 149 and SCORE-5 5, bug 2 MARK-3 8, bug 3
  TURN-3 147.
- fuzz (12 games, seed 1; 2.4 CPU s): the three bugs, each shrunk to 2 seats; nothing
  with the bugs off (1.4 CPU s).
- identify, bugs off (9.1 CPU s): every option as declared, set, table, procedure and
  start measured, both house rules `other` (margin 1: generated-mexican-first-turn-001;
  session 56, with s56-001..004: first_turn margin 4, mexican_first_turn 1, as "all
  aboard" answers as own-train-started wherever the known values differ),
  "declared rules agree"; 3 requests answered with an error, each a deal of round 2 sent
  with round 1's pool (the suite's: fixed). Bugs on (15.1 CPU s): nothing sure and wrong;
  scoring `other` (contradicted: bug 1), doubles open and follow_up `other` (likely,
  margins 8 and 2: bug 3's pass beside a drawn tile), uncoverable_double undetermined.

Refusals cite the clause a rule of the specification gives; a refusal that only the
house rules give cites no clause (null), since no clause of the specification says them.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from typing import Any

HIGHEST = 9
HAND_SIZES = {2: 12, 3: 10, 4: 8, 5: 7}
OPTIONS = {
    "tile_set": "double-9", "hand_sizes": "custom", "engine_procedure": "set-aside",
    "starting_seat": "rotate", "first_turn": "other", "mexican_first_turn": "other",
    "own_train_first": "not-required", "doubles": "ordinary", "follow_up": "anywhere",
    "double_order": "oldest-first", "uncoverable_double": "stays-open",
    "marker_removal": "owner-plays-own", "draw_rule": "draw-one",
    "blocked_round": "full-round-of-passes", "scoring": "penalty", "blank_values": "face",
    "tie_rule": "shared", "match_length": "full",
}
MEXICAN = "mexican"


class BadRequest(Exception):
    pass


class Unsupported(Exception):
    pass


class RefusedSetup(Exception):
    def __init__(self, message: str, clause: str | None) -> None:
        super().__init__(message)
        self.clause = clause


class Refusal(Exception):
    def __init__(self, reason: str, clause: str | None) -> None:
        super().__init__(reason)
        self.clause = clause


# --- the game model ------------------------------------------------------------------


@dataclass(frozen=True, order=True)
class Tile:
    high: int
    low: int

    @staticmethod
    def parse(text: Any, where: str) -> Tile:
        if not isinstance(text, str) or text.count("-") != 1:
            raise BadRequest(f"{where}: {text!r} is not a tile 'a-b'")
        a, b = text.split("-")
        if not (a.isdigit() and b.isdigit() and a == str(int(a)) and b == str(int(b))):
            raise BadRequest(f"{where}: {text!r} is not a tile 'a-b'")
        x, y = int(a), int(b)
        if x > 18 or y > 18:
            raise BadRequest(f"{where}: {text!r} has an end above 18")
        return Tile(max(x, y), min(x, y))

    def __str__(self) -> str:
        return f"{self.high}-{self.low}"

    @property
    def double(self) -> bool:
        return self.high == self.low

    def fits(self, end: int) -> bool:
        return end in (self.high, self.low)

    def far(self, near: int) -> int:
        return self.low if near == self.high else self.high

    def pips(self, bugs: set[int]) -> int:
        if self.double and 1 in bugs:
            return self.high  # bug 1: a double counted once
        return self.high + self.low


@dataclass
class Train:
    tiles: list[tuple[int, int]] = field(default_factory=list)  # near end, far end
    end: int = 0
    marker: bool = False


@dataclass
class Table:
    round: int
    engine: int
    seat: int
    starter: int
    hands: list[list[Tile]]
    boneyard: list[Tile]
    trains: list[Train]
    mexican: Train
    drawn: Tile | None
    first_turns: set[int]
    passes: int
    scores: list[int]
    outs: list[int]
    over: bool = False
    result: dict[str, Any] | None = None

    @property
    def players(self) -> int:
        return len(self.hands)

    def train(self, ref: Any) -> Train:
        if ref == MEXICAN:
            return self.mexican
        train: Train = self.trains[ref]
        return train

    def all_aboard(self) -> bool:
        """House rule "all aboard": the Mexican Train opens once every own train holds a
        tile."""
        return all(t.tiles for t in self.trains)

    def open_to(self, seat: int, ref: Any) -> tuple[bool, str | None, str]:
        """Whether `seat` may lay on train `ref`, and if not, the clause and the why."""
        if ref == MEXICAN:
            if seat in self.first_turns:
                return False, None, "a first turn goes on one's own train (house rule)"
            if not self.all_aboard():
                return False, None, ("the Mexican Train is closed until every own train "
                                     "is started (house rule)")
            return True, None, ""
        if ref == seat:
            return True, None, ""
        if not self.trains[ref].marker:
            return False, "TRAIN-4", f"seat {ref}'s train carries no marker"
        if seat in self.first_turns:
            return False, None, "a first turn goes on one's own train (house rule)"
        return True, None, ""

    def refs(self) -> list[Any]:
        return [*range(self.players), MEXICAN]

    def plays(self) -> list[tuple[Tile, Any]]:
        seat = self.seat
        tiles = [self.drawn] if self.drawn is not None else self.hands[seat]
        found: list[tuple[Tile, Any]] = []
        for ref in self.refs():
            if not self.open_to(seat, ref)[0]:
                continue
            end = self.train(ref).end
            found.extend((t, ref) for t in tiles if t.fits(end))
        return found

    def legal(self, bugs: set[int]) -> list[dict[str, Any]]:
        if self.over:
            return []
        plays = self.plays()
        if plays:
            out = [{"type": "play", "tile": str(t), "train": ref} for t, ref in plays]
            if self.drawn is not None and 3 in bugs:
                out.append({"type": "pass"})  # bug 3: the drawn tile may be kept
            return out
        if self.drawn is None and self.boneyard:
            return [{"type": "draw"}]
        return [{"type": "pass"}]

    def apply(self, action: dict[str, Any], bugs: set[int]) -> None:
        if self.over:
            raise Refusal("the round is over", "END-1")
        kind = action["type"]
        if kind == "end-chain":
            raise Refusal("there is no chain to end: one tile a turn", "FIRST-7")
        if kind == "play":
            self.play(action["tile"], action["train"], bugs)
            return
        can_play = bool(self.plays())
        if kind == "draw":
            if can_play:
                raise Refusal("a tile can be played", "TURN-1")
            if self.drawn is not None:
                raise Refusal("one draw a turn", "TURN-2")
            if not self.boneyard:
                raise Refusal("the boneyard is empty", "TURN-4")
            self.drawn = self.boneyard.pop(0)
            self.hands[self.seat].append(self.drawn)
            return
        # pass
        if can_play and not (self.drawn is not None and 3 in bugs):
            raise Refusal("a tile can be played", "TURN-1" if self.drawn is None else "TURN-3")
        if self.drawn is None and self.boneyard:
            raise Refusal("draw first", "TURN-2")
        self.trains[self.seat].marker = True
        if not self.boneyard:
            self.passes += 1
        self.end_turn()

    def play(self, text: str, ref: Any, bugs: set[int]) -> None:
        tile = Tile.parse(text, "action.tile")
        seat = self.seat
        if tile.high > HIGHEST:
            raise Refusal(f"{tile} is not in a double-{HIGHEST} set", "SET-1")
        if ref != MEXICAN and ref >= self.players:
            raise Refusal(f"there is no train {ref}", "TRAIN-1")
        if tile not in self.hands[seat]:
            raise Refusal(f"seat {seat} does not hold {tile}", "TURN-7")
        train = self.train(ref)
        if not tile.fits(train.end):
            raise Refusal(f"{tile} does not match the open end {train.end}", "TRAIN-2")
        if self.drawn is not None and tile != self.drawn:
            raise Refusal(f"only the drawn {self.drawn} may be played", "TURN-3")
        ok, clause, why = self.open_to(seat, ref)
        if not ok:
            raise Refusal(why, clause)
        was_drawn = self.drawn is not None
        self.hands[seat].remove(tile)
        far = tile.far(train.end)
        train.tiles.append((train.end, far))
        train.end = far
        if ref == seat and not (was_drawn and 2 in bugs):  # bug 2: forgotten after a draw
            train.marker = False
        self.drawn = None
        self.passes = 0
        if not self.hands[seat]:
            self.finish(seat, bugs)
        else:
            self.end_turn()

    def end_turn(self) -> None:
        self.first_turns.discard(self.seat)
        self.drawn = None
        self.seat = (self.seat + 1) % self.players
        if not self.boneyard and self.passes >= self.players:
            self.finish(None, BUGS)

    def hand_value(self, seat: int, bugs: set[int]) -> int:
        return sum(t.pips(bugs) for t in self.hands[seat])

    def round_scores(self, winner: int | None, bugs: set[int]) -> list[int]:
        return [0 if s == winner else self.hand_value(s, bugs) for s in range(self.players)]

    def finish(self, winner: int | None, bugs: set[int]) -> None:
        scores = self.round_scores(winner, bugs)
        self.scores = [a + b for a, b in zip(self.scores, scores, strict=True)]
        if winner is not None:
            self.outs[winner] += 1
        self.over = True
        self.drawn = None
        self.result = {"end": "domino" if winner is not None else "blocked",
                       "winner": winner, "scores": scores}

    def winners(self) -> list[int]:
        if not self.over or self.round < HIGHEST + 1:
            return []
        low = min(self.scores)
        return [s for s, v in enumerate(self.scores) if v == low]


# --- reading and writing the wire ----------------------------------------------------


def need(obj: dict[str, Any], key: str, kind: type, where: str) -> Any:
    if key not in obj:
        raise BadRequest(f"{where}: '{key}' is missing")
    value = obj[key]
    if kind is int and (type(value) is not int):
        raise BadRequest(f"{where}.{key}: {value!r} is not an integer")
    if kind is not int and not isinstance(value, kind):
        raise BadRequest(f"{where}.{key}: {value!r} is not a {kind.__name__}")
    return value


def read_train(obj: Any, where: str, engine: int, personal: bool) -> Train:
    if not isinstance(obj, dict):
        raise BadRequest(f"{where} is not an object")
    tiles = need(obj, "tiles", list, where)
    end = engine
    out = []
    for i, text in enumerate(tiles):
        if not isinstance(text, str) or text.count("-") != 1:
            raise BadRequest(f"{where}.tiles[{i}]: {text!r} is not a tile")
        tile = Tile.parse(text, f"{where}.tiles[{i}]")
        near, far = (int(x) for x in text.split("-"))
        if near != end:
            raise BadRequest(f"{where}.tiles[{i}]: {text} does not follow {end}")
        out.append((near, far))
        end = far
        del tile
    if need(obj, "end", int, where) != end:
        raise BadRequest(f"{where}.end: {obj['end']} is not the train's open end {end}")
    marker = False
    if personal:
        marker = need(obj, "marker", bool, where)
    return Train(out, end, marker)


def read_table(obj: Any) -> Table:
    if not isinstance(obj, dict):
        raise BadRequest("state is not an object")
    w = "state"
    rnd = need(obj, "round", int, w)
    if not 1 <= rnd <= HIGHEST + 1:
        raise Unsupported(f"round {rnd}: a double-{HIGHEST} match has rounds 1 to 10")
    engine = need(obj, "engine", int, w)
    if engine != HIGHEST - (rnd - 1):
        raise Unsupported(f"engine {engine} is not round {rnd}'s")
    if need(obj, "engine_placed", bool, w) is not True:
        raise Unsupported("the engine is always set aside and placed here")
    phase = need(obj, "phase", str, w)
    if phase not in ("start", "over"):
        raise Unsupported(f"phase {phase!r}: this game has no chains, follow-ups or "
                          "engine searches")
    hands_raw = need(obj, "hands", list, w)
    n = len(hands_raw)
    if n not in HAND_SIZES:
        raise RefusedSetup(f"no hand size for {n} players (2 to 5 play)", "DEAL-7")
    hands = [[Tile.parse(t, f"state.hands[{s}]") for t in need({"h": h}, "h", list, w)]
             for s, h in enumerate(hands_raw)]
    boneyard = [Tile.parse(t, "state.boneyard") for t in need(obj, "boneyard", list, w)]
    trains_raw = need(obj, "trains", list, w)
    if len(trains_raw) != n:
        raise BadRequest("state.trains: one train per seat")
    trains = [read_train(t, f"state.trains[{i}]", engine, True)
              for i, t in enumerate(trains_raw)]
    mexican = read_train(need(obj, "mexican", dict, w), "state.mexican", engine, False)
    if need(obj, "open_doubles", list, w) or need(obj, "turn_doubles", list, w):
        raise Unsupported("doubles are ordinary tiles here: none is ever open")
    drawn_raw = obj.get("drawn")
    drawn = None if drawn_raw is None else Tile.parse(drawn_raw, "state.drawn")
    seat = need(obj, "seat", int, w)
    starter = need(obj, "starter", int, w)
    if not (0 <= seat < n and 0 <= starter < n):
        raise BadRequest("state.seat or state.starter is not a seat")
    first = need(obj, "first_turns", list, w)
    if any(type(s) is not int or not 0 <= s < n for s in first):
        raise BadRequest("state.first_turns: not seats")
    scores = need(obj, "scores", list, w)
    outs = need(obj, "outs", list, w)
    if len(scores) != n or len(outs) != n or any(type(v) is not int for v in scores + outs):
        raise BadRequest("state.scores and state.outs: one integer per seat")
    everything = [t for h in hands for t in h] + boneyard + [
        Tile(max(a, b), min(a, b)) for tr in [*trains, mexican] for a, b in tr.tiles]
    if any(t.high > HIGHEST for t in everything):
        raise Unsupported(f"a tile beyond the double-{HIGHEST} set")
    table = Table(rnd, engine, seat, starter, hands, boneyard, trains, mexican, drawn,
                  set(first), need(obj, "passes", int, w), list(scores), list(outs))
    if mexican.tiles and not all(t.tiles for t in trains):
        raise Unsupported("the Mexican Train opened before every own train: the house "
                          "rule 'all aboard' never reaches this table")
    if phase == "over":
        table.over = True
        table.result = need(obj, "result", dict, w)
    return table


def write_table(t: Table) -> dict[str, Any]:
    def train(tr: Train, personal: bool) -> dict[str, Any]:
        out: dict[str, Any] = {"tiles": [f"{a}-{b}" for a, b in tr.tiles], "end": tr.end}
        if personal:
            out["marker"] = tr.marker
        return out

    return {
        "round": t.round, "engine": t.engine, "engine_placed": True,
        "phase": "over" if t.over else "start", "seat": t.seat, "starter": t.starter,
        "hands": [[str(x) for x in sorted(h, reverse=True)] for h in t.hands],
        "boneyard": [str(x) for x in t.boneyard],
        "trains": [train(tr, True) for tr in t.trains], "mexican": train(t.mexican, False),
        "open_doubles": [], "turn_doubles": [],
        "drawn": None if t.drawn is None else str(t.drawn),
        "first_turns": sorted(t.first_turns), "passes": t.passes,
        "scores": t.scores, "outs": t.outs, "result": t.result,
    }


def deal(req: dict[str, Any]) -> Table:
    players = need(req, "players", int, "deal")
    rnd = need(req, "round", int, "deal")
    if players not in HAND_SIZES:
        raise RefusedSetup(f"yardmaster has no hand size for {players} players "
                           "(its table lists 2 to 5)", "DEAL-7")
    if not 1 <= rnd <= HIGHEST + 1:
        raise BadRequest(f"round {rnd} does not exist: rounds 1 to {HIGHEST + 1}")
    engine = HIGHEST - (rnd - 1)
    order = [Tile.parse(t, "deal.order") for t in need(req, "order", list, "deal")]
    pool = sorted(Tile(a, b) for a in range(HIGHEST + 1) for b in range(a + 1)
                  if not (a == b == engine))
    if sorted(order) != pool:
        raise BadRequest(f"deal.order must hold the {len(pool)} tiles of the set but the "
                         "engine, each once")
    size = HAND_SIZES[players]
    hands = [order[s * size:(s + 1) * size] for s in range(players)]
    start = (rnd - 1) % players
    return Table(rnd, engine, start, start, hands, order[players * size:],
                 [Train([], engine) for _ in range(players)], Train([], engine), None,
                 set(range(players)), 0, [0] * players, [0] * players)


def read_action(obj: Any) -> dict[str, Any]:
    if not isinstance(obj, dict):
        raise BadRequest("action is not an object")
    kind = obj.get("type")
    fields = {"type", "tile", "train"} if kind == "play" else {"type"}
    if kind not in ("play", "draw", "pass", "end-chain") or set(obj) != fields:
        raise BadRequest(f"action {obj!r} is not an action")
    if kind == "play":
        Tile.parse(obj["tile"], "action.tile")
        ref = obj["train"]
        if ref != MEXICAN and (type(ref) is not int or ref < 0):
            raise BadRequest(f"action.train: {ref!r} is not a train")
    return obj


# --- the protocol --------------------------------------------------------------------


BUGS: set[int] = {1, 2, 3}


def answer(req: dict[str, Any]) -> dict[str, Any]:
    kind = req.get("type")
    if kind == "hello":
        if req.get("protocol") != 1:
            return {"ok": False, "error": {"kind": "protocol-version",
                                           "message": "yardmaster speaks protocol 1",
                                           "supported": [1]}}
        return {"ok": True, "protocol": 1, "name": "yardmaster", "version": "1.0",
                "rules": {"name": "yardmaster", "options": OPTIONS,
                          "hand_sizes": {str(k): v for k, v in HAND_SIZES.items()}}}
    if kind == "shutdown":
        return {"ok": True}
    if kind == "deal":
        return {"ok": True, "state": write_table(deal(req))}
    table = read_table(req.get("state"))
    if kind == "legal":
        return {"ok": True, "actions": table.legal(BUGS)}
    if kind == "apply":
        action = read_action(req.get("action"))
        try:
            table.apply(action, BUGS)
        except Refusal as no:
            return {"ok": True, "refused": {"reason": str(no), "clause": no.clause}}
        return {"ok": True, "state": write_table(table)}
    if kind == "score":
        if "winner" in req:
            w = req["winner"]
            if w is not None and (type(w) is not int or not 0 <= w < table.players
                                  or table.hands[w]):
                raise BadRequest(f"winner {w!r} is not a seat with an empty hand")
        elif table.over and table.result is not None:
            w = table.result.get("winner")
        else:
            raise BadRequest("score: the round is not over and no winner is given")
        return {"ok": True, "scores": table.round_scores(w, BUGS)}
    if kind == "winners":
        return {"ok": True, "winners": table.winners()}
    raise BadRequest(f"unknown request type {kind!r}")


def serve() -> None:
    for line in sys.stdin:
        if not line.strip():
            continue
        rid, req = None, None
        try:
            req = json.loads(line)
            if not isinstance(req, dict):
                raise BadRequest("a request is a JSON object")
            rid = req.get("id")
            out = answer(req)
        except json.JSONDecodeError as e:
            out = {"ok": False, "error": {"kind": "bad-request", "message": f"not JSON: {e}"}}
        except BadRequest as e:
            out = {"ok": False, "error": {"kind": "bad-request", "message": str(e)}}
        except Unsupported as e:
            out = {"ok": False, "error": {"kind": "unsupported", "message": str(e)}}
        except RefusedSetup as e:
            out = {"ok": False, "error": {"kind": "refused-setup", "message": str(e),
                                          "clause": e.clause}}
        except Exception as e:  # a bug is answered, never a traceback
            out = {"ok": False, "error": {"kind": "internal", "message": repr(e)}}
        sys.stdout.write(json.dumps({"id": rid, **out}, separators=(",", ":")) + "\n")
        sys.stdout.flush()
        if isinstance(req, dict) and req.get("type") == "shutdown":
            return


if __name__ == "__main__":
    args = sys.argv[1:]
    if "--fixed" in args:
        off = args[args.index("--fixed") + 1]
        BUGS -= {int(x) for x in off.split(",")}
    serve()
