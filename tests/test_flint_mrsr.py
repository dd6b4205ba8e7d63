"""The mpN engine of MRSR, PRESS and the column-append QR (linalg/_mrsr_flint.py, linalg/_press_flint.py, arith/flint_arb.py) against the generic code.

The FLINT engine keeps the vectors of these loops in FLINT between steps and the
generic code (``MPPrecision(50, engine="mpmath")``) computes them with mpmath on
object arrays: the same arithmetic, every operation rounded to t bits
(u = 2^-t), the roundings in another order (a FLINT dot product is rounded once,
mpmath's sum rounds each partial sum; FLINT midpoints are truncated, mpmath
rounds to nearest: at most 2u per operation).  Each bound below is the sum of the
two engines' error bounds, its constant derived next to it.  Also checked: the
new Precision primitives are, in float64, the NumPy formulas they replace, bit
for bit, and fits that differ only in ``solve`` share steps 1-3 inside
:func:`~lssvm_analysis.solvers.vieira.shared_selection`.
"""
from __future__ import annotations

import numpy as np
import pytest

import lssvm_analysis as la
from lssvm_analysis.linalg.mrsr import ColumnQR, column_qr
from lssvm_analysis.arith.precision import MPPrecision
from lssvm_analysis.solvers import vieira as V

FL = la.get_precision("mp50")
MP = MPPrecision(50, engine="mpmath")
U = FL.unit_roundoff
U64 = 2.0 ** -53

pytestmark = pytest.mark.skipif(FL.engine != "flint", reason="libflint could not be loaded through ctypes")


def _f64(a):
    return np.array([float(v) for v in np.ravel(a)]).reshape(np.shape(a))


def _col_diff(a, b):
    """max_j ||a_j - b_j||_2 / ||b_j||_2 over the columns, the differences taken in mp50."""
    d = _f64(np.asarray(a) - np.asarray(b))
    return float((np.linalg.norm(d, axis=0) / np.linalg.norm(_f64(b), axis=0)).max())


@pytest.mark.parametrize("n, m", [(30, 20), (80, 60)])
def test_project_out_agrees(rng, n, m):
    A = FL.asarray(rng.normal(size=(n, m)))
    q64 = rng.normal(size=n)
    with FL.context():
        q = FL.asarray(q64) / FL.sqrt(np.array([FL.asarray(q64) @ FL.asarray(q64)]))[0]
        got, ref = FL.project_out(A, q, passes=2), MP.project_out(A, q, passes=2)
    # One pass, column j: c_j = q^T a_j (a dot product, error <= n u ||a_j|| as ||q|| = 1), q_i c_j
    # and the difference rounded (2 u |.| each, truncation): <= (n + 4) u ||a_j||; the second pass
    # adds its own and carries the first through I - q q^T (norm 1): 2 (n + 4) u per engine, two
    # engines 4 (n + 4) u; constant 2 for the second-order terms.
    assert _col_diff(got, ref) <= 8 * (n + 4) * U
    assert not got.flags.writeable   # kept: its FLINT form registered for the products that follow


def test_new_primitives_are_the_numpy_formulas_in_float64(rng):
    p = la.get_precision("float64")
    A, q = rng.normal(size=(20, 7)), rng.normal(size=20)
    q /= np.linalg.norm(q)
    want = A
    for _ in range(2):
        want = want - np.multiply.outer(q, q @ want)
    assert np.array_equal(p.project_out(A, q, passes=2), want)
    assert np.array_equal(p.column_norms(A), np.sqrt((A * A).sum(axis=0)))
    s = np.abs(rng.normal(size=7)) + 0.5
    assert np.array_equal(p.divide_columns(A, s), A / s)
    H, y = rng.normal(size=(9, 9)), np.where(rng.normal(size=9) > 0, 1.0, -1.0)
    G = H.copy()
    p.scale_signs(G, y)
    assert np.array_equal(G, H * np.multiply.outer(y, y))


def test_column_norms_and_divide_agree(rng):
    n, m = 50, 12
    A = FL.asarray(rng.normal(size=(n, m)) * np.logspace(-3, 3, m))
    with FL.context():
        nf, nm = FL.column_norms(A), MP.column_norms(A)
        # sum of n squares: mpmath's partial sums give gamma_{2n} ~ 2 n u relative (each square and
        # sum rounded), FLINT 2 u per square and one final rounding; sqrt halves the relative error
        # and adds one rounding (2 u): (n + 2) u + (1 + 2) u per engine, sum (n + 7) u, factor 2
        # for the truncated midpoints of FLINT.
        assert float(max(abs((a - b) / b) for a, b in zip(nf, nm))) <= 2 * (n + 7) * U
        s = nm
        df, dm = FL.divide_columns(A, s), MP.divide_columns(A, s)
    # the same quotients, each rounded once: to nearest (u) and truncated (< 2 u)
    q = _f64(dm)
    assert np.all(np.abs(_f64(np.asarray(df) - np.asarray(dm))) <= 3 * U * np.abs(q))


def test_scale_signs_negates_exactly(rng):
    n = 23
    H = FL.asarray(rng.normal(size=(n, n)))
    y = FL.asarray(np.where(rng.normal(size=n) > 0, 1.0, -1.0))
    G = H.copy()
    with FL.context():
        FL.scale_signs(G, y)
        want = H * np.multiply.outer(y, y)   # products by +-1: exact
        assert all(a == b for a, b in zip(G.ravel(), want.ravel()))
        w = FL.asarray(rng.normal(size=n))   # not labels: the products themselves
        G2 = H.copy()
        FL.scale_signs(G2, w)
        assert all(a == b for a, b in zip(G2.ravel(), (H * np.multiply.outer(w, w)).ravel()))


