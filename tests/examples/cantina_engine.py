#!/usr/bin/env python3
"""Cantina: a Mexican Train server as a hobbyist writes one for a family game app, from
docs/protocol.md alone (it imports nothing from mtrain), to try the suite as its author
would. Its house rules and planted bugs were written down here before the suite ran on it.

Rules it plays (its rule-set file: tests/examples/cantina-rules.yaml):
- a double-12 set; the engine is set aside before the deal (known value `set-aside`), and
  the first player moves one seat on each round (known value `rotate`);
- one tile a turn from the very start (known value `single`);
- a round blocked on an empty boneyard ends after a full round of passes (known value
  `full-round-of-passes`);
- HOUSE RULE, a hand table of its own: 2 players 16, 3-4 players 15, 5-6 players 12,
  7-8 players 10;
- HOUSE RULE no value describes (`follow_up: other`): the tile after a double goes either
  on that double or on the player's own train, nowhere else;
- HOUSE RULE no value describes (`scoring: other`): penalty scoring, but every double left
  in hand counts twice its pips ([6-6] costs 24); lowest total wins;
- everything else as pagat's rules: open doubles covered oldest first and never released,
  a marker comes off when its owner plays on their own train, draw one tile, blanks at face
  value, a tie shared.

Planted bugs (what the suite must find):
1. after drawing a tile that can be played, the legal actions also offer `pass` (TURN-1:
   a player who can play must);
2. a marker stays up when its owner plays a double on their own train (MARK-3: it comes
   off when the owner plays on their own train, doubles included).

Found by the suite, not planted (left as it was found): a table of one seat is dealt,
though no hand table lists one player (DEAL-7; fixture refused-003).

It says `variants: ["*"]` in its hello (its author did not read that far), answers
`unsupported` for a table in the `engine` or `chain` phase (it never has one), and cites
a clause only for the refusals it knows the name of.

`--fixed 1,2` switches the planted bugs off (the tests check that what fails then is no
rule difference).

    mtrain conform --impl "python tests/examples/cantina_engine.py" \\
        --rules tests/examples/cantina-rules.yaml
"""

from __future__ import annotations

import json
import sys
from typing import Any

HIGH = 12
FIXED: set[str] = set()  # planted bugs switched off (--fixed)
ROUNDS = HIGH + 1
TABLE = {2: 16, 3: 15, 4: 15, 5: 12, 6: 12, 7: 10, 8: 10}
MEX = "mexican"

Tile = tuple[int, int]  # (a, b) as written; a train stores (near, far)


class Refuse(Exception):
    def __init__(self, reason: str, clause: str | None = None) -> None:
        super().__init__(reason)
        self.reason, self.clause = reason, clause


class Unsupported(Exception):
    pass


class BadRequest(Exception):
    pass


def parse_tile(text: Any) -> Tile:
    try:
        a, b = str(text).split("-")
        t = (int(a), int(b))
    except ValueError:
        raise BadRequest(f"not a tile: {text!r}") from None
    if not (0 <= t[0] <= HIGH and 0 <= t[1] <= HIGH):
        raise BadRequest(f"not a double-{HIGH} tile: {text!r}")
    return t


def norm(t: Tile) -> Tile:
    return (t[0], t[1]) if t[0] >= t[1] else (t[1], t[0])


def show(t: Tile) -> str:
    return f"{t[0]}-{t[1]}"


def pips(t: Tile) -> int:
    return t[0] + t[1]


