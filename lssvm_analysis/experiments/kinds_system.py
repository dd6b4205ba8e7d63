"""Task kind ``system-spectrum``: eigen/singular values and kappa_2 of the system any
registered solver forms (the report's appendix), registered at import.

Like kind "fit", a solver gets only the grid keys it takes, on data sets of
its task.
"""
from __future__ import annotations

import numpy as np

from ..linalg.condition import kappa2
from ..arith.precision import get_precision
from ..solvers import fit, get_solver
from .arrays import dumps
from .fit_kind import accepts_combination, fit_keywords, load_task_data, select_solver_params
from .kinds import register_task_kind, validate_registry_names

__all__ = ["system_spectrum_row"]


def system_spectrum_row(task) -> dict:
    """Eigen- (symmetric) or singular values of the system ``task.solver`` formed, and kappa_2.

    The fit runs in ``task.precision`` with the task's parameters; the
    registry's ``system`` builder gives the matrix exactly as the solver formed
    it, whose spectrum is computed in float64 (the matrix rounded to float64;
    kappa_2 escalated to mp where float64 cannot resolve it, n <= 200).
    """
    info = get_solver(task.solver)
    ds = load_task_data(task)
    params = fit_keywords(task, ds)  # the fit rows' keywords and draws (e.g. support)
    f = fit(task.solver, ds.X_train, ds.y_train, precision=task.precision, **params)
    which = {"paper": info.paper, "configuration": info.configuration_label(
        {o: params.get(o, v) for o, v in info.default_variant().items()})}
    if not f.ok:  # a breakdown is a row of its solver configuration too
        return {"status": f.status, "message": f.breakdown.describe() if f.breakdown else f.status, **which}
    A = info.system(ds.X_train, ds.y_train, f, **params)[0]
    A64 = get_precision(task.precision).to_float64(A)
    symmetric = bool(np.array_equal(A64, A64.T))
    w = np.linalg.eigvalsh(A64) if symmetric else np.linalg.svd(A64, compute_uv=False)
    k = kappa2(A)
    return {"n": int(A64.shape[0]), "symmetric": symmetric, "n_negative": int(np.sum(w < 0)),
            "spectrum": dumps(np.sort(np.abs(w))[::-1]), "kappa2": k.value, "kappa_method": k.method,
            "kappa_resolved": k.resolved, **which}


def _spectrum_validate(spec):
    validate_registry_names(spec)
    for name in spec.solvers:
        if get_solver(name).system is None:
            raise ValueError(f"expected solvers with a system builder for kind 'system-spectrum', "
                             f"got solver {name!r} (it forms no single linear system)")


# like kind "fit": a solver gets only the grid keys it takes, on data sets of its task
register_task_kind("system-spectrum", system_spectrum_row, validate=_spectrum_validate, version=3,
                   select_params=select_solver_params, accepts=accepts_combination, replace=True)
