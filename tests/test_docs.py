"""docs/: the generated pages are up to date, complete, and link to pages that exist.

`test_docs_are_up_to_date` (slow) is `mtrain docs --check` in-process: when it fails,
run `mtrain docs` (from the repository root) and commit docs/. The fast loop generates
every page but the clause pages, of which it takes the first of each family
(CLAUSE_SAMPLE: the rule book's pictures are most of the cost), and checks those. The
consistency and mutants pages rest on stored results (docs/data/*.json) that are reused
while the files they were computed from are unchanged, so neither check runs z3 or the
mutants itself.
"""

from __future__ import annotations

import itertools
import json
import re
import shlex
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest

from mtrain import cli, docgen
from mtrain.conformance.mutants import MUTANTS
from mtrain.spec.catalog import catalog
from mtrain.spec.scope import Space

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
HAND_WRITTEN = ("protocol.md", "fixture-format.md", "implementers-guide.md")
SEED_TABLE = {8: "30.2", 10: "22.0", 12: "15.9", 15: "9.5", 16: "8.0"}


def _first_of_each_family() -> frozenset[str]:
    """The first clause of each family (TURN-1, DBL-1, ...), in the catalogue's order."""
    first: dict[str, str] = {}
    for cid in catalog().clauses:
        first.setdefault(cid.rpartition("-")[0], cid)
    return frozenset(first.values())


CLAUSE_SAMPLE = _first_of_each_family()
"""The clause pages the fast loop generates (every other page is generated whole)."""


@pytest.fixture(scope="module")
def files(once: Callable[[str, Callable[[], Any]], Any]) -> dict[str, str]:
    # about 2.5 CPU s: generated once per run, whichever worker asks first
    found: dict[str, str] = once("docs-sample", lambda: docgen.generate(
        DOCS, compute=False, clauses=CLAUSE_SAMPLE))
    return found


def _stale_message(stale: list[str]) -> str:
    return ("docs/ is stale; run `mtrain docs` from the repository root and commit docs/. "
            "Stale: " + ", ".join(stale[:20]))


def test_the_pages_generated_are_up_to_date(files: dict[str, str]) -> None:
    """Every page the fast loop generates is the one in docs/ (the whole: below)."""
    assert {f"rules/{cid}.md" for cid in CLAUSE_SAMPLE} <= set(files)
    assert len(CLAUSE_SAMPLE) < len(catalog().clauses)
    stale = [p for p in docgen.stale(DOCS, files) if p in files]
    assert not stale, _stale_message(stale)


@pytest.mark.slow
def test_docs_are_up_to_date(once: Callable[[str, Callable[[], Any]], Any]) -> None:
    """`mtrain docs --check`: every page, the list of pages (GENERATED) included; every
    clause page shows a picture (the fast loop: those of CLAUSE_SAMPLE)."""
    whole: dict[str, str] = once("docs", lambda: docgen.generate(DOCS, compute=False))
    stale = docgen.stale(DOCS, whole)
    assert not stale, _stale_message(stale)
    assert _undrawn(whole, catalog().clauses) == []


def test_the_command_writes_and_checks(files: dict[str, str], tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str],
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """`mtrain docs --check` and `mtrain docs`, on the pages generated above."""
    monkeypatch.setattr(docgen, "generate", lambda out, compute, log: files)
    out = tmp_path / "docs"
    assert cli.main(["docs", "--check", "--out", str(out)]) == 1  # every page, GENERATED
    assert capsys.readouterr().out.endswith(
        f"{len(files)} generated files, {len(files) + 1} stale; run `mtrain docs` to rebuild\n")
    assert cli.main(["docs", "--out", str(out)]) == 0
    assert capsys.readouterr().out == f"wrote {len(files)} files under {out}\n"
    assert cli.main(["docs", "--check", "--out", str(out)]) == 0
    assert capsys.readouterr().out == f"{len(files)} generated files, 0 stale\n"


