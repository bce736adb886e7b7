"""An engine with six bugs of different kinds, for `mtrain fuzz` to find in one run
(tests/test_fuzz.py): `--adapter tests/broken_impls/six_bugs.py:SixBugs`.

It is the reference engine, its answers changed on the way out:

1. a deal bug: from round 2 on, a rotating start (SEAT-3) starts one seat too far on;
2. a bug under one overlay only: under blanks-25 (SCORE-2) a blank end scores nothing;
3. a bug that only compounds: it writes a drawn tile at the end of the hand (not in the
   canonical order, which no check catches), and its legal actions stop looking through a
   hand at the first tile too low for every train, right for sorted hands only: only its
   own states, fed back to it, show it;
4. a duplicated tile: a draw from a boneyard of four tiles or fewer leaves the tile there;
5. a winners bug: a shared win (MATCH-4) goes to the lowest seat alone;
6. a refusal bug: a draw refused because the player can play names TURN-2, not TURN-1.

`SixBugs(fixed={k, ...})` is the same engine with those bugs fixed (to show that a
reproducer shows its own bug: it passes once that bug alone is fixed).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from mtrain.conformance.adapter import JSON, ReferenceImplementation, Refused
from mtrain.spec import tiles as T


def _tile(text: str) -> tuple[int, int]:
    a, b = (int(x) for x in text.split("-"))
    return (a, b) if a >= b else (b, a)


class SixBugs(ReferenceImplementation):
    def __init__(self, fixed: Collection[int] = ()) -> None:
        super().__init__()
        self.bugs = {1, 2, 3, 4, 5, 6} - set(fixed)

    def info(self) -> JSON:
        return {**super().info(), "name": "six-bugs"}

    def deal(self, ruleset: JSON, players: int, round: int, order: list[str],
             draw: list[list[str]] | None = None) -> JSON:
        state = super().deal(ruleset, players, round, order, draw)
        if 1 in self.bugs and ruleset["options"]["starting_seat"] == "rotate" and round >= 2:
            state["seat"] = state["starter"] = (state["seat"] + 1) % players
        return state

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        actions = super().legal(ruleset, state)
        if 3 not in self.bugs:
            return actions
        ends = [t["end"] for t in [*state["trains"], state["mexican"]]]
        seen = set()
        for tile in state["hands"][state["seat"]]:  # "hands are sorted", so stop early
            if _tile(tile)[0] < min(ends):
                break
            seen.add(T.parse(tile))
        return [a for a in actions if a["type"] != "play" or T.parse(a["tile"]) in seen]

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        try:
            new = super().apply(ruleset, state, action)
        except Refused as e:
            if 6 in self.bugs and action.get("type") == "draw" and e.clause == "TURN-1":
                raise Refused(e.reason, "TURN-2") from None
            raise
        if 3 in self.bugs:  # a drawn tile goes at the end of the hand
            for old, hand in zip(state["hands"], new["hands"], strict=True):
                kept = [t for t in old if t in hand]
                hand[:] = kept + [t for t in hand if t not in kept]
        if (4 in self.bugs and action.get("type") == "draw" and state["phase"] != "engine"
                and 0 < len(state["boneyard"]) <= 4):
            new["boneyard"].append(state["boneyard"][0])
        if (2 in self.bugs and new["phase"] == "over"
                and ruleset["options"]["blank_values"] == "blank-25"):
            self._face_values(ruleset, state, new)
        return new

    @staticmethod
    def _face_values(ruleset: JSON, before: JSON, new: JSON) -> None:
        left = [sum(a + b for a, b in map(_tile, hand)) for hand in new["hands"]]
        result: Any = new["result"]
        scores = left
        if ruleset["options"]["scoring"] == "positive":
            winner = result["winner"]
            scores = [sum(left) if s == winner else 0 for s in range(len(left))]
        result["scores"] = scores
        new["scores"] = [t + s for t, s in zip(before["scores"], scores, strict=True)]

    def winners(self, ruleset: JSON, state: JSON) -> list[int]:
        seats = super().winners(ruleset, state)
        return seats[:1] if 5 in self.bugs else seats
