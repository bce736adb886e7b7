"""How the protocol client (process.py) words what a program under test did wrong in
answering: no answer in time, a line that is not JSON, another request's id, an exit
before answering, an error kind protocol v1 has not, a hello that changed, lines left
over at the shutdown. Each message says what was seen and, where one is likely, the
mistake in the program that causes it (the user reads these, not the harness's code)."""

from __future__ import annotations

from mtrain.conformance.adapter import JSON
from mtrain.conformance.child import describe_exit
from mtrain.conformance.protocol import ERROR_KINDS, MAX_ID, PROTOCOL_VERSION, is_id, preview
from mtrain.conformance.wording import json_text


def why_silent(*, rid: int, starting: bool, flags: tuple[str, str], unfinished: str,
               unread: bool, empty: int, wrote_stderr: bool, pending: int | None,
               later: int) -> str:
    """What a program that did not answer request `rid` in time had done, in brackets
    (or ""): `unfinished`, part of a line it never ended; `unread`, its stdin closed
    with a request in it; `empty`, blank lines written; `pending`, the bytes still in
    its stdin, `later` of them the requests written after this one; `flags`, the
    options of the request timeout and the start-up timeout."""
    if unfinished:
        return f" (it wrote a line it never ended with a newline: {unfinished})"
    if unread:
        return (" (it had closed its stdin while still running: a request it had not read "
                "was lost)")
    if empty:
        return (f" (it wrote {empty} empty line{'s' * (empty > 1)} and no answer: an answer "
                "is one JSON object on one line)")
    if wrote_stderr:
        return (" (it wrote to stderr after the request, nothing to stdout: if it answered, "
                "flush stdout after every answer; an answer left in its output buffer never "
                "arrives)")
    if starting and pending == 0:
        # nothing written at all to the first request, which it read: it waits for more
        # input (to the end), or is slow to start
        return (" (it read the hello (none of it is left in its stdin) and wrote nothing: a "
                "program that reads its input to the end before answering (read(), "
                "json.load(stdin), a stream's end event) waits for ever, as the harness "
                "writes the next request only once this one is answered: read a line, "
                "answer it and flush; a program slow to start needs a longer "
                f"{flags[1]})")
    if starting:  # not read: it may not have finished starting (a JVM, a large runtime)
        return (f" (it has not read the hello yet: a program slow to start needs a longer "
                f"{flags[1]}; the other requests keep {flags[0]})")
    # past the hello the same question tells a program stuck in its work on this request
    # from one stuck before reading it
    if pending is None:
        return ""
    if pending <= later:
        return (f" (it read the request (id {rid}; none of it is left in its stdin) and "
                "wrote nothing: still working on it, or waiting for input the request does "
                f"not carry; a program this slow needs a longer {flags[0]})")
    return (f" (it has not read the request (id {rid}): {pending - later} bytes of it are "
            "still in its stdin: stuck before reading it, in work it went on with after its "
            "last answer or blocked on something else)")


def not_json_hint(line: bytes) -> str:
    """The likely cause of an answer line that is not JSON, in brackets (or "")."""
    if line.rstrip()[-1:] in (b"{", b"[", b",", b":"):  # JSON cut at a line's end
        return (" (an answer is one JSON object on one line: this one looks spread over "
                "several, as pretty-printed JSON is)")
    if line.lstrip().startswith(b"{'"):  # print(answer) of a dict in Python
        return (" (single quotes, True, False or None: a Python dict as print() or str() "
                "writes it, which is not JSON; write json.dumps(answer))")
    return "" if line.lstrip()[:1] in (b"{", b"[") else " (logs belong on stderr)"


