"""Shared fixtures of the test suite and the exact arithmetic the accuracy gates measure with.

Fixtures
--------
rng
    ``numpy.random.Generator`` seeded from ``LSSVM_TEST_SEED`` (environment,
    default below) and the test's node id, so that a test's data do not depend
    on test order or on how pytest-xdist distributes tests.  Every test must
    pass for any seed: run ``LSSVM_TEST_SEED=<n> pytest`` to try others.
precision
    Parametrized over ``lssvm_analysis.precisions()``; the mp parameters carry
    the ``mp`` marker (``-m "not mp"`` skips them).
n_for
    ``n_for(p, n, n_mp)``: the problem size for precision ``p`` (``n_mp``,
    at most ``MP_MAX_N``, for mpmath precisions, which are slow).
exact
    :class:`Exact`: exact rational arithmetic (FLINT ``fmpq``) and certified
    ball arithmetic (FLINT ``arb``) for residuals and reference values, so that
    measuring an error never adds one.
rbf_system
    ``rbf_system(n, kappa, d=2, sigma2=1.0)``: an RBF kernel matrix plus I/C
    with C chosen to hit a target 2-norm condition number, asserted on return
    (:class:`RBFSystem`).

BLAS runs single-threaded in the test processes: with ``pytest -n 2`` on two
shared cores, multi-threaded OpenBLAS spin-waits and a 300 x 300 Cholesky
takes 0.5 s instead of 0.5 ms.
"""
from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # for worker processes tests start

import math  # noqa: E402
import zlib  # noqa: E402
from dataclasses import dataclass  # noqa: E402

import flint  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
import scipy.linalg  # noqa: E402,F401  (load SciPy's OpenBLAS before limiting threads)
from threadpoolctl import threadpool_limits  # noqa: E402

import lssvm_analysis as la  # noqa: E402
from lssvm_analysis.experiments import load_records, run_sweep  # noqa: E402
from lssvm_analysis.report import report_sections  # noqa: E402,F401  (registers every section)
from lssvm_analysis.report.html import Section  # noqa: E402
from lssvm_analysis.report.registry import get_section  # noqa: E402

__all__ = ["BASE_SEED", "MP_MAX_N", "LAPACK_THRESHOLD", "PRECISION_PARAMS", "U64", "Exact", "RBFSystem",
           "make_rbf_system", "forward_bound", "to_f64", "HARDWARE"]

#: The example plugin package's own tests need it installed: tests/test_plugin_package.py installs it
#: and runs them in a subprocess.
collect_ignore = ["plugin_example"]

BASE_SEED = int(os.environ.get("LSSVM_TEST_SEED", "20240611"))
MP_MAX_N = 60
# LAPACK's test-ratio threshold (TESTING/dtest.in, "Threshold value of test ratio"): a
# ratio error / (n * u * scale) below 30 passes.  Used wherever the gate says "c = 30".
LAPACK_THRESHOLD = 30.0

#: The registry's LAPACK-backed precisions (float32, float64): what the fast paths serve.
HARDWARE = la.precisions(hardware=True)
#: float64's unit roundoff u = 2^-53.
U64 = la.get_precision("float64").unit_roundoff

threadpool_limits(limits=1)


def forward_bound(kappa, beta):
    """Forward-error bound 2 kappa beta / (1 - kappa beta) of a solve with normwise backward
    error beta of a system of condition kappa (Higham, Thm 7.2); asserts kappa beta < 1."""
    assert kappa * beta < 1, f"the bound needs kappa beta < 1, got {kappa:.3g} * {beta:.3g}"
    return 2 * kappa * beta / (1 - kappa * beta)


def to_f64(a) -> np.ndarray:
    """Any precision's array (or scalar) rounded entry by entry to float64, same shape."""
    a = np.asarray(a)
    return np.array([float(v) for v in a.flat], dtype=np.float64).reshape(a.shape)


def pytest_configure(config):
    config.addinivalue_line("markers", "mp: runs in mpmath arithmetic (sizes kept <= MP_MAX_N)")


def pytest_report_header(config):
    return f"lssvm_analysis: LSSVM_TEST_SEED={BASE_SEED}, BLAS threads limited to 1"


PRECISION_PARAMS = [pytest.param(name, id=name) for name in la.precisions(native=True)] + [
    pytest.param(name, id=name, marks=pytest.mark.mp) for name in la.precisions(native=False)]


@pytest.fixture(autouse=True)
def _user_datasets_unregistered():
    """Every data set a test registers (``la.datasets.register``, or ``la.compare``, which registers
    the user's data by design) is unregistered after it: the next test sees the built-in registry
    (``test_no_network_is_touched`` loads every registered set with the built-in loaders' options)."""
    before = set(la.datasets.datasets())
    yield
    for name in set(la.datasets.datasets()) - before:
        la.datasets.unregister(name)


