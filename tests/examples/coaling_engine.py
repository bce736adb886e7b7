#!/usr/bin/env python3
"""Coaling: Mexican Train on a double-16 set for four to ten players, as a club plays it
on its big box, written from docs/protocol.md and the clause texts alone (it imports
nothing from mtrain), to try the suite as its author would. Its rules and planted bugs
were written down here before the suite ran on it.

Rules it plays (its rule-set file: tests/examples/coaling-rules.yaml; its hello declares
the same):
- a double-16 set (153 tiles, a full match of 17 rounds from [16-16] down to [0-0]); the
  round's engine is set aside before the deal (`set-aside`); round r starts at seat
  (r - 1) mod n (`rotate`);
- a table of its own: 4 players 19 tiles, 5 players 17, 6 players 15, 7 players 14,
  8 players 13, 9 players 12, 10 players 11; any other count is refused (DEAL-7);
- one tile a turn from the start; anyone may open the Mexican Train; nobody must start
  their own train first (`single`, `anyone`, `not-required`);
- HOUSE RULE no value describes (`doubles: other`, "doubles at home"): a double may be
  laid only on its layer's own train, never on the Mexican Train or another player's
  train (marked or not); there it is open as usual: its layer lays another tile at once,
  anywhere they may play, the double included (`follow_up: anywhere`); a double left open
  from an earlier turn must be covered before anything else, by whoever is to move, on
  its train whoever owns it, the oldest first (`oldest-first`), and it stays open while
  nobody can cover it (`stays-open`); a player who cannot play the tile a double asks for
  draws one, then passes with the marker up;
- HOUSE RULE no value describes (`scoring: other`, "bare doubles"): at the end of a
  round each player scores the pips left in their hand (0 for whoever went out), plus
  the pips of the double their own train ends in, if it ends in one: a double left
  uncovered is charged to the train's owner, who (by the rule above) laid it; going out
  on a double costs its pips too;
- a marker comes off when its owner plays on their own train (`owner-plays-own`); a
  player who cannot play draws one tile (`draw-one`), plays it if they can, else passes
  with their marker up; with the boneyard empty a full round of passes ends the round
  blocked (`full-round-of-passes`);
- tiles at face value (`face`); the lowest total after the last round wins; equal
  totals share the win (`shared`).

Planted bugs (on unless `--fixed 1,2,3` switches them off), each with the clause it
breaks:
1. "round-robin": the deal hands out the pool one tile to each seat in turn, as a table
   deals cards, not each hand in one block from the front (DEAL-1, protocol `deal`);
2. "closed-cover": a double open on another player's train can be covered only while
   that train is marked: the author forgot that a cover goes on any train (TRAIN-6), so
   the player bound to cover it draws and passes instead (DBL-6);
3. "sixteen-rounds": the match is over after round 16 (engine [1-1]): the author counted
   one round per number from 16 down to 1 (MATCH-1: a double-N match has N+1 rounds).

Bug 2 was first planted as "any-after-draw" (after a draw, any playable tile of the hand
offered, not only the drawn one: TURN-3). The first run showed it nowhere, and rightly:
a player draws only when no tile of the hand can be played, and the draw changes no train,
so no table these rules reach tells the two apart. It was replaced, before any other run,
by "closed-cover".
"""

from __future__ import annotations

import json
import sys
from typing import Any

TOP = 16
SIZES = {4: 19, 5: 17, 6: 15, 7: 14, 8: 13, 9: 12, 10: 11}
NAME = "coaling"
RULES = {
    "tile_set": "double-16", "hand_sizes": "custom", "engine_procedure": "set-aside",
    "starting_seat": "rotate", "first_turn": "single", "mexican_first_turn": "anyone",
    "own_train_first": "not-required", "doubles": "other", "follow_up": "anywhere",
    "double_order": "oldest-first", "uncoverable_double": "stays-open",
    "marker_removal": "owner-plays-own", "draw_rule": "draw-one",
    "blocked_round": "full-round-of-passes", "scoring": "other", "blank_values": "face",
    "tie_rule": "shared", "match_length": "full",
}
STATE_KEYS = {"round", "engine", "engine_placed", "phase", "seat", "starter", "hands",
              "boneyard", "trains", "mexican", "open_doubles", "turn_doubles", "drawn",
              "first_turns", "passes", "scores", "outs", "result"}
