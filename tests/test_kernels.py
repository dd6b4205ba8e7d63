"""Kernel gates: RBF structure, accuracy against an exact reference and scikit-learn, validation.

Accuracy model of ``rbf_kernel(..., formation="differences")`` (``kernels.py``; the
default gemm formation of the hardware floats has its own, absolute, bound, tested in
``test_fast_paths.py``): D_ij = sum_f (x_if - z_jf)^2
is a sum of d non-negative rounded squares of rounded differences: each term
carries (1 + d1)^2 (1 + d2) and the d - 1 additions one more factor each, so
|D^ - D| <= gamma_{d+2} D (Higham 2002, §3.1; all terms >= 0, so the bound is
relative and D^ is never negative); dividing by sigma2 adds one rounding, and exp adds
at most 3 ulps = 6u relative (NumPy's own accuracy table,
``umath-validation-set-exp.csv``: float32 3 ulp, float64 1 ulp; glibc's expl
and mpmath's exp are within 1 ulp).  With q = D / sigma2, to first order

    |K^ - K| <= K (gamma_{d+3} q + 6u).

Precisions compute from their own rounding of the data (float32 rounds X and
sigma2); the reference uses exactly those numbers.
"""
from __future__ import annotations

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from sklearn.metrics.pairwise import rbf_kernel as sk_rbf_kernel

import lssvm_analysis as la
from lssvm_analysis.linalg.kernels import sq_distances
from conftest import U64

__all__: list[str] = []


def _gamma(k, u):
    return k * u / (1 - k * u)


def _exact_sq_distances(exact, Xp, Zp):
    """D_ij exactly, from the precision's own numbers."""
    Xq = [[exact.q(v) for v in row] for row in Xp]
    Zq = [[exact.q(v) for v in row] for row in Zp]
    return [[sum(((a - b) * (a - b) for a, b in zip(x, z)), exact.q(0)) for z in Zq] for x in Xq]


def _to_mp(exact, v):
    x = exact.q(v)
    return mpmath.mpf(int(x.p)) / mpmath.mpf(int(x.q))


def _points_with_near_duplicates(rng, n, d):
    X = rng.uniform(-1, 1, (n, d))
    X[1] = X[0]  # an exact duplicate
    X[2] = X[0] * (1 + 4 * U64)  # a few ulps away
    X[3] = X[0] + 1e-9  # nearly coincident
    return X


# -- structure ---------------------------------------------------------------------

def test_rbf_is_symmetric_with_unit_diagonal(precision, rng):
    """Exact symmetry and K_ii = 1 exactly: fl(a - b) = -fl(b - a) and exp(-0) = 1."""
    p = precision
    X = _points_with_near_duplicates(rng, 12, 3)
    K = la.rbf_kernel(X, sigma2=0.7, precision=p)
    D = sq_distances(X, None, p)
    assert np.array_equal(K, K.T) and np.array_equal(D, D.T)
    one, zero = p.scalar(1), p.scalar(0)
    assert all(K[i, i] == one for i in range(12)) and all(D[i, i] == zero for i in range(12))
    assert all(zero <= v <= one for v in K.flat) and all(v >= zero for v in D.flat)
    assert K[0, 1] == one  # the duplicate


_floats = st.floats(min_value=-1e4, max_value=1e4, allow_nan=False, allow_subnormal=False)


@settings(max_examples=60, deadline=None, database=None)
@given(X=hnp.arrays(np.float64, st.tuples(st.integers(1, 4), st.integers(1, 5)), elements=_floats),
       ulps=st.lists(st.integers(-3, 3), min_size=1, max_size=20),
       name=st.sampled_from(["float32", "float64", "longdouble"]))
def test_sq_distances_of_nearly_coincident_points(X, ulps, name, exact):
    """Z = X moved by a few ulps: D >= 0 always, and |D^ - D| <= gamma_{d+2} D + d eta.

    eta = the smallest subnormal: near 0 a difference is subnormal and its
    square underflows, with an absolute error <= eta / 2 (gradual underflow).
    """
    p = la.get_precision(name)
    steps = np.resize(np.array(ulps), X.shape)
    Z = X.copy()
    for _ in range(3):
        Z = np.where(steps > 0, np.nextafter(Z, np.inf), np.where(steps < 0, np.nextafter(Z, -np.inf), Z))
        steps = steps - np.sign(steps)
    Z = np.vstack([Z, X])
    D = sq_distances(X, Z, p)
    assert D.dtype == p.dtype and (D >= 0).all()
    ref = _exact_sq_distances(exact, p.asarray(X), p.asarray(Z))
    g = exact.q(_gamma(X.shape[1] + 2, p.unit_roundoff))
    eta = exact.q(np.finfo(p.dtype).smallest_subnormal) * X.shape[1]
    for i, row in enumerate(ref):
        for j, dij in enumerate(row):
            err = abs(exact.q(D[i, j]) - dij)
            assert err <= g * dij + eta, (i, j, exact.to_float(dij), exact.to_float(err))


