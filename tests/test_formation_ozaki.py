"""The normal equations of the exact model formed by Ozaki-exact float64 products
(exact/formation.py, exact/ozaki.py product_terms / pieces_of_sum): every entry of H = D^T D
(+ R) and of c = D^T l within the returned bounds of the exact value, checked in 400-bit balls
from the DD columns and the exact right-hand side; and the ball route agrees."""
import flint
import numpy as np
import pytest

from lssvm_analysis.exact.ozaki import pieces_of_sum, product_terms
from lssvm_analysis.exact.double_double import DD, rbf_dd
from lssvm_analysis.exact import formation as F
from lssvm_analysis.exact.formation_balls import dd_normal_balls


def _columns(N, k, sigma2, seed):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-3, 3, (N, 2))
    K = rbf_dd(X, X[:k], sigma2)
    return DD(np.hstack([np.ones((N, 1)), K.hi]), np.hstack([np.zeros((N, 1)), K.lo]), 0.0), rng


def _arb(v):
    """The exact arb of a float or an mpf."""
    mpf = getattr(v, "_mpf_", None)
    if mpf is None:
        return flint.arb(float(v))
    sign, man, exp, _ = mpf
    return flint.arb((-int(man) if sign else int(man), int(exp)))


@pytest.mark.parametrize("sigma2, rhs", [(0.7, "float64"), (4.0, "longdouble"), (0.05, "mp50")])
def test_normal_equations_within_their_bounds(sigma2, rhs):
    import lssvm_analysis as la

    D, rng = _columns(70, 20, sigma2, 1)
    y = rng.standard_normal(70)
    shift = {"float64": np.zeros(70), "longdouble": np.array(y / 3, dtype=np.longdouble),
             "mp50": la.get_precision("mp50").asarray(y) / 7}[rhs]
    l = F.exact_targets(y, shift)
    reg = F.scaled_dd(DD(D.hi[:21].copy(), D.lo[:21].copy(), 0.0), F.ridge_dd(10.0))
    H, c, H_bound, c_bound = F.normal_equations(D, l, reg)
    k = D.shape[1]
    with flint.ctx.workprec(400):
        Da = flint.arb_mat(D.hi.tolist()) + flint.arb_mat(D.lo.tolist())
        E = Da.transpose() * Da + flint.arb_mat(reg.hi.tolist()) + flint.arb_mat(reg.lo.tolist())
        ce = Da.transpose() * flint.arb_mat([[_arb(v)] for v in l])
        row_err = max(sum(float(abs(sum(flint.arb(float(P[i, j])) for P in H.pieces()) - E[i, j]).upper())
                          for j in range(k)) for i in range(k))
        c_err = max(float(abs(_arb(c[i]) - ce[i, 0]).upper()) for i in range(k))
    # the bounds are rigorous (inf-norm of the entrywise error) and below the kernel's DD error
    # (~1e-29 relative), here without a kernel bound (D.bound = 0): the inexact tails of 3 (H) /
    # 4 (c) slice levels of 21 bits are <= gamma_N 2^-63 ~ N u 1e-19 ~ 1e-33 of |D|^T |D| (N = 70)
    # and the rank-one form of that bound (max times sum) adds at most a factor N
    assert row_err <= H_bound and c_err <= c_bound
    norm_h = float(np.abs(H.hi).sum(axis=1).max())
    assert H_bound <= 1e-30 * norm_h, (H_bound, norm_h)
    assert c_bound <= 1e-28 * float(np.abs([float(v) for v in c]).max())