@pytest.fixture
def registries_restored():
    """Solvers a test registers (the README's and the docs' plugin examples, the bad-input table's rows)
    are unregistered after it, so that the next test sees the package's registry; its data sets go by
    :func:`_user_datasets_unregistered`."""
    from lssvm_analysis.solvers import unregister
    before = set(la.solvers())
    yield
    for name in set(la.solvers()) - before:
        unregister(name)


@pytest.fixture
def rng(request) -> np.random.Generator:
    return np.random.default_rng([BASE_SEED, zlib.crc32(request.node.nodeid.encode())])


@pytest.fixture(params=PRECISION_PARAMS)
def precision(request) -> la.Precision:
    return la.get_precision(request.param)


def _n_for(p, n: int, n_mp: int = 40) -> int:
    p = la.get_precision(p)
    assert n_mp <= MP_MAX_N, f"mp test size {n_mp} > MP_MAX_N={MP_MAX_N}"
    return n if p.native else n_mp


@pytest.fixture
def n_for():
    return _n_for


# -- exact arithmetic ---------------------------------------------------------

class Exact:
    """Exact rationals (``flint.fmpq``) from any precision's numbers, and references.

    Every float32/float64/longdouble/mpf value is a dyadic rational, so it
    converts exactly; sums and products of them stay exact.  Convert back
    with :meth:`to_float` (correctly rounded) only for the final figure.
    """

    @staticmethod
    def q(v) -> flint.fmpq:
        if isinstance(v, flint.fmpq):
            return v
        mpf = getattr(v, "_mpf_", None)
        if mpf is not None:
            sign, man, exp, _ = mpf
            if not man and exp:
                raise ValueError(f"expected a finite number, got {v!r}")
            man, exp = (-int(man) if sign else int(man)), int(exp)
            return flint.fmpq(man * 2 ** exp) if exp >= 0 else flint.fmpq(man, 2 ** -exp)
        if isinstance(v, (int, np.integer)):
            return flint.fmpq(int(v))
        num, den = v.as_integer_ratio()  # float, np.float32/64, np.longdouble: exact
        return flint.fmpq(num, den)

    @classmethod
    def mat(cls, A) -> flint.fmpq_mat:
        """Exact matrix of a 2-D array, or a column of a 1-D array."""
        A = np.asarray(A)
        A = A.reshape(A.shape[0], -1) if A.ndim == 1 else A
        return flint.fmpq_mat(A.shape[0], A.shape[1], [cls.q(v) for v in A.flat])

    @staticmethod
    def to_float(x) -> float:
        x = Exact.q(x) if not isinstance(x, flint.fmpq) else x
        return int(x.p) / int(x.q)

    @staticmethod
    def entries(M) -> list:
        return [[M[i, j] for j in range(M.ncols())] for i in range(M.nrows())]

    @classmethod
    def norm1(cls, M) -> flint.fmpq:
        """max_j sum_i |M_ij| (a vector is one column)."""
        rows = cls.entries(M)
        return max(sum((abs(r[j]) for r in rows), flint.fmpq(0)) for j in range(M.ncols()))

    @classmethod
    def norm2_sq(cls, v) -> flint.fmpq:
        """||v||_2^2 of a column."""
        return sum((v[i, 0] * v[i, 0] for i in range(v.nrows())), flint.fmpq(0))

    @classmethod
    def vec(cls, v) -> list:
        return [v[i, 0] for i in range(v.nrows())]

    @classmethod
    def sub(cls, A, rows, cols) -> flint.fmpq_mat:
        return flint.fmpq_mat(len(rows), len(cols), [A[i, j] for i in rows for j in cols])

    @classmethod
    def schur(cls, A, S, j):
        """Exact Schur-complement pivot d = a_jj - a_Sj^T w, w = A_SS^{-1} a_Sj.

        ``A`` is an fmpq_mat, ``S`` a list of indices.  Returns ``(d, w)``
        with d exact (fmpq) and w as floats (the pivot's sensitivity to A,
        used by :meth:`pivot_bound`).
        """
        if not len(S):
            return A[j, j], np.zeros(0)
        aSj = cls.sub(A, S, [j])
        w = cls.vec(cls.sub(A, S, S).solve(aSj))
        d = A[j, j] - sum((aSj[i, 0] * w[i] for i in range(len(S))), flint.fmpq(0))
        return d, np.array([cls.to_float(x) for x in w])

    @staticmethod
    def eigvalsh(A, *, bits: int) -> list:
        """Certified eigenvalues of a symmetric matrix (FLINT arb, ``bits`` working bits).

        Returns ascending exact dyadic midpoints (fmpq); asserts that each
        enclosure's radius is below 2^-(bits/2) relative to max |lambda|.
        """
        A = np.asarray(A)
        old = flint.ctx.prec
        flint.ctx.prec = bits
        try:
            n = A.shape[0]
            M = flint.arb_mat(n, n, [flint.arb(Exact._arb_exact(v)) for v in A.flat])
            ev = M.eig(algorithm="rump")
            out, scale = [], max(abs(float(z.real.mid())) for z in ev)
            for z in ev:
                assert float(z.real.rad()) <= 2.0 ** (-bits // 2) * scale, f"uncertified {z}"
                man, exp = z.real.mid().man_exp()
                out.append(flint.fmpq(int(man) * 2 ** int(exp)) if exp >= 0
                           else flint.fmpq(int(man), 2 ** -int(exp)))
            return sorted(out)
        finally:
            flint.ctx.prec = old

    @staticmethod
    def pivot_bound(L_rows, w, d, u) -> float:
        """First-order rounding bound on a computed Schur-complement pivot.

        Higham (2002) Thm 10.3 applied to the leading (k+1) x (k+1) block: the
        computed partial factor and pivot d^ are exact for A + dA with
        |dA| <= gamma_{k+1} (|L'||L'^T| + |d^| e_k e_k^T), L' = the k computed rows
        (row k without its diagonal).  The exact pivot is s(A) = v^T A v with
        v = [-w; 1], w = A_11^{-1} a_k, so to first order
        |d^ - d| <= gamma_{k+1} (|| |L'|^T |v| ||_2^2 + |d|).

        Parameters
        ----------
        L_rows : (k+1, k) array
            Rows 0..k-1 of the factor and row k (its first k entries), as floats.
        w : (k,) array
        d : float
            The exact pivot.
        u : float
            Unit roundoff of the arithmetic that computed d^.
        """
        k = len(w)
        gamma = (k + 1) * u / (1 - (k + 1) * u)
        if k == 0:
            return gamma * abs(d)
        z = np.abs(L_rows[:k]).T @ np.abs(w) + np.abs(L_rows[k])
        return float(gamma * (z @ z + abs(d)))

    @classmethod
    def assert_certified(cls, ref, A, b):
        """The absolute bound and digits ``reference_solve`` claims hold against the exact solution.

        Exact comparison (fmpq), per column; the digits check evaluates -log10
        of the exact relative error in arb at 512 bits and requires the ball
        to lie above the claim (the two can agree to ~1e-30: the bound is
        dominated by the exact rounding of x to the output precision).
        """
        xs = cls.mat(A).solve(cls.mat(b))
        X = cls.mat(ref.x)
        bound = cls.q(ref.error_bound)
        for j in range(xs.ncols()):
            err = max(abs(X[i, j] - xs[i, j]) for i in range(xs.nrows()))
            norm = max(abs(xs[i, j]) for i in range(xs.nrows()))
            assert err <= bound, (j, cls.to_float(err), ref.error_bound)
            if norm == 0:
                assert err == 0
                continue
            if err == 0:
                continue
            rel = err / norm
            with flint.ctx.workprec(512):
                true_digits = -(flint.arb(rel.p) / flint.arb(rel.q)).log() / flint.arb(10).log()
                assert true_digits >= flint.arb(ref.digits), (j, true_digits, ref.digits)

    @staticmethod
    def _arb_exact(v):
        x = Exact.q(v)
        return flint.arb(flint.fmpz(x.p)) / flint.arb(flint.fmpz(x.q))  # q is a power of 2: exact


@pytest.fixture(scope="session")
def exact() -> Exact:
    return Exact()


# -- RBF kernel matrix + I/C of controlled condition --------------------------

@dataclass(frozen=True)
class RBFSystem:
    """A = K + I/C with K the RBF kernel matrix of X; kappa is the measured kappa_2(A).

    Attributes
    ----------
    X : (n, d) float64
    sigma2, C : float
    K, A : (n, n) float64
        A is exactly symmetric; it is the matrix the gates factor.
    eigvals : (n,) float64
        Eigenvalues of A (LAPACK, ascending); each within ``eig_err`` of the exact one.
    kappa : float
        eigvals[-1] / eigvals[0].
    kappa_rtol : float
        Certified relative uncertainty of ``kappa`` (first order).
    """

    X: np.ndarray
    sigma2: float
    C: float
    K: np.ndarray
    A: np.ndarray
    eigvals: np.ndarray
    kappa: float
    kappa_rtol: float

    @property
    def kappa_upper(self) -> float:
        return self.kappa * (1 + self.kappa_rtol)


def make_rbf_system(rng, n: int, kappa: float, *, d: int = 2, sigma2: float = 1.0) -> RBFSystem:
    """Points uniform in [0, 1]^d; C such that kappa_2(K + I/C) = kappa (asserted).

    With K's eigenvalues l_1 <= ... <= l_n, kappa(K + t I) = (l_n + t) / (l_1 + t)
    = kappa gives t = 1/C = (l_n - kappa l_1) / (kappa - 1), which needs
    kappa < l_n / l_1.

    The assertion: LAPACK's symmetric eigensolver is backward stable, and its
    test suite (dsyt21, threshold 30 on ||A - U L U^T|| / (n ||A|| ulp), ulp = 2u)
    puts each computed eigenvalue within 60 n u ||A||_2 of the exact one (Weyl).
    Such an error e moves kappa by the relative amount e (1/l_1 + 1/l_n) ~ 60 n u kappa;
    it enters once when t is computed from K's eigenvalues and once when kappa(A)
    is measured, so the achieved condition agrees with the target to
    2 * 60 n u (kappa + 1), plus the rounding of 1 + t (u kappa).
    """
    if not kappa > 1:
        raise ValueError(f"expected kappa > 1, got kappa={kappa!r}")
    u = np.finfo(np.float64).eps / 2
    X = rng.uniform(size=(n, d))
    K = la.rbf_kernel(X, sigma2=sigma2)
    lk = np.linalg.eigvalsh(K)
    eig_err = 60 * n * u * lk[-1]
    if not lk[-1] > kappa * (max(lk[0], 0.0) + 2 * eig_err):  # t > 0 whatever l_1's error
        raise ValueError(f"expected kappa << kappa(K) for n={n}, d={d}, sigma2={sigma2}, "
                         f"got kappa={kappa:g} with lambda(K) in [{lk[0]:.3g}, {lk[-1]:.3g}]")
    t = (lk[-1] - kappa * lk[0]) / (kappa - 1)
    A = K + t * np.eye(n)
    assert np.array_equal(A, A.T)
    ev = np.linalg.eigvalsh(A)
    measured = ev[-1] / ev[0]
    rtol = 2 * 60 * n * u * (kappa + 1) + 4 * u * kappa
    assert abs(measured / kappa - 1) <= rtol, (measured, kappa, rtol)
    assert ev[0] > 60 * n * u * ev[-1]  # certainly positive definite
    return RBFSystem(X, sigma2, 1 / t, K, A, ev, float(measured), rtol)


@pytest.fixture
def rbf_system(rng):
    def build(n, kappa, *, d=2, sigma2=1.0):
        return make_rbf_system(rng, n, kappa, d=d, sigma2=sigma2)
    return build


# --------------------------------------------------------------------------- report sections
@dataclass
class RenderedSection:
    """A registered report section planned, run and rendered on a temporary store."""

    records: dict
    section: object
    verdict: str
    out: object


@pytest.fixture
def render_section(tmp_path):
    """``render_section(key, profile="quick")``: run the section's sweeps (its dependent stages
    through the same ``run`` the report hands it) into a store under ``tmp_path``, read their
    records and render the section into ``tmp_path``; nothing is asserted here."""
    store = tmp_path / "records.sqlite"

    def run(spec):
        run_sweep(spec, store, n_jobs=1, progress=False)
        return load_records(store, spec)

    def render(key: str, profile: str = "quick") -> RenderedSection:
        info = get_section(key)
        specs = info.plan(profile, run)
        records = {k: run(s) if not isinstance(s, str) else load_records(store, s)
                   for k, s in specs.items()}
        sec = Section(info.title, key)
        return RenderedSection(records, sec, info.render(sec, tmp_path, records, profile), tmp_path)

    return render


def logspaced_spd(rng, n, cond):
    """Q diag(logspace(0, -log10 cond)) Q^T in float64, symmetrized (kappa_2 ~ cond)."""
    Q, _ = np.linalg.qr(rng.standard_normal((n, n)))
    A = (Q * np.logspace(0, -math.log10(cond), n)) @ Q.T
    return (A + A.T) / 2


def logspaced_nonsymmetric(rng, n, cond):
    """U diag(logspace) V^T: a non-symmetric matrix with kappa_2 ~ cond."""
    U, _ = np.linalg.qr(rng.standard_normal((n, n)))
    V, _ = np.linalg.qr(rng.standard_normal((n, n)))
    return (U * np.logspace(0, -math.log10(cond), n)) @ V.T
