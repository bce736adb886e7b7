"""Situations from play: tables a round reaches under the rule set being tested, with the
legal actions the formalisation gives them.

The fixtures pin down one rule each, on the smallest table that shows it, and each speaks
about the rule sets its scope names. A rule set of one's own meets only part of them, and
none of them is a table of real play: two to eight players, any engine, a dozen tiles on
each train, open doubles, markers, a drawn tile, an empty boneyard. Situations fill that
gap for whatever rule set is tested, shipped or not:

* the reference deals a round of that rule set and plays random legal moves; a state of
  the round that shows one of the kinds below becomes the table (a possible table by
  construction: the rule set's own moves reached it);
* the expected legal set is spec/model/legality.py's: the clauses' formalisation evaluated on
  that table, never the engine's answer;
* everything is seeded by the rule set's name and the situation's number, so a run is
  reproducible and `-k play-drawn-004` reruns one situation.

`mtrain conform` runs them beside the fixtures (`--situations N`); `mtrain situations`
writes them out as fixture files.
"""

from __future__ import annotations

import dataclasses
import functools
import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson
import yaml

from mtrain.conformance.fixture import Expectation, Fixture
from mtrain.conformance.partition import Log, TracedRules, TracedRuleset
from mtrain.reference.codec import action_to_json, state_to_json
from mtrain.reference.deal import deal
from mtrain.reference.engine import CHAIN, ENGINE, OVER, State, legal_actions, perform
from mtrain.reference.rules import Rules
from mtrain.spec import cache
from mtrain.spec import tiles as T
from mtrain.spec.catalog import catalog
from mtrain.spec.distinguish.solve_deal import deal_view, draw_for_start
from mtrain.spec.model.legality import Opts
from mtrain.spec.model.legality import legal_actions as legal_actions_of
from mtrain.spec.model.scoring import match_rounds
from mtrain.spec.model.steps import replay
from mtrain.spec.notation import MEXICAN, REST, action_text, table_state
from mtrain.spec.ruleset import CUSTOM, OTHER, Ruleset
from mtrain.spec.scope import Product, Scope, Space
from mtrain.spec.tilesets import highest

SEED = 20261201
SITUATION_PATH = "<situations under "
"""How a situation's path begins (it has no file until `mtrain situations` writes one)."""
HEADER = """\
# Situations from play (conformance/situations.py): tables reached by random rounds of
# the rule set below; each legal set is spec/model/legality.py's, not an engine's.
"""


@dataclass(frozen=True)
class Kind:
    """A family of situations: what the table shows, and the clauses it exercises."""

    name: str
    title: str
    shows: Callable[[State], bool]
    clauses: tuple[str, ...]


def _turn_on(st: State) -> bool:
    return st.phase not in (ENGINE, OVER)


def _plain(st: State) -> bool:
    return (_turn_on(st) and not st.open_doubles and st.drawn < 0 and not st.first_pending
            and bool(st.boneyard))


KINDS: tuple[Kind, ...] = (
    Kind("opendbl", "an open double", lambda st: _turn_on(st) and bool(st.open_doubles),
         ("DBL-1", "DBL-5", "DBL-6", "DBL-7", "DBL-8", "DBL-9", "DBL-10", "DBL-12",
          "DBL-13")),
    Kind("drawn", "a tile just drawn", lambda st: _turn_on(st) and st.drawn >= 0,
         ("TURN-2", "TURN-3", "TURN-4", "TURN-5")),
    Kind("first", "first turns to come", lambda st: _turn_on(st) and bool(st.first_pending),
         ("FIRST-1", "FIRST-2", "FIRST-4", "FIRST-6", "FIRST-7", "FIRST-8", "FIRST-9",
          "TRAIN-5")),
    Kind("marked", "markers out",
         lambda st: _turn_on(st) and sum(st.markers) >= 2 and not st.first_pending,
         ("MARK-1", "MARK-2", "TRAIN-6", "TRAIN-7")),
    Kind("dry", "an empty boneyard", lambda st: _turn_on(st) and not st.boneyard,
         ("TURN-4",)),
    Kind("mid", "mid-round", _plain, ("TRAIN-7",)),
)
COMMON = ("TRAIN-2", "TRAIN-4", "TURN-1")
"""Clauses every situation exercises: matching ends, where a tile may go, must play."""


@dataclass(frozen=True)
class Reached:
    """A state of a random round, and how the round went to it (for the note)."""

    state: State
    moves: int


