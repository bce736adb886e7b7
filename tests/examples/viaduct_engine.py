#!/usr/bin/env python3
"""Viaduct: Mexican Train on a double-18 set for four to fourteen, as a club plays it at
its big tables on game night, written from docs/protocol.md, docs/implementers-guide.md and
README.md alone (it imports nothing from mtrain), to try the suite as its author would.
Its house rules and planted bugs were written down here before the suite ran on it.

Rules it plays (its rule-set file: tests/examples/viaduct-rules.yaml; its hello declares
the same):
- a double-18 set (190 tiles); the round's engine, [18-18] in round 1 and one lower each
  round, is set aside before the deal and placed in the centre (`set-aside`); round r
  starts at seat (r - 1) mod n (`rotate`); one tile a turn from the start, anyone may open
  the Mexican Train, nobody must start their own train first (`single`, `anyone`,
  `not-required`);
- HOUSE RULE, a table of its own: 4 players 18 tiles, 5 players 17, 6 players 16,
  7 players 15, 8 players 14, then the club's "big table" rows: 9 and 10 players 11,
  11 and 12 players 10, 13 players 9, 14 players 8; any other number of players is
  refused (DEAL-7);
- open doubles (`open`): the tile after a double goes anywhere the player may play, the
  double included (`anywhere`); of several open doubles the oldest is covered first
  (`oldest-first`);
- HOUSE RULE no value describes (`uncoverable_double: other`, "all flags up"): an open
  double laid on an earlier turn binds (closes every other train, DBL-6) only while at
  least one personal train is without its marker. Once every personal train carries its
  marker (everyone has had to pass), no double binds anyone: every train is open, the
  double's included;
- a marker comes off as soon as anyone plays a tile on that train (`anyone-plays-on`); a
  player who cannot play draws one tile (`draw-one`) and plays it or passes, marker up;
- HOUSE RULE no value describes (`blocked_round: other`, "twice round the table"): with
  the boneyard empty, the round ends blocked once every player has passed twice in a row
  (2n passes with no tile laid): after the first lap every marker is up, and the second
  lap gives each player a go at the trains the others opened;
- positive scoring at face value (`positive`, `face`): whoever goes out scores the pips
  left in every other hand; a blocked round scores nothing; the highest total wins;
- HOUSE RULE no value describes (`tie_rule: other`, "lightest hand"): among players on
  the winning total, the one holding the fewest tiles when the last round ended wins;
  if that is equal too, they share the win;
- HOUSE RULE no value describes (`match_length: other`, "everyone leads alike"): the
  match has the largest multiple of n rounds that a double-18 set gives (at most 19), so
  that under the rotating start every seat leads as often as the others: 16 rounds for
  4 players, 15 for 5, 18 for 6, 14 for 7 and 14, 10 for 10; a later round's deal, or a
  table of one, is refused (no such round).

Like the club's scoring app, it writes a hand in its own order (fewest pips first) and
each tile in it low end first ("3-12"), lists a play with the matching end first ("5-12"
on a train ending in 5), lists the Mexican Train's plays before the personal trains',
and ignores any field of a request it does not use.

Planted bugs (what the suite must find), each with the clause it breaks:
1. "ninth-colour": the app keeps markers by the colour of the train piece, and the box
   has nine colours: seat s has colour s mod 9. When a tile is laid on a marked train,
   the app clears the marker of every train of that colour, so at ten or more players a
   play on train 0 also takes seat 9's marker off (and 9's takes 0's; 1 and 10, ...)
   (MARK-4: the marker of the train played on comes off, no other);
2. "blocked-pips": a blocked round (only possible once the boneyard is empty) scores each
   player the pips left in their own hand, the penalty habit, where positive scoring
   gives nobody anything (SCORE-6); `score` with no winner is answered the same way;
3. "tie-nudge": at the end of the match's last round, where the highest totals are equal,
   the app writes its tie-break into the totals: the tie-break winner's total gets one
   point more than the round gave (MATCH-1: a total is the sum of the round scores).

Found by the suite, not planted (and fixed): a double laid as the last tile (END-1: it
needs no cover) was left out of `open_doubles`, which the invariant INV-OPEN-DOUBLES
requires listed; conform charged it to DBL-1 (5 situations from play); and the check
that a deal's pool is the set without the engine compared two lists in different orders.

Its refusals name a clause where one says why (a house rule has none). All three bugs are
on by default; `--fixed 1,2,3` switches them off (or some of them).

    mtrain conform --impl "python tests/examples/viaduct_engine.py --fixed 1,2,3" \\
        --rules tests/examples/viaduct-rules.yaml
"""

