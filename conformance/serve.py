"""`mtrain serve`: the reference engine as a protocol v1 server on stdin/stdout.

One request per line in, one answer per line out, in order (docs/protocol.md). A bad
request (not JSON, a missing field, a state that does not parse, an unknown option
value) gets an error answer, never a crash: the server stops only at end of input or
on a shutdown request. Diagnostics go to stderr; stdout carries answers only.
"""

from __future__ import annotations

import re
import sys
import traceback
from typing import IO, Any

from mtrain import __version__
from mtrain.conformance.adapter import (
    JSON,
    MEMO_ANSWERS,
    MEMO_RULES,
    MEMO_STATES,
    Answers,
    DecodedStates,
    ReferenceImplementation,
    Refused,
    RefusedSetup,
    _flags,
    _traced,
    fingerprint,
    ruleset_json,
)
from mtrain.conformance.answers import identical
from mtrain.conformance.gc_freeze import settled
from mtrain.conformance.interface import _check_players
from mtrain.conformance.protocol import (
    MAX_LINE,
    PROTOCOL_VERSION,
    ProtocolError,
    check_request,
    decode,
    encode,
    encode_value,
    error,
    is_id,
    ok,
)
from mtrain.reference import codec, engine, refusals
from mtrain.reference.rules import Rules
from mtrain.spec.catalog import RulesetError, catalog
from mtrain.spec.errors import shown
from mtrain.spec.ruleset import OTHER, Ruleset
from mtrain.spec.yamlload import SpecError

NAME = "mtrain-reference"


class AnswersUnwritten(Exception):
    """Standard output refused an answer (a full disk, `> /dev/full`, an I/O error): the
    reason is the message. A broken pipe is not one: the reader left, and serve ends."""


class BadRequest(ValueError):
    """A request the server understands but cannot answer as asked."""


BAD_REQUEST_ERRORS = (BadRequest, codec.StateError, RulesetError, SpecError, ValueError,
                      KeyError, TypeError)


class MemoReference(ReferenceImplementation):
    """The reference engine, keeping the last state it read and checked, or wrote: a
    harness sends several requests on one state (its legal actions, refusals, the action
    taken) and then asks about the state the action led to, and reading and checking would
    otherwise be most of the server's work. Safe here because each request is freshly
    decoded: nobody changes a state after handing it in."""

    # Beside its own memo of the last state (by identity, the cheapest test), the states
    # the harness sends are read and checked once per JSON text for every rule set whose
    # flags read them alike (adapter.DecodedStates, as the embedded reference keeps them):
    # conform sends a fixture's table, and the states after its steps, under dozens of
    # rule sets. Only a state the last-state memo misses is fingerprinted; one seen for
    # the first time is read plainly (a game's states are all new), and with its flags
    # recorded when another rule set asks for it.
    remembers_states = True
    whole_rule_sets = True  # as ruleset.schema.json says: never read as pagat's unsaid

    def __init__(self) -> None:
        super().__init__()
        self._memo: tuple[object, JSON, engine.State] | None = None
        self._written: dict[int, tuple[Rules, JSON, engine.State]] = {}
        """The states of the last answers (Repeats.SIZE), by the identity of the JSON value
        the server wrote (kept here, so that no other value takes its id): Repeats hands
        that value back when a request carries its text."""
        self._states = DecodedStates(MEMO_STATES, lazy=True)
        self.given: tuple[object, bytes] | None = None
        """(the state a request carries, the request's line), set by the Server: the
        state's key in the memo is cut from the line (`state_text`), not written again."""

    def state(self, ruleset: JSON, state: JSON) -> engine.State:
        rules = self.rules(ruleset)
        memo = self._memo
        if memo is not None and memo[0] is rules and (state is memo[1]
                                                      or identical(state, memo[1])):
            return memo[2]  # never changed: apply copies, the rest only reads
        written = self._written.get(id(state))
        if written is not None and written[0] is rules and written[1] is state:
            self._memo = written
            return written[2]
        given = self.given
        key = state_text(given[1]) if given is not None and given[0] is state else None
        st, _ = self._read(rules, state, key or fingerprint(state))
        self._memo = (rules, state, st)
        return st

    def _read(self, rules: Rules, state: JSON, key: bytes | None
              ) -> tuple[engine.State, Any]:
        state_fields(state)  # the codec reads the fields it knows, past any other
        return super()._read(rules, state, key)

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        st = self.state(ruleset, state)
        try:
            new = refusals.apply(st, codec.action_from_json(st, action))
        except engine.IllegalAction as e:
            raise Refused(e.message, e.clause) from None
        except codec.StateError as e:
            if e.clause is None:  # not an action of the game at all: a malformed request
                raise
            raise Refused(str(e), e.clause) from None  # no such train or tile (TRAIN-1, SET-1)
        answer = codec.state_to_json(new)
        self.wrote(st.rules, answer, new)
        return answer

    def wrote(self, rules: Rules, answer: JSON, st: engine.State) -> None:
        """Remember `st`, the engine's own state (it needs no check), as written in
        `answer`."""
        self._memo = memo = (rules, answer, st)
        written = self._written
        written[id(answer)] = memo
        if len(written) > Repeats.SIZE:
            del written[next(iter(written))]


