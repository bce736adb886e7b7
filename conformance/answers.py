"""Every answer an implementation gives, checked against the schemas and the invariants.

`state_problems(ruleset, state)` lists what is wrong with a state an implementation
returned, each problem naming where it is:

- a schema violation (spec/schemas/state.schema.json; status `error`): the JSON path in
  the state and the schema keyword it breaks (extra keys, `"passes": "0"`, ...);
- a state the reference codec cannot read as a table (status `fail`): the field at fault
  (a train written far end first, an engine that is not this round's, ...);
- a broken invariant of spec/data/invariants.yaml (status `fail`): its id (a tile in two
  places, a train not connected to the engine, ...); after a deal, INV-HAND-SIZES too.

`CheckedImplementation` wraps an implementation so that every state, list of actions and
list of winners it returns is checked, and raises `AnswerError` instead of returning a
wrong one: conform's runner and fuzz use it, so both judge answers the same way.

The schema checks are written out by hand (a generic validator takes milliseconds per
state); tests/test_answers.py shows they give jsonschema's verdict, and jsonschema itself
is asked only to word a violation that was found.
"""

from __future__ import annotations

import functools
import io
import json
import pickle
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from mtrain.conformance.adapter import (
    JSON,
    DecodedStates,
    Implementation,
    ReferenceImplementation,
    Unsupported,
    fingerprint,
)
from mtrain.reference import codec
from mtrain.reference.invariants import AFTER_DEAL
from mtrain.reference.rules import Rules
from mtrain.spec import tiles as T
from mtrain.spec.errors import QUOTE_LIMIT, shown
from mtrain.spec.yamlschema import first_repeat, schema, strict_validator

if TYPE_CHECKING:  # imported to word a violation found: a run that finds none needs it not
    import jsonschema

_A = TypeVar("_A")  # an answer of any call, returned unchanged once checked

# The bounds the schemas give (sized for the largest tile set and table), read from them.
_STATE_DEFS: dict[str, Any] = schema("state")["$defs"]
_TILE_RE = re.compile(_STATE_DEFS["tile"]["pattern"])
_TOP: int = _STATE_DEFS["number"]["maximum"]
_ROUNDS: int = schema("state")["properties"]["round"]["maximum"]
_SEAT_MAX: int = schema("protocol")["$defs"]["seat"]["maximum"]
_PROPS: dict[str, Any] = schema("state")["properties"]
_SEAT: int = _STATE_DEFS["seat"]["maximum"]
_SEATS: int = _PROPS["hands"]["maxItems"]
_TRAINS: int = _PROPS["trains"]["maxItems"]
_COUNT: int = _PROPS["passes"]["maximum"]
_SCORE: int = _PROPS["scores"]["items"]["maximum"]
_OUTS: int = _PROPS["outs"]["items"]["maximum"]
_RESULT_SCORE: int = _STATE_DEFS["result"]["properties"]["scores"]["items"]["maximum"]
_TILES = frozenset(f"{a}-{b}" for a in range(_TOP + 1) for b in range(_TOP + 1))
_STATE_KEYS = frozenset(("round", "engine", "engine_placed", "phase", "seat", "starter",
                         "hands", "boneyard", "trains", "mexican", "open_doubles",
                         "turn_doubles", "drawn", "first_turns", "passes", "scores", "outs",
                         "result"))
_PHASES = frozenset(("engine", "start", "chain", "follow", "over"))
_SIMPLE = frozenset(("draw", "pass", "end-chain"))
_CLAUSE_RE = re.compile(r"^[A-Z]+-[0-9]+$")


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an answer. kind: schema | state | invariant; `where` is the
    schema path, the state field, or the invariant id."""

    kind: str
    where: str
    message: str

    @property
    def key(self) -> str:
        """`where` without what varies from one answer to the next (list positions): the
        invariant id, the schema keyword's path, or the field."""
        if self.kind == "schema" and "[" in self.where:
            return self.where.rsplit("[", 1)[1].rstrip("]")
        return re.sub(r"\[\d+\]", "[*]", self.where)

    @property
    def status(self) -> str:
        return "error" if self.kind == "schema" else "fail"

    def __str__(self) -> str:
        what = {"schema": "breaks the schema", "state": "is not a table",
                "invariant": "breaks"}[self.kind]
        # legal's actions and winners' seats are the answer's own fields, not a state's
        whose = ("answer" if self.kind == "schema" and "state.schema.json" not in self.where
                 else "returned state")
        return f"the {whose} {what}: {self.where}: {self.message}"