from __future__ import annotations

import copy
import json
import sys
from typing import Any

TOP = 18
ROUNDS = TOP + 1  # the engines of a double-18 set, [18-18] down to [0-0]
SIZES = {4: 18, 5: 17, 6: 16, 7: 15, 8: 14, 9: 11, 10: 11, 11: 10, 12: 10, 13: 9, 14: 8}
COLOURS = 9  # train pieces in the club's box (planted bug 1)
BUGS = {"1": "ninth-colour", "2": "blocked-pips", "3": "tie-nudge"}
FIXED: set[str] = set()  # the planted bugs switched off (--fixed)

OPTIONS = {
    "tile_set": "double-18", "hand_sizes": "custom", "engine_procedure": "set-aside",
    "starting_seat": "rotate", "first_turn": "single", "mexican_first_turn": "anyone",
    "own_train_first": "not-required", "doubles": "open", "follow_up": "anywhere",
    "double_order": "oldest-first", "uncoverable_double": "other",
    "marker_removal": "anyone-plays-on", "draw_rule": "draw-one",
    "blocked_round": "other", "scoring": "positive", "blank_values": "face",
    "tie_rule": "other", "match_length": "other",
}

State = dict[str, Any]
Action = dict[str, Any]


def on(bug: str) -> bool:
    return any(name == bug and number not in FIXED for number, name in BUGS.items())


def match_rounds(players: int) -> int:
    """HOUSE RULE (match_length: other): every seat leads as often as the others."""
    return ROUNDS - ROUNDS % players


class Error(Exception):
    """An error answer: the request gets none."""

    def __init__(self, kind: str, message: str, clause: str | None = None) -> None:
        super().__init__(message)
        self.kind, self.message, self.clause = kind, message, clause


class Refused(Exception):
    def __init__(self, reason: str, clause: str | None) -> None:
        super().__init__(reason)
        self.reason, self.clause = reason, clause


# --- tiles: the app keeps a tile as (low, high) and writes it low end first -------------

def ends(text: Any) -> tuple[int, int]:
    parts = text.split("-") if isinstance(text, str) else []
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        raise Error("bad-request", f"not a tile: {text!r}")
    a, b = int(parts[0]), int(parts[1])
    return min(a, b), max(a, b)


def low_first(text: str) -> str:
    a, b = ends(text)
    return f"{a}-{b}"


def same(x: str, y: str) -> bool:
    return ends(x) == ends(y)


def pips(text: str) -> int:
    return sum(ends(text))


def app_order(hand: list[str]) -> list[str]:
    """The app's hand: fewest pips first, each tile low end first."""
    return sorted((low_first(t) for t in hand), key=lambda t: (pips(t), ends(t)))


def full_set() -> list[tuple[int, int]]:
    return [(a, b) for b in range(TOP + 1) for a in range(b + 1)]


# --- questions about a state ------------------------------------------------------------

def seats(st: State) -> int:
    return len(st["hands"])


def train(st: State, where: Any) -> dict[str, Any]:
    found: dict[str, Any] = st["mexican"] if where == "mexican" else st["trains"][where]
    return found


def all_flags_up(st: State) -> bool:
    return all(t["marker"] for t in st["trains"])


def duty(st: State) -> Any:
    """The double the mover must cover: the oldest open one laid before this turn, unless
    every personal train carries its marker (HOUSE RULE, uncoverable_double: other)."""
    if all_flags_up(st):
        return None
    for where in st["open_doubles"]:
        if where not in st["turn_doubles"]:
            return where  # DBL-6, DBL-7
    return None


def in_hand(st: State) -> list[str]:
    """The tiles the mover may lay: the drawn one alone after a draw (TURN-3)."""
    return [st["drawn"]] if st["drawn"] is not None else list(st["hands"][st["seat"]])


def targets(st: State) -> list[Any]:
    me = st["seat"]
    owed = duty(st)
    if owed is not None:
        return [owed]  # DBL-6, DBL-7: the oldest open double first, wherever it lies
    out = ["mexican", me, *(s for s in range(seats(st))
                            if s != me and st["trains"][s]["marker"])]  # TRAIN-4, MARK-2
    out += [w for w in st["open_doubles"] if w not in out]  # DBL-2, TRAIN-6
    return out


