#!/usr/bin/env python3
"""Boxcar: the Mexican Train of the Okafor family's Sunday table, as a small JSON-lines
server (protocol v1, stdin/stdout). Written from docs/protocol.md and the
implementer's guide alone; it does not import mtrain.

The table: a double-15 set for 4 to 10 players, the [15-15] of round 1 set aside before
the deal, hands of our own (4: 15, 5: 14, 6: 12, 7: 11, 8: 10, 9: 9, 10: 8). Round r
starts at seat (r - 1) mod n. One tile a turn from the start, anyone may open the
Mexican Train, nobody must start their own train first. A double asks for a second
tile, which may go anywhere one may play; an open double of an earlier turn must be
covered, oldest first, before anything else, and stays open until somebody covers it.
Cannot play: draw one, play it if you can, else pass and put your marker up. With the
boneyard empty, a full lap of passes ends the round, blocked. Penalty scoring, equal
lowest totals share the win.

House rules (no known value describes them):
- "home or the Mexican" (`marker_removal: other`): a marker comes off when its owner
  plays a tile on their own train or on the Mexican Train.
- "sevens and the fifty" (`blank_values: other`): each blank end of a tile left in hand
  counts 7 ([0-4] costs 11), and the [0-0] costs 50.
- "a lap of engines" (`match_length: other`): the match has one round per player, round
  r played with the [(16 - r)-(16 - r)] engine, so each seat leads once; a deal of a
  later round is refused.

Planted bugs, on with --bugs (written down before any run of the suite):
1. "the drawn tile forgotten" (TURN-3): after a draw, legal lists (and apply accepts)
   any tile in hand that fits, not only the drawn one.
2. "any open double" (DBL-7): with several open doubles of earlier turns, a cover of
   any of them is offered and accepted, not only the oldest.
3. "the last double wants a partner" (END-1): a double laid as one's last tile does
   not end the round; the phase goes to `follow` and the player then passes.
"""

from __future__ import annotations

import copy
import json
import sys
from typing import Any

Tile = tuple[int, int]
Ref = int | str  # a seat's train, or "mexican"

NAME = "boxcar"
TOP = 15
HANDS = {4: 15, 5: 14, 6: 12, 7: 11, 8: 10, 9: 9, 10: 8}

RULES = {
    "name": NAME,
    "options": {
        "tile_set": "double-15", "hand_sizes": "custom", "engine_procedure": "set-aside",
        "starting_seat": "rotate", "first_turn": "single", "mexican_first_turn": "anyone",
        "own_train_first": "not-required", "doubles": "open", "follow_up": "anywhere",
        "double_order": "oldest-first", "uncoverable_double": "stays-open",
        "marker_removal": "other", "draw_rule": "draw-one",
        "blocked_round": "full-round-of-passes", "scoring": "penalty",
        "blank_values": "other", "tie_rule": "shared", "match_length": "other",
    },
    "hand_sizes": {str(k): v for k, v in HANDS.items()},
}


class BadRequest(Exception):
    pass


class Refusal(Exception):
    def __init__(self, clause: str, reason: str) -> None:
        super().__init__(reason)
        self.clause = clause
        self.reason = reason


class SetupRefused(Exception):
    def __init__(self, clause: str | None, message: str) -> None:
        super().__init__(message)
        self.clause = clause
        self.message = message


def parse_tile(text: Any) -> Tile:
    if not isinstance(text, str):
        raise BadRequest("a tile must be a string like '5-3'")
    parts = text.split("-")
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        raise BadRequest(f"not a tile: {text!r}")
    a, b = int(parts[0]), int(parts[1])
    if a > 18 or b > 18:
        raise BadRequest(f"not a tile: {text!r}")
    return (max(a, b), min(a, b))


def tile_str(t: Tile) -> str:
    return f"{t[0]}-{t[1]}"


def pips(t: Tile) -> int:
    a, b = t
    if a == 0 and b == 0:
        return 50  # house rule "sevens and the fifty"
    return (a if a else 7) + (b if b else 7)


