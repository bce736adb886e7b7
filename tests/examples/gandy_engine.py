#!/usr/bin/env python3
"""gandy: a Mexican Train server for a double-11 box, written from docs/protocol.md alone.

The rules this engine plays (its truth; tests/examples/gandy-rules.yaml declares them):

- A double-11 set (78 tiles); 2 to 6 players, dealt 15, 13, 11, 9 and 8 tiles (the
  table of our own: a double-11 box has no published one). The round's engine, [11-11]
  down to [0-0] over twelve rounds, is set aside before the deal; round r starts at seat
  (r - 1) mod n. One tile a turn from the first turn on; anyone may open the Mexican
  Train; nobody has to start their own train first.
- Doubles are open: a double asks its layer for another tile in the same turn.
- House rule "home or cover" (follow_up: other): the tile after a double goes only on the
  double just laid (covering it) or on the player's own train. A double laid on the
  Mexican Train or a marked train may so be left open for the next players.
- A double left open on an earlier turn binds the players after it: they may play only
  by covering it, the oldest first.
- House rule "dry doubles die" (uncoverable_double: other): while the boneyard holds
  tiles every open double binds, even one nobody can cover; once the boneyard is empty,
  an open double that no hand holds a tile for is dead and binds nobody. (Once the
  boneyard is empty a tile nobody holds is on the table, so a double dies exactly when
  the boneyard is empty and every tile of its number has been laid.)
- A player who cannot play draws one tile; only that tile may then be played; who still
  cannot play passes and puts up their marker. A marker comes off when its owner plays
  on their own train (covering a double there included).
- A round ends when a player lays their last tile, or blocked after every player in turn
  has passed on an empty boneyard. Tiles left in hand are a penalty at face value; the
  lowest total after the twelfth round wins, a tie shared.

The suite knew no double-11 set (its tile_set values were double-6, 8, 9, 10, 12, 15, 16
and 18), so `--box N` plays the same rules on a double-N box (`--box 12` with
gandy-rules.yaml, whose table fits it), the engine of round 1 then [N-N], N + 1 rounds.
Since session 60 the suite knows every double-N set: the box it was written for, its
default, runs under gandy-d11-rules.yaml (the same table, DEAL-11).

Three bugs are planted, on by default; `--fixed 1,2,3` (or any of them) turns them off,
`--bugs` turns all three on:

1. Covering an open double on one's own train leaves the marker up: the cover goes
   through the double's own path, which forgets the marker (MARK-3).
2. After a draw, any tile of the hand may be played, not only the one drawn (TURN-3).
3. The count of passes in a row is not set back to 0 when a tile is laid, so a round
   ends blocked before every player has passed in turn (END-3).
"""
from __future__ import annotations

import json
import sys
from typing import Any

NAME = "gandy"
HIGH = 11
SIZES = {2: 15, 3: 13, 4: 11, 5: 9, 6: 8}
OPTIONS = {
    "tile_set": "double-11", "hand_sizes": "custom", "engine_procedure": "set-aside",
    "starting_seat": "rotate", "first_turn": "single", "mexican_first_turn": "anyone",
    "own_train_first": "not-required", "doubles": "open", "follow_up": "other",
    "double_order": "oldest-first", "uncoverable_double": "other",
    "marker_removal": "owner-plays-own", "draw_rule": "draw-one",
    "blocked_round": "full-round-of-passes", "scoring": "penalty", "blank_values": "face",
    "tie_rule": "shared", "match_length": "full",
}
ROUNDS = HIGH + 1
BUGS = {1, 2, 3}


class BadRequest(Exception):
    pass


class Unsupported(Exception):
    """A table these rules never reach (a first-turn chain, a search for the engine)."""


class SetupRefused(Exception):
    def __init__(self, message: str, clause: str | None) -> None:
        super().__init__(message)
        self.clause = clause


class Refusal(Exception):
    def __init__(self, reason: str, clause: str | None) -> None:
        super().__init__(reason)
        self.clause = clause


def parse_tile(text: object) -> tuple[int, int]:
    """A tile as (high, low); anything else is a bad request."""
    if not isinstance(text, str) or text.count("-") != 1:
        raise BadRequest(f"not a tile: {text!r}")
    a, b = text.split("-")
    if not (a.isdigit() and b.isdigit()) or int(a) > 18 or int(b) > 18:
        raise BadRequest(f"not a tile: {text!r}")
    x, y = int(a), int(b)
    return (max(x, y), min(x, y))