class Table:
    """One round at the table, in the app's own terms."""

    def __init__(self) -> None:
        self.round = 1
        self.engine = HIGH
        self.seat = 0
        self.starter = 0
        self.phase = "start"
        self.hands: list[list[Tile]] = []
        self.boneyard: list[Tile] = []
        self.trains: dict[Any, list[Tile]] = {}
        self.markers: list[bool] = []
        self.open_doubles: list[Any] = []
        self.turn_doubles: list[Any] = []
        self.drawn: Tile | None = None
        self.first_turns: list[int] = []
        self.passes = 0
        self.scores: list[int] = []
        self.outs: list[int] = []
        self.result: dict[str, Any] | None = None

    @property
    def players(self) -> int:
        return len(self.hands)

    # --- reading and writing the wire form -----------------------------------------

    @classmethod
    def load(cls, st: Any) -> Table:
        if not isinstance(st, dict):
            raise BadRequest("state must be an object")
        if st.get("phase") in ("engine", "chain"):
            raise Unsupported(f"this app never has a table in the {st['phase']} phase")
        t = cls()
        try:
            t.round, t.engine = st["round"], st["engine"]
            t.seat, t.starter = st["seat"], st["starter"]
            t.phase = st["phase"]
            t.hands = [[norm(parse_tile(x)) for x in h] for h in st["hands"]]
            t.boneyard = [norm(parse_tile(x)) for x in st["boneyard"]]
            for i, tr in enumerate(st["trains"]):
                t.trains[i] = [parse_tile(x) for x in tr["tiles"]]
            t.trains[MEX] = [parse_tile(x) for x in st["mexican"]["tiles"]]
            t.markers = [bool(tr["marker"]) for tr in st["trains"]]
            t.open_doubles = list(st["open_doubles"])
            t.turn_doubles = list(st["turn_doubles"])
            t.drawn = norm(parse_tile(st["drawn"])) if st["drawn"] is not None else None
            t.first_turns = list(st["first_turns"])
            t.passes = st["passes"]
            t.scores, t.outs = list(st["scores"]), list(st["outs"])
            t.result = st["result"]
        except (KeyError, TypeError) as e:
            raise BadRequest(f"malformed state: {e}") from None
        return t

    def end_of(self, train: Any) -> int:
        tiles = self.trains[train]
        return tiles[-1][1] if tiles else self.engine

    def dump(self) -> dict[str, Any]:
        def train(k: Any) -> dict[str, Any]:
            out: dict[str, Any] = {"tiles": [show(x) for x in self.trains[k]],
                                   "end": self.end_of(k)}
            if k != MEX:
                out["marker"] = self.markers[k]
            return out

        return {
            "round": self.round, "engine": self.engine, "engine_placed": True,
            "phase": self.phase, "seat": self.seat, "starter": self.starter,
            "hands": [[show(x) for x in sorted(h, reverse=True)] for h in self.hands],
            "boneyard": [show(x) for x in self.boneyard],
            "trains": [train(i) for i in range(self.players)],
            "mexican": train(MEX),
            "open_doubles": list(self.open_doubles),
            "turn_doubles": list(self.turn_doubles),
            "drawn": show(self.drawn) if self.drawn else None,
            "first_turns": sorted(self.first_turns),
            "passes": self.passes,
            "scores": list(self.scores), "outs": list(self.outs),
            "result": self.result,
        }

    # --- where a tile may go ----------------------------------------------------------

    def trains_open(self) -> list[Any]:
        me = self.seat
        waiting = [t for t in self.open_doubles if t not in self.turn_doubles]
        if waiting:
            return waiting[:1]  # the oldest open double must be covered first
        if self.phase == "follow":
            just = self.turn_doubles[-1]  # house rule: on the double, or on my own train
            return [just] if just == me else [just, me]
        out: list[Any] = [me, MEX]
        out += [s for s in range(self.players) if s != me and self.markers[s]]
        return out

    def plays(self) -> list[dict[str, Any]]:
        hand = [self.drawn] if self.drawn else self.hands[self.seat]
        out = []
        for train in self.trains_open():
            end = self.end_of(train)
            for t in hand:
                if end in t:
                    out.append({"type": "play", "tile": show(t), "train": train})
        return out

    def legal(self) -> list[dict[str, Any]]:
        if self.phase == "over":
            return []
        found = self.plays()
        if found:
            if self.drawn and "1" not in FIXED:
                found.append({"type": "pass"})  # BUG 1: a playable drawn tile may be kept
            return found
        if not self.boneyard or self.drawn:
            return [{"type": "pass"}]
        return [{"type": "draw"}]

    # --- doing it -----------------------------------------------------------------

    def act(self, action: Any) -> None:
        if not isinstance(action, dict):
            raise BadRequest("action must be an object")
        if action not in self.legal():
            raise self.why_not(action)
        kind = action["type"]
        me = self.seat
        if kind == "draw":
            self.drawn = self.boneyard.pop(0)
            self.hands[me].append(self.drawn)
            return
        if kind == "pass":
            self.markers[me] = True
            if not self.boneyard:
                self.passes += 1
            self.next_turn()
            return
        tile = norm(parse_tile(action["tile"]))
        train = action["train"]
        self.hands[me].remove(tile)
        end = self.end_of(train)
        self.trains[train].append((end, tile[0] + tile[1] - end))
        if train == me and (tile[0] != tile[1] or "2" in FIXED):
            self.markers[me] = False  # BUG 2: not when the tile is a double
        if train in self.open_doubles:
            self.open_doubles.remove(train)
            if train in self.turn_doubles:
                self.turn_doubles.remove(train)
        double = tile[0] == tile[1]
        if double:
            self.open_doubles.append(train)
            self.turn_doubles.append(train)
        self.drawn = None
        self.passes = 0
        if not self.hands[me]:
            self.finish(me)
        elif double:
            self.phase = "follow"
        else:
            self.next_turn()

    def why_not(self, action: dict[str, Any]) -> Refuse:
        kind = action.get("type")
        if self.phase == "over":
            return Refuse("the round is over", "END-1")
        if kind in ("draw", "pass"):
            if self.plays():
                return Refuse(f"you can play, so no {kind}", "TURN-1")
            if kind == "draw" and not self.boneyard:
                return Refuse("the boneyard is empty", "TURN-4")
            if kind == "draw":
                return Refuse("one draw a turn", "TURN-2")
            return Refuse("draw first", "TURN-2")
        if kind != "play":
            return Refuse(f"no such move: {kind}", None)
        tile = norm(parse_tile(action.get("tile")))
        train: Any = action.get("train")
        if train not in self.trains:
            return Refuse(f"no train {train!r}", "TRAIN-1")
        if tile not in self.hands[self.seat]:
            return Refuse(f"you do not hold {show(tile)}", "TURN-7")
        if self.end_of(train) not in tile:
            return Refuse(f"{show(tile)} does not fit train {train}", "TRAIN-2")
        if self.drawn and tile != self.drawn:
            return Refuse("only the drawn tile may be played", "TURN-3")
        waiting = [t for t in self.open_doubles if t not in self.turn_doubles]
        if waiting:
            if train in self.open_doubles:
                return Refuse("cover the oldest double first", "DBL-7")
            if train != self.seat and train != MEX and not self.markers[train]:
                return Refuse(f"train {train} is not marked", "TRAIN-4")
            return Refuse("cover the open double first", "DBL-6")
        if train != self.seat and train != MEX and not self.markers[train] \
                and train not in self.turn_doubles:
            return Refuse(f"train {train} is not marked", "TRAIN-4")
        return Refuse("after a double: on the double or your own train", None)

    def next_turn(self) -> None:
        self.turn_doubles = []
        self.drawn = None
        if self.seat in self.first_turns:
            self.first_turns.remove(self.seat)
        self.seat = (self.seat + 1) % self.players
        self.phase = "start"
        if not self.boneyard and self.passes >= self.players:
            self.finish(None)

    def finish(self, winner: int | None) -> None:
        scores = self.score(winner)
        self.scores = [a + b for a, b in zip(self.scores, scores, strict=True)]
        if winner is not None:
            self.outs[winner] += 1
        self.result = {"end": "domino" if winner is not None else "blocked",
                       "winner": winner, "scores": scores}
        self.phase = "over"
        self.turn_doubles = []
        self.drawn = None

    def score(self, winner: int | None) -> list[int]:
        # house rule: a double left in hand counts twice
        return [sum(pips(t) * (2 if t[0] == t[1] else 1) for t in h) for h in self.hands]

    def winners(self) -> list[int]:
        if self.phase != "over" or self.round < ROUNDS:
            return []
        best = min(self.scores)
        return [s for s, v in enumerate(self.scores) if v == best]


