#!/usr/bin/env python3
"""Dispatcher: the rules core of a family's Mexican Train app (a `Game` class holding the
table in objects of its own) behind a small wrapper that speaks protocol v1, written from
docs/protocol.md alone (it imports nothing from mtrain). Its rules, house rules and
planted bugs were written down here before the suite ran on it.

Rules it plays (tests/examples/dispatcher-rules.yaml; its hello declares the same):
- a double-12 set, 13 rounds from [12-12] down to [0-0]; the engine is set aside before
  the deal (`set-aside`);
- HOUSE TABLE (`hand_sizes: custom`): 2 players 16, 3 players 14, 4 players 13,
  5 players 11, 6 players 10, 7 players 9, 8 players 8;
- HOUSE RULE "high double leads" (`starting_seat: other`): the player dealt the highest
  double leads the round (the engine is set aside, so below it); when nobody was dealt a
  double, round r starts at seat (r - 1) mod players;
- one tile a turn from the start (`single`), anyone may open the Mexican Train
  (`anyone`), no duty to start one's own train first (`not-required`);
- open doubles (`open`): the tile after a double goes anywhere the player may play
  (`anywhere`); doubles of earlier turns are covered oldest first (`oldest-first`) and
  bind even when nobody can cover them (`stays-open`);
- HOUSE RULE "once public, always public" (`marker_removal: other`): a marker, once up,
  stays on its train until the round ends, whoever plays there;
- a player who cannot play draws one tile (`draw-one`); with the boneyard empty a full
  round of passes blocks the round (`full-round-of-passes`);
- penalty scoring at face value (`penalty`, `face`), equal totals share the win
  (`shared`), a full match (`full`).

Planted bugs, each with the clause it breaks (all on with `--bugs`, off by default;
`--fixed 1,2,3` switches off the ones it lists):
1. "pop": a draw takes the boneyard's last tile, not its first (`list.pop()`): DEAL-1 and
   TURN-2 say the boneyard is drawn in its order;
2. "no-visit": the duty to cover an open double of an earlier turn is checked after the
   train's access, so a double on another player's unmarked train cannot be covered by
   anybody but its owner (TRAIN-6);
3. "sticky-draw": a drawn double laid leaves `drawn` set, so its follow-up is held to the
   drawn tile, which is gone: the player must draw again (TURN-3: once the drawn tile is
   laid the whole hand is free again).

Found by the suite on its first run, not planted (fixed here): the author held the doubles
of the mover's own turn to oldest first as well (DBL-2: any of them may be covered; DBL-7
orders those of earlier turns, and cites DBL-7, not DBL-6, for a newer one of them), and a
round gone out on a double kept that double among the turn's (INV-OPEN-DOUBLES).

    mtrain conform --impl "python tests/examples/dispatcher_engine.py --bugs" \\
        --rules tests/examples/dispatcher-rules.yaml
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from typing import Any

HIGH = 12
ROUNDS = HIGH + 1
HAND_SIZES = {2: 16, 3: 14, 4: 13, 5: 11, 6: 10, 7: 9, 8: 8}
RULES = {
    "name": "dispatcher",
    "options": {
        "tile_set": "double-12", "hand_sizes": "custom", "engine_procedure": "set-aside",
        "starting_seat": "other", "first_turn": "single", "mexican_first_turn": "anyone",
        "own_train_first": "not-required", "doubles": "open", "follow_up": "anywhere",
        "double_order": "oldest-first", "uncoverable_double": "stays-open",
        "marker_removal": "other", "draw_rule": "draw-one",
        "blocked_round": "full-round-of-passes", "scoring": "penalty",
        "blank_values": "face", "tie_rule": "shared", "match_length": "full"},
    "hand_sizes": {str(k): v for k, v in HAND_SIZES.items()},
}
BUGS = {1, 2, 3}

Tile = tuple[int, int]  # (high, low) outside a train; (near, far) inside one
Ref = int | str  # a seat, or "mexican"


class BadRequest(Exception):
    pass


class RefusedSetup(Exception):
    def __init__(self, message: str, clause: str | None) -> None:
        super().__init__(message)
        self.clause = clause


class Refusal(Exception):
    def __init__(self, reason: str, clause: str | None) -> None:
        super().__init__(reason)
        self.clause = clause


def tile(text: Any) -> Tile:
    if not isinstance(text, str) or text.count("-") != 1:
        raise BadRequest(f"not a tile: {text!r}")
    a, b = text.split("-")
    if not (a.isdigit() and b.isdigit()) or int(a) > 18 or int(b) > 18:
        raise BadRequest(f"not a tile: {text!r}")
    return int(a), int(b)


def key(t: Tile) -> Tile:
    return (max(t), min(t))


def write(t: Tile) -> str:
    return f"{t[0]}-{t[1]}"


@dataclass
class Train:
    tiles: list[Tile]
    end: int
    marker: bool = False


@dataclass
class Game:
    round: int
    engine: int
    hands: list[list[Tile]]
    boneyard: list[Tile]
    trains: list[Train]
    mexican: Train
    seat: int = 0
    starter: int = 0
    phase: str = "start"
    open_doubles: list[Ref] = field(default_factory=list)
    turn_doubles: list[Ref] = field(default_factory=list)
    drawn: Tile | None = None
    first_turns: list[int] = field(default_factory=list)
    passes: int = 0
    scores: list[int] = field(default_factory=list)
    outs: list[int] = field(default_factory=list)
    result: dict[str, Any] | None = None

    # --- setting up -------------------------------------------------------------
    @classmethod
    def deal(cls, players: int, rnd: int, order: list[Tile]) -> Game:
        if players not in HAND_SIZES:
            raise RefusedSetup(f"no hand size for {players} players (the table lists 2 to 8)",
                               "DEAL-7")
        if not 1 <= rnd <= ROUNDS:
            raise RefusedSetup(f"a match has rounds 1 to {ROUNDS}", "MATCH-1")
        engine = HIGH - (rnd - 1)
        pool = sorted(key(t) for t in order)
        expected = sorted((a, b) for a in range(HIGH + 1) for b in range(a + 1)
                          if not a == b == engine)
        if pool != sorted(key(t) for t in expected):
            raise BadRequest("the pool is not the double-12 set without the engine")
        size = HAND_SIZES[players]
        hands = [[key(t) for t in order[s * size:(s + 1) * size]] for s in range(players)]
        game = cls(rnd, engine, hands, [key(t) for t in order[players * size:]],
                   [Train([], engine) for _ in range(players)], Train([], engine),
                   first_turns=list(range(players)), scores=[0] * players,
                   outs=[0] * players)
        # house rule "high double leads": the highest double dealt, else the rotation
        doubles = [(t[0], s) for s, hand in enumerate(hands) for t in hand if t[0] == t[1]]
        game.starter = game.seat = max(doubles)[1] if doubles else (rnd - 1) % players
        return game

    @property
    def players(self) -> int:
        return len(self.hands)

    def train(self, ref: Ref) -> Train:
        return self.mexican if ref == "mexican" else self.trains[int(ref)]

    def refs(self) -> list[Ref]:
        return [*range(self.players), "mexican"]

    # --- what may be played -----------------------------------------------------
    def may_use(self, ref: Ref) -> bool:
        """TRAIN-4: one's own, the Mexican Train, or a marked train."""
        return ref == "mexican" or ref == self.seat or self.train(ref).marker

    def refusal(self, t: Tile, ref: Ref) -> Refusal | None:
        """Why the player to act may not lay `t` on train `ref` (None: they may)."""
        train = self.train(ref)
        if train.end not in t:
            return Refusal(f"{write(t)} does not match the open end {train.end}", "TRAIN-2")
        if self.drawn is not None and key(t) != self.drawn:
            return Refusal(f"only the drawn tile {write(self.drawn)} may be laid", "TURN-3")
        earlier = [d for d in self.open_doubles if d not in self.turn_doubles]
        if 2 in BUGS and not self.may_use(ref):  # bug 2: access before the duty
            return Refusal("that train is closed to you", "TRAIN-4")
        if earlier:
            if ref in earlier[1:]:
                return Refusal("an older open double must be covered first", "DBL-7")
            if ref != earlier[0]:
                return Refusal("an open double of an earlier turn must be covered first",
                               "DBL-6")
            return None  # TRAIN-6: the double to cover is open wherever it lies
        # DBL-2: the doubles of this turn may be covered in any order
        if ref not in self.open_doubles and not self.may_use(ref):
            return Refusal("that train is closed to you", "TRAIN-4")
        return None

    def plays(self) -> list[tuple[Tile, Ref]]:
        hand = [self.drawn] if self.drawn is not None else self.hands[self.seat]
        return [(t, ref) for t in hand for ref in self.refs()
                if self.refusal(t, ref) is None]

    def legal(self) -> list[dict[str, Any]]:
        if self.phase == "over":
            return []
        actions: list[dict[str, Any]] = [{"type": "play", "tile": write(t), "train": ref}
                                         for t, ref in self.plays()]
        if not actions:
            if self.drawn is None and self.boneyard:
                actions.append({"type": "draw"})  # TURN-2
            else:
                actions.append({"type": "pass"})  # TURN-4
        return actions

    # --- acting -----------------------------------------------------------------
    def apply(self, action: dict[str, Any]) -> None:
        kind = action.get("type")
        fields = {"play": {"type", "tile", "train"}}.get(str(kind), {"type"})
        if kind not in ("play", "draw", "pass", "end-chain") or set(action) != fields:
            raise BadRequest(f"not an action: {action!r}")
        train = action.get("train", "mexican")
        if kind == "play" and (train != "mexican" and not (
                type(train) is int and train >= 0)):
            raise BadRequest(f"not a train: {train!r}")
        if self.phase == "over":
            raise Refusal("the round is over", "END-1")
        if kind == "play":
            self.play(action)
        elif kind == "draw":
            if self.plays():
                raise Refusal("a tile can be played", "TURN-1")
            if self.drawn is not None:
                raise Refusal("one draw a turn", "TURN-2")
            if not self.boneyard:
                raise Refusal("the boneyard is empty", "TURN-4")
            self.drawn = self.boneyard.pop() if 1 in BUGS else self.boneyard.pop(0)
            self.hands[self.seat].append(self.drawn)
        elif kind == "pass":
            if self.plays():
                raise Refusal("a tile can be played", "TURN-1")
            if self.drawn is None and self.boneyard:
                raise Refusal("draw first", "TURN-2")
            self.trains[self.seat].marker = True  # MARK-1
            self.passes = self.passes + 1 if not self.boneyard else 0
            self.end_turn()
            if self.passes >= self.players:  # END-3
                self.finish(None)
        elif kind == "end-chain":
            raise Refusal("every turn is a one-tile turn", "FIRST-7")
        else:
            raise BadRequest(f"unknown action type {kind!r}")

    def play(self, action: dict[str, Any]) -> None:
        t = key(tile(action.get("tile")))
        ref = action.get("train")
        if max(t) > HIGH:
            raise Refusal(f"{write(t)} is not a tile of the double-12 set", "SET-1")
        if ref not in self.refs():
            raise Refusal(f"there is no train {ref!r}", "TRAIN-1")
        if t not in self.hands[self.seat]:
            raise Refusal(f"seat {self.seat} does not hold {write(t)}", "TURN-7")
        why = self.refusal(t, ref)
        if why is not None:
            raise why
        train = self.train(ref)
        laid = t if t[0] == train.end else (t[1], t[0])
        train.tiles.append(laid)
        train.end = laid[1]
        self.hands[self.seat].remove(t)
        # house rule "once public, always public": the marker stays
        if ref in self.open_doubles:  # covered
            self.open_doubles.remove(ref)
            if ref in self.turn_doubles:
                self.turn_doubles.remove(ref)
        self.passes = 0
        if not (3 in BUGS and self.drawn is not None and t[0] == t[1]):
            self.drawn = None
        if t[0] == t[1]:
            self.open_doubles.append(ref)
            self.turn_doubles.append(ref)
        if not self.hands[self.seat]:  # END-1
            self.finish(self.seat)
        elif t[0] == t[1]:
            self.phase = "follow"  # DBL-1
        else:
            self.end_turn()

    def end_turn(self) -> None:
        if self.seat in self.first_turns:
            self.first_turns.remove(self.seat)
        self.seat = (self.seat + 1) % self.players
        self.phase, self.drawn, self.turn_doubles = "start", None, []

    def round_scores(self, winner: int | None) -> list[int]:
        return [0 if s == winner else sum(a + b for a, b in hand)  # SCORE-1, SCORE-5
                for s, hand in enumerate(self.hands)]

    def finish(self, winner: int | None) -> None:
        scores = self.round_scores(winner)
        self.scores = [a + b for a, b in zip(self.scores, scores, strict=True)]
        if winner is not None:
            self.outs[winner] += 1
        self.phase, self.turn_doubles = "over", []
        self.result = {"end": "blocked" if winner is None else "domino", "winner": winner,
                       "scores": scores}

    def winners(self) -> list[int]:
        if self.phase != "over" or self.round < ROUNDS:  # MATCH-1
            return []
        best = min(self.scores)  # MATCH-2, MATCH-4
        return [s for s, total in enumerate(self.scores) if total == best]

    # --- the wire form ------------------------------------------------------------
    @classmethod
    def read(cls, state: dict[str, Any]) -> Game:
        try:
            hands = [[key(tile(t)) for t in hand] for hand in state["hands"]]
            if len(hands) not in HAND_SIZES:
                raise RefusedSetup(f"no table of {len(hands)} seats", "DEAL-7")
            if not 1 <= state["round"] <= ROUNDS:
                raise RefusedSetup(f"a match has rounds 1 to {ROUNDS}", "MATCH-1")

            def train(obj: dict[str, Any], marker: bool) -> Train:
                return Train([tile(t) for t in obj["tiles"]], int(obj["end"]), marker)

            refs: list[Ref] = [*range(len(hands)), "mexican"]
            for ref in [*state["open_doubles"], *state["turn_doubles"]]:
                if ref not in refs:
                    raise BadRequest(f"no train {ref!r}")
            drawn = state["drawn"]
            return cls(
                state["round"], state["engine"], hands,
                [key(tile(t)) for t in state["boneyard"]],
                [train(t, bool(t["marker"])) for t in state["trains"]],
                train(state["mexican"], False), state["seat"], state["starter"],
                state["phase"], list(state["open_doubles"]), list(state["turn_doubles"]),
                None if drawn is None else key(tile(drawn)), list(state["first_turns"]),
                state["passes"], list(state["scores"]), list(state["outs"]),
                state["result"])
        except KeyError as missing:
            raise BadRequest(f"the state lacks {missing}") from None
        except (TypeError, ValueError) as err:
            raise BadRequest(f"the state cannot be read: {err}") from None

    def json(self) -> dict[str, Any]:
        return {
            "round": self.round, "engine": self.engine, "engine_placed": True,
            "phase": self.phase, "seat": self.seat, "starter": self.starter,
            "hands": [[write(t) for t in sorted(hand, reverse=True)] for hand in self.hands],
            "boneyard": [write(t) for t in self.boneyard],
            "trains": [{"tiles": [write(t) for t in tr.tiles], "end": tr.end,
                        "marker": tr.marker} for tr in self.trains],
            "mexican": {"tiles": [write(t) for t in self.mexican.tiles],
                        "end": self.mexican.end},
            "open_doubles": self.open_doubles, "turn_doubles": self.turn_doubles,
            "drawn": None if self.drawn is None else write(self.drawn),
            "first_turns": sorted(self.first_turns), "passes": self.passes,
            "scores": self.scores, "outs": self.outs, "result": self.result,
        }


