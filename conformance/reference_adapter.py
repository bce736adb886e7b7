"""The reference engine behind the Implementation interface (interface.py, named through
adapter.py), and the memos of states read and answers given that it shares with
`mtrain serve` (serve.py).

Apart from adapter.py so that an adapter importing what it must answer does not import
the engine with it; adapter.py still answers for every name here (`from
mtrain.conformance.adapter import ReferenceImplementation` works as it always did).
"""

from __future__ import annotations

import contextlib
import functools
import operator
from collections.abc import Callable
from typing import Any

import orjson

from mtrain import __version__
from mtrain.conformance.declaration import hand_rows
from mtrain.conformance.interface import (
    ADDED_IN_V1,
    IMPOSSIBLE,
    JSON,
    Refused,
    RefusedSetup,
    _check_players,
    _rows,
    fingerprint,
)
from mtrain.reference import codec, engine, refusals
from mtrain.reference.deal import BadDraw, deal, match_over, match_winners
from mtrain.reference.invariants import Violation, violations
from mtrain.reference.rules import Rules
from mtrain.spec import tiles as T
from mtrain.spec.catalog import catalog
from mtrain.spec.ruleset import CUSTOM, OTHER


class _Reading:
    """Stands in for a Rules while a state is read and checked, keeping each flag read
    with its value: any Rules with the same values reads that JSON text alike. With
    `peeking`, over a traced view of the rules (traced.TracedRules), each flag is looked
    up with its `peek`: logged as read to know whether the state is one the rules have,
    not as deciding what happens on it (`_read_traced` logs them as deciding where it is
    not)."""

    __slots__ = ("_get", "_rules", "read")

    def __init__(self, rules: Rules, peeking: bool = False) -> None:
        self._rules = rules
        self._get = _peek(rules) if peeking else functools.partial(getattr, rules)
        self.read: dict[str, Any] = {}

    def __getattr__(self, name: str) -> Any:
        value = self._get(name)
        self.read[name] = value
        return value


def _lacks(missing: list[str]) -> str:
    return (f"ruleset.options lacks {', '.join(missing)}: a rule set gives one value for "
            f"every option (only {' and '.join(sorted(ADDED_IN_V1))} may be left out)")


def _peek(rules: Any) -> Callable[[str], Any]:
    """How a flag of `rules` is read to check a state: a traced view's `peek` (logged as
    read for the state's existence), else the flag itself."""
    peek: Callable[[str], Any] | None = getattr(rules, "peek", None)
    return peek if peek is not None else functools.partial(getattr, rules)


def _deciding(rules: Any, flags: tuple[str, ...], broken: list[Violation]) -> None:
    """Log the flags a reading read as deciding, where the state is broken under the
    rules (a traced view only: it has `decide`): the run's outcome turned on them."""
    decide = getattr(rules, "decide", None)
    if broken and decide is not None:
        decide(flags)