def test_column_qr_engine_agrees(rng):
    n, k = 40, 12
    A64 = rng.normal(size=(n, k)) @ np.diag(np.logspace(0, 4, k))
    A = FL.asarray(A64)
    b = FL.asarray(A64 @ rng.normal(size=k))   # consistent: the solution's error is kappa x backward
    with FL.context():
        fq, gq = column_qr(n, k + 1, FL), ColumnQR(n, k + 1, MP)
        assert not isinstance(fq, ColumnQR)   # the engine's factor
        for j in range(k):
            assert fq.append_column(A, j) and gq.append_column(A, j)
        assert not fq.append(A[:, 3]) and not gq.append(A[:, 3])   # dependent: refused by both
        assert fq.last_norm <= n * U * np.linalg.norm(A64[:, 3]) and fq.k == gq.k == k
        x_f, x_g = fq.solve(b), gq.solve(b)
    kappa = np.linalg.cond(A64)
    # CGS2 is backward stable for least squares like Householder QR (Giraud et al. 2005; Higham
    # Thm 20.3: c m n u, c small): forward error <= kappa m n u per engine on a consistent system,
    # two engines 2 kappa m n u; constant 2 for the truncated midpoints of FLINT.
    assert _col_diff(np.asarray(x_f)[:, None], np.asarray(x_g)[:, None]) <= 4 * kappa * n * k * U
    assert _col_diff(fq.R[:k, :k], gq.R[:k, :k]) <= 4 * kappa * n * k * U   # R = Q^T A: the same order


@pytest.mark.parametrize("variant", ["qr", "bordered-inverse"])
@pytest.mark.parametrize("n_resp", [1, 2])
def test_mrsr_engine_agrees(rng, variant, n_resp):
    X, T = rng.normal(size=(40, 15)), rng.normal(size=(40, n_resp))
    pf = la.mrsr(X, T, k_max=10, variant=variant, precision=FL)
    pg = la.mrsr(X, T, k_max=10, variant=variant, precision=MP)
    assert list(pf.order) == list(pg.order) and pf.status == pg.status
    # Each step's OLS fit W_bar is a least-squares solution: forward error <= kappa^2 n u per engine
    # (Higham Thm 20.1, the residual term, kappa of the normalised X), and W is W_bar's convex
    # combination with the previous W; with the conformance battery's 30 per fit (LAPACK's
    # threshold), two engines: 60 kappa^2 n u of the largest coefficient.
    kappa = np.linalg.cond(X / np.linalg.norm(X, axis=0))
    big = float(np.abs(_f64(pg.coefs)).max())
    assert pf.coefs.shape == pg.coefs.shape
    assert float(np.abs(_f64(pf.coefs - pg.coefs)).max()) <= 60 * kappa ** 2 * X.shape[0] * U * big
    # steps, correlations and pivots are float64 images of those mp50 values: the engines' values
    # differ by far less than u_64 (above), so the images differ by one rounding each: 2 u_64
    # (3 u_64 with the mp difference).
    for a, b in ((pf.steps, pg.steps), (pf.correlations, pg.correlations), (pf.pivots, pg.pivots)):
        assert np.all(np.abs(a - b) <= 3 * U64 * np.abs(b))


@pytest.mark.parametrize("variant", ["qr", "normal-equations"])
def test_press_engine_agrees(rng, variant):
    N, m = 50, 12
    D = FL.asarray(rng.normal(size=(N, m)))
    l = FL.asarray(rng.normal(size=N))
    cf, gf, _, sf = V.press_curve(D, l, range(m), variant=variant, precision=FL)
    cg, gg, _, sg = V.press_curve(D, l, range(m), variant=variant, precision=MP)
    assert sf == sg and list(gf) == list(gg)
    # each term (e_i / (1 - h_ii))^2 is formed in float64 from two float64 images (u_64 each) of
    # mp50 values that the engines give within kappa(D_k)^2 N u of each other (normal equations;
    # kappa ~ 10 here): (4 + 1) u_64 per term, the mean of N terms N u_64: 2 (N + 5) u_64 for two.
    assert np.all(np.abs(cf - cg) <= 2 * (N + 5) * U64 * np.abs(cg))


def test_shared_selection_reuses_steps_1_to_3(rng):
    X = rng.normal(size=(30, 2))
    y = np.where(X[:, 0] + 0.3 * rng.normal(size=30) > 0, 1.0, -1.0)
    kw = dict(task="classification", C=10.0, sigma2=1.0, k_rule="fixed", k_max=12, precision="mp50")
    alone = {s: la.fit("op-lssvm", X, y, solve=s, **kw) for s in ("lstsq", "normal-equations")}
    with V.shared_selection() as memo:
        shared = {s: la.fit("op-lssvm", X, y, solve=s, **kw) for s in ("lstsq", "normal-equations")}
    assert (memo.misses, memo.hits) == (1, 1) and len(memo) == 0   # released when the block ends
    for s in alone:
        a, b = alone[s].diagnostics, shared[s].diagnostics
        assert list(a) == list(b)
        for key in a:
            if key != "solution":
                assert np.array_equal(np.asarray(a[key]), np.asarray(b[key])), key
        assert all(u == v for u, v in zip(a["solution"], b["solution"]))   # the same numbers
        assert set(alone[s].timings) == set(shared[s].timings)
    with V.shared_selection() as memo:   # training accuracy solves in its loop: not shared
        for s in ("lstsq", "normal-equations"):
            la.fit("op-lssvm", X, y, solve=s, **{**kw, "k_rule": "training-accuracy"})
    assert memo.hits == 0
