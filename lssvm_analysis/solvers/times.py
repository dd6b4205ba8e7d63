"""The measured time of every solver's fit, one :class:`TimeModel` each (issue 42).

Each solver registers its declaration (``register(..., time=...)``, beside ``peak``) and
``la.fit(..., max_seconds=...)`` refuses, before any work, a fit whose estimate is clearly beyond
the limit (:mod:`lssvm_analysis.linalg.cost`).  A model is a sum of terms ``c (n+1)^a r^b``
whose exponents are the algorithm's complexity (:data:`STRUCTURES`: a dense factorization
n^3 + the kernel n^2 + a fixed cost; a support-set least squares n r^2 + n r + r^3; Abe's
selection n^2 N + N^3; LIBSVM's SMO n^2, its exponent measured: 2.03 for svm-c and 1.87 for
svm-eps by log-log least squares over n = 2,000 ... 64,000 on noisy 1-D data) and whose
coefficients are MEASURED: relative non-negative least squares on CPU seconds
(``benchmarks/measure_times.py --fit``, which printed every line of :data:`_COEFFICIENTS` with the
range of measured / model over its sizes).  A coefficient that least squares set to 0 drops its
term at that engine (its term was below the noise at the measured sizes).

Where r is the family's support size, the fits were measured at r = n/20 and n/5; the default r
(``r_default``) is the solver's own (reduced-lssvr ceil(0.1 n), Chen & Zhou's floor(0.05 m));
where r is chosen by the fit (Abe's N, rr-lssvr's tolerance) the estimate before the fit takes
r = 0, the terms in n alone: a lower bound.

What the figures do not cover, and which way it errs: d (measured at d = 2, LIBSVM at d = 1; the
kernel's n^2 d flops are not separated from its exp); data (the LS-SVM families' times hardly
depend on it, LIBSVM's do: on the easy example problem svm-c at n = 16,000 took 0.28 s, on noisy
1-D data 3.0 s, and the noisy data are declared); LIBSVM's ``max_iter`` cap (10^6 iterations: past
~10^6 points the n^2 law may over-estimate); mpN digits (:func:`~lssvm_analysis.linalg.cost.mp_factor`).
"""
from __future__ import annotations

from ..linalg.cost import TimeModel, TimeTerm

__all__ = ["MEASURED", "STRUCTURES", "KKT_TIME", "SCHUR_TIME", "CG_TIME", "KRR_TIME", "FISHER_TIME", "PRUNED_TIME",
           "ELS_PRIMAL_TIME", "ELS_DUAL_TIME", "SVM_TIME", "SVR_TIME", "OP_TIME", "IP_TIME", "RR_TIME",
           "REDUCED_TIME", "PCP_TIME", "SR_TIME", "CCCP_W_TIME", "CCCP_Y_TIME", "WEIGHTED_TIME", "FS_TIME"]

#: Where every coefficient below comes from.
MEASURED = ("benchmarks/measure_times.py on 2026-12-06, x86_64 Intel Xeon (2 cores shared, load 5-10; "
            "CPU seconds, OpenBLAS 1 thread), the registry's example problems (d = 2) at n = 200-6400 "
            "(float64, float32), 20-1280 (longdouble), 20-320 (mp30); svm-c/svm-eps noisy 1-D sinc at 2,000-64,000")

_CUBIC = ((3, 0), (2, 0), (0, 0))
_SUPPORT = ((1, 2), (1, 1), (0, 3), (0, 0))
_ELS = ((2, 1), (0, 3), (2, 0), (0, 0))
_RR = ((2, 1), (1, 2), (2, 0), (0, 0))
_FS = ((1, 2), (1, 1), (0, 3), (0, 2), (0, 0))
_SMO = ((2, 0), (1, 0), (0, 0))
#: Each solver's exponents ((a, b) of (n+1)^a r^b per term): what benchmarks/measure_times.py fits.
STRUCTURES = {
    **dict.fromkeys(("lssvm-kkt", "lssvm-schur", "lssvm-cg", "krr", "lssvm-fisher", "lssvm-pruned", "op-lssvm",
                     "ip-lssvm", "r-lssvm-w", "r-lssvm-y", "w-lssvm"), _CUBIC),
    **dict.fromkeys(("els-primal", "els-dual"), _ELS), **dict.fromkeys(("svm-c", "svm-eps"), _SMO),
    **dict.fromkeys(("reduced-lssvr", "pcp-lssvm", "sr-lssvm"), _SUPPORT), "rr-lssvr": _RR, "fs-lssvm": _FS,
}
#: (r keyword, r_default) of the solvers with a second size.
_SECOND = {"els-primal": ("N", 0.0), "els-dual": ("N", 0.0), "rr-lssvr": ("n_support", 0.0),
           "reduced-lssvr": ("n_support", 0.1), "pcp-lssvm": ("n_support", 0.05), "sr-lssvm": ("n_support", 0.05),
           "fs-lssvm": ("n_support", 0.05)}

