"""Conditioning of Abe's ELS matrices: the dual Omega_e against the primal matrix of eq. (7).

Abe (ESANN 2008), empirical feature space
-----------------------------------------
With H_m (M x N) the mapped training data (rows h(x_i)^T, eq. 2) and the
centred H_c = H_m - 1 h_bar^T:

* dual matrix (eq. 11):   Omega_e(C) = H_m H_m^T + I/C    (M x M)
* primal matrix (eq. 7):  P(C) = H_c^T H_c + I/C         (N x N)

(7) is H_c^T H_c + I/C because sum_i h_i h_i^T - (1/M) sum_ij h_i h_j^T =
H_m^T (I - 11^T/M) H_m and I - 11^T/M is a symmetric idempotent.

*One decomposition gives every C.*  For any symmetric G, eig(G + I/C) =
eig(G) + 1/C with the same eigenvectors, so the spectra for the whole C grid
come from one decomposition per (sigma2, eta).  We take it as the SVD of H_m
(and of H_c): the nonzero eigenvalues of H_m H_m^T are sigma_i(H_m)^2 and the
other M - N are exactly zero, because rank(H_m H_m^T) <= N.  So, for N < M,

    eig(Omega_e(C)) = {1/C (M - N times)} u {sigma_i(H_m)^2 + 1/C},
    eig(P(C))       = {sigma_i(H_c)^2 + 1/C},

and lambda_min(Omega_e) = 1/C *exactly* (Abe §2.4: "rank N for C = infinity").
The shift is exact in exact arithmetic for every C; the only errors are
those of the one SVD, |d sigma_i| <= p(M, N) u ||H||_2 (backward stable,
Weyl), i.e. a relative error ~ 2 p u sigma_max / sigma_i in sigma_i^2 - far
below the u lambda_max that an ``eigvalsh`` of the formed M x M matrix could
resolve - plus one rounding of the sum.  What the shift does *not* give is
the spectrum of the matrix a solver forms in floating point: fl(G + I/C) loses
1/C once 1/C < u G_ii / 2.  That loss is the breakdown mechanism below.
Where the small end of a spectrum lies below float64 resolution
(lambda_min < c n u lambda_max) :func:`check_spectrum_mp` recomputes it with
``get_precision("mp30").eigvalsh`` on the N x N Gram matrices (mp is slow:
keep N <= ~100).

*Predicted breakdown.*  lambda_min(Omega_e) = 1/C, so kappa_2(Omega_e) ~
C ||Omega_e||_2 and a float Cholesky must fail once the trailing pivots, 1/C
in exact arithmetic, drown in the rounding error of the factorization, whose
size is the backward error ||dA||_2 = c n u ||A||_2 (worst case c n ~ n^2,
Higham, *Accuracy and Stability*, Thm 10.3-10.7).  We predict
C* = 1/(c n u ||Omega_e||_2) with c n = 1, i.e. the rule kappa_2 u = 1.  The
worst-case n needs every rounding error to have the same sign; measured, the
breakdown comes at 2-3 C* (c n = 0.36-0.51) for M = 60..400 in float32,
float64 and longdouble - *provided the prediction uses the matrix the solver
forms*: the selection must run in the solver's precision (a float32
selection with eta = 1e-3 keeps 10 columns where float64 and mp keep 68,
because its pivots d_j carry errors ~ j u32 > eta^2).  A second, statistical
estimate, C_stat = 1/(2 sqrt(m) u max_i A_ii), models the m eigenvalues lost
in the noise as a trailing block perturbed by rounding errors of the size of
the entries with random signs (semicircle law); it explains why c n < 1 and
varies with ||A||_2 / max_i A_ii.  Either prediction says where the Cholesky
*can* fail; it *must* fail (with probability -> 1) only when many eigenvalues
are in the noise - Omega_e has M - N of them, while the primal matrix, with
cond(H_c)^2 u > 1, has only a few and may survive.  The rigorous side is
Demmel's criterion (Higham Thm 10.7): Cholesky cannot fail while
lambda_min(D^-1 A D^-1) > n gamma_{n+1} / (1 - n gamma_{n+1}),
D = diag(A)^(1/2); :func:`predict_breakdown` returns the C below which that
guarantees success.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
import scipy.linalg

from ...core.validation import as_matrix, check_finite, check_int, check_positive
from ...linalg.kernels import make_kernel
from ...linalg.incomplete_cholesky import thresholded_cholesky
from ...arith.precision import get_precision

__all__ = ["EmpiricalFeatures", "empirical_features", "dual_eigenvalues", "primal_eigenvalues",
           "abe_spectra", "abe_condition", "check_spectrum_mp", "BreakdownPrediction",
           "predict_breakdown", "primal_saturation"]

# --------------------------------------------------------------------------- #
# Abe: the empirical feature space and its two coefficient matrices
# --------------------------------------------------------------------------- #
@dataclass(frozen=True)
class EmpiricalFeatures:
    """H_m of Abe's eq. (2) for one (sigma2, eta) and the SVDs that give every spectrum.

    Attributes
    ----------
    H : ndarray, shape (M, N), float64
        Rows h(x_i)^T (``feature_map="kernel"``: K[:, S]; ``"whitened"``: L^-1 h).
    support : ndarray of int, shape (N,)
        The selected support vectors S (Abe's i_1..i_N).
    sv, sv_centred : ndarray, shape (N,)
        Singular values of H_m and of H_c = H_m - 1 h_bar^T, descending.
    sigma2, eta : float
    feature_map : str
    """

    H: np.ndarray
    support: np.ndarray
    sv: np.ndarray
    sv_centred: np.ndarray
    sigma2: float
    eta: float
    feature_map: str = "kernel"

    @property
    def M(self) -> int:
        return int(self.H.shape[0])

    @property
    def N(self) -> int:
        return int(self.H.shape[1])

    @property
    def gram_diag(self) -> np.ndarray:
        """Diagonal of H_m H_m^T (= ||h(x_i)||^2), shape (M,)."""
        return np.einsum("ij,ij->i", self.H, self.H)

    @property
    def centred(self) -> np.ndarray:
        """H_c = H_m - 1 h_bar^T, shape (M, N)."""
        return self.H - self.H.mean(axis=0)

    @property
    def centred_diag(self) -> np.ndarray:
        """Diagonal of H_c^T H_c (the primal matrix at C = infinity), shape (N,)."""
        Hc = self.centred
        return np.einsum("ij,ij->j", Hc, Hc)


def empirical_features(X, *, sigma2, eta, feature_map="kernel", precision="float64",
                       selection=None) -> EmpiricalFeatures:
    """Select the support vectors as ``els-primal``/``els-dual`` do and map the data.

    Parameters
    ----------
    X : (M, d) array_like
    sigma2 : float > 0
        RBF width (Abe's 1/gamma).
    eta : float in (0, 1)
        Abe's threshold on the Cholesky pivot root (§2.1).
    feature_map : {"kernel", "whitened"}
    precision : str
        Arithmetic of the selection and of H (as the solver in that precision
        forms them: a float32 selection keeps other columns than a float64
        one); H is then converted to float64 (exactly, but for mp) for the SVDs.
    selection : CholeskySelection, optional
        That selection, already made (``thresholded_cholesky(X, rbf(sigma2),
        eta, precision=precision)``, e.g. an els path's): not made again.

    Notes
    -----
    Cost O(M N^2) for the selection plus two SVDs of M x N, O(M N^2).
    """
    X = as_matrix(X, "X", allow_object=False)
    check_finite(X, "X")
    if feature_map not in ("kernel", "whitened"):
        raise ValueError(f"expected feature_map in ('kernel', 'whitened'), got feature_map={feature_map!r}")
    if not (isinstance(eta, (int, float)) and 0 < eta < 1):
        raise ValueError(f"expected eta in the open interval (0, 1), got eta={eta!r}")
    p = get_precision(precision)
    with p.context():
        sel = selection if selection is not None else thresholded_cholesky(
            X, make_kernel("rbf", sigma2=sigma2), eta, precision=p)
        H = p.to_float64(sel.columns if feature_map == "kernel" else sel.G)
    H = np.array(H, dtype=np.float64)
    if H.shape[1] == 0:
        raise ValueError(f"expected at least one pivot root >= eta, got none for eta={eta!r}")
    sv = scipy.linalg.svdvals(H)
    svc = scipy.linalg.svdvals(H - H.mean(axis=0))
    H.flags.writeable = False
    return EmpiricalFeatures(H, np.asarray(sel.indices), sv, svc, float(sigma2), float(eta),
                             feature_map)


def dual_eigenvalues(feat: EmpiricalFeatures, C: float) -> np.ndarray:
    """Eigenvalues of Omega_e(C) = H_m H_m^T + I/C, ascending, shape (M,) (exact shift)."""
    check_positive("C", C)
    zeros = np.zeros(max(feat.M - feat.N, 0))
    return np.sort(np.concatenate([zeros, feat.sv ** 2])) + 1.0 / C


def primal_eigenvalues(feat: EmpiricalFeatures, C: float) -> np.ndarray:
    """Eigenvalues of the matrix of eq. (7), H_c^T H_c + I/C, ascending, shape (N,)."""
    check_positive("C", C)
    return np.sort(feat.sv_centred ** 2) + 1.0 / C


def abe_spectra(feat: EmpiricalFeatures, C_grid) -> pd.DataFrame:
    """Full spectra of Omega_e and of the primal matrix for every C (tidy).

    Returns
    -------
    DataFrame with columns ``matrix`` ("dual" | "primal"), ``C``, ``index``
    (0 = smallest) and ``eigenvalue``.
    """
    frames = []
    for C in np.atleast_1d(np.asarray(C_grid, dtype=float)):
        for name, ev in (("dual", dual_eigenvalues(feat, C)), ("primal", primal_eigenvalues(feat, C))):
            frames.append(pd.DataFrame({"matrix": name, "C": float(C),
                                        "index": np.arange(len(ev)), "eigenvalue": ev}))
    return pd.concat(frames, ignore_index=True)


def abe_condition(feat: EmpiricalFeatures, C_grid) -> pd.DataFrame:
    """lambda_min, lambda_max and kappa_2 of both matrices across C (tidy).

    Columns ``matrix``, ``C``, ``order``, ``lambda_min``, ``lambda_max``,
    ``cond`` and ``cond_limit`` (the C -> infinity limit: cond(H_c)^2 for the
    primal matrix, infinity for Omega_e when N < M).
    """
    rows = []
    lim_p = (feat.sv_centred[0] / feat.sv_centred[-1]) ** 2 if feat.sv_centred[-1] > 0 else np.inf
    lim_d = np.inf if feat.N < feat.M else (feat.sv[0] / feat.sv[-1]) ** 2
    for C in np.atleast_1d(np.asarray(C_grid, dtype=float)):
        for name, ev, lim in (("dual", dual_eigenvalues(feat, C), lim_d),
                              ("primal", primal_eigenvalues(feat, C), lim_p)):
            rows.append({"matrix": name, "C": float(C), "order": len(ev), "lambda_min": ev[0],
                         "lambda_max": ev[-1], "cond": ev[-1] / ev[0], "cond_limit": lim})
    return pd.DataFrame(rows)


def check_spectrum_mp(feat: EmpiricalFeatures, *, digits: int = 30, max_n: int = 120) -> pd.DataFrame:
    """Compare the float64 (SVD) spectra of H_m^T H_m and H_c^T H_c with mp.

    The N x N Gram matrices are formed in mp from the float64 H (exact
    conversion) and their eigenvalues computed by ``get_precision(f"mp{digits}").eigvalsh``.

    Returns
    -------
    DataFrame with ``matrix`` ("gram" | "centred"), ``index``, ``lambda_float64``
    (sigma_i^2), ``lambda_mp``, ``rel_err``, ``svd_bound`` = 2 N u sigma_max /
    sigma_i + (N u sigma_max / sigma_i)^2 (the SVD's backward error N u ||H||
    moved onto sigma_i^2 by Weyl) and ``below_resolution`` (lambda_mp <
    N u lambda_max: an eigvalsh of the formed float64 matrix cannot see it).

    Raises
    ------
    ValueError
        If N > ``max_n`` (an mp eigendecomposition is O(N^3) in Python).
    """
    if feat.N > max_n:
        raise ValueError(f"expected N <= max_n={max_n} for an mp eigendecomposition, got N={feat.N}")
    p = get_precision(f"mp{check_int('digits', digits, minimum=5)}")
    u = get_precision("float64").unit_roundoff
    rows = []
    for name, A, sv in (("gram", feat.H, feat.sv), ("centred", feat.centred, feat.sv_centred)):
        with p.context():
            Ap = p.asarray(A)
            ev = p.to_float64(p.eigvalsh(p.matmul(Ap.T, Ap)))
        lam64 = np.sort(sv ** 2)
        r = feat.N * u * sv[0] / np.sqrt(np.maximum(lam64, np.finfo(float).tiny))
        rows.append(pd.DataFrame({
            "matrix": name, "index": np.arange(feat.N), "lambda_float64": lam64, "lambda_mp": ev,
            "rel_err": np.abs(lam64 - ev) / np.abs(ev), "svd_bound": 2 * r + r * r,
            "below_resolution": ev < feat.N * u * ev[-1]}))
    return pd.concat(rows, ignore_index=True)


# --------------------------------------------------------------------------- #
# predicted and measured Cholesky breakdown of Omega_e
# --------------------------------------------------------------------------- #
@dataclass(frozen=True)
class BreakdownPrediction:
    """Where a Cholesky of Omega_e(C) (or of the primal matrix) in ``precision`` should fail.

    Attributes
    ----------
    precision, matrix : str
        ``matrix`` is "dual" (Omega_e, eq. 11) or "primal" (eq. 7).
    unit_roundoff : float
    norm : float
        The C -> infinity limit of the matrix's 2-norm (sigma_max^2 of H_m or H_c).
    C_star : float
        The C at which kappa_2 u = 1 (c n = 1); inf if kappa_2 u < 1 for every C
        (the primal matrix when cond(H_c)^2 < 1/u).
    C_safe : float
        Below it Demmel's criterion (Higham Thm 10.7) guarantees success
        (inf: for every C).
    C_lost : float
        Above it 1/C < u min_i A_ii / 2: the ridge rounds away from every
        diagonal entry (for Omega_e: fl(Omega_e) = fl(H_m H_m^T), singular up
        to rounding).
    C_stat : float
        Statistical estimate 1/(2 sqrt(m) u max_i A_ii): the m eigenvalues of
        the C = infinity matrix below u lambda_max sit, once 1/C is below the
        noise, in a trailing block perturbed by rounding errors of the size
        of the entries (u max_i A_ii) with random signs, whose extreme
        eigenvalue is about 2 sqrt(m) times that (semicircle law).  It
        explains why the measured c n is below 1 and varies with ||A|| /
        max_i A_ii (large for smooth kernels).
    n_noise : int
        That m (M - N plus the sigma_i(H_m)^2 below u lambda_max, for Omega_e).
    """

    precision: str
    matrix: str
    unit_roundoff: float
    norm: float
    C_star: float
    C_safe: float
    C_lost: float
    C_stat: float = np.inf
    n_noise: int = 0


def predict_breakdown(feat, precision, *, matrix="dual") -> BreakdownPrediction:
    """Predicted breakdown C of the DuLS (or PrLS) Cholesky (module notes: c n = 1).

    Parameters
    ----------
    feat : EmpiricalFeatures
    precision : str or Precision
    matrix : {"dual", "primal"}

    Notes
    -----
    With lambda_0 = lambda_min and Lambda = lambda_max of the C = infinity
    matrix (0 and sigma_max(H_m)^2 for Omega_e when N < M; sigma_min(H_c)^2
    and sigma_max(H_c)^2 for (7)), kappa_2(C) = (Lambda + 1/C)/(lambda_0 + 1/C)
    reaches 1/u at 1/C = (u Lambda - lambda_0)/(1 - u).
    C_safe: with D = diag(A)^(1/2) and g = max_i A_ii at C = infinity,
    lambda_min(D^-1 A D^-1) >= (lambda_0 + 1/C)/(g + 1/C) > t =
    n gamma_{n+1} / (1 - n gamma_{n+1}), gamma_k = k u / (1 - k u), holds for
    1/C > (t g - lambda_0)/(1 - t).
    """
    if matrix not in ("dual", "primal"):
        raise ValueError(f"expected matrix in ('dual', 'primal'), got matrix={matrix!r}")
    p = get_precision(precision)
    u = p.unit_roundoff
    if matrix == "dual":
        sv, diag, n = feat.sv, feat.gram_diag, feat.M
        lam0 = 0.0 if feat.N < feat.M else float(sv[-1] ** 2)
    else:
        sv, diag, n = feat.sv_centred, feat.centred_diag, feat.N
        lam0 = float(sv[-1] ** 2)
    big = float(sv[0] ** 2)
    x_star = (u * big - lam0) / (1 - u)
    gam = (n + 1) * u / (1 - (n + 1) * u)
    t = n * gam / (1 - n * gam)
    x_safe = (t * float(diag.max()) - lam0) / (1 - t)
    lam = sv ** 2
    m = int(np.sum(lam < u * big)) + (n - len(sv))
    C_stat = 1.0 / (2 * math.sqrt(m) * u * float(diag.max())) if m else np.inf
    return BreakdownPrediction(p.name, matrix, u, big, 1.0 / x_star if x_star > 0 else np.inf,
                               1.0 / x_safe if x_safe > 0 else np.inf, 2.0 / (u * float(diag.min())),
                               C_stat, m)


def primal_saturation(X, *, sigma2, etas, C_grid, feature_map="kernel") -> pd.DataFrame:
    """cond of the primal matrix and of Omega_e across C for several eta (tidy).

    Columns ``eta``, ``N``, ``M``, ``C``, ``cond_primal``, ``cond_dual``,
    ``cond_Hc_sq`` (= cond(H_c)^2, the C -> infinity limit of cond_primal),
    ``saturation`` = cond_primal / cond_Hc_sq (-> 1 as C grows; exactly
    (1 + 1/(C s_max^2)) / (1 + 1/(C s_min^2)) with s = sigma(H_c)).
    """
    frames = []
    for eta in etas:
        feat = empirical_features(X, sigma2=sigma2, eta=eta, feature_map=feature_map)
        cond = abe_condition(feat, C_grid)
        wide = cond.pivot(index="C", columns="matrix", values="cond")
        lim = float(cond.loc[cond.matrix == "primal", "cond_limit"].iloc[0])
        frames.append(pd.DataFrame({
            "eta": float(eta), "N": feat.N, "M": feat.M, "C": wide.index.to_numpy(),
            "cond_primal": wide["primal"].to_numpy(), "cond_dual": wide["dual"].to_numpy(),
            "cond_Hc_sq": lim, "saturation": wide["primal"].to_numpy() / lim}))
    return pd.concat(frames, ignore_index=True)
