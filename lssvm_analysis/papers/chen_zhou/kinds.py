"""Task kind of the Chen & Zhou section: one robust/sparse fit under an outlier protocol.

``cz-fit``: load the data set, optionally pool train + test and re-split
2/3 - 1/3 (``options["resplit"]``, Pendigits / Satimage), keep two classes
(``options["classes"]``, coded +1 / -1), scale the inputs on the final
training part (``options["scale"]``: ``"minmax"`` maps every attribute of
the training part onto [-1, 1], Chen & Zhou §5.1 and §5.2; load the set with
``scale=None`` then, so that nothing is scaled twice), inject the §5 outliers
into the training part only (classification: ``options["rate"]`` rho,
flipping a third of the 3 rho points farthest from an LS-SVM reference
boundary trained on the clean data with the row's C and sigma2; regression:
``options["target_noise"]``, N(0, (|mean y|/2)^2) on 10 % of the targets),
fit ``task.solver`` with the keywords it accepts (a grid key ``"<name>@<solver>"`` is that
solver's own value of ``<name>``: Table 1 prints C-SVC's m lambda and sigma on a row of their own,
while ``C`` and ``sigma2`` stay the table's LS-SVM values, which place the outliers of every row
of a seed; :func:`own_params`), and record test accuracy
or RMSE, the support counts, iterations, rank (and the trace of K - P P^T
it left), the points the robust loss truncates at the end, and wall time.  Regression with
``options["tau_scale"] = "target-mad"``: tau is in units of the training targets' robust scale
(:func:`target_scale`), since the paper's tau belongs to its own targets' scale.  For SR- and
PCP-LSSVM the error of the model as printed (f = sum beta_k k + b, without 1/(m lambda)) is
recorded beside the corrected one; ``options["optimal_trace"]`` (float64 rows) adds the trace
error of the best rank-r approximation of K.  Per phase of the fit its wall time (``time_<phase>``);
``options["measure_peak"]``: the peak of the memory traced during the fit (``peak_bytes``, tracemalloc,
numpy's allocations).  With injected outliers: ``n_outliers``; for a fit with coefficients on every
training point the AUC of |alpha| outliers against clean points (``alpha_auc``) and the share of outliers
above the clean median (``alpha_out_above_median``); for SR-LSSVM and R-LSSVM-W the outliers and clean
points whose final training residual exceeds tau (``trunc_outliers``, ``trunc_clean``: weight 0 in (13)).

Memory is an outcome, not a crash.  Every fit is checked before it starts
against its solver's registered peak (``SolverInfo.peak``, the figure the
asv ``peakmem_`` benchmarks and ``tests/test_peak_memory.py`` measure):
against ``options["memory_budget_gib"]`` when given (the machine the run
mimics, e.g. the 8 GB of Chen & Zhou's PC: the same verdict on every
machine), then against the memory available now (in a sweep, a fit of more than 1/8 of the
machine's memory first waits for the machine-wide lock of ``linalg.memory.memory_scope`` and is
compared with the available memory less that eighth).  A fit that does not fit, or whose solver raises
:class:`~lssvm_analysis.core.exceptions.InsufficientMemoryError` itself, is a
row with status ``"skipped-memory"``, the message, ``bytes_needed`` and
``bytes_available`` (the budget or the free memory, whichever refused); it is
not retried as an error would be.
"""
from __future__ import annotations

import time
import tracemalloc
import warnings

import numpy as np
import scipy.stats

from ... import datasets
from ...core.exceptions import InsufficientMemoryError
from ...core.memo import Memo, json_key
from ...linalg.memory import estimate_bytes
from ...datasets.chen_zhou import lssvm_reference_decision
from ...solvers import fit, get_solver
from ...solvers.nystrom import decision_values
from ...experiments.kinds import raw_task_data, register_task_kind
from ...experiments.seeding import with_task_rng

__all__ = ["SKIPPED_MEMORY", "check_dense_memory", "cz_fit_row", "own_params", "target_scale"]

#: Row status of a fit left out because its dense arrays do not fit the memory (budget).
SKIPPED_MEMORY = "skipped-memory"
_GIB = 2 ** 30


def _pooled(X, y, Xt, yt, o, rng, task_kind):
    """Pool train + test, keep ``o["classes"]``, re-split floor(resplit N) / rest at random."""
    Xa, ya = np.vstack([X, Xt]), np.concatenate([y, yt])
    if task_kind == "classification" and o.get("classes"):
        keep = np.isin(ya, [float(c) for c in o["classes"]])
        Xa, ya = Xa[keep], ya[keep]
    perm = rng.permutation(len(ya))
    n = int(len(ya) * float(o["resplit"]))
    return Xa[perm[:n]], ya[perm[:n]], Xa[perm[n:]], ya[perm[n:]]


