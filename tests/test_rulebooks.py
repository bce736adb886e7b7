"""spec/data/rulebooks.yaml: the surveyed rule books load, bad data is refused at its
line, and docs/rule-books.md is generated from the data (issue 21, item 3)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import yaml

from mtrain import cli, docgen, docs_reports
from mtrain.docs_rulebooks import rulebooks_page
from mtrain.spec.catalog import Catalog, catalog
from mtrain.spec.rulebooks import RuleBooks, load_rulebooks
from mtrain.spec.yamlload import SpecError, SpecErrors

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "spec" / "data"
SHIPPED = (DATA / "rulebooks.yaml").read_text(encoding="utf-8")
CAT = catalog()

# One rule book that gives a value, a proposal and a note; each bad case below changes
# one line of it, and the error must name that line.
GOOD = """\
proposals:
  engine_procedure:
    first-double-drawn: Players draw in turn until one draws a double.
rulebooks:
  club:
    title: a club's sheet
    kind: print
    addresses: [https://example.org/rules]
    read: the deal
    options:
      first_turn: {value: chain}
      engine_procedure: {proposed: first-double-drawn, note: largest first}
      hand_sizes: {note: 12 each}
"""


def load_text(tmp_path: Path, text: str, cat: Catalog = CAT) -> RuleBooks:
    path = tmp_path / "rulebooks.yaml"
    path.write_text(text, encoding="utf-8")
    return load_rulebooks(cat, path)


def errors_of(tmp_path: Path, text: str, cat: Catalog = CAT) -> list[SpecError]:
    with pytest.raises(SpecErrors) as info:
        load_text(tmp_path, text, cat)
    for err in info.value:
        assert err.path == str(tmp_path / "rulebooks.yaml")
    return list(info.value)


def line_of(text: str, fragment: str) -> int:
    """The 1-based line of the one line of `text` that holds `fragment` (a fragment that
    ends in a line break must end the line)."""
    found = [n for n, line in enumerate(text.splitlines(keepends=True), 1)
             if fragment in line]
    assert len(found) == 1, (fragment, found)
    return found[0]


# --- the shipped data ------------------------------------------------------------------


def test_the_shipped_rule_books_load() -> None:
    books = load_rulebooks(CAT)
    assert len(books.books) >= 30
    kinds = {b.kind for b in books.books.values()}
    assert kinds == {"print", "engine"}
    assert all(b.title and b.read for b in books.books.values())
    assert books.books["celko-98"].says["first_turn"].values == ("chain",)
    assert books.books["dual-d9"].says["tile_set"].proposed == ("double-9x2",)
    assert not books.books["goodsam-fl"].says["hand_sizes"].gives_value  # a note only
    # statements come in the catalogue's order of options, whatever the file's order
    order = list(CAT.options)
    for book in books.books.values():
        assert list(book.says) == sorted(book.says, key=order.index)


def test_every_existing_value_named_is_a_value_of_options_yaml() -> None:
    """Read from the two files directly, not through the loader that checks the same."""
    options = yaml.safe_load((DATA / "options.yaml").read_text(encoding="utf-8"))
    data = yaml.safe_load(SHIPPED)
    named = 0
    for key, book in data["rulebooks"].items():
        for option, stated in (book.get("options") or {}).items():
            values = stated.get("value", [])
            for value in [values] if isinstance(values, str) else values:
                assert value in options[option]["values"], (key, option, value)
                named += 1
            proposed = stated.get("proposed", [])
            for name in [proposed] if isinstance(proposed, str) else proposed:
                assert name not in options[option]["values"], (key, option, name)
                assert name in data["proposals"][option], (key, option, name)
    assert named >= 80


def test_the_good_example_loads(tmp_path: Path) -> None:
    books = load_text(tmp_path, GOOD)
    says = books.books["club"].says
    assert list(says) == ["hand_sizes", "engine_procedure", "first_turn"]
    assert says["engine_procedure"].proposed == ("first-double-drawn",)
    assert says["engine_procedure"].note == "largest first"
    assert books.given_by("engine_procedure", "first-double-drawn") == ["club"]


# --- bad data, refused at its line -------------------------------------------------------


# (line of GOOD, what replaces it, the line the error must point at, what it must say)
BAD = [
    ("first_turn: {value: chain}", "first_trun: {value: chain}", "first_trun",
     "club: unknown option 'first_trun'"),
    ("first_turn: {value: chain}", "first_turn: {value: chains}", "first_turn",
     "club: first_turn=chains is not a value of options.yaml"),
    ("engine_procedure: {proposed: first-double-drawn, note: largest first}",
     "engine_procedure: {value: first-double-drawn, note: largest first}", "engine_procedure: {",
     "it is proposed: write `proposed: first-double-drawn`"),
    ("engine_procedure: {proposed: first-double-drawn, note: largest first}",
     "engine_procedure: {proposed: holder-lays, note: largest first}", "engine_procedure: {",
     "club: engine_procedure=holder-lays is a value of options.yaml now: write `value: "
     "holder-lays`"),
    ("engine_procedure: {proposed: first-double-drawn, note: largest first}",
     "engine_procedure:\n        proposed:\n          - first-double-drawn\n"
     "          - first-double-draw\n        note: lap", "- first-double-draw\n",
     "club: engine_procedure=first-double-draw is not among the proposals for engine_procedure"),
    ("    first-double-drawn: Players", "    holder-lays: Players", "holder-lays: Players",
     "proposals: engine_procedure=holder-lays is a value of options.yaml now"),
    ("  engine_procedure:\n    first-double", "  engine_procedur:\n    first-double",
     "engine_procedur:", "proposals: unknown option 'engine_procedur'"),
    ("    read: the deal", "    read: the deal\n    label: clubs", "label: clubs",
     "club: label 'clubs' is not one of sources.yaml"),
    ("    kind: print", "    kind: book", "kind: book",
     "kind: bad value 'book'; allowed values: print, engine"),
    ("      hand_sizes: {note: 12 each}", "      hand_sizes: {notes: 12 each}", "notes:",
     "unknown key 'notes'"),
]


@pytest.mark.parametrize(("old", "new", "at", "message"), BAD,
                         ids=[f"{k}-{m.split(':')[0]}" for k, (*_, m) in enumerate(BAD)])
def test_bad_data_is_refused_at_its_line(tmp_path: Path, old: str, new: str, at: str,
                                         message: str) -> None:
    assert GOOD.count(old) == 1
    text = GOOD.replace(old, new)
    errors = errors_of(tmp_path, text)
    hits = [e for e in errors if message in e.message]
    assert hits, [str(e) for e in errors]
    assert hits[0].line == line_of(text + "\n", at), str(hits[0])


def test_a_proposal_no_rule_book_gives_is_refused(tmp_path: Path) -> None:
    text = GOOD.replace("    first-double-drawn: Players", "    dealer-opens: Highest.\n"
                        "    first-double-drawn: Players")
    [err] = errors_of(tmp_path, text)
    assert err.line == line_of(text, "dealer-opens")
    assert "dealer-opens is given by no rule book" in err.message


def test_every_problem_is_reported_at_once(tmp_path: Path) -> None:
    text = GOOD.replace("{value: chain}", "{value: [chain, chian]}").replace(
        "hand_sizes: {note", "hand_size: {note")
    errors = errors_of(tmp_path, text)
    assert [e.line for e in errors] == [line_of(text, "chian"), line_of(text, "hand_size:")]


@pytest.fixture()
def grown(tmp_path: Path) -> Catalog:
    """A copy of the spec data whose first_turn has gained the value a rule book proposes,
    as values are added to the catalogue (no clause yet: loading does not ask for one)."""
    copy = tmp_path / "data"
    shutil.copytree(DATA, copy)
    options = copy / "options.yaml"
    text = options.read_text(encoding="utf-8")
    anchor = "    chain-anywhere:\n"
    assert text.count(anchor) == 1
    options.write_text(text.replace(anchor, "    simultaneous-chains:\n      source: [house]\n"
                                    "      text: Every first train is laid at once.\n"
                                    + anchor), encoding="utf-8")
    return Catalog(copy)


def test_a_proposal_that_became_a_value_is_refused_where_it_is_named(grown: Catalog) -> None:
    with pytest.raises(SpecErrors) as info:
        load_rulebooks(grown)
    errors = list(info.value)
    assert all(e.path.endswith("rulebooks.yaml") for e in errors)
    proposal = line_of(SHIPPED, "  simultaneous-chains:")
    given = line_of(SHIPPED, "proposed: simultaneous-chains")
    assert [e.line for e in errors] == [proposal, given]
    assert "write `value: simultaneous-chains`" in errors[1].message


# --- the generated page -------------------------------------------------------------


def table_rows(page: str) -> dict[str, dict[str, str]]:
    """The main table of the page: rule-book key -> option -> cell."""
    lines = page.splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("| rule book |"))
    columns = [c.strip("` ") for c in lines[head].strip("|").split("|")]
    rows = {}
    for line in lines[head + 2:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        key = re.fullmatch(r"\[([a-z0-9-]+)\]\(#\1\)", cells[0])
        assert key, cells[0]
        rows[key.group(1)] = dict(zip(columns[2:], cells[2:], strict=True))
    return rows


def test_the_page_shows_every_rule_book_against_every_option() -> None:
    books = load_rulebooks(CAT)
    page = rulebooks_page(books, CAT)
    rows = table_rows(page)
    assert list(rows) == list(books.books)
    for key, book in books.books.items():
        assert list(rows[key]) == list(CAT.options)
        assert f"\n### {key}\n" in page
        for option, cell in rows[key].items():
            st = book.says.get(option)
            if st is None:
                assert cell == "—"
            elif not st.gives_value:
                assert cell == f"[note](#{key})"
            else:
                for value in st.values:  # linked to a clause that value brings in
                    link = re.search(rf"\[`{value}`\]\(rules/([A-Z]+-[0-9]+)\.md\)", cell)
                    assert link, (key, option, cell)
                    assert value in CAT.clauses[link.group(1)].when[option]
                for name in st.proposed:
                    assert f"*{name}* (proposed)" in cell


def test_the_page_is_generated_from_the_data(tmp_path: Path) -> None:
    before = rulebooks_page(load_rulebooks(CAT), CAT)
    assert table_rows(before)["celko-98"]["first_turn"] == "[`chain`](rules/FIRST-1.md)"
    old = "      first_turn:\n        value: chain\n        note: the whole own train"
    assert SHIPPED.count(old) == 1
    changed = SHIPPED.replace(old, old.replace("value: chain", "value: single"))
    after = rulebooks_page(load_text(tmp_path, changed), CAT)
    assert table_rows(after)["celko-98"]["first_turn"] == "[`single`](rules/FIRST-7.md)"
    assert "- `first_turn`: `single`: the whole own train" in after
    # the count line follows the data too: one cell fewer states a value
    count = re.compile(r"; (\d+) of (\d+) cells state a value")
    dropped = SHIPPED.replace(old + " laid as one play\n", "")
    assert dropped != SHIPPED
    fewer = rulebooks_page(load_text(tmp_path, dropped), CAT)
    stated = [int(m.group(1)) for m in map(count.search, (before, fewer)) if m]
    assert stated[1] == stated[0] - 1
    assert table_rows(fewer)["celko-98"]["first_turn"] == "—"


def test_the_count_line_counts_what_the_data_holds() -> None:
    books = load_rulebooks(CAT)
    page = rulebooks_page(books, CAT)
    said = [s for b in books.books.values() for s in b.says.values()]
    engines = [b for b in books.books.values() if b.kind == "engine"]
    proposed = {(s.option, n) for s in said for n in s.proposed}
    line = next(x for x in page.splitlines() if x.endswith("have a note only."))
    assert line.startswith(f"{len(books.books)} rule books ("
                           f"{len(books.books) - len(engines)} printed, {len(engines)} engines)")
    assert f"{sum(s.gives_value for s in said)} of {len(books.books) * len(CAT.options)} cells" \
        in line
    assert f"({len(proposed)} values proposed)" in line
    assert len(proposed) == sum(len(v) for v in books.proposals.values())


def test_no_computed_result_reads_the_rule_books() -> None:
    """docs_reports leaves rulebooks.yaml out of the inputs of the stored results (so that
    editing it does not rerun z3 and the mutants); that holds while neither computation
    imports the module that reads it."""
    for root in ("mtrain.conformance.speccheck.run", "mtrain.conformance.mutants"):
        closure = {p.resolve() for p in docs_reports.import_closure([root])}
        assert (ROOT / "spec" / "catalog.py").resolve() in closure, root  # paths compare
        assert (ROOT / "spec" / "rulebooks.py").resolve() not in closure, root
    assert {"spec/data/rulebooks.yaml", "spec/schemas/rulebooks.schema.json",
            "conformance/shipped/situations.json",
            "conformance/shipped/identify-pieces.json",
            "conformance/shipped/lint-scopes.json"} == docs_reports.NOT_DATA_INPUTS


# --- the hook into `mtrain docs` -------------------------------------------------------


@pytest.mark.slow
def test_mtrain_docs_check_sees_the_page_stale(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A changed rule book leaves docs/rule-books.md, and nothing else, stale."""
    copy = tmp_path / "rulebooks.yaml"
    copy.write_text(SHIPPED.replace("      tile_set: {value: double-12}\n", "", 1),
                    encoding="utf-8")
    monkeypatch.setattr(docgen, "load_rulebooks", lambda cat: load_rulebooks(cat, copy))
    files = docgen.generate(ROOT / "docs", compute=False)
    assert docgen.stale(ROOT / "docs", files) == ["rule-books.md"]


@pytest.mark.slow
def test_bad_rule_books_stop_mtrain_docs_with_file_and_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    copy = tmp_path / "rulebooks.yaml"
    bad = SHIPPED.replace("value: chain\n", "value: chian\n", 1)
    copy.write_text(bad, encoding="utf-8")
    monkeypatch.setattr(docgen, "load_rulebooks", lambda cat: load_rulebooks(cat, copy))
    assert cli.main(["docs", "--check", "--out", str(tmp_path / "docs")]) == 2
    assert f"{copy}:{line_of(bad, 'value: chian')}: " in capsys.readouterr().err


def test_a_labelled_rule_book_agrees_with_what_sources_yaml_says_of_its_label() -> None:
    """Where a rule book cited by a label states an option that the label's `says` in
    sources.yaml covers, its values are among those `says` gives."""
    sources = yaml.safe_load((DATA / "sources.yaml").read_text(encoding="utf-8"))
    compared = 0
    for book in load_rulebooks(CAT).books.values():
        if book.label is None:
            continue
        says = sources[book.label].get("says") or {}
        for option, st in book.says.items():
            if option in says and st.values:
                assert set(st.values) <= set(says[option]["values"]), (book.key, option)
                compared += 1
    assert compared >= 6
