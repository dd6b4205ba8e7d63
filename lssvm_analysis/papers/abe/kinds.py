"""Task kinds of Abe's sections of the report, registered at import (workers import this module).

Each kind is a module-level ``row(task) -> dict`` of JSON scalars (arrays
are stored as JSON text, :mod:`.arrays`); the experiments layer stores the
rows in SQLite, so a report re-run reuses them.

Kinds
-----
``abe-spectrum``    singular values of H_m and H_c (every spectrum of Omega_e
                    and of the primal matrix for every C follows by a shift),
                    the mp check of their small end, the predicted breakdown C.
``breakdown-scan``  first C at which a solver's Cholesky breaks down (log
                    grid + bisection), with the prediction beside it.
``primal-dual``     els-primal against els-dual on the test set at one C.
``cv``              k-fold cross-validation error of one solver at one point.
``crossover-timing`` primal and dual training time at one (M, N/M), with the
                    rates of the kernels each formation runs, timed in the same
                    run, and the rate-calibrated prediction (``predicted_*``).
``op-count``        the multiplications, additions, divisions and square roots
                    of the Cholesky of Omega_e = H Hᵀ + I/C of order M and of
                    its formation H Hᵀ (H of M x N), counted in the generic
                    kernels (:mod:`lssvm_analysis.arith.counting`).
"""
from __future__ import annotations

import time

import numpy as np

from ...analysis import conditioning as cond
from ...analysis import crossover
from ...analysis.validation import cross_validate
from ...core.memo import Memo
from ...arith.counting import count_cholesky, count_matmul
from ...arith.precision import get_precision, precisions
from ...solvers.abe import ElsPath
from . import crossover_timing
from ...experiments.arrays import dumps
from ...experiments.kinds import raw_task_data, register_task_kind, validate_no_solver
from ...experiments.spec import canonical_json

__all__ = ["KINDS", "CROSSOVER_TIME_COLUMNS", "abe_spectrum_row", "breakdown_scan_row", "primal_dual_row",
           "cv_row", "crossover_timing_row", "op_count_row"]

NAN = float("nan")


def abe_spectrum_row(task) -> dict:
    """Singular values of H_m, H_c for (sigma2, eta) and the mp check of the small end."""
    ds = raw_task_data(task)
    P = task.params
    feat = cond.empirical_features(ds.X_train, sigma2=P["sigma2"], eta=P["eta"],
                                   feature_map=P.get("feature_map", "kernel"))
    row = {"M": feat.M, "N": feat.N, "sv": dumps(feat.sv), "sv_centred": dumps(feat.sv_centred),
           "gram_diag_min": float(feat.gram_diag.min()), "gram_diag_max": float(feat.gram_diag.max())}
    for name in precisions(native=True):  # the selection in each precision keeps its own columns
        f_p = feat if name == "float64" else cond.empirical_features(
            ds.X_train, sigma2=P["sigma2"], eta=P["eta"], feature_map=P.get("feature_map", "kernel"),
            precision=name)
        pred = cond.predict_breakdown(f_p, name)
        row.update({f"N_{name}": f_p.N, f"pred_C_star_{name}": pred.C_star,
                    f"pred_C_safe_{name}": pred.C_safe, f"pred_C_stat_{name}": pred.C_stat})
    u = get_precision("float64").unit_roundoff
    lam = np.sort(np.concatenate([feat.sv, feat.sv_centred]) ** 2)
    below = bool(lam[0] < feat.N * u * lam[-1])
    row.update(mp_needed=below, mp_checked=False, mp_max_ratio=NAN, mp_below_resolution=0,
               mp_lambda_min_gram=NAN, mp_lambda_min_centred=NAN, mp_note="")
    max_n = int(task.options.get("mp_max_n", 80))
    if below and feat.N <= max_n:
        t0 = time.perf_counter()
        chk = cond.check_spectrum_mp(feat, digits=int(task.options.get("mp_digits", 30)), max_n=max_n)
        ratio = (chk.rel_err / chk.svd_bound).max()
        row.update(mp_checked=True, mp_max_ratio=float(ratio),
                   mp_below_resolution=int(chk.below_resolution.sum()),
                   mp_lambda_min_gram=float(chk.loc[chk.matrix == "gram", "lambda_mp"].min()),
                   mp_lambda_min_centred=float(chk.loc[chk.matrix == "centred", "lambda_mp"].min()),
                   time_mp=time.perf_counter() - t0)
    elif below:
        row["mp_note"] = f"N={feat.N} > mp_max_n={max_n}: small end not checked in mp"
    return row


