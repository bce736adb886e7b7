"""The one place the project reads YAML: spec data, variant files and fixtures.

Every problem is reported as a :class:`SpecError` naming the file and, whenever the
YAML says where, the 1-based line. Loading is safe only: the text is composed with a
``yaml.SafeLoader`` subclass and tags outside plain YAML data are refused, so no file
can make Python build objects.

Beyond what ``yaml.safe_load`` checks, :func:`load` refuses

* duplicate keys in a mapping (YAML says they are an error; PyYAML keeps the last one),
* merge keys (``<<: *anchor``), which YAML 1.2 reads as a plain key named ``<<``, and
  scalars YAML 1.1 and 1.2 read apart (spec/yamlspell.py),
* mapping keys that are neither strings nor integers (``yes:`` read as ``True``,
  ``1.5:``, ``~:``, a list used as a key). Integer keys stay integers, for tables such as
  ``{2: 15, 3: 15}``;
* data that would grow without bound once aliases are expanded: aliases that stand for
  more than :data:`MAX_ALIASED` nodes in all (a few lines of ``&a`` / ``*a`` can stand
  for billions), an alias inside the node it names, or nesting deeper than
  :data:`MAX_DEPTH`. Anchors and aliases are otherwise allowed, and a file written out
  in full is bounded only by its size;
* an integer of more than :data:`MAX_DIGITS` digits (Python would refuse to convert it,
  with no line to show), and a string of more than :data:`MAX_TEXT` characters;
* more than :data:`MAX_WRITTEN` values written (keys, items and scalars, aliases each one):
  counted on the parser's events before any node is built, so a file of a million
  values is refused in a fraction of a second instead of loading for half a minute.

Only regular files are read (:func:`read_bytes`): a folder, a FIFO, a device or a
socket is refused by name before it is opened, never read or waited on, and a file
larger than :data:`MAX_FILE_BYTES` is refused.

The resulting :class:`Document` keeps the plain data together with the line of every
node, so later checks (schema validation, spec/yamlschema.py; cross references) can still
point at a line.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import math
import os
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import yaml

from mtrain.spec import cache
from mtrain.spec.file_checks import (  # checked apart: adapter_loading.py needs no YAML
    MAX_FILE_BYTES,
    _file_kind,
    _size_problem,
    file_problem,
)
from mtrain.spec.yamlspell import ambiguous

__all__ = [
    "Document",
    "Pointer",
    "SpecError",
    "SpecErrors",
    "describe",
    "file_problem",
    "load",
    "read_bytes",
    "read_text",
]

Pointer = tuple[str | int, ...]
"""A path into a document: mapping keys and sequence indexes, outermost first."""

_YAML_TAG: Final = "tag:yaml.org,2002:"
_MERGE_TAG: Final = _YAML_TAG + "merge"

MAX_ALIASED: Final = 100_000
"""The most nodes that aliases may stand for in one file, beyond the nodes written (no
shipped file uses an alias); later steps (schema validation, copies) walk the expanded
data. A large file written out in full is bounded by MAX_FILE_BYTES, not by this."""
MAX_WRITTEN: Final = 100_000
"""The most values (keys, items, scalars, aliases) a file may write: the largest shipped
file writes some 6,300 (deal/rows-extra.yaml), a fixture some 20 to 60, so this is some
2,000 fixtures in one file. A file of 1,000,000 values took 34 s and 620 MB to load and
check; one at the bound takes a few seconds."""
MAX_TEXT: Final = 65_536
"""The longest string, in characters: the longest shipped is some 1,800 (a note); a text
longer is no description, note or name, and every report would carry it whole."""
MAX_DEPTH: Final = 50
MAX_DIGITS: Final = 1000
"""The longest integer read, in digits: Python refuses to convert more than 4,300 (a
ValueError with no line), and no count in a rule set or fixture needs more than a few."""
"""The deepest nesting of mappings and lists (shipped files nest 7 deep); the checks that
walk the data recurse, so this keeps them far from Python's recursion limit."""


