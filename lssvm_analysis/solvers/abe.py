"""Abe's LS SVRs in the empirical feature space: primal (PrLS) and dual (DuLS).

Abe, "Comparison of sparse least squares support vector regressors trained in
primal and dual" (ESANN 2008), eq. (1)-(14).  Symbols (ours = Abe's):
``C`` = C (margin parameter), ``eta`` = eta (threshold on the Cholesky pivot
root), ``sigma2`` = 1/gamma of the RBF kernel exp(-gamma ||x - z||^2),
``M`` training data, ``N`` <= M support vectors (dimension of the empirical
feature space), ``v``, ``b_e``, ``beta``, ``Omega_e`` as in the paper.

Support vectors (§2.1)
    The kernel matrix is factorized column by column; a column whose pivot
    root sqrt(K_jj - ||l_j||^2) is below ``eta`` is deleted (Abe 2005) -- see
    :func:`lssvm_analysis.linalg.incomplete_cholesky.thresholded_cholesky`.  The kept indices
    i_1 < ... < i_N are the support vectors; ``L`` is the Cholesky factor of
    K[S, S].

Feature maps
    ``feature_map="kernel"`` is eq. (2) literally: h(x) = (K(x_i1, x), ...,
    K(x_iN, x))^T, so H_m = K[:, S] (M x N).  ``feature_map="whitened"`` is
    the empirical feature space of Abe's refs. [3, 4]: h~(x) = L^-1 h(x), for
    which h~(x_i)^T h~(x_j) is the Nystrom approximation of K_ij (equal to
    K_ij when N = M).  The rows of the selection's ``G`` are exactly these
    forward substitutions (the outer-product recurrence computes row i of G
    as the solution of L g = h(x_i)), so H~_m = G costs nothing.  In both
    maps the model is f(x) = v^T h(x) + b_e (eq. 1); the Fit stores
    ``coef_`` = v (kernel map) or L^-T v~ (whitened map), the coefficients on
    the support vectors' kernel columns, so ``Fit.predict`` needs no map.

Primal (PrLS, eq. 6-7)
    (I/C + sum_i h_i h_i^T - (1/M) sum_ij h_i h_j^T) v
        = sum_i y_i h_i - (1/M) sum_ij y_i h_j,   b_e = (1/M) sum_i (y_i - v^T h_i).
    ``formation="blas3"``: with h_bar = (1/M) sum_i h_i and the centred
    H_c = H_m - 1 h_bar^T, the matrix is H_c^T H_c + I/C (one SYRK-shaped
    product, M N^2 flops with symmetry) and the right-hand side
    H_c^T (y - y_bar 1), equal to (7)'s since H_c^T 1 = 0.
    ``formation="as-described"``: the paper's own recipe, a loop over i that
    accumulates the outer products h_i h_i^T (M rank-one updates of N^2),
    then subtracts (1/M) (sum h)(sum h)^T.  It is slower (no BLAS 3) and,
    because it subtracts two large nearly equal matrices, it loses about
    log10(||H_m||^2 / ||H_c||^2) more digits than the centred form.

Dual (DuLS, eq. 9-11)
    Omega_e = H_m H_m^T + I/C (M x M), factorized by Cholesky;
    Omega_e^-1 y and Omega_e^-1 1 by one two-column solve;
    b_e = (1^T Omega_e^-1 1)^-1 1^T Omega_e^-1 y and
    beta = Omega_e^-1 y - b_e Omega_e^-1 1 (eq. 10); v = H_m^T beta (eq. 9).

Cost (flops, leading terms)
    selection O(M N^2); primal formation M N^2 (symmetric product),
    factorization N^3/3; dual formation M^2 N, factorization M^3/3.

Stability (§2.4)
    The primal matrix is positive definite (eq. 12-14) with smallest
    eigenvalue >= 1/C, and its condition number stays bounded as C grows:
    cond -> cond(H_c^T H_c) = cond(H_c)^2, which eta controls.  Omega_e has
    rank N at C = infinity, so for N < M its M - N smallest eigenvalues are
    exactly 1/C and cond(Omega_e) ~ C ||H_m||^2: for large C its Cholesky
    breaks down (the '-' entries of Abe's Table 1).  The primal form is the
    more stable one only while cond(H_c)^2 << 1/u: with a small eta (N close
    to M) cond(H_c)^2 exceeds 1/u and the primal Cholesky breaks down too,
    about one decade of C after the dual (measured on Mackey-Glass in
    ``tests/test_abe.py``).  A breakdown, in either form, is returned as
    ``status="breakdown"`` with the record.  (Abe's conclusion says "small
    margin parameter"; his analysis and Table 1 are about large C.)
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from ..linalg.condest import cholesky_conditioning
from ..core.exceptions import CholeskyBreakdownError
from ..arith.precision import get_precision, precision_of
from ..exact.formation import reduced_lssvr_problem
from .kkt import add_ridge_symmetric, bordered_matrix
from .result import PhaseTimer
from ._common import breakdown_fit, make_fit, readonly
from .abe_formation import (FEATURE_MAPS, FORMATION_VARIANTS, FORMATIONS, base_diagnostics, dual_gram, dual_matrix,
                            dual_solve, els_coef, els_params, embed, embed_key, factor_facts, primal_parts,
                            primal_system, validate_els)
from .peaks import ELS_DUAL_PEAK, ELS_PRIMAL_PEAK
from .times import ELS_DUAL_TIME, ELS_PRIMAL_TIME
from ._registry import LadderKnob, fit_params, get_solver, register

__all__ = ["fit_els_primal", "fit_els_dual", "ElsPath", "FORMATIONS", "FEATURE_MAPS", "C_LADDER"]

def _example_eta(X, y, task, rng) -> dict:
    """eta = 0.05: N < M, the empirical feature space is a proper subspace."""
    return {"eta": 0.05}


# --------------------------------------------------------------------------- #
# system builders for the conformance battery
# --------------------------------------------------------------------------- #
def _rebuild(X, y, fit, params):
    """Re-run the fit's selection in fit.precision; check it gives fit.support_."""
    allowed = get_solver(fit.solver).params
    unknown = sorted(set(params) - set(allowed) - {"precision"})
    if unknown:
        raise TypeError(f"expected parameters among {allowed}, got unexpected {unknown}")
    if "precision" in params and get_precision(params["precision"]).name != fit.precision:
        raise ValueError(f"expected precision={fit.precision!r} (the fit's), "
                         f"got precision={params['precision']!r}")
    opts = {"C": 1.0, "kernel": "rbf", "sigma2": 1.0, "degree": 3, "t": 1.0, "eta": 1e-3,
            "feature_map": "kernel", **dict(fit.params)}
    opts.update({n: v for n, v in params.items() if n != "precision"})
    X, y, k, p = validate_els(X, y, precision=fit.precision, **opts)
    with p.context():
        sel, H = embed(X, k, opts["eta"], p, opts["feature_map"], PhaseTimer(), ELS_PRIMAL_PEAK,
                        f"{fit.solver} (selection)")
    if not np.array_equal(sel.indices, fit.support_):
        raise ValueError("expected the parameters the fit ran with: the selection gives "
                         f"{len(sel.indices)} support vectors, the fit has {fit.n_support}")
    return y, p, sel, H, {**opts, "embed_key": embed_key(X, k, opts["eta"], p, opts["feature_map"])}