def test_symmetric_normal_equations_are_summed_on_one_triangle_within_their_bounds():
    """Zhao & Sun's R = diag(0, K_SS / C) is symmetric: H is summed on its upper triangle and
    mirrored (formation._gram_ozaki); every entry, the mirrored ones included, within the bound."""
    D, rng = _columns(80, 25, 0.9, 3)
    S = np.arange(25)
    KS = F.scaled_dd(DD(D.hi[S][:, 1:].copy(), D.lo[S][:, 1:].copy(), 0.0), F.ridge_dd(100.0))
    k = D.shape[1]
    z = np.zeros((k, k))
    reg = DD(z.copy(), z.copy(), z.copy())
    reg.hi[1:, 1:], reg.lo[1:, 1:], reg.bound[1:, 1:] = KS.hi, KS.lo, KS.bound
    assert np.array_equal(reg.hi, reg.hi.T)  # RBF differences are symmetric bit for bit
    l = rng.standard_normal(80)
    H, c, H_bound, c_bound = F.normal_equations(D, l, reg)
    for P in H.pieces():
        np.testing.assert_array_equal(P, P.T)
    with flint.ctx.workprec(400):
        Da = flint.arb_mat(D.hi.tolist()) + flint.arb_mat(D.lo.tolist())
        E = Da.transpose() * Da + flint.arb_mat(reg.hi.tolist()) + flint.arb_mat(reg.lo.tolist())
        row_err = max(sum(float(abs(sum(flint.arb(float(P[i, j])) for P in H.pieces()) - E[i, j]).upper())
                          for j in range(k)) for i in range(k))
    # the mirrored entry (j, i) is the sum of the terms at (i, j): within the same bound, since the
    # exact values are equal; the bound's size as in the test above (N = 80)
    assert row_err <= H_bound <= 1e-30 * float(np.abs(H.hi).sum(axis=1).max())


def test_ozaki_and_ball_routes_agree():
    D, rng = _columns(60, 15, 1.0, 2)
    l = rng.standard_normal(60)
    H, c, H_bound, c_bound = F.normal_equations(D, l)
    Hb, Hr, cb, cr = dd_normal_balls(D, l, None)
    diff = np.abs(sum(H.pieces()) - sum(Hb.pieces())).sum(axis=1).max()
    assert diff <= H_bound + Hr.sum(axis=1).max()
    assert max(abs(float(a - b)) for a, b in zip(c, cb)) <= c_bound + cr.max()


def test_pieces_of_sum_exact_up_to_its_radius():
    rng = np.random.default_rng(4)
    terms = [rng.standard_normal(50) * 2.0 ** rng.integers(-80, 20) for _ in range(12)]
    pieces, rad = pieces_of_sum(terms, count=3)
    with flint.ctx.workprec(600):
        for i in range(50):
            exact = sum(flint.arb(float(t[i])) for t in terms)
            got = sum(flint.arb(float(p[i])) for p in pieces)
            assert abs(exact - got).upper() <= flint.arb(float(rad[i]))


def test_product_terms_of_integers_is_exact():
    """Small integer matrices: every product is exact (the radius is only the underflow TINY)."""
    rng = np.random.default_rng(5)
    L, R = rng.integers(-1000, 1000, (8, 30)).astype(float), rng.integers(-1000, 1000, (30, 6)).astype(float)
    terms, rad = product_terms(L, R, levels=3)
    assert np.array_equal(sum(terms), L.astype(int) @ R.astype(int)) and rad.max() <= 2.0 ** -900


@pytest.mark.parametrize("kernel", ["rbf", "linear"])
def test_kernel_columns_from_the_symmetric_support_block_equal_the_rectangular_ones_bit_for_bit(kernel):
    # k(x_i, x_j) and k(x_j, x_i) in DD differ only by the sign of each difference (rbf) or the
    # order of each product (linear): the mirrored triangle is the same numbers, bound included
    import lssvm_analysis as la
    from lssvm_analysis.exact.double_double import kernel_dd

    rng = np.random.default_rng(5)
    X = rng.uniform(-3, 3, (60, 3))
    k = la.make_kernel(kernel, **({"sigma2": 0.8} if kernel == "rbf" else {}))
    for S in (rng.choice(60, 57, replace=False), np.arange(60), np.array([7, 3, 7])):
        got, ref = F.kernel_columns_dd(X, k, S), kernel_dd(k, X, X[S])
        for name in ("hi", "lo", "bound"):
            np.testing.assert_array_equal(np.broadcast_to(getattr(got, name), got.shape),
                                          np.broadcast_to(getattr(ref, name), ref.shape))