REQUEST_KEYS = {"hello": {"protocol", "harness"},
                "deal": {"ruleset", "players", "round", "order", "draw"},
                "legal": {"ruleset", "state"}, "apply": {"ruleset", "state", "action"},
                "score": {"ruleset", "state", "winner"}, "winners": {"ruleset", "state"},
                "shutdown": set()}
BUGS = {1, 2, 3}


class BadRequest(Exception):
    """A request this engine cannot read."""


class Refusal(Exception):
    def __init__(self, reason: str, clause: str | None) -> None:
        super().__init__(reason)
        self.clause = clause


# --- tiles -------------------------------------------------------------------------

Tile = tuple[int, int]  # (high, low)


def tile_of(text: Any) -> Tile:
    if not isinstance(text, str) or text.count("-") != 1:
        raise BadRequest(f"not a tile: {text!r}")
    a, b = text.split("-")
    if not (a.isdigit() and b.isdigit()) or int(a) > 18 or int(b) > 18:
        raise BadRequest(f"not a tile: {text!r}")
    x, y = int(a), int(b)
    return (max(x, y), min(x, y))


def write(t: Tile) -> str:
    return f"{t[0]}-{t[1]}"


def the_set() -> set[Tile]:
    return {(h, lo) for h in range(TOP + 1) for lo in range(h + 1)}


def pips(t: Tile) -> int:
    return t[0] + t[1]


# --- the table ---------------------------------------------------------------------

class Train:
    def __init__(self, start: int) -> None:
        self.laid: list[tuple[int, int]] = []  # (near, far) from the engine outward
        self.start = start
        self.marked = False

    @property
    def end(self) -> int:
        return self.laid[-1][1] if self.laid else self.start

    def bare_double(self) -> Tile | None:
        """The double this train ends in, if it ends in one."""
        if self.laid and self.laid[-1][0] == self.laid[-1][1]:
            return (self.laid[-1][0], self.laid[-1][0])
        return None


class Table:
    """One round's table, read afresh from each request."""

    def __init__(self) -> None:
        self.round = 1
        self.engine = TOP
        self.phase = "start"
        self.seat = 0
        self.starter = 0
        self.hands: list[set[Tile]] = []
        self.boneyard: list[Tile] = []
        self.trains: list[Train] = []
        self.mexican = Train(TOP)
        self.open_doubles: list[int | str] = []
        self.turn_doubles: list[int | str] = []
        self.drawn: Tile | None = None
        self.first_turns: set[int] = set()
        self.passes = 0
        self.scores: list[int] = []
        self.outs: list[int] = []
        self.result: dict[str, Any] | None = None

    @property
    def players(self) -> int:
        return len(self.hands)

    def train(self, ref: int | str) -> Train:
        return self.mexican if ref == "mexican" else self.trains[int(ref)]

    def refs(self) -> list[int | str]:
        return [*range(self.players), "mexican"]


def read_table(raw: Any) -> Table:
    if not isinstance(raw, dict) or set(raw) != STATE_KEYS:
        raise BadRequest("a state needs exactly the fields " + ", ".join(sorted(STATE_KEYS)))
    t = Table()
    try:
        t.round, t.engine, t.phase = int(raw["round"]), int(raw["engine"]), raw["phase"]
        t.seat, t.starter = int(raw["seat"]), int(raw["starter"])
        t.hands = [{tile_of(x) for x in hand} for hand in raw["hands"]]
        t.boneyard = [tile_of(x) for x in raw["boneyard"]]
        for body in raw["trains"]:
            train = Train(t.engine)
            train.laid = [_laid(x) for x in body["tiles"]]
            train.marked = bool(body["marker"])
            t.trains.append(train)
        t.mexican.start = t.engine
        t.mexican.laid = [_laid(x) for x in raw["mexican"]["tiles"]]
        t.open_doubles = [_ref(x) for x in raw["open_doubles"]]
        t.turn_doubles = [_ref(x) for x in raw["turn_doubles"]]
        t.drawn = None if raw["drawn"] is None else tile_of(raw["drawn"])
        t.first_turns = set(raw["first_turns"])
        t.passes = int(raw["passes"])
        t.scores = [int(x) for x in raw["scores"]]
        t.outs = [int(x) for x in raw["outs"]]
        t.result = raw["result"]
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise BadRequest(f"state: {e}") from None
    if t.phase not in ("start", "follow", "over"):
        raise Unsupported(f"phase {t.phase!r} never happens at this table")
    if not 0 <= t.seat < t.players or len(t.trains) != t.players:
        raise BadRequest("state: seat or trains do not fit the hands")
    return t