def _arith(x, p):
    """The wider of p and the arithmetic of x: unpack maps a reference solution exactly."""
    q = precision_of(x)
    return q if q.unit_roundoff < p.unit_roundoff else p


def _primal_conformance(X, y, fit, **params):
    """The system (7) an ``els-primal`` fit solved (registry ``system=``).

    Parameters
    ----------
    X : (M, d) array_like, y : (M,) array_like
        The training set of the fit.
    fit : Fit
        Gives the precision and the hyper-parameters; ``params`` override
        ``fit.params`` but must give the same support set (ValueError).

    Returns
    -------
    A : (N, N) array, rhs : (N,) array
        Formed in ``fit.precision`` exactly as the solver formed them (same
        selection, same formation).
    unpack : callable
        ``unpack(v) -> {"coef", "bias"}``: b_e = y_bar - v^T h_bar (6) with the
        y_bar and h_bar of that formation, and coef = v (kernel map) or
        L^-T v (whitened), computed in the wider of ``fit.precision`` and the
        arithmetic of ``v`` (a certified reference is mapped without being
        rounded first).  ``unpack(fit.diagnostics["v"])`` reproduces the fit.
    """
    y, p, sel, H, o = _rebuild(X, y, fit, params)
    with p.context():
        A, rhs, h_bar, y_bar = primal_system(H, y, o["C"], p, o.get("formation", "blas3"),
                                              o["embed_key"])

    def unpack(x):
        q = _arith(x, p)
        with q.context():
            v = q.asarray(x)
            b = q.asarray(np.array([y_bar]))[0] - v @ q.asarray(h_bar)  # eq. (6), p's h_bar, y_bar
            return {"coef": els_coef(v, q.asarray(sel.L), o["feature_map"], q), "bias": b}

    return A, rhs, unpack


