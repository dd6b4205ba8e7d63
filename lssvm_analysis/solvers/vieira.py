"""Vieira et al. (ESANN 2016): OP-LSSVM (MRSR ranking + PRESS LOO) and IP-LSSVM.

Both start from the LS-SVM system (Vieira eqs. 3-4, Suykens 3.5 / 3.32)

    D z = l,   D = [[0, a^T], [a, Omega + I/C]],   z = [b; alpha],   l = [0; d]

(classification: a = y, Omega_ij = y_i y_j K(x_i, x_j), d = 1; regression:
a = 1, Omega = K, d = y; our C is Vieira's gamma) and keep a subset of the
columns of D (patterns) *and all L + 1 rows*, so the final model solves the
non-square least-squares problem min ||D_* z - l|| (Vieira step 4, after
Valyon & Horvath: dropping rows would lose the labels of pruned points).

``op-lssvm`` (Vieira §4):
  1. rank the columns of D by MRSR (:func:`lssvm_analysis.linalg.mrsr.mrsr`,
     eqs. 7-10; one response, so it is LARS);
  2. choose k* = argmin_k PRESS(k), the leave-one-out MSE of the
     least-squares fit on the first k ranked columns (Myers; OP-ELM), over
     k = 1..k_max, every row of D (the constraint row included) a "sample";
  3. solve the (L+1) x k* problem over the kept columns.
``ip-lssvm`` (Carvalho & Braga 2009, as Vieira uses it): solve the full
  system, keep the L - round(pL) patterns with the largest alpha, re-solve
  the non-square problem over all rows.

Numerical variants (each a registered keyword value, measured in every
precision by the report): ``ranking`` (MRSR by QR append / bordered
explicit inverse), ``press`` (hat diagonal from the QR factor / from the
bordered (D_k^T D_k)^{-1}) and ``solve`` (lstsq by QR / normal equations
(D_*^T D_*)^{-1} D_*^T l as printed).  The normal-equations forms have
errors ~ kappa(D_k)^2 u, the QR forms ~ kappa(D_k) u (plus the
kappa^2 ||r|| / (||D|| ||z||) term every least-squares solution has).

References
----------
D.C.S. Vieira, A.R. Rocha Neto, A.W.O. Rodrigues, Sparse least squares
support vector machines via multiresponse sparse regression, ESANN 2016.
B.P.R. Carvalho, A.P. Braga, IP-LSSVM: a two-step sparse classifier,
Pattern Recognition Letters 30 (2009) 1507-1515.
Y. Miche et al., OP-ELM: optimally pruned extreme learning machine,
IEEE Trans. Neural Networks 21 (2010) 158-162.
"""
from __future__ import annotations

import math
import warnings

import numpy as np

from ..linalg.condest import NOT_ESTIMATED, Conditioning
from ..core.validation import check_open_interval
from ..core.exceptions import (CholeskyBreakdownError, IllConditionedWarning, LUBreakdownError,
                               QRBreakdownError)
from ..arith.precision import get_precision
from ._common import breakdown_fit, make_fit, validate_xy
from .peaks import IP_PEAK, OP_PEAK
from .times import IP_TIME, OP_TIME
from ._registry import LAPACK_THRESHOLD, LadderKnob, fit_params, register, variant
from ..exact.formation import ExactProblem, bordered_columns_dd, normal_equations
from ..exact.formation_balls import bordered_columns_balls, normal_balls, pieces_for
from ..linalg.press import press_curve
from .vieira_selection import (K_RULES, NORMALIZATIONS, READINGS, TRAINING_ACCURACY_STEP, lssvm_system,
                               op_options, op_selection, shared_selection, solve_kept)
from .result import PhaseTimer
from .kkt import formed_kappa, model_coef

__all__ = ["fit_op_lssvm", "fit_ip_lssvm", "least_squares_system", "press_curve", "lssvm_system", "shared_selection",
           "solve_kept", "NORMALIZATIONS", "IP_RANKINGS", "READINGS", "K_RULES", "TRAINING_ACCURACY_STEP",
           "K_LADDER"]

