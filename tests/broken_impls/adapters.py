"""In-process adapters for `--adapter tests/broken_impls/adapters.py:NAME`."""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Any

from mtrain.conformance.adapter import JSON, ReferenceImplementation
from mtrain.reference.deal import match_winners
from mtrain.reference.engine import OVER


class Reference(ReferenceImplementation):
    """The reference engine, subclassed as an implementer would."""


REFERENCE = Reference()


class ForgetsDraw(ReferenceImplementation):
    """Never offers [5-3] on train 0, and always offers a pass."""

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        actions = [a for a in super().legal(ruleset, state)
                   if a != {"type": "play", "tile": "5-3", "train": 0}]
        return [*actions, {"type": "pass"}]


class DeclaresPagatForgetsDraw(ForgetsDraw):
    """ForgetsDraw, declaring that it plays pagat's rules (`rules` in its info)."""

    def info(self) -> JSON:
        from mtrain.conformance.adapter import ruleset_json
        from mtrain.spec.catalog import catalog

        return {**super().info(), "rules": ruleset_json(catalog().ruleset("pagat"))}


class DeclaresPuremco(ReferenceImplementation):
    """The reference engine, declaring that it plays puremco's rules only."""

    def info(self) -> JSON:
        from mtrain.conformance.adapter import ruleset_json
        from mtrain.spec.catalog import catalog

        return {**super().info(), "rules": ruleset_json(catalog().ruleset("puremco"))}


class SinglePlayOnly(ReferenceImplementation):
    """The reference engine, saying it can play only single-tile first turns."""

    def info(self) -> JSON:
        return {**super().info(), "options": {"first_turn": ["single"]}}


class PuremcoOnly(ReferenceImplementation):
    def info(self) -> JSON:
        return {**super().info(), "variants": ["puremco", "puremco+*"]}


class Slow(ReferenceImplementation):
    """Hangs in legal() for basic-001 under puremco only."""

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        if ruleset["name"] == "puremco" and state["hands"][0] == ["9-1", "5-3"]:
            time.sleep(30)
        return super().legal(ruleset, state)


class Raises(ReferenceImplementation):
    def winners(self, ruleset: JSON, state: JSON) -> list[int]:
        raise KeyError("scores")


class NotAnEngine:
    def info(self) -> JSON:
        return {}


class Broken:
    def __init__(self) -> None:
        raise RuntimeError("no engine today")


class Spins(ReferenceImplementation):
    """Spins for ever (holding the interpreter) in legal() when seat 0's total is 777;
    first creates the file MTRAIN_TEST_SPINNING names, if set (a test waits for it)."""

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        if state["scores"][0] == 777:
            if os.environ.get("MTRAIN_TEST_SPINNING"):
                open(os.environ["MTRAIN_TEST_SPINNING"], "x").close()
            while True:
                pass
        return super().legal(ruleset, state)


class Mutates(ReferenceImplementation):
    """Writes on the state it is handed."""

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        actions = super().legal(ruleset, state)
        state["seat"] = 99
        return actions


class Interrupts(ReferenceImplementation):
    def winners(self, ruleset: JSON, state: JSON) -> list[int]:
        raise KeyboardInterrupt


class Exits(ReferenceImplementation):
    """exit(4) in winners(); its process dies (os._exit) in legal() for seat 0's [9-1]."""

    def winners(self, ruleset: JSON, state: JSON) -> list[int]:
        sys.exit(4)

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        if state["hands"][0] == ["9-1", "5-3"]:
            os._exit(3)
        return super().legal(ruleset, state)


class Chatty(ReferenceImplementation):
    """Prints on stdout at every call, as a debugging implementer might."""

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        print("legal() called with", json.dumps(state)[:40])
        return super().legal(ruleset, state)


class NoFollowUps(ReferenceImplementation):
    """Says `Unsupported` for every state in the follow-up phase (after a double)."""

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        from mtrain.conformance.adapter import Unsupported

        if state.get("phase") == "follow":
            raise Unsupported("this engine asks for the follow-up tile in its own dialog")
        return super().legal(ruleset, state)


class PassesUnmarked(ReferenceImplementation):
    """After a draw it cannot play, passes without putting its marker up (TURN-4)."""

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        new = super().apply(ruleset, state, action)
        if action.get("type") == "pass" and state.get("drawn") is not None:
            seat = state["seat"]
            if not state["trains"][seat].get("marker"):
                new["trains"][seat]["marker"] = False
        return new


class FirstTurnKept(ReferenceImplementation):
    """A pass on one's first turn keeps the first turn: a seat leaves `first_turns` only
    when it lays a tile (FIRST-6; tenwheeler's bug 3)."""

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        new = super().apply(ruleset, state, action)
        seat = state.get("seat")
        if (action.get("type") == "pass" and seat in state["first_turns"]
                and seat not in new["first_turns"]):
            new["first_turns"] = sorted([*new["first_turns"], seat])
        return new