#: The data of the last tasks of this worker process: a sweep's solvers share each seed's data, and
#: its clean-data LS-SVM that places the outliers (a dense fit as costly as the row's own at m = 2000).
_DATA_MEMO = Memo(max_entries=8)


def _data(task):
    """(task kind, X, y, X_test, y_test, outliers) after re-split, class choice, scaling and outliers
    (``outliers``: the sorted training rows the protocol changed; empty without outliers).

    Memoized on what it reads (data set, its options, seed, the task's options, C and sigma2 of
    the reference boundary): the arrays are returned read-only, as the data set's own are.
    """
    P = task.params
    key = json_key([task.dataset, task.dataset_kw, task.seed, task.options, P.get("C", 1.0),
                    P.get("sigma2", 1.0)])
    return _DATA_MEMO.get(key, lambda: _readonly(_make_data(task)))


def _readonly(data):
    for a in data[1:]:
        a.setflags(write=False)
    return data


def _make_data(task):
    ds = raw_task_data(task)
    o, P = task.options, task.params
    X, y, Xt, yt = ds.X_train, ds.y_train, ds.X_test, ds.y_test
    out_idx = np.asarray(ds.outlier_indices if ds.outlier_indices is not None else [], dtype=np.intp)
    rng = np.random.default_rng([int(task.seed), 11])
    if o.get("resplit"):
        X, y, Xt, yt = _pooled(X, y, Xt, yt, o, rng, ds.task)
    if ds.task == "classification":
        pos = float(o["classes"][0]) if o.get("classes") else float(np.max(y))
        if o.get("classes"):
            kt, kte = np.isin(y, [float(c) for c in o["classes"]]), np.isin(yt, [float(c) for c in o["classes"]])
            X, y, Xt, yt = X[kt], y[kt], Xt[kte], yt[kte]
        y, yt = np.where(y == pos, 1.0, -1.0), np.where(yt == pos, 1.0, -1.0)
    if o.get("resplit") or o.get("classes"):  # the set's own outlier rows (if any) no longer index X
        out_idx = np.asarray([], dtype=np.intp)
    if o.get("scale"):  # on the final training part: the test part may leave [-1, 1] slightly
        scaler = datasets.fit_scaler(X, o["scale"])
        X, Xt = scaler.transform(X), scaler.transform(Xt)
    if ds.task == "classification":
        rate = float(o.get("rate", 0.0))
        if rate > 0:
            f = lssvm_reference_decision(X, y, C=P.get("C", 1.0), sigma2=P.get("sigma2", 1.0))
            c = datasets.inject_label_outliers(X, y, seed=rng, decision_function=f, rate=rate)
            y, out_idx = c.y, np.asarray(c.indices, dtype=np.intp)
    elif o.get("target_noise"):
        c = datasets.inject_target_outliers(y, seed=rng)
        y, out_idx = c.y, np.asarray(c.indices, dtype=np.intp)
    return ds.task, X, y, Xt, yt, out_idx


def check_dense_memory(solver: str, m: int, precision: str, options, params=None) -> None:
    """Raise InsufficientMemoryError if ``solver``'s registered peak at m points exceeds the memory (budget).

    Parameters
    ----------
    solver : str
    m : int
        Training points.
    precision : str
    options : mapping
        ``memory_budget_gib`` (optional): the budget of the machine the run mimics.
    params : mapping, optional
        The fit's parameters: the peak's second size (``n_support``, ...) where it has one.

    Raises
    ------
    InsufficientMemoryError
        From :meth:`~lssvm_analysis.linalg.memory.PeakMemory.ensure` (the memory
        available now), or with ``bytes_available`` = the budget.
    """
    peak = get_solver(solver).peak
    r = int((params or {}).get(peak.r) or 0) if peak.r else 0
    need, budget = estimate_bytes(peak.words(m, precision, r=r), precision), options.get("memory_budget_gib")
    what = f"{solver} (registered peak: {peak.measured or 'measured'})"
    if budget is not None and need > float(budget) * _GIB:  # first: the same verdict on every machine
        raise InsufficientMemoryError(
            f"{what} with n={m} in {precision} needs about {need / _GIB:.3g} GiB ({need} bytes) at its "
            f"peak, over the run's budget of {float(budget):g} GiB",
            n=int(m), precision=str(precision), bytes_needed=int(need),
            bytes_available=int(float(budget) * _GIB))
    peak.ensure(m, precision, what=what, r=r)


