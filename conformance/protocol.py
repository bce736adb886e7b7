"""Protocol v1: how the harness talks to an implementation in another process.

JSON Lines over the implementation's stdin and stdout: the harness writes one request
per line, the implementation answers each with exactly one line, in order. One
long-lived process serves every fixture. The messages (docs/protocol.md,
spec/schemas/protocol.schema.json):

    request                                         answer (besides "id" and "ok": true)
    {"type": "hello", "protocol": 1, "harness"}     {"protocol", "name", "version",
                                                     "variants", "options"?}
    {"type": "deal", "ruleset", "players",          {"state"} (a deal the rule set does not
     "round", "order", "draw"?}                      allow: a refused-setup error)
    {"type": "legal", "ruleset", "state"}           {"actions"}
    {"type": "apply", "ruleset", "state", "action"} {"state"} or {"refused": {"reason",
                                                                              "clause"}}
    {"type": "score", "ruleset", "state",           {"scores"}
     "winner"?}
    {"type": "winners", "ruleset", "state"}         {"winners"} ([] while the match goes on)
    {"type": "shutdown"}                            {}

Every request carries an integer "id" that the answer repeats. An answer that cannot be
given is {"id", "ok": false, "error": {"kind", "message"}}, kind one of bad-request,
unsupported (this rule set is not implemented: the result is not-applicable),
protocol-version, internal, refused-setup (the rule set does not allow this deal or table;
error.clause names the clause that refuses it). States, actions and rule sets are the
canonical JSON forms of spec/schemas/.

This module builds and checks messages; it does no I/O.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Callable, Mapping
from typing import Any, TypeGuard

import orjson

from mtrain.conformance.untrusted import cut
from mtrain.spec.errors import shown

JSON = dict[str, Any]

PROTOCOL_VERSION = 1
REQUEST_TYPES = ("hello", "deal", "legal", "apply", "score", "winners", "shutdown")
ERROR_KINDS = ("bad-request", "unsupported", "protocol-version", "internal", "refused-setup")
MAX_LINE = 4 * 1024 * 1024
"""The longest line either side must accept (bytes, newline excluded)."""
MAX_ACTIONS = 190 * 21 + 3
"""The most actions a legal answer may list: a tile of double-18 (190 tiles, written high
end first) on each of 21 trains (20 seats and the Mexican Train), then draw, pass and
end-chain. No table has more distinct actions, so a longer list names one twice or names
no action; refused unread, as a line past MAX_LINE is (an engine listing its actions
20,000 times over cost identify 102 CPU s and 890 MB before it was stopped)."""


@functools.cache
def max_tiles() -> tuple[int, int]:
    """(the most tiles a state's list may hold, the largest set's highest number): a hand,
    the boneyard or a train holds at most every tile of the largest set, double-18. A
    longer one is refused unread, as legal.actions past MAX_ACTIONS: a hand of 400,000
    tiles had the schema walked tile by tile (80 s). Asked at need: an engine's own host
    imports this module and reads no tile set."""
    from mtrain.spec.tiles import MAX_PIP

    return (MAX_PIP + 1) * (MAX_PIP + 2) // 2, MAX_PIP


MAX_ID = 2**53 - 1
"""The largest request id (protocol.schema.json): the harness numbers its requests from 1,
and an id past what a double holds exactly (RFC 8259 section 6) is no id of any harness."""

STATE_KEYS = (
    "round", "engine", "engine_placed", "phase", "seat", "starter", "hands", "boneyard",
    "trains", "mexican", "open_doubles", "turn_doubles", "drawn", "first_turns", "passes",
    "scores", "outs", "result",
)
"""The keys every canonical state has (spec/schemas/state.schema.json, `required`)."""

# What each request carries besides "id" and "type": field -> a description of its type.
REQUEST_FIELDS: dict[str, dict[str, str]] = {
    "hello": {"protocol": "int"},
    "deal": {"ruleset": "ruleset", "players": "int", "round": "int", "order": "strings"},
    "legal": {"ruleset": "ruleset", "state": "object"},
    "apply": {"ruleset": "ruleset", "state": "object", "action": "object"},
    "score": {"ruleset": "ruleset", "state": "object"},
    "winners": {"ruleset": "ruleset", "state": "object"},
    "shutdown": {},
}
OPTIONAL_REQUEST_FIELDS: dict[str, dict[str, str]] = {
    "hello": {"harness": "string"},
    "score": {"winner": "seat-or-null"},
    "deal": {"draw": "tile-lists"},
}


class ProtocolError(ValueError):
    """A message that breaks protocol v1; the text says how, for the other side to read."""


# --- encoding ------------------------------------------------------------------------


def encode(message: Mapping[str, Any]) -> bytes:
    """One message as one line of compact UTF-8 JSON, newline included."""
    return encode_value(message) + b"\n"


_ORJSON_OPTIONS = orjson.OPT_PASSTHROUGH_SUBCLASS | orjson.OPT_PASSTHROUGH_DATACLASS \
    | orjson.OPT_PASSTHROUGH_DATETIME


def encode_value(value: Any) -> bytes:
    """A JSON value as compact UTF-8 JSON, without a newline.

    orjson writes the plain dicts, lists, strings, integers and booleans of a message
    four times faster than `json`, with the same bytes; what it leaves (an integer beyond
    64 bits, a key that is not a string, a subclass, a lone surrogate) goes to `json`.
    A float (which no message of the protocol holds) may be written in another form of
    the same number (1e-7 for 1e-07). A message never holds NaN or an infinity: `decode`
    refuses them, and orjson would write them as null."""
    try:
        return orjson.dumps(value, option=_ORJSON_OPTIONS)
    except TypeError:
        text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
        try:
            return text.encode()
        except UnicodeEncodeError:  # a lone surrogate, read from an escape: keep it one
            return json.dumps(value, separators=(",", ":")).encode()


class _NotJSON(ValueError):
    """NaN or an infinity: Python's json reads them, but RFC 8259 has no such numbers."""


