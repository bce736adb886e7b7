"""Situations from play: tables a round reaches under the rule set being tested, with the
legal actions the formalisation gives them.

The fixtures pin down one rule each, on the smallest table that shows it, and each speaks
about the rule sets its scope names. A rule set of one's own meets only part of them, and
none of them is a table of real play: two to eight players, any engine, a dozen tiles on
each train, open doubles, markers, a drawn tile, an empty boneyard. Situations fill that
gap for whatever rule set is tested, shipped or not:

* the reference deals a round of that rule set and plays random legal moves (or, for an
  empty boneyard, which random rounds of many players seldom reach, legal moves chosen to
  keep the round going until it is empty); a state of the round that shows one of the
  kinds (conformance/situation_kinds.py, which plays the rounds) becomes the table (a
  possible table by construction: the rule set's own moves reached it), written out as a
  fixture by conformance/reached_fixtures.py;
* beside them, a pass after a drawn tile that cannot be played is taken, not only
  offered: the marker it puts up (TURN-4) is the model's replay of the steps
  (spec/model/steps.py), checked against the reference's;
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
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import orjson

from mtrain.conformance import shipped
from mtrain.conformance.fixture import Expectation, Fixture
from mtrain.conformance.reached_fixtures import _fixture, _moved_fixture, table_of
from mtrain.conformance.situation_deals import SITUATION_PATH as SITUATION_PATH
from mtrain.conformance.situation_deals import deal_situations as deal_situations
from mtrain.conformance.situation_deals import last_wanted
from mtrain.conformance.situation_deals import round_deals as round_deals
from mtrain.conformance.situation_deals import tie_deals as tie_deals
from mtrain.conformance.situation_kinds import (
    KINDS,
    LAID,
    PASSED,
    WRAP,
    Kind,
    Policy,
    Reached,
    below,
    draining,
    laid_play,
    pick,
    wrap_play,
)
from mtrain.conformance.traced import Log, TracedRules, TracedRuleset
from mtrain.reference.codec import action_to_json
from mtrain.reference.deal import deal
from mtrain.reference.engine import (
    CHAIN,
    ENGINE,
    OVER,
    PASS,
    Action,
    State,
    legal_actions,
    perform,
)
from mtrain.reference.rules import Rules
from mtrain.spec import cache
from mtrain.spec.catalog import catalog
from mtrain.spec.model.steps import replay
from mtrain.spec.notation import action_text, max_pip_of, table_state
from mtrain.spec.ruleset import Ruleset
from mtrain.spec.scope import Product, Scope, Space

SEED = 20261201
LAID_LEAST = 2
"""Drawn doubles laid (`play-laid-`), and tiles laid by the last seat (`play-wrap-`), per
rule set at least, where a quarter of the passes' share is fewer: a default `mtrain
conform` asks 25 situations of each of its rule sets, whose share (3) gave none, and a
drawn double that ends the turn (siding's DBL-1 bug) failed nothing there. Two per rule
set cost 384 results in a run of 71,000."""


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


def situations(rs: Ruleset, count: int, wanted: Callable[[str], bool] | None = None,
               seed: int = SEED, ends: bool = True,
               rounds: Mapping[int, int] | None = None) -> list[Fixture]:
    """`count` situations under `rs`: a seventh of them deals (no more than its table has
    rows), the rest shared evenly among the kinds (fewer of a kind the rule set's rounds
    stop showing); beside those `count`, a seventh as many round ends (`play-end-`), as
    many passes after a draw in vain (`play-pass-`, PASSED), a quarter as many drawn
    doubles laid (`play-laid-`, LAID_LEAST at least), as many tiles laid by the last seat
    (`play-wrap-`, WRAP) and the deals of later rounds (`play-dealt-`, round_deals). A
    kind (or PASSED) that the rule set's rounds never show gives its share to those they
    do (_quotas). With `wanted`, only the ids it accepts; without `ends`, none of those
    five (identify, measuring the deals itself, asks none). Each kind draws from its own
    seeded stream, so a situation's id names the same table whatever the count. `rounds`:
    player count -> the last round an implementation's match of its own deals there
    (carried.dealt_rounds), the kinds' tables drawn up to it (situation_kinds.pick; reefer
    refuses rounds 6 to 9 of a double-8 set: 11 and 14 of identify's 24 were past them).

    They are the same for the same code, data, rule set, count and seed: the whole list
    is kept in the cache (spec/cache.py), and read back rather than played again; those
    of a default `mtrain conform` made by this very code ship with the package."""
    key = _cache_key(rs, count, seed, ends, rounds)
    kept = cache.read(CACHE_KIND, key)
    if kept is None:  # those of a default run ship with the package (conformance/shipped.py)
        kept = shipped.entry(key, _code_digest())
    if isinstance(kept, list):
        try:
            scope = _scope_of(rs)
            found = [_from_data(d, rs, scope) for d in kept]
        except (KeyError, TypeError, ValueError):
            found = None  # not as written: made again
        if found is not None:
            return [fx for fx in found if wanted is None or wanted(fx.id)]
    made = _situations(rs, count, wanted, seed, ends, rounds)
    if wanted is None:
        cache.write(CACHE_KIND, key, [_to_data(fx) for fx in made], keep=400)
    return made


CACHE_KIND = "situations"


def made_afresh(rs: Ruleset, count: int) -> tuple[str, list[dict[str, Any]]]:
    """A rule set's situations as `situations` keeps them (its key in the cache, and the
    entry), made now, whatever the cache or the shipped files hold: what
    `mtrain situations --shipped` writes and checks."""
    return _cache_key(rs, count, SEED), [_to_data(fx) for fx in _situations(rs, count, None, SEED)]


def code_digest() -> str:
    """The digest of what situations depend on beside their rule set (_code_digest)."""
    return _code_digest()


def _cache_key(rs: Ruleset, count: int, seed: int, ends: bool = True,
               rounds: Mapping[int, int] | None = None) -> str:
    rules = orjson.dumps([list(rs.choices), list(rs.hand_table), rs.name])
    return cache.digest(_code_digest(), rules, str(count), str(seed),
                        *(() if ends else ("without ends",)),
                        *((f"rounds {sorted(rounds.items())}",) if rounds else ())) + ".json"


@functools.cache
def _code_digest() -> str:
    """What situations depend on beside their rule set: the source of every module this
    one imports, directly or through others (the engine, the model, the harness's
    notation, the deals: cache.import_closure), and the spec data (the package's own and
    the catalogue's folder, which MTRAIN_SPEC_DATA may name). An edit to a module they
    do not import (the runner's pool, the report, lint, identify) keeps them."""
    folder = catalog().data_dir
    data = (cache.files_digest([Path(str(folder))], (".yaml", ".json"))
            if Path(str(folder)).is_dir() else str(folder))
    return cache.digest(cache.source_digest(__name__),
                        cache.package_digest("mtrain.spec", (".yaml", ".json")), data)


def _to_data(fx: Fixture) -> dict[str, Any]:
    exp = fx.expect[0]
    return {"id": fx.id, "description": fx.description, "clauses": list(fx.clauses),
            "table": _keys_out(fx.table), "deal": fx.deal, "steps": list(fx.steps),
            "note": fx.note,
            "legal": None if exp.legal is None else list(exp.legal),
            **({} if not exp.refused
               else {"refused": {a: list(c) for a, c in exp.refused.items()}}),
            "state": _keys_out(exp.state), "starts": fx.kept_starts(),
            **({} if exp.result is ... else {"result": exp.result}),
            **({} if exp.match_over is None else {"match_over": exp.match_over}),
            **({} if exp.blocked_scores is None
               else {"blocked_scores": list(exp.blocked_scores)}),
            **({} if not exp.own_steps
               else {"own_steps": [[k, list(o)] for k, o in exp.own_steps]})}


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
                            refused={a: tuple(c) for a, c in d.get("refused", {}).items()},
                            state=_keys_in(d["state"]) or {},
                            result=d.get("result", ...),
                            match_over=d.get("match_over"),
                            blocked_scores=None if d.get("blocked_scores") is None
                            else tuple(d["blocked_scores"]),
                            own_steps=tuple((int(k), tuple(o))
                                            for k, o in d.get("own_steps", ()))),),
        note=d["note"])
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
                seed: int, ends: bool = True,
                rounds: Mapping[int, int] | None = None) -> list[Fixture]:
    plays = stand_in_for(rs) if count > 0 else None
    if plays is None:
        return []
    speaks = speaks_for(rs, plays)
    scope = _scope_of(rs)
    # the deals take a share, as many as the table has rows; the kinds share the rest;
    # beside them as many passes after a draw in vain (and round ends, below)
    deals = min(count // (len(KINDS) + 1), len(rs.hand_table))
    rest = count - deals
    beside = count // (len(KINDS) + 1)
    shares = {kind: rest // len(KINDS) + (i < rest % len(KINDS))
              for i, kind in enumerate(KINDS)}
    if ends:
        shares[PASSED] = beside
    streams = {kind: _Stream(kind, rs, plays, speaks, seed, rounds) for kind in shares}
    quotas = _quotas(shares, streams, wanted)
    out: list[Fixture] = []
    for kind in KINDS:
        out += _of_kind(streams[kind], quotas[kind], rs, plays, scope, speaks, wanted)
    out += deal_situations(rs, wanted, deals)
    if not ends:
        return out
    # beside them, what no legal set shows: how rounds end and score, and the deals of
    # other rounds (the search for the engine, the seat that starts)
    out += end_situations(rs, plays, beside, wanted, seed)
    out += _of_kind(streams[PASSED], quotas[PASSED], rs, plays, scope, speaks, wanted)
    # a few drawn doubles laid (a draw and a play, one moment) and as many tiles laid by
    # the last seat (the turn back to seat 0), apart from the shares: a rule set whose
    # rounds never show one gives nothing to the others
    for kind in (LAID, WRAP):
        out += _of_kind(_Stream(kind, rs, plays, speaks, seed), max(LAID_LEAST, beside // 4),
                        rs, plays, scope, speaks, wanted)
    return out + round_deals(rs, wanted)


class _Stream:
    """The states of one kind a rule set's random rounds reach, in the order of the
    kind's own seeded stream: the k-th is play-<kind>-k's table whatever the count.
    Whether there is a first is asked once and kept (_quotas asks it)."""

    def __init__(self, kind: Kind, rs: Ruleset, plays: Ruleset,
                 speaks: Callable[[State], bool] | None, seed: int,
                 rounds: Mapping[int, int] | None = None) -> None:
        self.kind = kind
        self.rounds = rounds  # the last round dealt per player count (pick)
        self.rules = Rules.of(plays)
        self.check = self._check(rs, plays, speaks, False)
        self.rng = random.Random(f"{seed}:{rs.name}:{kind.name}")
        self._first: Reached | None = None
        self._looked = False
        # a move's legality may read a rule of one's own (step_alone.py): whether the kind
        # shows with none read is asked apart, for the quotas (_quotas)
        moved = kind in (PASSED, LAID, WRAP) and speaks is not None
        self._strict = self._check(rs, plays, speaks, True) if moved else None
        self._strict_rng = random.Random(f"{seed}:{rs.name}:{kind.name}:strict")
        self._strictly: bool | None = None

    def _check(self, rs: Ruleset, plays: Ruleset, speaks: Callable[[State], bool] | None,
               strict: bool) -> Callable[[State], bool] | None:
        kind = self.kind
        return (_pass_speaks(self.rules, rs, plays, speaks, strict) if kind is PASSED
                else _play_speaks(self.rules, rs, plays, speaks, laid_play, strict=strict)
                if kind is LAID
                else _play_speaks(self.rules, rs, plays, speaks, wrap_play, goes_on=True,
                                  strict=strict)
                if kind is WRAP else speaks)

    def shows_strictly(self) -> bool:
        """Whether the rounds show the kind with a move whose legality reads no rule of
        one's own: a kind that shows only with such moves keeps its share (their refusal
        is not applicable, step_alone.py) and gives it to the others as well, as a kind
        that never shows does, so that they make as many situations as before."""
        if self._strict is None or not self.shows():
            return self.shows()
        if self._strictly is None:
            first = self._first
            self._strictly = (first is not None and self._strict(first.state)) or pick(
                self.kind, self.rules, self._strict_rng, speaks=self._strict,
                rounds=self.rounds) is not None
        return self._strictly

    def shows(self) -> bool:
        """Whether the rule set's rounds show the kind at all: a first state within TRIES
        rounds (a kind whose tables all read an option played its own way has none)."""
        if not self._looked:
            self._first, self._looked = pick(self.kind, self.rules, self.rng,
                                             speaks=self.check, rounds=self.rounds), True
        return self._first is not None

    def reached(self) -> Iterator[Reached]:
        """The states in order, until a state of the kind is not found (read once)."""
        if not self.shows():
            return
        found = self._first
        while found is not None:
            yield found
            found = pick(self.kind, self.rules, self.rng, speaks=self.check,
                         rounds=self.rounds)


def _quotas(shares: dict[Kind, int], streams: dict[Kind, _Stream],
            wanted: Callable[[str], bool] | None) -> dict[Kind, int]:
    """Each kind's share, and the share of each kind the rule set's rounds never show
    (a draw rule of one's own decides every table with a tile drawn, TURN-3, and every
    pass after one, TURN-4) given to the kinds that show, evenly in the kinds' order:
    the rule set still gets as many situations that speak about it. Whether a kind shows
    is its stream's first state, so the quotas, and what an id names, are the same for
    the same rule set, count and seed, whatever `wanted`; under `wanted` they are looked
    for only when it asks an id past a kind's own share (none could exist otherwise)."""
    most = sum(shares.values())
    if wanted is not None and all(
            last_wanted(f"play-{kind.name}-", most, wanted) <= share
            for kind, share in shares.items()):
        return shares
    gone = [kind for kind, share in shares.items()
            if share and not streams[kind].shows_strictly()]
    if not gone:
        return shares
    given = sum(shares[kind] for kind in gone)
    takers = [kind for kind in shares if kind not in gone and streams[kind].shows()]
    quotas = {kind: share if kind not in gone or streams[kind].shows() else 0
              for kind, share in shares.items()}
    for i, kind in enumerate(takers):
        quotas[kind] += given // len(takers) + (i < given % len(takers))
    return quotas


def _of_kind(stream: _Stream, quota: int, rs: Ruleset, plays: Ruleset, scope: Scope,
             speaks: Callable[[State], bool] | None,
             wanted: Callable[[str], bool] | None) -> list[Fixture]:
    """Up to `quota` situations of the stream's kind (`play-<kind>-NNN`); fewer where the
    rule set's rounds stop showing it."""
    kind = stream.kind
    ids = [f"play-{kind.name}-{k:03d}" for k in range(1, quota + 1)]
    keep = {fid for fid in ids if wanted is None or wanted(fid)}
    if not keep:
        return []
    last = max(k for k, fid in enumerate(ids) if fid in keep)
    out: list[Fixture] = []
    # those before the last one wanted are drawn (the stream reaches it), none after
    for fid, reached in zip(ids[:last + 1], stream.reached(), strict=False):
        if fid in keep:
            made = (_moved_fixture(kind, fid, reached, rs, plays, scope, speaks)
                    if kind in (PASSED, LAID, WRAP)
                    else _fixture(kind, fid, reached, rs, plays, scope, speaks))
            if made is not None:
                out.append(made)
    return out


def _pass_speaks(rules: Rules, rs: Ruleset, plays: Ruleset,
                 speaks: Callable[[State], bool] | None,
                 strict: bool = False) -> Callable[[State], bool]:
    """For PASSED: whether the pass on a table with a tile drawn in vain leaves the round
    going (the next player's legal set is asked), and, for options played their own way,
    whether what the pass does and the next table read none of them (`strict`: the
    pass's legality neither)."""
    unknown = frozenset(rs.unknown)

    def usable(st: State) -> bool:
        after = st.copy()
        if unknown:
            log = Log()
            after.rules = TracedRules(rules, TracedRuleset.wrap(plays, log), log)  # type: ignore[assignment]
            perform(after, PASS)
            if not unknown.isdisjoint(log.read):
                return False
        else:
            perform(after, PASS)
        if after.phase == OVER:
            return False
        # the table's legal set is the pass's legality alone: a rule of one's own read
        # there refuses the pass or lets it do what it does (step_alone.py)
        return speaks is None or ((speaks(st) if strict else _a_table_of(st, unknown))
                                  and speaks(after))
    return usable


def _play_speaks(rules: Rules, rs: Ruleset, plays: Ruleset,
                 speaks: Callable[[State], bool] | None,
                 play_of: Callable[[State], Action | None],
                 goes_on: bool = False, strict: bool = False) -> Callable[[State], bool]:
    """For LAID and WRAP: whether what the play the situation takes (`play_of`: the drawn
    double, or the last seat's tile) does reads none of the options played their own way
    (`strict`: nor whether it is legal; what the play leaves is checked, not the next
    legal set, which a follow-up rule of one's own decides); with `goes_on`, whether the
    round goes on after it (a round blocked by the play leaves whose turn it is to its
    result, END-2)."""
    unknown = frozenset(rs.unknown)

    def usable(st: State) -> bool:
        play = play_of(st)
        if play is None:
            return False
        if unknown or goes_on:
            log = Log()
            after = st.copy()
            if unknown:
                after.rules = TracedRules(rules, TracedRuleset.wrap(plays, log), log)  # type: ignore[assignment]
            perform(after, play)
            if not unknown.isdisjoint(log.read) or (goes_on and after.phase == OVER):
                return False
        # the table's legal set is the play's legality alone (as for PASSED)
        return speaks is None or (speaks(st) if strict else _a_table_of(st, unknown))
    return usable


def _a_table_of(st: State, unknown: frozenset[str]) -> bool:
    """Whether `st` is a table of a rule set whose options `unknown` are its own (speaks_for
    without the legal set): not a chain's, under a chain rule of its own (FIRST-1)."""
    return not (st.phase == CHAIN and "first_turn" in unknown)


END_CLAUSES = ("END-1", "END-2", "END-3", "SCORE-1", "SCORE-2", "SCORE-3", "SCORE-4",
               "SCORE-5", "SCORE-6", "SCORE-7")


def end_situations(rs: Ruleset, plays: Ruleset, count: int,
                   wanted: Callable[[str], bool] | None = None,
                   seed: int = SEED, totals: bool = False,
                   rounds: Mapping[int, int] | None = None) -> list[Fixture]:
    """`count` round ends: the table a moment before a random round's last move (a
    player going out, or the pass after which nobody can play), that move as the step,
    and the round's result and scores as spec/model/steps.py replays them; every other
    round drained towards an empty boneyard, so that blocked rounds show at any player
    count. A move or a result that reads an option played its own way is left out, as
    are legal sets elsewhere (speaks_for). `totals`: half of the rounds before the
    match's last (from round 2) start from raised running totals (raised_totals), where
    the match still goes on under MATCH-1: an engine whose match ends at a total of its
    own says so there, which totals of 0 never reach. `rounds`: player count -> the last
    round an implementation's match of its own deals at that count (own_rounds.last_dealt):
    rounds are drawn up to it, not past it, where the implementation refuses the table
    (reefer's five rounds of a double-8 set's nine lost 4 round ends in 9)."""
    if count <= 0:
        return []
    rules = Rules.of(plays)
    unknown = frozenset(rs.unknown)
    scope = Scope((Product.of({o: (v,) for o, v in rs.choices}),))
    rng = random.Random(f"{seed}:{rs.name}:end")
    counts = [n for n, _ in plays.hand_table]
    out: list[Fixture] = []
    # those before the last one wanted are drawn (the stream reaches it), none after
    for number in range(1, last_wanted("play-end-", count, wanted) + 1):
        found = None
        for _ in range(20):
            # every other round drained (draining): rounds that end blocked, on an empty
            # boneyard (END-2, END-3), which random rounds of many players seldom reach
            found = _last_move(rules, rng, counts, unknown, plays,
                               draining if number % 2 == 0 else None, rounds)
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
        after = replay(plays, (text,), state=start)
        result = after["result"]
        how = "blocked" if result["winner"] is None else f"seat {result['winner']} out"
        alone = BLOCKED in unscored  # whether it ends is the rule's, what it is worth not
        if unscored and not alone:  # how it ends, not what it scores: a scoring of its own
            result = {k: v for k, v in result.items() if k != "scores"}
        # MATCH-1: a round before the last leaves the match going, whatever the totals (a
        # match of one's own decides which round is the last: not checked then). The
        # table's round, which its engine says (an engine of ENG-7, ENG-8 may be another
        # round's number)
        goes_on = (int(start["round"]) < rules.rounds and "match_length" not in unknown
                   and not alone)
        raised = None
        if totals and goes_on and int(start["round"]) >= 2 and (number // 2) % 2 == 0:
            # a random stream of its own: the tables and moves drawn stay those without
            raised = raised_totals(random.Random(f"{seed}:{rs.name}:totals:{number}"),
                                   int(start["round"]), st.players, plays)
            table["scores"] = raised
            start = table_state(table, plays)
        fx = Fixture(
            id=fid,
            description=(f"a round's end, {moves} moves in: {st.players} players, engine "
                         f"{st.engine}-{st.engine}, {text} ({how}; #{number})"),
            clauses=(*END_CLAUSES, *(() if alone else ("MATCH-5",)),
                     *(("MATCH-1",) if goes_on else ())),
            source=("computation",),
            path=f"{SITUATION_PATH}{rs.name}>", line=None, table=table, deal=None,
            steps=(text,),
            expect=(Expectation(variants=(), scope=scope, blocked_scores=tuple(
                result["scores"])) if alone else
                # the outs too: one more for the seat that went out, none after a
                # blocked end (MATCH-5's count, whatever decides who wins; reefer's
                # blocked round gave its fewest tiles an out, checked nowhere else)
                Expectation(variants=(), scope=scope, result=result,
                            state={"outs": after["outs"]},
                            match_over=False if goes_on else None),),
            note=(f"A random round of {rs.name} a move before its end; the result after "
                  f"`{text}` is spec/model/steps.py's replay of that move, not an "
                  "engine's." + (" Whether it ends there is its own blocked rule's: its "
                                 "scores alone are asked, by a `score` request naming no "
                                 "winner." if alone else
                                 f" Its scores are left unchecked: {', '.join(unscored)} "
                                 "played its own way." if unscored else "")
                  + (f" Round {start['round']} of {rules.rounds}: the match goes on "
                     "(MATCH-1)"
                     + (f", whatever the totals: {raised} before it, raised "
                        "(raised_totals)." if raised else ".")
                     if goes_on else "")))
        fx.keep_start(plays, start)
        out.append(fx)
    return out


TOTALS_FROM, TOTALS_TO = 60, 1000
"""The range, spread evenly on a log scale, of the leading running total raised_totals
gives a round's table: a match that ends at a total of its own (a points cap, `first to
200`) is seen to end wherever its cap lies in it."""


def raised_totals(rng: random.Random, round_no: int, players: int, plays: Ruleset
                  ) -> list[int]:
    """Running totals before round `round_no` of a match of `players` (MATCH-1): the
    leader's drawn evenly on a log scale between TOTALS_FROM and TOTALS_TO, the others'
    between 0 and it; none above what the rounds before could give (every earlier round
    at most the pips of the whole set to each seat), so the table stays one a match can
    reach. The known match lengths play on whatever they are (MATCH-1)."""
    top = max_pip_of(plays)
    most = (round_no - 1) * (top + 2) * top * (top + 1) // 2  # each number on top + 2 ends
    leader = min(most, round(TOTALS_FROM * (TOTALS_TO / TOTALS_FROM) ** rng.random()))
    out = [rng.randint(0, leader) for _ in range(players)]
    out[rng.randrange(players)] = leader
    return out


SCORE_OPTIONS = frozenset(("scoring", "blank_values"))
"""Options the reference reads, at a round's end, only to score it (SCORE-1..7, in
engine._finish): how the round ends and who went out are the same whatever they are."""
BLOCKED = "blocked_round"
"""The option that decides whether a round with an empty boneyard is over (END-2, END-3):
played its own way, a blocked end's scores are still the scoring's (blocked_alone.py)."""


def _last_move(rules: Rules, rng: random.Random, counts: list[int],
               unknown: frozenset[str], plays: Ruleset, policy: Policy | None = None,
               rounds: Mapping[int, int] | None = None
               ) -> tuple[State, str, int, tuple[str, ...]] | None:
    """A random round (moves at random, or by `policy`) played to its last move: the
    state before it, the move as text, the moves before it, and the scoring options of
    one's own it read (its scores then go unchecked); None if that move or its outcome
    reads another unknown option. Its round is one of the match's, up to the last that
    `rounds` gives its player count (as many draws of the stream either way)."""
    players = rng.choice(counts)
    last = max(1, min(rules.rounds, (rounds or {}).get(players, rules.rounds)))
    st = deal(rules, players, rng.randint(1, last), seed=rng.randrange(1 << 30))
    moves = 0
    while True:
        actions = legal_actions(st)
        if not actions:
            return None
        action = (actions[below(rng, len(actions))] if policy is None
                  else policy(st, actions, rng))
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
        legal_read = unknown & set(log.read)
        perform(probe, action)
        read = unknown & set(log.read)
        if BLOCKED in read and not legal_read and not read & SCORE_OPTIONS and (
                probe.result is not None and probe.result.winner < 0):
            # a blocked end under a blocked rule of one's own (END-2's search may read the
            # other rules too): whether the round ends there is the rule's, but the move is
            # legal whatever they are and its hands' worth is the scoring's: its scores
            # alone are asked (blocked_alone.py)
            return before, action_text(action_to_json(before, action)), moves, (BLOCKED,)
        if read - SCORE_OPTIONS:
            return None
        return (before, action_text(action_to_json(before, action)), moves,
                tuple(sorted(read)))
    return before, action_text(action_to_json(before, action)), moves, ()


def legal_only(fx: Fixture) -> Fixture:
    """A situation as the table its legal set is asked on, without the draw that leads
    there: what identify asks. The draw is the same under every rule set (TURN-2), so it
    tells none apart, and an engine that draws wrong would have that bug, seen in every
    such table, read as rules of its own on whatever options the legal set reads. Nor its
    refusal of a train past the last seat (TRAIN-1), which reads no option."""
    if fx.expect[0].refused:  # (TRAIN-1's train past the last seat: no option reads it)
        fx = dataclasses.replace(fx, expect=(dataclasses.replace(fx.expect[0], refused={}),))
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
