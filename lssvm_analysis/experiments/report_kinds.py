"""Task kinds of the report's sweeps, registered at import (workers import this module).

Each kind is a module-level ``row(task) -> dict`` of JSON scalars (arrays
are stored as JSON text); the experiments layer stores the rows in SQLite,
so a report re-run reuses them.  These functions run solvers and analysis
code; the report *sections* only read the stored rows.

Kinds
-----
``abe-spectrum``    singular values of H_m and H_c (every spectrum of Omega_e
                    and of the primal matrix for every C follows by a shift),
                    the mp check of their small end, the predicted breakdown C.
``breakdown-scan``  first C at which a solver's Cholesky breaks down (log
                    grid + bisection), with the prediction beside it.
``primal-dual``     els-primal against els-dual on the test set at one C.
``cv``              k-fold cross-validation error of one solver at one point.
``kkt-condition``   kappa of the KKT matrix, of H and of diag(s, H) at one gamma.
``cg-iterations``   CG iterations on H eta = y, H nu = 1 against (3.27).
``pruning-path``    Suykens' pruning path (#SV, error) on a data set.
``crossover-timing`` primal and dual training time at one (M, N/M), with the
                    rates of the kernels each formation runs, timed in the same
                    run, and the rate-calibrated prediction (``predicted_*``).
``system-spectrum`` eigen/singular values and kappa_2 of the system any
                    registered solver forms (the report's appendix).
"""
from __future__ import annotations

import json
import time

import numpy as np

from .. import datasets
from ..analysis import conditioning as cond
from ..analysis import crossover
from ..analysis.validation import cross_validate
from ..core.condition import kappa2
from ..core.precision import get_precision
from ..solvers import fit, get_solver
from . import crossover_timing
from .fit_kind import accepts_combination, load_task_data, select_solver_params
from .kinds import check_dataset_names, register_task_kind, validate_registry_names
from .seeding import with_task_rng

__all__ = ["KINDS", "dumps", "loads"]

NAN = float("nan")
_BREAKDOWN_PRECISIONS = ("float32", "float64", "longdouble")


def dumps(a) -> str:
    """Array -> JSON text (NaN/inf kept as tokens)."""
    return json.dumps([float(v) for v in np.ravel(np.asarray(a, dtype=float))], allow_nan=True)


def loads(text) -> np.ndarray:
    """JSON text -> float64 array (empty for None/NaN)."""
    if not isinstance(text, str) or not text:
        return np.empty(0)
    return np.asarray(json.loads(text), dtype=float)


def _dataset(task):

    return datasets.load(task.dataset, seed=task.seed, **task.dataset_kw)


def _no_solver_validate(spec):
    """Kinds that take no solver: check precisions and datasets only."""

    for name in spec.precisions:
        get_precision(name)
    if spec.datasets:
        check_dataset_names([name for name, _ in spec.datasets])


# --------------------------------------------------------------------------- #
# Abe
# --------------------------------------------------------------------------- #
def abe_spectrum_row(task) -> dict:
    """Singular values of H_m, H_c for (sigma2, eta) and the mp check of the small end."""
    ds = _dataset(task)
    P = task.params
    feat = cond.empirical_features(ds.X_train, sigma2=P["sigma2"], eta=P["eta"],
                                   feature_map=P.get("feature_map", "kernel"))
    row = {"M": feat.M, "N": feat.N, "sv": dumps(feat.sv), "sv_centred": dumps(feat.sv_centred),
           "gram_diag_min": float(feat.gram_diag.min()), "gram_diag_max": float(feat.gram_diag.max())}
    for name in _BREAKDOWN_PRECISIONS:  # the selection in each precision keeps its own columns
        f_p = feat if name == "float64" else cond.empirical_features(
            ds.X_train, sigma2=P["sigma2"], eta=P["eta"], feature_map=P.get("feature_map", "kernel"),
            precision=name)
        pred = cond.predict_breakdown(f_p, name)
        row.update({f"N_{name}": f_p.N, f"pred_C_star_{name}": pred.C_star,
                    f"pred_C_safe_{name}": pred.C_safe, f"pred_C_stat_{name}": pred.C_stat})
    u = np.finfo(np.float64).eps / 2
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