class Unsupported(Exception):
    """A table these rules never reach."""


def _laid(text: Any) -> tuple[int, int]:
    if not isinstance(text, str) or text.count("-") != 1:
        raise BadRequest(f"not a tile: {text!r}")
    a, b = text.split("-")
    return int(a), int(b)


def _ref(x: Any) -> int | str:
    if x == "mexican":
        return "mexican"
    if isinstance(x, int) and not isinstance(x, bool):
        return x
    raise BadRequest(f"not a train: {x!r}")


def dump_table(t: Table) -> dict[str, Any]:
    return {
        "round": t.round, "engine": t.engine, "engine_placed": True, "phase": t.phase,
        "seat": t.seat, "starter": t.starter,
        "hands": [[write(x) for x in sorted(h, reverse=True)] for h in t.hands],
        "boneyard": [write(x) for x in t.boneyard],
        "trains": [{"tiles": [f"{a}-{b}" for a, b in tr.laid], "end": tr.end,
                    "marker": tr.marked} for tr in t.trains],
        "mexican": {"tiles": [f"{a}-{b}" for a, b in t.mexican.laid], "end": t.mexican.end},
        "open_doubles": list(t.open_doubles), "turn_doubles": list(t.turn_doubles),
        "drawn": None if t.drawn is None else write(t.drawn),
        "first_turns": sorted(t.first_turns), "passes": t.passes,
        "scores": list(t.scores), "outs": list(t.outs), "result": t.result,
    }


# --- the rules ---------------------------------------------------------------------

def owed(t: Table) -> list[int | str]:
    """Open doubles laid on an earlier turn: the oldest must be covered first."""
    return [r for r in t.open_doubles if r not in t.turn_doubles]


def may_use(t: Table, ref: int | str) -> bool:
    if ref == "mexican" or ref == t.seat:
        return True
    return t.train(ref).marked or (ref in t.open_doubles and not bug(2))  # TRAIN-4, TRAIN-6


def why_not(t: Table, tile: Tile, ref: int | str) -> tuple[str, str | None] | None:
    """Why this play is refused (its clause), or None when it is legal."""
    train = t.train(ref)
    if train.end not in tile:
        return f"{write(tile)} does not match the open end {train.end}", "TRAIN-2"
    if t.drawn is not None and tile != t.drawn:
        return f"only the drawn {write(t.drawn)} may be played", "TURN-3"
    if not may_use(t, ref):
        return "that train is closed to you", "TRAIN-4"
    duty = owed(t)
    if duty and ref != duty[0]:
        clause = "DBL-7" if ref in duty else "DBL-6"
        return "an open double must be covered first", clause
    if tile[0] == tile[1] and ref != t.seat:
        return "a double may be laid only on your own train (house rule)", None
    return None


def plays(t: Table) -> list[dict[str, Any]]:
    hand = t.hands[t.seat]
    found = []
    for tile in sorted(hand, reverse=True):
        for ref in t.refs():
            if why_not(t, tile, ref) is None:
                found.append({"type": "play", "tile": write(tile), "train": ref})
    return found


def legal(t: Table) -> list[dict[str, Any]]:
    if t.phase == "over":
        return []
    found = plays(t)
    if found:
        return found  # TURN-1
    if t.boneyard and t.drawn is None:
        return [{"type": "draw"}]  # TURN-2, DBL-5
    return [{"type": "pass"}]  # TURN-4


def bug(n: int) -> bool:
    return n in BUGS


