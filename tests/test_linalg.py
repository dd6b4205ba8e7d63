"""Gates of the shared linear algebra: Abe's thresholded Cholesky, greedy pivoted Cholesky, CG.

References are exact (FLINT rationals, ``conftest.Exact``): Schur-complement
pivots d_j = K_jj - K_jS K_SS^{-1} K_Sj, solutions x* = A^{-1} B, A-norms.  A
computed pivot differs from the exact one by at most ``Exact.pivot_bound``
(Higham's Thm 10.3 backward error, first order, c = 1).
"""
from __future__ import annotations

import numpy as np
import pytest
from conftest import LAPACK_THRESHOLD, U64

import lssvm_analysis as la
from lssvm_analysis.linalg.kernels import RBF_FORMATIONS

__all__: list[str] = []


def _floats(p, a):
    return p.to_float64(np.asarray(a))


def _gamma(k, u):
    return k * u / (1 - k * u)


# -- Abe's thresholded Cholesky ------------------------------------------------------

def _selection(p, rng, m, eta, sigma2=0.5):
    X = rng.uniform(size=(m, 2))
    return X, la.thresholded_cholesky(X, la.make_kernel("rbf", sigma2=sigma2), eta, precision=p)


@pytest.mark.parametrize("eta", [1e-3, 1e-1])
def test_thresholded_cholesky_against_exact_pivots(precision, eta, rng, n_for, exact):
    """Kept <=> pivot root >= eta, checked against the exact Schur complements.

    For each visited column j (S = columns kept before j) the reported root r_j
    satisfies |r_j^2 - d_j| <= pivot_bound + 3 (u + u64) r_j^2 (rounding of the
    root in the precision, then to float64), or d_j <= pivot_bound when r_j = 0
    (the computed pivot was <= 0).  Hence every dropped column has exact pivot
    root below eta and every kept one at least eta, up to that bound.
    """
    p, m = precision, n_for(precision, 60, 30)
    X, sel = _selection(p, rng, m, eta)
    S = [int(j) for j in sel.indices]
    # the selection computes its columns by the differences formation (incomplete_cholesky._setup)
    K = la.rbf_kernel(X, sigma2=0.5, precision=p, formation="differences")
    assert np.array_equal(sel.columns, K[:, S])  # the columns it used are the kernel's
    Kq, G, u = exact.mat(K), _floats(p, sel.G), p.unit_roundoff
    assert S == sorted(S) and all((j in S) == (sel.pivots[j] >= eta) for j in range(m))
    for j in range(m):
        before = [i for i in S if i < j]
        d, w = exact.schur(Kq, before, j)
        d = exact.to_float(d)
        r = len(before)
        bound = exact.pivot_bound(np.vstack([G[before, :r], G[j, :r]]), w, d, u)
        root = sel.pivots[j]
        if root > 0:
            assert abs(root ** 2 - d) <= bound + 3 * (u + U64) * root ** 2, (j, root ** 2, d, bound)
        else:
            assert d <= bound, (j, d, bound)
        slack = bound + 3 * (u + U64) * max(root, eta) ** 2
        assert (d >= eta ** 2 - slack) if j in S else (d < eta ** 2 + slack), (j, d, eta ** 2)


@pytest.mark.parametrize("eta", [1e-3, 1e-1])
def test_thresholded_factor_reproduces_kept_block(precision, eta, rng, n_for, exact):
    """||L L^T - K_SS||_1 / (r ||K_SS||_1 u) < 30 (dpot01) for the factor L = G[S] it returns,
    which is exactly lower triangular (rows of earlier pivots are stored as exact zeros)."""
    p, m = precision, n_for(precision, 60, 30)
    X, sel = _selection(p, rng, m, eta)
    S, L = sel.indices, sel.L
    Kss = la.rbf_kernel(X[S], sigma2=0.5, precision=p, formation="differences")
    Lq, Kq = exact.mat(L), exact.mat(Kss)
    ratio = exact.to_float(exact.norm1(Lq * Lq.transpose() - Kq) / exact.norm1(Kq)) / (len(S) * p.unit_roundoff)
    assert ratio < LAPACK_THRESHOLD, ratio
    assert all(v == 0 for v in np.triu(L, 1).flat)
    assert L.dtype == p.dtype and sel.G.dtype == p.dtype and sel.columns.dtype == p.dtype


