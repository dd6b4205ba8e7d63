"""Task kinds of the Zhao & Sun study (reduced LSSVR, RR-LSSVR); registered at import.

Kinds
-----
``zs-error-growth``   one rr-lssvr run (solver x precision x update); for every
                      step k the digits of theta_{S_k} against the certified
                      reference of the very H_{S_k} the recursion bordered
                      (``rr_step_system`` + ``reference_solve``), its certified
                      kappa, the drift against a fresh Cholesky and the objective.
``zs-ridge``          one reduced-lssvr run (precision x ridge rule x C x |S|):
                      status, whether the ridge was applied / changed H, the
                      excess of objective (6) over a longdouble least-squares
                      minimiser, and (float64) cond(H) formed, cond(M) of the
                      stacked matrix.
``zs-greedy-random``  greedy against random support sets at equal |S| on a
                      data set: test RMSE along the greedy path (theta_path,
                      one run) and of random reduced LSSVRs at a few sizes,
                      with the full LS-SVM beside them.

Rows hold JSON scalars; arrays are JSON text (``arrays.dumps``).
"""
from __future__ import annotations

import math

import numpy as np

from .. import datasets
from ..analysis.measures import correct_digits, forward_error
from ..analysis.reference import reference_solve
from ..core.exceptions import ReferenceAccuracyError
from ..core.memo import Memo, json_key
from ..arith.precision import get_precision
from ..solvers import fit
from ..solvers.zhao_sun_recursive import rr_step_system
from ..solvers.kkt import formed_kappa, support_system
from .kinds import register_task_kind
from .arrays import dumps
from .seeding import with_task_rng

__all__ = ["error_growth_row", "ridge_row", "greedy_random_row", "support_sizes", "objective_ld"]

NAN = float("nan")


def _train(task):
    ds = datasets.load(task.dataset, seed=task.seed, **task.dataset_kw)
    return ds


# --------------------------------------------------------------------------- #
# error growth of the recursion
# --------------------------------------------------------------------------- #
def _step_digits(X, y, f, p):
    digits, conds = [], []
    want = max(30, math.ceil(p.digits) + 15)
    for k, th in enumerate(f.diagnostics["theta_path"]):
        A, c = rr_step_system(X, y, f, k)
        try:
            ref = reference_solve(A, c, digits=want)
        except ReferenceAccuracyError:
            digits.append(NAN), conds.append(NAN)
            continue
        fe = forward_error(th, ref.x, precision=p).value
        digits.append(correct_digits(fe) if np.isfinite(fe) else 0.0)
        conds.append(float(ref.cond_estimate))
    return np.array(digits), np.array(conds)


def error_growth_row(task) -> dict:
    """Digits of theta_{S_k} step by step against the certified reference of H_{S_k}."""
    ds = _train(task)
    X, y = ds.X_train, ds.y_train
    p = get_precision(task.precision)
    params = with_task_rng(task.solver, task, {**task.params, "tol": 0.0, "drift": True})
    f = fit(task.solver, X, y, precision=p.name, **params)
    digits, conds = _step_digits(X, y, f, p)
    half = p.digits / 2
    below = np.flatnonzero(digits < half)
    dg = f.diagnostics
    return {"n_train": len(y), "unit_roundoff": p.unit_roundoff, "precision_digits": p.digits,
            "n_selected": f.n_support, "stop_reason": dg["stop_reason"],
            "digits": dumps(digits), "cond": dumps(conds),
            "stable_digits": dumps(-np.log10(np.maximum(conds * p.unit_roundoff, 1e-300))),
            "drift_theta": dumps(dg["drift_theta"]), "drift_operator": dumps(dg["drift_operator"]),
            "objective": dumps(dg["objective"]), "order": dumps(f.support_),
            "n_guard_skips": dg["n_guard_skips"], "nonpositive_schur": dg["nonpositive_schur_total"],
            "half_digits_step": int(below[0]) if len(below) else -1,
            "final_digits": float(digits[-1])}


# --------------------------------------------------------------------------- #
# the ridge rule and the conditioning of (7)
# --------------------------------------------------------------------------- #
def objective_ld(X, y, S, kernel, C, bias, coef):
    """Objective (6) at (b, alpha) on support S, evaluated in mp50 from the exact coefficients.

    (6) = (C/2) ||M theta - [d; 0]||^2 suffers cancellation when alpha is large (|alpha|^T K |alpha|
    >> (6) for an ill-conditioned H), so it is evaluated with 50 digits: float32, float64 and
    longdouble coefficients convert exactly, the kernel is computed in mp50.
    """
    q = get_precision("mp50")
    with q.context():
        KS = kernel(X[S], X, precision=q)
        a = q.asarray(np.asarray(coef))
        b = q.asarray(np.asarray([bias]))[0]
        e = q.asarray(y) - b - q.matmul(KS.T, a)
        return float(a @ q.matmul(KS[:, S], a) / 2 + q.scalar(C) * (e @ e) / 2)


