"""The published ledger (``lssvm-analysis publish``): judged as the report judges, from complete sections only,
with each section's cost, and computing nothing."""
from __future__ import annotations

import html
import sqlite3

import pandas as pd
import pytest

from lssvm_analysis.cli import main
from lssvm_analysis.experiments.store import Store, StoreError
from lssvm_analysis.report.build import build_report
from lssvm_analysis.report.publish import publish, section_costs


@pytest.fixture(scope="module")
def suykens_run(tmp_path_factory):
    """A quick report of one section (Suykens' numerics, ~5 s): its store and its page's ledger."""
    root = tmp_path_factory.mktemp("publish")
    build_report(root / "report", profile="quick", store=root / "records.sqlite", n_jobs=1, progress=False,
                 only=["suykens"], asv_dir=root / "no-asv")
    return root / "records.sqlite", pd.read_csv(root / "report" / "ledger.csv").fillna("")


def test_the_published_ledger_is_the_reports_and_computes_nothing(suykens_run, tmp_path):
    store, report_ledger = suykens_run
    before = len(Store(store))
    page = publish(store, tmp_path, profile="quick")
    assert len(Store(store)) == before  # nothing computed, nothing written to the store
    ledger = pd.read_csv(tmp_path / "ledger.csv").fillna("")
    assert ledger.id.tolist() == report_ledger.id.tolist()
    assert ledger.verdict.tolist() == report_ledger.verdict.tolist()
    assert ledger.sentence.tolist() == report_ledger.sentence.tolist()
    text = html.unescape(page.read_text(encoding="utf-8"))
    assert 'id="claim-' in text and "LS-SVM claims ledger, profile 'quick'" in text
    # every section the ledger's evidence links to is an anchor of the page
    for section in set(ledger.section):
        assert f'id="{section}"' in text, section


def test_cost_per_section_counts_planned_and_stored_tasks_and_their_cpu_time(suykens_run):
    store, _ = suykens_run
    costs = section_costs(store, "quick").set_index("section")
    row = costs.loc["suykens"]
    assert row.complete and row.stored == row.tasks > 0 and row.cpu_seconds > 0
    assert row.outcomes.startswith("ok=")
    others = costs.drop(index="suykens")
    assert (others.stored[others.tasks > 0] == 0).all() and not others.complete[others.tasks > 0].any()


def test_a_section_run_in_part_gives_its_claims_no_verdict(suykens_run, tmp_path):
    store, report_ledger = suykens_run
    partial = tmp_path / "partial.sqlite"
    partial.write_bytes(store.read_bytes())
    con = sqlite3.connect(partial)
    con.execute("DELETE FROM records WHERE rowid = (SELECT MIN(rowid) FROM records)")
    con.commit()
    con.close()
    publish(partial, tmp_path / "out", profile="quick")
    costs = pd.read_csv(tmp_path / "out" / "cost.csv").set_index("section")
    assert not costs.loc["suykens", "complete"]
    assert costs.loc["suykens", "stored"] == costs.loc["suykens", "tasks"] - 1
    ledger = pd.read_csv(tmp_path / "out" / "ledger.csv").fillna("")
    mine = ledger[ledger.section == "suykens"]
    judged = report_ledger[(report_ledger.section == "suykens") & (report_ledger.verdict != "not testable offline")]
    assert len(judged) and (judged.verdict != "not run").any()  # the complete run did judge some
    assert set(mine.verdict) <= {"not run", "not testable offline"}


def test_publish_refuses_a_store_that_does_not_exist_and_creates_none(tmp_path, capsys):
    missing = tmp_path / "no" / "records.sqlite"
    with pytest.raises(StoreError, match="existing record store"):
        publish(missing, tmp_path / "out")
    assert _exit_status(["publish", "--store", str(missing), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and str(missing) in err[0]
    assert not missing.exists() and not (tmp_path / "out").exists()
    with pytest.raises(ValueError, match="profile"):
        publish(tmp_path, tmp_path / "out", profile="fast")


def test_publish_refuses_an_out_path_below_a_file(suykens_run, tmp_path, capsys):
    store, _ = suykens_run
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert _exit_status(["publish", "--profile", "quick", "--store", str(store), "--out", str(blocker / "x")]) == 2
    assert "--out" in capsys.readouterr().err


def test_the_cli_publishes_with_one_line(suykens_run, tmp_path, capsys):
    store, _ = suykens_run
    assert main(["publish", "--profile", "quick", "--store", str(store), "--out", str(tmp_path)]) == 0
    assert capsys.readouterr().out.startswith(f"wrote {tmp_path / 'index.html'}")
    assert {p.name for p in tmp_path.iterdir()} == {"index.html", "ledger.csv", "cost.csv"}


def _exit_status(argv) -> int:
    """main's status, or argparse's (SystemExit) for an option refused before any work."""
    try:
        return main(argv)
    except SystemExit as exc:
        return exc.code
