"""The Chen & Zhou report section: plan + render on the quick profile with a temporary store."""
from __future__ import annotations

import pandas as pd

from lssvm_analysis.experiments import load_records, run_sweep
from lssvm_analysis.experiments import kinds_chen_zhou  # noqa: F401  (registers cz-fit)
from lssvm_analysis.report import sections_chen_zhou as sec_cz
from lssvm_analysis.report.html import Section


def test_chen_zhou_section_quick(tmp_path):
    store = tmp_path / "records.sqlite"

    def run(spec):
        run_sweep(spec, store, n_jobs=1, progress=False)
        return load_records(store, spec)

    specs = sec_cz.plan("quick", run)
    records = {k: load_records(store, s) for k, s in specs.items()}
    assert all(len(df) for df in records.values())
    sec = Section("Chen & Zhou", "chen-zhou")
    verdict = sec_cz.render(sec, tmp_path, records, "quick")
    files = {p.name for p in tmp_path.iterdir()}
    assert {"cz-fig3.png", "cz-table1.csv", "cz-rank.csv", "cz-scale.png"} <= files
    assert "Fig. 3: SR-LSSVM keeps 2 basis vectors" in verdict and "as claimed" in verdict
    assert "most accurate" in verdict and "wide kernel: rank" in verdict
    t1 = pd.read_csv(tmp_path / "cz-table1.csv")
    assert {"sr-lssvm", "r-lssvm-w", "lssvm-schur"} <= set(t1.solver)
    errors = pd.concat(records.values())
    assert (errors.status == "ok").all(), errors[errors.status != "ok"][["solver", "message"]].head()