def test_larger_eta_keeps_fewer_columns(rng):
    """Observed on RBF data for thresholds a decade apart (not a theorem: see the next test);
    over 400 seeds every decade dropped at least 6 of the 80 columns."""
    X = rng.uniform(size=(80, 2))
    kernel = la.make_kernel("rbf", sigma2=0.3)
    counts = [len(la.thresholded_cholesky(X, kernel, eta).indices) for eta in (1e-4, 1e-3, 1e-2, 1e-1, 0.5)]
    assert all(a >= b for a, b in zip(counts, counts[1:])) and counts[0] > counts[-1], counts


def test_larger_eta_can_keep_more_columns():
    """Finding: the count kept is not monotone in eta.  Gram vectors (linear kernel)

        a = e1, b = 0.12 e2, c = 0.5 e2 + 0.1 e3, d = 0.5 e2 + 0.1 e4.

    eta = 0.11 keeps a, b (root 0.12) and then drops c and d (root 0.1 after b);
    eta = 0.13 drops b, keeps c (root 0.51) and keeps d (root 0.14 after c):
    three columns for the larger threshold against two.  Abe's "increase eta
    to increase sparsity" is a tendency, not a guarantee.
    """
    X = np.array([[1, 0, 0, 0], [0, 0.12, 0, 0], [0, 0.5, 0.1, 0], [0, 0.5, 0, 0.1]])
    kernel = la.make_kernel("linear")
    small = la.thresholded_cholesky(X, kernel, 0.11)
    large = la.thresholded_cholesky(X, kernel, 0.13)
    assert list(small.indices) == [0, 1] and list(large.indices) == [0, 2, 3]
    np.testing.assert_allclose(large.pivots, [1, 0.12, np.sqrt(0.26), np.sqrt(0.26 - 0.0625 / 0.26)],
                               rtol=8 * U64)


@pytest.mark.parametrize("eta, error", [(0, ValueError), (1, ValueError), (-0.5, ValueError), (1.5, ValueError),
                                        (np.nan, ValueError), (np.inf, ValueError), ("0.1", TypeError),
                                        (None, TypeError)])
def test_eta_outside_the_open_unit_interval(eta, error):
    with pytest.raises(error, match=f"expected .*eta.*, got eta={eta!r}"):
        la.thresholded_cholesky(np.ones((3, 2)), la.make_kernel("rbf"), eta)


# -- greedy pivoted Cholesky ------------------------------------------------------------

def _pivoted(p, rng, m, **kw):
    X = rng.uniform(size=(m, 2))
    return X, la.pivoted_cholesky(X, la.make_kernel("rbf", sigma2=0.5), precision=p, **kw)


def test_pivoted_cholesky_pivots_on_the_max_residual_diagonal(precision, rng, n_for, exact):
    """At step t the pivot's exact residual d_j is the largest, up to the rounding of both:
    d_j + B_j >= d_i - B_i for every i not yet pivoted (B = pivot_bound)."""
    p, m = precision, n_for(precision, 60, 30)
    rank = 12
    X, sel = _pivoted(p, rng, m, rank=rank)
    P = [int(j) for j in sel.indices]
    assert len(P) == rank == len(set(P)) and all(v == 0 for v in np.triu(sel.L, 1).flat)
    Kq, G, u = (exact.mat(la.rbf_kernel(X, sigma2=0.5, precision=p, formation=sel.formation)),
                _floats(p, sel.G), p.unit_roundoff)
    for t, j in enumerate(P):
        low = {}
        for i in (i for i in range(m) if i not in P[:t]):
            d, w = exact.schur(Kq, P[:t], i)
            d = exact.to_float(d)
            bound = exact.pivot_bound(np.vstack([G[P[:t], :t], G[i, :t]]), w, d, u)
            low[i] = (d - bound, d + bound)
        assert low[j][1] >= max(lo for lo, _ in low.values()), (t, j)


