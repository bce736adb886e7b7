"""The adapter between the protocol and tests/examples/turn_engine.py, an engine whose
moves are coarser and finer than the protocol's one decision each.

    mtrain conform --adapter tests/examples/turn_adapter.py:Adapter

The protocol asks about one decision at a time (`play TILE on TRAIN`, `draw`, `pass`,
`end-chain`) and shows the table after each. The engine moves in its own steps, so the
adapter answers every question from the start of the current turn:

1. `_turn_start` takes the canonical state back to the start of the turn (the tile drawn
   returns to the boneyard, a double laid this turn to the hand) and lists the protocol
   actions already taken (`done`): the protocol state itself buffers the partial turn.
2. `_paths` asks the engine for every way the turn can go, move by move, and writes each
   move as the protocol actions it amounts to: `Draw()` that passes by itself is `draw`,
   `pass`; `RaiseMarker()`, `Pass()` is one `pass`; `PlayDouble(d, t, cover)` is two
   plays; `LayEngine()` is nothing (it is played inside `deal`, or inside the draw that
   finds the engine).
3. The legal actions are the next action of every path that begins with `done`; an
   action ends where a path does (the engine's own state), or half-way through a move
   (`half`: the table the protocol shows between the engine's steps), or nowhere (a
   refusal, the engine's own when it can say).
"""

from __future__ import annotations

import copy
import sys
from pathlib import Path

from mtrain.conformance.adapter import JSON, Implementation, Refused, RefusedSetup, Unsupported

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the engine sits beside this file
import turn_engine as te

RULES: JSON = {
    "name": "pagat+single-tile-start+wikipedia-doubles",
    "options": {
        "tile_set": "double-12", "hand_sizes": "pagat", "engine_procedure": "holder-lays",
        "starting_seat": "engine-holder", "first_turn": "single",
        "mexican_first_turn": "anyone", "own_train_first": "not-required", "doubles": "open",
        "follow_up": "cover-own", "double_order": "oldest-first",
        "uncoverable_double": "stays-open", "marker_removal": "owner-plays-own",
        "draw_rule": "draw-one", "blocked_round": "nobody-can-play", "scoring": "penalty",
        "blank_values": "face", "tie_rule": "shared",
    },
}
DRAW: JSON = {"type": "draw"}
PASS: JSON = {"type": "pass"}
Branch = tuple[list[JSON], te.Game]
"""Protocol actions from the start of a turn, and the engine's game after them."""