def wrong_id(answer: JSON, rid: int, first_id: int) -> str:
    """What is wrong with the id of an answer to request `rid` that does not carry it
    (`first_id`: the id of its process's hello): "carries ...: why"."""
    got = answer.get("id")
    carries = f"carries id {json_text(got)}" if "id" in answer else "carries no id"
    if type(got) is int and not is_id(got):
        carries += f", which no request has (an id is an integer from 0 to {MAX_ID})"
    elif type(got) is int and first_id <= got < rid:  # one answer twice, or late
        carries += (", an earlier request's: it answered that request twice, or answers "
                    "one request behind")
    why = "one answer per request, in order"
    if type(got) is str and got.strip() == str(rid):  # "2": not another's answer
        why = (f"the id sent, written as text: an id is an integer, written without quotes "
               f"({rid}, not {json_text(got)})")
    elif type(got) is float and got == rid:
        # the right answer with its numbers written as doubles print ("3.0"): not an
        # answer out of order, and every other integer of it is written alike
        why = (f"the id sent, written as a decimal: an integer is written without a point "
               f"or an exponent ({rid}, not {json_text(got)}), in every field")
    return f"{carries}: {why}"


def crashed_before(kind: str, code: int | None, stdin: bool,
                   parent_killed: bool = False) -> str:
    """A program that ended (exit status `code`, None if still running) before answering
    a `kind` request; `stdin`: found when the request could not be written to it;
    `parent_killed`: it killed its parent, the harness's reaper, whose end was read as its."""
    said = ("closed its stdin while still running (the request found no reader)"
            if stdin and code is None else describe_exit(code))
    if parent_killed:  # `code` is the reaper's: how the program itself ended is unknown
        said = ("killed its parent, the harness's reaper (reaper.py, which kills what the "
                "program leaves running when it ends), and was killed with what it started")
    # a program written to answer one request and exit (started again for each, it
    # fails every one): what a clean exit before an answer means
    clean = (" (a clean exit: the harness sends every request of the run to one process, "
             "which exits only at the shutdown or the end of its input)" if code == 0 else "")
    return f"the implementation {said}, before answering the {kind} request{clean}"


def unknown_kind(kind: str) -> str:
    """What a message adds after an error kind protocol v1 has not: an `unsuported` (a
    typo) is no `unsupported`, so the result is an error, not not-applicable."""
    if kind in ERROR_KINDS:
        return ""
    import difflib  # (here: an adapter's host starts without it)

    near = difflib.get_close_matches(kind, ERROR_KINDS, n=1)
    return (f", a kind protocol v{PROTOCOL_VERSION} has not"
            + (f": {near[0]}?" if near else f"; its kinds: {', '.join(ERROR_KINDS)}"))


def spoken_versions(error: JSON) -> str:
    """The versions a protocol-version refusal says it speaks (its `supported`), as words
    for the message: the program's own text ("no", "unsupported") said none of them."""
    listed = error.get("supported") if isinstance(error, dict) else None
    if not isinstance(listed, list) or not listed or len(listed) > 20 or not all(
            isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 10**6 for v in listed):
        return ""  # left out rather than quoted wrong: the message still says the rest
    return f" (it speaks {', '.join(map(str, listed))})"


def hello_changed(first: JSON, now: JSON) -> str:
    """Why a program started again is refused: its hello answers otherwise than its first."""
    field = min((k for k in first.keys() | now.keys() if first.get(k) != now.get(k)), key=str)

    def said(info: JSON) -> str:
        return json_text(info[field]) if field in info else "nothing"
    return (f"the implementation, started again, answered its hello otherwise than at its "
            f"first start (its {field!r} was {said(first)}, now {said(now)}): a run tests "
            "one implementation, and reads what it plays from its first hello")


def shutdown_note(what: str) -> str:
    """A note on a shutdown request left unanswered: docs/protocol.md says "the last is
    `shutdown` ... Answer it, then exit", but no result hangs on it (every answer is in)."""
    return (f"{what} (docs/protocol.md: answer the shutdown, e.g. "
            '{"id":N,"ok":true}, then exit); a note, no result depends on it')


def stray_part(unfinished: str, last_request: bytes) -> str:
    """Part of a line, never ended, found at the shutdown after the last answer read."""
    return ("after its answer to the last request the implementation wrote part of a line, "
            f"never ended with a newline: {unfinished}; the last request sent: "
            f"{preview(last_request, 120)}")


def stray_line(line: bytes, last_request: bytes) -> str:
    """A line that answers no request, found at the shutdown after the last answer read."""
    return ("after its answer to the last request the implementation wrote another line, "
            f"read only at the shutdown: {preview(line, 120)} (one answer per request: an "
            f"answer written twice?); the last request sent: {preview(last_request, 120)}")
