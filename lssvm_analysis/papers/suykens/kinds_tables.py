"""Task kinds of the Suykens ch. 3 benchmark tables (3.3, 3.4, 3.5), registered at import.

``suykens-table-binary``  one method on one randomisation of one binary set:
                          §3.4.2's shrinking grid search by k-fold CV
                          (:func:`lssvm_analysis.tune`) on the
                          training part, then the test accuracy.  For the RBF
                          LS-SVM also the precision reruns at the tuned
                          (gamma, sigma) and, when asked, Table 3.5's pruning.
``suykens-table-multi``   one method and output code (MOC, 1vs1) on one
                          randomisation of one multiclass set: every binary
                          subproblem tuned by CV separately (§3.4.2 "applied
                          to each binary subproblem"), Hamming decoding; for
                          the 1vs1 RBF LS-SVM optionally Table 3.5's pruning
                          per subproblem.  Parameter ``words`` (MOC only): the
                          class -> codeword assignment, an index of
                          ``moc_assignments`` (S-table34's codeword causes).
``suykens-table-reference`` the chapter's reference classifiers (LDA, QDA, Logit,
                          IB1, IB10, NB_n; C4.5 and oneR as stand-ins: an
                          entropy tree and a one-split stump) on one
                          randomisation of one set (binary or multiclass), the
                          same split as the two kinds above.

Parameter mapping: our C = the chapter's gamma, our sigma2 = sigma^2
(k = exp(-||x - z||^2 / sigma^2)), our poly kernel (x^T z + t)^degree has the
chapter's tau as t.  Grids (options): sigma = f sqrt(n) for f in
``sigma_factors`` (Sigma_0), gamma in ``gammas`` (Gamma_0), t = f sqrt(n)
(our choice: the chapter gives no tau grid), ``refinements`` = i_max.

Sharing (issue 43; option ``share``, default True): the closed-form CV of
every search on one training set reads one :class:`~lssvm_analysis.analysis.cv_closed.CVShare`
kept per process for the last training set.  A method and its LS-SVM_F twin on
one split run as one batch (:func:`twin_group`, the engine's
:class:`~lssvm_analysis.experiments.kinds.TaskKind` ``group`` / ``batch``: one
worker, one call), and every search of the batch (each code column of both)
runs degree by degree together (:func:`_run_searches`), so a polynomial
degree's kernels and factorizations are made once and read by every column and
by both twins while the share holds them.  A MOC / ECOC / 1vsA code's columns
are solved together at each (sigma, gamma) (the (N, c) target matrix), 1vs1
subproblems slice their kernels from one kernel per sigma, and the polynomial
degrees' kernels come from one X X^T.  Selections, scores and rows equal the
unshared searches' and each task's alone (tests/test_suykens_sharing.py).  The
share keeps up to :func:`share_bytes` (a quarter of the memory per core).  With
the share, the LIBSVM C-SVC rows (RBF SVM, Lin SVM) are searched on one
precomputed kernel per sigma across C and folds
(:class:`~lssvm_analysis.solvers.baselines.SVCFoldCV`, LIBSVM on the fold's
kernel block), and a point's folds after one stopped at ``svm_max_iter`` are
not fitted (the point scores NaN either way); the rows say ``cv_kernel``
("precomputed", or "libsvm" for the per-fold fits) and count the fits run,
capped and skipped.
"""
from __future__ import annotations

import contextlib
import math
import os
import time
import warnings

import numpy as np
import pandas as pd

from ...analysis.benchmarking import CVSignificanceIndex, grid_search
from ...analysis.conditioning.suykens import kkt_condition
from ...analysis.cv_closed import GRID_CV_BYTES, CVShare
from ...analysis.tuning import GAMMAS, SIGMA_FACTORS
from ...analysis.tuning import tune as la_tune
from ...analysis.validation import SCORINGS, check_folds, skipna_mean
from ...solvers import fit, get_solver
from ...solvers.baselines import SVCFoldCV
from ...solvers.multiclass import MulticlassFit, hamming_decode, make_code, moc_assignments
from ...core.memo import json_key
from ...experiments.kinds import TaskClock, raw_task_data, register_task_kind