def speaks_for(rs: Ruleset, plays: Ruleset) -> Callable[[State], bool] | None:
    """For a rule set with options played its own way: whether a table reached by the
    stand-in `plays` speaks about it, i.e. whether its legal actions read none of those
    options (an option counts only where its clause decides the table, not where it
    decided the round's way there). The traced reference says which options the table's
    legal actions read, as the scope checks do; the legal set itself stays the model's.
    None: every table speaks."""
    unknown = frozenset(rs.unknown)
    if not unknown:
        return None
    rules = Rules.of(plays)

    def speaks(st: State) -> bool:
        if st.phase == CHAIN and "first_turn" in unknown:
            return False  # the phase itself is the chain rule's (FIRST-1)
        log = Log()
        probe = st.copy()
        probe.rules = TracedRules(rules, TracedRuleset.wrap(plays, log), log)  # type: ignore[assignment]
        legal_actions(probe)
        return unknown.isdisjoint(log.read)
    return speaks


def stand_in_for(rs: Ruleset, space: Space | None = None) -> Ruleset | None:
    """The rule set the reference plays for `rs`: itself, or with a known value in place
    of each option played its own way (its hand table kept); None if there is none."""
    if not rs.unknown:
        return rs
    space = space or Space()
    known = {o: frozenset((v,)) for o, v in rs.choices if o not in rs.unknown}
    values = space.complete(known)
    if values is None:
        return None
    found = space.ruleset(values)
    return Ruleset(found.name, found.choices, rs.hand_table) if rs.custom_table else found


def pick(kind: Kind, rules: Rules, rng: random.Random, tries: int = 20,
         speaks: Callable[[State], bool] | None = None) -> Reached | None:
    """A state that shows `kind`, drawn evenly from the next random round that shows one
    (a state with a choice to make before a forced move) and, with `speaks`, that speaks
    about the rule set tested; None after `tries` rounds."""
    counts = [n for n, _ in rules.ruleset.hand_table]
    for _ in range(tries):
        st = deal(rules, rng.choice(counts), rng.randint(1, rules.rounds),
                  seed=rng.randrange(1 << 30))
        kept: list[Reached | None] = [None, None]  # [a forced move, a choice]
        seen = [0, 0]
        moves = 0
        while st.phase != OVER:
            actions = legal_actions(st)
            if st.phase != ENGINE and kind.shows(st):
                tier = int(len(actions) > 1)
                seen[tier] += 1
                if rng.randrange(seen[tier]) == 0:  # reservoir sampling: each equally likely
                    kept[tier] = Reached(st.copy(), moves)
            perform(st, actions[rng.randrange(len(actions))])
            moves += 1
        for found in (kept[1], kept[0]):
            if found is not None and (speaks is None or speaks(found.state)):
                return found
    return None


def table_of(st: State) -> dict[str, Any]:
    """The fixture table of a state: every tile in a hand or on a train written out, the
    boneyard left to `rest` (every tile written nowhere else)."""
    sj = state_to_json(st)
    n = len(sj["hands"])
    out: dict[str, Any] = {"engine": sj["engine"]}
    if sj["seat"]:
        out["seat"] = sj["seat"]
    # always written: the default (the mover, or the rotation's seat) is the starting-seat
    # rule's, and a table of play has its own
    out["starter"] = sj["starter"]
    if sj["phase"] != "start":
        out["phase"] = sj["phase"]
    out["hands"] = {s: list(h) for s, h in enumerate(sj["hands"])}
    trains: dict[int | str, list[str]] = {
        s: list(t["tiles"]) for s, t in enumerate(sj["trains"]) if t["tiles"]}
    if sj["mexican"]["tiles"]:
        trains[MEXICAN] = list(sj["mexican"]["tiles"])
    if trains:
        out["trains"] = trains
    marked = [s for s, t in enumerate(sj["trains"]) if t.get("marker")]
    if marked:
        out["marked"] = marked
    out["boneyard"] = [REST] if sj["boneyard"] else []
    # always written: the default (every double at a train's end is open) is not what
    # play leaves behind
    out["open_doubles"] = list(sj["open_doubles"])
    if sj["turn_doubles"]:
        out["turn_doubles"] = list(sj["turn_doubles"])
    first = sorted(sj["first_turns"])
    if first:
        out["first_turns"] = "all" if first == list(range(n)) and n > 1 else first
    if sj.get("drawn") is not None:
        out["drawn"] = sj["drawn"]
    if sj["passes"]:
        out["passes"] = sj["passes"]
    return out


def _action_key(text: str) -> tuple[int, str]:
    return (0, text) if text.startswith("play ") else (1, text)


