"""Fast paths (issue 13) against floors built from bare NumPy/LAPACK calls, as ``track_`` ratios.

Every ratio is the ratio of the minima of interleaved runs in one process
(``common.interleaved_min``), with one BLAS thread (``common`` limits the
pools), so the noise of a shared machine hits both sides alike.  Targets:

========================================== ======== ==================================
benchmark                                  target   floor (bare calls)
========================================== ======== ==================================
``KernelFloor.track_kernel_over_floor``    <= 1.2   one GEMM (M x d by d x M) + exp of M x M
``KernelFloor.track_kernel_over_blocked``  <= 1     the blocked floor ``bare_rbf``: augmented
                                                    GEMM by bands of 128 rows, clamp and exp
                                                    in place while the band is in cache
``DenseFloor.track_fit_over_floor``        <= 1.05  kernel by ``bare_rbf`` (blocked GEMM
  (lssvm-schur, lssvm-fisher)                       distances, clamp and exp in place),
                                                    dpotrf in place, dpotrs 2 rhs
  (krr)                                             same, dpotrs 1 rhs
  (lssvm-kkt)                                       same kernel written into the (M+1)
                                                    KKT matrix, dgetrf in place, dgetrs
``DenseFloor.track_peak_words_over_m2``    <= 1.5   peak of NumPy's allocations during a
                                                    float64 fit (tracemalloc) / 8 M^2 bytes
``CGFloor.track_iteration_over_product``   <= 1.2   one product H @ P, P of shape M x 2
========================================== ======== ==================================

The floors never call ``lssvm_analysis``: a slow kernel must not slow its own
floor.  The floor table below maps each solver that factors a dense matrix
to its floor; a solver of the table that is not registered is skipped.
"""
import tracemalloc
import warnings

import numpy as np
from scipy.linalg import lapack

from . import common
from .common import la

try:  # the suite imports on versions without it
    from lssvm_analysis.linalg.condest import hager_inverse_norm1
except ImportError:  # pragma: no cover
    hager_inverse_norm1 = None

__all__ = ["KernelFloor", "DenseFloor", "CGFloor", "CondestCost"]


#: Rows per GEMM band of the floor kernel (128 x M float64 exponents stay in L2 while exp runs).
FLOOR_BAND = 128


def bare_rbf(X, sigma2, out=None):
    """exp(-max(||x||^2 + ||z||^2 - 2 x.z, 0) / sigma2) with NumPy calls only, in place, blocked.

    The fastest a kernel can be with bare NumPy/BLAS: the squared norms and
    the scaling folded into one GEMM of augmented rows, [2x/sigma2, -|x|^2/sigma2, -1] .
    [z, 1, |z|^2/sigma2] = -||x - z||^2 / sigma2, by bands of FLOOR_BAND rows, each
    clamped and exponentiated while it is in cache.  Unlike the library it computes the
    full matrix (no mirror, no exact symmetry or unit diagonal): a ratio <= 1
    of the library against it means the library's extra guarantees cost nothing.
    """
    M, d = X.shape
    q = np.einsum("ij,ij->i", X, X)
    U = np.empty((M, d + 2))
    U[:, :d], U[:, d], U[:, d + 1] = X * (2.0 / sigma2), -q / sigma2, -1.0
    W = np.empty((M, d + 2))
    W[:, :d], W[:, d], W[:, d + 1] = X, 1.0, q / sigma2
    out = np.empty((M, M)) if out is None else out
    for i0 in range(0, M, FLOOR_BAND):
        B = out[i0:i0 + FLOOR_BAND]
        np.matmul(U[i0:i0 + FLOOR_BAND], W.T, out=B)   # (2 x.z - |x|^2 - |z|^2) / sigma2
        np.minimum(B, 0, out=B)
        np.exp(B, out=B)
    return out


def _potrf_floor(X, y, sigma2, C, nrhs):
    H = bare_rbf(X, sigma2)
    H.flat[:: H.shape[0] + 1] += 1.0 / C
    L, info = lapack.dpotrf(H.T, lower=1, overwrite_a=1, clean=0)  # H.T: Fortran view, no copy
    if info != 0:  # pragma: no cover - the data are well conditioned
        raise RuntimeError(f"dpotrf failed with info={info}")
    rhs = np.stack([np.ones_like(y), y], axis=1) if nrhs == 2 else np.array(y)
    return lapack.dpotrs(L, rhs, lower=1)[0]


def _getrf_floor(X, y, sigma2, C, nrhs):
    M = len(y)
    A = np.zeros((M + 1, M + 1))
    bare_rbf(X, sigma2, out=A[1:, 1:])
    A[np.arange(1, M + 1), np.arange(1, M + 1)] += 1.0 / C
    A[0, 1:] = A[1:, 0] = 1.0
    lu, piv, info = lapack.dgetrf(A.T, overwrite_a=1)  # A.T: Fortran view of A^T, no copy
    if info != 0:  # pragma: no cover
        raise RuntimeError(f"dgetrf failed with info={info}")
    return lapack.dgetrs(lu, piv, np.concatenate([[0.0], y]), trans=1)[0]