class SpecError(Exception):
    """A problem in a file: ``str()`` is ``"path:line: message"`` (``"path: message"``)."""

    path: str
    line: int | None
    message: str

    def __init__(self, path: str | Path, line: int | None, message: str) -> None:
        self.path = str(path)
        self.line = line
        self.message = message
        super().__init__(self._format())

    def _format(self) -> str:
        if self.line is None:
            return f"{self.path}: {self.message}"
        return f"{self.path}:{self.line}: {self.message}"

    def __str__(self) -> str:
        return self._format()

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.path, self.line, self.message))


SHOWN_ERRORS = 100
"""The most problems a SpecErrors says, one a line; the rest are counted."""


class SpecErrors(SpecError):
    """Several problems at once; ``str()`` puts one ``SpecError`` on each line.

    ``path``, ``line`` and ``message`` are those of the first error, so code that only
    looks at a single ``SpecError`` still gets a useful location.
    """

    errors: list[SpecError]

    def __init__(self, errors: Iterable[SpecError]) -> None:
        flat: list[SpecError] = []
        for err in errors:
            flat.extend(err.errors if isinstance(err, SpecErrors) else [err])
        if not flat:
            raise ValueError("SpecErrors needs at least one error")
        self.errors = flat
        first = flat[0]
        super().__init__(first.path, first.line, first.message)

    def _format(self) -> str:
        shown = [str(err) for err in self.errors[:SHOWN_ERRORS]]
        more = len(self.errors) - SHOWN_ERRORS  # a file of 300,000 strays wrote 120 MB
        return "\n".join(shown + ([f"... and {more:,} more problems, not shown "
                                   f"({len(self.errors):,} in all)"] if more > 0 else []))

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.errors,))

    def __iter__(self) -> Iterator[SpecError]:
        return iter(self.errors)

    def __len__(self) -> int:
        return len(self.errors)


@dataclass(frozen=True)
class Document:
    """A loaded YAML file: plain data plus the line of every node in it."""

    path: str
    data: Any
    """Plain dicts, lists and scalars, exactly as ``yaml.safe_load`` gives them."""
    lines: dict[Pointer, int] = field(default_factory=dict, repr=False, compare=False)
    """Line (1-based) of each node: the key's line for a mapping entry, the item's line
    for a sequence item, the node's first line for the root (pointer ``()``)."""

    def line_of(self, pointer: Sequence[str | int]) -> int | None:
        """The line of the node at ``pointer``, or of its nearest existing ancestor."""
        key = tuple(pointer)
        while True:
            line = self.lines.get(key)
            if line is not None or not key:
                return line
            key = key[:-1]

    def error(self, pointer: Sequence[str | int], message: str) -> SpecError:
        """A ``SpecError`` for this file at the line of ``pointer``."""
        return SpecError(self.path, self.line_of(pointer), message)


# libyaml's parser when PyYAML was built with it (several times faster), else pure Python;
# either way only the safe constructor is used.
_SafeBase: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _Loader(_SafeBase):  # type: ignore[misc]
    """Safe loading; kept as a subclass so that nothing registered globally leaks in."""


_SAFE_TAGS: Final = frozenset(tag for tag in _Loader.yaml_constructors if tag is not None)


def _short_tag(tag: str) -> str:
    return "!!" + tag[len(_YAML_TAG) :] if tag.startswith(_YAML_TAG) else tag


def _mark_line(mark: yaml.Mark | None) -> int | None:
    return None if mark is None else mark.line + 1


_BREAK: Final = re.compile("\r\n|[\r\n\x85\u2028\u2029]")
"""What YAML (and so every line PyYAML reports) counts as a line break: a file with
old Mac endings (CR alone) has its lines too."""


def line_at(text: str, position: int) -> int:
    """The 1-based line of `text[position]`, counting lines as YAML does."""
    return len(_BREAK.findall(text, 0, max(position, 0))) + 1