class ScoresBlanksAtZero(ReferenceImplementation):
    """Plays right, but its `score` always counts blanks at face value."""

    def score(self, ruleset: JSON, state: JSON, winner: int | None) -> list[int]:
        if ruleset["options"]["scoring"] != "penalty":
            return super().score(ruleset, state, winner)
        return [sum(int(a) + int(b) for a, b in (t.split("-") for t in hand))
                for hand in state["hands"]]


class NamesNoClause(ReferenceImplementation):
    """Refuses what the reference refuses, but never says which clause."""

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        from mtrain.conformance.adapter import Refused

        try:
            return super().apply(ruleset, state, action)
        except Refused as e:
            raise Refused(e.reason, None) from None


class CitesTrain4(ReferenceImplementation):
    """Refuses what the reference refuses, always citing TRAIN-4."""

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        from mtrain.conformance.adapter import Refused

        try:
            return super().apply(ruleset, state, action)
        except Refused as e:
            raise Refused(e.reason, "TRAIN-4") from None


class NeverDraws(ReferenceImplementation):
    """Believes a tile in hand can always be played: offers the first tile of the hand on
    the Mexican Train instead of a draw, and refuses every draw."""

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        actions = super().legal(ruleset, state)
        if {"type": "draw"} in actions:
            hand = state["hands"][state["seat"]]
            return [{"type": "play", "tile": hand[0], "train": "mexican"}]
        return actions

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        from mtrain.conformance.adapter import Refused

        if action.get("type") == "draw":
            raise Refused("a tile can be played", None)
        return super().apply(ruleset, state, action)


class ThreeRounds(ReferenceImplementation):
    """A match of its own length: three rounds ([12-12], [11-11], [10-10]); it refuses a
    table or a deal of any later round, and plays the rest as the reference does."""

    def state(self, ruleset: JSON, state: JSON):  # type: ignore[no-untyped-def]
        from mtrain.conformance.adapter import RefusedSetup

        if isinstance(state, dict) and isinstance(state.get("round"), int) and state["round"] > 3:
            raise RefusedSetup(f"no round {state['round']}: a match has three rounds")
        return super().state(ruleset, state)

    def deal(self, ruleset: JSON, players: int, round: int, order: list[str],
             draw: list[list[str]] | None = None) -> JSON:
        from mtrain.conformance.adapter import RefusedSetup

        if round > 3:
            raise RefusedSetup(f"no round {round}: a match has three rounds")
        return super().deal(ruleset, players, round, order, draw)


class Returns(ReferenceImplementation):
    """Returns, for the call named in $MTRAIN_TEST_CALL, the JSON in $MTRAIN_TEST_VALUE
    (decoded with json, so 1.0 stays a float) in place of its own answer; with
    $MTRAIN_TEST_CALL=refused, refuses every action with [reason, clause] from it."""

    def _value(self, call: str) -> object:
        if os.environ.get("MTRAIN_TEST_CALL") != call:
            return None
        return json.loads(os.environ["MTRAIN_TEST_VALUE"])

    def info(self) -> JSON:
        value = self._value("info")
        return super().info() if value is None else {**super().info(), **value}  # type: ignore[dict-item]

    def winners(self, ruleset: JSON, state: JSON) -> list[int]:
        value = self._value("winners")
        return super().winners(ruleset, state) if value is None else value  # type: ignore[return-value]

    def score(self, ruleset: JSON, state: JSON, winner: int | None) -> list[int]:
        value = self._value("score")
        return super().score(ruleset, state, winner) if value is None else value  # type: ignore[return-value]

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        value = self._value("refused")
        if value is None:
            return super().apply(ruleset, state, action)
        from mtrain.conformance.adapter import Refused

        pair: list[Any] = value  # type: ignore[assignment]
        raise Refused(pair[0], pair[1])


class ShortMatch(ReferenceImplementation):
    """Names the match's winners once the next-to-last round ends (MATCH-1): siding's
    bug 1 (tests/examples/siding_engine.py)."""

    def winners(self, ruleset: JSON, state: JSON) -> list[int]:
        st = self.state(ruleset, state)
        return match_winners(st) if st.phase == OVER and st.round >= st.rules.rounds - 1 else []


class DrawnDoubleEndsTurn(ReferenceImplementation):
    """A double just drawn and laid ends the turn, no follow-up asked (DBL-1): siding's
    bug 2 (tests/examples/siding_engine.py)."""

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        new = super().apply(ruleset, state, action)
        if (action.get("type") == "play" and action.get("tile") == state.get("drawn")
                and new["phase"] == "follow"):
            seat = state["seat"]
            new["seat"] = (seat + 1) % len(new["hands"])
            new["phase"], new["turn_doubles"] = "start", []
            new["first_turns"] = [s for s in new["first_turns"] if s != seat]
        return new


class DrawsFromTheBack(ReferenceImplementation):
    """Draws the boneyard's last tile, not its first (TURN-2): sixes' bug 1
    (tests/examples/sixes_engine.py), in a follow-up's draw (DBL-5) as in any other."""

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        if action.get("type") == "draw" and len(state.get("boneyard") or []) > 1:
            bone = state["boneyard"]  # the last tile put first: drawn, the rest as it was
            state = {**state, "boneyard": [bone[-1], *bone[:-1]]}
        return super().apply(ruleset, state, action)