# --- the protocol wrapper -------------------------------------------------------------
def handle(request: dict[str, Any]) -> dict[str, Any]:
    kind = request.get("type")
    if kind == "hello":
        if request.get("protocol") != 1:
            return {"ok": False, "error": {"kind": "protocol-version", "supported": [1],
                                           "message": "dispatcher speaks protocol 1"}}
        return {"ok": True, "protocol": 1, "name": "dispatcher", "version": "1.0.0",
                "rules": RULES}
    if kind == "shutdown":
        return {"ok": True}
    if kind == "deal":
        order = request.get("order")
        if not isinstance(order, list) or not isinstance(request.get("players"), int) \
                or not isinstance(request.get("round"), int):
            raise BadRequest("a deal needs players, round and order")
        game = Game.deal(request["players"], request["round"], [tile(t) for t in order])
        return {"ok": True, "state": game.json()}
    if kind not in ("legal", "apply", "score", "winners"):
        raise BadRequest(f"unknown request type {kind!r}")
    if not isinstance(request.get("state"), dict):
        raise BadRequest("the request has no state")
    game = Game.read(request["state"])
    if kind == "legal":
        return {"ok": True, "actions": game.legal()}
    if kind == "winners":
        return {"ok": True, "winners": game.winners()}
    if kind == "score":
        if "winner" in request:
            winner = request["winner"]
        elif game.result is not None:
            winner = game.result["winner"]
        else:
            raise BadRequest("a score without a winner needs a finished round")
        if winner is not None and not (type(winner) is int and 0 <= winner < game.players):
            raise BadRequest(f"not a seat: {winner!r}")
        if winner is not None and game.hands[winner]:
            raise BadRequest(f"seat {winner} has not gone out")
        return {"ok": True, "scores": game.round_scores(winner)}
    action = request.get("action")
    if not isinstance(action, dict):
        raise BadRequest("apply needs an action")
    try:
        game.apply(action)
    except Refusal as no:
        return {"ok": True, "refused": {"reason": str(no), "clause": no.clause}}
    return {"ok": True, "state": game.json()}


