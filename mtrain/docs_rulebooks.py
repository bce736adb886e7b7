"""docs/rule-books.md: every surveyed rule book (spec/data/rulebooks.yaml) against every
option, the values the books propose, and each book's notes."""

from __future__ import annotations

from mtrain.spec.catalog import Catalog
from mtrain.spec.rulebooks import RuleBooks, Statement


def rulebooks_page(books: RuleBooks, cat: Catalog) -> str:
    """docs/rule-books.md: every surveyed rule book (rows) against every option (columns),
    then the proposed values and each book's notes."""
    options = list(cat.options)
    said = [s for b in books.books.values() for s in b.says.values()]
    stated = [s for s in said if s.gives_value]
    proposing = [s for s in stated if s.proposed]
    used = {(s.option, n) for s in proposing for n in s.proposed}
    engines = sum(b.kind == "engine" for b in books.books.values())
    out = [
        "# Rule books against options", "",
        "What each published Mexican Train rule text, and each engine whose rules were read "
        "from its own page, says on each option, generated from spec/data/rulebooks.yaml. "
        "How the texts were found and how far each was read: "
        "[the survey of the sources](sources-survey.md). A stored copy is often only the "
        "opening of its page, so \"—\" means not stated *in what was read*.", "",
        "A cell gives the value the text gives, linked to the clause that brings it in; a "
        "*name* marked (proposed) is a rule no value of the catalogue describes yet "
        "([proposed values](#proposed-values)); \"note\" means the text speaks of the "
        "option but no value names what it says (the book's [notes](#notes) say what).", "",
        f"{len(books.books)} rule books ({len(books.books) - engines} printed, {engines} "
        f"engines); {len(stated)} of {len(books.books) * len(options)} cells state a value, "
        f"{len(proposing)} of them a proposed one ({len(used)} values proposed); "
        f"{len(said) - len(stated)} more cells have a note only.", "",
        "| rule book | kind | " + " | ".join(f"`{o}`" for o in options) + " |",
        "|---|---|" + "---|" * len(options)]
    for book in books.books.values():
        cells = [_statement_cell(book.says.get(o), book.key, cat) for o in options]
        out.append(f"| [{book.key}](#{book.key}) | {book.kind} | " + " | ".join(cells) + " |")
    out += ["", "## Proposed values", "",
            "Rules that a text gives and no value of spec/data/options.yaml describes, each "
            "named for the option it would join (proposals for options that do not exist yet "
            "are in [the survey](sources-survey.md#rules-no-current-value-describes-proposed-"
            "values)). Once a name becomes a value, the data must give it as the value.", "",
            "| option | proposed value | what it would mean | given by |", "|---|---|---|---|"]
    for option, named in books.proposals.items():
        for name, text in named.items():
            by = ", ".join(f"[{k}](#{k})" for k in books.given_by(option, name))
            out.append(f"| `{option}` | *{name}* | {_cell_text(text)} | "
                       f"{by} |")
    out += ["", "## Notes", ""]
    for book in books.books.values():
        kind = "an engine's rules" if book.kind == "engine" else "a printed text"
        cited = f", cited as `{book.label}`" if book.label else ""
        out += [f"### {book.key}", "", f"{book.title[0].upper()}{book.title[1:]}: {kind}"
                f"{cited}.", "",
                f"- Where: {', '.join(f'<{a}>' for a in book.addresses) or 'no address found'}",
                f"- Read: {book.read}"]
        for option, st in book.says.items():
            names = [f"`{v}`" for v in st.values] + [f"*{p}* (proposed)" for p in st.proposed]
            text = ", ".join(names) + (": " if names and st.note else "") + st.note
            out.append(f"- `{option}`: {text}")
        if not book.says:
            out.append("- Says nothing on any option in what was read.")
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def _cell_text(text: str) -> str:
    return text.replace("|", "\\|")


def _statement_cell(st: Statement | None, key: str, cat: Catalog) -> str:
    """A value linked to its first clause, a proposed name in italics, or a pointer to the
    book's note when no value names what it says."""
    if st is None:
        return "—"
    if not st.gives_value:
        return f"[note](#{key})"
    cells = []
    for value in st.values:
        clauses = cat.clauses_for(st.option, value)
        cells.append(f"[`{value}`](rules/{clauses[0].id}.md)" if clauses else f"`{value}`")
    cells += [f"*{name}* (proposed)" for name in st.proposed]
    return ", ".join(cells)
