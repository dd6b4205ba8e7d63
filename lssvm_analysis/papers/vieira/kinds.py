"""Task kinds of the Vieira et al. (OP-LSSVM) report section, registered at import.

``vieira-split``      one random split of one data set: (C, sigma2) of the
                      LS-SVM and of the C-SVC by k-fold CV on the training
                      part (:func:`lssvm_analysis.tune`, full grid), then every
                      method of Table 2 with them: ACC, #SV, training time.
``vieira-scaling``    training time of op-lssvm and of the LS-SVM (lssvm-kkt,
                      Vieira's z = D^{-1} l) at one training size L.
``vieira-stability``  op-lssvm in one precision, every variant configuration:
                      ranking against the mp reference ranking, PRESS curve,
                      cond(D_k), cond of the formed D_k^T D_k, and correct
                      digits of z against an mp least-squares reference.
``vieira-normal-equations``  op-lssvm at a fixed k (``options["k"]``, the
                      paper's k ~ 80-100: ``k_rule="fixed"``, columns ranked by
                      MRSR in the precision) solved by lstsq and by the printed
                      normal equations: model digits of each against the
                      certified exact model (:mod:`lssvm_analysis.analysis.model_error`),
                      kappa_2(D_*) and the exact problem's condition.
"""
from __future__ import annotations

import time

import numpy as np

from ...analysis import model_error
from ...analysis.tuning import tune
from ...linalg.kernels import make_kernel
from ...arith.precision import DEFAULT_MP_DIGITS, get_precision
from ...solvers import fit, get_solver
from ...solvers import vieira as V
from ...solvers.kkt import formed_kappa
from ...solvers.result import PhaseTimer
from ...experiments.kinds import register_task_kind
from ...experiments.arrays import dumps
# the claims' kinds of the algorithm's steps (issue 31) register with this module's
from .kinds_numerics import load_split as _dataset, training_subset

__all__ = ["split_row", "scaling_row", "stability_row", "normal_equations_row", "TABLE_METHODS",
           "REFERENCE_PRECISION", "NE_SOLVES"]

NAN = float("nan")
REFERENCE_PRECISION = f"mp{DEFAULT_MP_DIGITS}"
#: Table 2's rows: label -> (solver, extra keywords, whose tuned (C, sigma2) it uses).  The
#: LS-SVM-based rows use the LS-SVM's (C, sigma2), SVM its own; the two rows in the paper's regime
#: (issue 20) use OP-LSSVM's own C = gamma, chosen by the same k-fold CV over the same gamma grid
#: (sigma2 the LS-SVM's), once as the paper describes the ranking, once as the authors' MATLAB
#: ranks (``reading="authors-code"``) and once as their MATLAB does everything: that ranking, k by
#: training accuracy over k = 1, 3, ... <= max_sv = 200 (``k_rule="training-accuracy"``).
TABLE_METHODS = {
    "SVM": ("svm-c", {}, "svm"),
    "LSSVM": ("lssvm-kkt", {}, "lssvm"),
    "IP-LSSVM 10%": ("ip-lssvm", {"prune_fraction": 0.1}, "lssvm"),
    "IP-LSSVM 20%": ("ip-lssvm", {"prune_fraction": 0.2}, "lssvm"),
    "IP-LSSVM 30%": ("ip-lssvm", {"prune_fraction": 0.3}, "lssvm"),
    "P-LSSVM": ("lssvm-pruned", {"base": "lssvm-schur", "fraction": 0.01, "fraction_of": "original",
                                 "reference": "initial", "atol": 0.025, "index": "training"}, "lssvm"),
    "OP-LSSVM": ("op-lssvm", {"conditioning": False}, "lssvm"),
    "OP-LSSVM own γ": ("op-lssvm", {"conditioning": False}, "op"),
    "OP-LSSVM authors' code": ("op-lssvm", {"conditioning": False, "reading": "authors-code"}, "op"),
    "OP-LSSVM authors' k": ("op-lssvm", {"conditioning": False, "reading": "authors-code", "k_max": 200,
                                         "k_rule": "training-accuracy"}, "op"),
}


def _fit_seconds(f) -> float:
    """Training time: the fit's phases without diagnostics ("conditioning")."""
    return float(sum(v for k, v in f.timings.items() if k != "conditioning"))


def _tune(solver, X, y, grid_C, grid_s2, folds, **extra):
    """(C, sigma2, cv accuracy) with the best mean fold accuracy (first best on ties, C outermost).

    :func:`lssvm_analysis.tune` on the full grid (no refinement), folds of
    the permutation seeded by 0; a point with a failed fold is never best,
    an exception propagates; (NaN, NaN, -1) when every point failed.
    ``extra``: fixed keywords of the solver (e.g. op-lssvm's ``conditioning``).
    """
    kw = {**get_solver(solver).task_keywords("classification"), **extra}
    res = tune(solver, X, y, grid={"C": grid_C, "sigma2": grid_s2}, refinements=0, folds=folds, seed=0,
               scoring="accuracy", error_score="raise", **kw)
    if not res.best:
        return (NAN, NAN, -1.0)
    return (res.best["C"], res.best["sigma2"], res.score)