#: The bare-LAPACK floor of each dense direct factorization a solver declares (``direct``).
_FLOOR_OF = {"cholesky": _potrf_floor, "lu": _getrf_floor}


def _floors() -> dict:
    """{solver: (floor, right-hand sides)} of every registered solver whose fit is one dense direct
    solve, from its registered ``direct`` (none on a commit whose registry does not declare it)."""
    out = {}
    for name in common.solver_names():
        try:
            direct = getattr(la.get_solver(name), "direct", None)
        except Exception:  # noqa: BLE001 - "(none)", or an old version's registry
            continue
        if direct is not None:
            out[name] = (_FLOOR_OF[direct[0]], direct[1])
    return out


FLOORS = _floors()


class KernelFloor(common.OneShot):
    """``rbf_kernel`` (float64, gemm formation) against a bare GEMM + exp of the same shape."""

    params = [[4000], [4]]
    param_names = ["M", "d"]
    timeout = 120
    repeat = (1, 7, 5.0)

    def setup(self, M, d):
        m = common.size(M)
        self.X = np.random.default_rng([M, d]).uniform(-3, 3, size=(m, d))
        self.A, self.B = -np.abs(self.X), np.abs(self.X) / d  # arguments in [-9, 0]: exp's fast range

    def _kernel(self):
        return la.rbf_kernel(self.X, sigma2=2.0)

    def _floor(self):
        G = np.matmul(self.A, self.B.T)
        return np.exp(G, out=G)

    def time_rbf_kernel(self, M, d):
        self._kernel()

    def time_gemm_exp(self, M, d):
        self._floor()

    def _over(self, floor):
        """Kernel time over ``floor``'s: min of 9 interleaved runs each, one process."""
        t_k, t_f = common.interleaved_min([self._kernel, floor], repeats=9)
        return common.round_sig(t_k / t_f, 3)

    def track_kernel_over_floor(self, M, d):
        """Against one GEMM + exp (target <= 1.2)."""
        return self._over(self._floor)

    track_kernel_over_floor.unit = "ratio"

    def _blocked(self):
        return bare_rbf(self.X, 2.0)

    def time_blocked_floor(self, M, d):
        self._blocked()

    def track_kernel_over_blocked(self, M, d):
        """Against the blocked floor ``bare_rbf`` (same output shape and exponents; target <= 1)."""
        return self._over(self._blocked)

    track_kernel_over_blocked.unit = "ratio"


class CondestCost(common.OneShot):
    """Why the condition estimate of a dense fit costs what it costs (float64, M = 4000).

    ``dpocon`` (Higham's 1-norm estimator, LAPACK ``dlacn2``) applies A^-1 up
    to ~5 times and A^-T as often (Hager's iteration, plus the alternating-sign
    vector); with a Cholesky factor each is a pair of triangular solves, an
    O(M^2) pass over the M^2/2 words of L bound by memory bandwidth (128 MB of
    L at M = 4000: no cache holds it).  So it costs up to ~10 ``dpotrs`` with
    one right-hand side, where a dense fit's own solve is one ``dpotrs`` with two.  ``track_pocon_over_potrs`` measures
    that count; ``track_pocon_share_of_floor`` its share of the dense floor.
    Estimating kappa from fewer solves would give a weaker lower bound; the
    estimate is what tells a user the digits a fit can have, so it stays.

    Could the fit's own solve serve it?  Hager's first step is A^-1 (1/M) 1,
    and the Schur fit already solves H nu = 1: reusing nu saves one of the
    ~5 solve pairs.  ``track_hager_on_potrs_over_pocon`` times the same
    iteration (Higham's Algorithm 15.4, :func:`hager_inverse_norm1`) on
    ``dpotrs`` solves, without that reuse: it is the price of leaving
    LAPACK's loop.  Measured 1.34 (457 against 341 ms at M = 4000, loaded
    machine), i.e. ~5.6 solves' worth against dpocon's 4.9: one saved solve
    would bring the Python loop to ~4.6, a gain of < 1 % of the floor for a
    second estimator to maintain, so dpocon stays.
    """

    params = [[4000]]
    param_names = ["M"]
    timeout = 300
    repeat = (1, 3, 10.0)

    def setup(self, M):
        m = common.size(M)
        X = np.random.default_rng([M, 4]).uniform(-3, 3, size=(m, 4))
        H = bare_rbf(X, 2.0)
        H.flat[:: m + 1] += 0.1
        self.anorm = float(np.abs(H).sum(axis=0).max())
        self.L, info = lapack.dpotrf(H.T, lower=1, overwrite_a=1, clean=0)
        if info != 0:  # pragma: no cover
            raise RuntimeError(f"dpotrf failed with info={info}")
        self.b = np.ones(m)
        self.X = X

    def _pocon(self):
        return lapack.dpocon(self.L, self.anorm, uplo="L")

    def _potrs(self):
        return lapack.dpotrs(self.L, self.b, lower=1)

    def time_pocon(self, M):
        self._pocon()

    def track_pocon_over_potrs(self, M):
        """dpocon time / one dpotrs (1 rhs): the number of solve pairs the estimate costs."""
        t_c, t_s = common.interleaved_min([self._pocon, self._potrs], repeats=7)
        return common.round_sig(t_c / t_s, 2)

    track_pocon_over_potrs.unit = "solves"

    def track_pocon_share_of_floor(self, M):
        """dpocon time / the lssvm-schur floor (kernel, dpotrf, dpotrs): the estimate's share."""
        y = np.ones(len(self.b))
        t_c, t_f = common.interleaved_min([self._pocon, lambda: _potrf_floor(self.X, y, 2.0, 10.0, 2)],
                                          repeats=3)
        return common.round_sig(t_c / t_f, 2)

    track_pocon_share_of_floor.unit = "ratio"

    def _hager(self):
        solve = lambda b: lapack.dpotrs(self.L, b, lower=1)[0]  # noqa: E731
        return hager_inverse_norm1(solve, len(self.b), la.get_precision("float64"))

    def track_hager_on_potrs_over_pocon(self, M):
        """The same estimator in Python on dpotrs solves / dpocon (class docstring)."""
        if hager_inverse_norm1 is None:  # pragma: no cover
            raise NotImplementedError("this version has no linalg.condest.hager_inverse_norm1")
        t_h, t_c = common.interleaved_min([self._hager, self._pocon], repeats=5)
        return common.round_sig(t_h / t_c, 2)

    track_hager_on_potrs_over_pocon.unit = "ratio"


