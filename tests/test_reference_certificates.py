"""The float64 certificates of ``reference_solve`` are rigorous and not vacuous.

Compared with exact rational arithmetic (FLINT ``fmpq``, conftest ``Exact``)
or certified eigenvalues (FLINT ``arb``), for float64-product, ozaki-product
(kappa_2 = 4e15, within a factor 3 of 1/u; symmetric, non-symmetric, and an
LS-SVM KKT matrix), ozaki-product-2 and cholesky-shift: >= 30 certified
digits that hold against the exact solution, ||A^-1||_inf <= the recorded
bound <= (1 + delta)/(1 - delta) ||A^-1||_inf (product certificates: ||R|| <=
(1 + delta) ||A^-1|| since R - A^-1 = -(I - R A) A^-1), and lambda_min / 4 <=
the shift bound <= lambda_min.  The kernels are tested in
``test_reference_kernels.py``.
"""
from __future__ import annotations

import math

import flint
import numpy as np
import pytest
from conftest import Exact, U64, logspaced_nonsymmetric, logspaced_spd

from lssvm_analysis.exact import inverse_bounds as ib
from lssvm_analysis.analysis.reference import reference_solve
from lssvm_analysis.exact import ozaki as oz
from lssvm_analysis.exact.arb import exact_system, float_up

NEAR_1_OVER_U = 4e15      # kappa_2 target: 1/u = 9.0e15


# -- helpers -------------------------------------------------------------------

def _kkt(H):
    n = H.shape[0]
    A = np.zeros((n + 1, n + 1))
    A[0, 1:] = A[1:, 0] = 1.0
    A[1:, 1:] = H
    return A


def _q(M) -> list:
    """Exact fmpq entries of a float array, as nested lists."""
    return [[Exact.q(v) for v in row] for row in np.asarray(M)]


def _inf_norm(rows) -> flint.fmpq:
    return max(sum((abs(v) for v in row), flint.fmpq(0)) for row in rows)


def _exact_inv_norm(A) -> float:
    n = A.shape[0]
    inv = Exact.mat(A).solve(Exact.mat(np.eye(n)))
    return Exact.to_float(_inf_norm(Exact.entries(inv)))


def _exact_defect(R, A) -> flint.fmpq:
    """||I - R A||_inf exactly (R, A float arrays, or A an fmpq_mat)."""
    A = A if isinstance(A, flint.fmpq_mat) else Exact.mat(A)
    P = Exact.mat(R) * A
    n = P.nrows()
    return _inf_norm([[(1 if i == j else 0) - P[i, j] for j in range(n)] for i in range(n)])


def _certificate(A, b):
    """The certificate ``reference_solve`` computes for (A, b) (same deterministic route)."""
    s = exact_system(A, b)
    kind, solve, inverse = ib.factor64(s, None)
    split = oz.split_rows(s.A64, oz.slice_bits(A.shape[0])[0], 3)
    return ib.certificate(s, kind, solve, inverse, lambda: split)


# -- certificates through reference_solve --------------------------------------

def _no_float64(monkeypatch):
    monkeypatch.setattr(ib, "inverse_bound_float64", lambda A64, R: None)


def _two_term(monkeypatch):
    """The defect reports max(delta, 1), still an upper bound on ||I - R A||: the one-term
    certificate is refused and the two-term inverse (I + E) R must certify."""
    real = oz.inverse_defect

    def defect(*args, **kw):
        d = real(*args, **kw)
        return oz.Defect(d.E, max(d.delta, 1.0), d.err)

    monkeypatch.setattr(ib, "inverse_defect", defect)


