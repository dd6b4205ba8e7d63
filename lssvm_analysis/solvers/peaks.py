"""The measured peak memory of every solver family, one :class:`PeakMemory` each.

Each family registers its declaration (``register(..., peak=...)``) and its
up-front guard calls ``peak.ensure(n, precision, r=...)`` before the fit
allocates.  The figures are words of the precision: the least-squares fit of
``n2 (n+1)^2 + nr (n+1) r + r2 r^2 + n1 (n+1)`` plus a constant to
tracemalloc peaks (:func:`~lssvm_analysis.linalg.memory.traced_peak`: NumPy's
and Python's allocations) of the registry's example problem at n = 400, 800,
1600 (float32, float64), 300 and 600 (longdouble, rr-lssvr in every
precision: its selection is O(n^2) per step) and 60 and 120 (mp30: mpf entries, 225.7
traced bytes each at 30 digits), with r at n/20 and n/5
where the family has an r (``benchmarks/measure_peaks.py`` measures and fits); each
coefficient is rounded up to 3 significant digits, and raised to the slope between the two
largest sizes where the fit's constant would otherwise carry part of an n^2 term; the constant
(0.3 MiB or less measured) is held by the 1 MiB ``fixed_bytes``.  A family whose phases peak at
different sizes (els when N nears M, rr-lssvr's recursion in longdouble) declares one
PeakTerms per phase, fitted by hand; each such choice is noted at the family.
``tests/test_peak_memory.py`` checks every declaration against a fresh measurement, and the
asv benchmark
``bench_memory.PeakOverDeclared.track_peak_over_declared`` reports measured /
declared per family at a larger n.

The word counts differ by precision because the fits hold temporaries in
another dtype: a float32 bordered KKT fit holds the float64 kernel
(3.0 float32 words per entry against 1.13 float64 words), a longdouble fit
holds float64 copies for LAPACK's estimates.  An mpN word is one entry: its pointer, the mpf,
its tuple and mpz, and the mantissa's limbs (:func:`~lssvm_analysis.linalg.memory.bytes_per_word`);
in mp an array of zeros shares one mpf, so some families hold fewer words than in float64.
"""
from __future__ import annotations

from ..linalg.memory import SOFTWARE, PeakMemory, PeakTerms

__all__ = ["DENSE_PEAK", "KKT_PEAK", "CG_PEAK", "ELS_PRIMAL_PEAK", "ELS_DUAL_PEAK", "OP_PEAK", "IP_PEAK",
           "REDUCED_PEAK", "RR_PEAK", "PIVOTED_PEAK", "CCCP_PEAK", "WEIGHTED_PEAK", "FS_PEAK", "SVM_PEAK", "SVR_PEAK",
           "LIBSVM_CACHE_MB"]


def _peak(measured, *, r="", untraced_bytes=0, **by_key):
    """A PeakMemory from ``key=dict(n2=..., ...)`` (one phase) or a tuple of dicts (phases), by memory key."""
    terms = {key: PeakTerms(**t) if isinstance(t, dict) else tuple(PeakTerms(**phase) for phase in t)
             for key, t in by_key.items()}
    return PeakMemory(terms, untraced_bytes=untraced_bytes, r=r, measured=measured)


# Keywords: memory keys (:func:`~lssvm_analysis.linalg.memory.memory_key`), the engine and word size
# the figures were measured in: ``hw8`` (float64 on LAPACK), ``hw4`` (float32 on LAPACK), ``sw16``
# (longdouble: NumPy's loops on 16-byte words) and ``mp`` (SOFTWARE: object entries, every mpN).
assert SOFTWARE == "mp"

#: lssvm-schur, krr, lssvm-fisher (and lssvm-pruned, whose base it is by default): the one
#: n x n array (kernel, then its factor in place); longdouble holds float64 copies for LAPACK's
#: estimates beside it; in mp the factor's triangle is new mpf entries.
DENSE_PEAK = _peak("the kernel, factored in place",
                   hw8=dict(n2=1.01), hw4=dict(n2=1.01), sw16=dict(n2=3.0), mp=dict(n2=1.46))
