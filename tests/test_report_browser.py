"""The quick report read as a reader reads it: in a real headless browser at 1280 × 800.

The browser is Debian's ``chromium`` (``apt-get install chromium``; ``make test`` installs it when it
runs as root) driven by pip's ``playwright`` through ``executable_path``: no browser build is downloaded.
Without either, the test is skipped with the reason.  The report is the one in
``$LSSVM_ANALYSIS_QUICK_REPORT`` (a directory holding a quick report's ``index.html``) if set, else a
quick report built here from a fresh store (minutes: marked slow).
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

WIDTH, HEIGHT = 1280, 800
#: The page with every <details> closed is at most this many screens of HEIGHT (issue 41: it was 326).
MAX_SCREENS = 30


def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


@pytest.fixture(scope="module")
def quick_report(tmp_path_factory) -> Path:
    """The quick report's index.html: ``$LSSVM_ANALYSIS_QUICK_REPORT``'s, else one built here."""
    given = os.environ.get("LSSVM_ANALYSIS_QUICK_REPORT")
    if given:
        index = Path(given) / "index.html"
        if not index.is_file():
            pytest.fail(f"expected a report in LSSVM_ANALYSIS_QUICK_REPORT, got no index.html in {given!r}")
        return index
    from lssvm_analysis.report import build_report
    tmp = tmp_path_factory.mktemp("quick-report")
    return build_report(tmp / "out", quick=True, store=tmp / "records.sqlite", n_jobs=1, progress=False)


@pytest.fixture(scope="module")
def page_of_report(quick_report):
    """A Playwright page showing the quick report at 1280 × 800, every <details> closed."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (the test extra)")
    exe = _chromium()
    if exe is None:
        pytest.skip("no chromium executable on PATH (Debian: apt-get install chromium; make test does it as root)")
    index = quick_report
    with sync_api.sync_playwright() as pw:
        try:
            browser = pw.chromium.launch(executable_path=exe, args=["--no-sandbox"])
        except Exception as exc:  # a chromium that does not start here: the reason, not a failure
            pytest.skip(f"chromium at {exe} does not start: {str(exc).splitlines()[0]}")
        page = browser.new_page(viewport={"width": WIDTH, "height": HEIGHT})
        page.goto(index.resolve().as_uri())
        page.evaluate("document.querySelectorAll('details').forEach(d => d.open = false)")
        yield page
        browser.close()


pytestmark = pytest.mark.slow


def test_the_answer_sentences_are_on_the_first_screen(page_of_report):
    """3-5 sentences computed from the records, all of them within the first 800 px."""
    boxes = page_of_report.evaluate(
        "Array.from(document.querySelectorAll('#answer p')).map(p => {const r = p.getBoundingClientRect();"
        "return [r.top + window.scrollY, r.bottom + window.scrollY, p.textContent]})")
    assert 3 <= len(boxes) <= 5, boxes
    assert all(bottom <= HEIGHT for _, bottom, _ in boxes), boxes
    text = " ".join(t for _, _, t in boxes)
    assert "Which formulation to use" in text and "Printed formulas" in text and "claims" in text


def test_no_horizontal_scroll_at_1280(page_of_report):
    width = page_of_report.evaluate("document.documentElement.scrollWidth")
    assert width <= WIDTH, f"the page is {width} px wide at a {WIDTH} px viewport"


def test_the_page_with_details_closed_is_at_most_30_screens(page_of_report):
    height = page_of_report.evaluate("document.documentElement.scrollHeight")
    assert height <= MAX_SCREENS * HEIGHT, f"{height} px = {height / HEIGHT:.1f} screens"


def test_every_claim_id_in_a_section_summary_is_a_link_that_resolves(page_of_report):
    """Each id in a section's summary links to its row of the ledger, and that row exists."""
    links = page_of_report.evaluate(
        "Array.from(document.querySelectorAll('.verdict-summary')).flatMap(s => Array.from("
        "s.querySelectorAll('a')).map(a => [a.textContent, a.getAttribute('href')]))")
    ids = [(t, h) for t, h in links if h != "#ledger"]
    assert ids, "no claim id is linked from a section summary"
    missing = page_of_report.evaluate(
        "hrefs => hrefs.filter(h => !document.getElementById(decodeURIComponent(h.slice(1))))",
        [h for _, h in ids])
    assert missing == []
    rows = page_of_report.evaluate(
        "hrefs => hrefs.map(h => document.getElementById(h.slice(1)).querySelector('th').textContent)",
        [h for _, h in ids])
    assert all(r.startswith(t) for (t, _), r in zip(ids, rows))


def test_the_ledger_filters_by_verdict_without_a_network(page_of_report):
    """The inline script: choosing a verdict hides every other row (offline: the page fetches nothing)."""
    page = page_of_report
    outcome = page.evaluate("document.querySelector('#ledger-table tbody tr').dataset.outcome")
    page.select_option("#f-outcome", outcome)
    shown = page.evaluate("Array.from(document.querySelectorAll('#ledger-table tbody tr'))"
                          ".filter(r => !r.hidden).map(r => r.dataset.outcome)")
    assert shown and set(shown) == {outcome}
    page.select_option("#f-outcome", "")


def test_the_quick_grid_colours_no_best_cell_below_a_worse_one(quick_report):
    """digits-grid.csv of the quick report: per column, no cell of the best colour class reached a lower
    κ than a cell of a worse class (issue 41: 13 of 40 float32 cells were not green yet above a green one)."""
    from test_report_digits import _best_class_never_below_a_worse_one
    assert _best_class_never_below_a_worse_one(quick_report.parent / "digits-grid.csv") == []


def test_the_quick_grid_states_every_rows_kappa_range(quick_report):
    """digits-grid.csv of the quick report: every row gives the κ its ladder reached, and a row that stays
    short of the widest says so in its cells ("ladder cannot reach κ > …")."""
    from test_report_digits import _unstated_row_ranges
    assert _unstated_row_ranges(quick_report.parent / "digits-grid.csv") == []