# -- accuracy ------------------------------------------------------------------------

@pytest.mark.parametrize("sigma2", [0.3, 5.0])
def test_rbf_matches_exact_reference(precision, sigma2, rng, exact):
    """|K^ - K| <= K (gamma_{d+3} q + 6u), K = exp(-q) at 2t + 20 digits from the exact q = D / sigma2."""
    p = precision
    d = 3
    X = _points_with_near_duplicates(rng, 10, d)
    Z = rng.uniform(-1, 1, (7, d))
    K = la.rbf_kernel(X, Z, sigma2=sigma2, precision=p, formation="differences")
    s = exact.q(p.scalar(sigma2))
    D = _exact_sq_distances(exact, p.asarray(X), p.asarray(Z))
    u, g = p.unit_roundoff, _gamma(d + 3, p.unit_roundoff)
    worst = 0.0
    with mpmath.workdps(int(2 * p.digits) + 20):
        for i, row in enumerate(D):
            for j, dij in enumerate(row):
                q = _to_mp(exact, dij / s)
                ref = mpmath.exp(-q)
                worst = max(worst, float(abs(_to_mp(exact, K[i, j]) - ref) / (ref * (g * q + 6 * u))))
    assert worst <= 1, f"error / bound = {worst:.3g}"


def test_rbf_agrees_with_sklearn(rng, exact):
    """float64 against sklearn's rbf_kernel(gamma=1/sigma2), on data offset from the origin.

    sklearn forms D = ||x||^2 + ||z||^2 - 2 x.z (clipped at 0): |dD| <= gamma_{d+2}
    (||x||^2 + ||z||^2 + 2|x|.|z|) <= 2 gamma_{d+2} (||x||^2 + ||z||^2), then multiplies
    by fl(1/sigma2) (2u q) and takes exp (1 ulp = 2u).  With ours (module
    docstring) the two agree within
    max(K^, K_sk) (gamma_{d+3} q + 2 gamma_{d+2} (||x||^2 + ||z||^2) / sigma2 + 2u q + 8u).
    """
    d, sigma2 = 3, 0.5
    X = 10.0 + _points_with_near_duplicates(rng, 15, d)
    Z = 10.0 + rng.uniform(-1, 1, (9, d))
    ours = la.rbf_kernel(X, Z, sigma2=sigma2, formation="differences")
    theirs = sk_rbf_kernel(X, Z, gamma=1 / sigma2)
    q = sq_distances(X, Z) / sigma2
    norms = (X ** 2).sum(1)[:, None] + (Z ** 2).sum(1)[None, :]
    tol = np.maximum(ours, theirs) * (_gamma(d + 3, U64) * q + 2 * _gamma(d + 2, U64) * norms / sigma2
                                      + 2 * U64 * q + 8 * U64)
    assert (np.abs(ours - theirs) <= tol).all(), np.max(np.abs(ours - theirs) / tol)
    # the self-kernel: sklearn zeroes the diagonal of D by hand, ours gets 1 by construction
    assert np.array_equal(np.diag(la.rbf_kernel(X, sigma2=sigma2)), np.diag(sk_rbf_kernel(X, gamma=2.0)))


def test_kernel_object_and_functions_agree(precision, rng):
    p = precision
    X, Z = rng.uniform(size=(6, 2)), rng.uniform(size=(4, 2))
    pairs = [(la.make_kernel("rbf", sigma2=0.4)(X, Z, precision=p), la.rbf_kernel(X, Z, 0.4, precision=p)),
             (la.make_kernel("linear")(X, Z, precision=p), la.linear_kernel(X, Z, precision=p)),
             (la.make_kernel("poly", degree=2, t=1.0)(X, Z, precision=p),
              la.poly_kernel(X, Z, degree=2, t=1.0, precision=p))]
    for a, b in pairs:
        assert a.dtype == p.dtype and np.array_equal(a, b)
    assert la.make_kernel(la.make_kernel("rbf", sigma2=2.0)).params == {"sigma2": 2.0}