#: lssvm-kkt: the (n+1) x (n+1) bordered matrix and its LU (float32: beside the float64 kernel).
KKT_PEAK = _peak("the bordered KKT matrix, LU in place",
                 hw8=dict(n2=1.13), hw4=dict(n2=3.0), sw16=dict(n2=4.0), mp=dict(n2=2.59))
#: lssvm-cg: H and the Krylov blocks.
CG_PEAK = _peak("H and the CG blocks",
                hw8=dict(n2=1.13), hw4=dict(n2=3.25), sw16=dict(n2=3.0), mp=dict(n2=0.926))
#: els-primal: the selection's two M x M arrays (factor, kernel columns) and its copies of the N
#: kept columns; then the N x N primal system beside them, which dominates when N nears M (the
#: benchmark data, d = 4: N/M = 0.87-1.0).  longdouble: a phase holds 2.5 M^2 whatever N.  mp:
#: the example fits had N/M = 0.5-0.95, which does not separate n2 from nr; n2 is raised to the
#: selection's own peak (thresholded_cholesky alone: 2.02-2.15 mp words per M^2 at N/M = 0.2-0.4).
ELS_PRIMAL_PEAK = _peak("thresholded Cholesky: two M x M arrays and their N kept columns; the N x N system", r="N",
                        hw8=(dict(n2=2.01, nr=2.01), dict(n2=0.92, r2=4.1)),
                        hw4=(dict(n2=4.0), dict(n2=0.92, r2=4.1)),
                        sw16=(dict(n2=2.0, nr=2.0), dict(n2=2.5), dict(n2=1.0, r2=4.1)),
                        mp=(dict(n2=2.1, nr=1.3), dict(n2=0.92, r2=3.0)))
#: els-dual: the selection, then Omega_e and its factor beside H_m (M x N); a third M x M-sized
#: phase when N nears M (1.15 M^2 + 3.9 M N: fitted at N/M = 0.87-1.0 on the benchmark data).
ELS_DUAL_PEAK = _peak("the selection, then Omega_e and its factor", r="N",
                      hw8=(dict(n2=2.0, nr=2.4), dict(n2=1.15, nr=3.9)),
                      hw4=(dict(n2=4.0), dict(n2=1.15, nr=3.9)),
                      sw16=(dict(n2=3.0, nr=2.01), dict(n2=1.15, nr=3.9)), mp=dict(n2=2.1, nr=1.07))
#: op-lssvm: the bordered D, its QR and the MRSR ranking inputs.
OP_PEAK = _peak("D, the ranking inputs and the QR",
                hw8=dict(n2=4.01), hw4=dict(n2=4.01), sw16=dict(n2=4.01), mp=dict(n2=5.12))
#: ip-lssvm: D, the kept columns and the least-squares factor.
IP_PEAK = _peak("D, the kept columns and their QR",
                hw8=dict(n2=3.72), hw4=dict(n2=4.0), sw16=dict(n2=4.0), mp=dict(n2=2.55))
#: reduced-lssvr: Z = [1; K_S.] (|S| x n) and the stacked least-squares system.
REDUCED_PEAK = _peak("Z (|S| x n) and the stacked QR", r="n_support",
                     hw8=dict(nr=3.98, r2=5.31, n1=7.11), hw4=dict(nr=3.98, r2=5.32, n1=7.16),
                     sw16=dict(nr=5.35, r2=4.97), mp=dict(nr=3.68, r2=3.49))
#: rr-lssvr: the n x n kernel, then the n x |S| rows of the recursion (r = the cap n_support).
#: longdouble and mp peak in the kernel's phase up to r = n/5 (measured); their recursion phase
#: is float64's counts (longdouble: fitted at r = n/2; mp: not measured beyond r = n/5).
#: float32: least squares over fits that reached their cap (both updates, the larger; n = 400 and 800
#: at r = n/4, n/2, 3n/4 on 10-d data, and the example problem at n = 500, r = 62 and 125, which only
#: OpenBLAS's Haswell kernels take to its cap), rounded so that every one is held: the earlier
#: 7.7 nr + 5.4 r2 (float64's r x r counted in float32 words) over-declared by up to 47 %.
RR_PEAK = _peak("the kernel, then the n x |S| recursion", r="n_support",
                hw8=dict(n2=1.0, nr=4.1, r2=2.7), hw4=dict(n2=0.93, nr=8.55, r2=0.05),
                sw16=(dict(n2=3.0), dict(n2=1.0, nr=3.7, r2=2.4)),
                mp=(dict(n2=1.61), dict(n2=1.0, nr=4.1, r2=2.7)))