def plays(st: State) -> list[tuple[str, Any]]:
    out = []
    for w in targets(st):
        end = int(train(st, w)["end"])
        for t in in_hand(st):
            a, b = ends(t)
            if end in (a, b):  # TRAIN-2
                out.append((f"{end}-{b if a == end else a}", w))  # matching end first
    return out


def legal(st: State) -> list[Action]:
    if st["phase"] == "over":
        return []
    found: list[Action] = [{"type": "play", "tile": t, "train": w} for t, w in plays(st)]
    if found:
        return found  # TURN-1
    if st["boneyard"] and st["drawn"] is None:
        return [{"type": "draw"}]  # TURN-2
    return [{"type": "pass"}]  # TURN-4, DBL-5


# --- changes ------------------------------------------------------------------------------

def next_turn(st: State) -> None:
    me = st["seat"]
    st["first_turns"] = [s for s in st["first_turns"] if s != me]  # FIRST-6
    st["seat"] = (me + 1) % seats(st)  # SEAT-1
    st["phase"], st["drawn"], st["turn_doubles"] = "start", None, []


def score(hands: list[list[str]], winner: int | None) -> list[int]:
    if winner is None:
        if on("blocked-pips"):
            return [sum(map(pips, hand)) for hand in hands]  # (planted bug 2)
        return [0] * len(hands)  # SCORE-6: a blocked round scores nothing
    left = sum(sum(map(pips, hand)) for hand in hands)  # SCORE-1
    return [left if s == winner else 0 for s in range(len(hands))]  # SCORE-6


def tie_break(st: State, tied: list[int]) -> list[int]:
    """HOUSE RULE (tie_rule: other): the fewest tiles in hand at the end wins; if that is
    equal too, the win is shared."""
    fewest = min(len(st["hands"][s]) for s in tied)
    return [s for s in tied if len(st["hands"][s]) == fewest]


def top_totals(st: State) -> list[int]:
    high = max(st["scores"])  # MATCH-3: the highest total wins
    return [s for s, total in enumerate(st["scores"]) if total == high]


def end_round(st: State, winner: int | None) -> None:
    got = score(st["hands"], winner)
    st["phase"], st["drawn"], st["turn_doubles"] = "over", None, []
    st["result"] = {"end": "blocked" if winner is None else "domino", "winner": winner,
                    "scores": got}
    st["scores"] = [a + b for a, b in zip(st["scores"], got, strict=True)]  # MATCH-1
    if winner is not None:
        st["outs"][winner] += 1
    if on("tie-nudge") and st["round"] == match_rounds(seats(st)):
        tied = top_totals(st)
        alone = tie_break(st, tied)
        if len(tied) > 1 and len(alone) == 1:
            st["scores"][alone[0]] += 1  # (planted bug 3)


def lay(st: State, tile: str, where: Any) -> None:
    me = st["seat"]
    held = next(t for t in st["hands"][me] if same(t, tile))
    st["hands"][me].remove(held)
    line = train(st, where)
    near = int(line["end"])
    a, b = ends(tile)
    far = b if a == near else a
    line["tiles"].append(f"{near}-{far}")
    line["end"] = far
    if where in st["open_doubles"]:
        st["open_doubles"].remove(where)  # TRAIN-3: one tile covers it
    if where in st["turn_doubles"]:
        st["turn_doubles"].remove(where)
    if where != "mexican" and line["marker"]:
        if on("ninth-colour"):  # (planted bug 1: every train of its colour)
            for s, t in enumerate(st["trains"]):
                if s % COLOURS == where % COLOURS:
                    t["marker"] = False
        line["marker"] = False  # MARK-4: anyone's tile takes it off
    st["passes"], st["drawn"] = 0, None
    if a == b:
        st["open_doubles"].append(where)  # listed even as the last tile (found: see above)
    if not st["hands"][me]:
        st["first_turns"] = [s for s in st["first_turns"] if s != me]
        end_round(st, me)  # END-1, on a double too
    elif a == b:
        st["turn_doubles"].append(where)
        st["phase"] = "follow"  # DBL-1
    else:
        next_turn(st)  # TURN-6