def split_row(task) -> dict:
    """Vieira's Table 2 on one split: tune by CV, then every method (kind ``vieira-split``)."""
    ds = _dataset(task)
    o = task.options
    d = ds.X_train.shape[1]
    grid_C = [float(2.0 ** k) for k in o["log2_C"]]
    grid_s2 = [float(d * 2.0 ** k) for k in o["log2_sigma2_over_d"]]
    folds = int(o.get("folds", 10))
    tuned = {"lssvm": _tune("lssvm-schur", ds.X_train, ds.y_train, grid_C, grid_s2, folds),
             "svm": _tune("svm-c", ds.X_train, ds.y_train, grid_C, grid_s2, folds)}
    tuned["op"] = _tune("op-lssvm", ds.X_train, ds.y_train, grid_C, [tuned["lssvm"][1]], folds,
                        conditioning=False)
    row = {"L": len(ds.y_train), "n_test": len(ds.y_test), "status": "ok"}
    for who, (C, s2, acc) in tuned.items():
        row.update({f"C_{who}": C, f"sigma2_{who}": s2, f"cv_acc_{who}": acc})
    for label, (solver, extra, who) in TABLE_METHODS.items():
        C, s2, _ = tuned[who]
        kw = {**extra, **get_solver(solver).task_keywords("classification")}
        f = fit(solver, ds.X_train, ds.y_train, C=C, sigma2=s2, **kw)
        acc = float(np.mean(np.where(f.predict(ds.X_test) >= 0, 1.0, -1.0) == ds.y_test)) if f.ok else NAN
        row.update({f"acc[{label}]": 100 * acc, f"nsv[{label}]": f.n_support if f.ok else NAN,
                    f"time_{label}": _fit_seconds(f), f"status[{label}]": f.status})
    return row


def scaling_row(task) -> dict:
    """Best-of-``repeats`` training time of op-lssvm and lssvm-kkt at L = params["L"]."""
    X, y = training_subset(task, _dataset(task))
    row = {"status": "ok"}
    kw = dict(task="classification", C=float(task.params["C"]), sigma2=float(task.params["sigma2"]))
    for name, extra in (("op-lssvm", {"conditioning": False}), ("lssvm-kkt", {})):
        best = np.inf
        for _ in range(int(task.options.get("repeats", 3))):
            t0 = time.perf_counter()
            f = fit(name, X, y, **kw, **extra)
            best = min(best, time.perf_counter() - t0)
        row[f"time_{name}"] = best
        row[f"nsv[{name}]"] = f.n_support
    return row


def _kendall_tau(a, b) -> float:
    """Kendall tau of the common items of two rankings (their relative orders)."""
    common = [v for v in a if v in set(b)]
    if len(common) < 2:
        return NAN
    pos_b = {v: i for i, v in enumerate(b)}
    rb = np.array([pos_b[v] for v in common])
    n = len(rb)
    s = sum(np.sign(rb[j] - rb[i]) for i in range(n) for j in range(i + 1, n))
    return float(s / (n * (n - 1) / 2))


def _first_difference(a, b) -> int:
    """1-based position of the first disagreement (len + 1 when none within the shorter)."""
    for i, (u, v) in enumerate(zip(a, b)):
        if u != v:
            return i + 1
    return min(len(a), len(b)) + 1


def _formed_gram_cond(D, cols) -> np.ndarray:
    """cond_2 of D_k^T D_k as formed in the precision of D (rounded to float64), for every k >= 2."""
    out = []
    for k in range(2, len(cols) + 1):
        Dk = D[:, cols[:k]]
        out.append(formed_kappa(Dk.T @ Dk, definite=True))
    return np.array(out)


def _z_digits(D, l, cols, z, p, ref):
    """Correct digits of z against the mp least-squares solution for the D formed in p."""
    with ref.context():
        Dm, lm = ref.asarray(D), ref.asarray(l)  # exact: mp holds float32/64 and longdouble
        zr = V.solve_kept(Dm, lm, list(cols), ref, "lstsq")
        d = ref.asarray(z) - zr
        err = float(ref.sqrt(np.array([d @ d], dtype=object))[0] / ref.sqrt(np.array([zr @ zr], dtype=object))[0])
    return float(-np.log10(max(err, 1e-300)))


