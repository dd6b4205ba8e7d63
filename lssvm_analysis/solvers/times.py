"""The measured time of every solver's fit, one :class:`TimeModel` each (issue 42).

Each solver registers its declaration (``register(..., time=...)``, beside ``peak``) and
``la.fit(..., max_seconds=...)`` refuses, before any work, a fit whose estimate is clearly beyond
the limit (:mod:`lssvm_analysis.linalg.cost`).  A model is a sum of terms ``c (n+1)^a r^b``
whose exponents are the algorithm's complexity (:data:`STRUCTURES`: a dense factorization
n^3 + the kernel n^2 + a fixed cost; a support-set least squares n r^2 + n r + r^3; Abe's
selection n^2 N + N^3; LIBSVM's SMO n^2, its exponent measured by log-log least squares on noisy
1-D data: 2.04 for svm-c over n = 2,000 ... 128,000 (2.41 from 64,000 to 128,000, where its 200 MB
kernel cache holds ever fewer columns: beyond, n^2 is a lower bound) and 1.87 for svm-eps over
2,000 ... 64,000) and whose
coefficients are MEASURED: relative non-negative least squares on CPU seconds
(``benchmarks/measure_times.py --fit``, which printed every line of :data:`_COEFFICIENTS` with the
range of measured / model over its sizes).  A coefficient that least squares set to 0 drops its
term at that engine (its term was below the noise at the measured sizes).

Where r is the family's support size, the fits were measured at r = n/20 and n/5; the default r
(``r_default``) is the solver's own (reduced-lssvr ceil(0.1 n), Chen & Zhou's floor(0.05 m));
where r is chosen by the fit (Abe's N, rr-lssvr's tolerance) the estimate before the fit takes
r = 0, the terms in n alone: a lower bound.

The terms in d were fixed by fits at one n for d = 2, 300, 1500 (``--features``: float64 and float32
at n = 1500, longdouble at 300; mp30 at n = 60 for d = 2, 100, 400): at d = 2,000 the kernel's
distances are most of a fit (svm-c at n = 4,000: 11.2 s against 0.03 s at d = 2).  float32's rows at
d = 1500 are left out: there the RBF kernel switches to its formation from the differences
(``linalg.rbf_formation.sq_distances``, a loop over the features on n x n arrays), 100x the time at
d = 300 (lssvm-schur at n = 1500: 4.9 s against 0.045 s), which a term in d cannot follow; the
estimate is a lower bound there.  LIBSVM's terms are fitted in two steps (``_smo_coefficients``):
n^2 d from the rows at one n, the rest from the noisy 1-D rows.
What the figures do not cover, and which way it errs: data (the LS-SVM families' times hardly
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
            "(float64, float32), 20-1280 (longdouble), 20-320 (mp30), d = 2-1500 at one n per engine; "
            "svm-c/svm-eps noisy 1-D sinc at 2,000-64,000")

# The last term of each is the kernel's d-dependent work (distances: n^2 d, or n r d for a support set).
_CUBIC = ((3, 0, 0), (2, 0, 0), (0, 0, 0), (2, 0, 1))
_SUPPORT = ((1, 2, 0), (1, 1, 0), (0, 3, 0), (0, 0, 0), (1, 1, 1))
_ELS = ((2, 1, 0), (0, 3, 0), (2, 0, 0), (0, 0, 0), (2, 0, 1))
_RR = ((2, 1, 0), (1, 2, 0), (2, 0, 0), (0, 0, 0), (2, 0, 1))
_FS = ((1, 2, 0), (1, 1, 0), (0, 3, 0), (0, 2, 0), (0, 0, 0), (1, 1, 1))
_SMO = ((2, 0, 0), (1, 0, 0), (0, 0, 0), (2, 0, 1))
#: Each solver's exponents ((a, b, e) of (n+1)^a r^b d^e per term): what benchmarks/measure_times.py fits.
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
        hw8=(8.3e-12, 1.3e-08, 0.00033, 4.5e-11),  # measured/model 0.91..1.16 at n=200..6400
        hw4=(3.3e-12, 8.1e-09, 0.00043, 9e-11),  # measured/model 0.95..1.04 at n=200..6400
        sw16=(2.7e-09, 1.8e-07, 0.0006, 9.1e-09),  # measured/model 0.87..1.30 at n=20..1280
        mp=(4.3e-09, 4.2e-06, 0.0016, 4.9e-08),  # measured/model 0.95..1.03 at n=20..320
    ),
    "lssvm-schur": dict(
        hw8=(4.9e-12, 9.1e-09, 0.00026, 3.8e-11),  # measured/model 0.91..1.05 at n=200..6400
        hw4=(1.9e-12, 6.2e-09, 0.00043, 3.6e-11),  # measured/model 0.88..1.27 at n=200..6400
        sw16=(4.5e-10, 1.5e-07, 0.00063, 9.3e-09),  # measured/model 0.89..1.29 at n=20..1280
        mp=(2.4e-09, 3.4e-06, 0.0022, 4.6e-08),  # measured/model 0.91..1.07 at n=20..320
    ),
    "lssvm-cg": dict(
        hw8=(1.4e-10, 5.9e-09, 0.003, 0.0),  # measured/model 0.73..1.42 at n=200..3200
        hw4=(9.2e-11, 0.0, 0.0019, 0.0),  # measured/model 0.92..1.06 at n=200..1600
        sw16=(8e-10, 5.8e-07, 0.00054, 8.2e-09),  # measured/model 0.75..1.50 at n=20..1280
        mp=(5.5e-09, 4.3e-06, 0.0013, 4.6e-08),  # measured/model 0.89..1.13 at n=20..320
    ),
    "krr": dict(
        hw8=(5.9e-12, 8.1e-09, 0.00019, 4.7e-11),  # measured/model 0.93..1.15 at n=200..3200
        hw4=(3e-12, 4.2e-09, 0.00053, 2.5e-11),  # measured/model 0.95..1.05 at n=200..3200
        sw16=(4.3e-10, 1.5e-07, 0.00057, 9.9e-09),  # measured/model 0.92..1.19 at n=20..1280
        mp=(1.2e-09, 3.7e-06, 0.002, 5e-08),  # measured/model 0.96..1.02 at n=20..320
    ),
    "lssvm-fisher": dict(
        hw8=(8.1e-12, 5.4e-09, 0.00037, 3.8e-11),  # measured/model 0.95..1.06 at n=200..3200
        hw4=(2.1e-12, 5.8e-09, 0.00043, 2.4e-11),  # measured/model 0.93..1.16 at n=200..3200
        sw16=(4.3e-10, 1.6e-07, 0.00065, 9.3e-09),  # measured/model 0.88..1.23 at n=20..1280
        mp=(1.5e-09, 3.8e-06, 0.0021, 5.4e-08),  # measured/model 0.95..1.03 at n=20..320
    ),
    "lssvm-pruned": dict(
        hw8=(2.4e-11, 2.3e-09, 0.003, 1.3e-10),  # measured/model 0.84..1.49 at n=200..3200
        hw4=(6.4e-12, 9e-09, 0.0025, 7.4e-11),  # measured/model 0.78..1.35 at n=200..3200
        sw16=(4.5e-10, 6.3e-07, 0.0012, 2.7e-08),  # measured/model 0.75..1.85 at n=20..1280
        mp=(0.0, 1.2e-05, 0.003, 2e-07),  # measured/model 0.84..2.12 at n=20..320
    ),
    "els-primal": dict(
        hw8=(3.2e-11, 3.4e-10, 0.0, 0.0017, 1e-09),  # measured/model 0.80..1.32 at n=200..3200
        hw4=(2.3e-11, 3.3e-10, 2.5e-09, 0.0016, 0.0),  # measured/model 0.83..1.35 at n=200..3200
        sw16=(4.7e-10, 1e-08, 0.0, 0.00091, 9.3e-09),  # measured/model 0.75..1.55 at n=20..1280
        mp=(0.0, 2.6e-07, 1.1e-06, 0.0083, 2.3e-06),  # measured/model 0.85..1.28 at n=20..320
    ),
    "els-dual": dict(
        hw8=(8.8e-11, 1.8e-10, 1.6e-08, 0.00084, 1.2e-09),  # measured/model 0.79..1.76 at n=200..3200
        hw4=(5.1e-11, 2.8e-10, 1.2e-08, 0.0011, 0.0),  # measured/model 0.83..1.44 at n=200..3200
        sw16=(4e-09, 7.9e-10, 2.4e-07, 0.00081, 1.2e-08),  # measured/model 0.86..1.86 at n=20..1280
        mp=(0.0, 1.6e-07, 6.1e-06, 0.0053, 2.5e-06),  # measured/model 0.89..1.14 at n=20..320
    ),
    "svm-c": dict(
        hw8=(6.7e-09, 0.0, 0.0, 3.4e-10),  # measured/model 0.32..1.69 at n=1500..128000
    ),
    "svm-eps": dict(
        hw8=(7.7e-09, 9.8e-06, 0.0, 2.9e-10),  # measured/model 0.50..1.40 at n=1500..64000
    ),
    "op-lssvm": dict(
        hw8=(2.2e-11, 8.9e-08, 0.025, 2e-11),  # measured/model 0.91..1.24 at n=200..3200
        hw4=(4.1e-12, 5.6e-08, 0.023, 2.5e-11),  # measured/model 0.95..1.10 at n=200..3200
        sw16=(0.0, 1.9e-06, 0.0029, 8.9e-09),  # measured/model 0.80..2.08 at n=20..1280
        mp=(0.0, 1.3e-05, 0.0058, 8.2e-08),  # measured/model 0.79..1.37 at n=20..320
    ),
    "ip-lssvm": dict(
        hw8=(2.7e-10, 0.0, 0.0013, 5.4e-11),  # measured/model 0.82..1.41 at n=200..3200
        hw4=(2.4e-10, 0.0, 0.0011, 8.4e-11),  # measured/model 0.81..1.27 at n=200..3200
        sw16=(8.3e-09, 1.7e-07, 0.0007, 8.8e-09),  # measured/model 0.85..1.86 at n=20..1280
        mp=(2.3e-08, 5.3e-06, 0.0015, 6.6e-08),  # measured/model 0.97..1.03 at n=20..320
    ),
    "rr-lssvr": dict(
        hw8=(7.4e-10, 0.0, 1.1e-08, 0.0022, 1.2e-09),  # measured/model 0.66..4.44 at n=200..3200
        hw4=(0.0, 0.0, 2.2e-08, 0.0016, 3.7e-09),  # measured/model 0.68..6.17 at n=200..3200
        sw16=(5.9e-09, 4.2e-08, 6.8e-08, 0.00089, 9.1e-09),  # measured/model 0.81..1.89 at n=20..1280
        mp=(1.5e-08, 3.5e-06, 3.3e-06, 0.0039, 7.6e-08),  # measured/model 0.91..1.21 at n=20..320
    ),
    "reduced-lssvr": dict(
        hw8=(1.4e-10, 2.5e-08, 0.0, 0.0004, 1.2e-10),  # measured/model 0.86..1.39 at n=200..3200
        hw4=(4e-11, 1.9e-08, 1.1e-10, 0.00042, 8.3e-11),  # measured/model 0.91..1.27 at n=200..3200
        sw16=(5.6e-09, 2.5e-07, 2.1e-08, 0.00049, 9.3e-09),  # measured/model 0.78..1.51 at n=20..1280
        mp=(0.0, 8.5e-06, 3.7e-07, 0.0014, 2.5e-07),  # measured/model 0.88..1.14 at n=20..320
    ),
    "pcp-lssvm": dict(
        hw8=(5.3e-11, 2e-08, 5.3e-10, 0.0006, 1.5e-09),  # measured/model 0.86..1.41 at n=200..3200
        hw4=(0.0, 8.4e-09, 0.0, 0.00069, 1.3e-09),  # measured/model 0.62..2.44 at n=200..3200
        sw16=(1e-09, 2.3e-07, 1.4e-08, 0.00033, 1.5e-08),  # measured/model 0.89..1.38 at n=20..1280
        mp=(0.0, 4.3e-06, 0.0, 0.0014, 1.7e-06),  # measured/model 0.87..1.18 at n=20..320
    ),
    "sr-lssvm": dict(
        hw8=(7.1e-11, 1.9e-08, 4.9e-10, 0.00067, 1.6e-09),  # measured/model 0.84..1.24 at n=200..3200
        hw4=(0.0, 7.9e-09, 0.0, 0.00072, 1.4e-09),  # measured/model 0.62..2.71 at n=200..3200
        sw16=(1.2e-09, 2.3e-07, 1.3e-08, 0.00039, 1.4e-08),  # measured/model 0.88..1.43 at n=20..1280
        mp=(0.0, 5.2e-06, 0.0, 0.0017, 1.6e-06),  # measured/model 0.77..1.34 at n=20..320
    ),
    "r-lssvm-w": dict(
        hw8=(8.7e-12, 9.8e-09, 0.00026, 4.3e-11),  # measured/model 0.91..1.29 at n=200..3200
        hw4=(3.6e-12, 6.9e-09, 0.00047, 2.1e-11),  # measured/model 0.96..1.04 at n=200..3200
        sw16=(4.4e-10, 1.4e-07, 0.00081, 9.2e-09),  # measured/model 0.93..1.19 at n=20..1280
        mp=(1.5e-09, 5.4e-06, 0.0018, 6.8e-08),  # measured/model 0.88..1.84 at n=20..320
    ),
    "r-lssvm-y": dict(
        hw8=(8.9e-12, 8e-09, 0.00043, 5.1e-11),  # measured/model 0.91..1.12 at n=200..3200
        hw4=(6e-12, 4.1e-09, 0.00064, 1.8e-11),  # measured/model 0.89..1.20 at n=200..3200
        sw16=(3.8e-10, 1.8e-07, 0.00065, 9.1e-09),  # measured/model 0.92..1.28 at n=20..1280
        mp=(5.6e-09, 4.7e-06, 0.0022, 6.2e-08),  # measured/model 0.97..1.02 at n=20..320
    ),
    "w-lssvm": dict(
        hw8=(2.7e-11, 2.5e-09, 0.001, 3.5e-11),  # measured/model 0.89..1.31 at n=200..3200
        hw4=(7.9e-12, 7.4e-09, 0.0007, 2.5e-11),  # measured/model 0.94..1.09 at n=200..3200
        sw16=(7.9e-10, 2.3e-07, 0.001, 8.9e-09),  # measured/model 0.86..1.31 at n=20..1280
        mp=(1.9e-09, 6e-06, 0.0028, 6.7e-08),  # measured/model 0.95..1.03 at n=20..320
    ),
    "fs-lssvm": dict(
        hw8=(0.0, 5.1e-07, 0.0, 1.6e-06, 0.017, 4.9e-09),  # measured/model 0.70..2.09 at n=200..3200
        hw4=(0.0, 5.2e-07, 0.0, 1.3e-06, 0.016, 4e-09),  # measured/model 0.72..2.17 at n=200..3200
        sw16=(0.0, 8.8e-07, 1.3e-07, 6e-05, 0.0035, 1.8e-08),  # measured/model 0.77..1.40 at n=20..1280
        mp=(2.5e-06, 8.7e-06, 0.0, 9.4e-05, 0.0037, 1e-06),  # measured/model 0.92..1.19 at n=20..320
    ),
}


def _model(name: str) -> TimeModel:
    """The TimeModel of ``name``: its STRUCTURES exponents with its measured coefficients (0 drops a term)."""
    terms = {key: tuple(TimeTerm(c, n=a, r=b, d=e) for c, (a, b, e) in zip(coefs, STRUCTURES[name], strict=True)
                        if c > 0)
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