def apply(t: Table, action: Any) -> Table:
    if not isinstance(action, dict) or "type" not in action:
        raise BadRequest("an action needs a type")
    kind = action["type"]
    fields = {"play": {"type", "tile", "train"}, "draw": {"type"}, "pass": {"type"},
              "end-chain": {"type"}}
    if kind not in fields or set(action) != fields[kind]:
        raise BadRequest(f"not an action: {action!r}")
    if t.phase == "over":
        raise Refusal("the round is over", "END-1")
    if kind == "end-chain":
        raise Refusal("no chains here: one tile a turn", "FIRST-7")
    can_play = bool(plays(t))
    if kind == "draw":
        if can_play:
            raise Refusal("you can play", "TURN-1")
        if not t.boneyard:
            raise Refusal("the boneyard is empty", "TURN-4")
        if t.drawn is not None:
            raise Refusal("one draw a turn", "TURN-2")
        t.drawn = t.boneyard.pop(0)
        t.hands[t.seat].add(t.drawn)
        return t
    if kind == "pass":
        if can_play:
            raise Refusal("you can play", "TURN-1")
        if t.boneyard and t.drawn is None:
            raise Refusal("draw first", "TURN-2")
        t.trains[t.seat].marked = True  # TURN-4, MARK-1, DBL-5
        if not t.boneyard:
            t.passes += 1
        end_turn(t)
        return t
    tile = tile_of(action["tile"])
    ref = action["train"]
    if isinstance(ref, bool) or not (ref == "mexican" or isinstance(ref, int)) or (
            isinstance(ref, int) and ref < 0):
        raise BadRequest(f"not a train: {ref!r}")
    if max(tile) > TOP:
        raise Refusal(f"{write(tile)} is not in a double-{TOP} set", "SET-1")
    if tile not in t.hands[t.seat]:
        raise Refusal(f"you do not hold {write(tile)}", "TURN-7")
    if ref != "mexican" and ref >= t.players:
        raise Refusal(f"there is no train {ref}", "TRAIN-1")
    why = why_not(t, tile, ref)
    if why is not None:
        raise Refusal(*why)
    lay(t, tile, ref)
    return t


def lay(t: Table, tile: Tile, ref: int | str) -> None:
    train = t.train(ref)
    near = train.end
    train.laid.append((near, tile[0] if tile[1] == near else tile[1]))  # TRAIN-2
    t.hands[t.seat].discard(tile)
    if ref == t.seat:
        train.marked = False  # MARK-3
    if ref in t.open_doubles:  # TRAIN-3: covered
        t.open_doubles.remove(ref)
        if ref in t.turn_doubles:
            t.turn_doubles.remove(ref)
    double = tile[0] == tile[1]
    if double:
        t.open_doubles.append(ref)
        t.turn_doubles.append(ref)
    t.drawn = None
    t.passes = 0
    if not t.hands[t.seat]:
        finish(t, t.seat)  # END-1
    elif double:
        t.phase = "follow"  # DBL-1
    else:
        end_turn(t)  # TURN-6


def end_turn(t: Table) -> None:
    t.first_turns.discard(t.seat)
    t.turn_doubles = []
    t.drawn = None
    t.phase = "start"
    t.seat = (t.seat + 1) % t.players
    if not t.boneyard and t.passes >= t.players:
        finish(t, None)  # END-3


def round_scores(t: Table) -> list[int]:
    """Hand pips, plus the pips of the double one's own train ends in (house rule)."""
    out = []
    for seat, hand in enumerate(t.hands):
        bare = t.trains[seat].bare_double()
        out.append(sum(pips(x) for x in hand) + (pips(bare) if bare else 0))
    return out


def finish(t: Table, winner: int | None) -> None:
    scores = round_scores(t)
    t.phase = "over"
    t.result = {"end": "blocked" if winner is None else "domino", "winner": winner,
                "scores": scores}
    t.scores = [a + b for a, b in zip(t.scores, scores, strict=True)]
    if winner is not None:
        t.outs[winner] += 1
        t.seat = winner
    t.turn_doubles = []
    t.drawn = None


def last_round() -> int:
    return TOP if bug(3) else TOP + 1


def winners(t: Table) -> list[int]:
    if t.phase != "over" or t.round < last_round():
        return []
    low = min(t.scores)
    return [s for s, x in enumerate(t.scores) if x == low]


def deal(players: Any, rnd: Any, order: Any) -> Table:
    if not isinstance(players, int) or isinstance(players, bool) or players < 1:
        raise BadRequest("players: a whole number")
    if not isinstance(rnd, int) or isinstance(rnd, bool) or rnd < 1:
        raise BadRequest("round: a whole number from 1")
    if players not in SIZES:
        raise SetupRefused(f"coaling deals to 4 to 10 players, not {players}", "DEAL-7")
    if rnd > last_round():
        raise SetupRefused(f"a double-{TOP} match has {last_round()} rounds", "MATCH-1")
    if not isinstance(order, list):
        raise BadRequest("order: a list of tiles")
    pool = [tile_of(x) for x in order]
    engine = TOP - (rnd - 1)
    if sorted(pool) != sorted(the_set() - {(engine, engine)}):
        raise BadRequest(f"order: not the double-{TOP} set without [{engine}-{engine}]")
    t = Table()
    t.round, t.engine = rnd, engine
    size = SIZES[players]
    if bug(1):
        t.hands = [set(pool[s:players * size:players]) for s in range(players)]
    else:
        t.hands = [set(pool[s * size:(s + 1) * size]) for s in range(players)]  # DEAL-1
    t.boneyard = pool[players * size:]
    t.trains = [Train(engine) for _ in range(players)]
    t.mexican = Train(engine)
    t.seat = t.starter = (rnd - 1) % players  # SEAT-3
    t.first_turns = set(range(players))
    t.scores = [0] * players
    t.outs = [0] * players
    return t