# -- validation ----------------------------------------------------------------------

@pytest.mark.parametrize("sigma2, error, message", [
    (0, ValueError, r"positive finite number for sigma2, got sigma2=0"),
    (-1.0, ValueError, r"got sigma2=-1\.0"),
    (np.nan, ValueError, r"got sigma2=nan"),
    (np.inf, ValueError, r"got sigma2=inf"),
    ("1", TypeError, r"positive real number for sigma2, got sigma2='1'"),
    (None, TypeError, r"got sigma2=None"),
    (True, TypeError, r"got sigma2=True"),
])
def test_bad_sigma2(precision, sigma2, error, message):
    X = np.ones((3, 2))
    with pytest.raises(error, match=message):
        la.rbf_kernel(X, sigma2=sigma2, precision=precision)
    with pytest.raises(error, match=message):
        la.make_kernel("rbf", sigma2=sigma2)


@pytest.mark.parametrize("kernel", ["rbf", "linear", "poly"])
@pytest.mark.parametrize("case", ["feature mismatch", "NaN in X", "inf in Z", "1-D X", "complex Z",
                                  "empty X"])
@pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning")
def test_bad_points(precision, kernel, case):
    X, Z = np.ones((5, 3)), np.ones((4, 3))
    error, message = ValueError, None
    if case == "feature mismatch":
        Z, message = np.ones((4, 2)), r"expected Z with X\.shape\[1\]=3 features, got Z\.shape=\(4, 2\)"
    elif case == "NaN in X":
        X[2, 1], message = np.nan, r"finite values in X, got NaN or inf at index \(2, 1\)"
    elif case == "inf in Z":
        Z[0, 0], message = -np.inf, r"finite values in Z, got NaN or inf at index \(0, 0\)"
    elif case == "1-D X":
        X, message = np.ones(3), r"2-D array for X, got X\.shape=\(3,\)"
    elif case == "complex Z":
        Z, error, message = Z + 1j, TypeError, r"for Z, got dtype=complex128"
    else:
        X, message = np.ones((0, 3)), r"non-empty array for X, got X\.shape=\(0, 3\)"
    with pytest.raises(error, match=message):
        la.make_kernel(kernel)(X, Z, precision=precision)


def test_unknown_kernel_name():
    with pytest.raises(ValueError, match=r"expected kernel in \['linear', 'poly', 'rbf'\], got kernel='gauss'"):
        la.make_kernel("gauss")


def test_inputs_are_never_modified(precision, rng):
    X, Z = rng.uniform(size=(5, 2)), rng.uniform(size=(3, 2))
    Xn = precision.asarray(X)  # native arrays pass through asarray uncopied
    saved = [a.copy() for a in (X, Z, Xn)]
    outs = [la.rbf_kernel(X, Z, 0.5, precision=precision), la.rbf_kernel(Xn, precision=precision),
            sq_distances(Xn, None, precision), la.linear_kernel(Xn, precision=precision),
            la.poly_kernel(X, Z, precision=precision)]
    for a, s in zip((X, Z, Xn), saved):
        assert np.array_equal(a, s)
        assert not any(np.shares_memory(o, a) for o in outs)


def test_lssvmlab_sig2_conversion_pins_the_factor_of_two():
    """LS-SVMlab's RBF_kernel is exp(-||x-z||^2 / (2 sig2)); ours exp(-||x-z||^2 / sigma2).

    At ||x - z||^2 = 1 and sig2 = 0.5, LS-SVMlab's kernel is exp(-1); ours with
    sigma2 = from_lssvmlab(0.5) = 1 is exp(-1) too (exactly: 2 * 0.5 is exact).
    """
    assert la.from_lssvmlab(0.5) == 1.0 and la.to_lssvmlab(1.0) == 0.5
    X, Z = np.array([[0.0, 0.0]]), np.array([[1.0, 0.0]])
    lssvmlab = np.exp(-np.sum((X - Z) ** 2) / (2 * 0.5))
    assert la.rbf_kernel(X, Z, sigma2=la.from_lssvmlab(0.5), formation="differences")[0, 0] == lssvmlab
    for sig2 in (1e-3, 0.7, 3.0, 1e5):
        assert la.to_lssvmlab(la.from_lssvmlab(sig2)) == sig2
    with pytest.raises(ValueError, match="sig2"):
        la.from_lssvmlab(-1.0)