_STATE_FIELDS = frozenset({
    "round", "engine", "engine_placed", "phase", "seat", "starter", "hands", "boneyard",
    "trains", "mexican", "open_doubles", "turn_doubles", "drawn", "first_turns", "passes",
    "scores", "outs", "result"})
_TRAIN_FIELDS = frozenset({"tiles", "end", "marker"})
_MEXICAN_FIELDS = frozenset({"tiles", "end"})
_RESULT_FIELDS = frozenset({"end", "winner", "scores"})
"""The fields of a state and its parts, as state.schema.json lists them: no more, no fewer."""
_DEFAULTED = frozenset({"drawn", "result", "end", "marker", "winner"})
"""The fields the codec reads with a default when they are missing: the others it names."""


def state_fields(state: Any) -> None:
    """Raises BadRequest naming a field a state of a request has that the protocol's has
    not, or one it lacks that the codec would read as null or false (it reads the fields
    it knows, and takes a missing `drawn`, `result`, a train's `end` or `marker` for
    their usual values). A value of the wrong type is left for the codec to name."""
    if type(state) is not dict:
        return
    _fields(state, _STATE_FIELDS, "state")
    trains, mexican, result = state.get("trains"), state.get("mexican"), state.get("result")
    for i, train in enumerate(trains if type(trains) is list else ()):
        if type(train) is dict:
            _fields(train, _TRAIN_FIELDS, f"state.trains[{i}]")
    if type(mexican) is dict:
        if "marker" in mexican:
            raise BadRequest("state.mexican has no field 'marker': the Mexican Train never "
                             "carries a marker [MARK-2]")
        _fields(mexican, _MEXICAN_FIELDS, "state.mexican")
    if type(result) is dict:
        _fields(result, _RESULT_FIELDS, "state.result")


def _fields(value: dict[Any, Any], fields: frozenset[str], where: str) -> None:
    if value.keys() == fields:
        return
    extra = sorted(value.keys() - fields, key=str)
    if extra:
        raise BadRequest(f"{where} has no field {shown(extra[0])} (its fields: "
                         f"{', '.join(sorted(fields))})")
    missing = fields - value.keys()
    if missing <= _DEFAULTED:  # (any other missing field, the codec names in its order)
        raise BadRequest(f"{where}.{min(missing)} is missing")


_STATE_KEY = b'"state":'


def state_text(line: bytes) -> bytes | None:
    """What follows a request line's `"state":` key (the state's JSON text, then the
    fields after it), a key that tells the state apart as its own text would: the bytes
    `"state":` can only be a key written as it is (inside a string its quotes would be
    escaped), so with no backslash in the line and one such key, it is the request's own
    and its value is the text that begins right after it. None otherwise (the state is
    then known by `fingerprint`)."""
    at = line.find(_STATE_KEY)
    if at < 0 or line.find(_STATE_KEY, at + 1) >= 0 or b"\\" in line:
        return None
    return line[at + len(_STATE_KEY):]


class FixedRules(MemoReference):
    """The reference engine playing one rule set whatever a request names, as most real
    engines do (`mtrain serve --rules FILE`)."""

    def __init__(self, rs: Ruleset) -> None:
        super().__init__()
        if rs.unknown:
            raise ValueError(f"{rs.name}: the reference engine cannot play "
                             + ", ".join(f"{o}={OTHER}" for o in rs.unknown))
        self.ruleset = rs
        self._fixed = Rules.of(rs)

    def rules(self, ruleset: JSON) -> Rules:
        return self._fixed


