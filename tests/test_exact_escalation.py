"""Precision escalation of the exact model (analysis/model_error.py, exact/formation_balls.py).

The least-squares families' exact model formed from the double-double kernel certifies
~29 - 2 log10 kappa digits; formed again in arb balls at the bits the first route's kappa asks for,
it is certified at any kappa, so the stable float64 forms (reduced-lssvr[ridge=lstsq],
op-lssvm[solve=lstsq]) can be seen failing where theory says they must.
"""
import math
from dataclasses import replace

import flint
import numpy as np
import pytest

import lssvm_analysis as la
from lssvm_analysis import datasets
from lssvm_analysis.analysis import model_error as me
from lssvm_analysis.core.exceptions import ReferenceAccuracyError
from lssvm_analysis.exact.double_double import DD, rbf_dd
from lssvm_analysis.linalg.kernels import make_kernel
from lssvm_analysis.exact.formation_balls import kernel_balls

U64 = 2.0 ** -53


@pytest.fixture(scope="module")
def sinc():
    """The kappa ladder's regression set (n = 30, seed 0) at its sigma2 = 10."""
    ds = datasets.load("sinc", seed=0, n_train=30, n_test=100)
    return ds.X_train, ds.y_train, ds.X_test


def _reduced(X, y, n_support, ridge="lstsq", precision="float64"):
    return la.fit("reduced-lssvr", X, y, C=1e16, sigma2=10.0, n_support=n_support, ridge=ridge,
                  rng=np.random.default_rng(1), precision=precision)


def _op(X, y, C, k, solve="lstsq"):
    return la.fit("op-lssvm", X, y, C=C, sigma2=10.0, k_rule="fixed", k_max=k, solve=solve,
                  precision="float64")


@pytest.mark.filterwarnings("ignore::lssvm_analysis.IllConditionedWarning")
@pytest.mark.parametrize("case", ["reduced-lssvr", "op-lssvm"])
def test_stable_float64_forms_are_seen_failing_at_large_kappa(sinc, case):
    """At problem kappa >= 1e13 the escalated exact model is certified and the stable form fails.

    * Certified: the DD route gives ~29 - 2 log10 kappa < 3 digits here; escalated to the bits of
      ``escalation_bits`` (target 20), the model is certified to >= 10 digits -- far beyond what
      a float64 fit can have at this kappa (<= -log10(kappa u) + 3 < 6).
    * Fails: a backward-stable least-squares solve in float64 (Householder QR, Wedin) has forward
      error ~ kappa u (1 + kappa ||r|| / (||M|| ||x||)); the rounding of the float64 kernel alone
      is a relative perturbation ~u of M whose effect on x is ~kappa u times the projection of a
      rounding pattern on the smallest singular direction, >= 1e-3 of its norm for these small
      problems (N |S| ~ 700 entries: ~1/sqrt(700) = 0.04, another 1.5 digits of margin).  So the
      model digits are at most -log10(kappa u) + 3 (a statement about the typical size of the
      error, not a theorem: rounding could cancel by luck), below the grid's 3 digits from kappa
      ~1e13 on.  Measured: 0.92 digits at kappa 4.2e15 (reduced-lssvr, -log10(kappa u) = 0.34),
      2.66 at 1.7e14 (op-lssvm, 1.73); at 7.5e12, 4.60 (3.08); at 3.6e8, 10.3 (7.4).
    * And it is still backward stable: its error is within c N kappa u (c = 30, LAPACK's
      threshold; the kappa^2 ||r|| term is below kappa here, measured ||r|| ~ 1e-9..1e-5).
    """
    X, y, _ = sinc
    fit = _reduced(X, y, 22) if case == "reduced-lssvr" else _op(X, y, 1e13, 26)
    problem = la.get_solver(fit.solver).exact_model(X, y, fit)
    exact = me.solve_exact_model(problem, target=20)
    kappa = exact.problem_condition
    assert kappa >= 1e13, kappa
    assert exact.bits > 0 and exact.digits >= 10, exact           # escalated, certified
    digits = me.model_errors(fit, exact)["model_digits"]
    assert digits <= -math.log10(kappa * U64) + 3, (digits, kappa)
    assert digits < 3                                              # the grid sees the failure
    assert me.model_errors(fit, exact)["model_error"] <= 30 * len(y) * kappa * U64


