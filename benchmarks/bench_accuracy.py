"""Accuracy tracked alongside speed: digits, condition numbers, CG iterations, breakdown C*.

Every value is rounded before asv stores it (digits and log10 values to
0.1): asv flags any change over 10 % of a tracked value, and the last bits
of a digit count are rounding noise, not a regression.
"""
import math

import numpy as np

from . import common
from .common import la

__all__ = ["SolverAccuracy", "CGIterations", "BreakdownC"]

#: Size of the accuracy problems: small, so the certified reference and the
#: extended precisions stay cheap.
ACCURACY_M = 60
#: A wide RBF kernel (on the [-3, 3]^4 data): cond of the formed matrices grows from ~1e1.5
#: at C = 1 to ~1e5-1e9 at C = 1e6, so the digits show the loss the theory predicts.
ACCURACY_SIGMA2 = 20.0
#: Largest log10 C scanned for a Cholesky breakdown (Abe §2.4: Omega_e -> singular as C grows).
BREAKDOWN_LOG10_C_MAX = 20


def _correct_digits(fit, sol, q):
    """-log10 of ||(coef, b) - (coef*, b*)||_inf / ||(coef*, b*)||_inf, computed in q (mp)."""
    from lssvm_analysis.analysis.reference import correct_digits

    with q.context():
        got = np.concatenate([q.asarray(np.atleast_1d(fit.coef_)), q.asarray(np.atleast_1d(fit.bias_))])
        ref = np.concatenate([q.asarray(np.atleast_1d(sol["coef"])), q.asarray(np.atleast_1d(sol["bias"]))])
        err = max(abs(g - r) for g, r in zip(got, ref))
        scale = max(abs(r) for r in ref)
        return correct_digits(float(err / scale))


class SolverAccuracy:
    """Correct digits of each registered solver against a certified reference of its own system.

    The reference (``reference_solve``, >= 30 certified digits) solves,
    exactly, the system the solver formed in its precision (the registry's
    ``system`` builder), so the digits measure the solve, not the rounding
    of the data (about -log10(u) - log10 cond).  0 digits when the fit failed
    (breakdown: no solution; e.g. Abe's ELS in float32 at C = 1e6).
    """

    params = [common.solver_names(), common.native_precisions(), [1.0, 1e6]]
    param_names = ["solver", "precision", "C"]
    timeout = 300

    def setup(self, solver, precision, C):
        reference = common.optional_module("lssvm_analysis.analysis.reference")
        info = common.require_solver(solver)
        common.require_precision(info, precision)
        if info.system is None:
            raise NotImplementedError(f"{solver} solves no single linear system (no system builder)")
        X, y, kw = common.solver_problem(solver, common.size(ACCURACY_M), C=C, sigma2=ACCURACY_SIGMA2)
        fit = la.fit(solver, X, y, precision=precision, **kw)
        A, rhs, unpack = info.system(X, y, fit, **kw)
        self.log10_cond = math.log10(reference.condition_number(A))
        self.digits = 0.0
        if fit.status == "ok":
            ref = reference.reference_solve(A, rhs, digits=30)
            q = la.get_precision(ref.precision)
            self.digits = _correct_digits(fit, unpack(ref.x), q)

    def track_correct_digits(self, solver, precision, C):
        return common.round_to(self.digits, 0.1)

    track_correct_digits.unit = "digits"

    def track_log10_cond(self, solver, precision, C):
        """log10 cond_2 of the matrix the solver formed (reference.condition_number)."""
        return common.round_to(self.log10_cond, 0.1)

    track_log10_cond.unit = "log10 cond"


class CGIterations:
    """lssvm-cg (Suykens §3.4.1) iterations against kappa(H) as C grows, float64, M = 500."""

    params = [[1.0, 1e2, 1e4]]
    param_names = ["C"]
    timeout = 300

    def setup(self, C):
        common.require_solver("lssvm-cg")
        X, y, kw = common.solver_problem("lssvm-cg", common.size(500), C=C)
        kw["estimate_kappa"] = True  # an accuracy benchmark: kappa(H) is what it tracks
        self.fit = la.fit("lssvm-cg", X, y, precision="float64", **kw)

    def track_iterations(self, C):
        """Iterations of both CG runs (H eta = 1_v and H nu = y)."""
        return float(self.fit.iterations)

    track_iterations.unit = "iterations"

    def track_log10_kappa_H(self, C):
        return common.round_to(math.log10(self.fit.diagnostics["kappa_H"]), 0.1)

    track_log10_kappa_H.unit = "log10 cond"


class BreakdownC:
    """Smallest C = 10^k at which the solver's Cholesky breaks down (Abe §2.4, Mackey-Glass, M = 200).

    Abe: Omega_e (dual) tends to a singular matrix as C grows, the primal
    matrix does not (its condition number saturates near cond(H_c)^2, which
    eta controls).  The value is log10 C*; 21 when no breakdown occurs up to
    C = 1e20.
    """

    params = [common.paper_solvers("abe"), common.hardware_precisions(), [1e-3, 0.1]]
    param_names = ["solver", "precision", "eta"]
    timeout = 300

    def setup(self, solver, precision, eta):
        common.require_solver(solver)
        ds = common.optional_module("lssvm_analysis.datasets")
        split = ds.mackey_glass(n_train=common.size(200), n_test=0)
        self.log10_c = float(BREAKDOWN_LOG10_C_MAX + 1)
        for k in range(BREAKDOWN_LOG10_C_MAX + 1):
            fit = la.fit(solver, split[0], split[1], precision=precision, C=10.0 ** k,
                                     sigma2=1.0, eta=eta)
            if fit.status == "breakdown":
                self.log10_c = float(k)
                break

    def track_log10_breakdown_C(self, solver, precision, eta):
        return self.log10_c

    track_log10_breakdown_C.unit = "log10 C"