class Repeats:
    """The JSON texts of the last rule set the server read and of the last SIZE states
    it wrote, with their decoded values: a harness sends the same rule set with every
    request and asks about a state it was answered with, so a field written exactly as
    before is not decoded again (and MemoReference then knows the state by identity, with
    no comparison). Several states, not one: a harness that writes the next tasks' first
    requests ahead asks about the state of one task's step behind the others' requests.

    Only a line in which the one `"ruleset":` (or `"state":`) key is followed by exactly
    a remembered text is read this way: the line is decoded with that text replaced by
    0, and the field must come back as a top-level 0; otherwise the line is decoded whole.
    A remembered text is a whole JSON object, and no proper beginning of one is whole, so
    the value that follows the key is that text and no other. A state's text is looked up
    where it ends as the protocol client writes it: before the one field after it (an
    action, a winner) or before the line's closing brace.
    """

    RULESET, STATE = b'"ruleset":', b'"state":'
    SIZE = 64
    """States remembered: with conform's lookahead (32 tasks' first requests written at
    once), a step asks about a state up to 92 answers back; over pagat's run 64 know 1,505
    of the 1,507 a memory without bound would, 32 know 1,475 (docs/performance.md)."""

    def __init__(self) -> None:
        self.ruleset: tuple[bytes, Any] | None = None  # (its key and text, its value)
        self.states: dict[bytes, Any] = {}  # text: value, the oldest written first

    def remember_state(self, text: bytes, value: Any) -> None:
        states = self.states
        states.pop(text, None)  # (written again: the newest)
        states[text] = value
        if len(states) > self.SIZE:
            del states[next(iter(states))]

    def decode(self, line: bytes) -> JSON:
        short, found = line, []
        memo = self.ruleset
        if memo is not None:
            at = short.find(memo[0])
            if at >= 0 and _one_key(short, self.RULESET, at):
                short = short[:at] + self.RULESET + b"0" + short[at + len(memo[0]):]
                found.append(("ruleset", memo[1]))
        state = self._state(short)
        if state is not None:
            at, text, value = state
            start = at + len(self.STATE)
            short = short[:start] + b"0" + short[start + len(text):]
            found.append(("state", value))
        if not found:
            return self.learn(line, decode(line))
        try:
            message = decode(short)
        except ProtocolError:  # what follows the text is no JSON: named in the line's terms
            return self.learn(line, decode(line))
        for name, value in found:
            if type(message.get(name)) is not int or message[name] != 0:
                return self.learn(line, decode(line))  # not the request's own key
            message[name] = value
        return message if len(found) == 2 else self.learn(line, message)

    def _state(self, line: bytes) -> tuple[int, bytes, Any] | None:
        """(where the one `"state":` key is, the remembered text after it, its value)."""
        states = self.states
        if not states:
            return None
        at = line.find(self.STATE)
        if at < 0 or not _one_key(line, self.STATE, at):
            return None
        start = at + len(self.STATE)
        field = line.rfind(b'},"', start)  # an action or a winner after it
        if field >= 0:
            text = line[start:field + 1]
            value = states.get(text)
            if value is not None:
                return at, text, value
        text = line.rstrip(b" \t\r\n")[start:-1]  # the last field
        value = states.get(text)
        return None if value is None else (at, text, value)

    def learn(self, line: bytes, message: JSON) -> JSON:
        """Remember a rule set as the request wrote it, when it can be cut out exactly:
        the line written as the protocol client writes it."""
        ruleset = message.get("ruleset")
        if isinstance(ruleset, dict) and (self.ruleset is None
                                          or self.ruleset[1] is not ruleset):
            text = self.RULESET + encode(ruleset)[:-1]
            if line.count(text) == 1:
                self.ruleset = (text, ruleset)
        return message


def _one_key(line: bytes, key: bytes, at: int) -> bool:
    """Whether `key`, found at `at`, is the only one in the line."""
    return line.rfind(key, 0, at) < 0 and line.find(key, at + 1) < 0


_QUESTION = re.compile(rb'\{"id":(0|[1-9][0-9]{0,14}),"type":"(legal|apply)","ruleset":')
"""How a `legal` or `apply` request line the protocol client wrote begins: its id (of at
most 15 digits: within protocol.MAX_ID, which a longer one may pass), its kind, then the
rule set's text (KnownLines)."""