def _skipped(m, exc) -> dict:
    return {"status": SKIPPED_MEMORY, "message": str(exc), "m": int(m), "fit_status": SKIPPED_MEMORY,
            "time_fit": np.nan, "accuracy": np.nan, "rmse": np.nan,
            "bytes_needed": int(exc.bytes_needed), "bytes_available": int(exc.bytes_available)}


def target_scale(y) -> float:
    """The robust scale of the observed training targets, 1.4826 MAD (the sd for Gaussian targets).

    Chen & Zhou's tau is a residual size: with targets of another scale than the paper's it must
    follow them (``options["tau_scale"] = "target-mad"``: tau_used = tau x this).  The median
    absolute deviation ignores the 10 % outliers the protocol injects, which the sd would not.
    """
    y = np.asarray(y, dtype=float)
    return float(1.4826 * np.median(np.abs(y - np.median(y))))


def _optimal_trace(f, X, rank) -> float:
    """Sum of the eigenvalues of K beyond the ``rank`` largest: the trace error of the best rank-r PSD
    approximation (Eckart-Young-Mirsky in the trace norm), float64 eigvalsh of the formed K."""
    K = np.asarray(f.kernel(X, X), dtype=float)
    lam = np.sort(np.linalg.eigvalsh((K + K.T) / 2))[::-1]
    return float(np.sum(np.clip(lam[int(rank):], 0.0, None)))


def _literal(f, fx, C, kind, yt) -> dict:
    """The printed model f = sum beta_k k(x_k, x) + b (beta = alpha / C, the factor 1/(m lambda) dropped).

    For R-LSSVM-W/-Y ``coef_`` = C beta of eq. (6), so this is eq. (6)'s model as printed; for SR- and
    PCP-LSSVM it is the same rule applied to their alpha."""
    lit = (fx - float(f.bias_)) / float(C) + float(f.bias_)
    if kind == "classification":
        return {"accuracy_literal": float(np.mean(np.where(lit >= 0, 1.0, -1.0) == yt))}
    return {"rmse_literal": float(np.sqrt(np.mean((lit - yt) ** 2)))}


#: Solvers whose training residuals are compared with tau (the truncation set, claim C-outlier-weight0).
_TRUNCATING = ("sr-lssvm", "r-lssvm-w")
#: Solvers whose printed model (eq. (6), f = sum beta k + b) is scored beside the corrected one.
_LITERAL = ("sr-lssvm", "pcp-lssvm", "r-lssvm-w", "r-lssvm-y")


def _outlier_columns(task, f, X, y, out_idx, tau) -> dict:
    """Where the injected outliers stand: |alpha| of a full-support fit against the clean points
    (AUC, Mann-Whitney; share of outliers above the clean median) and, for the truncating solvers,
    how many outliers / clean points end with |xi| > tau (weight 0 in (13))."""
    m = len(y)
    if not len(out_idx) or f.coef_ is None:
        return {}
    out = np.zeros(m, dtype=bool)
    out[out_idx] = True
    row = {"n_outliers": int(out.sum())}
    if len(f.support_) == m and np.array_equal(np.asarray(f.support_), np.arange(m)):
        a = np.abs(np.asarray([float(c) for c in f.coef_]))
        ao, ac = a[out], a[~out]
        ranks = scipy.stats.rankdata(np.concatenate([ao, ac]))
        row["alpha_auc"] = float((ranks[:len(ao)].sum() - len(ao) * (len(ao) + 1) / 2) / (len(ao) * len(ac)))
        row["alpha_out_above_median"] = float(np.mean(ao > np.median(ac)))
    if task.solver in _TRUNCATING and np.isfinite(tau):
        xi = np.abs(y - decision_values(f, X))
        row["trunc_outliers"] = int(np.count_nonzero(xi[out] > tau))
        row["trunc_clean"] = int(np.count_nonzero(xi[~out] > tau))
    return row


#: Separator of a solver's own grid value: ``"C@svm-c"`` is svm-c's C.
OWN = "@"


def own_params(solver, params: dict) -> dict:
    """The grid values a ``cz-fit`` task of ``solver`` keeps: every key but other solvers' own values.

    ``"<name>@<solver>"`` is kept only for that solver, so the other solvers' tasks (and their keys)
    are those of a grid without it.
    """
    return {k: v for k, v in params.items() if OWN not in k or k.split(OWN, 1)[1] == solver}