def answer(line: str) -> tuple[dict[str, Any], bool]:
    try:
        request = json.loads(line)
    except ValueError as err:
        return {"id": None, "ok": False,
                "error": {"kind": "bad-request", "message": f"not JSON: {err}"}}, False
    rid = request.get("id") if isinstance(request, dict) else None
    try:
        if not isinstance(request, dict):
            raise BadRequest("a request is a JSON object")
        reply = handle(request)
    except BadRequest as err:
        reply = {"ok": False, "error": {"kind": "bad-request", "message": str(err)}}
    except RefusedSetup as err:
        reply = {"ok": False, "error": {"kind": "refused-setup", "message": str(err),
                                        "clause": err.clause}}
    except Exception as err:  # a bug of ours, said as such
        reply = {"ok": False, "error": {"kind": "internal", "message": repr(err)}}
    return {"id": rid, **reply}, isinstance(request, dict) and request.get("type") == "shutdown"


def main(argv: list[str]) -> None:
    BUGS.clear()
    if "--bugs" in argv:
        BUGS.update({1, 2, 3})
    if "--fixed" in argv:
        listed = argv[argv.index("--fixed") + 1]
        BUGS.difference_update(int(n) for n in listed.split(","))
    for line in sys.stdin:
        if not line.strip():
            continue
        reply, done = answer(line)
        sys.stdout.write(json.dumps(reply, separators=(",", ":")) + "\n")
        sys.stdout.flush()
        if done:
            return


if __name__ == "__main__":
    main(sys.argv[1:])