_CASES = {
    # name: (matrix builder, patch, expected certificate)
    "float64-product": (lambda rng, S: logspaced_spd(rng, 40, 1e6), None, "float64-product"),
    "ozaki-spd-near-1/u": (lambda rng, S: logspaced_spd(rng, 40, NEAR_1_OVER_U), None, "ozaki-product"),
    "ozaki-nonsymmetric": (lambda rng, S: logspaced_nonsymmetric(rng, 40, 1e12), _no_float64,
                           "ozaki-product"),
    "ozaki-kkt": (lambda rng, S: _kkt(S(40, 1e10).A), _no_float64, "ozaki-product"),
    "ozaki-2-near-1/u": (lambda rng, S: logspaced_spd(rng, 40, NEAR_1_OVER_U), _two_term,
                         "ozaki-product-2"),
    "ozaki-2-kkt": (lambda rng, S: _kkt(S(40, 1e12).A), lambda mp: (_no_float64(mp), _two_term(mp)),
                    "ozaki-product-2"),
    "cholesky-shift": (lambda rng, S: logspaced_spd(rng, 40, 1e6),
                       lambda mp: mp.setattr(ib, "SHIFT_MIN_N", 1), "cholesky-shift"),
}


@pytest.mark.parametrize("case", list(_CASES))
def test_certificate_is_rigorous_and_not_vacuous(monkeypatch, rng, rbf_system, case):
    build, patch, expected = _CASES[case]
    A = build(rng, rbf_system)
    if patch is not None:
        patch(monkeypatch)
    n = A.shape[0]
    b = rng.standard_normal(n)
    ref = reference_solve(A, b, digits=30)
    assert ref.method == "refinement-float64" and ref.certificate == expected
    assert ref.digits >= 30
    Exact.assert_certified(ref, A, b)
    exact = _exact_inv_norm(A)
    assert exact * (1 - U64) <= ref.inverse_norm_bound                     # rigorous
    cert = _certificate(A, b)                                              # the same computation
    assert cert.name == expected and ref.inverse_norm_bound == float_up(cert.inf_bound)
    if expected == "float64-product":
        # delta <= (n + 2) u ||R|| ||A|| ~ 1e-8 here: within a factor 2
        assert ref.inverse_norm_bound <= 2 * exact
    elif expected == "cholesky-shift":
        # sqrt(n) / lam with lam >= lambda_min / 4 (test below) and ||A^-1||_inf >= 1 / lambda_min
        assert ref.inverse_norm_bound <= 4 * math.sqrt(n) * exact
    else:
        assert cert.delta < 1
        assert ref.inverse_norm_bound <= (1 + cert.delta) / (1 - cert.delta) * exact * (1 + 1e-6)


def test_cholesky_shift_bound_brackets_lambda_min(rng):
    A = logspaced_spd(rng, 40, 1e6)
    s = exact_system(A, np.ones(40))
    _, solve, _ = ib.factor64(s, True)
    lam = ib.shift_bound(s, solve)
    ev = Exact.eigvalsh(A, bits=128)          # midpoints within 2^-64 max|lambda| (asserted there)
    lam_min = Exact.to_float(ev[0])
    assert float_up(lam) <= lam_min - 2.0 ** -63 * Exact.to_float(ev[-1])
    assert float(lam.lower()) >= lam_min / 4


def test_cholesky_shift_falls_back_when_it_cannot_certify(monkeypatch, rng):
    """kappa 1e15, n u tr(A) > lambda_min / 2: no shift certifies; R with Ozaki products does."""
    monkeypatch.setattr(ib, "SHIFT_MIN_N", 1)
    A = logspaced_spd(rng, 40, 1e15)
    s = exact_system(A, np.ones(40))
    assert ib.shift_bound(s, ib.factor64(s, True)[1]) is None
    b = rng.standard_normal(40)
    ref = reference_solve(A, b)
    assert ref.certificate.startswith("ozaki-product") and ref.digits >= 30
    Exact.assert_certified(ref, A, b)


def test_exponents_out_of_range_fall_back_to_arb(rng):
    """A row of scale 2^-1000 cannot be split exactly in float64: the arb route certifies."""
    n = 8
    A = np.eye(n) + 0.1 * rng.standard_normal((n, n))
    A[0] = 2.0 ** -1000 * (np.eye(n)[0] + 0.01 * rng.standard_normal(n))
    b = rng.standard_normal(n)
    ref = reference_solve(A, b)
    assert ref.method.startswith("arb-solve-") and ref.digits >= 30
    Exact.assert_certified(ref, A, b)