class AnswerError(Exception):
    """An answer that breaks the schemas or the invariants."""

    def __init__(self, asked: str, problems: list[Problem]) -> None:
        self.asked = asked
        self.problems = problems
        self.status = "error" if any(p.kind == "schema" for p in problems) else "fail"
        self.messages = [f"{asked}: {p}" for p in problems]
        super().__init__("; ".join(self.messages))


# --- the schemas, by hand ---------------------------------------------------------------


def _int(v: Any) -> bool:
    """An integer, as the protocol's checks and the file loaders read one: never 1.0 (which
    JSON Schema would count) nor a boolean; an answer is judged alike whether it came as
    JSON or from an in-process adapter, where 1.0 == 1 == True."""
    return type(v) is int


def _nat(v: Any, most: int) -> bool:
    """An integer from 0 to `most` (the schema's maximum: an answer's 10**400 passed the
    check and was then told as a broken table, not a broken schema)."""
    return _int(v) and 0 <= v <= most


def _tile(v: Any) -> bool:
    # the set answers for every canonical tile; the pattern for the rest ("1-1\n" matches)
    return type(v) is str and (v in _TILES or _TILE_RE.search(v) is not None)


_STR = frozenset((str,))
_INT_TYPE = frozenset((int,))


def _tiles(v: Any) -> bool:
    if type(v) is not list:
        return False
    try:  # the usual list, of canonical tiles only, in two passes in C
        canonical = _TILES.issuperset(v) and set(map(type, v)) <= _STR
    except TypeError:  # an unhashable item: no tile
        return False
    return (canonical or all(map(_tile, v))) and len(set(v)) == len(v)


def _train_ref(v: Any) -> bool:
    return v == "mexican" if type(v) is str else _nat(v, _SEAT)


def _refs(v: Any) -> bool:
    """A unique list of train references (seat numbers and "mexican")."""
    return type(v) is list and all(map(_train_ref, v)) and len(set(v)) == len(v)


def _nats(v: Any, most: int, unique: bool = False) -> bool:
    if type(v) is not list:
        return False
    if v and (not set(map(type, v)) <= _INT_TYPE or min(v) < 0 or max(v) > most):
        return False
    return not unique or len(set(v)) == len(v)


def _train(v: Any, personal: bool) -> bool:
    if type(v) is not dict:
        return False
    keys = v.keys()
    want = {"tiles", "end", "marker"} if personal else {"tiles", "end"}
    if keys != want:
        return False
    end = v["end"]
    if not (_int(end) and 0 <= end <= _TOP) or not _tiles(v["tiles"]):
        return False
    return not personal or type(v["marker"]) is bool


def _result(v: Any) -> bool:
    if type(v) is not dict or v.keys() != {"end", "winner", "scores"}:
        return False
    end, winner = v["end"], v["winner"]
    if end not in ("domino", "blocked") or type(end) is not str or not _nats(
            v["scores"], _RESULT_SCORE):
        return False
    return _nat(winner, _SEAT) if end == "domino" else winner is None


