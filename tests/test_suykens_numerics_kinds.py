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


def test_boundary_distance_is_exact_along_the_normal_and_an_upper_bound_elsewhere():
    import numpy as np

    from lssvm_analysis.papers.suykens.kinds_numerics import boundary_distance

    w, b = np.array([3.0, 4.0]), 1.0      # f(x) = w·x + b, distance |f| / ‖w‖ = |f| / 5
    f = lambda P: P @ w + b  # noqa: E731
    t = np.array([-3.0, -1.0, -0.5, 0.5, 1.0, 3.0])
    X = (t[:, None] - b / 5) * (w / 5)    # on the normal through the boundary: the segment is the normal
    d = boundary_distance(X, f(X), f)
    np.testing.assert_allclose(d, np.abs(t), rtol=0, atol=1e-12)  # 48 halvings of segments of length <= 6
    rng = np.random.default_rng(0)
    Y = rng.standard_normal((200, 2)) * 3
    d = boundary_distance(Y, f(Y), f)
    assert np.all(d >= np.abs(f(Y)) / 5 - 1e-12) and np.all(np.isfinite(d))
    assert np.all(np.isinf(boundary_distance(Y, np.ones(200), f)))  # one sign: no boundary among the rows


def test_alpha_location_says_which_reading_of_far_holds():
    from lssvm_analysis.experiments.claims import get_claim
    from lssvm_analysis.papers.suykens.claims_numerics_examples import kkt_records

    rec = kkt_records(far=0.0)["check-kkt"].assign(top_far_geo=0.2, top_far_geo_wrong=0.2)
    v = get_claim("S-alpha-location").rule({"check-kkt": rec})
    assert v.outcome == "holds only when" and "input space" in v.condition and "misclassified" in v.measured
    v = get_claim("S-alpha-location").rule({"check-kkt": rec.assign(top_far_geo=0.0)})
    assert v.outcome == "does not hold"


def test_csvc_kkt_allows_libsvms_float_kernel_cache():
    """Fig. 3.11's two Gaussians at C = 1e4: LIBSVM stops at tol 1e-3 on f as its float kernel cache gives it,
    so two free SVs sit at y·f − 1 ≈ 1.0e-3–1.6e-3 in float64: within u₃₂·Σ|α_j K_ij| of the cache, not KKT
    violations; a real violation (a non-margin point given α > 0) stays one."""
    import numpy as np

    from lssvm_analysis.papers.suykens.kinds_numerics import _svc_kkt
    from lssvm_analysis.solvers import fit

    rng = np.random.default_rng(0)
    y = np.where(np.arange(500) < 250, 1.0, -1.0)
    X = rng.standard_normal((500, 2)) + np.outer(y, [1.0, 1.0])
    svc = fit("svm-c", X, y, C=1e4, sigma2=1.0, kernel="rbf")
    got = _svc_kkt(svc, X, y, 1.0)
    assert got["svc_beyond_tol"] >= 1 and got["svc_kkt_violations"] == 0
    # a support vector at y·f = 1.5 is a violation whatever the cache's rounding
    from types import SimpleNamespace
    sv = np.asarray(svc.support_)
    off = SimpleNamespace(support_=sv, coef_=svc.coef_,
                          decision_function=lambda P: np.where(np.all(P == X[sv[0]], axis=1), 1.5 * y[sv[0]],
                                                               svc.decision_function(P)))
    assert _svc_kkt(off, X, y, 1.0)["svc_kkt_violations"] == 1
