"""The package's own tests: the conformance battery of lssvm_analysis, and a gate on the model's accuracy.

Run with the package installed (``pip install -e .[test]``, then ``pytest``).
"""
import numpy as np

import lssvm_analysis as la
from lssvm_analysis.testing import assert_matches_exact, check_solver


def test_example_krr_passes_the_conformance_battery():
    report = check_solver("example-krr")
    assert any(label.startswith("matches_reference") for label in report)     # its accuracy was measured
    assert any(label.startswith("exact_model_hook") for label in report)
    assert not report.accepted, report.accepted                                # nothing accepted unchecked


def test_the_cholesky_solve_is_within_the_forward_bound():
    rng = np.random.default_rng(0)
    X = rng.uniform(-3, 3, (60, 2))
    y = np.sinc(X[:, 0]) + 0.05 * X[:, 1]
    fit = la.fit("example-krr", X, y, precision="float64", C=1e4, sigma2=1.0)
    # Cholesky is backward stable (Higham, Thm 10.4): the model is within c n kappa u of the exact
    # model of (K + I/C) alpha = y, the gate's default bound (c = 30, LAPACK's test ratio)
    err = assert_matches_exact(fit, X, y)
    assert err.model_digits > 0    # and it kept digits: a gate on a fit with none would say so
