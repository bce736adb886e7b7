"""Can the rules reach this table? Necessary conditions on a canonical state, by clause.

`reachable_problems(state, ruleset)` takes a state in canonical JSON (spec/schemas/state;
a fixture table through `spec.notation.table_state`) that already satisfies the invariants
(tiles, trains, markers, open doubles: reference/invariants.py) and returns one message
per way in which no round played under `ruleset` could be in it: a phase that the rule
set has no way into, first turns out of seat order, a drawn tile while another held tile
was playable, a follow-up due while an older double bound the mover, passes that do not
match the markers, a round that the rules would already have ended, ...

Each condition has an id (`CONDITIONS`), listed with its reason in docs/fixture-format.md.
The conditions are necessary, not sufficient: the number of tiles in each hand and in the
boneyard is left free (fixtures shorten hands), except while the engine is searched for.
Legality questions (could a player have played?) are asked of the second formalisation
in spec/model/legality.py, never of the reference engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from typing import Any, Final

from mtrain.spec import tiles as T
from mtrain.spec.model import decisions, legality

MEXICAN: Final = "mexican"

CONDITIONS: Final[dict[str, str]] = {
    "REACH-PLAYERS": "the rule set deals to this many players (DEAL-7)",
    "REACH-HANDS": "outside phase over every hand holds a tile; after a domino only the "
                   "winner's is empty (END-1)",
    "REACH-ENGINE": "phase engine only when the holder lays the engine, before anything "
                    "else: nothing laid, no marker, no drawn tile, no pass, every first turn "
                    "to come, the engine in the boneyard, the search at the seat its draws "
                    "reach from the round's first seat (ENG-3, ENG-4, SEAT-5)",
    "REACH-STARTER": "under the rotating start the starter is seat (round - 1) mod "
                     "players (SEAT-3)",
    "REACH-FIRST-ORDER": "the seats still to take a first turn are those from the player "
                         "to move up to the one before the starter (FIRST-6, SEAT-1)",
    "REACH-FIRST-UNTOUCHED": "a seat still to take its first turn has no marker and an "
                             "empty train (the mover's own turn aside); before anyone's "
                             "first turn nothing is laid (TRAIN-4, MARK-1)",
    "REACH-FIRST-DONE": "a seat whose first turn is over laid a tile or passed: its train "
                        "holds a tile or carries its marker, or another train holds a tile "
                        "where its first tile or a marker removal can explain it (FIRST-1, "
                        "FIRST-3, FIRST-7, TURN-4)",
    "REACH-CHAIN": "phase chain only under chain first turns, on the mover's first turn, "
                   "with no drawn tile; a chain on the own train has started it and has as "
                   "double of this turn only the own train's last tile (FIRST-1, FIRST-3, "
                   "FIRST-4, FIRST-11)",
    "REACH-CHAIN-FIRSTS": "under chain first turns, while first turns remain, the boneyard "
                          "is empty only if the deal or the engine search emptied it; "
                          "chains on the own train also leave the Mexican Train empty, and a "
                          "seat whose turn is over either laid a chain (no marker) or passed "
                          "(marker, empty train) (FIRST-2, FIRST-3, FIRST-11, ENG-4)",
    "REACH-OWN-FIRST": "under own-train-first a seat with an empty train has laid nothing: "
                       "once its first turn is over it passed, and it lays no double this "
                       "turn (TRAIN-7)",
    "REACH-DRAWN": "a drawn tile only in phases start and follow, never on a chain first "
                   "turn, with no pass counted, and only if nothing else in hand could be "
                   "played before it was drawn (TURN-1, TURN-2, TURN-3, FIRST-3)",
    "REACH-TURN-DOUBLES": "the doubles of this turn are the youngest open doubles, in "
                          "order, each on a train the mover could use; under cover-own a "
                          "turn holds one at most (DBL-1, DBL-4, TRAIN-4)",
    "REACH-FOLLOW": "a follow-up is due only if no double of an earlier turn bound the "
                    "mover when its turn began: every such double is released (DBL-6, "
                    "DBL-9, DBL-10), or the boneyard is empty now (DBL-12), or none binds "
                    "(DBL-13)",
    "REACH-ORDINARY": "with ordinary doubles no double is open, none is of this turn, and "
                      "no follow-up is due (DBL-11)",
    "REACH-PASSES": "passes in a row only on an empty boneyard and between turns; the "
                    "players who made them have their markers up and their first turns "
                    "over; under END-3 fewer than the players while the round goes on "
                    "(TURN-4, MARK-1, END-3)",
    "REACH-BLOCKED": "at the start of a turn with an empty boneyard somebody can still "
                     "ever play, or END-2 would have ended the round (END-2)",
    "REACH-OVER": "phase over: no drawn tile, no double of this turn; a domino by the "
                  "player to move; a blocked round on an empty boneyard that END-2 or END-3 "
                  "ends (END-1, END-2, END-3)",
}


SHAPES: Final = ("REACH-CHAIN", "REACH-ENGINE", "REACH-ORDINARY")
"""The conditions with a part on a table's shape: a phase, or an open double, that the
rules never have (a first-turn chain under one-tile first turns, a search for the engine
where it is set aside or found by the deal, an open double where doubles are ordinary).
An engine of those rules may have no way to hold such a table, so no answer there is the
rules'; a table whose history alone is impossible (a starter, a first turn) it still
reads."""


def shaped(table: Mapping[str, Any]) -> bool:
    """Whether SHAPES ask anything of a table (canonical JSON): a search for the engine, a
    chain, a follow-up, open doubles."""
    return (table.get("phase") in ("engine", "chain", "follow")
            or bool(table.get("open_doubles")) or bool(table.get("turn_doubles")))


def shape_problems(state: Mapping[str, Any], ruleset: Mapping[str, str]) -> list[str]:
    """The problems of `reachable_problems` that say the rule set has no such phase or
    open double at all (SHAPES), whatever the history: the option each reads (the engine
    procedure, the first turn, the doubles), and only where the table's phase or open
    doubles ask it, so that a traced rule set (conformance/partition.py) splits the
    option space by no more."""
    return _Table(state, ruleset).shapes()


def reachable_problems(state: Mapping[str, Any], ruleset: Mapping[str, str],
                       players: bool = True) -> list[str]:
    """Every reason why no round under `ruleset` reaches `state` (empty: none found).

    `ruleset` is a Ruleset (or any mapping of option values with `hand_table`). With
    `players` false the player count is not checked (REACH-PLAYERS), and every other
    condition is: for a table whose refusal (DEAL-7) is what a fixture expects.
    """
    return _Table(state, ruleset).problems(players)


class _Table:
    def __init__(self, state: Mapping[str, Any], rs: Mapping[str, str]) -> None:
        self.s = state
        self.rs = rs
        self.n = len(state["hands"])
        self.seat = int(state["seat"])
        self.starter = int(state["starter"])
        self.phase = str(state["phase"])
        self.pending = set(state.get("first_turns", []))
        self.trains = [*state["trains"], state["mexican"]]
        self.marked = [bool(t.get("marker")) for t in state["trains"]]
        self.open = [self._index(k) for k in state.get("open_doubles", [])]
        self.turn = [self._index(k) for k in state.get("turn_doubles", [])]
        self.drawn = state.get("drawn")
        self.passes = int(state.get("passes", 0))
        self.bone_empty = not state["boneyard"]
        self.out: list[str] = []

    # (read when a check asks: `shape_problems` reads no option its conditions leave alone)
    @cached_property
    def options(self) -> dict[str, str]:
        return {k: self.rs[k] for k in self.rs}

    @cached_property
    def chain(self) -> bool:
        return self.rs["first_turn"] in ("chain", "chain-no-double-end")  # own train (FIRST-2)

    @cached_property
    def chains(self) -> bool:
        return self.chain or self.rs["first_turn"] == "chain-anywhere"  # FIRST-11 too

    def _index(self, key: Any) -> int:
        return self.n if key == MEXICAN else int(key)

    def empty(self, k: int) -> bool:
        return not self.trains[k]["tiles"]

    def fail(self, cid: str, message: str) -> None:
        self.out.append(f"{cid}: {message}")

    def shapes(self) -> list[str]:
        if self.phase == "engine":
            for w in self.no_search():
                self.fail("REACH-ENGINE", w)
        if self.phase == "chain":
            for w in self.no_chain():
                self.fail("REACH-CHAIN", w)
        self.ordinary_doubles()
        return self.out

    def problems(self, players: bool = True) -> list[str]:
        hand_table = dict(getattr(self.rs, "hand_table", ()))
        if players and hand_table and self.n not in hand_table:
            self.fail("REACH-PLAYERS", f"no hand size for {self.n} player{'s' * (self.n != 1)}")
            return self.out
        if self.phase == "engine":
            self.engine_search(hand_table.get(self.n))
            return self.out
        self.hands()
        self.starting_seat()
        self.first_turns()
        self.chain_phase()
        self.own_train_first()
        self.drawn_tile()
        self.turn_doubles()
        self.ordinary_doubles()
        self.follow()
        self.passes_in_a_row()
        self.blocked()
        self.over()
        return self.out

    # -- the deal --------------------------------------------------------------------

    def engine_search(self, size: int | None) -> None:
        s, n = self.s, self.n
        engine_tile = T.name(T.DOUBLE[int(s["engine"])])
        # the search begins at the round's first seat: SEAT-3's, or SEAT-5's from the draw
        # (which the table does not show: the starter kept since the deal)
        start = (self.starter if self.rs["starting_seat"] == "highest-draw"
                 else (int(s["round"]) - 1) % n)
        why = self.no_search()
        if any(t["tiles"] for t in self.trains) or any(self.marked):
            why.append("something is laid or marked")
        if self.pending != set(range(n)) or self.drawn is not None or self.passes:
            why.append("a turn has been taken")
        holder = next((q for q, h in enumerate(s["hands"]) if engine_tile in h), None)
        drawn = sum(len(h) for h in s["hands"]) - n * size if size is not None else None
        if holder is not None and self.rs["engine_procedure"] == "everyone-draws":
            if drawn is not None and not (s["boneyard"] and (holder - start) % n < drawn % n):
                why.append(f"[{engine_tile}] is held by seat {holder}, who has not drawn in "
                           "this lap of the search (ENG-6: it is placed at the lap's end)")
        elif engine_tile not in s["boneyard"]:
            why.append(f"[{engine_tile}] is not in the boneyard (its holder places it at once)")
        if self.starter != start:
            why.append(f"the search starts at seat {start}, not {self.starter}")
        if size is not None and drawn is not None:
            want = [size + len(range(k, drawn, n)) for k in ((q - start) % n for q in range(n))]
            if drawn < 0 or [len(h) for h in s["hands"]] != want:
                why.append(f"hand sizes {[len(h) for h in s['hands']]} are not a deal of "
                           f"{size} plus draws in turn from seat {start}")
            elif self.seat != (start + drawn) % n:
                why.append(f"after {drawn} draws the search is at seat {(start + drawn) % n}")
        for w in why:
            self.fail("REACH-ENGINE", w)

    def no_search(self) -> list[str]:
        """Why the rule set has no search for the engine at all (a shape: SHAPES)."""
        procedure = self.rs["engine_procedure"]
        if procedure == "set-aside":
            return ["the engine is set aside, so nobody searches for it"]
        if procedure in ("highest-double-held", "designated-opens"):
            return ["the deal itself finds the engine (ENG-7, ENG-8), so no search is played"]
        return []

    def starting_seat(self) -> None:
        start = (int(self.s["round"]) - 1) % self.n
        if self.rs["starting_seat"] == "rotate" and self.starter != start:
            self.fail("REACH-STARTER", f"round {self.s['round']} starts at seat {start}, not "
                      f"{self.starter}")

    def hands(self) -> None:
        empty = [q for q, h in enumerate(self.s["hands"]) if not h]
        result = self.s.get("result")
        if self.phase == "over" and result and result.get("end") == "domino":
            if result.get("winner") not in empty or (len(empty) > 1
                                                     and not self.one_tile_hands()):
                self.fail("REACH-HANDS", f"after a domino by seat {result.get('winner')} the "
                          f"empty hands are {empty}")
        elif empty and not self.one_tile_hands():
            self.fail("REACH-HANDS", f"seat {empty[0]} holds no tile but has not gone out")

    def one_tile_hands(self) -> bool:
        """A one-tile hand that was the engine is emptied by placing it (ENG-3), which is
        no play: only a rule set dealing one tile a player has such hands."""
        size = dict(getattr(self.rs, "hand_table", ())).get(self.n)
        return size == 1 and self.rs["engine_procedure"] in ("holder-lays", "everyone-draws",
                                                             "highest-double-held",
                                                             "designated-opens")

    # -- first turns -----------------------------------------------------------------

    def first_turns(self) -> None:
        n, seat = self.n, self.seat
        if self.pending:
            want = [seat]
            while (want[-1] + 1) % n != self.starter:
                want.append((want[-1] + 1) % n)
            if self.pending != set(want):
                self.fail("REACH-FIRST-ORDER", f"first turns to come {sorted(self.pending)}; "
                          f"with seat {seat} to move and seat {self.starter} the starter they "
                          f"are {sorted(want)}")
        mover_laid = self.phase in ("chain", "follow", "over")
        for q in sorted(self.pending):
            if self.marked[q]:
                self.fail("REACH-FIRST-UNTOUCHED", f"seat {q} has its marker up before its "
                          "first turn is over")
            if not self.empty(q) and not (q == seat and mover_laid):
                self.fail("REACH-FIRST-UNTOUCHED", f"seat {q}'s train holds tiles before its "
                          "first turn")
        if (self.pending == set(range(n)) and self.phase == "start"
                and any(t["tiles"] for t in self.trains)):
            self.fail("REACH-FIRST-UNTOUCHED", "nobody has had a turn, yet a train holds tiles")
        # a passer's marker comes off only by a play on its own train, except under
        # owner-plays-anywhere; a single-tile start may lay its first tile elsewhere
        lenient = not self.chain or self.rs["marker_removal"] == "owner-plays-anywhere"
        for q in range(n):
            if q in self.pending:
                continue
            elsewhere = any(not self.empty(k) for k in range(n + 1) if k != q)
            if self.empty(q) and not self.marked[q] and not (lenient and elsewhere):
                self.fail("REACH-FIRST-DONE", f"seat {q} has had its first turn but neither "
                          "laid a tile nor passed")
        if self.chains and self.pending:
            self.chain_first_turns()

    def chain_first_turns(self) -> None:
        n = self.n
        if self.chain and not self.empty(n):
            self.fail("REACH-CHAIN-FIRSTS", "the Mexican Train holds tiles during chain first "
                      "turns")
        for q in range(n):
            if self.chain and q not in self.pending and self.empty(q) != self.marked[q]:
                what = "passed but its train holds tiles" if self.marked[q] else \
                    "neither laid a chain nor passed"
                self.fail("REACH-CHAIN-FIRSTS", f"seat {q} {what}")
        hand_table = dict(getattr(self.rs, "hand_table", ()))
        if self.bone_empty and self.rs["engine_procedure"] == "set-aside" and hand_table:
            top = int(self.s["engine"]) + int(self.s["round"]) - 1  # ENG-1
            left = T.set_size(top) - 1 - n * hand_table[n]
            if left > 0:
                self.fail("REACH-CHAIN-FIRSTS", f"the deal left {left} tiles in the boneyard "
                          "and nobody draws during chain first turns")

    def chain_phase(self) -> None:
        if self.phase != "chain":
            return
        seat = self.seat
        why = self.no_chain()
        if seat not in self.pending:
            why.append(f"seat {seat}'s first turn is over")
        if self.chain and self.empty(seat):
            why.append("the chain has laid nothing on the own train")
        if self.drawn is not None:
            why.append("a chain never draws")
        tiles = self.trains[seat]["tiles"]
        ends_double = bool(tiles) and _is_double(tiles[-1])
        if ends_double and self.rs["doubles"] == "ordinary":
            ends_double = False  # DBL-11: a chain's double is one more tile, never open
        if self.chain and self.turn != ([seat] if ends_double else []):
            why.append(f"doubles of this turn {self.turn}; a chain has laid only its own "
                       f"train{', ending in a double' if ends_double else ''}")
        for w in why:
            self.fail("REACH-CHAIN", w)

    def no_chain(self) -> list[str]:
        """Why the rule set has no first-turn chain at all (a shape: SHAPES)."""
        return [] if self.chains else ["the rule set has no first-turn chain"]

    def own_train_first(self) -> None:
        if self.rs["own_train_first"] != "required":
            return
        for q in range(self.n):
            if self.empty(q) and q not in self.pending and not self.marked[q]:
                self.fail("REACH-OWN-FIRST", f"seat {q} could lay only on its own empty "
                          "train, so it passed, yet has no marker")
        if self.turn and self.empty(self.seat):
            self.fail("REACH-OWN-FIRST", "a double was laid this turn by a seat whose own "
                      "train is empty")

    # -- within a turn ---------------------------------------------------------------

    def drawn_tile(self) -> None:
        if self.drawn is None:
            return
        why = []
        if self.phase not in ("start", "follow"):
            why.append(f"a drawn tile in phase {self.phase}")
        elif self.chains and self.seat in self.pending:
            why.append("nobody draws on a chain first turn")
        elif self.passes:
            why.append("passes are counted only on an empty boneyard, yet a tile was drawn")
        else:
            before = dict(self.s)
            hands = [list(h) for h in self.s["hands"]]
            hands[self.seat] = [x for x in hands[self.seat] if x != self.drawn]
            # before the draw the tile was in the boneyard (its number was not exhausted)
            before.update(hands=hands, drawn=None, boneyard=[self.drawn, *self.s["boneyard"]])
            plays = sorted(a for a in legality.legal_actions(before, self.options)
                           if a.startswith("play "))
            if plays:
                why.append(f"before drawing {self.drawn} the mover could {plays[0]}")
        for w in why:
            self.fail("REACH-DRAWN", w)

    def turn_doubles(self) -> None:
        td, od, n = self.turn, self.open, self.n
        if not td:
            return
        if od[len(od) - len(td):] != td:
            self.fail("REACH-TURN-DOUBLES", f"doubles of this turn {td} are not the youngest "
                      f"open doubles {od}")
        usable = self.rs["marker_removal"] == "anyone-plays-on"
        for k in td:
            if k not in (self.seat, n) and not self.marked[k] and not usable:
                self.fail("REACH-TURN-DOUBLES", f"a double of this turn lies on seat {k}'s "
                          "train, which carries no marker")
        if self.rs["follow_up"] == "cover-own" and len(td) > 1:
            self.fail("REACH-TURN-DOUBLES", "under cover-own the tile after a double covers "
                      "it, so a turn lays one double at most")

    def ordinary_doubles(self) -> None:
        # the option is read only on a table a double could have opened
        if not (self.open or self.turn or self.phase == "follow"):
            return
        if self.rs["doubles"] == "ordinary":
            self.fail("REACH-ORDINARY", "a double is an ordinary tile here: none is ever open "
                      "and none asks for another tile")

    def follow(self) -> None:
        if self.phase != "follow":
            return
        released = self.rs["uncoverable_double"] == "released"
        off = self._off_table()
        for k in self.open:
            if k in self.turn:
                continue
            if self.rs["uncoverable_double"] == "released-after-layers-turn":
                return  # DBL-13: no double of an earlier turn binds
            if self.bone_empty and self.rs["uncoverable_double"] == "released-when-boneyard-empty":
                return  # DBL-12: the draw that emptied the boneyard released it mid-turn
            end = int(self.trains[k]["end"])
            if not (released and end not in off):
                self.fail("REACH-FOLLOW", f"the open double on train {_name(k, self.n)} bound "
                          "the mover when its turn began, so it could only cover it")

    def passes_in_a_row(self) -> None:
        p, n = self.passes, self.n
        if p < 0:
            self.fail("REACH-PASSES", f"{p} passes")
            return
        if p == 0:
            return
        if not self.bone_empty:
            self.fail("REACH-PASSES", "passes are counted only on an empty boneyard")
        if self.phase in ("chain", "follow"):
            self.fail("REACH-PASSES", "a tile laid this turn resets the passes in a row")
        for k in range(1, min(p, n) + 1):
            q = (self.seat - k) % n
            if not self.marked[q] or q in self.pending:
                self.fail("REACH-PASSES", f"seat {q} made one of the last {p} passes, yet its "
                          "marker is down or its first turn is to come")
                break
        if self.rs["blocked_round"] == "full-round-of-passes" and self.phase != "over" and p >= n:
            self.fail("REACH-PASSES", f"{p} passes in a row would have ended the round (END-3)")

    # -- the end of a round ----------------------------------------------------------

    def blocked(self) -> None:
        if (self.phase == "start" and self.drawn is None and self.bone_empty
                and self.rs["blocked_round"] == "nobody-can-play" and not self.can_ever_play()):
            self.fail("REACH-BLOCKED", "nobody can ever play again, so the round is over")

    def over(self) -> None:
        if self.phase != "over":
            return
        result = self.s.get("result") or {}
        why = []
        if self.drawn is not None or self.turn:
            why.append("a finished round keeps no drawn tile and no double of this turn")
        if result.get("end") == "domino":
            if result.get("winner") != self.seat:
                why.append(f"seat {result.get('winner')} went out, but seat {self.seat} was "
                           "to move")
        elif result.get("end") == "blocked":
            if result.get("winner") is not None:
                why.append("a blocked round has no winner")
            if not self.bone_empty:
                why.append("a round with tiles in the boneyard is not blocked")
            elif self.rs["blocked_round"] == "full-round-of-passes":
                if self.passes != self.n:
                    why.append(f"END-3 ends the round at {self.n} passes, not {self.passes}")
            elif self.can_ever_play():
                why.append("somebody can still play, so END-2 does not end the round")
        for w in why:
            self.fail("REACH-OVER", w)

    # -- helpers ---------------------------------------------------------------------

    def _off_table(self) -> set[int]:
        """Numbers borne by some tile in a hand or the boneyard."""
        off = set()
        for x in [*(t for h in self.s["hands"] for t in h), *self.s["boneyard"]]:
            tile = T.parse(x)
            off |= {T.HIGH[tile], T.LOW[tile]}
        return off

    def can_ever_play(self) -> bool:
        """END-2, asked of spec/model/decisions.py: somebody could play on a turn to come."""
        return decisions.can_ever_play(self.s, self.options)


def _is_double(text: str) -> bool:
    a, b = text.split("-")
    return a == b


def _name(k: int, n: int) -> str:
    return MEXICAN if k == n else str(k)