def exact_els_model(X, y, fit, **params):
    """Exact model of an els-primal or els-dual fit (registry ``exact_model=``).

    Both solve (1)-(2) in the empirical feature space of the support S the
    thresholded Cholesky selected (a choice the arithmetic makes: frozen and
    recorded): min 1/2 ||v||^2 + C/2 sum_i (y_i - v^T h(x_i) - b)^2.  With
    ``feature_map="kernel"`` h(x) = K(X_S, x) and the model's coef is v (R =
    I/C); with ``"whitened"`` h(x) = L^-1 K(X_S, x), coef = L^-T v and ||v||^2
    = coef^T K_SS coef (R = K_SS / C, Zhao & Sun's (7)), so the exact model
    does not depend on the factor L the fit computed.  Problem condition:
    kappa_2 of the least-squares matrix (:func:`formation.reduced_lssvr_problem`).
    """
    merged = fit_params(fit, params)
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    penalty = "identity" if merged.get("feature_map", "kernel") == "kernel" else "kernel"
    return reduced_lssvr_problem(X, y, fit.kernel, merged["C"], fit.support_, penalty=penalty,
                                 choices={"support": tuple(int(i) for i in fit.support_)})


def _dual_conformance(X, y, fit, **params):
    """The dual system an ``els-dual`` fit solved, in bordered form (registry ``system=``).

    [[0, 1^T], [1, Omega_e]] [b_e; beta] = [0; y]: its second block row is
    Omega_e beta + b_e 1 = y (4 with 9), its first 1^T beta = 0 (9); the
    solution is (10).  The fit reached it by the two Cholesky solves of (10).

    Returns
    -------
    A : (M+1, M+1) array, rhs : (M+1,) array
        In ``fit.precision``, Omega_e formed as the solver formed it.
    unpack : callable
        ``unpack([b_e; beta]) -> {"coef", "bias"}`` with v = H_m^T beta (9),
        mapped to ``coef`` as in :func:`_primal_conformance`.
        ``unpack([fit.bias_, *fit.diagnostics["beta"]])`` reproduces the fit.

    Parameters and the precision of unpack as :func:`_primal_conformance`.
    """
    y, p, sel, H, o = _rebuild(X, y, fit, params)
    M = H.shape[0]
    with p.context():
        Om = dual_matrix(H, o["C"], p, o["embed_key"])
        A, rhs = bordered_matrix(Om, p.asarray(np.ones(M)), p.asarray(y), p)

    def unpack(x):
        q = _arith(x, p)
        with q.context():
            xq = q.asarray(x)
            v = q.matmul(q.asarray(H).T, xq[1:])   # eq. (9) as the fit computes it
            return {"coef": els_coef(v, q.asarray(sel.L), o["feature_map"], q), "bias": xq[0]}

    return A, rhs, unpack