def _fit_params(solver, params) -> dict:
    """The keywords of the fit: the row's values, with the solver's own ``<name>@<solver>`` in place."""
    out = {k: v for k, v in params.items() if OWN not in k}
    out.update({k.split(OWN, 1)[0]: v for k, v in params.items() if k.endswith(OWN + solver)})
    return out


def cz_fit_row(task) -> dict:
    """One fit: accuracy / RMSE, #SV, iterations, rank, time (see the module docstring)."""

    kind, X, y, Xt, yt, out_idx = _data(task)
    info = get_solver(task.solver)
    params = with_task_rng(task.solver, task, {k: v for k, v in _fit_params(task.solver, task.params).items()
                                               if info.accepts(k)})
    if kind == "regression" and "tau" in params and task.options.get("tau_scale") == "target-mad":
        params["tau"] = float(params["tau"]) * target_scale(y)
    if info.accepts("task"):
        params["task"] = kind
    if "n_support" in info.params and "r_fraction" in task.options and "n_support" not in params:
        params["n_support"] = max(1, min(len(y), int(float(task.options["r_fraction"]) * len(y))))
    try:
        check_dense_memory(task.solver, len(y), task.precision, task.options, params)
        peak = bool(task.options.get("measure_peak"))
        if peak:
            tracemalloc.start()
        t0 = time.perf_counter()
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                f = fit(task.solver, X, y, precision=task.precision, **params)
            wall = time.perf_counter() - t0
        finally:
            peak_bytes = tracemalloc.get_traced_memory()[1] if peak else np.nan
            if peak:
                tracemalloc.stop()
    except InsufficientMemoryError as exc:  # the package's check or the run's budget: data
        return _skipped(len(y), exc)
    row = {"m": len(y), "fit_status": f.status, "time_fit": wall, "iterations": f.iterations,
           "n_sv": f.n_support, "rank": f.diagnostics.get("rank", np.nan),
           "rank_stop": f.diagnostics.get("rank_stop", ""),
           "n_significant": f.diagnostics.get("n_significant", f.n_support),
           "n_exact_zeros": f.diagnostics.get("n_exact_zeros", 0), "accuracy": np.nan, "rmse": np.nan,
           "pred_gap_nystrom": np.nan, "n_truncated": f.diagnostics.get("n_truncated", np.nan),
           "trace_residual": f.diagnostics.get("trace_residual", np.nan), "tau_used": params.get("tau", np.nan),
           "peak_bytes": peak_bytes, **{f"time_{k}": float(v) for k, v in f.timings.items()}}
    if task.options.get("optimal_trace") and task.precision == "float64" and np.isfinite(row["rank"]):
        row["trace_residual_optimal"] = _optimal_trace(f, X, row["rank"])
    if f.coef_ is None:
        return row
    row.update(_outlier_columns(task, f, X, y, out_idx, float(params.get("tau", np.nan))))
    fx = decision_values(f, Xt)  # the kernel expansion; also the last iterate of a not-converged fit
    if task.solver in ("sr-lssvm", "pcp-lssvm"):
        row["pred_gap_nystrom"] = float(np.max(np.abs(fx - decision_values(f, Xt, feature_map=True))))
    if task.solver in _LITERAL:
        row.update(_literal(f, fx, params["C"], kind, yt))
    if f.kernel.name == "linear" and X.shape[1] == 2:  # Fig. 3 decision line w.x + b = 0
        w = np.asarray(f.X_support_).T @ np.asarray([float(c) for c in f.coef_])
        row.update(w1=float(w[0]), w2=float(w[1]), b=float(f.bias_))
    if kind == "classification":
        row["accuracy"] = float(np.mean(np.where(fx >= 0, 1.0, -1.0) == yt))
    else:
        row["rmse"] = float(np.sqrt(np.mean((fx - yt) ** 2)))
    return row


# version 2: options["scale"] (inputs scaled after the re-split), "skipped-memory" rows; 3: fs-lssvm
# draws from the task seed; 4: options["tau_scale"], tau_used, the printed model's error
# (rmse/accuracy_literal) and options["optimal_trace"] (issue 20); 5: time_<phase>, options["measure_peak"]
# (peak_bytes, tracemalloc), the outliers' |alpha| AUC and truncation counts, eq. (6)'s printed model for
# R-LSSVM-W/-Y (issue 31)
# (own_params: the "<name>@<solver>" keys are new, so no stored row changes and the version stays)
register_task_kind("cz-fit", cz_fit_row, version=5, select_params=own_params,
                   measurements=("peak_bytes",))  # tracemalloc: varies run to run
