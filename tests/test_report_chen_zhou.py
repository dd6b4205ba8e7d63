"""The Chen & Zhou report section: plan + render on the quick profile with a temporary store."""
from __future__ import annotations

import pandas as pd



def test_chen_zhou_section_quick(tmp_path, render_section):
    r = render_section("chen-zhou")
    records, verdict = r.records, r.verdict
    assert all(len(df) for df in records.values())
    files = {p.name for p in tmp_path.iterdir()}
    assert {"cz-fig3.png", "cz-table1.csv", "cz-rank.csv", "cz-scale.png"} <= files
    assert "Fig. 3: SR-LSSVM keeps 2 basis vectors" in verdict and "as claimed" in verdict
    assert "most accurate" in verdict and "wide kernel: rank" in verdict
    t1 = pd.read_csv(tmp_path / "cz-table1.csv")
    assert {"sr-lssvm", "r-lssvm-w", "lssvm-schur"} <= set(t1.solver)
    errors = pd.concat(records.values())
    assert (errors.status == "ok").all(), errors[errors.status != "ok"][["solver", "message"]].head()