#: The kappa ladder's knob of Abe's LS SVRs: C past the ladder's top, with eta = 1e-9.  Their problem is
#: a ridge least squares in the empirical feature space, [H_m 1; I/sqrt(C) 0] (:func:`exact_els_model`):
#: its kappa is at most ~ sqrt(C) ||H_m||, so it grows as sqrt(C), not as C (1.7e9 at C = 1e16, the
#: ladder's top), and at most kappa(H_m), which eta bounds: at eta = 1e-3 (23 of 30 points kept) it
#: stops at 9.9e12 from C = 1e28 on; eta = 1e-9 keeps all 30.  Measured (sinc, n = 30, sigma2 = 10,
#: eta = 1e-9, mp50; the same for els-primal, its as-described formation and els-dual): problem kappa
#: 2.3e11, 2.3e13, 2.6e15, 2.2e17 at C = 1e20, 1e24, 1e28, 1e32 (exact model certified to 34 - 41
#: digits); float32, float64 and longdouble break down on every one of these rungs.
C_LADDER = (LadderKnob("C", (1e20, 1e24, 1e28, 1e32), fixed={"eta": 1e-9},
                       note="C past the ladder's top with eta = 1e-9 (every point kept): the problem is a "
                            "ridge least squares on the empirical features, [H 1; I/sqrt(C) 0], whose "
                            "kappa grows as sqrt(C), not C (1.7e9 at C = 1e16), up to kappa(H), which "
                            "Abe's eta = 1e-3 caps at 9.9e12"),)


# --------------------------------------------------------------------------- #
# the solvers
# --------------------------------------------------------------------------- #
@register("els-primal", tasks=("regression",), paper="abe", equations="(1)-(2), (6)-(7)",
          system=_primal_conformance, variants=FORMATION_VARIANTS,
          example=_example_eta, exact_model=exact_els_model, peak=ELS_PRIMAL_PEAK, time=ELS_PRIMAL_TIME,
          ladder=C_LADDER,
          ridge_path=lambda X, y, **kw: _SolverPath.of("els-primal", X, y, **kw))
def fit_els_primal(X, y, *, precision="float64", C=1.0, kernel="rbf", sigma2=1.0, degree=3, t=1.0,
                   eta=1e-3, formation="blas3", feature_map="kernel"):
    """Primal LS SVR in the empirical feature space (Abe's PrLS SVR, eq. 6-7).

    Parameters
    ----------
    X : (M, d) array_like
        Training inputs (read only).
    y : (M,) array_like
        Training targets.
    precision : str or Precision, default="float64"
        Arithmetic of every step (selection, formation, Cholesky, solves).
    C : float > 0, default=1.0
        Margin parameter (Abe's C).
    kernel, sigma2, degree, t
        Kernel and its parameters; for RBF ``sigma2`` = 1/gamma (Abe's gamma).
    eta : float in (0, 1), default=1e-3
        Threshold on the pivot root in the selection (Abe's eta); larger eta
        gives the sparse PrLS SVR.
    formation : {"blas3", "as-described"}, default="blas3"
        How the N x N matrix of (7) is formed (see the module notes).
    feature_map : {"kernel", "whitened"}, default="kernel"
        h(x) of eq. (2), or the whitened L^-1 h(x) of refs. [3, 4].

    Returns
    -------
    Fit
        ``coef_`` (N,) on the support vectors ``support_`` (the selection
        order), ``bias_`` = b_e; ``status="breakdown"`` with the record if the
        Cholesky factorization of (7) fails.  ``diagnostics``: N, M, the
        pivot roots of the selection, the factor's diagonal range, the
        lower bound (max l_ii / min l_ii)^2 on cond(A), and ``v`` (N,), the
        solution of (7) in the feature map's coordinates (= ``coef_`` for
        the kernel map), in the precision.

    Raises
    ------
    ValueError, TypeError
        Bad X, y, C <= 0, eta not in (0, 1), unknown kernel, formation or
        feature_map (the message names the argument).

    Notes
    -----
    Cost: selection O(M N^2), formation M N^2, Cholesky N^3/3.  The matrix is
    positive definite with eigenvalues >= 1/C (eq. 12-14), and its condition
    number saturates at cond(H_c)^2 as C grows: the stable form as long as
    cond(H_c)^2 << 1/u (eta large enough), where H_c is H_m with its column
    means removed.
    """
    X, y, k, p = validate_els(X, y, precision=precision, C=C, kernel=kernel, sigma2=sigma2,
                           degree=degree, t=t, eta=eta, feature_map=feature_map, formation=formation)
    timer = PhaseTimer()
    with p.context():
        sel, H = embed(X, k, eta, p, feature_map, timer, ELS_PRIMAL_PEAK, "els-primal")
        ELS_PRIMAL_PEAK.ensure(H.shape[0], p, r=H.shape[1], what="els-primal (the N x N system)")
        with timer("formation"):
            system = primal_system(H, y, C, p, formation, embed_key(X, k, eta, p, feature_map))
    return _primal_finish(X, y, k, p, sel, H, system, timer, els_params(C, k, eta, feature_map, formation))


