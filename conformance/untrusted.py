"""Text from an implementation (its name, messages, refusal clauses, stderr) is untrusted:
it is shown with control, format and bidirectional characters escaped, so that it can
neither move the cursor, recolour a terminal, nor reorder what is printed around it (a
right-to-left override in a name would turn the rest of the line around)."""

from __future__ import annotations

import re
from typing import Final

_HIDDEN: Final = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f"  # C0 but tab and newline, DEL, C1 (ESC starts ANSI codes)
    "\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f"  # format, bidi
    "\u2028\u2029\ufeff\ufff9-\ufffb\ud800-\udfff]")  # line separators, BOM, surrogates


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def shown(text: str) -> str:
    """`text` with every character that would not show as itself escaped (`\\x1b`,
    `\\u202e`); newlines and tabs are kept."""
    return _HIDDEN.sub(_escape, text)


def one_line(text: str) -> str:
    """`text` shown (above) on one line: a name with a newline began a line of its own in
    a report's header, as if the report had written it."""
    return shown(text).replace("\n", "\\n")  # (a carriage return is escaped already)