def draw(st: State) -> None:
    tile = st["boneyard"].pop(0)  # TURN-2: from the front
    st["hands"][st["seat"]] = app_order([*st["hands"][st["seat"]], tile])
    st["drawn"] = low_first(tile)


def pass_turn(st: State) -> None:
    st["trains"][st["seat"]]["marker"] = True  # TURN-4, MARK-1
    st["passes"] = 0 if st["boneyard"] else st["passes"] + 1
    next_turn(st)
    if not st["boneyard"] and st["passes"] >= 2 * seats(st):
        end_round(st, None)  # HOUSE RULE (blocked_round: other): twice round the table


def refusal(st: State, act: Action) -> Refused:
    kind = act.get("type")
    if kind == "end-chain":
        return Refused("one tile a turn: there is no chain to end", "FIRST-7")
    if kind in ("draw", "pass"):
        if plays(st):
            return Refused("a tile can be played", "TURN-1")
        if kind == "draw":
            if not st["boneyard"]:
                return Refused("the boneyard is empty", "TURN-4")
            return Refused("one tile drawn a turn", "TURN-2")
        return Refused("draw first: the boneyard holds tiles", "TURN-2")
    if kind != "play":
        raise Error("bad-request", f"no action {kind!r}")
    a, b = ends(act.get("tile"))
    if b > TOP:
        return Refused(f"{a}-{b} is no tile of the double-18 set", "SET-1")
    where = act.get("train")
    if where != "mexican" and (not isinstance(where, int) or isinstance(where, bool)
                               or not 0 <= where < seats(st)):
        return Refused(f"no train {where!r} at a table of {seats(st)}", "TRAIN-1")
    if not any(same(t, f"{a}-{b}") for t in st["hands"][st["seat"]]):
        return Refused(f"seat {st['seat']} does not hold {a}-{b}", "TURN-7")
    end = int(train(st, where)["end"])
    if end not in (a, b):
        return Refused(f"{a}-{b} does not match the open end {end}", "TRAIN-2")
    if st["drawn"] is not None and not same(st["drawn"], f"{a}-{b}"):
        return Refused(f"only the drawn tile {st['drawn']} may be played", "TURN-3")
    if where not in ("mexican", st["seat"]) and not train(st, where)["marker"] \
            and where not in st["open_doubles"]:
        return Refused(f"seat {where}'s train carries no marker", "TRAIN-4")
    owed = duty(st)
    if owed is not None:
        return Refused(f"the double on train {owed} must be covered first",
                       "DBL-7" if where in st["open_doubles"] else "DBL-6")
    return Refused(f"{a}-{b} cannot go on train {where} now", None)


def apply(st: State, act: Action) -> State:
    if st["phase"] == "over":
        raise Refused("the round is over", "END-1")
    kind = act.get("type")
    if kind == "play":
        where = act.get("train")
        tile = act.get("tile")
        for t, w in plays(st):
            if w == where and isinstance(tile, str) and same(t, tile):
                lay(st, t, w)
                return st
    elif kind in ("draw", "pass") and {"type": kind} in legal(st):
        {"draw": draw, "pass": pass_turn}[str(kind)](st)
        return st
    raise refusal(st, act)


# --- requests ---------------------------------------------------------------------------

def refuse_count(players: int) -> Error:
    return Error("refused-setup", f"viaduct is for 4 to 14 players, not {players}", "DEAL-7")


def refuse_round(rnd: int, players: int) -> Error:
    # HOUSE RULE (match_length: other): no clause names the club's match
    return Error("refused-setup",
                 f"a match of {players} has rounds 1 to {match_rounds(players)}, not {rnd}")