def _factor(name, A, p, timer, X, k, sel, diag, params):
    """(Cholesky factor of A timed as the factorization, None), or (None, the breakdown Fit)."""
    try:
        with timer("factorization"):
            return p.cholesky(A, check=False, lower=True), None
    except CholeskyBreakdownError as err:
        return None, breakdown_fit(name, p, err, X=X, kernel=k, timer=timer, support=sel.indices,
                                   diagnostics=diag, params=params)


def _primal_finish(X, y, k, p, sel, H, system, timer, params):
    """Factor the formed (7), ``system = (A, rhs, h_bar, y_bar)``, and finish the fit:
    v, b_e (6) and the coefficients (els-primal's steps after its formation)."""
    A, rhs, h_bar, y_bar = system
    M, N = H.shape
    feature_map = params["feature_map"]
    diag = {**base_diagnostics(sel, M, N), "formation": params["formation"], "feature_map": feature_map}
    with p.context():
        L, broke = _factor("els-primal", A, p, timer, X, k, sel, diag, params)
        if broke is not None:
            return broke
        with timer("solve"):
            v = p.cho_solve(L, rhs)
            b = y_bar - v @ h_bar  # eq. (6)
            coef = els_coef(v, sel.L, feature_map, p)
    # "solution": the unknowns of the system builder (v of eq. 7), for backward errors.
    diag.update(factor_facts(L), v=readonly(v), solution=readonly(v))
    with timer("factorization"):  # the estimate is part of it, as in LAPACK's xPOSVX
        cond = cholesky_conditioning(A, L, p, matrix="primal matrix of eq. (7)")
    return make_fit("els-primal", p, coef=coef, bias=b, support=sel.indices, X=X, kernel=k,
                    timer=timer, diagnostics=diag, params=params, conditioning=cond,
                    overflow_phase="solve")


@register("els-dual", tasks=("regression",), paper="abe", equations="(1)-(2), (9)-(11)",
          system=_dual_conformance, example=_example_eta,
          exact_model=exact_els_model, peak=ELS_DUAL_PEAK, time=ELS_DUAL_TIME, ladder=C_LADDER,
          ridge_path=lambda X, y, **kw: _SolverPath.of("els-dual", X, y, **kw))
def fit_els_dual(X, y, *, precision="float64", C=1.0, kernel="rbf", sigma2=1.0, degree=3, t=1.0,
                 eta=1e-3, feature_map="kernel"):
    """Dual LS SVR in the empirical feature space (Abe's DuLS SVR, eq. 9-11).

    Parameters
    ----------
    X : (M, d) array_like
    y : (M,) array_like
    precision, C, kernel, sigma2, degree, t, eta, feature_map
        As in :func:`fit_els_primal` (Abe's C, gamma = 1/sigma2, eta).

    Returns
    -------
    Fit
        ``coef_`` (N,) = v (kernel map) or L^-T v (whitened map) on the support
        vectors, ``bias_`` = b_e; ``status="breakdown"`` with the record when
        the Cholesky factorization of Omega_e fails (Abe's '-').
        ``diagnostics``: N, M, pivot roots, factor diagonal range, the lower
        bound on cond(Omega_e), ``v`` = H_m^T beta (N,) in the feature map's
        coordinates, the multipliers ``beta`` (M,) in the
        precision (beta = C xi by (9): the scaled residuals), and ``beta_sum``
        = sum_i beta_i (zero by (9): a free check of the solve).

    Raises
    ------
    ValueError, TypeError
        As :func:`fit_els_primal`.

    Notes
    -----
    Cost: selection O(M N^2), formation M^2 N, Cholesky M^3/3, two solves
    2 M^2.  For N < M, Omega_e has the eigenvalue 1/C with multiplicity
    M - N, so cond(Omega_e) ~ C ||H_m||^2 grows without bound in C: the
    unstable form (§2.4).
    """
    X, y, k, p = validate_els(X, y, precision=precision, C=C, kernel=kernel, sigma2=sigma2,
                           degree=degree, t=t, eta=eta, feature_map=feature_map)
    timer = PhaseTimer()
    with p.context():
        sel, H = embed(X, k, eta, p, feature_map, timer, ELS_DUAL_PEAK, "els-dual")
        ELS_DUAL_PEAK.ensure(H.shape[0], p, r=H.shape[1], what="els-dual (Omega_e and its factor)")
        with timer("formation"):
            Om = dual_matrix(H, C, p, embed_key(X, k, eta, p, feature_map))
    return _dual_finish(X, y, k, p, sel, H, Om, timer, els_params(C, k, eta, feature_map))