_BOTH = ("regression", "classification")  # package convention: regression is the default task
IP_RANKINGS = ("signed-alpha", "abs-alpha")
#: The kappa ladder's knob (SolverInfo.ladder): k* = k_max kept columns of D (k_rule="fixed"), as
#: fractions of n.  The printed ranking / PRESS forms' own k* keeps kappa_2(D_*) ~ 1e5 at every C
#: (sinc, n = 30, sigma2 = 10: k* = 10); at C = 1e16 the fixed k = 8, 15, 27 give kappa_2(D_*) = 1.1e4, 4.2e7,
#: 6.1e16 in float64 (float64 QR of D_*; MRSR stops at 26 steps there, at 18 in float32).  MRSR may keep
#: fewer columns than k_max asks (``diag_k_star``, ``chosen``): on k_max = 27 at C = 1e16 the printed
#: ``ranking = bordered-inverse`` keeps 16 in float64 and longdouble and 24 in mp50 (problem kappa 2.4e7,
#: 1.2e7 and 2.5e14), where the QR ranking keeps 26, 27 and 27 (6.1e16, 1.8e17, 1.7e17).
K_LADDER = (LadderKnob("k_max", (0.25, 0.4, 0.5, 0.6, 0.75, 0.9), per_point=True, fixed={"k_rule": "fixed"},
                       chosen="diag_k_star",
                       note="k* = k_max kept columns of D (k_rule = fixed): the kept kernel columns become "
                            "dependent as k grows (kappa_2(D_*) rises, kappa of the normal equations is its "
                            "square); the printed ranking / PRESS forms' own k* keep kappa_2(D_*) near 1e5 on "
                            "every C"),)
_SOLVE_VARIANTS = (
    variant("solve", "lstsq", "least squares by a thin QR of D_* (LAPACK Householder for "
            "float32/64, CGS2 otherwise), error ~ kappa(D_*) u"),
    variant("solve", "normal-equations", "z = (D_*^T D_*)^{-1} D_*^T l by Cholesky, as printed "
            "(step 4), error ~ kappa(D_*)^2 u", literal=True),
)


# ---------------------------------------------------------------------------
# Shared: the model of a solution, the system builders and exact models (the system D z = l and
# the least-squares solve over kept columns are in vieira_selection)
# ---------------------------------------------------------------------------
def _unpack_solution(z, cols, y, task, p):
    """coef_ on the kept patterns (alpha * y for classification) and bias (0 if not kept)."""
    cols = np.asarray(cols)
    is_bias = cols == 0
    bias = z[np.flatnonzero(is_bias)[0]] if is_bias.any() else p.scalar(0)
    alpha = z[~is_bias]
    patterns = cols[~is_bias] - 1
    return model_coef(alpha, y[patterns], task), bias, patterns


def least_squares_system(X, y, fit, **params):
    """The normal equations (D_*^T D_*) z = D_*^T l of an op-lssvm / ip-lssvm fit.

    Parameters
    ----------
    X : (L, n) array, y : (L,) array
        The training set of the fit.
    fit : Fit
        ``fit.diagnostics["columns"]`` are the kept columns of D (0 = bias).

    Returns
    -------
    A : (k, k) array, rhs : (k,) array
        Formed in ``fit.precision`` from D of eq. (4) formed as the solver
        formed it.  Every variant's z solves this system up to its own error
        (the lstsq one is not computed from it, but its exact solution is
        the same).
    unpack : callable
        ``unpack(z) -> {"coef": ..., "bias": ...}``.
    """
    merged = fit_params(fit, params)
    task = merged.get("task", "regression")
    X, y, _, _ = validate_xy(X, y, task=task, C=merged["C"], precision=fit.precision)
    p = get_precision(fit.precision)
    cols = np.asarray(fit.diagnostics["columns"], dtype=np.intp)
    with p.context():
        D, l = lssvm_system(X, y, fit.kernel, p, merged["C"], task, PhaseTimer())
        Dk = p.keep_columns(D, cols)
        A, rhs = p.matmul(Dk.T, Dk), p.matmul(Dk.T, l)

    def unpack(z):
        coef, bias, _ = _unpack_solution(np.asarray(z), cols, y, task, p)
        return {"coef": coef, "bias": bias}

    return A, rhs, unpack