class Game:
    """One table, built afresh from each request's state."""

    def __init__(self, state: dict[str, Any], bugs: bool) -> None:
        self.bugs = bugs
        s = state
        try:
            self.round = s["round"]
            self.engine = s["engine"]
            self.engine_placed = s["engine_placed"]
            self.phase = s["phase"]
            self.seat = s["seat"]
            self.starter = s["starter"]
            self.hands = [[parse_tile(t) for t in h] for h in s["hands"]]
            self.boneyard = [parse_tile(t) for t in s["boneyard"]]
            self.trains = [{"tiles": list(t["tiles"]), "end": t["end"], "marker": t["marker"]}
                           for t in s["trains"]]
            self.mexican = {"tiles": list(s["mexican"]["tiles"]), "end": s["mexican"]["end"]}
            self.open_doubles = list(s["open_doubles"])
            self.turn_doubles = list(s["turn_doubles"])
            self.drawn = parse_tile(s["drawn"]) if s["drawn"] is not None else None
            self.first_turns = list(s["first_turns"])
            self.passes = s["passes"]
            self.scores = list(s["scores"])
            self.outs = list(s["outs"])
            self.result = copy.deepcopy(s["result"])
        except (KeyError, TypeError) as e:
            raise BadRequest(f"bad state: {e}") from None
        self.n = len(self.hands)
        if self.n not in HANDS:
            raise SetupRefused("DEAL-7", f"boxcar plays 4 to 10 players, not {self.n}")
        if self.round > self.n:
            raise SetupRefused(None, f"a match of {self.n} players has {self.n} rounds")
        if self.phase in ("engine", "chain"):
            raise SetupRefused(None, "boxcar sets the engine aside and plays single tiles")

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round, "engine": self.engine, "engine_placed": self.engine_placed,
            "phase": self.phase, "seat": self.seat, "starter": self.starter,
            "hands": [[tile_str(t) for t in sorted(h, reverse=True)] for h in self.hands],
            "boneyard": [tile_str(t) for t in self.boneyard],
            "trains": self.trains, "mexican": self.mexican,
            "open_doubles": self.open_doubles, "turn_doubles": self.turn_doubles,
            "drawn": tile_str(self.drawn) if self.drawn else None,
            "first_turns": sorted(self.first_turns), "passes": self.passes,
            "scores": self.scores, "outs": self.outs, "result": self.result,
        }

    def train(self, ref: Ref) -> dict[str, Any]:
        return self.mexican if isinstance(ref, str) else self.trains[ref]

    def refs(self) -> list[Ref]:
        return [*list(range(self.n)), "mexican"]

    def binding(self) -> list[Ref]:
        """Open doubles of earlier turns, oldest first: they must be covered (DBL-6)."""
        return [r for r in self.open_doubles if r not in self.turn_doubles]

    def may_play_on(self, ref: Ref) -> bool:
        """Where the mover may lay a tile now, whatever tile it is."""
        binding = self.binding()
        if binding:
            if self.bugs:  # planted bug 2: any of them
                return ref in binding
            return ref == binding[0]  # DBL-6, DBL-7: the oldest open double first
        if ref in self.open_doubles:
            return True  # TRAIN-6: a double to cover is open wherever it lies
        if isinstance(ref, str) or ref == self.seat:
            return True  # TRAIN-4: the Mexican Train, one's own
        return bool(self.trains[ref]["marker"])  # TRAIN-4, MARK-1: a marked train

    def playable(self, tile: Tile) -> list[Ref]:
        return [r for r in self.refs() if self.train(r)["end"] in tile and self.may_play_on(r)]

    def legal(self) -> list[dict[str, Any]]:
        if self.phase == "over":
            return []
        hand = self.hands[self.seat]
        candidates = hand
        if self.drawn is not None and not self.bugs:  # planted bug 1: every tile
            candidates = [self.drawn]  # TURN-3: only the drawn tile
        acts = []
        for t in candidates:
            for r in self.playable(t):
                acts.append({"type": "play", "tile": tile_str(t), "train": r})
        if acts:
            return acts  # TURN-1: a play must be made
        if self.boneyard and self.drawn is None:
            return [{"type": "draw"}]  # TURN-2
        return [{"type": "pass"}]  # TURN-4

    def apply(self, action: Any) -> None:
        if not isinstance(action, dict) or "type" not in action:
            raise BadRequest("an action is an object with a type")
        kind = action["type"]
        if kind not in ("play", "draw", "pass", "end-chain"):
            raise BadRequest(f"unknown action type {kind!r}")
        if self.phase == "over":
            raise Refusal("END-1", "the round is over")
        legal = self.legal()
        plays = [a for a in legal if a["type"] == "play"]
        if kind == "end-chain":
            raise Refusal("FIRST-7", "no chains at this table: one tile a turn")
        if kind == "draw":
            if plays:
                raise Refusal("TURN-1", "you can play, so you may not draw")
            if self.drawn is not None:
                raise Refusal("TURN-2", "one draw a turn")
            if not self.boneyard:
                raise Refusal("TURN-4", "the boneyard is empty")
            t = self.boneyard.pop(0)
            self.hands[self.seat].append(t)
            self.drawn = t
            return
        if kind == "pass":
            if plays:
                raise Refusal("TURN-1", "you can play, so you may not pass")
            if self.boneyard and self.drawn is None:
                raise Refusal("TURN-2", "draw first")
            self.trains[self.seat]["marker"] = True  # TURN-4, MARK-1
            if not self.boneyard:
                self.passes += 1
            self.end_turn()
            if not self.boneyard and self.passes >= self.n:  # END-3
                self.finish(None)
            return
        tile = parse_tile(action.get("tile"))
        ref = action.get("train")
        if not (ref == "mexican" or (type(ref) is int and ref >= 0)):
            raise BadRequest(f"bad train {ref!r}")
        hand = self.hands[self.seat]
        if tile not in hand:
            raise Refusal("TURN-7", f"{tile_str(tile)} is not in your hand")
        if tile[0] > TOP:
            raise Refusal("SET-1", "not a tile of the double-15 set")
        if ref != "mexican" and ref >= self.n:
            raise Refusal("TRAIN-1", "no such train")
        end = self.train(ref)["end"]
        if end not in tile:
            raise Refusal("TRAIN-2", f"{tile_str(tile)} does not match the end {end}")
        if self.drawn is not None and tile != self.drawn and not self.bugs:
            raise Refusal("TURN-3", "only the drawn tile may be played")
        if not self.may_play_on(ref):
            binding = self.binding()
            if binding:
                if ref in binding:
                    raise Refusal("DBL-7", "cover the oldest open double first")
                raise Refusal("DBL-6", "an open double must be covered first")
            raise Refusal("TRAIN-4", "that train is closed to you")
        self.lay(tile, ref)

    def lay(self, tile: Tile, ref: Ref) -> None:
        tr = self.train(ref)
        far = tile[1] if tile[0] == tr["end"] else tile[0]
        near = tr["end"]
        tr["tiles"].append(f"{near}-{far}")
        tr["end"] = far
        self.hands[self.seat].remove(tile)
        self.passes = 0
        self.drawn = None
        if ref in self.open_doubles:  # covered
            self.open_doubles.remove(ref)
            if ref in self.turn_doubles:
                self.turn_doubles.remove(ref)
        if ref == self.seat or ref == "mexican":  # house rule "home or the Mexican"
            self.trains[self.seat]["marker"] = False
        double = tile[0] == tile[1]
        if double:
            self.open_doubles.append(ref)
            self.turn_doubles.append(ref)
        if not self.hands[self.seat]:
            if double and self.bugs:  # planted bug 3
                self.phase = "follow"
                return
            self.turn_doubles = []  # END-1: a last double needs no cover
            self.finish(self.seat)
            return
        if double:
            self.phase = "follow"  # DBL-1
        else:
            self.end_turn()

    def end_turn(self) -> None:
        self.turn_doubles = []
        self.drawn = None
        if self.seat in self.first_turns:
            self.first_turns.remove(self.seat)
        self.seat = (self.seat + 1) % self.n  # TURN-6
        self.phase = "start"

    def round_scores(self, winner: int | None) -> list[int]:
        return [0 if i == winner else sum(pips(t) for t in h) for i, h in enumerate(self.hands)]

    def finish(self, winner: int | None) -> None:
        sc = self.round_scores(winner)
        self.phase = "over"
        self.result = {"end": "domino" if winner is not None else "blocked",
                       "winner": winner, "scores": sc}
        self.scores = [a + b for a, b in zip(self.scores, sc, strict=False)]
        if winner is not None:
            self.outs[winner] += 1

    def winners(self) -> list[int]:
        if self.phase != "over" or self.round < self.n:
            return []  # house rule "a lap of engines": round n is the last
        low = min(self.scores)
        return [i for i, s in enumerate(self.scores) if s == low]  # MATCH-2, MATCH-4