class AnswerTexts(Answers):
    """adapter.Answers whose answers are the text an answer line carries after its
    `"ok":true,` (`"actions":[...]`, `"state":{...}` or `"refused":{...}`)."""

    def find_text(self, rules: Rules, key: tuple[bytes, bytes]) -> bytes | None:
        """The answer kept for `key` that holds under `rules`; None where none does, or
        where `rules` deals no such table (the request then gets its error as usual)."""
        for attrs, values, owner, players, answer in self._memo.get(key, ()):
            if owner is rules or (attrs is not None and _flags(attrs)(rules) == values):
                try:
                    _check_players(rules, players)
                except RefusedSetup:
                    return None
                return answer if type(answer) is bytes else None
        return None


class KnownLines:
    """The server's answers to `legal` and `apply` by the text of the request line, for
    every rule set whose flags read the question alike (as the embedded reference keeps
    them, adapter.Answers): conform asks each question about a fixture's states under
    dozens of rule sets. A line answered from here is not decoded at all.

    A line is known when it is `{"id":N,"type":"K","ruleset":` (N an integer as JSON
    writes it), then the text T of a rule set met before, then a rest R met before after
    that same beginning and another rule set's text, in a line that decoded and passed
    the request checks. T is a whole JSON object, and no proper beginning of one is a
    whole object, so T ends where that object ends: the line is the earlier one with
    another id and another rule set, which decode as that line did. Its answer is kept
    under (K, R), with the flags that reading the state and answering read (`_Reading`).
    A question is answered plainly the first time (a game's states are all new: nothing
    is recorded for them) and recorded when it comes back."""

    def __init__(self) -> None:
        self.rulesets: dict[bytes, Rules] = {}
        self.answers = AnswerTexts(MEMO_ANSWERS)
        self.seen: set[tuple[bytes, bytes]] = set()

    def look(self, line: bytes) -> tuple[bytes | None, tuple[bytes, bytes] | None]:
        """(the answer line, None) for a known line; else (None, the question's key where
        the line begins as a known one does, or None)."""
        m = _QUESTION.match(line)
        if m is None:
            return None, None
        start = m.end()
        at = line.find(b'},"', start)
        for _ in range(4):  # a rule set's text has a `},"` or two inside its own
            if at < 0:
                break
            rules = self.rulesets.get(line[start:at + 1])
            if rules is not None:
                key = (m[2], line[at + 1:])
                text = self.answers.find_text(rules, key)
                if text is None:
                    return None, key
                return b'{"id":%s,"ok":true,%s}\n' % (m[1], text), None
            at = line.find(b'},"', at + 1)
        return None, None

    def learn(self, line: bytes, message: JSON, rules: Rules) -> tuple[bytes, bytes] | None:
        """The key of a line that decoded and passed the checks, when it begins as
        `_QUESTION` says and its rule set, written as the client writes it, follows; the
        rule set's text is kept."""
        m = _QUESTION.match(line)
        if m is None:
            return None
        start = m.end()
        text = encode_value(message["ruleset"])
        end = start + len(text)
        if not line.startswith(text, start) or line[end:end + 2] != b',"':
            return None
        if text not in self.rulesets:
            if len(self.rulesets) >= MEMO_RULES:
                self.rulesets.clear()
            self.rulesets[text] = rules
        return m[2], line[end:]

    def first_time(self, key: tuple[bytes, bytes]) -> bool:
        """Whether the question `key` is new (noted now, if so)."""
        seen = self.seen
        if key in seen:
            return False
        if len(seen) >= 4 * MEMO_ANSWERS:
            seen.clear()
        seen.add(key)
        return True


