"""Task kind of the Chen & Zhou section: one robust/sparse fit under an outlier protocol.

``cz-fit``: load the data set, optionally pool train + test and re-split
2/3 - 1/3 (``options["resplit"]``, Pendigits / Satimage), keep two classes
(``options["classes"]``, coded +1 / -1), inject the §5 outliers into the
training part only (classification: ``options["rate"]`` rho, flipping a
third of the 3 rho points farthest from an LS-SVM reference boundary trained
on the clean data with the row's C and sigma2; regression:
``options["target_noise"]``, N(0, (|mean y|/2)^2) on 10 % of the targets),
fit ``task.solver`` with the keywords it accepts, and record test accuracy
or RMSE, the support counts, iterations, rank and wall time.
"""
from __future__ import annotations

import time
import warnings

import numpy as np

from .. import datasets
from ..datasets.chen_zhou import lssvm_reference_decision
from ..solvers import fit, get_solver
from ..solvers.chen_zhou import decision_values
from .kinds import register_task_kind

__all__ = ["cz_fit_row"]


def _data(task):

    ds = datasets.load(task.dataset, seed=task.seed, **task.dataset_kw)
    o, P = task.options, task.params
    X, y, Xt, yt = ds.X_train, ds.y_train, ds.X_test, ds.y_test
    rng = np.random.default_rng([int(task.seed), 11])
    if o.get("resplit"):
        Xa, ya = np.vstack([X, Xt]), np.concatenate([y, yt])
        if ds.task == "classification" and o.get("classes"):
            keep = np.isin(ya, [float(c) for c in o["classes"]])
            Xa, ya = Xa[keep], ya[keep]
        perm = rng.permutation(len(ya))
        n = int(len(ya) * float(o["resplit"]))
        X, y, Xt, yt = Xa[perm[:n]], ya[perm[:n]], Xa[perm[n:]], ya[perm[n:]]
    if ds.task == "classification":
        pos = float(o["classes"][0]) if o.get("classes") else float(np.max(y))
        if o.get("classes"):
            kt, kte = np.isin(y, [float(c) for c in o["classes"]]), np.isin(yt, [float(c) for c in o["classes"]])
            X, y, Xt, yt = X[kt], y[kt], Xt[kte], yt[kte]
        y, yt = np.where(y == pos, 1.0, -1.0), np.where(yt == pos, 1.0, -1.0)
        rate = float(o.get("rate", 0.0))
        if rate > 0:
            f = lssvm_reference_decision(X, y, C=P.get("C", 1.0), sigma2=P.get("sigma2", 1.0))
            y = datasets.inject_label_outliers(X, y, seed=rng, decision_function=f, rate=rate).y
    elif o.get("target_noise"):
        y = datasets.inject_target_outliers(y, seed=rng).y
    return ds.task, X, y, Xt, yt


def cz_fit_row(task) -> dict:
    """One fit: accuracy / RMSE, #SV, iterations, rank, time (see the module docstring)."""

    kind, X, y, Xt, yt = _data(task)
    info = get_solver(task.solver)
    params = {k: v for k, v in task.params.items() if info.accepts(k)}
    if info.accepts("task"):
        params["task"] = kind
    if "n_support" in info.params and "r_fraction" in task.options and "n_support" not in params:
        params["n_support"] = max(1, min(len(y), int(float(task.options["r_fraction"]) * len(y))))
    t0 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        f = fit(task.solver, X, y, precision=task.precision, **params)
    wall = time.perf_counter() - t0
    row = {"m": int(len(y)), "fit_status": f.status, "time_fit": wall, "iterations": f.iterations,
           "n_sv": f.n_support, "rank": f.diagnostics.get("rank", np.nan),
           "rank_stop": f.diagnostics.get("rank_stop", ""),
           "n_significant": f.diagnostics.get("n_significant", f.n_support),
           "n_exact_zeros": f.diagnostics.get("n_exact_zeros", 0), "accuracy": np.nan, "rmse": np.nan,
           "pred_gap_nystrom": np.nan}
    if f.coef_ is None:
        return row
    fx = decision_values(f, Xt)  # the kernel expansion; also the last iterate of a not-converged fit
    if task.solver in ("sr-lssvm", "pcp-lssvm"):
        row["pred_gap_nystrom"] = float(np.max(np.abs(fx - decision_values(f, Xt, feature_map=True))))
    if f.kernel.name == "linear" and X.shape[1] == 2:  # Fig. 3 decision line w.x + b = 0
        w = np.asarray(f.X_support_).T @ np.asarray([float(c) for c in f.coef_])
        row.update(w1=float(w[0]), w2=float(w[1]), b=float(f.bias_))
    if kind == "classification":
        row["accuracy"] = float(np.mean(np.where(fx >= 0, 1.0, -1.0) == yt))
    else:
        row["rmse"] = float(np.sqrt(np.mean((fx - yt) ** 2)))
    return row


register_task_kind("cz-fit", cz_fit_row)
