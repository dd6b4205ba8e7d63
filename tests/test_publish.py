"""The published ledger (``lssvm-analysis publish``): judged as the report judges, from complete records only,
with each section's cost, and computing nothing."""
from __future__ import annotations

import html
import sqlite3

import pandas as pd
import pytest

from lssvm_analysis.cli import main
from lssvm_analysis.experiments.claims import claims, ledger_frame, reads
from lssvm_analysis.experiments.store import Store, StoreError
from lssvm_analysis.report.build import build_report, read_records
from lssvm_analysis.report.plan import stored_plan
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
    run = report_ledger.verdict != "not run"  # a section left out: the store says how much of it is stored
    assert ledger.sentence[run].tolist() == report_ledger.sentence[run].tolist()
    assert ledger.sentence[~run].str.contains(r"its records are not all stored: .* \(0 of \d+ tasks stored\)|"
                                              "no records for it in this profile|no sub-claim has records").all()
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


def test_a_record_run_in_part_gives_the_claims_reading_it_no_verdict(suykens_run, tmp_path):
    """The one task of the record a claim reads deleted: that claim says "not run" and how much of
    the record is stored; every other claim keeps the verdict the complete run gave it."""
    store, report_ledger = suykens_run
    partial = tmp_path / "partial.sqlite"
    partial.write_bytes(store.read_bytes())
    plan = stored_plan(store, "quick")["suykens"]
    keys = [t.key for t in plan["pruning"].tasks()]
    con = sqlite3.connect(partial)
    con.executemany("DELETE FROM records WHERE key = ?", [(k,) for k in keys])
    con.commit()
    con.close()
    publish(partial, tmp_path / "out", profile="quick")
    costs = pd.read_csv(tmp_path / "out" / "cost.csv").set_index("section")
    assert not costs.loc["suykens", "complete"]
    assert costs.loc["suykens", "stored"] == costs.loc["suykens", "tasks"] - len(keys)
    ledger = pd.read_csv(tmp_path / "out" / "ledger.csv").fillna("").set_index("id")
    before = report_ledger.set_index("id")
    readers = {c.id for c in claims() if c.rule is not None and reads(c, "suykens", "pruning")}
    assert readers == {"S-sinc-prune"} and before.verdict["S-sinc-prune"] != "not run"
    assert ledger.verdict["S-sinc-prune"] == "not run"
    assert f"pruning (0 of {len(keys)} tasks stored)" in ledger.cause["S-sinc-prune"]
    others = [c.id for c in claims() if not c.parts and c.id not in readers]
    assert (ledger.verdict[others] == before.verdict[others]).all()


def test_a_claim_reading_a_complete_and_a_partial_record_is_not_judged_from_the_complete_one(suykens_run):
    """Records present for the claim, but one it also reads named in ``partial``: "not run", with the count."""
    store, report_ledger = suykens_run
    records = read_records(store, {"suykens": stored_plan(store, "quick")["suykens"]})
    judged = ledger_frame(records).set_index("id")
    assert judged.verdict["S-sinc-prune"] == report_ledger.set_index("id").verdict["S-sinc-prune"] != "not run"
    held = ledger_frame(records, {"suykens/pruning": "3 of 7 tasks stored"}).set_index("id")
    assert held.verdict["S-sinc-prune"] == "not run"
    assert held.cause["S-sinc-prune"] == "its records are not all stored: pruning (3 of 7 tasks stored)"
    rest = judged.index.drop("S-sinc-prune")
    assert (held.verdict[rest] == judged.verdict[rest]).all()


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