class Adapter(Implementation):
    def __init__(self, engine: te.TurnEngine | None = None) -> None:
        self.engine = engine or te.TurnEngine()

    def info(self) -> JSON:
        return {"name": "turn-engine-example", "version": "1", "rules": RULES}

    def deal(self, ruleset: JSON, players: int, round: int, order: list[str]) -> JSON:
        if players not in te.HAND_SIZES:  # the rules deal to 2-10 players: no other game
            raise RefusedSetup(f"the engine deals to 2-10 players, not {players}", "DEAL-7")
        game = self.engine.deal(players, round, [tile_of(t) for t in order])
        return to_json(self._settle(game))  # the holder's LayEngine, hidden in the deal

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        _, done, paths = self._turn_start(state)
        found: list[JSON] = []
        for steps, _ in paths:
            nxt = steps[len(done)] if len(steps) > len(done) else None
            if nxt is not None and steps[:len(done)] == done and nxt not in found:
                found.append(nxt)
        return found

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        act = normalised(action, len(state["hands"]))
        game, done, paths = self._turn_start(state)
        want = [*done, act]
        for steps, after in paths:
            if steps == want:
                return to_json(after)  # a move of the engine ends here
        if any(steps[:len(want)] == want for steps, _ in paths):
            return half(state, act)  # half-way through a move of the engine
        raise self._refusal(state, game, done, act)

    def winners(self, ruleset: JSON, state: JSON) -> list[int]:
        return self.engine.winners(from_json(state))

    def score(self, ruleset: JSON, state: JSON, winner: int | None) -> list[int]:
        game = from_json(state)
        if winner is not None and game.hands[winner]:
            raise ValueError(f"seat {winner} did not go out")
        return self.engine.scores(game)

    # --- from the protocol's turn to the engine's moves ----------------------------------

    def _settle(self, game: te.Game) -> te.Game:
        """Lay the engine as soon as someone holds it: the protocol has no such action
        (the engine is placed at once, ENG-3, ENG-4)."""
        if self.engine.legal(game) == [te.LayEngine()]:
            return self.engine.apply(game, te.LayEngine())
        return game

    def _turn_start(self, state: JSON) -> tuple[te.Game, list[JSON], list[Branch]]:
        """The engine's game at the start of this turn, and the protocol actions taken
        since: the tile drawn goes back on the boneyard, a double laid this turn back to
        the hand (under this rule set a turn lays at most one, and it stays open until
        covered, so it is the last tile of its train)."""
        if len(state["hands"]) not in te.HAND_SIZES:  # a table no game of these rules has
            raise RefusedSetup(f"no game of {len(state['hands'])} players", "DEAL-7")
        phase, laid = state["phase"], state["turn_doubles"]
        if phase == "chain" or len(laid) != (1 if phase == "follow" else 0):
            raise Unsupported("this engine has no first-turn chains, and lays one double "
                              "a turn")
        st = copy.deepcopy(state)
        seat, done = st["seat"], []
        if st["drawn"] is not None:
            st["hands"][seat].remove(st["drawn"])
            st["boneyard"].insert(0, st["drawn"])
            st["drawn"] = None
            done.append(DRAW)
        if phase == "follow":
            train = laid[0]
            tiles = train_json(st, train)["tiles"]
            if not tiles or len(set(tiles[-1].split("-"))) != 1:
                raise Unsupported("the double laid this turn is not the end of its train")
            double = tiles.pop()  # a double reads the same both ways
            st["hands"][seat].append(double)
            st["open_doubles"].remove(train)
            st["turn_doubles"], st["phase"] = [], "start"
            done.insert(0, {"type": "play", "tile": double, "train": train})
        game = from_json(st)
        paths = self._paths(game)
        if done and not any(steps[:len(done)] == done for steps, _ in paths):
            # e.g. a tile drawn by a player who could have played: no move of the engine
            # leads here, so it has nothing to say about this table
            raise Unsupported("the engine cannot reach this table")
        return game, done, paths

    def _paths(self, game: te.Game) -> list[Branch]:
        """Every way the current turn can go, cut at the end of each move of the engine."""
        out: list[Branch] = []
        legal = self.engine.legal(game)
        choices: list[list[te.Move]] = [[m] for m in legal if not isinstance(m, te.RaiseMarker)]
        if te.RaiseMarker() in legal:
            choices.append([te.RaiseMarker(), te.Pass()])  # the marker folds into `pass`
        for moves in choices:
            after = game
            for move in moves:
                after = self.engine.apply(after, move)
            after = self._settle(after)
            steps = self._steps(game, moves[-1], after)
            out.append((steps, after))
            if after.drawn is not None and after.result is None:  # it waits: same turn
                out += [(steps + more, end) for more, end in self._paths(after)]
        return out

    def _steps(self, before: te.Game, move: te.Move, after: te.Game) -> list[JSON]:
        """The protocol actions one move of the engine amounts to."""
        seat = before.seat
        match move:
            case te.Draw():
                if not before.engine_laid or after.drawn is not None:
                    return [DRAW]
                return [DRAW, PASS]  # the drawn tile fitted nowhere: the engine passed
            case te.Play(t, train):
                return [play(t, train)]
            case te.PlayDouble(d, train, cover):
                steps = [play(d, train)]
                if cover is not None:
                    return [*steps, play(cover.tile, cover.train)]
                if len(before.hands[seat]) == 1:
                    return steps  # the double was the last tile
                if len(after.boneyard) == len(before.boneyard):
                    return [*steps, PASS]  # nothing to draw
                drawn = before.boneyard[0]
                covered = drawn not in after.hands[seat]
                return [*steps, DRAW, play(drawn, train) if covered else PASS]
            case _:
                return [PASS]

    def _refusal(self, state: JSON, game: te.Game, done: list[JSON], act: JSON) -> Refused:
        """Why `act` is not legal, in the engine's words wherever the engine can judge it."""
        if act["type"] == "end-chain":
            # (a single-tile start has no chain to end: FIRST-7, every turn one tile)
            clause = ("END-1" if game.result else "ENG-4" if not game.engine_laid
                      else "FIRST-7")
            return Refused("this rule set has no first-turn chains", clause)
        if act["type"] not in ("play", "draw", "pass"):
            return Refused(f"unknown action {act['type']!r}")
        if state["phase"] != "follow":
            # The table as it stands is one the engine can hold (a drawn tile is its
            # `drawn`, even one that fits nowhere): put the action to it as a move.
            probe = from_json(state)
            if act["type"] == "draw":
                move: te.Move = te.Draw()
            elif act["type"] == "pass":
                move = te.Pass() if probe.markers[probe.seat] else te.RaiseMarker()
            else:
                t, train = tile_of(act["tile"]), train_of(act["train"])
                move = te.PlayDouble(t, train) if t[0] == t[1] else te.Play(t, train)
            try:
                self.engine.apply(probe, move)
            except te.Illegal as e:
                return Refused(e.reason, e.rule)
            return Refused(f"{act['type']} is not a move of this turn")
        # A double is pending: the engine judges the whole move it would be. Once the draw
        # for its cover is made the engine lays that tile or passes by itself, so it is
        # asked as if the drawn tile had been in hand: where that tile may go is its call.
        d, train = tile_of(done[0]["tile"]), train_of(done[0]["train"])
        probe, drawn = game, None
        if len(done) > 1:
            probe = copy.deepcopy(game)
            drawn = probe.boneyard.pop(0)
            probe.hands[probe.seat].add(drawn)
        cover = None
        if act["type"] == "play":
            cover = te.Play(tile_of(act["tile"]), train_of(act["train"]))
        other = drawn if cover is not None and cover.tile != drawn else None
        try:
            self.engine.apply(probe, te.PlayDouble(d, train, cover))
        except te.Illegal as e:
            if other is None or e.rule in ("TRAIN-1", "TURN-7", "TRAIN-2"):
                return Refused(e.reason, e.rule)
        # The rest is the draw rule, which the engine never puts to a player: after the
        # draw only the drawn tile may be laid (TURN-3) and no other drawn (TURN-2); before
        # it, a player who cannot cover must draw rather than pass (TURN-2).
        if other is not None:
            return Refused(f"after drawing only {text(other)} may be laid", "TURN-3")
        if act["type"] == "draw":
            return Refused("no tile may be drawn now", "TURN-2" if state["boneyard"]
                           else "TURN-4")
        return Refused("the player must draw for a tile to cover the double", "TURN-2")