def _dual_finish(X, y, k, p, sel, H, Om, timer, params):
    """Factor the formed Omega_e and finish the fit: b_e, beta (10), v (9) and the coefficients
    (els-dual's steps after its formation)."""
    M = H.shape[0]
    feature_map = params["feature_map"]
    diag = {**base_diagnostics(sel, M, M), "feature_map": feature_map}
    with p.context():
        L, broke = _factor("els-dual", Om, p, timer, X, k, sel, diag, params)
        if broke is not None:
            return broke
        with timer("solve"):
            b, beta, v = dual_solve(L, H, y, p)
            coef = els_coef(v, sel.L, feature_map, p)
    # "solution": the unknowns [b; beta] of the bordered system builder, for backward errors.
    solution = readonly(np.concatenate([np.array([b], dtype=beta.dtype), beta]))
    diag.update(factor_facts(L), v=readonly(v), beta=readonly(beta), beta_sum=float(beta.sum()),
                solution=solution)
    with timer("factorization"):  # the estimate is part of it, as in LAPACK's xPOSVX
        cond = cholesky_conditioning(Om, L, p, matrix="Omega_e of eq. (10)")
    return make_fit("els-dual", p, coef=coef, bias=b, support=sel.indices, X=X, kernel=k,
                    timer=timer, diagnostics=diag, params=params, conditioning=cond,
                    overflow_phase="solve")