def deal(req: dict[str, Any]) -> dict[str, Any]:
    n = req.get("players")
    rnd = req.get("round")
    order = req.get("order")
    if type(n) is not int or type(rnd) is not int or not isinstance(order, list):
        raise BadRequest("deal needs players, round and order")
    if n not in HANDS:
        raise SetupRefused("DEAL-7", f"boxcar plays 4 to 10 players, not {n}")
    if rnd < 1 or rnd > n:
        raise SetupRefused(None, f"a match of {n} players has {n} rounds, not round {rnd}")
    tiles = [parse_tile(t) for t in order]
    engine = TOP - (rnd - 1)
    size = HANDS[n]
    hands = [tiles[i * size:(i + 1) * size] for i in range(n)]
    start = (rnd - 1) % n  # SEAT-3
    state = {
        "round": rnd, "engine": engine, "engine_placed": True, "phase": "start",
        "seat": start, "starter": start,
        "hands": [[tile_str(t) for t in sorted(h, reverse=True)] for h in hands],
        "boneyard": [tile_str(t) for t in tiles[n * size:]],
        "trains": [{"tiles": [], "end": engine, "marker": False} for _ in range(n)],
        "mexican": {"tiles": [], "end": engine},
        "open_doubles": [], "turn_doubles": [], "drawn": None,
        "first_turns": list(range(n)), "passes": 0,
        "scores": [0] * n, "outs": [0] * n, "result": None,
    }
    return state