def _exact_kept_model(X, y, fit, params, choices, bits=None):
    """min ||D_* z - l|| on the fit's kept columns as normal equations: formed from the DD columns
    Ozaki-exactly, or (``bits``) in ``bits``-bit balls, the escalated route ``wider``."""
    merged = fit_params(fit, params)
    task = merged.get("task", "regression")
    X, y, _, _ = validate_xy(X, y, task=task, C=merged["C"], precision="float64")
    cols = np.asarray(fit.diagnostics["columns"], dtype=np.intp)
    wide = get_precision("mp40")

    def unpack(z):
        coef, bias, _ = _unpack_solution(np.asarray(z), cols, y, task, wide)
        return {"coef": coef, "bias": bias}

    def wider(b):
        return _exact_kept_model(X, y, fit, params, choices, bits=b)

    if bits is not None:
        D, l = bordered_columns_balls(X, y, fit.kernel, merged["C"], task, cols, bits=bits)
        H, Hr, c, cr = normal_balls(D, l, bits=bits, count=pieces_for(bits))
        return ExactProblem(H, c, unpack, float(Hr.sum(axis=1).max()) * (1 + 1e-12), float(cr.max()),
                            condition_power=0.5, choices=choices, wider=wider, rows=len(y) + 1,
                            method=f"normal equations of D_*, kernel and products in {bits}-bit balls")
    D, l = bordered_columns_dd(X, y, fit.kernel, merged["C"], task, cols)
    H, c, H_bound, c_bound = normal_equations(D, l)
    return ExactProblem(H, c, unpack, H_bound, c_bound, condition_power=0.5, choices=choices, wider=wider,
                        rows=len(y) + 1, method="normal equations of D_* Ozaki-exact, kernel in DD")


def exact_op_model(X, y, fit, **params):
    """Exact model of an op-lssvm fit (registry ``exact_model=``): min ||D_* z - l|| on its columns.

    D_* = the kept columns of D (eq. 4) in DD, every row kept (step 4); its
    normal equations formed Ozaki-exactly (:func:`formation.normal_equations`), or in wider
    balls when the exact model escalates (``ExactProblem.wider``).
    Every ``solve`` variant has this one exact model.  The MRSR order and
    k* are choices the arithmetic makes: the kept columns (in rank order)
    and k* are frozen and recorded.  Problem condition: kappa_2(D_*) as
    sqrt(kappa_inf(D_*^T D_*)).
    """
    choices = {"columns": tuple(int(c) for c in fit.diagnostics["columns"]),
               "k_star": int(fit.diagnostics["k_star"])}
    return _exact_kept_model(X, y, fit, params, choices)


def exact_ip_model(X, y, fit, **params):
    """Exact model of an ip-lssvm fit: as :func:`exact_op_model` on the kept patterns (the
    pruning by |alpha| is the choice recorded).  Problem condition: kappa_2(D_*)."""
    return _exact_kept_model(X, y, fit, params,
                             {"columns": tuple(int(c) for c in fit.diagnostics["columns"])})


def _ls_backward_bound(fit, n):
    """Backward error for the normal equations of the solution: Cholesky on them is backward
    stable (30 n u); a QR solution z satisfies them only to ~ kappa(D_*) u relative residual
    (G (z - z*) with ||z - z*|| / ||z|| ~ kappa(D_*) u), hence the factor 1 + kappa(D_*)."""
    u = get_precision(fit.precision).unit_roundoff
    if fit.params.get("solve") == "normal-equations":
        return LAPACK_THRESHOLD * n * u
    return LAPACK_THRESHOLD * n * u * (1.0 + float(fit.diagnostics.get("cond_D_star", 1.0)))


def _validate_common(X, y, task, C, kernel, sigma2, degree, t, precision):
    if task not in _BOTH:
        raise ValueError(f"expected task in {_BOTH}, got task={task!r}")
    X, y, k, p = validate_xy(X, y, task=task, C=C, kernel=kernel, sigma2=sigma2, degree=degree,
                             t=t, precision=precision)
    if len(y) < 2:
        raise ValueError(f"expected at least 2 samples, got X.shape={X.shape}")
    return X, y, k, p


# ---------------------------------------------------------------------------
# OP-LSSVM (its column selection: vieira_selection)
# ---------------------------------------------------------------------------
def _conditioning(cond_d, solve, method):
    """The condition of what the final solve factors: D_k (QR, lstsq) or D_k^T D_k (normal equations).

    kappa_2(D_k) from float64 (the matrix rounded to float64), squared for the
    normal equations: kappa_2(D_k^T D_k) = kappa_2(D_k)^2.  Not estimated
    when the caller switched ``conditioning`` off.
    """
    if cond_d is None:
        return NOT_ESTIMATED
    if solve == "normal-equations":
        kappa = float(cond_d)
        squared = kappa * kappa  # float product: inf past 1.3e154, where ** raises OverflowError
        if np.isinf(squared) and np.isfinite(kappa):
            warnings.warn(IllConditionedWarning(
                f"kappa_2(D_k)^2 = ({kappa:.3g})^2 overflows float64: recorded as inf",
                kappa=squared, unit_roundoff=float("nan"), matrix="D_k^T D_k (normal equations)",
                method=method + ", squared"), stacklevel=3)
        return Conditioning(squared, method + ", squared", "D_k^T D_k (normal equations)", norm=2)
    return Conditioning(float(cond_d), method, "D_k (kept columns)", norm=2)