def test_every_page_of_the_issue_is_there(files: dict[str, str]) -> None:
    for page in ("README.md", "rules/README.md", "variants.md", "differences/README.md",
                 "facts.md", "consistency.md", "mutants.md", "versioning.md", "rule-books.md"):
        assert page in files, page
    for page in HAND_WRITTEN:
        assert (DOCS / page).is_file(), page
        assert page not in files  # hand-written pages are never overwritten


def test_every_clause_page_shows_a_picture(files: dict[str, str]) -> None:
    assert _undrawn(files, CLAUSE_SAMPLE) == []  # every clause: test_docs_are_up_to_date


def _undrawn(files: dict[str, str], clauses: Iterable[str]) -> list[str]:
    """The clause pages among `clauses` without a picture, or with one not generated."""
    space = Space()
    out = []
    for cid in clauses:
        if space.complete(dict(catalog().clauses[cid].when)) is None:
            continue  # only a rule-set file's own table reaches it (SET-4): no fixture names it
        page = files[f"rules/{cid}.md"]
        pictures = re.findall(r"!\[[^\]]*\]\(\.\./(img/[^)]+\.svg)\)", page)
        if not pictures:
            out.append(f"rules/{cid}.md has no picture")
        out += [pic for pic in pictures if not files.get(pic, "").startswith("<svg")]
    return out


def test_every_pair_of_shipped_variants_has_its_page(files: dict[str, str]) -> None:
    names = list(catalog().variants)
    assert len(names) >= 3
    for a, b in itertools.combinations(names, 2):
        page = files.get(f"differences/{a}-vs-{b}.md")
        assert page is not None, f"no page for {a} vs {b}"
        assert f"differences/{a}-vs-{b}.md" in files
        situations = re.findall(r"^### ", page, re.M)
        pictures = re.findall(r"!\[", page)
        assert situations and len(pictures) >= len(situations)
        assert f"{a}-vs-{b}.md" in files["differences/README.md"]


def test_facts_page_reproduces_the_seed_table(files: dict[str, str]) -> None:
    page = files["facts.md"]
    seed = page.split("### The seed's table", 1)[1].split("###", 1)[0]
    for hand, percent in SEED_TABLE.items():
        assert re.search(rf"^\| {hand} \| \d+/\d+ \| {re.escape(percent)} % \|$", seed, re.M), \
            (hand, percent)
    names = list(catalog().variants)
    for name in names:
        sizes = {h for _, h in catalog().ruleset(name).hand_table}
        section = page.split(f"### Every hand size {name} deals", 1)[1].split("###", 1)[0]
        rows = {int(m) for m in re.findall(r"^\| (\d+) \|", section, re.M)}
        assert rows == sizes, name
    assert "| NO |" not in page


def test_consistency_page(files: dict[str, str]) -> None:
    page = files["consistency.md"]
    assert not page.startswith("# Consistency\n\nStale"), "run `mtrain docs`"
    for heading in ("## Dead clauses", "## The uncoverable double",
                    "## Findings, check by check"):
        assert heading in page
    data = json.loads(files["data/consistency.json"])["data"]
    for check in data["checks"]:
        assert f"### {check['name']}" in page
    assert data["uncoverable"], "no uncoverable-double trace"
    # nothing that depends on the machine: no timings
    assert not re.search(r"\d+\.\d+ s\b", page)
    assert '"seconds"' not in files["data/consistency.json"]


def test_mutants_page_names_every_mutant_and_its_killers(files: dict[str, str]) -> None:
    page = files["mutants.md"]
    assert not page.startswith("# The suite's own strength\n\nStale"), "run `mtrain docs`"
    data = json.loads(files["data/mutants.json"])["data"]
    assert {m["name"] for m in data["mutants"]} == set(MUTANTS)
    for name in MUTANTS:
        assert f"| `{name}` |" in page
    assert '"seconds"' not in files["data/mutants.json"]


def test_every_link_resolves(files: dict[str, str]) -> None:
    pages = dict(files)
    for name in HAND_WRITTEN:
        pages[name] = (DOCS / name).read_text(encoding="utf-8")
    for name, text in pages.items():
        if not name.endswith(".md"):
            continue
        here = Path(name).parent
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue
            path = target.split("#", 1)[0]
            resolved = (here / path).as_posix()
            parts: list[str] = []
            for part in resolved.split("/"):
                if part == "..":
                    parts.pop()
                elif part not in ("", "."):
                    parts.append(part)
            rel = "/".join(parts)
            assert rel in pages or (DOCS / rel).exists(), f"{name} links to missing {target}"