def name(tile: tuple[int, int]) -> str:
    return f"{tile[0]}-{tile[1]}"


def whole_set() -> list[tuple[int, int]]:
    return [(a, b) for a in range(HIGH + 1) for b in range(a + 1)]


class Game:
    """One round's table, kept between requests as an app keeps its game object."""

    def __init__(self, data: dict[str, Any]) -> None:
        try:
            self.round = self._int(data["round"])
            self.engine = self._int(data["engine"])
            self.phase = data["phase"]
            self.seat = self._int(data["seat"])
            self.starter = self._int(data["starter"])
            self.hands = [[parse_tile(t) for t in hand] for hand in data["hands"]]
            self.boneyard = [parse_tile(t) for t in data["boneyard"]]
            self.trains: list[list[str]] = [list(t["tiles"]) for t in data["trains"]]
            self.ends = [self._int(t["end"]) for t in data["trains"]]
            self.markers = [bool(t["marker"]) for t in data["trains"]]
            self.mexican: list[str] = list(data["mexican"]["tiles"])
            self.mexican_end = self._int(data["mexican"]["end"])
            self.open_doubles = [self._train(t) for t in data["open_doubles"]]
            self.turn_doubles = [self._train(t) for t in data["turn_doubles"]]
            self.drawn = None if data["drawn"] is None else parse_tile(data["drawn"])
            self.first_turns = sorted(self._int(s) for s in data["first_turns"])
            self.passes = self._int(data["passes"])
            self.scores = [self._int(s) for s in data["scores"]]
            self.outs = [self._int(s) for s in data["outs"]]
            self.result = data["result"]
            self.engine_placed = data["engine_placed"]
        except (KeyError, TypeError, AttributeError) as exc:
            raise BadRequest(f"state does not read: {exc!r}") from None
        self.players = len(self.hands)
        if self.players not in SIZES or len(self.trains) != self.players:
            raise SetupRefused(f"gandy seats 2 to 6 players, not {self.players}", "DEAL-7")
        if self.phase in ("engine", "chain"):
            raise Unsupported(f"gandy never reaches the {self.phase!r} phase")
        if self.phase not in ("start", "follow", "over") or not 0 <= self.seat < self.players:
            raise BadRequest("state does not read: phase or seat")

    @staticmethod
    def _int(value: object) -> int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise BadRequest(f"not an integer: {value!r}")
        return value

    def _train(self, ref: object) -> int | str:
        if ref == "mexican":
            return "mexican"
        number = self._int(ref)
        if not 0 <= number < len(self.trains):
            raise BadRequest(f"no train {ref!r}")
        return number

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round, "engine": self.engine, "engine_placed": True,
            "phase": self.phase, "seat": self.seat, "starter": self.starter,
            "hands": [[name(t) for t in sorted(h, reverse=True)] for h in self.hands],
            "boneyard": [name(t) for t in self.boneyard],
            "trains": [{"tiles": list(self.trains[s]), "end": self.ends[s],
                        "marker": self.markers[s]} for s in range(self.players)],
            "mexican": {"tiles": list(self.mexican), "end": self.mexican_end},
            "open_doubles": list(self.open_doubles), "turn_doubles": list(self.turn_doubles),
            "drawn": None if self.drawn is None else name(self.drawn),
            "first_turns": list(self.first_turns), "passes": self.passes,
            "scores": list(self.scores), "outs": list(self.outs), "result": self.result,
        }

    # -- what the table allows ------------------------------------------------------

    def end_of(self, train: int | str) -> int:
        return self.mexican_end if train == "mexican" else self.ends[int(train)]

    def dead(self, train: int | str) -> bool:
        """House rule: a dry boneyard kills a double nobody holds a tile for."""
        number = self.end_of(train)
        return not self.boneyard and not any(number in t for h in self.hands for t in h)

    def binding(self) -> list[int | str]:
        """The doubles of earlier turns that bind the mover, oldest first."""
        return [t for t in self.open_doubles
                if t not in self.turn_doubles and not self.dead(t)]

    def usable(self, seat: int) -> list[int | str]:
        """The trains a player may use in an ordinary turn (TRAIN-4)."""
        return [seat, "mexican", *(s for s in range(self.players) if s != seat
                                   and self.markers[s])]

    def targets(self) -> list[int | str]:
        """Where the mover's next tile may go."""
        if self.turn_doubles:  # house rule "home or cover"
            last = self.turn_doubles[-1]
            return [last] if last == self.seat else [last, self.seat]
        duty = self.binding()
        if duty:  # DBL-6, DBL-7: only the oldest open double
            return [duty[0]]
        return self.usable(self.seat)

    def candidates(self) -> list[tuple[int, int]]:
        hand = self.hands[self.seat]
        if self.drawn is not None and 2 not in BUGS:  # TURN-3: only the drawn tile
            return [self.drawn] if self.drawn in hand else []
        return list(hand)

    def plays(self) -> list[tuple[tuple[int, int], int | str]]:
        return [(tile, train) for train in self.targets() for tile in self.candidates()
                if self.end_of(train) in tile]

    def legal(self) -> list[dict[str, Any]]:
        if self.phase == "over":
            return []
        actions = [{"type": "play", "tile": name(t), "train": tr} for t, tr in self.plays()]
        if actions:
            return actions
        if self.drawn is None and self.boneyard:
            return [{"type": "draw"}]
        return [{"type": "pass"}]

    # -- actions --------------------------------------------------------------------

    def apply(self, action: object) -> None:
        if not isinstance(action, dict) or action.get("type") not in (
                "play", "draw", "pass", "end-chain"):
            raise BadRequest(f"not an action: {action!r}")
        kind = action["type"]
        allowed = {"play": {"type", "tile", "train"}}.get(kind, {"type"})
        if set(action) != allowed:
            raise BadRequest(f"a {kind} action has the fields {sorted(allowed)}")
        if self.phase == "over":  # END-1
            raise Refusal("the round is over", "END-1")
        if kind == "end-chain":  # FIRST-7: every turn is a one-tile turn
            raise Refusal("gandy plays one tile a turn from the first turn on", "FIRST-7")
        if kind == "draw":
            self._draw()
        elif kind == "pass":
            self._pass()
        else:
            self._play(action["tile"], action["train"])

    def _draw(self) -> None:
        if self.plays():  # TURN-1: a player who can play must
            raise Refusal("a tile can be played", "TURN-1")
        if not self.boneyard:  # TURN-4: nothing left to draw
            raise Refusal("the boneyard is empty", "TURN-4")
        if self.drawn is not None:  # TURN-2: one tile a turn
            raise Refusal("one draw a turn", "TURN-2")
        self.drawn = self.boneyard.pop(0)
        self.hands[self.seat].append(self.drawn)

    def _pass(self) -> None:
        if self.plays():  # TURN-1: a player who can play must
            raise Refusal("a tile can be played", "TURN-1")
        if self.drawn is None and self.boneyard:  # TURN-2: draw first
            raise Refusal("draw a tile first", "TURN-2")
        self.markers[self.seat] = True  # TURN-4, MARK-1: the marker goes up
        if not self.boneyard:  # END-3: passes counted on an empty boneyard
            self.passes += 1
        self._end_turn()
        if self.passes >= self.players:  # END-3: a full round of passes
            self._finish(None)

    def _play(self, text: object, ref: object) -> None:
        tile = parse_tile(text)
        if ref != "mexican" and (not isinstance(ref, int) or isinstance(ref, bool) or ref < 0):
            raise BadRequest(f"not a train: {ref!r}")
        train: int | str = ref
        if tile not in self.hands[self.seat]:  # TURN-7: one's own tiles only
            clause = "SET-1" if tile[0] > HIGH else "TURN-7"
            raise Refusal(f"seat {self.seat} does not hold {name(tile)}", clause)
        if train != "mexican" and int(train) >= self.players:  # TRAIN-1
            raise Refusal(f"there is no train {train}", "TRAIN-1")
        end = self.end_of(train)
        if end not in tile:  # TRAIN-2: a tile matches the open end
            raise Refusal(f"{name(tile)} does not match the open end {end}", "TRAIN-2")
        if self.drawn is not None and tile != self.drawn and 2 not in BUGS:
            raise Refusal(f"only the drawn {name(self.drawn)} may be played", "TURN-3")
        if train not in self.targets():
            raise Refusal(*self._closed(train))
        self._lay(tile, train)

    def _closed(self, train: int | str) -> tuple[str, str | None]:
        """Why a train the tile matches is closed to the mover, and the clause."""
        if self.turn_doubles:  # house rule "home or cover": no clause of the spec's
            return ("after a double, cover it or play on your own train", None)
        duty = self.binding()
        if train not in self.usable(self.seat) and train not in duty:
            return (f"seat {train}'s train is closed", "TRAIN-4")  # TRAIN-4
        if train in duty:  # DBL-7: the oldest open double first
            return ("an older open double is to be covered first", "DBL-7")
        return ("an open double must be covered first", "DBL-6")  # DBL-6

    def _lay(self, tile: tuple[int, int], train: int | str) -> None:
        end = self.end_of(train)
        far = tile[0] if tile[1] == end else tile[1]
        laid = f"{end}-{far}"
        covers = train in self.open_doubles
        if train == "mexican":
            self.mexican.append(laid)
            self.mexican_end = far
        else:
            seat = int(train)
            self.trains[seat].append(laid)
            self.ends[seat] = far
            # MARK-3: the owner's tile on their own train takes the marker off
            if seat == self.seat and not (covers and 1 in BUGS):
                self.markers[seat] = False
        if covers:  # TRAIN-3: the tile covers the double
            self.open_doubles.remove(train)
            if train in self.turn_doubles:
                self.turn_doubles.remove(train)
        self.hands[self.seat].remove(tile)
        self.drawn = None
        if 3 not in BUGS:  # END-3: a tile laid breaks the run of passes
            self.passes = 0
        double = tile[0] == tile[1]
        if double:  # DBL-1: open, and another tile is due
            self.open_doubles.append(train)
        if not self.hands[self.seat]:  # END-1: the last tile ends the round
            self.turn_doubles = []
            self._finish(self.seat)
        elif double:
            self.turn_doubles.append(train)
            self.phase = "follow"
        else:
            self._end_turn()

    def _end_turn(self) -> None:
        """TURN-6: the turn passes to the next seat."""
        if self.seat in self.first_turns:  # FIRST-6
            self.first_turns.remove(self.seat)
        self.turn_doubles = []
        self.drawn = None
        self.phase = "start"
        self.seat = (self.seat + 1) % self.players

    def round_scores(self) -> list[int]:
        """SCORE-5, SCORE-1: the pips left in each hand."""
        return [sum(a + b for a, b in hand) for hand in self.hands]

    def _finish(self, winner: int | None) -> None:
        scores = self.round_scores()
        if winner is not None:
            self.outs[winner] += 1
            if winner in self.first_turns:  # FIRST-6: going out ends the turn too
                self.first_turns.remove(winner)
        self.scores = [a + b for a, b in zip(self.scores, scores, strict=True)]
        self.result = {"end": "blocked" if winner is None else "domino", "winner": winner,
                       "scores": scores}
        self.phase = "over"
        self.drawn = None

    def winners(self) -> list[int]:
        if self.phase != "over" or self.round < ROUNDS:  # MATCH-1
            return []
        best = min(self.scores)  # MATCH-2, MATCH-4
        return [s for s, total in enumerate(self.scores) if total == best]