@register("op-lssvm", tasks=_BOTH, paper="vieira", equations="(3)-(10), §4 algorithm",
          variants=(variant("ranking", "qr", "MRSR with a QR factor updated by column append (CGS2)"),
                    variant("ranking", "bordered-inverse", "MRSR with the explicit (D_A^T D_A)^{-1} "
                            "bordered update of the reference code", literal=True),
                    variant("press", "qr", "hat diagonal h_ii = ||Q_k[i, :]||^2"),
                    variant("press", "normal-equations", "hat diagonal from (D_k^T D_k)^{-1}, as "
                            "printed (bordered update)", literal=True),
                    *_SOLVE_VARIANTS),
          exact_model=exact_op_model, peak=OP_PEAK, time=OP_TIME, ladder=K_LADDER,
          system=least_squares_system, backward_bound=_ls_backward_bound)
def fit_op_lssvm(X, y, *, precision="float64", C=1.0, kernel="rbf", sigma2=1.0, degree=3, t=1.0,
                 task="regression", ranking="qr", press="qr", solve="lstsq", k_max=None,
                 rank_bias=False, normalize="unit-norm", conditioning=True, reading="paper",
                 k_rule="press"):
    """OP-LSSVM: rank the columns of D by MRSR, keep k* by PRESS, least squares over all rows.

    Parameters
    ----------
    X : (L, n) array_like
    y : (L,) array_like
        Labels in {-1, +1} (classification, Vieira eq. 4) or targets (regression).
    precision : str or Precision
        Every step runs in it.
    C : float > 0
        Vieira's gamma (D has I/C on its diagonal).
    kernel, sigma2, degree, t
        RBF width sigma2: K = exp(-||x - z||^2 / sigma2) (LIBSVM gamma = 1/sigma2).
    task : {"regression", "classification"}
        Default "regression" (the package convention); Vieira's experiments are "classification".
    ranking : {"qr", "bordered-inverse"}
        MRSR's OLS step (:func:`lssvm_analysis.mrsr`).
    press : {"qr", "normal-equations"}
        How the hat diagonal of the PRESS statistic is formed.
    solve : {"lstsq", "normal-equations"}
        Step 4: least squares by QR, or (D_*^T D_*)^{-1} D_*^T l as printed.
    k_max : int >= 1, optional
        Columns ranked and PRESS evaluated for k = 1..k_max; default
        min(100, L) (OP-ELM's cap; Vieira's #SVs of 80 +- 15 on every set fit it).
    rank_bias : bool, default False
        False: the bias column d_0 = [0; a] is always kept and the patterns
        are ranked given it (projected out first).  True: the literal
        reading, d_0 is ranked like every column and can be pruned (then b = 0).
    normalize : {"unit-norm", "standardize", "none"}
        Column scaling for the ranking only (the paper is silent; the final
        coefficients are re-fitted, so it changes the order, not the fit of
        a given set).  Default "unit-norm": MRSR's correlation test compares
        columns at equal scale (the reference code requires it); centring
        is replaced by projecting out d_0 (the bias is LS-SVM's intercept;
        the first row of D is a constraint row, so a mean over rows has no
        meaning).  "standardize" = OP-ELM's preprocessing (centre by the
        row mean, unit scale).  "none": raw columns.
    conditioning : bool, default True
        Compute cond_2(D_k) for every k (a float64 QR and k small SVDs,
        "conditioning" phase).
    reading : {"paper", "authors-code"}
        What MRSR ranks.  "paper": the columns of D as above.  "authors-code":
        the authors' MATLAB (OPLSSVM.m in github Clifte/outros): the L x L
        block Omega + I/C against the labels (regression: the targets), no
        bias row, nothing projected; the bias column is put in front of the
        ranked columns afterwards (PRESS and the solve as above).  Their
        file also picks k by training accuracy (``k_rule``) and solves the
        normal equations in that loop (``solve``).
    k_rule : {"press", "training-accuracy", "fixed"}
        How k* is chosen.  "press" (the paper, §4): argmin of PRESS(k).
        "training-accuracy" (the authors' MATLAB, OPLSSVM.m: ``for i =
        1:2:length(indexes)`` ... ``[v id] = max(train_accuracy)``): the
        first k of largest training accuracy over k = 1, 3, 5, ... <= k_max,
        each fitted by ``solve``; classification only; the loop stops at the
        first solve that breaks down (theirs at rcond(D_k^T D_k) <= 1e-17).
        Their ``max_sv`` is 200 (pass ``k_max=200``).  "fixed": every ranked
        column, k* = k_max (fewer if MRSR stopped earlier): a study at a
        given k.

    Returns
    -------
    Fit
        ``coef_`` (k*,) on ``support_`` (the kept patterns, in rank order),
        ``bias_``.  ``diagnostics``: ``ranking`` (columns of D in MRSR order,
        0 = bias), ``press`` (PRESS(k), k = 1..), ``press_guarded`` (rows
        with 1 - h_ii < 10 eps per k; PRESS is inf there), ``k_star``,
        ``columns`` (kept columns of D), ``solution`` (z over them, the
        unknowns of :func:`least_squares_system`), ``cond_Dk`` (cond_2 of
        D_k per k), ``cond_D_star``, ``mrsr_status``, ``mrsr_steps``,
        ``mrsr_pivots``, ``press_stop``, ``k_rule``; with
        ``k_rule="training-accuracy"`` also ``training_accuracy`` at
        ``training_accuracy_k``.  A Cholesky breakdown of the normal
        equations (``solve="normal-equations"``) gives ``status="breakdown"``
        with its record, as does a dependent kept column of the lstsq solve
        (a :class:`QRBreakdown`); the message is in ``solve_failure``.

    Raises
    ------
    ValueError, TypeError
        Bad input (one class, labels not +-1, C or sigma2 <= 0, k_max < 1,
        unknown variant, normalize or k_rule, k_rule="training-accuracy" for
        regression), naming the argument.

    Notes
    -----
    Cost: D O(L^2 n); MRSR O(L^2 k_max); PRESS O(L k_max^2); final solve
    O(L k*^2); memory O(L^2) for D.  The PRESS statistic uses every one of
    the L + 1 rows (the constraint row with target 0 included), all k from
    1 to k_max, no OP-ELM early stop.
    """
    X, y, k, p = _validate_common(X, y, task, C, kernel, sigma2, degree, t, precision)
    k_max = op_options(k_max, len(y), rank_bias, normalize, conditioning, reading, k_rule, task)
    params = {"C": C, "task": task, "kernel": k.name, **k.params, "ranking": ranking, "press": press,
              "solve": solve, "k_max": k_max, "rank_bias": bool(rank_bias), "normalize": normalize,
              "reading": reading, "k_rule": k_rule}
    timer = PhaseTimer()
    # everything before the solve is the same for every ``solve`` (but in the training-accuracy
    # rule, whose loop solves): two fits that differ only there share it
    shared = {key: v for key, v in params.items() if key != "solve" or k_rule == "training-accuracy"}
    with p.context():
        D, l, sel = op_selection(X, y, k, p, timer, shared, conditioning)
        cols, qr = sel["columns"], sel["qr"]
        diag = {key: v for key, v in sel.items() if key not in ("qr", "n_steps", "phases")}
        try:
            with timer("solve"):
                z = solve_kept(D, l, list(cols), p, solve, qr)
        except (CholeskyBreakdownError, QRBreakdownError) as err:
            return breakdown_fit("op-lssvm", p, err, X=X, kernel=k, timer=timer,
                                 diagnostics={**diag, "solve_failure": str(err)}, params=params)
        coef, bias, patterns = _unpack_solution(z, cols, y, task, p)
    diag["solution"] = z
    cond = _conditioning(diag.get("cond_D_star"), solve, "float64 QR of the ranked columns")
    return make_fit("op-lssvm", p, coef=coef, bias=bias, support=patterns, X=X, kernel=k,
                    timer=timer, iterations=sel["n_steps"], diagnostics=diag, params=params,
                    conditioning=cond)