@functools.cache
def _flags(attrs: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """A function giving the values of the flags `attrs` of a Rules, as a tuple (C speed:
    the memos below compare them for every rule set that asks)."""
    if len(attrs) == 1:
        one = operator.attrgetter(attrs[0])
        return lambda rules: (one(rules),)
    many: Callable[[Any], tuple[Any, ...]] = operator.attrgetter(*attrs) if attrs else (
        lambda rules: ())
    return many


_Entry = tuple[tuple[str, ...] | None, tuple[Any, ...], engine.State, list[Violation]]


class DecodedStates:
    """States read (codec.state_from_json) and checked (invariants.violations) before, by
    their exact JSON text (`fingerprint`): conform plays a fixture under dozens of rule
    sets, most of which read its table, and the states after its steps, alike.

    An entry keeps the flags the reading and the checks read, with their values (recorded
    by `_Reading`): it serves every Rules with the same values, the state bound to that
    Rules, since the reading is a function of the text and of those values alone. A state
    the engine wrote itself (`remember`) serves the Rules it was written under only. Only
    plain Rules are served: a traced or mutated view of the rules reads on its own."""

    def __init__(self, size: int, traced: bool = False, lazy: bool = False) -> None:
        self.size = size
        self.lazy = lazy
        """Whether a text seen for the first time is read plainly and not kept (only its
        text is noted), and read again with its flags recorded when it comes back: a
        server most of whose states are new (a game) pays the recording, and keeps
        states for the collector to walk, only for those asked about again."""
        self.traced = traced
        """Whether a traced view of the rules (traced.TracedRules) is served too: the
        entry's flags read through it again, in the order the reading first read them,
        so that its log records what a reading would (not an entry whose reading read
        the rule set itself, whose methods log more than the flag)."""
        self._memo: dict[bytes, list[_Entry]] = {}
        self._seen: set[bytes] = set()  # the texts read once, when lazy

    def read(self, rules: Rules, data: Any, key: bytes | None
             ) -> tuple[engine.State, list[Violation]]:
        """The state of `data` under `rules` and its broken invariants; a StateError as
        codec.state_from_json raises it."""
        st, broken, _ = self.read_entry(rules, data, key)
        return st, broken

    def read_entry(self, rules: Rules, data: Any, key: bytes | None
                   ) -> tuple[engine.State, list[Violation], _Entry | None]:
        """`read`, and the entry that served it (None when none is kept): what its
        reading read, for a memo of the answers about the state (`Answers`)."""
        if key is None or type(rules) is not Rules:
            if key is not None and self.traced:
                return self._read_traced(rules, data, key)
            st = codec.state_from_json(rules, data)
            return st, violations(st), None
        entries = self._memo.get(key)
        if entries is not None:
            for entry in entries:
                attrs, values, st, broken = entry
                if st.rules is rules:
                    return st, broken, entry
                if attrs is not None and _flags(attrs)(rules) == values:
                    bound = st.copy()
                    bound.rules = rules
                    return bound, broken, entry
        elif self.lazy and key not in self._seen:
            # only the text is kept (no container for the collector to walk)
            if len(self._seen) >= 4 * self.size:
                self._seen.clear()
            self._seen.add(key)
            st = codec.state_from_json(rules, data)
            return st, violations(st), None
        reading = _Reading(rules)
        st = codec.state_from_json(reading, data)  # type: ignore[arg-type]
        broken = violations(st)
        st.rules = rules
        entry = (tuple(reading.read), tuple(reading.read.values()), st, broken)
        self._keep(key, entry)
        return st, broken, entry

    def _read_traced(self, rules: Any, data: Any, key: bytes
                     ) -> tuple[engine.State, list[Violation], _Entry | None]:
        # The flags a reading reads say whether the state is one the rules have (its
        # invariants: an open double under DBL-11's ordinary doubles), never what happens
        # on it: peeked (logged as such), and logged as deciding only where the state is
        # broken under these rules, so that a rule of one's own that reaches it is judged
        # on what follows (tandem's `doubles: other`, whose open doubles bind as DBL-6
        # says: its duties were set aside for the open-doubles invariant's read alone).
        peek = _peek(rules)
        for entry in self._memo.get(key, ()):
            attrs, values, st, broken = entry
            if st.rules is rules:
                return st, broken, entry
            # read one by one, stopping where a value differs: a prefix of what the
            # reading reads, in its order (a reading under these rules reads them too)
            if attrs is not None and "ruleset" not in attrs and all(
                    peek(a) == v for a, v in zip(attrs, values, strict=True)):
                _deciding(rules, attrs, broken)
                bound = st.copy()
                bound.rules = rules
                return bound, broken, entry
        reading = _Reading(rules, peeking=True)
        st = codec.state_from_json(reading, data)  # type: ignore[arg-type]
        broken = violations(st)
        _deciding(rules, tuple(reading.read), broken)
        st.rules = rules
        if "ruleset" in reading.read:
            return st, broken, None
        entry = (tuple(reading.read), tuple(reading.read.values()), st, broken)
        self._keep(key, entry)
        return st, broken, entry

    def remember(self, key: bytes, st: engine.State) -> None:
        """A state the engine wrote, under its own Rules: nothing to read or check."""
        self._keep(key, (None, (), st, []))

    def _keep(self, key: bytes, entry: _Entry) -> None:
        entries = self._memo.get(key)
        if entries is None:
            if len(self._memo) >= self.size:
                self._memo.clear()
            entries = self._memo[key] = []
        entries.append(entry)


_Answer = tuple[tuple[str, ...] | None, tuple[Any, ...], Rules, int,
                bytes | tuple[str, str | None]]
"""(flags read, their values, the Rules it was found under, the seats, the answer's JSON
text or a refusal's reason and clause)."""


class Answers:
    """The reference's answers to `legal` and `apply`, by the exact JSON text of the state
    and of the action: conform asks the same questions under dozens of rule sets.

    An entry keeps the flags its state's reading and the answer read (`_Reading`), with
    their values, and serves every Rules with the same values, the engine being a function
    of the state, the action and those flags alone; one whose state was the engine's own
    (`DecodedStates.remember`) serves its own Rules only. Answers are handed out as fresh
    copies (callers may write to them)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._memo: dict[tuple[bytes, bytes], list[_Answer]] = {}

    def find(self, rules: Rules, key: tuple[bytes, bytes]) -> Any:
        """The answer kept for `key` that holds under `rules` (json-decoded), else None;
        Refused for a refusal kept, RefusedSetup where `rules` deals no such table."""
        entries = self._memo.get(key)
        if entries is None:
            return None
        for attrs, values, owner, players, answer in entries:
            if owner is rules or (attrs is not None and _flags(attrs)(rules) == values):
                _check_players(rules, players)
                if type(answer) is bytes:
                    return orjson.loads(answer)
                raise Refused(*answer)
        return None

    def keep(self, key: tuple[bytes, bytes], read: _Entry | None, answered: _Reading,
             players: int, answer: bytes | tuple[str, str | None]) -> None:
        """An answer found under `answered` for a state read as `read` says."""
        if read is None:
            return
        attrs: tuple[str, ...] | None = None
        values: tuple[Any, ...] = ()
        if read[0] is not None:
            both = dict(zip(read[0], read[1], strict=True))
            both.update(answered.read)
            attrs, values = tuple(both), tuple(both.values())
        entries = self._memo.get(key)
        if entries is None:
            if len(self._memo) >= self.size:
                self._memo.clear()
            entries = self._memo[key] = []
        entries.append((attrs, values, answered._rules, players, answer))


MEMO_ANSWERS = 8192
"""Questions (a state and an action, or `legal`) whose answers a ReferenceImplementation
keeps."""
_LEGAL = b"legal"
"""The action part of a `legal` question's key (no action's JSON text)."""

def _traced(st: engine.State, rules: Rules) -> tuple[engine.State, _Reading]:
    """A copy of `st` reading its rules through a `_Reading` (what an answer reads)."""
    reading = _Reading(rules)
    traced = st.copy()
    traced.rules = reading  # type: ignore[assignment]
    return traced, reading


MEMO_RULES = 256
"""Rule sets a ReferenceImplementation knows by the identity of their options."""
MEMO_STATES = 256
"""States a ReferenceImplementation keeps decoded: those of the fixture at hand, under
every rule set it runs."""


class ReferenceImplementation:
    """The reference engine behind the Implementation interface."""

    remembers_states = True
    """Whether states read, and states returned, are kept decoded (see `state`): not by
    an engine with functions swapped for some calls (mutants), whose reading of a state
    may differ from one call to the next."""

    whole_rule_sets = False
    """Whether a rule set must give every option (but ADDED_IN_V1): so over the protocol
    (`mtrain serve`); in process, a partial one keeps the first variant's rest."""

    def __init__(self) -> None:
        self._rules: dict[object, Rules] = {}
        # by the identity of the options object a request carries (a harness sends the
        # same rule set's with every request), checked equal to a copy taken when it was
        # read: an object changed or freed since finds its own rules
        self._seen: dict[int, tuple[dict[str, Any], Any, Rules]] = {}
        # A harness asks several questions about one state (its legal actions, refusals,
        # winners, the score) and then about the state an action led to, and the same
        # under the next rule set: each is read and checked once.
        self._states = DecodedStates(MEMO_STATES)
        self._answers = Answers(MEMO_ANSWERS)
        # an engine with a `state` of its own (one that reads tables otherwise) is asked
        # through it: the memo of answers reads states as `state` here does
        self._own_state = type(self).state is not ReferenceImplementation.state

    def rules(self, ruleset: JSON) -> Rules:
        options = ruleset["options"]
        table = ruleset.get("hand_sizes")
        seen = self._seen.get(id(options))
        if seen is not None and seen[0] == options and seen[1] == table:
            return seen[2]  # a rule set asked about before: the usual case
        try:  # hashed as it is: a repr of the sorted items costs five times as much
            key: object = (tuple(options.items()),
                           None if table is None else tuple(table.items()))
            hash(key)  # a value that is an object or a list hashes no better than a repr
        except (AttributeError, TypeError):  # not a mapping of plain values: read below
            key = repr((sorted(options.items()), table))
        found = self._rules.get(key)
        if found is None:
            cat = catalog()
            base = dict(cat.ruleset(next(iter(cat.variants))).choices)
            full = {**base, **options}  # a partial rule set keeps the first variant's rest
            missing = [o for o in base if o not in options and o not in ADDED_IN_V1
                       ] if self.whole_rule_sets else []
            # what it lacks is told before the values are checked together (a conflict of
            # the first variant's with the request's was told in its place: the hand table
            # of `pagat` on a double-9 set), after each value it gives is (an unknown one)
            if missing and all(o in cat.options and isinstance(v, str) and (
                    v in cat.options[o].values or v in (OTHER, CUSTOM))
                    for o, v in options.items()):
                raise ValueError(_lacks(missing))
            unknown = [o for o, v in full.items() if v == OTHER]
            if unknown:
                raise ValueError("the reference engine cannot play a rule it does not know: "
                                 + ", ".join(f"{o}={OTHER}" for o in unknown))
            rows = None if table is None else hand_rows(table, "ruleset.hand_sizes")
            custom = full.get("hand_sizes") == CUSTOM  # a table of the rule set's own
            if custom and not rows:  # else "unknown value 'custom'", a value v1 has
                raise ValueError("ruleset.options.hand_sizes is `custom`, a table of the "
                                 "rule set's own, but ruleset.hand_sizes (players: tiles) "
                                 f"is {'missing' if table is None else 'empty'}")
            rs = cat.from_values(full, str(ruleset.get("name") or ""),
                                 (rows or ()) if custom else None)
            if missing:  # else read as the first variant's: rules nobody sent
                raise ValueError(_lacks(missing))
            if rows is not None and not custom and rows != rs.hand_table:
                theirs = f"({_rows(rows)})" if rows else "empty"
                raise ValueError(f"ruleset.hand_sizes is not the table hand_sizes="
                                 f"{full['hand_sizes']} deals ({_rows(rs.hand_table)}), but "
                                 f"the request's, {theirs}: which is played?")
            found = self._rules[key] = Rules.of(rs)
        if type(options) is dict and (table is None or type(table) is dict):
            if len(self._seen) >= MEMO_RULES:
                self._seen.clear()
            self._seen[id(options)] = (dict(options), table and dict(table), found)
        return found

    def state(self, ruleset: JSON, state: JSON) -> engine.State:
        """The engine state of a JSON state; an impossible table is a StateError naming
        every broken invariant, never a crash further on."""
        rules = self.rules(ruleset)
        key = fingerprint(state) if self.remembers_states else None
        try:
            st, broken = self._states.read(rules, state, key)  # never changed: apply copies
        except codec.StateError as e:
            if e.clause == "MATCH-7":  # a round a single-round game never reaches
                raise RefusedSetup(str(e), "MATCH-7") from None
            raise
        _check_players(rules, st.players)
        if broken:
            raise codec.StateError(f"{IMPOSSIBLE}: "
                                   + "; ".join(f"{inv} {msg}" for inv, msg in broken))
        return st

    def info(self) -> JSON:
        return {"name": "mtrain-reference", "version": __version__, "variants": ["*"]}

    def deal(self, ruleset: JSON, players: int, round: int, order: list[str],
             draw: list[list[str]] | None = None) -> JSON:
        rules = self.rules(ruleset)
        _check_players(rules, players)
        if isinstance(round, int) and engine.no_such_round(rules, round):  # MATCH-7
            raise RefusedSetup(f"no round {round}: the game is a single round", "MATCH-7")
        ids = codec.tile_ids(order, rules.max_pip)
        drawn = None
        if rules.highest_draw_starts:  # SEAT-5 reads the draw; other seats ignore it
            try:
                drawn = [[T.parse(x) for x in seat] for seat in draw or ()] if draw else None
                return codec.state_to_json(deal(rules, players, round, order=ids,
                                                draw=drawn))
            except (BadDraw, T.TileError) as e:
                raise RefusedSetup(f"the draw for the start: {e}", "SEAT-5") from None
        return codec.state_to_json(deal(rules, players, round, order=ids))

    def _question(self, ruleset: JSON, state: JSON, action: JSON | None
                  ) -> tuple[Rules | None, tuple[bytes, bytes] | None]:
        """The rules of a request, and its key in the answers memo (None: not kept; the
        rules are not read where no memo is kept: `state` reads them)."""
        if not self.remembers_states or self._own_state:
            return None, None
        rules = self.rules(ruleset)
        if type(rules) is not Rules:
            return rules, None
        key = fingerprint(state)
        what = _LEGAL if action is None else fingerprint(action)
        return rules, None if key is None or what is None else (key, what)

    def _read(self, rules: Rules, state: JSON, key: bytes | None
              ) -> tuple[engine.State, _Entry | None]:
        """`state` as the engine state `state()` gives, and the entry that read it."""
        try:
            st, broken, entry = self._states.read_entry(rules, state, key)
        except codec.StateError as e:
            if e.clause == "MATCH-7":  # a round a single-round game never reaches
                raise RefusedSetup(str(e), "MATCH-7") from None
            raise
        _check_players(rules, st.players)
        if broken:
            raise codec.StateError(f"{IMPOSSIBLE}: "
                                   + "; ".join(f"{inv} {msg}" for inv, msg in broken))
        return st, entry

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        rules, key = self._question(ruleset, state, None)
        if key is None or rules is None:
            st = self.state(ruleset, state)
            return [codec.action_to_json(st, a) for a in engine.legal_actions(st)]
        found = self._answers.find(rules, key)
        if found is not None:
            kept: list[JSON] = found
            return kept
        st, entry = self._read(rules, state, key[0])
        traced, reading = _traced(st, rules)
        answer = [codec.action_to_json(traced, a) for a in engine.legal_actions(traced)]
        with contextlib.suppress(TypeError):
            self._answers.keep(key, entry, reading, st.players, orjson.dumps(answer))
        return answer

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        rules, key = self._question(ruleset, state, action)
        if key is not None and rules is not None:
            found = self._answers.find(rules, key)
            if found is not None:
                kept: JSON = found
                return kept
            st, entry = self._read(rules, state, key[0])
            traced, reading = _traced(st, rules)
        else:
            key, st, entry, reading = None, self.state(ruleset, state), None, None
            traced = st
        try:
            act = codec.action_from_json(traced, action)
            new = refusals.apply(traced, act)
        except engine.IllegalAction as e:
            if key is not None and reading is not None:
                self._answers.keep(key, entry, reading, st.players, (e.message, e.clause))
            raise Refused(e.message, e.clause) from None
        except codec.StateError as e:  # an action naming no train or no tile of the set
            if e.clause is None:  # no action of the game at all, as serve's bad-request
                raise
            if key is not None and reading is not None:
                self._answers.keep(key, entry, reading, st.players, (str(e), e.clause))
            raise Refused(str(e), e.clause) from None
        answer = codec.state_to_json(new)
        new.rules = st.rules
        if key is not None and reading is not None:
            text = fingerprint(answer)
            if text is not None:
                self._answers.keep(key, entry, reading, st.players, text)
                self._states.remember(text, new)
            return answer
        if self.remembers_states and type(st.rules) is Rules:
            # The engine's own state, asked about next, needs no reading or checking. Not
            # under a traced view of the rules (scoping.py): there the checks' reads count.
            written = fingerprint(answer)
            if written is not None:
                self._states.remember(written, new)
        return answer

    def winners(self, ruleset: JSON, state: JSON) -> list[int]:
        st = self.state(ruleset, state)
        return match_winners(st) if match_over(st) else []  # MATCH-1: rounds to come

    def score(self, ruleset: JSON, state: JSON, winner: int | None) -> list[int]:
        """SCORE-1..6 on the hands of `state`, as the end of the round would score them."""
        st = self.state(ruleset, state)
        if winner is not None and (not 0 <= winner < st.players or st.hands[winner]):
            raise ValueError(f"seat {winner} did not go out (its hand is not empty)")
        done = st.copy()
        done.result = None
        engine._finish(done, engine.BLOCKED if winner is None else engine.DOMINO,
                       -1 if winner is None else winner)
        assert done.result is not None
        return list(done.result.scores)