_FIELDS: dict[str, Callable[[Any], bool]] = {
    "round": lambda v: _int(v) and 1 <= v <= _ROUNDS,
    "engine": lambda v: _int(v) and 0 <= v <= _TOP,
    "engine_placed": lambda v: type(v) is bool,
    "phase": lambda v: type(v) is str and v in _PHASES,
    "seat": lambda v: _nat(v, _SEAT),
    "starter": lambda v: _nat(v, _SEAT),
    "passes": lambda v: _nat(v, _COUNT),
    "hands": lambda v: type(v) is list and 0 < len(v) <= _SEATS and all(map(_tiles, v)),
    "boneyard": _tiles,
    "trains": lambda v: type(v) is list and len(v) <= _TRAINS and all(
        _train(t, True) for t in v),
    "mexican": lambda v: _train(v, False),
    "open_doubles": _refs,
    "turn_doubles": _refs,
    "drawn": lambda v: v is None or _tile(v),
    "first_turns": lambda v: _nats(v, _SEAT, unique=True),
    "scores": lambda v: _nats(v, _SCORE),
    "outs": lambda v: _nats(v, _OUTS),
    "result": lambda v: v is None or _result(v),
}
"""Each field of a state, whether its value passes the field's own schema (the state
schema's `properties`); a value one finds valid, jsonschema does too (schema_problems
relies on it)."""
_FIELD_CHECKS = tuple(_FIELDS.items())


def state_valid(s: Any) -> bool:
    """Whether `s` passes spec/schemas/state.schema.json (the same verdict as jsonschema)."""
    if type(s) is not dict or s.keys() != _STATE_KEYS:
        return False
    for field, valid in _FIELD_CHECKS:
        if not valid(s[field]):
            return False
    # the schema's allOf: a result exactly when the round is over, the engine placed in
    # every phase but `engine`
    phase: str = s["phase"]
    placed: bool = s["engine_placed"]
    return (s["result"] is None) == (phase != "over") and placed == (phase != "engine")


def action_valid(a: Any) -> bool:
    """Whether `a` passes spec/schemas/action.schema.json."""
    if type(a) is not dict:
        return False
    kind = a.get("type")
    if kind == "play" and type(kind) is str:
        if a.keys() != {"type", "tile", "train"} or not _tile(a["tile"]):
            return False
        train = a["train"]  # (action.schema.json gives a seat no maximum: a state does)
        return train == "mexican" if type(train) is str else _int(train) and train >= 0
    return a.keys() == {"type"} and type(kind) is str and kind in _SIMPLE


def refusal_valid(reason: Any, clause: Any) -> bool:
    return type(reason) is str and (clause is None or (
        type(clause) is str and _CLAUSE_RE.search(clause) is not None))


@functools.cache
def _validator(name: str) -> jsonschema.protocols.Validator:

    validator: jsonschema.protocols.Validator = strict_validator(schema(name))
    return validator


@functools.lru_cache(maxsize=64)
def _state_validator(broken: frozenset[str]) -> jsonschema.protocols.Validator:
    """A validator of the state schema that walks only the fields of `broken`: every other
    field's schema is `true` (a state's tiles took jsonschema 50 ms when one count was
    wrong). The paths of the schema are unchanged, and so is each error it finds."""
    whole = schema("state")
    fields = {k: v if k in broken else True for k, v in whole["properties"].items()}
    validator: jsonschema.protocols.Validator = strict_validator(
        {**whole, "properties": fields})
    return validator


def schema_problems(name: str, doc: Any, prefix: str = "") -> list[Problem]:
    """jsonschema's account of why `doc` breaks spec/schemas/<name>.schema.json: each
    violation's place in the document and the schema keyword it breaks (slow: only once a
    violation is known). A state's fields that pass their checks by hand (_FIELDS) are
    not walked again: they hold no error."""
    validator = _validator(name)
    if name == "state" and type(doc) is dict:
        validator = _state_validator(frozenset(
            k for k, valid in _FIELD_CHECKS if k in doc and not valid(doc[k])))
    out = []
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
    for e in errors[:3]:
        e, message = _meant(e)
        at = "/".join(str(p) for p in e.absolute_path)
        keyword = "/".join(str(p) for p in e.absolute_schema_path)
        where = f"{prefix}{at}" if at or prefix else "(the whole document)"
        said = _tile_said(e) or message
        quoted = repr(e.instance)
        if len(quoted) > QUOTE_LIMIT and said.startswith(quoted):  # a 401-digit score: the
            said = shown(e.instance) + said[len(quoted):]  # cut took "is greater than" too
        if e.validator == "uniqueItems" and isinstance(e.instance, list) and (
                k := first_repeat(e.instance)) is not None:  # not the whole list quoted
            said = (f"{_short(json.dumps(e.instance[k], default=repr), 80)} is listed "
                    f"twice (again at {where}/{k}; each once)")
        out.append(Problem("schema", f"{where} [{name}.schema.json#/{keyword}]",
                           _short(said)))
    return out or [Problem("schema", f"{prefix or '(the whole document)'} "
                           f"[{name}.schema.json]", "does not match the schema")]