class DenseFloor(common.OneShot):
    """Each dense fit (float64) against its floor, and its peak memory in words of M^2."""

    params = [list(FLOORS) or ["(none)"], [4000]]
    param_names = ["solver", "M"]
    timeout = 600
    repeat = (1, 5, 10.0)

    def setup(self, solver, M):
        common.require_solver(solver)
        self.fit = la.fit
        self.solver = solver
        self.X, self.y, self.kw = common.solver_problem(solver, common.size(M))
        self.floor, self.nrhs = FLOORS[solver]

    def _fit(self):
        return self.fit(self.solver, self.X, self.y, precision="float64", **self.kw)

    def _floor(self):
        return self.floor(self.X, self.y, self.kw["sigma2"], self.kw["C"], self.nrhs)

    def time_fit(self, solver, M):
        self._fit()

    def time_floor(self, solver, M):
        self._floor()

    def peakmem_fit(self, solver, M):
        self._fit()

    def track_fit_over_floor(self, solver, M):
        """min of 5 interleaved runs each, one process (target <= 1.10)."""
        t_fit, t_floor = common.interleaved_min([self._fit, self._floor], repeats=5)
        return common.round_sig(t_fit / t_floor, 3)

    track_fit_over_floor.unit = "ratio"

    def track_peak_words_over_m2(self, solver, M):
        """Peak of NumPy's allocations during one fit (tracemalloc) / (8 M^2 bytes) (target <= 1.5)."""
        m = len(self.y)
        tracemalloc.start()
        try:
            self._fit()
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        return common.round_sig(peak / (8.0 * m * m), 3)

    track_peak_words_over_m2.unit = "M^2 words"


class CGFloor(common.OneShot):
    """lssvm-cg (float64, estimate_kappa=False): time per iteration against one H @ (M x 2) product."""

    params = [[4000]]
    param_names = ["M"]
    timeout = 600
    repeat = (1, 3, 10.0)
    ITERATIONS = 60

    def setup(self, M):
        common.require_solver("lssvm-cg")
        self.X, self.y, self.kw = common.solver_problem("lssvm-cg", common.size(M))
        m = len(self.y)
        self.H = common.spd_matrix(m)
        self.P = np.random.default_rng(M).standard_normal((m, 2))

    def _cg(self):
        """A fixed number of iterations: rtol below reach, maxiter = ITERATIONS (not-converged)."""
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return la.fit("lssvm-cg", self.X, self.y, precision="float64", rtol=1e-300,
                          maxiter=self.ITERATIONS, **self.kw)  # kw has estimate_kappa=False

    def time_cg_fixed_iterations(self, M):
        self._cg()

    def track_iteration_over_product(self, M):
        """solve phase / iterations (both systems run together) over min time of H @ P (target <= 1.2)."""
        per_iter = min(f.timings["solve"] / max(f.diagnostics["iterations_eta"],
                                                 f.diagnostics["iterations_nu"])
                       for f in (self._cg() for _ in range(3)))
        (t_prod,) = common.interleaved_min([lambda: self.H @ self.P], repeats=15)
        return common.round_sig(per_iter / t_prod, 3)

    track_iteration_over_product.unit = "ratio"