_LOOK_ALIKES: Final = (
    ("\ufeff", "a byte order mark (U+FEFF) past the file's start: files joined with `cat`, "
     "each saved with one? delete it"),
    ("\u00a0", "a no-break space (U+00A0) where YAML wants a plain space (pasted from a web "
     "page or a word processor?)"),
    ("\u3000", "an ideographic space (U+3000) where YAML wants a plain space"),
    ("\u200b", "a zero-width space (U+200B), which shows as nothing: delete it"))
"""Characters that look like a space or like nothing at all, which YAML does not take for
one: the syntax error alone ("did not find expected '-' indicator") points at nothing a
reader sees on the line."""


def _odd_spaces(line: str) -> str:
    """What the message of a syntax error on `line` adds: a tab, or a character that looks
    like a space or like nothing, named with what to do about it."""
    if "\t" in line:
        return " (the line holds a tab: YAML indents with spaces only)"
    for char, said in _LOOK_ALIKES:
        if char in line:
            return f" (the line holds {said})"
    return ""


def _yaml_error(path: str, text: str, exc: yaml.YAMLError) -> SpecError:
    """Turn any PyYAML error into a ``SpecError`` at the line it names."""
    if isinstance(exc, yaml.MarkedYAMLError):
        line = _mark_line(exc.problem_mark) or _mark_line(exc.context_mark)
        problem = exc.problem or exc.context or "invalid YAML"
        if exc.context and exc.problem and exc.problem.startswith("but "):
            problem = f"{exc.context}, {exc.problem}"
        elif exc.context and exc.problem:
            where = _mark_line(exc.context_mark)
            problem += f" ({exc.context}" + (f" at line {where})" if where else ")")
        lines = _BREAK.split(text)
        # the line named, else the one the context names (the scan that failed began there)
        for at in (line, _mark_line(exc.context_mark)):
            if at is not None and 0 < at <= len(lines) and (odd := _odd_spaces(lines[at - 1])):
                problem += odd if at == line else odd.replace(" (the line holds",
                                                              f" (line {at} holds", 1)
                break
        return SpecError(path, line, f"YAML syntax error: {problem}")
    if isinstance(exc, yaml.reader.ReaderError):
        position = exc.position
        if exc.encoding != "unicode":  # libyaml counts the bytes of the UTF-8 text
            position = len(text.encode("utf-8")[:position].decode("utf-8", "ignore"))
        line = line_at(text, position)
        char = exc.character if isinstance(exc.character, int) else ord(exc.character)
        return SpecError(path, line, f"character U+{char:04X} is not allowed in YAML")
    return SpecError(path, None, f"YAML error: {exc}")