def _conditioning(X, y, S, kernel, C):
    """cond_2 of H as formed in float64 and of the stacked M (:func:`kkt.formed_kappa`), ||H||_2."""
    p = get_precision("float64")
    H, _, Z = support_system(X, y, S, kernel, C, p)
    lam, V = np.linalg.eigh(Z[1:, S])
    B = (np.sqrt(np.maximum(lam, 0.0))[:, None] * V.T) / np.sqrt(C)
    M = np.zeros((X.shape[0] + len(S), len(S) + 1))
    M[:X.shape[0]] = Z.T
    M[X.shape[0]:, 1:] = B
    # H formed to be SPD; where rounding made it indefinite, lambda_max / |lambda_min| shows the saturation
    return {"cond_H_formed": formed_kappa(H, definite=True, indefinite="magnitude"),
            "cond_M": formed_kappa(M), "norm_H": float(np.linalg.eigvalsh(H)[-1]), "max_h_ii": float(np.max(np.diag(H)))}


#: (6) at the lstsq minimiser on a support, the same for the three ridge rules of one (C, |S|, seed)
#: when their fits chose the same S: an mp50 Householder least squares each (40 % of an mp50 row).
_REFERENCE_MEMO = Memo(max_entries=8)


def _reference_objective(task, X, y, S, kernel, C, q, kw) -> float:
    """Objective (6) of the lstsq fit in precision q on the support S (memoized on what it reads)."""

    def compute():
        ref = fit("reduced-lssvr", X, y, precision=q.name, support=S, ridge="lstsq", **kw)
        return objective_ld(X, y, S, kernel, C, ref.bias_, ref.coef_)

    key = json_key([task.dataset, task.dataset_kw, task.seed, q.name, repr(kernel), C, kw,
                    [int(i) for i in S]])
    return _REFERENCE_MEMO.get(key, compute)


def ridge_row(task) -> dict:
    """One reduced-lssvr fit: outcome of the ridge rule and excess of (6) over the lstsq minimiser
    in the finer of longdouble and the task's precision (an mp50 fit is not judged by a longdouble one)."""
    ds = _train(task)
    X, y = ds.X_train, ds.y_train
    p = get_precision(task.precision)
    params = dict(task.params)
    f = fit("reduced-lssvr", X, y, precision=p.name, rng=task.seed, **params)
    S = f.support_
    kw = {k: v for k, v in params.items() if k not in ("ridge", "n_support")}
    q = min((get_precision("longdouble"), p), key=lambda r: r.unit_roundoff)
    C = float(params["C"])
    j_ref = _reference_objective(task, X, y, S, f.kernel, C, q, kw)
    dg = f.diagnostics
    row = {"n_train": len(y), "n_support_": len(S), "unit_roundoff": p.unit_roundoff,
           "fit_status": f.status, "ridge_applied": bool(dg.get("ridge_applied", False)),
           "ridge_visible": dg.get("ridge_visible", None), "ridge_value": float(dg.get("ridge", 0.0)),
           "objective_ref": j_ref, "reference_precision": q.name, "excess": NAN}
    if f.ok:
        j = objective_ld(X, y, S, f.kernel, C, f.bias_, f.coef_)
        row["excess"] = (j - j_ref) / j_ref
    row.update(_conditioning(X, y, S, f.kernel, C))
    return row


# --------------------------------------------------------------------------- #
# greedy against random at equal |S|
# --------------------------------------------------------------------------- #
def support_sizes(n_max: int) -> list[int]:
    """1, 2, 5, 10, 20, 40, ... up to n_max (and n_max itself)."""
    out, k = [], 0
    while True:
        for m in (1, 2, 5):
            v = m * 10 ** k
            if v > n_max:
                return sorted(set(out + [n_max]))
            out.append(v)
        k += 1


def _rmse(f, X, y):
    return float(np.sqrt(np.mean((f.predict(X) - y) ** 2)))


def greedy_random_row(task) -> dict:
    """Test RMSE of the greedy path (one rr-lssvr run) and of random support sets at equal |S|."""
    ds = _train(task)
    X, y, Xt, yt = ds.X_train, ds.y_train, ds.X_test, ds.y_test
    params = dict(task.params)
    n_max = int(params.pop("n_max"))
    g = fit("rr-lssvr", X, y, n_support=n_max, tol=0.0, drift=False,
            **with_task_rng("rr-lssvr", task, params))  # candidate draws (n_candidates) from the task seed
    Kt = g.kernel(Xt, X[g.support_])
    path = [float(np.sqrt(np.mean((Kt[:, :m] @ th[1:] + th[0] - yt) ** 2)))
            for m, th in enumerate(g.diagnostics["theta_path"])]
    sizes = [m for m in support_sizes(n_max) if m <= g.n_support]
    rnd = [_rmse(fit("reduced-lssvr", X, y, n_support=m, rng=[task.seed, m], **params), Xt, yt)
           for m in sizes]
    full = fit("lssvm-schur", X, y, **{k: v for k, v in params.items() if k in ("C", "sigma2")})
    return {"n_train": len(y), "n_test": len(yt), "n_selected": g.n_support,
            "stop_reason": g.diagnostics["stop_reason"], "greedy_path_rmse": dumps(path),
            "sizes": dumps(sizes), "random_rmse": dumps(rnd), "full_rmse": _rmse(full, Xt, yt),
            "y_test_std": float(np.std(yt))}


register_task_kind("zs-error-growth", error_growth_row)
register_task_kind("zs-ridge", ridge_row, version=2)  # 2: reference_precision (mp rows)
register_task_kind("zs-greedy-random", greedy_random_row)
