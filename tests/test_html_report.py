"""`mtrain conform --format html`: one self-contained page with the summary, a clause by
variant grid coloured by result, and every failure drawn.

The failing results come from a mutant of the reference engine (a known rule bug: any
train may be played on, marked or not) run as an in-process adapter. The page is checked
twice: its structure here in Python, and as a browser lays it out, in headless Chromium
(installed by the test when running as root under CI=true, otherwise skipped with the
reason).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from mtrain.cli import main
from mtrain.conformance.report import FAILING, Report, Result
from mtrain.conformance.report_html import render_html, worst
from mtrain.spec.catalog import catalog

MUTANT = "play-on-unmarked-train"
# marker-001 fails under all three variants (an extra legal play on an unmarked train);
# deal-019 passes (a deal); end-010 has no legal-action expectation.
SELECTION = ("-k", "marker-001", "-k", "deal-019", "-k", "end-010",
             "--variant", "pagat", "--variant", "puremco", "--variant", "puremco-d9")


class Element:
    def __init__(self, tag: str, attrs: dict[str, str], parent: Element | None) -> None:
        self.tag, self.attrs, self.parent = tag, attrs, parent
        self.children: list[Element] = []
        self.text: list[str] = []

    @property
    def classes(self) -> set[str]:
        return set(self.attrs.get("class", "").split())

    def iter(self) -> Any:
        yield self
        for c in self.children:
            yield from c.iter()

    def find_all(self, tag: str, cls: str | None = None) -> list[Element]:
        return [e for e in self.iter() if e.tag == tag and (cls is None or cls in e.classes)]

    def all_text(self) -> str:
        return "".join(t for e in self.iter() for t in e.text)


VOID = {"meta", "link", "br", "img", "input", "hr", "circle", "rect", "line", "path"}


class Tree(HTMLParser):
    """A small DOM: enough to check the page's structure without a third-party parser."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Element("#root", {}, None)
        self.cur = self.root

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        el = Element(tag, {k: v or "" for k, v in attrs}, self.cur)
        self.cur.children.append(el)
        if tag not in VOID:
            self.cur = el

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.cur.children.append(Element(tag, {k: v or "" for k, v in attrs}, self.cur))

    def handle_endtag(self, tag: str) -> None:
        el: Element | None = self.cur
        while el is not None and el.tag != tag:
            el = el.parent
        if el is not None and el.parent is not None:
            self.cur = el.parent

    def handle_data(self, data: str) -> None:
        self.cur.text.append(data)


def parse(text: str) -> Element:
    tree = Tree()
    tree.feed(text)
    tree.close()
    return tree.root