# --- canonical JSON (spec/schemas/state.schema.json) and the engine's game --------------


def tile_of(text: str) -> te.Tile:
    try:
        a, b = (int(x) for x in text.split("-"))
    except (AttributeError, ValueError):
        raise Refused(f"not a tile: {text!r}", "SET-1") from None
    if not (0 <= a <= te.HIGHEST and 0 <= b <= te.HIGHEST):
        raise Refused(f"{text} is not in a double-{te.HIGHEST} set", "SET-1")
    return te.tile(a, b)


def text(t: te.Tile) -> str:
    return f"{t[0]}-{t[1]}"


def train_of(value: object) -> int:
    if value == "mexican":
        return te.MEXICAN
    if isinstance(value, int) and not isinstance(value, bool):
        return value  # a seat out of range is the engine's to refuse
    raise Refused(f"not a train: {value!r}", "TRAIN-1")


def train_json(state: JSON, train: int | str) -> JSON:
    body: JSON = state["mexican"] if train == "mexican" else state["trains"][train]
    return body


def play(t: te.Tile, train: int) -> JSON:
    return {"type": "play", "tile": text(te.tile(*t)),
            "train": "mexican" if train == te.MEXICAN else train}


def normalised(action: JSON, players: int) -> JSON:
    """The action as `paths` writes it, tiles high end first. A tile or a train that does
    not exist is refused here, before the game is consulted (SET-1, TRAIN-1)."""
    if action.get("type") != "play":
        return {"type": action.get("type")}
    t, train = tile_of(str(action.get("tile"))), train_of(action.get("train"))
    if train != te.MEXICAN and not 0 <= train < players:
        raise Refused(f"there is no train {train}", "TRAIN-1")
    return play(t, train)