def deal(players: int, round_no: int, order: list[str]) -> Table:
    if players not in TABLE:
        raise Refuse(f"no hand size for {players} players", "DEAL-7")
    if not 1 <= round_no <= ROUNDS:
        raise BadRequest(f"no round {round_no}")
    tiles = [norm(parse_tile(x)) for x in order]
    n = TABLE[players]
    t = Table()
    t.round, t.engine = round_no, HIGH - (round_no - 1)
    t.hands = [tiles[s * n:(s + 1) * n] for s in range(players)]
    t.boneyard = tiles[players * n:]
    t.trains = {i: [] for i in range(players)}
    t.trains[MEX] = []
    t.markers = [False] * players
    t.seat = t.starter = (round_no - 1) % players
    t.first_turns = list(range(players))
    t.scores, t.outs = [0] * players, [0] * players
    return t


def handle(req: dict[str, Any]) -> dict[str, Any]:
    kind = req.get("type")
    if kind == "hello":
        if req.get("protocol") != 1:
            return {"ok": False, "error": {"kind": "protocol-version",
                                           "message": "I speak 1", "supported": [1]}}
        return {"ok": True, "protocol": 1, "name": "cantina", "version": "0.3",
                "variants": ["*"]}
    if kind == "shutdown":
        return {"ok": True}
    if kind == "deal":
        return {"ok": True, "state": deal(req["players"], req["round"], req["order"]).dump()}
    table = Table.load(req.get("state"))
    if kind == "legal":
        return {"ok": True, "actions": table.legal()}
    if kind == "apply":
        try:
            table.act(req.get("action"))
        except Refuse as r:
            return {"ok": True, "refused": {"reason": r.reason, "clause": r.clause}}
        return {"ok": True, "state": table.dump()}
    if kind == "score":
        winner = req["winner"] if "winner" in req else (table.result or {}).get("winner")
        return {"ok": True, "scores": table.score(winner)}
    if kind == "winners":
        return {"ok": True, "winners": table.winners()}
    raise BadRequest(f"unknown request {kind!r}")


def main() -> None:
    for line in sys.stdin:
        if not line.strip():
            continue
        rid, req = None, None
        try:
            req = json.loads(line)
            rid = req.get("id")
            answer = handle(req)
        except Unsupported as e:
            answer = {"ok": False, "error": {"kind": "unsupported", "message": str(e)}}
        except Refuse as e:  # a deal it cannot make
            answer = {"ok": False, "error": {"kind": "refused-setup", "message": e.reason,
                                             "clause": e.clause}}
        except BadRequest as e:
            answer = {"ok": False, "error": {"kind": "bad-request", "message": str(e)}}
        except Exception as e:
            answer = {"ok": False, "error": {"kind": "internal", "message": repr(e)}}
        sys.stdout.write(json.dumps({"id": rid, **answer}) + "\n")
        sys.stdout.flush()
        if isinstance(req, dict) and req.get("type") == "shutdown":
            return


if __name__ == "__main__":
    if sys.argv[1:2] == ["--fixed"]:
        FIXED.update(sys.argv[2].split(","))
    main()
