"""Text from an implementation (its name, messages, refusal clauses, stderr) is untrusted:
it is shown with control, format and bidirectional characters escaped, so that it can
neither move the cursor, recolour a terminal, nor reorder what is printed around it (a
right-to-left override in a name would turn the rest of the line around)."""

from __future__ import annotations

import re
from typing import Final, overload

_HIDDEN: Final = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f"  # C0 but tab and newline, DEL, C1 (ESC starts ANSI codes)
    "\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f"  # format, bidi
    "\u2028\u2029\ufeff\ufff9-\ufffb\ud800-\udfff]")  # line separators, BOM, surrogates


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


TEXT_LIMIT: Final = 300
"""Characters kept of one text an implementation gives (an error's message or kind, a
refusal's reason or clause): a line may be 4 MiB, and a report repeating such a text with
every failure ran to megabytes."""


@overload
def cut(text: str, limit: int = TEXT_LIMIT) -> str: ...
@overload
def cut(text: None, limit: int = TEXT_LIMIT) -> None: ...


def cut(text: str | None, limit: int = TEXT_LIMIT) -> str | None:
    """`text` cut to its first `limit` characters and its length, when it is a string
    longer by more than the length's note; anything else as it is (an adapter's value of
    another type is told where it is read). A text cut once is kept as it is: an adapter's
    refusal is read in its worker and raised again in the harness."""
    if not isinstance(text, str) or len(text) <= limit + len(" ... (4,194,304 characters)"):
        return text
    return f"{text[:limit]}... ({len(text):,} characters)"


def shown(text: str) -> str:
    """`text` with every character that would not show as itself escaped (`\\x1b`,
    `\\u202e`); newlines and tabs are kept."""
    return _HIDDEN.sub(_escape, text)


def one_line(text: str) -> str:
    """`text` shown (above) on one line: a name with a newline began a line of its own in
    a report's header, as if the report had written it."""
    return shown(text).replace("\n", "\\n")  # (a carriage return is escaped already)