def test_the_tour_links_to_every_page(files: dict[str, str]) -> None:
    tour = files["README.md"]
    for page in ("rules/README.md", "variants.md", "differences/README.md", "facts.md",
                 "consistency.md", "implementers-guide.md", "protocol.md",
                 "fixture-format.md", "mutants.md", "versioning.md", "rule-books.md"):
        assert f"]({page})" in tour, page


@pytest.mark.slow
def test_check_mode_never_recomputes(tmp_path: Path) -> None:
    """In an empty folder the stored results are missing: --check reports the pages
    stale at once instead of running `mtrain check` and the mutants. (The clause pages of
    CLAUSE_SAMPLE only: the others read no stored result, and are generated whole by
    test_docs_are_up_to_date; 3.5 -> 1 CPU s.)"""
    files = docgen.generate(tmp_path, compute=False, clauses=CLAUSE_SAMPLE)
    assert files["consistency.md"].startswith("# Consistency\n\nStale")
    assert files["data/mutants.json"].startswith("stale:")
    stale = docgen.stale(tmp_path, files)
    assert "consistency.md" in stale and "GENERATED" in stale


# --- the refusals page --------------------------------------------------------------

def _refusal_rows(files: dict[str, str]) -> dict[str, tuple[list[str], list[str]]]:
    """action kind -> (the refusing clauses in their order, the allowing clauses)."""
    rows = {}
    for line in files["refusals.md"].splitlines():
        m = re.match(r"\| `([a-z-]+)` \| (.*) \| (.*) \|$", line)
        if m:
            rows[m.group(1)] = (re.findall(r"\[([A-Z]+-\d+)\]", m.group(2)),
                                re.findall(r"\[([A-Z]+-\d+)\]", m.group(3)))
    return rows


def test_the_refusals_table_holds_every_refusal_the_fixtures_expect(
        files: dict[str, str]) -> None:
    from mtrain.conformance.fixture import load_corpus

    rows = _refusal_rows(files)
    assert list(rows) == ["play", "draw", "pass", "end-chain"]
    clauses = catalog().clauses
    expected: set[tuple[str, str]] = set()
    for fx in load_corpus()[0]:  # the refusals written by hand, from the rule text
        for name, exp in fx.rulesets():
            rs = catalog().ruleset(name)
            for text, listed in exp.refused.items():
                kind = text.split()[0]
                expected |= {(kind, c) for c in listed if clauses[c].applies(rs)}
    missing = {(k, c) for k, c in expected if c not in rows[k][0]}
    assert not missing
    # the seed: whoever can play must play, so a pass and a draw are both refused then
    assert "TURN-1" in rows["pass"][0] and "TURN-1" in rows["draw"][0]
    assert "TURN-4" in rows["draw"][0]  # an empty boneyard: nothing to draw (TURN-4)
    from mtrain.reference.refusals import REFUSAL_PRECEDENCE

    for refusing, _ in rows.values():  # in the order the reference cites them
        assert refusing == sorted(refusing, key=REFUSAL_PRECEDENCE.index)


def test_each_refusal_example_is_refused_by_its_clause_when_pasted(
        files: dict[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    from mtrain.conformance.adapter import ReferenceImplementation, Refused

    reference = ReferenceImplementation()
    examples = re.findall(r"^- refused by \[([A-Z]+-\d+)\].*?(?:the reference cites "
                          r"([A-Z]+-\d+) there.*?)?`mtrain (state [^`]+)`$",
                          files["refusals.md"], re.M)
    assert len(examples) > 20
    for clause, cited, command in examples:
        assert cli.main(shlex.split(command)) == 0
        request = json.loads(capsys.readouterr().out)
        with pytest.raises(Refused) as refused:
            reference.apply(request["ruleset"], request["state"], request["action"])
        assert refused.value.clause == (cited or clause), command