def test_pivoted_cholesky_trace_history(precision, rng, n_for, exact):
    """trace_history is nonincreasing (exactly) and equals tr(K - G_t G_t^T) to

    |th_t - tr| <= m (t + m + 2) u + u64 |th_t|:

    each residual diagonal entry is a chain of t + 1 updates d <- fl(d - fl(g g))
    ((t + 1) u (1 + sum g^2) <= 2 (t + 1) u, as sum g^2 <= K_ii = 1), a pivot's
    entry is set to 0 where the exact residual is d - fl(sqrt d)^2 (2u); the sum
    of m entries adds (m - 1) u sum |d_i| <= (m - 1) m u; float64 output adds u64.
    """
    p, m = precision, n_for(precision, 60, 30)
    X, sel = _pivoted(p, rng, m, rank=m // 2)
    th = sel.trace_history
    assert len(th) == len(sel.indices) and (np.diff(th) <= 0).all()
    Gq = exact.mat(sel.G)
    for t in range(len(th)):
        tr = sum((1 - sum((Gq[i, c] ** 2 for c in range(t + 1)), exact.q(0)) for i in range(m)), exact.q(0))
        err = exact.to_float(abs(exact.q(th[t]) - tr))
        assert err <= m * (t + m + 2) * p.unit_roundoff + U64 * abs(th[t]), (t, err)


def test_pivoted_cholesky_stops_at_rank_and_at_trace_tol(precision, rng, n_for):
    p, m = precision, n_for(precision, 40, 20)
    X = rng.uniform(size=(m, 2))
    kernel = la.make_kernel("rbf", sigma2=0.5)
    full = la.pivoted_cholesky(X, kernel, rank=10, precision=p)
    by_rank = la.pivoted_cholesky(X, kernel, rank=5, precision=p)
    assert len(by_rank.indices) == 5 and by_rank.G.shape == (m, 5) and len(by_rank.trace_history) == 5
    assert list(by_rank.indices) == list(full.indices[:5])
    tol = full.trace_history[4]  # stop as soon as trace(d) <= tol: after the 5th pivot
    by_trace = la.pivoted_cholesky(X, kernel, trace_tol=tol, precision=p)
    assert len(by_trace.indices) == 5 and by_trace.trace_history[-1] <= tol < by_trace.trace_history[-2]
    with pytest.raises(ValueError, match="trace_tol"):  # trace(K) = m: no pivot would be selected
        la.pivoted_cholesky(X, kernel, trace_tol=m, precision=p)
    assert la.pivoted_cholesky(X, kernel, rank=10 * m, precision=p).G.shape[1] <= m


@pytest.mark.parametrize("greedy", [True, False], ids=["pivoted", "thresholded"])
def test_cholesky_selection_columns_are_its_formations_kernel_bit_for_bit(precision, rng, n_for, greedy):
    """The per-pivot kernel column (contiguous coordinate rows, in-place ops for float32/64) is
    exactly the column of rbf_kernel(formation=sel.formation): "differences", or the engine's
    exact-distance "gemm" where the precision keeps the greedy selection (mpN on FLINT); the
    pivots' factor rows come from those columns, which the selection returns."""
    p, m = precision, n_for(precision, 50, 20)
    X = rng.uniform(-2, 2, size=(m, 3))
    kernel = la.make_kernel("rbf", sigma2=0.7)
    sel = (la.pivoted_cholesky(X, kernel, rank=6, precision=p) if greedy
           else la.thresholded_cholesky(X, kernel, 0.5, precision=p))
    assert len(sel.indices) >= 2 and sel.formation in RBF_FORMATIONS
    assert greedy or sel.formation == "differences"
    K = la.rbf_kernel(X, sigma2=0.7, precision=p, formation=sel.formation)
    for t, j in enumerate(sel.indices):
        assert all(a == b for a, b in zip(sel.columns[:, t], K[:, j])), t


@pytest.mark.parametrize("rank, error", [(0, ValueError), (-1, ValueError), (2.5, TypeError), ("3", TypeError)])
def test_pivoted_cholesky_bad_rank(rank, error):
    with pytest.raises(error, match=f"got rank={rank!r}"):
        la.pivoted_cholesky(np.ones((3, 2)), la.make_kernel("rbf"), rank=rank)


# -- Hestenes-Stiefel CG -------------------------------------------------------------------

class _Problem:
    """RBF + I/C (kappa = 1e3, d = 3) in the precision, with x*, ||x*||_A and V exact."""

    def __init__(self, p, s, b, exact):
        self.p, self.s, self.exact = p, s, exact
        self.A, self.B = p.asarray(s.A), p.asarray(b)
        self.n = self.A.shape[0]
        self.Aq, self.Bq = exact.mat(self.A), exact.mat(self.B)
        self.xq = self.Aq.solve(self.Bq)
        self.xnorm = self.norm(self.xq)
        self.bnorm = self.norm(self.Bq)
        self.xA2 = (self.xq.transpose() * self.Aq * self.xq)[0, 0]  # ||x*||_A^2 = -2 V(x*)
        self.absA = np.linalg.norm(np.abs(_floats(p, self.A)), 2)
        # kappa of the matrix in the precision: float32 rounds A (|dA| <= u |A|), which moves
        # lambda_min by at most u || |A| || and kappa by the relative amount 2 u kappa || |A| || / ||A||.
        moved = 0.0 if np.array_equal(_floats(p, self.A), s.A) else p.unit_roundoff
        self.kappa = s.kappa_upper * (1 + 2 * moved * s.kappa * self.absA / s.eigvals[-1])

    def norm(self, v):
        v = v if not isinstance(v, np.ndarray) else self.exact.mat(v)
        return self.exact.to_float(self.exact.norm2_sq(v)) ** 0.5

    def eps_A(self, x):
        """||x - x*||_A / ||x*||_A, exactly."""
        e = self.exact.mat(x) - self.xq
        return self.exact.to_float((e.transpose() * self.Aq * e)[0, 0] / self.xA2) ** 0.5

    def V(self, x):
        """V(x) = x^T A x / 2 - x^T B, exactly (fmpq)."""
        xq = self.exact.mat(x)
        return (xq.transpose() * self.Aq * xq)[0, 0] / 2 - (xq.transpose() * self.Bq)[0, 0]

    def true_residual(self, x):
        return self.norm(self.Bq - self.Aq * self.exact.mat(x))

    def gap_bound(self, i, rmax):
        """||(B - A x_i) - r_i|| after i steps (Greenbaum 1997, first order).

        Each step adds A xi + eta with |xi| <= u (|x_i| + 2|lambda p|) (the update of x)
        and |eta| <= u |r_i| + gamma_{n+2} |lambda| |A| |p| (the update of r); with
        ||lambda p|| <= 2 max ||x_j|| and max ||x_j|| = ||x*|| (Hestenes-Stiefel:
        ||x_j|| grows monotonically), i steps give
        i u ((2n + 9) || |A| || ||x*|| + max ||r_j||).
        """
        return i * self.p.unit_roundoff * ((2 * self.n + 9) * self.absA * self.xnorm + rmax)

    def dot_rounding(self, x, rnorm):
        """Rounding of fl(x . (B + r)): gamma_{n+1} |x|^T (|B| + |r|) <= gamma_{n+1} (|x|^T |B| + ||x|| ||r||)."""
        g = _gamma(self.n + 1, self.p.unit_roundoff)
        xf, bf = np.abs(_floats(self.p, x)), np.abs(_floats(self.p, self.B))
        return g * (xf @ bf + self.norm(x) * rnorm) * (1 + 4 * self.n * U64)  # the float64 sum

    def v_rounding(self, i, x, rnorm, rmax):
        """|V^_i - V(x_i)| for V^ = fl(-x . (B + r) / 2): the gap seen through x . r, and
        ``dot_rounding``."""
        return 0.5 * (self.norm(x) * self.gap_bound(i, rmax) + self.dot_rounding(x, rnorm))

    def decrement_error(self, i, x_prev, x, r_prev, r, rmax):
        """Error of the computed V^_{i-1} - V^_i: both dot-product roundings, plus the part of
        the gap that does not cancel, x_{i-1} . f_{i-1} - x_i . f_i =
        -(x_i - x_{i-1}) . f_{i-1} - x_i . (f_i - f_{i-1}), f_i - f_{i-1} one step's gap."""
        rounding = 0.5 * (self.dot_rounding(x_prev, r_prev) + self.dot_rounding(x, r))
        step = self.norm(self.exact.mat(x) - self.exact.mat(x_prev))
        return rounding + 0.5 * (step * self.gap_bound(i - 1, rmax) + self.norm(x) * self.gap_bound(1, rmax))


@pytest.fixture
def cg_problem(precision, rbf_system, n_for, exact, rng):
    n = n_for(precision, 60, 30)
    return _Problem(precision, rbf_system(n, 1e3, d=3), rng.standard_normal(n), exact)


def test_cg_to_the_residual_tolerance(cg_problem):
    """vtol=0 (V rule off): stops on ||r_i|| <= 100 u ||B||; forward error of c kappa u type.

    The true residual differs from the recursive one by at most ``gap_bound``;
    then ||x^ - x*|| / ||x*|| <= kappa ||B - A x^|| / ||B|| <= kappa (100 u + gap / ||B||).
    The iteration count obeys (3.27) for the A-norm reduction achieved.  Past
    the attainable accuracy the recorded V may rise, by no more than its rounding.
    """
    pb = cg_problem
    p, u = pb.p, pb.p.unit_roundoff
    res = la.hestenes_stiefel_cg(pb.A, pb.B, vtol=0)
    hist = res.history["residual_norm"]
    assert res.reason == "residual" and res.converged and hist[-1] <= 100 * u * hist[0]
    assert res.x.dtype == p.dtype
    gap = pb.gap_bound(res.iterations, hist.max())
    true = pb.true_residual(res.x)
    assert abs(true - hist[-1]) <= gap, (true, hist[-1], gap)
    fwd = pb.norm(pb.exact.mat(res.x) - pb.xq) / pb.xnorm
    kappa = pb.kappa
    assert fwd <= kappa * true / pb.bnorm <= kappa * (100 * u + gap / pb.bnorm), (fwd, kappa * u)
    assert res.iterations <= la.cg_iteration_bound(kappa, pb.eps_A(res.x))
    V, v_star = res.history["V"], pb.exact.to_float(pb.xA2) / 2
    noise = 2 * (pb.v_rounding(res.iterations, res.x, hist.max(), hist.max()) + U64 * v_star)
    assert (np.diff(V) <= noise).all()


def test_cg_default_V_rule_stops_near_sqrt_u(cg_problem):
    """Defaults (vtol = u): the V rule stops first, at an A-norm error of order sqrt(u).

    What happens: the decrease V(x_{i-1}) - V(x_i) = (||e_{i-1}||_A^2 - ||e_i||_A^2) / 2
    falls below u |V| when ||e||_A / ||x*||_A ~ sqrt(u), long before ||r|| <= 100 u ||B||
    (measured eps_A / sqrt(u): 0.1 - 2.5 in float32, float64, longdouble; 1e-4 - 0.06 in mp50).
    Bound: a CG step does at least as well as steepest descent, ||e_i||_A <=
    (kappa - 1)/(kappa + 1) ||e_{i-1}||_A, so the decrease is >= 2 kappa/(kappa + 1)^2
    ||e_{i-1}||_A^2; at the stop it is <= u |V^_i| + ``decrement_error``, whence
    eps_A(x_{i-1}) <= (kappa + 1) / (2 sqrt(kappa)) sqrt((u |V^| + err) / |V*|), and
    eps_A(x_i) < eps_A(x_{i-1}).
    """
    pb = cg_problem
    u = pb.p.unit_roundoff
    res = la.hestenes_stiefel_cg(pb.A, pb.B)
    full = la.hestenes_stiefel_cg(pb.A, pb.B, vtol=0)
    hist, i = res.history["residual_norm"], res.iterations
    assert res.reason == "V-decrease" and res.converged
    assert hist[-1] > 100 * u * hist[0] and i < full.iterations
    x_prev = la.hestenes_stiefel_cg(pb.A, pb.B, maxiter=i - 1).x
    eps, eps_prev = pb.eps_A(res.x), pb.eps_A(x_prev)
    v_star = pb.exact.to_float(pb.xA2) / 2
    err = pb.decrement_error(i, x_prev, res.x, hist[-2], hist[-1], hist.max())
    kappa = pb.kappa
    bound = (kappa + 1) / (2 * kappa ** 0.5) * ((u * abs(res.history["V"][-1]) + err) / v_star) ** 0.5
    assert eps < eps_prev <= bound, (eps, eps_prev, bound, eps / u ** 0.5)
    assert i <= la.cg_iteration_bound(kappa, eps)


def test_cg_V_decreases_monotonically(cg_problem):
    """Suykens §3.4.1: V(x_i) decreases monotonically.  Checked on the exact V of every
    computed iterate x^_i (rerun with maxiter=i) up to the default stop; the recorded V^_i
    agree with them within ``v_rounding`` (+ u64 |V| for the float64 record); every
    iterate obeys (3.26)/(3.27)."""
    pb = cg_problem
    res = la.hestenes_stiefel_cg(pb.A, pb.B)
    hist, Vh = res.history["residual_norm"], res.history["V"]
    kappa, v_star = pb.kappa, pb.exact.to_float(pb.xA2) / 2
    exact_V = [pb.exact.q(0)]
    for i in range(1, res.iterations + 1):
        x_i = la.hestenes_stiefel_cg(pb.A, pb.B, maxiter=i).x if i < res.iterations else res.x
        exact_V.append(pb.V(x_i))
        assert exact_V[i] < exact_V[i - 1], f"V rose at step {i}"
        tol = pb.v_rounding(i, x_i, hist[i], hist[:i + 1].max()) + U64 * v_star
        assert abs(pb.exact.to_float(exact_V[i]) - Vh[i]) <= tol, i
        assert i <= la.cg_iteration_bound(kappa, pb.eps_A(x_i)), i
    # The rule stops at the first non-decrease it sees (in the precision); the float64 record
    # cannot show decreases below u64 |V| of the finer precisions, hence <= rather than <.
    assert (np.diff(Vh)[:-1] <= 0).all()


def test_cg_stop_reasons(precision):
    p = precision
    B = p.asarray(np.array([1.0, 2.0, 3.0, 4.0]))
    A = p.asarray(np.diag([1.0, 2.0, 3.0, 4.0]) + 0.1)
    capped = la.hestenes_stiefel_cg(A, B, maxiter=2, vtol=0)
    assert (capped.reason, capped.converged, capped.iterations) == ("maxiter", False, 2)
    assert len(capped.history["residual_norm"]) == len(capped.history["V"]) == 3
    neg = la.hestenes_stiefel_cg(p.asarray(-np.eye(4)), B)
    assert (neg.reason, neg.converged, neg.iterations) == ("breakdown", False, 1)
    indefinite = la.hestenes_stiefel_cg(p.asarray(np.diag([1.0, -1.0])), p.asarray(np.ones(2)))
    assert indefinite.reason == "breakdown"  # p_1^T A p_1 = 0
    zero = la.hestenes_stiefel_cg(A, p.zeros(4))
    assert (zero.reason, zero.converged, zero.iterations) == ("residual", True, 0)
    assert zero.x.dtype == p.dtype and all(v == 0 for v in zero.x)
    by_matrix = la.hestenes_stiefel_cg(A, B, vtol=0)
    # the matrix path multiplies by p.operator(A) (A @ v, or FLINT's product for mpN): the same
    # callable gives the same iterates bit for bit
    by_operator = la.hestenes_stiefel_cg(p.operator(A), B, vtol=0, precision=p)
    assert by_operator.reason == "residual" and np.array_equal(by_operator.x, by_matrix.x)


def test_inputs_are_never_modified(precision, rng):
    p = precision
    X = rng.uniform(size=(12, 2))
    A = p.asarray(la.rbf_kernel(X) + np.eye(12))
    B = p.asarray(rng.standard_normal(12))  # native arrays pass through asarray uncopied
    saved = [a.copy() for a in (X, A, B)]
    kernel = la.make_kernel("rbf", sigma2=0.5)
    outs = [la.hestenes_stiefel_cg(A, B).x, la.hestenes_stiefel_cg(lambda v: A @ v, B, precision=p).x]
    for sel in (la.thresholded_cholesky(X, kernel, 1e-3, precision=p), la.pivoted_cholesky(X, kernel, precision=p)):
        outs += [sel.G, sel.columns]
    for a, before in zip((X, A, B), saved):
        assert np.array_equal(a, before) and not any(np.shares_memory(o, a) for o in outs)


@pytest.mark.parametrize("kw, error, message", [
    (dict(rtol=0), ValueError, r"got rtol=0"), (dict(rtol=-1e-3), ValueError, r"got rtol=-0\.001"),
    (dict(vtol=-1.0), ValueError, r"got vtol=-1\.0"), (dict(vtol="u"), TypeError, r"got vtol='u'"),
    (dict(maxiter=0), ValueError, r"got maxiter=0"), (dict(maxiter=2.0), TypeError, r"got maxiter=2\.0"),
])
def test_cg_bad_options(kw, error, message):
    with pytest.raises(error, match=message):
        la.hestenes_stiefel_cg(np.eye(3), np.ones(3), **kw)


def test_cg_rejects_a_non_square_matrix():
    with pytest.raises(ValueError, match=r"square matrix for A, got A\.shape=\(3, 2\)"):
        la.hestenes_stiefel_cg(np.ones((3, 2)), np.ones(3))


@pytest.mark.parametrize("kappa", [2.0, 100.0, 1e6])
@pytest.mark.parametrize("eps", [0.5, 1e-3, 1e-12])
def test_cg_iteration_bound_solves_3_26(kappa, eps):
    """(3.27) is the i at which the (3.26) bound 2 rho^i, rho = (sqrt k - 1)/(sqrt k + 1), reaches eps."""
    i = la.cg_iteration_bound(kappa, eps)
    rho = (kappa ** 0.5 - 1) / (kappa ** 0.5 + 1)
    assert i > 0 and abs(2 * rho ** i / eps - 1) <= 1e-12 * max(1.0, i)
    assert la.cg_iteration_bound(1.0, eps) == 1.0


@pytest.mark.parametrize("greedy", [True, False], ids=["pivoted", "thresholded"])
def test_cholesky_selection_diagonal_is_the_pivot_roots(precision, rng, n_for, greedy):
    """G[indices] has the pivot roots sqrt(d_j) on its diagonal, exactly.  Recomputing the pivot's
    own entry as (K_jj - ||G_j||^2) / sqrt(d_j) cancels once the residual is small: in float32
    (X uniform in [-1, 1]^3, sigma2 = 8, 100 pivots) it came out 0, and the triangle singular."""
    p, m = precision, n_for(precision, 2000, 40)
    X = np.random.default_rng(2).uniform(-1, 1, (m, 3))
    kernel = la.make_kernel("rbf", sigma2=8.0)
    if greedy:
        sel = la.pivoted_cholesky(X, kernel, rank=min(100, m // 2), trace_tol=1e-12, relative=True,
                                  keep_columns=False, precision=p)
        roots = sel.pivots
    else:
        sel = la.thresholded_cholesky(X, kernel, 1e-3, precision=p)
        roots = sel.pivots[sel.indices]
    diag = np.array([float(v) for v in np.diag(sel.L)])
    assert len(diag) > 3 and np.all(diag > 0)
    np.testing.assert_array_equal(diag, roots)


@pytest.mark.parametrize("n", [0, 1, 2, 127, 128, 129, 300])
@pytest.mark.parametrize("band", [1, 3, 128])
def test_mirror_lower_copies_the_lower_triangle(n, band, rng):
    """The upper triangle becomes the lower one's transpose bit for bit; the lower is untouched."""
    from lssvm_analysis.arith.symmetric import mirror_lower

    A = rng.standard_normal((n, n))
    expect = np.tril(A) + np.tril(A, -1).T
    out = mirror_lower(A, band=band)
    assert out is A and np.array_equal(A, expect)


def test_mirror_lower_in_every_precision(precision, rng):
    from lssvm_analysis.arith.symmetric import mirror_lower

    p = la.get_precision(precision)
    A = p.asarray(rng.standard_normal((5, 5)))
    lower = [[A[i, j] for j in range(i + 1)] for i in range(5)]
    mirror_lower(A, band=2)
    assert all(A[i, j] == lower[i][j] and A[j, i] == lower[i][j] for i in range(5) for j in range(i + 1))


@pytest.mark.parametrize("kw, error, match", [({"band": 0}, ValueError, "band"),
                                              ({"band": 1.5}, TypeError, "band")])
def test_mirror_lower_bad_input(kw, error, match):
    from lssvm_analysis.arith.symmetric import mirror_lower

    with pytest.raises(error, match=match):
        mirror_lower(np.eye(3), **kw)
    with pytest.raises(ValueError, match="square"):
        mirror_lower(np.ones((2, 3)))


def test_householder_qr_in_every_precision(precision, rng):
    """R^T R = A^T A + E with |E| <= c m n u ||A||_F^2 (backward stability, Higham Thm 19.4; c = 4
    covers the two-sided product of the backward error), R exactly upper triangular, and R x = Q^T b
    gives the least-squares solution (normal equations A^T (A x - b) = 0 to the same order)."""
    from lssvm_analysis.linalg.qr import householder_qr

    p = la.get_precision(precision)
    m, n = 9, 4
    A, b = p.asarray(rng.standard_normal((m, n))), p.asarray(rng.standard_normal(m))
    A0 = A.copy()
    R, y = householder_qr(A, p, b)
    assert all(A[i, j] == A0[i, j] for i in range(m) for j in range(n))  # input untouched
    assert all(R[i, j] == 0 for i in range(n) for j in range(i))
    f = p.to_float64
    bound = 4 * m * n * p.unit_roundoff * float(np.sum(f(A) ** 2))
    assert np.abs(f(R.T @ R - A.T @ A)).max() <= bound  # the difference formed in p, then rounded
    x = p.solve_triangular(R, y, lower=False)
    assert np.abs(f(A.T @ (A @ x - b))).max() <= bound * (1 + np.abs(f(x)).max())
    assert householder_qr(A, p)[1] is None