@pytest.fixture(scope="module")
def buggy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("adapter") / "buggy_engine.py"
    path.write_text("from mtrain.conformance.mutants import mutant\n\n"
                    f"Engine = mutant({MUTANT!r})\n", encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def report(buggy: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """The HTML report of the mutant on the selection, and the same run as JSON."""
    out = tmp_path_factory.mktemp("report")
    html_path, json_path = out / "report.html", out / "report.json"
    adapter = f"{buggy}:Engine"
    assert main(["conform", "--adapter", adapter, *SELECTION, "--format", "html",
                 "--output", str(html_path)]) == 1
    assert main(["conform", "--adapter", adapter, *SELECTION, "--format", "json",
                 "--output", str(json_path)]) == 1
    return html_path, json.loads(json_path.read_text(encoding="utf-8"))


@pytest.mark.slow
def test_the_page_is_self_contained(report: tuple[Path, dict[str, Any]]) -> None:
    text = report[0].read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>")
    assert "<style>" in text
    # nothing fetched from elsewhere: no scripts, stylesheets, images or fonts by address
    assert not re.search(r"<(script|link|img|iframe)\b", text)
    assert not re.search(r"\b(src|href)=\"(https?:)?//", text)
    assert "url(" not in text


def test_summary_counts_match_the_run(report: tuple[Path, dict[str, Any]]) -> None:
    html_path, data = report
    root = parse(html_path.read_text(encoding="utf-8"))
    cards = {c.attrs["data-status"]: int(c.find_all("b")[0].all_text())
             for c in root.find_all("div", "card")}
    assert cards == data["summary"]
    assert cards["fail"] == 3 and cards["pass"] > 0
    assert "FAILED" in root.all_text()


def test_grid_has_a_cell_per_clause_and_variant_coloured_by_the_worst_result(
        report: tuple[Path, dict[str, Any]]) -> None:
    html_path, data = report
    root = parse(html_path.read_text(encoding="utf-8"))
    grid = root.find_all("table", "grid")
    assert len(grid) == 1
    variants = [th.attrs["title"] for th in grid[0].find_all("thead")[0].find_all("th")
                if "title" in th.attrs]
    assert variants[:3] == ["pagat", "puremco", "puremco-d9"]
    expected: dict[tuple[str, str], list[str]] = {}
    for r in data["results"]:  # a failure counts under its charged clause, the rest under all
        for c in r["charged"] if r["status"] == "fail" else r["clauses"]:
            expected.setdefault((c, r["variant"]), []).append(r["status"])
    values = {v: dict(catalog().ruleset(v).choices) for v in variants}

    def applies(clause: str, variant: str) -> bool:  # its `when:` in clauses.yaml
        when = catalog().clauses[clause].when
        return all(values[variant][o] in vs for o, vs in when.items())

    for key, statuses in expected.items():
        if not applies(*key) and worst(statuses) not in FAILING:
            expected[key] = ["does-not-apply"]
    rows = grid[0].find_all("tr")
    seen: dict[tuple[str, str], str] = {}
    for row in rows:
        clause = row.attrs.get("data-clause")
        if clause is None:
            continue
        cells = row.find_all("td")
        assert len(cells) == len(variants), clause
        for variant, cell in zip(variants, cells, strict=True):
            if "cell" in cell.classes:
                seen[(clause, variant)] = cell.attrs["data-status"]
                assert f"s-{cell.attrs['data-status']}" in cell.classes
            else:
                assert "none" in cell.classes
    assert seen == {k: v[0] if v == ["does-not-apply"] else worst(v)
                    for k, v in expected.items()}
    assert "does-not-apply" in seen.values()  # DEAL-3 or the like: puremco's hand table under pagat
    assert seen[("TRAIN-4", "pagat")] == "fail"
    assert seen[("DEAL-2", "pagat")] == "pass"
    # a failing cell links to its failure
    failing = [c for c in grid[0].find_all("td") if c.attrs.get("data-status") == "fail"]
    ids = {a.attrs["id"] for a in root.find_all("article", "failure")}
    assert failing and all(c.find_all("a")[0].attrs["href"][1:] in ids for c in failing)


def test_each_failure_has_its_picture_and_expected_against_actual(
        report: tuple[Path, dict[str, Any]]) -> None:
    html_path, data = report
    root = parse(html_path.read_text(encoding="utf-8"))
    articles = root.find_all("article", "failure")
    failing = [r for r in data["results"] if r["status"] == "fail"]
    assert [(a.attrs["data-fixture"], a.attrs["data-variant"]) for a in articles] == \
        [(r["fixture"], r["variant"]) for r in failing]
    for a in articles:
        text = a.all_text()
        assert "placement.yaml" in text and "TRAIN-4" in text
        versus = a.find_all("div", "versus")
        assert len(versus) == 1
        expected, actual = versus[0].find_all("ul")
        assert "play 4-2 on 0" in expected.all_text()
        assert "play 4-2 on 2" not in expected.all_text()
        extra = actual.find_all("li", "extra")
        assert [li.all_text() for li in extra] == ["play 4-2 on 2 (not allowed)"]
        svgs = a.find_all("svg")
        assert len(svgs) == 1
        svg = svgs[0].all_text()
        assert "marker-001 under" in svg
        assert "2-4 not allowed" in svg  # the wrong play, on train 2, turned as laid
        assert "\u2190 4-2" in svg  # the legal one, on train 0
        rerun = a.find_all("pre")[-1].all_text()
        assert rerun.startswith("mtrain conform --adapter") and "-k marker-001" in rerun


def test_a_clean_run_says_so() -> None:
    page = render_html(Report([Result("basic-001", "pagat", "pass", clauses=("TRAIN-2",))]))
    root = parse(page)
    assert "OK" in root.all_text()
    assert "None: every fixture that ran agrees" in root.all_text()
    assert [c.attrs["data-status"] for c in root.find_all("td", "cell")] == ["pass"]


def test_grid_takes_the_worst_status_and_text_is_escaped() -> None:
    results = [Result("a-001", "pagat", "pass", clauses=("DBL-6",)),
               Result("a-002", "pagat", "timeout", ["no answer <in time>"], clauses=("DBL-6",)),
               Result("a-003", "pagat", "fail", ["x"], clauses=("DBL-6",)),
               Result("a-004", "pagat+blanks-25", "not-applicable", clauses=("DBL-6",)),
               Result("a-005", "pagat+blanks-25", "skip", clauses=("DBL-6",),
                      skip_reason="issue <12>")]
    page = render_html(Report(results, {"adapter": "x<y>"}))
    assert "<in time>" not in page and "&lt;in time&gt;" in page
    assert "issue &lt;12&gt;" in page
    statuses = [c.attrs["data-status"] for c in parse(page).find_all("td", "cell")]
    assert statuses == ["timeout", "skip"]  # pagat: pass < fail < timeout; n/a < skip
    (reasons,) = [x for x in parse(page).find_all("section") if x.attrs["id"] == "not-run"]
    assert [td.all_text() for td in reasons.find_all("td")] == ["no reason given", "1"]  # a-004


def test_one_rule_set_gives_a_grid_that_fits_and_counts() -> None:
    results = [Result("a-001", "pagat", "pass", clauses=("TRAIN-2",)),
               Result("a-002", "pagat", "fail", ["x"], clauses=("TRAIN-2",),
                      charged=("TRAIN-2",))]
    root = parse(render_html(Report(results)))
    (grid,) = root.find_all("table", "grid")
    assert "few" in grid.classes  # headings across, counts in the cells
    (cell,) = grid.find_all("td", "cell")
    assert cell.all_text() == "1 of 2" and cell.attrs["data-status"] == "fail"
    css = root.find_all("style")[0].all_text()
    assert re.search(r"\.grid-wrap \{ display: inline-block;", css)  # the box fits the grid
    (counts,) = root.find_all("table", "counts")  # per rule set: every column explained
    columns = [th.all_text() for th in counts.find_all("th")][1:]
    assert columns == ["pass", "fail", "ran", "other rules"]
    assert [dt.all_text() for dt in root.find_all("dt")] == columns


def test_a_clause_that_does_not_apply_is_not_green() -> None:
    # DBL-3 speaks about puremco's restricted follow-up; under pagat's values it does not apply
    when = catalog().clauses["DBL-3"].when
    pagat = dict(catalog().ruleset("pagat").choices)
    assert not all(pagat[o] in vs for o, vs in when.items())
    results = [Result("a-001", "pagat", "pass", clauses=("DBL-3", "TRAIN-2"))]
    page = render_html(Report(results, values={"pagat": pagat}))
    cells = {row.attrs["data-clause"]: row.find_all("td")[0].attrs["data-status"]
             for row in parse(page).find_all("tr") if "data-clause" in row.attrs}
    assert cells == {"DBL-3": "does-not-apply", "TRAIN-2": "pass"}


def test_a_clause_text_is_shown_once_and_each_card_links_to_it() -> None:
    dbl6 = catalog().clauses["DBL-6"]
    assert dbl6.decision
    results = [Result(f"d-00{k}", "pagat", "fail", ["x"], clauses=("DBL-6",),
                      charged=("DBL-6",), decisions=(("DBL-6", dbl6.decision),))
               for k in (1, 2)]
    root = parse(render_html(Report(results)))
    text = " ".join(root.all_text().split())
    assert text.count(" ".join(dbl6.decision.split())) == 1
    (section,) = [s for s in root.find_all("section") if s.attrs.get("id") == "clauses"]
    assert [d.attrs["id"] for d in section.find_all("div", "clause")] == ["clause-DBL-6"]
    for card in root.find_all("article", "failure"):
        links = {a.attrs["href"] for a in card.find_all("a")}
        assert links == {"#clause-DBL-6"}


# --- in a browser ------------------------------------------------------------------------

BROWSERS = ("chromium", "chromium-browser", "google-chrome")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run",
         "--hide-scrollbars")


def _find_browser() -> str | None:
    for name in BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    return "/usr/bin/chromium" if os.access("/usr/bin/chromium", os.X_OK) else None


@pytest.fixture(scope="session")
def chromium() -> str:
    """Debian's chromium; installed here when running as root under CI=true."""
    found = _find_browser()
    if found:
        return found
    if os.environ.get("CI") != "true" or not hasattr(os, "geteuid") or os.geteuid() != 0:
        pytest.skip("headless Chromium is not installed, and it is installed automatically "
                    "only as root with CI=true (apt-get install -y chromium)")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    log = []
    for cmd in (["apt-get", "update", "-q"], ["apt-get", "install", "-y", "-q", "chromium"]):
        try:
            done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=900)
        except (OSError, subprocess.TimeoutExpired) as e:
            pytest.skip(f"could not install chromium ({' '.join(cmd)}: {e})")
        log.append(done.stdout[-400:] + done.stderr[-400:])
    found = _find_browser()
    if not found:
        pytest.skip("apt-get install -y chromium did not provide chromium: " + log[-1][-300:])
    return found