# ---------------------------------------------------------------------------
# IP-LSSVM
# ---------------------------------------------------------------------------
def _n_keep(L, prune_fraction):
    """L - round_half_up(p L): matches all 18 IP-LSSVM #SV entries of Vieira's Table 2."""
    return L - int(math.floor(prune_fraction * L + 0.5))


@register("ip-lssvm", tasks=_BOTH, paper="vieira", equations="(3)-(5); Carvalho & Braga 2009",
          variants=_SOLVE_VARIANTS, system=least_squares_system, backward_bound=_ls_backward_bound,
          exact_model=exact_ip_model, peak=IP_PEAK, time=IP_TIME)
def fit_ip_lssvm(X, y, *, precision="float64", C=1.0, kernel="rbf", sigma2=1.0, degree=3, t=1.0,
                 task="regression", prune_fraction=0.1, order_by="signed-alpha", solve="lstsq"):
    """IP-LSSVM: full LS-SVM, keep the L - round(pL) largest alpha, re-solve over all rows.

    Parameters
    ----------
    X, y, precision, C, kernel, sigma2, degree, t, task
        As :func:`fit_op_lssvm` (C is Vieira's gamma).
    prune_fraction : float in (0, 1), default 0.1
        p, the fraction of patterns *pruned* (Vieira's IP-LSSVM_{10/20/30%}:
        their #SVs, 181 = 201 - round(20.1), show the subscript is the pruned
        share, although the text says the opposite).
    order_by : {"signed-alpha", "abs-alpha"}
        Keep the largest signed alpha (default: in LS-SVM classification
        alpha_i = C (1 - y_i f(x_i)), so these are the points nearest to or on
        the wrong side of the boundary, Carvalho & Braga's support vectors)
        or the largest |alpha|.
    solve : {"lstsq", "normal-equations"}
        The second step's non-square solve, as :func:`fit_op_lssvm`.

    Returns
    -------
    Fit
        ``coef_`` on the kept patterns, ``bias_``; ``diagnostics``:
        ``columns`` (kept columns of D, 0 = bias), ``solution``,
        ``alpha_full`` (first-step alpha, float64), ``cond_D_star``.  An
        exactly singular D gives ``status="breakdown"`` with its LU record; a
        dependent kept column (lstsq) or a failed Cholesky of the normal
        equations gives it with the QR / Cholesky record (``breakdown``) and
        the message in ``diagnostics["solve_failure"]``.

    Raises
    ------
    ValueError, TypeError
        Bad input, prune_fraction not in (0, 1), unknown order_by, naming the argument.

    Notes
    -----
    Step 1 is lssvm-kkt's LU of D ((L+1)^3/3 flops, Vieira eq. 5), step 2 a
    thin QR of the (L+1) x (L - round(pL) + 1) kept columns (O(L^3) too).
    """
    check_open_interval("prune_fraction", prune_fraction, 0.0, 1.0)
    if order_by not in IP_RANKINGS:
        raise ValueError(f"expected order_by in {IP_RANKINGS}, got order_by={order_by!r}")
    X, y, k, p = _validate_common(X, y, task, C, kernel, sigma2, degree, t, precision)
    L = len(y)
    n_keep = _n_keep(L, prune_fraction)
    if n_keep < 1:
        raise ValueError(f"expected prune_fraction to keep at least one of L={L} patterns, "
                         f"got prune_fraction={prune_fraction!r}")
    params = {"C": C, "task": task, "kernel": k.name, **k.params, "prune_fraction": prune_fraction,
              "order_by": order_by, "solve": solve}
    timer = PhaseTimer()
    with p.context():
        D, l = lssvm_system(X, y, k, p, C, task, timer, peak=IP_PEAK)
        try:
            with timer("factorization"):
                z_full = p.solve(D, l)
        except LUBreakdownError as err:
            return breakdown_fit("ip-lssvm", p, err, X=X, kernel=k, timer=timer, params=params)
        alpha = p.to_float64(z_full[1:])
        score = alpha if order_by == "signed-alpha" else np.abs(alpha)
        keep = np.sort(np.argsort(-score, kind="stable")[:n_keep])
        cols = [0] + list(keep + 1)
        diag = {"columns": np.array(cols), "alpha_full": alpha, "n_pruned": L - n_keep,
                "cond_D_star": formed_kappa(D[:, cols])}
        try:
            with timer("solve"):
                z = solve_kept(D, l, cols, p, solve)
        except (CholeskyBreakdownError, QRBreakdownError) as err:
            return breakdown_fit("ip-lssvm", p, err, X=X, kernel=k, timer=timer,
                                 diagnostics={**diag, "solve_failure": str(err)}, params=params)
        coef, bias, patterns = _unpack_solution(z, cols, y, task, p)
    diag["solution"] = z
    return make_fit("ip-lssvm", p, coef=coef, bias=bias, support=patterns, X=X, kernel=k,
                    timer=timer, diagnostics=diag, params=params,
                    conditioning=_conditioning(diag["cond_D_star"], solve, "float64 SVD of D_k"))
