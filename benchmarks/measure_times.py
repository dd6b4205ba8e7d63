"""Measure every solver's fit time and fit the declaration of ``solvers/times.py``.

Usage::

    python -m benchmarks.measure_times SOLVER[,SOLVER...] PRECISION[,...] N[,N...] > rows.jsonl
    python -m benchmarks.measure_times --engine > engine.jsonl
    python -m benchmarks.measure_times --smo svm-c N[,N...] > smo.jsonl
    python -m benchmarks.measure_times --features SOLVER[,...] PRECISION N D[,D...] > features.jsonl
    python -m benchmarks.measure_times --fit rows.jsonl [rows.jsonl ...]
    python -m benchmarks.measure_times --exponent svm-c smo.jsonl

The first form prints one JSON row per fit: the CPU seconds (``time.process_time``; run it with
``OPENBLAS_NUM_THREADS=1``, so that the CPU time is the work and a loaded machine's waits are not
counted) of the registry's example problem (d = 2) at each n, with the family's second size r at
n/20 and n/5 where it has one (``n_support``; Abe's eta 0.05 and 0.3 for els, whose r is the N
it selects), the memory guards and the time guard switched off.  Sizes go up until a fit takes
more than :data:`STOP_SECONDS`.  Each row is the smaller of two fits (one where the first took
over a second).  ``--smo`` times LIBSVM's fits (svm-c, svm-eps) on noisy 1-D data
(sinc plus N(0, 0.1^2) noise, classes about the median; C = 10, sigma2 = 1): the example problem
is so easy that its fits are 10x faster and do not show SMO's n^2 until far larger n; the solvers'
declarations were fitted on these rows (n = 2,000 ... 64,000) and ``--exponent`` prints the slope of
log seconds on log n.  ``--features`` times the fits at one n for several d (standard normal
inputs, sigma2 = d): the rows that fix the terms in d (the kernel's n^2 d or n r d).
``--engine`` times an mpN matrix product at several digits (the mp speed law of
:func:`lssvm_analysis.linalg.cost.mp_factor`).  ``--fit`` fits each (solver, engine key) by
relative non-negative least squares on the family's terms (``solvers/times.py`` names them) and
prints the coefficients (2 significant digits) and the largest ratio measured / model and
model / measured; ``solvers/times.py`` holds what it printed.
"""
import json
import math
import os
import platform
import sys
import time
import warnings

import numpy as np

#: The family's exponents (solvers/times.py STRUCTURES) by solver, filled by _fit.
_STRUCTURES = {}
#: A size whose fit takes longer than this (CPU seconds) is the last one measured.
STOP_SECONDS = 20.0


def _cpu(func, *args, **kwargs):
    t0 = time.process_time()
    out = func(*args, **kwargs)
    return out, time.process_time() - t0


