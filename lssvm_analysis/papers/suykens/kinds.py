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
    return {"status": f.status, "path_n_support": dumps(n_sv), "path_mse": dumps(err),
            "suykens_stop_n_support": stop, "final_n_support": f.n_support,
            "final_test_mae": mae, "M": int(len(ds.y_train)),
            "stop_reason": str(f.diagnostics.get("stop_reason", ""))}


KINDS = {
    "kkt-condition": (kkt_condition_row, validate_no_solver),
    "cg-iterations": (cg_iterations_row, validate_no_solver),
    "pruning-path": (pruning_path_row, validate_no_solver),
}

for _name, (_func, _val) in KINDS.items():
    register_task_kind(_name, _func, validate=_val)
