"""What an implementation under test must answer (the Implementation interface, the
exceptions it may raise, the JSON it speaks), apart from the reference engine behind it
(reference_adapter.py): the host of an in-process adapter (inprocess.py) and the process
client (process.py) import this, and so does an adapter through adapter.py, without the
engine, the catalogue and the YAML reader that the reference needs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import orjson

from mtrain.conformance.untrusted import cut

if TYPE_CHECKING:
    from mtrain.reference.rules import Rules
    from mtrain.spec.ruleset import Ruleset

JSON = dict[str, Any]
ADDED_IN_V1 = frozenset(("doubles", "match_length"))
"""Options a protocol rule set may leave out (docs/protocol.md, Changes within version 1)."""


class Refused(Exception):
    """The implementation refused an action; `clause` is the clause it named, if any."""

    def __init__(self, reason: str, clause: str | None = None) -> None:
        reason, clause = cut(reason), cut(clause)  # an engine's texts, quoted in reports
        super().__init__(reason)
        self.reason = reason
        self.clause = clause


class RefusedSetup(Exception):
    """The rule set does not allow this setup: a deal it does not deal (a player count its
    hand-size table lacks, DEAL-7), or a table it cannot have. Raise it from `deal`, or from
    any method given such a table; `clause` names the clause that refuses it. Over the
    protocol, the same is an error answer of kind `refused-setup`."""

    def __init__(self, reason: str, clause: str | None = None) -> None:
        reason, clause = cut(reason), cut(clause)  # an engine's texts, quoted in reports
        super().__init__(reason)
        self.reason = reason
        self.clause = clause


class Unsupported(Exception):
    """Raise it from any adapter method when the engine cannot answer this question (a
    state, an action, a rule set it does not model): the result is not-applicable, not a
    failure. Over the protocol, the same is an error answer of kind `unsupported`."""

    def __init__(self, reason: str = "the implementation does not support this") -> None:
        reason = cut(reason)
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
        or raise RefusedSetup(reason, clause) when the rule set does not deal it. Under
        starting_seat highest-draw (SEAT-5) the harness passes the keyword `draw` too
        (one list of tile texts per seat: the first drawing's tile, then the run-offs'):
        accept it where that rule is played."""
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


IMPOSSIBLE = "impossible state"
"""How the error for a table the rules cannot hold begins (identify reads it)."""


def ruleset_json(rs: Ruleset) -> JSON:
    data = rs.to_json()
    data["hand_sizes"] = {str(n): h for n, h in rs.hand_table}
    return data


def _rows(rows: tuple[tuple[int, int], ...]) -> str:
    return ", ".join(f"{n}: {h}" for n, h in rows)


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
        raise RefusedSetup(f"no hand size for {players} player{'s' * (players != 1)}: the "
                           f"hand-size table (hand_sizes={rs['hand_sizes']}) lists "
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