def deal(req: dict[str, Any]) -> State:
    players, rnd, order = req.get("players"), req.get("round"), req.get("order")
    if not isinstance(players, int) or not isinstance(rnd, int) or not isinstance(order, list):
        raise Error("bad-request", "deal needs players, round and order")
    size = SIZES.get(players)
    if size is None:
        raise refuse_count(players)
    if not 1 <= rnd <= ROUNDS:
        raise Error("bad-request", f"a double-18 match has rounds 1 to {ROUNDS}")
    if rnd > match_rounds(players):
        raise refuse_round(rnd, players)
    engine = TOP + 1 - rnd  # ENG-1: the round's double, [18-18] down to [0-0]
    pool = [str(t) for t in order]
    if sorted(ends(t) for t in pool) != sorted(t for t in full_set() if t != (engine, engine)):
        raise Error("bad-request", f"order is not the double-18 set without {engine}-{engine}")
    first = (rnd - 1) % players  # SEAT-3
    hands = [pool[s * size:(s + 1) * size] for s in range(players)]  # DEAL-1, ENG-2
    return {
        "round": rnd, "engine": engine, "engine_placed": True, "phase": "start",
        "seat": first, "starter": first, "hands": [app_order(h) for h in hands],
        "boneyard": pool[players * size:],
        "trains": [{"tiles": [], "end": engine, "marker": False} for _ in range(players)],
        "mexican": {"tiles": [], "end": engine}, "open_doubles": [], "turn_doubles": [],
        "drawn": None, "first_turns": list(range(players)), "passes": 0,
        "scores": [0] * players, "outs": [0] * players, "result": None,
    }


def winners(st: State) -> list[int]:
    if st["phase"] != "over" or st["round"] < match_rounds(seats(st)):
        return []  # MATCH-1 (HOUSE RULE, match_length: other): the match goes on
    return tie_break(st, top_totals(st))


def table(req: dict[str, Any]) -> State:
    st = req.get("state")
    if not isinstance(st, dict) or not isinstance(st.get("hands"), list):
        raise Error("bad-request", f"{req.get('type')} needs a state")
    players = len(st["hands"])
    if players not in SIZES:
        raise refuse_count(players)
    rnd = st.get("round")
    if isinstance(rnd, int) and rnd > match_rounds(players):
        raise refuse_round(rnd, players)
    if st.get("phase") not in ("start", "follow", "over") or not st.get("engine_placed"):
        raise Error("unsupported", f"no {st.get('phase')!r} phase in a one-tile-a-turn game")
    st = copy.deepcopy(st)
    for s, hand in enumerate(st["hands"]):
        st["hands"][s] = app_order(hand)
    if st["drawn"] is not None:
        st["drawn"] = low_first(st["drawn"])
    return st


def answer(req: dict[str, Any]) -> dict[str, Any]:
    kind = req.get("type")
    if kind == "hello":
        if req.get("protocol") != 1:
            raise Error("protocol-version", "viaduct speaks protocol 1")
        rules = {"name": "viaduct", "options": OPTIONS,
                 "hand_sizes": {str(n): size for n, size in SIZES.items()}}
        return {"protocol": 1, "name": "viaduct", "version": "2.1", "rules": rules}
    if kind == "shutdown":
        return {}
    if kind == "deal":
        return {"state": deal(req)}
    if kind not in ("legal", "apply", "score", "winners"):
        raise Error("bad-request", f"unknown request type {kind!r}")
    st = table(req)
    if kind == "legal":
        return {"actions": legal(st)}
    if kind == "apply":
        act = req.get("action")
        if not isinstance(act, dict):
            raise Error("bad-request", "apply needs an action")
        try:
            return {"state": apply(st, act)}
        except Refused as r:
            return {"refused": {"reason": r.reason, "clause": r.clause}}
    if kind == "score":
        winner = req["winner"] if "winner" in req else (st.get("result") or {}).get("winner")
        return {"scores": score(st["hands"], winner)}
    return {"winners": winners(st)}


def main() -> None:
    for line in sys.stdin:
        if not line.strip():
            continue
        rid: Any = None
        kind: Any = None
        try:
            req = json.loads(line)
            rid, kind = req.get("id"), req.get("type")
            out: dict[str, Any] = {"id": rid, "ok": True, **answer(req)}
        except Error as e:
            err: dict[str, Any] = {"kind": e.kind, "message": e.message}
            if e.kind == "refused-setup":
                err["clause"] = e.clause
            if e.kind == "protocol-version":
                err["supported"] = [1]
            out = {"id": rid, "ok": False, "error": err}
        except Exception as e:  # our own bug: say so and keep serving
            out = {"id": rid, "ok": False, "error": {"kind": "internal", "message": repr(e)}}
        sys.stdout.write(json.dumps(out, separators=(",", ":")) + "\n")
        sys.stdout.flush()
        if kind == "shutdown":
            break


if __name__ == "__main__":
    if sys.argv[1:2] == ["--fixed"]:
        FIXED.update(sys.argv[2].split(","))
    main()