def deal(players: object, round_: object, order: object) -> dict[str, Any]:
    if not isinstance(players, int) or isinstance(players, bool) or players < 1:
        raise BadRequest(f"players: {players!r}")
    if not isinstance(round_, int) or isinstance(round_, bool) or round_ < 1:
        raise BadRequest(f"round: {round_!r}")
    if players not in SIZES:  # DEAL-7
        raise SetupRefused(f"gandy deals to 2 to 6 players, not {players}", "DEAL-7")
    if round_ > ROUNDS:  # MATCH-1
        raise SetupRefused(f"a gandy match has {ROUNDS} rounds", "MATCH-1")
    engine = HIGH - (round_ - 1)  # ENG-1
    if not isinstance(order, list):
        raise BadRequest("order is not a list")
    pool = [parse_tile(t) for t in order]
    if sorted(pool) != sorted(t for t in whole_set() if t != (engine, engine)):
        raise BadRequest("the pool is not the set without the engine (ENG-2)")
    size = SIZES[players]
    hands = [pool[s * size:(s + 1) * size] for s in range(players)]
    starter = (round_ - 1) % players  # SEAT-3
    return {
        "round": round_, "engine": engine, "engine_placed": True, "phase": "start",
        "seat": starter, "starter": starter,
        "hands": [[name(t) for t in sorted(h, reverse=True)] for h in hands],
        "boneyard": [name(t) for t in pool[players * size:]],
        "trains": [{"tiles": [], "end": engine, "marker": False} for _ in range(players)],
        "mexican": {"tiles": [], "end": engine}, "open_doubles": [], "turn_doubles": [],
        "drawn": None, "first_turns": list(range(players)), "passes": 0,
        "scores": [0] * players, "outs": [0] * players, "result": None,
    }


