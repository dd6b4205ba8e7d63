"""Measure every solver family's peak memory and fit the declaration of ``solvers/peaks.py``.

Usage::

    python -m benchmarks.measure_peaks SOLVER[,SOLVER...] PRECISION[,...] N[,N...] > rows.jsonl
    python -m benchmarks.measure_peaks --fit rows.jsonl [rows.jsonl ...]

The first form prints one JSON row per fit: the tracemalloc peak
(:func:`lssvm_analysis.linalg.memory.traced_peak`) of the registry's example
problem at each n, with the family's second size r at n/20 and n/5 where it
has one (``n_support``; Abe's eta 0.05 and 0.3 for els, whose r is the N it
selects), the guards switched off so that nothing is refused.  The second
form fits ``n2 (n+1)^2 + nr (n+1) r + r2 r^2 + n1 (n+1)`` words plus a
constant to each (solver, precision) by relative non-negative least squares
and prints the coefficients rounded up to 3 significant digits, the constant
and the largest over-declaration; ``solvers/peaks.py`` holds what it printed
(a family whose phases peak differently gets one PeakTerms per phase by hand,
e.g. els-primal in longdouble).
"""
import json
import math
import sys
import warnings

import numpy as np

#: The size terms each family's peak may have (by the second size the family declares).
_TERMS = {"": ["n2"], "N": ["n2", "nr"], "n_support": ["n2", "nr", "r2", "n1"]}


def _rows(names, precisions, sizes):
    import lssvm_analysis as la
    from lssvm_analysis.linalg import memory

    memory.PeakMemory.ensure = lambda self, *a, **k: 0  # measure, do not refuse
    warnings.simplefilter("ignore")
    for name in names:
        info = la.get_solver(name)
        for prec in (p for p in precisions if info.supports_precision(p)):
            for n in sizes:
                extras = [{}]
                if info.peak.r == "n_support":
                    extras = [{"n_support": max(1, n // 20)}, {"n_support": n // 5, "n_swaps": n // 5}]
                    extras = [{k: v for k, v in e.items() if info.accepts(k)} for e in extras]
                elif info.peak.r == "N":
                    extras = [{"eta": 0.05}, {"eta": 0.3}]
                for extra in extras:
                    pb = info.example_problem(n=n, rng=np.random.default_rng(0))
                    params = {**pb.params, **extra}
                    la.fit(name, pb.X, pb.y, precision=prec, **params)  # warm caches
                    fit, peak = memory.traced_peak(la.fit, name, pb.X, pb.y, precision=prec, **params)
                    print(json.dumps({"solver": name, "prec": prec, "n": n, "r": info.peak.r_of(fit),
                                      "peak": peak, "bytes_per_word": memory.bytes_per_word(prec)}), flush=True)


def _ceil3(x):
    if x <= 1e-12:
        return 0.0
    e = math.floor(math.log10(x)) - 2
    return round(math.ceil(x / 10 ** e - 1e-9) * 10 ** e, 10)


def _fit(paths):
    import lssvm_analysis as la
    from scipy.optimize import nnls

    rows = [json.loads(line) for p in paths for line in open(p)]
    for s, p in sorted({(r["solver"], r["prec"]) for r in rows}):
        R = [r for r in rows if r["solver"] == s and r["prec"] == p]
        ts = _TERMS[la.get_solver(s).peak.r]
        term = {"n2": lambda n, r: (n + 1) ** 2, "nr": lambda n, r: (n + 1) * r, "r2": lambda n, r: r * r,
                "n1": lambda n, r: n + 1}
        A = np.array([[term[t](r["n"], r["r"]) for t in ts] + [1.0] for r in R], float)
        w = np.array([r["peak"] / r["bytes_per_word"] for r in R], float)
        c, _ = nnls(A / w[:, None], np.ones(len(w)))
        coef = np.array([_ceil3(x) for x in c[:-1]])
        size = A[:, :-1] @ coef
        const = float(np.max((w - size) * R[0]["bytes_per_word"]))
        over = float(np.max((size - w) / np.maximum(size, 1)))
        print(f"{s:13s} {p:10s} {dict(zip(ts, coef.tolist()))}  constant {const / 2 ** 20:.2f} MiB  "
              f"largest over-declaration {over:+.3f} of the size terms")


if __name__ == "__main__":
    if sys.argv[1] == "--fit":
        _fit(sys.argv[2:])
    else:
        _rows(sys.argv[1].split(","), sys.argv[2].split(","), [int(v) for v in sys.argv[3].split(",")])
