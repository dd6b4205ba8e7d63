"""The report page's navigation: a sticky table of contents, sections collapsed to their
verdict and key figure with the rest under ``<details>``, plain HTML readable offline."""
from __future__ import annotations

import html.parser

import pandas as pd

from lssvm_analysis.report.figures import new_figure, save_figure, save_table
from lssvm_analysis.report.html import Section, render_page


class _Tree(html.parser.HTMLParser):
    """Start tags with their attributes and the stack of open tags at each one."""

    def __init__(self):
        super().__init__()
        self.stack, self.tags = [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs), tuple(self.stack)))
        if tag not in ("img", "meta", "br", "hr", "input", "link"):
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if tag in self.stack:
            while self.stack.pop() != tag:
                pass


def _figure(tmp_path, name):
    fig, ax = new_figure()
    ax[0, 0].plot([1, 2], [3, 4], label="x")
    ax[0, 0].set_xlabel("x [s]")
    ax[0, 0].set_ylabel("y [m]")
    ax[0, 0].legend()
    return save_figure(fig, pd.DataFrame({"a": [1]}), tmp_path, name, f"caption {name}")


def _sections(tmp_path):
    one = Section("1. First", "first", verdict=["first verdict"])
    one.p("some text")
    one.figure(_figure(tmp_path, "a"))
    one.figure(_figure(tmp_path, "b"), key=True)
    one.table(save_table(pd.DataFrame({"c": [1.0]}), tmp_path, "t", "a table"))
    two = Section("2. Second", "second", verdict=["second verdict"])
    two.p("only text")
    return [one, two]


def test_page_has_a_sticky_contents_and_collapsed_sections(tmp_path):
    page = render_page("T", _sections(tmp_path))
    tree = _Tree()
    tree.feed(page)
    toc = [a["href"] for tag, a, stack in tree.tags if tag == "a" and "nav" in stack]
    assert toc == ["#first", "#second"]
    assert "position:sticky" in page
    ids = [a.get("id") for tag, a, _ in tree.tags if tag == "section"]
    assert ids == ["first", "second"]
    imgs = {a["src"]: "details" in stack for tag, a, stack in tree.tags if tag == "img"}
    assert imgs == {"b.png": False, "a.png": True}  # the key figure is shown, the other folded
    # the section opens with its key figure, then its claims by outcome; the verdict sentences are only in
    # the ledger (issue 41: shown once), never repeated in a section
    assert page.index("b.png") < page.index('class="verdict-summary"') < page.index("<details>")
    assert page.count("<details>") == 2 and "Details: 1 paragraph, 1 figure, 1 table" in page
    assert 'class="verdict"' not in page
    # every image is lazy and carries its size (no layout shift while the page loads)
    for tag, a, _ in tree.tags:
        if tag == "img":
            assert a["loading"] == "lazy" and int(a["width"]) > 0 and int(a["height"]) > 0


def test_the_verdict_summary_counts_the_outcomes_and_names_the_open_ones():
    """One line per outcome: its count and its claim ids, each a link to the claim's ledger row."""
    sec = Section("1. Paper", "paper", verdict=[
        "A-x: holds: 3 digits.", "A-y: does not hold: 1 digit.", "A-z: undecided: CI straddles 0.",
        "A-w: holds only when C > 1: ...", "A-v: not run: no records.", "A-u: holds: 4."])
    page = render_page("T", [sec])
    summary = page[page.index('class="verdict-summary"'):page.index("</div>", page.index('class="verdict-summary"'))]
    assert "6 claims of the papers are judged here" in summary
    for line in ('1 do not hold: <a href="#claim-A-y">A-y</a>.', "1 hold under a condition",
                 '2 hold: <a href="#claim-A-x">A-x</a>, <a href="#claim-A-u">A-u</a>.', "1 undecided", "1 not run"):
        assert line in summary
    assert summary.index("do not hold") < summary.index("under a condition") < summary.index("2 hold")
    assert summary.count("<p>") == 6 and 'href="#ledger"' in summary


def test_first_figure_is_the_key_figure_by_default(tmp_path):
    sec = Section("s", "s", verdict=["v"])
    sec.figure(_figure(tmp_path, "a"))
    sec.figure(_figure(tmp_path, "b"))
    assert sec.key_figure().png == "a.png"
    assert Section("t", "t").key_figure() is None


def test_page_is_offline(tmp_path):
    page = render_page("T", _sections(tmp_path))
    tree = _Tree()
    tree.feed(page)
    assert not [t for t, _, _ in tree.tags if t in ("script", "link", "iframe")]
    links = [v for _, a, _ in tree.tags for k, v in a.items() if k in ("src", "href")]
    assert links and not [v for v in links if "://" in v or v.startswith("//")]


def test_the_quick_reports_first_section_opens_with_the_grid_table_and_its_legend(render_section):
    """Issue 34's gate: the first section of the quick report (the answer grid) opens with an HTML
    <table> grid whose legend stands before it, both before any picture; the PNG is a download."""
    from lssvm_analysis.report import report_sections

    first = report_sections()[0].key
    got = render_section(first, "quick")
    page = render_page("T", [got.section])
    body = page[page.index("<section"):page.index("</section>")]
    legend, table = body.index('<ul class="legend"'), body.index('<table class="grid">')
    assert legend < table and "<img" not in body[:table]
    grid = body[table:body.index("</table>", table)]
    assert grid.count("<tr>") >= 2 and 'class="g-' in grid and "κ" in grid
    assert '.png">PNG</a>' in grid  # the picture of the grid is a link, not the first screen


def test_provenance_names_commit_versions_and_command_without_a_directory():
    """The header's provenance (issue 41): a commit (or 'unknown'), numpy/SciPy/BLAS versions, the command
    with every absolute path cut to its last part."""
    from lssvm_analysis.report.build import command_line, git_commit, library_versions
    cmd = command_line(["/opt/venv/bin/lssvm-analysis", "report", "--quick", "--store", "/tmp/x/r.sqlite",
                        "--out=/home/me/rep", "--only", "abe"])
    assert cmd == "lssvm-analysis report --quick --store …/r.sqlite --out=…/rep --only abe"
    versions = library_versions()
    assert versions.startswith("numpy ") and "SciPy " in versions
    commit = git_commit()
    assert commit == "unknown" or len(commit.split("+")[0]) == 12


def test_the_ledger_is_one_compact_table_with_anchors_badges_and_folded_words(tmp_path):
    """One row per claim: an anchor id, the paper's section in 'where', a badge, our number beside the
    printed one, the paper's words in one pair of quotes under <details>; filter and sort offline."""
    from lssvm_analysis.experiments.claims import ledger_frame
    from lssvm_analysis.report.ledger import ledger_table
    frame = ledger_frame({})
    sec = Section("1. Ledger", "ledger")
    sec.ledger(ledger_table(frame, tmp_path, "ledger", "ledger"))
    page = render_page("T", [sec])
    assert page.count('<table class="ledger"') == 1 and page.count("<tr id=\"claim-") == len(frame)
    assert '“"' not in page and '"”' not in page and "&quot;”" not in page
    assert 'id="claim-A-equal-theory"' in page and "<small> §3</small>" in page
    assert 'class="badge b-not-run"' in page and '<select id="f-outcome">' in page and "<script>" in page
    assert ".txt L" not in page.split('<table class="ledger"')[1].split("</table>")[0].split("<tbody>")[1] \
        .split("<details>")[0]  # 'where' is the paper's section, not the seed file