def describe(value: object) -> str:
    """A short readable form of a value for messages."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


class _Walker:
    """One pass over the composed node tree: records lines and refuses bad nodes."""

    def __init__(self, path: str, loader: _Loader, text: str = "") -> None:
        self.path = path
        self.loader = loader
        self.text = text
        self.text_lines: list[str] | None = None  # split on the first alias met
        self.lines: dict[Pointer, int] = {}
        self.sizes: dict[int, int] = {}  # node id -> its size with aliases expanded
        self.open: set[int] = set()  # the nodes being walked (an alias to one is a cycle)
        self.aliased = 0  # nodes that aliases stand for, beyond those written

    def error(self, node: yaml.Node, message: str) -> SpecError:
        return SpecError(self.path, node.start_mark.line + 1, message)

    def refuse_merge(self, node: yaml.Node) -> None:
        """A plain `<<` (`<<: *anchor`) is a merge key to YAML 1.1 and text to YAML 1.2:
        the two read it apart, like the scalars yamlspell refuses. (A node tagged
        `!!merge` otherwise is refused as any tag outside plain data.)"""
        if node.tag == _MERGE_TAG and isinstance(node, yaml.ScalarNode) and node.value == "<<":
            raise self.error(node, "'<<' is a merge key to YAML 1.1 (PyYAML: the keys of the "
                             "mapping it names are copied in) and a plain key named '<<' to "
                             "YAML 1.2: write the keys out (or quote it, '<<', for a key of "
                             "that name)")

    def check_scalar(self, node: yaml.ScalarNode) -> None:
        problem = ambiguous(node)
        if problem is not None:
            raise self.error(node, f"{node.value!r} {problem}, or quote it for text")
        if node.tag == _YAML_TAG + "int" and len(node.value) > MAX_DIGITS:
            raise self.error(node, f"a number of {len(node.value):,} characters is too long "
                             f"to read (at most {MAX_DIGITS:,} digits)")
        if len(node.value) > MAX_TEXT:
            raise self.error(node, f"a value of {len(node.value):,} characters is too long "
                             f"(at most {MAX_TEXT:,}: a description, note or name is short)")

    def walk(self, node: yaml.Node, pointer: Pointer, line: int, depth: int = 0) -> int:
        """Check `node`; its size (nodes, aliases expanded), counted once per node."""
        self.lines.setdefault(pointer, line)
        done = self.sizes.get(id(node))
        if done is not None:  # an alias: its content was checked where it is anchored
            self.aliased += done
            return done
        if id(node) in self.open:
            raise self.error(node, "an alias refers to the node that contains it "
                             "(recursive data cannot be loaded)")
        if depth > MAX_DEPTH:
            raise self.error(node, f"nested more than {MAX_DEPTH} levels deep")
        self.refuse_merge(node)
        if node.tag not in _SAFE_TAGS:
            raise self.error(
                node,
                f"tag {_short_tag(node.tag)!r} is not allowed "
                "(only plain YAML data: mappings, lists, strings, numbers, booleans, null)",
            )
        self.open.add(id(node))
        size = 1
        if isinstance(node, yaml.ScalarNode):
            self.check_scalar(node)
        elif isinstance(node, yaml.SequenceNode):
            after = (node.start_mark.line, node.start_mark.column)
            for index, item in enumerate(node.value):
                if id(item) in self.sizes:  # an alias: its own line, not its anchor's
                    after = self.alias_at(after)
                    line = after[0] + 1
                else:
                    line, after = item.start_mark.line + 1, (item.end_mark.line,
                                                             item.end_mark.column)
                size += self.walk(item, (*pointer, index), line, depth + 1)
                self.bound(node)
        elif isinstance(node, yaml.MappingNode):
            size += self.walk_mapping(node, pointer, depth)
        self.open.discard(id(node))
        self.sizes[id(node)] = size
        return size

    def alias_at(self, after: tuple[int, int]) -> tuple[int, int]:
        """(line, column) from 0 just past the next alias (`*name`) after `after`: a
        composed alias is its anchor's node, marks and all, so a fixture repeated as
        `- *one` is found in the text, past the item before it. Between two items only
        indicators, spaces and comments come; `after` itself, if none is found."""
        if self.text_lines is None:
            self.text_lines = _BREAK.split(self.text)
        lines = self.text_lines
        row, col = after
        while row < len(lines):
            text = lines[row]
            while col < len(text):
                c = text[col]
                if c == "#" and (col == 0 or text[col - 1] in " \t"):
                    break  # a comment: the rest of the line
                if c == "*":
                    end = col + 1
                    while end < len(text) and text[end] not in " \t,[]{}":
                        end += 1
                    return row, end
                col += 1
            row, col = row + 1, 0
        return after

    def bound(self, node: yaml.Node) -> None:
        """Only what aliases add is bounded: a file written out in full loads whatever
        its size (read_bytes bounds that), however many nodes it holds."""
        if self.aliased > MAX_ALIASED:
            raise self.error(node, f"its aliases expand to more than {MAX_ALIASED:,} nodes "
                             "(write the data out, or alias less)")

    def walk_mapping(self, node: yaml.MappingNode, pointer: Pointer, depth: int) -> int:
        first_line: dict[str | int, int] = {}
        size = 0
        for key_node, value_node in node.value:
            key = self.key(key_node)
            line = key_node.start_mark.line + 1
            if key in first_line:
                where = (f"lines {first_line[key]} and {line}" if first_line[key] != line
                         else f"line {line}, twice")  # `{a: 1, a: 2}`, or `*k :` (an alias)
                raise self.error(key_node, f"duplicate key {key!r} ({where})")
            first_line[key] = line
            size += 1 + self.walk(value_node, (*pointer, key), line, depth + 1)
            self.bound(key_node)
        return size

    def key(self, node: yaml.Node) -> str | int:
        if not isinstance(node, yaml.ScalarNode):
            raise self.error(node, "a mapping key must be a string or an integer, not a collection")
        self.refuse_merge(node)
        if node.tag not in _SAFE_TAGS:
            raise self.error(node, f"tag {_short_tag(node.tag)!r} is not allowed")
        self.check_scalar(node)
        key = self.loader.construct_object(node, deep=True)
        if type(key) is str or type(key) is int:
            return key
        kind = ("null" if key is None else "a boolean" if isinstance(key, bool) else
                f"a {'number' if isinstance(key, float) else type(key).__name__}")
        raise self.error(
            node,
            f"key {node.value!r} is read as {kind} ({describe(key)}); "
            "mapping keys must be strings or integers (quote it to make it a string)",
        )


def read_bytes(path: str | Path, name: str | None = None,
               limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a regular file of at most `limit` bytes; a ``SpecError`` (reported as
    ``name``) for anything else, found before the file is read: a FIFO or a device is
    never read from (``/dev/zero`` has no end, a FIFO may never be written)."""
    shown = str(path) if name is None else name
    problem = file_problem(path, limit)
    if problem is not None:
        raise SpecError(shown, None, problem)
    try:
        # O_NONBLOCK: a FIFO put in the file's place since the look above is not waited on
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)
                     | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        raise SpecError(shown, None, f"cannot read file: {exc.strerror or exc}") from None
    try:
        kind = _file_kind(os.fstat(fd).st_mode)
        if kind is not None:
            raise SpecError(shown, None, f"is {kind}, not a file")
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise SpecError(shown, None, f"cannot read file: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if size > limit:  # it grew since it was looked at
        raise SpecError(shown, None, _size_problem(size, limit))
    return b"".join(chunks)


def decode_utf8(raw: bytes, shown: str) -> str:
    """`raw` as UTF-8 text; a ``SpecError`` at the line of the first bad byte."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start].decode("utf-8")
        bad = raw[exc.start : exc.start + 1].hex()
        # an editor's "Unicode" is often UTF-16 (or UTF-32): its byte order mark says so
        wide = ("UTF-32" if raw[:4] in (b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff") else
                "UTF-16" if raw[:2] in (b"\xff\xfe", b"\xfe\xff") else None)
        said = (f"; it begins with a {wide} byte order mark: save it as UTF-8"
                if wide and exc.start < 4 else "")
        raise SpecError(shown, line_at(before, len(before)),
                        f"not valid UTF-8 (byte 0x{bad}){said}") from None


def read_text(path: str | Path, name: str | None = None) -> str:
    """The UTF-8 text of a file; a ``SpecError`` (reported as ``name``) if there is none."""
    shown = str(path) if name is None else name
    return decode_utf8(read_bytes(path, shown), shown)


@contextlib.contextmanager
def _no_gc() -> Iterator[None]:
    """The cycle collector paused: composing a file makes a node per scalar, and each full
    collection would walk all of them again, so a large file would load ever slower (one
    file of 10,000 fixtures about twice the time of the same fixtures in ten). The
    composed tree holds no cycles (an alias into itself is refused); any the refusal
    leaves are collected once the collector runs again."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def load(path: str | Path, text: str | None = None) -> Document:
    """Load one YAML file (or ``text``, reported as coming from ``path``) safely.

    Raises ``SpecError`` for a missing or unreadable file (or one that is not a regular
    file, or too large: read_bytes), text that is not UTF-8, YAML syntax errors, more than
    one document, tags that are not plain data, merge keys (``<<``), duplicate keys, keys
    that are not strings or integers, aliases that add more than ``MAX_ALIASED`` nodes or
    point into themselves, nesting deeper than ``MAX_DEPTH``, integers longer than
    ``MAX_DIGITS``, strings longer than ``MAX_TEXT``, more than ``MAX_WRITTEN`` values
    written, and an empty file.
    """
    name = str(path)
    if text is None:
        text = read_text(path)
    key = _document_key(text)
    kept = None if key is None else _kept_document(name, key)
    if kept is not None:
        return kept
    with _no_gc():
        doc = _load(name, text)
    if key is not None:
        _keep_document(key, doc)
    return doc


DOCUMENT_KIND = "documents"
KEPT_DOCUMENTS = 4096
"""The most loaded documents the cache keeps (the least recently used go)."""


@functools.cache
def _loader_digest() -> str:
    """Part of a kept document's key: what reads and checks the YAML (this module and its
    spelling checks, PyYAML's version and parser). Another one may read a text otherwise."""
    here = Path(__file__).resolve().parent
    return cache.digest(yaml.__version__, _SafeBase.__name__,
                        (here / "yamlload.py").read_bytes(), (here / "yamlspell.py").read_bytes())


def _document_key(text: str) -> str | None:
    if cache.folder() is None:
        return None
    return document_key(text)


def document_key(text: str) -> str:
    """The key of the document `text` is read as: its text and the loader's digest."""
    return cache.digest("yaml-document", _loader_digest(), text)


def loader_digest() -> str:
    """The digest of what reads a text into a document (part of every document's key)."""
    return _loader_digest()


def document_entry(name: str, text: str) -> tuple[str, Any] | None:
    """The key and the entry the cache keeps for `text`, read now (never from the cache),
    or None for a text whose data JSON would not give back (read anew each time); raises
    SpecError as load does. What conformance/shipped.py ships for the shipped corpus."""
    with _no_gc():
        doc = _load(name, text)
    try:
        return document_key(text), _entry(doc)
    except TypeError:
        return None


def document_from_entry(name: str, kept: Any) -> Document | None:
    """The document an entry (document_entry, the cache's) stands for, reported as
    `name`; None where the entry is not as written."""
    if not isinstance(kept, dict) or not isinstance(kept.get("lines"), list):
        return None
    lines: dict[Pointer, int] = {}
    try:
        for pointer, line in kept["lines"]:
            lines[tuple(pointer)] = line
        data = _thawed(kept["data"])
    except (TypeError, ValueError, KeyError, AttributeError):  # not as written: read anew
        return None
    return Document(path=name, data=data, lines=lines)


def _kept_document(name: str, key: str) -> Document | None:
    """The document this text was read as before (spec/cache.py), or None. Loading a
    fixture file is most of the cost of reading it; what it loads is plain data."""
    return document_from_entry(name, cache.read(DOCUMENT_KIND, key))


def _entry(doc: Document) -> dict[str, Any]:
    """`doc` as plain JSON; TypeError where its data holds something JSON would not give
    back exactly (a YAML date, a NaN, an integer too long)."""
    lines = [[list(pointer), line] for pointer, line in doc.lines.items()]
    return {"data": _frozen(doc.data), "lines": lines}


def _keep_document(key: str, doc: Document) -> None:
    """Keep `doc`, unless JSON would not give its data back (_entry): such a text is read
    anew each time."""
    try:
        entry = _entry(doc)
    except TypeError:
        return
    cache.write(DOCUMENT_KIND, key, entry, keep=KEPT_DOCUMENTS)


_EXACT: Final = (str, bool, type(None))


def _frozen(value: Any) -> Any:
    """`value` as JSON that `_thawed` turns back into it, types and all: every mapping a
    list of [key, value] pairs under "m" (YAML keys may be integers: a table's seats)."""
    kind = type(value)
    if kind is dict:
        return {"m": [[k if type(k) in (str, int) and _exact(k) else _refuse(k), _frozen(v)]
                      for k, v in value.items()]}
    if kind is list:
        return [_frozen(v) for v in value]
    if _exact(value):
        return value
    return _refuse(value)


def _exact(value: Any) -> bool:
    kind = type(value)
    if kind in _EXACT:
        return True
    if kind is int:
        return bool(-(2**63) <= value < 2**64)
    return kind is float and math.isfinite(value)


def _refuse(value: Any) -> Any:
    raise TypeError(f"not kept as JSON: {type(value).__name__}")


def _thawed(value: Any) -> Any:
    if type(value) is dict:
        return {k: _thawed(v) for k, v in value["m"]}
    if type(value) is list:
        return [_thawed(v) for v in value]
    return value


def _count_written(name: str, text: str) -> None:
    """Refuse a text of more than MAX_WRITTEN values at the first past the bound, from the
    parser's events (C, under a microsecond each), before any node is built: composing
    and checking cost some 30 us a value and 600 bytes. A value takes a character at
    least (`{?,?}` writes four in four), so a shorter text is not scanned at all."""
    if len(text) <= MAX_WRITTEN:
        return
    counted = (yaml.ScalarEvent, yaml.AliasEvent, yaml.SequenceStartEvent,
               yaml.MappingStartEvent)
    loader = _Loader(text)
    try:
        written = 0
        while loader.check_event():
            event = loader.get_event()
            if isinstance(event, counted):
                written += 1
                if written > MAX_WRITTEN:
                    mark = event.start_mark
                    raise SpecError(name, None if mark is None else mark.line + 1,
                                    f"a file holds at most {MAX_WRITTEN:,} values (keys, "
                                    "items and scalars; a fixture writes some 20 to 60): "
                                    "the first past that is here; split it into files")
    finally:
        loader.dispose()


_YAML11_BREAKS: Final = {"\x85": "NEL", "\u2028": "a line separator",
                         "\u2029": "a paragraph separator"}


def _refuse_odd_breaks(name: str, text: str) -> None:
    """A NEL (U+0085) or a Unicode line or paragraph separator ends a line to YAML 1.1,
    which PyYAML reads, and is a character of the text to YAML 1.2 (and to most editors):
    `name: x<NEL>base: pagat` is two keys here and one name elsewhere, a comment ended by
    one is data here. Refused as yamlspell refuses scalars the two read apart."""
    found = [(at, char) for char in _YAML11_BREAKS if (at := text.find(char)) >= 0]
    if found:
        at, char = min(found)
        raise SpecError(name, line_at(text, at),
                        f"character U+{ord(char):04X} ({_YAML11_BREAKS[char]}) ends a line "
                        "to YAML 1.1 (and so here) and is text to YAML 1.2 and most "
                        "editors: end the line with a plain newline, or delete it")


def _load(name: str, text: str) -> Document:
    _refuse_odd_breaks(name, text)
    try:
        _count_written(name, text)
        loader = _Loader(text)
    except yaml.YAMLError as exc:
        raise _yaml_error(name, text, exc) from None
    try:
        node = loader.get_single_node()
        if node is None or (
            isinstance(node, yaml.ScalarNode) and node.tag == _YAML_TAG + "null" and not node.value
        ):
            raise SpecError(name, None, "empty file")
        walker = _Walker(name, loader, text)
        walker.walk(node, (), node.start_mark.line + 1)
        data = loader.construct_document(node)
    except yaml.YAMLError as exc:
        raise _yaml_error(name, text, exc) from None
    finally:
        loader.dispose()
    return Document(path=name, data=data, lines=walker.lines)