__all__ = ["BINARY_METHODS", "MULTI_METHODS", "REFERENCE_METHODS", "SIGMA_FACTORS", "GAMMAS", "tune", "share_for",
           "clear_shares",
           "share_bytes", "SHARE_BYTES_MAX",
           "binary_row", "binary_rows", "multi_row", "multi_rows", "twin_group", "reference_row"]

NAN = float("nan")
#: Table 3.3's LS-SVM and SVM rows: label -> (registry solver, kernel).
BINARY_METHODS = {
    "RBF LS-SVM": ("lssvm-schur", "rbf"), "RBF LS-SVM_F": ("lssvm-fisher", "rbf"),
    "Lin LS-SVM": ("lssvm-schur", "linear"), "Lin LS-SVM_F": ("lssvm-fisher", "linear"),
    "Pol LS-SVM": ("lssvm-schur", "poly"), "Pol LS-SVM_F": ("lssvm-fisher", "poly"),
    "RBF SVM": ("svm-c", "rbf"), "Lin SVM": ("svm-c", "linear"),
}
#: Table 3.4's rows are these methods with each code (label "<method> (<CODE>)").
MULTI_METHODS = BINARY_METHODS


def _axes(kernel, n_inputs, o):
    root = math.sqrt(n_inputs)
    gam = [float(g) for g in o.get("gammas", GAMMAS)]
    sig = [float(f) * root for f in o.get("sigma_factors", SIGMA_FACTORS)]
    if kernel == "rbf":
        return {"sigma2": [s * s for s in sig], "C": gam}
    if kernel == "poly":  # o["tau"]: tau fixed (S-poly-tau's tau = 1)
        return {"t": [float(o["tau"])] if "tau" in o else sig, "gamma": gam}
    return {"C": gam}


def _solver_params(q, degree):
    """Grid point -> solver keywords; poly: (tau, gamma) -> t = tau, C = gamma / tau^degree.

    The chapter's tau acts as a bandwidth: (x^T z / tau + 1)^d with gamma,
    which is our (x^T z + t)^d with t = tau and C = gamma tau^-d (same
    solution; H scales by tau^d), so Gamma_0 keeps its meaning for every tau.
    """
    if degree is None:
        return dict(q)
    return {"t": q["t"], "C": q["gamma"] / q["t"] ** degree, "degree": int(degree)}


def _acc(f, X, y) -> float:
    return float(np.mean(np.where(f.predict(X) >= 0, 1.0, -1.0) == y)) if f.ok else NAN


#: The last training set's CVShare, per process: {key: CVShare} (one entry).
_SHARES: dict = {}
#: Upper bound of :func:`share_bytes` (bytes).
SHARE_BYTES_MAX = 4 * 2 ** 30