class Server:
    """Answers protocol v1 requests with the reference engine."""

    def __init__(self, impl: ReferenceImplementation | None = None,
                 declare: Ruleset | None = None) -> None:
        self.impl = impl or MemoReference()
        self.declare = declare
        self.repeats = Repeats()
        self.known = KnownLines() if isinstance(self.impl, MemoReference) else None

    def respond(self, line: bytes) -> tuple[bytes, bool]:
        """(the answer line to one request line, whether to stop after sending it): a
        known question's from `known`, any other's from `handle`."""
        known, key = self.known, None
        if known is not None:
            text, key = known.look(line)
            if text is not None:
                return text, False
        answer, stop = self.handle(line, key)
        return self.encode(answer), stop

    def handle(self, line: bytes | str, key: tuple[bytes, bytes] | None = None
               ) -> tuple[JSON, bool]:
        """(the answer to one request line, whether to stop after sending it); `key`: the
        line's key among the known lines, when `KnownLines.look` found it already."""
        try:
            message = self.repeats.decode(line) if isinstance(line, bytes) else decode(line)
        except ProtocolError as e:
            return error(None, "bad-request", str(e)), False
        raw_id = message.get("id")
        rid = raw_id if is_id(raw_id) else None  # else no id to answer with: null
        try:
            rid, kind = check_request(message)
        except ProtocolError as e:
            return error(rid, "bad-request", str(e)), False
        if isinstance(line, bytes) and isinstance(self.impl, MemoReference):
            self.impl.given = (message.get("state"), line)
        try:
            if isinstance(line, bytes) and kind in ("legal", "apply") \
                    and self.known is not None:
                recorded = self.recorded(rid, kind, message, line, key)
                if recorded is not None:
                    return recorded, False
            return self.dispatch(rid, kind, message), kind == "shutdown"
        except RefusedSetup as e:  # DEAL-7: a deal or table the rule set does not allow
            return error(rid, "refused-setup", e.reason, clause=e.clause), False
        except BAD_REQUEST_ERRORS as e:
            text = str(e) if not isinstance(e, KeyError) else f"missing {e}"
            return error(rid, "bad-request", f"{kind}: {text}"), False
        except Exception as e:
            traceback.print_exc(file=sys.stderr)
            return error(rid, "internal", f"{kind}: {type(e).__name__}: {e}"), False

    def recorded(self, rid: int, kind: str, message: JSON, line: bytes,
                 looked: tuple[bytes, bytes] | None = None) -> JSON | None:
        """The answer to a `legal` or `apply` request asked before (`KnownLines`), found
        as `dispatch` finds it, and kept with the flags it read; None for a question seen
        for the first time, or one the line does not show plainly. `looked`: the line's
        key as `KnownLines.look` found it (its rule set's text known already), which
        `learn` would find again."""
        impl, known = self.impl, self.known
        assert isinstance(impl, MemoReference) and known is not None
        rules = impl.rules(message["ruleset"])
        key = looked if looked is not None else known.learn(line, message, rules)
        if key is None or known.first_time(key) or type(rules) is not Rules:
            return None
        state = message["state"]
        st, entry = impl._read(rules, state, state_text(line) or fingerprint(state))
        # (no entry: the state was read plainly, its text new to the memo of states; the
        # answer is then found as dispatch finds it, and not kept)
        traced, reading = _traced(st, rules) if entry is not None else (st, None)
        payload: JSON
        if kind == "legal":
            actions = [codec.action_to_json(traced, a) for a in engine.legal_actions(traced)]
            payload = {"actions": actions}
        else:
            try:
                new = refusals.apply(traced, codec.action_from_json(traced, message["action"]))
            except engine.IllegalAction as e:
                payload = {"refused": {"reason": e.message, "clause": e.clause}}
            except codec.StateError as e:
                if e.clause is None:  # not an action of the game at all: a malformed request
                    raise
                # no such train or tile (TRAIN-1, SET-1)
                payload = {"refused": {"reason": str(e), "clause": e.clause}}
            else:
                answer = codec.state_to_json(new)
                new.rules = st.rules
                impl.wrote(st.rules, answer, new)
                payload = {"state": answer}
        if reading is not None:
            (field, value), = payload.items()
            known.answers.keep(key, entry, reading, st.players,
                               b'"%s":%s' % (field.encode(), encode_value(value)))
        return ok(rid, **payload)

    def dispatch(self, rid: int, kind: str, m: JSON) -> JSON:
        impl = self.impl
        if kind == "hello":
            if m["protocol"] != PROTOCOL_VERSION:
                return error(rid, "protocol-version",
                             f"this server speaks protocol {PROTOCOL_VERSION}, "
                             f"not {m['protocol']}", supported=[PROTOCOL_VERSION])
            if self.declare is not None:
                return ok(rid, protocol=PROTOCOL_VERSION, name=NAME, version=__version__,
                          rules=ruleset_json(self.declare))
            return ok(rid, protocol=PROTOCOL_VERSION, name=NAME, version=__version__,
                      variants=["*"])
        if kind == "deal":
            return ok(rid, state=impl.deal(m["ruleset"], m["players"], m["round"], m["order"],
                                           m.get("draw")))
        if kind == "legal":
            return ok(rid, actions=impl.legal(m["ruleset"], m["state"]))
        if kind == "apply":
            try:
                return ok(rid, state=impl.apply(m["ruleset"], m["state"], m["action"]))
            except Refused as e:
                return ok(rid, refused={"reason": e.reason, "clause": e.clause})
        if kind == "score":
            return ok(rid, scores=self.score(m["ruleset"], m["state"], m.get("winner", ...)))
        if kind == "winners":
            return ok(rid, winners=impl.winners(m["ruleset"], m["state"]))
        if kind == "shutdown":
            return ok(rid)
        raise BadRequest(f"unknown request type {shown(kind)}")  # pragma: no cover

    def score(self, ruleset: JSON, state: JSON, winner: Any) -> list[int]:
        """The round's scores from the hands in `state`, `winner` having gone out.

        `winner` is the seat that went out (its hand must be empty) or None for a blocked
        round; omitted (Ellipsis), the state must be over and its result names the winner.
        """
        st = self.impl.state(ruleset, state)
        if winner is ...:
            if st.result is None:
                raise BadRequest("the round is not over; give 'winner' (the seat that went "
                                 "out, or null for a blocked round)")
            winner = None if st.result.winner < 0 else st.result.winner
        if winner is not None:
            if not isinstance(winner, int) or not 0 <= winner < st.players:
                raise BadRequest(f"winner {winner!r} is not a seat 0..{st.players - 1}")
            if st.hands[winner]:
                raise BadRequest(f"seat {winner} still holds tiles, so it did not go out")
        return self.impl.score(ruleset, state, winner)  # SCORE-1..6, on a copy

    def encode(self, answer: JSON) -> bytes:
        """The answer's line; a state in it is remembered as written (see Repeats), for
        the requests that ask about it next."""
        state = answer.get("state")
        if not isinstance(state, dict) or len(answer) != 3 or answer.get("ok") is not True:
            return encode(answer)
        text = encode(state)[:-1]
        self.repeats.remember_state(text, state)
        return b'{"id":%d,"ok":true,"state":%s}\n' % (answer["id"], text)