def situations(rs: Ruleset, count: int, wanted: Callable[[str], bool] | None = None,
               seed: int = SEED, ends: bool = True) -> list[Fixture]:
    """`count` situations under `rs`: a seventh of them deals (no more than its table has
    rows), the rest shared evenly among the kinds (fewer of a kind the rule set's rounds
    stop showing); beside those `count`, a seventh as many round ends (`play-end-`) and
    the deals of later rounds (`play-dealt-`, round_deals); with `wanted`, only the ids
    it accepts; without `ends`, neither the round ends nor the later rounds' deals (which
    identify, measuring the deals itself, does not ask). Each kind draws from its own seeded
    stream, so a situation's id names the same table whatever the count.

    They are the same for the same code, data, rule set, count and seed: the whole list
    is kept in the cache (spec/cache.py), and read back rather than played again."""
    key = _cache_key(rs, count, seed, ends)
    kept = cache.read(CACHE_KIND, key)
    if isinstance(kept, list):
        try:
            scope = _scope_of(rs)
            found = [_from_data(d, rs, scope) for d in kept]
        except (KeyError, TypeError, ValueError):
            found = None  # not as written: made again
        if found is not None:
            return [fx for fx in found if wanted is None or wanted(fx.id)]
    made = _situations(rs, count, wanted, seed, ends)
    if wanted is None:
        cache.write(CACHE_KIND, key, [_to_data(fx) for fx in made], keep=400)
    return made


CACHE_KIND = "situations"


def _cache_key(rs: Ruleset, count: int, seed: int, ends: bool = True) -> str:
    rules = orjson.dumps([list(rs.choices), list(rs.hand_table), rs.name])
    return cache.digest(_code_digest(), rules, str(count), str(seed),
                        *(() if ends else ("without ends",))) + ".json"


@functools.cache
def _code_digest() -> str:
    """What situations depend on beside their rule set: the engine, the model, the
    harness's notation, and the spec data."""
    folder = catalog().data_dir
    data = (cache.files_digest([Path(str(folder))], (".yaml", ".json"))
            if Path(str(folder)).is_dir() else str(folder))
    return cache.digest(cache.package_digest("mtrain.reference"),
                        cache.package_digest("mtrain.conformance"),
                        cache.package_digest("mtrain.spec", (".py", ".yaml", ".json")), data)


def _to_data(fx: Fixture) -> dict[str, Any]:
    exp = fx.expect[0]
    return {"id": fx.id, "description": fx.description, "clauses": list(fx.clauses),
            "table": _keys_out(fx.table), "deal": fx.deal, "steps": list(fx.steps),
            "note": fx.note,
            "legal": None if exp.legal is None else list(exp.legal),
            "state": _keys_out(exp.state), "starts": fx.kept_starts(),
            **({} if exp.result is ... else {"result": exp.result})}


def _scope_of(rs: Ruleset) -> Scope:
    """The scope of every situation under `rs`: that rule set alone."""
    return Scope((Product.of({o: (v,) for o, v in rs.choices}),))


def _from_data(d: dict[str, Any], rs: Ruleset, scope: Scope | None = None) -> Fixture:
    scope = _scope_of(rs) if scope is None else scope  # one for all of a rule set's
    legal = d["legal"]
    fx = Fixture(
        id=d["id"], description=d["description"], clauses=tuple(d["clauses"]),
        source=("computation",), path=f"{SITUATION_PATH}{rs.name}>", line=None,
        table=_keys_in(d["table"]), deal=d["deal"], steps=tuple(d["steps"]),
        expect=(Expectation(variants=(), scope=scope,
                            legal=None if legal is None else tuple(legal),
                            state=_keys_in(d["state"]) or {},
                            result=d.get("result", ...)),), note=d["note"])
    if isinstance(d.get("starts"), dict):  # its table as built when it was made
        fx.keep_starts(d["starts"])
    return fx


def _keys_out(data: Any) -> Any:
    """A table or state as JSON holds it: seats, which key hands and trains, as text."""
    if not isinstance(data, dict):
        return data
    return {k: ({str(seat): v for seat, v in val.items()} if isinstance(val, dict) else val)
            for k, val in data.items()}


def _keys_in(data: Any) -> Any:
    """_keys_out undone: a seat's key is a number again (`mexican` stays a name)."""
    if not isinstance(data, dict):
        return data
    return {k: ({(int(seat) if seat.isdigit() else seat): v for seat, v in val.items()}
                if isinstance(val, dict) else val) for k, val in data.items()}