def half(state: JSON, act: JSON) -> JSON:
    """The table after `act` when the engine's move goes on past it. Bookkeeping only: a
    tile moves, a double opens and, by MARK-3, its owner's marker comes off; whether the
    action is legal, and what may follow it, the engine's paths have already said."""
    st = copy.deepcopy(state)
    seat = st["seat"]
    hand = st["hands"][seat]
    if act["type"] == "draw":
        st["drawn"] = st["boneyard"].pop(0)
        hand.append(st["drawn"])
    else:
        double, train = act["tile"], act["train"]
        hand.remove(double)
        body = train_json(st, train)
        body["tiles"].append(double)
        if train == seat:
            body["marker"] = False
        st["open_doubles"].append(train)
        st["turn_doubles"], st["phase"], st["passes"], st["drawn"] = [train], "follow", 0, None
    st["hands"][seat] = [text(t) for t in sorted((tile_of(x) for x in hand), reverse=True)]
    return st


def from_json(state: JSON) -> te.Game:
    n = len(state["hands"])
    trains = {t: [oriented(x) for x in train_json(state, t)["tiles"]]
              for t in [*range(n), "mexican"]}
    result = state["result"]
    return te.Game(
        round=state["round"],
        hands=[{tile_of(x) for x in hand} for hand in state["hands"]],
        boneyard=[tile_of(x) for x in state["boneyard"]],
        trains={train_of(t): tiles for t, tiles in trains.items()},
        markers=[bool(t["marker"]) for t in state["trains"]],
        totals=list(state["scores"]), outs=list(state["outs"]),
        first_turns=set(state["first_turns"]), seat=state["seat"],
        starter=state["starter"], engine_laid=state["engine_placed"],
        open_doubles=[train_of(t) for t in state["open_doubles"]],
        drawn=None if state["drawn"] is None else tile_of(state["drawn"]),
        passes=state["passes"],
        result=None if result is None else te.Outcome(
            result["end"] == "blocked", result["winner"], tuple(result["scores"])))


def oriented(x: str) -> te.Tile:
    near, far = (int(p) for p in x.split("-"))
    return near, far


def to_json(game: te.Game) -> JSON:
    def train(t: int) -> JSON:
        return {"tiles": [f"{a}-{b}" for a, b in game.trains[t]], "end": game.end(t)}

    r = game.result
    return {
        "round": game.round, "engine": game.engine, "engine_placed": game.engine_laid,
        "phase": "over" if r else "start" if game.engine_laid else "engine",
        "seat": game.seat, "starter": game.starter,
        "hands": [[text(t) for t in sorted(hand, reverse=True)] for hand in game.hands],
        "boneyard": [text(t) for t in game.boneyard],
        "trains": [{**train(s), "marker": game.markers[s]} for s in range(game.players)],
        "mexican": train(te.MEXICAN),
        "open_doubles": ["mexican" if t == te.MEXICAN else t for t in game.open_doubles],
        "turn_doubles": [],  # the engine never stops with a double uncovered in its turn
        "drawn": None if game.drawn is None else text(game.drawn),
        "first_turns": sorted(game.first_turns), "passes": game.passes,
        "scores": list(game.totals), "outs": list(game.outs),
        "result": None if r is None else {
            "end": "blocked" if r.blocked else "domino", "winner": r.winner,
            "scores": list(r.scores)},
    }
