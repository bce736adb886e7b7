#!/usr/bin/env python3
"""Railyard: the rules core of a Mexican Train bot server, tiles as small integers and a
state record, wired to the suite's protocol from docs/protocol.md (it imports nothing from
mtrain), to try the suite as its author would. Its house rules and planted bugs were
written down here before the suite ran on it.

Rules it plays (its rule-set file: tests/examples/railyard-rules.yaml):
- pagat's table play: a double-12 set, every tile dealt and the engine laid by its holder,
  who starts (nobody holds it: players draw for it in turn); a first turn of chains on
  one's own train; the tile after a double anywhere; a double nobody can cover stays open;
  a marker comes off when its owner plays on their own train; draw one;
- HOUSE RULE, a hand table of its own: 2 players 15, 3 players 14, 4 players 13,
  5 players 12, 6 players 11, 7 players 10, 8 players 9;
- positive scoring with blanks at 25 an end, a tie to the most rounds gone out (known
  values `positive`, `blank-25`, `most-outs`);
- HOUSE RULE no value describes (`double_order: other`): of several open doubles, the one
  laid last must be covered first;
- HOUSE RULE no value describes (`blocked_round: other`): with the boneyard empty, the
  first player who has to pass ends the round, blocked.

Planted bugs (what the suite must find):
1. a player who cannot start their train on their first turn is offered `draw`, not
   `pass` (FIRST-3: no drawing on a first turn of chains; the marker goes up);
2. a first-turn chain may always be ended, even on a double the player could cover
   (FIRST-4).

Its hello claims `variants: ["pagat"]` (its author thinks it plays pagat); its refusals
cite the suite's clause ids, and `HOUSE-1` for its own doubles order.

`--fixed 1,2` switches the planted bugs off (the tests check that what fails then is no
rule difference).

    mtrain conform --impl "python tests/examples/railyard_engine.py" \\
        --rules tests/examples/railyard-rules.yaml
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from typing import Any

N = 12
FIXED: set[str] = set()  # planted bugs switched off (--fixed)
SIZES = {2: 15, 3: 14, 4: 13, 5: 12, 6: 11, 7: 10, 8: 9}
HI = [a for a in range(N + 1) for b in range(a + 1)]
LO = [b for a in range(N + 1) for b in range(a + 1)]
TILES = len(HI)


def tid(a: int, b: int) -> int:
    a, b = max(a, b), min(a, b)
    return a * (a + 1) // 2 + b


def tname(t: int) -> str:
    return f"{HI[t]}-{LO[t]}"


def tparse(x: Any) -> int:
    try:
        a, b = (int(v) for v in str(x).split("-"))
    except ValueError:
        raise Bad(f"not a tile: {x!r}") from None
    if not (0 <= a <= N and 0 <= b <= N):
        raise Bad(f"not a double-12 tile: {x!r}")
    return tid(a, b)


def value(t: int) -> int:
    return sum(25 if e == 0 else e for e in (HI[t], LO[t]))  # blanks at 25 an end


class Bad(Exception):
    pass


class Illegal(Exception):
    def __init__(self, clause: str | None, reason: str) -> None:
        super().__init__(reason)
        self.clause, self.reason = clause, reason


class NoSuchSetup(Exception):
    pass


@dataclass
class S:
    n: int
    rnd: int
    engine: int
    placed: bool
    phase: str
    seat: int
    starter: int
    hands: list[set[int]]
    bone: list[int]
    trains: list[list[tuple[int, int]]]  # index n: the Mexican Train; (near, far)
    marks: list[bool]
    opened: list[int] = field(default_factory=list)
    laid: list[int] = field(default_factory=list)
    drawn: int = -1
    firsts: set[int] = field(default_factory=set)
    passes: int = 0
    scores: list[int] = field(default_factory=list)
    outs: list[int] = field(default_factory=list)
    result: Any = None

    def end(self, k: int) -> int:
        return self.trains[k][-1][1] if self.trains[k] else self.engine


def train_in(v: Any, n: int) -> int:
    if v == "mexican":
        return n
    if isinstance(v, int) and not isinstance(v, bool) and 0 <= v < n:
        return v
    raise Illegal("TRAIN-1", f"no train {v!r}")


def train_out(k: int, n: int) -> int | str:
    return "mexican" if k == n else k


def read(j: Any) -> S:
    if not isinstance(j, dict):
        raise Bad("state must be an object")
    try:
        n = len(j["hands"])
        if n not in SIZES:
            raise NoSuchSetup(f"no game of {n} players")
        s = S(n=n, rnd=j["round"], engine=j["engine"], placed=j["engine_placed"],
              phase=j["phase"], seat=j["seat"], starter=j["starter"],
              hands=[{tparse(x) for x in h} for h in j["hands"]],
              bone=[tparse(x) for x in j["boneyard"]],
              trains=[[(int(str(x).split("-")[0]), int(str(x).split("-")[1]))
                       for x in tr["tiles"]] for tr in [*j["trains"], j["mexican"]]],
              marks=[bool(tr["marker"]) for tr in j["trains"]])
        s.opened = [train_in(k, n) for k in j["open_doubles"]]
        s.laid = [train_in(k, n) for k in j["turn_doubles"]]
        s.drawn = tparse(j["drawn"]) if j["drawn"] is not None else -1
        s.firsts = set(j["first_turns"])
        s.passes, s.scores, s.outs, s.result = j["passes"], j["scores"], j["outs"], j["result"]
    except (KeyError, TypeError, ValueError, IndexError) as e:
        raise Bad(f"malformed state: {e!r}") from None
    return s


def write(s: S) -> dict[str, Any]:
    def train(k: int) -> dict[str, Any]:
        out: dict[str, Any] = {"tiles": [f"{a}-{b}" for a, b in s.trains[k]], "end": s.end(k)}
        if k < s.n:
            out["marker"] = s.marks[k]
        return out

    return {"round": s.rnd, "engine": s.engine, "engine_placed": s.placed, "phase": s.phase,
            "seat": s.seat, "starter": s.starter,
            "hands": [[tname(t) for t in sorted(h, key=lambda t: (HI[t], LO[t]), reverse=True)]
                      for h in s.hands],
            "boneyard": [tname(t) for t in s.bone],
            "trains": [train(k) for k in range(s.n)], "mexican": train(s.n),
            "open_doubles": [train_out(k, s.n) for k in s.opened],
            "turn_doubles": [train_out(k, s.n) for k in s.laid],
            "drawn": tname(s.drawn) if s.drawn >= 0 else None,
            "first_turns": sorted(s.firsts), "passes": s.passes,
            "scores": list(s.scores), "outs": list(s.outs), "result": s.result}


# --- the rules -------------------------------------------------------------------------


def chaining(s: S) -> bool:
    return s.phase == "chain" or (s.phase == "start" and s.seat in s.firsts)


def duty(s: S) -> list[int]:
    if s.firsts:
        return []  # chain doubles wait for the end of the first turns
    waiting = [k for k in s.opened if k not in s.laid]
    return waiting[-1:]  # HOUSE RULE: the newest open double first


def allowed_trains(s: S) -> list[int]:
    if chaining(s):
        return [s.seat]
    d = duty(s)
    if d:
        return d
    base = [s.seat, s.n] + [k for k in range(s.n) if k != s.seat and s.marks[k]]
    if s.phase == "follow":
        base += [k for k in s.laid if k not in base]
    return base


def plays(s: S) -> list[tuple[int, int]]:
    hand = {s.drawn} if s.drawn >= 0 else s.hands[s.seat]
    return [(t, k) for k in allowed_trains(s) for t in sorted(hand)
            if s.end(k) in (HI[t], LO[t])]


def legal(s: S) -> list[dict[str, Any]]:
    if s.phase == "over":
        return []
    if s.phase == "engine":
        return [{"type": "draw"}]
    out: list[dict[str, Any]] = [{"type": "play", "tile": tname(t), "train": train_out(k, s.n)}
                                 for t, k in plays(s)]
    if s.phase == "chain":
        if "2" not in FIXED or not any(k in s.laid for _, k in plays(s)):
            out.append({"type": "end-chain"})  # BUG 2: even on a double it could cover
        return out
    if out:
        return out
    if s.bone and s.drawn < 0 and not ("1" in FIXED and chaining(s)):
        return [{"type": "draw"}]  # BUG 1: also on a first turn, where it marks instead
    return [{"type": "pass"}]


def refusal(s: S, a: dict[str, Any]) -> Illegal:
    kind = a.get("type")
    if s.phase == "over":
        return Illegal("END-1", "the round is over")
    if s.phase == "engine":
        return Illegal("ENG-4", "draw for the engine first")
    if kind == "end-chain" and s.phase == "chain":
        return Illegal("FIRST-4", "cover the double the chain ends on first")
    if kind == "end-chain":
        return Illegal("FIRST-1", "no chain to end")
    if kind in ("draw", "pass"):
        if s.phase == "chain":
            return Illegal("FIRST-1", "end the chain instead")
        if plays(s):
            return Illegal("TURN-1", "a tile can be played")
        if kind == "draw" and "1" in FIXED and s.phase == "start" and s.seat in s.firsts:
            return Illegal("FIRST-3", "no drawing on a first turn: pass, marker up")
        if kind == "draw" and not s.bone:
            return Illegal("TURN-4", "the boneyard is empty")
        return Illegal("TURN-2", "one draw, then pass" if kind == "draw" else "draw first")
    if kind != "play":
        return Illegal("TURN-7", f"unknown action {kind!r}")
    t = tparse(a.get("tile"))
    k = train_in(a.get("train"), s.n)
    if t not in s.hands[s.seat]:
        return Illegal("TURN-7", f"{tname(t)} is not in hand")
    if s.end(k) not in (HI[t], LO[t]):
        return Illegal("TRAIN-2", f"{tname(t)} does not match {s.end(k)}")
    if s.drawn >= 0 and t != s.drawn:
        return Illegal("TURN-3", "only the drawn tile")
    if k != s.seat and k != s.n and not s.marks[k] and k not in s.opened:
        return Illegal("TRAIN-4", f"train {k} is not marked")
    if chaining(s):
        return Illegal("FIRST-2", "a first-turn chain stays on your own train")
    d = duty(s)
    if d and k in s.opened:
        return Illegal("HOUSE-1", "the newest open double is covered first")
    if d:
        return Illegal("DBL-6", "cover the open double first")
    return Illegal(None, "not allowed")


def finish(s: S, winner: int) -> None:
    got = scores_of(s, winner)
    s.scores = [a + b for a, b in zip(s.scores, got, strict=True)]
    if winner >= 0:
        s.outs[winner] += 1
    s.result = {"end": "domino" if winner >= 0 else "blocked",
                "winner": winner if winner >= 0 else None, "scores": got}
    s.phase, s.laid, s.drawn = "over", [], -1


def scores_of(s: S, winner: int) -> list[int]:
    out = [0] * s.n
    if winner >= 0:
        out[winner] = sum(value(t) for h in s.hands for t in h)
    return out


def next_turn(s: S) -> None:
    s.laid, s.drawn = [], -1
    s.firsts.discard(s.seat)
    s.seat = (s.seat + 1) % s.n
    s.phase = "start"


def place_engine(s: S, holder: int) -> None:
    s.placed, s.seat, s.starter, s.phase = True, holder, holder, "start"


def act(s: S, a: Any) -> None:
    if not isinstance(a, dict):
        raise Bad("an action is an object")
    if a not in legal(s):
        raise refusal(s, a)
    kind, me = a["type"], s.seat
    if kind == "draw":
        t = s.bone.pop(0)
        if s.phase == "engine":
            if t == tid(s.engine, s.engine):
                place_engine(s, me)
            else:
                s.hands[me].add(t)
                s.seat = (me + 1) % s.n
            return
        s.hands[me].add(t)
        s.drawn = t
        return
    if kind == "pass":
        s.marks[me] = True
        if not s.bone:
            s.passes += 1
            next_turn(s)
            finish(s, -1)  # HOUSE RULE: the first pass on an empty boneyard ends it
            return
        next_turn(s)
        return
    if kind == "end-chain":
        next_turn(s)
        return
    t, k = tparse(a["tile"]), train_in(a["train"], s.n)
    s.hands[me].discard(t)
    near = s.end(k)
    s.trains[k].append((near, HI[t] + LO[t] - near))
    if k == me:
        s.marks[me] = False
    if k in s.opened:
        s.opened.remove(k)
        if k in s.laid:
            s.laid.remove(k)
    double = HI[t] == LO[t]
    if double:
        s.opened.append(k)
        s.laid.append(k)
    s.drawn, s.passes = -1, 0
    if not s.hands[me]:
        finish(s, me)
    elif chaining(s):
        s.phase = "chain"
    elif double:
        s.phase = "follow"
    else:
        next_turn(s)


def deal(n: int, rnd: int, order: list[str]) -> S:
    if n not in SIZES:
        raise NoSuchSetup(f"railyard deals to 2 to 8 players, not {n}")
    if not 1 <= rnd <= N + 1:
        raise Bad(f"no round {rnd}")
    tiles = [tparse(x) for x in order]
    if sorted(tiles) != list(range(TILES)):
        raise Bad("the pool must hold every tile once")
    h = SIZES[n]
    engine = N - (rnd - 1)
    first = (rnd - 1) % n
    s = S(n=n, rnd=rnd, engine=engine, placed=False, phase="engine", seat=first,
          starter=first, hands=[set(tiles[i * h:(i + 1) * h]) for i in range(n)],
          bone=tiles[n * h:], trains=[[] for _ in range(n + 1)], marks=[False] * n,
          firsts=set(range(n)), scores=[0] * n, outs=[0] * n)
    e = tid(engine, engine)
    for seat in range(n):
        if e in s.hands[seat]:
            s.hands[seat].discard(e)
            place_engine(s, seat)
            break
    return s


def winners(s: S) -> list[int]:
    if s.phase != "over" or s.rnd < N + 1:
        return []
    best = max(s.scores)
    tied = [i for i, v in enumerate(s.scores) if v == best]
    most = max(s.outs[i] for i in tied)
    return [i for i in tied if s.outs[i] == most]


# --- the server --------------------------------------------------------------------------


def reply(req: dict[str, Any]) -> dict[str, Any]:
    kind = req.get("type")
    if kind == "hello":
        return {"protocol": 1, "name": "railyard", "version": "2.1.0", "variants": ["pagat"]}
    if kind == "shutdown":
        return {}
    if kind == "deal":
        return {"state": write(deal(req.get("players", 0), req.get("round", 0),
                                    req.get("order", [])))}
    s = read(req.get("state"))
    if kind == "legal":
        return {"actions": legal(s)}
    if kind == "apply":
        try:
            act(s, req.get("action"))
        except Illegal as e:
            return {"refused": {"reason": e.reason, "clause": e.clause}}
        return {"state": write(s)}
    if kind == "score":
        w = req.get("winner") if "winner" in req else (s.result or {}).get("winner")
        return {"scores": scores_of(s, -1 if w is None else w)}
    if kind == "winners":
        return {"winners": winners(s)}
    raise Bad(f"unknown request {kind!r}")


def main() -> None:
    for line in sys.stdin:
        if not line.strip():
            continue
        rid, kind = None, None
        try:
            req = json.loads(line)
            rid, kind = req.get("id"), req.get("type")
            out: dict[str, Any] = {"id": rid, "ok": True, **reply(req)}
        except NoSuchSetup as e:
            out = {"id": rid, "ok": False,
                   "error": {"kind": "refused-setup", "message": str(e), "clause": "DEAL-7"}}
        except (Bad, Illegal) as e:
            out = {"id": rid, "ok": False, "error": {"kind": "bad-request", "message": str(e)}}
        except Exception as e:  # a bug
            out = {"id": rid, "ok": False, "error": {"kind": "internal", "message": repr(e)}}
        sys.stdout.write(json.dumps(out) + "\n")
        sys.stdout.flush()
        if kind == "shutdown":
            return


if __name__ == "__main__":
    if sys.argv[1:2] == ["--fixed"]:
        FIXED.update(sys.argv[2].split(","))
    main()