# Seconds per term, by engine key, as benchmarks/measure_times.py --fit printed them (2 significant
# digits; the comment: measured / model over the sizes fitted).
_COEFFICIENTS = {
    "lssvm-kkt": dict(
        hw8=(8.3e-12, 1.4e-08, 0.0003),  # measured/model 0.92..1.11 at n=200..6400
        hw4=(3.3e-12, 8.2e-09, 0.00043),  # measured/model 0.96..1.04 at n=200..6400
        sw16=(2.7e-09, 2e-07, 0.0006),  # measured/model 0.87..1.30 at n=20..1280
        mp=(3.9e-09, 4.4e-06, 0.0015),  # measured/model 0.99..1.01 at n=20..320
    ),
    "lssvm-schur": dict(
        hw8=(4.8e-12, 9.1e-09, 0.00027),  # measured/model 0.92..1.07 at n=200..6400
        hw4=(1.9e-12, 5.7e-09, 0.00046),  # measured/model 0.94..1.08 at n=200..6400
        sw16=(4.5e-10, 1.8e-07, 0.00063),  # measured/model 0.86..1.27 at n=20..1280
        mp=(1.8e-09, 3.6e-06, 0.0021),  # measured/model 0.98..1.04 at n=20..320
    ),
    "lssvm-cg": dict(
        hw8=(1.7e-10, 0.0, 0.0028),  # measured/model 0.88..1.24 at n=200..3200
        hw4=(9.2e-11, 0.0, 0.0019),  # measured/model 0.92..1.06 at n=200..1600
        sw16=(8.1e-10, 7.1e-07, 0.00046),  # measured/model 0.92..1.35 at n=20..1280
        mp=(2.5e-09, 5.2e-06, 0.00093),  # measured/model 0.95..1.03 at n=20..320
    ),
    "krr": dict(
        hw8=(5.7e-12, 8e-09, 0.00019),  # measured/model 0.96..1.05 at n=200..3200
        hw4=(2.9e-12, 4.2e-09, 0.00054),  # measured/model 0.97..1.05 at n=200..3200
        sw16=(4.3e-10, 1.7e-07, 0.00057),  # measured/model 0.92..1.19 at n=20..1280
        mp=(1.3e-09, 3.8e-06, 0.002),  # measured/model 0.96..1.02 at n=20..320
    ),
    "lssvm-fisher": dict(
        hw8=(7.9e-12, 5.4e-09, 0.00037),  # measured/model 0.97..1.05 at n=200..3200
        hw4=(2.1e-12, 5.7e-09, 0.00044),  # measured/model 0.94..1.17 at n=200..3200
        sw16=(4.3e-10, 1.9e-07, 0.00065),  # measured/model 0.85..1.21 at n=20..1280
        mp=(1.7e-09, 3.8e-06, 0.0021),  # measured/model 0.97..1.02 at n=20..320
    ),
    "lssvm-pruned": dict(
        hw8=(2.5e-11, 4e-09, 0.0028),  # measured/model 0.82..1.39 at n=200..3200
        hw4=(6.2e-12, 1.1e-08, 0.0023),  # measured/model 0.76..1.41 at n=200..3200
        sw16=(4.7e-10, 6.6e-07, 0.0012),  # measured/model 0.77..1.90 at n=20..1280
        mp=(0.0, 1.3e-05, 0.0027),  # measured/model 0.82..2.03 at n=20..320
    ),
    "els-primal": dict(
        hw8=(3.6e-11, 6.5e-10, 1.4e-09, 0.0015),  # measured/model 0.86..1.41 at n=200..3200
        hw4=(2.2e-11, 6.2e-10, 2.4e-09, 0.0014),  # measured/model 0.87..1.30 at n=200..3200
        sw16=(6.5e-10, 1e-08, 0.0, 0.00091),  # measured/model 0.81..1.32 at n=20..1280
        mp=(0.0, 2.6e-07, 5.4e-06, 0.0081),  # measured/model 0.86..1.26 at n=20..320
    ),
    "els-dual": dict(
        hw8=(8.2e-11, 4.4e-10, 1.8e-08, 0.00067),  # measured/model 0.83..1.82 at n=200..3200
        hw4=(4.2e-11, 4.4e-10, 1.3e-08, 0.00097),  # measured/model 0.82..1.41 at n=200..3200
        sw16=(3.5e-09, 4.6e-10, 3.3e-07, 0.00078),  # measured/model 0.83..1.77 at n=20..1280
        mp=(0.0, 1.7e-07, 1.1e-05, 0.0053),  # measured/model 0.90..1.11 at n=20..320
    ),
    "svm-c": dict(
        hw8=(6.9e-09, 0.0, 0.0),  # measured/model 0.90..1.72 at n=2000..64000
    ),
    "svm-eps": dict(
        hw8=(8.1e-09, 9.8e-06, 0.0),  # measured/model 0.92..1.38 at n=2000..64000
    ),
    "op-lssvm": dict(
        hw8=(1.8e-11, 1e-07, 0.024),  # measured/model 0.93..1.19 at n=200..3200
        hw4=(2.9e-12, 6.1e-08, 0.023),  # measured/model 0.95..1.06 at n=200..3200
        sw16=(0.0, 2e-06, 0.0029),  # measured/model 0.77..2.01 at n=20..1280
        mp=(0.0, 1.3e-05, 0.0058),  # measured/model 0.80..1.38 at n=20..320
    ),
    "ip-lssvm": dict(
        hw8=(2.7e-10, 0.0, 0.0013),  # measured/model 0.82..1.41 at n=200..3200
        hw4=(2.3e-10, 0.0, 0.0011),  # measured/model 0.84..1.33 at n=200..3200
        sw16=(8.9e-09, 1.4e-07, 0.00071),  # measured/model 0.86..1.74 at n=20..1280
        mp=(2.3e-08, 5.4e-06, 0.0016),  # measured/model 0.98..1.02 at n=20..320
    ),
    "rr-lssvr": dict(
        hw8=(5.2e-10, 3.9e-09, 1.6e-08, 0.0021),  # measured/model 0.66..2.57 at n=200..3200
        hw4=(0.0, 0.0, 3.4e-08, 0.0013),  # measured/model 0.80..5.76 at n=200..3200
        sw16=(5.4e-09, 4.8e-08, 8.9e-08, 0.00089),  # measured/model 0.81..1.83 at n=20..1280
        mp=(3.6e-08, 3.3e-06, 3.3e-06, 0.004),  # measured/model 0.90..1.24 at n=20..320
    ),
    "reduced-lssvr": dict(
        hw8=(1.5e-10, 2.4e-08, 0.0, 0.00041),  # measured/model 0.88..1.38 at n=200..3200
        hw4=(1.3e-11, 2.1e-08, 2.6e-10, 0.00041),  # measured/model 0.90..1.21 at n=200..3200
        sw16=(4.9e-09, 2.8e-07, 2.5e-08, 0.00049),  # measured/model 0.78..1.50 at n=20..1280
        mp=(7.6e-08, 8.4e-06, 3.6e-08, 0.0014),  # measured/model 0.90..1.19 at n=20..320
    ),
    "pcp-lssvm": dict(
        hw8=(5.5e-11, 2.3e-08, 5.3e-10, 0.0006),  # measured/model 0.86..1.41 at n=200..3200
        hw4=(0.0, 1.1e-08, 0.0, 0.00068),  # measured/model 0.62..2.45 at n=200..3200
        sw16=(1.3e-09, 2.4e-07, 1.3e-08, 0.00034),  # measured/model 0.88..1.40 at n=20..1280
        mp=(0.0, 7.7e-06, 0.0, 0.0013),  # measured/model 0.87..1.15 at n=20..320
    ),
    "sr-lssvm": dict(
        hw8=(7.2e-11, 2.1e-08, 4.9e-10, 0.00067),  # measured/model 0.86..1.25 at n=200..3200
        hw4=(0.0, 1e-08, 0.0, 0.0007),  # measured/model 0.66..2.86 at n=200..3200
        sw16=(1.4e-09, 2.5e-07, 1.3e-08, 0.00039),  # measured/model 0.89..1.44 at n=20..1280
        mp=(0.0, 8.4e-06, 0.0, 0.0016),  # measured/model 0.80..1.28 at n=20..320
    ),
    "r-lssvm-w": dict(
        hw8=(8.8e-12, 9.9e-09, 0.00025),  # measured/model 0.90..1.28 at n=200..3200
        hw4=(3.6e-12, 7e-09, 0.00046),  # measured/model 0.98..1.04 at n=200..3200
        sw16=(4.4e-10, 1.7e-07, 0.0008),  # measured/model 0.91..1.15 at n=20..1280
        mp=(5.2e-09, 4.5e-06, 0.0022),  # measured/model 0.95..1.04 at n=20..320
    ),
    "r-lssvm-y": dict(
        hw8=(8.7e-12, 8e-09, 0.00044),  # measured/model 0.92..1.09 at n=200..3200
        hw4=(6.1e-12, 4.1e-09, 0.00064),  # measured/model 0.88..1.19 at n=200..3200
        sw16=(3.7e-10, 2.1e-07, 0.00064),  # measured/model 0.91..1.25 at n=20..1280
        mp=(5.6e-09, 4.8e-06, 0.0022),  # measured/model 0.97..1.03 at n=20..320
    ),
    "w-lssvm": dict(
        hw8=(2.8e-11, 1.9e-09, 0.001),  # measured/model 0.87..1.28 at n=200..3200
        hw4=(7.7e-12, 7.3e-09, 0.00071),  # measured/model 0.96..1.09 at n=200..3200
        sw16=(8e-10, 2.6e-07, 0.00098),  # measured/model 0.87..1.31 at n=20..1280
        mp=(2.3e-09, 6e-06, 0.0029),  # measured/model 0.96..1.03 at n=20..320
    ),
    "fs-lssvm": dict(
        hw8=(0.0, 4.8e-07, 0.0, 1.8e-06, 0.017),  # measured/model 0.70..2.09 at n=200..3200
        hw4=(0.0, 4.8e-07, 0.0, 1.5e-06, 0.016),  # measured/model 0.72..2.18 at n=200..3200
        sw16=(0.0, 6.8e-07, 1.4e-07, 6.1e-05, 0.0035),  # measured/model 0.79..1.43 at n=20..1280
        mp=(2.5e-06, 9.6e-06, 0.0, 9.8e-05, 0.0037),  # measured/model 0.92..1.19 at n=20..320
    ),
}