#: Abe's paths (selection, H_m and the C-independent matrices) of the last tasks run in this
#: process, by data and hyper-parameters but C: the breakdown scans and the primal-dual tasks of
#: one (data, sigma2, eta, precision) share one (an mp50 selection at M = 200, N = 100 takes 0.8
#: CPU-s).  Each fit from a path is the fresh fit bit for bit (ElsPath), so a row does not depend
#: on which task built it; only its time_task does.  8 = the default profile's (precision, eta)
#: pairs, whose scans run solver by solver (an mp50 path at M = 200 holds about 10 MB).  The
#: memo replays a path's construction warnings on every task that reuses it, as a fresh fit would
#: raise them.
_PATHS = Memo(max_entries=8)


def _els_path(task, ds) -> ElsPath:
    """The :class:`ElsPath` of the task's data and hyper-parameters but C (kept per process)."""
    params = {k: v for k, v in task.params.items() if k != "C"}
    key = canonical_json({"dataset": task.dataset, "dataset_kw": dict(task.dataset_kw), "seed": task.seed,
                          "precision": task.precision, "params": params})
    return _PATHS.get(key, lambda: ElsPath(ds.X_train, ds.y_train, precision=task.precision, **params))


def breakdown_scan_row(task) -> dict:
    """First breakdown C of ``task.solver`` in ``task.precision`` and the prediction.

    Each C of the scan runs the factorization of the matrix a fit at C forms
    (:meth:`ElsPath.factor`); the selection and the C-independent part of the
    matrix are made once per path.
    """
    ds = raw_task_data(task)
    P = dict(task.params)
    o = task.options
    t0 = time.perf_counter()
    path = _els_path(task, ds).for_solver(task.solver)
    scan = cond.scan_breakdown(ds.X_train, ds.y_train, precision=task.precision, solver=task.solver,
                               C_min=float(o.get("C_min", 1e-2)), C_max=float(o.get("C_max", 1e30)),
                               per_decade=int(o.get("per_decade", 2)), bisect=int(o.get("bisect", 8)),
                               path=path, **P)
    t_scan = time.perf_counter() - t0
    feat = cond.empirical_features(ds.X_train, sigma2=P["sigma2"], eta=P["eta"],
                                   feature_map=P.get("feature_map", "kernel"), precision=task.precision,
                                   selection=path.selection)
    pred = cond.predict_breakdown(feat, task.precision,
                                  matrix="primal" if task.solver == "els-primal" else "dual")
    return {"C_star": scan.C_star, "C_ok": scan.C_ok, "step": scan.step, "pivot": scan.pivot,
            "n": scan.n, "n_fits": int(len(scan.grid)), "M": feat.M, "N": feat.N,
            "norm": pred.norm, "pred_C_star": pred.C_star, "pred_C_safe": pred.C_safe,
            "pred_C_lost": pred.C_lost, "pred_C_stat": pred.C_stat, "n_noise": pred.n_noise,
            "unit_roundoff": pred.unit_roundoff,
            "found": bool(np.isfinite(scan.C_star)), "time_scan": t_scan}


def primal_dual_row(task) -> dict:
    """els-primal vs els-dual at one C: relative difference of test predictions and bias."""

    ds = raw_task_data(task)
    path = _els_path(task, ds)   # both fits from one selection: each equals its fresh fit
    C = task.params["C"]
    fp, fd = path.fit("els-primal", C), path.fit("els-dual", C)
    row = {"status_primal": fp.status, "status_dual": fd.status, "N": fp.n_support,
           "M": int(ds.X_train.shape[0]), "pred_rel_diff": NAN, "bias_diff": NAN,
           "mae_primal": NAN, "mae_dual": NAN}
    a = fp.predict(ds.X_test) if fp.ok else None
    b = fd.predict(ds.X_test) if fd.ok else None
    if fp.ok:
        row["mae_primal"] = float(np.mean(np.abs(a - ds.y_test)))
    if fd.ok:
        row["mae_dual"] = float(np.mean(np.abs(b - ds.y_test)))
    if fp.ok and fd.ok:
        row["pred_rel_diff"] = float(np.max(np.abs(a - b)) / max(np.max(np.abs(a)), 1e-300))
        row["bias_diff"] = float(abs(float(fp.bias_) - float(fd.bias_)))
    row["status"] = "ok"
    return row


def cv_row(task) -> dict:
    """k-fold CV (``options["folds"]``, default 5) mean absolute error of one solver.

    Runs :func:`lssvm_analysis.cross_validate` (the package's one CV) with the
    folds of ``default_rng(seed or 0).permutation(N)``.
    """

    ds = raw_task_data(task)
    k = int(task.options.get("folds", 5))
    df = cross_validate(task.solver, ds.X_train, ds.y_train, folds=k, scoring="mae",
                        precision=task.precision, seed=0 if task.seed is None else task.seed,
                        **task.params)
    ok = df[df.status == "ok"]
    maes, nsv = ok.score.to_numpy(), ok.n_support.to_numpy()
    return {"cv_mae": float(np.mean(maes)) if len(maes) else NAN,
            "cv_mae_std": float(np.std(maes)) if len(maes) else NAN, "folds": k,
            "failed_folds": int(len(df) - len(ok)),
            "n_support_mean": float(np.mean(nsv)) if len(nsv) else NAN,
            "status": "ok" if len(maes) else "breakdown"}