def stability_row(task) -> dict:
    """op-lssvm in task.precision, every configuration, against the mp reference (kind ``vieira-stability``)."""
    ds = _dataset(task)
    n = int(task.options.get("n", 24))
    X, y = ds.X_train[:n], ds.y_train[:n]
    C, s2 = float(task.params["C"]), float(task.params["sigma2"])
    p, ref = get_precision(task.precision), get_precision(REFERENCE_PRECISION)
    kw = dict(task="classification", C=C, sigma2=s2)
    f_ref = fit("op-lssvm", X, y, precision=ref, **kw)
    r_ref = list(f_ref.diagnostics["ranking"])
    with p.context():
        D, l = V.lssvm_system(X, y, make_kernel("rbf", sigma2=s2), p, C, "classification", PhaseTimer())
    row = {"n": n, "status": "ok", "ranking_ref": dumps(r_ref), "press_ref": dumps(f_ref.diagnostics["press"])}
    info = get_solver("op-lssvm")
    for cfg in info.configurations():
        label = info.configuration_label(cfg)
        f = fit("op-lssvm", X, y, precision=p, **kw, **cfg)
        dg = f.diagnostics
        r = list(dg["ranking"])
        row.update({f"status[{label}]": f.status, f"first_diff[{label}]": _first_difference(r, r_ref),
                    f"tau[{label}]": _kendall_tau(r, r_ref), f"k_star[{label}]": dg["k_star"],
                    f"press[{label}]": dumps(dg["press"]), f"cond_Dk[{label}]": dumps(dg["cond_Dk"]),
                    f"mrsr_status[{label}]": dg["mrsr_status"],
                    f"guarded[{label}]": int(np.max(dg["press_guarded"])),
                    f"z_digits[{label}]": _z_digits(D, l, dg["columns"], dg["solution"], p, ref)
                    if f.ok else NAN})
    with p.context():
        row["cond_gram_formed"] = dumps(_formed_gram_cond(D, [0] + r_ref))
    return row


#: The two step-4 solves the normal-equations study compares: stable first, as printed second.
NE_SOLVES = ("lstsq", "normal-equations")


def normal_equations_row(task) -> dict:
    """op-lssvm at k = options["k"], each solve of :data:`NE_SOLVES`, against the exact model.

    Parameters ``C`` (Vieira's gamma) and ``sigma2_over_d`` (sigma2 = that x the input dimension d,
    the unit of the Table 2 grid).

    Both solves share the MRSR ranking (it does not depend on the solve: the second fit reuses the
    first one's steps 1-3, :func:`~lssvm_analysis.solvers.vieira.shared_selection`), so one exact model (the
    registry's ``exact_model`` hook on the kept columns) certifies both; a solve that breaks down
    (Cholesky of D_*^T D_*, or a dependent column in the QR) is a status with NaN digits.
    """
    ds = _dataset(task)
    k = int(task.options["k"])
    C, s2 = float(task.params["C"]), float(task.params["sigma2_over_d"]) * ds.X_train.shape[1]
    kw = dict(task="classification", C=C, sigma2=s2, k_rule="fixed", k_max=k, precision=task.precision)
    with V.shared_selection():   # steps 1-3 computed once, only the solves differ
        fits = {s: fit("op-lssvm", ds.X_train, ds.y_train, solve=s, **kw) for s in NE_SOLVES}
    first = fits[NE_SOLVES[0]]
    info = get_solver("op-lssvm")
    exact = model_error.solve_exact_model(info.exact_model(ds.X_train, ds.y_train, first))
    row = {"status": "ok", "L": len(ds.y_train), "k": int(first.diagnostics["k_star"]),
           "sigma2_used": s2, "cond_D_star": float(first.diagnostics.get("cond_D_star", NAN)),
           "problem_condition": exact.problem_condition, "exact_digits": exact.digits,
           "unit_roundoff": get_precision(task.precision).unit_roundoff}
    for s, f in fits.items():
        same = list(f.diagnostics["columns"]) == list(first.diagnostics["columns"])
        digits = model_error.model_errors(f, exact)["model_digits"] if f.coef_ is not None and same else NAN
        row.update({f"status[{s}]": f.status, f"model_digits[{s}]": digits})
    return row


# vieira-split version 2: the rows "OP-LSSVM own γ" and "OP-LSSVM authors' code" (issue 20); 3: the row
# "OP-LSSVM authors' k"; 4: timing columns time_<method> (were time[<method>], issue 32)
register_task_kind("vieira-split", split_row, validate=None, version=4)
# 2: subset from the task seed; 3: time_<method> columns (issue 32)
register_task_kind("vieira-scaling", scaling_row, validate=None, version=3)
register_task_kind("vieira-stability", stability_row, validate=None)
register_task_kind("vieira-normal-equations", normal_equations_row, validate=None)