def breakdown_scan_row(task) -> dict:
    """First breakdown C of ``task.solver`` in ``task.precision`` and the prediction."""
    ds = _dataset(task)
    P = dict(task.params)
    o = task.options
    t0 = time.perf_counter()
    scan = cond.scan_breakdown(ds.X_train, ds.y_train, precision=task.precision, solver=task.solver,
                               C_min=float(o.get("C_min", 1e-2)), C_max=float(o.get("C_max", 1e30)),
                               per_decade=int(o.get("per_decade", 2)), bisect=int(o.get("bisect", 8)),
                               **P)
    t_scan = time.perf_counter() - t0
    feat = cond.empirical_features(ds.X_train, sigma2=P["sigma2"], eta=P["eta"],
                                   feature_map=P.get("feature_map", "kernel"), precision=task.precision)
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

    ds = _dataset(task)
    P = dict(task.params)
    fp = fit("els-primal", ds.X_train, ds.y_train, precision=task.precision, **P)
    fd = fit("els-dual", ds.X_train, ds.y_train, precision=task.precision, **P)
    row = {"status_primal": fp.status, "status_dual": fd.status, "N": fp.n_support,
           "M": int(ds.X_train.shape[0]), "pred_rel_diff": NAN, "bias_diff": NAN,
           "mae_primal": NAN, "mae_dual": NAN}
    if fp.ok:
        row["mae_primal"] = float(np.mean(np.abs(fp.predict(ds.X_test) - ds.y_test)))
    if fd.ok:
        row["mae_dual"] = float(np.mean(np.abs(fd.predict(ds.X_test) - ds.y_test)))
    if fp.ok and fd.ok:
        a, b = fp.predict(ds.X_test), fd.predict(ds.X_test)
        row["pred_rel_diff"] = float(np.max(np.abs(a - b)) / max(np.max(np.abs(a)), 1e-300))
        row["bias_diff"] = float(abs(float(fp.bias_) - float(fd.bias_)))
    row["status"] = "ok"
    return row


def cv_row(task) -> dict:
    """k-fold CV (``options["folds"]``, default 5) mean absolute error of one solver.

    Runs :func:`lssvm_analysis.cross_validate` (the package's one CV) with the
    folds of ``default_rng(seed or 0).permutation(N)``.
    """

    ds = _dataset(task)
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


# --------------------------------------------------------------------------- #
# Suykens
# --------------------------------------------------------------------------- #
def kkt_condition_row(task) -> dict:
    ds = _dataset(task)
    df = cond.kkt_condition(ds.X_train, sigma2=task.params["sigma2"], C_grid=[task.params["C"]],
                            precision=task.precision or "float64")
    return {k: (v.item() if isinstance(v, np.generic) else v) for k, v in df.iloc[0].items()
            if k not in ("C", "precision")}


def cg_iterations_row(task) -> dict:
    ds = _dataset(task)
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

    ds = _dataset(task)
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


# --------------------------------------------------------------------------- #
# primal/dual crossover timing (in-process, when no asv results exist)
# --------------------------------------------------------------------------- #
def crossover_timing_row(task) -> dict:
    """One point of :func:`lssvm_analysis.experiments.crossover_timing.measure_crossover` (input names prefixed)."""

    P = task.params
    df = crossover_timing.measure_crossover(int(P["M"]), [float(P["ratio"])], formation=P["formation"],
                                     precision=task.precision,
                                     repeats=int(task.options.get("repeats", 3)))
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


# --------------------------------------------------------------------------- #
# every solver: the spectrum of the system it forms (the report's appendix)
# --------------------------------------------------------------------------- #
def system_spectrum_row(task) -> dict:
    """Eigen- (symmetric) or singular values of the system ``task.solver`` formed, and kappa_2.

    The fit runs in ``task.precision`` with the task's parameters; the
    registry's ``system`` builder gives the matrix exactly as the solver formed
    it, whose spectrum is computed in float64 (the matrix rounded to float64;
    kappa_2 escalated to mp where float64 cannot resolve it, n <= 200).
    """
    info = get_solver(task.solver)
    ds = load_task_data(task)
    params = with_task_rng(task.solver, task, task.params)  # the fit rows' draws (e.g. support)
    if info.takes_task:
        params["task"] = ds.task
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


KINDS = {
    "abe-spectrum": (abe_spectrum_row, _no_solver_validate),
    "breakdown-scan": (breakdown_scan_row, None),
    "primal-dual": (primal_dual_row, _no_solver_validate),
    "cv": (cv_row, None),
    "kkt-condition": (kkt_condition_row, _no_solver_validate),
    "cg-iterations": (cg_iterations_row, _no_solver_validate),
    "pruning-path": (pruning_path_row, _no_solver_validate),
    "crossover-timing": (crossover_timing_row, _no_solver_validate),
}
#: Kinds whose rows changed meaning: version 2 of crossover-timing names its wall-clock columns time_*,
#: version 3 adds the condition estimate, the loop's vector updates and H^T beta to the rate model and
#: times its kernels in the solvers' order and memory state, version 4 times the solvers after their
#: symmetrizing pass became a banded copy (core.symmetric.mirror_lower) instead of an index-array scatter.
_VERSIONS = {"crossover-timing": 4}

for _name, (_func, _val) in KINDS.items():
    register_task_kind(_name, _func, validate=_val, version=_VERSIONS.get(_name, 1))
# like kind "fit": a solver gets only the grid keys it takes, on data sets of its task
register_task_kind("system-spectrum", system_spectrum_row, validate=_spectrum_validate, version=3,
                   select_params=select_solver_params, accepts=accepts_combination, replace=True)