@pytest.mark.filterwarnings("ignore::lssvm_analysis.IllConditionedWarning")
@pytest.mark.parametrize("case", ["reduced-lssvr", "op-lssvm"])
def test_escalated_and_dd_routes_agree_within_their_certified_errors(sinc, case):
    """At moderate kappa (~1e4-1e10) both routes are certified: both contain the exact model, so
    their difference is at most the sum of their certified error bounds (rigorous, no constant)."""
    X, y, _ = sinc
    fit = _reduced(X, y, 8) if case == "reduced-lssvr" else _op(X, y, 1e4, 10)
    problem = la.get_solver(fit.solver).exact_model(X, y, fit)
    dd = me.solve_exact_model(problem)
    wide = me.solve_exact_model(problem.wider(256))
    assert dd.bits == 0 and dd.digits >= 10 and wide.digits >= 29
    diff = max(abs(float(a - b)) for a, b in zip(dd.vector(), wide.vector()))
    assert diff <= dd.error_bound + wide.error_bound, (diff, dd.error_bound, wide.error_bound)


@pytest.mark.filterwarnings("ignore::lssvm_analysis.IllConditionedWarning")
def test_uncertified_dd_route_escalates_and_the_rule_meets_its_target(sinc):
    """n_support = 24 at C = 1e16 (problem kappa ~1e15-1e17): the DD-formed H (kappa ~1e31+)
    certifies < 1 digit of the model; without a target the escalation aims at digits - 1 = 29,
    and from the measured kappa one formation at ``escalation_bits`` reaches a target of 25."""
    X, y, _ = sinc
    fit = _reduced(X, y, 24)
    problem = la.get_solver(fit.solver).exact_model(X, y, fit)
    dd = me.solve_exact_model(replace(problem, wider=None))
    assert dd.digits < 1
    escalated = me.solve_exact_model(problem)
    assert escalated.bits > 0 and escalated.digits >= 29
    bits = me.escalation_bits(dd.condition, problem.rows, 25.0)
    assert me.solve_exact_model(problem.wider(bits)).digits >= 25, bits


@pytest.mark.filterwarnings("ignore::lssvm_analysis.IllConditionedWarning")
def test_a_first_route_that_certifies_nothing_escalates_blind(sinc):
    """No kappa measured (the formed system cannot be certified: here a zero matrix in place of
    the DD route's H): the escalation starts at BLIND_BITS."""
    X, y, _ = sinc
    fit = _reduced(X, y, 8)
    problem = la.get_solver(fit.solver).exact_model(X, y, fit)
    zero = DD(np.zeros(problem.A.shape), np.zeros(problem.A.shape))
    with pytest.raises(ReferenceAccuracyError):
        me.solve_exact_model(replace(problem, A=zero, wider=None))
    blind = me.solve_exact_model(replace(problem, A=zero))
    assert blind.bits == me.BLIND_BITS and blind.digits >= 29


@pytest.mark.filterwarnings("ignore::lssvm_analysis.IllConditionedWarning")
def test_escalation_is_lazy_resolved_fits_keep_the_dd_route(sinc):
    """fit_exact_model escalates only what the DD route does not resolve: the literal float64 form
    (0 digits at kappa 2e9, against ~11 certified) keeps the DD model; the longdouble fit at
    |S| = 16 (kappa 3.6e8) is not resolved by the DD model (~12 certified digits against the
    fit's 12.35) and is escalated to >= 22 digits (longdouble's target), which resolves it;
    ``escalate=False`` keeps the DD route.  An mp50 fit is never resolved by a
    30-digit model: its target is the maps' criterion (27 digits, half of mp50's and one), which
    the DD route (~12 digits here) does not give, so it escalates to it."""
    X, y, X_test = sinc
    literal = _reduced(X, y, 18, ridge="literal")
    problem = la.get_solver("reduced-lssvr").exact_model(X, y, literal)
    exact, errs = me.fit_exact_model(problem, literal, X_test[:50])
    assert exact.bits == 0 and not errs["model_digits_capped"] and errs["model_digits"] < 3
    ld = _reduced(X, y, 16, precision="longdouble")
    problem = la.get_solver("reduced-lssvr").exact_model(X, y, ld)
    exact, errs = me.fit_exact_model(problem, ld, X_test[:50])
    assert exact.bits > 0 and exact.digits >= me.target_digits("longdouble") == 22
    assert not errs["model_digits_capped"] and errs["model_digits"] <= exact.digits - 1   # resolved
    kept, capped = me.fit_exact_model(problem, ld, X_test[:50], escalate=False)
    # the DD route did not resolve the fit, for one of the rule's reasons: which one depends on the
    # LAPACK kernels behind reference_solve's certificate (11.9 certified digits, model capped, with
    # OpenBLAS' default kernels; 12.5 with its Haswell kernels, the fit's 12.35 digits then within
    # one digit of it and the predictions capped)
    assert kept.bits == 0 and (capped["model_digits_capped"] or capped["prediction_digits_capped"]
                               or capped["model_digits"] > kept.digits - 1)
    # both measure the fit's distance to a model: the DD model is within 10^-kept.digits of the
    # exact one (relative; 1.01 for the two normalisations), so the two relative errors differ by
    # at most that, whether the DD figure is the cap or a measurement
    assert abs(10 ** -errs["model_digits"] - 10 ** -capped["model_digits"]) <= 1.01 * 10 ** -kept.digits
    mp = _reduced(X, y, 16, precision="mp50")
    problem = la.get_solver("reduced-lssvr").exact_model(X, y, mp)
    exact, errs = me.fit_exact_model(problem, mp, X_test[:50])
    assert exact.bits > 0 and exact.digits >= me.target_digits("mp50") == 27
    assert me.fit_exact_model(problem, mp, X_test[:50], escalate=False)[0].digits < 27