PROBE = """
<script>
(function () {
  const px = (el) => el.getBoundingClientRect();
  const cells = [...document.querySelectorAll('table.grid td.cell')];
  const colour = (status) => {
    const el = document.querySelector('table.grid td.cell.s-' + status);
    return el ? getComputedStyle(el).backgroundColor : null;
  };
  const figures = [...document.querySelectorAll('article.failure figure svg')];
  const out = {
    cells: cells.length,
    cellSizes: cells.slice(0, 5).map((c) => [px(c).width, px(c).height]),
    fail: colour('fail'), pass: colour('pass'),
    failures: document.querySelectorAll('article.failure').length,
    pictures: figures.map((s) => [px(s).width, px(s).height]),
    pictureText: figures.map((s) => s.textContent.includes('not allowed')),
    mainWidth: px(document.querySelector('main')).width,
    pageWidth: document.documentElement.scrollWidth,
  };
  const pre = document.createElement('pre');
  pre.id = 'probe';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script>
"""


def _run_browser(browser: str, args: list[str], profile: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([browser, *FLAGS, f"--user-data-dir={profile}", *args],
                          capture_output=True, text=True, timeout=180)


@pytest.mark.slow  # a browser: out of the fast loop
def test_the_page_in_headless_chromium(chromium: str, report: tuple[Path, dict[str, Any]],
                                       tmp_path: Path) -> None:
    html_path, data = report
    probed = tmp_path / "probed.html"
    probed.write_text(html_path.read_text(encoding="utf-8").replace("</body>",
                                                                    PROBE + "</body>"),
                      encoding="utf-8")
    with tempfile.TemporaryDirectory() as profile:
        done = _run_browser(chromium, ["--window-size=1280,2000", "--dump-dom",
                                       probed.as_uri()], profile)
    assert done.returncode == 0, done.stderr[-2000:]
    found = re.search(r'<pre id="probe">(.*?)</pre>', done.stdout, re.S)
    assert found, "the browser did not run the probe:\n" + done.stdout[-1500:]
    probe = json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&"))
    n_cells = len({(c, r["variant"]) for r in data["results"]
                   for c in (r["charged"] if r["status"] == "fail" else r["clauses"])})
    assert probe["cells"] == n_cells
    assert all(w >= 12 and h >= 12 for w, h in probe["cellSizes"])
    assert probe["fail"] == "rgb(210, 60, 60)" and probe["pass"] == "rgb(46, 158, 91)"
    assert probe["failures"] == 3
    assert len(probe["pictures"]) == 3
    assert all(w > 300 and h > 200 for w, h in probe["pictures"]), probe["pictures"]
    assert all(probe["pictureText"])
    assert probe["pageWidth"] <= 1280  # nothing spills out sideways

    shot = tmp_path / "report.png"
    with tempfile.TemporaryDirectory() as profile:
        done = _run_browser(chromium, ["--window-size=1280,1600", f"--screenshot={shot}",
                                       html_path.as_uri()], profile)
    assert done.returncode == 0, done.stderr[-2000:]
    png = shot.read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 20_000


def test_a_divergence_draws_its_step_and_later_checks_are_not_reached(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A mutant that draws two tiles for one: after doubles-037's first step (a draw) its
    state departs, so the page draws the table after that step and marks the checks of
    the last step as not reached; doubles-035's second step is refused after the double
    draw, so its picture is the state before that step."""
    adapter = tmp_path / "twice.py"
    adapter.write_text("from mtrain.conformance.mutants import mutant\n\n"
                       "Engine = mutant('draw-one-draws-twice')\n", encoding="utf-8")
    out = tmp_path / "report.html"
    assert main(["conform", "--adapter", f"{adapter}:Engine", "-k", "doubles-035", "-k",
                 "doubles-037", "--variant", "pagat", "--format", "html",
                 "--output", str(out)]) == 1
    capsys.readouterr()
    articles = {a.attrs["data-fixture"]: a
                for a in parse(out.read_text(encoding="utf-8")).find_all("article", "failure")}
    assert set(articles) == {"doubles-035", "doubles-037"}

    diverged = articles["doubles-037"]
    diagnosis = diverged.find_all("p", "diagnosis")
    assert len(diagnosis) == 1 and "after step 1 `draw`" in diagnosis[0].all_text()
    (unreached,) = diverged.find_all("div", "unreached")
    assert "Not reached" in unreached.find_all("p", "not-reached")[0].all_text()
    assert "hand 1: expected" in unreached.all_text()  # a check of the state after step 2
    assert "diagnosis" not in unreached.all_text()
    # the rules' table and the implementation's, side by side, the differences marked
    (tables,) = diverged.find_all("div", "tables")
    rules, mine = (svg.all_text() for svg in tables.find_all("svg"))
    assert "doubles-037 under pagat, after step 1" in rules
    assert "doubles-037 under pagat, after step 1: the implementation's" in mine
    for svg in (rules, mine):  # one draw, two tiles taken: the hand and the boneyard differ
        assert "\u2260 differs: hand 1, boneyard" in svg
    n_rules, n_mine = (int(m.group(1)) if (m := re.search(r"\u2260 Seat 1's hand, (\d+) "
                                                        "tiles", svg)) else -1
                       for svg in (rules, mine))
    assert n_rules > 0 and n_mine == n_rules + 1
    captions = [c.all_text() for c in diverged.find_all("figcaption")]
    assert "after step 1 as the rules have it" in captions[0]
    assert captions[1].startswith("The implementation's table at the same point")

    refused = articles["doubles-035"]
    assert not refused.find_all("div", "unreached")
    (cause,) = refused.find_all("p", "diagnosis")
    assert "after step 1 `draw`" in cause.all_text()
    assert "step 2 `play 5-0 on 0` was refused" in refused.all_text()
    assert "doubles-035 under pagat, after step 1" in refused.find_all("svg")[0].all_text()
    caption = refused.find_all("figcaption")[0].all_text()
    assert caption.startswith("Expected: The state before step 2, which the implementation "
                              "refused")


TABLES_PROBE = """
<script>
(function () {
  const px = (el) => el.getBoundingClientRect();
  const pairs = [...document.querySelectorAll('article.failure div.tables')].map((d) =>
    [...d.querySelectorAll('svg')].map((s) => [px(s).left, px(s).top, px(s).width]));
  const pre = document.createElement('pre');
  pre.id = 'probe';
  pre.textContent = JSON.stringify({pairs: pairs,
                                    pageWidth: document.documentElement.scrollWidth});
  document.body.appendChild(pre);
})();
</script>
"""


@pytest.mark.slow  # a browser: out of the fast loop
def test_the_two_tables_of_a_card_side_by_side_in_chromium(
        chromium: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    adapter = tmp_path / "twice.py"
    adapter.write_text("from mtrain.conformance.mutants import mutant\n\n"
                       "Engine = mutant('draw-one-draws-twice')\n", encoding="utf-8")
    page = tmp_path / "report.html"
    assert main(["conform", "--adapter", f"{adapter}:Engine", "-k", "doubles-037",
                 "--variant", "pagat", "--format", "html", "--output", str(page)]) == 1
    capsys.readouterr()
    page.write_text(page.read_text(encoding="utf-8").replace("</body>",
                                                             TABLES_PROBE + "</body>"),
                    encoding="utf-8")
    with tempfile.TemporaryDirectory() as profile:
        done = _run_browser(chromium, ["--window-size=1280,2000", "--dump-dom",
                                       page.as_uri()], profile)
    assert done.returncode == 0, done.stderr[-2000:]
    found = re.search(r'<pre id="probe">(.*?)</pre>', done.stdout, re.S)
    assert found, done.stdout[-1500:]
    probe = json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&"))
    ((rules, mine),) = probe["pairs"]
    assert rules[1] == mine[1] and rules[0] + rules[2] <= mine[0]  # one row, no overlap
    assert min(rules[2], mine[2]) > 400  # each drawn at a readable size
    assert probe["pageWidth"] <= 1280
