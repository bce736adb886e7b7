"""A small Mexican Train engine whose moves are not the protocol's, for the implementer's
guide (docs/implementers-guide.md, "Mapping an engine whose moves are not the protocol's").

It plays one rule set: pagat's rules with one tile a turn from the start and the
Wikipedia doubles rule (`pagat+single-tile-start+wikipedia-doubles`): a double-12 set,
pagat's hand sizes, the engine laid by its holder, who starts (nobody holds it: draw for
it in turn), whoever lays a double covers it, the oldest open double is covered first and
stays open when nobody can cover it, a marker comes off when its owner plays on their own
train, a round blocked when nobody could play, penalty scoring.

Its moves are those of a game app, coarser or finer than one decision each:

- `LayEngine()`: the holder puts the engine in the centre, a move of its own;
- `Draw()`: draw a tile; when it fits nowhere the turn passes by itself, marker up;
- `PlayDouble(double, train, cover)`: a double and the tile that covers it, in one move;
  with no cover in hand the engine draws for one, lays it if it fits, and passes if not;
- `RaiseMarker()` then `Pass()`: a player who can neither play nor draw puts the marker
  up by hand, and only then may pass.

It imports nothing from mtrain: it is written as an engine that never heard of the suite.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

Tile = tuple[int, int]
"""(high, low) in hands and the boneyard; inside a train (near end, far end)."""
MEXICAN = -1
"""The Mexican Train's number; personal trains are numbered by their owner's seat."""
HIGHEST = 12
HAND_SIZES = {2: 15, 3: 15, 4: 15, 5: 12, 6: 12, 7: 10, 8: 10, 9: 8, 10: 8}


def tile(a: int, b: int) -> Tile:
    return (a, b) if a >= b else (b, a)


class Illegal(ValueError):
    """A move the rules refuse; `rule` is the mtrain clause id, where the engine knows it."""

    def __init__(self, reason: str, rule: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.rule = rule


@dataclass(frozen=True)
class LayEngine:
    pass


@dataclass(frozen=True)
class Draw:
    pass


@dataclass(frozen=True)
class Play:
    tile: Tile
    train: int


@dataclass(frozen=True)
class PlayDouble:
    double: Tile
    train: int
    cover: Play | None = None


@dataclass(frozen=True)
class RaiseMarker:
    pass


@dataclass(frozen=True)
class Pass:
    pass


Move = LayEngine | Draw | Play | PlayDouble | RaiseMarker | Pass


@dataclass(frozen=True)
class Outcome:
    blocked: bool
    winner: int | None
    scores: tuple[int, ...]


@dataclass
class Game:
    round: int
    hands: list[set[Tile]]
    boneyard: list[Tile]
    trains: dict[int, list[Tile]]  # seats 0.., then MEXICAN
    markers: list[bool]
    totals: list[int]
    outs: list[int]
    first_turns: set[int]  # seats yet to end a first turn (single tiles: read by nobody)
    seat: int = 0
    starter: int = 0
    engine_laid: bool = False
    open_doubles: list[int] = field(default_factory=list)  # oldest first
    drawn: Tile | None = None  # a drawn tile that fits: the only one the player may lay
    passes: int = 0  # passes in a row on an empty boneyard
    result: Outcome | None = None

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def engine(self) -> int:
        return HIGHEST - (self.round - 1)

    def end(self, train: int) -> int:
        tiles = self.trains[train]
        return tiles[-1][1] if tiles else self.engine


class TurnEngine:
    """The rules, as pure functions of a Game: `apply` never changes the game it is given."""

    def deal(self, players: int, round: int, order: list[Tile]) -> Game:
        size = HAND_SIZES[players]
        start = (round - 1) % players  # who draws first if nobody holds the engine
        game = Game(round=round,
                    hands=[set(order[s * size:(s + 1) * size]) for s in range(players)],
                    boneyard=list(order[players * size:]),
                    trains={t: [] for t in [*range(players), MEXICAN]},
                    markers=[False] * players, totals=[0] * players, outs=[0] * players,
                    first_turns=set(range(players)), seat=start, starter=start)
        engine = (game.engine, game.engine)
        game.seat = next((s for s in range(players) if engine in game.hands[s]), start)
        return game

    def legal(self, game: Game) -> list[Move]:
        if game.result is not None:
            return []
        if not game.engine_laid:
            holds = (game.engine, game.engine) in game.hands[game.seat]
            return [LayEngine()] if holds else [Draw()]
        moves: list[Move] = []
        hand = game.hands[game.seat]
        for t, train in self.plays(game):
            if t[0] != t[1]:
                moves.append(Play(t, train))
                continue
            covers = sorted(c for c in hand if t[0] in c and c != t)
            moves += [PlayDouble(t, train, Play(c, train)) for c in covers] or [
                PlayDouble(t, train)]
        if moves:
            return moves
        if game.boneyard and game.drawn is None:
            return [Draw()]
        return [Pass()] if game.markers[game.seat] else [RaiseMarker()]

    def plays(self, game: Game) -> list[tuple[Tile, int]]:
        """Every (tile, train) the player to move may lay."""
        seat = game.seat
        if game.open_doubles:
            trains = game.open_doubles[:1]  # the oldest open double first, nothing else
        else:
            trains = [seat, MEXICAN, *(o for o in range(game.players)
                                       if o != seat and game.markers[o])]
        hand = [game.drawn] if game.drawn is not None else sorted(game.hands[seat])
        return [(t, train) for train in trains for t in hand if game.end(train) in t]

    def apply(self, game: Game, move: Move) -> Game:
        game = copy.deepcopy(game)
        if game.result is not None:
            raise Illegal("the round is over", "END-1")
        if not game.engine_laid:
            self._find_engine(game, move)
            return game
        match move:
            case Play(t, train):
                if t[0] == t[1]:
                    raise Illegal("a double is laid with PlayDouble, with its cover")
                self._check(game, t, train)
                self._lay(game, t, train)
                self._end_turn(game)
            case PlayDouble():
                self._play_double(game, move)
            case Draw():
                if self.plays(game):
                    raise Illegal("the player can play; no draw", "TURN-1")
                if not game.boneyard:
                    raise Illegal("the boneyard is empty", "TURN-4")
                if game.drawn is not None:
                    raise Illegal("only one tile may be drawn", "TURN-2")
                drawn = game.boneyard.pop(0)
                game.hands[game.seat].add(drawn)
                game.drawn = drawn
                if not self.plays(game):
                    self._pass(game)  # it fits nowhere: the engine passes for the player
            case RaiseMarker() | Pass():
                if self.plays(game):
                    raise Illegal("the player can play; no pass", "TURN-1")
                if game.boneyard and game.drawn is None:
                    raise Illegal("the player must draw first", "TURN-2")
                if isinstance(move, RaiseMarker):
                    if game.markers[game.seat]:
                        raise Illegal("the marker is already up")
                    game.markers[game.seat] = True
                elif not game.markers[game.seat]:
                    raise Illegal("raise the marker before passing")
                else:
                    self._pass(game)
            case LayEngine():
                raise Illegal("the engine is already in the centre")
        return game

    def _find_engine(self, game: Game, move: Move) -> None:
        engine = (game.engine, game.engine)
        if isinstance(move, LayEngine) and engine in game.hands[game.seat]:
            game.hands[game.seat].remove(engine)
            game.engine_laid = True
            game.starter = game.seat  # the holder starts
        elif isinstance(move, Draw) and engine not in game.hands[game.seat]:
            drawn = game.boneyard.pop(0)  # nobody holds it, so the boneyard does
            game.hands[game.seat].add(drawn)
            if drawn != engine:
                game.seat = (game.seat + 1) % game.players
        else:
            raise Illegal("the engine is not in the centre yet", "ENG-4")

    def _check(self, game: Game, t: Tile, train: int, after_double: int | None = None) -> None:
        """Why `t` may not go on `train`, in the order the rule book's clauses decide it."""
        if train not in game.trains:
            raise Illegal(f"there is no train {train}", "TRAIN-1")
        if t not in game.hands[game.seat]:
            raise Illegal(f"the player does not hold {t}", "TURN-7")
        if game.end(train) not in t:
            raise Illegal(f"{t} does not fit the end {game.end(train)}", "TRAIN-2")
        if game.drawn is not None and t != game.drawn:
            raise Illegal(f"after drawing only {game.drawn} may be laid", "TURN-3")
        due = [d for d in game.open_doubles if d != after_double]
        if due and train != due[0]:
            rule = "DBL-7" if train in game.open_doubles else "DBL-6"
            raise Illegal(f"the open double on train {due[0]} comes first", rule)
        if due:
            return  # an open double may be covered by anyone, marker or not
        if after_double is not None and train != after_double:
            raise Illegal("whoever lays a double covers it", "DBL-4")
        if train not in (game.seat, MEXICAN) and not game.markers[train]:
            raise Illegal(f"train {train} carries no marker", "TRAIN-4")

    def _play_double(self, game: Game, move: PlayDouble) -> None:
        d, train = move.double, move.train
        if d[0] != d[1]:
            raise Illegal(f"{d} is not a double")
        self._check(game, d, train)
        self._lay(game, d, train)
        if game.result is not None:  # the double was the last tile
            if move.cover is not None:
                raise Illegal("the round is over", "END-1")
            return
        hand = game.hands[game.seat]
        if move.cover is not None:
            self._check(game, move.cover.tile, move.cover.train, after_double=train)
            self._lay(game, move.cover.tile, move.cover.train)
        elif any(d[0] in c for c in hand):
            raise Illegal("the player can cover the double", "TURN-1")
        elif game.boneyard:
            drawn = game.boneyard.pop(0)
            hand.add(drawn)
            if d[0] not in drawn:
                self._pass(game)
                return
            self._lay(game, drawn, train)
        else:
            self._pass(game)
            return
        self._end_turn(game)

    def _lay(self, game: Game, t: Tile, train: int) -> None:
        seat = game.seat
        game.hands[seat].remove(t)
        near = game.end(train)
        game.trains[train].append((near, t[1] if t[0] == near else t[0]))
        if train == seat:
            game.markers[seat] = False  # the owner plays on their own train
        if train in game.open_doubles:
            game.open_doubles.remove(train)  # covered
        if t[0] == t[1]:
            game.open_doubles.append(train)
        game.drawn = None
        game.passes = 0
        if not game.hands[seat]:
            self._finish(game, seat)

    def _pass(self, game: Game) -> None:
        game.markers[game.seat] = True
        if not game.boneyard:
            game.passes += 1
        self._end_turn(game)

    def _end_turn(self, game: Game) -> None:
        if game.result is not None:
            return
        game.drawn = None
        game.first_turns.discard(game.seat)
        game.seat = (game.seat + 1) % game.players
        if not game.boneyard and not any(self._could_play(game, s)
                                         for s in range(game.players)):
            self._finish(game, None)

    def _could_play(self, game: Game, seat: int) -> bool:
        """Could `seat` ever play again, on its own turn, were every train marked?"""
        trains = game.open_doubles[:1] or list(game.trains)
        return any(game.end(train) in t for t in game.hands[seat] for train in trains)

    def _finish(self, game: Game, winner: int | None) -> None:
        scores = self.scores(game)
        game.totals = [a + b for a, b in zip(game.totals, scores, strict=True)]
        if winner is not None:
            game.outs[winner] += 1
        game.result = Outcome(winner is None, winner, tuple(scores))
        game.drawn = None

    def scores(self, game: Game) -> list[int]:
        """What each hand is worth: its pips."""
        return [sum(a + b for a, b in hand) for hand in game.hands]

    def winners(self, game: Game) -> list[int]:
        """The lowest match total wins; equal totals share the win. Nobody has won while
        the match goes on: before the end of its last round, the [0-0] one."""
        if game.result is None or game.round < HIGHEST + 1:
            return []
        best = min(game.totals)
        return [s for s, total in enumerate(game.totals) if total == best]