def _extras(info, n):
    """The second sizes measured at n (r at n/20 and n/5; els: eta 0.05 and 0.3)."""
    model = info.time
    key = getattr(model, "r", "") if model is not None else (info.peak.r if info.peak else "")
    if key == "n_support":
        return [{"n_support": max(2, n // 20)}, {"n_support": max(3, n // 5)}]
    if key == "N":
        return [{"eta": 0.05}, {"eta": 0.3}]
    return [{}]


def _rows(names, precisions, sizes):
    import lssvm_analysis as la
    from lssvm_analysis.linalg import memory

    memory.PeakMemory.ensure = lambda self, *a, **k: 0  # measure, do not refuse
    warnings.simplefilter("ignore")
    for name in names:
        info = la.get_solver(name)
        for prec in (p for p in precisions if info.supports_precision(p)):
            warm = False
            for n in sizes:
                took = 0.0
                for extra in _extras(info, n):
                    pb = info.example_problem(n=n, rng=np.random.default_rng(0))
                    params = {**pb.params, **extra}
                    if not warm:
                        la.fit(name, pb.X, pb.y, precision=prec, max_seconds=None, **params)
                        warm = True
                    fit, sec = _cpu(la.fit, name, pb.X, pb.y, precision=prec, max_seconds=None, **params)
                    if sec < 1.0:
                        sec = min(sec, _cpu(la.fit, name, pb.X, pb.y, precision=prec, max_seconds=None,
                                            **params)[1])
                    r = info.time.r_of(fit) if info.time is not None else 0
                    print(json.dumps({"solver": name, "prec": prec, "n": n, "d": pb.X.shape[1], "r": r,
                                      "seconds": sec, "status": fit.status, "load": os.getloadavg()[0],
                                      "machine": platform.processor() or platform.machine()}), flush=True)
                    took = max(took, sec)
                if took > STOP_SECONDS:
                    break


def _smo(name, sizes):
    """CPU seconds of LIBSVM's fit on noisy 1-D data at each n (one warm-up fit first)."""
    import lssvm_analysis as la

    warnings.simplefilter("ignore")
    for i, n in enumerate([min(sizes)] + list(sizes)):
        rng = np.random.default_rng(0)
        X = rng.uniform(-3, 3, (n, 1))
        y = np.sinc(X[:, 0]) + 0.1 * rng.standard_normal(n)
        if name == "svm-c":
            y = np.where(y > np.median(y), 1.0, -1.0)
        fit, sec = _cpu(la.fit, name, X, y, C=10.0, sigma2=1.0, max_seconds=None)
        if i == 0:
            continue   # the warm-up: imports scikit-learn
        print(json.dumps({"solver": name, "prec": "float64", "n": n, "d": 1, "r": 0, "seconds": sec,
                          "status": fit.status, "load": os.getloadavg()[0],
                          "machine": platform.processor() or platform.machine()}), flush=True)
        if sec > 3 * STOP_SECONDS:
            break


def _features(names, precision, n, dims):
    """CPU seconds at one n for several feature counts d: the kernel's n^2 d (or n r d) term.

    Standard normal inputs of d features, the target sinc of the first (classes about its median),
    sigma2 = d (so that the kernel is neither the identity nor all ones), the solver's example
    keywords built on these data, r at the solver's default.
    """
    import lssvm_analysis as la
    from lssvm_analysis.linalg import memory

    memory.PeakMemory.ensure = lambda self, *a, **k: 0
    warnings.simplefilter("ignore")
    for name in names:
        info = la.get_solver(name)
        if not info.supports_precision(precision):
            continue
        task = info.tasks[0]
        for i, d in enumerate([min(dims)] + list(dims)):
            rng = np.random.default_rng(0)
            X = rng.standard_normal((n, d))
            y = np.sinc(X[:, 0])
            if task == "classification":
                y = np.where(y > np.median(y), 1.0, -1.0)
            params = {k: v for k, v in (("C", 10.0), ("sigma2", float(d))) if info.accepts(k)}
            params.update(info.task_keywords(task))
            if info.example is not None:
                params.update(info.example(X, y, task, np.random.default_rng(0)))
            fit, sec = _cpu(la.fit, name, X, y, precision=precision, max_seconds=None, **params)
            if i == 0:
                continue   # the warm-up
            r = info.time.r_of(fit) if info.time is not None else 0
            print(json.dumps({"solver": name, "prec": precision, "n": n, "d": d, "r": r, "seconds": sec,
                              "status": fit.status, "load": os.getloadavg()[0],
                              "machine": platform.processor() or platform.machine()}), flush=True)


def _engine():
    """CPU seconds of an mpN matrix product (k x k) at several digits: the mp speed law."""
    from lssvm_analysis.arith.precision import get_precision

    rng = np.random.default_rng(0)
    k = 40
    A = rng.standard_normal((k, k))
    for digits in (15, 30, 50, 100, 200, 400, 1000):
        p = get_precision(f"mp{digits}")
        M = p.asarray(A)
        _, sec = _cpu(np.matmul, M, M)
        print(json.dumps({"engine": "mp", "digits": digits, "k": k, "seconds": sec}), flush=True)


def _fit(paths):
    import lssvm_analysis as la
    from lssvm_analysis.linalg.cost import time_key
    from scipy.optimize import nnls

    rows = [json.loads(line) for p in paths for line in open(p) if '"solver"' in line]
    groups = sorted({(r["solver"], time_key(r["prec"])) for r in rows})
    from lssvm_analysis.solvers import times
    global _STRUCTURES
    _STRUCTURES = {s: times.STRUCTURES.get(s) for s, _ in groups}
    for s, key in groups:
        R = [r for r in rows if r["solver"] == s and time_key(r["prec"]) == key and r["seconds"] > 0]
        info = la.get_solver(s)
        terms = info.time.terms.get(key, ()) if info.time is not None else ()
        if not terms and not _STRUCTURES.get(s):
            print(f"{s:13s} {key:5s} no declared terms")
            continue
        structure = _STRUCTURES.get(s)
        basis = [tuple(e) for e in structure] if structure else [(t.n, t.r, t.d) for t in terms]
        A = np.array([[(r["n"] + 1.0) ** a * float(r["r"]) ** b * float(max(r["d"], 1)) ** e for a, b, e in basis]
                      for r in R])
        w = np.array([r["seconds"] for r in R])
        if s.startswith("svm-"):
            c = _smo_coefficients(R, A, w)
        else:
            c, _ = nnls(A / w[:, None], np.ones(len(w)))
        coef = [float(f"{x:.2g}") for x in c]
        model = A @ np.array(coef)
        ratio = w / np.maximum(model, 1e-300)
        print(f"{s:13s} {key}={tuple(coef)},  # measured/model {ratio.min():.2f}..{ratio.max():.2f} "
              f"over n={sorted({r['n'] for r in R})}")


def _smo_coefficients(R, A, w):
    """LIBSVM's (n^2, n, 1, n^2 d) in two steps: the n^2 d term from the rows at one n and several d
    (their differences: ``--features`` data), then the others by relative NNLS on the 1-D rows (``--smo``:
    noisy data, the declared case) less that term.  One NNLS over both would trade the n^2 term of the
    noisy 1-D data for the easier Gaussian data of the d rows."""
    from scipy.optimize import nnls

    wide = [i for i, r in enumerate(R) if r["d"] > 1]
    base = {R[i]["n"]: w[i] for i in wide if R[i]["d"] == min(R[j]["d"] for j in wide)}
    dterm = [(w[i] - base[R[i]["n"]]) / (A[i, 3] - A[i, 0]) for i in wide if R[i]["d"] > min(R[j]["d"] for j in wide)]
    cd = max(0.0, float(np.median(dterm))) if dterm else 0.0
    one = [i for i, r in enumerate(R) if r["d"] == 1]
    rest = w[one] - cd * A[one, 3]
    c, _ = nnls(A[one][:, :3] / rest[:, None], np.ones(len(one)))
    return np.append(c, cd)


def _exponent(paths, solver):
    """The least-squares slope of log seconds on log n (LIBSVM's SMO exponent)."""
    rows = [json.loads(line) for p in paths for line in open(p) if f'"{solver}"' in line]
    x = np.log([r["n"] + 1 for r in rows])
    y = np.log([r["seconds"] for r in rows])
    slope, icpt = np.polyfit(x, y, 1)
    print(f"{solver}: seconds = {math.exp(icpt):.3g} (n+1)^{slope:.3f} over n={sorted({r['n'] for r in rows})}")


if __name__ == "__main__":
    if sys.argv[1] == "--fit":
        _fit(sys.argv[2:])
    elif sys.argv[1] == "--engine":
        _engine()
    elif sys.argv[1] == "--features":
        _features(sys.argv[2].split(","), sys.argv[3], int(sys.argv[4]), [int(v) for v in sys.argv[5].split(",")])
    elif sys.argv[1] == "--smo":
        _smo(sys.argv[2], [int(v) for v in sys.argv[3].split(",")])
    elif sys.argv[1] == "--exponent":
        _exponent(sys.argv[3:], sys.argv[2])
    else:
        _rows(sys.argv[1].split(","), sys.argv[2].split(","), [int(v) for v in sys.argv[3].split(",")])