class Server:
    """Keeps the last table and reads a request's state afresh when it differs."""

    def __init__(self) -> None:
        self.game: Game | None = None
        self.seen: str = ""

    def table(self, state: object) -> Game:
        text = json.dumps(state, sort_keys=True)
        if self.game is None or text != self.seen:
            if not isinstance(state, dict):
                raise BadRequest("state is not an object")
            self.game = Game(state)
            self.seen = text
        return self.game

    def keep(self, game: Game) -> dict[str, Any]:
        out = game.to_json()
        self.seen = json.dumps(out, sort_keys=True)
        self.game = game
        return out

    def handle(self, req: dict[str, Any]) -> dict[str, Any]:
        kind = req.get("type")
        if kind == "hello":
            if req.get("protocol") != 1:
                return {"ok": False, "error": {"kind": "protocol-version",
                                               "message": "gandy speaks protocol 1",
                                               "supported": [1]}}
            return {"ok": True, "protocol": 1, "name": NAME, "version": "1.0",
                    "rules": {"name": NAME, "options": OPTIONS,
                              "hand_sizes": {str(n): k for n, k in SIZES.items()}}}
        if kind == "shutdown":
            return {"ok": True}
        if kind == "deal":
            self.game = None
            return {"ok": True, "state": deal(req.get("players"), req.get("round"),
                                              req.get("order"))}
        if kind not in ("legal", "apply", "score", "winners"):
            raise BadRequest(f"unknown request type {kind!r}")
        game = self.table(req.get("state"))
        if kind == "legal":
            return {"ok": True, "actions": game.legal()}
        if kind == "winners":
            return {"ok": True, "winners": game.winners()}
        if kind == "score":
            if "winner" in req:
                winner = req["winner"]
                if winner is not None and (not isinstance(winner, int)
                                           or not 0 <= winner < game.players
                                           or game.hands[winner]):
                    raise BadRequest(f"winner {winner!r} has not gone out")
            elif game.phase != "over":
                raise BadRequest("score without a winner needs a finished round")
            return {"ok": True, "scores": game.round_scores()}
        snapshot = json.loads(self.seen)
        try:
            game.apply(req.get("action"))
        except Refusal as refusal:
            self.game = Game(snapshot)  # the refused action changed nothing
            return {"ok": True, "refused": {"reason": str(refusal), "clause": refusal.clause}}
        except BadRequest:
            self.game = Game(snapshot)
            raise
        return {"ok": True, "state": self.keep(game)}


