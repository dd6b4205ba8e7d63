"""lssvm-plugin-example: a solver package for lssvm_analysis, to copy (cookiecutter-style).

Kernel ridge regression, (K + I/C) alpha = y, by a Cholesky solve or by the
explicit inverse.  Importing this module registers the solver ``example-krr``;
an installed package is found through its entry point, so the solver is in
``la.solvers()``, the estimators, ``compare``, the sweeps, the report and the
asv suite with no edit to lssvm_analysis.

The package, file by file
-------------------------
``pyproject.toml``
    The entry point: ``[project.entry-points."lssvm_analysis.solvers"]
    example-krr = "lssvm_plugin_example"`` (a module: importing it registers;
    or ``module:function``, called once without arguments).
``lssvm_plugin_example/__init__.py`` (this file)
    Only the algorithm.  ``lssvm_analysis.kit`` does the rest:
    ``kit.validate_xy`` validates X, y, C and the kernel keywords and raises
    the errors the conformance battery asserts on (the message contract in
    :mod:`lssvm_analysis.testing`); ``kit.PhaseTimer`` times the phases;
    ``kit.make_fit`` assembles the Fit (a non-finite model becomes
    ``status="overflow"``, never ``"ok"``); ``kit.breakdown_fit`` records a
    Cholesky breakdown as data; ``kit.exact_krr_model`` is the certified exact
    model of (K + I/C) alpha = y, the problem this package solves (a package
    that solves a problem lssvm_analysis does not model declares it with
    ``kit.ExactProblem``); ``kit.PeakMemory`` declares the peak memory.
``tests/test_example_krr.py``
    ``check_solver("example-krr")``, the battery every solver of
    lssvm_analysis passes, and a model-digit gate; ``pip install -e .[test]``
    then ``pytest``.

To start a new package: copy this folder, rename the package, the entry
point and the solver, replace :func:`fit_example_krr`'s two lines of
algorithm and :func:`_system` (the linear system it solves, formed as the
solver forms it, so that ``check_solver`` can compare the fit with that
system's certified solution), and declare the exact model.

The explicit inverse, alpha = (K + I/C)^-1 y, is the "printed" formula
(``literal=True``): it is not backward stable (Higham, Accuracy and
Stability, section 14.1), so where K + I/C is ill conditioned its model has
about the solve's digits but its decision values K alpha lose what the
solve's small residual keeps.
"""
import numpy as np

import lssvm_analysis as la
from lssvm_analysis import kit

__all__ = ["fit_example_krr"]

NAME = "example-krr"


def _matrix(X, C, kernel, p):
    """K + I/C in the precision ``p``: the one formation of the fit and of its system."""
    return kernel(X, precision=p.name) + p.eye(X.shape[0]) * p.reciprocal(C)


def _system(X, y, fit, **params):
    """The system the fit solved, formed again in its precision: (K + I/C) alpha = y."""
    p = la.get_precision(fit.precision)
    A = _matrix(np.asarray(X, dtype=np.float64), kit.fit_params(fit, params)["C"], fit.kernel, p)
    return A, p.asarray(y), lambda x: {"coef": np.asarray(x), "bias": 0 * np.asarray(x)[0]}


@la.register_solver(
    NAME, tasks=("regression",), paper="example", equations="(K + I/C) alpha = y",
    variants=[la.variant("inverse", "solve", "Cholesky solve of K + I/C"),
              la.variant("inverse", "explicit", "alpha = inv(K + I/C) @ y, as printed", literal=True)],
    system=_system, exact_model=kit.exact_krr_model,
    condition_estimate=False,   # it records none (kit.make_fit(conditioning=...) would)
    # measured (tracemalloc, n = 300 and 600; mp50: 40 and 60): 4.0 words per entry of the n x n
    # matrix in float32 and float64, 5.1 in longdouble, 3.9 mp words (254 traced bytes each)
    peak=kit.PeakMemory({"float32": kit.PeakTerms(n2=4.1), "float64": kit.PeakTerms(n2=4.1),
                         "longdouble": kit.PeakTerms(n2=5.2), kit.SOFTWARE: kit.PeakTerms(n2=4.1)}),
    description="KRR by a Cholesky solve, or by the explicit inverse (printed)")
def fit_example_krr(X, y, *, precision="float64", C=1.0, kernel="rbf", sigma2=1.0, degree=3, t=1.0,
                    inverse="solve"):
    """Kernel ridge regression in ``precision``; ``inverse="explicit"`` forms (K + I/C)^-1 first."""
    X, y, k, p = kit.validate_xy(X, y, C=C, kernel=kernel, sigma2=sigma2, degree=degree, t=t, precision=precision)
    params = {"C": C, "kernel": kernel, "sigma2": sigma2, "degree": degree, "t": t, "inverse": inverse}
    timer = kit.PhaseTimer()
    with timer("formation"):
        A = _matrix(X, C, k, p)
    with timer("solve"):
        if inverse == "explicit":
            coef = p.matmul(p.solve(A, p.eye(len(y))), p.asarray(y)[:, None])[:, 0]
        else:
            try:
                coef = p.cho_solve(p.cholesky(A), p.asarray(y))
            except la.CholeskyBreakdownError as err:
                return kit.breakdown_fit(NAME, p, err, X=X, kernel=k, timer=timer, params=params)
    return kit.make_fit(NAME, p, coef=coef, bias=p.scalar(0), support=np.arange(len(y)), X=X, kernel=k,
                        timer=timer, params=params)