def crossover_timing_row(task) -> dict:
    """One point of :func:`lssvm_analysis.papers.abe.crossover_timing.measure_crossover` (input names prefixed)."""

    P = task.params
    df = crossover_timing.measure_crossover(int(P["M"]), [float(P["ratio"])], formation=P["formation"],
                                     precision=task.precision, repeats=int(task.options.get("repeats", 3)),
                                     seed=0 if task.seed is None else int(task.seed))
    out = {}
    for k, v in df.iloc[0].to_dict().items():
        v = v.item() if isinstance(v, np.generic) else v
        if isinstance(v, (bool, int, float, str)) or v is None:
            out[_crossover_column(k)] = v
    # the rate-calibrated model: each kernel the formations run, timed at this (M, N) in this run
    if int(task.options.get("rates", 1)) and out.get("N"):
        rates = crossover_timing.measure_rates(int(P["M"]), int(out["N"]), precision=task.precision,
                                        repeats=int(task.options.get("repeats", 3)))
        model = crossover.rate_model(rates, formation=P["formation"])
        # every wall-clock-derived column is named time_* (issue 12: deterministic columns)
        out.update({(k if k.startswith("time_") else f"time_{k}"): float(v) for k, v in rates.items()
                    if k.startswith(("time_", "rate_"))})
        out.update({f"time_{k}": float(v) for k, v in model.items() if k.startswith("predicted_")})
        out["model_flop_dual_over_primal"] = float(model["flop_dual_over_primal"])  # flops: deterministic
    return out


#: Wall-clock columns of measure_crossover and their record names: every
#: wall-clock value, and every ratio of two, is a ``time_*`` column, so that
#: ``TIMING_PREFIX`` separates the deterministic columns from the rest.
CROSSOVER_TIME_COLUMNS = {"primal_seconds": "time_primal", "dual_seconds": "time_dual",
                          "primal_fit_seconds": "time_primal_fit", "dual_fit_seconds": "time_dual_fit",
                          "dual_over_primal": "time_dual_over_primal",
                          "fit_dual_over_primal": "time_fit_dual_over_primal"}


def _crossover_column(k: str) -> str:
    if k in ("M", "ratio", "formation", "precision"):
        return f"measured_{k}"
    return CROSSOVER_TIME_COLUMNS.get(k, k)


def op_count_row(task) -> dict:
    """Operation counts of the dual's two jobs at order M (:mod:`lssvm_analysis.arith.counting`).

    Omega_e = H Hᵀ + I/C with H (M x ``options["N"]``) a standard normal draw of the task's seed, C = 1:
    the generic left-looking Cholesky (the code longdouble and mpN run; LAPACK's blocked potrf does the same
    (M³ − M)/6 multiplications in another order) and the product H Hᵀ.  The counts depend on M and N only.
    """
    M, N = int(task.params["M"]), int(task.options.get("N", 10))
    H = np.random.default_rng(0 if task.seed is None else int(task.seed)).standard_normal((M, N))
    chol = count_cholesky(H @ H.T + np.eye(M))
    form = count_matmul(H, H.T)
    return {"N": N, **{f"chol_{k}": v for k, v in chol.items()},
            **{f"form_{k}": v for k, v in form.items()}}


KINDS = {
    "op-count": (op_count_row, validate_no_solver),
    "abe-spectrum": (abe_spectrum_row, validate_no_solver),
    "breakdown-scan": (breakdown_scan_row, None),
    "primal-dual": (primal_dual_row, validate_no_solver),
    "cv": (cv_row, None),
    "crossover-timing": (crossover_timing_row, validate_no_solver),
}
#: Kinds whose rows changed meaning: version 2 of crossover-timing names its wall-clock columns time_*,
#: version 3 adds the condition estimate, the loop's vector updates and H^T beta to the rate model and
#: times its kernels in the solvers' order and memory state, version 4 times the solvers after their
#: symmetrizing pass became a banded copy (arith.symmetric.mirror_lower) instead of an index-array scatter.
_VERSIONS = {"crossover-timing": 4}

for _name, (_func, _val) in KINDS.items():
    register_task_kind(_name, _func, validate=_val, version=_VERSIONS.get(_name, 1))