def serve(stdin: IO[bytes], stdout: IO[bytes], server: Server | None = None) -> int:
    """Answer requests from `stdin` until end of input or a shutdown request.

    Input is read as it comes (`read1`), and the answers to every line that came in one
    read go out in one write: a harness that writes a step's requests at once gets their
    answers at once, not one wake-up each."""
    server = server or Server()
    read = getattr(stdin, "read1", None)
    part: list[bytes] = []  # the start of a line still coming in
    size = 0
    skipping = False  # inside a line longer than MAX_LINE, answered already
    while True:
        chunk = read(1 << 16) if read is not None else stdin.readline(MAX_LINE + 1)
        lines = chunk.split(b"\n")
        rest = lines.pop() if chunk else b""
        answers: list[bytes] = []
        stop = False
        for line in lines:
            if part:
                line, part, size = b"".join(part) + line, [], 0
            if skipping:
                skipping = False
                continue
            if len(line) > MAX_LINE:
                answers.append(encode(error(None, "bad-request",
                                            f"a request line longer than {MAX_LINE} bytes")))
            elif line.strip():
                text, stop = server.respond(line)
                answers.append(text)
                if stop:
                    break
        if not stop and not skipping:
            if rest:
                part.append(rest)
                size += len(rest)
            if size > MAX_LINE:
                answers.append(encode(error(None, "bad-request",
                                            f"a request line longer than {MAX_LINE} bytes")))
                part, size, skipping = [], 0, True
            elif not chunk and part:  # the last line, with no newline
                line, part, size = b"".join(part), [], 0
                if line.strip():
                    text, stop = server.respond(line)
                    answers.append(text)
        try:
            if answers:
                stdout.write(b"".join(answers))
                stdout.flush()
        except BrokenPipeError:
            return 0
        except OSError as e:  # its traceback said nothing the reason does not
            raise AnswersUnwritten(e.strerror or str(e)) from None
        if stop or not chunk:
            return 0


def main(rules: Ruleset | None = None, declare: bool = True) -> int:
    """Serve the reference engine; with `rules`, playing that one rule set (declared in
    the hello answer unless `declare` is false)."""
    server = Server() if rules is None else Server(FixedRules(rules), rules if declare else None)
    catalog()  # loaded now rather than at the first rule set, to be frozen with the rest
    with settled():
        return serve(sys.stdin.buffer, sys.stdout.buffer, server)
