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


def test_cg_objective_rounding_bound_covers_the_float64_evaluation():
    """V(x) = ½xᵀHx − xᵀb in float64 against the same V in exact rationals: the recorded bound
    γ_{n+2}(½|x|ᵀ|H||x| + |x|ᵀ|b|) + u|V| holds, and near x* of an ill-conditioned H (κ ~ 1e9) it is far
    above u|V|, which is why a rise of V along CG below it says nothing of CG."""
    from fractions import Fraction

    import numpy as np

    from lssvm_analysis.linalg.kernels import rbf_kernel
    from lssvm_analysis.papers.suykens.kinds_numerics import cg_objective

    rng = np.random.default_rng(3)
    n = 24
    X = np.sort(rng.uniform(-3, 3, (n, 1)), axis=0)
    H = rbf_kernel(X, sigma2=10.0) + np.eye(n) / 1e6
    b = np.sinc(X[:, 0]) + 0.1 * rng.standard_normal(n)
    xs = np.linalg.solve(H, b)
    for x in (xs, xs + 1e-6 * rng.standard_normal(n), rng.standard_normal(n)):
        v, bound = cg_objective(x, H, b)
        F = [Fraction(float(t)) for t in x]
        exact = (sum(F[i] * Fraction(float(H[i, j])) * F[j] for i in range(n) for j in range(n)) / 2
                 - sum(F[i] * Fraction(float(b[i])) for i in range(n)))
        assert abs(Fraction(v) - exact) <= Fraction(bound)
    v, bound = cg_objective(xs, H, b)
    assert bound > 1e3 * np.finfo(float).eps * abs(v)  # the rounding of V near x*, far above u|V|


def test_cg_v_rule_counts_only_rises_beyond_the_rounding_of_v():
    import numpy as np

    from lssvm_analysis.experiments.arrays import dumps, loads
    from lssvm_analysis.experiments.claims import get_claim
    from lssvm_analysis.papers.suykens.claims_numerics_examples import EXAMPLES

    rec = EXAMPLES["cg-V"]()["does not hold"]  # a rise of 0.1 at step 5 in every run
    assert get_claim("S-cg-V").rule(rec).outcome == "does not hold"
    df = rec["check-cg"].copy()
    df["V_round"] = [dumps(np.full(len(loads(v)), 0.06)) for v in df.V]  # 0.06 at both ends: 0.12 > 0.1
    v = get_claim("S-cg-V").rule({"check-cg": df})
    assert v.outcome == "holds" and "within the rounding of V's float64 evaluation" in v.measured