class SetupRefused(Exception):
    def __init__(self, message: str, clause: str) -> None:
        super().__init__(message)
        self.clause = clause


# --- the protocol ------------------------------------------------------------------

def check_ruleset(raw: Any) -> None:
    if not isinstance(raw, dict) or not isinstance(raw.get("options"), dict):
        raise BadRequest("ruleset: an object with options")


def handle(req: dict[str, Any]) -> dict[str, Any]:
    kind = req.get("type")
    if kind not in REQUEST_KEYS:
        raise BadRequest(f"unknown request type {kind!r}")
    extra = set(req) - REQUEST_KEYS[kind] - {"id", "type"}
    if extra:
        raise BadRequest(f"unknown field(s): {', '.join(sorted(extra))}")
    if kind == "hello":
        if req.get("protocol") != 1:
            return {"ok": False, "error": {"kind": "protocol-version", "supported": [1],
                                           "message": "coaling speaks protocol 1"}}
        rules = {"name": NAME, "options": RULES,
                 "hand_sizes": {str(k): v for k, v in SIZES.items()}}
        return {"ok": True, "protocol": 1, "name": NAME, "version": "1.0", "rules": rules}
    if kind == "shutdown":
        return {"ok": True}
    check_ruleset(req.get("ruleset"))
    if kind == "deal":
        return {"ok": True, "state": dump_table(
            deal(req.get("players"), req.get("round"), req.get("order")))}
    t = read_table(req.get("state"))
    if t.players not in SIZES:
        raise SetupRefused(f"coaling has no table of {t.players}", "DEAL-7")
    if kind == "legal":
        return {"ok": True, "actions": legal(t)}
    if kind == "apply":
        try:
            return {"ok": True, "state": dump_table(apply(t, req.get("action")))}
        except Refusal as r:
            return {"ok": True, "refused": {"reason": str(r), "clause": r.clause}}
    if kind == "score":
        winner = req.get("winner")
        if winner is None and "winner" not in req:
            if t.phase != "over" or t.result is None:
                raise BadRequest("score: no winner and the round is not over")
        elif winner is not None and t.hands[winner]:
            raise BadRequest("score: the winner's hand is not empty")
        return {"ok": True, "scores": round_scores(t)}
    return {"ok": True, "winners": winners(t)}


def answer(line: str) -> tuple[dict[str, Any], bool]:
    try:
        req = json.loads(line)
    except ValueError as e:
        return {"id": None, "ok": False, "error": {"kind": "bad-request",
                                                   "message": f"not JSON: {e}"}}, False
    if not isinstance(req, dict):
        return {"id": None, "ok": False, "error": {"kind": "bad-request",
                                                   "message": "not an object"}}, False
    rid = req.get("id")
    try:
        out = handle(req)
    except BadRequest as e:
        out = {"ok": False, "error": {"kind": "bad-request", "message": str(e)}}
    except Unsupported as e:
        out = {"ok": False, "error": {"kind": "unsupported", "message": str(e)}}
    except SetupRefused as e:
        out = {"ok": False, "error": {"kind": "refused-setup", "message": str(e),
                                      "clause": e.clause}}
    except Exception as e:  # a bug answers `internal`, never a traceback
        out = {"ok": False, "error": {"kind": "internal", "message": repr(e)}}
    return {"id": rid, **out}, req.get("type") == "shutdown"


def main(argv: list[str]) -> None:
    if "--fixed" in argv:
        i = argv.index("--fixed")
        off = argv[i + 1] if i + 1 < len(argv) else "1,2,3"
        BUGS.difference_update(int(x) for x in off.split(",") if x.strip())
    for line in sys.stdin:
        if not line.strip():
            continue
        out, done = answer(line)
        sys.stdout.write(json.dumps(out, separators=(",", ":")) + "\n")
        sys.stdout.flush()
        if done:
            return


if __name__ == "__main__":
    main(sys.argv[1:])
