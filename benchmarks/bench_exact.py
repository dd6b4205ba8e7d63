"""The exact model of a fit (issue 19): its cost at n = 1000, per registered solver with a hook.

Target (tracked here, asserted nowhere): ``ExactModel.time_exact_model`` <= 2 s at
n = 1000 for every solver with an ``exact_model`` hook (formation of the exact
problem -- the kernel in double-double, the system or the normal equations in
balls -- and its certified solve, >= 30 digits), so that the default report,
which measures every fit against its exact model, stays within 5 minutes.
``track_exact_digits`` is the certified digits of the exact model itself.
The solver list is the registry: a new hook is benchmarked without touching this file.
``EscalatedExactModel``: the escalated route (arb balls at 256 bits) of the least-squares
families at the kappa ladder's size, n = 30 (measured 6-29 ms CPU against 4-11 ms for the DD
route, one process, shared machine).
"""
from . import common
from .common import la

__all__ = ["ExactModel", "EscalatedExactModel"]


def _exact_names() -> list:
    return [n for n in common.solver_names()
            if la is not None and getattr(la.get_solver(n), "exact_model", None) is not None]


def _float64_fit(solver, M):
    """(info, X, y, kw, fit) of the benchmark problem at size M; NotImplementedError without a model."""
    info = common.require_solver(solver)
    X, y, kw = common.solver_problem(solver, common.size(M))
    fit = la.fit(solver, X, y, precision="float64", **kw)
    if fit.coef_ is None:
        raise NotImplementedError(f"{solver} has no model here (status {fit.status})")
    return info, X, y, kw, fit


class ExactModel(common.OneShot):
    """Exact model of one float64 fit of each solver with a hook, at n = 1000."""

    params = [_exact_names(), [1000]]
    param_names = ["solver", "M"]
    timeout = 300
    repeat = (1, 5, 3.0)
    min_run_count = 1

    def setup(self, solver, M):
        self.solve = common.optional_module("lssvm_analysis.analysis.model_error").solve_exact_model
        info, X, y, kw, self.fit = _float64_fit(solver, M)
        self.args = (info, X, y, kw)

    def _exact(self):
        info, X, y, kw = self.args
        return self.solve(info.exact_model(X, y, self.fit, **kw))

    def time_exact_model(self, solver, M):
        self._exact()

    def track_exact_digits(self, solver, M):
        """Certified digits of the exact model (formation and solve both counted)."""
        return common.round_to(self._exact().digits)

    track_exact_digits.unit = "digits"


class EscalatedExactModel(common.OneShot):
    """The escalated route (precision escalation) at the kappa ladder's size, n = 30.

    ``time_escalated_exact_model``: the problem formed again in arb balls at 256 bits (the
    bits the ladder's top rungs take: ``escalation_bits`` of kappa(H) ~1e35 at 18 digits) and
    certified; ``time_dd_exact_model`` the hook's DD route on the same fit, for the ratio.
    Solvers whose hook has no ``wider`` route are skipped (since issue 24's last round every
    family with an exact model has one: the dense ones by ``formation.lssvm_system_balls``).
    """

    params = [_exact_names(), [30]]
    param_names = ["solver", "M"]
    timeout = 120
    repeat = (1, 10, 2.0)
    min_run_count = 1

    def setup(self, solver, M):
        self.model_error = common.optional_module("lssvm_analysis.analysis.model_error")
        info, X, y, kw, fit = _float64_fit(solver, M)
        self.problem = info.exact_model(X, y, fit, **kw)
        if getattr(self.problem, "wider", None) is None:
            raise NotImplementedError(f"{solver}'s exact model has no escalated route")

    def time_escalated_exact_model(self, solver, M):
        self.model_error.solve_exact_model(self.problem.wider(256))

    def time_dd_exact_model(self, solver, M):
        self.model_error.solve_exact_model(self.problem)
