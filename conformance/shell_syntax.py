"""What a shell would have read as syntax in an implementation's command (--impl), which
no shell runs: the command is split into words as a POSIX shell splits them and the
program started directly (docs/protocol.md). A pipe, a redirection, a `;`, `$HOME` or a
`~` left outside quotes reached the program as an argument of its own: the program ran,
often green, and the log file, the pipe or the value the user meant never came about."""

from __future__ import annotations

_OPERATORS = {
    "|": "a pipe", "&": "a list (&&) or a job in the background (&)",
    ";": "the end of a command", "<": "a redirection", ">": "a redirection",
    "(": "a subshell", ")": "a subshell",
}
_EXPANSION = "an expansion (a variable, or a command's output)"


def shell_syntax(command: str) -> str | None:
    """Why `command` cannot be run as its author meant, or None: the first character
    outside quotes (or, for an expansion, outside single quotes) that a shell would read
    as an operator, a redirection, an expansion or the home folder, with its word."""
    quote = ""
    word_start = True
    i = 0
    while i < len(command):
        c = command[i]
        if quote == "'":
            quote = "" if c == "'" else quote
        elif c == "\\":  # the next character is the word's own, as in the shell
            i += 2
            word_start = False
            continue
        elif c == "`" or (c == "$" and _expands(command, i, word_start)):
            return _said(command, i, _EXPANSION)
        elif quote == '"':
            quote = "" if c == '"' else quote
        elif c in "'\"":
            quote = c
        elif c in _OPERATORS:
            return _said(command, i, _OPERATORS[c])
        elif c == "~" and word_start:
            return _said(command, i, "the home folder")
        word_start = (not quote and c.isspace()) or (word_start and c in "'\"")
        i += 1
    return None


def _expands(command: str, i: int, word_start: bool) -> bool:
    """Whether the `$` at `i` begins what a shell expands: `$(` and `${` anywhere, a
    name at a word's start or after `=` (`--home="$HOME"`); a `$` inside a word is left
    alone (a Java class `Main$Engine`, as its author surely means it)."""
    after = command[i + 1:i + 2]
    if after in ("(", "{"):
        return True
    return (after.isalpha() or after == "_") and (
        word_start or command[:i].rstrip("'\"").endswith("="))


def _said(command: str, i: int, meaning: str) -> str:
    start = max(command.rfind(" ", 0, i), command.rfind("\t", 0, i)) + 1
    ends = [e for e in (command.find(" ", i), command.find("\t", i)) if e >= 0]
    word = command[start:min(ends, default=len(command))]
    mark = "`" if "`" not in word else "'"
    shown = "a backtick" if command[i] == "`" else f"`{command[i]}`"
    return (f"{shown} (in {mark}{word}{mark}) is what a shell reads as {meaning}, but the "
            "command runs without a shell: the program would get it as its argument's text; "
            "quote it if the program takes it so (to run a shell line: "
            "--impl \"sh -c '...'\")")