#: pcp-lssvm, sr-lssvm: G (m x r, allocated at the rank cap) and the r x r systems.  The least-squares
#: nr (0.966 float64) is raised to what G alone takes at r = m/10 (pivoted_cholesky measured
#: alone: 1.04, 1.06, 2.02, 1.24 words per m r), so that it holds where r << m (road3d: r = 400 of
#: 289,916), outside the fitted sizes.
PIVOTED_PEAK = _peak("pivoted Cholesky G at the rank cap and the r x r systems", r="n_support",
                     hw8=dict(nr=1.05, r2=4.46), hw4=dict(nr=1.07, r2=4.96),
                     sw16=dict(nr=2.05, r2=0.8), mp=dict(nr=1.3, r2=2.29, n1=5.49))
#: r-lssvm-w, r-lssvm-y: K, I + C K and its factor (with main's ``solve`` variants one n x n
#: array more than the 2.01 measured before them: 3.0 float64 / float32 words per entry and 4.0
#: longdouble at n = 500-1000, remeasured; mp raised by the same one array, not remeasured).
CCCP_PEAK = _peak("K, I + C K and its factor",
                  hw8=dict(n2=3.01), hw4=dict(n2=3.01), sw16=dict(n2=4.0), mp=dict(n2=2.96))
#: w-lssvm: K, the weighted copy, its factor and the unweighted fit's.
WEIGHTED_PEAK = _peak("K, the weighted copies and the factors",
                      hw8=dict(n2=5.0), hw4=dict(n2=5.01), sw16=dict(n2=5.01), mp=dict(n2=2.09))
#: fs-lssvm: the n x M feature map and the M x M eigenproblem.  longdouble: solved by hand through
#: the four measured points (its eigenproblem's temporaries grow faster than M^2 from M = 60 to 120).
FS_PEAK = _peak("Phi (n x M) and the M x M eigenproblem", r="n_support",
                hw8=dict(nr=2.0, r2=2.02), hw4=dict(nr=1.92, r2=0.583, n1=7.67),
                sw16=dict(nr=3.31, r2=10.8), mp=dict(nr=1.58, r2=2.37, n1=1.76))


#: LIBSVM's kernel cache in MiB (``cache_size``, MiB in LIBSVM's ``cache_size * (1 << 20)``) that the
#: baselines pass to scikit-learn: its default, set here so that the peak counts the cache the fits
#: are given (and ``import lssvm_analysis`` need not import scikit-learn to read the default).
LIBSVM_CACHE_MB = 200


#: svm-c, svm-eps: the NumPy side holds O(n) vectors (labels, support indices, dual
#: coefficients); LIBSVM's kernel cache (up to ``cache_size``) and its copy of X (O(n d)
#: nodes) are malloc'ed in C++, which tracemalloc does not see: the cache is counted as
#: ``untraced_bytes`` by the guard.
SVM_PEAK = _peak("NumPy's O(n) vectors; LIBSVM's kernel cache untraced", untraced_bytes=LIBSVM_CACHE_MB * 2 ** 20,
                 hw8=dict(n1=5.2))
#: svm-eps: the same, with fewer O(n) vectors (no class labels): 16.3, 19.9 and 28.3 KB at n = 500,
#: 1000, 2000, i.e. 1.0 word per point above ~12 KB that the fixed bytes hold.  (It shared svm-c's
#: 5.2 words while every fit re-read the available memory inside the traced call: psutil's ~24 KB of
#: parsing made the measured peak look like svm-c's.)
SVR_PEAK = _peak("NumPy's O(n) vectors; LIBSVM's kernel cache untraced", untraced_bytes=LIBSVM_CACHE_MB * 2 ** 20,
                 hw8=dict(n1=1.0))