def _no_constant(name: str) -> Any:
    raise _NotJSON(f"{name} is not a JSON number")


MAX_DIGITS = 4300
"""The longest integer a line may hold, refused past it in words of this module (Python's
own limit, sys.int_info.default_max_str_digits, would say it in Python's). A shorter one
too large for its field is that field's fault, said alike in-process and here."""


def _bounded(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise _NotJSON(f"a number of {digits:,} digits, past the {MAX_DIGITS:,} a message may "
                       "hold")
    return int(text)


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _NotJSON(f"{text} is too large for a number")
    return value


_AS_ZERO = bytes(48 if chr(c).isdigit() and c < 128 else 32 for c in range(256))
"""Every digit byte as 0, every other byte as a space."""


def _long_number(line: bytes) -> bool:
    """Whether `line` has 19 digits in a row: an integer orjson may read as a float
    (beyond 64 bits) where `json` reads an integer. A C loop over the bytes: a regular
    expression takes six times longer."""
    return b"0" * 19 in line.translate(_AS_ZERO)


def decode(line: bytes | str) -> JSON:
    """One line as a message object; raises ProtocolError for anything else.

    orjson reads a line of bytes when it can (strict JSON, every integer within 64 bits):
    it gives the same values as `json`, faster. Anything it refuses goes to `json`, which
    reads it or names what is wrong, as the protocol's error messages always have."""
    data: Any = None
    if isinstance(line, str) and line.startswith("\ufeff"):
        # a byte order mark opening a line is ignored, as `json` ignores it before bytes
        # and the YAML loader before a file (RFC 8259 section 8.1 allows it); elsewhere
        # it is no JSON
        line = line[1:]
    if isinstance(line, bytes) and not _long_number(line):
        try:
            data = orjson.loads(line)
        except orjson.JSONDecodeError:
            data = None
        else:
            if not _as_written(data, line):  # read again to look for a key given twice
                data = None
    if data is None:
        data = _decode_slowly(line)
    if not isinstance(data, dict):
        raise ProtocolError(f"not a JSON object (a message is one), but {_json_kind(data)}: "
                            f"{preview(line)}")
    return data


def _as_written(data: Any, line: bytes) -> bool:
    """Whether `line` is exactly `data` written compactly, as orjson writes it: then no
    object of it gives a key twice (orjson keeps the last of two, silently). A line
    written otherwise (spaces, escapes) is read again by `json`, which sees duplicates."""
    try:
        return orjson.dumps(data) == line.strip()
    except (TypeError, orjson.JSONEncodeError):
        return False


class _Duplicate(ValueError):
    """An object giving one key twice: RFC 8259 leaves its meaning open (the YAML loader
    refuses it in a file alike)."""


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _Duplicate(f"the key {json.dumps(key)} is given twice in one object")
            seen.add(key)
    return out


def _json_kind(value: Any) -> str:
    """What a decoded JSON value is, in JSON's words (`list` would be Python's)."""
    for kind, name in ((bool, "a boolean"), (int, "a number"), (float, "a number"),
                       (str, "a string"), (list, "an array")):
        if isinstance(value, kind):
            return name
    return "null" if value is None else type(value).__name__


def _decode_slowly(line: bytes | str) -> Any:
    try:
        if isinstance(line, bytes):  # json would take UTF-16 and UTF-32 too, by their look
            line = line.decode("utf-8-sig")  # (a byte order mark opening it is ignored)
        return json.loads(line, parse_constant=_no_constant, parse_float=_finite,
                          parse_int=_bounded, object_pairs_hook=_no_duplicates)
    except json.JSONDecodeError as e:
        said = e.msg.removesuffix(" at")  # Python's "Invalid control character at"
        raise ProtocolError(f"not JSON ({said} at character {e.pos}{_wide(line)}): "
                            f"{preview(line)}") from None
    except _NotJSON as e:
        raise ProtocolError(f"not JSON ({e}): {preview(line)}") from None
    except _Duplicate as e:
        raise ProtocolError(f"not usable JSON ({e}): {preview(line)}") from None
    except UnicodeDecodeError as e:
        bad = f"byte 0x{e.object[e.start]:02x} at byte {e.start}" if isinstance(
            e.object, bytes) else "a lone surrogate"
        raise ProtocolError(f"not JSON (not UTF-8: {bad}{_wide(line)}): {preview(line)}"
                            ) from None
    except ValueError as e:  # e.g. an integer of more digits than Python converts
        raise ProtocolError(f"not usable JSON ({e}): {preview(line)}") from None
    except RecursionError:
        raise ProtocolError(f"not usable JSON (nested too deeply): {preview(line)}") from None


def _wide(line: bytes | str) -> str:
    """A hint for a line written in UTF-16 or UTF-32, whose ASCII comes with NUL bytes
    (one byte in two, or three in four)."""
    nuls = line.count(b"\x00") if isinstance(line, bytes) else line.count("\x00")
    return "; its NUL bytes look like UTF-16 or UTF-32" if nuls and nuls * 3 >= len(line) \
        else ""  # (an empty line has no NUL to count: it was told it had)


def preview(line: bytes | str, limit: int = 200) -> str:
    """The start of a line, printable, for error messages."""
    text = line.decode("utf-8", "replace") if isinstance(line, bytes) else line
    text = text.rstrip("\n")
    shown = repr(text[:limit])
    return shown + (f" ... ({len(text)} characters)" if len(text) > limit else "")


# --- requests ------------------------------------------------------------------------


def hello(request_id: int, harness: str) -> JSON:
    return {"id": request_id, "type": "hello", "protocol": PROTOCOL_VERSION,
            "harness": harness}


def request(request_id: int, kind: str, **fields: Any) -> JSON:
    if kind not in REQUEST_TYPES:
        raise ValueError(f"unknown request type {shown(kind)}")
    return {"id": request_id, "type": kind, **fields}


def encode_request(request_id: int, kind: str, fields: Mapping[str, bytes]) -> bytes:
    """The line `encode(request(request_id, kind, **fields))` would write, from fields
    already encoded as JSON: a state asked about several times is encoded once."""
    if kind not in REQUEST_TYPES:
        raise ValueError(f"unknown request type {shown(kind)}")
    parts = [b'{"id":%d,"type":"%s"' % (request_id, kind.encode())]
    for key, value in fields.items():
        parts += [b',"', key.encode(), b'":', value]
    parts.append(b"}\n")
    return b"".join(parts)


def is_id(value: Any) -> TypeGuard[int]:
    """Whether `value` can be a request id: an integer (not true or 2.0) within MAX_ID."""
    return type(value) is int and 0 <= value <= MAX_ID


def check_request(message: JSON) -> tuple[int, str]:
    """(id, type) of a well-formed request; raises ProtocolError naming the fault."""
    rid = message.get("id")
    if not is_id(rid):
        # as JSON, which the request was: `true`, not Python's `True`
        raise ProtocolError(f"request.id must be an integer from 0 to 2^53-1, got "
                            f"{_short(rid)}")
    kind = message.get("type")
    if not isinstance(kind, str) or kind not in REQUEST_TYPES:
        raise ProtocolError(f"request.type must be one of {', '.join(REQUEST_TYPES)}; "
                            f"got {shown(kind) if isinstance(kind, str) else _short(kind)}")
    fields = REQUEST_FIELDS[kind]
    optional = OPTIONAL_REQUEST_FIELDS.get(kind, {})
    for key, want in fields.items():
        if key not in message:
            article = "an" if kind[0] in "aeiou" else "a"  # (was "a apply request")
            raise ProtocolError(f"{article} {kind} request needs {key!r}")
        _check_type(message[key], want, f"{kind}.{key}")
    for key, want in optional.items():
        if key in message:
            _check_type(message[key], want, f"{kind}.{key}")
    extra = message.keys() - _ALLOWED_KEYS[kind]
    if extra:
        raise ProtocolError(f"a {kind} request has no field {shown(sorted(extra)[0])}")
    ruleset = message.get("ruleset")
    if ruleset is not None and ruleset.keys() - _RULESET_KEYS:
        # read past, `"tile_set": "double-6"` beside `options` played the options' set
        odd = sorted(ruleset.keys() - _RULESET_KEYS, key=str)[0]
        raise ProtocolError(f"{kind}.ruleset has no field {shown(odd)} (a rule set is "
                            "its name, its options and its hand_sizes)")
    return rid, kind


_RULESET_KEYS = frozenset({"name", "options", "hand_sizes"})
"""The fields of a request's rule set (protocol.schema.json's ruleset)."""


_ALLOWED_KEYS = {kind: frozenset({"id", "type", *fields, *OPTIONAL_REQUEST_FIELDS.get(kind, {})})
                 for kind, fields in REQUEST_FIELDS.items()}

_STR = frozenset((str,))
_TYPE_CHECKS: dict[str, Callable[[Any], bool]] = {
    "int": lambda v: _is_int(v),
    "string": lambda v: isinstance(v, str),
    "object": lambda v: isinstance(v, dict),
    "strings": lambda v: isinstance(v, list) and (set(map(type, v)) <= _STR or all(
        isinstance(x, str) for x in v)),
    "seat-or-null": lambda v: v is None or _is_int(v),
    "tile-lists": lambda v: isinstance(v, list) and all(
        isinstance(x, list) and all(isinstance(t, str) for t in x) for x in v),
    "ruleset": lambda v: isinstance(v, dict) and isinstance(v.get("options"), dict),
}
_TYPE_NAMES = {"int": "an integer", "string": "a string", "object": "an object",
               "strings": "a list of strings", "seat-or-null": "a seat or null",
               "tile-lists": "a list of lists of tiles",
               "ruleset": "a rule set object with 'options'"}


def _check_type(value: Any, want: str, where: str) -> None:
    if not _TYPE_CHECKS[want](value):
        raise ProtocolError(f"{where} must be {_TYPE_NAMES[want]}, got {_short(value)}")


# --- answers -------------------------------------------------------------------------


def ok(request_id: int | None, **payload: Any) -> JSON:
    return {"id": request_id, "ok": True, **payload}


def error(request_id: int | None, kind: str, message: str, **extra: Any) -> JSON:
    assert kind in ERROR_KINDS, kind
    return {"id": request_id, "ok": False, "error": {"kind": kind, "message": message, **extra}}


class ErrorAnswer(Exception):
    """The implementation answered {"ok": false, "error": ...}."""

    def __init__(self, kind: str, message: str, detail: JSON) -> None:
        kind, message = cut(kind), cut(message)  # the engine's texts, quoted in reports
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.detail = detail


def check_answer(kind: str, request_id: int, message: JSON) -> JSON:
    """The payload of a correct answer to request `kind`; raises ErrorAnswer for an
    error answer and ProtocolError for a malformed one."""
    if message.get("id") != request_id:
        raise ProtocolError(f"answer to request {request_id} ({kind}) carries id "
                            f"{message.get('id')!r}: answers must come in order, one each")
    flag = message.get("ok")
    if flag is False:
        err = message.get("error")
        if "error" in message and not isinstance(err, dict):  # "needs error.message" misled
            raise ProtocolError(f"an error answer's error must be an object {{\"kind\": ..., "
                                f"\"message\": ...}}, got {_short(err)}: {_short(message)}")
        if not isinstance(err, dict) or "message" not in err:
            raise ProtocolError(f"an error answer needs error.message: {_short(message)}")
        if not isinstance(err["message"], str):  # it has one: "needs" it misled
            raise ProtocolError(f"error.message must be a string, got {_short(err['message'])}"
                                f": {_short(message)}")
        _no_other_fields(message, ("error",), f"an error answer to {kind}")
        ekind = err.get("kind", "internal")
        return _raise_error(str(ekind), err)
    if flag is None and "ok" not in message and "type" in message:
        raise ProtocolError(f"an answer carries `ok`, not a request's `type` (is the request "
                            f"echoed back?): {_short(message)}")
    if flag is not True:
        raise ProtocolError(f"answer.ok must be true or false, got {_short(flag)}")
    if kind != "hello":  # (the hello names its own fields)
        article = "an" if kind[0] in "aeiou" else "a"
        _no_other_fields(message, _ANSWER_FIELDS[kind], f"{article} {kind} answer")
    CHECKS[kind](message)
    return message


_ANSWER_FIELDS: dict[str, tuple[str, ...]] = {
    "deal": ("state",), "legal": ("actions",), "apply": ("state", "refused"),
    "score": ("scores",), "winners": ("winners",), "shutdown": ()}
"""The fields an answer carries besides id and ok (protocol.schema.json's *_answer, each
closed to others)."""


def _no_other_fields(message: JSON, fields: tuple[str, ...], what: str) -> None:
    """A field the protocol does not have (a misspelt 'sate', a field of some later
    version) would be ignored unseen: the answer breaks the schema."""
    extra = sorted(message.keys() - {"id", "ok", *fields}, key=str)
    if extra:
        allowed = ", ".join(("id", "ok", *fields))
        raise ProtocolError(f"{what} has no field {extra[0]!r} in protocol "
                            f"v{PROTOCOL_VERSION}; its fields: {allowed}")


def _raise_error(kind: str, err: JSON) -> JSON:
    raise ErrorAnswer(kind, str(err["message"]), err)


def _need(message: JSON, key: str, kind: str) -> Any:
    if key not in message:
        raise ProtocolError(f"a {kind} answer needs {key!r}; got keys {sorted(message)}")
    return message[key]


def check_state(value: Any, where: str) -> None:
    """The shape a canonical state must have for the harness to read it."""
    if not isinstance(value, dict):
        raise ProtocolError(f"{where} must be a state object, got {_short(value)}")
    missing = [k for k in STATE_KEYS if k not in value]
    if missing:
        raise ProtocolError(f"{where} lacks {', '.join(missing)}")
    for key in ("hands", "boneyard", "trains", "open_doubles", "turn_doubles",
                "first_turns", "scores", "outs"):
        if not isinstance(value[key], list):
            raise ProtocolError(f"{where}.{key} must be a list, got {_short(value[key])}")
    if not all(isinstance(h, list) for h in value["hands"]):
        raise ProtocolError(f"{where}.hands must be a list of lists of tiles")
    for i, train in enumerate([*value["trains"], value["mexican"]]):
        if not isinstance(train, dict) or not isinstance(train.get("tiles"), list):
            raise ProtocolError(f"{where}.trains[{i}] must be an object with a 'tiles' list")
    lists = [(f"hands[{i}]", h) for i, h in enumerate(value["hands"])] + [
        ("boneyard", value["boneyard"])] + [
        (f"trains[{i}].tiles", t["tiles"]) for i, t in enumerate(value["trains"])] + [
        ("mexican.tiles", value["mexican"]["tiles"])]
    most, top = max_tiles()
    for name, tiles in lists:
        if len(tiles) > most:
            raise ProtocolError(f"{where}.{name} lists {len(tiles):,} tiles; no set has more "
                                f"than {most} (double-{top}): each tile once")
    result = value["result"]
    if result is not None and not isinstance(result, dict):
        raise ProtocolError(f"{where}.result must be null or an object")


HELLO_KEYS = frozenset(("id", "ok", "protocol", "name", "version", "variants", "options",
                        "rules"))
"""The fields a hello answer may carry (protocol.schema.json#/$defs/hello_answer)."""
HELLO_NEEDS = "protocol, name and version, then rules or variants"
"""What every hello answer carries, as a message names it (docs/protocol.md, Messages)."""
HELLO_EXAMPLE = {"name": "my-engine", "version": "1.0.0"}


def _check_hello(message: JSON) -> None:
    protocol = _need(message, "protocol", "hello")
    if not _is_int(protocol):
        raise ProtocolError(f"hello.protocol must be an integer, got {_short(protocol)}"
                            + _why_not_int(protocol))
    extra = sorted(message.keys() - HELLO_KEYS, key=str)
    if extra:  # a field of another protocol, or a misspelt one, would be ignored unseen
        raise ProtocolError(f"a hello answer has no field {extra[0]!r} in protocol "
                            f"v{PROTOCOL_VERSION}; its fields: {', '.join(sorted(HELLO_KEYS))}")
    for key in ("name", "version"):
        if key not in message:  # the fields it must have, in one place: what to add
            raise ProtocolError(f"a hello answer needs {key!r} ({HELLO_NEEDS}); got keys "
                                f"{sorted(message, key=str)}")
        if not isinstance(message[key], str):
            raise ProtocolError(f"hello.{key} must be a string (\"{HELLO_EXAMPLE[key]}\"), "
                                f"got {_short(message[key])}")
    rules = message.get("rules")
    if rules is not None and not (isinstance(rules, dict) and isinstance(rules.get("options"),
                                                                         dict)):
        raise ProtocolError("hello.rules must be a rule set: {\"options\": {option: value}, "
                            "\"hand_sizes\": {players: tiles} (optional)}")
    variants = message.get("variants", ["*"]) if rules is not None else _need(
        message, "variants", "hello")
    if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
        raise ProtocolError("hello.variants must be a list of variant names or patterns")
    options = message.get("options", {})
    if not isinstance(options, dict) or not all(
            isinstance(v, list) and all(isinstance(x, str) for x in v)
            for v in options.values()):
        raise ProtocolError("hello.options must map option names to lists of values")


def _check_state_answer(message: JSON) -> None:
    check_state(_need(message, "state", "state"), "answer.state")


def _check_legal(message: JSON) -> None:
    actions = _need(message, "actions", "legal")
    if not isinstance(actions, list):
        raise ProtocolError(f"legal.actions must be a list, got {_short(actions)}")
    if len(actions) > MAX_ACTIONS:
        raise ProtocolError(f"legal.actions lists {len(actions):,} actions; no table has more "
                            f"than {MAX_ACTIONS:,} (each tile of double-18 on each of 21 "
                            "trains, draw, pass and end-chain): each action once")
    for i, a in enumerate(actions):
        if not isinstance(a, dict) or not isinstance(a.get("type"), str):
            raise ProtocolError(f"legal.actions[{i}] must be an action object, got {_short(a)}")


def _check_apply(message: JSON) -> None:
    if ("state" in message) == ("refused" in message):
        raise ProtocolError("an apply answer has exactly one of 'state' and 'refused'; "
                            f"got keys {sorted(message)}")
    if "state" in message:
        check_state(message["state"], "apply.state")
        return
    refused = message["refused"]
    if not isinstance(refused, dict) or not isinstance(refused.get("reason"), str):
        raise ProtocolError(f"apply.refused must be {{reason, clause}}, got {_short(refused)}")
    extra = sorted(refused.keys() - {"reason", "clause"}, key=str)
    if extra:
        raise ProtocolError(f"apply.refused has no field {extra[0]!r}; its fields: reason, "
                            "clause")
    clause = refused.get("clause")
    if clause is not None and not isinstance(clause, str):
        raise ProtocolError("apply.refused.clause must be a clause id or null, got "
                            f"{shown(clause)}")


def _check_ints(key: str) -> Callable[[JSON], None]:
    def check(message: JSON) -> None:
        value = _need(message, key, key)
        if not isinstance(value, list) or not all(_is_int(v) for v in value):
            wrong = next((v for v in value if not _is_int(v)), None) if isinstance(
                value, list) else None
            raise ProtocolError(f"answer.{key} must be a list of integers, got {_short(value)}"
                                + _why_not_int(wrong))
    return check


def _check_nothing(message: JSON) -> None:
    return None


CHECKS: dict[str, Callable[[JSON], None]] = {
    "hello": _check_hello,
    "deal": _check_state_answer,
    "legal": _check_legal,
    "apply": _check_apply,
    "score": _check_ints("scores"),
    "winners": _check_ints("winners"),
    "shutdown": _check_nothing,
}


_RESULT_FIELD = {"deal": "state", "legal": "actions", "apply": "state", "score": "scores",
                 "winners": "winners"}


def check_result(kind: str, value: Any) -> None:
    """The checks `check_answer` makes on the payload of an answer to `kind`, made on what
    an in-process adapter returned (`info` for the hello, without its `protocol`): one
    answer is judged alike whichever way it comes. Raises ProtocolError."""
    if kind == "info":
        if not isinstance(value, dict):
            raise ProtocolError(f"info must be an object, got {_short(value)}")
        unknown = sorted(value.keys() - HELLO_KEYS, key=str)
        if unknown:
            raise ProtocolError(f"info has no field {unknown[0]!r}; its fields: "
                                f"{', '.join(sorted(HELLO_KEYS - {'id', 'ok', 'protocol'}))}")
        _check_hello({**value, "protocol": PROTOCOL_VERSION, "name": value.get("name", ""),
                      "version": value.get("version", "")})
        return
    CHECKS[kind]({_RESULT_FIELD[kind]: value})


def check_refusal(reason: Any, clause: Any) -> None:
    """An in-process refusal (reason, clause) checked as an apply answer's `refused`."""
    _check_apply({"refused": {"reason": reason, "clause": clause}})


def _is_int(v: Any) -> bool:
    """An integer of JSON: 1, never 1.0 or true (Python's == would take either for 1)."""
    return type(v) is int


def _why_not_int(v: Any) -> str:
    """Why a value where an integer belongs is none, when it looks like one."""
    if isinstance(v, bool):
        return f" ({json.dumps(v)} is a boolean, not an integer)"
    if isinstance(v, float):
        return f" ({v!r} is a number with a decimal point or exponent, not an integer)"
    return ""


def _short(value: Any, limit: int = 120) -> str:
    text = json.dumps(value) if not isinstance(value, bytes) else repr(value)
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"
