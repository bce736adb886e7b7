"""What an implementation under test must answer, and the reference engine behind it.

Everything crosses this boundary in canonical JSON (spec/schemas/state, action,
ruleset), so the same runner drives an in-process Python object and, through the
protocol, a process written in any language.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import orjson

from mtrain import __version__
from mtrain.reference import codec, engine
from mtrain.reference.deal import deal, match_over, match_winners
from mtrain.reference.invariants import Violation, violations
from mtrain.reference.rules import Rules
from mtrain.spec.catalog import catalog
from mtrain.spec.ruleset import CUSTOM, OTHER, Ruleset

JSON = dict[str, Any]


class Refused(Exception):
    """The implementation refused an action; `clause` is the clause it named, if any."""

    def __init__(self, reason: str, clause: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.clause = clause


class RefusedSetup(Exception):
    """The rule set does not allow this setup: a deal it does not deal (a player count its
    hand-size table lacks, DEAL-7), or a table it cannot have. Raise it from `deal`, or from
    any method given such a table; `clause` names the clause that refuses it. Over the
    protocol, the same is an error answer of kind `refused-setup`."""

    def __init__(self, reason: str, clause: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.clause = clause


class Unsupported(Exception):
    """Raise it from any adapter method when the engine cannot answer this question (a
    state, an action, a rule set it does not model): the result is not-applicable, not a
    failure. Over the protocol, the same is an error answer of kind `unsupported`."""

    def __init__(self, reason: str = "the implementation does not support this") -> None:
        super().__init__(reason)
        self.reason = reason


@runtime_checkable
class Implementation(Protocol):
    """An engine under test. Subclass or duck-type it; every method speaks canonical JSON.

    `ruleset` is {"name": ..., "options": {option: value}, "hand_sizes": {"2": 15, ...}}.
    """

    def info(self) -> JSON:
        """{"name", "version", "variants": [names it supports] or ["*"]}."""
        ...

    def deal(self, ruleset: JSON, players: int, round: int, order: list[str]) -> JSON:
        """The state of a new round dealt from `order` (hands from the front, seat 0 first),
        or raise RefusedSetup(reason, clause) when the rule set does not deal it."""
        ...

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        """Every legal action in `state`."""
        ...

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        """The next state, or raise Refused(reason, clause)."""
        ...

    def winners(self, ruleset: JSON, state: JSON) -> list[int]:
        """The seats that win the match, given a state whose last round is over; [] while
        the match goes on (the round not over, or rounds to come)."""
        ...


class Scoring(Protocol):
    """Optional: an implementation with `score` has it asked for the scoring fixtures
    too, so that SCORE-1..6 are checked on their own as well as through a round's end."""

    def score(self, ruleset: JSON, state: JSON, winner: int | None) -> list[int]:
        """The round's scores from the hands in `state`, seat `winner` having gone out
        (None: the round is blocked)."""
        ...


def ruleset_json(rs: Ruleset) -> JSON:
    data = rs.to_json()
    data["hand_sizes"] = {str(n): h for n, h in rs.hand_table}
    return data


COUNTS_EVERY_TABLE = frozenset(range(2, 5))
"""Player counts every named hand-size table lists (DEAL-2 to DEAL-6): a table of these
seats is refused by no named table, so the check reads no option for them."""


def _check_players(rules: Rules, players: int) -> None:
    """DEAL-7: a setup for a player count the hand-size table lacks is refused. The option
    is read (so a traced run depends on it) only where some table could lack the count."""
    rs = rules.ruleset
    if players in COUNTS_EVERY_TABLE and not rs.custom_table:
        return
    if not rs.deals(players):  # whether it deals them, not how many tiles (partition.py)
        # named by the table it plays, not by the request's name: an engine of fixed
        # rules plays its own table whatever rule set a request names; the rows listed
        # only word the message
        raise RefusedSetup(f"no hand size for {players} players: the hand-size table "
                           f"(hand_sizes={rs['hand_sizes']}) lists "
                           f"{', '.join(str(n) for n, _ in rs.hand_table)}", "DEAL-7")


_ONLY_JSON = (orjson.OPT_PASSTHROUGH_SUBCLASS | orjson.OPT_PASSTHROUGH_DATACLASS
              | orjson.OPT_PASSTHROUGH_DATETIME)
"""What orjson would write as JSON of another type is refused (no `default` is given)."""


def fingerprint(state: Any) -> bytes | None:
    """A state's exact JSON text (types told apart: 1, 1.0 and true differ), or None for
    a value JSON cannot hold: what the decoded-state memos are keyed by, so that a state
    changed after it was read is never mistaken for the one read. orjson writes NaN and
    the infinities as null: a text with a null where the state holds none is no key."""
    try:
        key = orjson.dumps(state, option=_ONLY_JSON)
    except TypeError:  # not JSON, or a subclass of a JSON type, a date, a dataclass
        return None
    if b"null" in key and key.count(b"null") != _nulls(state):
        return None
    return key