def _model(name: str) -> TimeModel:
    """The TimeModel of ``name``: its STRUCTURES exponents with its measured coefficients (0 drops a term)."""
    terms = {key: tuple(TimeTerm(c, n=a, r=b) for c, (a, b) in zip(coefs, STRUCTURES[name], strict=True) if c > 0)
             for key, coefs in _COEFFICIENTS[name].items()}
    r, r_default = _SECOND.get(name, ("", 0.0))
    return TimeModel(terms, r=r, r_default=r_default, measured=MEASURED)


KKT_TIME, SCHUR_TIME, CG_TIME = _model("lssvm-kkt"), _model("lssvm-schur"), _model("lssvm-cg")
KRR_TIME, FISHER_TIME, PRUNED_TIME = _model("krr"), _model("lssvm-fisher"), _model("lssvm-pruned")
ELS_PRIMAL_TIME, ELS_DUAL_TIME = _model("els-primal"), _model("els-dual")
SVM_TIME, SVR_TIME = _model("svm-c"), _model("svm-eps")
OP_TIME, IP_TIME = _model("op-lssvm"), _model("ip-lssvm")
RR_TIME, REDUCED_TIME = _model("rr-lssvr"), _model("reduced-lssvr")
PCP_TIME, SR_TIME, FS_TIME = _model("pcp-lssvm"), _model("sr-lssvm"), _model("fs-lssvm")
CCCP_W_TIME, CCCP_Y_TIME, WEIGHTED_TIME = _model("r-lssvm-w"), _model("r-lssvm-y"), _model("w-lssvm")