def test_target_digits_follow_the_precision():
    """ceil(-log10 u) + 2: float32 10, float64 18; mp50 (u = 1.3e-51) 53 > digits - 1 = 29, so the
    maps' criterion, ceil(-log10 sqrt(u)) + 1 = ceil(25.44) + 1 = 27, unless the reference
    certifies more digits; mp80's 42 is capped at the 29 the reference certifies."""
    assert me.target_digits("float32") == 10 and me.target_digits("float64") == 18
    assert me.target_digits("mp50") == 27 and me.target_digits("mp80") == 29
    assert me.target_digits("mp50", digits=60) == 53


@pytest.mark.parametrize("sigma2", [0.3, 10.0])
def test_ball_kernel_contains_the_double_double_kernel(sigma2):
    """Both are rigorous: |DD - mid| <= DD bound + ball radius on every entry."""
    rng = np.random.default_rng(3)
    X, Z = rng.uniform(-2, 2, (12, 3)), rng.uniform(-2, 2, (7, 3))
    K = kernel_balls(make_kernel("rbf", sigma2=sigma2), X, Z, bits=200)
    D = rbf_dd(X, Z, sigma2)
    with flint.ctx.workprec(300):
        for idx, e in enumerate(K.entries()):
            i, j = divmod(idx, 7)
            gap = abs(e.mid() - flint.arb(D.hi[i, j]) - flint.arb(D.lo[i, j]))   # exact at 300 bits
            assert gap.upper() <= flint.arb(D.bound[i, j]) + e.rad()
            # the balls are tight: a few roundings at 200 bits (exp's own radius, the exponent's)
            assert float(e.rad()) <= 2.0 ** -190 * abs(float(e.mid()))


DENSE = ["lssvm-schur", "lssvm-kkt", "krr", "lssvm-fisher", "w-lssvm", "r-lssvm-w"]


@pytest.mark.filterwarnings("ignore::lssvm_analysis.IllConditionedWarning")
@pytest.mark.parametrize("name", DENSE)
def test_dense_families_escalate_and_measure_an_mp50_fit_at_large_kappa(name):
    """The dense families' exact model (KKT / Omega + I/C in DD) has a ball route too
    (``formation.dense_wider``): at C = 1e16, sigma2 = 10 (kappa_inf ~1e18, the maps' corner) the DD
    route certifies ~12 digits, fewer than half of an mp50 fit's, so the map could not say whether
    the fit is right.  Escalated, the exact model is certified far beyond the fit's error and the
    fit's digits are measured, not capped:

    * both routes contain the exact model, so they differ by at most the sum of their certified
      bounds (rigorous, no constant);
    * the escalation meets the mp50 target (27 digits: half of mp50's, :func:`target_digits`);
    * the mp50 fit's error is measured within the rule c kappa u (c = 30 N, LAPACK's threshold
      per entry of a backward-stable solve) and is below sqrt(u_50): the map counts it ok.
    """
    rng = np.random.default_rng(0)
    X = np.sort(rng.uniform(-3, 3, (40, 1)), axis=0)
    y = np.sinc(X[:, 0]) if name != "lssvm-fisher" else np.where(X[:, 0] > 0, 1.0, -1.0)
    fit = la.fit(name, X, y, precision="mp50", C=1e16, sigma2=10.0)
    problem = la.get_solver(name).exact_model(X, y, fit)
    dd, wide = me.solve_exact_model(problem), me.solve_exact_model(problem.wider(192))
    gap = max(abs(float(a - b)) for a, b in zip(me.model_vector(wide.coef, wide.bias),
                                                  me.model_vector(dd.coef, dd.bias)))
    assert gap <= wide.error_bound + dd.error_bound
    exact, errs = me.fit_exact_model(problem, fit)
    u50 = la.get_precision("mp50").unit_roundoff
    assert dd.digits < me.target_digits("mp50") <= exact.digits and "192-bit balls" in exact.method
    assert not errs["model_digits_capped"]
    assert errs["model_error"] <= 30 * len(y) * exact.problem_condition * u50
    assert errs["model_error"] < math.sqrt(u50)
