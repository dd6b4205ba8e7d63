"""Task kinds of Suykens' section of the report, registered at import (workers import this module).

Each kind is a module-level ``row(task) -> dict`` of JSON scalars (arrays
are stored as JSON text, :mod:`.arrays`).

Kinds
-----
``kkt-condition``   kappa of the KKT matrix, of H and of diag(s, H) at one gamma.
``cg-iterations``   CG iterations on H eta = y, H nu = 1 against (3.27).
``pruning-path``    Suykens' pruning path (#SV, error) on a data set.
"""
from __future__ import annotations

import numpy as np

from ...analysis import conditioning as cond
from ...solvers import fit
from ...experiments.arrays import dumps
from ...experiments.kinds import raw_task_data, register_task_kind, validate_no_solver

__all__ = ["KINDS", "kkt_condition_row", "cg_iterations_row", "pruning_path_row"]

NAN = float("nan")


def kkt_condition_row(task) -> dict:
    ds = raw_task_data(task)
    df = cond.kkt_condition(ds.X_train, sigma2=task.params["sigma2"], C_grid=[task.params["C"]],
                            precision=task.precision or "float64")
    return {k: (v.item() if isinstance(v, np.generic) else v) for k, v in df.iloc[0].items()
            if k not in ("C", "precision")}


def cg_iterations_row(task) -> dict:
    ds = raw_task_data(task)
    out = cond.cg_iterations(ds.X_train, ds.y_train, sigma2=task.params["sigma2"],
                             C=task.params["C"], precision=task.precision)
    out.pop("C")
    out.pop("precision")
    return out


def pruning_path_row(task) -> dict:
    """The whole path of ``lssvm-pruned`` (Suykens §3.7) on the test set, as JSON arrays.

    The index is the MSE on the data set's test part; the task's ``rtol`` (a
    grid value) is set large by the report so the path runs down to
    ``min_support`` and shows where Suykens' rule (stop at the first rise,
    rtol = 0) would have stopped.
    """

    ds = raw_task_data(task)
    f = fit("lssvm-pruned", ds.X_train, ds.y_train, precision=task.precision,
            validation=(ds.X_test, ds.y_test), **task.params)
    h = f.history
    n_sv = np.asarray(h.get("n_support", []), dtype=float)
    err = np.asarray(h.get("index", []), dtype=float)
    rises = np.nonzero(err[1:] > np.minimum.accumulate(err)[:-1])[0] if len(err) > 1 else []
    stop = int(n_sv[rises[0]]) if len(rises) else (int(n_sv[-1]) if len(n_sv) else -1)
    mae = float(np.mean(np.abs(f.predict(ds.X_test) - ds.y_test))) if f.ok else NAN
    row = {"status": f.status, "path_n_support": dumps(n_sv), "path_mse": dumps(err),
           "suykens_stop_n_support": stop, "final_n_support": f.n_support,
           "final_test_mae": mae, "M": int(len(ds.y_train)),
           "stop_reason": str(f.diagnostics.get("stop_reason", ""))}
    if not task.dataset_kw.get("noise_std"):
        row.update(_tuned_at(ds, task, keep=min(FIG39_SV, max(2, len(ds.y_train) // 2))))
    return row


#: Fig. 3.9's pruned fit: 50 support vectors (of 500; the sinc's shape, not N, sets how many it needs).
FIG39_SV = 50
#: Fig. 3.9 is an existence figure (some (γ, σ) gives the 50-SV fit): the small grid tuned before judging it.
TUNE_C = (1e2, 1e3, 1e4)
TUNE_SIGMA2 = (0.5, 1.0)


def _tuned_at(ds, task, *, keep: int) -> dict:
    """The pruned fit at ``keep`` support vectors (the figure's 50, at most N/2) at the (γ, σ²) of
    :data:`TUNE_C` × :data:`TUNE_SIGMA2` with the smallest MSE on the first half of the test part; its MSE on
    the second half (not used to choose), so the choice does not flatter the number judged."""
    Xt, yt = ds.X_test, ds.y_test
    h = len(yt) // 2
    best = None
    for C in TUNE_C:
        for s2 in TUNE_SIGMA2:
            f = fit("lssvm-pruned", ds.X_train, ds.y_train, precision=task.precision, C=C, sigma2=s2,
                    kernel="rbf", rtol=1e12, min_support=keep, validation=(Xt[:h], yt[:h]))
            if not f.ok:
                continue
            e = (f.predict(Xt) - yt) ** 2
            cand = (float(np.mean(e[:h])), C, s2, int(f.n_support), float(np.mean(e[h:])))
            best = cand if best is None or cand[0] < best[0] else best
    if best is None:
        return {"tuned_status": "breakdown"}
    return {"tuned_status": "ok", "tuned_C": best[1], "tuned_sigma2": best[2], "tuned_n_support": best[3],
            "tuned_select_mse": best[0], "tuned_mse": best[4], "tuned_grid": dumps(np.array(
                [len(TUNE_C), len(TUNE_SIGMA2)], dtype=float))}


KINDS = {
    "kkt-condition": (kkt_condition_row, validate_no_solver),
    "cg-iterations": (cg_iterations_row, validate_no_solver),
    "pruning-path": (pruning_path_row, validate_no_solver),
}

for _name, (_func, _val) in KINDS.items():
    # pruning-path 2: the tuned 50-SV fit of Fig. 3.9 (S-sinc-prune) on noiseless data
    register_task_kind(_name, _func, validate=_val, version=2 if _name == "pruning-path" else 1)