def main(argv: list[str]) -> int:
    if "--fixed" in argv:
        index = argv.index("--fixed")
        listed = argv[index + 1] if index + 1 < len(argv) else ""
        BUGS.difference_update(int(b) for b in listed.split(",") if b.strip().isdigit())
    if "--box" in argv:
        index = argv.index("--box")
        box = argv[index + 1] if index + 1 < len(argv) else ""
        if not box.isdigit() or not 6 <= int(box) <= 18:
            sys.stderr.write(f"gandy: --box takes a set from 6 to 18, not {box!r}\n")
            return 2
        global HIGH, ROUNDS
        HIGH, ROUNDS = int(box), int(box) + 1
        OPTIONS["tile_set"] = f"double-{HIGH}"
    if "--bugs" in argv:
        BUGS.update({1, 2, 3})
    server = Server()
    for line in sys.stdin:
        line = line.strip().lstrip("\ufeff")
        if not line:
            continue
        rid, kind = None, None
        try:
            req = json.loads(line)
            if not isinstance(req, dict):
                raise BadRequest("a request is a JSON object")
            rid, kind = req.get("id"), req.get("type")
            answer = server.handle(req)
        except BadRequest as exc:
            answer = {"ok": False, "error": {"kind": "bad-request", "message": str(exc)}}
        except Unsupported as exc:
            answer = {"ok": False, "error": {"kind": "unsupported", "message": str(exc)}}
        except SetupRefused as exc:
            answer = {"ok": False, "error": {"kind": "refused-setup", "message": str(exc),
                                             "clause": exc.clause}}
        except ValueError as exc:
            answer = {"ok": False, "error": {"kind": "bad-request", "message": str(exc)}}
        except Exception as exc:  # a bug of ours: say so, keep serving
            answer = {"ok": False, "error": {"kind": "internal", "message": repr(exc)}}
        sys.stdout.write(json.dumps({"id": rid, **answer}, separators=(",", ":")) + "\n")
        sys.stdout.flush()
        if kind == "shutdown":
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