# --------------------------------------------------------------------------- #
# both fits along C: what does not depend on C, once
# --------------------------------------------------------------------------- #
class ElsPath:
    """els-primal and els-dual fits of one (X, y, kernel, eta) at many C.

    The selection and H_m are computed once, and for each form the part of
    its matrix that does not depend on C (H_c^T H_c with its right-hand side;
    H_m H_m^T) once, when first needed; at each C the matrix is a copy of that
    part plus the ridge I/C (``add_ridge_symmetric``, as a fresh fit adds
    it), then the fit's own steps (:func:`_primal_finish`,
    :func:`_dual_finish`).  So ``fit(solver, C)`` is ``fit_els_<form>(X, y,
    C=C, ...)`` with the same arithmetic in every precision, bit for bit
    (``tests/test_abe.py``), and ``factor(solver, C)`` is its Cholesky
    factorization alone: the breakdown record, or None.

    Parameters
    ----------
    X, y, precision, kernel, sigma2, degree, t, eta, feature_map
        As :func:`fit_els_primal` (C comes with each fit).
    formation : {"blas3", "as-described"}
        els-primal's formation of (7).

    Attributes
    ----------
    selection : CholeskySelection
        Abe's support vectors (the thresholded Cholesky of §2.1).
    H : (M, N) array in the precision
        H_m (the feature map's rows).

    Notes
    -----
    Memory: besides a fit's own peak, the path keeps the C-independent
    matrices (M x M for els-dual, N x N for els-primal) while it lives.
    A fit's ``timings`` include the shared selection and formation seconds.
    """

    def __init__(self, X, y, *, precision="float64", kernel="rbf", sigma2=1.0, degree=3, t=1.0,
                 eta=1e-3, feature_map="kernel", formation="blas3"):
        self._opts = dict(kernel=kernel, sigma2=sigma2, degree=degree, t=t, eta=eta,
                          feature_map=feature_map)
        X, y, k, p = validate_els(X, y, precision=precision, C=1.0, formation=formation, **self._opts)
        self.X, self.y, self.kernel, self.precision, self.formation = X, y, k, p, formation
        self._timer = PhaseTimer()
        for step in _STEPS.values():   # the selection's M x M part, which every form holds
            step.peak.ensure(X.shape[0], p, r=0, what="els path (selection)")
        with p.context():
            self.selection, H = embed(X, k, eta, p, feature_map, self._timer, ELS_DUAL_PEAK,
                                       "els path")
            self.H = p.keep(H)   # mpN: its FLINT form kept for the products with H and H^T
        self._parts, self._timers, self._factorizers = {}, {}, {}

    def for_solver(self, solver):
        """``solver``'s view: ``.fit(C)``, ``.factor(C)`` (the registry's ``ridge_path``)."""
        self._step(solver)
        return _SolverPath(self, solver)

    def _step(self, solver):
        step = _STEPS.get(solver)
        if step is None:
            raise ValueError(f"expected solver in {tuple(_STEPS)}, got solver={solver!r}")
        if solver not in self._parts:
            M, N = self.H.shape
            step.peak.ensure(M, self.precision, r=N, what=f"{solver} (path)")
            timer = self._timer.copy()
            with self.precision.context(), timer("formation"):
                self._parts[solver] = step.parts(self)
            self._timers[solver] = timer
        return step

    def _formed(self, solver, C):
        step = self._step(solver)
        with self.precision.context():
            return step.at(self._parts[solver], C, self.precision)

    def fit(self, solver, C):
        """The Fit of ``solver`` at C: ``fit_els_<form>(X, y, C=C, ...)``, bit for bit."""
        validate_els(self.X, self.y, precision=self.precision, C=C, **self._opts)
        step = self._step(solver)
        timer = self._timers[solver].copy()
        with timer("formation"):
            formed = self._formed(solver, C)
        params = els_params(C, self.kernel, self._opts["eta"], self._opts["feature_map"],
                         self.formation if step.formation else None)
        return step.finish(self.X, self.y, self.kernel, self.precision, self.selection, self.H, formed,
                           timer, params)

    def factor(self, solver, C):
        """Breakdown record of the Cholesky factorization of ``solver``'s matrix at C, or None
        (the factorization a fit at C runs first; nothing is solved)."""
        validate_els(self.X, self.y, precision=self.precision, C=C, **self._opts)
        step = self._step(solver)
        A = step.matrix(self._formed(solver, C))
        if solver not in self._factorizers:   # A differs from the C-independent part on its diagonal
            self._factorizers[solver] = self.precision.diagonal_factorizer(step.matrix(self._parts[solver]))
        with self.precision.context():
            return self._factorizers[solver](A)


def _primal_at(parts, C, p):
    A, rhs, h_bar, y_bar = parts
    return add_ridge_symmetric(A.copy(), C, p), rhs, h_bar, y_bar


@dataclass(frozen=True)
class _Steps:
    """One form along C: its memory guard, the part of its system that does not depend on C
    (``parts(path)``), the system at C from a copy of it (``at``), the matrix factored
    (``matrix``), its steps after the formation (``finish``), whether it takes ``formation``."""

    peak: object
    parts: Callable
    at: Callable
    matrix: Callable
    finish: Callable
    formation: bool


_STEPS = {
    "els-primal": _Steps(ELS_PRIMAL_PEAK, lambda path: primal_parts(path.H, path.y, path.precision,
                                                                     path.formation),
                         _primal_at, lambda system: system[0], _primal_finish, True),
    "els-dual": _Steps(ELS_DUAL_PEAK, lambda path: dual_gram(path.H, path.precision),
                       lambda G, C, p: add_ridge_symmetric(G.copy(), C, p), lambda Om: Om, _dual_finish,
                       False),
}


class _SolverPath:
    """One solver's view of an :class:`ElsPath` (:meth:`ElsPath.for_solver`)."""

    def __init__(self, path, solver):
        self.path, self.solver = path, solver
        self.selection = path.selection   # Abe's support-vector selection (thresholded Cholesky)

    @classmethod
    def of(cls, solver, X, y, *, precision="float64", **params):
        """The registry's ``ridge_path`` hook: an :class:`ElsPath` viewed by ``solver``."""
        return ElsPath(X, y, precision=precision, **params).for_solver(solver)

    def fit(self, C):
        return self.path.fit(self.solver, C)

    def factor(self, C):
        return self.path.factor(self.solver, C)