def _meant(e: jsonschema.ValidationError) -> tuple[jsonschema.ValidationError, str]:
    """The error to tell, and its message: inside a choice (oneOf, anyOf), the error of
    the one choice the value was meant for, followed down: the one no error of which
    refuses the value as a whole (its type, or the field that names its kind: a play's
    `"type": "play"`). An action `{"type": "play", ..., "train": "0"}` is then told by
    its train (`"0"` is a string: expected an integer or "mexican"), where jsonschema says
    only that the action fits no choice (a Perl engine writing a number it had printed)."""
    while e.context:
        branches: dict[Any, list[jsonschema.ValidationError]] = {}
        for sub in e.context:
            branches.setdefault(sub.relative_schema_path[0], []).append(sub)
        meant = [subs for subs in branches.values() if not any(map(_refuses_kind, subs))]
        if len(meant) == 1 and len(meant[0]) == 1:
            e = meant[0][0]
            continue
        if len(meant) == 1 and len({tuple(sub.relative_path) for sub in meant[0]}) == 1:
            # one field broken several ways (a result's `"winner": "0"`: its choice of a
            # seat or null, and its type): the choice says it whole
            e = next((sub for sub in meant[0] if sub.context), meant[0][0])
            continue
        if not meant:  # every choice refused the value itself: say what they want
            wanted = [_wanted(sub) for subs in branches.values() for sub in subs
                      if not sub.relative_path]
            if wanted and all(wanted):
                return e, (f"{json.dumps(e.instance)} is {_json_type(e.instance)}; "
                           f"expected {' or '.join(dict.fromkeys(w for w in wanted if w))}")
            kinds = _kind_refused(e.instance, list(branches.values()))
            if kinds is not None:  # {"type": "PASS"}: "fits no choice" said nothing of why
                return e, kinds
        break
    return e, e.message


def _kind_refused(value: Any, branches: list[list[jsonschema.ValidationError]]
                  ) -> str | None:
    """Where every choice refused an object by one field that names its kind (an action's
    `type`), that field's value and the values the choices take there."""
    if not isinstance(value, dict):
        return None
    fields, wanted = set(), []
    for subs in branches:
        named = [sub for sub in subs if len(sub.relative_path) == 1
                 and sub.validator in ("const", "enum")]
        if not named:
            return None
        fields.add(named[0].relative_path[0])
        wanted.append(_wanted(named[0]))
    if len(fields) != 1 or not all(wanted):
        return None
    field = fields.pop()
    return (f"{field} {_short(json.dumps(value.get(field)), 80)} is none of "
            f"{' or '.join(dict.fromkeys(w for w in wanted if w))}, written exactly so")


_TILE_PATTERN: str = schema("state")["$defs"]["tile"]["pattern"]


def _tile_said(e: jsonschema.ValidationError) -> str | None:
    """What a value where a tile goes that is none says: the tile's form, not the regular
    expression or "is not of type 'string'" ([4, 0] for "4-0", "07-07" for "7-7")."""
    if not (isinstance(e.schema, dict) and e.schema.get("pattern") == _TILE_PATTERN
            and e.validator in ("type", "pattern")):
        return None
    return (f"{_short(json.dumps(e.instance, default=repr), 80)} is not a tile: a tile is "
            'text, its two ends (0 to 18) joined by a hyphen: "4-0", no space nor leading '
            "zero")