def _nulls(state: Any) -> int:
    """How many nulls a state holds where a valid one may: `drawn`, `result` and the
    result's `winner` (a null anywhere else makes `fingerprint` give no key)."""
    if type(state) is not dict:
        return -1
    result = state.get("result", 0)
    return ((state.get("drawn", 0) is None) + (result is None)
            + (type(result) is dict and result.get("winner", 0) is None))


class _Reading:
    """Stands in for a Rules while a state is read and checked, keeping each flag read
    with its value: any Rules with the same values reads that JSON text alike."""

    __slots__ = ("_rules", "read")

    def __init__(self, rules: Rules) -> None:
        self._rules = rules
        self.read: dict[str, Any] = {}

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._rules, name)
        self.read[name] = value
        return value


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

    def __init__(self, size: int) -> None:
        self.size = size
        self._memo: dict[bytes, list[_Entry]] = {}

    def read(self, rules: Rules, data: Any, key: bytes | None
             ) -> tuple[engine.State, list[Violation]]:
        """The state of `data` under `rules` and its broken invariants; a StateError as
        codec.state_from_json raises it."""
        if key is None or type(rules) is not Rules:
            st = codec.state_from_json(rules, data)
            return st, violations(st)
        entries = self._memo.get(key)
        if entries is not None:
            for attrs, values, st, broken in entries:
                if st.rules is rules:
                    return st, broken
                if attrs is not None and all(
                        getattr(rules, a) == v for a, v in zip(attrs, values, strict=True)):
                    bound = st.copy()
                    bound.rules = rules
                    return bound, broken
        reading = _Reading(rules)
        st = codec.state_from_json(reading, data)  # type: ignore[arg-type]
        broken = violations(st)
        st.rules = rules
        self._keep(key, (tuple(reading.read), tuple(reading.read.values()), st, broken))
        return st, broken

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

    def rules(self, ruleset: JSON) -> Rules:
        options = ruleset["options"]
        table = ruleset.get("hand_sizes")
        seen = self._seen.get(id(options))
        if seen is not None and seen[0] == options and seen[1] == table:
            return seen[2]  # a rule set asked about before: the usual case
        try:  # hashed as it is: a repr of the sorted items costs five times as much
            key: object = (tuple(options.items()),
                           None if table is None else tuple(table.items()))
        except (AttributeError, TypeError):  # not a mapping of plain values: read below
            key = repr((sorted(options.items()), table))
        found = self._rules.get(key)
        if found is None:
            cat = catalog()
            base = dict(cat.ruleset(next(iter(cat.variants))).choices)
            full = {**base, **options}  # a partial rule set keeps the first variant's rest
            unknown = [o for o, v in full.items() if v == OTHER]
            if unknown:
                raise ValueError("the reference engine cannot play a rule it does not know: "
                                 + ", ".join(f"{o}={OTHER}" for o in unknown))
            rows = None
            if full.get("hand_sizes") == CUSTOM:  # a table of the rule set's own
                rows = tuple(sorted((int(n), int(h)) for n, h in (table or {}).items()))
            rs = cat.from_values(full, str(ruleset.get("name") or ""), rows)
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
            raise codec.StateError("impossible state: "
                                   + "; ".join(f"{inv} {msg}" for inv, msg in broken))
        return st

    def info(self) -> JSON:
        return {"name": "mtrain-reference", "version": __version__, "variants": ["*"]}

    def deal(self, ruleset: JSON, players: int, round: int, order: list[str]) -> JSON:
        rules = self.rules(ruleset)
        _check_players(rules, players)
        if isinstance(round, int) and engine.no_such_round(rules, round):  # MATCH-7
            raise RefusedSetup(f"no round {round}: the game is a single round", "MATCH-7")
        ids = codec.tile_ids(order, rules.max_pip)
        return codec.state_to_json(deal(rules, players, round, order=ids))

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        st = self.state(ruleset, state)
        return [codec.action_to_json(st, a) for a in engine.legal_actions(st)]

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        st = self.state(ruleset, state)
        try:
            act = codec.action_from_json(st, action)
            new = engine.apply(st, act)
        except engine.IllegalAction as e:
            raise Refused(e.message, e.clause) from None
        except codec.StateError as e:  # an action naming no train or no tile of the set
            raise Refused(str(e), e.clause) from None
        answer = codec.state_to_json(new)
        if self.remembers_states and type(st.rules) is Rules:
            # The engine's own state, asked about next, needs no reading or checking. Not
            # under a traced view of the rules (scoping.py): there the checks' reads count.
            key = fingerprint(answer)
            if key is not None:
                self._states.remember(key, new)
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
