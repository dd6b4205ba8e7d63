"""Kernel ridge regression, (K + I/C) alpha = y, by a Cholesky solve or by the explicit inverse.

An lssvm_analysis solver plugin: importing this module registers ``example-krr``
(entry point ``lssvm_analysis.solvers``).  The explicit inverse,
alpha = (K + I/C)^-1 y, is the "printed" formula (``literal=True``): it is not
backward stable (Higham, Accuracy and Stability, section 14.1), so where K + I/C
is ill conditioned its model has about the solve's digits but its decision
values K alpha lose what the solve's small residual keeps.  The exact model is the package's KRR model (the same problem,
formed in double-double): a plugin that solves a problem the package already
models reuses its hook.
"""
import numpy as np

import lssvm_analysis as la
from lssvm_analysis.linalg.memory import SOFTWARE, PeakMemory, PeakTerms
from lssvm_analysis.solvers.kit import exact_krr_model   # the public plugin kit

__all__ = ["fit_example_krr"]


def _system(X, y, fit, **params):
    """The system the fit solved, formed again in its precision: (K + I/C) alpha = y."""
    p = la.get_precision(fit.precision)
    C = {**dict(fit.params), **params}["C"]
    A = fit.kernel(np.asarray(X, dtype=np.float64), precision=p.name) + p.eye(len(y)) * p.reciprocal(C)
    return A, p.asarray(y), lambda x: {"coef": np.asarray(x), "bias": 0 * np.asarray(x)[0]}


@la.register_solver(
    "example-krr", tasks=("regression",), paper="example", equations="(K + I/C) alpha = y",
    variants=[la.variant("inverse", "solve", "Cholesky solve of K + I/C"),
              la.variant("inverse", "explicit", "alpha = inv(K + I/C) @ y, as printed", literal=True)],
    system=_system, exact_model=exact_krr_model,
    condition_estimate=False,   # it records none (lssvm_analysis.solvers.kit.make_fit(conditioning=...) would)
    # measured (tracemalloc, n = 300 and 600; mp50: 40 and 60): 4.0 words per entry of the n x n
    # matrix in float32 and float64, 5.1 in longdouble, 3.9 mp words (254 traced bytes each)
    peak=PeakMemory({"float32": PeakTerms(n2=4.1), "float64": PeakTerms(n2=4.1),
                     "longdouble": PeakTerms(n2=5.2), SOFTWARE: PeakTerms(n2=4.1)}),
    description="KRR by a Cholesky solve, or by the explicit inverse (printed)")
def fit_example_krr(X, y, *, precision="float64", C=1.0, kernel="rbf", sigma2=1.0, degree=3, t=1.0,
                    inverse="solve"):
    """Kernel ridge regression in ``precision``; ``inverse="explicit"`` forms (K + I/C)^-1 first."""
    X = np.array(X, dtype=np.float64)
    y = np.array(y, dtype=np.float64)
    if X.ndim != 2 or y.ndim != 1 or X.shape[0] != y.shape[0]:
        raise ValueError(f"expected X of shape (n, d) and y of shape (n,), got X.shape={X.shape}, y.shape={y.shape}")
    if not (np.all(np.isfinite(X)) and np.all(np.isfinite(y))):
        raise ValueError("expected finite entries in X and y, got a non-finite entry in X or y")
    for name, value in (("C", C), ("sigma2", sigma2)):
        if not (isinstance(value, (int, float)) and np.isfinite(value) and value > 0):
            raise ValueError(f"expected {name} > 0, got {name}={value!r}")
    p = la.get_precision(precision)
    k = la.make_kernel(kernel, sigma2=sigma2, degree=degree, t=t)   # the unified kernel keywords
    A = k(X, precision=p.name) + p.eye(len(y)) * p.reciprocal(C)
    if inverse == "explicit":
        coef = p.matmul(p.solve(A, p.eye(len(y))), p.asarray(y)[:, None])[:, 0]
    else:
        coef = p.cho_solve(p.cholesky(A), p.asarray(y))
    return la.Fit("example-krr", p.name, coef, p.scalar(0), np.arange(len(y)), X.copy(), k,
                  params={"C": C, "kernel": kernel, "sigma2": sigma2, "degree": degree, "t": t,
                          "inverse": inverse})
