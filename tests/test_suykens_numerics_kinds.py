"""The Suykens numerics kinds record what the arithmetic does as data, never as an "error" row."""
from __future__ import annotations

from lssvm_analysis.experiments import SweepSpec, execute_task


def test_cg_check_records_a_matrix_that_is_not_positive_definite_as_formed():
    """At C = 1e8 the ridge 1/C is below float32's rounding of the RBF kernel, so H = K + I/C as formed
    in float32 is indefinite and has no x* to measure CG against: the full profile's three float32 rows
    at C = 1e8 were "error" rows (scipy's LinAlgError); they are "breakdown" rows with lambda_min."""
    spec = SweepSpec("t", kind="suykens-check", precisions=["float32"],
                     datasets=[("sinc", {"n_train": 300, "n_test": 300})],
                     grid={"check": ["cg"], "C": [1e8], "sigma2": [1.0]}, options={"report_version": 1})
    (task,) = spec.tasks()
    row = execute_task(task)
    assert row["status"] == "breakdown", row.get("traceback", row)
    assert row["lambda_min"] < 1e-8 and "not positive definite" in row["message"]
    ok = execute_task(next(iter(SweepSpec("t", kind="suykens-check", precisions=["float64"],
                                          datasets=[("sinc", {"n_train": 300, "n_test": 300})],
                                          grid={"check": ["cg"], "C": [1e2], "sigma2": [1.0]},
                                          options={"report_version": 1}).tasks())))
    assert ok["status"] == "ok" and ok["iterations"] > 0