def _situations(rs: Ruleset, count: int, wanted: Callable[[str], bool] | None,
                seed: int, ends: bool = True) -> list[Fixture]:
    plays = stand_in_for(rs) if count > 0 else None
    if plays is None:
        return []
    rules, speaks = Rules.of(plays), speaks_for(rs, plays)
    scope = Scope((Product.of({o: (v,) for o, v in rs.choices}),))
    out: list[Fixture] = []
    # the deals take a share, as many as the table has rows; the kinds share the rest
    deals = min(count // (len(KINDS) + 1), len(rs.hand_table))
    rest = count - deals
    for i, kind in enumerate(KINDS):
        quota = rest // len(KINDS) + (i < rest % len(KINDS))
        ids = [f"play-{kind.name}-{k:03d}" for k in range(1, quota + 1)]
        keep = [fid for fid in ids if wanted is None or wanted(fid)]
        if not keep:
            continue
        rng = random.Random(f"{seed}:{rs.name}:{kind.name}")
        for fid in ids[:ids.index(keep[-1]) + 1]:
            reached = pick(kind, rules, rng, speaks=speaks)
            if reached is None:
                break
            if fid in keep:
                out.append(_fixture(kind, fid, reached, rs, plays, scope, speaks))
    out += deal_situations(rs, wanted, deals)
    if not ends:
        return out
    # beside them, what no legal set shows: how rounds end and score, and the deals of
    # other rounds (the search for the engine, the seat that starts)
    out += end_situations(rs, plays, count // (len(KINDS) + 1), wanted, seed)
    return out + round_deals(rs, wanted)


DEAL_CLAUSES = ("DEAL-1", "DEAL-7", "ENG-1", "ENG-2", "ENG-3", "ENG-4", "ENG-6", "SEAT-2",
                "SEAT-3", "SEAT-5", "SEAT-6")


class _Reads(dict[str, str]):
    """Option values that remember which were looked up."""

    def __init__(self, values: dict[str, str]) -> None:
        super().__init__(values)
        self.read: set[str] = set()

    def __getitem__(self, option: str) -> str:
        self.read.add(option)
        return super().__getitem__(option)


def deal_situations(rs: Ruleset, wanted: Callable[[str], bool] | None = None,
                    count: int | None = None) -> list[Fixture]:
    """A deal for each player count the rule set's table lists (the first `count`, taken
    evenly from the smallest table to the largest): the table right after
    it as the deal formalisation of spec/distinguish/solve_deal.py computes it (every
    hand, the boneyard, where the engine is, who moves), so a table of one's own has its
    deals, engine and first seat tested too. Counts alternate the pool's order and the
    round (round 1, then round 2's engine one lower, ENG-1, where the game has a round 2),
    so both orders and both engine procedures' cases show. A deal that reads an option
    played its own way, or that the table cannot deal (DEAL-8), is left out."""
    top = highest(rs["tile_set"])
    table = dict(rs.hand_table)
    scope = Scope((Product.of({o: (v,) for o, v in rs.choices}),))
    rows = sorted(table)
    if count is not None:  # spread over the rows, smallest and largest first
        picked = sorted({rows[round(i * (len(rows) - 1) / max(count - 1, 1))]
                         for i in range(min(count, len(rows)))})
        rows = picked
    out = []
    for players in rows:
        k = sorted(table).index(players)
        fid = f"play-deal-{k + 1:03d}"
        if wanted is not None and not wanted(fid):
            continue
        order = ("sorted", "reversed")[k % 2]
        values = _Reads(dict(rs.choices))
        later = (k // 2) % 2  # round 2, where the game has one (MATCH-1; not MATCH-7)
        if later and match_rounds(Opts(values={"match_length": values["match_length"]}),
                                  top) < 2:
            later = 0
        engine = top - later
        draw = draw_for_start(players, top) if rs["starting_seat"] == "highest-draw" else None
        view = _view_known(rs, values, deal_view(values, table, players, engine, order,
                                                 full=True, draw=draw))
        if view is None:
            continue
        out.append(Fixture(
            id=fid,
            description=(f"the deal for {players} players, pool {order}, engine "
                         f"{engine}-{engine}: {table[players]} tiles each"),
            clauses=DEAL_CLAUSES, source=("computation",),
            path=f"{SITUATION_PATH}{rs.name}>", line=None, table=None,
            deal=_deal(players, order, engine, draw), steps=(),
            expect=(Expectation(variants=(), scope=scope, state=view),),
            note=(f"The deal of {rs.name} for {players} players with the pool {order}: "
                  "the table is spec/distinguish/solve_deal.py's deal_view of its table "
                  "and options, not an engine's.")))
    return out + tie_deals(rs, wanted)


def tie_deals(rs: Ruleset, wanted: Callable[[str], bool] | None = None) -> list[Fixture]:
    """SEAT-6's tie: under heaviest-in-hand, round 1 dealt so that seat 0's heaviest tile
    is [N-1-N-1] and seat 1's [N-N-2], of the same pip total, the one heavier tile left
    ([N-N-1]) first in the boneyard and [N-N] set aside: seat 1 starts, its tile having
    the higher end. The deals from sorted pools never tie (junction, whose planted bug
    gives the tie to the lower seat, was never caught by them). The table is the model's
    deal_view of that pool; nothing if the rule set does not read it or cannot deal it."""
    if rs["starting_seat"] != "heaviest-in-hand" or (
            wanted is not None and not wanted("play-deal-tie-001")):
        return []
    top = highest(rs["tile_set"])
    table = dict(rs.hand_table)
    players = min(table)
    size = table[players]
    pool = list(range(T.set_size(top)))
    pool.remove(T.DOUBLE[top])
    ties = [T.parse(f"{top - 1}-{top - 1}"), T.parse(f"{top}-{top - 2}")]
    heavier = T.parse(f"{top}-{top - 1}")
    rest = [t for t in pool if t not in (*ties, heavier)]
    if players < 2 or size < 1 or players * size >= len(pool):
        return []
    hands = [[*rest[:size - 1], ties[0]], [*rest[size - 1:2 * size - 2], ties[1]]]
    used = 2 * size - 2
    hands += [rest[used + k * size:used + (k + 1) * size] for k in range(players - 2)]
    order = [T.name(t) for h in hands for t in h]
    order += [T.name(heavier)] + [T.name(t) for t in rest[used + (players - 2) * size:]]
    values = _Reads(dict(rs.choices))
    view = _view_known(rs, values, deal_view(values, table, players, top, order, full=True))
    if view is None:
        return []
    scope = Scope((Product.of({o: (v,) for o, v in rs.choices}),))
    return [Fixture(
        id="play-deal-tie-001",
        description=(f"the deal for {players} players, round 1, two heaviest tiles of one "
                     f"pip total: [{top - 1}-{top - 1}] to seat 0, [{top}-{top - 2}] to "
                     "seat 1"),
        clauses=DEAL_CLAUSES, source=("computation",),
        path=f"{SITUATION_PATH}{rs.name}>", line=None, table=None,
        deal=_deal(players, order, top, None), steps=(),
        expect=(Expectation(variants=(), scope=scope, state=view),),
        note=(f"The deal of {rs.name} for {players} players from a pool designed for "
              "SEAT-6's tie: the table is spec/distinguish/solve_deal.py's deal_view of "
              "that pool, not an engine's."))]


def _deal(players: int, order: str | list[str], engine: int, draw: list[list[str]] | None
          ) -> dict[str, Any]:
    """A fixture's deal, with its draw for the start (SEAT-5) where it has one."""
    deal: dict[str, Any] = {"players": players, "order": order, "engine": engine}
    if draw is not None:
        deal["draw"] = draw
    return deal


SEAT_FIELDS = ("seat", "starter")
"""What the starting-seat rule decides in a deal (SEAT-2..4): left unchecked under a
start of one's own, the rest of the deal still checked."""


def _view_known(rs: Ruleset, values: _Reads, view: dict[str, Any] | None
                ) -> dict[str, Any] | None:
    """A deal's view without what an option played its own way decides: the seat that
    starts goes unchecked under a start of one's own; None if another such option was
    read (or the table cannot deal)."""
    if view is None:
        return None
    unknown = values.read & set(rs.unknown)
    if not unknown:
        return view
    if unknown != {"starting_seat"} or view.get("phase") != "start":
        return None
    return {k: v for k, v in view.items() if k not in SEAT_FIELDS}


def _last_wanted(prefix: str, most: int, wanted: Callable[[str], bool] | None) -> int:
    """The highest k <= most whose id (prefix, k in three digits) `wanted` accepts; 0 if
    none; `most` when every id is wanted."""
    if wanted is None:
        return most
    return max((k for k in range(1, most + 1) if wanted(f"{prefix}{k:03d}")), default=0)


DEAL_ROUND_CLAUSES = ("DEAL-1", "ENG-1", "ENG-2", "ENG-3", "ENG-4", "ENG-5", "ENG-6",
                      "SEAT-2", "SEAT-3", "SEAT-4", "SEAT-5", "SEAT-6")


def round_deals(rs: Ruleset, wanted: Callable[[str], bool] | None = None) -> list[Fixture]:
    """Deals of later rounds, beside deal_situations' first two: for each row of the
    table and each pool order, the first round whose rotating seat is not seat 0 with the
    engine dealt (or set aside), and the first such round with nobody dealt the engine,
    its search played to the end (each draw a step). There the seat the search starts
    from (ENG-4, ENG-6), the finder and the seat that starts (SEAT-2..4) show, which a
    first round's deal, starting at seat 0, cannot tell from a bug that always starts
    there. Tables from spec/distinguish/solve_deal.py's deal_view, as deal_situations'."""
    top = highest(rs["tile_set"])
    table = dict(rs.hand_table)
    scope = Scope((Product.of({o: (v,) for o, v in rs.choices}),))
    out: list[Fixture] = []
    # each row and order numbers two deals at most (engine dealt or not): none past the
    # last one `wanted` accepts is played out (conform -k asks for a few ids)
    last = _last_wanted("play-dealt-", 4 * len(table), wanted)
    # a match of its own length is asked a full match's rounds: one it lacks is refused,
    # and that refusal is no failure (partition.round_of_its_own)
    length = "full" if rs["match_length"] == OTHER else rs["match_length"]
    rounds = match_rounds(Opts(values={"match_length": length}), top)
    number = 0
    for players in sorted(table):
        for order in ("sorted", "reversed"):
            taken: set[bool] = set()
            for round_no in range(2, rounds + 1):
                if number >= last:
                    return out
                if (round_no - 1) % players == 0:
                    continue
                engine = top - (round_no - 1)
                draw = (draw_for_start(players, top) if rs["starting_seat"] == "highest-draw"
                        else None)
                found = _round_deal(rs, table, players, engine, order, draw)
                if found is None or found[2] in taken:
                    continue
                taken.add(found[2])
                number += 1
                fid = f"play-dealt-{number:03d}"
                if wanted is not None and not wanted(fid):
                    continue
                view, draws, searched = found
                how = (f"the engine searched for in {draws} draws" if searched
                       else "the engine dealt or set aside")
                out.append(Fixture(
                    id=fid,
                    description=(f"round {round_no}'s deal for {players} players, pool "
                                 f"{order}: {how}"),
                    clauses=DEAL_ROUND_CLAUSES, source=("computation",),
                    path=f"{SITUATION_PATH}{rs.name}>", line=None, table=None,
                    deal=_deal(players, order, engine, draw),
                    steps=("draw",) * draws,
                    expect=(Expectation(variants=(), scope=scope, state=view),),
                    note=(f"Round {round_no} of {rs.name} for {players} players with the "
                          f"pool {order} ({how}): the table is "
                          "spec/distinguish/solve_deal.py's deal_view of its table and "
                          "options, not an engine's.")))
    return out


def _round_deal(rs: Ruleset, table: dict[int, int], players: int, engine: int,
                order: str, draw: list[list[str]] | None
                ) -> tuple[dict[str, Any], int, bool] | None:
    """The table after the deal, and after the search if nobody was dealt the engine:
    (view, draws, whether it was searched for); None if the table cannot deal it or an
    option played its own way decides it."""
    def at(draws: int, full: bool) -> dict[str, Any] | None:
        values = _Reads(dict(rs.choices))
        return _view_known(rs, values, deal_view(values, table, players, engine, order,
                                                 full=full, draws=draws, draw=draw))

    # each draw of the search looked at without the hands and the boneyard by name (the
    # same options read, the same phase: the same verdict); only the table returned in
    # full (naming every tile of every draw's table was most of conform's situations)
    for draws in range(T.set_size(highest(rs["tile_set"])) + 1):
        view = at(draws, full=False)
        if view is None:
            return None
        if view.get("engine_placed"):
            named = at(draws, full=True)
            assert named is not None  # the same options read, the same phase
            return named, draws, draws > 0
    return None


END_CLAUSES = ("END-1", "END-2", "END-3", "SCORE-1", "SCORE-2", "SCORE-3", "SCORE-4",
               "SCORE-5", "SCORE-6", "SCORE-7")


def end_situations(rs: Ruleset, plays: Ruleset, count: int,
                   wanted: Callable[[str], bool] | None = None,
                   seed: int = SEED) -> list[Fixture]:
    """`count` round ends: the table a moment before a random round's last move (a
    player going out, or the pass after which nobody can play), that move as the step,
    and the round's result and scores as spec/model/steps.py replays them. A move or a
    result that reads an option played its own way is left out, as are legal sets
    elsewhere (speaks_for)."""
    if count <= 0:
        return []
    rules = Rules.of(plays)
    unknown = frozenset(rs.unknown)
    scope = Scope((Product.of({o: (v,) for o, v in rs.choices}),))
    rng = random.Random(f"{seed}:{rs.name}:end")
    counts = [n for n, _ in plays.hand_table]
    out: list[Fixture] = []
    # those before the last one wanted are drawn (the stream reaches it), none after
    for number in range(1, _last_wanted("play-end-", count, wanted) + 1):
        found = None
        for _ in range(20):
            found = _last_move(rules, rng, counts, unknown, plays)
            if found is not None:
                break
        if found is None:
            break
        fid = f"play-end-{number:03d}"
        if wanted is not None and not wanted(fid):
            continue
        st, text, moves, unscored = found
        table = table_of(st)
        start = table_state(table, plays)
        result = replay(plays, (text,), state=start)["result"]
        how = "blocked" if result["winner"] is None else f"seat {result['winner']} out"
        if unscored:  # how the round ends, not what it scores: a scoring of one's own
            result = {k: v for k, v in result.items() if k != "scores"}
        fx = Fixture(
            id=fid,
            description=(f"a round's end, {moves} moves in: {st.players} players, engine "
                         f"{st.engine}-{st.engine}, {text} ({how}; #{number})"),
            clauses=END_CLAUSES, source=("computation",),
            path=f"{SITUATION_PATH}{rs.name}>", line=None, table=table, deal=None,
            steps=(text,),
            expect=(Expectation(variants=(), scope=scope, result=result),),
            note=(f"A random round of {rs.name} a move before its end; the result after "
                  f"`{text}` is spec/model/steps.py's replay of that move, not an "
                  "engine's." + (f" Its scores are left unchecked: {', '.join(unscored)} "
                                 "played its own way." if unscored else "")))
        fx.keep_start(plays, start)
        out.append(fx)
    return out


SCORE_OPTIONS = frozenset(("scoring", "blank_values"))
"""Options the reference reads, at a round's end, only to score it (SCORE-1..7, in
engine._finish): how the round ends and who went out are the same whatever they are."""


def _last_move(rules: Rules, rng: random.Random, counts: list[int],
               unknown: frozenset[str], plays: Ruleset
               ) -> tuple[State, str, int, tuple[str, ...]] | None:
    """A random round played to its last move: the state before it, the move as text,
    the moves before it, and the scoring options of one's own it read (its scores then
    go unchecked); None if that move or its outcome reads another unknown option."""
    st = deal(rules, rng.choice(counts), rng.randint(1, rules.rounds),
              seed=rng.randrange(1 << 30))
    moves = 0
    while True:
        actions = legal_actions(st)
        if not actions:
            return None
        action = actions[rng.randrange(len(actions))]
        before = st.copy()
        perform(st, action)
        if st.phase == OVER:
            break
        moves += 1
    if before.phase in (ENGINE, CHAIN) and unknown:
        return None
    if unknown:
        log = Log()
        probe = before.copy()
        probe.rules = TracedRules(rules, TracedRuleset.wrap(plays, log), log)  # type: ignore[assignment]
        legal_actions(probe)
        perform(probe, action)
        read = unknown & set(log.read)
        if read - SCORE_OPTIONS:
            return None
        return (before, action_text(action_to_json(before, action)), moves,
                tuple(sorted(read)))
    return before, action_text(action_to_json(before, action)), moves, ()


def _fixture(kind: Kind, fid: str, reached: Reached, rs: Ruleset, plays: Ruleset,
             scope: Scope, speaks: Callable[[State], bool] | None = None) -> Fixture:
    st = reached.state
    number = int(fid.rsplit("-", 1)[1])
    table = table_of(st)
    start = table_state(table, plays)
    legal = tuple(sorted(legal_actions_of(start, dict(plays.items())), key=_action_key))
    clauses = [c for c in catalog().clauses if c in COMMON or c in kind.clauses]
    before = _before_the_draw(table, st, plays, speaks) if kind.name == "drawn" else None
    steps: tuple[str, ...] = ()
    state: dict[str, Any] = {}
    note = (f"A table reached by a random round of {rs.name} after {reached.moves} moves "
            f"({kind.title}); the legal set is spec/model/legality.py's on that table.")
    if before is not None:  # the draw itself is asked too: the first tile, to the mover
        drawn = table["drawn"]
        steps, state = ("draw",), {"drawn": drawn, "hands": {st.seat: table["hands"][st.seat]}}
        note = (f"{note[:-1]}, after the draw from the table before it: the boneyard's "
                f"first tile, {drawn}, drawn into seat {st.seat}'s hand (TURN-2, DEAL-1).")
        table, start = before, table_state(before, plays)
    fx = Fixture(
        id=fid,
        description=(f"{kind.title}, {reached.moves} moves in: {st.players} players, engine "
                     f"{st.engine}-{st.engine}, seat {st.seat} to move (#{number})"),
        clauses=tuple(clauses), source=("computation",),
        path=f"{SITUATION_PATH}{rs.name}>", line=None, table=table, deal=None, steps=steps,
        expect=(Expectation(variants=(), scope=scope, legal=legal, state=state),),
        note=note)
    fx.keep_start(plays, start)  # the table is played under `plays`: built once
    return fx


def _before_the_draw(table: dict[str, Any], st: State, plays: Ruleset,
                     speaks: Callable[[State], bool] | None) -> dict[str, Any] | None:
    """The table a moment before its tile was drawn: the drawn tile back at the front of
    the boneyard (TURN-2: the first tile is drawn, DEAL-1: in draw order), where the model
    allows the draw there and, for options played their own way, the draw reads none of
    them; None otherwise (the situation is the table after the draw alone)."""
    if st.drawn < 0 or "drawn" not in table:
        return None
    drawn, seat = table["drawn"], st.seat
    before = {k: v for k, v in table.items() if k != "drawn"}
    before["hands"] = {s: [t for t in h if t != drawn] for s, h in table["hands"].items()}
    before["boneyard"] = [drawn, *table["boneyard"]]
    if len(before["hands"][seat]) != len(table["hands"][seat]) - 1:
        return None
    if "draw" not in legal_actions_of(table_state(before, plays), dict(plays.items())):
        return None  # a second draw (draw-until-playable): its first is not on the table
    if speaks is not None:
        probe = st.copy()
        probe.hands[seat] ^= T.BIT[st.drawn]
        probe.boneyard = [st.drawn, *probe.boneyard]
        probe.drawn = -1
        if not speaks(probe):
            return None
    return before


def legal_only(fx: Fixture) -> Fixture:
    """A situation as the table its legal set is asked on, without the draw that leads
    there: what identify asks. The draw is the same under every rule set (TURN-2), so it
    tells none apart, and an engine that draws wrong would have that bug, seen in every
    such table, read as rules of its own on whatever options the legal set reads."""
    if fx.steps != ("draw",) or fx.table is None:
        return fx
    table = dict(fx.table)
    seat = int(table.get("seat", 0))
    drawn, *rest = table["boneyard"]
    table["boneyard"] = rest
    table["hands"] = {**table["hands"], seat: [*table["hands"][seat], drawn]}
    table["drawn"] = drawn
    return dataclasses.replace(fx, table=table, steps=(),
                               expect=(dataclasses.replace(fx.expect[0], state={}),))


# --- writing them out --------------------------------------------------------------------


def fixture_data(fx: Fixture, rs: Ruleset) -> dict[str, Any]:
    """A situation in the fixture file format, scoped to the rule set's own values."""
    entry: dict[str, Any] = {"when": {o: [v] for o, v in rs.choices if v not in _UNNAMED}}
    exp = fx.expect[0]
    if exp.legal is not None:
        entry["legal"] = list(exp.legal)
    if exp.state:
        entry["state"] = exp.state
    if exp.result is not ...:
        entry["result"] = exp.result
    start: dict[str, Any] = ({"table": fx.table} if fx.table is not None
                             else {"deal": fx.deal})
    if fx.steps:
        start["steps"] = list(fx.steps)
    return {"id": fx.id, "description": fx.description, "clauses": list(fx.clauses),
            "source": list(fx.source), "note": fx.note, **start, "expect": [entry]}


_UNNAMED = frozenset((CUSTOM, OTHER))  # a table or a rule of one's own: no value to name


def render(fixtures: list[Fixture], rs: Ruleset) -> str:
    body = "\n".join(yaml.safe_dump([fixture_data(fx, rs)], sort_keys=False,
                                    default_flow_style=None, width=92, allow_unicode=True)
                     for fx in fixtures)
    return f"{HEADER}# rule set: {rs.name}\n\n{body}"