def answer(req: dict[str, Any], bugs: bool) -> dict[str, Any]:
    kind = req.get("type")
    if kind == "hello":
        if req.get("protocol") != 1:
            return {"ok": False, "error": {"kind": "protocol-version",
                                           "message": "boxcar speaks protocol 1",
                                           "supported": [1]}}
        return {"ok": True, "protocol": 1, "name": NAME, "version": "1.2", "rules": RULES}
    if kind == "shutdown":
        return {"ok": True}
    if kind == "deal":
        return {"ok": True, "state": deal(req)}
    if kind not in ("legal", "apply", "score", "winners"):
        raise BadRequest(f"unknown request type {kind!r}")
    game = Game(req.get("state") or {}, bugs)
    if kind == "legal":
        return {"ok": True, "actions": game.legal()}
    if kind == "apply":
        try:
            game.apply(req.get("action"))
        except Refusal as r:
            return {"ok": True, "refused": {"reason": r.reason, "clause": r.clause}}
        return {"ok": True, "state": game.to_json()}
    if kind == "score":
        if "winner" in req:
            winner = req["winner"]
        elif game.result is not None:
            winner = game.result["winner"]
        else:
            raise BadRequest("score needs a finished round or a winner")
        return {"ok": True, "scores": game.round_scores(winner)}
    return {"ok": True, "winners": game.winners()}


def main() -> None:
    bugs = "--bugs" in sys.argv[1:]
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        rid = None
        req = None
        try:
            req = json.loads(line)
            rid = req.get("id")
            out = answer(req, bugs)
        except SetupRefused as e:
            out = {"ok": False, "error": {"kind": "refused-setup", "message": e.message,
                                          "clause": e.clause}}
        except BadRequest as e:
            out = {"ok": False, "error": {"kind": "bad-request", "message": str(e)}}
        except Exception as e:  # a bug of ours: say so and keep going
            out = {"ok": False, "error": {"kind": "internal", "message": repr(e)}}
        out = {"id": rid, **out}
        sys.stdout.write(json.dumps(out, separators=(",", ":")) + "\n")
        sys.stdout.flush()
        if isinstance(req, dict) and req.get("type") == "shutdown":
            break


if __name__ == "__main__":
    main()