def _refuses_kind(sub: jsonschema.ValidationError) -> bool:
    """Whether a choice's error refuses the value for what it is (its type, or a const or
    enum on it or on one field of it, the field that names its kind)."""
    if not sub.relative_path:
        return sub.validator in ("type", "const", "enum")
    return len(sub.relative_path) == 1 and sub.validator in ("const", "enum")


def _wanted(sub: jsonschema.ValidationError) -> str | None:
    """What a choice that refused the value as a whole wants, in words."""
    value: Any = sub.validator_value
    if sub.validator == "type":
        kinds = value if isinstance(value, list) else [value]
        return " or ".join("null" if k == "null" else f"an {k}" if str(k)[:1] in "aeiou"
                           else f"a {k}" for k in kinds)
    if sub.validator == "const":
        return json.dumps(value)
    if sub.validator == "enum" and isinstance(value, list):
        return " or ".join(json.dumps(v) for v in value)
    return None


def _json_type(value: Any) -> str:
    """A JSON value's type, in words (a string, an integer, ...)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    return {str: "a string", int: "an integer", float: "a number", list: "a list",
            dict: "an object"}.get(type(value), type(value).__name__)


def _short(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[:limit - 3] + "..."


# --- states -----------------------------------------------------------------------------


_REFERENCE = ReferenceImplementation()
_CHECKED = DecodedStates(1024)
"""States checked before, by their exact JSON text: conform asks about the same states
under dozens of rule sets, and an engine returns the same state to each of most of them."""


_VALID: dict[bytes, None] = {}
"""States found valid (state_valid), by their pickle: a state of the same pickle is of the
same types (a tuple is no list, an IntEnum no int, NaN no null) and values, so it passes
the schema too."""
KEPT_VALID = 1024


def exact_text(value: Any) -> bytes | None:
    """The pickle of `value`, written without its memo (so that equal values of equal
    types give equal bytes, however they share objects), or None for a value pickle
    cannot write (a cycle, a lock)."""
    out = io.BytesIO()
    pickler = pickle.Pickler(out, 5)
    pickler.fast = True  # no memo
    try:
        pickler.dump(value)
    except Exception:  # whatever a value of an adapter raises: no key
        return None
    return out.getvalue()


def rules_of(ruleset: JSON) -> Rules:
    return _REFERENCE.rules(ruleset)


_PLACE = re.compile(r"(state(?:\.\w+|\[\d+\])+)(?:: | (?=\S))")
"""The field a codec.StateError names first (`state.hands[2]`), and the colon or space
after it."""


def state_problems(ruleset: JSON | Rules, state: Any, *, dealt: bool = False,
                   read_by: tuple[Any, DecodedStates] | None = None) -> list[Problem]:
    """What is wrong with a state an implementation returned (nothing: []). `read_by`:
    (a view of the rules, the memo of states it reads through), in place of the rules of
    `ruleset` and this module's memo (a traced run's checks log what they read)."""
    exact = exact_text(state)
    if exact is None or exact not in _VALID:
        if not state_valid(state):
            return schema_problems("state", state)
        if exact is not None:
            if len(_VALID) >= KEPT_VALID:
                _VALID.clear()
            _VALID[exact] = None
    if read_by is not None:
        rules, decoded = read_by
    else:
        rules = ruleset if isinstance(ruleset, Rules) else rules_of(ruleset)
        decoded = _CHECKED
    try:
        st, broken = decoded.read(rules, state, fingerprint(state))
    except codec.StateError as e:
        off = _doubles_off_the_table(state) if e.clause == "TRAIN-1" else []
        if off:  # no table's rule broken: a train the schema cannot bound (a seat past n)
            return off
        text = str(e)
        # the place is named once, as `where`: "state.trains must have one train per
        # player (4), not 3" was told with the whole sentence as its place, and again
        place = _PLACE.match(text)
        where = place[1] if place else "state"
        text = text[place.end():] if place else text
        if e.clause and not text.endswith(f"[{e.clause}]"):  # the rule it breaks, for blame
            text += f" [{e.clause}]"
        return [Problem("state", where, text)]
    out = [Problem("invariant", inv, msg) for inv, msg in broken]
    if dealt:
        out += [Problem("invariant", inv, msg)
                for check in AFTER_DEAL.values() for inv, msg in check(st)]
    return out


def _doubles_off_the_table(state: JSON) -> list[Problem]:
    """The first train of a state's open_doubles or turn_doubles that its table has not
    (train 7 at a table of two): a broken answer naming the field and the table's trains,
    as for a legal answer's play on one (_off_the_table), not a table that breaks TRAIN-1.
    [] where each is on the table (the codec's error is then some other)."""
    trains = (len(state["hands"]), True)  # TRAIN-1: a train a seat, and the Mexican Train
    for field in ("open_doubles", "turn_doubles"):
        for i, train in enumerate(state.get(field) or ()):
            if _int(train) and train >= trains[0]:
                return [Problem("schema", f"{field}/{i} [state.schema.json#/$defs/train_ref]",
                                f"names train {train}, which the table has not: its trains "
                                f"are {trains_said(trains)}")]
    return []


def actions_problems(actions: Any, trains: tuple[int, bool] | None = None) -> list[Problem]:
    """A legal answer: each an action once; with `trains` (of the table asked about:
    `table_trains`), each play on one of them (a play on train 7 at a table of four is no
    action at all: told as a broken answer, not as a play the rules refuse)."""
    if type(actions) is list and all(map(action_valid, actions)):
        return _off_the_table(actions, trains) or _twice(
            "actions", "legal_answer", list(map(action_key, actions)),
            lambda i: _short(json.dumps(actions[i]), 80))
    if type(actions) is not list:
        return [Problem("schema", "actions [protocol.schema.json#/$defs/legal_answer]",
                        f"a list of actions, not {type(actions).__name__}")]
    out = []
    for i, a in enumerate(actions):
        if not action_valid(a):
            out += schema_problems("action", a, f"actions/{i}/")
    return out[:3]


def table_trains(state: Any) -> tuple[int, bool] | None:
    """The trains of `state`'s table (TRAIN-1): how many personal ones (seats 0 up), and
    whether it has a Mexican Train; None for a state that does not say."""
    if not isinstance(state, dict) or type(state.get("trains")) is not list:
        return None
    return len(state["trains"]), isinstance(state.get("mexican"), dict)


def trains_said(trains: tuple[int, bool]) -> str:
    """The trains of a table, as an error names them: `0 to 3 and "mexican"`."""
    seats, mexican = trains
    personal = {0: "none", 1: "0"}.get(seats, f"0 to {seats - 1}")
    return personal + (' and "mexican"' if mexican else ' (no "mexican")')


def _off_the_table(actions: list[JSON], trains: tuple[int, bool] | None) -> list[Problem]:
    """The first play of `actions` on a train not among `trains`."""
    if trains is None:
        return []
    for i, action in enumerate(actions):
        train = action.get("train")  # (a valid action's: a seat number or "mexican")
        if train is None or (trains[1] if train == "mexican" else train < trains[0]):
            continue
        return [Problem("schema", f"actions/{i}/train [protocol.schema.json#/$defs/"
                        "legal_answer]", f"{_short(json.dumps(action), 80)} names train "
                        f"{json.dumps(train)}, which the table has not: its trains are "
                        f"{trains_said(trains)}")]
    return []


def action_key(action: JSON) -> tuple[Any, ...]:
    """What an action means, however its tile is written: a play of "5-12" is the play of
    "12-5" (the protocol reads a tile either end first), so a list naming both names one
    play twice. `action` is a valid action (action_valid)."""
    tile = action.get("tile")
    if tile is None:
        return (action["type"],)
    return ("play", T.BY_TEXT.get(tile, tile), action["train"])


def _twice(field: str, answer: str, keys: list[Any], show: Callable[[int], str]
           ) -> list[Problem]:
    """A list the protocol wants each item of once (legal's actions, winners' seats)."""
    seen: set[Any] = set()
    for i, k in enumerate(keys):
        if k in seen:
            return [Problem("schema", f"{field} [protocol.schema.json#/$defs/{answer}]",
                            f"{show(i)} is listed twice (each once)")]
        seen.add(k)
    return []


def winners_problems(seats: Any, players: int | None = None) -> list[Problem]:
    """A winners answer: each a seat once; with `players` (the state's seats), each a
    seat of the table. A seat past the table was told as a wrong winner, charged to who
    wins the match, where the answer is no winner at all."""
    if type(seats) is list and all(_int(v) and 0 <= v <= _SEAT_MAX for v in seats):
        beyond = next((v for v in seats if players is not None and v >= players), None)
        if beyond is not None and players is not None:
            return [Problem("schema", "winners [protocol.schema.json#/$defs/winners_answer]",
                            f"seat {beyond} is not at the table: the state has {players} "
                            f"seats, 0 to {players - 1}")]
        return _twice("winners", "winners_answer", seats, lambda i: f"seat {seats[i]}")
    return [Problem("schema", "winners [protocol.schema.json#/$defs/winners_answer]",
                    f"a list of seats 0..{_SEAT_MAX}, not {_short(repr(seats), 80)}"
                    f"{_not_int(seats)}")]


def scores_problems(scores: Any, seats: int | None = None) -> list[Problem]:
    """A score answer: a list of integers (a boolean or 1.0 is none: either would compare
    equal to the scores expected); with `seats` (the state's), one per seat, each a round
    score the state's result can hold (0 to its maximum). A 401-digit score, or a score
    for a seat the table has not, was told as a wrong score, charged to the scoring rule."""
    where = "score [protocol.schema.json#/$defs/score_answer]"
    if not (type(scores) is list and all(_int(v) for v in scores)):
        return [Problem("schema", where, f"a list of integers, not "
                        f"{_short(repr(scores), 80)}{_not_int(scores)}")]
    if seats is not None and len(scores) != seats:
        return [Problem("schema", where, f"one score per seat, seat 0 first: {len(scores)} "
                        f"for the state's {seats} seats")]
    for i, v in enumerate(scores):
        if not 0 <= v <= _RESULT_SCORE:
            written = str(v)
            shown = written if len(written) <= 30 else f"{written[:20]}... ({len(written)} " \
                "characters written out)"
            return [Problem("schema", f"{where} scores/{i}", f"{shown} is not "
                            f"in 0..{_RESULT_SCORE}, the round scores a state's result holds "
                            "[state.schema.json#/$defs/result]")]
    return []


def _not_int(values: Any) -> str:
    """What the first item of a list that is no integer is, when it passes for one."""
    wrong = next((v for v in values if type(v) is not int), None) if type(
        values) is list else None
    if isinstance(wrong, bool):
        return f" ({wrong} is a boolean, not an integer)"
    return f" ({wrong!r} is a float, not an integer)" if isinstance(wrong, float) else ""


_SCALARS = ("round", "engine", "engine_placed", "seat", "starter", "passes", "drawn")
_NUMBER_LISTS = ("scores", "outs", "first_turns", "open_doubles", "turn_doubles")


def identical(got: Any, want: JSON) -> bool:
    """Whether `got` is the same JSON as `want`, a state the codec has read: equal, and of
    the same types where Python's == does not tell them apart (true == 1 == 1.0). A state
    identical to one already read and checked needs no reading or checking again."""
    if got != want:
        return False
    # Equal, so the keys and the structure are the same; only numbers and booleans can
    # still differ in type (strings, lists of strings and null compare exactly).
    for key in _SCALARS:
        if type(got.get(key)) is not type(want.get(key)):
            return False
    for key in _NUMBER_LISTS:
        for x, y in zip(got.get(key) or (), want.get(key) or (), strict=True):
            if type(x) is not type(y):
                return False
    for a, b in zip([*got["trains"], got["mexican"]], [*want["trains"], want["mexican"]],
                    strict=True):
        if type(a.get("end")) is not type(b.get("end")) or type(a.get("marker")) is not type(
                b.get("marker")):
            return False
    result = want.get("result")
    if isinstance(result, dict):
        other = got["result"]
        if type(other.get("winner")) is not type(result.get("winner")):
            return False
        for x, y in zip(other.get("scores") or (), result.get("scores") or (), strict=True):
            if type(x) is not type(y):
                return False
    return True


# --- an implementation whose every answer is checked ---------------------------------


class CheckedImplementation:
    """`inner`, with every answer checked; a wrong one raises AnswerError."""

    def __init__(self, inner: Implementation) -> None:
        self.inner = inner

    def state_problems(self, ruleset: JSON, state: Any, dealt: bool = False) -> list[Problem]:
        """What is wrong with a state it returned (`state_problems`)."""
        return state_problems(ruleset, state, dealt=dealt)

    def info(self) -> JSON:
        return self.inner.info()

    def deal(self, ruleset: JSON, players: int, round: int, order: list[str],
             draw: list[list[str]] | None = None) -> JSON:
        extra = {"draw": draw} if draw is not None else {}  # SEAT-5: only where one is sent
        state = self.inner.deal(ruleset, players, round, order, **extra)
        return _passed("deal", state, self.state_problems(ruleset, state, dealt=True))

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        actions = self.inner.legal(ruleset, state)
        return _passed("legal", actions, actions_problems(actions, table_trains(state)))

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        new = self.inner.apply(ruleset, state, action)
        return _passed("apply", new, self.state_problems(ruleset, new))

    def winners(self, ruleset: JSON, state: JSON) -> list[int]:
        seats = self.inner.winners(ruleset, state)
        hands = state.get("hands") if isinstance(state, dict) else None
        return _passed("winners", seats, winners_problems(
            seats, len(hands) if isinstance(hands, list) else None))

    def score(self, ruleset: JSON, state: JSON, winner: int | None) -> list[int]:
        """The inner `score`, when it has one (expectation_checks.check_score asks for it)."""
        scorer = getattr(self.inner, "score", None)
        if not callable(scorer):
            raise Unsupported("the implementation has no score()")
        scores: list[int] = scorer(ruleset, state, winner)
        hands = state.get("hands") if isinstance(state, dict) else None
        seats = len(hands) if isinstance(hands, list) else None
        return _passed("score", scores, scores_problems(scores, seats))

    @property
    def can_ask_ahead(self) -> bool:
        """Whether `ask_ahead` saves anything: the implementation is behind the protocol."""
        return callable(getattr(self.inner, "ask_ahead", None))

    def ask_ahead(self, ruleset: JSON, state: JSON,
                  asks: Sequence[tuple[str, dict[str, Any]]]) -> None:
        """The requests about `state` that come next, written at once to an implementation
        behind the protocol (ProcessImplementation.ask_ahead); nothing for another. The
        answers are checked as each is asked for."""
        ahead = getattr(self.inner, "ask_ahead", None)
        if callable(ahead):
            ahead(ruleset, state, asks)

    def close(self) -> None:
        close = getattr(self.inner, "close", None)
        if callable(close):
            close()


def _passed(asked: str, answer: _A, problems: list[Problem]) -> _A:
    """The answer to `asked`, when its checks found no problem in it."""
    if problems:
        raise AnswerError(asked, problems)
    return answer


def checked(impl: Implementation) -> Implementation:
    """`impl` with its answers checked (once: a checked implementation stays as it is)."""
    return impl if isinstance(impl, CheckedImplementation) else CheckedImplementation(impl)