def share_bytes() -> int:
    """Bytes a table's :class:`CVShare` may keep: a quarter of the machine's memory per core.

    Why more than ``CVShare``'s default (256 MiB): the searches of a batch (every code column of a
    method and of its LS-SVM_F twin) read a polynomial degree's kernels and factorizations while
    they run that degree together (:func:`_run_searches`), so the share must hold one degree's
    whole set: ~15 values of t (9 initial, 3 refinements) of an N^2 kernel and its 2 N^2 words of
    eigenvectors or Cholesky factor, ~45 N^2 words, 0.85 GiB at ims's N = 1540 (full profile);
    a least-recently-used store smaller than that keeps none that is asked again.  The report runs
    one worker per core (2 workers on 24 GB here): a quarter of the memory per core (2.9 GiB here,
    at most ``SHARE_BYTES_MAX``) holds it with three quarters of the memory left to the rest.
    Never below 256 MiB.
    """
    try:
        phys = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):  # no sysconf (Windows): CVShare's default
        return GRID_CV_BYTES
    return int(min(max(phys // (4 * (os.cpu_count() or 1)), GRID_CV_BYTES), SHARE_BYTES_MAX))


def clear_shares() -> None:
    """Drop this process's :class:`CVShare` (the state of a fresh worker: the next search shares nothing)."""
    _SHARES.clear()


def share_for(task, X, o):
    """The process's :class:`CVShare` of the task's training set ``X`` (a new one for a new set), or
    None when ``o["share"]`` is false.  It keeps ``o["share_bytes"]`` bytes (default :func:`share_bytes`)."""
    if not o.get("share", True):
        return None
    key = json_key([task.dataset, task.seed, task.dataset_kw, task.kind])
    sh = _SHARES.get(key)
    if sh is None or sh.X.shape != X.shape or not np.array_equal(sh.X, X):
        _SHARES.clear()
        sh = _SHARES[key] = CVShare(X, max_bytes=int(o.get("share_bytes", share_bytes())))
    return sh


def tune(solver, kernel, X, y, o, *, seed=0, share=None, route=None) -> tuple[dict, float, int]:
    """§3.4.2 grid search of one binary problem: (best params, CV accuracy, #evaluations).

    :func:`lssvm_analysis.tune` with the CV accuracy of ``o["folds"]`` folds
    of a permutation seeded by ``seed``; a failed fit or an error (a fold with
    one class for LIBSVM) scores NaN, i.e. never best.  Polynomial kernels:
    the best over ``o["degrees"]`` of the (tau, gamma) searches (see
    :func:`_solver_params`).  LIBSVM gets ``max_iter = o["svm_max_iter"]``
    (default 1e5: a linear C-SVC at C = 1000 otherwise takes seconds per fit).
    When every point fails, the first grid point with CV accuracy -inf.
    ``share``: a :class:`CVShare` view for ``la.tune`` (the closed form's kernels, factorizations
    and held-out values shared with other searches on these rows).  With a share, the LIBSVM C-SVC
    (RBF, linear) is searched on one precomputed kernel per sigma across C and folds
    (:func:`_svm_search`); without, by ``la.tune``'s per-fold fits (the reference).
    ``route``: a dict that receives how the points were scored (``cv_kernel``, and for LIBSVM the
    fits run, capped at ``max_iter`` and skipped).
    """
    search = _Search(solver, X, y, share)
    _run_searches([search], kernel, o, seed=seed)
    if route is not None:
        route.update(search.route)
    return search.best, search.score, search.evals


class _Search:
    """One binary problem's search (:func:`tune`), run by :func:`_run_searches` with others."""

    def __init__(self, solver, X, y, share=None, owner=0):
        self.solver, self.X, self.y, self.share, self.owner = solver, X, y, share, owner
        self.best, self.score, self.evals, self.route = None, -math.inf, 0, {}


def _run_searches(searches, kernel, o, *, seed=0, clock=None):
    """Every search's :func:`tune`, degree by degree: at each polynomial degree every search in turn.

    Each search's result is the one it gets alone (each degree's search is independent of the
    others, and the best over the degrees is taken in degree order as :func:`tune` takes it); the
    order only decides what a shared :class:`CVShare` still holds when a search asks: a degree's
    kernels and factorizations are read by every search (a code's columns, LS-SVM_F and its LS-SVM
    twin) while they are kept, instead of each search making them all again after the others'
    degrees pushed them out.  ``clock`` (:class:`~lssvm_analysis.experiments.kinds.TaskClock`)
    charges each search's work to its ``owner``.
    """
    degrees = tuple(o.get("degrees", (2,))) if kernel == "poly" else (None,)
    folds = {id(s): max(2, min(int(o.get("folds", 10)), len(s.y))) for s in searches}
    for degree in degrees:
        for s in searches:
            with (clock.charge(s.owner) if clock is not None else contextlib.nullcontext()):
                _search_degree(s, kernel, degree, o, seed, folds[id(s)])


def _search_degree(s, kernel, degree, o, seed, folds):
    info = get_solver(s.solver)
    base = {"kernel": kernel, **info.task_keywords("classification")}
    if info.baseline:
        base["max_iter"] = int(o.get("svm_max_iter", 100000))
    axes = _axes(kernel, s.X.shape[1], o)
    if s.share is not None and s.solver == "svm-c" and kernel in ("rbf", "linear"):
        s.best, s.score, s.evals = _svm_search(s.X, s.y, kernel, axes, o, folds=folds, seed=seed, base=base,
                                               route=s.route)
        return
    res = la_tune(s.solver, s.X, s.y, grid=axes, refinements=int(o.get("refinements", 3)),
                  points=int(o.get("points", 3)), folds=folds, seed=seed, scoring="accuracy",
                  transform=lambda q, d=degree: _solver_params(q, d), share=s.share, **base)
    s.evals += res.n_evaluations
    point, score = ((res.best, res.score) if res.best else
                    ({k: float(res.history.iloc[0][k]) for k in axes}, -math.inf))
    if s.best is None or score > s.score:
        s.best, s.score = {**base, **_solver_params(point, degree)}, score
    if info.baseline:
        s.route["cv_kernel"] = "libsvm"  # LIBSVM forms the kernel itself at every fit


def _svm_search(X, y, kernel, axes, o, *, folds, seed, base, route):
    """:func:`tune` of LIBSVM's C-SVC on one precomputed kernel per sigma (:class:`SVCFoldCV`).

    The same grid search (:func:`~lssvm_analysis.analysis.benchmarking.grid_search`, which
    ``la.tune`` runs), the same folds (``check_folds`` of the same seed: the training rows in the
    same order, which LIBSVM's SMO depends on), the same score (the folds' accuracies averaged as
    ``cv_score_split`` averages them; a point with a fold not ``"ok"`` or raising ValueError scores
    NaN).  What differs from the per-fold search: the kernel is formed once per sigma and sliced
    per fold, and a point's folds after a failed one are not fitted (their scores are not read).
    """
    pairs = check_folds(folds, X, y, seed=seed)
    cv = SVCFoldCV(X, y, pairs, kernel=kernel, max_iter=base["max_iter"])
    accuracy = SCORINGS["accuracy"]

    def objective(point):
        try:
            f = cv.held_out(**point)
        except (ValueError, ArithmeticError):  # la.tune's error_score (NaN)
            return NAN
        if f is None:
            return NAN
        return skipna_mean(np.array([accuracy(y[te], v) for (_, te), v in zip(pairs, f)], dtype=np.float64))

    best, score, history = grid_search(objective, axes, refinements=int(o.get("refinements", 3)),
                                       points=int(o.get("points", 3)))
    if route is not None:
        route.update(cv_kernel="precomputed", cv_fits=cv.counts["fits"], cv_fits_capped=cv.counts["capped"],
                     cv_fits_skipped=cv.counts["skipped"])
    return {**base, **best}, score, len(history)


def _precision_reruns(X, y, Xt, yt, params, f64, o) -> dict:
    """The tuned RBF LS-SVM in other precisions: test accuracy, its change, kappa of the system."""
    row = {}
    pred64 = np.where(f64.predict(Xt) >= 0, 1.0, -1.0)
    for prec in o.get("precisions", ()):
        f = fit("lssvm-schur", X, y, precision=prec, **params)
        row[f"acc[{prec}]"] = 100 * _acc(f, Xt, yt)
        row[f"status[{prec}]"] = f.status
        row[f"flips[{prec}]"] = (int(np.sum(np.where(f.predict(Xt) >= 0, 1.0, -1.0) != pred64))
                                 if f.ok else -1)
    if o.get("precisions"):
        c = kkt_condition(X, sigma2=params["sigma2"], C_grid=[params["C"]], labels=y).iloc[0]
        row.update(cond_H=float(c.cond_H), cond_kkt=float(c.cond_kkt))
    return row


def _prune(X, y, params, o, seed):
    """Pruned fits at each alpha of ``o["prune_alphas"]`` (one shared CV index)."""
    folds = max(2, min(int(o.get("folds", 10)), len(y)))
    index = CVSignificanceIndex(X, y, solver="lssvm-schur", folds=folds, seed=seed, **params)
    out = {}
    for alpha in o.get("prune_alphas", ()):
        out[alpha] = fit("lssvm-pruned", X, y, base="lssvm-schur", index=index, index_support=True,
                         reference="initial", atol=CVSignificanceIndex.atol(float(alpha)),
                         fraction=float(o.get("prune_fraction", 0.05)), **params)
    return out


def binary_row(task) -> dict:
    """One Table 3.3 cell (kind ``suykens-table-binary``); Table 3.5 and precisions for RBF LS-SVM."""
    return binary_rows([task], TaskClock(1, record_warnings=False))[0]


def binary_rows(tasks, clock) -> list[dict]:
    """:func:`binary_row` of twins (:func:`twin_group`: a method and its LS-SVM_F on one split), their
    searches run degree by degree together so that LS-SVM_F reads its twin's factorizations."""
    task = tasks[0]
    ds = raw_task_data(task).as_pm1()
    o = dict(task.options)
    if "degree" in task.params:  # S-poly-tau's sweep: one degree, tau tuned or fixed
        o["degrees"] = [int(task.params["degree"])]
        if task.params.get("tau", "tuned") != "tuned":
            o["tau"] = float(task.params["tau"])
    X, y, Xt, yt = ds.X_train, ds.y_train, ds.X_test, ds.y_test
    kernel = BINARY_METHODS[task.params["method"]][1]
    with clock.charge(0):
        sh = share_for(task, X, o)
    searches = [_Search(BINARY_METHODS[t.params["method"]][0], X, y, None if sh is None else sh.view(), i)
                for i, t in enumerate(tasks)]
    _run_searches(searches, kernel, o, seed=task.seed, clock=clock)
    rows = []
    for i, (t, search) in enumerate(zip(tasks, searches)):
        with clock.charge(i):
            label = t.params["method"]
            params = search.best
            f = fit(search.solver, X, y, **params)
            row = {"n_train": len(y), "n_test": len(yt), "n_inputs": X.shape[1], "cv_acc": 100 * search.score,
                   "acc": 100 * _acc(f, Xt, yt), "fit_status": f.status, "n_evals": search.evals,
                   "time_tune": clock.wall[i], **search.route,
                   **{f"tuned_{k}": v for k, v in params.items() if k not in ("kernel", "task", "max_iter")}}
            if label == "RBF LS-SVM" and f.ok:
                row.update(_precision_reruns(X, y, Xt, yt, params, f, o))
                if t.dataset.removeprefix("suykens-") in o.get("prune_sets", ()):
                    t1 = time.perf_counter()
                    for alpha, fp in _prune(X, y, params, o, t.seed).items():
                        row.update({f"prune_acc[{alpha}]": 100 * _acc(fp, Xt, yt),
                                    f"prune_nsv[{alpha}]": fp.n_support if fp.ok else -1,
                                    f"prune_steps[{alpha}]": fp.iterations,
                                    f"prune_stop[{alpha}]": fp.diagnostics.get("stop_reason", "")})
                    row["time_prune"] = time.perf_counter() - t1
        rows.append(row)
    return rows


def twin_group(task):
    """The batch of an LS-SVM table task (:class:`~lssvm_analysis.experiments.kinds.TaskKind` ``group``):
    the method with its LS-SVM_F twin, everything else equal (they differ only in the targets, so
    they share every kernel and factorization); None for the others (the SVMs, the shared-tuning
    comparison), which run alone."""
    label = task.params.get("method", "")
    base = label.removesuffix("_F")
    if (f"{base}_F" not in BINARY_METHODS or BINARY_METHODS.get(base, ("",))[0] != "lssvm-schur"
            or task.params.get("tuning") == "shared"):
        return None
    return [base, {k: v for k, v in task.params.items() if k != "method"}]


def _column_share(share, M, y_idx, rows):
    """A search's view of the share: the whole code's columns when every class is in every column (MOC,
    ECOC, 1vsA), else its rows (1vs1: the kernel sliced from the whole set's)."""
    if share is None:
        return None
    if np.all(M[y_idx] != 0):
        return share.view(columns=M[y_idx].astype(np.float64))
    return share.view(rows=rows)


def _multi_fits(ds, tasks, code, o, seed, share, clock, words=None):
    """Every task's tuned binary fits per code column (the tasks: one method, or a method and its
    LS-SVM_F twin); the searches of every column and task run degree by degree together
    (:func:`_run_searches`).  ``words``: the MOC's class -> codeword assignment, an index of
    :func:`~lssvm_analysis.solvers.multiclass.moc_assignments` (None: :func:`make_code`'s, index 0).
    Returns the code M, and per task (fits, pruned fits at each alpha when its ``prune``,
    evaluations, rows of the binary problems)."""
    y_idx = ds.y_train.astype(int)
    if words is None:
        M = make_code(code, len(ds.classes), random_state=0 if seed is None else seed)  # ECOC: the task's seed
    else:
        M = moc_assignments(len(ds.classes))[int(words)]
    kernel = MULTI_METHODS[tasks[0][0]][1]
    cols = []
    for j in range(M.shape[1]):
        rows = np.flatnonzero(M[y_idx, j] != 0)
        cols.append((ds.X_train[rows], M[y_idx[rows], j].astype(np.float64), rows))
    searches = [[_Search(MULTI_METHODS[label][0], Xj, yj, _column_share(share, M, y_idx, rows), i)
                 for Xj, yj, rows in cols] for i, (label, _) in enumerate(tasks)]
    _run_searches([per[j] for j in range(len(cols)) for per in searches], kernel, o, seed=seed, clock=clock)
    out = []
    for i, ((label, prune), per) in enumerate(zip(tasks, searches)):
        with clock.charge(i):
            fits, pruned = [], {}
            for s in per:
                fits.append(fit(s.solver, s.X, s.y, **s.best))
                if prune and fits[-1].ok:
                    for alpha, fp in _prune(s.X, s.y, s.best, o, seed).items():
                        pruned.setdefault(alpha, []).append(fp)
            route = {}
            for s in per:
                for k, v in s.route.items():
                    route[k] = v if isinstance(v, str) else route.get(k, 0) + v
        out.append((fits, pruned, sum(s.evals for s in per), sum(len(r) for _, _, r in cols), route))
    return M, out


def _multi_acc(M, fits, classes, X, y) -> float:
    if not all(f.ok for f in fits):
        return NAN
    mf = MulticlassFit(classes_=np.asarray(classes), codebook=M, code="", solver="", fits=tuple(fits))
    out = np.where(mf.decision_function(X) >= 0, 1, -1)
    return float(np.mean(hamming_decode(out, M) == y.astype(int)))


def _shared_vs_per(ds, solver, kernel, code, o, seed, share=None) -> dict:
    """S-per-binary-tuning: every subproblem of the code tuned on its own against one (gamma, sigma) shared
    by all (the grid point of the best mean CV accuracy over the subproblems); both on the initial grid
    (no refinement, so that both searches see the same points)."""
    o0 = {**o, "refinements": 0}
    y_idx = ds.y_train.astype(int)
    M = make_code(code, len(ds.classes), random_state=0 if seed is None else seed)
    info = get_solver(solver)
    base = {"kernel": kernel, **info.task_keywords("classification")}
    per, parts, scores = [], [], []
    for j in range(M.shape[1]):
        rows = np.flatnonzero(M[y_idx, j] != 0)
        Xj, yj = ds.X_train[rows], M[y_idx[rows], j].astype(np.float64)
        res = la_tune(solver, Xj, yj, grid=_axes(kernel, Xj.shape[1], o0), refinements=0,
                      folds=max(2, min(int(o.get("folds", 10)), len(yj))), seed=seed, scoring="accuracy",
                      share=_column_share(share, M, y_idx, rows), **base)
        parts.append((Xj, yj))
        scores.append(res.history.set_index([k for k in ("C", "sigma2") if k in res.history.columns]).score)
        per.append(fit(solver, Xj, yj, **base, **(res.best or {})))
    mean = pd.concat(scores, axis=1).mean(axis=1)
    point = dict(zip(mean.index.names, mean.idxmax() if isinstance(mean.idxmax(), tuple) else (mean.idxmax(),)))
    shared = [fit(solver, Xj, yj, **base, **point) for Xj, yj in parts]
    return {"acc_per": 100 * _multi_acc(M, per, ds.classes, ds.X_test, ds.y_test),
            "acc_shared": 100 * _multi_acc(M, shared, ds.classes, ds.X_test, ds.y_test),
            **{f"shared_{k}": float(v) for k, v in point.items()}}


def multi_row(task) -> dict:
    """One Table 3.4 cell (kind ``suykens-table-multi``); Table 3.5 for the 1vs1 RBF LS-SVM."""
    return multi_rows([task], TaskClock(1, record_warnings=False))[0]


def multi_rows(tasks, clock) -> list[dict]:
    """:func:`multi_row` of twins (:func:`twin_group`), every column's searches of both run together."""
    task = tasks[0]
    ds = raw_task_data(task)
    o = task.options
    code = task.params["code"]
    with clock.charge(0):
        sh = share_for(task, ds.X_train, o)
    if task.params.get("tuning") == "shared":  # alone (twin_group)
        label = task.params["method"]
        solver, kernel = MULTI_METHODS[label]
        with clock.charge(0):
            return [{"n_train": len(ds.y_train), "n_classes": len(ds.classes),
                     **_shared_vs_per(ds, solver, kernel, code, o, task.seed, sh)}]
    specs = [(t.params["method"], t.params["method"] == "RBF LS-SVM" and code == "1vs1"
              and t.dataset.removeprefix("suykens-") in o.get("prune_sets", ())) for t in tasks]
    M, per_task = _multi_fits(ds, specs, code, o, task.seed, sh, clock, words=task.params.get("words"))
    rows = []
    for i, (fits, pruned, evals, n_rows, route) in enumerate(per_task):
        with clock.charge(i):
            row = {"n_train": len(ds.y_train), "n_test": len(ds.y_test), "n_classes": len(ds.classes),
                   "n_y": M.shape[1], "n_rows_binary": n_rows, "n_evals": evals,
                   "acc": 100 * _multi_acc(M, fits, ds.classes, ds.X_test, ds.y_test),
                   "time_tune": clock.wall[i], **route}
            for alpha, fps in pruned.items():
                ok = len(fps) == M.shape[1] and all(f.ok for f in fps)
                row.update({f"prune_acc[{alpha}]": 100 * _multi_acc(M, fps, ds.classes, ds.X_test, ds.y_test)
                            if ok else NAN,
                            f"prune_nsv[{alpha}]": int(sum(f.n_support for f in fps)) if ok else -1})
        rows.append(row)
    return rows


def _references() -> dict:
    """Table 3.3/3.4's reference rows that scikit-learn has (C4.5, oneR as stand-ins; NB_k has none)."""
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis, QuadraticDiscriminantAnalysis
    from sklearn.dummy import DummyClassifier
    from sklearn.linear_model import LogisticRegression
    from sklearn.naive_bayes import GaussianNB
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.tree import DecisionTreeClassifier
    return {"LDA": lambda: LinearDiscriminantAnalysis(), "QDA": lambda: QuadraticDiscriminantAnalysis(reg_param=0.01),
            "Logit": lambda: LogisticRegression(C=1e6, max_iter=5000),
            "IB1": lambda: KNeighborsClassifier(1), "IB10": lambda: KNeighborsClassifier(10),
            "NB_n": lambda: GaussianNB(), "C4.5": lambda: DecisionTreeClassifier(criterion="entropy", random_state=0),
            "oneR": lambda: DecisionTreeClassifier(max_depth=1, random_state=0),
            "Maj. Rule": lambda: DummyClassifier(strategy="most_frequent")}


#: The reference rows run (Table 3.3's labels).
REFERENCE_METHODS = ("LDA", "QDA", "Logit", "IB1", "IB10", "NB_n", "C4.5", "oneR", "Maj. Rule")


def reference_row(task) -> dict:
    """Every reference classifier's test accuracy [%] on the task's split (kind ``suykens-table-reference``).

    A classifier that raises (e.g. QDA on a class with fewer points than inputs) scores NaN and says why.
    """
    ds = raw_task_data(task)
    ds = ds.as_pm1() if len(ds.classes) == 2 else ds
    row = {"n_train": len(ds.y_train), "n_test": len(ds.y_test)}
    for name, make in _references().items():
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                m = make().fit(ds.X_train, ds.y_train)
            row[f"acc[{name}]"] = 100 * float(np.mean(m.predict(ds.X_test) == ds.y_test))
        except (ValueError, np.linalg.LinAlgError) as e:
            row[f"acc[{name}]"], row[f"error[{name}]"] = NAN, str(e)[:120]
    return row


register_task_kind("suykens-table-reference", reference_row, validate=None)
register_task_kind("suykens-table-binary", binary_row, validate=None, group=twin_group, batch=binary_rows)
register_task_kind("suykens-table-multi", multi_row, validate=None, version=2,  # 2: ECOC code from the seed
                   group=twin_group, batch=multi_rows)
