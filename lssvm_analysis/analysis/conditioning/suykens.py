"""Conditioning of Suykens' ch. 3 systems: the KKT matrix against its Schur complement, CG against (3.27).

Suykens ch. 3 §3.4.1
--------------------
KKT matrix (3.32) [[0, d^T], [d, H]] with H = Omega + I/gamma (d = 1 for
regression, d = y for classification 3.5); the Schur-complement form (3.25)
is diag(s, H), s = d^T H^-1 d.  The KKT eigenvalues interlace those of H and
lie in the Rusten-Winther intervals (Rusten & Winther 1992, Lemma 2.1, with
B = d^T, one singular value ||d||): negative in
[(mu_1 - sqrt(mu_1^2 + 4||d||^2))/2, (mu_n - sqrt(mu_n^2 + 4||d||^2))/2],
positive in [mu_1, (mu_n + sqrt(mu_n^2 + 4||d||^2))/2], mu = eig(H).
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import scipy.linalg

from ...core.validation import as_matrix, as_vector, check_finite, check_positive
from ...linalg.kernels import rbf_kernel
from ...linalg.cg import cg_iteration_bound, hestenes_stiefel_cg
from ...arith.precision import get_precision
from ...solvers.kkt import add_ridge, bordered_matrix, ridge
from ..reference import reference_solve

__all__ = ["kkt_condition", "cg_iterations"]

# --------------------------------------------------------------------------- #
# Suykens: KKT matrix against its Schur complement; CG against (3.27)
# --------------------------------------------------------------------------- #
def _suykens_omega(X, sigma2, labels):
    X = as_matrix(X, "X", allow_object=False)
    check_finite(X, "X")
    K = rbf_kernel(X, sigma2=sigma2)
    if labels is None:
        return K, np.ones(X.shape[0])
    d = as_vector(labels, "labels", allow_object=False).astype(np.float64)
    if d.shape[0] != X.shape[0] or not np.all(np.abs(d) == 1):
        raise ValueError(f"expected {X.shape[0]} labels in {{-1, +1}}, got labels.shape={d.shape}")
    return d[:, None] * K * d[None, :], d


def _rw_bounds(mu1, mun, dn2):
    r1, rn = math.sqrt(mu1 * mu1 + 4 * dn2), math.sqrt(mun * mun + 4 * dn2)
    return (mu1 - r1) / 2, (mun - rn) / 2, (mun + rn) / 2


def kkt_condition(X, *, sigma2, C_grid, labels=None, precision="float64") -> pd.DataFrame:
    """kappa_2 of the KKT matrix (3.32)/(3.5) against that of H = Omega + I/gamma (tidy).

    Parameters
    ----------
    X : (n, d) array_like
    sigma2 : float
    C_grid : sequence of float
        Values of C (Suykens' gamma).
    labels : (n,) array of +-1, optional
        Classification (3.5): Omega_kl = y_k y_l K_kl, border d = y.
        Default: regression (3.32), Omega = K, d = 1.
    precision : str
        Arithmetic of the eigenvalue computations ("float64" or "mpN").  The
        matrix is the float64 one a float64 solver forms, converted exactly.

    Returns
    -------
    DataFrame with ``C``, ``n``, ``mu_min``, ``mu_max``, ``cond_H``, ``s``
    (= d^T H^-1 d), ``cond_schur`` (of diag(s, H), eq. 3.25), ``kkt_neg``,
    ``kkt_pos_min``, ``kkt_max``, ``cond_kkt``, the Rusten-Winther bounds
    ``rw_neg_lo``, ``rw_neg_hi``, ``rw_pos_hi``, ``resolved`` (mu_min > n u
    mu_max in this precision) and ``precision``.

    Notes
    -----
    eig(H) = eig(Omega) + 1/gamma from one decomposition of Omega; the KKT
    matrix needs one (n+1) x (n+1) eigvalsh per gamma (O(n^3) each; mp only
    for n <= ~60).
    """
    p = get_precision(precision)
    Om64, d = _suykens_omega(X, sigma2, labels)
    n = Om64.shape[0]
    rows = []
    with p.context():
        Om, dp = p.asarray(Om64), p.asarray(d)
        lam = p.eigvalsh(Om)
        for C in np.atleast_1d(np.asarray(C_grid, dtype=float)):
            check_positive("C", float(C))
            H = add_ridge(Om.copy(), C, p)
            s = float(dp @ p.cho_solve(p.cholesky(H, check=False), dp))
            K, _ = bordered_matrix(H, dp, dp, p)
            ev = p.to_float64(p.eigvalsh(K))
            mu = p.to_float64(lam + ridge(C, p))
            rows.append(_kkt_row(C, n, mu, s, ev, float(d @ d), p))
    return pd.DataFrame(rows)


def _kkt_row(C, n, mu, s, ev, dn2, p):
    neg, pos = ev[ev < 0], ev[ev > 0]
    sig = np.abs(ev)
    lo, hi, top = _rw_bounds(mu[0], mu[-1], dn2)
    return {"C": float(C), "n": n, "mu_min": mu[0], "mu_max": mu[-1], "cond_H": mu[-1] / mu[0],
            "s": s, "cond_schur": max(s, mu[-1]) / min(s, mu[0]),
            "kkt_neg": neg[-1] if len(neg) else np.nan, "kkt_pos_min": pos[0] if len(pos) else np.nan,
            "kkt_max": ev[-1], "cond_kkt": sig.max() / sig.min(), "n_negative": int(len(neg)),
            "rw_neg_lo": lo, "rw_neg_hi": hi, "rw_pos_hi": top,
            "resolved": bool(mu[0] > n * p.unit_roundoff * mu[-1]), "precision": p.name}


def cg_iterations(X, y, *, sigma2, C, precision="float64", rtol=None) -> dict:
    """Hestenes-Stiefel CG on the two SPD systems of Suykens' algorithm, H eta = y, H nu = 1.

    Iterations to a relative residual ``rtol`` (default sqrt(u); the V(x)
    stop is off, so only the residual decides) beside the (3.27) bound
    ``cg_iteration_bound(kappa(H), eps)`` at the A-norm error reduction eps
    each run reached, eps = ||x_i - x*||_H / ||x*||_H with x* the certified
    ``reference_solve`` of the system as formed in the precision.  kappa(H)
    is the exact shift of eig(Omega) (float64; accurate while 1/C >> n u ||Omega||).

    Returns
    -------
    dict with ``C``, ``n``, ``cond_H``, ``sqrt_cond``, ``rtol``, ``precision``
    and per system (``_y``, ``_1``): ``iterations``, ``reason``, ``eps``, ``bound``.

    Notes
    -----
    (3.26) holds in exact arithmetic; finite-precision CG may need more
    iterations when orthogonality is lost (reported, not hidden).
    """
    p = get_precision(precision)
    X = as_matrix(X, "X", allow_object=False)
    y = as_vector(y, "y", allow_object=False).astype(np.float64)
    K = rbf_kernel(X, sigma2=sigma2)
    n = K.shape[0]
    lam = scipy.linalg.eigvalsh(K)
    mu = lam + 1.0 / C
    cond = float(mu[-1] / mu[0])
    rtol = math.sqrt(p.unit_roundoff) if rtol is None else check_positive("rtol", rtol)
    out = {"C": float(C), "n": n, "cond_H": cond, "sqrt_cond": math.sqrt(cond), "rtol": rtol,
           "precision": p.name}
    with p.context():
        H = add_ridge(p.asarray(K), C, p)
        H64 = p.to_float64(H)
        for tag, b in (("y", y), ("1", np.ones(n))):
            res = hestenes_stiefel_cg(H, p.asarray(b), rtol=rtol, vtol=1e-300, maxiter=20 * n,
                                      precision=p)
            # certified beyond the residual CG reaches (mp50: rtol = sqrt(u) ~ 1e-25)
            digits = max(20, math.ceil(-math.log10(rtol)) + 5)
            xs = reference_solve(H, p.asarray(b), digits=digits).x_float64()
            e = p.to_float64(res.x) - xs
            eps = math.sqrt(max(float(e @ H64 @ e), 0.0) / float(xs @ H64 @ xs))
            out.update({f"iterations_{tag}": res.iterations, f"reason_{tag}": res.reason,
                        f"eps_{tag}": eps,
                        f"bound_{tag}": _bound_at(cond, eps)})
    return out


def _bound_at(kappa, eps):
    """The CG bound at the reduction a run reached: inf at eps = 0, 0 at eps >= 1 (x_0 = 0 has eps = 1)."""
    if eps == 0:
        return np.inf
    return cg_iteration_bound(kappa, eps) if eps < 1 else 0.0
